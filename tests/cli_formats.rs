//! Formats end to end: every fixture round-trips through every format that holds its size,
//! `convert` and `check` give exact outputs and exit codes, and bad input gives one
//! positioned line on stderr with exit 2.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_exit, assert_text_eq, fixture, run, run_in, stderr, stdout, temp_dir};
use sudosat::grid::{read_puzzles, read_puzzles_from_path, write_puzzles, Format, Grid, Source};

/// Every puzzle fixture (not the solutions, not the README).
fn puzzle_fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "txt" || e == "csv"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "fixtures missing: {files:?}");
    files
}

fn written(grids: &[Grid], format: Format) -> String {
    let mut out = Vec::new();
    write_puzzles(&mut out, grids, format).unwrap();
    String::from_utf8(out).unwrap()
}

fn reread(text: &str, format: Format) -> Vec<Grid> {
    read_puzzles(text.as_bytes(), &Source::Text, Some(format))
        .unwrap_or_else(|e| panic!("re-reading {format}: {e}\n{text}"))
}

#[test]
fn every_fixture_round_trips_through_every_pair_of_formats() {
    let solutions = puzzle_fixtures()
        .iter()
        .map(|p| solution_of(p))
        .collect::<Vec<_>>();
    for path in puzzle_fixtures().into_iter().chain(solutions) {
        let grids = read_puzzles_from_path(&path, None).unwrap();
        let n = grids[0].side();
        let formats: Vec<Format> = Format::ALL.into_iter().filter(|f| f.can_hold(n)).collect();
        for &a in &formats {
            let text_a = written(&grids, a);
            let from_a = reread(&text_a, a);
            assert_eq!(from_a, grids, "{} via {a}", path.display());
            for &b in &formats {
                let text_b = written(&from_a, b);
                let back = reread(&written(&reread(&text_b, b), a), a);
                assert_eq!(back, grids, "{}: {a} → {b} → {a}", path.display());
                assert_eq!(written(&back, a), text_a);
            }
        }
    }
}

#[test]
fn fixture_sizes_and_counts() {
    let expected = [
        ("debian-fiendish.txt", 1, 9),
        ("debian-medium.txt", 1, 9),
        ("expert-20.txt", 20, 9),
        ("minimal-40.txt", 40, 9),
        ("rank3-20.csv", 20, 9),
        ("rank4-2.csv", 2, 16),
        ("rank5-1.csv", 1, 25),
        ("sudoku-16-1.txt", 1, 16),
        ("sudoku-25-1.txt", 1, 25),
        ("sudoku-4-1.txt", 1, 4),
        ("thesis-4x4.txt", 1, 4),
        ("thesis-9x9.txt", 9, 9),
    ];
    for (name, count, side) in expected {
        let grids = read_puzzles_from_path(&fixture(name), None).unwrap();
        assert_eq!(grids.len(), count, "{name}");
        assert!(grids.iter().all(|g| g.side() == side), "{name}");
    }
}

#[test]
fn convert_block_to_grid() {
    let out = run(&[
        "convert",
        "--to",
        "grid",
        "tests/fixtures/debian-medium.txt",
    ]);
    assert_exit(&out, 0);
    assert_text_eq(
        &stdout(&out),
        "0 0 0 0 0 0 0 0 0\n0 1 0 9 0 8 0 6 0\n0 5 2 6 0 4 3 1 0\n8 0 0 5 0 6 0 0 7\n\
         0 0 4 2 0 9 8 0 0\n6 0 0 8 0 7 0 0 2\n0 8 1 7 0 3 2 9 0\n0 4 0 1 0 5 0 7 0\n\
         0 0 0 0 0 0 0 0 0\n",
    );
}

