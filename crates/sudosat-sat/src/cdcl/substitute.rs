//! Equivalent-literal substitution: literals on a cycle of binary implications are
//! equivalent, so each strongly connected component of the binary implication graph is
//! replaced by one of its literals, its *representative*, in every clause (Aspvall, Plass &
//! Tarjan 1979, "A linear-time algorithm for testing the truth of certain quantified
//! Boolean formulas", IPL 8(3), for the components; Van Gelder 2005, "Toward leaner
//! binary-clause reasoning in a satisfiability solver", AMAI 43, and Heule, Järvisalo &
//! Biere 2011, "Efficient CNF simplification based on binary implication graphs", SAT, for
//! the substitution; Kissat's `substitute`). A component holding a literal and its negation
//! refutes the formula. The components are found by Tarjan's algorithm (1972, "Depth-first
//! search and linear graph algorithms", SIAM J. Computing 1(2)), iterative, over the
//! unassigned literals; it is written here rather than taken from a graph crate because
//! the graph is the solver's own implication lists, which a copy would double.
//!
//! The substituted variables leave the search (they occur in no clause any more): a model
//! gives each the value of its representative, clauses added later and assumptions are
//! read through the representatives, and failed assumptions are named as given. Each
//! rewritten clause is a RUP consequence of the clause it replaces and the binary clauses of
//! its component, so the proof adds it before deleting the old one. The pass runs at the
//! root: after root probing (formulas it takes) and at restarts on a schedule
//! ([`SUBSTITUTE_FIRST`], [`SUBSTITUTE_INCREMENT`]), where learnt binary clauses close new
//! cycles; never during a solve under assumptions or with a native propagator, whose
//! literals must keep their variables.

use super::clauses::ClauseDb;
use super::decide::Vsids;
use super::options::{SUBSTITUTE_FIRST, SUBSTITUTE_INCREMENT};
use super::propagate::propagate;
use super::simplify::RootSimplifier;
use super::stats::Stats;
use super::trail::{Trail, FALSE, NO_REASON, TRUE, UNSET};
use crate::formula::Lit;
use crate::run::Deadline;

/// No representative: the literal is in no component of two or more literals.
const NONE: u32 = u32::MAX;

/// The substitutions made so far and when the next pass is due.
#[derive(Clone)]
pub(super) struct Equivalences {
    /// Per variable, the code of the literal its positive literal equals (its own code
    /// when it was not substituted); empty until the first substitution. Always resolved
    /// to a variable that is not substituted.
    replaced_by: Vec<u32>,
    /// Variables substituted so far.
    pub(super) substituted: u64,
    /// Passes run so far.
    pub(super) passes: u64,
    /// Conflicts from which the next pass at a restart is due.
    pub(super) next_pass: u64,
    /// Conflicts between passes: the first, and what each pass adds to it
    /// ([`SUBSTITUTE_FIRST`], [`SUBSTITUTE_INCREMENT`]; tests pass at every restart).
    pub(super) interval: (u64, u64),
}

impl Default for Equivalences {
    fn default() -> Equivalences {
        Equivalences {
            replaced_by: Vec::new(),
            substituted: 0,
            passes: 0,
            next_pass: SUBSTITUTE_FIRST,
            interval: (SUBSTITUTE_FIRST, SUBSTITUTE_INCREMENT),
        }
    }
}

