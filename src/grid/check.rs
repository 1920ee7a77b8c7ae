//! Rule checking: which unit repeats which digit in which cells, and whether a solution
//! keeps its puzzle's givens.

use std::fmt;

use super::{Cell, Digit, Geometry, Grid, Unit};

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

/// Checks that no unit repeats a digit (blanks allowed). Violations come in unit order
/// (rows, columns, boxes), then digit order.
pub fn check_grid(grid: &Grid) -> CheckReport {
    if breaks_no_rule(grid, None) {
        return CheckReport::default();
    }
    let geo = grid.geometry();
    let mut violations = Vec::new();
    // Filled only for a unit that may repeat: most checks never allocate it.
    let mut counts = Vec::new();
    for unit in geo.units() {
        let cells = geo.unit_cells(unit);
        // Up to 63 digits a bit mask finds a repeat (the common answer: none) without the
        // count table, which is filled only for a unit that repeats.
        if grid.side() < 64 {
            let mut mask = 0u64;
            let repeated = cells.iter().any(|&cell| {
                grid.get(cell).is_some_and(|d| {
                    let bit = 1u64 << d.get();
                    let again = mask & bit != 0;
                    mask |= bit;
                    again
                })
            });
            if !repeated {
                continue;
            }
        }
        counts.clear();
        counts.resize(grid.side() + 1, 0u32);
        let mut repeated = false;
        for &cell in cells {
            if let Some(d) = grid.get(cell) {
                counts[d.get()] += 1;
                repeated |= counts[d.get()] > 1;
            }
        }
        if !repeated {
            continue;
        }
        for digit in geo.digits().filter(|d| counts[d.get()] > 1) {
            violations.push(Violation::Repeated {
                unit,
                digit,
                cells: cells
                    .iter()
                    .copied()
                    .filter(|&c| grid.get(c) == Some(digit))
                    .collect(),
            });
        }
    }
    CheckReport { violations }
}

/// Checks that `solution` is full, breaks no rule and keeps every given of `puzzle`.
///
/// A blank cell is reported once: as [`Violation::GivenChanged`] (found `None`) where the
/// puzzle has a given, as [`Violation::Blank`] elsewhere.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> CheckReport {
    if puzzle.side() != solution.side() {
        return CheckReport {
            violations: vec![Violation::SizeMismatch {
                puzzle: puzzle.side(),
                solution: solution.side(),
            }],
        };
    }
    if breaks_no_rule(solution, Some(puzzle)) {
        return CheckReport::default();
    }
    let mut report = check_grid(solution);
    for cell in solution.geometry().cells() {
        let found = solution.get(cell);
        match puzzle.get(cell) {
            Some(given) if found != Some(given) => {
                report
                    .violations
                    .push(Violation::GivenChanged { cell, given, found });
            }
            None if found.is_none() => report.violations.push(Violation::Blank { cell }),
            _ => {}
        }
    }
    report
}

/// Whether `grid` repeats no digit in a unit and, with `puzzle`, is full and keeps its
/// givens: one pass over the cells with a bit mask per unit, for sides below 64 (`false`
/// above, and whenever something is wrong: the full check then says what). Every answer
/// of a batch is checked, so the common answer, "nothing wrong", takes the short way.
fn breaks_no_rule(grid: &Grid, puzzle: Option<&Grid>) -> bool {
    let geo = grid.geometry();
    if geo.side() >= 64 {
        return false;
    }
    let mut seen = [0u64; 3 * 63];
    let givens = puzzle.map(Grid::values);
    for (i, &v) in grid.values().iter().enumerate() {
        if let Some(givens) = givens {
            if v == 0 || (givens[i] != 0 && givens[i] != v) {
                return false;
            }
        } else if v == 0 {
            continue;
        }
        let bit = 1u64 << v;
        for unit in geo.units_of(Cell(i as u32)) {
            let mask = &mut seen[unit.0 as usize];
            if *mask & bit != 0 {
                return false;
            }
            *mask |= bit;
        }
    }
    true
}

impl Violation {
    /// A one-line description with 1-based labels, e.g. `row 3 repeats 5 at r3c1, r3c7`;
    /// the geometry names units and cells.
    pub fn display<'a>(&'a self, geometry: &'a Geometry) -> DisplayViolation<'a> {
        DisplayViolation {
            violation: self,
            geometry,
        }
    }
}

