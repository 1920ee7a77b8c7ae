//! The [`Encoding`] trait and the writing of every [`SudokuEncoding`]: which encoder a
//! choice runs, its size without building it, and the memory its formula takes.

use super::choice::{BaseEncoding, SudokuEncoding};
use super::extended::encode_extended;
use super::free_vars::FreeVars;
use super::groups::{self, base_size};
use super::minimal::encode_minimal;
use super::reduce::{self, reduced_size, ReduceScratch};
use super::varmap::VarMap;
use crate::formula::{ClauseSink, Cnf, CountingSink, FormulaSize};
use crate::grid::Grid;

/// A way to turn a puzzle into CNF.
pub trait Encoding: Send + Sync {
    /// The encoding's name as the CLI spells it, e.g. `minimal`, `extended+reduced`.
    fn name(&self) -> String;

    /// The variable map this encoding uses for `puzzle` (cheap; no clauses).
    fn var_map(&self, puzzle: &Grid) -> VarMap;

    /// Streams every clause for `puzzle` (givens included) into `sink` and returns the map.
    fn encode(&self, puzzle: &Grid, sink: &mut dyn ClauseSink) -> VarMap;

    /// Variables, clauses and literals, from a closed form where one exists, else from a
    /// counting pass (no clause is stored either way).
    fn size(&self, puzzle: &Grid) -> FormulaSize {
        let mut counter = CountingSink::default();
        let map = self.encode(puzzle, &mut counter);
        counter.size.vars = map.num_vars();
        counter.size
    }

    /// The formula in memory with its map.
    fn encode_to_cnf(&self, puzzle: &Grid) -> (Cnf, VarMap) {
        let mut cnf = Cnf::new();
        let map = self.encode(puzzle, &mut cnf);
        cnf.set_num_vars(map.num_vars());
        (cnf, map)
    }
}

/// The sizes of several encodings of one puzzle, as [`Encoding::size`] gives each, with one
/// walk over the groups per reduced base encoding however many at-most-one families share
/// it (the unreduced ones are closed forms).
pub fn sizes_of(puzzle: &Grid, encodings: &[SudokuEncoding]) -> Vec<FormulaSize> {
    let mut shapes: Vec<(BaseEncoding, groups::GroupShape)> = Vec::new();
    encodings
        .iter()
        .map(|enc| {
            if !enc.reduced {
                return enc.size(puzzle);
            }
            let at = match shapes.iter().position(|(base, _)| *base == enc.base) {
                Some(at) => at,
                None => {
                    shapes.push((enc.base, groups::GroupShape::of(puzzle, enc)));
                    shapes.len() - 1
                }
            };
            shapes[at].1.size(enc.amo)
        })
        .collect()
}

/// Bytes a solve needs for a formula of this size, estimated: the flat clause store
/// ([`Cnf`]: 4 bytes a literal, 8 a clause), the backend's own copy with clause headers,
/// and its watch lists (two per clause) and per-variable arrays.
///
/// The per-variable share is the largest measured (`sat -n` on `p cnf 20000000 1`, peak
/// resident memory): cdcl 136 bytes a variable, the lookahead backend 142, the DPLL 83
/// (CaDiCaL takes 166). Clause-heavy Sudoku formulas, whose binary clauses live in
/// implication lists, measure below the estimate (the unreduced 64×64 grid: 854 MB
/// against 1,789 MiB).
pub fn memory_estimate(size: FormulaSize) -> u64 {
    let (v, c, l) = (size.vars as u64, size.clauses as u64, size.literals as u64);
    l.saturating_mul(8)
        .saturating_add(c.saturating_mul(40))
        .saturating_add(v.saturating_mul(BYTES_PER_VARIABLE))
}

/// The per-variable bytes of [`memory_estimate`].
const BYTES_PER_VARIABLE: u64 = 144;

/// Checks, before anything is built, that solving `puzzle` with `encoding` fits in
/// `budget` bytes ([`memory_estimate`] of its closed-form size).
///
/// # Errors
/// [`crate::Error::OverBudget`] naming the size and the ways out.
pub fn check_memory_budget(
    encoding: SudokuEncoding,
    puzzle: &Grid,
    budget: u64,
) -> Result<(), crate::Error> {
    let (n, g) = (puzzle.side(), puzzle.num_givens());
    // The unreduced size is a closed form and bounds the reduced one: the counting pass
    // of the reduced encoding runs only when the bound is over budget.
    let bound = groups::base_size(&encoding, puzzle.box_size(), g);
    if memory_estimate(bound) <= budget {
        return Ok(());
    }
    let size = encoding.size(puzzle);
    let needed = memory_estimate(size);
    if needed <= budget {
        return Ok(());
    }
    Err(crate::Error::OverBudget {
        encoding: encoding.name(),
        side: n,
        size,
        needed,
        budget,
    })
}

