//! The compare harness behind `sudosat compare`: every puzzle solved by every entry (a SAT
//! backend crossed with an encoding, or a classic solver), each answer checked, with the
//! encoding size, the encode/solve times and the solver's counters recorded per run.
//!
//! The study is the one every source of this project ran: which encoding is smaller (Lynce &
//! Ouaknine's minimal and extended encodings, Kwon & Jain's V⁺/V⁻ reduction), which backend
//! or algorithm is faster (SAT against Dancing Links, backtracking, human strategies, …),
//! and how that changes with the puzzle's size and number of givens.
//!
//! - [`CompareConfig`] says what runs: entries, each a [`SolverSpec`] like every other
//!   solver choice of the crate (its `--solvers`/`--encodings` lists are read by
//!   [`parse_solvers`] and [`parse_encodings`] and crossed by [`entries`]); [`run`] builds
//!   each entry with [`SolverSpec::build`] and returns one [`Run`] per puzzle × entry ×
//!   repeat.
//! - [`summary`] reduces runs to per-solver statistics and prints the tables, [`output`]
//!   writes CSV and JSON, [`plot`] draws the SVG.
//! - [`shard`] splits a study's runs into shares that run apart ([`CompareConfig::shard`])
//!   and merges them back into one comparison.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sudosat::compare::{self, CompareConfig, Outcome, Puzzle};
//!
//! let grid = "1.3...1..4..2.4.".parse().unwrap();
//! let puzzles = [Puzzle { file: "example".into(), line: 1, grid }];
//! let solvers = compare::parse_solvers("dpll,dlx").unwrap();
//! let encodings = compare::parse_encodings("minimal,extended").unwrap();
//! let config = CompareConfig::new(compare::entries(&solvers, &encodings, &Default::default()).unwrap());
//! let result = compare::run(&puzzles, &config, &AtomicBool::new(false), &|_| {}).unwrap();
//! assert_eq!(result.runs.len(), 3); // dpll × 2 encodings, dlx
//! assert!(result.runs.iter().all(|r| r.outcome == Outcome::Solved && r.checked));
//! ```

mod error;
pub mod formulas;
pub mod merge;
pub mod output;
#[cfg(feature = "plot")]
pub mod plot;
#[cfg(feature = "plot")]
pub mod report;
pub mod shard;
pub mod summary;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use crate::backend::{BackendError, BackendKind, BackendLabelError, BackendSpec, RootMode};
use crate::encode::{AmoFamily, Encoding, SudokuEncoding};
use crate::formula::FormulaSize;
use crate::grid::{check_solution, Grid, Isomorphism};
use crate::run::{Counters, Instant};
use crate::solve::sat::DEFAULT_ENCODING;
use crate::solve::{ClassicKind, EntryOptions, SolveOutcome, Solver, SolverOptions, SolverSpec};
use crate::Error;
pub use error::CompareError;
use shard::Shard;

/// A solver as `--solvers` names it, before SAT backends are crossed with the encodings
/// into [`SolverSpec`]s ([`entries`]), with the options of its bracket
/// ([`EntryOptions::split`]), applied over the study's flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverItem {
    /// A SAT backend (crossed with every encoding, unless its options name one).
    Sat(BackendSpec, EntryOptions),
    /// A classic solver.
    Classic(ClassicKind, EntryOptions),
}

impl SolverItem {
    /// A SAT backend with no option of its own.
    pub fn sat(backend: BackendSpec) -> SolverItem {
        SolverItem::Sat(backend, EntryOptions::default())
    }

    /// A classic solver with no option of its own.
    pub fn classic(kind: ClassicKind) -> SolverItem {
        SolverItem::Classic(kind, EntryOptions::default())
    }

    /// The options of the item's bracket.
    pub fn options(&self) -> &EntryOptions {
        match self {
            SolverItem::Sat(_, options) | SolverItem::Classic(_, options) => options,
        }
    }
}

/// Parses a comma-separated `--solvers` list: `dpll`, `varisat`, `splr`, `minisat` (or
/// `minisat:CMD`), `external:CMD`, any [`ClassicKind`], and the groups `embedded`
/// (the in-process backends this build has: cdcl, dpll, lookahead, varisat, splr, and
/// cadical and kissat with their features), `classic` (every classic solver but plain `backtrack`,
/// which is `backtrack-mrv` under compare's defaults) and `all` (both groups). Repeated
/// names are kept once. Commands cannot contain commas. A backend or solver may carry
/// options in a bracket after its name ([`EntryOptions`]): `cdcl[propagate=grid]`,
/// `external[seed=3]:cadical -q`, `hill[seed=7]`; the commas inside a bracket do not split
/// the list.
///
/// # Errors
/// [`CompareError::UnknownSolver`] naming the first unknown item,
/// [`CompareError::MissingCommand`] for `external` without a command,
/// [`CompareError::EntryOption`] for a bracket that cannot be read or an option the solver
/// has no use for, [`CompareError::Invalid`] for an empty list.
pub fn parse_solvers(list: &str) -> Result<Vec<SolverItem>, CompareError> {
    parse_list(list, "--solvers lists no solver", parse_solver_item)
}

