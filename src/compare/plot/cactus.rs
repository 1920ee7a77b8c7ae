//! The cactus plot: one line per entry (and the virtual best solver), its answered
//! puzzles sorted by time, with the time limit drawn when a run reached it.

use plotters::prelude::*;

use super::axes::{draw_guide, limit_reached, plot_error, svg_of, tick, Area, Axis, FONT};
use super::style::{
    draw_entry, draw_legend, entry_styles, legend_height, plot_label, EntryStyle, LEGEND_CHARS,
    LEGEND_WIDTH, VBS_STYLE, WIDTH,
};
use crate::compare::summary::{seconds, Analysis, PuzzleTimes, VIRTUAL_BEST};
use crate::compare::{CompareError, Comparison};

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

/// The sorted solved times (ms) of each entry, then of the virtual best solver.
pub(super) fn cactus_lines(
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

pub(super) fn sorted_ms(times: &PuzzleTimes) -> Vec<f64> {
    let mut ms: Vec<f64> = times.values().map(|us| us / 1e3).collect();
    ms.sort_by(f64::total_cmp);
    ms
}

pub(super) fn draw_cactus(
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
