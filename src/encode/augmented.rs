//! The *augmented* encoding: the extended encoding plus one variable per row-segment and
//! per column-segment of each digit, after the "triad" representation of tdoku's study of
//! SAT encodings for MiniSat (Dillon, tdoku `docs/sudoku.md`), generalised from box size 3
//! to any box size b.
//!
//! A row-segment is the intersection of a row and a box (b cells), a column-segment that of
//! a column and a box. For each digit d, the segment variable is defined by its cells
//! (`S ↔ x₁ ∨ … ∨ x_b`: b binary clauses and one of b + 1 literals), and exactly one of
//! the segments of each row, each column and each box holds d (a box has b row-segments and
//! b column-segments: one exactly-one over each). Unit propagation on these clauses sees
//! locked candidates (pointing and claiming) that the extended encoding needs search for.
//!
//! Size on the empty n×n grid, on top of the extended encoding: 2bn² segment variables;
//! 2bn²·(b + 1) defining clauses with 2bn²·(3b + 1) literals; 4n² exactly-one groups of b
//! segments, each one clause of b literals plus the at-most-one family's clauses for b.
//!
//! With the V⁺/V⁻ reduction a segment is fixed when its row (column) already holds d as a
//! given: true if the given lies in the segment, else false; a segment whose cells have no
//! free d left is false. Only the other segments get variables, and a row, column or box
//! whose d is given has no exactly-one group.

use super::free_vars::FreeVars;
use super::group_sink::GroupSink;
use crate::formula::{Lit, Var};
use crate::grid::{DigitSet, Grid};

/// The segment variables of a puzzle: row-segments (row r, box column j) then
/// column-segments (column c, box row i), digit fastest, numbered from `first`.
///
/// Only each segment's variable is kept; its cells' literals are gathered again when the
/// clauses are emitted. Storing them took 2n³ literals plus a vector per segment: 930 MB
/// on an empty 400×400 grid, for what one more walk over the cells recomputes.
pub(crate) struct Segments {
    b: usize,
    n: usize,
    reduced: bool,
    /// `rows[(r·b + j)·n + d − 1]`: the segment's literal, `None` when the givens fix it
    /// (reduced encodings only; a fixed segment in a unit that needs it is false).
    rows: Vec<Option<Lit>>,
    /// `cols[(c·b + i)·n + d − 1]`.
    cols: Vec<Option<Lit>>,
    count: usize,
}

/// Walks the segments of every line (rows when `line_is_row`, else columns) band by band:
/// `visit(line, buckets)` gets, per digit d, the literals of d in the segment's cells
/// (`buckets[d]`, cells in order; a cell holding a given is left out when `reduced`).
/// Which of the line's digits are placed, and so fix a segment, is the caller's to say.
fn for_each_segment(
    puzzle: &Grid,
    free: &FreeVars,
    reduced: bool,
    line_is_row: bool,
    mut visit: impl FnMut(usize, &[Vec<Lit>]),
) {
    let geo = puzzle.geometry();
    let (b, n) = (geo.box_size(), geo.side());
    let mut buckets: Vec<Vec<Lit>> = vec![Vec::new(); n + 1];
    for line in 0..n {
        for band in 0..b {
            for bucket in &mut buckets {
                bucket.clear();
            }
            for k in band * b..band * b + b {
                let cell = if line_is_row {
                    geo.cell(line, k)
                } else {
                    geo.cell(k, line)
                };
                if reduced && puzzle.get(cell).is_some() {
                    continue;
                }
                for i in free.cell_range(cell) {
                    buckets[free.digits[i] as usize].push(Var::from_index(i).positive());
                }
            }
            visit(line, &buckets);
        }
    }
}

impl Segments {
    /// The segments of `puzzle` over the cell variables of `free`; `reduced` fixes those the
    /// givens decide. Variables are numbered from the 0-based index `first`.
    pub fn of(puzzle: &Grid, free: &FreeVars, reduced: bool, first: usize) -> Segments {
        let geo = puzzle.geometry();
        let (b, n) = (geo.box_size(), geo.side());
        let mut row_placed = vec![DigitSet::EMPTY; n];
        let mut col_placed = vec![DigitSet::EMPTY; n];
        if reduced {
            for (cell, d) in puzzle.givens() {
                row_placed[geo.row_of(cell)].insert(d);
                col_placed[geo.col_of(cell)].insert(d);
            }
        }
        let mut next = first;
        let mut build = |line_is_row: bool, placed: &[DigitSet]| {
            let mut out = Vec::with_capacity(n * b * n);
            for_each_segment(puzzle, free, reduced, line_is_row, |line, buckets| {
                for d in geo.digits() {
                    // A segment of a line whose d is given is fixed (true only if the given
                    // lies in it, and then no group asks for it); so is one without open d.
                    if placed[line].contains(d) || buckets[d.get()].is_empty() {
                        out.push(None);
                    } else {
                        out.push(Some(Var::from_index(next).positive()));
                        next += 1;
                    }
                }
            });
            out
        };
        let rows = build(true, &row_placed);
        let cols = build(false, &col_placed);
        Segments {
            b,
            n,
            reduced,
            rows,
            cols,
            count: next - first,
        }
    }

    /// Number of segment variables.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Streams the definitions and the exactly-one groups. `placed[u]` holds the digits
    /// given in unit u (empty sets for the unreduced encodings).
    pub fn emit<G: GroupSink + ?Sized>(
        &self,
        puzzle: &Grid,
        free: &FreeVars,
        placed: &[DigitSet],
        out: &mut G,
    ) {
        let geo = puzzle.geometry();
        let (b, n) = (self.b, self.n);
        let mut clause: Vec<Lit> = Vec::with_capacity(b + 1);
        for (line_is_row, lits) in [(true, &self.rows), (false, &self.cols)] {
            let mut at = 0;
            for_each_segment(puzzle, free, self.reduced, line_is_row, |_, buckets| {
                for (&segment, cells) in lits[at..at + n].iter().zip(&buckets[1..]) {
                    if let Some(s) = segment {
                        for &x in cells {
                            out.clause(&[!x, s]);
                        }
                        clause.clear();
                        clause.push(!s);
                        clause.extend_from_slice(cells);
                        out.clause(&clause);
                    }
                }
                at += n;
            });
        }
        let mut group: Vec<Lit> = Vec::with_capacity(2 * b);
        let exactly_one = |group: &[Lit], out: &mut G| {
            out.clause(group);
            out.at_most_one(group);
        };
        for unit in geo.units() {
            let (kind, index) = geo.unit_kind(unit);
            for d in geo.digits() {
                if placed[unit.0 as usize].contains(d) {
                    continue;
                }
                let at = |line: usize, band: usize| (line * b + band) * n + d.get() - 1;
                group.clear();
                match kind {
                    crate::grid::UnitKind::Row => {
                        group.extend((0..b).filter_map(|j| self.rows[at(index, j)]));
                        exactly_one(&group, out);
                    }
                    crate::grid::UnitKind::Column => {
                        group.extend((0..b).filter_map(|i| self.cols[at(index, i)]));
                        exactly_one(&group, out);
                    }
                    crate::grid::UnitKind::Box => {
                        let (bi, bj) = (index / b, index % b);
                        group.extend((0..b).filter_map(|k| self.rows[at(bi * b + k, bj)]));
                        exactly_one(&group, out);
                        group.clear();
                        group.extend((0..b).filter_map(|k| self.cols[at(bj * b + k, bi)]));
                        exactly_one(&group, out);
                    }
                }
            }
        }
    }
}