/// The items of a comma-separated list: split at the commas outside brackets, trimmed,
/// empty ones dropped.
fn split_items(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    items
        .into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Splits a comma-separated list, expands each item with `parse_item`, keeps the first of
/// repeated values, and refuses an empty result with `empty`.
fn parse_list<T: PartialEq>(
    list: &str,
    empty: &str,
    parse_item: impl Fn(&str) -> Result<Vec<T>, CompareError>,
) -> Result<Vec<T>, CompareError> {
    let mut values: Vec<T> = Vec::new();
    for item in split_items(list) {
        for value in parse_item(item)? {
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    if values.is_empty() {
        return Err(CompareError::Invalid(empty.to_string()));
    }
    Ok(values)
}

fn parse_solver_item(item: &str) -> Result<Vec<SolverItem>, CompareError> {
    let embedded = || {
        BackendKind::ALL
            .into_iter()
            .filter(|k| k.is_embedded() && k.is_built())
            .map(|k| SolverItem::sat(BackendSpec::new(k)))
            .collect::<Vec<_>>()
    };
    let classic = || {
        ClassicKind::ALL
            .into_iter()
            .filter(|&kind| kind != ClassicKind::Backtrack)
            .map(SolverItem::classic)
            .collect::<Vec<_>>()
    };
    match item {
        "embedded" => return Ok(embedded()),
        "classic" => return Ok(classic()),
        "all" => return Ok([embedded(), classic()].concat()),
        _ => {}
    }
    let bad_option = |source| CompareError::EntryOption {
        item: item.to_string(),
        source,
    };
    let (name, options) = EntryOptions::split(item).map_err(bad_option)?;
    let parsed = match BackendSpec::from_label(&name) {
        Ok(spec) if spec.kind == BackendKind::External && spec.command.is_none() => {
            return Err(CompareError::MissingCommand(item.to_string()))
        }
        Ok(spec) => SolverItem::Sat(spec, options),
        Err(BackendLabelError::MissingCommand(_)) => {
            return Err(CompareError::MissingCommand(item.to_string()))
        }
        Err(err @ BackendLabelError::NotBuilt(_)) => {
            return Err(CompareError::Invalid(format!("--solvers {item}: {err}")))
        }
        Err(_) => match name.parse::<ClassicKind>() {
            Ok(kind) => SolverItem::Classic(kind, options),
            Err(_) => return Err(CompareError::UnknownSolver(name)),
        },
    };
    // An option the solver has no use for is refused here, before anything is built.
    let probe = match &parsed {
        SolverItem::Sat(backend, _) => SolverSpec::sat(DEFAULT_ENCODING, backend.clone()),
        SolverItem::Classic(kind, _) => SolverSpec::classic(*kind),
    };
    probe.with_options(parsed.options()).map_err(bad_option)?;
    Ok(vec![parsed])
}

/// Parses a comma-separated `--encodings` list of [`SudokuEncoding`] names, or `all`.
/// Repeated names are kept once.
///
/// # Errors
/// [`CompareError::UnknownEncoding`] naming the first unknown item, [`CompareError::Invalid`]
/// for an empty list.
pub fn parse_encodings(list: &str) -> Result<Vec<SudokuEncoding>, CompareError> {
    parse_list(list, "--encodings lists no encoding", |item| match item {
        "all" => Ok(SudokuEncoding::ALL.to_vec()),
        name => SudokuEncoding::from_name(name)
            .map(|e| vec![e])
            .ok_or_else(|| CompareError::UnknownEncoding(name.to_string())),
    })
}

/// Parses a comma-separated `--amo` list of [`AmoFamily`] names, or `all`.
///
/// # Errors
/// [`CompareError::Invalid`] naming the first unknown item or for an empty list.
pub fn parse_amo_families(list: &str) -> Result<Vec<AmoFamily>, CompareError> {
    parse_list(list, "--amo lists no family", |item| match item {
        "all" => Ok(AmoFamily::ALL.to_vec()),
        name => AmoFamily::from_name(name)
            .map(|f| vec![f])
            .ok_or_else(|| CompareError::Invalid(format!("unknown at-most-one family `{name}`"))),
    })
}

/// Every encoding crossed with every family (encoding-major), repeats kept once.
pub fn cross_amo(encodings: &[SudokuEncoding], families: &[AmoFamily]) -> Vec<SudokuEncoding> {
    let mut out: Vec<SudokuEncoding> = Vec::new();
    for e in encodings {
        for &f in families {
            let crossed = e.with_amo(f);
            if !out.contains(&crossed) {
                out.push(crossed);
            }
        }
    }
    out
}

/// The entries of a comparison on puzzles when none are named (`--solvers`): every
/// embedded backend but the lookahead search, and Dancing Links.
pub const DEFAULT_SOLVERS: &str = "cdcl,dpll,varisat,splr,dlx";

/// The entries of a comparison on DIMACS formulas when none are named: the puzzle default
/// without its classic solver.
pub const DEFAULT_FORMULA_SOLVERS: &str = "cdcl,dpll,varisat,splr";

/// The default `--encodings`: the SAT path's default encoding.
pub fn default_encodings() -> Vec<SudokuEncoding> {
    vec![DEFAULT_ENCODING]
}

/// One thing that runs on every puzzle: a solver choice as the rest of the crate describes
/// it ([`SolverSpec::label`] names its rows).
pub type Entry = SolverSpec;

/// Every SAT backend of `solvers` crossed with every encoding (backend-major), then the
/// classic solvers with `options`, in the order listed: [`entries_with`] under the default
/// root reasoning.
///
/// # Errors
/// As [`entries_with`].
pub fn entries(
    solvers: &[SolverItem],
    encodings: &[SudokuEncoding],
    options: &SolverOptions,
) -> Result<Vec<SolverSpec>, CompareError> {
    entries_with(solvers, encodings, options, RootMode::default())
}

/// The entries of a study, in the order listed: each SAT backend of `solvers` crossed with
/// every encoding (backend-major) unless its options name one (`encoding=`; `amo=` gives
/// each of its encodings that family), then the classic solvers. The study-wide values
/// (`options`' seed, which is cdcl's too, and `root`) come first; each item's own options
/// override them ([`SolverSpec::with_options`]).
///
/// # Errors
/// [`CompareError::EntryOption`] for an option an item's solver has no use for.
pub fn entries_with(
    solvers: &[SolverItem],
    encodings: &[SudokuEncoding],
    options: &SolverOptions,
    root: RootMode,
) -> Result<Vec<SolverSpec>, CompareError> {
    let mut out: Vec<SolverSpec> = Vec::new();
    for item in solvers {
        let own = item.options();
        let bad_option = |source| CompareError::EntryOption {
            item: match item {
                SolverItem::Sat(backend, _) => format!("{}[{own}]", backend.label()),
                SolverItem::Classic(kind, _) => format!("{kind}[{own}]"),
            },
            source,
        };
        let crossed: Vec<SolverSpec> = match item {
            SolverItem::Sat(backend, _) => {
                let study = BackendSpec {
                    seed: options.seed,
                    root,
                    ..backend.clone()
                };
                let encodings = match own.encoding {
                    Some(encoding) => vec![encoding],
                    None => encodings.to_vec(),
                };
                encodings
                    .into_iter()
                    .map(|encoding| SolverSpec::sat(encoding, study.clone()))
                    .collect()
            }
            SolverItem::Classic(kind, _) => vec![SolverSpec::classic_with(*kind, options.clone())],
        };
        for spec in crossed {
            let spec = spec.with_options(own).map_err(bad_option)?;
            if !out.contains(&spec) {
                out.push(spec);
            }
        }
    }
    Ok(out)
}

crate::names::named_enum! {
    /// How summaries and plots group puzzles (`--by`; the name heads the column).
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GroupBy ("grouping") {
        /// By number of givens.
        Clues = "clues",
        /// By side n of the grid.
        Size = "size",
    }
}

impl GroupBy {
    /// The grouping of a plot when none is asked for: by size when the runs hold several
    /// sizes, else by clue count.
    pub fn auto(runs: &[Run]) -> GroupBy {
        match runs.first() {
            Some(first) if runs.iter().any(|r| r.size != first.size) => GroupBy::Size,
            _ => GroupBy::Clues,
        }
    }

    /// The group of a run.
    pub fn key(self, run: &Run) -> usize {
        match self {
            GroupBy::Clues => run.givens,
            GroupBy::Size => run.size,
        }
    }
}

/// What runs, how often and under which limits.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareConfig {
    /// The entries, in report order.
    pub entries: Vec<Entry>,
    /// Runs of each puzzle × entry (each is a row).
    pub repeat: usize,
    /// Time limit of each solve. A solver that cannot be interrupted
    /// ([`crate::backend::LimitTime`]) is timed and reported as
    /// `timeout` when it ran past it.
    pub timeout: Option<Duration>,
    /// Puzzles solved at once: 1 runs everything on the calling thread; more uses a
    /// dedicated pool of that many threads (each solve still runs, and is timed, on one).
    pub jobs: usize,
    /// Whether repeat r runs with the entry's seed plus r − 1 ([`SolverSpec::with_seed_offset`])
    /// on a solver built for it, instead of the same solver and seed each time: cdcl's
    /// repeats are then draws of its search, not timings of one path.
    pub vary_seed: bool,
    /// With `Some(seed)`, repeat r > 1 solves a random isomorph of the puzzle
    /// ([`Isomorphism::random`]), drawn from the seed, the puzzle's index and r, so that
    /// every entry gets the same copies: repeats are then draws of any solver's search,
    /// external ones included, which take no seed of ours. Repeat 1 is the puzzle itself.
    pub isomorphs: Option<u64>,
    /// Whether the inputs are DIMACS formulas ([`formulas::run_formulas`]) rather than
    /// puzzles: the entries are then SAT backends alone, each labelled by its backend
    /// ([`CompareConfig::label`]), since no encoding is made.
    pub formulas: bool,
    /// The share of the runs to make ([`shard`]): [`Shard::WHOLE`] makes them all.
    pub shard: Shard,
}

/// The grid repeat `repeat` of puzzle `index` solves: the puzzle itself, or with
/// [`CompareConfig::isomorphs`] a random isomorph of it from repeat 2 on.
pub fn repeat_grid(grid: &Grid, index: usize, repeat: usize, isomorphs: Option<u64>) -> Grid {
    match isomorphs {
        Some(seed) if repeat > 1 => {
            let stream = seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add((index as u64) << 24)
                .wrapping_add(repeat as u64);
            let mut rng = ChaCha8Rng::seed_from_u64(stream);
            Isomorphism::random(grid.box_size(), &mut rng).apply(grid)
        }
        _ => grid.clone(),
    }
}

impl CompareConfig {
    /// One repeat, no time limit, one thread.
    pub fn new(entries: Vec<Entry>) -> CompareConfig {
        CompareConfig {
            entries,
            repeat: 1,
            timeout: None,
            jobs: 1,
            vary_seed: false,
            isomorphs: None,
            formulas: false,
            shard: Shard::WHOLE,
        }
    }

    /// The label of `entry`'s rows: [`SolverSpec::label`] for puzzles, the backend's
    /// label ([`BackendSpec::label`]) for formulas.
    pub fn label(&self, entry: &Entry) -> String {
        match entry.backend_label() {
            Some(backend) if self.formulas => backend,
            _ => entry.label(),
        }
    }

    /// Whether puzzles run in parallel (those of the entries whose solves take one thread).
    pub fn parallel(&self) -> bool {
        self.jobs > 1
    }

    /// The entries whose solves take more than one thread ([`SolverSpec::threads`]): each
    /// runs one solve at a time, whatever [`CompareConfig::jobs`] says, so that its threads
    /// are its own.
    pub fn threaded(&self) -> Vec<ThreadedEntry> {
        self.entries
            .iter()
            .filter(|e| e.threads() > 1)
            .map(|e| ThreadedEntry {
                entry: self.label(e),
                threads: e.threads(),
            })
            .collect()
    }

    /// Runs a comparison of `puzzles` makes: all of them, or its shard's share.
    pub fn total_runs(&self, puzzles: usize) -> usize {
        self.shard.share(puzzles * self.entries.len() * self.repeat)
    }

    /// The repeats of entry `entry` (by index) on instance `instance` (0-based, of
    /// `instances`) that this config's shard makes, in order.
    pub fn repeats_dealt(&self, entry: usize, instance: usize, instances: usize) -> Vec<usize> {
        (1..=self.repeat)
            .filter(|&r| {
                self.shard
                    .deals(shard::position(entry, instance, r, instances, self.repeat))
            })
            .collect()
    }

    /// Checks the counts and lists.
    ///
    /// # Errors
    /// [`CompareError::Invalid`] for no entry, or repeats or jobs out of range.
    pub fn validate(&self) -> Result<(), CompareError> {
        let invalid = |m: &str| Err(CompareError::Invalid(m.to_string()));
        if self.entries.is_empty() {
            return invalid("nothing to compare: no solver entry");
        }
        if !(1..=MAX_REPEAT).contains(&self.repeat) {
            return invalid(&format!("--repeat must be between 1 and {MAX_REPEAT}"));
        }
        if !(1..=MAX_JOBS).contains(&self.jobs) {
            return invalid(&format!("--jobs must be between 1 and {MAX_JOBS}"));
        }
        let labels: Vec<String> = self.entries.iter().map(|e| self.label(e)).collect();
        if let Some((i, label)) = labels
            .iter()
            .enumerate()
            .find(|(i, label)| labels[..*i].contains(label))
        {
            let first = labels.iter().position(|l| l == label).unwrap_or(i);
            return invalid(&format!(
                "entries {} and {} are both labelled `{label}`: give them different options \
                 or leave one out",
                first + 1,
                i + 1
            ));
        }
        Ok(())
    }
}

/// The formula every SAT entry answers before the first run ([`preflight`]), in DIMACS
/// numbers: three variables, satisfiable, with the one model `1 2 -3`.
pub const PREFLIGHT_CLAUSES: [&[i64]; 3] = [&[1], &[-1, 2], &[-2, -3]];

/// The time an entry has to answer [`PREFLIGHT_CLAUSES`].
pub const PREFLIGHT_LIMIT: Duration = Duration::from_secs(10);

/// Checks, before the first run, that every SAT entry of `config` can run: its backend is
/// made (an external solver's binary found and started, its flags accepted) and answers
/// [`PREFLIGHT_CLAUSES`] with a model that satisfies them, within [`PREFLIGHT_LIMIT`].
/// Each backend is tried once, whatever the encodings it is crossed with. The classic
/// solvers run in this process: there is nothing to check.
///
/// # Errors
/// [`CompareError::CannotRun`] naming the first entry that cannot run and why.
pub fn preflight(config: &CompareConfig) -> Result<(), CompareError> {
    let mut tried: Vec<&BackendSpec> = Vec::new();
    for entry in &config.entries {
        let SolverSpec::Sat { backend, .. } = entry else {
            continue;
        };
        if tried.contains(&backend) {
            continue;
        }
        tried.push(backend);
        preflight_backend(backend).map_err(|reason| CompareError::CannotRun {
            entry: config.label(entry),
            reason,
        })?;
    }
    Ok(())
}

/// Solves [`PREFLIGHT_CLAUSES`] with a fresh backend of `spec`: `Err` says what went wrong.
fn preflight_backend(spec: &BackendSpec) -> Result<(), String> {
    let spec = spec.clone().with_timeout(Some(PREFLIGHT_LIMIT));
    let mut backend = spec.create().map_err(|e| e.to_string())?;
    let mut cnf = crate::formula::Cnf::new();
    for clause in PREFLIGHT_CLAUSES {
        let lits: Vec<crate::formula::Lit> = clause
            .iter()
            .map(|&n| crate::formula::Lit::from_dimacs(n))
            .collect();
        crate::formula::ClauseSink::add_clause(&mut cnf, &lits);
    }
    backend.add_formula(&mut cnf.clone());
    match backend.solve().map_err(|e| e.to_string())? {
        crate::backend::SatOutcome::Sat(model) => {
            crate::backend::check_model(&backend.name(), &cnf, model)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        crate::backend::SatOutcome::Unsat => Err(format!(
            "{} answered UNSAT for a satisfiable formula",
            backend.name()
        )),
    }
}

/// The most repeats of one measurement (`--repeat`).
pub const MAX_REPEAT: usize = 10_000;
/// The most measurements run at once (`--jobs`): each is a thread.
pub const MAX_JOBS: usize = 256;

/// A puzzle to compare on, with where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The input file as named (or `<stdin>`).
    pub file: String,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle.
    pub grid: Grid,
}

crate::names::named_enum! {
    /// How one run ended; the name is the one every output uses.
    #[derive(PartialOrd, Ord, Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Outcome ("outcome") {
        /// A grid that passed the check against the rules and the givens.
        Solved = "solved",
        /// The solver proved there is no solution (and no other entry found one).
        NoSolution = "no_solution",
        /// Ended without an answer, not at the time limit: an incomplete method stopped
        /// (iteration cap, threshold), or the comparison was stopped (a signal) while the
        /// run was in flight ([`STOPPED_BY_INTERRUPT`]). Not solved, not a time-out, and
        /// not in PAR-2 (the summaries count it apart; see [`summary`]).
        Stopped = "stopped",
        /// The time limit was reached.
        Timeout = "timeout",
        /// The solver failed (e.g. an external command that cannot be started).
        Failed = "failed",
        /// A wrong answer: a grid that fails the check, a model that does not decode, or
        /// "no solution" for a puzzle another entry solved.
        Wrong = "wrong",
    }
}

impl Outcome {
    /// Whether the run answered: a checked solution, or "no solution" (an unsolvable puzzle,
    /// an UNSAT formula) that no other entry contradicted. Answers are what summaries time.
    pub fn is_answer(self) -> bool {
        matches!(self, Outcome::Solved | Outcome::NoSolution)
    }
}

/// One solve of one puzzle by one entry: a row of the CSV and JSON outputs (the columns are
/// [`output::CSV_COLUMNS`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Run {
    /// The input file.
    pub file: String,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    /// 1-based index of the puzzle among all inputs.
    pub puzzle_index: usize,
    /// Side n of the grid.
    pub size: usize,
    /// Number of givens.
    pub givens: usize,
    /// The entry's label ([`Entry::label`]).
    pub solver: String,
    /// The SAT backend (none for a classic solver).
    pub backend: Option<String>,
    /// The encoding (none for a classic solver).
    pub encoding: Option<String>,
    /// 1-based repeat number.
    pub repeat: usize,
    /// How it ended.
    pub outcome: Outcome,
    /// Whether a grid was returned and passed [`check_solution`] against the puzzle.
    pub checked: bool,
    /// Variables of the encoding (SAT entries).
    pub vars: Option<usize>,
    /// Clauses of the encoding, givens included (SAT entries).
    pub clauses: Option<usize>,
    /// Literal occurrences of the encoding (SAT entries).
    pub literals: Option<usize>,
    /// Variables of the puzzle's own formula under the entry's encoding, before reasoning
    /// on the grid (`--root`) changed it: `vars` when nothing did (SAT entries).
    pub puzzle_vars: Option<usize>,
    /// Clauses of the puzzle's own formula (see [`Run::puzzle_vars`]).
    pub puzzle_clauses: Option<usize>,
    /// Literal occurrences of the puzzle's own formula (see [`Run::puzzle_vars`]).
    pub puzzle_literals: Option<usize>,
    /// Time spent encoding, µs (SAT entries).
    pub encode_us: Option<f64>,
    /// Time in the backend's solve (SAT entries) or in the whole solve (classic), µs.
    pub solve_us: f64,
    /// Time spent decoding and checking the model (SAT entries), µs.
    pub decode_us: Option<f64>,
    /// Wall time of the whole solver call, µs: the time summaries and plots use.
    pub total_us: f64,
    /// The backend's or solver's counters (decisions, conflicts, nodes…).
    #[serde(serialize_with = "output::counters_as_map")]
    pub counters: Counters,
    /// Why it did not solve: the error, the stop reason, or the failed check.
    pub error: Option<String>,
}

