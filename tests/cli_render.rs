//! `sudosat render`: the digits drawn are the puzzle's givens and, with `--solve` or
//! `--solution`, a checked solution in their cells; pencil marks are the candidates; sets
//! of files are written whole; bad requests are errors naming the puzzle. A golden sheet
//! pins the drawing byte for byte.

mod common;

use common::{assert_exit, assert_text_eq, fixture, path, read_fixture, run, run_in, stderr};
use sudosat::grid::{check_solution, Cell, Digit, Grid};

/// Side of a drawn cell (`grid::svg`'s user units).
const CELL: f64 = 40.0;

/// The drawn texts of one class: (x, y, text), in the order drawn.
fn texts(svg: &str, class: &str) -> Vec<(f64, f64, String)> {
    let open = format!("<text class=\"{class}\" x=\"");
    svg.lines()
        .filter_map(|l| l.strip_prefix(&open))
        .map(|rest| {
            let (x, rest) = rest.split_once("\" y=\"").unwrap();
            let (y, rest) = rest.split_once('"').unwrap();
            let text = &rest[rest.find('>').unwrap() + 1..rest.rfind("</text>").unwrap()];
            (x.parse().unwrap(), y.parse().unwrap(), text.to_string())
        })
        .collect()
}

/// The grid a one-panel sheet shows in `classes`, read back from the texts' places.
fn drawn_grid(svg: &str, box_size: usize, classes: &[&str]) -> Grid {
    let mut grid = Grid::empty(box_size).unwrap();
    let n = grid.side();
    for class in classes {
        for (x, y, text) in texts(svg, class) {
            let (row, col) = ((y / CELL) as usize, (x / CELL) as usize);
            let digit = text
                .parse::<u16>()
                .ok()
                .map(Digit)
                .or_else(|| Digit::from_symbol(text.chars().next().unwrap()))
                .unwrap();
            assert!(
                grid.get(Cell((row * n + col) as u32)).is_none(),
                "drawn twice"
            );
            grid.set(Cell((row * n + col) as u32), Some(digit));
        }
    }
    grid
}

