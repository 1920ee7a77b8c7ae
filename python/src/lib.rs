//! The Python module `sudosat._native`, re-exported by the `sudosat` package
//! (`python/sudosat/__init__.py`): a thin layer over the library, each function calling
//! what the command line calls. Long calls release the interpreter and stop on Ctrl-C
//! ([`wait`]); bad input is a `ValueError` with the command line's message ([`errors`]),
//! a wrong argument names its parameter ([`args`]), and nothing is built over the memory
//! budget ([`memory`]).

mod args;
mod cnf;
mod errors;
mod files;
mod grid;
mod memory;
mod sat;
mod solve;
mod study;
mod wait;

use pyo3::prelude::*;

/// Sudoku as SAT: parse, encode to CNF, solve with built-in, embedded or external SAT
/// solvers, decode and check, compare.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("COLUMNS", study::columns())?;
    m.add_class::<grid::PyGrid>()?;
    m.add_class::<cnf::PyCnf>()?;
    m.add_class::<solve::PySolver>()?;
    m.add_class::<solve::PyTimeout>()?;
    m.add_class::<solve::PyStopped>()?;
    m.add_class::<study::PyStudy>()?;
    m.add_function(wrap_pyfunction!(cnf::encode, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::count, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(sat::sat, m)?)?;
    m.add_function(wrap_pyfunction!(study::compare_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(embedded_libraries, m)?)?;
    m.add_function(wrap_pyfunction!(memory::memory_budget, m)?)?;
    m.add_function(wrap_pyfunction!(memory::set_memory_budget, m)?)?;
    Ok(())
}

/// The SAT solver libraries built into this module, as each names itself, as
/// `sudosat --version` lists them and comparisons record them.
///
/// >>> [name for name in embedded_libraries() if name.startswith("cadical")]
/// ['cadical-3.0.1']
#[pyfunction]
fn embedded_libraries() -> Vec<String> {
    sudosat::backend::embedded_libraries()
}
