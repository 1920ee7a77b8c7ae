//! Difficulty grading from the human-strategy solver's deduction log.
//!
//! A puzzle is solved by the human-style solver ([`crate::solve::human`]: strategies
//! easiest first, guessing only when none applies), and graded by the hardest kind of step
//! its log needs, the way players' graders do (Andrew Stuart's SudokuWiki grader), in
//! five tiers: naked singles only = simple; hidden singles = easy; subsets,
//! pointing, box-line = intermediate; X-Wing, unique rectangle = hard; any guess = expert.
//! The score is the sum of step weights ([`strategy_weight`], [`GUESS_WEIGHT`]), so puzzles
//! of one grade can still be ordered.

use crate::grid::Grid;
use crate::solve::human::{solve_logged, solve_logged_until, HumanLog, Strategy};
use crate::solve::{Deadline, SolveOutcome};
use crate::Error;

crate::names::named_enum! {
    /// A difficulty grade: the hardest kind of step a human solver needs (`--grade`).
    #[derive(PartialOrd, Ord, serde::Serialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Grade ("grade") {
        /// Naked singles only.
        Simple = "simple",
        /// Hidden singles needed.
        Easy = "easy",
        /// Pairs, pointing or box-line reduction needed.
        Intermediate = "intermediate",
        /// X-Wing or unique rectangles needed.
        Hard = "hard",
        /// Guesses needed.
        Expert = "expert",
    }
}

/// The grade a strategy alone calls for. Exhaustive on purpose: a new strategy must be
/// placed here.
pub fn strategy_grade(strategy: Strategy) -> Grade {
    match strategy {
        Strategy::NakedSingle => Grade::Simple,
        Strategy::HiddenSingle => Grade::Easy,
        Strategy::NakedPair
        | Strategy::NakedTriple
        | Strategy::NakedQuad
        | Strategy::HiddenPair
        | Strategy::HiddenTriple
        | Strategy::HiddenQuad
        | Strategy::PointingPair
        | Strategy::BoxLineReduction => Grade::Intermediate,
        Strategy::XWing | Strategy::UniqueRectangle => Grade::Hard,
    }
}

/// Score weight of one step of a strategy: roughly how much harder a human finds it than a
/// naked single (this project's scale, in the spirit of SudokuWiki's grader).
pub fn strategy_weight(strategy: Strategy) -> u64 {
    match strategy {
        Strategy::NakedSingle => 1,
        Strategy::HiddenSingle => 2,
        Strategy::PointingPair | Strategy::BoxLineReduction => 4,
        Strategy::NakedPair => 5,
        Strategy::HiddenPair => 6,
        Strategy::NakedTriple => 8,
        Strategy::HiddenTriple => 10,
        Strategy::NakedQuad => 12,
        Strategy::HiddenQuad => 14,
        Strategy::XWing => 16,
        Strategy::UniqueRectangle => 16,
    }
}

/// Score weight of a guess (a backtrack costs the same again).
pub const GUESS_WEIGHT: u64 = 25;

/// The difficulty of one puzzle, from the human solver's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeReport {
    /// The grade: the hardest kind of step needed.
    pub grade: Grade,
    /// Sum of the step weights ([`strategy_weight`], [`GUESS_WEIGHT`] per guess and per
    /// backtrack).
    pub score: u64,
    /// The hardest strategy used (`None` when the puzzle was already full).
    pub hardest: Option<Strategy>,
    /// Steps per strategy, in [`Strategy::ALL`] order, zeros left out.
    pub counts: Vec<(Strategy, u64)>,
    /// Guesses made.
    pub guesses: u64,
    /// Guesses taken back.
    pub backtracks: u64,
    /// Whether the solver found a solution (false: the puzzle has none).
    pub solved: bool,
}

impl GradeReport {
    /// The grade implied by a human solver's log.
    pub fn from_log(log: &HumanLog, solved: bool) -> GradeReport {
        let counts = log.counts();
        let (guesses, backtracks) = (log.guesses(), log.backtracks());
        let hardest = log.hardest();
        let grade = if guesses > 0 {
            Grade::Expert
        } else {
            hardest.map_or(Grade::Simple, strategy_grade)
        };
        let score = counts
            .iter()
            .map(|&(s, k)| strategy_weight(s) * k)
            .sum::<u64>()
            + GUESS_WEIGHT * (guesses + backtracks);
        GradeReport {
            grade,
            score,
            hardest,
            counts,
            guesses,
            backtracks,
            solved,
        }
    }

    /// Steps of one strategy.
    pub fn count(&self, strategy: Strategy) -> u64 {
        self.counts
            .iter()
            .find(|(s, _)| *s == strategy)
            .map_or(0, |&(_, k)| k)
    }
}

/// Grades a puzzle: solves it with the human-style solver ([`solve_logged`]) and reads the
/// grade off its log.
pub fn grade(puzzle: &Grid) -> GradeReport {
    let run = solve_logged(puzzle);
    GradeReport::from_log(&run.log, matches!(run.outcome, SolveOutcome::Solved(_)))
}

/// [`grade`] that gives up when `deadline` passes (guessing on a large sparse grid can
/// take minutes).
///
/// # Errors
/// [`Error::TimedOut`] once the deadline has passed.
pub fn grade_until(puzzle: &Grid, deadline: Deadline) -> Result<GradeReport, Error> {
    let run = solve_logged_until(puzzle, deadline)?;
    Ok(GradeReport::from_log(
        &run.log,
        matches!(run.outcome, SolveOutcome::Solved(_)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Grid {
        s.parse().unwrap()
    }

    #[test]
    fn grades_are_ordered_and_parse() {
        assert!(Grade::Simple < Grade::Easy && Grade::Hard < Grade::Expert);
        for g in Grade::ALL {
            assert_eq!(g.name().parse::<Grade>(), Ok(g));
        }
        assert!("brutal".parse::<Grade>().is_err());
    }

    #[test]
    fn one_blank_is_simple() {
        let p = parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286.79",
        );
        let r = grade(&p);
        assert_eq!(r.grade, Grade::Simple);
        assert_eq!(r.score, 1);
        assert_eq!(r.counts, vec![(Strategy::NakedSingle, 1)]);
        assert!(r.solved);
    }

    #[test]
    fn a_17_clue_puzzle_needs_more_than_singles_or_guesses() {
        let p = parse(
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
        );
        let r = grade(&p);
        assert!(r.solved);
        assert!(r.grade >= Grade::Easy);
        assert_eq!(r.grade == Grade::Expert, r.guesses > 0);
        let weighted: u64 = r.counts.iter().map(|&(s, k)| strategy_weight(s) * k).sum();
        assert_eq!(
            r.score,
            weighted + GUESS_WEIGHT * (r.guesses + r.backtracks)
        );
    }

    #[test]
    fn strategy_tiers_follow_the_issue() {
        assert_eq!(strategy_grade(Strategy::NakedSingle), Grade::Simple);
        assert_eq!(strategy_grade(Strategy::HiddenSingle), Grade::Easy);
        assert_eq!(strategy_grade(Strategy::PointingPair), Grade::Intermediate);
        assert_eq!(
            strategy_grade(Strategy::BoxLineReduction),
            Grade::Intermediate
        );
        assert_eq!(strategy_grade(Strategy::NakedPair), Grade::Intermediate);
        assert_eq!(strategy_grade(Strategy::XWing), Grade::Hard);
        assert_eq!(strategy_grade(Strategy::UniqueRectangle), Grade::Hard);
    }
}
