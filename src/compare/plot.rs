//! The SVG plots of a comparison (plotters, SVG backend), the views SAT papers use:
//!
//! - [`cactus_svg`]: a *cactus plot*, one line per entry (and the virtual best solver): its
//!   answered puzzles sorted by time, x = puzzles answered, y = the time of the k-th (log
//!   scale), with the time limit drawn. A line further right solved more; lower is faster.
//! - [`scatter_svg`]: two entries puzzle by puzzle on log–log axes, the diagonal drawn and
//!   time-outs (or other unsolved puzzles) on the border line at the limit.
//! - [`times_svg`]: the median solve time of each entry by clue count or by size (log
//!   scale).
//! - [`sizes_svg`]: the mean clauses and variables of each encoding (log scale), per grid
//!   size when sizes mix.
//!
//! Every entry keeps one [`EntryStyle`] on every plot: its colour names its backend (or
//! classic solver), its marker and dash name its encoding, so 18 entries stay apart.
//! [`render_svg`] stacks the time, size and cactus plots into the one file of `--plot`
//! (for DIMACS formulas, which have no clues, size or encoding, the cactus plot alone).

use std::collections::BTreeMap;

use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::summary::{seconds, Analysis, EncodingSize, PuzzleTimes, VIRTUAL_BEST};
use super::{CompareError, Comparison, GroupBy};

const WIDTH: u32 = 1100;
const LEGEND_WIDTH: u32 = 320;
const LEGEND_ROW: u32 = 20;
const SIZES_HEIGHT: u32 = 420;
const SCATTER_SIDE: u32 = 540;
const FONT: &str = "sans-serif";

/// Ten colours that stay apart on white (the `tab10` palette).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The shape drawn at an entry's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled triangle.
    Triangle,
    /// A filled square.
    Square,
    /// A diagonal cross.
    Cross,
    /// A filled diamond.
    Diamond,
}

impl Marker {
    /// Every marker, in the order encodings take them.
    pub const ALL: [Marker; 5] = [
        Marker::Circle,
        Marker::Triangle,
        Marker::Square,
        Marker::Cross,
        Marker::Diamond,
    ];
}

/// How one entry is drawn on every plot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntryStyle {
    /// The colour of its backend or classic solver.
    pub color: RGBColor,
    /// The marker of its encoding.
    pub marker: Marker,
    /// Whether its line is dashed (every second encoding; a colour used again).
    pub dashed: bool,
}

/// The style of every entry of `comparison`, in entry order: colours by backend (a classic
/// solver is its own backend) in order of first appearance, markers and dashes by encoding.
/// A pair (backend, encoding) gets a style of its own while there are at most ten backends
/// and ten encodings.
pub fn entry_styles(comparison: &Comparison) -> Vec<EntryStyle> {
    let mut backends: Vec<String> = Vec::new();
    let mut encodings: Vec<Option<String>> = Vec::new();
    comparison
        .solvers
        .iter()
        .map(|solver| {
            let run = comparison.runs.iter().find(|r| &r.solver == solver);
            let backend = run
                .and_then(|r| r.backend.clone())
                .unwrap_or_else(|| solver.clone());
            let encoding = run.and_then(|r| r.encoding.clone());
            let b = index_of(&mut backends, backend);
            // A classic solver has a colour of its own: plain line, circles.
            let e = match encoding {
                Some(_) => index_of(&mut encodings, encoding),
                None => 0,
            };
            EntryStyle {
                color: PALETTE[b % PALETTE.len()],
                marker: Marker::ALL[e % Marker::ALL.len()],
                dashed: (e + b / PALETTE.len()) % 2 == 1,
            }
        })
        .collect()
}

/// The virtual best solver's style: black, dashed, diamonds.
const VBS_STYLE: EntryStyle = EntryStyle {
    color: RGBColor(0, 0, 0),
    marker: Marker::Diamond,
    dashed: true,
};

fn index_of<T: PartialEq>(list: &mut Vec<T>, value: T) -> usize {
    match list.iter().position(|v| *v == value) {
        Some(i) => i,
        None => {
            list.push(value);
            list.len() - 1
        }
    }
}

fn plot_error(e: impl std::fmt::Display) -> CompareError {
    CompareError::Plot(e.to_string())
}

