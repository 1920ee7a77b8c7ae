//! The classic solvers by name: [`ClassicKind`] builds each from the shared
//! [`SolverOptions`].

use super::backtrack::BacktrackSolver;
use super::best_first::{BestFirstSolver, Frontier};
use super::dlx::{self, DlxSolver};
use super::hill_climb::HillClimbSolver;
use super::human::HumanSolver;
use super::options::{BacktrackOrder, SolverOptions};
use super::solver::Solver;
use crate::grid::Grid;
use crate::Error;

crate::names::named_enum! {
    /// The classic (non-SAT) solvers, as `--solver` names them.
    pub enum ClassicKind ("solver") {
        /// Dancing Links (Knuth 2000).
        Dlx = "dlx",
        /// Backtracking in the order of [`SolverOptions::backtrack_order`].
        Backtrack = "backtrack",
        /// Backtracking in row order.
        BacktrackRow = "backtrack-row",
        /// Backtracking in column order.
        BacktrackColumn = "backtrack-column",
        /// Backtracking in a random order.
        BacktrackRandom = "backtrack-random",
        /// Backtracking box by box.
        BacktrackBox = "backtrack-box",
        /// Backtracking on the cell with the fewest candidates.
        BacktrackMrv = "backtrack-mrv",
        /// Human strategies, then guesses.
        Human = "human",
        /// β-hill climbing.
        Hill = "hill",
        /// Best-first search.
        BestFirst = "best-first",
        /// Breadth-first search.
        Fifo = "fifo",
    }
}

impl ClassicKind {
    /// A fresh solver of this kind, configured by `options`.
    pub fn build(self, options: &SolverOptions) -> Box<dyn Solver> {
        let backtrack = |order| -> Box<dyn Solver> {
            Box::new(BacktrackSolver::new(
                order,
                options.seed,
                options.max_iterations,
            ))
        };
        match self {
            ClassicKind::Dlx => Box::new(DlxSolver::new()),
            ClassicKind::Backtrack => backtrack(options.backtrack_order),
            ClassicKind::BacktrackRow => backtrack(BacktrackOrder::Row),
            ClassicKind::BacktrackColumn => backtrack(BacktrackOrder::Column),
            ClassicKind::BacktrackRandom => backtrack(BacktrackOrder::Random),
            ClassicKind::BacktrackBox => backtrack(BacktrackOrder::Box),
            ClassicKind::BacktrackMrv => backtrack(BacktrackOrder::Mrv),
            ClassicKind::Human => Box::new(HumanSolver::new()),
            ClassicKind::Hill => Box::new(HillClimbSolver::new(options)),
            ClassicKind::BestFirst => Box::new(BestFirstSolver::new(Frontier::BestFirst, options)),
            ClassicKind::Fifo => Box::new(BestFirstSolver::new(Frontier::Fifo, options)),
        }
    }
}

/// Every classic solver name [`classic_solver`] accepts, as `--solver` spells it.
pub const CLASSIC_SOLVERS: &[&str] = ClassicKind::NAMES;

/// The classic solver called `name` (one of [`CLASSIC_SOLVERS`]), configured by `options`;
/// `None` for an unknown name.
pub fn classic_solver(name: &str, options: &SolverOptions) -> Option<Box<dyn Solver>> {
    ClassicKind::from_name(name).map(|kind| kind.build(options))
}

/// Counts the solutions of `puzzle` with Dancing Links, stopping at `limit` (so `2` answers
/// "is it unique?"). Contradictory givens count 0.
///
/// # Errors
/// [`Error::Unsupported`] when the exact-cover matrix would be too large to build.
pub fn count_solutions(puzzle: &Grid, limit: u64) -> Result<u64, Error> {
    Ok(dlx::search(puzzle, limit)?.solutions)
}
