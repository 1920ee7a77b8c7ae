//! What the classic-solver benchmarks share (`benches/solvers.rs` and
//! `examples/bench_classic.rs` include this file): the solvers, the puzzle sets and where
//! their data is (the data folder itself: `data.rs`).

use std::path::Path;

use sudosat::grid::read_puzzles_from_path;
use sudosat::solve::CLASSIC_SOLVERS;
use sudosat::Grid;

/// The complete classic solvers, DLX first: every name but the `backtrack` alias (its
/// default order is `backtrack-mrv`) and hill climbing, which cannot answer every puzzle.
pub fn solvers() -> impl Iterator<Item = &'static str> {
    CLASSIC_SOLVERS
        .iter()
        .copied()
        .filter(|&name| name != "backtrack" && name != "hill")
}

/// The sets: label, path under the data folder, fixture standing in without it.
pub const SETS: [(&str, &str, &str); 4] = [
    ("minimal-2k", "9x9/minimal-2k.txt", "minimal-40.txt"),
    ("rank_3", "generalized/sudoku_rank_3.csv", "rank3-20.csv"),
    ("rank_4", "generalized/sudoku_rank_4.csv", "rank4-2.csv"),
    ("rank_5", "generalized/sudoku_rank_5.csv", "rank5-1.csv"),
];

/// The puzzles of a set: `rel` under `data` when it is there, else the stand-in fixture
/// (the generalized sets are not shipped in `benches/data`).
pub fn load(data: Option<&Path>, rel: &str, fixture: &str) -> Vec<Grid> {
    let path = match data.map(|dir| dir.join(rel)).filter(|p| p.is_file()) {
        Some(path) => path,
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(fixture),
    };
    read_puzzles_from_path(&path, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
