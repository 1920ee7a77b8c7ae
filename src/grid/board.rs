//! The [`Grid`]: a flat row-major vector of digits (0 = blank) plus a reference to the
//! shared [`Geometry`] of its box size.

use std::fmt;

use super::cell::{Cell, Digit, DigitSet};
use super::geometry::{box_size_of_cell_count, Geometry};

/// A puzzle or a (partial or full) solution: n² cells, each blank or a digit 1…n.
///
/// Contradictory givens are representable (a grid is data); [`check_grid`](super::check_grid) reports them.
#[derive(PartialEq, Eq, Hash)]
pub struct Grid {
    geometry: &'static Geometry,
    cells: Vec<u16>,
}

impl Clone for Grid {
    fn clone(&self) -> Grid {
        Grid {
            geometry: self.geometry,
            cells: self.cells.clone(),
        }
    }

    /// Copies into this grid's own buffer: a batch's grids are refilled, not reallocated.
    fn clone_from(&mut self, source: &Grid) {
        self.geometry = source.geometry;
        self.cells.clone_from(&source.cells);
    }
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