/// A tick label for a log axis: `0.01`, `0.5`, `20`.
fn tick(value: f64) -> String {
    if value >= 10.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.4}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A count for a log axis: `900`, `12k`, `3.4M`.
fn count_tick(value: f64) -> String {
    if value >= 1e6 {
        format!("{}M", tick(value / 1e6))
    } else if value >= 1e4 {
        format!("{}k", tick(value / 1e3))
    } else {
        format!("{value:.0}")
    }
}

/// The label of the group at x position `x`, if `x` is one.
fn group_label(groups: &[usize], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    groups
        .get(i as usize)
        .map_or_else(String::new, |g| g.to_string())
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// Draws an entry's line (solid or dashed) and a marker at every `every`-th point.
fn draw_entry<X, Y>(
    chart: &mut Chart<'_, '_, X, Y>,
    points: &[(f64, f64)],
    style: &EntryStyle,
    every: usize,
) -> Result<(), CompareError>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let line = style.color.stroke_width(2);
    if style.dashed {
        chart
            .draw_series(DashedLineSeries::new(points.to_vec(), 8, 5, line))
            .map_err(plot_error)?;
    } else {
        chart
            .draw_series(LineSeries::new(points.to_vec(), line))
            .map_err(plot_error)?;
    }
    let marked: Vec<(f64, f64)> = points.iter().copied().step_by(every.max(1)).collect();
    draw_markers(chart, &marked, style.marker, style.color)
}

/// Draws `marker` at each point.
fn draw_markers<X, Y>(
    chart: &mut Chart<'_, '_, X, Y>,
    points: &[(f64, f64)],
    marker: Marker,
    color: RGBColor,
) -> Result<(), CompareError>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let fill = color.filled();
    let at = |&p: &(f64, f64)| EmptyElement::at(p);
    let drawn = match marker {
        Marker::Circle => chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 4, fill)))
            .map(|_| ()),
        Marker::Triangle => chart
            .draw_series(points.iter().map(|&p| TriangleMarker::new(p, 5, fill)))
            .map(|_| ()),
        Marker::Square => chart
            .draw_series(
                points
                    .iter()
                    .map(|p| at(p) + Rectangle::new([(-3, -3), (3, 3)], fill)),
            )
            .map(|_| ()),
        Marker::Cross => chart
            .draw_series(
                points
                    .iter()
                    .map(|&p| Cross::new(p, 4, color.stroke_width(2))),
            )
            .map(|_| ()),
        Marker::Diamond => chart
            .draw_series(
                points
                    .iter()
                    .map(|p| at(p) + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], fill)),
            )
            .map(|_| ()),
    };
    drawn.map_err(plot_error)
}

/// Draws a legend in its own area: a sample line with its marker, then the label.
fn draw_legend(
    area: &Area<'_>,
    title: &str,
    items: &[(String, EntryStyle)],
) -> Result<(), CompareError> {
    area.draw_text(title, &(FONT, 16).into_text_style(area), (10, 40))
        .map_err(plot_error)?;
    let (w, h) = area.dim_in_pixel();
    let mut chart = ChartBuilder::on(area)
        .build_cartesian_2d(0f64..w as f64, h as f64..0f64)
        .map_err(plot_error)?;
    for (i, (label, style)) in items.iter().enumerate() {
        let y = 70.0 + LEGEND_ROW as f64 * i as f64;
        draw_entry(&mut chart, &[(10.0, y), (25.0, y), (40.0, y)], style, 2)?;
        area.draw_text(
            label,
            &(FONT, 13)
                .into_text_style(area)
                .pos(Pos::new(HPos::Left, VPos::Center)),
            (48, y as i32),
        )
        .map_err(plot_error)?;
    }
    Ok(())
}

/// The range of a log axis holding `values`, with some room; `fallback` when empty.
fn log_range(values: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo.is_finite() {
        (lo / 1.6, hi * 1.6)
    } else {
        fallback
    }
}

fn svg_of(
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> Result<(), CompareError>,
) -> Result<String, CompareError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        draw(&root)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

fn legend_height(entries: usize) -> u32 {
    (120 + LEGEND_ROW * entries as u32).max(520)
}

