//! Pointing pairs and triples (locked candidates, type 1): when a digit's places in a box
//! all lie in one row (or column), the digit goes in that box's part of the line, so the
//! rest of the line loses it.

use crate::grid::UnitKind;

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first box and digit whose places point along a row or column and remove something.
pub fn find(board: &Board) -> Option<Deduction> {
    let geo = board.geometry();
    board.units_of_kind(UnitKind::Box).find_map(|bx| {
        geo.digits().find_map(|d| {
            let places = board.places(bx, d);
            if places.len() < 2 {
                return None;
            }
            [UnitKind::Row, UnitKind::Column]
                .into_iter()
                .find_map(|kind| {
                    let line_of = |c| match kind {
                        UnitKind::Row => geo.row_of(c),
                        _ => geo.col_of(c),
                    };
                    let line = line_of(places[0]);
                    if places.iter().any(|&c| line_of(c) != line) {
                        return None;
                    }
                    let line = geo.unit(kind, line);
                    let removed = board
                        .places(line, d)
                        .into_iter()
                        .filter(|c| !places.contains(c))
                        .map(|c| (c, d))
                        .collect();
                    Deduction::removal(
                        Strategy::PointingPair,
                        vec![bx, line],
                        places.clone(),
                        vec![d],
                        removed,
                    )
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
}
