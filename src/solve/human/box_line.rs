//! Box-line reduction (claiming, locked candidates type 2): when a digit's places in a row
//! or column all lie in one box, the digit goes in that part of the box, so the rest of
//! the box loses it.

use crate::grid::UnitKind;

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first row or column and digit confined to one box that removes something.
pub fn find(board: &Board) -> Option<Deduction> {
    let geo = board.geometry();
    [UnitKind::Row, UnitKind::Column]
        .into_iter()
        .flat_map(|kind| board.units_of_kind(kind))
        .find_map(|line| {
            geo.digits().find_map(|d| {
                let places = board.places(line, d);
                if places.len() < 2 {
                    return None;
                }
                let bx = geo.box_of(places[0]);
                if places.iter().any(|&c| geo.box_of(c) != bx) {
                    return None;
                }
                let bx = geo.unit(UnitKind::Box, bx);
                let removed = board
                    .places(bx, d)
                    .into_iter()
                    .filter(|c| !places.contains(c))
                    .map(|c| (c, d))
                    .collect();
                Deduction::removal(
                    Strategy::BoxLineReduction,
                    vec![line, bx],
                    places.clone(),
                    vec![d],
                    removed,
                )
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Digit, Geometry};
    use crate::solve::human::tests::first_applicable;

    #[test]
    fn a_digit_confined_to_one_box_of_a_row_leaves_the_rest_of_the_box() {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        for c in 3..9 {
            board.remove(geo.cell(0, c), Digit(4));
        }
        // Box 2 keeps 4 on rows 2 and 3, so no box points along a single line.
        let step = first_applicable(&board, Strategy::BoxLineReduction);
        assert_eq!(step.removed.len(), 6);
        assert!(step
            .removed
            .iter()
            .all(|&(c, _)| geo.box_of(c) == 0 && geo.row_of(c) > 0));
        assert_eq!(
            step.describe(geo),
            "box-line reduction: in row 1, 4 can only go in box 1 (r1c1, r1c2 and r1c3) → \
             remove 4 from r2c1, r2c2, r2c3, r3c1, r3c2 and r3c3"
        );
    }
}
