//! Library-level tests of the classic solvers: every solver on every fixture with a known
//! solution, agreement with each other and with the SAT path on 200 derived puzzles, hill
//! climbing never wrong, every human deduction checked against the known solution, and
//! unsolvable or contradictory puzzles answered "no solution".

mod common;

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec};
use sudosat::encode::SudokuEncoding;
use sudosat::grid::{check_grid, check_solution, Cell, Digit, Grid};
use sudosat::solve::human::{solve_logged, Step};
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{
    classic_solver, HillObjective, SolveOutcome, Solver, SolverOptions, CLASSIC_SOLVERS,
};

use common::{derived_puzzles, read_fixture, solved_fixtures};

/// Safety net on every solve: a regression fails with a time-out instead of hanging CI.
const LIMIT: Duration = Duration::from_secs(30);

/// The solvers that always answer (given time), DLX first: every classic solver but the
/// `backtrack` alias (= `backtrack-mrv` by default) and hill climbing.
fn complete() -> impl Iterator<Item = &'static str> {
    CLASSIC_SOLVERS
        .iter()
        .copied()
        .filter(|&name| name != "backtrack" && name != "hill")
}

/// A classic solver by name with `options` and the safety time limit.
fn solver_with(name: &str, options: &SolverOptions) -> Box<dyn Solver> {
    let mut solver = classic_solver(name, options).expect("a classic solver name");
    solver.set_time_limit(Some(LIMIT));
    solver
}

/// A classic solver by name, seed 7, no work cap.
fn solver(name: &str) -> Box<dyn Solver> {
    let options = SolverOptions {
        seed: 7,
        ..SolverOptions::default()
    };
    solver_with(name, &options)
}

fn solved(outcome: SolveOutcome, what: &str) -> Grid {
    match outcome {
        SolveOutcome::Solved(grid) => grid,
        other => panic!("{what}: {other:?}"),
    }
}

// ---- every solver on every fixture ---------------------------------------------------

/// Whether `solver` is left out on fixture `file` because it takes too long for CI.
/// Measured with a 10 s limit per puzzle in the test profile (opt-level 1) on the 2-core
/// development machine.
fn too_slow(solver: &str, file: &str) -> bool {
    let large = matches!(file, "sudoku-25-1.txt" | "rank4-2.csv" | "rank5-1.csv");
    match solver {
        // sudoku-25-1: > 10 s (> 60 s in a release build); everything else under 0.5 s.
        "dlx" | "backtrack-mrv" => file == "sudoku-25-1.txt",
        // > 10 s per puzzle on the 16×16 rank4-2 and both 25×25 files; the rest, the
        // minimal and expert 9×9 sets among them, run here.
        "backtrack-row" | "backtrack-column" | "backtrack-box" => large,
        // A static random cell order has no locality: > 10 s on most 9×9 puzzles (all of
        // the 17-clue and forum-hardest sets the fixtures once held, inkala; 3 of 9 thesis
        // grids; 3 of 20 rank3) and on 16×16.
        "backtrack-random" => {
            !(file.contains("4x4") || file.contains("-4-") || file.contains("debian"))
        }
        _ => false,
    }
}

/// Solves every puzzle of every fixture with known solutions (bar the measured
/// exclusions) and compares with the known solution.
fn solves_every_fixture(name: &str) {
    let mut solver = solver(name);
    let mut puzzles_run = 0;
    for file in solved_fixtures() {
        if too_slow(name, &file) {
            continue;
        }
        let known = read_fixture(&format!("solutions/{file}"));
        for (k, (puzzle, known)) in read_fixture(&file).iter().zip(&known).enumerate() {
            let what = format!("{name} on {file} #{}", k + 1);
            let report = solver
                .solve(puzzle)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let grid = solved(report.outcome, &what);
            assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
            assert_eq!(&grid, known, "{what}");
            puzzles_run += 1;
        }
    }
    assert!(puzzles_run >= 6, "{name} ran only {puzzles_run} puzzles");
}

#[test]
fn dlx_solves_every_fixture_and_proves_uniqueness() {
    solves_every_fixture("dlx");
    let mut dlx = solver("dlx");
    for file in [
        "thesis-9x9.txt",
        "expert-20.txt",
        "rank4-2.csv",
        "rank5-1.csv",
    ] {
        for puzzle in read_fixture(file) {
            assert_eq!(dlx.count_solutions(&puzzle, 2).unwrap(), Some(1), "{file}");
        }
    }
}

