//! The free variables of a puzzle under the V⁺/V⁻ reduction (Kwon & Jain 2006): what the
//! reduced encoding keeps and how [`super::VarMap`] numbers them.

use crate::grid::{Cell, DigitSet, Grid};

/// The free variables of a puzzle: for each cell, the digits neither given nor excluded by
/// a given peer. Variable `i` (0-based) is the `i`-th free (cell, digit) pair in cell-major,
/// ascending-digit order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FreeVars {
    /// `starts[c]..starts[c + 1]` are the variables of cell `c`.
    pub starts: Vec<u32>,
    /// The digit of each variable.
    pub digits: Vec<u16>,
    /// Whether a digit occurs twice in some unit.
    pub contradictory: bool,
}

impl FreeVars {
    /// Computes the free variables in O(n² + free variables · words).
    pub fn of(puzzle: &Grid) -> FreeVars {
        let mut free = FreeVars::default();
        free.fill(puzzle);
        free
    }

    /// Recomputes the free variables for `puzzle` in place, keeping the buffers: a batch
    /// of puzzles computes them once a puzzle without allocating.
    pub fn fill(&mut self, puzzle: &Grid) {
        let geo = puzzle.geometry();
        self.starts.clear();
        self.starts.reserve(geo.num_cells() + 1);
        self.starts.push(0);
        self.digits.clear();
        if geo.side() < 64 {
            self.fill_masks(puzzle);
        } else {
            self.fill_sets(puzzle);
        }
    }

    /// [`FreeVars::fill`] for sides below 64: the digits of a unit in one word, digit d at
    /// bit d, on the stack.
    fn fill_masks(&mut self, puzzle: &Grid) {
        let geo = puzzle.geometry();
        let mut placed = [0u64; 3 * 63];
        let mut contradictory = false;
        let values = puzzle.values();
        for (i, &v) in values.iter().enumerate() {
            if v != 0 {
                let bit = 1u64 << v;
                for unit in geo.units_of(Cell(i as u32)) {
                    let mask = &mut placed[unit.0 as usize];
                    contradictory |= *mask & bit != 0;
                    *mask |= bit;
                }
            }
        }
        // Bits 1..=n.
        let full = (u64::MAX >> (63 - geo.side())) & !1;
        for (i, &v) in values.iter().enumerate() {
            if v == 0 {
                let [r, c, b] = geo.units_of(Cell(i as u32));
                let mut free =
                    full & !(placed[r.0 as usize] | placed[c.0 as usize] | placed[b.0 as usize]);
                while free != 0 {
                    self.digits.push(free.trailing_zeros() as u16);
                    free &= free - 1;
                }
            }
            self.starts.push(self.digits.len() as u32);
        }
        self.contradictory = contradictory;
    }

    /// [`FreeVars::fill`] for any side, on digit sets.
    fn fill_sets(&mut self, puzzle: &Grid) {
        let geo = puzzle.geometry();
        let n = geo.side();
        let mut placed = vec![DigitSet::EMPTY; geo.num_units()];
        let mut contradictory = false;
        for (cell, d) in puzzle.givens() {
            for unit in geo.units_of(cell) {
                contradictory |= !placed[unit.0 as usize].insert(d);
            }
        }
        let full = DigitSet::full(n);
        for cell in geo.cells() {
            if puzzle.get(cell).is_none() {
                let [r, c, b] = geo.units_of(cell);
                let used = placed[r.0 as usize]
                    .union(&placed[c.0 as usize])
                    .union(&placed[b.0 as usize]);
                self.digits
                    .extend(full.difference(&used).iter().map(|d| d.0));
            }
            self.starts.push(self.digits.len() as u32);
        }
        self.contradictory = contradictory;
    }

    /// These free variables without the digits `removed` lists for some open cells (root
    /// reasoning's removals), renumbered the same way. A digit that is not free stays
    /// out.
    pub fn without(&self, removed: &[(Cell, Vec<crate::grid::Digit>)]) -> FreeVars {
        let mut gone = vec![Vec::new(); self.starts.len() - 1];
        for (cell, digits) in removed {
            if let Some(slot) = gone.get_mut(cell.index()) {
                slot.extend(digits.iter().map(|d| d.0));
            }
        }
        let mut starts = Vec::with_capacity(self.starts.len());
        let mut digits = Vec::with_capacity(self.digits.len());
        starts.push(0);
        for (cell, gone) in gone.iter().enumerate() {
            let range = self.starts[cell] as usize..self.starts[cell + 1] as usize;
            digits.extend(self.digits[range].iter().filter(|d| !gone.contains(d)));
            starts.push(digits.len() as u32);
        }
        FreeVars {
            starts,
            digits,
            contradictory: self.contradictory,
        }
    }

    /// Number of free variables.
    pub fn len(&self) -> usize {
        self.digits.len()
    }

    /// The variables of a cell.
    #[inline]
    pub fn cell_range(&self, cell: Cell) -> std::ops::Range<usize> {
        self.cell_vars(cell)
    }

    #[inline]
    pub(crate) fn cell_vars(&self, cell: Cell) -> std::ops::Range<usize> {
        self.starts[cell.index()] as usize..self.starts[cell.index() + 1] as usize
    }
}
