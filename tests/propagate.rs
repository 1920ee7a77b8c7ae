//! Native Sudoku propagation in cdcl (`--propagate`: the Hall-set propagator and the grid
//! theory): it must never lose or invent a solution (counts equal to clauses alone, on every
//! encoding, reduced or not, re-encoded or under assumptions), it must actually fire, and
//! its proofs must pass drat-trim.

mod common;

use sudosat::backend::Propagate;
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::grid::{check_solution, read_puzzles_from_path, Grid};
use sudosat::solve::sat::{LoadMode, SatSolver};
use sudosat::solve::{SolveOutcome, Solver};

use common::{
    assert_exit, backend_counter, cdcl_propagating, drat_trim, fixture, path, propagation_puzzles,
    run, run_in, stderr, stdout, temp_dir,
};

/// Every native mode.
const MODES: [Propagate; 7] = [
    Propagate::Sudoku,
    Propagate::Hall,
    Propagate::Locked,
    Propagate::Grid,
    Propagate::GridOnly,
    Propagate::GridHall,
    Propagate::GridOnlyHall,
];

/// The modes of the grid theory and the Hall-set propagator that stands beside them.
const THEORY_MODES: [Propagate; 5] = [
    Propagate::Sudoku,
    Propagate::Grid,
    Propagate::GridOnly,
    Propagate::GridHall,
    Propagate::GridOnlyHall,
];

/// Minimal, extended and augmented, each reduced and not.
fn every_encoding() -> Vec<SudokuEncoding> {
    [
        BaseEncoding::Minimal,
        BaseEncoding::Extended,
        BaseEncoding::Augmented,
    ]
    .into_iter()
    .flat_map(|base| [true, false].map(|reduce| SudokuEncoding::new(base, reduce)))
    .collect()
}

/// Counts `puzzle`'s solutions to 3 and solves it, both against `expected`.
fn assert_counts_and_solves(solver: &mut SatSolver, puzzle: &Grid, expected: u64, what: &str) {
    assert_eq!(
        solver.count_solutions(puzzle, 3).unwrap().unwrap(),
        expected,
        "{what}"
    );
    assert_solves(solver, puzzle, expected, what);
}