#[test]
fn backtrack_row_solves_every_fixture() {
    solves_every_fixture("backtrack-row");
}

#[test]
fn backtrack_column_solves_every_fixture() {
    solves_every_fixture("backtrack-column");
}

#[test]
fn backtrack_random_solves_every_fixture() {
    solves_every_fixture("backtrack-random");
}

#[test]
fn backtrack_box_solves_every_fixture() {
    solves_every_fixture("backtrack-box");
}

#[test]
fn backtrack_mrv_solves_every_fixture() {
    solves_every_fixture("backtrack-mrv");
}

#[test]
fn human_solves_every_fixture() {
    solves_every_fixture("human");
}

#[test]
fn best_first_solves_every_fixture() {
    solves_every_fixture("best-first");
}

#[test]
fn fifo_solves_every_fixture() {
    solves_every_fixture("fifo");
}

#[test]
fn every_classic_solver_honours_time_limits() {
    for &name in CLASSIC_SOLVERS {
        let solver = classic_solver(name, &SolverOptions::default()).unwrap();
        assert!(solver.honours_time_limit(), "{name}");
    }
    assert!(classic_solver("nonesuch", &SolverOptions::default()).is_none());
}

// ---- agreement on derived puzzles ---------------------------------------------------

/// Counts are compared up to this many solutions.
const COUNT_LIMIT: u64 = 10;

/// Backtracking in row, column, box and random order gets an assignment cap on the derived
/// puzzles (a sparse one can take them seconds); a capped run answers "stopped".
const BACKTRACK_CAP: u64 = 200_000;

/// Best-first and FIFO search get an expansion cap: on a sparse puzzle with many solutions
/// breadth-first expansion grows without bound (FIFO ran past 30 s on one of these).
const EXPANSION_CAP: u64 = 5_000;

#[test]
fn complete_solvers_agree_with_dlx_and_sat_on_200_derived_puzzles() {
    let encoding = SudokuEncoding::from_name("extended+reduced").unwrap();
    let mut sat = SatSolver::new(encoding, BackendSpec::new(BackendKind::Varisat));
    let mut dlx = solver("dlx");
    let mut others: Vec<(Box<dyn Solver>, usize)> = complete()
        .filter(|&name| name != "dlx")
        .map(|name| {
            let cap = match name {
                "best-first" | "fifo" => EXPANSION_CAP,
                _ => BACKTRACK_CAP,
            };
            let capped = SolverOptions {
                seed: 7,
                max_iterations: Some(cap),
                ..SolverOptions::default()
            };
            (solver_with(name, &capped), 0)
        })
        .collect();
    let (mut unique, mut several) = (0, 0);
    // Blanking 30–54 cells: the denser puzzles keep one solution, the sparser have several.
    let puzzles = derived_puzzles(200, 2017, 30..55);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let count = dlx.count_solutions(puzzle, COUNT_LIMIT).unwrap().unwrap();
        assert!(count >= 1, "puzzle {i} was derived from a solution");
        let sat_count = sat.count_solutions(puzzle, COUNT_LIMIT).unwrap();
        assert_eq!(sat_count, Some(count), "puzzle {i}: SAT count");
        let first = solved(dlx.solve(puzzle).unwrap().outcome, "dlx");
        assert!(check_solution(puzzle, &first).is_valid());
        let by_sat = solved(sat.solve(puzzle).unwrap().outcome, "sat");
        assert!(check_solution(puzzle, &by_sat).is_valid());
        if count == 1 {
            unique += 1;
            assert_eq!(by_sat, first, "puzzle {i}: SAT");
        } else {
            several += 1;
        }
        for (solver, answered) in &mut others {
            let what = format!("puzzle {i} on {}", solver.name());
            match solver.solve(puzzle).expect(&what).outcome {
                SolveOutcome::Solved(grid) => {
                    *answered += 1;
                    assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
                    if count == 1 {
                        assert_eq!(grid, first, "{what}");
                    }
                }
                SolveOutcome::Stopped(why) => {
                    assert!(why.contains("cap"), "{what}: {why}");
                }
                SolveOutcome::NoSolution => panic!("{what}: no solution claimed"),
            }
            // Solvers that count (backtracking) agree with DLX unless capped.
            if let Some(k) = solver.count_solutions(puzzle, COUNT_LIMIT).expect(&what) {
                assert_eq!(k, count, "{what}: count");
            }
        }
    }
    // Measured: 66 with one solution, 134 with several.
    assert!(
        unique >= 50 && several >= 50,
        "{unique} unique, {several} several"
    );
    for (solver, answered) in &others {
        let name = solver.name();
        // Measured: every solver answers all 200 within its cap, except column order (199:
        // one puzzle past the cap) and random order (147).
        let floor = match name.as_str() {
            "backtrack-random" => 100,
            "backtrack-column" => 199,
            _ => 200,
        };
        assert!(*answered >= floor, "{name} answered {answered} of 200");
    }
}

