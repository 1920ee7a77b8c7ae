//! One conformance suite run on every SAT backend (built-in CDCL, DPLL and lookahead, varisat,
//! splr, embedded CaDiCaL and Kissat where their features are built, external MiniSat,
//! CaDiCaL and PicoSAT), agreement of the backends on a fixed-seed batch of puzzles,
//! and fault tests for external solvers with real processes.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rayon::prelude::*;
use sudosat::backend::{
    BackendError, BackendKind, BackendSpec, ExternalSolver, OutputStyle, Process, SatBackend,
    SatOutcome, BACKENDS,
};
use sudosat::encode::{BaseEncoding, Encoding, SudokuEncoding};
use sudosat::grid::{check_solution, read_puzzles_from_path};
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{SolveOutcome, Solver};
use sudosat::{Cnf, Grid};

use common::{cnf_of, external_available, fixture, pigeonhole};

/// Fixture files with a solutions file of the same name in `tests/fixtures/solutions/`.
///
/// The minimal encodings lack the unit "at least one" clauses that turn hidden singles into
/// unit propagation, so on the 25×25 grids they take the DPLL minutes and splr 93 s, and on
/// `rank4-2.csv` the DPLL 4 s in a release build (measured); they skip the
/// [`EXTENDED_ONLY_FILES`], the extended encodings run on all.
const PUZZLE_FILES: &[&str] = &[
    "thesis-4x4.txt",
    "thesis-9x9.txt",
    "debian-medium.txt",
    "debian-fiendish.txt",
    "minimal-40.txt",
    "expert-20.txt",
    "rank3-20.csv",
    "rank4-2.csv",
    "sudoku-4-1.txt",
    "sudoku-16-1.txt",
    "sudoku-25-1.txt",
    "rank5-1.csv",
];

/// The files of [`PUZZLE_FILES`] the minimal encodings are not tried on.
const EXTENDED_ONLY_FILES: &[&str] = &["rank4-2.csv", "sudoku-25-1.txt", "rank5-1.csv"];

fn read(path: &Path) -> Vec<Grid> {
    read_puzzles_from_path(path, None).expect("fixture parses")
}

/// Solves `cnf` on a fresh backend and checks any model against it here as well.
fn solve_cnf(spec: &BackendSpec, cnf: &Cnf) -> SatOutcome {
    let mut backend = spec.create().expect("backend created");
    cnf.stream_into(backend.as_mut());
    let outcome = backend.solve().expect("backend answers");
    if let SatOutcome::Sat(model) = &outcome {
        assert_eq!(cnf.first_falsified(model), None, "{}", spec.label());
    }
    outcome
}

/// Counts models of `cnf` over its variables by blocking each found model.
fn count_models(backend: &mut dyn SatBackend, cnf: &Cnf) -> usize {
    cnf.stream_into(backend);
    let mut count = 0;
    while let SatOutcome::Sat(model) = backend.solve().expect("backend answers") {
        assert_eq!(cnf.first_falsified(&model), None);
        count += 1;
        let vars = (0..cnf.num_vars()).map(sudosat::Var::from_index);
        backend.add_clause(&model.blocking_clause(vars));
        assert!(count < 1000, "runaway model enumeration");
    }
    count
}

/// A puzzle whose givens repeat nothing in any unit but which has no solution: r1 holds
/// 1…8 and r2c9 holds 9, so r1c9 has no candidate left.
fn unsolvable_puzzle() -> Grid {
    let mut line = String::from("12345678.");
    line.push_str("........9");
    line.push_str(&".".repeat(63));
    line.parse().expect("valid puzzle")
}

/// A full solution with one "deadly rectangle" blanked: four cells in two rows, two columns
/// and two boxes holding a,b / b,a. Exactly two solutions.
fn two_solution_puzzle() -> Grid {
    let solution = read(&fixture("solutions/thesis-9x9.txt")).remove(0);
    let geo = solution.geometry();
    let n = geo.side();
    let v = |r: usize, c: usize| solution.get(geo.cell(r, c)).expect("full grid");
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let same_band = r1 / 3 == r2 / 3;
                    let same_stack = c1 / 3 == c2 / 3;
                    if same_band == same_stack {
                        continue;
                    }
                    if v(r1, c1) == v(r2, c2) && v(r1, c2) == v(r2, c1) {
                        let mut puzzle = solution.clone();
                        for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
                            puzzle.set(geo.cell(r, c), None);
                        }
                        return puzzle;
                    }
                }
            }
        }
    }
    panic!("no deadly rectangle in the fixture solution");
}

