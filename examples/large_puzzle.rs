//! Puzzles on grids too large for the generator's clue-by-clue uniqueness check (64×64 to
//! 400×400), made three ways from one random full grid (the generator's permuted pattern,
//! [`sudosat::generate::random_fill`]) and one random order of its cells:
//!
//! - `fixpoint`: cells are blanked in batches, in that order, and after each batch the
//!   root fixpoint ([`sudosat::solve::root`]: singles, locked candidates, Hall sets,
//!   fish) runs on the puzzle; the cells of the batch it leaves open are given back. More
//!   givens never settle less, so the puzzle stays settled by the fixpoint, and a puzzle
//!   settled without search has one solution. Every grid this method makes is one the
//!   fixpoint settles.
//! - `search`: a cell stays blank only while the puzzle still has one solution
//!   ([`sudosat::generate::unique_without`]: the puzzle's formula with a clause saying
//!   that some blanked cell differs from the full grid is refuted). What stays blank
//!   depends on that fact alone, not on how it is proved: the check reasons at the root
//!   as `solve` does by default only to shorten its proofs, and makes the grids a search
//!   alone makes (cell for cell on the 64×64 and 100×100 grids of one seed), faster.
//!   Batches that pass are kept whole; in one that fails, the first cell whose blank
//!   loses uniqueness is found by bisection and given back, so the result is that of
//!   trying the cells one by one in the order. A check that runs past its time limit
//!   counts as a failure. No grid is kept because the fixpoint settles it.
//! - `random`: cells are blanked in the order with no check: several solutions, as a rule.
//!
//! Usage: `cargo run --release --example large_puzzle -- BOX METHOD SEED OUT GIVEN...`
//!
//! `BOX` is the box size (8 for 64×64 … 20 for 400×400), `SEED` the seed of every random
//! choice, each `GIVEN` a share of cells to keep (e.g. 0.72). Blanking goes on down to
//! the smallest share, and the puzzle is written as it stands when it first reaches each
//! share, to `OUT/METHOD-SIDE-PERCENT-SEED.txt` in the `grid` format, with one line printed
//! per puzzle (cells given, checks, seconds). A method that cannot go further (every cell
//! tried) writes what it reached for the shares below it and says so.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudosat::generate::{random_fill, unique_without, Uniqueness};
use sudosat::grid::{write_grid, Cell, Format, Geometry, Grid};
use sudosat::solve::root::{root_fixpoint, RootOutcome, RootPolicy};

/// The first batch, as a share of the grid; batches double while they pass and halve
/// when they fail.
const FIRST_BATCH: f64 = 0.01;

/// A search check that has not answered in this long counts as a failure.
const CHECK_LIMIT: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Fixpoint,
    Search,
    Random,
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [b, method, seed, out, shares @ ..] = args.as_slice() else {
        bail!("usage: large_puzzle BOX METHOD SEED OUT GIVEN...");
    };
    let b: usize = b.parse().context("BOX: a box size")?;
    let method = match method.as_str() {
        "fixpoint" => Method::Fixpoint,
        "search" => Method::Search,
        "random" => Method::Random,
        other => bail!("METHOD: fixpoint, search or random, not {other:?}"),
    };
    let seed: u64 = seed.parse().context("SEED: an integer")?;
    let geo = Geometry::of(b).with_context(|| format!("no grid of box size {b}"))?;
    let mut shares: Vec<f64> = shares
        .iter()
        .map(|s| s.parse().context("GIVEN: a share of cells, e.g. 0.72"))
        .collect::<Result<_>>()?;
    if shares.is_empty() || shares.iter().any(|s| !(0.0..=1.0).contains(s)) {
        bail!("GIVEN: one or more shares between 0 and 1");
    }
    shares.sort_by(|a, b| b.total_cmp(a));
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let solution = random_fill(geo, &mut rng);
    let cells = geo.num_cells();
    let mut order: Vec<Cell> = (0..cells as u32).map(Cell).collect();
    order.shuffle(&mut rng);

    let mut blanker = Blanker {
        puzzle: solution.clone(),
        solution,
        givens: cells,
        checks: 0,
    };
    let mut batch = ((FIRST_BATCH * cells as f64) as usize).max(1);
    let mut next = 0;
    for share in shares {
        let target = (share * cells as f64).round() as usize;
        while blanker.givens > target && next < order.len() {
            let take = batch.min(blanker.givens - target).min(order.len() - next);
            let tried = &order[next..next + take];
            let kept = blanker.blank(method, tried);
            next += kept.min(take - 1) + 1;
            batch = if kept == take {
                batch * 2
            } else {
                (batch / 2).max(1)
            };
        }
        let side = geo.side();
        let percent = (share * 100.0).round();
        let name = match method {
            Method::Fixpoint => "fixpoint",
            Method::Search => "search",
            Method::Random => "random",
        };
        let path = format!("{out}/{name}-{side}-{percent}-{seed}.txt");
        write(&blanker.puzzle, &path)?;
        println!(
            "{path} {side}x{side} seed={seed} givens={} ({:.1} %) checks={}{} seconds={:.1}",
            blanker.givens,
            100.0 * blanker.givens as f64 / cells as f64,
            blanker.checks,
            if blanker.givens > target {
                " (every cell tried: no further)"
            } else {
                ""
            },
            start.elapsed().as_secs_f64(),
        );
    }
    Ok(())
}

