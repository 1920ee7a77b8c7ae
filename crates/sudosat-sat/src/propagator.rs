//! The interface through which a theory joins a solver's search: a [`Propagator`] reads the
//! solver's trail at each unit-propagation fixpoint and answers with explanation clauses,
//! each either implying a literal (the literal first, the others false) or false as a whole
//! (a conflict). The solver adds them as learnt clauses, so conflict analysis, learning and
//! proofs see only clauses (lazy clause generation, Ohrimenko, Stuckey & Codish 2009,
//! "Propagation via lazy clause generation", Constraints 14(3), with every reason given
//! when the inference is made).
//!
//! A propagator is made per solve by a [`PropagatorFactory`] (`Send + Sync`, so that every
//! thread of a parallel search could have its own), which the solver takes through
//! [`ConnectPropagator`]. Nothing here names the problem a propagator knows.

use crate::formula::Lit;
use crate::run::Counters;

/// One batch of inferences: clauses laid end to end.
#[derive(Clone, Default, Debug)]
pub struct Explanations {
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Explanations {
    /// Forgets every clause, keeping the buffers.
    pub fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
    }

    /// Clause `i`, in the order they were closed.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.lits[start..self.ends[i]]
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no clause.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Appends a literal to the clause being written.
    pub fn push(&mut self, lit: Lit) {
        self.lits.push(lit);
    }

    /// Ends the clause being written.
    pub fn close(&mut self) {
        self.ends.push(self.lits.len());
    }
}

/// A theory inside the search.
pub trait Propagator: Send {
    /// Brings the propagator up to date with `trail` (the solver's assigned literals in
    /// order) and writes its inferences into `out` (cleared first): each clause implies its
    /// first literal or is a conflict. Stops at the first conflict. `values[code]` is the
    /// solver's value of each literal code (`Lit::code`): 1 true, −1 false, 0 open.
    fn propagate(&mut self, trail: &[Lit], values: &[i8], out: &mut Explanations);

    /// The solver is about to undo the trail entries from `len` on.
    fn backtrack(&mut self, trail: &[Lit], len: usize);

    /// Counters of the propagator's work, named for the solver's statistics.
    fn counters(&self) -> Counters;
}

/// Makes the propagator of each solve.
pub trait PropagatorFactory: Send + Sync {
    /// A propagator over a formula of `num_vars` variables; `None` when the theory does not
    /// fit it. With `proof_safe`, only inferences that a proof checker can verify by unit
    /// propagation on the formula and the proof's earlier lemmas.
    fn create(&self, num_vars: usize, proof_safe: bool) -> Option<Box<dyn Propagator>>;

    /// The counter names its propagators report, for statistics before any solve.
    fn counter_names(&self) -> &'static [&'static str];
}

/// A solver that takes a propagator.
pub trait ConnectPropagator {
    /// Joins the propagators `factory` makes to every later solve (`None`: clauses only),
    /// until the backend is reset.
    fn connect_propagator(&mut self, factory: Option<std::sync::Arc<dyn PropagatorFactory>>);
}
