//! Root reasoning on bit boards, for the grids the SAT path holds loaded (9×9 and 4×4,
//! [`crate::solve::sat::loads_root_units`]): naked and hidden singles to their fixpoint,
//! then failed-literal probing on the cells left two candidates. Each digit's places are
//! one 128-bit word over the cells, as bit-parallel Sudoku solvers hold them (tdoku:
//! Dillon 2019, "Fast Sudoku solving with SIMD"), so a placement clears its digit from the
//! cell's peers in one mask, and a rule reads a unit with one `and`.
//!
//! Singles are what unit propagation derives on the extended encoding, here a few words
//! a placement where the held formula walks a clause list for each digit it rules out.
//! Probing is the lookahead of SAT solvers (Freeman 1995, POSIT; Le Berre 2001,
//! "Exploiting the real power of unit propagation lookahead"): a placement whose singles
//! end in a contradiction is in no solution, and a candidate that neither of a cell's two
//! placements keeps is in none either. Singles and probing remove only candidates no
//! solution has, so a grid they settle is the puzzle's only solution, and a cell or unit
//! they leave without a candidate means it has none: either answer is the one the search
//! would give. A probe that settles the grid has found a solution; a solve takes it
//! ([`WordGoal::AnySolution`]), a count goes on ([`WordGoal::EverySolution`])
//! (docs/benchmarks/nine.md, "Root reasoning on 9×9").

use crate::encode::{VarMap, VarRef};
use crate::formula::ClauseSink;
use crate::grid::{Cell, Digit, Geometry, Grid};

/// The most cells a grid may have for its boards to fit a word: 9×9 (and 4×4).
pub const WORD_MAX_CELLS: usize = 128;

/// The widest side whose grid fits a word.
const MAX_SIDE: usize = 9;

/// How the rules left a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordOutcome {
    /// Every cell holds one digit, by singles and failed probes: the puzzle's only
    /// solution ([`WordCandidates::write_placements`]).
    Settled,
    /// A probe settled the grid: a solution, not known to be the only one
    /// ([`WordGoal::AnySolution`] only).
    Probed,
    /// Cells are left with several candidates (or the grid is too wide for a word): the
    /// search decides.
    Open,
    /// A cell without a candidate, or a digit without a place in a unit: no solution.
    Contradiction,
}

/// What the caller wants of a puzzle, which says whether a probe's solution ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordGoal {
    /// One solution (a solve): the first probe that settles the grid answers.
    AnySolution,
    /// Every solution (a count): only what no solution contradicts is kept.
    EverySolution,
}

/// No candidate left somewhere.
#[derive(Debug)]
struct Contradiction;

/// Units a unit set can hold (bits of a `u32`; a 9×9 grid has 27).
const MAX_UNITS: usize = 32;

/// The masks of one side's geometry, built when the side changes. The tables have a fixed
/// length, a power of two, so that a cell or unit taken from a word's bit indexes them
/// without a bounds check.
struct Masks {
    side: usize,
    /// Every cell.
    all: u128,
    /// Per cell, its peers (the other cells of its row, column and box).
    peers: [u128; WORD_MAX_CELLS],
    /// Per unit (rows, columns, boxes, as [`Geometry`] numbers them), its cells.
    units: [u128; MAX_UNITS],
    /// Per cell, its three units as bits of a unit set (`3n` ≤ 32 bits).
    cell_units: [u32; WORD_MAX_CELLS],
    /// Per cell, the units that hold one of its peers: where the digit placed in the cell
    /// may leave a unit one place.
    peer_units: [u32; WORD_MAX_CELLS],
    /// Every unit.
    all_units: u32,
}

impl Default for Masks {
    fn default() -> Masks {
        Masks {
            side: 0,
            all: 0,
            peers: [0; WORD_MAX_CELLS],
            units: [0; MAX_UNITS],
            cell_units: [0; WORD_MAX_CELLS],
            peer_units: [0; WORD_MAX_CELLS],
            all_units: 0,
        }
    }
}

