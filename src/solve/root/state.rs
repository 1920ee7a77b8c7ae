//! The candidates of a grid in two views kept equal, and the cheap rules on them: the
//! givens' reduction and singles, naked (a cell left one digit) and hidden (a digit left
//! one place in a unit), carried to their fixpoint by a queue, as unit propagation does on
//! the extended encoding, so that their work is a few steps for each candidate removed.

use super::candidates::{Bits, RootCandidates, RootRemovals};
use crate::alldifferent::{Components, Mask, FREE};
use crate::backend::sudoku::{cell_units, unit_cells};
use crate::grid::Grid;

/// No index: a given cell among the open ones, a given digit among a unit's places.
pub(super) const NONE: u32 = u32::MAX;

/// Which rule removed a candidate.
#[derive(Clone, Copy)]
pub(super) enum Rule {
    Single,
    Locked,
    Unit,
    Fish,
}

/// A cell, unit or digit without a place: the puzzle has no solution.
#[derive(Debug)]
pub(super) struct Contradiction;

/// Why a round of Hall sets stopped before its end.
#[derive(Debug)]
pub(super) enum Halt {
    /// The puzzle has no solution.
    Contradiction,
    /// The Hall rounds spent more work than they have paid for.
    Unpaid,
}

impl From<Contradiction> for Halt {
    fn from(_: Contradiction) -> Halt {
        Halt::Contradiction
    }
}

/// What the Hall rounds may spend ([`super::RootPolicy::WhilePaying`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Allowance {
    pub(super) price: u64,
    pub(super) probe: u64,
    /// Work and literals when the first round began.
    pub(super) work: u64,
    pub(super) literals: u64,
}

/// The candidates twice: per cell, its digits, and per unit and digit, the digit's places
/// in the unit (the dual view of bit-parallel Sudoku solvers), kept equal by
/// [`State::keep`]. A place is a position in the unit: the column in a row, the row in a
/// column, `i · b + j` for row i and column j of a box, as [`unit_cells`] orders them.
pub(super) struct State {
    pub(super) b: usize,
    pub(super) n: usize,
    /// The puzzle's cells: a given's digit, 0 for an open cell.
    givens: Vec<u16>,
    /// Per cell: its index among the open cells (`NONE` for a given), the open cells, and
    /// the candidates of each.
    index: Vec<u32>,
    open: Vec<u32>,
    cand: Vec<Bits>,
    /// Per open cell: whether it is placed (its one digit gone from its peers).
    placed_cell: Vec<bool>,
    /// Per unit and digit (`unit · n + digit`): where its places are kept, `NONE` when
    /// the digit is given in the unit; the places of open cells that still take the digit.
    /// Only the digits the givens leave out of a unit have places: a 400×400 grid
    /// three-quarters given keeps a quarter of the masks.
    slot: Vec<u32>,
    pub(super) places: Vec<Bits>,
    /// Cells of unit `u` at `u · n ..`: rows, columns, boxes.
    pub(super) unit_cells: Vec<u32>,
    /// Per cell: its row, column and box.
    cell_units: Vec<[u32; 3]>,
    /// Singles found and not yet placed: (cell, digit).
    queue: Vec<(u32, u16)>,
    /// Views whose candidates changed since they were last looked at: the 3n units (for
    /// Hall sets), the n digits (for fish), and the 3n units again (for locked
    /// candidates), at `view`, `3n + digit` and `4n + unit`.
    pub(super) changed: Vec<bool>,
    /// Kept matchings per view (3n units, then n digits), `view · n + vertex`.
    pub(super) left: Vec<u16>,
    pub(super) right: Vec<u16>,
    pub(super) adj: Vec<Bits>,
    pub(super) components: Components<Bits>,
    /// Per digit: the rows and the columns where it is placed.
    pub(super) placed: Vec<(Bits, Bits)>,
    /// Per unit: the places of its placed cells, and the digits placed there.
    pub(super) unit_fixed: Vec<Bits>,
    pub(super) unit_placed: Vec<Bits>,
    /// Every place (and every digit): `0 .. n`.
    pub(super) all: Bits,
    pub(super) removals: RootRemovals,
    /// What the Hall rounds may spend, once they have begun (`None`: no limit).
    pub(super) allowance: Option<Allowance>,
}

impl State {
    /// The puzzle's candidates with every given's digit gone from its peers (what the
    /// encoder's reduction removes), in both views, with the singles this leaves queued.
    /// `Err` when a digit is given twice in a unit, or a cell or a unit's digit has no
    /// candidate left.
    pub(super) fn new(puzzle: &Grid) -> Result<State, Contradiction> {
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
                        return Err(Contradiction);
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
        let mut state = State {
            b,
            n,
            givens,
            index,
            placed_cell: vec![false; open.len()],
            open,
            cand,
            slot,
            places: vec![Bits::EMPTY; slots as usize],
            unit_cells,
            cell_units,
            queue: Vec::new(),
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
                singles: removed,
                ..RootRemovals::default()
            },
            allowance: None,
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
            match cand.first() {
                None => return Err(Contradiction),
                Some(d) if cand.count() == 1 => state.queue.push((cell as u32, d as u16)),
                Some(_) => {}
            }
        }
        // Hidden singles and digits without a place, unit by unit.
        for unit in 0..3 * n {
            let mut missing = false;
            state.all.minus(state.unit_placed[unit]).each(|d| {
                let places = state.places[state.slot(unit, d)];
                match places.first() {
                    None => missing = true,
                    Some(k) if places.count() == 1 => {
                        let cell = state.unit_cells[unit * n + k];
                        state.queue.push((cell, d as u16));
                    }
                    Some(_) => {}
                }
            });
            if missing {
                return Err(Contradiction);
            }
        }
        let literals = state.literals();
        state.removals.literals_before = literals;
        state.removals.literals_after = literals;
        Ok(state)
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