fn render(args: &[&str]) -> String {
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert_exit(&out, 0);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn solve_draws_a_checked_solution_over_the_givens() {
    for (file, b) in [("inkala-line.txt", 3), ("sudoku-16-1.txt", 4)] {
        let puzzle = &read_fixture(file)[0];
        let svg = render(&[&path(file), "--solve"]);
        assert_eq!(&drawn_grid(&svg, b, &["given"]), puzzle);
        let whole = drawn_grid(&svg, b, &["given", "filled"]);
        assert!(check_solution(puzzle, &whole).is_valid(), "{file}");
        assert_eq!(whole, read_fixture(&format!("solutions/{file}"))[0]);
        assert_eq!(
            texts(&svg, "filled").len(),
            b.pow(4) - puzzle.num_givens(),
            "{file}"
        );
        assert!(!svg.contains("several"), "{file}: unique");
    }
    // A puzzle with several solutions says its drawn solution is one of them.
    let loose = common::loose_minimal(1);
    let dir = common::temp_dir();
    std::fs::write(dir.path().join("p.txt"), loose.to_line().unwrap() + "\n").unwrap();
    for flag in ["--solve", "--answers"] {
        let out = run_in(dir.path(), &["render", flag, "p.txt"], b"");
        assert_exit(&out, 0);
        let svg = String::from_utf8(out.stdout).unwrap();
        assert!(
            svg.to_lowercase().contains("one of several solutions"),
            "{flag}"
        );
    }
    // Letters for 16×16 by default, numbers on request.
    let letters = render(&[&path("sudoku-16-1.txt"), "--solve"]);
    assert!(texts(&letters, "filled").iter().any(|t| t.2 == "G"));
    let numbers = render(&[&path("sudoku-16-1.txt"), "--solve", "--numbers"]);
    assert!(texts(&numbers, "filled").iter().any(|t| t.2 == "16"));
}

#[test]
fn a_partly_filled_grid_is_drawn_and_must_keep_the_givens() {
    let dir = common::temp_dir();
    let puzzle = &read_fixture("thesis-4x4.txt")[0];
    let mut progress = read_fixture("solutions/thesis-4x4.txt").remove(0);
    progress.set(Cell(15), None);
    progress.set(Cell(14), None);
    let file = dir.path().join("progress.txt");
    std::fs::write(&file, format!("{}\n", progress.to_line().unwrap())).unwrap();
    let svg = render(&[
        &path("thesis-4x4.txt"),
        "--solution",
        file.to_str().unwrap(),
        "--candidates",
    ]);
    assert_eq!(drawn_grid(&svg, 2, &["given", "filled"]), progress);
    assert_eq!(drawn_grid(&svg, 2, &["given"]), *puzzle);
    // The two open cells show the candidates the filled grid leaves them: one each.
    let marks = texts(&svg, "mark");
    let expected: Vec<String> = [14, 15]
        .iter()
        .map(|&i| progress.candidates(Cell(i)).iter().next().unwrap())
        .map(|d| d.to_string())
        .collect();
    assert_eq!(
        marks.iter().map(|m| m.2.clone()).collect::<Vec<_>>(),
        expected
    );

    // A grid that changes a given is refused, naming the cell and both places.
    let mut wrong = read_fixture("solutions/thesis-4x4.txt").remove(0);
    wrong.set(Cell(0), Some(Digit(4)));
    std::fs::write(&file, format!("{}\n", wrong.to_line().unwrap())).unwrap();
    let out = run(&[
        "render",
        &path("thesis-4x4.txt"),
        "--solution",
        file.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("progress.txt:1: r1c1 is 4 but the puzzle at") && err.contains("gives 1"),
        "{err}"
    );
    // One grid for two puzzles.
    let out = run(&[
        "render",
        &path("thesis-4x4.txt"),
        &path("thesis-4x4.txt"),
        "--solution",
        file.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("1 grid for 2 puzzles"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unsolvable_puzzle_is_drawn_as_it_is_with_exit_1() {
    let out = run(&["render", &path("corner/no-candidate-4x4.txt"), "--solve"]);
    assert_exit(&out, 1);
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(texts(&svg, "filled").is_empty());
    assert_eq!(
        drawn_grid(&svg, 2, &["given"]),
        read_fixture("corner/no-candidate-4x4.txt")[0]
    );
    assert!(svg.contains(">No solution</text>"), "{svg}");
}

#[test]
fn out_dir_writes_one_captioned_sheet_per_puzzle() {
    let dir = common::temp_dir();
    let out = run_in(
        dir.path(),
        &["render", &path("expert-20.txt"), "--out-dir", "sheets"],
        b"",
    );
    assert_exit(&out, 0);
    let puzzles = read_fixture("expert-20.txt");
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("sheets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), puzzles.len());
    for (i, (name, puzzle)) in names.iter().zip(&puzzles).enumerate() {
        assert_eq!(name, &format!("puzzle-{:04}.svg", i + 1));
        let svg = std::fs::read_to_string(dir.path().join("sheets").join(name)).unwrap();
        assert!(svg.contains(&format!(">Puzzle {}</text>", i + 1)));
        // Places are relative to the grid, which sits below the caption.
        assert_eq!(&drawn_grid(&svg, 3, &["given"]), puzzle);
    }
}

#[test]
fn bad_requests_are_errors_that_write_nothing() {
    let dir = common::temp_dir();
    let sheet = dir.path().join("sheet.svg");
    let big = dir.path().join("big.txt");
    let n = 49;
    let line: Vec<String> = vec!["0".to_string(); n];
    std::fs::write(&big, format!("{}\n", vec![line.join(" "); n].join("\n"))).unwrap();
    let out = run(&[
        "render",
        big.to_str().unwrap(),
        "--candidates",
        "-o",
        sheet.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains(
            "big.txt:1: --candidates draws pencil marks for grids up to 36×36, not 49×49"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!sheet.exists());
    // A parse error names the file, line and column.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "12345678\n").unwrap();
    let out = run(&[
        "render",
        bad.to_str().unwrap(),
        "-o",
        sheet.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("bad.txt:1:"), "{}", stderr(&out));
    assert!(!sheet.exists());
    // A --solution file with another count of grids, and --diagnose beyond 36×36.
    let two = dir.path().join("two.txt");
    let inkala = path("inkala-line.txt");
    let line = read_fixture("inkala-line.txt")[0].to_line().unwrap();
    std::fs::write(&two, format!("{line}\n{line}\n")).unwrap();
    let out = run(&["render", &inkala, "--solution", two.to_str().unwrap()]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("2 grids for 1 puzzle; expected one grid per puzzle"),
        "{}",
        stderr(&out)
    );
    let out = run(&["render", big.to_str().unwrap(), "--diagnose"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--diagnose draws pencil marks"),
        "{}",
        stderr(&out)
    );
}

/// `cnf/`-style golden file: the drawing itself, byte for byte. Regenerate with
/// `sudosat render tests/fixtures/thesis-4x4.txt tests/fixtures/thesis-4x4.txt --candidates
/// --caption location --title "Thesis 4×4" > tests/fixtures/render/thesis-4x4.svg` after a
/// deliberate change to the drawing, and look at it.
#[test]
fn the_golden_sheet_is_reproduced() {
    let dir = fixture("..").join("fixtures");
    let out = run_in(
        &dir,
        &[
            "render",
            "thesis-4x4.txt",
            "thesis-4x4.txt",
            "--candidates",
            "--caption",
            "location",
            "--title",
            "Thesis 4×4",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let golden = std::fs::read_to_string(fixture("render/thesis-4x4.svg")).unwrap();
    assert_text_eq(&String::from_utf8(out.stdout).unwrap(), &golden);
}

/// The (cell, digit) of the pencil marks of one class in a one-panel picture.
fn marks_of(svg: &str, n: usize, class: &str) -> Vec<(Cell, Digit)> {
    let mut marks: Vec<(Cell, Digit)> = texts(svg, class)
        .into_iter()
        .map(|(x, y, text)| {
            let (row, col) = ((y / CELL) as usize, (x / CELL) as usize);
            let digit = Digit::from_symbol(text.chars().next().unwrap()).unwrap();
            (Cell((row * n + col) as u32), digit)
        })
        .collect();
    marks.sort();
    marks
}

#[test]
fn explain_svg_draws_every_step_on_the_board_before_it() {
    use sudosat::solve::human::{solve_logged, Step};
    let dir = common::temp_dir();
    let out = run_in(
        dir.path(),
        &[
            "explain",
            &path("inkala-line.txt"),
            "--svg",
            "steps",
            "--summary-only",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let puzzle = &read_fixture("inkala-line.txt")[0];
    let run = solve_logged(puzzle);
    let files = std::fs::read_dir(dir.path().join("steps")).unwrap().count();
    assert_eq!(files, run.log.steps.len() + 1);
    let read = |name: &str| std::fs::read_to_string(dir.path().join("steps").join(name)).unwrap();
    let (mut removals, mut placements, mut guesses) = (0, 0, 0);
    for (k, step) in run.log.steps.iter().enumerate() {
        let svg = read(&format!("step-{:03}.svg", k + 1));
        assert!(svg.contains(&format!(">Step {} of {}: ", k + 1, run.log.steps.len())));
        // The givens stay bold and the board never contradicts the solution.
        assert_eq!(&drawn_grid(&svg, 3, &["given"]), puzzle);
        match step {
            Step::Deduction(d) => {
                let mut removed = d.removed.clone();
                removed.sort();
                assert_eq!(marks_of(&svg, 9, "removed"), removed, "step {}", k + 1);
                removals += removed.len();
                if let Some(placed) = d.placed {
                    assert!(marks_of(&svg, 9, "key").contains(&placed), "step {}", k + 1);
                    placements += 1;
                }
            }
            Step::Guess { cell, digit, .. } => {
                assert_eq!(marks_of(&svg, 9, "key"), [(*cell, *digit)]);
                guesses += 1;
            }
            Step::Backtrack { .. } => assert!(marks_of(&svg, 9, "removed").is_empty()),
        }
    }
    assert!(removals > 0 && placements > 0 && guesses > 0);
    let end = read("solution.svg");
    let solution = &read_fixture("solutions/inkala-line.txt")[0];
    assert_eq!(&drawn_grid(&end, 3, &["given", "filled"]), solution);
    assert!(texts(&end, "mark").is_empty());
}

#[test]
fn explain_svg_hints_show_as_much_as_their_level() {
    let dir = common::temp_dir();
    let mut shaded = Vec::new();
    for level in ["1", "3"] {
        let out = run_in(
            dir.path(),
            &[
                "explain",
                &path("minimal-1-line.txt"),
                "--hint",
                level,
                "--svg",
                level,
            ],
            b"",
        );
        assert_exit(&out, 0);
        let svg = std::fs::read_to_string(dir.path().join(level).join("hint.svg")).unwrap();
        assert!(svg.contains(&format!(">Hint (level {level})</text>")));
        shaded.push((
            svg.matches("<rect class=\"unit\"").count(),
            marks_of(&svg, 9, "key").len() + marks_of(&svg, 9, "removed").len(),
        ));
    }
    // Level 1 shades where to look and gives nothing away; level 3 shows the step.
    assert!(shaded[0].0 > 0 && shaded[0].1 == 0, "{shaded:?}");
    assert!(shaded[1].1 > 0, "{shaded:?}");
    // Pencil marks stop at 36×36: refused before anything is solved or written.
    let n = 49;
    let row = vec!["0"; n].join(" ");
    let big = vec![row; n].join("\n") + "\n";
    let out = run_in(
        dir.path(),
        &["explain", "-", "--svg", "big"],
        big.as_bytes(),
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("not 49×49"), "{}", stderr(&out));
    assert!(!dir.path().join("big").exists());
}

#[test]
fn answers_follow_the_puzzles_on_pages_of_their_own() {
    let dir = common::temp_dir();
    let out = run_in(
        dir.path(),
        &[
            "render",
            &path("expert-20.txt"),
            "--answers",
            "--title",
            "Hard",
            "-o",
            "book.html",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let html = std::fs::read_to_string(dir.path().join("book.html")).unwrap();
    let puzzles = read_fixture("expert-20.txt");
    let solutions = read_fixture("solutions/expert-20.txt");
    // 20 puzzles at 6 a page, then 20 answers: 4 + 4 pages.
    assert_eq!(html.matches("<section class=\"page\">").count(), 8);
    assert_eq!(html.matches("<h2>Answers</h2>").count(), 4);
    let svgs: Vec<&str> = html.split("<svg ").skip(1).collect();
    assert_eq!(svgs.len(), 40);
    for (i, svg) in svgs.iter().enumerate() {
        let (k, answer) = (i % 20, i >= 20);
        assert_eq!(drawn_grid(svg, 3, &["given"]), puzzles[k]);
        if answer {
            assert!(svg.contains(&format!(">Answer {}</text>", k + 1)));
            assert_eq!(drawn_grid(svg, 3, &["given", "filled"]), solutions[k]);
        } else {
            assert!(svg.contains(&format!(">Puzzle {}</text>", k + 1)));
            assert!(texts(svg, "filled").is_empty());
        }
    }
    // One file per puzzle and per answer with --out-dir.
    let out = run_in(
        dir.path(),
        &[
            "render",
            &path("thesis-4x4.txt"),
            "--answers",
            "--out-dir",
            "set",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("set"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["answer-0001.svg", "puzzle-0001.svg"]);
    // --timeout without a solve to limit is refused.
    let out = run(&["render", &path("thesis-4x4.txt"), "--timeout", "3"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("--timeout limits the solves"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_svg_of_clashing_givens_says_so() {
    let dir = common::temp_dir();
    let clash = path("corner/contradictory-4x4.txt");
    let out = run_in(dir.path(), &["explain", &clash, "--svg", "steps"], b"");
    assert_exit(&out, 1);
    let out = run_in(
        dir.path(),
        &["explain", &clash, "--hint", "2", "--svg", "hint"],
        b"",
    );
    assert_exit(&out, 1);
    for file in ["steps/no-solution.svg", "hint/hint.svg"] {
        let svg = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(
            svg.contains(">No solution: the givens clash</text>"),
            "{file}"
        );
        assert_eq!(
            drawn_grid(&svg, 2, &["given"]),
            read_fixture("corner/contradictory-4x4.txt")[0]
        );
    }
}

#[test]
fn explain_html_puts_every_step_on_printable_pages() {
    use sudosat::solve::human::solve_logged;
    let dir = common::temp_dir();
    let file = "debian-fiendish.txt";
    let out = run_in(
        dir.path(),
        &[
            "explain",
            &path(file),
            "--summary-only",
            "--html",
            "steps.html",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let html = std::fs::read_to_string(dir.path().join("steps.html")).unwrap();
    let puzzle = &read_fixture(file)[0];
    let steps = solve_logged(puzzle).log.steps.len();
    let svgs: Vec<&str> = html.split("<svg ").skip(1).collect();
    assert_eq!(svgs.len(), steps + 1);
    assert_eq!(
        html.matches("<section class=\"page\">").count(),
        (steps + 1).div_ceil(4)
    );
    for (k, svg) in svgs.iter().enumerate().take(steps) {
        assert!(svg.contains(&format!(">Step {} of {steps}: ", k + 1)));
    }
    let last = svgs[steps];
    assert!(last.contains(">Solution</text>"));
    // An output that cannot be written stops the command before any text is printed.
    std::fs::create_dir(dir.path().join("taken.html")).unwrap();
    let out = run_in(
        dir.path(),
        &["explain", &path(file), "--html", "taken.html"],
        b"",
    );
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty());
    let solution = &read_fixture(&format!("solutions/{file}"))[0];
    assert_eq!(&drawn_grid(last, 3, &["given", "filled"]), solution);
}

#[test]
fn explain_svg_names_the_pictures_of_several_puzzles_by_puzzle() {
    use sudosat::solve::human::solve_logged;
    let dir = common::temp_dir();
    let both = format!(
        "{}\n{}\n",
        read_fixture("inkala-line.txt")[0].to_line().unwrap(),
        read_fixture("minimal-1-line.txt")[0].to_line().unwrap()
    );
    let out = run_in(
        dir.path(),
        &["explain", "-", "--svg", "s", "--summary-only"],
        both.as_bytes(),
    );
    assert_exit(&out, 0);
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("s"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for (k, file) in ["inkala-line.txt", "minimal-1-line.txt"].iter().enumerate() {
        let steps = solve_logged(&read_fixture(file)[0]).log.steps.len();
        let prefix = format!("puzzle-{:04}-", k + 1);
        let mine: Vec<&String> = names.iter().filter(|n| n.starts_with(&prefix)).collect();
        assert_eq!(mine.len(), steps + 1, "{file}");
        assert!(mine.contains(&&format!("{prefix}solution.svg")));
        assert!(mine.contains(&&format!("{prefix}step-{:03}.svg", steps)));
    }
}

/// The cells a one-panel picture shades in `class` (`unit`, `pattern`).
fn shaded(svg: &str, n: usize, class: &str) -> Vec<Cell> {
    let open = format!("<rect class=\"{class}\" x=\"");
    let mut cells: Vec<Cell> = svg
        .lines()
        .filter_map(|l| l.strip_prefix(&open))
        .map(|rest| {
            let (x, rest) = rest.split_once("\" y=\"").unwrap();
            let y = rest.split_once('"').unwrap().0;
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            Cell(((y / CELL) as usize * n + (x / CELL) as usize) as u32)
        })
        .collect();
    cells.sort();
    cells
}

#[test]
fn diagnose_draws_the_givens_at_fault_and_where_solutions_differ() {
    use sudosat::backend::{BackendKind, BackendSpec};
    use sudosat::generate::{diagnose, Diagnosis};
    use sudosat::run::Deadline;
    let library = |grid: &Grid| {
        diagnose(grid, &BackendSpec::new(BackendKind::Cdcl), &Deadline::NONE).unwrap()
    };
    let dir = common::temp_dir();
    let draw = |grid: &Grid| {
        std::fs::write(dir.path().join("p.txt"), grid.to_line().unwrap() + "\n").unwrap();
        let out = run_in(dir.path(), &["render", "--diagnose", "p.txt"], b"");
        assert_exit(&out, 1);
        String::from_utf8(out.stdout).unwrap()
    };
    // Inkala's puzzle with a wrong digit typed in: the minimal set shaded as units, the
    // given whose removal leaves one solution as the pattern.
    let inkala = read_fixture("inkala-line.txt").remove(0);
    let (wrong, cell, _) = common::inkala_with_a_typo();
    let Diagnosis::NoSolution {
        core,
        prime_suspects,
        ..
    } = library(&wrong)
    else {
        panic!("no solution")
    };
    let svg = draw(&wrong);
    let cells = |pairs: &[(Cell, Digit)]| pairs.iter().map(|&(c, _)| c).collect::<Vec<_>>();
    assert_eq!(shaded(&svg, 9, "unit"), cells(&core));
    assert_eq!(shaded(&svg, 9, "pattern"), vec![cell]);
    assert_eq!(cells(&prime_suspects), vec![cell]);
    assert!(
        svg.contains(&format!("No solution: the {} shaded givens", core.len())),
        "{svg}"
    );
    // A minimal puzzle short of a given: each open cell's digits over all solutions as its
    // pencil marks, the cells that are the same in all filled in, the completion shaded.
    let loose = common::loose_minimal(1);
    let Diagnosis::Several {
        solution,
        open,
        completion,
        ..
    } = library(&loose)
    else {
        panic!("several")
    };
    let svg = draw(&loose);
    let completed = cells(&completion);
    let mut expected_marks = Vec::new();
    let mut expected_fill = solution.clone();
    for (cell, digits) in &open {
        if !completed.contains(cell) {
            expected_fill.set(*cell, None);
            expected_marks.extend(digits.iter().map(|d| (*cell, d)));
        }
    }
    assert_eq!(marks_of(&svg, 9, "mark"), expected_marks);
    assert_eq!(drawn_grid(&svg, 3, &["given", "filled"]), expected_fill);
    assert_eq!(shaded(&svg, 9, "pattern"), completed);
    assert!(svg.contains("Several solutions, which differ in"), "{svg}");
    // A unique puzzle is proper: exit 0.
    std::fs::write(dir.path().join("p.txt"), inkala.to_line().unwrap() + "\n").unwrap();
    let out = run_in(dir.path(), &["render", "--diagnose", "p.txt"], b"");
    assert_exit(&out, 0);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("Proper: exactly one solution."));
}