impl Masks {
    fn build(geometry: &Geometry) -> Masks {
        let n = geometry.side();
        let units: Vec<u128> = geometry
            .units()
            .map(|u| {
                let cells = geometry.unit_cells(u).iter();
                cells.fold(0, |mask, cell| mask | 1 << cell.0)
            })
            .collect();
        let peers: Vec<u128> = geometry
            .cells()
            .map(|cell| {
                let [r, c, b] = geometry.units_of(cell).map(|u| units[u.0 as usize]);
                (r | c | b) & !(1 << cell.0)
            })
            .collect();
        let cell_units: Vec<u32> = geometry
            .cells()
            .map(|cell| {
                geometry
                    .units_of(cell)
                    .iter()
                    .fold(0, |set, u| set | 1 << u.0)
            })
            .collect();
        let peer_units: Vec<u32> = peers
            .iter()
            .map(|&peers| {
                let meets = units.iter().map(|&unit| unit & peers != 0);
                meets
                    .enumerate()
                    .fold(0, |set, (u, meets)| set | u32::from(meets) << u)
            })
            .collect();
        let mut masks = Masks {
            side: n,
            all: u128::MAX >> (128 - n * n),
            all_units: u32::MAX >> (32 - 3 * n),
            ..Masks::default()
        };
        masks.peers[..peers.len()].copy_from_slice(&peers);
        masks.units[..units.len()].copy_from_slice(&units);
        masks.cell_units[..cell_units.len()].copy_from_slice(&cell_units);
        masks.peer_units[..peer_units.len()].copy_from_slice(&peer_units);
        masks
    }

    /// The peers of `cell` (a bit of a word: below 128).
    #[inline]
    fn peers(&self, cell: u32) -> u128 {
        self.peers[cell as usize % WORD_MAX_CELLS]
    }

    /// The units of `cell`, as a unit set.
    #[inline]
    fn cell_units(&self, cell: u32) -> u32 {
        self.cell_units[cell as usize % WORD_MAX_CELLS]
    }

    /// The units that hold a peer of `cell`.
    #[inline]
    fn peer_units(&self, cell: u32) -> u32 {
        self.peer_units[cell as usize % WORD_MAX_CELLS]
    }

    /// The cells of `unit` (a bit of a unit set: below 32).
    #[inline]
    fn unit(&self, unit: u32) -> u128 {
        self.units[unit as usize % MAX_UNITS]
    }
}

/// What the rules change, copied whole for a probe (about 240 bytes). Its rules take the
/// side as a constant `N` (9 or 4, the sides that fit a word), so that their loops over
/// the digits have a known length.
#[derive(Clone, Copy, Default)]
struct Board {
    /// Per digit (`d - 1`), the cells that may still hold it.
    places: [u128; MAX_SIDE],
    /// Cells whose digit is placed (taken from their peers).
    placed: u128,
    /// Per digit, the units where it is placed: no rule has anything left to do there.
    done: [u32; MAX_SIDE],
    /// Per digit, the units that lost a place of it since hidden singles last read them:
    /// only those can hold a new hidden single (or none of the digit).
    dirty: [u32; MAX_SIDE],
}

impl Board {
    /// Every candidate open on a grid of `masks`' side, every unit to be read.
    fn open<const N: usize>(masks: &Masks) -> Board {
        let mut board = Board::default();
        board.places[..N].fill(masks.all);
        board.dirty[..N].fill(masks.all_units);
        board
    }

    fn settled(&self, masks: &Masks) -> bool {
        self.placed == masks.all
    }

    /// Digit `d` (0-based) in `cell`, taken from its peers and the cell's other digits;
    /// a contradiction when the cell can no longer hold it.
    #[inline]
    fn place<const N: usize>(
        &mut self,
        masks: &Masks,
        cell: u32,
        d: usize,
    ) -> Result<(), Contradiction> {
        let d = d % N;
        let bit = 1u128 << cell;
        if self.places[d] & bit == 0 {
            return Err(Contradiction);
        }
        let units = masks.cell_units(cell);
        for (places, dirty) in self.places[..N].iter_mut().zip(&mut self.dirty[..N]) {
            *places &= !bit;
            *dirty |= units;
        }
        self.places[d] = (self.places[d] & !masks.peers(cell)) | bit;
        self.placed |= bit;
        self.done[d] |= units;
        self.dirty[d] |= masks.peer_units(cell);
        Ok(())
    }

    /// Naked and hidden singles to their fixpoint: unit propagation on the extended
    /// encoding.
    fn singles<const N: usize>(&mut self, masks: &Masks) -> Result<(), Contradiction> {
        while !self.settled(masks)
            && (self.naked_singles::<N>(masks)? || self.hidden_singles::<N>(masks)?)
        {}
        Ok(())
    }

    /// Per cell, whether it has one candidate or more, two or more, three or more:
    /// bit-sliced counting over the digits' boards.
    fn candidate_counts<const N: usize>(&self) -> [u128; 3] {
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &places in &self.places[..N] {
            three |= two & places;
            two |= one & places;
            one |= places;
        }
        [one, two, three]
    }