impl Encoding for SudokuEncoding {
    fn name(&self) -> String {
        self.spelled()
    }

    fn var_map(&self, puzzle: &Grid) -> VarMap {
        if !self.is_classic() {
            groups::var_map(puzzle, self)
        } else if self.reduced {
            VarMap::reduced(puzzle)
        } else {
            VarMap::base(puzzle)
        }
    }

    fn encode(&self, puzzle: &Grid, sink: &mut dyn ClauseSink) -> VarMap {
        self.encode_into(puzzle, sink)
    }

    /// Closed forms for the base encodings; for the reduced ones, a pass over the groups'
    /// sizes, each group counted by its family's closed form.
    fn size(&self, puzzle: &Grid) -> FormulaSize {
        let g = puzzle.num_givens();
        match (self.is_classic(), self.reduced) {
            (_, false) => base_size(self, puzzle.box_size(), g),
            (true, true) => reduced_size(puzzle, self.base),
            (false, true) => groups::size(puzzle, self),
        }
    }
}

impl SudokuEncoding {
    /// Number of auxiliary variables (numbered after the cell variables) for `puzzle`.
    pub fn num_aux_vars(&self, puzzle: &Grid) -> usize {
        let map = self.var_map(puzzle);
        map.num_vars() - map.num_cell_vars()
    }

    /// [`SudokuEncoding::encode_into`] for a reduced encoding over the free variables
    /// `free` of `puzzle` instead of those its givens leave: fewer candidates in some open
    /// cells (what root reasoning removed), numbered the same way, cell-major and
    /// ascending digit.
    pub(crate) fn encode_free_into<S: ClauseSink + ?Sized>(
        &self,
        puzzle: &Grid,
        free: FreeVars,
        sink: &mut S,
    ) -> VarMap {
        debug_assert!(self.reduced);
        if !self.is_classic() {
            return groups::encode_free(puzzle, self, free, sink);
        }
        reduce::emit(
            puzzle,
            &free,
            self.base,
            &mut ReduceScratch::default(),
            sink,
        );
        VarMap::from_free_vars(puzzle, free)
    }

    /// The size of [`SudokuEncoding::encode_free_into`], by a walk (no clause generated).
    pub(crate) fn size_free(&self, puzzle: &Grid, free: FreeVars) -> FormulaSize {
        debug_assert!(self.reduced);
        if !self.is_classic() {
            return groups::size_free(puzzle, self, free);
        }
        reduce::reduced_size_free(puzzle, &free, self.base)
    }

    /// The map of [`SudokuEncoding::encode_free_into`], without the clauses.
    pub(crate) fn var_map_free(&self, puzzle: &Grid, free: FreeVars) -> VarMap {
        debug_assert!(self.reduced);
        if !self.is_classic() {
            return groups::var_map_free(puzzle, self, free);
        }
        VarMap::from_free_vars(puzzle, free)
    }

    /// As [`Encoding::encode`], generic over the sink so that a concrete one (a [`Cnf`]
    /// buffer) takes each clause without a dynamic call: the hot path of the SAT solver.
    pub fn encode_into<S: ClauseSink + ?Sized>(&self, puzzle: &Grid, sink: &mut S) -> VarMap {
        if !self.is_classic() {
            return groups::encode(puzzle, self, sink);
        }
        match (self.base, self.reduced) {
            (base, true) => {
                // The free variables are computed once, for the clauses and the map.
                let free = FreeVars::of(puzzle);
                reduce::emit(puzzle, &free, base, &mut ReduceScratch::default(), sink);
                VarMap::from_free_vars(puzzle, free)
            }
            (BaseEncoding::Minimal, false) => {
                encode_minimal(puzzle, sink);
                VarMap::base(puzzle)
            }
            (_, false) => {
                encode_extended(puzzle, sink);
                VarMap::base(puzzle)
            }
        }
    }
}

/// An encoding that encodes many puzzles one after another into buffers it keeps: the
/// variable map and the encoder's scratch are refilled, not made anew, for each puzzle of
/// a classic reduced encoding (the default), so that a batch allocates nothing per puzzle
/// once its buffers have grown. Other encodings are encoded as
/// [`SudokuEncoding::encode_into`] does.
#[derive(Clone, Debug)]
pub struct Encoder {
    encoding: SudokuEncoding,
    map: Option<VarMap>,
    scratch: ReduceScratch,
}

