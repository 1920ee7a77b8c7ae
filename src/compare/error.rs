//! The one error of the comparison harness: a bad request or an output that could not be
//! produced.

use crate::backend::BackendKind;
use crate::encode::{Encoding, SudokuEncoding};
use crate::solve::{ClassicKind, EntryOptionError};

/// A bad comparison request or an output that could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A `--solvers` item that names no backend or solver.
    #[error(
        "unknown solver `{0}` in --solvers (expected {embedded}, {processes}, {classic}, or \
         the groups embedded, classic, all)",
        embedded = BackendKind::ALL.into_iter().filter(|k| k.is_embedded()).map(BackendKind::name).collect::<Vec<_>>().join(", "),
        processes = BackendKind::ALL.into_iter().filter(|k| !k.is_embedded()).map(|k| match k.entry().process.and_then(|p| p.default_command) {
            Some(_) => format!("{k}, {k}:CMD"),
            None => format!("{k}:CMD"),
        }).collect::<Vec<_>>().join(", "),
        classic = ClassicKind::NAMES.join(", ")
    )]
    UnknownSolver(String),
    /// An `--encodings` item that names no encoding.
    #[error(
        "unknown encoding `{0}` in --encodings (expected {names}, each optionally /FAMILY, \
         or all)",
        names = SudokuEncoding::ALL.map(|e| e.name()).join(", ")
    )]
    UnknownEncoding(String),
    /// A `--solvers` item whose bracket of options cannot be read, or names an option its
    /// solver has no use for.
    #[error("--solvers `{item}`: {source}")]
    EntryOption {
        /// The item as given.
        item: String,
        /// What is wrong with its options.
        #[source]
        source: EntryOptionError,
    },
    /// An external solver entry without a command.
    #[error("`{0}` needs a solver command, e.g. `external:cadical -q`")]
    MissingCommand(String),
    /// An empty list or a count that must be positive.
    #[error("{0}")]
    Invalid(String),
    /// The thread pool of `--jobs` could not be built.
    #[error("cannot start {jobs} worker threads: {reason}")]
    ThreadPool {
        /// Threads asked for.
        jobs: usize,
        /// Why it failed.
        reason: String,
    },
    /// The plot could not be drawn.
    #[error("cannot draw the plot: {0}")]
    Plot(String),
    /// A saved CSV of runs (or its sidecar) that cannot be read back.
    #[error("{source_name}:{line}{}: {reason}", column.map_or_else(String::new, |c| format!(":{c}")))]
    BadCsv {
        /// The file as named.
        source_name: String,
        /// 1-based line.
        line: u64,
        /// 1-based column (CSV: the field) when known.
        column: Option<u64>,
        /// What is wrong.
        reason: String,
    },
    /// An entry that cannot run: checked on a tiny formula before the first run
    /// ([`super::preflight`]).
    #[error(
        "entry `{entry}` cannot run: {reason} (every SAT entry is tried on a 3-variable \
         formula before the first run; fix the entry or leave it out)"
    )]
    CannotRun {
        /// The entry's label.
        entry: String,
        /// What went wrong.
        reason: String,
    },
    /// A `--scatter` pair naming an entry the comparison does not have.
    #[error("--scatter: no entry `{0}` in this comparison (entries: {1})")]
    UnknownEntry(String, String),
    /// Saved shards that cannot be merged into one comparison
    /// ([`super::merge::merge`]): the message names the files.
    #[error("{0}")]
    Shards(String),
    /// A CSV or JSON output could not be written.
    #[error("cannot write the {what} output: {source}")]
    Output {
        /// `CSV`, `JSON` or `report`.
        what: &'static str,
        /// Why; an I/O error keeps its kind, so a closed pipe can be told apart.
        #[source]
        source: std::io::Error,
    },
}
