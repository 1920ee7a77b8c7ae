//! The order of the rules and when to stop: the cheap rules to their fixpoint first, then
//! rounds of Hall sets and fish, each followed by the cheap rules again, for as long as
//! the policy allows.

use super::candidates::{RootOutcome, RootRemovals};
use super::locked::Lines;
use super::mode::{RootMode, RootPolicy};
use super::state::{Allowance, Contradiction, Halt, State};
use crate::grid::Grid;

/// Reasoning before the encoding as `mode` asks for it on `puzzle`'s side (none: `None`),
/// until the policy stops it or `stop` says so.
pub fn reason_at_root(
    puzzle: &Grid,
    mode: RootMode,
    stop: impl Fn() -> bool,
) -> Option<RootOutcome> {
    mode.policy(puzzle.side())
        .map(|policy| root_fixpoint(puzzle, policy, stop))
}

/// Reasons on `puzzle`: the givens and singles, then locked candidates, to their
/// fixpoint; then, while `policy` allows, a round of Hall sets and fish over the views
/// changed since the last round and the cheap rules again. `stop` is asked before each
/// round.
pub fn root_fixpoint(puzzle: &Grid, policy: RootPolicy, stop: impl Fn() -> bool) -> RootOutcome {
    let mut state = match State::new(puzzle) {
        Ok(state) => state,
        Err(Contradiction) => return RootOutcome::Contradiction(RootRemovals::default()),
    };
    let lines = Lines::new(state.b);
    loop {
        if stop() {
            return RootOutcome::Stopped(state.into_candidates());
        }
        if state.cheap(&lines).is_err() {
            return RootOutcome::Contradiction(state.removals);
        }
        if state.settled() || !state.hall_pending() {
            return RootOutcome::Candidates(state.into_candidates());
        }
        if state.allowance.is_none() {
            if let RootPolicy::WhilePaying { price, probe } = policy {
                state.allowance = Some(Allowance {
                    price,
                    probe,
                    work: state.removals.work,
                    literals: state.removals.literals_after,
                });
            }
        }
        state.removals.rounds += 1;
        match state.units().and_then(|()| state.digits()) {
            Ok(()) => {}
            Err(Halt::Contradiction) => return RootOutcome::Contradiction(state.removals),
            Err(Halt::Unpaid) => return RootOutcome::Unpaid(state.into_candidates()),
        }
    }
}

