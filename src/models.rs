//! Counting the models of any formula with blocking clauses, projected onto some of its
//! variables: after each model, the clause that excludes its values on those variables is
//! added and the backend asked again, until it answers UNSAT (every model counted), a limit
//! is reached, or the time runs out. Models that differ only outside the projection count
//! once: the projected model count of the model counting competitions (`c p show` lines,
//! Fichte, Hecher & Hamiti 2021, "The model counting competition 2020", JEA 26), which on a
//! CNF that `encode` wrote, projected onto the cell variables, is the number of grids.
//!
//! The count is exact only when the search runs out of models; each model costs a solve,
//! so it is for formulas with few models (a puzzle's solutions, small test formulas), not
//! a #SAT solver.

use crate::backbone::solve_within;
use crate::backend::{BackendError, SatBackend, SatOutcome};
use crate::formula::{Lit, Model, Var};
use crate::run::Deadline;

/// Which literals a blocking clause holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocking {
    /// Every projection variable's literal, negated: right for any formula.
    Full,
    /// The projection's true literals alone, negated: shorter, and exact when two models
    /// that differ on the projection always differ in a variable the earlier one makes
    /// true, as on a Sudoku's cell variables, where every cell holds exactly one digit
    /// (`solve::sat` counts grids so).
    TrueLiterals,
}

/// Where a count ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountEnd {
    /// Every model was found: the count is exact.
    Exhausted,
    /// The limit of models was reached: there may be more.
    Limit,
    /// The time limit ended the search: there may be more.
    TimeLimit,
}

/// A model count and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelCount {
    /// Models found (distinct on the projection).
    pub models: u64,
    /// Why the count stopped there.
    pub end: CountEnd,
}

impl ModelCount {
    /// Whether `models` is the exact count.
    pub fn is_exact(&self) -> bool {
        self.end == CountEnd::Exhausted
    }
}

/// Counts the models of the formula loaded in `backend` (under `assumptions`), projected
/// onto `projection`, starting from `first`, a model of it already found (it counts as
/// one), each model found blocked as `blocking` says. Stops at `limit` models (`None`: no
/// limit) or at `deadline`; the blocking clauses stay in the backend.
///
/// # Errors
/// The backend's failures other than the time-out, which ends the count with
/// [`CountEnd::TimeLimit`].
pub fn count_models(
    backend: &mut dyn SatBackend,
    first: &Model,
    projection: &[Var],
    blocking: Blocking,
    assumptions: &[Lit],
    limit: Option<u64>,
    deadline: &Deadline,
) -> Result<ModelCount, BackendError> {
    let mut count = ModelCount {
        models: 1,
        end: CountEnd::Limit,
    };
    let mut model = first.clone();
    loop {
        if limit.is_some_and(|limit| count.models >= limit) {
            return Ok(count);
        }
        let vars = projection.iter().copied();
        let clause = match blocking {
            Blocking::Full => model.blocking_clause(vars),
            Blocking::TrueLiterals => model.blocking_clause(vars.filter(|&v| model.value(v))),
        };
        if clause.is_empty() {
            // An empty projection has exactly one (empty) assignment; with true literals
            // only, no other model can differ from this one where it is true.
            count.end = CountEnd::Exhausted;
            return Ok(count);
        }
        backend.add_clause(&clause);
        match solve_within(backend, assumptions, deadline) {
            Ok(SatOutcome::Sat(next)) => {
                count.models += 1;
                model = next;
            }
            Ok(SatOutcome::Unsat) => {
                count.end = CountEnd::Exhausted;
                return Ok(count);
            }
            Err(BackendError::Timeout { .. }) => {
                count.end = CountEnd::TimeLimit;
                return Ok(count);
            }
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BackendKind, BackendSpec};

    fn lits(dimacs: &[i64]) -> Vec<Lit> {
        dimacs.iter().map(|&d| Lit::from_dimacs(d)).collect()
    }

    /// (x1 ∨ x2) over three variables: 3 × 2 = 6 models, 2 on {x1}, 3 on {x1, x2}.
    fn count(kind: BackendKind, projection: &[usize], limit: Option<u64>) -> ModelCount {
        let mut backend = BackendSpec::new(kind).create().unwrap();
        backend.reserve_vars(3);
        backend.add_clause(&lits(&[1, 2]));
        let Ok(SatOutcome::Sat(first)) = backend.solve() else {
            panic!("satisfiable");
        };
        let projection: Vec<Var> = projection.iter().map(|&v| Var::from_dimacs(v)).collect();
        count_models(
            backend.as_mut(),
            &first,
            &projection,
            Blocking::Full,
            &[],
            limit,
            &Deadline::after(None),
        )
        .unwrap()
    }

    /// Exactly one of x1…x4, as a Sudoku cell holds one digit.
    fn exactly_one_of_four(kind: BackendKind, blocking: Blocking) -> ModelCount {
        let mut backend = BackendSpec::new(kind).create().unwrap();
        backend.add_clause(&lits(&[1, 2, 3, 4]));
        for a in 1..=4 {
            for b in a + 1..=4 {
                backend.add_clause(&lits(&[-a, -b]));
            }
        }
        let Ok(SatOutcome::Sat(first)) = backend.solve() else {
            panic!("satisfiable");
        };
        let vars: Vec<Var> = (1..=4).map(Var::from_dimacs).collect();
        let deadline = Deadline::after(None);
        count_models(
            backend.as_mut(),
            &first,
            &vars,
            blocking,
            &[],
            None,
            &deadline,
        )
        .unwrap()
    }

    #[test]
    fn counts_every_model_on_its_projection() {
        for kind in [BackendKind::Cdcl, BackendKind::Dpll, BackendKind::Varisat] {
            let exact = |models| ModelCount {
                models,
                end: CountEnd::Exhausted,
            };
            assert_eq!(count(kind, &[1, 2, 3], None), exact(6), "{kind}");
            assert_eq!(count(kind, &[1, 2], None), exact(3), "{kind}");
            assert_eq!(count(kind, &[1], None), exact(2), "{kind}");
            assert_eq!(count(kind, &[], None), exact(1), "{kind}");
            let limited = count(kind, &[1, 2, 3], Some(4));
            assert_eq!(
                exactly_one_of_four(kind, Blocking::Full),
                exact(4),
                "{kind}"
            );
            assert_eq!(
                exactly_one_of_four(kind, Blocking::TrueLiterals),
                exact(4),
                "{kind}"
            );
            assert_eq!(
                (limited.models, limited.end),
                (4, CountEnd::Limit),
                "{kind}"
            );
            assert!(!limited.is_exact());
        }
    }
}
