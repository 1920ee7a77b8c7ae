//! The scatter plot: two entries puzzle by puzzle on log–log axes, the default pairs, and
//! the puzzles one did not solve on the border.

use std::collections::BTreeMap;

use plotters::prelude::*;

use super::axes::{draw_guide, plot_error, svg_of, tick, Axis, FONT};
use super::style::{
    draw_markers, entry_styles, plot_label, Marker, NOTE_CHARS, PALETTE, SCATTER_LABEL_CHARS,
    SCATTER_SIDE, VBS_STYLE,
};
use crate::compare::summary::{seconds, Analysis};
use crate::compare::{CompareError, Comparison};

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
pub(super) struct ScatterPoints {
    /// Puzzles both solved.
    pub(super) solved: Vec<(f64, f64)>,
    /// Puzzles one or both did not solve (on the border).
    pub(super) unsolved: Vec<(f64, f64)>,
    /// The border: the time limit, or twice the largest time.
    pub(super) border_ms: f64,
    /// Puzzles `a` solved faster (or `b` did not solve).
    pub(super) a_faster: usize,
    /// Puzzles `b` solved faster (or `a` did not solve).
    pub(super) b_faster: usize,
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

pub(super) fn scatter_points(
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
