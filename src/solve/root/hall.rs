//! Hall sets of every row, column and box, and of each digit's rows against its columns
//! (fish of any size), by Régin's filtering (`alldifferent.rs`) on a matching kept from
//! one round to the next, on the views whose candidates changed since they were last
//! filtered.

use super::candidates::Bits;
use super::state::{Contradiction, Halt, Rule, State};
use crate::alldifferent::{components, repair, Mask};

impl State {
    /// Every changed row, column and box: open cells against missing digits. The singles
    /// each view's removals make are placed before the next view is filtered.
    pub(super) fn units(&mut self) -> Result<(), Halt> {
        let n = self.n;
        for unit in 0..3 * n {
            if !std::mem::take(&mut self.changed[unit]) {
                continue;
            }
            let open = self.all.minus(self.unit_fixed[unit]);
            let placed = self.unit_placed[unit];
            if open.count() + placed.count() != n as u32 {
                return Err(Halt::Contradiction);
            }
            open.each(|k| {
                self.adj[k] = self
                    .cand(self.unit_cells[unit * n + k] as usize)
                    .minus(placed);
            });
            self.filter(unit, open)?;
            let mut consistent = Ok(());
            open.each(|k| {
                if consistent.is_ok() {
                    let cell = self.unit_cells[unit * n + k] as usize;
                    consistent = self.keep(cell, self.adj[k], Rule::Unit);
                }
            });
            consistent?;
            self.singles()?;
            self.within_allowance()?;
        }
        Ok(())
    }

    /// Each changed digit: rows without it placed against columns without it placed, the
    /// edges read off the rows' places.
    pub(super) fn digits(&mut self) -> Result<(), Halt> {
        let (n, all) = (self.n, self.all);
        for d in 0..n {
            if !std::mem::take(&mut self.changed[3 * n + d]) {
                continue;
            }
            let (placed_rows, placed_columns) = self.placed[d];
            let rows = all.minus(placed_rows);
            if rows.count() != all.minus(placed_columns).count() {
                return Err(Halt::Contradiction);
            }
            rows.each(|r| self.adj[r] = self.places[self.slot(r, d)].minus(placed_columns));
            self.filter(3 * n + d, rows)?;
            let mut consistent = Ok(());
            rows.each(|r| {
                let gone = self.places[self.slot(r, d)]
                    .minus(placed_columns)
                    .minus(self.adj[r]);
                gone.each(|c| {
                    if consistent.is_ok() {
                        let cell = r * n + c;
                        let rest = self.cand(cell).minus(Bits::bit(d));
                        consistent = self.keep(cell, rest, Rule::Fish);
                    }
                });
            });
            consistent?;
            self.singles()?;
            self.within_allowance()?;
        }
        Ok(())
    }

    /// `Err(Halt::Unpaid)` once the Hall rounds have spent more than their allowance.
    pub(super) fn within_allowance(&self) -> Result<(), Halt> {
        let Some(allowance) = self.allowance else {
            return Ok(());
        };
        let spent = self.removals.work - allowance.work;
        let removed = allowance.literals - self.removals.literals_after;
        let allowed = (allowance.probe.saturating_mul(allowance.literals))
            .saturating_add(allowance.price.saturating_mul(removed));
        if spent > allowed {
            return Err(Halt::Unpaid);
        }
        Ok(())
    }

    /// Whether a Hall round has a view to filter.
    pub(super) fn hall_pending(&self) -> bool {
        self.changed[..4 * self.n].iter().any(|&c| c)
    }

    /// Régin's filtering of `view` (edges in `adj`, left vertices `open`): removes from
    /// `adj` every edge no perfect matching uses. `Err` on a Hall violator.
    fn filter(&mut self, view: usize, open: Bits) -> Result<(), Contradiction> {
        let n = self.n;
        let left = &mut self.left[view * n..view * n + n];
        let right = &mut self.right[view * n..view * n + n];
        if repair(&self.adj, open, left, right).is_err() {
            return Err(Contradiction);
        }
        let edges = components(&mut self.adj, open, left, right, &mut self.components);
        let work = u64::from(open.count()) + edges;
        self.removals.work += work;
        self.removals.hall_work += work;
        Ok(())
    }
}
