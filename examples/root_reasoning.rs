//! The strongest reasoning without search on one puzzle of any size (every Hall set of
//! every unit and every digit's rows against its columns, locked candidates, to a
//! fixpoint), and the formula it leaves for a search.
//!
//! Usage: `cargo run --release --example root_reasoning -- PUZZLE [OUT.cnf [OUT-grid.txt]]`
//!
//! Prints one line of figures (cells fixed, candidates left, removals by rule, passes,
//! seconds). With `OUT.cnf`, writes the extended+reduced formula of the puzzle with every
//! fixed cell given and each removed candidate as a unit clause; with `OUT-grid.txt`, that
//! puzzle (which `sudosat decode` needs to read a model of the formula back).

use std::time::Instant;

use anyhow::{bail, Context, Result};
use sudosat::dimacs::write_formula;
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::grid::read_puzzles_from_path;
use sudosat::solve::root::{root_fixpoint, RootOutcome, RootPolicy};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        bail!("usage: root_reasoning PUZZLE [OUT.cnf [OUT-grid.txt]]");
    };
    let puzzles = read_puzzles_from_path(path.as_ref(), None)?;
    let puzzle = puzzles.first().context("no puzzle in the file")?;
    let n = puzzle.side();
    let start = Instant::now();
    let outcome = root_fixpoint(puzzle, RootPolicy::Fixpoint, || false);
    let seconds = start.elapsed().as_secs_f64();
    let root = match outcome {
        RootOutcome::Contradiction(removals) => {
            println!(
                "{n}x{n} givens={} contradiction rounds={} seconds={seconds:.2}",
                puzzle.num_givens(),
                removals.rounds
            );
            return Ok(());
        }
        RootOutcome::Candidates(root) | RootOutcome::Stopped(root) | RootOutcome::Unpaid(root) => {
            root
        }
    };
    let r = root.removals;
    println!(
        "{n}x{n} givens={} fixed={} open={} candidates={} removed_singles={} \
         removed_locked={} removed_units={} removed_fish={} rounds={} work={} hall_work={} \
         literals_before={} literals_after={} seconds={seconds:.2}",
        puzzle.num_givens(),
        root.fixed_cells(),
        n * n - root.fixed_cells(),
        root.candidates(),
        r.singles,
        r.locked,
        r.units,
        r.fish,
        r.rounds,
        r.work,
        r.hall_work,
        r.literals_before,
        r.literals_after,
    );
    if let Some(out) = args.get(1) {
        let (map, cnf) = root.to_cnf(SudokuEncoding::new(BaseEncoding::Extended, true));
        write_formula(std::fs::File::create(out)?, &cnf)?;
        if let Some(grid_out) = args.get(2) {
            std::fs::write(grid_out, format!("{}\n", map.puzzle()))?;
        }
    }
    Ok(())
}
