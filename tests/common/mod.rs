//! Shared helpers for the integration tests: run the real binary, find fixtures, decide
//! whether tests needing an external solver run or skip.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudosat::grid::{check_solution, read_puzzles, read_puzzles_from_path, Cell, Digit, Source};
use sudosat::{ClauseSink, Cnf, Grid, Lit};

/// Path of a file in `tests/fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// A fixture's path as a string argument.
pub fn path(name: &str) -> String {
    fixture(name).to_str().unwrap().to_string()
}

/// Every puzzle of a fixture file.
pub fn read_fixture(name: &str) -> Vec<Grid> {
    read_puzzles_from_path(&fixture(name), None).expect("fixture parses")
}

/// The shipped minimal puzzle (`minimal-1-line.txt`, 22 givens, none of which can go)
/// with its first `blanked` givens taken away: several solutions.
pub fn loose_minimal(blanked: usize) -> Grid {
    let mut loose = read_fixture("minimal-1-line.txt").remove(0);
    let givens: Vec<Cell> = loose.givens().map(|(c, _)| c).take(blanked).collect();
    for cell in givens {
        loose.set(cell, None);
    }
    loose
}

/// Inkala's puzzle with a wrong digit typed into an empty cell (the first digit that
/// clashes with no given and is not the solution's): no solution. The grid, that cell and
/// that digit.
pub fn inkala_with_a_typo() -> (Grid, Cell, Digit) {
    let inkala = read_fixture("inkala-line.txt").remove(0);
    let solution = read_fixture("solutions/inkala-line.txt").remove(0);
    let (cell, digit) = (0..81)
        .map(Cell)
        .filter(|&c| inkala.get(c).is_none())
        .flat_map(|c| {
            inkala
                .candidates(c)
                .iter()
                .map(move |d| (c, d))
                .collect::<Vec<_>>()
        })
        .find(|&(c, d)| solution.get(c) != Some(d))
        .expect("Inkala's puzzle has room for a typo");
    let mut wrong = inkala;
    wrong.set(cell, Some(digit));
    (wrong, cell, digit)
}

/// The puzzle files at the top of `tests/fixtures/` that have known solutions in
/// `solutions/` (by name, sorted).
pub fn solved_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture("solutions"))
        .expect("solutions folder")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| fixture(name).is_file())
        .collect();
    names.sort();
    assert!(names.len() >= 17, "fixtures missing: {names:?}");
    names
}

/// `count` 9×9 puzzles made from the fixtures' known solutions (minimal, expert, thesis,
/// rank 3) in turn, puzzle `i` with `blanks.start + i % blanks.len()` cells blanked at
/// positions drawn from `seed`: they keep at least one solution, often several.
pub fn derived_puzzles(count: usize, seed: u64, blanks: std::ops::Range<usize>) -> Vec<Grid> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut solutions = Vec::new();
    for file in [
        "minimal-40.txt",
        "expert-20.txt",
        "thesis-9x9.txt",
        "rank3-20.csv",
    ] {
        solutions.extend(read_fixture(&format!("solutions/{file}")));
    }
    (0..count)
        .map(|i| {
            let mut puzzle = solutions[i % solutions.len()].clone();
            let mut cells: Vec<u32> = (0..81).collect();
            cells.shuffle(&mut rng);
            for &c in &cells[..blanks.start + i % blanks.len()] {
                puzzle.set(Cell(c), None);
            }
            puzzle
        })
        .collect()
}

/// Grids printed by the binary.
pub fn parse_output(text: &str) -> Vec<Grid> {
    read_puzzles(text.as_bytes(), &Source::Stdin, None).expect("output parses")
}

