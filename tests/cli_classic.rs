//! CLI tests of the classic solvers (`solve --solver NAME`, `--trace`, `--stats`,
//! `--timeout`) and of `sudosat explain`, running the real binary.

mod common;

use sudosat::grid::check_solution;
use sudosat::Grid;

use common::{
    assert_exit, assert_text_eq, fixture, parse_output, path, read_fixture, run, run_in,
    solve_and_check, stderr, stdout, temp_dir,
};

/// Asserts a failure: exit 2 and one line on stderr containing `needle`.
fn assert_one_line_error(out: &std::process::Output, needle: &str) {
    assert_exit(out, 2);
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("sudosat: error: ") && err.contains(needle),
        "{err}"
    );
}

#[test]
fn every_classic_solver_prints_the_known_solutions() {
    for solver in [
        "dlx",
        "backtrack",
        "backtrack-mrv",
        "human",
        "best-first",
        "fifo",
    ] {
        solve_and_check("thesis-9x9.txt", &["--solver", solver]);
        solve_and_check("expert-20.txt", &["--solver", solver]);
    }
    // The static orders on the puzzles they finish quickly (see tests/classic.rs).
    for solver in ["backtrack-row", "backtrack-column", "backtrack-box"] {
        for file in ["debian-fiendish.txt", "inkala-line.txt", "sudoku-16-1.txt"] {
            solve_and_check(file, &["--solver", solver]);
        }
    }
    for file in ["thesis-4x4.txt", "debian-medium.txt"] {
        solve_and_check(file, &["--solver", "backtrack-random", "--seed", "3"]);
    }
    for solver in ["dlx", "human", "best-first", "backtrack-mrv"] {
        solve_and_check("sudoku-16-1.txt", &["--solver", solver, "--to", "grid"]);
        solve_and_check("rank4-2.csv", &["--solver", solver, "--to", "csv2"]);
        solve_and_check("rank5-1.csv", &["--solver", solver, "--to", "csv2"]);
    }
}

#[test]
fn order_flag_and_stats_name_the_solver_and_its_counters() {
    let p = path("inkala-line.txt");
    for (flags, expected) in [
        (
            vec!["--solver", "backtrack", "--order", "column"],
            vec!["solver=backtrack-column", "assignments=", "backtracks="],
        ),
        (
            vec!["--solver", "backtrack"],
            vec!["solver=backtrack-mrv", "assignments="],
        ),
        (
            vec!["--solver", "dlx"],
            vec!["solver=dlx", "nodes=", "updates="],
        ),
        (
            vec!["--solver", "human"],
            vec!["solver=human", "deductions=", "guesses="],
        ),
        (
            vec!["--solver", "best-first"],
            vec!["solver=best-first", "expansions="],
        ),
        (vec!["--solver", "fifo"], vec!["solver=fifo", "expansions="]),
    ] {
        let mut args = vec!["solve", p.as_str(), "--stats"];
        args.extend_from_slice(&flags);
        let out = run(&args);
        assert_exit(&out, 0);
        let err = stderr(&out);
        assert!(err.starts_with("stats: puzzle 1 ("), "{err}");
        for word in expected {
            assert!(err.contains(word), "{flags:?}: missing {word}: {err}");
        }
    }
}

#[test]
fn hill_prints_a_solution_or_stops_and_traces_its_best_objectives() {
    let p = path("thesis-4x4.txt");
    let out = run(&["solve", &p, "--solver", "hill", "--seed", "0", "--trace"]);
    assert_exit(&out, 0);
    let known = read_fixture("solutions/thesis-4x4.txt");
    assert_eq!(parse_output(&stdout(&out)), known);
    // `trace: puzzle 1 (FILE:1): iteration I: objective O`, improving every line, ending at 0.
    let err = stderr(&out);
    let points: Vec<(u64, u64)> = err
        .lines()
        .map(|line| {
            let rest = line.strip_prefix("trace: puzzle 1 (").expect(line);
            let (_, rest) = rest.split_once("): iteration ").expect(line);
            let (i, o) = rest.split_once(": objective ").expect(line);
            (i.parse().unwrap(), o.parse().unwrap())
        })
        .collect();
    assert!(!points.is_empty(), "no trace: {err}");
    assert_eq!(points[0].0, 0);
    assert!(
        points
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1),
        "{err}"
    );
    assert_eq!(points.last().unwrap().1, 0);

    let p = path("debian-medium.txt");
    let out = run(&["solve", &p, "--solver", "hill", "--max-iterations", "5"]);
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("stopped: iteration cap of 5 reached; best objective "),
        "{text}"
    );
    assert!(
        stderr(&out).is_empty(),
        "no trace unless asked: {}",
        stderr(&out)
    );
}

