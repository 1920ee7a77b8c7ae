//! The generator: random full grids, clue removal under a symmetry, properness by a
//! solution counter, batches on every core.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::grade;
use super::search::{self, count_solutions as bitmask_count, pattern_fill, Count, MAX_SEARCH_SIDE};
use crate::grid::{Cell, Geometry, Grid, MAX_BOX_SIZE, MIN_BOX_SIZE};
use crate::solve::{ClassicKind, Solver, SolverSpec};
use crate::Error;

/// Search nodes per cell one randomised fill may use before it restarts: the search time
/// is heavy-tailed, so many short runs beat one long one (at 25×25 a budget of 4·n² nodes
/// succeeds about half the time).
const FILL_NODES_PER_CELL: u64 = 4;
/// Restarts of the randomised fill before the permuted pattern is used instead.
const FILL_RESTARTS: u32 = 64;

/// Default number of fresh fills tried for one puzzle before giving up on a clue target.
pub const DEFAULT_MAX_FILLS: u32 = 200;

crate::names::named_enum! {
    /// The symmetry of the pattern of givens (`--symmetry`).
    #[derive(Default)]
    pub enum Symmetry ("symmetry") {
        /// No symmetry: single cells are removed.
        #[default]
        None = "none",
        /// Half-turn (180°) rotational symmetry, the usual one in published puzzles.
        Rot180 = "rot180",
        /// Quarter-turn (90°) rotational symmetry.
        Rot90 = "rot90",
        /// Mirror symmetry about the vertical axis (left ↔ right).
        Mirror = "mirror",
        /// Mirror symmetry about the main diagonal (row ↔ column).
        Diagonal = "diagonal",
    }
}

impl Symmetry {
    /// The images of `cell` under the symmetry's group (the cell itself first; may repeat).
    fn images(self, geo: &Geometry, cell: Cell) -> Vec<Cell> {
        let n = geo.side();
        let (r, c) = (geo.row_of(cell), geo.col_of(cell));
        let at = |r: usize, c: usize| geo.cell(r, c);
        match self {
            Symmetry::None => vec![cell],
            Symmetry::Rot180 => vec![cell, at(n - 1 - r, n - 1 - c)],
            Symmetry::Rot90 => vec![
                cell,
                at(c, n - 1 - r),
                at(n - 1 - r, n - 1 - c),
                at(n - 1 - c, r),
            ],
            Symmetry::Mirror => vec![cell, at(r, n - 1 - c)],
            Symmetry::Diagonal => vec![cell, at(c, r)],
        }
    }