impl Encoder {
    /// An encoder of `encoding`, its buffers empty.
    pub fn new(encoding: SudokuEncoding) -> Encoder {
        Encoder {
            encoding,
            map: None,
            scratch: ReduceScratch::default(),
        }
    }

    /// The encoding.
    pub fn encoding(&self) -> SudokuEncoding {
        self.encoding
    }

    /// Streams `puzzle`'s clauses into `sink`, as [`SudokuEncoding::encode_into`], and
    /// keeps its map ([`Encoder::map`]).
    pub fn encode<S: ClauseSink + ?Sized>(&mut self, puzzle: &Grid, sink: &mut S) -> &VarMap {
        let enc = self.encoding;
        match (&mut self.map, enc.is_classic() && enc.reduced) {
            (Some(map), true) => {
                map.refill_reduced(puzzle);
                let free = map.free_vars().expect("a reduced map");
                reduce::emit(puzzle, free, enc.base, &mut self.scratch, sink);
            }
            _ => self.map = Some(enc.encode_into(puzzle, sink)),
        }
        self.map.as_ref().expect("encoded above")
    }

    /// Keeps `map` as the map of the puzzle last encoded (a caller that wrote that
    /// puzzle's formula another way).
    pub fn set_map(&mut self, map: VarMap) {
        self.map = Some(map);
    }

    /// The map of the puzzle last encoded, if any.
    pub fn map(&self) -> Option<&VarMap> {
        self.map.as_ref()
    }
}

#[cfg(test)]
mod group_walk_tests {
    use super::*;
    use crate::encode::amo::AmoFamily;
    use crate::encode::groups::{encode, GroupShape};
    use crate::encode::Encoding;
    use crate::formula::{Cnf, CountingSink};

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

    fn puzzles() -> Vec<Grid> {
        [
            "................",
            "1.3...1..4..2.4.",
            "11..............",
            "123............4",
            "1234341221434321",
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect()
    }

    #[test]
    fn pairwise_walk_equals_the_classic_encoders() {
        for puzzle in puzzles() {
            for base in [BaseEncoding::Minimal, BaseEncoding::Extended] {
                for reduced in [false, true] {
                    let enc = SudokuEncoding::new(base, reduced);
                    let (classic, map) = enc.encode_to_cnf(&puzzle);
                    let mut walked = Cnf::new();
                    let walked_map = encode(&puzzle, &enc, &mut walked);
                    assert_eq!(sorted(&walked), sorted(&classic), "{} {puzzle}", enc.name());
                    assert_eq!(walked_map, map);
                }
            }
        }
    }

    #[test]
    fn sizes_and_maps_match_the_stream() {
        for puzzle in puzzles() {
            for enc in SudokuEncoding::all_families() {
                let mut counter = CountingSink::default();
                let map = enc.encode(&puzzle, &mut counter);
                let (cnf, _) = enc.encode_to_cnf(&puzzle);
                let expected = FormulaSize {
                    vars: map.num_vars(),
                    ..counter.size
                };
                assert_eq!(enc.size(&puzzle), expected, "{} {puzzle}", enc.name());
                assert_eq!(enc.var_map(&puzzle), map, "{} {puzzle}", enc.name());
                assert_eq!(cnf.num_vars(), map.num_vars(), "{} {puzzle}", enc.name());
                assert!(counter.size.vars <= map.num_vars());
            }
        }
    }

    #[test]
    fn one_shape_gives_every_family_its_size() {
        for puzzle in puzzles() {
            for enc in SudokuEncoding::all_families() {
                let shape = GroupShape::of(
                    &puzzle,
                    &SudokuEncoding {
                        amo: AmoFamily::Pairwise,
                        ..enc
                    },
                );
                assert_eq!(
                    shape.size(enc.amo),
                    enc.size(&puzzle),
                    "{} {puzzle}",
                    enc.name()
                );
            }
        }
    }

    #[test]
    fn empty_grid_closed_forms() {
        for b in 2..=4 {
            let grid = Grid::empty(b).unwrap();
            for enc in SudokuEncoding::all_families() {
                if enc.reduced {
                    continue;
                }
                let mut counter = CountingSink::default();
                let map = encode(&grid, &enc, &mut counter);
                assert_eq!(counter.size.clauses, base_size(&enc, b, 0).clauses);
                assert_eq!(counter.size.literals, base_size(&enc, b, 0).literals);
                assert_eq!(map.num_vars(), base_size(&enc, b, 0).vars, "{}", enc.name());
            }
        }
    }
}

#[cfg(test)]
mod reduction_tests {
    use super::*;
    use crate::encode::{Encoding, SudokuEncoding, VarMap, VarRef};
    use crate::formula::Cnf;
    use crate::formula::{Lit, Var};
    use crate::grid::Cell;
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
