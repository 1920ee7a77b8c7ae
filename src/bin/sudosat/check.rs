//! `sudosat check`: validate puzzles (no unit repeats a digit) or, with `--solution`,
//! solutions (full, valid, keeping their puzzle's givens).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use sudosat::generate::{properness, CounterKind, Diagnosis, Properness, Symmetry};
use sudosat::grid::{
    canonical, check_grid, check_solution, Cell, CheckReport, Digit, DigitSet, Format, Grid,
};
use sudosat::names::plural;

use crate::args::named;

use crate::common::{
    diagnose_all, input_json, inputs_or_stdin, read_located_inputs, read_one_per_puzzle,
    stdin_at_most_once, time_limit, write_output, InputGrid, EXIT_NEGATIVE, EXIT_OK,
};

/// Violations printed per grid before the rest are summarised.
const MAX_SHOWN: usize = 20;

/// Arguments of `sudosat check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Puzzle (or solution) files; `-` or none reads standard input.
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Input format; detected from each file's content when not given.
    #[arg(long, value_name = "FORMAT", value_parser = named::<Format>())]
    from: Option<Format>,
    /// Solutions to check, one filled grid per puzzle.
    ///
    /// Solutions to check against the puzzles: one filled grid per puzzle, in order.
    #[arg(long, value_name = "SOLFILE")]
    solution: Option<PathBuf>,
    /// Format of the solution file (detected when not given).
    ///
    /// Format of the solution file; detected from its content when not given.
    #[arg(long, value_name = "FORMAT", value_parser = named::<Format>())]
    solution_from: Option<Format>,
    /// Also report puzzles that repeat an earlier one.
    ///
    /// Also report puzzles that repeat an earlier one, as given or disguised by the
    /// grid's symmetries (rotated, mirrored, relabelled, rows and columns permuted within
    /// the rules: compared by canonical form, `transform --canonical`; grids above 9×9 are
    /// compared as given). Any duplicate makes the exit code 1.
    #[arg(long, conflicts_with = "solution")]
    duplicates: bool,
    /// Also check that each puzzle is proper and minimal.
    ///
    /// Also check that each puzzle is proper and minimal, as puzzle authors require:
    /// exactly one solution, and no given that could go with the solution staying unique
    /// (those are named). Counted exactly, by Dancing Links up to 16×16 and the SAT path
    /// above. A puzzle that is not makes the exit code 1.
    #[arg(long, conflicts_with = "solution")]
    minimal: bool,
    /// Also say why a puzzle is not proper, and what would fix it.
    ///
    /// Also say why a puzzle is not proper, and what would fix it. Without a solution: a
    /// minimal set of givens that already admits none (without any one of them the rest
    /// have a solution; a mistyped given is among them), first traced by singles and
    /// probing; wider than 49×49, the set they find is kept, minimal for them only. With
    /// several: every cell whose digit differs between solutions, with the digits it
    /// takes, and givens from one solution that make it the only one (each of them
    /// needed). Found by cdcl under assumptions. A puzzle that is not proper makes the exit
    /// code 1.
    #[arg(long, conflicts_with = "solution")]
    diagnose: bool,
    /// Write the report as one JSON document.
    ///
    /// Write the report as one JSON document for programs instead of lines: `grids`, one
    /// object per grid (`file`, `line`, `size`, `givens`, `valid`, `violations`, and as
    /// the flags ask `proper`, `redundant`, `symmetries`, `diagnosis`, `duplicate_of`),
    /// then `summary`. The exit code is the same.
    #[arg(long)]
    json: bool,
    /// Time limit in seconds per puzzle for --diagnose.
    ///
    /// Time limit in seconds per puzzle for `--diagnose`. Past it, a puzzle with two
    /// solutions found is reported with the cells and digits the solutions found by then
    /// show, one without solution with givens that admit none together (said when not yet
    /// shown minimal) and the suspects tried (`finished: false` in JSON); a puzzle whose
    /// verdict is not known by then makes the command fail.
    #[arg(long, value_name = "SECS", requires = "diagnose")]
    timeout: Option<f64>,
    /// Memory budget of --diagnose, e.g. 512M or 8G.
    ///
    /// Memory budget of `--diagnose`, e.g. 512M or 8G (default half the memory available),
    /// shared by the threads: naming the givens at fault in a grid without solution asks
    /// about the empty grid's whole encoding (81×81: about 3 GiB), refused above its share;
    /// the propagation tried first takes 8n³ bytes (400×400: 512 MB), skipped above it.
    #[arg(long, value_name = "BYTES", value_parser = crate::args::parse_bytes, requires = "diagnose")]
    max_memory: Option<u64>,
}

