//! `sudosat solve`: solve puzzles with the SAT path (encoding + backend) or a classic solver.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use sudosat::encode::Encoding;
use sudosat::grid::{check_solution, write_grid, Format, Grid};
use sudosat::solve::{SolveOutcome, Solver, SolverSpec};

use crate::args::{OutputFormat, PuzzleInputs, SolverArgs};
use crate::common::{write_output, InputGrid, EXIT_NEGATIVE, EXIT_OK};
use crate::proofs::{ProofArgs, Proved, Prover};

/// Arguments of `sudosat solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    #[command(flatten)]
    format: OutputFormat,
    #[command(flatten)]
    how: SolverArgs,
    /// Also check that each solution is unique (prints `unique` or `multiple (≥2)` after it;
    /// a puzzle with several solutions makes the exit code 1).
    #[arg(long)]
    unique: bool,
    /// Print statistics to standard error: encoding size, backend counters and times.
    #[arg(long)]
    stats: bool,
    /// With `--solver hill`: print the objective at each new best (and the iteration) to
    /// standard error.
    #[arg(long)]
    trace: bool,
    /// Output file (`-` = standard output, the default); written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    proofs: ProofArgs,
    /// Solve puzzles on N threads, one solver each (default: every core). The output, the
    /// statistics and the exit code are those of `--jobs 1`, in input order. `--proof-dir`
    /// and `--trace` run on one thread.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// One puzzle's answer.