/// Solves a fixture file with extra flags, checks every solution against its puzzle and the
/// known solutions, and returns stdout.
pub fn solve_and_check(file: &str, flags: &[&str]) -> String {
    let puzzles = read_fixture(file);
    let known = read_fixture(&format!("solutions/{file}"));
    let p = path(file);
    let mut args = vec!["solve", p.as_str()];
    args.extend_from_slice(flags);
    let out = run(&args);
    assert_exit(&out, 0);
    let got = parse_output(&stdout(&out));
    assert_eq!(got.len(), puzzles.len(), "{file} {flags:?}");
    for ((puzzle, grid), known) in puzzles.iter().zip(&got).zip(&known) {
        assert!(check_solution(puzzle, grid).is_valid(), "{file} {flags:?}");
        assert_eq!(grid, known, "{file} {flags:?}");
    }
    stdout(&out)
}

/// The real `sudosat` binary.
pub fn sudosat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudosat"))
}

/// Runs `sudosat ARGS` in `dir` with `stdin` fed in, and returns its output.
pub fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = sudosat()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sudosat binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin)
        .ok();
    child.wait_with_output().expect("sudosat runs")
}

/// Runs `sudosat ARGS` in the crate directory with empty stdin.
pub fn run(args: &[&str]) -> Output {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, b"")
}

/// Stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the exit code, printing both streams when it differs.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "expected exit {code}, got {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

/// Asserts `text` equals `expected`, printing a line diff when not.
pub fn assert_text_eq(got: &str, expected: &str) {
    if got != expected {
        let mut diff = String::new();
        for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
            if g != e {
                diff.push_str(&format!(
                    "line {}:\n  expected: {e}\n  got:      {g}\n",
                    i + 1
                ));
            }
        }
        panic!(
            "output differs ({} vs {} lines)\n{diff}--- got ---\n{got}",
            got.lines().count(),
            expected.lines().count()
        );
    }
}

/// Whether an external solver binary is on PATH. When it is not: panics if
/// `SUDOSAT_REQUIRE_EXTERNAL=1` (CI), else prints why the test is skipped and returns false.
pub fn external_available(binary: &str) -> bool {
    let found = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(binary).is_file()))
        .unwrap_or(false);
    if found {
        return true;
    }
    if std::env::var("SUDOSAT_REQUIRE_EXTERNAL").as_deref() == Ok("1") {
        panic!("`{binary}` is not on PATH but SUDOSAT_REQUIRE_EXTERNAL=1 requires it");
    }
    eprintln!("skipped: `{binary}` is not on PATH (install it, e.g. apt-get install {binary})");
    false
}

/// A fresh temporary directory for one test.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Writes an executable shell script `dir/name` (a stand-in solver or checker).
#[cfg(unix)]
pub fn write_script(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A stand-in solver (unix shell script `dir/name`) that answers the 3-variable formula
/// `compare` tries every entry on before its first run
/// ([`sudosat::compare::PREFLIGHT_CLAUSES`], `p cnf 3 3`) as a solver would, and runs
/// `body` on any other input, whose path is in `$f`: a solver that misbehaves only on
/// real work.
#[cfg(unix)]
pub fn stand_in_solver(dir: &Path, name: &str, body: &str) -> PathBuf {
    write_script(
        dir,
        name,
        &format!(
            "#!/bin/sh\nfor f; do :; done\n\
             if grep -q '^p cnf 3 3$' -- \"$f\" 2>/dev/null; then\n\
             echo 's SATISFIABLE'; echo 'v 1 2 -3 0'; exit 10\nfi\n{body}\n"
        ),
    )
}

/// The DRAT checker: `$SUDOSAT_DRAT_TRIM` or `drat-trim` on PATH. When neither: panics if
/// `SUDOSAT_REQUIRE_EXTERNAL=1` (CI), else prints why the test is skipped and returns `None`.
pub fn drat_trim() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SUDOSAT_DRAT_TRIM") {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Some(path);
        }
        panic!("SUDOSAT_DRAT_TRIM={} is not a file", path.display());
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("drat-trim"))
            .find(|p| p.is_file())
    });
    if found.is_some() {
        return found;
    }
    if std::env::var("SUDOSAT_REQUIRE_EXTERNAL").as_deref() == Ok("1") {
        panic!("drat-trim is not on PATH nor in SUDOSAT_DRAT_TRIM but SUDOSAT_REQUIRE_EXTERNAL=1 requires it");
    }
    eprintln!(
        "skipped: drat-trim is not on PATH nor in SUDOSAT_DRAT_TRIM (build it: cc -O2 -o \
         drat-trim ../shared/tools/drat-trim/drat-trim.c)"
    );
    None
}