    /// The orbits of the grid's cells: sets of cells the symmetry maps onto each other,
    /// each sorted, in order of their first cell. Removing whole orbits keeps a pattern
    /// symmetric.
    pub fn orbits(self, geo: &Geometry) -> Vec<Vec<Cell>> {
        let mut seen = vec![false; geo.num_cells()];
        let mut orbits = Vec::new();
        for cell in geo.cells() {
            if seen[cell.index()] {
                continue;
            }
            let mut orbit = self.images(geo, cell);
            orbit.sort();
            orbit.dedup();
            for c in &orbit {
                seen[c.index()] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether the pattern of givens of `grid` has this symmetry.
    pub fn holds_for(self, grid: &Grid) -> bool {
        let geo = grid.geometry();
        geo.cells().all(|cell| {
            let given = grid.get(cell).is_some();
            self.images(geo, cell)
                .into_iter()
                .all(|img| grid.get(img).is_some() == given)
        })
    }

    /// Whether a pattern with exactly `clues` givens and this symmetry exists on `geo`.
    pub fn can_have(self, geo: &Geometry, clues: usize) -> bool {
        let mut by_size = [0usize; 5];
        for orbit in self.orbits(geo) {
            by_size[orbit.len()] += 1;
        }
        let [_, ones, twos, _, fours] = by_size;
        (0..=fours.min(clues / 4)).any(|a4| {
            let rest = clues - 4 * a4;
            let a2 = twos.min(rest / 2);
            rest - 2 * a2 <= ones
        })
    }
}

/// Number of levels of the thesis's study (level 1 has the most clues, level 20 the fewest).
pub const NUM_LEVELS: u32 = 20;

/// Levels above [`NUM_LEVELS`] read as "the 9×9 clue count" (`--level 21..=40`).
pub const MAX_CLUE_COUNT_LEVEL: u32 = 40;

/// The clue count of a difficulty level for box size `b` (n = b²).
///
/// The thesis's study used 20 levels by number of givens: 20…40 givens for 9×9 and
/// 60…117 for 16×16. Level L in 1…20 gets, with (lo, hi) that size's range,
///
/// ```text
/// clues(L) = round(hi − (hi − lo)·(L − 1)/19)        (level 1 = hi clues, level 20 = lo)
/// ```
///
/// and for other sizes (lo, hi) = n²·(20/81, 40/81), the 9×9 range scaled by the number of
/// cells (4×4: 4…8, 25×25: 154…309). Levels 21…40 read as *a 9×9 clue count*, scaled the
/// same way: `clues = round(L·n²/81)` (so on 9×9, level 30 is 30 clues); level 20 means 20
/// clues on 9×9 under both readings.
///
/// # Errors
/// [`GenerateError::Level`] for a level outside 1…40, [`GenerateError::BoxSize`] for an
/// unsupported box size.
pub fn clues_for_level(box_size: usize, level: u32) -> Result<usize, GenerateError> {
    let geo = Geometry::of(box_size).ok_or(GenerateError::BoxSize(box_size))?;
    let cells = geo.num_cells() as f64;
    if !(1..=MAX_CLUE_COUNT_LEVEL).contains(&level) {
        return Err(GenerateError::Level(level));
    }
    if level > NUM_LEVELS {
        return Ok((level as f64 * cells / 81.0).round() as usize);
    }
    let (lo, hi) = match box_size {
        3 => (20.0, 40.0),
        4 => (60.0, 117.0),
        _ => (cells * 20.0 / 81.0, cells * 40.0 / 81.0),
    };
    let step = (hi - lo) / (NUM_LEVELS - 1) as f64;
    Ok((hi - step * (level - 1) as f64).round() as usize)
}

/// The fewest clues a uniquely solvable n×n puzzle can have, as far as known: 17 for 9×9
/// (McGuire et al. 2014), 4 for 4×4, n − 1 in general.
pub fn min_unique_clues(box_size: usize) -> usize {
    match box_size {
        2 => 4,
        3 => 17,
        b => b * b - 1,
    }
}

/// Failures and refused requests of the generator.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The box size is outside the supported range.
    #[error(
        "box size {0} is not supported; expected {MIN_BOX_SIZE}…{MAX_BOX_SIZE} (4×4 … 400×400)"
    )]
    BoxSize(usize),
    /// More clues than cells.
    #[error("{clues} clues do not fit a {side}×{side} grid ({cells} cells)")]
    TooManyClues {
        /// The requested count.
        clues: usize,
        /// Side n.
        side: usize,
        /// n².
        cells: usize,
    },
    /// Fewer clues than any unique puzzle of the size has.
    #[error(
        "no {side}×{side} puzzle with fewer than {min} clues has a unique solution; \
         ask for at least {min} clues or pass --no-unique"
    )]
    TooFewClues {
        /// Side n.
        side: usize,
        /// The known lower bound.
        min: usize,
    },
    /// A level outside 1…40.
    #[error(
        "level {0} is out of range; expected 1…20 (the study's levels) or 21…40 (a 9×9 clue count)"
    )]
    Level(u32),
    /// The symmetry cannot produce the clue count.
    #[error("a {side}×{side} pattern with {symmetry} symmetry cannot have exactly {clues} clues")]
    SymmetryCount {
        /// The requested count.
        clues: usize,
        /// Side n.
        side: usize,
        /// The symmetry.
        symmetry: Symmetry,
    },
    /// Removing a fixed number of clues without the uniqueness check needs that number.
    #[error("--no-unique needs a clue count (--clues or --level)")]
    NoTarget,
    /// The clue target was not reached within the cap of fresh fills.
    #[error(
        "no unique {side}×{side} puzzle with {clues} clues found in {fills} fills \
         (fewest reached: {best}); raise --max-fills or ask for more clues"
    )]
    Unreached {
        /// Side n.
        side: usize,
        /// The requested count.
        clues: usize,
        /// The fewest clues any fill got down to.
        best: usize,
        /// Fills tried.
        fills: u32,
    },
    /// No puzzle of the wanted grade appeared within the attempts cap.
    #[error("no puzzle graded {grade} in {}; raise --max-attempts", crate::names::plural(*attempts, "attempt"))]
    GradeUnreached {
        /// The wanted grade.
        grade: grade::Grade,
        /// Puzzles generated and graded.
        attempts: u32,
    },
    /// The solution counter failed.
    #[error(transparent)]
    Counter(#[from] Error),
}

