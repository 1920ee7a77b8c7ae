//! Parsing DIMACS CNF: a byte scanner with line and column, streaming clauses into a
//! [`ClauseSink`].
//!
//! The clause scanner stays hand-written rather than on nom: it streams from any [`Read`]
//! (a 225×225 formula is hundreds of megabytes, never held in memory) and reads one byte at
//! a time with its position, which a combinator over a borrowed buffer cannot do without
//! loading the whole file; the model readers ([`super::model`]) read line by line and do use
//! nom.

use std::io::{BufRead, BufReader, Read};

use super::error::DimacsError;
use crate::formula::{ClauseSink, Cnf, FormulaSize, Lit, Var};

/// Reads the leading comments of a DIMACS file (up to the `p` header) and returns their
/// text without the `c` prefixes. Does not read the clauses.
///
/// # Errors
/// An I/O error as a [`DimacsError`] at the line reached.
pub fn read_preamble<R: Read>(reader: R, source_name: &str) -> Result<Vec<String>, DimacsError> {
    Ok(read_preamble_numbered(reader, source_name)?
        .into_iter()
        .map(|(_, text)| text)
        .collect())
}

/// [`read_preamble`] with each comment's line number (1-based), for messages that point
/// at a comment.
///
/// # Errors
/// A [`DimacsError`] when the input cannot be read.
pub fn read_preamble_numbered<R: Read>(
    reader: R,
    source_name: &str,
) -> Result<Vec<(usize, String)>, DimacsError> {
    let mut lines = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|e| DimacsError::at(source_name, i + 1, 1, e.to_string()))?;
        let t = line.trim_start();
        if t.starts_with('p') {
            break;
        }
        if let Some(rest) = t.strip_prefix('c') {
            lines.push((i + 1, rest.strip_prefix(' ').unwrap_or(rest).to_string()));
        }
    }
    Ok(lines)
}

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
    /// Whether the header was `p inccnf` (incremental CNF, as CaDiCaL reads it): no
    /// counts, the variables are the highest one used, and cubes may follow the clauses.
    pub incremental: bool,
    /// The variables of `c p show VARS 0` lines (the model counting competitions' projection:
    /// models that agree on them count once), in order, each once; `None` without such a
    /// line. Each is within the formula's variables.
    pub projection: Option<Vec<Var>>,
    /// The cubes of a `p inccnf` file (`a LITS 0` lines after the clauses), in order:
    /// the formula is to be solved under each in turn (cube and conquer; Heule, Kullmann,
    /// Wieringa & Biere 2011).
    pub cubes: Vec<Vec<Lit>>,
    /// Reading stopped before the end ([`parse_dimacs_until`]'s `stop`): the clauses read so
    /// far went to the sink, and the counts and checks of the whole file were not made.
    pub stopped: bool,
}

/// Clauses read between two calls of [`parse_dimacs_until`]'s `stop`.
const STOP_CHECK_PERIOD: usize = 1 << 16;

/// How much of a malformed `c p show` line an error quotes, in characters.
const SHOW_QUOTED: usize = 40;

/// The variables of a `c p show` line after its `p show`: positive, ended by 0.
fn parse_show(text: &str) -> Result<Vec<u64>, String> {
    let malformed = || {
        // The line as read, cut short: a binary file may hold a megabyte on one line.
        let quoted: String = text.chars().take(SHOW_QUOTED).collect();
        let cut = if text.chars().nth(SHOW_QUOTED).is_some() {
            "…"
        } else {
            ""
        };
        format!("`c p show{quoted}{cut}`: expected positive variables ended by 0")
    };
    let mut vars = Vec::new();
    let mut words = text.split_whitespace();
    loop {
        match words.next().map(str::parse::<u64>) {
            Some(Ok(0)) if words.next().is_none() => return Ok(vars),
            Some(Ok(v)) if v > 0 && v <= MAX_VARS => vars.push(v),
            _ => return Err(malformed()),
        }
    }
}

