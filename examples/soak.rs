//! The soak test (`scripts/soak.sh`): random puzzles from 4×4 to 25×25 (solvable,
//! unsolvable and with several solutions) through every SAT backend of
//! [`BackendKind::ALL`] (the external ones with each solver command found) and every
//! complete classic solver of [`CLASSIC_SOLVERS`]; every answer is checked against the
//! rules and the givens and against the Dancing Links solution count.
//!
//! ```sh
//! cargo run --release --example soak -- --puzzles 100000 --seed 1 --seconds 3600
//! ```
//!
//! Prints one summary line per solver and exits 1 on any disagreement.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec};
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::generate::random_fill;
use sudosat::grid::{check_solution, Cell, Digit, Geometry, Grid};
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{
    classic_solver, count_solutions, SolveOutcome, Solver, SolverOptions, CLASSIC_SOLVERS,
};

/// Classic solvers that may stop without an answer (heuristic, not complete).
const INCOMPLETE: &[&str] = &["human", "hill"];
/// Complete classic solvers fast enough for 16×16 and 25×25 puzzles; the others (plain
/// orders, best-first, fifo) are run up to 9×9 only.
const LARGE_OK: &[&str] = &["dlx", "backtrack-mrv", "backtrack"];
/// External solver commands tried for `--backend external`.
const EXTERNAL: &[&str] = &["cadical -q", "picosat", "kissat -q"];

