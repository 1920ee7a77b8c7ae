//! Runs reduced to per-solver statistics (as the literature reports them: solved / failed /
//! timed out, mean, median, variance, maximum, PAR-2 and the ten slowest puzzles),
//! optionally per clue count or size, a virtual best solver, and the aligned text tables
//! `sudosat compare` prints.
//!
//! A puzzle's time is the median `total_us` of its answered repeats (a checked solution,
//! or "no solution" that no entry contradicted: an unsolvable puzzle or an UNSAT formula
//! is an answer); puzzles with no answered repeat have no time (they show in the outcome
//! counts). The variance is the sample variance (n − 1) of the puzzle times. PAR-2
//! (penalised average runtime, the score of the SAT competitions) is the mean over puzzles
//! of the puzzle time, an unanswered puzzle counting twice the run's time limit; without a
//! limit it is not defined.
//!
//! A `stopped` run ([`Outcome::Stopped`](super::Outcome::Stopped): an incomplete method that gave up, or a run in
//! flight when the comparison was stopped by a signal) is neither solved nor a time-out:
//! it has its own count, and a puzzle whose runs of an entry were all stopped is left out
//! of that entry's PAR-2 (it was not measured to an end), as a puzzle the entry never ran
//! is (shown `-`, not `stopped`, in the per-puzzle tables). The *virtual best solver* takes, for each puzzle, the fastest
//! entry that answered it. The ratios set each entry's total time against the first
//! entry's on the puzzles both answered.
//!
//! [`Analysis`] holds all of it, computed once per comparison; the table, the CSV/JSON
//! writers, the plots and the HTML report read it.
//!
//! The files: `stats.rs` (per-entry statistics, PAR-2), `best.rs` (puzzle times, the
//! virtual best solver, ratios), `instances.rs` (the per-instance table), `sizes.rs`
//! (encoding sizes), `analysis.rs` (all of it computed once), `table.rs` (the printed
//! tables).

mod analysis;
mod best;
mod instances;
mod sizes;
mod stats;
mod table;

pub use analysis::{measured, Analysis, Measured};
pub use best::{puzzle_times, virtual_best, PuzzleTimes, Ratio, VIRTUAL_BEST};
pub use instances::{InstanceResult, InstanceRow, PER_INSTANCE_SHOWN};
pub use sizes::{encoding_sizes, solved_sizes, EncodingSize, SolvedSize};
pub use stats::{median, seconds, summarize, SlowPuzzle, Summary, SLOWEST};
pub use table::{
    header, runs_planned, summary_cells, summary_head, threaded_note, write_table, TableStyle,
};

#[cfg(test)]
mod tests {
    use super::table::write_columns;
    use super::*;
    use crate::compare::{Comparison, GroupBy, Outcome, Run};
    use crate::run::Counters;

    fn run(index: usize, solver: &str, givens: usize, outcome: Outcome, us: f64) -> Run {
        Run {
            file: "data/f".to_string(),
            line: index,
            puzzle_index: index,
            size: 9,
            givens,
            solver: solver.to_string(),
            backend: None,
            encoding: None,
            repeat: 1,
            outcome,
            checked: outcome == Outcome::Solved,
            vars: None,
            clauses: None,
            literals: None,
            puzzle_vars: None,
            puzzle_clauses: None,
            puzzle_literals: None,
            encode_us: None,
            solve_us: us,
            decode_us: None,
            total_us: us,
            counters: Counters::default(),
            error: None,
        }
    }

    /// A comparison made one solve at a time, one repeat each, not interrupted.
    fn sequential(
        puzzles: usize,
        solvers: &[&str],
        timeout_s: Option<f64>,
        runs: Vec<Run>,
    ) -> Comparison {
        Comparison {
            puzzles,
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            repeat: 1,
            timeout_s,
            jobs: 1,
            parallel: false,
            interrupted: false,
            threaded: Vec::new(),
            runs,
        }
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        let one = sequential(1, &["a"], None, Vec::new());
        assert_eq!(runs_planned(&one), "1 puzzle × 1 entry × 1 repeat");
        let mut two = sequential(2, &["a", "b"], None, Vec::new());
        two.repeat = 3;
        assert_eq!(runs_planned(&two), "2 puzzles × 2 entries × 3 repeats");
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }

