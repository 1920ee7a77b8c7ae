//! CNF encodings of Sudoku: the *minimal* and *extended* encodings of Lynce & Ouaknine
//! (2006, "Sudoku as a SAT Problem") and their V⁺/V⁻ reduction by Kwon & Jain (2006,
//! "Optimized CNF Encoding for Sudoku Puzzles").
//!
//! The *augmented* encoding ([`augmented`]) adds tdoku's triad (segment) variables, and
//! every "at most one" group can be written with any [`AmoFamily`] ([`amo`]).
//!
//! Variable for "cell (r,c) holds v" is `(r-1)·n² + (c-1)·n + v` (1-based) in the base
//! encodings; the reduced encodings renumber the surviving variables compactly in cell-major,
//! ascending-value order ([`VarMap`]). Auxiliary variables (segments, at-most-one
//! auxiliaries) are numbered after the cell variables. Encoders stream clauses into any
//! [`ClauseSink`](crate::formula::ClauseSink).

pub mod amo;
pub mod augmented;
mod choice;
pub mod cnf_file;
mod encoding;
mod extended;
mod free_vars;
pub(crate) use free_vars::FreeVars;
mod group_sink;
mod groups;
mod minimal;
pub mod opb;
mod reduce;
pub mod split;
mod varmap;

pub use amo::{AmoFamily, AmoSize};
pub use choice::{BaseEncoding, SudokuEncoding};
pub use cnf_file::{
    dimacs_bytes_estimate, pruned_size, read_description, write_cnf, write_cnf_with_progress,
    write_icnf_with_progress, write_pruned_cnf, CnfDescription, Pruned, PrunedForm, PROGRESS_EVERY,
};
pub use encoding::{check_memory_budget, memory_estimate, sizes_of, Encoder, Encoding};
pub use extended::{encode_extended, extended_size};
pub use groups::base_size;
pub use minimal::{base_var, encode_minimal, minimal_size};
pub use opb::{write_opb, OpbSize};
pub use reduce::{encode_reduced, reduced_size};
pub use split::{CellSplit, MAX_CUBES};
pub use varmap::{DecodeError, VarMap, VarRef};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn sizes_of_matches_each_encodings_own_size() {
        let encodings: Vec<SudokuEncoding> =
            SudokuEncoding::all_families().into_iter().rev().collect();
        for text in [
            "1.3...1..4..2.4.",
            "11..............",
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        ] {
            let puzzle: Grid = text.parse().unwrap();
            let sizes = sizes_of(&puzzle, &encodings);
            assert_eq!(sizes.len(), encodings.len());
            for (enc, size) in encodings.iter().zip(sizes) {
                assert_eq!(size, enc.size(&puzzle), "{} {text}", enc.name());
            }
        }
    }
}
