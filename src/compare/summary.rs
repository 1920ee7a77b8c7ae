//! Runs reduced to per-solver statistics (as the literature reports them: solved / failed /
//! timed out, mean, median, variance, maximum and the ten slowest puzzles), optionally per
//! clue count or size, and the aligned text tables `sudosat compare` prints.
//!
//! A puzzle's time is the median `total_us` of its solved repeats; puzzles with no solved
//! repeat have no time (they show in the outcome counts). The variance is the sample
//! variance (n − 1) of the puzzle times.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::{Comparison, GroupBy, Outcome, Run};

/// How many of the slowest puzzles a summary lists.
pub const SLOWEST: usize = 10;

/// A slow puzzle of a summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlowPuzzle {
    /// 1-based index among all inputs.
    pub puzzle_index: usize,
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// Side n.
    pub size: usize,
    /// Givens.
    pub givens: usize,
    /// Median time of its solved repeats, µs.
    pub time_us: f64,
}

/// Statistics of one solver entry over all puzzles, or over one group of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The entry's label.
    pub solver: String,
    /// The clue count or size of the group (`None`: all puzzles).
    pub group: Option<usize>,
    /// Runs made.
    pub runs: usize,
    /// Runs with a checked solution.
    pub solved: usize,
    /// Runs that proved no solution.
    pub no_solution: usize,
    /// Runs of an incomplete method that stopped.
    pub stopped: usize,
    /// Runs that reached the time limit.
    pub timeout: usize,
    /// Runs that failed.
    pub failed: usize,
    /// Runs with a wrong answer.
    pub wrong: usize,
    /// Puzzles with a time (at least one solved repeat).
    pub timed_puzzles: usize,
    /// Mean puzzle time, µs.
    pub mean_us: Option<f64>,
    /// Median puzzle time, µs.
    pub median_us: Option<f64>,
    /// Sample variance of the puzzle times, µs².
    pub variance_us2: Option<f64>,
    /// Largest puzzle time, µs.
    pub max_us: Option<f64>,
    /// The [`SLOWEST`] slowest puzzles, slowest first.
    pub slowest: Vec<SlowPuzzle>,
}

impl Summary {
    /// The count of runs with this outcome.
    pub fn count(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Solved => self.solved,
            Outcome::NoSolution => self.no_solution,
            Outcome::Stopped => self.stopped,
            Outcome::Timeout => self.timeout,
            Outcome::Failed => self.failed,
            Outcome::Wrong => self.wrong,
        }
    }
}

/// The median of `values` (sorted in place); `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// Summarises the runs of one solver (and group).
fn summarize_runs(solver: &str, group: Option<usize>, runs: &[&Run]) -> Summary {
    let count = |o: Outcome| runs.iter().filter(|r| r.outcome == o).count();
    let mut per_puzzle: BTreeMap<usize, (&Run, Vec<f64>)> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.outcome == Outcome::Solved) {
        per_puzzle
            .entry(run.puzzle_index)
            .or_insert_with(|| (run, Vec::new()))
            .1
            .push(run.total_us);
    }
    let mut slow: Vec<SlowPuzzle> = per_puzzle
        .into_values()
        .filter_map(|(run, mut times)| {
            Some(SlowPuzzle {
                puzzle_index: run.puzzle_index,
                file: run.file.clone(),
                line: run.line,
                size: run.size,
                givens: run.givens,
                time_us: median(&mut times)?,
            })
        })
        .collect();
    let mut times: Vec<f64> = slow.iter().map(|p| p.time_us).collect();
    let n = times.len();
    let mean = (n > 0).then(|| times.iter().sum::<f64>() / n as f64);
    let variance = mean.map(|m| {
        if n < 2 {
            0.0
        } else {
            times.iter().map(|t| (t - m) * (t - m)).sum::<f64>() / (n - 1) as f64
        }
    });
    slow.sort_by(|a, b| {
        b.time_us
            .total_cmp(&a.time_us)
            .then(a.puzzle_index.cmp(&b.puzzle_index))
    });
    slow.truncate(SLOWEST);
    Summary {
        solver: solver.to_string(),
        group,
        runs: runs.len(),
        solved: count(Outcome::Solved),
        no_solution: count(Outcome::NoSolution),
        stopped: count(Outcome::Stopped),
        timeout: count(Outcome::Timeout),
        failed: count(Outcome::Failed),
        wrong: count(Outcome::Wrong),
        timed_puzzles: n,
        mean_us: mean,
        median_us: median(&mut times),
        variance_us2: variance,
        max_us: slow.first().map(|p| p.time_us),
        slowest: slow,
    }
}

