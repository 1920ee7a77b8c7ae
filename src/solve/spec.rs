//! One typed description of what to run: [`SolverSpec`], parsed once from its text form,
//! printed back the same way, and built into a [`Solver`]. The CLI, the generator, compare
//! and the benches describe solvers with it instead of each building its own.
//!
//! Text forms: `sat` (the default encoding and backend), `sat:ENCODING`,
//! `sat:ENCODING:BACKEND` (e.g. `sat:minimal+reduced:varisat`), or a classic solver's name
//! ([`ClassicKind`]). External backends need a command, which is not text of the spec: give
//! it in [`BackendSpec::command`].
//!
//! A backend or classic solver may carry [`EntryOptions`] in brackets after its name
//! (`sat:extended+reduced:cdcl[propagate=grid,root=none]`, `hill[seed=3]`): the solve
//! options that change what it does, as compare's per-entry options write them. They are
//! read here, by [`EntryOptions::split`] and [`SolverSpec::with_options`], and nowhere else.
//!
//! Adding a classic solver: one [`ClassicKind`] variant with its name and one arm of
//! [`ClassicKind::build`] in `solve/mod.rs`, beside the solver's own file.

use std::fmt;
use std::str::FromStr;

use super::sat::{SatSolver, DEFAULT_ENCODING};
use super::{ClassicKind, Solver, SolverOptions};
use crate::backend::{BackendKind, BackendSpec, Lookahead, Propagate, RootMode};
use crate::encode::{AmoFamily, Encoding, SudokuEncoding};
use crate::names::UnknownName;

/// The most threads one cdcl solve may take (`--threads`, an entry's `threads=`): each is a
/// full copy of the solver.
pub const MAX_THREADS: usize = 256;

crate::names::named_enum! {
    /// An option an entry may carry in brackets after its name ([`EntryOptions`]): the
    /// solve options that change what a backend or solver does, named as the flags of
    /// `sudosat solve` are.
    pub enum EntryOption ("entry option") {
        /// Native propagation (`--propagate`): [`BackendSpec::propagate`].
        Propagate = "propagate",
        /// Reasoning before the encoding (`--root`): [`BackendSpec::root`].
        Root = "root",
        /// Lookahead of dpll, root probing of cdcl (`--lookahead`): [`BackendSpec::lookahead`].
        Lookahead = "lookahead",
        /// Seed of the search (`--seed`): [`BackendSpec::seed`], [`SolverOptions::seed`].
        Seed = "seed",
        /// Threads of one solve (`--threads`): [`BackendSpec::threads`].
        Threads = "threads",
        /// The encoding, instead of each of compare's `--encodings`.
        Encoding = "encoding",
        /// The at-most-one family of every encoding the entry is crossed with (`--amo`).
        Amo = "amo",
    }
}

impl EntryOption {
    /// Whether the option is about the formula of a puzzle (its encoding, the reasoning
    /// on its grid, the propagation of its units), so that a DIMACS formula, solved as it
    /// stands, has no use for it.
    pub fn is_about_puzzles(self) -> bool {
        matches!(
            self,
            EntryOption::Propagate | EntryOption::Root | EntryOption::Encoding | EntryOption::Amo
        )
    }

    /// Whether the option shows in the bracket of a label: the encoding and its family
    /// are shown after the `/` of a SAT entry's label instead.
    fn in_label(self) -> bool {
        !matches!(self, EntryOption::Encoding | EntryOption::Amo)
    }
}

/// The options an entry was given, each `None` when not given (the study's or the
/// default's value then holds). Text form: `name=value` pairs joined by commas, in the
/// order of [`EntryOption::ALL`], e.g. `propagate=grid,root=none,threads=2`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryOptions {
    /// `propagate=MODE`.
    pub propagate: Option<Propagate>,
    /// `root=MODE`.
    pub root: Option<RootMode>,
    /// `lookahead=MODE`.
    pub lookahead: Option<Lookahead>,
    /// `seed=S`.
    pub seed: Option<u64>,
    /// `threads=N`, 1 to [`MAX_THREADS`].
    pub threads: Option<usize>,
    /// `encoding=ENCODING` (any of `--encodings`' names, `/FAMILY` included).
    pub encoding: Option<SudokuEncoding>,
    /// `amo=FAMILY`.
    pub amo: Option<AmoFamily>,
}

