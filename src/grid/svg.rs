//! Drawing grids as SVG: printable puzzle sheets for teachers and puzzle authors.
//!
//! A sheet holds one or more [`Panel`]s in rows of [`SheetOptions::columns`]: each panel is
//! a grid with thin cell lines and thick box lines, its givens in bold black, the digits of
//! a filled grid drawn over it (a solution, or a pupil's progress) in blue, and, on request,
//! the pencil marks of the open cells, each candidate at its place in a b×b mini-grid as
//! printed Sudoku books place them. The drawing is plain SVG 1.1 with one inline style
//! sheet (no script, no fonts fetched), so browsers, Inkscape and `rsvg-convert` print it
//! as it is; every size is in user units and the picture scales without loss.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{Cell, Digit, DigitSet, Grid};

/// The side of a cell, in user units (the SVG's pixels at 100 %).
const CELL: f64 = 40.0;
/// The space around the sheet and between panels.
const MARGIN: f64 = 24.0;
/// The height kept above each grid for its caption, when any panel has one.
const CAPTION: f64 = 28.0;
/// The height kept for the sheet's title.
const TITLE: f64 = 44.0;
/// The height of a line of a note below a grid.
const NOTE_LINE: f64 = 20.0;

/// The largest grid drawn with pencil marks: 36×36, whose candidates already sit in cells
/// of a sixth of a cell's side.
pub const MAX_CANDIDATE_SIDE: usize = 36;

crate::names::named_enum! {
    /// What a sheet writes above each grid (`sudosat render --caption`).
    pub enum Caption ("caption") {
        /// `number` when there are several grids, nothing for one.
        Auto = "auto",
        /// Nothing.
        None = "none",
        /// `Puzzle 1`, `Puzzle 2`, … in input order.
        Number = "number",
        /// Where the puzzle starts, as the caller names it (`FILE:LINE`).
        Location = "location",
    }
}

impl Caption {
    /// The caption of grid `index` (0-based) of `count`, which starts at `location`.
    pub fn text(self, index: usize, count: usize, location: &str) -> Option<String> {
        match (self, count) {
            (Caption::None, _) | (Caption::Auto, 1) => None,
            (Caption::Number | Caption::Auto, _) => Some(format!("Puzzle {}", index + 1)),
            (Caption::Location, _) => Some(location.to_string()),
        }
    }
}

/// One grid of a sheet.
#[derive(Clone, Copy, Debug)]
pub struct Panel<'a> {
    /// The puzzle: its digits are the givens, drawn bold.
    pub puzzle: &'a Grid,
    /// A grid of the same size drawn over the puzzle (a solution, or a partly filled grid):
    /// its digits where the puzzle has none are drawn in the filled-in style.
    pub filled: Option<&'a Grid>,
    /// A line above the grid (e.g. `Puzzle 3`), if any.
    pub caption: Option<&'a str>,
    /// The pencil marks to draw, one set per cell in row-major order (a solver's state,
    /// which may hold fewer candidates than the peers leave): drawn in every open cell
    /// even without [`SheetOptions::candidates`].
    pub marks: Option<&'a [DigitSet]>,
    /// A step to show on the grid (see [`Highlight`]).
    pub highlight: Option<&'a Highlight>,
    /// Text below the grid, wrapped to its width (e.g. the step in words).
    pub note: Option<&'a str>,
}

impl<'a> Panel<'a> {
    /// A panel of `puzzle` alone: no filled grid, caption, marks, highlight or note.
    pub fn new(puzzle: &'a Grid) -> Panel<'a> {
        Panel {
            puzzle,
            filled: None,
            caption: None,
            marks: None,
            highlight: None,
            note: None,
        }
    }

    /// Whether the open cells show pencil marks: given ones, or all with `candidates`.
    fn draws_marks(&self, options: &SheetOptions) -> bool {
        options.candidates || self.marks.is_some()
    }
}

/// A solving step drawn on a grid, as books and teachers show one: the units it looks at
/// shaded, its pattern's cells shaded darker with the pattern's digits green in their
/// pencil marks, a placed digit's cell green, and each removed candidate red and struck
/// through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    /// The cells of the units the step looks at.
    pub units: Vec<Cell>,
    /// The cells of the pattern.
    pub cells: Vec<Cell>,
    /// The digits of the pattern.
    pub digits: Vec<Digit>,
    /// A digit placed by the step.
    pub placed: Option<(Cell, Digit)>,
    /// Candidates the step removes.
    pub removed: Vec<(Cell, Digit)>,
}

