//! Unit propagation without reasons, shared by the solvers that need nothing more: the
//! DPLL backend and the lookahead cuber.
//!
//! A [`UnitPropagator`] holds a formula and a partial assignment: a value per literal code,
//! a trail of the true literals with a propagation head, binary clauses as implication
//! lists (compressed rows: the literals that become true when a literal becomes false),
//! and longer clauses in one flat arena, each watched by two of its literals (Moskewicz,
//! Madigan, Zhao, Zhang & Malik 2001, "Chaff: engineering an efficient SAT solver", DAC).
//! Each watch carries a *blocker*, a literal of the clause that, when true, lets the watch
//! be kept without reading the arena (as MiniSat does; Chu, Harwood & Stuckey 2008, "Cache
//! conscious data structures for Boolean satisfiability solvers", JSAT 6). A literal's
//! implication list is visited before the long clauses watching it: binary clauses are
//! most of a Sudoku formula and cost no arena read.
//!
//! Undoing is resetting values along the trail: watches need no repair on backtracking.
//! No reason is kept, so nothing here can explain an implied literal.
//!
//! Who does not use it, and why: CDCL needs a reason per implied literal (for conflict
//! analysis) and the glue of learnt clauses (LBD), resumes the search for a new watch in a
//! long clause where the last one stopped (Gent 2013, "Optimal implementation of watched
//! literals and more general techniques", JAIR 48), skips deleted clauses and hands the
//! fixpoint to a native propagator; the lookahead solver keeps ternary clauses as pairs and
//! long ones as counts of open literals, since its scores count every clause a literal
//! shortens, which two watches never see.

use crate::formula::{try_reserve, Cnf, Lit, ReserveError};

/// The value of a literal under the current assignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(i8)]
pub enum Value {
    /// The literal is false (its negation is on the trail).
    False = -1,
    /// Neither the literal nor its negation is assigned.
    #[default]
    Unset = 0,
    /// The literal is on the trail.
    True = 1,
}

/// A clause in the arena (the index of its length word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClauseRef(u32);

/// What [`UnitPropagator::add_clause`] did with a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// Satisfied by the assignment, or a tautology: dropped.
    Satisfied,
    /// Every literal is false: the formula is refuted under the assignment.
    Empty,
    /// One literal left open: assigned (to be propagated).
    Unit(Lit),
    /// Two literals left open: an implication each way.
    Binary(Lit, Lit),
    /// Three or more literals left open: in the arena, watched by its first two.
    Long(ClauseRef),
}

/// A long-clause watch: the clause, and a literal of it that, when true, means the clause
/// needs no visit.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// Two-watched-literal unit propagation over binary implication lists and a clause arena
/// (see the module docs).
#[derive(Default)]
pub struct UnitPropagator {
    num_vars: usize,
    /// Value per literal code.
    values: Vec<Value>,
    trail: Vec<Lit>,
    /// Trail index of the next literal to propagate.
    head: usize,
    /// `binary[binary_start[l]..binary_start[l + 1]]`: the literals that must be true when
    /// literal `l` becomes false, rebuilt from `binary_pairs` when they change.
    binary: Vec<Lit>,
    binary_start: Vec<u32>,
    /// Every binary clause, the source of `binary`.
    binary_pairs: Vec<(Lit, Lit)>,
    /// `binary` and `binary_start` miss clauses or variables added since they were built.
    stale: bool,
    /// Clauses flat, `[len, lit, lit, …]` each (literal codes).
    arena: Vec<u32>,
    /// `watches[l]`: the long clauses watching literal `l` (visited when `l` becomes false).
    watches: Vec<Vec<Watch>>,
    /// Literals taken from the trail and propagated.
    propagations: u64,
    /// Scratch of [`UnitPropagator::add_clause`]: the clause's open literals, and per
    /// literal code whether it is among them.
    scratch: Vec<Lit>,
    seen: Vec<bool>,
}

impl UnitPropagator {
    /// An empty propagator: no variable, no clause.
    pub fn new() -> UnitPropagator {
        UnitPropagator::default()
    }

    /// Adds every clause of `cnf` ([`UnitPropagator::add_clause`]), its units assigned and
    /// not yet propagated; `false` when one of them is refuted by the assignment (the rest
    /// are then not added).
    ///
    /// # Errors
    /// A [`ReserveError`] when the memory for the buffers is not there.
    pub fn load(&mut self, cnf: &Cnf) -> Result<bool, ReserveError> {
        self.reserve(cnf.num_vars(), cnf.num_clauses(), cnf.num_literals())?;
        self.grow(cnf.num_vars());
        Ok(cnf
            .clauses()
            .all(|clause| self.add_clause(clause) != Added::Empty))
    }

