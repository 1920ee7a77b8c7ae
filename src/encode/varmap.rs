//! The map between (cell, digit) and CNF variables, and decoding a model into a grid.

use super::free_vars::FreeVars;
use crate::formula::{Model, Var};
use crate::grid::{check_solution, Cell, Digit, Grid, Violation};

/// What a (cell, digit) pair is in an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarRef {
    /// A variable of the formula.
    Var(Var),
    /// Fixed true by the givens (V⁺; removed by the reduction).
    True,
    /// Fixed false by the givens (V⁻; removed by the reduction).
    False,
}

/// Why a model is not a solution of its puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// No digit is true for a cell.
    #[error("cell {cell} has no value in the model")]
    EmptyCell {
        /// Cell label, e.g. `r3c4`.
        cell: String,
    },
    /// Several digits are true for a cell.
    #[error("cell {cell} has {count} values in the model ({digits})")]
    SeveralValues {
        /// Cell label.
        cell: String,
        /// How many.
        count: usize,
        /// The digits, comma-separated.
        digits: String,
    },
    /// The decoded grid breaks a rule or a given.
    #[error("the model's grid is not a solution: {0}")]
    NotASolution(String),
    /// The model has fewer variables than the encoding.
    #[error("the model assigns {found} variables but the encoding has {expected}")]
    TooShort {
        /// Variables in the encoding.
        expected: usize,
        /// Variables in the model.
        found: usize,
    },
}

/// Maps (cell, digit) to variables for one puzzle and one encoding.
///
/// The reduced numbering is stored as the free digits of each cell (O(n² + variables)
/// memory, not O(n³)): lookups are a binary search within one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarMap {
    puzzle: Grid,
    /// `None` for the base numbering `(r-1)n² + (c-1)n + v`; otherwise the free variables:
    /// variable `i` (0-based) is the `i`-th free (cell, digit) in cell-major, ascending-digit
    /// order.
    compact: Option<FreeVars>,
    /// Variables standing for a (cell, digit): 0..num_cell_vars.
    num_vars: usize,
    /// Auxiliary variables (segments, at-most-one auxiliaries), numbered after them.
    num_aux: usize,
}

impl VarMap {
    /// The base numbering: n³ variables, none fixed.
    pub fn base(puzzle: &Grid) -> VarMap {
        let n = puzzle.side();
        VarMap {
            puzzle: puzzle.clone(),
            compact: None,
            num_vars: n * n * n,
            num_aux: 0,
        }
    }

    /// The reduced numbering: givens' variables fixed true (V⁺), variables sharing a cell or
    /// a unit value with a given fixed false (V⁻), the rest numbered 1… cell-major, ascending
    /// digit.
    pub fn reduced(puzzle: &Grid) -> VarMap {
        VarMap::from_free_vars(puzzle, FreeVars::of(puzzle))
    }

    /// The reduced numbering from free variables already computed for `puzzle`.
    pub(crate) fn from_free_vars(puzzle: &Grid, free: FreeVars) -> VarMap {
        VarMap {
            puzzle: puzzle.clone(),
            num_vars: free.len(),
            compact: Some(free),
            num_aux: 0,
        }
    }

    /// Makes this the reduced map of `puzzle` in place, keeping the buffers (a batch's
    /// maps allocate nothing once grown).
    pub(crate) fn refill_reduced(&mut self, puzzle: &Grid) {
        self.puzzle.clone_from(puzzle);
        let free = self.compact.get_or_insert_with(FreeVars::default);
        free.fill(puzzle);
        self.num_vars = free.len();
        self.num_aux = 0;
    }

    /// The free variables of a reduced map.
    pub(crate) fn free_vars(&self) -> Option<&FreeVars> {
        self.compact.as_ref()
    }

    /// The same map with `num_aux` auxiliary variables numbered after the cell variables.
    pub fn with_aux(self, num_aux: usize) -> VarMap {
        VarMap { num_aux, ..self }
    }