/// The measured runs and how they were made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Puzzles read.
    pub puzzles: usize,
    /// Entry labels, in report order.
    pub solvers: Vec<String>,
    /// Runs of each puzzle × entry.
    pub repeat: usize,
    /// The time limit of each solve, seconds.
    pub timeout_s: Option<f64>,
    /// Threads puzzles ran on.
    pub jobs: usize,
    /// Whether puzzles ran in parallel (`jobs > 1`).
    pub parallel: bool,
    /// Whether the comparison was stopped before every run was made, or while runs were in
    /// flight ([`run_watched`]: a signal).
    pub interrupted: bool,
    /// The entries whose solves take more than one thread (`threads=` above 1), in entry
    /// order: they ran one solve at a time, whatever `jobs` says.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub threaded: Vec<ThreadedEntry>,
    /// One row per run, in puzzle, entry, repeat order.
    pub runs: Vec<Run>,
}

/// An entry whose solves take more than one thread ([`Comparison::threaded`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ThreadedEntry {
    /// The entry's label.
    pub entry: String,
    /// Threads of each of its solves.
    pub threads: usize,
}

/// What one instance of a comparison on puzzles is called ([`Comparison::instance`]).
pub const PUZZLE: &str = "puzzle";
/// What one instance of a comparison on DIMACS formulas is called.
pub const FORMULA: &str = "formula";

