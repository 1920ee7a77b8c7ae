//! The strongest reasoning without search, for grids of any side: every Hall set of every
//! row, column and box, every Hall set of each digit's rows against its columns (fish of
//! any size), and locked candidates, to a fixpoint.
//!
//! The grid theory inside cdcl ([`crate::backend::GridTheoryFactory`]) does this on one
//! `u64` a cell and stops at side 64; here a cell's candidates are seven words, as in a
//! [`crate::grid::DigitSet`] (up to 448 digits), and nothing is undone, so it runs before
//! a search: its removals become unit clauses of the formula
//! ([`RootCandidates::to_cnf`]). Each view is filtered by Régin's algorithm on a matching
//! kept from one pass to the next (`alldifferent.rs`).

use crate::alldifferent::{components, repair, Components, Mask, FREE};
use crate::backend::sudoku::{cell_units, unit_cells};
use crate::encode::{FreeVars, Pruned, SudokuEncoding, VarMap, VarRef};
use crate::formula::{ClauseSink, Cnf};
use crate::grid::{Cell, Digit, Grid};

/// A set of up to 448 vertices.
type Bits = [u64; 7];

/// No index: a given cell among the open ones, a given digit among a unit's places.
const NONE: u32 = u32::MAX;

crate::names::named_enum! {
    /// Whether the SAT path reasons on the grid before it encodes a puzzle.
    #[derive(Default)]
    pub enum RootMode ("root reasoning") {
        /// The fixpoint within [`RootBudget::AUTO`] on grids of side
        /// [`ROOT_AUTO_MIN_SIDE`] and more: it settled `sudoku-225-1` (which no search here
        /// settles) and was as fast or faster than the search alone on every large grid
        /// measured; below, cdcl's root probing does the same work (BENCHMARKS.md, "Root
        /// reasoning").
        #[default]
        Auto = "auto",
        /// None: the puzzle is encoded as it is.
        None = "none",
        /// The fixpoint of Hall sets and locked candidates on every grid.
        Hall = "hall",
    }
}

/// The narrowest grid `auto` reasons on.
pub const ROOT_AUTO_MIN_SIDE: usize = 64;

impl RootMode {
    /// The budget of the fixpoint before the search on a grid of side `n`, or `None`
    /// when it does not run there.
    pub fn budget(self, n: usize) -> Option<RootBudget> {
        match self {
            RootMode::Auto => (n >= ROOT_AUTO_MIN_SIDE).then_some(RootBudget::AUTO),
            RootMode::None => None,
            RootMode::Hall => Some(RootBudget::UNLIMITED),
        }
    }
}

/// How much work the fixpoint may do before it stops and hands over what it removed so
/// far: a few steps for each literal of the puzzle's reduced formula (the formula a search
/// would be given instead), and more for each literal it has removed from that formula.
/// Work that removes nothing is thus bounded by a small share of what loading the formula
/// costs, and work that keeps shrinking the formula goes on as long as it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootBudget {
    /// Steps for each literal of the formula when the fixpoint starts.
    pub per_literal: u64,
    /// Steps for each literal removed from it since.
    pub per_saved: u64,
}

impl RootBudget {
    /// `--root auto`'s budget. A step costs about 17 ns (the fixpoint of `sudoku-225-1`:
    /// 117 million steps in 2 s) where loading and propagating a literal of the formula
    /// costs 100–200 ns, so work that saves nothing costs at most about a tenth of the
    /// search's own start. The fixpoint of `sudoku-225-1`, which no search here settles,
    /// spends 6.9 steps per literal of its formula and 7–8 per literal it removes from
    /// it all along, within this budget (BENCHMARKS.md, "Root reasoning").
    pub const AUTO: RootBudget = RootBudget {
        per_literal: 1,
        per_saved: 10,
    };

    /// No limit: `--root hall`.
    pub const UNLIMITED: RootBudget = RootBudget {
        per_literal: u64::MAX,
        per_saved: u64::MAX,
    };

    /// The steps allowed with `start` literals at first and `now` left.
    fn allows(self, start: u64, now: u64) -> u64 {
        self.per_literal
            .saturating_mul(start)
            .saturating_add(self.per_saved.saturating_mul(start.saturating_sub(now)))
    }
}

