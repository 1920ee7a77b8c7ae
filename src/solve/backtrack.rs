//! Plain backtracking with bitmask consistency checks and five cell orders.
//!
//! The brute-force baseline of the Sudoku literature (e.g. the backtracking-vs-DLX study
//! behind `sudoku_rank_B.csv`, and the report on backtracking heuristics behind the Debian
//! fixtures; Norvig's "Solving Every Sudoku Puzzle" for the most-constrained-cell rule):
//! fill blank cells one at a time with the smallest digit no peer holds, and undo the
//! latest choice on a dead end. The order decides the speed: row-major (`row`),
//! column-major (`column`), a seeded shuffle (`random`), boxes with fewest blanks first
//! (`box`), or the blank cell with fewest candidates at each step (`mrv`, Minimum
//! Remaining Values). Each row, column and box keeps one bitmask of used digits (`u64`
//! for n ≤ 64, [`DigitSet`] beyond). The search is iterative and counts assignments and
//! backtracks; an assignment cap turns a hopeless run into [`SolveOutcome::Stopped`], a
//! time limit into [`Error::TimedOut`] (the clock is read every
//! [`Deadline::CHECK_PERIOD`] steps).

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::grid::{Digit, DigitSet, Geometry, Grid};
use crate::run::Counters;
use crate::Error;

pub use super::options::BacktrackOrder;
use super::{Deadline, SolveOutcome, SolveReport, Solver};

/// A set of digits as a bitmask: `u64` for n ≤ 64 (bit d−1), [`DigitSet`] beyond.
pub(crate) trait Mask: Copy {
    fn empty() -> Self;
    fn full(n: usize) -> Self;
    fn insert(&mut self, d: u16);
    fn remove(&mut self, d: u16);
    fn or(self, other: Self) -> Self;
    fn and_not(self, other: Self) -> Self;
    fn count(self) -> u32;
    fn contains(self, d: u16) -> bool;
    fn pop_lowest(&mut self) -> Option<u16>;
}

impl Mask for u64 {
    fn empty() -> Self {
        0
    }
    fn full(n: usize) -> Self {
        if n >= 64 {
            u64::MAX
        } else {
            (1 << n) - 1
        }
    }
    fn insert(&mut self, d: u16) {
        *self |= 1 << (d - 1);
    }
    fn remove(&mut self, d: u16) {
        *self &= !(1 << (d - 1));
    }
    fn or(self, other: Self) -> Self {
        self | other
    }
    fn and_not(self, other: Self) -> Self {
        self & !other
    }
    fn count(self) -> u32 {
        self.count_ones()
    }
    fn contains(self, d: u16) -> bool {
        self & (1 << (d - 1)) != 0
    }
    fn pop_lowest(&mut self) -> Option<u16> {
        if *self == 0 {
            return None;
        }
        let d = self.trailing_zeros() as u16 + 1;
        *self &= *self - 1;
        Some(d)
    }
}

impl Mask for DigitSet {
    fn empty() -> Self {
        DigitSet::EMPTY
    }
    fn full(n: usize) -> Self {
        DigitSet::full(n)
    }
    fn insert(&mut self, d: u16) {
        DigitSet::insert(self, Digit(d));
    }
    fn remove(&mut self, d: u16) {
        DigitSet::remove(self, Digit(d));
    }
    fn or(self, other: Self) -> Self {
        self.union(&other)
    }
    fn and_not(self, other: Self) -> Self {
        self.difference(&other)
    }
    fn count(self) -> u32 {
        self.len() as u32
    }
    fn contains(self, d: u16) -> bool {
        DigitSet::contains(&self, Digit(d))
    }
    fn pop_lowest(&mut self) -> Option<u16> {
        let d = self.iter().next()?;
        self.remove(d);
        Some(d.0)
    }
}

/// What a backtracking run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BacktrackRun {
    /// Solutions found, at most the limit.
    pub solutions: u64,
    /// The first solution.
    pub first: Option<Grid>,
    /// Digits written into cells.
    pub assignments: u64,
    /// Digits taken back.
    pub backtracks: u64,
    /// Whether the assignment cap stopped the run before it finished.
    pub capped: bool,
}

impl BacktrackRun {
    fn counters(&self) -> Counters {
        Counters(vec![
            ("assignments", self.assignments),
            ("backtracks", self.backtracks),
            ("solutions", self.solutions),
        ])
    }
}