/// Counts solutions up to a limit: the uniqueness check of the generator.
pub trait SolutionCounter: Send {
    /// Counts the solutions of `puzzle`, stopping at `limit`. A counter with a work budget
    /// answers `limit` when the budget runs out, so "exactly one" is only ever answered
    /// when proven (the generator then keeps the clue).
    ///
    /// # Errors
    /// When the underlying method fails or cannot count this puzzle.
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Result<u64, Error>;
}

/// Default search-node budget of one [`BitmaskCounter`] count. A 9×9 count takes tens to
/// a few thousand nodes; at 25×25 a wrong branch can hide an unsatisfiable subtree that
/// singles alone take minutes to refute, and the budget turns that into "keep the clue".
pub const DEFAULT_COUNT_BUDGET: u64 = 20_000;

/// The built-in bitmask backtracking counter (grids up to 64×64) with a node budget per
/// count: when it runs out the count answers the limit (not proven unique), so puzzles
/// stay unique but may keep a clue a full search would have removed.
#[derive(Clone, Copy, Debug)]
pub struct BitmaskCounter {
    /// Search nodes per count.
    pub max_nodes: u64,
}

impl Default for BitmaskCounter {
    fn default() -> Self {
        BitmaskCounter {
            max_nodes: DEFAULT_COUNT_BUDGET,
        }
    }
}

impl SolutionCounter for BitmaskCounter {
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Result<u64, Error> {
        match bitmask_count(puzzle, limit, self.max_nodes) {
            Some(Count::Exact(k)) => Ok(k),
            Some(Count::AtLeast(_)) => Ok(limit),
            None => Err(Error::Unsupported(format!(
                "the bitmask counter handles grids up to {MAX_SEARCH_SIDE}×{MAX_SEARCH_SIDE}"
            ))),
        }
    }
}

/// Any grid-level [`Solver`] that can count (Dancing Links, the SAT path, backtracking) as
/// a counter: build it with [`SolverSpec::build`].
pub struct SolverCounter(pub Box<dyn Solver>);

impl SolutionCounter for SolverCounter {
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Result<u64, Error> {
        let name = self.0.name();
        self.0
            .count_solutions(puzzle, limit)?
            .ok_or_else(|| Error::Unsupported(format!("solver `{name}` cannot count solutions")))
    }
}

crate::names::named_enum! {
    /// The counters the generator can check uniqueness with (`--counter`).
    #[derive(Default)]
    pub enum CounterKind ("counter") {
        /// Dancing Links (Knuth 2000), the classic solver `dlx`: the default.
        #[default]
        Dlx = "dlx",
        /// The SAT path with blocking clauses: [`SolverSpec::default`] (default encoding
        /// and backend).
        Sat = "sat",
        /// The built-in bitmask backtracking counter of this module (grids up to 64×64,
        /// with a node budget per count: see [`BitmaskCounter`]).
        Bitmask = "bitmask",
    }
}

impl CounterKind {
    /// The counter `--counter auto` picks for box size `b`: DLX up to 16×16
    /// (Dancing Links, Knuth 2000), the budgeted bitmask counter above, where an unbounded
    /// exact count can run for minutes.
    pub fn auto(box_size: usize) -> CounterKind {
        if box_size <= 4 {
            CounterKind::Dlx
        } else {
            CounterKind::Bitmask
        }
    }

