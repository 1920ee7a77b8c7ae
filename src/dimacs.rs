//! DIMACS CNF writing and streaming parsing; solver model readers (MiniSat result files and
//! SAT-competition `s`/`v` output).
//!
//! The format is the one of the DIMACS challenge (1993) as used by the SAT competitions: a
//! `p cnf V C` header, clauses as signed integers ending in `0`, `c` comment lines. Like
//! varisat's `varisat-dimacs`, the parser streams from any [`Read`] into a [`ClauseSink`] and
//! its errors carry the line and column.
//!
//! Files written by [`write_cnf`] describe themselves in their leading comments
//! ([`CnfDescription`]): tool and version, encoding, box size and the puzzle, so that a model
//! can be decoded from the CNF file alone.

use std::io::{self, BufRead, BufReader, Read, Write};

use crate::encode::{Encoding, SudokuEncoding};
use crate::formula::{ClauseSink, Cnf, FormulaSize, Lit, Model};
use crate::grid::Grid;

/// A DIMACS or model file that could not be read, with its position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}:{column}: {message}")]
pub struct DimacsError {
    /// File name, `<stdin>` or a solver's name.
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl DimacsError {
    /// An error at a position.
    pub fn at(source_name: &str, line: usize, column: usize, message: impl Into<String>) -> Self {
        DimacsError {
            source_name: source_name.to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

/// A streaming DIMACS writer: a [`ClauseSink`] that formats each clause as it arrives (fast
/// integer formatting, no formula held in memory).
///
/// Write the comments and the header first ([`DimacsWriter::comment`],
/// [`DimacsWriter::header`]), then add clauses, then call [`DimacsWriter::finish`], which
/// reports the first I/O error (a sink cannot fail clause by clause).
pub struct DimacsWriter<W: Write> {
    out: W,
    error: Option<io::Error>,
    clauses: usize,
    line: Vec<u8>,
}

impl<W: Write> DimacsWriter<W> {
    /// A writer over `out` (wrap files in a [`std::io::BufWriter`]).
    pub fn new(out: W) -> Self {
        DimacsWriter {
            out,
            error: None,
            clauses: 0,
            line: Vec::with_capacity(256),
        }
    }

    fn record(&mut self, result: io::Result<()>) {
        if let Err(e) = result {
            self.error.get_or_insert(e);
        }
    }

    /// Writes one `c` comment line per line of `text`.
    pub fn comment(&mut self, text: &str) {
        for line in text.lines() {
            let r = if line.is_empty() {
                self.out.write_all(b"c\n")
            } else {
                writeln!(self.out, "c {line}")
            };
            self.record(r);
        }
    }

    /// Writes the `p cnf V C` header.
    pub fn header(&mut self, num_vars: usize, num_clauses: usize) {
        let r = writeln!(self.out, "p cnf {num_vars} {num_clauses}");
        self.record(r);
    }

    /// Clauses written so far.
    pub fn clauses_written(&self) -> usize {
        self.clauses
    }

    /// Flushes and returns the inner writer.
    ///
    /// # Errors
    /// The first I/O error met while writing.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn add_clause(&mut self, clause: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        let mut buf = itoa::Buffer::new();
        self.line.clear();
        for &lit in clause {
            self.line
                .extend_from_slice(buf.format(lit.to_dimacs()).as_bytes());
            self.line.push(b' ');
        }
        self.line.extend_from_slice(b"0\n");
        self.clauses += 1;
        let r = self.out.write_all(&self.line);
        self.record(r);
    }
}

/// Writes an in-memory formula as DIMACS (header from the formula's size).
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_formula<W: Write>(out: W, cnf: &Cnf) -> io::Result<()> {
    let mut w = DimacsWriter::new(io::BufWriter::new(out));
    w.header(cnf.num_vars(), cnf.num_clauses());
    for clause in cnf.clauses() {
        w.add_clause(clause);
    }
    w.finish()?;
    Ok(())
}

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

/// Reads the leading comments of a DIMACS file (up to the `p` header) and returns their
/// text without the `c` prefixes. Does not read the clauses.
///
/// # Errors
/// An I/O error as a [`DimacsError`] at the line reached.
pub fn read_preamble<R: Read>(reader: R, source_name: &str) -> Result<Vec<String>, DimacsError> {
    let mut lines = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|e| DimacsError::at(source_name, i + 1, 1, e.to_string()))?;
        let t = line.trim_start();
        if t.starts_with('p') {
            break;
        }
        if let Some(rest) = t.strip_prefix('c') {
            lines.push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
        }
    }
    Ok(lines)
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

// ---------------------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------------------

/// A token of a DIMACS-like text.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    /// A signed integer.
    Int(i64),
    /// Any other whitespace-free word.
    Word(String),
}

/// Byte scanner with line/column tracking over a buffered reader.
struct Scanner<R: Read> {
    reader: BufReader<R>,
    source: String,
    line: usize,
    column: usize,
    /// Whether no token has been read on the current line yet.
    at_line_start: bool,
}

impl<R: Read> Scanner<R> {
    fn new(reader: R, source: &str) -> Self {
        Scanner {
            reader: BufReader::with_capacity(1 << 16, reader),
            source: source.to_string(),
            line: 1,
            column: 1,
            at_line_start: true,
        }
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> DimacsError {
        DimacsError::at(&self.source, line, column, message)
    }

    fn peek(&mut self) -> Result<Option<u8>, DimacsError> {
        match self.reader.fill_buf() {
            Ok(buf) => Ok(buf.first().copied()),
            Err(e) => Err(self.error(self.line, self.column, format!("cannot read: {e}"))),
        }
    }

    fn bump(&mut self, byte: u8) {
        self.reader.consume(1);
        if byte == b'\n' {
            self.line += 1;
            self.column = 1;
            self.at_line_start = true;
        } else {
            self.column += 1;
        }
    }

    /// Skips the rest of the current line (the newline included).
    fn skip_line(&mut self) -> Result<(), DimacsError> {
        while let Some(b) = self.peek()? {
            self.bump(b);
            if b == b'\n' {
                break;
            }
        }
        Ok(())
    }

    /// The next token with its position and whether it opened its line; `None` at the end.
    fn next_token(&mut self) -> Result<Option<(Token, usize, usize, bool)>, DimacsError> {
        loop {
            match self.peek()? {
                None => return Ok(None),
                Some(b) if b.is_ascii_whitespace() => self.bump(b),
                Some(_) => break,
            }
        }
        let (line, column, first) = (self.line, self.column, self.at_line_start);
        self.at_line_start = false;
        let mut word = Vec::new();
        while let Some(b) = self.peek()? {
            if b.is_ascii_whitespace() {
                break;
            }
            word.push(b);
            self.bump(b);
            if word.len() > 64 {
                return Err(self.error(line, column, "token too long"));
            }
        }
        let text = String::from_utf8_lossy(&word).into_owned();
        let token = match text.parse::<i64>() {
            Ok(v) if !text.starts_with('+') => Token::Int(v),
            _ => Token::Word(text),
        };
        Ok(Some((token, line, column, first)))
    }

    /// The rest of the current line as text (for comments).
    fn rest_of_line(&mut self) -> Result<String, DimacsError> {
        let mut bytes = Vec::new();
        while let Some(b) = self.peek()? {
            self.bump(b);
            if b == b'\n' {
                break;
            }
            bytes.push(b);
        }
        let text = String::from_utf8_lossy(&bytes);
        Ok(text.trim_end_matches('\r').to_string())
    }
}

// ---------------------------------------------------------------------------------------
// Parsing DIMACS CNF
// ---------------------------------------------------------------------------------------

/// Options of [`parse_dimacs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Treat a header whose clause count differs from the clauses found as an error (the
    /// default reports it as a warning).
    pub strict: bool,
}

/// What [`parse_dimacs`] found besides the clauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DimacsReport {
    /// The header's variable and clause counts.
    pub declared: (usize, usize),
    /// What was actually read (`vars` = the header's count).
    pub size: FormulaSize,
    /// The comment lines before the header, without their `c ` prefix.
    pub preamble: Vec<String>,
    /// Non-fatal problems (header/count mismatch), each positioned.
    pub warnings: Vec<String>,
}

