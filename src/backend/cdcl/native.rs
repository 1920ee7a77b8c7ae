//! The native Sudoku propagation as seen from CDCL: when the formula comes from a puzzle
//! ([`SatBackend::set_structure`](crate::backend::SatBackend::set_structure)), the
//! propagator of [`crate::backend::sudoku`] runs after unit propagation, and each of its
//! explanation clauses is added as a learnt clause (logged in the proof) and becomes the
//! reason of the literal it implies, or the conflict (lazy clause generation: Ohrimenko,
//! Stuckey & Codish 2009, "Propagation via lazy clause generation", Constraints 14).

use super::analyze::Analysis;
use super::clauses::ClauseDb;
use super::decide::{cancel_until, Vsids};
use super::options::EXPLANATION_MIN_LBD;
use super::propagate::{propagate, Conflict};
use super::stats::Stats;
use super::trail::{Trail, BINARY_REASON, FALSE, NO_REASON, TRUE, UNSET};
use crate::backend::sudoku::{Explanations, Propagate, SudokuPropagator, SudokuStructure};
use crate::formula::Lit;

/// What one call of the native propagator did.
pub(super) enum Native {
    /// Nothing new.
    Fixpoint,
    /// Literals assigned: unit propagation runs again.
    Progress,
    /// An explanation clause is false.
    Conflict(Conflict),
    /// The empty clause.
    Refuted,
}

/// The native propagation's settings and buffers (the propagator itself follows the
/// trail, in [`Trail::sudoku`]).
#[derive(Clone, Default)]
pub(super) struct NativePropagation {
    /// Whether a Sudoku structure, when given, is propagated natively.
    pub(super) native: Propagate,
    /// The structure the propagator is made from (kept to rebuild it when a proof is set
    /// later).
    pub(super) structure: Option<SudokuStructure>,
    explanations: Explanations,
    /// The explanation being handled.
    clause: Vec<Lit>,
}

impl NativePropagation {
    /// Makes the propagator for `trail` when a structure is given and none exists; with a
    /// proof (`checkable`), only inferences a checker can verify by unit propagation.
    pub(super) fn attach(&self, trail: &mut Trail, checkable: bool) {
        if trail.sudoku.is_none() {
            if let Some(structure) = &self.structure {
                trail.sudoku =
                    SudokuPropagator::new(structure, trail.num_vars, self.native, checkable)
                        .map(Box::new);
            }
        }
    }

    /// A copy for another thread (the structure and buffers, not the clause being
    /// handled).
    pub(super) fn fork(&self) -> NativePropagation {
        NativePropagation {
            native: self.native,
            structure: self.structure.clone(),
            explanations: self.explanations.clone(),
            clause: Vec::new(),
        }
    }

    /// Unit propagation, then the native Sudoku propagation (when set), until neither
    /// finds anything new.
    #[inline]
    pub(super) fn propagate_all(
        &mut self,
        trail: &mut Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
        analysis: &mut Analysis,
        stats: &mut Stats,
    ) -> Native {
        loop {
            if let Some(conflict) = propagate(trail, db, stats) {
                return Native::Conflict(conflict);
            }
            if trail.sudoku.is_none() {
                return Native::Fixpoint;
            }
            match self.propagate_native(trail, db, vsids, analysis, stats) {
                Native::Progress => continue,
                other => return other,
            }
        }
    }

    /// One round of the native propagator: each explanation clause is added as a learnt
    /// clause (logged in the proof) and becomes the reason of the literal it implies, or
    /// the conflict.
    fn propagate_native(
        &mut self,
        trail: &mut Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
        analysis: &mut Analysis,
        stats: &mut Stats,
    ) -> Native {
        let mut sudoku = trail.sudoku.take().expect("called with a propagator");
        let mut explanations = std::mem::take(&mut self.explanations);
        sudoku.propagate(&trail.lits, &trail.values, &mut explanations);
        trail.sudoku = Some(sudoku);
        let mut clause = std::mem::take(&mut self.clause);
        let mut result = Native::Fixpoint;
        for i in 0..explanations.len() {
            clause.clear();
            clause.extend_from_slice(explanations.clause(i));
            debug_assert!(clause
                .iter()
                .skip(1)
                .all(|&l| trail.values[l.code()] == FALSE));
            let step = match clause.first().map(|&l| trail.value(l)) {
                Some(TRUE) => continue,
                Some(UNSET) => {
                    explained_propagation(&mut clause, trail, db, vsids, analysis, stats)
                }
                _ => explained_conflict(&mut clause, trail, db, vsids, analysis, stats),
            };
            match step {
                // Assigned without leaving the level: the rest of the batch still holds.
                Native::Fixpoint => result = Native::Progress,
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.clause = clause;
        self.explanations = explanations;
        result
    }
}

/// Asserts `clause[0]` with `clause` (the rest false) as its reason; `Fixpoint` when
/// it stayed on this level, `Progress` when a unit sent the search to the root.
fn explained_propagation(
    clause: &mut [Lit],
    trail: &mut Trail,
    db: &mut ClauseDb,
    vsids: &mut Vsids,
    analysis: &mut Analysis,
    stats: &mut Stats,
) -> Native {
    stats.native_clauses += 1;
    db.proof.add(clause);
    if clause.len() == 1 {
        cancel_until(trail, vsids, 0);
        trail.assign(clause[0], NO_REASON);
        return Native::Progress;
    }
    let top = (1..clause.len())
        .max_by_key(|&k| trail.level[clause[k].var().index()])
        .expect("two literals or more");
    clause.swap(1, top);
    if clause.len() == 2 {
        db.add_binary(clause[0], clause[1]);
        trail.assign(clause[0], BINARY_REASON | clause[1].code() as u32);
    } else {
        // Rated no better than EXPLANATION_MIN_LBD: explanations are re-derived on
        // demand, so they need not be kept for good.
        // The implied literal counts on this level (it is not assigned yet).
        let lbd = (analysis.lbd_of(&clause[1..], trail) + 1).max(EXPLANATION_MIN_LBD);
        let c = db.attach_new(clause, true, lbd);
        trail.assign(clause[0], c);
    }
    Native::Fixpoint
}

/// `clause` is false: backjumps to the level where it became false and hands it to
/// conflict analysis.
fn explained_conflict(
    clause: &mut [Lit],
    trail: &mut Trail,
    db: &mut ClauseDb,
    vsids: &mut Vsids,
    analysis: &mut Analysis,
    stats: &mut Stats,
) -> Native {
    stats.native_clauses += 1;
    db.proof.add(clause);
    if clause.is_empty() {
        return Native::Refuted;
    }
    clause.sort_unstable_by_key(|l| std::cmp::Reverse(trail.level[l.var().index()]));
    let top = trail.level[clause[0].var().index()];
    if top == 0 {
        return Native::Refuted;
    }
    if clause.len() == 1 {
        cancel_until(trail, vsids, 0);
        trail.assign(clause[0], NO_REASON);
        return Native::Progress;
    }
    cancel_until(trail, vsids, top);
    if clause.len() == 2 {
        db.add_binary(clause[0], clause[1]);
        Native::Conflict(Conflict::Binary(clause[0], clause[1]))
    } else {
        let lbd = analysis.lbd_of(clause, trail).max(EXPLANATION_MIN_LBD);
        Native::Conflict(Conflict::Clause(db.attach_new(clause, true, lbd)))
    }
}
