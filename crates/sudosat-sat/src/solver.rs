//! The SAT solver interface: [`SatBackend`] (clauses in, SAT with a model or UNSAT out)
//! and the capability traits a backend may hand out (after rustsat's `Solve`,
//! `SolveIncremental`, `Interrupt`): assumptions, time limits, interruption, proofs, a
//! propagator.
//!
//! UNSAT is an answer ([`SatOutcome::Unsat`]), never an error.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::proof::ProofTarget;
use crate::propagator::ConnectPropagator;
use crate::run::Counters;

/// What a backend found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatOutcome {
    /// Satisfiable, with a model over every variable.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
}

/// A backend failed to give an answer (never used for UNSAT).
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// An external solver could not be started.
    #[error("solver command `{command}` could not be started: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// The OS error.
        reason: String,
    },
    /// A solver's buffers could not be allocated.
    #[error("solver `{solver}`: {source}")]
    OutOfMemory {
        /// The solver.
        solver: String,
        /// Which buffer and how large.
        #[source]
        source: crate::formula::ReserveError,
    },
    /// A solver ran out of time: an external process is killed, an embedded solver stops.
    #[error("solver `{solver}` timed out after {timeout:?}")]
    Timeout {
        /// The solver (an external solver's command line).
        solver: String,
        /// The limit.
        timeout: Duration,
    },
    /// An external solver died or exited with an unexpected status.
    #[error("solver command `{command}` failed: {reason}")]
    Failed {
        /// The command line.
        command: String,
        /// Exit status or signal, and any stderr.
        reason: String,
    },
    /// A solver's output could not be understood.
    #[error("solver `{solver}` printed output that is not a SAT answer: {reason}")]
    BadOutput {
        /// The solver.
        solver: String,
        /// What was wrong, with position.
        reason: String,
    },
    /// A solver returned a model that falsifies a clause.
    #[error("solver `{solver}` returned a wrong model: clause {clause} is falsified")]
    WrongModel {
        /// The solver.
        solver: String,
        /// 0-based index of the falsified clause.
        clause: usize,
    },
    /// The solver gave up (time-out inside an embedded solver, resource limit).
    #[error("solver `{solver}` gave up: {reason}")]
    GaveUp {
        /// The solver.
        solver: String,
        /// Why.
        reason: String,
    },
    /// The backend cannot do what was asked (write a proof, solve under assumptions).
    #[error("solver `{solver}` cannot {what}")]
    Unsupported {
        /// The solver.
        solver: String,
        /// What it cannot do, e.g. "write DRAT proofs".
        what: String,
    },
    /// I/O while talking to a solver.
    #[error("solver `{solver}`: {source}")]
    Io {
        /// The solver.
        solver: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A backend behind a cargo feature that this build left out.
    #[error(
        "backend `{solver}` is not built into this sudosat: it needs the cargo feature \
         `{feature}` (cargo build --release --features {feature}; its build needs {needs})"
    )]
    NotBuilt {
        /// The backend.
        solver: String,
        /// The feature that brings it.
        feature: String,
        /// What the feature's build needs beside a Rust toolchain.
        needs: String,
    },
    /// An external solver's input would not fit on the disk of its temporary directory.
    #[error(
        "solver `{solver}`: its input CNF would take about {} and {dir} has {} free; \
         nothing was written. Point TMPDIR at a roomier place",
        crate::run::approx_bytes(*needed),
        crate::run::approx_bytes(*free)
    )]
    NoDiskSpace {
        /// The solver.
        solver: String,
        /// The bytes estimated for the input and the model.
        needed: u64,
        /// The bytes free there.
        free: u64,
        /// Where the temporary directory would go.
        dir: String,
    },
}

/// A SAT solver: takes clauses (as a [`ClauseSink`]), answers SAT with a model or UNSAT.
///
/// Clauses may be added after a `solve` (blocking clauses for counting); the next `solve`
/// answers for the whole formula so far. What only some solvers can do is a capability
/// trait ([`SolveUnderAssumptions`], [`LimitTime`], [`Interrupt`], [`WriteProofs`],
/// [`ConnectPropagator`]) that a solver hands out through its `as_…` method: `None` means
/// it cannot, and the `require_…` methods on `dyn SatBackend` turn that into a
/// [`BackendError::Unsupported`] naming the solver and what it lacks.
pub trait SatBackend: ClauseSink + Send {
    /// Short name, e.g. `dpll`, `varisat`, `minisat`, `external:cadical`.
    fn name(&self) -> String;

    /// Moves every clause of `cnf` (what an encoder built in memory) into the backend and
    /// leaves `cnf` empty, possibly holding buffers the backend gave back. The default
    /// streams the clauses one by one; a backend that keeps the formula takes it whole,
    /// without a copy (a formula may have millions of clauses).
    fn add_formula(&mut self, cnf: &mut Cnf) {
        self.reserve_vars(cnf.num_vars());
        for clause in cnf.clauses() {
            self.add_clause(clause);
        }
        cnf.clear();
    }