impl Comparison {
    /// Whether the runs are on DIMACS formulas ([`formulas::run_formulas`]), told by their
    /// rows (a formula's row has no grid, size 0), so that a comparison read back from CSV
    /// knows it too.
    pub fn on_formulas(&self) -> bool {
        !self.runs.is_empty() && self.runs.iter().all(|r| r.size == 0)
    }

    /// What one instance is called in the summaries: `formula` or `puzzle`.
    pub fn instance(&self) -> &'static str {
        if self.on_formulas() {
            FORMULA
        } else {
            PUZZLE
        }
    }

    /// Whether some answer was wrong.
    pub fn has_wrong_answer(&self) -> bool {
        self.runs.iter().any(|r| r.outcome == Outcome::Wrong)
    }

    /// The label of the SAT path's default entry, against which a report draws the other
    /// entries by default (`plot::default_pairs`): the default
    /// backend alone when the entries are backends (a comparison on formulas).
    pub fn default_entry_label(&self) -> String {
        let backend = BackendSpec::new(BackendKind::DEFAULT).label();
        if self.solvers.contains(&backend) {
            backend
        } else {
            format!("{backend}/{}", DEFAULT_ENCODING.name())
        }
    }
}

/// Runs every entry of `config` on every puzzle, `config.repeat` times, and checks every
/// answer. A failure or time-out of one run is recorded in its row; the comparison goes on.
///
/// Entries run one after another, each over all the puzzles (with `jobs > 1`, the puzzles
/// of one entry are shared among the threads): a solver then runs with its own data warm in
/// the caches, as it would alone, instead of after twenty others on the same puzzle, which
/// made sub-millisecond solves look up to twice as slow. `stop` is read before each run:
/// once set, the runs made so far are returned with [`Comparison::interrupted`] (so the
/// last entries may have no rows). `on_run` is called after each run (from the worker
/// threads when `jobs > 1`), e.g. to advance a progress bar. [`run_watched`] also stops
/// the runs in flight.
///
/// # Errors
/// An invalid config ([`CompareConfig::validate`]) or a thread pool that cannot start.
pub fn run(
    puzzles: &[Puzzle],
    config: &CompareConfig,
    stop: &AtomicBool,
    on_run: &(dyn Fn(&Run) + Sync),
) -> Result<Comparison, CompareError> {
    run_hooked(puzzles, config, &Hooks::unwatched(stop, on_run))
}

/// What follows a comparison as it runs ([`run_watched`]).
pub struct Watch<'a> {
    /// Set (e.g. by a signal) to stop the comparison: no run starts after it, and the runs
    /// in flight are interrupted where their solver can be (a SAT backend with
    /// [`crate::backend::Interrupt`]: cdcl, dpll, lookahead, varisat, the solver
    /// processes); their rows are [`Outcome::Stopped`] ([`STOPPED_BY_INTERRUPT`]).
    pub stop: Arc<AtomicBool>,
    /// Called as each run starts, with its row before the solve (outcome `failed`, no
    /// time), so that a caller can name the runs in flight.
    pub on_start: &'a (dyn Fn(&Run) + Sync),
    /// Called after each run with its row.
    pub on_run: &'a (dyn Fn(&Run) + Sync),
}

/// The error text of a run stopped in flight by [`Watch::stop`].
pub const STOPPED_BY_INTERRUPT: &str = "interrupted: the comparison was stopped";

/// [`run`] under a [`Watch`]: `watch.stop` also ends the runs in flight, and the
/// comparison is [`Comparison::interrupted`] once it was set.
///
/// # Errors
/// As for [`run`].
pub fn run_watched(
    puzzles: &[Puzzle],
    config: &CompareConfig,
    watch: &Watch,
) -> Result<Comparison, CompareError> {
    let hooks = Hooks::of(watch);
    let mut comparison = run_hooked(puzzles, config, &hooks)?;
    comparison.interrupted |= watch.stop.load(Ordering::SeqCst);
    Ok(comparison)
}

/// The stop flag and callbacks a run loop reads ([`run`], [`run_watched`]).
struct Hooks<'a> {
    stop: &'a AtomicBool,
    /// The same flag, to hand to the solvers (only [`run_watched`] has one).
    interrupt: Option<&'a Arc<AtomicBool>>,
    on_start: &'a (dyn Fn(&Run) + Sync),
    on_run: &'a (dyn Fn(&Run) + Sync),
}

