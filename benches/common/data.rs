//! Where the benchmarks find the shared puzzle sets (every bench and benchmark example
//! includes this file).

use std::path::{Path, PathBuf};

/// The shared data folder: `$SUDOSAT_DATA`, else `../shared/data` (or `../../shared/data`,
/// from a worktree) when present.
pub fn data_dir() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::var_os("SUDOSAT_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain([
            manifest.join("../shared/data"),
            manifest.join("../../shared/data"),
        ])
        .find(|p| p.is_dir())
}
