//! `sudosat transform`: rotations, mirrors, transposition and relabelling move every given
//! where the geometry says; random isomorphs keep the solution count and solve to valid
//! grids; the same seed gives the same copies; bad requests are errors naming the puzzle.

mod common;

use common::{assert_exit, parse_output, path, read_fixture, run, run_in, stderr, stdout};
use sudosat::grid::{check_solution, Cell, Grid};

/// The grids `sudosat transform ARGS` writes for the puzzles piped in (exit 0 checked).
fn transform(puzzles: &str, args: &[&str]) -> Vec<Grid> {
    let mut all = vec!["transform"];
    all.extend_from_slice(args);
    let out = run_in(std::path::Path::new("."), &all, puzzles.as_bytes());
    assert_exit(&out, 0);
    parse_output(&stdout(&out))
}

fn line(grid: &Grid) -> String {
    grid.to_line().unwrap()
}

#[test]
fn rotations_mirrors_and_transposition_move_the_givens() {
    let puzzle = &read_fixture("inkala-line.txt")[0];
    let text = format!("{}\n", line(puzzle));
    let n = puzzle.side();
    let at = |g: &Grid, r: usize, c: usize| g.values()[r * n + c];
    let one = |args: &[&str]| transform(&text, args).remove(0);
    let (quarter, mirrored, transposed) = (
        one(&["--rotate", "90"]),
        one(&["--mirror", "columns"]),
        one(&["--transpose"]),
    );
    for r in 0..n {
        for c in 0..n {
            assert_eq!(at(&quarter, r, c), at(puzzle, n - 1 - c, r));
            assert_eq!(at(&mirrored, r, c), at(puzzle, r, n - 1 - c));
            assert_eq!(at(&transposed, r, c), at(puzzle, c, r));
        }
    }
    // A quarter turn and three more give the puzzle back.
    let back = transform(&format!("{}\n", line(&quarter)), &["--rotate", "270"]);
    assert_eq!(&back[0], puzzle);
    // Relabelling 1↔9, 2↔8, …: every given d becomes 10 − d.
    let relabelled = one(&["--relabel", "987654321"]);
    for (a, b) in puzzle.values().iter().zip(relabelled.values()) {
        assert_eq!(*b, if *a == 0 { 0 } else { 10 - a });
    }
    // Numbers for larger grids: 16×16 with 1 and 2 swapped.
    let big = &read_fixture("sudoku-16-1-line.txt")[0];
    let mut order: Vec<String> = (1..=16).map(|d| d.to_string()).collect();
    order.swap(0, 1);
    let swapped = transform(
        &format!("{}\n", line(big)),
        &["--relabel", &order.join(",")],
    );
    for (a, b) in big.values().iter().zip(swapped[0].values()) {
        let expected = match a {
            1 => 2,
            2 => 1,
            d => *d,
        };
        assert_eq!(*b, expected);
    }
}

#[test]
fn random_isomorphs_keep_uniqueness_and_solve_to_valid_grids() {
    let puzzles = read_fixture("expert-20.txt");
    let text: String = puzzles[..4].iter().map(|p| line(p) + "\n").collect();
    let copies = transform(&text, &["--random", "3", "--keep-original", "--seed", "7"]);
    assert_eq!(copies.len(), 4 * 4);
    for (i, puzzle) in puzzles[..4].iter().enumerate() {
        assert_eq!(&copies[4 * i], puzzle, "the original first");
        for copy in &copies[4 * i + 1..4 * i + 4] {
            assert_ne!(copy, puzzle);
            assert_eq!(copy.num_givens(), puzzle.num_givens());
        }
    }
    // Every copy is unique, as its puzzle is, and its solution keeps its givens.
    let dir = common::temp_dir();
    let file = dir.path().join("copies.txt");
    std::fs::write(
        &file,
        copies.iter().map(|g| line(g) + "\n").collect::<String>(),
    )
    .unwrap();
    let out = run(&["count", file.to_str().unwrap()]);
    assert_exit(&out, 0);
    assert_eq!(
        stdout(&out).matches("unique").count(),
        16,
        "{}",
        stdout(&out)
    );
    let out = run(&["solve", file.to_str().unwrap()]);
    assert_exit(&out, 0);
    let solutions = parse_output(&stdout(&out));
    for (copy, solution) in copies.iter().zip(&solutions) {
        assert!(check_solution(copy, solution).is_valid());
    }
    // The same seed, the same copies; another seed, others.
    assert_eq!(
        transform(&text, &["--random", "3", "--seed", "7"]),
        copies
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 != 0)
            .map(|(_, g)| g.clone())
            .collect::<Vec<_>>()
    );
    assert_ne!(
        transform(&text, &["--random", "3", "--seed", "8"]),
        transform(&text, &["--random", "3", "--seed", "7"])
    );
}

