//! Native Sudoku propagation in cdcl (`--propagate`): it must never lose or invent a
//! solution (counts equal to clauses alone, on every encoding, reduced or not, re-encoded or
//! under assumptions), it must actually fire, and its proofs must pass drat-trim.

mod common;

use sudosat::backend::{BackendKind, BackendSpec, Propagate};
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::grid::{check_solution, read_puzzles_from_path};
use sudosat::solve::sat::{LoadMode, SatSolver};
use sudosat::solve::{SolveOutcome, Solver};

use common::{
    assert_exit, backend_counter, drat_trim, fixture, path, propagation_puzzles, run, run_in,
    stderr, stdout, temp_dir,
};

fn spec(propagate: Propagate) -> BackendSpec {
    BackendSpec::new(BackendKind::Cdcl).with_propagate(propagate)
}

#[test]
fn native_propagation_counts_exactly_as_clauses_alone() {
    let puzzles = propagation_puzzles();
    for base in [
        BaseEncoding::Minimal,
        BaseEncoding::Extended,
        BaseEncoding::Augmented,
    ] {
        for reduce in [true, false] {
            let encoding = SudokuEncoding::new(base, reduce);
            let mut plain = SatSolver::new(encoding, spec(Propagate::None));
            let mut natives: Vec<SatSolver> =
                [Propagate::Sudoku, Propagate::Hall, Propagate::Locked]
                    .into_iter()
                    .map(|p| SatSolver::new(encoding, spec(p)))
                    .collect();
            let (mut hall, mut locked) = (0, 0);
            let (mut none, mut unique, mut several) = (0, 0, 0);
            for (i, puzzle) in puzzles.iter().enumerate() {
                let expected = plain.count_solutions(puzzle, 3).unwrap().unwrap();
                match expected {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => several += 1,
                }
                for native in &mut natives {
                    let what = format!(
                        "{encoding:?} {:?} puzzle {i}: {puzzle}",
                        native.spec().propagate
                    );
                    assert_eq!(
                        native.count_solutions(puzzle, 3).unwrap().unwrap(),
                        expected,
                        "{what}"
                    );
                    match native.solve(puzzle).unwrap().outcome {
                        SolveOutcome::Solved(grid) => {
                            assert!(expected > 0, "{what}");
                            assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
                        }
                        SolveOutcome::NoSolution => assert_eq!(expected, 0, "{what}"),
                        other => panic!("{what}: {other:?}"),
                    }
                    hall += backend_counter(native, "hall_removals");
                    locked += backend_counter(native, "locked_removals");
                }
            }
            assert!(
                none >= 2 && unique >= 20 && several >= 10,
                "{none} {unique} {several}"
            );
            // The augmented encoding's segment variables already show locked candidates to
            // unit propagation: nothing is left for the native pass there.
            let locked_expected = base != BaseEncoding::Augmented;
            assert!(
                hall > 0 && (locked > 0) == locked_expected,
                "{encoding:?}: {hall} hall, {locked} locked"
            );
        }
    }
}

#[test]
fn native_propagation_under_assumptions_counts_as_reencoding() {
    let puzzles = propagation_puzzles();
    let mut reencode = SatSolver::new(
        SudokuEncoding::new(BaseEncoding::Extended, true),
        spec(Propagate::None),
    );
    let mut batch = SatSolver::new(
        SudokuEncoding::new(BaseEncoding::Extended, true),
        spec(Propagate::Sudoku),
    )
    .with_load_mode(LoadMode::Assumptions);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let expected = reencode.count_solutions(puzzle, 3).unwrap().unwrap();
        assert_eq!(
            batch.count_solutions(puzzle, 3).unwrap().unwrap(),
            expected,
            "puzzle {i}: {puzzle}"
        );
    }
}

#[test]
fn the_25x25_fixture_solves_with_native_propagation() {
    let puzzle = &read_puzzles_from_path(&fixture("sudoku-25-1.txt"), None).unwrap()[0];
    let mut solver = SatSolver::new(
        SudokuEncoding::new(BaseEncoding::Extended, true),
        spec(Propagate::Sudoku),
    );
    assert_eq!(solver.count_solutions(puzzle, 2).unwrap(), Some(1));
    let SolveOutcome::Solved(grid) = solver.solve(puzzle).unwrap().outcome else {
        panic!("solvable")
    };
    assert!(check_solution(puzzle, &grid).is_valid());
}

#[test]
fn proofs_with_native_propagation_are_verified_by_drat_trim() {
    let Some(drat) = drat_trim() else { return };
    let certify = format!("{} {{cnf}} {{proof}}", drat.display());
    for propagate in ["sudoku", "grid", "grid-only"] {
        for encoding in ["extended", "minimal"] {
            let dir = temp_dir();
            let out = run_in(
                dir.path(),
                &[
                    "count",
                    &path("hardest-20.txt"),
                    &path("sudoku-16-1.txt"),
                    "--encoding",
                    encoding,
                    "--propagate",
                    propagate,
                    "--proof-dir",
                    "proofs",
                    "--certify",
                    &certify,
                ],
                b"",
            );
            assert_exit(&out, 0);
            let text = stdout(&out);
            let verified = text.matches(", verified)").count();
            assert_eq!(verified, 21, "{propagate} {encoding}: {text}");
        }
    }
}

#[test]
fn cli_reports_what_the_native_propagation_did_and_refuses_an_unknown_mode() {
    let out = run(&[
        "solve",
        &path("hardest-20.txt"),
        "--propagate",
        "sudoku",
        "--stats",
    ]);
    assert_exit(&out, 0);
    let grids = common::parse_output(&stdout(&out));
    let puzzles = read_puzzles_from_path(&fixture("hardest-20.txt"), None).unwrap();
    assert_eq!(grids.len(), puzzles.len());
    for (puzzle, grid) in puzzles.iter().zip(&grids) {
        assert!(check_solution(puzzle, grid).is_valid());
    }
    let removals: u64 = stderr(&out)
        .lines()
        .filter_map(|l| l.split("hall_removals=").nth(1))
        .map(|rest| {
            rest.split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert!(removals > 0, "{}", stderr(&out));

    let out = run(&["solve", &path("hardest-20.txt"), "--propagate", "magic"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("magic"), "{}", stderr(&out));
}
