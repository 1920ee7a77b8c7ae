//! Bitmask backtracking for the generator, on the board the backtracking solver shares
//! ([`UnitMasks`]): a randomised filler (random digit order,
//! minimum-remaining-values cell choice) and a solution counter with a limit.
//!
//! Each row, column and box keeps a `u64` mask of the digits it uses, so grids up to 64×64
//! (b ≤ 8) are searched; larger fills use the permuted pattern of [`pattern_fill`]. The
//! cell choice is the "most constrained variable" heuristic of Norvig (2006, *Solving Every
//! Sudoku Puzzle*), the random digit order the "randomised search" fill used by generators
//! since McGuire et al. (2012) and the thesis this project follows.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::grid::{Geometry, Grid, Isomorphism};
use crate::solve::backtrack::{Mask, UnitMasks};

/// Largest side the bitmask search handles (digits fit one `u64`).
pub const MAX_SEARCH_SIDE: usize = 64;

/// Where a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Keep searching.
    Continue,
    /// Enough solutions found, or the node budget is spent.
    Stop,
}

/// The board of the searches: the digits each unit uses as `u64` masks, shared with the
/// backtracking solver ([`UnitMasks`]); grids up to 64×64.
type Board = UnitMasks<u64>;

/// The generator's branching rule over the shared board.
impl UnitMasks<u64> {
    /// Moves the cell to branch on to `blanks[depth]` and returns the digits to try there
    /// (0 = dead end): a cell with at most one candidate, else a hidden single (a digit
    /// with one place left in some unit), else the cell with the fewest candidates.
    fn choose(&self, blanks: &mut [u32], depth: usize) -> u64 {
        let mask = self.choose_cell(blanks, depth);
        if mask.count_ones() <= 1 {
            return mask;
        }
        match self.hidden_single() {
            None => mask,
            Some(None) => 0,
            Some(Some((cell, bit))) => {
                let at = depth
                    + blanks[depth..]
                        .iter()
                        .position(|&c| c == cell)
                        .expect("a blank cell is in the blank list");
                blanks.swap(depth, at);
                bit
            }
        }
    }

    /// A digit with exactly one place in some unit: `Some(Some((cell, bit)))`;
    /// `Some(None)` when some unit has a missing digit with no place (dead end); `None`
    /// when neither occurs.
    fn hidden_single(&self) -> Option<Option<(u32, u64)>> {
        let full = u64::full(self.geo.side());
        for unit in self.geo.units() {
            let missing = full & !self.used[unit.0 as usize];
            if missing == 0 {
                continue;
            }
            let (mut once, mut twice) = (0u64, 0u64);
            for &cell in self.geo.unit_cells(unit) {
                if self.values[cell.index()] == 0 {
                    let m = self.candidates(cell.index());
                    twice |= once & m;
                    once |= m;
                }
            }
            if missing & !once != 0 {
                return Some(None);
            }
            let single = missing & once & !twice;
            if single != 0 {
                let bit = single & single.wrapping_neg();
                let cell = self
                    .geo
                    .unit_cells(unit)
                    .iter()
                    .find(|c| self.values[c.index()] == 0 && self.candidates(c.index()) & bit != 0)
                    .expect("a digit seen once has a cell");
                return Some(Some((cell.0, bit)));
            }
        }
        None
    }

    /// Moves the blank with the fewest candidates among `blanks[depth..]` to `depth`;
    /// returns its candidate mask (0 = dead end).
    fn choose_cell(&self, blanks: &mut [u32], depth: usize) -> u64 {
        let mut best = depth;
        let mut best_mask = self.candidates(blanks[depth] as usize);
        let mut best_count = best_mask.count_ones();
        for (i, &cell) in blanks.iter().enumerate().skip(depth + 1) {
            if best_count <= 1 {
                break;
            }
            let mask = self.candidates(cell as usize);
            let count = mask.count_ones();
            if count < best_count {
                best = i;
                best_mask = mask;
                best_count = count;
            }
        }
        blanks.swap(depth, best);
        best_mask
    }
}

/// A depth-first search over a board with a node budget.
struct Search<'a, R> {
    board: Board,
    blanks: Vec<u32>,
    /// Random digit order when set (filling), ascending otherwise (counting).
    rng: Option<&'a mut R>,
    limit: u64,
    found: u64,
    nodes: u64,
    max_nodes: u64,
    /// The first solution found.
    first: Option<Vec<u16>>,
}

impl<R: Rng> Search<'_, R> {
    fn run(&mut self, depth: usize) -> Flow {
        if depth == self.blanks.len() {
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(self.board.values.clone());
            }
            return if self.found >= self.limit {
                Flow::Stop
            } else {
                Flow::Continue
            };
        }
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Flow::Stop;
        }
        let mask = self.board.choose(&mut self.blanks, depth);
        let cell = self.blanks[depth] as usize;
        let mut bits = [0u64; MAX_SEARCH_SIDE];
        let mut k = 0;
        let mut m = mask;
        while m != 0 {
            bits[k] = m & m.wrapping_neg();
            m &= m - 1;
            k += 1;
        }
        if let Some(rng) = self.rng.as_deref_mut() {
            bits[..k].shuffle(rng);
        }
        for &bit in &bits[..k] {
            self.board.place(cell, bit.trailing_zeros() as u16 + 1);
            let flow = self.run(depth + 1);
            self.board.unplace(cell);
            if flow == Flow::Stop {
                return Flow::Stop;
            }
        }
        Flow::Continue
    }
}

