//! Board geometry for box size b (n = b²): the shared unit index table.
//!
//! Every encoder and solver reads rows, columns and boxes from one table per box size,
//! built once per process ([`Geometry::of`]), so no caller repeats the row/column/box loops.

use std::sync::OnceLock;

use super::{Cell, Digit};

/// Smallest supported box size (4×4 grids).
pub const MIN_BOX_SIZE: usize = 2;
/// Largest supported box size (400×400 grids).
pub const MAX_BOX_SIZE: usize = 20;

crate::names::named_enum! {
    /// The kind of a unit: a row, a column or a box; named in lower-case English.
    #[derive(PartialOrd, Ord)]
    pub enum UnitKind ("unit") {
        /// A row, numbered top to bottom.
        Row = "row",
        /// A column, numbered left to right.
        Column = "column",
        /// A box, numbered row-major.
        Box = "box",
    }
}

/// A unit (row, column or box) as an index into the table: rows `0..n`, columns `n..2n`,
/// boxes `2n..3n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit(pub u32);

/// Geometry of an n×n grid with b×b boxes.
#[derive(Debug)]
pub struct Geometry {
    box_size: usize,
    n: usize,
    /// `3n` units of `n` cells each, row-major cell indices, flattened.
    unit_cells: Vec<Cell>,
    /// Per cell, its row, column and box units: a table, since a batch of puzzles asks for
    /// them per given and per cell, and two divisions per question showed in its profile.
    cell_units: Vec<[Unit; 3]>,
}

impl Geometry {
    /// The shared geometry for box size `b`, built on first use.
    ///
    /// Returns `None` when `b` is outside [`MIN_BOX_SIZE`]`..=`[`MAX_BOX_SIZE`].
    pub fn of(box_size: usize) -> Option<&'static Geometry> {
        static TABLES: [OnceLock<Geometry>; MAX_BOX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_BOX_SIZE + 1];
        if !(MIN_BOX_SIZE..=MAX_BOX_SIZE).contains(&box_size) {
            return None;
        }
        Some(TABLES[box_size].get_or_init(|| Geometry::build(box_size)))
    }

    /// The geometry whose side is `n` (n must be a perfect square b² with b in range).
    pub fn for_side(n: usize) -> Option<&'static Geometry> {
        let b = box_size_of_side(n)?;
        Geometry::of(b)
    }

    fn build(b: usize) -> Geometry {
        let n = b * b;
        let mut unit_cells = Vec::with_capacity(3 * n * n);
        for r in 0..n {
            unit_cells.extend((0..n).map(|c| Cell((r * n + c) as u32)));
        }
        for c in 0..n {
            unit_cells.extend((0..n).map(|r| Cell((r * n + c) as u32)));
        }
        for bx in 0..n {
            let (r0, c0) = ((bx / b) * b, (bx % b) * b);
            for i in 0..n {
                let (r, c) = (r0 + i / b, c0 + i % b);
                unit_cells.push(Cell((r * n + c) as u32));
            }
        }
        let cell_units = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                [r, n + c, 2 * n + (r / b) * b + c / b].map(|u| Unit(u as u32))
            })
            .collect();
        Geometry {
            box_size: b,
            n,
            unit_cells,
            cell_units,
        }
    }

    /// Box size b.
    #[inline]
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Side n = b² (also the number of digits and of units of each kind).
    #[inline]
    pub fn side(&self) -> usize {
        self.n
    }

    /// Number of cells n².
    #[inline]
    pub fn num_cells(&self) -> usize {
        self.n * self.n
    }

    /// Number of units, 3n.
    #[inline]
    pub fn num_units(&self) -> usize {
        3 * self.n
    }

    /// All cells in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + Clone {
        (0..self.num_cells() as u32).map(Cell)
    }

    /// All digits 1..=n.
    pub fn digits(&self) -> impl Iterator<Item = Digit> + Clone {
        (1..=self.n as u16).map(Digit)
    }

    /// All units: rows, then columns, then boxes.
    pub fn units(&self) -> impl Iterator<Item = Unit> + Clone {
        (0..self.num_units() as u32).map(Unit)
    }

    /// The cells of a unit, in reading order.
    #[inline]
    pub fn unit_cells(&self, unit: Unit) -> &[Cell] {
        let start = unit.0 as usize * self.n;
        &self.unit_cells[start..start + self.n]
    }

    /// The kind of a unit and its 0-based index within that kind.
    #[inline]
    pub fn unit_kind(&self, unit: Unit) -> (UnitKind, usize) {
        let u = unit.0 as usize;
        (UnitKind::ALL[u / self.n], u % self.n)
    }

    /// The unit of a given kind and 0-based index.
    #[inline]
    pub fn unit(&self, kind: UnitKind, index: usize) -> Unit {
        let base = match kind {
            UnitKind::Row => 0,
            UnitKind::Column => self.n,
            UnitKind::Box => 2 * self.n,
        };
        Unit((base + index) as u32)
    }

    /// The cell at 0-based row and column.
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        Cell((row * self.n + col) as u32)
    }

    /// 0-based row of a cell.
    #[inline]
    pub fn row_of(&self, cell: Cell) -> usize {
        cell.0 as usize / self.n
    }

    /// 0-based column of a cell.
    #[inline]
    pub fn col_of(&self, cell: Cell) -> usize {
        cell.0 as usize % self.n
    }

    /// 0-based box of a cell (boxes numbered row-major).
    #[inline]
    pub fn box_of(&self, cell: Cell) -> usize {
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        (r / self.box_size) * self.box_size + c / self.box_size
    }

    /// The row, column and box units that contain a cell.
    #[inline]
    pub fn units_of(&self, cell: Cell) -> [Unit; 3] {
        self.cell_units[cell.index()]
    }

    /// Human label of a unit, 1-based: "row 3", "column 7", "box 5".
    pub fn unit_label(&self, unit: Unit) -> String {
        let (kind, index) = self.unit_kind(unit);
        format!("{} {}", kind.name(), index + 1)
    }

    /// A cell as JSON: `{"row": r, "column": c}`, 1-based.
    pub fn cell_json(&self, cell: Cell) -> serde_json::Value {
        serde_json::json!({ "row": self.row_of(cell) + 1, "column": self.col_of(cell) + 1 })
    }

    /// A digit in a cell (a given, placement or removal) as JSON: the cell's `row` and
    /// `column` (1-based) and the `digit`.
    pub fn candidate_json(&self, (cell, digit): (Cell, Digit)) -> serde_json::Value {
        let mut value = self.cell_json(cell);
        value["digit"] = serde_json::json!(digit.get());
        value
    }

    /// Human label of a digit in a cell (a given, a placement), 1-based: "r3c7=5".
    pub fn given_label(&self, (cell, digit): (Cell, Digit)) -> String {
        format!("{}={digit}", self.cell_label(cell))
    }

    /// Human label of a cell, 1-based: "r3c7".
    pub fn cell_label(&self, cell: Cell) -> String {
        format!("r{}c{}", self.row_of(cell) + 1, self.col_of(cell) + 1)
    }

    /// Whether two distinct cells share a row, column or box.
    #[inline]
    pub fn are_peers(&self, a: Cell, b: Cell) -> bool {
        a != b
            && (self.row_of(a) == self.row_of(b)
                || self.col_of(a) == self.col_of(b)
                || self.box_of(a) == self.box_of(b))
    }
}

