//! Hall sets on the grid theory's masks, through matchings kept across calls.
//!
//! Each *view* is an all-different constraint as a bipartite graph of at most 64 + 64
//! vertices, read off the theory's masks without copying them, and filtered by Régin's
//! algorithm on a matching kept between calls ([`crate::alldifferent`]):
//!
//! - a **unit** (row, column, box): its open cells against its missing digits, a cell's
//!   edges being its candidate mask;
//! - a **digit** (the dual view): the rows against the columns that still lack it, a row's
//!   edges being the digit's position mask in that row. A Hall set here is a fish (X-wing,
//!   swordfish, jellyfish): k rows whose places for the digit lie in k columns.
//!
//! A backtrack only gives edges back, so the matchings are never undone.
//!
//! The reason for removing (i, j) is the Hall set the vertex matched to j reaches: cells X
//! that hold only the digits D matched to them, |X| = |D|, `j ∈ D`, `i ∉ X`. Its clause is
//! `¬(i, j) ∨ ⋁ (x, e)` over the cells x of X and their digits e outside D (every digit
//! with a variable, so the clause holds in every solution whatever else is assigned). A
//! matching that cannot cover a vertex is a Hall violator (k cells with fewer than k
//! digits), whose clause is the conflict.

use super::{Cause, GridTheory, Lit};
use crate::alldifferent::{closure, mates, removable, repair, Mask, FREE};

/// The kept matchings of every view, and scratch space for one view.
pub(super) struct Matchings {
    /// Per view and left vertex (`view · n + i`): its mate on the right, or [`FREE`].
    left: Vec<u16>,
    /// Per view and right vertex: its mate on the left, or [`FREE`].
    right: Vec<u16>,
    /// Views changed since they were last filtered, without repeats.
    dirty: Vec<u16>,
    is_dirty: Vec<bool>,
    /// One view's edges (masked to its open right vertices) and reachability.
    adj: Vec<u64>,
    reach: Vec<u64>,
    /// The edges one view removes: left and right vertex, Hall set and its mates.
    removals: Vec<(u8, u8, u64, u64)>,
}

impl Matchings {
    /// Matchings of the 3n units (with `units`) and the n digits (with `digits`) of a grid
    /// of side `n`, each to be filtered first.
    pub(super) fn new(n: usize, units: bool, digits: bool) -> Matchings {
        let views = 4 * n;
        let mut matchings = Matchings {
            left: vec![FREE; views * n],
            right: vec![FREE; views * n],
            dirty: Vec::new(),
            is_dirty: vec![false; views],
            adj: vec![0; n],
            reach: vec![0; n],
            removals: Vec::new(),
        };
        let first = if units { 0 } else { 3 * n };
        let end = if digits { views } else { 3 * n };
        for view in first..end {
            matchings.mark(view);
        }
        matchings
    }

    #[inline]
    pub(super) fn mark(&mut self, view: usize) {
        if !self.is_dirty[view] {
            self.is_dirty[view] = true;
            self.dirty.push(view as u16);
        }
    }

    pub(super) fn has_dirty(&self) -> bool {
        !self.dirty.is_empty()
    }
}

impl GridTheory {
    /// Whether Hall sets run now: enabled, and at a decision level within the budget.
    pub(super) fn hall_due(&self) -> bool {
        (self.reasoning.hall || self.reasoning.fish)
            && self.level_marks.len() <= self.reasoning.hall_depth
            && self.matchings.has_dirty()
    }

    /// Marks the views an assignment to (`cell`, `digit`) changes.
    #[inline]
    pub(super) fn mark_views(&mut self, cell: usize, digit: usize) {
        if self.reasoning.hall {
            for (unit, _) in self.cell_units[cell] {
                self.matchings.mark(unit as usize);
            }
        }
        if self.reasoning.fish {
            self.matchings.mark(3 * self.n + digit);
        }
    }

    /// Filters every changed view: fills `pending`, or `conflict` on a Hall violator.
    pub(super) fn hall_round(&mut self) {
        let dirty = std::mem::take(&mut self.matchings.dirty);
        for &view in &dirty {
            self.matchings.is_dirty[view as usize] = false;
            if !self.has_conflict {
                self.filter_view(view as usize);
            }
        }
        self.matchings.dirty = dirty;
        self.matchings.dirty.clear();
    }

