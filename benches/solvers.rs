//! Classic solvers, time per puzzle: Dancing Links, each backtracking order, human
//! strategies, best-first and FIFO search, on samples of the minimal 9×9 set and the
//! generalized `sudoku_rank_B.csv` sets (B = 3, 4, 5).
//!
//! Reads `benches/data` (or `$SUDOSAT_DATA`), and for the sets not there the fixtures that stand
//! in for those sets (`tests/fixtures/minimal-40.txt`, `rank3-20.csv`, `rank4-2.csv`,
//! `rank5-1.csv`). Run: `cargo bench --bench solvers` (filter: `-- rank_5/dlx`). Each
//! iteration solves the next puzzle of the sample and checks the grid. Pairs measured to
//! take seconds per puzzle are left out (see [`sample`]); `examples/bench_classic.rs` runs
//! every pair with a time limit.

#[path = "common/classic_sets.rs"]
mod classic_sets;
#[path = "common/cycle.rs"]
mod cycle;
#[path = "common/data.rs"]
mod data;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudosat::solve::SolverSpec;

use classic_sets::{load, solvers, SETS};
use cycle::solve_cycle;
use data::data_dir;

/// How many puzzles of a set a solver cycles through; 0 leaves the pair out. Measured in
/// a release build (docs/history.md, "Classic solvers"): the static orders take 0.2–0.3 s
/// per 17-clue puzzle and time out (> 5 s) on most 16×16 and every 25×25 puzzle; random
/// order times out on every 17-clue puzzle tried and on 59 of 200 rank_3 puzzles;
/// backtrack-mrv times out on 4 of the 10 rank_5 puzzles.
fn sample(solver: &str, set: &str) -> usize {
    let static_order = matches!(
        solver,
        "backtrack-row" | "backtrack-column" | "backtrack-box"
    );
    match set {
        _ if solver == "backtrack-random" => 0,
        "minimal-2k" if static_order => 10,
        "minimal-2k" => 200,
        "rank_3" => 300,
        _ if static_order => 0,
        "rank_5" if solver == "backtrack-mrv" => 0,
        _ => 10,
    }
}

fn classic(c: &mut Criterion) {
    let data = data_dir();
    for (label, rel, fixture) in SETS {
        let puzzles = load(data.as_deref(), rel, fixture);
        let mut group = c.benchmark_group(label);
        group.throughput(Throughput::Elements(1));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for name in solvers() {
            let count = sample(name, label).min(puzzles.len());
            if count == 0 {
                continue;
            }
            let spec: SolverSpec = name.parse().expect("a classic solver");
            // A time limit as a safety net: a regression fails the bench instead of
            // hanging it.
            let mut solver = spec.build(Some(Duration::from_secs(30)));
            let mut next = 0;
            group.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    solve_cycle(solver.as_mut(), &puzzles[..count], &mut next, iters)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, classic);
criterion_main!(benches);
