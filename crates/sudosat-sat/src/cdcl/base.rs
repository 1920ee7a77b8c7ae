//! Queries against a base formula, each with literals fixed at the root and undone after it
//! (the incremental use of MiniSat, Eén & Sörensson 2003, "An extensible SAT-solver", SAT,
//! with a query's literals as root facts rather than assumptions): the clause database as
//! the base left it is kept, and each query starts from it again, so that loading the
//! base is paid once and a query's answer does not depend on the queries before it.
//!
//! A query's units are fixed without visiting the long clauses' watch lists: they are
//! closed under the binary clauses (the bulk of a Sudoku formula: what a given rules out
//! in its cell, row, column and box), and then every long clause is watched afresh on two
//! literals the assignment leaves open; a clause left with one is a unit, with none a
//! conflict. On a 9×9 puzzle that replaces some 500 false literals' visits of the
//! "at least one" clauses by one pass over those clauses (docs/benchmarks/nine.md, "Where
//! a 9×9 batch spends its time").

use super::clauses::{ClauseDb, Watch, HEADER};
use super::decide::Vsids;
use super::stats::Stats;
use super::trail::{Trail, BINARY_REASON, FALSE, NO_REASON, TRUE, UNSET};
use crate::formula::Lit;

/// What the clause database and the heuristic held once the base was loaded.
#[derive(Clone, Default)]
pub(super) struct Base {
    /// The arena of the base's long clauses, word for word.
    arena: Vec<u32>,
    /// Their arena indices.
    originals: Vec<u32>,
    /// Per literal code, where its binary clauses end in `binaries`.
    binary_ends: Vec<u32>,
    /// Every implication list's binary clauses, flat.
    binaries: Vec<Lit>,
    /// Root literals of the base itself.
    trail_len: usize,
    /// The base's variables.
    num_vars: usize,
    /// Their initial activities (a seed's noise, or zeros).
    activity: Vec<f64>,
    /// The literal codes of the long clauses, each once: the watch lists a query without
    /// learnt clauses can have filled.
    watched: Vec<u32>,
    /// Clauses of the formula as given that make the base.
    pub(super) clauses: usize,
    /// Whether the base alone is refuted.
    pub(super) inconsistent: bool,
}

impl Base {
    /// The base as the solver holds it now: loaded, propagated, at the root.
    pub(super) fn of(
        trail: &Trail,
        db: &ClauseDb,
        vsids: &Vsids,
        clauses: usize,
        inconsistent: bool,
    ) -> Base {
        debug_assert!(db.learnts.is_empty() && trail.decision_level() == 0);
        let codes = 2 * trail.num_vars;
        let mut binary_ends = Vec::with_capacity(codes);
        let mut binaries = Vec::new();
        for list in &db.lists[..codes] {
            binaries.extend_from_slice(&list.binaries);
            binary_ends.push(binaries.len() as u32);
        }
        let mut seen = vec![false; codes];
        let mut watched = Vec::new();
        for &c in &db.originals {
            for &code in db.clause_lits(c) {
                if !std::mem::replace(&mut seen[code as usize], true) {
                    watched.push(code);
                }
            }
        }
        watched.sort_unstable();
        Base {
            watched,
            arena: db.arena.clone(),
            originals: db.originals.clone(),
            binary_ends,
            binaries,
            trail_len: trail.lits.len(),
            num_vars: trail.num_vars,
            activity: vsids.activity[..trail.num_vars].to_vec(),
            clauses,
            inconsistent,
        }
    }

    /// Goes back to the base: its root assignment, its clauses (long ones word for word,
    /// unwatched until [`fix_units`] watches them), none learnt, and the heuristic's
    /// initial state. `whole` copies every implication list back; otherwise each keeps
    /// its base prefix (the clauses learnt since were appended to it), which holds when
    /// nothing removed a clause from a list since (no root simplification, substitution
    /// or portfolio); `learnt` says whether a clause was learnt since (else only the
    /// base's own literals can have watches, and no list grew); `searched` whether the
    /// search decided or met a conflict (else the heuristic is as the base left it: no
    /// variable was taken off the heap, bumped or given a phase).
    pub(super) fn restore(
        &mut self,
        whole: bool,
        learnt: bool,
        searched: bool,
        trail: &mut Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
    ) {
        debug_assert!(trail.theory.is_none());
        let values = &mut trail.values;
        for &lit in &trail.lits[self.trail_len..] {
            values[lit.code()] = UNSET;
            values[(!lit).code()] = UNSET;
        }
        trail.lits.truncate(self.trail_len);
        trail.trail_lim.clear();
        trail.queue_head = self.trail_len;

        db.arena.clone_from(&self.arena);
        db.originals.clone_from(&self.originals);
        db.learnts.clear();
        db.garbage = 0;
        let lists = &mut db.lists[..self.binary_ends.len()];
        if whole {
            let mut start = 0;
            for (list, &end) in lists.iter_mut().zip(&self.binary_ends) {
                list.binaries.clear();
                list.binaries
                    .extend_from_slice(&self.binaries[start as usize..end as usize]);
                start = end;
            }
        } else if learnt {
            let mut start = 0;
            for (list, &end) in lists.iter_mut().zip(&self.binary_ends) {
                list.binaries.truncate((end - start) as usize);
                start = end;
            }
        }
        if learnt || whole {
            for list in lists.iter_mut() {
                list.watches.clear();
            }
        } else {
            // Only the base's clauses were watched, on their own literals.
            for &code in &self.watched {
                lists[code as usize].watches.clear();
            }
        }

        if searched {
            let n = self.num_vars;
            vsids.activity.clone_from(&self.activity);
            vsids.var_inc = 1.0;
            vsids.phase.clear();
            vsids.phase.resize(n, true);
            vsids.heap.clear();
            vsids.insert_new(0, n);
        }
    }
}