/// The highest variable index the parsers accept when no header bounds it (`p inccnf`,
/// cube files): as for a header's counts.
const MAX_VARS: u64 = u32::MAX as u64 / 2;

/// What a `p` line declares.
enum Header {
    /// `p cnf VARS CLAUSES`.
    Cnf(usize, usize),
    /// `p inccnf`: clauses, then cubes.
    Incremental,
}

/// Reads the literals of a cube after its `a`, up to its `0` (it may span lines), each at
/// most `max_var` in magnitude (`limit` says what bounds it, for the message).
fn read_cube<R: Read>(
    sc: &mut Scanner<R>,
    start: (usize, usize),
    max_var: u64,
    limit: &dyn Fn() -> String,
) -> Result<Vec<Lit>, DimacsError> {
    let mut cube = Vec::new();
    loop {
        match sc.next_token()? {
            Some((Token::Int(0), ..)) => return Ok(cube),
            Some((Token::Int(v), line, column, _)) => {
                if v.unsigned_abs() > max_var {
                    return Err(sc.error(
                        line,
                        column,
                        format!("literal {v} is above {}", limit()),
                    ));
                }
                cube.push(Lit::from_dimacs(v));
            }
            Some((Token::Word(w), line, column, _)) => {
                return Err(sc.error(line, column, format!("expected a literal, found `{w}`")))
            }
            None => {
                return Err(sc.error(
                    start.0,
                    start.1,
                    "the cube starting here is not terminated by `0` at the end of the input",
                ))
            }
        }
    }
}

/// Reads a file of cubes, one `a LITS 0` line each (march_cu's output, or the cube part of
/// a `p inccnf` file), for a formula of `num_vars` variables. Comment lines are skipped.
///
/// # Errors
/// A [`DimacsError`] at the first line that is not a cube or a comment, a literal above
/// `num_vars`, or a cube without its `0`.
pub fn parse_cubes<R: Read>(
    reader: R,
    source_name: &str,
    num_vars: usize,
) -> Result<Vec<Vec<Lit>>, DimacsError> {
    let mut sc = Scanner::new(reader, source_name);
    let mut cubes = Vec::new();
    while let Some((token, line, column, first)) = sc.next_token()? {
        match token {
            Token::Word(w) if first && w.starts_with('c') => {
                sc.rest_of_line()?;
            }
            Token::Word(w) if first && w == "a" => {
                cubes.push(read_cube(
                    &mut sc,
                    (line, column),
                    num_vars as u64,
                    &|| format!("the formula's {num_vars} variables"),
                )?);
            }
            other => {
                let found = match other {
                    Token::Int(v) => v.to_string(),
                    Token::Word(w) => w,
                };
                return Err(sc.error(
                    line,
                    column,
                    format!("expected a cube (`a LITS 0`), found `{found}`"),
                ));
            }
        }
    }
    Ok(cubes)
}

/// Parses DIMACS CNF from `reader`, streaming each clause into `sink`.
///
/// Accepts comment lines anywhere, clauses spanning lines, CRLF line ends and tabs, and the
/// `%` end marker of the SATLIB files. A `p inccnf` header (incremental CNF) takes clauses
/// without counts, then cubes (`a LITS 0`) into [`DimacsReport::cubes`]; a clause after a
/// cube is an error there, as in CaDiCaL. The header is required before the first clause; a
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
    parse_dimacs_until(reader, source_name, sink, options, &|| false)
}