/// What the fixpoint removed, by rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootRemovals {
    /// Passes over every view until nothing changed.
    pub passes: u64,
    /// Candidates removed by a Hall set of a row, column or box (singles included).
    pub units: u64,
    /// Candidates removed by a Hall set of a digit's rows against its columns.
    pub fish: u64,
    /// Candidates removed by locked candidates.
    pub locked: u64,
    /// Steps of work: the vertices and edges of every view filtered, the digits looked
    /// at for locked candidates, the places cleared; what a [`RootBudget`] counts.
    pub work: u64,
    /// Literals of the puzzle's extended, reduced formula when the fixpoint started (after
    /// the givens' reduction) and when it stopped: each open cell and each digit a unit
    /// is not given have a group of k candidates, k² literals.
    pub literals_before: u64,
    /// See [`RootRemovals::literals_before`].
    pub literals_after: u64,
}

/// The candidates left at the fixpoint.
#[derive(Clone, Debug)]
pub struct RootCandidates {
    box_size: usize,
    /// The puzzle's cells, row-major: a given's digit, 0 for an open cell.
    givens: Vec<u16>,
    /// The open cells, in order, and the digits each has left (bit d for digit d + 1).
    open: Vec<u32>,
    cand: Vec<Bits>,
    /// What each rule removed.
    pub removals: RootRemovals,
}

/// The outcome of the fixpoint.
#[derive(Clone, Debug)]
pub enum RootOutcome {
    /// The candidates left (a cell with one is fixed).
    Candidates(RootCandidates),
    /// A cell, unit or digit without a place: the puzzle has no solution.
    Contradiction(RootRemovals),
    /// The deadline passed first; the candidates so far.
    Stopped(RootCandidates),
    /// The budget was spent first; the candidates so far.
    OverBudget(RootCandidates),
}

impl RootOutcome {
    /// The candidates left, unless the puzzle was refuted.
    pub fn candidates(&self) -> Option<&RootCandidates> {
        match self {
            RootOutcome::Candidates(c) | RootOutcome::Stopped(c) | RootOutcome::OverBudget(c) => {
                Some(c)
            }
            RootOutcome::Contradiction(_) => None,
        }
    }

    /// The puzzle as the CNF writer takes it ([`crate::encode::write_pruned_cnf`]): the
    /// cells fixed given, the candidates removed from the other open cells beyond the
    /// givens' own reduction, and a note of what was done (`mode` names it).
    pub fn pruned(&self, puzzle: &Grid, mode: RootMode) -> Pruned {
        let Some(candidates) = self.candidates() else {
            return Pruned {
                puzzle: puzzle.clone(),
                removed: Vec::new(),
                refuted: true,
                note: format!("{mode}, the puzzle refuted (no solution)"),
            };
        };
        let fixed = candidates.fixed_grid();
        let free = FreeVars::of(&fixed);
        let mut removed = Vec::new();
        for (&cell, cand) in candidates.open.iter().zip(&candidates.cand) {
            if cand.count() == 1 {
                continue;
            }
            let gone: Vec<Digit> = free.digits[free.cell_vars(Cell(cell))]
                .iter()
                .filter(|&&d| !cand.has(usize::from(d) - 1))
                .map(|&d| Digit(d))
                .collect();
            if !gone.is_empty() {
                removed.push((Cell(cell), gone));
            }
        }
        let stopped = match self {
            RootOutcome::OverBudget(_) => ", stopped when its budget was spent",
            RootOutcome::Stopped(_) => {
                ", stopped before its fixpoint (a time limit or an interrupt)"
            }
            _ => "",
        };
        let more: usize = removed.iter().map(|(_, digits)| digits.len()).sum();
        Pruned {
            note: format!(
                "{mode}, {} passes{stopped}: {} cells fixed, and {more} candidates of the \
                 other open cells removed beyond what the givens exclude",
                candidates.removals.passes,
                candidates.fixed_cells() - puzzle.num_givens(),
            ),
            puzzle: fixed,
            removed,
            refuted: false,
        }
    }
}

/// Reasoning before the encoding as `mode` asks for it on `puzzle`'s side (none: `None`),
/// until its budget is spent or `stop` says so.
pub fn reason_at_root(
    puzzle: &Grid,
    mode: RootMode,
    stop: impl Fn() -> bool,
) -> Option<RootOutcome> {
    mode.budget(puzzle.side())
        .map(|budget| hall_fixpoint(puzzle, budget, stop))
}

impl RootCandidates {
    /// The side of the grid.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The number of cells with one candidate left.
    pub fn fixed_cells(&self) -> usize {
        let given = self.givens.len() - self.open.len();
        given + self.cand.iter().filter(|c| c.count() == 1).count()
    }

