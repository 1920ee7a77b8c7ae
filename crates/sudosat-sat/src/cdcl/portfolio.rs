//! One solve on several threads: a portfolio of diversified copies of the solver, the first
//! answer winning (Hamadi, Jabbour & Saïs 2009, "ManySAT: a parallel SAT solver", JSAT 6).
//!
//! Why it pays on Sudoku: the run time of one CDCL search on a hard grid is one draw from a
//! wide spread (the same gecode 25×25 puzzle takes 0.4 s or 21 s on isomorphic copies;
//! docs/history.md, "How changes were measured"), and two searches that differ in their
//! variable order are nearly independent draws: the first of them to finish is well below
//! their mean.
//!
//! How: a solve that has not answered after
//! [`PORTFOLIO_AFTER`](super::options::PORTFOLIO_AFTER) conflicts forks at its next restart
//! (forced after twice as many), so that 9×9 puzzles and most larger ones
//! (settled sooner) never pay for threads, and member 0 goes on exactly as the solver
//! would on one thread: two threads cost a puzzle at most the contention of sharing the
//! machine, never a worse draw. Each copy starts from everything the solver has learnt so
//! far; copy `i > 0` gets its VSIDS activities shaken by up to one bump of noise, which
//! reorders the many near-equal ones, and odd copies start in the other search mode and
//! *shrink* their learnt clauses (Feng & Bacchus 2020; module `shrink`), which member 0
//! does only on the extended and augmented encodings: on the minimal one (and maybe on
//! other formulas) shrinking made some searches 5–240× longer, so there a second member
//! adds the other kind of draw without risking member 0's (docs/history.md, "The CDCL search").
//! The first member with an answer stops the others at their next look at the clock, and
//! its state becomes the solver's, learnt clauses included (its way of learning excepted),
//! so an incremental solve (blocking clauses, assumptions) goes on from it.
//!
//! Each member copies the solver, so the portfolio takes as many members as fit in half
//! the memory the system reports available (none: the solve goes on on one thread); on the
//! largest grids that need search the copies are gigabytes.
//!
//! The members share no clauses. ManySAT's sharing of short learnt clauses (units, binary
//! and glue clauses of up to 8 literals, taken in at restarts) measured slower on the gecode
//! set with copies: 110 s of wall time against 82 s without, because every import also
//! perturbs the member that takes it in (docs/history.md, "Parallelism").
//!
//! Which solution a puzzle with several gets depends on the member that wins, so it can
//! differ from run to run; a solver on one thread is deterministic.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::search::{Cdcl, Ended, Limits};
use super::trail::Trail;
use crate::formula::Lit;
use crate::lookahead::{LookaheadCounters, LookaheadOutcome, LookaheadSolver};
use crate::run::Deadline;
use crate::{BackendError, SatOutcome};

/// How a race of CDCL and the lookahead search ([`Cdcl::race_lookahead`]) ended.
pub(super) enum RaceEnd {
    /// The lookahead's answer, or the stop when neither side answered before the
    /// deadline or the interrupt.
    Lookahead(Result<SatOutcome, BackendError>),
    /// CDCL's end, whose state is the solver's.
    Cdcl(Ended),
}

impl Cdcl {
    /// Whether this solve may go on as a portfolio: more than one thread, no proof (one
    /// proof needs one solver) and no native propagation (its state is not copied).
    pub(super) fn may_fork(&self) -> bool {
        self.limits.threads > 1
            && !self.db.proof.is_on()
            && self.trail.theory.is_none()
            && self.limits.stop.is_none()
    }

    /// Whether a handover to the lookahead search is a race against CDCL: on several
    /// threads, outside a portfolio.
    pub(super) fn races_lookahead(&self) -> bool {
        self.limits.threads > 1 && self.limits.stop.is_none()
    }

    /// The answer of a lookahead search, its counters added to this solver's.
    pub(super) fn lookahead_answer(
        &mut self,
        outcome: LookaheadOutcome,
        counters: LookaheadCounters,
    ) -> Result<SatOutcome, BackendError> {
        self.stats.count_lookahead(counters);
        outcome.into_answer(
            "cdcl",
            &self.formula.original,
            self.formula.trusted,
            self.limits.time_limit,
        )
    }

