//! Solver model readers: MiniSat result files and SAT-competition `s`/`v` output.
//!
//! Both read line by line (a 225×225 model is a 100 MB line or thousands of `v` lines, never
//! held twice) and split each line with small nom parsers (`word`, `literal`); the
//! positions in errors are 1-based byte columns, as the DIMACS parser's.

use std::io::{BufRead, BufReader, Read};

use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::i64 as signed;
use nom::combinator::all_consuming;
use nom::sequence::preceded;
use nom::IResult;

use super::error::DimacsError;
use crate::formula::{Lit, Model};

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

/// The longest word a model file may hold (a literal has at most 20 characters).
const MAX_WORD: usize = 64;

/// The next whitespace-free word after any whitespace.
fn word(input: &[u8]) -> IResult<&[u8], &[u8]> {
    preceded(
        take_while(|b: u8| b.is_ascii_whitespace()),
        take_till1(|b: u8| b.is_ascii_whitespace()),
    )(input)
}

/// A whole word that is a DIMACS literal (an optional sign, then digits, within `i64`).
fn literal(word: &[u8]) -> Option<i64> {
    let parsed: IResult<&[u8], i64> = all_consuming(signed)(word);
    parsed.ok().map(|(_, v)| v)
}

/// A pseudo-Boolean solver's literal (the PB competition's `v` lines): `x7` or `-x7`, as
/// a DIMACS integer; `None` for any other word.
fn pb_literal(word: &[u8]) -> Option<i64> {
    let (negative, rest) = match word {
        [b'-', b'x', rest @ ..] => (true, rest),
        [b'x', rest @ ..] => (false, rest),
        _ => return None,
    };
    match literal(rest) {
        Some(v) if v > 0 && rest.first() != Some(&b'-') => Some(if negative { -v } else { v }),
        _ => None,
    }
}

/// A whole word that is an integer written without `+` (MiniSat's literals and status
/// errors tell integers from words this way).
fn integer(word: &[u8]) -> Option<i64> {
    if word.first() == Some(&b'+') {
        None
    } else {
        literal(word)
    }
}

/// A model file read line by line, with the position of each word.
struct Lines<R: Read> {
    reader: BufReader<R>,
    source: String,
    buf: Vec<u8>,
    /// 1-based number of the line in `buf`.
    line: usize,
    /// Whether the line in `buf` ended with a newline.
    newline: bool,
}

impl<R: Read> Lines<R> {
    fn new(reader: R, source: &str) -> Self {
        Lines {
            reader: BufReader::with_capacity(1 << 16, reader),
            source: source.to_string(),
            buf: Vec::new(),
            line: 0,
            newline: true,
        }
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> DimacsError {
        DimacsError::at(&self.source, line, column, message)
    }

    /// Reads the next line into `buf`; `false` at the end of the input.
    fn advance(&mut self) -> Result<bool, DimacsError> {
        self.buf.clear();
        let read = self.reader.read_until(b'\n', &mut self.buf).map_err(|e| {
            let (line, column) = self.end();
            self.error(line, column, format!("cannot read: {e}"))
        })?;
        if read == 0 {
            return Ok(false);
        }
        self.line += 1;
        self.newline = self.buf.last() == Some(&b'\n');
        if self.newline {
            self.buf.pop();
        }
        Ok(true)
    }

    /// The position just after everything read so far.
    fn end(&self) -> (usize, usize) {
        if self.newline {
            (self.line + 1, 1)
        } else {
            (self.line, self.buf.len() + 1)
        }
    }

    /// The words of the current line with their 1-based columns; a word longer than
    /// [`MAX_WORD`] is an error.
    fn words(&self) -> impl Iterator<Item = Result<(usize, &[u8]), DimacsError>> + '_ {
        let mut rest = self.buf.as_slice();
        std::iter::from_fn(move || {
            let (after, w) = word(rest).ok()?;
            rest = after;
            let column = self.buf.len() - after.len() - w.len() + 1;
            if w.len() > MAX_WORD {
                rest = &[];
                return Some(Err(self.error(self.line, column, "token too long")));
            }
            Some(Ok((column, w)))
        })
    }
}

fn text(word: &[u8]) -> String {
    String::from_utf8_lossy(word).into_owned()
}

