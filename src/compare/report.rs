//! The comparison report of `sudosat compare --report DIR`: one self-contained
//! `DIR/index.html` (inline SVG plots, inline CSS, no script and nothing fetched from the
//! network) with how the runs were made (command line, machine, versions, limits), the
//! summary tables with PAR-2 and the virtual best solver, every plot and the slowest
//! puzzles, and beside it the data it was drawn from:
//!
//! - `runs.csv` and its sidecar `runs.meta.json` (what `compare --from-csv` reads back),
//! - `report.json` (settings, provenance and the [`Analysis`]; the runs are in the CSV),
//! - `summary.csv` (the summary tables).
//!
//! The page is well-formed XML as well as HTML, so tests parse it with an XML parser.
//! [`write_report`] builds the directory under a temporary name beside `DIR` and renames
//! it into place: a reader sees the old report or the new one, never half of one.

use std::fmt::Write as _;
use std::fs;
use std::io::Write;
use std::path::Path;

use super::output::{
    sidecar_path, write_csv, write_json, write_meta, write_summary_csv, Meta, Provenance,
};
use super::plot::{cactus_svg, scatter_svg, sizes_svg, times_svg};
use super::summary::{
    runs_planned, seconds, summary_cells, summary_head, Analysis, InstanceRow, Summary,
    PER_INSTANCE_SHOWN, VIRTUAL_BEST,
};
use super::{CompareError, Comparison, GroupBy, Outcome};
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

/// Escapes text for HTML and XML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document without its XML declaration, to inline in the page.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(start) => &svg[start..],
        None => svg,
    }
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

fn write_provenance(h: &mut String, comparison: &Comparison, analysis: &Analysis, p: &Provenance) {
    let limit = comparison.timeout_s.map_or_else(
        || "none".to_string(),
        |t| format!("{} s per solve", seconds(t)),
    );
    let threads = if comparison.parallel {
        format!(
            "{} threads (puzzles in parallel, each solve on one)",
            comparison.jobs
        )
    } else {
        "sequential, one solve at a time".to_string()
    };
    let threads = match super::summary::threaded_note(comparison) {
        Some(note) => format!("{threads}; {note}"),
        None => threads,
    };
    let machine = &p.machine;
    let cpu = machine.cpu.as_deref().unwrap_or("unknown CPU");
    let _ = write!(
        h,
        "<h2 id=\"how\">How it was measured</h2>\n<dl>\
         <dt>Command</dt><dd><code id=\"command\">{}</code></dd>",
        escape(&shell_words(&p.command_line))
    );
    if let Some(redrawn) = &p.redrawn_by {
        let _ = write!(
            h,
            "<dt>Redrawn from saved rows by</dt><dd><code>{}</code></dd>",
            escape(&shell_words(redrawn))
        );
    }
    let _ = writeln!(
        h,
        "<dt>Started</dt><dd>{}</dd><dt>Machine</dt><dd>{}, {}, {} logical CPUs, {}</dd>\
         <dt>Versions</dt><dd>sudosat {}</dd>\
         <dt>Runs</dt><dd id=\"runs\">{}: {} runs made{}</dd>\
         <dt>Time limit</dt><dd id=\"limit\">{}</dd><dt>Threads</dt><dd>{}</dd></dl>",
        escape(or_unknown(&p.started_utc)),
        escape(or_unknown(&machine.os)),
        escape(or_unknown(&machine.arch)),
        machine.cpus,
        escape(cpu),
        escape(or_unknown(&p.sudosat_version)),
        escape(&runs_planned(comparison)),
        comparison.runs.len(),
        if comparison.interrupted {
            " (interrupted: the figures cover the runs made)"
        } else {
            ""
        },
        escape(&limit),
        escape(&threads),
    );
    write_shards(h, p);
    let _ = analysis;
}

/// The shard a sharded run made, or how a merged comparison was put together: the shards
/// merged, those missing, and the hosts when they are several (each with its shards).
fn write_shards(h: &mut String, p: &Provenance) {
    if let Some(merged) = &p.merged {
        let _ = write!(h, "<h3 id=\"shards\">Shards</h3>\n<ul>");
        for note in merged.notes() {
            let _ = write!(h, "<li>{}</li>", escape(&note));
        }
        let _ = writeln!(h, "</ul>");
        let _ = write!(
            h,
            "<table id=\"hosts\"><tr><th>host</th><th>CPU</th><th>shards</th><th>runs</th></tr>"
        );
        for host in merged.hosts() {
            let shards: Vec<String> = host.shards.iter().map(usize::to_string).collect();
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&host.host),
                escape(host.cpu.as_deref().unwrap_or("unknown CPU")),
                escape(&shards.join(", ")),
                host.runs
            );
        }
        let _ = writeln!(h, "</table>");
    } else if let Some(study) = p.study.as_ref().filter(|s| s.shard.count > 1) {
        let _ = writeln!(
            h,
            "<p id=\"shards\">Shard {} of study {}, measured on {}: {} runs.</p>",
            study.shard,
            escape(&study.id),
            escape(&study.host),
            study.runs
        );
    }
}

fn or_unknown(s: &str) -> &str {
    if s.is_empty() {
        "unknown"
    } else {
        s
    }
}

