//! The axes every chart shares: log and count scales fitted to the data, their ticks and
//! labels, the SVG canvas, the lines and markers drawn on a chart, and the grey guides
//! (the time limit, the diagonal).

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::compare::summary::Analysis;
use crate::compare::{CompareError, Comparison, Outcome};

/// The font of every text on the plots.
pub(super) const FONT: &str = "sans-serif";

pub(super) fn plot_error(e: impl std::fmt::Display) -> CompareError {
    CompareError::Plot(e.to_string())
}

/// A tick label for a time axis, to three significant digits: `0.01`, `0.5`, `2.5`, `20`.
pub(super) fn tick(value: f64) -> String {
    if value >= 10.0 || value <= 0.0 {
        return format!("{value:.0}");
    }
    let decimals = (2 - value.log10().floor() as i32).max(0) as usize;
    let text = format!("{value:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A tick label for a count: `900`, `12k`, `3.4M`.
pub(super) fn count_tick(value: f64) -> String {
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
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) ticks: Vec<f64>,
}

impl Axis {
    /// A log axis over `values` (the positive, finite ones): from a half-step below the
    /// smallest to a half-step above the largest, never a decade away from the data;
    /// `fallback` when there are none.
    pub(super) fn log(values: impl IntoIterator<Item = f64>, fallback: (f64, f64)) -> Axis {
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
    pub(super) fn from_zero(hi: f64, whole: bool) -> Axis {
        let hi = if hi > 0.0 && hi.is_finite() { hi } else { 1.0 };
        let step = round_step(hi / 7.0, whole);
        let ticks = (0..)
            .map(|i| i as f64 * step)
            .take_while(|t| *t <= hi)
            .collect();
        Axis { lo: 0.0, hi, ticks }
    }

    pub(super) fn log_coord(&self) -> Ticked<LogCoord<f64>> {
        Ticked {
            inner: (self.lo..self.hi).log_scale().into(),
            ticks: self.ticks.clone(),
        }
    }

    pub(super) fn linear_coord(&self) -> Ticked<RangedCoordf64> {
        Ticked {
            inner: (self.lo..self.hi).into(),
            ticks: self.ticks.clone(),
        }
    }
}

/// A plotters axis labelled at the values of an [`Axis`], where plotters' own choice
/// rounds neighbouring labels to the same text on short ranges.
pub(super) struct Ticked<R> {
    pub(super) inner: R,
    pub(super) ticks: Vec<f64>,
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
pub(super) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
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
pub(super) fn round_step(raw: f64, whole: bool) -> f64 {
    let raw = if whole { raw.max(1.0) } else { raw };
    let power = 10f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|step| *step >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The label of the group at x position `x`, if `x` is one.
pub(super) fn group_label(groups: &[usize], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    groups
        .get(i as usize)
        .map_or_else(String::new, |g| g.to_string())
}

pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
pub(super) type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

pub(super) fn svg_of(
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

/// The time limit (s) when some run reached it: it is then part of what a plot shows.
pub(super) fn limit_reached(comparison: &Comparison, analysis: &Analysis) -> Option<f64> {
    let reached = comparison
        .runs
        .iter()
        .any(|r| matches!(r.outcome, Outcome::Timeout));
    analysis.par2_limit_s.filter(|_| reached)
}

/// A grey dashed line from `from` to `to`, labelled `label` at its start.
pub(super) fn draw_guide<X, Y>(
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
