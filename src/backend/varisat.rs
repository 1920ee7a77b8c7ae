//! The embedded varisat 0.2 CDCL solver (Jannis Harder; conflict-driven clause learning after
//! Marques-Silva & Sakallah 1999, GRASP, and Moskewicz et al. 2001, Chaff). Incremental: clauses
//! added after a solve go into the same solver, learnt clauses are kept.
//!
//! varisat writes DRAT proofs itself (`Solver::write_proof`), but its DRAT writer cannot
//! express clauses added after a solve (it panics on them). With a proof asked for, a solve
//! that follows such additions therefore rebuilds the solver from every clause kept, with a
//! fresh proof file: the proof of the last UNSAT answer refutes the whole formula, blocking
//! clauses included.

use ::varisat::{ExtendFormula, Lit as VLit, Solver};

use crate::backend::proof::{ProofFormat, ProofTarget};
use crate::backend::{check_model, BackendError, SatBackend, SatOutcome};
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::run::Counters;

/// A varisat solver that may move between threads.
///
/// `varisat::Solver` is not `Send` only because it can hold user-supplied proof writers and
/// proof processors (`Box<dyn Write>`, `Box<dyn ProofProcessor>`). This backend installs no
/// proof processor (no `add_proof_processor` or `enable_self_checking` call) and, as proof
/// writer, only a `std::fs::File` (which is `Send`), so every part of the solver is `Send`.
struct SendSolver(Solver<'static>);

// SAFETY: see `SendSolver`: the only non-`Send` parts are the proof sinks, which are empty
// or a `File`.
unsafe impl Send for SendSolver {}

/// The varisat backend.
pub struct VarisatBackend {
    solver: SendSolver,
    /// Every clause as given, to check models.
    original: Cnf,
    scratch: Vec<VLit>,
    solves: u64,
    /// The proof asked for ([`SatBackend::set_proof`]).
    proof: Option<ProofTarget>,
    /// With a proof: the solver has solved and clauses were added since, so the next solve
    /// starts a fresh solver and proof.
    stale: bool,
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
            proof: None,
            stale: false,
        }
    }

    fn io_error(source: std::io::Error) -> BackendError {
        BackendError::Io {
            solver: "varisat".to_string(),
            source,
        }
    }

    /// A fresh solver writing the proof asked for, loaded with every clause kept.
    fn rebuild(&mut self) -> Result<(), BackendError> {
        let mut solver = Solver::new();
        if let Some(target) = &self.proof {
            let file = std::fs::File::create(&target.path).map_err(Self::io_error)?;
            let format = match target.format {
                ProofFormat::Text => ::varisat::ProofFormat::Drat,
                ProofFormat::Binary => ::varisat::ProofFormat::BinaryDrat,
            };
            solver.write_proof(file, format);
        }
        for clause in self.original.clauses() {
            self.scratch.clear();
            self.scratch.extend(clause.iter().map(|l| to_varisat(*l)));
            solver.add_clause(&self.scratch);
        }
        self.solver = SendSolver(solver);
        self.stale = false;
        Ok(())
    }
}

fn to_varisat(lit: Lit) -> VLit {
    VLit::from_index(lit.var().index(), lit.is_positive())
}

impl ClauseSink for VarisatBackend {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
        if self.proof.is_some() && self.solves > 0 {
            // varisat's DRAT cannot take it: the next solve rebuilds.
            self.stale = true;
            return;
        }
        if self.stale {
            return;
        }
        self.scratch.clear();
        self.scratch.extend(clause.iter().map(|l| to_varisat(*l)));
        self.solver.0.add_clause(&self.scratch);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for VarisatBackend {
    fn num_vars(&self) -> usize {
        self.original.num_vars()
    }

    fn name(&self) -> String {
        "varisat".to_string()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        if self.stale {
            self.rebuild()?;
        }
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

    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        self.proof = target;
        // varisat takes its proof writer before any clause: start over with those kept.
        self.rebuild()
    }

    fn writes_proofs(&self) -> bool {
        true
    }

    fn finish_proof(&mut self) -> Result<(), BackendError> {
        if self.proof.is_none() {
            return Ok(());
        }
        self.solver
            .0
            .close_proof()
            .map_err(|e| BackendError::GaveUp {
                solver: self.name(),
                reason: format!("cannot finish the proof: {e}"),
            })
    }

    fn reset(&mut self) {
        *self = VarisatBackend::new();
    }
}
