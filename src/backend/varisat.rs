//! The embedded varisat 0.2 CDCL solver (Jannis Harder; conflict-driven clause learning after
//! Marques-Silva & Sakallah 1999, GRASP, and Moskewicz et al. 2001, Chaff). Incremental: clauses
//! added after a solve go into the same solver, learnt clauses are kept.
//!
//! varisat writes DRAT proofs itself (`Solver::write_proof`), but its DRAT writer cannot
//! express clauses added after a solve (it panics on them). With a proof asked for, a solve
//! that follows such additions therefore rebuilds the solver from every clause kept, with a
//! fresh proof file: the proof of the last UNSAT answer refutes the whole formula, blocking
//! clauses included.
//!
//! varisat 0.2 cannot be interrupted, but a proof write that fails ends its solve. Under a
//! time limit the solver therefore writes its proof steps (binary DRAT, thrown away unless
//! a proof was asked for) to a sink (`StepSink`) whose writes fail once the deadline has
//! passed, or the interrupt flag ([`crate::backend::Interrupt::set_interrupt`]) is set: the solve stops
//! within one buffer of steps (8 KiB, a few hundred conflicts)
//! after the limit, and the solver, left unusable by the error, is rebuilt for the next
//! solve. The steps cost about 5 % (docs/history.md, "Reliability"). DRAT
//! cannot take clauses added after a solve, so a count rebuilds the solver once, at its
//! first blocking clause, into varisat's own step format, which can.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::varisat::solver::SolverError;
use ::varisat::{ExtendFormula, Lit as VLit, Solver};

use crate::backend::proof::{ProofFormat, ProofTarget};
use crate::backend::{
    check_model, BackendError, Interrupt, LimitTime, SatBackend, SatOutcome, WriteProofs,
};
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::run::{Counters, Instant};

