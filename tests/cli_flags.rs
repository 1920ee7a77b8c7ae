//! CLI tests of what a user touches first: one meaning per flag, one form of error line,
//! standard input wherever puzzles or formulas are read, outputs that say what they are
//! about. They run the real binary.

mod common;

use sudosat::encode::{AmoFamily, SudokuEncoding};
use sudosat::grid::read_puzzles_from_path;

use common::{assert_exit, fixture, path, run, run_in, stderr, stdout, temp_dir};

/// Every error line starts `sudosat: error:`, clap's own (an unknown flag or command, a
/// value that does not parse) as the tool's.
#[test]
fn every_error_starts_with_the_tools_prefix() {
    let p = path("thesis-4x4.txt");
    for args in [
        &["solve", "--bogus"][..],
        &["nosuch"],
        &["solve", &p, "--timeout", "x"],
        &["solve", &p, "--order", "zigzag"],
        &["count", &p, "--limit", "1"],
    ] {
        let out = run(args);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.starts_with("sudosat: error: "), "{args:?}: {err}");
        assert!(!err.contains("\nerror:"), "{args:?}: {err}");
    }
}

/// clap's errors keep their colours on a terminal (the `error:` of the first line, the flag
/// named), and are plain when standard error is not one or `NO_COLOR` is set. The terminal
/// is made by util-linux's `script`; without it the terminal half is skipped, said so.
#[test]
fn clap_errors_are_coloured_on_a_terminal_only() {
    let piped = run(&["solve", "--bogus"]);
    assert_exit(&piped, 2);
    assert!(!stderr(&piped).contains('\u{1b}'), "{}", stderr(&piped));
    let on_terminal = |no_color: bool| {
        let bin = env!("CARGO_BIN_EXE_sudosat");
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-qec", &format!("'{bin}' solve --bogus"), "/dev/null"])
            .env("TERM", "xterm");
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        cmd.output()
    };
    let Ok(coloured) = on_terminal(false) else {
        println!("skipped: no `script` to run sudosat on a terminal");
        return;
    };
    let text = String::from_utf8_lossy(&coloured.stdout).to_string();
    assert_eq!(coloured.status.code(), Some(2), "{text}");
    assert!(
        text.starts_with("sudosat: \u{1b}[")
            && text.contains("error:\u{1b}[0m unexpected argument"),
        "{text:?}"
    );
    let plain = on_terminal(true).expect("script ran once");
    let text = String::from_utf8_lossy(&plain.stdout).to_string();
    assert!(
        text.starts_with("sudosat: error: unexpected argument '--bogus'"),
        "{text:?}"
    );
    assert!(!text.contains('\u{1b}'), "{text:?}");
}

