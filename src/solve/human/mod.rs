//! Human-style solving: logical strategies, easiest first, with every step recorded.
//!
//! The strategies and their difficulty order follow the players' literature (Andrew
//! Stuart's SudokuWiki strategy families; Crook, J. F. (2009), *A pencil-and-paper
//! algorithm for solving Sudoku puzzles*, Notices of the AMS 56(4), for preemptive sets;
//! the `sudoku` crate's strategy-per-file design). After each successful step the search
//! restarts from the easiest strategy. When no strategy applies it guesses on a cell with
//! fewest candidates and backtracks on contradiction ("logic plus brute force"), so every
//! puzzle gets an answer. Each step is a [`Deduction`] in a [`HumanLog`], which also
//! grades a puzzle: hardest strategy used, per-strategy counts, guesses. Guessing can
//! explode on large grids, so a time limit is honoured; a step rescans the whole board
//! (microseconds at 9×9, far more beyond), so the clock is read on every step.

mod hidden_single;
mod hidden_subset;
mod locked_candidates;
mod naked_single;
mod naked_subset;
pub mod prelude;
mod strategy;
mod unique_rectangle;
mod x_wing;

use std::time::Duration;

use crate::grid::{check_solution, Cell, Digit, DigitSet, Geometry, Grid, Highlight};
use crate::names::plural;
use crate::run::Counters;
use crate::Error;

pub use prelude::{Board, Deduction};
pub use strategy::Strategy;

use super::{Deadline, SolveOutcome, SolveReport, Solver};

impl Strategy {
    /// The first step of this strategy on `board`, if any makes progress.
    pub fn find(self, board: &Board) -> Option<Deduction> {
        match self {
            Strategy::NakedSingle => naked_single::find(board),
            Strategy::HiddenSingle => hidden_single::find(board),
            Strategy::NakedPair => naked_subset::find(board, 2, self),
            Strategy::NakedTriple => naked_subset::find(board, 3, self),
            Strategy::NakedQuad => naked_subset::find(board, 4, self),
            Strategy::HiddenPair => hidden_subset::find(board, 2, self),
            Strategy::HiddenTriple => hidden_subset::find(board, 3, self),
            Strategy::HiddenQuad => hidden_subset::find(board, 4, self),
            Strategy::PointingPair | Strategy::BoxLineReduction => {
                locked_candidates::find(board, self)
            }
            Strategy::XWing => x_wing::find(board),
            Strategy::UniqueRectangle => unique_rectangle::find(board),
        }
    }
}

impl Board {
    /// The first strategy of [`Strategy::ALL`] that applies here, with its deduction.
    pub fn easiest(&self) -> Option<Deduction> {
        Strategy::ALL.iter().find_map(|s| s.find(self))
    }
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A logical deduction.
    Deduction(Deduction),
    /// No strategy applied: `digit` is tried in `cell`, a cell with fewest candidates.
    Guess {
        /// The cell.
        cell: Cell,
        /// The digit tried.
        digit: Digit,
        /// The cell's candidates when the guessing started there.
        candidates: DigitSet,
    },
    /// The latest open guess led to a contradiction and is taken back.
    Backtrack {
        /// The guessed cell.
        cell: Cell,
        /// The digit that failed.
        digit: Digit,
    },
}

impl Step {
    /// What a drawing of this step shows at hint `level` ([`Deduction::highlight`]): as
    /// [`Step::hint`] tells, a guess or backtrack shows nothing at level 1, its cell from
    /// level 2 on, and a guess its digit from level 3.
    pub fn highlight(&self, geo: &Geometry, level: u8) -> Highlight {
        let cell = match self {
            Step::Deduction(d) => return d.highlight(geo, level),
            Step::Guess { cell, .. } | Step::Backtrack { cell, .. } => *cell,
        };
        let placed = match self {
            Step::Guess { digit, .. } if level >= 3 => Some((cell, *digit)),
            _ => None,
        };
        Highlight {
            cells: if level >= 2 { vec![cell] } else { Vec::new() },
            placed,
            ..Highlight::default()
        }
    }