    /// Cells left one digit get it; a cell left none is a contradiction. Whether a cell
    /// was placed.
    fn naked_singles<const N: usize>(&mut self, masks: &Masks) -> Result<bool, Contradiction> {
        let (mut one, mut two) = (0u128, 0u128);
        for &places in &self.places[..N] {
            two |= one & places;
            one |= places;
        }
        if one != masks.all {
            return Err(Contradiction);
        }
        let mut singles = one & !two & !self.placed;
        let found = singles != 0;
        while singles != 0 {
            let cell = singles.trailing_zeros();
            singles &= singles - 1;
            // An earlier placement of this sweep may have taken the cell's digit.
            let bit = 1u128 << cell;
            let d = self.places[..N].iter().position(|&p| p & bit != 0);
            self.place::<N>(masks, cell, d.ok_or(Contradiction)?)?;
        }
        Ok(found)
    }

    /// A digit with one place in a unit goes there; a digit with none is a contradiction.
    /// Only the units that lost a place of the digit are read. Whether a cell was placed.
    fn hidden_singles<const N: usize>(&mut self, masks: &Masks) -> Result<bool, Contradiction> {
        let mut found = false;
        for d in 0..N {
            // Its placements below mark units again, which the next sweep reads.
            let mut open = std::mem::take(&mut self.dirty[d]) & !self.done[d];
            while open != 0 {
                let unit = open.trailing_zeros();
                open &= open - 1;
                let here = self.places[d] & masks.unit(unit);
                if here == 0 {
                    return Err(Contradiction);
                }
                // One place, and not a placed cell's: the unit would be done.
                if here & (here - 1) == 0 && here & self.placed == 0 {
                    self.place::<N>(masks, here.trailing_zeros(), d)?;
                    found = true;
                }
            }
        }
        Ok(found)
    }

    /// This board with `d` placed in `cell` and singles run to their fixpoint: a probe
    /// is unit propagation, as in a SAT solver's failed-literal probing.
    fn with_placed<const N: usize>(
        &self,
        masks: &Masks,
        cell: u32,
        d: usize,
    ) -> Result<Board, Contradiction> {
        let mut board = *self;
        board.place::<N>(masks, cell, d)?;
        board.singles::<N>(masks)?;
        Ok(board)
    }

    /// Failed-literal probing on the cells with two candidates, lowest cell first: each
    /// placement is tried with singles to their fixpoint. A refuted one leaves the other
    /// (that board is kept), and a candidate neither keeps is removed (singles then run
    /// again); probing stops when every cell with two candidates was probed since the last
    /// gain. Whether the board holds a solution a probe found (only for
    /// [`WordGoal::AnySolution`]).
    fn probe<const N: usize>(
        &mut self,
        masks: &Masks,
        goal: WordGoal,
    ) -> Result<bool, Contradiction> {
        let any = goal == WordGoal::AnySolution;
        // The cells probed since the last gain.
        let mut tried = 0u128;
        while !self.settled(masks) {
            let [_, two, three] = self.candidate_counts::<N>();
            let pairs = two & !three & !tried;
            if pairs == 0 {
                break;
            }
            let cell = pairs.trailing_zeros();
            let bit = 1u128 << cell;
            let mut digits = (0..N).filter(|&d| self.places[d] & bit != 0);
            let (a, b) = (digits.next().unwrap_or(0), digits.next().unwrap_or(0));
            let with_a = self.with_placed::<N>(masks, cell, a);
            if let Ok(board) = &with_a {
                if any && board.settled(masks) {
                    *self = *board;
                    return Ok(true);
                }
            }
            match (with_a, self.with_placed::<N>(masks, cell, b)) {
                (Err(_), Err(_)) => return Err(Contradiction),
                (Err(_), Ok(board)) | (Ok(board), Err(_)) => *self = board,
                (Ok(with_a), Ok(with_b)) => {
                    if any && with_b.settled(masks) {
                        *self = with_b;
                        return Ok(true);
                    }
                    // Each solution is below one of the two boards.
                    let mut removed = false;
                    for d in 0..N {
                        let kept = with_a.places[d] | with_b.places[d];
                        if self.places[d] & !kept != 0 {
                            self.places[d] &= kept;
                            self.dirty[d] = masks.all_units;
                            removed = true;
                        }
                    }
                    if !removed {
                        tried |= bit;
                        continue;
                    }
                    self.singles::<N>(masks)?;
                }
            }
            tried = 0;
        }
        Ok(false)
    }
}

/// A grid's candidates as one board a digit, with the masks kept from puzzle to puzzle.
#[derive(Default)]
pub struct WordCandidates {
    board: Board,
    masks: Masks,
}

