//! Hidden pairs, triples and quads: k digits that can only go in the same k cells of a
//! unit fill those cells, so the cells lose every other candidate.

use crate::grid::{Cell, Digit};

use super::prelude::{combinations, Board, Deduction};
use super::Strategy;

/// The first hidden subset of `size` digits (2, 3 or 4) that removes a candidate.
pub fn find(board: &Board, size: usize, strategy: Strategy) -> Option<Deduction> {
    let geo = board.geometry();
    geo.units().find_map(|unit| {
        let open: Vec<(Digit, Vec<Cell>)> = geo
            .digits()
            .map(|d| (d, board.places(unit, d)))
            .filter(|(_, places)| (2..=size).contains(&places.len()))
            .collect();
        combinations(open.len(), size).into_iter().find_map(|pick| {
            let mut cells: Vec<Cell> = pick
                .iter()
                .flat_map(|&i| open[i].1.iter().copied())
                .collect();
            cells.sort();
            cells.dedup();
            if cells.len() != size {
                return None;
            }
            let digits: Vec<Digit> = pick.iter().map(|&i| open[i].0).collect();
            let removed = cells
                .iter()
                .flat_map(|&c| {
                    board
                        .candidates(c)
                        .iter()
                        .filter(|d| !digits.contains(d))
                        .map(move |d| (c, d))
                        .collect::<Vec<_>>()
                })
                .collect();
            Deduction::removal(strategy, vec![unit], cells, digits, removed)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;
    use crate::solve::human::tests::first_applicable;

    /// Row 1 where `digits` may only go in columns `cols` (0-based).
    fn confined(digits: &[u16], cols: &[usize]) -> Board {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        for col in (0..9).filter(|c| !cols.contains(c)) {
            for &d in digits {
                board.remove(geo.cell(0, col), Digit(d));
            }
        }
        board
    }

    #[test]
    fn hidden_pair() {
        let board = confined(&[2, 7], &[0, 4]);
        let step = first_applicable(&board, Strategy::HiddenPair);
        assert_eq!(step.removed.len(), 14);
        assert_eq!(
            step.describe(board.geometry()),
            "hidden pair: in row 1, 2 and 7 can only go in r1c1 and r1c5 → remove 1, 3, 4, 5, \
             6, 8 and 9 from r1c1 and r1c5"
        );
    }

    #[test]
    fn hidden_triple() {
        let board = confined(&[1, 2, 3], &[0, 4, 8]);
        let step = first_applicable(&board, Strategy::HiddenTriple);
        assert_eq!(step.removed.len(), 18);
        assert_eq!(
            step.describe(board.geometry()),
            "hidden triple: in row 1, 1, 2 and 3 can only go in r1c1, r1c5 and r1c9 → remove \
             4, 5, 6, 7, 8 and 9 from r1c1, r1c5 and r1c9"
        );
    }

    #[test]
    fn hidden_quad() {
        let board = confined(&[1, 2, 3, 4], &[0, 3, 4, 8]);
        let step = first_applicable(&board, Strategy::HiddenQuad);
        assert_eq!(step.removed.len(), 20);
        assert_eq!(
            step.describe(board.geometry()),
            "hidden quad: in row 1, 1, 2, 3 and 4 can only go in r1c1, r1c4, r1c5 and r1c9 → \
             remove 5, 6, 7, 8 and 9 from r1c1, r1c4, r1c5 and r1c9"
        );
    }
}
