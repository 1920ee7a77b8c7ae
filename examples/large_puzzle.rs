//! A puzzle with one solution on a grid too large for the generator's clue-by-clue
//! uniqueness check (225×225, 400×400): the givens of a random full grid are removed in
//! batches, in a random order, and after each batch the root fixpoint
//! ([`sudosat::solve::hall_fixpoint`]: Hall sets, fish, locked candidates) runs on the
//! puzzle. Cells of the batch it leaves open are given back; more givens never settle
//! less, so the puzzle stays settled by the fixpoint, and a puzzle settled without search
//! has one solution. Removal stops at the share of givens asked for, or when every cell
//! has been tried.
//!
//! Usage: `cargo run --release --example large_puzzle -- BOX GIVEN SEED OUT [SOLUTION]`
//!
//! `BOX` is the box size (15 for 225×225, 20 for 400×400), `GIVEN` the share of cells to
//! keep (e.g. 0.65), `SEED` the seed of every random choice (the full grid is the
//! generator's permuted pattern, [`sudosat::generate::random_fill`]). Writes the puzzle to
//! `OUT` (and its solution to `SOLUTION`) in the `grid` format, and prints one line: cells
//! given, batches, seconds.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudosat::generate::random_fill;
use sudosat::grid::{write_grid, Cell, Format, Geometry, Grid};
use sudosat::solve::hall_fixpoint::{hall_fixpoint, RootBudget, RootOutcome};

/// Cells blanked at once, as a share of the grid: each batch costs one fixpoint, and
/// cells of one batch that need each other are all given back.
const BATCH: f64 = 0.01;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [b, given, seed, out, rest @ ..] = args.as_slice() else {
        bail!("usage: large_puzzle BOX GIVEN SEED OUT [SOLUTION]");
    };
    let b: usize = b.parse().context("BOX: a box size")?;
    let given: f64 = given
        .parse()
        .context("GIVEN: a share of cells, e.g. 0.65")?;
    let seed: u64 = seed.parse().context("SEED: an integer")?;
    let geo = Geometry::of(b).with_context(|| format!("no grid of box size {b}"))?;
    if !(0.0..=1.0).contains(&given) {
        bail!("GIVEN must lie between 0 and 1");
    }
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let solution = random_fill(geo, &mut rng);
    let cells = geo.num_cells();
    let target = (given * cells as f64).round() as usize;
    let mut order: Vec<Cell> = (0..cells as u32).map(Cell).collect();
    order.shuffle(&mut rng);
    let batch = ((BATCH * cells as f64) as usize).max(1);

    let mut puzzle = solution.clone();
    let (mut givens, mut batches) = (cells, 0usize);
    let mut next = order.into_iter();
    while givens > target {
        let blanked: Vec<Cell> = next.by_ref().take(batch.min(givens - target)).collect();
        if blanked.is_empty() {
            break;
        }
        batches += 1;
        for &cell in &blanked {
            puzzle.set(cell, None);
        }
        let fixed = match hall_fixpoint(&puzzle, RootBudget::UNLIMITED, || false) {
            RootOutcome::Candidates(root) => root.fixed_grid(),
            _ => unreachable!("a puzzle cut from a full grid has a solution"),
        };
        for &cell in &blanked {
            if fixed.get(cell).is_some() {
                givens -= 1;
            } else {
                puzzle.set(cell, solution.get(cell));
            }
        }
    }
    write(&puzzle, out)?;
    if let Some(path) = rest.first() {
        write(&solution, path)?;
    }
    println!(
        "{n}x{n} seed={seed} givens={givens} ({:.1} %) batches={batches} seconds={:.1}",
        100.0 * givens as f64 / cells as f64,
        start.elapsed().as_secs_f64(),
        n = geo.side(),
    );
    Ok(())
}

fn write(grid: &Grid, path: &str) -> Result<()> {
    let mut text = Vec::new();
    write_grid(&mut text, grid, Format::Grid)?;
    std::fs::write(path, text).with_context(|| format!("writing {path}"))
}
