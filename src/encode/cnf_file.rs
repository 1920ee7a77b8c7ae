//! The self-describing DIMACS file of a puzzle: [`write_cnf`] writes the [`CnfDescription`]
//! (tool and version, encoding, box size, the puzzle) in the leading comments, so that a
//! model can be decoded from the CNF file alone; [`read_description`] reads it back.

use std::io::{self, Read, Write};

use crate::dimacs::{read_preamble_numbered, DimacsError, DimacsWriter};
use crate::encode::split::CellSplit;
use crate::encode::{Encoding, SudokuEncoding};
use crate::formula::{ClauseSink, FormulaSize, Lit};
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
    write_cnf_with_progress(out, encoding, puzzle, |_, _| {})
}

/// Clauses between two calls of [`write_cnf_with_progress`]'s `progress`.
pub const PROGRESS_EVERY: usize = 1 << 20;

/// [`write_cnf`], calling `progress(written, total)` with the clauses written so far every
/// [`PROGRESS_EVERY`] clauses and once at the end: for a progress bar on the largest
/// grids, whose unreduced files take minutes to write.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_cnf_with_progress<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    write_any_cnf(out, encoding, puzzle, None, progress)
}

/// [`write_cnf_with_progress`] as an incremental CNF (`p inccnf`, as CaDiCaL reads it):
/// the same comments and clauses, a `c cubes:` line saying what they split, then the
/// cubes of `split` as `a LITS 0` lines. `sudosat sat` and `cadical` solve the formula
/// under each cube in turn.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_icnf_with_progress<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    split: &CellSplit,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    write_any_cnf(out, encoding, puzzle, Some(split), progress)
}

fn write_any_cnf<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    split: Option<&CellSplit>,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    let size = encoding.size(puzzle);
    let mut w = DimacsWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    w.comment(&CnfDescription::new(*encoding, puzzle).to_comment_text());
    match split {
        None => w.header(size.vars, size.clauses),
        Some(split) => {
            w.comment(&format!("cubes: {}", split.describe(puzzle)));
            w.header_incremental();
        }
    }
    let mut observed = Observed {
        inner: &mut w,
        written: 0,
        total: size.clauses,
        progress,
    };
    encoding.encode(puzzle, &mut observed);
    (observed.progress)(observed.written, size.clauses);
    // Checked once the writer reports no error: after a failed write (a closed pipe) it
    // stops counting, and the error is the answer.
    let written = w.clauses_written();
    if let Some(split) = split {
        split.for_each_cube(|cube| w.cube(cube));
    }
    w.finish()?;
    debug_assert_eq!(written, size.clauses);
    Ok(size)
}

/// A sink that counts the clauses it passes on and reports every [`PROGRESS_EVERY`].
struct Observed<'a, S: ClauseSink, F: FnMut(usize, usize)> {
    inner: &'a mut S,
    written: usize,
    total: usize,
    progress: F,
}

impl<S: ClauseSink, F: FnMut(usize, usize)> ClauseSink for Observed<'_, S, F> {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.inner.add_clause(clause);
        self.written += 1;
        if self.written % PROGRESS_EVERY == 0 {
            (self.progress)(self.written, self.total);
        }
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.inner.reserve_vars(num_vars);
    }
}

