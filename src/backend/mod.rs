//! SAT backends behind one trait: the built-in CDCL, DPLL and lookahead search, embedded
//! varisat and splr, the embedded C and C++ solvers CaDiCaL and Kissat (each behind a cargo
//! feature), and external solver processes (MiniSat, and any solver printing
//! SAT-competition `s`/`v` lines).
//!
//! The trait, its capability traits and its errors live in the SAT crate
//! ([`sudosat_sat::solver`]) and are re-exported here. UNSAT is an answer
//! ([`SatOutcome::Unsat`]), never an error.

#[cfg(feature = "cadical")]
pub mod cadical;
#[cfg(feature = "process")]
pub mod external;
pub mod grid_theory;
#[cfg(feature = "kissat")]
pub mod kissat;
pub mod native;
mod output_style;
pub mod splr;
pub mod sudoku;
pub mod varisat;

pub use sudosat_sat::{cdcl, dpll, lookahead, proof};

use std::time::Duration;

use crate::names::UnknownName;
pub use crate::run::Counters;
pub use crate::solve::root::RootMode;
pub use sudosat_sat::propagator::{ConnectPropagator, Propagator, PropagatorFactory};
pub use sudosat_sat::solver::{
    check_model, check_model_from, BackendError, Capability, Interrupt, LimitTime, SatBackend,
    SatOutcome, SolveUnderAssumptions, SolveWithRootUnits, WriteProofs,
};

#[cfg(feature = "cadical")]
pub use self::cadical::CadicalBackend;
pub use self::cdcl::Cdcl;
pub use self::dpll::{Dpll, Lookahead};
#[cfg(feature = "process")]
pub use self::external::ExternalSolver;
pub use self::grid_theory::{GridReasoning, GridTheoryFactory};
#[cfg(feature = "kissat")]
pub use self::kissat::KissatBackend;
pub use self::lookahead::LookaheadBackend;
pub use self::output_style::OutputStyle;
pub use self::proof::{DratWriter, ProofFormat, ProofTarget};
pub use self::splr::SplrBackend;
pub use self::sudoku::{
    CellDigit, Propagate, SudokuPropagation, SudokuStructure, HALL_DEPTH, MAX_NATIVE_SIDE,
};
pub use self::varisat::VarisatBackend;

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
        /// The embedded CaDiCaL 3.0.1 (incremental, assumptions, DRAT proofs; feature
        /// `cadical`, on by default).
        Cadical = "cadical",
        /// The embedded Kissat 4.0.4 (a fresh solver for each solve; feature `kissat`).
        Kissat = "kissat",
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
    /// gecode 25×25 set, hardest 9×9) where the DPLL times out (docs/benchmarks/hard.md,
    /// "Hard 25×25").
    pub const DEFAULT: BackendKind = BackendKind::Cdcl;

    /// The backend's row of the registry ([`BACKENDS`]).
    pub fn entry(self) -> &'static BackendEntry {
        &BACKENDS[self as usize]
    }

    /// Whether the backend runs inside this process.
    pub fn is_embedded(self) -> bool {
        self.entry().process.is_none()
    }

    /// Whether this build has the backend: always, but for one behind a cargo feature
    /// that was left out.
    pub fn is_built(self) -> bool {
        !matches!(self.entry().feature, Some(feature) if !feature.built)
    }

    /// The error for a backend this build left out: which feature brings it.
    pub fn not_built(self) -> BackendError {
        BackendError::NotBuilt {
            solver: self.name().to_string(),
            feature: self.entry().feature.map_or("", |f| f.name).to_string(),
            needs: self.entry().feature.map_or("", |f| f.needs).to_string(),
        }
    }
}

/// A cargo feature that builds a backend in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// The feature's name (`cargo build --features NAME`).
    pub name: &'static str,
    /// Whether this build has it.
    pub built: bool,
    /// Whether `cargo build` turns it on without being asked.
    pub default: bool,
    /// What its build needs beside a Rust toolchain.
    pub needs: &'static str,
}

/// A backend that runs a solver process: how its command is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Process {
    /// The command when none is given (`None`: one must be given).
    pub default_command: Option<&'static str>,
    /// How the process answers.
    pub style: OutputStyle,
}

