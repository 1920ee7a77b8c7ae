//! β-hill climbing: a local search over complete assignments.
//!
//! Al-Betar, M. A. (2017). *β-Hill climbing: an exploratory local search*. Neural Computing
//! and Applications 28, 153–168; applied to Sudoku by Al-Betar, Awadallah, Bolaji and
//! Alijla (2017), *β-Hill climbing algorithm for Sudoku game*, PICICT 2017. Start from a
//! random complete assignment that keeps the givens; each iteration applies the
//! neighbourhood operator 𝒩 (one non-given cell's value moves by ±1, wrapping within 1…n)
//! and the β operator (every non-given cell is re-drawn at random with probability β), and
//! the new assignment replaces the current one when the objective does not get worse.
//!
//! Two objectives: the literature's [`HillObjective::Sum`] (over rows, columns and boxes,
//! Σ |sum − n(n+1)/2|) and [`HillObjective::Duplicates`] (over the same units, the number
//! of digits missing). A zero sum does not prove a permutation (1+1+…), so a grid is only
//! reported solved when no unit repeats a digit and [`check_solution`] passes; otherwise
//! the run ends at the iteration cap with [`SolveOutcome::Stopped`] and the best objective.
//! Random values are drawn from each cell's candidates with respect to the givens (a cheap
//! refinement of drawing from 1…n that never changes the answer). Local search cannot prove
//! that a puzzle has no solution; only givens that already clash, or leave a cell without a
//! candidate, are answered [`SolveOutcome::NoSolution`]. A time limit is checked every
//! [`Deadline::CHECK_PERIOD`] iterations and ends the climb with [`Error::TimedOut`].

use std::time::Duration;

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::grid::{check_grid, check_solution, Grid};
use crate::run::Counters;
use crate::Error;

use super::options::SolverOptions;
pub use super::options::{HillObjective, DEFAULT_BETA};
use super::{Deadline, SolveOutcome, SolveReport, Solver};

/// Iteration cap when [`SolverOptions::max_iterations`] is `None`.
pub const DEFAULT_ITERATIONS: u64 = 2_000_000;
/// The result of one climb.
#[derive(Clone, Debug, PartialEq)]
pub struct Climb {
    /// The outcome: solved (checked), no solution (clashing givens) or stopped at the cap.
    pub outcome: SolveOutcome,
    /// Iterations run.
    pub iterations: u64,
    /// Iterations whose candidate replaced the current assignment.
    pub accepted: u64,
    /// The lowest objective reached.
    pub best_objective: u64,
    /// `(iteration, objective)` at each new best, when tracing.
    pub trace: Vec<(u64, u64)>,
}

impl Climb {
    /// The counters as a solver reports them.
    pub fn counters(&self) -> Counters {
        Counters(vec![
            ("iterations", self.iterations),
            ("accepted", self.accepted),
            ("best_objective", self.best_objective),
        ])
    }
}

/// The incremental state: values plus per-unit sums and digit counts.
struct State {
    n: usize,
    values: Vec<u16>,
    units: Vec<[u32; 3]>,
    sums: Vec<i64>,
    counts: Vec<u32>,
    distinct: Vec<u32>,
    /// Σ |sum − target| over units.
    sum_objective: u64,
    /// Σ missing digits over units.
    missing: u64,
}

impl State {
    fn new(puzzle: &Grid, values: Vec<u16>) -> State {
        let geo = puzzle.geometry();
        let n = geo.side();
        let units: Vec<[u32; 3]> = geo.cells().map(|c| geo.units_of(c).map(|u| u.0)).collect();
        let mut s = State {
            n,
            values: vec![0; n * n],
            units,
            sums: vec![0; 3 * n],
            counts: vec![0; 3 * n * (n + 1)],
            distinct: vec![0; 3 * n],
            sum_objective: 0,
            missing: (3 * n * n) as u64,
        };
        let target = (n * (n + 1) / 2) as i64;
        s.sum_objective = 3 * n as u64 * target as u64;
        for (cell, v) in values.into_iter().enumerate() {
            s.set(cell, v);
        }
        s
    }

    fn target(&self) -> i64 {
        (self.n * (self.n + 1) / 2) as i64
    }

    fn set(&mut self, cell: usize, new: u16) {
        let old = self.values[cell];
        if old == new {
            return;
        }
        let target = self.target();
        let stride = self.n + 1;
        for u in self.units[cell] {
            let u = u as usize;
            self.sum_objective -= (self.sums[u] - target).unsigned_abs();
            self.sums[u] += new as i64 - old as i64;
            self.sum_objective += (self.sums[u] - target).unsigned_abs();
            if old != 0 {
                let k = &mut self.counts[u * stride + old as usize];
                *k -= 1;
                if *k == 0 {
                    self.distinct[u] -= 1;
                    self.missing += 1;
                }
            }
            let k = &mut self.counts[u * stride + new as usize];
            *k += 1;
            if *k == 1 {
                self.distinct[u] += 1;
                self.missing -= 1;
            }
        }
        self.values[cell] = new;
    }

