//! The memory guard: every call that builds a formula, or Python objects from one,
//! estimates what it needs first and raises `MemoryError` when that is over the budget,
//! before anything is allocated (an allocation that fails inside Rust aborts the
//! interpreter, which no `try` catches). The budget is half the memory the system has
//! available, as for the command line's `--max-memory`, unless `set_memory_budget` says
//! otherwise.

use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use sudosat::encode::{check_memory_budget, SudokuEncoding};
use sudosat::formula::FormulaSize;
use sudosat::grid::Grid;

use crate::errors::library_error;

/// The budget in bytes set by `set_memory_budget`; [`DEFAULT`]: half the available memory.
static BUDGET: AtomicU64 = AtomicU64::new(DEFAULT);

/// [`BUDGET`]'s value when none was set.
const DEFAULT: u64 = 0;

/// The memory budget in bytes: the one set, else half of what the system has available;
/// None when neither is known (no limit then).
pub fn budget() -> Option<u64> {
    match BUDGET.load(Ordering::Relaxed) {
        DEFAULT => sudosat::run::available_memory().map(|bytes| bytes / 2),
        set => Some(set),
    }
}

/// Refuses `needed` bytes over the budget: `MemoryError` saying what (`what`) and how much.
pub fn ensure(needed: u64, what: impl FnOnce() -> String) -> PyResult<()> {
    match budget() {
        Some(budget) if needed > budget => Err(PyMemoryError::new_err(format!(
            "{}: about {} MiB, over the memory budget of {} MiB \
             (sudosat.set_memory_budget changes it)",
            what(),
            needed.div_ceil(1 << 20),
            budget >> 20
        ))),
        _ => Ok(()),
    }
}

/// Refuses the formula of `puzzle` under `encoding` when solving it (or holding it) would
/// go over the budget, as the command line refuses it.
pub fn ensure_encodable(encoding: SudokuEncoding, puzzle: &Grid, at: &str) -> PyResult<()> {
    ensure_encodable_within(encoding, puzzle, at, budget())
}

/// [`ensure_encodable`] against a `budget` read once for a call's puzzles: the system's
/// available memory is read from files (`/proc/meminfo`, the control group's), some 50 µs,
/// more than solving a 9×9 puzzle takes.
pub fn ensure_encodable_within(
    encoding: SudokuEncoding,
    puzzle: &Grid,
    at: &str,
    budget: Option<u64>,
) -> PyResult<()> {
    match budget {
        Some(budget) => {
            check_memory_budget(encoding, puzzle, budget).map_err(|e| library_error(&e, at))
        }
        None => Ok(()),
    }
}

/// Bytes of a formula's clauses as Python lists of ints: per clause a list (its header and
/// its slot in the outer list), per literal a pointer and an int object.
pub fn python_clauses_estimate(size: FormulaSize) -> u64 {
    (size.clauses as u64)
        .saturating_mul(72)
        .saturating_add((size.literals as u64).saturating_mul(40))
}

/// Bytes of a formula's DIMACS text, held twice (the text and the Python string): each
/// literal's digits, sign and space, each clause's `0\n`.
pub fn dimacs_text_estimate(size: FormulaSize) -> u64 {
    let digits = (size.vars.max(1) as f64).log10().floor() as u64 + 1;
    (size.literals as u64)
        .saturating_mul(digits + 2)
        .saturating_add((size.clauses as u64).saturating_mul(2))
        .saturating_mul(2)
}

/// The memory budget in bytes that `encode`, `solve`, `sat` and the formula's `clauses`,
/// `to_dimacs` and `to_pysat` check before they build anything: half the memory the
/// system has available unless `set_memory_budget` set one; None when neither is known.
///
/// >>> budget = memory_budget()
/// >>> budget is None or budget > 0
/// True
#[pyfunction]
pub fn memory_budget() -> Option<u64> {
    budget()
}

/// Sets the memory budget to `bytes` (None: back to half the available memory). A call
/// whose estimate is over it raises `MemoryError` before it allocates.
///
/// >>> set_memory_budget(1 << 20)
/// >>> encode(Grid.empty(5))
/// Traceback (most recent call last):
///   ...
/// MemoryError: the puzzle: the extended encoding of this 25×25 puzzle has ...
/// >>> set_memory_budget(None)
#[pyfunction]
#[pyo3(signature = (bytes))]
pub fn set_memory_budget(bytes: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let value = match bytes.filter(|b| !b.is_none()) {
        None => DEFAULT,
        Some(bytes) => {
            let value: u64 = crate::args::whole(bytes, "bytes")?;
            if value == DEFAULT {
                return Err(PyValueError::new_err(
                    "bytes must be at least 1 (None: half the available memory)",
                ));
            }
            value
        }
    };
    BUDGET.store(value, Ordering::Relaxed);
    Ok(())
}
