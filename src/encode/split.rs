//! Splitting a puzzle into cubes for cube and conquer (Heule, Kullmann, Wieringa & Biere
//! 2011, "Cube and Conquer: Guiding CDCL SAT Solvers by Lookaheads"): the cubes fix a few
//! open cells to each of their candidates. [`CellSplit::fewest_candidates`] picks the cells
//! with the fewest candidates; [`CellSplit::lookahead`] first tries every candidate of
//! every open cell with few candidates by propagating singles (a lookahead, as march_cu
//! does with unit propagation), drops the candidates that lead to a contradiction, and
//! picks the cells left with the fewest branches, the weakest branch propagating most.

use crate::encode::varmap::{VarMap, VarRef};
use crate::encode::SudokuEncoding;
use crate::formula::Lit;
use crate::grid::{Cell, Digit, DigitSet, Geometry, Grid};

/// Cubes that split a puzzle on some of its open cells (cube and conquer; Heule, Kullmann,
/// Wieringa & Biere 2011): one cube per combination of the chosen cells' candidates, each
/// a conjunction of (cell, digit) literals. The cubes cover every solution (a cell's
/// value is one of its candidates) and no two share one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellSplit {
    /// Each chosen cell with the variables of its candidates, ascending digit.
    cells: Vec<(Cell, Vec<Lit>)>,
}

/// The most cubes [`CellSplit::fewest_candidates`] makes (2^20): more is a file of
/// cubes larger than the formula, not a split.
pub const MAX_CUBES: u64 = 1 << 20;

impl CellSplit {
    /// A split on the `cells` open cells of `puzzle` with the fewest candidates but one
    /// (ties in row-major order; a cell with no candidate first, which leaves no cube), numbered
    /// as `encoding` numbers its variables. `None` when the
    /// cubes would be more than [`MAX_CUBES`]; fewer cells when the puzzle has fewer
    /// open ones.
    pub fn fewest_candidates(
        encoding: &SudokuEncoding,
        puzzle: &Grid,
        cells: usize,
    ) -> Option<CellSplit> {
        let mut open: Vec<(usize, Cell)> = (0..puzzle.geometry().num_cells() as u32)
            .map(Cell)
            .filter(|&cell| puzzle.get(cell).is_none())
            .map(|cell| (puzzle.candidates(cell).len(), cell))
            // One candidate is forced (propagation sets it): a cube on it splits nothing.
            .filter(|&(candidates, _)| candidates != 1)
            .collect();
        open.sort();
        open.truncate(cells);
        let chosen = open
            .into_iter()
            .map(|(_, cell)| (cell, puzzle.candidates(cell)))
            .collect();
        CellSplit::of(encoding, puzzle, chosen)
    }

    /// A split on `cells` open cells chosen by lookahead: every candidate of every open
    /// cell with at most [`LOOKAHEAD_CANDIDATES`] candidates is placed on a copy of the
    /// pencil marks and propagated (naked and hidden singles to a fixpoint). A candidate
    /// that ends in a contradiction is dropped from the cell's branches (no solution has
    /// it, so the cubes still cover every solution, though no longer every assignment:
    /// `sudosat sat` then checks the rest, as it does march_cu's cubes). The cells left
    /// with the fewest branches are chosen, ties broken for the cell whose weakest branch
    /// fills the most cells (balanced, easy cubes), then row-major. Falls back to
    /// [`CellSplit::fewest_candidates`] when no cell has so few candidates; `None` as it.
    pub fn lookahead(encoding: &SudokuEncoding, puzzle: &Grid, cells: usize) -> Option<CellSplit> {
        let Some(mut marks) = Marks::of(puzzle) else {
            // Givens that clash: nothing to look ahead from.
            return CellSplit::fewest_candidates(encoding, puzzle, cells);
        };
        // Failed literals first, to a fixpoint (as march_cu does): a cell left with one
        // branch is forced, placed, and the lookahead runs again.
        let mut scored = loop {
            match marks.look_ahead() {
                Ok((scored, false)) => break scored,
                Ok((_, true)) => continue,
                // Every candidate of this cell fails: no solution, and no cube.
                Err(cell) => return CellSplit::of(encoding, puzzle, vec![(cell, DigitSet::EMPTY)]),
            }
        };
        if scored.is_empty() {
            return CellSplit::fewest_candidates(encoding, puzzle, cells);
        }
        // Fewest branches first, then the strongest weakest branch, then row-major.
        scored.sort_by_key(|(branches, weakest, cell, _)| (*branches, *weakest, *cell));
        scored.truncate(cells);
        let chosen = scored
            .into_iter()
            .map(|(_, _, cell, branches)| (cell, branches))
            .collect();
        CellSplit::of(encoding, puzzle, chosen)
    }

