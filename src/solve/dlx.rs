//! Knuth's Algorithm X with dancing links over the Sudoku exact-cover matrix.
//!
//! Knuth, D. E. (2000). *Dancing Links*. In Millennial Perspectives in Computer Science,
//! 187–214 (arXiv cs/0011047). A Sudoku of side n is an exact-cover problem with n³ rows
//! (cell, digit) and 4n² columns: every cell holds one digit, and every row, column and
//! box holds every digit once.
//!
//! This implementation keeps the matrix in flat index arrays (no pointers), builds only the
//! rows compatible with the givens and only the columns the givens leave open (so the
//! givens are covered before the search starts), chooses the column with fewest nodes
//! first (Knuth's S heuristic) and searches iteratively with an explicit stack, so no grid
//! size can overflow the call stack. It counts *updates* (nodes unlinked by `cover`) and
//! search *nodes* (rows tried), as Knuth reports them. A [`Deadline`] is asked every
//! [`Deadline::CHECK_PERIOD`] search steps.

use std::time::Duration;

use crate::grid::{Cell, Digit, Grid};
use crate::run::Counters;
use crate::Error;

use super::{Deadline, SolveOutcome, SolveReport, Solver};

/// Most matrix nodes [`search`] builds (about 24 bytes each); larger requests are
/// [`Error::Unsupported`].
pub const MAX_NODES: usize = 1 << 25;

/// What a Dancing Links search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DlxSearch {
    /// Solutions found, at most the limit.
    pub solutions: u64,
    /// The first solution found.
    pub first: Option<Grid>,
    /// Nodes unlinked by `cover` (Knuth's "updates").
    pub updates: u64,
    /// Rows tried by the search (search-tree nodes).
    pub nodes: u64,
    /// Rows of the reduced matrix (candidates compatible with the givens).
    pub rows: u64,
    /// Columns of the reduced matrix (constraints the givens leave open).
    pub columns: u64,
}

impl DlxSearch {
    fn empty() -> DlxSearch {
        DlxSearch {
            solutions: 0,
            first: None,
            updates: 0,
            nodes: 0,
            rows: 0,
            columns: 0,
        }
    }

    /// The counters as a solver reports them.
    pub fn counters(&self) -> Counters {
        Counters(vec![
            ("nodes", self.nodes),
            ("updates", self.updates),
            ("rows", self.rows),
            ("columns", self.columns),
            ("solutions", self.solutions),
        ])
    }
}

/// One node of the matrix: its four links and its column header. Kept together so that an
/// update touches one cache line per node, not five arrays.
#[derive(Clone, Copy, Debug)]
struct Node {
    left: u32,
    right: u32,
    up: u32,
    down: u32,
    column: u32,
}

/// The dancing-links matrix: nodes `1..=columns` are the column headers, then four nodes
/// per matrix row. Headers are not linked to each other: the open columns are found by
/// their sizes ([`Matrix::choose_column`]), so node 0, Knuth's root, only keeps the
/// header numbers from 1.
#[derive(Clone, Debug, Default)]
struct Matrix {
    nodes: Vec<Node>,
    /// Nodes per column (at most n ≤ 400, so 16 bits: the column choice scans this array,
    /// and SSE2 takes the minimum of eight `i16` at once).
    size: Vec<i16>,
    /// For each matrix row: (cell, digit).
    row_info: Vec<(u32, u16)>,
    updates: u64,
}

impl Matrix {
    /// Empties the matrix down to `columns` unlinked headers, keeping its buffers.
    fn reset(&mut self, columns: usize) {
        self.nodes.clear();
        self.nodes.extend((0..=columns as u32).map(|h| Node {
            left: h,
            right: h,
            up: h,
            down: h,
            column: h,
        }));
        self.size.clear();
        self.size.resize(columns + 1, 0);
        self.row_info.clear();
    }

    /// Appends a matrix row covering the four given headers.
    fn add_row(&mut self, headers: [u32; 4], info: (u32, u16)) {
        let first = self.nodes.len() as u32;
        let mut row = [Node {
            left: 0,
            right: 0,
            up: 0,
            down: 0,
            column: 0,
        }; 4];
        for (k, (node, &h)) in row.iter_mut().zip(&headers).enumerate() {
            let x = first + k as u32;
            let last = self.nodes[h as usize].up;
            *node = Node {
                left: if k == 0 { first + 3 } else { x - 1 },
                right: if k == 3 { first } else { x + 1 },
                up: last,
                down: h,
                column: h,
            };
            // `last` is a header or a node of an earlier row: both are built already.
            self.nodes[last as usize].down = x;
            self.nodes[h as usize].up = x;
            self.size[h as usize] += 1;
        }
        self.nodes.extend_from_slice(&row);
        self.row_info.push(info);
    }

