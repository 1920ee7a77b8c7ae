//! The grid as a theory inside cdcl (`--propagate grid` and `--propagate grid-only`), on
//! bit masks kept in step with the solver's trail.
//!
//! The state is tdoku's and JCZSolve's (Dillon 2019, tdoku's `docs/sudoku.md`): a
//! candidate mask per cell and, per unit and digit, a mask of the unit's positions that
//! still take the digit. An assignment clears one candidate bit and one position bit in
//! each of the cell's three units; a backtrack sets them again from an undo stack, so
//! nothing is ever recomputed. Each assignment marks what it touched, and each round looks
//! only at those cells and (unit, digit) pairs:
//!
//! - **singles and conflicts**: a cell with one candidate (naked single) or none, a digit
//!   with one position in a unit (hidden single) or none, and a placement's consequences
//!   (the cell's other digits, the digit in the cell's peers);
//! - **locked candidates** (pointing and claiming): a digit whose positions in a box lie in
//!   one row or column of it leaves the rest of that line, and one whose positions in a
//!   line lie in one box leaves the rest of that box — what the augmented encoding's triad
//!   variables make visible to unit propagation.
//!
//! With the encoding's clauses loaded (`grid`) unit propagation already does the singles
//! (all of them with the extended encodings), so the theory adds only what clauses do not
//! see; with `grid-only` the solver holds no clause of the grid at all and the theory does
//! everything, which spares building and loading a formula for each puzzle.
//!
//! Reasons are lazy in the manner of lazy clause generation (Ohrimenko, Stuckey & Codish
//! 2009, "Propagation via lazy clause generation", Constraints 14): an inference keeps
//! only its cause (which cell, unit, digit), and its clause is written when the solver
//! asks. Every reason is a clause of the extended encoding (singles, placements) or is
//! refuted by unit propagation on it (locked candidates: the digit placed outside the
//! line empties the box's "≥ 1" clause), so a DRAT checker accepts each as a lemma.
//!
//! With `hall` and `fish` the theory also filters every unit, and every digit's rows
//! against its columns, by Hall sets on the same masks (`hall.rs`), with each view's
//! matching kept across calls, down to a decision level set by `hall_depth`.
//!
//! Grids of side at most 64 (one `u64` bit per digit and per position).

mod hall;

use std::sync::Arc;

use crate::backend::sudoku::{cell_units, unit_cells, variables_of};
use crate::backend::{CellDigit, Propagator, PropagatorFactory, SudokuStructure};
use crate::formula::{Lit, Var};
use crate::run::Counters;

/// No variable.
const NONE: u32 = u32::MAX;

/// What the theory does beside the clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridReasoning {
    /// The formula holds none of the grid's clauses: the theory propagates singles and
    /// placements and finds every conflict.
    pub complete: bool,
    /// Hidden singles (with clauses, only the minimal encodings lack them).
    pub hidden_singles: bool,
    /// Locked candidates.
    pub locked: bool,
    /// Hall sets of every row, column and box (naked and hidden pairs, triples, … of
    /// any size), through a matching kept across calls.
    pub hall: bool,
    /// Hall sets of each digit's rows against its columns (X-wing, swordfish, …).
    pub fish: bool,
    /// The deepest decision level at which Hall sets run (0: the root only).
    pub hall_depth: usize,
    /// The largest Hall set used (two in proof mode).
    max_hall_set: u32,
}

impl GridReasoning {
    /// Singles and locked candidates beside the clauses (`grid`), or doing all of the
    /// grid's work (`complete`, `grid-only`); no Hall sets.
    pub fn locked(complete: bool, unit_clauses: bool) -> GridReasoning {
        GridReasoning {
            complete,
            hidden_singles: !unit_clauses,
            locked: true,
            hall: false,
            fish: false,
            hall_depth: 0,
            max_hall_set: u32::MAX,
        }
    }

    /// With Hall sets of units and fish down to decision level `depth`.
    pub fn with_hall_sets(self, depth: usize) -> GridReasoning {
        GridReasoning {
            hall: true,
            fish: true,
            hall_depth: depth,
            ..self
        }
    }
}

/// The theory of one Sudoku as the solver's [`PropagatorFactory`].
#[derive(Clone, Debug)]
pub struct GridTheoryFactory {
    structure: SudokuStructure,
    reasoning: GridReasoning,
}

