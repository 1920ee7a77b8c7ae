//! A lookahead DPLL for small formulas of short clauses, the shape of uniform random
//! k-SAT, where lookahead solvers beat conflict-driven ones: before each decision
//! the most promising free variables are tried both ways, a side that fails fixes the
//! other, a literal both sides imply is fixed, and the decision goes to the variable whose
//! two sides shorten the most clauses (Li & Anbulagan 1997, "Heuristics based on unit
//! propagation for satisfiability problems", IJCAI: satz; Dubois & Dequen 2001, "A
//! backbone-search heuristic for efficient solving of hard 3-SAT formulae", IJCAI: kcnfs;
//! Heule, Dufour, van Zwieten & van Maaren 2004, "March_eq", SAT: the product of the two
//! sides' scores).
//!
//! Binary and ternary clauses are kept as march keeps them: a binary clause as two
//! implications, a ternary one as the pair of its other literals under each of its three.
//! Propagating a literal then reads each pair once, which tells at the same time whether
//! the clause became unit, false or binary (what the lookahead scores), and undoing is
//! resetting values along the trail. Longer clauses keep a count of their literals not yet
//! false, which undoing restores (random 3-SAT, without them, skips that upkeep). [`crate::Cdcl`] hands over to
//! this search on formulas of three-literal clauses that its first conflicts do not settle
//! (docs/history.md, "Random k-SAT": 200 random 3-SAT formulas of 150 variables at the threshold take
//! 0.47 s, CDCL alone 1.60 s, varisat 1.29–1.32 s).
//!
//! [`LookaheadBackend`] is the same search as a backend of its own (`--backend
//! lookahead`), on any formula, to set the two kinds of search side by side.
//!
//! The preselection ranks variables by the short clauses each side is in and looks ahead
//! on the best tenth (at least [`PRESELECT_FLOOR`]); the rounds go round the candidates
//! until one whole round fixes nothing, so every score is taken on the final node.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::formula::{try_reserve, ClauseSink, Cnf, Lit, Model, ReserveError};
use crate::run::{Counters, Deadline};
use crate::{check_model_from, BackendError, Interrupt, LimitTime, SatBackend, SatOutcome};

/// What a search that may stop early found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookaheadOutcome {
    /// A model: the value of each variable.
    Sat(Vec<bool>),
    /// No model.
    Unsat,
    /// The deadline or the interrupt came first.
    Stopped,
}

impl LookaheadOutcome {
    /// The answer of backend `solver` on `formula`: a model checked from clause `trusted`
    /// on ([`SatBackend::trust_clauses`]), UNSAT, or a time-out at `limit` for a stop.
    ///
    /// # Errors
    /// [`BackendError::WrongModel`] for a model that falsifies a clause,
    /// [`BackendError::Timeout`] for a stop.
    pub fn into_answer(
        self,
        solver: &str,
        formula: &Cnf,
        trusted: usize,
        limit: Option<Duration>,
    ) -> Result<SatOutcome, BackendError> {
        match self {
            LookaheadOutcome::Sat(values) => {
                check_model_from(solver, formula, trusted, Model::from_values(values))
            }
            LookaheadOutcome::Unsat => Ok(SatOutcome::Unsat),
            LookaheadOutcome::Stopped => Err(BackendError::Timeout {
                solver: solver.to_string(),
                timeout: limit.unwrap_or_default(),
            }),
        }
    }
}

/// Counters of one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LookaheadCounters {
    /// Branching decisions.
    pub decisions: u64,
    /// Literals assigned, in lookaheads and in the search.
    pub propagations: u64,
    /// Lookahead probes (one per literal tried).
    pub probes: u64,
    /// Probes that failed, fixing the other side.
    pub failed_literals: u64,
    /// Literals fixed because both sides of a variable imply them.
    pub necessary: u64,
    /// Nodes given up (both sides of a decision refuted).
    pub backtracks: u64,
}

impl LookaheadCounters {
    /// Adds `more`, counter by counter.
    pub fn add(&mut self, more: &LookaheadCounters) {
        self.decisions += more.decisions;
        self.propagations += more.propagations;
        self.probes += more.probes;
        self.failed_literals += more.failed_literals;
        self.necessary += more.necessary;
        self.backtracks += more.backtracks;
    }
}

