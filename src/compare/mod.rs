//! The compare harness behind `sudosat compare`: every puzzle solved by every entry (a SAT
//! backend crossed with an encoding, or a classic solver), each answer checked, with the
//! encoding size, the encode/solve times and the solver's counters recorded per run.
//!
//! The study is the one every source of this project ran: which encoding is smaller (Lynce &
//! Ouaknine's minimal and extended encodings, Kwon & Jain's V⁺/V⁻ reduction), which backend
//! or algorithm is faster (SAT against Dancing Links, backtracking, human strategies, …),
//! and how that changes with the puzzle's size and number of givens.
//!
//! - [`CompareConfig`] says what runs: entries, each a [`SolverSpec`](crate::solve::SolverSpec) like every other
//!   solver choice of the crate (its `--solvers`/`--encodings` lists are read by
//!   [`parse_solvers`] and [`parse_encodings`] and crossed by [`entries`]); [`run`] builds
//!   each entry with [`SolverSpec::build`](crate::solve::SolverSpec::build) and returns one [`Run`] per puzzle × entry ×
//!   repeat.
//! - [`summary`] reduces runs to per-solver statistics and prints the tables, [`output`]
//!   writes CSV and JSON, [`plot`] draws the SVG.
//! - [`shard`] splits a study's runs into shares that run apart ([`CompareConfig::shard`])
//!   and merges them back into one comparison.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sudosat::compare::{self, CompareConfig, Outcome, Puzzle};
//!
//! let grid = "1.3...1..4..2.4.".parse().unwrap();
//! let puzzles = [Puzzle { file: "example".into(), line: 1, grid }];
//! let solvers = compare::parse_solvers("dpll,dlx").unwrap();
//! let encodings = compare::parse_encodings("minimal,extended").unwrap();
//! let config = CompareConfig::new(compare::entries(&solvers, &encodings, &Default::default()).unwrap());
//! let result = compare::run(&puzzles, &config, &AtomicBool::new(false), &|_| {}).unwrap();
//! assert_eq!(result.runs.len(), 3); // dpll × 2 encodings, dlx
//! assert!(result.runs.iter().all(|r| r.outcome == Outcome::Solved && r.checked));
//! ```
//!
//! The files, in the order a study goes: `spec.rs` (the entries as `--solvers` and
//! `--encodings` name them), `config.rs` (what runs, under which limits, validated),
//! `preflight.rs` (every SAT entry can run), `running.rs` (scheduling, watches,
//! interrupts), `measure.rs` (one run timed and checked), `comparison.rs` (the rows and
//! what holds them); then [`summary`], [`output`], [`plot`] and [`report`] read the
//! comparison, and [`formulas`] runs the same study on DIMACS formulas.

mod comparison;
mod config;
mod error;
pub mod formulas;
mod measure;
pub mod merge;
pub mod output;
#[cfg(feature = "plot")]
pub mod plot;
mod preflight;
#[cfg(feature = "plot")]
pub mod report;
mod running;
pub mod shard;
mod spec;
pub mod summary;

pub use comparison::{Comparison, Outcome, Puzzle, Run, ThreadedEntry, FORMULA, PUZZLE};
pub use config::{repeat_grid, CompareConfig, GroupBy, MAX_JOBS, MAX_REPEAT};
pub use error::CompareError;
pub use preflight::{preflight, PREFLIGHT_CLAUSES, PREFLIGHT_LIMIT};
pub use running::{assemble, run, run_watched, Watch, STOPPED_BY_INTERRUPT};
pub use spec::{
    cross_amo, default_encodings, entries, entries_with, parse_amo_families, parse_encodings,
    parse_solvers, Entry, SolverItem, DEFAULT_FORMULA_SOLVERS, DEFAULT_SOLVERS,
};

#[cfg(test)]
mod tests {
    use super::measure::blank_row;
    use super::running::mark_disagreements;
    use super::*;
    use crate::backend::{BackendKind, BackendSpec, RootMode};
    use crate::encode::SudokuEncoding;
    use crate::solve::{ClassicKind, SolverOptions, SolverSpec};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    fn puzzle(text: &str) -> Puzzle {
        Puzzle {
            file: "test".to_string(),
            line: 1,
            grid: text.parse().expect("a valid puzzle"),
        }
    }

