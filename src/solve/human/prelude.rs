//! What every strategy needs: the candidate board and the deduction record.

use crate::grid::{check_grid, Cell, Digit, DigitSet, Geometry, Grid, Highlight, Unit, UnitKind};

use super::strategy::Strategy;

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

    /// The candidates of every cell, row-major (empty where a digit is placed).
    pub fn all_candidates(&self) -> &[DigitSet] {
        &self.cands
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

    /// The step in words, one line: the strategy, why it applies and what it does, e.g.
    /// "hidden single: 7 can only go in r3c5 within box 2 → r3c5 = 7".
    pub fn describe(&self, geo: &Geometry) -> String {
        format!(
            "{}: {} → {}",
            self.strategy.name(),
            self.reason(geo),
            self.effect(geo)
        )
    }

    /// A hint towards this step, without giving it away: level 1 names the strategy and
    /// where to look (its units; a naked single's cell has none, so its cell), level 2
    /// adds why it applies, level 3 (and above) is the whole step ([`Deduction::describe`]).
    pub fn hint(&self, geo: &Geometry, level: u8) -> String {
        match level {
            0 | 1 => {
                let place = if self.units.is_empty() {
                    cell_list(geo, &self.cells)
                } else {
                    and_list(self.units.iter().map(|&u| geo.unit_label(u)))
                };
                format!("look for a {} in {place}", self.strategy.name())
            }
            2 => format!("{}: {}", self.strategy.name(), self.reason(geo)),
            _ => self.describe(geo),
        }
    }

    /// What a drawing of this step shows at hint `level`, matching [`Deduction::hint`]:
    /// level 1 the units to look at (a naked single's cell when it has none), level 2 also
    /// the pattern's cells and digits, level 3 (and above) also the placed digit and the
    /// removed candidates.
    pub fn highlight(&self, geo: &Geometry, level: u8) -> Highlight {
        let units: Vec<Cell> = self
            .units
            .iter()
            .flat_map(|&u| geo.unit_cells(u).iter().copied())
            .collect();
        let mut highlight = Highlight {
            units,
            ..Highlight::default()
        };
        if level <= 1 {
            if highlight.units.is_empty() {
                highlight.units = self.cells.clone();
            }
            return highlight;
        }
        highlight.cells = self.cells.clone();
        highlight.digits = self.digits.clone();
        if level >= 3 {
            highlight.placed = self.placed;
            highlight.removed = self.removed.clone();
        }
        highlight
    }

    /// Why the strategy applies.
    fn reason(&self, geo: &Geometry) -> String {
        let cells = cell_list(geo, &self.cells);
        let digits = and_list(self.digits.iter().map(|d| d.to_string()));
        let unit = |k: usize| {
            self.units
                .get(k)
                .map_or_else(String::new, |&u| geo.unit_label(u))
        };
        match self.strategy {
            Strategy::NakedSingle => format!("{digits} is the only candidate left in {cells}"),
            Strategy::HiddenSingle => format!("{digits} can only go in {cells} within {}", unit(0)),
            Strategy::NakedPair | Strategy::NakedTriple | Strategy::NakedQuad => {
                format!("in {}, {cells} can only hold {digits}", unit(0))
            }
            Strategy::HiddenPair | Strategy::HiddenTriple | Strategy::HiddenQuad => {
                format!("in {}, {digits} can only go in {cells}", unit(0))
            }
            Strategy::PointingPair | Strategy::BoxLineReduction => {
                format!(
                    "in {}, {digits} can only go in {} ({cells})",
                    unit(0),
                    unit(1)
                )
            }
            Strategy::XWing => {
                let base = self.units.first().map(|&u| geo.unit_kind(u).0);
                let (base, cover) = match base {
                    Some(UnitKind::Column) => (UnitKind::Column, UnitKind::Row),
                    _ => (UnitKind::Row, UnitKind::Column),
                };
                let index = |cell: Cell, kind| match kind {
                    UnitKind::Row => geo.row_of(cell),
                    _ => geo.col_of(cell),
                };
                let lines = |kind: UnitKind, mut ids: Vec<usize>| {
                    ids.sort_unstable();
                    ids.dedup();
                    let ids = and_list(ids.iter().map(|i| (i + 1).to_string()));
                    format!("{}s {ids}", kind.name())
                };
                let base_ids = self.units.iter().map(|&u| geo.unit_kind(u).1).collect();
                let cover_ids = self.cells.iter().map(|&c| index(c, cover)).collect();
                format!(
                    "in {}, {digits} can only go in {}",
                    lines(base, base_ids),
                    lines(cover, cover_ids)
                )
            }
            Strategy::UniqueRectangle => {
                let (corners, fourth) = match self.cells.split_last() {
                    Some((fourth, three)) => (cell_list(geo, three), geo.cell_label(*fourth)),
                    None => (String::new(), String::new()),
                };
                format!(
                    "{corners} can only hold {digits}; if {fourth} could only hold them too, \
                     they could swap around the rectangle and the puzzle would have two solutions"
                )
            }
        }
    }

    /// What the step does: the digit placed, the candidates removed (grouped by cells that
    /// lose the same digits).
    fn effect(&self, geo: &Geometry) -> String {
        let mut parts = Vec::new();
        if let Some((cell, d)) = self.placed {
            parts.push(format!("{} = {d}", geo.cell_label(cell)));
        }
        // Each cell's removed digits, cells in order of first mention.
        let mut per_cell: Vec<(Cell, DigitSet)> = Vec::new();
        for &(cell, d) in &self.removed {
            match per_cell.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, set)) => {
                    set.insert(d);
                }
                None => per_cell.push((cell, std::iter::once(d).collect())),
            }
        }
        // Cells losing the same digits form one group.
        let mut groups: Vec<(DigitSet, Vec<Cell>)> = Vec::new();
        for (cell, set) in per_cell {
            match groups.iter_mut().find(|(s, _)| *s == set) {
                Some((_, cells)) => cells.push(cell),
                None => groups.push((set, vec![cell])),
            }
        }
        if !groups.is_empty() {
            let groups: Vec<String> = groups
                .iter()
                .map(|(set, cells)| {
                    let digits = and_list(set.iter().map(|d| d.to_string()));
                    format!("{digits} from {}", cell_list(geo, cells))
                })
                .collect();
            parts.push(format!("remove {}", groups.join("; ")));
        }
        parts.join("; ")
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: impl Iterator<Item = String>) -> String {
    let mut items: Vec<String> = items.collect();
    match items.len() {
        0 => String::new(),
        1 => items.remove(0),
        _ => {
            let last = items.pop().unwrap_or_default();
            format!("{} and {last}", items.join(", "))
        }
    }
}

/// Cell labels as an [`and_list`]: "r1c1, r1c4 and r2c1".
fn cell_list(geo: &Geometry, cells: &[Cell]) -> String {
    and_list(cells.iter().map(|&c| geo.cell_label(c)))
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
