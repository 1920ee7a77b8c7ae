//! What a study reads and writes: the [`Puzzle`]s in, one [`Run`] row per solve with its
//! [`Outcome`], and the [`Comparison`] that holds the rows with how they were made.

use serde::Serialize;

use crate::backend::{BackendKind, BackendSpec};
use crate::encode::Encoding;
use crate::grid::Grid;
use crate::run::Counters;
use crate::solve::sat::DEFAULT_ENCODING;

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
/// [`CSV_COLUMNS`](super::output::CSV_COLUMNS)).
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
    /// The entry's label ([`Entry::label`](super::Entry::label)).
    pub solver: String,
    /// The SAT backend (none for a classic solver).
    pub backend: Option<String>,
    /// The encoding (none for a classic solver).
    pub encoding: Option<String>,
    /// 1-based repeat number.
    pub repeat: usize,
    /// How it ended.
    pub outcome: Outcome,
    /// Whether a grid was returned and passed [`check_solution`](crate::grid::check_solution) against the puzzle.
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
    #[serde(serialize_with = "super::output::counters_as_map")]
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
    /// flight ([`run_watched`](super::run_watched): a signal).
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
    /// Whether the runs are on DIMACS formulas ([`run_formulas`](super::formulas::run_formulas)), told by their
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