/// Parses DIMACS CNF from `reader`, streaming each clause into `sink`.
///
/// Accepts comment lines anywhere, clauses spanning lines, CRLF line ends and tabs, and the
/// `%` end marker of the SATLIB files. The header is required before the first clause; a
/// literal above its variable count, a missing final `0`, a junk token, a negative count or
/// a second header is an error. A clause count that differs from the header's is a warning
/// in the report, or an error with [`ParseOptions::strict`].
///
/// # Errors
/// A [`DimacsError`] with the line and column of the first problem.
pub fn parse_dimacs<R: Read>(
    reader: R,
    source_name: &str,
    sink: &mut dyn ClauseSink,
    options: ParseOptions,
) -> Result<DimacsReport, DimacsError> {
    let mut sc = Scanner::new(reader, source_name);
    let mut report = DimacsReport::default();
    let mut header: Option<(usize, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut clause_start = (0, 0);
    let mut clauses = 0usize;
    let mut literals = 0usize;
    while let Some((token, line, column, first)) = sc.next_token()? {
        match token {
            Token::Word(w) if first && w.starts_with('c') => {
                let rest = sc.rest_of_line()?;
                if header.is_none() && report.preamble.len() < 100_000 {
                    let text = format!("{}{}", &w[1..], rest);
                    let text = text.strip_prefix(' ').unwrap_or(&text).to_string();
                    report.preamble.push(text);
                }
            }
            Token::Word(w) if first && w == "p" => {
                if header.is_some() {
                    return Err(sc.error(line, column, "a second `p` header"));
                }
                if clauses > 0 || !clause.is_empty() {
                    return Err(sc.error(line, column, "the `p cnf` header comes after clauses"));
                }
                header = Some(parse_header(&mut sc)?);
                sink.reserve_vars(header.unwrap().0);
            }
            Token::Word(w) if w == "%" => break,
            Token::Word(w) => {
                return Err(sc.error(line, column, format!("expected a literal, found `{w}`")))
            }
            Token::Int(v) => {
                let Some((num_vars, _)) = header else {
                    return Err(sc.error(line, column, "a clause before the `p cnf` header"));
                };
                if v == 0 {
                    sink.add_clause(&clause);
                    clauses += 1;
                    literals += clause.len();
                    clause.clear();
                } else {
                    if v.unsigned_abs() as usize > num_vars {
                        return Err(sc.error(
                            line,
                            column,
                            format!("literal {v} is above the header's {num_vars} variables"),
                        ));
                    }
                    if clause.is_empty() {
                        clause_start = (line, column);
                    }
                    clause.push(Lit::from_dimacs(v));
                }
            }
        }
    }
    if !clause.is_empty() {
        return Err(sc.error(
            clause_start.0,
            clause_start.1,
            format!(
                "the clause starting here is not terminated by `0` at the end of the input \
                 (line {})",
                sc.line
            ),
        ));
    }
    let Some((num_vars, num_clauses)) = header else {
        return Err(sc.error(sc.line, sc.column, "no `p cnf` header"));
    };
    if clauses != num_clauses {
        let message = format!("the header declares {num_clauses} clauses but {clauses} were read");
        if options.strict {
            return Err(sc.error(sc.line, sc.column, message));
        }
        report.warnings.push(format!(
            "{source_name}:{}:{}: {message}",
            sc.line, sc.column
        ));
    }
    report.declared = (num_vars, num_clauses);
    report.size = FormulaSize {
        vars: num_vars,
        clauses,
        literals,
    };
    Ok(report)
}

fn parse_header<R: Read>(sc: &mut Scanner<R>) -> Result<(usize, usize), DimacsError> {
    let mut fields = Vec::new();
    let (line, column) = (sc.line, sc.column);
    let rest = sc.rest_of_line()?;
    let mut col = column;
    for part in rest.split(|c: char| c.is_ascii_whitespace()) {
        if !part.is_empty() {
            fields.push((part, col));
        }
        col += part.len() + 1;
    }
    match fields.first() {
        Some(&("cnf", _)) => {}
        Some(&(f, c)) => return Err(sc.error(line, c, format!("expected `p cnf`, found `p {f}`"))),
        None => return Err(sc.error(line, column, "expected `p cnf VARS CLAUSES`")),
    }
    if fields.len() != 3 {
        return Err(sc.error(line, column, "expected `p cnf VARS CLAUSES`"));
    }
    let mut counts = [0usize; 2];
    for (i, &(f, c)) in fields[1..].iter().enumerate() {
        let what = ["variable", "clause"][i];
        counts[i] = match f.parse::<i64>() {
            Ok(v) if v < 0 => {
                return Err(sc.error(line, c, format!("negative {what} count {v} in the header")))
            }
            Ok(v) if v > u32::MAX as i64 / 2 => {
                return Err(sc.error(line, c, format!("{what} count {v} is too large")))
            }
            Ok(v) => v as usize,
            Err(_) => {
                return Err(sc.error(line, c, format!("expected a {what} count, found `{f}`")))
            }
        };
    }
    Ok((counts[0], counts[1]))
}

/// Parses DIMACS text into an in-memory formula.
///
/// # Errors
/// As [`parse_dimacs`].
pub fn parse_dimacs_str(
    text: &str,
    options: ParseOptions,
) -> Result<(Cnf, DimacsReport), DimacsError> {
    let mut cnf = Cnf::new();
    let report = parse_dimacs(text.as_bytes(), "<text>", &mut cnf, options)?;
    cnf.set_num_vars(report.declared.0);
    Ok((cnf, report))
}

// ---------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------

/// A SAT solver's answer as read from its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// Satisfiable, with the model.
    Sat(Model),
    /// Unsatisfiable: an answer, not an error.
    Unsat,
    /// The solver gave up (time-out, `INDET`, `s UNKNOWN`).
    Unknown,
}