const UNASSIGNED: i8 = 0;

/// The weight of a clause left with `open` literals, in the lookahead's scores and the
/// preselection: each literal more divides it by five, as kcnfs weighs clauses.
#[inline]
fn shortened_weight(open: u32) -> f64 {
    match open {
        0..=2 => 1.0,
        3 => 0.2,
        4 => 0.04,
        5 => 0.008,
        _ => 0.0016,
    }
}

/// `len` copies of `fill`, or a [`ReserveError`] naming `what`.
fn filled<T: Clone>(len: usize, fill: T, what: &'static str) -> Result<Vec<T>, ReserveError> {
    let mut buffer = Vec::new();
    try_reserve(&mut buffer, len, what)?;
    buffer.resize(len, fill);
    Ok(buffer)
}

/// Share of the ranked free variables looked ahead on at each node: on random 3-SAT of
/// 150 and 200 variables at the threshold, shares of 5–15 % took the same time within
/// 5 %, 30 % took 1.12× as long, and every variable (measured on an earlier build that
/// kept counters per clause) 1.74× (docs/history.md, "Random k-SAT").
const PRESELECT_SHARE: f64 = 0.1;

/// The fewest variables looked ahead on at each node (when that many are ranked).
pub const PRESELECT_FLOOR: usize = 20;

/// The solver: the clauses (as implications, ternary pairs and counted long clauses, and
/// in full for the satisfaction checks), the assignment and its trail.
pub struct LookaheadSolver {
    num_vars: usize,
    /// Literal codes of every clause, one after another.
    literals: Vec<u32>,
    /// Where each clause starts in `literals`; one more entry than clauses.
    starts: Vec<u32>,
    /// For each literal code, the literals its truth implies (the binary clauses).
    implications: Vec<Vec<u32>>,
    /// For each literal code, the other two literals of each ternary clause it is in.
    ternaries: Vec<Vec<[u32; 2]>>,
    /// 1 true, -1 false, 0 open, per literal code.
    values: Vec<i8>,
    trail: Vec<u32>,
    /// Trail entries before this one have had their consequences propagated.
    head: usize,
    /// Clauses shortened since the last reset, weighted by what is left of them
    /// ([`shortened_weight`]).
    shortened: f64,
    /// For each literal code, the clauses of four literals or more it is in.
    long_occurrences: Vec<Vec<u32>>,
    /// Per clause, its literals not yet false (kept for long clauses only; lags the
    /// assignment by the literals not yet propagated).
    long_open: Vec<u32>,
    /// Whether any clause has four literals or more (random 3-SAT skips their upkeep).
    has_long: bool,
    /// Per literal code, the probe that last implied it (for necessary assignments).
    stamps: Vec<u32>,
    stamp: u32,
    /// Scratch for [`Self::preselect`], per literal code.
    weights: Vec<f64>,
    /// Clauses, the first `active_len` of them perhaps unsatisfied; the rest are
    /// satisfied at the current node (a sparse set restored by resetting the length).
    active: Vec<u32>,
    active_len: usize,
    /// The unit clauses.
    units: Vec<u32>,
    /// An empty clause was found on load, or a search refuted the formula.
    refuted: bool,
    counters: LookaheadCounters,
}

