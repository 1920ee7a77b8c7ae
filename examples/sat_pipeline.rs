//! Where the time of the SAT path goes: mean µs per puzzle spent encoding (streaming the
//! clauses into the backend), solving, and decoding plus checking, for each backend and
//! encoding named, over every puzzle of a file (several rounds, best round kept).
//!
//! ```sh
//! cargo run --release --example sat_pipeline -- benches/data/9x9/minimal-2k.txt \
//!     cdcl,cdcl@assumptions,dpll,varisat extended+reduced,minimal+reduced 3
//! ```
//!
//! `BACKEND@assumptions` keeps the empty grid loaded and solves each puzzle under its
//! givens ([`LoadMode::Assumptions`]; the encoding's reduction is then not used).

use std::time::Duration;

use sudosat::backend::{BackendKind, BackendSpec, Lookahead};
use sudosat::encode::{Encoding, SudokuEncoding};
use sudosat::grid::read_puzzles_from_path;
use sudosat::solve::sat::{LoadMode, SatSolver};
use sudosat::solve::{SolveOutcome, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: sat_pipeline FILE [BACKENDS] [ENCODINGS] [ROUNDS]");
        std::process::exit(2);
    };
    let puzzles = read_puzzles_from_path(path.as_ref(), None).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let backends = args.get(1).map_or("dpll", String::as_str);
    let encodings = args.get(2).map_or("extended+reduced", String::as_str);
    let rounds: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(3);
    println!("backend,encoding,puzzles,encode_us,solve_us,decode_us,total_us");
    for backend in backends.split(',') {
        let (backend, mode) = match backend.split_once('@') {
            Some((b, "assumptions")) => (b, LoadMode::Assumptions),
            Some((_, other)) => panic!("unknown load mode `{other}`"),
            None => (backend, LoadMode::Reencode),
        };
        // `dpll:none`, `dpll:clause`, `dpll:full` choose the DPLL's lookahead.
        let (kind, lookahead) = match backend.split_once(':') {
            Some((k, l)) => (
                k,
                Lookahead::ALL
                    .into_iter()
                    .find(|x| x.name() == l)
                    .expect("lookahead: none, clause or full"),
            ),
            None => (backend, Lookahead::default()),
        };
        let kind: BackendKind = kind.parse().expect("a backend name");
        for name in encodings.split(',') {
            let encoding = SudokuEncoding::from_name(name).expect("an encoding name");
            let spec = BackendSpec::new(kind).with_lookahead(lookahead);
            let mut solver = SatSolver::new(encoding, spec).with_load_mode(mode);
            let mut best: Option<[Duration; 3]> = None;
            for _ in 0..rounds {
                let mut sums = [Duration::ZERO; 3];
                for puzzle in &puzzles {
                    let report = solver.solve(puzzle).expect("the backend answers");
                    assert!(matches!(report.outcome, SolveOutcome::Solved(_)));
                    let stats = solver.stats();
                    sums[0] += stats.encode_time;
                    sums[1] += stats.solve_time;
                    sums[2] += stats.decode_time;
                }
                let total = |s: &[Duration; 3]| s.iter().sum::<Duration>();
                if best.as_ref().map_or(true, |b| total(&sums) < total(b)) {
                    best = Some(sums);
                }
            }
            let best = best.expect("at least one round");
            if std::env::var_os("SAT_PIPELINE_COUNTERS").is_some() {
                eprintln!("{backend}: {}", solver.stats().backend);
            }
            let us = |d: Duration| d.as_secs_f64() * 1e6 / puzzles.len() as f64;
            println!(
                "{backend}{},{},{},{:.1},{:.1},{:.1},{:.1}",
                if mode == LoadMode::Assumptions {
                    "@assumptions"
                } else {
                    ""
                },
                encoding.name(),
                puzzles.len(),
                us(best[0]),
                us(best[1]),
                us(best[2]),
                us(best[0] + best[1] + best[2])
            );
        }
    }
}