struct Blanker {
    solution: Grid,
    puzzle: Grid,
    givens: usize,
    checks: usize,
}

impl Blanker {
    /// Blanks the cells of `tried` in order as `method` allows and returns how many of
    /// the first were kept blank before the first that was given back (all of them when
    /// none was).
    fn blank(&mut self, method: Method, tried: &[Cell]) -> usize {
        match method {
            Method::Random => {
                self.set_blank(tried);
                tried.len()
            }
            Method::Fixpoint => {
                self.set_blank(tried);
                self.checks += 1;
                let fixed = match root_fixpoint(&self.puzzle, RootPolicy::Fixpoint, || false) {
                    RootOutcome::Candidates(root) => root.fixed_grid(),
                    _ => unreachable!("a puzzle cut from a full grid has a solution"),
                };
                let open: Vec<Cell> = tried
                    .iter()
                    .copied()
                    .filter(|&c| fixed.get(c).is_none())
                    .collect();
                self.give_back(&open);
                // The fixpoint keeps what it settles, whatever the order: all count as tried.
                tried.len()
            }
            Method::Search => {
                if self.unique_without(tried) {
                    self.set_blank(tried);
                    return tried.len();
                }
                // The longest prefix that keeps one solution: a prefix of a passing set
                // passes, so bisection finds it.
                let (mut pass, mut fail) = (0, tried.len());
                while fail - pass > 1 {
                    let mid = (pass + fail) / 2;
                    if self.unique_without(&tried[..mid]) {
                        pass = mid;
                    } else {
                        fail = mid;
                    }
                }
                self.set_blank(&tried[..pass]);
                pass
            }
        }
    }

    fn set_blank(&mut self, cells: &[Cell]) {
        for &cell in cells {
            self.puzzle.set(cell, None);
        }
        self.givens -= cells.len();
    }

    fn give_back(&mut self, cells: &[Cell]) {
        for &cell in cells {
            self.puzzle.set(cell, self.solution.get(cell));
        }
        self.givens += cells.len();
    }

    /// Whether the puzzle with `cells` blanked too has the full grid as its only solution
    /// (a check past its time limit counts as no).
    fn unique_without(&mut self, cells: &[Cell]) -> bool {
        self.checks += 1;
        unique_without(&self.puzzle, &self.solution, cells, Some(CHECK_LIMIT)) == Uniqueness::Unique
    }
}

fn write(grid: &Grid, path: &str) -> Result<()> {
    let mut text = Vec::new();
    write_grid(&mut text, grid, Format::Grid)?;
    std::fs::write(path, text).with_context(|| format!("writing {path}"))
}
