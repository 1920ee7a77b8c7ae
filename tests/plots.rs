//! The plots of `sudosat compare --report`, read back from their SVG: every axis labels
//! distinct values, a count axis whole numbers, a time axis runs within a decade of the
//! times it shows (up to the time limit only when a run reached it), the size chart's
//! axes start at zero, and the line of an entry that timed out breaks there, with a ring on
//! the limit line. The runs are written as a saved CSV with known times and redrawn with
//! `--from-csv`, so every figure is known in advance.

mod common;

use std::collections::HashMap;
use std::path::Path;

use sudosat::compare::output::CSV_COLUMNS;

use common::{assert_exit, run_in, stderr, temp_dir};

/// One saved run, by CSV column; the columns not named are empty.
fn row(fields: &[(&str, &str)]) -> String {
    let fields: HashMap<&str, &str> = fields.iter().copied().collect();
    let cells: Vec<String> = CSV_COLUMNS
        .iter()
        .map(|c| fields.get(c).copied().unwrap_or(""))
        .map(|cell| {
            if cell.contains([',', '"']) {
                format!("\"{}\"", cell.replace('"', "\"\""))
            } else {
                cell.to_string()
            }
        })
        .collect();
    cells.join(",")
}

/// A run of a SAT entry (`backend/encoding`) or of a classic solver (no `/`) on puzzle
/// `index` of side `size` with `givens` clues: solved in `us` µs, or `None` for a time-out
/// at 10 s. A SAT entry's formula has n³ variables and 9n³ clauses.
fn run(index: usize, size: usize, givens: usize, entry: &str, us: Option<f64>) -> String {
    // The encoding starts at the `/` before its base's name (a command may hold `/`s).
    let at = ["/minimal", "/extended", "/augmented"]
        .iter()
        .filter_map(|base| entry.find(base))
        .min();
    let (backend, encoding) = at.map_or(("", ""), |i| (&entry[..i], &entry[i + 1..]));
    let (vars, clauses) = if backend.is_empty() {
        (String::new(), String::new())
    } else {
        let cells = size * size * size;
        (cells.to_string(), (cells * 9).to_string())
    };
    let index = index.to_string();
    let (size, givens) = (size.to_string(), givens.to_string());
    let total = format!("{:.3}", us.unwrap_or(10_000_050.0));
    row(&[
        ("file", "puzzles.txt"),
        ("line", &index),
        ("puzzle_index", &index),
        ("size", &size),
        ("givens", &givens),
        ("solver", entry),
        ("backend", backend),
        ("encoding", encoding),
        ("repeat", "1"),
        ("outcome", if us.is_some() { "solved" } else { "timeout" }),
        ("checked", if us.is_some() { "true" } else { "false" }),
        ("vars", &vars),
        ("clauses", &clauses),
        ("literals", &clauses),
        ("solve_us", &total),
        ("total_us", &total),
    ])
}

/// Writes the runs as `runs.csv` in `dir`, redraws them into `dir/report` (with `flags`)
/// and returns each figure's SVG by figure id (`scatter:A,B` for a scatter plot).
fn report(dir: &Path, runs: &[String], flags: &[&str]) -> HashMap<String, String> {
    let mut csv = CSV_COLUMNS.join(",") + "\n";
    for r in runs {
        csv += r;
        csv += "\n";
    }
    std::fs::write(dir.join("runs.csv"), csv).unwrap();
    let mut args = vec![
        "compare",
        "-q",
        "--from-csv",
        "runs.csv",
        "--timeout",
        "10",
        "--report",
        "report",
    ];
    args.extend(flags);
    let out = run_in(dir, &args, b"");
    assert_exit(&out, 0);
    assert!(
        stderr(&out).contains("no runs.meta.json"),
        "{}",
        stderr(&out)
    );
    let page = std::fs::read_to_string(dir.join("report/index.html")).unwrap();
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(&page, options).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("figure"))
        .map(|f| {
            let id = f.attribute("id").map(str::to_string).unwrap_or_else(|| {
                let (x, y) = (f.attribute("data-x"), f.attribute("data-y"));
                format!("scatter:{},{}", x.unwrap(), y.unwrap())
            });
            let svg = f.children().find(|c| c.has_tag_name("svg")).unwrap();
            (id, page[svg.range()].to_string())
        })
        .collect()
}

/// One axis of a plot as drawn: the pixel span of its line and its tick labels (pixel
/// position along the axis, text).
#[derive(Debug)]
struct DrawnAxis {
    span: (f64, f64),
    ticks: Vec<(f64, String)>,
}

impl DrawnAxis {
    fn labels(&self) -> Vec<&str> {
        self.ticks.iter().map(|(_, t)| t.as_str()).collect()
    }