    /// A hint towards this step at `level` 1–3 ([`Deduction::hint`]); a guess is named
    /// as one at every level, its cell from level 2 on.
    pub fn hint(&self, geo: &Geometry, level: u8) -> String {
        match self {
            Step::Deduction(d) => d.hint(geo, level),
            Step::Guess { .. } | Step::Backtrack { .. } if level <= 1 => {
                "no strategy of this solver applies here: a guess is needed".to_string()
            }
            Step::Guess { .. } | Step::Backtrack { .. } => self.describe(geo),
        }
    }

    /// The step in words, one line.
    pub fn describe(&self, geo: &Geometry) -> String {
        match self {
            Step::Deduction(d) => d.describe(geo),
            Step::Guess {
                cell,
                digit,
                candidates,
            } => {
                // Guessing tries a cell's candidates lowest first.
                let why = if candidates.iter().next() == Some(*digit) {
                    "no strategy applies, so try"
                } else {
                    "try the next candidate,"
                };
                format!(
                    "guess: {why} {digit} in {} (candidates {}) → {} = {digit}",
                    geo.cell_label(*cell),
                    prelude::and_list(candidates.iter().map(|d| d.to_string())),
                    geo.cell_label(*cell),
                )
            }
            Step::Backtrack { cell, digit } => format!(
                "backtrack: {digit} in {} led to a contradiction → undo the steps since that guess",
                geo.cell_label(*cell)
            ),
        }
    }
}

impl Step {
    /// The step as JSON for programs (a puzzle app's hint button, a tutor), showing as
    /// much as hint `level` tells ([`Step::hint`], [`Step::highlight`]; 3 and above is the
    /// whole step): `kind` (`deduction`, `guess`, `backtrack`), `text` (the hint, or the
    /// step in words), and as the level allows `strategy`, `units` (labels such as
    /// `box 2`), `cells`, `digits`, `placed`, `removed`, `candidates`. Cells are
    /// `{"row", "column"}` objects, 1-based; a placement or removal adds `digit`.
    pub fn to_json(&self, geo: &Geometry, level: u8) -> serde_json::Value {
        use serde_json::{json, Map, Value};
        let mut fields = Map::new();
        let highlight = self.highlight(geo, level);
        let cells = |list: &[Cell]| Value::from_iter(list.iter().map(|&c| geo.cell_json(c)));
        let digits = |list: &mut dyn Iterator<Item = Digit>| Value::from_iter(list.map(Digit::get));
        match self {
            Step::Deduction(d) => {
                fields.insert("kind".into(), json!("deduction"));
                fields.insert("strategy".into(), json!(d.strategy.name()));
                let units: Vec<String> = d.units.iter().map(|&u| geo.unit_label(u)).collect();
                fields.insert("units".into(), json!(units));
                if level <= 1 && d.units.is_empty() {
                    fields.insert("cells".into(), cells(&d.cells));
                }
                if level >= 2 {
                    fields.insert("cells".into(), cells(&highlight.cells));
                    fields.insert(
                        "digits".into(),
                        digits(&mut highlight.digits.iter().copied()),
                    );
                }
            }
            Step::Guess {
                cell, candidates, ..
            } => {
                fields.insert("kind".into(), json!("guess"));
                if level >= 2 {
                    fields.insert("cells".into(), cells(&[*cell]));
                    fields.insert("candidates".into(), digits(&mut candidates.iter()));
                }
            }
            Step::Backtrack { cell, digit } => {
                fields.insert("kind".into(), json!("backtrack"));
                if level >= 2 {
                    fields.insert("cells".into(), cells(&[*cell]));
                }
                if level >= 3 {
                    fields.insert("digits".into(), json!([digit.get()]));
                }
            }
        }
        if level >= 3 {
            if let Some(placed) = highlight.placed {
                fields.insert("placed".into(), geo.candidate_json(placed));
            }
            let removed: Vec<Value> = highlight
                .removed
                .iter()
                .map(|&r| geo.candidate_json(r))
                .collect();
            if !removed.is_empty() || matches!(self, Step::Deduction(_)) {
                fields.insert("removed".into(), Value::Array(removed));
            }
        }
        fields.insert("text".into(), json!(self.hint(geo, level)));
        Value::Object(fields)
    }
}

/// Every step of a human-style solve, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HumanLog {
    /// The steps.
    pub steps: Vec<Step>,
}

