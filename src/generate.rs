//! Puzzle generation and difficulty grading.
