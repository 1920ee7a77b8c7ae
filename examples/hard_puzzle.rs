//! Hard puzzles with one solution, 25×25 by default (the Gecode puzzles of
//! `benches/data/hard` have 266–284 givens of 625; the generator's minimal puzzles about
//! 300, which a search settles in a tenth of a second):
//!
//! 1. a random full grid ([`sudosat::generate::random_fill`]);
//! 2. a minimal puzzle: its cells in a random order, each blanked while the puzzle keeps
//!    one solution ([`sudosat::generate::unique_without`], a check of at most 10 s, one
//!    past it counting as no);
//! 3. sparser: moves that blank two random givens and give one random blank cell its
//!    digit, each kept while the puzzle keeps one solution (one given fewer), and every
//!    given tried once more alone after each kept move, until `CLUES` givens or `MOVES`
//!    moves in a row fail.
//!
//! Usage: `cargo run --release --example hard_puzzle -- SEED [BOX [CLUES [MOVES]]]`
//! (defaults 5, 0.44 n², 400). Prints the puzzle on one line (`.` blank, `A` = 10 …),
//! and on standard error its givens, checks and seconds. The same seed gives the same
//! puzzle on any machine.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::generate::{random_fill, unique_without, Uniqueness};
use sudosat::grid::{write_grid, Cell, Format, Geometry, Grid};

const CHECK_LIMIT: Duration = Duration::from_secs(10);

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(seed) = args.first() else {
        bail!("usage: hard_puzzle SEED [BOX [CLUES [MOVES]]]");
    };
    let seed: u64 = seed.parse().context("SEED: an integer")?;
    let b: usize = match args.get(1) {
        Some(b) => b.parse().context("BOX: a box size")?,
        None => 5,
    };
    let geo = Geometry::of(b).with_context(|| format!("no grid of box size {b}"))?;
    let cells = geo.num_cells();
    let clues: usize = match args.get(2) {
        Some(c) => c.parse().context("CLUES: a number of givens")?,
        None => (0.44 * cells as f64).round() as usize,
    };
    let moves: usize = match args.get(3) {
        Some(m) => m.parse().context("MOVES: a number of moves")?,
        None => 400,
    };
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let solution = random_fill(geo, &mut rng);
    let mut maker = Maker {
        puzzle: solution.clone(),
        solution,
        checks: 0,
    };
    let mut order: Vec<Cell> = (0..cells as u32).map(Cell).collect();
    order.shuffle(&mut rng);
    maker.minimise(&order);
    let mut failed = 0;
    while maker.givens().len() > clues && failed < moves {
        let givens = maker.givens();
        let blanks: Vec<Cell> = (0..cells as u32)
            .map(Cell)
            .filter(|&c| maker.puzzle.get(c).is_none())
            .collect();
        let (a, b) = loop {
            let (a, b) = (
                rng.gen_range(0..givens.len()),
                rng.gen_range(0..givens.len()),
            );
            if a != b {
                break (givens[a], givens[b]);
            }
        };
        let c = blanks[rng.gen_range(0..blanks.len())];
        let mut more = maker.puzzle.clone();
        more.set(c, maker.solution.get(c));
        if maker.unique(&more, &[a, b]) {
            maker.puzzle = more;
            maker.puzzle.set(a, None);
            maker.puzzle.set(b, None);
            let mut rest = maker.givens();
            rest.shuffle(&mut rng);
            maker.minimise(&rest);
            failed = 0;
        } else {
            failed += 1;
        }
    }
    let mut line = Vec::new();
    write_grid(&mut line, &maker.puzzle, Format::Line)?;
    print!("{}", String::from_utf8(line)?);
    eprintln!(
        "hard_puzzle: seed={seed} {n}x{n} givens={} checks={} seconds={:.1}",
        maker.givens().len(),
        maker.checks,
        start.elapsed().as_secs_f64(),
        n = geo.side(),
    );
    Ok(())
}

struct Maker {
    solution: Grid,
    puzzle: Grid,
    checks: usize,
}

impl Maker {
    fn givens(&self) -> Vec<Cell> {
        self.puzzle.givens().map(|(cell, _)| cell).collect()
    }

    /// Whether `puzzle` (with one solution, the full grid's) keeps it as its only one
    /// once `cells` are blanked.
    fn unique(&mut self, puzzle: &Grid, cells: &[Cell]) -> bool {
        self.checks += 1;
        unique_without(puzzle, &self.solution, cells, Some(CHECK_LIMIT)) == Uniqueness::Unique
    }

    /// Blanks each of `cells` in turn while the puzzle keeps one solution.
    fn minimise(&mut self, cells: &[Cell]) {
        for &cell in cells {
            if self.puzzle.get(cell).is_some() && self.unique(&self.puzzle.clone(), &[cell]) {
                self.puzzle.set(cell, None);
            }
        }
    }
}