/// Fixes `units` at the root of a base just restored ([`Base::restore`]), closes them under
/// the binary clauses and watches the long clauses afresh; `false` on a conflict (the query
/// has no model). Propagation goes on, at the next solve, from the literals the long
/// clauses imply.
///
/// The binary clauses the root satisfies stay in their lists: taking them out walks every
/// open literal's list (some 20,000 entries on 9×9) to spare the search a visit of the
/// few it meets, and cost a minimal 9×9 puzzle 17 % more instructions than it saved
/// (docs/benchmarks/nine.md, "Where a 9×9 batch spends its time").
///
/// A long clause is watched on its first two literals the assignment leaves open (the
/// implied one first when only one is, as a reason has it; none is a conflict), and not at
/// all when a true literal comes before them: it is satisfied at the root for the whole
/// query, and a watch would only be visited to be kept.
pub(super) fn fix_units(
    units: &[Lit],
    trail: &mut Trail,
    db: &mut ClauseDb,
    stats: &mut Stats,
) -> bool {
    debug_assert_eq!(trail.decision_level(), 0);
    let start = trail.lits.len();
    let Trail {
        values,
        level,
        reason,
        lits,
        queue_head,
        ..
    } = trail;
    // Slices borrowed apart, as propagation has them; every assignment here is at the root.
    let (values, level, reason) = (&mut values[..], &mut level[..], &mut reason[..]);
    let mut assign = |values: &mut [i8], lits: &mut Vec<Lit>, lit: Lit, why: u32| {
        let v = lit.var().index();
        values[lit.code()] = TRUE;
        values[(!lit).code()] = FALSE;
        level[v] = 0;
        reason[v] = why;
        lits.push(lit);
    };
    for &unit in units {
        match values[unit.code()] {
            TRUE => {}
            FALSE => return false,
            _ => assign(values, lits, unit, NO_REASON),
        }
    }
    let ClauseDb {
        arena,
        originals,
        lists,
        ..
    } = db;
    // The binary closure, as propagation's first half does it (most implied literals are
    // already assigned: the units share most of their implications).
    let mut head = start;
    while head < lits.len() {
        let code = (!lits[head]).code();
        head += 1;
        for &implied in &lists[code].binaries {
            match values[implied.code()] {
                UNSET => assign(values, lits, implied, BINARY_REASON | code as u32),
                FALSE => return false,
                _ => {}
            }
        }
    }
    stats.propagations += (head - start) as u64;
    let closed = lits.len();
    for &c in originals.iter() {
        let c = c as usize;
        let len = arena[c] as usize;
        let clause = &mut arena[c + HEADER..c + HEADER + len];
        let (mut open, mut found) = ([0usize; 2], 0);
        let mut satisfied = false;
        for (k, &code) in clause.iter().enumerate() {
            debug_assert!((code as usize) < values.len());
            // SAFETY: a literal code of a clause is below `2 · num_vars`, the length of
            // `values` (`Trail::grow`).
            match unsafe { *values.get_unchecked(code as usize) } {
                TRUE => {
                    satisfied = true;
                    break;
                }
                FALSE => {}
                _ => {
                    open[found] = k;
                    found += 1;
                    if found == 2 {
                        break;
                    }
                }
            }
        }
        if satisfied {
            continue;
        }
        match found {
            0 => return false,
            1 => {
                clause.swap(0, open[0]);
                assign(values, lits, Lit::from_code(clause[0] as usize), c as u32);
            }
            _ => {
                // open[0] < open[1]: the first swap leaves the second in place.
                clause.swap(0, open[0]);
                clause.swap(1, open[1]);
            }
        }
        let (first, second) = (
            Lit::from_code(clause[0] as usize),
            Lit::from_code(clause[1] as usize),
        );
        lists[first.code()].watches.push(Watch {
            clause: c as u32,
            blocker: second,
        });
        lists[second.code()].watches.push(Watch {
            clause: c as u32,
            blocker: first,
        });
    }
    *queue_head = closed;
    true
}