impl GridTheoryFactory {
    /// The theory over `structure`; `None` for grids wider than 64.
    pub fn new(structure: SudokuStructure, reasoning: GridReasoning) -> Option<Arc<Self>> {
        let n = structure.box_size * structure.box_size;
        (2..=64).contains(&n).then(|| {
            Arc::new(GridTheoryFactory {
                structure,
                reasoning,
            })
        })
    }
}

impl PropagatorFactory for GridTheoryFactory {
    fn create(&self, num_vars: usize, proof_safe: bool) -> Option<Box<dyn Propagator>> {
        let mut reasoning = self.reasoning;
        if proof_safe {
            // A proof's formula holds the grid's clauses (its checker needs them), and the
            // placements' reasons are clauses only of the extended encodings.
            reasoning.complete = false;
        }
        if proof_safe {
            // A Hall set of two cells (or rows) is refuted by unit propagation, not one of
            // three: that is a pigeonhole argument.
            reasoning.max_hall_set = 2;
        }
        if proof_safe && !self.structure.unit_clauses {
            // Hidden singles, locked candidates and fish need the units' "≥ 1" clauses to
            // be checked by unit propagation; the minimal encodings have none.
            reasoning.hidden_singles = false;
            reasoning.locked = false;
            reasoning.fish = false;
        }
        GridTheory::new(&self.structure, num_vars, reasoning)
            .map(|theory| Box::new(theory) as Box<dyn Propagator>)
    }

    fn counter_names(&self) -> &'static [&'static str] {
        COUNTER_NAMES
    }
}

const COUNTER_NAMES: &[&str] = &[
    "theory_singles",
    "theory_locked",
    "theory_conflicts",
    "theory_hall",
    "theory_fish",
];

/// Why the theory implied a literal; its clause is written when the solver asks.
#[derive(Clone, Copy, Debug)]
enum Cause {
    /// The cell's one candidate: its "≥ 1" clause.
    NakedSingle { cell: u32 },
    /// The digit's one position in the unit: the unit's "≥ 1" clause for it.
    HiddenSingle { unit: u32, digit: u8 },
    /// A placement excludes this (cell, digit): the binary clause with `placed`.
    Placement { placed: Lit },
    /// The digit's positions in unit `within` lie inside unit `line` (a box and a line that
    /// cross); every other cell of `line` loses it.
    Locked { within: u32, line: u32, digit: u8 },
    /// A Hall set of view `view` ([`hall`]): its left vertices `cells` hold only the right
    /// vertices `digits`.
    Hall { view: u16, cells: u64, digits: u64 },
}

/// The state of one solve.
pub struct GridTheory {
    n: usize,
    b: usize,
    reasoning: GridReasoning,
    /// log₂ of the stride of packed pairs, and the mask of their digit.
    shift: u32,
    digit_mask: usize,
    /// Per variable index: its pair `cell << shift | digit`, or [`NONE`].
    pair_of_var: Vec<u32>,
    /// Per pair `cell << shift | digit`: the variable index, or [`NONE`] when fixed.
    var_of_pair: Vec<u32>,
    /// Per cell: digits with a variable.
    alive: Vec<u64>,
    /// Per cell: digits not excluded.
    cand: Vec<u64>,
    /// Per `unit << shift | digit`: positions of the unit that take the digit.
    pos: Vec<u64>,
    /// Per `unit << shift | digit`: positions of the unit with a variable for the digit.
    alive_pos: Vec<u64>,
    /// Per unit: digits placed in it (givens and true variables).
    placed: Vec<u64>,
    /// Per cell: its digit + 1 when placed, else 0.
    value: Vec<u8>,
    /// Cells of unit `u` at `u · n ..`: rows, then columns, then boxes.
    unit_cells: Vec<u32>,
    /// Per cell: its row, column and box, and its position in each.
    cell_units: Vec<[(u32, u8); 3]>,
    /// The positions of a box's first column: 0, b, 2b, …
    box_column: u64,
    /// Changes to undo, newest last: a pair removed, or (top bit) a pair placed.
    undo: Vec<u32>,
    /// Undo length at the start of each decision level above 0.
    level_marks: Vec<usize>,
    /// Cells and (unit · n + digit) pairs changed since the last round, without repeats.
    dirty_cells: Vec<u32>,
    dirty_cell: Vec<bool>,
    dirty_pairs: Vec<u32>,
    dirty_pair: Vec<bool>,
    /// Placements not yet followed.
    new_placements: Vec<Lit>,
    /// Implications not handed out yet, oldest first from `next`.
    pending: Vec<(Lit, Cause)>,
    next: usize,
    /// The cause of the literal handed out last.
    last: Option<(Lit, Cause)>,
    /// A conflict clause found in the last round.
    conflict: Vec<Lit>,
    has_conflict: bool,
    /// The matchings of the Hall-set views.
    matchings: hall::Matchings,
    counters: [u64; 5],
}