enum Answer {
    Solved(Grid, Option<u64>, Option<Proved>),
    NoSolution(Option<Proved>),
    Stopped(String),
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = args.input.read()?;
    let (spec, mut solver) = args.how.build(args.trace)?;
    let format = Format::from(args.format);
    let mut prover = Prover::new(&args.proofs, &spec)?;
    let mut answers = Vec::with_capacity(inputs.len());
    let jobs = args.jobs.unwrap_or_else(sudosat::run::available_cores);
    if jobs > 1 && prover.is_none() && !args.trace && inputs.len() > 1 {
        // The puzzles share the cores: one thread each unless asked otherwise.
        let mut how = args.how.clone();
        how.sat.threads.get_or_insert(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .context("cannot start the solving threads")?;
        let results: Vec<Result<(Answer, Vec<String>)>> = pool.install(|| {
            inputs
                .par_iter()
                .enumerate()
                .map_init(
                    || how.build(false).map(|(_, solver)| solver),
                    |solver, (i, input)| match solver {
                        Ok(solver) => solve_one(&args, &spec, solver.as_mut(), None, i, input),
                        Err(e) => Err(anyhow::anyhow!("{e:#}")),
                    },
                )
                .collect()
        });
        for result in results {
            let (answer, notes) = result?;
            for note in notes {
                eprintln!("{note}");
            }
            answers.push(answer);
        }
    } else {
        for (i, input) in inputs.iter().enumerate() {
            let (answer, notes) =
                solve_one(&args, &spec, solver.as_mut(), prover.as_mut(), i, input)?;
            for note in notes {
                eprintln!("{note}");
            }
            answers.push(answer);
        }
    }
    let mut all_good = true;
    write_output(args.output.as_deref(), |w| {
        if format == Format::Csv2 {
            w.write_all(b"puzzle\n")?;
        }
        for (i, answer) in answers.iter().enumerate() {
            if i > 0 && matches!(format, Format::Block | Format::Grid | Format::Pretty) {
                w.write_all(b"\n")?;
            }
            match answer {
                Answer::Solved(grid, count, proved) => {
                    write_grid(w, grid, format)?;
                    match count {
                        None => {}
                        Some(1) => writeln!(w, "unique{}", Proved::suffix(proved))?,
                        Some(_) => {
                            all_good = false;
                            writeln!(w, "multiple (≥2)")?;
                        }
                    }
                }
                Answer::NoSolution(proved) => {
                    all_good = false;
                    writeln!(w, "no solution{}", Proved::suffix(proved))?;
                }
                Answer::Stopped(why) => {
                    all_good = false;
                    writeln!(w, "stopped: {why}")?;
                }
            }
        }
        Ok(())
    })?;
    if let Some(prover) = prover {
        prover.finish()?;
    }
    Ok(ExitCode::from(if all_good {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// Solves puzzle `i` (0-based): its answer, and the lines for standard error (statistics,
/// trace) in order.
fn solve_one(
    args: &Args,
    spec: &SolverSpec,
    solver: &mut dyn Solver,
    mut prover: Option<&mut Prover>,
    i: usize,
    input: &InputGrid,
) -> Result<(Answer, Vec<String>)> {
    if let Some(prover) = prover.as_deref() {
        prover.ask(solver, i + 1);
    }
    let start = Instant::now();
    args.how
        .check_memory(&input.grid)
        .with_context(|| input.location())?;
    let report = match solver.solve(&input.grid) {
        Ok(report) => report,
        Err(error) => {
            // A time-out (or any failure) still shows how far the solver got.
            if args.stats {
                let counters = sudosat::backend::Counters::default();
                let line = stats_line(
                    i + 1,
                    &input.location(),
                    spec,
                    solver,
                    &counters,
                    start.elapsed(),
                );
                eprintln!("{line} (stopped: {error})");
            }
            return Err(error).with_context(|| input.location());
        }
    };
    let total = start.elapsed();
    let mut notes = Vec::new();
    if args.stats {
        notes.push(stats_line(
            i + 1,
            &input.location(),
            spec,
            solver,
            &report.counters,
            total,
        ));
    }
    for line in solver.trace_lines() {
        notes.push(format!(
            "trace: puzzle {} ({}): {line}",
            i + 1,
            input.location()
        ));
    }
    let answer = match report.outcome {
        SolveOutcome::Solved(grid) => {
            let check = check_solution(&input.grid, &grid);
            if !check.is_valid() {
                bail!(
                    "{}: solver `{}` returned a grid that is not a solution",
                    input.location(),
                    solver.name()
                );
            }
            let count = if args.unique {
                if let Some(prover) = &prover {
                    prover.ask(solver, i + 1);
                }
                let count = solver
                    .count_solutions(&input.grid, 2)
                    .with_context(|| input.location())?;
                Some(count.with_context(|| {
                    format!("solver `{}` cannot count solutions", solver.name())
                })?)
            } else {
                None
            };
            let proved = match prover.as_deref_mut() {
                Some(prover) if count == Some(1) => {
                    prover.collect(solver, i + 1, input, "unique")?
                }
                _ => None,
            };
            Answer::Solved(grid, count, proved)
        }
        SolveOutcome::NoSolution => {
            let proved = match prover.as_deref_mut() {
                Some(prover) => prover.collect(solver, i + 1, input, "no solution")?,
                None => None,
            };
            Answer::NoSolution(proved)
        }
        SolveOutcome::Stopped(why) => Answer::Stopped(why),
    };
    if let (Some(prover), Answer::Solved(_, count, _)) = (prover, &answer) {
        if *count != Some(1) {
            // No UNSAT answer to prove: drop the partial proof.
            prover.collect(solver, i + 1, input, "")?;
        }
    }
    Ok((answer, notes))
}

fn micros(d: Duration) -> String {
    format!("{:.1}µs", d.as_secs_f64() * 1e6)
}

fn stats_line(
    index: usize,
    location: &str,
    spec: &SolverSpec,
    solver: &dyn Solver,
    counters: &sudosat::backend::Counters,
    total: Duration,
) -> String {
    match (spec, solver.sat_stats()) {
        (SolverSpec::Sat { encoding, backend }, Some(s)) => {
            format!(
                "stats: puzzle {index} ({location}): encoding={} backend={} vars={} clauses={} \
                 literals={} {} encode={} solve={} decode={} total={}",
                encoding.name(),
                backend.label(),
                s.size.vars,
                s.size.clauses,
                s.size.literals,
                s.backend,
                micros(s.encode_time),
                micros(s.solve_time),
                micros(s.decode_time),
                micros(total)
            )
        }
        _ => format!(
            "stats: puzzle {index} ({location}): solver={} {counters} total={}",
            solver.name(),
            micros(total)
        ),
    }
}