fn solved(report: SolveOutcome) -> Grid {
    match report {
        SolveOutcome::Solved(grid) => grid,
        other => panic!("expected a solution, got {other:?}"),
    }
}

/// The conformance suite, one function per property, each run on every backend.
mod suite {
    use super::*;

    pub fn empty_formula_is_sat(spec: &BackendSpec) {
        assert!(matches!(solve_cnf(spec, &Cnf::new()), SatOutcome::Sat(_)));
        let cnf = Cnf::with_vars(3);
        match solve_cnf(spec, &cnf) {
            SatOutcome::Sat(model) => assert_eq!(model.len(), 3),
            SatOutcome::Unsat => panic!("empty formula is SAT"),
        }
    }

    pub fn empty_clause_is_unsat(spec: &BackendSpec) {
        assert_eq!(solve_cnf(spec, &cnf_of(&[&[]])), SatOutcome::Unsat);
        assert_eq!(
            solve_cnf(spec, &cnf_of(&[&[1, 2], &[], &[-1]])),
            SatOutcome::Unsat
        );
    }

    pub fn small_formulas(spec: &BackendSpec) {
        let sat = cnf_of(&[&[1, 2], &[-1, 2], &[-2, 3], &[-3, -1, 4], &[1, -4, 5]]);
        assert!(matches!(solve_cnf(spec, &sat), SatOutcome::Sat(_)));
        let unsat = cnf_of(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
        assert_eq!(solve_cnf(spec, &unsat), SatOutcome::Unsat);
        assert_eq!(solve_cnf(spec, &cnf_of(&[&[1], &[-1]])), SatOutcome::Unsat);
        // Duplicate and complementary literals.
        let odd = cnf_of(&[&[1, 1, -2], &[2, -2], &[-1, -1], &[2, 3, 3]]);
        assert!(matches!(solve_cnf(spec, &odd), SatOutcome::Sat(_)));
    }

    pub fn pigeonhole_formulas(spec: &BackendSpec) {
        assert_eq!(
            solve_cnf(spec, &common::pigeonhole(4, 3)),
            SatOutcome::Unsat
        );
        assert_eq!(
            solve_cnf(spec, &common::pigeonhole(5, 4)),
            SatOutcome::Unsat
        );
        assert!(matches!(
            solve_cnf(spec, &common::pigeonhole(4, 4)),
            SatOutcome::Sat(_)
        ));
    }

    pub fn clauses_added_after_solve(spec: &BackendSpec) {
        // x1 ∨ x2 ∨ x3 has 7 models; 4 pigeons in 4 holes have 4! = 24.
        let mut backend = spec.create().unwrap();
        assert_eq!(count_models(backend.as_mut(), &cnf_of(&[&[1, 2, 3]])), 7);
        backend.reset();
        assert_eq!(
            count_models(backend.as_mut(), &common::pigeonhole(4, 4)),
            24
        );
        // Still UNSAT once blocked, and after reset a fresh formula.
        assert_eq!(backend.solve().unwrap(), SatOutcome::Unsat);
        backend.reset();
        assert!(matches!(backend.solve().unwrap(), SatOutcome::Sat(_)));
    }

    pub fn every_shipped_puzzle_in_every_encoding(spec: &BackendSpec) {
        for encoding in SudokuEncoding::ALL {
            let mut solver = SatSolver::new(encoding, spec.clone());
            let files = PUZZLE_FILES.iter().filter(|file| {
                encoding.base != BaseEncoding::Minimal || !EXTENDED_ONLY_FILES.contains(file)
            });
            for file in files {
                let puzzles = read(&fixture(file));
                let solutions = read(&fixture(&format!("solutions/{file}")));
                assert_eq!(puzzles.len(), solutions.len(), "{file}");
                for (i, (puzzle, known)) in puzzles.iter().zip(&solutions).enumerate() {
                    let what = format!("{file} #{} with {}", i + 1, encoding.name());
                    let grid = solved(solver.solve(puzzle).expect(&what).outcome);
                    assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
                    assert_eq!(&grid, known, "{what}");
                }
            }
        }
    }

    pub fn unsolvable_puzzle_has_no_solution(spec: &BackendSpec) {
        let puzzle = unsolvable_puzzle();
        for encoding in SudokuEncoding::ALL {
            let mut solver = SatSolver::new(encoding, spec.clone());
            let report = solver.solve(&puzzle).unwrap();
            assert_eq!(
                report.outcome,
                SolveOutcome::NoSolution,
                "{}",
                encoding.name()
            );
            assert_eq!(solver.count_solutions(&puzzle, 2).unwrap(), Some(0));
        }
    }

    pub fn two_solution_puzzle_counts_two(spec: &BackendSpec) {
        let puzzle = two_solution_puzzle();
        for encoding in SudokuEncoding::ALL {
            let mut solver = SatSolver::new(encoding, spec.clone());
            assert_eq!(solver.count_solutions(&puzzle, 2).unwrap(), Some(2));
            assert_eq!(solver.count_solutions(&puzzle, 10).unwrap(), Some(2));
            assert_eq!(solver.count_solutions(&puzzle, 1).unwrap(), Some(1));
            let found = solver.solutions(&puzzle, 0).unwrap();
            assert_eq!(found.len(), 2);
            assert_ne!(found[0], found[1]);
            for grid in &found {
                assert!(check_solution(&puzzle, grid).is_valid());
            }
        }
    }
}

/// The commands the suite runs a process backend with: its default command, or else the
/// competition solvers CI installs (each skipped with a printed reason when absent).
fn suite_commands(process: Process) -> Vec<(&'static str, &'static str)> {
    match process.default_command {
        Some(command) => vec![(command, command)],
        None => vec![("cadical", "cadical -q"), ("picosat", "picosat")],
    }
}

/// The embedded backends this build has, in registry order.
fn built_embedded() -> Vec<BackendKind> {
    BackendKind::ALL
        .into_iter()
        .filter(|kind| kind.is_embedded() && kind.is_built())
        .collect()
}

/// The backends over C solver libraries that this build has (CaDiCaL, Kissat).
fn built_native() -> Vec<BackendKind> {
    BackendKind::ALL
        .into_iter()
        .filter(|kind| kind.is_embedded() && kind.entry().feature.is_some() && kind.is_built())
        .collect()
}

/// Every backend of the registry as the suite runs it: each embedded one as it is, varisat
/// also under a time limit (it then writes its proof steps to a sink that stops it at the
/// deadline, and rebuilds itself for clauses added after a solve), the C solvers also under
/// one (their terminate callback armed), each process backend with its [`suite_commands`].
/// A backend whose feature this build left out is skipped with a printed reason.
fn every_backend() -> Vec<BackendSpec> {
    let mut specs = Vec::new();
    for (kind, entry) in BackendKind::ALL.into_iter().zip(&BACKENDS) {
        match entry.process {
            None if !kind.is_built() => eprintln!("skipped: {}", kind.not_built()),
            None => specs.push(BackendSpec::new(kind)),
            Some(process) => {
                for (binary, command) in suite_commands(process) {
                    specs.extend(external(binary, command, kind));
                }
            }
        }
    }
    specs.push(BackendSpec::new(BackendKind::Varisat).with_timeout(Some(Duration::from_secs(60))));
    for kind in built_native() {
        specs.push(BackendSpec::new(kind).with_timeout(Some(Duration::from_secs(60))));
    }
    specs
}

/// Runs `property` on every backend, in parallel, and fails naming each backend it failed on.
fn on_every_backend(property: fn(&BackendSpec)) {
    let failed: Vec<String> = every_backend()
        .par_iter()
        .filter_map(|spec| {
            std::panic::catch_unwind(|| property(spec))
                .err()
                .map(|_| spec.label())
        })
        .collect();
    assert!(failed.is_empty(), "failed on: {}", failed.join(", "));
}

#[test]
fn empty_formula_is_sat() {
    on_every_backend(suite::empty_formula_is_sat);
}

#[test]
fn empty_clause_is_unsat() {
    on_every_backend(suite::empty_clause_is_unsat);
}

#[test]
fn small_formulas() {
    on_every_backend(suite::small_formulas);
}

#[test]
fn pigeonhole_formulas() {
    on_every_backend(suite::pigeonhole_formulas);
}

#[test]
fn clauses_added_after_solve() {
    on_every_backend(suite::clauses_added_after_solve);
}

#[test]
fn every_shipped_puzzle_in_every_encoding() {
    on_every_backend(suite::every_shipped_puzzle_in_every_encoding);
}

#[test]
fn unsolvable_puzzle_has_no_solution() {
    on_every_backend(suite::unsolvable_puzzle_has_no_solution);
}

#[test]
fn two_solution_puzzle_counts_two() {
    on_every_backend(suite::two_solution_puzzle_counts_two);
}

fn external(binary: &str, command: &str, kind: BackendKind) -> Option<BackendSpec> {
    external_available(binary).then(|| BackendSpec {
        command: Some(command.to_string()),
        timeout: Some(Duration::from_secs(60)),
        ..BackendSpec::new(kind)
    })
}

/// `count` puzzles derived from the fixture solutions by removing 45…64 clues at random
/// (fixed seed): some keep a unique solution, some have several.
fn derived_puzzles(count: usize) -> Vec<Grid> {
    common::derived_puzzles(count, 2006, 45..65)
}

/// Every backend solves every puzzle; on puzzles with one solution (per the DPLL count) all
/// give the same grid, on the others each grid is checked as a valid solution.
fn agree(specs: &[BackendSpec], puzzles: &[Grid]) {
    let encoding = SudokuEncoding::from_name("extended+reduced").unwrap();
    let mut reference = SatSolver::new(encoding, BackendSpec::new(BackendKind::Dpll));
    let mut solvers: Vec<SatSolver> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| SatSolver::new(SudokuEncoding::ALL[i % 4], spec.clone()))
        .collect();
    let mut unique = 0;
    for (i, puzzle) in puzzles.iter().enumerate() {
        let count = reference.count_solutions(puzzle, 2).unwrap().unwrap();
        assert!(count >= 1, "puzzle {i} was derived from a solution");
        let first = solved(reference.solve(puzzle).unwrap().outcome);
        assert!(check_solution(puzzle, &first).is_valid());
        unique += usize::from(count == 1);
        for solver in &mut solvers {
            let what = format!("puzzle {i} on {}", solver.spec().label());
            let grid = solved(solver.solve(puzzle).expect(&what).outcome);
            assert!(check_solution(puzzle, &grid).is_valid(), "{what}");
            if count == 1 {
                assert_eq!(grid, first, "{what}");
            }
        }
    }
    assert!(
        unique > 0,
        "the batch should hold uniquely solvable puzzles"
    );
}