/// Solves `puzzle` and checks the answer against `expected` solutions and the rules.
fn assert_solves(solver: &mut SatSolver, puzzle: &Grid, expected: u64, what: &str) {
    match solver.solve(puzzle).unwrap().outcome {
        SolveOutcome::Solved(grid) => {
            assert!(expected > 0, "{what}");
            assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
        }
        SolveOutcome::NoSolution => assert_eq!(expected, 0, "{what}"),
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn native_propagation_counts_exactly_as_clauses_alone() {
    let puzzles = propagation_puzzles();
    // Removals by the Hall sets of grid-hall and grid-only-hall, over every encoding.
    let mut theory_hall = [0u64; 2];
    for encoding in every_encoding() {
        let base = encoding.base;
        let mut plain = cdcl_propagating(encoding, Propagate::None);
        let mut natives: Vec<SatSolver> = MODES
            .into_iter()
            .map(|p| cdcl_propagating(encoding, p))
            .collect();
        // Removals per mode: Hall sets, and locked candidates of either propagator.
        let mut hall = [0u64; MODES.len()];
        let mut locked = [0u64; MODES.len()];
        let (mut none, mut unique, mut several) = (0, 0, 0);
        for (i, puzzle) in puzzles.iter().enumerate() {
            let expected = plain.count_solutions(puzzle, 3).unwrap().unwrap();
            match expected {
                0 => none += 1,
                1 => unique += 1,
                _ => several += 1,
            }
            for (k, native) in natives.iter_mut().enumerate() {
                let mode = native.spec().propagate;
                let what = format!("{encoding:?} {mode:?} puzzle {i}: {puzzle}");
                assert_counts_and_solves(native, puzzle, expected, &what);
                hall[k] += backend_counter(native, "hall_removals")
                    + backend_counter(native, "theory_hall")
                    + backend_counter(native, "theory_fish");
                locked[k] += backend_counter(native, "locked_removals")
                    + backend_counter(native, "theory_locked");
                if mode.without_grid_clauses() {
                    // No clause of the grid: the givens as units at most.
                    let givens = if encoding.reduced {
                        0
                    } else {
                        puzzle.num_givens()
                    };
                    assert_eq!(native.stats().size.clauses, givens, "{what}");
                }
            }
        }
        assert!(
            none >= 2 && unique >= 20 && several >= 10,
            "{none} {unique} {several}"
        );
        // The augmented encoding's segment variables already show locked candidates to
        // unit propagation: nothing is left beside its clauses; without them
        // (grid-only) the theory finds them.
        let beside_clauses = base != BaseEncoding::Augmented;
        let fired = |k: usize| (hall[k] > 0, locked[k] > 0);
        assert_eq!(fired(0), (true, beside_clauses), "{encoding:?} sudoku");
        assert_eq!(fired(1), (true, false), "{encoding:?} hall");
        assert_eq!(fired(2), (false, beside_clauses), "{encoding:?} locked");
        assert_eq!(fired(3), (false, beside_clauses), "{encoding:?} grid");
        assert_eq!(fired(4), (false, true), "{encoding:?} grid-only");
        // The theory's Hall sets run at the root only, where on some encodings
        // nothing is left for them beside the clauses: counted over all of them.
        assert_eq!(fired(5).1, beside_clauses, "{encoding:?} grid-hall");
        assert!(fired(6).1, "{encoding:?} grid-only-hall");
        theory_hall[0] += hall[5];
        theory_hall[1] += hall[6];
    }
    assert!(theory_hall.iter().all(|&h| h > 0), "{theory_hall:?}");
}

#[test]
fn native_propagation_under_assumptions_counts_as_reencoding() {
    let puzzles = propagation_puzzles();
    let encoding = SudokuEncoding::new(BaseEncoding::Extended, true);
    let mut reencode = cdcl_propagating(encoding, Propagate::None);
    for propagate in THEORY_MODES {
        let mut batch = cdcl_propagating(encoding, propagate).with_load_mode(LoadMode::Assumptions);
        for (i, puzzle) in puzzles.iter().enumerate() {
            let expected = reencode.count_solutions(puzzle, 3).unwrap().unwrap();
            let what = format!("{propagate:?} puzzle {i}: {puzzle}");
            assert_counts_and_solves(&mut batch, puzzle, expected, &what);
        }
    }
}

#[test]
fn the_25x25_fixture_solves_with_native_propagation() {
    let puzzle = &read_puzzles_from_path(&fixture("sudoku-25-1.txt"), None).unwrap()[0];
    for propagate in THEORY_MODES {
        let mut solver =
            cdcl_propagating(SudokuEncoding::new(BaseEncoding::Extended, true), propagate);
        assert_eq!(solver.count_solutions(puzzle, 2).unwrap(), Some(1));
        assert_solves(&mut solver, puzzle, 1, &format!("{propagate:?}"));
    }
}

#[test]
fn proofs_with_native_propagation_are_verified_by_drat_trim() {
    let Some(drat) = drat_trim() else { return };
    let certify = format!("{} {{cnf}} {{proof}}", drat.display());
    for propagate in THEORY_MODES.map(|mode| mode.name()) {
        for encoding in ["extended", "minimal"] {
            let dir = temp_dir();
            let out = run_in(
                dir.path(),
                &[
                    "count",
                    &path("expert-20.txt"),
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
        &path("expert-20.txt"),
        "--propagate",
        "sudoku",
        "--stats",
    ]);
    assert_exit(&out, 0);
    let grids = common::parse_output(&stdout(&out));
    let puzzles = read_puzzles_from_path(&fixture("expert-20.txt"), None).unwrap();
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

    let out = run(&["solve", &path("expert-20.txt"), "--propagate", "magic"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("magic"), "{}", stderr(&out));
}

/// Root reasoning (`--root hall`) keeps every solution: counts to 3 equal clauses alone on
/// every encoding, with cdcl and the DPLL; it fixes cells, and refutes some puzzles without
/// search.
#[test]
fn root_reasoning_counts_exactly_as_clauses_alone() {
    use sudosat::backend::{BackendKind, BackendSpec, RootMode};
    let puzzles = propagation_puzzles();
    let (mut fixed, mut refuted) = (0, 0);
    for encoding in every_encoding() {
        let mut plain = cdcl_propagating(encoding, Propagate::None);
        for kind in [BackendKind::Cdcl, BackendKind::Dpll] {
            let spec = BackendSpec::new(kind).with_root(RootMode::Hall);
            let mut rooted = SatSolver::new(encoding, spec);
            for (i, puzzle) in puzzles.iter().enumerate() {
                let expected = plain.count_solutions(puzzle, 3).unwrap().unwrap();
                let what = format!("{encoding:?} {kind:?} puzzle {i}: {puzzle}");
                assert_counts_and_solves(&mut rooted, puzzle, expected, &what);
                fixed += backend_counter(&rooted, "root_fixed");
                refuted += backend_counter(&rooted, "root_refuted");
            }
        }
    }
    assert!(
        fixed > 1000 && refuted > 0,
        "fixed {fixed}, refuted {refuted}"
    );
}

/// `--root hall` reports what it did and settles the 25×25 fixture before any decision;
/// `--root none` leaves it to the search.
#[test]
fn cli_root_reasoning_settles_the_25x25_fixture_without_search() {
    for (root, settled) in [("hall", true), ("none", false)] {
        let out = run(&[
            "solve",
            &path("sudoku-25-1.txt"),
            "--root",
            root,
            "--threads",
            "1",
            "--stats",
        ]);
        assert_exit(&out, 0);
        let puzzle = &read_puzzles_from_path(&fixture("sudoku-25-1.txt"), None).unwrap()[0];
        let grids = common::parse_output(&stdout(&out));
        assert!(check_solution(puzzle, &grids[0]).is_valid());
        let stats = stderr(&out);
        assert_eq!(stats.contains(" clauses=0 "), settled, "{root}: {stats}");
        assert_eq!(stats.contains("root_fixed="), settled, "{root}: {stats}");
        assert_eq!(stats.contains(" root=settled "), settled, "{root}: {stats}");
    }
    // A puzzle the fixpoint refutes (no clashing givens, a cell left no digit): every
    // backend reads the empty clause as "no solution".
    for backend in ["cdcl", "dpll", "lookahead", "varisat", "splr"] {
        let out = run(&[
            "solve",
            &path("corner/no-candidate-4x4.txt"),
            "--root",
            "hall",
            "--backend",
            backend,
            "--stats",
        ]);
        assert_exit(&out, 1);
        assert_eq!(stdout(&out).trim(), "no solution", "{backend}");
        assert!(
            stderr(&out).contains("root_refuted=1") && stderr(&out).contains(" root=refuted "),
            "{backend}: {}",
            stderr(&out)
        );
    }
    let out = run(&["solve", &path("expert-20.txt"), "--root", "magic"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("magic"), "{}", stderr(&out));
    // compare hands the mode to every SAT entry; each run is checked and solved.
    for root in ["hall", "none"] {
        let dir = temp_dir();
        let csv = dir.path().join("runs.csv");
        let out = run(&[
            "compare",
            "-q",
            &path("sudoku-25-1.txt"),
            "--solvers",
            "cdcl,dpll",
            "--root",
            root,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_exit(&out, 0);
        let text = std::fs::read_to_string(&csv).unwrap();
        assert_eq!(text.matches(",solved,true,").count(), 2, "{root}: {text}");
    }
}