impl HumanLog {
    /// The logical deductions, in order.
    pub fn deductions(&self) -> impl Iterator<Item = &Deduction> {
        self.steps.iter().filter_map(|s| match s {
            Step::Deduction(d) => Some(d),
            _ => None,
        })
    }

    /// The pencil-marked board before each step of this log of `puzzle`'s solve, and the
    /// board after the last one: `steps.len() + 1` boards, for drawing the solve step by
    /// step. A guess places its digit; a backtrack restores the board from before the
    /// guess it takes back, as the solve did. Empty when the puzzle's givens clash (the
    /// solve took no step then).
    pub fn replay(&self, puzzle: &Grid) -> Vec<Board> {
        let Some(mut board) = Board::new(puzzle) else {
            return Vec::new();
        };
        let mut boards = Vec::with_capacity(self.steps.len() + 1);
        let mut before_guesses: Vec<Board> = Vec::new();
        for step in &self.steps {
            boards.push(board.clone());
            match step {
                Step::Deduction(deduction) => board.apply(deduction),
                Step::Guess { cell, digit, .. } => {
                    before_guesses.push(board.clone());
                    board.place(*cell, *digit);
                }
                Step::Backtrack { .. } => {
                    if let Some(saved) = before_guesses.pop() {
                        board = saved;
                    }
                }
            }
        }
        boards.push(board);
        boards
    }

    /// How many times each strategy was used, in [`Strategy::ALL`] order (zeros left out).
    pub fn counts(&self) -> Vec<(Strategy, u64)> {
        Strategy::ALL
            .iter()
            .map(|&s| {
                (
                    s,
                    self.deductions().filter(|d| d.strategy == s).count() as u64,
                )
            })
            .filter(|&(_, k)| k > 0)
            .collect()
    }

    /// The hardest strategy used.
    pub fn hardest(&self) -> Option<Strategy> {
        self.deductions()
            .map(|d| d.strategy)
            .max_by_key(|s| s.rank())
    }

    /// Number of guesses.
    pub fn guesses(&self) -> u64 {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Guess { .. }))
            .count() as u64
    }

    /// Number of guesses taken back.
    pub fn backtracks(&self) -> u64 {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Backtrack { .. }))
            .count() as u64
    }

    /// A summary in words: steps, strategies with counts, the hardest, guesses, e.g.
    /// "summary: 3 steps: naked single ×2, hidden single ×1; hardest: hidden single;
    /// 0 guesses, 0 backtracks".
    pub fn summary(&self) -> String {
        let used: Vec<String> = self
            .counts()
            .iter()
            .map(|(s, k)| format!("{} ×{k}", s.name()))
            .collect();
        format!(
            "summary: {}: {}; hardest: {}; {}, {}",
            plural(self.steps.len(), "step"),
            if used.is_empty() {
                "no strategy used".to_string()
            } else {
                used.join(", ")
            },
            self.hardest().map_or("none", |s| s.name()),
            plural(self.guesses(), "guess"),
            plural(self.backtracks(), "backtrack")
        )
    }
}

/// The answer of a human-style solve and its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HumanRun {
    /// Solved (checked) or no solution.
    pub outcome: SolveOutcome,
    /// Every step.
    pub log: HumanLog,
}

/// Solves `puzzle` with the strategies of [`Strategy::ALL`] plus guessing, recording each
/// step. A run that uses the unique-rectangle rule and ends without a solution (the puzzle
/// had several) is redone without that rule, so the answer is always right.
pub fn solve_logged(puzzle: &Grid) -> HumanRun {
    match solve_logged_until(puzzle, Deadline::NONE) {
        Ok(run) => run,
        Err(_) => unreachable!("a run without a deadline cannot time out"),
    }
}

/// [`solve_logged`] that gives up when `deadline` passes.
///
/// # Errors
/// [`Error::TimedOut`] once the deadline has passed.
pub fn solve_logged_until(puzzle: &Grid, deadline: Deadline) -> Result<HumanRun, Error> {
    let run = run_with(puzzle, &Strategy::ALL, deadline)?;
    let used_ur = run
        .log
        .deductions()
        .any(|d| d.strategy == Strategy::UniqueRectangle);
    if used_ur && run.outcome == SolveOutcome::NoSolution {
        let safe: Vec<Strategy> = Strategy::ALL
            .into_iter()
            .filter(|&s| s != Strategy::UniqueRectangle)
            .collect();
        return run_with(puzzle, &safe, deadline);
    }
    Ok(run)
}

