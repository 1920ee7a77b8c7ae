//! `sudosat solve`: solve puzzles with the SAT path (encoding + backend) or a classic solver.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use sudosat::encode::Encoding;
use sudosat::grid::{check_solution, write_grid, Format, Grid};
use sudosat::solve::{SolveOutcome, Solver, SolverSpec};

use crate::args::{OutputFormat, PuzzleInputs, SolverArgs};
use crate::common::{progress_bar, write_output, InputGrid, EXIT_NEGATIVE, EXIT_OK, MAX_JOBS};
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
    /// Also check that each solution is unique.
    ///
    /// Also check that each solution is unique (prints `unique` or `multiple (≥2)` after it;
    /// a puzzle with several solutions makes the exit code 1).
    #[arg(long)]
    unique: bool,
    /// Print statistics to standard error.
    ///
    /// Print statistics to standard error: encoding size, backend counters and times.
    #[arg(long)]
    stats: bool,
    /// With --solver hill: print each new best objective.
    ///
    /// With `--solver hill`: print the objective at each new best (and the iteration) to
    /// standard error.
    #[arg(long)]
    trace: bool,
    /// Output file (`-` = standard output, the default).
    ///
    /// Output file (`-` = standard output, the default); written whole or not at all. The
    /// answers go out in input order as they are found, 4,096 puzzles at a time (a file is
    /// renamed into place when complete); with a file, a progress bar shows on a terminal.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    proofs: ProofArgs,
    /// Solve puzzles on N threads (default: every core).
    ///
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

/// Puzzles solved between two writes of the answers: the answers of a large file go out
/// as they come, in input order, without the whole file's answers held in memory; on
/// several jobs, a chunk is large enough that one slow puzzle rarely idles the others.
const CHUNK: usize = 4096;

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let jobs = args
        .jobs
        .unwrap_or_else(|| sudosat::run::available_cores().min(MAX_JOBS));
    if !(1..=MAX_JOBS).contains(&jobs) {
        bail!("--jobs must be between 1 and {MAX_JOBS}, not {jobs}");
    }
    // Every puzzle is read (and a bad one reported) before any answer is written.
    let inputs = args.input.read()?;
    let (spec, mut solver) = args.how.build(args.trace)?;
    let format = Format::from(args.format);
    let mut prover = Prover::new(&args.proofs, &spec)?;
    let parallel = jobs > 1 && prover.is_none() && !args.trace && inputs.len() > 1;
    let pool = if parallel {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(jobs)
                .build()
                .context("cannot start the solving threads")?,
        )
    } else {
        None
    };
    // The puzzles share the cores: one thread each unless asked otherwise.
    let mut how = args.how.clone();
    how.sat.threads.get_or_insert(1);
    // For long files only, and not over the answers on a terminal or statistics and traces,
    // which print their own lines.
    let answers_on_terminal = args.output.as_deref().map_or(true, |p| p == Path::new("-"))
        && std::io::stdout().is_terminal();
    let bar = progress_bar(
        inputs.len(),
        "puzzles",
        answers_on_terminal || args.stats || args.trace || inputs.len() <= CHUNK,
    );
    let mut all_good = true;
    let failed_at = AtomicUsize::new(usize::MAX);
    write_output(args.output.as_deref(), |w| {
        if format == Format::Csv2 {
            w.write_all(b"puzzle\n")?;
        }
        for (chunk_index, chunk) in inputs.chunks(CHUNK).enumerate() {
            let first = chunk_index * CHUNK;
            let results: Vec<Result<(Answer, Vec<String>)>> = match &pool {
                Some(pool) => pool.install(|| {
                    chunk
                        .par_iter()
                        .enumerate()
                        .map_init(
                            || how.build(false).map(|(_, solver)| solver),
                            |solver, (k, input)| {
                                let i = first + k;
                                // An error ends the run: puzzles after the first failing
                                // one are not solved. Those before it still are, so the
                                // error reported is the first in input order, as on one job.
                                if i > failed_at.load(Ordering::Relaxed) {
                                    return Err(anyhow::anyhow!("skipped after an error"));
                                }
                                let result = match solver {
                                    Ok(solver) => {
                                        solve_one(&args, &spec, solver.as_mut(), None, i, input)
                                    }
                                    Err(e) => Err(anyhow::anyhow!("{e:#}")),
                                };
                                if result.is_err() {
                                    failed_at.fetch_min(i, Ordering::Relaxed);
                                }
                                result
                            },
                        )
                        .collect()
                }),
                None => {
                    let mut results = Vec::with_capacity(chunk.len());
                    for (k, input) in chunk.iter().enumerate() {
                        let result = solve_one(
                            &args,
                            &spec,
                            solver.as_mut(),
                            prover.as_mut(),
                            first + k,
                            input,
                        );
                        let failed = result.is_err();
                        results.push(result);
                        if failed {
                            break;
                        }
                    }
                    results
                }
            };
            for (k, result) in results.into_iter().enumerate() {
                let (answer, notes) = result?;
                for note in notes {
                    bar.suspend(|| eprintln!("{note}"));
                }
                if first + k > 0 && matches!(format, Format::Block | Format::Grid | Format::Pretty)
                {
                    w.write_all(b"\n")?;
                }
                all_good &= write_answer(w, &answer, format)?;
            }
            bar.inc(chunk.len() as u64);
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(prover) = prover {
        prover.finish()?;
    }
    Ok(ExitCode::from(if all_good {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// Writes one puzzle's answer; whether it is a unique solution or a solution not checked for
/// uniqueness (anything else makes the exit code 1).
fn write_answer(w: &mut dyn Write, answer: &Answer, format: Format) -> Result<bool> {
    Ok(match answer {
        Answer::Solved(grid, count, proved) => {
            write_grid(w, grid, format)?;
            match count {
                None => true,
                Some(1) => {
                    writeln!(w, "unique{}", Proved::suffix(proved))?;
                    true
                }
                Some(_) => {
                    writeln!(w, "multiple (≥2)")?;
                    false
                }
            }
        }
        Answer::NoSolution(proved) => {
            writeln!(w, "no solution{}", Proved::suffix(proved))?;
            false
        }
        Answer::Stopped(why) => {
            writeln!(w, "stopped: {why}")?;
            false
        }
    })
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
        (
            SolverSpec::Sat {
                encoding, backend, ..
            },
            Some(s),
        ) => {
            format!(
                "stats: puzzle {index} ({location}): encoding={} backend={}{} vars={} \
                 clauses={} literals={} {} encode={} solve={} decode={} total={}",
                encoding.name(),
                backend.label(),
                s.root
                    .map(|root| format!(" root={root}"))
                    .unwrap_or_default(),
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
