//! The timing loop of the solver benchmarks (`benches/backends.rs`, `benches/solvers.rs`):
//! any [`Solver`] a `SolverSpec` built, puzzles taken round-robin.

use std::time::{Duration, Instant};

use sudosat::grid::check_solution;
use sudosat::solve::{SolveOutcome, Solver};
use sudosat::Grid;

/// Solves `iters` puzzles round-robin from `next` and returns the time spent in the
/// solver's `solve` (the SAT path's includes encoding and decoding); every grid is checked
/// against the rules and the givens outside the timed part.
pub fn solve_cycle(
    solver: &mut dyn Solver,
    puzzles: &[Grid],
    next: &mut usize,
    iters: u64,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let puzzle = &puzzles[*next % puzzles.len()];
        *next += 1;
        let start = Instant::now();
        let report = solver.solve(puzzle);
        total += start.elapsed();
        match report.map(|r| r.outcome) {
            Ok(SolveOutcome::Solved(grid)) => assert!(check_solution(puzzle, &grid).is_valid()),
            other => panic!("{}: {other:?}", solver.name()),
        }
    }
    total
}
