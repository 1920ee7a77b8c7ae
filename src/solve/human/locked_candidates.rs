//! Locked candidates, both types as one rule: when a digit's places in one unit all lie in
//! one other unit, the digit goes in their intersection, so the rest of that other unit
//! loses it.
//!
//! - *Pointing* (type 1, [`Strategy::PointingPair`]): the places of a digit in a box lie in
//!   one row or column, which loses the digit outside the box.
//! - *Box-line reduction* (claiming, type 2, [`Strategy::BoxLineReduction`]): the places of
//!   a digit in a row or column lie in one box, which loses the digit outside the line.

use crate::grid::{Cell, Geometry, Unit, UnitKind};

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first step of `strategy` (pointing or box-line reduction) that removes something:
/// units searched in the order of the kinds the strategy reads from, digits ascending.
pub fn find(board: &Board, strategy: Strategy) -> Option<Deduction> {
    let (from, into): (&[UnitKind], &[UnitKind]) = match strategy {
        Strategy::PointingPair => (&[UnitKind::Box], &[UnitKind::Row, UnitKind::Column]),
        _ => (&[UnitKind::Row, UnitKind::Column], &[UnitKind::Box]),
    };
    let geo = board.geometry();
    from.iter()
        .flat_map(|&kind| board.units_of_kind(kind))
        .find_map(|unit| {
            geo.digits().find_map(|d| {
                let places = board.places(unit, d);
                if places.len() < 2 {
                    return None;
                }
                into.iter().find_map(|&kind| {
                    let other = unit_of(geo, kind, places[0]);
                    if places.iter().any(|&c| unit_of(geo, kind, c) != other) {
                        return None;
                    }
                    let removed = board
                        .places(other, d)
                        .into_iter()
                        .filter(|c| !places.contains(c))
                        .map(|c| (c, d))
                        .collect();
                    Deduction::removal(
                        strategy,
                        vec![unit, other],
                        places.clone(),
                        vec![d],
                        removed,
                    )
                })
            })
        })
}

/// The unit of `kind` that holds `cell`.
fn unit_of(geo: &Geometry, kind: UnitKind, cell: Cell) -> Unit {
    geo.units_of(cell)[kind as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Digit, Geometry};
    use crate::solve::human::tests::first_applicable;

    #[test]
    fn a_digit_confined_to_one_row_of_a_box_leaves_the_rest_of_the_row() {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        for r in 1..3 {
            for c in 0..3 {
                board.remove(geo.cell(r, c), Digit(4));
            }
        }
        let step = first_applicable(&board, Strategy::PointingPair);
        assert_eq!(step.removed.len(), 6);
        assert!(step
            .removed
            .iter()
            .all(|&(c, d)| geo.row_of(c) == 0 && d == Digit(4)));
        assert_eq!(
            step.describe(geo),
            "pointing pair: in box 1, 4 can only go in row 1 (r1c1, r1c2 and r1c3) → remove 4 \
             from r1c4, r1c5, r1c6, r1c7, r1c8 and r1c9"
        );
    }

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