    fn objective(&self, which: HillObjective) -> u64 {
        match which {
            HillObjective::Sum => self.sum_objective,
            HillObjective::Duplicates => self.missing,
        }
    }
}

/// β-hill climbing as a grid-level [`Solver`] (cannot count solutions).
#[derive(Clone, Debug)]
pub struct HillClimbSolver {
    objective: HillObjective,
    beta: f64,
    max_iterations: u64,
    seed: u64,
    trace: bool,
    time_limit: Option<Duration>,
    last_trace: Vec<(u64, u64)>,
}

impl HillClimbSolver {
    /// A solver configured by `options` (objective, β, iteration cap, seed, trace flag).
    pub fn new(options: &SolverOptions) -> HillClimbSolver {
        HillClimbSolver {
            objective: options.hill_objective,
            beta: options.beta,
            max_iterations: options.max_iterations.unwrap_or(DEFAULT_ITERATIONS),
            seed: options.seed,
            trace: options.trace,
            time_limit: None,
            last_trace: Vec::new(),
        }
    }

    /// Runs β-hill climbing on `puzzle` for at most the iteration cap.
    ///
    /// # Errors
    /// [`Error::TimedOut`] when the time limit passes first.
    pub fn climb(&self, puzzle: &Grid) -> Result<Climb, Error> {
        let HillClimbSolver {
            objective,
            beta,
            max_iterations,
            seed,
            trace,
            time_limit,
            ..
        } = *self;
        let deadline = Deadline::after(time_limit);
        let mut result = Climb {
            outcome: SolveOutcome::NoSolution,
            iterations: 0,
            accepted: 0,
            best_objective: u64::MAX,
            trace: Vec::new(),
        };
        if !check_grid(puzzle).is_valid() {
            return Ok(result);
        }
        let geo = puzzle.geometry();
        let free: Vec<usize> = geo
            .cells()
            .filter(|&c| puzzle.get(c).is_none())
            .map(|c| c.index())
            .collect();
        let choices: Vec<Vec<u16>> = free
            .iter()
            .map(|&c| {
                let cell = crate::grid::Cell(c as u32);
                puzzle.candidates(cell).iter().map(|d| d.0).collect()
            })
            .collect();
        if choices.iter().any(|c| c.is_empty()) {
            return Ok(result);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut values = puzzle.values().to_vec();
        for (k, &cell) in free.iter().enumerate() {
            values[cell] = choices[k][rng.gen_range(0..choices[k].len())];
        }
        let mut state = State::new(puzzle, values);
        let n = state.n as u16;
        let beta = beta.clamp(0.0, 1.0);
        let log_keep = (1.0 - beta).ln();
        let mut current = state.objective(objective);
        result.best_objective = current;
        if trace {
            result.trace.push((0, current));
        }
        let mut undo: Vec<(usize, u16)> = Vec::new();
        while state.missing != 0 && !free.is_empty() && result.iterations < max_iterations {
            result.iterations += 1;
            if deadline.expired_at(result.iterations) {
                return Err(deadline.timed_out("hill").into());
            }
            undo.clear();
            // 𝒩: one free cell moves by ±1, wrapping within 1…n.
            let k = rng.gen_range(0..free.len());
            let cell = free[k];
            let v = state.values[cell];
            let moved = if rng.gen_bool(0.5) {
                v % n + 1
            } else {
                (v + n - 2) % n + 1
            };
            undo.push((cell, v));
            state.set(cell, moved);
            // β: each free cell is re-drawn with probability β (geometric skips between hits).
            if beta > 0.0 {
                let mut pos = 0usize;
                loop {
                    let skip = if beta >= 1.0 {
                        0
                    } else {
                        let u: f64 = 1.0 - rng.gen::<f64>();
                        (u.ln() / log_keep).floor() as usize
                    };
                    pos = pos.saturating_add(skip);
                    if pos >= free.len() {
                        break;
                    }
                    let cell = free[pos];
                    undo.push((cell, state.values[cell]));
                    let pick = choices[pos][rng.gen_range(0..choices[pos].len())];
                    state.set(cell, pick);
                    pos += 1;
                }
            }
            let candidate = state.objective(objective);
            if candidate <= current {
                current = candidate;
                result.accepted += 1;
                if current < result.best_objective {
                    result.best_objective = current;
                    if trace {
                        result.trace.push((result.iterations, current));
                    }
                }
            } else {
                for &(cell, old) in undo.iter().rev() {
                    state.set(cell, old);
                }
            }
        }
        result.outcome = SolveOutcome::Stopped(format!(
            "iteration cap of {max_iterations} reached; best objective {}",
            result.best_objective
        ));
        if state.missing == 0 {
            if let Some(grid) = Grid::from_values(state.values) {
                if check_solution(puzzle, &grid).is_valid() {
                    result.outcome = SolveOutcome::Solved(grid);
                    result.best_objective = 0;
                }
            }
        }
        Ok(result)
    }

    /// The trace of the last solve: `(iteration, objective)` at each new best (empty unless
    /// tracing was asked for).
    pub fn trace(&self) -> &[(u64, u64)] {
        &self.last_trace
    }
}

impl Solver for HillClimbSolver {
    fn name(&self) -> String {
        "hill".to_string()
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        let result = self.climb(puzzle)?;
        let counters = result.counters();
        self.last_trace = result.trace;
        Ok(SolveReport {
            outcome: result.outcome,
            counters,
        })
    }

    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn honours_time_limit(&self) -> bool {
        true
    }

