//! The grid model: cells, digits, puzzles and candidate sets for any box size b = 2…20.
//!
//! A [`Grid`] is a flat row-major vector of digits (0 = blank) plus a reference to the shared
//! [`Geometry`] of its box size; no per-cell heap allocation anywhere.

pub mod check;
pub mod format;
mod geometry;
mod lex;
pub mod parse;
pub mod svg;
pub mod symmetry;

use std::fmt;

pub use check::{check_grid, check_solution, CheckReport, DisplayViolation, Violation};
pub use format::{write_candidates, write_grid, write_puzzles, Format};
pub use geometry::{
    box_size_of_cell_count, box_size_of_side, Geometry, Unit, UnitKind, MAX_BOX_SIZE, MIN_BOX_SIZE,
};
pub use parse::{
    detect_format, read_located, read_located_from_path, read_puzzles, read_puzzles_from_path,
    LocatedGrid, ParseError, Source,
};
pub use svg::{write_html, write_sheet, Highlight, Panel, SheetOptions};
pub use symmetry::{canonical, Isomorphism, Mirror, MAX_CANONICAL_BOX_SIZE};

/// A cell, as a row-major index `row·n + col` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u32);

impl Cell {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A digit 1…n (never 0; a blank is `Option<Digit>::None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit(pub u16);

impl Digit {
    /// The digit's value, 1-based.
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }

    /// The one-character symbol of this digit for grids up to 35×35: `1`–`9`, then `A`….
    pub fn symbol(self) -> Option<char> {
        match self.0 {
            1..=9 => Some((b'0' + self.0 as u8) as char),
            10..=35 => Some((b'A' + (self.0 - 10) as u8) as char),
            _ => None,
        }
    }

    /// The digit a one-character symbol stands for (`1`–`9`, `A`/`a`… for 10…).
    pub fn from_symbol(ch: char) -> Option<Digit> {
        match ch {
            '1'..='9' => Some(Digit(ch as u16 - '0' as u16)),
            'A'..='Z' => Some(Digit(ch as u16 - 'A' as u16 + 10)),
            'a'..='z' => Some(Digit(ch as u16 - 'a' as u16 + 10)),
            _ => None,
        }
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of digits 1…n, n ≤ 400, as a fixed bitset (`Copy`, no heap).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet {
    words: [u64; 7],
}

impl DigitSet {
    /// The empty set.
    pub const EMPTY: DigitSet = DigitSet { words: [0; 7] };

    /// All digits 1…n.
    pub fn full(n: usize) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        for d in 1..=n as u16 {
            s.insert(Digit(d));
        }
        s
    }

    /// Adds a digit; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, d: Digit) -> bool {
        let (w, b) = (d.0 as usize / 64, d.0 as usize % 64);
        let was = self.words[w] >> b & 1 == 1;
        self.words[w] |= 1 << b;
        !was
    }

    /// Removes a digit; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, d: Digit) -> bool {
        let (w, b) = (d.0 as usize / 64, d.0 as usize % 64);
        let was = self.words[w] >> b & 1 == 1;
        self.words[w] &= !(1 << b);
        was
    }

    /// Whether the digit is in the set.
    #[inline]
    pub fn contains(&self, d: Digit) -> bool {
        let (w, b) = (d.0 as usize / 64, d.0 as usize % 64);
        w < 7 && self.words[w] >> b & 1 == 1
    }

    /// Number of digits in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The digits in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Digit> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(Digit((i * 64 + b as usize) as u16))
            })
        })
    }

    /// Set union.
    pub fn union(&self, other: &DigitSet) -> DigitSet {
        let mut s = *self;
        for (a, b) in s.words.iter_mut().zip(other.words) {
            *a |= b;
        }
        s
    }

    /// Set intersection.
    pub fn intersection(&self, other: &DigitSet) -> DigitSet {
        let mut s = *self;
        for (a, b) in s.words.iter_mut().zip(other.words) {
            *a &= b;
        }
        s
    }

    /// Set difference `self \ other`.
    pub fn difference(&self, other: &DigitSet) -> DigitSet {
        let mut s = *self;
        for (a, b) in s.words.iter_mut().zip(other.words) {
            *a &= !b;
        }
        s
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|d| d.0)).finish()
    }
}

impl FromIterator<Digit> for DigitSet {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Self {
        let mut s = DigitSet::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}

/// A puzzle or a (partial or full) solution: n² cells, each blank or a digit 1…n.
///
/// Contradictory givens are representable (a grid is data); [`check_grid`] reports them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    geometry: &'static Geometry,
    cells: Vec<u16>,
}

impl Grid {
    /// An empty grid of box size `b`; `None` when `b` is out of range.
    pub fn empty(box_size: usize) -> Option<Grid> {
        let geometry = Geometry::of(box_size)?;
        Some(Grid {
            geometry,
            cells: vec![0; geometry.num_cells()],
        })
    }

    /// A grid from row-major values (0 = blank). `None` when the count is not b⁴ for a
    /// supported b or a value exceeds n.
    pub fn from_values(values: Vec<u16>) -> Option<Grid> {
        let geometry = Geometry::of(box_size_of_cell_count(values.len())?)?;
        if values.iter().any(|&v| v as usize > geometry.side()) {
            return None;
        }
        Some(Grid {
            geometry,
            cells: values,
        })
    }

    /// The shared geometry of this grid's size.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Box size b.
    #[inline]
    pub fn box_size(&self) -> usize {
        self.geometry.box_size()
    }

    /// Side n.
    #[inline]
    pub fn side(&self) -> usize {
        self.geometry.side()
    }

    /// The digit in a cell, or `None` when blank.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        match self.cells[cell.index()] {
            0 => None,
            v => Some(Digit(v)),
        }
    }

    /// Sets or clears a cell.
    ///
    /// # Panics
    /// When the digit exceeds n (a programming error, not input).
    #[inline]
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        let v = digit.map_or(0, |d| d.0);
        assert!(v as usize <= self.side(), "digit {v} out of range");
        self.cells[cell.index()] = v;
    }

    /// Row-major values, 0 = blank.
    #[inline]
    pub fn values(&self) -> &[u16] {
        &self.cells
    }

    /// Number of filled cells (givens, for a puzzle).
    pub fn num_givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The filled cells and their digits.
    pub fn givens(&self) -> impl Iterator<Item = (Cell, Digit)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(i, &v)| (Cell(i as u32), Digit(v)))
    }

    /// Candidates of a blank cell: digits not yet used by a peer. A filled cell yields its
    /// own digit only. O(3n) per call; solvers that need speed keep their own masks.
    pub fn candidates(&self, cell: Cell) -> DigitSet {
        if let Some(d) = self.get(cell) {
            return std::iter::once(d).collect();
        }
        let mut set = DigitSet::full(self.side());
        for unit in self.geometry.units_of(cell) {
            for &peer in self.geometry.unit_cells(unit) {
                if let Some(d) = self.get(peer) {
                    set.remove(d);
                }
            }
        }
        set
    }

    /// The line form: row-major symbols `1`–`9`,`A`… and `.` blanks (n ≤ 35).
    pub fn to_line(&self) -> Option<String> {
        self.cells
            .iter()
            .map(|&v| if v == 0 { Some('.') } else { Digit(v).symbol() })
            .collect()
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_line() {
            Some(line) => write!(f, "Grid({line})"),
            None => write!(f, "Grid({}x{}, {:?})", self.side(), self.side(), self.cells),
        }
    }
}

/// The line form; for n > 35 the whitespace-separated `grid` form.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_line() {
            Some(line) => f.write_str(&line),
            None => {
                for row in self.cells.chunks(self.side()) {
                    let row: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                    writeln!(f, "{}", row.join(" "))?;
                }
                Ok(())
            }
        }
    }
}

/// Parses one puzzle in the `line` format (see [`parse`] for every format and many puzzles).
impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Grid, ParseError> {
        let mut puzzles = read_puzzles(s.as_bytes(), &Source::Text, Some(Format::Line))?;
        match puzzles.len() {
            1 => Ok(puzzles.remove(0)),
            _ => Err(ParseError::expected_one_puzzle(
                &Source::Text,
                puzzles.len(),
            )),
        }
    }
}

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