/// A word as errors show it: an integer in its normal form, anything else as written.
fn shown(word: &[u8]) -> String {
    integer(word).map_or_else(|| text(word), |v| v.to_string())
}

/// A model literal, checked against the formula's variable count: a solver never names a
/// variable the formula does not have, and a huge one would otherwise size the model (or
/// overflow [`Var`](crate::Var)'s range). Found by the fuzzer.
fn model_lit(v: i64, num_vars: usize) -> Result<Lit, String> {
    if v.unsigned_abs() > num_vars as u64 {
        return Err(format!(
            "literal {v} is above the formula's {num_vars} variables"
        ));
    }
    Ok(Lit::from_dimacs(v))
}

/// The literals of a model as they are read, refusing one whose variable was already
/// given the other value (`-8 … 8`): a solver that prints both is broken, and taking the
/// last value would hide it.
struct ModelLits {
    lits: Vec<Lit>,
    /// Per variable: 0 unseen, 1 true, 2 false.
    value: Vec<u8>,
}

impl ModelLits {
    fn new() -> Self {
        ModelLits {
            lits: Vec::new(),
            value: Vec::new(),
        }
    }

    fn push(&mut self, v: i64, num_vars: usize) -> Result<(), String> {
        let lit = model_lit(v, num_vars)?;
        let var = v.unsigned_abs() as usize;
        if self.value.len() <= var {
            self.value.resize(var + 1, 0);
        }
        let value = if v > 0 { 1 } else { 2 };
        match self.value[var] {
            0 => self.value[var] = value,
            seen if seen != value => {
                return Err(format!(
                    "literal {v} contradicts {} earlier in the model",
                    -v
                ))
            }
            _ => {}
        }
        self.lits.push(lit);
        Ok(())
    }

    fn len(&self) -> usize {
        self.lits.len()
    }
}

