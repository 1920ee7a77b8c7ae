//! How the library's errors reach Python: bad input is a `ValueError` with the message the
//! command line prints (file, line, column), a file that cannot be opened or written an
//! `OSError` of the errno's kind (`FileNotFoundError`, `PermissionError`, …) naming the
//! user's path, a solver that fails is a `RuntimeError`, a formula over the memory budget
//! a `MemoryError`. A time limit is not an error: the solve functions answer it with a
//! `Timeout` value.

use std::fmt::Display;
use std::path::Path;

use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

/// A `ValueError` with `message`.
pub fn value_error(message: impl Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A `RuntimeError` with `message`.
pub fn runtime_error(message: impl Display) -> PyErr {
    PyRuntimeError::new_err(message.to_string())
}

/// The `OSError` of `error` on `path`: Python picks the subclass from the errno
/// (`FileNotFoundError` for ENOENT, …), and `filename` is the user's path, never a
/// temporary file's. `what` ("cannot open", "cannot write") leads the message when the
/// error has no errno.
pub fn os_error(error: &std::io::Error, path: &Path, what: &str) -> PyErr {
    let filename = path.display().to_string();
    match errno_of(error) {
        Some(errno) => {
            let reason = std::io::Error::from_raw_os_error(errno).to_string();
            // "No such file or directory (os error 2)": Python's own form has no suffix.
            let reason = match reason.rfind(" (os error") {
                Some(at) => reason[..at].to_string(),
                None => reason,
            };
            PyOSError::new_err((errno, reason, filename))
        }
        None => PyOSError::new_err(format!("{filename}: {what}: {error}")),
    }
}

/// The `ValueError` of a backend label that names no backend of this build: for a backend
/// behind a cargo feature the module was built without, the advice is the wheel's build.
pub fn label_error(error: sudosat::backend::BackendLabelError) -> PyErr {
    use sudosat::backend::BackendLabelError;
    match error {
        BackendLabelError::NotBuilt(kind) => {
            let (feature, needs) = kind
                .entry()
                .feature
                .map_or(("", ""), |feature| (feature.name, feature.needs));
            PyValueError::new_err(format!(
                "backend `{kind}` is not built into this sudosat module: it needs the cargo \
                 feature `{feature}`, whose build needs {needs}; build the wheel with it \
                 (maturin build --release -m python/Cargo.toml --features {feature}) and \
                 install that wheel"
            ))
        }
        other => value_error(other),
    }
}

/// The errno behind `error`, also when a wrapper (tempfile's, which names the temporary
/// file) holds the system's error as its source.
fn errno_of(error: &std::io::Error) -> Option<i32> {
    if let Some(errno) = error.raw_os_error() {
        return Some(errno);
    }
    let mut inner: Option<&(dyn std::error::Error + 'static)> = error
        .get_ref()
        .map(|e| e as &(dyn std::error::Error + 'static));
    while let Some(e) = inner {
        if let Some(errno) = e
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::raw_os_error)
        {
            return Some(errno);
        }
        inner = e.source();
    }
    // tempfile's wrapper hides the system's error: its kind says which (the numbers are
    // the same on Linux and the BSDs).
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::NotFound => Some(2),
        ErrorKind::PermissionDenied => Some(13),
        ErrorKind::AlreadyExists => Some(17),
        ErrorKind::NotADirectory => Some(20),
        ErrorKind::IsADirectory => Some(21),
        ErrorKind::StorageFull => Some(28),
        ErrorKind::ReadOnlyFilesystem => Some(30),
        _ => None,
    }
}

/// The Python exception of a library error, `at` (a puzzle's `file:line`, or empty) before
/// its message.
pub fn library_error(error: &sudosat::Error, at: &str) -> PyErr {
    let message = match error {
        sudosat::Error::OverBudget {
            encoding,
            side,
            size,
            needed,
            budget,
        } => format!(
            "the {encoding} encoding of this {side}×{side} puzzle has {} variables, {} clauses \
             and {} literals, about {} MiB, over the memory budget of {} MiB; {}an external \
             backend (the solver runs in its own process), or raise the budget with \
             sudosat.set_memory_budget",
            size.vars,
            size.clauses,
            size.literals,
            needed.div_ceil(1 << 20),
            budget >> 20,
            if encoding.ends_with("reduced") {
                "use "
            } else {
                "use reduce=True, "
            }
        ),
        _ => error.to_string(),
    };
    let message = if at.is_empty() {
        message
    } else {
        format!("{at}: {message}")
    };
    match error {
        sudosat::Error::Parse(_) | sudosat::Error::Dimacs(_) | sudosat::Error::Decode(_) => {
            PyValueError::new_err(message)
        }
        sudosat::Error::OverBudget { .. } => PyMemoryError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}
