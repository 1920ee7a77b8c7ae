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
//!
//! The files: `style.rs` (entry styles, labels, legends) and `axes.rs` (scales, ticks,
//! canvas, guides) are shared by the charts `cactus.rs`, `scatter.rs`, `times.rs` and
//! `sizes.rs`.

mod axes;
mod cactus;
mod scatter;
mod sizes;
mod style;
mod times;

pub use cactus::cactus_svg;
pub use scatter::{default_pairs, scatter_svg};
pub use sizes::sizes_svg;
pub use style::{entry_styles, plot_label, EntryStyle, Marker, LEGEND_CHARS};
pub use times::times_svg;

use self::axes::svg_of;
use self::cactus::draw_cactus;
use self::sizes::{draw_sizes, sizes_height};
use self::style::{legend_height, WIDTH};
use self::times::draw_times;
use super::summary::Analysis;
use super::{CompareError, Comparison, GroupBy};

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

#[cfg(test)]
mod tests {
    use super::axes::{count_tick, group_label, round_step, tick, Axis};
    use super::scatter::scatter_points;
    use super::style::cut;
    use super::times::{answered_stretches, group_ticks, GroupMedian};
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