/// One summary per solver of `solvers` (in that order) over all its runs; with `by`, one
/// per solver and group instead, groups ascending.
pub fn summarize(runs: &[Run], solvers: &[String], by: Option<GroupBy>) -> Vec<Summary> {
    let mut out = Vec::new();
    for solver in solvers {
        let mine: Vec<&Run> = runs.iter().filter(|r| &r.solver == solver).collect();
        match by {
            None => out.push(summarize_runs(solver, None, &mine)),
            Some(by) => {
                let mut groups: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
                for run in mine {
                    groups.entry(by.key(run)).or_default().push(run);
                }
                out.extend(
                    groups
                        .into_iter()
                        .map(|(g, runs)| summarize_runs(solver, Some(g), &runs)),
                );
            }
        }
    }
    out
}

/// The mean size of one encoding over the puzzles it encoded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EncodingSize {
    /// The encoding's name.
    pub encoding: String,
    /// Puzzles it encoded.
    pub puzzles: usize,
    /// Mean variables.
    pub vars: f64,
    /// Mean clauses.
    pub clauses: f64,
    /// Mean literal occurrences.
    pub literals: f64,
}

/// Mean variables, clauses and literals of each encoding in the runs, each puzzle counted
/// once per encoding (whatever the backend and repeat), in order of first appearance.
pub fn encoding_sizes(runs: &[Run]) -> Vec<EncodingSize> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: BTreeMap<(String, usize), [usize; 3]> = BTreeMap::new();
    for run in runs {
        let (Some(encoding), Some(vars), Some(clauses), Some(literals)) =
            (&run.encoding, run.vars, run.clauses, run.literals)
        else {
            continue;
        };
        if !order.contains(encoding) {
            order.push(encoding.clone());
        }
        seen.entry((encoding.clone(), run.puzzle_index))
            .or_insert([vars, clauses, literals]);
    }
    order
        .into_iter()
        .map(|encoding| {
            let sizes: Vec<[usize; 3]> = seen
                .iter()
                .filter(|((e, _), _)| *e == encoding)
                .map(|(_, s)| *s)
                .collect();
            let mean = |i: usize| {
                sizes.iter().map(|s| s[i] as f64).sum::<f64>() / sizes.len().max(1) as f64
            };
            EncodingSize {
                encoding,
                puzzles: sizes.len(),
                vars: mean(0),
                clauses: mean(1),
                literals: mean(2),
            }
        })
        .collect()
}

/// The last component of a path, to keep the slowest-puzzle lists short.
fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

fn ms(us: Option<f64>) -> String {
    us.map_or_else(|| "-".to_string(), |us| format!("{:.3}", us / 1e3))
}

fn ms2(us2: Option<f64>) -> String {
    us2.map_or_else(|| "-".to_string(), |v| format!("{:.3}", v / 1e6))
}

/// How [`write_table`] lays out its tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableStyle {
    /// Aligned plain-text columns.
    #[default]
    Text,
    /// Markdown (GitHub) tables and lists, for BENCHMARKS.md.
    Markdown,
}

impl TableStyle {
    /// A section title, with the blank line a Markdown table needs after it.
    fn title(self, w: &mut dyn Write, title: &str) -> io::Result<()> {
        writeln!(w, "{title}")?;
        if self == TableStyle::Markdown {
            writeln!(w)?;
        }
        Ok(())
    }

    /// The start of a list item.
    fn bullet(self) -> &'static str {
        match self {
            TableStyle::Text => "  ",
            TableStyle::Markdown => "- ",
        }
    }
}

/// Writes a Markdown table: a header row, the alignment row (first column left, the others
/// right), the rows; `|` in a cell is escaped.
fn write_markdown(w: &mut dyn Write, rows: &[Vec<String>]) -> io::Result<()> {
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        writeln!(w, "| {} |", cells.join(" | "))?;
        if i == 0 {
            let align: Vec<&str> = (0..row.len())
                .map(|c| if c == 0 { "---" } else { "---:" })
                .collect();
            writeln!(w, "|{}|", align.join("|"))?;
        }
    }
    Ok(())
}

