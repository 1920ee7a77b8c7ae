//! A DPLL solver written for this crate: the Davis–Putnam–Logemann–Loveland procedure
//! (Davis, Logemann & Loveland 1962, "A machine program for theorem-proving", CACM 5(7)), with
//! the two-watched-literal unit propagation of Chaff (Moskewicz, Madigan, Zhao, Zhang & Malik
//! 2001, "Chaff: engineering an efficient SAT solver", DAC) and failed-literal lookahead
//! (Freeman 1995, "Improvements to propositional satisfiability search algorithms", PhD
//! thesis; Li & Anbulagan 1997, "Look-ahead versus look-back for satisfiability problems",
//! CP). Lynce & Ouaknine (2006, "Sudoku as a SAT problem") showed that unit propagation plus
//! failed-literal detection solves most Sudoku formulas without search.
//!
//! The search is iterative (an explicit decision stack, no recursion), so the 81×81 and larger
//! Sudoku formulas never overflow the stack. Backtracking is chronological: on a conflict the
//! most recent decision not yet flipped is undone and flipped. No clause is learnt.
//!
//! Unit propagation is the shared reason-free core ([`UnitPropagator`]): binary clauses in
//! per-literal implication lists, longer clauses in one flat arena watched by two literals,
//! each watch with a *blocker* literal, as in MiniSat. The branching clauses are read in
//! the same arena.
//!
//! **Branching** picks the shortest not-yet-satisfied *branching clause*: a clause with a
//! positive literal, binary only when all-positive (on Sudoku these are the "at least one"
//! clauses of cells and of unit–digit pairs, so this is the minimum-remaining-values rule of
//! Sudoku solvers; the "at most one" clauses are all-negative and never branched on). When
//! every branching clause is satisfied, the remaining variables are decided false, in order,
//! which satisfies every clause with a negative literal left.
//!
//! **Lookahead** ([`Lookahead`]): before branching on a clause, each of its open literals is
//! *probed* — assigned and propagated, then undone. A probe that ends in a conflict is a
//! failed literal: its negation is implied at the current level, and the loop propagates and
//! picks again. Otherwise the solver branches on the literal whose probe assigned the most
//! variables (the most constraining choice, which fails or succeeds fastest). With
//! [`Lookahead::Full`], every open literal of every branching clause is also probed at the
//! root until no probe fails; on Sudoku this finds locked candidates, naked and hidden subsets
//! and X-Wings (each is a one-literal contradiction) before any decision. The default,
//! [`Lookahead::Auto`], probes only formulas larger than any reduced 9×9 one, where the
//! search it saves costs more than the probes.
//!
//! The solver is reusable: clauses may be added after a `solve` (blocking clauses for counting
//! solutions), and [`SatBackend::reset`] empties it while keeping its buffers.
//!
//! **Proofs** ([`crate::WriteProofs::set_proof`]): the search learns nothing, yet each of its steps
//! is a clause checkable by reverse unit propagation (RUP), so it logs a DRAT proof
//! ([`crate::proof`]). With the decision literals `d1 … dk` on the stack (flipped
//! ones included), a conflict logs `¬d1 ∨ … ∨ ¬dk`; a failed literal `l` logs
//! `¬d1 ∨ … ∨ ¬dk ∨ ¬l` (a unit at the root); when both branches of `dk` have failed, the
//! clause logged for the first one and propagation give `¬d1 ∨ … ∨ ¬d(k-1)` (so a conflict
//! in a second branch logs only that), down to the empty clause at the root. Each is RUP because propagating the decisions under the
//! formula and the lemmas before it replays the trail. Lemmas of a refuted subtree are
//! subsumed by its refutation and deleted, so the checker's clause set stays small.

use std::time::Duration;

use crate::formula::{ClauseSink, Cnf, Lit, Model, ReserveError, Var};
use crate::proof::{DratWriter, ProofTarget};
use crate::propagation::{Added, ClauseRef, UnitPropagator, Value};
use crate::run::{Counters, Deadline};
use crate::{
    check_model_from, BackendError, Interrupt, LimitTime, SatBackend, SatOutcome, WriteProofs,
};

