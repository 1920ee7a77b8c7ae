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
use crate::grid::{DigitSet, Grid};

/// Streams the reduced form of `base` for `puzzle`, generated from the free variables.
pub fn encode_reduced<S: ClauseSink + ?Sized>(puzzle: &Grid, base: BaseEncoding, sink: &mut S) {
    let free = FreeVars::of(puzzle);
    emit(puzzle, &free, base, sink);
}

pub(crate) fn emit<S: ClauseSink + ?Sized>(
    puzzle: &Grid,
    free: &FreeVars,
    base: BaseEncoding,
    sink: &mut S,
) {
    let extended = base == BaseEncoding::Extended;
    let geo = puzzle.geometry();
    let n = geo.side();
    sink.reserve_vars(free.len());
    let pos = |i: usize| Var::from_index(i).positive();
    let mut clause: Vec<Lit> = Vec::with_capacity(n);
    // Cells: ≥ 1 free digit (empty when none is left), and pairwise ≤ 1.
    for cell in geo.cells() {
        if puzzle.get(cell).is_some() {
            continue;
        }
        let vars = free.cell_vars(cell);
        clause.clear();
        clause.extend(vars.clone().map(pos));
        sink.add_clause(&clause);
        if extended {
            for i in vars.clone() {
                for j in i + 1..vars.end {
                    sink.add_clause(&[!pos(i), !pos(j)]);
                }
            }
        }
    }
    // Units × digits not placed there: pairwise ≤ 1 over the free cells, and ≥ 1.
    for_each_unit_digit(puzzle, free, |cells| {
        for (k, &a) in cells.iter().enumerate() {
            for &b in &cells[k + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
        if extended {
            sink.add_clause(cells);
        }
    });
    if free.contradictory {
        sink.add_clause(&[]);
    }
}

/// Calls `each` with every unit × digit not given in that unit: the free literals of that
/// digit in the unit's cells, in cell order. The groups both [`emit`] and [`reduced_size`]
/// are made of.
fn for_each_unit_digit(puzzle: &Grid, free: &FreeVars, mut each: impl FnMut(&[Lit])) {
    let geo = puzzle.geometry();
    let mut buckets: Vec<Vec<Lit>> = vec![Vec::new(); geo.side() + 1];
    for unit in geo.units() {
        let mut placed = DigitSet::EMPTY;
        for bucket in &mut buckets {
            bucket.clear();
        }
        for &cell in geo.unit_cells(unit) {
            match puzzle.get(cell) {
                Some(d) => {
                    placed.insert(d);
                }
                None => {
                    for i in free.cell_vars(cell) {
                        buckets[free.digits[i] as usize].push(Var::from_index(i).positive());
                    }
                }
            }
        }
        for d in geo.digits().filter(|&d| !placed.contains(d)) {
            each(&buckets[d.get()]);
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
    for_each_unit_digit(puzzle, free, |cells| group(cells.len(), extended, true));
    if free.contradictory {
        group(0, true, false);
    }
    size
}