    /// The split on `chosen` cells with these candidates each, as `encoding` numbers them;
    /// `None` past [`MAX_CUBES`].
    fn of(
        encoding: &SudokuEncoding,
        puzzle: &Grid,
        chosen: Vec<(Cell, DigitSet)>,
    ) -> Option<CellSplit> {
        let vars = if encoding.reduced {
            VarMap::reduced(puzzle)
        } else {
            VarMap::base(puzzle)
        };
        let mut cubes: u64 = 1;
        let mut cells = Vec::with_capacity(chosen.len());
        for (cell, digits) in chosen {
            let lits: Vec<Lit> = digits
                .iter()
                .filter_map(|digit| match vars.var(cell, digit) {
                    VarRef::Var(var) => Some(var.lit(true)),
                    VarRef::True | VarRef::False => None,
                })
                .collect();
            cubes = cubes.saturating_mul(lits.len() as u64);
            cells.push((cell, lits));
        }
        (cubes <= MAX_CUBES).then_some(CellSplit { cells })
    }

    /// The number of cubes: the product of the chosen cells' candidate counts.
    pub fn num_cubes(&self) -> u64 {
        self.cells
            .iter()
            .map(|(_, lits)| lits.len() as u64)
            .product()
    }

    /// The chosen cells and their candidate counts, e.g. `r1c5 (2) × r3c2 (3) = 6 cubes`.
    pub fn describe(&self, puzzle: &Grid) -> String {
        let geometry = puzzle.geometry();
        let cells: Vec<String> = self
            .cells
            .iter()
            .map(|(cell, lits)| {
                format!(
                    "r{}c{} ({})",
                    geometry.row_of(*cell) + 1,
                    geometry.col_of(*cell) + 1,
                    lits.len()
                )
            })
            .collect();
        format!("{} = {} cubes", cells.join(" × "), self.num_cubes())
    }

    /// Calls `visit` with each cube in order: the first cell's candidates vary slowest.
    pub fn for_each_cube(&self, mut visit: impl FnMut(&[Lit])) {
        if self.cells.iter().any(|(_, lits)| lits.is_empty()) {
            return; // a cell without candidates: no cube, the formula is unsatisfiable
        }
        let mut picks = vec![0usize; self.cells.len()];
        let mut cube: Vec<Lit> = Vec::with_capacity(self.cells.len());
        loop {
            cube.clear();
            cube.extend(self.cells.iter().zip(&picks).map(|((_, lits), &k)| lits[k]));
            visit(&cube);
            // The next combination, like an odometer with the last cell turning fastest.
            let mut i = self.cells.len();
            loop {
                if i == 0 {
                    return;
                }
                i -= 1;
                picks[i] += 1;
                if picks[i] < self.cells[i].1.len() {
                    break;
                }
                picks[i] = 0;
            }
        }
    }
}

/// The most candidates a cell may have for [`CellSplit::lookahead`] to try it: a split on
/// cells with many branches makes many cubes, and each try costs a propagation.
pub const LOOKAHEAD_CANDIDATES: usize = 4;

/// A cell's lookahead score: its branches (count and set), the cells its weakest branch
/// fills (reversed) and the cell.
type Scored = (usize, std::cmp::Reverse<usize>, Cell, DigitSet);

/// Pencil marks for the lookahead: placed digits and the candidates of open cells.
#[derive(Clone)]
struct Marks {
    geometry: &'static Geometry,
    values: Vec<u16>,
    candidates: Vec<DigitSet>,
}

