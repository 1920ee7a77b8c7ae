//! SAT backends behind one trait: the built-in DPLL, embedded varisat and splr, and external
//! solver processes (MiniSat, and any solver printing SAT-competition `s`/`v` lines).
//!
//! UNSAT is an answer ([`SatOutcome::Unsat`]), never an error.

pub mod cdcl;
pub mod dpll;
pub mod external;
pub mod lookahead;
pub mod splr;
pub mod sudoku;
pub mod varisat;

pub use sudosat_sat::proof;

use std::time::Duration;

use crate::encode::SudokuEncoding;
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::names::UnknownName;
pub use crate::run::Counters;

pub use self::cdcl::Cdcl;
pub use self::dpll::{Dpll, Lookahead};
pub use self::external::{ExternalSolver, OutputStyle};
pub use self::lookahead::LookaheadBackend;
pub use self::proof::{DratWriter, ProofFormat, ProofTarget};
pub use self::splr::SplrBackend;
pub use self::sudoku::{CellDigit, Propagate, SudokuStructure, MAX_NATIVE_SIDE};
pub use self::varisat::VarisatBackend;

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
/// answers for the whole formula so far.
pub trait SatBackend: ClauseSink + Send {
    /// Short name, e.g. `dpll`, `varisat`, `minisat`, `external:cadical`.
    fn name(&self) -> String;

    /// Moves every clause of `cnf` (what an encoder built in memory) into the backend and
    /// leaves `cnf` empty, possibly holding buffers the backend gave back. The default
    /// streams the clauses one by one; a backend that keeps the formula takes it whole,
    /// without a copy (a 225×225 formula has millions of clauses).
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

    /// Counters of the work done so far.
    fn counters(&self) -> Counters {
        Counters::default()
    }

