//! The classic solvers on the shared benchmark sets in one run: µs per puzzle (mean and
//! median), the ratio to Dancing Links on the same puzzles, and mean counters. Prints the
//! Markdown table (the figures behind docs/history.md, "Classic solvers").
//!
//! Run: `cargo run --release --example bench_classic [-- DATA_DIR]`. The data folder
//! defaults to `benches/data` (or `$SUDOSAT_DATA`); for a set not there the fixtures stand in.
//!
//! Each solve has a time limit ([`LIMIT`]); a time-out counts as the limit, so a mean or
//! median reached with time-outs is a lower bound and printed with `≥`. Methods that take
//! a tenth of a second or more per puzzle of the sparse 9×9 set (measured on 17-clue
//! puzzles) run on a prefix of the minimal set ([`prefix`]); their ratio compares with DLX on the same prefix. Every grid is checked
//! against the rules and the givens and compared with DLX's (the sets have unique
//! solutions).

#[path = "../benches/common/classic_sets.rs"]
mod classic_sets;
#[path = "../benches/common/data.rs"]
mod data;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudosat::grid::check_solution;
use sudosat::solve::{classic_solver, SolveOutcome, Solver, SolverOptions};
use sudosat::Grid;

use classic_sets::{load, solvers, SETS};
use data::data_dir;

/// Time limit of one solve.
const LIMIT: Duration = Duration::from_secs(5);

/// Counters shown, in this order, when a solver reports them.
const SHOWN: [&str; 7] = [
    "updates",
    "nodes",
    "assignments",
    "backtracks",
    "deductions",
    "guesses",
    "expansions",
];

/// How many puzzles of a set a solver runs (all, unless it is slow there): measured
/// beforehand, release build, 17-clue puzzles: row 0.12 s, column 0.25 s, box 0.3 s per
/// puzzle; random order times out on nearly every 9×9 puzzle.
fn prefix(solver: &str, set: &str) -> usize {
    match (solver, set) {
        ("backtrack-row" | "backtrack-column" | "backtrack-box", "minimal-2k") => 200,
        ("backtrack-random", "minimal-2k") => 20,
        ("backtrack-random", "rank_3") => 200,
        _ => usize::MAX,
    }
}

/// One solver's run over a set: time per puzzle (time-outs at the limit), the grids found,
/// time-outs, and counter sums over the answered puzzles.
struct Run {
    times: Vec<Duration>,
    grids: Vec<Grid>,
    timeouts: usize,
    answered: usize,
    sums: sudosat::run::Counters,
}

fn run(name: &str, puzzles: &[Grid], reference: Option<&[Grid]>) -> Run {
    let mut solver: Box<dyn Solver> =
        classic_solver(name, &SolverOptions::default()).expect("a classic solver");
    solver.set_time_limit(Some(LIMIT));
    let mut out = Run {
        times: Vec::with_capacity(puzzles.len()),
        grids: Vec::new(),
        timeouts: 0,
        answered: 0,
        sums: sudosat::run::Counters::default(),
    };
    for (i, puzzle) in puzzles.iter().enumerate() {
        let start = Instant::now();
        let result = solver.solve(puzzle);
        let elapsed = start.elapsed();
        let report = match result {
            Err(e) if e.is_timeout() => {
                out.timeouts += 1;
                out.times.push(LIMIT);
                continue;
            }
            Err(e) => panic!("{name} on puzzle {}: {e}", i + 1),
            Ok(report) => report,
        };
        out.times.push(elapsed);
        let SolveOutcome::Solved(grid) = report.outcome else {
            panic!("{name} on puzzle {}: {:?}", i + 1, report.outcome);
        };
        assert!(
            check_solution(puzzle, &grid).is_valid(),
            "{name} #{}",
            i + 1
        );
        if let Some(reference) = reference {
            assert_eq!(grid, reference[i], "{name} #{} differs from dlx", i + 1);
        }
        out.answered += 1;
        out.grids.push(grid);
        out.sums.add(&report.counters);
    }
    out
}

fn mean(times: &[Duration]) -> f64 {
    times.iter().map(|t| t.as_secs_f64()).sum::<f64>() / times.len() as f64 * 1e6
}

fn median(times: &[Duration]) -> f64 {
    let mut sorted: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e6).collect();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 0 {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}

/// `12,345` for integers, 3 significant digits below 100.
fn micros(us: f64) -> String {
    if us < 100.0 {
        format!("{us:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        thousands(us.round() as u64)
    }
}

fn thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

fn main() {
    let data = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .or_else(data_dir);
    eprintln!(
        "data: {}; limit {LIMIT:?} per solve; load average at start {}",
        data.as_ref()
            .map_or("tests/fixtures (no shared data)".to_string(), |d| d
                .display()
                .to_string()),
        load_average()
    );
    let started = Instant::now();
    println!(
        "| set | solver | puzzles | time-outs | mean µs | median µs | mean ÷ dlx | median ÷ dlx | mean counters (answered puzzles) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---|");
    for (label, rel, fixture) in SETS {
        let puzzles = load(data.as_deref(), rel, fixture);
        // DLX's grids are the reference for the others.
        let dlx = run("dlx", &puzzles, None);
        assert_eq!(dlx.timeouts, 0, "dlx timed out on {label}");
        let reference = &dlx.grids;
        for name in solvers() {
            let count = prefix(name, label).min(puzzles.len());
            let result = if name == "dlx" {
                None
            } else {
                Some(run(name, &puzzles[..count], Some(&reference[..count])))
            };
            let r = result.as_ref().unwrap_or(&dlx);
            let base = &dlx.times[..count];
            let bound = if r.timeouts > 0 { "≥ " } else { "" };
            let (m, md) = (mean(&r.times), median(&r.times));
            let median_bound = if md >= LIMIT.as_secs_f64() * 1e6 {
                "≥ "
            } else {
                ""
            };
            let counters: Vec<String> = SHOWN
                .iter()
                .filter_map(|&key| {
                    let sum = r.sums.get(key)?;
                    let avg = sum as f64 / r.answered.max(1) as f64;
                    let avg = if avg < 10.0 {
                        format!("{avg:.1}")
                    } else {
                        thousands(avg.round() as u64)
                    };
                    Some(format!("{key} {avg}"))
                })
                .collect();
            println!(
                "| {label} | {name} | {} | {} | {bound}{} | {median_bound}{} | {bound}{:.2} | {median_bound}{:.2} | {} |",
                if count == puzzles.len() {
                    thousands(count as u64)
                } else {
                    format!("first {count} of {}", thousands(puzzles.len() as u64))
                },
                r.timeouts,
                micros(m),
                micros(md),
                m / mean(base),
                md / median(base),
                if r.answered == 0 {
                    "—".to_string()
                } else {
                    counters.join(", ")
                }
            );
        }
    }
    eprintln!(
        "done in {:.0} s; load average at end {}",
        started.elapsed().as_secs_f64(),
        load_average()
    );
}
