//! The built-in conflict-driven clause-learning (CDCL) solver.
//!
//! The procedure of GRASP (Marques-Silva & Sakallah 1999, "GRASP: A search algorithm for
//! propositional satisfiability", IEEE Trans. Computers 48(5)) with the engineering of Chaff
//! (Moskewicz et al. 2001, DAC: two watched literals, VSIDS branching) and MiniSat (Eén &
//! Sörensson 2003, "An extensible SAT-solver", SAT: first-UIP learning, recursive learnt-clause
//! minimisation, assumptions and `analyzeFinal`):
//!
//! - **propagation**: binary clauses in per-literal implication lists; longer clauses with two
//!   watched literals, each watch carrying a *blocker* literal that skips satisfied clauses
//!   without touching the clause arena; a clause of more than 10 literals keeps where its
//!   last search for a replacement watch stopped and resumes there (Gent 2013, "Optimal
//!   implementation of watched literals and more general techniques", JAIR 48): 11 % less
//!   CPU over 132 gecode 25×25 draws, 21 % over ten of `sudoku-64-1`;
//! - **conflict analysis**: the first unique implication point, the learnt clause minimised by
//!   removing literals implied by the others (Sörensson & Biere 2009, "Minimizing learned
//!   clauses", SAT), then by resolution with the asserting literal's binary clauses
//!   (glucose; Audemard & Simon 2009), non-chronological backjumping to the second-highest
//!   level. On formulas of the extended and augmented Sudoku encodings, and in the odd
//!   members of a portfolio on any formula, the clause is also *shrunk* (Feng & Bacchus
//!   2020, "Clause size reduction with all-UIP learning", SAT; CaDiCaL's `shrink`): a
//!   level's literals replaced by their UIP. On one thread that took 25–32 % less CPU on gecode 25×25
//!   draws but up to 240× more conflicts on sparse 16×16 puzzles in the minimal encoding,
//!   where it stays off (docs/history.md, "The CDCL search");
//! - **branching**: VSIDS (a binary heap of variable activities, bumped for every variable seen
//!   in analysis, decayed by 0.95 per conflict) with phase saving (Pipatsrisawat & Darwiche
//!   2007, "A lightweight component caching scheme for satisfiability solvers", SAT);
//! - **two search modes** in runs of 1,000 · 2^k conflicts, as in CaDiCaL (Biere & Fleury
//!   2020, "Chasing target phases", Pragmatics of SAT; Oh 2015, "Between SAT and UNSAT: the
//!   fundamental difference in CDCL SAT", SAT). *Focused* mode restarts when the learnt
//!   clauses get worse: the LBD average of the last ~32 conflicts exceeds 1.4 × that of the
//!   last ~4,096 (Audemard & Simon 2012, "Refining restarts strategies for SAT and UNSAT",
//!   CP, whose margin is 1.25; measured against Luby × 100: 19 % less time on
//!   hardest-375). *Stable* mode restarts after 1,024 × Luby(k) conflicts (Luby, Sinclair &
//!   Zuckerman 1993) and decides each variable's *target phase*, its value in the longest
//!   conflict-free trail since the last rephasing. Each mode keeps its own LBD averages. Every
//!   1,000 · k conflicts the saved phases are reset to the *best* phases (the longest conflict-free
//!   trail since the last such reset). Focused mode alone never finished `sudoku-64-1` (300 CPU s);
//!   with the stable runs it takes 3–23 s on four isomorphic copies (CaDiCaL 27–136 s), and the
//!   gecode 25×25 set with copies 2.3× less time;
//! - **learnt-clause database**: clauses rated by their literal block distance (LBD, the
//!   number of decision levels among their literals; Audemard & Simon 2009, "Predicting
//!   learnt clauses quality in modern SAT solvers", IJCAI); "glue" clauses (LBD ≤ 2) are kept
//!   for good, half of the others are dropped every 2,000 + 300·k conflicts unless used since
//!   the last reduction;
//! - **root simplification**: at restarts, once new root units exist, satisfied clauses are
//!   removed and false literals struck out; the arena is compacted and watches rebuilt;
//! - **equivalent-literal substitution** (module `substitute`; Aspvall, Plass & Tarjan 1979;
//!   Van Gelder 2005; Heule, Järvisalo & Biere 2011, "Efficient CNF simplification based
//!   on binary implication graphs", SAT): each strongly connected component of the binary
//!   implication graph is replaced by one literal in every clause, after root probing and
//!   at restarts every few thousand conflicts, where learnt binary clauses close new
//!   cycles; models, later clauses and assumptions are read through it, and the proof
//!   keeps every rewritten clause. On the 48 gecode 25×25 draws it took a third less CPU
//!   (docs/history.md, "The CDCL search");
//! - **failed-literal probing** at the root before the search (Freeman 1995; the DPLL's
//!   [`Lookahead::Full`]), where it pays: formulas of more than
//!   [`crate::dpll::AUTO_FULL_ABOVE`] variables under [`Lookahead::Auto`]. On the
//!   large Sudoku grids it settles most of the puzzle before any decision;
//! - a **lookahead search** ([`crate::lookahead`], after satz, kcnfs and march)
//!   takes over the first solve of a formula of at most [`LOOKAHEAD_SEARCH_MAX_VARS`]
//!   variables whose clauses all have k literals, 3 ≤ k ≤ 6, without assumptions or
//!   proof, unless [`Lookahead::None`], once CDCL has spent one conflict per five
//!   variables without an answer: on random 3-SAT at the threshold it takes under a third
//!   of CDCL's time (200 formulas of 150 variables: 0.47 against 1.60 s; varisat
//!   1.29–1.32 s). On more than one thread it races CDCL instead, which goes on beside it
//!   (below the threshold CDCL is the faster).
//!
//! The solver is incremental: clauses added after a `solve` keep everything learnt (learnt
//! clauses are implied by the formula, so they stay valid), and [`crate::SolveUnderAssumptions::solve_under`]
//! solves under assumptions, answering the failed ones. With [`crate::WriteProofs::set_proof`] it logs
//! a DRAT proof ([`crate::proof`]): every learnt clause, every strengthened clause and
//! deletion, and the empty clause.
//!
//! # Layout
//!
//! One technique per file, layered: each file uses only the files below it in `LAYERS`
//! (bottom first: options, stats, proof, trail, clauses, decide, propagate, minimize,
//! shrink, analyze, reduce, restart, simplify, substitute, assume, theory, probe, load, search,
//! portfolio, then this file), which a unit test checks. The solver's state is a set of
//! parts, each in the file of its technique (the trail's `Trail`, the clause database's
//! `ClauseDb`, branching's `Vsids`, conflict analysis's `Analysis`, the restart modes'
//! `Modes`, …), and a technique borrows as arguments only the parts it needs: data a lower
//! layer needs is passed in, and the search loop (`search`, which holds the parts in
//! [`Cdcl`]) calls the techniques. Every tuning constant, with its meaning, range and the
//! section of docs/history.md that set it, is in `options`.

use std::sync::Arc;
use std::time::Duration;

use crate::dpll::Lookahead;
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::lookahead::LookaheadSolver;
use crate::run::{Counters, Deadline};
use crate::{
    check_model_from, BackendError, ConnectPropagator, DratWriter, Interrupt, LimitTime,
    ProofTarget, PropagatorFactory, SatBackend, SatOutcome, SolveUnderAssumptions,
    SolveWithRootUnits, WriteProofs,
};

mod analyze;
mod assume;
mod base;
mod clauses;
mod decide;
mod load;
mod minimize;
mod options;
mod portfolio;
mod probe;
mod proof;
mod propagate;
mod reduce;
mod restart;
mod search;
mod shrink;
mod simplify;
mod stats;
mod substitute;
mod theory;
mod trail;

pub use self::options::{
    LOOKAHEAD_RACE_MAX_VARS, LOOKAHEAD_SEARCH_CLAUSE_LENGTHS, LOOKAHEAD_SEARCH_MAX_VARS,
    VARS_PER_CONFLICT_BEFORE_LOOKAHEAD,
};
pub use self::search::Cdcl;

use self::base::Base;
use self::clauses::ImplicationWalk;
use self::options::{FORK_WAIT_FACTOR, PORTFOLIO_AFTER};
use self::portfolio::RaceEnd;
use self::propagate::propagate;
use self::reduce::{forget_above_glue, ReduceSchedule};
use self::restart::Modes;
use self::search::Ended;
use self::stats::Stats;

/// The files of this module from the bottom layer up: each uses only files before it
/// (this file, `mod`, uses them all). The parts of the state sit low (`trail`, `clauses`,
/// `decide`), the techniques that borrow them above, the search loop that calls the
/// techniques above those, and the portfolio that runs copies of the search at the top.
// Read only by the layering test: the list is the documentation it enforces.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const LAYERS: &[&str] = &[
    "options",
    "stats",
    "proof",
    "trail",
    "clauses",
    "decide",
    "propagate",
    "minimize",
    "shrink",
    "analyze",
    "reduce",
    "restart",
    "simplify",
    "substitute",
    "assume",
    "theory",
    "probe",
    "base",
    "load",
    "search",
    "portfolio",
    "mod",
];

