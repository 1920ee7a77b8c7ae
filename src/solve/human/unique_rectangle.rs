//! Unique rectangle, type 1: four cells on two rows, two columns and exactly two boxes
//! cannot all hold only the same pair {x, y}, or x and y could be swapped and the puzzle
//! would have two solutions. So when three corners hold exactly {x, y}, the fourth corner
//! loses x and y. Valid only for puzzles with a unique solution (the solver retries
//! without it when a run ends without one).

use crate::grid::{Cell, DigitSet};

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first type-1 unique rectangle that removes something.
pub fn find(board: &Board) -> Option<Deduction> {
    let geo = board.geometry();
    let n = geo.side();
    let bivalue = |c: Cell| board.value(c).is_none() && board.candidates(c).len() == 2;
    geo.cells().filter(|&a| bivalue(a)).find_map(|a| {
        let pair: DigitSet = board.candidates(a);
        let (r1, c1) = (geo.row_of(a), geo.col_of(a));
        (0..n).filter(|&c2| c2 != c1).find_map(|c2| {
            let b = geo.cell(r1, c2);
            if !bivalue(b) || board.candidates(b) != pair {
                return None;
            }
            (0..n).filter(|&r2| r2 != r1).find_map(|r2| {
                let c = geo.cell(r2, c1);
                let d = geo.cell(r2, c2);
                if !bivalue(c) || board.candidates(c) != pair || board.value(d).is_some() {
                    return None;
                }
                let mut boxes: Vec<usize> = [a, b, c, d].iter().map(|&x| geo.box_of(x)).collect();
                boxes.sort();
                boxes.dedup();
                let rest = board.candidates(d);
                if boxes.len() != 2 || rest.len() <= 2 || rest.intersection(&pair) != pair {
                    return None;
                }
                let digits: Vec<_> = pair.iter().collect();
                let removed = digits.iter().map(|&x| (d, x)).collect();
                Deduction::removal(
                    Strategy::UniqueRectangle,
                    Vec::new(),
                    vec![a, b, c, d],
                    digits,
                    removed,
                )
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Digit, Geometry, UnitKind};
    use crate::solve::human::tests::first_applicable;

    #[test]
    fn three_bivalue_corners_clear_the_fourth() {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        let (a, b, c, d) = (
            geo.cell(0, 0),
            geo.cell(0, 3),
            geo.cell(1, 0),
            geo.cell(1, 3),
        );
        // Keep 3 and 8 out of the rest of row 1, column 1 and box 1, so no pair, pointing
        // or box-line step applies first.
        let units = [
            geo.unit(UnitKind::Row, 0),
            geo.unit(UnitKind::Column, 0),
            geo.unit(UnitKind::Box, 0),
        ];
        for unit in units {
            for &x in geo.unit_cells(unit) {
                if ![a, b, c].contains(&x) {
                    board.remove(x, Digit(3));
                    board.remove(x, Digit(8));
                }
            }
        }
        for x in [a, b, c] {
            board.set_candidates(x, &[3, 8]);
        }
        let step = first_applicable(&board, Strategy::UniqueRectangle);
        assert_eq!(step.removed, vec![(d, Digit(3)), (d, Digit(8))]);
        assert_eq!(
            step.describe(geo),
            "unique rectangle type 1: r1c1, r1c4 and r2c1 can only hold 3 and 8; if r2c4 could \
             only hold them too, they could swap around the rectangle and the puzzle would have \
             two solutions → remove 3 and 8 from r2c4"
        );
    }
}