/// Why an entry's options cannot be read or do not fit its solver.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryOptionError {
    /// Not an option's name, or not one of its values.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// `name` without `=value`.
    #[error("entry option `{0}` needs a value: `{0}=VALUE`")]
    MissingValue(String),
    /// A value the option does not take.
    #[error("entry option `{option}={value}`: {reason}")]
    BadValue {
        /// The option.
        option: EntryOption,
        /// The value given.
        value: String,
        /// What it should be.
        reason: String,
    },
    /// The same option twice in one bracket.
    #[error("entry option `{0}` is given twice")]
    Repeated(EntryOption),
    /// An option the entry's solver has no use for.
    #[error("`{option}` is not an option of `{solver}`: {why}")]
    NotFor {
        /// The option.
        option: EntryOption,
        /// The solver or backend, as named.
        solver: String,
        /// Why not.
        why: String,
    },
    /// A bracket that is not closed, or text after it other than `:COMMAND`.
    #[error(
        "`{0}`: an entry's options go in one bracket right after its name, e.g. \
         `cdcl[propagate=grid,root=none]` or `external[seed=3]:cadical -q`"
    )]
    Syntax(String),
}

impl EntryOptions {
    /// Whether no option was given.
    pub fn is_empty(&self) -> bool {
        EntryOption::ALL
            .into_iter()
            .all(|o| self.value(o).is_none())
    }

    /// The options given, in the order of [`EntryOption::ALL`].
    pub fn given(&self) -> Vec<EntryOption> {
        EntryOption::ALL
            .into_iter()
            .filter(|&o| self.value(o).is_some())
            .collect()
    }

    /// The value of `option` as text, `None` when not given.
    pub fn value(&self, option: EntryOption) -> Option<String> {
        match option {
            EntryOption::Propagate => self.propagate.map(|v| v.to_string()),
            EntryOption::Root => self.root.map(|v| v.to_string()),
            EntryOption::Lookahead => self.lookahead.map(|v| v.to_string()),
            EntryOption::Seed => self.seed.map(|v| v.to_string()),
            EntryOption::Threads => self.threads.map(|v| v.to_string()),
            EntryOption::Encoding => self.encoding.map(|v| v.name()),
            EntryOption::Amo => self.amo.map(|v| v.to_string()),
        }
    }

    /// Sets `option` from its text.
    fn set(&mut self, option: EntryOption, value: &str) -> Result<(), EntryOptionError> {
        if self.value(option).is_some() {
            return Err(EntryOptionError::Repeated(option));
        }
        let bad = |reason: String| EntryOptionError::BadValue {
            option,
            value: value.to_string(),
            reason,
        };
        match option {
            EntryOption::Propagate => self.propagate = Some(value.parse()?),
            EntryOption::Root => self.root = Some(value.parse()?),
            EntryOption::Lookahead => self.lookahead = Some(value.parse()?),
            EntryOption::Amo => self.amo = Some(value.parse()?),
            EntryOption::Seed => {
                let seed = value
                    .parse()
                    .map_err(|_| bad("expected a whole number from 0".to_string()))?;
                self.seed = Some(seed);
            }
            EntryOption::Threads => {
                let threads = value
                    .parse()
                    .ok()
                    .filter(|t| (1..=MAX_THREADS).contains(t))
                    .ok_or_else(|| {
                        bad(format!("expected a whole number from 1 to {MAX_THREADS}"))
                    })?;
                self.threads = Some(threads);
            }
            EntryOption::Encoding => {
                let encoding = SudokuEncoding::from_name(value).ok_or_else(|| {
                    let names: Vec<String> = SudokuEncoding::ALL.iter().map(|e| e.name()).collect();
                    bad(format!(
                        "expected one of: {}, each optionally /FAMILY",
                        names.join(", ")
                    ))
                })?;
                self.encoding = Some(encoding);
            }
        }
        Ok(())
    }