    /// The number of variables of the formula added so far (the highest one used or
    /// reserved): a caller that needs fresh variables, such as selectors, takes the next.
    fn num_vars(&self) -> usize;

    /// Solves the formula added so far.
    ///
    /// # Errors
    /// A [`BackendError`] when no answer could be had; UNSAT is `Ok(SatOutcome::Unsat)`.
    fn solve(&mut self) -> Result<SatOutcome, BackendError>;

    /// Counters of the work done so far (empty for a solver that counts nothing).
    fn counters(&self) -> Counters {
        Counters::default()
    }

    /// Forgets every clause and counter, so the backend can take a new formula; buffers are
    /// kept where the backend can reuse them. Ends any proof ([`WriteProofs`]) and drops any
    /// propagator ([`ConnectPropagator`]). Time limits and interrupt flags stay.
    fn reset(&mut self);

    /// Hands back a model this backend answered, once read, so that its buffer holds the
    /// next model (a batch then allocates none per solve). The default drops it.
    fn recycle_model(&mut self, model: Model) {
        drop(model);
    }

    /// A hint between unrelated queries under assumptions (a batch's next query): learnt
    /// clauses that served the last one may go. They stay valid, so a backend may ignore
    /// the hint (the default).
    fn forget_learnt(&mut self) {}

    /// A hint that the caller checks every model against the first `count` clauses itself,
    /// so the backend's own model check may skip them (until [`SatBackend::reset`]). Clauses
    /// added later are still checked. The default ignores it.
    fn trust_clauses(&mut self, count: usize) {
        let _ = count;
    }

    /// A tuning hint: whether learnt clauses are shrunk (Feng & Bacchus 2020; cdcl's
    /// `shrink`), for the formulas where that was measured to pay. Until
    /// [`SatBackend::reset`]; a backend without the technique ignores it (the default).
    fn set_shrinking(&mut self, shrink: bool) {
        let _ = shrink;
    }

    /// Solving under assumptions, when the backend can.
    fn as_assumptions(&mut self) -> Option<&mut dyn SolveUnderAssumptions> {
        None
    }

    /// Queries against a base formula with units at the root, when the backend can.
    fn as_root_units(&mut self) -> Option<&mut dyn SolveWithRootUnits> {
        None
    }

    /// A time limit on each solve, when the backend can stop early.
    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        None
    }

    /// A flag that ends a running solve, when the backend can be interrupted.
    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        None
    }

    /// DRAT proofs of UNSAT answers, when the backend writes them.
    fn as_prover(&mut self) -> Option<&mut dyn WriteProofs> {
        None
    }

    /// A propagator joined to the search, when the backend takes one.
    fn as_propagating(&mut self) -> Option<&mut dyn ConnectPropagator> {
        None
    }

    /// The error for a capability this backend lacks: [`BackendError::Unsupported`] with
    /// the capability's wording; a backend may say more (how to get it).
    fn lacks(&self, capability: Capability) -> BackendError {
        BackendError::Unsupported {
            solver: self.name(),
            what: capability.what().to_string(),
        }
    }
}

/// What some backends can do and others cannot: the capability traits, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// [`SolveUnderAssumptions`].
    Assumptions,
    /// [`LimitTime`].
    TimeLimit,
    /// [`Interrupt`].
    Interrupt,
    /// [`WriteProofs`].
    Proofs,
    /// [`ConnectPropagator`].
    Propagator,
}

impl Capability {
    /// Every capability, in the order help lists them.
    pub const ALL: [Capability; 5] = [
        Capability::Assumptions,
        Capability::TimeLimit,
        Capability::Interrupt,
        Capability::Proofs,
        Capability::Propagator,
    ];

    /// Its short name in help and docs, e.g. `assumptions`.
    pub fn name(self) -> &'static str {
        match self {
            Capability::Assumptions => "assumptions",
            Capability::TimeLimit => "time limits",
            Capability::Interrupt => "interrupts",
            Capability::Proofs => "DRAT proofs",
            Capability::Propagator => "propagators",
        }
    }

    /// What a backend that lacks it cannot do, as an error message says it.
    pub fn what(self) -> &'static str {
        match self {
            Capability::Assumptions => "solve under assumptions",
            Capability::TimeLimit => "stop at a time limit",
            Capability::Interrupt => "be interrupted",
            Capability::Proofs => "write DRAT proofs",
            Capability::Propagator => "take a propagator",
        }
    }
}