    /// The values at both ends of the axis line, read off its outermost labels (on a log
    /// scale when `log`), lowest first.
    fn range(&self, log: bool) -> (f64, f64) {
        let numeric: Vec<(f64, f64)> = self.ticks.iter().map(|(p, t)| (*p, value(t))).collect();
        assert!(numeric.len() >= 2, "fewer than two labels: {self:?}");
        let scale = |v: f64| if log { v.log10() } else { v };
        let unscale = |v: f64| if log { 10f64.powf(v) } else { v };
        let (p1, v1) = numeric[0];
        let (p2, v2) = numeric[numeric.len() - 1];
        let per_pixel = (scale(v2) - scale(v1)) / (p2 - p1);
        let at = |p: f64| unscale(scale(v1) + (p - p1) * per_pixel);
        let (a, b) = (at(self.span.0), at(self.span.1));
        (a.min(b), a.max(b))
    }

    /// The pixel position of `v` along the axis.
    fn pixel(&self, v: f64, log: bool) -> f64 {
        let scale = |v: f64| if log { v.log10() } else { v };
        let (p1, t1) = &self.ticks[0];
        let (p2, t2) = &self.ticks[self.ticks.len() - 1];
        let (v1, v2) = (scale(value(t1)), scale(value(t2)));
        p1 + (scale(v) - v1) * (p2 - p1) / (v2 - v1)
    }
}

/// A tick label's value: `0.5`, `12k`, `3.4M`.
fn value(label: &str) -> f64 {
    let (number, factor) = match label.strip_suffix('k') {
        Some(n) => (n, 1e3),
        None => match label.strip_suffix('M') {
            Some(n) => (n, 1e6),
            None => (label, 1.0),
        },
    };
    number
        .parse::<f64>()
        .unwrap_or_else(|_| panic!("tick label {label:?} is not a number"))
        * factor
}

fn attr(node: roxmltree::Node<'_, '_>, name: &str) -> f64 {
    node.attribute(name).unwrap().parse().unwrap()
}

/// The y axes and the x axes of an SVG by plotters: an axis is a black polyline of two
/// points; a y axis's labels are the right-aligned texts just left of it, an x axis's the
/// centred texts just under it.
fn axes(svg: &str) -> (Vec<DrawnAxis>, Vec<DrawnAxis>) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    let texts: Vec<(f64, f64, &str, String)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let text = n.text().unwrap_or("").trim().to_string();
            (
                attr(n, "x"),
                attr(n, "y"),
                n.attribute("text-anchor").unwrap_or(""),
                text,
            )
        })
        .collect();
    let (mut ys, mut xs) = (Vec::new(), Vec::new());
    for line in doc.descendants().filter(|n| {
        n.has_tag_name("polyline")
            && n.attribute("stroke") == Some("#000000")
            && n.attribute("stroke-width") == Some("1")
    }) {
        let points: Vec<(f64, f64)> = line
            .attribute("points")
            .unwrap()
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let [(x1, y1), (x2, y2)] = points[..] else {
            continue;
        };
        if x1 == x2 && (y2 - y1).abs() > 40.0 {
            let (top, bottom) = (y1.min(y2), y1.max(y2));
            let ticks = texts
                .iter()
                .filter(|(x, y, anchor, _)| {
                    *anchor == "end" && *x < x1 && *x > x1 - 20.0 && (top..=bottom).contains(y)
                })
                .map(|(_, y, _, t)| (*y, t.clone()))
                .collect();
            ys.push(DrawnAxis {
                span: (bottom, top),
                ticks,
            });
        } else if y1 == y2 && (x2 - x1).abs() > 40.0 {
            let (left, right) = (x1.min(x2), x1.max(x2));
            let ticks = texts
                .iter()
                .filter(|(x, y, anchor, _)| {
                    *anchor == "middle"
                        && *y > y1
                        && *y < y1 + 20.0
                        && (left - 1.0..=right + 1.0).contains(x)
                })
                .map(|(x, _, _, t)| (*x, t.clone()))
                .collect();
            xs.push(DrawnAxis {
                span: (left, right),
                ticks,
            });
        }
    }
    (ys, xs)
}

/// Every label of every axis is there once, none is empty.
fn assert_distinct_labels(id: &str, axes: &[DrawnAxis]) {
    for axis in axes {
        let labels = axis.labels();
        let mut unique = labels.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            labels.len(),
            "{id}: labels repeat: {labels:?}"
        );
        assert!(labels.iter().all(|l| !l.is_empty()), "{id}: {labels:?}");
    }
}

/// The axis runs over `lo..hi` and not a decade past either end.
fn assert_fits(id: &str, range: (f64, f64), lo: f64, hi: f64) {
    let (a, b) = range;
    assert!(
        a <= lo * 1.001 && a >= lo / 10.0 && b >= hi * 0.999 && b <= hi * 10.0,
        "{id}: the axis runs {a}..{b}, the data {lo}..{hi}"
    );
}

fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

/// Five 9×9 puzzles every entry answers in under a millisecond: each time axis stays near
/// the times, far from the 10 s limit, and the cactus plot counts 0 to 5.
#[test]
fn axes_fit_five_quick_puzzles() {
    let dir = temp_dir();
    let dlx = [20.0, 35.0, 60.0, 90.0, 150.0];
    let cdcl = [100.0, 180.0, 250.0, 400.0, 600.0];
    let mut runs = Vec::new();
    for p in 0..5 {
        runs.push(run(
            p + 1,
            9,
            17 + p,
            "cdcl/extended+reduced",
            Some(cdcl[p]),
        ));
        runs.push(run(p + 1, 9, 17 + p, "dlx", Some(dlx[p])));
    }
    let figures = report(dir.path(), &runs, &[]);
    let (lo, hi) = (0.02, 0.6); // ms

    let cactus = &figures["cactus"];
    let (ys, xs) = axes(cactus);
    assert_eq!((ys.len(), xs.len()), (1, 1), "{ys:?} {xs:?}");
    assert_distinct_labels("cactus", &ys);
    assert_fits("cactus", ys[0].range(true), lo, hi);
    assert_eq!(xs[0].labels(), ["0", "1", "2", "3", "4", "5"]);
    assert!(
        !texts(cactus).iter().any(|t| t.starts_with("time limit")),
        "no run reached the limit"
    );

    let scatter = &figures["scatter:cdcl/extended+reduced,dlx"];
    let (ys, xs) = axes(scatter);
    assert_distinct_labels("scatter", &ys);
    assert_distinct_labels("scatter", &xs);
    assert_fits("scatter y", ys[0].range(true), lo, hi);
    assert_fits("scatter x", xs[0].range(true), lo, hi);

    // One puzzle per clue count: the medians are the times.
    let (ys, xs) = axes(&figures["times"]);
    assert_distinct_labels("times", &ys);
    assert_fits("times", ys[0].range(true), lo, hi);
    assert_eq!(xs[0].labels(), ["17", "18", "19", "20", "21"]);

    // One panel (9×9) of one bar: 729 variables, 6561 clauses.
    let sizes = &figures["sizes"];
    let (ys, _) = axes(sizes);
    assert_eq!(ys.len(), 1);
    assert_distinct_labels("sizes", &ys);
    let (bottom, top) = ys[0].range(false);
    assert!(bottom.abs() < 6561.0 / 100.0, "from zero: {bottom}");
    assert!((6561.0..6561.0 * 1.5).contains(&top), "{top}");
    assert!(texts(sizes).iter().any(|t| t == "9×9"));
}

/// Three sizes where one entry times out on the middle one: the limit is on the time axes,
/// marked, and that entry's line of medians breaks there, with a ring on the limit line.
#[test]
fn time_outs_break_the_line_and_sit_on_the_limit() {
    let dir = temp_dir();
    let mut runs = Vec::new();
    for (p, size, givens, dpll, dlx) in [
        (1, 4, 6, Some(50.0), 20.0),
        (2, 9, 25, None, 80.0),
        (3, 16, 120, Some(4000.0), 900.0),
    ] {
        runs.push(run(p, size, givens, "dpll/minimal", dpll));
        runs.push(run(p, size, givens, "dlx", Some(dlx)));
    }
    let figures = report(dir.path(), &runs, &["--by", "size"]);
    let limit_ms = 10_000.0;

    let cactus = &figures["cactus"];
    let (ys, xs) = axes(cactus);
    assert_distinct_labels("cactus", &ys);
    assert_fits("cactus", ys[0].range(true), 0.02, limit_ms);
    assert_eq!(xs[0].labels(), ["0", "1", "2", "3"]);
    assert!(texts(cactus).iter().any(|t| t == "time limit 10 s"));

    let scatter = &figures["scatter:dpll/minimal,dlx"];
    let (ys, _) = axes(scatter);
    assert_fits("scatter", ys[0].range(true), 0.02, limit_ms);
    assert!(texts(scatter)
        .iter()
        .any(|t| t == "time limit 10 s: unanswered"));

    let times = &figures["times"];
    let (ys, xs) = axes(times);
    assert_distinct_labels("times", &ys);
    assert_fits("times", ys[0].range(true), 0.02, limit_ms);
    assert_eq!(xs[0].labels(), ["4", "9", "16"]);
    let doc = roxmltree::Document::parse(times).unwrap();
    // dpll is the first backend: the first colour, blue.
    let dpll = "#1F77B4";
    let of_dpll = |n: &roxmltree::Node<'_, '_>| {
        n.attribute("stroke") == Some(dpll) && n.attribute("stroke-width") == Some("2")
    };
    let joined = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && of_dpll(n))
        .map(|n| n.attribute("points").unwrap().split_whitespace().count())
        .filter(|&points| points > 1)
        .count();
    // The legend's sample line is the one line of dpll with more than one point.
    assert_eq!(
        joined, 1,
        "dpll's medians at 4 and 16 are not joined across 9"
    );
    let limit_y = ys[0].pixel(limit_ms, true);
    let ring_x = xs[0].ticks[1].0;
    let rings: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("fill") == Some("none") && of_dpll(n))
        .map(|n| (attr(n, "cx"), attr(n, "cy")))
        .collect();
    assert_eq!(rings.len(), 1, "{rings:?}");
    assert!(
        (rings[0].0 - ring_x).abs() <= 1.0 && (rings[0].1 - limit_y).abs() <= 2.0,
        "the ring {:?} is not on the limit at 9 ({ring_x}, {limit_y})",
        rings[0]
    );
    assert!(texts(times).iter().any(|t| t == "median past the limit"));

    // A panel per size, each from zero up to its own largest count.
    let sizes = &figures["sizes"];
    let (ys, _) = axes(sizes);
    assert_eq!(ys.len(), 3);
    assert_distinct_labels("sizes", &ys);
    for (axis, n) in ys.iter().zip([4.0f64, 9.0, 16.0]) {
        let clauses = n.powi(3) * 9.0;
        let (bottom, top) = axis.range(false);
        assert!(bottom.abs() < clauses / 100.0, "{n}: from zero: {bottom}");
        assert!((clauses..clauses * 1.5).contains(&top), "{n}: {top}");
    }
}