/// Draws the plot of `comparison` for `--plot`: the times by `by` on top, then the
/// encoding sizes, then the cactus plot; returns the SVG text.
///
/// # Errors
/// [`CompareError::Plot`] when plotters fails to draw.
pub fn render_svg(
    comparison: &Comparison,
    analysis: &Analysis,
    by: GroupBy,
) -> Result<String, CompareError> {
    if analysis.on_formulas() {
        // A formula has no clues, grid size or encoding to plot by: the cactus alone.
        return cactus_svg(comparison, analysis);
    }
    let panel = legend_height(comparison.solvers.len() + 1);
    svg_of((WIDTH, 2 * panel + SIZES_HEIGHT), |root| {
        let (times, rest) = root.split_vertically(panel);
        let (sizes, cactus) = rest.split_vertically(SIZES_HEIGHT);
        draw_times(&times, comparison, analysis, by)?;
        draw_sizes(&sizes, analysis)?;
        draw_cactus(&cactus, comparison, analysis)
    })
}

/// The cactus plot alone.
///
/// # Errors
/// [`CompareError::Plot`] when plotters fails to draw.
pub fn cactus_svg(comparison: &Comparison, analysis: &Analysis) -> Result<String, CompareError> {
    let height = legend_height(comparison.solvers.len() + 1);
    svg_of((WIDTH, height), |root| {
        draw_cactus(root, comparison, analysis)
    })
}

/// The time plot by clues or size alone.
///
/// # Errors
/// [`CompareError::Plot`] when plotters fails to draw.
pub fn times_svg(
    comparison: &Comparison,
    analysis: &Analysis,
    by: GroupBy,
) -> Result<String, CompareError> {
    let height = legend_height(comparison.solvers.len());
    svg_of((WIDTH, height), |root| {
        draw_times(root, comparison, analysis, by)
    })
}

/// The encoding sizes alone.
///
/// # Errors
/// [`CompareError::Plot`] when plotters fails to draw.
pub fn sizes_svg(analysis: &Analysis) -> Result<String, CompareError> {
    svg_of((WIDTH, SIZES_HEIGHT), |root| draw_sizes(root, analysis))
}

/// The sorted solved times (ms) of each entry, then of the virtual best solver.
fn cactus_lines(
    comparison: &Comparison,
    analysis: &Analysis,
) -> Vec<(String, EntryStyle, Vec<f64>)> {
    let styles = entry_styles(comparison);
    let mut lines: Vec<(String, EntryStyle, Vec<f64>)> = comparison
        .solvers
        .iter()
        .zip(styles)
        .zip(&analysis.puzzle_times)
        .map(|((s, style), times)| (s.clone(), style, sorted_ms(times)))
        .collect();
    lines.push((
        VIRTUAL_BEST.to_string(),
        VBS_STYLE,
        sorted_ms(&analysis.virtual_best_times),
    ));
    lines
}

fn sorted_ms(times: &PuzzleTimes) -> Vec<f64> {
    let mut ms: Vec<f64> = times.values().map(|us| us / 1e3).collect();
    ms.sort_by(f64::total_cmp);
    ms
}

