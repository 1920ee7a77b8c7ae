//! A theory joined to the search through the propagator interface
//! ([`crate::Propagator`], shaped after IPASIR-UP: Fazekas et al. 2023, "IPASIR-UP:
//! User propagators for CDCL", SAT). At each unit-propagation fixpoint the theory hears of
//! the observed literals assigned since ([`Trail::notify_theory`]); the clauses it adds
//! (conflicts, lemmas) and the literals it implies follow, each implied literal with the
//! reason clause the theory gives, added as a learnt clause (logged in the proof) that
//! becomes the literal's reason (lazy clause generation: Ohrimenko, Stuckey & Codish 2009,
//! "Propagation via lazy clause generation", Constraints 14). The search asks it for a
//! decision before VSIDS and for a verdict on each model.
//!
//! Reasons are asked for when a literal is assigned, not when analysis meets it, and are
//! kept as learnt clauses: the interface allows asking later (a theory's reasons are lazy
//! on its side), but a reason kept as a clause propagates by watches on later branches,
//! where a reason kept only beside the database has the theory derive it again. Kept
//! beside it (a stack in trail order that analysis read like clauses), the grid theory
//! took 18 % more instructions on the forum-hardest 9×9 puzzles (docs/history.md, "Theory
//! reasons off the clause database").

use std::sync::Arc;

use super::analyze::Analysis;
use super::clauses::ClauseDb;
use super::decide::{cancel_until, Vsids};
use super::options::EXPLANATION_MIN_LBD;
use super::propagate::{propagate, Conflict};
use super::stats::Stats;
use super::trail::{Trail, BINARY_REASON, FALSE, NO_REASON, TRUE, UNSET};
use crate::formula::Lit;
use crate::PropagatorFactory;

/// What one round of the theory did.
pub(super) enum Native {
    /// Nothing new.
    Fixpoint,
    /// Literals assigned: unit propagation runs again.
    Progress,
    /// A clause of the theory is false.
    Conflict(Conflict),
    /// The empty clause.
    Refuted,
}

/// The theory's factory and buffers (the propagator itself follows the trail, in
/// [`Trail::theory`]).
#[derive(Clone, Default)]
pub(super) struct TheoryLink {
    /// Makes the propagator of each solve (kept to rebuild it when a proof is set later).
    pub(super) factory: Option<Arc<dyn PropagatorFactory>>,
    /// The clause being handled.
    clause: Vec<Lit>,
    /// `clause` holds a clause the theory added when it rejected a model, to be handled
    /// first in the next round.
    rejection: bool,
}

/// What the theory hands over next.
enum Next {
    /// A clause it adds.
    Added,
    /// A literal it implies, with its reason in the clause buffer.
    Implied,
}

impl TheoryLink {
    /// Makes the propagator for `trail` when a factory is set and none exists; with a proof
    /// (`checkable`), only inferences a checker can verify by unit propagation.
    pub(super) fn attach(&self, trail: &mut Trail, checkable: bool) {
        if trail.theory.is_none() {
            if let Some(factory) = &self.factory {
                if let Some(theory) = factory.create(trail.num_vars, checkable) {
                    trail.connect(theory);
                }
            }
        }
    }

    /// A copy for another thread (the factory, not the clause being handled).
    pub(super) fn fork(&self) -> TheoryLink {
        TheoryLink {
            factory: self.factory.clone(),
            clause: Vec::new(),
            rejection: false,
        }
    }

