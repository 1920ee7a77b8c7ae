//! `sudosat grade`: difficulty of puzzles from the human-style solver's log.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use rayon::prelude::*;
use sudosat::generate::grade::{grade_until, GradeReport};
use sudosat::grid::Grid;
use sudosat::solve::{Deadline, Strategy};

use crate::args::PuzzleInputs;
use crate::common::{solutions, time_limit, write_output, Solutions, EXIT_NEGATIVE, EXIT_OK};

/// Arguments of `sudosat grade`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    /// One CSV row per puzzle.
    ///
    /// One CSV row per puzzle (stable columns, header first) instead of one line of words.
    #[arg(long)]
    csv: bool,
    /// Time limit in seconds per puzzle.
    ///
    /// Time limit in seconds per puzzle (guessing can take minutes on a large sparse
    /// grid); past it the command fails, naming the puzzle.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Output file (written whole or not at all); standard output when not given.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The CSV column name of a strategy's step count.
fn column(strategy: Strategy) -> String {
    strategy.name().replace([' ', '-'], "_").to_lowercase()
}

/// The grade of one puzzle and its solutions, both within `limit`.
fn grade_one(
    puzzle: &Grid,
    limit: Option<std::time::Duration>,
) -> Result<(GradeReport, Solutions)> {
    let deadline = Deadline::after(limit);
    let report = grade_until(puzzle, deadline)?;
    Ok((report, solutions(puzzle, deadline)?))
}

/// Runs the subcommand: puzzles graded in parallel, printed in input order; exit 0 when
/// every puzzle has exactly one solution, 1 when some has none or several (graded from
/// the attempt anyway).
pub fn run(args: Args) -> Result<ExitCode> {
    let puzzles = args.input.read()?;
    let limit = time_limit(args.timeout)?;
    let graded = puzzles
        .par_iter()
        .map(|p| grade_one(&p.grid, limit).with_context(|| p.location()))
        .collect::<Result<Vec<(GradeReport, Solutions)>>>()?;
    write_output(args.output.as_deref(), |w| {
        if args.csv {
            let mut csv = csv::Writer::from_writer(w);
            let mut header: Vec<String> = [
                "file",
                "line",
                "givens",
                "solved",
                "solutions",
                "grade",
                "score",
                "hardest",
                "guesses",
                "backtracks",
            ]
            .map(String::from)
            .to_vec();
            header.extend(Strategy::ALL.iter().map(|&s| column(s)));
            csv.write_record(&header)?;
            for (p, (r, solutions)) in puzzles.iter().zip(&graded) {
                let mut row = vec![
                    p.path.display().to_string(),
                    p.line.to_string(),
                    p.grid.num_givens().to_string(),
                    r.solved.to_string(),
                    solutions.field().to_string(),
                    r.grade.to_string(),
                    r.score.to_string(),
                    r.hardest.map_or(String::new(), |s| s.name().to_string()),
                    r.guesses.to_string(),
                    r.backtracks.to_string(),
                ];
                row.extend(Strategy::ALL.iter().map(|&s| r.count(s).to_string()));
                csv.write_record(&row)?;
            }
            csv.flush()?;
        } else {
            for (p, (r, solutions)) in puzzles.iter().zip(&graded) {
                writeln!(w, "{}: {}", p.location(), describe(r, *solutions))?;
            }
        }
        Ok(())
    })?;
    let improper = graded.iter().any(|(_, s)| *s != Solutions::One);
    Ok(ExitCode::from(if improper {
        EXIT_NEGATIVE
    } else {
        EXIT_OK
    }))
}

/// One line of words: grade (and the solutions, unless exactly one), score, hardest step,
/// guesses, steps per strategy.
fn describe(r: &GradeReport, solutions: Solutions) -> String {
    let steps: Vec<String> = r
        .counts
        .iter()
        .map(|(s, k)| format!("{} ×{k}", s.name()))
        .collect();
    format!(
        "{}{} (score {}); hardest: {}; {} guesses, {} backtracks; steps: {}",
        r.grade,
        match solutions {
            Solutions::One => "",
            Solutions::None => ", no solution",
            Solutions::Several => ", not unique: 2 or more solutions",
        },
        r.score,
        r.hardest.map_or("none", |s| s.name()),
        r.guesses,
        r.backtracks,
        if steps.is_empty() {
            "none".to_string()
        } else {
            steps.join(", ")
        }
    )
}
