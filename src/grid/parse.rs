//! Reading puzzles in every supported text format, many per file, with positioned errors.
//!
//! # Formats
//! - **line**: one puzzle per line, row-major; blanks `.` `0` `_`; digits `1`–`9`, then
//!   `A`/`a`… for 10…35. Anything after the cells and a whitespace, `#`, `,` or `;` is a
//!   comment; lines starting with `#` or `%` are comment lines.
//! - **block**: n rows of n cells, optionally with `|` column rules and rule lines made of
//!   `-` `+` `=` `*` `|` (Debian `sudoku`, qqwing, Simple Sudoku) or box-drawing characters
//!   (our own `pretty` output). Cells are compact (`..9.81...`) or whitespace-separated
//!   (`. . 9 | . 8 1`; separated cells may be integers, for n > 35). Comment lines start
//!   with `%` or `#`, and `Grid 01` title lines (Project Euler's `sudoku.txt`) count as
//!   comments; blank or comment lines separate puzzles (inside a puzzle they are allowed
//!   only between bands of boxes).
//! - **grid**: n lines of n whitespace-separated integers, `0` or `.` blank.
//! - **csv2**: a `puzzle` header line, then one puzzle per line, two decimal digits per cell
//!   (`00` blank); grids up to 81×81. Read more widely: any CSV header naming a `puzzle`,
//!   `puzzles`, `quizzes` or `quiz` column (the Kaggle sets' `quizzes,solutions` and
//!   `id,puzzle,solution,clues,difficulty`), then that field of each line, double quotes
//!   allowed, as csv2 cells or, when it has b⁴ characters, as `line` symbols (2·b⁴ is never
//!   a b⁴).
//!
//! # Detecting the format
//! When no format is given, the first line that is neither blank nor a comment decides,
//! for the whole input, in this order:
//! 1. a CSV header with a puzzle column (`puzzle`, `quizzes`, …, any case) → **csv2**;
//! 2. its leading run of cell symbols has b⁴ cells (16, 81, 256, 625, …) → **line** — except
//!    that 16 symbols (a 4×4 line *or* a 16×16 block row) is a **block** row when the first
//!    16 such lines use a symbol above 4, which no 4×4 puzzle can;
//! 3. it contains `|`, `+`, `*`, `-`, `=` or a box-drawing character → **block**;
//! 4. it holds several whitespace-separated tokens:
//!    all integers or `.` → **grid** (but a spaced **block** when a letter token appears
//!    among the following rows, as in a 16×16 `A . 3 G …`); digits and blanks with at
//!    least one multi-digit integer → **grid** (whose reader then names the odd token, such
//!    as `..`); all made of cell symbols → **block**;
//! 5. its symbols number a side n = b² (4, 9, 16, 25, 36, 49, …), or up to 35 that the next
//!    line has as many of → **block** (so a 9-line block of 9 digits per row without rules
//!    is one 9×9 block, never nine 9-cell lines, which no grid has; 36 rows of 36 symbols
//!    are a 36×36 block whose puzzle lacks the digit 36, which has no symbol; six rows of 6
//!    get a "6 cells per row" error);
//! 6. otherwise **line**, whose parser then says what is wrong with the line.
//!
//! Spaced rows of digits read the same as block and as grid, so rule 4's choice of grid
//! never changes a result. Input is read line by line; a line longer than [`MAX_LINE_BYTES`] is
//! rejected as soon as the limit is passed, without buffering it.

use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::names::plural;

use super::lex::{
    self, blank_or_comment, cell_token, csv_header, csv_header_column, integer_token, is_rule_char,
    line_body, rule_line, symbol_value, tokens,
};
use super::{box_size_of_cell_count, box_size_of_side, Format, Grid, MAX_BOX_SIZE};

/// The largest number of cells in a supported grid (400×400).
pub const MAX_CELLS: usize = MAX_BOX_SIZE.pow(4);

/// The longest input line accepted, in bytes: far more than any supported grid needs (a
/// 400×400 line puzzle has 160,000 cells, a 400×400 grid row about 1,600 characters).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Where puzzle text comes from, for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file.
    Path(PathBuf),
    /// Standard input (`-` on the command line).
    Stdin,
    /// An in-memory string.
    Text,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Path(p) => write!(f, "{}", p.display()),
            Source::Stdin => f.write_str("<stdin>"),
            Source::Text => f.write_str("<text>"),
        }
    }
}

/// A puzzle that could not be read: where (source, 1-based line and column) and why.
///
/// Displays as `source:line:column: message`, leaving out a position that is 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// The file name, `<stdin>` or `<text>`.
    pub source_name: String,
    /// 1-based line (0 when the error concerns the whole input).
    pub line: usize,
    /// 1-based column in characters (0 when the error concerns a whole line).
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source_name)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl ParseError {
    /// An error at a position.
    pub fn at(source: &Source, line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError {
            source_name: source.to_string(),
            line,
            column,
            message: message.into(),
        }
    }

    pub(crate) fn expected_one_puzzle(source: &Source, found: usize) -> Self {
        ParseError::at(
            source,
            1,
            1,
            format!("expected exactly one puzzle, found {found}"),
        )
    }
}

/// A puzzle read from text, with the 1-based line where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedGrid {
    /// The grid.
    pub grid: Grid,
    /// The line of its first row (1-based).
    pub line: usize,
}