crate::named_enum! {
    /// How much the solver looks ahead before it branches (`--lookahead`).
    #[derive(Default)]
    pub enum Lookahead ("lookahead") {
        /// Plain DPLL: unit propagation only.
        None = "none",
        /// Probe the open literals of the branching clause before each decision.
        BranchClause = "clause",
        /// As [`Lookahead::BranchClause`], plus failed-literal probing of every branching
        /// clause's literals at the root, to a fixpoint.
        Full = "full",
        /// [`Lookahead::None`] for formulas of at most [`AUTO_FULL_ABOVE`] variables, where
        /// a search is cheaper than probing (every reduced 9×9 formula), [`Lookahead::Full`]
        /// above, where probing replaces the search.
        #[default]
        Auto = "auto",
    }
}

/// Variables above which [`Lookahead::Auto`] probes. Measured (docs/history.md, "The DPLL
/// and root probing"): on the 375 hardest 9×9 puzzles plain DPLL takes 0.6× the time of
/// full lookahead; on the ten 25×25 puzzles of `sudoku_rank_5.csv` full lookahead takes
/// 1/130 of plain DPLL's time.
pub const AUTO_FULL_ABOVE: usize = 1_000;

impl Lookahead {
    /// The level used on a formula of `num_vars` variables.
    pub fn resolve(self, num_vars: usize) -> Lookahead {
        match self {
            Lookahead::Auto if num_vars > AUTO_FULL_ABOVE => Lookahead::Full,
            Lookahead::Auto => Lookahead::None,
            other => other,
        }
    }
}

/// One entry of the decision stack.
#[derive(Clone, Copy)]
struct Decision {
    /// Trail length before this decision's literal was assigned.
    trail_len: u32,
    /// The literal assigned.
    lit: Lit,
    /// Whether this is already the second (flipped) branch.
    flipped: bool,
}

/// How a search ended.
enum Search {
    Sat,
    Unsat,
    TimedOut,
}

/// What the lookahead on a branching clause found.
enum Probed {
    /// A literal failed; its negation is now assigned (to be propagated).
    Implied,
    /// Branch on this literal.
    Branch(Lit),
    /// The clause has no open literal left (propagation leaves none such; kept total).
    Conflict,
}

/// Decisions plus backtracks between two looks at the clock.
const CLOCK_INTERVAL: u64 = 256;

/// The built-in DPLL solver (see the module docs).
#[derive(Default)]
pub struct Dpll {
    /// The clauses loaded, the assignment and its trail, and unit propagation over them;
    /// all-positive binary clauses are also kept in its arena, for branching only.
    core: UnitPropagator,
    /// Clauses of `original` already loaded into `core`.
    loaded: usize,
    /// Each branching clause, in `core`'s arena.
    branch_clauses: Vec<ClauseRef>,
    /// Per branching clause (same order): the literal that last satisfied it.
    sat_cache: Vec<Lit>,
    /// `occurrences[occurrence_start[l]..occurrence_start[l + 1]]`: the branching clauses
    /// holding literal `l` (built for root probing).
    occurrences: Vec<u32>,
    occurrence_start: Vec<u32>,
    decisions_stack: Vec<Decision>,
    /// Next variable to try in the fallback (all branching clauses satisfied) branching.
    fallback_next: usize,
    /// An empty clause was added (or derived at level 0).
    inconsistent: bool,
    /// Per literal code: already a candidate of root probing.
    seen: Vec<bool>,
    /// Copy of every clause as given, to check models.
    original: Cnf,
    /// Leading clauses of `original` whose models the caller checks
    /// ([`SatBackend::trust_clauses`]).
    trusted: usize,
    lookahead: Lookahead,
    decisions: u64,
    backtracks: u64,
    probes: u64,
    failed_literals: u64,
    solves: u64,
    /// Limit of each solve (kept across [`SatBackend::reset`]).
    time_limit: Option<Duration>,
    /// Set by another thread to end the solve ([`crate::Interrupt::set_interrupt`]).
    interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The DRAT proof being written ([`crate::WriteProofs::set_proof`]), with its live lemmas.
    proof: Option<ProofLog>,
}

/// A proof being written, and the lemmas logged under decisions that are still live (each
/// with the number of decisions it was logged under), so that a refutation can delete the
/// lemmas it subsumes. Lemmas logged at the root (failed literals) are never deleted.
struct ProofLog {
    writer: DratWriter,
    /// Literals of the live lemmas, flat.
    lits: Vec<Lit>,
    /// Per live lemma: start in `lits` and its decision depth; depths never decrease.
    lemmas: Vec<(u32, u32)>,
    /// Scratch for one clause.
    clause: Vec<Lit>,
    /// The empty clause has been logged.
    refuted: bool,
}