/// Arguments joined as a shell would read them back (quoted when needed).
fn shell_words(args: &[String]) -> String {
    if args.is_empty() {
        return "unknown".to_string();
    }
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_summary_section(h: &mut String, analysis: &Analysis) {
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
fn write_per_instance(h: &mut String, analysis: &Analysis) {
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

fn write_slowest(h: &mut String, analysis: &Analysis) {
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

fn write_failures(h: &mut String, comparison: &Comparison) {
    let firsts: Vec<&super::Run> = comparison
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

/// The JSON document of `--json` without its `runs` (they are in `runs.csv`), so the
/// directory does not hold every run twice.
fn write_report_json(
    w: &mut dyn Write,
    comparison: &Comparison,
    analysis: &Analysis,
    provenance: &Provenance,
) -> Result<(), CompareError> {
    let mut full = Vec::new();
    write_json(&mut full, comparison, analysis, Some(provenance))?;
    let fail = |e: serde_json::Error| CompareError::Output {
        what: "JSON",
        source: e.into(),
    };
    let mut doc: serde_json::Value = serde_json::from_slice(&full).map_err(fail)?;
    if let Some(map) = doc.as_object_mut() {
        map.remove("runs");
    }
    serde_json::to_writer_pretty(&mut *w, &doc).map_err(fail)?;
    writeln!(w).map_err(io_error("JSON"))
}

fn io_error(what: &'static str) -> impl Fn(std::io::Error) -> CompareError {
    move |source| CompareError::Output { what, source }
}

/// Writes `file` in `dir` with `fill`.
fn write_file(
    dir: &Path,
    file: &str,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CompareError>,
) -> Result<(), CompareError> {
    let f = fs::File::create(dir.join(file)).map_err(io_error("report"))?;
    let mut w = std::io::BufWriter::new(f);
    fill(&mut w)?;
    w.flush().map_err(io_error("report"))
}

/// Why an existing `dir` may not be replaced by a report, or `None` when it is empty or
/// holds only files a report writes (an earlier report).
fn not_a_report(dir: &Path) -> Option<String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return Some(format!("not a readable directory: {e}")),
    };
    let sidecar = sidecar_path(Path::new(RUNS_CSV));
    let own = [
        Path::new("index.html"),
        Path::new(RUNS_CSV),
        sidecar.as_path(),
        Path::new(REPORT_JSON),
        Path::new(SUMMARY_CSV),
    ];
    for entry in entries {
        let Ok(entry) = entry else {
            return Some("an entry cannot be read".to_string());
        };
        let name = entry.file_name();
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !is_file || !own.contains(&Path::new(&name)) {
            return Some(format!(
                "it holds `{}`, which a report does not write",
                name.to_string_lossy()
            ));
        }
    }
    None
}

/// Writes the report directory `dir`: `index.html`, `runs.csv`, `runs.meta.json`,
/// `report.json` and `summary.csv`. Everything is written into a temporary directory beside
/// `dir`, then renamed into place; an existing report at `dir` is replaced the same way. A
/// `dir` that exists and holds anything but a report's own files is refused, so no
/// unrelated file is ever removed.
///
/// # Errors
/// [`CompareError::Output`] when a file cannot be written or `dir` is not a report, and the
/// errors of [`render_html`].
pub fn write_report(
    dir: &Path,
    comparison: &Comparison,
    analysis: &Analysis,
    options: &ReportOptions,
) -> Result<(), CompareError> {
    let refuse = |reason: String| CompareError::Output {
        what: "report",
        source: std::io::Error::other(reason),
    };
    if dir.exists() {
        if let Some(reason) = not_a_report(dir) {
            return Err(refuse(format!(
                "{} exists and is not a report directory ({reason}); choose another",
                dir.display()
            )));
        }
    }
    let html = render_html(comparison, analysis, options)?;
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".sudosat-report-")
        .tempdir_in(parent)
        .map_err(|e| {
            refuse(format!(
                "{}: cannot create a directory: {e}",
                parent.display()
            ))
        })?;
    let meta = Meta::of(comparison, options.provenance.clone());
    write_file(tmp.path(), "index.html", |w| {
        w.write_all(html.as_bytes()).map_err(io_error("report"))
    })?;
    write_file(tmp.path(), RUNS_CSV, |w| write_csv(w, &comparison.runs))?;
    let sidecar = sidecar_path(Path::new(RUNS_CSV));
    write_file(tmp.path(), &sidecar.to_string_lossy(), |w| {
        write_meta(w, &meta)
    })?;
    write_file(tmp.path(), REPORT_JSON, |w| {
        write_report_json(w, comparison, analysis, &options.provenance)
    })?;
    write_file(tmp.path(), SUMMARY_CSV, |w| write_summary_csv(w, analysis))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755))
            .map_err(io_error("report"))?;
    }
    let old = if dir.exists() {
        let old = tempfile::Builder::new()
            .prefix(".sudosat-old-report-")
            .tempdir_in(parent)
            .map_err(io_error("report"))?;
        let old_path = old.path().join("old");
        fs::rename(dir, &old_path)
            .map_err(|e| refuse(format!("{}: cannot replace: {e}", dir.display())))?;
        Some(old)
    } else {
        None
    };
    let tmp_path = tmp.keep();
    if let Err(e) = fs::rename(&tmp_path, dir) {
        let _ = fs::remove_dir_all(&tmp_path);
        if let Some(old) = &old {
            let _ = fs::rename(old.path().join("old"), dir);
        }
        return Err(refuse(format!("{}: cannot write: {e}", dir.display())));
    }
    drop(old); // removes the replaced report
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_shell_words() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        let args = [
            "sudosat",
            "compare",
            "--solvers",
            "external:cadical -q",
            "it's",
        ];
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            shell_words(&args),
            "sudosat compare --solvers 'external:cadical -q' 'it'\\''s'"
        );
        assert_eq!(inline_svg("<?xml version=\"1.0\"?>\n<svg/>"), "<svg/>");
    }
}