    #[test]
    fn statistics_over_puzzle_times() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(2, "a", 17, Outcome::Solved, 200.0),
            run(3, "a", 20, Outcome::Solved, 600.0),
            run(4, "a", 20, Outcome::Timeout, 9000.0),
            run(5, "a", 20, Outcome::Failed, 0.0),
            run(1, "b", 17, Outcome::Stopped, 50.0),
        ];
        let solvers = ["a".to_string(), "b".to_string()];
        let all = summarize(&runs, &solvers, None, Some(0.01));
        assert_eq!(all.len(), 2);
        let a = &all[0];
        assert_eq!((a.runs, a.solved, a.timeout, a.failed), (5, 3, 1, 1));
        assert_eq!(a.mean_us, Some(300.0));
        assert_eq!(a.median_us, Some(200.0));
        // Sample variance of 100, 200, 600: (200² + 100² + 300²) / 2.
        assert_eq!(a.variance_us2, Some(70_000.0));
        assert_eq!(a.max_us, Some(600.0));
        let order: Vec<usize> = a.slowest.iter().map(|p| p.puzzle_index).collect();
        assert_eq!(order, [3, 2, 1]);
        // PAR-2 with a 10 ms limit: 100 + 200 + 600 + 2 × 20,000 (twice) over 5 puzzles.
        assert_eq!(a.par2_us, Some((900.0 + 4.0 * 10_000.0) / 5.0));
        let b = &all[1];
        assert_eq!((b.stopped, b.timed_puzzles, b.mean_us), (1, 0, None));
        // Its one run was stopped: no puzzle to score.
        assert_eq!(b.par2_us, None);
        assert_eq!(summarize(&runs, &solvers, None, None)[0].par2_us, None);

        let grouped = summarize(&runs, &solvers, Some(GroupBy::Clues), None);
        let keys: Vec<(&str, Option<usize>, usize)> = grouped
            .iter()
            .map(|s| (s.solver.as_str(), s.group, s.runs))
            .collect();
        assert_eq!(
            keys,
            [("a", Some(17), 2), ("a", Some(20), 3), ("b", Some(17), 1)]
        );
        assert_eq!(grouped[1].median_us, Some(600.0));
    }

    #[test]
    fn stopped_runs_are_neither_solved_nor_time_outs_and_stay_out_of_par2() {
        let mut repeat_2 = run(4, "a", 17, Outcome::Solved, 300.0);
        repeat_2.repeat = 2;
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(2, "a", 17, Outcome::Stopped, 5.0),
            run(3, "a", 17, Outcome::Timeout, 10_000.0),
            run(4, "a", 17, Outcome::Stopped, 1.0),
            repeat_2,
        ];
        let a = &summarize(&runs, &["a".to_string()], None, Some(0.01))[0];
        assert_eq!(
            (a.runs, a.solved, a.stopped, a.timeout, a.timed_puzzles),
            (5, 2, 2, 1, 2)
        );
        // Puzzles 1 and 4 answered (100, 300 µs), 3 timed out (2 × 10 ms); 2, all its
        // runs stopped, is left out: three puzzles.
        assert_eq!(a.par2_us, Some((100.0 + 300.0 + 20_000.0) / 3.0));
        assert_eq!(a.median_us, Some(200.0));
    }

    #[test]
    fn the_virtual_best_takes_the_fastest_entry_per_puzzle() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(1, "b", 17, Outcome::Solved, 40.0),
            run(2, "a", 20, Outcome::Solved, 300.0),
            run(2, "b", 20, Outcome::Timeout, 9000.0),
            run(3, "a", 20, Outcome::Timeout, 9000.0),
            run(3, "b", 20, Outcome::Failed, 1.0),
            run(4, "a", 20, Outcome::Wrong, 5.0),
            run(4, "b", 20, Outcome::Solved, 70.0),
        ];
        let comparison = sequential(4, &["a", "b"], Some(0.001), runs);
        let analysis = Analysis::new(&comparison, Some(GroupBy::Clues));
        let vbs = &analysis.virtual_best;
        assert_eq!((vbs.solver.as_str(), vbs.runs), (VIRTUAL_BEST, 4));
        assert_eq!((vbs.solved, vbs.timeout), (3, 1));
        assert_eq!(vbs.mean_us, Some((40.0 + 300.0 + 70.0) / 3.0));
        assert_eq!(vbs.par2_us, Some((40.0 + 300.0 + 70.0 + 2000.0) / 4.0));
        assert_eq!(
            analysis.fastest_on,
            [("a".to_string(), 1), ("b".to_string(), 2)]
        );
        let groups: Vec<(Option<usize>, usize)> = analysis
            .virtual_best_by_group
            .iter()
            .map(|s| (s.group, s.solved))
            .collect();
        assert_eq!(groups, [(Some(17), 1), (Some(20), 2)]);
        assert_eq!(analysis.puzzle_times[1].len(), 2);
        assert_eq!(analysis.virtual_best_times.get(&1), Some(&40.0));
    }

    #[test]
    fn no_solution_is_an_answer_and_ratios_cover_what_both_answered() {
        // Puzzle 2 has no solution and both entries say so; c answers only puzzle 1.
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(1, "b", 17, Outcome::Solved, 50.0),
            run(1, "c", 17, Outcome::Solved, 400.0),
            run(2, "a", 17, Outcome::NoSolution, 300.0),
            run(2, "b", 17, Outcome::NoSolution, 900.0),
            run(2, "c", 17, Outcome::Timeout, 5000.0),
        ];
        let comparison = sequential(2, &["a", "b", "c"], Some(0.002), runs);
        let analysis = Analysis::new(&comparison, None);
        let b = &analysis.summary[1];
        assert_eq!((b.solved, b.no_solution, b.timed_puzzles), (1, 1, 2));
        assert_eq!(b.par2_us, Some((50.0 + 900.0) / 2.0));
        let c = &analysis.summary[2];
        assert_eq!(c.par2_us, Some((400.0 + 4000.0) / 2.0));
        let vbs = &analysis.virtual_best;
        assert_eq!((vbs.solved, vbs.no_solution), (1, 1));
        assert_eq!(vbs.mean_us, Some((50.0 + 300.0) / 2.0));
        let ratios: Vec<(&str, usize, f64, f64)> = analysis
            .ratios
            .iter()
            .map(|r| (r.solver.as_str(), r.common, r.total_us, r.reference_us))
            .collect();
        assert_eq!(ratios, [("b", 2, 950.0, 400.0), ("c", 1, 400.0, 100.0)]);
        assert_eq!(analysis.ratios[1].ratio(), Some(4.0));
        assert_eq!(analysis.instance, "puzzle");
        let mut table = Vec::new();
        write_table(&mut table, &comparison, &analysis, TableStyle::Text).unwrap();
        let table = String::from_utf8(table).unwrap();
        assert!(
            table.contains("time against a on the puzzles both answered"),
            "{table}"
        );
        let c_row: Vec<&str> = table
            .lines()
            .skip_while(|l| !l.starts_with("time against"))
            .find(|l| l.starts_with("c "))
            .expect("a ratio row for c")
            .split_whitespace()
            .collect();
        assert_eq!(c_row, ["c", "1", "0.400", "0.100", "4.000"], "{table}");
    }

    #[test]
    fn formulas_get_a_row_each_with_every_entrys_result() {
        // A formula run: one file, no grid (size 0), the formula's own size.
        let formula = |index: usize, solver: &str, outcome: Outcome, us: f64| Run {
            file: format!("dir/f{index}.cnf"),
            line: 1,
            size: 0,
            vars: Some(10 * index),
            clauses: Some(40 * index),
            literals: Some(100 * index),
            puzzle_vars: Some(10 * index),
            puzzle_clauses: Some(40 * index),
            puzzle_literals: Some(100 * index),
            ..run(index, solver, 0, outcome, us)
        };
        let runs = vec![
            formula(1, "a", Outcome::Solved, 100.0),
            formula(1, "a", Outcome::Solved, 300.0),
            formula(1, "b", Outcome::Wrong, 10.0),
            formula(2, "a", Outcome::Timeout, 1e6),
            formula(2, "b", Outcome::NoSolution, 50.0),
            formula(3, "a", Outcome::Stopped, 5.0),
            formula(3, "a", Outcome::Timeout, 1e6),
            formula(3, "b", Outcome::Failed, 5.0),
        ];
        let comparison = sequential(3, &["a", "b"], Some(1.0), runs);
        let analysis = Analysis::new(&comparison, None);
        type Results = Vec<(Outcome, Option<f64>)>;
        let results: Vec<(&str, Option<usize>, Results)> = analysis
            .per_instance
            .iter()
            .map(|row| {
                let results = row
                    .results
                    .iter()
                    .map(|r| (r.outcome.expect("each entry ran"), r.time_us))
                    .collect();
                (row.file.as_str(), row.clauses, results)
            })
            .collect();
        use Outcome::*;
        assert_eq!(
            results,
            [
                (
                    "dir/f1.cnf",
                    Some(40),
                    vec![(Solved, Some(200.0)), (Wrong, None)]
                ),
                (
                    "dir/f2.cnf",
                    Some(80),
                    vec![(Timeout, None), (NoSolution, Some(50.0))]
                ),
                (
                    "dir/f3.cnf",
                    Some(120),
                    vec![(Timeout, None), (Failed, None)]
                ),
            ]
        );
        let mut table = Vec::new();
        write_table(&mut table, &comparison, &analysis, TableStyle::Text).unwrap();
        let table = String::from_utf8(table).unwrap();
        let rows: Vec<Vec<&str>> = table
            .lines()
            .skip_while(|l| !l.starts_with("per formula"))
            .skip(1)
            .take(4)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            rows,
            [
                vec!["formula", "vars", "clauses", "a", "b"],
                vec!["f1.cnf", "10", "40", "0.200", "wrong"],
                vec!["f2.cnf", "20", "80", "timeout", "0.050"],
                vec!["f3.cnf", "30", "120", "timeout", "failed"],
            ],
            "{table}"
        );
        // Puzzles are placed by file and line, with their size and givens.
        let puzzles = sequential(1, &["a"], None, vec![run(1, "a", 17, Solved, 1500.0)]);
        let analysis = Analysis::new(&puzzles, None);
        let row = &analysis.per_instance[0];
        let cells = [&row.place(false, "f")[..], &[row.results[0].cell()]].concat();
        assert_eq!(cells, ["f:1", "9", "17", "1.500"]);
        // An entry stopped (Ctrl-C) before a puzzle has no result there: `-`, not a failure.
        let mut stopped = sequential(1, &["a", "b"], None, vec![run(1, "a", 17, Solved, 1.0)]);
        stopped.interrupted = true;
        let analysis = Analysis::new(&stopped, None);
        let b = &analysis.per_instance[0].results[1];
        assert_eq!((b.outcome, b.cell()), (None, "-".to_string()));
    }

    #[test]
    fn repeats_reduce_to_their_median() {
        let mut runs = Vec::new();
        for us in [10.0, 30.0, 20.0] {
            runs.push(run(1, "a", 17, Outcome::Solved, us));
        }
        let s = &summarize(&runs, &["a".to_string()], None, Some(1.0))[0];
        assert_eq!(s.par2_us, Some(20.0));
        assert_eq!((s.runs, s.timed_puzzles, s.mean_us), (3, 1, Some(20.0)));
    }

    #[test]
    fn encoding_sizes_count_each_puzzle_once() {
        let mut runs = Vec::new();
        for (index, solver, clauses) in [(1, "x", 100), (1, "y", 100), (2, "x", 200)] {
            let mut r = run(index, solver, 17, Outcome::Solved, 1.0);
            r.encoding = Some("minimal".to_string());
            (r.vars, r.clauses, r.literals) = (Some(10), Some(clauses), Some(3 * clauses));
            runs.push(r);
        }
        let mut large = run(3, "x", 100, Outcome::Solved, 1.0);
        large.size = 16;
        large.encoding = Some("minimal".to_string());
        (large.vars, large.clauses, large.literals) = (Some(5), Some(7), Some(9));
        runs.insert(0, large);
        let mut sizes = encoding_sizes(&runs);
        assert_eq!(sizes.len(), 2, "one row per grid size");
        assert_eq!((sizes[1].size, sizes[1].clauses), (16, 7.0));
        sizes.remove(1);
        assert_eq!(sizes[0].size, 9);
        assert_eq!((sizes[0].puzzles, sizes[0].clauses), (2, 150.0));
        assert_eq!(sizes[0].literals, 450.0);
    }

    #[test]
    fn table_lists_every_solver_and_outcome_column() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 1500.0),
            run(1, "b", 17, Outcome::Failed, 0.0),
        ];
        let comparison = sequential(1, &["a", "b"], Some(0.5), runs);
        let mut out = Vec::new();
        let analysis = Analysis::new(&comparison, Some(GroupBy::Clues));
        write_table(&mut out, &comparison, &analysis, TableStyle::Text).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("sequential"), "{text}");
        assert!(text.contains("time limit 0.5 s"), "{text}");
        assert!(text.contains("2 × the 0.5 s limit"), "{text}");
        let head = text.lines().nth(3).unwrap();
        for o in Outcome::ALL {
            assert!(head.contains(o.name()), "{head}");
        }
        let a = text.lines().find(|l| l.starts_with("a ")).unwrap();
        assert!(a.contains("1.500"), "{a}");
        // b failed its only puzzle: PAR-2 = 2 × 500 ms.
        let b = text.lines().find(|l| l.starts_with("b ")).unwrap();
        assert!(b.ends_with(" 1000.000"), "{b}");
        let vbs = text.lines().find(|l| l.starts_with(VIRTUAL_BEST)).unwrap();
        assert!(vbs.ends_with(" 1.500"), "{vbs}");
        assert!(text.contains("  a: 1.500 f:1\n"), "{text}");
        assert!(text.contains("b: failed at data/f:1"), "{text}");
        assert!(text.contains("by clues:\nsolver        clues"), "{text}");
        assert!(text.contains("\nvirtual-best     17"), "{text}");
    }

    #[test]
    fn markdown_tables_have_an_alignment_row() {
        let comparison = sequential(
            1,
            &["a|b"],
            None,
            vec![run(1, "a|b", 17, Outcome::Solved, 1500.0)],
        );
        let mut out = Vec::new();
        let analysis = Analysis::new(&comparison, None);
        write_table(&mut out, &comparison, &analysis, TableStyle::Markdown).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[3].starts_with("| solver | runs | solved |"), "{text}");
        assert_eq!(lines[4], format!("|---|{}", "---:|".repeat(12)));
        assert!(lines[5].starts_with("| a\\|b | 1 | 1 |"), "{text}");
        assert!(text.contains("\n- a|b: 1.500 f:1\n"), "{text}");
    }

    #[test]
    fn text_columns_align_cells_longer_than_a_format_width() {
        // `format!("{:<w$}")` panics above 65,535; a label read from a CSV can be longer.
        let long = "x".repeat(70_000);
        let rows = vec![
            vec!["entry".to_string(), "time".to_string()],
            vec![long.clone(), "1.5".to_string()],
            vec!["é".to_string(), "12.25".to_string()],
        ];
        let mut out = Vec::new();
        write_columns(&mut out, &rows, TableStyle::Text).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("entry{}   time", " ".repeat(70_000 - 5)));
        assert_eq!(lines[1], format!("{long}    1.5"));
        assert_eq!(lines[2], format!("é{}  12.25", " ".repeat(70_000 - 1)));
    }
}
