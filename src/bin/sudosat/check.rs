//! `sudosat check`: validate puzzles (no unit repeats a digit) or, with `--solution`,
//! solutions (full, valid, keeping their puzzle's givens).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use sudosat::grid::{check_grid, check_solution, CheckReport, Format, Grid};
use sudosat::names::plural;

use crate::args::named;

use crate::common::{
    display_path, inputs_or_stdin, read_located_inputs, stdin_at_most_once, InputGrid,
    EXIT_NEGATIVE, EXIT_OK,
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
    /// Solutions to check against the puzzles: one filled grid per puzzle, in order.
    #[arg(long, value_name = "SOLFILE")]
    solution: Option<PathBuf>,
    /// Format of the solution file; detected from its content when not given.
    #[arg(long, value_name = "FORMAT", value_parser = named::<Format>())]
    solution_from: Option<Format>,
}

/// Runs the subcommand: one line per grid, its violations indented below it, a summary;
/// exit 0 when every grid is valid, 1 otherwise.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = inputs_or_stdin(&args.files);
    stdin_at_most_once(inputs.iter().chain(&args.solution).map(PathBuf::as_path))?;
    let puzzles = read_located_inputs(&inputs, args.from)?;
    let solutions = match &args.solution {
        Some(path) => {
            let sols = read_located_inputs(std::slice::from_ref(path), args.solution_from)?;
            if sols.len() != puzzles.len() {
                bail!(
                    "{}: {} for {}; expected one solution per puzzle, in order",
                    display_path(path),
                    plural(sols.len(), "solution"),
                    plural(puzzles.len(), "puzzle")
                );
            }
            Some(sols)
        }
        None => None,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut invalid = 0;
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
        if report.is_valid() {
            let solved = solutions.is_none() && puzzle.grid.is_full();
            let what = if solved {
                what + ", a valid solution"
            } else {
                what
            };
            writeln!(out, "{}: ok: {what}", puzzle.location())?;
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
    let noun = match (solutions.is_some(), puzzles.len()) {
        (true, 1) => "solution",
        (true, _) => "solutions",
        (false, 1) => "grid",
        (false, _) => "grids",
    };
    writeln!(
        out,
        "checked {} {noun}: {} valid, {invalid} invalid",
        puzzles.len(),
        puzzles.len() - invalid
    )?;
    out.flush()?;
    Ok(ExitCode::from(if invalid == 0 {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
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
