//! The solver's counters, reported by [`SatBackend::counters`](crate::SatBackend):
//! every technique adds to the ones it owns.

use crate::lookahead::LookaheadCounters;

/// Counters of the search (the shrinking and mode counters live with their technique).
#[derive(Clone, Default)]
pub(super) struct Stats {
    pub(super) solves: u64,
    pub(super) decisions: u64,
    pub(super) propagations: u64,
    pub(super) conflicts: u64,
    pub(super) learnt: u64,
    pub(super) restarts: u64,
    pub(super) deleted: u64,
    pub(super) probes: u64,
    pub(super) failed_literals: u64,
    /// Explanation clauses added by the native propagation.
    pub(super) native_clauses: u64,
    /// Portfolios run, and the conflicts of all their members, the losers' included.
    pub(super) portfolios: u64,
    pub(super) portfolio_conflicts: u64,
    /// Solves handed to the lookahead search.
    pub(super) lookahead_searches: u64,
}

impl Stats {
    /// The counters a watcher of the search is shown ([`crate::run::report_progress`]).
    pub(super) fn progress(&self) -> crate::run::Counters {
        crate::run::Counters(vec![
            ("conflicts", self.conflicts),
            ("decisions", self.decisions),
            ("propagations", self.propagations),
            ("restarts", self.restarts),
        ])
    }

    /// Adds a lookahead search's counters.
    pub(super) fn count_lookahead(&mut self, counters: LookaheadCounters) {
        self.lookahead_searches += 1;
        self.decisions += counters.decisions;
        self.propagations += counters.propagations;
        self.probes += counters.probes;
        self.failed_literals += counters.failed_literals;
    }
}
