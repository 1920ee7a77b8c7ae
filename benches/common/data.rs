//! Where the benchmarks find the puzzle sets (every bench and benchmark example includes
//! this file).

use std::path::{Path, PathBuf};

/// The data folder: `$SUDOSAT_DATA` when set (another copy of the sets, or more of them),
/// else the sets shipped in `benches/data`.
pub fn data_dir() -> Option<PathBuf> {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    std::env::var_os("SUDOSAT_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain([shipped])
        .find(|p| p.is_dir())
}
