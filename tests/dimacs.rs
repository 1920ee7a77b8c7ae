//! DIMACS in and out through the real binary: bad CNF and model files give one positioned
//! line and exit 2; UNSAT answers exit 1, UNKNOWN ones exit 2; encode → parse round trips.

mod common;

use std::path::Path;

use common::{assert_exit, fixture, run_in, stderr, stdout, temp_dir};
use proptest::prelude::*;
use sudosat::dimacs::{parse_dimacs, ParseOptions};
use sudosat::encode::write_cnf;
use sudosat::encode::{Encoding, SudokuEncoding};
use sudosat::formula::Cnf;
use sudosat::grid::{Cell, Digit, Grid};

const PUZZLE_4: &str = ".2.1........4.2.";
const SOLUTION_4: &str = "3241143223144123";

/// A temp dir holding `p.txt` (the 4×4 puzzle) and its CNF `p.cnf` (extended).
fn setup() -> tempfile::TempDir {
    let dir = temp_dir();
    std::fs::write(dir.path().join("p.txt"), format!("{PUZZLE_4}\n")).unwrap();
    let out = run_in(dir.path(), &["encode", "p.txt", "-o", "p.cnf"], b"");
    assert_exit(&out, 0);
    dir
}

/// The MiniSat result file of the solution under the base numbering.
fn minisat_model(solution: &str) -> String {
    let grid: Grid = solution.parse().unwrap();
    let mut lits = Vec::new();
    for cell in 0..16u32 {
        let d = grid.get(Cell(cell)).unwrap().get();
        for v in 1..=4 {
            let var = cell as i64 * 4 + v as i64;
            lits.push(if v == d { var } else { -var }.to_string());
        }
    }
    format!("SAT\n{} 0\n", lits.join(" "))
}

fn decode(dir: &Path, cnf: &str, model: &str) -> std::process::Output {
    std::fs::write(dir.join("m.txt"), model).unwrap();
    run_in(dir, &["decode", "--cnf", cnf, "m.txt"], b"")
}

#[test]
fn decode_prints_the_solution_from_either_convention() {
    let dir = setup();
    let out = decode(dir.path(), "p.cnf", &minisat_model(SOLUTION_4));
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).trim(), SOLUTION_4);
    let model = minisat_model(SOLUTION_4);
    let lits = model.lines().nth(1).unwrap();
    let sv = format!("c a solver\ns SATISFIABLE\nv {lits}\n");
    let out = decode(dir.path(), "p.cnf", &sv);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).trim(), SOLUTION_4);
    // Without the CNF: the puzzle and the encoding on the command line.
    std::fs::write(dir.path().join("m.txt"), &sv).unwrap();
    let out = run_in(dir.path(), &["decode", "--puzzle", "p.txt", "m.txt"], b"");
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).trim(), SOLUTION_4);
}

#[test]
fn unsat_answers_exit_1() {
    let dir = setup();
    for model in ["UNSAT\n", "s UNSATISFIABLE\n"] {
        let out = decode(dir.path(), "p.cnf", model);
        assert_exit(&out, 1);
        assert!(stdout(&out).contains("no solution"));
    }
}

#[test]
fn unknown_answers_are_errors_not_no_solution() {
    let dir = setup();
    for model in ["INDET\n", "s UNKNOWN\n"] {
        let out = decode(dir.path(), "p.cnf", model);
        assert_error(&out, &["m.txt", "gave up (UNKNOWN", "no model"]);
        assert!(!stdout(&out).contains("no solution"));
    }
}

/// Asserts exit 2 and one stderr line containing every `needle`.
fn assert_error(out: &std::process::Output, needles: &[&str]) {
    assert_exit(out, 2);
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    for needle in needles {
        assert!(err.contains(needle), "`{needle}` not in: {err}");
    }
}

#[test]
fn bad_models_are_positioned_errors() {
    let dir = setup();
    let good = minisat_model(SOLUTION_4);
    // Truncated: no final 0.
    let truncated = &good[..good.len() - 3];
    assert_error(
        &decode(dir.path(), "p.cnf", truncated),
        &["m.txt:", "truncated"],
    );
    assert_error(
        &decode(dir.path(), "p.cnf", "s SATISFIABLE\nv 1 -2\n"),
        &["m.txt:", "truncated"],
    );
    assert_error(&decode(dir.path(), "p.cnf", ""), &["m.txt:1:1", "empty"]);
    assert_error(
        &decode(dir.path(), "p.cnf", "SAT\n1 two 0\n"),
        &["m.txt:2:3"],
    );
    // A model of another puzzle: breaks a given.
    let other = "4213312413422431";
    assert_error(
        &decode(dir.path(), "p.cnf", &minisat_model(other)),
        &["m.txt", "not a solution", "given"],
    );
    // Two values in a cell.
    let two = good.replacen("-1 ", "1 ", 1);
    assert_error(&decode(dir.path(), "p.cnf", &two), &["r1c1", "2 values"]);
    // No value in a cell.
    let none = good.replacen(" 3 ", " -3 ", 1);
    assert_error(&decode(dir.path(), "p.cnf", &none), &["r1c1", "no value"]);
    // More variables than the formula has: refused by the reader, at the literal.
    assert_error(
        &decode(dir.path(), "p.cnf", &good.replace(" 0\n", " -65 0\n")),
        &[
            "m.txt:2:",
            "literal -65 is above the formula's 64 variables",
        ],
    );
}

