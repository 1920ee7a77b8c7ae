//! The page's sections of results, as the text summary has them: the summary tables with
//! PAR-2 and the virtual best solver (overall and by group), the ratios against the first
//! entry, the mean formula sizes, the per-instance table, the slowest instances and the
//! first failure of each entry.

use std::fmt::Write as _;

use super::html::escape;
use crate::compare::summary::{
    summary_cells, summary_head, Analysis, InstanceRow, Summary, PER_INSTANCE_SHOWN, VIRTUAL_BEST,
};
use crate::compare::{Comparison, GroupBy, Outcome, Run};

pub(super) fn write_summary_section(h: &mut String, analysis: &Analysis) {
    let _ = write!(
        h,
        "<h2 id=\"summary-title\">Summary</h2>\n<p id=\"par2-note\">{note}. Times in ms; a \
         {instance}'s time is the median of its answered repeats (a checked solution, or no \
         solution where no entry found one). The virtual best solver takes the fastest entry \
         on each {instance}; <em>fastest on</em> counts the {instance}s where an entry was \
         that one.</p>\n",
        note = escape(&analysis.par2_note()),
        instance = analysis.instance
    );
    let fastest: Vec<String> = analysis
        .fastest_on
        .iter()
        .map(|(_, n)| n.to_string())
        .chain([String::new()])
        .collect();
    let rows: Vec<&Summary> = analysis
        .summary
        .iter()
        .chain([&analysis.virtual_best])
        .collect();
    write_table(h, "summary", &rows, None, Some(&fastest));
    if let Some(by) = analysis.group_by {
        let _ = writeln!(h, "<h3>By {}</h3>", by.name());
        let rows: Vec<&Summary> = analysis
            .summary_by_group
            .iter()
            .chain(&analysis.virtual_best_by_group)
            .collect();
        write_table(h, "summary-by-group", &rows, Some(by), None);
    }
    write_ratios(h, analysis);
    let rows = analysis.encoding_sizes.iter().map(|s| {
        let numbers = vec![s.vars, s.clauses, s.literals];
        (s.encoding.as_str(), s.size, s.puzzles, numbers)
    });
    write_size_table(
        h,
        "Encoding sizes (mean per puzzle)",
        "encoding-sizes",
        &["encoding", "vars", "clauses", "literals"],
        rows,
    );
    let rows = analysis.solved_sizes.iter().map(|s| {
        let numbers = vec![s.clauses, s.puzzle_clauses, s.literals, s.puzzle_literals];
        (s.solver.as_str(), s.size, s.puzzles, numbers)
    });
    write_size_table(
        h,
        "Formulas solved after reasoning on the grid (mean per puzzle)",
        "solved-sizes",
        &[
            "solver",
            "clauses",
            "puzzle's clauses",
            "literals",
            "puzzle's literals",
        ],
        rows,
    );
}