    fn row_of(&self, x: u32) -> usize {
        (x as usize - self.size.len()) / 4
    }

    fn cover(&mut self, c: u32) {
        let c = c as usize;
        // The header leaves no list: the column choice skips it by its marked size.
        self.size[c] += COVERED;
        // Counted in a local: a field of `self` would be stored at every node, since the
        // node writes could alias it as far as the compiler knows.
        let mut updates = 1;
        let mut i = self.nodes[c].down;
        while i as usize != c {
            let mut j = self.nodes[i as usize].right;
            while j != i {
                let node = self.nodes[j as usize];
                self.nodes[node.up as usize].down = node.down;
                self.nodes[node.down as usize].up = node.up;
                self.size[node.column as usize] -= 1;
                updates += 1;
                j = node.right;
            }
            i = self.nodes[i as usize].down;
        }
        self.updates += updates;
    }

    fn uncover(&mut self, c: u32) {
        let c = c as usize;
        let mut i = self.nodes[c].up;
        while i as usize != c {
            let mut j = self.nodes[i as usize].left;
            while j != i {
                let node = self.nodes[j as usize];
                self.size[node.column as usize] += 1;
                self.nodes[node.up as usize].down = j;
                self.nodes[node.down as usize].up = j;
                j = node.left;
            }
            i = self.nodes[i as usize].up;
        }
        self.size[c] -= COVERED;
    }

    /// Covers the columns of row node `x` other than its own column.
    fn cover_row(&mut self, x: u32) {
        let mut j = self.nodes[x as usize].right;
        while j != x {
            self.cover(self.nodes[j as usize].column);
            j = self.nodes[j as usize].right;
        }
    }

    /// Undoes [`Matrix::cover_row`], in reverse order.
    fn uncover_row(&mut self, x: u32) {
        let mut j = self.nodes[x as usize].left;
        while j != x {
            self.uncover(self.nodes[j as usize].column);
            j = self.nodes[j as usize].left;
        }
    }

    /// The open column with fewest nodes, the first such in header order, except that the
    /// first column with at most one node is taken at once (Knuth's S heuristic with his
    /// early exit); `None` when every column is covered.
    ///
    /// A covered column's size is marked with [`COVERED`] (its own size cannot change while
    /// it is covered: every row still in it has left the other columns' lists), so the
    /// choice scans the contiguous `size` array in header order instead of walking Knuth's
    /// list of open headers: on 25×25 grids with about 1,400 open columns that walk was
    /// 60 % of the search time. Both passes over a block are written so that they
    /// vectorize (a minimum, then a mask of the sizes at most the bound): the exit of a
    /// scalar search for the first one, which the branch predictor misses, alone took 14 %
    /// of a 9×9 batch's time (docs/history.md, "Classic solvers").
    fn choose_column(&self) -> Option<u32> {
        const BLOCK: usize = 64;
        let sizes = &self.size[1..];
        // One pass over blocks (each block's minimum vectorizes): the first block holding a
        // size ≤ 1 decides at once; otherwise the first block holding the least size.
        let mut best: Option<(i16, usize)> = None;
        for (b, block) in sizes.chunks(BLOCK).enumerate() {
            let least = block.iter().copied().fold(i16::MAX, i16::min);
            if least <= 1 {
                best = Some((least, b));
                break;
            }
            if best.map_or(true, |(s, _)| least < s) {
                best = Some((least, b));
            }
        }
        let (least, b) = best?;
        if least >= COVERED {
            return None;
        }
        let block = &sizes[b * BLOCK..sizes.len().min((b + 1) * BLOCK)];
        let i = first_at_most(block, least.max(1))?;
        Some((b * BLOCK + i) as u32 + 1)
    }
}

/// The index of the first of `sizes` at most `bound`, in chunks of 16 whose comparisons
/// are gathered into a bit mask (vector compares, then the mask's lowest bit).
fn first_at_most(sizes: &[i16], bound: i16) -> Option<usize> {
    const CHUNK: usize = 16;
    let mut chunks = sizes.chunks_exact(CHUNK);
    for (k, chunk) in chunks.by_ref().enumerate() {
        let chunk: &[i16; CHUNK] = chunk.try_into().expect("exact chunk");
        let mut mask = 0u32;
        for (bit, &size) in chunk.iter().enumerate() {
            mask |= u32::from(size <= bound) << bit;
        }
        if mask != 0 {
            return Some(k * CHUNK + mask.trailing_zeros() as usize);
        }
    }
    let done = sizes.len() - chunks.remainder().len();
    let rest = chunks.remainder().iter().position(|&size| size <= bound)?;
    Some(done + rest)
}