#[derive(Default)]
struct Tally {
    puzzles: u64,
    solved: u64,
    unsat: u64,
    counted: u64,
    timeouts: u64,
    wrong: u64,
    time: Duration,
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// A puzzle of kind `kind % 3`: 0 = from a full grid with cells blanked (solvable), 1 =
/// the same with one given changed to a digit its units do not hold (often unsolvable),
/// 2 = most cells blanked (usually several solutions).
fn puzzle(rng: &mut ChaCha8Rng, box_size: usize, kind: u64) -> Grid {
    let geo = Geometry::of(box_size).expect("supported box size");
    let full = random_fill(geo, rng);
    let n = geo.side();
    let cells = geo.num_cells();
    let mut order: Vec<u32> = (0..cells as u32).collect();
    order.shuffle(rng);
    let blanks = match kind % 3 {
        2 => cells * rng.gen_range(70..90) / 100,
        _ => cells * rng.gen_range(35..65) / 100,
    };
    let mut grid = full;
    for &c in &order[..blanks] {
        grid.set(Cell(c), None);
    }
    if kind % 3 == 1 {
        // Change a given so that the givens stay free of repeats but the solution breaks.
        let given = order[blanks..][rng.gen_range(0..cells - blanks)];
        let mut digits: Vec<u16> = (1..=n as u16).collect();
        digits.shuffle(rng);
        for d in digits {
            let old = grid.get(Cell(given));
            grid.set(Cell(given), Some(Digit(d)));
            if sudosat::grid::check_grid(&grid).is_valid() && old != Some(Digit(d)) {
                break;
            }
            grid.set(Cell(given), old);
        }
    }
    grid
}

fn main() {
    let mut puzzles: u64 = 100_000;
    let mut seed: u64 = 1;
    let mut seconds: u64 = u64::MAX;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("usage: soak [--puzzles N] [--seed S] [--seconds T]");
            std::process::exit(2)
        });
        match a.as_str() {
            "--puzzles" => puzzles = v,
            "--seed" => seed = v,
            "--seconds" => seconds = v,
            _ => {
                eprintln!("unknown argument `{a}`");
                std::process::exit(2)
            }
        }
    }
    let timeout = Some(Duration::from_secs(60));
    let mut sat: Vec<(String, SatSolver)> = Vec::new();
    let encodings = [
        SudokuEncoding::new(BaseEncoding::Extended, true),
        SudokuEncoding::new(BaseEncoding::Minimal, true),
        SudokuEncoding::new(BaseEncoding::Extended, false),
        SudokuEncoding::new(BaseEncoding::Minimal, false),
    ];
    for kind in BackendKind::ALL {
        let specs: Vec<BackendSpec> = match kind {
            BackendKind::External => EXTERNAL
                .iter()
                .filter(|c| on_path(c.split_whitespace().next().unwrap()))
                .map(|c| BackendSpec::external(c))
                .collect(),
            BackendKind::Minisat if !on_path("minisat") => {
                eprintln!("minisat not on PATH: skipped");
                Vec::new()
            }
            _ => vec![BackendSpec::new(kind)],
        };
        for spec in specs {
            let name = match &spec.command {
                Some(c) => format!("sat/external:{c}"),
                None => format!("sat/{}", kind.name()),
            };
            // Encodings rotate per puzzle; one solver per (backend, encoding).
            for (e, encoding) in encodings.iter().enumerate() {
                let solver = SatSolver::new(*encoding, spec.clone().with_timeout(timeout));
                sat.push((format!("{name}#{e}"), solver));
            }
        }
    }
    let complete: Vec<&str> = CLASSIC_SOLVERS
        .iter()
        .copied()
        .filter(|s| !INCOMPLETE.contains(s))
        .collect();
    // Backtracking can meet an exponential puzzle (a seed-1 25×25 ran for minutes): cap
    // the work, and count "stopped" beside the time-outs.
    let options = SolverOptions {
        max_iterations: Some(2_000_000),
        ..SolverOptions::default()
    };
    let mut classic: Vec<(String, Box<dyn Solver>)> = complete
        .iter()
        .map(|name| (name.to_string(), classic_solver(name, &options).unwrap()))
        .collect();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_size: BTreeMap<usize, [u64; 3]> = BTreeMap::new();
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut done = 0;
    let mut failures = 0;
    for i in 0..puzzles {
        if start.elapsed() > Duration::from_secs(seconds) {
            break;
        }
        let box_size = match rng.gen_range(0..10) {
            0..=2 => 2,
            3..=6 => 3,
            7..=8 => 4,
            _ => 5,
        };
        let grid = puzzle(&mut rng, box_size, i);
        let n = grid.side();
        let reference = count_solutions(&grid, 2).expect("dlx counts up to 25×25");
        by_size.entry(n).or_default()[reference.min(2) as usize] += 1;
        let check = |name: &str,
                     solver: &mut dyn Solver,
                     count: bool,
                     tallies: &mut BTreeMap<String, Tally>| {
            let t0 = Instant::now();
            let report = solver.solve(&grid);
            let tally = tallies
                .entry(name.split('#').next().unwrap().to_string())
                .or_default();
            tally.puzzles += 1;
            let ok = match report {
                Err(e) if e.is_timeout() => {
                    tally.timeouts += 1;
                    true
                }
                Err(e) => {
                    eprintln!("puzzle {i} ({n}×{n}) {name}: error {e}");
                    false
                }
                Ok(r) => match r.outcome {
                    SolveOutcome::Solved(g) => {
                        tally.solved += 1;
                        reference >= 1 && check_solution(&grid, &g).is_valid()
                    }
                    SolveOutcome::NoSolution => {
                        tally.unsat += 1;
                        reference == 0
                    }
                    SolveOutcome::Stopped(_) => {
                        tally.timeouts += 1;
                        true
                    }
                },
            };
            let ok = ok
                && (!count || {
                    tally.counted += 1;
                    match solver.count_solutions(&grid, 2) {
                        Ok(Some(c)) => c == reference.min(2),
                        Ok(None) => true,
                        Err(e) => e.is_timeout(),
                    }
                });
            tally.time += t0.elapsed();
            if !ok {
                tally.wrong += 1;
                eprintln!(
                    "DISAGREEMENT puzzle {i} ({n}×{n}, reference {reference}) {name}: {grid}"
                );
            }
            ok
        };
        for (name, solver) in &mut sat {
            let e = name.rsplit('#').next().unwrap().parse::<u64>().unwrap();
            if e != i % 4 {
                continue;
            }
            // Count with every third puzzle (blocking clauses), solve with the rest.
            if !check(name, solver, i % 3 == 2, &mut tallies) {
                failures += 1;
            }
        }
        for (name, solver) in &mut classic {
            if n > 9 && !LARGE_OK.contains(&name.as_str()) {
                continue;
            }
            if !check(name, solver.as_mut(), false, &mut tallies) {
                failures += 1;
            }
        }
        done += 1;
        if done % 100 == 0 {
            eprintln!("{done} puzzles, {:.0} s", start.elapsed().as_secs_f64());
        }
    }
    println!(
        "soak: {done} puzzles (seed {seed}) in {:.0} s; disagreements or failures: {failures}",
        start.elapsed().as_secs_f64()
    );
    for (n, [unsat, unique, multi]) in &by_size {
        println!("  {n}×{n}: {unsat} unsolvable, {unique} unique, {multi} with ≥2 solutions");
    }
    println!("  solver                        puzzles   solved    unsat  counted  timeouts  wrong   mean ms");
    for (name, t) in &tallies {
        println!(
            "  {name:<28} {:>8} {:>8} {:>8} {:>8} {:>9} {:>6} {:>9.2}",
            t.puzzles,
            t.solved,
            t.unsat,
            t.counted,
            t.timeouts,
            t.wrong,
            t.time.as_secs_f64() * 1e3 / t.puzzles.max(1) as f64
        );
    }
    if failures > 0 {
        std::process::exit(1);
    }
}