#[test]
fn embedded_backends_agree_on_200_puzzles() {
    let specs: Vec<BackendSpec> = built_embedded()
        .into_iter()
        .flat_map(|k| std::iter::repeat(BackendSpec::new(k)).take(4))
        .collect();
    agree(&specs, &derived_puzzles(200));
}

#[test]
fn external_backends_agree_on_a_subset() {
    let mut specs = Vec::new();
    for (binary, command, kind) in [
        ("minisat", "minisat", BackendKind::Minisat),
        ("cadical", "cadical -q", BackendKind::External),
        ("picosat", "picosat", BackendKind::External),
    ] {
        specs.extend(external(binary, command, kind));
    }
    if specs.is_empty() {
        return;
    }
    agree(&specs, &derived_puzzles(200)[..24]);
}

// ---- fault tests: real processes -------------------------------------------------------

/// Writes an executable shell script into `dir`.
#[cfg(unix)]
fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `command` on a small SAT formula with temporary files under a fresh directory, and
/// checks that directory is empty afterwards.
fn run_external(command: &str, style: OutputStyle, timeout: Option<Duration>) -> BackendError {
    let root = common::temp_dir();
    let mut solver = ExternalSolver::new(command, style)
        .unwrap()
        .with_timeout(timeout)
        .with_temp_root(root.path());
    cnf_of(&[&[1, 2], &[-1, 2], &[-2, 3]]).stream_into(&mut solver);
    let err = solver.solve().expect_err("the solver fails");
    let left: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
    assert!(
        err.to_string().contains(command),
        "error names the command: {err}"
    );
    err
}