/// [`parse_dimacs`] that asks `stop` every so many clauses and, when it says so, ends with
/// what it read so far ([`DimacsReport::stopped`]): reading a formula of millions of
/// clauses takes seconds, which a time limit or an interrupt should not wait for.
///
/// # Errors
/// As [`parse_dimacs`], for what was read.
pub fn parse_dimacs_until<R: Read>(
    reader: R,
    source_name: &str,
    sink: &mut dyn ClauseSink,
    options: ParseOptions,
    stop: &dyn Fn() -> bool,
) -> Result<DimacsReport, DimacsError> {
    let mut sc = Scanner::new(reader, source_name);
    let mut report = DimacsReport::default();
    let mut header: Option<(usize, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut clause_start = (0, 0);
    let mut clauses = 0usize;
    let mut literals = 0usize;
    // With `p inccnf`: the highest variable so far, and how many the sink was told of.
    let mut top_var = 0usize;
    let mut reserved = 0usize;
    // The variables of `c p show` lines, with their lines, checked once the count is known
    // (`None`: no such line).
    let mut shown_vars: Option<Vec<(u64, usize)>> = None;
    while let Some((token, line, column, first)) = sc.next_token()? {
        match token {
            Token::Word(w) if first && w.starts_with('c') => {
                let rest = sc.rest_of_line()?;
                // `c p show VARS 0` (the word `c` alone, as the model counters write it).
                let show = (w == "c")
                    .then(|| rest.trim_start().strip_prefix("p show"))
                    .flatten()
                    .filter(|vars| vars.is_empty() || vars.starts_with(char::is_whitespace));
                if let Some(vars) = show {
                    let shown = parse_show(vars).map_err(|m| sc.error(line, column, m))?;
                    let all = shown_vars.get_or_insert_with(Vec::new);
                    all.extend(shown.into_iter().map(|v| (v, line)));
                } else if header.is_none() && report.preamble.len() < 100_000 {
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
                header = Some(match parse_header(&mut sc)? {
                    Header::Cnf(vars, clauses) => (vars, clauses),
                    Header::Incremental => {
                        report.incremental = true;
                        (MAX_VARS as usize, 0)
                    }
                });
                if !report.incremental {
                    sink.reserve_vars(header.unwrap().0);
                }
            }
            Token::Word(w) if first && w == "a" => {
                if !report.incremental {
                    return Err(sc.error(
                        line,
                        column,
                        "a cube (`a`) in a `p cnf` file: cubes need a `p inccnf` header",
                    ));
                }
                if !clause.is_empty() {
                    return Err(sc.error(
                        clause_start.0,
                        clause_start.1,
                        "the clause starting here is not terminated by `0` before the cube",
                    ));
                }
                let cube = read_cube(&mut sc, (line, column), MAX_VARS, &|| {
                    format!("the largest variable, {MAX_VARS}")
                })?;
                top_var = top_var.max(cube.iter().map(|l| l.var().index() + 1).max().unwrap_or(0));
                report.cubes.push(cube);
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
                    if report.incremental {
                        let top = clause.iter().map(|l| l.var().index() + 1).max();
                        top_var = top_var.max(top.unwrap_or(0));
                        if top_var > reserved {
                            sink.reserve_vars(top_var);
                            reserved = top_var;
                        }
                    }
                    sink.add_clause(&clause);
                    clauses += 1;
                    literals += clause.len();
                    clause.clear();
                    if clauses % STOP_CHECK_PERIOD == 0 && stop() {
                        report.stopped = true;
                        report.declared = header.unwrap_or_default();
                        report.size = FormulaSize {
                            vars: report.declared.0,
                            clauses,
                            literals,
                        };
                        return Ok(report);
                    }
                } else {
                    if v.unsigned_abs() as usize > num_vars {
                        let message = if report.incremental {
                            format!("literal {v} is above the largest variable, {MAX_VARS}")
                        } else {
                            format!("literal {v} is above the header's {num_vars} variables")
                        };
                        return Err(sc.error(line, column, message));
                    }
                    if clause.is_empty() {
                        if !report.cubes.is_empty() {
                            return Err(sc.error(
                                line,
                                column,
                                "a clause after the cubes: `p inccnf` takes its clauses \
                                 first, then its cubes (`a LITS 0`)",
                            ));
                        }
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
    let Some((mut num_vars, mut num_clauses)) = header else {
        return Err(sc.error(sc.line, sc.column, "no `p cnf` header"));
    };
    if report.incremental {
        (num_vars, num_clauses) = (top_var, clauses);
        if top_var > reserved {
            sink.reserve_vars(top_var); // variables that occur only in cubes
        }
    }
    if clauses != num_clauses {
        let message = format!(
            "the header declares {} but {clauses} were read",
            crate::names::plural(num_clauses, "clause")
        );
        if options.strict {
            return Err(sc.error(sc.line, sc.column, message));
        }
        report.warnings.push(format!(
            "{source_name}:{}:{}: {message}",
            sc.line, sc.column
        ));
    }
    let shown = shown_vars.as_deref().unwrap_or_default();
    if let Some(&(v, line)) = shown.iter().find(|&&(v, _)| v > num_vars as u64) {
        return Err(sc.error(
            line,
            1,
            format!(
                "variable {v} of `c p show` is above the formula's {}",
                crate::names::plural(num_vars, "variable")
            ),
        ));
    }
    report.projection = shown_vars.map(|shown| {
        // A set, not a mark per variable: the header may declare billions.
        let mut seen = std::collections::HashSet::new();
        shown
            .into_iter()
            .filter(|&(v, _)| seen.insert(v))
            .map(|(v, _)| Var::from_dimacs(v as usize))
            .collect()
    });
    report.declared = (num_vars, num_clauses);
    report.size = FormulaSize {
        vars: num_vars,
        clauses,
        literals,
    };
    Ok(report)
}

fn parse_header<R: Read>(sc: &mut Scanner<R>) -> Result<Header, DimacsError> {
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
        Some(&("inccnf", _)) if fields.len() == 1 => return Ok(Header::Incremental),
        Some(&("inccnf", _)) => {
            return Err(sc.error(line, fields[1].1, "`p inccnf` takes no counts"))
        }
        Some(&(f, c)) => {
            return Err(sc.error(
                line,
                c,
                format!("expected `p cnf` (or `p inccnf`), found `p {f}`"),
            ))
        }
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
    Ok(Header::Cnf(counts[0], counts[1]))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(v: &[i64]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }
    /// `stop` is asked every so many clauses: what was read by then is kept and the
    /// report says the reading stopped; a `stop` that never says so reads everything.
    #[test]
    fn reading_stops_when_asked_with_what_it_read() {
        let clauses = 2 * STOP_CHECK_PERIOD + 5;
        let text = format!("p cnf 3 {clauses}\n{}", "1 -2 3 0\n".repeat(clauses));
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() == 2
        };
        let mut cnf = Cnf::new();
        let report = parse_dimacs_until(
            text.as_bytes(),
            "t",
            &mut cnf,
            ParseOptions::default(),
            &stop,
        )
        .unwrap();
        assert!(report.stopped);
        assert_eq!(cnf.num_clauses(), 2 * STOP_CHECK_PERIOD);
        assert_eq!(report.size.clauses, 2 * STOP_CHECK_PERIOD);
        let (cnf, report) = parse_dimacs_str(&text, ParseOptions::default()).unwrap();
        assert!(!report.stopped);
        assert_eq!(cnf.num_clauses(), clauses);
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

    #[test]
    fn reads_the_projection_of_c_p_show_lines_anywhere() {
        let text = "c t pmc\nc p show 3 1 0\np cnf 4 1\nc p show 1 4 0\n1 2 0\n";
        let (_, report) = parse_dimacs_str(text, ParseOptions::default()).unwrap();
        let vars: Vec<Var> = [3, 1, 4].map(Var::from_dimacs).to_vec();
        assert_eq!(report.projection, Some(vars));
        assert_eq!(report.preamble, vec!["t pmc".to_string()]);
        let (_, report) =
            parse_dimacs_str("c p showing\np cnf 1 0\n", ParseOptions::default()).unwrap();
        assert_eq!(
            (report.projection, report.preamble),
            (None, vec!["p showing".to_string()])
        );
        let (_, report) = parse_dimacs_str("p cnf 1 0\n", ParseOptions::default()).unwrap();
        assert_eq!(report.projection, None);
        let (_, report) =
            parse_dimacs_str("c p show 0\np cnf 1 0\n", ParseOptions::default()).unwrap();
        assert_eq!(report.projection, Some(Vec::new()));
        let e = err("p cnf 2 1\n1 2 0\nc p show 1 3 0\n");
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(
            e.message
                .contains("variable 3 of `c p show` is above the formula's 2"),
            "{e}"
        );
        let long = format!("p cnf 2 0\nc p show {}\n", "1 ".repeat(100_000));
        let e = err(&long);
        assert!(e.message.len() < 120, "{e}");
        assert!(e.message.starts_with("`c p show 1 1 1 "), "{e}");
        assert!(e.message.contains("…`: expected"), "{e}");
        for bad in [
            "c p show 1 -2 0",
            "c p show 1 2",
            "c p show x 0",
            "c p show 1 0 2",
        ] {
            let e = err(&format!("p cnf 2 0\n{bad}\n"));
            assert_eq!(e.line, 2, "{bad}: {e}");
            assert!(
                e.message.contains("expected positive variables ended by 0"),
                "{bad}: {e}"
            );
        }
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
    fn incremental_cnf_takes_clauses_then_cubes() {
        let text = "c cubes from march_cu\np inccnf\n1 -2 0\n2 3\n 0\na -1 0\na 1 4 0\na 0\n";
        let (cnf, report) = parse_dimacs_str(text, ParseOptions { strict: true }).unwrap();
        assert!(report.incremental);
        assert_eq!(cnf.num_clauses(), 2);
        assert_eq!(cnf.clause(1), lits(&[2, 3]).as_slice());
        // Variable 4 occurs only in a cube; no counts, so no count warning.
        assert_eq!(cnf.num_vars(), 4);
        assert_eq!(report.declared, (4, 2));
        assert!(report.warnings.is_empty());
        assert_eq!(report.cubes, vec![lits(&[-1]), lits(&[1, 4]), vec![]]);
        // A plain file has no cubes.
        let (_, report) = parse_dimacs_str("p cnf 1 1\n1 0\n", ParseOptions::default()).unwrap();
        assert!(!report.incremental && report.cubes.is_empty());
    }

    #[test]
    fn incremental_cnf_errors_are_positioned() {
        let e = err("p inccnf\n1 0\na 1 0\n2 0\n");
        assert_eq!((e.line, e.column), (4, 1), "{e}");
        assert!(e.message.contains("clause after the cubes"), "{e}");
        let e = err("p cnf 2 1\n1 0\na 1 0\n");
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(e.message.contains("`p inccnf`"), "{e}");
        let e = err("p inccnf\n1 2\na 1 0\n");
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.message.contains("before the cube"), "{e}");
        let e = err("p inccnf\n1 0\na 1 2\n");
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(
            e.message.contains("cube starting here is not terminated"),
            "{e}"
        );
        let e = err("p inccnf\na 1 x 0\n");
        assert_eq!((e.line, e.column), (2, 5), "{e}");
        let e = err("p inccnf 3 4\n");
        assert!(e.message.contains("takes no counts"), "{e}");
        let e = err("p inccnf\n1 99999999999 0\n");
        assert!(e.message.contains("above"), "{e}");
    }

    #[test]
    fn cube_files_hold_cubes_and_comments_only() {
        let cubes = parse_cubes("c march_cu\na 1 -2 0\na -1\n 0\n".as_bytes(), "c.icnf", 2);
        assert_eq!(cubes.unwrap(), vec![lits(&[1, -2]), lits(&[-1])]);
        let e = parse_cubes("a 1 3 0\n".as_bytes(), "c.icnf", 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c.icnf:1:5: literal 3 is above the formula's 2 variables"
        );
        let e = parse_cubes("a 1 0\n1 2 0\n".as_bytes(), "c.icnf", 2).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.message.contains("expected a cube"), "{e}");
    }
}
