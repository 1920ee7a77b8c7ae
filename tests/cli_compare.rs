//! CLI tests of `sudosat compare`, running the real binary on shipped fixtures: every row of
//! every output reports a checked solution, sizes match the closed forms, the SVG parses and
//! names every solver, and time-outs, failures and interruptions are rows, not aborts.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use sudosat::encode::{Encoding, SudokuEncoding};
use sudosat::solve::CLASSIC_SOLVERS;

use common::{assert_exit, external_available, fixture, run_in, stderr, stdout, temp_dir};

/// Every embedded backend this build has, in the order `--solvers embedded` lists them
/// (cadical and kissat with their features).
fn embedded() -> Vec<&'static str> {
    use sudosat::backend::BackendKind;
    let listed: Vec<&str> = BackendKind::ALL
        .into_iter()
        .filter(|kind| kind.is_embedded() && kind.is_built())
        .map(BackendKind::name)
        .collect();
    let always = ["cdcl", "dpll", "lookahead", "varisat", "splr"];
    assert_eq!(&listed[..always.len()], always);
    listed
}

/// Every encoding name, in the order `--encodings all` lists them.
fn encodings() -> Vec<String> {
    SudokuEncoding::ALL.iter().map(|e| e.name()).collect()
}

/// `--solvers classic`: every classic solver but plain `backtrack` (= backtrack-mrv).
fn classic() -> Vec<&'static str> {
    CLASSIC_SOLVERS
        .iter()
        .copied()
        .filter(|&s| s != "backtrack")
        .collect()
}

/// What one compare run produced.
struct Compared {
    out: Output,
    csv: Vec<HashMap<String, String>>,
    json: serde_json::Value,
    svg_texts: Vec<String>,
}

impl Compared {
    fn runs(&self) -> &Vec<serde_json::Value> {
        self.json["runs"].as_array().expect("runs is an array")
    }

    /// The summary table's row of `solver`: runs and the outcome counts, by column name.
    fn summary_row(&self, solver: &str) -> HashMap<String, String> {
        let text = stdout(&self.out);
        let mut lines = text.lines().skip_while(|l| !l.starts_with("solver "));
        let head: Vec<&str> = lines
            .next()
            .expect("a summary table")
            .split_whitespace()
            .collect();
        let row = lines
            .take_while(|l| !l.is_empty())
            .find(|l| l.split_whitespace().next() == Some(solver))
            .unwrap_or_else(|| panic!("no summary row for {solver}:\n{text}"));
        head.iter()
            .map(|h| h.to_string())
            .zip(row.split_whitespace().map(str::to_string))
            .collect()
    }
}

/// Runs `sudosat compare ARGS --csv --json --plot` in a fresh directory and reads the three
/// outputs back (CSV with the csv crate, JSON with serde_json, SVG with roxmltree).
fn compare(args: &[&str], code: i32) -> Compared {
    let dir = temp_dir();
    compare_in(dir.path(), args, code)
}

fn compare_in(dir: &Path, args: &[&str], code: i32) -> Compared {
    let mut all = vec!["compare", "-q"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--csv",
        "runs.csv",
        "--json",
        "runs.json",
        "--plot",
        "plot.svg",
    ]);
    let out = run_in(dir, &all, b"");
    assert_exit(&out, code);
    let mut reader = csv::Reader::from_path(dir.join("runs.csv")).expect("the CSV exists");
    let headers = reader.headers().expect("a CSV header").clone();
    assert_eq!(
        headers.iter().collect::<Vec<_>>(),
        [
            "file",
            "line",
            "puzzle_index",
            "size",
            "givens",
            "solver",
            "backend",
            "encoding",
            "repeat",
            "outcome",
            "checked",
            "vars",
            "clauses",
            "literals",
            "puzzle_vars",
            "puzzle_clauses",
            "puzzle_literals",
            "encode_us",
            "solve_us",
            "decode_us",
            "total_us",
            "counters",
            "error"
        ],
        "the CSV columns are stable"
    );
    let csv = reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV record");
            headers
                .iter()
                .map(str::to_string)
                .zip(r.iter().map(str::to_string))
                .collect()
        })
        .collect();
    let json_text = std::fs::read_to_string(dir.join("runs.json")).expect("the JSON exists");
    let json = serde_json::from_str(&json_text).expect("the JSON parses");
    let svg = std::fs::read_to_string(dir.join("plot.svg")).expect("the SVG exists");
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let svg_texts = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect();
    Compared {
        out,
        csv,
        json,
        svg_texts,
    }
}

fn fixture_path(name: &str) -> String {
    fixture(name).to_str().unwrap().to_string()
}

/// A file in `dir` holding the given lines of a line-format fixture.
fn fixture_lines(dir: &Path, name: &str, lines: &[usize]) -> String {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let all: Vec<&str> = text.lines().collect();
    let picked: String = lines.iter().map(|&l| format!("{}\n", all[l - 1])).collect();
    let path = dir.join(format!("picked-{name}"));
    std::fs::write(&path, picked).unwrap();
    path.to_str().unwrap().to_string()
}

/// Number of givens of a puzzle line.
fn givens(line: &str) -> usize {
    line.chars()
        .filter(|c| c.is_ascii_digit() && *c != '0')
        .count()
}

/// The closed-form clause counts of the unreduced encodings for side n with g givens.
fn base_clauses(encoding: &str, n: usize, g: usize) -> Option<usize> {
    let pairs = n * (n - 1) / 2;
    let minimal = n * n + 3 * n * n * pairs + g;
    match encoding {
        "minimal" => Some(minimal),
        "extended" => Some(minimal + n * n * pairs + 3 * n * n),
        "augmented" => {
            // Extended plus 2bn² segments (b + 1 defining clauses each) and 4n² exactly-one
            // groups of b segments.
            let b = (1..=n).find(|b| b * b == n).unwrap();
            let extended = base_clauses("extended", n, g).unwrap();
            Some(extended + 2 * b * n * n * (b + 1) + 4 * n * n * (1 + b * (b - 1) / 2))
        }
        _ => None,
    }
}

/// Asserts every row is a checked solution and its sizes are consistent: the closed forms
/// for the base encodings (8,829 + g and 11,988 + g clauses on 9×9), and one size per
/// puzzle × encoding whatever the backend.
fn assert_all_solved_with_sizes(rows: &[HashMap<String, String>]) {
    let mut sizes: HashMap<(String, String), (String, String, String)> = HashMap::new();
    for row in rows {
        assert_eq!(row["outcome"], "solved", "{row:?}");
        assert_eq!(row["checked"], "true", "{row:?}");
        assert_eq!(row["error"], "", "{row:?}");
        assert!(row["total_us"].parse::<f64>().unwrap() > 0.0, "{row:?}");
        let encoding = &row["encoding"];
        if encoding.is_empty() {
            assert_eq!(row["backend"], "", "a classic solver has no backend");
            assert_eq!(row["clauses"], "", "a classic solver has no formula");
            continue;
        }
        assert_eq!(row["solver"], format!("{}/{}", row["backend"], encoding));
        let n: usize = row["size"].parse().unwrap();
        let g: usize = row["givens"].parse().unwrap();
        let clauses: usize = row["clauses"].parse().unwrap();
        if let Some(expected) = base_clauses(encoding, n, g) {
            assert_eq!(clauses, expected, "{row:?}");
            // Augmented: 2bn² segment variables after the n³ cell variables.
            let segments = if encoding == "augmented" {
                2 * n * n * (1..=n).find(|b| b * b == n).unwrap()
            } else {
                0
            };
            assert_eq!(row["vars"], (n * n * n + segments).to_string(), "{row:?}");
        } else {
            let base = encoding.trim_end_matches("+reduced");
            assert!(clauses < base_clauses(base, n, g).unwrap(), "{row:?}");
        }
        let size = (
            row["vars"].clone(),
            row["clauses"].clone(),
            row["literals"].clone(),
        );
        let key = (row["puzzle_index"].clone(), encoding.clone());
        let first = sizes.entry(key).or_insert_with(|| size.clone());
        assert_eq!(*first, size, "backends disagree on the size: {row:?}");
    }
}

/// Asserts the JSON holds the same runs as the CSV, in the same order.
fn assert_json_matches_csv(c: &Compared) {
    assert_eq!(c.runs().len(), c.csv.len());
    for (json, csv) in c.runs().iter().zip(&c.csv) {
        for key in ["solver", "outcome", "file"] {
            assert_eq!(json[key].as_str().unwrap(), csv[key], "{key}");
        }
        assert_eq!(
            json["checked"].as_bool().unwrap().to_string(),
            csv["checked"]
        );
        assert_eq!(json["puzzle_index"].to_string(), csv["puzzle_index"]);
        assert!(json["counters"].is_object());
    }
}

