//! Native Sudoku propagation inside the built-in CDCL solver (`--propagate sudoku`).
//!
//! The clauses of an encoding let unit propagation see naked and (with the extended
//! encoding) hidden singles, nothing more. This propagator knows which variable is which
//! (cell, digit) and, each time unit propagation reaches a fixpoint, looks at every row,
//! column and box whose candidates changed:
//!
//! - **all-different with Hall sets** (Régin 1994, "A filtering algorithm for constraints of
//!   difference in CSPs", AAAI): a maximum matching of the unit's open cells to its missing
//!   digits (augmenting paths, Hopcroft & Karp's idea without the phases), then the strongly
//!   connected components (Tarjan 1972) of the alternating graph. A cell that cannot be
//!   matched is a conflict (a Hall violator: k cells with fewer than k digits); a candidate
//!   whose cell and the cell matched to its digit lie in different components belongs to no
//!   complete assignment of the unit and is removed. That covers naked and hidden singles,
//!   pairs, triples … of any size in one pass;
//! - **locked candidates** (pointing and claiming, the box-line interaction): a digit whose
//!   candidates in a box lie in one row (or column) leaves the rest of that row, and one
//!   whose candidates in a row or column lie in one box leaves the rest of that box — what
//!   tdoku's triad variables make visible to unit propagation (see the augmented encoding).
//!
//! Every inference comes with an **explanation clause** in the manner of lazy clause
//! generation (Ohrimenko, Stuckey & Codish 2009, "Propagation via lazy clause generation",
//! Constraints 14): `¬x_d ∨ ⋁ s_e` over the candidates `s_e` whose absence made the
//! inference, all false when it is made. The solver adds it as a learnt clause and uses it as
//! the reason, so conflict analysis, learnt clauses and DRAT proofs stay sound: the clause is
//! true in every solution. For a Hall set of k cells, the naked form (k cells hold only k
//! digits) or the hidden form (k digits fit only k cells) is chosen, whichever is shorter.
//!
//! **Proofs**: a DRAT checker accepts a lemma only if unit propagation refutes its negation
//! (RUP). That holds for Hall sets of at most two cells (naked form: the cell "≥ 1" and unit
//! "≤ 1" clauses; hidden form and locked candidates also need the unit "≥ 1" and cell "≤ 1"
//! clauses of the extended encodings), not beyond: a Hall set of three cells is a pigeonhole
//! argument. With a proof asked for, the propagator therefore makes only those inferences.
//!
//! Grids of side at most 64 (one `u64` bit per digit); larger grids are left to the clauses
//! (and to root probing, which settles the large public grids).

use std::sync::Arc;

use crate::backend::{Propagator, PropagatorFactory};
use crate::formula::{Lit, Var};
use crate::grid::Geometry;
use crate::run::Counters;

crate::names::named_enum! {
    /// Which propagation the built-in CDCL solver adds to unit propagation.
    #[derive(Default)]
    pub enum Propagate ("propagation") {
        /// The measured best, which is clauses only on every side: on 24 hard 25×25 draws
        /// every grid-theory mode ended within 19 % of clauses alone, inside the draws'
        /// spread, and clauses alone were the fastest; on `sudoku-64-1` the theory modes
        /// took 2.2–6.3× the time; on 9×9 `grid-only` takes 0.80× the instructions on
        /// 17-clue puzzles and 1.11× on the forum-hardest, about even over both; the
        /// Hall-set pass (`sudoku`) costs 5–10× per conflict, and the theory's Hall sets
        /// (`grid-hall`, `grid-only-hall`) add no conflict saved at the root and cost more
        /// below it (docs/benchmarks/hard.md, "The grid as a theory").
        #[default]
        Auto = "auto",
        /// Clauses only.
        None = "none",
        /// All-different (Hall sets) and locked candidates over the Sudoku's units, when
        /// the formula comes from a puzzle; a plain DIMACS file gets clauses only.
        Sudoku = "sudoku",
        /// All-different (Hall sets) only.
        Hall = "hall",
        /// Locked candidates only.
        Locked = "locked",
        /// The grid as a theory on bit masks kept in step with the search (locked
        /// candidates, and hidden singles on the minimal encodings), beside the
        /// encoding's clauses.
        Grid = "grid",
        /// The grid as a theory without the grid's clauses: the solver holds only learnt
        /// clauses (and any others), the theory all of singles, placements, locked
        /// candidates and conflicts; no formula is built for a puzzle.
        GridOnly = "grid-only",
        /// `grid` with Hall sets: every row, column and box and every digit's rows
        /// against its columns (fish), on matchings kept across calls, down to decision
        /// level [`HALL_DEPTH`].
        GridHall = "grid-hall",
        /// `grid-only` with the Hall sets of `grid-hall`.
        GridOnlyHall = "grid-only-hall",
    }
}

impl Propagate {
    /// The mode this setting comes to on a grid of side `n`: `None` where nothing native
    /// runs (off, `auto`, or wider than [`MAX_NATIVE_SIDE`]).
    pub fn on_side(self, n: usize) -> Option<Propagate> {
        // Every native mode keeps one u64 bit per digit.
        match self {
            _ if !(2..=MAX_NATIVE_SIDE).contains(&n) => None,
            Propagate::Auto | Propagate::None => None,
            other => Some(other),
        }
    }
}

