//! Loading: the clauses as given are kept (to check models and find probe candidates) and
//! loaded at the next solve, simplified against the root assignment (MiniSat's `addClause`,
//! Eén & Sörensson 2003, "An extensible SAT-solver", SAT); the solver is incremental, so
//! clauses added after a solve keep everything learnt.

use super::base::Base;
use super::clauses::ClauseDb;
use super::decide::Vsids;
use super::options::LOAD_CHECK_PERIOD;
use super::propagate::propagate;
use super::stats::Stats;
use super::substitute::Equivalences;
use super::trail::{Trail, FALSE, NO_REASON, TRUE, UNSET};
use crate::formula::{Cnf, Lit, ReserveError};

/// The formula as given and how much of it is loaded.
#[derive(Clone, Default)]
pub(super) struct Formula {
    /// Copy of every clause as given, to check models and find probe candidates.
    pub(super) original: Cnf,
    /// Clauses of `original` already loaded.
    pub(super) loaded: usize,
    /// Leading clauses of `original` whose models the caller checks
    /// ([`SatBackend::trust_clauses`](crate::SatBackend::trust_clauses)).
    pub(super) trusted: usize,
    /// An empty clause was added or derived at the root.
    pub(super) inconsistent: bool,
    /// Whether root probing already ran on the formula as loaded (rerun after additions).
    pub(super) probed_clauses: usize,
    /// A model's buffer handed back by the caller
    /// ([`SatBackend::recycle_model`](crate::SatBackend::recycle_model)), for the next one.
    pub(super) model_buffer: Vec<bool>,
    /// The literals of a clause being simplified as it is loaded.
    scratch: Vec<Lit>,
    /// The base formula of queries with root units, once set
    /// ([`SolveWithRootUnits`](crate::SolveWithRootUnits)).
    pub(super) base: Option<Box<Base>>,
}

impl Formula {
    /// A copy for another thread (without the buffers of one thread's work).
    pub(super) fn fork(&self) -> Formula {
        Formula {
            original: self.original.clone(),
            loaded: self.loaded,
            trusted: self.trusted,
            inconsistent: self.inconsistent,
            probed_clauses: self.probed_clauses,
            model_buffer: Vec::new(),
            scratch: Vec::new(),
            base: self.base.clone(),
        }
    }

    /// Reserves, fallibly, the buffers the pending clauses and variables need, so that a
    /// formula too large for the memory is an error rather than an abort; with
    /// `unmapped` (no substitution reads the clauses into other literals) each list gets
    /// the room its clauses take ([`ClauseDb::reserve_lists`]).
    pub(super) fn reserve_pending(
        &self,
        trail: &mut Trail,
        db: &mut ClauseDb,
        vsids: &mut Vsids,
        unmapped: bool,
    ) -> Result<(), ReserveError> {
        let clauses = self.original.num_clauses() - self.loaded;
        let literals = self.original.num_literals() - self.original.literals_before(self.loaded);
        let vars = self.original.num_vars().saturating_sub(trail.num_vars);
        db.reserve(literals, clauses, vars)?;
        trail.reserve(vars)?;
        vsids.reserve(vars)?;
        if unmapped && !self.inconsistent {
            let pending = self.original.clauses_from(self.loaded);
            db.reserve_lists(pending, self.original.num_vars())?;
        }
        Ok(())
    }

    /// Root conflict: logs the empty clause.
    pub(super) fn refuted(&mut self, db: &mut ClauseDb) {
        refute(&mut self.inconsistent, db);
    }

    /// Loads the clauses added since the last solve (simplified against the root and
    /// read through the substitutions made; the solver is at the root and has room for
    /// every variable). `stop`, asked every [`LOAD_CHECK_PERIOD`] clauses, ends the load
    /// early (a time limit, an interrupt): `false` then, and the next solve goes on from
    /// there. Never inlined: loading is a stage of its own in a profile
    /// (docs/benchmarks/nine.md, "Where a 9×9 batch spends its time").
    #[inline(never)]
    pub(super) fn load_pending(
        &mut self,
        equivalences: &Equivalences,
        trail: &mut Trail,
        db: &mut ClauseDb,
        stats: &mut Stats,
        stop: &dyn Fn() -> bool,
    ) -> bool {
        // Two copies of the loop: the one without substitutions (every 9×9 solve) pays no
        // test per clause (0.8 % of a 9×9 batch's instructions).
        if equivalences.is_empty() {
            self.load_clauses::<false>(equivalences, trail, db, stats, stop)
        } else {
            self.load_clauses::<true>(equivalences, trail, db, stats, stop)
        }
    }

    fn load_clauses<const MAPPED: bool>(
        &mut self,
        equivalences: &Equivalences,
        trail: &mut Trail,
        db: &mut ClauseDb,
        stats: &mut Stats,
        stop: &dyn Fn() -> bool,
    ) -> bool {
        let Formula {
            original,
            loaded,
            inconsistent,
            scratch: lits,
            ..
        } = self;
        let mut mapped = Vec::new();
        // A refuted formula takes no more clauses; a refutation below ends the loop.
        let pending = if *inconsistent {
            original.num_clauses()
        } else {
            *loaded
        };
        for (index, clause) in (pending..).zip(original.clauses_from(pending)) {
            if index % LOAD_CHECK_PERIOD == LOAD_CHECK_PERIOD - 1 && stop() {
                *loaded = index;
                return false;
            }
            let mut clause = clause;
            if MAPPED {
                mapped.clear();
                mapped.extend(clause.iter().map(|&lit| equivalences.map(lit)));
                clause = &mapped;
            }
            // Fast path for the bulk of Sudoku formulas: an open binary clause.
            if let [a, b] = *clause {
                if a.var() != b.var()
                    && trail.values[a.code()] == UNSET
                    && trail.values[b.code()] == UNSET
                {
                    db.add_binary(a, b);
                    continue;
                }
            }
            lits.clear();
            let mut satisfied = false;
            let mut shortened = false;
            for &lit in clause {
                match trail.values[lit.code()] {
                    TRUE => {
                        satisfied = true;
                        break;
                    }
                    FALSE => shortened = true,
                    _ => {
                        if lits.contains(&!lit) {
                            satisfied = true;
                            break;
                        }
                        if lits.contains(&lit) {
                            shortened = true;
                        } else {
                            lits.push(lit);
                        }
                    }
                }
            }
            if satisfied {
                continue;
            }
            if shortened && lits.len() > 1 {
                db.proof.add(lits);
            }
            match lits.len() {
                0 => {
                    refute(inconsistent, db);
                    break;
                }
                1 => {
                    trail.assign(lits[0], NO_REASON);
                    if propagate(trail, db, stats).is_some() {
                        refute(inconsistent, db);
                        break;
                    }
                }
                2 => db.add_binary(lits[0], lits[1]),
                _ => {
                    db.attach_new(lits, false, 0);
                }
            }
        }
        self.loaded = self.original.num_clauses();
        true
    }
}

/// Marks the formula refuted at the root and logs the empty clause.
fn refute(inconsistent: &mut bool, db: &mut ClauseDb) {
    *inconsistent = true;
    db.proof.add(&[]);
}
