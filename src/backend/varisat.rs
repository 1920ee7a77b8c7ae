//! The embedded varisat 0.2 CDCL solver (Jannis Harder; conflict-driven clause learning after
//! Marques-Silva & Sakallah 1999, GRASP, and Moskewicz et al. 2001, Chaff). Incremental: clauses
//! added after a solve go into the same solver, learnt clauses are kept.

use ::varisat::{ExtendFormula, Lit as VLit, Solver};

use crate::backend::{check_model, BackendError, SatBackend, SatOutcome};
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::run::Counters;

/// A varisat solver that may move between threads.
///
/// `varisat::Solver` is not `Send` only because it can hold user-supplied proof writers and
/// proof processors (`Box<dyn Write>`, `Box<dyn ProofProcessor>`). This backend never installs
/// any (no `write_proof`, `add_proof_processor` or `enable_self_checking` call), so every other
/// part of the solver is plain owned data.
struct SendSolver(Solver<'static>);

// SAFETY: see `SendSolver`: the only non-`Send` parts are the proof sinks, which stay empty.
unsafe impl Send for SendSolver {}

/// The varisat backend.
pub struct VarisatBackend {
    solver: SendSolver,
    /// Every clause as given, to check models.
    original: Cnf,
    scratch: Vec<VLit>,
    solves: u64,
}

impl Default for VarisatBackend {
    fn default() -> Self {
        VarisatBackend::new()
    }
}

impl VarisatBackend {
    /// An empty solver.
    pub fn new() -> VarisatBackend {
        VarisatBackend {
            solver: SendSolver(Solver::new()),
            original: Cnf::new(),
            scratch: Vec::new(),
            solves: 0,
        }
    }
}

impl ClauseSink for VarisatBackend {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
        self.scratch.clear();
        self.scratch.extend(
            clause
                .iter()
                .map(|l| VLit::from_index(l.var().index(), l.is_positive())),
        );
        self.solver.0.add_clause(&self.scratch);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for VarisatBackend {
    fn name(&self) -> String {
        "varisat".to_string()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solves += 1;
        let sat = self.solver.0.solve().map_err(|e| BackendError::GaveUp {
            solver: self.name(),
            reason: e.to_string(),
        })?;
        if !sat {
            return Ok(SatOutcome::Unsat);
        }
        let lits = self
            .solver
            .0
            .model()
            .ok_or_else(|| BackendError::BadOutput {
                solver: self.name(),
                reason: "reported SAT without a model".to_string(),
            })?;
        let model = Model::from_lits(
            self.original.num_vars(),
            lits.iter()
                .map(|l| crate::formula::Var::from_index(l.index()).lit(l.is_positive())),
        );
        check_model("varisat", &self.original, model)
    }

    fn counters(&self) -> Counters {
        Counters(vec![("solves", self.solves)])
    }

    fn reset(&mut self) {
        *self = VarisatBackend::new();
    }
}
