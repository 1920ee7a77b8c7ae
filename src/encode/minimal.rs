//! The *minimal* encoding of Lynce & Ouaknine (2006, "Sudoku as a SAT Problem"): every cell
//! holds at least one value, every row, column and box holds each value at most once
//! (pairwise), plus one unit clause per given.
//!
//! For the empty grid it has n² + (3/2)·n³·(n−1) clauses (8,829 at 9×9): boxes get all
//! their pairs, including those that repeat a row or column pair, as in the literature.

use crate::formula::{ClauseSink, FormulaSize, Lit, Var};
use crate::grid::{Cell, Digit, Geometry, Grid};

/// The base variable of (cell, digit): `(r-1)·n² + (c-1)·n + v` in DIMACS numbering.
#[inline]
pub fn base_var(n: usize, cell: Cell, digit: Digit) -> Var {
    Var::from_index(cell.index() * n + digit.get() - 1)
}

/// Each cell ≥ 1 value: n² clauses of n literals.
pub(crate) fn cell_at_least_one<S: ClauseSink + ?Sized>(
    geo: &Geometry,
    sink: &mut S,
    clause: &mut Vec<Lit>,
) {
    let n = geo.side();
    for cell in geo.cells() {
        clause.clear();
        clause.extend(geo.digits().map(|d| base_var(n, cell, d).positive()));
        sink.add_clause(clause);
    }
}

/// Each unit holds each value ≤ 1 time, pairwise: 3n · n · n(n−1)/2 binary clauses.
pub(crate) fn unit_at_most_one<S: ClauseSink + ?Sized>(geo: &Geometry, sink: &mut S) {
    let n = geo.side();
    for unit in geo.units() {
        let cells = geo.unit_cells(unit);
        for d in geo.digits() {
            for (i, &a) in cells.iter().enumerate() {
                let na = base_var(n, a, d).negative();
                for &b in &cells[i + 1..] {
                    sink.add_clause(&[na, base_var(n, b, d).negative()]);
                }
            }
        }
    }
}

/// One unit clause per given.
pub(crate) fn givens<S: ClauseSink + ?Sized>(puzzle: &Grid, sink: &mut S) {
    let n = puzzle.side();
    for (cell, d) in puzzle.givens() {
        sink.add_clause(&[base_var(n, cell, d).positive()]);
    }
}

/// Streams the minimal encoding of `puzzle`.
pub fn encode_minimal<S: ClauseSink + ?Sized>(puzzle: &Grid, sink: &mut S) {
    let geo = puzzle.geometry();
    let n = geo.side();
    sink.reserve_vars(n * n * n);
    let mut clause = Vec::with_capacity(n);
    cell_at_least_one(geo, sink, &mut clause);
    unit_at_most_one(geo, sink);
    givens(puzzle, sink);
}

/// Closed-form size of the minimal encoding with `num_givens` givens on an n×n grid:
/// n³ variables, n² + (3/2)n³(n−1) + g clauses, 3n⁴ − 2n³ + g literals.
pub fn minimal_size(n: usize, num_givens: usize) -> FormulaSize {
    let n3 = n * n * n;
    FormulaSize {
        vars: n3,
        clauses: n * n + 3 * n3 * (n - 1) / 2 + num_givens,
        literals: 3 * n3 * n - 2 * n3 + num_givens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::CountingSink;

    #[test]
    fn literature_counts() {
        assert_eq!(minimal_size(9, 0).clauses, 8_829);
        assert_eq!(minimal_size(16, 0).clauses, 92_416);
    }

    #[test]
    fn closed_form_matches_stream() {
        for b in 2..=5 {
            let grid = Grid::empty(b).unwrap();
            let mut counter = CountingSink::default();
            encode_minimal(&grid, &mut counter);
            assert_eq!(counter.size, minimal_size(b * b, 0), "b = {b}");
        }
    }

    #[test]
    fn variable_numbering_is_exact() {
        let n = 9;
        let geo = Geometry::of(3).unwrap();
        for (r, c, v) in [(1, 1, 1), (2, 3, 4), (9, 9, 9), (5, 1, 7)] {
            let var = base_var(n, geo.cell(r - 1, c - 1), Digit(v as u16));
            assert_eq!(var.to_dimacs(), (r - 1) * n * n + (c - 1) * n + v);
        }
    }
}