impl Marks {
    /// The marks of `puzzle` with its givens placed and propagated; `None` when they clash.
    fn of(puzzle: &Grid) -> Option<Marks> {
        let geometry = puzzle.geometry();
        let mut marks = Marks {
            geometry,
            values: vec![0; geometry.num_cells()],
            candidates: vec![DigitSet::full(geometry.side()); geometry.num_cells()],
        };
        let givens: Vec<(Cell, Digit)> = puzzle.givens().collect();
        marks.propagate(givens).map(|_| marks)
    }

    /// One lookahead pass: every candidate of every open cell with 2 to
    /// [`LOOKAHEAD_CANDIDATES`] candidates tried on a scratch copy. A cell left with one
    /// branch is placed at once (so the later tries of the pass see it); the others are
    /// scored: their surviving branches (count and set), the cells their weakest branch
    /// fills (reversed, to sort strongest first) and the cell. Also whether anything was
    /// placed (the scores are final only after a pass that placed nothing); `Err(cell)`
    /// when no candidate of `cell` survives, or a placement clashes there.
    fn look_ahead(&mut self) -> Result<(Vec<Scored>, bool), Cell> {
        let mut scored = Vec::new();
        let mut placed = false;
        // One scratch copy, refilled for each try (no allocation per candidate).
        let mut copy = self.clone();
        for cell in self.geometry.cells() {
            let candidates = self.candidates[cell.index()];
            let tried = (2..=LOOKAHEAD_CANDIDATES).contains(&candidates.len());
            if self.values[cell.index()] != 0 || !tried {
                continue;
            }
            let mut branches = DigitSet::EMPTY;
            let mut weakest = usize::MAX;
            for digit in candidates.iter() {
                copy.values.copy_from_slice(&self.values);
                copy.candidates.copy_from_slice(&self.candidates);
                if let Some(filled) = copy.place_and_propagate(cell, digit) {
                    branches.insert(digit);
                    weakest = weakest.min(filled);
                }
            }
            let first = branches.iter().next();
            match first {
                None => return Err(cell),
                Some(forced) if branches.len() == 1 => {
                    self.place_and_propagate(cell, forced).ok_or(cell)?;
                    placed = true;
                }
                Some(_) => {
                    scored.push((branches.len(), std::cmp::Reverse(weakest), cell, branches))
                }
            }
        }
        Ok((scored, placed))
    }

    /// Places `digit` in `cell` and propagates; the number of cells filled, or `None` on a
    /// contradiction.
    fn place_and_propagate(&mut self, cell: Cell, digit: Digit) -> Option<usize> {
        self.propagate(vec![(cell, digit)])
    }

