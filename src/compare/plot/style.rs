//! How entries look on every plot: the canvas's sizes, the palette, each entry's
//! [`EntryStyle`] (colour by backend, marker and dash by encoding), the labels cut to fit,
//! and the legend that names them.

use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{plot_error, Area, Chart, FONT};
use crate::compare::{CompareError, Comparison};

pub(super) const WIDTH: u32 = 1100;
pub(super) const LEGEND_WIDTH: u32 = 360;
pub(super) const LEGEND_ROW: u32 = 20;
/// The most characters of a legend's line: what fits in the legend beside its sample line
/// (`LEGEND_WIDTH` less 58 pixels) at the legend's 13-pixel font, counting 0.62 em a
/// character, a little more than a sans-serif font's mean width.
pub const LEGEND_CHARS: usize = 37;
/// The most characters of an entry's label in a scatter plot's caption and axis titles.
pub(super) const SCATTER_LABEL_CHARS: usize = 28;
/// The most characters of the note under a scatter plot (its 12-pixel font from x = 90).
pub(super) const NOTE_CHARS: usize = 72;
pub(super) const SIZES_TITLE: u32 = 40;
pub(super) const SIZES_ROW: u32 = 380;
/// Panels per row of the size chart.
pub(super) const SIZES_COLUMNS: usize = 4;
pub(super) const SCATTER_SIDE: u32 = 540;

/// Ten colours that stay apart on white (the `tab10` palette).
pub(super) const PALETTE: [RGBColor; 10] = [
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
pub(super) const VBS_STYLE: EntryStyle = EntryStyle {
    color: RGBColor(0, 0, 0),
    marker: Marker::Diamond,
    dashed: true,
};

pub(super) fn index_of<T: PartialEq>(list: &mut Vec<T>, value: T) -> usize {
    match list.iter().position(|v| *v == value) {
        Some(i) => i,
        None => {
            list.push(value);
            list.len() - 1
        }
    }
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
pub(super) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

/// Draws a legend in its own area: a sample line with its marker, then the label.
pub(super) fn draw_legend(
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

pub(super) fn legend_height(entries: usize) -> u32 {
    (120 + LEGEND_ROW * entries as u32).max(520)
}

/// Draws an entry's line (solid or dashed) and a marker at every `every`-th point.
pub(super) fn draw_entry<X, Y>(
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
pub(super) fn draw_markers<X, Y>(
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