    pub(super) fn into_candidates(self) -> RootCandidates {
        RootCandidates {
            box_size: self.b,
            givens: self.givens,
            open: self.open,
            cand: self.cand,
            removals: self.removals,
        }
    }

    /// Whether every cell is placed.
    pub(super) fn settled(&self) -> bool {
        self.queue.is_empty() && self.placed_cell.iter().all(|&p| p)
    }

    /// The candidates of open cell `cell`.
    pub(super) fn cand(&self, cell: usize) -> Bits {
        self.cand[self.index[cell] as usize]
    }

    /// Where the places of digit `d` in `unit` are kept (the digit is not given there).
    pub(super) fn slot(&self, unit: usize, d: usize) -> usize {
        self.slot[unit * self.n + d] as usize
    }

    /// The places of `cell` in its row, column and box.
    fn places_of(&self, cell: usize) -> [usize; 3] {
        let (b, n) = (self.b, self.n);
        let (r, c) = (cell / n, cell % n);
        [c, r, (r % b) * b + c % b]
    }

    /// Leaves `cell` the candidates `kept`, in both views, marking the views that see the
    /// change and queueing the singles it makes. `Err` when the cell or a unit's digit is
    /// left without a candidate.
    pub(super) fn keep(
        &mut self,
        cell: usize,
        kept: Bits,
        rule: Rule,
    ) -> Result<(), Contradiction> {
        let n = self.n;
        let at = self.index[cell] as usize;
        let old = self.cand[at];
        let gone = old.minus(kept);
        if gone.is_empty() {
            return Ok(());
        }
        self.cand[at] = old.minus(gone);
        let count = gone.count() as u64;
        match rule {
            Rule::Single => self.removals.singles += count,
            Rule::Locked => self.removals.locked += count,
            Rule::Unit => self.removals.units += count,
            Rule::Fish => self.removals.fish += count,
        }
        self.removals.work += 3 * count;
        // k² literals a group: a cell from k to k − g loses k² − (k − g)², a unit's digit
        // from m to m − 1 loses 2m − 1.
        let k = u64::from(old.count());
        let mut lost = k * k - (k - count) * (k - count);
        let units = self.cell_units[cell];
        let places = self.places_of(cell);
        let mut consistent = true;
        gone.each(|d| {
            for (&unit, &place) in units.iter().zip(&places) {
                let unit = unit as usize;
                let slot = self.slot(unit, d);
                let left = &mut self.places[slot];
                lost += 2 * u64::from(left.count()) - 1;
                left.remove(place);
                let left = *left;
                match left.first() {
                    None => consistent = false,
                    Some(k) if left.count() == 1 => {
                        let single = self.unit_cells[unit * n + k];
                        if !self.placed_cell[self.index[single as usize] as usize] {
                            self.queue.push((single, d as u16));
                        }
                    }
                    Some(_) => {}
                }
            }
            self.changed[3 * n + d] = true;
        });
        self.removals.literals_after -= lost;
        for unit in units {
            self.changed[unit as usize] = true;
            self.changed[4 * n + unit as usize] = true;
        }
        let left = self.cand[at];
        match left.first() {
            None => consistent = false,
            Some(d) if left.count() == 1 => self.queue.push((cell as u32, d as u16)),
            Some(_) => {}
        }
        if consistent {
            Ok(())
        } else {
            Err(Contradiction)
        }
    }

    /// Places every queued single: the cell keeps only its digit, which leaves its peers;
    /// what that leaves single is queued in turn, to the fixpoint.
    pub(super) fn singles(&mut self) -> Result<(), Contradiction> {
        while let Some((cell, d)) = self.queue.pop() {
            let (cell, d) = (cell as usize, usize::from(d));
            let at = self.index[cell] as usize;
            if !self.cand[at].has(d) {
                // A digit's last place in a unit lost the digit since it was queued.
                return Err(Contradiction);
            }
            if self.placed_cell[at] {
                continue;
            }
            self.keep(cell, Bits::bit(d), Rule::Single)?;
            self.place(cell, d)?;
        }
        Ok(())
    }

    /// Records that `cell` holds `d` (its one candidate) and removes `d` from its peers.
    fn place(&mut self, cell: usize, d: usize) -> Result<(), Contradiction> {
        let n = self.n;
        let at = self.index[cell] as usize;
        self.placed_cell[at] = true;
        self.placed[d].0.insert(cell / n);
        self.placed[d].1.insert(cell % n);
        self.changed[3 * n + d] = true;
        let units = self.cell_units[cell];
        let places = self.places_of(cell);
        for (&unit, &place) in units.iter().zip(&places) {
            let unit = unit as usize;
            if self.unit_placed[unit].has(d) {
                return Err(Contradiction);
            }
            self.unit_fixed[unit].insert(place);
            self.unit_placed[unit].insert(d);
            let peers = self.places[self.slot(unit, d)].minus(Bits::bit(place));
            self.removals.work += Bits::WORDS as u64;
            let mut consistent = Ok(());
            peers.each(|k| {
                if consistent.is_ok() {
                    let peer = self.unit_cells[unit * n + k] as usize;
                    let rest = self.cand(peer).minus(Bits::bit(d));
                    consistent = self.keep(peer, rest, Rule::Single);
                }
            });
            consistent?;
        }
        Ok(())
    }
}