/// Added to a column's size while it is covered, so that no open column compares above it.
const COVERED: i16 = 1 << 14;

/// The buffers one search needs, kept between searches so that a batch of puzzles
/// allocates nothing per puzzle once the first has been solved.
#[derive(Clone, Debug, Default)]
struct Workspace {
    matrix: Matrix,
    /// Per constraint id: still open after the givens.
    open: Vec<bool>,
    /// Per constraint id: its header node, when open.
    header: Vec<u32>,
    /// `chosen[k]` is the row node chosen at depth k.
    chosen: Vec<u32>,
}

impl Workspace {
    /// Builds the exact-cover matrix of `puzzle` reduced by its givens; `false` when the
    /// givens contradict each other (two of them close the same constraint).
    ///
    /// Constraint ids: cell `cell`, then for unit `u` of the geometry's numbering (rows,
    /// columns, boxes) and digit `v` (0-based) `n² + u·n + v`: the unit table gives the
    /// three ids of a candidate without a division.
    fn build(&mut self, puzzle: &Grid) -> Result<bool, Error> {
        let geo = puzzle.geometry();
        let n = geo.side();
        let n2 = n * n;
        let values = puzzle.values();
        let open = &mut self.open;
        open.clear();
        open.resize(4 * n2, true);
        let unit_ids = |cell: usize, v: usize| {
            geo.units_of(Cell(cell as u32))
                .map(|u| n2 + u.0 as usize * n + v)
        };
        for (cell, &value) in values.iter().enumerate() {
            if value == 0 {
                continue;
            }
            open[cell] = false;
            for id in unit_ids(cell, value as usize - 1) {
                if !std::mem::replace(&mut open[id], false) {
                    return Ok(false);
                }
            }
        }
        let header = &mut self.header;
        header.clear();
        let mut columns = 0u32;
        header.extend(open.iter().map(|&is_open| {
            columns += u32::from(is_open);
            if is_open {
                columns
            } else {
                0
            }
        }));
        let is_row = |cell: usize, v: usize| unit_ids(cell, v).iter().all(|&id| open[id]);
        let empty = values.iter().filter(|&&value| value == 0).count();
        if columns as usize + 1 + 4 * empty * n > MAX_NODES {
            // Only a wide grid gets here: count the rows before building any.
            let rows = (0..n2)
                .filter(|&cell| values[cell] == 0)
                .map(|cell| (0..n).filter(|&v| is_row(cell, v)).count())
                .sum::<usize>();
            if columns as usize + 1 + 4 * rows > MAX_NODES {
                return Err(Error::Unsupported(format!(
                    "dlx: the exact-cover matrix of this {n}x{n} puzzle has {rows} rows, too many to build"
                )));
            }
        }
        let m = &mut self.matrix;
        m.reset(columns as usize);
        for cell in (0..n2).filter(|&cell| values[cell] == 0) {
            // The ids of digit 1 in the cell's row, column and box: digit v's are v further.
            let [r, c, b] = unit_ids(cell, 0);
            let lanes = (&open[r..r + n], &open[c..c + n], &open[b..b + n]);
            // The digits open in all three units, 64 at a time as a bit mask: the rows are
            // added in digit order without a branch per candidate digit.
            for start in (0..n).step_by(64) {
                let end = n.min(start + 64);
                let mut mask = 0u64;
                let (rs, cs, bs) = (
                    &lanes.0[start..end],
                    &lanes.1[start..end],
                    &lanes.2[start..end],
                );
                for (bit, ((&in_row, &in_column), &in_box)) in rs.iter().zip(cs).zip(bs).enumerate()
                {
                    mask |= u64::from(in_row & in_column & in_box) << bit;
                }
                while mask != 0 {
                    let v = start + mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let hs = [header[cell], header[r + v], header[c + v], header[b + v]];
                    m.add_row(hs, (cell as u32, v as u16 + 1));
                }
            }
        }
        Ok(true)
    }
}

/// Searches `puzzle` with Dancing Links until `limit` solutions are found or the search
/// space is exhausted. Contradictory givens give 0 solutions.
///
/// # Errors
/// [`Error::Unsupported`] when the reduced matrix would exceed [`MAX_NODES`] nodes.
pub fn search(puzzle: &Grid, limit: u64) -> Result<DlxSearch, Error> {
    search_until(puzzle, limit, Deadline::NONE)
}

