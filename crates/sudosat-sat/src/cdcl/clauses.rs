//! The clause database: binary clauses in per-literal implication lists, longer ones in one
//! flat arena, watched by two of their literals each with a *blocker* literal that skips
//! satisfied clauses without touching the arena (Moskewicz et al. 2001, "Chaff: engineering
//! an efficient SAT solver", DAC; MiniSat's blockers, Eén & Sörensson 2003), and a clause of
//! more than [`SHORT_CLAUSE`](super::options::SHORT_CLAUSE) literals keeping where its last search for a replacement
//! watch stopped (Gent 2013, "Optimal implementation of watched literals and more general
//! techniques", JAIR 48). Additions and deletions are logged in the proof here.

use super::options::GARBAGE_SHARE;
use super::proof::ProofLog;
use super::trail::{Trail, BINARY_REASON, TRUE};
use crate::formula::{try_reserve, try_reserve_exact, Lit, ReserveError};

/// Arena words before a clause's literals: its length, its flags and LBD, then where the
/// last search for a replacement watch stopped.
pub(super) const HEADER: usize = 3;
/// The header word that holds that position.
pub(super) const SEARCH_POS: usize = 2;
/// A clause's first literal that is not watched: where a search for a replacement starts.
pub(super) const FIRST_UNWATCHED: usize = 2;
/// Flag of a learnt clause.
pub(super) const LEARNT: u32 = 1;
/// Flag of a deleted clause, reclaimed by the next compaction.
pub(super) const DELETED: u32 = 2;
/// Seen in a conflict analysis since the last database reduction.
pub(super) const USED: u32 = 4;
/// The flags word holds the LBD above this many flag bits.
pub(super) const LBD_SHIFT: u32 = 3;

/// A long-clause watch: the clause's arena index, and a literal of the clause that, when
/// true, means the clause needs no visit.
#[derive(Clone, Copy)]
pub(super) struct Watch {
    pub(super) clause: u32,
    pub(super) blocker: Lit,
}

/// The clauses to visit when a literal becomes false, side by side so that the two list
/// headers share a cache line: propagating a literal reads both (one miss instead of two;
/// with the 9×9 batch's 1,458 literals the headers alone overflow the L1 cache).
#[derive(Clone, Default)]
pub(super) struct Occurrences {
    /// The literals that must be true when this one becomes false (binary clauses).
    pub(super) binaries: Vec<Lit>,
    /// Long clauses watching this literal.
    pub(super) watches: Vec<Watch>,
}

/// How propagation walks an implication list. Both ways make the same assignments in
/// the same order, so the choice changes no answer and no counter, only the time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum ImplicationWalk {
    /// Every implied literal is written whether it was open or not, with no branch on it:
    /// where many are open (a third in the search of a hard 25×25 Sudoku's reduced
    /// formula), a branch on it is mispredicted often enough to cost more than the writes.
    #[default]
    BranchFree,
    /// A branch skips implied literals already assigned. A query against a held base
    /// (`base::fix_units`) fixes its units in the base's whole formula, where most
    /// implications reach literals those units already assigned: in a 9×9 Sudoku batch
    /// about one in ten assigns, so the branch is well predicted and the writes it saves
    /// pay (docs/benchmarks/nine.md, "Where a 9×9 batch spends its time").
    SkipAssigned,
}

/// The clauses: the arena of long ones, their lists, the per-literal lists, the proof.
#[derive(Default)]
pub(super) struct ClauseDb {
    /// Clauses of three or more literals, flat: `[len, flags, position, lit, lit, …]`.
    pub(super) arena: Vec<u32>,
    /// Arena words of deleted clauses, reclaimed by the next compaction.
    pub(super) garbage: usize,
    /// Live original (long) clauses, by arena index.
    pub(super) originals: Vec<u32>,
    /// Live learnt (long) clauses, by arena index.
    pub(super) learnts: Vec<u32>,
    /// Per literal code, the clauses visited when that literal becomes false.
    pub(super) lists: Vec<Occurrences>,
    /// The proof every addition and deletion is logged in.
    pub(super) proof: ProofLog,
    /// A deleted clause's literals, for the proof.
    proof_lits: Vec<Lit>,
    /// How propagation walks the implication lists.
    pub(super) walk: ImplicationWalk,
}