#[test]
fn malformed_cnf_files_are_positioned_errors() {
    let dir = setup();
    let cnf = std::fs::read_to_string(dir.path().join("p.cnf")).unwrap();
    let header_line = cnf.lines().position(|l| l.starts_with("p cnf")).unwrap() + 1;
    let model = minisat_model(SOLUTION_4);
    let cases: Vec<(String, String)> = vec![
        // Literal above V on the first clause line.
        (
            cnf.replacen("1 2 3 4 0", "1 2 3 99 0", 1),
            format!("bad.cnf:{}:7: literal 99 is above", header_line + 1),
        ),
        // Missing final 0.
        (
            format!("{}-64", cnf),
            format!(
                "bad.cnf:{}:1: the clause starting here is not terminated",
                cnf.lines().count() + 1
            ),
        ),
        // Junk token.
        (
            cnf.replacen("1 2 3 4 0", "1 2 x 4 0", 1),
            format!(
                "bad.cnf:{}:5: expected a literal, found `x`",
                header_line + 1
            ),
        ),
        // Negative count.
        (
            cnf.replacen("p cnf 64 ", "p cnf -64 ", 1),
            format!("bad.cnf:{header_line}:7: negative variable count"),
        ),
        // Header after clauses.
        (
            cnf.replacen("p cnf", "1 0\np cnf", 1),
            "a clause before the `p cnf` header".to_string(),
        ),
        // No comments: not one of ours.
        (
            cnf.lines()
                .filter(|l| !l.starts_with('c'))
                .collect::<Vec<_>>()
                .join("\n"),
            "bad.cnf:1:1: no `encoding:` comment".to_string(),
        ),
    ];
    for (text, needle) in cases {
        std::fs::write(dir.path().join("bad.cnf"), text).unwrap();
        assert_error(&decode(dir.path(), "bad.cnf", &model), &[&needle]);
    }
    // A clause count that differs from the header: a warning, the decode goes on (the
    // extra clause holds in the solution: r1c1 is 3, not 1).
    std::fs::write(dir.path().join("warn.cnf"), format!("{cnf}-1 0\n")).unwrap();
    let out = decode(dir.path(), "warn.cnf", &model);
    assert_exit(&out, 0);
    assert!(stderr(&out).contains("warning"), "{}", stderr(&out));
    // A clause the model falsifies, which the grid check cannot see: named by number.
    let extra = cnf.replacen("p cnf 64 452", "p cnf 64 453", 1) + "1 0\n";
    std::fs::write(dir.path().join("extra.cnf"), extra).unwrap();
    assert_error(
        &decode(dir.path(), "extra.cnf", &model),
        &["m.txt: a wrong model: it falsifies clause 453 of 453 (`1 0`)"],
    );
}

#[test]
fn encode_many_puzzles_needs_an_out_dir() {
    let dir = temp_dir();
    let src = fixture("thesis-9x9.txt");
    let src = src.to_str().unwrap();
    let out = run_in(dir.path(), &["encode", src], b"");
    assert_error(&out, &["--out-dir"]);
    let out = run_in(
        dir.path(),
        &["encode", src, "--reduce", "--out-dir", "out"],
        b"",
    );
    assert_exit(&out, 0);
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 9);
    assert_eq!(names[0], "puzzle-0001.cnf");
    assert_eq!(names[8], "puzzle-0009.cnf");

    // A shorter set over it replaces its first file and names what is left of the longer.
    let one = fixture("sudoku-4-1-line.txt");
    let out = run_in(
        dir.path(),
        &["encode", one.to_str().unwrap(), "--out-dir", "out"],
        b"",
    );
    assert_exit(&out, 0);
    assert!(stderr(&out).contains("puzzle-0002.cnf"), "{}", stderr(&out));
    let first = std::fs::read_to_string(dir.path().join("out/puzzle-0001.cnf")).unwrap();
    assert!(first.contains("box-size: 2"), "{first}");

    // A set that cannot be written whole leaves none of its files.
    std::fs::create_dir_all(dir.path().join("blocked/puzzle-0005.cnf")).unwrap();
    let out = run_in(dir.path(), &["encode", src, "--out-dir", "blocked"], b"");
    assert_error(&out, &["puzzle-0005.cnf"]);
    let left: Vec<String> = std::fs::read_dir(dir.path().join("blocked"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["puzzle-0005.cnf"]);
}

#[test]
fn encode_refuses_to_write_over_its_puzzle_file() {
    let dir = temp_dir();
    let puzzle = std::fs::read(fixture("thesis-4x4.txt")).unwrap();
    std::fs::write(dir.path().join("p.txt"), &puzzle).unwrap();
    let out = run_in(dir.path(), &["encode", "p.txt", "-o", "./p.txt"], b"");
    assert_error(&out, &["p.txt", "puzzle file"]);
    assert_eq!(std::fs::read(dir.path().join("p.txt")).unwrap(), puzzle);
}

fn puzzle_from(b: usize, picks: &[(usize, u16)]) -> Grid {
    let mut grid = Grid::empty(b).unwrap();
    let n = b * b;
    for &(cell, d) in picks {
        let cell = Cell((cell % (n * n)) as u32);
        let d = Digit(d % n as u16 + 1);
        if grid.get(cell).is_none() && grid.candidates(cell).contains(d) {
            grid.set(cell, Some(d));
        }
    }
    grid
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// write_cnf → parse_dimacs gives the formula the encoder streams, header included.
    #[test]
    fn dimacs_write_then_parse_gives_the_same_formula(
        b in 2usize..=3,
        picks in prop::collection::vec((0usize..81, 0u16..9), 0..30),
        which in 0usize..4,
    ) {
        let puzzle = puzzle_from(b, &picks);
        let encoding = SudokuEncoding::ALL[which];
        let mut bytes = Vec::new();
        let size = write_cnf(&mut bytes, &encoding, &puzzle).unwrap();
        let mut back = Cnf::new();
        let report = parse_dimacs(bytes.as_slice(), "mem", &mut back, ParseOptions { strict: true }).unwrap();
        let (expected, _) = encoding.encode_to_cnf(&puzzle);
        prop_assert_eq!(report.size, size);
        prop_assert_eq!(back, expected);
    }
}

