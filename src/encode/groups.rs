//! The encodings written as groups: "at least one" clauses and "at most one" groups over
//! the cell variables (and the augmented encoding's segment variables), each at-most-one
//! group handed to an [`AmoFamily`]. One walk serves the clause stream and the size count,
//! with or without the V⁺/V⁻ reduction: reduced, each group shrinks to its open literals
//! first (a group of 0 or 1 literal needs no at-most-one clause).
//!
//! Variables: the cell variables first (base or reduced numbering, as [`VarMap`] says), then
//! the segment variables of the augmented encoding, then the at-most-one auxiliaries in the
//! order the groups are emitted: cells, then units (rows, columns, boxes) × digits, then the
//! segments' exactly-one groups.

use super::amo::{AmoFamily, AuxVars};
use super::augmented::Segments;
use super::free_vars::FreeVars;
use super::group_sink::GroupSink;
use super::{BaseEncoding, SudokuEncoding, VarMap};
use crate::formula::{ClauseSink, FormulaSize, Lit, Var};
use crate::grid::{DigitSet, Grid};

/// Writes the groups as clauses of a family.
struct Emit<'a, S: ClauseSink + ?Sized> {
    sink: &'a mut S,
    family: AmoFamily,
    aux: AuxVars,
}

impl<S: ClauseSink + ?Sized> GroupSink for Emit<'_, S> {
    fn clause(&mut self, lits: &[Lit]) {
        self.sink.add_clause(lits);
    }

    fn at_most_one(&mut self, lits: &[Lit]) {
        self.family.encode(lits, &mut self.aux, self.sink);
    }
}

/// The cell variables of an encoding: the free ones when reduced, all n³ otherwise (in the
/// base numbering `cell·n + d − 1`).
fn cell_vars(puzzle: &Grid, reduced: bool) -> FreeVars {
    if reduced {
        return FreeVars::of(puzzle);
    }
    let n = puzzle.side();
    let cells = puzzle.geometry().num_cells();
    FreeVars {
        starts: (0..=cells).map(|c| (c * n) as u32).collect(),
        digits: (0..cells).flat_map(|_| 1..=n as u16).collect(),
        contradictory: false,
    }
}

/// The digits given in each unit (reduced encodings; empty sets otherwise).
fn placed_digits(puzzle: &Grid, reduced: bool) -> Vec<DigitSet> {
    let geo = puzzle.geometry();
    let mut placed = vec![DigitSet::EMPTY; geo.num_units()];
    if reduced {
        for (cell, d) in puzzle.givens() {
            for unit in geo.units_of(cell) {
                placed[unit.0 as usize].insert(d);
            }
        }
    }
    placed
}

/// The cell and segment variables of one encoding of one puzzle.
struct Layout {
    free: FreeVars,
    placed: Vec<DigitSet>,
    segments: Option<Segments>,
}

impl Layout {
    fn of(puzzle: &Grid, enc: &SudokuEncoding) -> Layout {
        Layout::with_free(puzzle, enc, cell_vars(puzzle, enc.reduced))
    }

    /// The layout over cell variables `free` (a reduced encoding's, or fewer).
    fn with_free(puzzle: &Grid, enc: &SudokuEncoding, free: FreeVars) -> Layout {
        let segments = (enc.base == BaseEncoding::Augmented)
            .then(|| Segments::of(puzzle, &free, enc.reduced, free.len()));
        Layout {
            placed: placed_digits(puzzle, enc.reduced),
            free,
            segments,
        }
    }

    /// Cell plus segment variables: where the at-most-one auxiliaries start.
    fn first_aux(&self) -> usize {
        self.free.len() + self.segments.as_ref().map_or(0, Segments::count)
    }

    /// Walks every group of `enc` for `puzzle` into `out`.
    fn walk<G: GroupSink + ?Sized>(&self, puzzle: &Grid, enc: &SudokuEncoding, out: &mut G) {
        let geo = puzzle.geometry();
        let n = geo.side();
        let (free, reduced) = (&self.free, enc.reduced);
        let exactly = enc.base != BaseEncoding::Minimal;
        let pos = |i: usize| Var::from_index(i).positive();
        let mut group: Vec<Lit> = Vec::with_capacity(n);
        for cell in geo.cells() {
            if reduced && puzzle.get(cell).is_some() {
                continue;
            }
            group.clear();
            group.extend(free.cell_range(cell).map(pos));
            out.clause(&group);
            if exactly {
                out.at_most_one(&group);
            }
        }
        let mut buckets: Vec<Vec<Lit>> = vec![Vec::new(); n + 1];
        for unit in geo.units() {
            for bucket in &mut buckets {
                bucket.clear();
            }
            for &cell in geo.unit_cells(unit) {
                if reduced && puzzle.get(cell).is_some() {
                    continue;
                }
                for i in free.cell_range(cell) {
                    buckets[free.digits[i] as usize].push(pos(i));
                }
            }
            for d in geo.digits() {
                if self.placed[unit.0 as usize].contains(d) {
                    continue;
                }
                out.at_most_one(&buckets[d.get()]);
                if exactly {
                    out.clause(&buckets[d.get()]);
                }
            }
        }
        if let Some(segments) = &self.segments {
            segments.emit(puzzle, &self.free, &self.placed, out);
        }
        if !reduced {
            for (cell, d) in puzzle.givens() {
                out.clause(&[pos(cell.index() * n + d.get() - 1)]);
            }
        }
        if free.contradictory {
            out.clause(&[]);
        }
    }