impl Equivalences {
    /// Whether no variable was ever substituted (every literal is its own representative).
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.replaced_by.is_empty()
    }

    /// The literal that stands for `lit` in the clauses.
    #[inline]
    pub(super) fn map(&self, lit: Lit) -> Lit {
        match self.replaced_by.get(lit.var().index()) {
            Some(&code) => Lit::from_code(code as usize ^ (lit.code() & 1)),
            None => lit,
        }
    }

    /// Gives each substituted variable of a model its representative's value.
    pub(super) fn extend(&self, values: &mut [bool]) {
        for (v, &code) in self.replaced_by.iter().enumerate() {
            let code = code as usize;
            if code >> 1 != v {
                values[v] = values[code >> 1] ^ (code & 1 == 1);
            }
        }
    }

    /// Whether a pass at a restart after `conflicts` conflicts is due.
    #[inline]
    pub(super) fn due(&self, conflicts: u64) -> bool {
        conflicts >= self.next_pass
    }

    /// Bytes of the table (for the portfolio's memory estimate).
    pub(super) fn memory_bytes(&self) -> u64 {
        (self.replaced_by.capacity() * std::mem::size_of::<u32>()) as u64
    }

    /// One pass at the root: finds the components; when there are any, simplifies the
    /// root (so that no clause holds an assigned literal), rewrites every clause through
    /// their representatives, takes the substituted variables out of the search and
    /// propagates the units the rewriting made. A formula without equivalences is left
    /// as it was. `false` on a root conflict (the proof then needs only the empty clause).
    pub(super) fn substitute(
        &mut self,
        deadline: &Deadline,
        simplifier: &mut RootSimplifier,
        trail: &mut Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
        stats: &mut Stats,
    ) -> bool {
        let conflicts = stats.conflicts;
        debug_assert_eq!(trail.decision_level(), 0);
        self.passes += 1;
        let (first, increment) = self.interval;
        self.next_pass = conflicts + first + increment * self.passes;
        let repr = match representatives(trail, db, deadline) {
            Ok(Some(repr)) => repr,
            // Out of time before anything changed: the formula stays as it was.
            Ok(None) => return true,
            Err(lit) => {
                // `lit` and its negation imply each other: both units are RUP.
                db.proof.add(&[lit]);
                return false;
            }
        };
        let map = |lit: Lit| match repr[lit.code()] {
            NONE => lit,
            code => Lit::from_code(code as usize),
        };
        let substituted: Vec<usize> = (0..trail.num_vars)
            .filter(|&v| repr[2 * v] != NONE && repr[2 * v] as usize >> 1 != v)
            .collect();
        if substituted.is_empty() {
            return true;
        }
        // Simplifying assigns nothing: the components stay as found.
        simplifier.simplify_root(trail, db, stats.propagations);
        let mut units = Vec::new();
        rewrite_binaries(&map, trail, db, &mut units);
        rewrite_long_clauses(&map, db, &mut units);

        if self.replaced_by.len() < trail.num_vars {
            let old = self.replaced_by.len();
            self.replaced_by
                .extend((old..trail.num_vars).map(|v| 2 * v as u32));
        }
        // Earlier substitutions now point at this pass's representatives.
        for code in &mut self.replaced_by {
            *code = map(Lit::from_code(*code as usize)).code() as u32;
        }
        for &v in &substituted {
            vsids.retire(v);
        }
        self.substituted += substituted.len() as u64;

        for unit in units {
            match trail.value(unit) {
                TRUE => {}
                FALSE => return false,
                _ => trail.assign(unit, NO_REASON),
            }
        }
        propagate(trail, db, stats).is_none()
    }
}

