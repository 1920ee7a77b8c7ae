//! The built-in CDCL solver against an independent one: SAT/UNSAT agreement with varisat on
//! random 3-SAT at the satisfiability threshold (every model checked), refutation of UNSAT
//! families, and solving under assumptions on Sudoku formulas.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{
    BackendKind, BackendSpec, Cdcl, Lookahead, SatBackend, SatOutcome, SolveUnderAssumptions,
};
use sudosat::encode::{BaseEncoding, Encoding, SudokuEncoding, VarRef};
use sudosat::grid::{check_solution, read_puzzles_from_path, Digit, Grid};
use sudosat::solve::sat::{LoadMode, SatSolver, DEFAULT_ENCODING};
use sudosat::solve::{SolveOutcome, Solver};
use sudosat::{ClauseSink, Cnf, Lit, Var};

use common::fixture;
use sudosat::backend::WriteProofs;

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
/// satisfiable: cdcl (which hands most of these to its lookahead search) and cdcl with
/// `--lookahead none` (CDCL alone) each agree with varisat, and each model satisfies every
/// clause.
#[test]
fn agrees_with_varisat_on_500_random_3sat_formulas_at_the_threshold() {
    let mut rng = ChaCha8Rng::seed_from_u64(426);
    let cdcl = BackendSpec::new(BackendKind::Cdcl);
    let mut cdcl_alone = BackendSpec::new(BackendKind::Cdcl);
    cdcl_alone.lookahead = Lookahead::None;
    let varisat = BackendSpec::new(BackendKind::Varisat);
    let (mut sat, mut unsat, mut handed_over) = (0, 0, 0);
    for round in 0..500 {
        let vars = rng.gen_range(50..=150);
        let cnf = random_3sat(&mut rng, vars, (vars as f64 * 4.26).round() as usize);
        let theirs = solve(&varisat, &cnf);
        for (name, spec) in [("cdcl", &cdcl), ("cdcl alone", &cdcl_alone)] {
            let mut backend = spec.create().unwrap();
            cnf.stream_into(&mut *backend);
            let ours = backend.solve().unwrap();
            let searches = backend.counters().get("lookahead_searches").unwrap();
            match name {
                "cdcl" => handed_over += searches,
                _ => assert_eq!(searches, 0, "round {round}: CDCL alone handed over"),
            }
            match (&ours, &theirs) {
                (SatOutcome::Sat(model), SatOutcome::Sat(_)) => {
                    assert_eq!(cnf.first_falsified(model), None, "round {round}, {name}");
                }
                (SatOutcome::Unsat, SatOutcome::Unsat) => {}
                _ => panic!("round {round}: {name} {ours:?}, varisat {theirs:?}"),
            }
        }
        match theirs {
            SatOutcome::Sat(_) => sat += 1,
            SatOutcome::Unsat => unsat += 1,
        }
    }
    // Both answers occur often at the threshold.
    assert!(sat > 100 && unsat > 100, "sat {sat}, unsat {unsat}");
    assert!(
        handed_over > 400,
        "{handed_over} of 500 went to the lookahead search"
    );
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
/// must learn, restart, switch search modes and reduce its database on the way.
#[test]
fn refutes_pigeonhole_9_into_8() {
    let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
    common::pigeonhole(9, 8).stream_into(&mut cdcl);
    assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
    let counters = cdcl.counters();
    assert!(counters.get("restarts").unwrap() > 0, "{counters}");
    assert!(counters.get("deleted").unwrap() > 0, "{counters}");
    // Past 1,000 conflicts the search leaves focused mode for a stable run and rephases.
    assert!(counters.get("mode_switches").unwrap() > 0, "{counters}");
    assert!(counters.get("rephases").unwrap() > 0, "{counters}");
}

/// One solver holds the empty 9×9 grid's extended encoding; each puzzle is solved under its
/// givens as assumptions, and the grid equals the known solution. A puzzle with clashing
/// givens fails with the clashing assumptions, and the solver still solves the next one.
#[test]
fn puzzles_solve_under_assumptions_on_one_loaded_solver() {
    let puzzles = read_puzzles_from_path(&fixture("expert-20.txt"), None).unwrap();
    let solutions = read_puzzles_from_path(&fixture("solutions/expert-20.txt"), None).unwrap();
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

/// Writes `cnf` as DIMACS, refutes it with cdcl logging a proof, and runs drat-trim on it.
fn refute_with_checked_proof(
    drat: &std::path::Path,
    cnf: &Cnf,
    dir: &std::path::Path,
    name: &str,
    binary: bool,
) {
    use sudosat::backend::{ProofFormat, ProofTarget};
    let cnf_path = dir.join(format!("{name}.cnf"));
    let proof_path = dir.join(format!("{name}.drat"));
    std::fs::write(&cnf_path, common::dimacs_text(cnf)).unwrap();
    let mut cdcl = Cdcl::with_lookahead(Lookahead::Full);
    let format = if binary {
        ProofFormat::Binary
    } else {
        ProofFormat::Text
    };
    cdcl.set_proof(Some(ProofTarget {
        path: proof_path.clone(),
        format,
    }))
    .unwrap();
    cnf.stream_into(&mut cdcl);
    assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat, "{name}");
    cdcl.finish_proof().unwrap();
    let out = std::process::Command::new(drat)
        .arg(&cnf_path)
        .arg(&proof_path)
        .output()
        .expect("drat-trim runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("s VERIFIED"),
        "{name}: drat-trim says\n{stdout}"
    );
}

/// Every UNSAT answer here comes with a DRAT proof that the independent checker accepts:
/// pigeonhole (learning, restarts), over-constrained random 3-SAT (database reduction,
/// root simplification), in text and binary form.
#[test]
fn unsat_proofs_are_verified_by_drat_trim() {
    let Some(drat) = common::drat_trim() else {
        return;
    };
    let dir = common::temp_dir();
    let php = common::pigeonhole(8, 7);
    refute_with_checked_proof(&drat, &php, dir.path(), "php", false);
    refute_with_checked_proof(&drat, &php, dir.path(), "php-binary", true);
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for round in 0..20 {
        let cnf = random_3sat(&mut rng, 60, 60 * 6);
        refute_with_checked_proof(
            &drat,
            &cnf,
            dir.path(),
            &format!("random-{round}"),
            round % 2 == 1,
        );
    }
}

/// Two cdcl solvers on the default encoding: one re-encoding each puzzle, one keeping the
/// empty grid loaded and solving under the givens.
fn reencoding_and_batch_solvers() -> (SatSolver, SatSolver) {
    let spec = BackendSpec::new(BackendKind::Cdcl);
    let reencode = SatSolver::new(DEFAULT_ENCODING, spec.clone());
    let batch = SatSolver::new(DEFAULT_ENCODING, spec).with_load_mode(LoadMode::Assumptions);
    (reencode, batch)
}

/// The number of solutions of puzzle `i` (up to 2) by re-encoding, asserted equal to the
/// batch solver's count.
fn count_both_ways(
    reencode: &mut SatSolver,
    batch: &mut SatSolver,
    i: usize,
    puzzle: &Grid,
) -> u64 {
    let expected = reencode.count_solutions(puzzle, 2).unwrap().unwrap();
    assert_eq!(
        batch.count_solutions(puzzle, 2).unwrap().unwrap(),
        expected,
        "puzzle {i}: {puzzle}"
    );
    expected
}

/// The SAT path in [`LoadMode::Assumptions`] (one backend holding the empty grid, puzzles
/// solved under their givens, counts with retired activation literals) answers exactly as
/// re-encoding each puzzle: the same solution counts (up to 2) and solutions checked against
/// the rules and the givens, across puzzles of several sizes in turn and an unsolvable one.
#[test]
fn batch_under_assumptions_answers_as_reencoding() {
    let mut puzzles = common::derived_puzzles(60, 11, 40..70);
    puzzles.extend(read_puzzles_from_path(&fixture("thesis-4x4.txt"), None).unwrap());
    puzzles.extend(read_puzzles_from_path(&fixture("sudoku-16-1.txt"), None).unwrap());
    puzzles.extend(read_puzzles_from_path(&fixture("expert-20.txt"), None).unwrap());
    // r1c3 has no candidate left (1, 2 in its row, 3 in its column, 4 in its box):
    // unsolvable, though no two givens clash.
    puzzles.push("12.....4..3.....".parse().unwrap());
    let (mut reencode, mut batch) = reencoding_and_batch_solvers();
    let (mut unique, mut multiple, mut none) = (0, 0, 0);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let expected = count_both_ways(&mut reencode, &mut batch, i, puzzle);
        match (expected, batch.solve(puzzle).unwrap().outcome) {
            (0, SolveOutcome::NoSolution) => none += 1,
            (count, SolveOutcome::Solved(grid)) if count > 0 => {
                assert!(check_solution(puzzle, &grid).is_valid(), "puzzle {i}");
                if count == 1 {
                    unique += 1;
                } else {
                    multiple += 1;
                }
            }
            (count, outcome) => panic!("puzzle {i}: {count} solutions but {outcome:?}"),
        }
    }
    assert!(
        unique > 0 && multiple > 0 && none > 0,
        "{unique} {multiple} {none}"
    );
}