/// Reads every puzzle from `reader`. With `format = None` the format is detected from the
/// content (see the [module docs](self)); [`Format::Pretty`] reads as [`Format::Block`].
///
/// ```
/// use sudosat::grid::{read_puzzles, write_puzzles, Format, Source};
///
/// let text = "% a 4×4 block\n 1 . | . .\n 2 3 | . 4\n-----+-----\n . . | 3 2\n . . | . .\n";
/// let grids = read_puzzles(text.as_bytes(), &Source::Text, None).unwrap();
/// let mut out = Vec::new();
/// write_puzzles(&mut out, &grids, Format::Grid).unwrap();
/// assert_eq!(out, b"1 0 0 0\n2 3 0 4\n0 0 3 2\n0 0 0 0\n");
/// ```
///
/// # Errors
/// A [`ParseError`] naming the source, line and column of the first problem.
pub fn read_puzzles<R: Read>(
    reader: R,
    source: &Source,
    format: Option<Format>,
) -> Result<Vec<Grid>, ParseError> {
    Ok(read_located(reader, source, format)?
        .into_iter()
        .map(|p| p.grid)
        .collect())
}

/// Like [`read_puzzles`], keeping the line where each puzzle starts.
///
/// # Errors
/// A [`ParseError`] naming the source, line and column of the first problem.
pub fn read_located<R: Read>(
    reader: R,
    source: &Source,
    format: Option<Format>,
) -> Result<Vec<LocatedGrid>, ParseError> {
    let text = Text::load(reader, source)?;
    let mut parser = Parser {
        text: &text,
        source,
        out: Vec::new(),
    };
    let format = match format {
        Some(f) => f,
        None => detect(&text).ok_or_else(|| text.no_puzzle(source))?,
    };
    match format {
        Format::Line => parser.lines()?,
        Format::Block | Format::Pretty => parser.blocks()?,
        Format::Grid => parser.grids()?,
        Format::Csv2 => parser.csv2()?,
    }
    if parser.out.is_empty() {
        return Err(text.no_puzzle(source));
    }
    Ok(parser.out)
}

/// Reads every puzzle from a file, or from standard input when `path` is `-`; gzip, bzip2
/// and xz compressed inputs are decompressed ([`crate::compression`]).
///
/// # Errors
/// A [`ParseError`]; an unreadable file is reported without a position.
pub fn read_puzzles_from_path(
    path: &Path,
    format: Option<Format>,
) -> Result<Vec<Grid>, ParseError> {
    Ok(read_located_from_path(path, format)?
        .into_iter()
        .map(|p| p.grid)
        .collect())
}

/// Like [`read_puzzles_from_path`], keeping the line where each puzzle starts.
///
/// # Errors
/// A [`ParseError`]; an unreadable file is reported without a position.
pub fn read_located_from_path(
    path: &Path,
    format: Option<Format>,
) -> Result<Vec<LocatedGrid>, ParseError> {
    let read = |source: &Source, reader: &mut dyn Read| {
        let (_, plain) = crate::compression::decompressed(reader)
            .map_err(|e| ParseError::at(source, 0, 0, format!("cannot read: {e}")))?;
        read_located(plain, source, format)
    };
    if path == Path::new("-") {
        return read(&Source::Stdin, &mut std::io::stdin().lock());
    }
    let source = Source::Path(path.to_path_buf());
    let mut file = std::fs::File::open(path)
        .map_err(|e| ParseError::at(&source, 0, 0, format!("cannot open: {e}")))?;
    read(&source, &mut file)
}

/// The format [`read_puzzles`] would pick for `text` (see the [module docs](self));
/// `None` when the text holds no puzzle line at all.
pub fn detect_format(text: &str) -> Option<Format> {
    let text = Text::load(text.as_bytes(), &Source::Text).ok()?;
    detect(&text)
}

/// The whole input, checked (UTF-8, no NUL, bounded lines), each line ended by `\n` and
/// without `\r`. Lines are found again on each pass rather than indexed, so a file of
/// millions of empty lines costs no more memory than its size.
struct Text {
    buf: String,
    count: usize,
}

impl Text {
    fn load<R: Read>(reader: R, source: &Source) -> Result<Text, ParseError> {
        let mut reader = BufReader::with_capacity(1 << 16, reader);
        let mut text = Text {
            buf: String::new(),
            count: 0,
        };
        let mut line = Vec::new();
        loop {
            line.clear();
            let line_no = text.count + 1;
            let read = (&mut reader)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut line)
                .map_err(|e| ParseError::at(source, line_no, 0, format!("cannot read: {e}")))?;
            if read == 0 {
                break;
            }
            if line.last() == Some(&b'\n') {
                line.pop();
            } else if line.len() > MAX_LINE_BYTES {
                return Err(ParseError::at(
                    source,
                    line_no,
                    MAX_LINE_BYTES + 1,
                    format!(
                        "line longer than {MAX_LINE_BYTES} bytes; the largest supported grid \
                         (400×400, {MAX_CELLS} cells) never needs such a line"
                    ),
                ));
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let s = std::str::from_utf8(&line).map_err(|e| {
                let valid = std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or("");
                ParseError::at(
                    source,
                    line_no,
                    valid.chars().count() + 1,
                    format!(
                        "byte 0x{:02X} is not UTF-8 text: a binary file? expected puzzle text",
                        line[e.valid_up_to()]
                    ),
                )
            })?;
            if let Some(pos) = s.find('\0') {
                return Err(ParseError::at(
                    source,
                    line_no,
                    s[..pos].chars().count() + 1,
                    "NUL byte: a binary file? expected puzzle text",
                ));
            }
            let s = if line_no == 1 {
                s.strip_prefix('\u{FEFF}').unwrap_or(s)
            } else {
                s
            };
            text.buf.push_str(s);
            text.buf.push('\n');
            text.count += 1;
        }
        Ok(text)
    }

