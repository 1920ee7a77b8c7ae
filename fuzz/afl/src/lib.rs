//! The checks of the fuzz targets that do more than call a parser, so that
//! `tests/fuzz_replay.rs` replays saved inputs through the same code (it includes these
//! files by path; this package is not a dependency of sudosat's tests).

pub mod differential;
pub mod saved_runs;
