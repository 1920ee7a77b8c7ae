//! Conflict analysis: the first unique implication point (Marques-Silva & Sakallah 1999,
//! "GRASP: A search algorithm for propositional satisfiability", IEEE Trans. Computers
//! 48(5); Moskewicz et al. 2001, Chaff), the learnt clause minimised (module `minimize`)
//! and, where enabled, shrunk (module `shrink`), non-chronological backjumping to the
//! second-highest level, and the clause rated by its literal block distance (LBD, the
//! number of decision levels among its literals; Audemard & Simon 2009, "Predicting
//! learnt clauses quality in modern SAT solvers", IJCAI).

use super::clauses::ClauseDb;
use super::decide::Vsids;
use super::minimize::Marks;
use super::options::BINARY_MINIMIZE_MAX;
use super::propagate::Conflict;
use super::shrink::Shrinking;
use super::stats::Stats;
use super::trail::{Trail, BINARY_REASON, NO_REASON};
use crate::formula::Lit;

/// Conflict analysis's buffers and marks.
#[derive(Clone, Default)]
pub(super) struct Analysis {
    /// The clause being learnt: asserting literal first, a literal of the backjump level
    /// second.
    pub(super) learnt: Vec<Lit>,
    /// The literals of the reason being resolved.
    antecedent: Vec<Lit>,
    /// Per decision level: stamp for counting LBDs.
    level_stamp: Vec<u64>,
    stamp: u64,
    pub(super) marks: Marks,
    pub(super) shrinking: Shrinking,
}

impl Analysis {
    /// Makes room for `num_vars` variables.
    pub(super) fn grow(&mut self, num_vars: usize) {
        self.marks.seen.resize(num_vars, 0);
        self.shrinking.mark.resize(num_vars, 0);
    }

    /// First-UIP analysis of `conflict` (number `conflicts`) into `self.learnt`
    /// (asserting literal first, a literal of the backjump level second), bumping every
    /// variable seen; returns the backjump level and the LBD.
    pub(super) fn analyze(
        &mut self,
        conflict: Conflict,
        trail: &Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
        conflicts: u64,
    ) -> (u32, u32) {
        let mut antecedent = std::mem::take(&mut self.antecedent);
        antecedent.clear();
        match conflict {
            Conflict::Binary(a, b) => antecedent.extend([a, b]),
            Conflict::Clause(c) => {
                db.mark_used(c);
                db.lits_of(c, &mut antecedent);
            }
        }
        let Analysis {
            learnt,
            marks,
            shrinking,
            ..
        } = self;
        learnt.clear();
        learnt.push(Lit::from_code(0));
        let current = trail.decision_level();
        let mut path = 0usize;
        let mut index = trail.lits.len();
        let asserting = loop {
            for &q in &antecedent {
                let v = q.var().index();
                if marks.seen[v] == 0 && trail.level[v] > 0 {
                    vsids.bump(v);
                    marks.seen[v] = 1;
                    if trail.level[v] >= current {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            let p = loop {
                index -= 1;
                let p = trail.lits[index];
                if marks.seen[p.var().index()] != 0 {
                    break p;
                }
            };
            let v = p.var().index();
            marks.seen[v] = 0;
            path -= 1;
            if path == 0 {
                break p;
            }
            let reason = trail.reason[v];
            db.reason_lits(reason, &mut antecedent);
        };
        learnt[0] = !asserting;

        let abstract_levels = marks.minimize(learnt, trail, db);
        if learnt.len() > 2 && shrinking.worth_trying(conflicts) {
            shrinking.shrink(learnt, abstract_levels, trail, db, marks);
        }
        marks.clear_marks();
        if learnt.len() > 2 && learnt.len() <= BINARY_MINIMIZE_MAX {
            marks.minimize_by_binaries(learnt, trail, db);
        }

        // Backjump level: the highest level among the other literals, put second.
        let mut backjump = 0;
        if learnt.len() > 1 {
            let mut max_i = 1;
            for i in 2..learnt.len() {
                if trail.level[learnt[i].var().index()] > trail.level[learnt[max_i].var().index()] {
                    max_i = i;
                }
            }
            learnt.swap(1, max_i);
            backjump = trail.level[learnt[1].var().index()];
        }
        self.antecedent = antecedent;
        let learnt = std::mem::take(&mut self.learnt);
        let lbd = self.lbd_of(&learnt, trail);
        self.learnt = learnt;
        (backjump, lbd)
    }

    /// The number of distinct decision levels among `lits`.
    pub(super) fn lbd_of(&mut self, lits: &[Lit], trail: &Trail) -> u32 {
        self.stamp += 1;
        let levels = trail.decision_level() as usize + 1;
        if self.level_stamp.len() < levels {
            self.level_stamp.resize(levels, 0);
        }
        let mut lbd = 0;
        for &lit in lits {
            let l = trail.level[lit.var().index()] as usize;
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                lbd += 1;
            }
        }
        lbd
    }

    /// Learns `self.learnt` after backjumping: logs it, adds it, asserts its first literal.
    pub(super) fn learn(
        &mut self,
        lbd: u32,
        trail: &mut Trail,
        db: &mut ClauseDb,
        stats: &mut Stats,
    ) {
        stats.learnt += 1;
        db.proof.add(&self.learnt);
        let learnt = &self.learnt;
        match learnt.len() {
            1 => trail.assign(learnt[0], NO_REASON),
            2 => {
                db.add_binary(learnt[0], learnt[1]);
                trail.assign(learnt[0], BINARY_REASON | learnt[1].code() as u32);
            }
            _ => {
                let c = db.attach_new(learnt, true, lbd);
                trail.assign(learnt[0], c);
            }
        }
    }

    /// A copy for another thread: the marks and counters, not the buffers.
    pub(super) fn fork(&self) -> Analysis {
        Analysis {
            learnt: Vec::new(),
            antecedent: Vec::new(),
            level_stamp: self.level_stamp.clone(),
            stamp: self.stamp,
            marks: self.marks.fork(),
            shrinking: self.shrinking.clone(),
        }
    }
}
