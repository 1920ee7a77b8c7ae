//! Learnt-clause shrinking (Feng & Bacchus 2020, "Clause size reduction with all-UIP
//! learning", SAT; CaDiCaL's `shrink`): a level's literals replaced by their UIP. On
//! formulas of the extended and augmented Sudoku encodings, and in the odd members of a
//! portfolio on any formula. On one thread that took 25–32 % less CPU on gecode 25×25
//! draws but up to 240× more conflicts on sparse 16×16 puzzles in the minimal encoding,
//! where it stays off (docs/history.md, "The CDCL search").

use super::clauses::ClauseDb;
use super::minimize::{abstract_level, Marks, POISONED, REMOVABLE};
use super::options::SHRINK_SAMPLE;
use super::trail::{Trail, NO_REASON};
use crate::formula::Lit;

/// Learnt-clause shrinking's state.
#[derive(Clone, Default)]
pub(super) struct Shrinking {
    /// Whether learnt clauses are shrunk: on the extended and augmented Sudoku encodings
    /// and in odd portfolio members; not on the minimal encoding nor, on one thread, on a
    /// formula of unknown origin.
    pub(super) enabled: bool,
    /// Per variable: the round (one per level tried) that marked it.
    pub(super) mark: Vec<u32>,
    round: u32,
    antecedents: Vec<Lit>,
    /// Levels tried, levels replaced by their UIP, and literals removed.
    pub(super) tries: u64,
    pub(super) wins: u64,
    pub(super) removed: u64,
}

impl Shrinking {
    /// Whether to shrink the clause of conflict number `conflicts`: always while at least
    /// one level in [`SHRINK_SAMPLE`] shrinks (Sudoku: about one in five), otherwise every
    /// [`SHRINK_SAMPLE`]-th conflict (random 3-SAT: one in twenty-odd, where the walks
    /// would cost about 5 % of the time).
    #[inline]
    pub(super) fn worth_trying(&self, conflicts: u64) -> bool {
        self.enabled && (self.wins * SHRINK_SAMPLE >= self.tries || conflicts % SHRINK_SAMPLE == 0)
    }