    /// Splits a solver item into its name (with `:COMMAND`, if any) and the options in the
    /// bracket after its name: `cdcl[propagate=grid]` is `cdcl` with `propagate=grid`,
    /// `external[seed=3]:cadical -q` is `external:cadical -q` with `seed=3`. An item with
    /// no bracket before its colon has no options (a command may hold brackets of its own).
    ///
    /// # Errors
    /// [`EntryOptionError`]: an unclosed bracket, text after it other than `:COMMAND`, an
    /// unknown option or value, an option given twice.
    pub fn split(item: &str) -> Result<(String, EntryOptions), EntryOptionError> {
        let item = item.trim();
        let Some(open) = item.find('[') else {
            return Ok((item.to_string(), EntryOptions::default()));
        };
        if item[..open].contains(':') {
            return Ok((item.to_string(), EntryOptions::default()));
        }
        let syntax = || EntryOptionError::Syntax(item.to_string());
        let close = item[open..]
            .find(']')
            .map(|c| open + c)
            .ok_or_else(syntax)?;
        let rest = &item[close + 1..];
        if !(rest.is_empty() || rest.starts_with(':')) {
            return Err(syntax());
        }
        let options: EntryOptions = item[open + 1..close].parse()?;
        Ok((format!("{}{rest}", item[..open].trim()), options))
    }

    /// The bracket a label shows after the backend's or solver's name, e.g.
    /// `[propagate=grid,threads=2]`; empty when none of the options shows there.
    pub fn label_bracket(&self) -> String {
        let shown: Vec<String> = self
            .given()
            .into_iter()
            .filter(|o| o.in_label())
            .map(|o| format!("{o}={}", self.value(o).unwrap_or_default()))
            .collect();
        if shown.is_empty() {
            String::new()
        } else {
            format!("[{}]", shown.join(","))
        }
    }
}

impl fmt::Display for EntryOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> = self
            .given()
            .into_iter()
            .map(|o| format!("{o}={}", self.value(o).unwrap_or_default()))
            .collect();
        f.write_str(&pairs.join(","))
    }
}

impl FromStr for EntryOptions {
    type Err = EntryOptionError;

    /// Parses `name=value` pairs joined by commas (spaces around them ignored); an empty
    /// text is no option.
    fn from_str(s: &str) -> Result<Self, EntryOptionError> {
        let mut options = EntryOptions::default();
        for pair in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| EntryOptionError::MissingValue(pair.to_string()))?;
            let option: EntryOption = name.trim().parse()?;
            options.set(option, value.trim())?;
        }
        Ok(options)
    }
}

/// What to run on a puzzle: the SAT path (an encoding solved by a backend) or a classic
/// solver, each with its options.
#[derive(Clone, Debug, PartialEq)]
pub enum SolverSpec {
    /// Encode, solve with a SAT backend, decode and check.
    Sat {
        /// The encoding (base clauses, reduction, and any later dimension of it).
        encoding: SudokuEncoding,
        /// The backend, with its command, time limit and options.
        backend: BackendSpec,
        /// The options given in the entry's bracket ([`SolverSpec::with_options`]),
        /// already applied to `encoding` and `backend`: kept for the label.
        given: EntryOptions,
    },
    /// A classic grid-level solver.
    Classic {
        /// Which one.
        kind: ClassicKind,
        /// Its options (seed, work cap, …).
        options: SolverOptions,
        /// The options given in the entry's bracket, already applied to `options`.
        given: EntryOptions,
    },
}

impl Default for SolverSpec {
    /// `sat`: the default encoding on the default backend.
    fn default() -> Self {
        SolverSpec::sat(DEFAULT_ENCODING, BackendSpec::new(BackendKind::DEFAULT))
    }
}

impl SolverSpec {
    /// The same solver with its seed moved on by `offset` (cdcl's [`BackendSpec::seed`],
    /// or the classic solvers' [`SolverOptions::seed`]): `compare --vary-seed` runs repeat
    /// r with offset r − 1. Solvers without randomness ignore it.
    pub fn with_seed_offset(&self, offset: u64) -> SolverSpec {
        let mut spec = self.clone();
        match &mut spec {
            SolverSpec::Sat { backend, .. } => backend.seed = backend.seed.wrapping_add(offset),
            SolverSpec::Classic { options, .. } => options.seed = options.seed.wrapping_add(offset),
        }
        spec
    }

    /// A classic solver with default options.
    pub fn classic(kind: ClassicKind) -> SolverSpec {
        SolverSpec::classic_with(kind, SolverOptions::default())
    }

