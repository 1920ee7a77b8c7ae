//! The SVG plot of a comparison (plotters, SVG backend): on top, the median solve time of
//! each solver entry by clue count or by size, on a log scale, with a legend naming every
//! entry; below, a bar chart of the mean variables and clauses of each encoding.
//!
//! Groups sit at evenly spaced positions on the x axis, labelled with their clue count or
//! size. A solver with no solved puzzle in a group has no point there (an entry that never
//! solved still has its legend line).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::summary::{encoding_sizes, summarize, EncodingSize};
use super::{CompareError, Comparison, GroupBy};

const WIDTH: u32 = 1100;
const LEGEND_WIDTH: u32 = 300;
const LEGEND_ROW: u32 = 20;
const BARS_HEIGHT: u32 = 380;
const FONT: &str = "sans-serif";

/// Draws the plot of `comparison` grouped `by` clues or size; returns the SVG text.
///
/// # Errors
/// [`CompareError::Plot`] when plotters fails to draw.
pub fn render_svg(comparison: &Comparison, by: GroupBy) -> Result<String, CompareError> {
    let mut svg = String::new();
    let times_height = (120 + LEGEND_ROW * comparison.solvers.len() as u32).max(520);
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, times_height + BARS_HEIGHT))
            .into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (times, bars) = root.split_vertically(times_height);
        let (chart, legend) = times.split_horizontally(WIDTH - LEGEND_WIDTH);
        draw_times(&chart, &legend, comparison, by)?;
        draw_sizes(&bars, comparison)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
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

fn draw_times(
    area: &Area<'_>,
    legend: &Area<'_>,
    comparison: &Comparison,
    by: GroupBy,
) -> Result<(), CompareError> {
    let grouped = summarize(&comparison.runs, &comparison.solvers, Some(by));
    let mut groups: Vec<usize> = grouped.iter().filter_map(|s| s.group).collect();
    groups.sort_unstable();
    groups.dedup();
    let medians_ms: Vec<f64> = grouped
        .iter()
        .filter_map(|s| s.median_us)
        .map(|us| us / 1e3)
        .collect();
    let lo = medians_ms.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = medians_ms.iter().copied().fold(0.0, f64::max);
    let (lo, hi) = if medians_ms.is_empty() {
        (0.001, 1.0)
    } else {
        (lo / 2.0, hi * 2.0)
    };
    let x_max = groups.len().max(1) as f64 - 0.5;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("Median solve time by {} (log scale)", by.name()),
            (FONT, 22),
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

    legend
        .draw_text("solvers", &(FONT, 16).into_text_style(legend), (10, 40))
        .map_err(plot_error)?;
    for (i, solver) in comparison.solvers.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, f64)> = grouped
            .iter()
            .filter(|s| &s.solver == solver)
            .filter_map(|s| {
                let x = groups.iter().position(|&g| Some(g) == s.group)?;
                Some((x as f64, s.median_us? / 1e3))
            })
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(plot_error)?;
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(plot_error)?;
        let y = 70 + (LEGEND_ROW as i32) * i as i32;
        legend
            .draw(&PathElement::new(
                vec![(10, y), (40, y)],
                color.stroke_width(2),
            ))
            .map_err(plot_error)?;
        legend
            .draw_text(
                solver,
                &(FONT, 14)
                    .into_text_style(legend)
                    .pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Left,
                        plotters::style::text_anchor::VPos::Center,
                    )),
                (48, y),
            )
            .map_err(plot_error)?;
    }
    Ok(())
}

/// A bar series: label, colour, the value of an encoding, x offset from the group centre.
type BarSeries = (&'static str, RGBAColor, fn(&EncodingSize) -> f64, f64);

fn draw_sizes(area: &Area<'_>, comparison: &Comparison) -> Result<(), CompareError> {
    let sizes = encoding_sizes(&comparison.runs);
    if sizes.is_empty() {
        area.draw_text(
            "Encoding sizes: no SAT entry in this comparison",
            &(FONT, 18).into_text_style(area),
            (20, 40),
        )
        .map_err(plot_error)?;
        return Ok(());
    }
    let top = sizes
        .iter()
        .map(|s| s.clauses.max(s.vars))
        .fold(1.0, f64::max)
        * 1.15;
    let names: Vec<String> = sizes.iter().map(|s| s.encoding.clone()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption("Encoding sizes (mean per puzzle)", (FONT, 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(75)
        .build_cartesian_2d(-0.5f64..sizes.len() as f64 - 0.5, 0.0..top)
        .map_err(plot_error)?;
    let label_of = |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 {
            String::new()
        } else {
            names.get(i as usize).cloned().unwrap_or_default()
        }
    };
    let count_of = |y: &f64| format!("{y:.0}");
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(sizes.len() * 2 + 1)
        .x_label_formatter(&label_of)
        .y_label_formatter(&count_of)
        .y_desc("count")
        .draw()
        .map_err(plot_error)?;
    let series: [BarSeries; 2] = [
        ("variables", BLUE.to_rgba(), |s| s.vars, -0.35),
        ("clauses", RED.to_rgba(), |s| s.clauses, 0.0),
    ];
    for (label, color, value, offset) in series {
        chart
            .draw_series(sizes.iter().enumerate().map(|(i, s)| {
                let x = i as f64 + offset;
                Rectangle::new([(x, 0.0), (x + 0.35, value(s))], color.filled())
            }))
            .map_err(plot_error)?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], color.filled()));
        chart
            .draw_series(sizes.iter().enumerate().map(|(i, s)| {
                Text::new(
                    format!("{:.0}", value(s)),
                    (i as f64 + offset, value(s) + top * 0.05),
                    (FONT, 12),
                )
            }))
            .map_err(plot_error)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(plot_error)?;
    Ok(())
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

    fn comparison(solvers: &str) -> Comparison {
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
            &crate::compare::parse_encodings("minimal,extended").unwrap(),
        );
        let config = crate::compare::CompareConfig::new(entries);
        crate::compare::run(&puzzles, &config, &AtomicBool::new(false), &|_| {}).unwrap()
    }

    #[test]
    fn legend_names_every_entry_and_bars_every_encoding() {
        let c = comparison("dpll,dlx,external:/nonexistent & <solver>");
        let svg = render_svg(&c, GroupBy::Clues).unwrap();
        let texts = texts(&svg);
        for label in &c.solvers {
            assert!(texts.contains(label), "{label} missing from {texts:?}");
        }
        for label in ["minimal", "extended", "clauses", "variables"] {
            assert!(texts.iter().any(|t| t == label), "{label} missing");
        }
    }

    #[test]
    fn without_sat_entries_the_bar_chart_says_so() {
        let svg = render_svg(&comparison("dlx"), GroupBy::Size).unwrap();
        let texts = texts(&svg);
        assert!(
            texts.iter().any(|t| t.contains("no SAT entry")),
            "{texts:?}"
        );
        assert!(texts.iter().any(|t| t == "dlx"));
    }
}
