//! X-Wing: when a digit's places in two rows are the same two columns, it fills two
//! opposite corners of that rectangle, so the rest of both columns lose it (and the same
//! with rows and columns exchanged).

use crate::grid::{Cell, UnitKind};

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first X-Wing (rows as base, then columns) that removes something.
pub fn find(board: &Board) -> Option<Deduction> {
    let geo = board.geometry();
    [
        (UnitKind::Row, UnitKind::Column),
        (UnitKind::Column, UnitKind::Row),
    ]
    .into_iter()
    .find_map(|(base, cover)| {
        let cross = |c: Cell| match cover {
            UnitKind::Column => geo.col_of(c),
            _ => geo.row_of(c),
        };
        geo.digits().find_map(|d| {
            let pairs: Vec<(usize, [usize; 2], Vec<Cell>)> = (0..geo.side())
                .filter_map(|i| {
                    let places = board.places(geo.unit(base, i), d);
                    (places.len() == 2).then(|| (i, [cross(places[0]), cross(places[1])], places))
                })
                .collect();
            pairs.iter().enumerate().find_map(|(k, a)| {
                pairs[k + 1..].iter().find_map(|b| {
                    if a.1 != b.1 {
                        return None;
                    }
                    let corners: Vec<Cell> = a.2.iter().chain(&b.2).copied().collect();
                    let removed =
                        a.1.iter()
                            .flat_map(|&j| board.places(geo.unit(cover, j), d))
                            .filter(|c| !corners.contains(c))
                            .map(|c| (c, d))
                            .collect();
                    Deduction::removal(
                        Strategy::XWing,
                        vec![geo.unit(base, a.0), geo.unit(base, b.0)],
                        corners,
                        vec![d],
                        removed,
                    )
                })
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
    fn two_rows_with_the_same_two_columns_clear_those_columns() {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        for r in [1, 6] {
            for c in (0..9).filter(|&c| c != 2 && c != 7) {
                board.remove(geo.cell(r, c), Digit(5));
            }
        }
        let step = first_applicable(&board, Strategy::XWing);
        assert_eq!(step.removed.len(), 14);
        assert_eq!(
            step.describe(geo),
            "X-Wing: in rows 2 and 7, 5 can only go in columns 3 and 8 → remove 5 from r1c3, \
             r3c3, r4c3, r5c3, r6c3, r8c3, r9c3, r1c8, r3c8, r4c8, r5c8, r6c8, r8c8 and r9c8"
        );
    }
}