/// The blank cells of `board` as the search's work list.
fn blanks(board: &Board) -> Vec<u32> {
    board.blanks().into_iter().map(|c| c as u32).collect()
}

/// What a bounded count found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many solutions (capped at the limit).
    Exact(u64),
    /// The node budget ran out after this many solutions; there may be more.
    AtLeast(u64),
}

/// Counts the solutions of `puzzle` up to `limit` by bitmask backtracking (n ≤ 64), using
/// at most `max_nodes` search nodes. Contradictory givens count 0. Returns `None` when
/// `puzzle` is larger than 64×64.
pub fn count_solutions(puzzle: &Grid, limit: u64, max_nodes: u64) -> Option<Count> {
    if puzzle.side() > MAX_SEARCH_SIDE {
        return None;
    }
    let Some(board) = Board::new(puzzle) else {
        return Some(Count::Exact(0));
    };
    let blanks = blanks(&board);
    let mut search: Search<'_, rand_chacha::ChaCha8Rng> = Search {
        board,
        blanks,
        rng: None,
        limit: limit.max(1),
        found: 0,
        nodes: 0,
        max_nodes,
        first: None,
    };
    search.run(0);
    let found = search.found.min(limit);
    Some(if search.nodes > max_nodes {
        Count::AtLeast(found)
    } else {
        Count::Exact(found)
    })
}

/// Completes `puzzle` to a solution chosen at random (random digit order at every node),
/// giving up after `max_nodes` search nodes. `None` when no solution exists, the budget is
/// spent, or the grid is larger than 64×64.
pub fn random_completion<R: Rng>(puzzle: &Grid, rng: &mut R, max_nodes: u64) -> Option<Grid> {
    if puzzle.side() > MAX_SEARCH_SIDE {
        return None;
    }
    let board = Board::new(puzzle)?;
    let blanks = blanks(&board);
    let mut search = Search {
        board,
        blanks,
        rng: Some(rng),
        limit: 1,
        found: 0,
        nodes: 0,
        max_nodes,
        first: None,
    };
    search.run(0);
    Grid::from_values(search.first?)
}

/// A full grid from the standard pattern `(b·(r mod b) + ⌊r/b⌋ + c) mod n`, randomised by
/// the validity-preserving transformations: relabelling the digits, permuting the bands,
/// the rows within each band, the stacks, the columns within each stack, and transposing.
/// Not uniform over all grids, but instant at any size.
pub fn pattern_fill<R: Rng>(geo: &'static Geometry, rng: &mut R) -> Grid {
    let (b, n) = (geo.box_size(), geo.side());
    let mut values = vec![0u16; n * n];
    for r in 0..n {
        for c in 0..n {
            values[r * n + c] = ((b * (r % b) + r / b + c) % n) as u16 + 1;
        }
    }
    let pattern = Grid::from_values(values).expect("a pattern grid has b⁴ cells and digits ≤ n");
    Isomorphism::random(b, rng).apply(&pattern)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::grid::check_grid;

    #[test]
    fn random_completion_fills_valid_grids() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for b in 2..=4 {
            let grid = random_completion(&Grid::empty(b).unwrap(), &mut rng, 1_000_000)
                .unwrap_or_else(|| panic!("b={b}: an empty grid has a completion"));
            assert!(grid.is_full());
            assert!(check_grid(&grid).is_valid(), "b={b}: {grid:?}");
        }
    }

    #[test]
    fn same_seed_same_fill_different_seed_different_fill() {
        let empty = Grid::empty(3).unwrap();
        let fill = |s| random_completion(&empty, &mut ChaCha8Rng::seed_from_u64(s), u64::MAX);
        assert_eq!(fill(1), fill(1));
        assert_ne!(fill(1), fill(2));
    }

    #[test]
    fn counts_known_puzzles() {
        // Thesis grid #1: unique.
        let p: Grid =
            "200070038000006070300040600008020700100000006007030400004080009060400000910060002"
                .parse()
                .unwrap();
        assert_eq!(count_solutions(&p, 2, u64::MAX), Some(Count::Exact(1)));
        // The empty 4×4 grid has 288 solutions.
        let empty = Grid::empty(2).unwrap();
        assert_eq!(
            count_solutions(&empty, 1000, u64::MAX),
            Some(Count::Exact(288))
        );
        assert_eq!(count_solutions(&empty, 2, u64::MAX), Some(Count::Exact(2)));
        // A budget too small for the proof.
        assert_eq!(count_solutions(&p, 2, 3), Some(Count::AtLeast(0)));
        // Clashing givens: none.
        let clash: Grid = "11..............".parse().unwrap();
        assert_eq!(count_solutions(&clash, 2, u64::MAX), Some(Count::Exact(0)));
    }

    #[test]
    fn pattern_fill_is_valid_at_every_size() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for b in [2, 3, 4, 7, 9] {
            let grid = pattern_fill(Geometry::of(b).unwrap(), &mut rng);
            assert!(grid.is_full());
            assert!(check_grid(&grid).is_valid(), "b={b}");
        }
    }
}
