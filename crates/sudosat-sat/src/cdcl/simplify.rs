//! Root simplification: at restarts, once new root units exist, satisfied clauses are
//! removed and false literals struck out (MiniSat's `simplify`, Eén & Sörensson 2003, "An
//! extensible SAT-solver", SAT, run when as many propagations as the arena has words came
//! since the last pass, its `simpDB_props`); the arena is compacted and watches rebuilt.

use super::clauses::{ClauseDb, DELETED};
use super::trail::{Trail, NO_REASON, TRUE, UNSET};

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
        let mut strengthened = Vec::new();
        let kept = db.retain_live(|db, c, lits| {
            if lits.iter().any(|&l| trail.value(l) == TRUE) {
                // A root reason needs no clause any more: its variable is fixed.
                if !db.is_locked(c, trail) {
                    db.proof.delete(lits);
                }
                db.arena[c as usize + 1] |= DELETED;
                return false;
            }
            strengthened.clear();
            strengthened.extend(lits.iter().filter(|&&l| trail.value(l) == UNSET));
            if strengthened.len() == lits.len() {
                return true;
            }
            if strengthened.len() == 2 {
                db.proof.add(&strengthened);
                db.proof.delete(lits);
                db.arena[c as usize + 1] |= DELETED;
                db.add_binary(strengthened[0], strengthened[1]);
                return false;
            }
            db.replace_lits(c, lits, &strengthened);
            true
        });
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
