//! Measuring one run: the solve timed on its own thread, the answer checked against the
//! rules and the givens, a late answer from a solver that cannot be interrupted marked a
//! time-out, and the SAT path's sizes, time split and counters filled into the row.

use std::time::Duration;

use crate::backend::BackendError;
use crate::encode::{Encoding, SudokuEncoding};
use crate::formula::FormulaSize;
use crate::grid::{check_solution, Grid};
use crate::run::{Counters, Instant};
use crate::solve::{SolveOutcome, Solver, SolverSpec};
use crate::Error;

use super::{Entry, Outcome, Puzzle, Run};

pub(super) fn blank_row(puzzle: &Puzzle, index: usize, entry: &Entry, repeat: usize) -> Run {
    Run {
        file: puzzle.file.clone(),
        line: puzzle.line,
        puzzle_index: index + 1,
        size: puzzle.grid.side(),
        givens: puzzle.grid.num_givens(),
        solver: entry.label(),
        backend: entry.backend_label(),
        encoding: entry.encoding().map(|e| e.name()),
        repeat,
        outcome: Outcome::Failed,
        checked: false,
        vars: None,
        clauses: None,
        literals: None,
        puzzle_vars: None,
        puzzle_clauses: None,
        puzzle_literals: None,
        encode_us: None,
        solve_us: 0.0,
        decode_us: None,
        total_us: 0.0,
        counters: Counters::default(),
        error: None,
    }
}

pub(super) fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Solves `grid` once with `solver` (built from `entry`), timed on this thread, and fills
/// in the row.
pub(super) fn measure(
    solver: &mut dyn Solver,
    entry: &SolverSpec,
    grid: &Grid,
    timeout: Option<Duration>,
    row: &mut Run,
) {
    let start = Instant::now();
    let result = solver.solve(grid);
    let total = start.elapsed();
    let honours_limit = solver.honours_time_limit();
    row.total_us = micros(total);
    row.solve_us = row.total_us;
    match result {
        Ok(report) => {
            row.counters = report.counters;
            match report.outcome {
                SolveOutcome::Solved(answer) => {
                    let check = check_solution(grid, &answer);
                    row.checked = check.is_valid();
                    if let Some(v) = check.violations.first() {
                        row.outcome = Outcome::Wrong;
                        row.error = Some(format!(
                            "the answer is not a solution: {}",
                            v.display(grid.geometry())
                        ));
                    } else {
                        row.outcome = Outcome::Solved;
                    }
                }
                SolveOutcome::NoSolution => row.outcome = Outcome::NoSolution,
                SolveOutcome::Stopped(why) => {
                    row.outcome = Outcome::Stopped;
                    row.error = Some(why);
                }
            }
            mark_past_limit(row, total, timeout, honours_limit);
        }
        Err(err) => {
            row.outcome = error_outcome(&err);
            row.error = Some(err.to_string());
        }
    }
    if let Some(encoding) = entry.encoding() {
        fill_sat_figures(solver, encoding, grid, row);
    }
}

/// An answer that came past `limit` from a solver that cannot be interrupted is a
/// time-out, as it would have been had the solver stopped.
pub(super) fn mark_past_limit(
    row: &mut Run,
    total: Duration,
    limit: Option<Duration>,
    honours: bool,
) {
    if let Some(limit) = limit.filter(|&l| !honours && total > l) {
        row.outcome = Outcome::Timeout;
        row.error = Some(format!(
            "ran {:.3} s, past the {:.3} s limit (this solver cannot be interrupted)",
            total.as_secs_f64(),
            limit.as_secs_f64()
        ));
    }
}

/// The outcome of a run that ended in `err`.
pub(super) fn error_outcome(err: &Error) -> Outcome {
    if err.is_timeout() {
        Outcome::Timeout
    } else if matches!(
        err,
        Error::Decode(_) | Error::Backend(BackendError::WrongModel { .. })
    ) {
        Outcome::Wrong
    } else {
        Outcome::Failed
    }
}

/// Sizes, time split and counters of a SAT run. A formula that was never built (the
/// backend could not start, the givens contradict each other) still gets its size.
fn fill_sat_figures(solver: &dyn Solver, encoding: SudokuEncoding, grid: &Grid, row: &mut Run) {
    let Some(stats) = solver.sat_stats() else {
        return;
    };
    // A solver holding the empty grid's formula for a batch fixes the givens at the root
    // of it, which propagation makes the puzzle's own formula: the row reports that one, as
    // an entry that encodes the puzzle alone does, so entries agree on an encoding's size.
    let size = if stats.size.clauses > 0 && !stats.empty_grid {
        stats.size
    } else {
        encoding.size(grid)
    };
    let FormulaSize {
        vars,
        clauses,
        literals,
    } = size;
    row.vars = Some(vars);
    row.clauses = Some(clauses);
    row.literals = Some(literals);
    // Reasoning on the grid left its counters, or the solver held the empty grid's formula
    // for the batch: the puzzle's own formula is another one.
    let reasoned = stats
        .backend
        .0
        .iter()
        .any(|(name, _)| matches!(*name, "root_us" | "root_refuted"));
    let own = if reasoned || stats.empty_grid {
        encoding.size(grid)
    } else {
        size
    };
    row.puzzle_vars = Some(own.vars);
    row.puzzle_clauses = Some(own.clauses);
    row.puzzle_literals = Some(own.literals);
    row.encode_us = Some(micros(stats.encode_time));
    row.solve_us = micros(stats.solve_time);
    row.decode_us = Some(micros(stats.decode_time));
    if !row.counters.0.is_empty() {
        // The report's counters repeat the sizes; keep the backend's own.
        row.counters = stats.backend.clone();
    }
}