/// Solving under assumptions (MiniSat's `solve(assumps)`, IPASIR's `ipasir_assume`).
pub trait SolveUnderAssumptions {
    /// Solves the formula added so far under `assumptions`: literals taken as true for this
    /// call only. UNSAT under assumptions is `Ok(SatOutcome::Unsat)`, and
    /// [`SolveUnderAssumptions::failed_assumptions`] then names a subset of the assumptions
    /// that the formula refutes (empty when the formula alone is UNSAT). Learnt clauses
    /// stay.
    ///
    /// # Errors
    /// As [`SatBackend::solve`].
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError>;

    /// After an UNSAT answer of [`SolveUnderAssumptions::solve_under`]: the assumptions
    /// responsible.
    fn failed_assumptions(&self) -> Vec<Lit>;
}

/// Many queries against one base formula, each with literals fixed at the root and undone
/// after it: the clauses added before [`SolveWithRootUnits::set_base`] are kept for good;
/// [`SolveWithRootUnits::start_query`] goes back to them alone — the last query's units,
/// the clauses added since, what was learnt from them and the search's heuristic state
/// all dropped — and fixes the new query's units at the root. The query's solves are then
/// plain [`SatBackend::solve`] calls, and clauses added in between (a count's blocking
/// clauses) hold until the next query. A query's answer therefore does not depend on the
/// queries before it. Unlike assumptions ([`SolveUnderAssumptions`]), units are root
/// facts: what is learnt from them holds for that query only, and is dropped with it.
pub trait SolveWithRootUnits {
    /// Makes the clauses added so far the base, loaded once.
    ///
    /// # Errors
    /// The base does not fit in memory.
    fn set_base(&mut self) -> Result<(), BackendError>;

    /// Starts a query: back to the base alone, then `units` fixed at the root. Without a
    /// base ([`SolveWithRootUnits::set_base`]) every clause added so far counts as one.
    fn start_query(&mut self, units: &[Lit]) -> Result<(), BackendError>;
}

/// A time limit on each solve.
pub trait LimitTime {
    /// Limits the time of each later solve: past it, the solve answers
    /// [`BackendError::Timeout`]. `None` lifts the limit.
    fn set_time_limit(&mut self, limit: Option<Duration>);
}

/// Interruption from another thread (IPASIR's `ipasir_set_terminate`).
pub trait Interrupt {
    /// A flag another thread sets to end this backend's solves at their next look at the
    /// clock, as a time-out ([`BackendError::Timeout`]): how parallel work stops the solves
    /// made pointless by an answer found elsewhere. `None` removes it.
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>);

    /// Whether holding a flag would make this backend's solves slower (varisat's: it then
    /// writes proof steps to be stopped by, unless a time limit or a proof has turned them
    /// on already). A caller that times solves leaves such a backend without a flag
    /// (`set_free_interrupt` on `dyn SatBackend`). The default: no.
    fn interrupt_slows_solves(&self) -> bool {
        false
    }
}

/// DRAT proofs ([`crate::proof`]) of UNSAT answers.
pub trait WriteProofs {
    /// Asks for a DRAT proof of the formula's unsatisfiability, written to `target` when a
    /// later `solve` answers UNSAT (`None`: no proof). Call it on a fresh or
    /// [`SatBackend::reset`] backend, before the first `solve`: the proof then refutes every
    /// clause added, blocking clauses included. [`WriteProofs::finish_proof`] completes it.
    ///
    /// # Errors
    /// [`BackendError::Io`] when the file cannot be made.
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError>;

    /// Flushes and closes the proof asked for with [`WriteProofs::set_proof`].
    ///
    /// # Errors
    /// [`BackendError::Io`] when the proof could not be written.
    fn finish_proof(&mut self) -> Result<(), BackendError>;
}

impl<'a> dyn SatBackend + 'a {
    /// [`SatBackend::as_assumptions`], or the error naming what this backend lacks.
    ///
    /// # Errors
    /// [`BackendError::Unsupported`].
    pub fn require_assumptions(&mut self) -> Result<&mut dyn SolveUnderAssumptions, BackendError> {
        let lacks = self.lacks(Capability::Assumptions);
        self.as_assumptions().ok_or(lacks)
    }

    /// [`SatBackend::as_prover`], or the error naming what this backend lacks.
    ///
    /// # Errors
    /// [`BackendError::Unsupported`].
    pub fn require_prover(&mut self) -> Result<&mut dyn WriteProofs, BackendError> {
        let lacks = self.lacks(Capability::Proofs);
        self.as_prover().ok_or(lacks)
    }

    /// [`SatBackend::as_propagating`], or the error naming what this backend lacks.
    ///
    /// # Errors
    /// [`BackendError::Unsupported`].
    pub fn require_propagating(&mut self) -> Result<&mut dyn ConnectPropagator, BackendError> {
        let lacks = self.lacks(Capability::Propagator);
        self.as_propagating().ok_or(lacks)
    }