impl LookaheadSolver {
    /// The solver for `cnf` (tautologies dropped, repeated literals merged).
    ///
    /// # Panics
    /// When the memory for its per-literal lists is not there ([`LookaheadSolver::try_new`]
    /// says so instead).
    pub fn new(cnf: &Cnf) -> LookaheadSolver {
        LookaheadSolver::try_new(cnf).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The solver for `cnf`, or which buffer could not be allocated.
    ///
    /// # Errors
    /// A [`ReserveError`] naming the buffer when the memory is not there.
    pub fn try_new(cnf: &Cnf) -> Result<LookaheadSolver, ReserveError> {
        let num_vars = cnf.num_vars();
        let codes = num_vars.saturating_mul(2);
        let lists = "the lookahead's per-literal lists";
        let reserved = |capacity: usize, what| -> Result<Vec<u32>, ReserveError> {
            let mut buffer = Vec::new();
            try_reserve(&mut buffer, capacity, what)?;
            Ok(buffer)
        };
        let mut solver = LookaheadSolver {
            num_vars,
            literals: reserved(cnf.num_literals(), "the lookahead's clauses")?,
            starts: vec![0],
            implications: filled(codes, Vec::new(), lists)?,
            ternaries: filled(codes, Vec::new(), lists)?,
            values: filled(codes, UNASSIGNED, "the lookahead's assignment")?,
            // (After the per-literal lists: a size past all memory names them, the largest.)
            trail: reserved(num_vars, "the lookahead's trail")?,
            head: 0,
            shortened: 0.0,
            long_occurrences: filled(codes, Vec::new(), lists)?,
            long_open: Vec::new(),
            has_long: false,
            stamps: filled(codes, 0, "the lookahead's stamps")?,
            stamp: 0,
            weights: Vec::new(),
            active: Vec::new(),
            active_len: 0,
            units: Vec::new(),
            refuted: false,
            counters: LookaheadCounters::default(),
        };
        let mut units: Vec<u32> = Vec::new();
        let mut clause: Vec<u32> = Vec::new();
        'clauses: for lits in cnf.clauses() {
            clause.clear();
            for &lit in lits {
                let code = lit.code() as u32;
                if clause.contains(&(code ^ 1)) {
                    continue 'clauses;
                }
                if !clause.contains(&code) {
                    clause.push(code);
                }
            }
            match clause[..] {
                [] => solver.refuted = true,
                [unit] => units.push(unit),
                [a, b] => {
                    solver.implications[(a ^ 1) as usize].push(b);
                    solver.implications[(b ^ 1) as usize].push(a);
                }
                [a, b, c] => {
                    solver.ternaries[a as usize].push([b, c]);
                    solver.ternaries[b as usize].push([a, c]);
                    solver.ternaries[c as usize].push([a, b]);
                }
                _ => {
                    solver.has_long = true;
                    let id = (solver.starts.len() - 1) as u32;
                    for &code in &clause {
                        solver.long_occurrences[code as usize].push(id);
                    }
                }
            }
            solver.long_open.push(clause.len() as u32);
            solver.literals.extend_from_slice(&clause);
            solver.starts.push(solver.literals.len() as u32);
        }
        solver.active = (0..(solver.starts.len() - 1) as u32).collect();
        solver.active_len = solver.active.len();
        solver.units = units;
        Ok(solver)
    }

    /// The counters so far.
    pub fn counters(&self) -> LookaheadCounters {
        self.counters
    }

    #[inline]
    fn value(&self, code: u32) -> i8 {
        self.values[code as usize]
    }

    #[inline]
    fn clause(&self, c: u32) -> &[u32] {
        &self.literals[self.starts[c as usize] as usize..self.starts[c as usize + 1] as usize]
    }

    #[inline]
    fn is_satisfied(&self, c: u32) -> bool {
        self.clause(c)
            .iter()
            .any(|&code| self.values[code as usize] == 1)
    }

    /// Moves the clauses satisfied since the last call out of the active part of
    /// `active`; true when none is left (a model).
    fn refresh_active(&mut self) -> bool {
        let mut i = 0;
        while i < self.active_len {
            if self.is_satisfied(self.active[i]) {
                self.active_len -= 1;
                self.active.swap(i, self.active_len);
            } else {
                i += 1;
            }
        }
        self.active_len == 0
    }

    /// Makes `code` true; [`Self::propagate`] draws the consequences.
    #[inline]
    fn assign(&mut self, code: u32) {
        self.values[code as usize] = 1;
        self.values[(code ^ 1) as usize] = -1;
        self.trail.push(code);
    }

    /// Undoes every assignment after the first `mark`, and the long clauses' counts of
    /// those already propagated (before `head`).
    fn undo_to(&mut self, mark: usize) {
        for (i, &code) in self.trail.iter().enumerate().skip(mark) {
            self.values[code as usize] = UNASSIGNED;
            self.values[(code ^ 1) as usize] = UNASSIGNED;
            if self.has_long && i < self.head {
                for &c in &self.long_occurrences[(code ^ 1) as usize] {
                    self.long_open[c as usize] += 1;
                }
            }
        }
        self.trail.truncate(mark);
        self.head = mark;
    }

