//! Learnt-clause database reduction: clauses rated by their literal block distance (LBD;
//! Audemard & Simon 2009, "Predicting learnt clauses quality in modern SAT solvers",
//! IJCAI); "glue" clauses (LBD ≤ [`GLUE_LBD`]) are kept for good, half of the others are
//! dropped every [`FIRST_REDUCE`] + [`REDUCE_INCREMENT`]·k conflicts unless used since the
//! last reduction.

use super::clauses::{ClauseDb, DELETED, LBD_SHIFT, USED};
use super::options::{FIRST_REDUCE, GLUE_LBD, REDUCE_INCREMENT, REDUCE_SHARE};
use super::stats::Stats;
use super::trail::Trail;

/// When the next reduction comes.
#[derive(Clone, Default)]
pub(super) struct ReduceSchedule {
    /// Conflicts at which the next reduction is due.
    pub(super) next_reduce: u64,
    /// Conflicts between the last reduction and the next.
    pub(super) reduce_interval: u64,
}

impl ReduceSchedule {
    /// The schedule of a fresh solver.
    pub(super) fn new() -> ReduceSchedule {
        ReduceSchedule {
            next_reduce: FIRST_REDUCE,
            reduce_interval: FIRST_REDUCE,
        }
    }

    /// Reduces the learnt clauses when `conflicts` reached the next reduction.
    pub(super) fn reduce_if_due(
        &mut self,
        conflicts: u64,
        db: &mut ClauseDb,
        trail: &Trail,
        stats: &mut Stats,
    ) {
        if conflicts >= self.next_reduce {
            self.reduce_interval += REDUCE_INCREMENT;
            self.next_reduce = conflicts + self.reduce_interval;
            reduce_db(db, trail, stats);
        }
    }
}

/// Drops the less useful half of the learnt clauses rated above "glue".
pub(super) fn reduce_db(db: &mut ClauseDb, trail: &Trail, stats: &mut Stats) {
    let mut candidates: Vec<(u32, u32, u32)> = Vec::new(); // (lbd, len, clause)
    let mut learnts = std::mem::take(&mut db.learnts);
    for &c in &learnts {
        let meta = db.arena[c as usize + 1];
        let lbd = meta >> LBD_SHIFT;
        if lbd > GLUE_LBD && !db.is_locked(c, trail) {
            candidates.push((lbd, db.clause_len(c) as u32, c));
        }
    }
    candidates.sort_unstable_by_key(|&(lbd, len, _)| std::cmp::Reverse((lbd, len)));
    let mut removed = 0;
    for &(_, _, c) in &candidates[..candidates.len() / REDUCE_SHARE] {
        let meta = &mut db.arena[c as usize + 1];
        if *meta & USED != 0 {
            *meta &= !USED;
            continue;
        }
        db.delete_clause(c);
        stats.deleted += 1;
        removed += 1;
    }
    for &(_, _, c) in &candidates[candidates.len() / REDUCE_SHARE..] {
        db.arena[c as usize + 1] &= !USED;
    }
    if removed > 0 {
        learnts.retain(|&c| db.arena[c as usize + 1] & DELETED == 0);
    }
    db.learnts = learnts;
}

/// Drops every learnt clause above "glue" that is no reason (between the queries of a
/// batch: those learnt on one puzzle rarely serve the next but slow its propagation).
pub(super) fn forget_above_glue(db: &mut ClauseDb, trail: &Trail, stats: &mut Stats) {
    let mut learnts = std::mem::take(&mut db.learnts);
    // (The list holds no deleted clause: reductions and compactions prune it.)
    learnts.retain(|&c| {
        if db.lbd(c) <= GLUE_LBD || db.is_locked(c, trail) {
            return true;
        }
        db.delete_clause(c);
        stats.deleted += 1;
        false
    });
    db.learnts = learnts;
}