    /// The number of candidates left over every cell.
    pub fn candidates(&self) -> u64 {
        let given = (self.givens.len() - self.open.len()) as u64;
        given + self.cand.iter().map(|c| c.count() as u64).sum::<u64>()
    }

    /// The puzzle with every fixed cell given.
    pub fn fixed_grid(&self) -> Grid {
        let mut values = self.givens.clone();
        for (&cell, cand) in self.open.iter().zip(&self.cand) {
            if cand.count() == 1 {
                values[cell as usize] = cand.first().map_or(0, |d| d as u16 + 1);
            }
        }
        Grid::from_values(values).expect("the side of a supported grid")
    }

    /// Whether `digit` is still a candidate of `cell`.
    pub fn has(&self, cell: Cell, digit: Digit) -> bool {
        match self.givens[cell.index()] {
            0 => {
                let at = self.open.binary_search(&cell.0).expect("an open cell");
                self.cand[at].has(digit.get() - 1)
            }
            given => usize::from(given) == digit.get(),
        }
    }

    /// The formula of [`RootCandidates::fixed_grid`] under `encoding`, with each removed
    /// candidate of an open cell as a unit clause (its map decodes a model into a solution
    /// of the puzzle).
    pub fn to_cnf(&self, encoding: SudokuEncoding) -> (VarMap, Cnf) {
        let mut cnf = Cnf::new();
        let map = encoding.encode_into(&self.fixed_grid(), &mut cnf);
        cnf.set_num_vars(map.num_vars());
        self.add_removals(&map, &mut cnf);
        (map, cnf)
    }

    /// Each removed candidate of an open cell that has a variable in `map` (a map of
    /// [`RootCandidates::fixed_grid`]), as a unit clause into `sink`.
    pub fn add_removals(&self, map: &VarMap, sink: &mut impl ClauseSink) {
        let n = self.side();
        for (&cell, cand) in self.open.iter().zip(&self.cand) {
            if cand.count() == 1 {
                continue;
            }
            for d in (0..n).filter(|&d| !cand.has(d)) {
                if let VarRef::Var(var) = map.var(Cell(cell), Digit(d as u16 + 1)) {
                    sink.add_clause(&[var.lit(false)]);
                }
            }
        }
    }

    /// The candidates removed in all.
    pub fn removed(&self) -> u64 {
        self.removals.units + self.removals.fish + self.removals.locked
    }
}

/// Reasons on `puzzle` to the fixpoint, until `budget` is spent (checked after each view)
/// or `stop` says so (asked between passes).
pub fn hall_fixpoint(puzzle: &Grid, budget: RootBudget, stop: impl Fn() -> bool) -> RootOutcome {
    let Some(mut state) = State::new(puzzle, budget) else {
        return RootOutcome::Contradiction(RootRemovals::default());
    };
    while state.changed.iter().any(|&c| c) {
        if stop() {
            return RootOutcome::Stopped(state.into_candidates());
        }
        state.removals.passes += 1;
        match state
            .units()
            .and_then(|()| state.digits())
            .and_then(|()| state.locked())
        {
            Ok(()) => {}
            Err(Halt::Contradiction) => return RootOutcome::Contradiction(state.removals),
            Err(Halt::Spent) => return RootOutcome::OverBudget(state.into_candidates()),
        }
    }
    RootOutcome::Candidates(state.into_candidates())
}

/// Why a pass stopped before the fixpoint.
enum Halt {
    /// A cell, unit or digit without a place.
    Contradiction,
    /// The budget is spent.
    Spent,
}

/// Which of a view's rules removed a candidate.
#[derive(Clone, Copy)]
enum Rule {
    Unit,
    Fish,
    Locked,
}

