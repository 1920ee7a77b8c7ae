//! The soak test (`scripts/soak.sh`): random puzzles from 4×4 to 25×25 (solvable,
//! unsolvable and with several solutions) through every complete solver: each SAT backend
//! of [`BackendKind::ALL`] (every base encoding, reduced or not, in turn; the external
//! processes, minisat and each `--backend external` command found on PATH, on every
//! `--external-every`-th puzzle since a spawn costs milliseconds) and every complete
//! classic solver of [`CLASSIC_SOLVERS`] (the slow or duplicate ones of [`SAMPLED`] on the
//! same sample). Every answer is checked: a solution against the
//! rules and the givens, and all answers on a puzzle (with the Dancing Links count as one
//! more) against each other.
//!
//! Each solve has a low time limit (`--timeout-ms`, default 500): a solver that reaches
//! it on a hard random 25×25 is counted as a time-out, not a disagreement. The size mix
//! (`--mix`, relative weights of 4×4, 9×9, 16×16, 25×25) defaults to 550,420,25,5 per
//! mille, so 100,000 puzzles take about an hour of one core: a puzzle cost about 3, 35,
//! 230 and 2,400 ms of CPU by size in a seed-1 run (50,45,4,1 % cost 50 ms a puzzle).
//!
//! ```sh
//! cargo run --release --example soak -- --puzzles 100000 --seed 1 --every 2000
//! ```
//!
//! Prints a progress line every `--every` puzzles, then the puzzles per size and kind and
//! one line per solver; exits 1 on any disagreement.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec, LoadMode};
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::generate::random_fill;
use sudosat::grid::{check_solution, Cell, Digit, Geometry, Grid};
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{classic_solver, SolveOutcome, Solver, SolverOptions, CLASSIC_SOLVERS};

/// Classic solvers that may stop without an answer (heuristic, not complete).
const INCOMPLETE: &[&str] = &["human", "hill"];
/// Complete classic solvers fast enough for 16×16 and 25×25 puzzles; the others (plain
/// orders, best-first, fifo) would mostly time out there and run up to 9×9 only.
const LARGE_OK: &[&str] = &["dlx", "backtrack-mrv"];
/// Classic solvers run on the sampled puzzles only (`--external-every`): slow on sparse
/// 9×9 puzzles (random order, breadth-first: up to the time limit) or the same search as
/// another entry (`backtrack` is `backtrack-mrv` under its default order).
const SAMPLED: &[&str] = &[
    "backtrack",
    "backtrack-row",
    "backtrack-column",
    "backtrack-random",
    "backtrack-box",
    "best-first",
    "fifo",
];
/// External solver commands tried for `--backend external`.
const EXTERNAL: &[&str] = &["cadical -q", "picosat", "kissat -q"];
/// The box sizes of the mix.
const BOX_SIZES: [usize; 4] = [2, 3, 4, 5];
/// Kinds of puzzle, as generated.
const KINDS: [&str; 3] = ["solvable", "broken-given", "sparse"];

/// What one solver said about one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// Exactly this many solutions (0 or 1).
    Exactly(u64),
    /// At least this many (a valid solution: 1; a count that reached the limit 2: 2).
    AtLeast(u64),
}

#[derive(Default)]
struct Tally {
    puzzles: u64,
    solved: u64,
    unsat: u64,
    counted: u64,
    timeouts: u64,
    timeouts_by_side: BTreeMap<usize, u64>,
    wrong: u64,
    time: Duration,
}

/// Per size: puzzles by reference count (0, 1, ≥2, unknown) and the time they took.
#[derive(Default)]
struct SizeTally {
    by_count: [u64; 4],
    by_kind: [u64; 3],
    time: Duration,
}