/// The bytes of the DIMACS clauses of a formula of this size, estimated for a check before
/// writing: each literal as a variable number of the mean decimal width of `1..=vars`
/// plus a separator, each clause's `0` and newline. Minus signs and the comments are left
/// out, so on the encodings here (mostly negative literals) it falls short of the clauses
/// written by 3–19 % (tested): a file refused on this estimate would not have fitted.
pub fn dimacs_bytes_estimate(size: FormulaSize) -> u64 {
    let vars = size.vars as u64;
    // Σ over 1..=vars of the decimal width: each width k covers [10^(k−1), 10^k).
    let mut width_sum: u64 = 0;
    let (mut low, mut width) = (1u64, 1u64);
    while low <= vars {
        let high = low.saturating_mul(10).min(vars + 1);
        width_sum += (high - low) * width;
        low = high;
        width += 1;
    }
    let mean_width = if vars == 0 {
        1.0
    } else {
        width_sum as f64 / vars as f64
    };
    let literal_bytes = size.literals as f64 * (mean_width + 1.0);
    (literal_bytes as u64).saturating_add((size.clauses as u64).saturating_mul(2))
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
        Self::from_numbered_comments(lines.into_iter().enumerate().map(|(i, l)| (i + 1, l)))
            .map_err(|(_, message)| message)
    }

    /// [`from_comments`](Self::from_comments) on `(line number, text)` pairs; an error
    /// carries the line of the comment at fault (for a missing item, the line after the
    /// last comment).
    ///
    /// # Errors
    /// The line and a message naming the missing or malformed item.
    pub fn from_numbered_comments<'a>(
        lines: impl IntoIterator<Item = (usize, &'a str)>,
    ) -> Result<CnfDescription, (usize, String)> {
        let mut tool = None;
        let mut encoding = None;
        let mut box_size = None;
        let mut line_form = None;
        let mut rows: Option<(usize, Vec<u16>)> = None;
        let mut end = 1;
        for (no, raw) in lines {
            end = no + 1;
            let line = raw.trim();
            if let Some(rest) = line.strip_prefix("encoding:") {
                let name = rest.trim();
                encoding =
                    Some(SudokuEncoding::from_name(name).ok_or_else(|| {
                        (no, format!("unknown encoding `{name}` in the comments"))
                    })?);
            } else if let Some(rest) = line.strip_prefix("box-size:") {
                let size = rest.trim().parse::<usize>().map_err(|_| {
                    (
                        no,
                        format!("bad box size `{}` in the comments", rest.trim()),
                    )
                })?;
                box_size = Some((no, size));
            } else if let Some(rest) = line.strip_prefix("puzzle:") {
                line_form = Some((no, rest.trim().to_string()));
            } else if line.starts_with("puzzle-grid:") {
                rows = Some((no, Vec::new()));
            } else if let (Some(rest), Some((_, values))) = (line.strip_prefix('|'), rows.as_mut())
            {
                for token in rest.split_whitespace() {
                    values.push(
                        token
                            .parse()
                            .map_err(|_| (no, format!("bad value `{token}` in the puzzle-grid")))?,
                    );
                }
            } else if tool.is_none() && line.starts_with("sudosat ") {
                tool = line.split(" - ").next().map(str::to_string);
            }
        }
        let encoding = encoding.ok_or_else(|| {
            (
                end,
                "no `encoding:` comment: not a CNF written by sudosat".to_string(),
            )
        })?;
        let (size_line, box_size) =
            box_size.ok_or_else(|| (end, "no `box-size:` comment".to_string()))?;
        let (puzzle_line, puzzle) = match (line_form, rows) {
            (Some((no, line)), _) => (
                no,
                line.parse::<Grid>()
                    .map_err(|e| (no, format!("bad puzzle in the comments: {}", e.message)))?,
            ),
            (None, Some((no, values))) => (
                no,
                Grid::from_values(values).ok_or_else(|| {
                    (no, "the puzzle-grid comment is not a full grid".to_string())
                })?,
            ),
            (None, None) => return Err((end, "no `puzzle:` comment".into())),
        };
        if puzzle.box_size() != box_size {
            return Err((
                size_line,
                format!(
                    "the puzzle (line {puzzle_line}) has box size {} but this comment says \
                     {box_size}",
                    puzzle.box_size()
                ),
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
    let lines = read_preamble_numbered(reader, source_name)?;
    CnfDescription::from_numbered_comments(lines.iter().map(|(no, text)| (*no, text.as_str())))
        .map_err(|(line, message)| DimacsError::at(source_name, line, 1, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_estimate_falls_short_of_the_written_clauses_by_at_most_a_third() {
        let puzzles: Vec<Grid> = [
            "................",
            "1.3...1..4..2.4.",
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            ".................................................................................",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .chain([Grid::empty(4).unwrap()])
        .collect();
        for puzzle in &puzzles {
            for enc in SudokuEncoding::all_families() {
                let mut file = Vec::new();
                let size = write_cnf(&mut file, &enc, puzzle).unwrap();
                let estimate = dimacs_bytes_estimate(size) as f64;
                // The clauses: what follows the `p cnf` line.
                let text = String::from_utf8(file).unwrap();
                let header = text.find("p cnf").unwrap();
                let written = text[header..].split_once('\n').unwrap().1.len() as f64;
                let ratio = estimate / written;
                assert!(
                    (0.67..=1.0).contains(&ratio),
                    "{} on {}×{}: estimate {estimate}, written {written}",
                    enc.name(),
                    puzzle.side(),
                    puzzle.side()
                );
            }
        }
    }

    #[test]
    fn progress_counts_every_clause_and_the_file_is_the_same() {
        // An empty 36×36 grid, extended: 3.3 M clauses, three reports before the last.
        let puzzle = Grid::empty(6).unwrap();
        let enc = SudokuEncoding::ALL[1];
        let mut plain = Vec::new();
        write_cnf(&mut plain, &enc, &puzzle).unwrap();
        let mut observed = Vec::new();
        let mut calls = Vec::new();
        let size = write_cnf_with_progress(&mut observed, &enc, &puzzle, |done, total| {
            calls.push((done, total))
        })
        .unwrap();
        assert_eq!(observed, plain);
        let expected: Vec<(usize, usize)> = (1..=size.clauses / PROGRESS_EVERY)
            .map(|k| (k * PROGRESS_EVERY, size.clauses))
            .chain([(size.clauses, size.clauses)])
            .collect();
        assert_eq!(calls, expected);
        assert_eq!(calls.len(), 4);
    }

    #[test]
    fn a_bad_comment_is_named_by_its_line() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let text = CnfDescription::new(SudokuEncoding::ALL[0], &puzzle).to_comment_text();
        // The comments with one edited, as a CNF, and the line of the edited comment.
        let edited = |from: &str, to: &str| {
            let bad = text.replace(from, to);
            let line = bad.lines().position(|l| l.starts_with(to)).unwrap() + 1;
            let cnf: String = bad.lines().map(|l| format!("c {l}\n")).collect();
            (format!("{cnf}p cnf 0 0\n"), line)
        };
        let (cnf, line) = edited("box-size: 2", "box-size: 3");
        let e = read_description(cnf.as_bytes(), "f.cnf").unwrap_err();
        assert_eq!((e.line, e.column), (line, 1));
        assert!(e.message.contains("this comment says 3"), "{e}");
        let (cnf, line) = edited("encoding: ", "encoding: nonsense-");
        let e = read_description(cnf.as_bytes(), "f.cnf").unwrap_err();
        assert_eq!(e.line, line);
    }

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

    #[test]
    fn an_icnf_holds_the_cnfs_clauses_then_the_cubes() {
        let puzzle: Grid = "..12....3.......".parse().unwrap();
        let encoding = SudokuEncoding::new(crate::encode::BaseEncoding::Extended, true);
        let split = CellSplit::fewest_candidates(&encoding, &puzzle, 2).unwrap();
        let mut plain = Vec::new();
        write_cnf(&mut plain, &encoding, &puzzle).unwrap();
        let mut incremental = Vec::new();
        write_icnf_with_progress(&mut incremental, &encoding, &puzzle, &split, |_, _| {}).unwrap();
        let (plain, incremental) = (
            String::from_utf8(plain).unwrap(),
            String::from_utf8(incremental).unwrap(),
        );
        fn body(text: &str) -> Vec<&str> {
            text.lines()
                .filter(|l| !l.starts_with(['c', 'p', 'a']))
                .collect()
        }
        assert_eq!(body(&plain), body(&incremental));
        assert!(incremental.contains("\nc cubes: r1c2 (2) × r2c3 (2) = 4 cubes\np inccnf\n"));
        let cubes: Vec<&str> = incremental
            .lines()
            .filter(|l| l.starts_with("a "))
            .collect();
        assert_eq!(cubes.len(), 4);
        assert!(
            incremental.ends_with(&format!("{}\n", cubes[3])),
            "cubes come last"
        );
        // And it parses back as an incremental CNF with those cubes.
        let (_, report) =
            crate::dimacs::parse_dimacs_str(&incremental, Default::default()).unwrap();
        assert!(report.incremental);
        assert_eq!(report.cubes.len(), 4);
    }
}
