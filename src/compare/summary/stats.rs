//! The per-entry statistics of a comparison (see the module [`super`] for what they mean):
//! solved / failed / timed out, mean, median, variance, maximum, PAR-2 (an unanswered
//! puzzle counting twice the time limit) and the slowest puzzles, over all puzzles or one
//! group of them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::compare::{GroupBy, Outcome, Run};

/// How many of the slowest puzzles a summary lists.
pub const SLOWEST: usize = 10;

/// A slow puzzle of a summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlowPuzzle {
    /// 1-based index among all inputs.
    pub puzzle_index: usize,
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// Side n.
    pub size: usize,
    /// Givens.
    pub givens: usize,
    /// Median time of its answered repeats, µs.
    pub time_us: f64,
}

/// Statistics of one solver entry over all puzzles, or over one group of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The entry's label.
    pub solver: String,
    /// The clue count or size of the group (`None`: all puzzles).
    pub group: Option<usize>,
    /// Runs made.
    pub runs: usize,
    /// Runs with a checked solution.
    pub solved: usize,
    /// Runs that proved no solution.
    pub no_solution: usize,
    /// Runs of an incomplete method that stopped.
    pub stopped: usize,
    /// Runs that reached the time limit.
    pub timeout: usize,
    /// Runs that failed.
    pub failed: usize,
    /// Runs with a wrong answer.
    pub wrong: usize,
    /// Puzzles with a time (at least one solved repeat).
    pub timed_puzzles: usize,
    /// Mean puzzle time, µs.
    pub mean_us: Option<f64>,
    /// Median puzzle time, µs.
    pub median_us: Option<f64>,
    /// Sample variance of the puzzle times, µs².
    pub variance_us2: Option<f64>,
    /// Largest puzzle time, µs.
    pub max_us: Option<f64>,
    /// PAR-2 over the puzzles, µs: the mean puzzle time, an unanswered puzzle counting twice
    /// the time limit, a puzzle whose runs were all stopped left out (`None` without a
    /// limit, or when every puzzle was stopped).
    pub par2_us: Option<f64>,
    /// The [`SLOWEST`] slowest puzzles, slowest first.
    pub slowest: Vec<SlowPuzzle>,
}

impl Summary {
    /// The count of runs with this outcome.
    pub fn count(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Solved => self.solved,
            Outcome::NoSolution => self.no_solution,
            Outcome::Stopped => self.stopped,
            Outcome::Timeout => self.timeout,
            Outcome::Failed => self.failed,
            Outcome::Wrong => self.wrong,
        }
    }
}

/// The median of `values` (sorted in place); `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// Summarises the runs of one solver (and group); `limit_us` is the time limit PAR-2 uses.
pub(super) fn summarize_runs(
    solver: &str,
    group: Option<usize>,
    runs: &[&Run],
    limit_us: Option<f64>,
) -> Summary {
    let count = |o: Outcome| runs.iter().filter(|r| r.outcome == o).count();
    let mut per_puzzle: BTreeMap<usize, (&Run, Vec<f64>)> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.outcome.is_answer()) {
        per_puzzle
            .entry(run.puzzle_index)
            .or_insert_with(|| (run, Vec::new()))
            .1
            .push(run.total_us);
    }
    let mut slow: Vec<SlowPuzzle> = per_puzzle
        .into_values()
        .filter_map(|(run, mut times)| {
            Some(SlowPuzzle {
                puzzle_index: run.puzzle_index,
                file: run.file.clone(),
                line: run.line,
                size: run.size,
                givens: run.givens,
                time_us: median(&mut times)?,
            })
        })
        .collect();
    let mut times: Vec<f64> = slow.iter().map(|p| p.time_us).collect();
    let n = times.len();
    // Stopped runs do not count: a puzzle with no other run is not in PAR-2.
    let mut puzzles: Vec<usize> = runs
        .iter()
        .filter(|r| r.outcome != Outcome::Stopped)
        .map(|r| r.puzzle_index)
        .collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    let par2 = limit_us.filter(|_| !puzzles.is_empty()).map(|limit| {
        let unsolved = puzzles.len() - n;
        (times.iter().sum::<f64>() + unsolved as f64 * 2.0 * limit) / puzzles.len() as f64
    });
    let mean = (n > 0).then(|| times.iter().sum::<f64>() / n as f64);
    let variance = mean.map(|m| {
        if n < 2 {
            0.0
        } else {
            times.iter().map(|t| (t - m) * (t - m)).sum::<f64>() / (n - 1) as f64
        }
    });
    slow.sort_by(|a, b| {
        b.time_us
            .total_cmp(&a.time_us)
            .then(a.puzzle_index.cmp(&b.puzzle_index))
    });
    slow.truncate(SLOWEST);
    Summary {
        solver: solver.to_string(),
        group,
        runs: runs.len(),
        solved: count(Outcome::Solved),
        no_solution: count(Outcome::NoSolution),
        stopped: count(Outcome::Stopped),
        timeout: count(Outcome::Timeout),
        failed: count(Outcome::Failed),
        wrong: count(Outcome::Wrong),
        timed_puzzles: n,
        mean_us: mean,
        median_us: median(&mut times),
        variance_us2: variance,
        max_us: slow.first().map(|p| p.time_us),
        par2_us: par2,
        slowest: slow,
    }
}

/// One summary per solver of `solvers` (in that order) over all its runs; with `by`, one
/// per solver and group instead, groups ascending. `limit_s` is the time limit of PAR-2.
pub fn summarize(
    runs: &[Run],
    solvers: &[String],
    by: Option<GroupBy>,
    limit_s: Option<f64>,
) -> Vec<Summary> {
    let limit_us = limit_s.map(|s| s * 1e6);
    let mut out = Vec::new();
    for solver in solvers {
        let mine: Vec<&Run> = runs.iter().filter(|r| &r.solver == solver).collect();
        match by {
            None => out.push(summarize_runs(solver, None, &mine, limit_us)),
            Some(by) => {
                let mut groups: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
                for run in mine {
                    groups.entry(by.key(run)).or_default().push(run);
                }
                out.extend(
                    groups
                        .into_iter()
                        .map(|(g, runs)| summarize_runs(solver, Some(g), &runs, limit_us)),
                );
            }
        }
    }
    out
}

/// Seconds without trailing zeros: `10`, `0.5`.
pub fn seconds(s: f64) -> String {
    let text = format!("{s:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
