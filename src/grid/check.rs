//! Rule checking: which unit repeats which digit in which cells, and whether a solution
//! keeps its puzzle's givens.

use super::{Cell, Digit, Grid, Unit};

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A digit appears more than once in a unit.
    Repeated {
        /// The unit (row, column or box).
        unit: Unit,
        /// The repeated digit.
        digit: Digit,
        /// Every cell of the unit holding it.
        cells: Vec<Cell>,
    },
    /// A solution differs from a given of its puzzle.
    GivenChanged {
        /// The cell.
        cell: Cell,
        /// The puzzle's digit.
        given: Digit,
        /// What the solution holds there (`None` = blank).
        found: Option<Digit>,
    },
    /// A solution leaves a cell blank.
    Blank {
        /// The cell.
        cell: Cell,
    },
    /// Puzzle and solution have different sizes.
    SizeMismatch {
        /// The puzzle's side.
        puzzle: usize,
        /// The solution's side.
        solution: usize,
    },
}

/// The result of a check: empty when the grid is valid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Every violation found.
    pub violations: Vec<Violation>,
}

impl CheckReport {
    /// Whether no rule is broken.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Checks that no unit repeats a digit (blanks allowed).
pub fn check_grid(grid: &Grid) -> CheckReport {
    let geo = grid.geometry();
    let mut violations = Vec::new();
    let mut holders: Vec<Vec<Cell>> = vec![Vec::new(); grid.side() + 1];
    for unit in geo.units() {
        for h in holders.iter_mut() {
            h.clear();
        }
        for &cell in geo.unit_cells(unit) {
            if let Some(d) = grid.get(cell) {
                holders[d.get()].push(cell);
            }
        }
        for (d, cells) in holders.iter().enumerate() {
            if cells.len() > 1 {
                violations.push(Violation::Repeated {
                    unit,
                    digit: Digit(d as u16),
                    cells: cells.clone(),
                });
            }
        }
    }
    CheckReport { violations }
}

/// Checks that `solution` is full, breaks no rule and keeps every given of `puzzle`.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> CheckReport {
    if puzzle.side() != solution.side() {
        return CheckReport {
            violations: vec![Violation::SizeMismatch {
                puzzle: puzzle.side(),
                solution: solution.side(),
            }],
        };
    }
    let mut report = check_grid(solution);
    for cell in solution.geometry().cells() {
        if solution.get(cell).is_none() {
            report.violations.push(Violation::Blank { cell });
        }
        if let Some(given) = puzzle.get(cell) {
            let found = solution.get(cell);
            if found != Some(given) {
                report
                    .violations
                    .push(Violation::GivenChanged { cell, given, found });
            }
        }
    }
    report
}