    /// Places the queued digits, then naked and hidden singles to a fixpoint; the number
    /// of cells filled, or `None` when a cell or a unit runs out of candidates.
    fn propagate(&mut self, mut queue: Vec<(Cell, Digit)>) -> Option<usize> {
        let geometry = self.geometry;
        let mut filled = 0;
        loop {
            while let Some((cell, digit)) = queue.pop() {
                let i = cell.index();
                if self.values[i] != 0 {
                    if self.values[i] == digit.0 {
                        continue;
                    }
                    return None;
                }
                if !self.candidates[i].contains(digit) {
                    return None;
                }
                self.values[i] = digit.0;
                self.candidates[i] = DigitSet::EMPTY;
                filled += 1;
                for unit in geometry.units_of(cell) {
                    for &peer in geometry.unit_cells(unit) {
                        let p = peer.index();
                        if self.values[p] != 0 || !self.candidates[p].remove(digit) {
                            continue;
                        }
                        match self.candidates[p].len() {
                            0 => return None,
                            1 => queue.push((peer, self.candidates[p].iter().next()?)),
                            _ => {}
                        }
                    }
                }
            }
            // Hidden singles: a digit with one place left in a unit goes there.
            for unit in geometry.units() {
                let cells = geometry.unit_cells(unit);
                let mut placed = DigitSet::EMPTY;
                let mut once = DigitSet::EMPTY;
                let mut twice = DigitSet::EMPTY;
                for &c in cells {
                    match self.values[c.index()] {
                        0 => {
                            let here = self.candidates[c.index()];
                            twice = twice.union(&once.intersection(&here));
                            once = once.union(&here);
                        }
                        v => {
                            placed.insert(Digit(v));
                        }
                    }
                }
                let all = DigitSet::full(geometry.side());
                if placed.union(&once) != all {
                    return None; // a digit with no place in this unit
                }
                for digit in once.difference(&twice).iter() {
                    let at = cells
                        .iter()
                        .find(|c| self.candidates[c.index()].contains(digit))?;
                    queue.push((*at, digit));
                }
            }
            if queue.is_empty() {
                return Some(filled);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::BaseEncoding;

    fn cubes_of(split: &CellSplit) -> Vec<Vec<i64>> {
        let mut cubes = Vec::new();
        split.for_each_cube(|cube| cubes.push(cube.iter().map(|l| l.to_dimacs()).collect()));
        cubes
    }

    #[test]
    fn cell_splits_take_the_fewest_candidates_and_cover_every_combination() {
        // r1c1 sees 1 and 2 in its row and 3 in its column: 4 is forced, no split. r1c2
        // sees 1 and 2 (3 and 4 left) and r2c3 sees 1 in its column, 1 and 2 in its box.
        let puzzle: Grid = "..12....3.......".parse().unwrap();
        let base = SudokuEncoding::new(BaseEncoding::Extended, false);
        let split = CellSplit::fewest_candidates(&base, &puzzle, 2).unwrap();
        assert_eq!(split.describe(&puzzle), "r1c2 (2) × r2c3 (2) = 4 cubes");
        // (r,c,v) is (r−1)·16 + (c−1)·4 + v.
        assert_eq!(cubes_of(&split), [[7, 27], [7, 28], [8, 27], [8, 28]]);
        // Reduced numbering: the same cells, the compact variables of their candidates.
        let reduced = SudokuEncoding::new(BaseEncoding::Extended, true);
        let split = CellSplit::fewest_candidates(&reduced, &puzzle, 1).unwrap();
        let map = VarMap::reduced(&puzzle);
        let lit = |digit| match map.var(Cell(1), Digit(digit)) {
            VarRef::Var(var) => var.lit(true).to_dimacs(),
            _ => panic!("r1c2 = {digit} is free"),
        };
        assert_eq!(cubes_of(&split), [[lit(3)], [lit(4)]]);
        // Too many cubes: 16 candidates in each of six cells of an empty 16×16 grid.
        let empty = Grid::empty(4).unwrap();
        assert!(CellSplit::fewest_candidates(&base, &empty, 5).is_some());
        assert!(CellSplit::fewest_candidates(&base, &empty, 6).is_none());
    }

    #[test]
    fn lookahead_drops_failing_candidates_and_keeps_the_solution_covered() {
        let reduced = SudokuEncoding::new(BaseEncoding::Extended, true);
        let base = SudokuEncoding::new(BaseEncoding::Extended, false);
        // Inkala's puzzle and its solution: no candidate fails by singles, so the split
        // has 2 × 3 × 3 cubes, and the solution's own cube is one of them.
        let puzzle: Grid =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
                .parse()
                .unwrap();
        let solution: Grid =
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
                .parse()
                .unwrap();
        let split = CellSplit::lookahead(&base, &puzzle, 3).unwrap();
        assert_eq!(split.num_cubes(), 18);
        let solved: Vec<i64> = split
            .cells
            .iter()
            .map(|&(cell, _)| {
                let d = solution.get(cell).unwrap().get();
                (cell.index() * 9 + d) as i64
            })
            .collect();
        assert!(cubes_of(&split).contains(&solved));
        // A puzzle with its solution's digits blanked in a few cells: lookahead places
        // the forced ones and splits only on cells with two branches or more, every
        // branch a candidate the solution can take.
        let mut easier = solution.clone();
        for i in (0..81).step_by(3) {
            easier.set(Cell(i), None);
        }
        for encoding in [&base, &reduced] {
            let split = CellSplit::lookahead(encoding, &easier, 2).unwrap();
            assert!(split.cells.iter().all(|(_, lits)| lits.len() != 1));
        }
        // No candidate of r1c4 survives: one empty cell, no cube.
        let dead: Grid = "123........4....".parse().unwrap();
        let split = CellSplit::lookahead(&base, &dead, 2).unwrap();
        assert_eq!(split.num_cubes(), 0);
        assert!(cubes_of(&split).is_empty());
    }
}
