//! CNF encodings of Sudoku: the *minimal* and *extended* encodings of Lynce & Ouaknine
//! (2006, "Sudoku as a SAT Problem") and their V⁺/V⁻ reduction by Kwon & Jain (2006,
//! "Optimized CNF Encoding for Sudoku Puzzles").
//!
//! Variable for "cell (r,c) holds v" is `(r-1)·n² + (c-1)·n + v` (1-based) in the base
//! encodings; the reduced encodings renumber the surviving variables compactly in cell-major,
//! ascending-value order ([`VarMap`]). Encoders stream clauses into any [`ClauseSink`].

mod extended;
mod minimal;
mod reduce;
mod varmap;

pub use extended::{encode_extended, extended_size};
pub use minimal::{base_var, encode_minimal, minimal_size};
pub use reduce::{encode_reduced, reduced_size};
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

/// Bytes a solve needs for a formula of this size, estimated: the flat clause store
/// ([`Cnf`]: 4 bytes a literal, 8 a clause), the backend's own copy with clause headers,
/// and its watch lists (two per clause) and per-variable arrays.
pub fn memory_estimate(size: FormulaSize) -> u64 {
    let (v, c, l) = (size.vars as u64, size.clauses as u64, size.literals as u64);
    l.saturating_mul(8)
        .saturating_add(c.saturating_mul(40))
        .saturating_add(v.saturating_mul(64))
}

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
    let bound = match encoding.base {
        BaseEncoding::Minimal => minimal_size(n, g),
        BaseEncoding::Extended => extended_size(n, g),
    };
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

/// The base clause sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BaseEncoding {
    /// Each cell ≥ 1 value; each row/column/box ≤ 1 of each value (pairwise).
    Minimal,
    /// Minimal plus each cell ≤ 1 value and each row/column/box ≥ 1 of each value.
    Extended,
}

impl BaseEncoding {
    /// Both bases.
    pub const ALL: [BaseEncoding; 2] = [BaseEncoding::Minimal, BaseEncoding::Extended];

    /// CLI name.
    pub fn name(self) -> &'static str {
        match self {
            BaseEncoding::Minimal => "minimal",
            BaseEncoding::Extended => "extended",
        }
    }
}

/// A base encoding, optionally reduced with V⁺/V⁻: the encodings this crate ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SudokuEncoding {
    /// Which clause set.
    pub base: BaseEncoding,
    /// Whether the Kwon–Jain V⁺/V⁻ reduction is applied.
    pub reduced: bool,
}

impl SudokuEncoding {
    /// The four shipped encodings: minimal, extended, minimal+reduced, extended+reduced.
    pub const ALL: [SudokuEncoding; 4] = [
        SudokuEncoding::new(BaseEncoding::Minimal, false),
        SudokuEncoding::new(BaseEncoding::Extended, false),
        SudokuEncoding::new(BaseEncoding::Minimal, true),
        SudokuEncoding::new(BaseEncoding::Extended, true),
    ];

    /// An encoding.
    pub const fn new(base: BaseEncoding, reduced: bool) -> Self {
        SudokuEncoding { base, reduced }
    }

    /// As [`Encoding::encode`], generic over the sink so that a concrete one (a [`Cnf`]
    /// buffer) takes each clause without a dynamic call: the hot path of the SAT solver.
    pub fn encode_into<S: ClauseSink + ?Sized>(&self, puzzle: &Grid, sink: &mut S) -> VarMap {
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
            (BaseEncoding::Extended, false) => {
                encode_extended(puzzle, sink);
                VarMap::base(puzzle)
            }
        }
    }

    /// Parses `minimal`, `extended`, `minimal+reduced`, `extended+reduced`.
    pub fn from_name(name: &str) -> Option<SudokuEncoding> {
        SudokuEncoding::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl Encoding for SudokuEncoding {
    fn name(&self) -> String {
        if self.reduced {
            format!("{}+reduced", self.base.name())
        } else {
            self.base.name().to_string()
        }
    }

    fn var_map(&self, puzzle: &Grid) -> VarMap {
        if self.reduced {
            VarMap::reduced(puzzle)
        } else {
            VarMap::base(puzzle)
        }
    }

    fn encode(&self, puzzle: &Grid, sink: &mut dyn ClauseSink) -> VarMap {
        self.encode_into(puzzle, sink)
    }

    /// Closed forms for the base encodings; a counting pass for the reduced ones.
    fn size(&self, puzzle: &Grid) -> FormulaSize {
        let (n, g) = (puzzle.side(), puzzle.num_givens());
        match (self.base, self.reduced) {
            (base, true) => reduced_size(puzzle, base),
            (BaseEncoding::Minimal, false) => minimal_size(n, g),
            (BaseEncoding::Extended, false) => extended_size(n, g),
        }
    }
}
