//! `sat`: any CNF (a `Cnf`, or a DIMACS file) solved by a SAT backend, as `sudosat sat`
//! solves it: the model is checked against every clause by the backend, UNSAT is None, the
//! time limit a `Timeout`, and an UNSAT answer can come with a DRAT proof.

use std::path::PathBuf;

use pyo3::prelude::*;
use sudosat::backend::{
    BackendError, BackendKind, BackendSpec, ProofFormat, ProofTarget, SatOutcome,
};
use sudosat::encode::memory_estimate;
use sudosat::formula::{ClauseSink, Cnf, Lit};
use sudosat::solve::sat::shrinks_learnt_clauses;

use crate::args;
use crate::cnf::PyCnf;
use crate::errors::{label_error, runtime_error, value_error};
use crate::files::{persist, temp_beside};
use crate::memory::ensure;
use crate::solve::PyTimeout;
use crate::wait::{run_interruptible, Ended};

/// Solves a CNF formula (a `Cnf`, a PySAT `CNF`, a list of clauses as PySAT takes them, or
/// the path of a DIMACS file, plain or compressed) with a SAT backend (`cdcl` by default; any `--backend` value, `external:cadical -q` …):
/// the model as a list of signed DIMACS literals, one per variable; None when the formula
/// is unsatisfiable (under the `assumptions`, DIMACS literals, when given); `Timeout` at
/// the time limit.
///
/// With `proof="p.drat"`, an UNSAT answer comes with its DRAT proof there (for
/// `drat-trim FORMULA p.drat`); nothing is written for another answer.
///
/// >>> sat(Cnf.from_clauses([[1, 2], [-1, 2], [-2, 3]]))
/// [1, 2, 3]
/// >>> print(sat(Cnf.from_clauses([[1], [-1]])))
/// None
/// >>> print(sat(Cnf.from_clauses([[1, 2], [-1, 2]]), assumptions=[-2]))
/// None
/// >>> sat([[1, 2], [-1]], "cadical")
/// [-1, 2]
#[pyfunction]
#[pyo3(signature = (formula, backend = "cdcl", *, assumptions = None, timeout = None,
    threads = None, seed = None, proof = None, binary_proof = false))]
#[allow(clippy::too_many_arguments)]
pub fn sat(
    py: Python<'_>,
    formula: &Bound<'_, PyAny>,
    backend: &str,
    assumptions: Option<Vec<i64>>,
    timeout: Option<f64>,
    #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::seed)] seed: Option<u64>,
    proof: Option<PathBuf>,
    binary_proof: bool,
) -> PyResult<Py<PyAny>> {
    let (cnf, encoding) = match formula.cast::<PyCnf>() {
        Ok(cnf) => {
            let cnf = cnf.get();
            (cnf.cnf.clone(), cnf.described.as_ref().map(|d| d.encoding))
        }
        Err(_) => {
            let read = if formula.is_instance_of::<pyo3::types::PyString>()
                || formula.hasattr("__fspath__")?
            {
                PyCnf::read_path(py, formula.extract()?)?
            } else if formula.hasattr("clauses")? || formula.try_iter().is_ok() {
                PyCnf::from_pysat_like(formula)?
            } else {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "formula must be a Cnf, a PySAT CNF, a list of clauses or a DIMACS file's \
                     path, not {}",
                    formula.get_type().name()?
                )));
            };
            let encoding = read.described.as_ref().map(|d| d.encoding);
            (read.cnf, encoding)
        }
    };
    let mut spec = BackendSpec::from_label(backend).map_err(label_error)?;
    if spec.kind == BackendKind::External && spec.command.is_none() {
        return Err(value_error(
            "the external backend needs the solver command: backend=\"external:cadical -q\"",
        ));
    }
    spec.timeout = sudosat::run::time_limit("timeout", timeout).map_err(value_error)?;
    if let Some(threads) = threads {
        if !(1..=256).contains(&threads) {
            return Err(value_error(format!(
                "threads must be between 1 and 256, not {threads}"
            )));
        }
        spec.threads = threads;
    }
    if let Some(seed) = seed {
        spec.seed = seed;
    }
    let num_vars = cnf.num_vars();
    let mut lits = Vec::new();
    for &number in assumptions.iter().flatten() {
        if number == 0 || number.unsigned_abs() > num_vars as u64 {
            return Err(value_error(format!(
                "assumptions: `{number}` is not a literal of the formula's {num_vars} variables"
            )));
        }
        lits.push(Lit::from_dimacs(number));
    }
    if spec.kind.is_embedded() {
        ensure(memory_estimate(cnf.size()), || {
            format!(
                "{num_vars} variables, {} clauses and {} literals to solve in this process \
                 (an external backend solves in its own)",
                cnf.num_clauses(),
                cnf.num_literals()
            )
        })?;
    }
    let proof = match proof {
        Some(path) => Some((temp_beside(&path)?, path)),
        None => None,
    };
    let format = if binary_proof {
        ProofFormat::Binary
    } else {
        ProofFormat::Text
    };
    let limit = spec.timeout;
    let ended = run_interruptible(py, None, move |stop| {
        solve_formula(&spec, cnf, encoding, &lits, proof, format, stop)
    })?;
    let outcome = match ended {
        Ended::Done(outcome) => outcome?,
        Ended::Interrupted(err, _) => return Err(err),
    };
    match outcome {
        Ok(SatOutcome::Sat(model)) => {
            let values: Vec<i64> = model.lits().take(num_vars).map(|l| l.to_dimacs()).collect();
            Ok(values.into_pyobject(py)?.into_any().unbind())
        }
        Ok(SatOutcome::Unsat) => Ok(py.None()),
        Err(BackendError::Timeout { .. }) | Err(BackendError::GaveUp { .. }) => {
            let message = outcome.unwrap_err().to_string();
            Ok(Py::new(py, PyTimeout::made(limit.map(|l| l.as_secs_f64()), message))?.into_any())
        }
        Err(e) => Err(runtime_error(e)),
    }
}

/// The backend's answer on `cnf` (on the working thread), and the proof put in place for an
/// UNSAT answer.
fn solve_formula(
    spec: &BackendSpec,
    mut cnf: Cnf,
    encoding: Option<sudosat::encode::SudokuEncoding>,
    assumptions: &[Lit],
    proof: Option<(tempfile::NamedTempFile, PathBuf)>,
    format: ProofFormat,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> PyResult<Result<SatOutcome, BackendError>> {
    let mut backend = spec.create().map_err(runtime_error)?;
    backend.set_interrupt(Some(stop));
    if let Some((temp, path)) = &proof {
        backend
            .set_proof(Some(ProofTarget {
                path: temp.path().to_path_buf(),
                format,
            }))
            .map_err(|e| value_error(format!("proof={}: {e}", path.display())))?;
    }
    if let Some(encoding) = encoding {
        backend.set_shrinking(shrinks_learnt_clauses(encoding));
    }
    let under_assumptions = backend.takes_assumptions();
    if !under_assumptions {
        // The same answer from unit clauses.
        for &lit in assumptions {
            cnf.add_clause(&[lit]);
        }
    }
    backend.add_formula(&mut cnf);
    let outcome = if under_assumptions {
        backend.solve_under(assumptions)
    } else {
        backend.solve()
    };
    if let Some((temp, path)) = proof {
        backend
            .finish_proof()
            .map_err(|e| value_error(format!("proof={}: {e}", path.display())))?;
        if matches!(outcome, Ok(SatOutcome::Unsat)) {
            persist(temp, &path)?;
        }
    }
    Ok(outcome)
}
