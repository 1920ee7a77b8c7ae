//! Reading puzzles in every supported text format, many per file, with positioned errors.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{Format, Grid};

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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}:{column}: {message}")]
pub struct ParseError {
    /// The file name, `<stdin>` or `<text>`.
    pub source_name: String,
    /// 1-based line (0 when the error concerns the whole input).
    pub line: usize,
    /// 1-based column (0 when the error concerns a whole line).
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
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

/// Reads every puzzle from `reader`. With `format = None` the format is detected from the
/// content.
///
/// # Errors
/// A [`ParseError`] naming the source, line and column of the first problem.
pub fn read_puzzles<R: Read>(
    mut reader: R,
    source: &Source,
    format: Option<Format>,
) -> Result<Vec<Grid>, ParseError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| ParseError::at(source, 0, 0, format!("cannot read: {e}")))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| ParseError::at(source, 0, 0, format!("not UTF-8 text: {e}")))?;
    let format = format.unwrap_or(Format::Line);
    match format {
        Format::Line => parse_lines(text, source),
        other => Err(ParseError::at(
            source,
            0,
            0,
            format!("reading the {other} format is not supported yet"),
        )),
    }
}

/// Reads every puzzle from a file, or from standard input when `path` is `-`.
///
/// # Errors
/// A [`ParseError`]; an unreadable file is reported at line 0.
pub fn read_puzzles_from_path(path: &Path, format: Option<Format>) -> Result<Vec<Grid>, ParseError> {
    if path == Path::new("-") {
        return read_puzzles(std::io::stdin().lock(), &Source::Stdin, format);
    }
    let source = Source::Path(path.to_path_buf());
    let file = std::fs::File::open(path)
        .map_err(|e| ParseError::at(&source, 0, 0, format!("cannot open: {e}")))?;
    read_puzzles(std::io::BufReader::new(file), &source, format)
}

fn parse_lines(text: &str, source: &Source) -> Result<Vec<Grid>, ParseError> {
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let body = line
            .split(|c: char| c.is_whitespace() || matches!(c, '#' | ',' | ';'))
            .next()
            .unwrap_or("");
        if body.is_empty() {
            continue;
        }
        let mut values = Vec::with_capacity(body.len());
        for (col, ch) in body.chars().enumerate() {
            let v = match ch {
                '.' | '0' | '_' => 0,
                _ => match super::Digit::from_symbol(ch) {
                    Some(d) => d.0,
                    None => {
                        return Err(ParseError::at(
                            source,
                            i + 1,
                            col + 1,
                            format!("unexpected character {ch:?}; expected a digit or a blank"),
                        ))
                    }
                },
            };
            values.push(v);
        }
        let count = values.len();
        let grid = Grid::from_values(values).ok_or_else(|| {
            ParseError::at(
                source,
                i + 1,
                0,
                format!("{count} cells is not a square grid of b×b boxes (expected 16, 81, 256, …)"),
            )
        })?;
        puzzles.push(grid);
    }
    if puzzles.is_empty() {
        return Err(ParseError::at(source, 0, 0, "no puzzle found"));
    }
    Ok(puzzles)
}
