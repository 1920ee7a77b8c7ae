//! CLI tests of `sudosat solve`, `count` and `sat`, running the real binary.

mod common;

use std::path::Path;

use sudosat::grid::check_solution;
use sudosat::Grid;

use common::{
    assert_exit, assert_text_eq, external_available, fixture, parse_output, path, run, run_in,
    solve_and_check, stderr, stdout, temp_dir,
};

#[test]
fn solve_default_backend_prints_known_solutions() {
    let text = solve_and_check("thesis-9x9.txt", &[]);
    assert_text_eq(
        &text,
        &std::fs::read_to_string(fixture("solutions/thesis-9x9.txt"))
            .unwrap()
            .lines()
            .map(|l| {
                let g: Grid = l.parse().unwrap();
                format!("{}\n", g.to_line().unwrap())
            })
            .collect::<String>(),
    );
}

/// The backends over C solvers that this build has (cadical, kissat).
fn built_native() -> Vec<&'static str> {
    use sudosat::backend::BackendKind;
    [BackendKind::Cadical, BackendKind::Kissat]
        .into_iter()
        .filter(|kind| kind.is_built())
        .map(BackendKind::name)
        .collect()
}

#[test]
fn solve_every_embedded_backend_and_encoding() {
    let backends = ["dpll", "lookahead", "varisat", "splr"];
    for backend in backends.into_iter().chain(built_native()) {
        for encoding in ["minimal", "extended"] {
            for reduce in ["--reduce", "--no-reduce"] {
                let flags = ["--backend", backend, "--encoding", encoding, reduce];
                solve_and_check("thesis-9x9.txt", &flags);
            }
        }
    }
    solve_and_check("sudoku-16-1.txt", &["--to", "grid"]);
    solve_and_check("rank4-2.csv", &["--to", "csv2"]);
}

#[test]
fn solve_with_external_backends() {
    if external_available("minisat") {
        solve_and_check(
            "expert-20.txt",
            &["--backend", "minisat", "--timeout", "60"],
        );
    }
    if external_available("cadical") {
        solve_and_check(
            "expert-20.txt",
            &["--backend", "external", "--solver-cmd", "cadical -q"],
        );
    }
    if external_available("picosat") {
        solve_and_check(
            "thesis-9x9.txt",
            &["--backend", "external", "--solver-cmd", "picosat"],
        );
    }
}

#[test]
fn solve_reads_stdin_and_reports_no_solution() {
    let dir = temp_dir();
    let unsolvable = format!("12345678.........9{}\n", ".".repeat(63));
    let solvable = std::fs::read_to_string(fixture("thesis-9x9.txt")).unwrap();
    let first = solvable.lines().next().unwrap();
    let input = format!("{first}\n{unsolvable}");
    let out = run_in(dir.path(), &["solve", "-"], input.as_bytes());
    assert_exit(&out, 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[1], "no solution");
    let puzzle: Grid = first.parse().unwrap();
    let grid: Grid = lines[0].parse().unwrap();
    assert!(check_solution(&puzzle, &grid).is_valid());
}

#[test]
fn solve_stats_go_to_stderr() {
    let p = path("thesis-4x4.txt");
    let out = run(&["solve", &p, "--stats"]);
    assert_exit(&out, 0);
    let err = stderr(&out);
    assert!(err.starts_with("stats: puzzle 1"), "{err}");
    for word in [
        "encoding=extended+reduced",
        "backend=cdcl",
        "vars=",
        "clauses=",
        "decisions=",
        "conflicts=",
    ] {
        assert!(err.contains(word), "missing {word}: {err}");
    }
    let grids = parse_output(&stdout(&out));
    assert_eq!(grids.len(), 1);
}

/// `count --jobs N` counts on N threads and prints what one job prints, in input order: a
/// mix of unique, multiple and unsolvable puzzles, then a bad input, and a bad `--jobs`.
#[test]
fn count_on_several_jobs_prints_what_one_job_prints() {
    let dir = temp_dir();
    let thesis = std::fs::read_to_string(fixture("thesis-9x9.txt")).unwrap();
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let mut lines: Vec<String> = Vec::new();
    for (i, line) in thesis.lines().enumerate() {
        lines.push(line.to_string());
        if i % 3 == 0 {
            lines.push(format!("{}{}", ".".repeat(9), &line[9..])); // first row blanked
        }
    }
    lines.push(unsolvable);
    let text = lines.join("\n") + "\n";
    let one = run_in(dir.path(), &["count", "-", "--jobs", "1"], text.as_bytes());
    assert_exit(&one, 1);
    let printed = stdout(&one);
    let verdicts: Vec<&str> = printed
        .lines()
        .map(|l| l.rsplit(": ").next().unwrap())
        .collect();
    assert_eq!(verdicts.len(), lines.len());
    assert_eq!(verdicts.iter().filter(|v| **v == "unique").count(), 9);
    assert_eq!(*verdicts.last().unwrap(), "none");
    assert_eq!(stdout(&one).lines().next().unwrap(), "<stdin>:1: unique");
    for jobs in ["2", "3"] {
        let many = run_in(dir.path(), &["count", "-", "--jobs", jobs], text.as_bytes());
        assert_exit(&many, 1);
        assert_eq!(stdout(&many), stdout(&one), "--jobs {jobs}");
    }
    // Every verdict agrees with dlx, counted apart.
    let dlx = run_in(
        dir.path(),
        &["count", "-", "--solver", "dlx", "--jobs", "2"],
        text.as_bytes(),
    );
    assert_eq!(stdout(&dlx), stdout(&one));
    let out = run_in(dir.path(), &["count", "-", "--jobs", "0"], text.as_bytes());
    assert_exit(&out, 2);
    assert_eq!(
        stderr(&out),
        "sudosat: error: --jobs must be between 1 and 256, not 0\n"
    );
}