#[test]
fn bad_requests_are_errors_naming_the_puzzle() {
    let inkala = path("inkala-line.txt");
    for (args, message) in [
        (vec!["transform", &inkala], "nothing to do"),
        (
            vec!["transform", &inkala, "--relabel", "123"],
            "inkala-line.txt:1: --relabel: 123 is not a permutation of 1…9",
        ),
        (
            vec!["transform", &inkala, "--relabel", "9.7654321"],
            "expected digits",
        ),
        (vec!["transform", &inkala, "--rotate", "45"], "45"),
    ] {
        let out = run(&args);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn canonical_forms_are_shared_by_isomorphs_and_tell_puzzles_apart() {
    let puzzles = read_fixture("expert-20.txt");
    let text: String = puzzles[..5].iter().map(|p| line(p) + "\n").collect();
    let copies = transform(&text, &["--random", "4", "--keep-original", "--seed", "3"]);
    let copies_text: String = copies.iter().map(|g| line(g) + "\n").collect();
    let forms = transform(&copies_text, &["--canonical"]);
    assert_eq!(forms.len(), 25);
    for (i, group) in forms.chunks(5).enumerate() {
        assert!(
            group.iter().all(|f| f == &group[0]),
            "puzzle {i}: {group:?}"
        );
        assert_eq!(group[0].num_givens(), puzzles[i].num_givens());
    }
    let distinct: std::collections::HashSet<_> = forms.iter().collect();
    assert_eq!(distinct.len(), 5, "five puzzles, five forms");
    // A form is its own form, and it begins with the blanks of the sparsest rows.
    let again = transform(
        &forms.iter().map(|g| line(g) + "\n").collect::<String>(),
        &["--canonical"],
    );
    assert_eq!(again, forms);
    assert_eq!(forms[0].values()[0], 0);
    // 16×16 is past the search.
    let out = run(&["transform", &path("sudoku-16-1-line.txt"), "--canonical"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("sudoku-16-1-line.txt:1: --canonical takes 4×4 and 9×9"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_finds_duplicates_as_given_and_up_to_symmetry() {
    let inkala = read_fixture("inkala-line.txt").remove(0);
    let other = read_fixture("minimal-1-line.txt").remove(0);
    let turned = transform(&(line(&inkala) + "\n"), &["--rotate", "90"]).remove(0);
    let dir = common::temp_dir();
    let file = dir.path().join("set.txt");
    let text: String = [&inkala, &other, &turned, &other]
        .iter()
        .map(|g| line(g) + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let out = run(&["check", "--duplicates", f]);
    assert_exit(&out, 1);
    let text = stdout(&out);
    let dups: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("duplicate of"))
        .collect();
    assert_eq!(
        dups,
        [
            format!("{f}:3: duplicate of {f}:1 (the same up to symmetry)"),
            format!("{f}:4: duplicate of {f}:2 (identical)"),
        ]
    );
    assert!(
        text.ends_with("checked 4 grids: 4 valid, 0 invalid, 2 duplicates\n"),
        "{text}"
    );
    // As JSON: the duplicate names its first occurrence and how it repeats it.
    let out = run(&["check", "--duplicates", "--json", f]);
    assert_exit(&out, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let first = &json["grids"][2]["duplicate_of"];
    assert_eq!(
        (first["line"].as_u64(), first["identical"].as_bool()),
        (Some(1), Some(false))
    );
    assert_eq!(json["grids"][3]["duplicate_of"]["identical"], true);
    assert!(json["grids"][0].get("duplicate_of").is_none());
    assert_eq!(json["summary"]["duplicates"], 2);
    // Without the flag the same file is four valid grids.
    assert_exit(&run(&["check", f]), 0);
}

#[test]
fn check_minimal_names_the_givens_that_can_go() {
    // Inkala's puzzle is minimal; with two digits of its solution added it is not, and
    // exactly those two can go; blanking a given of another minimal puzzle loses uniqueness.
    let inkala = read_fixture("inkala-line.txt").remove(0);
    let solution = read_fixture("solutions/inkala-line.txt").remove(0);
    let mut padded = inkala.clone();
    let open: Vec<usize> = (0..81)
        .filter(|&i| inkala.values()[i] == 0)
        .take(2)
        .collect();
    for &i in &open {
        padded.set(Cell(i as u32), solution.get(Cell(i as u32)));
    }
    let loose = common::loose_minimal(1);
    let dir = common::temp_dir();
    let file = dir.path().join("set.txt");
    let text: String = [&inkala, &padded, &loose]
        .iter()
        .map(|g| line(g) + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let out = run(&["check", "--minimal", f]);
    assert_exit(&out, 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!("{f}:1: ok: 9×9 puzzle, 21 givens, unique and minimal")
    );
    let label = |i: usize| format!("r{}c{}", i / 9 + 1, i % 9 + 1);
    // The two added digits can go; no given of the original can, since it is minimal.
    assert!(
        lines[1].starts_with(&format!(
            "{f}:2: not minimal: 9×9 puzzle, 23 givens, unique; 2 givens can each go"
        )) && lines[1].ends_with(&format!(": {}, {}", label(open[0]), label(open[1]))),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        format!("{f}:3: not unique: 9×9 puzzle, 21 givens; 2 or more solutions")
    );
    assert_eq!(
        lines[3],
        "checked 3 grids: 3 valid, 0 invalid, 2 not proper and minimal"
    );
    // As JSON: the verdicts and the givens that can go.
    let out = run(&["check", "--minimal", "--json", f]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let grids = &json["grids"];
    let cell = |i: usize| serde_json::json!({"row": i / 9 + 1, "column": i % 9 + 1});
    assert_eq!(
        (
            &grids[0]["proper"],
            &grids[1]["proper"],
            &grids[2]["proper"]
        ),
        (&"unique".into(), &"unique".into(), &"several".into())
    );
    assert_eq!(grids[0]["redundant"], serde_json::json!([]));
    assert_eq!(
        grids[1]["redundant"],
        serde_json::json!([cell(open[0]), cell(open[1])])
    );
    assert_eq!(json["summary"]["not_proper"], 2);
    // Only the proper minimal puzzle passes.
    std::fs::write(&file, line(&inkala) + "\n").unwrap();
    assert_exit(&run(&["check", "--minimal", f]), 0);
}

#[test]
fn check_diagnose_says_why_a_puzzle_is_not_proper_and_how_to_fix_it() {
    // Inkala's puzzle (unique); the same with a wrong digit in an empty cell that clashes
    // with no given (no solution); a minimal puzzle with one given blanked (several).
    let inkala = read_fixture("inkala-line.txt").remove(0);
    let label = |c: Cell| format!("r{}c{}", c.0 / 9 + 1, c.0 % 9 + 1);
    let (wrong, cell, digit) = common::inkala_with_a_typo();
    let wrong_given = format!("{}={digit}", label(cell));
    let loose = common::loose_minimal(1);
    let dir = common::temp_dir();
    let file = dir.path().join("set.txt");
    let text: String = [&inkala, &wrong, &loose]
        .iter()
        .map(|g| line(g) + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    let out = run(&["check", "--diagnose", f]);
    assert_exit(&out, 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    assert_eq!(
        lines[0],
        format!("{f}:1: ok: 9×9 puzzle, 21 givens, unique")
    );
    assert_eq!(
        lines[1],
        format!("{f}:2: no solution: 9×9 puzzle, 22 givens")
    );
    // The wrong given is in the minimal set, and its removal leaves one solution.
    assert!(lines[2].starts_with("  ") && lines[2].contains(" givens alone admit no solution"));
    assert!(lines[2].contains(&wrong_given), "{}", lines[2]);
    assert!(
        lines[3].contains(" go to leave a puzzle with exactly one solution: ")
            && lines[3].contains(&wrong_given),
        "{}",
        lines[3]
    );
    assert_eq!(
        lines[5],
        format!("{f}:3: not unique: 9×9 puzzle, 21 givens; 2 or more solutions")
    );
    assert!(
        lines[6].contains(" differ between solutions: "),
        "{}",
        lines[6]
    );
    // The same report as JSON for programs.
    let out = run(&["check", "--diagnose", "--json", f]);
    assert_exit(&out, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let grids = json["grids"].as_array().unwrap();
    assert_eq!(grids[0]["diagnosis"]["verdict"], "unique");
    assert_eq!(grids[1]["diagnosis"]["verdict"], "no solution");
    assert_eq!(grids[1]["diagnosis"]["finished"], true);
    let typo = serde_json::json!({
        "row": cell.0 / 9 + 1,
        "column": cell.0 % 9 + 1,
        "digit": digit.get(),
    });
    assert!(grids[1]["diagnosis"]["prime_suspects"]
        .as_array()
        .unwrap()
        .contains(&typo));
    assert_eq!(grids[2]["diagnosis"]["verdict"], "several");
    let added = grids[2]["diagnosis"]["completion"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        lines[7].starts_with(&format!("  adding {added} givens ")),
        "{}",
        lines[7]
    );
    assert_eq!(
        json["summary"],
        serde_json::json!({"checked": 3, "valid": 3, "invalid": 0, "not_proper": 2})
    );
    // The givens it proposes make the puzzle unique: checked by the same command.
    let (_, proposed) = lines[7].split_once(" the only one: ").unwrap();
    let mut fixed = loose.clone();
    for given in proposed.split(", ") {
        let (place, d) = given.split_once('=').unwrap();
        let (r, c) = place[1..].split_once('c').unwrap();
        let (r, c): (u32, u32) = (r.parse().unwrap(), c.parse().unwrap());
        let d: u16 = d.parse().unwrap();
        fixed.set(Cell((r - 1) * 9 + c - 1), Some(sudosat::grid::Digit(d)));
    }
    std::fs::write(&file, line(&fixed) + "\n").unwrap();
    let out = run(&["check", "--diagnose", f]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains(", unique\n"), "{}", stdout(&out));
    assert_eq!(
        text.lines().last().unwrap(),
        "checked 3 grids: 3 valid, 0 invalid, 2 not proper"
    );
    // The time limit belongs to the diagnosis.
    assert_exit(&run(&["check", "--timeout", "5", f]), 2);
    // A budget that holds the puzzles' reduced encodings but not the empty grid's, which
    // naming the givens at fault of the puzzle without solution needs (about 720 KiB).
    std::fs::write(&file, line(&wrong) + "\n").unwrap();
    let out = run(&["check", "--diagnose", "--max-memory", "300K", f]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(&format!(
            "{f}:1: no solution; naming the givens at fault asks about the empty 9×9 grid's \
             extended encoding (11988 clauses)"
        )) && stderr(&out).contains("over the memory budget of 300 KiB"),
        "{}",
        stderr(&out)
    );
    assert_exit(&run(&["check", "--diagnose", "--max-memory", "1M", f]), 1);
    assert_exit(&run(&["check", "--max-memory", "1M", f]), 2);
}

#[test]
fn check_minimal_names_the_pattern_symmetries() {
    // A generated rot90 puzzle keeps rot90 and so rot180; its single clues may go.
    let out = run_in(
        std::path::Path::new("."),
        &["generate", "--symmetry", "rot90", "--seed", "4", "-q"],
        b"",
    );
    assert_exit(&out, 0);
    let puzzle = stdout(&out);
    let out = run_in(
        std::path::Path::new("."),
        &["check", "--minimal", "-"],
        puzzle.as_bytes(),
    );
    let text = stdout(&out);
    assert!(text.contains(", symmetric: rot180, rot90"), "{text}");
    // Inkala's puzzle has no symmetric pattern: nothing is said.
    let out = run(&["check", "--minimal", &path("inkala-line.txt")]);
    assert!(!stdout(&out).contains("symmetric"), "{}", stdout(&out));
}

#[test]
fn check_diagnose_keeps_the_core_propagation_finds_on_wide_grids() {
    // 64×64: the pattern grid `(8·(r mod 8) + ⌊r/8⌋ + c) mod 64`, a quarter of its cells
    // emptied, the first empty one given a digit its peers allow but the grid does not.
    let (b, n) = (8, 64);
    let solution: Vec<u16> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((b * (r % b) + r / b + c) % n + 1) as u16
        })
        .collect();
    let values: Vec<u16> = (0..n * n)
        .map(|i| {
            if (i / n * 31 + i % n * 17) % 4 == 0 {
                0
            } else {
                solution[i]
            }
        })
        .collect();
    let mut puzzle = Grid::from_values(values).unwrap();
    let cell = Cell(puzzle.values().iter().position(|&v| v == 0).unwrap() as u32);
    let digit = puzzle
        .candidates(cell)
        .iter()
        .find(|d| d.get() as u16 != solution[cell.0 as usize])
        .unwrap();
    puzzle.set(cell, Some(digit));
    let dir = common::temp_dir();
    let file = dir.path().join("wide.txt");
    let mut text = Vec::new();
    sudosat::grid::write_grid(&mut text, &puzzle, sudosat::grid::Format::Grid).unwrap();
    std::fs::write(&file, text).unwrap();
    let out = run(&["check", "--diagnose", file.to_str().unwrap()]);
    assert_exit(&out, 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with(": no solution: 64×64 puzzle, 3073 givens"),
        "{text}"
    );
    // Not shown minimal by SAT on a grid this wide, and said so.
    assert!(
        lines[1].contains(concat!(
            " givens alone admit no solution (without any one of them, singles and probing ",
            "find none; on grids this wide not checked further): "
        )),
        "{text}"
    );
    let wrong = format!("r{}c{}={}", cell.0 / 64 + 1, cell.0 % 64 + 1, digit.get());
    assert!(
        lines[1].contains(&wrong) || lines[1].contains("… and"),
        "{text}"
    );
    assert!(text.contains(&wrong), "the wrong digit is named: {text}");
}