    fn trace_lines(&self) -> Vec<String> {
        self.last_trace
            .iter()
            .map(|(iteration, objective)| format!("iteration {iteration}: objective {objective}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::testing::inkala;

    // Thesis grid #2: 51 givens.
    const EASY: &str =
        "207009134040210067300764809082430706079821450403076210506347001790058040834100605";

    fn climber(objective: HillObjective, beta: f64, cap: u64, seed: u64) -> HillClimbSolver {
        HillClimbSolver::new(&SolverOptions {
            hill_objective: objective,
            beta,
            max_iterations: Some(cap),
            seed,
            trace: true,
            ..SolverOptions::default()
        })
    }

    #[test]
    fn solves_an_easy_puzzle_with_both_objectives() {
        let puzzle: Grid = EASY.parse().unwrap();
        for objective in HillObjective::ALL {
            let mut solver = climber(objective, DEFAULT_BETA, 200_000, 1);
            let run = solver.climb(&puzzle).unwrap();
            match &run.outcome {
                SolveOutcome::Solved(grid) => {
                    assert!(check_solution(&puzzle, grid).is_valid());
                    assert_eq!(run.best_objective, 0);
                }
                SolveOutcome::Stopped(_) => assert!(run.iterations == 200_000),
                SolveOutcome::NoSolution => panic!("{objective:?} claimed no solution"),
            }
            assert!(run.trace.windows(2).all(|w| w[1].1 < w[0].1));
            // The solver keeps the trace and prints it one line per new best.
            let report = solver.solve(&puzzle).unwrap();
            assert_eq!(report.outcome, run.outcome, "seeded, so repeatable");
            let lines = solver.trace_lines();
            assert_eq!(lines.len(), run.trace.len());
            let (i, o) = run.trace[0];
            assert_eq!(lines[0], format!("iteration {i}: objective {o}"));
        }
    }

    #[test]
    fn incremental_objectives_match_a_recount() {
        let puzzle: Grid = EASY.parse().unwrap();
        let mut state = State::new(&puzzle, puzzle.values().iter().map(|&v| v.max(1)).collect());
        state.set(1, 5);
        state.set(1, 9);
        let fresh = State::new(&puzzle, state.values.clone());
        assert_eq!(state.sum_objective, fresh.sum_objective);
        assert_eq!(state.missing, fresh.missing);
    }

    #[test]
    fn never_reports_a_wrong_grid_and_stops_at_the_cap() {
        let puzzle = inkala();
        let run = climber(HillObjective::Sum, 0.05, 2_000, 3)
            .climb(&puzzle)
            .unwrap();
        match run.outcome {
            SolveOutcome::Solved(grid) => assert!(check_solution(&puzzle, &grid).is_valid()),
            SolveOutcome::Stopped(msg) => assert!(msg.contains("best objective")),
            SolveOutcome::NoSolution => panic!("no solution claimed"),
        }
        let bad: Grid = "11..............".parse().unwrap();
        let run = climber(HillObjective::Sum, 0.05, 100, 3)
            .climb(&bad)
            .unwrap();
        assert_eq!(run.outcome, SolveOutcome::NoSolution);
    }

    #[test]
    fn a_time_limit_stops_an_uncapped_climb() {
        // Local search does not solve this 25×25 puzzle in 2⁶⁴ iterations.
        let puzzle = crate::solve::testing::hard_25x25();
        let mut solver = climber(HillObjective::Duplicates, DEFAULT_BETA, u64::MAX, 0);
        crate::solve::testing::assert_times_out(&mut solver, &puzzle);
    }
}