    /// A classic solver with `options`, no entry option given.
    pub fn classic_with(kind: ClassicKind, options: SolverOptions) -> SolverSpec {
        SolverSpec::Classic {
            kind,
            options,
            given: EntryOptions::default(),
        }
    }

    /// The SAT path: `encoding` solved by `backend`, no entry option given.
    pub fn sat(encoding: SudokuEncoding, backend: BackendSpec) -> SolverSpec {
        SolverSpec::Sat {
            encoding,
            backend,
            given: EntryOptions::default(),
        }
    }

    /// The options given in the entry's bracket (none for a spec built otherwise).
    pub fn given_options(&self) -> &EntryOptions {
        match self {
            SolverSpec::Sat { given, .. } | SolverSpec::Classic { given, .. } => given,
        }
    }

    /// The same solver with `options` applied over what it has: each option given replaces
    /// the value it names (an entry's option overrides compare's study-wide flag), and is
    /// shown in the label. `encoding` replaces the encoding, `amo` its family.
    ///
    /// # Errors
    /// [`EntryOptionError::NotFor`]: an option the solver has no use for (a classic solver
    /// takes only `seed`; `propagate` needs a backend that connects a propagator, which it
    /// is asked, not named), or an option given again.
    pub fn with_options(&self, options: &EntryOptions) -> Result<SolverSpec, EntryOptionError> {
        let mut spec = self.clone();
        let mut merged = self.given_options().clone();
        for option in options.given() {
            merged.set(option, &options.value(option).unwrap_or_default())?;
        }
        match &mut spec {
            SolverSpec::Sat {
                encoding,
                backend,
                given,
            } => {
                let solver = backend.kind.name();
                if let Some(propagate) = options.propagate {
                    backend.propagate = propagate;
                    if propagate.on_side(9).is_some() && !connects_propagator(backend) {
                        return Err(EntryOptionError::NotFor {
                            option: EntryOption::Propagate,
                            solver: solver.to_string(),
                            why: "it takes no propagator; propagation needs a backend that \
                                  connects one, such as cdcl"
                                .to_string(),
                        });
                    }
                }
                if let Some(root) = options.root {
                    backend.root = root;
                }
                if let Some(lookahead) = options.lookahead {
                    backend.lookahead = lookahead;
                }
                if let Some(seed) = options.seed {
                    backend.seed = seed;
                }
                if let Some(threads) = options.threads {
                    backend.threads = threads;
                }
                if let Some(chosen) = options.encoding {
                    *encoding = chosen;
                }
                if let Some(amo) = options.amo {
                    *encoding = encoding.with_amo(amo);
                }
                *given = merged;
            }
            SolverSpec::Classic {
                kind,
                options: solver_options,
                given,
            } => {
                if let Some(option) = options
                    .given()
                    .into_iter()
                    .find(|&o| o != EntryOption::Seed)
                {
                    return Err(EntryOptionError::NotFor {
                        option,
                        solver: kind.name().to_string(),
                        why: "a classic solver works on the grid itself and takes only seed"
                            .to_string(),
                    });
                }
                if let Some(seed) = options.seed {
                    solver_options.seed = seed;
                }
                *given = merged;
            }
        }
        Ok(spec)
    }

    /// Threads of one solve: the backend's (cdcl's portfolio), 1 for a classic solver.
    pub fn threads(&self) -> usize {
        match self {
            SolverSpec::Sat { backend, .. } => backend.threads.max(1),
            SolverSpec::Classic { .. } => 1,
        }
    }

    /// A fresh solver with a time limit on each solve (`None`: none): the one place where
    /// a solver's limit is set, whatever its kind (the SAT path passes it to its backend).
    pub fn build(&self, time_limit: Option<std::time::Duration>) -> Box<dyn Solver> {
        let mut solver: Box<dyn Solver> = match self {
            SolverSpec::Sat {
                encoding, backend, ..
            } => Box::new(SatSolver::new(*encoding, backend.clone())),
            SolverSpec::Classic { kind, options, .. } => kind.build(options),
        };
        solver.set_time_limit(time_limit);
        solver
    }

