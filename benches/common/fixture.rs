//! The first puzzle of a file in `tests/fixtures` (benches that need no shared data).

use std::path::Path;

use sudosat::grid::{read_puzzles_from_path, Grid};

/// The first puzzle of `tests/fixtures/NAME`.
pub fn fixture(name: &str) -> Grid {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    read_puzzles_from_path(&path, None)
        .expect("fixture parses")
        .remove(0)
}
