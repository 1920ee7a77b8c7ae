//! Running a study: the entries one after another over every puzzle (with `jobs > 1`, the
//! puzzles of one entry shared among a thread pool), the stop flag read between runs, the
//! [`Watch`] callbacks and the interrupt handed to the solvers, and the rows assembled
//! into a [`Comparison`] with disagreements between entries marked wrong.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::solve::Solver;

use super::config::repeat_grid;
use super::measure::{blank_row, measure};
use super::{CompareConfig, CompareError, Comparison, Entry, Outcome, Puzzle, Run};

/// Runs every entry of `config` on every puzzle, `config.repeat` times, and checks every
/// answer. A failure or time-out of one run is recorded in its row; the comparison goes on.
///
/// Entries run one after another, each over all the puzzles (with `jobs > 1`, the puzzles
/// of one entry are shared among the threads): a solver then runs with its own data warm in
/// the caches, as it would alone, instead of after twenty others on the same puzzle, which
/// made sub-millisecond solves look up to twice as slow. `stop` is read before each run:
/// once set, the runs made so far are returned with [`Comparison::interrupted`] (so the
/// last entries may have no rows). `on_run` is called after each run (from the worker
/// threads when `jobs > 1`), e.g. to advance a progress bar. [`run_watched`] also stops
/// the runs in flight.
///
/// # Errors
/// An invalid config ([`CompareConfig::validate`]) or a thread pool that cannot start.
pub fn run(
    puzzles: &[Puzzle],
    config: &CompareConfig,
    stop: &AtomicBool,
    on_run: &(dyn Fn(&Run) + Sync),
) -> Result<Comparison, CompareError> {
    run_hooked(puzzles, config, &Hooks::unwatched(stop, on_run))
}

/// What follows a comparison as it runs ([`run_watched`]).
pub struct Watch<'a> {
    /// Set (e.g. by a signal) to stop the comparison: no run starts after it, and the runs
    /// in flight are interrupted where their solver can be (a SAT backend with
    /// [`crate::backend::Interrupt`]: cdcl, dpll, lookahead, varisat, the solver
    /// processes); their rows are [`Outcome::Stopped`] ([`STOPPED_BY_INTERRUPT`]).
    pub stop: Arc<AtomicBool>,
    /// Called as each run starts, with its row before the solve (outcome `failed`, no
    /// time), so that a caller can name the runs in flight.
    pub on_start: &'a (dyn Fn(&Run) + Sync),
    /// Called after each run with its row.
    pub on_run: &'a (dyn Fn(&Run) + Sync),
}

/// The error text of a run stopped in flight by [`Watch::stop`].
pub const STOPPED_BY_INTERRUPT: &str = "interrupted: the comparison was stopped";

/// [`run`] under a [`Watch`]: `watch.stop` also ends the runs in flight, and the
/// comparison is [`Comparison::interrupted`] once it was set.
///
/// # Errors
/// As for [`run`].
pub fn run_watched(
    puzzles: &[Puzzle],
    config: &CompareConfig,
    watch: &Watch,
) -> Result<Comparison, CompareError> {
    let hooks = Hooks::of(watch);
    let mut comparison = run_hooked(puzzles, config, &hooks)?;
    comparison.interrupted |= watch.stop.load(Ordering::SeqCst);
    Ok(comparison)
}

/// The stop flag and callbacks a run loop reads ([`run`], [`run_watched`]).
pub(super) struct Hooks<'a> {
    pub(super) stop: &'a AtomicBool,
    /// The same flag, to hand to the solvers (only [`run_watched`] has one).
    pub(super) interrupt: Option<&'a Arc<AtomicBool>>,
    pub(super) on_start: &'a (dyn Fn(&Run) + Sync),
    pub(super) on_run: &'a (dyn Fn(&Run) + Sync),
}

impl<'a> Hooks<'a> {
    /// A stop flag that the solvers are not handed, and only `on_run` to follow the runs.
    pub(super) fn unwatched(stop: &'a AtomicBool, on_run: &'a (dyn Fn(&Run) + Sync)) -> Hooks<'a> {
        Hooks {
            stop,
            interrupt: None,
            on_start: &|_| {},
            on_run,
        }
    }

    pub(super) fn of(watch: &'a Watch) -> Hooks<'a> {
        Hooks {
            stop: &watch.stop,
            interrupt: Some(&watch.stop),
            on_start: watch.on_start,
            on_run: watch.on_run,
        }
    }

    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Marks a run that ended without an answer after the stop as stopped: its failure or
    /// time-out was the interrupt's doing.
    pub(super) fn mark_stopped(&self, row: &mut Run) {
        if self.stopped() && !row.outcome.is_answer() && row.outcome != Outcome::Wrong {
            row.outcome = Outcome::Stopped;
            row.error = Some(STOPPED_BY_INTERRUPT.to_string());
        }
    }
}

fn run_hooked(
    puzzles: &[Puzzle],
    config: &CompareConfig,
    hooks: &Hooks,
) -> Result<Comparison, CompareError> {
    config.validate()?;
    let runs = run_entries(
        puzzles,
        config,
        hooks.stop,
        |entry| {
            let mut solver = entry.build(config.timeout);
            solver.set_interrupt(hooks.interrupt.cloned());
            solver
        },
        |solver, entry, i, p, repeats| {
            run_puzzle(solver.as_mut(), entry, i, p, repeats, config, hooks)
        },
    )?;
    Ok(assemble(config, puzzles.len(), runs))
}

