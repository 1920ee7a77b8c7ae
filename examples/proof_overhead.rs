//! What DRAT proof logging costs the SAT path: uniqueness checks (count to 2) of every puzzle
//! of a file, without and with a proof (written to a temporary directory), in rounds that
//! alternate which goes first; prints the backend solve time of each (the time in `SatBackend::solve`, from
//! `SatStats`) and the whole call's wall time, and the proof sizes.
//!
//! Run: `cargo run --release --example proof_overhead -- FILE [BACKEND] [ROUNDS]`, e.g.
//! `… -- benches/data/9x9/expert-375.txt dpll 5`; a fourth argument `plain` or `proof`
//! runs that mode alone (for `perf stat` or callgrind), a fifth `binary` writes binary DRAT.

use std::time::{Duration, Instant};

use sudosat::backend::{BackendKind, BackendSpec, ProofFormat, ProofTarget};
use sudosat::grid::read_puzzles_from_path;
use sudosat::solve::sat::{SatSolver, DEFAULT_ENCODING};
use sudosat::solve::Solver;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: proof_overhead FILE [BACKEND] [ROUNDS]");
    let kind: BackendKind = args
        .next()
        .unwrap_or_else(|| "dpll".to_string())
        .parse()
        .expect("a backend name");
    let rounds: usize = args.next().map_or(5, |r| r.parse().expect("a number"));
    // `plain` or `proof` runs that mode only (to count instructions per mode with perf).
    let only: Option<usize> = args.next().map(|m| usize::from(m == "proof"));
    // `binary` writes binary DRAT.
    let format = match args.next().as_deref() {
        Some("binary") => ProofFormat::Binary,
        _ => ProofFormat::Text,
    };
    let puzzles = read_puzzles_from_path(std::path::Path::new(&file), None).expect("puzzles");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let proof = dir.path().join("p.drat");
    let mut solver = SatSolver::new(DEFAULT_ENCODING, BackendSpec::new(kind));
    let mut totals = [(Duration::ZERO, Duration::ZERO); 2];
    let mut bytes = 0u64;
    let mut proved = 0usize;
    for round in 0..rounds {
        // Alternate which mode goes first, so that neither always runs on a cold cache.
        for step in 0..2 {
            let mode = (step + round) % 2;
            if only.is_some_and(|o| o != mode) {
                continue;
            }
            let total = &mut totals[mode];
            for puzzle in &puzzles {
                if mode == 1 {
                    solver.prove_next(Some(ProofTarget {
                        path: proof.clone(),
                        format,
                    }));
                }
                let start = Instant::now();
                let count = solver.count_solutions(puzzle, 2).expect("answers");
                total.1 += start.elapsed();
                total.0 += solver.stats().solve_time;
                assert_eq!(count, Some(1), "the benchmark sets are unique");
                if mode == 1 && solver.take_proof().is_some() && round == 0 {
                    proved += 1;
                    bytes += std::fs::metadata(&proof).map_or(0, |m| m.len());
                }
            }
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / (rounds * puzzles.len()) as f64;
    let [(plain_solve, plain_wall), (proof_solve, proof_wall)] = totals;
    println!(
        "{file}: {} puzzles × {rounds} rounds, backend {kind}",
        puzzles.len()
    );
    println!(
        "solve µs/puzzle: {:.1} plain, {:.1} with proof ({:+.1} %)",
        per(plain_solve),
        per(proof_solve),
        100.0 * (proof_solve.as_secs_f64() / plain_solve.as_secs_f64() - 1.0)
    );
    println!(
        "whole count µs/puzzle: {:.1} plain, {:.1} with proof ({:+.1} %)",
        per(plain_wall),
        per(proof_wall),
        100.0 * (proof_wall.as_secs_f64() / plain_wall.as_secs_f64() - 1.0)
    );
    println!(
        "proofs: {proved} of {}, {:.1} KiB mean",
        puzzles.len(),
        bytes as f64 / 1024.0 / proved.max(1) as f64
    );
}