fn draw_cactus(
    area: &Area<'_>,
    comparison: &Comparison,
    analysis: &Analysis,
) -> Result<(), CompareError> {
    let (plot, legend) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let lines = cactus_lines(comparison, analysis);
    let limit_ms = analysis.par2_limit_s.map(|s| s * 1e3);
    let (lo, hi) = log_range(
        lines
            .iter()
            .flat_map(|l| l.2.iter().copied())
            .chain(limit_ms),
        (0.001, 1.0),
    );
    let puzzles = comparison.puzzles.max(1) as f64;
    let instance = analysis.instance;
    let caption = match analysis.par2_limit_s {
        Some(l) => format!(
            "Cactus plot: {instance}s answered within a time (limit {} s)",
            seconds(l)
        ),
        None => format!("Cactus plot: {instance}s answered within a time (no limit)"),
    };
    let mut chart = ChartBuilder::on(&plot)
        .caption(caption, (FONT, 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(75)
        .build_cartesian_2d(0f64..puzzles * 1.02, (lo..hi).log_scale())
        .map_err(plot_error)?;
    let tick_of = |y: &f64| tick(*y);
    chart
        .configure_mesh()
        .x_desc(format!("{instance}s answered"))
        .y_desc("time of the k-th fastest solve (ms, log)")
        .x_label_formatter(&|x: &f64| format!("{x:.0}"))
        .y_label_formatter(&tick_of)
        .draw()
        .map_err(plot_error)?;
    if let Some(limit) = limit_ms {
        let label = format!("time limit {} s", seconds(limit / 1e3));
        draw_guide(&mut chart, (0.0, limit), (puzzles * 1.02, limit), &label)?;
    }
    for (_, style, times) in &lines {
        let points: Vec<(f64, f64)> = times
            .iter()
            .enumerate()
            .map(|(k, &t)| ((k + 1) as f64, t))
            .collect();
        draw_entry(&mut chart, &points, style, (points.len() / 12).max(1))?;
    }
    let items: Vec<(String, EntryStyle)> = lines
        .iter()
        .map(|(label, style, times)| (format!("{label} ({})", times.len()), *style))
        .collect();
    draw_legend(&legend, &format!("entries ({instance}s answered)"), &items)
}

/// A grey dashed line from `from` to `to`, labelled `label` at its start.
fn draw_guide<X, Y>(
    chart: &mut Chart<'_, '_, X, Y>,
    from: (f64, f64),
    to: (f64, f64),
    label: &str,
) -> Result<(), CompareError>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let grey = RGBColor(110, 110, 110);
    chart
        .draw_series(DashedLineSeries::new(
            [from, to],
            6,
            4,
            grey.stroke_width(1),
        ))
        .map_err(plot_error)?;
    if !label.is_empty() {
        chart
            .draw_series(std::iter::once(
                EmptyElement::at(from)
                    + Text::new(
                        label.to_string(),
                        (4, -14),
                        (FONT, 12).into_font().color(&grey),
                    ),
            ))
            .map_err(plot_error)?;
    }
    Ok(())
}

/// The default `--scatter` pairs: the default entry (the default backend with the
/// default encoding, else the first entry) against each other backend or classic solver
/// (its entry with the same encoding when it has one, else its first).
pub fn default_pairs(comparison: &Comparison, default_label: &str) -> Vec<(String, String)> {
    let Some(first) = comparison.solvers.first() else {
        return Vec::new();
    };
    let base = if comparison.solvers.iter().any(|s| s == default_label) {
        default_label.to_string()
    } else {
        first.clone()
    };
    let of = |label: &str| {
        let run = comparison.runs.iter().find(|r| r.solver == label);
        (
            run.and_then(|r| r.backend.clone())
                .unwrap_or_else(|| label.to_string()),
            run.and_then(|r| r.encoding.clone()),
        )
    };
    let (base_backend, base_encoding) = of(&base);
    let mut picked: BTreeMap<String, String> = BTreeMap::new();
    let mut order = Vec::new();
    for label in &comparison.solvers {
        let (backend, encoding) = of(label);
        if backend == base_backend {
            continue;
        }
        match picked.get(&backend) {
            None => {
                order.push(backend.clone());
                picked.insert(backend, label.clone());
            }
            Some(_) if encoding.is_some() && encoding == base_encoding => {
                picked.insert(backend, label.clone());
            }
            Some(_) => {}
        }
    }
    order
        .into_iter()
        .map(|b| (base.clone(), picked[&b].clone()))
        .collect()
}

/// A scatter plot of entry `a` (x) against entry `b` (y), puzzle by puzzle, log–log: a
/// point below the diagonal is a puzzle `b` solved faster. A puzzle one of them did not
/// solve sits on the border line at the time limit (at twice the largest time without a
/// limit), drawn as a cross.
///
/// # Errors
/// [`CompareError::UnknownEntry`] when `a` or `b` is not an entry, [`CompareError::Plot`]
/// when plotters fails to draw.
pub fn scatter_svg(
    comparison: &Comparison,
    analysis: &Analysis,
    a: &str,
    b: &str,
) -> Result<String, CompareError> {
    let points = scatter_points(comparison, analysis, a, b)?;
    let styles = entry_styles(comparison);
    let style_b = comparison
        .solvers
        .iter()
        .position(|s| s == b)
        .map_or(VBS_STYLE, |i| styles[i]);
    svg_of((SCATTER_SIDE, SCATTER_SIDE), |root| {
        let border = points.border_ms;
        let lo = points.lo_ms;
        let mut chart = ChartBuilder::on(root)
            .caption(format!("{b} against {a}"), (FONT, 16))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(
                (lo..border * 1.25).log_scale(),
                (lo..border * 1.25).log_scale(),
            )
            .map_err(plot_error)?;
        let tick_of = |v: &f64| tick(*v);
        chart
            .configure_mesh()
            .x_desc(format!("{a} (ms, log)"))
            .y_desc(format!("{b} (ms, log)"))
            .x_label_formatter(&tick_of)
            .y_label_formatter(&tick_of)
            .draw()
            .map_err(plot_error)?;
        draw_guide(&mut chart, (lo, lo), (border, border), "")?;
        let border_label = match analysis.par2_limit_s {
            Some(l) => format!("time limit {} s: unanswered", seconds(l)),
            None => "unanswered (no time limit)".to_string(),
        };
        draw_guide(&mut chart, (lo, border), (border, border), &border_label)?;
        draw_guide(&mut chart, (border, lo), (border, border), "")?;
        draw_markers(&mut chart, &points.solved, Marker::Circle, style_b.color)?;
        draw_markers(&mut chart, &points.unsolved, Marker::Cross, PALETTE[3])?;
        let note = format!(
            "{} {}s: {} faster on {}, {} faster on {}",
            points.solved.len() + points.unsolved.len(),
            analysis.instance,
            b,
            points.b_faster,
            a,
            points.a_faster
        );
        root.draw_text(
            &note,
            &(FONT, 12).into_text_style(root),
            (90, SCATTER_SIDE as i32 - 14),
        )
        .map_err(plot_error)
    })
}

/// The points of a scatter plot, ms.
#[derive(Debug, Default)]
struct ScatterPoints {
    /// Puzzles both solved.
    solved: Vec<(f64, f64)>,
    /// Puzzles one or both did not solve (on the border).
    unsolved: Vec<(f64, f64)>,
    /// The border: the time limit, or twice the largest time.
    border_ms: f64,
    /// The low end of both axes.
    lo_ms: f64,
    /// Puzzles `a` solved faster (or `b` did not solve).
    a_faster: usize,
    /// Puzzles `b` solved faster (or `a` did not solve).
    b_faster: usize,
}

fn scatter_points(
    comparison: &Comparison,
    analysis: &Analysis,
    a: &str,
    b: &str,
) -> Result<ScatterPoints, CompareError> {
    let times = |label: &str| {
        comparison
            .solvers
            .iter()
            .position(|s| s == label)
            .map(|i| &analysis.puzzle_times[i])
            .ok_or_else(|| {
                CompareError::UnknownEntry(label.to_string(), comparison.solvers.join(", "))
            })
    };
    let (ta, tb) = (times(a)?, times(b)?);
    let mut puzzles: Vec<usize> = comparison
        .runs
        .iter()
        .filter(|r| r.solver == a || r.solver == b)
        .map(|r| r.puzzle_index)
        .collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    let all_ms = ta.values().chain(tb.values()).map(|us| us / 1e3);
    let largest = all_ms.clone().fold(0.0f64, f64::max);
    let border_ms = analysis
        .par2_limit_s
        .map_or((largest * 2.0).max(1e-3), |s| s * 1e3);
    let lo_ms = log_range(all_ms, (border_ms / 100.0, border_ms)).0;
    let mut points = ScatterPoints {
        border_ms,
        lo_ms: lo_ms.min(border_ms / 10.0),
        ..ScatterPoints::default()
    };
    for p in puzzles {
        let (x, y) = (ta.get(&p).map(|us| us / 1e3), tb.get(&p).map(|us| us / 1e3));
        match (x, y) {
            (Some(x), Some(y)) => {
                points.solved.push((x, y));
                if x < y {
                    points.a_faster += 1;
                } else if y < x {
                    points.b_faster += 1;
                }
            }
            (x, y) => {
                if x.is_some() {
                    points.a_faster += 1;
                }
                if y.is_some() {
                    points.b_faster += 1;
                }
                points
                    .unsolved
                    .push((x.unwrap_or(border_ms), y.unwrap_or(border_ms)));
            }
        }
    }
    Ok(points)
}

fn draw_times(
    area: &Area<'_>,
    comparison: &Comparison,
    analysis: &Analysis,
    by: GroupBy,
) -> Result<(), CompareError> {
    let (plot, legend) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let grouped = super::summary::summarize(
        &comparison.runs,
        &comparison.solvers,
        Some(by),
        analysis.par2_limit_s,
    );
    let grouped = if analysis.group_by == Some(by) {
        analysis.summary_by_group.clone()
    } else {
        grouped
    };
    let mut groups: Vec<usize> = grouped.iter().filter_map(|s| s.group).collect();
    groups.sort_unstable();
    groups.dedup();
    let (lo, hi) = log_range(
        grouped
            .iter()
            .filter_map(|s| s.median_us)
            .map(|us| us / 1e3),
        (0.001, 1.0),
    );
    let x_max = groups.len().max(1) as f64 - 0.5;
    let mut chart = ChartBuilder::on(&plot)
        .caption(
            format!("Median solve time by {} (log scale)", by.name()),
            (FONT, 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(75)
        .build_cartesian_2d(-0.5f64..x_max, (lo..hi).log_scale())
        .map_err(plot_error)?;
    let label_of = |x: &f64| group_label(&groups, *x);
    let tick_of = |y: &f64| tick(*y);
    chart
        .configure_mesh()
        .x_desc(match by {
            GroupBy::Clues => "givens (clues)",
            GroupBy::Size => "grid side n",
        })
        .y_desc("median time per puzzle (ms)")
        .x_labels(groups.len().clamp(1, 40) * 2 + 1)
        .x_label_formatter(&label_of)
        .y_label_formatter(&tick_of)
        .disable_x_mesh()
        .draw()
        .map_err(plot_error)?;
    let styles = entry_styles(comparison);
    for (solver, style) in comparison.solvers.iter().zip(&styles) {
        let points: Vec<(f64, f64)> = grouped
            .iter()
            .filter(|s| &s.solver == solver)
            .filter_map(|s| {
                let x = groups.iter().position(|&g| Some(g) == s.group)?;
                Some((x as f64, s.median_us? / 1e3))
            })
            .collect();
        draw_entry(&mut chart, &points, style, 1)?;
    }
    let items: Vec<(String, EntryStyle)> = comparison.solvers.iter().cloned().zip(styles).collect();
    draw_legend(&legend, "solvers", &items)
}

/// Draws the mean clauses (bars) and variables (black diamonds) of each encoding on a log
/// scale, grouped by grid size.
fn draw_sizes(area: &Area<'_>, analysis: &Analysis) -> Result<(), CompareError> {
    let sizes = &analysis.encoding_sizes;
    if sizes.is_empty() {
        area.draw_text(
            "Encoding sizes: no SAT entry in this comparison",
            &(FONT, 18).into_text_style(area),
            (20, 40),
        )
        .map_err(plot_error)?;
        return Ok(());
    }
    let mut encodings: Vec<&str> = Vec::new();
    let mut grid_sizes: Vec<usize> = Vec::new();
    for s in sizes {
        index_of(&mut encodings, s.encoding.as_str());
        index_of(&mut grid_sizes, s.size);
    }
    let (lo, hi) = log_range(sizes.iter().flat_map(|s| [s.vars, s.clauses]), (1.0, 10.0));
    let (lo, hi) = (lo / 2.0, hi * 2.0);
    let (area, legend) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let mut chart = ChartBuilder::on(&area)
        .caption(
            "Encoding sizes: mean clauses (bars) and variables (◆) per puzzle, log scale",
            (FONT, 18),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(75)
        .build_cartesian_2d(-0.5f64..grid_sizes.len() as f64 - 0.5, (lo..hi).log_scale())
        .map_err(plot_error)?;
    let label_of = |x: &f64| {
        let i = x.round();
        match grid_sizes.get(i as usize) {
            Some(n) if (x - i).abs() < 1e-6 && i >= 0.0 => format!("{n}×{n}"),
            _ => String::new(),
        }
    };
    let count_of = |y: &f64| count_tick(*y);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(grid_sizes.len() * 2 + 1)
        .y_labels(8)
        .x_label_formatter(&label_of)
        .y_label_formatter(&count_of)
        .x_desc("grid size")
        .y_desc("count (log)")
        .draw()
        .map_err(plot_error)?;
    let width = 0.8 / encodings.len() as f64;
    let place = |s: &EncodingSize| {
        let g = grid_sizes.iter().position(|&n| n == s.size).unwrap_or(0) as f64;
        let e = encodings.iter().position(|&e| e == s.encoding).unwrap_or(0) as f64;
        g - 0.4 + e * width
    };
    let label_values = sizes.len() <= 12;
    for (e, encoding) in encodings.iter().enumerate() {
        let color = PALETTE[e % PALETTE.len()];
        let mine: Vec<&EncodingSize> = sizes.iter().filter(|s| s.encoding == *encoding).collect();
        chart
            .draw_series(mine.iter().map(|s| {
                let x = place(s);
                Rectangle::new([(x, lo), (x + width * 0.9, s.clauses)], color.filled())
            }))
            .map_err(plot_error)?;
        let diamonds: Vec<(f64, f64)> = mine
            .iter()
            .map(|s| (place(s) + width * 0.45, s.vars))
            .collect();
        draw_markers(&mut chart, &diamonds, Marker::Diamond, RGBColor(0, 0, 0))?;
        if label_values {
            chart
                .draw_series(mine.iter().map(|s| {
                    Text::new(
                        format!("{:.0}", s.clauses),
                        (place(s), s.clauses * 1.15),
                        (FONT, 11),
                    )
                }))
                .map_err(plot_error)?;
        }
    }
    draw_size_legend(&legend, &encodings)
}

/// The legend of the size chart: a swatch per encoding, then what bars and diamonds are.
fn draw_size_legend(area: &Area<'_>, encodings: &[&str]) -> Result<(), CompareError> {
    let style = (FONT, 13)
        .into_text_style(area)
        .pos(Pos::new(HPos::Left, VPos::Center));
    area.draw_text("encodings", &(FONT, 16).into_text_style(area), (10, 40))
        .map_err(plot_error)?;
    let mut y = 70;
    for (e, encoding) in encodings.iter().enumerate() {
        let color = PALETTE[e % PALETTE.len()];
        area.draw(&Rectangle::new([(10, y - 6), (34, y + 6)], color.filled()))
            .map_err(plot_error)?;
        area.draw_text(encoding, &style, (44, y))
            .map_err(plot_error)?;
        y += LEGEND_ROW as i32;
    }
    y += LEGEND_ROW as i32 / 2;
    area.draw(&Rectangle::new(
        [(10, y - 6), (34, y + 6)],
        BLACK.stroke_width(1),
    ))
    .map_err(plot_error)?;
    area.draw_text("clauses (bars)", &style, (44, y))
        .map_err(plot_error)?;
    y += LEGEND_ROW as i32;
    area.draw(&Polygon::new(
        vec![(22, y - 6), (28, y), (22, y + 6), (16, y)],
        BLACK.filled(),
    ))
    .map_err(plot_error)?;
    area.draw_text("variables (◆)", &style, (44, y))
        .map_err(plot_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_and_group_labels() {
        assert_eq!(tick(0.01), "0.01");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(2.0), "2");
        assert_eq!(tick(200.0), "200");
        assert_eq!(count_tick(900.0), "900");
        assert_eq!(count_tick(12_000.0), "12k");
        assert_eq!(count_tick(3_400_000.0), "3.4M");
        assert_eq!(group_label(&[17, 20], 1.0), "20");
        assert_eq!(group_label(&[17, 20], 0.5), "");
        assert_eq!(group_label(&[17, 20], 2.0), "");
        assert_eq!(group_label(&[17, 20], -1.0), "");
    }

    fn texts(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .collect()
    }

    fn comparison(solvers: &str, encodings: &str) -> Comparison {
        use std::sync::atomic::AtomicBool;
        let puzzles: Vec<crate::compare::Puzzle> = ["1.3...1..4..2.4.", "1.3...1..4..2..."]
            .iter()
            .map(|t| crate::compare::Puzzle {
                file: "t".to_string(),
                line: 1,
                grid: t.parse().unwrap(),
            })
            .collect();
        let entries = crate::compare::entries(
            &crate::compare::parse_solvers(solvers).unwrap(),
            &crate::compare::parse_encodings(encodings).unwrap(),
            &Default::default(),
        );
        let mut config = crate::compare::CompareConfig::new(entries);
        config.timeout = Some(std::time::Duration::from_secs(5));
        crate::compare::run(&puzzles, &config, &AtomicBool::new(false), &|_| {}).unwrap()
    }

    #[test]
    fn legend_names_every_entry_and_bars_every_encoding() {
        let c = comparison(
            "dpll,dlx,external:/nonexistent & <solver>",
            "minimal,extended",
        );
        let a = Analysis::new(&c, None);
        let svg = render_svg(&c, &a, GroupBy::Clues).unwrap();
        let texts = texts(&svg);
        for label in &c.solvers {
            assert!(texts.contains(label), "{label} missing from {texts:?}");
        }
        for label in ["minimal", "extended", "clauses (bars)", "variables (◆)"] {
            assert!(texts.iter().any(|t| t == label), "{label} missing");
        }
        assert!(texts.iter().any(|t| t.contains("limit 5 s")), "{texts:?}");
    }

    #[test]
    fn without_sat_entries_the_bar_chart_says_so() {
        let c = comparison("dlx", "minimal");
        let svg = render_svg(&c, &Analysis::new(&c, None), GroupBy::Size).unwrap();
        let texts = texts(&svg);
        assert!(
            texts.iter().any(|t| t.contains("no SAT entry")),
            "{texts:?}"
        );
        assert!(texts.iter().any(|t| t == "dlx"));
    }

    #[test]
    fn styles_tell_every_entry_apart() {
        let c = comparison("dpll,varisat,splr,dlx,backtrack-mrv", "all");
        let styles = entry_styles(&c);
        let encodings = crate::encode::SudokuEncoding::ALL.len();
        assert_eq!(styles.len(), 3 * encodings + 2);
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert_ne!(a, b, "two entries look alike");
            }
        }
        // Colour = backend, marker = encoding.
        assert_eq!(styles[0].color, styles[encodings - 1].color);
        assert_ne!(styles[0].marker, styles[1].marker);
        assert_eq!(styles[0].marker, styles[encodings].marker);
    }

    #[test]
    fn default_pairs_put_the_default_entry_against_each_other_backend() {
        let c = comparison("dpll,varisat,dlx", "minimal,extended+reduced");
        let pairs = default_pairs(&c, "dpll/extended+reduced");
        let expected = [
            ("dpll/extended+reduced", "varisat/extended+reduced"),
            ("dpll/extended+reduced", "dlx"),
        ];
        let pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(pairs, expected);
        // Without the default entry, the first one is the base.
        assert_eq!(default_pairs(&c, "cdcl/minimal")[0].0, "dpll/minimal");
    }

    #[test]
    fn scatter_puts_unsolved_puzzles_on_the_limit() {
        let mut c = comparison("dpll,dlx", "minimal");
        // dlx "timed out" on the second puzzle.
        let row = c
            .runs
            .iter_mut()
            .find(|r| r.solver == "dlx" && r.puzzle_index == 2)
            .unwrap();
        row.outcome = crate::compare::Outcome::Timeout;
        let a = Analysis::new(&c, None);
        let points = scatter_points(&c, &a, "dpll/minimal", "dlx").unwrap();
        assert_eq!((points.solved.len(), points.unsolved.len()), (1, 1));
        assert_eq!(points.unsolved[0].1, 5000.0);
        assert_eq!(points.border_ms, 5000.0);
        assert!(points.a_faster >= 1);
        let svg = scatter_svg(&c, &a, "dpll/minimal", "dlx").unwrap();
        assert!(texts(&svg).iter().any(|t| t.contains("time limit 5 s")));
        assert!(matches!(
            scatter_svg(&c, &a, "dpll/minimal", "nope"),
            Err(CompareError::UnknownEntry(..))
        ));
    }
}
