//! The embedded splr 0.17 CDCL solver (Shuji Narazaki; a Glucose-style solver after Audemard
//! & Simon 2009, "Predicting learnt clauses quality in modern SAT solvers", IJCAI).
//!
//! splr 0.17 is not incremental without its `incremental_solver` feature, so this backend keeps
//! the clause list and builds a fresh splr solver from it for each solve (no re-encoding).

use std::time::Duration;

use ::splr::{Certificate, Config, SolveIF, Solver, SolverError};

use crate::backend::{check_model, BackendError, LimitTime, SatBackend, SatOutcome};
use crate::formula::{ClauseSink, Cnf, Lit, Model, Var};
use crate::run::Counters;

/// The splr backend.
#[derive(Default)]
pub struct SplrBackend {
    /// Every clause as given, to build solvers and check models.
    original: Cnf,
    solves: u64,
    /// splr counts its time limit in whole seconds, so a limit is rounded up to one.
    time_limit: Option<Duration>,
}

impl SplrBackend {
    /// An empty solver.
    pub fn new() -> SplrBackend {
        SplrBackend::default()
    }
}

impl ClauseSink for SplrBackend {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for SplrBackend {
    fn num_vars(&self) -> usize {
        self.original.num_vars()
    }

    fn name(&self) -> String {
        "splr".to_string()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solves += 1;
        if self.original.clauses().any(|c| c.is_empty()) {
            return Ok(SatOutcome::Unsat);
        }
        let clauses: Vec<Vec<i32>> = self
            .original
            .clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect())
            .collect();
        if clauses.is_empty() {
            return Ok(SatOutcome::Sat(Model::from_values(vec![
                false;
                self.original
                    .num_vars()
            ])));
        }
        let mut config = Config {
            quiet_mode: true,
            ..Config::default()
        };
        if let Some(limit) = self.time_limit {
            config.c_timeout = limit.as_secs_f64().ceil().max(1.0);
        }
        let mut solver = match Solver::try_from((config, clauses.as_slice())) {
            Ok(s) => s,
            Err(Ok(Certificate::UNSAT)) => return Ok(SatOutcome::Unsat),
            Err(Ok(Certificate::SAT(v))) => return self.model_of(&v),
            Err(Err(SolverError::EmptyClause)) => return Ok(SatOutcome::Unsat),
            Err(Err(e)) => return Err(self.gave_up(e)),
        };
        match solver.solve() {
            Ok(Certificate::SAT(v)) => self.model_of(&v),
            Ok(Certificate::UNSAT) => Ok(SatOutcome::Unsat),
            Err(SolverError::EmptyClause | SolverError::RootLevelConflict(_)) => {
                Ok(SatOutcome::Unsat)
            }
            Err(e) => Err(self.gave_up(e)),
        }
    }

    fn counters(&self) -> Counters {
        Counters(vec![("solves", self.solves)])
    }

    fn reset(&mut self) {
        *self = SplrBackend {
            time_limit: self.time_limit,
            ..SplrBackend::new()
        };
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }
}

impl LimitTime for SplrBackend {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl SplrBackend {
    fn gave_up(&self, e: SolverError) -> BackendError {
        match (e, self.time_limit) {
            (SolverError::TimeOut, Some(limit)) => BackendError::Timeout {
                solver: "splr".to_string(),
                timeout: limit,
            },
            (e, _) => BackendError::GaveUp {
                solver: "splr".to_string(),
                reason: format!("{e:?}"),
            },
        }
    }

    fn model_of(&self, values: &[i32]) -> Result<SatOutcome, BackendError> {
        let model = Model::from_lits(
            self.original.num_vars(),
            values
                .iter()
                .filter(|&&v| v != 0)
                .map(|&v| Var::from_dimacs(v.unsigned_abs() as usize).lit(v > 0)),
        );
        check_model("splr", &self.original, model)
    }
}