impl Cdcl {
    /// An empty solver with root probing under [`Lookahead::Auto`].
    pub fn new() -> Cdcl {
        Cdcl::with_lookahead(Lookahead::Auto)
    }

    /// An empty solver with the given root probing: [`Lookahead::None`] never probes,
    /// [`Lookahead::Full`] and [`Lookahead::BranchClause`] always do, [`Lookahead::Auto`]
    /// above [`crate::dpll::AUTO_FULL_ABOVE`] variables.
    pub fn with_lookahead(lookahead: Lookahead) -> Cdcl {
        let mut cdcl = Cdcl {
            lookahead,
            reduce: ReduceSchedule::new(),
            ..Cdcl::default()
        };
        cdcl.vsids.var_inc = 1.0;
        cdcl
    }

    /// The same solver on up to `threads` threads per solve: a search still open after
    /// 2,000 conflicts goes on as a portfolio of diversified copies of the solver, and the
    /// first answer wins (Hamadi, Jabbour & Saïs 2009, ManySAT). Which
    /// solution a formula with several gets may then differ from run to run. 0 and 1 mean
    /// one thread, deterministic. A solve with a proof or native propagation stays on one.
    pub fn with_threads(mut self, threads: usize) -> Cdcl {
        self.limits.threads = threads;
        self
    }

    /// The same solver with another draw of its search: a `seed` other than 0 gives each
    /// variable a random initial activity below 10⁻⁵ (MiniSat's `rnd_init_act`), so the
    /// first decisions, which VSIDS cannot rank yet, come in a seeded random order instead
    /// of the variables' order, and the portfolio's copies get other noise. The answer is
    /// the same; the path to it, and on a hard formula its length, differ. One run of a
    /// chaotic search is one sample: seeds sample it (`--seed`). 0, the default, keeps the
    /// variables' order.
    pub fn with_seed(mut self, seed: u64) -> Cdcl {
        self.vsids.seed = seed;
        self
    }

    /// The same solver within a memory budget (`--max-memory`): the portfolio takes only
    /// as many copies as fit in what the solver itself leaves of `budget`. `None`: the
    /// copies fit in half the memory the system reports available.
    pub fn with_memory_budget(mut self, budget: Option<u64>) -> Cdcl {
        self.limits.memory_budget = budget;
        self
    }

    /// Whether this solve may go to the lookahead search ([`crate::lookahead`])
    /// once CDCL has spent its budget of conflicts ([`VARS_PER_CONFLICT_BEFORE_LOOKAHEAD`]):
    /// the first solve of a formula of at most [`LOOKAHEAD_SEARCH_MAX_VARS`] variables
    /// ([`LOOKAHEAD_RACE_MAX_VARS`] when it races CDCL on several threads) whose
    /// clauses all have the same length k in [`LOOKAHEAD_SEARCH_CLAUSE_LENGTHS`] (the shape
    /// of uniform random k-SAT), without assumptions, proof or Sudoku structure, unless
    /// [`Lookahead::None`] asks for CDCL alone. Later solves (after blocking clauses) are
    /// CDCL's.
    fn takes_lookahead_search(&self, assumptions: &[Lit]) -> bool {
        let uniform_length = |k: usize| {
            LOOKAHEAD_SEARCH_CLAUSE_LENGTHS.contains(&k)
                && self
                    .formula
                    .original
                    .clauses()
                    .all(|clause| clause.len() == k)
        };
        self.lookahead != Lookahead::None
            && assumptions.is_empty()
            && self.formula.loaded == 0
            && !self.db.proof.is_on()
            && self.theory.factory.is_none()
            && self.formula.original.num_vars()
                <= if self.races_lookahead() {
                    LOOKAHEAD_RACE_MAX_VARS
                } else {
                    LOOKAHEAD_SEARCH_MAX_VARS
                }
            && self.formula.original.num_clauses() > 0
            && uniform_length(self.formula.original.clause(0).len())
    }

    /// Solves by lookahead.
    fn lookahead_search(&mut self, deadline: &Deadline) -> Result<SatOutcome, BackendError> {
        let mut search = LookaheadSolver::new(&self.formula.original);
        let outcome = search.solve(deadline, self.limits.interrupt.as_deref());
        self.lookahead_answer(outcome, search.counters())
    }

    fn solve_inner(&mut self, given: &[Lit]) -> Result<SatOutcome, BackendError> {
        // From the start: loading a large formula is part of the time a solve takes.
        let deadline = Deadline::after(self.limits.time_limit);
        // Assumptions on substituted variables are put on their representatives.
        let mapped: Vec<Lit>;
        let assumptions = if self.equivalences.is_empty() {
            given
        } else {
            mapped = given
                .iter()
                .map(|&lit| self.equivalences.map(lit))
                .collect();
            &mapped
        };
        self.stats.solves += 1;
        self.failed.clear();
        let handover = self.takes_lookahead_search(assumptions);
        self.reserve_pending()?;
        // Loading a formula of millions of clauses takes seconds: it stops at the limit
        // and at an interrupt too, and the next solve goes on where it stopped.
        if !self.load_pending(&deadline) {
            return Err(BackendError::Timeout {
                solver: "cdcl".to_string(),
                timeout: self.limits.time_limit.unwrap_or_default(),
            });
        }
        self.trail.ensure_scratch_slot();
        if self.formula.inconsistent {
            return Ok(SatOutcome::Unsat);
        }
        if propagate(&mut self.trail, &mut self.db, &mut self.stats).is_some() {
            self.formula.refuted(&mut self.db);
            return Ok(SatOutcome::Unsat);
        }
        // With a proof, only inferences a checker can verify by unit propagation.
        self.theory.attach(&mut self.trail, self.db.proof.is_on());
        let probe = self.lookahead.resolve(self.trail.num_vars) != Lookahead::None;
        if probe && self.formula.probed_clauses != self.formula.loaded {
            self.formula.probed_clauses = self.formula.loaded;
            if !self.probe_root(&deadline) {
                self.formula.refuted(&mut self.db);
                return Ok(SatOutcome::Unsat);
            }
            // Strip what probing fixed before searching (on the gecode 25×25 set this halves
            // the search time); formulas left unprobed (9×9) do not pay for the pass. Out of
            // time, neither pass runs: the search stops at its first look at the clock.
            if !deadline.expired() {
                self.simplify_root();
            }
            if self.may_substitute(assumptions) && !self.substitute(&deadline) {
                return Ok(SatOutcome::Unsat);
            }
        } else if self.equivalences.due(self.stats.conflicts)
            && self.may_substitute(assumptions)
            && !self.substitute(&deadline)
        {
            return Ok(SatOutcome::Unsat);
        }
        for &lit in assumptions {
            self.grow(lit.var().index() + 1);
        }
        if self.modes.next_switch == 0 {
            self.modes
                .between_restarts(self.stats.conflicts, &mut self.vsids.phase);
        }

        // The fork waits for a restart the search makes anyway, so that member 0 goes on
        // exactly as one thread would (a forced restart moved it off that path: a gecode
        // puzzle of 3.9 s on one thread took 15 s); the second interval bounds the wait.
        let conflicts = self.stats.conflicts;
        (self.limits.fork_at, self.limits.fork_by) = if handover {
            let budget = (self.trail.num_vars / VARS_PER_CONFLICT_BEFORE_LOOKAHEAD) as u64;
            (conflicts + budget, conflicts + budget)
        } else if self.may_fork() {
            let after = self.limits.fork_after.unwrap_or(PORTFOLIO_AFTER);
            (conflicts + after, conflicts + FORK_WAIT_FACTOR * after)
        } else {
            (u64::MAX, u64::MAX)
        };
        let mut ended = self.run(assumptions, &deadline);
        if let (Ended::Fork, true) = (&ended, handover) {
            if !self.races_lookahead() {
                return self.lookahead_search(&deadline);
            }
            match self.race_lookahead(&deadline) {
                RaceEnd::Lookahead(answer) => return answer,
                RaceEnd::Cdcl(end) => ended = end,
            }
        }
        if let Ended::Fork = ended {
            ended = self.portfolio(assumptions, &deadline);
        }
        match ended {
            Ended::Sat => {}
            Ended::UnsatUnderAssumptions => {
                // Named as given: the first assumption put on each failed literal.
                for lit in &mut self.failed {
                    if let Some(k) = assumptions.iter().position(|a| a == lit) {
                        *lit = given[k];
                    }
                }
                return Ok(SatOutcome::Unsat);
            }
            Ended::Unsat => return Ok(SatOutcome::Unsat),
            Ended::TimedOut | Ended::Fork => {
                return Err(BackendError::Timeout {
                    solver: "cdcl".to_string(),
                    timeout: self.limits.time_limit.unwrap_or_default(),
                })
            }
        }
        let mut values = std::mem::take(&mut self.formula.model_buffer);
        self.trail.model_values_into(&mut values);
        self.equivalences.extend(&mut values);
        let model = Model::from_values(values);
        // The satisfying trail stays until the next solve's load backtracks (or a reset
        // drops it): a batch that resets after each puzzle never pays for undoing it.
        check_model_from("cdcl", &self.formula.original, self.formula.trusted, model)
    }
}

