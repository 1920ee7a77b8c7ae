//! DIMACS CNF writing and streaming parsing; solver model readers (MiniSat result files and
//! SAT-competition `s`/`v` output).

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

// ---------------------------------------------------------------------------------------
// Interim (backend branch): the minimum the external backends need until the encode branch's
// writer and readers land; replaced by theirs on merge.

use std::io::{BufRead, BufReader, Read, Write};

use crate::formula::{ClauseSink, Cnf, Lit, Model};

/// A solver's answer as read from its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// Satisfiable, with the model.
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// The solver did not decide.
    Unknown,
}

/// Writes `cnf` in DIMACS form.
///
/// # Errors
/// Any write error.
pub fn write_cnf<W: Write + ?Sized>(w: &mut W, cnf: &Cnf) -> std::io::Result<()> {
    write!(w, "{cnf:?}")
}

fn read_lits(
    source: &str,
    line_no: usize,
    words: &[&str],
    lits: &mut Vec<Lit>,
) -> Result<bool, DimacsError> {
    for w in words {
        let n: i64 = w.parse().map_err(|_| DimacsError {
            source_name: source.to_string(),
            line: line_no,
            column: 1,
            message: format!("expected a literal, found `{w}`"),
        })?;
        if n == 0 {
            return Ok(true);
        }
        lits.push(Lit::from_dimacs(n));
    }
    Ok(false)
}

/// Reads a MiniSat result file (`SAT` + literals, `UNSAT`, `INDET`).
///
/// # Errors
/// A [`DimacsError`] for anything else.
pub fn read_minisat_result<R: Read>(
    r: R,
    source: &str,
    num_vars: usize,
) -> Result<SolverAnswer, DimacsError> {
    let err = |line, message: String| DimacsError {
        source_name: source.to_string(),
        line,
        column: 1,
        message,
    };
    let lines: Vec<String> = BufReader::new(r)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| err(1, e.to_string()))?;
    match lines.first().map(|l| l.trim()) {
        Some("UNSAT") => Ok(SolverAnswer::Unsat),
        Some("INDET") => Ok(SolverAnswer::Unknown),
        Some("SAT") => {
            let mut lits = Vec::new();
            let words: Vec<&str> = lines[1..]
                .iter()
                .flat_map(|l| l.split_whitespace())
                .collect();
            if !read_lits(source, 2, &words, &mut lits)? {
                return Err(err(2, "the model does not end with 0".to_string()));
            }
            Ok(SolverAnswer::Sat(Model::from_lits(num_vars, lits)))
        }
        other => Err(err(1, format!("expected SAT or UNSAT, found {other:?}"))),
    }
}

/// Reads SAT-competition output (`s` and `v` lines; `c` lines ignored).
///
/// # Errors
/// A [`DimacsError`] when no `s` line is found or a `v` line is bad.
pub fn read_competition_output<R: Read>(
    r: R,
    source: &str,
    num_vars: usize,
) -> Result<SolverAnswer, DimacsError> {
    let err = |line, message: String| DimacsError {
        source_name: source.to_string(),
        line,
        column: 1,
        message,
    };
    let mut status = None;
    let mut lits = Vec::new();
    let mut ended = false;
    for (i, line) in BufReader::new(r).lines().enumerate() {
        let line = line.map_err(|e| err(i + 1, e.to_string()))?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            Some(&"s") => status = Some(words[1..].join(" ")),
            Some(&"v") => ended |= read_lits(source, i + 1, &words[1..], &mut lits)?,
            _ => {}
        }
    }
    match status.as_deref() {
        Some("SATISFIABLE") if ended => Ok(SolverAnswer::Sat(Model::from_lits(num_vars, lits))),
        Some("SATISFIABLE") => Err(err(1, "the `v` lines do not end with 0".to_string())),
        Some("UNSATISFIABLE") => Ok(SolverAnswer::Unsat),
        Some("UNKNOWN") => Ok(SolverAnswer::Unknown),
        _ => Err(err(1, "no `s` line".to_string())),
    }
}

/// Reads a DIMACS CNF file (interim, minimal: header, clauses, `c` comments).
///
/// # Errors
/// A [`DimacsError`] with the line of the first bad token.
pub fn read_cnf<R: Read>(r: R, source: &str) -> Result<Cnf, DimacsError> {
    let err = |line, message: String| DimacsError {
        source_name: source.to_string(),
        line,
        column: 1,
        message,
    };
    let mut cnf = Cnf::new();
    let mut clause = Vec::new();
    let mut header = false;
    for (i, line) in BufReader::new(r).lines().enumerate() {
        let line = line.map_err(|e| err(i + 1, e.to_string()))?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') || t.starts_with('%') {
            continue;
        }
        if let Some(rest) = t.strip_prefix('p') {
            let w: Vec<&str> = rest.split_whitespace().collect();
            match w.as_slice() {
                ["cnf", v, _] if !header => {
                    let v: usize = v
                        .parse()
                        .map_err(|_| err(i + 1, format!("bad header `{t}`")))?;
                    cnf.set_num_vars(v);
                    header = true;
                    continue;
                }
                _ => return Err(err(i + 1, format!("bad header `{t}`"))),
            }
        }
        if !header {
            return Err(err(i + 1, "clause before the `p cnf` header".to_string()));
        }
        for w in t.split_whitespace() {
            let n: i64 = w
                .parse()
                .map_err(|_| err(i + 1, format!("expected a literal, found `{w}`")))?;
            if n == 0 {
                cnf.add_clause(&clause);
                clause.clear();
            } else {
                clause.push(Lit::from_dimacs(n));
            }
        }
    }
    if !clause.is_empty() {
        cnf.add_clause(&clause);
    }
    Ok(cnf)
}
