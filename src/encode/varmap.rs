//! The map between (cell, digit) and CNF variables, and decoding a model into a grid.

use super::reduce::FreeVars;
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarMap {
    puzzle: Grid,
    /// `None` for the base numbering `(r-1)n² + (c-1)n + v`; otherwise one code per
    /// (cell, digit) in cell-major order: 0 = fixed false, `u32::MAX` = fixed true, else
    /// the 1-based DIMACS variable.
    compact: Option<Vec<u32>>,
    num_vars: usize,
}

const FIXED_FALSE: u32 = 0;
const FIXED_TRUE: u32 = u32::MAX;

impl VarMap {
    /// The base numbering: n³ variables, none fixed.
    pub fn base(puzzle: &Grid) -> VarMap {
        let n = puzzle.side();
        VarMap {
            puzzle: puzzle.clone(),
            compact: None,
            num_vars: n * n * n,
        }
    }

    /// The reduced numbering: givens' variables fixed true (V⁺), variables sharing a cell or
    /// a unit value with a given fixed false (V⁻), the rest numbered 1… cell-major, ascending
    /// digit.
    pub fn reduced(puzzle: &Grid) -> VarMap {
        let geo = puzzle.geometry();
        let n = geo.side();
        let free = FreeVars::of(puzzle);
        let mut codes = vec![FIXED_FALSE; n * n * n];
        let mut next = 0u32;
        for cell in geo.cells() {
            let base = cell.index() * n;
            if let Some(d) = puzzle.get(cell) {
                codes[base + d.get() - 1] = FIXED_TRUE;
            }
            let range = free.starts[cell.index()] as usize..free.starts[cell.index() + 1] as usize;
            for &d in &free.digits[range] {
                next += 1;
                codes[base + d as usize - 1] = next;
            }
        }
        VarMap {
            puzzle: puzzle.clone(),
            compact: Some(codes),
            num_vars: next as usize,
        }
    }

    /// The puzzle this map belongs to.
    pub fn puzzle(&self) -> &Grid {
        &self.puzzle
    }

    /// Number of variables of the formula.
    pub fn num_vars(&self) -> usize {
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
        let index = cell.index() * n + digit.get() - 1;
        match &self.compact {
            None => VarRef::Var(Var::from_index(index)),
            Some(codes) => match codes[index] {
                FIXED_FALSE => VarRef::False,
                FIXED_TRUE => VarRef::True,
                v => VarRef::Var(Var::from_dimacs(v as usize)),
            },
        }
    }

    /// The (cell, digit) of a variable, by inverse lookup.
    pub fn cell_digit(&self, var: Var) -> Option<(Cell, Digit)> {
        let n = self.puzzle.side();
        match &self.compact {
            None => (var.index() < self.num_vars).then(|| {
                (
                    Cell((var.index() / n) as u32),
                    Digit((var.index() % n + 1) as u16),
                )
            }),
            Some(codes) => codes
                .iter()
                .position(|&c| c != FIXED_FALSE && c != FIXED_TRUE && c as usize == var.to_dimacs())
                .map(|i| (Cell((i / n) as u32), Digit((i % n + 1) as u16))),
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
        if model.len() < self.num_vars {
            return Err(DecodeError::TooShort {
                expected: self.num_vars,
                found: model.len(),
            });
        }
        let geo = self.puzzle.geometry();
        let mut grid = Grid::empty(geo.box_size()).expect("puzzle has a valid size");
        for cell in geo.cells() {
            let digits: Vec<Digit> = geo
                .digits()
                .filter(|&d| match self.var(cell, d) {
                    VarRef::Var(v) => model.value(v),
                    VarRef::True => true,
                    VarRef::False => false,
                })
                .collect();
            match digits.as_slice() {
                [] => {
                    return Err(DecodeError::EmptyCell {
                        cell: geo.cell_label(cell),
                    })
                }
                [d] => grid.set(cell, Some(*d)),
                several => {
                    return Err(DecodeError::SeveralValues {
                        cell: geo.cell_label(cell),
                        count: several.len(),
                        digits: several
                            .iter()
                            .map(|d| d.to_string())
                            .collect::<Vec<_>>()
                            .join(","),
                    })
                }
            }
        }
        let report = check_solution(&self.puzzle, &grid);
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
        Ok(grid)
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
}