impl Propagate {
    /// Whether the mode is the grid theory ([`crate::backend::grid_theory`]).
    pub fn is_grid_theory(self) -> bool {
        matches!(
            self,
            Propagate::Grid | Propagate::GridOnly | Propagate::GridHall | Propagate::GridOnlyHall
        )
    }

    /// Whether the grid theory also filters by Hall sets.
    pub fn with_hall_sets(self) -> bool {
        matches!(self, Propagate::GridHall | Propagate::GridOnlyHall)
    }

    /// Whether the solver holds none of the grid's clauses (the theory holds them).
    pub fn without_grid_clauses(self) -> bool {
        matches!(self, Propagate::GridOnly | Propagate::GridOnlyHall)
    }
}

/// The cells of each unit of a grid of box size `b` (side n = b²), as the shared
/// [`Geometry`] numbers them: unit `u`'s at `u · n ..`, rows first, then columns, then
/// boxes (a box's cells row by row). Flat `u32`s, for the propagators' inner loops.
pub(crate) fn unit_cells(b: usize) -> Vec<u32> {
    let geometry = Geometry::of(b).expect("a supported box size");
    geometry
        .units()
        .flat_map(|unit| geometry.unit_cells(unit).iter().map(|cell| cell.0))
        .collect()
}

/// Each cell's row, column and box, as unit indices of [`unit_cells`].
pub(crate) fn cell_units(b: usize) -> Vec<[u32; 3]> {
    let geometry = Geometry::of(b).expect("a supported box size");
    geometry
        .cells()
        .map(|cell| geometry.units_of(cell).map(|unit| unit.0))
        .collect()
}

/// The variables in a table of variable indices per (cell, digit), `u32::MAX` for a pair
/// the givens fixed: what a propagator observes.
pub(crate) fn variables_of(var_of_pair: &[u32]) -> Vec<Var> {
    var_of_pair
        .iter()
        .filter(|&&v| v != u32::MAX)
        .map(|&v| Var::from_index(v as usize))
        .collect()
}

/// The deepest decision level at which `grid-hall` and `grid-only-hall` look for Hall
/// sets: the root only (again whenever learnt units change it). On the 24 Gecode draws
/// the two modes took 81 CPU s together at depth 0, 96 s at 3, 93 s at 10 and 222 s
/// without a limit (docs/history.md, "Hall sets on the grid theory's masks").
pub const HALL_DEPTH: usize = 0;

/// The widest grid the native propagation takes (one `u64` bit per digit).
pub const MAX_NATIVE_SIDE: usize = 64;

/// What a (cell, digit) pair is in the formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellDigit {
    /// A variable of the formula.
    Var(Var),
    /// Fixed true by the givens (removed by the reduction, or a unit clause).
    True,
    /// Fixed false by the givens.
    False,
}

/// The native propagation of one Sudoku, as the solver's [`PropagatorFactory`]: a fresh
/// propagator for each solve.
#[derive(Clone, Debug)]
pub struct SudokuPropagation {
    structure: SudokuStructure,
    mode: Propagate,
}

impl SudokuPropagation {
    /// The propagation `mode` over `structure`; `None` when the mode runs nothing on this
    /// grid's side ([`Propagate::on_side`]).
    pub fn new(structure: SudokuStructure, mode: Propagate) -> Option<Arc<SudokuPropagation>> {
        let mode = mode.on_side(structure.box_size * structure.box_size)?;
        if mode.is_grid_theory() {
            return None;
        }
        Some(Arc::new(SudokuPropagation { structure, mode }))
    }
}

impl PropagatorFactory for SudokuPropagation {
    fn create(&self, num_vars: usize, proof_safe: bool) -> Option<Box<dyn Propagator>> {
        let inner = SudokuPropagator::new(&self.structure, num_vars, self.mode, proof_safe)?;
        Some(Box::new(SudokuTheory::new(inner, num_vars)))
    }

    fn counter_names(&self) -> &'static [&'static str] {
        &["hall_removals", "locked_removals"]
    }
}

/// The Sudoku propagator behind the solver's [`Propagator`] interface: it keeps its own copy
/// of the observed assignments (the propagator reads them as a trail and a value table), runs
/// the propagator when its implications are used up, and keeps each implication's
/// explanation as its reason until the level that made it is undone. The propagator
/// explains every inference when it makes it; the interface lets a solver ask for a reason
/// only when analysis needs it.
struct SudokuTheory {
    inner: SudokuPropagator,
    /// The observed literals assigned, in the order notified.
    trail: Vec<Lit>,
    /// Per literal code: 1 true, −1 false, 0 open (for the observed variables).
    values: Vec<i8>,
    /// Per decision level above 0: the trail length and the reasons kept when it began.
    levels: Vec<(usize, usize)>,
    /// The last batch of inferences.
    batch: Explanations,
    /// Implications of the batch not handed out yet, by clause index, last first.
    pending: Vec<usize>,
    /// Conflicts of the batch, by clause index, for `add_clause`.
    conflicts: Vec<usize>,
    /// Reasons of the implications handed out, newest last: the literal and its clause.
    reasons: Vec<(Lit, std::ops::Range<usize>)>,
    reason_lits: Vec<Lit>,
}

