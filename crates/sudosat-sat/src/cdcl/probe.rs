//! Failed-literal probing at the root before the search (Freeman 1995, "Improvements to
//! propositional satisfiability search algorithms", PhD thesis; the DPLL's
//! [`Lookahead::Full`](crate::dpll::Lookahead::Full)), where it pays: formulas of
//! more than [`crate::dpll::AUTO_FULL_ABOVE`] variables under
//! [`Lookahead::Auto`](crate::dpll::Lookahead::Auto). On the large Sudoku grids it
//! settles most of the puzzle before any decision.

use super::analyze::Analysis;
use super::clauses::ClauseDb;
use super::decide::{cancel_until, Vsids};
use super::options::{PROBE_CLOCK_INTERVAL, PROBE_MAX_ROUNDS, PROBE_STALL};
use super::propagate::propagate;
use super::stats::Stats;
use super::trail::{Trail, NO_REASON, TRUE, UNSET};
use crate::formula::{Cnf, Lit};
use crate::run::Deadline;

/// Failed-literal probing at the root over the literals of the clauses with a positive
/// literal (on Sudoku: the "at least one" clauses), round after round until a round finds
/// none. Each failure is analysed like a conflict, so the unit learnt is the first UIP
/// (at least as strong as the probed literal's negation). Probing gives up when a run
/// of [`PROBE_STALL`] probes or more without a failure is longer than every probe
/// before it. `false` on a root conflict.
pub(super) fn probe_root(
    original: &Cnf,
    deadline: &Deadline,
    trail: &mut Trail,
    db: &mut ClauseDb,
    vsids: &mut Vsids,
    analysis: &mut Analysis,
    stats: &mut Stats,
) -> bool {
    if propagate(trail, db, stats).is_some() {
        return false;
    }
    let mut candidates: Vec<Lit> = Vec::new();
    let mut marked = vec![false; 2 * trail.num_vars];
    for clause in original.clauses() {
        if clause.len() < 2 || !clause.iter().any(|l| l.is_positive()) {
            continue;
        }
        if clause.iter().any(|&l| trail.values[l.code()] == TRUE) {
            continue;
        }
        for &l in clause {
            if trail.values[l.code()] == UNSET && !marked[l.code()] {
                marked[l.code()] = true;
                candidates.push(l);
            }
        }
    }
    let mut round = 0;
    let (mut probes, mut last_failure) = (0u64, 0u64);
    loop {
        round += 1;
        let mark = trail.lits.len();
        for (i, &lit) in candidates.iter().enumerate() {
            if i % PROBE_CLOCK_INTERVAL == PROBE_CLOCK_INTERVAL - 1 && deadline.expired() {
                return true;
            }
            if trail.value(lit) != UNSET {
                continue;
            }
            let streak = probes - last_failure;
            if streak >= PROBE_STALL && streak > last_failure {
                return true;
            }
            probes += 1;
            stats.probes += 1;
            trail.new_decision_level();
            trail.assign(lit, NO_REASON);
            match propagate(trail, db, stats) {
                None => cancel_until(trail, vsids, 0),
                Some(conflict) => {
                    last_failure = probes;
                    stats.failed_literals += 1;
                    stats.conflicts += 1;
                    let (_, lbd) = analysis.analyze(conflict, trail, db, vsids, stats.conflicts);
                    cancel_until(trail, vsids, 0);
                    analysis.learn(lbd, trail, db, stats);
                    if propagate(trail, db, stats).is_some() {
                        return false;
                    }
                }
            }
        }
        if trail.lits.len() == mark || round >= PROBE_MAX_ROUNDS {
            return true;
        }
        // Probe again only the literals of clauses that lost a literal this round.
        candidates.retain(|&l| trail.values[l.code()] == UNSET);
    }
}