    fn iter(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.buf
            .split_terminator('\n')
            .zip(1..)
            .map(|(l, no)| (no, l))
    }

    /// Lines that are neither blank nor comments, with 1-based numbers.
    fn significant(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.iter().filter(|(_, l)| !blank_or_comment(l))
    }

    fn no_puzzle(&self, source: &Source) -> ParseError {
        if self.count == 0 {
            ParseError::at(source, 1, 1, "empty input; expected at least one puzzle")
        } else {
            ParseError::at(
                source,
                self.count + 1,
                1,
                "end of input: no puzzle found, only comment and blank lines",
            )
        }
    }
}

fn is_cell_count(count: usize) -> bool {
    count <= MAX_CELLS && box_size_of_cell_count(count).is_some()
}

fn is_side(n: usize) -> bool {
    box_size_of_side(n).is_some()
}

/// 1-based character column of a byte offset in a line.
fn column(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

fn valid_counts_hint(count: usize) -> String {
    let nearest = (2..=MAX_BOX_SIZE)
        .map(|b| b.pow(4))
        .min_by_key(|&c| c.abs_diff(count))
        .unwrap_or(81);
    format!(
        "a grid of b×b boxes has b⁴ cells: 16, 81, 256, 625, … up to {MAX_CELLS} (nearest: {nearest})"
    )
}

fn valid_sides_hint() -> &'static str {
    "a row of a grid with b×b boxes has n = b² cells: 4, 9, 16, 25, 36, …, 400"
}

fn detect(text: &Text) -> Option<Format> {
    let (_, first) = text.significant().next()?;
    let t = first.trim();
    if csv_header(t) {
        return Some(Format::Csv2);
    }
    let body = line_body(t);
    let compact = !body.is_empty() && body.chars().all(|c| symbol_value(c).is_some());
    if compact && is_cell_count(body.len()) {
        if body.len() != 16 {
            return Some(Format::Line);
        }
        let rows: Vec<&str> = text
            .significant()
            .take(16)
            .map(|(_, l)| line_body(l.trim()))
            .collect();
        let block = rows.len() == 16
            && rows.iter().all(|r| r.len() == 16)
            && rows
                .iter()
                .flat_map(|r| r.chars())
                .any(|c| symbol_value(c).is_some_and(|v| v > 4));
        return Some(if block { Format::Block } else { Format::Line });
    }
    // block rows and grid rows carry no comments: look before any `#`, `;` or `,`
    let head = t.split(['#', ';', ',']).next().unwrap_or("");
    // `-1` is a negative number (which the grid reader then names), not a rule.
    let negative = |at: usize| head[at + 1..].starts_with(|c: char| c.is_ascii_digit());
    if head
        .char_indices()
        .any(|(at, c)| is_rule_char(c) && !(c == '-' && negative(at)))
    {
        return Some(Format::Block);
    }
    let toks: Vec<&str> = tokens(head, false).map(|(_, tok)| tok).collect();
    if toks.len() >= 2 {
        if toks.iter().all(|tok| integer_token(tok).is_some()) {
            let single = toks.iter().all(|tok| tok.len() == 1);
            let letters = single
                && text
                    .significant()
                    .take(MAX_BOX_SIZE * MAX_BOX_SIZE)
                    .flat_map(|(_, l)| tokens(l, true))
                    .any(|(_, tok)| tok.chars().any(|c| c.is_ascii_alphabetic()));
            return Some(if letters { Format::Block } else { Format::Grid });
        }
        let numeric = |tok: &&str| {
            tok.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '_')
        };
        let integer = |tok: &&str| tok.len() > 1 && tok.bytes().all(|b| b.is_ascii_digit());
        let negative = |tok: &&str| {
            tok.strip_prefix('-')
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        };
        let numbers = toks.iter().all(|tok| numeric(tok) || negative(tok));
        if numbers && (toks.iter().any(integer) || toks.iter().any(negative)) {
            return Some(Format::Grid);
        }
        if toks
            .iter()
            .all(|tok| tok.chars().all(|c| symbol_value(c).is_some()))
        {
            return Some(Format::Block);
        }
        return Some(Format::Line);
    }
    if compact && (body.len() <= 35 || is_side(body.len())) {
        // rows of n = b² symbols are block rows; other short rows repeated on the next
        // line are a block of an unsupported size, which the block reader explains
        let next = text
            .significant()
            .nth(1)
            .map(|(_, l)| line_body(l.trim()).len());
        if is_side(body.len()) || next == Some(body.len()) {
            return Some(Format::Block);
        }
    }
    Some(Format::Line)
}

/// One parse of one text: the parsers for each format push into `out`.
struct Parser<'a> {
    text: &'a Text,
    source: &'a Source,
    out: Vec<LocatedGrid>,
}

