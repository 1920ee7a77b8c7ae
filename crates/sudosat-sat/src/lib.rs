//! # sudosat-sat — the SAT layer of sudosat, over plain CNF
//!
//! Formula types ([`formula`]: `Var`, `Lit`, `Cnf`, `Model`, with 0-based indices inside
//! and DIMACS numbers only at the edge), the run-time vocabulary every solver shares
//! ([`run`]: counters, deadlines, the machine's limits), DRAT proof output ([`proof`]) and
//! the name tables a user picks from ([`names`]), the solver interface with its capability
//! traits ([`solver`]), the unit propagation the simpler solvers share ([`propagation`])
//! and the interface a theory joins the search through ([`propagator`]). Nothing here
//! knows Sudoku: the root crate `sudosat` builds puzzles' formulas on top.
//!
//! ```
//! use sudosat_sat::formula::{ClauseSink, Cnf, Lit, Model};
//!
//! let mut cnf = Cnf::new();
//! cnf.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(-2)]);
//! let model = Model::from_values(vec![false, false]);
//! assert_eq!(cnf.first_falsified(&model), None);
//! ```
#![warn(missing_docs)]

pub mod cdcl;
pub mod cube;
pub mod dpll;
pub mod formula;
pub mod lookahead;
pub mod names;
pub mod proof;
pub mod propagation;
pub mod propagator;
pub mod run;
pub mod solver;
#[cfg(test)]
pub(crate) mod test_formulas;

pub use cdcl::Cdcl;
pub use dpll::{Dpll, Lookahead};
pub use lookahead::LookaheadBackend;
pub use proof::{DratWriter, ProofFormat, ProofTarget};
pub use propagator::{ConnectPropagator, Propagator, PropagatorFactory};
pub use solver::{
    check_model, check_model_from, BackendError, Capability, Interrupt, LimitTime, SatBackend,
    SatOutcome, SolveUnderAssumptions, SolveWithRootUnits, WriteProofs,
};