#[test]
fn convert_every_nine_by_nine_fixture_to_grid() {
    for name in [
        "thesis-9x9.txt",
        "minimal-40.txt",
        "expert-20.txt",
        "rank3-20.csv",
        "debian-fiendish.txt",
    ] {
        let out = run(&["convert", "--to", "grid", &format!("tests/fixtures/{name}")]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let original = read_puzzles_from_path(&fixture(name), None).unwrap();
        assert_eq!(reread(&text, Format::Grid), original, "{name}");
        let rows = text.lines().filter(|l| !l.is_empty()).count();
        assert_eq!(rows, 9 * original.len(), "{name}");
    }
}

#[test]
fn convert_grid_file_back_to_itself_is_byte_identical() {
    for name in ["sudoku-16-1.txt", "sudoku-25-1.txt", "sudoku-4-1.txt"] {
        let out = run(&[
            "convert",
            "--from",
            "grid",
            "--to",
            "grid",
            &format!("tests/fixtures/{name}"),
        ]);
        assert_exit(&out, 0);
        assert_text_eq(
            &stdout(&out),
            &std::fs::read_to_string(fixture(name)).unwrap(),
        );
    }
}

#[test]
fn convert_reads_stdin_and_writes_a_file() {
    let dir = temp_dir();
    let out = run_in(
        dir.path(),
        &["convert", "-", "--to", "csv2", "-o", "out.csv"],
        b"1 0 0 0\n2 3 0 4\n0 0 3 2\n0 0 0 0\n",
    );
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "");
    let written = std::fs::read_to_string(dir.path().join("out.csv")).unwrap();
    assert_eq!(written, "puzzle\n01000000020300040000030200000000\n");
}

/// An output renamed into place from a temporary file gets the permissions of any new file
/// (0666 less the umask), not the owner-only ones temporary files are created with.
#[cfg(unix)]
#[test]
fn written_files_get_ordinary_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir();
    let out = run_in(
        dir.path(),
        &["convert", "-", "-o", "out.txt"],
        b"1.3...1..4..2.4.\n",
    );
    assert_exit(&out, 0);
    std::fs::write(dir.path().join("plain.txt"), "x").unwrap();
    let mode = |name: &str| {
        std::fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("out.txt"), mode("plain.txt"));
}

