//! A DPLL solver written for this crate: the Davis–Putnam–Logemann–Loveland procedure
//! (Davis, Logemann & Loveland 1962, "A machine program for theorem-proving", CACM 5(7)), with
//! the two-watched-literal unit propagation of Chaff (Moskewicz, Madigan, Zhao, Zhang & Malik
//! 2001, "Chaff: engineering an efficient SAT solver", DAC).
//!
//! The search is iterative (an explicit decision stack, no recursion), so the 81×81 and larger
//! Sudoku formulas never overflow the stack. Backtracking is chronological: on a conflict the
//! most recent decision not yet flipped is undone and flipped. No clause is learnt.
//!
//! Data layout for speed: binary clauses live in per-literal implication lists; longer clauses
//! in one flat arena with watch lists indexed by literal code (each watch carries a *blocker*
//! literal, as in MiniSat, so satisfied clauses are skipped without touching the arena).
//!
//! Branching picks the *shortest* not-yet-satisfied clause of length ≥ 3 (the "shortest
//! clause" / minimum-remaining-values rule; on Sudoku this is the cell or unit with the fewest
//! candidates), and in it the unassigned literal of highest conflict activity (a VSIDS-like
//! score, bumped for the variables of each falsified clause), set true. Each long clause caches
//! the literal that last satisfied it, so the scan skips satisfied clauses in O(1). When every
//! long clause is satisfied, the remaining variables are decided false, in order.
//!
//! The solver is reusable: clauses may be added after a `solve` (blocking clauses for counting
//! solutions), and [`SatBackend::reset`] empties it while keeping its buffers.

use std::time::Duration;

use crate::backend::{check_model, BackendError, Counters, SatBackend, SatOutcome};
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::solve::Deadline;

const TRUE: i8 = 1;
const FALSE: i8 = -1;
const UNSET: i8 = 0;

/// A long-clause watch: the clause's arena start, and a literal of the clause that, when true,
/// means the clause needs no visit.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
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

/// The built-in DPLL solver (see the module docs).
#[derive(Default)]
pub struct Dpll {
    num_vars: usize,
    /// Value per literal code.
    values: Vec<i8>,
    /// Implications of binary clauses: `binary[l]` holds the literals that must be true when
    /// literal `l` becomes false.
    binary: Vec<Vec<Lit>>,
    /// Long clauses, flat: `[len, lit, lit, …]` per clause; a clause is named by the arena
    /// index of its length word.
    arena: Vec<u32>,
    /// Start (length word) of each long clause, in order.
    long_clauses: Vec<u32>,
    /// Per long clause (same order): the literal that last satisfied it.
    sat_cache: Vec<Lit>,
    /// `watches[l]`: long clauses watching literal `l` (visited when `l` becomes false).
    watches: Vec<Vec<Watch>>,
    trail: Vec<Lit>,
    /// Trail index of the next literal to propagate.
    queue_head: usize,
    decisions_stack: Vec<Decision>,
    /// Conflict activity per variable.
    activity: Vec<f64>,
    bump: f64,
    /// Next variable to try in the fallback (all long clauses satisfied) branching.
    fallback_next: usize,
    /// An empty clause was added (or derived at level 0).
    inconsistent: bool,
    /// Scratch for simplifying added clauses.
    scratch: Vec<Lit>,
    /// Per literal code: seen in the clause being added.
    seen: Vec<bool>,
    /// Copy of every clause as given, to check models.
    original: Cnf,
    decisions: u64,
    propagations: u64,
    backtracks: u64,
    solves: u64,
    /// Limit of each solve (kept across [`SatBackend::reset`]).
    time_limit: Option<Duration>,
}

/// How a search ended.
enum Search {
    Sat,
    Unsat,
    TimedOut,
}

/// Decisions plus backtracks between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

enum Propagation {
    Ok,
    /// The falsified clause's literals were bumped.
    Conflict,
}

