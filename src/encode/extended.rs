//! The *extended* encoding of Lynce & Ouaknine (2006, "Sudoku as a SAT Problem"): the
//! minimal encoding plus every cell at most one value (pairwise) and every row, column and
//! box each value at least once.
//!
//! For the empty grid it has 4n² + 2n³(n−1) clauses (11,988 at 9×9) and exactly 4n⁴
//! literals.

use super::minimal::{base_var, cell_at_least_one, givens, unit_at_most_one};
use crate::formula::{ClauseSink, FormulaSize, Lit};
use crate::grid::{Geometry, Grid};

/// Each cell ≤ 1 value, pairwise: n² · n(n−1)/2 binary clauses.
fn cell_at_most_one<S: ClauseSink + ?Sized>(geo: &Geometry, sink: &mut S) {
    let n = geo.side();
    for cell in geo.cells() {
        for d in geo.digits() {
            let nd = base_var(n, cell, d).negative();
            for e in geo.digits().skip(d.get()) {
                sink.add_clause(&[nd, base_var(n, cell, e).negative()]);
            }
        }
    }
}

/// Each unit holds each value ≥ 1 time: 3n² clauses of n literals.
fn unit_at_least_one<S: ClauseSink + ?Sized>(geo: &Geometry, sink: &mut S, clause: &mut Vec<Lit>) {
    let n = geo.side();
    for unit in geo.units() {
        let cells = geo.unit_cells(unit);
        for d in geo.digits() {
            clause.clear();
            clause.extend(cells.iter().map(|&c| base_var(n, c, d).positive()));
            sink.add_clause(clause);
        }
    }
}

/// Streams the extended encoding of `puzzle`.
pub fn encode_extended<S: ClauseSink + ?Sized>(puzzle: &Grid, sink: &mut S) {
    let geo = puzzle.geometry();
    let n = geo.side();
    sink.reserve_vars(n * n * n);
    let mut clause = Vec::with_capacity(n);
    cell_at_least_one(geo, sink, &mut clause);
    cell_at_most_one(geo, sink);
    unit_at_most_one(geo, sink);
    unit_at_least_one(geo, sink, &mut clause);
    givens(puzzle, sink);
}

/// Closed-form size of the extended encoding with `num_givens` givens on an n×n grid:
/// n³ variables, 4n² + 2n³(n−1) + g clauses, 4n⁴ + g literals.
pub fn extended_size(n: usize, num_givens: usize) -> FormulaSize {
    let n3 = n * n * n;
    FormulaSize {
        vars: n3,
        clauses: 4 * n * n + 2 * n3 * (n - 1) + num_givens,
        literals: 4 * n3 * n + num_givens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::CountingSink;

    #[test]
    fn literature_counts() {
        assert_eq!(extended_size(9, 0).clauses, 11_988);
        assert_eq!(extended_size(16, 0).clauses, 123_904);
        assert_eq!(extended_size(81, 0).clauses, 85_056_804);
    }

    #[test]
    fn closed_form_matches_stream() {
        for b in 2..=5 {
            let grid = Grid::empty(b).unwrap();
            let mut counter = CountingSink::default();
            encode_extended(&grid, &mut counter);
            assert_eq!(counter.size, extended_size(b * b, 0), "b = {b}");
        }
    }
}
