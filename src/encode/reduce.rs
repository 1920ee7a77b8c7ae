//! The V⁺/V⁻ reduction of Kwon & Jain (2006, "Optimized CNF Encoding for Sudoku Puzzles"),
//! applicable to the minimal and the extended encoding.
//!
//! V⁺ holds the variables the givens make true, V⁻ those false because they share a cell, or
//! a value in a row, column or box, with a given. Applied to a base encoding, the reduction
//! drops every clause holding a true literal (a V⁺ literal or a negated V⁻ one), strikes the
//! false literals from the rest, and keeps only the free variables, renumbered compactly in
//! cell-major, ascending-value order ([`VarMap::reduced`](super::VarMap::reduced)).
//!
//! This module does **not** filter the base clause stream (the extended encoding of a
//! 225×225 grid has about 5·10⁹ clauses). It generates the surviving clauses directly from
//! the free variables — per blank cell its free digits, per unit and digit not yet placed
//! there its free cells — at a cost proportional to the output. The unit tests check that
//! this equals filtering the base stream. Contradictory givens (a digit twice in a unit)
//! would be lost by filtering; here they yield the empty clause, so the formula is UNSAT.

use super::choice::BaseEncoding;
use super::free_vars::FreeVars;
use crate::formula::{ClauseSink, FormulaSize, Lit, Var};
use crate::grid::{Cell, Digit, DigitSet, Grid};

/// Streams the reduced form of `base` for `puzzle`, generated from the free variables.
pub fn encode_reduced<S: ClauseSink + ?Sized>(puzzle: &Grid, base: BaseEncoding, sink: &mut S) {
    let free = FreeVars::of(puzzle);
    emit(puzzle, &free, base, &mut ReduceScratch::default(), sink);
}

/// The buffers [`emit`] works in, kept between puzzles by a caller that encodes many (a
/// batch allocates nothing per puzzle).
#[derive(Clone, Debug, Default)]
pub struct ReduceScratch {
    /// Per digit 1..=n, the free literals of that digit in the unit at hand: `n` slots
    /// from `d · n`.
    buckets: Vec<Lit>,
    /// How many of each digit's slots are filled.
    filled: Vec<usize>,
    /// Clauses written but not yet handed to the sink, flat ([`ClauseSink::add_clauses`]).
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

/// Literals held before [`emit`] hands its clauses to the sink: a 9×9 formula goes over in
/// one piece, a large grid's in pieces of this size (its formula is never held whole).
const FLUSH_LITERALS: usize = 1 << 16;

/// Clauses gathered flat for the sink, in buffers that stay in registers while written.
struct Flat<'a, S: ClauseSink + ?Sized> {
    lits: Vec<Lit>,
    ends: Vec<usize>,
    sink: &'a mut S,
}

impl<S: ClauseSink + ?Sized> Flat<'_, S> {
    #[inline]
    fn clause(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.lits.extend(lits);
        self.ends.push(self.lits.len());
    }

    /// "At most one of `lits`", pairwise: ¬a ∨ ¬b for every two, in order.
    #[inline]
    fn at_most_one(&mut self, lits: &[Lit]) {
        for (k, &a) in lits.iter().enumerate() {
            for &b in &lits[k + 1..] {
                self.lits.push(!a);
                self.lits.push(!b);
                self.ends.push(self.lits.len());
            }
        }
    }

    /// Hands the clauses over once enough are held.
    #[inline]
    fn flush_if_full(&mut self) {
        if self.lits.len() >= FLUSH_LITERALS {
            self.flush();
        }
    }

    fn flush(&mut self) {
        self.sink.add_clauses(&self.lits, &self.ends);
        self.lits.clear();
        self.ends.clear();
    }
}

