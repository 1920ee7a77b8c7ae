//! The puzzle times of each entry, the virtual best solver built from them (for each
//! puzzle, the fastest entry that answered it), and each entry's total time set against
//! the first entry's on the puzzles both answered.

use std::collections::BTreeMap;

use serde::Serialize;

use super::stats::median;
use crate::compare::{Outcome, Run};

/// The label of the virtual best solver's rows.
pub const VIRTUAL_BEST: &str = "virtual-best";

/// The median time of each puzzle an entry solved, µs, by puzzle index.
pub type PuzzleTimes = BTreeMap<usize, f64>;

/// The puzzle times of `solver`: the median `total_us` of each puzzle's answered repeats.
pub fn puzzle_times(runs: &[Run], solver: &str) -> PuzzleTimes {
    let mut all: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for run in runs
        .iter()
        .filter(|r| r.solver == solver && r.outcome.is_answer())
    {
        all.entry(run.puzzle_index).or_default().push(run.total_us);
    }
    all.into_iter()
        .filter_map(|(i, mut times)| Some((i, median(&mut times)?)))
        .collect()
}

/// The rows of the virtual best solver, one per puzzle: the fastest solved time of any
/// entry (its puzzle time, the median of its repeats), or, when no entry solved the
/// puzzle, the outcome that says most (a time-out before a stop, a failure or a wrong
/// answer). Also returns, per puzzle solved, the label of the entry that was fastest.
/// `times` are the [`puzzle_times`] of `solvers`, in the same order.
pub fn virtual_best(
    runs: &[Run],
    solvers: &[String],
    times: &[PuzzleTimes],
) -> (Vec<Run>, BTreeMap<usize, String>) {
    let times: Vec<(&String, &PuzzleTimes)> = solvers.iter().zip(times).collect();
    let mut first: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
    for run in runs {
        first.entry(run.puzzle_index).or_default().push(run);
    }
    let mut best_by = BTreeMap::new();
    let rows = first
        .into_iter()
        .map(|(index, puzzle_runs)| {
            let mut row = puzzle_runs[0].clone();
            row.solver = VIRTUAL_BEST.to_string();
            (row.backend, row.encoding, row.repeat) = (None, None, 1);
            (row.vars, row.clauses, row.literals) = (None, None, None);
            (row.encode_us, row.decode_us) = (None, None);
            row.counters = Default::default();
            row.error = None;
            let best = times
                .iter()
                .filter_map(|(s, t)| Some((*s, *t.get(&index)?)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match best {
                Some((solver, us)) => {
                    best_by.insert(index, solver.clone());
                    row.outcome = puzzle_runs
                        .iter()
                        .find(|r| &r.solver == solver && r.outcome.is_answer())
                        .map_or(Outcome::Solved, |r| r.outcome);
                    row.checked = row.outcome == Outcome::Solved;
                    (row.solve_us, row.total_us) = (us, us);
                }
                None => {
                    let pick = [
                        Outcome::NoSolution,
                        Outcome::Timeout,
                        Outcome::Stopped,
                        Outcome::Failed,
                        Outcome::Wrong,
                    ];
                    row.outcome = pick
                        .into_iter()
                        .find(|o| puzzle_runs.iter().any(|r| r.outcome == *o))
                        .unwrap_or(Outcome::Failed);
                    row.checked = false;
                    let spent = puzzle_runs
                        .iter()
                        .map(|r| r.total_us)
                        .fold(f64::NAN, f64::min);
                    (row.solve_us, row.total_us) = (spent, spent);
                }
            }
            row
        })
        .collect();
    (rows, best_by)
}

/// One entry's time against a reference entry's, over the instances both answered (each
/// instance's time the median of its answered repeats): the ratio of a benchmark table,
/// measured in one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// The entry.
    pub solver: String,
    /// The reference entry (the first one).
    pub reference: String,
    /// Instances both answered.
    pub common: usize,
    /// The entry's total time over them, µs.
    pub total_us: f64,
    /// The reference's total time over them, µs.
    pub reference_us: f64,
}

impl Ratio {
    /// The entry's time over the reference's: below 1 the entry was faster. `None` when
    /// the reference took no measurable time (or nothing was solved by both).
    pub fn ratio(&self) -> Option<f64> {
        (self.reference_us > 0.0).then(|| self.total_us / self.reference_us)
    }
}

/// [`Ratio`]s of every entry after the first against the first, from their puzzle times.
pub(super) fn ratios(solvers: &[String], times: &[PuzzleTimes]) -> Vec<Ratio> {
    let (Some(reference), Some(reference_times)) = (solvers.first(), times.first()) else {
        return Vec::new();
    };
    solvers
        .iter()
        .zip(times)
        .skip(1)
        .map(|(solver, entry_times)| {
            let (mut total_us, mut reference_us, mut common) = (0.0, 0.0, 0);
            for (index, time) in entry_times {
                if let Some(reference_time) = reference_times.get(index) {
                    total_us += time;
                    reference_us += reference_time;
                    common += 1;
                }
            }
            Ratio {
                solver: solver.clone(),
                reference: reference.clone(),
                common,
                total_us,
                reference_us,
            }
        })
        .collect()
}