    /// Unit propagation, then the theory (when set), until neither finds anything new.
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
            if trail.theory.is_none() {
                return Native::Fixpoint;
            }
            match self.propagate_theory(trail, db, vsids, analysis, stats) {
                Native::Progress => continue,
                other => return other,
            }
        }
    }

    /// One round of the theory: its clauses, then its implications, until it has none or
    /// one of them ends the round (a conflict, a unit that sent the search to the root).
    fn propagate_theory(
        &mut self,
        trail: &mut Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
        analysis: &mut Analysis,
        stats: &mut Stats,
    ) -> Native {
        trail.notify_theory();
        let mut clause = std::mem::take(&mut self.clause);
        let mut result = Native::Fixpoint;
        // The propagator stays in the trail through a step, which may backtrack and so
        // notify it.
        while let Some(theory) = trail.theory.as_mut() {
            let next = if std::mem::take(&mut self.rejection) || theory.add_clause(&mut clause) {
                Next::Added
            } else {
                match theory.propagate() {
                    None => break,
                    Some(lit) if trail.values[lit.code()] == TRUE => continue,
                    Some(lit) => {
                        theory.reason_clause(lit, &mut clause);
                        debug_assert_eq!(
                            clause.first(),
                            Some(&lit),
                            "a reason starts with its literal"
                        );
                        Next::Implied
                    }
                }
            };
            let step = match next {
                Next::Added => added_clause(&mut clause, trail, db, vsids, analysis, stats),
                Next::Implied if trail.value(clause[0]) == UNSET => {
                    explained_propagation(&mut clause, trail, db, vsids, analysis, stats)
                }
                Next::Implied => explained_conflict(&mut clause, trail, db, vsids, analysis, stats),
            };
            match step {
                // Assigned without leaving the level: the theory's other inferences hold.
                Native::Fixpoint => result = Native::Progress,
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.clause = clause;
        result
    }

    /// The theory's verdict on the model on `trail` (every variable assigned): `true` when
    /// it accepts it, or gives no clause to say why not (nothing the search could act on);
    /// `false` with the clause kept for the next round.
    pub(super) fn accepts_model(&mut self, trail: &mut Trail) -> bool {
        if trail.theory.is_none() {
            return true;
        }
        let model = trail.model_values();
        let theory = trail.theory.as_mut().expect("checked above");
        if theory.check_model(&model) {
            return true;
        }
        self.rejection = theory.add_clause(&mut self.clause);
        !self.rejection
    }

    /// The theory's decision, when it makes one on an open variable.
    #[inline]
    pub(super) fn decision(&mut self, trail: &mut Trail) -> Option<Lit> {
        let lit = trail.theory.as_mut()?.decide()?;
        (trail.value(lit) == UNSET).then_some(lit)
    }
}

/// A clause the theory adds: a conflict when all its literals are false, an implication of
/// its one open literal when the others are, else a lemma kept as a learnt clause.
fn added_clause(
    clause: &mut Vec<Lit>,
    trail: &mut Trail,
    db: &mut ClauseDb,
    vsids: &mut Vsids,
    analysis: &mut Analysis,
    stats: &mut Stats,
) -> Native {
    // Open and true literals first, then the false ones from the highest level down.
    clause.sort_by_key(|&l| {
        let open = trail.value(l) != FALSE;
        (!open, std::cmp::Reverse(trail.level[l.var().index()]))
    });
    clause.dedup();
    let open = clause
        .iter()
        .take_while(|&&l| trail.value(l) != FALSE)
        .count();
    match open {
        0 => explained_conflict(clause, trail, db, vsids, analysis, stats),
        1 if trail.value(clause[0]) == UNSET => {
            explained_propagation(clause, trail, db, vsids, analysis, stats)
        }
        1 => Native::Fixpoint,
        _ => {
            logged(clause, db, stats);
            let lbd = analysis.lbd_of(clause, trail).max(EXPLANATION_MIN_LBD);
            if clause.len() == 2 {
                db.add_binary(clause[0], clause[1]);
            } else {
                db.attach_new(clause, true, lbd);
            }
            Native::Fixpoint
        }
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
    logged(clause, db, stats);
    if clause.len() == 1 {
        return unit_at_root(clause[0], trail, vsids);
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
    logged(clause, db, stats);
    if clause.is_empty() {
        return Native::Refuted;
    }
    clause.sort_unstable_by_key(|l| std::cmp::Reverse(trail.level[l.var().index()]));
    let top = trail.level[clause[0].var().index()];
    if top == 0 {
        return Native::Refuted;
    }
    if clause.len() == 1 {
        return unit_at_root(clause[0], trail, vsids);
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

/// Counts a clause of the theory and logs it in the proof (as a lemma, which a checker
/// verifies).
fn logged(clause: &[Lit], db: &mut ClauseDb, stats: &mut Stats) {
    stats.native_clauses += 1;
    db.proof.add(clause);
}

/// A unit of the theory: the search goes back to the root and asserts it there.
fn unit_at_root(lit: Lit, trail: &mut Trail, vsids: &mut Vsids) -> Native {
    cancel_until(trail, vsids, 0);
    trail.assign(lit, NO_REASON);
    Native::Progress
}
