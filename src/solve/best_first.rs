//! Best-first state-space search with constraint simplification, and its FIFO variant.
//!
//! Sudoku as a search problem over partial grids (Russell, S. & Norvig, P., *Artificial
//! Intelligence: A Modern Approach*, ch. 3 and 6; the best-first Sudoku formulation of
//! the state-space literature comparing it with breadth-first expansion). Every state is
//! first **simplified** to a fixpoint with three elimination rules: a placed digit removes
//! its candidates from its units (and a cell with one candidate takes it); a digit with one
//! place in a unit is placed there; a digit whose places in a box lie on one row or column
//! is removed from the rest of that row or column. A dead state (a cell without candidates,
//! a digit without a place) is dropped. The search then **expands** the most constrained
//! cell into one child per candidate. [`Frontier::BestFirst`] keeps the open states in a
//! priority queue ordered by the evaluation function *open candidates* (the sum of the
//! candidate counts of blank cells; fewer is closer to a solution), ties in generation
//! order; [`Frontier::Fifo`] expands in generation order (breadth first). States whose
//! evaluation exceeds the threshold are pruned; when pruning emptied the frontier the run
//! ends [`SolveOutcome::Stopped`], not "no solution". A time limit ends it with
//! [`Error::TimedOut`]; every child is simplified (microseconds or more), so the clock is
//! read once per generated child.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Duration;

use crate::grid::{check_solution, Grid};
use crate::run::Counters;
use crate::Error;

use super::human::{Board, Strategy};
use super::{Deadline, SolveOutcome, SolveReport, Solver, SolverOptions};

/// How open states are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Frontier {
    /// Lowest evaluation first (priority queue).
    BestFirst,
    /// Generation order (queue).
    Fifo,
}

/// The elimination rules of [`simplify`], as human strategies.
const RULES: [Strategy; 3] = [
    Strategy::NakedSingle,
    Strategy::HiddenSingle,
    Strategy::PointingPair,
];

/// Applies the elimination rules until none applies; returns `false` for a dead state.
pub fn simplify(board: &mut Board) -> bool {
    loop {
        if board.is_contradictory() {
            return false;
        }
        match RULES.iter().find_map(|r| r.find(board)) {
            Some(step) => board.apply(&step),
            None => return true,
        }
    }
}

/// The evaluation function: open candidates (sum of the blank cells' candidate counts).
pub fn evaluate(board: &Board) -> u64 {
    board
        .geometry()
        .cells()
        .map(|c| board.candidates(c).len() as u64)
        .sum()
}

struct Open {
    eval: u64,
    seq: u64,
    board: Board,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        (self.eval, self.seq) == (other.eval, other.seq)
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Reversed, so the max-heap pops the lowest evaluation, then the oldest state.
impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.eval, other.seq).cmp(&(self.eval, self.seq))
    }
}

enum Queue {
    Heap(BinaryHeap<Open>),
    Fifo(VecDeque<Open>),
}

impl Queue {
    fn push(&mut self, open: Open) {
        match self {
            Queue::Heap(h) => h.push(open),
            Queue::Fifo(q) => q.push_back(open),
        }
    }
    fn pop(&mut self) -> Option<Open> {
        match self {
            Queue::Heap(h) => h.pop(),
            Queue::Fifo(q) => q.pop_front(),
        }
    }
    fn len(&self) -> usize {
        match self {
            Queue::Heap(h) => h.len(),
            Queue::Fifo(q) => q.len(),
        }
    }
}

/// Best-first (or FIFO) search as a grid-level [`Solver`].
#[derive(Clone, Debug)]
pub struct BestFirstSolver {
    frontier: Frontier,
    max_expansions: Option<u64>,
    threshold: Option<u64>,
    time_limit: Option<Duration>,
}

impl BestFirstSolver {
    /// A solver with the given frontier, reading the expansion cap
    /// ([`SolverOptions::max_iterations`]) and the pruning threshold from `options`.
    pub fn new(frontier: Frontier, options: &SolverOptions) -> BestFirstSolver {
        BestFirstSolver {
            frontier,
            max_expansions: options.max_iterations,
            threshold: options.threshold,
            time_limit: None,
        }
    }
}

