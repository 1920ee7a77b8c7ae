//! What every strategy needs: the candidate board and the deduction record.

use crate::grid::{check_grid, Cell, Digit, DigitSet, Geometry, Grid, Unit, UnitKind};

use super::Strategy;

/// A pencil-marked grid: placed digits plus the candidates of every blank cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    geo: &'static Geometry,
    values: Vec<u16>,
    cands: Vec<DigitSet>,
}

impl Board {
    /// The board of a puzzle: givens placed, candidates of blank cells cleared of their
    /// peers' digits. `None` when the givens repeat a digit in a unit.
    pub fn new(puzzle: &Grid) -> Option<Board> {
        if !check_grid(puzzle).is_valid() {
            return None;
        }
        let mut board = Board::blank(puzzle.geometry());
        for (cell, d) in puzzle.givens() {
            board.place(cell, d);
        }
        Some(board)
    }

    /// An empty board: every cell blank with every digit as candidate. Tests build
    /// positions from it with [`Board::remove`] and [`Board::set_candidates`].
    pub fn blank(geo: &'static Geometry) -> Board {
        Board {
            geo,
            values: vec![0; geo.num_cells()],
            cands: vec![DigitSet::full(geo.side()); geo.num_cells()],
        }
    }

    /// The geometry.
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The digit placed in a cell.
    pub fn value(&self, cell: Cell) -> Option<Digit> {
        match self.values[cell.index()] {
            0 => None,
            v => Some(Digit(v)),
        }
    }

    /// The candidates of a cell (empty once a digit is placed).
    pub fn candidates(&self, cell: Cell) -> DigitSet {
        self.cands[cell.index()]
    }

    /// Replaces the candidates of a blank cell (for building test positions).
    pub fn set_candidates(&mut self, cell: Cell, digits: &[u16]) {
        self.cands[cell.index()] = digits.iter().map(|&d| Digit(d)).collect();
    }

    /// Places a digit and removes it from the candidates of the cell's peers.
    pub fn place(&mut self, cell: Cell, d: Digit) {
        self.values[cell.index()] = d.0;
        self.cands[cell.index()] = DigitSet::EMPTY;
        for unit in self.geo.units_of(cell) {
            for &peer in self.geo.unit_cells(unit) {
                self.cands[peer.index()].remove(d);
            }
        }
    }

    /// Removes a candidate; returns whether it was there.
    pub fn remove(&mut self, cell: Cell, d: Digit) -> bool {
        self.cands[cell.index()].remove(d)
    }

    /// Applies a deduction's placement and removals.
    pub fn apply(&mut self, deduction: &Deduction) {
        if let Some((cell, d)) = deduction.placed {
            self.place(cell, d);
        }
        for &(cell, d) in &deduction.removed {
            self.remove(cell, d);
        }
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether the position is dead: a blank cell without candidates, or a unit where a
    /// digit is neither placed nor possible.
    pub fn is_contradictory(&self) -> bool {
        let geo = self.geo;
        if geo
            .cells()
            .any(|c| self.values[c.index()] == 0 && self.cands[c.index()].is_empty())
        {
            return true;
        }
        let full = DigitSet::full(geo.side());
        geo.units().any(|unit| {
            let mut seen = DigitSet::EMPTY;
            for &c in geo.unit_cells(unit) {
                seen = seen.union(&self.cands[c.index()]);
                if let Some(d) = self.value(c) {
                    seen.insert(d);
                }
            }
            seen != full
        })
    }

    /// The grid of placed digits.
    pub fn to_grid(&self) -> Option<Grid> {
        Grid::from_values(self.values.clone())
    }

    /// Blank cells of a unit, in reading order.
    pub fn blank_cells(&self, unit: Unit) -> Vec<Cell> {
        self.geo
            .unit_cells(unit)
            .iter()
            .copied()
            .filter(|&c| self.values[c.index()] == 0)
            .collect()
    }

    /// Blank cells of a unit that still have `d` as a candidate.
    pub fn places(&self, unit: Unit, d: Digit) -> Vec<Cell> {
        self.geo
            .unit_cells(unit)
            .iter()
            .copied()
            .filter(|&c| self.cands[c.index()].contains(d))
            .collect()
    }

    /// The units of one kind.
    pub fn units_of_kind(&self, kind: UnitKind) -> impl Iterator<Item = Unit> + '_ {
        (0..self.geo.side()).map(move |i| self.geo.unit(kind, i))
    }