#[test]
fn convert_to_line_and_pretty() {
    let out = run(&["convert", "tests/fixtures/thesis-4x4.txt"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "1...23.4..32....\n");
    let out = run(&["convert", "--to", "pretty", "tests/fixtures/thesis-4x4.txt"]);
    assert_exit(&out, 0);
    assert_eq!(
        stdout(&out),
        "┌─────┬─────┐\n│ 1 . │ . . │\n│ 2 3 │ . 4 │\n├─────┼─────┤\n│ . . │ 3 2 │\n\
         │ . . │ . . │\n└─────┴─────┘\n"
    );
}

#[test]
fn convert_many_files_at_once() {
    let out = run(&[
        "convert",
        "tests/fixtures/debian-medium.txt",
        "tests/fixtures/thesis-9x9.txt",
        "--to",
        "line",
    ]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 10);
    assert_eq!(
        text.lines().next().unwrap(),
        "..........1.9.8.6..526.431.8..5.6..7..42.98..6..8.7..2.817.329..4.1.5.7.........."
    );
}

fn solution_of(path: &Path) -> PathBuf {
    fixture("solutions").join(path.file_name().unwrap())
}

#[test]
fn every_fixture_solution_checks_against_its_puzzles() {
    for path in puzzle_fixtures() {
        let count = read_puzzles_from_path(&path, None).unwrap().len();
        let out = run(&[
            "check",
            path.to_str().unwrap(),
            "--solution",
            solution_of(&path).to_str().unwrap(),
        ]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let noun = if count == 1 { "solution" } else { "solutions" };
        assert!(
            text.ends_with(&format!(
                "checked {count} {noun}: {count} valid, 0 invalid\n"
            )),
            "{text}"
        );
        assert_eq!(text.matches(": ok: solution ").count(), count);
    }
}

#[test]
fn check_valid_puzzles_and_full_grids() {
    let out = run(&["check", "tests/fixtures/thesis-4x4.txt"]);
    assert_exit(&out, 0);
    assert_eq!(
        stdout(&out),
        "tests/fixtures/thesis-4x4.txt:1: ok: 4×4 puzzle, 6 givens\n\
         checked 1 grid: 1 valid, 0 invalid\n"
    );
    let out = run(&["check", "tests/fixtures/solutions/sudoku-16-1.txt"]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains(":1: ok: 16×16 full grid, a valid solution\n"));
    let dir = temp_dir();
    std::fs::write(dir.path().join("ones.txt"), "1".repeat(16)).unwrap();
    let out = run_in(dir.path(), &["check", "ones.txt"], b"");
    assert_exit(&out, 1);
    assert!(
        stdout(&out).starts_with("ones.txt:1: invalid: 4×4 full grid: 12 violations\n  row 1 repeats 1 at r1c1, r1c2, r1c3, r1c4\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn contradictory_givens_are_an_invalid_puzzle_not_an_error() {
    let dir = temp_dir();
    let puzzle = format!("55{}\n", ".".repeat(79));
    std::fs::write(
        dir.path().join("twins.txt"),
        format!("{}\n{puzzle}", ".".repeat(81)),
    )
    .unwrap();
    let out = run_in(dir.path(), &["check", "twins.txt"], b"");
    assert_exit(&out, 1);
    assert_eq!(
        stdout(&out),
        "twins.txt:1: ok: 9×9 puzzle, 0 givens\n\
         twins.txt:2: invalid: 9×9 puzzle, 2 givens: 2 violations\n\
         \x20 row 1 repeats 5 at r1c1, r1c2\n\
         \x20 box 1 repeats 5 at r1c1, r1c2\n\
         checked 2 grids: 1 valid, 1 invalid\n"
    );
    // The same as JSON, every grid a record.
    let out = run_in(dir.path(), &["check", "--json", "twins.txt"], b"");
    assert_exit(&out, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "grids": [
                {"file": "twins.txt", "line": 1, "size": 9, "givens": 0, "valid": true,
                 "violations": []},
                {"file": "twins.txt", "line": 2, "size": 9, "givens": 2, "valid": false,
                 "violations": ["row 1 repeats 5 at r1c1, r1c2", "box 1 repeats 5 at r1c1, r1c2"]},
            ],
            "summary": {"checked": 2, "valid": 1, "invalid": 1},
        })
    );
}

#[test]
fn a_wrong_solution_is_reported_per_puzzle() {
    let dir = temp_dir();
    // thesis-4x4's solution with r1c1 changed, then a partial grid
    let sol = std::fs::read_to_string(fixture("solutions/thesis-4x4.txt")).unwrap();
    let mut wrong = sol.clone().into_bytes();
    wrong[0] = b'4';
    std::fs::write(dir.path().join("wrong.txt"), &wrong).unwrap();
    let puzzle = fixture("thesis-4x4.txt");
    let out = run_in(
        dir.path(),
        &["check", puzzle.to_str().unwrap(), "--solution", "wrong.txt"],
        b"",
    );
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains(":1: invalid: solution wrong.txt:1: "),
        "{text}"
    );
    assert!(
        text.contains("  r1c1 is 4 but the puzzle gives 1\n"),
        "{text}"
    );
    assert!(text.contains("  row 1 repeats 4 at r1c1, "), "{text}");
    assert!(
        text.ends_with("checked 1 solution: 0 valid, 1 invalid\n"),
        "{text}"
    );
    // As JSON: the solution's place and the same violations.
    let out = run_in(
        dir.path(),
        &[
            "check",
            puzzle.to_str().unwrap(),
            "--solution",
            "wrong.txt",
            "--json",
        ],
        b"",
    );
    assert_exit(&out, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let grid = &json["grids"][0];
    assert_eq!(
        (
            &grid["solution"]["file"],
            &grid["solution"]["line"],
            &grid["valid"]
        ),
        (&"wrong.txt".into(), &1.into(), &false.into())
    );
    assert!(grid["violations"]
        .as_array()
        .unwrap()
        .contains(&"r1c1 is 4 but the puzzle gives 1".into()));

    std::fs::write(dir.path().join("two.txt"), format!("{sol}{sol}")).unwrap();
    let out = run_in(
        dir.path(),
        &["check", puzzle.to_str().unwrap(), "--solution", "two.txt"],
        b"",
    );
    assert_exit(&out, 2);
    assert_eq!(
        stderr(&out),
        "sudosat: error: two.txt: 2 solutions for 1 puzzle; expected one solution per puzzle, in order\n"
    );
}

#[test]
fn a_kaggle_csv_is_solved_to_its_own_solutions_column() {
    // The first rows of the public 1M-puzzle Kaggle set: puzzle and solution per line.
    let rows = [
        (
            "004300209005009001070060043006002087190007400050083000600000105003508690042910300",
            "864371259325849761971265843436192587198657432257483916689734125713528694542916378",
        ),
        (
            "040100050107003960520008000000000017000906800803050620090060543600080700250097100",
            "346179258187523964529648371965832417472916835813754629798261543631485792254397186",
        ),
    ];
    let mut csv = String::from("quizzes,solutions\r\n");
    for (quiz, solution) in rows {
        csv += &format!("{quiz},{solution}\r\n");
    }
    let dir = temp_dir();
    std::fs::write(dir.path().join("kaggle.csv"), csv).unwrap();
    let out = run_in(dir.path(), &["solve", "kaggle.csv"], b"");
    assert_exit(&out, 0);
    let expected: Vec<&str> = rows.iter().map(|(_, solution)| *solution).collect();
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), expected);
}

