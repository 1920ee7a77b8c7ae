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