impl WordCandidates {
    /// Applies singles and probing to `puzzle`'s givens, for `goal`. Grids of more than
    /// [`WORD_MAX_CELLS`] cells are left [`WordOutcome::Open`] untouched.
    pub fn reason(&mut self, puzzle: &Grid, goal: WordGoal) -> WordOutcome {
        let geometry = puzzle.geometry();
        let n = geometry.side();
        if n * n > WORD_MAX_CELLS {
            self.board.placed = 0;
            self.masks.side = 0;
            return WordOutcome::Open;
        }
        if self.masks.side != n {
            self.masks = Masks::build(geometry);
        }
        let outcome = match n {
            9 => self.run::<9>(puzzle, goal),
            _ => self.run::<4>(puzzle, goal),
        };
        match outcome {
            Err(Contradiction) => WordOutcome::Contradiction,
            Ok(true) => WordOutcome::Probed,
            Ok(false) if self.board.settled(&self.masks) => WordOutcome::Settled,
            Ok(false) => WordOutcome::Open,
        }
    }

    /// [`WordCandidates::reason`] on a grid of side `N`.
    fn run<const N: usize>(
        &mut self,
        puzzle: &Grid,
        goal: WordGoal,
    ) -> Result<bool, Contradiction> {
        let masks = &self.masks;
        self.board = Board::open::<N>(masks);
        let board = &mut self.board;
        for (cell, digit) in puzzle.givens() {
            board.place::<N>(masks, cell.0, digit.get() - 1)?;
        }
        board.singles::<N>(masks)?;
        board.probe::<N>(masks, goal)
    }