/// A [`Violation`] with the geometry to label it; see [`Violation::display`].
pub struct DisplayViolation<'a> {
    violation: &'a Violation,
    geometry: &'a Geometry,
}

impl fmt::Display for DisplayViolation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let geo = self.geometry;
        match self.violation {
            Violation::Repeated { unit, digit, cells } => {
                write!(f, "{} repeats {digit} at ", geo.unit_label(*unit))?;
                for (i, &cell) in cells.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&geo.cell_label(cell))?;
                }
                Ok(())
            }
            Violation::GivenChanged {
                cell,
                given,
                found: Some(found),
            } => write!(
                f,
                "{} is {found} but the puzzle gives {given}",
                geo.cell_label(*cell)
            ),
            Violation::GivenChanged {
                cell,
                given,
                found: None,
            } => write!(
                f,
                "{} is blank but the puzzle gives {given}",
                geo.cell_label(*cell)
            ),
            Violation::Blank { cell } => write!(f, "{} is blank", geo.cell_label(*cell)),
            Violation::SizeMismatch { puzzle, solution } => write!(
                f,
                "the solution is {solution}×{solution} but the puzzle is {puzzle}×{puzzle}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(line: &str) -> Grid {
        line.parse().unwrap()
    }

    fn described(report: &CheckReport, grid: &Grid) -> Vec<String> {
        report
            .violations
            .iter()
            .map(|v| v.display(grid.geometry()).to_string())
            .collect()
    }

    const PUZZLE: &str = "1.3....2.1....2.";
    const SOLUTION: &str = "1234341221434321";

    #[test]
    fn valid_puzzle_and_solution() {
        assert!(check_grid(&grid(PUZZLE)).is_valid());
        assert!(check_solution(&grid(PUZZLE), &grid(SOLUTION)).is_valid());
    }

    #[test]
    fn repeated_digits_are_labelled() {
        let g = grid("1..1............");
        let report = check_grid(&g);
        assert_eq!(
            described(&report, &g),
            vec!["row 1 repeats 1 at r1c1, r1c4"]
        );
        let mut g = Grid::empty(3).unwrap();
        g.set(Cell(0), Some(Digit(5)));
        g.set(Cell(9), Some(Digit(5)));
        assert_eq!(
            described(&check_grid(&g), &g),
            vec![
                "column 1 repeats 5 at r1c1, r2c1",
                "box 1 repeats 5 at r1c1, r2c1"
            ]
        );
    }

    #[test]
    fn repeats_of_the_largest_digit_on_both_sides_of_the_bit_mask() {
        // 49×49 takes the bit-mask pass, 64×64 the count table only.
        for (box_size, label) in [(7, "r1c1, r1c49"), (8, "r1c1, r1c64")] {
            let mut g = Grid::empty(box_size).unwrap();
            let n = g.side();
            g.set(Cell(0), Some(Digit(n as u16)));
            g.set(Cell(n as u32 - 1), Some(Digit(n as u16)));
            assert_eq!(
                described(&check_grid(&g), &g),
                vec![format!("row 1 repeats {n} at {label}")]
            );
        }
    }

    #[test]
    fn solution_problems() {
        let puzzle = grid(PUZZLE);
        let wrong = grid("2234341221434321");
        assert_eq!(
            described(&check_solution(&puzzle, &wrong), &wrong),
            vec![
                "row 1 repeats 2 at r1c1, r1c2",
                "column 1 repeats 2 at r1c1, r3c1",
                "box 1 repeats 2 at r1c1, r1c2",
                "r1c1 is 2 but the puzzle gives 1",
            ]
        );
        let partial = grid("1.34341221434321");
        assert_eq!(
            described(&check_solution(&puzzle, &partial), &partial),
            vec!["r1c2 is blank"]
        );
        let blanked = grid(".234341221434321");
        assert_eq!(
            described(&check_solution(&puzzle, &blanked), &blanked),
            vec!["r1c1 is blank but the puzzle gives 1"]
        );
        let big = Grid::empty(3).unwrap();
        assert_eq!(
            described(&check_solution(&puzzle, &big), &big),
            vec!["the solution is 9×9 but the puzzle is 4×4"]
        );
    }
}