impl Parser<'_> {
    fn err(&self, line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(self.source, line, column, message)
    }

    fn push(&mut self, values: Vec<u16>, line: usize) {
        let grid = Grid::from_values(values).expect("parsers check sizes and digits");
        self.out.push(LocatedGrid { grid, line });
    }

    /// The side n of a grid of `count` cells, or the "found N cells" error at `column`
    /// (counted only then: a line's characters are not counted for every puzzle).
    fn side_of(
        &self,
        count: usize,
        no: usize,
        column: impl FnOnce() -> usize,
    ) -> Result<usize, ParseError> {
        match box_size_of_cell_count(count) {
            Some(b) if count <= MAX_CELLS => Ok(b * b),
            _ => Err(self.err(
                no,
                column(),
                format!(
                    "found {}; {}",
                    plural(count, "cell"),
                    valid_counts_hint(count)
                ),
            )),
        }
    }

    /// The cells of a `line`-format body starting at byte `offset` of `raw`: symbols only,
    /// b⁴ of them, none above n.
    fn line_cells(
        &self,
        no: usize,
        raw: &str,
        offset: usize,
        body: &str,
    ) -> Result<Vec<u16>, ParseError> {
        let mut values = Vec::with_capacity(body.len());
        let rest = lex::symbols(body, &mut values);
        if let Some(ch) = rest.chars().next() {
            return Err(self.err(
                no,
                column(raw, offset + body.len() - rest.len()),
                format!(
                    "unexpected character {ch:?}; expected a digit 1-9, a letter \
                     A-Z for 10-35, or a blank '.', '0' or '_'"
                ),
            ));
        }
        let n = self.side_of(values.len(), no, || column(raw, offset + body.len()))?;
        if let Some(i) = values.iter().position(|&v| v as usize > n) {
            return Err(self.err(
                no,
                column(raw, offset + i),
                too_large(&body[i..], values[i], n, i),
            ));
        }
        Ok(values)
    }

    fn lines(&mut self) -> Result<(), ParseError> {
        for (no, raw) in self.text.iter() {
            if blank_or_comment(raw) {
                continue;
            }
            let t = raw.trim_start();
            let indent = raw.len() - t.len();
            let body = line_body(t);
            if body.len() > MAX_CELLS {
                return Err(self.err(
                    no,
                    column(raw, indent) + MAX_CELLS,
                    format!(
                        "line has more than {MAX_CELLS} cells, the largest supported grid \
                         (400×400)"
                    ),
                ));
            }
            let values = self.line_cells(no, raw, indent, body)?;
            self.push(values, no);
        }
        Ok(())
    }

    fn grids(&mut self) -> Result<(), ParseError> {
        let mut n = 0;
        let mut rows = 0;
        let mut start = 0;
        let mut values: Vec<u16> = Vec::new();
        for (no, raw) in self.text.iter() {
            if blank_or_comment(raw) {
                if rows > 0 {
                    return Err(self.err(
                        no,
                        1,
                        format!(
                            "the grid starting at line {start} has {}; expected {n} \
                             (one per value of its first row)",
                            plural(rows, "row")
                        ),
                    ));
                }
                continue;
            }
            if rows == 0 {
                let count = tokens(raw, false).count();
                if let Some((at, msg)) = tokens(raw, false)
                    .find_map(|(at, tok)| grid_token(tok, MAX_SIDE).err().map(|m| (at, m)))
                {
                    return Err(self.err(no, column(raw, at), msg));
                }
                if !is_side(count) {
                    return Err(self.err(
                        no,
                        column(raw, raw.trim_end().len()),
                        format!(
                            "first row has {}; {}",
                            plural(count, "value"),
                            valid_sides_hint()
                        ),
                    ));
                }
                n = count;
                start = no;
                values = Vec::with_capacity(n * n);
            }
            let mut in_row = 0;
            for (at, tok) in tokens(raw, false) {
                in_row += 1;
                if in_row > n {
                    return Err(self.err(
                        no,
                        column(raw, at),
                        format!(
                            "row {} has more than {n} values (ragged rows: the grid starting \
                             at line {start} has {n} per row)",
                            rows + 1
                        ),
                    ));
                }
                let v = grid_token(tok, n).map_err(|msg| {
                    let msg = msg.replace("{cell}", &format!("r{}c{in_row}", rows + 1));
                    self.err(no, column(raw, at), msg)
                })?;
                values.push(v);
            }
            if in_row < n {
                return Err(self.err(
                    no,
                    column(raw, raw.trim_end().len()),
                    format!(
                        "row {} has {}; expected {n} (ragged rows: the grid \
                         starting at line {start} has {n} per row)",
                        rows + 1,
                        plural(in_row, "value")
                    ),
                ));
            }
            rows += 1;
            if rows == n {
                self.push(std::mem::take(&mut values), start);
                rows = 0;
            }
        }
        if rows > 0 {
            return Err(self.err(
                self.text.count + 1,
                1,
                format!(
                    "end of input: the grid starting at line {start} has {}; expected {n}",
                    plural(rows, "row")
                ),
            ));
        }
        Ok(())
    }

    fn blocks(&mut self) -> Result<(), ParseError> {
        let mut n = 0;
        let mut rows = 0;
        let mut start = 0;
        let mut values: Vec<u16> = Vec::new();
        let mut row: Vec<(usize, u16)> = Vec::new();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for (no, raw) in self.text.iter() {
            let t = raw.trim();
            if blank_or_comment(t) {
                let b = box_size_of_side(n).unwrap_or(1);
                if rows > 0 && rows % b != 0 {
                    return Err(self.err(
                        no,
                        1,
                        format!(
                            "the block starting at line {start} has {}; expected {n}",
                            plural(rows, "row")
                        ),
                    ));
                }
                continue;
            }
            if rule_line(t) {
                continue;
            }
            block_row(
                raw,
                if rows == 0 { None } else { Some(n) },
                &mut row,
                &mut spans,
            )
            .map_err(|(at, msg)| self.err(no, column(raw, at), msg))?;
            if rows == 0 {
                n = row.len();
                if !is_side(n) {
                    return Err(self.err(
                        no,
                        column(raw, raw.trim_end().len()),
                        format!("row has {}; {}", plural(n, "cell"), valid_sides_hint()),
                    ));
                }
                start = no;
                values = Vec::with_capacity(n * n);
            } else if row.len() != n {
                let hint = if row.len() < n && t.contains(' ') {
                    " (spaces only separate cells: write every blank as '.', '0' or '_')"
                } else {
                    ""
                };
                return Err(self.err(
                    no,
                    column(raw, raw.trim_end().len()),
                    format!(
                        "row {} has {}; expected {n} like the first row (line {start}){hint}",
                        rows + 1,
                        plural(row.len(), "cell")
                    ),
                ));
            }
            if let Some(&(at, v)) = row.iter().find(|(_, v)| *v as usize > n) {
                return Err(self.err(
                    no,
                    column(raw, at),
                    too_large(
                        &raw[at..],
                        v,
                        n,
                        rows * n + row.iter().position(|c| c.0 == at).unwrap_or(0),
                    ),
                ));
            }
            values.extend(row.iter().map(|&(_, v)| v));
            rows += 1;
            if rows == n {
                self.push(std::mem::take(&mut values), start);
                rows = 0;
                n = 0;
            }
        }
        if rows > 0 {
            return Err(self.err(
                self.text.count + 1,
                1,
                format!(
                    "end of input: the block starting at line {start} has {}; expected {n}",
                    plural(rows, "row")
                ),
            ));
        }
        Ok(())
    }

    /// A CSV with a header naming the puzzle column: our csv2 (`puzzle`, two digits per
    /// cell) or the public Kaggle sets (`quizzes,solutions`, one symbol per cell, as in
    /// `line`). Each field is read by its length: b⁴ symbols is a line, 2·b⁴ digits is csv2
    /// (no length is both).
    fn csv2(&mut self) -> Result<(), ParseError> {
        let mut column_index = None;
        for (no, raw) in self.text.iter() {
            let t = raw.trim();
            if t.is_empty() {
                continue;
            }
            let Some(index) = column_index else {
                let Some(index) = csv_header_column(t) else {
                    return Err(self.err(
                        no,
                        1,
                        format!(
                            "expected a CSV header line naming a `puzzle` (or `quizzes`) \
                             column, found {:?}",
                            short(t)
                        ),
                    ));
                };
                column_index = Some(index);
                continue;
            };
            let Some((offset, field)) = csv_field(raw, index) else {
                return Err(self.err(
                    no,
                    column(raw, raw.trim_end().len()),
                    format!(
                        "{}; the header puts the puzzle in field {}",
                        plural(raw.split(',').count(), "field"),
                        index + 1
                    ),
                ));
            };
            let values = if is_cell_count(field.len()) {
                self.line_cells(no, raw, offset, field)?
            } else {
                self.csv2_cells(no, raw, offset, field)?
            };
            self.push(values, no);
        }
        if column_index.is_some() && self.out.is_empty() {
            return Err(self.err(
                self.text.count + 1,
                1,
                "end of input: a CSV header but no puzzle lines",
            ));
        }
        Ok(())
    }

    /// The cells of a two-digits-per-cell csv2 field starting at byte `offset` of `raw`.
    fn csv2_cells(
        &self,
        no: usize,
        raw: &str,
        offset: usize,
        field: &str,
    ) -> Result<Vec<u16>, ParseError> {
        let (rest, _) = lex::csv2_field(field);
        if let Some(ch) = rest.chars().next() {
            return Err(self.err(
                no,
                column(raw, offset + field.len() - rest.len()),
                format!(
                    "unexpected character {ch:?}; csv2 cells are two decimal digits (or a \
                     field of b⁴ one-symbol cells, as in the line format)"
                ),
            ));
        }
        if field.len() % 2 == 1 {
            return Err(self.err(
                no,
                column(raw, offset + field.len() - 1),
                format!(
                    "odd number of digits ({}); csv2 needs exactly two digits per cell",
                    field.len()
                ),
            ));
        }
        let count = field.len() / 2;
        let n = self.side_of(count, no, || column(raw, offset + field.len()))?;
        if n >= 100 {
            return Err(self.err(
                no,
                1,
                format!("csv2 holds grids up to 81×81 (two digits per cell), not {n}×{n}"),
            ));
        }
        let mut values = Vec::with_capacity(count);
        lex::csv2_cells(field, &mut values);
        if let Some((i, &v)) = values.iter().enumerate().find(|(_, &v)| v as usize > n) {
            return Err(self.err(
                no,
                column(raw, offset + 2 * i),
                format!(
                    "value {v} is larger than {n} in a {n}×{n} grid (cell {})",
                    cell_label(i, n)
                ),
            ));
        }
        Ok(values)
    }
}