/// Whether each puzzle is proper and minimal (`None` for a puzzle whose givens clash,
/// which the rule check reports), on every core.
fn find_properness(puzzles: &[InputGrid]) -> Result<Vec<Option<Properness>>> {
    use rayon::prelude::*;
    puzzles
        .par_iter()
        .map(|p| {
            if !check_grid(&p.grid).is_valid() {
                return Ok(None);
            }
            // Exact counters only: a budgeted count would call redundant givens necessary.
            let kind = if p.grid.side() <= 16 {
                CounterKind::Dlx
            } else {
                CounterKind::Sat
            };
            let found = properness(&p.grid, &|| kind.make());
            Ok(Some(found.with_context(|| p.location())?))
        })
        .collect()
}

/// For each grid after its first occurrence: the index of that first occurrence and
/// whether the two are identical (else isomorphic).
fn find_duplicates(grids: &[&Grid]) -> Vec<Option<(usize, bool)>> {
    use rayon::prelude::*;
    // The canonical form is ~1 ms a 9×9 puzzle: spread over the cores.
    let keys: Vec<Grid> = grids
        .par_iter()
        .map(|g| canonical(g).unwrap_or_else(|| (*g).clone()))
        .collect();
    let mut first: std::collections::HashMap<&Grid, usize> = std::collections::HashMap::new();
    keys.iter()
        .enumerate()
        .map(|(i, key)| match first.get(key) {
            Some(&j) => Some((j, grids[i] == grids[j])),
            None => {
                first.insert(key, i);
                None
            }
        })
        .collect()
}