    const FOUR: &str = "1.3...1..4..2.4.";

    #[test]
    fn solver_lists_expand_groups_and_keep_order() {
        let specs = parse_solvers("dlx, embedded ,external:cadical -q,dpll").unwrap();
        // The embedded group is the registry's embedded rows, in order; dpll is one of them.
        let embedded: Vec<SolverItem> = BackendKind::ALL
            .into_iter()
            .filter(|k| k.is_embedded() && k.is_built())
            .map(|k| SolverItem::sat(BackendSpec::new(k)))
            .collect();
        assert!(embedded.contains(&SolverItem::sat(BackendSpec::new(BackendKind::Dpll))));
        let mut expected = vec![SolverItem::classic(ClassicKind::Dlx)];
        expected.extend(embedded.iter().cloned());
        expected.push(SolverItem::sat(BackendSpec::external("cadical -q")));
        assert_eq!(specs, expected);
        let all = parse_solvers("all").unwrap();
        assert_eq!(all.len(), embedded.len() + ClassicKind::NAMES.len() - 1);
        assert!(!all.contains(&SolverItem::classic(ClassicKind::Backtrack)));
        assert_eq!(
            parse_solvers("minisat:/opt/minisat").unwrap(),
            vec![SolverItem::sat(BackendSpec {
                command: Some("/opt/minisat".to_string()),
                ..BackendSpec::new(BackendKind::Minisat)
            })]
        );
    }

    #[test]
    fn bad_solver_lists_name_the_item() {
        let err = parse_solvers("dpll,dlk").unwrap_err();
        assert!(matches!(&err, CompareError::UnknownSolver(s) if s == "dlk"));
        assert!(err.to_string().contains("backtrack-mrv"), "{err}");
        assert!(matches!(
            parse_solvers("external").unwrap_err(),
            CompareError::MissingCommand(_)
        ));
        assert!(matches!(
            parse_solvers("dlx:x").unwrap_err(),
            CompareError::UnknownSolver(_)
        ));
        assert!(matches!(
            parse_solvers(" , ").unwrap_err(),
            CompareError::Invalid(_)
        ));
    }

    #[test]
    fn encoding_lists() {
        assert_eq!(
            parse_encodings("all").unwrap(),
            SudokuEncoding::ALL.to_vec()
        );
        assert_eq!(
            parse_encodings("extended,minimal,extended").unwrap(),
            vec![
                SudokuEncoding::from_name("extended").unwrap(),
                SudokuEncoding::from_name("minimal").unwrap()
            ]
        );
        assert!(matches!(
            parse_encodings("extended,reduced").unwrap_err(),
            CompareError::UnknownEncoding(s) if s == "reduced"
        ));
    }

    #[test]
    fn every_classic_name_builds() {
        for name in ClassicKind::NAMES {
            assert!(crate::solve::classic_solver(name, &SolverOptions::default()).is_some());
        }
    }

    #[test]
    fn the_seed_reaches_the_sat_entries_and_the_classic_ones() {
        let solvers = parse_solvers("cdcl,hill").unwrap();
        let encodings = parse_encodings("extended+reduced").unwrap();
        let options = SolverOptions {
            seed: 42,
            ..SolverOptions::default()
        };
        let seeds: Vec<u64> = entries(&solvers, &encodings, &options)
            .unwrap()
            .iter()
            .map(|entry| match entry {
                SolverSpec::Sat { backend, .. } => backend.seed,
                SolverSpec::Classic { options, .. } => options.seed,
            })
            .collect();
        assert_eq!(seeds, [42, 42]);
    }

    #[test]
    fn entries_cross_backends_with_encodings_only() {
        let solvers = parse_solvers("dpll,dlx,varisat").unwrap();
        let encodings = parse_encodings("minimal,extended+reduced").unwrap();
        let labels: Vec<String> = entries(&solvers, &encodings, &SolverOptions::default())
            .unwrap()
            .iter()
            .map(Entry::label)
            .collect();
        assert_eq!(
            labels,
            [
                "dpll/minimal",
                "dpll/extended+reduced",
                "dlx",
                "varisat/minimal",
                "varisat/extended+reduced"
            ]
        );
    }