/// The `index`-th comma-separated field of `raw` (0-based), trimmed and without double
/// quotes, with its byte offset; `None` when the line has fewer fields.
fn csv_field(raw: &str, index: usize) -> Option<(usize, &str)> {
    let mut start = 0;
    for (i, field) in raw.split(',').enumerate() {
        if i == index {
            let lead = field.len() - field.trim_start().len();
            let mut body = field.trim();
            let mut offset = start + lead;
            if body.len() >= 2 && body.starts_with('"') && body.ends_with('"') {
                body = &body[1..body.len() - 1];
                offset += 1;
            }
            return Some((offset, body));
        }
        start += field.len() + 1;
    }
    None
}

/// The largest side n.
const MAX_SIDE: usize = MAX_BOX_SIZE * MAX_BOX_SIZE;

/// The value of one grid-format token in an n×n grid, or what is wrong with it (the
/// message holds `{cell}` for the caller to fill in).
fn grid_token(tok: &str, n: usize) -> Result<u16, String> {
    match integer_token(tok) {
        Some(v) if v as usize <= n => Ok(v as u16),
        Some(v) => Err(format!(
            "value {v} is larger than {n} in a {n}×{n} grid (cell {{cell}})"
        )),
        None if tok.chars().all(|c| symbol_value(c) == Some(0)) => Err(format!(
            "{tok:?} is not one cell: in the grid format every cell, blanks included, is its \
             own whitespace-separated token ('0' or '.')"
        )),
        None if tok.len() > 1 && tok.starts_with('-') && integer_token(&tok[1..]).is_some() => {
            Err(format!(
                "negative number {tok:?}; a cell is a digit from 1, with '0' or '.' for a blank"
            ))
        }
        None => Err(format!(
            "unexpected {tok:?}; expected an integer 0-{n} or '.' for a blank"
        )),
    }
}

