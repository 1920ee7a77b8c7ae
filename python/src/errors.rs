//! How the library's errors reach Python: bad input is a `ValueError` with the message the
//! command line prints (file, line, column), a solver that fails is a `RuntimeError`, a
//! formula over the memory budget a `MemoryError`. A time limit is not an error: the solve
//! functions answer it with a `Timeout` value.

use std::fmt::Display;

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

/// A `ValueError` with `message`.
pub fn value_error(message: impl Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A `RuntimeError` with `message`.
pub fn runtime_error(message: impl Display) -> PyErr {
    PyRuntimeError::new_err(message.to_string())
}

/// The Python exception of a library error, `at` (a puzzle's `file:line`, or empty) before
/// its message.
pub fn library_error(error: &sudosat::Error, at: &str) -> PyErr {
    let message = if at.is_empty() {
        error.to_string()
    } else {
        format!("{at}: {error}")
    };
    match error {
        sudosat::Error::Parse(_) | sudosat::Error::Dimacs(_) | sudosat::Error::Decode(_) => {
            PyValueError::new_err(message)
        }
        sudosat::Error::OverBudget { .. } => PyMemoryError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}