/// A negative number reaches the tool's own check of the value (`--timeout -1` as
/// `--timeout=-1`), not clap's "unexpected argument '-1'" tip.
#[test]
fn negative_numbers_get_the_tools_own_message() {
    let p = path("thesis-4x4.txt");
    for args in [
        &["solve", &p, "--timeout", "-1"][..],
        &["solve", &p, "--timeout=-1"],
        &["count", &p, "--timeout", "-0.5"],
    ] {
        let out = run(args);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.starts_with("sudosat: error: --timeout must be a positive number")
                && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let out = run(&["solve", &p, "--solver", "hill", "--beta", "-0.5"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).starts_with("sudosat: error: --beta must be between 0 and 1"),
        "{}",
        stderr(&out)
    );
}

/// `--solver` names a grid-level solver only; an external solver's command line goes in
/// `--solver-cmd` (or `--backend external:CMD`), and the old form says so.
#[test]
fn solver_names_a_grid_level_solver_and_commands_go_in_solver_cmd() {
    let p = path("thesis-4x4.txt");
    for backend in ["external", "minisat"] {
        let out = run(&["solve", &p, "--backend", backend, "--solver", "cadical -q"]);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.starts_with("sudosat: error: --solver names a grid-level solver")
                && err.contains("--solver-cmd \"cadical -q\"")
                && err.lines().count() == 1,
            "{backend}: {err}"
        );
        assert!(stdout(&out).is_empty());
    }
    let out = run(&["count", &p, "--backend", "external", "--solver", "picosat"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--solver-cmd"), "{}", stderr(&out));
    // `sat` takes no grid-level solver, and names the flag a command goes in.
    let dir = temp_dir();
    std::fs::write(dir.path().join("f.cnf"), "p cnf 1 1\n1 0\n").unwrap();
    let out = run_in(
        dir.path(),
        &[
            "sat",
            "f.cnf",
            "--backend",
            "external",
            "--solver",
            "cadical",
        ],
        b"",
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--solver-cmd"), "{}", stderr(&out));
    // A grid-level solver beside an external backend is still that solver.
    let out = run(&["solve", &p, "--backend", "external", "--solver", "dlx"]);
    assert_exit(&out, 0);
}

/// `encode`, `sizes`, `decode`, `sat` and `cube` read standard input when given no file, as
/// `solve` does; `-` is standard input for decode's model too.
#[test]
fn every_reader_takes_standard_input() {
    let dir = temp_dir();
    let inkala = std::fs::read(fixture("inkala-line.txt")).unwrap();
    let out = run_in(dir.path(), &["encode", "-o", "p.cnf"], &inkala);
    assert_exit(&out, 0);
    let cnf = std::fs::read_to_string(dir.path().join("p.cnf")).unwrap();
    assert!(cnf.lines().any(|l| l.starts_with("p cnf 729 ")), "{cnf}");
    let out = run_in(dir.path(), &["sizes"], &inkala);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("<stdin>"), "{}", stdout(&out));
    let out = run_in(dir.path(), &["sat"], cnf.as_bytes());
    assert_exit(&out, 10);
    let model = out.stdout;
    let out = run_in(dir.path(), &["cube", "--depth", "1"], cnf.as_bytes());
    assert_exit(&out, 0);
    assert!(
        stdout(&out).lines().any(|l| l.starts_with("a ")),
        "{}",
        stdout(&out)
    );
    let known = read_puzzles_from_path(&fixture("solutions/inkala-line.txt"), None).unwrap();
    for args in [
        &["decode", "--cnf", "p.cnf"][..],
        &["decode", "--cnf", "p.cnf", "-"],
    ] {
        let out = run_in(dir.path(), args, &model);
        assert_exit(&out, 0);
        assert_eq!(stdout(&out).trim(), known[0].to_line().unwrap(), "{args:?}");
    }
}

/// `count` on several puzzles says which puzzle each verdict is for (`FILE:LINE: unique`);
/// on one puzzle the line is the bare verdict.
#[test]
fn count_names_the_puzzle_of_each_line_when_there_are_several() {
    let p = path("thesis-9x9.txt");
    let puzzles = read_puzzles_from_path(&fixture("thesis-9x9.txt"), None).unwrap();
    assert!(puzzles.len() > 1);
    let out = run(&["count", &p]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), puzzles.len(), "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(*line, format!("{p}:{}: unique", i + 1), "{text}");
    }
    let out = run(&["count", &path("inkala-line.txt")]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "unique\n");
}

/// `sizes` prints one line per encoding by default (the puzzle's, or the file's average
/// when it holds several) with the default at-most-one family; `--all` the whole matrix.
#[test]
fn sizes_is_compact_by_default_and_full_with_all() {
    let encodings = SudokuEncoding::ALL.len();
    let out = run(&["sizes", &path("inkala-line.txt")]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), encodings, "{text}");
    let other_family = |row: &str| {
        AmoFamily::ALL
            .iter()
            .any(|f| *f != AmoFamily::Pairwise && row.contains(&format!("/{}", f.name())))
    };
    assert!(rows.iter().all(|r| !other_family(r)), "{text}");
    // Several puzzles: the average, one line per encoding.
    let out = run(&["sizes", &path("thesis-9x9.txt")]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), encodings, "{text}");
    assert!(rows.iter().all(|r| r.contains(" average ")), "{text}");
    // --all: every family, and each puzzle's row with the total and average.
    let out = run(&["sizes", &path("inkala-line.txt"), "--all"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let rows = text.lines().count() - 1;
    assert!(rows > 3 * encodings, "{text}");
    for family in AmoFamily::ALL {
        if family != AmoFamily::Pairwise {
            assert!(
                text.contains(&format!("/{}", family.name())),
                "{family:?}: {text}"
            );
        }
    }
    for kind in [" total ", " average "] {
        assert!(text.contains(kind), "{text}");
    }
}

/// A reader that stops early (`sudosat encode | head`) ends the output cleanly: exit 0 and
/// nothing on standard error, not a failed check of the clauses written.
#[test]
fn a_closed_pipe_ends_encode_cleanly() {
    use std::process::Stdio;
    let mut child = common::sudosat()
        .args(["encode", &path("inkala-line.txt")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sudosat binary starts");
    // The CNF (about 150 kB) is more than a pipe holds: the writes meet the closed end.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("sudosat runs");
    assert_exit(&out, 0);
    assert_eq!(stderr(&out), "");
}