impl ClauseSink for Cdcl {
    /// Buffers the clause; it is loaded at the next [`SatBackend::solve`].
    fn add_clause(&mut self, clause: &[Lit]) {
        self.formula.original.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.formula.original.reserve_vars(num_vars);
    }
}

impl SatBackend for Cdcl {
    fn num_vars(&self) -> usize {
        self.formula.original.num_vars()
    }

    fn name(&self) -> String {
        "cdcl".to_string()
    }

    fn add_formula(&mut self, cnf: &mut Cnf) {
        self.formula.original.absorb(cnf);
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solve_inner(&[])
    }

    /// Drops the learnt clauses above "glue": in a batch of 9×9 puzzles under assumptions
    /// those learnt on one puzzle rarely serve the next but slow its propagation
    /// (17-clue-2k: 99 → 62 µs a puzzle; over 10,000 puzzles the time per puzzle no longer
    /// doubles as they pile up).
    /// The arena is compacted once half of it is garbage.
    fn forget_learnt(&mut self) {
        self.cancel_until(0);
        forget_above_glue(&mut self.db, &self.trail, &mut self.stats);
        if self.db.too_much_garbage() {
            self.simplify_root();
        }
    }

    fn trust_clauses(&mut self, count: usize) {
        self.formula.trusted = count;
    }

    fn recycle_model(&mut self, model: Model) {
        self.formula.model_buffer = model.into_values();
    }

    fn set_shrinking(&mut self, shrink: bool) {
        self.analysis.shrinking.enabled = shrink;
    }

    fn counters(&self) -> Counters {
        let stats = &self.stats;
        let shrinking = &self.analysis.shrinking;
        let mut counters = Counters(vec![
            ("solves", stats.solves),
            ("decisions", stats.decisions),
            ("propagations", stats.propagations),
            ("conflicts", stats.conflicts),
            ("learnt", stats.learnt),
            ("restarts", stats.restarts),
            ("mode_switches", self.modes.switches),
            ("rephases", self.modes.rephases),
            ("deleted", stats.deleted),
            ("shrink_tries", shrinking.tries),
            ("shrunk_levels", shrinking.wins),
            ("shrunk_literals", shrinking.removed),
            ("substituted", self.equivalences.substituted),
            ("probes", stats.probes),
            ("failed_literals", stats.failed_literals),
            ("explanations", stats.native_clauses),
            ("portfolios", stats.portfolios),
            ("portfolio_conflicts", stats.portfolio_conflicts),
            ("lookahead_searches", stats.lookahead_searches),
        ]);
        if let Some(theory) = &self.trail.theory {
            counters.add(&theory.counters());
        } else if let Some(factory) = &self.theory.factory {
            counters
                .0
                .extend(factory.counter_names().iter().map(|&name| (name, 0)));
        }
        counters
    }

    /// Back to an empty solver in every part that steers the search, its buffers kept: a
    /// batch that resets before each puzzle allocates nothing once they have grown, and
    /// each puzzle's search is the one it gets alone.
    fn reset(&mut self) {
        self.db.clear(2 * self.trail.num_vars);
        self.trail.clear();
        self.vsids.clear();
        self.analysis.marks.seen.clear();
        self.formula.original.clear();
        self.formula.loaded = 0;
        self.formula.trusted = 0;
        self.formula.inconsistent = false;
        self.formula.probed_clauses = 0;
        self.formula.base = None;
        self.db.proof.writer = None;
        self.theory.factory = None;
        self.analysis.shrinking.enabled = false;
        self.restart_search();
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn as_prover(&mut self) -> Option<&mut dyn WriteProofs> {
        Some(self)
    }

    fn as_assumptions(&mut self) -> Option<&mut dyn SolveUnderAssumptions> {
        Some(self)
    }

    fn as_root_units(&mut self) -> Option<&mut dyn SolveWithRootUnits> {
        Some(self)
    }

    fn as_propagating(&mut self) -> Option<&mut dyn ConnectPropagator> {
        Some(self)
    }
}

impl ConnectPropagator for Cdcl {
    fn connect_propagator(&mut self, factory: Option<Arc<dyn PropagatorFactory>>) {
        self.theory.factory = factory;
        self.trail.theory = None;
    }
}

impl LimitTime for Cdcl {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.limits.time_limit = limit;
    }
}

impl Interrupt for Cdcl {
    fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.limits.interrupt = flag;
    }
}

impl WriteProofs for Cdcl {
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        // Rebuilt at the next solve, restricted (or not) to checkable inferences.
        self.trail.theory = None;
        self.db.proof.writer = match target {
            None => None,
            Some(target) => Some(DratWriter::for_target(&target).map_err(proof_error)?),
        };
        Ok(())
    }
    fn finish_proof(&mut self) -> Result<(), BackendError> {
        match self.db.proof.writer.as_mut().map(DratWriter::finish) {
            Some(Err(error)) => Err(proof_error(error)),
            _ => Ok(()),
        }
    }
}

impl SolveUnderAssumptions for Cdcl {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        self.solve_inner(assumptions)
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }
}

impl Cdcl {
    /// The search's own state back to a fresh solver's, its buffers kept: schedules,
    /// modes and their phases, substitutions, counters.
    fn restart_search(&mut self) {
        self.simplifier = Default::default();
        self.equivalences = Default::default();
        self.failed.clear();
        self.reduce = ReduceSchedule::new();
        let mut phases = (
            std::mem::take(&mut self.modes.target_phase),
            std::mem::take(&mut self.modes.best_phase),
        );
        phases.0.clear();
        phases.1.clear();
        self.modes = Modes::default();
        (self.modes.target_phase, self.modes.best_phase) = phases;
        self.modes.grow(self.trail.num_vars);
        self.stats = Stats::default();
        let shrinking = &mut self.analysis.shrinking;
        (shrinking.tries, shrinking.wins, shrinking.removed) = (0, 0, 0);
    }
}

impl Cdcl {
    /// Room for the clauses and variables added since the last solve, or the memory error
    /// that says which solver ran out.
    fn reserve_pending(&mut self) -> Result<(), BackendError> {
        self.formula
            .reserve_pending(
                &mut self.trail,
                &mut self.db,
                &mut self.vsids,
                self.equivalences.is_empty(),
            )
            .map_err(|source| BackendError::OutOfMemory {
                solver: "cdcl".to_string(),
                source,
            })
    }
}

impl SolveWithRootUnits for Cdcl {
    /// Loads the clauses added so far, propagates them, drops the binary clauses met twice
    /// and keeps the result as the base.
    fn set_base(&mut self) -> Result<(), BackendError> {
        self.reserve_pending()?;
        // The base is loaded whole, never stopped half way: it is kept for every query.
        self.cancel_until(0);
        self.grow(self.formula.original.num_vars());
        self.formula.load_pending(
            &self.equivalences,
            &mut self.trail,
            &mut self.db,
            &mut self.stats,
            &|| false,
        );
        self.trail.ensure_scratch_slot();
        if !self.formula.inconsistent
            && propagate(&mut self.trail, &mut self.db, &mut self.stats).is_some()
        {
            self.formula.refuted(&mut self.db);
        }
        // Paid once for every query: a Sudoku's box repeats a pair of its row's or column's
        // in one binary clause in eight on 9×9, which every query would walk again.
        self.db.drop_duplicate_binaries(2 * self.trail.num_vars);
        self.formula.base = Some(Box::new(Base::of(
            &self.trail,
            &self.db,
            &self.vsids,
            self.formula.original.num_clauses(),
            self.formula.inconsistent,
        )));
        Ok(())
    }