fn assert_legend_lists(c: &Compared, labels: &[String]) {
    for label in labels {
        assert!(
            legend_shows(&c.svg_texts, label),
            "{label} is not in the SVG legend: {:?}",
            c.svg_texts
        );
    }
}

/// Whether a legend line of `texts` shows `label`: whole, a solver process by its
/// program's file name (`sleepy-solver.sh/extended+reduced`), or shortened to fit (a part
/// of it, `…`, and its end: `sleepy-sol…/extended+reduced`).
fn legend_shows(texts: &[String], label: &str) -> bool {
    texts.iter().any(|t| match t.split_once('…') {
        None => {
            t == label
                || label
                    .strip_suffix(t.as_str())
                    .is_some_and(|folders| folders.ends_with(['/', ':']))
        }
        Some((head, tail)) => !head.is_empty() && label.contains(head) && label.ends_with(tail),
    })
}

fn labels(json: &serde_json::Value) -> Vec<String> {
    json["solvers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_default_entries_start_with_cdcl_the_default_backend() {
    let dir = temp_dir();
    let four = fixture_path("thesis-4x4.txt");
    let c = compare_in(dir.path(), &[&four], 0);
    assert_eq!(
        labels(&c.json),
        [
            "cdcl/extended+reduced",
            "dpll/extended+reduced",
            "varisat/extended+reduced",
            "splr/extended+reduced",
            "dlx"
        ]
    );
    assert_all_solved_with_sizes(&c.csv);
}

#[test]
fn every_embedded_backend_and_classic_solver_solves_and_checks_every_puzzle() {
    let dir = temp_dir();
    // The 4×4 example and the easiest thesis grid (53 givens): hill climbing and plain
    // row/column backtracking solve both quickly, so every classic solver can be asserted.
    let easy = fixture_lines(dir.path(), "thesis-9x9.txt", &[2]);
    let four = fixture_path("thesis-4x4.txt");
    let c = compare_in(
        dir.path(),
        &[
            &four,
            &easy,
            "--solvers",
            "all",
            "--encodings",
            "all",
            "--repeat",
            "2",
            "--timeout",
            "20",
        ],
        0,
    );
    let (encodings, classic) = (encodings(), classic());
    let entries = embedded().len() * encodings.len() + classic.len();
    assert_eq!(c.csv.len(), 2 * entries * 2, "puzzles × entries × repeats");
    let mut expected_labels: Vec<String> = embedded()
        .iter()
        .flat_map(|b| encodings.iter().map(move |e| format!("{b}/{e}")))
        .collect();
    expected_labels.extend(classic.iter().map(|s| s.to_string()));
    assert_eq!(labels(&c.json), expected_labels);
    assert_all_solved_with_sizes(&c.csv);
    assert_json_matches_csv(&c);
    // Known sizes of the two puzzles: 4×4 with 6 givens, the 9×9 with 53.
    let easy_givens = givens(&std::fs::read_to_string(&easy).unwrap());
    for row in &c.csv {
        match (row["solver"].as_str(), row["size"].as_str()) {
            ("dpll/extended", "9") => {
                assert_eq!(row["clauses"], (11_988 + easy_givens).to_string())
            }
            ("dpll/minimal", "9") => assert_eq!(row["clauses"], (8_829 + easy_givens).to_string()),
            ("dpll/minimal", "4") => assert_eq!(
                (row["vars"].as_str(), row["clauses"].as_str()),
                ("64", "310")
            ),
            _ => {}
        }
    }
    // Repeats are numbered and counters are recorded.
    let repeats: Vec<&str> = c.csv[..4].iter().map(|r| r["repeat"].as_str()).collect();
    assert_eq!(repeats, ["1", "2", "1", "2"]);
    let dpll = c.csv.iter().find(|r| r["backend"] == "dpll").unwrap();
    assert!(dpll["counters"].contains("decisions="), "{dpll:?}");
    let json_dpll = c.runs().iter().find(|r| r["backend"] == "dpll").unwrap();
    assert!(json_dpll["counters"]["decisions"].is_u64(), "{json_dpll}");
    for label in &expected_labels {
        let row = c.summary_row(label);
        assert_eq!(
            (row["runs"].as_str(), row["solved"].as_str()),
            ("4", "4"),
            "{label}"
        );
        assert_eq!(row["timeout"], "0");
    }
    assert!(stdout(&c.out).contains("sequential"), "{}", stdout(&c.out));
    assert_eq!(c.json["parallel"], false);
    assert_eq!(c.json["interrupted"], false);
    assert_legend_lists(&c, &expected_labels);
    for encoding in &encodings {
        assert!(c.svg_texts.contains(encoding), "bar of {encoding}");
    }
}

#[test]
fn complete_solvers_agree_on_minimal_puzzles_in_parallel_grouped_by_clues() {
    let c = compare(
        &[
            &fixture_path("minimal-40.txt"),
            "--limit",
            "3",
            "--solvers",
            "embedded,dlx,backtrack-mrv,human,best-first,fifo",
            "--encodings",
            "extended,minimal+reduced",
            "--jobs",
            "2",
            "--by",
            "clues",
            "--timeout",
            "30",
        ],
        0,
    );
    assert_eq!(c.csv.len(), 3 * (embedded().len() * 2 + 5));
    assert_all_solved_with_sizes(&c.csv);
    assert_json_matches_csv(&c);
    for row in &c.csv {
        assert_eq!(row["givens"], "22");
        assert_eq!(row["file"], fixture_path("minimal-40.txt"));
    }
    let order: Vec<usize> = c
        .csv
        .iter()
        .map(|r| r["puzzle_index"].parse().unwrap())
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] <= w[1]),
        "rows in puzzle order"
    );
    assert!(stdout(&c.out).contains("parallel: puzzles on 2 threads"));
    assert_eq!(
        (c.json["parallel"].as_bool(), c.json["jobs"].as_u64()),
        (Some(true), Some(2))
    );
    assert_eq!(c.json["group_by"], "clues");
    let groups = c.json["summary_by_group"].as_array().unwrap();
    assert_eq!(
        groups.len(),
        embedded().len() * 2 + 5,
        "one group (22 clues) per solver"
    );
    assert!(groups.iter().all(|g| g["group"] == 22 && g["solved"] == 3));
    assert!(stdout(&c.out).contains("by clues:"));
    // The plot's x axis is the clue count.
    assert!(c.svg_texts.iter().any(|t| t == "22"), "{:?}", c.svg_texts);
    assert_legend_lists(&c, &labels(&c.json));
}

/// A "solver" that answers compare's first check and then never, for time-outs.
#[cfg(unix)]
fn sleepy_solver(dir: &Path) -> PathBuf {
    common::stand_in_solver(dir, "sleepy-solver.sh", "sleep 30")
}

/// A "solver" that answers compare's first check and then crashes on every puzzle.
#[cfg(unix)]
fn crashing_solver(dir: &Path) -> PathBuf {
    common::stand_in_solver(
        dir,
        "crashing-solver.sh",
        "echo 'out of memory' >&2\nexit 3",
    )
}

