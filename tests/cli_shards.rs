//! CLI tests of sharded studies, running the real binary on shipped fixtures: `compare
//! --shard K/N` makes its share of the runs, and `compare --from-csv` merges the shards into
//! the same runs as one unsharded comparison, or refuses (one line, exit 2, nothing
//! written) shards of different studies, a shard given twice, and missing or stopped ones.

mod common;

use std::path::Path;
use std::process::Output;

use common::{assert_exit, path, run_in, stderr, stdout, temp_dir};

/// The study of these tests: 10 small 9×9 puzzles, two entries, two repeats (40 runs), far
/// from any time limit.
fn study_args() -> Vec<String> {
    [
        "compare",
        "-q",
        "--solvers",
        "dpll,dlx",
        "--repeat",
        "2",
        "--timeout",
        "60",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([path("debian-medium.txt"), path("thesis-9x9.txt")])
    .collect()
}

fn sudosat(dir: &Path, args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_in(dir, &args, b"")
}

/// Runs shard K/3 of the study into `sK.csv` (with its sidecar) for each K of `shards`.
fn run_shards(dir: &Path, shards: &[usize], extra: &[&str]) {
    for k in shards {
        let mut args = study_args();
        args.extend(["--shard".to_string(), format!("{k}/3")]);
        args.extend(["--csv".to_string(), format!("s{k}.csv")]);
        args.extend(extra.iter().map(|s| s.to_string()));
        assert_exit(&sudosat(dir, &args), 0);
    }
}

/// `compare --from-csv FILES… ARGS` in `dir`.
fn merge(dir: &Path, files: &[&str], args: &[&str]) -> Output {
    let mut all = vec!["compare".to_string(), "--from-csv".to_string()];
    all.extend(files.iter().map(|s| s.to_string()));
    all.extend(args.iter().map(|s| s.to_string()));
    sudosat(dir, &all)
}

fn json(dir: &Path, name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(name)).expect("the JSON output");
    serde_json::from_str(&text).expect("valid JSON")
}

/// What must agree between a merged and an unsharded comparison: each run's instance,
/// entry, repeat, outcome, check and formula size (times aside).
fn run_keys(doc: &serde_json::Value) -> Vec<String> {
    doc["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|r| {
            format!(
                "{}:{} {} #{} {} checked={} clauses={}",
                r["puzzle_index"],
                r["line"],
                r["solver"],
                r["repeat"],
                r["outcome"],
                r["checked"],
                r["clauses"]
            )
        })
        .collect()
}

/// Each entry's outcome counts in the summary.
fn solved_counts(doc: &serde_json::Value) -> Vec<String> {
    doc["summary"]
        .as_array()
        .expect("summary")
        .iter()
        .map(|s| {
            format!(
                "{} runs={} solved={} no_solution={} failed={} wrong={}",
                s["solver"], s["runs"], s["solved"], s["no_solution"], s["failed"], s["wrong"]
            )
        })
        .collect()
}

/// Asserts a refused merge: exit 2, one line naming `names`, no output written.
fn assert_refused(dir: &Path, out: &Output, names: &[&str], says: &str) {
    assert_exit(out, 2);
    let err = stderr(out);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for name in names {
        assert!(err.contains(name), "names {name}: {err}");
    }
    assert!(err.contains(says), "says `{says}`: {err}");
    assert!(!dir.join("merged.json").exists(), "nothing written");
    assert!(!dir.join("report").exists(), "nothing written");
}