/// The candidates twice: per cell, its digits, and per unit and digit, the digit's places
/// in the unit (the dual view of bit-parallel Sudoku solvers), kept equal by
/// [`State::keep`]. A place is a position in the unit: the column in a row, the row in a
/// column, `i · b + j` for row i and column j of a box, as [`unit_cells`] orders them.
struct State {
    b: usize,
    n: usize,
    /// The puzzle's cells: a given's digit, 0 for an open cell.
    givens: Vec<u16>,
    /// Per cell: its index among the open cells (`NONE` for a given), the open cells, and
    /// the candidates of each.
    index: Vec<u32>,
    open: Vec<u32>,
    cand: Vec<Bits>,
    /// Per unit and digit (`unit · n + digit`): where its places are kept, `NONE` when
    /// the digit is given in the unit; the places of open cells that still take the digit.
    /// Only the digits the givens leave out of a unit have places: a 400×400 grid
    /// three-quarters given keeps a quarter of the masks.
    slot: Vec<u32>,
    places: Vec<Bits>,
    /// Cells of unit `u` at `u · n ..`: rows, columns, boxes.
    unit_cells: Vec<u32>,
    /// Per cell: its row, column and box.
    cell_units: Vec<[u32; 3]>,
    /// Places `j · b .. j · b + b` for each j: a segment of a line (the columns or rows
    /// of one box), or row j of a box.
    segment: Vec<Bits>,
    /// Places `{i · b + j}` for each j: column j of a box.
    stride: Vec<Bits>,
    /// Views whose candidates changed since they were last looked at: the 3n units (for
    /// Hall sets), the n digits (for fish), and the 3n units again (for locked
    /// candidates), at `view`, `3n + digit` and `4n + unit`.
    changed: Vec<bool>,
    /// Kept matchings per view (3n units, then n digits), `view · n + vertex`.
    left: Vec<u16>,
    right: Vec<u16>,
    adj: Vec<Bits>,
    components: Components<Bits>,
    /// Per digit: the rows and the columns where it is placed (a cell left only it).
    placed: Vec<(Bits, Bits)>,
    /// Per unit: the places of its placed cells, and the digits placed there.
    unit_fixed: Vec<Bits>,
    unit_placed: Vec<Bits>,
    /// Every place (and every digit): `0 .. n`.
    all: Bits,
    removals: RootRemovals,
    budget: RootBudget,
}

impl State {
    /// The puzzle's candidates with every given's digit gone from its peers (what the
    /// encoder's reduction removes, so that the first pass filters only what is left), in
    /// both views. `None` when a cell has no candidate or a digit is given twice in a unit.
    fn new(puzzle: &Grid, budget: RootBudget) -> Option<State> {
        let (b, n) = (puzzle.box_size(), puzzle.side());
        let givens = puzzle.values().to_vec();
        let all = (0..n).fold(Bits::EMPTY, |mask, d| mask.union(Bits::bit(d)));
        let unit_cells = unit_cells(b);
        let cell_units = cell_units(b);
        let mut unit_placed = vec![Bits::EMPTY; 3 * n];
        let mut unit_fixed = vec![Bits::EMPTY; 3 * n];
        for (unit, cells) in unit_cells.chunks(n).enumerate() {
            for (k, &cell) in cells.iter().enumerate() {
                if let v @ 1.. = givens[cell as usize] {
                    if unit_placed[unit].has(v as usize - 1) {
                        return None;
                    }
                    unit_placed[unit].insert(v as usize - 1);
                    unit_fixed[unit].insert(k);
                }
            }
        }
        let mut placed = vec![(Bits::EMPTY, Bits::EMPTY); n];
        let (mut index, mut open, mut cand) = (vec![NONE; n * n], Vec::new(), Vec::new());
        let mut removed = 0;
        for (cell, (&v, units)) in givens.iter().zip(&cell_units).enumerate() {
            if v != 0 {
                placed[v as usize - 1].0.insert(cell / n);
                placed[v as usize - 1].1.insert(cell % n);
                continue;
            }
            let seen = units
                .iter()
                .fold(Bits::EMPTY, |m, &u| m.union(unit_placed[u as usize]));
            removed += seen.count() as u64;
            index[cell] = open.len() as u32;
            open.push(cell as u32);
            cand.push(all.minus(seen));
        }
        let mut slot = vec![NONE; 3 * n * n];
        let mut slots = 0;
        for (unit, given) in unit_placed.iter().enumerate() {
            all.minus(*given).each(|d| {
                slot[unit * n + d] = slots;
                slots += 1;
            });
        }
        let segment = (0..b)
            .map(|j| (j * b..j * b + b).fold(Bits::EMPTY, |m, k| m.union(Bits::bit(k))))
            .collect();
        let stride = (0..b)
            .map(|j| (0..b).fold(Bits::EMPTY, |m, i| m.union(Bits::bit(i * b + j))))
            .collect();
        let mut state = State {
            b,
            n,
            givens,
            index,
            open,
            cand,
            slot,
            places: vec![Bits::EMPTY; slots as usize],
            unit_cells,
            cell_units,
            segment,
            stride,
            changed: vec![true; 7 * n],
            left: vec![FREE; 4 * n * n],
            right: vec![FREE; 4 * n * n],
            adj: vec![Bits::EMPTY; n],
            components: Components::default(),
            placed,
            unit_fixed,
            unit_placed,
            all,
            removals: RootRemovals {
                units: removed,
                ..RootRemovals::default()
            },
            budget,
        };
        for at in 0..state.open.len() {
            let cell = state.open[at] as usize;
            let cand = state.cand[at];
            let units = state.cell_units[cell];
            let places = state.places_of(cell);
            cand.each(|d| {
                for (&unit, &place) in units.iter().zip(&places) {
                    let slot = state.slot(unit as usize, d);
                    state.places[slot].insert(place);
                }
            });
            match cand.count() {
                0 => return None,
                1 if !state.place(cell) => return None,
                _ => {}
            }
        }
        let literals = state.literals();
        state.removals.literals_before = literals;
        state.removals.literals_after = literals;
        Some(state)
    }