/// [`search`] that gives up when `deadline` passes.
///
/// # Errors
/// As [`search`], and [`Error::TimedOut`] once the deadline has passed.
pub fn search_until(puzzle: &Grid, limit: u64, deadline: Deadline) -> Result<DlxSearch, Error> {
    search_in(&mut Workspace::default(), puzzle, limit, deadline)
}

/// [`search_until`] in buffers kept from earlier searches.
fn search_in(
    work: &mut Workspace,
    puzzle: &Grid,
    limit: u64,
    deadline: Deadline,
) -> Result<DlxSearch, Error> {
    let mut result = DlxSearch::empty();
    if limit == 0 || !work.build(puzzle)? {
        return Ok(result);
    }
    let Workspace {
        matrix: m, chosen, ..
    } = work;
    m.updates = 0;
    chosen.clear();
    result.rows = m.row_info.len() as u64;
    result.columns = m.size.len() as u64 - 1;
    let mut steps = 0u64;
    'search: loop {
        steps += 1;
        if deadline.expired_at(steps) {
            return Err(deadline.timed_out("dlx").into());
        }
        if steps % Deadline::CHECK_PERIOD == 0 {
            crate::run::report_progress(|| Counters(vec![("steps", steps)]));
        }
        // Descend: pick a column and try its first row.
        match m.choose_column() {
            None => {
                result.solutions += 1;
                if result.first.is_none() {
                    let mut grid = puzzle.clone();
                    for &x in chosen.iter() {
                        let (cell, d) = m.row_info[m.row_of(x)];
                        grid.set(Cell(cell), Some(Digit(d)));
                    }
                    result.first = Some(grid);
                }
                if result.solutions >= limit {
                    break 'search;
                }
            }
            Some(c) => {
                m.cover(c);
                let x = m.nodes[c as usize].down;
                if x != c {
                    result.nodes += 1;
                    chosen.push(x);
                    m.cover_row(x);
                    continue 'search;
                }
                m.uncover(c);
            }
        }
        // Backtrack: move the deepest choice to its next row, popping exhausted levels.
        loop {
            let Some(x) = chosen.pop() else {
                break 'search;
            };
            m.uncover_row(x);
            let c = m.nodes[x as usize].column;
            let next = m.nodes[x as usize].down;
            if next != c {
                result.nodes += 1;
                chosen.push(next);
                m.cover_row(next);
                continue 'search;
            }
            m.uncover(c);
        }
    }
    result.updates = m.updates;
    Ok(result)
}

/// Dancing Links as a grid-level [`Solver`]; counts solutions too.
#[derive(Clone, Debug, Default)]
pub struct DlxSolver {
    time_limit: Option<Duration>,
    work: Workspace,
}

impl DlxSolver {
    /// A new solver without a time limit.
    pub fn new() -> DlxSolver {
        DlxSolver::default()
    }
}

impl Solver for DlxSolver {
    fn name(&self) -> String {
        "dlx".to_string()
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        let found = search_in(&mut self.work, puzzle, 1, Deadline::after(self.time_limit))?;
        let counters = found.counters();
        let outcome = match found.first {
            Some(grid) => SolveOutcome::Solved(grid),
            None => SolveOutcome::NoSolution,
        };
        Ok(SolveReport { outcome, counters })
    }

    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        let deadline = Deadline::after(self.time_limit);
        let limit = if limit == 0 { u64::MAX } else { limit };
        Ok(Some(
            search_in(&mut self.work, puzzle, limit, deadline)?.solutions,
        ))
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
    use crate::grid::check_solution;
    use crate::solve::testing::inkala;

    #[test]
    fn solves_inkala_and_proves_uniqueness() {
        let puzzle = inkala();
        let found = search(&puzzle, 2).unwrap();
        assert_eq!(found.solutions, 1);
        let grid = found.first.unwrap();
        assert!(check_solution(&puzzle, &grid).is_valid());
        assert!(found.nodes > 0 && found.updates > 0);
    }

    #[test]
    fn column_choice_follows_knuths_rule() {
        // Fewest nodes, first in header order, first size ≤ 1 at once: these counts were
        // the same with the header-list walk this scan replaced, and any other tie-break
        // changes them.
        let found = search(&inkala(), 1).unwrap();
        assert_eq!((found.nodes, found.updates), (2080, 34714));
    }

    proptest::proptest! {
        #[test]
        fn the_first_size_at_most_a_bound_is_found_as_a_plain_search_finds_it(
            sizes in proptest::collection::vec(-2i16..6, 0..80),
            bound in -1i16..5,
        ) {
            // Lengths across several chunks of 16 and a tail; sizes on both sides of the bound.
            let plain = sizes.iter().position(|&size| size <= bound);
            proptest::prop_assert_eq!(first_at_most(&sizes, bound), plain);
        }
    }

