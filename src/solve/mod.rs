//! Grid-level solvers behind one trait: the SAT path and the classic algorithms from the
//! literature (Dancing Links, backtracking, human strategies, β-hill climbing, best-first).

pub mod sat;
pub mod spec;

use std::time::Duration;

use crate::grid::Grid;
pub use crate::run::{Counters, Deadline};
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

    /// Counts solutions up to `limit` (`0`: no limit, count them all); `Ok(None)` when this
    /// solver cannot count.
    ///
    /// # Errors
    /// As for [`Solver::solve`].
    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        let _ = (puzzle, limit);
        Ok(None)
    }

    /// Limits the time of each later `solve` or `count_solutions`: past it they return an
    /// error for which [`Error::is_timeout`] holds. `None` lifts the limit. The default
    /// ignores the limit; [`Solver::honours_time_limit`] says whether a solver stops early.
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        let _ = limit;
    }

    /// Whether [`Solver::set_time_limit`] can stop a running solve.
    fn honours_time_limit(&self) -> bool {
        false
    }

    /// The trace of the last solve in words, one line per event, for solvers that keep one
    /// when asked ([`SolverOptions::trace`]: hill climbing's new best objectives); empty
    /// otherwise.
    fn trace_lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// Asks the next solve or count for a DRAT proof of its final UNSAT answer ("no
    /// solution", or "unique": nothing besides the solution found) at `target`. `false`
    /// when this solver writes no proofs (only the SAT path does).
    fn prove_next(&mut self, target: Option<crate::backend::ProofTarget>) -> bool {
        let _ = target;
        false
    }

    /// The proof of the last answer asked for with [`Solver::prove_next`], when it ended in
    /// UNSAT.
    fn take_proof(&mut self) -> Option<sat::ProvenUnsat> {
        None
    }

    /// The SAT path's figures of the last solve or count (formula size, phase times,
    /// backend counters); `None` for solvers that do not encode.
    fn sat_stats(&self) -> Option<&sat::SatStats> {
        None
    }
}

pub mod backtrack;
pub mod best_first;
pub mod dlx;
pub mod hill_climb;
pub mod human;
#[cfg(test)]
mod testing;

pub use crate::names::UnknownName;
pub use backtrack::{BacktrackOrder, BacktrackSolver};
pub use best_first::{BestFirstSolver, Frontier};
pub use dlx::DlxSolver;
pub use hill_climb::{HillClimbSolver, HillObjective};
pub use human::{HumanLog, HumanSolver, Step, Strategy};
pub use spec::SolverSpec;

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

/// Options of the classic solvers; each solver reads the fields that concern it.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverOptions {
    /// Seed of every random choice (random backtracking order, hill climbing).
    pub seed: u64,
    /// Work cap: assignments (backtracking), iterations (hill climbing), expansions
    /// (best-first). Reaching it yields [`SolveOutcome::Stopped`]. `None`: no cap, except
    /// for hill climbing, which then uses [`hill_climb::DEFAULT_ITERATIONS`].
    pub max_iterations: Option<u64>,
    /// Cell order of plain `backtrack`.
    pub backtrack_order: BacktrackOrder,
    /// Objective of hill climbing.
    pub hill_objective: HillObjective,
    /// Probability β of the β operator (hill climbing), in `0.0..=1.0`.
    pub beta: f64,
    /// Best-first pruning threshold: states whose evaluation (open candidates) exceeds it
    /// are dropped. `None`: no pruning.
    pub threshold: Option<u64>,
    /// Record a trace (hill climbing: objective after each improvement).
    pub trace: bool,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            seed: 0,
            max_iterations: None,
            backtrack_order: BacktrackOrder::Mrv,
            hill_objective: HillObjective::Duplicates,
            beta: hill_climb::DEFAULT_BETA,
            threshold: None,
            trace: false,
        }
    }
}

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