/// The rows of every entry of `config` on every item, entries one after another (with
/// `config.jobs > 1`, the items of one entry shared among a pool of that many threads),
/// stopping between entries once `stop` is set. `init` makes what one thread keeps over
/// its items of an entry (a solver); `run_item` makes the rows of one item, by index, for
/// the repeats given (those of `config.shard`; an item with none is skipped, an entry with
/// none is not built).
pub(super) fn run_entries<T: Sync, S>(
    items: &[T],
    config: &CompareConfig,
    stop: &AtomicBool,
    init: impl Fn(&Entry) -> S + Sync + Send,
    run_item: impl Fn(&mut S, &Entry, usize, &T, &[usize]) -> Vec<Run> + Sync + Send,
) -> Result<Vec<Run>, CompareError> {
    let pool = if config.parallel() {
        // The caller's stop flag reaches the solvers that read none of their own.
        let stop_flag = crate::run::thread_stop_flag();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.jobs)
            .start_handler(move |_| crate::run::stop_thread_on(stop_flag.clone()))
            .build()
            .map_err(|e| CompareError::ThreadPool {
                jobs: config.jobs,
                reason: e.to_string(),
            })?;
        Some(pool)
    } else {
        None
    };
    // Bounded: the count is the user's product of three numbers.
    let mut runs = Vec::with_capacity(config.total_runs(items.len()).min(1 << 16));
    for (e, entry) in config.entries.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let dealt: Vec<(usize, Vec<usize>)> = (0..items.len())
            .map(|i| (i, config.repeats_dealt(e, i, items.len())))
            .filter(|(_, repeats)| !repeats.is_empty())
            .collect();
        if dealt.is_empty() {
            continue;
        }
        // An entry whose solves take several threads runs one solve at a time.
        let pool = pool.as_ref().filter(|_| entry.threads() == 1);
        let per_item: Vec<Vec<Run>> = match pool {
            Some(pool) => pool.install(|| {
                dealt
                    .par_iter()
                    .map_init(
                        || init(entry),
                        |state, (i, repeats)| run_item(state, entry, *i, &items[*i], repeats),
                    )
                    .collect()
            }),
            None => {
                let mut state = init(entry);
                dealt
                    .iter()
                    .map(|(i, repeats)| run_item(&mut state, entry, *i, &items[*i], repeats))
                    .collect()
            }
        };
        runs.extend(per_item.into_iter().flatten());
    }
    Ok(runs)
}

/// The comparison of `runs` made under `config` on `puzzles` puzzles: runs sorted into
/// puzzle, entry, repeat order, "no solution" against a solved puzzle marked wrong, and
/// [`Comparison::interrupted`] set when runs are missing. [`run`] ends with it; a caller
/// that collected rows from `on_run` (e.g. to write them when a solve never returns) can
/// build the same report from them.
pub fn assemble(config: &CompareConfig, puzzles: usize, mut runs: Vec<Run>) -> Comparison {
    let solvers: Vec<String> = config.entries.iter().map(|e| config.label(e)).collect();
    let position = |label: &str| solvers.iter().position(|s| s == label);
    runs.sort_by_key(|r| (r.puzzle_index, position(&r.solver), r.repeat));
    mark_disagreements(&mut runs);
    Comparison {
        puzzles,
        solvers,
        repeat: config.repeat,
        timeout_s: config.timeout.map(|t| t.as_secs_f64()),
        jobs: config.jobs,
        parallel: config.parallel(),
        interrupted: runs.len() < config.total_runs(puzzles),
        threaded: config.threaded(),
        runs,
    }
}

/// The runs of `entry` on one puzzle, one per repeat of `repeats` (fewer once the stop
/// is set).
fn run_puzzle(
    solver: &mut dyn Solver,
    entry: &Entry,
    index: usize,
    puzzle: &Puzzle,
    repeats: &[usize],
    config: &CompareConfig,
    hooks: &Hooks,
) -> Vec<Run> {
    let mut runs = Vec::with_capacity(repeats.len());
    for &repeat in repeats {
        if hooks.stopped() {
            break;
        }
        let mut row = blank_row(puzzle, index, entry, repeat);
        (hooks.on_start)(&row);
        let grid = repeat_grid(&puzzle.grid, index, repeat, config.isomorphs);
        if config.vary_seed {
            let seeded = entry.with_seed_offset(repeat as u64 - 1);
            let mut fresh = seeded.build(config.timeout);
            fresh.set_interrupt(hooks.interrupt.cloned());
            measure(fresh.as_mut(), &seeded, &grid, config.timeout, &mut row);
        } else {
            measure(solver, entry, &grid, config.timeout, &mut row);
        }
        hooks.mark_stopped(&mut row);
        (hooks.on_run)(&row);
        runs.push(row);
    }
    runs
}

/// Backends must agree: "no solution" for a puzzle some entry solved (with a checked grid)
/// is a wrong answer.
pub(super) fn mark_disagreements(runs: &mut [Run]) {
    let solved_by: std::collections::HashMap<usize, String> = runs
        .iter()
        .filter(|r| r.outcome == Outcome::Solved)
        .map(|r| (r.puzzle_index, r.solver.clone()))
        .collect();
    for run in runs.iter_mut() {
        if run.outcome != Outcome::NoSolution {
            continue;
        }
        if let Some(by) = solved_by.get(&run.puzzle_index) {
            run.outcome = Outcome::Wrong;
            run.error = Some(format!(
                "reported no solution, but {by} found a checked solution"
            ));
        }
    }
}