/// The box size b with b² = n, when n is a perfect square of a supported box size.
pub fn box_size_of_side(n: usize) -> Option<usize> {
    let b = (n as f64).sqrt().round() as usize;
    (b * b == n && (MIN_BOX_SIZE..=MAX_BOX_SIZE).contains(&b)).then_some(b)
}

/// The box size b with b⁴ = number of cells, when the count fits a supported grid.
pub fn box_size_of_cell_count(cells: usize) -> Option<usize> {
    let n = (cells as f64).sqrt().round() as usize;
    if n * n != cells {
        return None;
    }
    box_size_of_side(n)
}

/// Geometries are equal when their box sizes are (the tables follow from it).
impl PartialEq for Geometry {
    fn eq(&self, other: &Self) -> bool {
        self.box_size == other.box_size
    }
}

impl Eq for Geometry {}

impl std::hash::Hash for Geometry {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.box_size.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_units() {
        let g = Geometry::of(3).unwrap();
        assert_eq!(g.side(), 9);
        assert_eq!(g.num_units(), 27);
        let box5: Vec<u32> = g
            .unit_cells(g.unit(UnitKind::Box, 4))
            .iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(box5, vec![30, 31, 32, 39, 40, 41, 48, 49, 50]);
        let col2: Vec<u32> = g
            .unit_cells(g.unit(UnitKind::Column, 1))
            .iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(col2, vec![1, 10, 19, 28, 37, 46, 55, 64, 73]);
        assert_eq!(g.units_of(Cell(40)), [Unit(4), Unit(13), Unit(22)]);
        assert_eq!(g.unit_label(Unit(22)), "box 5");
        assert_eq!(g.cell_label(Cell(40)), "r5c5");
    }

    #[test]
    fn every_cell_in_exactly_one_unit_of_each_kind() {
        for b in 2..=5 {
            let g = Geometry::of(b).unwrap();
            let mut seen = vec![0u32; g.num_cells()];
            for u in g.units() {
                for &c in g.unit_cells(u) {
                    seen[c.0 as usize] += 1;
                    assert!(g.units_of(c).contains(&u));
                }
            }
            assert!(seen.iter().all(|&k| k == 3));
        }
    }

    #[test]
    fn box_sizes() {
        assert_eq!(box_size_of_side(16), Some(4));
        assert_eq!(box_size_of_side(6), None);
        assert_eq!(box_size_of_side(1), None);
        assert_eq!(box_size_of_cell_count(81), Some(3));
        assert_eq!(box_size_of_cell_count(50625), Some(15));
        assert!(Geometry::of(21).is_none());
        assert!(Geometry::of(1).is_none());
    }
}
