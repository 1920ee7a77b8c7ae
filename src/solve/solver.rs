//! The grid-level [`Solver`] trait and what a solve answers.

use std::time::Duration;

use std::io::Write;
use std::path::Path;

use crate::backend::{ProofFormat, ProofTarget};
use crate::dimacs::DimacsWriter;
use crate::encode::{CnfDescription, SudokuEncoding};
use crate::formula::{ClauseSink, Cnf, FormulaSize};
use crate::grid::Grid;
use crate::run::Counters;
use crate::Error;

/// What a grid-level solver found: with the solution (`G` = [`Grid`], what
/// [`Solver::solve`] answers), or without it (`()`, what [`Solver::solve_into`] answers,
/// the solution being in the caller's grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome<G = Grid> {
    /// A solution (the caller still checks it with [`crate::grid::check_solution`]).
    Solved(G),
    /// Proven to have no solution.
    NoSolution,
    /// An incomplete method stopped without an answer (iteration cap, threshold).
    Stopped(String),
}

/// A solver's answer and its counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// The outcome.
    pub outcome: SolveOutcome,
    /// Work counters (assignments, backtracks, nodes, expansions…).
    pub counters: Counters,
}

/// A Sudoku solver working on grids.
pub trait Solver: Send {
    /// The name as `--solver` spells it.
    fn name(&self) -> String;

    /// Solves one puzzle.
    ///
    /// # Errors
    /// Only for failures (an external process died); no solution is
    /// `Ok(SolveOutcome::NoSolution)`.
    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error>;

    /// Solves one puzzle as [`Solver::solve`] does, writing the solution into `solution`
    /// (its buffer reused) instead of a new grid, and keeping no counters: the call of a
    /// batch, which on the SAT path allocates nothing per puzzle once its buffers have
    /// grown. `solution` is unspecified unless the answer is `Solved`. The default solves
    /// and moves the answer in.
    ///
    /// # Errors
    /// As for [`Solver::solve`].
    fn solve_into(
        &mut self,
        puzzle: &Grid,
        solution: &mut Grid,
    ) -> Result<SolveOutcome<()>, Error> {
        Ok(match self.solve(puzzle)?.outcome {
            SolveOutcome::Solved(grid) => {
                *solution = grid;
                SolveOutcome::Solved(())
            }
            SolveOutcome::NoSolution => SolveOutcome::NoSolution,
            SolveOutcome::Stopped(why) => SolveOutcome::Stopped(why),
        })
    }

    /// Counts solutions up to `limit` (`0`: no limit, count them all); `Ok(None)` when this
    /// solver cannot count.
    ///
    /// # Errors
    /// As for [`Solver::solve`].
    fn count_solutions(&mut self, puzzle: &Grid, limit: u64) -> Result<Option<u64>, Error> {
        let _ = (puzzle, limit);
        Ok(None)
    }

    /// Limits the time of each later `solve` or `count_solutions`: past it they return an
    /// error for which [`Error::is_timeout`] holds. `None` lifts the limit. The default
    /// ignores the limit; [`Solver::honours_time_limit`] says whether a solver stops early.
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        let _ = limit;
    }

    /// Whether [`Solver::set_time_limit`] can stop a running solve.
    fn honours_time_limit(&self) -> bool {
        false
    }

    /// Hands a flag to the later solves that another thread sets to stop them: a solver
    /// that can be interrupted (the SAT path on a backend with
    /// [`crate::backend::Interrupt`]) then ends its solve soon with an error; the default
    /// ignores it and runs each solve to its end.
    fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        let _ = flag;
    }

    /// The trace of the last solve in words, one line per event, for solvers that keep one
    /// when asked ([`SolverOptions::trace`](super::SolverOptions::trace): hill climbing's new best objectives); empty
    /// otherwise.
    fn trace_lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// Asks the next solve or count for a DRAT proof of its final UNSAT answer ("no
    /// solution", or "unique": nothing besides the solution found) at `target`. `false`
    /// when this solver writes no proofs (only the SAT path does).
    fn prove_next(&mut self, target: Option<crate::backend::ProofTarget>) -> bool {
        let _ = target;
        false
    }

    /// The proof of the last answer asked for with [`Solver::prove_next`], when it ended in
    /// UNSAT.
    fn take_proof(&mut self) -> Option<ProvenUnsat> {
        None
    }

    /// The SAT path's figures of the last solve or count (formula size, phase times,
    /// backend counters); `None` for solvers that do not encode.
    fn sat_stats(&self) -> Option<&SatStats> {
        None
    }
}

/// Figures of the last solve or count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    /// The formula's size (variables, clauses, literals), blocking clauses excluded.
    pub size: FormulaSize,
    /// Whether that formula is the empty grid's, held for a batch with the givens as root
    /// units or assumptions ([`crate::backend::LoadMode`]), rather than the puzzle's own.
    pub empty_grid: bool,
    /// Time spent encoding (streaming clauses into the backend).
    pub encode_time: Duration,
    /// Time spent in the backend's `solve` calls.
    pub solve_time: Duration,
    /// Time spent decoding and checking grids.
    pub decode_time: Duration,
    /// The backend's counters.
    pub backend: Counters,
    /// How root reasoning ended, when it ran ([`crate::solve::root::RootOutcome::ending`]):
    /// `settled`, `fixpoint`, `unpaid`, `stopped` or `refuted`.
    pub root: Option<&'static str>,
}

/// An UNSAT answer of the SAT path with its DRAT proof ([`Solver::take_proof`]).
#[derive(Clone, Debug)]
pub struct ProvenUnsat {
    /// The exact formula the backend refuted: the encoding's clauses, then `blocking`
    /// blocking clauses.
    pub formula: Cnf,
    /// The encoding the formula was made with (unreduced for clashing givens).
    pub encoding: SudokuEncoding,
    /// Blocking clauses at the end of `formula` (one per solution found; an empty one when
    /// every cell is given).
    pub blocking: usize,
    /// The proof, complete and flushed.
    pub proof: ProofTarget,
    /// The backend that wrote it.
    pub backend: String,
}

impl ProvenUnsat {
    /// Writes the refuted formula as a self-describing DIMACS file: `puzzle`'s description,
    /// the `verdict` (`no solution`, `unique`), how many blocking clauses end it and where
    /// its refutation is (`proof`, whose file name is written), then exactly the clauses the
    /// backend got. `drat-trim FILE PROOF` checks the pair.
    ///
    /// # Errors
    /// Any I/O error of `w`.
    pub fn write_dimacs(
        &self,
        w: &mut dyn Write,
        puzzle: &Grid,
        proof: &Path,
        verdict: &str,
    ) -> std::io::Result<()> {
        let mut out = DimacsWriter::new(w);
        out.comment(&CnfDescription::new(self.encoding, puzzle).to_comment_text());
        out.comment(&format!(
            "verdict: {verdict}\nblocking-clauses: {} (the last clauses: one per solution \
             found, its cell values negated)\nproof: {} ({}DRAT, written by {}; check with \
             drat-trim)",
            self.blocking,
            proof.file_name().unwrap_or_default().to_string_lossy(),
            match self.proof.format {
                ProofFormat::Text => "",
                ProofFormat::Binary => "binary ",
            },
            self.backend
        ));
        out.header(self.formula.num_vars(), self.formula.num_clauses());
        for clause in self.formula.clauses() {
            out.add_clause(clause);
        }
        out.finish()?;
        Ok(())
    }
}