/// How a sheet is laid out and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetOptions {
    /// Panels per row (at least 1).
    pub columns: usize,
    /// Draw each open cell's candidates: the digits its row, column and box leave it in
    /// the filled grid (or the puzzle).
    pub candidates: bool,
    /// Write the digits of grids up to 35×35 as numbers (`10`, `11`, …) instead of the
    /// letters `A`, `B`, … the text formats use. Grids above 35×35 always use numbers.
    pub numbers: bool,
    /// A heading across the top of the sheet.
    pub title: Option<String>,
}

impl Default for SheetOptions {
    fn default() -> Self {
        SheetOptions {
            columns: 1,
            candidates: false,
            numbers: false,
            title: None,
        }
    }
}

/// Writes `panels` as one SVG sheet.
///
/// # Errors
/// I/O errors of `w`; [`io::ErrorKind::InvalidInput`] when there is no panel, a filled
/// grid's or the marks' size differs from its puzzle's, or pencil marks are asked of a
/// grid above [`MAX_CANDIDATE_SIDE`]. Nothing is written then.
pub fn write_sheet<W: Write + ?Sized>(
    w: &mut W,
    panels: &[Panel<'_>],
    options: &SheetOptions,
) -> io::Result<()> {
    check_panels(panels, options)?;
    let columns = options.columns.clamp(1, panels.len());
    let rows = panels.len().div_ceil(columns);
    let widest = panels.iter().map(|p| p.puzzle.side()).max().unwrap_or(1) as f64 * CELL;
    let caption = if panels.iter().any(|p| p.caption.is_some()) {
        CAPTION
    } else {
        0.0
    };
    let title = if options.title.is_some() { TITLE } else { 0.0 };
    let wrap_width = note_chars(widest);
    let note_lines = panels
        .iter()
        .map(|p| p.note.map_or(0, |t| wrap(t, wrap_width).len()))
        .max()
        .unwrap_or(0);
    let note = if note_lines > 0 {
        8.0 + note_lines as f64 * NOTE_LINE
    } else {
        0.0
    };
    let slot_height = caption + widest + note;
    let width = MARGIN + columns as f64 * (widest + MARGIN);
    let height = MARGIN + title + rows as f64 * (slot_height + MARGIN);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\">",
        w = num(width),
        h = num(height)
    );
    let heading = options.title.as_deref().unwrap_or("Sudoku");
    let _ = writeln!(out, "<title>{}</title>", escape(heading));
    out.push_str(STYLE);
    let _ = writeln!(
        out,
        "<rect class=\"page\" width=\"{}\" height=\"{}\"/>",
        num(width),
        num(height)
    );
    if let Some(text) = &options.title {
        let _ = writeln!(
            out,
            "<text class=\"title\" x=\"{}\" y=\"{}\">{}</text>",
            num(width / 2.0),
            num(MARGIN + TITLE / 2.0 - 6.0),
            escape(text)
        );
    }
    w.write_all(out.as_bytes())?;
    for (i, panel) in panels.iter().enumerate() {
        let x = MARGIN + (i % columns) as f64 * (widest + MARGIN);
        let y = MARGIN + title + (i / columns) as f64 * (slot_height + MARGIN);
        out.clear();
        draw_panel(&mut out, panel, options, (x, y), caption, wrap_width);
        w.write_all(out.as_bytes())?;
    }
    w.write_all(b"</svg>\n")
}

