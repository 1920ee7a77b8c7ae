//! The main rows of `sudosat compare` as criterion benchmarks: each entry (an embedded
//! backend × encoding, or a classic solver) solving a whole puzzle set through the compare
//! harness ([`sudosat::compare::run`]: solve, check, record), reported per puzzle.
//!
//! Sets: the thesis grids and the 40 minimal puzzles of the fixtures, the first 100
//! of `benches/data/9x9/minimal-2k.txt` and the first 20 of `expert-375.txt` (or of the
//! same files under `$SUDOSAT_DATA`).
//!
//! The `report` group times what happens after the measuring, on the runs of the
//! minimal-40 set: the [`Analysis`] (summaries, PAR-2, virtual best) and the whole HTML
//! page with its plots.
//!
//! Run: `cargo bench --bench compare` (filter with e.g. `-- thesis/dlx` or `-- report`).

#[path = "common/data.rs"]
mod data;

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use sudosat::compare::output::Provenance;
use sudosat::compare::report::{render_html, ReportOptions};
use sudosat::compare::summary::Analysis;
use sudosat::compare::{self, CompareConfig, Entry, GroupBy, Outcome, Puzzle};
use sudosat::grid::read_located_from_path;

/// The entries benchmarked: the embedded backends with the encodings compare is usually
/// run with (plain minimal is left to `benches/backends.rs`), and the complete classic
/// solvers (plain row/column backtracking and hill climbing stall on the sparsest puzzles).
const SOLVERS: &str = "embedded,dlx,backtrack-mrv,human,best-first";
const ENCODINGS: &str = "extended,minimal+reduced,extended+reduced";

fn load(path: &Path, limit: usize) -> Vec<Puzzle> {
    let mut located = read_located_from_path(path, None).expect("puzzle file parses");
    located.truncate(limit);
    located
        .into_iter()
        .map(|p| Puzzle {
            file: path.display().to_string(),
            line: p.line,
            grid: p.grid,
        })
        .collect()
}

fn sets() -> Vec<(&'static str, Vec<Puzzle>)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut sets = vec![
        ("thesis", load(&fixtures.join("thesis-9x9.txt"), 9)),
        ("minimal-40", load(&fixtures.join("minimal-40.txt"), 40)),
    ];
    match data::data_dir() {
        Some(dir) => {
            sets.push(("minimal-2k", load(&dir.join("9x9/minimal-2k.txt"), 100)));
            sets.push(("expert-375", load(&dir.join("9x9/expert-375.txt"), 20)));
        }
        None => eprintln!("no benches/data (set SUDOSAT_DATA): the fixtures only"),
    }
    sets
}

/// Runs `entry` on every puzzle once through the harness; every answer must be checked.
fn run_entry(entry: &Entry, puzzles: &[Puzzle]) {
    let config = CompareConfig::new(vec![entry.clone()]);
    let result = compare::run(puzzles, &config, &AtomicBool::new(false), &|_| {})
        .expect("a valid configuration");
    if let Some(bad) = result.runs.iter().find(|r| r.outcome != Outcome::Solved) {
        panic!(
            "{} on {}:{}: {}",
            bad.solver, bad.file, bad.line, bad.outcome
        );
    }
}

fn compare_rows(c: &mut Criterion) {
    let entries = compare::entries(
        &compare::parse_solvers(SOLVERS).expect("known solvers"),
        &compare::parse_encodings(ENCODINGS).expect("known encodings"),
        &Default::default(),
    )
    .unwrap();
    for (label, puzzles) in sets() {
        let mut group = c.benchmark_group(format!("compare/{label}"));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        // A set takes up to a second per iteration (human strategies on hard puzzles):
        // flat sampling keeps that to ten iterations.
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(300));
        group.measurement_time(Duration::from_secs(2));
        for entry in &entries {
            group.bench_function(entry.label(), |b| b.iter(|| run_entry(entry, &puzzles)));
        }
        group.finish();
    }
}

fn report(c: &mut Criterion) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let puzzles = load(&fixtures.join("minimal-40.txt"), 40);
    let entries = compare::entries(
        &compare::parse_solvers("embedded,dlx").expect("known solvers"),
        &compare::parse_encodings("minimal,extended+reduced").expect("known encodings"),
        &Default::default(),
    )
    .unwrap();
    let mut config = CompareConfig::new(entries);
    config.timeout = Some(Duration::from_secs(10));
    let comparison = compare::run(&puzzles, &config, &AtomicBool::new(false), &|_| {})
        .expect("a valid configuration");
    let analysis = Analysis::new(&comparison, Some(GroupBy::Clues));
    let options = ReportOptions {
        provenance: Provenance::here(vec!["bench".to_string()]),
        scatter: sudosat::compare::plot::default_pairs(&comparison, "dpll/extended+reduced"),
        times_by: GroupBy::Clues,
    };
    let mut group = c.benchmark_group("report/minimal-40");
    group.sample_size(20);
    group.bench_function("analysis", |b| {
        b.iter(|| Analysis::new(&comparison, Some(GroupBy::Clues)))
    });
    group.bench_function("html", |b| {
        b.iter(|| render_html(&comparison, &analysis, &options).expect("the page renders"))
    });
    group.finish();
}

criterion_group!(benches, compare_rows, report);
criterion_main!(benches);