    /// Unit propagation: false on a conflict (the assignments stay for
    /// [`Self::undo_to`]). Counts in `shortened` the clauses shortened, weighted.
    ///
    /// Not the shared core ([`crate::propagation`]): the scores need every clause a
    /// literal shortens, which two watches never visit, hence ternary pairs and counted
    /// long clauses read in full.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let code = self.trail[self.head];
            self.head += 1;
            self.counters.propagations += 1;
            // Long clauses first and in full, a conflict or not: `undo_to` takes their
            // counts back for every literal before `head`.
            let mut ok = !self.has_long || self.propagate_long(code);
            let implied = std::mem::take(&mut self.implications[code as usize]);
            for &other in &implied {
                if !ok {
                    break;
                }
                match self.values[other as usize] {
                    1 => {}
                    -1 => ok = false,
                    _ => self.assign(other),
                }
            }
            self.implications[code as usize] = implied;
            if !ok {
                return false;
            }
            let pairs = std::mem::take(&mut self.ternaries[(code ^ 1) as usize]);
            for &[a, b] in &pairs {
                let (va, vb) = (self.values[a as usize], self.values[b as usize]);
                if va == 1 || vb == 1 {
                    continue;
                }
                match (va, vb) {
                    (UNASSIGNED, UNASSIGNED) => self.shortened += 1.0,
                    (UNASSIGNED, _) => self.assign(a),
                    (_, UNASSIGNED) => self.assign(b),
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            self.ternaries[(code ^ 1) as usize] = pairs;
            if !ok {
                return false;
            }
        }
        true
    }

    /// Lowers the open count of each long clause `code`'s negation is in; one left
    /// without a true literal is a unit, a conflict, or shortened. False on a conflict.
    fn propagate_long(&mut self, code: u32) -> bool {
        let clauses = std::mem::take(&mut self.long_occurrences[(code ^ 1) as usize]);
        let mut ok = true;
        for &c in &clauses {
            let open = &mut self.long_open[c as usize];
            *open -= 1;
            let open = *open;
            if !ok || self.is_satisfied(c) {
                continue;
            }
            match open {
                0 => ok = false,
                1 => {
                    // (None left open: a literal assigned false and not yet propagated,
                    // which finds the conflict when its turn comes.)
                    let unit = self
                        .clause(c)
                        .iter()
                        .copied()
                        .find(|&l| self.value(l) == UNASSIGNED);
                    if let Some(unit) = unit {
                        self.assign(unit);
                    }
                }
                _ => self.shortened += shortened_weight(open),
            }
        }
        self.long_occurrences[(code ^ 1) as usize] = clauses;
        ok
    }

    /// Assigns `code` and propagates.
    fn assign_and_propagate(&mut self, code: u32) -> bool {
        self.assign(code);
        self.propagate()
    }

    /// The free variables worth a lookahead, in no order: of those in unsatisfied clauses,
    /// the best by how many short clauses each side is in (march's preselection), cut to
    /// [`PRESELECT_SHARE`] of them but at least [`PRESELECT_FLOOR`].
    fn preselect(&mut self) -> Vec<u32> {
        let mut weight = std::mem::take(&mut self.weights);
        weight.clear();
        weight.resize(2 * self.num_vars, 0.0);
        for &c in &self.active[..self.active_len] {
            let clause = self.clause(c);
            let open = clause
                .iter()
                .filter(|&&code| self.values[code as usize] == UNASSIGNED)
                .count();
            let w = shortened_weight(open as u32);
            for &code in self.clause(c) {
                if self.values[code as usize] == UNASSIGNED {
                    weight[code as usize] += w;
                }
            }
        }
        let mut ranked: Vec<(f64, u32)> = (0..self.num_vars as u32)
            .filter(|&v| weight[2 * v as usize] + weight[2 * v as usize + 1] > 0.0)
            .map(|v| {
                let (p, n) = (weight[2 * v as usize], weight[2 * v as usize + 1]);
                (p * n * 1024.0 + p + n, v)
            })
            .collect();
        self.weights = weight;
        let keep = ((ranked.len() as f64 * PRESELECT_SHARE).ceil() as usize)
            .max(PRESELECT_FLOOR)
            .min(ranked.len());
        if keep < ranked.len() {
            ranked.select_nth_unstable_by(keep, |a, b| b.0.total_cmp(&a.0));
            ranked.truncate(keep);
        }
        ranked.into_iter().map(|(_, v)| v).collect()
    }

