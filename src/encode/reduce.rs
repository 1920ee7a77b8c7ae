//! The V⁺/V⁻ reduction of Kwon & Jain (2006, "Optimized CNF Encoding for Sudoku Puzzles"),
//! applicable to the minimal and the extended encoding.
//!
//! V⁺ holds the variables the givens make true, V⁻ those false because they share a cell, or
//! a value in a row, column or box, with a given. Applied to a base encoding, the reduction
//! drops every clause holding a true literal (a V⁺ literal or a negated V⁻ one), strikes the
//! false literals from the rest, and keeps only the free variables, renumbered compactly in
//! cell-major, ascending-value order ([`VarMap::reduced`](super::VarMap::reduced)).
//!
//! This module does **not** filter the base clause stream (the extended encoding of a
//! 225×225 grid has about 5·10⁹ clauses). It generates the surviving clauses directly from
//! the free variables — per blank cell its free digits, per unit and digit not yet placed
//! there its free cells — at a cost proportional to the output. The unit tests check that
//! this equals filtering the base stream. Contradictory givens (a digit twice in a unit)
//! would be lost by filtering; here they yield the empty clause, so the formula is UNSAT.

use super::BaseEncoding;
use crate::formula::{ClauseSink, FormulaSize, Lit, Var};
use crate::grid::{Cell, DigitSet, Grid};

/// The free variables of a puzzle: for each cell, the digits neither given nor excluded by
/// a given peer. Variable `i` (0-based) is the `i`-th free (cell, digit) pair in cell-major,
/// ascending-digit order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FreeVars {
    /// `starts[c]..starts[c + 1]` are the variables of cell `c`.
    pub starts: Vec<u32>,
    /// The digit of each variable.
    pub digits: Vec<u16>,
    /// Whether a digit occurs twice in some unit.
    pub contradictory: bool,
}

impl FreeVars {
    /// Computes the free variables in O(n² + free variables · words).
    pub fn of(puzzle: &Grid) -> FreeVars {
        let geo = puzzle.geometry();
        let n = geo.side();
        let mut placed = vec![DigitSet::EMPTY; geo.num_units()];
        let mut contradictory = false;
        for (cell, d) in puzzle.givens() {
            for unit in geo.units_of(cell) {
                contradictory |= !placed[unit.0 as usize].insert(d);
            }
        }
        let full = DigitSet::full(n);
        let mut starts = Vec::with_capacity(geo.num_cells() + 1);
        let mut digits = Vec::new();
        starts.push(0);
        for cell in geo.cells() {
            if puzzle.get(cell).is_none() {
                let [r, c, b] = geo.units_of(cell);
                let used = placed[r.0 as usize]
                    .union(&placed[c.0 as usize])
                    .union(&placed[b.0 as usize]);
                digits.extend(full.difference(&used).iter().map(|d| d.0));
            }
            starts.push(digits.len() as u32);
        }
        FreeVars {
            starts,
            digits,
            contradictory,
        }
    }

    /// Number of free variables.
    pub fn len(&self) -> usize {
        self.digits.len()
    }

    /// The variables of a cell.
    #[inline]
    pub fn cell_range(&self, cell: Cell) -> std::ops::Range<usize> {
        self.cell_vars(cell)
    }

    #[inline]
    fn cell_vars(&self, cell: Cell) -> std::ops::Range<usize> {
        self.starts[cell.index()] as usize..self.starts[cell.index() + 1] as usize
    }
}

/// Streams the reduced form of `base` for `puzzle`, generated from the free variables.
pub fn encode_reduced<S: ClauseSink + ?Sized>(puzzle: &Grid, base: BaseEncoding, sink: &mut S) {
    let free = FreeVars::of(puzzle);
    emit(puzzle, &free, base, sink);
}