    /// The grid-level solver's name: `sat` or the classic solver's.
    pub fn solver_name(&self) -> &'static str {
        match self {
            SolverSpec::Sat { .. } => "sat",
            SolverSpec::Classic { kind, .. } => kind.name(),
        }
    }

    /// The label of a row or a plot legend: `BACKEND/ENCODING` for the SAT path
    /// (`dpll/extended+reduced`, `external:cadical -q/minimal`), the classic solver's name;
    /// the entry's options in a bracket after the backend's or solver's name
    /// (`cdcl[propagate=grid]/extended+reduced`, `hill[seed=3]`).
    pub fn label(&self) -> String {
        match self {
            SolverSpec::Sat { encoding, .. } => {
                format!(
                    "{}/{}",
                    self.backend_label().unwrap_or_default(),
                    encoding.name()
                )
            }
            SolverSpec::Classic { kind, given, .. } => {
                format!("{kind}{}", given.label_bracket())
            }
        }
    }

    /// The backend's label on the SAT path ([`BackendSpec::label`]), with the entry's
    /// options in a bracket after its name: `cdcl[threads=2]`,
    /// `external[seed=3]:cadical -q`, as [`EntryOptions::split`] reads it back.
    pub fn backend_label(&self) -> Option<String> {
        match self {
            SolverSpec::Sat { backend, given, .. } => {
                let label = backend.label();
                let name = backend.kind.name();
                Some(match label.strip_prefix(name) {
                    Some(rest) => format!("{name}{}{rest}", given.label_bracket()),
                    None => label,
                })
            }
            SolverSpec::Classic { .. } => None,
        }
    }

    /// The encoding on the SAT path.
    pub fn encoding(&self) -> Option<SudokuEncoding> {
        match self {
            SolverSpec::Sat { encoding, .. } => Some(*encoding),
            SolverSpec::Classic { .. } => None,
        }
    }
}

impl fmt::Display for SolverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverSpec::Sat { encoding, .. } => write!(
                f,
                "sat:{}:{}",
                encoding.name(),
                self.backend_label().unwrap_or_default()
            ),
            SolverSpec::Classic { .. } => f.write_str(&self.label()),
        }
    }
}

impl FromStr for SolverSpec {
    type Err = EntryOptionError;

    /// Parses `sat`, `sat:ENCODING`, `sat:ENCODING:BACKEND` or a classic solver's name
    /// (classic options take their defaults), the backend or classic solver optionally
    /// with its [`EntryOptions`] in a bracket: `sat:minimal:cdcl[propagate=grid]`.
    fn from_str(s: &str) -> Result<Self, EntryOptionError> {
        let mut parts = s.splitn(3, ':');
        if parts.next() != Some("sat") {
            let (name, options) = EntryOptions::split(s)?;
            let kind: ClassicKind = name.parse().map_err(|e: UnknownName| UnknownName {
                expected: format!("sat, sat:ENCODING[:BACKEND], {}", e.expected),
                ..e
            })?;
            return SolverSpec::classic(kind).with_options(&options);
        }
        let encoding = match parts.next() {
            None => DEFAULT_ENCODING,
            Some(name) => name.parse()?,
        };
        let (backend, options) = match parts.next() {
            None => (
                BackendSpec::new(BackendKind::DEFAULT),
                EntryOptions::default(),
            ),
            Some(text) => {
                let (name, options) = EntryOptions::split(text)?;
                (BackendSpec::new(name.parse()?), options)
            }
        };
        SolverSpec::sat(encoding, backend).with_options(&options)
    }
}