    /// Lookahead at the current node: fails literals and fixes necessary ones until a
    /// whole round of the candidates finds none, then names the branching literal (None
    /// when every clause is satisfied). `Err(())` when the node has no model.
    fn look_ahead(&mut self) -> Result<Option<u32>, ()> {
        loop {
            if let Some(choice) = self.look_ahead_round()? {
                return Ok(Some(choice));
            }
            if self.active_len == 0 {
                return Ok(None);
            }
            // Every candidate got fixed: rank what is left.
        }
    }

    /// One lookahead: `Ok(None)` when every clause is satisfied or every candidate got
    /// fixed on the way.
    fn look_ahead_round(&mut self) -> Result<Option<u32>, ()> {
        if self.refresh_active() {
            return Ok(None);
        }
        let candidates = self.preselect();
        let mut best: Vec<Option<(f64, u32)>> = vec![None; candidates.len()];
        let mut diffs = [0.0f64; 2];
        let mut forced: Vec<u32> = Vec::new();
        let (mut next, mut since_progress) = (0, 0);
        while since_progress < candidates.len() {
            let slot = next;
            next = (next + 1) % candidates.len();
            since_progress += 1;
            best[slot] = None;
            let var = candidates[slot] as usize;
            if self.values[2 * var] != UNASSIGNED {
                continue;
            }
            let positive = (var as u32) << 1;
            let mut failed = None;
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.stamps.fill(0);
                self.stamp = 1;
            }
            for (side, code) in [positive, positive | 1].into_iter().enumerate() {
                let mark = self.trail.len();
                self.shortened = 0.0;
                self.counters.probes += 1;
                let ok = self.assign_and_propagate(code);
                if ok {
                    diffs[side] = self.shortened;
                    if side == 0 {
                        for i in mark + 1..self.trail.len() {
                            self.stamps[self.trail[i] as usize] = self.stamp;
                        }
                    } else {
                        for i in mark + 1..self.trail.len() {
                            let lit = self.trail[i];
                            if self.stamps[lit as usize] == self.stamp {
                                forced.push(lit);
                            }
                        }
                    }
                }
                self.undo_to(mark);
                if !ok {
                    failed = Some(code);
                    break;
                }
            }
            if let Some(code) = failed {
                self.counters.failed_literals += 1;
                since_progress = 0;
                forced.clear();
                if !self.assign_and_propagate(code ^ 1) {
                    return Err(());
                }
                continue;
            }
            if !forced.is_empty() {
                since_progress = 0;
                for code in forced.drain(..) {
                    match self.value(code) {
                        1 => {}
                        -1 => return Err(()),
                        _ => {
                            self.counters.necessary += 1;
                            if !self.assign_and_propagate(code) {
                                return Err(());
                            }
                        }
                    }
                }
                continue;
            }
            let score = 1024.0 * diffs[0] * diffs[1] + diffs[0] + diffs[1];
            // The side that shortens fewer clauses first: it is likelier to hold a model.
            // (The other way round took 1.1× longer on random 3-SAT.)
            let first = if diffs[0] <= diffs[1] {
                positive
            } else {
                positive | 1
            };
            best[slot] = Some((score, first));
        }
        let choice = best
            .into_iter()
            .flatten()
            .filter(|&(_, code)| self.values[code as usize] == UNASSIGNED)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        Ok(choice.map(|(_, code)| code))
    }

    /// Searches until a model, a refutation, the deadline or the interrupt (set by another
    /// thread) answers. Another call after a model or a stop searches again from the
    /// start.
    pub fn solve(
        &mut self,
        deadline: &Deadline,
        interrupt: Option<&AtomicBool>,
    ) -> LookaheadOutcome {
        self.undo_to(0);
        self.active_len = self.active.len();
        for i in 0..self.units.len() {
            let unit = self.units[i];
            match self.value(unit) {
                1 => {}
                -1 => self.refuted = true,
                _ => self.assign(unit),
            }
        }
        if self.refuted || !self.propagate() {
            self.refuted = true;
            return LookaheadOutcome::Unsat;
        }
        let outcome = self.search(deadline, interrupt);
        if outcome == LookaheadOutcome::Unsat {
            self.refuted = true;
        }
        outcome
    }

    fn search(&mut self, deadline: &Deadline, interrupt: Option<&AtomicBool>) -> LookaheadOutcome {
        // Each frame: the trail length and active clauses before the decision, and the
        // other side if untried.
        let mut frames: Vec<(usize, usize, Option<u32>)> = Vec::new();
        let mut steps = 0u32;
        loop {
            steps = steps.wrapping_add(1);
            // A node costs microseconds: the clock is read at the first and every 64th; the
            // interrupt, at every node (a race against CDCL waits for it).
            if interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
                || steps % 64 == 1 && deadline.expired()
            {
                return LookaheadOutcome::Stopped;
            }
            let refuted = match self.look_ahead() {
                Ok(None) => {
                    let model = (0..self.num_vars)
                        .map(|v| self.values[2 * v] == 1)
                        .collect();
                    return LookaheadOutcome::Sat(model);
                }
                Ok(Some(code)) => {
                    self.counters.decisions += 1;
                    frames.push((self.trail.len(), self.active_len, Some(code ^ 1)));
                    !self.assign_and_propagate(code)
                }
                Err(()) => true,
            };
            if refuted && self.backtrack(&mut frames).is_none() {
                return LookaheadOutcome::Unsat;
            }
        }
    }

    /// Pops frames until one has an untried side that does not fail at once, and takes it.
    fn backtrack(&mut self, frames: &mut Vec<(usize, usize, Option<u32>)>) -> Option<()> {
        loop {
            let (mark, active_len, other) = frames.pop()?;
            self.undo_to(mark);
            self.active_len = active_len;
            self.counters.backtracks += 1;
            if let Some(code) = other {
                frames.push((mark, active_len, None));
                if self.assign_and_propagate(code) {
                    return Some(());
                }
                self.undo_to(mark);
                frames.pop();
            }
        }
    }
}