pub(crate) fn emit<S: ClauseSink + ?Sized>(
    puzzle: &Grid,
    free: &FreeVars,
    base: BaseEncoding,
    sink: &mut S,
) {
    let extended = base == BaseEncoding::Extended;
    let geo = puzzle.geometry();
    let n = geo.side();
    sink.reserve_vars(free.len());
    let pos = |i: usize| Var::from_index(i).positive();
    let mut clause: Vec<Lit> = Vec::with_capacity(n);
    // Cells: ≥ 1 free digit (empty when none is left), and pairwise ≤ 1.
    for cell in geo.cells() {
        if puzzle.get(cell).is_some() {
            continue;
        }
        let vars = free.cell_vars(cell);
        clause.clear();
        clause.extend(vars.clone().map(pos));
        sink.add_clause(&clause);
        if extended {
            for i in vars.clone() {
                for j in i + 1..vars.end {
                    sink.add_clause(&[!pos(i), !pos(j)]);
                }
            }
        }
    }
    // Units × digits not placed there: pairwise ≤ 1 over the free cells, and ≥ 1.
    for_each_unit_digit(puzzle, free, |cells| {
        for (k, &a) in cells.iter().enumerate() {
            for &b in &cells[k + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
        if extended {
            sink.add_clause(cells);
        }
    });
    if free.contradictory {
        sink.add_clause(&[]);
    }
}

/// Calls `each` with every unit × digit not given in that unit: the free literals of that
/// digit in the unit's cells, in cell order. The groups both [`emit`] and [`reduced_size`]
/// are made of.
fn for_each_unit_digit(puzzle: &Grid, free: &FreeVars, mut each: impl FnMut(&[Lit])) {
    let geo = puzzle.geometry();
    let mut buckets: Vec<Vec<Lit>> = vec![Vec::new(); geo.side() + 1];
    for unit in geo.units() {
        let mut placed = DigitSet::EMPTY;
        for bucket in &mut buckets {
            bucket.clear();
        }
        for &cell in geo.unit_cells(unit) {
            match puzzle.get(cell) {
                Some(d) => {
                    placed.insert(d);
                }
                None => {
                    for i in free.cell_vars(cell) {
                        buckets[free.digits[i] as usize].push(Var::from_index(i).positive());
                    }
                }
            }
        }
        for d in geo.digits().filter(|&d| !placed.contains(d)) {
            each(&buckets[d.get()]);
        }
    }
}

/// Size of the reduced form of `base` for `puzzle`, from the sizes of the groups `emit`
/// walks: a group of k free literals gives its "at least one" clause (k literals) and
/// k(k−1)/2 binary clauses. Counting the clauses one by one took 8.5 s on an empty
/// 400×400 grid (51·10⁹ clauses); this is linear in the free variables.
pub fn reduced_size(puzzle: &Grid, base: BaseEncoding) -> FormulaSize {
    let free = FreeVars::of(puzzle);
    let extended = base == BaseEncoding::Extended;
    let geo = puzzle.geometry();
    let pairs = |k: usize| k * k.saturating_sub(1) / 2;
    let mut size = FormulaSize {
        vars: free.len(),
        ..FormulaSize::default()
    };
    let mut group = |k: usize, at_least_one: bool, at_most_one: bool| {
        if at_least_one {
            size.clauses += 1;
            size.literals += k;
        }
        if at_most_one {
            size.clauses += pairs(k);
            size.literals += 2 * pairs(k);
        }
    };
    for cell in geo.cells() {
        if puzzle.get(cell).is_none() {
            group(free.cell_vars(cell).len(), true, extended);
        }
    }
    for_each_unit_digit(puzzle, &free, |cells| group(cells.len(), extended, true));
    if free.contradictory {
        group(0, true, false);
    }
    size
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Encoding, SudokuEncoding, VarMap, VarRef};
    use crate::formula::Cnf;
    use crate::grid::Digit;
    use proptest::prelude::*;

    // The variable of (cell, digit) in the reduced numbering, if free (for tests and tools).
    fn free_var(free: &FreeVars, cell: Cell, digit: Digit) -> Option<Var> {
        free.cell_vars(cell)
            .find(|&i| free.digits[i] == digit.0)
            .map(Var::from_index)
    }

    /// The reference: the base stream filtered literally by the Kwon–Jain rules.
    struct Filter<'a> {
        map: &'a VarMap,
        n: usize,
        out: Cnf,
    }

    impl ClauseSink for Filter<'_> {
        fn add_clause(&mut self, clause: &[Lit]) {
            let mut kept = Vec::new();
            for &lit in clause {
                let i = lit.var().index();
                let (cell, digit) = (Cell((i / self.n) as u32), Digit((i % self.n + 1) as u16));
                match self.map.var(cell, digit) {
                    VarRef::Var(v) => kept.push(v.lit(lit.is_positive())),
                    VarRef::True if lit.is_positive() => return,
                    VarRef::False if lit.is_negative() => return,
                    _ => {}
                }
            }
            self.out.add_clause(&kept);
        }
    }

    fn sorted(cnf: &Cnf) -> Vec<Vec<i64>> {
        let mut all: Vec<Vec<i64>> = cnf
            .clauses()
            .map(|c| {
                let mut c: Vec<i64> = c.iter().map(|l| l.to_dimacs()).collect();
                c.sort_unstable();
                c
            })
            .collect();
        all.sort();
        all
    }

    fn puzzle_from(b: usize, picks: &[(usize, u16)]) -> Grid {
        let mut grid = Grid::empty(b).unwrap();
        let n = b * b;
        for &(cell, d) in picks {
            let cell = Cell((cell % (n * n)) as u32);
            let d = Digit(d % n as u16 + 1);
            if grid.get(cell).is_none() && grid.candidates(cell).contains(d) {
                grid.set(cell, Some(d));
            }
        }
        grid
    }

    fn check_direct_equals_filter(puzzle: &Grid) {
        let map = VarMap::reduced(puzzle);
        let free = FreeVars::of(puzzle);
        assert_eq!(free.len(), map.num_vars());
        for cell in puzzle.geometry().cells() {
            for d in puzzle.geometry().digits() {
                let expected = match map.var(cell, d) {
                    VarRef::Var(v) => Some(v),
                    _ => None,
                };
                assert_eq!(free_var(&free, cell, d), expected);
            }
        }
        for base in [BaseEncoding::Minimal, BaseEncoding::Extended] {
            let mut filter = Filter {
                map: &map,
                n: puzzle.side(),
                out: Cnf::new(),
            };
            SudokuEncoding::new(base, false).encode(puzzle, &mut filter);
            let (direct, _) = SudokuEncoding::new(base, true).encode_to_cnf(puzzle);
            assert_eq!(sorted(&direct), sorted(&filter.out), "{base:?} {puzzle}");
            let size = reduced_size(puzzle, base);
            assert_eq!(size.clauses, direct.num_clauses());
            assert_eq!(size.literals, direct.num_literals());
            assert_eq!(size.vars, map.num_vars());
        }
    }

    proptest! {
        #[test]
        fn direct_generation_equals_filtering_4x4(picks in prop::collection::vec((0usize..16, 0u16..4), 0..12)) {
            check_direct_equals_filter(&puzzle_from(2, &picks));
        }

        #[test]
        fn direct_generation_equals_filtering_9x9(picks in prop::collection::vec((0usize..81, 0u16..9), 0..40)) {
            check_direct_equals_filter(&puzzle_from(3, &picks));
        }
    }

    #[test]
    fn empty_grid_reduces_to_itself() {
        let grid = Grid::empty(3).unwrap();
        for base in [BaseEncoding::Minimal, BaseEncoding::Extended] {
            let full = SudokuEncoding::new(base, false).size(&grid);
            assert_eq!(reduced_size(&grid, base), full);
        }
    }

    #[test]
    fn contradictory_givens_give_the_empty_clause() {
        let puzzle: Grid = "11..............".parse().unwrap();
        for base in [BaseEncoding::Minimal, BaseEncoding::Extended] {
            let (cnf, _) = SudokuEncoding::new(base, true).encode_to_cnf(&puzzle);
            assert!(cnf.clauses().any(|c| c.is_empty()), "{base:?}");
        }
    }

    #[test]
    fn blank_cell_without_candidates_gives_the_empty_clause() {
        // r1c4 sees 1, 2, 3 in its row and 4 in its column.
        let puzzle: Grid = "123............4".parse().unwrap();
        let free = FreeVars::of(&puzzle);
        assert!(!free.contradictory);
        let (cnf, _) = SudokuEncoding::new(BaseEncoding::Minimal, true).encode_to_cnf(&puzzle);
        assert!(cnf.clauses().any(|c| c.is_empty()));
    }
}