    /// Solves under `assumptions`: a plain [`SatBackend::solve`] when there are none, else
    /// through [`SolveUnderAssumptions`].
    ///
    /// # Errors
    /// [`BackendError::Unsupported`] when there are assumptions and the backend cannot take
    /// them; otherwise as [`SatBackend::solve`].
    pub fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        if assumptions.is_empty() {
            return self.solve();
        }
        self.require_assumptions()?.solve_under(assumptions)
    }

    /// Whether the backend has `capability` (hands out its trait).
    pub fn can(&mut self, capability: Capability) -> bool {
        match capability {
            Capability::Assumptions => self.as_assumptions().is_some(),
            Capability::TimeLimit => self.as_time_limited().is_some(),
            Capability::Interrupt => self.as_interruptible().is_some(),
            Capability::Proofs => self.as_prover().is_some(),
            Capability::Propagator => self.as_propagating().is_some(),
        }
    }

    /// Whether the backend takes assumptions.
    pub fn takes_assumptions(&mut self) -> bool {
        self.as_assumptions().is_some()
    }

    /// Whether the backend writes proofs.
    pub fn writes_proofs(&mut self) -> bool {
        self.as_prover().is_some()
    }

    /// Whether a time limit stops a running solve: callers that need a bound on a backend
    /// that cannot be stopped check the elapsed time afterwards.
    pub fn honours_time_limit(&mut self) -> bool {
        self.as_time_limited().is_some()
    }

    /// Sets the time limit where the backend can stop early ([`LimitTime`]); a backend that
    /// cannot runs each solve to its end (see `honours_time_limit`).
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        if let Some(limited) = self.as_time_limited() {
            limited.set_time_limit(limit);
        }
    }

    /// Sets the interrupt flag where the backend can be interrupted ([`Interrupt`]); a
    /// backend that cannot (splr) runs each solve to its end or its time limit.
    pub fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        if let Some(interruptible) = self.as_interruptible() {
            interruptible.set_interrupt(flag);
        }
    }

    /// As `set_interrupt`, but leaves a backend whose solves holding the flag
    /// would slow ([`Interrupt::interrupt_slows_solves`]) without one: for solves that are
    /// timed, which the means of stopping them must not cost time.
    pub fn set_free_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        if let Some(interruptible) = self.as_interruptible() {
            if flag.is_none() || !interruptible.interrupt_slows_solves() {
                interruptible.set_interrupt(flag);
            }
        }
    }

    /// Asks for a proof ([`WriteProofs::set_proof`]), or stops asking with `None` (nothing
    /// to do for a backend that writes none).
    ///
    /// # Errors
    /// [`BackendError::Unsupported`] naming what the backend lacks when it writes no
    /// proofs; [`BackendError::Io`] when the file cannot be made.
    pub fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        match (target, self.as_prover().is_some()) {
            (None, false) => Ok(()),
            (target, _) => self.require_prover()?.set_proof(target),
        }
    }

    /// Completes a proof asked for with [`WriteProofs::set_proof`] (nothing to do for a
    /// backend that writes none).
    ///
    /// # Errors
    /// [`BackendError::Io`] when the proof could not be written.
    pub fn finish_proof(&mut self) -> Result<(), BackendError> {
        match self.as_prover() {
            Some(prover) => prover.finish_proof(),
            None => Ok(()),
        }
    }

    /// After an UNSAT answer under assumptions: the assumptions responsible (none for a
    /// backend that takes none).
    pub fn failed_assumptions(&mut self) -> Vec<Lit> {
        self.as_assumptions()
            .map_or_else(Vec::new, |assumptions| assumptions.failed_assumptions())
    }
}

/// Checks a backend's model against every clause it was given: `SAT(model)` when it
/// satisfies them all (the model is padded with `false` up to the formula's variables).
///
/// # Errors
/// [`BackendError::WrongModel`] naming the backend and the first falsified clause.
pub fn check_model(solver: &str, cnf: &Cnf, model: Model) -> Result<SatOutcome, BackendError> {
    check_model_from(solver, cnf, 0, model)
}

/// [`check_model`] against the clauses from index `first` on (the earlier ones are checked
/// by the caller: [`SatBackend::trust_clauses`]).
///
/// # Errors
/// [`BackendError::WrongModel`] naming the backend and the first falsified clause.
pub fn check_model_from(
    solver: &str,
    cnf: &Cnf,
    first: usize,
    model: Model,
) -> Result<SatOutcome, BackendError> {
    let model = if model.len() < cnf.num_vars() {
        Model::from_lits(cnf.num_vars(), model.lits())
    } else {
        model
    };
    match cnf.first_falsified_from(first, &model) {
        None => Ok(SatOutcome::Sat(model)),
        Some(clause) => Err(BackendError::WrongModel {
            solver: solver.to_string(),
            clause,
        }),
    }
}