    /// Limits the time of each later [`SatBackend::solve`]: past it, `solve` answers
    /// [`BackendError::Timeout`]. `None` lifts the limit. The default ignores the limit;
    /// [`SatBackend::honours_time_limit`] says whether a backend can stop early.
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        let _ = limit;
    }

    /// Whether [`SatBackend::set_time_limit`] can stop a running `solve`: callers that need
    /// a bound on a backend that cannot be stopped must check the elapsed time afterwards.
    fn honours_time_limit(&self) -> bool {
        false
    }

    /// Forgets every clause and counter, so the backend can take a new formula; buffers are
    /// kept where the backend can reuse them. Ends any proof ([`SatBackend::set_proof`]).
    fn reset(&mut self);

    /// Solves the formula added so far under `assumptions`: literals taken as true for this
    /// call only. UNSAT under assumptions is `Ok(SatOutcome::Unsat)`, and
    /// [`SatBackend::failed_assumptions`] then names a subset of the assumptions that the
    /// formula refutes (empty when the formula alone is UNSAT). Clauses learnt stay.
    ///
    /// # Errors
    /// [`BackendError::Unsupported`] for backends that cannot ([`SatBackend::supports_assumptions`]),
    /// otherwise as [`SatBackend::solve`].
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        if assumptions.is_empty() {
            return self.solve();
        }
        Err(BackendError::Unsupported {
            solver: self.name(),
            what: "solve under assumptions".to_string(),
        })
    }

    /// Whether [`SatBackend::solve_under`] takes assumptions.
    fn supports_assumptions(&self) -> bool {
        false
    }

    /// A flag another thread sets to end this backend's solves at their next look at the
    /// clock, as a time-out ([`BackendError::Timeout`]): how parallel work stops the
    /// solves made pointless by an answer found elsewhere. The default ignores it (the
    /// solve runs to its end or its time limit); cdcl, dpll, the lookahead search, varisat
    /// and external processes honour it.
    fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        let _ = flag;
    }

    /// After an UNSAT answer of [`SatBackend::solve_under`]: the assumptions responsible.
    fn failed_assumptions(&self) -> Vec<Lit> {
        Vec::new()
    }

    /// A hint between unrelated queries under assumptions (a batch's next puzzle): learnt
    /// clauses that served the last query may go. They stay valid, so a backend may ignore
    /// the hint (the default).
    fn forget_learnt(&mut self) {}

    /// A hint that the caller checks every model against the first `count` clauses itself,
    /// so the backend's own model check may skip them (until [`SatBackend::reset`]). The
    /// SAT path gives it for encodings without auxiliary variables, whose decoded grid it
    /// checks against the rules and the givens: a model that passes that check satisfies
    /// those clauses. Blocking clauses added later are still checked. The
    /// default ignores it.
    fn trust_clauses(&mut self, count: usize) {
        let _ = count;
    }

    /// Tells the backend which Sudoku the formula (already added or about to be) encodes,
    /// for native propagation ([`Propagate::Sudoku`]); cleared by [`SatBackend::reset`].
    /// Backends without it ignore it.
    fn set_structure(&mut self, structure: &SudokuStructure) {
        let _ = structure;
    }

    /// Tells the backend which Sudoku encoding made the formula (already added or about to
    /// be), so that it can learn the way that measured best on it; cleared by
    /// [`SatBackend::reset`]. Backends without such a choice ignore it.
    fn set_sudoku_encoding(&mut self, encoding: SudokuEncoding) {
        let _ = encoding;
    }

    /// Asks for a DRAT proof ([`proof`]) of the formula's unsatisfiability, written to
    /// `target` when a later `solve` answers UNSAT (`None`: no proof). Call it on a fresh or
    /// [`SatBackend::reset`] backend, before the first `solve`: the proof then refutes every
    /// clause added, blocking clauses included. [`SatBackend::finish_proof`] completes it.
    ///
    /// # Errors
    /// [`BackendError::Unsupported`] when the backend cannot write proofs
    /// ([`SatBackend::writes_proofs`]); [`BackendError::Io`] when the file cannot be made.
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        match target {
            None => Ok(()),
            Some(_) => Err(BackendError::Unsupported {
                solver: self.name(),
                what: "write DRAT proofs".to_string(),
            }),
        }
    }

    /// Whether [`SatBackend::set_proof`] is supported.
    fn writes_proofs(&self) -> bool {
        false
    }

    /// Flushes and closes the proof asked for with [`SatBackend::set_proof`].
    ///
    /// # Errors
    /// [`BackendError::Io`] when the proof could not be written.
    fn finish_proof(&mut self) -> Result<(), BackendError> {
        Ok(())
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

crate::names::named_enum! {
    /// Which backend to use: the CLI's `--backend` values, embedded ones first.
    pub enum BackendKind ("backend") {
        /// The built-in CDCL solver ([`Cdcl`]).
        Cdcl = "cdcl",
        /// The built-in DPLL ([`Dpll`]).
        Dpll = "dpll",
        /// The built-in lookahead search ([`LookaheadBackend`]; after satz, kcnfs and
        /// march), which cdcl hands uniform random k-SAT.
        Lookahead = "lookahead",
        /// The embedded varisat 0.2 CDCL solver (incremental).
        Varisat = "varisat",
        /// The embedded splr 0.17 CDCL solver (rebuilt from the kept clauses for each solve).
        Splr = "splr",
        /// An external MiniSat 2.2 process (result file).
        Minisat = "minisat",
        /// Any external solver command printing SAT-competition `s`/`v` lines.
        External = "external",
    }
}

impl BackendKind {
    /// The default backend: the built-in CDCL solver. It is as fast as the DPLL where
    /// propagation and probing settle a puzzle (17-clue 9×9, the large grids) and the only
    /// built-in one that learns, so it finishes the grids that need real search (the
    /// gecode 25×25 set, hardest 9×9) where the DPLL times out (BENCHMARKS.md).
    pub const DEFAULT: BackendKind = BackendKind::Cdcl;

    /// Whether the backend runs inside this process.
    pub fn is_embedded(self) -> bool {
        matches!(
            self,
            BackendKind::Cdcl
                | BackendKind::Dpll
                | BackendKind::Lookahead
                | BackendKind::Varisat
                | BackendKind::Splr
        )
    }
}

crate::names::named_enum! {
    /// How the SAT path loads each puzzle into its backend.
    #[derive(Default)]
    pub enum LoadMode ("load mode") {
        /// Encode each puzzle anew into a reset backend, with the encoding's reduction.
        #[default]
        Reencode = "reencode",
        /// Keep the empty grid's encoding (the same base encoding, unreduced) loaded and
        /// solve each puzzle under its givens as assumptions; between puzzles the backend
        /// may forget what it learnt ([`SatBackend::forget_learnt`]). Only for backends
        /// that take assumptions
        /// ([`SatBackend::supports_assumptions`]); the others re-encode.
        Assumptions = "assumptions",
    }
}

/// A fully specified backend: the kind plus what external ones need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendSpec {
    /// Which backend.
    pub kind: BackendKind,
    /// The command line of an external solver (`minisat` when `None` for
    /// [`BackendKind::Minisat`]; required for [`BackendKind::External`]).
    pub command: Option<String>,
    /// Time limit of each solve: an external process is killed when it is exceeded, the
    /// DPLL and splr stop (see [`SatBackend::honours_time_limit`]).
    pub timeout: Option<Duration>,
    /// How far the DPLL looks ahead, and whether cdcl probes at the root (ignored by the
    /// other backends).
    pub lookahead: Lookahead,
    /// How the SAT path loads puzzles into the backend
    /// ([`crate::solve::sat::SatSolver`]).
    pub load: LoadMode,
    /// Whether cdcl propagates the Sudoku's units natively when the formula comes from a
    /// puzzle (ignored by the other backends).
    pub propagate: Propagate,
    /// Threads of one cdcl solve ([`Cdcl::with_threads`]; ignored by the other backends):
    /// 1 (the default) is deterministic.
    pub threads: usize,
    /// Memory budget of one solve in bytes (`--max-memory`): cdcl's portfolio copies the
    /// solver only into what the solver leaves of it. `None`: half the memory the system
    /// reports available.
    pub memory: Option<u64>,
    /// Seed of cdcl's search ([`Cdcl::with_seed`]) and of an external command's `{seed}`
    /// placeholder (ignored by the other backends): 0, the default, is cdcl's search
    /// without a seed; each other seed is another draw of it.
    pub seed: u64,
}

