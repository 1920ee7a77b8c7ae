//! The SVG plots of a comparison (plotters, SVG backend), the views SAT papers use:
//!
//! - [`cactus_svg`]: a *cactus plot*, one line per entry (and the virtual best solver): its
//!   answered puzzles sorted by time, x = puzzles answered, y = the time of the k-th (log
//!   scale), with the time limit drawn when a run reached it. A line further right solved
//!   more; lower is faster.
//! - [`scatter_svg`]: two entries puzzle by puzzle on log–log axes, the diagonal drawn and
//!   time-outs (or other unsolved puzzles) on the border line at the limit.
//! - [`times_svg`]: the median solve time of each entry by clue count or by size (log
//!   scale); the line breaks where the median is past the limit, marked there by a ring.
//! - [`sizes_svg`]: the mean clauses and variables of each encoding, one panel per grid
//!   size, each on a linear axis from zero.
//!
//! Every axis fits its data: a log axis runs from a little below the smallest value to a
//! little above the largest (the time limit counts only when a run reached it), and is
//! labelled at decades, or at 1-2-5 or every unit of one when it spans less; a count axis
//! is labelled at whole numbers.
//!
//! Every entry keeps one [`EntryStyle`] on every plot: its colour names its backend (or
//! classic solver), its marker and dash name its encoding, so 18 entries stay apart.
//! [`render_svg`] stacks the time, size and cactus plots into the one file of `--plot`
//! (for DIMACS formulas, which have no clues, size or encoding, the cactus plot alone).

use std::collections::BTreeMap;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::summary::{seconds, Analysis, EncodingSize, PuzzleTimes, VIRTUAL_BEST};
use super::{CompareError, Comparison, GroupBy, Outcome};

const WIDTH: u32 = 1100;
const LEGEND_WIDTH: u32 = 360;
const LEGEND_ROW: u32 = 20;
/// The most characters of a legend's line: what fits in the legend beside its sample line
/// (`LEGEND_WIDTH` less 58 pixels) at the legend's 13-pixel font, counting 0.62 em a
/// character, a little more than a sans-serif font's mean width.
pub const LEGEND_CHARS: usize = 37;
/// The most characters of an entry's label in a scatter plot's caption and axis titles.
const SCATTER_LABEL_CHARS: usize = 28;
/// The most characters of the note under a scatter plot (its 12-pixel font from x = 90).
const NOTE_CHARS: usize = 72;
const SIZES_TITLE: u32 = 40;
const SIZES_ROW: u32 = 380;
/// Panels per row of the size chart.
const SIZES_COLUMNS: usize = 4;
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

