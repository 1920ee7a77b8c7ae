//! The page itself, `index.html`: its head and style, the sections in order, the plots as
//! inline SVG figures, and the links to the data files beside it ([`RUNS_CSV`],
//! [`SUMMARY_CSV`], [`REPORT_JSON`]).

use std::fmt::Write as _;

use super::html::{escape, inline_svg};
use super::provenance::write_provenance;
use super::sections::{write_failures, write_per_instance, write_slowest, write_summary_section};
use crate::compare::output::Provenance;
use crate::compare::plot::{cactus_svg, scatter_svg, sizes_svg, times_svg};
use crate::compare::summary::Analysis;
use crate::compare::{CompareError, Comparison, GroupBy};
use crate::names::plural;

/// The files of a report directory besides `index.html`.
pub const RUNS_CSV: &str = "runs.csv";
/// The full JSON document.
pub const REPORT_JSON: &str = "report.json";
/// The summary tables as CSV.
pub const SUMMARY_CSV: &str = "summary.csv";

/// What a report shows beyond the runs.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Where the figures come from.
    pub provenance: Provenance,
    /// The pairs of entries drawn as scatter plots (x, y).
    pub scatter: Vec<(String, String)>,
    /// The grouping of the time plot.
    pub times_by: GroupBy,
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1150px;\
color:#222;line-height:1.4}h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;\
border-bottom:1px solid #ccc}table{border-collapse:collapse;font-size:.85em;margin:.5em 0}\
th,td{border:1px solid #ccc;padding:.2em .5em}td.n{text-align:right;\
font-variant-numeric:tabular-nums}tr.vbs{font-weight:bold;background:#f4f4f4}\
code{background:#f4f4f4;padding:0 .2em;word-break:break-all}\
figure{margin:1em 0}figcaption{font-size:.9em;color:#555}\
.scatter{display:flex;flex-wrap:wrap;gap:8px}dt{font-weight:bold}dd{margin:0 0 .4em 1em}";

/// Renders `index.html`.
///
/// # Errors
/// [`CompareError::Plot`] when a plot cannot be drawn, [`CompareError::UnknownEntry`] for
/// a scatter pair naming no entry.
pub fn render_html(
    comparison: &Comparison,
    analysis: &Analysis,
    options: &ReportOptions,
) -> Result<String, CompareError> {
    let mut h = String::new();
    let p = &options.provenance;
    let instance = analysis.instance;
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width\"/>\
         <title>sudosat compare: {title}</title><style>{STYLE}</style>\
         </head><body>\n<h1>sudosat compare: {title}</h1>\n",
        title = escape(&format!(
            "{} × {}",
            plural(comparison.puzzles, instance),
            plural(comparison.solvers.len(), "entry")
        )),
    );
    write_provenance(&mut h, comparison, analysis, p);
    write_summary_section(&mut h, analysis);

    h.push_str("<h2 id=\"plots\">Plots</h2>\n");
    figure(
        &mut h,
        "cactus",
        &cactus_svg(comparison, analysis)?,
        &format!(
            "Cactus plot: each entry's answered {instance}s sorted by time; the k-th point is \
             the time the k-th fastest solve took. Further right = more answered, lower = \
             faster. The virtual best solver is the black dashed line; the grey dashed line \
             is the time limit, drawn when a run reached it."
        ),
    );
    if !options.scatter.is_empty() {
        h.push_str("<div class=\"scatter\" id=\"scatters\">\n");
        for (a, b) in &options.scatter {
            let svg = scatter_svg(comparison, analysis, a, b)?;
            let _ = writeln!(
                h,
                "<figure class=\"scatter-plot\" data-x=\"{}\" data-y=\"{}\">{}</figure>",
                escape(a),
                escape(b),
                inline_svg(&svg)
            );
        }
        let _ = writeln!(
            h,
            "</div><p>Scatter plots: one point per {instance}, log–log; below the diagonal \
             the entry on the y axis was faster. Crosses on the border line: {instance}s one \
             of the two did not answer.</p>",
        );
    }
    // A formula has no grid: no clue or size groups, no encoding to size.
    if !analysis.on_formulas() {
        write_grid_figures(&mut h, comparison, analysis, options)?;
    }

    write_per_instance(&mut h, analysis);
    write_slowest(&mut h, analysis);
    write_failures(&mut h, comparison);
    let _ = write!(
        h,
        "<h2 id=\"files\">Data</h2>\n<p>Beside this page: <a href=\"{RUNS_CSV}\">{RUNS_CSV}</a> \
         (one row per run) with its settings <a href=\"runs.meta.json\">runs.meta.json</a>, \
         <a href=\"{SUMMARY_CSV}\">{SUMMARY_CSV}</a> and <a href=\"{REPORT_JSON}\">{REPORT_JSON}</a>. \
         Redraw with <code>sudosat compare --from-csv {RUNS_CSV} --report DIR</code>.</p>\n\
         </body></html>\n"
    );
    Ok(h)
}

/// The figures of puzzles only: median times by clues or size, and the encodings' sizes.
fn write_grid_figures(
    h: &mut String,
    comparison: &Comparison,
    analysis: &Analysis,
    options: &ReportOptions,
) -> Result<(), CompareError> {
    figure(
        h,
        "times",
        &times_svg(comparison, analysis, options.times_by)?,
        "Median time per puzzle by group, a puzzle an entry did not answer counting as \
         slower than any it did; colour = backend (or classic solver), marker and dash = \
         encoding. An entry's line breaks where its median is past the limit (half the \
         group or more unanswered), marked by a ring on the limit line.",
    );
    figure(
        h,
        "sizes",
        &sizes_svg(analysis)?,
        "Mean clauses (bars) and variables (diamonds) per puzzle of each encoding, a panel \
         per grid size, each on a linear axis from zero.",
    );
    Ok(())
}

fn figure(h: &mut String, id: &str, svg: &str, caption: &str) {
    let _ = writeln!(
        h,
        "<figure id=\"{id}\">{}<figcaption>{}</figcaption></figure>",
        inline_svg(svg),
        escape(caption)
    );
}