/// Runs the subcommand: one line per grid, its violations indented below it, a summary;
/// exit 0 when every grid is valid, 1 otherwise.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = inputs_or_stdin(&args.files);
    stdin_at_most_once(inputs.iter().chain(&args.solution).map(PathBuf::as_path))?;
    let puzzles = read_located_inputs(&inputs, args.from)?;
    let solutions = match &args.solution {
        Some(path) => Some(read_one_per_puzzle(
            path,
            args.solution_from,
            &puzzles,
            "solution",
        )?),
        None => None,
    };
    let limit = time_limit(args.timeout)?;
    let proper = if args.minimal {
        find_properness(&puzzles)?
    } else {
        Vec::new()
    };
    let diagnoses = if args.diagnose {
        diagnose_all(&puzzles, limit, args.max_memory)?
    } else {
        Vec::new()
    };
    let stdout = std::io::stdout();
    // With --json the lines go nowhere and the records say the same.
    let mut out: Box<dyn Write> = if args.json {
        Box::new(std::io::sink())
    } else {
        Box::new(std::io::BufWriter::new(stdout.lock()))
    };
    let mut records: Vec<serde_json::Value> = Vec::new();
    let mut invalid = 0;
    let mut improper = 0;
    for (i, puzzle) in puzzles.iter().enumerate() {
        let (report, what) = match &solutions {
            Some(sols) => {
                let sol = &sols[i];
                let report = check_solution(&puzzle.grid, &sol.grid);
                (report, format!("solution {}", sol.location()))
            }
            None => {
                let report = check_grid(&puzzle.grid);
                (report, describe(&puzzle.grid))
            }
        };
        let geometry = puzzle.grid.geometry();
        let mut record = input_json(puzzle);
        record["valid"] = report.is_valid().into();
        record["violations"] = report
            .violations
            .iter()
            .map(|v| {
                v.display(
                    solutions
                        .as_ref()
                        .map_or(geometry, |s| s[i].grid.geometry()),
                )
                .to_string()
            })
            .collect();
        if let Some(sols) = &solutions {
            record["solution"] = input_json(&sols[i]);
        }
        if let Some(found) = proper.get(i).cloned().flatten() {
            let (verdict, redundant) = match &found {
                Properness::NoSolution => ("no solution", &[][..]),
                Properness::Several => ("several", &[][..]),
                Properness::Unique { redundant } => ("unique", &redundant[..]),
            };
            record["proper"] = verdict.into();
            record["redundant"] = redundant.iter().map(|&c| geometry.cell_json(c)).collect();
            record["symmetries"] = symmetries(&puzzle.grid).into();
        }
        if let Some(found) = diagnoses.get(i).and_then(Option::as_ref) {
            record["diagnosis"] = found.to_json(geometry);
        }
        records.push(record);
        if report.is_valid() {
            let solved = solutions.is_none() && puzzle.grid.is_full();
            let what = if solved {
                what + ", a valid solution"
            } else {
                what
            };
            let diagnosis = diagnoses.get(i).and_then(Option::as_ref);
            match (proper.get(i).cloned().flatten(), diagnosis) {
                (Some(found), _) => {
                    let verdict = describe_properness(&found, &puzzle.grid, &what);
                    if !matches!(&found, Properness::Unique { redundant } if redundant.is_empty()) {
                        improper += 1;
                    }
                    writeln!(out, "{}: {verdict}", puzzle.location())?;
                }
                (None, Some(found)) => {
                    let verdict = match found {
                        Diagnosis::Unique { .. } => format!("ok: {what}, unique"),
                        Diagnosis::NoSolution { .. } => format!("no solution: {what}"),
                        Diagnosis::Several { .. } => {
                            format!("not unique: {what}; 2 or more solutions")
                        }
                    };
                    if !matches!(found, Diagnosis::Unique { .. }) {
                        improper += 1;
                    }
                    writeln!(out, "{}: {verdict}", puzzle.location())?;
                }
                (None, None) => writeln!(out, "{}: ok: {what}", puzzle.location())?,
            }
            if let Some(found) = diagnosis {
                print_diagnosis(&mut out, found, &puzzle.grid)?;
            }
        } else {
            invalid += 1;
            print_invalid(
                &mut out,
                puzzle,
                solutions.as_ref().map(|s| &s[i]),
                &report,
                &what,
            )?;
        }
    }
    let mut duplicates = 0;
    if args.duplicates {
        let grids: Vec<&Grid> = puzzles.iter().map(|p| &p.grid).collect();
        for (i, (puzzle, found)) in puzzles.iter().zip(find_duplicates(&grids)).enumerate() {
            if let Some((j, identical)) = found {
                duplicates += 1;
                let mut first = input_json(&puzzles[j]);
                first["identical"] = identical.into();
                records[i]["duplicate_of"] = first;
                let how = if identical {
                    "identical"
                } else {
                    "the same up to symmetry"
                };
                writeln!(
                    out,
                    "{}: duplicate of {} ({how})",
                    puzzle.location(),
                    puzzles[j].location()
                )?;
            }
        }
    }
    let noun = match (solutions.is_some(), puzzles.len()) {
        (true, 1) => "solution",
        (true, _) => "solutions",
        (false, 1) => "grid",
        (false, _) => "grids",
    };
    let duplicated = if args.duplicates {
        format!(", {}", plural(duplicates, "duplicate"))
    } else {
        String::new()
    };
    let improper_note = if args.minimal {
        format!(", {improper} not proper and minimal")
    } else if args.diagnose {
        format!(", {improper} not proper")
    } else {
        String::new()
    };
    writeln!(
        out,
        "checked {} {noun}: {} valid, {invalid} invalid{duplicated}{improper_note}",
        puzzles.len(),
        puzzles.len() - invalid
    )?;
    out.flush()?;
    drop(out);
    if args.json {
        let mut summary = serde_json::json!({
            "checked": puzzles.len(),
            "valid": puzzles.len() - invalid,
            "invalid": invalid,
        });
        if args.duplicates {
            summary["duplicates"] = duplicates.into();
        }
        if args.minimal || args.diagnose {
            summary["not_proper"] = improper.into();
        }
        write_output(None, |w| {
            serde_json::to_writer(
                &mut *w,
                &serde_json::json!({ "grids": records, "summary": summary }),
            )?;
            writeln!(w)?;
            Ok(())
        })?;
    }
    Ok(ExitCode::from(
        if invalid == 0 && duplicates == 0 && improper == 0 {
            EXIT_OK
        } else {
            EXIT_NEGATIVE
        },
    ))
}

/// The line of a valid puzzle with `--minimal`: `ok: …, unique and minimal`, or what it
/// lacks, with the givens that can go (the first [`MAX_SHOWN`]).
fn describe_properness(found: &Properness, grid: &Grid, what: &str) -> String {
    let geometry = grid.geometry();
    match found {
        Properness::NoSolution => format!("no solution: {what}"),
        Properness::Several => format!("not unique: {what}; 2 or more solutions"),
        Properness::Unique { redundant } if redundant.is_empty() => {
            format!("ok: {what}, unique and minimal{}", pattern_note(grid))
        }
        Properness::Unique { redundant } => {
            let cells = shown(redundant.iter().map(|&c| geometry.cell_label(c)));
            format!(
                "not minimal: {what}, unique{}; {} with the solution staying unique: {}",
                pattern_note(grid),
                can_go(redundant.len()),
                cells
            )
        }
    }
}