    /// Continues this solve as a portfolio of `self.limits.threads` members (see the module
    /// docs); the winner's state becomes this solver's.
    pub(super) fn portfolio(&mut self, assumptions: &[Lit], deadline: &Deadline) -> Ended {
        (self.limits.fork_at, self.limits.fork_by) = (u64::MAX, u64::MAX);
        // Each member copies the solver: on a grid whose solver fills gigabytes, fewer
        // members (or none) rather than an abort when an allocation fails.
        let copies = self.copies_within(self.room_for_copies());
        if copies == 0 {
            return self.run(assumptions, deadline);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut members: Vec<Cdcl> = (1..=copies)
            .map(|index| {
                let mut member = self.fork();
                member.diversify(index);
                member.limits.stop = Some(Arc::clone(&stop));
                member
            })
            .collect();
        self.limits.stop = Some(Arc::clone(&stop));
        let conflicts_before = self.stats.conflicts;
        let shrinking = self.analysis.shrinking.enabled;
        let winner = AtomicUsize::new(usize::MAX);
        let finish = |index: usize, ended: &Ended| {
            if ended.is_answer() {
                let _ =
                    winner.compare_exchange(usize::MAX, index, Ordering::AcqRel, Ordering::Acquire);
            }
            // Answered or out of time: either way the others need not go on.
            stop.store(true, Ordering::Relaxed);
        };
        let (mine, mut theirs) = std::thread::scope(|scope| {
            let handles: Vec<_> = members
                .iter_mut()
                .enumerate()
                .map(|(i, member)| {
                    let finish = &finish;
                    // A thread the system refuses is a member that never runs: the others
                    // go on without it.
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || {
                            let ended = member.run(assumptions, deadline);
                            finish(i + 1, &ended);
                            ended
                        })
                        .ok()
                })
                .collect();
            let mine = self.run(assumptions, deadline);
            finish(0, &mine);
            let theirs: Vec<Ended> = handles
                .into_iter()
                .map(|handle| match handle {
                    Some(handle) => handle
                        .join()
                        .unwrap_or_else(|e| std::panic::resume_unwind(e)),
                    None => Ended::TimedOut,
                })
                .collect();
            (mine, theirs)
        });
        let portfolio_conflicts = self.stats.portfolio_conflicts
            + (self.stats.conflicts - conflicts_before)
            + members
                .iter()
                .map(|m| m.stats.conflicts - conflicts_before)
                .sum::<u64>();
        let portfolios = self.stats.portfolios + 1;
        let ended = match winner.into_inner() {
            index if index == 0 || index == usize::MAX => mine,
            index => {
                std::mem::swap(self, &mut members[index - 1]);
                std::mem::replace(&mut theirs[index - 1], Ended::TimedOut)
            }
        };
        self.limits.stop = None;
        // The next solve starts as this one did: member 0's way of learning.
        self.analysis.shrinking.enabled = shrinking;
        self.stats.portfolios = portfolios;
        self.stats.portfolio_conflicts = portfolio_conflicts;
        ended
    }

