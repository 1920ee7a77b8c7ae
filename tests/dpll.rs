//! The built-in DPLL on a puzzle's formula: what only a grid shows.

mod common;

use sudosat::backend::{Dpll, Lookahead, SatBackend, SatOutcome};
use sudosat::encode::{Encoding, SudokuEncoding};

use common::read_fixture;

/// A 25×25 puzzle that unit propagation alone cannot finish (Dancing Links, which makes
/// the same singles, runs for minutes): failed-literal probing at the root solves it
/// without a decision.
#[test]
fn root_probing_solves_a_25x25_without_decisions() {
    let puzzle = read_fixture("sudoku-25-1.txt").remove(0);
    let known = read_fixture("solutions/sudoku-25-1.txt").remove(0);
    let encoding = SudokuEncoding::from_name("extended+reduced").unwrap();
    let mut dpll = Dpll::with_lookahead(Lookahead::Full);
    let map = encoding.encode(&puzzle, &mut dpll);
    match dpll.solve().unwrap() {
        SatOutcome::Sat(model) => assert_eq!(map.decode(&model).unwrap(), known),
        SatOutcome::Unsat => panic!("the puzzle has a solution"),
    }
    let counters = dpll.counters();
    assert_eq!(counters.get("decisions"), Some(0));
    assert!(counters.get("failed_literals").unwrap() > 0);
}