impl ClauseDb {
    /// Makes room in the lists for `num_vars` variables.
    pub(super) fn grow(&mut self, num_vars: usize) {
        if self.lists.len() < 2 * num_vars {
            self.lists.resize_with(2 * num_vars, Occurrences::default);
        }
    }

    /// Reserves, fallibly, room for `literals` more literals in `clauses` more long clauses
    /// and lists for `vars` more variables.
    pub(super) fn reserve(
        &mut self,
        literals: usize,
        clauses: usize,
        vars: usize,
    ) -> Result<(), ReserveError> {
        try_reserve(
            &mut self.arena,
            literals + HEADER * clauses,
            "the clause arena",
        )?;
        try_reserve(&mut self.lists, 2 * vars, "the watch and implication lists")
    }

    /// Reserves, fallibly and exactly, room in the lists of `num_vars` variables for the
    /// binary clauses among `clauses` and for the watches of the longer ones (on their first
    /// two literals, where [`attach_new`](Self::attach_new) puts them unless the root
    /// shortens the clause). A list grown one push at a time doubles: a 9×9 grid's 1,458
    /// lists took some 3,400 reallocations, a seventh of a one-puzzle run's instructions,
    /// and a list ends with up to twice the room it needs. Only when the variables bring
    /// new lists: those a batch's reset kept have grown to their formulas already, and
    /// counting again cost a re-encoded 9×9 puzzle a seventh more instructions.
    pub(super) fn reserve_lists<'a>(
        &mut self,
        clauses: impl Iterator<Item = &'a [Lit]>,
        num_vars: usize,
    ) -> Result<(), ReserveError> {
        if self.lists.len() >= 2 * num_vars {
            return Ok(());
        }
        let new_lists = 2 * num_vars - self.lists.len();
        try_reserve(
            &mut self.lists,
            new_lists,
            "the watch and implication lists",
        )?;
        self.grow(num_vars);
        let mut counts: Vec<[u32; 2]> = Vec::new();
        try_reserve(&mut counts, 2 * num_vars, "the lists' sizes")?;
        counts.resize(2 * num_vars, [0, 0]);
        for clause in clauses {
            let (a, b, kind) = match *clause {
                [a, b] => (a, b, 0),
                [a, b, _, ..] => (a, b, 1),
                _ => continue,
            };
            counts[a.code()][kind] += 1;
            counts[b.code()][kind] += 1;
        }
        for (list, [binaries, watches]) in self.lists.iter_mut().zip(counts) {
            try_reserve_exact(&mut list.binaries, binaries as usize, "an implication list")?;
            try_reserve_exact(&mut list.watches, watches as usize, "a watch list")?;
        }
        Ok(())
    }

    /// Forgets every clause of the first `codes` literal codes' lists (the proof stays).
    pub(super) fn clear(&mut self, codes: usize) {
        for list in &mut self.lists[..codes] {
            list.watches.clear();
            list.binaries.clear();
        }
        self.arena.clear();
        self.garbage = 0;
        self.originals.clear();
        self.learnts.clear();
        self.walk = ImplicationWalk::default();
    }

    #[inline]
    pub(super) fn clause_len(&self, c: u32) -> usize {
        self.arena[c as usize] as usize
    }

    #[inline]
    pub(super) fn clause_lits(&self, c: u32) -> &[u32] {
        let c = c as usize;
        &self.arena[c + HEADER..c + HEADER + self.arena[c] as usize]
    }

    #[inline]
    pub(super) fn lits_of(&self, c: u32, out: &mut Vec<Lit>) {
        out.clear();
        out.extend(
            self.clause_lits(c)
                .iter()
                .map(|&code| Lit::from_code(code as usize)),
        );
    }

    /// The LBD a clause was rated.
    #[inline]
    pub(super) fn lbd(&self, c: u32) -> u32 {
        self.arena[c as usize + 1] >> LBD_SHIFT
    }

    /// Marks a learnt clause used since the last reduction.
    #[inline]
    pub(super) fn mark_used(&mut self, c: u32) {
        if self.arena[c as usize + 1] & LEARNT != 0 {
            self.arena[c as usize + 1] |= USED;
        }
    }

    /// Whether enough of the arena is garbage to compact it ([`GARBAGE_SHARE`]).
    #[inline]
    pub(super) fn too_much_garbage(&self) -> bool {
        self.garbage > self.arena.len() / GARBAGE_SHARE
    }

    /// Adds a long clause to the arena and watches its first two literals.
    pub(super) fn attach_new(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let c = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena
            .push(if learnt { LEARNT } else { 0 } | lbd.min(1 << 20) << LBD_SHIFT);
        self.arena.push(FIRST_UNWATCHED as u32);
        self.arena.extend(lits.iter().map(|l| l.code() as u32));
        self.watch(c);
        if learnt {
            self.learnts.push(c);
        } else {
            self.originals.push(c);
        }
        c
    }

    /// Watches the first two literals of clause `c`.
    #[inline]
    pub(super) fn watch(&mut self, c: u32) {
        let lits = self.clause_lits(c);
        let (a, b) = (
            Lit::from_code(lits[0] as usize),
            Lit::from_code(lits[1] as usize),
        );
        self.lists[a.code()].watches.push(Watch {
            clause: c,
            blocker: b,
        });
        self.lists[b.code()].watches.push(Watch {
            clause: c,
            blocker: a,
        });
    }

    /// Drops the second and later copies of each binary clause from the first `codes`
    /// literal codes' implication lists, keeping the first copies in their order.
    pub(super) fn drop_duplicate_binaries(&mut self, codes: usize) {
        let mut seen = vec![u32::MAX; codes];
        for (code, list) in self.lists[..codes].iter_mut().enumerate() {
            list.binaries.retain(|other| {
                std::mem::replace(&mut seen[other.code()], code as u32) != code as u32
            });
        }
    }

    #[inline]
    pub(super) fn add_binary(&mut self, a: Lit, b: Lit) {
        self.lists[a.code()].binaries.push(b);
        self.lists[b.code()].binaries.push(a);
    }

    /// The literals of `reason` other than the one it implied, into `out`; a learnt
    /// clause read as a reason counts as used.
    #[inline]
    pub(super) fn reason_lits(&mut self, reason: u32, out: &mut Vec<Lit>) {
        out.clear();
        if reason & BINARY_REASON != 0 {
            out.push(Lit::from_code((reason & !BINARY_REASON) as usize));
        } else {
            let c = reason as usize;
            if self.arena[c + 1] & LEARNT != 0 {
                self.arena[c + 1] |= USED;
            }
            let len = self.arena[c] as usize;
            out.extend(
                self.arena[c + HEADER + 1..c + HEADER + len]
                    .iter()
                    .map(|&code| Lit::from_code(code as usize)),
            );
        }
    }

    /// The `index`-th literal of `reason` other than the one it implied, if any. Reading a
    /// reason here does not mark it used: minimisation is no use of a clause that keeps it
    /// in the database (as in MiniSat and CaDiCaL; 48 gecode draws measured the same
    /// either way, docs/history.md, "The CDCL search").
    #[inline]
    pub(super) fn antecedent_lit(&self, reason: u32, index: usize) -> Option<Lit> {
        if reason & BINARY_REASON != 0 {
            return (index == 0).then(|| Lit::from_code((reason & !BINARY_REASON) as usize));
        }
        let c = reason as usize;
        let len = self.arena[c] as usize;
        (index + 1 < len).then(|| Lit::from_code(self.arena[c + HEADER + 1 + index] as usize))
    }

    /// Whether clause `c` is the reason of its first literal's assignment.
    #[inline]
    pub(super) fn is_locked(&self, c: u32, trail: &Trail) -> bool {
        let first = self.arena[c as usize + HEADER] as usize;
        trail.values[first] == TRUE && trail.reason[first >> 1] == c
    }

    /// Marks clause `c` deleted (its words garbage) and logs the deletion.
    pub(super) fn delete_clause(&mut self, c: u32) {
        let ci = c as usize;
        self.arena[ci + 1] |= DELETED;
        self.garbage += HEADER + self.arena[ci] as usize;
        if self.proof.is_on() {
            let mut lits = std::mem::take(&mut self.proof_lits);
            self.lits_of(c, &mut lits);
            self.proof.delete(&lits);
            self.proof_lits = lits;
        }
    }

    /// Visits every live long clause, originals then learnts, with its literals; `visit`
    /// answers whether the clause stays. Returns the kept ones in the form
    /// [`ClauseDb::compact`] takes: the walk of a pass that rewrites clauses, then compacts.
    pub(super) fn retain_live(
        &mut self,
        mut visit: impl FnMut(&mut ClauseDb, u32, &[Lit]) -> bool,
    ) -> Vec<u32> {
        let mut lits = Vec::new();
        let mut kept = Vec::new();
        for list in [
            std::mem::take(&mut self.originals),
            std::mem::take(&mut self.learnts),
        ] {
            for c in list {
                if self.arena[c as usize + 1] & DELETED != 0 {
                    continue;
                }
                self.lits_of(c, &mut lits);
                if visit(self, c, &lits) {
                    kept.push(c);
                }
            }
            kept.push(u32::MAX); // separates originals from learnts
        }
        kept
    }

    /// Puts `lits`, no longer than `old`, in place of clause `c`'s literals `old`; the
    /// proof adds the new clause, then deletes the old one.
    pub(super) fn replace_lits(&mut self, c: u32, old: &[Lit], lits: &[Lit]) {
        debug_assert!(lits.len() <= old.len() && lits.len() > 2);
        self.proof.add(lits);
        self.proof.delete(old);
        let ci = c as usize;
        self.arena[ci] = lits.len() as u32;
        self.arena[ci + SEARCH_POS] = FIRST_UNWATCHED as u32;
        for (k, l) in lits.iter().enumerate() {
            self.arena[ci + HEADER + k] = l.code() as u32;
        }
    }

    /// Rebuilds the arena from the clauses `kept` (originals, then `u32::MAX`, then
    /// learnts), in that order, and watches them again.
    pub(super) fn compact(&mut self, kept: Vec<u32>) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.garbage.min(self.arena.len()));
        let mut originals = Vec::new();
        let mut learnts = Vec::new();
        let mut into_learnts = false;
        for c in kept {
            if c == u32::MAX {
                into_learnts = true;
                continue;
            }
            let ci = c as usize;
            let len = self.arena[ci] as usize;
            let new = arena.len() as u32;
            arena.extend_from_slice(&self.arena[ci..ci + HEADER + len]);
            if into_learnts {
                learnts.push(new);
            } else {
                originals.push(new);
            }
        }
        self.arena = arena;
        self.garbage = 0;
        self.originals = originals;
        self.learnts = learnts;
        for list in &mut self.lists {
            list.watches.clear();
        }
        for i in 0..self.originals.len() {
            self.watch(self.originals[i]);
        }
        for i in 0..self.learnts.len() {
            self.watch(self.learnts[i]);
        }
    }

    /// A copy for another thread (without proof).
    pub(super) fn fork(&self) -> ClauseDb {
        debug_assert!(!self.proof.is_on());
        ClauseDb {
            arena: self.arena.clone(),
            garbage: self.garbage,
            originals: self.originals.clone(),
            learnts: self.learnts.clone(),
            lists: self.lists.clone(),
            proof: ProofLog::default(),
            proof_lits: Vec::new(),
            walk: self.walk,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Var;

    /// A Sudoku box repeats pairs of its rows and columns: each binary clause keeps one copy
    /// in each of its two lists, the first, in the order the clauses came.
    #[test]
    fn duplicate_binaries_are_dropped_and_the_first_copies_keep_their_order() {
        let x: Vec<Lit> = (0..4).map(|i| Var::from_index(i).positive()).collect();
        let mut db = ClauseDb::default();
        db.grow(4);
        for (a, b) in [(0, 1), (0, 2), (1, 0), (0, 1), (2, 3), (0, 3), (2, 0)] {
            db.add_binary(!x[a], !x[b]);
        }
        db.add_binary(x[0], x[1]);
        db.drop_duplicate_binaries(8);
        let list = |lit: Lit| db.lists[lit.code()].binaries.clone();
        assert_eq!(list(!x[0]), vec![!x[1], !x[2], !x[3]]);
        assert_eq!(list(!x[1]), vec![!x[0]]);
        assert_eq!(list(!x[2]), vec![!x[0], !x[3]]);
        assert_eq!(list(!x[3]), vec![!x[2], !x[0]]);
        assert_eq!(list(x[0]), vec![x[1]]);
        assert_eq!(list(x[1]), vec![x[0]]);
    }

    /// Lists reserved for the clauses fill up without growing: the binary clauses' lists
    /// and the long clauses' first two literals' watch lists have room for all of them.
    #[test]
    fn reserved_lists_take_their_clauses_without_growing() {
        let x: Vec<Lit> = (0..5).map(|i| Var::from_index(i).positive()).collect();
        let clauses: Vec<Vec<Lit>> = vec![
            vec![!x[0], !x[1]],
            vec![!x[0], !x[2]],
            vec![x[3], !x[0]],
            vec![x[0], x[1], x[2]],
            vec![x[1], x[0], x[3], x[4]],
            vec![x[4]],
        ];
        let mut db = ClauseDb::default();
        db.reserve_lists(clauses.iter().map(Vec::as_slice), 5)
            .unwrap();
        let rooms = |db: &ClauseDb| -> Vec<(usize, usize)> {
            db.lists
                .iter()
                .map(|list| (list.binaries.capacity(), list.watches.capacity()))
                .collect()
        };
        let reserved = rooms(&db);
        assert_eq!(reserved.len(), 10);
        for clause in &clauses {
            match clause.len() {
                2 => db.add_binary(clause[0], clause[1]),
                3.. => {
                    db.attach_new(clause, false, 0);
                }
                _ => {}
            }
        }
        assert_eq!(rooms(&db), reserved, "a list grew");
        let lengths = |lit: Lit| {
            let list = &db.lists[lit.code()];
            (list.binaries.len(), list.watches.len())
        };
        assert_eq!(lengths(!x[0]), (3, 0));
        assert_eq!((lengths(x[0]), lengths(x[1])), ((0, 2), (0, 2)));
        // Lists that exist already are left as they are; a new variable's are reserved, and
        // room is made for its clauses in the old lists they go to.
        let before = rooms(&db);
        db.reserve_lists(clauses.iter().map(Vec::as_slice), 5)
            .unwrap();
        assert_eq!(rooms(&db), before);
        let y = Var::from_index(5).positive();
        db.reserve_lists([[!y, !x[0]].as_slice()].into_iter(), 6)
            .unwrap();
        assert_eq!(db.lists.len(), 12);
        assert!(db.lists[(!y).code()].binaries.capacity() >= 1);
        let mut after = rooms(&db);
        assert!(
            after[(!x[0]).code()].0 >= 4,
            "no room for ¬y ∨ ¬x0 in ¬x0's list"
        );
        after[(!x[0]).code()].0 = before[(!x[0]).code()].0;
        assert_eq!(after[..10], before[..]);
    }
}