impl ProofLog {
    /// Logs `¬d1 ∨ … ∨ ¬dk` (the decisions `stack`) plus `extra`, logged at depth `k`.
    fn log(&mut self, stack: &[Decision], extra: Option<Lit>) {
        self.write(stack, extra);
        self.track(stack.len() as u32);
    }

    /// Writes the lemma `¬d1 ∨ … ∨ ¬dk ∨ extra` into `clause` and the proof.
    fn write(&mut self, stack: &[Decision], extra: Option<Lit>) {
        self.clause.clear();
        self.clause.extend(stack.iter().rev().map(|d| !d.lit));
        self.clause.extend(extra);
        self.writer.add(&self.clause);
        if self.clause.is_empty() {
            self.refuted = true;
        }
    }

    /// Keeps the lemma in `clause`, logged at `depth`, for deletion (root lemmas stay).
    fn track(&mut self, depth: u32) {
        if depth > 0 {
            self.lemmas.push((self.lits.len() as u32, depth));
            self.lits.extend_from_slice(&self.clause);
        }
    }

    /// Logs the refutation `¬d1 ∨ … ∨ ¬dk` of the decisions `stack`, then deletes the
    /// lemmas logged deeper: it subsumes them all (they contain `¬d1 … ¬dk`), the two it
    /// was derived from included.
    fn refute(&mut self, stack: &[Decision]) {
        self.write(stack, None);
        self.delete_deeper(stack.len() as u32);
        self.track(stack.len() as u32);
    }

    /// Deletes the live lemmas logged under more than `depth` decisions.
    fn delete_deeper(&mut self, depth: u32) {
        while let Some(&(start, d)) = self.lemmas.last() {
            if d <= depth {
                break;
            }
            self.writer.delete(&self.lits[start as usize..]);
            self.lits.truncate(start as usize);
            self.lemmas.pop();
        }
    }

    /// Logs the empty clause unless it already was.
    fn refute_root(&mut self) {
        if !self.refuted {
            self.refute(&[]);
        }
    }
}

impl Dpll {
    /// An empty solver with the default lookahead ([`Lookahead::Auto`]).
    pub fn new() -> Dpll {
        Dpll::default()
    }

    /// An empty solver with the given lookahead.
    pub fn with_lookahead(lookahead: Lookahead) -> Dpll {
        Dpll {
            lookahead,
            ..Dpll::default()
        }
    }

    fn grow(&mut self, num_vars: usize) {
        self.core.grow(num_vars);
        self.seen.resize(2 * self.core.num_vars(), false);
    }

    #[inline]
    fn value(&self, lit: Lit) -> Value {
        self.core.value(lit)
    }

    #[inline]
    fn assign(&mut self, lit: Lit) {
        self.core.assign(lit);
    }

    /// Undoes the trail down to `len` literals (and the fallback branching goes back to the
    /// lowest variable unassigned).
    fn undo_to(&mut self, len: usize) {
        let mut lowest = self.fallback_next;
        self.core
            .undo_to_each(len, |lit| lowest = lowest.min(lit.var().index()));
        self.fallback_next = lowest;
    }

    /// Back to decision level 0 (level-0 assignments stay).
    fn backtrack_to_root(&mut self) {
        if let Some(proof) = &mut self.proof {
            proof.delete_deeper(0);
        }
        if let Some(first) = self.decisions_stack.first() {
            let len = first.trail_len as usize;
            self.decisions_stack.clear();
            self.undo_to(len);
            self.fallback_next = 0;
        }
    }

    /// Unit propagation over the trail from its head; `false` on a conflict. The shared
    /// core's, binary clauses before long ones: the order the search's counters were
    /// measured with.
    #[inline]
    fn propagate(&mut self) -> bool {
        self.core.propagate()
    }

    /// Assigns `lit`, propagates and undoes it all: the number of literals assigned, or
    /// `None` when `lit` is a failed literal.
    fn probe(&mut self, lit: Lit) -> Option<usize> {
        self.probes += 1;
        let len = self.core.trail().len();
        self.assign(lit);
        let ok = self.propagate();
        let assigned = self.core.trail().len() - len;
        self.undo_to(len);
        ok.then_some(assigned)
    }