#[test]
fn standard_input_named_twice_is_refused_by_every_command() {
    let puzzle = std::fs::read(fixture("thesis-4x4.txt")).unwrap();
    let dir = temp_dir();
    for args in [
        &["check", "-", "--solution", "-"][..],
        &["check", "-", "-"],
        &["solve", "-", "-"],
        &["encode", "-", "-"],
        &["compare", "-", "-"],
        &["decode", "--puzzle", "-", "-"],
    ] {
        let out = run_in(dir.path(), args, &puzzle);
        assert_exit(&out, 2);
        assert_eq!(
            stderr(&out),
            "sudosat: error: standard input (`-`) is named 2 times; it can be read only once\n",
            "{args:?}"
        );
    }
    // Once is fine.
    assert_exit(&run_in(dir.path(), &["check", "-"], &puzzle), 0);
    // decode reads a CNF twice (comments, then clauses), so a file is asked for.
    let out = run_in(dir.path(), &["decode", "--cnf", "-", "m.txt"], b"");
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--cnf -: the CNF is read twice"));
}

/// Writes `content` to `name` in a fresh directory, runs `sudosat ARGS name` there and
/// asserts exit 2 with exactly one stderr line starting `sudosat: error: PREFIX`.
fn assert_bad(name: &str, content: &[u8], args: &[&str], prefix: &str) {
    let dir = temp_dir();
    std::fs::write(dir.path().join(name), content).unwrap();
    let mut all: Vec<&str> = args.to_vec();
    all.push(name);
    let out = run_in(dir.path(), &all, b"");
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    let expected = format!("sudosat: error: {prefix}");
    assert!(
        err.starts_with(&expected),
        "expected: {expected}…\ngot:      {err}"
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn bad_line_inputs() {
    assert_bad(
        "short.txt",
        format!("{}\n", ".".repeat(80)).as_bytes(),
        &["check"],
        "short.txt:1:81: found 80 cells; a grid of b×b boxes has b⁴ cells: 16, 81, 256, 625, … \
         up to 160000 (nearest: 81)",
    );
    // 36 symbols on a line are a row of a 36×36 grid in the block format.
    assert_bad(
        "six.txt",
        format!("# a 6×6 puzzle\n{}\n", "1".repeat(36)).as_bytes(),
        &["check"],
        "six.txt:3:1: end of input: the block starting at line 2 has 1 row; expected 36",
    );
    assert_bad(
        "big-digit.txt",
        b"1.3....1..4..2.5\n",
        &["check"],
        "big-digit.txt:1:16: digit '5' is larger than 4 in a 4×4 grid (cell r4c4)",
    );
    assert_bad(
        "char.txt",
        format!(
            "{}\n{}@{}\n",
            ".".repeat(81),
            ".".repeat(40),
            ".".repeat(40)
        )
        .as_bytes(),
        &["convert"],
        "char.txt:2:41: unexpected character '@'; expected a digit 1-9",
    );
}

#[test]
fn bad_block_inputs() {
    let rows = " . . 9 | . 8 1 | . . .\n . . 2 | 3 . . | 4 . .\n";
    assert_bad(
        "cut.txt",
        format!("% cut short\n{rows}").as_bytes(),
        &["check"],
        "cut.txt:4:1: end of input: the block starting at line 2 has 2 rows; expected 9",
    );
    assert_bad(
        "wide.txt",
        format!(" . . 9 | . 8 1 | . . . | 1\n{rows}").as_bytes(),
        &["check"],
        "wide.txt:1:27: row has 10 cells; a row of a grid with b×b boxes has n = b² cells",
    );
    assert_bad(
        "spaces.txt",
        b"*-----------*\n|1..|...|..2|\n|1 .|...|..2|\n",
        &["check"],
        "spaces.txt:3:14: row 2 has 8 cells; expected 9 like the first row (line 2) (spaces only \
         separate cells: write every blank as '.', '0' or '_')",
    );
    assert_bad(
        "six-by-six.txt",
        b"123456\n456123\n",
        &["check"],
        "six-by-six.txt:1:7: row has 6 cells; a row of a grid with b×b boxes has n = b² cells: \
         4, 9, 16, 25",
    );
    assert_bad(
        "letter.txt",
        b"..9|.81|...\n..A|...|...\n",
        &["check", "--from", "block"],
        "letter.txt:2:3: 'A' is not a digit of a 9×9 grid (cell r2c3); expected 1-9",
    );
}

#[test]
fn bad_grid_inputs() {
    assert_bad(
        "ragged.txt",
        b"1 0 0 0\n2 3 0 4 1\n0 0 3 2\n0 0 0 0\n",
        &["check"],
        "ragged.txt:2:9: row 2 has more than 4 values (ragged rows",
    );
    assert_bad(
        "six.txt",
        b"1 2 3 4 5 6\n",
        &["check"],
        "six.txt:1:12: first row has 6 values; a row of a grid with b×b boxes has n = b² cells",
    );
    assert_bad(
        "rows.txt",
        b"1 0 0 0\n2 3 0 4\n0 0 3 2\n\n0 0 0 0\n",
        &["check"],
        "rows.txt:4:1: the grid starting at line 1 has 3 rows; expected 4",
    );
    let mut sixteen = std::fs::read_to_string(fixture("sudoku-16-1.txt")).unwrap();
    sixteen = sixteen.replacen("0 15", "17 15", 1);
    assert_bad(
        "seventeen.txt",
        sixteen.as_bytes(),
        &["check"],
        "seventeen.txt:1:1: value 17 is larger than 16 in a 16×16 grid (cell r1c1)",
    );
    let mixed = std::fs::read_to_string(fixture("sudoku-16-1.txt"))
        .unwrap()
        .replacen("2 0 0 0\n", "2 0 ..\n", 1);
    assert_bad(
        "mixed.txt",
        mixed.as_bytes(),
        &["check"],
        "mixed.txt:2:33: \"..\" is not one cell: in the grid format every cell, blanks included, \
         is its own whitespace-separated token",
    );
}

#[test]
fn bad_csv2_inputs() {
    assert_bad(
        "odd.csv",
        format!("puzzle\r\n{}\r\n", "0".repeat(161)).as_bytes(),
        &["check"],
        "odd.csv:2:161: odd number of digits (161); csv2 needs exactly two digits per cell",
    );
    assert_bad(
        "big.csv",
        format!("puzzle\n12{}\n", "0".repeat(160)).as_bytes(),
        &["check"],
        "big.csv:2:1: value 12 is larger than 9 in a 9×9 grid (cell r1c1)",
    );
    assert_bad(
        "header.csv",
        format!("{}\n", "0".repeat(162)).as_bytes(),
        &["check", "--from", "csv2"],
        "header.csv:1:1: expected a CSV header line naming a `puzzle` (or `quizzes`) column",
    );
}

#[test]
fn bad_files() {
    assert_bad(
        "empty.txt",
        b"",
        &["check"],
        "empty.txt:1:1: empty input; expected at least one puzzle",
    );
    assert_bad(
        "comments.txt",
        b"# only\n% comments\n\n",
        &["convert"],
        "comments.txt:4:1: end of input: no puzzle found, only comment and blank lines",
    );
    assert_bad(
        "binary.txt",
        b"\x89PNG\r\n\x1a\n",
        &["check"],
        "binary.txt:1:1: byte 0x89 is not UTF-8 text: a binary file? expected puzzle text",
    );
    assert_bad(
        "nul.txt",
        b"..3.\0...\n",
        &["check"],
        "nul.txt:1:5: NUL byte: a binary file? expected puzzle text",
    );
    let out = run(&["check", "tests/fixtures/no-such-file.txt"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).starts_with("sudosat: error: tests/fixtures/no-such-file.txt: cannot open: ")
    );
}

#[test]
fn a_100_megabyte_line_is_refused_without_reading_it_all() {
    let dir = temp_dir();
    let path = dir.path().join("huge.txt");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let chunk = vec![b'1'; 1 << 20];
        for _ in 0..100 {
            f.write_all(&chunk).unwrap();
        }
    }
    let out = run_in(dir.path(), &["convert", "huge.txt", "-o", "out.txt"], b"");
    assert_exit(&out, 2);
    assert_eq!(
        stderr(&out),
        "sudosat: error: huge.txt:1:1048577: line longer than 1048576 bytes; the largest \
         supported grid (400×400, 160000 cells) never needs such a line\n"
    );
    assert!(!dir.path().join("out.txt").exists());
    // a long line within the limit is a clear size error, not an allocation spree
    assert_bad(
        "long.txt",
        "1".repeat(200_000).as_bytes(),
        &["check"],
        "long.txt:1:160001: line has more than 160000 cells, the largest supported grid (400×400)",
    );
}

#[test]
fn csv2_cannot_hold_100_by_100_and_nothing_is_written() {
    let dir = temp_dir();
    let row = vec!["0"; 100].join(" ") + "\n";
    std::fs::write(dir.path().join("hundred.txt"), row.repeat(100)).unwrap();
    let out = run_in(
        dir.path(),
        &["convert", "hundred.txt", "--to", "csv2", "-o", "out.csv"],
        b"",
    );
    assert_exit(&out, 2);
    assert_eq!(
        stderr(&out),
        "sudosat: error: hundred.txt:1: this 100×100 puzzle does not fit the csv2 format, which \
         holds grids up to 81×81; use --to grid or --to block\n"
    );
    assert!(!dir.path().join("out.csv").exists());
    let out = run_in(dir.path(), &["convert", "hundred.txt", "--to", "line"], b"");
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("does not fit the line format, which holds grids up to 25×25"));
    let out = run_in(
        dir.path(),
        &["convert", "hundred.txt", "--to", "block"],
        b"",
    );
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).lines().count(), 100 + 9);
}

