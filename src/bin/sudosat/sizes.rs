//! `sudosat sizes`: variables, clauses and literals of every encoding. By default one line
//! per encoding and input file (the puzzle's sizes, or the file's average when it holds
//! several) with the default at-most-one family; `--all` gives every family and the rows
//! of every puzzle, total and average.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use sudosat::backend::RootMode;
use sudosat::encode::{pruned_size, AmoFamily, Encoding, PrunedForm, SudokuEncoding};
use sudosat::formula::FormulaSize;
use sudosat::grid::read_puzzles_from_path;
use sudosat::solve::root::reason_at_root;

use crate::args::{named, PuzzleInputs};
use crate::common::{display_path, stdin_at_most_once, write_output, EXIT_OK};

/// Arguments of `sudosat sizes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    /// Every at-most-one family; every puzzle's, total and average rows.
    ///
    /// Without it: the default family (pairwise) unless `--amo` lists others, and one row
    /// per encoding and file: the puzzle's, or the average when the file holds several.
    #[arg(long)]
    all: bool,
    /// CSV output, one row per puzzle and encoding, plus total and average rows.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// JSON output (the same rows).
    #[arg(long)]
    json: bool,
    /// Totals and averages only (leaves out the per-puzzle rows).
    #[arg(long)]
    summary: bool,
    /// Comma-separated at-most-one families, or all.
    ///
    /// The default: pairwise, or all with --all.
    #[arg(long, value_name = "LIST")]
    amo: Option<String>,
    /// Comma-separated encodings (as in `compare --encodings`).
    #[arg(long, value_name = "LIST", default_value = "all")]
    encodings: String,
    /// Sizes after root reasoning (as encode --root).
    ///
    /// The sizes of the formula `encode --root MODE` writes: the puzzle with the cells the
    /// reasoning fixed given and each candidate it removed a unit clause (with
    /// `--simplify`, a reduced encoding's formula over the candidates left). `none`, the
    /// default, gives the puzzle's own formula.
    #[arg(long, value_name = "MODE", default_value_t = RootMode::None, value_parser = named::<RootMode>())]
    root: RootMode,
    /// With --root: the sizes with --simplify (reduced encodings).
    #[arg(long)]
    simplify: bool,
}

/// One row of the report.
#[derive(Clone, Debug, serde::Serialize)]
struct Row {
    file: String,
    /// 1-based puzzle index, `total` or `average`.
    puzzle: String,
    side: usize,
    givens: usize,
    encoding: String,
    vars: usize,
    clauses: usize,
    literals: usize,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let families = match (&args.amo, args.all) {
        (Some(list), _) => sudosat::compare::parse_amo_families(list)?,
        (None, true) => AmoFamily::ALL.to_vec(),
        (None, false) => vec![AmoFamily::Pairwise],
    };
    let encodings = sudosat::compare::cross_amo(
        &sudosat::compare::parse_encodings(&args.encodings)?,
        &families,
    );
    if args.simplify && args.root == RootMode::None {
        anyhow::bail!("--simplify drops what --root removes: give --root hall or --root auto");
    }
    let form = if args.simplify {
        PrunedForm::Simplified
    } else {
        PrunedForm::Units
    };
    // The rows of each puzzle, totals and averages: all of them, or the compact table.
    let full = args.all || args.summary;
    let paths = args.input.paths();
    stdin_at_most_once(paths.iter().map(|p| p.as_path()))?;
    let mut rows = Vec::new();
    for path in &paths {
        let puzzles = read_puzzles_from_path(path, args.input.from)?;
        let file = display_path(path);
        let compact_single = !full && puzzles.len() == 1;
        let mut totals = vec![FormulaSize::default(); encodings.len()];
        let mut givens = 0;
        for (i, puzzle) in puzzles.iter().enumerate() {
            givens += puzzle.num_givens();
            let sizes = match reason_at_root(puzzle, args.root, || false) {
                None => sudosat::encode::sizes_of(puzzle, &encodings),
                Some(outcome) => {
                    let pruned = outcome.pruned(puzzle, args.root);
                    encodings
                        .iter()
                        .map(|enc| pruned_size(enc, &pruned, form))
                        .collect()
                }
            };
            for (k, (enc, &s)) in encodings.iter().zip(&sizes).enumerate() {
                totals[k].vars += s.vars;
                totals[k].clauses += s.clauses;
                totals[k].literals += s.literals;
                if (full && !args.summary) || compact_single {
                    rows.push(row(
                        &file,
                        (i + 1).to_string(),
                        puzzle.side(),
                        puzzle.num_givens(),
                        enc,
                        s,
                    ));
                }
            }
        }
        if compact_single {
            continue;
        }
        let count = puzzles.len().max(1);
        let side = puzzles.first().map_or(0, |p| p.side());
        if full {
            for (k, enc) in encodings.iter().enumerate() {
                rows.push(row(&file, "total".into(), side, givens, enc, totals[k]));
            }
        }
        for (k, enc) in encodings.iter().enumerate() {
            let t = totals[k];
            let avg = |x: usize| (x + count / 2) / count;
            let s = FormulaSize {
                vars: avg(t.vars),
                clauses: avg(t.clauses),
                literals: avg(t.literals),
            };
            rows.push(row(&file, "average".into(), side, avg(givens), enc, s));
        }
    }
    write_output(None, |w| {
        if args.json {
            serde_json::to_writer_pretty(&mut *w, &rows)?;
            writeln!(w)?;
        } else if args.csv {
            let mut csv = csv::Writer::from_writer(w);
            for r in &rows {
                csv.serialize(r)?;
            }
            csv.flush()?;
        } else {
            write_table(w, &rows)?;
        }
        Ok(())
    })?;
    Ok(ExitCode::from(EXIT_OK))
}

fn row(
    file: &str,
    puzzle: String,
    side: usize,
    givens: usize,
    enc: &SudokuEncoding,
    s: FormulaSize,
) -> Row {
    Row {
        file: file.to_string(),
        puzzle,
        side,
        givens,
        encoding: enc.name(),
        vars: s.vars,
        clauses: s.clauses,
        literals: s.literals,
    }
}

fn write_table(w: &mut dyn Write, rows: &[Row]) -> Result<()> {
    let file_width = rows.iter().map(|r| r.file.len()).max().unwrap_or(4).max(4);
    writeln!(
        w,
        "{:file_width$}  {:>7}  {:>7}  {:>6}  {:28}  {:>12}  {:>14}  {:>14}",
        "file", "puzzle", "size", "givens", "encoding", "vars", "clauses", "literals"
    )?;
    for r in rows {
        writeln!(
            w,
            "{:file_width$}  {:>7}  {:>7}  {:>6}  {:28}  {:>12}  {:>14}  {:>14}",
            r.file,
            r.puzzle,
            format!("{0}x{0}", r.side),
            r.givens,
            r.encoding,
            r.vars,
            r.clauses,
            r.literals
        )?;
    }
    Ok(())
}