/// The lookahead search as a backend of its own (`--backend lookahead`), for comparing
/// the two kinds of search on any formula: the clauses are kept, and each solve builds
/// the search anew from all of them, so clauses added between solves (blocking clauses)
/// count. No assumptions and no proofs.
#[derive(Default)]
pub struct LookaheadBackend {
    formula: Cnf,
    time_limit: Option<Duration>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Clauses the caller checks models against itself ([`SatBackend::trust_clauses`]).
    trusted: usize,
    solves: u64,
    /// The counters of every solve so far.
    counters: LookaheadCounters,
}

impl LookaheadBackend {
    /// An empty backend.
    pub fn new() -> LookaheadBackend {
        LookaheadBackend::default()
    }
}

impl ClauseSink for LookaheadBackend {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.formula.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.formula.reserve_vars(num_vars);
    }
}

impl SatBackend for LookaheadBackend {
    fn name(&self) -> String {
        "lookahead".to_string()
    }

    fn add_formula(&mut self, cnf: &mut Cnf) {
        self.formula.absorb(cnf);
    }

    fn num_vars(&self) -> usize {
        self.formula.num_vars()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        let deadline = Deadline::after(self.time_limit);
        self.solves += 1;
        let mut search = LookaheadSolver::try_new(&self.formula).map_err(|source| {
            BackendError::OutOfMemory {
                solver: "lookahead".to_string(),
                source,
            }
        })?;
        let outcome = search.solve(&deadline, self.interrupt.as_deref());
        self.counters.add(&search.counters());
        outcome.into_answer("lookahead", &self.formula, self.trusted, self.time_limit)
    }

    fn counters(&self) -> Counters {
        let c = &self.counters;
        Counters(vec![
            ("solves", self.solves),
            ("decisions", c.decisions),
            ("propagations", c.propagations),
            ("backtracks", c.backtracks),
            ("probes", c.probes),
            ("failed_literals", c.failed_literals),
            ("necessary", c.necessary),
        ])
    }

    fn trust_clauses(&mut self, count: usize) {
        self.trusted = count;
    }

    fn reset(&mut self) {
        self.formula.clear();
        self.trusted = 0;
        self.solves = 0;
        self.counters = LookaheadCounters::default();
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }
}

