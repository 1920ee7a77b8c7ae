//! # sudosat — Sudoku of any box size as SAT
//!
//! The pipeline: **parse** a puzzle ([`grid`]), **encode** it as CNF ([`encode`]), write
//! DIMACS or **solve** it with a SAT backend ([`backend`]), **decode** the model and
//! **check** the grid. Classic algorithms from the literature live beside the SAT path
//! ([`solve`]). Around them: puzzle generation and grading ([`generate`]), comparisons of
//! solvers ([`compare`]), cubes for cube and conquer ([`cube`], [`encode::split`]) and
//! printable drawings of grids ([`grid::svg`]).
//!
//! ```
//! use sudosat::grid::{check_grid, Grid};
//!
//! let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
//! assert_eq!(puzzle.side(), 4);
//! assert!(check_grid(&puzzle).is_valid());
//! ```
#![warn(missing_docs)]

pub(crate) mod alldifferent;
pub mod backbone;
pub mod backend;
pub mod compare;
pub mod compression;
pub mod dimacs;
pub mod encode;
mod error;
pub mod generate;
pub mod grid;
pub mod models;
pub mod names;
pub mod solve;

pub use sudosat_sat::{cube, formula, run};

pub use error::{Error, Result};
pub use formula::{ClauseSink, Cnf, Lit, Model, Var};
pub use grid::{Cell, Digit, Geometry, Grid};