/// A model literal, checked against the formula's variable count: a solver never names a
/// variable the formula does not have, and a huge one would otherwise size the model (or
/// overflow [`Var`](crate::Var)'s range).
fn model_lit<R: Read>(
    sc: &Scanner<R>,
    v: i64,
    num_vars: usize,
    line: usize,
    column: usize,
) -> Result<Lit, DimacsError> {
    if v.unsigned_abs() > num_vars as u64 {
        return Err(sc.error(
            line,
            column,
            format!("literal {v} is above the formula's {num_vars} variables"),
        ));
    }
    Ok(Lit::from_dimacs(v))
}

/// Reads a MiniSat result file (`minisat in.cnf out.txt`): `SAT` then the literals ending in
/// `0`, or `UNSAT`, or `INDET`. Variables not mentioned are false; the model covers
/// `num_vars` variables.
///
/// # Errors
/// A [`DimacsError`] at the first junk token or literal above `num_vars`, or at the end when the file is empty or the
/// model is not terminated by `0` (a truncated file).
pub fn read_minisat_result<R: Read>(
    reader: R,
    source_name: &str,
    num_vars: usize,
) -> Result<SolverAnswer, DimacsError> {
    let mut sc = Scanner::new(reader, source_name);
    let status = loop {
        match sc.next_token()? {
            None => return Err(sc.error(sc.line, sc.column, "empty result file")),
            Some((Token::Word(w), _, _, true)) if w.starts_with('c') => sc.skip_line()?,
            Some((Token::Word(w), line, column, _)) => match w.as_str() {
                "SAT" => break (line, column),
                "UNSAT" => return Ok(SolverAnswer::Unsat),
                "INDET" => return Ok(SolverAnswer::Unknown),
                _ => {
                    return Err(sc.error(
                        line,
                        column,
                        format!("expected SAT, UNSAT or INDET, found `{w}`"),
                    ))
                }
            },
            Some((Token::Int(v), line, column, _)) => {
                return Err(sc.error(
                    line,
                    column,
                    format!("expected SAT, UNSAT or INDET, found `{v}`"),
                ))
            }
        }
    };
    let mut lits = Vec::new();
    loop {
        match sc.next_token()? {
            None => {
                return Err(sc.error(
                    sc.line,
                    sc.column,
                    format!(
                        "truncated model: no final `0` after {} literals (SAT at line {})",
                        lits.len(),
                        status.0
                    ),
                ))
            }
            Some((Token::Int(0), ..)) => break,
            Some((Token::Int(v), line, column, _)) => {
                lits.push(model_lit(&sc, v, num_vars, line, column)?)
            }
            Some((Token::Word(w), line, column, _)) => {
                return Err(sc.error(line, column, format!("expected a literal, found `{w}`")))
            }
        }
    }
    if let Some((t, line, column, _)) = sc.next_token()? {
        let t = match t {
            Token::Int(v) => v.to_string(),
            Token::Word(w) => w,
        };
        return Err(sc.error(
            line,
            column,
            format!("unexpected `{t}` after the model's `0`"),
        ));
    }
    Ok(SolverAnswer::Sat(Model::from_lits(num_vars, lits)))
}