/// Writes rows of cells as columns: the first left-aligned, the others right-aligned.
fn write_columns(w: &mut dyn Write, rows: &[Vec<String>], style: TableStyle) -> io::Result<()> {
    if style == TableStyle::Markdown {
        return write_markdown(w, rows);
    }
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len))
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, (cell, width)) in row.iter().zip(&widths).enumerate() {
            if c == 0 {
                line.push_str(&format!("{cell:<width$}"));
            } else {
                line.push_str(&format!("  {cell:>width$}"));
            }
        }
        writeln!(w, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The header line of a comparison: what ran, how (sequential or parallel), the limits,
/// and whether it was interrupted.
pub fn header(comparison: &Comparison) -> String {
    let made = comparison.runs.len();
    let planned = comparison.puzzles * comparison.solvers.len() * comparison.repeat;
    let mut text = format!(
        "sudosat compare: {} puzzles × {} entries × {} repeats = {planned} runs; ",
        comparison.puzzles,
        comparison.solvers.len(),
        comparison.repeat
    );
    if comparison.parallel {
        text.push_str(&format!(
            "parallel: puzzles on {} threads (--jobs), each solve timed on one thread",
            comparison.jobs
        ));
    } else {
        text.push_str("sequential: one solve at a time on one thread");
    }
    match comparison.timeout_s {
        Some(t) => text.push_str(&format!("; time limit {t} s per solve")),
        None => text.push_str("; no time limit"),
    }
    if comparison.interrupted {
        text.push_str(&format!(
            "\ninterrupted: {made} of {planned} runs made; the figures cover those"
        ));
    }
    text
}

/// Writes one summary table: a row per summary, with the group column when `by` is set.
fn write_summaries(
    w: &mut dyn Write,
    summaries: &[Summary],
    by: Option<GroupBy>,
    style: TableStyle,
) -> io::Result<()> {
    let mut head: Vec<String> = vec!["solver".to_string()];
    if let Some(by) = by {
        head.push(by.name().to_string());
    }
    head.push("runs".to_string());
    head.extend(Outcome::ALL.iter().map(|o| o.name().to_string()));
    head.extend(
        ["mean_ms", "median_ms", "var_ms2", "max_ms"]
            .iter()
            .map(|s| s.to_string()),
    );
    let mut rows = vec![head];
    for s in summaries {
        let mut row = vec![s.solver.clone()];
        if by.is_some() {
            row.push(s.group.map_or_else(String::new, |g| g.to_string()));
        }
        row.push(s.runs.to_string());
        row.extend(Outcome::ALL.iter().map(|&o| s.count(o).to_string()));
        row.extend([
            ms(s.mean_us),
            ms(s.median_us),
            ms2(s.variance_us2),
            ms(s.max_us),
        ]);
        rows.push(row);
    }
    write_columns(w, &rows, style)
}

/// Writes the report: header, the summary table (one row per solver), with `by` the same
/// per solver and group, the mean encoding sizes, each solver's slowest puzzles and the
/// first failure or wrong answer of each solver. Times in ms.
///
/// # Errors
/// Any write error.
pub fn write_table(
    w: &mut dyn Write,
    comparison: &Comparison,
    by: Option<GroupBy>,
    style: TableStyle,
) -> io::Result<()> {
    writeln!(w, "{}", header(comparison))?;
    writeln!(w)?;
    let overall = summarize(&comparison.runs, &comparison.solvers, None);
    write_summaries(w, &overall, None, style)?;
    if let Some(by) = by {
        writeln!(w)?;
        style.title(w, &format!("by {}:", by.name()))?;
        let grouped = summarize(&comparison.runs, &comparison.solvers, Some(by));
        write_summaries(w, &grouped, Some(by), style)?;
    }

    let sizes = encoding_sizes(&comparison.runs);
    if !sizes.is_empty() {
        writeln!(w)?;
        style.title(w, "encoding sizes (mean per puzzle):")?;
        let mut rows = vec![["encoding", "puzzles", "vars", "clauses", "literals"]
            .map(str::to_string)
            .to_vec()];
        for s in &sizes {
            rows.push(vec![
                s.encoding.clone(),
                s.puzzles.to_string(),
                format!("{:.0}", s.vars),
                format!("{:.0}", s.clauses),
                format!("{:.0}", s.literals),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    writeln!(w)?;
    style.title(
        w,
        "slowest puzzles per solver (median of solved repeats, ms; full paths in CSV/JSON):",
    )?;
    for s in &overall {
        let list: Vec<String> = s
            .slowest
            .iter()
            .map(|p| format!("{} {}:{}", ms(Some(p.time_us)), file_name(&p.file), p.line))
            .collect();
        let list = if list.is_empty() {
            "(none solved)".to_string()
        } else {
            list.join(", ")
        };
        writeln!(w, "{}{}: {list}", style.bullet(), s.solver)?;
    }
    let errors: Vec<&Run> = comparison
        .runs
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Failed | Outcome::Wrong))
        .collect();
    if !errors.is_empty() {
        writeln!(w)?;
        style.title(w, "failures and wrong answers (first of each solver):")?;
        for solver in &comparison.solvers {
            if let Some(r) = errors.iter().find(|r| &r.solver == solver) {
                writeln!(
                    w,
                    "{}{solver}: {} at {}:{}: {}",
                    style.bullet(),
                    r.outcome,
                    r.file,
                    r.line,
                    r.error.as_deref().unwrap_or("")
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
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
            encode_us: None,
            solve_us: us,
            decode_us: None,
            total_us: us,
            counters: Counters::default(),
            error: None,
        }
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
        let all = summarize(&runs, &solvers, None);
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
        let b = &all[1];
        assert_eq!((b.stopped, b.timed_puzzles, b.mean_us), (1, 0, None));

        let grouped = summarize(&runs, &solvers, Some(GroupBy::Clues));
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
    fn repeats_reduce_to_their_median() {
        let mut runs = Vec::new();
        for us in [10.0, 30.0, 20.0] {
            runs.push(run(1, "a", 17, Outcome::Solved, us));
        }
        let s = &summarize(&runs, &["a".to_string()], None)[0];
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
        let sizes = encoding_sizes(&runs);
        assert_eq!(sizes.len(), 1);
        assert_eq!((sizes[0].puzzles, sizes[0].clauses), (2, 150.0));
        assert_eq!(sizes[0].literals, 450.0);
    }

    #[test]
    fn table_lists_every_solver_and_outcome_column() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 1500.0),
            run(1, "b", 17, Outcome::Failed, 0.0),
        ];
        let comparison = Comparison {
            puzzles: 1,
            solvers: vec!["a".to_string(), "b".to_string()],
            repeat: 1,
            timeout_s: Some(0.5),
            jobs: 1,
            parallel: false,
            interrupted: false,
            runs,
        };
        let mut out = Vec::new();
        write_table(
            &mut out,
            &comparison,
            Some(GroupBy::Clues),
            TableStyle::Text,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("sequential"), "{text}");
        assert!(text.contains("time limit 0.5 s"), "{text}");
        let head = text.lines().nth(2).unwrap();
        for o in Outcome::ALL {
            assert!(head.contains(o.name()), "{head}");
        }
        let a = text.lines().find(|l| l.starts_with("a ")).unwrap();
        assert!(a.contains("1.500"), "{a}");
        assert!(text.contains("  a: 1.500 f:1\n"), "{text}");
        assert!(text.contains("b: failed at data/f:1"), "{text}");
        assert!(text.contains("by clues:\nsolver  clues"), "{text}");
    }

    #[test]
    fn markdown_tables_have_an_alignment_row() {
        let comparison = Comparison {
            puzzles: 1,
            solvers: vec!["a|b".to_string()],
            repeat: 1,
            timeout_s: None,
            jobs: 1,
            parallel: false,
            interrupted: false,
            runs: vec![run(1, "a|b", 17, Outcome::Solved, 1500.0)],
        };
        let mut out = Vec::new();
        write_table(&mut out, &comparison, None, TableStyle::Markdown).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].starts_with("| solver | runs | solved |"), "{text}");
        assert_eq!(lines[3], format!("|---|{}", "---:|".repeat(11)));
        assert!(lines[4].starts_with("| a\\|b | 1 | 1 |"), "{text}");
        assert!(text.contains("\n- a|b: 1.500 f:1\n"), "{text}");
    }
}
