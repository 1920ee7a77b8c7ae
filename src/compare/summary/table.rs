//! The text `sudosat compare` prints: the header (what ran, how, under which limits), the
//! summary table, the per-instance table and the sizes, as aligned columns or Markdown.

use std::io::{self, Write};

use super::analysis::Analysis;
use super::best::Ratio;
use super::instances::{InstanceResult, InstanceRow, PER_INSTANCE_SHOWN};
use super::stats::Summary;
use crate::compare::{Comparison, GroupBy, Outcome, Run};
use crate::names::plural;

/// The last component of a path, to keep the slowest-puzzle lists short.
pub(super) fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

pub(super) fn ms(us: Option<f64>) -> String {
    us.map_or_else(|| "-".to_string(), |us| format!("{:.3}", us / 1e3))
}

pub(super) fn ms2(us2: Option<f64>) -> String {
    us2.map_or_else(|| "-".to_string(), |v| format!("{:.3}", v / 1e6))
}

/// How [`write_table`] lays out its tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableStyle {
    /// Aligned plain-text columns.
    #[default]
    Text,
    /// Markdown (GitHub) tables and lists, for the benchmark pages.
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
pub(super) fn write_markdown(w: &mut dyn Write, rows: &[Vec<String>]) -> io::Result<()> {
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
pub(super) fn write_columns(
    w: &mut dyn Write,
    rows: &[Vec<String>],
    style: TableStyle,
) -> io::Result<()> {
    if style == TableStyle::Markdown {
        return write_markdown(w, rows);
    }
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len))
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, (cell, &width)) in row.iter().zip(&widths).enumerate() {
            // Padded by hand: `format!`'s width stops at 65,535, and a label read from a
            // saved CSV can be longer.
            let fill = " ".repeat(width.saturating_sub(cell.chars().count()));
            if c == 0 {
                line.push_str(cell);
                line.push_str(&fill);
            } else {
                line.push_str("  ");
                line.push_str(&fill);
                line.push_str(cell);
            }
        }
        writeln!(w, "{}", line.trim_end())?;
    }
    Ok(())
}

/// `3 puzzles × 2 entries × 1 repeat`: what a full comparison runs, counted.
pub fn runs_planned(comparison: &Comparison) -> String {
    format!(
        "{} × {} × {}",
        plural(comparison.puzzles, comparison.instance()),
        plural(comparison.solvers.len(), "entry"),
        plural(comparison.repeat, "repeat")
    )
}

/// What the header says of the entries whose solves take several threads
/// ([`Comparison::threaded`]): they ran one solve at a time, on their threads, whatever
/// `--jobs` says. `None` when there are none.
pub fn threaded_note(comparison: &Comparison) -> Option<String> {
    if comparison.threaded.is_empty() {
        return None;
    }
    let entries: Vec<String> = comparison
        .threaded
        .iter()
        .map(|t| format!("{} on {} threads", t.entry, t.threads))
        .collect();
    Some(format!(
        "one solve at a time, whatever --jobs, for {}",
        entries.join(", ")
    ))
}

/// The header line of a comparison: what ran, how (sequential or parallel), the limits,
/// and whether it was interrupted.
pub fn header(comparison: &Comparison) -> String {
    let made = comparison.runs.len();
    let planned = comparison.puzzles * comparison.solvers.len() * comparison.repeat;
    let instance = comparison.instance();
    let mut text = format!(
        "sudosat compare: {} = {planned} runs; ",
        runs_planned(comparison)
    );
    if comparison.parallel {
        text.push_str(&format!(
            "parallel: {instance}s on {} threads (--jobs), each solve timed on one thread",
            comparison.jobs
        ));
    } else {
        text.push_str("sequential: one solve at a time on one thread");
    }
    if let Some(note) = threaded_note(comparison) {
        text.push_str("; ");
        text.push_str(&note);
    }
    match comparison.timeout_s {
        Some(t) => text.push_str(&format!("; time limit {t} s per solve")),
        None => text.push_str("; no time limit"),
    }
    if comparison.interrupted {
        let stopped = comparison
            .runs
            .iter()
            .filter(|r| r.error.as_deref() == Some(crate::compare::STOPPED_BY_INTERRUPT))
            .count();
        text.push_str(&format!(
            "\ninterrupted: {made} of {planned} runs made ({stopped} stopped in flight); \
             the figures cover those"
        ));
    }
    text
}

/// The column headers of a summary table (`by`: with the group column).
pub fn summary_head(by: Option<GroupBy>) -> Vec<String> {
    let mut head: Vec<String> = vec!["solver".to_string()];
    if let Some(by) = by {
        head.push(by.name().to_string());
    }
    head.push("runs".to_string());
    head.extend(Outcome::ALL.iter().map(|o| o.name().to_string()));
    head.extend(
        ["mean_ms", "median_ms", "var_ms2", "max_ms", "par2_ms"]
            .iter()
            .map(|s| s.to_string()),
    );
    head
}

/// A summary as the cells of a table row under [`summary_head`]; times in ms, `-` for none.
pub fn summary_cells(s: &Summary, by: Option<GroupBy>) -> Vec<String> {
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
        ms(s.par2_us),
    ]);
    row
}

/// Writes one summary table: a row per summary, with the group column when `by` is set.
pub(super) fn write_summaries(
    w: &mut dyn Write,
    summaries: &[&Summary],
    by: Option<GroupBy>,
    style: TableStyle,
) -> io::Result<()> {
    let mut rows = vec![summary_head(by)];
    rows.extend(summaries.iter().map(|s| summary_cells(s, by)));
    write_columns(w, &rows, style)
}

