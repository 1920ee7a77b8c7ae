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
        let step = board.easiest().unwrap();
        assert_eq!(step.strategy, Strategy::NakedPair);
        assert_eq!(step.digits, vec![Digit(2), Digit(7)]);
        assert_eq!(step.removed.len(), 14);
    }

    #[test]
    fn naked_triple() {
        let board = row1_with(&[&[1, 2], &[2, 3], &[1, 3]]);
        let step = board.easiest().unwrap();
        assert_eq!(step.strategy, Strategy::NakedTriple);
        assert_eq!(step.removed.len(), 18);
    }

    #[test]
    fn naked_quad() {
        let board = row1_with(&[&[1, 2], &[2, 3], &[3, 4]]);
        let mut board = board;
        let geo = board.geometry();
        board.set_candidates(geo.cell(0, 8), &[1, 4]);
        let step = board.easiest().unwrap();
        assert_eq!(step.strategy, Strategy::NakedQuad);
        assert_eq!(step.cells.len(), 4);
    }
}
