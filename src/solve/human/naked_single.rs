//! Naked single: a blank cell with one candidate left takes it.

use super::prelude::{Board, Deduction};
use super::Strategy;

/// The first blank cell (reading order) with exactly one candidate.
pub fn find(board: &Board) -> Option<Deduction> {
    let geo = board.geometry();
    geo.cells().find_map(|cell| {
        let cands = board.candidates(cell);
        if board.value(cell).is_some() || cands.len() != 1 {
            return None;
        }
        let d = cands.iter().next()?;
        Some(Deduction {
            strategy: Strategy::NakedSingle,
            units: Vec::new(),
            cells: vec![cell],
            digits: vec![d],
            placed: Some((cell, d)),
            removed: Vec::new(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Digit, Geometry};
    use crate::solve::human::tests::first_applicable;

    #[test]
    fn a_lone_candidate_is_placed() {
        let geo = Geometry::of(3).unwrap();
        let mut board = Board::blank(geo);
        board.set_candidates(geo.cell(2, 4), &[7]);
        let step = first_applicable(&board, Strategy::NakedSingle);
        assert_eq!(step.placed, Some((geo.cell(2, 4), Digit(7))));
        assert_eq!(
            step.describe(geo),
            "naked single: 7 is the only candidate left in r3c5 → r3c5 = 7"
        );
    }
}