    /// `Err(Halt::Spent)` once the work done is over the budget.
    fn within_budget(&self) -> Result<(), Halt> {
        let r = &self.removals;
        if r.work > self.budget.allows(r.literals_before, r.literals_after) {
            return Err(Halt::Spent);
        }
        Ok(())
    }

    /// The literals of the puzzle's extended, reduced formula for the candidates left:
    /// each open cell and each unit's digit an "at least one" clause over its k places
    /// and k(k − 1)/2 binary "at most one" clauses, k² literals. [`State::keep`] keeps
    /// the count up to date from there.
    fn literals(&self) -> u64 {
        let square = |k: u32| u64::from(k) * u64::from(k);
        let cells: u64 = self.cand.iter().map(|c| square(c.count())).sum();
        let units: u64 = self.places.iter().map(|p| square(p.count())).sum();
        cells + units
    }

    fn into_candidates(self) -> RootCandidates {
        RootCandidates {
            box_size: self.b,
            givens: self.givens,
            open: self.open,
            cand: self.cand,
            removals: self.removals,
        }
    }

    /// The candidates of open cell `cell`.
    fn cand(&self, cell: usize) -> Bits {
        self.cand[self.index[cell] as usize]
    }

    /// Where the places of digit `d` in `unit` are kept (the digit is not given there).
    fn slot(&self, unit: usize, d: usize) -> usize {
        self.slot[unit * self.n + d] as usize
    }

    /// The places of `cell` in its row, column and box.
    fn places_of(&self, cell: usize) -> [usize; 3] {
        let (b, n) = (self.b, self.n);
        let (r, c) = (cell / n, cell % n);
        [c, r, (r % b) * b + c % b]
    }

    /// Leaves `cell` the candidates `kept`, in both views, marking the views that see the
    /// change; `false` when none is left.
    fn keep(&mut self, cell: usize, kept: Bits, rule: Rule) -> bool {
        let n = self.n;
        let at = self.index[cell] as usize;
        let old = self.cand[at];
        let gone = old.minus(kept);
        if gone.is_empty() {
            return true;
        }
        self.cand[at] = old.minus(gone);
        let count = gone.count() as u64;
        match rule {
            Rule::Unit => self.removals.units += count,
            Rule::Fish => self.removals.fish += count,
            Rule::Locked => self.removals.locked += count,
        }
        self.removals.work += 3 * count;
        // k² literals a group: a cell from k to k − g loses k² − (k − g)², a unit's digit
        // from m to m − 1 loses 2m − 1.
        let k = u64::from(old.count());
        let mut lost = k * k - (k - count) * (k - count);
        let units = self.cell_units[cell];
        let places = self.places_of(cell);
        gone.each(|d| {
            for (&unit, &place) in units.iter().zip(&places) {
                let slot = self.slot(unit as usize, d);
                lost += 2 * u64::from(self.places[slot].count()) - 1;
                self.places[slot].remove(place);
            }
            self.changed[3 * n + d] = true;
        });
        self.removals.literals_after -= lost;
        for unit in units {
            self.changed[unit as usize] = true;
            self.changed[4 * n + unit as usize] = true;
        }
        let left = self.cand[at];
        if left.count() == 1 {
            return self.place(cell);
        }
        !left.is_empty()
    }

    /// Records that `cell`, left one candidate, places it: in its units and in its
    /// digit's view, which changes. `false` when a unit already has that digit placed.
    fn place(&mut self, cell: usize) -> bool {
        let n = self.n;
        let d = self.cand(cell).first().expect("one digit");
        self.placed[d].0.insert(cell / n);
        self.placed[d].1.insert(cell % n);
        self.changed[3 * n + d] = true;
        let mut twice = false;
        let at = self.places_of(cell);
        for (&unit, &place) in self.cell_units[cell].iter().zip(&at) {
            let unit = unit as usize;
            twice |= self.unit_placed[unit].has(d);
            self.unit_fixed[unit].insert(place);
            self.unit_placed[unit].insert(d);
        }
        !twice
    }