    /// The grid-level solver this counter is, built like every other through
    /// [`SolverSpec`]; `None` for the bitmask counter, which is the generator's own.
    pub fn spec(self) -> Option<SolverSpec> {
        match self {
            CounterKind::Dlx => Some(SolverSpec::classic(ClassicKind::Dlx)),
            CounterKind::Sat => Some(SolverSpec::default()),
            CounterKind::Bitmask => None,
        }
    }

    /// A fresh counter of this kind.
    pub fn make(self) -> Box<dyn SolutionCounter> {
        match self.spec() {
            Some(spec) => Box::new(SolverCounter(spec.build(None))),
            None => Box::new(BitmaskCounter::default()),
        }
    }
}

/// A puzzle as its author sees it: how many solutions it has and, with exactly one,
/// which givens could go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Properness {
    /// No solution.
    NoSolution,
    /// Two or more solutions.
    Several,
    /// Exactly one solution. `redundant` lists the givens that can each go alone with the
    /// solution staying unique (row-major order); the puzzle is *minimal* when it is empty.
    /// Two of them may not go together.
    Unique {
        /// The givens that can each go alone.
        redundant: Vec<Cell>,
    },
}

/// Whether `puzzle` is proper (exactly one solution) and minimal (no given can go without
/// losing uniqueness), counting up to 2: once for the puzzle, then for it without each
/// given, on every core (rayon), each worker with a counter from `make_counter`. Use an
/// exact counter (Dancing Links, the SAT path): a budgeted one would call some redundant
/// givens necessary.
///
/// # Errors
/// When a counter fails (e.g. a time limit).
pub fn properness(
    puzzle: &Grid,
    make_counter: &(dyn Fn() -> Box<dyn SolutionCounter> + Sync),
) -> Result<Properness, Error> {
    match make_counter().count(puzzle, 2)? {
        0 => return Ok(Properness::NoSolution),
        1 => {}
        _ => return Ok(Properness::Several),
    }
    let givens: Vec<Cell> = puzzle.givens().map(|(cell, _)| cell).collect();
    let keeps_unique = givens
        .par_iter()
        .map_init(make_counter, |counter, &cell| {
            let mut without = puzzle.clone();
            without.set(cell, None);
            Ok(counter.count(&without, 2)? == 1)
        })
        .collect::<Result<Vec<bool>, Error>>()?;
    let redundant = givens
        .into_iter()
        .zip(keeps_unique)
        .filter_map(|(cell, redundant)| redundant.then_some(cell))
        .collect();
    Ok(Properness::Unique { redundant })
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Box size b (the grid is b²×b²).
    pub box_size: usize,
    /// Clue count wanted; `None` = as few as possible (a minimal puzzle; needs `unique`).
    pub clues: Option<usize>,
    /// Symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// Keep the solution unique (checked after every removal).
    pub unique: bool,
    /// Fresh fills tried before a clue target is given up.
    pub max_fills: u32,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            box_size: 3,
            clues: None,
            symmetry: Symmetry::None,
            unique: true,
            max_fills: DEFAULT_MAX_FILLS,
        }
    }
}

impl GenerateOptions {
    /// Refuses requests no puzzle can meet, before any work.
    ///
    /// # Errors
    /// [`GenerateError::BoxSize`], [`GenerateError::TooManyClues`],
    /// [`GenerateError::TooFewClues`], [`GenerateError::SymmetryCount`],
    /// [`GenerateError::NoTarget`].
    pub fn validate(&self) -> Result<&'static Geometry, GenerateError> {
        let geo = Geometry::of(self.box_size).ok_or(GenerateError::BoxSize(self.box_size))?;
        let side = geo.side();
        match self.clues {
            None if !self.unique => return Err(GenerateError::NoTarget),
            None => {}
            Some(clues) => {
                if clues > geo.num_cells() {
                    return Err(GenerateError::TooManyClues {
                        clues,
                        side,
                        cells: geo.num_cells(),
                    });
                }
                let min = min_unique_clues(self.box_size);
                if self.unique && clues < min {
                    return Err(GenerateError::TooFewClues { side, min });
                }
                if !self.symmetry.can_have(geo, clues) {
                    return Err(GenerateError::SymmetryCount {
                        clues,
                        side,
                        symmetry: self.symmetry,
                    });
                }
            }
        }
        Ok(geo)
    }
}