/// One row of the registry: everything the house needs to know of a backend. The CLI's
/// `--backend`, compare's `--solvers` and its groups, the conformance suite and the help
/// lists walk [`BACKENDS`]; adding a backend is its own file, a `mod` line, a variant of
/// [`BackendKind`] and a row here (and `Cargo.toml` when it wraps a crate).
pub struct BackendEntry {
    /// Which backend (the row of `BACKENDS` at the variant's index).
    pub kind: BackendKind,
    /// One line on what it is, for help and docs.
    pub summary: &'static str,
    /// `None` for a backend inside this process; else the solver process it runs.
    pub process: Option<Process>,
    /// The cargo feature that builds it in (`None`: every build has it).
    pub feature: Option<Feature>,
    /// The solver library it embeds and its version, as the library names itself
    /// (`cadical-3.0.1`); `None` for the built-in solvers and the processes.
    pub library: fn() -> Option<String>,
    /// Makes a fresh backend for a spec (the command, if any, already resolved).
    build: Build,
}

/// How a registry row makes its backend: from the spec and the command, if any.
type Build = fn(&BackendSpec, Option<&str>) -> Result<Box<dyn SatBackend>, BackendError>;

/// The registry: one row per [`BackendKind`], in the order of [`BackendKind::ALL`].
pub const BACKENDS: [BackendEntry; BackendKind::ALL.len()] = [
    BackendEntry {
        kind: BackendKind::Cdcl,
        summary: "the built-in CDCL solver (the default)",
        process: None,
        feature: None,
        library: no_library,
        build: |spec, _| {
            Ok(Box::new(
                Cdcl::with_lookahead(spec.lookahead)
                    .with_threads(spec.threads)
                    .with_memory_budget(spec.memory)
                    .with_seed(spec.seed),
            ))
        },
    },
    BackendEntry {
        kind: BackendKind::Dpll,
        summary: "the built-in DPLL of the literature",
        process: None,
        feature: None,
        library: no_library,
        build: |spec, _| Ok(Box::new(Dpll::with_lookahead(spec.lookahead))),
    },
    BackendEntry {
        kind: BackendKind::Lookahead,
        summary: "the built-in lookahead search (satz, kcnfs, march), for random k-SAT",
        process: None,
        feature: None,
        library: no_library,
        build: |_, _| Ok(Box::new(LookaheadBackend::new())),
    },
    BackendEntry {
        kind: BackendKind::Varisat,
        summary: "the embedded varisat 0.2 CDCL solver",
        process: None,
        feature: None,
        library: || Some("varisat-0.2".to_string()),
        build: |_, _| Ok(Box::new(VarisatBackend::new())),
    },
    BackendEntry {
        kind: BackendKind::Splr,
        summary: "the embedded splr 0.17 CDCL solver",
        process: None,
        feature: None,
        library: || Some("splr-0.17".to_string()),
        build: |_, _| Ok(Box::new(SplrBackend::new())),
    },
    BackendEntry {
        kind: BackendKind::Cadical,
        summary: "the embedded CaDiCaL 3.0.1 (C++)",
        process: None,
        feature: Some(Feature {
            name: "cadical",
            built: cfg!(feature = "cadical"),
            default: true,
            needs: "a C++ compiler",
        }),
        library: cadical_library,
        build: build_cadical,
    },
    BackendEntry {
        kind: BackendKind::Kissat,
        summary: "the embedded Kissat 4.0.4 (C), a fresh solver for each solve",
        process: None,
        feature: Some(Feature {
            name: "kissat",
            built: cfg!(feature = "kissat"),
            default: false,
            needs: "a C compiler and libclang for bindgen (Debian: libclang-dev)",
        }),
        library: kissat_library,
        build: build_kissat,
    },
    BackendEntry {
        kind: BackendKind::Minisat,
        summary: "a MiniSat 2.2 process (result file)",
        process: Some(Process {
            default_command: Some("minisat"),
            style: OutputStyle::MinisatFile,
        }),
        feature: Some(Feature {
            name: "process",
            built: cfg!(feature = "process"),
            default: true,
            needs: "an operating system that runs processes (not the browser build)",
        }),
        library: no_library,
        build: external_process,
    },
    BackendEntry {
        kind: BackendKind::External,
        summary: "any solver process printing SAT-competition s/v lines",
        process: Some(Process {
            default_command: None,
            style: OutputStyle::Competition,
        }),
        feature: Some(Feature {
            name: "process",
            built: cfg!(feature = "process"),
            default: true,
            needs: "an operating system that runs processes (not the browser build)",
        }),
        library: no_library,
        build: external_process,
    },
];

/// The solver libraries this build embeds, as each names itself (`cadical-3.0.1`), in
/// registry order: what `sudosat --version` lists and compare's sidecar records.
pub fn embedded_libraries() -> Vec<String> {
    BACKENDS
        .iter()
        .filter_map(|entry| (entry.library)())
        .collect()
}

/// The `library` of a backend that embeds none.
fn no_library() -> Option<String> {
    None
}

#[cfg(feature = "cadical")]
fn cadical_library() -> Option<String> {
    Some(cadical::version())
}