#[test]
fn classic_solvers_answer_no_solution_with_exit_1() {
    let dir = temp_dir();
    let input = std::fs::read_to_string(fixture("corner/contradictory-4x4.txt")).unwrap()
        + &std::fs::read_to_string(fixture("corner/no-candidate-4x4.txt")).unwrap();
    for solver in sudosat::solve::CLASSIC_SOLVERS {
        let out = run_in(
            dir.path(),
            &["solve", "-", "--solver", solver],
            input.as_bytes(),
        );
        assert_exit(&out, 1);
        assert_eq!(stdout(&out), "no solution\nno solution\n", "{solver}");
    }
}

#[test]
fn count_with_classic_solvers() {
    let p = path("corner/empty-4x4.txt");
    for solver in ["dlx", "backtrack", "backtrack-row"] {
        let out = run(&["count", &p, "--solver", solver, "--limit", "0"]);
        assert_exit(&out, 1);
        assert_eq!(stdout(&out), "multiple (288)\n", "{solver}");
        let thesis = path("thesis-9x9.txt");
        let out = run(&["count", &thesis, "--solver", solver]);
        assert_exit(&out, 0);
        let expected: String = (1..=9).map(|i| format!("{thesis}:{i}: unique\n")).collect();
        assert_eq!(stdout(&out), expected, "{solver}");
    }
    let out = run(&["count", &p, "--solver", "human"]);
    assert_one_line_error(&out, "cannot count");
}

