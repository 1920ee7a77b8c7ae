//! The time plot: each entry's median time by clue count or by size, the line broken
//! where the median is past the limit.

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{draw_guide, group_label, plot_error, svg_of, tick, Area, Axis, FONT};
use super::style::{
    draw_entry, draw_legend, entry_styles, legend_height, plot_label, EntryStyle, LEGEND_CHARS,
    LEGEND_ROW, LEGEND_WIDTH, WIDTH,
};
use crate::compare::summary::{seconds, Analysis};
use crate::compare::{CompareError, Comparison, GroupBy};

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

/// An entry's median time over the puzzles of one group, a puzzle it did not answer
/// counting as slower than any it did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum GroupMedian {
    /// The median, ms.
    Ms(f64),
    /// Half the group or more unanswered: the median is past the limit.
    Unanswered,
}

/// The groups by `by` (sorted) and each entry's median in each (`None` where it has no
/// run in the group).
pub(super) fn group_medians(
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
                    let median = crate::compare::summary::median(&mut ms)?;
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
pub(super) fn answered_stretches(medians: &[Option<GroupMedian>]) -> Vec<Vec<(f64, f64)>> {
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
pub(super) fn group_ticks(n: usize) -> Vec<f64> {
    let every = n.div_ceil(24).max(1);
    (0..n).step_by(every).map(|i| i as f64).collect()
}

pub(super) fn draw_times(
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