    /// Back to the base (`Base::restore`; every implication list copied back when a
    /// root simplification, a substitution or a portfolio may have changed one), then the
    /// units fixed (`base::fix_units`).
    fn start_query(&mut self, units: &[Lit]) -> Result<(), BackendError> {
        if self.formula.base.is_none() {
            self.set_base()?;
        }
        let mut base = self.formula.base.take().expect("set above");
        let simplified = self.simplifier.next_simplify != 0 || self.simplifier.simplified_root != 0;
        let whole = simplified || !self.equivalences.is_empty() || self.stats.portfolios > 0;
        // Clauses learnt, or added by a query (a count's blocking clauses, watched on any
        // literal).
        let learnt = self.stats.learnt > 0
            || self.stats.probes > 0
            || self.stats.native_clauses > 0
            || self.formula.original.num_clauses() > base.clauses;
        let searched = whole || self.stats.decisions > 0 || self.stats.conflicts > 0;
        base.restore(
            whole,
            learnt,
            searched,
            &mut self.trail,
            &mut self.db,
            &mut self.vsids,
        );
        self.formula.original.truncate(base.clauses);
        self.formula.loaded = base.clauses;
        self.formula.inconsistent = base.inconsistent;
        self.formula.probed_clauses = 0;
        self.restart_search();
        self.db.walk = ImplicationWalk::SkipAssigned;
        if !self.formula.inconsistent
            && !base::fix_units(units, &mut self.trail, &mut self.db, &mut self.stats)
        {
            self.formula.refuted(&mut self.db);
        }
        self.formula.base = Some(base);
        Ok(())
    }
}

