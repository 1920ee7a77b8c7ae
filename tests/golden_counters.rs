//! The built-in CDCL solver's search, pinned: its counters (decisions, propagations,
//! conflicts, learnt clauses, restarts, deletions, probes, failed literals) on the shipped
//! 9×9, 16×16 and 25×25 fixtures and on a few plain formulas, clauses only, one thread,
//! seeds 0 and 1, compared line by line with `tests/golden/cdcl-counters.txt`.
//!
//! A change that moves the search on purpose regenerates the file with
//! `SUDOSAT_BLESS=1 cargo test --test golden_counters` in its own commit, which says why;
//! any other change must leave it alone.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec, Lookahead, Propagate, RootMode, SatOutcome};
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::grid::check_solution;
use sudosat::run::Counters;
use sudosat::solve::sat::SatSolver;
use sudosat::solve::{SolveOutcome, Solver};
use sudosat::{ClauseSink, Cnf, Grid, Lit, Var};

use common::{pigeonhole, read_fixture};

const PINNED: [&str; 8] = [
    "decisions",
    "propagations",
    "conflicts",
    "learnt",
    "restarts",
    "deleted",
    "probes",
    "failed_literals",
];

fn spec(seed: u64) -> BackendSpec {
    let mut spec = BackendSpec::new(BackendKind::Cdcl)
        .with_propagate(Propagate::None)
        .with_threads(1);
    spec.seed = seed;
    // The search itself: no reasoning on the grid first, which settles most 9×9 puzzles
    // before cdcl sees them.
    spec.root = RootMode::None;
    spec
}

fn pinned(counters: &Counters) -> String {
    PINNED
        .iter()
        .map(|name| format!("{name}={}", counters.get(name).unwrap_or(0)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sudoku-25-1 fixture's solution with 45 % of its cells blanked (seeded): a 25×25 that
/// needs search, where the fixture itself is settled by probing.
fn loose_25x25() -> Grid {
    let mut grid = read_fixture("solutions/sudoku-25-1.txt").remove(0);
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let mut cells: Vec<_> = grid.geometry().cells().collect();
    cells.shuffle(&mut rng);
    for &cell in &cells[..cells.len() * 45 / 100] {
        grid.set(cell, None);
    }
    grid
}

fn puzzles() -> Vec<(String, Grid)> {
    let mut all = Vec::new();
    for file in [
        "expert-20.txt",
        "debian-fiendish.txt",
        "rank4-2.csv",
        "sudoku-25-1.txt",
        "rank5-1.csv",
    ] {
        for (i, grid) in read_fixture(file).into_iter().enumerate() {
            all.push((format!("{file}:{}", i + 1), grid));
        }
    }
    all.push(("sudoku-25-1 45% blank".to_string(), loose_25x25()));
    all
}

fn random_3sat(seed: u64, vars: usize) -> Cnf {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cnf = Cnf::with_vars(vars);
    for _ in 0..(vars as f64 * 4.26).round() as usize {
        let clause: Vec<Lit> = (0..3)
            .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
            .collect();
        cnf.add_clause(&clause);
    }
    cnf
}

fn formulas() -> Vec<(String, Cnf)> {
    let mut all: Vec<(String, Cnf)> = (1..=3)
        .map(|seed| {
            (
                format!("random 3-SAT 200 vars #{seed}"),
                random_3sat(seed, 200),
            )
        })
        .collect();
    all.push(("pigeonhole 8->7".to_string(), pigeonhole(8, 7)));
    all
}

fn measure() -> String {
    let mut out = String::new();
    for seed in [0, 1] {
        for base in [BaseEncoding::Extended, BaseEncoding::Minimal] {
            let encoding = SudokuEncoding::new(base, true);
            let mut solver = SatSolver::new(encoding, spec(seed));
            for (name, puzzle) in puzzles() {
                let report = solver.solve(&puzzle).expect("solves");
                let SolveOutcome::Solved(solution) = &report.outcome else {
                    panic!("{name}: {:?}", report.outcome);
                };
                assert!(check_solution(&puzzle, solution).is_valid(), "{name}");
                let line = pinned(&report.counters);
                writeln!(out, "seed {seed} {base:?}+reduced {name}: {line}").unwrap();
            }
        }
        for (name, cnf) in formulas() {
            // CDCL alone: no hand-over to the lookahead search, no root probing.
            let mut spec = spec(seed).with_lookahead(Lookahead::None);
            spec.timeout = None;
            let mut backend = spec.create().unwrap();
            cnf.stream_into(&mut *backend);
            let answer = match backend.solve().unwrap() {
                SatOutcome::Sat(model) => {
                    assert_eq!(cnf.first_falsified(&model), None, "{name}");
                    "SAT"
                }
                SatOutcome::Unsat => "UNSAT",
            };
            let line = pinned(&backend.counters());
            writeln!(out, "seed {seed} {name}: {answer} {line}").unwrap();
        }
    }
    out
}

#[test]
fn cdcl_counters_match_the_golden_file() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cdcl-counters.txt");
    let got = measure();
    if std::env::var_os("SUDOSAT_BLESS").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &got).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden).expect("tests/golden/cdcl-counters.txt");
    common::assert_text_eq(&got, &expected);
}