/// One generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// The filled grid it was cut from (its unique solution when uniqueness was on).
    pub solution: Grid,
    /// Fresh fills it took (1 unless a clue target forced retries).
    pub fills: u32,
}

/// A full grid chosen by randomised search (b ≤ 8, restarted with a node budget), falling
/// back to a randomly permuted pattern grid ([`pattern_fill`]) for larger sizes or when the
/// search keeps stalling (in practice from 36×36 up).
pub fn random_fill(geo: &'static Geometry, rng: &mut ChaCha8Rng) -> Grid {
    if geo.side() <= MAX_SEARCH_SIDE {
        let empty = Grid::empty(geo.box_size()).expect("a geometry's box size is supported");
        let budget = FILL_NODES_PER_CELL * geo.num_cells() as u64;
        for _ in 0..FILL_RESTARTS {
            if let Some(grid) = search::random_completion(&empty, rng, budget) {
                return grid;
            }
        }
    }
    pattern_fill(geo, rng)
}

/// Generates one puzzle, drawing every random choice from `rng`.
///
/// # Errors
/// The refusals of [`GenerateOptions::validate`]; [`GenerateError::Unreached`] when no fill
/// within [`GenerateOptions::max_fills`] got down to the clue target; counter failures.
pub fn generate(
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
    counter: &mut dyn SolutionCounter,
) -> Result<Generated, GenerateError> {
    let geo = options.validate()?;
    let orbits = options.symmetry.orbits(geo);
    let target = options.clues.unwrap_or(0);
    let max_fills = options.max_fills.max(1);
    let mut best = geo.num_cells();
    for fills in 1..=max_fills {
        let solution = random_fill(geo, rng);
        let mut puzzle = solution.clone();
        let mut order: Vec<&Vec<Cell>> = orbits.iter().collect();
        order.shuffle(rng);
        let mut clues = geo.num_cells();
        for orbit in order {
            if clues == target {
                break;
            }
            if clues - orbit.len() < target {
                continue;
            }
            for &cell in orbit {
                puzzle.set(cell, None);
            }
            if options.unique && counter.count(&puzzle, 2)? != 1 {
                for &cell in orbit {
                    puzzle.set(cell, solution.get(cell));
                }
            } else {
                clues -= orbit.len();
            }
        }
        if options.clues.map_or(true, |t| t == clues) {
            return Ok(Generated {
                puzzle,
                solution,
                fills,
            });
        }
        best = best.min(clues);
    }
    Err(GenerateError::Unreached {
        side: geo.side(),
        clues: target,
        best,
        fills: max_fills,
    })
}

/// The seed of puzzle `index` of a batch with master seed `seed` (SplitMix64 mixing, so
/// neighbouring indices get unrelated streams).
pub fn puzzle_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ splitmix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A filter on generated puzzles with a cap: keep generating (same random stream) until a
/// puzzle passes, at most `max_attempts` puzzles.
pub struct Acceptance<'a> {
    /// Whether a puzzle is wanted.
    pub accept: &'a (dyn Fn(&Grid) -> Result<bool, Error> + Sync),
    /// Puzzles generated per wanted one before giving up.
    pub max_attempts: u32,
    /// The grade reported when the cap is reached.
    pub grade: grade::Grade,
}