// ---- hill climbing -------------------------------------------------------------------

#[test]
fn hill_climbing_solves_easy_fixtures_or_stops_never_wrong() {
    let easy = [
        "thesis-4x4.txt",
        "sudoku-4-1.txt",
        "thesis-9x9.txt",
        "debian-medium.txt",
    ];
    let mut solved_count = 0;
    let mut stopped = 0;
    for objective in HillObjective::ALL {
        for seed in 0..4 {
            let options = SolverOptions {
                seed,
                hill_objective: objective,
                max_iterations: Some(100_000),
                ..SolverOptions::default()
            };
            let mut hill = solver_with("hill", &options);
            for file in easy {
                let known = read_fixture(&format!("solutions/{file}"));
                for (k, (puzzle, known)) in read_fixture(file).iter().zip(&known).enumerate() {
                    let what = format!("{objective:?} seed {seed} on {file} #{}", k + 1);
                    match hill.solve(puzzle).expect(&what).outcome {
                        SolveOutcome::Solved(grid) => {
                            assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
                            assert_eq!(&grid, known, "{what}");
                            solved_count += 1;
                        }
                        SolveOutcome::Stopped(why) => {
                            assert!(why.contains("iteration cap of 100000"), "{what}: {why}");
                            stopped += 1;
                        }
                        SolveOutcome::NoSolution => panic!("{what}: no solution claimed"),
                    }
                }
            }
        }
    }
    // Seeded, so these are fixed: the 4×4 and the 9×9 grids with many givens fall quickly.
    assert!(solved_count >= 10, "hill solved only {solved_count}");
    assert!(stopped > 0, "the cap never stopped a climb");
}

// ---- human deductions ----------------------------------------------------------------

/// Replays the human solver's log on every fixture with a known solution: while every open
/// guess agrees with the solution, every placed digit must be the solution's digit and no
/// removed candidate may be the solution's digit. Deductions under a wrong guess are
/// hypothetical and not checked.
#[test]
fn every_human_deduction_agrees_with_the_known_solution() {
    let (mut checked, mut hypothetical) = (0u64, 0u64);
    for file in solved_fixtures() {
        let known = read_fixture(&format!("solutions/{file}"));
        for (k, (puzzle, known)) in read_fixture(&file).iter().zip(&known).enumerate() {
            let what = format!("{file} #{}", k + 1);
            let truth = |cell: Cell| known.get(cell).expect("a full solution");
            let run = solve_logged(puzzle);
            // For each open guess: whether it agrees with the solution.
            let mut open: Vec<bool> = Vec::new();
            for (s, step) in run.log.steps.iter().enumerate() {
                let at = format!("{what} step {}", s + 1);
                match step {
                    Step::Guess { cell, digit, .. } => open.push(*digit == truth(*cell)),
                    Step::Backtrack { cell, digit } => {
                        let right = open.pop().expect("a backtrack undoes an open guess");
                        // Under right outer guesses, only a wrong digit can fail.
                        if open.iter().all(|&r| r) {
                            assert!(!right, "{at}: backtracked over the right digit");
                            assert_ne!(*digit, truth(*cell), "{at}");
                        }
                    }
                    Step::Deduction(d) if open.iter().all(|&right| right) => {
                        if let Some((cell, digit)) = d.placed {
                            assert_eq!(digit, truth(cell), "{at}: {d:?}");
                        }
                        for &(cell, digit) in &d.removed {
                            assert_ne!(digit, truth(cell), "{at}: removed {digit:?}: {d:?}");
                        }
                        checked += 1;
                    }
                    Step::Deduction(_) => hypothetical += 1,
                }
            }
            assert!(
                open.iter().all(|&right| right),
                "{what}: ends on a wrong guess"
            );
            assert_eq!(run.outcome, SolveOutcome::Solved(known.clone()), "{what}");
        }
    }
    assert!(checked > 5_000, "only {checked} deductions checked");
    assert!(
        hypothetical > 0,
        "no deduction under a wrong guess: the fixtures lost hard ones"
    );
}

