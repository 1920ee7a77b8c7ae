//! Writing grids in every supported format, and the format names used by `--from`/`--to`.
//!
//! Symbols: grids up to 25×25 use one symbol per cell (`1`–`9`, then `A`… for 10…) in the
//! `line`, `block` and `pretty` formats; larger grids use decimal integers there (`block`,
//! `pretty`) or fall back to the `grid` format (`line`). Every written format reads back
//! (see [`super::parse`]); `pretty` reads as `block`.

use std::fmt;
use std::io::{self, Write};

use super::formats::Format;
use super::{Cell, Digit, Grid};

/// Writes one grid in a format (for `csv2`, without the header line; see [`write_puzzles`]
/// for whole files). A `line` grid larger than 25×25 is written in the `grid` format.
///
/// # Errors
/// I/O errors from the writer; [`io::ErrorKind::InvalidInput`] for a `csv2` grid of 100×100
/// or more, whose digits two decimal places cannot hold.
pub fn write_grid<W: Write + ?Sized>(w: &mut W, grid: &Grid, format: Format) -> io::Result<()> {
    let n = grid.side();
    match format {
        Format::Line if n <= Format::Line.max_side() => {
            // On the stack: a batch writes a line per answer.
            let mut line = [0u8; 25 * 25 + 1];
            let len = grid.values().len();
            for (byte, &v) in line.iter_mut().zip(grid.values()) {
                *byte = symbol_byte(v);
            }
            line[len] = b'\n';
            w.write_all(&line[..=len])
        }
        Format::Line | Format::Grid => write_integers(w, grid),
        Format::Csv2 => write_csv2(w, grid),
        Format::Block => write_block(w, grid),
        Format::Pretty => write_pretty(w, grid),
    }
}

/// Writes many grids as one file of `format`: the `csv2` header first, and a blank line
/// between the puzzles of multi-line formats (`block`, `grid`, `pretty`).
///
/// # Errors
/// As [`write_grid`].
pub fn write_puzzles<W: Write + ?Sized>(
    w: &mut W,
    grids: &[Grid],
    format: Format,
) -> io::Result<()> {
    if format == Format::Csv2 {
        // refuse before the header, so a failure writes nothing
        if let Some(too_big) = grids.iter().find(|g| !format.can_hold(g.side())) {
            return write_csv2(w, too_big);
        }
        w.write_all(b"puzzle\n")?;
    }
    for (i, grid) in grids.iter().enumerate() {
        if i > 0 && matches!(format, Format::Block | Format::Grid | Format::Pretty) {
            w.write_all(b"\n")?;
        }
        write_grid(w, grid, format)?;
    }
    Ok(())
}

/// One-symbol form of a value (n ≤ 35): `.` blank, `1`–`9`, `A`….
fn symbol_byte(v: u16) -> u8 {
    match v {
        0 => b'.',
        _ => Digit(v).symbol().map_or(b'?', |c| c as u8),
    }
}

fn write_integers<W: Write + ?Sized>(w: &mut W, grid: &Grid) -> io::Result<()> {
    let mut line = String::new();
    for row in grid.values().chunks(grid.side()) {
        line.clear();
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            push_number(&mut line, *v);
        }
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}

fn push_number(s: &mut String, v: u16) {
    use fmt::Write as _;
    let _ = write!(s, "{v}");
}

fn write_csv2<W: Write + ?Sized>(w: &mut W, grid: &Grid) -> io::Result<()> {
    let n = grid.side();
    if !Format::Csv2.can_hold(n) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "csv2 holds grids up to 81×81 (two decimal digits per cell); a {n}×{n} grid \
                 needs the grid or block format"
            ),
        ));
    }
    let mut line = Vec::with_capacity(2 * grid.values().len() + 1);
    for &v in grid.values() {
        line.push(b'0' + (v / 10) as u8);
        line.push(b'0' + (v % 10) as u8);
    }
    line.push(b'\n');
    w.write_all(&line)
}

/// A cell as text of a fixed width: a symbol (n ≤ 25) or a right-aligned integer.
struct CellText {
    width: usize,
    symbols: bool,
}

impl CellText {
    fn for_side(n: usize) -> CellText {
        let symbols = n <= 25;
        CellText {
            width: if symbols { 1 } else { n.to_string().len() },
            symbols,
        }
    }

    fn push(&self, s: &mut String, v: u16) {
        use fmt::Write as _;
        if self.symbols {
            s.push(symbol_byte(v) as char);
        } else if v == 0 {
            let _ = write!(s, "{:>w$}", '.', w = self.width);
        } else {
            let _ = write!(s, "{v:>w$}", w = self.width);
        }
    }