#[cfg(not(feature = "cadical"))]
fn cadical_library() -> Option<String> {
    None
}

#[cfg(feature = "cadical")]
fn build_cadical(spec: &BackendSpec, _: Option<&str>) -> Result<Box<dyn SatBackend>, BackendError> {
    Ok(Box::new(CadicalBackend::with_seed(spec.seed)))
}

#[cfg(not(feature = "cadical"))]
fn build_cadical(spec: &BackendSpec, _: Option<&str>) -> Result<Box<dyn SatBackend>, BackendError> {
    Err(spec.kind.not_built())
}

#[cfg(feature = "kissat")]
fn kissat_library() -> Option<String> {
    Some(kissat::version())
}

#[cfg(not(feature = "kissat"))]
fn kissat_library() -> Option<String> {
    None
}

#[cfg(feature = "kissat")]
fn build_kissat(spec: &BackendSpec, _: Option<&str>) -> Result<Box<dyn SatBackend>, BackendError> {
    Ok(Box::new(KissatBackend::with_seed(spec.seed)))
}

#[cfg(not(feature = "kissat"))]
fn build_kissat(spec: &BackendSpec, _: Option<&str>) -> Result<Box<dyn SatBackend>, BackendError> {
    Err(spec.kind.not_built())
}

impl BackendEntry {
    /// What a fresh backend of this row can do beyond solving (the capability traits it
    /// hands out), for help and docs; empty for a row this build left out or that runs a
    /// process (what a process can do depends on its command).
    pub fn capabilities(&self) -> Vec<Capability> {
        if self.process.is_some() {
            return Vec::new();
        }
        let Ok(mut backend) = BackendSpec::new(self.kind).create() else {
            return Vec::new();
        };
        Capability::ALL
            .into_iter()
            .filter(|&capability| backend.as_mut().can(capability))
            .collect()
    }

    /// One line for help: the summary, what it can do, and the feature that brings it.
    pub fn help_line(&self) -> String {
        let mut line = self.summary.to_string();
        let capabilities = self.capabilities();
        if !capabilities.is_empty() {
            let names: Vec<&str> = capabilities.iter().map(|c| c.name()).collect();
            line.push_str(&format!("; {}", names.join(", ")));
        }
        if let Some(feature) = self.feature {
            let state = match (feature.built, feature.default) {
                (true, true) => "built in by default",
                (true, false) => "built in",
                (false, _) => "not built in",
            };
            line.push_str(&format!(" (feature `{}`, {state})", feature.name));
        }
        line
    }
}

/// The `build` of the process backends.
#[cfg(feature = "process")]
fn external_process(
    spec: &BackendSpec,
    command: Option<&str>,
) -> Result<Box<dyn SatBackend>, BackendError> {
    let process = spec.kind.entry().process.expect("a process backend");
    let command = command.ok_or_else(|| BackendError::Spawn {
        command: String::new(),
        reason: format!(
            "the {} backend needs a solver command (e.g. \"cadical -q\")",
            spec.kind
        ),
    })?;
    Ok(Box::new(
        ExternalSolver::new(command, process.style)?.with_seed(spec.seed),
    ))
}

#[cfg(not(feature = "process"))]
fn external_process(
    spec: &BackendSpec,
    _: Option<&str>,
) -> Result<Box<dyn SatBackend>, BackendError> {
    Err(spec.kind.not_built())
}

