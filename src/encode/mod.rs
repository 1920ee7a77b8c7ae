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
//! [`ClauseSink`].

pub mod amo;
pub mod augmented;
pub mod cnf_file;
mod extended;
mod groups;
mod minimal;
pub mod opb;
mod reduce;
pub mod split;
mod varmap;

pub use amo::{AmoFamily, AmoSize};
pub use cnf_file::{
    dimacs_bytes_estimate, read_description, write_cnf, write_cnf_with_progress,
    write_icnf_with_progress, CnfDescription, PROGRESS_EVERY,
};
pub use extended::{encode_extended, extended_size};
pub use groups::base_size;
pub use minimal::{base_var, encode_minimal, minimal_size};
pub use opb::{write_opb, OpbSize};
pub use reduce::{encode_reduced, reduced_size};
pub use split::{CellSplit, MAX_CUBES};
pub use varmap::{DecodeError, VarMap, VarRef};

use crate::formula::{ClauseSink, Cnf, CountingSink, FormulaSize};
use crate::grid::Grid;

/// A way to turn a puzzle into CNF.
pub trait Encoding: Send + Sync {
    /// The encoding's name as the CLI spells it, e.g. `minimal`, `extended+reduced`.
    fn name(&self) -> String;

    /// The variable map this encoding uses for `puzzle` (cheap; no clauses).
    fn var_map(&self, puzzle: &Grid) -> VarMap;

    /// Streams every clause for `puzzle` (givens included) into `sink` and returns the map.
    fn encode(&self, puzzle: &Grid, sink: &mut dyn ClauseSink) -> VarMap;

    /// Variables, clauses and literals, from a closed form where one exists, else from a
    /// counting pass (no clause is stored either way).
    fn size(&self, puzzle: &Grid) -> FormulaSize {
        let mut counter = CountingSink::default();
        let map = self.encode(puzzle, &mut counter);
        counter.size.vars = map.num_vars();
        counter.size
    }

    /// The formula in memory with its map.
    fn encode_to_cnf(&self, puzzle: &Grid) -> (Cnf, VarMap) {
        let mut cnf = Cnf::new();
        let map = self.encode(puzzle, &mut cnf);
        cnf.set_num_vars(map.num_vars());
        (cnf, map)
    }
}

/// The sizes of several encodings of one puzzle, as [`Encoding::size`] gives each, with one
/// walk over the groups per reduced base encoding however many at-most-one families share
/// it (the unreduced ones are closed forms).
pub fn sizes_of(puzzle: &Grid, encodings: &[SudokuEncoding]) -> Vec<FormulaSize> {
    let mut shapes: Vec<(BaseEncoding, groups::GroupShape)> = Vec::new();
    encodings
        .iter()
        .map(|enc| {
            if !enc.reduced {
                return enc.size(puzzle);
            }
            let at = match shapes.iter().position(|(base, _)| *base == enc.base) {
                Some(at) => at,
                None => {
                    shapes.push((enc.base, groups::GroupShape::of(puzzle, enc)));
                    shapes.len() - 1
                }
            };
            shapes[at].1.size(enc.amo)
        })
        .collect()
}

/// Bytes a solve needs for a formula of this size, estimated: the flat clause store
/// ([`Cnf`]: 4 bytes a literal, 8 a clause), the backend's own copy with clause headers,
/// and its watch lists (two per clause) and per-variable arrays.
///
/// The per-variable share is the largest measured (`sat -n` on `p cnf 20000000 1`, peak
/// resident memory): cdcl 136 bytes a variable, the lookahead backend 142, the DPLL 83
/// (CaDiCaL takes 166). Clause-heavy Sudoku formulas, whose binary clauses live in
/// implication lists, measure below the estimate (the unreduced 64×64 grid: 854 MB
/// against 1,789 MiB).
pub fn memory_estimate(size: FormulaSize) -> u64 {
    let (v, c, l) = (size.vars as u64, size.clauses as u64, size.literals as u64);
    l.saturating_mul(8)
        .saturating_add(c.saturating_mul(40))
        .saturating_add(v.saturating_mul(BYTES_PER_VARIABLE))
}

/// The per-variable bytes of [`memory_estimate`].
const BYTES_PER_VARIABLE: u64 = 144;

/// Checks, before anything is built, that solving `puzzle` with `encoding` fits in
/// `budget` bytes ([`memory_estimate`] of its closed-form size).
///
/// # Errors
/// [`crate::Error::OverBudget`] naming the size and the ways out.
pub fn check_memory_budget(
    encoding: SudokuEncoding,
    puzzle: &Grid,
    budget: u64,
) -> Result<(), crate::Error> {
    let (n, g) = (puzzle.side(), puzzle.num_givens());
    // The unreduced size is a closed form and bounds the reduced one: the counting pass
    // of the reduced encoding runs only when the bound is over budget.
    let bound = groups::base_size(&encoding, puzzle.box_size(), g);
    if memory_estimate(bound) <= budget {
        return Ok(());
    }
    let size = encoding.size(puzzle);
    let needed = memory_estimate(size);
    if needed <= budget {
        return Ok(());
    }
    Err(crate::Error::OverBudget {
        encoding: encoding.name(),
        side: n,
        size,
        needed,
        budget,
    })
}

crate::names::named_enum! {
    /// The base clause sets (`--encoding`).
    #[derive(PartialOrd, Ord)]
    pub enum BaseEncoding ("encoding") {
        /// Each cell ≥ 1 value; each row/column/box ≤ 1 of each value (pairwise).
        Minimal = "minimal",
        /// Minimal plus each cell ≤ 1 value and each row/column/box ≥ 1 of each value.
        Extended = "extended",
        /// Extended plus tdoku's segment (triad) variables: exactly one segment of each
        /// row, column and box holds each value ([`augmented`]).
        Augmented = "augmented",
    }
}

