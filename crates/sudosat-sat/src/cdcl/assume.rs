//! Assumptions (MiniSat, Eén & Sörensson 2003, "An extensible SAT-solver", SAT): each one
//! a decision level of its own below the search's decisions, and when one is found false,
//! the final analysis (`analyzeFinal`) naming the assumptions that imply its negation.

use super::clauses::ClauseDb;
use super::minimize::Marks;
use super::trail::{Trail, FALSE, NO_REASON, TRUE};
use crate::formula::Lit;

/// What the assumptions ask of the next decision.
pub(super) enum Assumed {
    /// Decide this assumption next.
    Next(Lit),
    /// Every assumption holds: the search decides.
    AllHold,
    /// An assumption is false: the failed ones are in the list given.
    Failed,
}

/// Opens a decision level per assumption that already holds, up to the first that does
/// not; when that one is false, its final analysis goes into `failed`.
pub(super) fn next_assumption(
    assumptions: &[Lit],
    trail: &mut Trail,
    db: &mut ClauseDb,
    marks: &mut Marks,
    failed: &mut Vec<Lit>,
) -> Assumed {
    while (trail.decision_level() as usize) < assumptions.len() {
        let p = assumptions[trail.decision_level() as usize];
        match trail.value(p) {
            TRUE => trail.new_decision_level(),
            FALSE => {
                analyze_final(p, trail, db, marks, failed);
                return Assumed::Failed;
            }
            _ => return Assumed::Next(p),
        }
    }
    Assumed::AllHold
}

/// After the assumption `p` is found false: the assumptions that imply `¬p`, into
/// `failed` (`p` included).
pub(super) fn analyze_final(
    p: Lit,
    trail: &Trail,
    db: &mut ClauseDb,
    marks: &mut Marks,
    failed: &mut Vec<Lit>,
) {
    failed.clear();
    failed.push(p);
    if trail.decision_level() == 0 {
        return;
    }
    let seen = &mut marks.seen;
    seen[p.var().index()] = 1;
    let start = trail.trail_lim[0] as usize;
    let mut reason_buf = Vec::new();
    for i in (start..trail.lits.len()).rev() {
        let lit = trail.lits[i];
        let v = lit.var().index();
        if seen[v] == 0 {
            continue;
        }
        if trail.reason[v] == NO_REASON {
            // A decision here is an assumption, `¬p` included when both were assumed
            // (leaving it out named a set the formula does not refute).
            failed.push(lit);
        } else {
            db.reason_lits(trail.reason[v], &mut reason_buf);
            for &l in &reason_buf {
                if trail.level[l.var().index()] > 0 {
                    seen[l.var().index()] = 1;
                }
            }
        }
        seen[v] = 0;
    }
    seen[p.var().index()] = 0;
}
