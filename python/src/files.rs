//! Files written whole or not at all: through a temporary file beside the target, renamed
//! into place when complete; compressed when the name ends `.gz`, `.bz2` or `.xz`.

use std::io::{BufWriter, Write};
use std::path::Path;

use pyo3::PyResult;
use sudosat::compression::{self, Compression};

use crate::errors::value_error;

/// A temporary file in `path`'s directory, to become `path`.
pub fn temp_beside(path: &Path) -> PyResult<tempfile::NamedTempFile> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    tempfile::Builder::new()
        .prefix(".sudosat-")
        .tempfile_in(dir)
        .map_err(|e| value_error(format!("{}: cannot write: {e}", path.display())))
}

/// Writes what `fill` writes to `path`.
///
/// # Errors
/// `ValueError` naming the file when it cannot be written.
pub fn write_file(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> PyResult<()> {
    let cannot = |e: std::io::Error| value_error(format!("{}: cannot write: {e}", path.display()));
    let mut tmp = temp_beside(path)?;
    {
        let mut w = compression::Writer::new(
            Compression::for_path(path),
            BufWriter::new(tmp.as_file_mut()),
        )
        .map_err(cannot)?;
        fill(&mut w).map_err(cannot)?;
        w.finish().map_err(cannot)?.flush().map_err(cannot)?;
    }
    tmp.persist(path).map_err(|e| cannot(e.error))?;
    Ok(())
}
