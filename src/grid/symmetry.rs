//! The validity-preserving transformations of a Sudoku grid: relabelling the digits,
//! permuting the bands, the rows within each band, the stacks, the columns within each
//! stack, and transposing. Together they generate the grid's symmetry group (of order
//! 2·(b!)^(2b+2)·n! for box size b: 1.2·10¹² for 9×9; Felgenhauer & Jarvis 2006, Russell &
//! Jarvis 2006), which holds the rotations and mirror images as well.
//!
//! An isomorph of a puzzle has as many solutions as the puzzle, each the image of one of
//! the puzzle's, and is exactly as hard for a solver that reasons; a CDCL solver takes
//! another path through each, so timing a puzzle's isomorphs shows the spread of its
//! search rather than one draw from it (docs/history.md, "How changes were measured").
//! Puzzle authors use the rotations and mirrors to present one puzzle in several guises.

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

crate::names::named_enum! {
    /// Which way [`Isomorphism::mirror`] flips a grid (`transform --mirror`).
    pub enum Mirror ("mirror axis") {
        /// Left to right: the columns in reverse order.
        Columns = "columns",
        /// Top to bottom: the rows in reverse order.
        Rows = "rows",
    }
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

/// The largest box size [`canonical`] takes: the symmetry group of a 16×16 grid has
/// 2·(4!)¹⁰ ≈ 1.3·10¹⁴ arrangements of rows and columns, past any search here.
pub const MAX_CANONICAL_BOX_SIZE: usize = 3;

/// The canonical form of a grid (its "minlex" form): of all the grids in its symmetry class,
/// the one whose row-major digit string, blanks as 0, is lexicographically smallest. Two
/// puzzles are isomorphic exactly when their canonical forms are equal, which is how puzzle
/// collections are kept free of disguised duplicates. `None` above box size
/// [`MAX_CANONICAL_BOX_SIZE`].
///
/// How: for each of the 2·(b!)^(b+1) column arrangements (transposed or not), rows are
/// placed one at a time, band by band, and each arrangement's digits relabelled in order
/// of first appearance (the smallest relabelling of that arrangement); a row that makes
/// the prefix larger than the best grid so far cuts its subtree. A 9×9 puzzle takes
/// about a millisecond.
pub fn canonical(grid: &Grid) -> Option<Grid> {
    let b = grid.box_size();
    if b > MAX_CANONICAL_BOX_SIZE {
        return None;
    }
    let n = grid.side();
    let mut search = Minlex {
        b,
        n,
        source: Vec::new(),
        cols: Vec::new(),
        current: vec![0; n * n],
        best: None,
    };
    let column_orders = band_preserving_orders(b);
    for transpose in [false, true] {
        search.source = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                let (r, c) = if transpose { (c, r) } else { (r, c) };
                grid.values()[r * n + c]
            })
            .collect();
        for cols in &column_orders {
            search.cols.clone_from(cols);
            let labels = vec![0u16; n + 1];
            search.place_row(0, &mut vec![false; n], &labels, 0, false);
        }
    }
    Grid::from_values(search.best.expect("every grid has an arrangement"))
}

/// Every order of 0..n that keeps bands of b together (bands permuted, lines within).
fn band_preserving_orders(b: usize) -> Vec<Vec<usize>> {
    let perms = permutations(b);
    let mut orders = Vec::new();
    let mut within = vec![0usize; b]; // index into `perms` for each band position
    for bands in &perms {
        loop {
            let order: Vec<usize> = bands
                .iter()
                .zip(&within)
                .flat_map(|(&band, &w)| perms[w].iter().map(move |&i| band * b + i))
                .collect();
            orders.push(order);
            // The next combination of within-band orders, odometer-style.
            let mut i = b;
            while i > 0 {
                i -= 1;
                within[i] += 1;
                if within[i] < perms.len() {
                    break;
                }
                within[i] = 0;
            }
            if within.iter().all(|&w| w == 0) {
                break;
            }
        }
    }
    orders
}

/// All permutations of 0..k, in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..k {
        for rest in permutations(k - 1) {
            let mut p = vec![first];
            p.extend(rest.into_iter().map(|x| if x >= first { x + 1 } else { x }));
            out.push(p);
        }
    }
    out
}

/// The row-by-row search of [`canonical`] for one column arrangement.
struct Minlex {
    b: usize,
    n: usize,
    /// The grid, transposed or not.
    source: Vec<u16>,
    /// The column arrangement: column j of the image is column cols\[j\] of `source`.
    cols: Vec<usize>,
    /// The image being built, row by row.
    current: Vec<u16>,
    best: Option<Vec<u16>>,
}