// ---- no solution -------------------------------------------------------------------

/// Puzzles without a solution whose givens neither clash nor leave a cell without a
/// candidate: a solution with 30–40 cells blanked, then one blank cell given a digit no
/// peer holds, kept when DLX finds no solution.
fn deep_unsolvable(count: usize) -> Vec<Grid> {
    let mut rng = ChaCha8Rng::seed_from_u64(1974);
    let solutions = read_fixture("solutions/minimal-40.txt");
    let mut out = Vec::new();
    while out.len() < count {
        let solution = &solutions[rng.gen_range(0..solutions.len())];
        let mut puzzle = solution.clone();
        let mut cells: Vec<u32> = (0..81).collect();
        cells.shuffle(&mut rng);
        for &c in &cells[..rng.gen_range(30..=40)] {
            puzzle.set(Cell(c), None);
        }
        let cell = Cell(cells[0]);
        let wrong: Vec<Digit> = puzzle
            .candidates(cell)
            .iter()
            .filter(|&d| solution.get(cell) != Some(d))
            .collect();
        let Some(&digit) = wrong.choose(&mut rng) else {
            continue;
        };
        puzzle.set(cell, Some(digit));
        let alive = (0..81)
            .map(Cell)
            .all(|c| puzzle.get(c).is_some() || !puzzle.candidates(c).is_empty());
        if alive && sudosat::solve::count_solutions(&puzzle, 1).unwrap() == 0 {
            out.push(puzzle);
        }
    }
    out
}

/// Every solver answers "no solution" (hill climbing: no solution or stopped), and the
/// counting solvers count 0.
fn assert_no_solution(puzzle: &Grid, what: &str) {
    for &name in CLASSIC_SOLVERS {
        let options = SolverOptions {
            max_iterations: (name == "hill").then_some(10_000),
            ..SolverOptions::default()
        };
        let mut solver = solver_with(name, &options);
        let at = format!("{what} on {name}");
        let outcome = solver.solve(puzzle).expect(&at).outcome;
        match (name, outcome) {
            (_, SolveOutcome::NoSolution) => {}
            ("hill", SolveOutcome::Stopped(_)) => {}
            (_, other) => panic!("{at}: {other:?}"),
        }
        if let Some(count) = solver.count_solutions(puzzle, 2).expect(&at) {
            assert_eq!(count, 0, "{at}");
        }
    }
}

#[test]
fn unsolvable_and_contradictory_puzzles_have_no_solution() {
    for file in [
        "corner/contradictory-4x4.txt",
        "corner/no-candidate-4x4.txt",
    ] {
        for puzzle in read_fixture(file) {
            assert_no_solution(&puzzle, file);
        }
    }
    // Two equal givens in a column of a 9×9; a 9×9 cell left without a candidate.
    let mut column: Grid = read_fixture("thesis-9x9.txt")[0].clone();
    column.set(Cell(0), Some(Digit(5)));
    column.set(Cell(9 * 8), Some(Digit(5)));
    assert!(!check_grid(&column).is_valid());
    assert_no_solution(&column, "equal givens in column 1");
    let no_candidate: Grid = format!("12345678.........9{}", ".".repeat(63))
        .parse()
        .unwrap();
    assert_no_solution(&no_candidate, "r1c9 without candidate");
    for (i, puzzle) in deep_unsolvable(20).iter().enumerate() {
        assert_no_solution(puzzle, &format!("derived unsolvable #{i}"));
    }
}

#[test]
fn full_and_empty_grids() {
    let full = &read_fixture("corner/full-4x4.txt")[0];
    let empty = &read_fixture("corner/empty-4x4.txt")[0];
    for &name in CLASSIC_SOLVERS {
        let mut solver = solver(name);
        let grid = solved(solver.solve(full).unwrap().outcome, name);
        assert_eq!(&grid, full, "{name}");
        if name != "hill" {
            let grid = solved(solver.solve(empty).unwrap().outcome, name);
            assert!(check_solution(empty, &grid).is_valid(), "{name}");
        }
        // Every counting solver finds all 288 4×4 grids, with a limit or without (0).
        if let Some(count) = solver.count_solutions(empty, 1000).unwrap() {
            assert_eq!(count, 288, "{name}");
            assert_eq!(
                solver.count_solutions(empty, 0).unwrap(),
                Some(288),
                "{name}"
            );
            assert_eq!(solver.count_solutions(empty, 5).unwrap(), Some(5), "{name}");
        }
    }
}
