//! The grid model: cells, digits, puzzles and candidate sets for any box size b = 2…20.
//!
//! A [`Grid`] is a flat row-major vector of digits (0 = blank) plus a reference to the shared
//! [`Geometry`] of its box size; no per-cell heap allocation anywhere.

mod board;
mod cell;
pub mod check;
pub mod format;
mod formats;
mod geometry;
mod lex;
pub mod parse;
pub mod svg;
pub mod symmetry;

pub use board::Grid;
pub use cell::{Cell, Digit, DigitSet};
pub use check::{check_grid, check_solution, CheckReport, DisplayViolation, Violation};
pub use format::{write_candidates, write_grid, write_puzzles};
pub use formats::Format;
pub use geometry::{
    box_size_of_cell_count, box_size_of_side, Geometry, Unit, UnitKind, MAX_BOX_SIZE, MIN_BOX_SIZE,
};
pub use parse::{
    detect_format, read_located, read_located_from_path, read_puzzles, read_puzzles_from_path,
    LocatedGrid, ParseError, Source,
};
pub use svg::{write_html, write_sheet, Highlight, Panel, SheetOptions};
pub use symmetry::{canonical, Isomorphism, Mirror, MAX_CANONICAL_BOX_SIZE};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_symbols_round_trip() {
        for v in 1..=35u16 {
            let d = Digit(v);
            assert_eq!(Digit::from_symbol(d.symbol().unwrap()), Some(d));
        }
        assert_eq!(Digit(16).symbol(), Some('G'));
        assert_eq!(Digit(36).symbol(), None);
    }

    #[test]
    fn digit_set_ops() {
        let mut s = DigitSet::EMPTY;
        assert!(s.insert(Digit(3)));
        assert!(!s.insert(Digit(3)));
        s.insert(Digit(400));
        s.insert(Digit(64));
        assert_eq!(s.len(), 3);
        assert_eq!(s.iter().map(|d| d.0).collect::<Vec<_>>(), vec![3, 64, 400]);
        assert!(s.remove(Digit(64)));
        assert!(!s.contains(Digit(64)));
        assert_eq!(DigitSet::full(9).len(), 9);
        assert!(!DigitSet::full(9).contains(Digit(10)));
    }

    #[test]
    fn candidates_exclude_peers() {
        let mut g = Grid::empty(2).unwrap();
        g.set(Cell(1), Some(Digit(1)));
        g.set(Cell(4), Some(Digit(2)));
        g.set(Cell(10), Some(Digit(3)));
        let cands: Vec<u16> = g.candidates(Cell(0)).iter().map(|d| d.0).collect();
        assert_eq!(cands, vec![3, 4]);
        assert_eq!(g.num_givens(), 3);
    }

    #[test]
    fn from_values_rejects_bad_sizes() {
        assert!(Grid::from_values(vec![0; 81]).is_some());
        assert!(Grid::from_values(vec![0; 36]).is_none());
        assert!(Grid::from_values(vec![10; 81]).is_none());
    }
}