    /// The shortest open branching clause, or `None` when all are satisfied.
    fn pick_clause(&mut self) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None; // (open literals, clause index)
        for ci in 0..self.branch_clauses.len() {
            if self.value(self.sat_cache[ci]) == Value::True {
                continue;
            }
            let mut open = 0;
            let mut satisfied = None;
            for lit in self.core.clause(self.branch_clauses[ci]) {
                match self.core.value(lit) {
                    Value::True => {
                        satisfied = Some(lit);
                        break;
                    }
                    Value::Unset => open += 1,
                    Value::False => {}
                }
            }
            if let Some(lit) = satisfied {
                self.sat_cache[ci] = lit;
                continue;
            }
            if best.map_or(true, |(n, _)| open < n) {
                best = Some((open, ci));
                // Fewer than two open literals would have been propagated.
                if open <= 2 {
                    break;
                }
            }
        }
        best.map(|(_, ci)| ci)
    }

    /// The open literals of branching clause `ci`, into `out`.
    fn open_literals(&self, ci: usize, out: &mut Vec<Lit>) {
        out.clear();
        out.extend(
            self.core
                .clause(self.branch_clauses[ci])
                .filter(|&l| self.value(l) == Value::Unset),
        );
    }

    /// Probes the open literals of branching clause `ci`.
    fn look_ahead(&mut self, open: &[Lit]) -> Probed {
        let mut best: Option<(usize, Lit)> = None;
        for &lit in open.iter() {
            match self.probe(lit) {
                None => {
                    self.failed_literals += 1;
                    if let Some(proof) = &mut self.proof {
                        proof.log(&self.decisions_stack, Some(!lit));
                    }
                    self.assign(!lit);
                    return Probed::Implied;
                }
                Some(assigned) => {
                    if best.map_or(true, |(b, _)| assigned > b) {
                        best = Some((assigned, lit));
                    }
                }
            }
        }
        match best {
            Some((_, lit)) => Probed::Branch(lit),
            None => Probed::Conflict,
        }
    }

    /// Failed-literal probing at the root: first every open literal of every open branching
    /// clause; then, round after round, the open literals of the branching clauses that
    /// lost a literal to the previous round's failed literals (only their probes can have
    /// changed, to a first approximation), until a round finds none. `false` on a conflict.
    fn probe_all(&mut self, deadline: &Deadline) -> bool {
        if !self.propagate() {
            return false;
        }
        self.build_occurrences();
        let mut candidates = Vec::new();
        for ci in 0..self.branch_clauses.len() {
            self.collect_open(ci, &mut candidates);
        }
        loop {
            for &lit in &candidates {
                self.seen[lit.code()] = false;
            }
            let mark = self.core.trail().len();
            for (i, &lit) in candidates.iter().enumerate() {
                if i % 1024 == 1023 && deadline.expired() {
                    return true;
                }
                if self.value(lit) != Value::Unset {
                    continue;
                }
                if self.probe(lit).is_none() {
                    self.failed_literals += 1;
                    if let Some(proof) = &mut self.proof {
                        proof.log(&[], Some(!lit));
                    }
                    self.assign(!lit);
                    if !self.propagate() {
                        return false;
                    }
                }
            }
            if self.core.trail().len() == mark {
                return true;
            }
            candidates.clear();
            for t in mark..self.core.trail().len() {
                let gone = !self.core.trail()[t];
                let (from, to) = (
                    self.occurrence_start[gone.code()] as usize,
                    self.occurrence_start[gone.code() + 1] as usize,
                );
                for k in from..to {
                    let ci = self.occurrences[k] as usize;
                    self.collect_open(ci, &mut candidates);
                }
            }
        }
    }

    /// Pushes the open literals of branching clause `ci` not yet `seen` (and marks them),
    /// unless the clause is satisfied.
    fn collect_open(&mut self, ci: usize, out: &mut Vec<Lit>) {
        let clause = self.branch_clauses[ci];
        if self
            .core
            .clause(clause)
            .any(|lit| self.core.value(lit) == Value::True)
        {
            return;
        }
        for lit in self.core.clause(clause) {
            if self.core.value(lit) == Value::Unset && !self.seen[lit.code()] {
                self.seen[lit.code()] = true;
                out.push(lit);
            }
        }
    }

    /// Compressed rows of the branching clauses each literal occurs in.
    fn build_occurrences(&mut self) {
        let codes = 2 * self.core.num_vars();
        self.occurrence_start.clear();
        self.occurrence_start.resize(codes + 1, 0);
        for &clause in &self.branch_clauses {
            for lit in self.core.clause(clause) {
                self.occurrence_start[lit.code() + 1] += 1;
            }
        }
        for code in 0..codes {
            self.occurrence_start[code + 1] += self.occurrence_start[code];
        }
        self.occurrences.clear();
        self.occurrences
            .resize(self.occurrence_start[codes] as usize, 0);
        for (ci, &clause) in self.branch_clauses.iter().enumerate() {
            for lit in self.core.clause(clause) {
                let slot = &mut self.occurrence_start[lit.code()];
                self.occurrences[*slot as usize] = ci as u32;
                *slot += 1;
            }
        }
        for code in (1..=codes).rev() {
            self.occurrence_start[code] = self.occurrence_start[code - 1];
        }
        self.occurrence_start[0] = 0;
    }

    /// The first unassigned variable, decided false, once every branching clause holds.
    fn fallback_literal(&mut self) -> Option<Lit> {
        while self.fallback_next < self.core.num_vars() {
            let lit = Var::from_index(self.fallback_next).negative();
            if self.value(lit) == Value::Unset {
                return Some(lit);
            }
            self.fallback_next += 1;
        }
        None
    }

    /// Undoes decisions until one can be flipped; `false` when none is left (UNSAT).
    fn backtrack(&mut self) -> bool {
        self.backtracks += 1;
        if let Some(proof) = &mut self.proof {
            // Under a flipped decision the conflict needs no lemma of its own: the refutation
            // of the decisions above it (logged below) follows by propagation, through the
            // lemma that flipped it.
            if self.decisions_stack.last().map_or(true, |d| !d.flipped) {
                proof.refute(&self.decisions_stack);
            }
        }
        while let Some(d) = self.decisions_stack.pop() {
            self.undo_to(d.trail_len as usize);
            if !d.flipped {
                self.decisions_stack.push(Decision {
                    trail_len: d.trail_len,
                    lit: !d.lit,
                    flipped: true,
                });
                self.assign(!d.lit);
                return true;
            }
            // Both branches of `d` failed: their two lemmas give the shorter one.
            if let Some(proof) = &mut self.proof {
                proof.refute(&self.decisions_stack);
            }
        }
        false
    }

    fn decide(&mut self, lit: Lit) {
        self.decisions += 1;
        self.decisions_stack.push(Decision {
            trail_len: self.core.trail().len() as u32,
            lit,
            flipped: false,
        });
        self.assign(lit);
    }

    fn search(&mut self, deadline: Deadline) -> Search {
        let lookahead = self.lookahead.resolve(self.core.num_vars());
        if lookahead == Lookahead::Full && !self.probe_all(&deadline) {
            return Search::Unsat;
        }
        let mut until_clock = CLOCK_INTERVAL;
        let mut open = Vec::new();
        loop {
            until_clock -= 1;
            if until_clock == 0 {
                until_clock = CLOCK_INTERVAL;
                crate::run::report_progress(|| self.counters());
                let interrupted = self
                    .interrupt
                    .as_ref()
                    .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
                if deadline.expired() || interrupted {
                    return Search::TimedOut;
                }
            }
            if !self.propagate() {
                if !self.backtrack() {
                    return Search::Unsat;
                }
                continue;
            }
            let probed = match self.pick_clause() {
                Some(ci) => {
                    self.open_literals(ci, &mut open);
                    match (lookahead, open.first()) {
                        (_, None) => Probed::Conflict,
                        (Lookahead::None, Some(&lit)) => Probed::Branch(lit),
                        _ => self.look_ahead(&open),
                    }
                }
                None => match self.fallback_literal() {
                    Some(lit) => Probed::Branch(lit),
                    None => return Search::Sat,
                },
            };
            let lit = match probed {
                Probed::Branch(lit) => lit,
                Probed::Implied => continue,
                Probed::Conflict => {
                    if !self.backtrack() {
                        return Search::Unsat;
                    }
                    continue;
                }
            };
            self.decide(lit);
        }
    }
}

