//! The CDCL search (GRASP: Marques-Silva & Sakallah 1999, "GRASP: A search algorithm for
//! propositional satisfiability", IEEE Trans. Computers 48(5); Chaff's loop, Moskewicz et
//! al. 2001, DAC): propagate, analyse a conflict, backjump and learn, or restart, reduce,
//! and decide, until an answer, the deadline, another portfolio member's answer or the fork
//! to a portfolio. The solver's state is here as the parts the techniques below borrow.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::analyze::Analysis;
use super::assume::{next_assumption, Assumed};
use super::clauses::ClauseDb;
use super::decide::{cancel_until, Vsids};
use super::load::Formula;
use super::options::{CLOCK_INTERVAL, STOP_INTERVAL};
use super::probe::probe_root;
use super::reduce::ReduceSchedule;
use super::restart::Modes;
use super::simplify::RootSimplifier;
use super::stats::Stats;
use super::substitute::Equivalences;
use super::theory::{Native, TheoryLink};
use super::trail::{Trail, NO_REASON};
use crate::dpll::Lookahead;
use crate::formula::Lit;
use crate::run::Deadline;

/// The built-in CDCL solver (see the module docs of [`crate::cdcl`]).
#[derive(Default)]
pub struct Cdcl {
    /// The assignment, and the theory that follows it.
    pub(super) trail: Trail,
    /// The clauses and the proof.
    pub(super) db: ClauseDb,
    /// Branching.
    pub(super) vsids: Vsids,
    /// Conflict analysis, minimisation and shrinking.
    pub(super) analysis: Analysis,
    /// Restarts, search modes, target and best phases.
    pub(super) modes: Modes,
    /// When the learnt clauses are reduced next.
    pub(super) reduce: ReduceSchedule,
    /// When the root is simplified next.
    pub(super) simplifier: RootSimplifier,
    /// The equivalent literals substituted, and when the next pass is due.
    pub(super) equivalences: Equivalences,
    /// The theory's factory and buffers.
    pub(super) theory: TheoryLink,
    /// The formula as given and how much of it is loaded.
    pub(super) formula: Formula,
    /// Failed assumptions of the last `solve_under`.
    pub(super) failed: Vec<Lit>,
    /// Root probing, and whether the lookahead search may take a solve.
    pub(super) lookahead: Lookahead,
    /// The counters.
    pub(super) stats: Stats,
    /// Time, threads, memory and the flags that stop a solve.
    pub(super) limits: Limits,
}

/// What bounds a solve: its time, its threads and memory, the fork to a portfolio, and
/// the flags that stop it.
#[derive(Clone, Default)]
pub(super) struct Limits {
    pub(super) time_limit: Option<Duration>,
    /// Threads of one solve: above 1, a search still open after 2,000 conflicts goes on
    /// as a portfolio (module `portfolio`).
    pub(super) threads: usize,
    /// Conflicts from which this solve forks into the portfolio at its next restart
    /// (`u64::MAX`: never) …
    pub(super) fork_at: u64,
    /// … and at which it forces that restart if none came (`u64::MAX`: never).
    pub(super) fork_by: u64,
    /// Conflicts of a solve before the fork (`None`: the default, 2,000; tests fork sooner).
    pub(super) fork_after: Option<u64>,
    /// Bytes the portfolio's copies may fill (`None`: what `memory_budget` leaves; tests
    /// leave none).
    pub(super) fork_room: Option<u64>,
    /// Bytes one solve may fill, copies included (`None`: half the memory the system
    /// reports available, for the copies alone).
    pub(super) memory_budget: Option<u64>,
    /// While this solver is a member of a portfolio: set when another member has answered.
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// Set by another thread to end this solver's solves
    /// ([`crate::Interrupt::set_interrupt`](crate::Interrupt::set_interrupt)).
    pub(super) interrupt: Option<Arc<AtomicBool>>,
}

/// How one search episode (between restarts) ended.
enum Search {
    Sat,
    Unsat,
    /// UNSAT under the assumptions; the failed ones are in `failed`.
    UnsatUnderAssumptions,
    Restart,
    TimedOut,
}