/// The message for a cell symbol, written at the start of `written`, whose value is above
/// the grid's side `n`; a letter in a grid of side 9 or less is named as not a digit there
/// (letters stand for 10…35 only in the larger grids).
fn too_large(written: &str, value: u16, n: usize, cell: usize) -> String {
    let cell = cell_label(cell, n);
    match written.chars().next() {
        Some(ch) if ch.is_ascii_alphabetic() && n <= 9 => format!(
            "{ch:?} is not a digit of a {n}×{n} grid (cell {cell}); expected 1-{n} or a blank \
             '.', '0' or '_' (letters A-Z stand for 10-35 in grids of 16×16 and up)"
        ),
        Some(ch) if ch.is_ascii_alphabetic() => {
            format!("digit {ch:?} ({value}) is larger than {n} in a {n}×{n} grid (cell {cell})")
        }
        Some(ch) if value <= 9 => {
            format!("digit {ch:?} is larger than {n} in a {n}×{n} grid (cell {cell})")
        }
        _ => format!("digit {value} is larger than {n} in a {n}×{n} grid (cell {cell})"),
    }
}

fn cell_label(index: usize, n: usize) -> String {
    format!("r{}c{}", index / n + 1, index % n + 1)
}

fn short(t: &str) -> String {
    t.chars().take(40).collect()
}

/// Reads one block row into `row` as (byte offset, value) pairs. With `expected = Some(n)`,
/// whitespace-separated cells are read when there are n of them; otherwise (and for
/// compact rows) every non-separator character is one cell. The row is split into tokens
/// once (`spans`, byte ranges, a buffer kept across rows): this runs on every row.
fn block_row(
    raw: &str,
    expected: Option<usize>,
    row: &mut Vec<(usize, u16)>,
    spans: &mut Vec<(usize, usize)>,
) -> Result<(), (usize, String)> {
    row.clear();
    spans.clear();
    spans.extend(tokens(raw, true).map(|(at, tok)| (at, at + tok.len())));
    let spaced = match expected {
        Some(n) => spans.len() == n,
        None => is_side(spans.len()),
    };
    if spaced {
        for &(at, end) in spans.iter() {
            match cell_token(&raw[at..end]) {
                Some(v) => row.push((at, v)),
                None => break,
            }
        }
        if row.len() == spans.len() {
            return Ok(());
        }
        row.clear();
    }
    for &(at, end) in spans.iter() {
        for (i, ch) in raw[at..end].char_indices() {
            match symbol_value(ch) {
                Some(v) => row.push((at + i, v)),
                None => {
                    return Err((
                        at + i,
                        format!(
                            "unexpected character {ch:?}; expected a digit 1-9, a letter A-Z \
                             for 10-35, a blank '.', '0' or '_', or a rule '|'"
                        ),
                    ))
                }
            }
        }
    }
    Ok(())
}