    /// The cells placed (the givens among them), each with its digit: every cell once a
    /// puzzle is [`WordOutcome::Settled`] or [`WordOutcome::Probed`].
    pub fn placements(&self) -> impl Iterator<Item = (Cell, Digit)> + '_ {
        let placed = self.board.placed;
        self.board.places[..self.masks.side]
            .iter()
            .enumerate()
            .flat_map(move |(d, &places)| {
                let mut cells = places & placed;
                std::iter::from_fn(move || {
                    (cells != 0).then(|| {
                        let cell = cells.trailing_zeros();
                        cells &= cells - 1;
                        (Cell(cell), Digit(d as u16 + 1))
                    })
                })
            })
    }

    /// Writes the cells placed into `grid` (of the puzzle's size): the solution of a
    /// settled or probed puzzle.
    pub fn write_placements(&self, grid: &mut Grid) {
        for (cell, digit) in self.placements() {
            grid.set(cell, Some(digit));
        }
    }

    /// Adds a unit clause `¬(cell, digit)` for each candidate the rules removed from a
    /// cell they did not place, where `map` (of the grid with the cells placed) still has
    /// its variable.
    pub fn add_removals(&self, map: &VarMap, sink: &mut impl ClauseSink) {
        let (placed, all) = (self.board.placed, self.masks.all);
        for (d, &places) in self.board.places[..self.masks.side].iter().enumerate() {
            let mut removed = all & !places & !placed;
            while removed != 0 {
                let cell = Cell(removed.trailing_zeros());
                removed &= removed - 1;
                if let VarRef::Var(var) = map.var(cell, Digit(d as u16 + 1)) {
                    sink.add_clause(&[var.lit(false)]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::check_solution;

    fn reasoned(line: &str) -> (WordOutcome, WordCandidates, Grid) {
        reasoned_for(line, WordGoal::EverySolution)
    }

    fn reasoned_for(line: &str, goal: WordGoal) -> (WordOutcome, WordCandidates, Grid) {
        let puzzle: Grid = line.parse().expect("a puzzle line");
        let mut rules = WordCandidates::default();
        let outcome = rules.reason(&puzzle, goal);
        let mut grid = puzzle.clone();
        if matches!(outcome, WordOutcome::Settled | WordOutcome::Probed) {
            rules.write_placements(&mut grid);
        }
        (outcome, rules, grid)
    }

    /// The board singles leave, without probing, read through `sweep`.
    fn singles_board(line: &str, sweep: fn(&mut Board, &Masks) -> bool) -> Board {
        let puzzle: Grid = line.parse().expect("a puzzle line");
        let masks = Masks::build(puzzle.geometry());
        let mut board = Board::open::<9>(&masks);
        for (cell, digit) in puzzle.givens() {
            assert!(board.place::<9>(&masks, cell.0, digit.get() - 1).is_ok());
        }
        while !board.settled(&masks) && sweep(&mut board, &masks) {}
        board
    }

    /// One sweep of singles as `Board::singles` makes it.
    fn sweep(board: &mut Board, masks: &Masks) -> bool {
        let placed = board
            .naked_singles::<9>(masks)
            .and_then(|found| Ok(found || board.hidden_singles::<9>(masks)?));
        placed.expect("no contradiction")
    }

    /// The cells singles alone place, without probing.
    fn placed_by_the_rules(line: &str) -> u32 {
        singles_board(line, sweep).placed.count_ones()
    }

    #[test]
    fn hidden_singles_reading_only_the_units_that_changed_miss_nothing() {
        // Against sweeps that read every unit of every digit.
        fn every_unit(board: &mut Board, masks: &Masks) -> bool {
            board.dirty[..masks.side].fill(masks.all_units);
            sweep(board, masks)
        }
        for line in [
            "...3...6.8.4.71.....2..9.1.4..6...5.57...89....6......1....6..8...84.5.........3.",
            ".....13.4..497.1....15..........9.7.......4.31.6...29.9..2.......3..7.....2.4....",
            "070030000406000009010000050007051080000000506230040000000000008000006000082000034",
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ] {
            let (lean, full) = (singles_board(line, sweep), singles_board(line, every_unit));
            assert_eq!(lean.places, full.places, "{line}");
            assert_eq!(lean.placed, full.placed, "{line}");
        }
    }

    #[test]
    fn failed_probes_settle_what_the_rules_leave_open() {
        // The first of expert-375: the rules place 9 cells beyond its 24 givens and stop;
        // probing settles it, a solution no search was needed for.
        let line =
            "...3...6.8.4.71.....2..9.1.4..6...5.57...89....6......1....6..8...84.5.........3.";
        assert_eq!(placed_by_the_rules(line), 33);
        let (outcome, _, grid) = reasoned(line);
        assert_eq!(outcome, WordOutcome::Settled);
        assert!(check_solution(&line.parse().unwrap(), &grid).is_valid());
        assert_eq!(
            grid.to_line().unwrap(),
            "917385264864271395352469817481693752573128946296754183125936478639847521748512639"
        );
    }

    #[test]
    fn a_probe_that_settles_the_grid_answers_a_solve_and_not_a_count() {
        // A solved grid less a rectangle of 6s and 7s that can be swapped: two solutions.
        let line =
            "534..8912672195348198342567859..1423426853791713924856961537284287419635345286179";
        let (outcome, rules, _) = reasoned_for(line, WordGoal::EverySolution);
        assert_eq!(outcome, WordOutcome::Open);
        assert_eq!(rules.board.placed.count_ones(), 77);
        let (outcome, _, grid) = reasoned_for(line, WordGoal::AnySolution);
        assert_eq!(outcome, WordOutcome::Probed);
        assert!(check_solution(&line.parse().unwrap(), &grid).is_valid());
        assert_eq!(
            grid.to_line().unwrap(),
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
    }

    #[test]
    fn singles_settle_an_easy_puzzle_into_its_solution() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let (outcome, _, grid) = reasoned(line);
        assert_eq!(outcome, WordOutcome::Settled);
        assert!(check_solution(&line.parse().unwrap(), &grid).is_valid());
        assert_eq!(
            grid.to_line().unwrap(),
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
    }

    #[test]
    fn a_hard_puzzle_is_left_to_the_search() {
        // The 33rd of expert-375: the rules place two cells beyond its 23 givens, and
        // probing gains nothing more.
        let line =
            ".....13.4..497.1....15..........9.7.......4.31.6...29.9..2.......3..7.....2.4....";
        assert_eq!(placed_by_the_rules(line), 25);
        let (outcome, rules, _) = reasoned_for(line, WordGoal::AnySolution);
        assert_eq!(outcome, WordOutcome::Open);
        assert_eq!(rules.board.placed.count_ones(), 25);
    }

    #[test]
    fn a_cell_or_a_unit_without_a_candidate_is_a_contradiction() {
        // Row 1 lacks only a 9, and its open cell sees a 9 in its column.
        let line =
            "12345678.........9...............................................................";
        assert_eq!(reasoned(line).0, WordOutcome::Contradiction);
        // Two equal givens in a row.
        let line =
            "11...............................................................................";
        assert_eq!(reasoned(line).0, WordOutcome::Contradiction);
    }

    #[test]
    fn a_grid_too_wide_for_a_word_is_left_open() {
        let puzzle = Grid::empty(4).unwrap();
        assert_eq!(
            WordCandidates::default().reason(&puzzle, WordGoal::AnySolution),
            WordOutcome::Open
        );
    }
}