impl BackendSpec {
    /// A spec with no command and no time limit.
    pub fn new(kind: BackendKind) -> BackendSpec {
        BackendSpec {
            kind,
            command: None,
            timeout: None,
            lookahead: Lookahead::default(),
            load: LoadMode::default(),
            propagate: Propagate::default(),
            threads: 1,
            memory: None,
            seed: 0,
        }
    }

    /// An external solver command (`--backend external --solver "cadical -q"`).
    pub fn external(command: &str) -> BackendSpec {
        BackendSpec {
            command: Some(command.to_string()),
            ..BackendSpec::new(BackendKind::External)
        }
    }

    /// With a time limit.
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> BackendSpec {
        self.timeout = timeout;
        self
    }

    /// With a load mode for the SAT path.
    pub fn with_load(mut self, load: LoadMode) -> BackendSpec {
        self.load = load;
        self
    }

    /// With a native propagation setting (cdcl).
    pub fn with_propagate(mut self, propagate: Propagate) -> BackendSpec {
        self.propagate = propagate;
        self
    }

    /// With the threads of one cdcl solve.
    pub fn with_threads(mut self, threads: usize) -> BackendSpec {
        self.threads = threads;
        self
    }

    /// With a memory budget of one solve (cdcl's portfolio).
    pub fn with_memory(mut self, memory: Option<u64>) -> BackendSpec {
        self.memory = memory;
        self
    }

    /// With a DPLL lookahead.
    pub fn with_lookahead(mut self, lookahead: Lookahead) -> BackendSpec {
        self.lookahead = lookahead;
        self
    }

    /// A fresh backend.
    ///
    /// # Errors
    /// [`BackendError::Spawn`] when an external command is empty or missing for
    /// [`BackendKind::External`] (a missing binary is only found when solving).
    pub fn create(&self) -> Result<Box<dyn SatBackend>, BackendError> {
        let mut backend: Box<dyn SatBackend> = match self.kind {
            BackendKind::Cdcl => Box::new(
                Cdcl::with_options(self.lookahead, self.propagate)
                    .with_threads(self.threads)
                    .with_memory_budget(self.memory)
                    .with_seed(self.seed),
            ),
            BackendKind::Dpll => Box::new(Dpll::with_lookahead(self.lookahead)),
            BackendKind::Lookahead => Box::new(LookaheadBackend::new()),
            BackendKind::Varisat => Box::new(VarisatBackend::new()),
            BackendKind::Splr => Box::new(SplrBackend::new()),
            BackendKind::Minisat => {
                let command = self.command.as_deref().unwrap_or("minisat");
                Box::new(
                    ExternalSolver::new(command, OutputStyle::MinisatFile)?.with_seed(self.seed),
                )
            }
            BackendKind::External => {
                let command = self.command.as_deref().ok_or_else(|| BackendError::Spawn {
                    command: String::new(),
                    reason: "the external backend needs a solver command (e.g. \"cadical -q\")"
                        .to_string(),
                })?;
                Box::new(
                    ExternalSolver::new(command, OutputStyle::Competition)?.with_seed(self.seed),
                )
            }
        };
        backend.set_time_limit(self.timeout);
        Ok(backend)
    }