impl<'a> Hooks<'a> {
    /// A stop flag that the solvers are not handed, and only `on_run` to follow the runs.
    fn unwatched(stop: &'a AtomicBool, on_run: &'a (dyn Fn(&Run) + Sync)) -> Hooks<'a> {
        Hooks {
            stop,
            interrupt: None,
            on_start: &|_| {},
            on_run,
        }
    }

    fn of(watch: &'a Watch) -> Hooks<'a> {
        Hooks {
            stop: &watch.stop,
            interrupt: Some(&watch.stop),
            on_start: watch.on_start,
            on_run: watch.on_run,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Marks a run that ended without an answer after the stop as stopped: its failure or
    /// time-out was the interrupt's doing.
    fn mark_stopped(&self, row: &mut Run) {
        if self.stopped() && !row.outcome.is_answer() && row.outcome != Outcome::Wrong {
            row.outcome = Outcome::Stopped;
            row.error = Some(STOPPED_BY_INTERRUPT.to_string());
        }
    }
}

fn run_hooked(
    puzzles: &[Puzzle],
    config: &CompareConfig,
    hooks: &Hooks,
) -> Result<Comparison, CompareError> {
    config.validate()?;
    let runs = run_entries(
        puzzles,
        config,
        hooks.stop,
        |entry| {
            let mut solver = entry.build(config.timeout);
            solver.set_interrupt(hooks.interrupt.cloned());
            solver
        },
        |solver, entry, i, p, repeats| {
            run_puzzle(solver.as_mut(), entry, i, p, repeats, config, hooks)
        },
    )?;
    Ok(assemble(config, puzzles.len(), runs))
}

/// The rows of every entry of `config` on every item, entries one after another (with
/// `config.jobs > 1`, the items of one entry shared among a pool of that many threads),
/// stopping between entries once `stop` is set. `init` makes what one thread keeps over
/// its items of an entry (a solver); `run_item` makes the rows of one item, by index, for
/// the repeats given (those of `config.shard`; an item with none is skipped, an entry with
/// none is not built).
fn run_entries<T: Sync, S>(
    items: &[T],
    config: &CompareConfig,
    stop: &AtomicBool,
    init: impl Fn(&Entry) -> S + Sync + Send,
    run_item: impl Fn(&mut S, &Entry, usize, &T, &[usize]) -> Vec<Run> + Sync + Send,
) -> Result<Vec<Run>, CompareError> {
    let pool = if config.parallel() {
        // The caller's stop flag reaches the solvers that read none of their own.
        let stop_flag = crate::run::thread_stop_flag();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.jobs)
            .start_handler(move |_| crate::run::stop_thread_on(stop_flag.clone()))
            .build()
            .map_err(|e| CompareError::ThreadPool {
                jobs: config.jobs,
                reason: e.to_string(),
            })?;
        Some(pool)
    } else {
        None
    };
    // Bounded: the count is the user's product of three numbers.
    let mut runs = Vec::with_capacity(config.total_runs(items.len()).min(1 << 16));
    for (e, entry) in config.entries.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let dealt: Vec<(usize, Vec<usize>)> = (0..items.len())
            .map(|i| (i, config.repeats_dealt(e, i, items.len())))
            .filter(|(_, repeats)| !repeats.is_empty())
            .collect();
        if dealt.is_empty() {
            continue;
        }
        // An entry whose solves take several threads runs one solve at a time.
        let pool = pool.as_ref().filter(|_| entry.threads() == 1);
        let per_item: Vec<Vec<Run>> = match pool {
            Some(pool) => pool.install(|| {
                dealt
                    .par_iter()
                    .map_init(
                        || init(entry),
                        |state, (i, repeats)| run_item(state, entry, *i, &items[*i], repeats),
                    )
                    .collect()
            }),
            None => {
                let mut state = init(entry);
                dealt
                    .iter()
                    .map(|(i, repeats)| run_item(&mut state, entry, *i, &items[*i], repeats))
                    .collect()
            }
        };
        runs.extend(per_item.into_iter().flatten());
    }
    Ok(runs)
}

/// The comparison of `runs` made under `config` on `puzzles` puzzles: runs sorted into
/// puzzle, entry, repeat order, "no solution" against a solved puzzle marked wrong, and
/// [`Comparison::interrupted`] set when runs are missing. [`run`] ends with it; a caller
/// that collected rows from `on_run` (e.g. to write them when a solve never returns) can
/// build the same report from them.
pub fn assemble(config: &CompareConfig, puzzles: usize, mut runs: Vec<Run>) -> Comparison {
    let solvers: Vec<String> = config.entries.iter().map(|e| config.label(e)).collect();
    let position = |label: &str| solvers.iter().position(|s| s == label);
    runs.sort_by_key(|r| (r.puzzle_index, position(&r.solver), r.repeat));
    mark_disagreements(&mut runs);
    Comparison {
        puzzles,
        solvers,
        repeat: config.repeat,
        timeout_s: config.timeout.map(|t| t.as_secs_f64()),
        jobs: config.jobs,
        parallel: config.parallel(),
        interrupted: runs.len() < config.total_runs(puzzles),
        threaded: config.threaded(),
        runs,
    }
}

/// The runs of `entry` on one puzzle, one per repeat of `repeats` (fewer once the stop
/// is set).
fn run_puzzle(
    solver: &mut dyn Solver,
    entry: &Entry,
    index: usize,
    puzzle: &Puzzle,
    repeats: &[usize],
    config: &CompareConfig,
    hooks: &Hooks,
) -> Vec<Run> {
    let mut runs = Vec::with_capacity(repeats.len());
    for &repeat in repeats {
        if hooks.stopped() {
            break;
        }
        let mut row = blank_row(puzzle, index, entry, repeat);
        (hooks.on_start)(&row);
        let grid = repeat_grid(&puzzle.grid, index, repeat, config.isomorphs);
        if config.vary_seed {
            let seeded = entry.with_seed_offset(repeat as u64 - 1);
            let mut fresh = seeded.build(config.timeout);
            fresh.set_interrupt(hooks.interrupt.cloned());
            measure(fresh.as_mut(), &seeded, &grid, config.timeout, &mut row);
        } else {
            measure(solver, entry, &grid, config.timeout, &mut row);
        }
        hooks.mark_stopped(&mut row);
        (hooks.on_run)(&row);
        runs.push(row);
    }
    runs
}

