//! Grid-level solvers behind one trait: the SAT path and the classic algorithms from the
//! literature (Dancing Links, backtracking, human strategies, β-hill climbing, best-first).

pub mod sat;

use crate::backend::Counters;
use crate::grid::Grid;
use crate::Error;

/// What a grid-level solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A solution (the caller still checks it with [`crate::grid::check_solution`]).
    Solved(Grid),
    /// Proven to have no solution.
    NoSolution,
    /// An incomplete method stopped without an answer (iteration cap, threshold).
    Stopped(String),
}

/// A solver's answer and its counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// The outcome.
    pub outcome: SolveOutcome,
    /// Work counters (assignments, backtracks, nodes, expansions…).
    pub counters: Counters,
}

/// A Sudoku solver working on grids.
pub trait Solver: Send {
    /// The name as `--solver` spells it.
    fn name(&self) -> String;

    /// Solves one puzzle.
    ///
    /// # Errors
    /// Only for failures (an external process died); no solution is
    /// `Ok(SolveOutcome::NoSolution)`.
    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error>;

    /// Counts solutions up to `limit`; `Ok(None)` when this solver cannot count.
    ///
    /// # Errors
    /// As for [`Solver::solve`].
    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        let _ = (puzzle, limit);
        Ok(None)
    }
}
