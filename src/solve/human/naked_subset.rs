//! Naked pairs, triples and quads: k blank cells of a unit whose candidates together are
//! k digits take those digits, so the rest of the unit loses them.

use crate::grid::{Digit, DigitSet};

use super::prelude::{combinations, Board, Deduction};
use super::Strategy;

/// The first naked subset of `size` cells (2, 3 or 4) that removes a candidate.
pub fn find(board: &Board, size: usize, strategy: Strategy) -> Option<Deduction> {
    let geo = board.geometry();
    geo.units().find_map(|unit| {
        let blanks = board.blank_cells(unit);
        let small: Vec<_> = blanks
            .iter()
            .copied()
            .filter(|&c| (2..=size).contains(&board.candidates(c).len()))
            .collect();
        combinations(small.len(), size)
            .into_iter()
            .find_map(|pick| {
                let cells: Vec<_> = pick.iter().map(|&i| small[i]).collect();
                let union = cells
                    .iter()
                    .fold(DigitSet::EMPTY, |s, &c| s.union(&board.candidates(c)));
                if union.len() != size {
                    return None;
                }
                let digits: Vec<Digit> = union.iter().collect();
                let removed = blanks
                    .iter()
                    .filter(|c| !cells.contains(c))
                    .flat_map(|&c| {
                        digits
                            .iter()
                            .filter(move |&&d| board.candidates(c).contains(d))
                            .map(move |&d| (c, d))
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

    fn row1_with(sets: &[&[u16]]) -> Board {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        for (col, set) in sets.iter().enumerate() {
            board.set_candidates(geo.cell(0, col * 3), set);
        }
        board
    }

    #[test]
    fn naked_pair() {
        let board = row1_with(&[&[2, 7], &[2, 7]]);
        let step = first_applicable(&board, Strategy::NakedPair);
        assert_eq!(step.digits, vec![Digit(2), Digit(7)]);
        assert_eq!(step.removed.len(), 14);
        assert_eq!(
            step.describe(board.geometry()),
            "naked pair: in row 1, r1c1 and r1c4 can only hold 2 and 7 → remove 2 and 7 from \
             r1c2, r1c3, r1c5, r1c6, r1c7, r1c8 and r1c9"
        );
    }

    #[test]
    fn naked_triple() {
        // No two of the cells hold the same pair, so no naked pair applies.
        let board = row1_with(&[&[1, 2], &[2, 3], &[1, 3]]);
        let step = first_applicable(&board, Strategy::NakedTriple);
        assert_eq!(step.removed.len(), 18);
        assert_eq!(
            step.describe(board.geometry()),
            "naked triple: in row 1, r1c1, r1c4 and r1c7 can only hold 1, 2 and 3 → remove 1, \
             2 and 3 from r1c2, r1c3, r1c5, r1c6, r1c8 and r1c9"
        );
    }

    #[test]
    fn naked_quad() {
        // Every three of the cells together hold four digits: no triple applies.
        let mut board = row1_with(&[&[1, 2], &[2, 3], &[3, 4]]);
        let geo = board.geometry();
        board.set_candidates(geo.cell(0, 8), &[1, 4]);
        let step = first_applicable(&board, Strategy::NakedQuad);
        assert_eq!(step.cells.len(), 4);
        assert_eq!(
            step.describe(geo),
            "naked quad: in row 1, r1c1, r1c4, r1c7 and r1c9 can only hold 1, 2, 3 and 4 → \
             remove 1, 2, 3 and 4 from r1c2, r1c3, r1c5, r1c6 and r1c8"
        );
    }
}
