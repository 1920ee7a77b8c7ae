//! Resource guards: a formula over the memory budget is refused before it is built, with
//! its size and the ways out, exit 2; the same puzzle within budget is solved and checked.

mod common;

use common::{assert_exit, parse_output, path, read_fixture, run, stderr, stdout};
use sudosat::grid::check_solution;

#[test]
fn over_budget_is_one_line_naming_the_size_and_the_way_out() {
    let p = path("sudoku-25-1.txt");
    for cmd in ["solve", "count"] {
        let out = run(&[cmd, &p, "--no-reduce", "--max-memory", "1M"]);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        // The closed form of the extended encoding of this 25×25 puzzle.
        assert!(err.contains("15625 variables, 752753 clauses"), "{err}");
        assert!(
            err.contains("--reduce") && err.contains("sudosat encode"),
            "{err}"
        );
        assert!(err.contains("sudoku-25-1.txt:1"), "{err}");
    }
}

#[test]
fn a_144x144_unreduced_formula_is_refused_before_it_is_built() {
    let dir = common::temp_dir();
    let file = dir.path().join("empty-144.txt");
    std::fs::write(&file, ".".repeat(144 * 144) + "\n").unwrap();
    let out = run(&[
        "solve",
        file.to_str().unwrap(),
        "--no-reduce",
        "--max-memory",
        "4G",
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.contains("854074368 clauses"), "{err}");
    assert!(err.contains("budget of 4096 MiB"), "{err}");
}

#[test]
fn within_budget_solves() {
    let p = path("sudoku-25-1.txt");
    let out = run(&["solve", &p, "--no-reduce", "--max-memory", "1G"]);
    assert_exit(&out, 0);
    let puzzle = &read_fixture("sudoku-25-1.txt")[0];
    let solved = parse_output(&stdout(&out));
    assert_eq!(solved.len(), 1);
    assert!(check_solution(puzzle, &solved[0]).is_valid());
}

#[test]
fn bad_budget_is_a_usage_error() {
    let out = run(&["solve", &path("sudoku-4-1.txt"), "--max-memory", "lots"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("512M"), "{}", stderr(&out));
}

/// A DIMACS file whose header declares 10^8 variables: six lines, but an in-process
/// solver would need about 6 GiB of per-variable arrays.
fn wide_cnf(dir: &std::path::Path) -> String {
    let file = dir.join("wide.cnf");
    std::fs::write(&file, "p cnf 100000000 2\n1 -2 0\n2 0\n").unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn sat_refuses_a_formula_over_budget_before_building_the_solver() {
    let dir = common::temp_dir();
    let file = wide_cnf(dir.path());
    let out = run(&["sat", &file, "--max-memory", "1G"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("wide.cnf: 100000000 variables, 2 clauses and 3 literals"),
        "{err}"
    );
    assert!(err.contains("budget of 1024 MiB"), "{err}");
    assert!(err.contains("--backend external"), "{err}");
    assert!(stdout(&out).is_empty());
}

/// Twenty million variables and one clause take cdcl 2.7 GB of per-variable arrays (and
/// the lookahead backend 2.8, CaDiCaL 3.3): a 2 GiB budget refuses them, for every
/// in-process backend, the C solvers included, before they are loaded.
#[test]
fn sat_counts_what_each_variable_costs() {
    use sudosat::backend::BackendKind;
    let dir = common::temp_dir();
    let file = dir.path().join("vars.cnf");
    std::fs::write(&file, "p cnf 20000000 1\n1 0\n").unwrap();
    let native = [BackendKind::Cadical, BackendKind::Kissat]
        .into_iter()
        .filter(|kind| kind.is_built())
        .map(BackendKind::name);
    for backend in ["cdcl", "lookahead"].into_iter().chain(native) {
        let out = run(&[
            "sat",
            file.to_str().unwrap(),
            "--backend",
            backend,
            "--max-memory",
            "2G",
        ]);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.contains("about 2747 MiB to solve"), "{backend}: {err}");
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn sat_within_budget_answers() {
    let dir = common::temp_dir();
    let file = dir.path().join("small.cnf");
    std::fs::write(&file, "p cnf 3 3\n1 -2 0\n2 0\n-1 3 0\n").unwrap();
    let out = run(&["sat", file.to_str().unwrap(), "--max-memory", "1M"]);
    assert_exit(&out, 10);
    let text = stdout(&out);
    assert!(text.contains("s SATISFIABLE"), "{text}");
    assert!(text.contains("v 1 2 3"), "{text}");
}

#[test]
fn compare_refuses_an_entry_over_budget_before_running() {
    let p = path("sudoku-25-1.txt");
    let out = run(&[
        "compare",
        &p,
        "--solvers",
        "dpll,dlx",
        "--encodings",
        "extended",
        "--max-memory",
        "64M",
        "--jobs",
        "2",
        "-q",
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    // 42 MiB for the unreduced 25×25, over the 32 MiB share of each of two jobs.
    assert!(
        err.contains("sudoku-25-1.txt:1: entry dpll/extended: 15625 variables, 752753 clauses"),
        "{err}"
    );
    assert!(err.contains("budget of 32 MiB a job (--jobs 2)"), "{err}");
    assert!(
        stdout(&out).is_empty(),
        "nothing measured: {}",
        stdout(&out)
    );
}

#[test]
fn compare_within_budget_runs() {
    let p = path("sudoku-4-1.txt");
    let out = run(&[
        "compare",
        &p,
        "--solvers",
        "dpll,dlx",
        "--max-memory",
        "1M",
        "-q",
        "--csv",
        "-",
    ]);
    assert_exit(&out, 0);
    let csv = stdout(&out);
    // A header and one solved row per entry.
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert_eq!(csv.matches(",solved,").count(), 2, "{csv}");
}

#[test]
fn generate_with_the_sat_counter_refuses_a_size_over_budget() {
    let out = run(&[
        "generate",
        "--size",
        "5",
        "--counter",
        "sat",
        "--max-memory",
        "16M",
        "--seed",
        "1",
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    // The reduced encoding of the empty 25×25 grid is the unreduced one less the givens'
    // unit clauses.
    assert!(
        err.contains("empty 25×25 grid has 15625 variables, 752500 clauses"),
        "{err}"
    );
    assert!(err.contains("--counter bitmask"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn generate_with_the_sat_counter_within_budget_generates_a_unique_puzzle() {
    let out = run(&[
        "generate",
        "--size",
        "2",
        "--counter",
        "sat",
        "--max-memory",
        "16M",
        "--seed",
        "1",
    ]);
    assert_exit(&out, 0);
    let puzzles = parse_output(&stdout(&out));
    assert_eq!(puzzles.len(), 1);
    assert_eq!(
        sudosat::solve::count_solutions(&puzzles[0], 2).unwrap(),
        1,
        "{}",
        puzzles[0]
    );
}

/// `sudosat encode ARGS` in `dir` with the free disk space taken as `free` bytes.
fn encode_with_free_space(dir: &std::path::Path, free: u64, args: &[&str]) -> std::process::Output {
    common::sudosat()
        .arg("encode")
        .args(args)
        .current_dir(dir)
        .env("SUDOSAT_ASSUME_FREE_BYTES", free.to_string())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sudosat runs")
}

#[test]
fn a_cnf_that_cannot_fit_on_the_disk_is_refused_before_anything_is_written() {
    let dir = common::temp_dir();
    let puzzle = path("sudoku-25-1.txt");
    // The extended encoding of this 25×25 puzzle: 752,753 clauses, about 13 MB of DIMACS.
    let out = encode_with_free_space(dir.path(), 1_000_000, &[&puzzle, "-o", "p.cnf"]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("p.cnf: the CNF would take about"), "{err}");
    assert!(err.contains("752753 clauses"), "{err}");
    assert!(
        err.contains("has 1.0 MB free; nothing was written"),
        "{err}"
    );
    assert!(err.contains("--reduce"), "{err}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing left"
    );
    // One CNF per puzzle: refused before the directory is made.
    let out = encode_with_free_space(dir.path(), 1_000_000, &[&puzzle, "--out-dir", "cnfs"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("cnfs: the CNF would take"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("cnfs").exists());
    // What fits is written: the same CNF with room for it, reduced, compressed, to stdout.
    let fits = encode_with_free_space(dir.path(), 100_000_000, &[&puzzle, "-o", "p.cnf"]);
    assert_exit(&fits, 0);
    let written = std::fs::metadata(dir.path().join("p.cnf")).unwrap().len();
    assert!(
        (1_000_000..100_000_000).contains(&written),
        "{written} bytes"
    );
    for args in [
        vec![puzzle.as_str(), "-o", "r.cnf", "--reduce"],
        vec![puzzle.as_str(), "-o", "p.cnf.xz"],
        vec![puzzle.as_str()],
        // A device fills no disk: not checked.
        #[cfg(unix)]
        vec![puzzle.as_str(), "-o", "/dev/null"],
    ] {
        let out = encode_with_free_space(dir.path(), 1_000_000, &args);
        assert_exit(&out, 0);
    }
    assert!(std::fs::metadata(dir.path().join("r.cnf")).unwrap().len() < 1_000_000);
}

/// `solve` with an external solver, its temporary directories under `tmp`, with `free`
/// bytes said to be free there; the solver command is never started when the check refuses.
fn external_solve_with_free_space(tmp: &std::path::Path, free: u64) -> std::process::Output {
    common::sudosat()
        .args([
            "solve",
            &path("minimal-1-line.txt"),
            "--backend",
            "external",
        ])
        .args(["--solver-cmd", "sudosat-no-such-solver -q"])
        .env("TMPDIR", tmp)
        .env("SUDOSAT_ASSUME_FREE_BYTES", free.to_string())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sudosat runs")
}

#[test]
fn an_external_solvers_input_that_cannot_fit_is_refused_before_it_is_written() {
    let tmp = common::temp_dir();
    let out = external_solve_with_free_space(tmp.path(), 1000);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("minimal-1-line.txt:1"), "{err}");
    assert!(err.contains("its input CNF would take about"), "{err}");
    assert!(err.contains("has 1000 bytes free"), "{err}");
    assert!(err.contains("TMPDIR"), "{err}");
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "no temporary directory left"
    );
    // With room, the check lets it through to the solver, which is then found missing.
    let out = external_solve_with_free_space(tmp.path(), 1_000_000_000);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.contains("could not be started"), "{err}");
    assert!(!err.contains("would take about"), "{err}");
}

#[test]
fn solve_directories_left_by_killed_runs_are_swept() {
    let tmp = common::temp_dir();
    let root = tmp.path();
    // A run killed outright (its pid no longer runs), a live owner (pid 1), and names
    // that are not ours to remove.
    let dead = root.join("sudosat-999999999-ab12");
    std::fs::create_dir(&dead).unwrap();
    std::fs::write(dead.join("in.cnf"), "p cnf 1 1\n1 0\n").unwrap();
    let keep = [
        root.join("sudosat-1-cd34"),
        root.join("sudosat-notapid"),
        root.join("other-999999999-x"),
    ];
    for dir in &keep {
        std::fs::create_dir(dir).unwrap();
    }
    let file = root.join("sudosat-999999999-file");
    std::fs::write(&file, "").unwrap();
    let out = external_solve_with_free_space(root, 1_000_000_000);
    assert_exit(&out, 2); // the solver command does not exist; the sweep came first
    assert!(!dead.exists(), "the dead run's directory is removed");
    for dir in &keep {
        assert!(dir.exists(), "{} kept", dir.display());
    }
    assert!(file.exists(), "a file is not a solve directory");
    // And this run left nothing of its own.
    let left: Vec<_> = std::fs::read_dir(root).unwrap().flatten().collect();
    assert_eq!(left.len(), keep.len() + 1, "{left:?}");
}

/// `explain --hint 2` on a 9×9 grid filled in wrongly names the wrong digit when its
/// diagnosis fits in the default memory budget (half the memory available, here taken as
/// `SUDOSAT_ASSUME_AVAILABLE_MEMORY`), and only says the grid cannot be completed when it
/// does not; `check --diagnose` then refuses with the estimate.
#[test]
fn the_hints_diagnosis_keeps_to_the_memory_available() {
    let mut grid = read_fixture("debian-fiendish.txt").remove(0);
    let cell = grid.geometry().cell(2, 4);
    let wrong = grid.candidates(cell).iter().find(|d| d.get() != 4).unwrap();
    grid.set(cell, Some(wrong));
    let line = grid.to_line().unwrap() + "\n";
    let with_memory = |bytes: &str, args: &[&str]| {
        let mut child = common::sudosat()
            .args(args)
            .env("SUDOSAT_ASSUME_AVAILABLE_MEMORY", bytes)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("sudosat runs");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(line.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let hint = ["explain", "--hint", "2", "-"];
    let out = with_memory("8000000000", &hint);
    assert_exit(&out, 1);
    assert!(
        stdout(&out).contains(&format!("r3c5={wrong} is wrong")),
        "{}",
        stdout(&out)
    );
    let out = with_memory("2000", &hint);
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("no solution: this grid cannot be completed (a digit in it is wrong"),
        "{text}"
    );
    assert!(!text.contains("r3c5"), "{text}");
    let out = with_memory("2000", &["check", "--diagnose", "-"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("memory budget"), "{}", stderr(&out));
}
