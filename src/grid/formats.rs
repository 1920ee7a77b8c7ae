//! The text formats of puzzles, by name (`--from`, `--to`).

crate::names::named_enum! {
    /// A puzzle text format (`--from`, `--to`).
    pub enum Format ("format") {
        /// One puzzle per line, row-major symbols, `.`/`0`/`_` blanks.
        Line = "line",
        /// n rows with optional `|` and `-+-` rules, `%`/`#` comment lines.
        Block = "block",
        /// n lines of n whitespace-separated integers, `0`/`.` blanks.
        Grid = "grid",
        /// A `puzzle` header line, then two decimal digits per cell, `00` blank.
        Csv2 = "csv2",
        /// A boxed display for terminals, drawn with box-drawing characters (reads as
        /// `block`).
        Pretty = "pretty",
    }
}

impl Format {
    /// The largest side n this format holds: 25 for `line` (one symbol per cell, up to `Z`
    /// = 35; larger grids are written in the `grid` format), 81 for `csv2` (two digits per
    /// cell), 400 for the others.
    pub fn max_side(self) -> usize {
        match self {
            Format::Line => 25,
            Format::Csv2 => 81,
            _ => super::MAX_BOX_SIZE * super::MAX_BOX_SIZE,
        }
    }

    /// Whether this format holds grids of side `n`.
    pub fn can_hold(self, n: usize) -> bool {
        n <= self.max_side()
    }
}