    /// The groups' shape (a walk; the family does not matter).
    fn shape(&self, puzzle: &Grid, enc: &SudokuEncoding) -> GroupShape {
        let mut shape = GroupShape {
            plain: FormulaSize::default(),
            amo_lengths: Vec::new(),
            first_aux: self.first_aux(),
        };
        self.walk(puzzle, enc, &mut shape);
        shape
    }

    fn map(self, puzzle: &Grid, enc: &SudokuEncoding, aux: usize) -> VarMap {
        let extra = self.first_aux() - self.free.len() + aux;
        let map = if enc.reduced {
            VarMap::from_free_vars(puzzle, self.free)
        } else {
            VarMap::base(puzzle)
        };
        map.with_aux(extra)
    }
}

/// Streams `enc` for `puzzle` through the group walk and returns its map.
pub(crate) fn encode<S: ClauseSink + ?Sized>(
    puzzle: &Grid,
    enc: &SudokuEncoding,
    sink: &mut S,
) -> VarMap {
    encode_layout(Layout::of(puzzle, enc), puzzle, enc, sink)
}

/// [`encode`] over the cell variables `free` of a reduced encoding.
pub(crate) fn encode_free<S: ClauseSink + ?Sized>(
    puzzle: &Grid,
    enc: &SudokuEncoding,
    free: FreeVars,
    sink: &mut S,
) -> VarMap {
    encode_layout(Layout::with_free(puzzle, enc, free), puzzle, enc, sink)
}

fn encode_layout<S: ClauseSink + ?Sized>(
    layout: Layout,
    puzzle: &Grid,
    enc: &SudokuEncoding,
    sink: &mut S,
) -> VarMap {
    let first = layout.first_aux();
    sink.reserve_vars(first);
    let mut emit = Emit {
        sink,
        family: enc.amo,
        aux: AuxVars::starting_at(first),
    };
    layout.walk(puzzle, enc, &mut emit);
    let end = emit.aux.end();
    emit.sink.reserve_vars(end);
    layout.map(puzzle, enc, end - first)
}

/// One pseudo-Boolean constraint of a group walk: the literals, and whether their sum is
/// at least one, at most one or exactly one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cardinality {
    pub(crate) lits: Vec<Lit>,
    pub(crate) at_least: bool,
    pub(crate) at_most: bool,
}

/// Collects the groups of a walk as cardinality constraints, an "at least one" and an "at
/// most one" over the same literals, one after the other, merged into "exactly one".
#[derive(Default)]
struct Cardinalities(Vec<Cardinality>);

impl Cardinalities {
    fn push(&mut self, lits: &[Lit], at_least: bool) {
        if let Some(last) = self.0.last_mut() {
            // The other half of the group just before: the two make "exactly one".
            let has_this_half = if at_least {
                last.at_least
            } else {
                last.at_most
            };
            if last.lits == lits && !has_this_half {
                last.at_least |= at_least;
                last.at_most |= !at_least;
                return;
            }
        }
        self.0.push(Cardinality {
            lits: lits.to_vec(),
            at_least,
            at_most: !at_least,
        });
    }
}

impl GroupSink for Cardinalities {
    fn clause(&mut self, lits: &[Lit]) {
        self.push(lits, true);
    }
    fn at_most_one(&mut self, lits: &[Lit]) {
        // A group of one literal constrains nothing from above.
        if lits.len() > 1 {
            self.push(lits, false);
        }
    }
}

/// The groups of `enc` for `puzzle` as cardinality constraints over its cell (and
/// segment) variables, no at-most-one auxiliaries: what a pseudo-Boolean solver reads.
pub(crate) fn cardinalities(puzzle: &Grid, enc: &SudokuEncoding) -> (Vec<Cardinality>, VarMap) {
    let layout = Layout::of(puzzle, enc);
    let mut out = Cardinalities::default();
    layout.walk(puzzle, enc, &mut out);
    let map = layout.map(puzzle, enc, 0);
    (out.0, map)
}