impl Solver for BestFirstSolver {
    fn name(&self) -> String {
        match self.frontier {
            Frontier::BestFirst => "best-first".to_string(),
            Frontier::Fifo => "fifo".to_string(),
        }
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        let deadline = Deadline::after(self.time_limit);
        let (mut expansions, mut generated, mut pruned, mut max_open) = (0u64, 0u64, 0u64, 0u64);
        let report = |outcome, expansions, generated, pruned, max_open| SolveReport {
            outcome,
            counters: Counters(vec![
                ("expansions", expansions),
                ("generated", generated),
                ("pruned", pruned),
                ("max_open", max_open),
            ]),
        };
        let solved = |board: &Board| {
            board
                .to_grid()
                .filter(|g| check_solution(puzzle, g).is_valid())
        };
        let Some(mut root) = Board::new(puzzle) else {
            return Ok(report(SolveOutcome::NoSolution, 0, 0, 0, 0));
        };
        if !simplify(&mut root) {
            return Ok(report(SolveOutcome::NoSolution, 0, 0, 0, 0));
        }
        if root.is_solved() {
            let outcome = solved(&root).map_or(SolveOutcome::NoSolution, SolveOutcome::Solved);
            return Ok(report(outcome, 0, 0, 0, 0));
        }
        let mut queue = match self.frontier {
            Frontier::BestFirst => Queue::Heap(BinaryHeap::new()),
            Frontier::Fifo => Queue::Fifo(VecDeque::new()),
        };
        queue.push(Open {
            eval: evaluate(&root),
            seq: 0,
            board: root,
        });
        while let Some(open) = queue.pop() {
            if self.max_expansions.is_some_and(|cap| expansions >= cap) {
                let outcome =
                    SolveOutcome::Stopped(format!("expansion cap of {expansions} reached"));
                return Ok(report(outcome, expansions, generated, pruned, max_open));
            }
            expansions += 1;
            let board = open.board;
            let geo = board.geometry();
            let Some(cell) = geo
                .cells()
                .filter(|&c| board.value(c).is_none())
                .min_by_key(|&c| board.candidates(c).len())
            else {
                continue;
            };
            for d in board.candidates(cell).iter() {
                if deadline.expired() {
                    return Err(deadline.timed_out(&self.name()).into());
                }
                let mut child = board.clone();
                child.place(cell, d);
                generated += 1;
                if !simplify(&mut child) {
                    continue;
                }
                if child.is_solved() {
                    if let Some(grid) = solved(&child) {
                        let outcome = SolveOutcome::Solved(grid);
                        return Ok(report(outcome, expansions, generated, pruned, max_open));
                    }
                    continue;
                }
                let eval = evaluate(&child);
                if self.threshold.is_some_and(|t| eval > t) {
                    pruned += 1;
                    continue;
                }
                queue.push(Open {
                    eval,
                    seq: generated,
                    board: child,
                });
            }
            max_open = max_open.max(queue.len() as u64);
        }
        let outcome = if pruned > 0 {
            SolveOutcome::Stopped(format!(
                "threshold pruned {pruned} states and no solution remained"
            ))
        } else {
            SolveOutcome::NoSolution
        };
        Ok(report(outcome, expansions, generated, pruned, max_open))
    }

    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn honours_time_limit(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::testing::inkala;

    #[test]
    fn both_frontiers_solve_a_hard_puzzle() {
        let puzzle = inkala();
        for frontier in [Frontier::BestFirst, Frontier::Fifo] {
            let mut solver = BestFirstSolver::new(frontier, &SolverOptions::default());
            let report = solver.solve(&puzzle).unwrap();
            let SolveOutcome::Solved(grid) = report.outcome else {
                panic!("{frontier:?} did not solve");
            };
            assert!(check_solution(&puzzle, &grid).is_valid());
            assert!(report.counters.get("expansions").unwrap() > 0);
        }
    }

    #[test]
    fn caps_thresholds_and_dead_puzzles() {
        let puzzle = inkala();
        let options = SolverOptions {
            max_iterations: Some(1),
            ..SolverOptions::default()
        };
        let mut capped = BestFirstSolver::new(Frontier::BestFirst, &options);
        assert!(matches!(
            capped.solve(&puzzle).unwrap().outcome,
            SolveOutcome::Stopped(_)
        ));
        let options = SolverOptions {
            threshold: Some(0),
            ..SolverOptions::default()
        };
        let mut strict = BestFirstSolver::new(Frontier::Fifo, &options);
        assert!(matches!(
            strict.solve(&puzzle).unwrap().outcome,
            SolveOutcome::Stopped(_)
        ));
        let dead: Grid = "123....4........".parse().unwrap();
        let mut solver = BestFirstSolver::new(Frontier::BestFirst, &SolverOptions::default());
        assert_eq!(
            solver.solve(&dead).unwrap().outcome,
            SolveOutcome::NoSolution
        );
    }

    #[test]
    fn simplification_alone_solves_an_easy_puzzle() {
        let puzzle: Grid =
            "207009134040210067300764809082430706079821450403076210506347001790058040834100605"
                .parse()
                .unwrap();
        let mut board = Board::new(&puzzle).unwrap();
        assert!(simplify(&mut board));
        assert!(board.is_solved());
        assert_eq!(evaluate(&board), 0);
    }

    #[test]
    fn a_time_limit_stops_both_frontiers() {
        let puzzle = crate::solve::testing::slow_49x49();
        for frontier in [Frontier::BestFirst, Frontier::Fifo] {
            let mut solver = BestFirstSolver::new(frontier, &SolverOptions::default());
            crate::solve::testing::assert_times_out(&mut solver, &puzzle);
        }
    }
}