impl Dpll {
    /// Reserves, fallibly, the big buffers the clauses added since the last solve will fill
    /// (the arena, the implication pairs and the watch-list heads), so that a formula too
    /// large for the machine is an error rather than an abort.
    fn reserve_pending(&mut self) -> Result<(), ReserveError> {
        let pending = self.loaded..self.original.num_clauses();
        let clauses = pending.len();
        let literals: usize = pending.map(|i| self.original.clause(i).len()).sum();
        self.core
            .reserve(self.original.num_vars(), clauses, literals)
    }

    /// Loads the clauses added since the last solve into the propagation core, which
    /// simplifies each against the root assignment (false and repeated literals dropped;
    /// satisfied and tautological clauses skipped), assigns units, and keeps binary
    /// clauses as implications and longer ones watched in its arena. Buffering the clauses
    /// and building flat arrays in one pass costs less than growing per-literal lists
    /// clause by clause.
    fn load_pending(&mut self) {
        self.backtrack_to_root();
        self.grow(self.original.num_vars());
        for index in self.loaded..self.original.num_clauses() {
            if self.inconsistent {
                break;
            }
            self.load_clause(index);
        }
        self.loaded = self.original.num_clauses();
    }

    /// Loads clause `index` of `original`, and keeps it for branching if it has a positive
    /// literal (all positive when binary).
    fn load_clause(&mut self, index: usize) {
        let branching = match self.core.add_clause(self.original.clause(index)) {
            Added::Empty => {
                self.inconsistent = true;
                return;
            }
            Added::Satisfied | Added::Unit(_) => return,
            Added::Binary(a, b) if a.is_positive() && b.is_positive() => {
                self.core.store_clause(&[a, b])
            }
            Added::Binary(..) => return,
            Added::Long(clause) => {
                if !self.core.clause(clause).any(|lit| lit.is_positive()) {
                    return;
                }
                clause
            }
        };
        let first = self.core.clause(branching).next();
        self.branch_clauses.push(branching);
        self.sat_cache
            .push(first.expect("a branching clause has literals"));
    }
}