/// Whether `backend` connects a propagator ([`crate::backend::ConnectPropagator`]),
/// asked of a fresh backend of its kind: the capability, not the name.
fn connects_propagator(backend: &BackendSpec) -> bool {
    backend
        .create()
        .is_ok_and(|mut made| made.as_propagating().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{check_solution, Grid};
    use crate::solve::SolveOutcome;

    #[test]
    fn names_round_trip() {
        for kind in ClassicKind::ALL {
            assert_eq!(kind.name().parse::<ClassicKind>(), Ok(kind));
            let spec: SolverSpec = kind.name().parse().unwrap();
            assert_eq!(spec.to_string(), kind.name());
        }
        let spec: SolverSpec = "sat:minimal+reduced:varisat".parse().unwrap();
        assert_eq!(spec.to_string(), "sat:minimal+reduced:varisat");
        assert_eq!(
            "sat".parse::<SolverSpec>().unwrap().to_string(),
            SolverSpec::default().to_string()
        );
        let EntryOptionError::Unknown(e) = "dancing".parse::<SolverSpec>().unwrap_err() else {
            panic!("an unknown name");
        };
        assert_eq!(e.name, "dancing");
        assert!(
            e.expected.contains("dlx") && e.expected.contains("sat"),
            "{e}"
        );
        assert!("sat:tiny".parse::<SolverSpec>().is_err());
        assert!("sat:minimal:glucose".parse::<SolverSpec>().is_err());
    }

    #[test]
    fn every_spec_builds_a_solver_that_solves() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let specs = ClassicKind::NAMES
            .iter()
            .map(|n| n.to_string())
            .chain(["sat".to_string(), "sat:minimal:dpll".to_string()]);
        for text in specs {
            let spec: SolverSpec = text.parse().unwrap();
            let mut solver = spec.build(None);
            match solver.solve(&puzzle).unwrap().outcome {
                SolveOutcome::Solved(g) => {
                    assert!(check_solution(&puzzle, &g).is_valid(), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn entry_options_read_back_as_they_print() {
        let options: EntryOptions = " threads=2, propagate=grid ,root=none,seed=7,lookahead=none,\
             encoding=minimal+reduced/sequential,amo=commander"
            .parse()
            .unwrap();
        assert_eq!(options.propagate, Some(Propagate::Grid));
        assert_eq!(options.root, Some(RootMode::None));
        assert_eq!(options.lookahead, Some(Lookahead::None));
        assert_eq!((options.seed, options.threads), (Some(7), Some(2)));
        assert_eq!(
            options.encoding.map(|e| e.name()).as_deref(),
            Some("minimal+reduced/sequential")
        );
        assert_eq!(options.amo, Some(AmoFamily::Commander));
        let text = options.to_string();
        assert_eq!(
            text,
            "propagate=grid,root=none,lookahead=none,seed=7,threads=2,\
             encoding=minimal+reduced/sequential,amo=commander"
        );
        assert_eq!(text.parse::<EntryOptions>(), Ok(options.clone()));
        // The label shows what the encoding's name does not.
        assert_eq!(
            options.label_bracket(),
            "[propagate=grid,root=none,lookahead=none,seed=7,threads=2]"
        );
        assert_eq!("".parse::<EntryOptions>(), Ok(EntryOptions::default()));
        assert_eq!(EntryOptions::default().label_bracket(), "");
    }

    #[test]
    fn bad_entry_options_say_what_is_wrong() {
        let error = |text: &str| text.parse::<EntryOptions>().unwrap_err().to_string();
        assert_eq!(
            error("speed=3"),
            format!(
                "unknown entry option `speed` (expected one of: {})",
                EntryOption::NAMES.join(", ")
            )
        );
        assert!(error("propagate=fast").starts_with("unknown propagation `fast`"));
        assert_eq!(
            error("threads=0"),
            format!("entry option `threads=0`: expected a whole number from 1 to {MAX_THREADS}")
        );
        assert_eq!(
            error("seed=-1"),
            "entry option `seed=-1`: expected a whole number from 0"
        );
        assert_eq!(
            error("seed"),
            "entry option `seed` needs a value: `seed=VALUE`"
        );
        assert_eq!(error("seed=1,seed=2"), "entry option `seed` is given twice");
        assert!(error("encoding=tiny").contains("expected one of: minimal"));
    }

    #[test]
    fn items_split_into_name_and_options() {
        let split = |item: &str| EntryOptions::split(item).unwrap();
        assert_eq!(split("cdcl"), ("cdcl".to_string(), EntryOptions::default()));
        let (name, options) = split("cdcl[propagate=grid,threads=2]");
        assert_eq!(name, "cdcl");
        assert_eq!(options.to_string(), "propagate=grid,threads=2");
        let (name, options) = split("external[seed=3]:cadical -q --seed={seed}");
        assert_eq!(name, "external:cadical -q --seed={seed}");
        assert_eq!(options.seed, Some(3));
        // A bracket in the command belongs to the command.
        assert_eq!(
            split("external:solver [x]"),
            ("external:solver [x]".to_string(), EntryOptions::default())
        );
        for bad in ["cdcl[seed=1", "cdcl[seed=1]x", "cdcl[seed=1] [root=none]"] {
            assert!(
                matches!(EntryOptions::split(bad), Err(EntryOptionError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn options_apply_over_the_spec_and_show_in_its_label() {
        let plain = SolverSpec::sat(DEFAULT_ENCODING, BackendSpec::new(BackendKind::Cdcl));
        let options: EntryOptions = "propagate=grid,root=hall,seed=5,threads=2,lookahead=full"
            .parse()
            .unwrap();
        let spec = plain.with_options(&options).unwrap();
        let SolverSpec::Sat { backend, given, .. } = &spec else {
            panic!("the SAT path");
        };
        assert_eq!(backend.propagate, Propagate::Grid);
        assert_eq!(backend.root, RootMode::Hall);
        assert_eq!((backend.seed, backend.threads), (5, 2));
        assert_eq!(backend.lookahead, Lookahead::Full);
        assert_eq!(given, &options);
        assert_eq!(spec.threads(), 2);
        assert_eq!(
            spec.label(),
            "cdcl[propagate=grid,root=hall,lookahead=full,seed=5,threads=2]/extended+reduced"
        );
        // The text form reads back as the same spec.
        assert_eq!(spec.to_string().parse::<SolverSpec>(), Ok(spec.clone()));
        // The encoding option replaces the encoding; amo its family.
        let minimal = plain
            .with_options(&"encoding=minimal,amo=sequential".parse().unwrap())
            .unwrap();
        assert_eq!(minimal.label(), "cdcl/minimal/sequential");
        // An external backend shows its options before its command.
        let external = SolverSpec::sat(DEFAULT_ENCODING, BackendSpec::external("cadical -q"))
            .with_options(&"seed=3".parse().unwrap())
            .unwrap();
        assert_eq!(
            external.label(),
            "external[seed=3]:cadical -q/extended+reduced"
        );
        // A classic solver takes the seed alone.
        let hill = SolverSpec::classic(ClassicKind::Hill)
            .with_options(&"seed=9".parse().unwrap())
            .unwrap();
        assert_eq!(hill.label(), "hill[seed=9]");
        assert_eq!("hill[seed=9]".parse::<SolverSpec>(), Ok(hill));
    }

    #[test]
    fn options_a_solver_has_no_use_for_are_refused() {
        let refused = |spec: &SolverSpec, text: &str| {
            spec.with_options(&text.parse().unwrap())
                .unwrap_err()
                .to_string()
        };
        let dlx = SolverSpec::classic(ClassicKind::Dlx);
        assert_eq!(
            refused(&dlx, "root=none"),
            "`root` is not an option of `dlx`: a classic solver works on the grid itself and \
             takes only seed"
        );
        // Propagation asks the backend whether it connects a propagator: every backend
        // of the registry that does not is refused, whatever its name.
        for kind in BackendKind::ALL {
            let backend = match kind.entry().process {
                Some(_) => BackendSpec {
                    command: Some("solver".to_string()),
                    ..BackendSpec::new(kind)
                },
                None => BackendSpec::new(kind),
            };
            let connects = connects_propagator(&backend);
            let spec = SolverSpec::sat(DEFAULT_ENCODING, backend);
            let result = spec.with_options(&"propagate=grid".parse().unwrap());
            assert_eq!(result.is_ok(), connects, "{kind}");
            // `none` and `auto` run nothing native: every backend takes them.
            assert!(spec
                .with_options(&"propagate=none".parse().unwrap())
                .is_ok());
        }
        assert!(connects_propagator(&BackendSpec::new(BackendKind::Cdcl)));
    }

    #[test]
    fn an_entry_with_options_solves_and_its_answer_checks() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        for text in [
            "sat:extended+reduced:cdcl[propagate=grid,root=hall,threads=2,seed=4]",
            "sat:minimal:dpll[lookahead=full,root=none]",
            "hill[seed=11]",
        ] {
            let spec: SolverSpec = text.parse().unwrap();
            match spec.build(None).solve(&puzzle).unwrap().outcome {
                SolveOutcome::Solved(g) => {
                    assert!(check_solution(&puzzle, &g).is_valid(), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
