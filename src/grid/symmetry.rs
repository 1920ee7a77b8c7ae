//! The validity-preserving transformations of a Sudoku grid: relabelling the digits,
//! permuting the bands, the rows within each band, the stacks, the columns within each
//! stack, and transposing. Together they generate the grid's symmetry group (of order
//! 2·(b!)^(2b+2)·n! for box size b: 1.2·10¹² for 9×9; Felgenhauer & Jarvis 2006, Russell &
//! Jarvis 2006), which holds the rotations and mirror images as well.
//!
//! An isomorph of a puzzle has as many solutions as the puzzle, each the image of one of
//! the puzzle's, and is exactly as hard for a solver that reasons; a CDCL solver takes
//! another path through each, so timing a puzzle's isomorphs shows the spread of its
//! search rather than one draw from it (BENCHMARKS.md, "Draw noise"). Puzzle authors use
//! the rotations and mirrors to present one puzzle in several guises.

use rand::seq::SliceRandom;
use rand::Rng;

use super::Grid;

/// One transformation of the grids of one box size: cell (r, c) of the image holds the
/// relabelled digit of cell (rows\[r\], cols\[c\]) of the original, with row and column
/// swapped afterwards when `transpose` is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isomorphism {
    box_size: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
    /// `digits[d − 1]` is what digit d becomes.
    digits: Vec<u16>,
    transpose: bool,
}

/// Which way [`Isomorphism::mirror`] flips a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// Left to right: the columns in reverse order.
    Columns,
    /// Top to bottom: the rows in reverse order.
    Rows,
}

impl Isomorphism {
    /// The identity on grids of box size `box_size`.
    pub fn identity(box_size: usize) -> Isomorphism {
        let n = box_size * box_size;
        Isomorphism {
            box_size,
            rows: (0..n).collect(),
            cols: (0..n).collect(),
            digits: (1..=n as u16).collect(),
            transpose: false,
        }
    }

    /// Rows become columns (the mirror image in the main diagonal).
    pub fn transpose(box_size: usize) -> Isomorphism {
        Isomorphism {
            transpose: true,
            ..Isomorphism::identity(box_size)
        }
    }

    /// A quarter turn clockwise `quarter_turns` times (4 is the identity).
    pub fn rotate(box_size: usize, quarter_turns: u32) -> Isomorphism {
        let n = box_size * box_size;
        let reversed: Vec<usize> = (0..n).rev().collect();
        let identity = Isomorphism::identity(box_size);
        match quarter_turns % 4 {
            0 => identity,
            // Image (i, j) = original (n−1−j, i).
            1 => Isomorphism {
                rows: reversed,
                transpose: true,
                ..identity
            },
            // Image (i, j) = original (n−1−i, n−1−j).
            2 => Isomorphism {
                rows: reversed.clone(),
                cols: reversed,
                ..identity
            },
            // Image (i, j) = original (j, n−1−i).
            _ => Isomorphism {
                cols: reversed,
                transpose: true,
                ..identity
            },
        }
    }

    /// The mirror image: the columns (or the rows) in reverse order, which reverses the
    /// stacks (bands) and the lines within each.
    pub fn mirror(box_size: usize, axis: Mirror) -> Isomorphism {
        let reversed: Vec<usize> = (0..box_size * box_size).rev().collect();
        let identity = Isomorphism::identity(box_size);
        match axis {
            Mirror::Columns => Isomorphism {
                cols: reversed,
                ..identity
            },
            Mirror::Rows => Isomorphism {
                rows: reversed,
                ..identity
            },
        }
    }

    /// Digit d becomes `digits[d − 1]`; `None` unless `digits` is a permutation of 1…n.
    pub fn relabel(box_size: usize, digits: Vec<u16>) -> Option<Isomorphism> {
        let n = box_size * box_size;
        let mut seen = vec![false; n + 1];
        let is_permutation = digits.len() == n
            && digits.iter().all(|&d| {
                (1..=n).contains(&(d as usize)) && !std::mem::replace(&mut seen[d as usize], true)
            });
        is_permutation.then(|| Isomorphism {
            digits,
            ..Isomorphism::identity(box_size)
        })
    }

    /// A random member of the symmetry group: digits relabelled, bands, rows within bands,
    /// stacks and columns within stacks permuted, transposed half the time. The draws are
    /// taken from `rng` in that order, so a seeded generator gives the same isomorphism.
    pub fn random<R: Rng>(box_size: usize, rng: &mut R) -> Isomorphism {
        let n = box_size * box_size;
        let mut digits: Vec<u16> = (1..=n as u16).collect();
        digits.shuffle(rng);
        let rows = permuted_lines(box_size, rng);
        let cols = permuted_lines(box_size, rng);
        let transpose = rng.gen_bool(0.5);
        Isomorphism {
            box_size,
            rows,
            cols,
            digits,
            transpose,
        }
    }