    #[test]
    fn counts_empty_4x4_grids() {
        // There are exactly 288 4×4 Sudoku grids.
        let empty = Grid::empty(2).unwrap();
        assert_eq!(search(&empty, 1000).unwrap().solutions, 288);
        assert_eq!(search(&empty, 5).unwrap().solutions, 5);
        assert_eq!(search(&empty, 0).unwrap().solutions, 0);
    }

    #[test]
    fn contradictions_have_no_solution() {
        let mut puzzle = Grid::empty(2).unwrap();
        puzzle.set(Cell(0), Some(Digit(1)));
        puzzle.set(Cell(1), Some(Digit(1)));
        assert_eq!(search(&puzzle, 2).unwrap().solutions, 0);
        // Consistent givens, but r1c4 has no candidate left.
        let puzzle: Grid = "123....4........".parse().unwrap();
        let report = DlxSolver::new().solve(&puzzle).unwrap();
        assert_eq!(report.outcome, SolveOutcome::NoSolution);
    }

    #[test]
    fn a_reused_solver_answers_as_a_fresh_search() {
        // The kept buffers hold the last puzzle's matrix, of another size or cut short by
        // contradictory givens: none of it may leak into the next answer or its counters.
        let mut solver = DlxSolver::new();
        let mut contradictory = Grid::empty(2).unwrap();
        contradictory.set(Cell(0), Some(Digit(1)));
        contradictory.set(Cell(5), Some(Digit(1)));
        let mut clash = inkala();
        let (cell, digit) = clash.givens().next().unwrap();
        let row = clash.geometry().units_of(cell)[0];
        let peer = clash
            .geometry()
            .unit_cells(row)
            .iter()
            .copied()
            .find(|&c| clash.get(c).is_none())
            .unwrap();
        clash.set(peer, Some(digit));
        let mut open = inkala();
        for (cell, _) in inkala().givens().take(6) {
            open.set(cell, None);
        }
        let puzzles = [
            inkala(),
            Grid::empty(2).unwrap(),
            contradictory,
            inkala(),
            clash,
            Grid::empty(3).unwrap(),
            open.clone(),
            inkala(),
        ];
        for puzzle in &puzzles {
            let fresh = search(puzzle, 1).unwrap();
            let report = solver.solve(puzzle).unwrap();
            assert_eq!(report.counters, fresh.counters());
            match (report.outcome, fresh.first) {
                (SolveOutcome::Solved(grid), Some(first)) => {
                    assert!(check_solution(puzzle, &grid).is_valid());
                    assert_eq!(grid, first);
                }
                (SolveOutcome::NoSolution, None) => {}
                (outcome, first) => panic!("reused {outcome:?}, fresh {first:?}"),
            }
        }
        assert_eq!(
            solver.count_solutions(&Grid::empty(2).unwrap(), 0).unwrap(),
            Some(288)
        );
    }

    #[test]
    fn a_matrix_too_large_to_build_is_an_error_before_it_is_built() {
        // An empty 400×400 grid has 64 million candidate rows, past MAX_NODES.
        let error = search(&Grid::empty(20).unwrap(), 1).unwrap_err();
        assert!(
            matches!(&error, Error::Unsupported(message) if message.contains("64000000 rows")),
            "{error:?}"
        );
    }

    #[test]
    fn full_valid_grid_is_its_own_solution() {
        let full: Grid = "1234341221434321".parse().unwrap();
        let found = search(&full, 2).unwrap();
        assert_eq!(found.solutions, 1);
        assert_eq!(found.first, Some(full));
    }

    #[test]
    fn empty_large_grid_is_solved_iteratively() {
        let empty = Grid::empty(5).unwrap();
        let found = search(&empty, 1).unwrap();
        assert!(check_solution(&empty, &found.first.unwrap()).is_valid());
    }

    #[test]
    fn a_time_limit_stops_a_hopeless_search() {
        let puzzle = crate::solve::testing::hard_25x25();
        crate::solve::testing::assert_times_out(&mut DlxSolver::new(), &puzzle);
        let mut solver = DlxSolver::new();
        solver.set_time_limit(Some(std::time::Duration::from_millis(20)));
        assert!(solver.count_solutions(&puzzle, 2).unwrap_err().is_timeout());
        // Lifting the limit again leaves easy puzzles unaffected.
        solver.set_time_limit(None);
        let easy = inkala();
        assert!(matches!(
            solver.solve(&easy).unwrap().outcome,
            SolveOutcome::Solved(_)
        ));
    }
}