/// Reads a MiniSat result file (`minisat in.cnf out.txt`): `SAT` then the literals ending in
/// `0`, or `UNSAT`, or `INDET`. Variables not mentioned are false; the model covers
/// `num_vars` variables.
///
/// # Errors
/// A [`DimacsError`] at the first junk token or literal above `num_vars`, or at the end when
/// the file is empty or the model is not terminated by `0` (a truncated file).
pub fn read_minisat_result<R: Read>(
    reader: R,
    source_name: &str,
    num_vars: usize,
) -> Result<SolverAnswer, DimacsError> {
    let mut lines = Lines::new(reader, source_name);
    let mut status_line = None;
    let mut terminated = false;
    let mut lits = ModelLits::new();
    while lines.advance()? {
        for (i, w) in lines.words().enumerate() {
            let (column, w) = w?;
            let line = lines.line;
            if terminated {
                return Err(lines.error(
                    line,
                    column,
                    format!("unexpected `{}` after the model's `0`", shown(w)),
                ));
            }
            if status_line.is_some() {
                match integer(w) {
                    Some(0) => terminated = true,
                    Some(v) => lits
                        .push(v, num_vars)
                        .map_err(|m| lines.error(line, column, m))?,
                    None => {
                        return Err(lines.error(
                            line,
                            column,
                            format!("expected a literal, found `{}`", text(w)),
                        ))
                    }
                }
                continue;
            }
            match w {
                b"SAT" => status_line = Some(line),
                b"UNSAT" => return Ok(SolverAnswer::Unsat),
                b"INDET" => return Ok(SolverAnswer::Unknown),
                _ if i == 0 && w[0] == b'c' && integer(w).is_none() => break,
                _ => {
                    return Err(lines.error(
                        line,
                        column,
                        format!("expected SAT, UNSAT or INDET, found `{}`", shown(w)),
                    ))
                }
            }
        }
    }
    let (line, column) = lines.end();
    match status_line {
        None => Err(lines.error(line, column, "empty result file")),
        Some(at) if !terminated => Err(lines.error(
            line,
            column,
            format!(
                "truncated model: no final `0` after {} literals (SAT at line {at})",
                lits.len()
            ),
        )),
        Some(_) => Ok(SolverAnswer::Sat(Model::from_lits(num_vars, lits.lits))),
    }
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
    let mut lines = Lines::new(reader, source_name);
    let mut status: Option<&'static str> = None;
    let mut lits = ModelLits::new();
    let mut terminated = false;
    let mut pb_form = false;
    while lines.advance()? {
        let line = lines.line;
        let Some(first) = lines.words().next() else {
            continue;
        };
        let (column, kind) = first?;
        let rest = &lines.buf[column - 1 + kind.len()..];
        match kind {
            b"c" => {}
            b"s" => {
                let answer = match text(rest).trim() {
                    // `OPTIMUM FOUND`: a pseudo-Boolean solver's answer to a
                    // formula with an objective (a model all the same).
                    "SATISFIABLE" | "OPTIMUM FOUND" => "SAT",
                    "UNSATISFIABLE" => "UNSAT",
                    "UNKNOWN" | "INDETERMINATE" => "UNKNOWN",
                    other => {
                        return Err(lines.error(
                            line,
                            column,
                            format!("unknown status `s {other}`"),
                        ))
                    }
                };
                if status.is_some_and(|s| s != answer) {
                    return Err(lines.error(line, column, "a second, different `s` line"));
                }
                status = Some(answer);
            }
            b"v" => {
                let mut input = rest;
                while let Ok((after, w)) = word(input) {
                    let at = lines.buf.len() - after.len() - w.len() + 1;
                    input = after;
                    if terminated {
                        return Err(lines.error(line, at, "a literal after the model's `0`"));
                    }
                    // A PB solver writes `x7`/`-x7` and ends its model without `0`.
                    let pb = pb_literal(w);
                    pb_form |= pb.is_some();
                    match pb.or_else(|| literal(w)) {
                        Some(0) => terminated = true,
                        Some(v) => lits
                            .push(v, num_vars)
                            .map_err(|m| lines.error(line, at, m))?,
                        None => {
                            return Err(lines.error(
                                line,
                                at,
                                format!("expected a literal, found `{}`", text(w)),
                            ))
                        }
                    }
                }
            }
            other => {
                return Err(lines.error(
                    line,
                    column,
                    format!("expected an `s`, `v` or `c` line, found `{}`", shown(other)),
                ));
            }
        }
    }
    let (line, column) = lines.end();
    match status {
        None => Err(lines.error(line, column, "no `s` status line in the solver output")),
        Some("UNSAT") => Ok(SolverAnswer::Unsat),
        Some("UNKNOWN") => Ok(SolverAnswer::Unknown),
        Some(_) if !terminated && !pb_form => Err(lines.error(
            line,
            column,
            format!(
                "truncated model: the `v` lines end without `0` after {} literals",
                lits.len()
            ),
        )),
        Some(_) => Ok(SolverAnswer::Sat(Model::from_lits(num_vars, lits.lits))),
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
    fn a_variable_given_both_values_is_an_error_at_the_second() {
        let e = read_competition_output("s SATISFIABLE\nv 1 -8 2\nv 8 0\n".as_bytes(), "o", 8)
            .unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        assert!(e.message.contains("8 contradicts -8"), "{e}");
        let e = read_minisat_result("SAT\n8 -8 0\n".as_bytes(), "m", 8).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        // The same literal twice is harmless.
        assert!(read_minisat_result("SAT\n8 8 0\n".as_bytes(), "m", 8).is_ok());
    }

    fn lits(v: &[i64]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
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
    fn pseudo_boolean_solver_output() {
        // RoundingSat and Sat4j print `x7`/`-x7` and no closing `0`.
        let text = "c roundingsat\ns SATISFIABLE\nv x1 -x2 x3\nv -x4\n";
        let model = Model::from_lits(4, lits(&[1, -2, 3, -4]));
        assert_eq!(
            read_model_auto(text.as_bytes(), "pb", 4).unwrap(),
            SolverAnswer::Sat(model.clone())
        );
        let optimum = "s OPTIMUM FOUND\nv x1 -x2 x3 -x4\n";
        assert_eq!(
            read_competition_output(optimum.as_bytes(), "pb", 4).unwrap(),
            SolverAnswer::Sat(model)
        );
        for bad in ["v x-3\n", "v -x0\n", "v xx1\n", "v x\n", "v x5\n"] {
            let text = format!("s SATISFIABLE\n{bad}");
            assert!(
                read_competition_output(text.as_bytes(), "pb", 4).is_err(),
                "{bad}"
            );
        }
        // Integers still need their `0`.
        let cut = "s SATISFIABLE\nv 1 -2 3 -4\n";
        assert!(read_competition_output(cut.as_bytes(), "s", 4).is_err());
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
}