/// The lines under a puzzle that is not proper: the givens that admit no solution, or the
/// cells that differ between solutions and the givens that would fix one (the first
/// [`MAX_SHOWN`] of each).
fn print_diagnosis(out: &mut impl Write, found: &Diagnosis, grid: &Grid) -> Result<()> {
    let geometry = grid.geometry();
    let given = |&given: &(Cell, Digit)| geometry.given_label(given);
    match found {
        Diagnosis::Unique { .. } => {}
        Diagnosis::NoSolution {
            core,
            suspects,
            prime_suspects,
            minimal,
            finished,
        } => {
            if !finished && core.is_empty() {
                writeln!(
                    out,
                    "  the time limit passed before the givens at fault were found"
                )?;
                return Ok(());
            }
            writeln!(
                out,
                "  {} alone admit no solution{}: {}",
                plural(core.len(), "given"),
                match (minimal, finished) {
                    (true, _) => ", and each is needed",
                    (false, true) => {
                        " (without any one of them, singles and probing find none; on \
                         grids this wide not checked further)"
                    }
                    (false, false) => " (some may not be needed)",
                },
                shown(core.iter().map(given))
            )?;
            if !prime_suspects.is_empty() {
                writeln!(
                    out,
                    "  {} to leave a puzzle with exactly one solution: {}",
                    can_go(prime_suspects.len()),
                    shown(prime_suspects.iter().map(given))
                )?;
            }
            let others: Vec<&(Cell, Digit)> = suspects
                .iter()
                .filter(|g| !prime_suspects.contains(g))
                .collect();
            if *finished && suspects.is_empty() {
                writeln!(
                    out,
                    "  no single given's removal leaves a puzzle with a solution"
                )?;
            } else if !others.is_empty() {
                writeln!(
                    out,
                    "  {} to leave a puzzle with several solutions: {}",
                    can_go(others.len()),
                    shown(others.into_iter().map(given))
                )?;
            }
            if !finished {
                writeln!(
                    out,
                    "  the time limit passed before every given was tried alone"
                )?;
            }
        }
        Diagnosis::Several {
            open,
            completion,
            finished,
            ..
        } => {
            let cell = |(cell, digits): &(Cell, DigitSet)| {
                let digits: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
                format!("{}: {}", geometry.cell_label(*cell), digits.join("/"))
            };
            let at_least = if *finished { "" } else { "at least " };
            writeln!(
                out,
                "  {at_least}{} differ between solutions: {}",
                plural(open.len(), "cell"),
                shown(open.iter().map(cell))
            )?;
            if *finished {
                writeln!(
                    out,
                    "  adding {} makes one solution the only one: {}",
                    plural(completion.len(), "given"),
                    shown(completion.iter().map(given))
                )?;
            } else {
                writeln!(
                    out,
                    "  the time limit passed before the diagnosis was done: no givens proposed"
                )?;
            }
        }
    }
    Ok(())
}

/// "1 given can go", "3 givens can each go".
fn can_go(count: usize) -> String {
    let each = if count == 1 { "" } else { " each" };
    format!("{} can{each} go", plural(count, "given"))
}

/// The first [`MAX_SHOWN`] items, comma-separated, with how many more there are.
fn shown(items: impl ExactSizeIterator<Item = String>) -> String {
    let total = items.len();
    let mut shown: Vec<String> = items.take(MAX_SHOWN).collect();
    if total > MAX_SHOWN {
        shown.push(format!("… and {} more", total - MAX_SHOWN));
    }
    shown.join(", ")
}

/// The symmetries the pattern of givens has (`, symmetric: rot180, mirror`), as the
/// generator's `--symmetry` names them; nothing when it has none.
fn pattern_note(grid: &Grid) -> String {
    let kept = symmetries(grid);
    if kept.is_empty() {
        String::new()
    } else {
        format!(", symmetric: {}", kept.join(", "))
    }
}

/// The symmetries the pattern of givens has, by `generate --symmetry` names.
fn symmetries(grid: &Grid) -> Vec<&'static str> {
    Symmetry::ALL
        .iter()
        .filter(|&&s| s != Symmetry::None && s.holds_for(grid))
        .map(|s| s.name())
        .collect()
}

fn describe(grid: &Grid) -> String {
    let n = grid.side();
    if grid.is_full() {
        format!("{n}×{n} full grid")
    } else {
        format!("{n}×{n} puzzle, {} givens", grid.num_givens())
    }
}

fn print_invalid(
    out: &mut impl Write,
    puzzle: &InputGrid,
    solution: Option<&InputGrid>,
    report: &CheckReport,
    what: &str,
) -> Result<()> {
    let count = report.violations.len();
    writeln!(
        out,
        "{}: invalid: {what}: {}",
        puzzle.location(),
        plural(count, "violation")
    )?;
    let geometry = solution.unwrap_or(puzzle).grid.geometry();
    for v in report.violations.iter().take(MAX_SHOWN) {
        writeln!(out, "  {}", v.display(geometry))?;
    }
    if count > MAX_SHOWN {
        writeln!(out, "  … and {} more", count - MAX_SHOWN)?;
    }
    Ok(())
}
