//! SAT backends × encodings, µs per puzzle (encode + solve + decode; the grid is checked
//! outside the timed part), the single-puzzle time of the large grids, and random 3-SAT
//! at the threshold (cdcl handing these to its lookahead search or racing it, CDCL alone,
//! the lookahead backend and varisat; no data needed).
//!
//! Reads `benches/data` (or `$SUDOSAT_DATA`) and skips with a message
//! otherwise. Run: `cargo bench --bench backends` (filter with e.g. `-- minimal/dpll`).
//! `SUDOSAT_BENCH_EXTERNAL=0` skips the external MiniSat runs.

#[path = "common/cycle.rs"]
mod cycle;
#[path = "common/data.rs"]
mod data;

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudosat::backend::{BackendKind, BackendSpec};
use sudosat::encode::SudokuEncoding;
use sudosat::grid::read_puzzles_from_path;
use sudosat::solve::SolverSpec;
use sudosat::Grid;

use cycle::solve_cycle;

fn load(rel: &str) -> Option<Vec<Grid>> {
    let Some(dir) = data::data_dir() else {
        eprintln!("skipped: no benches/data (set SUDOSAT_DATA)");
        return None;
    };
    let path = dir.join(rel);
    match read_puzzles_from_path(&path, None) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("skipped {}: {e}", path.display());
            None
        }
    }
}

fn external_enabled() -> bool {
    std::env::var("SUDOSAT_BENCH_EXTERNAL").as_deref() != Ok("0")
        && Path::new("/usr/bin/minisat").exists()
}

fn nine_by_nine(c: &mut Criterion) {
    for (label, rel) in [
        ("minimal", "9x9/minimal-2k.txt"),
        ("expert", "9x9/expert-375.txt"),
    ] {
        let Some(puzzles) = load(rel) else { continue };
        let mut group = c.benchmark_group(label);
        group.throughput(Throughput::Elements(1));
        group.sample_size(20);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        let mut kinds = vec![BackendKind::Dpll, BackendKind::Varisat, BackendKind::Splr];
        if external_enabled() {
            kinds.push(BackendKind::Minisat);
        }
        for kind in kinds {
            for encoding in SudokuEncoding::ALL {
                let spec = SolverSpec::sat(encoding, BackendSpec::new(kind));
                let mut solver = spec.build(None);
                let mut next = 0;
                group.bench_function(spec.label(), |b| {
                    b.iter_custom(|iters| solve_cycle(solver.as_mut(), &puzzles, &mut next, iters))
                });
            }
        }
        group.finish();
    }
}

/// The large grids the backends solve in seconds: 64×64 (splr 23 s, the others time out
/// at 60 s) and 225×225 (unsolved by every backend, and by CaDiCaL in 30 minutes) are left
/// out; `scripts/bench/large.py` times them with a limit.
fn large(c: &mut Criterion) {
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(100));
    group.measurement_time(Duration::from_secs(3));
    for n in [16, 25, 81, 100, 144] {
        let Some(puzzles) = load(&format!("large/sudoku-{n}-1.txt")) else {
            continue;
        };
        for kind in [BackendKind::Dpll, BackendKind::Varisat] {
            let spec: SolverSpec = format!("sat:extended+reduced:{kind}")
                .parse()
                .expect("shipped");
            let mut solver = spec.build(None);
            let mut next = 0;
            group.bench_function(format!("{n}x{n}/{kind}"), |b| {
                b.iter_custom(|iters| solve_cycle(solver.as_mut(), &puzzles, &mut next, iters))
            });
        }
    }
    group.finish();
}

/// 20 formulas of 150 variables at ratio 4.26 (seeded, so every run times the same ones),
/// solved one after another per iteration by cdcl (one thread: the lookahead search
/// takes over; two: it races CDCL), CDCL alone, the lookahead backend and varisat; the
/// answers must agree.
fn random_3sat(c: &mut Criterion) {
    use rand::{Rng, SeedableRng};
    use sudosat::backend::{Lookahead, SatOutcome};
    use sudosat::{ClauseSink, Cnf, Var};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let formulas: Vec<Cnf> = (0..20)
        .map(|_| {
            let mut cnf = Cnf::with_vars(150);
            for _ in 0..639 {
                let clause = [0; 3].map(|_| Var::from_index(rng.gen_range(0..150)).lit(rng.gen()));
                cnf.add_clause(&clause);
            }
            cnf
        })
        .collect();
    let mut group = c.benchmark_group("random-3sat-150");
    group.sample_size(10);
    group.throughput(Throughput::Elements(formulas.len() as u64));
    let mut alone = BackendSpec::new(BackendKind::Cdcl);
    alone.lookahead = Lookahead::None;
    let specs = [
        ("cdcl", BackendSpec::new(BackendKind::Cdcl)),
        ("cdcl-alone", alone),
        (
            "cdcl-race",
            BackendSpec::new(BackendKind::Cdcl).with_threads(2),
        ),
        ("lookahead", BackendSpec::new(BackendKind::Lookahead)),
        ("varisat", BackendSpec::new(BackendKind::Varisat)),
    ];
    let mut answers: Option<Vec<bool>> = None;
    for (name, spec) in specs {
        let solve_all = || -> Vec<bool> {
            formulas
                .iter()
                .map(|cnf| {
                    let mut backend = spec.create().expect("embedded");
                    cnf.stream_into(&mut *backend);
                    matches!(backend.solve().expect("an answer"), SatOutcome::Sat(_))
                })
                .collect()
        };
        let found = solve_all();
        assert_eq!(
            *answers.get_or_insert_with(|| found.clone()),
            found,
            "{name} disagrees"
        );
        group.bench_function(name, |b| b.iter(solve_all));
    }
    group.finish();
}

criterion_group!(benches, nine_by_nine, large, random_3sat);
criterion_main!(benches);
