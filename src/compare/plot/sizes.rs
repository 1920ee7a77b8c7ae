//! The size chart: the mean clauses and variables of each encoding, a panel per grid size.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{count_tick, plot_error, svg_of, Area, Axis, FONT};
use super::style::{
    draw_markers, index_of, Marker, LEGEND_ROW, LEGEND_WIDTH, PALETTE, SIZES_COLUMNS, SIZES_ROW,
    SIZES_TITLE, WIDTH,
};
use crate::compare::summary::{Analysis, EncodingSize};
use crate::compare::CompareError;

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
pub(super) fn sizes_height(analysis: &Analysis) -> u32 {
    let rows = grid_sizes(analysis).len().div_ceil(SIZES_COLUMNS).max(1);
    SIZES_TITLE + SIZES_ROW * rows as u32
}

/// The grid sizes of the encodings measured, in order of first appearance.
pub(super) fn grid_sizes(analysis: &Analysis) -> Vec<usize> {
    let mut sizes = Vec::new();
    for s in &analysis.encoding_sizes {
        index_of(&mut sizes, s.size);
    }
    sizes
}

/// Draws the mean clauses (bars) and variables (black diamonds) of each encoding, a panel
/// per grid size, each on a linear axis from zero: sizes differ by orders of magnitude, and
/// a bar's length is only read right from zero.
pub(super) fn draw_sizes(area: &Area<'_>, analysis: &Analysis) -> Result<(), CompareError> {
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
pub(super) fn draw_size_panel(
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
pub(super) fn draw_size_legend(area: &Area<'_>, encodings: &[&str]) -> Result<(), CompareError> {
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