    #[test]
    fn vary_seed_makes_repeats_draws_with_the_same_answers() {
        let inkala = puzzle(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let solvers = parse_solvers("cdcl").unwrap();
        let encodings = parse_encodings("extended+reduced").unwrap();
        let mut config =
            CompareConfig::new(entries(&solvers, &encodings, &SolverOptions::default()).unwrap());
        config.repeat = 4;
        let decisions = |config: &CompareConfig| -> Vec<u64> {
            let puzzles = [inkala.clone()];
            let result = run(&puzzles, config, &AtomicBool::new(false), &|_| {}).unwrap();
            assert_eq!(result.runs.len(), 4);
            result
                .runs
                .iter()
                .map(|r| {
                    assert_eq!((r.outcome, r.checked), (Outcome::Solved, true));
                    r.counters.get("decisions").expect("cdcl counts decisions")
                })
                .collect()
        };
        let same = decisions(&config);
        assert!(same.iter().all(|&d| d == same[0]), "{same:?}");
        config.vary_seed = true;
        let drawn = decisions(&config);
        assert_eq!(drawn[0], same[0], "repeat 1 runs with the seed given");
        assert!(drawn[1..].iter().any(|&d| d != same[0]), "{drawn:?}");
    }

    #[test]
    fn isomorphs_make_repeats_draws_of_any_solver_on_the_same_copies() {
        let inkala = puzzle(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        // Repeat 1 is the puzzle; later repeats are copies, the same for every entry.
        assert_eq!(repeat_grid(&inkala.grid, 0, 1, Some(5)), inkala.grid);
        assert_eq!(repeat_grid(&inkala.grid, 0, 2, None), inkala.grid);
        let copy = repeat_grid(&inkala.grid, 0, 2, Some(5));
        assert_ne!(copy, inkala.grid);
        assert_eq!(copy, repeat_grid(&inkala.grid, 0, 2, Some(5)));
        assert_ne!(copy, repeat_grid(&inkala.grid, 0, 3, Some(5)));
        assert_ne!(copy, repeat_grid(&inkala.grid, 1, 2, Some(5)));
        assert_eq!(
            crate::grid::canonical(&copy),
            crate::grid::canonical(&inkala.grid)
        );
        // dpll (deterministic, no seed) takes other paths through the copies; every answer
        // is checked against the copy it solved.
        let solvers = parse_solvers("dpll,dlx").unwrap();
        let encodings = parse_encodings("extended+reduced").unwrap();
        let mut config =
            CompareConfig::new(entries(&solvers, &encodings, &SolverOptions::default()).unwrap());
        config.repeat = 4;
        config.isomorphs = Some(5);
        let result = run(&[inkala], &config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(result.runs.len(), 8);
        let mut decisions = Vec::new();
        for run in &result.runs {
            assert_eq!((run.outcome, run.checked), (Outcome::Solved, true));
            if run.backend.as_deref() == Some("dpll") {
                decisions.push(run.counters.get("decisions").unwrap());
            }
        }
        assert!(
            decisions[1..].iter().any(|&d| d != decisions[0]),
            "{decisions:?}"
        );
    }

    #[test]
    fn runs_record_sizes_outcomes_and_checks() {
        let puzzles = [puzzle(FOUR), puzzle(FOUR)];
        let solvers = parse_solvers("dpll,dlx").unwrap();
        let encodings = parse_encodings("extended").unwrap();
        let mut config =
            CompareConfig::new(entries(&solvers, &encodings, &SolverOptions::default()).unwrap());
        config.repeat = 2;
        let count = std::sync::atomic::AtomicUsize::new(0);
        let result = run(&puzzles, &config, &AtomicBool::new(false), &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(result.runs.len(), 8);
        assert_eq!(count.load(Ordering::Relaxed), 8);
        assert!(!result.interrupted && !result.parallel);
        for run in &result.runs {
            assert_eq!((run.outcome, run.checked), (Outcome::Solved, true));
            assert!(run.total_us > 0.0);
        }
        let sat = &result.runs[0];
        let expected = crate::encode::extended_size(4, 6);
        assert_eq!(
            (sat.vars, sat.clauses, sat.literals),
            (
                Some(expected.vars),
                Some(expected.clauses),
                Some(expected.literals)
            )
        );
        assert_eq!(sat.backend.as_deref(), Some("dpll"));
        let dlx = &result.runs[2];
        assert_eq!((dlx.solver.as_str(), dlx.vars), ("dlx", None));
        assert_eq!(
            result.runs.iter().map(|r| r.repeat).collect::<Vec<_>>(),
            [1, 2, 1, 2, 1, 2, 1, 2]
        );
    }

    #[test]
    fn parallel_runs_keep_puzzle_order() {
        let puzzles: Vec<Puzzle> = (0..6).map(|_| puzzle(FOUR)).collect();
        let mut config = CompareConfig::new(
            entries(
                &parse_solvers("dlx,dpll").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        config.jobs = 2;
        let result = run(&puzzles, &config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert!(result.parallel);
        let order: Vec<usize> = result.runs.iter().map(|r| r.puzzle_index).collect();
        assert_eq!(order, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    }

    #[test]
    fn entries_run_one_after_another_and_rows_come_back_by_puzzle() {
        let puzzles = [puzzle(FOUR), puzzle(FOUR)];
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dlx,dpll").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let seen = std::sync::Mutex::new(Vec::new());
        let result = run(&puzzles, &config, &AtomicBool::new(false), &|r| {
            seen.lock()
                .unwrap()
                .push((r.solver.clone(), r.puzzle_index))
        })
        .unwrap();
        let dpll = "dpll/extended+reduced".to_string();
        let measured = [
            ("dlx".to_string(), 1),
            ("dlx".to_string(), 2),
            (dpll.clone(), 1),
            (dpll.clone(), 2),
        ];
        assert_eq!(seen.into_inner().unwrap(), measured);
        let reported: Vec<(String, usize)> = result
            .runs
            .iter()
            .map(|r| (r.solver.clone(), r.puzzle_index))
            .collect();
        assert_eq!(
            reported,
            [
                measured[0].clone(),
                measured[2].clone(),
                measured[1].clone(),
                measured[3].clone()
            ]
        );
    }

    #[test]
    fn a_set_stop_flag_returns_what_was_measured() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let stop = AtomicBool::new(false);
        let puzzles = [puzzle(FOUR), puzzle(FOUR), puzzle(FOUR)];
        let result = run(&puzzles, &config, &stop, &|_| {
            stop.store(true, Ordering::Relaxed)
        })
        .unwrap();
        assert_eq!(result.runs.len(), 1);
        assert!(result.interrupted);
    }

    #[test]
    fn a_stop_while_a_run_is_in_flight_marks_it_stopped() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("external:/nonexistent/solver,dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let started = std::sync::Mutex::new(Vec::new());
        // The stop comes as the first run starts; that run's failure is then the stop's
        // doing (its solver killed), not the solver's.
        let watch = Watch {
            stop: Arc::clone(&stop),
            on_start: &|row| {
                started.lock().unwrap().push(row.solver.clone());
                stop.store(true, Ordering::SeqCst);
            },
            on_run: &|_| {},
        };
        let result = run_watched(&[puzzle(FOUR), puzzle(FOUR)], &config, &watch).unwrap();
        let first = "external:/nonexistent/solver/extended+reduced";
        assert_eq!(*started.lock().unwrap(), [first]);
        assert_eq!(result.runs.len(), 1);
        assert_eq!(result.runs[0].outcome, Outcome::Stopped);
        assert_eq!(result.runs[0].error.as_deref(), Some(STOPPED_BY_INTERRUPT));
        assert!(result.interrupted);
    }

    #[test]
    fn preflight_passes_the_embedded_backends_and_names_an_entry_that_cannot_run() {
        let embedded = CompareConfig::new(
            entries(
                &parse_solvers("embedded,dlx").unwrap(),
                &parse_encodings("minimal,extended").unwrap(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        preflight(&embedded).unwrap();
        let missing = CompareConfig::new(
            entries(
                &parse_solvers("dpll,external:/nonexistent/solver").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        match preflight(&missing) {
            Err(CompareError::CannotRun { entry, reason }) => {
                assert_eq!(entry, "external:/nonexistent/solver/extended+reduced");
                assert!(reason.contains("could not be started"), "{reason}");
            }
            other => panic!("expected CannotRun, got {other:?}"),
        }
    }

    #[test]
    fn assemble_orders_rows_collected_out_of_order() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dlx,dpll").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let rows = std::sync::Mutex::new(Vec::new());
        let puzzles = [puzzle(FOUR), puzzle(FOUR)];
        run(&puzzles, &config, &AtomicBool::new(false), &|r| {
            rows.lock().unwrap().push(r.clone())
        })
        .unwrap();
        let mut rows = rows.into_inner().unwrap();
        rows.reverse();
        rows.pop(); // the first run is lost
        let partial = assemble(&config, puzzles.len(), rows);
        assert!(partial.interrupted);
        let order: Vec<(usize, &str)> = partial
            .runs
            .iter()
            .map(|r| (r.puzzle_index, r.solver.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                (1, "dpll/extended+reduced"),
                (2, "dlx"),
                (2, "dpll/extended+reduced")
            ]
        );
    }

    #[test]
    fn failures_are_rows_not_aborts() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("external:/nonexistent/solver,dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let result = run(&[puzzle(FOUR)], &config, &AtomicBool::new(false), &|_| {}).unwrap();
        assert_eq!(result.runs.len(), 2);
        let failed = &result.runs[0];
        assert_eq!(failed.outcome, Outcome::Failed);
        assert!(!failed.checked);
        assert!(failed
            .error
            .as_deref()
            .unwrap()
            .contains("/nonexistent/solver"));
        assert!(failed.clauses.unwrap() > 0, "the size is still recorded");
        assert_eq!(result.runs[1].outcome, Outcome::Solved);
    }

    #[test]
    fn no_solution_against_a_solved_puzzle_is_wrong() {
        let mut runs = vec![
            blank_row(&puzzle(FOUR), 0, &SolverSpec::classic(ClassicKind::Dlx), 1),
            blank_row(
                &puzzle(FOUR),
                0,
                &SolverSpec::classic(ClassicKind::Human),
                1,
            ),
        ];
        runs[0].outcome = Outcome::Solved;
        runs[1].outcome = Outcome::NoSolution;
        mark_disagreements(&mut runs);
        assert_eq!(runs[1].outcome, Outcome::Wrong);
        assert!(runs[1].error.as_deref().unwrap().contains("dlx"));
    }

    #[test]
    fn contradictory_givens_have_no_solution_for_everyone() {
        let config = CompareConfig::new(
            entries(
                &parse_solvers("dpll,dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        let result = run(
            &[puzzle("11..............")],
            &config,
            &AtomicBool::new(false),
            &|_| {},
        )
        .unwrap();
        assert!(result
            .runs
            .iter()
            .all(|r| r.outcome == Outcome::NoSolution && !r.checked));
    }

    #[test]
    fn config_validation() {
        let mut config = CompareConfig::new(Vec::new());
        assert!(config.validate().is_err());
        config.entries = vec![SolverSpec::classic(ClassicKind::Dlx)];
        assert!(config.validate().is_ok());
        config.repeat = 0;
        assert!(config.validate().is_err());
        config.repeat = 1;
        config.jobs = 0;
        assert!(config.validate().is_err());
    }

    #[test]
    fn entry_options_override_the_study_and_name_their_entries() {
        let solvers =
            parse_solvers("cdcl, cdcl[propagate=grid,root=none,seed=3], dpll[encoding=minimal], hill[seed=5], hill")
                .unwrap();
        assert_eq!(solvers.len(), 5, "{solvers:?}");
        let encodings = parse_encodings("extended+reduced,minimal+reduced").unwrap();
        let study = SolverOptions {
            seed: 42,
            ..SolverOptions::default()
        };
        let specs = entries_with(&solvers, &encodings, &study, RootMode::Hall).unwrap();
        let labels: Vec<String> = specs.iter().map(Entry::label).collect();
        assert_eq!(
            labels,
            [
                "cdcl/extended+reduced",
                "cdcl/minimal+reduced",
                "cdcl[propagate=grid,root=none,seed=3]/extended+reduced",
                "cdcl[propagate=grid,root=none,seed=3]/minimal+reduced",
                "dpll/minimal",
                "hill[seed=5]",
                "hill",
            ]
        );
        let backend = |i: usize| match &specs[i] {
            SolverSpec::Sat { backend, .. } => backend.clone(),
            SolverSpec::Classic { .. } => panic!("a SAT entry"),
        };
        // The study's root and seed where the entry gives none, the entry's own where it does.
        assert_eq!((backend(0).root, backend(0).seed), (RootMode::Hall, 42));
        assert_eq!((backend(2).root, backend(2).seed), (RootMode::None, 3));
        assert_eq!(backend(2).propagate, crate::backend::Propagate::Grid);
        let seed = |i: usize| match &specs[i] {
            SolverSpec::Classic { options, .. } => options.seed,
            SolverSpec::Sat { .. } => panic!("a classic entry"),
        };
        assert_eq!((seed(5), seed(6)), (5, 42));
    }

    #[test]
    fn bad_entry_options_name_the_item() {
        let error = |list: &str| parse_solvers(list).unwrap_err().to_string();
        assert_eq!(
            error("cdcl,dlx[root=none]"),
            "--solvers `dlx[root=none]`: `root` is not an option of `dlx`: a classic solver \
             works on the grid itself and takes only seed"
        );
        assert!(
            error("cdcl[speed=2]")
                .starts_with("--solvers `cdcl[speed=2]`: unknown entry option `speed`"),
            "{}",
            error("cdcl[speed=2]")
        );
        assert!(error("varisat[propagate=grid]").contains("takes no propagator"));
        assert!(error("cdcl[threads=0]").contains("expected a whole number from 1"));
        assert!(error("cdcl[seed=1").contains("go in one bracket right after its name"));
        // Two entries that would share a label are refused before anything runs.
        let twice = entries(
            &parse_solvers("cdcl[encoding=minimal],cdcl").unwrap(),
            &parse_encodings("minimal,extended").unwrap(),
            &SolverOptions::default(),
        )
        .unwrap();
        let labels: Vec<String> = twice.iter().map(Entry::label).collect();
        assert_eq!(labels, ["cdcl/minimal", "cdcl/minimal", "cdcl/extended"]);
        assert_eq!(
            CompareConfig::new(twice)
                .validate()
                .unwrap_err()
                .to_string(),
            "entries 1 and 2 are both labelled `cdcl/minimal`: give them different options \
             or leave one out"
        );
    }

    #[test]
    fn an_entry_with_threads_runs_its_solves_one_at_a_time() {
        let puzzles: Vec<Puzzle> = (0..4).map(|_| puzzle(FOUR)).collect();
        let mut config = CompareConfig::new(
            entries(
                &parse_solvers("cdcl[threads=2],dlx").unwrap(),
                &default_encodings(),
                &SolverOptions::default(),
            )
            .unwrap(),
        );
        config.jobs = 2;
        let in_flight = std::sync::atomic::AtomicUsize::new(0);
        let most = std::sync::Mutex::new(std::collections::BTreeMap::<String, usize>::new());
        let watch = Watch {
            stop: Arc::new(AtomicBool::new(false)),
            on_start: &|row| {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                let mut most = most.lock().unwrap();
                let seen = most.entry(row.solver.clone()).or_default();
                *seen = (*seen).max(now);
                // Hold the run a moment, so that a second thread would overlap it.
                std::thread::sleep(Duration::from_millis(20));
            },
            on_run: &|_| {
                in_flight.fetch_sub(1, Ordering::SeqCst);
            },
        };
        let result = run_watched(&puzzles, &config, &watch).unwrap();
        assert_eq!(result.runs.len(), 8);
        assert!(result
            .runs
            .iter()
            .all(|r| r.outcome == Outcome::Solved && r.checked));
        assert_eq!(
            result.threaded,
            [ThreadedEntry {
                entry: "cdcl[threads=2]/extended+reduced".to_string(),
                threads: 2
            }]
        );
        assert_eq!(most.lock().unwrap()["cdcl[threads=2]/extended+reduced"], 1);
        let header = summary::header(&result);
        assert!(
            header.contains(
                "one solve at a time, whatever --jobs, for cdcl[threads=2]/extended+reduced on 2 threads"
            ),
            "{header}"
        );
    }
}