#[test]
fn missing_command_is_a_spawn_error() {
    let err = run_external("/nonexistent/sat-solver -q", OutputStyle::Competition, None);
    assert!(matches!(err, BackendError::Spawn { .. }), "{err}");
    assert!(BackendSpec::new(BackendKind::External).create().is_err());
    assert!(ExternalSolver::new("   ", OutputStyle::Competition).is_err());
}

#[cfg(unix)]
#[test]
fn crashing_solver_is_reported_with_its_signal() {
    let dir = common::temp_dir();
    let cmd = script(
        dir.path(),
        "segv.sh",
        "echo 'c about to crash' >&2\nkill -SEGV $$",
    );
    let err = run_external(&cmd, OutputStyle::Competition, None);
    assert!(matches!(err, BackendError::Failed { .. }), "{err}");
    assert!(err.to_string().contains("signal 11"), "{err}");
    let err = run_external(&cmd, OutputStyle::MinisatFile, None);
    assert!(err.to_string().contains("SIGSEGV"), "{err}");
}

#[cfg(unix)]
#[test]
fn unexpected_exit_status_is_reported() {
    let dir = common::temp_dir();
    let cmd = script(dir.path(), "exit3.sh", "echo 'out of memory' >&2\nexit 3");
    let err = run_external(&cmd, OutputStyle::Competition, None);
    assert!(matches!(err, BackendError::Failed { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("exit status 3") && text.contains("out of memory"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn slow_solver_is_killed_at_the_timeout() {
    let dir = common::temp_dir();
    let cmd = script(dir.path(), "slow.sh", "sleep 30\necho 's SATISFIABLE'");
    let start = std::time::Instant::now();
    let err = run_external(
        &cmd,
        OutputStyle::Competition,
        Some(Duration::from_millis(300)),
    );
    assert!(matches!(err, BackendError::Timeout { .. }), "{err}");
    // Not a speed assertion: the 30 s sleep must not have been waited for.
    assert!(start.elapsed() < Duration::from_secs(25));
}

#[cfg(unix)]
#[test]
fn wrong_model_is_caught() {
    let dir = common::temp_dir();
    // x1 ∨ x2, ¬x1 ∨ x2, ¬x2 ∨ x3: x2 = false falsifies clause 0 (x1 false too).
    let cmd = script(
        dir.path(),
        "liar.sh",
        "echo 's SATISFIABLE'\necho 'v -1 -2 3 0'",
    );
    let err = run_external(&cmd, OutputStyle::Competition, None);
    match err {
        BackendError::WrongModel { solver, clause } => {
            assert!(solver.contains("liar.sh"));
            assert_eq!(clause, 0);
        }
        other => panic!("expected WrongModel, got {other}"),
    }
}

#[cfg(unix)]
#[test]
fn garbage_and_truncated_output_are_bad_output() {
    let dir = common::temp_dir();
    for (name, body) in [
        ("garbage.sh", "echo 'hello world'"),
        ("truncated.sh", "echo 's SATISFIABLE'\necho 'v 1 2'"),
        ("badlit.sh", "echo 's SATISFIABLE'\necho 'v 1 x 0'"),
    ] {
        let cmd = script(dir.path(), name, body);
        let err = run_external(&cmd, OutputStyle::Competition, None);
        assert!(
            matches!(err, BackendError::BadOutput { .. }),
            "{name}: {err}"
        );
    }
    // MiniSat style: exit 10 but a result file that is not an answer, or none at all.
    let cmd = script(dir.path(), "nofile.sh", "exit 10");
    let err = run_external(&cmd, OutputStyle::MinisatFile, None);
    assert!(matches!(err, BackendError::BadOutput { .. }), "{err}");
    let cmd = script(dir.path(), "badfile.sh", "echo 'MAYBE' > \"$2\"\nexit 10");
    let err = run_external(&cmd, OutputStyle::MinisatFile, None);
    assert!(matches!(err, BackendError::BadOutput { .. }), "{err}");
}

#[test]
fn backend_names_parse() {
    for kind in BackendKind::ALL {
        assert_eq!(kind.name().parse::<BackendKind>().unwrap(), kind);
    }
    assert!("glucose".parse::<BackendKind>().is_err());
}

/// The time limit covers the whole puzzle, encoding and loading included: a limit that
/// has passed before the backend starts is a time-out naming the full limit, for every
/// embedded backend, even where the root propagation alone would solve the puzzle (which,
/// with the limit counted from the backend's start, it did).
#[test]
fn the_time_limit_counts_from_the_encoding() {
    let puzzle = read(&fixture("thesis-4x4.txt")).remove(0);
    let limit = Duration::from_nanos(1);
    let kinds = [BackendKind::Cdcl, BackendKind::Dpll, BackendKind::Varisat];
    for kind in kinds.into_iter().chain(built_native()) {
        let mut solver = SatSolver::new(
            SudokuEncoding::from_name("extended+reduced").unwrap(),
            BackendSpec::new(kind),
        );
        solver.set_time_limit(Some(limit));
        let err = solver.solve(&puzzle).unwrap_err();
        assert!(err.is_timeout(), "{kind:?}: {err}");
        assert!(err.to_string().ends_with("timed out after 1ns"), "{err}");
        // The limit lifted, the same solver solves it.
        solver.set_time_limit(None);
        let grid = solved(solver.solve(&puzzle).unwrap().outcome);
        assert!(check_solution(&puzzle, &grid).is_valid());
    }
}

/// A count's solves share the puzzle's time limit: each blocking-clause solve gets what
/// the earlier ones left. (Each once got the whole limit, so a count of many solutions ran
/// far past it: 100,000 solutions of the empty 9×9 grid take seconds, each solve
/// microseconds.) The limit lifted, the same solver counts them.
#[test]
fn the_solves_of_a_count_share_its_time_limit() {
    let empty = Grid::empty(3).unwrap();
    let mut solver = SatSolver::new(
        SudokuEncoding::from_name("extended+reduced").unwrap(),
        BackendSpec::new(BackendKind::Cdcl),
    );
    solver.set_time_limit(Some(Duration::from_millis(200)));
    let err = solver.solutions(&empty, 100_000).unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert!(err.to_string().ends_with("timed out after 200ms"), "{err}");
    solver.set_time_limit(None);
    let grids = solver.solutions(&empty, 50).unwrap();
    assert_eq!(grids.len(), 50);
    for grid in &grids {
        assert!(check_solution(&empty, grid).is_valid());
    }
}

/// varisat 0.2 has no interrupt, but a failed proof write ends its solve: under a time
/// limit its steps go to a sink whose writes fail past the deadline. Pigeonhole 12 → 11,
/// which it does not refute in minutes, is then a time-out soon after the limit; reset,
/// the same backend keeps the limit and answers small formulas.
#[test]
fn varisat_stops_at_its_time_limit() {
    let limit = Duration::from_millis(100);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut backend = BackendSpec::new(BackendKind::Varisat)
            .with_timeout(Some(limit))
            .create()
            .unwrap();
        assert!(backend.honours_time_limit());
        backend.add_formula(&mut pigeonhole(12, 11));
        let hard = backend.solve();
        backend.reset();
        backend.add_formula(&mut pigeonhole(4, 3));
        let unsat = backend.solve();
        backend.reset();
        backend.add_formula(&mut pigeonhole(3, 3));
        let sat = backend.solve();
        let _ = sender.send((hard, unsat, sat));
    });
    // A liveness bound, not a timing: without the sink the first solve runs for minutes.
    let (hard, unsat, sat) = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("varisat did not stop at its time limit");
    match hard {
        Err(BackendError::Timeout { solver, timeout }) => {
            assert_eq!((solver.as_str(), timeout), ("varisat", limit))
        }
        other => panic!("expected a time-out, got {other:?}"),
    }
    assert!(matches!(unsat, Ok(SatOutcome::Unsat)), "{unsat:?}");
    match sat {
        Ok(SatOutcome::Sat(model)) => assert_eq!(pigeonhole(3, 3).first_falsified(&model), None),
        other => panic!("expected a model, got {other:?}"),
    }
}

/// Counting by blocking clauses under a time limit: varisat's steps switch to its own
/// format at the first blocking clause (DRAT cannot take clauses after a solve), and the
/// count goes on incrementally. The empty 4×4 grid has 288 solutions.
#[test]
fn varisat_counts_every_solution_under_a_time_limit() {
    let empty = Grid::empty(2).unwrap();
    let mut solver = SatSolver::new(
        SudokuEncoding::from_name("extended+reduced").unwrap(),
        BackendSpec::new(BackendKind::Varisat),
    );
    solver.set_time_limit(Some(Duration::from_secs(60)));
    let grids = solver.solutions(&empty, 1000).unwrap();
    assert_eq!(grids.len(), 288);
    let mut distinct: Vec<String> = grids.iter().map(|g| g.to_string()).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 288);
    assert!(grids.iter().all(|g| check_solution(&empty, g).is_valid()));
}

/// The interrupt stops varisat too (through the same step sink as its time limit): the
/// parallel conquer of `sat --cubes` stops its other workers this way once one answers.
/// Reset, with the flag cleared, the same backend answers again.
#[test]
fn varisat_stops_at_its_interrupt() {
    let flag = Arc::new(AtomicBool::new(false));
    let (to_test, from_worker) = std::sync::mpsc::channel();
    let (to_worker, from_test) = std::sync::mpsc::channel::<()>();
    let worker_flag = Arc::clone(&flag);
    std::thread::spawn(move || {
        let mut backend = BackendSpec::new(BackendKind::Varisat).create().unwrap();
        backend.set_interrupt(Some(worker_flag));
        backend.add_formula(&mut pigeonhole(12, 11));
        let _ = to_test.send(backend.solve());
        if from_test.recv().is_ok() {
            backend.reset();
            backend.add_formula(&mut pigeonhole(3, 3));
            let _ = to_test.send(backend.solve());
        }
    });
    std::thread::sleep(Duration::from_millis(50));
    flag.store(true, Ordering::Relaxed);
    // A liveness bound, not a timing: without the sink the first solve runs for minutes.
    let hard = from_worker
        .recv_timeout(Duration::from_secs(120))
        .expect("varisat did not stop at its interrupt");
    assert!(
        matches!(hard, Err(BackendError::Timeout { .. })),
        "{hard:?}"
    );
    flag.store(false, Ordering::Relaxed);
    to_worker.send(()).unwrap();
    match from_worker.recv().unwrap() {
        Ok(SatOutcome::Sat(model)) => assert_eq!(pigeonhole(3, 3).first_falsified(&model), None),
        other => panic!("expected a model, got {other:?}"),
    }
}

/// The C solvers stop at their time limit and at their interrupt flag through their
/// terminate callbacks: pigeonhole 12 → 11, which neither refutes in minutes, is a time-out
/// naming the limit, then, with the flag set from another thread, a time-out again; reset,
/// the same backend answers small formulas, keeping its limit.
#[test]
fn the_c_solvers_stop_at_their_time_limit_and_interrupt() {
    for kind in built_native() {
        let limit = Duration::from_millis(100);
        let flag = Arc::new(AtomicBool::new(false));
        let worker_flag = Arc::clone(&flag);
        let (to_test, from_worker) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut backend = BackendSpec::new(kind)
                .with_timeout(Some(limit))
                .create()
                .unwrap();
            assert!(backend.honours_time_limit());
            backend.add_formula(&mut pigeonhole(12, 11));
            let timed = backend.solve();
            backend.set_time_limit(None);
            backend.set_interrupt(Some(worker_flag));
            let _ = to_test.send(timed);
            let _ = to_test.send(backend.solve());
            backend.set_interrupt(None);
            backend.reset();
            backend.add_formula(&mut pigeonhole(4, 3));
            let unsat = backend.solve();
            backend.reset();
            backend.add_formula(&mut pigeonhole(3, 3));
            let _ = to_test.send(unsat);
            let _ = to_test.send(backend.solve());
        });
        // Liveness bounds, not timings: without the callback each solve runs for minutes.
        let next = || {
            from_worker
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("{kind} did not stop"))
        };
        match next() {
            Err(BackendError::Timeout { solver, timeout }) => {
                assert_eq!((solver.as_str(), timeout), (kind.name(), limit))
            }
            other => panic!("{kind}: expected a time-out, got {other:?}"),
        }
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, Ordering::Relaxed);
        let interrupted = next();
        assert!(
            matches!(interrupted, Err(BackendError::Timeout { .. })),
            "{kind}: {interrupted:?}"
        );
        assert!(matches!(next(), Ok(SatOutcome::Unsat)), "{kind}");
        match next() {
            Ok(SatOutcome::Sat(model)) => {
                assert_eq!(pigeonhole(3, 3).first_falsified(&model), None, "{kind}")
            }
            other => panic!("{kind}: expected a model, got {other:?}"),
        }
    }
}

/// A backend left out of this build is named with the feature that brings it, from the
/// library as from the CLI.
#[test]
fn a_backend_left_out_names_its_feature() {
    for kind in BackendKind::ALL.into_iter().filter(|k| !k.is_built()) {
        let feature = kind
            .entry()
            .feature
            .expect("only features leave backends out");
        let err = BackendSpec::new(kind).create().err().expect("not built");
        assert!(matches!(err, BackendError::NotBuilt { .. }), "{err}");
        assert!(
            err.to_string()
                .contains(&format!("--features {}", feature.name)),
            "{err}"
        );
    }
}