/// Reads SAT-competition output: `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN`, the model
/// on `v` lines (possibly several) ending in `0`, `c` lines ignored.
///
/// # Errors
/// A [`DimacsError`] at the first malformed line or literal above `num_vars`, or at the end
/// when the status is missing or a satisfiable answer's model is not terminated by `0`.
pub fn read_competition_output<R: Read>(
    reader: R,
    source_name: &str,
    num_vars: usize,
) -> Result<SolverAnswer, DimacsError> {
    let mut sc = Scanner::new(reader, source_name);
    let mut status: Option<&'static str> = None;
    let mut lits = Vec::new();
    let mut terminated = false;
    while let Some((token, line, column, first)) = sc.next_token()? {
        let word = match token {
            Token::Word(w) if first => w,
            Token::Word(w) => return Err(sc.error(line, column, format!("unexpected `{w}`"))),
            Token::Int(v) => {
                return Err(sc.error(
                    line,
                    column,
                    format!("expected an `s`, `v` or `c` line, found `{v}`"),
                ))
            }
        };
        match word.as_str() {
            "c" => sc.skip_line()?,
            "s" => {
                let rest = sc.rest_of_line()?;
                let answer = match rest.trim() {
                    "SATISFIABLE" => "SAT",
                    "UNSATISFIABLE" => "UNSAT",
                    "UNKNOWN" | "INDETERMINATE" => "UNKNOWN",
                    other => {
                        return Err(sc.error(line, column, format!("unknown status `s {other}`")))
                    }
                };
                if status.is_some_and(|s| s != answer) {
                    return Err(sc.error(line, column, "a second, different `s` line"));
                }
                status = Some(answer);
            }
            "v" => {
                let rest = sc.rest_of_line()?;
                let mut col = column + 1;
                for part in rest.split(|c: char| c.is_ascii_whitespace()) {
                    if !part.is_empty() {
                        if terminated {
                            return Err(sc.error(line, col, "a literal after the model's `0`"));
                        }
                        match part.parse::<i64>() {
                            Ok(0) => terminated = true,
                            Ok(v) => lits.push(model_lit(&sc, v, num_vars, line, col)?),
                            Err(_) => {
                                return Err(sc.error(
                                    line,
                                    col,
                                    format!("expected a literal, found `{part}`"),
                                ))
                            }
                        }
                    }
                    col += part.len() + 1;
                }
            }
            other => {
                return Err(sc.error(
                    line,
                    column,
                    format!("expected an `s`, `v` or `c` line, found `{other}`"),
                ))
            }
        }
    }
    match status {
        None => Err(sc.error(
            sc.line,
            sc.column,
            "no `s` status line in the solver output",
        )),
        Some("UNSAT") => Ok(SolverAnswer::Unsat),
        Some("UNKNOWN") => Ok(SolverAnswer::Unknown),
        Some(_) if !terminated => Err(sc.error(
            sc.line,
            sc.column,
            format!(
                "truncated model: the `v` lines end without `0` after {} literals",
                lits.len()
            ),
        )),
        Some(_) => Ok(SolverAnswer::Sat(Model::from_lits(num_vars, lits))),
    }
}