impl Dpll {
    /// An empty solver.
    pub fn new() -> Dpll {
        Dpll {
            bump: 1.0,
            ..Dpll::default()
        }
    }

    fn grow(&mut self, num_vars: usize) {
        if num_vars <= self.num_vars {
            return;
        }
        self.num_vars = num_vars;
        self.values.resize(2 * num_vars, UNSET);
        self.seen.resize(2 * num_vars, false);
        if self.binary.len() < 2 * num_vars {
            self.binary.resize_with(2 * num_vars, Vec::new);
        }
        if self.watches.len() < 2 * num_vars {
            self.watches.resize_with(2 * num_vars, Vec::new);
        }
        self.activity.resize(num_vars, 0.0);
    }

    #[inline]
    fn value(&self, lit: Lit) -> i8 {
        self.values[lit.code()]
    }

    #[inline]
    fn assign(&mut self, lit: Lit) {
        self.values[lit.code()] = TRUE;
        self.values[(!lit).code()] = FALSE;
        self.trail.push(lit);
    }

    /// Undoes the trail down to `len` literals.
    fn undo_to(&mut self, len: usize) {
        for &lit in &self.trail[len..] {
            self.values[lit.code()] = UNSET;
            self.values[(!lit).code()] = UNSET;
        }
        self.trail.truncate(len);
        self.queue_head = self.queue_head.min(len);
        self.fallback_next = 0;
    }

    /// Back to decision level 0 (level-0 assignments stay).
    fn backtrack_to_root(&mut self) {
        if let Some(first) = self.decisions_stack.first() {
            let len = first.trail_len as usize;
            self.decisions_stack.clear();
            self.undo_to(len);
        }
    }

    fn bump_clause(&mut self, lits: impl Iterator<Item = Lit>) {
        for lit in lits {
            let a = &mut self.activity[lit.var().index()];
            *a += self.bump;
            if *a > 1e100 {
                for x in &mut self.activity {
                    *x *= 1e-100;
                }
                self.bump *= 1e-100;
            }
        }
        self.bump *= 1.05;
    }