/// The groups of one encoding of one puzzle by length, whatever the at-most-one family:
/// the plain clauses counted, the at-most-one groups as a histogram of their lengths.
/// Every family's size follows from it without another walk.
pub(crate) struct GroupShape {
    plain: FormulaSize,
    /// `amo_lengths[k]`: at-most-one groups of k literals.
    amo_lengths: Vec<usize>,
    first_aux: usize,
}

impl GroupSink for GroupShape {
    fn clause(&mut self, lits: &[Lit]) {
        self.plain.clauses += 1;
        self.plain.literals += lits.len();
    }

    fn at_most_one(&mut self, lits: &[Lit]) {
        if self.amo_lengths.len() <= lits.len() {
            self.amo_lengths.resize(lits.len() + 1, 0);
        }
        self.amo_lengths[lits.len()] += 1;
    }
}

impl GroupShape {
    /// One walk over the groups of `enc` (its family does not matter).
    pub(crate) fn of(puzzle: &Grid, enc: &SudokuEncoding) -> GroupShape {
        Layout::of(puzzle, enc).shape(puzzle, enc)
    }

    /// The size with the at-most-one groups written in `family`.
    pub(crate) fn size(&self, family: AmoFamily) -> FormulaSize {
        let mut size = FormulaSize {
            vars: self.first_aux,
            ..self.plain
        };
        for (k, &groups) in self.amo_lengths.iter().enumerate() {
            let s = family.size(k);
            size.clauses += groups * s.clauses;
            size.literals += groups * s.literals();
            size.vars += groups * s.aux;
        }
        size
    }
}

/// The size of `enc` for `puzzle` by a walk over the groups (no clause is generated).
pub(crate) fn size(puzzle: &Grid, enc: &SudokuEncoding) -> FormulaSize {
    GroupShape::of(puzzle, enc).size(enc.amo)
}

/// The map of `enc` for `puzzle`, with its auxiliary count (a walk, no clause generated).
pub(crate) fn var_map(puzzle: &Grid, enc: &SudokuEncoding) -> VarMap {
    layout_map(Layout::of(puzzle, enc), puzzle, enc)
}

/// [`size`] over the cell variables `free` of a reduced encoding.
pub(crate) fn size_free(puzzle: &Grid, enc: &SudokuEncoding, free: FreeVars) -> FormulaSize {
    Layout::with_free(puzzle, enc, free)
        .shape(puzzle, enc)
        .size(enc.amo)
}

/// [`var_map`] over the cell variables `free` of a reduced encoding.
pub(crate) fn var_map_free(puzzle: &Grid, enc: &SudokuEncoding, free: FreeVars) -> VarMap {
    layout_map(Layout::with_free(puzzle, enc, free), puzzle, enc)
}

fn layout_map(layout: Layout, puzzle: &Grid, enc: &SudokuEncoding) -> VarMap {
    let shape = layout.shape(puzzle, enc);
    let aux = shape.size(enc.amo).vars - shape.first_aux;
    layout.map(puzzle, enc, aux)
}

/// Closed-form size of an unreduced encoding on an n×n grid (box size b) with `givens`
/// givens: n² cell groups and 3n² unit-digit groups of n literals; for the augmented
/// encoding also 2bn² segments and 4n² exactly-one groups of b segments.
pub fn base_size(enc: &SudokuEncoding, b: usize, givens: usize) -> FormulaSize {
    let n = b * b;
    let n2 = n * n;
    let amo_n = enc.amo.size(n);
    let mut size = FormulaSize {
        vars: n2 * n,
        clauses: n2 + givens,
        literals: n2 * n + givens,
    };
    let mut add = |groups: usize, clauses: usize, literals: usize, aux: usize| {
        size.clauses += groups * clauses;
        size.literals += groups * literals;
        size.vars += groups * aux;
    };
    // Units × digits, at most one each.
    add(3 * n2, amo_n.clauses, amo_n.literals(), amo_n.aux);
    if enc.base != BaseEncoding::Minimal {
        // Cells at most one, units × digits at least one.
        add(n2, amo_n.clauses, amo_n.literals(), amo_n.aux);
        add(3 * n2, 1, n, 0);
    }
    if enc.base == BaseEncoding::Augmented {
        let amo_b = enc.amo.size(b);
        // Segments: a variable, b + 1 defining clauses with 3b + 1 literals.
        add(2 * b * n2, b + 1, 3 * b + 1, 1);
        // Exactly one over the b segments of each row, column, and twice per box.
        add(4 * n2, 1 + amo_b.clauses, b + amo_b.literals(), amo_b.aux);
    }
    size
}
