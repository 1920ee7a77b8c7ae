//! Puzzles shared by the solvers' unit tests.

use std::time::Duration;

use crate::grid::{read_puzzles, Grid, Source};

use super::Solver;

/// Inkala's "world's hardest Sudoku" (2012): needs guessing from the human solver.
pub fn inkala() -> Grid {
    "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
        .parse()
        .expect("a valid 81-cell line")
}

/// `tests/fixtures/sudoku-25-1.txt`: a 25×25 puzzle with 253 givens on which Dancing Links
/// and every backtracking order run for minutes (none finished within 30 s in a release
/// build; dlx and backtrack-mrv not within 60 s). Human and best-first solve it in 0.1 s.
pub fn hard_25x25() -> Grid {
    let text = include_str!("../../tests/fixtures/sudoku-25-1.txt");
    read_puzzles(text.as_bytes(), &Source::Text, None).expect("fixture parses")[0].clone()
}

/// The empty 49×49 grid: easy for Dancing Links (0.14 s), but the human solver needs 16 s
/// and best-first and FIFO search more than 20 s on it (release build), since every step
/// rescans or copies a board of 2,401 cells.
pub fn slow_49x49() -> Grid {
    Grid::empty(7).expect("box size 7 is supported")
}

/// Runs `solver` on `puzzle` under a 20 ms limit and asserts it answers a time-out error
/// (not a hang, an answer, or another error).
pub fn assert_times_out(solver: &mut dyn Solver, puzzle: &Grid) {
    assert!(solver.honours_time_limit(), "{}", solver.name());
    solver.set_time_limit(Some(Duration::from_millis(20)));
    match solver.solve(puzzle) {
        Err(err) => assert!(err.is_timeout(), "{}: {err}", solver.name()),
        Ok(report) => panic!("{} answered {:?}", solver.name(), report.outcome),
    }
}