impl State {
    /// Singles and locked candidates to their fixpoint.
    fn cheap(&mut self, lines: &Lines) -> Result<(), Contradiction> {
        loop {
            self.singles()?;
            if !self.locked_pending() {
                return Ok(());
            }
            self.locked(lines)?;
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::SudokuEncoding;
    use crate::grid::{Cell, Digit};
    use crate::solve::dlx;

    /// The CNF of a pruned puzzle declares in its header the clauses it holds, for every
    /// encoding and family and both forms (its size comes from walks, not the clauses).
    #[test]
    fn the_pruned_formula_holds_the_clauses_its_header_declares() {
        use crate::encode::{write_pruned_cnf, Encoding, PrunedForm};
        let puzzle: Grid =
            "400750000500400600000000009000548000000000000300160204028000000000000810009070003"
                .parse()
                .unwrap();
        let pruned = fixpoint(&puzzle).pruned(&puzzle, RootMode::Hall);
        assert!(
            !pruned.removed.is_empty(),
            "the fixpoint removes candidates here"
        );
        for encoding in SudokuEncoding::all_families() {
            for form in [PrunedForm::Units, PrunedForm::Simplified] {
                let mut out = Vec::new();
                let size = write_pruned_cnf(&mut out, &encoding, &pruned, form, |_, _| {}).unwrap();
                let text = String::from_utf8(out).unwrap();
                let clauses = text.lines().filter(|l| !l.starts_with(['c', 'p'])).count();
                let header = format!("p cnf {} {}\n", size.vars, size.clauses);
                assert!(text.contains(&header), "{} {form:?}", encoding.name());
                assert_eq!(clauses, size.clauses, "{} {form:?}", encoding.name());
            }
        }
    }

    fn fixpoint(puzzle: &Grid) -> RootOutcome {
        root_fixpoint(puzzle, RootPolicy::Fixpoint, || false)
    }

    /// An easy 9×9 puzzle is solved by singles alone, with no Hall round; the fixed grid is
    /// its solution.
    #[test]
    fn an_easy_puzzle_is_settled_without_search() {
        let puzzle: Grid =
            "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
                .parse()
                .unwrap();
        let RootOutcome::Candidates(root) = fixpoint(&puzzle) else {
            panic!("a solvable puzzle")
        };
        assert_eq!(root.fixed_cells(), 81);
        assert_eq!((root.removals.rounds, root.removals.hall_work), (0, 0));
        let solved = root.fixed_grid();
        assert!(crate::grid::check_solution(&puzzle, &solved).is_valid());
    }

    /// Stopped before the first pass, a cell has lost only the digits its peers are given
    /// (what the encoder's reduction removes too): what the formula gets is still sound.
    #[test]
    fn a_stop_before_the_first_pass_keeps_what_the_givens_allow() {
        let puzzle: Grid =
            "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
                .parse()
                .unwrap();
        let RootOutcome::Stopped(root) = root_fixpoint(&puzzle, RootPolicy::Fixpoint, || true)
        else {
            panic!("asked to stop at once")
        };
        assert_eq!(root.removals.rounds, 0);
        let geo = puzzle.geometry();
        let mut left = 0;
        for cell in geo.cells() {
            for d in 1..=9 {
                let digit = Digit(d);
                let allowed = match puzzle.get(cell) {
                    Some(given) => given == digit,
                    None => geo.units_of(cell).iter().all(|&unit| {
                        geo.unit_cells(unit)
                            .iter()
                            .all(|&peer| puzzle.get(peer) != Some(digit))
                    }),
                };
                assert_eq!(root.has(cell, digit), allowed, "{cell:?} {digit:?}");
                left += u64::from(allowed);
            }
        }
        assert_eq!(root.candidates(), left);
        assert_eq!(
            root.removed(),
            81 * 9 - left - 8 * puzzle.num_givens() as u64
        );
    }

    /// An allowance of nothing stops after the first view of the first round with what
    /// the rules removed so far, and that keeps the solution; an allowance without limit
    /// goes to the fixpoint, as `hall` does. On the first expert puzzle whose Hall sets
    /// remove more than the cheap rules.
    #[test]
    fn an_unpaid_round_hands_over_sound_candidates() {
        let (puzzle, full) = include_str!("../../../tests/fixtures/expert-20.txt")
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| line.parse::<Grid>().unwrap())
            .find_map(|puzzle| match fixpoint(&puzzle) {
                RootOutcome::Candidates(full) if full.removals.units + full.removals.fish > 0 => {
                    Some((puzzle, full))
                }
                _ => None,
            })
            .expect("an expert puzzle with Hall sets beyond singles");
        let solution = dlx::search(&puzzle, 1).unwrap().first.unwrap();
        let never = RootPolicy::WhilePaying { price: 0, probe: 0 };
        let RootOutcome::Unpaid(root) = root_fixpoint(&puzzle, never, || false) else {
            panic!("an allowance of nothing is spent at once")
        };
        assert_eq!(root.removals.rounds, 1);
        for (cell, digit) in solution.givens() {
            assert!(root.has(cell, digit), "{cell:?} keeps {digit:?}");
        }
        let always = RootPolicy::WhilePaying {
            price: u64::MAX,
            probe: u64::MAX,
        };
        let RootOutcome::Candidates(always) = root_fixpoint(&puzzle, always, || false) else {
            panic!("a puzzle with a solution reaches the fixpoint")
        };
        assert_eq!(always.removals, full.removals);
        assert!(root.removals.literals_after > always.removals.literals_after);
    }

    /// Two givens of one digit in a row: a contradiction.
    #[test]
    fn a_repeated_digit_is_a_contradiction() {
        let mut puzzle = Grid::empty(2).unwrap();
        puzzle.set(Cell(0), Some(Digit(1)));
        puzzle.set(Cell(3), Some(Digit(1)));
        assert!(matches!(fixpoint(&puzzle), RootOutcome::Contradiction(_)));
    }

    /// The candidates keep the solution, and the formula with the removals as units is
    /// satisfiable exactly when the puzzle is, its model decoding to a solution: on
    /// puzzles with one, several and no solutions.
    #[test]
    fn the_candidates_and_the_formula_keep_the_solutions() {
        use crate::backend::{Cdcl, SatBackend, SatOutcome};
        use crate::encode::BaseEncoding;
        let solved: Grid =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let encoding = SudokuEncoding::new(BaseEncoding::Extended, true);
        let mut puzzles = vec![
            // Unique and hard: the first of the expert fixture.
            include_str!("../../../tests/fixtures/expert-20.txt")
                .lines()
                .find(|line| !line.starts_with('#'))
                .unwrap()
                .parse::<Grid>()
                .unwrap(),
        ];
        for (step, change) in [(2usize, false), (4, false), (5, false), (3, true)] {
            let mut puzzle = solved.clone();
            for c in (0..81).filter(|c| c % step != 0) {
                puzzle.set(Cell(c as u32), None);
            }
            if change {
                puzzle.set(Cell(0), Some(Digit(4)));
            }
            puzzles.push(puzzle);
        }
        let mut outcomes = [0; 3];
        for (step, puzzle) in puzzles.into_iter().enumerate() {
            let dlx = dlx::search(&puzzle, 2).unwrap();
            let root = match fixpoint(&puzzle) {
                RootOutcome::Contradiction(_) => {
                    assert_eq!(dlx.solutions, 0, "puzzle {step}");
                    outcomes[0] += 1;
                    continue;
                }
                RootOutcome::Stopped(_) | RootOutcome::Unpaid(_) => unreachable!("no limit"),
                RootOutcome::Candidates(root) => root,
            };
            if let Some(first) = &dlx.first {
                for (cell, digit) in first.givens() {
                    assert!(root.has(cell, digit), "{cell:?} keeps {digit:?}");
                }
            }
            let (map, mut cnf) = root.to_cnf(encoding);
            let mut solver = Cdcl::new();
            solver.add_formula(&mut cnf);
            match solver.solve().unwrap() {
                SatOutcome::Sat(model) => {
                    let grid = map.decode(&model).unwrap();
                    assert!(crate::grid::check_solution(&puzzle, &grid).is_valid());
                    outcomes[dlx.solutions.min(2) as usize] += 1;
                }
                other => assert_eq!(dlx.solutions, 0, "{other:?}"),
            }
        }
        assert!(outcomes.iter().all(|&k| k > 0), "{outcomes:?}");
    }
}
