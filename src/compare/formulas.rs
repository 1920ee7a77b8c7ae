//! `compare` on DIMACS formulas instead of puzzles: every formula solved by every SAT
//! backend entry, each model checked against the formula's clauses, and the backends made
//! to agree (UNSAT for a formula another entry satisfied is a wrong answer).
//!
//! This is how SAT solvers are compared in the competitions and in Sudoku-as-SAT studies
//! alike (one CNF, many solvers, PAR-2 over the set): a CNF that `sudosat encode` wrote, a
//! competition benchmark, or one from another tool. The rows are the [`Run`]s of the
//! puzzle mode, so the summaries, CSV, JSON, plots and report work unchanged; the grid
//! columns (`size`, `givens`) are 0, and `vars`, `clauses` and `literals` are the formula's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::measure::{error_outcome, mark_past_limit, micros};
use super::running::{run_entries, Hooks};
use super::{assemble, CompareConfig, CompareError, Comparison, Outcome, Run, Watch};
use crate::backend::{check_model, BackendSpec, SatOutcome};
use crate::encode::SudokuEncoding;
use crate::formula::FormulaSize;
use crate::run::{Counters, Instant};
use crate::solve::SolverSpec;
use crate::Cnf;

/// A formula to compare on, with where it was read.
#[derive(Clone, Debug)]
pub struct FormulaInput {
    /// The input file as named (or `<stdin>`).
    pub file: String,
    /// The formula.
    pub cnf: Cnf,
    /// The Sudoku encoding its comments name, for a CNF that `sudosat encode` wrote: cdcl
    /// then solves it as `solve` would (as `sudosat sat` does).
    pub encoding: Option<SudokuEncoding>,
}

/// The SAT backend of an entry; classic solvers cannot take a formula.
fn backend_of(entry: &SolverSpec) -> Result<&BackendSpec, CompareError> {
    match entry {
        SolverSpec::Sat { backend, .. } => Ok(backend),
        SolverSpec::Classic { kind, .. } => Err(CompareError::Invalid(format!(
            "{}: a classic solver needs a puzzle, and the inputs are DIMACS formulas; \
             compare formulas with SAT backends (cdcl, dpll, lookahead, varisat, splr, \
             minisat, external:CMD)",
            kind.name()
        ))),
    }
}

/// Runs every entry of `config` (SAT backends only, labelled by the backend alone:
/// [`CompareConfig::formulas`] must be set) on every formula, `config.repeat` times, with
/// a fresh backend each run. As [`super::run`]: entries one after another, formulas of one
/// entry shared among `config.jobs` threads, `stop` read before each run, `on_run` called
/// after each.
///
/// # Errors
/// An invalid config, a classic solver among the entries, isomorphs asked for (a formula
/// has none), or a thread pool that cannot start.
pub fn run_formulas(
    formulas: &[FormulaInput],
    config: &CompareConfig,
    stop: &AtomicBool,
    on_run: &(dyn Fn(&Run) + Sync),
) -> Result<Comparison, CompareError> {
    run_formulas_hooked(formulas, config, &Hooks::unwatched(stop, on_run))
}

/// [`run_formulas`] under a [`Watch`], as [`super::run_watched`]: the stop also ends the
/// runs in flight, their rows `stopped`.
///
/// # Errors
/// As for [`run_formulas`].
pub fn run_formulas_watched(
    formulas: &[FormulaInput],
    config: &CompareConfig,
    watch: &Watch,
) -> Result<Comparison, CompareError> {
    let mut comparison = run_formulas_hooked(formulas, config, &Hooks::of(watch))?;
    comparison.interrupted |= watch.stop.load(Ordering::SeqCst);
    Ok(comparison)
}

fn run_formulas_hooked(
    formulas: &[FormulaInput],
    config: &CompareConfig,
    hooks: &Hooks,
) -> Result<Comparison, CompareError> {
    config.validate()?;
    if !config.formulas {
        return Err(CompareError::Invalid(
            "run_formulas needs a config for formulas (CompareConfig::formulas)".to_string(),
        ));
    }
    if config.isomorphs.is_some() {
        return Err(CompareError::Invalid(
            "--isomorphs permutes a puzzle; a DIMACS formula has no grid to permute (use \
             --vary-seed for draws of cdcl's search)"
                .to_string(),
        ));
    }
    for entry in &config.entries {
        backend_of(entry)?;
    }
    let run_one = |_: &mut (),
                   entry: &SolverSpec,
                   index: usize,
                   formula: &FormulaInput,
                   repeats: &[usize]| {
        let mut runs = Vec::with_capacity(repeats.len());
        for &repeat in repeats {
            if hooks.stopped() {
                break;
            }
            let spec = if config.vary_seed {
                entry.with_seed_offset(repeat as u64 - 1)
            } else {
                entry.clone()
            };
            let mut row = blank_row(formula, index, &spec, repeat);
            (hooks.on_start)(&row);
            if let Ok(backend) = backend_of(&spec) {
                measure(
                    formula,
                    &backend.clone().with_timeout(config.timeout),
                    hooks.interrupt,
                    &mut row,
                );
            }
            hooks.mark_stopped(&mut row);
            (hooks.on_run)(&row);
            runs.push(row);
        }
        runs
    };
    // A fresh backend each run: nothing kept from one formula to the next.
    let runs = run_entries(formulas, config, hooks.stop, |_| (), run_one)?;
    Ok(assemble(config, formulas.len(), runs))
}