/// Per literal code, the code of its component's representative (the literal of the
/// lowest variable), or [`NONE`] outside components of two or more; `Err(lit)` when `lit`
/// and its negation share a component; `Ok(None)` when the deadline passed first.
fn representatives(
    trail: &Trail,
    db: &ClauseDb,
    deadline: &Deadline,
) -> Result<Option<Vec<u32>>, Lit> {
    let nodes = 2 * trail.num_vars;
    // Tarjan's numbering: 0 unvisited; `low` the lowest number reachable on the stack.
    let mut number = vec![0u32; nodes];
    let mut low = vec![0u32; nodes];
    let mut on_stack = vec![false; nodes];
    let mut repr = vec![NONE; nodes];
    let mut in_component = vec![false; nodes];
    let mut stack: Vec<u32> = Vec::new();
    // The depth-first search's own stack: a node and the next of its successors to visit.
    let mut calls: Vec<(u32, u32)> = Vec::new();
    let mut component: Vec<u32> = Vec::new();
    let mut next_number = 1u32;
    // When literal `u` is true, the binary clauses of `¬u` make their other literal true.
    let successors = |u: u32| &db.lists[u as usize ^ 1].binaries;
    for root in 0..nodes as u32 {
        if deadline.expired_at(root as u64) {
            return Ok(None);
        }
        if number[root as usize] != 0 || trail.values[root as usize] != UNSET {
            continue;
        }
        if successors(root).is_empty() {
            continue; // a component of its own
        }
        number[root as usize] = next_number;
        low[root as usize] = next_number;
        next_number += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        calls.push((root, 0));
        while let Some(&mut (u, ref mut next)) = calls.last_mut() {
            let succ = successors(u);
            if (*next as usize) < succ.len() {
                let w = succ[*next as usize].code();
                *next += 1;
                if trail.values[w] != UNSET {
                    continue;
                }
                if number[w] == 0 {
                    number[w] = next_number;
                    low[w] = next_number;
                    next_number += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    calls.push((w as u32, 0));
                } else if on_stack[w] {
                    low[u as usize] = low[u as usize].min(number[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[u as usize]);
            }
            if low[u as usize] != number[u as usize] {
                continue;
            }
            component.clear();
            loop {
                let w = stack.pop().expect("u is on the stack");
                on_stack[w as usize] = false;
                component.push(w);
                if w == u {
                    break;
                }
            }
            // The mirror component (the negations) was named with this one.
            if component.len() < 2 || repr[component[0] as usize] != NONE {
                continue;
            }
            for &w in &component {
                in_component[w as usize] = true;
            }
            let contradiction = component.iter().find(|&&w| in_component[w as usize ^ 1]);
            if let Some(&w) = contradiction {
                return Err(Lit::from_code(w as usize));
            }
            let chosen = *component.iter().min().expect("two or more");
            for &w in &component {
                in_component[w as usize] = false;
                repr[w as usize] = chosen;
                repr[w as usize ^ 1] = chosen ^ 1;
            }
        }
    }
    Ok(Some(repr))
}

/// Rewrites the binary clauses: a substituted literal's clauses move to its
/// representative's list, the others' literals are mapped in place; tautologies go,
/// clauses of one literal twice become units, and the touched lists lose duplicates.
fn rewrite_binaries(
    map: &impl Fn(Lit) -> Lit,
    trail: &Trail,
    db: &mut ClauseDb,
    units: &mut Vec<Lit>,
) {
    let ClauseDb { lists, proof, .. } = db;
    let mut moved: Vec<(Lit, Lit)> = Vec::new();
    let mut touched: Vec<usize> = Vec::new();
    for (code, occurrences) in lists.iter_mut().enumerate().take(2 * trail.num_vars) {
        let list = &mut occurrences.binaries;
        if list.is_empty() {
            continue;
        }
        let a = Lit::from_code(code);
        let ra = map(a);
        if ra != a {
            for b in std::mem::take(list) {
                let rb = map(b);
                if rb == !ra {
                    continue;
                }
                if rb == ra {
                    proof.add(&[ra]);
                    units.push(ra);
                    continue;
                }
                // Each clause is in two lists: the proof hears of it from one.
                if a < b {
                    proof.add(&[ra, rb]);
                }
                moved.push((ra, rb));
            }
            continue;
        }
        let mut changed = false;
        list.retain_mut(|b| {
            let rb = map(*b);
            if rb == *b {
                return true;
            }
            changed = true;
            if rb == !a {
                return false;
            }
            if rb == a {
                proof.add(&[a]);
                units.push(a);
                return false;
            }
            if a < *b {
                proof.add(&[a, rb]);
            }
            *b = rb;
            true
        });
        if changed {
            touched.push(code);
        }
    }
    for (owner, other) in moved {
        lists[owner.code()].binaries.push(other);
        touched.push(owner.code());
    }
    touched.sort_unstable();
    touched.dedup();
    for code in touched {
        let list = &mut lists[code].binaries;
        list.sort_unstable();
        list.dedup();
    }
}

/// Rewrites the long clauses (original and learnt) in place: tautologies are deleted,
/// clauses of one or two literals leave the arena (as units or binary clauses); the arena
/// is compacted and watched again.
fn rewrite_long_clauses(map: &impl Fn(Lit) -> Lit, db: &mut ClauseDb, units: &mut Vec<Lit>) {
    let mut new: Vec<Lit> = Vec::new();
    let kept = db.retain_live(|db, c, lits| {
        if lits.iter().all(|&l| map(l) == l) {
            return true;
        }
        new.clear();
        for &l in lits {
            let r = map(l);
            if new.contains(&!r) {
                db.delete_clause(c); // a tautology
                return false;
            }
            if !new.contains(&r) {
                new.push(r);
            }
        }
        if new.len() > 2 {
            db.replace_lits(c, lits, &new);
            return true;
        }
        db.proof.add(&new);
        match new[..] {
            [unit] => units.push(unit),
            [a, b] => db.add_binary(a, b),
            _ => unreachable!("a clause keeps one literal at least"),
        }
        db.delete_clause(c);
        false
    });
    db.compact(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Var;

    fn lit(dimacs: i64) -> Lit {
        Lit::from_dimacs(dimacs)
    }

    /// A trail and binary clauses over `vars` variables.
    fn graph(vars: usize, binaries: &[(i64, i64)]) -> (Trail, ClauseDb) {
        let mut trail = Trail::default();
        trail.grow(vars);
        let mut db = ClauseDb::default();
        db.grow(vars);
        for &(a, b) in binaries {
            db.add_binary(lit(a), lit(b));
        }
        (trail, db)
    }

    #[test]
    fn components_of_the_implication_graph_get_their_lowest_literal() {
        // 2 → 3 → ¬4 → 2 (a cycle through a negation); 1 → 2 only; 5 alone.
        let (trail, db) = graph(5, &[(-2, 3), (-3, -4), (4, 2), (-1, 2)]);
        let repr = representatives(&trail, &db, &Deadline::NONE)
            .unwrap()
            .unwrap();
        let of = |l: i64| match repr[lit(l).code()] {
            NONE => None,
            code => Some(Lit::from_code(code as usize).to_dimacs()),
        };
        for (l, r) in [(2, 2), (3, 2), (-4, 2), (-2, -2), (-3, -2), (4, -2)] {
            assert_eq!(of(l), Some(r), "literal {l}");
        }
        for l in [1, -1, 5, -5] {
            assert_eq!(of(l), None, "literal {l}");
        }
        // An assigned literal is in no component.
        let (mut trail, db) = graph(5, &[(-2, 3), (-3, -4), (4, 2)]);
        trail.assign(lit(3), NO_REASON);
        let repr = representatives(&trail, &db, &Deadline::NONE)
            .unwrap()
            .unwrap();
        assert!(repr.iter().all(|&r| r == NONE));
        // Out of time before the first node: no answer, and so no change.
        let expired = Deadline::after(Some(std::time::Duration::ZERO));
        assert_eq!(representatives(&trail, &db, &expired), Ok(None));
    }

    #[test]
    fn a_literal_equivalent_to_its_negation_is_a_contradiction() {
        // 1 → 2 → ¬1 → 3 → 1 (every literal of 1, 2, 3 on the cycle); 4 → 5 apart.
        let (trail, db) = graph(5, &[(-1, 2), (-2, -1), (1, 3), (-3, 1), (-4, 5)]);
        let lit = representatives(&trail, &db, &Deadline::NONE).unwrap_err();
        assert!(lit.var() < Var::from_index(3), "{lit:?}");
    }

    #[test]
    fn models_give_substituted_variables_their_representatives_values() {
        let mut equivalences = Equivalences::default();
        assert!(equivalences.is_empty());
        assert_eq!(equivalences.map(lit(-3)), lit(-3));
        // x2 = x1, x3 = ¬x1; x4 beyond the table is its own.
        equivalences.replaced_by = vec![0, 0, 1];
        assert_eq!(equivalences.map(lit(2)), lit(1));
        assert_eq!(equivalences.map(lit(-3)), lit(1));
        assert_eq!(equivalences.map(lit(4)), lit(4));
        let mut values = vec![true, false, true, false];
        equivalences.extend(&mut values);
        assert_eq!(values, vec![true, true, false, false]);
    }
}