/// A proof that could not be written.
fn proof_error(error: std::io::Error) -> BackendError {
    BackendError::Io {
        solver: "cdcl".to_string(),
        source: error,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    // The paths the other backends' tests name.
    use super::options::{LOAD_CHECK_PERIOD, PROBE_STALL};
    use super::portfolio::tests::counts_after_lookahead_match_brute_force;
    use super::*;
    use crate::formula::Var;
    use crate::test_formulas::{
        brute_force_models, brute_force_sat, pigeonhole, random_3sat, random_cnf, random_ksat,
    };
    use crate::ProofTarget;

    /// A random formula over `vars` variables with chains of equivalences planted in it:
    /// cycles of three or more implications (so that no single binary clause names the
    /// equivalence), some through a negation, and now and then a contradiction.
    fn with_equivalences(rng: &mut ChaCha8Rng, vars: usize) -> Cnf {
        let clauses = rng.gen_range(vars..=5 * vars);
        let mut cnf = random_ksat(rng, vars, clauses, 3);
        plant_equivalences(rng, &mut cnf, vars);
        cnf
    }

    /// Adds one to three cycles of implications over random literals of `vars` variables.
    fn plant_equivalences(rng: &mut ChaCha8Rng, cnf: &mut Cnf, vars: usize) {
        for _ in 0..rng.gen_range(1..=3) {
            let len = rng.gen_range(3..=5.min(vars));
            let cycle: Vec<Lit> = (0..len)
                .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
                .collect();
            for k in 0..len {
                // cycle[k] → cycle[k + 1]
                cnf.add_clause(&[!cycle[k], cycle[(k + 1) % len]]);
            }
        }
    }

    /// A solver that substitutes before its first search and at every restart.
    fn eager() -> Cdcl {
        let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
        cdcl.equivalences.next_pass = 0;
        cdcl.equivalences.interval = (0, 0);
        cdcl
    }

    #[test]
    fn substitution_keeps_the_answers_models_and_proofs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        let mut rng = ChaCha8Rng::seed_from_u64(2011);
        let (mut substituted, mut refuted, mut sat) = (0, 0, 0);
        for round in 0..300 {
            let vars = rng.gen_range(4..=12);
            let cnf = with_equivalences(&mut rng, vars);
            let expected = brute_force_sat(&cnf);
            let mut cdcl = eager();
            cdcl.set_proof(Some(ProofTarget::text(&path))).unwrap();
            cnf.stream_into(&mut cdcl);
            let outcome = cdcl.solve().unwrap();
            cdcl.finish_proof().unwrap();
            substituted += cdcl.counters().get("substituted").unwrap();
            match outcome {
                SatOutcome::Sat(model) => {
                    assert!(expected, "round {round}: {cnf:?}");
                    assert_eq!(cnf.first_falsified(&model), None, "round {round}");
                    sat += 1;
                }
                SatOutcome::Unsat => {
                    assert!(!expected, "round {round}: {cnf:?}");
                    let proof = std::fs::read_to_string(&path).unwrap();
                    if let Err(e) = crate::dpll::tests::check_proof(&cnf, &proof) {
                        panic!("round {round}: {e}\n{cnf:?}\n{proof}");
                    }
                    refuted += 1;
                }
            }
        }
        assert!(
            substituted > 300,
            "only {substituted} variables substituted"
        );
        assert!(refuted > 30 && sat > 30, "{sat} SAT, {refuted} UNSAT");
    }

    /// Portfolio members substitute on their own (at every restart here), and whichever
    /// wins extends its model through its own substitutions.
    #[test]
    fn portfolio_members_substitute_and_extend_their_models() {
        let mut rng = ChaCha8Rng::seed_from_u64(2014);
        let (mut forked, mut substituted, mut sat) = (0, 0, 0);
        for round in 0..40 {
            let vars = rng.gen_range(60..=90);
            let mut cnf = random_3sat(&mut rng, vars, vars * 400 / 100);
            plant_equivalences(&mut rng, &mut cnf, vars);
            let mut plain = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut plain);
            let expected = matches!(plain.solve().unwrap(), SatOutcome::Sat(_));
            let mut cdcl = eager().with_threads(2);
            cdcl.limits.fork_after = Some(10);
            cnf.stream_into(&mut cdcl);
            match cdcl.solve().unwrap() {
                SatOutcome::Sat(model) => {
                    assert!(expected, "round {round}");
                    assert_eq!(cnf.first_falsified(&model), None, "round {round}");
                    sat += 1;
                }
                SatOutcome::Unsat => assert!(!expected, "round {round}"),
            }
            forked += cdcl.counters().get("portfolios").unwrap();
            substituted += cdcl.counters().get("substituted").unwrap();
        }
        assert!(
            forked > 10,
            "only {forked} portfolios, {substituted} substituted, {sat} SAT"
        );
        assert!(substituted > 40, "only {substituted} variables substituted");
        assert!(sat > 5 && sat < 35, "{sat} of 40 SAT");
    }

    /// Out of time, no pass starts (the search may still answer before its first look at
    /// the clock); with time, the same formula is substituted.
    #[test]
    fn no_substitution_starts_after_the_deadline() {
        let mut rng = ChaCha8Rng::seed_from_u64(2012);
        let mut cnf = random_3sat(&mut rng, 60, 200);
        // x1 → x2 → ¬x3 → x1.
        let [a, b, c] = [0, 1, 2].map(|i| Var::from_index(i).positive());
        for (x, y) in [(a, b), (b, !c), (!c, a)] {
            cnf.add_clause(&[!x, y]);
        }
        let mut late = eager();
        late.set_time_limit(Some(Duration::ZERO));
        cnf.stream_into(&mut late);
        match late.solve() {
            Ok(SatOutcome::Sat(model)) => assert_eq!(cnf.first_falsified(&model), None),
            Ok(SatOutcome::Unsat) | Err(BackendError::Timeout { .. }) => {}
            Err(other) => panic!("{other:?}"),
        }
        assert_eq!(late.counters().get("substituted"), Some(0));
        let mut timely = eager();
        cnf.stream_into(&mut timely);
        timely.solve().unwrap();
        assert!(timely.counters().get("substituted").unwrap() > 0);
    }

    #[test]
    fn counting_after_substitution_finds_every_model() {
        let mut rng = ChaCha8Rng::seed_from_u64(1979);
        let mut substituted = 0;
        for round in 0..150 {
            let vars = rng.gen_range(4..=10);
            // Binary clauses alone: many models, blocked one by one.
            let mut cnf = Cnf::with_vars(vars);
            for clause in with_equivalences(&mut rng, vars).clauses() {
                if clause.len() == 2 {
                    cnf.add_clause(clause);
                }
            }
            let mut cdcl = eager();
            cnf.stream_into(&mut cdcl);
            let mut models = 0;
            while let SatOutcome::Sat(model) = cdcl.solve().unwrap() {
                assert_eq!(cnf.first_falsified(&model), None, "round {round}");
                models += 1;
                cdcl.add_clause(&model.blocking_clause((0..vars).map(Var::from_index)));
            }
            assert_eq!(models, brute_force_models(&cnf), "round {round}: {cnf:?}");
            substituted += cdcl.counters().get("substituted").unwrap();
        }
        assert!(
            substituted > 100,
            "only {substituted} variables substituted"
        );
    }

    #[test]
    fn assumptions_on_substituted_variables_are_read_through_their_representatives() {
        // a → b → c → a: one component; d free. Substituted before the assumptions come.
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| Var::from_index(i).positive());
        let mut cdcl = eager();
        for (x, y) in [(a, b), (b, c), (c, a)] {
            cdcl.add_clause(&[!x, y]);
        }
        cdcl.add_clause(&[a, d]);
        assert!(matches!(cdcl.solve().unwrap(), SatOutcome::Sat(_)));
        assert_eq!(cdcl.counters().get("substituted"), Some(2));
        // c and ¬a contradict through the component: the failed ones are named as given.
        assert_eq!(cdcl.solve_under(&[d, c, !a]).unwrap(), SatOutcome::Unsat);
        let mut failed = cdcl.failed_assumptions();
        failed.sort();
        assert_eq!(failed, vec![!a, c]);
        match cdcl.solve_under(&[!b]).unwrap() {
            SatOutcome::Sat(model) => {
                assert!(model.satisfies(!a) && model.satisfies(!c) && model.satisfies(d))
            }
            SatOutcome::Unsat => panic!("¬b is consistent"),
        }
        // A clause added later names a substituted variable.
        cdcl.add_clause(&[!c]);
        cdcl.add_clause(&[!d]);
        assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
    }

    #[test]
    fn agrees_with_brute_force_on_small_random_formulas() {
        let mut rng = ChaCha8Rng::seed_from_u64(1999);
        for round in 0..400 {
            let vars = rng.gen_range(3..=12);
            let clauses = rng.gen_range(1..=6 * vars);
            let cnf = random_cnf(&mut rng, vars, clauses, 4);
            let expected = brute_force_sat(&cnf);
            for lookahead in [Lookahead::None, Lookahead::Full] {
                let mut cdcl = Cdcl::with_lookahead(lookahead);
                cnf.stream_into(&mut cdcl);
                let outcome = cdcl.solve().expect("cdcl answers");
                assert_eq!(
                    matches!(outcome, SatOutcome::Sat(_)),
                    expected,
                    "round {round}, {lookahead:?}: {cnf:?}"
                );
            }
        }
    }

    #[test]
    fn solves_before_any_variable_is_named() {
        // Propagation writes past the last variable; with none, that slot must still exist.
        for mut cdcl in [Cdcl::new(), Cdcl::default()] {
            assert_eq!(
                cdcl.solve().unwrap(),
                SatOutcome::Sat(Model::from_values(vec![]))
            );
            let x = Var::from_index(0);
            cdcl.add_clause(&[x.positive()]);
            assert_eq!(
                cdcl.solve().unwrap(),
                SatOutcome::Sat(Model::from_values(vec![true]))
            );
            cdcl.add_clause(&[x.negative()]);
            assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
        }
    }

    #[test]
    fn refutes_pigeonhole_formulas() {
        for holes in 2..=7 {
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            pigeonhole(holes).stream_into(&mut cdcl);
            assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat, "{holes} holes");
            assert!(holes < 4 || cdcl.counters().get("conflicts").unwrap() > 10);
        }
    }

    #[test]
    fn counts_solutions_with_blocking_clauses() {
        // Exactly one of four variables: four models.
        let mut cdcl = Cdcl::new();
        let v: Vec<Lit> = (0..4).map(|i| Var::from_index(i).positive()).collect();
        cdcl.add_clause(&v);
        for i in 0..4 {
            for j in i + 1..4 {
                cdcl.add_clause(&[!v[i], !v[j]]);
            }
        }
        let mut models = 0;
        while let SatOutcome::Sat(model) = cdcl.solve().unwrap() {
            models += 1;
            let blocking: Vec<Lit> = v
                .iter()
                .filter(|&&l| model.satisfies(l))
                .map(|&l| !l)
                .collect();
            cdcl.add_clause(&blocking);
        }
        assert_eq!(models, 4);
    }

    /// Uniform 3-SAT that CDCL does not settle within its budget of conflicts goes to the
    /// lookahead search, on the first solve only; `Lookahead::None` and assumptions keep
    /// CDCL, and so does a formula that a few conflicts settle.
    #[test]
    fn uniform_3sat_goes_to_the_lookahead_search_when_cdcl_does_not_settle_it() {
        let searches = |cdcl: &Cdcl| cdcl.counters().get("lookahead_searches").unwrap();
        let is_sat = |outcome: SatOutcome| matches!(outcome, SatOutcome::Sat(_));
        let mut rng = ChaCha8Rng::seed_from_u64(2004);
        let (mut handed_over, mut sat, mut unsat) = (0, 0, 0);
        for round in 0..20 {
            let cnf = random_3sat(&mut rng, 120, 511);
            let mut cdcl = Cdcl::new();
            cnf.stream_into(&mut cdcl);
            let answer = is_sat(cdcl.solve().unwrap());
            handed_over += searches(&cdcl);
            // (The budget ends at the next point without a conflict.)
            let budget = 120 / VARS_PER_CONFLICT_BEFORE_LOOKAHEAD as u64;
            assert!(
                cdcl.stats.conflicts < 2 * budget,
                "{} conflicts",
                cdcl.stats.conflicts
            );
            let mut plain = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut plain);
            assert_eq!(is_sat(plain.solve().unwrap()), answer, "round {round}");
            let mut assuming = Cdcl::new();
            cnf.stream_into(&mut assuming);
            assuming
                .solve_under(&[Var::from_index(0).positive()])
                .unwrap();
            assert_eq!(searches(&plain) + searches(&assuming), 0, "round {round}");
            if answer {
                sat += 1;
            } else {
                unsat += 1;
            }
        }
        assert!(
            handed_over >= 15,
            "only {handed_over} of 20 went to the lookahead"
        );
        assert!(sat > 2 && unsat > 2, "{sat} SAT, {unsat} UNSAT");
        // Uniform 5-SAT goes over too; 7-SAT, and clauses of mixed lengths, do not.
        for (k, ratio, expected) in [(5, 21.1, 1), (7, 87.8, 0)] {
            let cnf = random_ksat(&mut rng, 40, (40.0 * ratio) as usize, k);
            let mut cdcl = Cdcl::new();
            cnf.stream_into(&mut cdcl);
            cdcl.solve().unwrap();
            assert_eq!(searches(&cdcl), expected, "{k}-SAT");
        }
        let mut mixed = random_3sat(&mut rng, 120, 511);
        mixed.add_clause(&[0, 1, 2, 3].map(|v| Var::from_index(v).positive()));
        let mut cdcl = Cdcl::new();
        mixed.stream_into(&mut cdcl);
        cdcl.solve().unwrap();
        assert_eq!(searches(&cdcl), 0);
        // Far below the threshold CDCL settles the formula within its budget.
        let mut easy = Cdcl::new();
        random_3sat(&mut rng, 1_000, 2_000).stream_into(&mut easy);
        assert!(is_sat(easy.solve().unwrap()));
        assert_eq!(searches(&easy), 0);
    }

    /// Counting models by blocking clauses after a first solve by lookahead (or by CDCL,
    /// on formulas small enough for no conflict budget) finds every model.
    #[test]
    fn counting_after_the_lookahead_search_finds_every_model() {
        let mut rng = ChaCha8Rng::seed_from_u64(2005);
        let handed_over = counts_after_lookahead_match_brute_force(&mut rng, 1);
        assert!(handed_over > 20, "only {handed_over} went to the lookahead");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut cdcl = Cdcl::new();
        random_3sat(&mut rng, 300, 1278).stream_into(&mut cdcl);
        cdcl.set_time_limit(Some(Duration::ZERO));
        assert!(matches!(cdcl.solve(), Err(BackendError::Timeout { .. })));
    }

    #[test]
    fn assumptions_give_failed_subsets_and_leave_the_formula_alone() {
        // a → b, b → c; assuming a and ¬c fails on {a, ¬c}, d is irrelevant.
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| Var::from_index(i).positive());
        let mut cdcl = Cdcl::new();
        cdcl.add_clause(&[!a, b]);
        cdcl.add_clause(&[!b, c]);
        cdcl.add_clause(&[a, b, c, d]);
        assert_eq!(cdcl.solve_under(&[d, a, !c]).unwrap(), SatOutcome::Unsat);
        let mut failed = cdcl.failed_assumptions();
        failed.sort();
        let mut expected = vec![a, !c];
        expected.sort();
        assert_eq!(failed, expected);
        // Without the assumptions the formula is satisfiable, and a model under a
        // satisfiable assumption honours it.
        assert!(matches!(cdcl.solve().unwrap(), SatOutcome::Sat(_)));
        match cdcl.solve_under(&[a]).unwrap() {
            SatOutcome::Sat(model) => assert!(model.satisfies(c)),
            SatOutcome::Unsat => panic!("a is consistent"),
        }
    }

    #[test]
    fn shrunk_learnt_clauses_keep_the_answers_and_make_checkable_proofs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        let mut rng = ChaCha8Rng::seed_from_u64(2020);
        let (mut refuted, mut shrunk_levels) = (0, 0);
        for round in 0..40 {
            let vars = rng.gen_range(30..=45);
            let cnf = random_3sat(&mut rng, vars, vars * 5);
            let expected = {
                let mut plain = Cdcl::with_lookahead(Lookahead::None);
                cnf.stream_into(&mut plain);
                plain.solve().unwrap()
            };
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            cdcl.analysis.shrinking.enabled = true;
            cdcl.set_proof(Some(ProofTarget::text(&path))).unwrap();
            cnf.stream_into(&mut cdcl);
            let outcome = cdcl.solve().unwrap();
            cdcl.finish_proof().unwrap();
            shrunk_levels += cdcl.counters().get("shrunk_levels").unwrap();
            match outcome {
                SatOutcome::Sat(model) => {
                    assert!(matches!(expected, SatOutcome::Sat(_)), "round {round}");
                    assert!(cnf.clauses().all(|c| c.iter().any(|&l| model.satisfies(l))));
                }
                SatOutcome::Unsat => {
                    assert_eq!(expected, SatOutcome::Unsat, "round {round}");
                    refuted += 1;
                    let proof = std::fs::read_to_string(&path).unwrap();
                    if let Err(e) = crate::dpll::tests::check_proof(&cnf, &proof) {
                        panic!("round {round}: {e}");
                    }
                }
            }
        }
        assert!(refuted >= 30, "only {refuted} UNSAT answers");
        assert!(shrunk_levels > 0, "nothing was shrunk");
    }

    #[test]
    fn agrees_with_brute_force_on_formulas_with_long_clauses() {
        // Clauses of 11-13 literals take the saved-position search; short ones make the
        // formulas UNSAT often enough to matter.
        let mut rng = ChaCha8Rng::seed_from_u64(2013);
        let mut unsat = 0;
        for round in 0..60 {
            let vars = rng.gen_range(11..=13);
            let short = rng.gen_range(vars..=2 * vars);
            let mut cnf = random_cnf(&mut rng, vars, short, 3);
            for _ in 0..rng.gen_range(5..=20) {
                let mut picked: Vec<usize> = (0..vars).collect();
                picked.shuffle(&mut rng);
                picked.truncate(rng.gen_range(11..=vars));
                let clause: Vec<Lit> = picked
                    .iter()
                    .map(|&v| Var::from_index(v).lit(rng.gen()))
                    .collect();
                cnf.add_clause(&clause);
            }
            let expected = brute_force_sat(&cnf);
            unsat += usize::from(!expected);
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut cdcl);
            let outcome = cdcl.solve().expect("cdcl answers");
            if let SatOutcome::Sat(model) = &outcome {
                assert_eq!(cnf.first_falsified(model), None, "round {round}");
            }
            assert_eq!(
                matches!(outcome, SatOutcome::Sat(_)),
                expected,
                "round {round}"
            );
        }
        assert!(
            (10..50).contains(&unsat),
            "{unsat} of 60 UNSAT: the mix needs retuning"
        );
    }

    #[test]
    fn a_seed_changes_the_search_not_the_answers() {
        let mut rng = ChaCha8Rng::seed_from_u64(426);
        let mut other_paths = 0;
        let mut unsat = 0;
        for round in 0..20 {
            let cnf = random_3sat(&mut rng, 60, 256);
            let run = |seed: Option<u64>| {
                let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
                if let Some(seed) = seed {
                    cdcl = cdcl.with_seed(seed);
                }
                cnf.stream_into(&mut cdcl);
                let outcome = cdcl.solve().expect("cdcl answers");
                if let SatOutcome::Sat(model) = &outcome {
                    assert_eq!(cnf.first_falsified(model), None, "round {round}, {seed:?}");
                }
                (
                    matches!(outcome, SatOutcome::Sat(_)),
                    cdcl.stats.decisions,
                    cdcl.stats.conflicts,
                )
            };
            let plain = run(None);
            unsat += usize::from(!plain.0);
            assert_eq!(run(Some(0)), plain, "round {round}: seed 0 is no seed");
            for seed in 1..=3 {
                let seeded = run(Some(seed));
                assert_eq!(seeded.0, plain.0, "round {round}, seed {seed}: the answer");
                assert_eq!(
                    run(Some(seed)),
                    seeded,
                    "round {round}, seed {seed}: reproducible"
                );
                other_paths += usize::from(seeded.1 != plain.1 || seeded.2 != plain.2);
            }
        }
        assert!(
            (3..17).contains(&unsat),
            "{unsat} of 20 UNSAT: retune the formulas"
        );
        assert!(
            other_paths >= 45,
            "only {other_paths} of 60 seeded searches differ"
        );
    }

    #[test]
    fn forgetting_between_queries_keeps_only_glue_and_the_answers() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        // Random 3-SAT just below the threshold: satisfiable, with conflicts to learn from.
        let cnf = random_3sat(&mut rng, 120, 480);
        let mut batch = Cdcl::with_lookahead(Lookahead::None);
        cnf.stream_into(&mut batch);
        let mut forgot = 0;
        for _ in 0..40 {
            let assumptions: Vec<Lit> = (0..3)
                .map(|_| Var::from_index(rng.gen_range(0..120)).lit(rng.gen()))
                .collect();
            let above_glue = |solver: &Cdcl| {
                solver
                    .db
                    .learnts
                    .iter()
                    .filter(|&&c| solver.db.lbd(c) > 2)
                    .count()
            };
            let before = above_glue(&batch);
            batch.forget_learnt();
            assert_eq!(above_glue(&batch), 0);
            forgot += before;
            let mut fresh = Cdcl::with_lookahead(Lookahead::None);
            let mut with_units = cnf.clone();
            for &lit in &assumptions {
                with_units.add_clause(&[lit]);
            }
            with_units.stream_into(&mut fresh);
            let answer = batch.solve_under(&assumptions).unwrap();
            if let SatOutcome::Sat(model) = &answer {
                assert!(assumptions
                    .iter()
                    .all(|&l| model.value(l.var()) == l.is_positive()));
            }
            assert_eq!(
                matches!(answer, SatOutcome::Sat(_)),
                matches!(fresh.solve().unwrap(), SatOutcome::Sat(_))
            );
        }
        // The queries learnt clauses above glue, so there was something to forget.
        assert!(forgot > 0);
    }

    #[test]
    fn learnt_clauses_survive_added_clauses_and_resets_forget() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // A satisfiable random 3-SAT formula below the threshold, then units that make it
        // UNSAT or keep it SAT: the answer must match a fresh solver's.
        for _ in 0..30 {
            let cnf = random_cnf(&mut rng, 40, 150, 3);
            let mut incremental = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut incremental);
            let first = incremental.solve().unwrap();
            let mut extended = cnf.clone();
            for _ in 0..5 {
                let unit = [Var::from_index(rng.gen_range(0..40)).lit(rng.gen())];
                extended.add_clause(&unit);
                incremental.add_clause(&unit);
            }
            let mut fresh = Cdcl::with_lookahead(Lookahead::None);
            extended.stream_into(&mut fresh);
            assert_eq!(
                matches!(incremental.solve().unwrap(), SatOutcome::Sat(_)),
                matches!(fresh.solve().unwrap(), SatOutcome::Sat(_))
            );
            incremental.reset();
            cnf.stream_into(&mut incremental);
            assert_eq!(
                matches!(incremental.solve().unwrap(), SatOutcome::Sat(_)),
                matches!(first, SatOutcome::Sat(_))
            );
        }
    }

    #[test]
    fn a_formula_too_large_for_memory_is_an_error_not_an_abort() {
        let mut cnf = Cnf::with_vars(1 << 58);
        cnf.add_clause(&[Var::from_index(0).positive()]);
        let mut cdcl = Cdcl::new();
        cdcl.add_formula(&mut cnf);
        match cdcl.solve() {
            Err(BackendError::OutOfMemory { solver, .. }) => assert_eq!(solver, "cdcl"),
            other => panic!("expected OutOfMemory, got {other:?}"),
        }
    }

    #[test]
    fn an_interrupt_ends_the_solve_as_a_time_out_and_can_be_lifted() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let flag = Arc::new(AtomicBool::new(true));
        for threads in [1, 2] {
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None).with_threads(threads);
            cdcl.add_formula(&mut pigeonhole(9));
            cdcl.set_interrupt(Some(Arc::clone(&flag)));
            flag.store(true, Ordering::Relaxed);
            assert!(
                matches!(cdcl.solve(), Err(BackendError::Timeout { .. })),
                "{threads} threads"
            );
            // Lifted, the same solver goes on to the answer.
            flag.store(false, Ordering::Relaxed);
            assert!(
                matches!(cdcl.solve(), Ok(SatOutcome::Unsat)),
                "{threads} threads"
            );
        }
    }

    /// Loading a large formula stops at an interrupt (a time-out, the clauses partly
    /// loaded), and the next solve loads the rest and answers as one that was never
    /// stopped.
    #[test]
    fn an_interrupt_stops_the_loading_and_the_next_solve_goes_on() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // Ratio 2: satisfiable, three load periods of clauses.
        let cnf = random_3sat(&mut rng, 100_000, 3 * LOAD_CHECK_PERIOD);
        let flag = Arc::new(AtomicBool::new(true));
        let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
        cdcl.add_formula(&mut cnf.clone());
        cdcl.set_interrupt(Some(Arc::clone(&flag)));
        assert!(matches!(cdcl.solve(), Err(BackendError::Timeout { .. })));
        assert_eq!(cdcl.formula.loaded, LOAD_CHECK_PERIOD - 1);
        flag.store(false, Ordering::Relaxed);
        let Ok(SatOutcome::Sat(model)) = cdcl.solve() else {
            panic!("a satisfiable formula")
        };
        assert_eq!(cdcl.formula.loaded, cnf.num_clauses());
        assert!(check_model_from("test", &cnf, 0, model).is_ok());
    }

    /// Root probing gives up on a formula where a long run of probes finds no failed
    /// literal, and goes on where failures keep coming.
    #[test]
    fn root_probing_gives_up_after_a_long_run_without_a_failure() {
        let probes = |cdcl: &Cdcl| cdcl.counters().get("probes").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        // 30,000 variables at ratio 2: about 50,000 literals to probe, none failing.
        let cnf = random_3sat(&mut rng, 30_000, 60_000);
        let mut cdcl = Cdcl::new();
        cnf.stream_into(&mut cdcl);
        let SatOutcome::Sat(model) = cdcl.solve().unwrap() else {
            panic!("ratio 2 is satisfiable")
        };
        assert_eq!(cnf.first_falsified(&model), None);
        assert_eq!(cdcl.counters().get("failed_literals"), Some(0));
        assert_eq!(probes(&cdcl), PROBE_STALL);
        // Where every other probe fails (pairs x → y, x → ¬y, so ¬x is forced) probing
        // runs to the end.
        let pairs = 3 * PROBE_STALL as usize;
        let mut cnf = Cnf::with_vars(2 * pairs);
        for i in 0..pairs {
            let (x, y) = (Var::from_index(2 * i), Var::from_index(2 * i + 1));
            cnf.add_clause(&[x.negative(), y.positive()]);
            cnf.add_clause(&[x.negative(), y.negative()]);
            cnf.add_clause(&[
                x.positive(),
                y.positive(),
                Var::from_index((2 * i + 3) % (2 * pairs)).positive(),
            ]);
        }
        let mut cdcl = Cdcl::new();
        cnf.stream_into(&mut cdcl);
        let SatOutcome::Sat(model) = cdcl.solve().unwrap() else {
            panic!("satisfiable: every x false, every y true")
        };
        assert_eq!(cnf.first_falsified(&model), None);
        assert_eq!(cdcl.counters().get("failed_literals"), Some(pairs as u64));
    }

    /// A formula between the two caps goes to the lookahead search only where it races
    /// CDCL (several threads); above both, to neither.
    #[test]
    fn a_race_takes_larger_formulas_than_a_handover() {
        let mut rng = ChaCha8Rng::seed_from_u64(2028);
        for (vars, one, two) in [
            (LOOKAHEAD_SEARCH_MAX_VARS, true, true),
            (LOOKAHEAD_SEARCH_MAX_VARS + 1, false, true),
            (LOOKAHEAD_RACE_MAX_VARS, false, true),
            (LOOKAHEAD_RACE_MAX_VARS + 1, false, false),
        ] {
            let cnf = random_3sat(&mut rng, vars, vars * 35 / 10);
            for (threads, expected) in [(1, one), (2, two)] {
                let mut cdcl = Cdcl::new().with_threads(threads);
                cnf.stream_into(&mut cdcl);
                // (`original` holds the clauses before the first solve loads them.)
                assert_eq!(
                    cdcl.takes_lookahead_search(&[]),
                    expected,
                    "{vars} variables on {threads} threads"
                );
            }
        }
    }

    /// The names a source file uses from its sibling files: `super::NAME`,
    /// `crate::cdcl::NAME` and each name of a `use super::{…}` group, outside
    /// comments and outside the tests at its bottom (tests may use any layer).
    fn sibling_references(source: &str) -> Vec<String> {
        let code = source.split("#[cfg(test)]").next().unwrap_or_default();
        let code: String = code
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let ident = |text: &str| -> String {
            text.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        let mut names = Vec::new();
        for prefix in ["super::", "crate::cdcl::"] {
            for (at, _) in code.match_indices(prefix) {
                let rest = &code[at + prefix.len()..];
                if let Some(group) = rest.strip_prefix('{') {
                    // The top-level names of the group, up to its closing brace.
                    let mut depth = 0;
                    let mut start = true;
                    for (i, c) in group.char_indices() {
                        match c {
                            '{' => depth += 1,
                            '}' if depth == 0 => break,
                            '}' => depth -= 1,
                            ',' if depth == 0 => start = true,
                            c if c.is_whitespace() => {}
                            _ if start && depth == 0 => {
                                names.push(ident(&group[i..]));
                                start = false;
                            }
                            _ => {}
                        }
                    }
                } else {
                    names.push(ident(rest));
                }
            }
        }
        names.retain(|name| !name.is_empty());
        names
    }

    #[test]
    fn sibling_references_are_found_in_paths_and_groups() {
        let source = "use super::trail::{Trail, TRUE};\n\
                      use super::{clauses, decide::{Vsids, cancel_until}};\n\
                      // super::search in a comment\n\
                      fn f() { crate::cdcl::options::X; super::Cdcl::new(); }\n\
                      #[cfg(test)]\nmod tests { use super::super::search; }";
        assert_eq!(
            sibling_references(source),
            ["trail", "clauses", "decide", "Cdcl", "options"]
        );
    }

    /// Every file of the module is in [`LAYERS`], and uses only files of lower layers
    /// (and no item of `mod.rs`, the top).
    #[test]
    fn every_file_uses_only_the_layers_below_it() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cdcl");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("the module's directory")
            .map(|entry| entry.expect("a directory entry").file_name())
            .filter_map(|name| name.to_str()?.strip_suffix(".rs").map(str::to_string))
            .collect();
        files.sort();
        let mut layered: Vec<String> = LAYERS.iter().map(|name| name.to_string()).collect();
        layered.sort();
        assert_eq!(files, layered, "the files and LAYERS differ");
        let mut violations = Vec::new();
        for (layer, file) in LAYERS.iter().enumerate() {
            if *file == "mod" {
                continue; // The top: it may use every file.
            }
            let source = std::fs::read_to_string(dir.join(format!("{file}.rs"))).unwrap();
            for name in sibling_references(&source) {
                match LAYERS.iter().position(|other| *other == name) {
                    Some(used) if used < layer => {}
                    Some(_) => violations.push(format!(
                        "{file}.rs uses `{name}`, at its own layer or above"
                    )),
                    None => violations.push(format!(
                        "{file}.rs uses `super::{name}` of mod.rs, the top layer"
                    )),
                }
            }
        }
        assert!(violations.is_empty(), "{}", violations.join("\n"));
    }

    /// The lookahead search against CDCL alone (the lookahead's own file tests it against
    /// brute force; a reference solver above it lives here, at the top of the house).
    mod lookahead_against_cdcl {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        use std::time::Duration;

        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;

        use crate::formula::{Cnf, Model};
        use crate::lookahead::{
            LookaheadBackend, LookaheadCounters, LookaheadOutcome, LookaheadSolver,
        };
        use crate::run::Deadline;
        use crate::test_formulas::{random_3sat, random_ksat};
        use crate::{BackendError, Cdcl, Lookahead, SatBackend, SatOutcome};

        /// Solves `cnf` by lookahead and by CDCL alone: the answers agree and a model
        /// satisfies every clause. Whether it is satisfiable, and the lookahead's counters.
        fn against_cdcl_alone(cnf: &Cnf, round: usize) -> (bool, LookaheadCounters) {
            let mut search = LookaheadSolver::new(cnf);
            let outcome = search.solve(&Deadline::NONE, None);
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut cdcl);
            let sat = match (&outcome, cdcl.solve().unwrap()) {
                (LookaheadOutcome::Sat(values), SatOutcome::Sat(_)) => {
                    let model = Model::from_values(values.clone());
                    assert_eq!(cnf.first_falsified(&model), None, "round {round}");
                    true
                }
                (LookaheadOutcome::Unsat, SatOutcome::Unsat) => false,
                (ours, theirs) => panic!("round {round}: lookahead {ours:?}, cdcl {theirs:?}"),
            };
            (sat, search.counters())
        }

        /// Random 3-SAT at the threshold, big enough for the preselection to leave variables
        /// out and for failed literals and necessary assignments to occur.
        #[test]
        fn agrees_with_cdcl_on_random_3sat_at_the_threshold() {
            let mut rng = ChaCha8Rng::seed_from_u64(2001);
            let mut sat = 0;
            let mut totals = LookaheadCounters::default();
            for round in 0..60 {
                let vars = rng.gen_range(40..=120);
                let cnf = random_3sat(&mut rng, vars, vars * 426 / 100);
                let (satisfiable, counters) = against_cdcl_alone(&cnf, round);
                sat += usize::from(satisfiable);
                totals.add(&counters);
            }
            assert!(sat > 10 && sat < 50, "{sat} of 60 SAT");
            assert!(
                totals.failed_literals > 0 && totals.necessary > 0,
                "{totals:?}"
            );
            assert!(totals.backtracks > 0, "{totals:?}");
        }

        /// Random 5-SAT near its threshold (ratio 21.1): the long clauses' counts, their units,
        /// conflicts and undo.
        #[test]
        fn agrees_with_cdcl_on_random_5sat() {
            let mut rng = ChaCha8Rng::seed_from_u64(2005);
            let mut sat = 0;
            for round in 0..30 {
                let vars = rng.gen_range(15..=30);
                let cnf = random_ksat(&mut rng, vars, vars * 211 / 10, 5);
                sat += usize::from(against_cdcl_alone(&cnf, round).0);
            }
            assert!(sat > 5 && sat < 25, "{sat} of 30 SAT");
        }

        /// The backend answers as CDCL alone does, stops at its time limit and at the
        /// interrupt, sums its counters over solves and forgets them on reset.
        #[test]
        fn the_backend_answers_stops_counts_and_resets() {
            let mut rng = ChaCha8Rng::seed_from_u64(2027);
            let cnf = random_3sat(&mut rng, 300, 1278);
            let mut backend = LookaheadBackend::new();
            cnf.stream_into(&mut backend);
            let backend: &mut dyn SatBackend = &mut backend;
            assert!(backend.honours_time_limit());
            backend.set_time_limit(Some(Duration::ZERO));
            assert!(matches!(backend.solve(), Err(BackendError::Timeout { .. })));
            backend.set_time_limit(None);
            let flag = Arc::new(AtomicBool::new(true));
            backend.set_interrupt(Some(Arc::clone(&flag)));
            assert!(matches!(backend.solve(), Err(BackendError::Timeout { .. })));
            flag.store(false, Ordering::Relaxed);
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut cdcl);
            match (backend.solve().unwrap(), cdcl.solve().unwrap()) {
                (SatOutcome::Sat(model), SatOutcome::Sat(_)) => {
                    assert_eq!(cnf.first_falsified(&model), None)
                }
                (SatOutcome::Unsat, SatOutcome::Unsat) => {}
                (ours, theirs) => panic!("lookahead {ours:?}, cdcl {theirs:?}"),
            }
            let counters = backend.counters();
            assert_eq!(counters.get("solves"), Some(3));
            assert!(counters.get("probes").unwrap() > 100, "{counters}");
            assert!(counters.get("decisions").unwrap() > 0, "{counters}");
            backend.reset();
            assert_eq!(backend.num_vars(), 0);
            assert!(backend.counters().0.iter().all(|&(_, value)| value == 0));
            assert!(matches!(backend.solve(), Ok(SatOutcome::Sat(_))));
            assert!(!backend.takes_assumptions() && !backend.writes_proofs());
            // Lists for 2^60 variables cannot be had: an error, not an abort.
            backend.reserve_vars(1 << 60);
            match backend.solve() {
                Err(BackendError::OutOfMemory { solver, source }) => {
                    assert_eq!(solver, "lookahead");
                    assert!(source.to_string().contains("per-literal lists"), "{source}");
                }
                other => panic!("expected OutOfMemory, got {other:?}"),
            }
        }
    }
}