    /// Reserves, fallibly, the big buffers that `clauses` more clauses of `literals`
    /// literals in all, over `num_vars` variables, will fill: the arena, the binary clauses
    /// and the watch-list heads.
    ///
    /// # Errors
    /// A [`ReserveError`] naming the buffer when the memory is not there.
    pub fn reserve(
        &mut self,
        num_vars: usize,
        clauses: usize,
        literals: usize,
    ) -> Result<(), ReserveError> {
        try_reserve(
            &mut self.arena,
            literals.saturating_add(clauses),
            "the clause arena",
        )?;
        try_reserve(&mut self.binary_pairs, clauses, "the implication pairs")?;
        let heads = num_vars
            .saturating_mul(2)
            .saturating_sub(self.watches.len());
        try_reserve(&mut self.watches, heads, "the watch lists")
    }

    /// Makes room for variables `0..num_vars` (never shrinks).
    pub fn grow(&mut self, num_vars: usize) {
        if num_vars <= self.num_vars {
            return;
        }
        self.num_vars = num_vars;
        self.values.resize(2 * num_vars, Value::Unset);
        self.seen.resize(2 * num_vars, false);
        if self.watches.len() < 2 * num_vars {
            self.watches.resize_with(2 * num_vars, Vec::new);
        }
        self.stale = true;
    }

    /// Forgets every clause, the assignment and the counter, keeping the buffers.
    pub fn clear(&mut self) {
        for list in &mut self.watches[..2 * self.num_vars] {
            list.clear();
        }
        self.num_vars = 0;
        self.values.clear();
        self.seen.clear();
        self.trail.clear();
        self.head = 0;
        self.binary.clear();
        self.binary_start.clear();
        self.binary_pairs.clear();
        self.stale = false;
        self.arena.clear();
        self.propagations = 0;
    }

    /// The variables it has room for.
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// Adds a clause over known variables ([`UnitPropagator::grow`]), simplified by the
    /// assignment: false and repeated literals dropped, satisfied clauses and tautologies
    /// skipped, a unit assigned (not propagated). The assignment it was simplified by must
    /// stay: the clause is not restored on [`UnitPropagator::undo_to`].
    #[inline]
    pub fn add_clause(&mut self, clause: &[Lit]) -> Added {
        // Fast path for the bulk of Sudoku formulas: two open literals of two variables.
        if let [a, b] = *clause {
            if a.var() != b.var() && self.value(a) == Value::Unset && self.value(b) == Value::Unset
            {
                self.add_binary(a, b);
                return Added::Binary(a, b);
            }
        }
        self.scratch.clear();
        let mut satisfied = false;
        for &lit in clause {
            let code = lit.code();
            if self.seen[code ^ 1] || self.values[code] == Value::True {
                satisfied = true;
                break;
            }
            if self.values[code] == Value::False || self.seen[code] {
                continue;
            }
            self.seen[code] = true;
            self.scratch.push(lit);
        }
        for &lit in &self.scratch {
            self.seen[lit.code()] = false;
        }
        if satisfied {
            return Added::Satisfied;
        }
        match self.scratch[..] {
            [] => Added::Empty,
            [unit] => {
                self.assign(unit);
                Added::Unit(unit)
            }
            [a, b] => {
                self.add_binary(a, b);
                Added::Binary(a, b)
            }
            [a, b, ..] => {
                let lits = std::mem::take(&mut self.scratch);
                let clause = self.push_to_arena(&lits);
                self.scratch = lits;
                self.watches[a.code()].push(Watch {
                    clause: clause.0,
                    blocker: b,
                });
                self.watches[b.code()].push(Watch {
                    clause: clause.0,
                    blocker: a,
                });
                Added::Long(clause)
            }
        }
    }

    #[inline]
    fn add_binary(&mut self, a: Lit, b: Lit) {
        self.binary_pairs.push((a, b));
        self.stale = true;
    }

    /// Keeps `lits` in the arena without watching them, for a caller that reads clauses
    /// there for its own ends (a branching rule over clauses that propagate through the
    /// implication lists).
    pub fn store_clause(&mut self, lits: &[Lit]) -> ClauseRef {
        self.push_to_arena(lits)
    }

