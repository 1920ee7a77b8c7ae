//! Unit propagation (Moskewicz et al. 2001, "Chaff: engineering an efficient SAT solver",
//! DAC: two watched literals): binary clauses from their implication lists, long clauses
//! through their watches and blockers; a clause of more than [`SHORT_CLAUSE`] literals
//! resumes its search for a replacement watch where the last one stopped (Gent 2013,
//! "Optimal implementation of watched literals and more general techniques", JAIR 48): 11 %
//! less CPU over 132 gecode 25×25 draws, 21 % over ten of `sudoku-64-1`.

use super::clauses::{
    ClauseDb, ImplicationWalk, Watch, DELETED, FIRST_UNWATCHED, HEADER, SEARCH_POS,
};
use super::options::SHORT_CLAUSE;
use super::stats::Stats;
use super::trail::{Trail, BINARY_REASON, FALSE, TRUE, UNSET};
use crate::formula::Lit;

/// A clause found false.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    /// A long clause, by arena index.
    Clause(u32),
    /// A binary clause.
    Binary(Lit, Lit),
}

/// Unit propagation from `queue_head`; the conflicting clause, if any.
///
/// The solver's hot loop (70–85 % of the time on Sudoku and random 3-SAT). The fields
/// are borrowed apart so that they stay in registers, and the arena and the value table
/// are read without bounds checks: every code in a watch or implication list is a literal
/// below `2 · num_vars` (`grow` sized `values` for it) and every watched clause index is
/// the header of a clause in the arena (compaction rebuilds the watches). Debug builds
/// check both.
pub(super) fn propagate(
    trail: &mut Trail,
    db: &mut ClauseDb,
    stats: &mut Stats,
) -> Option<Conflict> {
    // One copy of the loop for each walk, so that neither pays a branch on the other.
    match db.walk {
        ImplicationWalk::BranchFree => propagate_walking::<false>(trail, db, stats),
        ImplicationWalk::SkipAssigned => propagate_walking::<true>(trail, db, stats),
    }
}

