//! Measuring under a progress bar and the signals' watch: the runs in flight and those
//! finished are kept, so that a signal's thread can write the outputs when the runs do not
//! stop in time.

use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::Result;
use sudosat::compare::{self, CompareConfig, CompareError, Comparison, Outcome, Run, Watch};

use super::outputs::Outputs;
use crate::common::{progress_bar, report_error};

/// Makes the `count` instances' runs with `run` under a progress bar and the signals'
/// watch, then writes the outputs. A signal ([`crate::signals`]) stops the runs in flight
/// (their rows `stopped`) and no run starts after it; the outputs then hold what was
/// measured, written here, or by the signal's thread from the rows measured and in flight
/// when the runs do not stop within [`crate::signals::GRACE`] or a second signal comes.
pub(super) fn measure(
    config: &CompareConfig,
    count: usize,
    quiet: bool,
    outputs: &Outputs,
    run: impl FnOnce(&Watch) -> Result<Comparison, CompareError>,
) -> Result<ExitCode> {
    let progress: Arc<Mutex<Progress>> = Arc::default();
    let written = Arc::new(Mutex::new(false));
    {
        let (progress, written) = (Arc::clone(&progress), Arc::clone(&written));
        let (outputs, config) = (outputs.clone(), config.clone());
        crate::signals::on_stop(move || {
            let mut written = lock(&written);
            if *written {
                return;
            }
            let runs = lock(&progress).rows_so_far();
            let mut comparison = compare::assemble(&config, count, runs);
            comparison.interrupted = true;
            if let Err(err) = outputs.write(&comparison) {
                report_error(&err);
            }
            *written = true;
        });
    }
    let bar = progress_bar(config.total_runs(count), "runs", quiet);
    let watch = Watch {
        stop: crate::signals::stop_flag(),
        on_start: &|run| lock(&progress).started(run),
        on_run: &|run| {
            lock(&progress).finished(run);
            bar.set_message(run.solver.clone());
            bar.inc(1);
        },
    };
    let comparison = run(&watch)?;
    bar.finish_and_clear();
    // Held while writing: a signal's thread waits, then finds the outputs written.
    let mut done = lock(&written);
    if *done {
        // The signal's thread wrote them and is ending the process.
        drop(done);
        crate::signals::settle();
        return Ok(crate::signals::exit_code().map_or(ExitCode::FAILURE, ExitCode::from));
    }
    *done = true;
    outputs.write(&comparison)
}

/// The runs measured and those in flight, for outputs written when a signal stops a
/// comparison that does not stop in time.
#[derive(Default)]
pub(super) struct Progress {
    finished: Vec<Run>,
    /// Rows of the runs started and not finished, as they were when they started.
    in_flight: Vec<Run>,
}

impl Progress {
    fn started(&mut self, run: &Run) {
        self.in_flight.push(run.clone());
    }

    fn finished(&mut self, run: &Run) {
        self.in_flight.retain(|r| !same_run(r, run));
        self.finished.push(run.clone());
    }

    /// The finished rows and the runs in flight as `stopped`.
    fn rows_so_far(&self) -> Vec<Run> {
        let stopped = self.in_flight.iter().map(|run| Run {
            outcome: Outcome::Stopped,
            error: Some(compare::STOPPED_BY_INTERRUPT.to_string()),
            ..run.clone()
        });
        self.finished.iter().cloned().chain(stopped).collect()
    }
}

/// Whether two rows are of the same run (instance, entry, repeat).
pub(super) fn same_run(a: &Run, b: &Run) -> bool {
    a.puzzle_index == b.puzzle_index && a.solver == b.solver && a.repeat == b.repeat
}

/// What a mutex holds, even if a worker panicked while holding it.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