/// The step [`solve_logged`] takes first on `puzzle`, found without solving on: the
/// easiest deduction of [`Strategy::ALL`], else a guess on an open cell with fewest
/// candidates. `None` for a full grid or one whose givens already clash. Whether the grid
/// can be completed at all is not checked here (a hint from a wrong grid leads nowhere).
pub fn next_step(puzzle: &Grid) -> Option<Step> {
    let board = Board::new(puzzle)?;
    if board.is_solved() || board.is_contradictory() {
        return None;
    }
    if let Some(deduction) = board.easiest() {
        return Some(Step::Deduction(deduction));
    }
    let cell = board
        .geometry()
        .cells()
        .filter(|&c| board.value(c).is_none())
        .min_by_key(|&c| board.candidates(c).len())?;
    let candidates = board.candidates(cell);
    let digit = candidates.iter().next()?;
    Some(Step::Guess {
        cell,
        digit,
        candidates,
    })
}

fn run_with(puzzle: &Grid, strategies: &[Strategy], deadline: Deadline) -> Result<HumanRun, Error> {
    let mut log = HumanLog::default();
    let Some(mut board) = Board::new(puzzle) else {
        return Ok(HumanRun {
            outcome: SolveOutcome::NoSolution,
            log,
        });
    };
    // Open guesses: the board before the guess, the cell, the digit tried, digits left.
    let mut guesses: Vec<(Board, Cell, Digit, Vec<Digit>)> = Vec::new();
    loop {
        if deadline.expired() {
            return Err(deadline.timed_out("human").into());
        }
        if !board.is_contradictory() {
            if board.is_solved() {
                let outcome = match board.to_grid() {
                    Some(grid) if check_solution(puzzle, &grid).is_valid() => {
                        SolveOutcome::Solved(grid)
                    }
                    _ => SolveOutcome::NoSolution,
                };
                return Ok(HumanRun { outcome, log });
            }
            if let Some(step) = strategies.iter().find_map(|s| s.find(&board)) {
                board.apply(&step);
                log.steps.push(Step::Deduction(step));
                continue;
            }
            let geo = board.geometry();
            let cell = geo
                .cells()
                .filter(|&c| board.value(c).is_none())
                .min_by_key(|&c| board.candidates(c).len());
            if let Some(cell) = cell {
                let candidates = board.candidates(cell);
                let mut digits: Vec<Digit> = candidates.iter().collect();
                if !digits.is_empty() {
                    let digit = digits.remove(0);
                    guesses.push((board.clone(), cell, digit, digits));
                    log.steps.push(Step::Guess {
                        cell,
                        digit,
                        candidates,
                    });
                    board.place(cell, digit);
                    continue;
                }
            }
        }
        // Contradiction: take back guesses until one has a digit left to try.
        loop {
            let Some((saved, cell, failed, mut rest)) = guesses.pop() else {
                return Ok(HumanRun {
                    outcome: SolveOutcome::NoSolution,
                    log,
                });
            };
            log.steps.push(Step::Backtrack {
                cell,
                digit: failed,
            });
            if !rest.is_empty() {
                let digit = rest.remove(0);
                board = saved.clone();
                let candidates = board.candidates(cell);
                guesses.push((saved, cell, digit, rest));
                log.steps.push(Step::Guess {
                    cell,
                    digit,
                    candidates,
                });
                board.place(cell, digit);
                break;
            }
        }
    }
}

/// The human-style solver as a grid-level [`Solver`].
#[derive(Clone, Debug, Default)]
pub struct HumanSolver {
    time_limit: Option<Duration>,
    last_log: HumanLog,
}

impl HumanSolver {
    /// A new solver without a time limit.
    pub fn new() -> HumanSolver {
        HumanSolver::default()
    }

    /// The log of the last solve.
    pub fn log(&self) -> &HumanLog {
        &self.last_log
    }
}

impl Solver for HumanSolver {
    fn name(&self) -> String {
        "human".to_string()
    }