/// The `s` line and the `c failed assumptions:` line (if any) of a `sat` run.
fn answer_and_failed(out: &std::process::Output) -> (String, Option<String>) {
    let text = stdout(out);
    let s = text
        .lines()
        .find(|l| l.starts_with("s "))
        .unwrap()
        .to_string();
    let failed = text
        .lines()
        .find_map(|l| l.strip_prefix("c failed assumptions: "))
        .map(str::to_string);
    (s, failed)
}

#[test]
fn sat_solves_under_assumptions_and_names_the_failed_ones() {
    let dir = temp_dir();
    // x1 → x3, and x1 ∨ x2.
    std::fs::write(dir.path().join("a.cnf"), "p cnf 3 2\n1 2 0\n-1 3 0\n").unwrap();
    let sat = |assume: &str, backend: &str| {
        let out = run_in(
            dir.path(),
            &["sat", "a.cnf", "--backend", backend, "--assume", assume],
            b"",
        );
        (out.status.code(), answer_and_failed(&out))
    };
    // Satisfiable under -2 3: the model keeps them.
    let out = run_in(dir.path(), &["sat", "a.cnf", "--assume", "-2,3"], b"");
    assert_exit(&out, 10);
    assert!(stdout(&out).contains("v 1 -2 3\n"), "{}", stdout(&out));
    // 1 and -3 clash through the first clause pair: both are named, the irrelevant 2 not.
    let (code, (s, failed)) = sat("1 2 -3", "cdcl");
    assert_eq!((code, s.as_str()), (Some(20), "s UNSATISFIABLE"));
    let mut named: Vec<i64> = failed
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    named.sort();
    assert_eq!(named, [-3, 0, 1]);
    // A backend without assumptions gives the same answer from unit clauses.
    let (code, (s, failed)) = sat("1 2 -3", "dpll");
    assert_eq!((code, s.as_str()), (Some(20), "s UNSATISFIABLE"));
    assert!(failed.unwrap().starts_with("not named"));
    for assume in ["-1 -2", "1 -3", "-1 2 3", "-2"] {
        let (cdcl, dpll) = (sat(assume, "cdcl"), sat(assume, "dpll"));
        assert_eq!((cdcl.0, &cdcl.1 .0), (dpll.0, &dpll.1 .0), "{assume}");
    }
    // Bad literals are refused before solving.
    for (assume, message) in [
        ("4", "above the formula's 3 variables"),
        ("0", "not a literal"),
    ] {
        let out = run_in(dir.path(), &["sat", "a.cnf", "--assume", assume], b"");
        assert_exit(&out, 2);
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
    }
}

/// CaDiCaL, quiet, on `file` in `dir` (as a user runs it on an exported file).
fn cadical_on(dir: &Path, file: &str) -> std::process::Output {
    std::process::Command::new("cadical")
        .args(["-q", file])
        .current_dir(dir)
        .output()
        .expect("cadical runs")
}

/// The literals of the `v` lines of a `sat` run (or of any solver printing them).
fn model_lits(text: &str) -> Vec<i64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(|l| l.split_whitespace().map(|w| w.parse::<i64>().unwrap()))
        .filter(|&l| l != 0)
        .collect()
}