#[test]
fn pretty_output_reads_back() {
    for name in ["sudoku-16-1.txt", "sudoku-25-1.txt", "thesis-4x4.txt"] {
        let pretty = run(&[
            "convert",
            "--to",
            "pretty",
            &format!("tests/fixtures/{name}"),
        ]);
        assert_exit(&pretty, 0);
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let back = run_in(root, &["convert", "-", "--to", "grid"], &pretty.stdout);
        assert_exit(&back, 0);
        assert_text_eq(
            &stdout(&back),
            &std::fs::read_to_string(fixture(name)).unwrap(),
        );
    }
}

#[test]
fn every_known_solution_is_a_valid_full_grid() {
    for path in puzzle_fixtures() {
        let sol = solution_of(&path);
        let out = run(&["check", sol.to_str().unwrap()]);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let grids = text.lines().count() - 1;
        assert_eq!(
            text.matches(" full grid, a valid solution\n").count(),
            grids,
            "{text}"
        );
    }
}

/// `--from` names the input format and `--to` the output format in every command that reads
/// or writes puzzles; `--format`, once either of them depending on the command, is refused
/// with a message that names both.
#[test]
fn from_and_to_in_every_command() {
    let grid_file = "tests/fixtures/thesis-4x4.txt";
    let solved = read_puzzles_from_path(&fixture("thesis-4x4.txt"), Some(Format::Grid)).unwrap();
    assert_eq!(solved.len(), 1);
    let out = run(&["solve", "--from", "grid", "--to", "grid", grid_file]);
    assert_exit(&out, 0);
    let got = reread(&stdout(&out), Format::Grid);
    assert_eq!(got.len(), 1);
    assert!(sudosat::grid::check_solution(&solved[0], &got[0]).is_valid());
    let out = run(&["explain", "--from", "grid", "--to", "grid", grid_file]);
    assert_exit(&out, 0);
    // a 4x4 grid read as `line` is an error, so --from is really read
    let out = run(&["solve", "--from", "line", grid_file]);
    assert_exit(&out, 2);
    let out = run(&["encode", "--from", "grid", grid_file]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("p cnf"), "{}", stdout(&out));
    let out = run(&["encode", "--from", "line", grid_file]);
    assert_exit(&out, 2);
    let out = run(&["sizes", "--from", "grid", grid_file]);
    assert_exit(&out, 0);
    let out = run(&[
        "generate", "--size", "2", "--count", "1", "--seed", "3", "--to", "grid",
    ]);
    assert_exit(&out, 0);
    assert_eq!(reread(&stdout(&out), Format::Grid).len(), 1);
    for command in ["solve", "explain", "encode", "sizes", "decode", "generate"] {
        for flag in [&["--format", "grid"][..], &["--format=grid"]] {
            let mut args = vec![command];
            if command != "generate" {
                args.push(grid_file);
            }
            args.extend_from_slice(flag);
            let out = run(&args);
            assert_exit(&out, 2);
            let err = stderr(&out);
            assert!(
                err.starts_with("sudosat: error: --format")
                    && err.contains("--from FORMAT")
                    && err.contains("--to FORMAT")
                    && err.lines().count() == 1,
                "{command} {flag:?}: {err}"
            );
        }
    }
}
