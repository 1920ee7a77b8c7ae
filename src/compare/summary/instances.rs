//! The per-instance table: each puzzle's or formula's place, size and every entry's
//! result on it, listed one by one up to [`PER_INSTANCE_SHOWN`] instances.

use std::collections::BTreeMap;

use serde::Serialize;

use super::best::PuzzleTimes;
use crate::compare::{Outcome, Run};

/// The most instances whose rows the text summary and the report list one by one; beyond,
/// the CSV and JSON have them.
pub const PER_INSTANCE_SHOWN: usize = 100;

/// One instance's row of the per-instance table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceRow {
    /// The file of the puzzle or formula.
    pub file: String,
    /// The puzzle's line in it (1 for a formula).
    pub line: usize,
    /// The puzzle's side (0 for a formula).
    pub size: usize,
    /// The puzzle's givens (0 for a formula).
    pub givens: usize,
    /// A formula's variables (`None` for a puzzle: each encoding has its own).
    pub vars: Option<usize>,
    /// A formula's clauses.
    pub clauses: Option<usize>,
    /// A formula's literals.
    pub literals: Option<usize>,
    /// Each entry's result, in entry order.
    pub results: Vec<InstanceResult>,
}

impl InstanceRow {
    /// The names of the columns before the entries': where the instance is and its size.
    pub fn head(formulas: bool) -> [&'static str; 3] {
        if formulas {
            ["formula", "vars", "clauses"]
        } else {
            ["puzzle", "size", "givens"]
        }
    }

    /// The cells under [`head`](Self::head), the file named by `file`.
    pub fn place(&self, formulas: bool, file: &str) -> [String; 3] {
        let count = |n: Option<usize>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        if formulas {
            [file.to_string(), count(self.vars), count(self.clauses)]
        } else {
            [
                format!("{file}:{}", self.line),
                self.size.to_string(),
                self.givens.to_string(),
            ]
        }
    }
}

/// One entry's result on one instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceResult {
    /// The entry.
    pub solver: String,
    /// `solved` or `no_solution` when a repeat answered, else the most telling way its
    /// runs ended (wrong before failed before a time-out before a stop); `None` when the
    /// entry never ran on it (a comparison stopped by Ctrl-C).
    pub outcome: Option<Outcome>,
    /// The median time of its answered repeats, µs (`None`: none answered).
    pub time_us: Option<f64>,
}

impl InstanceResult {
    /// The table cell: the time in ms, or the outcome (`-`: not run).
    pub fn cell(&self) -> String {
        match (self.time_us, self.outcome) {
            (Some(us), _) => format!("{:.3}", us / 1e3),
            (None, Some(outcome)) => outcome.to_string(),
            (None, None) => "-".to_string(),
        }
    }
}

/// The rows of the per-instance table; `times` are the [`puzzle_times`] of `solvers`.
pub(super) fn per_instance(
    runs: &[Run],
    solvers: &[String],
    times: &[PuzzleTimes],
) -> Vec<InstanceRow> {
    let mut by_instance: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
    for run in runs {
        by_instance.entry(run.puzzle_index).or_default().push(run);
    }
    by_instance
        .into_iter()
        .map(|(index, instance_runs)| {
            let first = instance_runs[0];
            // A formula's size is the formula's; a puzzle's differs from encoding to encoding.
            let sized = instance_runs
                .iter()
                .find(|r| r.size == 0 && r.vars.is_some());
            let results = solvers
                .iter()
                .zip(times)
                .map(|(solver, times)| {
                    let own = || instance_runs.iter().filter(|r| &r.solver == solver);
                    let time_us = times.get(&index).copied();
                    let telling = [
                        Outcome::Solved,
                        Outcome::NoSolution,
                        Outcome::Wrong,
                        Outcome::Failed,
                        Outcome::Timeout,
                        Outcome::Stopped,
                    ];
                    let outcome = telling
                        .into_iter()
                        .filter(|o| time_us.is_some() == o.is_answer())
                        .find(|o| own().any(|r| r.outcome == *o));
                    InstanceResult {
                        solver: solver.clone(),
                        outcome,
                        time_us,
                    }
                })
                .collect();
            InstanceRow {
                file: first.file.clone(),
                line: first.line,
                size: first.size,
                givens: first.givens,
                vars: sized.and_then(|r| r.vars),
                clauses: sized.and_then(|r| r.clauses),
                literals: sized.and_then(|r| r.literals),
                results,
            }
        })
        .collect()
}