/// A theory joined through the propagator interface (`theory.rs`), tested here, above
/// the search it runs in.
#[cfg(test)]
mod theory_tests {
    use std::sync::Arc;

    use crate::formula::{ClauseSink, Lit, Var};
    use crate::propagator::{ConnectPropagator, Propagator, PropagatorFactory};
    use crate::solver::{SatBackend, SatOutcome};
    use crate::Cdcl;

    /// "At most one of x1…x4", a theory the formula does not hold: by propagation (and a
    /// branch on x4 first) when `propagates`, else only by rejecting models.
    struct AtMostOne {
        propagates: bool,
        trail: Vec<Lit>,
        levels: Vec<usize>,
        pending: Vec<(Lit, Lit)>,
        /// Implications handed out, with the literal that caused each.
        given: Vec<(Lit, Lit)>,
        rejected: Option<[Lit; 2]>,
        rejections: u64,
    }

    impl Propagator for AtMostOne {
        fn observed_vars(&self) -> Vec<Var> {
            (0..4).map(Var::from_index).collect()
        }
        fn notify_assignment(&mut self, lits: &[Lit]) {
            for &lit in lits {
                self.trail.push(lit);
                if self.propagates && lit.is_positive() {
                    let others = (0..4).map(Var::from_index).filter(|&v| v != lit.var());
                    self.pending.extend(others.map(|v| (v.negative(), lit)));
                }
            }
        }
        fn notify_new_decision_level(&mut self) {
            self.levels.push(self.trail.len());
        }
        fn notify_backtrack(&mut self, level: usize) {
            if let Some(&len) = self.levels.get(level) {
                self.trail.truncate(len);
                self.levels.truncate(level);
                self.pending.clear();
                self.given.clear();
            }
        }
        fn propagate(&mut self) -> Option<Lit> {
            let (lit, cause) = self.pending.pop()?;
            self.given.push((lit, cause));
            Some(lit)
        }
        fn reason_clause(&mut self, lit: Lit, out: &mut Vec<Lit>) {
            let &(_, cause) = self.given.iter().rev().find(|&&(l, _)| l == lit).unwrap();
            out.clear();
            out.extend([lit, !cause]);
        }
        fn add_clause(&mut self, out: &mut Vec<Lit>) -> bool {
            out.clear();
            match self.rejected.take() {
                Some(pair) => {
                    out.extend(pair.map(|l| !l));
                    true
                }
                None => false,
            }
        }
        fn decide(&mut self) -> Option<Lit> {
            self.propagates.then(|| Var::from_index(3).positive())
        }
        fn check_model(&mut self, model: &[bool]) -> bool {
            let on: Vec<Lit> = (0..4)
                .filter(|&v| model[v])
                .map(|v| Var::from_index(v).positive())
                .collect();
            if on.len() < 2 {
                return true;
            }
            self.rejected = Some([on[0], on[1]]);
            self.rejections += 1;
            false
        }
        fn counters(&self) -> crate::run::Counters {
            crate::run::Counters(vec![("rejections", self.rejections)])
        }
    }

