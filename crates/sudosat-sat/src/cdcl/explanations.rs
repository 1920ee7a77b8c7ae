//! The reasons of a theory's implications, kept beside the clause database rather than in
//! it: conflict analysis reads them like clauses, but nothing watches them and nothing has
//! to delete them. An explanation lives while its literal stays assigned by it; the store
//! is a stack in trail order, so dead ones (undone by a backtrack) are always on top and
//! go before the next one is pushed. A reason that became a learnt clause instead would
//! cost a watch per literal and a later deletion for every implication, the price the
//! eager scheme of lazy clause generation pays (Ohrimenko, Stuckey & Codish 2009,
//! "Propagation via lazy clause generation", Constraints 14; Chuffed keeps reasons off the
//! database in the same way).

use super::trail::Trail;
use crate::formula::Lit;

/// `reason[v] = EXPLAINED | start`: implied by the theory, with its explanation at `start`
/// in [`Explanations`]. Above every binary reason (whose literal codes stay below 2³⁰)
/// and below [`NO_REASON`](super::trail::NO_REASON).
pub(super) const EXPLAINED: u32 = 0b11 << 30;

/// The largest start an explanation can have.
const MAX_START: usize = (1 << 30) - 2;

/// Explanations laid end to end: `[trail position, length, implied literal, others…]`.
#[derive(Clone, Default)]
pub(super) struct Explanations {
    words: Vec<u32>,
    /// Where each explanation starts, oldest first.
    starts: Vec<u32>,
}

impl Explanations {
    /// Keeps `clause` (its implied literal first, about to be assigned next on `trail`)
    /// and returns the reason to assign it with; `None` when the store is full.
    pub(super) fn push(&mut self, clause: &[Lit], trail: &Trail) -> Option<u32> {
        self.drop_dead(trail);
        let start = self.words.len();
        if start > MAX_START {
            return None;
        }
        self.starts.push(start as u32);
        self.words.push(trail.lits.len() as u32);
        self.words.push(clause.len() as u32);
        self.words.extend(clause.iter().map(|l| l.code() as u32));
        Some(EXPLAINED | start as u32)
    }

    /// The literals of explanation `reason` other than the one it implied.
    #[inline]
    pub(super) fn others(&self, reason: u32) -> &[u32] {
        let start = (reason & !EXPLAINED) as usize;
        let len = self.words[start + 1] as usize;
        &self.words[start + 3..start + 2 + len]
    }

    /// Pops the explanations on top whose literal is no longer assigned by them.
    fn drop_dead(&mut self, trail: &Trail) {
        while let Some(&start) = self.starts.last() {
            let at = start as usize;
            let position = self.words[at] as usize;
            let lit = self.words[at + 2] as usize;
            let live = trail.lits.get(position).is_some_and(|l| l.code() == lit)
                && trail.reason[lit >> 1] == EXPLAINED | start;
            if live {
                break;
            }
            self.words.truncate(at);
            self.starts.pop();
        }
    }

    /// Forgets every explanation (the search starts over).
    pub(super) fn clear(&mut self) {
        self.words.clear();
        self.starts.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::super::trail::NO_REASON;
    use super::*;
    use crate::formula::Var;

    fn lit(v: usize, positive: bool) -> Lit {
        Var::from_index(v).lit(positive)
    }

    #[test]
    fn explanations_undone_by_a_backtrack_go_before_the_next_is_kept() {
        let mut trail = Trail::default();
        trail.grow(4);
        let mut store = Explanations::default();
        trail.assign(lit(0, true), NO_REASON);
        trail.new_decision_level();
        trail.assign(lit(1, true), NO_REASON);
        let reason = store.push(&[lit(2, false), lit(1, false)], &trail).unwrap();
        trail.assign(lit(2, false), reason);
        assert_eq!(store.others(reason), &[lit(1, false).code() as u32]);
        trail.backtrack(0, |_| {});
        let again = store.push(&[lit(3, true), lit(0, false)], &trail).unwrap();
        assert_eq!(again, reason, "the undone explanation's room is reused");
        trail.assign(lit(3, true), again);
        assert_eq!(store.others(again), &[lit(0, false).code() as u32]);
        assert_eq!(store.starts.len(), 1);
    }
}
