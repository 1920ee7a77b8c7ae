//! The crate's error type: one variant per concern, each carrying its own positioned error.

use std::path::PathBuf;

use crate::backend::BackendError;
use crate::dimacs::DimacsError;
use crate::encode::DecodeError;
use crate::grid::ParseError;
use crate::run::TimedOut;

/// Any failure of the library. UNSAT and "no solution" are never errors.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A puzzle file could not be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A DIMACS or model file could not be read.
    #[error(transparent)]
    Dimacs(#[from] DimacsError),
    /// A model does not decode to a solution of its puzzle.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A SAT backend failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A request this component cannot serve (e.g. a size a solver does not handle).
    #[error("{0}")]
    Unsupported(String),
    /// Solving would need more memory than the budget allows (checked from the formula's
    /// closed-form size before anything is built).
    #[error(
        "the {encoding} encoding of this {side}×{side} puzzle has {} variables, {} clauses and {} literals, about {} MiB to solve, over the memory budget of {} MiB; {}`sudosat encode` (which streams to a file) and an external solver, or raise --max-memory",
        size.vars, size.clauses, size.literals, needed.div_ceil(1 << 20), budget >> 20,
        if encoding.ends_with("reduced") { "use " } else { "use --reduce, or " }
    )]
    OverBudget {
        /// The encoding's name.
        encoding: String,
        /// The grid's side.
        side: usize,
        /// The formula's size.
        size: crate::formula::FormulaSize,
        /// Estimated bytes.
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },
    /// The threads of a batch could not be started.
    #[error("cannot start {jobs} solving threads: {reason}")]
    Threads {
        /// The threads asked for.
        jobs: usize,
        /// The system's reason.
        reason: String,
    },
    /// A solver reached its time limit ([`crate::solve::Solver::set_time_limit`]).
    #[error("solver `{solver}` timed out after {limit:?}{}", overran(took))]
    TimedOut {
        /// The solver's name.
        solver: String,
        /// The limit.
        limit: std::time::Duration,
        /// How long the puzzle took, when a step that cannot be interrupted (encoding,
        /// loading a formula) made it run more than a second past the limit.
        took: Option<std::time::Duration>,
    },
}

/// The tail of a time-out message that ran well past its limit.
fn overran(took: &Option<std::time::Duration>) -> String {
    match took {
        Some(took) => format!(
            " (it stopped only after {:.1}s: encoding and loading a formula are not interrupted)",
            took.as_secs_f64()
        ),
        None => String::new(),
    }
}

impl Error {
    /// Whether this is a time-out, of a grid-level solver or of a SAT backend: an answer
    /// a comparison reports as "timeout" rather than a failure.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            Error::TimedOut { .. } | Error::Backend(BackendError::Timeout { .. })
        )
    }
}

impl From<TimedOut> for Error {
    fn from(t: TimedOut) -> Self {
        Error::TimedOut {
            solver: t.solver,
            limit: t.limit,
            took: None,
        }
    }
}

/// `Result` with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_time_out_that_overran_says_how_long_it_took() {
        let timed_out = |took| Error::TimedOut {
            solver: "splr".to_string(),
            limit: Duration::from_secs(2),
            took,
        };
        assert_eq!(
            timed_out(None).to_string(),
            "solver `splr` timed out after 2s"
        );
        assert_eq!(
            timed_out(Some(Duration::from_millis(56_900))).to_string(),
            "solver `splr` timed out after 2s (it stopped only after 56.9s: encoding and \
             loading a formula are not interrupted)"
        );
        assert!(timed_out(None).is_timeout());
    }
}