impl LimitTime for LookaheadBackend {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Interrupt for LookaheadBackend {
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::formula::{ClauseSink, Lit, Model, Var};
    use crate::test_formulas::{brute_force_sat, random_3sat, random_cnf};

    fn solve(cnf: &Cnf) -> LookaheadOutcome {
        LookaheadSolver::new(cnf).solve(&Deadline::NONE, None)
    }

    fn check(cnf: &Cnf, outcome: &LookaheadOutcome, context: &str) {
        match outcome {
            LookaheadOutcome::Sat(values) => {
                let model = Model::from_values(values.clone());
                assert_eq!(cnf.first_falsified(&model), None, "{context}: {cnf:?}");
            }
            LookaheadOutcome::Unsat => assert!(!brute_force_sat(cnf), "{context}: {cnf:?}"),
            LookaheadOutcome::Stopped => panic!("{context}: stopped without a limit"),
        }
    }

    /// Formulas of 1–5-literal clauses (repeated literals and tautologies included) over
    /// few variables, against an enumeration of every assignment.
    #[test]
    fn agrees_with_brute_force_on_small_mixed_formulas() {
        let mut rng = ChaCha8Rng::seed_from_u64(1997);
        let (mut sat, mut unsat) = (0, 0);
        for round in 0..2_000 {
            let vars = rng.gen_range(1..=10);
            let clauses = rng.gen_range(0..=5 * vars);
            let cnf = random_cnf(&mut rng, vars, clauses, 5);
            let outcome = solve(&cnf);
            check(&cnf, &outcome, &format!("round {round}"));
            match outcome {
                LookaheadOutcome::Sat(_) => sat += 1,
                _ => unsat += 1,
            }
        }
        assert!(sat > 300 && unsat > 300, "{sat} SAT, {unsat} UNSAT");
    }

    #[test]
    fn every_sign_pattern_over_three_variables_is_refuted() {
        let mut cnf = Cnf::with_vars(3);
        for signs in 0..8u32 {
            let clause: Vec<Lit> = (0..3)
                .map(|v| Var::from_index(v).lit(signs >> v & 1 == 1))
                .collect();
            cnf.add_clause(&clause);
        }
        assert_eq!(solve(&cnf), LookaheadOutcome::Unsat);
        // Without (¬1 ∨ ¬2 ∨ ¬3), exactly the assignment it excluded is left.
        let mut seven = Cnf::with_vars(3);
        for clause in cnf.clauses().skip(1) {
            seven.add_clause(clause);
        }
        assert_eq!(solve(&seven), LookaheadOutcome::Sat(vec![true; 3]));
    }

    #[test]
    fn empty_clauses_and_clashing_units_are_refuted() {
        let mut cnf = Cnf::with_vars(2);
        cnf.add_clause(&[]);
        assert_eq!(solve(&cnf), LookaheadOutcome::Unsat);
        let mut units = Cnf::with_vars(1);
        units.add_clause(&[Lit::from_dimacs(1)]);
        units.add_clause(&[Lit::from_dimacs(-1)]);
        assert_eq!(solve(&units), LookaheadOutcome::Unsat);
        // Repeated literals merge: (1 ∨ 1 ∨ 1 ∨ 1) is the unit 1.
        let mut repeated = Cnf::with_vars(2);
        repeated.add_clause(&[1, 1, 1, 1].map(Lit::from_dimacs));
        repeated.add_clause(&[-1, 2].map(Lit::from_dimacs));
        assert_eq!(solve(&repeated), LookaheadOutcome::Sat(vec![true, true]));
    }

    #[test]
    fn the_deadline_and_the_interrupt_stop_the_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let cnf = random_3sat(&mut rng, 200, 852);
        let expired = Deadline::after(Some(Duration::ZERO));
        let mut search = LookaheadSolver::new(&cnf);
        assert_eq!(search.solve(&expired, None), LookaheadOutcome::Stopped);
        let flag = AtomicBool::new(true);
        let mut search = LookaheadSolver::new(&cnf);
        assert_eq!(
            search.solve(&Deadline::NONE, Some(&flag)),
            LookaheadOutcome::Stopped
        );
        // Lifted, the same search answers.
        flag.store(false, Ordering::Relaxed);
        assert_ne!(
            search.solve(&Deadline::NONE, Some(&flag)),
            LookaheadOutcome::Stopped
        );
    }
}
