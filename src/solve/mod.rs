//! Grid-level solvers behind one trait: the SAT path and the classic algorithms from the
//! literature (Dancing Links, backtracking, human strategies, β-hill climbing, best-first).

pub mod batch;
mod classic;
mod options;
pub mod sat;
mod solver;
pub mod spec;

pub use crate::run::{Counters, Deadline};
pub use classic::{classic_solver, count_solutions, ClassicKind, CLASSIC_SOLVERS};
pub use options::{BacktrackOrder, HillObjective, SolverOptions};
pub use solver::{SolveOutcome, SolveReport, Solver};

pub mod backtrack;
pub mod best_first;
pub mod dlx;
pub mod hill_climb;
pub mod human;
pub mod root;
#[cfg(test)]
pub(crate) mod testing;

pub use crate::names::UnknownName;
pub use backtrack::BacktrackSolver;
pub use best_first::{BestFirstSolver, Frontier};
pub use dlx::DlxSolver;
pub use hill_climb::HillClimbSolver;
pub use human::{HumanLog, HumanSolver, Step, Strategy};
pub use spec::{EntryOption, EntryOptionError, EntryOptions, SolverSpec};