    /// The first strategy of [`Strategy::ALL`] that applies here, with its deduction.
    pub fn easiest(&self) -> Option<Deduction> {
        Strategy::ALL.iter().find_map(|s| s.find(self))
    }
}

/// One logical step: which strategy found it where, and what it placed or removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduction {
    /// The strategy.
    pub strategy: Strategy,
    /// The units the pattern lies in (one unit; two rows or columns for an X-Wing; none
    /// for a naked single).
    pub units: Vec<Unit>,
    /// The cells forming the pattern.
    pub cells: Vec<Cell>,
    /// The digits forming the pattern.
    pub digits: Vec<Digit>,
    /// A digit placed in a cell.
    pub placed: Option<(Cell, Digit)>,
    /// Candidates removed.
    pub removed: Vec<(Cell, Digit)>,
}

impl Deduction {
    /// A deduction that removes candidates (`None` when it would remove nothing).
    pub fn removal(
        strategy: Strategy,
        units: Vec<Unit>,
        cells: Vec<Cell>,
        digits: Vec<Digit>,
        removed: Vec<(Cell, Digit)>,
    ) -> Option<Deduction> {
        (!removed.is_empty()).then_some(Deduction {
            strategy,
            units,
            cells,
            digits,
            placed: None,
            removed,
        })
    }

    /// The step in words, e.g. "hidden single: 7 can go only in r3c5 within box 2".
    pub fn describe(&self, geo: &Geometry) -> String {
        let cells = join(self.cells.iter().map(|&c| geo.cell_label(c)));
        let digits = join(self.digits.iter().map(|d| d.to_string()));
        let units = self
            .units
            .iter()
            .map(|&u| geo.unit_label(u))
            .collect::<Vec<_>>();
        let within = units.first().cloned().unwrap_or_default();
        let name = self.strategy.name();
        let what = match self.strategy {
            Strategy::NakedSingle => format!("{cells} can only be {digits}"),
            Strategy::HiddenSingle => {
                format!("{digits} can go only in {cells} within {within}")
            }
            Strategy::NakedPair | Strategy::NakedTriple | Strategy::NakedQuad => {
                format!("{cells} hold only {{{digits}}} within {within}")
            }
            Strategy::HiddenPair | Strategy::HiddenTriple | Strategy::HiddenQuad => {
                format!("{{{digits}}} go only in {cells} within {within}")
            }
            Strategy::PointingPair | Strategy::BoxLineReduction => format!(
                "within {within}, {digits} lies only in {} ({cells})",
                units.get(1).cloned().unwrap_or_default()
            ),
            Strategy::XWing => {
                format!("{digits} in {} lies only in {}", units.join(" and "), cells)
            }
            Strategy::UniqueRectangle => {
                format!("{cells} would form a deadly rectangle on {{{digits}}}")
            }
        };
        let mut line = format!("{name}: {what}");
        if !self.removed.is_empty() {
            let removed = join(
                self.removed
                    .iter()
                    .map(|&(c, d)| format!("{d} from {}", geo.cell_label(c))),
            );
            line.push_str(&format!("; removes {removed}"));
        }
        line
    }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

/// Every k-element subset of `0..len`, in lexicographic order.
pub fn combinations(len: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k == 0 || k > len {
        return out;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.clone());
        let mut i = k;
        while i > 0 && idx[i - 1] == len - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        idx[i - 1] += 1;
        for j in i..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_enumerate_subsets() {
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert!(combinations(2, 3).is_empty());
    }

    #[test]
    fn placing_clears_peers_and_contradictions_are_seen() {
        let geo = Geometry::of(2).unwrap();
        let mut board = Board::blank(geo);
        board.place(Cell(0), Digit(1));
        assert!(!board.candidates(Cell(1)).contains(Digit(1)));
        assert!(board.candidates(Cell(5)).contains(Digit(2)));
        assert!(!board.is_contradictory());
        board.set_candidates(Cell(5), &[]);
        assert!(board.is_contradictory());
    }
}
