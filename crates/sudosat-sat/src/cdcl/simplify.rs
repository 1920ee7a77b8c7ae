//! Root simplification: at restarts, once new root units exist, satisfied clauses are
//! removed and false literals struck out (MiniSat's `simplify`, Eén & Sörensson 2003, "An
//! extensible SAT-solver", SAT, run when as many propagations as the arena has words came
//! since the last pass, its `simpDB_props`); the arena is compacted and watches rebuilt.

use super::clauses::{ClauseDb, DELETED, FIRST_UNWATCHED, HEADER, SEARCH_POS};
use super::trail::{Trail, NO_REASON, TRUE, UNSET};
use crate::formula::Lit;

/// When root simplification runs next.
#[derive(Clone, Default)]
pub(super) struct RootSimplifier {
    /// Root trail length at the last simplification.
    pub(super) simplified_root: usize,
    /// Propagations before the next root simplification may run: a pass costs about the
    /// arena's size, so it waits for as many propagations (MiniSat's `simpDB_props`).
    pub(super) next_simplify: u64,
}

impl RootSimplifier {
    /// Whether a pass pays between two search episodes: new root units and enough
    /// propagations since the last one, or an arena much of which is garbage.
    pub(super) fn due(&self, trail: &Trail, db: &ClauseDb, propagations: u64) -> bool {
        trail.lits.len() > self.simplified_root && propagations >= self.next_simplify
            || db.too_much_garbage()
    }

    /// At the root after propagation (`propagations` so far): removes satisfied clauses,
    /// strikes false literals, compacts the arena and rebuilds the watches.
    pub(super) fn simplify_root(
        &mut self,
        trail: &mut Trail,
        db: &mut ClauseDb,
        propagations: u64,
    ) {
        debug_assert_eq!(trail.decision_level(), 0);
        let mut lits = Vec::new();
        let mut kept = Vec::new();
        for list in [
            std::mem::take(&mut db.originals),
            std::mem::take(&mut db.learnts),
        ] {
            for c in list {
                let ci = c as usize;
                if db.arena[ci + 1] & DELETED != 0 {
                    continue;
                }
                db.lits_of(c, &mut lits);
                if lits.iter().any(|&l| trail.value(l) == TRUE) {
                    // A root reason needs no clause any more: its variable is fixed.
                    if !db.is_locked(c, trail) {
                        db.proof.delete(&lits);
                    }
                    db.arena[ci + 1] |= DELETED;
                    continue;
                }
                let before = lits.len();
                lits.retain(|&l| trail.value(l) == UNSET);
                if lits.len() < before {
                    if db.proof.is_on() {
                        db.proof.add(&lits);
                        let mut old = Vec::new();
                        old.extend(
                            db.arena[ci + HEADER..ci + HEADER + before]
                                .iter()
                                .map(|&code| Lit::from_code(code as usize)),
                        );
                        db.proof.delete(&old);
                    }
                    if lits.len() == 2 {
                        db.arena[ci + 1] |= DELETED;
                        db.add_binary(lits[0], lits[1]);
                        continue;
                    }
                    db.arena[ci] = lits.len() as u32;
                    db.arena[ci + SEARCH_POS] = FIRST_UNWATCHED as u32;
                    for (k, l) in lits.iter().enumerate() {
                        db.arena[ci + HEADER + k] = l.code() as u32;
                    }
                }
                kept.push(c);
            }
            kept.push(u32::MAX); // separates originals from learnts
        }
        // Root variables need no reasons: their clauses may move or go.
        for &lit in &trail.lits {
            trail.reason[lit.var().index()] = NO_REASON;
        }
        db.compact(kept);
        // Binary clauses with an assigned literal are satisfied at the root.
        for code in 0..2 * trail.num_vars {
            if trail.values[code] != UNSET {
                db.lists[code].binaries.clear();
            } else {
                let values = &trail.values;
                db.lists[code]
                    .binaries
                    .retain(|l| values[l.code()] == UNSET);
            }
        }
        self.simplified_root = trail.lits.len();
        self.next_simplify = propagations + db.arena.len() as u64;
    }
}
