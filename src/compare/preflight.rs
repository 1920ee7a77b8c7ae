//! The check before the first run that every SAT entry of a study can run: its backend
//! made and answering a three-variable formula with a model that satisfies it, so that a
//! missing or broken solver stops the study at once rather than filling it with failures.

use std::time::Duration;

use crate::backend::BackendSpec;
use crate::solve::SolverSpec;

use super::{CompareConfig, CompareError};

/// The formula every SAT entry answers before the first run ([`preflight`]), in DIMACS
/// numbers: three variables, satisfiable, with the one model `1 2 -3`.
pub const PREFLIGHT_CLAUSES: [&[i64]; 3] = [&[1], &[-1, 2], &[-2, -3]];

/// The time an entry has to answer [`PREFLIGHT_CLAUSES`].
pub const PREFLIGHT_LIMIT: Duration = Duration::from_secs(10);

/// Checks, before the first run, that every SAT entry of `config` can run: its backend is
/// made (an external solver's binary found and started, its flags accepted) and answers
/// [`PREFLIGHT_CLAUSES`] with a model that satisfies them, within [`PREFLIGHT_LIMIT`].
/// Each backend is tried once, whatever the encodings it is crossed with. The classic
/// solvers run in this process: there is nothing to check.
///
/// # Errors
/// [`CompareError::CannotRun`] naming the first entry that cannot run and why.
pub fn preflight(config: &CompareConfig) -> Result<(), CompareError> {
    let mut tried: Vec<&BackendSpec> = Vec::new();
    for entry in &config.entries {
        let SolverSpec::Sat { backend, .. } = entry else {
            continue;
        };
        if tried.contains(&backend) {
            continue;
        }
        tried.push(backend);
        preflight_backend(backend).map_err(|reason| CompareError::CannotRun {
            entry: config.label(entry),
            reason,
        })?;
    }
    Ok(())
}

/// Solves [`PREFLIGHT_CLAUSES`] with a fresh backend of `spec`: `Err` says what went wrong.
fn preflight_backend(spec: &BackendSpec) -> Result<(), String> {
    let spec = spec.clone().with_timeout(Some(PREFLIGHT_LIMIT));
    let mut backend = spec.create().map_err(|e| e.to_string())?;
    let mut cnf = crate::formula::Cnf::new();
    for clause in PREFLIGHT_CLAUSES {
        let lits: Vec<crate::formula::Lit> = clause
            .iter()
            .map(|&n| crate::formula::Lit::from_dimacs(n))
            .collect();
        crate::formula::ClauseSink::add_clause(&mut cnf, &lits);
    }
    backend.add_formula(&mut cnf.clone());
    match backend.solve().map_err(|e| e.to_string())? {
        crate::backend::SatOutcome::Sat(model) => {
            crate::backend::check_model(&backend.name(), &cnf, model)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        crate::backend::SatOutcome::Unsat => Err(format!(
            "{} answered UNSAT for a satisfiable formula",
            backend.name()
        )),
    }
}