    fn solve(&mut self, puzzle: &Grid) -> Result<SolveReport, Error> {
        let run = solve_logged_until(puzzle, Deadline::after(self.time_limit))?;
        let mut counters = vec![
            ("steps", run.log.steps.len() as u64),
            ("deductions", run.log.deductions().count() as u64),
            ("guesses", run.log.guesses()),
            ("backtracks", run.log.backtracks()),
        ];
        counters.push((
            "hardest_rank",
            run.log.hardest().map_or(0, |s| s.rank() as u64),
        ));
        self.last_log = run.log;
        Ok(SolveReport {
            outcome: run.outcome,
            counters: Counters(counters),
        })
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

    #[test]
    fn steps_as_json_tell_as_much_as_their_level() {
        let puzzle: Grid =
            "...8.1..........435............7.8........1...2..3....6......75..34........2..6.."
                .parse()
                .unwrap();
        let step = next_step(&puzzle).unwrap();
        let Step::Deduction(d) = &step else {
            panic!("a deduction first")
        };
        let geo = puzzle.geometry();
        let one = step.to_json(geo, 1);
        assert_eq!(one["kind"], "deduction");
        assert_eq!(one["strategy"], d.strategy.name());
        assert!(one.get("digits").is_none() && one.get("placed").is_none());
        let two = step.to_json(geo, 2);
        assert_eq!(two["digits"].as_array().unwrap().len(), d.digits.len());
        assert!(two.get("placed").is_none() && two.get("removed").is_none());
        let three = step.to_json(geo, 3);
        assert_eq!(three["text"], step.describe(geo));
        if let Some((cell, digit)) = d.placed {
            assert_eq!(three["placed"]["row"], geo.row_of(cell) + 1);
            assert_eq!(three["placed"]["column"], geo.col_of(cell) + 1);
            assert_eq!(three["placed"]["digit"], digit.get());
        }
        assert_eq!(three["removed"].as_array().unwrap().len(), d.removed.len());
    }

    #[test]
    fn replay_ends_on_the_solution_and_follows_every_step() {
        // Inkala's puzzle, and a hardest-set puzzle with 356 guesses and 349 backtracks
        for line in [
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ] {
            let puzzle = Grid::from_values(
                line.chars()
                    .map(|c| c.to_digit(10).unwrap_or(0) as u16)
                    .collect(),
            )
            .unwrap();
            let run = solve_logged(&puzzle);
            let boards = run.log.replay(&puzzle);
            assert_eq!(boards.len(), run.log.steps.len() + 1);
            let SolveOutcome::Solved(solution) = &run.outcome else {
                panic!("solved")
            };
            assert_eq!(boards.last().unwrap().to_grid().as_ref(), Some(solution));
            for (board, step) in boards.iter().zip(&run.log.steps) {
                if let Step::Deduction(d) = step {
                    // each removal takes a candidate the board still had
                    for &(cell, digit) in &d.removed {
                        assert!(board.candidates(cell).contains(digit));
                    }
                    if let Some((cell, digit)) = d.placed {
                        assert!(board.candidates(cell).contains(digit));
                    }
                }
            }
        }
        let clash =
            Grid::from_values(vec![1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        assert!(solve_logged(&clash).log.replay(&clash).is_empty());
    }
    use super::*;
    use crate::solve::testing::inkala;

    /// Asserts that `strategy` applies on `board` and no easier strategy does (each one of
    /// [`Strategy::ALL`] before it finds nothing), and that the solver would take this step;
    /// returns the step.
    pub(crate) fn first_applicable(board: &Board, strategy: Strategy) -> Deduction {
        for easier in &Strategy::ALL[..strategy.rank()] {
            let found = easier.find(board);
            assert!(found.is_none(), "{easier:?} applies first: {found:?}");
        }
        let step = strategy.find(board).expect("the strategy applies");
        assert_eq!(step.strategy, strategy);
        assert_eq!(board.easiest().as_ref(), Some(&step));
        step
    }

    #[test]
    fn all_is_in_difficulty_order_and_names_are_distinct() {
        for (i, s) in Strategy::ALL.iter().enumerate() {
            assert_eq!(s.rank(), i);
        }
        let mut names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
        names.dedup();
        assert_eq!(names.len(), Strategy::ALL.len());
    }

    #[test]
    fn the_next_step_is_the_first_step_of_the_whole_run() {
        let puzzles: Vec<Grid> = [
            "..9.81.....23..4.....2...59..84..7.6.4.....3.3.5..28..76...5.....3..41.....93.2..",
            ".2.1........4.2.",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ]
        .iter()
        .map(|p| p.parse().unwrap())
        .chain([inkala()])
        .collect();
        for puzzle in &puzzles {
            let run = solve_logged(puzzle);
            assert_eq!(
                next_step(puzzle).as_ref(),
                run.log.steps.first(),
                "{puzzle:?}"
            );
        }
        // Inkala's first step is a guess; a full grid has none.
        assert!(matches!(next_step(&inkala()), Some(Step::Guess { .. })));
        let SolveOutcome::Solved(full) = solve_logged(&inkala()).outcome else {
            panic!("inkala is solved");
        };
        assert_eq!(next_step(&full), None);
    }

    #[test]
    fn guesses_backtracks_and_the_summary_read_as_sentences() {
        let geo = Geometry::of(2).unwrap();
        let (cell, candidates) = (geo.cell(0, 1), [Digit(2), Digit(4)].into_iter().collect());
        let guess = |digit| Step::Guess {
            cell,
            digit,
            candidates,
        };
        let single = Deduction {
            strategy: Strategy::NakedSingle,
            units: Vec::new(),
            cells: vec![geo.cell(3, 3)],
            digits: vec![Digit(1)],
            placed: Some((geo.cell(3, 3), Digit(1))),
            removed: Vec::new(),
        };
        let log = HumanLog {
            steps: vec![
                guess(Digit(2)),
                Step::Deduction(single),
                Step::Backtrack {
                    cell,
                    digit: Digit(2),
                },
                guess(Digit(4)),
            ],
        };
        let lines: Vec<String> = log.steps.iter().map(|s| s.describe(geo)).collect();
        assert_eq!(
            lines,
            [
                "guess: no strategy applies, so try 2 in r1c2 (candidates 2 and 4) → r1c2 = 2",
                "naked single: 1 is the only candidate left in r4c4 → r4c4 = 1",
                "backtrack: 2 in r1c2 led to a contradiction → undo the steps since that guess",
                "guess: try the next candidate, 4 in r1c2 (candidates 2 and 4) → r1c2 = 4",
            ]
        );
        assert_eq!(
            log.summary(),
            "summary: 4 steps: naked single ×1; hardest: naked single; 2 guesses, 1 backtrack"
        );
        assert_eq!(
            HumanLog::default().summary(),
            "summary: 0 steps: no strategy used; hardest: none; 0 guesses, 0 backtracks"
        );
    }

    #[test]
    fn solves_with_logic_and_guesses() {
        // Inkala's "hardest": needs guesses.
        let puzzle = inkala();
        let run = solve_logged(&puzzle);
        let SolveOutcome::Solved(grid) = &run.outcome else {
            panic!("not solved: {:?}", run.outcome);
        };
        assert!(check_solution(&puzzle, grid).is_valid());
        assert!(run.log.guesses() > 0);
        assert!(run.log.summary().contains("hidden single"));
    }

    #[test]
    fn no_solution_is_an_answer() {
        let puzzle: Grid = "123....4........".parse().unwrap();
        assert_eq!(solve_logged(&puzzle).outcome, SolveOutcome::NoSolution);
        let clash: Grid = "11..............".parse().unwrap();
        assert_eq!(solve_logged(&clash).outcome, SolveOutcome::NoSolution);
    }

    #[test]
    fn a_time_limit_stops_a_guessing_run() {
        let puzzle = crate::solve::testing::slow_49x49();
        crate::solve::testing::assert_times_out(&mut HumanSolver::new(), &puzzle);
        let deadline = Deadline::after(Some(Duration::ZERO));
        assert!(solve_logged_until(&puzzle, deadline)
            .unwrap_err()
            .is_timeout());
    }

    #[test]
    fn puzzles_with_several_solutions_still_get_a_valid_one() {
        let empty = Grid::empty(2).unwrap();
        let run = solve_logged(&empty);
        let SolveOutcome::Solved(grid) = &run.outcome else {
            panic!("not solved");
        };
        assert!(check_solution(&empty, grid).is_valid());
    }
}