    /// Unit propagation over the trail from `queue_head`.
    fn propagate(&mut self) -> Propagation {
        while self.queue_head < self.trail.len() {
            let p = self.trail[self.queue_head];
            self.queue_head += 1;
            let false_lit = !p;
            self.propagations += 1;

            // Binary clauses (false_lit ∨ other).
            let implied = std::mem::take(&mut self.binary[false_lit.code()]);
            for &other in &implied {
                match self.value(other) {
                    TRUE => {}
                    UNSET => self.assign(other),
                    _ => {
                        self.binary[false_lit.code()] = implied;
                        self.bump_clause([false_lit, other].into_iter());
                        return Propagation::Conflict;
                    }
                }
            }
            self.binary[false_lit.code()] = implied;

            // Long clauses watching false_lit.
            let mut watches = std::mem::take(&mut self.watches[false_lit.code()]);
            let mut i = 0;
            let mut j = 0;
            let mut conflict = false;
            while i < watches.len() {
                let w = watches[i];
                i += 1;
                if self.value(w.blocker) == TRUE {
                    watches[j] = w;
                    j += 1;
                    continue;
                }
                let start = w.clause as usize;
                let len = self.arena[start] as usize;
                let lits = start + 1;
                // Make sure the false literal is at position 1.
                if self.arena[lits] == false_lit.code() as u32 {
                    self.arena.swap(lits, lits + 1);
                }
                let first = Lit::from_code(self.arena[lits] as usize);
                if first != w.blocker && self.value(first) == TRUE {
                    watches[j] = Watch {
                        clause: w.clause,
                        blocker: first,
                    };
                    j += 1;
                    continue;
                }
                // Look for a new literal to watch.
                let mut moved = false;
                for k in 2..len {
                    let lit = Lit::from_code(self.arena[lits + k] as usize);
                    if self.value(lit) != FALSE {
                        self.arena.swap(lits + 1, lits + k);
                        self.watches[lit.code()].push(Watch {
                            clause: w.clause,
                            blocker: first,
                        });
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watches[j] = Watch {
                    clause: w.clause,
                    blocker: first,
                };
                j += 1;
                match self.value(first) {
                    UNSET => self.assign(first),
                    FALSE => {
                        // Conflict: keep the remaining watches and stop.
                        while i < watches.len() {
                            watches[j] = watches[i];
                            j += 1;
                            i += 1;
                        }
                        conflict = true;
                    }
                    _ => {}
                }
                if conflict {
                    let clause: Vec<Lit> = self.arena[lits..lits + len]
                        .iter()
                        .map(|&c| Lit::from_code(c as usize))
                        .collect();
                    self.bump_clause(clause.into_iter());
                    break;
                }
            }
            watches.truncate(j);
            self.watches[false_lit.code()] = watches;
            if conflict {
                return Propagation::Conflict;
            }
        }
        Propagation::Ok
    }

    /// The branching literal, or `None` when every variable is assigned.
    fn pick_branch(&mut self) -> Option<Lit> {
        let mut best: Option<(usize, usize)> = None; // (unassigned count, clause index)
        for (ci, &start) in self.long_clauses.iter().enumerate() {
            if self.values[self.sat_cache[ci].code()] == TRUE {
                continue;
            }
            let start = start as usize;
            let len = self.arena[start] as usize;
            let mut unassigned = 0;
            let mut satisfied = None;
            for &code in &self.arena[start + 1..start + 1 + len] {
                match self.values[code as usize] {
                    TRUE => {
                        satisfied = Some(code);
                        break;
                    }
                    UNSET => unassigned += 1,
                    _ => {}
                }
            }
            if let Some(code) = satisfied {
                self.sat_cache[ci] = Lit::from_code(code as usize);
                continue;
            }
            if best.map_or(true, |(n, _)| unassigned < n) {
                best = Some((unassigned, ci));
                if unassigned <= 2 {
                    break;
                }
            }
        }
        if let Some((_, ci)) = best {
            let start = self.long_clauses[ci] as usize;
            let len = self.arena[start] as usize;
            let mut pick: Option<Lit> = None;
            for &code in &self.arena[start + 1..start + 1 + len] {
                let lit = Lit::from_code(code as usize);
                if self.value(lit) == UNSET
                    && pick.map_or(true, |p| {
                        self.activity[lit.var().index()] > self.activity[p.var().index()]
                    })
                {
                    pick = Some(lit);
                }
            }
            return pick;
        }
        while self.fallback_next < self.num_vars {
            let lit = crate::formula::Var::from_index(self.fallback_next).negative();
            if self.value(lit) == UNSET {
                return Some(lit);
            }
            self.fallback_next += 1;
        }
        None
    }

    /// Undoes decisions until one can be flipped; `false` when none is left (UNSAT).
    fn backtrack(&mut self) -> bool {
        self.backtracks += 1;
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
        }
        false
    }

    fn search(&mut self) -> Search {
        let deadline = Deadline::after(self.time_limit);
        let mut until_clock = CLOCK_INTERVAL;
        loop {
            until_clock -= 1;
            if until_clock == 0 {
                until_clock = CLOCK_INTERVAL;
                if deadline.expired() {
                    return Search::TimedOut;
                }
            }
            if let Propagation::Conflict = self.propagate() {
                if !self.backtrack() {
                    return Search::Unsat;
                }
                continue;
            }
            match self.pick_branch() {
                None => return Search::Sat,
                Some(lit) => {
                    self.decisions += 1;
                    self.decisions_stack.push(Decision {
                        trail_len: self.trail.len() as u32,
                        lit,
                        flipped: false,
                    });
                    self.assign(lit);
                }
            }
        }
    }
}

impl ClauseSink for Dpll {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
        self.backtrack_to_root();
        if self.inconsistent {
            return;
        }
        let max_var = clause
            .iter()
            .map(|l| l.var().to_dimacs())
            .max()
            .unwrap_or(0);
        self.grow(max_var);
        // Simplify against level 0: drop false and duplicate literals, skip satisfied and
        // tautological clauses.
        self.scratch.clear();
        let mut satisfied = false;
        for &lit in clause {
            if self.seen[(!lit).code()] || self.value(lit) == TRUE {
                satisfied = true;
                break;
            }
            if self.value(lit) == FALSE || self.seen[lit.code()] {
                continue;
            }
            self.seen[lit.code()] = true;
            self.scratch.push(lit);
        }
        for &lit in &self.scratch {
            self.seen[lit.code()] = false;
        }
        if satisfied {
            return;
        }
        match self.scratch.len() {
            0 => self.inconsistent = true,
            1 => {
                let lit = self.scratch[0];
                self.assign(lit);
            }
            2 => {
                let (a, b) = (self.scratch[0], self.scratch[1]);
                self.binary[a.code()].push(b);
                self.binary[b.code()].push(a);
            }
            len => {
                let start = self.arena.len() as u32;
                self.arena.push(len as u32);
                self.arena
                    .extend(self.scratch.iter().map(|l| l.code() as u32));
                self.long_clauses.push(start);
                self.sat_cache.push(self.scratch[0]);
                let (a, b) = (self.scratch[0], self.scratch[1]);
                self.watches[a.code()].push(Watch {
                    clause: start,
                    blocker: b,
                });
                self.watches[b.code()].push(Watch {
                    clause: start,
                    blocker: a,
                });
            }
        }
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
        self.grow(num_vars);
    }
}

