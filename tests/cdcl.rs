//! The built-in CDCL solver against an independent one: SAT/UNSAT agreement with varisat on
//! random 3-SAT at the satisfiability threshold (every model checked), refutation of UNSAT
//! families, and solving under assumptions on Sudoku formulas.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec, Cdcl, Lookahead, SatBackend, SatOutcome};
use sudosat::encode::{BaseEncoding, Encoding, SudokuEncoding, VarRef};
use sudosat::grid::{check_solution, read_puzzles_from_path, Digit, Grid};
use sudosat::{ClauseSink, Cnf, Lit, Var};

use common::fixture;

fn random_3sat(rng: &mut ChaCha8Rng, vars: usize, clauses: usize) -> Cnf {
    let mut cnf = Cnf::with_vars(vars);
    for _ in 0..clauses {
        let mut clause = [Lit::from_dimacs(1); 3];
        for lit in &mut clause {
            *lit = Var::from_index(rng.gen_range(0..vars)).lit(rng.gen());
        }
        cnf.add_clause(&clause);
    }
    cnf
}

fn solve(spec: &BackendSpec, cnf: &Cnf) -> SatOutcome {
    let mut backend = spec.create().unwrap();
    cnf.stream_into(&mut *backend);
    backend.solve().unwrap()
}

/// 500 formulas of 50…150 variables at clause/variable ratio 4.26, where about half are
/// satisfiable: cdcl and varisat agree on each, and each cdcl model satisfies every clause.
#[test]
fn agrees_with_varisat_on_500_random_3sat_formulas_at_the_threshold() {
    let mut rng = ChaCha8Rng::seed_from_u64(426);
    let cdcl = BackendSpec::new(BackendKind::Cdcl);
    let varisat = BackendSpec::new(BackendKind::Varisat);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..500 {
        let vars = rng.gen_range(50..=150);
        let cnf = random_3sat(&mut rng, vars, (vars as f64 * 4.26).round() as usize);
        let ours = solve(&cdcl, &cnf);
        let theirs = solve(&varisat, &cnf);
        match (&ours, &theirs) {
            (SatOutcome::Sat(model), SatOutcome::Sat(_)) => {
                assert_eq!(cnf.first_falsified(model), None, "round {round}");
                sat += 1;
            }
            (SatOutcome::Unsat, SatOutcome::Unsat) => unsat += 1,
            _ => panic!("round {round}: cdcl {ours:?}, varisat {theirs:?}"),
        }
    }
    // Both answers occur often at the threshold.
    assert!(sat > 100 && unsat > 100, "sat {sat}, unsat {unsat}");
}

/// Small random formulas far above the threshold are UNSAT; cdcl refutes each, as varisat.
#[test]
fn refutes_overconstrained_random_formulas() {
    let mut rng = ChaCha8Rng::seed_from_u64(2006);
    for round in 0..50 {
        let cnf = random_3sat(&mut rng, 30, 300);
        let varisat = solve(&BackendSpec::new(BackendKind::Varisat), &cnf);
        assert_eq!(
            varisat,
            SatOutcome::Unsat,
            "round {round}: the family is UNSAT"
        );
        assert_eq!(
            solve(&BackendSpec::new(BackendKind::Cdcl), &cnf),
            SatOutcome::Unsat
        );
    }
}

/// Pigeonhole with 9 pigeons and 8 holes needs tens of thousands of conflicts: the solver
/// must learn, restart and reduce its database on the way.
#[test]
fn refutes_pigeonhole_9_into_8() {
    let holes = 8;
    let var = |p: usize, h: usize| Var::from_index(p * holes + h);
    let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
    for p in 0..=holes {
        let clause: Vec<Lit> = (0..holes).map(|h| var(p, h).positive()).collect();
        cdcl.add_clause(&clause);
    }
    for h in 0..holes {
        for p in 0..=holes {
            for q in p + 1..=holes {
                cdcl.add_clause(&[var(p, h).negative(), var(q, h).negative()]);
            }
        }
    }
    assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
    let counters = cdcl.counters();
    assert!(counters.get("restarts").unwrap() > 0, "{counters}");
    assert!(counters.get("deleted").unwrap() > 0, "{counters}");
}

/// One solver holds the empty 9×9 grid's extended encoding; each puzzle is solved under its
/// givens as assumptions, and the grid equals the known solution. A puzzle with clashing
/// givens fails with the clashing assumptions, and the solver still solves the next one.
#[test]
fn puzzles_solve_under_assumptions_on_one_loaded_solver() {
    let puzzles = read_puzzles_from_path(&fixture("hardest-20.txt"), None).unwrap();
    let solutions = read_puzzles_from_path(&fixture("solutions/hardest-20.txt"), None).unwrap();
    let encoding = SudokuEncoding::new(BaseEncoding::Extended, false);
    let empty = Grid::empty(3).unwrap();
    let geometry = empty.geometry();
    let mut cdcl = Cdcl::new();
    let map = encoding.encode(&empty, &mut cdcl);
    let givens = |puzzle: &Grid| -> Vec<Lit> {
        puzzle
            .givens()
            .map(|(cell, digit)| match map.var(cell, digit) {
                VarRef::Var(var) => var.positive(),
                fixed => panic!("the empty grid fixes nothing, got {fixed:?}"),
            })
            .collect()
    };
    for (puzzle, known) in puzzles.iter().zip(&solutions) {
        match cdcl.solve_under(&givens(puzzle)).unwrap() {
            SatOutcome::Sat(model) => {
                let grid = map.decode(&model).unwrap();
                assert!(check_solution(puzzle, &grid).is_valid());
                assert_eq!(&grid, known);
            }
            SatOutcome::Unsat => panic!("{puzzle} has a solution"),
        }
    }
    // Two 1s in the first row: the failed assumptions are exactly those two givens.
    let mut clash = Grid::empty(3).unwrap();
    clash.set(geometry.cell(0, 0), Some(Digit(1)));
    clash.set(geometry.cell(0, 5), Some(Digit(1)));
    clash.set(geometry.cell(4, 4), Some(Digit(7)));
    let assumptions = givens(&clash);
    assert_eq!(cdcl.solve_under(&assumptions).unwrap(), SatOutcome::Unsat);
    let mut failed = cdcl.failed_assumptions();
    failed.sort();
    let mut expected = assumptions[..2].to_vec();
    expected.sort();
    assert_eq!(failed, expected);
    let next = &puzzles[0];
    assert!(matches!(
        cdcl.solve_under(&givens(next)).unwrap(),
        SatOutcome::Sat(_)
    ));
}