const PLACED: u32 = 1 << 31;

impl GridTheory {
    fn new(
        structure: &SudokuStructure,
        num_vars: usize,
        reasoning: GridReasoning,
    ) -> Option<GridTheory> {
        let b = structure.box_size;
        let n = b * b;
        if !(2..=64).contains(&n) || structure.cells.len() != n * n * n {
            return None;
        }
        let cells = n * n;
        // Pairs (cell, digit) and (unit, digit) are packed with a power-of-two stride: a
        // shift and a mask take them apart where a division by n would cost more.
        let shift = n.next_power_of_two().trailing_zeros();
        let unit_cells = unit_cells(b);
        // Each unit of a cell, with the cell's position in it.
        let cell_units = cell_units(b)
            .into_iter()
            .enumerate()
            .map(|(cell, units)| {
                let (r, c) = (cell / n, cell % n);
                let at = [c, r, r % b * b + c % b];
                [0, 1, 2].map(|k| (units[k], at[k] as u8))
            })
            .collect::<Vec<_>>();
        let mut theory = GridTheory {
            n,
            b,
            reasoning,
            shift,
            digit_mask: (1 << shift) - 1,
            pair_of_var: vec![NONE; num_vars],
            var_of_pair: vec![NONE; cells << shift],
            alive: vec![0; cells],
            cand: vec![0; cells],
            pos: vec![0; (3 * n) << shift],
            alive_pos: Vec::new(),
            placed: vec![0; 3 * n],
            value: vec![0; cells],
            unit_cells,
            cell_units,
            box_column: (0..b).fold(0u64, |mask, k| mask | 1 << (k * b)),
            undo: Vec::new(),
            level_marks: Vec::new(),
            dirty_cells: Vec::new(),
            dirty_cell: vec![false; cells],
            dirty_pairs: Vec::new(),
            dirty_pair: vec![false; (3 * n) << shift],
            new_placements: Vec::new(),
            pending: Vec::new(),
            next: 0,
            last: None,
            conflict: Vec::new(),
            has_conflict: false,
            matchings: hall::Matchings::new(n, reasoning.hall, reasoning.fish),
            counters: [0; 5],
        };
        for (index, what) in structure.cells.iter().enumerate() {
            let (cell, digit) = (index / n, index % n);
            let pair = cell << shift | digit;
            match *what {
                CellDigit::Var(var) => {
                    let slot = theory.pair_of_var.get_mut(var.index())?;
                    if *slot != NONE {
                        return None;
                    }
                    *slot = pair as u32;
                    theory.var_of_pair[pair] = var.index() as u32;
                    theory.alive[cell] |= 1 << digit;
                }
                CellDigit::True => {
                    if theory.value[cell] != 0 {
                        return None;
                    }
                    theory.value[cell] = digit as u8 + 1;
                    for (unit, _) in theory.cell_units[cell] {
                        theory.placed[unit as usize] |= 1 << digit;
                    }
                }
                CellDigit::False => {}
            }
        }
        theory.cand.clone_from(&theory.alive);
        for cell in 0..cells {
            let mut digits = theory.cand[cell];
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                for (unit, at) in theory.cell_units[cell] {
                    theory.pos[(unit as usize) << shift | d] |= 1 << at;
                }
            }
        }
        theory.alive_pos.clone_from(&theory.pos);
        // Everything is looked at once at the start.
        theory.dirty_cells = (0..cells as u32).collect();
        theory.dirty_cell.fill(true);
        for unit in 0..3 * n {
            for digit in 0..n {
                let key = unit << shift | digit;
                theory.dirty_pairs.push(key as u32);
                theory.dirty_pair[key] = true;
            }
        }
        Some(theory)
    }

    #[inline]
    fn lit_of(&self, cell: usize, digit: usize, truth: bool) -> Lit {
        Var::from_index(self.var_of_pair[cell << self.shift | digit] as usize).lit(truth)
    }

    #[inline]
    fn mark_cell(&mut self, cell: usize) {
        if !self.dirty_cell[cell] {
            self.dirty_cell[cell] = true;
            self.dirty_cells.push(cell as u32);
        }
    }

    #[inline]
    fn mark_pair(&mut self, key: usize) {
        if !self.dirty_pair[key] {
            self.dirty_pair[key] = true;
            self.dirty_pairs.push(key as u32);
        }
    }

    /// Excludes `digit` from `cell`.
    fn remove(&mut self, cell: usize, digit: usize) {
        let bit = 1u64 << digit;
        if self.cand[cell] & bit == 0 {
            return;
        }
        self.cand[cell] &= !bit;
        if self.reasoning.complete {
            self.mark_cell(cell);
        }
        for (unit, at) in self.cell_units[cell] {
            let key = (unit as usize) << self.shift | digit;
            self.pos[key] &= !(1u64 << at);
            self.mark_pair(key);
        }
        self.undo.push((cell << self.shift | digit) as u32);
        self.mark_views(cell, digit);
    }

    /// Places `digit` in `cell`.
    fn place(&mut self, lit: Lit, cell: usize, digit: usize) {
        if self.value[cell] != 0 {
            return;
        }
        self.value[cell] = digit as u8 + 1;
        for (unit, _) in self.cell_units[cell] {
            self.placed[unit as usize] |= 1 << digit;
        }
        self.undo.push(PLACED | (cell << self.shift | digit) as u32);
        self.mark_views(cell, digit);
        if self.reasoning.complete {
            self.new_placements.push(lit);
        }
    }

    fn undo_to(&mut self, len: usize) {
        while self.undo.len() > len {
            let entry = self.undo.pop().expect("longer than len");
            let pair = (entry & !PLACED) as usize;
            let (cell, digit) = (pair >> self.shift, pair & self.digit_mask);
            if entry & PLACED != 0 {
                self.value[cell] = 0;
                for (unit, _) in self.cell_units[cell] {
                    self.placed[unit as usize] &= !(1 << digit);
                }
            } else {
                self.cand[cell] |= 1 << digit;
                for (unit, at) in self.cell_units[cell] {
                    self.pos[(unit as usize) << self.shift | digit] |= 1 << at;
                }
            }
        }
    }

    fn imply(&mut self, lit: Lit, cause: Cause) {
        self.pending.push((lit, cause));
    }

    /// One round over what changed: fills `pending` and perhaps `conflict`.
    fn round(&mut self) {
        self.pending.clear();
        self.next = 0;
        let n = self.n;
        if self.reasoning.complete {
            for i in 0..self.new_placements.len() {
                let placed = self.new_placements[i];
                let (cell, digit) = self.pair_of(placed);
                let mut others = self.cand[cell] & !(1 << digit);
                while others != 0 {
                    let e = others.trailing_zeros() as usize;
                    others &= others - 1;
                    let lit = self.lit_of(cell, e, false);
                    self.imply(lit, Cause::Placement { placed });
                }
                for (unit, at) in self.cell_units[cell] {
                    let unit = unit as usize;
                    let mut peers = self.pos[unit << self.shift | digit] & !(1 << at);
                    while peers != 0 {
                        let k = peers.trailing_zeros() as usize;
                        peers &= peers - 1;
                        let peer = self.unit_cells[unit * n + k] as usize;
                        let lit = self.lit_of(peer, digit, false);
                        self.imply(lit, Cause::Placement { placed });
                    }
                }
            }
            self.new_placements.clear();
        }
        let cells = std::mem::take(&mut self.dirty_cells);
        for &cell in &cells {
            let cell = cell as usize;
            self.dirty_cell[cell] = false;
            if !self.reasoning.complete || self.value[cell] != 0 {
                continue;
            }
            let cand = self.cand[cell];
            if cand == 0 {
                self.cell_conflict(cell);
                break;
            }
            if cand & (cand - 1) == 0 {
                let lit = self.lit_of(cell, cand.trailing_zeros() as usize, true);
                self.counters[0] += 1;
                self.imply(lit, Cause::NakedSingle { cell: cell as u32 });
            }
        }
        self.dirty_cells = cells;
        self.dirty_cells.clear();
        if self.has_conflict {
            self.clear_dirty();
            return;
        }
        let pairs = std::mem::take(&mut self.dirty_pairs);
        for &key in &pairs {
            let key = key as usize;
            self.dirty_pair[key] = false;
            if self.has_conflict {
                continue;
            }
            let (unit, digit) = (key >> self.shift, key & self.digit_mask);
            if self.placed[unit] & (1 << digit) != 0 {
                continue;
            }
            let positions = self.pos[key];
            if self.reasoning.complete || self.reasoning.hidden_singles {
                if positions == 0 {
                    if self.reasoning.complete {
                        self.unit_conflict(unit, digit);
                    }
                    continue;
                }
                if positions & (positions - 1) == 0 {
                    let cell = self.unit_cells[unit * n + positions.trailing_zeros() as usize];
                    let lit = self.lit_of(cell as usize, digit, true);
                    self.counters[0] += 1;
                    self.imply(
                        lit,
                        Cause::HiddenSingle {
                            unit: unit as u32,
                            digit: digit as u8,
                        },
                    );
                    continue;
                }
            }
            // More than b positions never fit in one box segment or box line.
            if self.reasoning.locked && positions != 0 && positions.count_ones() <= self.b as u32 {
                self.locked(unit, digit, positions);
            }
        }
        self.dirty_pairs = pairs;
        self.dirty_pairs.clear();
        // Hall sets only at the fixpoint of the cheaper rules.
        if self.pending.is_empty() && !self.has_conflict && self.hall_due() {
            self.hall_round();
        }
    }

    fn clear_dirty(&mut self) {
        for &cell in &self.dirty_cells {
            self.dirty_cell[cell as usize] = false;
        }
        self.dirty_cells.clear();
        for &key in &self.dirty_pairs {
            self.dirty_pair[key as usize] = false;
        }
        self.dirty_pairs.clear();
        self.new_placements.clear();
    }

    /// Locked candidates for `digit` in `unit`, whose open positions are `positions`.
    fn locked(&mut self, unit: usize, digit: usize, positions: u64) {
        let (n, b) = (self.n, self.b);
        let segment = (1u64 << b) - 1;
        if unit >= 2 * n {
            // A box: its positions by row are b-bit segments; by column, every b-th bit.
            let bx = unit - 2 * n;
            let (r0, c0) = (bx / b * b, bx % b * b);
            // Row k of the box holds positions k·b … k·b + b − 1; its cells are columns
            // c0 … c0 + b − 1 of row r0 + k.
            let k = positions.trailing_zeros() as usize / b;
            if positions & !(segment << (k * b)) == 0 {
                self.eliminate(unit, r0 + k, digit, segment << c0);
                return;
            }
            // Column k of the box holds positions k, k + b, …; its cells are rows
            // r0 … r0 + b − 1 of column c0 + k.
            let k = positions.trailing_zeros() as usize % b;
            if positions & !(self.box_column << k) == 0 {
                self.eliminate(unit, n + c0 + k, digit, segment << r0);
            }
        } else {
            // A line: its positions by box are b-bit segments.
            let k = positions.trailing_zeros() as usize / b;
            if positions & !(segment << (k * b)) == 0 {
                // The line's segment k lies in one box; within the box the line is row
                // (or column) `line_index % b`.
                let line_index = unit % n;
                let (bx, inside) = if unit < n {
                    (line_index / b * b + k, segment << (line_index % b * b))
                } else {
                    (k * b + line_index / b, self.box_column << (line_index % b))
                };
                self.eliminate(unit, 2 * n + bx, digit, inside);
            }
        }
    }

    /// `digit`'s positions in `within` all lie in `line` (two crossing units), whose
    /// positions inside `within` are `inside`: the cells of `line` outside `within` lose
    /// it.
    fn eliminate(&mut self, within: usize, line: usize, digit: usize, inside: u64) {
        let n = self.n;
        let mut targets = self.pos[line << self.shift | digit] & !inside;
        while targets != 0 {
            let k = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let cell = self.unit_cells[line * n + k] as usize;
            let lit = self.lit_of(cell, digit, false);
            self.counters[1] += 1;
            self.imply(
                lit,
                Cause::Locked {
                    within: within as u32,
                    line: line as u32,
                    digit: digit as u8,
                },
            );
        }
    }

    #[inline]
    fn in_unit(&self, cell: usize, unit: usize) -> bool {
        self.cell_units[cell]
            .iter()
            .any(|&(u, _)| u as usize == unit)
    }

    /// The cell has no candidate left: its "≥ 1" clause is false.
    fn cell_conflict(&mut self, cell: usize) {
        self.conflict.clear();
        let mut digits = self.alive[cell];
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            self.conflict.push(self.lit_of(cell, d, true));
        }
        self.has_conflict = true;
        self.counters[2] += 1;
    }

    /// The digit has no position left in the unit: the unit's "≥ 1" clause is false.
    fn unit_conflict(&mut self, unit: usize, digit: usize) {
        self.conflict.clear();
        for k in 0..self.n {
            let cell = self.unit_cells[unit * self.n + k] as usize;
            if self.alive[cell] & (1 << digit) != 0 {
                self.conflict.push(self.lit_of(cell, digit, true));
            }
        }
        self.has_conflict = true;
        self.counters[2] += 1;
    }

    /// Runs a round when the last one's implications are used up.
    fn refresh(&mut self) {
        if self.next >= self.pending.len()
            && !self.has_conflict
            && (!self.dirty_cells.is_empty()
                || !self.dirty_pairs.is_empty()
                || !self.new_placements.is_empty()
                || self.hall_due())
        {
            self.round();
        }
    }

    /// The clause of `cause` for `lit`, `lit` first, into `out`.
    fn write_reason(&self, lit: Lit, cause: Cause, out: &mut Vec<Lit>) {
        out.clear();
        out.push(lit);
        let n = self.n;
        match cause {
            Cause::Placement { placed } => out.push(!placed),
            Cause::NakedSingle { cell } => {
                let cell = cell as usize;
                let mut digits = self.alive[cell] & !(1 << self.pair_of(lit).1);
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    out.push(self.lit_of(cell, d, true));
                }
            }
            Cause::HiddenSingle { unit, digit } => {
                let (unit, digit) = (unit as usize, digit as usize);
                let own = self.pair_of(lit).0;
                for k in 0..n {
                    let cell = self.unit_cells[unit * n + k] as usize;
                    if cell != own && self.alive[cell] & (1 << digit) != 0 {
                        out.push(self.lit_of(cell, digit, true));
                    }
                }
            }
            Cause::Locked {
                within,
                line,
                digit,
            } => {
                let (within, line, digit) = (within as usize, line as usize, digit as usize);
                for k in 0..n {
                    let cell = self.unit_cells[within * n + k] as usize;
                    if !self.in_unit(cell, line) && self.alive[cell] & (1 << digit) != 0 {
                        out.push(self.lit_of(cell, digit, true));
                    }
                }
            }
            Cause::Hall {
                view,
                cells,
                digits,
            } => self.write_hall_set(view as usize, cells, digits, out),
        }
    }

    #[inline]
    fn pair_of(&self, lit: Lit) -> (usize, usize) {
        let pair = self.pair_of_var[lit.var().index()] as usize;
        (pair >> self.shift, pair & self.digit_mask)
    }
}