impl ClauseSink for Dpll {
    /// Buffers the clause; it is loaded at the next [`SatBackend::solve`].
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for Dpll {
    fn num_vars(&self) -> usize {
        self.original.num_vars()
    }

    fn name(&self) -> String {
        "dpll".to_string()
    }

    fn add_formula(&mut self, cnf: &mut Cnf) {
        self.original.absorb(cnf);
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        // From the start: loading a large formula is part of the time a solve takes.
        let deadline = Deadline::after(self.time_limit);
        self.solves += 1;
        self.reserve_pending()
            .map_err(|source| BackendError::OutOfMemory {
                solver: self.name(),
                source,
            })?;
        self.load_pending();
        if self.inconsistent {
            if let Some(proof) = &mut self.proof {
                proof.refute_root();
            }
            return Ok(SatOutcome::Unsat);
        }
        self.fallback_next = 0;
        match self.search(deadline) {
            Search::Sat => {}
            Search::Unsat => {
                // The search is exhausted: UNSAT for good, also after more clauses.
                self.inconsistent = true;
                if let Some(proof) = &mut self.proof {
                    proof.refute_root();
                }
                return Ok(SatOutcome::Unsat);
            }
            Search::TimedOut => {
                self.backtrack_to_root();
                return Err(BackendError::Timeout {
                    solver: "dpll".to_string(),
                    timeout: self.time_limit.unwrap_or_default(),
                });
            }
        }
        let values = (0..self.core.num_vars())
            .map(|v| self.value(Var::from_index(v).positive()) == Value::True)
            .collect();
        let model = Model::from_values(values);
        self.backtrack_to_root();
        check_model_from("dpll", &self.original, self.trusted, model)
    }

    fn counters(&self) -> Counters {
        Counters(vec![
            ("solves", self.solves),
            ("decisions", self.decisions),
            ("propagations", self.core.propagations()),
            ("backtracks", self.backtracks),
            ("probes", self.probes),
            ("failed_literals", self.failed_literals),
        ])
    }

    fn trust_clauses(&mut self, count: usize) {
        self.trusted = count;
    }

    fn reset(&mut self) {
        self.proof = None;
        self.core.clear();
        self.seen.clear();
        self.loaded = 0;
        self.branch_clauses.clear();
        self.sat_cache.clear();
        self.decisions_stack.clear();
        self.fallback_next = 0;
        self.inconsistent = false;
        self.original.clear();
        self.trusted = 0;
        self.decisions = 0;
        self.backtracks = 0;
        self.probes = 0;
        self.failed_literals = 0;
        self.solves = 0;
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
}

impl LimitTime for Dpll {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Interrupt for Dpll {
    fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.interrupt = flag;
    }
}

impl WriteProofs for Dpll {
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        let io = |source| BackendError::Io {
            solver: "dpll".to_string(),
            source,
        };
        if target.is_some() && self.solves > 0 {
            return Err(BackendError::Unsupported {
                solver: self.name(),
                what: "start a proof after a solve (reset it first)".to_string(),
            });
        }
        self.proof = match target {
            None => None,
            Some(target) => Some(ProofLog {
                writer: DratWriter::for_target(&target).map_err(io)?,
                lits: Vec::new(),
                lemmas: Vec::new(),
                clause: Vec::new(),
                refuted: false,
            }),
        };
        Ok(())
    }
    fn finish_proof(&mut self) -> Result<(), BackendError> {
        match &mut self.proof {
            None => Ok(()),
            Some(proof) => proof.writer.finish().map_err(|source| BackendError::Io {
                solver: "dpll".to_string(),
                source,
            }),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::formula::Var;

    fn brute_force_sat(cnf: &Cnf) -> bool {
        let n = cnf.num_vars();
        (0u32..1 << n).any(|bits| {
            let model = Model::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
            cnf.first_falsified(&model).is_none()
        })
    }

    #[test]
    fn agrees_with_brute_force_on_random_3sat() {
        let mut rng = ChaCha8Rng::seed_from_u64(1962);
        for round in 0..300 {
            let vars = rng.gen_range(3..=12);
            let clauses = rng.gen_range(1..=6 * vars);
            let mut cnf = Cnf::with_vars(vars);
            for _ in 0..clauses {
                let len = rng.gen_range(1..=4);
                let clause: Vec<Lit> = (0..len)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
                    .collect();
                cnf.add_clause(&clause);
            }
            let expected = brute_force_sat(&cnf);
            for lookahead in Lookahead::ALL {
                let mut dpll = Dpll::with_lookahead(lookahead);
                cnf.stream_into(&mut dpll);
                let outcome = dpll.solve().expect("dpll answers");
                assert_eq!(
                    matches!(outcome, SatOutcome::Sat(_)),
                    expected,
                    "round {round}, lookahead {lookahead:?}: {cnf:?}"
                );
            }
        }
    }

    /// Whether `clause` follows from `clauses` by unit propagation (reverse unit propagation:
    /// assume its negation, propagate to a conflict), by brute repetition.
    fn rup(clauses: &[Vec<Lit>], clause: &[Lit], num_vars: usize) -> bool {
        let mut value = vec![0i8; 2 * num_vars];
        let set = |value: &mut Vec<i8>, l: Lit| {
            value[l.code()] = 1;
            value[(!l).code()] = -1;
        };
        for &l in clause {
            if value[l.code()] == 1 {
                return true; // its negation is contradictory
            }
            set(&mut value, !l);
        }
        loop {
            let mut changed = false;
            for c in clauses {
                if c.iter().any(|l| value[l.code()] == 1) {
                    continue;
                }
                let mut open: Vec<Lit> =
                    c.iter().copied().filter(|l| value[l.code()] == 0).collect();
                open.sort();
                open.dedup();
                match open.as_slice() {
                    [] => return true,
                    [unit] => {
                        set(&mut value, *unit);
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return false;
            }
        }
    }

    /// Checks a text DRAT proof of `cnf` by forward RUP checking: every lemma follows from
    /// the formula and the lemmas kept so far, and the empty clause is derived.
    pub(crate) fn check_proof(cnf: &Cnf, proof: &str) -> Result<(), String> {
        let mut clauses: Vec<Vec<Lit>> = cnf.clauses().map(|c| c.to_vec()).collect();
        for (i, line) in proof.lines().enumerate() {
            let (delete, body) = match line.strip_prefix("d ") {
                Some(rest) => (true, rest),
                None => (false, line),
            };
            let mut lits: Vec<Lit> = body
                .split_whitespace()
                .map(|w| w.parse::<i64>().unwrap())
                .take_while(|&n| n != 0)
                .map(Lit::from_dimacs)
                .collect();
            if delete {
                lits.sort();
                let at = clauses.iter().position(|c| {
                    let mut c = c.clone();
                    c.sort();
                    c == lits
                });
                clauses.remove(at.ok_or(format!("line {}: deletes a missing clause", i + 1))?);
                continue;
            }
            if !rup(&clauses, &lits, cnf.num_vars()) {
                return Err(format!("line {}: `{line}` is not RUP", i + 1));
            }
            if lits.is_empty() {
                return Ok(());
            }
            clauses.push(lits);
        }
        Err("no empty clause".to_string())
    }

    #[test]
    fn unsat_answers_come_with_rup_proofs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        let mut rng = ChaCha8Rng::seed_from_u64(2014);
        let mut proved = 0;
        for round in 0..300 {
            let vars = rng.gen_range(3..=12);
            let clauses = rng.gen_range(1..=6 * vars);
            let mut cnf = Cnf::with_vars(vars);
            for _ in 0..clauses {
                let len = rng.gen_range(1..=4);
                let clause: Vec<Lit> = (0..len)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
                    .collect();
                cnf.add_clause(&clause);
            }
            for lookahead in Lookahead::ALL {
                let mut dpll = Dpll::with_lookahead(lookahead);
                dpll.set_proof(Some(ProofTarget::text(&path))).unwrap();
                cnf.stream_into(&mut dpll);
                let outcome = dpll.solve().unwrap();
                dpll.finish_proof().unwrap();
                if outcome == SatOutcome::Unsat {
                    proved += 1;
                    let proof = std::fs::read_to_string(&path).unwrap();
                    if let Err(e) = check_proof(&cnf, &proof) {
                        panic!("round {round}, {lookahead:?}: {e}\n{cnf:?}\n{proof}");
                    }
                }
            }
        }
        assert!(proved > 200, "only {proved} UNSAT answers");
    }

    #[test]
    fn proof_covers_blocking_clauses() {
        // x1 ∨ x2 ∨ x3 with every model blocked: the proof refutes formula + blocking clauses.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        let mut dpll = Dpll::new();
        dpll.set_proof(Some(ProofTarget::text(&path))).unwrap();
        let mut cnf = Cnf::with_vars(3);
        cnf.add_clause(&[
            Lit::from_dimacs(1),
            Lit::from_dimacs(2),
            Lit::from_dimacs(3),
        ]);
        cnf.stream_into(&mut dpll);
        let mut models = 0;
        while let SatOutcome::Sat(model) = dpll.solve().unwrap() {
            models += 1;
            let blocking = model.blocking_clause((0..3).map(Var::from_index));
            dpll.add_clause(&blocking);
            cnf.add_clause(&blocking);
        }
        dpll.finish_proof().unwrap();
        assert_eq!(models, 7);
        check_proof(&cnf, &std::fs::read_to_string(&path).unwrap()).unwrap();
        // A proof cannot start after a solve: it would miss what that solve derived.
        assert!(matches!(
            dpll.set_proof(Some(ProofTarget::text(&path))),
            Err(BackendError::Unsupported { .. })
        ));
    }

    #[test]
    fn long_implication_chain_needs_no_recursion() {
        // x1, x1 → x2, …: 200,000 propagations and a forced final conflict-free model.
        let n = 200_000;
        let mut dpll = Dpll::new();
        dpll.add_clause(&[Var::from_index(0).positive()]);
        for i in 0..n - 1 {
            dpll.add_clause(&[
                Var::from_index(i).negative(),
                Var::from_index(i + 1).positive(),
                Var::from_index(i + 1).positive(),
            ]);
        }
        match dpll.solve().unwrap() {
            SatOutcome::Sat(model) => assert!(model.value(Var::from_index(n - 1))),
            SatOutcome::Unsat => panic!("satisfiable"),
        }
        assert!(dpll.counters().get("propagations").unwrap() >= n as u64);
    }

    #[test]
    fn deep_search_needs_no_recursion() {
        // 3,000 independent ternary clauses over fresh variables: thousands of decisions.
        let mut dpll = Dpll::new();
        for i in 0..3000 {
            let v = |k: usize| Var::from_index(3 * i + k).positive();
            dpll.add_clause(&[v(0), v(1), v(2)]);
            dpll.add_clause(&[!v(0), !v(1)]);
        }
        assert!(matches!(dpll.solve().unwrap(), SatOutcome::Sat(_)));
        assert!(dpll.counters().get("decisions").unwrap() >= 3000);
    }

    #[test]
    fn an_interrupt_ends_the_solve_as_a_time_out_and_can_be_lifted() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        // 9 pigeons in 8 holes: UNSAT after far more than one clock interval of search.
        let mut cnf = crate::test_formulas::pigeonhole(8);
        let flag = Arc::new(AtomicBool::new(true));
        let mut dpll = Dpll::with_lookahead(Lookahead::None);
        dpll.add_formula(&mut cnf);
        dpll.set_interrupt(Some(Arc::clone(&flag)));
        assert!(matches!(dpll.solve(), Err(BackendError::Timeout { .. })));
        flag.store(false, Ordering::Relaxed);
        assert!(matches!(dpll.solve(), Ok(SatOutcome::Unsat)));
    }
}