/// A varisat solver that may move between threads.
///
/// `varisat::Solver` is not `Send` only because it can hold user-supplied proof writers and
/// proof processors (`Box<dyn Write>`, `Box<dyn ProofProcessor>`). This backend installs no
/// proof processor (no `add_proof_processor` or `enable_self_checking` call) and, as proof
/// writer, only a [`StepSink`] (a `File` and an `Arc<Mutex<…>>`, both `Send`), so every part
/// of the solver is `Send`.
struct SendSolver(Solver<'static>);

// SAFETY: see `SendSolver`: the only non-`Send` parts are the proof sinks, which are empty
// or a `StepSink`.
unsafe impl Send for SendSolver {}

/// What ends a solve from outside: the current solve's deadline, and the flag another
/// thread may set.
#[derive(Default)]
struct StopSignals {
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
}

/// The stop signals a backend and its solver's sink share.
type SharedSignals = Arc<Mutex<StopSignals>>;

fn signals(shared: &SharedSignals) -> std::sync::MutexGuard<'_, StopSignals> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The proof writer of a varisat solver: the proof file asked for, or nowhere; either way a
/// write fails once the deadline has passed or the interrupt is set, which ends the solve.
struct StepSink {
    file: Option<std::fs::File>,
    signals: SharedSignals,
}

impl StepSink {
    fn stopped(&self) -> bool {
        let signals = signals(&self.signals);
        signals.deadline.is_some_and(|d| Instant::now() >= d)
            || signals
                .interrupt
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

impl Write for StepSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.stopped() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "time limit reached",
            ));
        }
        match &mut self.file {
            Some(file) => file.write(buf),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

/// The varisat backend.
pub struct VarisatBackend {
    solver: SendSolver,
    /// Every clause as given, to check models.
    original: Cnf,
    scratch: Vec<VLit>,
    solves: u64,
    /// The proof asked for ([`crate::backend::WriteProofs::set_proof`]).
    proof: Option<ProofTarget>,
    /// The solver must be rebuilt before the next solve: clauses were added after a solve
    /// while it writes steps (varisat's DRAT cannot take them), a solve ended in an error
    /// (which leaves varisat unusable), or the time limit came or went.
    stale: bool,
    /// The limit of each solve ([`crate::backend::LimitTime::set_time_limit`]).
    time_limit: Option<Duration>,
    /// The current solve's deadline and the interrupt flag, read by the solver's
    /// [`StepSink`].
    signals: SharedSignals,
    /// Without a proof, the steps are in varisat's own format, which takes clauses added
    /// after a solve: set once such clauses came (until a reset).
    incremental_steps: bool,
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
            time_limit: None,
            signals: SharedSignals::default(),
            incremental_steps: false,
        }
    }

    /// Whether the solver can be stopped: under a time limit or with an interrupt flag.
    fn stoppable(&self) -> bool {
        self.time_limit.is_some() || signals(&self.signals).interrupt.is_some()
    }

    /// Whether the solver writes proof steps: for a proof, or to be stopped.
    fn writes_steps(&self) -> bool {
        self.proof.is_some() || self.stoppable()
    }

    /// After the time limit or the interrupt came or went: the step sink, which varisat
    /// takes only before any clause, comes or goes at once while there is none (a fresh
    /// backend), else at the next solve.
    fn stoppable_changed(&mut self) {
        self.stale = true;
        if self.original.num_clauses() == 0 && self.rebuild().is_err() {
            self.stale = true;
        }
    }

    fn io_error(source: std::io::Error) -> BackendError {
        BackendError::Io {
            solver: "varisat".to_string(),
            source,
        }
    }

    /// A fresh solver writing the proof asked for (or, under a time limit, steps to be
    /// stopped by), loaded with every clause kept.
    fn rebuild(&mut self) -> Result<(), BackendError> {
        let mut solver = Solver::new();
        if self.writes_steps() {
            let file = match &self.proof {
                Some(target) => Some(std::fs::File::create(&target.path).map_err(Self::io_error)?),
                None => None,
            };
            let format = match self.proof.as_ref().map(|t| t.format) {
                Some(ProofFormat::Text) => ::varisat::ProofFormat::Drat,
                Some(ProofFormat::Binary) => ::varisat::ProofFormat::BinaryDrat,
                // Steps only to be stopped by: binary DRAT, the cheapest to write, until
                // clauses come after a solve (a count), which DRAT cannot take; then
                // varisat's own format, which can, so the count rebuilds once, not per
                // solution (it costs varisat 10-16 % against binary DRAT's 5-7 %).
                None if self.incremental_steps => ::varisat::ProofFormat::Varisat,
                None => ::varisat::ProofFormat::BinaryDrat,
            };
            let sink = StepSink {
                file,
                signals: Arc::clone(&self.signals),
            };
            solver.write_proof(sink, format);
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
        let drat_steps = self.proof.is_some() || (self.stoppable() && !self.incremental_steps);
        if drat_steps && self.solves > 0 {
            // varisat's DRAT cannot take it: the next solve rebuilds (without a proof, into
            // steps that can).
            self.incremental_steps = self.proof.is_none();
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
        signals(&self.signals).deadline = self.time_limit.map(|limit| Instant::now() + limit);
        let answer = self.solver.0.solve();
        signals(&self.signals).deadline = None;
        let sat = answer.map_err(|e| {
            // An error leaves varisat unusable: the next solve starts over.
            self.stale = true;
            match e {
                // The deadline or the interrupt: a time-out, as for the other backends.
                SolverError::ProofIoError { cause } if cause.kind() == io::ErrorKind::TimedOut => {
                    BackendError::Timeout {
                        solver: self.name(),
                        timeout: self.time_limit.unwrap_or_default(),
                    }
                }
                e => BackendError::GaveUp {
                    solver: self.name(),
                    reason: e.to_string(),
                },
            }
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
        let limit = self.time_limit;
        let interrupt = signals(&self.signals).interrupt.take();
        *self = VarisatBackend::new();
        self.set_time_limit(limit);
        self.set_interrupt(interrupt);
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn as_prover(&mut self) -> Option<&mut dyn WriteProofs> {
        Some(self)
    }
}

impl LimitTime for VarisatBackend {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        let was_stoppable = self.stoppable();
        self.time_limit = limit;
        if was_stoppable != self.stoppable() {
            self.stoppable_changed();
        }
    }
}

impl Interrupt for VarisatBackend {
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        let was_stoppable = self.stoppable();
        signals(&self.signals).interrupt = flag;
        if was_stoppable != self.stoppable() {
            self.stoppable_changed();
        }
    }

    /// Yes unless a time limit or a proof has the solver write its steps already.
    fn interrupt_slows_solves(&self) -> bool {
        self.proof.is_none() && self.time_limit.is_none()
    }
}

impl WriteProofs for VarisatBackend {
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        self.proof = target;
        // varisat takes its proof writer before any clause: start over with those kept.
        self.rebuild()
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
}