    /// A short label, e.g. `dpll`, `external:cadical -q`, or `minisat:/opt/minisat` for a
    /// MiniSat given its command (so that two MiniSats stay apart).
    pub fn label(&self) -> String {
        match (&self.kind, &self.command) {
            (BackendKind::External, Some(c)) => format!("external:{c}"),
            (BackendKind::Minisat, Some(c)) => format!("minisat:{c}"),
            (kind, _) => kind.name().to_string(),
        }
    }

    /// The backend a label names, as [`label`](Self::label) writes it (and the CLI's
    /// `--backend` and compare's `--solvers` read it): a backend's name, or
    /// `external:COMMAND` or `minisat:COMMAND` with the solver's command line. `external`
    /// alone parses, without a command: the caller asks for one.
    ///
    /// # Errors
    /// [`BackendLabelError`]: an unknown name, a command after a backend that runs none,
    /// or nothing after the colon.
    pub fn from_label(label: &str) -> Result<BackendSpec, BackendLabelError> {
        let (name, command) = match label.split_once(':') {
            Some((name, command)) => (name.trim(), Some(command.trim())),
            None => (label.trim(), None),
        };
        let kind = BackendKind::from_name(name).ok_or_else(|| {
            let mut names = BackendKind::NAMES.to_vec();
            names.extend(["external:COMMAND", "minisat:COMMAND"]);
            UnknownName::new("backend", label, &names)
        })?;
        let command = match command {
            None => None,
            Some(_) if !matches!(kind, BackendKind::External | BackendKind::Minisat) => {
                return Err(BackendLabelError::NoCommand(label.to_string()))
            }
            Some("") => return Err(BackendLabelError::MissingCommand(label.to_string())),
            Some(command) => Some(command.to_string()),
        };
        Ok(BackendSpec {
            command,
            ..BackendSpec::new(kind)
        })
    }
}

/// Why a backend label ([`BackendSpec::from_label`]) names no backend.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BackendLabelError {
    /// Not a backend's name.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// A command after a backend that runs no process, e.g. `cdcl:cadical`.
    #[error("`{0}` names a command, but only external:COMMAND and minisat:COMMAND run one")]
    NoCommand(String),
    /// A colon with no command after it, e.g. `external:`.
    #[error("`{0}` needs a solver command after the colon, e.g. `external:cadical -q`")]
    MissingCommand(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_back_as_the_backends_they_name() {
        let specs = [
            BackendSpec::new(BackendKind::Cdcl),
            BackendSpec::new(BackendKind::Minisat),
            BackendSpec {
                command: Some("minisat -verb=0".to_string()),
                ..BackendSpec::new(BackendKind::Minisat)
            },
            BackendSpec::external("cadical -q"),
        ];
        for spec in specs {
            assert_eq!(BackendSpec::from_label(&spec.label()), Ok(spec));
        }
        // Names are read as everywhere (ASCII case ignored); the command is trimmed.
        assert_eq!(
            BackendSpec::from_label("External: kissat -q "),
            Ok(BackendSpec::external("kissat -q"))
        );
        assert_eq!(
            BackendSpec::from_label("external"),
            Ok(BackendSpec::new(BackendKind::External))
        );
        let error = |label: &str| BackendSpec::from_label(label).unwrap_err().to_string();
        assert_eq!(
            error("cdcl:cadical"),
            "`cdcl:cadical` names a command, but only external:COMMAND and minisat:COMMAND run one"
        );
        assert_eq!(
            error("external: "),
            "`external: ` needs a solver command after the colon, e.g. `external:cadical -q`"
        );
        assert_eq!(
            error("kissat"),
            "unknown backend `kissat` (expected one of: cdcl, dpll, lookahead, varisat, splr, \
             minisat, external, external:COMMAND, minisat:COMMAND)"
        );
    }

    #[test]
    fn a_model_check_from_a_clause_on_still_names_later_falsified_clauses() {
        let mut cnf = Cnf::new();
        cnf.add_clause(&[Lit::from_dimacs(-1)]);
        cnf.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(2)]);
        cnf.add_clause(&[Lit::from_dimacs(-2)]);
        let model = || Model::from_values(vec![true, true]);
        // Clauses 0 and 2 are false; trusting clause 0 leaves clause 2 to report.
        for (first, falsified) in [(0, 0), (1, 2), (2, 2)] {
            match check_model_from("test", &cnf, first, model()) {
                Err(BackendError::WrongModel { clause, .. }) => assert_eq!(clause, falsified),
                other => panic!("from {first}: {other:?}"),
            }
        }
        assert!(matches!(
            check_model_from("test", &cnf, 3, model()),
            Ok(SatOutcome::Sat(_))
        ));
    }
}
