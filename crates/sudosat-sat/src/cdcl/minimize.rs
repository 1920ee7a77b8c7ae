//! Learnt-clause minimisation: literals implied by the clause's other literals are
//! removed, recursively along their reasons, within the clause's levels (Sörensson &
//! Biere 2009, "Minimizing learned clauses", SAT), with poison marks on the paths that
//! fail (Van Gelder 2009, "Improved conflict-clause minimization leads to improved
//! propositional proof traces"); then the literals `¬m` with a binary clause `(a ∨ m)`, `a`
//! the asserting literal, are struck by resolution (Audemard & Simon's glucose, 2009).

use super::clauses::ClauseDb;
use super::trail::{Trail, NO_REASON, TRUE};
use crate::formula::Lit;

/// Marks of [`Marks::seen`] in clause minimisation: in the learnt clause or implied by it,
/// and shown not implied by it.
pub(super) const REMOVABLE: u8 = 1;
pub(super) const POISONED: u8 = 3;

/// Per-variable marks of conflict analysis and minimisation, and what to clear after.
#[derive(Clone, Default)]
pub(super) struct Marks {
    /// Per variable: marks of conflict analysis.
    pub(super) seen: Vec<u8>,
    /// Literals whose variables carry a mark to clear after the analysis.
    pub(super) to_clear: Vec<Lit>,
    /// Minimisation's depth-first path: (variable, index of its next antecedent literal).
    path: Vec<(u32, u32)>,
}

/// One bit per decision level (modulo 32): a filter of the levels among some literals.
#[inline]
pub(super) fn abstract_level(level: &[u32], v: usize) -> u32 {
    1 << (level[v] & 31)
}

impl Marks {
    /// A copy for another thread: the marks, not the buffers.
    pub(super) fn fork(&self) -> Marks {
        Marks {
            seen: self.seen.clone(),
            to_clear: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Drops from `learnt` (asserting literal first, all marked in `seen`) every literal
    /// implied by the others; answers the abstraction of the clause's levels. The marks
    /// stay for shrinking, listed in `to_clear`.
    pub(super) fn minimize(&mut self, learnt: &mut Vec<Lit>, trail: &Trail, db: &ClauseDb) -> u32 {
        // Drop literals implied by the others (recursively, within the levels of the
        // clause, filtered by an abstraction of those levels).
        self.to_clear.clear();
        self.to_clear.extend_from_slice(learnt);
        let abstract_levels = learnt[1..].iter().fold(0u32, |acc, l| {
            acc | abstract_level(&trail.level, l.var().index())
        });
        let mut kept = 1;
        for i in 1..learnt.len() {
            let lit = learnt[i];
            if trail.reason[lit.var().index()] == NO_REASON
                || !self.redundant(lit, abstract_levels, trail, db)
            {
                learnt[kept] = lit;
                kept += 1;
            }
        }
        learnt.truncate(kept);
        abstract_levels
    }

    /// Clears every mark listed in `to_clear`.
    pub(super) fn clear_marks(&mut self) {
        for i in 0..self.to_clear.len() {
            let v = self.to_clear[i].var().index();
            self.seen[v] = 0;
        }
    }

    /// Strikes from the learnt clause every literal `¬m` with a binary clause `(a ∨ m)`, `a`
    /// the asserting literal: resolving on `m` leaves the clause without it (Audemard &
    /// Simon's glucose, "binary resolution minimisation"). On Sudoku most clauses are
    /// binary, so the learnt clause often holds such a literal.
    pub(super) fn minimize_by_binaries(
        &mut self,
        learnt: &mut Vec<Lit>,
        trail: &Trail,
        db: &ClauseDb,
    ) {
        let asserting = learnt[0];
        for &lit in &learnt[1..] {
            self.seen[lit.var().index()] = 1;
        }
        for &m in &db.lists[asserting.code()].binaries {
            let v = m.var().index();
            if self.seen[v] == 1 && trail.values[m.code()] == TRUE {
                self.seen[v] = 2;
            }
        }
        // Keep the unstruck literals and clear every mark in the same pass.
        let mut kept = 1;
        for i in 1..learnt.len() {
            let lit = learnt[i];
            let v = lit.var().index();
            if self.seen[v] != 2 {
                learnt[kept] = lit;
                kept += 1;
            }
            self.seen[v] = 0;
        }
        learnt.truncate(kept);
    }

    /// Whether `lit` (false, in the learnt clause) is implied by the clause's other literals.
    ///
    /// Depth first along one path of antecedents; a variable shown implied is marked
    /// `REMOVABLE`, and when a path fails, every variable on it is marked `POISONED`, so
    /// that later queries of the same clause stop there instead of exploring it again
    /// (Van Gelder 2009, "Improved conflict-clause minimization leads to improved
    /// propositional proof traces"; MiniSat's later `litRedundant` and CaDiCaL do the
    /// same). On 64×64 grids the implication chains are long, and the repeated failing
    /// explorations were most of conflict analysis.
    pub(super) fn redundant(
        &mut self,
        lit: Lit,
        abstract_levels: u32,
        trail: &Trail,
        db: &ClauseDb,
    ) -> bool {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut v = lit.var().index();
        let mut next = 0usize;
        let result = loop {
            let reason = trail.reason[v];
            let Some(l) = db.antecedent_lit(reason, next) else {
                // Every antecedent of `v` is implied: so is `v`.
                if v != lit.var().index() {
                    self.seen[v] = REMOVABLE;
                    self.to_clear.push(Lit::from_code(2 * v));
                }
                match path.pop() {
                    Some((parent, index)) => {
                        v = parent as usize;
                        next = index as usize;
                        continue;
                    }
                    None => break true,
                }
            };
            next += 1;
            let u = l.var().index();
            let mark = self.seen[u];
            if mark == REMOVABLE || trail.level[u] == 0 {
                continue;
            }
            if mark == POISONED
                || trail.reason[u] == NO_REASON
                || abstract_level(&trail.level, u) & abstract_levels == 0
            {
                // `v` and every variable on the path to it depend on `u`, which is not
                // implied by the clause.
                for &(w, _) in path.iter().skip(1) {
                    self.poison(w as usize);
                }
                if v != lit.var().index() {
                    self.poison(v);
                }
                break false;
            }
            path.push((v as u32, next as u32));
            v = u;
            next = 0;
        };
        self.path = path;
        result
    }

    #[inline]
    pub(super) fn poison(&mut self, v: usize) {
        self.seen[v] = POISONED;
        self.to_clear.push(Lit::from_code(2 * v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Var;

    #[test]
    fn binary_resolution_strikes_literals_implied_through_the_asserting_literal() {
        let (mut trail, mut db, mut marks) =
            (Trail::default(), ClauseDb::default(), Marks::default());
        trail.grow(4);
        db.grow(4);
        marks.seen.resize(4, 0);
        let [a, m, x, y] = [0, 1, 2, 3].map(|i| Var::from_index(i).positive());
        // (a ∨ m) is a clause; m and y are true, x is true: the learnt clause
        // (a ∨ ¬m ∨ ¬x) resolves with it on m to (a ∨ ¬x); ¬y has no such clause.
        db.add_binary(a, m);
        for lit in [m, x, y] {
            trail.assign(lit, NO_REASON);
        }
        let mut learnt = vec![a, !m, !x, !y];
        marks.minimize_by_binaries(&mut learnt, &trail, &db);
        assert_eq!(learnt, vec![a, !x, !y]);
        assert!(
            marks.seen.iter().all(|&mark| mark == 0),
            "marks left behind"
        );
    }
}