    /// The open left and right vertices of `view` and its edges into `matchings.adj`;
    /// `None` when the masks are not at the fixpoint of singles (a placed digit still a
    /// candidate of an open cell), where the view waits for the next round.
    fn load_view(&mut self, view: usize) -> Option<(u64, u64)> {
        let n = self.n;
        let full = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        let (mut open_left, open_right);
        if view < 3 * n {
            open_left = 0;
            open_right = full & !self.placed[view];
            for i in 0..n {
                let cell = self.unit_cells[view * n + i] as usize;
                if self.value[cell] == 0 {
                    open_left |= 1 << i;
                    self.matchings.adj[i] = self.cand[cell];
                }
            }
        } else {
            let digit = view - 3 * n;
            let (mut rows, mut columns) = (0u64, 0u64);
            for k in 0..n {
                rows |= ((self.placed[k] >> digit & 1) ^ 1) << k;
                columns |= ((self.placed[n + k] >> digit & 1) ^ 1) << k;
            }
            (open_left, open_right) = (rows, columns);
            let mut rest = rows;
            while rest != 0 {
                let r = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.matchings.adj[r] = self.pos[r << self.shift | digit];
            }
        }
        if open_left.count_ones() != open_right.count_ones() {
            return None;
        }
        let mut rest = open_left;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.matchings.adj[i] & !open_right != 0 {
                return None;
            }
        }
        Some((open_left, open_right))
    }

    fn filter_view(&mut self, view: usize) {
        let n = self.n;
        let Some((open, _)) = self.load_view(view) else {
            return;
        };
        let max_set = self.reasoning.max_hall_set;
        let Matchings {
            left,
            right,
            adj,
            reach,
            removals,
            ..
        } = &mut self.matchings;
        let (left, right) = (
            &mut left[view * n..view * n + n],
            &mut right[view * n..view * n + n],
        );
        if let Err((cells, digits)) = repair(adj, open, left, right) {
            if cells.count() <= max_set {
                self.hall_conflict(view, cells, digits);
            }
            return;
        }
        closure(adj, open, right, reach);
        removals.clear();
        removable(adj, open, left, right, reach, |i, j, cells| {
            if cells.count() <= max_set {
                removals.push((i as u8, j as u8, cells, mates(cells, left)));
            }
        });
        let removals = std::mem::take(&mut self.matchings.removals);
        let counter = if view >= 3 * n { 4 } else { 3 };
        for &(i, j, cells, digits) in &removals {
            let (cell, digit) = self.edge(view, i as usize, j as usize);
            let lit = self.lit_of(cell, digit, false);
            self.counters[counter] += 1;
            self.imply(
                lit,
                Cause::Hall {
                    view: view as u16,
                    cells,
                    digits,
                },
            );
        }
        self.matchings.removals = removals;
    }

    /// The (cell, digit) of edge (`i`, `j`) of `view`.
    #[inline]
    fn edge(&self, view: usize, i: usize, j: usize) -> (usize, usize) {
        let n = self.n;
        if view < 3 * n {
            (self.unit_cells[view * n + i] as usize, j)
        } else {
            (i * n + j, view - 3 * n)
        }
    }

    /// The right vertices of left vertex `i` of `view` that have a variable.
    #[inline]
    fn alive_edges(&self, view: usize, i: usize) -> u64 {
        let n = self.n;
        if view < 3 * n {
            self.alive[self.unit_cells[view * n + i] as usize]
        } else {
            self.alive_pos[i << self.shift | (view - 3 * n)]
        }
    }

    /// `⋁ (x, e)` over the left vertices x of `cells` and their alive right vertices e
    /// outside `digits`, into `out`.
    pub(super) fn write_hall_set(&self, view: usize, cells: u64, digits: u64, out: &mut Vec<Lit>) {
        let mut rest = cells;
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut outside = self.alive_edges(view, x) & !digits;
            while outside != 0 {
                let e = outside.trailing_zeros() as usize;
                outside &= outside - 1;
                let (cell, digit) = self.edge(view, x, e);
                out.push(self.lit_of(cell, digit, true));
            }
        }
    }

    fn hall_conflict(&mut self, view: usize, cells: u64, digits: u64) {
        let mut conflict = std::mem::take(&mut self.conflict);
        conflict.clear();
        self.write_hall_set(view, cells, digits, &mut conflict);
        self.conflict = conflict;
        self.has_conflict = true;
        self.counters[2] += 1;
    }
}