pub(crate) fn emit<S: ClauseSink + ?Sized>(
    puzzle: &Grid,
    free: &FreeVars,
    base: BaseEncoding,
    scratch: &mut ReduceScratch,
    sink: &mut S,
) {
    let extended = base == BaseEncoding::Extended;
    sink.reserve_vars(free.len());
    let mut out = Flat {
        lits: std::mem::take(&mut scratch.lits),
        ends: std::mem::take(&mut scratch.ends),
        sink,
    };
    out.lits.clear();
    out.ends.clear();
    let pos = |i: usize| Var::from_index(i).positive();
    let values = puzzle.values();
    // Cells: ≥ 1 free digit (empty when none is left), and pairwise ≤ 1.
    for (index, _) in values.iter().enumerate().filter(|&(_, &v)| v == 0) {
        let vars = free.cell_vars(Cell(index as u32));
        let start = out.lits.len();
        out.clause(vars.map(pos));
        if extended {
            let end = out.lits.len();
            for i in start..end {
                for j in i + 1..end {
                    let (a, b) = (out.lits[i], out.lits[j]);
                    out.lits.push(!a);
                    out.lits.push(!b);
                    out.ends.push(out.lits.len());
                }
            }
        }
        out.flush_if_full();
    }
    // Units × digits not placed there: pairwise ≤ 1 over the free cells, and ≥ 1.
    for_each_unit_digit(puzzle, free, scratch, |cells| {
        out.at_most_one(cells);
        if extended {
            out.clause(cells.iter().copied());
        }
        out.flush_if_full();
    });
    if free.contradictory {
        out.clause([]);
    }
    out.flush();
    (scratch.lits, scratch.ends) = (out.lits, out.ends);
}

/// Calls `each` with every unit × digit not given in that unit: the free literals of that
/// digit in the unit's cells, in cell order. The groups both [`emit`] and [`reduced_size`]
/// are made of.
fn for_each_unit_digit(
    puzzle: &Grid,
    free: &FreeVars,
    scratch: &mut ReduceScratch,
    mut each: impl FnMut(&[Lit]),
) {
    let geo = puzzle.geometry();
    let n = geo.side();
    let values = puzzle.values();
    scratch
        .buckets
        .resize((n + 1) * n, Var::from_index(0).positive());
    scratch.filled.resize(n + 1, 0);
    let ReduceScratch {
        buckets, filled, ..
    } = scratch;
    for unit in geo.units() {
        let mut placed = DigitSet::EMPTY;
        filled.fill(0);
        for &cell in geo.unit_cells(unit) {
            match values[cell.index()] {
                0 => {
                    for i in free.cell_vars(cell) {
                        let d = free.digits[i] as usize;
                        buckets[d * n + filled[d]] = Var::from_index(i).positive();
                        filled[d] += 1;
                    }
                }
                given => {
                    placed.insert(Digit(given));
                }
            }
        }
        for d in 1..=n {
            if !placed.contains(Digit(d as u16)) {
                each(&buckets[d * n..d * n + filled[d]]);
            }
        }
    }
}

/// Size of the reduced form of `base` for `puzzle`, from the sizes of the groups `emit`
/// walks: a group of k free literals gives its "at least one" clause (k literals) and
/// k(k−1)/2 binary clauses. Counting the clauses one by one took 8.5 s on an empty
/// 400×400 grid (51·10⁹ clauses); this is linear in the free variables.
pub fn reduced_size(puzzle: &Grid, base: BaseEncoding) -> FormulaSize {
    reduced_size_free(puzzle, &FreeVars::of(puzzle), base)
}

/// [`reduced_size`] over the free variables `free` of `puzzle` (fewer than its givens
/// leave when root reasoning removed some), as [`emit`] writes them.
pub(crate) fn reduced_size_free(puzzle: &Grid, free: &FreeVars, base: BaseEncoding) -> FormulaSize {
    let extended = base == BaseEncoding::Extended;
    let geo = puzzle.geometry();
    let pairs = |k: usize| k * k.saturating_sub(1) / 2;
    let mut size = FormulaSize {
        vars: free.len(),
        ..FormulaSize::default()
    };
    let mut group = |k: usize, at_least_one: bool, at_most_one: bool| {
        if at_least_one {
            size.clauses += 1;
            size.literals += k;
        }
        if at_most_one {
            size.clauses += pairs(k);
            size.literals += 2 * pairs(k);
        }
    };
    for cell in geo.cells() {
        if puzzle.get(cell).is_none() {
            group(free.cell_vars(cell).len(), true, extended);
        }
    }
    for_each_unit_digit(puzzle, free, &mut ReduceScratch::default(), |cells| {
        group(cells.len(), extended, true)
    });
    if free.contradictory {
        group(0, true, false);
    }
    size
}