    fn push_to_arena(&mut self, lits: &[Lit]) -> ClauseRef {
        let clause = ClauseRef(self.arena.len() as u32);
        self.arena.push(lits.len() as u32);
        self.arena.extend(lits.iter().map(|l| l.code() as u32));
        clause
    }

    /// The literals of a clause in the arena, in their current order (propagation moves
    /// the watched ones to the front).
    #[inline]
    pub fn clause(&self, clause: ClauseRef) -> impl ExactSizeIterator<Item = Lit> + '_ {
        let start = clause.0 as usize;
        let len = self.arena[start] as usize;
        self.arena[start + 1..start + 1 + len]
            .iter()
            .map(|&code| Lit::from_code(code as usize))
    }

    /// The value of `lit`.
    #[inline]
    pub fn value(&self, lit: Lit) -> Value {
        self.values[lit.code()]
    }

    /// Makes the unassigned `lit` true and puts it on the trail (to be propagated).
    #[inline]
    pub fn assign(&mut self, lit: Lit) {
        debug_assert_eq!(self.value(lit), Value::Unset);
        self.values[lit.code()] = Value::True;
        self.values[(!lit).code()] = Value::False;
        self.trail.push(lit);
    }

    /// The true literals in the order they were assigned.
    #[inline]
    pub fn trail(&self) -> &[Lit] {
        &self.trail
    }

    /// Unassigns the trail's literals after the first `len`.
    #[inline]
    pub fn undo_to(&mut self, len: usize) {
        self.undo_to_each(len, |_| {});
    }

    /// [`UnitPropagator::undo_to`], handing each literal unassigned to `each` on the way
    /// (a caller's own upkeep in the same pass over the trail).
    #[inline]
    pub fn undo_to_each(&mut self, len: usize, mut each: impl FnMut(Lit)) {
        for &lit in &self.trail[len..] {
            self.values[lit.code()] = Value::Unset;
            self.values[(!lit).code()] = Value::Unset;
            each(lit);
        }
        self.trail.truncate(len);
        self.head = self.head.min(len);
    }

    /// Literals taken from the trail and propagated, since the start or the last
    /// [`UnitPropagator::clear`].
    #[inline]
    pub fn propagations(&self) -> u64 {
        self.propagations
    }

    /// Unit propagation of the trail from its head: `false` on a conflict, the literals
    /// assigned so far staying on the trail (for [`UnitPropagator::undo_to`]).
    pub fn propagate(&mut self) -> bool {
        if self.stale {
            self.build_implications();
        }
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            self.propagations += 1;
            let false_lit = !p;
            if !self.propagate_binary(false_lit) || !self.propagate_long(false_lit) {
                return false;
            }
        }
        true
    }

    /// The binary clauses `false_lit ∨ other`: `false` on a conflict.
    #[inline]
    fn propagate_binary(&mut self, false_lit: Lit) -> bool {
        let code = false_lit.code();
        let (from, to) = (
            self.binary_start[code] as usize,
            self.binary_start[code + 1] as usize,
        );
        for k in from..to {
            let other = self.binary[k];
            match self.values[other.code()] {
                Value::True => {}
                Value::Unset => self.assign(other),
                Value::False => return false,
            }
        }
        true
    }

    /// The long clauses watching `false_lit`: `false` on a conflict.
    #[inline]
    fn propagate_long(&mut self, false_lit: Lit) -> bool {
        let mut watches = std::mem::take(&mut self.watches[false_lit.code()]);
        let mut conflict = false;
        let (mut i, mut j) = (0, 0);
        while i < watches.len() {
            let w = watches[i];
            i += 1;
            if self.values[w.blocker.code()] == Value::True {
                watches[j] = w;
                j += 1;
                continue;
            }
            let start = w.clause as usize;
            let len = self.arena[start] as usize;
            let lits = start + 1;
            // The false literal goes to position 1, the other watch to 0.
            if self.arena[lits] == false_lit.code() as u32 {
                self.arena.swap(lits, lits + 1);
            }
            let first = Lit::from_code(self.arena[lits] as usize);
            let kept = Watch {
                clause: w.clause,
                blocker: first,
            };
            if first != w.blocker && self.values[first.code()] == Value::True {
                watches[j] = kept;
                j += 1;
                continue;
            }
            // A new literal to watch among the rest.
            let mut moved = false;
            for k in lits + 2..lits + len {
                let code = self.arena[k] as usize;
                if self.values[code] != Value::False {
                    self.arena.swap(lits + 1, k);
                    self.watches[code].push(kept);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            watches[j] = kept;
            j += 1;
            match self.values[first.code()] {
                Value::Unset => self.assign(first),
                Value::False => {
                    // Keep the watches not visited, and stop.
                    while i < watches.len() {
                        watches[j] = watches[i];
                        j += 1;
                        i += 1;
                    }
                    conflict = true;
                }
                Value::True => {}
            }
        }
        watches.truncate(j);
        self.watches[false_lit.code()] = watches;
        !conflict
    }

    /// Rebuilds the compressed implication rows from `binary_pairs`.
    #[cold]
    fn build_implications(&mut self) {
        let codes = 2 * self.num_vars;
        self.binary_start.clear();
        self.binary_start.resize(codes + 1, 0);
        for &(a, b) in &self.binary_pairs {
            self.binary_start[a.code() + 1] += 1;
            self.binary_start[b.code() + 1] += 1;
        }
        for code in 0..codes {
            self.binary_start[code + 1] += self.binary_start[code];
        }
        self.binary.clear();
        self.binary
            .resize(self.binary_start[codes] as usize, Lit::from_code(0));
        // Fill each row from its start, `binary_start[l]` as the cursor, then shift the
        // starts back.
        for &(a, b) in &self.binary_pairs {
            for (from, to) in [(a, b), (b, a)] {
                let slot = &mut self.binary_start[from.code()];
                self.binary[*slot as usize] = to;
                *slot += 1;
            }
        }
        for code in (1..=codes).rev() {
            self.binary_start[code] = self.binary_start[code - 1];
        }
        self.binary_start[0] = 0;
        self.stale = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{ClauseSink, Var};

    /// A small deterministic generator (xorshift64), enough for random formulas.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn lit(&mut self, vars: usize) -> Lit {
            Var::from_index(self.below(vars)).lit(self.below(2) == 0)
        }
    }

    fn random_cnf(rng: &mut Rng, vars: usize, clauses: usize) -> Cnf {
        let mut cnf = Cnf::with_vars(vars);
        for _ in 0..clauses {
            let len = 1 + rng.below(5);
            let clause: Vec<Lit> = (0..len).map(|_| rng.lit(vars)).collect();
            cnf.add_clause(&clause);
        }
        cnf
    }

    /// The unit-propagation fixpoint of `cnf` under `assumed`, by sweeping every clause
    /// until nothing changes: the true literals, or `None` on a conflict.
    fn fixpoint(cnf: &Cnf, assumed: &[Lit]) -> Option<Vec<Lit>> {
        let mut value = vec![Value::Unset; 2 * cnf.num_vars()];
        let set = |value: &mut Vec<Value>, lit: Lit| match value[lit.code()] {
            Value::False => false,
            _ => {
                value[lit.code()] = Value::True;
                value[(!lit).code()] = Value::False;
                true
            }
        };
        for &lit in assumed {
            if !set(&mut value, lit) {
                return None;
            }
        }
        loop {
            let mut changed = false;
            for clause in cnf.clauses() {
                if clause.iter().any(|l| value[l.code()] == Value::True) {
                    continue;
                }
                let mut open: Vec<Lit> = clause
                    .iter()
                    .copied()
                    .filter(|l| value[l.code()] == Value::Unset)
                    .collect();
                open.dedup();
                match open[..] {
                    [] => return None,
                    [unit] => {
                        set(&mut value, unit);
                        changed = true;
                    }
                    _ if open.iter().all(|&l| l == open[0]) => {
                        set(&mut value, open[0]);
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                let mut lits: Vec<Lit> = (0..value.len())
                    .map(Lit::from_code)
                    .filter(|l| value[l.code()] == Value::True)
                    .collect();
                lits.sort();
                return Some(lits);
            }
        }
    }

    /// The trail, sorted, after propagating; `None` on a conflict.
    fn propagated(propagator: &mut UnitPropagator) -> Option<Vec<Lit>> {
        if !propagator.propagate() {
            return None;
        }
        let mut lits = propagator.trail().to_vec();
        lits.sort();
        Some(lits)
    }

    #[test]
    fn agrees_with_a_brute_force_fixpoint_through_assignments_and_undos() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut conflicts = 0;
        for round in 0..400 {
            let vars = 2 + rng.below(12);
            let clauses = 1 + rng.below(4 * vars);
            let cnf = random_cnf(&mut rng, vars, clauses);
            let mut propagator = UnitPropagator::new();
            if !propagator.load(&cnf).unwrap() {
                // An empty clause, or two opposite units: the fixpoint fails too.
                assert_eq!(fixpoint(&cnf, &[]), None, "round {round}: {cnf:?}");
                continue;
            }
            let root = propagated(&mut propagator);
            assert_eq!(root, fixpoint(&cnf, &[]), "round {round}: {cnf:?}");
            if root.is_none() {
                conflicts += 1;
                continue;
            }
            // Decisions on a stack, each checked, then undone one by one and checked again.
            let mut assumed: Vec<Lit> = Vec::new();
            let mut marks = Vec::new();
            for _ in 0..4 {
                let lit = rng.lit(vars);
                if propagator.value(lit) != Value::Unset {
                    continue;
                }
                marks.push(propagator.trail().len());
                assumed.push(lit);
                propagator.assign(lit);
                let got = propagated(&mut propagator);
                assert_eq!(got, fixpoint(&cnf, &assumed), "round {round}: {assumed:?}");
                if got.is_none() {
                    conflicts += 1;
                    break;
                }
            }
            while let Some(mark) = marks.pop() {
                assumed.pop();
                propagator.undo_to(mark);
                let got = propagated(&mut propagator);
                assert_eq!(got, fixpoint(&cnf, &assumed), "round {round}: {assumed:?}");
            }
        }
        assert!(conflicts > 20, "only {conflicts} conflicts");
    }

    fn lits(dimacs: &[i64]) -> Vec<Lit> {
        dimacs.iter().map(|&d| Lit::from_dimacs(d)).collect()
    }

    #[test]
    fn a_conflict_stops_propagation_and_undo_restores_the_assignment() {
        // x1 → x2 (binary), x1 ∧ x2 → x3 and x1 ∧ x2 → ¬x3 (long): x1 fails.
        let mut cnf = Cnf::with_vars(4);
        for clause in [&[-1, 2][..], &[-1, -2, 3], &[-1, -2, -3], &[3, 4, 1]] {
            cnf.add_clause(&lits(clause));
        }
        let mut propagator = UnitPropagator::new();
        assert!(propagator.load(&cnf).unwrap());
        assert!(propagator.propagate());
        assert!(propagator.trail().is_empty());
        let x = |d| Lit::from_dimacs(d);
        propagator.assign(x(1));
        assert!(!propagator.propagate());
        assert_eq!(propagator.value(x(2)), Value::True);
        propagator.undo_to(0);
        assert!(propagator.trail().is_empty());
        assert!((1..=4).all(|d| propagator.value(x(d)) == Value::Unset));
        // The other side propagates through the long clause's moved watches.
        propagator.assign(x(-1));
        propagator.assign(x(-3));
        assert!(propagator.propagate());
        assert_eq!(propagator.value(x(4)), Value::True);
        assert_eq!(propagator.propagations(), 5);
    }

    #[test]
    fn clauses_are_simplified_by_the_assignment_as_they_come() {
        let mut propagator = UnitPropagator::new();
        propagator.grow(4);
        let x = |d| Lit::from_dimacs(d);
        assert_eq!(propagator.add_clause(&lits(&[1, -1, 2])), Added::Satisfied);
        assert_eq!(propagator.add_clause(&lits(&[2, 2])), Added::Unit(x(2)));
        assert_eq!(propagator.add_clause(&lits(&[2, 3])), Added::Satisfied);
        assert_eq!(
            propagator.add_clause(&lits(&[-2, 3, 4])),
            Added::Binary(x(3), x(4))
        );
        let Added::Long(clause) = propagator.add_clause(&lits(&[1, 3, -4, 1])) else {
            panic!("a long clause");
        };
        assert_eq!(
            propagator.clause(clause).collect::<Vec<_>>(),
            lits(&[1, 3, -4])
        );
        assert_eq!(propagator.add_clause(&lits(&[-2])), Added::Empty);
        let stored = propagator.store_clause(&lits(&[3, 4]));
        assert_eq!(propagator.clause(stored).len(), 2);
        propagator.clear();
        assert_eq!(propagator.num_vars(), 0);
        assert!(propagator.trail().is_empty());
    }
}