impl SudokuTheory {
    fn new(inner: SudokuPropagator, num_vars: usize) -> SudokuTheory {
        SudokuTheory {
            inner,
            trail: Vec::new(),
            values: vec![0; 2 * num_vars],
            levels: Vec::new(),
            batch: Explanations::default(),
            pending: Vec::new(),
            conflicts: Vec::new(),
            reasons: Vec::new(),
            reason_lits: Vec::new(),
        }
    }

    fn value(&self, lit: Lit) -> i8 {
        self.values[lit.code()]
    }

    /// Runs the propagator on the assignments notified so far and sorts its clauses into
    /// implications and conflicts.
    fn run(&mut self) {
        self.inner
            .propagate(&self.trail, &self.values, &mut self.batch);
        for i in (0..self.batch.len()).rev() {
            let clause = self.batch.clause(i);
            match clause.first().map(|&lit| self.value(lit)) {
                Some(1) => {}
                Some(0) => self.pending.push(i),
                _ => self.conflicts.push(i),
            }
        }
    }
}

impl Propagator for SudokuTheory {
    fn observed_vars(&self) -> Vec<Var> {
        self.inner.observed_vars()
    }

    fn notify_assignment(&mut self, lits: &[Lit]) {
        for &lit in lits {
            self.values[lit.code()] = 1;
            self.values[(!lit).code()] = -1;
            self.trail.push(lit);
        }
    }

    fn notify_new_decision_level(&mut self) {
        self.levels.push((self.trail.len(), self.reasons.len()));
    }

    fn notify_backtrack(&mut self, level: usize) {
        let Some(&(len, reasons)) = self.levels.get(level) else {
            return;
        };
        self.inner.backtrack(&self.trail, len);
        for &lit in &self.trail[len..] {
            self.values[lit.code()] = 0;
            self.values[(!lit).code()] = 0;
        }
        self.trail.truncate(len);
        self.levels.truncate(level);
        let kept = self
            .reasons
            .get(reasons)
            .map_or(self.reason_lits.len(), |r| r.1.start);
        self.reasons.truncate(reasons);
        self.reason_lits.truncate(kept);
        self.pending.clear();
        self.conflicts.clear();
        self.batch.clear();
    }

    fn propagate(&mut self) -> Option<Lit> {
        if self.pending.is_empty() && self.conflicts.is_empty() {
            self.run();
        }
        while let Some(i) = self.pending.pop() {
            let clause = self.batch.clause(i);
            let lit = clause[0];
            if self.value(lit) == 1 {
                continue;
            }
            let start = self.reason_lits.len();
            self.reason_lits.extend_from_slice(clause);
            self.reasons.push((lit, start..self.reason_lits.len()));
            return Some(lit);
        }
        None
    }

    fn reason_clause(&mut self, lit: Lit, out: &mut Vec<Lit>) {
        out.clear();
        if let Some((_, range)) = self.reasons.iter().rev().find(|(l, _)| *l == lit) {
            out.extend_from_slice(&self.reason_lits[range.clone()]);
        }
    }

    fn add_clause(&mut self, out: &mut Vec<Lit>) -> bool {
        out.clear();
        match self.conflicts.pop() {
            Some(i) => {
                out.extend_from_slice(self.batch.clause(i));
                true
            }
            None => false,
        }
    }

    fn counters(&self) -> Counters {
        Counters(vec![
            ("hall_removals", self.inner.counters.hall),
            ("locked_removals", self.inner.counters.locked),
        ])
    }
}

/// The Sudoku a formula encodes, as the native propagation needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SudokuStructure {
    /// The box size b (side n = b²).
    pub box_size: usize,
    /// Per (cell, digit), at `cell · n + digit − 1` with cells row-major.
    pub cells: Vec<CellDigit>,
    /// Whether the formula has every cell's "≤ 1" and every unit's "≥ 1" clauses (the
    /// extended encodings): with a proof, hidden sets and locked candidates are then
    /// checkable by unit propagation.
    pub unit_clauses: bool,
}

/// No variable, no cell, no match.
const NONE: u32 = u32::MAX;
const NO_MATCH: u8 = u8::MAX;

/// One inference batch: clauses laid end to end. Each clause has the inferred literal
/// first (when it is a propagation) or is all false (a conflict).
#[derive(Clone, Default, Debug)]
pub(crate) struct Explanations {
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Explanations {
    pub fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
    }

    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.lits[start..self.ends[i]]
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn push(&mut self, lit: Lit) {
        self.lits.push(lit);
    }

    fn close(&mut self) {
        self.ends.push(self.lits.len());
    }
}

/// Counters of the propagator.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SudokuCounters {
    /// Candidates removed by Hall sets.
    pub hall: u64,
    /// Candidates removed by locked candidates.
    pub locked: u64,
    /// Units found without a complete matching.
    pub conflicts: u64,
}