#[test]
fn three_shards_merge_into_the_runs_of_one_unsharded_comparison() {
    let dir = temp_dir();
    let mut whole = study_args();
    whole.extend(["--json", "whole.json"].map(String::from));
    assert_exit(&sudosat(dir.path(), &whole), 0);
    run_shards(dir.path(), &[1, 2, 3], &[]);
    // 40 runs dealt round-robin: 14, 13, 13; each entry's 20 runs 7, 7, 6 or so.
    let rows: Vec<usize> = (1..=3)
        .map(|k| {
            let text = std::fs::read_to_string(dir.path().join(format!("s{k}.csv"))).unwrap();
            text.lines().count() - 1
        })
        .collect();
    assert_eq!(rows, [14, 13, 13]);
    let sidecar = json(dir.path(), "s2.meta.json");
    let study = &sidecar["provenance"]["study"];
    assert_eq!(study["shard"], "2/3");
    assert_eq!(study["runs"], 13);
    assert_eq!(study["id"].as_str().unwrap().len(), 16);
    assert_eq!(study["instances"].as_array().unwrap().len(), 10);
    assert!(study["host"].as_str().is_some_and(|h| !h.is_empty()));

    let out = merge(
        dir.path(),
        &["s3.csv", "s1.csv", "s2.csv"],
        &["--json", "merged.json", "--report", "report"],
    );
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(
        text.starts_with("merged: 3 of 3 shards of study "),
        "{text}"
    );
    assert!(!text.contains("missing"), "{text}");
    assert!(!text.contains("mixed hosts"), "{text}");
    let (whole, merged) = (
        json(dir.path(), "whole.json"),
        json(dir.path(), "merged.json"),
    );
    assert_eq!(run_keys(&merged), run_keys(&whole));
    assert_eq!(run_keys(&merged).len(), 40);
    assert_eq!(solved_counts(&merged), solved_counts(&whole));
    assert_eq!(
        solved_counts(&merged),
        [
            "\"dpll/extended+reduced\" runs=20 solved=20 no_solution=0 failed=0 wrong=0",
            "\"dlx\" runs=20 solved=20 no_solution=0 failed=0 wrong=0"
        ]
    );
    let provenance = &merged["provenance"]["merged"];
    assert_eq!(provenance["count"], 3);
    assert_eq!(provenance["shards"].as_array().unwrap().len(), 3);
    assert_eq!(provenance["missing"].as_array().unwrap().len(), 0);
    assert_eq!(merged["interrupted"], false);
    // A directory of the shards' CSVs merges the same.
    let shards = dir.path().join("shards");
    std::fs::create_dir(&shards).unwrap();
    for k in 1..=3 {
        for name in [format!("s{k}.csv"), format!("s{k}.meta.json")] {
            std::fs::copy(dir.path().join(&name), shards.join(&name)).unwrap();
        }
    }
    let out = merge(dir.path(), &["shards"], &["--json", "dir.json"]);
    assert_exit(&out, 0);
    assert_eq!(run_keys(&json(dir.path(), "dir.json")), run_keys(&whole));
}

#[test]
fn shards_of_different_studies_are_refused() {
    let dir = temp_dir();
    run_shards(dir.path(), &[1], &[]);
    // Shards 2 and 3 of another study: another seed.
    for k in [2, 3] {
        let mut args = study_args();
        args.extend(
            [
                "--seed",
                "7",
                "--shard",
                &format!("{k}/3"),
                "--csv",
                &format!("s{k}.csv"),
            ]
            .map(String::from),
        );
        assert_exit(&sudosat(dir.path(), &args), 0);
    }
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv", "s3.csv"],
        &["--json", "merged.json"],
    );
    assert_refused(dir.path(), &out, &["s1.csv", "s2.csv"], "different studies");
}

#[test]
fn a_shard_given_twice_is_refused() {
    let dir = temp_dir();
    run_shards(dir.path(), &[1, 2, 3], &[]);
    for (from, to) in [("s2.csv", "again.csv"), ("s2.meta.json", "again.meta.json")] {
        std::fs::copy(dir.path().join(from), dir.path().join(to)).unwrap();
    }
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv", "s3.csv", "again.csv"],
        &["--json", "merged.json"],
    );
    assert_refused(
        dir.path(),
        &out,
        &["s2.csv", "again.csv"],
        "shard 2/3 is given twice",
    );
}

#[test]
fn missing_and_stopped_shards_are_refused_unless_allowed() {
    let dir = temp_dir();
    run_shards(dir.path(), &[1, 2, 3], &[]);
    let out = merge(
        dir.path(),
        &["s1.csv", "s3.csv"],
        &["--json", "merged.json", "--report", "report"],
    );
    assert_refused(
        dir.path(),
        &out,
        &["s1.csv", "s3.csv"],
        "missing shard 2/3 (no file)",
    );

    // Shard 2 stopped by a scheduler's limit: as Ctrl-C leaves it, marked interrupted
    // with the rows made so far (12 of its 13).
    let csv = dir.path().join("s2.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let kept: Vec<&str> = text.lines().take(13).collect();
    std::fs::write(&csv, kept.join("\n") + "\n").unwrap();
    let sidecar = dir.path().join("s2.meta.json");
    let meta = std::fs::read_to_string(&sidecar).unwrap();
    assert!(meta.contains("\"interrupted\": false"), "{meta}");
    std::fs::write(
        &sidecar,
        meta.replace("\"interrupted\": false", "\"interrupted\": true"),
    )
    .unwrap();
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv", "s3.csv"],
        &["--json", "merged.json", "--report", "report"],
    );
    assert_refused(
        dir.path(),
        &out,
        &["s1.csv", "s2.csv", "s3.csv"],
        "missing shard 2/3 (s2.csv stopped after 12 of its 13 runs)",
    );

    // --allow-missing merges shards 1 and 3 and says on the page and in the summary that
    // shard 2 is missing.
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv", "s3.csv"],
        &[
            "--allow-missing",
            "--json",
            "merged.json",
            "--report",
            "report",
        ],
    );
    assert_exit(&out, 0);
    let said = "missing shards (--allow-missing): 2/3 (s2.csv stopped after 12 of its 13 runs)";
    let text = stdout(&out);
    assert!(
        text.starts_with("merged: 2 of 3 shards of study "),
        "{text}"
    );
    assert!(text.contains(said), "{text}");
    let merged = json(dir.path(), "merged.json");
    assert_eq!(merged["runs"].as_array().unwrap().len(), 14 + 13);
    let missing = &merged["provenance"]["merged"]["missing"];
    assert_eq!(missing[0]["shard"], 2);
    assert_eq!(missing.as_array().unwrap().len(), 1);
    let page = std::fs::read_to_string(dir.path().join("report/index.html")).unwrap();
    assert!(page.contains("<h3 id=\"shards\">Shards</h3>"), "{page}");
    assert!(
        page.contains("missing shards (--allow-missing): 2/3 (s2.csv stopped"),
        "{page}"
    );
}

