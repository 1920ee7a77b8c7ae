//! One typed description of what to run: [`SolverSpec`], parsed once from its text form,
//! printed back the same way, and built into a [`Solver`]. The CLI, the generator, compare
//! and the benches describe solvers with it instead of each building its own.
//!
//! Text forms: `sat` (the default encoding and backend), `sat:ENCODING`,
//! `sat:ENCODING:BACKEND` (e.g. `sat:minimal+reduced:varisat`), or a classic solver's name
//! ([`ClassicKind`]). External backends need a command, which is not text of the spec: give
//! it in [`BackendSpec::command`].
//!
//! Adding a classic solver: one [`ClassicKind`] variant with its name and one arm of
//! [`ClassicKind::build`] in `solve/mod.rs`, beside the solver's own file.

use std::fmt;
use std::str::FromStr;

use super::sat::{SatSolver, DEFAULT_ENCODING};
use super::{ClassicKind, Solver, SolverOptions};
use crate::backend::{BackendKind, BackendSpec};
use crate::encode::{Encoding, SudokuEncoding};
use crate::names::UnknownName;

/// What to run on a puzzle: the SAT path (an encoding solved by a backend) or a classic
/// solver, each with its options.
#[derive(Clone, Debug, PartialEq)]
pub enum SolverSpec {
    /// Encode, solve with a SAT backend, decode and check.
    Sat {
        /// The encoding (base clauses, reduction, and any later dimension of it).
        encoding: SudokuEncoding,
        /// The backend, with its command, time limit and options.
        backend: BackendSpec,
    },
    /// A classic grid-level solver.
    Classic {
        /// Which one.
        kind: ClassicKind,
        /// Its options (seed, work cap, …).
        options: SolverOptions,
    },
}

impl Default for SolverSpec {
    /// `sat`: the default encoding on the default backend.
    fn default() -> Self {
        SolverSpec::Sat {
            encoding: DEFAULT_ENCODING,
            backend: BackendSpec::new(BackendKind::DEFAULT),
        }
    }
}

impl SolverSpec {
    /// The same solver with its seed moved on by `offset` (cdcl's [`BackendSpec::seed`],
    /// or the classic solvers' [`SolverOptions::seed`]): `compare --vary-seed` runs repeat
    /// r with offset r − 1. Solvers without randomness ignore it.
    pub fn with_seed_offset(&self, offset: u64) -> SolverSpec {
        let mut spec = self.clone();
        match &mut spec {
            SolverSpec::Sat { backend, .. } => backend.seed = backend.seed.wrapping_add(offset),
            SolverSpec::Classic { options, .. } => options.seed = options.seed.wrapping_add(offset),
        }
        spec
    }

    /// A classic solver with default options.
    pub fn classic(kind: ClassicKind) -> SolverSpec {
        SolverSpec::Classic {
            kind,
            options: SolverOptions::default(),
        }
    }

    /// A fresh solver with a time limit on each solve (`None`: none): the one place where
    /// a solver's limit is set, whatever its kind (the SAT path passes it to its backend).
    pub fn build(&self, time_limit: Option<std::time::Duration>) -> Box<dyn Solver> {
        let mut solver: Box<dyn Solver> = match self {
            SolverSpec::Sat { encoding, backend } => {
                Box::new(SatSolver::new(*encoding, backend.clone()))
            }
            SolverSpec::Classic { kind, options } => kind.build(options),
        };
        solver.set_time_limit(time_limit);
        solver
    }

    /// The grid-level solver's name: `sat` or the classic solver's.
    pub fn solver_name(&self) -> &'static str {
        match self {
            SolverSpec::Sat { .. } => "sat",
            SolverSpec::Classic { kind, .. } => kind.name(),
        }
    }

    /// The label of a row or a plot legend: `BACKEND/ENCODING` for the SAT path
    /// (`dpll/extended+reduced`, `external:cadical -q/minimal`), the classic solver's name.
    pub fn label(&self) -> String {
        match self {
            SolverSpec::Sat { encoding, backend } => {
                format!("{}/{}", backend.label(), encoding.name())
            }
            SolverSpec::Classic { kind, .. } => kind.name().to_string(),
        }
    }

    /// The backend's label on the SAT path ([`BackendSpec::label`]).
    pub fn backend_label(&self) -> Option<String> {
        match self {
            SolverSpec::Sat { backend, .. } => Some(backend.label()),
            SolverSpec::Classic { .. } => None,
        }
    }

    /// The encoding on the SAT path.
    pub fn encoding(&self) -> Option<SudokuEncoding> {
        match self {
            SolverSpec::Sat { encoding, .. } => Some(*encoding),
            SolverSpec::Classic { .. } => None,
        }
    }
}

impl fmt::Display for SolverSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverSpec::Sat { encoding, backend } => {
                write!(f, "sat:{}:{}", encoding.name(), backend.label())
            }
            SolverSpec::Classic { kind, .. } => f.write_str(kind.name()),
        }
    }
}

impl FromStr for SolverSpec {
    type Err = UnknownName;

    /// Parses `sat`, `sat:ENCODING`, `sat:ENCODING:BACKEND` or a classic solver's name
    /// (classic options take their defaults).
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let mut parts = s.splitn(3, ':');
        if parts.next() != Some("sat") {
            let kind: ClassicKind = s.parse().map_err(|e: UnknownName| UnknownName {
                expected: format!("sat, sat:ENCODING[:BACKEND], {}", e.expected),
                ..e
            })?;
            return Ok(SolverSpec::Classic {
                kind,
                options: SolverOptions::default(),
            });
        }
        let encoding = match parts.next() {
            None => DEFAULT_ENCODING,
            Some(name) => name.parse()?,
        };
        let backend = match parts.next() {
            None => BackendSpec::new(BackendKind::DEFAULT),
            Some(name) => BackendSpec::new(name.parse()?),
        };
        Ok(SolverSpec::Sat { encoding, backend })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{check_solution, Grid};
    use crate::solve::SolveOutcome;

    #[test]
    fn names_round_trip() {
        for kind in ClassicKind::ALL {
            assert_eq!(kind.name().parse::<ClassicKind>(), Ok(kind));
            let spec: SolverSpec = kind.name().parse().unwrap();
            assert_eq!(spec.to_string(), kind.name());
        }
        let spec: SolverSpec = "sat:minimal+reduced:varisat".parse().unwrap();
        assert_eq!(spec.to_string(), "sat:minimal+reduced:varisat");
        assert_eq!(
            "sat".parse::<SolverSpec>().unwrap().to_string(),
            SolverSpec::default().to_string()
        );
        let e = "dancing".parse::<SolverSpec>().unwrap_err();
        assert_eq!(e.name, "dancing");
        assert!(
            e.expected.contains("dlx") && e.expected.contains("sat"),
            "{e}"
        );
        assert!("sat:tiny".parse::<SolverSpec>().is_err());
        assert!("sat:minimal:glucose".parse::<SolverSpec>().is_err());
    }

    #[test]
    fn every_spec_builds_a_solver_that_solves() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let specs = ClassicKind::NAMES
            .iter()
            .map(|n| n.to_string())
            .chain(["sat".to_string(), "sat:minimal:dpll".to_string()]);
        for text in specs {
            let spec: SolverSpec = text.parse().unwrap();
            let mut solver = spec.build(None);
            match solver.solve(&puzzle).unwrap().outcome {
                SolveOutcome::Solved(g) => {
                    assert!(check_solution(&puzzle, &g).is_valid(), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
