//! Writing DIMACS: a streaming [`DimacsWriter`] and [`write_formula`] for in-memory formulas.

use std::io::{self, Write};

use crate::formula::{ClauseSink, Cnf, Lit};

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

    /// Writes the `p inccnf` header of an incremental CNF (clauses, then cubes; no counts).
    pub fn header_incremental(&mut self) {
        let r = self.out.write_all(b"p inccnf\n");
        self.record(r);
    }

    /// Writes one cube, `a LITS 0`, after the clauses of an incremental CNF.
    pub fn cube(&mut self, cube: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        let mut buf = itoa::Buffer::new();
        self.line.clear();
        self.line.extend_from_slice(b"a ");
        for &lit in cube {
            self.line
                .extend_from_slice(buf.format(lit.to_dimacs()).as_bytes());
            self.line.push(b' ');
        }
        self.line.extend_from_slice(b"0\n");
        let r = self.out.write_all(&self.line);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(v: &[i64]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    use crate::dimacs::{parse_dimacs_str, ParseOptions};
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