/// The propagator's state: candidate masks kept in step with the solver's trail.
pub(crate) struct SudokuPropagator {
    n: usize,
    b: usize,
    /// Per variable index: `cell · n + digit` (0-based digit), or [`NONE`].
    pair_of_var: Vec<u32>,
    /// Per `cell · n + digit`: the variable index, or [`NONE`] when fixed.
    var_of_pair: Vec<u32>,
    /// Per cell: digits with a variable.
    alive: Vec<u64>,
    /// Per cell: digits with a variable not false.
    cand: Vec<u64>,
    /// Per cell: digits with a variable true.
    truth: Vec<u64>,
    /// Per cell: the digit fixed true by the givens (one bit), or 0.
    given: Vec<u64>,
    /// Cells of unit `u` at `u · n ..`; rows, then columns, then boxes.
    unit_cells: Vec<u32>,
    /// Per cell: its row, column and box unit (a table: divisions cost more).
    cell_units: Vec<[u32; 3]>,
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
    /// Trail entries already taken into the masks.
    processed: usize,
    /// Only inferences a DRAT checker can verify by unit propagation.
    proof_safe: bool,
    unit_clauses: bool,
    pub counters: SudokuCounters,
    /// Régin's all-different filtering on.
    hall: bool,
    /// Locked candidates on.
    locked: bool,
    // Scratch for one unit.
    open: Vec<u32>,
    open_cand: Vec<u64>,
    cell_match: Vec<u8>,
    digit_match: Vec<u8>,
    adj: Vec<u64>,
    radj: Vec<u64>,
    component: Vec<u8>,
    tarjan_index: Vec<u8>,
    tarjan_low: Vec<u8>,
    tarjan_stack: Vec<u8>,
    on_stack: u64,
    forward: Vec<u64>,
    backward: Vec<u64>,
    removals: Vec<(u8, u8)>,
}

impl SudokuPropagator {
    /// The propagator for `structure` over a formula of `num_vars` variables; `None` for
    /// grids wider than 64 or a structure that does not fit the formula.
    pub fn new(
        structure: &SudokuStructure,
        num_vars: usize,
        mode: Propagate,
        proof_safe: bool,
    ) -> Option<SudokuPropagator> {
        let b = structure.box_size;
        let n = b * b;
        let mode = mode.on_side(n)?;
        if structure.cells.len() != n * n * n {
            return None;
        }
        let cells = n * n;
        let mut pair_of_var = vec![NONE; num_vars];
        let mut var_of_pair = vec![NONE; cells * n];
        let mut alive = vec![0u64; cells];
        let mut given = vec![0u64; cells];
        for (pair, what) in structure.cells.iter().enumerate() {
            let (cell, digit) = (pair / n, pair % n);
            match *what {
                CellDigit::Var(var) => {
                    let slot = pair_of_var.get_mut(var.index())?;
                    if *slot != NONE {
                        return None;
                    }
                    *slot = pair as u32;
                    var_of_pair[pair] = var.index() as u32;
                    alive[cell] |= 1 << digit;
                }
                CellDigit::True => {
                    if given[cell] != 0 {
                        return None;
                    }
                    given[cell] = 1 << digit;
                }
                CellDigit::False => {}
            }
        }
        let unit_cells = unit_cells(b);
        let cell_units = cell_units(b);
        Some(SudokuPropagator {
            n,
            b,
            cell_units,
            pair_of_var,
            var_of_pair,
            cand: alive.clone(),
            truth: vec![0; cells],
            alive,
            given,
            unit_cells,
            // Every unit is examined once at the start.
            dirty: vec![true; 3 * n],
            dirty_list: (0..3 * n as u32).collect(),
            processed: 0,
            proof_safe,
            unit_clauses: structure.unit_clauses,
            counters: SudokuCounters::default(),
            hall: matches!(mode, Propagate::Sudoku | Propagate::Hall),
            locked: matches!(mode, Propagate::Sudoku | Propagate::Locked),
            open: Vec::with_capacity(n),
            open_cand: Vec::with_capacity(n),
            cell_match: vec![NO_MATCH; n],
            digit_match: vec![NO_MATCH; n],
            adj: vec![0; n],
            radj: vec![0; n],
            component: vec![0; n],
            tarjan_index: vec![0; n],
            tarjan_low: vec![0; n],
            tarjan_stack: Vec::with_capacity(n),
            on_stack: 0,
            forward: Vec::with_capacity(n),
            backward: Vec::with_capacity(n),
            removals: Vec::new(),
        })
    }

    #[inline]
    fn units_of(&self, cell: usize) -> [usize; 3] {
        let [r, c, bx] = self.cell_units[cell];
        [r as usize, c as usize, bx as usize]
    }

    fn mark(&mut self, cell: usize) {
        for u in self.units_of(cell) {
            if !self.dirty[u] {
                self.dirty[u] = true;
                self.dirty_list.push(u as u32);
            }
        }
    }

    /// The variables of the grid's (cell, digit) pairs.
    fn observed_vars(&self) -> Vec<Var> {
        variables_of(&self.var_of_pair)
    }

    /// Takes back the trail entries from `len` on (the solver is about to undo them); the
    /// units they touch are examined again at the next fixpoint, so inferences lost with
    /// the levels undone are found again.
    pub fn backtrack(&mut self, trail: &[Lit], len: usize) {
        if self.processed <= len {
            return;
        }
        for &lit in trail[len..self.processed].iter().rev() {
            let Some(&pair) = self.pair_of_var.get(lit.var().index()) else {
                continue;
            };
            if pair == NONE {
                continue;
            }
            let (cell, bit) = (pair as usize / self.n, 1u64 << (pair as usize % self.n));
            if lit.is_positive() {
                self.truth[cell] &= !bit;
            } else {
                self.cand[cell] |= bit;
            }
            self.mark(cell);
        }
        self.processed = len;
    }

