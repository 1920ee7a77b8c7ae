//! `sudosat solve`: solve puzzles with the SAT path (encoding + backend) or a classic solver.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use sudosat::encode::Encoding;
use sudosat::grid::{check_solution, write_grid, Format, Grid};
use sudosat::solve::batch::Batch;
use sudosat::solve::{Counters, SolveOutcome, Solver, SolverSpec};

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
    /// and `--trace` run on one thread. N is the cores of the whole run: a puzzle solved
    /// alone (one puzzle, `--proof-dir`, `--trace`) gets them for its cdcl portfolio, so
    /// `--jobs 1` uses one core in all; `--threads` says otherwise.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// One puzzle's answer.
enum Answer {
    Solved(Grid, Option<u64>, Option<Proved>),
    NoSolution(Option<Proved>),
    Stopped(String),
}

/// Puzzles solved between two writes of the answers on several jobs: the answers of a
/// large file go out as they come, in input order, without the whole file's answers held
/// in memory, and a chunk is large enough that one slow puzzle rarely idles the others.
const CHUNK: usize = 4096;

/// One thread's solver and the grid its answers are decoded into, kept for the batch.
struct Worker {
    solver: Box<dyn Solver>,
    solution: Grid,
}

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
    let spec = args.how.spec(args.trace)?;
    let format = Format::from(args.format);
    let prover = Prover::new(&args.proofs, &spec)?;
    let parallel = jobs > 1 && prover.is_none() && !args.trace && inputs.len() > 1;
    let batch = Batch::new(if parallel { jobs } else { 1 })
        .context("cannot start the solving threads")?
        .with_chunk(CHUNK);
    let how = args.how.sharing(args.jobs, parallel);
    let solver = how.build(args.trace)?.1;
    // Read once: half the memory available when the batch starts.
    let budget = args.how.memory_budget();
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
    // On one thread the solver built above serves; on several each builds its own, of one
    // thread. Proofs run on one thread, beside the prover.
    let first = Mutex::new((!parallel).then_some(solver));
    // Locked for a whole puzzle, so only where there is one (proofs run on one thread):
    // a lock over every solve would make the `--jobs` threads take turns.
    let prover = prover.map(Mutex::new);
    let make = || -> Result<Worker> {
        let solver = match first.lock().map(|mut s| s.take()) {
            Ok(Some(solver)) => solver,
            _ => how.build(false)?.1,
        };
        Ok(Worker {
            solver,
            solution: Grid::empty(3).expect("9×9 exists"),
        })
    };
    write_output(args.output.as_deref(), |w| {
        if format == Format::Csv2 {
            w.write_all(b"puzzle\n")?;
        }
        batch.run(
            &inputs,
            make,
            |worker, i, input| {
                let mut prover = prover
                    .as_ref()
                    .map(|p| p.lock().unwrap_or_else(|e| e.into_inner()));
                solve_one(
                    &args,
                    &spec,
                    budget,
                    worker,
                    prover.as_deref_mut(),
                    i,
                    input,
                )
            },
            |i, (answer, notes)| {
                for note in notes {
                    bar.suspend(|| eprintln!("{note}"));
                }
                if i > 0 && matches!(format, Format::Block | Format::Grid | Format::Pretty) {
                    w.write_all(b"\n")?;
                }
                all_good &= write_answer(w, &answer, format)?;
                if (i + 1) % 256 == 0 || i + 1 == inputs.len() {
                    bar.set_position(i as u64 + 1);
                }
                Ok(())
            },
        )
    })?;
    bar.finish_and_clear();
    if let Some(prover) = prover {
        prover
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish()?;
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

/// Solves puzzle `i` (0-based) with `worker`'s solver: its answer, and the lines for
/// standard error (statistics, trace) in order. Without statistics the solver decodes into
/// the worker's grid ([`Solver::solve_into`], the batch path that allocates nothing).
fn solve_one(
    args: &Args,
    spec: &SolverSpec,
    budget: Option<u64>,
    worker: &mut Worker,
    mut prover: Option<&mut Prover>,
    i: usize,
    input: &InputGrid,
) -> Result<(Answer, Vec<String>)> {
    let solver = worker.solver.as_mut();
    if let Some(prover) = prover.as_deref() {
        prover.ask(solver, i + 1);
    }
    let start = Instant::now();
    args.how
        .check_memory(&input.grid, budget)
        .with_context(|| input.location())?;
    let solved = if args.stats {
        solver.solve(&input.grid).map(|report| {
            let outcome = match report.outcome {
                SolveOutcome::Solved(grid) => {
                    worker.solution = grid;
                    SolveOutcome::Solved(())
                }
                SolveOutcome::NoSolution => SolveOutcome::NoSolution,
                SolveOutcome::Stopped(why) => SolveOutcome::Stopped(why),
            };
            (outcome, report.counters)
        })
    } else {
        solver
            .solve_into(&input.grid, &mut worker.solution)
            .map(|outcome| (outcome, Counters::default()))
    };
    let (outcome, counters) = match solved {
        Ok(solved) => solved,
        Err(error) => {
            // A time-out (or any failure) still shows how far the solver got.
            if args.stats {
                let counters = Counters::default();
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
            &counters,
            total,
        ));
    }
    if args.trace {
        for line in solver.trace_lines() {
            notes.push(format!(
                "trace: puzzle {} ({}): {line}",
                i + 1,
                input.location()
            ));
        }
    }
    let answer = match outcome {
        SolveOutcome::Solved(()) => {
            let grid = &worker.solution;
            if !check_solution(&input.grid, grid).is_valid() {
                bail!(
                    "{}: solver `{}` returned a grid that is not a solution",
                    input.location(),
                    solver.name()
                );
            }
            let grid = grid.clone();
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