/// The digits each unit uses, as bitmasks, over a grid filled cell by cell: the board of
/// every bitmask search in the crate (the backtracking engine here, the generator's random
/// fill and bounded counter in `generate/search.rs`).
pub(crate) struct UnitMasks<M> {
    /// The shared unit table.
    pub(crate) geo: &'static Geometry,
    /// Cell values, 0 = blank.
    pub(crate) values: Vec<u16>,
    /// Used digits per unit (rows, columns, boxes as in the geometry table).
    pub(crate) used: Vec<M>,
    /// The three unit indices of each cell.
    units: Vec<[u32; 3]>,
    /// All n digits.
    full: M,
}

impl<M: Mask> UnitMasks<M> {
    /// The board of `puzzle` with its givens placed; `None` when two givens clash (no
    /// solution).
    pub(crate) fn new(puzzle: &Grid) -> Option<Self> {
        let geo = puzzle.geometry();
        let mut board = UnitMasks {
            geo,
            values: vec![0; geo.num_cells()],
            used: vec![M::empty(); geo.num_units()],
            units: geo.cells().map(|c| geo.units_of(c).map(|u| u.0)).collect(),
            full: M::full(geo.side()),
        };
        for (cell, &d) in puzzle.values().iter().enumerate() {
            if d != 0 {
                if !board.candidates(cell).contains(d) {
                    return None;
                }
                board.place(cell, d);
            }
        }
        Some(board)
    }

    /// The digits no peer of `cell` holds.
    #[inline]
    pub(crate) fn candidates(&self, cell: usize) -> M {
        let [a, b, c] = self.units[cell];
        let used = self.used[a as usize]
            .or(self.used[b as usize])
            .or(self.used[c as usize]);
        self.full.and_not(used)
    }

    /// Writes digit `d` into `cell`.
    #[inline]
    pub(crate) fn place(&mut self, cell: usize, d: u16) {
        self.values[cell] = d;
        for u in self.units[cell] {
            self.used[u as usize].insert(d);
        }
    }

    /// Empties `cell`.
    #[inline]
    pub(crate) fn unplace(&mut self, cell: usize) {
        let d = self.values[cell];
        self.values[cell] = 0;
        for u in self.units[cell] {
            self.used[u as usize].remove(d);
        }
    }

    /// The blank cells, in reading order.
    pub(crate) fn blanks(&self) -> Vec<usize> {
        (0..self.values.len())
            .filter(|&c| self.values[c] == 0)
            .collect()
    }
}

struct Engine<'a, M: Mask> {
    puzzle: &'a Grid,
    n: usize,
    board: UnitMasks<M>,
}

impl<'a, M: Mask> Engine<'a, M> {
    fn candidates(&self, cell: usize) -> M {
        self.board.candidates(cell)
    }

    fn place(&mut self, cell: usize, d: u16) {
        self.board.place(cell, d);
    }

    fn unplace(&mut self, cell: usize) {
        self.board.unplace(cell);
    }

    /// The static cell order, or `None` for the dynamic MRV order.
    fn static_order(&self, order: BacktrackOrder, seed: u64) -> Option<Vec<usize>> {
        let geo = self.puzzle.geometry();
        let blank = |c: &usize| self.board.values[*c] == 0;
        let n = self.n;
        let cells: Vec<usize> = match order {
            BacktrackOrder::Mrv => return None,
            BacktrackOrder::Row => (0..n * n).filter(blank).collect(),
            BacktrackOrder::Column => (0..n)
                .flat_map(|c| (0..n).map(move |r| r * n + c))
                .filter(blank)
                .collect(),
            BacktrackOrder::Random => {
                let mut cells: Vec<usize> = (0..n * n).filter(blank).collect();
                cells.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
                cells
            }
            BacktrackOrder::Box => {
                let boxes: Vec<Vec<usize>> = (0..n)
                    .map(|b| {
                        let unit = geo.unit(crate::grid::UnitKind::Box, b);
                        geo.unit_cells(unit)
                            .iter()
                            .map(|c| c.index())
                            .filter(blank)
                            .collect()
                    })
                    .collect();
                let mut ids: Vec<usize> = (0..n).collect();
                ids.sort_by_key(|&b| (boxes[b].len(), b));
                ids.into_iter().flat_map(|b| boxes[b].clone()).collect()
            }
        };
        Some(cells)
    }

    /// The blank cell with fewest candidates, first in reading order on ties.
    fn most_constrained(&self, blanks: &[usize]) -> Option<(usize, M)> {
        let mut best: Option<(usize, M, u32)> = None;
        for &cell in blanks {
            if self.board.values[cell] != 0 {
                continue;
            }
            let cands = self.candidates(cell);
            let k = cands.count();
            if best.as_ref().map_or(true, |b| k < b.2) {
                best = Some((cell, cands, k));
                if k <= 1 {
                    break;
                }
            }
        }
        best.map(|(c, m, _)| (c, m))
    }

