//! Hidden single: a digit with one possible cell in a unit goes there.

use crate::grid::UnitKind;

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first unit (boxes, then rows, then columns, as a player scans) where a digit has
/// exactly one place.
pub fn find(board: &Board) -> Option<Deduction> {
    let geo = board.geometry();
    [UnitKind::Box, UnitKind::Row, UnitKind::Column]
        .into_iter()
        .flat_map(|kind| board.units_of_kind(kind))
        .find_map(|unit| {
            geo.digits().find_map(|d| {
                let places = board.places(unit, d);
                (places.len() == 1).then(|| Deduction {
                    strategy: Strategy::HiddenSingle,
                    units: vec![unit],
                    cells: places.clone(),
                    digits: vec![d],
                    placed: Some((places[0], d)),
                    removed: Vec::new(),
                })
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Digit, Geometry};
    use crate::solve::human::tests::first_applicable;

    #[test]
    fn a_digit_with_one_place_in_a_box_goes_there() {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        let box2 = geo.unit(UnitKind::Box, 1);
        for &c in geo.unit_cells(box2) {
            if c != geo.cell(2, 4) {
                board.remove(c, Digit(7));
            }
        }
        let step = first_applicable(&board, Strategy::HiddenSingle);
        assert_eq!(step.placed, Some((geo.cell(2, 4), Digit(7))));
        assert_eq!(
            step.describe(geo),
            "hidden single: 7 can only go in r3c5 within box 2 → r3c5 = 7"
        );
    }
}