crate::names::named_enum! {
    /// How the SAT path loads each puzzle into its backend.
    #[derive(Default)]
    pub enum LoadMode ("load mode") {
        /// The measured best: [`LoadMode::RootUnits`] for puzzles up to 9×9 in a classic
        /// reduced encoding (the default) on a backend that can, without a proof, native
        /// propagation or root reasoning; [`LoadMode::Reencode`] otherwise
        /// ([`crate::solve::sat::loads_root_units`]; docs/benchmarks/nine.md, "9×9 sets").
        #[default]
        Auto = "auto",
        /// Encode each puzzle anew into a reset backend, with the encoding's reduction.
        Reencode = "reencode",
        /// Keep the empty grid's encoding (the same base encoding, unreduced) loaded and
        /// solve each puzzle under its givens as assumptions; between puzzles the backend
        /// may forget what it learnt ([`SatBackend::forget_learnt`]). Only for backends
        /// that take assumptions
        /// ([`crate::backend::SolveUnderAssumptions`]); the others re-encode.
        Assumptions = "assumptions",
        /// Keep the empty grid's encoding (the same base encoding, unreduced) loaded once
        /// and fix each puzzle's givens at the root, undone before the next puzzle
        /// ([`crate::backend::SolveWithRootUnits`]): what is learnt from them goes with
        /// them, and a puzzle's answer is the one it gets alone. The reduction's variables
        /// are those the givens fix at the root. Only for backends that can (cdcl) and
        /// without native propagation; the others re-encode.
        RootUnits = "root-units",
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
    /// DPLL and splr stop (see [`crate::backend::LimitTime`]).
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
    /// Whether the SAT path reasons on the grid before it encodes a puzzle (every
    /// backend): [`crate::solve::root`].
    pub root: RootMode,
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
            root: RootMode::default(),
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

    /// With root reasoning before the encoding (every backend).
    pub fn with_root(mut self, root: RootMode) -> BackendSpec {
        self.root = root;
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
        let entry = self.kind.entry();
        let command = self
            .command
            .as_deref()
            .or_else(|| entry.process.and_then(|p| p.default_command));
        let mut backend = (entry.build)(self, command)?;
        backend.set_time_limit(self.timeout);
        Ok(backend)
    }

    /// A short label, e.g. `dpll`, `external:cadical -q`, or `minisat:/opt/minisat` for a
    /// MiniSat given its command (so that two MiniSats stay apart).
    pub fn label(&self) -> String {
        match (&self.kind, &self.command) {
            (kind, Some(c)) if !kind.is_embedded() => format!("{kind}:{c}"),
            (kind, _) => kind.name().to_string(),
        }
    }

    /// The backend a label names, as [`label`](Self::label) writes it (and the CLI's
    /// `--backend` and compare's `--solvers` read it): a backend's name, or
    /// `external:COMMAND` or `minisat:COMMAND` with the solver's command line. `external`
    /// alone parses, without a command: the caller asks for one.
    ///
    /// # Errors
    /// [`BackendLabelError`]: an unknown name, a backend this build left out (naming the
    /// feature that brings it), a command after a backend that runs none, or nothing after
    /// the colon.
    pub fn from_label(label: &str) -> Result<BackendSpec, BackendLabelError> {
        let (name, command) = match label.split_once(':') {
            Some((name, command)) => (name.trim(), Some(command.trim())),
            None => (label.trim(), None),
        };
        let kind = BackendKind::from_name(name).ok_or_else(|| {
            let mut names = BackendKind::NAMES.to_vec();
            let commands: Vec<String> = BackendKind::ALL
                .into_iter()
                .filter(|kind| !kind.is_embedded())
                .map(|kind| format!("{kind}:COMMAND"))
                .collect();
            names.extend(commands.iter().map(String::as_str));
            UnknownName::new("backend", label, &names)
        })?;
        if !kind.is_built() {
            return Err(BackendLabelError::NotBuilt(kind));
        }
        let command = match command {
            None => None,
            Some(_) if kind.is_embedded() => {
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
    /// A backend behind a cargo feature that this build left out, e.g. `kissat`.
    #[error("{}", .0.not_built())]
    NotBuilt(BackendKind),
    /// A colon with no command after it, e.g. `external:`.
    #[error("`{0}` needs a solver command after the colon, e.g. `external:cadical -q`")]
    MissingCommand(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{ClauseSink, Cnf, Lit, Model};

    #[test]
    fn the_registry_has_one_row_per_backend_in_order() {
        for (kind, entry) in BackendKind::ALL.into_iter().zip(&BACKENDS) {
            assert_eq!(entry.kind, kind);
            assert!(!entry.summary.is_empty(), "{kind}");
        }
        let embedded: Vec<_> = BackendKind::ALL
            .into_iter()
            .filter(|kind| kind.is_embedded())
            .collect();
        // Embedded ones first, as the CLI lists them.
        assert_eq!(&BackendKind::ALL[..embedded.len()], &embedded[..]);
        // A process backend without a default command needs one.
        let spec = BackendSpec::new(BackendKind::External);
        assert!(matches!(spec.create(), Err(BackendError::Spawn { .. })));
    }

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
            error("glucose"),
            "unknown backend `glucose` (expected one of: cdcl, dpll, lookahead, varisat, splr, \
             cadical, kissat, minisat, external, minisat:COMMAND, external:COMMAND)"
        );
        // A backend this build left out names the feature that brings it.
        for kind in BackendKind::ALL.into_iter().filter(|k| !k.is_built()) {
            let feature = kind
                .entry()
                .feature
                .expect("only features leave backends out");
            let message = error(kind.name());
            assert!(
                message.contains(&format!("needs the cargo feature `{}`", feature.name)),
                "{message}"
            );
            assert!(matches!(
                BackendSpec::new(kind).create(),
                Err(BackendError::NotBuilt { .. })
            ));
        }
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