/// A tick label for a time axis, to three significant digits: `0.01`, `0.5`, `2.5`, `20`.
fn tick(value: f64) -> String {
    if value >= 10.0 || value <= 0.0 {
        return format!("{value:.0}");
    }
    let decimals = (2 - value.log10().floor() as i32).max(0) as usize;
    let text = format!("{value:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A tick label for a count: `900`, `12k`, `3.4M`.
fn count_tick(value: f64) -> String {
    if value >= 1e6 {
        format!("{}M", tick(value / 1e6))
    } else if value >= 1e4 {
        format!("{}k", tick(value / 1e3))
    } else {
        format!("{value:.0}")
    }
}

/// The range of one axis and the values labelled on it.
#[derive(Clone, Debug, PartialEq)]
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Axis {
    /// A log axis over `values` (the positive, finite ones): from a half-step below the
    /// smallest to a half-step above the largest, never a decade away from the data;
    /// `fallback` when there are none.
    fn log(values: impl IntoIterator<Item = f64>, fallback: (f64, f64)) -> Axis {
        let (lo, hi) = values
            .into_iter()
            .filter(|v| *v > 0.0 && v.is_finite())
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        let (lo, hi) = if lo.is_finite() {
            (lo / 1.5, hi * 1.5)
        } else {
            fallback
        };
        Axis {
            lo,
            hi,
            ticks: log_ticks(lo, hi),
        }
    }

    /// A linear axis from zero to `hi`, labelled at a round step (whole numbers when
    /// `whole`).
    fn from_zero(hi: f64, whole: bool) -> Axis {
        let hi = if hi > 0.0 && hi.is_finite() { hi } else { 1.0 };
        let step = round_step(hi / 7.0, whole);
        let ticks = (0..)
            .map(|i| i as f64 * step)
            .take_while(|t| *t <= hi)
            .collect();
        Axis { lo: 0.0, hi, ticks }
    }

    fn log_coord(&self) -> Ticked<LogCoord<f64>> {
        Ticked {
            inner: (self.lo..self.hi).log_scale().into(),
            ticks: self.ticks.clone(),
        }
    }

    fn linear_coord(&self) -> Ticked<RangedCoordf64> {
        Ticked {
            inner: (self.lo..self.hi).into(),
            ticks: self.ticks.clone(),
        }
    }
}

/// A plotters axis labelled at the values of an [`Axis`], where plotters' own choice
/// rounds neighbouring labels to the same text on short ranges.
struct Ticked<R> {
    inner: R,
    ticks: Vec<f64>,
}

impl<R: Ranged<ValueType = f64>> Ranged for Ticked<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Labels and mesh lines at the ticks only, no finer mesh between them.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// The labels of a log axis from `lo` to `hi`: the powers of ten in it; when fewer than
/// three, 1, 2 and 5 times them; when still fewer, every unit of each decade.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    const MANTISSAS: [&[f64]; 3] = [
        &[1.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ];
    let decades = lo.log10().floor() as i32..=hi.log10().ceil() as i32;
    let mut ticks = Vec::new();
    for mantissas in MANTISSAS {
        ticks = decades
            .clone()
            .flat_map(|k| mantissas.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| (lo..=hi).contains(v))
            .collect();
        if ticks.len() >= 3 {
            break;
        }
    }
    ticks
}

/// The smallest step of 1, 2 or 5 times a power of ten that is at least `raw` (at least 1
/// when `whole`).
fn round_step(raw: f64, whole: bool) -> f64 {
    let raw = if whole { raw.max(1.0) } else { raw };
    let power = 10f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|step| *step >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
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

/// An entry's `label` as a plot shows it, in at most `max` characters (the tables and the
/// CSV keep it whole): a solver process by its program's file name and its flags
/// (`external:/opt/bin/kissat -q/minimal` is `kissat -q/minimal`), then, if still too
/// long, the backend's part cut with `…` and the encoding kept
/// (`kissat -q --conflicts…/minimal`). The backend and encoding are read off the
/// entry's rows; a label without rows is only cut.
pub fn plot_label(comparison: &Comparison, label: &str, max: usize) -> String {
    let run = comparison.runs.iter().find(|r| r.solver == label);
    let parts = run.and_then(|r| {
        let (backend, encoding) = (r.backend.as_deref()?, r.encoding.as_deref()?);
        (label == format!("{backend}/{encoding}")).then_some((backend, encoding))
    });
    let Some((backend, encoding)) = parts else {
        return cut(label, max);
    };
    let backend = match backend.split_once(':') {
        Some((head, command)) => {
            let command = command.trim_start();
            let (program, flags) = command
                .split_once(char::is_whitespace)
                .unwrap_or((command, ""));
            let program = program.rsplit('/').next().unwrap_or(program);
            let flags = if flags.is_empty() {
                String::new()
            } else {
                format!(" {flags}")
            };
            // The program names the solver; `external:` adds nothing a reader needs,
            // but options of the entry's own do.
            if head.contains('[') {
                format!("{head}:{program}{flags}")
            } else {
                format!("{program}{flags}")
            }
        }
        None => backend.to_string(),
    };
    let suffix = format!("/{encoding}");
    let whole = format!("{backend}{suffix}");
    let room = max.saturating_sub(suffix.chars().count());
    if whole.chars().count() <= max {
        whole
    } else if room >= 8 {
        format!("{}{suffix}", cut(&backend, room))
    } else {
        cut(&whole, max)
    }
}

/// `text` in at most `max` characters: cut, with `…` as the last one, when longer.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
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
    let sizes_height = sizes_height(analysis);
    svg_of((WIDTH, 2 * panel + sizes_height), |root| {
        let (times, rest) = root.split_vertically(panel);
        let (sizes, cactus) = rest.split_vertically(sizes_height);
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
    svg_of((WIDTH, sizes_height(analysis)), |root| {
        draw_sizes(root, analysis)
    })
}

/// The height of the size chart: a row of panels per [`SIZES_COLUMNS`] grid sizes.
fn sizes_height(analysis: &Analysis) -> u32 {
    let rows = grid_sizes(analysis).len().div_ceil(SIZES_COLUMNS).max(1);
    SIZES_TITLE + SIZES_ROW * rows as u32
}

/// The grid sizes of the encodings measured, in order of first appearance.
fn grid_sizes(analysis: &Analysis) -> Vec<usize> {
    let mut sizes = Vec::new();
    for s in &analysis.encoding_sizes {
        index_of(&mut sizes, s.size);
    }
    sizes
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
    let limit_ms = limit_reached(comparison, analysis).map(|s| s * 1e3);
    let y = Axis::log(
        lines
            .iter()
            .flat_map(|l| l.2.iter().copied())
            .chain(limit_ms),
        (0.001, 1.0),
    );
    let x = Axis::from_zero(comparison.puzzles.max(1) as f64 * 1.03, true);
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
        .build_cartesian_2d(x.linear_coord(), y.log_coord())
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
        draw_guide(&mut chart, (0.0, limit), (x.hi, limit), &label)?;
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
        .map(|(label, style, times)| {
            let count = format!(" ({})", times.len());
            let room = LEGEND_CHARS.saturating_sub(count.chars().count());
            (
                format!("{}{count}", plot_label(comparison, label, room)),
                *style,
            )
        })
        .collect();
    draw_legend(&legend, &format!("entries ({instance}s answered)"), &items)
}

/// The time limit (s) when some run reached it: it is then part of what a plot shows.
fn limit_reached(comparison: &Comparison, analysis: &Analysis) -> Option<f64> {
    let reached = comparison
        .runs
        .iter()
        .any(|r| matches!(r.outcome, Outcome::Timeout));
    analysis.par2_limit_s.filter(|_| reached)
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
    let (a_full, b_full) = (a, b);
    let (a, b) = (
        plot_label(comparison, a, SCATTER_LABEL_CHARS),
        plot_label(comparison, b, SCATTER_LABEL_CHARS),
    );
    svg_of((SCATTER_SIDE, SCATTER_SIDE), |root| {
        let axis = points.axis();
        let mut chart = ChartBuilder::on(root)
            .caption(format!("{b} against {a}"), (FONT, 16))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(axis.log_coord(), axis.log_coord())
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
        draw_guide(&mut chart, (axis.lo, axis.lo), (axis.hi, axis.hi), "")?;
        if !points.unsolved.is_empty() {
            let (lo, border) = (axis.lo, points.border_ms);
            let border_label = match analysis.par2_limit_s {
                Some(l) => format!("time limit {} s: unanswered", seconds(l)),
                None => "unanswered (no time limit)".to_string(),
            };
            draw_guide(&mut chart, (lo, border), (border, border), &border_label)?;
            draw_guide(&mut chart, (border, lo), (border, border), "")?;
        }
        draw_markers(&mut chart, &points.solved, Marker::Circle, style_b.color)?;
        draw_markers(&mut chart, &points.unsolved, Marker::Cross, PALETTE[3])?;
        // The note below the plot shares its line between the two labels.
        let head = format!(
            "{} {}s: ",
            points.solved.len() + points.unsolved.len(),
            analysis.instance
        );
        let fixed = head.chars().count() + 30;
        let room = NOTE_CHARS.saturating_sub(fixed) / 2;
        let note = format!(
            "{head}{} faster on {}, {} faster on {}",
            plot_label(comparison, b_full, room),
            points.b_faster,
            plot_label(comparison, a_full, room),
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
    /// Puzzles `a` solved faster (or `b` did not solve).
    a_faster: usize,
    /// Puzzles `b` solved faster (or `a` did not solve).
    b_faster: usize,
}

impl ScatterPoints {
    /// The axis of both sides: the times, and the border when a point sits on it.
    fn axis(&self) -> Axis {
        let values = self.solved.iter().chain(&self.unsolved);
        Axis::log(
            values.flat_map(|&(x, y)| [x, y]),
            (self.border_ms / 100.0, self.border_ms),
        )
    }
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
    let mut points = ScatterPoints {
        border_ms,
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

/// An entry's median time over the puzzles of one group, a puzzle it did not answer
/// counting as slower than any it did.
#[derive(Clone, Copy, Debug, PartialEq)]
enum GroupMedian {
    /// The median, ms.
    Ms(f64),
    /// Half the group or more unanswered: the median is past the limit.
    Unanswered,
}

/// The groups by `by` (sorted) and each entry's median in each (`None` where it has no
/// run in the group).
fn group_medians(
    comparison: &Comparison,
    analysis: &Analysis,
    by: GroupBy,
) -> (Vec<usize>, Vec<Vec<Option<GroupMedian>>>) {
    let mut groups: Vec<usize> = comparison.runs.iter().map(|r| by.key(r)).collect();
    groups.sort_unstable();
    groups.dedup();
    let medians = comparison
        .solvers
        .iter()
        .zip(&analysis.puzzle_times)
        .map(|(solver, times)| {
            // The puzzles this entry ran, by group.
            let mut puzzles: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
            for r in comparison.runs.iter().filter(|r| &r.solver == solver) {
                puzzles.entry(by.key(r)).or_default().push(r.puzzle_index);
            }
            groups
                .iter()
                .map(|g| {
                    let mut ids = puzzles.get(g)?.clone();
                    ids.sort_unstable();
                    ids.dedup();
                    let mut ms: Vec<f64> = ids
                        .iter()
                        .map(|p| times.get(p).map_or(f64::INFINITY, |us| us / 1e3))
                        .collect();
                    let median = super::summary::median(&mut ms)?;
                    Some(if median.is_finite() {
                        GroupMedian::Ms(median)
                    } else {
                        GroupMedian::Unanswered
                    })
                })
                .collect()
        })
        .collect();
    (groups, medians)
}

/// The runs of points where `medians` has a time, split where it has none.
fn answered_stretches(medians: &[Option<GroupMedian>]) -> Vec<Vec<(f64, f64)>> {
    let mut stretches: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (x, m) in medians.iter().enumerate() {
        match m {
            Some(GroupMedian::Ms(ms)) => stretches.last_mut().unwrap().push((x as f64, *ms)),
            _ if stretches.last().is_some_and(|s| !s.is_empty()) => stretches.push(Vec::new()),
            _ => {}
        }
    }
    stretches.retain(|s| !s.is_empty());
    stretches
}

/// The positions labelled on an axis of `n` groups: each, or every k-th when crowded.
fn group_ticks(n: usize) -> Vec<f64> {
    let every = n.div_ceil(24).max(1);
    (0..n).step_by(every).map(|i| i as f64).collect()
}

fn draw_times(
    area: &Area<'_>,
    comparison: &Comparison,
    analysis: &Analysis,
    by: GroupBy,
) -> Result<(), CompareError> {
    let (plot, legend) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let (groups, medians) = group_medians(comparison, analysis, by);
    let times = medians.iter().flatten().flatten().filter_map(|m| match m {
        GroupMedian::Ms(ms) => Some(*ms),
        GroupMedian::Unanswered => None,
    });
    let largest = times.clone().fold(0.0f64, f64::max);
    let any_unanswered = medians
        .iter()
        .flatten()
        .any(|m| *m == Some(GroupMedian::Unanswered));
    // Where a median past the limit is marked: at the limit, or above every time.
    let border_ms = analysis
        .par2_limit_s
        .map_or((largest * 2.0).max(1e-3), |s| s * 1e3);
    let y = Axis::log(
        times.chain(any_unanswered.then_some(border_ms)),
        (0.001, 1.0),
    );
    let x = Axis {
        lo: -0.5,
        hi: groups.len().max(1) as f64 - 0.5,
        ticks: group_ticks(groups.len()),
    };
    let mut chart = ChartBuilder::on(&plot)
        .caption(
            format!("Median solve time by {} (log scale)", by.name()),
            (FONT, 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(75)
        .build_cartesian_2d(x.linear_coord(), y.log_coord())
        .map_err(plot_error)?;
    let label_of = |x: &f64| group_label(&groups, *x);
    let tick_of = |y: &f64| tick(*y);
    chart
        .configure_mesh()
        .x_desc(match by {
            GroupBy::Clues => "givens (clues)",
            GroupBy::Size => "grid side n",
        })
        .y_desc("median time per puzzle (ms, log)")
        .x_label_formatter(&label_of)
        .y_label_formatter(&tick_of)
        .disable_x_mesh()
        .draw()
        .map_err(plot_error)?;
    if any_unanswered {
        let label = match analysis.par2_limit_s {
            Some(l) => format!("time limit {} s", seconds(l)),
            None => "unanswered (no time limit)".to_string(),
        };
        draw_guide(&mut chart, (x.lo, border_ms), (x.hi, border_ms), &label)?;
    }
    let styles = entry_styles(comparison);
    for (medians, style) in medians.iter().zip(&styles) {
        for stretch in answered_stretches(medians) {
            draw_entry(&mut chart, &stretch, style, 1)?;
        }
        let past: Vec<(f64, f64)> = medians
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == Some(GroupMedian::Unanswered))
            .map(|(x, _)| (x as f64, border_ms))
            .collect();
        chart
            .draw_series(
                past.iter()
                    .map(|&p| Circle::new(p, 6, style.color.stroke_width(2))),
            )
            .map_err(plot_error)?;
    }
    let items: Vec<(String, EntryStyle)> = comparison
        .solvers
        .iter()
        .map(|label| plot_label(comparison, label, LEGEND_CHARS))
        .zip(styles)
        .collect();
    draw_legend(&legend, "solvers", &items)?;
    if any_unanswered {
        let y = 70 + LEGEND_ROW as i32 * items.len() as i32 + LEGEND_ROW as i32 / 2;
        legend
            .draw(&Circle::new((25, y), 6, BLACK.stroke_width(2)))
            .map_err(plot_error)?;
        legend
            .draw_text(
                "median past the limit",
                &(FONT, 13)
                    .into_text_style(&legend)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
                (48, y),
            )
            .map_err(plot_error)?;
    }
    Ok(())
}

/// Draws the mean clauses (bars) and variables (black diamonds) of each encoding, a panel
/// per grid size, each on a linear axis from zero: sizes differ by orders of magnitude, and
/// a bar's length is only read right from zero.
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
    for s in sizes {
        index_of(&mut encodings, s.encoding.as_str());
    }
    let grid_sizes = grid_sizes(analysis);
    let (area, legend) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let (title, panels) = area.split_vertically(SIZES_TITLE);
    title
        .draw_text(
            "Encoding sizes: mean clauses (bars) and variables (◆) per puzzle",
            &(FONT, 18)
                .into_text_style(&title)
                .pos(Pos::new(HPos::Center, VPos::Center)),
            (
                (WIDTH - LEGEND_WIDTH) as i32 / 2,
                SIZES_TITLE as i32 / 2 + 5,
            ),
        )
        .map_err(plot_error)?;
    let rows = grid_sizes.len().div_ceil(SIZES_COLUMNS).max(1);
    let columns = grid_sizes.len().clamp(1, SIZES_COLUMNS);
    let cells = panels.split_evenly((rows, columns));
    for (cell, n) in cells.iter().zip(&grid_sizes) {
        let mine: Vec<&EncodingSize> = sizes.iter().filter(|s| s.size == *n).collect();
        draw_size_panel(cell, *n, &encodings, &mine)?;
    }
    draw_size_legend(&legend, &encodings)
}

/// One grid size's panel: a bar per encoding (in the colour of its place in `encodings`),
/// the count over it, a diamond at its variables.
fn draw_size_panel(
    area: &Area<'_>,
    n: usize,
    encodings: &[&str],
    sizes: &[&EncodingSize],
) -> Result<(), CompareError> {
    let largest = sizes
        .iter()
        .flat_map(|s| [s.clauses, s.vars])
        .fold(0.0f64, f64::max);
    // Room for the count over the tallest bar.
    let y = Axis::from_zero(largest * 1.12, true);
    // Room for three bars at least, so that one or two do not fill the panel.
    let slots = encodings.len().max(3) as f64;
    let lo = -0.5 - (slots - encodings.len() as f64) / 2.0;
    let x = Axis {
        lo,
        hi: lo + slots,
        ticks: Vec::new(),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{n}×{n}"), (FONT, 15))
        .margin(10)
        .x_label_area_size(8)
        .y_label_area_size(55)
        .build_cartesian_2d(x.linear_coord(), y.linear_coord())
        .map_err(plot_error)?;
    let count_of = |v: &f64| count_tick(*v);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_label_formatter(&count_of)
        .draw()
        .map_err(plot_error)?;
    let place = |s: &EncodingSize| encodings.iter().position(|&e| e == s.encoding).unwrap_or(0);
    chart
        .draw_series(sizes.iter().map(|s| {
            let e = place(s);
            let x = e as f64;
            Rectangle::new(
                [(x - 0.4, 0.0), (x + 0.4, s.clauses)],
                PALETTE[e % PALETTE.len()].filled(),
            )
        }))
        .map_err(plot_error)?;
    let diamonds: Vec<(f64, f64)> = sizes.iter().map(|s| (place(s) as f64, s.vars)).collect();
    draw_markers(&mut chart, &diamonds, Marker::Diamond, RGBColor(0, 0, 0))?;
    // The counts fit over the bars while the bars are wide enough.
    let bar_pixels = (area.dim_in_pixel().0 as usize).saturating_sub(75) / encodings.len().max(3);
    if bar_pixels >= 40 {
        let above = (FONT, 11)
            .into_text_style(area)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        chart
            .draw_series(sizes.iter().map(|s| {
                Text::new(
                    count_tick(s.clauses),
                    (place(s) as f64, s.clauses + largest * 0.02),
                    above.clone(),
                )
            }))
            .map_err(plot_error)?;
    }
    Ok(())
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
        assert_eq!(tick(0.00002), "0.00002");
        assert_eq!(tick(0.0003), "0.0003");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(count_tick(1_250_000.0), "1.25M");
        assert_eq!(count_tick(900.0), "900");
        assert_eq!(count_tick(12_000.0), "12k");
        assert_eq!(count_tick(3_400_000.0), "3.4M");
        assert_eq!(group_label(&[17, 20], 1.0), "20");
        assert_eq!(group_label(&[17, 20], 0.5), "");
        assert_eq!(group_label(&[17, 20], 2.0), "");
        assert_eq!(group_label(&[17, 20], -1.0), "");
    }

    #[test]
    fn log_axes_fit_their_data_and_label_distinct_values() {
        // Many decades: the powers of ten.
        let axis = Axis::log([0.02, 3.0, 400.0], (1.0, 10.0));
        assert_eq!(axis.ticks, [0.1, 1.0, 10.0, 100.0]);
        assert!(axis.lo >= 0.02 / 10.0 && axis.lo < 0.02 && axis.hi > 400.0);
        // Less than a decade: 1, 2 and 5 times them, then every unit.
        assert_eq!(
            Axis::log([0.07, 0.9], (1.0, 10.0)).ticks,
            [0.05, 0.1, 0.2, 0.5, 1.0]
        );
        let narrow = Axis::log([0.3, 0.4], (1.0, 10.0));
        let labels: Vec<String> = narrow.ticks.iter().map(|t| tick(*t)).collect();
        assert_eq!(labels, ["0.2", "0.3", "0.4", "0.5", "0.6"]);
        // One value, or none.
        let one = Axis::log([5.0], (1.0, 10.0));
        assert!(one.lo < 5.0 && one.hi > 5.0 && !one.ticks.is_empty());
        assert_eq!((Axis::log([], (1.0, 10.0)).lo, 1.0), (1.0, 1.0));
    }

    #[test]
    fn count_axes_start_at_zero_with_whole_steps() {
        assert_eq!(
            Axis::from_zero(5.15, true).ticks,
            [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
        );
        let ticks = Axis::from_zero(206.0, true).ticks;
        assert_eq!((ticks[1], *ticks.last().unwrap()), (50.0, 200.0));
        assert_eq!(Axis::from_zero(2.0, true).ticks, [0.0, 1.0, 2.0]);
        assert_eq!(round_step(0.3, false), 0.5);
        assert_eq!(round_step(140_000.0, true), 200_000.0);
    }

    #[test]
    fn lines_break_where_the_median_is_past_the_limit() {
        use GroupMedian::{Ms, Unanswered};
        let medians = [
            Some(Ms(1.0)),
            Some(Ms(2.0)),
            Some(Unanswered),
            None,
            Some(Ms(3.0)),
        ];
        assert_eq!(
            answered_stretches(&medians),
            [vec![(0.0, 1.0), (1.0, 2.0)], vec![(4.0, 3.0)]]
        );
        assert!(answered_stretches(&[Some(Unanswered)]).is_empty());
        assert_eq!(group_ticks(5), [0.0, 1.0, 2.0, 3.0, 4.0]);
        let crowded = group_ticks(50);
        assert!(crowded.len() <= 24 && crowded[1] == 3.0, "{crowded:?}");
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
        )
        .unwrap();
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
            let shown = plot_label(&c, label, LEGEND_CHARS);
            assert!(texts.contains(&shown), "{shown} missing from {texts:?}");
        }
        // The command's program by its file name, the label cut to the legend.
        assert!(
            texts.contains(&"nonexistent & <solver>/minimal".to_string()),
            "{texts:?}"
        );
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

    #[test]
    fn long_labels_are_shortened_for_plots_and_kept_whole_elsewhere() {
        let c = comparison(
            "cdcl,external:/opt/solvers/bin/kissat -q --conflicts=1000000 --seed=3",
            "extended+reduced",
        );
        let [cdcl, kissat] = [&c.solvers[0], &c.solvers[1]];
        assert_eq!(
            kissat,
            "external:/opt/solvers/bin/kissat -q --conflicts=1000000 --seed=3/extended+reduced"
        );
        // Short labels stay as they are; a command's program loses its folders.
        assert_eq!(plot_label(&c, cdcl, LEGEND_CHARS), *cdcl);
        assert_eq!(
            plot_label(&c, kissat, 80),
            "kissat -q --conflicts=1000000 --seed=3/extended+reduced"
        );
        // Past the room, the backend's part is cut and the encoding kept.
        let short = plot_label(&c, kissat, LEGEND_CHARS);
        assert_eq!(short, "kissat -q --conflic…/extended+reduced");
        assert!(short.chars().count() <= LEGEND_CHARS);
        // A label without rows, or a tiny room, is cut whole.
        assert_eq!(plot_label(&c, "virtual-best", 8), "virtual…");
        assert_eq!(cut("abc", 3), "abc");
        // The full label stays in the rows (and so in the CSV and the tables).
        assert!(c.runs.iter().any(|r| &r.solver == kissat));
    }
}