    /// Brings the masks up to date with `trail` and examines every changed unit, writing
    /// the inferences into `out` (cleared first). Stops at the first conflict.
    /// `values[code]` is the solver's value of each literal code (1 true, −1 false, 0 open).
    pub fn propagate(&mut self, trail: &[Lit], values: &[i8], out: &mut Explanations) {
        out.clear();
        for &lit in &trail[self.processed..] {
            let Some(&pair) = self.pair_of_var.get(lit.var().index()) else {
                continue;
            };
            if pair == NONE {
                continue;
            }
            let (cell, bit) = (pair as usize / self.n, 1u64 << (pair as usize % self.n));
            if lit.is_positive() {
                self.truth[cell] |= bit;
            } else {
                self.cand[cell] &= !bit;
            }
            self.mark(cell);
        }
        self.processed = trail.len();
        let mut i = 0;
        while i < self.dirty_list.len() {
            let unit = self.dirty_list[i] as usize;
            i += 1;
            self.dirty[unit] = false;
            if self.hall && !self.all_different(unit, values, out) {
                break;
            }
            if self.locked && (!self.proof_safe || self.unit_clauses) {
                self.locked_candidates(unit, values, out);
            }
        }
        for &unit in &self.dirty_list[i..] {
            self.dirty[unit as usize] = false;
        }
        self.dirty_list.clear();
    }

    fn in_unit(&self, cell: usize, unit: usize) -> bool {
        self.units_of(cell)[unit / self.n] == unit
    }

    /// A cell holds a digit for good: given, or one true variable and no other candidate.
    fn solved(&self, cell: usize) -> u64 {
        if self.given[cell] != 0 {
            self.given[cell]
        } else if self.truth[cell] != 0 && self.cand[cell] == self.truth[cell] {
            self.truth[cell]
        } else {
            0
        }
    }

    fn lit(&self, cell: usize, digit: usize, positive: bool) -> Lit {
        let var = self.var_of_pair[cell * self.n + digit];
        debug_assert_ne!(var, NONE);
        Var::from_index(var as usize).lit(positive)
    }

    /// Pushes `s_e` for every digit `e` of `digits` that `cell` has a variable for (each is
    /// false: the caller passes only digits outside the cell's candidates).
    fn push_false(&self, cell: usize, digits: u64, values: &[i8], out: &mut Explanations) {
        let mut bits = digits & self.alive[cell];
        debug_assert_eq!(bits & self.cand[cell], 0);
        while bits != 0 {
            let e = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let lit = self.lit(cell, e, true);
            debug_assert_eq!(values[lit.code()], -1, "explanation literal not false");
            out.push(lit);
        }
    }

    /// [`Self::push_false`] for every cell of `unit` that `skip` leaves in: the explanation
    /// "none of `digits` is anywhere else in the unit" of hidden sets and locked candidates.
    fn push_false_in_unit(
        &self,
        unit: usize,
        digits: u64,
        skip: impl Fn(usize) -> bool,
        values: &[i8],
        out: &mut Explanations,
    ) {
        let n = self.n;
        for &cell in &self.unit_cells[unit * n..(unit + 1) * n] {
            if !skip(cell as usize) {
                self.push_false(cell as usize, digits, values, out);
            }
        }
    }

    /// Régin's filtering on one unit; `false` when it found a conflict.
    fn all_different(&mut self, unit: usize, values: &[i8], out: &mut Explanations) -> bool {
        let n = self.n;
        self.open.clear();
        self.open_cand.clear();
        let mut placed = 0u64;
        for k in 0..n {
            let cell = self.unit_cells[unit * n + k] as usize;
            let solved = self.solved(cell);
            if solved != 0 {
                placed |= solved;
            } else {
                self.open.push(cell as u32);
                self.open_cand.push(self.cand[cell]);
            }
        }
        let m = self.open.len();
        if m == 0 {
            return true;
        }
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let missing = full & !placed;
        // Two solved cells with one digit, or a cell with two: the clauses' business.
        if missing.count_ones() as usize != m || self.open_cand.iter().any(|&c| c & placed != 0) {
            return true;
        }

        // Maximum matching: greedy, then augmenting paths.
        self.digit_match[..n].fill(NO_MATCH);
        let mut taken = 0u64;
        for i in 0..m {
            let free = self.open_cand[i] & !taken;
            if free != 0 {
                let d = free.trailing_zeros() as usize;
                taken |= 1 << d;
                self.digit_match[d] = i as u8;
                self.cell_match[i] = d as u8;
            } else {
                self.cell_match[i] = NO_MATCH;
            }
        }
        for i in 0..m {
            if self.cell_match[i] != NO_MATCH {
                continue;
            }
            let mut visited = 0u64;
            if !self.augment(i, &mut visited) {
                // Hall violator: cell i and the cells matched to the digits reached, all
                // confined to those digits, one digit short.
                let mut cells = 1u64 << i;
                let mut bits = visited;
                while bits != 0 {
                    let d = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    cells |= 1 << self.digit_match[d];
                }
                if self.proof_safe && cells.count_ones() > 2 {
                    return true;
                }
                self.counters.conflicts += 1;
                let mut bits = cells;
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.push_false(self.open[s] as usize, !visited, values, out);
                }
                out.close();
                return false;
            }
        }

