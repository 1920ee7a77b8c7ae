//! Puzzle generation and difficulty grading.
//!
//! The generator follows the two methods the Sudoku-as-SAT thesis this project implements
//! describes (and that most generators use):
//!
//! 1. **Fill** an empty grid at random by randomised search ([`random_fill`]: bitmask
//!    backtracking, minimum-remaining-values cell choice after Norvig 2006, digits tried in
//!    random order).
//! 2. **Remove** clues at random positions. With uniqueness on ([`GenerateOptions::unique`])
//!    a removal is kept only while the puzzle still has exactly one solution (counted with
//!    limit 2 by a [`SolutionCounter`]: Dancing Links, the SAT path or the built-in bitmask
//!    counter), until the requested clue count is reached or no clue can go (a *minimal*
//!    puzzle). With uniqueness off, the "simple method" of the literature: remove a fixed
//!    number of clues at random, unchecked.
//!
//! Symmetry ([`Symmetry`]) removes whole orbits of cells so the pattern of givens stays
//! symmetric; such a puzzle is minimal by orbits, not always clue by clue
//! ([`properness`] names the single clues that could still go). Levels ([`clues_for_level`]) map the 20 clue-count levels of the thesis's
//! study to a clue count for any size. Everything is reproducible: one
//! [`rand_chacha::ChaCha8Rng`] per puzzle, seeded by [`puzzle_seed`] from a master seed
//! and the puzzle's index, so parallel batches ([`generate_batch`]) give the same puzzles
//! in the same order whatever the number of threads.
//!
//! Lower bounds used to refuse impossible requests up front: a unique 9×9 puzzle has at
//! least 17 clues (McGuire, Tugemann & Civario 2014, *There is no 16-clue Sudoku*), a 4×4
//! at least 4, and any n×n at least n − 1 (two digits that never appear could be swapped).

mod diagnose;
mod generator;
pub mod grade;
pub mod refute;
mod search;
mod unique;

pub use diagnose::{diagnose, Diagnosis, EXACT_CORE_MAX_SIDE};
pub use generator::{
    clues_for_level, generate, generate_batch, min_unique_clues, properness, puzzle_seed,
    random_fill, Acceptance, BitmaskCounter, CounterKind, GenerateError, GenerateOptions,
    Generated, Properness, SolutionCounter, SolverCounter, Symmetry, DEFAULT_COUNT_BUDGET,
    DEFAULT_MAX_FILLS, MAX_CLUE_COUNT_LEVEL, NUM_LEVELS,
};
#[cfg(test)]
pub(crate) use generator::{generated_for_tests, grid_of_for_tests, with_a_typo_for_tests};
pub use search::{count_solutions as bitmask_count, pattern_fill, Count, MAX_SEARCH_SIDE};
pub use unique::{unique_without, Uniqueness};