impl Propagator for GridTheory {
    fn observed_vars(&self) -> Vec<Var> {
        variables_of(&self.var_of_pair)
    }

    fn notify_assignment(&mut self, lits: &[Lit]) {
        for &lit in lits {
            let Some(&pair) = self.pair_of_var.get(lit.var().index()) else {
                continue;
            };
            if pair == NONE {
                continue;
            }
            let (cell, digit) = (pair as usize >> self.shift, pair as usize & self.digit_mask);
            if lit.is_positive() {
                self.place(lit, cell, digit);
            } else {
                self.remove(cell, digit);
            }
        }
    }

    fn notify_new_decision_level(&mut self) {
        self.level_marks.push(self.undo.len());
    }

    fn notify_backtrack(&mut self, level: usize) {
        let Some(&len) = self.level_marks.get(level) else {
            return;
        };
        self.undo_to(len);
        self.level_marks.truncate(level);
        self.pending.clear();
        self.next = 0;
        self.last = None;
        self.has_conflict = false;
        self.clear_dirty();
    }

    fn propagate(&mut self) -> Option<Lit> {
        self.refresh();
        let &(lit, cause) = self.pending.get(self.next)?;
        self.next += 1;
        self.last = Some((lit, cause));
        Some(lit)
    }

    fn reason_clause(&mut self, lit: Lit, out: &mut Vec<Lit>) {
        let cause = match self.last {
            Some((last, cause)) if last == lit => cause,
            _ => self.pending[..self.next]
                .iter()
                .rev()
                .find(|(l, _)| *l == lit)
                .map(|&(_, cause)| cause)
                .expect("a literal the theory implied"),
        };
        self.write_reason(lit, cause, out);
    }

    fn add_clause(&mut self, out: &mut Vec<Lit>) -> bool {
        out.clear();
        self.refresh();
        if !self.has_conflict {
            return false;
        }
        self.has_conflict = false;
        out.append(&mut self.conflict);
        // What else the round found rests on an assignment the conflict undoes.
        self.pending.clear();
        self.next = 0;
        true
    }

    fn counters(&self) -> Counters {
        Counters(
            COUNTER_NAMES
                .iter()
                .zip(self.counters)
                .map(|(&name, count)| (name, count))
                .collect(),
        )
    }
}