/// A base encoding, optionally reduced with V⁺/V⁻, with an at-most-one family: the
/// encodings this crate ships. Named `base[+reduced][/family]`, the family left out when
/// pairwise: `extended+reduced`, `augmented/sequential`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SudokuEncoding {
    /// Which clause set.
    pub base: BaseEncoding,
    /// Whether the Kwon–Jain V⁺/V⁻ reduction is applied.
    pub reduced: bool,
    /// How each "at most one" group is written.
    pub amo: AmoFamily,
}

impl SudokuEncoding {
    /// The six shipped encodings with pairwise at-most-one: minimal, extended, augmented,
    /// and each reduced.
    pub const ALL: [SudokuEncoding; 6] = [
        SudokuEncoding::new(BaseEncoding::Minimal, false),
        SudokuEncoding::new(BaseEncoding::Extended, false),
        SudokuEncoding::new(BaseEncoding::Augmented, false),
        SudokuEncoding::new(BaseEncoding::Minimal, true),
        SudokuEncoding::new(BaseEncoding::Extended, true),
        SudokuEncoding::new(BaseEncoding::Augmented, true),
    ];

    /// An encoding with pairwise at-most-one.
    pub const fn new(base: BaseEncoding, reduced: bool) -> Self {
        SudokuEncoding {
            base,
            reduced,
            amo: AmoFamily::Pairwise,
        }
    }

    /// The same encoding with another at-most-one family.
    pub const fn with_amo(self, amo: AmoFamily) -> Self {
        SudokuEncoding { amo, ..self }
    }

    /// Every encoding of [`SudokuEncoding::ALL`] crossed with every [`AmoFamily`].
    pub fn all_families() -> Vec<SudokuEncoding> {
        SudokuEncoding::ALL
            .into_iter()
            .flat_map(|e| AmoFamily::ALL.map(|f| e.with_amo(f)))
            .collect()
    }

    /// Whether this encoding is written by the original pairwise code (minimal and
    /// extended) rather than by the group walk.
    fn is_classic(&self) -> bool {
        self.amo == AmoFamily::Pairwise && self.base != BaseEncoding::Augmented
    }

    /// Number of auxiliary variables (numbered after the cell variables) for `puzzle`.
    pub fn num_aux_vars(&self, puzzle: &Grid) -> usize {
        let map = self.var_map(puzzle);
        map.num_vars() - map.num_cell_vars()
    }

    /// As [`Encoding::encode`], generic over the sink so that a concrete one (a [`Cnf`]
    /// buffer) takes each clause without a dynamic call: the hot path of the SAT solver.
    pub fn encode_into<S: ClauseSink + ?Sized>(&self, puzzle: &Grid, sink: &mut S) -> VarMap {
        if !self.is_classic() {
            return groups::encode(puzzle, self, sink);
        }
        match (self.base, self.reduced) {
            (base, true) => {
                // The free variables are computed once, for the clauses and the map.
                let free = reduce::FreeVars::of(puzzle);
                reduce::emit(puzzle, &free, base, sink);
                VarMap::from_free_vars(puzzle, free)
            }
            (BaseEncoding::Minimal, false) => {
                encode_minimal(puzzle, sink);
                VarMap::base(puzzle)
            }
            (_, false) => {
                encode_extended(puzzle, sink);
                VarMap::base(puzzle)
            }
        }
    }

    /// Parses `BASE[+reduced][/FAMILY]`: `minimal`, `extended+reduced`,
    /// `augmented/sequential`, `extended+reduced/pairwise` (the same as `extended+reduced`).
    pub fn from_name(name: &str) -> Option<SudokuEncoding> {
        let (encoding, family) = match name.split_once('/') {
            Some((e, f)) => (e, AmoFamily::from_name(f)?),
            None => (name, AmoFamily::Pairwise),
        };
        SudokuEncoding::ALL
            .into_iter()
            .find(|e| e.name() == encoding)
            .map(|e| e.with_amo(family))
    }
}

/// Parses what [`SudokuEncoding::from_name`] reads.
impl std::str::FromStr for SudokuEncoding {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SudokuEncoding::from_name(s).ok_or_else(|| crate::names::UnknownName {
            what: "encoding",
            name: s.to_string(),
            expected: SudokuEncoding::ALL.map(|e| e.name()).join(", ")
                + " (each optionally /FAMILY)",
        })
    }
}

impl Encoding for SudokuEncoding {
    fn name(&self) -> String {
        let mut name = self.base.name().to_string();
        if self.reduced {
            name.push_str("+reduced");
        }
        if self.amo != AmoFamily::Pairwise {
            name.push('/');
            name.push_str(self.amo.name());
        }
        name
    }

    fn var_map(&self, puzzle: &Grid) -> VarMap {
        if !self.is_classic() {
            groups::var_map(puzzle, self)
        } else if self.reduced {
            VarMap::reduced(puzzle)
        } else {
            VarMap::base(puzzle)
        }
    }

    fn encode(&self, puzzle: &Grid, sink: &mut dyn ClauseSink) -> VarMap {
        self.encode_into(puzzle, sink)
    }

    /// Closed forms for the base encodings; for the reduced ones, a pass over the groups'
    /// sizes, each group counted by its family's closed form.
    fn size(&self, puzzle: &Grid) -> FormulaSize {
        let g = puzzle.num_givens();
        match (self.is_classic(), self.reduced) {
            (_, false) => base_size(self, puzzle.box_size(), g),
            (true, true) => reduced_size(puzzle, self.base),
            (false, true) => groups::size(puzzle, self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