/// Generates `count` puzzles in parallel (rayon), puzzle `i` from
/// [`puzzle_seed`]`(seed, i)`: the same puzzles in the same order for any thread count.
/// `make_counter` builds one counter per worker; `progress` is called once per finished
/// puzzle (from any thread).
pub fn generate_batch(
    options: &GenerateOptions,
    count: usize,
    seed: u64,
    make_counter: &(dyn Fn() -> Box<dyn SolutionCounter> + Sync),
    acceptance: Option<&Acceptance<'_>>,
    progress: &(dyn Fn() + Sync),
) -> Vec<Result<Generated, GenerateError>> {
    (0..count)
        .into_par_iter()
        .map_init(make_counter, |counter, i| {
            let mut rng = ChaCha8Rng::seed_from_u64(puzzle_seed(seed, i as u64));
            let result = generate_accepted(options, &mut rng, counter.as_mut(), acceptance);
            progress();
            result
        })
        .collect()
}

fn generate_accepted(
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
    counter: &mut dyn SolutionCounter,
    acceptance: Option<&Acceptance<'_>>,
) -> Result<Generated, GenerateError> {
    let Some(acc) = acceptance else {
        return generate(options, rng, counter);
    };
    for _ in 0..acc.max_attempts.max(1) {
        let generated = generate(options, rng, counter)?;
        if (acc.accept)(&generated.puzzle)? {
            return Ok(generated);
        }
    }
    Err(GenerateError::GradeUnreached {
        grade: acc.grade,
        attempts: acc.max_attempts.max(1),
    })
}

/// A generated 9×9 puzzle (default options, Dancing Links counting) and its solution: the
/// seeded material of the diagnosis and refutation tests.
#[cfg(test)]
pub(crate) fn generated_for_tests(seed: u64) -> (Grid, Grid) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counter = CounterKind::Dlx.make();
    let g = generate(&GenerateOptions::default(), &mut rng, counter.as_mut())
        .expect("a 9×9 puzzle is generated");
    (g.puzzle, g.solution)
}

/// A grid of box size `box_size` holding only `givens`.
#[cfg(test)]
pub(crate) fn grid_of_for_tests(box_size: usize, givens: &[(Cell, crate::grid::Digit)]) -> Grid {
    let mut grid = Grid::empty(box_size).expect("a supported box size");
    for &(cell, digit) in givens {
        grid.set(cell, Some(digit));
    }
    grid
}

