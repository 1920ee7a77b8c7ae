//! Whether a puzzle keeps one solution once some of its givens go, when that solution is
//! known. The puzzle less those givens is reasoned on at the root as `solve` does by
//! default ([`RootPolicy::AUTO`]); a blanked cell it fixes can only hold the solution's
//! digit, and when it fixes them all the answer is yes. Otherwise what it leaves is
//! encoded with a clause saying "one of the blanked cells still open differs from the
//! solution", and cdcl refutes it or finds another solution (the givens that stay keep
//! every other cell as it was, so any other solution differs on a blanked cell). One
//! refutation, where counting to two finds the known solution first.
//!
//! The answer is a fact about the puzzle, not about how it was proved: the reasoning only
//! shortens the proof (on a 400×400 grid, the search alone loads millions of literals for
//! each check), so a maker built on it makes the grids a search alone would, a check past
//! its time limit aside. It runs at every side: on the hard 25×25 puzzles of
//! `examples/hard_puzzle`, where `solve` leaves it out, one seed gave the same puzzle in
//! 745 s against 845 s with a search alone.

use std::time::{Duration, Instant};

use crate::backend::{Cdcl, LimitTime, SatBackend, SatOutcome};
use crate::encode::{BaseEncoding, SudokuEncoding, VarRef};
use crate::formula::ClauseSink;
use crate::grid::{Cell, Grid};
use crate::solve::root::{root_fixpoint, RootOutcome, RootPolicy};

/// What [`unique_without`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// The known solution is still the only one.
    Unique,
    /// Another solution exists.
    Several,
    /// The search ran past its time limit.
    Unknown,
}

/// Whether `puzzle` with `blanked` cells blanked too still has `solution` as its only
/// solution (`puzzle` must have it as its only one), by a search of at most `limit`.
pub fn unique_without(
    puzzle: &Grid,
    solution: &Grid,
    blanked: &[Cell],
    limit: Option<Duration>,
) -> Uniqueness {
    let deadline = limit.map(|limit| Instant::now() + limit);
    let past_deadline = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    let mut less = puzzle.clone();
    for &cell in blanked {
        less.set(cell, None);
    }
    let root = match root_fixpoint(&less, RootPolicy::AUTO, past_deadline) {
        RootOutcome::Candidates(root) | RootOutcome::Unpaid(root) => root,
        RootOutcome::Stopped(_) => return Uniqueness::Unknown,
        // No solution at all (a puzzle without `solution`, against the contract): none
        // other than it either, as a refutation of the formula would say.
        RootOutcome::Contradiction(_) => return Uniqueness::Unique,
    };
    let fixed = root.fixed_grid();
    let open: Vec<Cell> = blanked
        .iter()
        .copied()
        .filter(|&cell| fixed.get(cell).is_none())
        .collect();
    if open.is_empty() {
        return Uniqueness::Unique;
    }
    let (map, mut cnf) = root.to_cnf(SudokuEncoding::new(BaseEncoding::Extended, true));
    let differs: Vec<_> = open
        .iter()
        .filter_map(|&cell| {
            let digit = solution.get(cell).expect("a full grid");
            match map.var(cell, digit) {
                VarRef::Var(var) => Some(var.lit(false)),
                _ => None,
            }
        })
        .collect();
    cnf.add_clause(&differs);
    let mut solver = Cdcl::new();
    solver.set_time_limit(
        deadline.map(|deadline| deadline.saturating_duration_since(Instant::now())),
    );
    solver.add_formula(&mut cnf);
    match solver.solve() {
        Ok(SatOutcome::Unsat) => Uniqueness::Unique,
        Ok(SatOutcome::Sat(_)) => Uniqueness::Several,
        Err(_) => Uniqueness::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::dlx;

    /// Against Dancing Links' count: blanking each cell of a minimal-ish 9×9 puzzle's
    /// givens in turn, and a handful at once.
    #[test]
    fn agrees_with_a_count_to_two() {
        let puzzle: Grid =
            "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
                .parse()
                .unwrap();
        let solution = dlx::search(&puzzle, 1).unwrap().first.unwrap();
        let givens: Vec<Cell> = puzzle.givens().map(|(cell, _)| cell).collect();
        let mut seen = [0; 2];
        for k in 0..givens.len() {
            for blanked in [&givens[k..k + 1], &givens[k..(k + 6).min(givens.len())]] {
                let mut less = puzzle.clone();
                for &cell in blanked {
                    less.set(cell, None);
                }
                let count = dlx::search(&less, 2).unwrap().solutions;
                let expected = if count == 1 {
                    Uniqueness::Unique
                } else {
                    Uniqueness::Several
                };
                assert_eq!(
                    unique_without(&puzzle, &solution, blanked, None),
                    expected,
                    "{blanked:?}"
                );
                seen[usize::from(count == 1)] += 1;
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    }

    /// Where the reasoning leaves a blanked cell open, the search decides: Inkala's puzzle
    /// (one solution, not settled at the root) with one cell of its solution added, then
    /// blanked again.
    #[test]
    fn the_search_decides_what_the_reasoning_leaves_open() {
        let hard = crate::solve::testing::inkala();
        let solution = dlx::search(&hard, 1).unwrap().first.unwrap();
        let RootOutcome::Candidates(root) = root_fixpoint(&hard, RootPolicy::AUTO, || false) else {
            panic!("a puzzle with a solution")
        };
        let fixed = root.fixed_grid();
        let open = (0..81)
            .map(Cell)
            .find(|&cell| fixed.get(cell).is_none())
            .expect("the reasoning leaves cells open");
        let mut more = hard.clone();
        more.set(open, solution.get(open));
        assert_eq!(
            unique_without(&more, &solution, &[open], None),
            Uniqueness::Unique
        );
        assert_eq!(
            unique_without(&hard, &solution, &[], None),
            Uniqueness::Unique
        );
    }
}
