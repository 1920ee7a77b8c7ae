//! The self-describing DIMACS file of a puzzle: [`write_cnf`] writes the [`CnfDescription`]
//! (tool and version, encoding, box size, the puzzle) in the leading comments, so that a
//! model can be decoded from the CNF file alone; [`read_description`] reads it back.

use std::io::{self, Read, Write};

use crate::dimacs::{read_preamble, DimacsError, DimacsWriter};
use crate::encode::{Encoding, SudokuEncoding};
use crate::formula::FormulaSize;
use crate::grid::Grid;

/// Writes the self-describing DIMACS file of `puzzle` under `encoding`: the
/// [`CnfDescription`] comments, the header (from [`Encoding::size`], no extra pass for the
/// base encodings), then the clauses, streamed. Returns the formula's size.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_cnf<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
) -> io::Result<FormulaSize> {
    let size = encoding.size(puzzle);
    let mut w = DimacsWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    w.comment(&CnfDescription::new(*encoding, puzzle).to_comment_text());
    w.header(size.vars, size.clauses);
    encoding.encode(puzzle, &mut w);
    debug_assert_eq!(w.clauses_written(), size.clauses);
    w.finish()?;
    Ok(size)
}

/// What a CNF file written by [`write_cnf`] says about itself in its leading comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfDescription {
    /// Tool and version that wrote it, e.g. `sudosat 0.1.0`.
    pub tool: String,
    /// The encoding.
    pub encoding: SudokuEncoding,
    /// The puzzle (its box size follows).
    pub puzzle: Grid,
}

impl CnfDescription {
    /// The description of `puzzle` under `encoding`, by this version of the tool.
    pub fn new(encoding: SudokuEncoding, puzzle: &Grid) -> Self {
        CnfDescription {
            tool: format!("sudosat {}", env!("CARGO_PKG_VERSION")),
            encoding,
            puzzle: puzzle.clone(),
        }
    }

    /// The comment text (without the `c ` prefixes), one item per line.
    pub fn to_comment_text(&self) -> String {
        let n = self.puzzle.side();
        let mut s = format!(
            "{} - Sudoku as SAT\nencoding: {}\nbox-size: {}\n",
            self.tool,
            self.encoding.name(),
            self.puzzle.box_size()
        );
        match self.puzzle.to_line() {
            Some(line) => s.push_str(&format!("puzzle: {line}\n")),
            None => {
                s.push_str("puzzle-grid: (one row per line, 0 = blank)\n");
                for row in self.puzzle.values().chunks(n) {
                    let row: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                    s.push_str(&format!("| {}\n", row.join(" ")));
                }
            }
        }
        if self.encoding.reduced {
            s.push_str(&format!(
                "variables: the free (r,c,v) of the Kwon-Jain reduction, numbered 1.. in \
                 row-major cell order, ascending v; (r,c,v) is fixed true when (r,c) is a \
                 given v, fixed false when a given shares the cell, or v and a row, column \
                 or box with (r,c) (n = {n})\n"
            ));
        } else {
            s.push_str(&format!(
                "variables: (r,c,v) is (r-1)*{} + (c-1)*{n} + v, r,c,v in 1..{n}\n",
                n * n
            ));
        }
        let map = self.encoding.var_map(&self.puzzle);
        if map.num_vars() > map.num_cell_vars() {
            s.push_str(&format!(
                "auxiliary: variables {}..{} are not cell values ({}{}); decode ignores them\n",
                map.num_cell_vars() + 1,
                map.num_vars(),
                if self.encoding.base == crate::encode::BaseEncoding::Augmented {
                    "row- then column-segment variables, then "
                } else {
                    ""
                },
                format_args!("at-most-one: {}", self.encoding.amo.citation()),
            ));
        }
        s
    }

    /// Reads a description back from the comment lines (without their leading `c`).
    ///
    /// # Errors
    /// A message naming the missing or malformed item.
    pub fn from_comments<'a>(
        lines: impl IntoIterator<Item = &'a str>,
    ) -> Result<CnfDescription, String> {
        let mut tool = None;
        let mut encoding = None;
        let mut box_size = None;
        let mut line_form = None;
        let mut rows: Option<Vec<u16>> = None;
        for raw in lines {
            let line = raw.trim();
            if let Some(rest) = line.strip_prefix("encoding:") {
                let name = rest.trim();
                encoding = Some(
                    SudokuEncoding::from_name(name)
                        .ok_or_else(|| format!("unknown encoding `{name}` in the comments"))?,
                );
            } else if let Some(rest) = line.strip_prefix("box-size:") {
                box_size = Some(
                    rest.trim()
                        .parse::<usize>()
                        .map_err(|_| format!("bad box size `{}` in the comments", rest.trim()))?,
                );
            } else if let Some(rest) = line.strip_prefix("puzzle:") {
                line_form = Some(rest.trim().to_string());
            } else if line.starts_with("puzzle-grid:") {
                rows = Some(Vec::new());
            } else if let (Some(rest), Some(values)) = (line.strip_prefix('|'), rows.as_mut()) {
                for token in rest.split_whitespace() {
                    values.push(
                        token
                            .parse()
                            .map_err(|_| format!("bad value `{token}` in the puzzle-grid"))?,
                    );
                }
            } else if tool.is_none() && line.starts_with("sudosat ") {
                tool = line.split(" - ").next().map(str::to_string);
            }
        }
        let encoding = encoding.ok_or("no `encoding:` comment: not a CNF written by sudosat")?;
        let box_size = box_size.ok_or("no `box-size:` comment")?;
        let puzzle = match (line_form, rows) {
            (Some(line), _) => line
                .parse::<Grid>()
                .map_err(|e| format!("bad puzzle in the comments: {}", e.message))?,
            (None, Some(values)) => {
                Grid::from_values(values).ok_or("the puzzle-grid comment is not a full grid")?
            }
            (None, None) => return Err("no `puzzle:` comment".into()),
        };
        if puzzle.box_size() != box_size {
            return Err(format!(
                "the puzzle has box size {} but the comments say {box_size}",
                puzzle.box_size()
            ));
        }
        Ok(CnfDescription {
            tool: tool.unwrap_or_else(|| "unknown".into()),
            encoding,
            puzzle,
        })
    }
}

/// Reads the [`CnfDescription`] from the leading comments of a CNF written by [`write_cnf`].
///
/// # Errors
/// A [`DimacsError`] when the comments do not describe a puzzle.
pub fn read_description<R: Read>(
    reader: R,
    source_name: &str,
) -> Result<CnfDescription, DimacsError> {
    let lines = read_preamble(reader, source_name)?;
    CnfDescription::from_comments(lines.iter().map(String::as_str))
        .map_err(|m| DimacsError::at(source_name, 1, 1, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn description_round_trips() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        for enc in SudokuEncoding::ALL {
            let d = CnfDescription::new(enc, &puzzle);
            let text = d.to_comment_text();
            let back = CnfDescription::from_comments(text.lines()).unwrap();
            assert_eq!(back, d);
        }
        let mut big = Grid::empty(6).unwrap();
        big.set(crate::grid::Cell(5), Some(crate::grid::Digit(36)));
        let d = CnfDescription::new(SudokuEncoding::ALL[0], &big);
        let back = CnfDescription::from_comments(d.to_comment_text().lines()).unwrap();
        assert_eq!(back.puzzle, big);
    }
}