/// How the search of one solve ended.
pub(super) enum Ended {
    Sat,
    Unsat,
    /// UNSAT under the assumptions; the failed ones are in `failed`.
    UnsatUnderAssumptions,
    /// Out of time, or stopped because another portfolio member answered.
    TimedOut,
    /// Due to go on as a portfolio.
    Fork,
}

impl Ended {
    pub(super) fn is_answer(&self) -> bool {
        matches!(
            self,
            Ended::Sat | Ended::Unsat | Ended::UnsatUnderAssumptions
        )
    }
}

impl Cdcl {
    /// Makes room in every part for `num_vars` variables.
    pub(super) fn grow(&mut self, num_vars: usize) {
        if num_vars <= self.trail.num_vars {
            return;
        }
        let old = self.trail.num_vars;
        self.trail.grow(num_vars);
        self.vsids.grow(old, num_vars);
        self.modes.grow(num_vars);
        self.analysis.grow(num_vars);
        self.db.grow(num_vars);
        self.vsids.insert_new(old, num_vars);
    }

    /// Undoes every assignment above `level`, saving phases.
    #[inline]
    pub(super) fn cancel_until(&mut self, level: u32) {
        cancel_until(&mut self.trail, &mut self.vsids, level);
    }

    /// Loads the clauses added since the last solve (simplified against the root).
    pub(super) fn load_pending(&mut self, deadline: &Deadline) -> bool {
        self.cancel_until(0);
        self.grow(self.formula.original.num_vars());
        let limits = &self.limits;
        let stop = || {
            deadline.expired()
                || [&limits.stop, &limits.interrupt]
                    .into_iter()
                    .flatten()
                    .any(|flag| flag.load(Ordering::Relaxed))
        };
        self.formula.load_pending(
            &self.equivalences,
            &mut self.trail,
            &mut self.db,
            &mut self.stats,
            &stop,
        )
    }

    /// Whether equivalent literals may be substituted in this solve: not under
    /// assumptions (their variables must stay) nor beside a native propagator (its
    /// variables are the grid's).
    pub(super) fn may_substitute(&self, assumptions: &[Lit]) -> bool {
        assumptions.is_empty() && self.theory.factory.is_none() && self.trail.theory.is_none()
    }

    /// Equivalent-literal substitution (module `substitute`), unless the deadline has
    /// passed; `false` on a root conflict, logged as the empty clause.
    pub(super) fn substitute(&mut self, deadline: &Deadline) -> bool {
        if deadline.expired() {
            return true;
        }
        let consistent = self.equivalences.substitute(
            deadline,
            &mut self.simplifier,
            &mut self.trail,
            &mut self.db,
            &mut self.vsids,
            &mut self.stats,
        );
        if !consistent {
            self.formula.refuted(&mut self.db);
        }
        consistent
    }

    /// Root simplification (module `simplify`).
    pub(super) fn simplify_root(&mut self) {
        self.simplifier
            .simplify_root(&mut self.trail, &mut self.db, self.stats.propagations);
    }

    /// Failed-literal probing at the root (module `probe`); `false` on a root conflict.
    pub(super) fn probe_root(&mut self, deadline: &Deadline) -> bool {
        probe_root(
            &self.formula.original,
            deadline,
            &mut self.trail,
            &mut self.db,
            &mut self.vsids,
            &mut self.analysis,
            &mut self.stats,
        )
    }

    /// Whether another member has answered, or another thread interrupts the solve.
    pub(super) fn stopped(&self) -> bool {
        [&self.limits.stop, &self.limits.interrupt]
            .into_iter()
            .flatten()
            .any(|flag| flag.load(Ordering::Relaxed))
    }