/// A table of mean formula sizes, none when there are no rows: each row a label, the grid
/// size, the puzzles and the means (headed by `columns` after the first, which heads the
/// labels).
fn write_size_table<'a>(
    h: &mut String,
    title: &str,
    id: &str,
    columns: &[&str],
    rows: impl Iterator<Item = (&'a str, usize, usize, Vec<f64>)>,
) {
    let mut rows = rows.peekable();
    if rows.peek().is_none() {
        return;
    }
    let _ = write!(
        h,
        "<h3>{title}</h3>\n<table id=\"{id}\"><tr><th>{}</th><th>size</th><th>puzzles</th>",
        columns[0]
    );
    for column in &columns[1..] {
        let _ = write!(h, "<th>{}</th>", escape(column));
    }
    h.push_str("</tr>\n");
    for (label, size, puzzles, means) in rows {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{size}</td><td class=\"n\">{puzzles}</td>",
            escape(label)
        );
        for mean in means {
            let _ = write!(h, "<td class=\"n\">{mean:.0}</td>");
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

/// A summary table: the text table's columns, plus `fastest on` when given.
fn write_table(
    h: &mut String,
    id: &str,
    rows: &[&Summary],
    by: Option<GroupBy>,
    fastest: Option<&[String]>,
) {
    let _ = write!(h, "<table id=\"{id}\"><tr>");
    for head in summary_head(by) {
        let _ = write!(h, "<th>{}</th>", escape(&head));
    }
    if fastest.is_some() {
        h.push_str("<th>fastest_on</th>");
    }
    h.push_str("</tr>\n");
    for (i, s) in rows.iter().enumerate() {
        let class = if s.solver == VIRTUAL_BEST {
            " class=\"vbs\""
        } else {
            ""
        };
        let _ = write!(h, "<tr{class}>");
        for (c, cell) in summary_cells(s, by).iter().enumerate() {
            let numeric = if c == 0 { "" } else { " class=\"n\"" };
            let _ = write!(h, "<td{numeric}>{}</td>", escape(cell));
        }
        if let Some(fastest) = fastest {
            let cell = fastest.get(i).map_or("", String::as_str);
            let _ = write!(h, "<td class=\"n\">{cell}</td>");
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

/// Each entry's time against the first entry's, as the text summary shows it.
fn write_ratios(h: &mut String, analysis: &Analysis) {
    let ratios: Vec<_> = analysis.ratios.iter().filter(|r| r.common > 0).collect();
    let Some(first) = ratios.first() else {
        return;
    };
    let instance = analysis.instance;
    let _ = writeln!(
        h,
        "<h3>Against {}</h3>\n<p>Each entry's total time over the {instance}s it and {} both \
         answered (each {instance}'s time the median of its repeats), over {}'s: below 1 = \
         faster.</p>\n<table id=\"ratios\"><tr><th>solver</th><th>common</th>\
         <th>total_ms</th><th>reference_ms</th><th>ratio</th></tr>",
        escape(&first.reference),
        escape(&first.reference),
        escape(&first.reference)
    );
    for r in ratios {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3}</td>\
             <td class=\"n\">{:.3}</td><td class=\"n\">{}</td></tr>",
            escape(&r.solver),
            r.common,
            r.total_us / 1e3,
            r.reference_us / 1e3,
            r.ratio()
                .map_or_else(|| "-".to_string(), |x| format!("{x:.3}"))
        );
    }
    h.push_str("</table>\n");
}

/// The per-instance table, as the text summary has it.
pub(super) fn write_per_instance(h: &mut String, analysis: &Analysis) {
    let rows = &analysis.per_instance;
    if rows.is_empty() || rows.len() > PER_INSTANCE_SHOWN {
        return;
    }
    let formulas = analysis.on_formulas();
    let instance = analysis.instance;
    let _ = write!(
        h,
        "<h2 id=\"per-instance-title\">Per {instance}</h2>\n<p>Each entry's time in ms (the \
         median of its answered repeats), or how its runs ended.</p>\n\
         <table id=\"per-instance\"><tr>"
    );
    let entries = analysis.summary.iter().map(|s| s.solver.as_str());
    for head in InstanceRow::head(formulas).into_iter().chain(entries) {
        let _ = write!(h, "<th>{}</th>", escape(head));
    }
    h.push_str("</tr>\n");
    for row in rows {
        let [place, a, b] = row.place(formulas, &row.file);
        let _ = write!(
            h,
            "<tr><td><code>{}</code></td><td class=\"n\">{a}</td><td class=\"n\">{b}</td>",
            escape(&place)
        );
        for r in &row.results {
            let _ = write!(h, "<td class=\"n\">{}</td>", r.cell());
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

pub(super) fn write_slowest(h: &mut String, analysis: &Analysis) {
    let instance = analysis.instance;
    // A formula is a whole file: no line, no grid columns.
    let formulas = analysis.on_formulas();
    let _ = writeln!(
        h,
        "<h2 id=\"slowest\">Slowest {instance}s</h2>\n<p>For the virtual best solver these are \
         the {instance}s no entry found easy. Times in ms.</p>\n<table id=\"slowest-puzzles\">\
         <tr><th>solver</th><th>rank</th><th>ms</th>{}</tr>",
        if formulas {
            "<th>file</th>"
        } else {
            "<th>file:line</th><th>size</th><th>givens</th>"
        }
    );
    for s in [&analysis.virtual_best]
        .into_iter()
        .chain(&analysis.summary)
    {
        for (rank, p) in s.slowest.iter().enumerate() {
            let place = if formulas {
                format!("<td><code>{}</code></td>", escape(&p.file))
            } else {
                format!(
                    "<td><code>{}:{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
                    escape(&p.file),
                    p.line,
                    p.size,
                    p.givens
                )
            };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3}</td>{place}</tr>",
                escape(&s.solver),
                rank + 1,
                p.time_us / 1e3,
            );
        }
    }
    h.push_str("</table>\n");
}

pub(super) fn write_failures(h: &mut String, comparison: &Comparison) {
    let firsts: Vec<&Run> = comparison
        .solvers
        .iter()
        .filter_map(|s| {
            comparison
                .runs
                .iter()
                .find(|r| &r.solver == s && matches!(r.outcome, Outcome::Failed | Outcome::Wrong))
        })
        .collect();
    if firsts.is_empty() {
        return;
    }
    h.push_str("<h2 id=\"failures\">Failures and wrong answers (first of each entry)</h2>\n<ul>\n");
    for r in firsts {
        let _ = writeln!(
            h,
            "<li><code>{}</code>: {} at <code>{}:{}</code>: {}</li>",
            escape(&r.solver),
            r.outcome,
            escape(&r.file),
            r.line,
            escape(r.error.as_deref().unwrap_or(""))
        );
    }
    h.push_str("</ul>\n");
}