#[test]
fn solve_unique_and_count() {
    let dir = temp_dir();
    // The thesis 4×4 example has one solution; the empty 4×4 grid has 288.
    let p = path("thesis-4x4.txt");
    let out = run(&["solve", "--unique", &p]);
    assert_exit(&out, 0);
    assert!(stdout(&out).ends_with("unique\n"), "{}", stdout(&out));
    let out = run(&["count", &p]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "unique\n");

    let empty = "................\n";
    let out = run_in(dir.path(), &["count", "-"], empty.as_bytes());
    assert_exit(&out, 1);
    assert_eq!(stdout(&out), "multiple (≥2)\n");
    let backends = ["dpll", "lookahead", "varisat", "splr"];
    for backend in backends.into_iter().chain(built_native()) {
        let out = run_in(
            dir.path(),
            &["count", "-", "--limit", "0", "--backend", backend],
            empty.as_bytes(),
        );
        assert_exit(&out, 1);
        assert_eq!(stdout(&out), "multiple (288)\n", "{backend}");
    }
    let out = run_in(dir.path(), &["solve", "--unique", "-"], empty.as_bytes());
    assert_exit(&out, 1);
    assert!(stdout(&out).ends_with("multiple (≥2)\n"));

    let unsolvable = format!("12345678.........9{}\n", ".".repeat(63));
    let out = run_in(dir.path(), &["count", "-"], unsolvable.as_bytes());
    assert_exit(&out, 1);
    assert_eq!(stdout(&out), "none\n");
}