/// The per-instance table: where each puzzle or formula is, its size, and each entry's
/// time (or how its runs ended), up to [`PER_INSTANCE_SHOWN`] rows.
pub(super) fn write_per_instance(
    w: &mut dyn Write,
    analysis: &Analysis,
    style: TableStyle,
) -> io::Result<()> {
    let rows = &analysis.per_instance;
    let instance = analysis.instance;
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(w)?;
    if rows.len() > PER_INSTANCE_SHOWN {
        return writeln!(
            w,
            "per {instance}: {} {instance}s, more than the {PER_INSTANCE_SHOWN} listed here; \
             the CSV and JSON have each run",
            rows.len()
        );
    }
    style.title(
        w,
        &format!("per {instance} (median ms of the answered repeats; else how the runs ended):"),
    )?;
    let formulas = analysis.on_formulas();
    let mut head: Vec<String> = InstanceRow::head(formulas).map(str::to_string).to_vec();
    head.extend(analysis.summary.iter().map(|s| s.solver.clone()));
    let mut table = vec![head];
    for row in rows {
        let mut cells = row.place(formulas, file_name(&row.file)).to_vec();
        cells.extend(row.results.iter().map(InstanceResult::cell));
        table.push(cells);
    }
    write_columns(w, &table, style)
}

/// Writes the report: header, the summary table (one row per solver and the virtual best
/// solver), with a grouping the same per solver and group, the mean encoding sizes, each
/// solver's slowest puzzles and the first failure or wrong answer of each solver. Times
/// in ms.
///
/// # Errors
/// Any write error.
pub fn write_table(
    w: &mut dyn Write,
    comparison: &Comparison,
    analysis: &Analysis,
    style: TableStyle,
) -> io::Result<()> {
    writeln!(w, "{}", header(comparison))?;
    writeln!(w, "{}", analysis.par2_note())?;
    writeln!(w)?;
    let mut overall: Vec<&Summary> = analysis.summary.iter().collect();
    overall.push(&analysis.virtual_best);
    write_summaries(w, &overall, None, style)?;
    if let Some(by) = analysis.group_by {
        writeln!(w)?;
        style.title(w, &format!("by {}:", by.name()))?;
        let grouped: Vec<&Summary> = analysis
            .summary_by_group
            .iter()
            .chain(&analysis.virtual_best_by_group)
            .collect();
        write_summaries(w, &grouped, Some(by), style)?;
    }

    if !analysis.measured.is_empty() {
        writeln!(w)?;
        style.title(w, "what each entry's time measures:")?;
        let mut rows = vec![["solver", "measured"].map(str::to_string).to_vec()];
        for m in &analysis.measured {
            rows.push(vec![m.solver.clone(), m.measured.to_string()]);
        }
        write_columns(w, &rows, style)?;
    }

    let sizes = &analysis.encoding_sizes;
    if !sizes.is_empty() {
        writeln!(w)?;
        style.title(w, "encoding sizes (mean per puzzle):")?;
        let mut rows = vec![
            ["encoding", "size", "puzzles", "vars", "clauses", "literals"]
                .map(str::to_string)
                .to_vec(),
        ];
        for s in sizes {
            rows.push(vec![
                s.encoding.clone(),
                s.size.to_string(),
                s.puzzles.to_string(),
                format!("{:.0}", s.vars),
                format!("{:.0}", s.clauses),
                format!("{:.0}", s.literals),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    let solved = &analysis.solved_sizes;
    if !solved.is_empty() {
        writeln!(w)?;
        style.title(
            w,
            "formulas solved after reasoning on the grid (mean per puzzle; the puzzle's own beside):",
        )?;
        let mut rows = vec![[
            "solver",
            "size",
            "puzzles",
            "clauses",
            "puzzle's clauses",
            "literals",
            "puzzle's literals",
        ]
        .map(str::to_string)
        .to_vec()];
        for s in solved {
            rows.push(vec![
                s.solver.clone(),
                s.size.to_string(),
                s.puzzles.to_string(),
                format!("{:.0}", s.clauses),
                format!("{:.0}", s.puzzle_clauses),
                format!("{:.0}", s.literals),
                format!("{:.0}", s.puzzle_literals),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    let instance = analysis.instance;
    let ratios: Vec<&Ratio> = analysis.ratios.iter().filter(|r| r.common > 0).collect();
    if let Some(first) = ratios.first() {
        writeln!(w)?;
        style.title(
            w,
            &format!(
                "time against {} on the {instance}s both answered (total of each {instance}'s \
                 median; below 1 = faster):",
                first.reference
            ),
        )?;
        let mut rows = vec![["solver", "common", "total_ms", "reference_ms", "ratio"]
            .map(str::to_string)
            .to_vec()];
        for r in &ratios {
            rows.push(vec![
                r.solver.clone(),
                r.common.to_string(),
                ms(Some(r.total_us)),
                ms(Some(r.reference_us)),
                r.ratio()
                    .map_or_else(|| "-".to_string(), |x| format!("{x:.3}")),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    write_per_instance(w, analysis, style)?;

    writeln!(w)?;
    style.title(
        w,
        &format!(
            "slowest {instance}s per solver (median of answered repeats, ms; full paths in \
             CSV/JSON):"
        ),
    )?;
    let on_formulas = comparison.on_formulas();
    for s in &overall {
        let list: Vec<String> = s
            .slowest
            .iter()
            .map(|p| match on_formulas {
                // One formula a file: the line says nothing.
                true => format!("{} {}", ms(Some(p.time_us)), file_name(&p.file)),
                false => format!("{} {}:{}", ms(Some(p.time_us)), file_name(&p.file), p.line),
            })
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