    /// A fresh mark for one level's walk.
    fn next_round(&mut self) -> u32 {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.mark.fill(0);
            self.round = 1;
        }
        self.round
    }

    /// Shrinks the minimised learnt clause (Feng & Bacchus 2020, "Clause size reduction
    /// with all-UIP learning", SAT; CaDiCaL's `shrink`): the literals of one decision level
    /// are replaced by that level's unique implication point with respect to them, when
    /// the walk back along their reasons meets, below that level, only literals of the
    /// clause or literals the clause implies. The LBD stays; the clause gets shorter. The
    /// result is RUP: the UIP gives back the level's literals by unit propagation.
    pub(super) fn shrink(
        &mut self,
        lits: &mut Vec<Lit>,
        abstract_levels: u32,
        trail: &Trail,
        db: &mut ClauseDb,
        marks: &mut Marks,
    ) {
        let level = &trail.level;
        lits[1..].sort_unstable_by_key(|l| std::cmp::Reverse(level[l.var().index()]));
        let mut out = 1;
        let mut i = 1;
        while i < lits.len() {
            let block_level = trail.level[lits[i].var().index()];
            let mut j = i + 1;
            while j < lits.len() && trail.level[lits[j].var().index()] == block_level {
                j += 1;
            }
            let uip = if j - i >= 2 {
                self.tries += 1;
                self.block_uip(&lits[i..j], block_level, abstract_levels, trail, db, marks)
            } else {
                None
            };
            if let Some(uip) = uip {
                self.wins += 1;
                self.removed += (j - i - 1) as u64;
                lits[out] = !uip;
                out += 1;
            } else {
                lits.copy_within(i..j, out);
                out += j - i;
            }
            i = j;
        }
        lits.truncate(out);
    }

    /// The last literal of `block_level` on the trail through which every path from the
    /// level's decision to the `block` literals goes, when their reasons lean below that
    /// level only on literals of the clause or implied by it (marked in `seen`).
    fn block_uip(
        &mut self,
        block: &[Lit],
        block_level: u32,
        abstract_levels: u32,
        trail: &Trail,
        db: &mut ClauseDb,
        marks: &mut Marks,
    ) -> Option<Lit> {
        let round = self.next_round();
        for &lit in block {
            self.mark[lit.var().index()] = round;
        }
        let mut open = block.len();
        let start = trail.trail_lim[block_level as usize - 1] as usize;
        let mut index = trail.trail_lim[block_level as usize] as usize;
        let mut antecedents = std::mem::take(&mut self.antecedents);
        let mut uip = None;
        'walk: while index > start {
            index -= 1;
            let t = trail.lits[index];
            let v = t.var().index();
            if self.mark[v] != round {
                continue;
            }
            open -= 1;
            if open == 0 {
                uip = Some(t);
                break;
            }
            let reason = trail.reason[v];
            if reason == NO_REASON {
                break;
            }
            db.reason_lits(reason, &mut antecedents);
            for &l in &antecedents {
                let u = l.var().index();
                let lu = trail.level[u];
                if lu == block_level {
                    if self.mark[u] != round {
                        self.mark[u] = round;
                        open += 1;
                    }
                } else if lu > 0 {
                    match marks.seen[u] {
                        POISONED => break 'walk,
                        0 => {
                            let implied = trail.reason[u] != NO_REASON
                                && abstract_level(&trail.level, u) & abstract_levels != 0
                                && marks.redundant(l, abstract_levels, trail, db);
                            if !implied {
                                marks.poison(u);
                                break 'walk;
                            }
                            marks.seen[u] = REMOVABLE;
                            marks.to_clear.push(l);
                        }
                        _ => {}
                    }
                }
            }
        }
        self.antecedents = antecedents;
        uip
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdcl::trail::BINARY_REASON;
    use crate::formula::Var;

    /// The parts shrinking reads, for five variables.
    struct Parts {
        shrinking: Shrinking,
        trail: Trail,
        db: ClauseDb,
        marks: Marks,
    }

    impl Parts {
        fn new() -> Parts {
            let mut parts = Parts {
                shrinking: Shrinking::default(),
                trail: Trail::default(),
                db: ClauseDb::default(),
                marks: Marks::default(),
            };
            parts.shrinking.mark.resize(5, 0);
            parts.trail.grow(5);
            parts.db.grow(5);
            parts.marks.seen.resize(5, 0);
            parts
        }

        /// Shrinks `learnt` as conflict analysis would: its literals marked, then cleared.
        fn shrunk(&mut self, learnt: &[Lit]) -> Vec<Lit> {
            let mut lits = learnt.to_vec();
            self.marks.to_clear = learnt.to_vec();
            for lit in learnt {
                self.marks.seen[lit.var().index()] = REMOVABLE;
            }
            let levels = learnt[1..].iter().fold(0, |acc, l| {
                acc | abstract_level(&self.trail.level, l.var().index())
            });
            self.shrinking.shrink(
                &mut lits,
                levels,
                &self.trail,
                &mut self.db,
                &mut self.marks,
            );
            for lit in std::mem::take(&mut self.marks.to_clear) {
                self.marks.seen[lit.var().index()] = 0;
            }
            lits
        }
    }

    #[test]
    fn shrinking_replaces_a_levels_literals_by_their_uip_when_nothing_else_is_needed() {
        let [c, d, p, q, e] = [0, 1, 2, 3, 4].map(|i| Var::from_index(i).positive());
        let mut parts = Parts::new();
        let trail = &mut parts.trail;
        // Level 1: c. Level 2: d, then p by (¬d ∨ p) and q by (q ∨ ¬d ∨ ¬c). Level 3: e.
        trail.new_decision_level();
        trail.assign(c, NO_REASON);
        trail.new_decision_level();
        trail.assign(d, NO_REASON);
        trail.assign(p, BINARY_REASON | (!d).code() as u32);
        let reason = parts.db.attach_new(&[q, !d, !c], false, 0);
        trail.assign(q, reason);
        trail.new_decision_level();
        trail.assign(e, NO_REASON);
        // With ¬c in the clause, d is the UIP of {¬p, ¬q}: (¬e ∨ ¬d ∨ ¬c), RUP because d
        // gives back p and q.
        assert_eq!(parts.shrunk(&[!e, !p, !q, !c]), vec![!e, !d, !c]);
        assert_eq!(parts.shrinking.removed, 1);
        // Without it, q leans on c, which nothing in the clause implies: no change.
        assert_eq!(parts.shrunk(&[!e, !q, !p]), vec![!e, !q, !p]);
        assert_eq!(parts.shrinking.removed, 1);
        assert!(
            parts.marks.seen.iter().all(|&mark| mark == 0),
            "marks left behind"
        );
    }
}