#[test]
fn a_time_limit_is_one_line_naming_the_puzzle() {
    let p = path("sudoku-25-1.txt");
    for solver in ["dlx", "backtrack-mrv"] {
        let out = run(&["solve", &p, "--solver", solver, "--timeout", "0.05"]);
        assert_one_line_error(&out, "timed out");
        assert!(
            stderr(&out).contains("sudoku-25-1.txt:1"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn bad_solver_names_and_options_exit_2() {
    let p = path("thesis-4x4.txt");
    let out = run(&["solve", &p, "--solver", "dancing"]);
    assert_one_line_error(&out, "unknown solver `dancing`");
    let out = run(&["solve", &p, "--solver", "hill", "--beta", "2"]);
    assert_one_line_error(&out, "--beta");
    let out = run(&["solve", &p, "--solver", "dlx", "--trace"]);
    assert_one_line_error(&out, "--trace needs --solver hill");
    let out = run(&["solve", &p, "--solver", "dlx", "--timeout", "0"]);
    assert_one_line_error(&out, "--timeout");
    // Values checked by the argument parser: its message comes first, then a hint.
    for (flag, value, needle) in [
        ("--order", "zigzag", "unknown order `zigzag`"),
        ("--objective", "fun", "unknown objective `fun`"),
    ] {
        let out = run(&["solve", &p, "--solver", "backtrack", flag, value]);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.lines().next().unwrap().contains(needle), "{err}");
    }
}

// ---- explain -------------------------------------------------------------------------

#[test]
fn explain_prints_numbered_steps_a_summary_and_the_solution() {
    let out = run(&["explain", &path("thesis-4x4.txt")]);
    assert_exit(&out, 0);
    assert_text_eq(
        &stdout(&out),
        "1. naked single: 4 is the only candidate left in r1c2 → r1c2 = 4
2. naked single: 2 is the only candidate left in r1c3 → r1c3 = 2
3. naked single: 3 is the only candidate left in r1c4 → r1c4 = 3
4. naked single: 1 is the only candidate left in r2c3 → r2c3 = 1
5. naked single: 4 is the only candidate left in r3c1 → r3c1 = 4
6. naked single: 1 is the only candidate left in r3c2 → r3c2 = 1
7. naked single: 3 is the only candidate left in r4c1 → r4c1 = 3
8. naked single: 2 is the only candidate left in r4c2 → r4c2 = 2
9. naked single: 4 is the only candidate left in r4c3 → r4c3 = 4
10. naked single: 1 is the only candidate left in r4c4 → r4c4 = 1
summary: 10 steps: naked single ×10; hardest: naked single; 0 guesses, 0 backtracks
1423231441323241
",
    );
}

#[test]
fn explain_matches_the_golden_file() {
    let out = run(&["explain", &path("debian-fiendish.txt")]);
    assert_exit(&out, 0);
    let golden = std::fs::read_to_string(fixture("explain/debian-fiendish.txt")).unwrap();
    assert_text_eq(&stdout(&out), &golden);
    // The last line is the known solution.
    let known = read_fixture("solutions/debian-fiendish.txt");
    let last: Grid = golden.lines().last().unwrap().parse().unwrap();
    assert_eq!(last, known[0]);
}

#[test]
fn explain_several_puzzles_with_headers_and_no_solution_exit_1() {
    let dir = temp_dir();
    let first = std::fs::read_to_string(fixture("thesis-4x4-line.txt")).unwrap();
    let input = format!("{first}11..............\n");
    let out = run_in(dir.path(), &["explain", "--summary-only"], input.as_bytes());
    assert_exit(&out, 1);
    let text = stdout(&out);
    let puzzle: Grid = first.trim().parse().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(lines[0], "puzzle 1 (<stdin>:1)");
    assert!(lines[1].starts_with("summary: "), "{text}");
    let grid: Grid = lines[2].parse().unwrap();
    assert!(check_solution(&puzzle, &grid).is_valid());
    assert_eq!(
        &lines[3..],
        [
            "",
            "puzzle 2 (<stdin>:2)",
            "summary: 0 steps: no strategy used; hardest: none; 0 guesses, 0 backtracks",
            "no solution",
            "note: `sudosat check --diagnose` names the givens that may be wrong",
        ]
    );
}

#[test]
fn explain_writes_any_format_to_a_file() {
    let dir = temp_dir();
    let target = dir.path().join("out.txt");
    let p = path("sudoku-16-1.txt");
    let out = run(&[
        "explain",
        &p,
        "--summary-only",
        "--to",
        "grid",
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    assert!(stdout(&out).is_empty());
    let text = std::fs::read_to_string(&target).unwrap();
    let (summary, grid) = text.split_once('\n').unwrap();
    assert!(
        summary.starts_with("summary: ") && summary.contains("hidden single"),
        "{text}"
    );
    assert_eq!(
        parse_output(grid),
        read_fixture("solutions/sudoku-16-1.txt")
    );
}

#[test]
fn explain_errors_exit_2_with_one_line() {
    let dir = temp_dir();
    let out = run_in(dir.path(), &["explain", "-"], b"12x\n");
    assert_exit(&out, 2);
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let out = run(&["explain", &path("thesis-4x4.txt"), "--timeout", "0"]);
    assert_one_line_error(&out, "--timeout");
    // An empty 49×49 takes the human solver seconds: past the limit, a one-line error.
    let row = vec!["0"; 49].join(" ");
    let empty = format!("{}\n", vec![row; 49].join("\n"));
    let out = run_in(
        dir.path(),
        &["explain", "-", "--timeout", "0.05", "-o", "out.txt"],
        empty.as_bytes(),
    );
    assert_one_line_error(&out, "timed out");
    assert!(!dir.path().join("out.txt").exists(), "nothing half-written");
}

#[test]
fn explain_notes_a_puzzle_with_several_solutions() {
    let dir = temp_dir();
    let out = run_in(
        dir.path(),
        &["explain", "--summary-only"],
        b"................\n",
    );
    assert_exit(&out, 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let grid: Grid = lines[1].parse().unwrap();
    assert!(check_solution(&"................".parse().unwrap(), &grid).is_valid());
    assert!(
        lines[2].starts_with("note: this puzzle has 2 or more solutions"),
        "{text}"
    );
    // A unique puzzle gets no note.
    let out = run(&["explain", "--summary-only", &path("debian-fiendish.txt")]);
    assert!(!stdout(&out).contains("note:"), "{}", stdout(&out));
}

#[test]
fn explain_hints_at_the_next_step_without_giving_the_solution_away() {
    let fiendish = path("debian-fiendish.txt");
    let hint = |level: &str, file: &str, stdin: &[u8]| {
        let out = run_in(
            std::path::Path::new("."),
            &["explain", "--hint", level, file],
            stdin,
        );
        (out.status.code(), stdout(&out))
    };
    // The first step of the full explanation, revealed a level at a time.
    let steps = stdout(&run(&["explain", &fiendish]));
    let first = steps.lines().next().unwrap().strip_prefix("1. ").unwrap();
    assert_eq!(
        hint("1", &fiendish, b""),
        (
            Some(0),
            "hint: look for a hidden single in box 2\n".to_string()
        )
    );
    assert_eq!(
        hint("2", &fiendish, b"").1,
        "hint: hidden single: 4 can only go in r3c5 within box 2\n"
    );
    assert_eq!(hint("3", &fiendish, b"").1, format!("hint: {first}\n"));
    // Where no strategy applies, the hint says a guess is needed.
    let inkala = path("inkala-line.txt");
    assert_eq!(
        hint("1", &inkala, b"").1,
        "hint: no strategy of this solver applies here: a guess is needed\n"
    );
    // A grid filled in wrongly: r3c5 must be 4, so another of its candidates leads nowhere.
    let mut grid = read_fixture("debian-fiendish.txt").remove(0);
    let cell = grid.geometry().cell(2, 4);
    let wrong = grid.candidates(cell).iter().find(|d| d.get() != 4).unwrap();
    grid.set(cell, Some(wrong));
    let line = grid.to_line().unwrap() + "\n";
    let (code, text) = hint("1", "-", line.as_bytes());
    assert_eq!(code, Some(1));
    assert!(
        text.starts_with("no solution: this grid cannot be completed"),
        "{text}"
    );
    // The diagnosis it points to names the wrong digit: without it, one solution is left.
    let out = run_in(
        std::path::Path::new("."),
        &["check", "--diagnose", "-"],
        line.as_bytes(),
    );
    assert_exit(&out, 1);
    let text = stdout(&out);
    let suspects = text
        .lines()
        .find(|l| l.contains("go to leave a puzzle with exactly one solution: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(suspects.contains(&format!("r3c5={wrong}")), "{text}");
    // From level 2 the hint names it too, in words and in JSON.
    let (code, text) = hint("2", "-", line.as_bytes());
    assert_eq!(code, Some(1));
    assert!(
        text.starts_with("no solution: this grid cannot be completed: ")
            && text.contains(&format!("r3c5={wrong}")),
        "{text}"
    );
    let out = run_in(
        std::path::Path::new("."),
        &["explain", "--hint", "2", "--json", "-"],
        line.as_bytes(),
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let suspects = json["grids"][0]["suspects"].as_array().unwrap();
    assert!(
        suspects.contains(&serde_json::json!({"row": 3, "column": 5, "digit": wrong.get()})),
        "{json}"
    );
    // And its picture shades the wrong digit's cell (row 3, column 5: x 160, y 80).
    let pictures = common::temp_dir();
    let dir = pictures.path().to_str().unwrap();
    let out = run_in(
        std::path::Path::new("."),
        &["explain", "--hint", "2", "--svg", dir, "-"],
        line.as_bytes(),
    );
    assert_exit(&out, 1);
    let svg = std::fs::read_to_string(pictures.path().join("hint.svg")).unwrap();
    assert!(
        svg.contains("<rect class=\"pattern\" x=\"160\" y=\"80\""),
        "{svg}"
    );
    // With the pencil marks first: r3c5, where the hidden single is, holds 4, 6 and 7.
    let out = run(&["explain", "--candidates", "--hint", "1", &fiendish]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 14, "{text}");
    assert_eq!(
        lines[3],
        "| 1468 1378 1467 | 2     467   67   | 36 5    9    |"
    );
    assert_eq!(lines[13], "hint: look for a hidden single in box 2");
    // A full grid needs no hint.
    let solved = stdout(&run(&["solve", &fiendish]));
    assert_eq!(
        hint("1", "-", solved.as_bytes()).1,
        "nothing to do: the grid is full\n"
    );
}

#[test]
fn explain_json_replays_to_the_solution_and_hints_keep_their_level() {
    use sudosat::grid::{Cell, Digit};
    let file = "debian-fiendish.txt";
    let out = run(&["explain", &path(file), "--json"]);
    assert_exit(&out, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let puzzle = &read_fixture(file)[0];
    let solution = &read_fixture(&format!("solutions/{file}"))[0];
    let p = &doc["puzzles"][0];
    assert_eq!(p["outcome"], "solved");
    assert_eq!(p["solutions"], "1");
    assert_eq!(p["givens"], puzzle.num_givens());
    let steps = p["steps"].as_array().unwrap();
    assert_eq!(p["summary"]["steps"], steps.len());
    // Placing every step's digit fills the puzzle into its solution; no step removes a
    // candidate of the solution.
    let mut grid = puzzle.clone();
    for step in steps {
        let at = |v: &serde_json::Value| {
            let (r, c) = (v["row"].as_u64().unwrap(), v["column"].as_u64().unwrap());
            Cell(((r - 1) * 9 + c - 1) as u32)
        };
        if let Some(placed) = step.get("placed") {
            let digit = Digit(placed["digit"].as_u64().unwrap() as u16);
            assert_eq!(solution.get(at(placed)), Some(digit));
            grid.set(at(placed), Some(digit));
        }
        for removed in step["removed"].as_array().unwrap() {
            let digit = Digit(removed["digit"].as_u64().unwrap() as u16);
            assert_ne!(solution.get(at(removed)), Some(digit));
        }
    }
    assert_eq!(&grid, solution);
    let rows: Vec<Vec<u16>> = serde_json::from_value(p["solution"].clone()).unwrap();
    assert_eq!(rows.concat(), solution.values());
    // A level-1 hint names the strategy and the place, never the digit.
    let out = run(&["explain", &path(file), "--json", "--hint", "1"]);
    assert_exit(&out, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let hint = &doc["grids"][0]["hint"];
    assert_eq!(hint["text"], "look for a hidden single in box 2");
    assert!(hint.get("digits").is_none() && hint.get("placed").is_none());
    let out = run(&["explain", &path(file), "--json", "--hint", "3"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let placed = &doc["grids"][0]["hint"]["placed"];
    assert_eq!(
        (
            placed["row"].clone(),
            placed["column"].clone(),
            placed["digit"].clone()
        ),
        (3.into(), 5.into(), 4.into())
    );
}

#[test]
fn explain_hint_on_an_empty_grid_says_it_has_many_solutions() {
    let out = run(&["explain", &path("corner/empty-4x4.txt"), "--hint", "1"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.starts_with("hint: "), "{text}");
    assert!(
        text.contains("note: this grid has 2 or more solutions"),
        "{text}"
    );
    // An empty 49×49 grid: the same answer at once (no formula is built for it).
    let dir = temp_dir();
    let row = vec!["0"; 49].join(" ");
    let grid = vec![row; 49].join("\n") + "\n";
    let out = run_in(
        dir.path(),
        &["explain", "-", "--hint", "1", "--timeout", "30"],
        grid.as_bytes(),
    );
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains("2 or more solutions"),
        "{}",
        stdout(&out)
    );
}