/// The horizontal extent of every text of `svg` (`x` and the anchor, its characters at
/// 0.62 em, a little more than a sans-serif font's mean width), with its text.
fn text_extents(svg: &str) -> (f64, Vec<(f64, f64, String)>) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let width = attr(root, "width");
    let extents = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let text = n.text()?.trim().to_string();
            let size: f64 = n.attribute("font-size")?.parse().ok()?;
            let long = text.chars().count() as f64 * 0.62 * size;
            let x = attr(n, "x");
            let (left, right) = match n.attribute("text-anchor") {
                Some("middle") => (x - long / 2.0, x + long / 2.0),
                Some("end") => (x - long, x),
                _ => (x, x + long),
            };
            // A rotated text (an axis title) runs along the height instead.
            let rotated = n
                .attribute("transform")
                .is_some_and(|t| t.contains("rotate"));
            (!rotated).then_some((left, right, text))
        })
        .collect();
    (width, extents)
}

/// Entries with long labels (an external solver's command with its full path and flags,
/// a backend with several options of its own): the plots shorten them, every legend line
/// and every other text lies inside the SVG's width, and the table and CSV keep them whole.
#[test]
fn long_labels_fit_inside_every_plot() {
    let dir = temp_dir();
    let long = [
        "external:/opt/solvers/kissat-4.0.4/build/kissat -q --conflicts=1000000 --seed=3/extended+reduced",
        "cdcl[propagate=grid-only-hall,root=none,lookahead=full,seed=12345,threads=2]/augmented+reduced/sequential",
        "dlx",
    ];
    let mut runs = Vec::new();
    for p in 0..5 {
        for (e, entry) in long.iter().enumerate() {
            let us = 100.0 * (p + 1) as f64 * (e + 1) as f64;
            runs.push(run(p + 1, 9, 20 + p, entry, Some(us)));
        }
    }
    let pair = format!("{},{}", long[0], long[1]);
    let figures = report(dir.path(), &runs, &["--scatter", &pair]);
    assert!(
        figures.contains_key(&format!("scatter:{pair}")),
        "{:?}",
        figures.keys()
    );
    let mut legend_lines = 0;
    for (id, svg) in &figures {
        let (width, extents) = text_extents(svg);
        for (left, right, text) in extents {
            assert!(
                left >= 0.0 && right <= width,
                "{id}: `{text}` runs {left:.0}..{right:.0}, outside 0..{width}"
            );
            legend_lines += usize::from(text.starts_with("kissat -q"));
        }
        // No text holds the command's folders: the program goes by its file name.
        assert!(!svg.contains("/opt/solvers"), "{id}");
    }
    assert!(
        legend_lines >= 2,
        "the cactus and times legends name the entry"
    );
    // The report's tables and its CSV keep every label whole.
    let page = std::fs::read_to_string(dir.path().join("report/index.html")).unwrap();
    let csv = std::fs::read_to_string(dir.path().join("report/runs.csv")).unwrap();
    for label in long {
        assert!(csv.contains(label), "{label}");
        assert!(page.contains(&label.replace('&', "&amp;")), "{label}");
    }
}