fn blank_row(puzzle: &Puzzle, index: usize, entry: &Entry, repeat: usize) -> Run {
    Run {
        file: puzzle.file.clone(),
        line: puzzle.line,
        puzzle_index: index + 1,
        size: puzzle.grid.side(),
        givens: puzzle.grid.num_givens(),
        solver: entry.label(),
        backend: entry.backend_label(),
        encoding: entry.encoding().map(|e| e.name()),
        repeat,
        outcome: Outcome::Failed,
        checked: false,
        vars: None,
        clauses: None,
        literals: None,
        puzzle_vars: None,
        puzzle_clauses: None,
        puzzle_literals: None,
        encode_us: None,
        solve_us: 0.0,
        decode_us: None,
        total_us: 0.0,
        counters: Counters::default(),
        error: None,
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Solves `grid` once with `solver` (built from `entry`), timed on this thread, and fills
/// in the row.
fn measure(
    solver: &mut dyn Solver,
    entry: &SolverSpec,
    grid: &Grid,
    timeout: Option<Duration>,
    row: &mut Run,
) {
    let start = Instant::now();
    let result = solver.solve(grid);
    let total = start.elapsed();
    let honours_limit = solver.honours_time_limit();
    row.total_us = micros(total);
    row.solve_us = row.total_us;
    match result {
        Ok(report) => {
            row.counters = report.counters;
            match report.outcome {
                SolveOutcome::Solved(answer) => {
                    let check = check_solution(grid, &answer);
                    row.checked = check.is_valid();
                    if let Some(v) = check.violations.first() {
                        row.outcome = Outcome::Wrong;
                        row.error = Some(format!(
                            "the answer is not a solution: {}",
                            v.display(grid.geometry())
                        ));
                    } else {
                        row.outcome = Outcome::Solved;
                    }
                }
                SolveOutcome::NoSolution => row.outcome = Outcome::NoSolution,
                SolveOutcome::Stopped(why) => {
                    row.outcome = Outcome::Stopped;
                    row.error = Some(why);
                }
            }
            mark_past_limit(row, total, timeout, honours_limit);
        }
        Err(err) => {
            row.outcome = error_outcome(&err);
            row.error = Some(err.to_string());
        }
    }
    if let Some(encoding) = entry.encoding() {
        fill_sat_figures(solver, encoding, grid, row);
    }
}

/// An answer that came past `limit` from a solver that cannot be interrupted is a
/// time-out, as it would have been had the solver stopped.
fn mark_past_limit(row: &mut Run, total: Duration, limit: Option<Duration>, honours: bool) {
    if let Some(limit) = limit.filter(|&l| !honours && total > l) {
        row.outcome = Outcome::Timeout;
        row.error = Some(format!(
            "ran {:.3} s, past the {:.3} s limit (this solver cannot be interrupted)",
            total.as_secs_f64(),
            limit.as_secs_f64()
        ));
    }
}

/// The outcome of a run that ended in `err`.
fn error_outcome(err: &Error) -> Outcome {
    if err.is_timeout() {
        Outcome::Timeout
    } else if matches!(
        err,
        Error::Decode(_) | Error::Backend(BackendError::WrongModel { .. })
    ) {
        Outcome::Wrong
    } else {
        Outcome::Failed
    }
}

/// Sizes, time split and counters of a SAT run. A formula that was never built (the
/// backend could not start, the givens contradict each other) still gets its size.
fn fill_sat_figures(solver: &dyn Solver, encoding: SudokuEncoding, grid: &Grid, row: &mut Run) {
    let Some(stats) = solver.sat_stats() else {
        return;
    };
    // A solver holding the empty grid's formula for a batch fixes the givens at the root
    // of it, which propagation makes the puzzle's own formula: the row reports that one, as
    // an entry that encodes the puzzle alone does, so entries agree on an encoding's size.
    let size = if stats.size.clauses > 0 && !stats.empty_grid {
        stats.size
    } else {
        encoding.size(grid)
    };
    let FormulaSize {
        vars,
        clauses,
        literals,
    } = size;
    row.vars = Some(vars);
    row.clauses = Some(clauses);
    row.literals = Some(literals);
    // Reasoning on the grid left its counters, or the solver held the empty grid's formula
    // for the batch: the puzzle's own formula is another one.
    let reasoned = stats
        .backend
        .0
        .iter()
        .any(|(name, _)| matches!(*name, "root_us" | "root_refuted"));
    let own = if reasoned || stats.empty_grid {
        encoding.size(grid)
    } else {
        size
    };
    row.puzzle_vars = Some(own.vars);
    row.puzzle_clauses = Some(own.clauses);
    row.puzzle_literals = Some(own.literals);
    row.encode_us = Some(micros(stats.encode_time));
    row.solve_us = micros(stats.solve_time);
    row.decode_us = Some(micros(stats.decode_time));
    if !row.counters.0.is_empty() {
        // The report's counters repeat the sizes; keep the backend's own.
        row.counters = stats.backend.clone();
    }
}

/// Backends must agree: "no solution" for a puzzle some entry solved (with a checked grid)
/// is a wrong answer.
fn mark_disagreements(runs: &mut [Run]) {
    let solved_by: std::collections::HashMap<usize, String> = runs
        .iter()
        .filter(|r| r.outcome == Outcome::Solved)
        .map(|r| (r.puzzle_index, r.solver.clone()))
        .collect();
    for run in runs.iter_mut() {
        if run.outcome != Outcome::NoSolution {
            continue;
        }
        if let Some(by) = solved_by.get(&run.puzzle_index) {
            run.outcome = Outcome::Wrong;
            run.error = Some(format!(
                "reported no solution, but {by} found a checked solution"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(text: &str) -> Puzzle {
        Puzzle {
            file: "test".to_string(),
            line: 1,
            grid: text.parse().expect("a valid puzzle"),
        }
    }

    const FOUR: &str = "1.3...1..4..2.4.";

    #[test]
    fn solver_lists_expand_groups_and_keep_order() {
        let specs = parse_solvers("dlx, embedded ,external:cadical -q,dpll").unwrap();
        // The embedded group is the registry's embedded rows, in order; dpll is one of them.
        let embedded: Vec<SolverItem> = BackendKind::ALL
            .into_iter()
            .filter(|k| k.is_embedded() && k.is_built())
            .map(|k| SolverItem::sat(BackendSpec::new(k)))
            .collect();
        assert!(embedded.contains(&SolverItem::sat(BackendSpec::new(BackendKind::Dpll))));
        let mut expected = vec![SolverItem::classic(ClassicKind::Dlx)];
        expected.extend(embedded.iter().cloned());
        expected.push(SolverItem::sat(BackendSpec::external("cadical -q")));
        assert_eq!(specs, expected);
        let all = parse_solvers("all").unwrap();
        assert_eq!(all.len(), embedded.len() + ClassicKind::NAMES.len() - 1);
        assert!(!all.contains(&SolverItem::classic(ClassicKind::Backtrack)));
        assert_eq!(
            parse_solvers("minisat:/opt/minisat").unwrap(),
            vec![SolverItem::sat(BackendSpec {
                command: Some("/opt/minisat".to_string()),
                ..BackendSpec::new(BackendKind::Minisat)
            })]
        );
    }

    #[test]
    fn bad_solver_lists_name_the_item() {
        let err = parse_solvers("dpll,dlk").unwrap_err();
        assert!(matches!(&err, CompareError::UnknownSolver(s) if s == "dlk"));
        assert!(err.to_string().contains("backtrack-mrv"), "{err}");
        assert!(matches!(
            parse_solvers("external").unwrap_err(),
            CompareError::MissingCommand(_)
        ));
        assert!(matches!(
            parse_solvers("dlx:x").unwrap_err(),
            CompareError::UnknownSolver(_)
        ));
        assert!(matches!(
            parse_solvers(" , ").unwrap_err(),
            CompareError::Invalid(_)
        ));
    }

    #[test]
    fn encoding_lists() {
        assert_eq!(
            parse_encodings("all").unwrap(),
            SudokuEncoding::ALL.to_vec()
        );
        assert_eq!(
            parse_encodings("extended,minimal,extended").unwrap(),
            vec![
                SudokuEncoding::from_name("extended").unwrap(),
                SudokuEncoding::from_name("minimal").unwrap()
            ]
        );
        assert!(matches!(
            parse_encodings("extended,reduced").unwrap_err(),
            CompareError::UnknownEncoding(s) if s == "reduced"
        ));
    }

    #[test]
    fn every_classic_name_builds() {
        for name in ClassicKind::NAMES {
            assert!(crate::solve::classic_solver(name, &SolverOptions::default()).is_some());
        }
    }

    #[test]
    fn the_seed_reaches_the_sat_entries_and_the_classic_ones() {
        let solvers = parse_solvers("cdcl,hill").unwrap();
        let encodings = parse_encodings("extended+reduced").unwrap();
        let options = SolverOptions {
            seed: 42,
            ..SolverOptions::default()
        };
        let seeds: Vec<u64> = entries(&solvers, &encodings, &options)
            .unwrap()
            .iter()
            .map(|entry| match entry {
                SolverSpec::Sat { backend, .. } => backend.seed,
                SolverSpec::Classic { options, .. } => options.seed,
            })
            .collect();
        assert_eq!(seeds, [42, 42]);
    }

    #[test]
    fn entries_cross_backends_with_encodings_only() {
        let solvers = parse_solvers("dpll,dlx,varisat").unwrap();
        let encodings = parse_encodings("minimal,extended+reduced").unwrap();
        let labels: Vec<String> = entries(&solvers, &encodings, &SolverOptions::default())
            .unwrap()
            .iter()
            .map(Entry::label)
            .collect();
        assert_eq!(
            labels,
            [
                "dpll/minimal",
                "dpll/extended+reduced",
                "dlx",
                "varisat/minimal",
                "varisat/extended+reduced"
            ]
        );
    }

    #[test]
    fn vary_seed_makes_repeats_draws_with_the_same_answers() {
        let inkala = puzzle(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let solvers = parse_solvers("cdcl").unwrap();
        let encodings = parse_encodings("extended+reduced").unwrap();
        let mut config =
            CompareConfig::new(entries(&solvers, &encodings, &SolverOptions::default()).unwrap());
        config.repeat = 4;
        let decisions = |config: &CompareConfig| -> Vec<u64> {
            let puzzles = [inkala.clone()];
            let result = run(&puzzles, config, &AtomicBool::new(false), &|_| {}).unwrap();
            assert_eq!(result.runs.len(), 4);
            result
                .runs
                .iter()
                .map(|r| {
                    assert_eq!((r.outcome, r.checked), (Outcome::Solved, true));
                    r.counters.get("decisions").expect("cdcl counts decisions")
                })
                .collect()
        };
        let same = decisions(&config);
        assert!(same.iter().all(|&d| d == same[0]), "{same:?}");
        config.vary_seed = true;
        let drawn = decisions(&config);
        assert_eq!(drawn[0], same[0], "repeat 1 runs with the seed given");
        assert!(drawn[1..].iter().any(|&d| d != same[0]), "{drawn:?}");
    }

    #[test]
    fn isomorphs_make_repeats_draws_of_any_solver_on_the_same_copies() {
        let inkala = puzzle(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        // Repeat 1 is the puzzle; later repeats are copies, the same for every entry.
        assert_eq!(repeat_grid(&inkala.grid, 0, 1, Some(5)), inkala.grid);
        assert_eq!(repeat_grid(&inkala.grid, 0, 2, None), inkala.grid);
        let copy = repeat_grid(&inkala.grid, 0, 2, Some(5));
        assert_ne!(copy, inkala.grid);
        assert_eq!(copy, repeat_grid(&inkala.grid, 0, 2, Some(5)));
        assert_ne!(copy, repeat_grid(&inkala.grid, 0, 3, Some(5)));
        assert_ne!(copy, repeat_grid(&inkala.grid, 1, 2, Some(5)));
        assert_eq!(
            crate::grid::canonical(&copy),
            crate::grid::canonical(&inkala.grid)
        );
        // dpll (deterministic, no seed) takes other paths through the copies; every answer
        // is checked against the copy it solved.
        let solvers = parse_solvers("dpll,dlx").unwrap();
        let encodings = parse_encodings("extended+reduced").unwrap();
        let mut config =
            CompareConfig::new(entries(&solvers, &encodings, &SolverOptions::default()).unwrap());
        config.repeat = 4;
        config.isomorphs = Some(5);
        let result = run(&[inkala], &config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(result.runs.len(), 8);
        let mut decisions = Vec::new();
        for run in &result.runs {
            assert_eq!((run.outcome, run.checked), (Outcome::Solved, true));
            if run.backend.as_deref() == Some("dpll") {
                decisions.push(run.counters.get("decisions").unwrap());
            }
        }
        assert!(
            decisions[1..].iter().any(|&d| d != decisions[0]),
            "{decisions:?}"
        );
    }

    #[test]
    fn runs_record_sizes_outcomes_and_checks() {
        let puzzles = [puzzle(FOUR), puzzle(FOUR)];
        let solvers = parse_solvers("dpll,dlx").unwrap();
        let encodings = parse_encodings("extended").unwrap();
        let mut config =
            CompareConfig::new(entries(&solvers, &encodings, &SolverOptions::default()).unwrap());
        config.repeat = 2;
        let count = std::sync::atomic::AtomicUsize::new(0);
        let result = run(&puzzles, &config, &AtomicBool::new(false), &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(result.runs.len(), 8);
        assert_eq!(count.load(Ordering::Relaxed), 8);
        assert!(!result.interrupted && !result.parallel);
        for run in &result.runs {
            assert_eq!((run.outcome, run.checked), (Outcome::Solved, true));
            assert!(run.total_us > 0.0);
        }
        let sat = &result.runs[0];
        let expected = crate::encode::extended_size(4, 6);
        assert_eq!(
            (sat.vars, sat.clauses, sat.literals),
            (
                Some(expected.vars),
                Some(expected.clauses),
                Some(expected.literals)
            )
        );
        assert_eq!(sat.backend.as_deref(), Some("dpll"));
        let dlx = &result.runs[2];
        assert_eq!((dlx.solver.as_str(), dlx.vars), ("dlx", None));
        assert_eq!(
            result.runs.iter().map(|r| r.repeat).collect::<Vec<_>>(),
            [1, 2, 1, 2, 1, 2, 1, 2]
        );
    }

    #[test]
    fn parallel_runs_keep_puzzle_order() {
        let puzzles: Vec<Puzzle> = (0..6).map(|_| puzzle(FOUR)).collect();
        let mut config = CompareConfig::new(
            entries(
                &parse_solvers("dlx,dpll").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        config.jobs = 2;
        let result = run(&puzzles, &config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert!(result.parallel);
        let order: Vec<usize> = result.runs.iter().map(|r| r.puzzle_index).collect();
        assert_eq!(order, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    }

    #[test]
    fn entries_run_one_after_another_and_rows_come_back_by_puzzle() {
        let puzzles = [puzzle(FOUR), puzzle(FOUR)];
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dlx,dpll").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let seen = std::sync::Mutex::new(Vec::new());
        let result = run(&puzzles, &config, &AtomicBool::new(false), &|r| {
            seen.lock()
                .unwrap()
                .push((r.solver.clone(), r.puzzle_index))
        })
        .unwrap();
        let dpll = "dpll/extended+reduced".to_string();
        let measured = [
            ("dlx".to_string(), 1),
            ("dlx".to_string(), 2),
            (dpll.clone(), 1),
            (dpll.clone(), 2),
        ];
        assert_eq!(seen.into_inner().unwrap(), measured);
        let reported: Vec<(String, usize)> = result
            .runs
            .iter()
            .map(|r| (r.solver.clone(), r.puzzle_index))
            .collect();
        assert_eq!(
            reported,
            [
                measured[0].clone(),
                measured[2].clone(),
                measured[1].clone(),
                measured[3].clone()
            ]
        );
    }

    #[test]
    fn a_set_stop_flag_returns_what_was_measured() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let stop = AtomicBool::new(false);
        let puzzles = [puzzle(FOUR), puzzle(FOUR), puzzle(FOUR)];
        let result = run(&puzzles, &config, &stop, &|_| {
            stop.store(true, Ordering::Relaxed)
        })
        .unwrap();
        assert_eq!(result.runs.len(), 1);
        assert!(result.interrupted);
    }

    #[test]
    fn a_stop_while_a_run_is_in_flight_marks_it_stopped() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("external:/nonexistent/solver,dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let started = std::sync::Mutex::new(Vec::new());
        // The stop comes as the first run starts; that run's failure is then the stop's
        // doing (its solver killed), not the solver's.
        let watch = Watch {
            stop: Arc::clone(&stop),
            on_start: &|row| {
                started.lock().unwrap().push(row.solver.clone());
                stop.store(true, Ordering::SeqCst);
            },
            on_run: &|_| {},
        };
        let result = run_watched(&[puzzle(FOUR), puzzle(FOUR)], &config, &watch).unwrap();
        let first = "external:/nonexistent/solver/extended+reduced";
        assert_eq!(*started.lock().unwrap(), [first]);
        assert_eq!(result.runs.len(), 1);
        assert_eq!(result.runs[0].outcome, Outcome::Stopped);
        assert_eq!(result.runs[0].error.as_deref(), Some(STOPPED_BY_INTERRUPT));
        assert!(result.interrupted);
    }

    #[test]
    fn preflight_passes_the_embedded_backends_and_names_an_entry_that_cannot_run() {
        let embedded = CompareConfig::new(
            entries(
                &parse_solvers("embedded,dlx").unwrap(),
                &parse_encodings("minimal,extended").unwrap(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        preflight(&embedded).unwrap();
        let missing = CompareConfig::new(
            entries(
                &parse_solvers("dpll,external:/nonexistent/solver").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        match preflight(&missing) {
            Err(CompareError::CannotRun { entry, reason }) => {
                assert_eq!(entry, "external:/nonexistent/solver/extended+reduced");
                assert!(reason.contains("could not be started"), "{reason}");
            }
            other => panic!("expected CannotRun, got {other:?}"),
        }
    }

    #[test]
    fn assemble_orders_rows_collected_out_of_order() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dlx,dpll").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let rows = std::sync::Mutex::new(Vec::new());
        let puzzles = [puzzle(FOUR), puzzle(FOUR)];
        run(&puzzles, &config, &AtomicBool::new(false), &|r| {
            rows.lock().unwrap().push(r.clone())
        })
        .unwrap();
        let mut rows = rows.into_inner().unwrap();
        rows.reverse();
        rows.pop(); // the first run is lost
        let partial = assemble(&config, puzzles.len(), rows);
        assert!(partial.interrupted);
        let order: Vec<(usize, &str)> = partial
            .runs
            .iter()
            .map(|r| (r.puzzle_index, r.solver.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                (1, "dpll/extended+reduced"),
                (2, "dlx"),
                (2, "dpll/extended+reduced")
            ]
        );
    }

    #[test]
    fn failures_are_rows_not_aborts() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("external:/nonexistent/solver,dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let result = run(&[puzzle(FOUR)], &config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(result.runs.len(), 2);
        let failed = &result.runs[0];
        assert_eq!(failed.outcome, Outcome::Failed);
        assert!(!failed.checked);
        assert!(failed
            .error
            .as_deref()
            .unwrap()
            .contains("/nonexistent/solver"));
        assert!(failed.clauses.unwrap() > 0, "the size is still recorded");
        assert_eq!(result.runs[1].outcome, Outcome::Solved);
    }

    #[test]
    fn no_solution_against_a_solved_puzzle_is_wrong() {
        let mut runs = vec![
            blank_row(&puzzle(FOUR), 0, &SolverSpec::classic(ClassicKind::Dlx), 1),
            blank_row(
                &puzzle(FOUR),
                0,
                &SolverSpec::classic(ClassicKind::Human),
                1,
            ),
        ];
        runs[0].outcome = Outcome::Solved;
        runs[1].outcome = Outcome::NoSolution;
        mark_disagreements(&mut runs);
        assert_eq!(runs[1].outcome, Outcome::Wrong);
        assert!(runs[1].error.as_deref().unwrap().contains("dlx"));
    }

    #[test]
    fn contradictory_givens_have_no_solution_for_everyone() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dpll,dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let result = run(
            &[puzzle("11..............")],
            &config,
            &AtomicBool::new(false),
            &|_| {},
        )
        .unwrap();
        assert!(result
            .runs
            .iter()
            .all(|r| r.outcome == Outcome::NoSolution && !r.checked));
    }

    #[test]
    fn config_validation() {
        let mut config = CompareConfig::new(Vec::new());
        assert!(config.validate().is_err());
        config.entries = vec![SolverSpec::classic(ClassicKind::Dlx)];
        assert!(config.validate().is_ok());
        config.repeat = 0;
        assert!(config.validate().is_err());
        config.repeat = 1;
        config.jobs = 0;
        assert!(config.validate().is_err());
    }

    #[test]
    fn entry_options_override_the_study_and_name_their_entries() {
        let solvers =
            parse_solvers("cdcl, cdcl[propagate=grid,root=none,seed=3], dpll[encoding=minimal], hill[seed=5], hill")
                .unwrap();
        assert_eq!(solvers.len(), 5, "{solvers:?}");
        let encodings = parse_encodings("extended+reduced,minimal+reduced").unwrap();
        let study = SolverOptions {
            seed: 42,
            ..SolverOptions::default()
        };
        let specs = entries_with(&solvers, &encodings, &study, RootMode::Hall).unwrap();
        let labels: Vec<String> = specs.iter().map(Entry::label).collect();
        assert_eq!(
            labels,
            [
                "cdcl/extended+reduced",
                "cdcl/minimal+reduced",
                "cdcl[propagate=grid,root=none,seed=3]/extended+reduced",
                "cdcl[propagate=grid,root=none,seed=3]/minimal+reduced",
                "dpll/minimal",
                "hill[seed=5]",
                "hill",
            ]
        );
        let backend = |i: usize| match &specs[i] {
            SolverSpec::Sat { backend, .. } => backend.clone(),
            SolverSpec::Classic { .. } => panic!("a SAT entry"),
        };
        // The study's root and seed where the entry gives none, the entry's own where it does.
        assert_eq!((backend(0).root, backend(0).seed), (RootMode::Hall, 42));
        assert_eq!((backend(2).root, backend(2).seed), (RootMode::None, 3));
        assert_eq!(backend(2).propagate, crate::backend::Propagate::Grid);
        let seed = |i: usize| match &specs[i] {
            SolverSpec::Classic { options, .. } => options.seed,
            SolverSpec::Sat { .. } => panic!("a classic entry"),
        };
        assert_eq!((seed(5), seed(6)), (5, 42));
    }

    #[test]
    fn bad_entry_options_name_the_item() {
        let error = |list: &str| parse_solvers(list).unwrap_err().to_string();
        assert_eq!(
            error("cdcl,dlx[root=none]"),
            "--solvers `dlx[root=none]`: `root` is not an option of `dlx`: a classic solver \
             works on the grid itself and takes only seed"
        );
        assert!(
            error("cdcl[speed=2]")
                .starts_with("--solvers `cdcl[speed=2]`: unknown entry option `speed`"),
            "{}",
            error("cdcl[speed=2]")
        );
        assert!(error("varisat[propagate=grid]").contains("takes no propagator"));
        assert!(error("cdcl[threads=0]").contains("expected a whole number from 1"));
        assert!(error("cdcl[seed=1").contains("go in one bracket right after its name"));
        // Two entries that would share a label are refused before anything runs.
        let twice = entries(
            &parse_solvers("cdcl[encoding=minimal],cdcl").unwrap(),
            &parse_encodings("minimal,extended").unwrap(),
            &SolverOptions::default(),
        )
        .unwrap();
        let labels: Vec<String> = twice.iter().map(Entry::label).collect();
        assert_eq!(labels, ["cdcl/minimal", "cdcl/minimal", "cdcl/extended"]);
        assert_eq!(
            CompareConfig::new(twice)
                .validate()
                .unwrap_err()
                .to_string(),
            "entries 1 and 2 are both labelled `cdcl/minimal`: give them different options \
             or leave one out"
        );
    }

    #[test]
    fn an_entry_with_threads_runs_its_solves_one_at_a_time() {
        let puzzles: Vec<Puzzle> = (0..4).map(|_| puzzle(FOUR)).collect();
        let mut config = CompareConfig::new(
            entries(
                &parse_solvers("cdcl[threads=2],dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        config.jobs = 2;
        let in_flight = std::sync::atomic::AtomicUsize::new(0);
        let most = std::sync::Mutex::new(std::collections::BTreeMap::<String, usize>::new());
        let watch = Watch {
            stop: Arc::new(AtomicBool::new(false)),
            on_start: &|row| {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                let mut most = most.lock().unwrap();
                let seen = most.entry(row.solver.clone()).or_default();
                *seen = (*seen).max(now);
                // Hold the run a moment, so that a second thread would overlap it.
                std::thread::sleep(Duration::from_millis(20));
            },
            on_run: &|_| {
                in_flight.fetch_sub(1, Ordering::SeqCst);
            },
        };
        let result = run_watched(&puzzles, &config, &watch).unwrap();
        assert_eq!(result.runs.len(), 8);
        assert!(result
            .runs
            .iter()
            .all(|r| r.outcome == Outcome::Solved && r.checked));
        assert_eq!(
            result.threaded,
            [ThreadedEntry {
                entry: "cdcl[threads=2]/extended+reduced".to_string(),
                threads: 2
            }]
        );
        assert_eq!(most.lock().unwrap()["cdcl[threads=2]/extended+reduced"], 1);
        let header = summary::header(&result);
        assert!(
            header.contains(
                "one solve at a time, whatever --jobs, for cdcl[threads=2]/extended+reduced on 2 threads"
            ),
            "{header}"
        );
    }
}