#[test]
fn sat_solves_cube_by_cube_from_an_inccnf_file_or_a_cube_file() {
    let dir = temp_dir();
    let puzzle = fixture("minimal-1-line.txt");
    let out = run_in(
        dir.path(),
        &[
            "encode",
            puzzle.to_str().unwrap(),
            "--reduce",
            "-o",
            "p.cnf",
        ],
        b"",
    );
    assert_exit(&out, 0);
    // In the reduced encoding variables 1..=5 are the candidates of the first open cell,
    // r1c3 (r1c1 and r1c2 are givens), in order: one cube each covers every solution, and
    // only the solution's digit is satisfiable.
    let cnf_text = std::fs::read_to_string(dir.path().join("p.cnf")).unwrap();
    assert!(
        cnf_text.contains("\n1 2 3 4 5 0\n"),
        "r1c3 has 5 candidates"
    );
    let cubes: String = (1..=5).map(|v| format!("a {v} 0\n")).collect();
    std::fs::write(dir.path().join("cubes.txt"), &cubes).unwrap();
    let clauses: String = cnf_text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(
        dir.path().join("p.icnf"),
        format!("p inccnf\n{clauses}{cubes}"),
    )
    .unwrap();
    let answer = |args: &[&str]| {
        let out = run_in(dir.path(), args, b"");
        assert_exit(&out, 10);
        let text = stdout(&out);
        let cube_line = text
            .lines()
            .find(|l| l.starts_with("c cube "))
            .map(str::to_string);
        (cube_line, model_lits(&text), text)
    };
    let (line, model, text) = answer(&["sat", "p.cnf", "--cubes", "cubes.txt"]);
    let digit = model
        .iter()
        .copied()
        .find(|&l| (1..=5).contains(&l))
        .unwrap();
    assert_eq!(
        line.as_deref(),
        Some(format!("c cube {digit} of 5 satisfiable: a {digit} 0").as_str())
    );
    // The model is the puzzle's solution.
    std::fs::write(dir.path().join("m.txt"), &text).unwrap();
    let out = run_in(dir.path(), &["decode", "--cnf", "p.cnf", "m.txt"], b"");
    assert_exit(&out, 0);
    let solution: Grid = stdout(&out).trim().parse().unwrap();
    let given = &common::read_fixture("minimal-1-line.txt")[0];
    assert!(sudosat::grid::check_solution(given, &solution).is_valid());
    // The same cube and model from the inccnf file, and from dpll (a solver afresh per cube).
    let expected = (line.clone(), model.clone());
    for args in [
        &["sat", "p.icnf"][..],
        &["sat", "p.icnf", "--threads", "1"],
        &["sat", "p.icnf", "--threads", "3"],
        &["sat", "p.icnf", "--backend", "dpll"],
        &["sat", "p.cnf", "--cubes", "cubes.txt", "--backend", "dpll"],
        &[
            "sat",
            "p.cnf",
            "--cubes",
            "cubes.txt",
            "--backend",
            "dpll",
            "--threads",
            "1",
        ],
    ] {
        let (line, model, _) = answer(args);
        assert_eq!((line, model), expected, "{args:?}");
    }
    if common::external_available("cadical") {
        let out = cadical_on(dir.path(), "p.icnf");
        assert_eq!(out.status.code(), Some(10));
        assert_eq!(model_lits(&stdout(&out)), model, "cadical on p.icnf");
        let cmd = ["--backend", "external", "--solver-cmd", "cadical -q"];
        let (line, model, _) =
            answer(&[&["sat", "p.cnf", "--cubes", "cubes.txt"][..], &cmd].concat());
        assert_eq!((line, model), expected, "cadical a cube at a time");
    }
    // Without the solution's cube every cube is UNSAT, for both kinds of backend, but the
    // cubes leave the solution's digit out, and the formula is satisfiable there: the
    // answer is the solution, not UNSAT (which CaDiCaL answers for such a file).
    let others: String = (1..=5)
        .filter(|&v| v != digit)
        .map(|v| format!("a {v} 0\n"))
        .collect();
    std::fs::write(dir.path().join("others.txt"), others).unwrap();
    for (backend, threads) in [("cdcl", "1"), ("cdcl", "2"), ("dpll", "1"), ("dpll", "2")] {
        let args = [
            "sat",
            "p.cnf",
            "--cubes",
            "others.txt",
            "--backend",
            backend,
            "--threads",
            threads,
        ];
        let out = run_in(dir.path(), &args, b"");
        assert_exit(&out, 10);
        let text = stdout(&out);
        assert!(
            text.contains(
                "c all 4 cubes unsatisfiable; they leave assignments out, and the formula is \
                 satisfiable there\ns SATISFIABLE\n"
            ),
            "{text}"
        );
        assert_eq!(model_lits(&text), model, "{args:?}");
    }
    // With the solution excluded the formula is UNSAT: under cubes that leave assignments
    // out (checked there too), and under cubes that cover every assignment.
    std::fs::write(
        dir.path().join("excluded.cnf"),
        format!("{cnf_text}-{digit} 0\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("split.txt"), "a 7 0\na -7 0\n").unwrap();
    for (cubes, said) in [
        (
            "others.txt",
            "c all 4 cubes unsatisfiable; they leave assignments out, and the formula is \
             unsatisfiable there too\n",
        ),
        (
            "split.txt",
            "c all 2 cubes unsatisfiable; they cover every assignment the formula allows\n",
        ),
    ] {
        let out = run_in(dir.path(), &["sat", "excluded.cnf", "--cubes", cubes], b"");
        assert_exit(&out, 20);
        assert!(stdout(&out).contains(said), "{}", stdout(&out));
    }
    // `--stats` shows each cube's end, time and worker, in cube order.
    let out = run_in(
        dir.path(),
        &[
            "sat",
            "excluded.cnf",
            "--cubes",
            "others.txt",
            "--stats",
            "--threads",
            "1",
        ],
        b"",
    );
    let timed: Vec<String> = stdout(&out)
        .lines()
        .filter(|l| l.starts_with("c cube ") && l.contains(" s (worker "))
        .map(str::to_string)
        .collect();
    assert_eq!(timed.len(), 4, "{timed:?}");
    for (k, line) in timed.iter().enumerate() {
        assert!(
            line.starts_with(&format!("c cube {} of 4: unsat in ", k + 1))
                && line.ends_with(" s (worker 1)"),
            "{line}"
        );
    }
    // What cannot go together, and a bad cube, are errors before solving.
    std::fs::write(dir.path().join("bad.txt"), "a 1 0\na 2 999 0\n").unwrap();
    for (args, message) in [
        (
            &["sat", "p.icnf", "--cubes", "cubes.txt"][..],
            "has cubes of its own",
        ),
        (
            &["sat", "p.cnf", "--cubes", "bad.txt"],
            "bad.txt:2:5: literal 999 is above the formula's 230 variables",
        ),
    ] {
        let out = run_in(dir.path(), args, b"");
        assert_exit(&out, 2);
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    assert!(!dir.path().join("p.drat").exists());
    // Cubes from standard input with the formula from a file; not both from it.
    let out = run_in(
        dir.path(),
        &["sat", "p.cnf", "--cubes", "-"],
        cubes.as_bytes(),
    );
    assert_exit(&out, 10);
    assert_eq!(
        stdout(&out).lines().find(|l| l.starts_with("c cube ")),
        expected.0.as_deref()
    );
    let out = run_in(
        dir.path(),
        &["sat", "-", "--cubes", "-"],
        cnf_text.as_bytes(),
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("read only once"), "{}", stderr(&out));
}

#[test]
fn encode_writes_cube_and_conquer_files_that_sat_and_cadical_solve() {
    let dir = temp_dir();
    let puzzle = fixture("minimal-1-line.txt");
    let p = puzzle.to_str().unwrap();
    let out = run_in(
        dir.path(),
        &["encode", p, "--reduce", "--cubes", "2", "-o", "p.icnf"],
        b"",
    );
    assert_exit(&out, 0);
    let text = std::fs::read_to_string(dir.path().join("p.icnf")).unwrap();
    let cubes = text.lines().filter(|l| l.starts_with("a ")).count();
    let line = text.lines().find(|l| l.starts_with("c cubes: ")).unwrap();
    assert!(line.ends_with(&format!("= {cubes} cubes")), "{line}");
    assert!(cubes >= 4, "two cells of at least two candidates: {line}");
    let out = run_in(dir.path(), &["sat", "p.icnf"], b"");
    assert_exit(&out, 10);
    assert!(stdout(&out).contains(&format!(" of {cubes} satisfiable: a ")));
    std::fs::write(dir.path().join("m.txt"), stdout(&out)).unwrap();
    let out = run_in(dir.path(), &["decode", "--cnf", "p.icnf", "m.txt"], b"");
    assert_exit(&out, 0);
    let solution: Grid = stdout(&out).trim().parse().unwrap();
    let given = &common::read_fixture("minimal-1-line.txt")[0];
    assert!(sudosat::grid::check_solution(given, &solution).is_valid());
    if common::external_available("cadical") {
        let out = cadical_on(dir.path(), "p.icnf");
        assert_eq!(
            out.status.code(),
            Some(10),
            "cadical reads what encode wrote"
        );
        std::fs::write(dir.path().join("c.txt"), stdout(&out)).unwrap();
        let out = run_in(dir.path(), &["decode", "--cnf", "p.icnf", "c.txt"], b"");
        assert_exit(&out, 0);
        assert_eq!(stdout(&out).trim().parse::<Grid>().unwrap(), solution);
    }
    // One file per puzzle, named .icnf; too many cubes is refused before anything is made.
    let many = fixture("minimal-40.txt");
    let m = many.to_str().unwrap();
    let out = run_in(
        dir.path(),
        &["encode", m, "--cubes", "1", "--out-dir", "set"],
        b"",
    );
    assert_exit(&out, 0);
    assert!(dir.path().join("set/puzzle-0040.icnf").is_file());
    let out = run_in(
        dir.path(),
        &["encode", p, "--cubes", "40", "-o", "big.icnf"],
        b"",
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("more than 1048576 cubes"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("big.icnf").exists());
}

#[test]
fn sat_without_the_model_prints_the_answer_only() {
    let dir = temp_dir();
    std::fs::write(dir.path().join("a.cnf"), "p cnf 3 2\n1 2 0\n-1 3 0\n").unwrap();
    std::fs::write(dir.path().join("u.cnf"), "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    for flag in ["-n", "--no-model"] {
        let out = run_in(dir.path(), &["sat", "a.cnf", flag], b"");
        assert_exit(&out, 10);
        let text = stdout(&out);
        assert!(text.lines().any(|l| l == "s SATISFIABLE"), "{text}");
        assert!(!text.lines().any(|l| l.starts_with("v ")), "{text}");
        let out = run_in(dir.path(), &["sat", "u.cnf", flag], b"");
        assert_exit(&out, 20);
    }
    let out = run_in(dir.path(), &["sat", "a.cnf"], b"");
    assert!(stdout(&out).contains("\nv "), "the model without the flag");
}

/// `sat` on random 3-SAT at the threshold: on two threads the lookahead search races
/// CDCL, on one it takes over, with `--lookahead none` CDCL works alone; all three give the
/// same answers, each model satisfies the formula, and `--stats` counts the lookahead.
#[test]
fn sat_races_the_lookahead_search_on_random_3sat_and_agrees_with_one_thread() {
    use rand::{Rng, SeedableRng};
    let dir = temp_dir();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4260);
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..8 {
        let clauses: Vec<Vec<i64>> = (0..639)
            .map(|_| {
                (0..3)
                    .map(|_| {
                        let var = rng.gen_range(1..=150i64);
                        if rng.gen() {
                            var
                        } else {
                            -var
                        }
                    })
                    .collect()
            })
            .collect();
        let mut text = "p cnf 150 639\n".to_string();
        for clause in &clauses {
            for lit in clause {
                text.push_str(&format!("{lit} "));
            }
            text.push_str("0\n");
        }
        let name = format!("r{i}.cnf");
        std::fs::write(dir.path().join(&name), text).unwrap();
        let mut codes = Vec::new();
        for (flags, searches) in [
            (["--threads", "2"], 1),
            (["--threads", "1"], 1),
            (["--lookahead", "none"], 0),
        ] {
            let mut args = vec!["sat", name.as_str(), "--stats"];
            args.extend(flags);
            let out = run_in(dir.path(), &args, b"");
            let text = stdout(&out);
            let code = out.status.code().unwrap();
            assert!(code == 10 || code == 20, "{flags:?}: {text}");
            codes.push(code);
            // `--stats` goes to standard error or output; look in both.
            let stats = format!("{text}{}", stderr(&out));
            assert!(
                stats.contains(&format!("lookahead_searches: {searches}\n")),
                "{flags:?}: {stats}"
            );
            if code == 10 {
                let model: std::collections::HashSet<i64> = text
                    .lines()
                    .filter_map(|l| l.strip_prefix("v "))
                    .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i64>().unwrap()))
                    .collect();
                assert!(
                    clauses.iter().all(|c| c.iter().any(|l| model.contains(l))),
                    "{flags:?}: a clause falsified"
                );
            }
        }
        assert!(codes.iter().all(|&c| c == codes[0]), "r{i}: {codes:?}");
        if codes[0] == 10 {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(sat > 1 && unsat > 1, "{sat} SAT, {unsat} UNSAT");
}

/// A satisfiable cube found by one worker stops an external solver another worker is
/// running: the slow solver is killed before it gets to leave its mark.
#[cfg(unix)]
#[test]
fn parallel_conquer_kills_an_external_solver_made_pointless() {
    let dir = temp_dir();
    std::fs::write(dir.path().join("f.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    std::fs::write(dir.path().join("cubes.txt"), "a -1 -2 0\na 1 0\n").unwrap();
    // The cube -1 -2 (its units in the input) is slow and then marks a file; any other
    // input is satisfiable at once.
    let solver = common::write_script(
        dir.path(),
        "slow-solver",
        "#!/bin/sh\n\
         if grep -q '^-2 0$' \"$1\"; then sleep 20; touch \"$MARKER\"; \
         echo 's UNSATISFIABLE'; exit 20; fi\n\
         echo 's SATISFIABLE'; echo 'v 1 2 0'; exit 10\n",
    );
    let marker = dir.path().join("slow-cube-finished");
    let out = common::sudosat()
        .args(["sat", "f.cnf", "--cubes", "cubes.txt", "--threads", "2"])
        .args([
            "--backend",
            "external",
            "--solver-cmd",
            solver.to_str().unwrap(),
        ])
        .env("MARKER", &marker)
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_exit(&out, 10);
    assert!(
        stdout(&out).contains("c cube 2 of 2 satisfiable: a 1 0"),
        "{}",
        stdout(&out)
    );
    assert!(
        !marker.exists(),
        "the slow solver was killed, not waited for"
    );
}

/// Every cube worker learns as `solve` would on the CNF's encoding (the `c encoding:`
/// comment): cdcl shrinks its learnt clauses on the extended encoding, and does not on a
/// formula without the comments.
#[test]
fn cube_workers_take_the_encoding_from_the_cnf_comments() {
    let dir = temp_dir();
    let golden =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cnf/9x9/inkala.extended-reduced.cubes2.icnf");
    let text = std::fs::read_to_string(golden).unwrap();
    std::fs::write(dir.path().join("hint.icnf"), &text).unwrap();
    let bare: String = text
        .lines()
        .filter(|l| !l.starts_with('c'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("bare.icnf"), bare).unwrap();
    let shrink_tries = |file: &str| -> u64 {
        let out = run_in(
            dir.path(),
            &["sat", file, "--threads", "2", "--stats", "-n"],
            b"",
        );
        assert_exit(&out, 10);
        let text = stdout(&out);
        text.lines()
            .find_map(|l| l.strip_prefix("c shrink_tries: "))
            .unwrap_or_else(|| panic!("{text}"))
            .parse()
            .unwrap()
    };
    assert!(shrink_tries("hint.icnf") > 0);
    assert_eq!(shrink_tries("bare.icnf"), 0);
}

#[test]
fn encode_splits_by_lookahead_and_sat_finds_the_solution_through_the_cubes() {
    let dir = common::temp_dir();
    // Blank half of a known solution (several solutions then): the lookahead places the
    // cells singles force and splits on cells with two branches or more.
    let solution = common::read_fixture("solutions/inkala-line.txt").remove(0);
    let mut puzzle = solution.clone();
    for i in (0..81).step_by(2) {
        puzzle.set(sudosat::grid::Cell(i), None);
    }
    std::fs::write(dir.path().join("p.txt"), puzzle.to_line().unwrap() + "\n").unwrap();
    let out = run_in(
        dir.path(),
        &[
            "encode",
            "p.txt",
            "--reduce",
            "--cubes",
            "2",
            "--split",
            "lookahead",
            "-o",
            "p.icnf",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let text = std::fs::read_to_string(dir.path().join("p.icnf")).unwrap();
    let line = text.lines().find(|l| l.starts_with("c cubes: ")).unwrap();
    let cubes = text.lines().filter(|l| l.starts_with("a ")).count();
    assert!(line.ends_with(&format!("= {cubes} cubes")), "{line}");
    let out = run_in(dir.path(), &["sat", "p.icnf"], b"");
    assert_exit(&out, 10);
    std::fs::write(dir.path().join("m.txt"), stdout(&out)).unwrap();
    let out = run_in(dir.path(), &["decode", "--cnf", "p.icnf", "m.txt"], b"");
    assert_exit(&out, 0);
    let decoded: Grid = stdout(&out).trim().parse().unwrap();
    assert!(sudosat::grid::check_solution(&puzzle, &decoded).is_valid());
    // --split means nothing without --cubes.
    let out = run_in(
        dir.path(),
        &["encode", "p.txt", "--split", "lookahead"],
        b"",
    );
    assert_exit(&out, 2);
}

/// Cube and conquer answers as the plain solve does on random formulas near the threshold
/// (10 variables, 43 clauses) under random cube sets: a complete split on two to four
/// variables with some cubes left out, so that the cover check and the solve outside the
/// cubes both run; every model is checked against the clauses, and every UNSAT through
/// cubes is proved (drat-trim, when present).
#[test]
fn cubes_answer_as_the_plain_solve_on_random_formulas_and_cube_sets() {
    use rand::{Rng, SeedableRng};
    let dir = temp_dir();
    let drat = common::drat_trim();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let (mut sat, mut unsat, mut short) = (0, 0, 0);
    for round in 0..60 {
        let vars = 10;
        let mut clauses = Vec::new();
        for _ in 0..43 {
            let clause: Vec<i64> = (0..3)
                .map(|_| {
                    let v = rng.gen_range(1..=vars) as i64;
                    if rng.gen_bool(0.5) {
                        v
                    } else {
                        -v
                    }
                })
                .collect();
            clauses.push(clause);
        }
        let text: String = clauses
            .iter()
            .map(|c| format!("{} {} {} 0\n", c[0], c[1], c[2]))
            .collect();
        std::fs::write(
            dir.path().join("f.cnf"),
            format!("p cnf {vars} {}\n{text}", clauses.len()),
        )
        .unwrap();
        // A complete split on k variables, each cube kept with probability 3/4.
        let k = rng.gen_range(2..=4);
        let split: Vec<i64> = (1..=vars as i64)
            .filter(|_| rng.gen_bool(0.5))
            .take(k)
            .collect();
        let mut cubes = String::new();
        let mut kept = 0;
        for mask in 0..(1u32 << split.len()) {
            if rng.gen_bool(0.75) {
                let lits: Vec<String> = split
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| if mask >> i & 1 == 1 { v } else { -v }.to_string())
                    .collect();
                cubes.push_str(&format!("a {} 0\n", lits.join(" ")));
                kept += 1;
            }
        }
        if kept == 0 {
            continue;
        }
        if kept < 1 << split.len() {
            short += 1;
        }
        std::fs::write(dir.path().join("c.txt"), &cubes).unwrap();
        let plain = run_in(dir.path(), &["sat", "f.cnf", "-n"], b"");
        let proof = format!("p{round}.drat");
        let cubed = run_in(
            dir.path(),
            &["sat", "f.cnf", "--cubes", "c.txt", "--proof", &proof],
            b"",
        );
        let expected = plain.status.code().unwrap();
        assert_eq!(
            cubed.status.code(),
            Some(expected),
            "round {round}: {cubes}"
        );
        match expected {
            10 => {
                sat += 1;
                let model: Vec<i64> = stdout(&cubed)
                    .lines()
                    .filter_map(|l| l.strip_prefix("v "))
                    .flat_map(|l| l.split_whitespace().map(|w| w.parse::<i64>().unwrap()))
                    .collect();
                for clause in &clauses {
                    assert!(clause.iter().any(|l| model.contains(l)), "round {round}");
                }
            }
            20 => {
                unsat += 1;
                if let Some(drat) = &drat {
                    let cnf = dir.path().join("f.cnf");
                    let proof = dir.path().join(&proof);
                    assert!(common::drat_verifies(drat, &cnf, &proof), "round {round}");
                }
            }
            other => panic!("round {round}: exit {other}"),
        }
    }
    // Both answers and short cube sets came up, so every path was taken.
    assert!(
        sat > 5 && unsat > 5 && short > 5,
        "{sat} SAT, {unsat} UNSAT, {short} short"
    );
}

/// `sudosat cube` splits any CNF by lookahead; conquering its cubes (a cube file or the
/// `p inccnf` file it writes) gives the plain solve's answer, and an UNSAT answer through
/// them is proved. CaDiCaL reads the `p inccnf` file too.
#[test]
fn cube_splits_any_formula_and_sat_conquers_the_cubes() {
    let dir = temp_dir();
    let ph = common::pigeonhole(6, 5);
    sudosat::dimacs::write_formula(
        std::fs::File::create(dir.path().join("ph.cnf")).unwrap(),
        &ph,
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &[
            "encode",
            &common::path("inkala-line.txt"),
            "--reduce",
            "-o",
            "p.cnf",
        ],
        b"",
    );
    assert_exit(&out, 0);
    for (formula, expected) in [("ph.cnf", 20), ("p.cnf", 10)] {
        for depth in ["0", "3"] {
            let out = run_in(
                dir.path(),
                &["cube", formula, "--depth", depth, "-o", "c.txt"],
                b"",
            );
            assert_exit(&out, 0);
            let text = std::fs::read_to_string(dir.path().join("c.txt")).unwrap();
            assert!(text.starts_with("c sudosat cube: "), "{text}");
            let cubes = text.lines().filter(|l| l.starts_with("a ")).count();
            assert!(
                cubes >= 1 && cubes <= 1 << depth.parse::<u32>().unwrap(),
                "{text}"
            );
            let out = run_in(
                dir.path(),
                &["sat", formula, "--cubes", "c.txt", "--proof", "c.drat"],
                b"",
            );
            assert_exit(&out, expected);
            if expected == 20 {
                if let Some(drat) = common::drat_trim() {
                    let cnf = dir.path().join(formula);
                    assert!(common::drat_verifies(
                        &drat,
                        &cnf,
                        &dir.path().join("c.drat")
                    ));
                }
            }
        }
        // A free-variable cutoff above every count ends the split at the root: one empty
        // cube, which conquers to the same answer.
        let out = run_in(
            dir.path(),
            &[
                "cube",
                formula,
                "--depth",
                "3",
                "--free-vars",
                "100000",
                "-o",
                "c.txt",
            ],
            b"",
        );
        assert_exit(&out, 0);
        let text = std::fs::read_to_string(dir.path().join("c.txt")).unwrap();
        assert!(text.contains(" or 100000 free variables "), "{text}");
        let cubes: Vec<&str> = text.lines().filter(|l| l.starts_with("a ")).collect();
        assert_eq!(cubes, ["a 0"], "{text}");
        let out = run_in(dir.path(), &["sat", formula, "--cubes", "c.txt", "-n"], b"");
        assert_exit(&out, expected);
        // The same cubes in a `p inccnf` file.
        let out = run_in(
            dir.path(),
            &["cube", formula, "--depth", "2", "--icnf", "-o", "f.icnf"],
            b"",
        );
        assert_exit(&out, 0);
        assert_exit(&run_in(dir.path(), &["sat", "f.icnf", "-n"], b""), expected);
        if common::external_available("cadical") {
            let out = cadical_on(dir.path(), "f.icnf");
            assert_eq!(out.status.code(), Some(expected), "cadical on {formula}");
        }
    }
    // Refuted at the root: no cube, exit 20.
    std::fs::write(
        dir.path().join("u.cnf"),
        "p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["cube", "u.cnf"], b"");
    assert_exit(&out, 20);
    assert!(!stdout(&out).contains("\na "));
    assert!(stderr(&out).contains("unsatisfiable"), "{}", stderr(&out));
    // Refuted below the root only (4 pigeons, 3 holes: every branch fails): the same
    // answer, exit 20 with no cube, not an empty cube file that `sat --cubes` refuses.
    sudosat::dimacs::write_formula(
        std::fs::File::create(dir.path().join("ph43.cnf")).unwrap(),
        &common::pigeonhole(4, 3),
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["cube", "ph43.cnf", "--depth", "4", "-o", "c43.txt"],
        b"",
    );
    assert_exit(&out, 20);
    assert!(stderr(&out).contains("unsatisfiable"), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.path().join("c43.txt")).unwrap();
    assert!(text.starts_with("c sudosat cube: 0 cubes"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("a ")), "{text}");
}

#[test]
fn sat_prints_the_backbone_of_a_satisfiable_formula() {
    let dir = temp_dir();
    // x1 forced, x5 = ¬x1, x2 → x3, x2 ∨ x4: the backbone is {1, −5}; with x2 assumed, also
    // 2 and 3 (x4 is then free).
    let formula = "p cnf 5 5\n1 0\n-2 3 0\n-1 -5 0\n1 5 0\n2 4 0\n";
    std::fs::write(dir.path().join("f.cnf"), formula).unwrap();
    let out = run_in(dir.path(), &["sat", "--backbone", "f.cnf"], b"");
    assert_exit(&out, 10);
    let text = stdout(&out);
    assert!(
        text.contains("\nc backbone: 2 of 5 variables\nb 1 -5\nb 0\n"),
        "{text}"
    );
    let out = run_in(
        dir.path(),
        &["sat", "--backbone", "--assume", "2", "f.cnf"],
        b"",
    );
    assert_exit(&out, 10);
    assert!(
        stdout(&out).contains("\nb 1 2 3 -5\nb 0\n"),
        "{}",
        stdout(&out)
    );
    // An unsatisfiable formula has no backbone lines; a backend without assumptions is
    // refused before it solves.
    std::fs::write(dir.path().join("u.cnf"), "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    let out = run_in(dir.path(), &["sat", "--backbone", "u.cnf"], b"");
    assert_exit(&out, 20);
    assert!(!stdout(&out).contains("b "), "{}", stdout(&out));
    let out = run_in(
        dir.path(),
        &["sat", "--backbone", "--backend", "dpll", "f.cnf"],
        b"",
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--backend cdcl"), "{}", stderr(&out));
}

#[test]
fn sat_writes_a_minimal_unsatisfiable_subformula() {
    let dir = temp_dir();
    // Two minimal unsatisfiable subformulas: clauses {1, 2, 3} and {2, 3, 5, 6}.
    let clauses = ["1", "-1 2", "-2", "3", "-3 1", "2 3"];
    let text: String = clauses.iter().map(|c| format!("{c} 0\n")).collect();
    std::fs::write(dir.path().join("u.cnf"), format!("p cnf 3 6\n{text}")).unwrap();
    let out = run_in(dir.path(), &["sat", "--mus", "mus.cnf", "u.cnf"], b"");
    assert_exit(&out, 20);
    let mus = std::fs::read_to_string(dir.path().join("mus.cnf")).unwrap();
    let numbers: Vec<usize> = mus
        .lines()
        .find_map(|l| l.strip_prefix("c input clauses: "))
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(numbers == [1, 2, 3] || numbers == [2, 3, 5, 6], "{mus}");
    let body: Vec<&str> = mus.lines().filter(|l| !l.starts_with('c')).collect();
    assert_eq!(body[0], format!("p cnf 3 {}", numbers.len()));
    for (line, &n) in body[1..].iter().zip(&numbers) {
        assert_eq!(*line, format!("{} 0", clauses[n - 1]));
    }
    assert!(
        stdout(&out).contains(&format!(
            "c mus: {} of 6 clauses, written to mus.cnf",
            numbers.len()
        )),
        "{}",
        stdout(&out)
    );
    // The subformula is unsatisfiable by itself.
    assert_exit(&run_in(dir.path(), &["sat", "mus.cnf"], b""), 20);
    // Pigeonhole 5/4 is minimally unsatisfiable: with clauses over other variables mixed
    // in, the subformula is exactly its clauses.
    let var = |pigeon: i64, hole: i64| pigeon * 4 + hole + 1;
    let mut php: Vec<String> = (0..5)
        .map(|p| {
            (0..4)
                .map(|h| var(p, h).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    for h in 0..4 {
        for a in 0..5 {
            for b in a + 1..5 {
                php.push(format!("-{} -{}", var(a, h), var(b, h)));
            }
        }
    }
    let mut all = Vec::new();
    let mut expected = Vec::new();
    for (i, clause) in php.iter().enumerate() {
        all.push(clause.clone());
        expected.push(all.len());
        if i % 3 == 0 {
            all.push(format!("{} -{}", 21 + i % 5, 22 + i % 4));
        }
    }
    let text: String = all.iter().map(|c| format!("{c} 0\n")).collect();
    std::fs::write(
        dir.path().join("php.cnf"),
        format!("p cnf 25 {}\n{text}", all.len()),
    )
    .unwrap();
    let out = run_in(dir.path(), &["sat", "--mus", "php-mus.cnf", "php.cnf"], b"");
    assert_exit(&out, 20);
    let mus = std::fs::read_to_string(dir.path().join("php-mus.cnf")).unwrap();
    let numbers: Vec<usize> = mus
        .lines()
        .filter_map(|l| l.strip_prefix("c input clauses: "))
        .flat_map(|l| l.split(' ').map(|n| n.parse::<usize>().unwrap()))
        .collect();
    assert_eq!(numbers, expected);
    // A satisfiable formula writes nothing.
    std::fs::write(dir.path().join("s.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    let out = run_in(dir.path(), &["sat", "--mus", "none.cnf", "s.cnf"], b"");
    assert_exit(&out, 10);
    assert!(!dir.path().join("none.cnf").exists());
}
