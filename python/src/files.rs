//! Files read and written: opened here so that a missing or unreadable file is the
//! `OSError` Python programs expect (`FileNotFoundError`, …); written whole or not at all,
//! through a temporary file beside the target renamed into place when complete, and
//! compressed when the name ends `.gz`, `.bz2` or `.xz`. Errors name the user's path,
//! never the temporary file's.

use std::io::{BufWriter, Write};
use std::path::Path;

use pyo3::PyResult;
use sudosat::compression::{self, Compression};

use crate::errors::os_error;

/// Opens `path` to read (plain or compressed: the reader decompresses).
///
/// # Errors
/// The `OSError` of the failure, naming `path`.
pub fn open_read(path: &Path) -> PyResult<Box<dyn std::io::Read>> {
    compression::open(path).map_err(|e| os_error(&e, path, "cannot open"))
}

/// A temporary file in `path`'s directory, to become `path`.
pub fn temp_beside(path: &Path) -> PyResult<tempfile::NamedTempFile> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    tempfile::Builder::new()
        .prefix(".sudosat-")
        .tempfile_in(dir)
        .map_err(|e| os_error(&e, path, "cannot write"))
}

/// Puts the finished temporary file in place as `path`.
pub fn persist(temp: tempfile::NamedTempFile, path: &Path) -> PyResult<()> {
    temp.persist(path)
        .map(|_| ())
        .map_err(|e| os_error(&e.error, path, "cannot write"))
}

/// Writes what `fill` writes to `path`.
///
/// # Errors
/// The `OSError` naming the file when it cannot be written.
pub fn write_file(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> PyResult<()> {
    let cannot = |e: std::io::Error| os_error(&e, path, "cannot write");
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
    persist(tmp, path)
}