    /// Every changed row, column and box: open cells against missing digits. Stops on a
    /// contradiction or once the budget is spent.
    fn units(&mut self) -> Result<(), Halt> {
        let n = self.n;
        for unit in 0..3 * n {
            if !std::mem::take(&mut self.changed[unit]) {
                continue;
            }
            let open = self.all.minus(self.unit_fixed[unit]);
            let placed = self.unit_placed[unit];
            if open.count() + placed.count() != n as u32 {
                return Err(Halt::Contradiction);
            }
            open.each(|k| {
                self.adj[k] = self
                    .cand(self.unit_cells[unit * n + k] as usize)
                    .minus(placed);
            });
            if !self.filter(unit, open) {
                return Err(Halt::Contradiction);
            }
            // Placed digits leave their peers; Hall sets' removals leave the cells.
            let mut consistent = true;
            open.each(|k| {
                let cell = self.unit_cells[unit * n + k] as usize;
                consistent &= self.keep(cell, self.adj[k], Rule::Unit);
            });
            if !consistent {
                return Err(Halt::Contradiction);
            }
            self.within_budget()?;
        }
        Ok(())
    }

    /// Each changed digit: rows without it placed against columns without it placed, the
    /// edges read off the rows' places.
    fn digits(&mut self) -> Result<(), Halt> {
        let (n, all) = (self.n, self.all);
        for d in 0..n {
            if !std::mem::take(&mut self.changed[3 * n + d]) {
                continue;
            }
            let (placed_rows, placed_columns) = self.placed[d];
            let rows = all.minus(placed_rows);
            if rows.count() != all.minus(placed_columns).count() {
                return Err(Halt::Contradiction);
            }
            rows.each(|r| self.adj[r] = self.places[self.slot(r, d)].minus(placed_columns));
            if !self.filter(3 * n + d, rows) {
                return Err(Halt::Contradiction);
            }
            let mut consistent = true;
            rows.each(|r| {
                let gone = self.places[self.slot(r, d)]
                    .minus(placed_columns)
                    .minus(self.adj[r]);
                gone.each(|c| {
                    let cell = r * n + c;
                    let rest = self.cand(cell).minus(Bits::bit(d));
                    consistent &= self.keep(cell, rest, Rule::Fish);
                });
            });
            if !consistent {
                return Err(Halt::Contradiction);
            }
            self.within_budget()?;
        }
        Ok(())
    }

    /// Régin's filtering of `view` (edges in `adj`, left vertices `open`): removes from
    /// `adj` every edge no perfect matching uses. `false` on a Hall violator.
    fn filter(&mut self, view: usize, open: Bits) -> bool {
        let n = self.n;
        let left = &mut self.left[view * n..view * n + n];
        let right = &mut self.right[view * n..view * n + n];
        if repair(&self.adj, open, left, right).is_err() {
            return false;
        }
        let edges = components(&mut self.adj, open, left, right, &mut self.components);
        self.removals.work += u64::from(open.count()) + edges;
        true
    }

    /// Locked candidates in each changed unit, read off its digits' places: a digit whose
    /// places in a box lie in one line leaves the rest of the line, and one whose places
    /// in a line lie in one box leaves the rest of the box.
    fn locked(&mut self) -> Result<(), Halt> {
        let n = self.n;
        for unit in 0..3 * n {
            if !std::mem::take(&mut self.changed[4 * n + unit]) {
                continue;
            }
            // A placed digit leaves its peers through the unit views.
            self.removals.work += u64::from(self.all.minus(self.unit_placed[unit]).count());
            let mut consistent = true;
            self.all.minus(self.unit_placed[unit]).each(|d| {
                if consistent {
                    consistent = self.lock(unit, d);
                }
            });
            if !consistent {
                return Err(Halt::Contradiction);
            }
            self.within_budget()?;
        }
        Ok(())
    }