/// Starts `sudosat compare -q ARGS` in `dir` without waiting, so a test can interrupt it.
#[cfg(unix)]
fn spawn_compare(dir: &Path, args: &[&str]) -> std::process::Child {
    common::sudosat()
        .current_dir(dir)
        .args(["compare", "-q"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sudosat starts")
}

/// Sends SIGINT to a process.
#[cfg(unix)]
fn interrupt(pid: u32) {
    let killed = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
}

#[cfg(unix)]
#[test]
fn timeouts_and_failures_show_in_every_output_and_the_run_goes_on() {
    let dir = temp_dir();
    let sleepy = sleepy_solver(dir.path());
    let crashing = crashing_solver(dir.path());
    let solvers = format!(
        "dpll,external:{},external:{},dlx",
        sleepy.display(),
        crashing.display(),
    );
    let easy = fixture_lines(dir.path(), "thesis-9x9.txt", &[2]);
    let four = fixture_path("thesis-4x4.txt");
    let c = compare_in(
        dir.path(),
        &[&four, &easy, "--solvers", &solvers, "--timeout", "0.3"],
        0,
    );
    let sleepy_label = format!("external:{}/extended+reduced", sleepy.display());
    let external_label = format!("external:{}/extended+reduced", crashing.display());
    assert_eq!(c.csv.len(), 2 * 4);
    for (row, json) in c.csv.iter().zip(c.runs()) {
        let solver = row["solver"].as_str();
        let expected = if solver == sleepy_label {
            "timeout"
        } else if solver == external_label {
            "failed"
        } else {
            "solved"
        };
        assert_eq!(row["outcome"], expected, "{row:?}");
        assert_eq!(json["outcome"], expected, "{json}");
        assert_eq!(row["checked"], (expected == "solved").to_string());
        if expected == "timeout" {
            assert!(row["error"].contains("timed out"), "{row:?}");
        }
        if expected == "failed" {
            assert!(row["error"].contains("crashing-solver"), "{row:?}");
            assert!(json["error"]
                .as_str()
                .unwrap()
                .contains("exit status 3 (stderr: out of memory)"));
        }
        if expected != "solved" {
            // The formula was still built: its size is recorded.
            assert!(row["clauses"].parse::<usize>().unwrap() > 0);
        }
    }
    let timeout_row = c.summary_row(&sleepy_label);
    assert_eq!(
        (
            timeout_row["timeout"].as_str(),
            timeout_row["solved"].as_str()
        ),
        ("2", "0")
    );
    assert_eq!(timeout_row["median_ms"], "-");
    assert_eq!(c.summary_row(&external_label)["failed"], "2");
    assert_eq!(c.summary_row("dlx")["solved"], "2");
    let summary = c.json["summary"].as_array().unwrap();
    let json_timeouts: Vec<u64> = summary
        .iter()
        .map(|s| s["timeout"].as_u64().unwrap())
        .collect();
    assert_eq!(json_timeouts, [0, 2, 0, 0]);
    assert!(stdout(&c.out).contains("out of memory"));
    let all_labels = labels(&c.json);
    assert_eq!(all_labels.len(), 4);
    assert_legend_lists(&c, &all_labels);
}

#[test]
fn external_solvers_get_the_same_cnf_as_the_embedded_ones() {
    let mut solvers = vec!["dpll".to_string()];
    if external_available("minisat") {
        solvers.push("minisat".to_string());
    }
    if external_available("cadical") {
        solvers.push("external:cadical -q".to_string());
    }
    if solvers.len() == 1 {
        return;
    }
    let c = compare(
        &[
            &fixture_path("thesis-9x9.txt"),
            "--limit",
            "3",
            "--solvers",
            &solvers.join(","),
            "--encodings",
            "minimal,extended+reduced",
            "--timeout",
            "60",
        ],
        0,
    );
    assert_eq!(c.csv.len(), 3 * solvers.len() * 2);
    assert_all_solved_with_sizes(&c.csv);
    assert!(c.csv.iter().any(|r| r["backend"] != "dpll"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_solve_in_flight_and_writes_what_was_measured() {
    let dir = temp_dir();
    let sleepy = sleepy_solver(dir.path());
    let child = spawn_compare(
        dir.path(),
        &[
            &fixture_path("thesis-9x9.txt"),
            "--solvers",
            &format!("external:{}", sleepy.display()),
            "--timeout",
            "1",
            "--csv",
            "runs.csv",
            "--json",
            "runs.json",
        ],
    );
    std::thread::sleep(std::time::Duration::from_millis(1500));
    interrupt(child.id());
    let out = child.wait_with_output().expect("sudosat ends");
    assert_exit(&out, 130);
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("runs.json")).unwrap())
            .unwrap();
    assert_eq!(json["interrupted"], true);
    let runs = json["runs"].as_array().unwrap();
    assert!(runs.len() < 9, "stopped before the 9 planned runs");
    // The runs that ended timed out; the one in flight, if any, was stopped.
    let (last, ended) = runs.split_last().unwrap();
    assert!(ended.iter().all(|r| r["outcome"] == "timeout"), "{runs:?}");
    assert!(
        last["outcome"] == "timeout" || last["outcome"] == "stopped",
        "{last}"
    );
    let csv = std::fs::read_to_string(dir.path().join("runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), runs.len() + 1);
    assert!(stdout(&out).contains("interrupted:"), "{}", stdout(&out));
}

/// A solve that would not return for long (no time limit here): Ctrl-C stops it, and a
/// second one changes nothing (the outputs are written once).
#[cfg(unix)]
#[test]
fn two_ctrl_c_during_a_hung_solve_write_what_was_measured() {
    let dir = temp_dir();
    let started = dir.path().join("started");
    let hung = common::stand_in_solver(
        dir.path(),
        "hung-solver.sh",
        &format!("touch '{}'\nsleep 5", started.display()),
    );
    let child = spawn_compare(
        dir.path(),
        &[
            &fixture_path("thesis-4x4.txt"),
            "--solvers",
            &format!("dlx,external:{}", hung.display()),
            "--json",
            "runs.json",
            "--plot",
            "plot.svg",
        ],
    );
    for _ in 0..200 {
        if started.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(started.exists(), "the hung solver never started");
    interrupt(child.id());
    std::thread::sleep(std::time::Duration::from_millis(300));
    interrupt(child.id());
    let out = child.wait_with_output().expect("sudosat ends");
    assert_exit(&out, 130);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("runs.json")).unwrap())
            .unwrap();
    assert_eq!(json["interrupted"], true);
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "the dlx row, and the hung solve's: {runs:?}");
    assert_eq!(runs[0]["outcome"], "solved");
    assert_eq!(runs[1]["outcome"], "stopped");
    assert!(dir.path().join("plot.svg").exists());
    assert!(stdout(&out).contains("| dlx") || stdout(&out).contains("dlx "));
}

#[test]
fn bad_requests_exit_2_with_a_clear_message_and_write_nothing() {
    let four = fixture_path("thesis-4x4.txt");
    let cases: [(&[&str], &str); 8] = [
        (&[&four, "--solvers", "dpll,dlk"], "unknown solver `dlk`"),
        (
            &[&four, "--encodings", "reduced"],
            "unknown encoding `reduced`",
        ),
        (&[&four, "--solvers", "external"], "needs a solver command"),
        (&["missing.txt"], "missing.txt: cannot open"),
        (
            &[&four, "--repeat", "0"],
            "--repeat must be between 1 and 10000",
        ),
        (
            &[&four, "--repeat", "99999999999999"],
            "--repeat must be between 1 and 10000",
        ),
        (
            &[&four, "--jobs", "100000"],
            "--jobs must be between 1 and 256",
        ),
        (
            &[&four, "--timeout", "0"],
            "--timeout must be a positive number",
        ),
    ];
    for (args, message) in cases {
        assert_refused(temp_dir().path(), args, message);
    }
}

/// `compare ARGS --csv runs.csv` in `dir` exits 2 with a one-line message holding
/// `message`, and writes no CSV.
fn assert_refused(dir: &Path, args: &[&str], message: &str) {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--csv", "runs.csv"]);
    let out = run_in(dir, &all, b"");
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(err.contains(message), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.join("runs.csv").exists(), "{args:?} wrote a CSV");
}

/// An HTML report parsed as XML (the page is well-formed XML by design).
struct Page {
    text: String,
}

impl Page {
    fn read(dir: &Path) -> Page {
        let text = std::fs::read_to_string(dir.join("index.html")).expect("index.html exists");
        Page { text }
    }

    fn doc(&self) -> roxmltree::Document<'_> {
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        roxmltree::Document::parse_with_options(&self.text, options)
            .expect("index.html is well-formed XML")
    }

    /// The rows of `table#id` as header → cell maps.
    fn table(&self, id: &str) -> Vec<HashMap<String, String>> {
        let doc = self.doc();
        let table = doc
            .descendants()
            .find(|n| n.has_tag_name("table") && n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no table#{id}"));
        let rows: Vec<Vec<String>> = table
            .children()
            .filter(|n| n.has_tag_name("tr"))
            .map(|tr| {
                tr.children()
                    .filter(|c| c.is_element())
                    .map(|c| {
                        c.descendants()
                            .filter(|d| d.is_text())
                            .filter_map(|d| d.text())
                            .collect::<String>()
                    })
                    .collect()
            })
            .collect();
        let head = &rows[0];
        rows[1..]
            .iter()
            .map(|r| head.iter().cloned().zip(r.iter().cloned()).collect())
            .collect()
    }

    /// The text of the element with `id`.
    fn text_of(&self, id: &str) -> String {
        let doc = self.doc();
        let node = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no #{id}"));
        node.descendants()
            .filter(|d| d.is_text())
            .filter_map(|d| d.text())
            .collect()
    }
}

/// The CSV rows of a report directory.
fn read_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).expect("the CSV exists");
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            headers
                .iter()
                .map(str::to_string)
                .zip(r.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

/// Each entry's solved time per puzzle (µs) from CSV rows with one repeat.
fn solved_times(rows: &[HashMap<String, String>]) -> HashMap<String, HashMap<String, f64>> {
    let mut times: HashMap<String, HashMap<String, f64>> = HashMap::new();
    for row in rows {
        let entry = times.entry(row["solver"].clone()).or_default();
        if row["outcome"] == "solved" {
            entry.insert(
                row["puzzle_index"].clone(),
                row["total_us"].parse().unwrap(),
            );
        }
    }
    times
}

/// PAR-2 in ms of puzzle times over `puzzles` puzzles with a limit in seconds.
fn par2_ms(times: &HashMap<String, f64>, puzzles: usize, limit_s: f64) -> f64 {
    let solved: f64 = times.values().sum();
    let unsolved = (puzzles - times.len()) as f64;
    (solved + unsolved * 2.0 * limit_s * 1e6) / puzzles as f64 / 1e3
}

fn assert_close(cell: &str, expected: f64, what: &str) {
    let got: f64 = cell
        .parse()
        .unwrap_or_else(|_| panic!("{what}: `{cell}` is not a number"));
    assert!(
        (got - expected).abs() <= 0.002 + expected.abs() * 1e-9,
        "{what}: got {got}, expected {expected:.3}"
    );
}

/// The SVG of `figure#id` (or of the n-th scatter figure), parsed.
fn figure_svgs(page: &Page) -> Vec<(String, String)> {
    let doc = page.doc();
    doc.descendants()
        .filter(|n| n.has_tag_name("figure"))
        .map(|f| {
            let id = f.attribute("id").map(str::to_string).unwrap_or_else(|| {
                format!(
                    "scatter:{},{}",
                    f.attribute("data-x").unwrap_or(""),
                    f.attribute("data-y").unwrap_or("")
                )
            });
            let svg = f
                .children()
                .find(|c| c.has_tag_name("svg"))
                .expect("an inline SVG");
            (id, page.text[svg.range()].to_string())
        })
        .collect()
}

fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses on its own");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

fn count_tags(svg: &str, tag: &str) -> usize {
    roxmltree::Document::parse(svg)
        .unwrap()
        .descendants()
        .filter(|n| n.has_tag_name(tag))
        .count()
}

/// Runs a comparison with time-outs and writes a report; returns the directory, the
/// sleepy solver's label and the report path.
#[cfg(unix)]
fn measured_report() -> (tempfile::TempDir, String) {
    let dir = temp_dir();
    let sleepy = sleepy_solver(dir.path());
    let nine = fixture_lines(dir.path(), "thesis-9x9.txt", &[1, 2, 3, 4]);
    let out = run_in(
        dir.path(),
        &[
            "compare",
            "-q",
            &nine,
            "--solvers",
            &format!("dpll,dlx,external:{}", sleepy.display()),
            "--timeout",
            "0.4",
            "--by",
            "clues",
            "--report",
            "rep",
            "--csv",
            "runs.csv",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let label = format!("external:{}/extended+reduced", sleepy.display());
    (dir, label)
}

#[cfg(unix)]
#[test]
fn the_html_report_is_self_contained_and_shows_what_the_csv_holds() {
    let (dir, sleepy) = measured_report();
    let rep = dir.path().join("rep");
    for file in [
        "index.html",
        "runs.csv",
        "runs.meta.json",
        "report.json",
        "summary.csv",
    ] {
        assert!(rep.join(file).is_file(), "{file} missing");
    }
    // The report's CSV is the one --csv wrote.
    assert_eq!(
        std::fs::read(rep.join("runs.csv")).unwrap(),
        std::fs::read(dir.path().join("runs.csv")).unwrap()
    );
    assert!(dir.path().join("runs.meta.json").is_file(), "--csv sidecar");
    let page = Page::read(&rep);
    let doc = page.doc();
    // Nothing is fetched: no script, no external URL in any attribute.
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert!(!node.has_tag_name("script"), "a script in the page");
        for attr in node.attributes() {
            let v = attr.value();
            let name = attr.name();
            if name == "href" || name == "src" {
                assert!(!v.contains("//"), "{name}={v} points outside");
            }
        }
    }
    assert!(page.text_of("limit").contains("0.4 s"));
    assert!(page.text_of("par2-note").contains("2 × the 0.4 s limit"));
    assert!(page.text_of("command").contains("--report rep"));

    let rows = read_rows(&rep.join("runs.csv"));
    assert_eq!(rows.len(), 4 * 3);
    let times = solved_times(&rows);
    let summary = page.table("summary");
    let labels = ["dpll/extended+reduced", "dlx", sleepy.as_str()];
    assert_eq!(summary.len(), labels.len() + 1);
    for (row, label) in summary.iter().zip(labels) {
        assert_eq!(row["solver"], label);
        let solved = rows
            .iter()
            .filter(|r| r["solver"] == label && r["outcome"] == "solved")
            .count();
        assert_eq!(row["solved"], solved.to_string(), "{label}");
        let timeouts = rows
            .iter()
            .filter(|r| r["solver"] == label && r["outcome"] == "timeout")
            .count();
        assert_eq!(row["timeout"], timeouts.to_string(), "{label}");
        assert_close(&row["par2_ms"], par2_ms(&times[label], 4, 0.4), label);
    }
    assert_eq!(summary[2]["timeout"], "4");
    assert_close(&summary[2]["par2_ms"], 800.0, "all time-outs: 2 × 400 ms");
    // The virtual best: the fastest solved time per puzzle.
    let vbs = &summary[3];
    assert_eq!(
        (vbs["solver"].as_str(), vbs["solved"].as_str()),
        ("virtual-best", "4")
    );
    let best: HashMap<String, f64> = ["1", "2", "3", "4"]
        .iter()
        .map(|p| {
            let t = labels
                .iter()
                .filter_map(|l| times[*l].get(*p))
                .fold(f64::INFINITY, |a, &b| a.min(b));
            (p.to_string(), t)
        })
        .collect();
    assert_close(&vbs["par2_ms"], par2_ms(&best, 4, 0.4), "virtual best");
    let fastest: usize = summary[..3]
        .iter()
        .map(|r| r["fastest_on"].parse::<usize>().unwrap())
        .sum();
    assert_eq!(fastest, 4, "each puzzle has one fastest entry");
    assert!(!page.table("summary-by-group").is_empty());
    assert!(!page.table("slowest-puzzles").is_empty());
    // The instance table: each puzzle by file and line, each entry's median time from the
    // CSV (in ms, as printed), and the sleepy solver's time-outs.
    let per_puzzle = page.table("per-instance");
    assert_eq!(per_puzzle.len(), 4);
    for (row, p) in per_puzzle.iter().zip(["1", "2", "3", "4"]) {
        assert!(row["puzzle"].ends_with(&format!(":{p}")), "{row:?}");
        assert_eq!(row["size"], "9");
        for label in &labels[..2] {
            assert_close(&row[*label], times[*label][p] / 1e3, label);
        }
        assert_eq!(row[sleepy.as_str()], "timeout");
    }

    // Every plot is inline and well-formed; the cactus legend counts the solved puzzles;
    // each scatter has one circle per puzzle both entries solved.
    let svgs = figure_svgs(&page);
    let ids: Vec<&str> = svgs.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids[0], "cactus");
    assert!(ids.contains(&"times") && ids.contains(&"sizes"), "{ids:?}");
    let cactus = svg_texts(&svgs[0].1);
    for (label, n) in [
        ("dpll/extended+reduced", 4),
        ("dlx", 4),
        (sleepy.as_str(), 0),
        ("virtual-best", 4),
    ] {
        let legend = format!("{label} ({n})");
        assert!(legend_shows(&cactus, &legend), "{legend} not in {cactus:?}");
    }
    assert!(cactus.iter().any(|t| t == "time limit 0.4 s"), "{cactus:?}");
    let scatters: Vec<&(String, String)> = svgs
        .iter()
        .filter(|(id, _)| id.starts_with("scatter:"))
        .collect();
    assert_eq!(
        scatters.len(),
        2,
        "the default entry against dlx and the sleepy one"
    );
    let with_dlx = format!("scatter:{},dlx", labels[0]);
    let (_, svg) = scatters.iter().find(|(id, _)| *id == with_dlx).unwrap();
    assert_eq!(count_tags(svg, "circle"), 4);
    let with_sleepy = format!("scatter:{},{sleepy}", labels[0]);
    let (_, svg) = scatters.iter().find(|(id, _)| *id == with_sleepy).unwrap();
    assert_eq!(count_tags(svg, "circle"), 0, "time-outs are crosses");
    let texts = svg_texts(svg);
    assert!(
        texts.iter().any(|t| t == "time limit 0.4 s: unanswered"),
        "{texts:?}"
    );
    let sizes = svg_texts(&svgs.iter().find(|(id, _)| id == "sizes").unwrap().1);
    assert!(sizes.iter().any(|t| t == "9×9"), "{sizes:?}");

    // The JSON beside it agrees.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(rep.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["par2_limit_s"], 0.4);
    assert_eq!(json["virtual_best"]["solved"], 4);
    assert!(json.get("runs").is_none(), "the runs are in runs.csv only");
    assert_eq!(json["solvers"].as_array().unwrap().len(), 3);
    assert!(json["provenance"]["machine"]["cpus"].as_u64().unwrap() >= 1);
    let summary_csv = read_rows(&rep.join("summary.csv"));
    assert_eq!(summary_csv[3]["solver"], "virtual-best");
    assert_eq!(summary_csv[2]["timeout"], "4");
}

#[cfg(unix)]
#[test]
fn from_csv_redraws_the_same_report_from_saved_rows() {
    let (dir, _) = measured_report();
    let first = Page::read(&dir.path().join("rep"));
    let out = run_in(
        dir.path(),
        &[
            "compare",
            "--from-csv",
            "rep/runs.csv",
            "--report",
            "again",
            "--by",
            "clues",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let again = Page::read(&dir.path().join("again"));
    for id in ["summary", "summary-by-group", "encoding-sizes"] {
        let (a, b) = (first.table(id), again.table(id));
        assert_eq!(a.len(), b.len(), "{id}");
        for (ra, rb) in a.iter().zip(&b) {
            for (key, va) in ra {
                match va.parse::<f64>() {
                    Ok(x) if va.contains('.') => assert_close(&rb[key], x, key),
                    _ => assert_eq!(&rb[key], va, "{id} {key}"),
                }
            }
        }
    }
    assert!(
        again.text_of("limit").contains("0.4 s"),
        "the sidecar's limit"
    );
    let json = |p: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(p)).unwrap()).unwrap()
    };
    let (a, b) = (json("rep/report.json"), json("again/report.json"));
    assert_eq!(
        a["provenance"]["command_line"],
        b["provenance"]["command_line"]
    );
    assert!(b["provenance"]["redrawn_by"]
        .as_array()
        .unwrap()
        .iter()
        .any(|v| v == "--from-csv"));
    assert_eq!(a["solvers"], b["solvers"]);
    assert!(stdout(&out).contains("virtual-best"));

    // Without the sidecar: no limit, so no PAR-2, unless --timeout gives it.
    std::fs::copy(dir.path().join("rep/runs.csv"), dir.path().join("bare.csv")).unwrap();
    let out = run_in(dir.path(), &["compare", "--from-csv", "bare.csv"], b"");
    assert_exit(&out, 0);
    assert!(
        stderr(&out).contains("no bare.meta.json"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("PAR-2: not defined"));
    let out = run_in(
        dir.path(),
        &["compare", "--from-csv", "bare.csv", "--timeout", "0.4"],
        b"",
    );
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("2 × the 0.4 s limit"));
}

#[test]
fn bad_saved_rows_and_report_directories_are_refused() {
    let dir = temp_dir();
    let four = fixture_path("thesis-4x4.txt");
    let out = run_in(
        dir.path(),
        &[
            "compare",
            "-q",
            &four,
            "--solvers",
            "dlx",
            "--csv",
            "runs.csv",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let text = std::fs::read_to_string(dir.path().join("runs.csv")).unwrap();
    std::fs::write(
        dir.path().join("bad.csv"),
        text.replace(",solved,", ",solvd,"),
    )
    .unwrap();
    let out = run_in(dir.path(), &["compare", "--from-csv", "bad.csv"], b"");
    assert_exit(&out, 2);
    assert!(
        stderr(&out).starts_with("sudosat: bad.csv:2:10: outcome: unknown outcome `solvd`")
            || stderr(&out).contains("bad.csv:2:10: outcome: unknown outcome `solvd`"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out).lines().count(), 1);

    // A directory holding other files is not replaced.
    std::fs::create_dir(dir.path().join("mine")).unwrap();
    std::fs::write(dir.path().join("mine/notes.txt"), "keep me").unwrap();
    let out = run_in(
        dir.path(),
        &["compare", "--from-csv", "runs.csv", "--report", "mine"],
        b"",
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("not a report directory"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mine/notes.txt")).unwrap(),
        "keep me"
    );
    // An `index.html` beside other files does not make a report either.
    std::fs::write(dir.path().join("mine/index.html"), "<html/>").unwrap();
    let out = run_in(
        dir.path(),
        &["compare", "--from-csv", "runs.csv", "--report", "mine"],
        b"",
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("notes.txt"), "{}", stderr(&out));
    assert!(dir.path().join("mine/notes.txt").is_file());
    // An earlier report is replaced whole.
    for _ in 0..2 {
        let out = run_in(
            dir.path(),
            &["compare", "--from-csv", "runs.csv", "--report", "rep"],
            b"",
        );
        assert_exit(&out, 0);
    }
    assert!(dir.path().join("rep/index.html").is_file());
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sudosat"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A scatter pair naming no entry stops before measuring.
    let out = run_in(
        dir.path(),
        &[
            "compare",
            &four,
            "--solvers",
            "dlx",
            "--scatter",
            "dlx,dpll",
            "--csv",
            "x.csv",
        ],
        b"",
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("no entry `dpll`"), "{}", stderr(&out));
    assert!(!dir.path().join("x.csv").exists());
}

/// Renders a report in headless Chromium and checks the DOM it built. Chromium is not
/// installed by `.ci/run` (it would cost CI minutes), so this test skips when it is
/// absent even under SUDOSAT_REQUIRE_EXTERNAL=1; the structural checks above always run.
#[test]
fn chromium_renders_the_report() {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::env::var_os("PATH")
                .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(b).is_file()))
        })
    else {
        eprintln!("skipped: no chromium on PATH (apt-get install chromium to run this test)");
        return;
    };
    let dir = temp_dir();
    let four = fixture_path("thesis-4x4.txt");
    let out = run_in(
        dir.path(),
        &[
            "compare",
            "-q",
            &four,
            "--solvers",
            "dpll,dlx",
            "--timeout",
            "5",
            "--report",
            "rep",
        ],
        b"",
    );
    assert_exit(&out, 0);
    let url = format!("file://{}", dir.path().join("rep/index.html").display());
    let rendered = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            &format!("--user-data-dir={}", dir.path().join("profile").display()),
            "--dump-dom",
            &url,
        ])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&rendered.stdout);
    assert!(
        rendered.status.success(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let page = Page::read(&dir.path().join("rep"));
    let svgs = figure_svgs(&page).len();
    assert_eq!(
        dom.matches("<svg").count(),
        svgs,
        "every inline SVG is in the DOM"
    );
    assert!(dom.contains("<table id=\"summary\">"), "{dom}");
    assert!(dom.contains("virtual-best"));
    assert!(dom.contains("dpll/extended+reduced"));
}

/// `--vary-seed`: repeat r runs with seed S + r − 1, so cdcl's repeats of one puzzle are
/// different searches to the same checked answer; without it they are one search. (With
/// `--root none`: the root reasoning answers every puzzle of expert-20 without a search.)
#[test]
fn vary_seed_turns_cdcl_repeats_into_draws() {
    let file = fixture("expert-20.txt");
    let file = file.to_str().unwrap();
    let decisions = |extra: &[&str]| -> Vec<Vec<u64>> {
        let mut args = vec![
            file,
            "--solvers",
            "cdcl",
            "--repeat",
            "3",
            "--seed",
            "5",
            "--root",
            "none",
        ];
        args.extend_from_slice(extra);
        let compared = compare(&args, 0);
        let runs = compared.runs();
        assert_eq!(runs.len(), 60);
        runs.chunks(3)
            .map(|repeats| {
                repeats
                    .iter()
                    .map(|r| {
                        assert_eq!(r["outcome"], "solved");
                        assert_eq!(r["checked"], true);
                        r["counters"]["decisions"].as_u64().expect("decisions")
                    })
                    .collect()
            })
            .collect()
    };
    let same = decisions(&[]);
    assert!(
        same.iter().all(|r| r.iter().all(|&d| d == r[0])),
        "{same:?}"
    );
    let drawn = decisions(&["--vary-seed"]);
    // Repeat 1 keeps seed 5; the others are seeds 6 and 7.
    assert!(drawn.iter().zip(&same).all(|(d, s)| d[0] == s[0]));
    let varied = drawn
        .iter()
        .filter(|r| r[1] != r[0] || r[2] != r[0])
        .count();
    assert!(
        varied >= 10,
        "only {varied} of 20 puzzles drew other searches"
    );
}

/// `--isomorphs`: repeats after the first solve random isomorphs, the same for every
/// entry, so even the deterministic DPLL draws other searches; every answer is checked.
#[test]
fn isomorphs_turn_any_solvers_repeats_into_draws() {
    let file = fixture("expert-20.txt");
    let file = file.to_str().unwrap();
    let args = [
        file,
        "--solvers",
        "dpll,dlx",
        "--repeat",
        "3",
        "--isomorphs",
        "--seed",
        "2",
    ];
    let compared = compare(&args, 0);
    let runs = compared.runs();
    assert_eq!(runs.len(), 120);
    for r in runs.iter() {
        assert_eq!(r["outcome"], "solved");
        assert_eq!(r["checked"], true);
    }
    let decisions: Vec<u64> = runs
        .iter()
        .filter(|r| r["solver"].as_str().unwrap().starts_with("dpll"))
        .map(|r| r["counters"]["decisions"].as_u64().unwrap())
        .collect();
    let varied = decisions
        .chunks(3)
        .filter(|r| r[1] != r[0] || r[2] != r[0])
        .count();
    assert!(
        varied >= 10,
        "only {varied} of 20 puzzles drew other searches"
    );
    // The same seed, the same copies: the DPLL repeats its decision counts exactly.
    let again: Vec<u64> = compare(&args, 0)
        .runs()
        .iter()
        .filter(|r| r["solver"].as_str().unwrap().starts_with("dpll"))
        .map(|r| r["counters"]["decisions"].as_u64().unwrap())
        .collect();
    assert_eq!(again, decisions);
}

#[cfg(unix)]
#[test]
fn strict_makes_a_failed_run_exit_1_and_names_it() {
    let dir = temp_dir();
    let crashing = crashing_solver(dir.path());
    let four = fixture_path("thesis-4x4.txt");
    let failing = format!("dpll,external:{}", crashing.display());
    // Without --strict a failure is a result: exit 0.
    let lenient = run_in(
        dir.path(),
        &["compare", "-q", &four, "--solvers", &failing],
        b"",
    );
    assert_exit(&lenient, 0);
    let strict = run_in(
        dir.path(),
        &["compare", "-q", &four, "--solvers", &failing, "--strict"],
        b"",
    );
    assert_exit(&strict, 1);
    let message = stderr(&strict);
    assert!(
        message.contains("1 of 2 runs failed (--strict)"),
        "{message}"
    );
    assert!(message.contains("crashing-solver"), "{message}");
    assert!(message.contains("exit status 3"), "{message}");
    // The summary is written all the same.
    assert!(stdout(&strict).contains("virtual-best"));
    // Nothing failed: --strict changes nothing.
    let fine = run_in(
        dir.path(),
        &["compare", "-q", &four, "--solvers", "dpll,dlx", "--strict"],
        b"",
    );
    assert_exit(&fine, 0);
}

/// Every SAT entry is tried on a 3-variable formula before the first run: one whose binary
/// is missing, whose flags are refused, or that answers wrongly stops the comparison with
/// exit 2 naming it, before anything is measured or written (`--strict` or not).
#[cfg(unix)]
#[test]
fn an_entry_that_cannot_run_is_refused_before_the_first_run() {
    let dir = temp_dir();
    let four = fixture_path("thesis-4x4.txt");
    let picky = common::write_script(
        dir.path(),
        "picky.sh",
        "#!/bin/sh\nif [ \"$1\" = --bogus ]; then echo 'unknown option --bogus' >&2; exit 1; fi\n\
         echo 's SATISFIABLE'\necho 'v 1 2 -3 0'\nexit 10\n",
    );
    let wrong_model = common::write_script(
        dir.path(),
        "wrong-model.sh",
        "#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 -2 -3 0'\nexit 10\n",
    );
    let says_unsat = common::write_script(
        dir.path(),
        "says-unsat.sh",
        "#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let cases = [
        (
            "external:nosuchsolver".to_string(),
            "entry `external:nosuchsolver/extended+reduced` cannot run",
            "could not be started",
        ),
        (
            format!("external:{} --bogus", picky.display()),
            "--bogus/extended+reduced` cannot run",
            "unknown option --bogus",
        ),
        (
            format!("external:{}", wrong_model.display()),
            "wrong-model.sh/extended+reduced` cannot run",
            "clause",
        ),
        (
            format!("external:{}", says_unsat.display()),
            "says-unsat.sh/extended+reduced` cannot run",
            "answered UNSAT for a satisfiable formula",
        ),
    ];
    for (entry, names, why) in &cases {
        for strict in [false, true] {
            let solvers = format!("dpll,{entry},dlx");
            let mut args = vec!["compare", "-q", &four, "--solvers", &solvers];
            args.extend(["--csv", "runs.csv", "--report", "report"]);
            if strict {
                args.push("--strict");
            }
            let out = run_in(dir.path(), &args, b"");
            assert_exit(&out, 2);
            let message = stderr(&out);
            assert!(message.contains(names), "{message}");
            assert!(message.contains(why), "{message}");
            assert_eq!(stdout(&out), "", "nothing measured");
            assert!(!dir.path().join("runs.csv").exists());
            assert!(!dir.path().join("report").exists());
        }
    }
    // The picky solver without its bad flag passes the check and solves the puzzle… as the
    // stand-in it is: its fixed model does not decode, a wrong answer, exit 1.
    let solvers = format!("dlx,external:{}", picky.display());
    let out = run_in(
        dir.path(),
        &["compare", "-q", &four, "--solvers", &solvers],
        b"",
    );
    assert_exit(&out, 1);
}

/// The three formulas of the CNF-mode tests, written into `dir`: a 9×9 puzzle as
/// `sudosat encode` exports it (satisfiable), the same gzipped with the reduction, and
/// pigeonhole 5 → 4 (unsatisfiable). Returns their paths and `p cnf` sizes.
fn three_formulas(dir: &Path) -> Vec<(String, usize, usize)> {
    let puzzle = fixture_lines(dir, "thesis-9x9.txt", &[1]);
    for (name, extra) in [("plain.cnf", None), ("reduced.cnf.gz", Some("--reduce"))] {
        let mut args = vec!["encode", puzzle.as_str(), "-o", name];
        args.extend(extra);
        assert_exit(&run_in(dir, &args, b""), 0);
    }
    std::fs::write(
        dir.join("php-5-4.cnf"),
        common::dimacs_text(&common::pigeonhole(5, 4)),
    )
    .unwrap();
    ["plain.cnf", "reduced.cnf.gz", "php-5-4.cnf"]
        .iter()
        .map(|name| {
            let path = dir.join(name);
            let input = sudosat::compression::open(&path).unwrap();
            let mut cnf = sudosat::Cnf::new();
            let report =
                sudosat::dimacs::parse_dimacs(input, name, &mut cnf, Default::default()).unwrap();
            let (vars, clauses) = report.declared;
            (path.to_str().unwrap().to_string(), vars, clauses)
        })
        .collect()
}

#[test]
fn formulas_are_compared_as_they_stand_and_every_backend_agrees() {
    let dir = temp_dir();
    let formulas = three_formulas(dir.path());
    let mut solvers: Vec<String> = embedded().iter().map(|s| s.to_string()).collect();
    if external_available("minisat") {
        solvers.push("minisat".to_string());
    }
    if external_available("cadical") {
        solvers.push("external:cadical -q".to_string());
    }
    let mut args: Vec<&str> = formulas.iter().map(|(p, _, _)| p.as_str()).collect();
    let list = solvers.join(",");
    args.extend(["--solvers", &list, "--timeout", "60", "--repeat", "2"]);
    let c = compare_in(dir.path(), &args, 0);
    assert_eq!(c.csv.len(), 3 * solvers.len() * 2);
    for row in &c.csv {
        let (_, vars, clauses) = formulas
            .iter()
            .find(|(p, _, _)| *p == row["file"])
            .expect("a row names its formula");
        assert_eq!(row["vars"], vars.to_string(), "{row:?}");
        assert_eq!(row["clauses"], clauses.to_string(), "{row:?}");
        assert_eq!((&*row["encoding"], &*row["size"]), ("", "0"), "{row:?}");
        assert!(
            solvers.contains(&row["solver"]),
            "labelled by backend: {row:?}"
        );
        let expected = if row["file"].ends_with("php-5-4.cnf") {
            ("no_solution", "false")
        } else {
            ("solved", "true")
        };
        assert_eq!((&*row["outcome"], &*row["checked"]), expected, "{row:?}");
    }
    let text = stdout(&c.out);
    assert!(
        text.starts_with(&format!(
            "sudosat compare: 3 formulas × {} entries × 2 repeats",
            solvers.len()
        )),
        "{text}"
    );
    for solver in ["cdcl", "varisat"] {
        let row = c.summary_row(solver);
        assert_eq!((&*row["solved"], &*row["no_solution"]), ("4", "2"));
    }
    assert!(
        text.contains("time against cdcl on the formulas both answered"),
        "{text}"
    );
    let ratios = c.json["ratios"].as_array().expect("ratios");
    assert_eq!(ratios.len(), solvers.len() - 1);
    assert!(ratios.iter().all(|r| r["common"] == 3), "{ratios:?}");
    assert_eq!(c.json["instance"], "formula");
    // The plot is the cactus alone, each entry's legend with its count of answers.
    let answered: Vec<String> = solvers.iter().map(|s| format!("{s} (3)")).collect();
    assert_legend_lists(&c, &answered);
    assert!(
        c.svg_texts.iter().any(|t| t == "formulas answered"),
        "{:?}",
        c.svg_texts
    );
}

#[cfg(unix)]
#[test]
fn a_solver_that_calls_a_satisfiable_formula_unsat_is_wrong_and_exits_1() {
    let dir = temp_dir();
    let formulas = three_formulas(dir.path());
    let liar = common::stand_in_solver(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\nexit 20");
    let entry = format!("cdcl,external:{}", liar.display());
    let c = compare_in(
        dir.path(),
        &[&formulas[0].0, &formulas[2].0, "--solvers", &entry],
        1,
    );
    let outcomes: Vec<(&str, &str)> = c
        .csv
        .iter()
        .map(|r| (r["solver"].as_str(), r["outcome"].as_str()))
        .collect();
    let liar_label = format!("external:{}", liar.display());
    assert_eq!(
        outcomes,
        [
            ("cdcl", "solved"),
            (liar_label.as_str(), "wrong"),
            ("cdcl", "no_solution"),
            (liar_label.as_str(), "no_solution"),
        ]
    );
}

#[test]
fn puzzle_flags_classic_solvers_and_bad_formulas_are_refused_on_formulas() {
    let dir = temp_dir();
    let formulas = three_formulas(dir.path());
    std::fs::write(dir.path().join("bad.cnf"), "p cnf 3 2\n1 -2 0\n4 x 0\n").unwrap();
    let plain = formulas[0].0.as_str();
    let cases: [(&[&str], &str); 8] = [
        (
            &[plain, "--encodings", "minimal"],
            "--encodings is about puzzles",
        ),
        (
            &[plain, "--solvers", "cdcl[propagate=grid]"],
            "`propagate` is about puzzles",
        ),
        (
            &[plain, "--solvers", "cdcl[root=hall]"],
            "`root` is about puzzles",
        ),
        (&[plain, "--by", "size"], "--by is about puzzles"),
        (
            &[plain, "--solvers", "cdcl,dlx"],
            "a classic solver needs a puzzle",
        ),
        (
            &["--cnf", "-", "--isomorphs"],
            "--isomorphs is about puzzles",
        ),
        (&["bad.cnf"], "bad.cnf:3:"),
        (&["missing.cnf"], "missing.cnf: cannot open"),
    ];
    for (args, message) in cases {
        assert_refused(dir.path(), args, message);
    }
}

#[test]
fn the_cnf_flag_reads_formulas_from_standard_input() {
    let text = common::dimacs_text(&common::pigeonhole(4, 3));
    let dir = temp_dir();
    let out = run_in(
        dir.path(),
        &[
            "compare",
            "-q",
            "--cnf",
            "--solvers",
            "cdcl,dpll",
            "--csv",
            "-",
        ],
        text.as_bytes(),
    );
    assert_exit(&out, 0);
    let csv = stdout(&out);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|r| r.contains(",no_solution,")), "{rows:?}");
    assert!(
        stderr(&out).contains("1 formula × 2 entries × 1 repeat = 2 runs"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_directory_gives_its_dimacs_files_in_name_order() {
    let dir = temp_dir();
    three_formulas(dir.path());
    let out = run_in(
        dir.path(),
        &["compare", "-q", ".", "--solvers", "cdcl", "--csv", "-"],
        b"",
    );
    assert_exit(&out, 0);
    let csv = stdout(&out);
    let files: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|row| row.split(',').next().unwrap())
        .collect();
    // The puzzle file `encode` read sits beside them and is left out.
    assert_eq!(files, ["./php-5-4.cnf", "./plain.cnf", "./reduced.cnf.gz"]);
    assert_refused(temp_dir().path(), &["-q", "."], ".: no DIMACS files in it");
}

#[test]
fn the_report_on_formulas_names_them_and_sets_entries_against_the_first() {
    let dir = temp_dir();
    let formulas = three_formulas(dir.path());
    let mut args = vec!["compare", "-q"];
    args.extend(formulas.iter().map(|(p, _, _)| p.as_str()));
    args.extend(["--solvers", "dpll,cdcl", "--report", "rep"]);
    assert_exit(&run_in(dir.path(), &args, b""), 0);
    let page = Page::read(&dir.path().join("rep"));
    let doc = page.doc();
    let h1 = doc
        .descendants()
        .find(|n| n.has_tag_name("h1"))
        .and_then(|n| n.text())
        .expect("a title");
    assert_eq!(h1, "sudosat compare: 3 formulas × 2 entries");
    let ratios = page.table("ratios");
    assert_eq!(ratios.len(), 1);
    assert_eq!(
        (&*ratios[0]["solver"], &*ratios[0]["common"]),
        ("cdcl", "3")
    );
    // No clues, size or encoding to plot by: the cactus and the scatter only.
    let figures: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("figure"))
        .filter_map(|n| n.attribute("id").or(n.attribute("class")))
        .collect();
    assert_eq!(figures, ["cactus", "scatter-plot"]);
    let slowest = page.table("slowest-puzzles");
    assert_eq!(
        slowest.len(),
        9,
        "3 formulas for the virtual best and each entry"
    );
    assert!(slowest
        .iter()
        .all(|r| r["file"].ends_with(".cnf") || r["file"].ends_with(".gz")));
    // The instance table: each formula's size from its `p cnf` line, each entry's time
    // (pigeonhole 5 → 4 is UNSAT: an answer, timed too).
    let per_formula = page.table("per-instance");
    assert_eq!(per_formula.len(), 3);
    for (row, (path, vars, clauses)) in per_formula.iter().zip(&formulas) {
        assert_eq!(&row["formula"], path);
        assert_eq!(
            (
                row["vars"].parse::<usize>(),
                row["clauses"].parse::<usize>()
            ),
            (Ok(*vars), Ok(*clauses))
        );
        for entry in ["dpll", "cdcl"] {
            assert!(row[entry].parse::<f64>().is_ok(), "{entry}: {row:?}");
        }
    }
}

#[test]
fn entry_options_set_one_backend_against_itself_and_show_in_every_output() {
    let dir = temp_dir();
    let c = compare_in(
        dir.path(),
        &[
            &fixture_path("thesis-9x9.txt"),
            "--solvers",
            "cdcl,cdcl[propagate=grid,root=none],cdcl[threads=2,seed=5],dlx",
            "--root",
            "hall",
            "--jobs",
            "2",
            "--report",
            "report",
            "--scatter",
            "cdcl/extended+reduced,cdcl[propagate=grid,root=none]/extended+reduced",
        ],
        0,
    );
    let expected = [
        "cdcl/extended+reduced",
        "cdcl[propagate=grid,root=none]/extended+reduced",
        "cdcl[seed=5,threads=2]/extended+reduced",
        "dlx",
    ];
    assert_eq!(labels(&c.json), expected);
    // Every puzzle is solved and checked by every entry; the rows name their entry.
    for label in expected {
        let rows: Vec<_> = c.csv.iter().filter(|r| r["solver"] == label).collect();
        assert_eq!(rows.len(), 9, "{label}");
        assert!(rows
            .iter()
            .all(|r| r["outcome"] == "solved" && r["checked"] == "true"));
    }
    let backends: Vec<&str> = c
        .csv
        .iter()
        .take(4)
        .map(|r| r["backend"].as_str())
        .collect();
    assert_eq!(
        backends,
        [
            "cdcl",
            "cdcl[propagate=grid,root=none]",
            "cdcl[seed=5,threads=2]",
            "",
        ]
    );
    // The study-wide --root hall reaches the entries that give no root of their own: its
    // counters are there, and not in the entry with root=none.
    let counters =
        |label: &str| c.csv.iter().find(|r| r["solver"] == label).unwrap()["counters"].clone();
    assert!(
        counters(expected[0]).contains("root_us="),
        "{}",
        counters(expected[0])
    );
    assert!(
        !counters(expected[1]).contains("root_us="),
        "{}",
        counters(expected[1])
    );
    // The sizes of the formula each entry solved sit beside the puzzle's own: smaller
    // after the fixpoint, the same without it; the summary's table lists the former only.
    let column = |r: &HashMap<String, String>, name: &str| -> usize { r[name].parse().unwrap() };
    for (label, reasoned) in [(expected[0], true), (expected[1], false)] {
        let rows: Vec<_> = c.csv.iter().filter(|r| r["solver"] == label).collect();
        let smaller = |r: &&HashMap<String, String>| {
            column(r, "clauses") < column(r, "puzzle_clauses")
                && column(r, "literals") < column(r, "puzzle_literals")
        };
        let same = |r: &&HashMap<String, String>| {
            column(r, "clauses") == column(r, "puzzle_clauses")
                && column(r, "literals") == column(r, "puzzle_literals")
        };
        assert!(rows.iter().all(|r| smaller(r) || same(r)), "{label}");
        assert_eq!(rows.iter().any(smaller), reasoned, "{label}");
    }
    let summary = stdout(&c.out);
    let table = summary
        .split("formulas solved after reasoning on the grid")
        .nth(1)
        .expect("the table of the formulas solved");
    let table = table.split("\n\n").next().unwrap();
    assert!(table.contains(&format!("\n{} ", expected[0])), "{table}");
    assert!(!table.contains(expected[1]), "{table}");
    // The grid theory ran in the entry that asked for it.
    assert!(c
        .csv
        .iter()
        .filter(|r| r["solver"] == expected[1])
        .any(|r| r["counters"].contains("explanations=")
            || r["counters"].contains("locked_removals=")));
    // The threaded entry ran one solve at a time, and every output says so.
    let header = stdout(&c.out).lines().next().unwrap().to_string();
    assert!(
        header.contains(
            "one solve at a time, whatever --jobs, for cdcl[seed=5,threads=2]/extended+reduced on 2 threads"
        ),
        "{header}"
    );
    assert_eq!(c.json["threaded"][0]["threads"], 2);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("runs.meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["solvers"], c.json["solvers"]);
    assert_eq!(meta["threaded"][0]["entry"], expected[2]);
    assert_legend_lists(&c, &expected.map(String::from));
    // The default scatter pairs set the default entry against each configuration of it.
    let page = Page::read(&dir.path().join("report"));
    assert!(page.text.contains("one solve at a time, whatever --jobs"));
    assert!(page
        .text
        .contains("Formulas solved after reasoning on the grid"));
    // The scatter pair given, its labels split at the comma outside the bracket: one
    // point per puzzle both entries solved.
    let scatters: Vec<(String, String)> = figure_svgs(&page)
        .into_iter()
        .filter(|(id, _)| id.starts_with("scatter:"))
        .collect();
    assert_eq!(
        scatters.len(),
        1,
        "{:?}",
        scatters.iter().map(|s| &s.0).collect::<Vec<_>>()
    );
    assert_eq!(
        scatters[0].0,
        format!("scatter:{},{}", expected[0], expected[1])
    );
    assert_eq!(count_tags(&scatters[0].1, "circle"), 9);
    // Redrawn from the CSV, the note and the labels stay.
    let redrawn = run_in(dir.path(), &["compare", "--from-csv", "runs.csv"], b"");
    assert_exit(&redrawn, 0);
    assert_eq!(stdout(&redrawn).lines().next().unwrap(), header);
    // A classic solver takes its own seed: the same seed, the same search.
    let hill = |seed: &str| {
        let c = compare(
            &[
                &fixture_path("thesis-4x4.txt"),
                "--solvers",
                &format!("hill[seed={seed}]"),
                "--seed",
                "1",
            ],
            0,
        );
        assert_eq!(labels(&c.json), [format!("hill[seed={seed}]")]);
        assert_eq!(c.csv[0]["outcome"], "solved");
        c.csv[0]["counters"].clone()
    };
    assert_eq!(hill("3"), hill("3"));
}

#[test]
fn an_entry_option_changes_the_study_id() {
    let dir = temp_dir();
    let four = fixture_path("thesis-4x4.txt");
    let study = |solvers: &str, csv: &str| {
        let out = run_in(
            dir.path(),
            &[
                "compare",
                "-q",
                &four,
                "--solvers",
                solvers,
                "--shard",
                "1/1",
                "--csv",
                csv,
            ],
            b"",
        );
        assert_exit(&out, 0);
        let meta: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(csv.replace(".csv", ".meta.json"))).unwrap(),
        )
        .unwrap();
        meta["provenance"]["study"]["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let plain = study("cdcl", "a.csv");
    assert_eq!(plain, study("cdcl", "b.csv"));
    assert_ne!(plain, study("cdcl[lookahead=none]", "c.csv"));
    assert_ne!(
        plain,
        study("cdcl[seed=0]", "d.csv"),
        "an option given is part of the study"
    );
}

#[test]
fn bad_entry_options_exit_2_with_a_clear_message_and_write_nothing() {
    let four = fixture_path("thesis-4x4.txt");
    let cases: [(&[&str], &str); 9] = [
        (
            &[&four, "--solvers", "cdcl[speed=2]"],
            "--solvers `cdcl[speed=2]`: unknown entry option `speed` (expected one of: \
             propagate, root, lookahead, seed, threads, encoding, amo)",
        ),
        (
            &[&four, "--solvers", "dlx[root=none]"],
            "`root` is not an option of `dlx`: a classic solver works on the grid itself and \
             takes only seed",
        ),
        (
            &[&four, "--solvers", "cdcl[propagate=fast]"],
            "unknown propagation `fast`",
        ),
        (
            &[&four, "--solvers", "varisat[propagate=grid]"],
            "`propagate` is not an option of `varisat`: it takes no propagator",
        ),
        (
            &[&four, "--solvers", "cdcl[threads=0]"],
            "expected a whole number from 1 to 256",
        ),
        (
            &[&four, "--solvers", "cdcl[seed]"],
            "needs a value: `seed=VALUE`",
        ),
        (
            &[&four, "--solvers", "cdcl[seed=1,seed=2]"],
            "entry option `seed` is given twice",
        ),
        (
            &[&four, "--solvers", "cdcl[seed=1"],
            "an entry's options go in one bracket right after its name",
        ),
        (
            &[
                &four,
                "--solvers",
                "cdcl[encoding=minimal],cdcl",
                "--encodings",
                "minimal",
            ],
            "entries 1 and 2 are both labelled `cdcl/minimal`",
        ),
    ];
    for (args, message) in cases {
        assert_refused(temp_dir().path(), args, message);
    }
}

/// `--isolate` runs each embedded entry as `sudosat sat --backend NAME` in a child
/// process: its label names that command, its answers are checked as any entry's, and the
/// summary and the JSON say what each entry's time measures, a process or the work in
/// this one. The sidecar lists the solver libraries built in, with their versions.
#[test]
fn isolated_entries_run_in_child_processes_and_each_time_says_what_it_measures() {
    let dir = temp_dir();
    let four = fixture_path("thesis-4x4.txt");
    let c = compare_in(
        dir.path(),
        &[
            &four,
            "--solvers",
            "cdcl,dlx",
            "--isolate",
            "--timeout",
            "60",
        ],
        0,
    );
    let labels = labels(&c.json);
    assert_eq!(labels.len(), 2, "{labels:?}");
    let isolated = &labels[0];
    assert!(
        isolated.starts_with("external:") && isolated.contains(" sat --backend cdcl --threads 1"),
        "{isolated}"
    );
    assert_eq!(labels[1], "dlx");
    assert_all_solved_with_sizes(&c.csv);
    let measured: Vec<(String, String)> = c.json["measured"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let field = |name: &str| m[name].as_str().unwrap().to_string();
            (field("solver"), field("measured"))
        })
        .collect();
    assert_eq!(measured.len(), 2);
    assert_eq!(&measured[0].0, isolated);
    assert!(measured[0].1.contains("a solver process"), "{measured:?}");
    assert!(measured[1].1.starts_with("in process"), "{measured:?}");
    let text = stdout(&c.out);
    assert!(text.contains("what each entry's time measures:"), "{text}");

    // Not isolated, the same entry is timed in process; the sidecar names the libraries.
    let c = compare_in(
        dir.path(),
        &[&four, "--solvers", "cdcl", "--timeout", "60"],
        0,
    );
    assert!(c.json["measured"][0]["measured"]
        .as_str()
        .unwrap()
        .starts_with("in process: encoding, loading"));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("runs.meta.json")).unwrap())
            .unwrap();
    let solvers: Vec<&str> = meta["provenance"]["embedded_solvers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(solvers, sudosat::backend::embedded_libraries());
    assert!(solvers.contains(&"varisat-0.2") && solvers.contains(&"splr-0.17"));
    if sudosat::backend::BackendKind::Cadical.is_built() {
        assert!(solvers.contains(&"cadical-3.0.1"), "{solvers:?}");
    }
}