#[test]
fn solve_bad_input_and_bad_flags_exit_2() {
    let dir = temp_dir();
    let out = run_in(dir.path(), &["solve", "-"], b"12x\n");
    assert_exit(&out, 2);
    assert!(stderr(&out).starts_with("sudosat: error: "));
    let p = path("thesis-4x4.txt");
    let out = run(&["solve", &p, "--backend", "glucose"]);
    assert_exit(&out, 2);
    let out = run(&["solve", &p, "--backend", "external"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--solver-cmd"), "{}", stderr(&out));
    let out = run(&["solve", &p, "--timeout", "-1", "--backend", "minisat"]);
    assert_exit(&out, 2);
    // A solver that prints nothing is named as such.
    if cfg!(unix) {
        let out = run(&["solve", &p, "--backend", "external", "--solver-cmd", "true"]);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("printed nothing"), "{}", stderr(&out));
    }
    // `decode` names both ways to give it the puzzle.
    let out = run(&["decode", &p]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--cnf") && stderr(&out).contains("--puzzle"),
        "{}",
        stderr(&out)
    );
    // One solution found under --limit 1 says nothing about uniqueness.
    let empty = path("corner/empty-4x4.txt");
    let out = run(&["count", &empty, "--limit", "1"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--limit 1"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    // A limit beyond what a deadline can hold is refused, not a panic.
    for cmd in ["solve", "count", "explain"] {
        let out = run(&[cmd, &p, "--timeout", "1e20"]);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("too large"), "{}", stderr(&out));
    }
    let out = run(&["solve", &p, "--jobs", "100000"]);
    assert_exit(&out, 2);
    let out = run(&["solve", &p, "--jobs", "0"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--jobs"), "{}", stderr(&out));
    let out = run(&[
        "solve",
        &p,
        "--backend",
        "external",
        "--solver-cmd",
        "/nonexistent/solver",
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("/nonexistent/solver") && err.lines().count() == 1,
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn solve_external_timeout_is_an_error_naming_the_command() {
    let dir = temp_dir();
    let script = common::write_script(dir.path(), "slow.sh", "#!/bin/sh\nsleep 30\n");
    let p = path("thesis-4x4.txt");
    let cmd = script.to_str().unwrap();
    let out = run(&[
        "solve",
        &p,
        "--backend",
        "external",
        "--solver-cmd",
        cmd,
        "--timeout",
        "0.3",
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("timed out") && err.contains("slow.sh"),
        "{err}"
    );
}

/// An error ends the run at the puzzle that failed: the puzzles after it are not solved
/// (they were, up to a chunk of 4,096, before the error was reported).
#[cfg(unix)]
#[test]
fn solve_stops_at_the_first_failing_puzzle() {
    let dir = temp_dir();
    let calls = dir.path().join("calls");
    let script = common::write_script(
        dir.path(),
        "failing.sh",
        &format!("#!/bin/sh\necho call >> '{}'\nexit 3\n", calls.display()),
    );
    let puzzle = std::fs::read_to_string(fixture("thesis-4x4.txt")).unwrap();
    let eight = puzzle.trim_end().to_string() + "\n";
    let eight = eight.repeat(8);
    let out = run_in(
        dir.path(),
        &[
            "solve",
            "-",
            "--jobs",
            "1",
            "--backend",
            "external",
            "--solver-cmd",
            script.to_str().unwrap(),
        ],
        eight.as_bytes(),
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("<stdin>:1:"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&calls).unwrap().lines().count(), 1);
}

/// A solver named by a relative path is found from where sudosat was started, although it
/// runs inside its temporary directory.
#[cfg(unix)]
#[test]
fn solve_external_solver_given_by_a_relative_path() {
    let dir = temp_dir();
    std::fs::create_dir(dir.path().join("bin")).unwrap();
    // A competition-style "solver" that answers UNSAT whatever the formula: what matters is
    // that it starts and that its answer is read.
    common::write_script(
        dir.path(),
        "bin/unsat.sh",
        "#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let puzzle = std::fs::read(fixture("thesis-4x4.txt")).unwrap();
    for cmd in ["bin/unsat.sh", "./bin/unsat.sh"] {
        // The command by --solver-cmd, and after the backend's name as compare writes it.
        let label = format!("external:{cmd}");
        let spellings = [
            vec!["--backend", "external", "--solver-cmd", cmd],
            vec!["--backend", &label],
        ];
        for spelling in spellings {
            let out = run_in(
                dir.path(),
                &[&["solve", "-"], &spelling[..]].concat(),
                &puzzle,
            );
            assert_exit(&out, 1);
            assert!(
                stdout(&out).contains("no solution"),
                "{spelling:?}: {}",
                stderr(&out)
            );
        }
    }
}

/// `--backend NAME:COMMAND` takes a command only after external and minisat, and only one
/// command: a second by --solver-cmd is refused, as is an empty one.
#[test]
fn backend_labels_with_a_command_are_checked() {
    let p = fixture("thesis-4x4.txt");
    let p = p.to_str().unwrap();
    let refusals = [
        (
            vec!["--backend", "cdcl:cadical"],
            "only external:COMMAND and minisat:COMMAND",
        ),
        (
            vec!["--backend", "external:"],
            "needs a solver command after the colon",
        ),
        (
            vec!["--backend", "external:cadical", "--solver-cmd", "kissat"],
            "name two solver commands",
        ),
        (
            vec!["--backend", "glucose"],
            "minisat:COMMAND, external:COMMAND",
        ),
    ];
    for (flags, message) in refusals {
        for command in ["solve", "sat"] {
            let out = run(&[&[command, p], &flags[..]].concat());
            assert_exit(&out, 2);
            assert!(
                stderr(&out).contains(message),
                "{command} {flags:?}: {}",
                stderr(&out)
            );
            assert!(stdout(&out).is_empty(), "{command} {flags:?}");
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn sat_answers_like_a_competition_solver() {
    let dir = temp_dir();
    let sat = write(
        dir.path(),
        "sat.cnf",
        "c small\np cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n",
    );
    let unsat = write(
        dir.path(),
        "unsat.cnf",
        "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",
    );
    let mut backends: Vec<Vec<&str>> = vec![
        vec!["--backend", "dpll"],
        vec!["--backend", "varisat"],
        vec!["--backend", "splr"],
    ];
    for backend in built_native() {
        backends.push(vec!["--backend", backend]);
        backends.push(vec![
            "--backend",
            backend,
            "--seed",
            "12345",
            "--timeout",
            "60",
        ]);
    }
    if external_available("minisat") {
        backends.push(vec!["--backend", "minisat"]);
    }
    if external_available("cadical") {
        backends.push(vec!["--backend", "external", "--solver-cmd", "cadical -q"]);
    }
    for flags in &backends {
        let mut args = vec!["sat", sat.as_str()];
        args.extend_from_slice(flags);
        let out = run(&args);
        assert_exit(&out, 10);
        let text = stdout(&out);
        assert!(text.contains("\ns SATISFIABLE\n"), "{text}");
        let lits: Vec<i64> = text
            .lines()
            .filter_map(|l| l.strip_prefix("v "))
            .flat_map(|l| l.split_whitespace().map(|w| w.parse::<i64>().unwrap()))
            .collect();
        assert_eq!(lits.last(), Some(&0));
        let value = |v: i64| lits.contains(&v);
        assert!(value(1) || value(-2));
        assert!(value(2) || value(3));
        assert!(value(-1) || value(-3));

        let mut args = vec!["sat", unsat.as_str()];
        args.extend_from_slice(flags);
        let out = run(&args);
        assert_exit(&out, 20);
        assert!(stdout(&out).contains("s UNSATISFIABLE\n"));
    }
    let bad = write(dir.path(), "bad.cnf", "p cnf 2 1\n1 x 0\n");
    let out = run(&["sat", &bad]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("bad.cnf:2"), "{}", stderr(&out));
}

/// `sat --timeout` counts from the start, the reading of the formula included: with a
/// limit already past when the reading first looks at the clock, the answer is `s
/// UNKNOWN` (exit 0, as a time-out) with how much was read; without the limit, the same
/// file is solved.
#[test]
fn sat_timeout_covers_reading_the_formula() {
    let dir = temp_dir();
    // 70,000 clauses: more than the reader reads between two looks at the clock.
    let clauses = 70_000;
    let text = format!(
        "p cnf {} {clauses}\n{}",
        2 * clauses,
        (1..=clauses)
            .map(|k| format!("{} -{} 0\n", 2 * k - 1, 2 * k))
            .collect::<String>()
    );
    let big = write(dir.path(), "big.cnf", &text);
    let out = run(&["sat", &big, "--timeout", "0.000001"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(
        text.contains("time limit passed while reading") && text.contains("\ns UNKNOWN\n"),
        "{text}"
    );
    let out = run(&["sat", &big, "--no-model"]);
    assert_exit(&out, 10);
}

/// `sat --stats` appends the times and the backend's counters as `c` lines after the
/// answer; the `s` line and the exit code stay those of a plain run. Three pigeons in two
/// holes need a decision and a conflict (no clause is a unit).
/// `sat` answers `s UNKNOWN` with exit 0 only when the solver ran out of time or gave up; a
/// solver that cannot start or fails is an error (exit 2, on stderr).
#[cfg(unix)]
#[test]
fn sat_reports_a_failing_external_solver_as_an_error() {
    let dir = temp_dir();
    let cnf = write(dir.path(), "f.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
    for cmd in ["/nonexistent/solver", "false"] {
        let out = run(&["sat", &cnf, "--backend", "external", "--solver-cmd", cmd]);
        assert_exit(&out, 2);
        assert!(stdout(&out).contains("s UNKNOWN"), "{cmd}");
        assert!(stderr(&out).contains(cmd), "{cmd}: {}", stderr(&out));
    }
    let slow = common::write_script(dir.path(), "slow.sh", "#!/bin/sh\nsleep 30\n");
    let slow = slow.to_str().unwrap();
    let out = run(&[
        "sat",
        &cnf,
        "--backend",
        "external",
        "--solver-cmd",
        slow,
        "--timeout",
        "0.3",
    ]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("s UNKNOWN"));
}

/// `sat --proof` writes the proof only for an UNSAT answer, through a temporary file: a
/// SAT answer or a time-out leaves neither the proof nor a temporary file.
#[test]
fn sat_writes_a_proof_only_for_unsat() {
    let dir = temp_dir();
    let sat = write(dir.path(), "sat.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
    let unsat = write(
        dir.path(),
        "unsat.cnf",
        "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n",
    );
    let out = run_in(dir.path(), &["sat", &sat, "--proof", "sat.drat"], b"");
    assert_exit(&out, 10);
    let out = run_in(dir.path(), &["sat", &unsat, "--proof", "unsat.drat"], b"");
    assert_exit(&out, 20);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["sat.cnf", "unsat.cnf", "unsat.drat"]);
    // The last lemma of a refutation is the empty clause.
    let proof = std::fs::read_to_string(dir.path().join("unsat.drat")).unwrap();
    assert_eq!(proof.lines().last(), Some("0"), "{proof}");
    let out = run_in(dir.path(), &["sat", &unsat, "--proof", "-"], b"");
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--proof"), "{}", stderr(&out));
}

/// `sat` shares the backend flags with `solve`; those that need a puzzle are refused, not
/// ignored.
#[test]
fn sat_refuses_the_flags_that_need_a_puzzle() {
    let dir = temp_dir();
    let cnf = write(dir.path(), "f.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
    for flags in [
        &["--solver", "dlx"][..],
        &["--load", "assumptions"],
        &["--propagate", "sudoku"],
    ] {
        let mut args = vec!["sat", cnf.as_str()];
        args.extend_from_slice(flags);
        let out = run(&args);
        assert_exit(&out, 2);
        assert!(
            stderr(&out).contains(flags[0]),
            "{flags:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{flags:?}");
    }
    // The flags' defaults, and `--solver sat`, are what `sat` does anyway.
    for flags in [&["--solver", "sat"][..], &["--propagate", "auto"]] {
        let mut args = vec!["sat", cnf.as_str()];
        args.extend_from_slice(flags);
        let out = run(&args);
        assert_exit(&out, 10);
        assert!(
            stdout(&out).contains("s SATISFIABLE\nv -1 2"),
            "{}",
            stdout(&out)
        );
    }
}

#[test]
fn sat_stats_are_comment_lines_after_the_answer() {
    let dir = temp_dir();
    let php = write(
        dir.path(),
        "php.cnf",
        "p cnf 6 9\n1 2 0\n3 4 0\n5 6 0\n-1 -3 0\n-1 -5 0\n-3 -5 0\n-2 -4 0\n-2 -6 0\n-4 -6 0\n",
    );
    let out = run(&["sat", &php, "--stats"]);
    assert_exit(&out, 20);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let answer = lines
        .iter()
        .position(|l| *l == "s UNSATISFIABLE")
        .expect(&text);
    let counter = |name: &str| -> u64 {
        let prefix = format!("c {name}: ");
        let at = lines
            .iter()
            .position(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in\n{text}"));
        assert!(at > answer, "statistics come after the answer:\n{text}");
        lines[at][prefix.len()..].parse().unwrap()
    };
    assert!(counter("conflicts") >= 1, "{text}");
    assert!(counter("decisions") >= 1, "{text}");
    assert_eq!(counter("solves"), 1);
    assert!(text.contains("c solve time: "), "{text}");
    let plain = run(&["sat", &php]);
    assert_exit(&plain, 20);
    assert!(
        !stdout(&plain).contains("c conflicts"),
        "{}",
        stdout(&plain)
    );
}

/// `sat` on a CNF that `encode` wrote, as a file or on standard input, learns as `solve`
/// does on that encoding: cdcl shrinks learnt clauses on the extended encoding and not on
/// the minimal one; the models decode to the puzzle's solution.
#[test]
fn sat_learns_by_the_encoding_its_comments_name() {
    let dir = temp_dir();
    let puzzle = write(
        dir.path(),
        "p.txt",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3\n",
    );
    // `sat` on `cnf` (from standard input with `-`): its shrink tries, the model checked.
    let shrink_tries = |cnf: &str, from_stdin: bool| -> u64 {
        let flags = ["--threads", "1", "--stats"];
        let out = if from_stdin {
            let text = std::fs::read(cnf).unwrap();
            run_in(dir.path(), &[&["sat", "-"][..], &flags].concat(), &text)
        } else {
            run(&[&["sat", cnf][..], &flags].concat())
        };
        assert_exit(&out, 10);
        let text = stdout(&out);
        let model = write(dir.path(), "model.txt", &text);
        let decoded = run(&["decode", "--cnf", cnf, &model]);
        assert_exit(&decoded, 0);
        assert!(
            stdout(&decoded).contains(
                "621943758783615492594728361142879635357461289869532174238197546916354827475286913"
            ),
            "{}",
            stdout(&decoded)
        );
        text.lines()
            .find_map(|l| l.strip_prefix("c shrink_tries: "))
            .unwrap_or_else(|| panic!("no shrink_tries in\n{text}"))
            .parse()
            .unwrap()
    };
    for (encoding, shrinks) in [("extended", true), ("minimal", false)] {
        let cnf = dir.path().join(format!("{encoding}.cnf"));
        let cnf = cnf.to_str().unwrap();
        assert_exit(
            &run(&["encode", "--encoding", encoding, &puzzle, "-o", cnf]),
            0,
        );
        for from_stdin in [false, true] {
            let tries = shrink_tries(cnf, from_stdin);
            assert_eq!(
                tries > 0,
                shrinks,
                "{encoding}, stdin {from_stdin}: {tries}"
            );
        }
    }
}

/// `--jobs 3` solves on three threads but prints what `--jobs 1` prints, in input order:
/// the same grids and uniqueness verdicts on stdout, the same puzzles' statistics lines in
/// the same order on stderr (their timings aside), and the same exit code, also when a
/// puzzle in the middle has no solution.
#[test]
fn solve_jobs_output_is_that_of_one_job_in_input_order() {
    let dir = temp_dir();
    let mut text = std::fs::read_to_string(fixture("minimal-40.txt")).unwrap();
    // Two 1s in the first row: no solution, as the 21st puzzle.
    let clash = format!("11{}\n", ".".repeat(79));
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(20, &clash);
    text = lines.join("\n") + "\n";
    let file = write(dir.path(), "mixed.txt", &text);
    let stats_puzzles = |err: &str| -> Vec<String> {
        err.lines()
            .map(|l| l.split(": encoding").next().unwrap().to_string())
            .collect()
    };
    let one = run(&["solve", &file, "--unique", "--stats", "--jobs", "1"]);
    let three = run(&["solve", &file, "--unique", "--stats", "--jobs", "3"]);
    assert_exit(&one, 1);
    assert_exit(&three, 1);
    assert_text_eq(&stdout(&three), &stdout(&one));
    assert_eq!(stats_puzzles(&stderr(&three)), stats_puzzles(&stderr(&one)));
    assert_eq!(stats_puzzles(&stderr(&one)).len(), 41);
    let out = stdout(&one);
    assert_eq!(out.lines().filter(|l| *l == "unique").count(), 40);
    assert_eq!(out.lines().nth(40), Some("no solution"));
}

/// A file of more puzzles than `solve` takes at once (its answers go out chunk by chunk):
/// every answer in input order, each a solution of its puzzle, the unsolvable one named in
/// its place after the first chunk, the same with one job and two, on stdout and in a file.
#[test]
fn solve_answers_a_file_of_several_chunks_in_input_order() {
    let dir = temp_dir();
    let mut puzzles: Vec<String> = (0..4_200)
        .map(|i| ["1...23.4..32....", ".2.1........4.2."][i % 2].to_string())
        .collect();
    // Two 1s in the first row: no solution.
    puzzles[4_150] = format!("11{}", ".".repeat(14));
    let file = write(dir.path(), "many.txt", &(puzzles.join("\n") + "\n"));
    let one = run(&["solve", &file, "--jobs", "1"]);
    let two = run(&["solve", &file, "--jobs", "2"]);
    assert_exit(&one, 1);
    assert_exit(&two, 1);
    let text = stdout(&one);
    assert_text_eq(&stdout(&two), &text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (i, (line, puzzle)) in lines.iter().zip(&puzzles).enumerate() {
        if i == 4_150 {
            assert_eq!(*line, "no solution");
            continue;
        }
        let puzzle: Grid = puzzle.parse().unwrap();
        let solution: Grid = line.parse().unwrap();
        assert!(
            check_solution(&puzzle, &solution).is_valid(),
            "puzzle {}",
            i + 1
        );
    }
    let out = dir.path().join("out.txt");
    let to_file = run(&["solve", &file, "--jobs", "2", "-o", out.to_str().unwrap()]);
    assert_exit(&to_file, 1);
    assert_text_eq(&std::fs::read_to_string(&out).unwrap(), &text);
    // Block output: one empty line between two answers, also where two chunks meet.
    let blocks = run(&["solve", &file, "--jobs", "2", "--to", "block"]);
    let blank = stdout(&blocks).lines().filter(|l| l.is_empty()).count();
    assert_eq!(blank, puzzles.len() - 1);
}

/// `--load assumptions` (one cdcl solver holding the empty grid, each puzzle solved under
/// its givens) prints what re-encoding prints: the known solutions, uniqueness verdicts
/// and counts, across puzzles of two sizes.
#[test]
fn solve_and_count_under_assumptions_match_reencoding() {
    for file in ["expert-20.txt", "thesis-9x9.txt", "thesis-4x4.txt"] {
        let p = path(file);
        solve_and_check(file, &["--load", "assumptions", "--jobs", "1"]);
        let unique = run(&[
            "solve",
            &p,
            "--load",
            "assumptions",
            "--unique",
            "--jobs",
            "1",
        ]);
        let reencoded = stdout(&run(&["solve", &p, "--unique", "--jobs", "1"]));
        assert_text_eq(&stdout(&unique), &reencoded);
        assert!(reencoded.contains("unique"));
        let counts = run(&["count", &p, "--load", "assumptions", "--limit", "3"]);
        assert_exit(&counts, 0);
        assert_text_eq(
            &stdout(&counts),
            &stdout(&run(&["count", &p, "--limit", "3"])),
        );
    }
}

/// A solve that times out still prints its `--stats` line (how far the search got), then
/// the error.
#[test]
fn solve_stats_are_printed_when_the_solver_times_out() {
    // Puzzle 4 of the Gecode distribution's 25×25 examples (MIT licence): seconds of CDCL
    // search on any machine, far beyond the limit below.
    let puzzle = concat!(
        "E..I...M......L....D...BKF..BH9.K.A2.7..E4.P.6..M..6.J..PD8FE.IM...K...54..",
        "L...8E...IA..HC........7J.....7H.4.JK..DOFC....9I.9...7A.5.B.M34E.KDJ8.....",
        "8...BD....O..7....CP.E.6..1.3..8....D...2.ML.B..5A.E2.A.O.7..1..I.659..8LD.",
        "KF..M2...PL......A.G..N3....76N.1..CBG...DPK..O.J2.JK...6B.9..P.7.N.EMFDG.5",
        "N....G.F.8....OH9.2...E.7....4.3....F9.....5.NC.A.M.A.GL.J......5..4.7.91..",
        "C.8NE.5..6..M.....BJ17..H7.6...NL.41.AC.I8...GJ3.....53P.GM2.L..F.....K.68.",
        "J.4.D..H..IG..8K..35.N.FLP.F...93.D.....A.1......M..7.I...1...DF..PJ.4.MA..",
        ".KN.....5H..O.63.E.2....4....1...O..A2..DCH8B..KE.3.HA.6BP.....J1957O..28..",
        "42JO.I...K5C......6.P.B..",
    );
    let dir = temp_dir();
    let file = dir.path().join("gecode-4.txt");
    std::fs::write(&file, format!("{puzzle}\n")).unwrap();
    let out = run(&[
        "solve",
        file.to_str().unwrap(),
        "--stats",
        "--timeout",
        "0.2",
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    let stats = err
        .lines()
        .find(|l| l.starts_with("stats: puzzle 1 "))
        .unwrap_or_else(|| panic!("no stats line: {err}"));
    assert!(stats.contains("backend=cdcl"), "{stats}");
    assert!(
        stats.ends_with("(stopped: solver `cdcl` timed out after 200ms)"),
        "{stats}"
    );
    let conflicts: u64 = stats
        .split_whitespace()
        .find_map(|w| w.strip_prefix("conflicts="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no conflicts: {stats}"));
    assert!(conflicts > 0, "{stats}");
    assert!(err.contains("sudosat: error: "), "{err}");
}

/// `--threads N` (cdcl's portfolio) gives the known solutions and reports its counters;
/// the fixtures settle before the 2,000 conflicts of the fork, so the portfolio itself is
/// exercised by the unit tests of `backend::cdcl::portfolio`.
#[test]
fn solve_with_solver_threads_gives_known_solutions() {
    for threads in ["1", "2", "3"] {
        solve_and_check("expert-20.txt", &["--threads", threads, "--jobs", "1"]);
        solve_and_check("sudoku-25-1.txt", &["--threads", threads]);
    }
    let p = path("sudoku-16-1.txt");
    let out = run(&["solve", &p, "--threads", "2", "--stats"]);
    assert_exit(&out, 0);
    let err = stderr(&out);
    for word in ["portfolios=0", "portfolio_conflicts=0"] {
        assert!(err.contains(word), "missing {word}: {err}");
    }
    for bad in ["0", "100000"] {
        let out = run(&["solve", &p, "--threads", bad]);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.contains("--threads must be between 1 and 256"), "{err}");
    }
}

/// `--seed` draws another cdcl search: the same known solutions, another path, and the
/// same path again for the same seed. (With `--root none`: the root reasoning answers
/// every puzzle of expert-20 without a search.)
#[test]
fn a_cdcl_seed_is_another_reproducible_draw_of_the_same_answers() {
    let decisions = |seed: &str| -> Vec<String> {
        let p = path("expert-20.txt");
        let searched = ["--threads", "1", "--seed", seed, "--root", "none"];
        let out = run(&[&["solve", &p, "--stats"][..], &searched[..]].concat());
        assert_exit(&out, 0);
        solve_and_check("expert-20.txt", &searched);
        stderr(&out)
            .split_whitespace()
            .filter(|w| w.starts_with("decisions="))
            .map(str::to_string)
            .collect()
    };
    let plain = decisions("0");
    assert_eq!(plain.len(), 20);
    let seeded = decisions("17");
    assert_eq!(decisions("17"), seeded, "the same seed, the same search");
    let differing = plain.iter().zip(&seeded).filter(|(a, b)| a != b).count();
    assert!(
        differing >= 10,
        "only {differing} of 20 searches changed with the seed"
    );
}

#[test]
fn sat_takes_a_seed_too() {
    let cnf = Path::new(env!("CARGO_MANIFEST_DIR")).join("cnf/9x9/inkala.extended-reduced.cnf");
    let cnf = cnf.to_str().unwrap();
    let solve = |seed: &str| {
        let out = run(&["sat", cnf, "--seed", seed, "--stats"]);
        assert_exit(&out, 10);
        let text = stdout(&out);
        let model: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with('v'))
            .map(str::to_string)
            .collect();
        let decisions = text
            .lines()
            .find(|l| l.starts_with("c decisions:"))
            .expect("a decisions line")
            .to_string();
        (model, decisions)
    };
    let plain = solve("0");
    let seeded: Vec<_> = ["1", "2", "3"].map(solve).into();
    // One solution: the model is the same whatever the path …
    assert!(seeded.iter().all(|(model, _)| *model == plain.0));
    // … the path is another one …
    assert!(seeded.iter().any(|(_, decisions)| *decisions != plain.1));
    // … and the same again for the same seed.
    assert_eq!(solve("2"), seeded[1]);
}

/// `sat --count`: every backend counts the models of a formula, on every variable or on its
/// `c p show` projection, up to a limit; a CNF that `encode` wrote counts grids, as `count`
/// does (the empty 4×4 has 288, its at-most-one family's auxiliaries or not).
#[test]
fn sat_counts_models_on_their_projection() {
    let dir = temp_dir();
    // (x1 ∨ x2) over three variables: 6 models, 2 on {x1}.
    let plain = write(dir.path(), "f.cnf", "p cnf 3 1\n1 2 0\n");
    let shown = write(dir.path(), "g.cnf", "p cnf 3 1\nc p show 1 0\n1 2 0\n");
    let unsat = write(dir.path(), "u.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    let count_lines = |file: &str, flags: &[&str], code: i32| -> Vec<String> {
        let out = run(&[&["sat", file, "-n"][..], flags].concat());
        assert_exit(&out, code);
        let text = stdout(&out);
        text.lines()
            .filter(|l| {
                l.starts_with("c models") || l.starts_with("c s ") || l.starts_with("c projection")
            })
            .map(str::to_string)
            .collect()
    };
    let exact = |models: u64, kind: &str, projection: &str| -> Vec<String> {
        let log10 = if models == 0 {
            "-inf".to_string()
        } else {
            format!("{:.6}", (models as f64).log10())
        };
        vec![
            format!("c projection: {projection}"),
            format!("c models: {models}"),
            format!("c s type {kind}"),
            format!("c s log10-estimate {log10}"),
            format!("c s exact arb int {models}"),
        ]
    };
    for backend in ["cdcl", "dpll", "varisat", "splr"] {
        let flags = ["--backend", backend, "--count", "0"];
        assert_eq!(
            count_lines(&plain, &flags, 10),
            exact(6, "mc", "3 of 3 variables (every variable)"),
            "{backend}"
        );
        assert_eq!(
            count_lines(&shown, &flags, 10),
            exact(2, "pmc", "1 of 3 variables (its `c p show` lines)"),
            "{backend}"
        );
        assert_eq!(
            count_lines(&unsat, &flags, 20),
            exact(0, "mc", "1 of 1 variables (every variable)"),
            "{backend}"
        );
        // Under an assumption (cdcl) or its unit clause (the others): x1 false leaves x2
        // true and x3 free.
        let assumed = count_lines(&plain, &[&flags[..], &["--assume", "-1"]].concat(), 10);
        assert_eq!(assumed[1], "c models: 2", "{backend}");
        assert_eq!(
            count_lines(&plain, &["--backend", backend, "--count", "4"], 10),
            [
                "c projection: 3 of 3 variables (every variable)",
                "c models: at least 4 (the limit of --count)"
            ],
            "{backend}"
        );
    }
    let empty = write(dir.path(), "e4.txt", "................\n");
    assert!(stdout(&run(&["count", &empty, "--limit", "1000"])).contains("288"));
    for (amo, vars) in [("pairwise", 64), ("sequential", 256)] {
        let cnf = dir.path().join(format!("e4-{amo}.cnf"));
        let cnf = cnf.to_str().unwrap();
        assert_exit(&run(&["encode", &empty, "--amo", amo, "-o", cnf]), 0);
        let kind = if vars == 64 { "mc" } else { "pmc" };
        let projection = format!("64 of {vars} variables (the grid's cell variables)");
        assert_eq!(
            count_lines(cnf, &["--count", "0"], 10),
            exact(288, kind, &projection),
            "{amo}"
        );
    }
    // Blocking clauses would change what a proof refutes.
    let out = run(&["sat", &plain, "--count", "0", "--proof", "p.drat"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--count"), "{}", stderr(&out));
}

/// A build without a backend's feature answers it with the feature's name, exit 2, from
/// every command that takes a backend; with the feature, the backend's `--unique` checks
/// and `sat --cubes` (a fresh solver per solve for kissat) give the known answers.
#[test]
fn the_c_solver_backends_count_check_uniqueness_and_conquer_cubes() {
    use sudosat::backend::BackendKind;
    let dir = temp_dir();
    let p = fixture("thesis-4x4.txt");
    let p = p.to_str().unwrap();
    for kind in [BackendKind::Cadical, BackendKind::Kissat] {
        let name = kind.name();
        if !kind.is_built() {
            let feature = format!("--features {name}");
            for args in [
                vec!["solve", p, "--backend", name],
                vec!["count", p, "--backend", name],
                vec!["sat", p, "--backend", name],
                vec!["compare", p, "--solvers", name],
            ] {
                let out = run(&args);
                assert_exit(&out, 2);
                let err = stderr(&out);
                assert!(err.starts_with("sudosat: error: "), "{args:?}: {err}");
                assert!(err.contains(&feature), "{args:?}: {err}");
            }
            continue;
        }
        // The thesis 4×4 puzzles are each unique (the count of the empty grid, 288, is
        // checked with the other backends').
        let out = run(&["solve", p, "--unique", "--backend", name]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let answers: Vec<&str> = text
            .lines()
            .filter(|l| !l.contains(|c: char| c.is_ascii_digit()))
            .collect();
        assert!(
            !answers.is_empty() && answers.iter().all(|l| *l == "unique"),
            "{name}: {text}"
        );
        // Cube and conquer over the cells of row 1 of the empty 9×9 grid: a model that
        // decodes to a valid grid.
        std::fs::write(dir.path().join("e9.txt"), format!("{}\n", ".".repeat(81))).unwrap();
        for args in [
            vec!["encode", "e9.txt", "-o", "e9.cnf"],
            vec!["cube", "e9.cnf", "--depth", "2", "-o", "cubes.icnf"],
        ] {
            assert_exit(&run_in(dir.path(), &args, b""), 0);
        }
        let out = run_in(
            dir.path(),
            &["sat", "e9.cnf", "--cubes", "cubes.icnf", "--backend", name],
            b"",
        );
        assert_exit(&out, 10);
        std::fs::write(dir.path().join("m.txt"), stdout(&out)).unwrap();
        let out = run_in(dir.path(), &["decode", "--cnf", "e9.cnf", "m.txt"], b"");
        assert_exit(&out, 0);
        let grid: Grid = stdout(&out).trim().parse().unwrap();
        let empty: Grid = ".".repeat(81).parse().unwrap();
        assert!(check_solution(&empty, &grid).is_valid(), "{name}");
    }
}

/// On 9×9 `--root auto` answers without cdcl (no search) the puzzles singles and failed
/// probes settle (`root=settled`: 25 of minimal-40's 40) and those a probe finds a solution
/// of (`root=probed`: 14), sends the last one to cdcl, and the answers are those of every
/// puzzle searched (`--root none`), solved and counted.
#[test]
fn root_reasoning_settles_easy_9x9_puzzles_with_the_answers_of_the_search() {
    let p = path("minimal-40.txt");
    let auto = run(&["solve", &p, "--stats", "--jobs", "1"]);
    assert_exit(&auto, 0);
    let err = stderr(&auto);
    let settled: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(" root=settled "))
        .collect();
    assert_eq!(settled.len(), 25, "{err}");
    let probed: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(" root=probed "))
        .collect();
    assert_eq!(probed.len(), 14, "{err}");
    let mut answered = settled.iter().chain(&probed);
    assert!(answered.all(|l| l.contains(" decisions=0 ")), "{err}");
    let puzzles = err.lines().filter(|l| l.starts_with("stats: puzzle"));
    assert_eq!(puzzles.count(), 40, "{err}");
    let none = run(&["solve", &p, "--root", "none", "--jobs", "1"]);
    assert_text_eq(&stdout(&auto), &stdout(&none));
    let counted = run(&["count", &p, "--limit", "2"]);
    assert_exit(&counted, 0);
    assert_text_eq(
        &stdout(&counted),
        &stdout(&run(&["count", &p, "--limit", "2", "--root", "none"])),
    );
}