struct Entry {
    /// The name in the tallies (`sat/cdcl`, `dlx`, …).
    name: String,
    /// One solver per encoding for SAT entries (taken in turn), one for classic ones.
    solvers: Vec<Box<dyn Solver>>,
    /// Runs on every `every`-th puzzle only (the external processes).
    every: u64,
    /// Largest side it runs on.
    max_side: usize,
    /// Whether it counts solutions on the puzzles picked for counting.
    counts: bool,
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// A puzzle of `kind`: 0 = a full grid with cells blanked (solvable), 1 = the same with
/// one given changed to a digit its units do not hold (often unsolvable), 2 = most cells
/// blanked (usually several solutions).
fn puzzle(rng: &mut ChaCha8Rng, box_size: usize, kind: usize) -> Grid {
    let geo = Geometry::of(box_size).expect("supported box size");
    let full = random_fill(geo, rng);
    let n = geo.side();
    let cells = geo.num_cells();
    let mut order: Vec<u32> = (0..cells as u32).collect();
    order.shuffle(rng);
    let blanks = match kind {
        2 => cells * rng.gen_range(70..90) / 100,
        _ => cells * rng.gen_range(35..65) / 100,
    };
    let mut grid = full;
    for &c in &order[..blanks] {
        grid.set(Cell(c), None);
    }
    if kind == 1 {
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

struct Options {
    puzzles: u64,
    seed: u64,
    seconds: u64,
    every: u64,
    external_every: u64,
    timeout: Duration,
    mix: [u32; 4],
    /// Solver names to keep (all when empty): a quick re-run after a change to one solver.
    only: Vec<String>,
}

fn usage() -> ! {
    eprintln!(
        "usage: soak [--puzzles N] [--seed S] [--seconds T] [--every N] [--external-every K] \
         [--timeout-ms MS] [--mix W4,W9,W16,W25] [--only NAME,NAME...]"
    );
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        puzzles: 100_000,
        seed: 1,
        seconds: u64::MAX,
        every: 1000,
        external_every: 10,
        timeout: Duration::from_millis(500),
        mix: [550, 420, 25, 5],
        only: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_else(|| usage());
        let num = || v.parse::<u64>().unwrap_or_else(|_| usage());
        match a.as_str() {
            "--puzzles" => o.puzzles = num(),
            "--seed" => o.seed = num(),
            "--seconds" => o.seconds = num(),
            "--every" => o.every = num().max(1),
            "--external-every" => o.external_every = num().max(1),
            "--timeout-ms" => o.timeout = Duration::from_millis(num()),
            "--only" => o.only = v.split(',').map(str::to_string).collect(),
            "--mix" => {
                let parts: Vec<u32> = v.split(',').filter_map(|p| p.parse().ok()).collect();
                if parts.len() != 4 || parts.iter().sum::<u32>() == 0 {
                    usage();
                }
                o.mix.copy_from_slice(&parts);
            }
            _ => usage(),
        }
    }
    o
}

/// Every solver of the soak, each with its time limit set.
fn entries(o: &Options) -> Vec<Entry> {
    let mut encodings = Vec::new();
    for base in BaseEncoding::ALL {
        for reduced in [true, false] {
            encodings.push(SudokuEncoding::new(base, reduced));
        }
    }
    let mut list = Vec::new();
    for kind in BackendKind::ALL {
        let specs: Vec<(String, BackendSpec)> = match kind {
            BackendKind::External => EXTERNAL
                .iter()
                .filter(|c| on_path(c.split_whitespace().next().unwrap()))
                .map(|c| (format!("sat/external:{c}"), BackendSpec::external(c)))
                .collect(),
            BackendKind::Minisat if !on_path("minisat") => {
                eprintln!("soak: minisat not on PATH: skipped");
                Vec::new()
            }
            BackendKind::Cdcl => vec![
                ("sat/cdcl".into(), BackendSpec::new(kind)),
                (
                    "sat/cdcl+assumptions".into(),
                    BackendSpec::new(kind).with_load(LoadMode::Assumptions),
                ),
                // The portfolio forks only past 2,000 conflicts: the 25×25 puzzles.
                (
                    "sat/cdcl+threads".into(),
                    BackendSpec::new(kind).with_threads(2),
                ),
            ],
            _ => vec![(format!("sat/{}", kind.name()), BackendSpec::new(kind))],
        };
        let external = matches!(kind, BackendKind::External | BackendKind::Minisat);
        for (name, spec) in specs {
            let solvers = encodings
                .iter()
                .map(|e| {
                    let mut s: Box<dyn Solver> = Box::new(SatSolver::new(
                        *e,
                        spec.clone().with_timeout(Some(o.timeout)),
                    ));
                    s.set_time_limit(Some(o.timeout));
                    s
                })
                .collect();
            list.push(Entry {
                name,
                solvers,
                every: if external { o.external_every } else { 1 },
                max_side: 25,
                counts: true,
            });
        }
    }
    let options = SolverOptions::default();
    for name in CLASSIC_SOLVERS.iter().filter(|s| !INCOMPLETE.contains(s)) {
        let mut solver = classic_solver(name, &options).expect("a listed solver");
        solver.set_time_limit(Some(o.timeout));
        list.push(Entry {
            name: name.to_string(),
            solvers: vec![solver],
            every: if SAMPLED.contains(name) {
                o.external_every
            } else {
                1
            },
            max_side: if LARGE_OK.contains(name) { 25 } else { 9 },
            counts: *name == "dlx",
        });
    }
    list
}

/// Whether the claims about one puzzle fit together: no exact count below what another
/// answer proved, no two different exact counts.
fn consistent(claims: &[(String, Claim)]) -> bool {
    let lower = claims
        .iter()
        .map(|(_, c)| match *c {
            Claim::Exactly(n) | Claim::AtLeast(n) => n,
        })
        .max()
        .unwrap_or(0);
    let mut exact = claims.iter().filter_map(|(_, c)| match *c {
        Claim::Exactly(n) => Some(n),
        Claim::AtLeast(_) => None,
    });
    match exact.next() {
        None => true,
        Some(first) => first >= lower && exact.all(|n| n == first),
    }
}

fn main() {
    let o = parse_args();
    let mut entries = entries(&o);
    if !o.only.is_empty() {
        if let Some(unknown) = o
            .only
            .iter()
            .find(|n| !entries.iter().any(|e| &e.name == *n))
        {
            let known: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
            eprintln!("soak: no solver `{unknown}` (known: {})", known.join(", "));
            std::process::exit(2);
        }
        entries.retain(|e| o.only.contains(&e.name));
    }
    eprintln!(
        "soak: {} puzzles, seed {}, mix {:?} (weights of 4×4/9×9/16×16/25×25), {} ms a solve, externals every {}th puzzle; solvers: {}",
        o.puzzles,
        o.seed,
        o.mix,
        o.timeout.as_millis(),
        o.external_every,
        entries.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ")
    );
    // The reference: Dancing Links counting to 2, with a longer limit than the solvers.
    let mut reference = classic_solver("dlx", &SolverOptions::default()).expect("dlx");
    reference.set_time_limit(Some(o.timeout * 10));
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_size: BTreeMap<usize, SizeTally> = BTreeMap::new();
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
    let total_weight: u32 = o.mix.iter().sum();
    let mut done: u64 = 0;
    let mut failures: u64 = 0;
    let mut timeouts: u64 = 0;
    for i in 0..o.puzzles {
        if start.elapsed() > Duration::from_secs(o.seconds) {
            break;
        }
        let mut pick = rng.gen_range(0..total_weight);
        let mut slot = 0;
        while pick >= o.mix[slot] {
            pick -= o.mix[slot];
            slot += 1;
        }
        let kind = rng.gen_range(0..3);
        let grid = puzzle(&mut rng, BOX_SIZES[slot], kind);
        let count_it = rng.gen_ratio(1, 3);
        let n = grid.side();
        let t_puzzle = Instant::now();
        let mut claims: Vec<(String, Claim)> = Vec::new();
        let ref_count = match reference.count_solutions(&grid, 2) {
            Ok(Some(c)) => {
                claims.push((
                    "reference dlx count".into(),
                    if c >= 2 {
                        Claim::AtLeast(2)
                    } else {
                        Claim::Exactly(c)
                    },
                ));
                Some(c.min(2))
            }
            _ => None,
        };
        let mut bad = false;
        for entry in &mut entries {
            if n > entry.max_side || i % entry.every != 0 {
                continue;
            }
            let turn = (i / entry.every) as usize % entry.solvers.len();
            let solver = entry.solvers[turn].as_mut();
            let tally = tallies.entry(entry.name.clone()).or_default();
            let t0 = Instant::now();
            tally.puzzles += 1;
            let mut timed_out = false;
            match solver.solve(&grid) {
                Err(e) if e.is_timeout() => timed_out = true,
                Err(e) => {
                    eprintln!("puzzle {i} ({n}×{n}) {}: error {e}", entry.name);
                    tally.wrong += 1;
                    bad = true;
                }
                Ok(r) => match r.outcome {
                    SolveOutcome::Solved(g) => {
                        tally.solved += 1;
                        if check_solution(&grid, &g).is_valid() {
                            claims.push((entry.name.clone(), Claim::AtLeast(1)));
                        } else {
                            eprintln!("puzzle {i} ({n}×{n}) {}: invalid solution {g}", entry.name);
                            tally.wrong += 1;
                            bad = true;
                        }
                    }
                    SolveOutcome::NoSolution => {
                        tally.unsat += 1;
                        claims.push((entry.name.clone(), Claim::Exactly(0)));
                    }
                    SolveOutcome::Stopped(_) => timed_out = true,
                },
            }
            if !timed_out && entry.counts && count_it {
                tally.counted += 1;
                match solver.count_solutions(&grid, 2) {
                    Ok(Some(c)) if c >= 2 => claims.push((entry.name.clone(), Claim::AtLeast(2))),
                    Ok(Some(c)) => claims.push((entry.name.clone(), Claim::Exactly(c))),
                    Ok(None) => {}
                    Err(e) if e.is_timeout() => timed_out = true,
                    Err(e) => {
                        eprintln!("puzzle {i} ({n}×{n}) {}: count error {e}", entry.name);
                        tally.wrong += 1;
                        bad = true;
                    }
                }
            }
            if timed_out {
                tally.timeouts += 1;
                *tally.timeouts_by_side.entry(n).or_default() += 1;
                timeouts += 1;
            }
            tally.time += t0.elapsed();
        }
        if !consistent(&claims) {
            bad = true;
            // Blame every solver whose claim differs from the reference (or from the
            // majority when the reference timed out).
            for (name, claim) in &claims {
                if let Some(t) = tallies.get_mut(name) {
                    let off = match (*claim, ref_count) {
                        (Claim::Exactly(c), Some(r)) => c != r,
                        (Claim::AtLeast(c), Some(r)) => c > r,
                        _ => false,
                    };
                    t.wrong += u64::from(off);
                }
            }
            eprintln!(
                "DISAGREEMENT puzzle {i} ({n}×{n}, reference {ref_count:?}): {claims:?}\n{grid}"
            );
        }
        failures += u64::from(bad);
        let size = by_size.entry(n).or_default();
        size.by_count[ref_count.map_or(3, |c| c as usize)] += 1;
        size.by_kind[kind] += 1;
        size.time += t_puzzle.elapsed();
        done += 1;
        if done % o.every == 0 {
            let sizes: Vec<String> = by_size
                .iter()
                .map(|(n, s)| {
                    format!(
                        "{n}×{n} {} ({:.0} s)",
                        s.by_kind.iter().sum::<u64>(),
                        s.time.as_secs_f64()
                    )
                })
                .collect();
            eprintln!(
                "soak: {done} puzzles in {:.0} s: {}; time-outs {timeouts}, disagreements {failures}",
                start.elapsed().as_secs_f64(),
                sizes.join(", ")
            );
        }
    }
    report(&o, done, failures, start.elapsed(), &by_size, &tallies);
    if failures > 0 {
        std::process::exit(1);
    }
}

fn report(
    o: &Options,
    done: u64,
    failures: u64,
    elapsed: Duration,
    by_size: &BTreeMap<usize, SizeTally>,
    tallies: &BTreeMap<String, Tally>,
) {
    println!(
        "soak: {done} puzzles (seed {}, mix {:?}, {} ms a solve) in {:.0} s; puzzles with a disagreement or failure: {failures}",
        o.seed,
        o.mix,
        o.timeout.as_millis(),
        elapsed.as_secs_f64()
    );
    println!(
        "  size     puzzles  {}  | unsolvable  unique  ≥2 solutions  reference timed out | seconds",
        KINDS.join("  ")
    );
    for (n, s) in by_size {
        println!(
            "  {:<7} {:>8}  {:>8} {:>12} {:>6}  | {:>10} {:>7} {:>13} {:>20} | {:>7.0}",
            format!("{n}×{n}"),
            s.by_kind.iter().sum::<u64>(),
            s.by_kind[0],
            s.by_kind[1],
            s.by_kind[2],
            s.by_count[0],
            s.by_count[1],
            s.by_count[2],
            s.by_count[3],
            s.time.as_secs_f64()
        );
    }
    println!(
        "  solver                    puzzles   solved    unsat  counted  time-outs (by size)          wrong   mean ms"
    );
    for (name, t) in tallies {
        let by_side: Vec<String> = t
            .timeouts_by_side
            .iter()
            .map(|(n, c)| format!("{n}:{c}"))
            .collect();
        println!(
            "  {name:<24} {:>8} {:>8} {:>8} {:>8} {:>10} {:<18} {:>6} {:>9.2}",
            t.puzzles,
            t.solved,
            t.unsat,
            t.counted,
            t.timeouts,
            by_side.join(" "),
            t.wrong,
            t.time.as_secs_f64() * 1e3 / t.puzzles.max(1) as f64
        );
    }
}