        // Alternating graph on the open cells: i → j when i could take j's digit.
        for i in 0..m {
            self.radj[i] = 0;
        }
        for i in 0..m {
            let mut bits = self.open_cand[i] & !(1u64 << self.cell_match[i]);
            let mut adj = 0u64;
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                adj |= 1 << self.digit_match[d];
            }
            self.adj[i] = adj;
            let mut targets = adj;
            while targets != 0 {
                let j = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                self.radj[j] |= 1 << i;
            }
        }
        // Usually one component: the forward and backward closures of any cell cover all
        // (two bit-parallel sweeps), and Tarjan's recursion is skipped.
        let everyone = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
        if self.sweep(0, true) == everyone && self.sweep(0, false) == everyone {
            return true;
        }
        let components = self.tarjan(m);
        if components == 1 {
            return true;
        }
        self.removals.clear();
        for i in 0..m {
            let mut bits = self.open_cand[i] & !(1u64 << self.cell_match[i]);
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let j = self.digit_match[d] as usize;
                if self.component[i] != self.component[j] {
                    self.removals.push((i as u8, d as u8));
                }
            }
        }
        if self.removals.is_empty() {
            return true;
        }
        // Closures per component, computed on demand (0 = not yet).
        self.forward.clear();
        self.forward.resize(components, 0);
        self.backward.clear();
        self.backward.resize(components, 0);
        let removals = std::mem::take(&mut self.removals);
        for &(i, d) in &removals {
            let (i, d) = (i as usize, d as usize);
            let j = self.digit_match[d] as usize;
            let naked = self.closure(j, true);
            let hidden = self.closure(i, false);
            let naked_digits = self.matched_digits(naked);
            let hidden_digits = self.matched_digits(hidden);
            let naked_size: u32 = self
                .members(naked)
                .map(|s| (self.alive[self.open[s] as usize] & !naked_digits).count_ones())
                .sum();
            let hidden_size: u32 = (0..n)
                .map(|k| self.unit_cells[unit * n + k] as usize)
                .filter(|&z| !self.open_contains(hidden, z))
                .map(|z| (self.alive[z] & hidden_digits).count_ones())
                .sum();
            let naked_ok = !self.proof_safe || naked.count_ones() <= 2;
            let hidden_ok = !self.proof_safe || (self.unit_clauses && hidden.count_ones() <= 2);
            let use_naked = match (naked_ok, hidden_ok) {
                (true, true) => naked_size <= hidden_size,
                (true, false) => true,
                (false, true) => false,
                (false, false) => continue,
            };
            let x = self.open[i] as usize;
            out.push(self.lit(x, d, false));
            if use_naked {
                for s in self.members(naked) {
                    self.push_false(self.open[s] as usize, !naked_digits, values, out);
                }
            } else {
                let inside = |z| self.open_contains(hidden, z);
                self.push_false_in_unit(unit, hidden_digits, inside, values, out);
            }
            out.close();
            self.counters.hall += 1;
        }
        self.removals = removals;
        true
    }

    /// Kuhn's augmenting path from open cell `i` (recursive; depth at most 64).
    fn augment(&mut self, i: usize, visited: &mut u64) -> bool {
        let mut bits = self.open_cand[i] & !*visited;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if *visited & (1 << d) != 0 {
                continue;
            }
            *visited |= 1 << d;
            let j = self.digit_match[d];
            if j == NO_MATCH || self.augment(j as usize, visited) {
                self.digit_match[d] = i as u8;
                self.cell_match[i] = d as u8;
                return true;
            }
        }
        false
    }

    /// Strongly connected components of the alternating graph (Tarjan); their number.
    fn tarjan(&mut self, m: usize) -> usize {
        self.tarjan_index[..m].fill(0);
        self.tarjan_stack.clear();
        let mut counter = 1u8;
        let mut components = 0usize;
        for root in 0..m {
            if self.tarjan_index[root] == 0 {
                self.strongconnect(root, &mut counter, &mut components);
            }
        }
        components
    }

    fn strongconnect(&mut self, v: usize, counter: &mut u8, components: &mut usize) {
        self.tarjan_index[v] = *counter;
        self.tarjan_low[v] = *counter;
        *counter += 1;
        self.tarjan_stack.push(v as u8);
        self.on_stack |= 1 << v;
        let mut targets = self.adj[v];
        while targets != 0 {
            let w = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if self.tarjan_index[w] == 0 {
                self.strongconnect(w, counter, components);
                self.tarjan_low[v] = self.tarjan_low[v].min(self.tarjan_low[w]);
            } else if self.on_stack & (1 << w) != 0 {
                self.tarjan_low[v] = self.tarjan_low[v].min(self.tarjan_index[w]);
            }
        }
        if self.tarjan_low[v] == self.tarjan_index[v] {
            loop {
                let w = self.tarjan_stack.pop().expect("v is on the stack") as usize;
                self.on_stack &= !(1 << w);
                self.component[w] = *components as u8;
                // Mark as finished: never "on the stack" again.
                self.tarjan_index[w] = u8::MAX;
                self.tarjan_low[w] = u8::MAX;
                if w == v {
                    break;
                }
            }
            *components += 1;
        }
    }

    /// The open cells reachable from `start` (`forward`) or reaching it, as a mask; one
    /// closure per component.
    fn closure(&mut self, start: usize, forward: bool) -> u64 {
        let component = self.component[start] as usize;
        let cache = if forward {
            self.forward[component]
        } else {
            self.backward[component]
        };
        if cache != 0 {
            return cache;
        }
        let reached = self.sweep(start, forward);
        if forward {
            self.forward[component] = reached;
        } else {
            self.backward[component] = reached;
        }
        reached
    }

    /// The open cells reachable from `start` (`forward`) or reaching it.
    fn sweep(&self, start: usize, forward: bool) -> u64 {
        let edges = if forward { &self.adj } else { &self.radj };
        let mut reached = 1u64 << start;
        let mut frontier = reached;
        while frontier != 0 {
            let v = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = edges[v] & !reached;
            reached |= new;
            frontier |= new;
        }
        reached
    }

    fn matched_digits(&self, cells: u64) -> u64 {
        self.members(cells)
            .fold(0, |acc, s| acc | 1 << self.cell_match[s])
    }

    fn members(&self, cells: u64) -> impl Iterator<Item = usize> {
        let mut bits = cells;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                s
            })
        })
    }

    fn open_contains(&self, cells: u64, cell: usize) -> bool {
        self.members(cells).any(|s| self.open[s] as usize == cell)
    }

    /// Pointing (a box unit) or claiming (a row or column unit).
    fn locked_candidates(&mut self, unit: usize, values: &[i8], out: &mut Explanations) {
        let (n, b) = (self.n, self.b);
        // Per digit, the lines (box units: its rows and columns within the box) or the
        // boxes (line units) that hold its open candidates.
        let mut first = [0u64; 64];
        let mut second = [0u64; 64];
        let mut placed = 0u64;
        let kind = unit / n;
        let index = unit % n;
        for k in 0..n {
            let cell = self.unit_cells[unit * n + k] as usize;
            let solved = self.solved(cell);
            if solved != 0 {
                placed |= solved;
                continue;
            }
            let (r, c) = (cell / n, cell % n);
            let (a, z) = match kind {
                2 => (r % b, c % b),
                0 => (c / b, 0),
                _ => (r / b, 0),
            };
            let mut bits = self.cand[cell];
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                first[d] |= 1 << a;
                second[d] |= 1 << z;
            }
        }
        for d in 0..n {
            if placed & (1 << d) != 0 || first[d] == 0 {
                continue;
            }
            match kind {
                2 => {
                    let (r0, c0) = (index / b * b, index % b * b);
                    if first[d].count_ones() == 1 {
                        let row = r0 + first[d].trailing_zeros() as usize;
                        self.eliminate(unit, row, d, values, out);
                    }
                    if second[d].count_ones() == 1 {
                        let col = c0 + second[d].trailing_zeros() as usize;
                        self.eliminate(unit, n + col, d, values, out);
                    }
                }
                _ => {
                    if first[d].count_ones() == 1 {
                        let band = first[d].trailing_zeros() as usize;
                        let bx = if kind == 0 {
                            index / b * b + band
                        } else {
                            band * b + index / b
                        };
                        self.eliminate(unit, 2 * n + bx, d, values, out);
                    }
                }
            }
        }
    }

    /// Digit `d` of `source` lies only where it meets `target`: removes `d` from the other
    /// cells of `target`, explained by the absent `d`s of `source` outside `target`.
    fn eliminate(
        &mut self,
        source: usize,
        target: usize,
        d: usize,
        values: &[i8],
        out: &mut Explanations,
    ) {
        let n = self.n;
        let bit = 1u64 << d;
        for k in 0..n {
            let x = self.unit_cells[target * n + k] as usize;
            if self.cand[x] & bit == 0 || self.in_unit(x, source) || self.solved(x) != 0 {
                continue;
            }
            out.push(self.lit(x, d, false));
            let shared = |s| self.in_unit(s, target);
            self.push_false_in_unit(source, bit, shared, values, out);
            out.close();
            self.counters.locked += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty grid of box size `b`, every (cell, digit) a variable.
    fn empty_structure(b: usize, unit_clauses: bool) -> SudokuStructure {
        let n = b * b;
        SudokuStructure {
            box_size: b,
            cells: (0..n * n * n)
                .map(|i| CellDigit::Var(Var::from_index(i)))
                .collect(),
            unit_clauses,
        }
    }

    /// A propagator over every variable of an empty grid of box size `b`.
    fn empty(b: usize, unit_clauses: bool, proof_safe: bool) -> SudokuPropagator {
        let n = b * b;
        let structure = empty_structure(b, unit_clauses);
        SudokuPropagator::new(&structure, n * n * n, Propagate::Sudoku, proof_safe).expect("fits")
    }

    /// Values and trail of a grid of side `n` with `digits` struck from the `cells` (row,
    /// column).
    fn struck(n: usize, cells: &[(usize, usize)], digits: &[usize]) -> (Vec<i8>, Vec<Lit>) {
        let mut values = vec![0i8; 2 * n * n * n];
        let mut trail = Vec::new();
        for &(r, c) in cells {
            for &d in digits {
                set(&mut values, &mut trail, var(n, r, c, d).negative());
            }
        }
        (values, trail)
    }

    fn var(n: usize, r: usize, c: usize, d: usize) -> Var {
        Var::from_index((r * n + c) * n + d)
    }

    /// Makes `lit` true (its negation false) in `values` and puts it on the trail.
    fn set(values: &mut [i8], trail: &mut Vec<Lit>, lit: Lit) {
        values[lit.code()] = 1;
        values[(!lit).code()] = -1;
        trail.push(lit);
    }

    #[test]
    fn a_naked_pair_removes_its_digits_from_the_row_with_a_two_cell_explanation() {
        // 4×4: r0c0 and r0c1 hold only digits 0 and 1, so r0c2 and r0c3 lose them.
        let n = 4;
        let mut p = empty(2, true, true);
        let (values, trail) = struck(n, &[(0, 0), (0, 1)], &[2, 3]);
        let mut out = Explanations::default();
        p.propagate(&trail, &values, &mut out);
        let mut found = Vec::new();
        for i in 0..out.len() {
            let clause = out.clause(i);
            assert!(clause[1..].iter().all(|l| values[l.code()] == -1));
            found.push(clause[0]);
            if clause[0] == var(n, 0, 2, 0).negative() {
                // Naked form: the four absent candidates of the pair.
                let mut rest: Vec<Lit> = clause[1..].to_vec();
                rest.sort();
                let mut expected = vec![
                    var(n, 0, 0, 2).positive(),
                    var(n, 0, 0, 3).positive(),
                    var(n, 0, 1, 2).positive(),
                    var(n, 0, 1, 3).positive(),
                ];
                expected.sort();
                assert_eq!(rest, expected);
            }
        }
        for c in 2..4 {
            for d in 0..2 {
                assert!(found.contains(&var(n, 0, c, d).negative()), "r0c{c} d{d}");
            }
        }
        // The box of the pair (box 0: r0c0, r0c1, r1c0, r1c1) loses them too.
        for c in 0..2 {
            for d in 0..2 {
                assert!(found.contains(&var(n, 1, c, d).negative()), "r1c{c} d{d}");
            }
        }
        assert_eq!(p.counters.conflicts, 0);
    }

    #[test]
    fn three_cells_with_two_digits_are_a_conflict() {
        // 9×9: r0c0..r0c2 hold only digits 0 and 1.
        let n = 9;
        let mut p = empty(3, true, false);
        let (values, trail) = struck(n, &[(0, 0), (0, 1), (0, 2)], &[2, 3, 4, 5, 6, 7, 8]);
        let mut out = Explanations::default();
        p.propagate(&trail, &values, &mut out);
        assert_eq!(p.counters.conflicts, 1);
        let conflict = out.clause(out.len() - 1);
        assert_eq!(conflict.len(), 3 * 7);
        assert!(conflict.iter().all(|l| values[l.code()] == -1));
        // With a proof, a three-cell Hall set is not checkable by unit propagation: skipped.
        let mut q = empty(3, true, true);
        q.propagate(&trail, &values, &mut out);
        assert_eq!(q.counters.conflicts, 0);
    }

    #[test]
    fn pointing_removes_the_digit_from_the_rest_of_the_row() {
        // 9×9, box 0: digit 4 only in row 1 (r1c0..r1c2), so r1c3..r1c8 lose it.
        let n = 9;
        let mut p = empty(3, true, true);
        let box_rows_0_and_2 = [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)];
        let (values, trail) = struck(n, &box_rows_0_and_2, &[4]);
        let mut out = Explanations::default();
        p.propagate(&trail, &values, &mut out);
        for c in 3..9 {
            let lit = var(n, 1, c, 4).negative();
            let clause = (0..out.len())
                .map(|i| out.clause(i))
                .find(|cl| cl[0] == lit)
                .unwrap_or_else(|| panic!("r1c{c} keeps 4"));
            assert_eq!(clause.len(), 7, "{clause:?}");
        }
        assert!(p.counters.locked >= 6);
    }

    #[test]
    fn auto_is_clauses_only_and_wide_grids_never_propagate_natively() {
        for b in [2, 3, 5, 6, 8, 9] {
            let n = b * b;
            let structure = empty_structure(b, true);
            let made = SudokuPropagator::new(&structure, n * n * n, Propagate::Auto, false);
            assert!(made.is_none(), "side {n}");
            let forced = SudokuPropagator::new(&structure, n * n * n, Propagate::Sudoku, false);
            assert_eq!(forced.is_some(), n <= 64, "side {n}");
            assert!(SudokuPropagator::new(&structure, n * n * n, Propagate::None, false).is_none());
        }
    }

    #[test]
    fn backtracking_restores_the_candidates() {
        let n = 4;
        let mut p = empty(2, true, false);
        let mut values = vec![0i8; 2 * n * n * n];
        let mut trail = Vec::new();
        let mut out = Explanations::default();
        p.propagate(&trail, &values, &mut out);
        assert_eq!(out.len(), 0, "an empty grid implies nothing");
        for d in 1..4 {
            set(&mut values, &mut trail, var(n, 0, 0, d).negative());
        }
        p.propagate(&trail, &values, &mut out);
        assert!(
            !out.is_empty(),
            "a hidden… naked single's digit leaves its units"
        );
        p.backtrack(&trail, 0);
        for lit in trail.drain(..) {
            values[lit.code()] = 0;
            values[(!lit).code()] = 0;
        }
        p.propagate(&trail, &values, &mut out);
        assert_eq!(out.len(), 0);
        assert_eq!(p.cand, p.alive);
    }
}
