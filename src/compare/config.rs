//! What a study runs and under which limits: [`CompareConfig`] (entries, repeats, time
//! limit, threads, seeds, isomorphs, shard) with its validation, the grid each repeat
//! solves ([`repeat_grid`]), and how summaries and plots group puzzles ([`GroupBy`]).

use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::grid::{Grid, Isomorphism};

use super::shard::{self, Shard};
use super::{CompareError, Entry, Run, ThreadedEntry};

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
    /// Whether repeat r runs with the entry's seed plus r − 1 ([`SolverSpec::with_seed_offset`](crate::solve::SolverSpec::with_seed_offset))
    /// on a solver built for it, instead of the same solver and seed each time: cdcl's
    /// repeats are then draws of its search, not timings of one path.
    pub vary_seed: bool,
    /// With `Some(seed)`, repeat r > 1 solves a random isomorph of the puzzle
    /// ([`Isomorphism::random`]), drawn from the seed, the puzzle's index and r, so that
    /// every entry gets the same copies: repeats are then draws of any solver's search,
    /// external ones included, which take no seed of ours. Repeat 1 is the puzzle itself.
    pub isomorphs: Option<u64>,
    /// Whether the inputs are DIMACS formulas ([`run_formulas`](super::formulas::run_formulas)) rather than
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

    /// The label of `entry`'s rows: [`SolverSpec::label`](crate::solve::SolverSpec::label) for puzzles, the backend's
    /// label ([`BackendSpec::label`](crate::backend::BackendSpec::label)) for formulas.
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

    /// The entries whose solves take more than one thread ([`SolverSpec::threads`](crate::solve::SolverSpec::threads)): each
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

/// The most repeats of one measurement (`--repeat`).
pub const MAX_REPEAT: usize = 10_000;
/// The most measurements run at once (`--jobs`): each is a thread.
pub const MAX_JOBS: usize = 256;
