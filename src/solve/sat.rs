//! The SAT path as a grid-level [`Solver`]: encode the puzzle ([`crate::encode`]), solve the
//! formula with a [`SatBackend`], check the model against the formula (the backend does) and
//! decode it into a grid checked against the rules and the givens ([`VarMap::decode`]).
//!
//! Solutions are counted with blocking clauses (each found solution's true cell variables,
//! negated) added to the same backend, so an incremental backend never re-encodes.

use std::time::{Duration, Instant};

use crate::backend::{BackendSpec, SatBackend, SatOutcome};
use crate::encode::{SudokuEncoding, VarMap};
use crate::formula::{Cnf, FormulaSize};
use crate::grid::{check_grid, Grid};
use crate::run::Counters;
use crate::solve::{SolveOutcome, SolveReport, Solver};
use crate::Error;

/// The default encoding of the SAT path: the fastest measured (see BENCHMARKS.md).
pub const DEFAULT_ENCODING: SudokuEncoding =
    SudokuEncoding::new(crate::encode::BaseEncoding::Extended, true);

/// Figures of the last solve or count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    /// The formula's size (variables, clauses, literals), blocking clauses excluded.
    pub size: FormulaSize,
    /// Time spent encoding (streaming clauses into the backend).
    pub encode_time: Duration,
    /// Time spent in the backend's `solve` calls.
    pub solve_time: Duration,
    /// Time spent decoding and checking grids.
    pub decode_time: Duration,
    /// The backend's counters.
    pub backend: Counters,
}

/// Encoding + SAT backend → decoded, checked grid.
pub struct SatSolver {
    encoding: SudokuEncoding,
    spec: BackendSpec,
    /// Created on first use and reset (buffers kept) for each puzzle.
    backend: Option<Box<dyn SatBackend>>,
    /// The formula being built for a puzzle, handed to the backend whole; its buffers go
    /// back and forth with the backend's, so no puzzle allocates them anew.
    formula: Cnf,
    stats: SatStats,
    time_limit: Option<Duration>,
}

impl SatSolver {
    /// A solver with the given encoding and backend.
    pub fn new(encoding: SudokuEncoding, spec: BackendSpec) -> SatSolver {
        SatSolver {
            encoding,
            time_limit: spec.timeout,
            spec,
            backend: None,
            formula: Cnf::new(),
            stats: SatStats::default(),
        }
    }

    /// The encoding used.
    pub fn encoding(&self) -> SudokuEncoding {
        self.encoding
    }

    /// The backend spec used.
    pub fn spec(&self) -> &BackendSpec {
        &self.spec
    }

    /// Figures of the last solve or count.
    pub fn stats(&self) -> &SatStats {
        &self.stats
    }

    /// Encodes `puzzle` into a fresh (reset) backend and returns the map.
    fn load(&mut self, puzzle: &Grid) -> Result<VarMap, Error> {
        if self.backend.is_none() {
            let mut backend = self.spec.create()?;
            backend.set_time_limit(self.time_limit);
            self.backend = Some(backend);
        }
        let backend = self.backend.as_deref_mut().expect("backend created above");
        backend.reset();
        let start = Instant::now();
        self.formula.clear();
        let map = self.encoding.encode_into(puzzle, &mut self.formula);
        self.formula.set_num_vars(map.num_vars());
        let size = self.formula.size();
        backend.add_formula(&mut self.formula);
        self.stats = SatStats {
            size,
            encode_time: start.elapsed(),
            ..SatStats::default()
        };
        Ok(map)
    }

    fn backend(&mut self) -> &mut dyn SatBackend {
        self.backend.as_deref_mut().expect("loaded")
    }

    fn timed_solve(&mut self) -> Result<SatOutcome, Error> {
        let start = Instant::now();
        let outcome = self.backend().solve();
        self.stats.solve_time += start.elapsed();
        if outcome.is_err() {
            // A time-out or failure still reports the work done until then.
            self.stats.backend = self.backend().counters();
        }
        Ok(outcome?)
    }

    fn decode(&mut self, map: &VarMap, model: &crate::formula::Model) -> Result<Grid, Error> {
        let start = Instant::now();
        let grid = map.decode(model);
        self.stats.decode_time += start.elapsed();
        Ok(grid?)
    }

    fn finish_counters(&mut self) -> Counters {
        let mut counters = self.backend().counters();
        counters.0.extend([
            ("vars", self.stats.size.vars as u64),
            ("clauses", self.stats.size.clauses as u64),
            ("literals", self.stats.size.literals as u64),
        ]);
        self.stats.backend = self.backend().counters();
        counters
    }

    /// Counts solutions up to `limit` (0 = no limit) and returns them all, each checked.
    ///
    /// # Errors
    /// A backend failure, or a model that does not decode to a solution.
    pub fn solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Vec<Grid>, Error> {
        if !check_grid(puzzle).is_valid() {
            self.stats = SatStats::default();
            return Ok(Vec::new());
        }
        let map = self.load(puzzle)?;
        let mut found = Vec::new();
        let mut blocking = Vec::new();
        while limit == 0 || (found.len() as u64) < limit {
            match self.timed_solve()? {
                SatOutcome::Unsat => break,
                SatOutcome::Sat(model) => {
                    found.push(self.decode(&map, &model)?);
                    blocking.clear();
                    blocking.extend(
                        map.cell_vars()
                            .filter(|&v| model.value(v))
                            .map(|v| v.negative()),
                    );
                    if blocking.is_empty() {
                        // Every cell is given: nothing to block, the solution is the only one.
                        break;
                    }
                    self.backend().add_clause(&blocking);
                }
            }
        }
        self.finish_counters();
        Ok(found)
    }
}

impl Solver for SatSolver {
    fn name(&self) -> String {
        "sat".to_string()
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        if !check_grid(puzzle).is_valid() {
            self.stats = SatStats::default();
            return Ok(SolveReport {
                outcome: SolveOutcome::NoSolution,
                counters: Counters::default(),
            });
        }
        let map = self.load(puzzle)?;
        let outcome = match self.timed_solve()? {
            SatOutcome::Unsat => SolveOutcome::NoSolution,
            SatOutcome::Sat(model) => SolveOutcome::Solved(self.decode(&map, &model)?),
        };
        let counters = self.finish_counters();
        Ok(SolveReport { outcome, counters })
    }

    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        Ok(Some(self.solutions(puzzle, limit)?.len() as u64))
    }

    /// The limit applies to each backend `solve` call (a count makes several).
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
        if let Some(backend) = self.backend.as_deref_mut() {
            backend.set_time_limit(limit);
        }
    }

    /// Asked of the backend (made now if no puzzle was solved yet).
    fn honours_time_limit(&self) -> bool {
        match self.backend.as_deref() {
            Some(backend) => backend.honours_time_limit(),
            None => self
                .spec
                .create()
                .is_ok_and(|backend| backend.honours_time_limit()),
        }
    }

    fn sat_stats(&self) -> Option<&SatStats> {
        Some(&self.stats)
    }
}
