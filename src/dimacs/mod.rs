//! DIMACS CNF writing and streaming parsing; solver model readers (MiniSat result files and
//! SAT-competition `s`/`v` output).
//!
//! The format is the one of the DIMACS challenge (1993) as used by the SAT competitions: a
//! `p cnf V C` header, clauses as signed integers ending in `0`, `c` comment lines. Like
//! varisat's `varisat-dimacs`, the parser streams from any [`std::io::Read`] into a
//! [`ClauseSink`](crate::formula::ClauseSink) and its errors carry the line and column.
//!
//! This module knows formulas only ([`crate::formula`]), not Sudoku: the self-describing
//! files of a puzzle are written and read by [`crate::encode::cnf_file`].
//!
//! - [`mod@write`]: the streaming [`DimacsWriter`] and [`write_formula`];
//! - [`parse`]: [`parse_dimacs`] and [`read_preamble`];
//! - [`model`]: [`read_minisat_result`], [`read_competition_output`], [`read_model_auto`].

mod error;
pub mod model;
pub mod parse;
pub mod write;

pub use self::error::DimacsError;
pub use self::model::{
    read_competition_output, read_minisat_result, read_model_auto, SolverAnswer,
};
pub use self::parse::{
    parse_cubes, parse_dimacs, parse_dimacs_str, parse_dimacs_until, read_preamble,
    read_preamble_numbered, DimacsReport, ParseOptions,
};
pub use self::write::{write_formula, DimacsWriter};