/// Parses one puzzle in the `line` format (see [`self`] for every format and many puzzles).
impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Grid, ParseError> {
        let mut puzzles = read_puzzles(s.as_bytes(), &Source::Text, Some(Format::Line))?;
        match puzzles.len() {
            1 => Ok(puzzles.remove(0)),
            _ => Err(ParseError::expected_one_puzzle(
                &Source::Text,
                puzzles.len(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, format: Option<Format>) -> Result<Vec<Grid>, ParseError> {
        read_puzzles(text.as_bytes(), &Source::Text, format)
    }

    fn err(text: &str) -> String {
        read(text, None).unwrap_err().to_string()
    }

    const SOLVED_4: &str = "1234341221434321";

    #[test]
    fn line_format_with_comments_and_blank_styles() {
        let text = "# header\n1.3_...1..4..2.4 # comment\n\n0000000000000000;x\n";
        let grids = read(text, None).unwrap();
        assert_eq!(grids.len(), 2);
        assert_eq!(grids[0].to_line().unwrap(), "1.3....1..4..2.4");
        assert_eq!(grids[1].num_givens(), 0);
    }

    #[test]
    fn detection_rules() {
        let debian = " . . 9 | . 8 1 | . . .\n-------+-------+-------\n";
        assert_eq!(detect_format(debian), Some(Format::Block));
        assert_eq!(detect_format("puzzle\r\n0102\r\n"), Some(Format::Csv2));
        assert_eq!(detect_format("0 15 0 1\n"), Some(Format::Grid));
        assert_eq!(detect_format("1 0 0 0\n"), Some(Format::Grid));
        assert_eq!(
            detect_format("*-----------*\n|1..|...|..2|\n"),
            Some(Format::Block)
        );
        assert_eq!(detect_format(&".".repeat(81)), Some(Format::Line));
        assert_eq!(detect_format("..9.81...\n"), Some(Format::Block));
        assert_eq!(detect_format("# only\n% comments\n"), None);
        // a comment's rules do not make a line a block row
        let commented = format!("{} # rated 3-4 | x\n", ".".repeat(80));
        assert_eq!(detect_format(&commented), Some(Format::Line));
        assert!(err(&commented).starts_with("<text>:1:81: found 80 cells"));
        // sixteen 16-symbol lines: 4×4 puzzles unless a symbol above 4 appears
        let fours = format!("{SOLVED_4}\n").repeat(16);
        assert_eq!(detect_format(&fours), Some(Format::Line));
        let sixteen = "123456789ABCDEFG\n".repeat(16);
        assert_eq!(detect_format(&sixteen), Some(Format::Block));
        // 36 symbols a row: a 36×36 block (its digit 36 has no symbol, so it is blank)
        let row = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.";
        assert_eq!(detect_format(&format!("{row}\n")), Some(Format::Block));
    }

    #[test]
    fn nine_rows_of_nine_digits_are_one_block() {
        let rows = [
            "534678912",
            "672195348",
            "198342567",
            "859761423",
            "426853791",
            "713924856",
            "961537284",
            "287419635",
            "345286179",
        ];
        let grids = read(&rows.join("\n"), None).unwrap();
        assert_eq!(grids.len(), 1);
        assert_eq!(grids[0].to_line().unwrap(), rows.concat());
    }

    #[test]
    fn block_styles_agree() {
        let line =
            "..9.81.....23..4.....2...59..84..7.6.4.....3.3.5..28..76...5.....3..41.....93.2..";
        let debian = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/debian-fiendish.txt"
        ))
        .unwrap();
        let simple = "*-----------*\n|..9|.81|...|\n|..2|3..|4..|\n|...|2..|.59|\n\
                      |---+---+---|\n|..8|4..|7.6|\n|.4.|...|.3.|\n|3.5|..2|8..|\n\
                      |---+---+---|\n|76.|..5|...|\n|..3|..4|1..|\n|...|93.|2..|\n*-----------*\n";
        let qqwing = " . . 9 | . 8 1 | . . .\n . . 2 | 3 . . | 4 . .\n . . . | 2 . . | . 5 9\n \
                      -------|-------|-------\n . . 8 | 4 . . | 7 . 6\n . 4 . | . . . | . 3 .\n \
                      3 . 5 | . . 2 | 8 . .\n -------|-------|-------\n 7 6 . | . . 5 | . . .\n \
                      . . 3 | . . 4 | 1 . .\n . . . | 9 3 . | 2 . .\n";
        for text in [debian.as_str(), simple, qqwing] {
            let grids = read(text, None).unwrap();
            assert_eq!(grids.len(), 1, "{text}");
            assert_eq!(grids[0].to_line().unwrap(), line);
        }
    }

    #[test]
    fn blank_lines_between_bands_are_allowed_inside_a_block() {
        let text = "12 34\n34 12\n\n21 43\n43 21\n\n1.3.\n...1\n..4.\n.2.4\n";
        let grids = read(text, Some(Format::Block)).unwrap();
        assert_eq!(grids.len(), 2);
        assert_eq!(grids[0].to_line().unwrap(), "1234341221434321");
    }

    #[test]
    fn project_euler_titles_are_comments() {
        let rows = "003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n\
                    002609500\n800203009\n005010300\n";
        let text = format!("Grid 01\n{rows}Grid 02\n{rows}");
        let grids = read(&text, None).unwrap();
        assert_eq!(grids.len(), 2);
        assert_eq!(grids[1].num_givens(), 32);
    }

    #[test]
    fn grid_format_many_puzzles() {
        let text =
            "1 0 0 0\n2 3 0 4\n0 0 3 2\n0 0 0 0\n\n# next\n. 2 . 1\n0 0 0 0\n0 0 0 0\n4 0 2 0\n";
        let grids = read(text, None).unwrap();
        assert_eq!(grids.len(), 2);
        assert_eq!(grids[1].to_line().unwrap(), ".2.1........4.2.");
    }

    #[test]
    fn csv_with_a_named_puzzle_column_in_either_cell_form() {
        let line = "1.3....1..4..2.4";
        let kaggle = format!("quizzes,solutions\n{},x\n", line.replace('.', "0"));
        let radcliffe = format!("id,puzzle,solution,clues,difficulty\r\n1,{line},x,5,0.0\r\n");
        let quoted = format!("\"id\",\"Puzzle\"\n\"7\", \"{line}\"\n");
        let two_digits = "id,puzzle\n1,01000000000000000000000000000004\n";
        for text in [kaggle.as_str(), &radcliffe, &quoted] {
            let grids = read(text, None).unwrap();
            assert_eq!(grids, read(line, None).unwrap(), "{text}");
        }
        assert_eq!(read(two_digits, None).unwrap()[0].values()[15], 4);
        assert_eq!(
            err("id,puzzle\n1\n"),
            "<text>:2:2: 1 field; the header puts the puzzle in field 2"
        );
        assert!(err("quizzes\n1.3....1..4..2.x\n").starts_with("<text>:2:16: 'x' is not a digit"));
        // A comment after a line puzzle is no header.
        assert_eq!(read(&format!("{line},puzzle\n"), None).unwrap().len(), 1);
    }

    #[test]
    fn a_negative_number_is_named_not_taken_for_a_rule() {
        for text in ["1 . -1 .\n", "1 2 . . -12 .\n"] {
            assert!(
                err(text).contains("negative number \"-1"),
                "{text}: {}",
                err(text)
            );
        }
        // A rule line still makes a block.
        assert_eq!(detect_format("12|34\n--+--\n"), Some(Format::Block));
        assert_eq!(detect_format("1 2 | 3 4\n"), Some(Format::Block));
    }

    #[test]
    fn csv2_with_crlf_and_extra_fields() {
        let text = "puzzle,solution\r\n01000000000000000000000000000004,x\r\n";
        let grids = read(text, None).unwrap();
        assert_eq!(grids[0].values()[0], 1);
        assert_eq!(grids[0].values()[15], 4);
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err(""),
            "<text>:1:1: empty input; expected at least one puzzle"
        );
        assert_eq!(
            err("# a\n\n"),
            "<text>:3:1: end of input: no puzzle found, only comment and blank lines"
        );
        assert!(err("1.3....1..4..2.@\n").starts_with("<text>:1:16: unexpected character '@'"));
        assert!(err("1.3....1..4..2.5\n").starts_with("<text>:1:16: digit '5' is larger than 4"));
        assert!(err("1.3x............\n")
            .starts_with("<text>:1:4: 'x' is not a digit of a 4×4 grid (cell r1c4); expected 1-4"));
        assert!(err("1|2|3|4\nz|.|.|.\n-+-+-+-\n.|.|.|.\n.|.|.|.\n")
            .starts_with("<text>:2:1: 'z' is not a digit of a 4×4 grid (cell r2c1)"));
        let mut wide = ".".repeat(256);
        wide.replace_range(17..18, "Z");
        assert!(err(&wide).starts_with("<text>:1:18: digit 'Z' (35) is larger than 16"));
        assert!(err(&".".repeat(80)).starts_with("<text>:1:81: found 80 cells;"));
        assert!(err("7\n").starts_with("<text>:1:2: found 1 cell;"));
        assert!(err("1 0 0 0\n2 3 0\n").starts_with("<text>:2:6: row 2 has 3 values; expected 4"));
        assert!(err("1 0 0 0 0 0\n").contains("first row has 6 values"));
        assert!(read("1 .. 0 0\n", Some(Format::Grid))
            .unwrap_err()
            .to_string()
            .starts_with("<text>:1:3: \"..\" is not one cell"));
        assert!(err("puzzle\n010\n").starts_with("<text>:2:3: odd number of digits (3)"));
        assert!(err("a\u{0}b\n").starts_with("<text>:1:2: NUL byte"));
    }

    #[test]
    fn non_utf8_and_long_lines() {
        let e = read_puzzles(&b"12\xff"[..], &Source::Text, None).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        assert!(e.message.contains("0xFF"));
        let long = vec![b'1'; MAX_LINE_BYTES + 10];
        let e = read_puzzles(&long[..], &Source::Text, None).unwrap_err();
        assert_eq!((e.line, e.column), (1, MAX_LINE_BYTES + 1));
        let e = read(&"1".repeat(MAX_CELLS + 1), None).unwrap_err();
        assert!(e.message.contains("more than 160000 cells"), "{e}");
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics(
            text in "[0-9A-Za-z._|+*#%,; \\-│─┼\r\n\t\u{0}é]{0,400}",
            lines in proptest::collection::vec("[0-9. |-]{0,20}", 0..20),
        ) {
            for input in [text, lines.join("\n")] {
                for format in [None, Some(Format::Line), Some(Format::Block), Some(Format::Grid), Some(Format::Csv2)] {
                    if let Err(e) = read(&input, format) {
                        proptest::prop_assert!(e.line >= 1 && e.column >= 1, "{e}");
                    }
                }
            }
        }
    }

    #[test]
    fn large_grid_parses() {
        let n = 400;
        let mut text = String::new();
        for r in 0..n {
            let row: Vec<String> = (0..n)
                .map(|c| ((r * 20 + r / 20 + c) % n + 1).to_string())
                .collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        let grids = read(&text, None).unwrap();
        assert_eq!(grids[0].side(), 400);
        assert!(crate::grid::check_grid(&grids[0]).is_valid());
    }
}