#[test]
fn a_merge_of_several_hosts_says_so_per_host() {
    let dir = temp_dir();
    run_shards(dir.path(), &[1, 2, 3], &[]);
    let sidecar = dir.path().join("s2.meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sidecar).unwrap()).unwrap();
    let host = meta["provenance"]["study"]["host"]
        .as_str()
        .unwrap()
        .to_string();
    meta["provenance"]["study"]["host"] = "node-b".into();
    meta["provenance"]["study"]["cpu"] = "Other CPU".into();
    std::fs::write(&sidecar, serde_json::to_string(&meta).unwrap()).unwrap();
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv", "s3.csv"],
        &["--report", "report"],
    );
    assert_exit(&out, 0);
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("mixed hosts"))
        .unwrap_or_else(|| panic!("a mixed-hosts line:\n{text}"));
    assert!(
        line.contains(&format!("{host} (")) && line.contains(": shards 1, 3 (27 runs)"),
        "{line}"
    );
    assert!(
        line.contains("node-b (Other CPU): shard 2 (13 runs)"),
        "{line}"
    );
    let page = std::fs::read_to_string(dir.path().join("report/index.html")).unwrap();
    assert!(
        page.contains("<tr><td>node-b</td><td>Other CPU</td><td>2</td><td>13</td></tr>"),
        "{page}"
    );
}

#[test]
fn bad_shards_are_refused_before_anything_runs() {
    let dir = temp_dir();
    for bad in ["0/3", "4/3", "2", "x/y"] {
        let mut args = study_args();
        args.extend(["--shard", bad, "--csv", "s.csv"].map(String::from));
        let out = sudosat(dir.path(), &args);
        assert_exit(&out, 2);
        assert!(
            stderr(&out).contains(&format!("--shard `{bad}`")),
            "{}",
            stderr(&out)
        );
        assert!(!dir.path().join("s.csv").exists());
    }
    // A shard whose runs go nowhere a merge can read them is refused.
    let mut args = study_args();
    args.extend(["--shard", "1/3", "--csv", "-"].map(String::from));
    let out = sudosat(dir.path(), &args);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--shard 1/3: its runs are for a later merge"));
    // CSVs without a study (no sidecar) cannot be merged with others.
    run_shards(dir.path(), &[1, 2], &[]);
    std::fs::remove_file(dir.path().join("s2.meta.json")).unwrap();
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv"],
        &["--json", "merged.json"],
    );
    assert_refused(dir.path(), &out, &["s2.csv"], "no sidecar");
}

#[cfg(unix)]
#[test]
fn an_external_solvers_version_is_part_of_the_study() {
    let dir = temp_dir();
    let solver = |version: &str| {
        common::stand_in_solver(
            dir.path(),
            "solver",
            &format!(
                "if [ \"$1\" = --version ]; then echo 'solver {version}'; exit 0; fi\n\
                 echo 's UNKNOWN'"
            ),
        )
    };
    let entry = format!("external:{}", solver("1.0").display());
    let shard = |k: usize| -> Vec<String> {
        [
            "compare",
            "-q",
            "--solvers",
            &entry,
            "--shard",
            &format!("{k}/2"),
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            path("sudoku-4-1.txt"),
            "--csv".to_string(),
            format!("s{k}.csv"),
        ])
        .collect()
    };
    assert_exit(&sudosat(dir.path(), &shard(1)), 0);
    let id = json(dir.path(), "s1.meta.json")["provenance"]["study"]["id"].clone();
    // The same command, upgraded between the shards: another study.
    solver("1.1");
    assert_exit(&sudosat(dir.path(), &shard(2)), 0);
    assert_ne!(
        json(dir.path(), "s2.meta.json")["provenance"]["study"]["id"],
        id
    );
    let out = merge(
        dir.path(),
        &["s1.csv", "s2.csv"],
        &["--json", "merged.json"],
    );
    assert_refused(dir.path(), &out, &["s1.csv", "s2.csv"], "different studies");
}