    /// The box size of the grids it maps.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The image of `grid` (blanks stay blank).
    ///
    /// # Panics
    /// When `grid`'s box size is not this isomorphism's (a programming error).
    pub fn apply(&self, grid: &Grid) -> Grid {
        assert_eq!(
            grid.box_size(),
            self.box_size,
            "grid and isomorphism sizes differ"
        );
        let n = grid.side();
        let source = grid.values();
        let mut values = vec![0u16; n * n];
        for (r, &from_row) in self.rows.iter().enumerate() {
            for (c, &from_col) in self.cols.iter().enumerate() {
                let digit = source[from_row * n + from_col];
                let (tr, tc) = if self.transpose { (c, r) } else { (r, c) };
                values[tr * n + tc] = match digit {
                    0 => 0,
                    d => self.digits[d as usize - 1],
                };
            }
        }
        Grid::from_values(values).expect("an isomorph has the grid's size and digits")
    }
}

/// A permutation of the n lines that keeps bands together: bands shuffled, lines within
/// each band shuffled.
fn permuted_lines<R: Rng>(b: usize, rng: &mut R) -> Vec<usize> {
    let mut bands: Vec<usize> = (0..b).collect();
    bands.shuffle(rng);
    let mut lines = Vec::with_capacity(b * b);
    for band in bands {
        let mut within: Vec<usize> = (0..b).collect();
        within.shuffle(rng);
        lines.extend(within.into_iter().map(|i| band * b + i));
    }
    lines
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::grid::check_grid;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    fn grid(text: &str) -> Grid {
        text.parse().unwrap()
    }

    #[test]
    fn rotations_and_mirrors_move_cells_where_they_should() {
        let puzzle = grid(PUZZLE);
        let n = 9;
        let at = |g: &Grid, r: usize, c: usize| g.values()[r * n + c];
        let quarter = Isomorphism::rotate(3, 1).apply(&puzzle);
        let half = Isomorphism::rotate(3, 2).apply(&puzzle);
        let three = Isomorphism::rotate(3, 3).apply(&puzzle);
        let columns = Isomorphism::mirror(3, Mirror::Columns).apply(&puzzle);
        let rows = Isomorphism::mirror(3, Mirror::Rows).apply(&puzzle);
        let transposed = Isomorphism::transpose(3).apply(&puzzle);
        for i in 0..n {
            for j in 0..n {
                assert_eq!(at(&quarter, i, j), at(&puzzle, n - 1 - j, i));
                assert_eq!(at(&half, i, j), at(&puzzle, n - 1 - i, n - 1 - j));
                assert_eq!(at(&three, i, j), at(&puzzle, j, n - 1 - i));
                assert_eq!(at(&columns, i, j), at(&puzzle, i, n - 1 - j));
                assert_eq!(at(&rows, i, j), at(&puzzle, n - 1 - i, j));
                assert_eq!(at(&transposed, i, j), at(&puzzle, j, i));
            }
        }
        // The top-left given 4 goes to the top-right corner with a quarter turn.
        assert_eq!(at(&quarter, 0, 8), 4);
        let mut turned = puzzle.clone();
        for _ in 0..4 {
            turned = Isomorphism::rotate(3, 1).apply(&turned);
        }
        assert_eq!(turned, puzzle);
        assert_eq!(Isomorphism::rotate(3, 4), Isomorphism::identity(3));
    }

    #[test]
    fn relabelling_takes_only_permutations() {
        let digits: Vec<u16> = (1..=9).rev().collect();
        let swapped = Isomorphism::relabel(3, digits)
            .unwrap()
            .apply(&grid(PUZZLE));
        assert_eq!(swapped.values()[0], 6, "4 becomes 6");
        assert_eq!(swapped.num_givens(), grid(PUZZLE).num_givens());
        assert!(Isomorphism::relabel(3, vec![1, 2, 3, 4, 5, 6, 7, 8, 8]).is_none());
        assert!(Isomorphism::relabel(3, vec![1, 2, 3]).is_none());
        assert!(Isomorphism::relabel(3, vec![0, 2, 3, 4, 5, 6, 7, 8, 9]).is_none());
        assert!(Isomorphism::relabel(2, vec![4, 3, 2, 1]).is_some());
    }

    #[test]
    fn random_isomorphs_of_a_solution_are_solutions_of_the_puzzles_isomorphs() {
        let (puzzle, solution) = (grid(PUZZLE), grid(SOLUTION));
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        let mut distinct = std::collections::HashSet::new();
        for _ in 0..50 {
            let iso = Isomorphism::random(3, &mut rng);
            let (p, s) = (iso.apply(&puzzle), iso.apply(&solution));
            assert!(check_grid(&s).is_valid() && s.is_full());
            assert!(crate::grid::check_solution(&p, &s).is_valid());
            distinct.insert(p);
        }
        assert!(distinct.len() > 45, "{} distinct of 50", distinct.len());
        // The same seed, the same isomorphisms; larger boxes too.
        let draw = |seed| Isomorphism::random(5, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
    }
}
