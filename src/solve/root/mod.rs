//! Reasoning on the grid before a search, for grids of any side (`--root`): what it
//! removes becomes unit clauses of the formula ([`RootCandidates::to_cnf`]), so every
//! backend gets it.
//!
//! The rules come in order of cost, and each level is paid for by what it removes:
//!
//! 1. **Singles** (`state.rs`): the givens' reduction, then naked singles (a cell left one
//!    digit) and hidden singles (a digit left one place in a row, column or box), by a
//!    queue to their fixpoint, as unit propagation does on the extended encoding: a few
//!    steps for each candidate removed, and each candidate removed is a literal or more
//!    that the search no longer loads.
//! 2. **Locked candidates** (`locked.rs`), on the units changed since they were looked at.
//! 3. **Hall sets and fish** (`hall.rs`): every Hall set of every row, column and box and
//!    of each digit's rows against its columns, by Régin's filtering (Régin 1994) on a
//!    matching kept from round to round, on the views changed since they were last
//!    filtered — a round at a time, the cheaper levels to their fixpoint after each.
//!
//! `--root hall` runs every level to the fixpoint. `--root auto` (`fixpoint.rs`) decides
//! by what the rounds yield, not by a budget fixed in advance: the Hall rounds may spend
//! [`RootPolicy::AUTO`]'s `probe` steps for each literal of the formula when they began
//! (one round over every view costs about one step a literal, so one round is always
//! tried) plus its `price` in steps for each literal they, and the cheap rules they set
//! off, have removed since — what those steps would cost the search had it got the
//! literals instead. The account is checked after each view, over all the rounds so far,
//! so a round that finds little after rich ones goes on while the earlier ones paid for
//! it, and the first view that overdraws it ends the reasoning: the search gets what is
//! left. A grid the cheap rules settle never starts a Hall round; one whose Hall sets keep
//! settling cells (`sudoku-225-1`, which no search here settles) goes to the fixpoint;
//! one where they find little stops within its first round. How the rule fares on grids
//! it was not tuned on: docs/benchmarks/large.md, "Root reasoning on grids made for the
//! sweep".
//!
//! The grid theory inside cdcl ([`crate::backend::GridTheoryFactory`]) does the Hall sets
//! on one `u64` a cell and stops at side 64; here a cell's candidates are seven words, as
//! in a [`crate::grid::DigitSet`] (up to 448 digits), and nothing is undone.

mod candidates;
mod fixpoint;
mod hall;
mod locked;
mod mode;
mod state;
mod word;

pub use candidates::{RootCandidates, RootOutcome, RootRemovals};
pub use fixpoint::{reason_at_root, root_fixpoint};
pub use mode::{RootMode, RootPolicy, ROOT_AUTO_MIN_SIDE};
pub use word::{WordCandidates, WordGoal, WordOutcome, WORD_MAX_CELLS};