    /// Width of one box segment between rules: a space before each cell and after the last.
    fn segment(&self, b: usize) -> usize {
        b * (self.width + 1) + 1
    }
}

/// Rows like ` . . 9 | . 8 1 | . . .` and rules like `-------+-------+-------` (the Debian
/// `sudoku` program's format).
fn write_block<W: Write + ?Sized>(w: &mut W, grid: &Grid) -> io::Result<()> {
    let (n, b) = (grid.side(), grid.box_size());
    let cells = CellText::for_side(n);
    let segment = "-".repeat(cells.segment(b));
    let rule = vec![segment.as_str(); b].join("+") + "\n";
    let mut line = String::new();
    for (r, row) in grid.values().chunks(n).enumerate() {
        if r > 0 && r % b == 0 {
            w.write_all(rule.as_bytes())?;
        }
        line.clear();
        for (c, &v) in row.iter().enumerate() {
            if c > 0 && c % b == 0 {
                line.push_str(" |");
            }
            line.push(' ');
            cells.push(&mut line, v);
        }
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// A box-drawn grid: `┌───────┬…┐`, `│ 5 3 . │ …│`, `├───────┼…┤`, `└───────┴…┘`.
fn write_pretty<W: Write + ?Sized>(w: &mut W, grid: &Grid) -> io::Result<()> {
    let (n, b) = (grid.side(), grid.box_size());
    let cells = CellText::for_side(n);
    let segment = "─".repeat(cells.segment(b));
    let rule = |left: &str, mid: &str, right: &str| {
        format!("{left}{}{right}\n", vec![segment.as_str(); b].join(mid))
    };
    let mut line = String::new();
    w.write_all(rule("┌", "┬", "┐").as_bytes())?;
    for (r, row) in grid.values().chunks(n).enumerate() {
        if r > 0 && r % b == 0 {
            w.write_all(rule("├", "┼", "┤").as_bytes())?;
        }
        line.clear();
        for (c, &v) in row.iter().enumerate() {
            if c % b == 0 {
                line.push_str(if c == 0 { "│" } else { " │" });
            }
            line.push(' ');
            cells.push(&mut line, v);
        }
        line.push_str(" │\n");
        w.write_all(line.as_bytes())?;
    }
    w.write_all(rule("└", "┴", "┘").as_bytes())
}

/// Writes the pencil-mark grid of `grid`: each open cell's candidates (the digits no given
/// of its row, column or box rules out), each given as its digit, columns padded to their
/// widest cell, in the bordered layout Sudoku programs print and teachers project. Digits
/// are symbols (`1`–`9`, `A`…) up to 35×35 and numbers joined by commas above.
///
/// # Errors
/// Any I/O error of `w`.
pub fn write_candidates<W: Write + ?Sized>(w: &mut W, grid: &Grid) -> io::Result<()> {
    let (n, b) = (grid.side(), grid.box_size());
    let text = |digits: &mut dyn Iterator<Item = Digit>| -> String {
        if n <= 35 {
            digits.filter_map(Digit::symbol).collect()
        } else {
            digits.map(|d| d.to_string()).collect::<Vec<_>>().join(",")
        }
    };
    let cells: Vec<String> = (0..n * n)
        .map(|i| {
            let cell = Cell(i as u32);
            match grid.get(cell) {
                Some(d) => text(&mut std::iter::once(d)),
                None => text(&mut grid.candidates(cell).iter()),
            }
        })
        .collect();
    let widths: Vec<usize> = (0..n)
        .map(|c| {
            (0..n)
                .map(|r| cells[r * n + c].chars().count())
                .max()
                .unwrap_or(1)
                .max(1)
        })
        .collect();
    let rule: String = {
        let mut rule = String::new();
        for stack in 0..b {
            rule.push(if stack == 0 { '.' } else { '+' });
            let inner: usize = widths[stack * b..(stack + 1) * b]
                .iter()
                .map(|w| w + 1)
                .sum();
            rule.push_str(&"-".repeat(inner + 1));
        }
        rule.push_str(".\n");
        rule
    };
    w.write_all(rule.as_bytes())?;
    for r in 0..n {
        if r > 0 && r % b == 0 {
            w.write_all(rule.replace('.', ":").as_bytes())?;
        }
        let mut line = String::new();
        for c in 0..n {
            if c % b == 0 {
                line.push_str(if c == 0 { "|" } else { " |" });
            }
            let cell = &cells[r * n + c];
            line.push(' ');
            line.push_str(cell);
            line.push_str(&" ".repeat(widths[c] - cell.chars().count()));
        }
        line.push_str(" |\n");
        w.write_all(line.as_bytes())?;
    }
    w.write_all(rule.replace('.', "'").as_bytes())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::grid::{read_puzzles, Source};

    fn written(grids: &[Grid], format: Format) -> String {
        let mut out = Vec::new();
        write_puzzles(&mut out, grids, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn sample_9() -> Grid {
        "..9.81.....23..4.....2...59..84..7.6.4.....3.3.5..28..76...5.....3..41.....93.2.."
            .parse()
            .unwrap()
    }

    #[test]
    fn block_matches_the_debian_layout() {
        let text = written(&[sample_9()], Format::Block);
        let fixture = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/debian-fiendish.txt"
        ))
        .unwrap();
        let body: String = fixture.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(text, body);
    }

    #[test]
    fn pretty_draws_boxes() {
        let g: Grid = "1.3....1..4..2.4".parse().unwrap();
        assert_eq!(
            written(&[g], Format::Pretty),
            "┌─────┬─────┐\n│ 1 . │ 3 . │\n│ . . │ . 1 │\n├─────┼─────┤\n\
             │ . . │ 4 . │\n│ . 2 │ . 4 │\n└─────┴─────┘\n"
        );
    }

    #[test]
    fn csv2_and_line_and_grid() {
        let g: Grid = "1.3....1..4..2.4".parse().unwrap();
        assert_eq!(
            written(&[g.clone(), g.clone()], Format::Csv2),
            "puzzle\n01000300000000010000040000020004\n01000300000000010000040000020004\n"
        );
        assert_eq!(
            written(std::slice::from_ref(&g), Format::Line),
            "1.3....1..4..2.4\n"
        );
        assert_eq!(
            written(&[g.clone(), g], Format::Grid),
            "1 0 3 0\n0 0 0 1\n0 0 4 0\n0 2 0 4\n\n1 0 3 0\n0 0 0 1\n0 0 4 0\n0 2 0 4\n"
        );
    }

    #[test]
    fn big_grids_use_integers_and_csv2_refuses_100() {
        let mut g = Grid::empty(6).unwrap();
        g.set(crate::grid::Cell(1), Some(Digit(36)));
        let block = written(std::slice::from_ref(&g), Format::Block);
        assert!(block.starts_with("  . 36  .  .  .  . |"), "{block}");
        assert!(written(&[g], Format::Line).starts_with("0 36 0 0"));
        let mut out = Vec::new();
        let grids = [Grid::empty(2).unwrap(), Grid::empty(10).unwrap()];
        let err = write_puzzles(&mut out, &grids, Format::Csv2).unwrap_err();
        assert!(out.is_empty());
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("up to 81×81"));
    }

    #[test]
    fn names_parse() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("xml".parse::<Format>().is_err());
    }

    /// Random grids of box size 2…6 with random densities; duplicates allowed.
    fn grids() -> impl Strategy<Value = Vec<Grid>> {
        (2usize..=6, 0u32..=100, 1usize..=3).prop_flat_map(|(b, density, count)| {
            let n = b * b;
            let cell = (0u32..100, 1..=n as u16)
                .prop_map(move |(roll, v)| if roll < density { v } else { 0 });
            proptest::collection::vec(proptest::collection::vec(cell, n * n), count).prop_map(
                |all| {
                    all.into_iter()
                        .map(|v| Grid::from_values(v).unwrap())
                        .collect()
                },
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn every_format_round_trips(grids in grids()) {
            let n = grids[0].side();
            for format in Format::ALL.into_iter().filter(|f| f.can_hold(n)) {
                let text = written(&grids, format);
                let named = read_puzzles(text.as_bytes(), &Source::Text, Some(format));
                prop_assert_eq!(named.as_ref(), Ok(&grids), "{}:\n{}", format, text);
                let detected = read_puzzles(text.as_bytes(), &Source::Text, None);
                prop_assert_eq!(detected.as_ref(), Ok(&grids), "detected {}:\n{}", format, text);
            }
        }
    }

    #[test]
    fn pencil_marks_list_each_open_cells_candidates_in_padded_columns() {
        let grid: Grid = ".2.1........4.2.".parse().unwrap();
        let mut out = Vec::new();
        write_candidates(&mut out, &grid).unwrap();
        let expected = "\
.---------+---------.
| 3   2   | 34  1   |
| 13  134 | 34  234 |
:---------+---------:
| 123 13  | 134 34  |
| 4   13  | 2   3   |
'---------+---------'
";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        // Above 35×35 digits are numbers joined by commas: r1c1 of an empty 36×36 grid.
        let mut out = Vec::new();
        write_candidates(&mut out, &Grid::empty(6).unwrap()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let first = text.lines().nth(1).unwrap();
        let all: Vec<String> = (1..=36).map(|d| d.to_string()).collect();
        assert!(
            first.starts_with(&format!("| {} ", all.join(","))),
            "{first}"
        );
    }
}
