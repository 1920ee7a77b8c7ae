//! Writing grids in every supported format, and the format names used by `--format`.

use std::fmt;
use std::io::{self, Write};

use super::Grid;

/// A puzzle text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One puzzle per line, row-major symbols, `.`/`0`/`_` blanks.
    Line,
    /// n rows with optional `|` and `-+-` rules, `%`/`#` comment lines.
    Block,
    /// n lines of n whitespace-separated integers, `0`/`.` blanks.
    Grid,
    /// A `puzzle` header line, then two decimal digits per cell, `00` blank.
    Csv2,
    /// A boxed display for terminals (write only).
    Pretty,
}

impl Format {
    /// Every format, in `--format` order.
    pub const ALL: [Format; 5] = [
        Format::Line,
        Format::Block,
        Format::Grid,
        Format::Csv2,
        Format::Pretty,
    ];

    /// The `--format` name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Block => "block",
            Format::Grid => "grid",
            Format::Csv2 => "csv2",
            Format::Pretty => "pretty",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes one grid in a format (for `csv2`, without the header line).
///
/// # Errors
/// I/O errors from the writer.
pub fn write_grid<W: Write>(w: &mut W, grid: &Grid, format: Format) -> io::Result<()> {
    match format {
        Format::Line => match grid.to_line() {
            Some(line) => writeln!(w, "{line}"),
            None => write_grid(w, grid, Format::Grid),
        },
        _ => {
            for row in grid.values().chunks(grid.side()) {
                let row: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                writeln!(w, "{}", row.join(" "))?;
            }
            Ok(())
        }
    }
}