/// Whether `drat_trim` verifies `proof` against `cnf` (its `s VERIFIED` line).
pub fn drat_verifies(drat_trim: &Path, cnf: &Path, proof: &Path) -> bool {
    let out = Command::new(drat_trim)
        .arg(cnf)
        .arg(proof)
        .output()
        .expect("drat-trim runs");
    let text = String::from_utf8_lossy(&out.stdout);
    text.split(['\n', '\r'])
        .map(str::trim)
        .any(|line| line == "s VERIFIED")
}

/// DIMACS integers as literals.
pub fn lits(clause: &[i64]) -> Vec<Lit> {
    clause.iter().map(|&n| Lit::from_dimacs(n)).collect()
}

/// A formula from DIMACS clauses.
pub fn cnf_of(clauses: &[&[i64]]) -> Cnf {
    let mut cnf = Cnf::new();
    for c in clauses {
        cnf.add_clause(&lits(c));
    }
    cnf
}

/// `cnf` as DIMACS text: the header, then one line per clause.
pub fn dimacs_text(cnf: &Cnf) -> String {
    let mut text = format!("p cnf {} {}\n", cnf.num_vars(), cnf.num_clauses());
    for clause in cnf.clauses() {
        for lit in clause {
            text.push_str(&format!("{} ", lit.to_dimacs()));
        }
        text.push_str("0\n");
    }
    text
}

/// Pigeonhole: `pigeons` pigeons into `holes` holes, variable p·holes + h + 1.
pub fn pigeonhole(pigeons: usize, holes: usize) -> Cnf {
    let var = |p: usize, h: usize| (p * holes + h + 1) as i64;
    let mut cnf = Cnf::new();
    for p in 0..pigeons {
        cnf.add_clause(&lits(&(0..holes).map(|h| var(p, h)).collect::<Vec<_>>()));
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                cnf.add_clause(&lits(&[-var(p, h), -var(q, h)]));
            }
        }
    }
    cnf
}

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files of a folder of the repository (not its subfolders), in name order.
pub fn markdown_files(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo_root().join(folder))
        .unwrap_or_else(|error| panic!("{folder}: {error}"))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.sort();
    files
}

/// The guide's files (`docs/*.md`) in name order.
pub fn guide_files() -> Vec<PathBuf> {
    markdown_files("docs")
}

/// The SAT path with cdcl under `propagate`.
pub fn cdcl_propagating(
    encoding: sudosat::encode::SudokuEncoding,
    propagate: sudosat::backend::Propagate,
) -> sudosat::solve::sat::SatSolver {
    sudosat::solve::sat::SatSolver::new(
        encoding,
        sudosat::backend::BackendSpec::new(sudosat::backend::BackendKind::Cdcl)
            .with_propagate(propagate),
    )
}

/// A counter of the backend's last solve, 0 when it has none.
pub fn backend_counter(solver: &sudosat::solve::sat::SatSolver, name: &str) -> u64 {
    solver.stats().backend.get(name).unwrap_or(0)
}

/// Puzzles for native propagation: 9×9 ones with one, several and no solutions, 4×4 and
/// 16×16 ones, and two 4×4 corner cases.
pub fn propagation_puzzles() -> Vec<Grid> {
    let mut puzzles = derived_puzzles(60, 5, 45..72);
    for file in [
        "expert-20.txt",
        "thesis-4x4.txt",
        "sudoku-16-1.txt",
        "rank4-2.csv",
    ] {
        puzzles.extend(read_puzzles_from_path(&fixture(file), None).unwrap());
    }
    // r1c3 has no candidate left, though no two givens clash.
    puzzles.push("12.....4..3.....".parse().unwrap());
    // r1c1 and r1c2 both keep only the digit 1 (2 is in their columns): two cells, one
    // digit.
    puzzles.push("..34.2..2.......".parse().unwrap());
    puzzles
}