impl Minlex {
    /// Places image row `i` (rows `used` are taken), digits relabelled by `labels` (0 =
    /// not seen yet; `next` labels used). `less`: the rows so far are already smaller than
    /// the best's. Returns whether the best changed.
    fn place_row(
        &mut self,
        i: usize,
        used: &mut [bool],
        labels: &[u16],
        next: u16,
        mut less: bool,
    ) -> bool {
        let (b, n) = (self.b, self.n);
        if i == n {
            self.best = Some(self.current.clone());
            return true;
        }
        // Row i opens band i / b: any unused band; else the band chosen at its first row.
        let candidates: Vec<usize> = if i % b == 0 {
            (0..b)
                .filter(|&band| !used[band * b])
                .flat_map(|band| (0..b).map(move |k| band * b + k))
                .collect()
        } else {
            let band = self.band_being_filled(used);
            (0..b).map(|k| band * b + k).filter(|&r| !used[r]).collect()
        };
        let mut changed = false;
        for row in candidates {
            let mut row_labels = labels.to_vec();
            let mut row_next = next;
            for j in 0..n {
                let digit = self.source[row * n + self.cols[j]];
                self.current[i * n + j] = match digit {
                    0 => 0,
                    d => {
                        if row_labels[d as usize] == 0 {
                            row_next += 1;
                            row_labels[d as usize] = row_next;
                        }
                        row_labels[d as usize]
                    }
                };
            }
            let mut child_less = less;
            if !less {
                if let Some(best) = &self.best {
                    let (mine, theirs) =
                        (&self.current[i * n..(i + 1) * n], &best[i * n..(i + 1) * n]);
                    match mine.cmp(theirs) {
                        std::cmp::Ordering::Greater => continue,
                        std::cmp::Ordering::Less => child_less = true,
                        std::cmp::Ordering::Equal => {}
                    }
                } else {
                    child_less = true;
                }
            }
            used[row] = true;
            if self.place_row(i + 1, used, &row_labels, row_next, child_less) {
                // The new best shares this prefix: the next siblings compare against it.
                changed = true;
                less = false;
            }
            used[row] = false;
        }
        changed
    }

    /// The band whose rows are being placed: bands are placed whole, one after another, so
    /// it is the one with some but not all of its rows used.
    fn band_being_filled(&self, used: &[bool]) -> usize {
        let b = self.b;
        (0..b)
            .find(|&band| {
                let taken = (0..b).filter(|&k| used[band * b + k]).count();
                taken > 0 && taken < b
            })
            .expect("a band is being filled")
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

    /// The smallest image over every arrangement, each relabelled by first appearance.
    fn brute_force_minlex(grid: &Grid) -> Vec<u16> {
        let b = grid.box_size();
        let orders = band_preserving_orders(b);
        let mut best: Option<Vec<u16>> = None;
        for transpose in [false, true] {
            for rows in &orders {
                for cols in &orders {
                    let iso = Isomorphism {
                        rows: rows.clone(),
                        cols: cols.clone(),
                        transpose,
                        ..Isomorphism::identity(b)
                    };
                    let mut image = iso.apply(grid).values().to_vec();
                    let mut labels = vec![0u16; grid.side() + 1];
                    let mut next = 0;
                    for v in image.iter_mut().filter(|v| **v != 0) {
                        if labels[*v as usize] == 0 {
                            next += 1;
                            labels[*v as usize] = next;
                        }
                        *v = labels[*v as usize];
                    }
                    if best.as_ref().is_none_or(|b| image < *b) {
                        best = Some(image);
                    }
                }
            }
        }
        best.unwrap()
    }

    #[test]
    fn arrangements_are_every_band_preserving_order_once() {
        for (b, count) in [(2, 8), (3, 1296)] {
            let orders = band_preserving_orders(b);
            assert_eq!(orders.len(), count);
            let distinct: std::collections::HashSet<_> = orders.iter().collect();
            assert_eq!(distinct.len(), count);
            for order in &orders {
                for band in 0..b {
                    let lines = &order[band * b..(band + 1) * b];
                    assert!(lines.iter().all(|&l| l / b == lines[0] / b), "{order:?}");
                }
            }
        }
    }

    #[test]
    fn canonical_forms_match_a_brute_force_over_the_whole_group() {
        // 4×4: every relabelling of every arrangement, against random puzzles.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let solution = grid("1234341221434321");
        for _ in 0..40 {
            let mut puzzle = Isomorphism::random(2, &mut rng).apply(&solution);
            for cell in 0..16 {
                if rng.gen_bool(0.6) {
                    puzzle.set(crate::grid::Cell(cell), None);
                }
            }
            let expected = brute_force_minlex(&puzzle);
            for digits in permutations(4) {
                let relabel =
                    Isomorphism::relabel(2, digits.iter().map(|&d| d as u16 + 1).collect());
                let image = canonical(&relabel.unwrap().apply(&puzzle)).unwrap();
                assert_eq!(image.values(), expected.as_slice(), "{puzzle:?}");
            }
        }
        // 9×9: all 3,359,232 arrangements of one puzzle.
        assert_eq!(
            canonical(&grid(PUZZLE)).unwrap().values(),
            brute_force_minlex(&grid(PUZZLE)).as_slice()
        );
    }

    #[test]
    fn isomorphic_puzzles_share_one_canonical_form() {
        let mut rng = ChaCha8Rng::seed_from_u64(25);
        let other = grid(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        for puzzle in [grid(PUZZLE), grid(SOLUTION), other.clone()] {
            let form = canonical(&puzzle).unwrap();
            assert_eq!(canonical(&form).unwrap(), form, "idempotent");
            assert_eq!(form.num_givens(), puzzle.num_givens());
            for _ in 0..20 {
                let copy = Isomorphism::random(3, &mut rng).apply(&puzzle);
                assert_eq!(canonical(&copy).unwrap(), form);
            }
        }
        assert_ne!(canonical(&grid(PUZZLE)), canonical(&other));
        // The solution's form starts with its first row relabelled 1…9.
        assert_eq!(
            &canonical(&grid(SOLUTION)).unwrap().values()[..9],
            &[1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
        assert!(canonical(&Grid::empty(4).unwrap()).is_none());
    }
}