/// Reads a model in either convention, told apart by the first non-comment token: `s`/`v`
/// lines are SAT-competition output, anything else a MiniSat result file.
///
/// # Errors
/// As [`read_minisat_result`] and [`read_competition_output`].
pub fn read_model_auto<R: Read>(
    mut reader: R,
    source_name: &str,
    num_vars: usize,
) -> Result<SolverAnswer, DimacsError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| DimacsError::at(source_name, 1, 1, format!("cannot read: {e}")))?;
    let competition = bytes
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii_start())
        .find(|l| !l.is_empty() && !l.starts_with(b"c"))
        .is_some_and(|l| l.starts_with(b"s ") || l.starts_with(b"v ") || l == b"s" || l == b"v");
    if competition {
        read_competition_output(bytes.as_slice(), source_name, num_vars)
    } else {
        read_minisat_result(bytes.as_slice(), source_name, num_vars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(v: &[i64]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    #[test]
    fn writes_and_parses_back() {
        let mut cnf = Cnf::with_vars(4);
        cnf.add_clause(&lits(&[1, -2]));
        cnf.add_clause(&lits(&[]));
        cnf.add_clause(&lits(&[3, 4, -1]));
        let mut out = Vec::new();
        write_formula(&mut out, &cnf).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "p cnf 4 3\n1 -2 0\n0\n3 4 -1 0\n");
        let (back, report) = parse_dimacs_str(&text, ParseOptions::default()).unwrap();
        assert_eq!(back, cnf);
        assert!(report.warnings.is_empty());
    }

    #[test]
    fn tolerates_comments_crlf_tabs_and_percent() {
        let text = "c hello\r\np cnf 3 2\r\n1\t-2\r\nc inside\r\n 3 0 -1\n0\n%\n0\n";
        let (cnf, report) = parse_dimacs_str(text, ParseOptions::default()).unwrap();
        assert_eq!(cnf.num_clauses(), 2);
        assert_eq!(cnf.clause(0), lits(&[1, -2, 3]).as_slice());
        assert_eq!(cnf.clause(1), lits(&[-1]).as_slice());
        assert_eq!(report.preamble, vec!["hello".to_string()]);
    }

    fn err(text: &str) -> DimacsError {
        parse_dimacs_str(text, ParseOptions { strict: false }).unwrap_err()
    }

    #[test]
    fn positioned_errors() {
        let e = err("p cnf 2 1\n1 3 0\n");
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        assert!(e.message.contains("above"));
        let e = err("p cnf 2 1\n1 2\n");
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("not terminated"));
        let e = err("p cnf 2 1\n1 x 0\n");
        assert_eq!((e.line, e.column), (2, 3));
        let e = err("p cnf -2 1\n");
        assert!(e.message.contains("negative"), "{e}");
        assert_eq!(e.column, 7);
        let e = err("p cnf 2 2\n1 0\np cnf 2 2\n2 0\n");
        assert_eq!(e.line, 3);
        let e = err("1 2 0\n");
        assert!(e.message.contains("before"));
        let e = err("c nothing\n");
        assert!(e.message.contains("no `p cnf`"));
        assert_eq!(e.to_string(), "<text>:2:1: no `p cnf` header");
    }

    #[test]
    fn count_mismatch_is_a_warning_unless_strict() {
        let (_, report) = parse_dimacs_str("p cnf 2 3\n1 0\n", ParseOptions::default()).unwrap();
        assert_eq!(report.warnings.len(), 1);
        assert!(parse_dimacs_str("p cnf 2 3\n1 0\n", ParseOptions { strict: true }).is_err());
    }

    #[test]
    fn minisat_results() {
        let sat = read_minisat_result("SAT\n1 -2 3 0\n".as_bytes(), "m", 4).unwrap();
        let model = Model::from_lits(4, lits(&[1, -2, 3]));
        assert_eq!(sat, SolverAnswer::Sat(model));
        assert_eq!(
            read_minisat_result("UNSAT\n".as_bytes(), "m", 4).unwrap(),
            SolverAnswer::Unsat
        );
        assert_eq!(
            read_minisat_result("INDET\n".as_bytes(), "m", 4).unwrap(),
            SolverAnswer::Unknown
        );
        let e = read_minisat_result("SAT\n1 -2 3".as_bytes(), "m", 4).unwrap_err();
        assert!(e.message.contains("truncated"), "{e}");
        let e = read_minisat_result("SAT\n1 x 0".as_bytes(), "m", 4).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(read_minisat_result("".as_bytes(), "m", 4).is_err());
        assert!(read_minisat_result("SATX\n".as_bytes(), "m", 4).is_err());
    }

    #[test]
    fn competition_output() {
        let text = "c cadical\ns SATISFIABLE\nv 1 -2\nv 3 -4 0\nc done\n";
        let model = Model::from_lits(4, lits(&[1, -2, 3, -4]));
        assert_eq!(
            read_competition_output(text.as_bytes(), "s", 4).unwrap(),
            SolverAnswer::Sat(model.clone())
        );
        assert_eq!(
            read_model_auto(text.as_bytes(), "s", 4).unwrap(),
            SolverAnswer::Sat(model.clone())
        );
        assert_eq!(
            read_model_auto("SAT\n1 -2 3 -4 0\n".as_bytes(), "m", 4).unwrap(),
            SolverAnswer::Sat(model)
        );
        assert_eq!(
            read_competition_output("s UNSATISFIABLE\n".as_bytes(), "s", 4).unwrap(),
            SolverAnswer::Unsat
        );
        assert_eq!(
            read_competition_output("s UNKNOWN\n".as_bytes(), "s", 4).unwrap(),
            SolverAnswer::Unknown
        );
        let e = read_competition_output("s SATISFIABLE\nv 1 -2\n".as_bytes(), "s", 4).unwrap_err();
        assert!(e.message.contains("truncated"));
        let e = read_competition_output("s SATISFIABLE\nv 1 y 0\n".as_bytes(), "s", 4).unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert!(read_competition_output("c only\n".as_bytes(), "s", 4).is_err());
    }

    /// Found by the fuzzer: a literal beyond `u32` overflowed `Var`, and one beyond the
    /// formula sized the model to match (gigabytes for `v 2000000000 0`).
    #[test]
    fn model_literals_above_the_formula_are_errors() {
        let text = "s SATISFIABLE\nv 1 -2879609302208 0\n";
        let e = read_competition_output(text.as_bytes(), "s", 4).unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert!(e.message.contains("above the formula's 4 variables"), "{e}");
        let e = read_minisat_result("SAT\n1 -2\n2000000000 0\n".as_bytes(), "m", 4).unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        let ok = read_minisat_result("SAT\n1 -4 0\n".as_bytes(), "m", 4).unwrap();
        let SolverAnswer::Sat(model) = ok else {
            panic!("expected SAT, got {ok:?}")
        };
        assert_eq!(model.len(), 4);
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

    proptest::proptest! {
        #[test]
        fn write_parse_round_trip(
            num_vars in 1usize..40,
            raw in proptest::collection::vec(proptest::collection::vec((1usize..40, proptest::bool::ANY), 0..6), 0..30)
        ) {
            let mut cnf = Cnf::with_vars(num_vars);
            for clause in &raw {
                let c: Vec<Lit> = clause
                    .iter()
                    .map(|&(v, p)| crate::formula::Var::from_index((v - 1) % num_vars).lit(p))
                    .collect();
                cnf.add_clause(&c);
            }
            let mut out = Vec::new();
            write_formula(&mut out, &cnf).unwrap();
            let (back, report) = parse_dimacs_str(std::str::from_utf8(&out).unwrap(), ParseOptions { strict: true }).unwrap();
            proptest::prop_assert_eq!(back, cnf);
            proptest::prop_assert_eq!(report.size.clauses, raw.len());
        }
    }
}