fn blank_row(formula: &FormulaInput, index: usize, entry: &SolverSpec, repeat: usize) -> Run {
    let FormulaSize {
        vars,
        clauses,
        literals,
    } = formula.cnf.size();
    Run {
        file: formula.file.clone(),
        line: 1,
        puzzle_index: index + 1,
        size: 0,
        givens: 0,
        solver: entry.backend_label().unwrap_or_default(),
        backend: entry.backend_label(),
        encoding: None,
        repeat,
        outcome: Outcome::Failed,
        checked: false,
        vars: Some(vars),
        clauses: Some(clauses),
        literals: Some(literals),
        puzzle_vars: Some(vars),
        puzzle_clauses: Some(clauses),
        puzzle_literals: Some(literals),
        encode_us: None,
        solve_us: 0.0,
        decode_us: None,
        total_us: 0.0,
        counters: Counters::default(),
        error: None,
    }
}

/// Loads `formula` into a fresh backend from `spec` and solves it, timed on this thread
/// (the load counts: an external solver writes and parses the file in its solve), then
/// checks a model against the formula's clauses, untimed, and fills in the row.
fn measure(
    formula: &FormulaInput,
    spec: &BackendSpec,
    interrupt: Option<&Arc<AtomicBool>>,
    row: &mut Run,
) {
    let mut backend = match spec.create() {
        Ok(backend) => backend,
        Err(err) => {
            row.error = Some(err.to_string());
            return;
        }
    };
    // Not where holding the flag would slow the solve being timed (varisat's).
    backend.set_free_interrupt(interrupt.cloned());
    if let Some(encoding) = formula.encoding {
        backend.set_shrinking(crate::solve::sat::shrinks_learnt_clauses(encoding));
    }
    let mut cnf = formula.cnf.clone();
    let start = Instant::now();
    backend.add_formula(&mut cnf);
    let solve_start = Instant::now();
    let result = backend.solve();
    let total = start.elapsed();
    row.solve_us = micros(solve_start.elapsed());
    row.total_us = micros(total);
    row.counters = backend.counters();
    let check_start = Instant::now();
    match result {
        Ok(SatOutcome::Sat(model)) => {
            match check_model(&backend.name(), &formula.cnf, model) {
                Ok(_) => {
                    row.outcome = Outcome::Solved;
                    row.checked = true;
                }
                Err(err) => {
                    row.outcome = Outcome::Wrong;
                    row.error = Some(err.to_string());
                }
            }
            row.decode_us = Some(micros(check_start.elapsed()));
        }
        Ok(SatOutcome::Unsat) => row.outcome = Outcome::NoSolution,
        Err(err) => {
            // The puzzles' mapping: a time-out, a wrong model, or a failure.
            let err = crate::Error::from(err);
            row.outcome = error_outcome(&err);
            row.error = Some(err.to_string());
            return;
        }
    }
    mark_past_limit(row, total, spec.timeout, backend.honours_time_limit());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendKind;
    use crate::compare::{entries, parse_solvers};
    use crate::solve::ClassicKind;
    use crate::{ClauseSink, Lit};

    fn formula(name: &str, clauses: &[&[i64]]) -> FormulaInput {
        let mut cnf = Cnf::new();
        for clause in clauses {
            let lits: Vec<Lit> = clause.iter().map(|&d| Lit::from_dimacs(d)).collect();
            cnf.add_clause(&lits);
        }
        FormulaInput {
            file: name.to_string(),
            cnf,
            encoding: None,
        }
    }

    fn config(list: &str) -> CompareConfig {
        let solvers = parse_solvers(list).unwrap();
        let entries = entries(
            &solvers,
            &[crate::solve::sat::DEFAULT_ENCODING],
            &Default::default(),
        )
        .unwrap();
        CompareConfig {
            formulas: true,
            ..CompareConfig::new(entries)
        }
    }

    /// Pigeonhole: 3 pigeons, 2 holes (UNSAT), and a satisfiable chain.
    fn two_formulas() -> Vec<FormulaInput> {
        vec![
            formula(
                "php",
                &[
                    &[1, 2],
                    &[3, 4],
                    &[5, 6],
                    &[-1, -3],
                    &[-1, -5],
                    &[-3, -5],
                    &[-2, -4],
                    &[-2, -6],
                    &[-4, -6],
                ],
            ),
            formula("chain", &[&[1, 2], &[-1, 3], &[-3, -2], &[2, 4]]),
        ]
    }

    #[test]
    fn every_embedded_backend_answers_each_formula_and_labels_rows_by_backend() {
        let config = config("embedded");
        let result =
            run_formulas(&two_formulas(), &config, &AtomicBool::new(false), &|_| {}).unwrap();
        // The embedded group is the in-process rows this build has, in registry order.
        let embedded: Vec<&str> = crate::backend::BackendKind::ALL
            .into_iter()
            .filter(|kind| kind.is_embedded() && kind.is_built())
            .map(crate::backend::BackendKind::name)
            .collect();
        assert_eq!(
            embedded[..5],
            ["cdcl", "dpll", "lookahead", "varisat", "splr"]
        );
        assert_eq!(result.solvers, embedded);
        assert_eq!(result.runs.len(), 2 * embedded.len());
        for run in &result.runs {
            match run.file.as_str() {
                "php" => assert_eq!(run.outcome, Outcome::NoSolution, "{run:?}"),
                _ => assert!(run.outcome == Outcome::Solved && run.checked, "{run:?}"),
            }
            assert_eq!(run.encoding, None);
        }
        let php = &result.runs[0];
        assert_eq!(
            (php.vars, php.clauses, php.literals),
            (Some(6), Some(9), Some(18))
        );
    }

    #[test]
    fn repeats_with_seeds_and_jobs_give_every_row_in_order() {
        let config = CompareConfig {
            repeat: 3,
            jobs: 2,
            vary_seed: true,
            ..config("cdcl,dpll")
        };
        let result =
            run_formulas(&two_formulas(), &config, &AtomicBool::new(false), &|_| {}).unwrap();
        let order: Vec<(usize, &str, usize)> = result
            .runs
            .iter()
            .map(|r| (r.puzzle_index, r.solver.as_str(), r.repeat))
            .collect();
        let mut expected = Vec::new();
        for index in 1..=2 {
            for solver in ["cdcl", "dpll"] {
                for repeat in 1..=3 {
                    expected.push((index, solver, repeat));
                }
            }
        }
        assert_eq!(order, expected);
        assert!(!result.interrupted);
    }

    #[test]
    fn classic_solvers_and_isomorphs_are_refused_with_a_reason() {
        let mut classic = config("cdcl");
        classic.entries.push(SolverSpec::classic(ClassicKind::Dlx));
        let err = run_formulas(&two_formulas(), &classic, &AtomicBool::new(false), &|_| {})
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("dlx: a classic solver needs a puzzle"),
            "{err}"
        );
        let isomorphs = CompareConfig {
            isomorphs: Some(1),
            ..config("cdcl")
        };
        let err = run_formulas(
            &two_formulas(),
            &isomorphs,
            &AtomicBool::new(false),
            &|_| {},
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("no grid to permute"), "{err}");
    }

    #[test]
    fn a_missing_external_solver_is_a_failed_row_and_the_others_go_on() {
        let config = config("cdcl,external:/nonexistent/solver-for-sudosat-tests");
        let result =
            run_formulas(&two_formulas(), &config, &AtomicBool::new(false), &|_| {}).unwrap();
        let failed: Vec<&Run> = result
            .runs
            .iter()
            .filter(|r| r.outcome == Outcome::Failed)
            .collect();
        assert_eq!(failed.len(), 2);
        assert!(failed.iter().all(|r| r.solver.starts_with("external:")
            && r.error
                .as_deref()
                .is_some_and(|e| e.contains("nonexistent"))));
        assert_eq!(
            BackendSpec::new(BackendKind::Cdcl).label(),
            result.runs[0].solver
        );
    }

    #[test]
    fn a_stop_before_the_first_run_leaves_an_interrupted_comparison() {
        let result = run_formulas(
            &two_formulas(),
            &config("cdcl"),
            &AtomicBool::new(true),
            &|_| {},
        )
        .unwrap();
        assert!(result.runs.is_empty() && result.interrupted);
    }
}