    /// Locked candidates of digit `d`, not placed in `unit`. `false` on a contradiction.
    fn lock(&mut self, unit: usize, d: usize) -> bool {
        let (b, n) = (self.b, self.n);
        let places = self.places[self.slot(unit, d)];
        let Some(first) = places.first() else {
            return false;
        };
        // One place is a single, which the unit views carry to the peers.
        if places.count() == 1 {
            return true;
        }
        // The other unit holding every place, and its places inside this one.
        let (target, inside) = if unit >= 2 * n {
            let bx = unit - 2 * n;
            let (i, j) = (first / b, first % b);
            if self.segment[i].contains(places) {
                ((bx / b) * b + i, self.segment[bx % b])
            } else if self.stride[j].contains(places) {
                (n + (bx % b) * b + j, self.segment[bx / b])
            } else {
                return true;
            }
        } else {
            let j = first / b;
            if !self.segment[j].contains(places) {
                return true;
            }
            let line = unit % n;
            let (bx, inside) = if unit < n {
                ((line / b) * b + j, self.segment[line % b])
            } else {
                (j * b + line / b, self.stride[line % b])
            };
            (2 * n + bx, inside)
        };
        let outside = self.places[self.slot(target, d)].minus(inside);
        let mut consistent = true;
        outside.each(|k| {
            let cell = self.unit_cells[target * n + k] as usize;
            let rest = self.cand(cell).minus(Bits::bit(d));
            consistent &= self.keep(cell, rest, Rule::Locked);
        });
        consistent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::dlx;

    /// The CNF of a pruned puzzle declares in its header the clauses it holds, for every
    /// encoding and family and both forms (its size comes from walks, not the clauses).
    #[test]
    fn the_pruned_formula_holds_the_clauses_its_header_declares() {
        use crate::encode::{write_pruned_cnf, Encoding, PrunedForm};
        let puzzle: Grid =
            "400750000500400600000000009000548000000000000300160204028000000000000810009070003"
                .parse()
                .unwrap();
        let pruned = fixpoint(&puzzle).pruned(&puzzle, RootMode::Hall);
        assert!(
            !pruned.removed.is_empty(),
            "the fixpoint removes candidates here"
        );
        for encoding in SudokuEncoding::all_families() {
            for form in [PrunedForm::Units, PrunedForm::Simplified] {
                let mut out = Vec::new();
                let size = write_pruned_cnf(&mut out, &encoding, &pruned, form, |_, _| {}).unwrap();
                let text = String::from_utf8(out).unwrap();
                let clauses = text.lines().filter(|l| !l.starts_with(['c', 'p'])).count();
                let header = format!("p cnf {} {}\n", size.vars, size.clauses);
                assert!(text.contains(&header), "{} {form:?}", encoding.name());
                assert_eq!(clauses, size.clauses, "{} {form:?}", encoding.name());
            }
        }
    }

    fn fixpoint(puzzle: &Grid) -> RootOutcome {
        hall_fixpoint(puzzle, RootBudget::UNLIMITED, || false)
    }

    /// An easy 9×9 puzzle is solved by singles alone; the fixed grid is its solution.
    #[test]
    fn an_easy_puzzle_is_settled_without_search() {
        let puzzle: Grid =
            "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
                .parse()
                .unwrap();
        let RootOutcome::Candidates(root) = fixpoint(&puzzle) else {
            panic!("a solvable puzzle")
        };
        assert_eq!(root.fixed_cells(), 81);
        let solved = root.fixed_grid();
        assert!(crate::grid::check_solution(&puzzle, &solved).is_valid());
    }

    /// Stopped before the first pass, a cell has lost only the digits its peers are given
    /// (what the encoder's reduction removes too): what the formula gets is still sound.
    #[test]
    fn a_stop_before_the_first_pass_keeps_what_the_givens_allow() {
        let puzzle: Grid =
            "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
                .parse()
                .unwrap();
        let RootOutcome::Stopped(root) = hall_fixpoint(&puzzle, RootBudget::UNLIMITED, || true)
        else {
            panic!("asked to stop at once")
        };
        assert_eq!(root.removals.passes, 0);
        let geo = puzzle.geometry();
        let mut left = 0;
        for cell in geo.cells() {
            for d in 1..=9 {
                let digit = Digit(d);
                let allowed = match puzzle.get(cell) {
                    Some(given) => given == digit,
                    None => geo.units_of(cell).iter().all(|&unit| {
                        geo.unit_cells(unit)
                            .iter()
                            .all(|&peer| puzzle.get(peer) != Some(digit))
                    }),
                };
                assert_eq!(root.has(cell, digit), allowed, "{cell:?} {digit:?}");
                left += u64::from(allowed);
            }
        }
        assert_eq!(root.candidates(), left);
        assert_eq!(
            root.removed(),
            81 * 9 - left - 8 * puzzle.num_givens() as u64
        );
    }

    /// A budget of nothing stops after the first view with what it removed so far, and
    /// that keeps the solution; `--root auto`'s budget lets the hard fixture run to its
    /// fixpoint, as the unlimited one does.
    #[test]
    fn a_spent_budget_hands_over_sound_candidates() {
        let puzzle: Grid = include_str!("../../tests/fixtures/expert-20.txt")
            .lines()
            .find(|line| !line.starts_with('#'))
            .unwrap()
            .parse()
            .unwrap();
        let solution = dlx::search(&puzzle, 1).unwrap().first.unwrap();
        let nothing = RootBudget {
            per_literal: 0,
            per_saved: 0,
        };
        let RootOutcome::OverBudget(root) = hall_fixpoint(&puzzle, nothing, || false) else {
            panic!("a budget of nothing is spent at once")
        };
        assert_eq!(root.removals.passes, 1);
        for (cell, digit) in solution.givens() {
            assert!(root.has(cell, digit), "{cell:?} keeps {digit:?}");
        }
        let full = fixpoint(&puzzle);
        let auto = hall_fixpoint(&puzzle, RootBudget::AUTO, || false);
        let (RootOutcome::Candidates(full), RootOutcome::Candidates(auto)) = (full, auto) else {
            panic!("both reach the fixpoint")
        };
        assert_eq!(auto.removals, full.removals);
        assert!(auto.removals.literals_after < auto.removals.literals_before);
        assert!(root.removals.literals_after > auto.removals.literals_after);
    }

    /// Two givens of one digit in a row: a contradiction.
    #[test]
    fn a_repeated_digit_is_a_contradiction() {
        let mut puzzle = Grid::empty(2).unwrap();
        puzzle.set(Cell(0), Some(Digit(1)));
        puzzle.set(Cell(3), Some(Digit(1)));
        assert!(matches!(fixpoint(&puzzle), RootOutcome::Contradiction(_)));
    }

    /// The candidates keep the solution, and the formula with the removals as units is
    /// satisfiable exactly when the puzzle is, its model decoding to a solution: on
    /// puzzles with one, several and no solutions.
    #[test]
    fn the_candidates_and_the_formula_keep_the_solutions() {
        use crate::backend::{Cdcl, SatBackend, SatOutcome};
        use crate::encode::BaseEncoding;
        let solved: Grid =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let encoding = SudokuEncoding::new(BaseEncoding::Extended, true);
        let mut puzzles = vec![
            // Unique and hard: the first of the expert fixture.
            include_str!("../../tests/fixtures/expert-20.txt")
                .lines()
                .find(|line| !line.starts_with('#'))
                .unwrap()
                .parse::<Grid>()
                .unwrap(),
        ];
        for (step, change) in [(2usize, false), (4, false), (5, false), (3, true)] {
            let mut puzzle = solved.clone();
            for c in (0..81).filter(|c| c % step != 0) {
                puzzle.set(Cell(c as u32), None);
            }
            if change {
                puzzle.set(Cell(0), Some(Digit(4)));
            }
            puzzles.push(puzzle);
        }
        let mut outcomes = [0; 3];
        for (step, puzzle) in puzzles.into_iter().enumerate() {
            let dlx = dlx::search(&puzzle, 2).unwrap();
            let root = match fixpoint(&puzzle) {
                RootOutcome::Contradiction(_) => {
                    assert_eq!(dlx.solutions, 0, "puzzle {step}");
                    outcomes[0] += 1;
                    continue;
                }
                RootOutcome::Stopped(_) | RootOutcome::OverBudget(_) => unreachable!("no limit"),
                RootOutcome::Candidates(root) => root,
            };
            if let Some(first) = &dlx.first {
                for (cell, digit) in first.givens() {
                    assert!(root.has(cell, digit), "{cell:?} keeps {digit:?}");
                }
            }
            let (map, mut cnf) = root.to_cnf(encoding);
            let mut solver = Cdcl::new();
            solver.add_formula(&mut cnf);
            match solver.solve().unwrap() {
                SatOutcome::Sat(model) => {
                    let grid = map.decode(&model).unwrap();
                    assert!(crate::grid::check_solution(&puzzle, &grid).is_valid());
                    outcomes[dlx.solutions.min(2) as usize] += 1;
                }
                other => assert_eq!(dlx.solutions, 0, "{other:?}"),
            }
        }
        assert!(outcomes.iter().all(|&k| k > 0), "{outcomes:?}");
    }
}