    fn run(
        mut self,
        solver: &BacktrackSolver,
        limit: u64,
        deadline: Deadline,
    ) -> Result<BacktrackRun, Error> {
        let BacktrackSolver {
            order, seed, cap, ..
        } = *solver;
        let mut result = BacktrackRun {
            solutions: 0,
            first: None,
            assignments: 0,
            backtracks: 0,
            capped: false,
        };
        if limit == 0 {
            return Ok(result);
        }
        let blanks = self.board.blanks();
        // A cell the givens leave without a candidate: no solution. Checked up front, since
        // a static order may reach that cell only after an exponential search elsewhere.
        if blanks.iter().any(|&c| self.candidates(c).count() == 0) {
            return Ok(result);
        }
        let fixed = self.static_order(order, seed);
        // Each frame: a filled cell and the digits still to try there.
        let mut frames: Vec<(usize, M)> = Vec::with_capacity(blanks.len());
        let mut steps = 0u64;
        'search: loop {
            steps += 1;
            if deadline.expired_at(steps) {
                return Err(deadline.timed_out(&solver.name()).into());
            }
            // Descend into the next cell.
            if frames.len() == blanks.len() {
                result.solutions += 1;
                if result.first.is_none() {
                    result.first = Grid::from_values(self.board.values.clone());
                }
                if result.solutions >= limit {
                    break 'search;
                }
            } else {
                let next = match &fixed {
                    Some(cells) => {
                        let cell = cells[frames.len()];
                        Some((cell, self.candidates(cell)))
                    }
                    None => self.most_constrained(&blanks),
                };
                if let Some((cell, mut cands)) = next {
                    if let Some(d) = cands.pop_lowest() {
                        if cap.is_some_and(|c| result.assignments >= c) {
                            result.capped = true;
                            break 'search;
                        }
                        result.assignments += 1;
                        self.place(cell, d);
                        frames.push((cell, cands));
                        continue 'search;
                    }
                }
            }
            // Backtrack: the deepest cell takes its next digit, or is emptied.
            while let Some((cell, cands)) = frames.last_mut() {
                let cell = *cell;
                result.backtracks += 1;
                self.unplace(cell);
                if let Some(d) = cands.pop_lowest() {
                    if cap.is_some_and(|c| result.assignments >= c) {
                        result.capped = true;
                        break 'search;
                    }
                    result.assignments += 1;
                    self.place(cell, d);
                    continue 'search;
                }
                frames.pop();
            }
            break 'search;
        }
        Ok(result)
    }
}

/// Backtracking as a grid-level [`Solver`]; counts solutions too.
#[derive(Clone, Debug)]
pub struct BacktrackSolver {
    order: BacktrackOrder,
    seed: u64,
    cap: Option<u64>,
    time_limit: Option<Duration>,
}

impl BacktrackSolver {
    /// A solver with a cell order, a seed (for [`BacktrackOrder::Random`]) and an optional
    /// assignment cap; no time limit.
    pub fn new(order: BacktrackOrder, seed: u64, cap: Option<u64>) -> BacktrackSolver {
        BacktrackSolver {
            order,
            seed,
            cap,
            time_limit: None,
        }
    }

    /// Runs backtracking on `puzzle` until `limit` solutions are found, the space is
    /// exhausted, or the assignment cap is reached.
    ///
    /// # Errors
    /// [`Error::TimedOut`] when the time limit passes first.
    pub fn search(&self, puzzle: &Grid, limit: u64) -> Result<BacktrackRun, Error> {
        let deadline = Deadline::after(self.time_limit);
        let n = puzzle.side();
        // Clashing givens: no solution, found before any assignment.
        let none = || Ok(BacktrackRun::default());
        if n <= 64 {
            match UnitMasks::<u64>::new(puzzle) {
                Some(board) => Engine { puzzle, n, board }.run(self, limit, deadline),
                None => none(),
            }
        } else {
            match UnitMasks::<DigitSet>::new(puzzle) {
                Some(board) => Engine { puzzle, n, board }.run(self, limit, deadline),
                None => none(),
            }
        }
    }
}