    /// One search episode, up to a restart or an end.
    fn search(&mut self, assumptions: &[Lit], deadline: &Deadline) -> Search {
        let mut conflicts_here = 0u64;
        let mut until_clock = CLOCK_INTERVAL;
        loop {
            let propagated = self.theory.propagate_all(
                &mut self.trail,
                &mut self.db,
                &mut self.vsids,
                &mut self.analysis,
                &mut self.stats,
            );
            let conflict = match propagated {
                Native::Conflict(conflict) => Some(conflict),
                Native::Refuted => return Search::Unsat,
                _ => None,
            };
            if let Some(conflict) = conflict {
                self.stats.conflicts += 1;
                conflicts_here += 1;
                if self.trail.decision_level() == 0 {
                    return Search::Unsat;
                }
                let (backjump, lbd) = self.analysis.analyze(
                    conflict,
                    &self.trail,
                    &mut self.db,
                    &mut self.vsids,
                    self.stats.conflicts,
                );
                let safe = self.trail.trail_lim[self.trail.decision_level() as usize - 1] as usize;
                self.modes.update_target_and_best(&self.trail.lits[..safe]);
                self.cancel_until(backjump);
                self.analysis
                    .learn(lbd, &mut self.trail, &mut self.db, &mut self.stats);
                self.vsids.decay();
                self.modes.learnt(lbd);
            } else {
                let conflicts = self.stats.conflicts;
                if self
                    .modes
                    .restart_due(conflicts, conflicts_here, self.limits.fork_by)
                {
                    self.modes.update_target_and_best(&self.trail.lits);
                    self.cancel_until(0);
                    self.modes
                        .between_restarts(conflicts, &mut self.vsids.phase);
                    return Search::Restart;
                }
                self.reduce
                    .reduce_if_due(conflicts, &mut self.db, &self.trail, &mut self.stats);
                let next = match next_assumption(
                    assumptions,
                    &mut self.trail,
                    &mut self.db,
                    &mut self.analysis.marks,
                    &mut self.failed,
                ) {
                    Assumed::Failed => return Search::UnsatUnderAssumptions,
                    Assumed::Next(p) => Some(p),
                    Assumed::AllHold => None,
                };
                let lit = match next {
                    Some(lit) => lit,
                    // Everything assigned without a conflict: a model. Checked before the
                    // heap, which would otherwise be drained one pop per assigned variable
                    // (most of a 9×9 solve that propagation settles).
                    None if self.trail.lits.len() == self.trail.num_vars => {
                        if !self.theory.accepts_model(&mut self.trail) {
                            continue;
                        }
                        return Search::Sat;
                    }
                    None => match self.theory.decision(&mut self.trail).or_else(|| {
                        self.vsids
                            .pick_branch(&self.trail.values, self.modes.branching_phases())
                    }) {
                        Some(lit) => {
                            self.stats.decisions += 1;
                            lit
                        }
                        None if !self.theory.accepts_model(&mut self.trail) => continue,
                        None => return Search::Sat,
                    },
                };
                self.trail.new_decision_level();
                self.trail.assign(lit, NO_REASON);
            }
            until_clock -= 1;
            if until_clock == 0 {
                until_clock = CLOCK_INTERVAL;
                crate::run::report_progress(|| self.stats.progress());
                if deadline.expired() || self.stopped() {
                    return Search::TimedOut;
                }
            } else if until_clock % STOP_INTERVAL == 0
                && self
                    .limits
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                // Another member answered: a race on small formulas waits for this.
                return Search::TimedOut;
            }
        }
    }

    /// Searches until an answer, the deadline, another portfolio member's answer or the
    /// fork.
    pub(super) fn run(&mut self, assumptions: &[Lit], deadline: &Deadline) -> Ended {
        loop {
            match self.search(assumptions, deadline) {
                Search::Restart => {
                    self.stats.restarts += 1;
                    // Simplify only between search episodes: a puzzle settled without a
                    // restart never pays for the pass over every clause.
                    if self
                        .simplifier
                        .due(&self.trail, &self.db, self.stats.propagations)
                    {
                        self.simplify_root();
                    }
                    if self.equivalences.due(self.stats.conflicts)
                        && self.may_substitute(assumptions)
                        && !self.substitute(deadline)
                    {
                        return Ended::Unsat;
                    }
                    if self.stats.conflicts >= self.limits.fork_at {
                        return Ended::Fork;
                    }
                }
                Search::Sat => return Ended::Sat,
                Search::Unsat => {
                    self.formula.refuted(&mut self.db);
                    return Ended::Unsat;
                }
                Search::UnsatUnderAssumptions => {
                    self.cancel_until(0);
                    return Ended::UnsatUnderAssumptions;
                }
                Search::TimedOut => {
                    self.cancel_until(0);
                    return Ended::TimedOut;
                }
            }
            if deadline.expired() || self.stopped() {
                return Ended::TimedOut;
            }
        }
    }
}
