//! Locked candidates (pointing and claiming): a digit whose places in a box lie in one
//! line leaves the rest of that line, and one whose places in a line lie in one box
//! leaves the rest of that box.

use super::candidates::Bits;
use super::state::{Contradiction, Rule, State};
use crate::alldifferent::Mask;

/// Per box size: the segments and strides of a unit's places.
pub(super) struct Lines {
    /// Places `j · b .. j · b + b` for each j: a segment of a line (the columns or rows
    /// of one box), or row j of a box.
    segment: Vec<Bits>,
    /// Places `{i · b + j}` for each j: column j of a box.
    stride: Vec<Bits>,
}

impl Lines {
    pub(super) fn new(b: usize) -> Lines {
        Lines {
            segment: (0..b)
                .map(|j| (j * b..j * b + b).fold(Bits::EMPTY, |m, k| m.union(Bits::bit(k))))
                .collect(),
            stride: (0..b)
                .map(|j| (0..b).fold(Bits::EMPTY, |m, i| m.union(Bits::bit(i * b + j))))
                .collect(),
        }
    }
}

impl State {
    /// Locked candidates in each unit changed since it was last looked at, read off its
    /// digits' places.
    pub(super) fn locked(&mut self, lines: &Lines) -> Result<(), Contradiction> {
        let n = self.n;
        for unit in 0..3 * n {
            if !std::mem::take(&mut self.changed[4 * n + unit]) {
                continue;
            }
            let digits = self.all.minus(self.unit_placed[unit]);
            self.removals.work += u64::from(digits.count());
            let mut consistent = Ok(());
            digits.each(|d| {
                if consistent.is_ok() {
                    consistent = self.lock(lines, unit, d);
                }
            });
            consistent?;
        }
        Ok(())
    }

    /// Whether a unit changed since locked candidates last looked at it.
    pub(super) fn locked_pending(&self) -> bool {
        self.changed[4 * self.n..].iter().any(|&c| c)
    }

    /// Locked candidates of digit `d`, not placed in `unit`.
    fn lock(&mut self, lines: &Lines, unit: usize, d: usize) -> Result<(), Contradiction> {
        let (b, n) = (self.b, self.n);
        let places = self.places[self.slot(unit, d)];
        let Some(first) = places.first() else {
            return Err(Contradiction);
        };
        // One place is a single, which the queue places.
        if places.count() == 1 {
            return Ok(());
        }
        // The other unit holding every place, and its places inside this one.
        let (target, inside) = if unit >= 2 * n {
            let bx = unit - 2 * n;
            let (i, j) = (first / b, first % b);
            if lines.segment[i].contains(places) {
                ((bx / b) * b + i, lines.segment[bx % b])
            } else if lines.stride[j].contains(places) {
                (n + (bx % b) * b + j, lines.segment[bx / b])
            } else {
                return Ok(());
            }
        } else {
            let j = first / b;
            if !lines.segment[j].contains(places) {
                return Ok(());
            }
            let line = unit % n;
            let (bx, inside) = if unit < n {
                ((line / b) * b + j, lines.segment[line % b])
            } else {
                (j * b + line / b, lines.stride[line % b])
            };
            (2 * n + bx, inside)
        };
        let outside = self.places[self.slot(target, d)].minus(inside);
        let mut consistent = Ok(());
        outside.each(|k| {
            if consistent.is_ok() {
                let cell = self.unit_cells[target * n + k] as usize;
                let rest = self.cand(cell).minus(Bits::bit(d));
                consistent = self.keep(cell, rest, Rule::Locked);
            }
        });
        consistent
    }
}