    struct Factory(bool);

    impl PropagatorFactory for Factory {
        fn create(&self, _: usize, _: bool) -> Option<Box<dyn Propagator>> {
            Some(Box::new(AtMostOne {
                propagates: self.0,
                trail: Vec::new(),
                levels: Vec::new(),
                pending: Vec::new(),
                given: Vec::new(),
                rejected: None,
                rejections: 0,
            }))
        }
    }

    /// A formula whose first model, branching on false phases, sets two of x1…x4 (¬x1
    /// forces x2 and x3); only the theory keeps a model to one true variable. The model,
    /// and the models the theory rejected.
    fn solve_with(propagates: bool) -> (Vec<bool>, u64) {
        let mut cdcl = Cdcl::new();
        let lits = |v: &[usize]| -> Vec<Lit> {
            v.iter().map(|&i| Var::from_index(i).positive()).collect()
        };
        cdcl.add_clause(&lits(&[0, 1]));
        cdcl.add_clause(&lits(&[0, 2]));
        cdcl.add_clause(&lits(&[0, 1, 2, 3, 4]));
        cdcl.connect_propagator(Some(Arc::new(Factory(propagates))));
        let model = match cdcl.solve().unwrap() {
            SatOutcome::Sat(model) => (0..5).map(|v| model.value(Var::from_index(v))).collect(),
            SatOutcome::Unsat => panic!("x1 alone satisfies it"),
        };
        (model, cdcl.counters().get("rejections").unwrap_or(0))
    }

    #[test]
    fn a_theory_propagates_with_reasons_and_chooses_the_branch() {
        let (model, rejections) = solve_with(true);
        // The theory's decision x4 first; then ¬x1, ¬x2, ¬x3 by its reasons would falsify
        // x1 ∨ x2: the conflict's analysis reads those reasons, and the search settles on
        // x1 alone.
        assert_eq!(model[..4], [true, false, false, false]);
        assert_eq!(rejections, 0, "propagation leaves no model to reject");
    }

    #[test]
    fn a_theory_that_only_checks_models_rejects_until_one_holds() {
        let (model, rejections) = solve_with(false);
        assert_eq!(model[..4], [true, false, false, false]);
        assert!(rejections >= 1, "the first model sets x2 and x3");
    }
}