/// A long batch under assumptions stays bounded: the blocking clauses of finished counts are
/// retired but stay in the backend, so once they outweigh the empty grid's encoding it is
/// loaded afresh (the backend's counters restart), and the answers stay those of
/// re-encoding.
#[test]
fn long_batches_under_assumptions_reload_the_empty_grid() {
    // Mostly several solutions: each count adds two blocking clauses of 82 literals, and
    // 250 counts add about twice the empty 9×9 grid's literals.
    let puzzles = common::derived_puzzles(250, 5, 60..70);
    let (mut reencode, mut batch) = reencoding_and_batch_solvers();
    let mut solves_made = 0;
    for (i, puzzle) in puzzles.iter().enumerate() {
        let expected = count_both_ways(&mut reencode, &mut batch, i, puzzle);
        // One solve per solution found, and one more that fails unless the limit stops it.
        solves_made += expected + u64::from(expected < 2);
    }
    let solves = batch.stats().backend.get("solves").unwrap();
    assert!(
        solves > 0 && solves < solves_made,
        "the empty grid was never reloaded: {solves} solves counted of {solves_made}"
    );
}

/// In a batch under assumptions the SAT path has cdcl forget its learnt clauses above glue
/// at each new puzzle: learnt clauses get deleted although the batch stays below the
/// conflicts of cdcl's first database reduction (2,000), which would delete none. Every
/// answer is checked against the rules and the givens.
#[test]
fn batches_under_assumptions_forget_between_puzzles() {
    let puzzles = read_puzzles_from_path(&fixture("expert-20.txt"), None).unwrap();
    let spec = BackendSpec::new(BackendKind::Cdcl);
    let mut batch = SatSolver::new(DEFAULT_ENCODING, spec).with_load_mode(LoadMode::Assumptions);
    // 15 of the 20 keep the batch well below 2,000 conflicts.
    for puzzle in &puzzles[..15] {
        match batch.solve(puzzle).unwrap().outcome {
            SolveOutcome::Solved(grid) => assert!(check_solution(puzzle, &grid).is_valid()),
            other => panic!("{puzzle}: {other:?}"),
        }
    }
    let counters = &batch.stats().backend;
    let (conflicts, deleted) = (
        counters.get("conflicts").unwrap(),
        counters.get("deleted").unwrap(),
    );
    assert!(conflicts < 2_000, "too many conflicts to tell: {counters}");
    assert!(deleted > 0, "nothing forgotten: {counters}");
}

/// Learnt clauses are shrunk on the extended encodings (where it measured faster) and not
/// on the minimal one (where it made sparse puzzles up to 240× slower), on one thread, in
/// both load modes; every solution checked.
#[test]
fn shrinks_learnt_clauses_on_the_extended_encodings_only() {
    let puzzles = read_puzzles_from_path(&fixture("expert-20.txt"), None).unwrap();
    let spec = BackendSpec::new(BackendKind::Cdcl).with_threads(1);
    for base in BaseEncoding::ALL {
        for mode in [LoadMode::Reencode, LoadMode::Assumptions] {
            let mut solver =
                SatSolver::new(SudokuEncoding::new(base, true), spec.clone()).with_load_mode(mode);
            let mut tries = 0;
            for puzzle in puzzles.iter().take(5) {
                let report = solver.solve(puzzle).unwrap();
                let SolveOutcome::Solved(grid) = report.outcome else {
                    panic!("{base:?} {mode:?}: unsolved {puzzle}");
                };
                assert!(check_solution(puzzle, &grid).is_valid());
                tries += report.counters.get("shrink_tries").unwrap();
            }
            assert_eq!(
                tries > 0,
                base != BaseEncoding::Minimal,
                "{base:?} {mode:?}"
            );
        }
    }
}