/// `puzzle` with a wrong digit in the first empty cell that can take one: a digit its row,
/// column and box allow but `solution` does not put there; and that given. The tests'
/// typo: the result has no solution when `solution` is the only one.
#[cfg(test)]
pub(crate) fn with_a_typo_for_tests(
    puzzle: &Grid,
    solution: &Grid,
) -> (Grid, (Cell, crate::grid::Digit)) {
    let typo = puzzle
        .geometry()
        .cells()
        .filter(|&c| puzzle.get(c).is_none())
        .find_map(|c| {
            let wrong = puzzle
                .candidates(c)
                .iter()
                .find(|&d| solution.get(c) != Some(d));
            wrong.map(|d| (c, d))
        })
        .expect("an empty cell with a wrong digit its peers allow");
    let mut wrong = puzzle.clone();
    wrong.set(typo.0, Some(typo.1));
    (wrong, typo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::check_solution;

    fn gen(options: &GenerateOptions, seed: u64) -> Result<Generated, GenerateError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        generate(options, &mut rng, &mut BitmaskCounter::default())
    }

    #[test]
    fn random_fill_gives_valid_grids_up_to_25x25() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for b in 2..=5 {
            let grid = random_fill(Geometry::of(b).unwrap(), &mut rng);
            assert!(
                grid.is_full() && crate::grid::check_grid(&grid).is_valid(),
                "b={b}"
            );
        }
    }

    #[test]
    fn every_counter_agrees_on_generated_puzzles() {
        let options = GenerateOptions {
            clues: Some(24),
            symmetry: Symmetry::Rot180,
            ..GenerateOptions::default()
        };
        let g = gen(&options, 3).unwrap();
        let mut loose = g.puzzle.clone();
        let (cell, _) = loose.givens().next().unwrap();
        loose.set(cell, None);
        for kind in CounterKind::ALL {
            let mut counter = kind.make();
            assert_eq!(counter.count(&g.puzzle, 2).unwrap(), 1, "{kind}");
            assert_eq!(counter.count(&loose, 2).unwrap(), 2, "{kind}");
            assert_eq!(kind.name().parse::<CounterKind>(), Ok(kind));
        }
    }

    #[test]
    fn orbits_partition_the_grid() {
        for b in 2..=4 {
            let geo = Geometry::of(b).unwrap();
            for sym in Symmetry::ALL {
                let orbits = sym.orbits(geo);
                let total: usize = orbits.iter().map(Vec::len).sum();
                assert_eq!(total, geo.num_cells(), "{sym} b={b}");
            }
        }
        let geo9 = Geometry::of(3).unwrap();
        assert_eq!(Symmetry::Rot180.orbits(geo9).len(), 41);
        assert_eq!(Symmetry::Rot90.orbits(geo9).len(), 21);
        assert_eq!(Symmetry::Mirror.orbits(geo9).len(), 45);
        assert_eq!(Symmetry::Diagonal.orbits(geo9).len(), 45);
        assert!(Symmetry::Rot90.can_have(geo9, 21));
        assert!(!Symmetry::Rot90.can_have(geo9, 22));
        assert!(!Symmetry::Rot180.can_have(Geometry::of(2).unwrap(), 5));
    }

    #[test]
    fn level_mapping_matches_the_study_ranges() {
        assert_eq!(clues_for_level(3, 1).unwrap(), 40);
        assert_eq!(clues_for_level(3, 20).unwrap(), 20);
        assert_eq!(clues_for_level(4, 1).unwrap(), 117);
        assert_eq!(clues_for_level(4, 20).unwrap(), 60);
        assert_eq!(clues_for_level(2, 1).unwrap(), 8);
        assert_eq!(clues_for_level(2, 20).unwrap(), 4);
        assert_eq!(clues_for_level(3, 30).unwrap(), 30);
        assert_eq!(clues_for_level(4, 40).unwrap(), 126);
        assert!(matches!(
            clues_for_level(3, 0),
            Err(GenerateError::Level(0))
        ));
        assert!(matches!(
            clues_for_level(3, 41),
            Err(GenerateError::Level(41))
        ));
        let mut prev = usize::MAX;
        for level in 1..=NUM_LEVELS {
            let c = clues_for_level(3, level).unwrap();
            assert!(c < prev);
            prev = c;
        }
    }

    #[test]
    fn properness_names_the_givens_that_can_go() {
        let mut dlx = CounterKind::Dlx.make();
        let make = || CounterKind::Dlx.make();
        // A full 4×4 grid: unique, and any one digit can go.
        let full: Grid = "1234341221434321".parse().unwrap();
        let Properness::Unique { redundant } = properness(&full, &make).unwrap() else {
            panic!("unique")
        };
        assert_eq!(redundant.len(), 16);
        // Generated minimal puzzles: unique with nothing to remove.
        let options = GenerateOptions::default();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let generated = generate(&options, &mut rng, dlx.as_mut()).unwrap();
        assert_eq!(
            properness(&generated.puzzle, &make).unwrap(),
            Properness::Unique { redundant: vec![] }
        );
        // One given added from the solution is redundant, and named.
        let mut more = generated.puzzle.clone();
        let cell = Cell((0..81).find(|&i| more.get(Cell(i)).is_none()).unwrap());
        more.set(cell, generated.solution.get(cell));
        let Properness::Unique { redundant } = properness(&more, &make).unwrap() else {
            panic!("unique")
        };
        assert!(redundant.contains(&cell));
        // The empty 4×4 grid has 288 solutions; two equal givens in a row none.
        let empty = Grid::empty(2).unwrap();
        assert_eq!(properness(&empty, &make).unwrap(), Properness::Several);
        let clash: Grid = "11..............".parse().unwrap();
        assert_eq!(properness(&clash, &make).unwrap(), Properness::NoSolution);
    }

    #[test]
    fn minimal_unique_puzzles_are_unique_minimal_and_symmetric() {
        for (b, sym) in [
            (2, Symmetry::None),
            (3, Symmetry::Rot180),
            (3, Symmetry::Rot90),
        ] {
            let options = GenerateOptions {
                box_size: b,
                symmetry: sym,
                ..GenerateOptions::default()
            };
            let g = gen(&options, 11).unwrap();
            assert!(check_solution(&g.puzzle, &g.solution).is_valid());
            assert_eq!(bitmask_count(&g.puzzle, 2, u64::MAX), Some(Count::Exact(1)));
            assert!(sym.holds_for(&g.puzzle));
            // Minimal w.r.t. orbits: putting back nothing, removing any orbit breaks it.
            for orbit in sym.orbits(g.puzzle.geometry()) {
                if g.puzzle.get(orbit[0]).is_none() {
                    continue;
                }
                let mut p = g.puzzle.clone();
                for &c in &orbit {
                    p.set(c, None);
                }
                assert_eq!(bitmask_count(&p, 2, u64::MAX), Some(Count::Exact(2)));
            }
        }
    }

    #[test]
    fn clue_targets_are_met_and_seeds_reproduce() {
        let options = GenerateOptions {
            clues: Some(30),
            symmetry: Symmetry::Mirror,
            ..GenerateOptions::default()
        };
        let a = gen(&options, 5).unwrap();
        assert_eq!(a.puzzle.num_givens(), 30);
        assert!(Symmetry::Mirror.holds_for(&a.puzzle));
        assert_eq!(bitmask_count(&a.puzzle, 2, u64::MAX), Some(Count::Exact(1)));
        assert_eq!(gen(&options, 5).unwrap(), a);
        assert_ne!(gen(&options, 6).unwrap(), a);
    }

    #[test]
    fn no_unique_removes_exactly_the_count() {
        let options = GenerateOptions {
            box_size: 4,
            clues: Some(100),
            unique: false,
            ..GenerateOptions::default()
        };
        let g = gen(&options, 1).unwrap();
        assert_eq!(g.puzzle.num_givens(), 100);
        assert!(check_solution(&g.puzzle, &g.solution).is_valid());
    }

    #[test]
    fn impossible_requests_are_refused() {
        let opts = |box_size, clues, unique, symmetry| GenerateOptions {
            box_size,
            clues,
            unique,
            symmetry,
            ..GenerateOptions::default()
        };
        let refuse = |o: GenerateOptions| gen(&o, 0).unwrap_err();
        assert!(matches!(
            refuse(opts(1, None, true, Symmetry::None)),
            GenerateError::BoxSize(1)
        ));
        assert!(matches!(
            refuse(opts(3, Some(82), true, Symmetry::None)),
            GenerateError::TooManyClues { .. }
        ));
        assert!(matches!(
            refuse(opts(3, Some(16), true, Symmetry::None)),
            GenerateError::TooFewClues { min: 17, .. }
        ));
        assert!(matches!(
            refuse(opts(3, Some(30), true, Symmetry::Rot90)),
            GenerateError::SymmetryCount { .. }
        ));
        assert!(matches!(
            refuse(opts(3, None, false, Symmetry::None)),
            GenerateError::NoTarget
        ));
        let capped = GenerateOptions {
            clues: Some(17),
            max_fills: 2,
            ..GenerateOptions::default()
        };
        assert!(matches!(
            refuse(capped),
            GenerateError::Unreached { fills: 2, .. }
        ));
    }

    #[test]
    fn batches_are_ordered_and_thread_count_independent() {
        let options = GenerateOptions::default();
        let counter = || Box::new(BitmaskCounter::default()) as Box<dyn SolutionCounter>;
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| generate_batch(&options, 6, 42, &counter, None, &|| ()))
                .into_iter()
                .map(|r| r.unwrap().puzzle)
                .collect::<Vec<_>>()
        };
        let one = run(1);
        assert_eq!(one, run(2));
        let mut rng = ChaCha8Rng::seed_from_u64(puzzle_seed(42, 3));
        assert_eq!(
            one[3],
            generate(&options, &mut rng, &mut BitmaskCounter::default())
                .unwrap()
                .puzzle
        );
    }
}
