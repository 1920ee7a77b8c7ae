//! Restarts and the two search modes, in runs of [`FIRST_MODE_RUN`] · 2^k conflicts, as in
//! CaDiCaL (Biere & Fleury 2020, "Chasing target phases", Pragmatics of SAT; Oh 2015,
//! "Between SAT and UNSAT: the fundamental difference in CDCL SAT", SAT). *Focused* mode
//! restarts when the learnt clauses get worse: the LBD average of the last ~32 conflicts
//! exceeds [`RESTART_MARGIN`] × that of the last ~4,096 (Audemard & Simon 2012, "Refining
//! restarts strategies for SAT and UNSAT", CP). *Stable* mode restarts after
//! [`STABLE_RESTART_UNIT`] × Luby(k) conflicts (Luby, Sinclair & Zuckerman 1993) and
//! decides each variable's *target phase*, its value in the longest conflict-free trail
//! since the last rephasing. Each mode keeps its own LBD averages. Every
//! [`REPHASE_INTERVAL`] · k conflicts the saved phases are reset to the *best* phases (the
//! longest conflict-free trail since the last such reset).

use super::options::{
    FIRST_MODE_RUN, LBD_FAST_WINDOW, LBD_SLOW_WINDOW, REPHASE_INTERVAL, RESTART_MARGIN,
    RESTART_MIN_CONFLICTS, STABLE_RESTART_UNIT,
};
use crate::formula::Lit;

/// The search-mode state (see the module docs): which mode runs, when it ends, when the
/// next stable restart and the next rephasing are due, and the target and best phases.
#[derive(Clone, Default)]
pub(super) struct Modes {
    /// Stable mode (rare restarts, target phases) rather than focused mode.
    pub(super) stable: bool,
    /// Conflicts at which the current mode ends (0: not scheduled yet).
    pub(super) next_switch: u64,
    /// Conflicts of the current mode's run; doubles at each switch.
    run_length: u64,
    /// Restarts of the current stable run, the index into the Luby sequence.
    luby_index: u64,
    next_stable_restart: u64,
    /// Per variable: the phase in the longest conflict-free trail since the last
    /// rephasing (`target_assigned` literals long) …
    pub(super) target_phase: Vec<bool>,
    target_assigned: usize,
    /// … and since the last rephasing to the best phases.
    pub(super) best_phase: Vec<bool>,
    best_assigned: usize,
    next_rephase: u64,
    pub(super) rephases: u64,
    pub(super) switches: u64,
    /// The current mode's LBD averages.
    averages: LbdAverages,
    /// The other mode's LBD averages, swapped in at a switch: stable mode learns clauses
    /// of much higher LBD, which would stall focused restarts.
    other_averages: LbdAverages,
}

/// Exponential moving averages of learnt-clause LBDs over one mode's conflicts (fast: the
/// last ~32, slow: the last ~4,096), for focused mode's glucose-style restarts.
#[derive(Clone, Default)]
struct LbdAverages {
    fast: f64,
    slow: f64,
    /// Conflicts seen, for the warm-up of the slow average.
    conflicts: u64,
}

impl LbdAverages {
    #[inline]
    fn add(&mut self, lbd: u32) {
        let lbd = lbd as f64;
        self.conflicts += 1;
        self.fast += (lbd - self.fast) / LBD_FAST_WINDOW;
        self.slow += (lbd - self.slow) / LBD_SLOW_WINDOW.min(self.conflicts as f64);
    }

    /// The recent clauses are worse than the long-run ones by the restart margin.
    #[inline]
    fn getting_worse(&self) -> bool {
        self.fast > RESTART_MARGIN * self.slow
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, … at `i` (from 1).
pub(super) fn luby(mut i: u64) -> u64 {
    debug_assert!(i >= 1);
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

impl Modes {
    /// Makes room for `num_vars` variables (positive phases first, as the saved ones).
    pub(super) fn grow(&mut self, num_vars: usize) {
        self.target_phase.resize(num_vars, true);
        self.best_phase.resize(num_vars, true);
    }

    /// The phases to branch on instead of the saved ones: the target phases in stable
    /// mode.
    #[inline]
    pub(super) fn branching_phases(&self) -> Option<&[bool]> {
        self.stable.then_some(&self.target_phase[..])
    }

    /// Counts a learnt clause of LBD `lbd` in the current mode's averages.
    #[inline]
    pub(super) fn learnt(&mut self, lbd: u32) {
        self.averages.add(lbd);
    }

    /// Whether the search restarts now, at `conflicts` conflicts of the solve and
    /// `conflicts_here` of this episode: when the mode says so, or the mode's run is over,
    /// or the fork to a portfolio at `fork_by` is due.
    #[inline]
    pub(super) fn restart_due(&self, conflicts: u64, conflicts_here: u64, fork_by: u64) -> bool {
        let by_mode = if self.stable {
            conflicts >= self.next_stable_restart
        } else {
            conflicts_here >= RESTART_MIN_CONFLICTS && self.averages.getting_worse()
        };
        by_mode || conflicts >= self.next_switch.min(fork_by)
    }

    /// Records the literals of `safe_prefix` (a conflict-free trail) as target and best
    /// phases when they are the longest such assignment so far.
    #[inline]
    pub(super) fn update_target_and_best(&mut self, safe_prefix: &[Lit]) {
        let safe = safe_prefix.len();
        for (phases, assigned) in [
            (&mut self.target_phase, &mut self.target_assigned),
            (&mut self.best_phase, &mut self.best_assigned),
        ] {
            if safe > *assigned {
                *assigned = safe;
                for &lit in safe_prefix {
                    phases[lit.var().index()] = lit.is_positive();
                }
            }
        }
    }

    /// At a restart (and before the first search), `conflicts` into the solve: switches
    /// mode when the run is over, schedules the next stable restart, and rephases the
    /// saved phases `phase` when due.
    pub(super) fn between_restarts(&mut self, conflicts: u64, phase: &mut [bool]) {
        if self.next_switch == 0 {
            self.run_length = FIRST_MODE_RUN;
            self.next_switch = conflicts + FIRST_MODE_RUN;
            self.next_rephase = conflicts + REPHASE_INTERVAL;
        } else if conflicts >= self.next_switch {
            self.stable = !self.stable;
            self.switches += 1;
            self.run_length *= 2;
            self.next_switch = conflicts + self.run_length;
            self.luby_index = 0;
            std::mem::swap(&mut self.averages, &mut self.other_averages);
        }
        if self.stable {
            self.luby_index += 1;
            self.next_stable_restart = conflicts + STABLE_RESTART_UNIT * luby(self.luby_index);
        }
        if conflicts >= self.next_rephase {
            // Back to the best assignment seen, as a fresh start for the target phases.
            self.rephases += 1;
            self.next_rephase = conflicts + REPHASE_INTERVAL * (self.rephases + 1);
            phase.copy_from_slice(&self.best_phase);
            self.best_assigned = 0;
            self.target_assigned = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