    /// Goes on with CDCL on this thread while the lookahead search solves the formula on
    /// another, the first answer winning: below the threshold of random k-SAT the lookahead
    /// can take several times CDCL's time, near it a third (docs/history.md, "Random k-SAT"), and racing the two costs a formula the faster one's time on two cores.
    pub(super) fn race_lookahead(&mut self, deadline: &Deadline) -> RaceEnd {
        (self.limits.fork_at, self.limits.fork_by) = (u64::MAX, u64::MAX);
        let mut search = LookaheadSolver::new(&self.formula.original);
        // Either side's answer stops the other; an interrupt stops CDCL, which then stops
        // the lookahead.
        let stop = Arc::new(AtomicBool::new(false));
        self.limits.stop = Some(Arc::clone(&stop));
        let (mine, theirs) = std::thread::scope(|scope| {
            let lookahead = std::thread::Builder::new()
                .spawn_scoped(scope, || {
                    let outcome = search.solve(deadline, Some(&stop));
                    if !matches!(outcome, LookaheadOutcome::Stopped) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    outcome
                })
                .ok();
            let mine = self.run(&[], deadline);
            stop.store(true, Ordering::Relaxed);
            let theirs = lookahead.map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            });
            (mine, theirs)
        });
        self.limits.stop = None;
        match theirs {
            // A thread the system refused: CDCL ran alone.
            None => RaceEnd::Cdcl(mine),
            Some(outcome) if !mine.is_answer() => {
                RaceEnd::Lookahead(self.lookahead_answer(outcome, search.counters()))
            }
            Some(_) => {
                // Lost, but its work counts as a portfolio's members' does.
                self.stats.count_lookahead(search.counters());
                RaceEnd::Cdcl(mine)
            }
        }
    }

    /// Bytes the copies may fill: what the solve's budget leaves beside this solver, or
    /// without a budget half the memory the system reports available (which already
    /// leaves out this solver).
    fn room_for_copies(&self) -> u64 {
        match (self.limits.fork_room, self.limits.memory_budget) {
            (Some(room), _) => room,
            (None, Some(budget)) => budget.saturating_sub(self.footprint()),
            (None, None) => crate::run::available_memory().map_or(u64::MAX, |bytes| bytes / 2),
        }
    }

    /// How many copies of this solver, up to `threads - 1`, fit in `room` bytes.
    fn copies_within(&self, room: u64) -> usize {
        let copies = room / self.footprint().max(1);
        (self.limits.threads.saturating_sub(1) as u64).min(copies) as usize
    }

    /// Bytes of the buffers a copy of this solver duplicates (their capacities: an upper
    /// bound, since a clone allocates only the lengths).
    fn footprint(&self) -> u64 {
        fn bytes<T>(buffer: &Vec<T>) -> u64 {
            (buffer.capacity() * std::mem::size_of::<T>()) as u64
        }
        let (trail, db, vsids, modes) = (&self.trail, &self.db, &self.vsids, &self.modes);
        bytes(&db.lists)
            + db.lists
                .iter()
                .map(|list| bytes(&list.watches) + bytes(&list.binaries))
                .sum::<u64>()
            + bytes(&db.arena)
            + bytes(&trail.values)
            + bytes(&trail.level)
            + bytes(&trail.reason)
            + bytes(&trail.lits)
            + bytes(&vsids.activity)
            + bytes(&vsids.phase)
            + bytes(&self.analysis.marks.seen)
            + bytes(&db.originals)
            + bytes(&db.learnts)
            + bytes(&vsids.heap.heap)
            + bytes(&vsids.heap.position)
            + bytes(&modes.target_phase)
            + bytes(&modes.best_phase)
            + self.formula.original.memory_bytes()
            + self.equivalences.memory_bytes()
    }

    /// Member `index` (> 0) of a portfolio searches differently from member 0: its
    /// activities get up to one bump of noise, which reorders the many near-equal ones, and
    /// odd members switch to the other search mode at their first restart and shrink their
    /// learnt clauses.
    fn diversify(&mut self, index: usize) {
        // Seed 0 keeps the noise of a solver without a seed.
        let vsids = &mut self.vsids;
        let mut noise = ChaCha8Rng::seed_from_u64(
            index as u64 ^ vsids.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        for activity in &mut vsids.activity {
            *activity += vsids.var_inc * noise.gen::<f64>();
        }
        vsids.rebuild_heap(self.trail.num_vars);
        if index % 2 == 1 {
            self.modes.next_switch = self.stats.conflicts;
            self.analysis.shrinking.enabled = true;
        }
    }

    /// A copy of this solver (at the root, without proof or native propagator) for another
    /// thread. Every part is listed, so that a new one cannot be forgotten here.
    fn fork(&self) -> Cdcl {
        debug_assert!(!self.db.proof.is_on() && self.trail.theory.is_none());
        let trail = &self.trail;
        Cdcl {
            trail: Trail {
                num_vars: trail.num_vars,
                values: trail.values.clone(),
                level: trail.level.clone(),
                reason: trail.reason.clone(),
                lits: trail.lits.clone(),
                trail_lim: trail.trail_lim.clone(),
                queue_head: trail.queue_head,
                ..Trail::default()
            },
            db: self.db.fork(),
            vsids: self.vsids.clone(),
            analysis: self.analysis.fork(),
            modes: self.modes.clone(),
            reduce: self.reduce.clone(),
            simplifier: self.simplifier.clone(),
            equivalences: self.equivalences.clone(),
            theory: self.theory.fork(),
            formula: self.formula.fork(),
            failed: Vec::new(),
            lookahead: self.lookahead,
            stats: self.stats.clone(),
            limits: Limits {
                fork_at: u64::MAX,
                fork_by: u64::MAX,
                stop: None,
                interrupt: self.limits.interrupt.clone(),
                ..self.limits
            },
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::formula::{ClauseSink, Cnf, Var};
    use crate::test_formulas::{brute_force_models, pigeonhole, random_3sat};
    use crate::{Interrupt, LimitTime, Lookahead, SatBackend, SatOutcome, SolveUnderAssumptions};

    /// A cdcl on `threads` threads that forks after `after` conflicts.
    fn solver(threads: usize, after: u64, cnf: &Cnf) -> Cdcl {
        let mut cdcl = Cdcl::with_lookahead(Lookahead::None).with_threads(threads);
        cdcl.limits.fork_after = Some(after);
        cnf.stream_into(&mut cdcl);
        cdcl
    }

    fn portfolios(cdcl: &Cdcl) -> u64 {
        cdcl.counters().get("portfolios").unwrap()
    }

    /// Counts the models of 100 small random 3-SAT formulas by blocking clauses on cdcl
    /// with `threads` threads, each count checked against brute force; answers how many
    /// first solves went to the lookahead search (handed over or raced).
    pub(crate) fn counts_after_lookahead_match_brute_force(
        rng: &mut ChaCha8Rng,
        threads: usize,
    ) -> u64 {
        let mut searches = 0;
        for round in 0..100 {
            let vars = rng.gen_range(4..=10);
            let clauses = rng.gen_range(vars..=5 * vars);
            let cnf = random_3sat(rng, vars, clauses);
            let mut cdcl = Cdcl::new().with_threads(threads);
            cnf.stream_into(&mut cdcl);
            let mut models = 0;
            while let SatOutcome::Sat(model) = cdcl.solve().unwrap() {
                models += 1;
                cdcl.add_clause(&model.blocking_clause((0..vars).map(Var::from_index)));
            }
            assert_eq!(models, brute_force_models(&cnf), "round {round}: {cnf:?}");
            searches += cdcl.counters().get("lookahead_searches").unwrap();
        }
        searches
    }

    #[test]
    fn portfolios_agree_with_one_thread_on_random_3sat() {
        let mut rng = ChaCha8Rng::seed_from_u64(2009);
        let (mut sat, mut unsat, mut forked) = (0, 0, 0);
        for _ in 0..60 {
            let vars = rng.gen_range(60..=90);
            let cnf = random_3sat(&mut rng, vars, vars * 426 / 100);
            let expected = solver(1, 20, &cnf).solve().unwrap();
            let mut cdcl = solver(3, 20, &cnf);
            // `solve` checks a model against every clause before answering SAT.
            let answer = cdcl.solve().unwrap();
            assert_eq!(
                matches!(answer, SatOutcome::Sat(_)),
                matches!(expected, SatOutcome::Sat(_))
            );
            if let SatOutcome::Sat(model) = &answer {
                assert_eq!(cnf.first_falsified(model), None);
                sat += 1;
            } else {
                unsat += 1;
            }
            forked += portfolios(&cdcl);
            assert!(
                cdcl.limits.stop.is_none(),
                "the winner leaves its portfolio"
            );
            // A plain formula: only the odd members shrink, and the next solve starts
            // as member 0 did, whichever member won.
            assert!(
                !cdcl.analysis.shrinking.enabled,
                "a member's way of learning stayed"
            );
        }
        assert!(sat > 5 && unsat > 5, "{sat} SAT, {unsat} UNSAT");
        assert!(forked > 20, "only {forked} solves ran a portfolio");
    }

    #[test]
    fn copies_fit_in_the_room_left() {
        let mut cdcl = solver(4, 50, &pigeonhole(7));
        assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
        let copy = cdcl.footprint();
        // At least the formula as given and its arena, both of 4-byte literals.
        let literals = pigeonhole(7).num_literals() as u64;
        assert!(copy >= 8 * literals, "{copy} bytes for {literals} literals");
        assert_eq!(cdcl.copies_within(u64::MAX), 3, "threads - 1 at most");
        assert_eq!(cdcl.copies_within(2 * copy + copy / 2), 2);
        assert_eq!(cdcl.copies_within(copy - 1), 0, "no room: one thread");
    }

    #[test]
    fn the_memory_budget_holds_the_solver_and_its_copies() {
        let cnf = pigeonhole(7);
        let mut cdcl = solver(4, 50, &cnf);
        assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
        let copy = cdcl.footprint();
        let copies = |cdcl: &mut Cdcl, budget: u64| {
            cdcl.limits.memory_budget = Some(budget);
            cdcl.copies_within(cdcl.room_for_copies())
        };
        // The solver itself takes one share of the budget, each copy another.
        assert_eq!(copies(&mut cdcl, 3 * copy), 2);
        assert_eq!(
            copies(&mut cdcl, 2 * copy - 1),
            0,
            "room for the solver alone"
        );
        assert_eq!(
            copies(&mut cdcl, copy / 2),
            0,
            "over budget already: no copies"
        );
        // Through the public builder, a budget below the solver leaves it on one thread:
        // the one-thread counters (the fork point as in the next test).
        let cnf = pigeonhole(8);
        let mut tight = solver(2, 1_200, &cnf).with_memory_budget(Some(0));
        let mut alone = solver(1, 1_200, &cnf);
        assert_eq!(tight.solve().unwrap(), SatOutcome::Unsat);
        assert_eq!(alone.solve().unwrap(), SatOutcome::Unsat);
        let conflicts = alone.counters().get("conflicts").unwrap();
        assert!(conflicts > 2_400, "{conflicts} conflicts: no fork reached");
        assert_eq!(portfolios(&tight), 0);
        assert_eq!(tight.counters().get("conflicts"), Some(conflicts));
    }

    #[test]
    fn the_fork_waits_for_a_restart_of_the_one_thread_search() {
        // Forking after 1,200 conflicts: stable mode runs from 1,000 and restarts next at
        // 2,024, before the forced bound (2,400). With no room for a copy the solve goes
        // on alone from the fork, so it must be the one-thread search, counter for counter;
        // a restart forced at 1,200 would change its path.
        let cnf = pigeonhole(8);
        let mut one = solver(1, 1_200, &cnf);
        let mut two = solver(2, 1_200, &cnf);
        two.limits.fork_room = Some(0);
        assert_eq!(one.solve().unwrap(), SatOutcome::Unsat);
        assert_eq!(two.solve().unwrap(), SatOutcome::Unsat);
        let conflicts = one.counters().get("conflicts").unwrap();
        assert!(conflicts > 2_400, "{conflicts} conflicts: no fork reached");
        assert_eq!(portfolios(&two), 0, "no room, no copies");
        for counter in ["conflicts", "decisions", "propagations", "restarts"] {
            assert_eq!(
                one.counters().get(counter),
                two.counters().get(counter),
                "{counter}"
            );
        }
    }

    #[test]
    fn portfolios_refute_pigeonhole_formulas() {
        for holes in 5..=7 {
            let mut cdcl = solver(2, 50, &pigeonhole(holes));
            assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat, "{holes} holes");
            assert_eq!(portfolios(&cdcl), 1, "{holes} holes");
            let conflicts = cdcl.counters().get("portfolio_conflicts").unwrap();
            assert!(conflicts > 0, "{holes} holes");
        }
    }

    #[test]
    fn counting_through_portfolios_finds_every_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(1994);
        for _ in 0..6 {
            let cnf = random_3sat(&mut rng, 40, 150);
            let count = |threads: usize| {
                let mut cdcl = solver(threads, 3, &cnf);
                let mut solutions = std::collections::BTreeSet::new();
                while let SatOutcome::Sat(model) = cdcl.solve().unwrap() {
                    let lits: Vec<Lit> = model.lits().collect();
                    assert!(solutions.insert(lits.clone()), "a solution came twice");
                    let blocking: Vec<Lit> = lits.iter().map(|&l| !l).collect();
                    cdcl.add_clause(&blocking);
                    assert!(solutions.len() < 100_000);
                }
                (solutions, portfolios(&cdcl))
            };
            let (one, _) = count(1);
            let (many, forked) = count(2);
            assert_eq!(one, many);
            assert!(one.is_empty() || forked > 0, "no portfolio ran");
        }
    }

    #[test]
    fn portfolios_under_assumptions_name_failed_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(2001);
        let (mut failed_seen, mut forked) = (0, 0);
        for _ in 0..40 {
            let vars = 70;
            let cnf = random_3sat(&mut rng, vars, 290);
            let mut cdcl = solver(2, 10, &cnf);
            for _ in 0..4 {
                let assumptions: Vec<Lit> = (0..6)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
                    .collect();
                match cdcl.solve_under(&assumptions).unwrap() {
                    SatOutcome::Sat(model) => {
                        assert_eq!(cnf.first_falsified(&model), None);
                        assert!(assumptions
                            .iter()
                            .all(|&a| model.value(a.var()) == a.is_positive()));
                    }
                    SatOutcome::Unsat => {
                        let failed = cdcl.failed_assumptions();
                        assert!(failed.iter().all(|l| assumptions.contains(l)));
                        // The formula with the failed assumptions as units is UNSAT.
                        let mut check = Cdcl::new();
                        cnf.stream_into(&mut check);
                        for &lit in &failed {
                            check.add_clause(&[lit]);
                        }
                        assert_eq!(check.solve().unwrap(), SatOutcome::Unsat);
                        failed_seen += 1;
                    }
                }
            }
            forked += portfolios(&cdcl);
        }
        assert!(failed_seen > 5, "{failed_seen} UNSAT answers");
        assert!(forked > 5, "only {forked} portfolios");
    }

    fn lookahead_searches(cdcl: &Cdcl) -> u64 {
        cdcl.counters().get("lookahead_searches").unwrap()
    }

    /// On two threads the lookahead search races CDCL where one thread hands over: the
    /// same formulas go to it, the answers are one thread's, and every model satisfies the
    /// formula, whichever side won.
    #[test]
    fn races_of_cdcl_and_the_lookahead_agree_with_one_thread() {
        let mut rng = ChaCha8Rng::seed_from_u64(2018);
        let (mut raced, mut sat, mut unsat) = (0, 0, 0);
        let (mut conflicts_alone, mut conflicts_racing) = (0, 0);
        for round in 0..40 {
            let vars = rng.gen_range(80..=160);
            // Near the threshold the lookahead wins most races, below it CDCL.
            let per_hundred = if round % 2 == 0 { 426 } else { 380 };
            let cnf = random_3sat(&mut rng, vars, vars * per_hundred / 100);
            let mut one = Cdcl::new();
            cnf.stream_into(&mut one);
            let expected = one.solve().unwrap();
            let mut two = Cdcl::new().with_threads(2);
            cnf.stream_into(&mut two);
            let answer = two.solve().unwrap();
            assert_eq!(
                matches!(answer, SatOutcome::Sat(_)),
                matches!(expected, SatOutcome::Sat(_)),
                "round {round}"
            );
            if let SatOutcome::Sat(model) = &answer {
                assert_eq!(cnf.first_falsified(model), None, "round {round}");
                sat += 1;
            } else {
                unsat += 1;
            }
            assert_eq!(lookahead_searches(&two), lookahead_searches(&one));
            raced += lookahead_searches(&two);
            conflicts_alone += one.stats.conflicts;
            conflicts_racing += two.stats.conflicts;
            assert_eq!(portfolios(&two), 0, "a race is no portfolio");
            assert!(two.limits.stop.is_none(), "the race leaves its flag");
        }
        assert!(raced >= 30, "only {raced} of 40 raced");
        // One thread stops CDCL at the handover; a race lets it go on.
        assert!(
            conflicts_racing > conflicts_alone,
            "{conflicts_racing} conflicts racing, {conflicts_alone} alone"
        );
        assert!(sat > 5 && unsat > 5, "{sat} SAT, {unsat} UNSAT");
        // Counting by blocking clauses after a race finds every model.
        let raced = counts_after_lookahead_match_brute_force(&mut rng, 2);
        assert!(raced > 20, "only {raced} counts raced");
    }

    /// A race ends at the deadline and at the interrupt, both sides stopped.
    #[test]
    fn a_race_stops_at_the_deadline_and_at_the_interrupt() {
        let mut rng = ChaCha8Rng::seed_from_u64(2019);
        // 700 variables at the threshold: neither side answers within seconds.
        let cnf = random_3sat(&mut rng, 700, 2982);
        let mut cdcl = Cdcl::new().with_threads(2);
        cnf.stream_into(&mut cdcl);
        cdcl.set_time_limit(Some(std::time::Duration::from_millis(300)));
        assert!(matches!(cdcl.solve(), Err(BackendError::Timeout { .. })));
        assert_eq!(lookahead_searches(&cdcl), 1);
        assert!(cdcl.limits.stop.is_none());
        // CDCL searched on past its budget of 140 conflicts, beside the lookahead.
        assert!(
            cdcl.stats.conflicts > 1_000,
            "{} conflicts",
            cdcl.stats.conflicts
        );
        let flag = Arc::new(AtomicBool::new(false));
        let mut cdcl = Cdcl::new().with_threads(2);
        cnf.stream_into(&mut cdcl);
        cdcl.set_interrupt(Some(Arc::clone(&flag)));
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(300));
                flag.store(true, Ordering::Relaxed);
            })
        };
        assert!(matches!(cdcl.solve(), Err(BackendError::Timeout { .. })));
        setter.join().unwrap();
        assert_eq!(lookahead_searches(&cdcl), 1);
    }
}
