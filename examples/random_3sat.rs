//! Random 3-SAT at the satisfiability threshold (clause/variable ratio 4.26), the classic
//! hard distribution (Mitchell, Selman & Levesque 1992): the same formulas solved by each
//! embedded backend named, one after another, with the total time per backend and the
//! SAT/UNSAT split (the backends must agree on every formula).
//!
//! ```sh
//! cargo run --release --example random_3sat -- 200 150 cdcl,varisat
//! ```
//!
//! A fourth argument sets another clause/variable ratio (`… 10 1000 cdcl 3.0`), a fifth
//! another clause length (random 5-SAT near its threshold: `… 20 60 cdcl 21 5`).
//! A backend name may carry a `--lookahead` value after a slash: `cdcl/none` is cdcl
//! without its lookahead search (CDCL alone; docs/history.md, "Random k-SAT"),
//! and a thread count after a colon: `cdcl:2` races the lookahead search against CDCL on
//! two threads. The times are wall-clock times.
//!
//! With `RANDOM_3SAT_DUMP=DIR` the formulas are also written as `DIR/000.cnf` … for
//! external solvers (docs/benchmarks/ksat.md, "Random k-SAT").

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec, SatOutcome};
use sudosat::{ClauseSink, Cnf, Lit, Var};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let vars: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(150);
    let names = args.get(2).map_or("cdcl,varisat", String::as_str);
    let ratio: f64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(4.26);
    let k: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut rng = ChaCha8Rng::seed_from_u64(426);
    let formulas: Vec<Cnf> = (0..count)
        .map(|_| {
            let mut cnf = Cnf::with_vars(vars);
            for _ in 0..(vars as f64 * ratio).round() as usize {
                let clause: Vec<Lit> = (0..k)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
                    .collect();
                cnf.add_clause(&clause);
            }
            cnf
        })
        .collect();
    if let Some(dir) = std::env::var_os("RANDOM_3SAT_DUMP") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("the dump directory");
        for (i, cnf) in formulas.iter().enumerate() {
            let file = std::fs::File::create(dir.join(format!("{i:03}.cnf"))).expect("a file");
            sudosat::dimacs::write_formula(std::io::BufWriter::new(file), cnf).expect("written");
        }
    }
    let mut answers: Option<Vec<bool>> = None;
    println!("backend,formulas,vars,sat,unsat,total_ms,mean_us");
    for name in names.split(',') {
        let (backend, threads) = name.split_once(':').unwrap_or((name, "1"));
        let (kind, lookahead) = backend.split_once('/').unwrap_or((backend, "auto"));
        let mut spec = BackendSpec::new(kind.parse::<BackendKind>().expect("a backend name"))
            .with_threads(threads.parse().expect("a thread count"));
        spec.lookahead = lookahead.parse().expect("a --lookahead value");
        let mut total = Duration::ZERO;
        let mut sat = Vec::with_capacity(count);
        let mut counters = sudosat::run::Counters::default();
        for cnf in &formulas {
            let mut backend = spec.create().expect("an embedded backend");
            let start = Instant::now();
            cnf.stream_into(&mut *backend);
            let outcome = backend.solve().expect("the backend answers");
            total += start.elapsed();
            counters.add(&backend.counters());
            sat.push(matches!(outcome, SatOutcome::Sat(_)));
        }
        match &answers {
            Some(first) => assert_eq!(first, &sat, "{name} disagrees"),
            None => answers = Some(sat.clone()),
        }
        let n_sat = sat.iter().filter(|&&s| s).count();
        println!(
            "{name},{count},{vars},{n_sat},{},{:.1},{:.1}",
            count - n_sat,
            total.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e6 / count as f64
        );
        if !counters.0.is_empty() {
            eprintln!("{name}: {counters}");
        }
    }
}