/// [`propagate`] with the implication lists walked as `SKIP_ASSIGNED` says
/// ([`ImplicationWalk`]).
fn propagate_walking<const SKIP_ASSIGNED: bool>(
    trail: &mut Trail,
    db: &mut ClauseDb,
    stats: &mut Stats,
) -> Option<Conflict> {
    let Trail {
        values,
        level,
        reason,
        lits: trail,
        trail_lim,
        queue_head,
        num_vars,
        ..
    } = trail;
    let ClauseDb { arena, lists, .. } = db;
    let propagations = &mut stats.propagations;
    let current = trail_lim.len() as u32;
    // Slices, so that the compiler keeps their addresses in registers across the trail
    // writes below; the slot past the last variable takes the branch-free writes.
    let (values, level, reason) = (&mut values[..], &mut level[..], &mut reason[..]);
    let scratch = *num_vars;
    debug_assert!(level.len() > scratch && reason.len() > scratch);
    let value = |values: &[i8], code: usize| -> i8 {
        debug_assert!(code < values.len());
        // SAFETY: literal codes in clauses and lists are below `values.len()` (above).
        unsafe { *values.get_unchecked(code) }
    };
    let mut conflict = None;
    while *queue_head < trail.len() {
        let p = trail[*queue_head];
        *queue_head += 1;
        *propagations += 1;
        let false_lit = !p;
        let code = false_lit.code();

        // Read in place: assigning touches no implication list.
        let implied = &lists[code].binaries;
        let why = BINARY_REASON | code as u32;
        if SKIP_ASSIGNED {
            for &other in implied {
                let was = value(values, other.code());
                if was == UNSET {
                    let v = other.var().index();
                    values[other.code()] = TRUE;
                    values[(!other).code()] = FALSE;
                    level[v] = current;
                    reason[v] = why;
                    trail.push(other);
                } else if was == FALSE {
                    conflict = Some(Conflict::Binary(false_lit, other));
                    break;
                }
            }
        } else {
            // Without a branch on whether `other` is open: the value writes are the same
            // either way, the level and reason go to a scratch slot unless the literal is
            // new, and the trail slot is written always and kept only for a new
            // assignment.
            trail.reserve(implied.len());
            let mut length = trail.len();
            let slots = trail.spare_capacity_mut().as_mut_ptr();
            for &other in implied {
                let was = value(values, other.code());
                if was == FALSE {
                    conflict = Some(Conflict::Binary(false_lit, other));
                    break;
                }
                let fresh = was == UNSET;
                let v = other.var().index();
                values[other.code()] = TRUE;
                values[(!other).code()] = FALSE;
                let new = usize::from(fresh).wrapping_neg(); // all ones if fresh
                let slot = v & new | scratch & !new;
                level[slot] = current;
                reason[slot] = why;
                // SAFETY: at most `implied.len()` slots are written past the old length,
                // and that many were reserved above.
                unsafe { (*slots.add(length - trail.len())).write(other) };
                length += usize::from(fresh);
            }
            // SAFETY: the slots up to `length` were written above.
            unsafe { trail.set_len(length) };
        }
        if conflict.is_some() {
            break;
        }

        let mut list = std::mem::take(&mut lists[code].watches);
        let (mut i, mut j) = (0, 0);
        let end = list.len();
        'watches: while i < end {
            let w = list[i];
            i += 1;
            if value(values, w.blocker.code()) == TRUE {
                list[j] = w;
                j += 1;
                continue;
            }
            let c = w.clause as usize;
            debug_assert!(c + HEADER + 2 <= arena.len());
            // SAFETY: `c` is a clause header in the arena (above); its length word
            // counts the literals that follow it.
            let clause = unsafe {
                if *arena.get_unchecked(c + 1) & DELETED != 0 {
                    continue;
                }
                let len = *arena.get_unchecked(c) as usize;
                debug_assert!(c + HEADER + len <= arena.len());
                std::slice::from_raw_parts_mut(arena.as_mut_ptr().add(c + HEADER), len)
            };
            if clause[0] == code as u32 {
                clause.swap(0, 1);
            }
            let first = Lit::from_code(clause[0] as usize);
            let kept = Watch {
                clause: w.clause,
                blocker: first,
            };
            if first != w.blocker && value(values, first.code()) == TRUE {
                list[j] = kept;
                j += 1;
                continue;
            }
            let not_false = |clause: &[u32], from: usize, to: usize| {
                (from..to).find(|&k| value(values, clause[k] as usize) != FALSE)
            };
            // A long clause resumes where its last search stopped and goes round to it
            // (Gent 2013, "Optimal implementation of watched literals and more general
            // techniques", JAIR 48) instead of rescanning from its start each time.
            let found = if clause.len() <= SHORT_CLAUSE {
                not_false(clause, FIRST_UNWATCHED, clause.len())
            } else {
                // SAFETY: the position word is a header word (`SEARCH_POS < HEADER`),
                // outside `clause`. It holds an index in `FIRST_UNWATCHED..len` (set by
                // `attach_new`, reset when the clause shrinks); were it not, `clause[k]`
                // would panic.
                let pos = unsafe { &mut *arena.as_mut_ptr().add(c + SEARCH_POS) };
                let start = *pos as usize;
                let found = not_false(clause, start, clause.len())
                    .or_else(|| not_false(clause, FIRST_UNWATCHED, start));
                if let Some(k) = found {
                    *pos = k as u32;
                }
                found
            };
            if let Some(k) = found {
                let other = clause[k] as usize;
                clause.swap(1, k);
                lists[other].watches.push(kept);
                continue 'watches;
            }
            list[j] = kept;
            j += 1;
            if value(values, first.code()) == UNSET {
                let v = first.var().index();
                values[first.code()] = TRUE;
                values[(!first).code()] = FALSE;
                level[v] = current;
                reason[v] = w.clause;
                trail.push(first);
            } else {
                conflict = Some(Conflict::Clause(w.clause));
                while i < end {
                    list[j] = list[i];
                    j += 1;
                    i += 1;
                }
            }
        }
        list.truncate(j);
        lists[code].watches = list;
        if conflict.is_some() {
            break;
        }
    }
    conflict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdcl::trail::NO_REASON;
    use crate::formula::Var;

    /// Both ways of walking an implication list make the same trail, levels, reasons and
    /// conflicts, on lists with duplicates and literals already assigned.
    #[test]
    fn skipping_assigned_implications_changes_nothing_but_the_walk() {
        let x: Vec<Lit> = (0..12).map(|i| Var::from_index(i).positive()).collect();
        let run = |decisions: &[Lit], walk: ImplicationWalk| {
            let (mut trail, mut db, mut stats) =
                (Trail::default(), ClauseDb::default(), Stats::default());
            trail.grow(12);
            db.grow(12);
            // At most one of each group, pairwise; the last group repeats pairs of the
            // others, as a Sudoku box repeats its row's and column's.
            let groups: [&[usize]; 4] = [
                &[0, 1, 2, 3, 4, 5],
                &[3, 4, 5, 6, 7, 8],
                &[6, 7, 8, 9, 10, 11],
                &[0, 4, 5, 9],
            ];
            for group in groups {
                for (k, &a) in group.iter().enumerate() {
                    for &b in &group[k + 1..] {
                        db.add_binary(!x[a], !x[b]);
                    }
                }
            }
            db.attach_new(&[x[1], x[7], x[10], x[11]], false, 0);
            db.walk = walk;
            let mut seen = Vec::new();
            for &decision in decisions {
                trail.new_decision_level();
                trail.assign(decision, NO_REASON);
                let conflict = propagate(&mut trail, &mut db, &mut stats);
                seen.push(format!(
                    "{conflict:?} {:?} {:?} {:?} {:?}",
                    trail.lits,
                    trail.values,
                    &trail.level[..12],
                    &trail.reason[..12]
                ));
            }
            (seen, trail.lits.len(), trail.value(x[11]))
        };
        // x4 rules out x1 and x7, so not x10 leaves the clause x11.
        let settled = run(&[x[4], !x[10]], ImplicationWalk::SkipAssigned);
        assert_eq!(settled, run(&[x[4], !x[10]], ImplicationWalk::BranchFree));
        assert!(settled.0[1].starts_with("None"), "{}", settled.0[1]);
        assert_eq!((settled.1, settled.2), (12, TRUE));
        // With x10 and x11 out, x4 leaves the clause no literal.
        let refuted = run(&[!x[10], !x[11], x[4]], ImplicationWalk::SkipAssigned);
        assert_eq!(
            refuted,
            run(&[!x[10], !x[11], x[4]], ImplicationWalk::BranchFree)
        );
        assert!(refuted.0[2].starts_with("Some(Clause"), "{}", refuted.0[2]);
    }

    #[test]
    fn a_long_clause_resumes_its_watch_search_and_wraps_around() {
        let x: Vec<Lit> = (0..14).map(|i| Var::from_index(i).positive()).collect();
        let (mut trail, mut db, mut stats) =
            (Trail::default(), ClauseDb::default(), Stats::default());
        trail.grow(14);
        db.grow(14);
        let c = db.attach_new(&x, false, 0);
        // Falsify all but x0 and one other literal in the given order, one level each;
        // then the last other one: x0 must be implied by the clause.
        for (order, last) in [
            ((1..13).collect::<Vec<usize>>(), 13),
            ((2..14).rev().collect(), 1),
            ((1..14).filter(|&i| i != 7).collect(), 7),
        ] {
            for &i in &order {
                trail.new_decision_level();
                trail.assign(!x[i], NO_REASON);
                assert!(propagate(&mut trail, &mut db, &mut stats).is_none());
                assert_eq!(trail.value(x[0]), UNSET, "x0 implied early");
                let pos = db.arena[c as usize + SEARCH_POS] as usize;
                assert!(
                    (FIRST_UNWATCHED..14).contains(&pos),
                    "position {pos} out of the clause"
                );
            }
            trail.new_decision_level();
            trail.assign(!x[last], NO_REASON);
            assert!(propagate(&mut trail, &mut db, &mut stats).is_none());
            assert_eq!(trail.value(x[0]), TRUE);
            assert_eq!(trail.reason[0], c);
            trail.backtrack(0, |_| {});
        }
    }
}
