//! SAT backends behind one trait: the built-in DPLL, embedded varisat and splr, and external
//! solver processes (MiniSat, and any solver printing SAT-competition `s`/`v` lines).
//!
//! UNSAT is an answer ([`SatOutcome::Unsat`]), never an error.

use std::time::Duration;

use crate::formula::{ClauseSink, Model};

/// What a backend found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatOutcome {
    /// Satisfiable, with a model over every variable.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
}

/// A backend's counters (decisions, propagations, conflicts…), in a stable order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counters(pub Vec<(&'static str, u64)>);

impl Counters {
    /// The value of a named counter.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.iter().find(|(k, _)| *k == name).map(|&(_, v)| v)
    }
}

impl std::fmt::Display for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&parts.join(" "))
    }
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
    /// An external solver ran out of time and was killed.
    #[error("solver command `{command}` timed out after {timeout:?} and was killed")]
    Timeout {
        /// The command line.
        command: String,
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
    /// I/O while talking to a solver.
    #[error("solver `{solver}`: {source}")]
    Io {
        /// The solver.
        solver: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

/// A SAT solver: takes clauses (as a [`ClauseSink`]), answers SAT with a model or UNSAT.
///
/// Clauses may be added after a `solve` (blocking clauses for counting); the next `solve`
/// answers for the whole formula so far.
pub trait SatBackend: ClauseSink + Send {
    /// Short name, e.g. `dpll`, `varisat`, `minisat`, `external:cadical`.
    fn name(&self) -> String;

    /// Solves the formula added so far.
    ///
    /// # Errors
    /// A [`BackendError`] when no answer could be had; UNSAT is `Ok(SatOutcome::Unsat)`.
    fn solve(&mut self) -> Result<SatOutcome, BackendError>;

    /// Counters of the work done so far.
    fn counters(&self) -> Counters {
        Counters::default()
    }
}