impl Solver for BacktrackSolver {
    fn name(&self) -> String {
        format!("backtrack-{}", self.order.name())
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        let found = self.search(puzzle, 1)?;
        let counters = found.counters();
        let outcome = match found.first {
            Some(grid) => SolveOutcome::Solved(grid),
            None if found.capped => SolveOutcome::Stopped(format!(
                "assignment cap of {} reached",
                self.cap.unwrap_or_default()
            )),
            None => SolveOutcome::NoSolution,
        };
        Ok(SolveReport { outcome, counters })
    }

    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        let limit = if limit == 0 { u64::MAX } else { limit };
        let found = self.search(puzzle, limit)?;
        Ok((!found.capped).then_some(found.solutions))
    }

    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn honours_time_limit(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{check_grid, check_solution};

    // Thesis grid #2: 51 givens.
    const EASY: &str =
        "207009134040210067300764809082430706079821450403076210506347001790058040834100605";

    #[test]
    fn every_order_solves_an_easy_puzzle() {
        let puzzle: Grid = EASY.parse().unwrap();
        for order in BacktrackOrder::ALL {
            let found = BacktrackSolver::new(order, 7, None)
                .search(&puzzle, 2)
                .unwrap();
            assert_eq!(found.solutions, 1, "{order:?}");
            assert!(check_solution(&puzzle, found.first.as_ref().unwrap()).is_valid());
            assert!(found.assignments >= 81 - puzzle.num_givens() as u64);
        }
    }

    #[test]
    fn counts_empty_4x4_grids() {
        let empty = Grid::empty(2).unwrap();
        for order in [BacktrackOrder::Row, BacktrackOrder::Mrv] {
            let found = BacktrackSolver::new(order, 0, None).search(&empty, 1000);
            assert_eq!(found.unwrap().solutions, 288, "{order:?}");
        }
    }

    #[test]
    fn cap_stops_and_contradiction_has_no_solution() {
        let puzzle: Grid = EASY.parse().unwrap();
        let mut capped = BacktrackSolver::new(BacktrackOrder::Row, 0, Some(10));
        assert!(matches!(
            capped.solve(&puzzle).unwrap().outcome,
            SolveOutcome::Stopped(_)
        ));
        let bad: Grid = "123....4........".parse().unwrap();
        let mut solver = BacktrackSolver::new(BacktrackOrder::Box, 0, None);
        assert_eq!(
            solver.solve(&bad).unwrap().outcome,
            SolveOutcome::NoSolution
        );
    }

    #[test]
    fn a_cell_without_candidates_is_seen_before_searching() {
        // r1c9 has no candidate; column order would fill eight columns before reaching it.
        let puzzle: Grid = format!("12345678.........9{}", ".".repeat(63))
            .parse()
            .unwrap();
        for order in BacktrackOrder::ALL {
            let found = BacktrackSolver::new(order, 0, None)
                .search(&puzzle, 2)
                .unwrap();
            assert_eq!((found.solutions, found.assignments), (0, 0), "{order:?}");
        }
    }

    #[test]
    fn large_grids_use_generic_masks() {
        // 81×81 exceeds a u64 mask: a pattern solution with a few blanks, then a clash.
        let (b, n) = (9usize, 81usize);
        let values: Vec<u16> = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((r % b * b + r / b + c) % n + 1) as u16
            })
            .collect();
        let solution = Grid::from_values(values.clone()).unwrap();
        assert!(check_grid(&solution).is_valid());
        let mut puzzle = solution.clone();
        for i in (0..n * n).step_by(97) {
            puzzle.set(crate::grid::Cell(i as u32), None);
        }
        for order in BacktrackOrder::ALL {
            let found = BacktrackSolver::new(order, 0, None)
                .search(&puzzle, 2)
                .unwrap();
            assert_eq!(found.solutions, 1);
            assert_eq!(found.first.as_ref(), Some(&solution));
        }
    }

    #[test]
    fn a_time_limit_stops_every_order() {
        // Every order takes minutes on this 25×25 puzzle; row order also on the empty one.
        let puzzle = crate::solve::testing::hard_25x25();
        for order in BacktrackOrder::ALL {
            let mut solver = BacktrackSolver::new(order, 0, None);
            crate::solve::testing::assert_times_out(&mut solver, &puzzle);
            let err = solver.count_solutions(&puzzle, 2).unwrap_err();
            assert!(err.is_timeout() && err.to_string().contains(order.name()));
        }
        let empty = Grid::empty(5).unwrap();
        let mut row = BacktrackSolver::new(BacktrackOrder::Row, 0, None);
        crate::solve::testing::assert_times_out(&mut row, &empty);
    }
}
