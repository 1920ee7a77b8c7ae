//! The interface through which a theory joins a solver's search, shaped after IPASIR-UP
//! (Fazekas, Niemetz, Preiner, Kirchweger, Szeider & Biere 2023, "IPASIR-UP: User
//! propagators for CDCL", SAT; CaDiCaL's `ExternalPropagator`): the solver tells the
//! [`Propagator`] which of its observed variables were assigned, when a decision level
//! begins and how far it backtracks; at each unit-propagation fixpoint it asks for the
//! literals the theory implies, and for the reason clause of one only when it needs it
//! (lazy explanation, as in lazy clause generation: Ohrimenko, Stuckey & Codish 2009,
//! "Propagation via lazy clause generation", Constraints 14(3)). The theory may also add
//! clauses (conflicts, lemmas), choose the branch and check a full model. Reasons and
//! added clauses are ordinary clauses to the solver, so conflict analysis, learning and
//! DRAT proofs see only clauses; a proof-writing solver logs them as lemmas, so a theory in
//! proof mode makes only inferences a checker can verify.
//!
//! A propagator is made per solve by a [`PropagatorFactory`] (`Send + Sync`, so that each
//! thread of a parallel search, or each cube worker, can have its own), which a solver takes
//! through [`ConnectPropagator`]. Nothing here names the problem a propagator knows.

use std::sync::Arc;

use crate::formula::{Lit, Var};
use crate::run::Counters;

/// A theory inside the search.
pub trait Propagator: Send {
    /// The variables whose assignments the propagator wants to hear of, asked once before
    /// the search.
    fn observed_vars(&self) -> Vec<Var>;

    /// Observed literals that became true, in trail order (batched: called at each
    /// unit-propagation fixpoint with what was assigned since the last call).
    fn notify_assignment(&mut self, lits: &[Lit]);

    /// A decision level begins (after the literals of the one before were notified).
    fn notify_new_decision_level(&mut self);

    /// Every assignment above decision level `level` is undone.
    fn notify_backtrack(&mut self, level: usize);

    /// A literal the theory implies under the assignments notified so far, or `None` at its
    /// fixpoint. Each implication is given once (until a backtrack undoes what caused it):
    /// the solver asks again until `None`. The solver assigns it (or, when it is false already, has a conflict) and
    /// may ask for its reason with [`Propagator::reason_clause`].
    fn propagate(&mut self) -> Option<Lit>;

    /// The reason of a literal [`Propagator::propagate`] gave: a clause holding `lit` first,
    /// whose other literals were false when it was given. Asked at most once per literal.
    fn reason_clause(&mut self, lit: Lit, out: &mut Vec<Lit>);

    /// A clause to add now (a conflict under the current assignment, or a lemma): `true`
    /// when `out` (cleared first) holds one. Asked after each batch of notifications and
    /// after a rejected model, until it answers `false`.
    fn add_clause(&mut self, out: &mut Vec<Lit>) -> bool {
        out.clear();
        false
    }

    /// The next decision, when the theory wants to choose it (an open variable's
    /// literal); `None` leaves it to the solver.
    fn decide(&mut self) -> Option<Lit> {
        None
    }

    /// Whether a full assignment (every literal true in `model`, indexed by variable)
    /// satisfies the theory; when not, [`Propagator::add_clause`] gives a clause it
    /// falsifies.
    fn check_model(&mut self, model: &[bool]) -> bool {
        let _ = model;
        true
    }

    /// Counters of the propagator's work, named for the solver's statistics.
    fn counters(&self) -> Counters {
        Counters::default()
    }
}

/// Makes the propagator of each solve.
pub trait PropagatorFactory: Send + Sync {
    /// A propagator over a formula of `num_vars` variables; `None` when the theory does not
    /// fit it. With `proof_safe`, only inferences that a proof checker can verify by unit
    /// propagation on the formula and the proof's earlier lemmas.
    fn create(&self, num_vars: usize, proof_safe: bool) -> Option<Box<dyn Propagator>>;

    /// The counter names its propagators report, for statistics before any solve.
    fn counter_names(&self) -> &'static [&'static str] {
        &[]
    }
}

/// A solver that takes a propagator.
pub trait ConnectPropagator {
    /// Joins the propagators `factory` makes to every later solve (`None`: clauses only),
    /// until the backend is reset.
    fn connect_propagator(&mut self, factory: Option<Arc<dyn PropagatorFactory>>);
}