    /// The variables of a blank cell (a contiguous range in both numberings) and the digit
    /// of each.
    fn cell_candidates(&self, cell: Cell) -> impl Iterator<Item = (Var, Digit)> + '_ {
        let n = self.puzzle.side();
        let (range, free) = match &self.compact {
            None => (cell.index() * n..cell.index() * n + n, None),
            Some(free) => (free.cell_range(cell), Some(free)),
        };
        let first = range.start;
        range.map(move |i| {
            let digit = match free {
                None => Digit((i - first + 1) as u16),
                Some(free) => Digit(free.digits[i]),
            };
            (Var::from_index(i), digit)
        })
    }

    /// The puzzle this map belongs to.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// Number of auxiliary variables (segments, at-most-one auxiliaries).
    pub fn num_aux(&self) -> usize {
        self.num_aux
    }

    /// Number of variables of the formula: cell variables and auxiliaries.
    pub fn num_vars(&self) -> usize {
        self.num_vars + self.num_aux
    }

    /// Number of variables that stand for a (cell, digit): `1..=num_cell_vars()` in DIMACS
    /// numbering; the auxiliaries follow.
    pub fn num_cell_vars(&self) -> usize {
        self.num_vars
    }

    /// Whether this is the reduced (compact) numbering.
    pub fn is_reduced(&self) -> bool {
        self.compact.is_some()
    }

    /// What (cell, digit) is.
    #[inline]
    pub fn var(&self, cell: Cell, digit: Digit) -> VarRef {
        let n = self.puzzle.side();
        match &self.compact {
            None => VarRef::Var(Var::from_index(cell.index() * n + digit.get() - 1)),
            Some(free) => match self.puzzle.get(cell) {
                Some(given) if given == digit => VarRef::True,
                Some(_) => VarRef::False,
                None => {
                    let range = free.cell_range(cell);
                    let start = range.start;
                    match free.digits[range].binary_search(&digit.0) {
                        Ok(k) => VarRef::Var(Var::from_index(start + k)),
                        Err(_) => VarRef::False,
                    }
                }
            },
        }
    }

    /// The (cell, digit) of a variable, by inverse lookup.
    pub fn cell_digit(&self, var: Var) -> Option<(Cell, Digit)> {
        let n = self.puzzle.side();
        if var.index() >= self.num_vars {
            return None;
        }
        match &self.compact {
            None => Some((
                Cell((var.index() / n) as u32),
                Digit((var.index() % n + 1) as u16),
            )),
            Some(free) => {
                // The last cell whose variables start at or before `var`.
                let cell = free.starts.partition_point(|&s| s as usize <= var.index()) - 1;
                Some((Cell(cell as u32), Digit(free.digits[var.index()])))
            }
        }
    }

    /// Every formula variable that stands for a (cell, digit), ascending.
    pub fn cell_vars(&self) -> impl Iterator<Item = Var> + '_ {
        (0..self.num_vars).map(Var::from_index)
    }

    /// Decodes a model into a grid and checks it: every cell exactly one digit, no rule
    /// broken, every given kept.
    ///
    /// # Errors
    /// A [`DecodeError`] saying which cell or rule is wrong.
    pub fn decode(&self, model: &Model) -> Result<Grid, DecodeError> {
        self.decode_for(model, &self.puzzle)
    }

    /// [`VarMap::decode`], with the givens checked being `puzzle`'s: the map's own puzzle,
    /// or any puzzle of its size when the map is the empty grid's (a batch solving each
    /// puzzle under assumptions), so that the rules are checked once. A puzzle of another
    /// size is a [`DecodeError::NotASolution`].
    ///
    /// # Errors
    /// A [`DecodeError`] saying which cell or rule is wrong.
    pub fn decode_for(&self, model: &Model, puzzle: &Grid) -> Result<Grid, DecodeError> {
        let mut grid = self.puzzle.clone();
        self.decode_into(model, puzzle, &mut grid)?;
        Ok(grid)
    }

    /// [`VarMap::decode_for`] into `grid`, whose buffer is reused (a batch decodes every
    /// answer into one grid).
    ///
    /// # Errors
    /// A [`DecodeError`] saying which cell or rule is wrong.
    pub fn decode_into(
        &self,
        model: &Model,
        puzzle: &Grid,
        grid: &mut Grid,
    ) -> Result<(), DecodeError> {
        if model.len() < self.num_vars() {
            return Err(DecodeError::TooShort {
                expected: self.num_vars(),
                found: model.len(),
            });
        }
        let geo = self.puzzle.geometry();
        grid.clone_from(&self.puzzle);
        if self.compact.is_none() && self.decode_base(model, grid) {
            return self.check_decoded(puzzle, grid);
        }
        for cell in geo.cells() {
            // A given's variables are fixed in the reduced numbering; in the base one they
            // are read like any other cell's.
            if self.compact.is_some() && self.puzzle.get(cell).is_some() {
                continue;
            }
            let mut found: Option<Digit> = None;
            let mut several = false;
            for (var, digit) in self.cell_candidates(cell) {
                if model.value(var) {
                    several |= found.is_some();
                    found.get_or_insert(digit);
                }
            }
            if several {
                let digits: Vec<String> = self
                    .cell_candidates(cell)
                    .filter(|&(v, _)| model.value(v))
                    .map(|(_, d)| d.to_string())
                    .collect();
                return Err(DecodeError::SeveralValues {
                    cell: geo.cell_label(cell),
                    count: digits.len(),
                    digits: digits.join(","),
                });
            }
            match found {
                Some(digit) => grid.set(cell, Some(digit)),
                None => {
                    return Err(DecodeError::EmptyCell {
                        cell: geo.cell_label(cell),
                    })
                }
            }
        }
        self.check_decoded(puzzle, grid)
    }

    /// The base numbering's model read cell by cell, each cell's `n` values side by side:
    /// `false` when some cell holds no digit or several (the general loop then says which).
    fn decode_base(&self, model: &Model, grid: &mut Grid) -> bool {
        let n = self.puzzle.side();
        let cells = grid.values().len();
        let Some(values) = model.values().get(..cells * n) else {
            return false;
        };
        for (i, digits) in values.chunks_exact(n).enumerate() {
            let mut found = 0;
            for (d, &on) in digits.iter().enumerate() {
                if on {
                    if found != 0 {
                        return false;
                    }
                    found = d + 1;
                }
            }
            if found == 0 {
                return false;
            }
            grid.set(Cell(i as u32), Some(Digit(found as u16)));
        }
        true
    }

    /// Checks a decoded grid against the rules and `puzzle`'s givens.
    fn check_decoded(&self, puzzle: &Grid, grid: &Grid) -> Result<(), DecodeError> {
        let geo = self.puzzle.geometry();
        let report = check_solution(puzzle, grid);
        if let Some(v) = report.violations.first() {
            let what = match v {
                Violation::Repeated { unit, digit, .. } => {
                    format!("{} repeats {digit}", geo.unit_label(*unit))
                }
                Violation::GivenChanged { cell, given, .. } => {
                    format!(
                        "cell {} contradicts the given {given}",
                        geo.cell_label(*cell)
                    )
                }
                Violation::Blank { cell } => format!("cell {} is blank", geo.cell_label(*cell)),
                Violation::SizeMismatch { puzzle, solution } => {
                    format!("size {solution} differs from the puzzle's {puzzle}")
                }
            };
            return Err(DecodeError::NotASolution(what));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_numbering_matches_formula() {
        let puzzle = Grid::empty(3).unwrap();
        let map = VarMap::base(&puzzle);
        // (r,c,v) = (2,3,4) → (2-1)·81 + (3-1)·9 + 4 = 103
        let cell = puzzle.geometry().cell(1, 2);
        assert_eq!(map.var(cell, Digit(4)), VarRef::Var(Var::from_dimacs(103)));
        assert_eq!(
            map.cell_digit(Var::from_dimacs(103)),
            Some((cell, Digit(4)))
        );
        assert_eq!(map.num_vars(), 729);
    }

    #[test]
    fn reduced_numbering_is_compact_and_canonical() {
        let mut puzzle = Grid::empty(2).unwrap();
        puzzle.set(Cell(0), Some(Digit(1)));
        let map = VarMap::reduced(&puzzle);
        assert_eq!(map.var(Cell(0), Digit(1)), VarRef::True);
        assert_eq!(map.var(Cell(0), Digit(2)), VarRef::False);
        assert_eq!(map.var(Cell(1), Digit(1)), VarRef::False);
        assert_eq!(map.var(Cell(1), Digit(2)), VarRef::Var(Var::from_dimacs(1)));
        // 15 blank cells × 4 digits, minus digit 1 in the 7 peers of cell 0.
        assert_eq!(map.num_vars(), 15 * 4 - 7);
    }

    #[test]
    fn reduced_inverse_lookup_round_trips() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let map = VarMap::reduced(&puzzle);
        let mut seen = 0;
        for cell in puzzle.geometry().cells() {
            for d in puzzle.geometry().digits() {
                if let VarRef::Var(v) = map.var(cell, d) {
                    assert_eq!(v.index(), seen, "cell-major, ascending digit");
                    assert_eq!(map.cell_digit(v), Some((cell, d)));
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, map.num_vars());
        assert_eq!(map.cell_digit(Var::from_index(seen)), None);
    }

    #[test]
    fn decode_for_checks_the_puzzles_givens_with_the_empty_grids_map() {
        // A 4×4 solution, as the model of the empty grid's base numbering.
        let solution: Grid = "1234341221434321".parse().unwrap();
        let map = VarMap::base(&Grid::empty(2).unwrap());
        let model = Model::from_lits(
            map.num_vars(),
            solution.geometry().cells().flat_map(|cell| {
                let digit = solution.get(cell).unwrap();
                match map.var(cell, digit) {
                    VarRef::Var(v) => Some(v.positive()),
                    _ => None,
                }
            }),
        );
        let kept: Grid = "1...........4...".parse().unwrap();
        assert_eq!(map.decode_for(&model, &kept).unwrap(), solution);
        // r1c2 holds 2 in the model, the puzzle gives 3 there.
        let changed: Grid = ".3..............".parse().unwrap();
        match map.decode_for(&model, &changed) {
            Err(DecodeError::NotASolution(what)) => {
                assert_eq!(what, "cell r1c2 contradicts the given 3")
            }
            other => panic!("expected a contradicted given, got {other:?}"),
        }
        match map.decode_for(&model, &Grid::empty(3).unwrap()) {
            Err(DecodeError::NotASolution(what)) => {
                assert_eq!(what, "size 4 differs from the puzzle's 9")
            }
            other => panic!("expected a size mismatch, got {other:?}"),
        }
    }
}