impl SatBackend for Dpll {
    fn name(&self) -> String {
        "dpll".to_string()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solves += 1;
        self.backtrack_to_root();
        if self.inconsistent {
            return Ok(SatOutcome::Unsat);
        }
        self.fallback_next = 0;
        match self.search() {
            Search::Sat => {}
            Search::Unsat => {
                // Without decisions the conflict is at level 0: the formula is UNSAT for good.
                self.inconsistent = true;
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
        let values = (0..self.num_vars)
            .map(|v| self.values[2 * v] == TRUE)
            .collect();
        let model = Model::from_values(values);
        self.backtrack_to_root();
        check_model("dpll", &self.original, model)
    }

    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn honours_time_limit(&self) -> bool {
        true
    }

    fn counters(&self) -> Counters {
        Counters(vec![
            ("solves", self.solves),
            ("decisions", self.decisions),
            ("propagations", self.propagations),
            ("backtracks", self.backtracks),
        ])
    }

    fn reset(&mut self) {
        let used = 2 * self.num_vars;
        for list in &mut self.binary[..used] {
            list.clear();
        }
        for list in &mut self.watches[..used] {
            list.clear();
        }
        self.num_vars = 0;
        self.values.clear();
        self.seen.clear();
        self.activity.clear();
        self.trail.clear();
        self.bump = 1.0;
        self.arena.clear();
        self.long_clauses.clear();
        self.sat_cache.clear();
        self.queue_head = 0;
        self.decisions_stack.clear();
        self.fallback_next = 0;
        self.inconsistent = false;
        self.original.clear();
        self.decisions = 0;
        self.propagations = 0;
        self.backtracks = 0;
        self.solves = 0;
    }
}

#[cfg(test)]
mod tests {
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
            let mut dpll = Dpll::new();
            cnf.stream_into(&mut dpll);
            let outcome = dpll.solve().expect("dpll answers");
            assert_eq!(
                matches!(outcome, SatOutcome::Sat(_)),
                brute_force_sat(&cnf),
                "round {round}: {cnf:?}"
            );
        }
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
}