/// Refuses what cannot be drawn: no panel, a filled grid or marks of another size, pencil
/// marks above [`MAX_CANDIDATE_SIDE`].
fn check_panels(panels: &[Panel<'_>], options: &SheetOptions) -> io::Result<()> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
    if panels.is_empty() {
        return Err(invalid("no grid to draw".into()));
    }
    for (i, panel) in panels.iter().enumerate() {
        let n = panel.puzzle.side();
        if let Some(filled) = panel.filled.filter(|f| f.side() != n) {
            let m = filled.side();
            return Err(invalid(format!(
                "grid {}: the filled grid is {m}×{m}, the puzzle {n}×{n}",
                i + 1
            )));
        }
        if panel.marks.is_some_and(|m| m.len() != n * n) {
            return Err(invalid(format!(
                "grid {}: pencil marks for {} cells, the grid has {}",
                i + 1,
                panel.marks.map_or(0, <[DigitSet]>::len),
                n * n
            )));
        }
        if panel.draws_marks(options) && n > MAX_CANDIDATE_SIDE {
            return Err(invalid(format!(
                "grid {}: pencil marks are drawn for grids up to \
                 {MAX_CANDIDATE_SIDE}×{MAX_CANDIDATE_SIDE}, not {n}×{n}",
                i + 1
            )));
        }
    }
    Ok(())
}

/// Writes `sections` as one HTML document for printing: each section (e.g. the puzzles,
/// then their answers) starts a new page, holds `per_page` panels a page in
/// [`SheetOptions::columns`] columns, each panel an inline SVG scaled to its column, with
/// the sheet's title and the section's heading on each of its pages. Browsers print it
/// page by page (CSS `break-after: page`, A4 margins by default); it fetches nothing.
///
/// # Errors
/// As [`write_sheet`], for any panel of any section; nothing is written then.
pub fn write_html<W: Write + ?Sized>(
    w: &mut W,
    sections: &[(Option<&str>, &[Panel<'_>])],
    options: &SheetOptions,
    per_page: usize,
) -> io::Result<()> {
    for (_, panels) in sections {
        check_panels(panels, options)?;
    }
    let title = escape(options.title.as_deref().unwrap_or("Sudoku"));
    let columns = options.columns.max(1);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>\n\
         @page{{size:A4;margin:12mm}}\n\
         body{{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:0}}\n\
         .page{{break-after:page;padding:8mm 0}}\n\
         .page:last-child{{break-after:auto}}\n\
         h1,h2{{text-align:center;margin:0 0 6mm}}\n\
         .grids{{display:grid;grid-template-columns:repeat({columns},1fr);gap:8mm}}\n\
         svg{{width:100%;height:auto;display:block}}\n\
         </style>\n</head>\n<body>\n"
    );
    w.write_all(out.as_bytes())?;
    let single = SheetOptions {
        columns: 1,
        title: None,
        ..options.clone()
    };
    for (heading, panels) in sections {
        for page in panels.chunks(per_page.max(1)) {
            out.clear();
            out.push_str("<section class=\"page\">\n");
            if options.title.is_some() {
                let _ = writeln!(out, "<h1>{title}</h1>");
            }
            if let Some(heading) = heading {
                let _ = writeln!(out, "<h2>{}</h2>", escape(heading));
            }
            out.push_str("<div class=\"grids\">\n");
            w.write_all(out.as_bytes())?;
            for panel in page {
                w.write_all(b"<figure style=\"margin:0\">\n")?;
                write_sheet(w, std::slice::from_ref(panel), &single)?;
                w.write_all(b"</figure>\n")?;
            }
            w.write_all(b"</div>\n</section>\n")?;
        }
    }
    w.write_all(b"</body>\n</html>\n")
}

/// The style sheet: line weights, the kinds of digits and marks, the shades of a step.
const STYLE: &str = "<style>\n\
.page{fill:#fff}\n\
.cells{fill:#fff;stroke:#000;stroke-width:3}\n\
.thin{stroke:#999;stroke-width:1;fill:none}\n\
.thick{stroke:#000;stroke-width:3;fill:none}\n\
text{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;text-anchor:middle;dominant-baseline:central}\n\
.given{font-weight:bold;fill:#000}\n\
.filled{fill:#1f5fbf}\n\
.mark{fill:#666}\n\
.key{fill:#1a7f37;font-weight:bold}\n\
.removed{fill:#c62828}\n\
.strike{stroke:#c62828;stroke-width:1.2}\n\
.unit{fill:#fff5cc}\n\
.pattern{fill:#cfe3ff}\n\
.place{fill:#c8f0c8}\n\
.caption{font-size:16px;fill:#000}\n\
.note{font-size:14px;fill:#000;text-anchor:start}\n\
.title{font-size:24px;font-weight:bold;fill:#000}\n\
</style>\n";

/// Appends one panel with its slot's top left corner at `at`: the caption, the grid
/// `caption` lower, the note below the grid wrapped at `wrap_width` characters.
fn draw_panel(
    out: &mut String,
    panel: &Panel<'_>,
    options: &SheetOptions,
    at: (f64, f64),
    caption: f64,
    wrap_width: usize,
) {
    let puzzle = panel.puzzle;
    let (n, b) = (puzzle.side(), puzzle.box_size());
    let side = n as f64 * CELL;
    let _ = writeln!(
        out,
        "<g transform=\"translate({},{})\">",
        num(at.0),
        num(at.1)
    );
    if let Some(text) = panel.caption {
        let _ = writeln!(
            out,
            "<text class=\"caption\" x=\"{}\" y=\"{}\">{}</text>",
            num(side / 2.0),
            num(caption / 2.0 - 2.0),
            escape(text)
        );
    }
    if let Some(text) = panel.note {
        for (k, line) in wrap(text, wrap_width).iter().enumerate() {
            let _ = writeln!(
                out,
                "<text class=\"note\" x=\"0\" y=\"{}\">{}</text>",
                num(caption + side + 8.0 + (k as f64 + 0.5) * NOTE_LINE),
                escape(line)
            );
        }
    }
    let _ = writeln!(
        out,
        "<g transform=\"translate(0,{})\" font-size=\"{}\">",
        num(caption),
        num(font_size(n, options.numbers))
    );
    let _ = writeln!(
        out,
        "<rect class=\"cells\" width=\"{s}\" height=\"{s}\"/>",
        s = num(side)
    );
    if let Some(highlight) = panel.highlight {
        shade_step(out, highlight, n);
        // The shades of the outer cells covered the inner half of the frame's stroke.
        let _ = writeln!(
            out,
            "<rect class=\"thick\" width=\"{s}\" height=\"{s}\"/>",
            s = num(side)
        );
    }
    // Cell lines first, box lines over them; the frame's stroke is the rect's.
    for (class, inner) in [("thin", true), ("thick", false)] {
        let mut path = String::new();
        for k in 1..n {
            if (k % b == 0) != inner {
                let at = num(k as f64 * CELL);
                let _ = write!(path, "M{at} 0V{s}M0 {at}H{s}", s = num(side));
            }
        }
        if !path.is_empty() {
            let _ = writeln!(out, "<path class=\"{class}\" d=\"{path}\"/>");
        }
    }
    let shown = panel.filled.unwrap_or(puzzle);
    let draws_marks = panel.draws_marks(options);
    // The mini-grid of pencil marks keeps off the cell's lines.
    let inset = CELL * 0.08;
    let mark_size = (CELL - 2.0 * inset) / b as f64;
    let mark_font = font_size(n, options.numbers) * 1.2 / b as f64;
    for i in 0..n * n {
        let cell = Cell(i as u32);
        let (left, top) = ((i % n) as f64 * CELL, (i / n) as f64 * CELL);
        let (class, digit) = match (puzzle.get(cell), shown.get(cell)) {
            (Some(given), _) => ("given", given),
            (None, Some(filled)) => ("filled", filled),
            (None, None) if draws_marks => {
                let marks = panel.marks.map_or_else(|| shown.candidates(cell), |m| m[i]);
                for d in marks.iter() {
                    let k = d.get() - 1;
                    let (x, y) = (
                        left + inset + ((k % b) as f64 + 0.5) * mark_size,
                        top + inset + ((k / b) as f64 + 0.5) * mark_size,
                    );
                    let class = mark_class(panel.highlight, cell, d);
                    let _ = writeln!(
                        out,
                        "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
                        num(x),
                        num(y),
                        num(mark_font),
                        label(d, n, options.numbers)
                    );
                    if class == "removed" {
                        let half = mark_size * 0.4;
                        let _ = writeln!(
                            out,
                            "<path class=\"strike\" d=\"M{} {}L{} {}\"/>",
                            num(x - half),
                            num(y + half),
                            num(x + half),
                            num(y - half)
                        );
                    }
                }
                continue;
            }
            (None, None) => continue,
        };
        let _ = writeln!(
            out,
            "<text class=\"{class}\" x=\"{}\" y=\"{}\">{}</text>",
            num(left + CELL / 2.0),
            num(top + CELL / 2.0),
            label(digit, n, options.numbers)
        );
    }
    out.push_str("</g>\n</g>\n");
}

/// The shades of a step under the grid's lines: its units, then its pattern's cells, then
/// the cell it fills.
fn shade_step(out: &mut String, highlight: &Highlight, n: usize) {
    let placed = highlight.placed.map(|(cell, _)| cell);
    let layers = [
        ("unit", &highlight.units[..]),
        ("pattern", &highlight.cells[..]),
        ("place", placed.as_slice()),
    ];
    for (class, cells) in layers {
        for cell in cells {
            let i = cell.index();
            let _ = writeln!(
                out,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{c}\" height=\"{c}\"/>",
                num((i % n) as f64 * CELL),
                num((i / n) as f64 * CELL),
                c = num(CELL)
            );
        }
    }
}

/// How a pencil mark is drawn in a step: removed, part of the pattern (or the placed
/// digit), or plain.
fn mark_class(highlight: Option<&Highlight>, cell: Cell, digit: Digit) -> &'static str {
    let Some(h) = highlight else {
        return "mark";
    };
    if h.removed.contains(&(cell, digit)) {
        "removed"
    } else if h.placed == Some((cell, digit))
        || (h.cells.contains(&cell) && h.digits.contains(&digit))
    {
        "key"
    } else {
        "mark"
    }
}

/// How many characters of a note fit a grid `width` units wide (a 14 px sans-serif
/// character is about 7.5 units wide on average).
fn note_chars(width: f64) -> usize {
    ((width / 7.5) as usize).max(20)
}

/// `text` broken into lines of at most `width` characters at spaces (a longer word gets
/// a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The text of a digit: its symbol up to 35×35 (unless numbers are asked for), else its
/// number.
fn label(d: Digit, n: usize, numbers: bool) -> String {
    match d.symbol() {
        Some(symbol) if n <= 35 && !numbers => symbol.to_string(),
        _ => d.to_string(),
    }
}

/// The font size of a grid's digits: 60 % of a cell for one character, smaller for the
/// widest label of several.
fn font_size(n: usize, numbers: bool) -> f64 {
    let widest = if n <= 35 && !numbers {
        1
    } else {
        n.to_string().len()
    };
    (CELL * 0.6).min(CELL / widest as f64)
}

/// A coordinate with at most two decimals and no trailing zeros, so equal sheets are equal
/// bytes on every platform.
fn num(v: f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `text` with the five XML special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 at all.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(line: &str) -> Grid {
        Grid::from_values(
            line.chars()
                .map(|c| c.to_digit(10).unwrap_or(0) as u16)
                .collect(),
        )
        .unwrap()
    }

    fn sheet(panels: &[Panel<'_>], options: &SheetOptions) -> String {
        let mut out = Vec::new();
        write_sheet(&mut out, panels, options).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The texts of one class, in the order drawn (row-major).
    fn texts(svg: &str, class: &str) -> Vec<String> {
        let open = format!("<text class=\"{class}\"");
        svg.lines()
            .filter(|l| l.starts_with(&open))
            .map(|l| {
                let start = l.find('>').unwrap() + 1;
                l[start..l.rfind("</text>").unwrap()].to_string()
            })
            .collect()
    }

    #[test]
    fn givens_and_filled_digits_take_their_classes_in_cell_order() {
        let puzzle = grid("1..4..1....2.3..");
        let solution = grid("1234341221434321");
        let panel = Panel {
            filled: Some(&solution),
            ..Panel::new(&puzzle)
        };
        let svg = sheet(&[panel], &SheetOptions::default());
        assert_eq!(texts(&svg, "given"), ["1", "4", "1", "2", "3"]);
        let filled: String = texts(&svg, "filled").concat();
        assert_eq!(filled, "23342214421");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"208\""));
        assert!(svg.ends_with("</svg>\n"));
        // 4×4: one thin and one thick line each way inside the frame
        assert!(svg.contains("<path class=\"thick\" d=\"M80 0V160M0 80H160\"/>"));
        assert!(svg.contains("<path class=\"thin\" d=\"M40 0V160M0 40H160M120 0V160M0 120H160\"/>"));
    }

    #[test]
    fn candidates_sit_in_their_mini_grid_place() {
        let puzzle = grid("1..4..1....2.3..");
        let panel = Panel::new(&puzzle);
        let options = SheetOptions {
            candidates: true,
            ..SheetOptions::default()
        };
        let svg = sheet(&[panel], &options);
        let marks = texts(&svg, "mark");
        let expected: usize = (0..16)
            .filter(|&i| puzzle.get(Cell(i)).is_none())
            .map(|i| puzzle.candidates(Cell(i)).len())
            .sum();
        assert_eq!(marks.len(), expected);
        // r1c3 keeps 2 and 3 (1 and 4 are in its row and box): 2 top right, 3 bottom
        // left, in a mini-grid of 2×2 places of 16.8 inset by 3.2
        assert!(svg.contains("x=\"108.4\" y=\"11.6\" font-size=\"14.4\">2</text>"));
        assert!(svg.contains("x=\"91.6\" y=\"28.4\" font-size=\"14.4\">3</text>"));
    }

    #[test]
    fn panels_flow_into_rows_with_captions_and_escaped_titles() {
        let a = grid("1..4..1....2.3..");
        let panels: Vec<Panel<'_>> = ["one", "two", "three"]
            .iter()
            .map(|c| Panel {
                caption: Some(c),
                ..Panel::new(&a)
            })
            .collect();
        let options = SheetOptions {
            columns: 2,
            title: Some("Week 3 <easy> & \"fun\"".into()),
            ..SheetOptions::default()
        };
        let svg = sheet(&panels, &options);
        assert!(svg.contains("<title>Week 3 &lt;easy&gt; &amp; &quot;fun&quot;</title>"));
        // two columns of 160 + margins; two rows of caption + grid under the title
        assert!(svg.contains("width=\"392\" height=\"492\""));
        assert!(svg.contains("<g transform=\"translate(208,68)\">"));
        assert!(svg.contains("<g transform=\"translate(24,280)\">"));
        assert_eq!(svg.matches("class=\"caption\"").count(), 3);
    }

    #[test]
    fn large_grids_write_numbers_and_letters_on_request() {
        let mut big = Grid::empty(6).unwrap();
        big.set(Cell(0), Some(Digit(36)));
        let svg = sheet(&[Panel::new(&big)], &SheetOptions::default());
        assert_eq!(texts(&svg, "given"), ["36"]);
        let mut hex = Grid::empty(4).unwrap();
        hex.set(Cell(0), Some(Digit(16)));
        let one = |numbers| {
            let options = SheetOptions {
                numbers,
                ..SheetOptions::default()
            };
            let panel = Panel::new(&hex);
            texts(&sheet(&[panel], &options), "given")
        };
        assert_eq!(one(false), ["G"]);
        assert_eq!(one(true), ["16"]);
    }

    #[test]
    fn refusals_write_nothing() {
        let small = grid("1..4..1....2.3..");
        let nine = Grid::empty(3).unwrap();
        let big = Grid::empty(7).unwrap();
        let cases: [(Vec<Panel<'_>>, bool); 3] = [
            (vec![], false),
            (
                vec![Panel {
                    filled: Some(&nine),
                    ..Panel::new(&small)
                }],
                false,
            ),
            (vec![Panel::new(&big)], true),
        ];
        for (panels, candidates) in cases {
            let options = SheetOptions {
                candidates,
                ..SheetOptions::default()
            };
            let mut out = Vec::new();
            let err = write_sheet(&mut out, &panels, &options).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
            assert!(out.is_empty());
        }
    }

    #[test]
    fn a_step_shades_its_cells_and_classes_its_marks() {
        let puzzle = grid("1..4..1....2.3..");
        let mut marks = vec![DigitSet::EMPTY; 16];
        marks[1] = [2, 3].iter().map(|&d| Digit(d)).collect();
        marks[2] = [2, 3].iter().map(|&d| Digit(d)).collect();
        let highlight = Highlight {
            units: vec![Cell(0), Cell(1), Cell(2), Cell(3)],
            cells: vec![Cell(1)],
            digits: vec![Digit(2)],
            placed: None,
            removed: vec![(Cell(2), Digit(2))],
        };
        let note = "a note long enough to wrap onto a second line of this narrow grid";
        let panel = Panel {
            marks: Some(&marks),
            highlight: Some(&highlight),
            note: Some(note),
            ..Panel::new(&puzzle)
        };
        let svg = sheet(&[panel], &SheetOptions::default());
        // only the given marks are drawn, not the candidates the peers leave
        assert_eq!(texts(&svg, "mark"), ["3", "3"]);
        assert_eq!(texts(&svg, "key"), ["2"]);
        assert_eq!(texts(&svg, "removed"), ["2"]);
        assert_eq!(svg.matches("<path class=\"strike\"").count(), 1);
        assert_eq!(svg.matches("<rect class=\"unit\"").count(), 4);
        assert_eq!(svg.matches("<rect class=\"pattern\"").count(), 1);
        let lines = texts(&svg, "note");
        assert!(lines.len() >= 2 && lines.iter().all(|l| l.chars().count() <= 21));
        assert_eq!(lines.join(" "), note);
        // marks of the wrong length are refused
        let short = [DigitSet::EMPTY; 3];
        let bad = Panel {
            marks: Some(&short),
            ..Panel::new(&puzzle)
        };
        let mut out = Vec::new();
        assert!(write_sheet(&mut out, &[bad], &SheetOptions::default()).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn html_books_break_sections_into_pages() {
        let puzzle = grid("1..4..1....2.3..");
        let solution = grid("1234341221434321");
        let puzzles = vec![Panel::new(&puzzle); 5];
        let answers = vec![
            Panel {
                filled: Some(&solution),
                ..Panel::new(&puzzle)
            };
            5
        ];
        let options = SheetOptions {
            columns: 2,
            title: Some("Book & key".into()),
            ..SheetOptions::default()
        };
        let mut out = Vec::new();
        let sections = [(None, &puzzles[..]), (Some("Answers"), &answers[..])];
        write_html(&mut out, &sections, &options, 4).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.ends_with("</html>\n"));
        // 5 puzzles on pages of 4, then 5 answers: 2 + 2 pages, the title on each
        assert_eq!(html.matches("<section class=\"page\">").count(), 4);
        assert_eq!(html.matches("<h1>Book &amp; key</h1>").count(), 4);
        assert_eq!(html.matches("<h2>Answers</h2>").count(), 2);
        assert_eq!(html.matches("<svg ").count(), 10);
        assert_eq!(html.matches("class=\"filled\"").count(), 5 * 11);
        assert!(html.contains("grid-template-columns:repeat(2,1fr)"));
        // a refusal in the last section writes nothing
        let nine = Grid::empty(3).unwrap();
        let bad = [Panel {
            filled: Some(&nine),
            ..Panel::new(&puzzle)
        }];
        let mut out = Vec::new();
        let sections = [(None, &puzzles[..]), (None, &bad[..])];
        assert!(write_html(&mut out, &sections, &options, 4).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn captions_follow_their_kind() {
        assert_eq!(Caption::Auto.text(0, 1, "p.txt:1"), None);
        assert_eq!(
            Caption::Auto.text(2, 3, "p.txt:3").as_deref(),
            Some("Puzzle 3")
        );
        assert_eq!(Caption::None.text(2, 3, "p.txt:3"), None);
        assert_eq!(
            Caption::Location.text(0, 1, "p.txt:7").as_deref(),
            Some("p.txt:7")
        );
    }

    #[test]
    fn numbers_print_without_trailing_zeros() {
        assert_eq!(num(40.0), "40");
        assert_eq!(num(13.333_333), "13.33");
        assert_eq!(num(6.5), "6.5");
    }
}
