//! DRAT proof output: the clausal proof format that SAT solvers use to certify UNSAT and
//! that the independent checker `drat-trim` verifies (Wetzler, Heule & Hunt 2014,
//! "DRAT-trim: Efficient checking and trimming using expressive clausal proofs", SAT).
//!
//! A proof is a sequence of lemmas (clauses each implied by the formula and the lemmas before
//! it, checked by reverse unit propagation) and deletions; it refutes the formula when it
//! derives the empty clause. The text form writes one clause per line, DIMACS literals ending
//! in `0`, deletions prefixed by `d`; the binary form writes `a`/`d` then each literal as the
//! variable-length number `2·var + sign` (sign 1 for negative literals), then `0`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::formula::Lit;

/// Text or binary DRAT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProofFormat {
    /// One clause per line, as DIMACS (`drat-trim`'s default input).
    #[default]
    Text,
    /// The compact binary form (`drat-trim` detects it by itself).
    Binary,
}

/// Where a backend writes its proof, and in which form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofTarget {
    /// The proof file (created or truncated).
    pub path: PathBuf,
    /// Text or binary DRAT.
    pub format: ProofFormat,
}

impl ProofTarget {
    /// A text DRAT proof at `path`.
    pub fn text(path: impl Into<PathBuf>) -> ProofTarget {
        ProofTarget {
            path: path.into(),
            format: ProofFormat::Text,
        }
    }
}

/// A buffered DRAT writer. Write errors are kept (the first one) and reported by
/// [`DratWriter::finish`], so that the solver's hot loop needs no error handling.
pub struct DratWriter {
    out: BufWriter<Box<dyn Write + Send>>,
    format: ProofFormat,
    error: Option<io::Error>,
    lemmas: u64,
    deletions: u64,
    /// Scratch for formatting one text line.
    line: Vec<u8>,
}

impl DratWriter {
    /// A writer into `out`.
    pub fn new(out: Box<dyn Write + Send>, format: ProofFormat) -> DratWriter {
        DratWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            format,
            error: None,
            lemmas: 0,
            deletions: 0,
            line: Vec::with_capacity(64),
        }
    }

    /// A writer into a new file at `path`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path, format: ProofFormat) -> io::Result<DratWriter> {
        let file = File::create(path)?;
        Ok(DratWriter::new(Box::new(file), format))
    }

    /// A writer for `target`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn for_target(target: &ProofTarget) -> io::Result<DratWriter> {
        DratWriter::create(&target.path, target.format)
    }

    /// Logs a lemma (the empty slice is the empty clause that ends a refutation).
    pub fn add(&mut self, clause: &[Lit]) {
        self.lemmas += 1;
        self.write(b'a', clause);
    }

    /// Logs the deletion of a clause (original or learnt).
    pub fn delete(&mut self, clause: &[Lit]) {
        self.deletions += 1;
        self.write(b'd', clause);
    }

    /// Lemmas written so far.
    pub fn lemmas(&self) -> u64 {
        self.lemmas
    }

    /// Deletions written so far.
    pub fn deletions(&self) -> u64 {
        self.deletions
    }

    /// Flushes the proof.
    ///
    /// # Errors
    /// The first write error met so far, or the flush's.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.out.flush()
    }

    fn write(&mut self, kind: u8, clause: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        match self.format {
            ProofFormat::Text => {
                if kind == b'd' {
                    self.line.extend_from_slice(b"d ");
                }
                let mut buffer = itoa::Buffer::new();
                for &lit in clause {
                    self.line
                        .extend_from_slice(buffer.format(lit.to_dimacs()).as_bytes());
                    self.line.push(b' ');
                }
                self.line.extend_from_slice(b"0\n");
            }
            ProofFormat::Binary => {
                self.line.push(kind);
                for &lit in clause {
                    let mut number = 2 * lit.var().to_dimacs() as u64 + lit.is_negative() as u64;
                    while number > 0x7f {
                        self.line.push((number & 0x7f) as u8 | 0x80);
                        number >>= 7;
                    }
                    self.line.push(number as u8);
                }
                self.line.push(0);
            }
        }
        if let Err(error) = self.out.write_all(&self.line) {
            self.error = Some(error);
        }
    }
}

impl std::fmt::Debug for DratWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DratWriter")
            .field("format", &self.format)
            .field("lemmas", &self.lemmas)
            .field("deletions", &self.deletions)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A `Write` whose bytes stay readable after the writer is dropped.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn written(format: ProofFormat) -> Vec<u8> {
        let shared = Shared::default();
        let mut proof = DratWriter::new(Box::new(shared.clone()), format);
        proof.add(&[Lit::from_dimacs(1), Lit::from_dimacs(-70)]);
        proof.delete(&[Lit::from_dimacs(-2)]);
        proof.add(&[]);
        proof.finish().unwrap();
        assert_eq!((proof.lemmas(), proof.deletions()), (2, 1));
        let bytes = shared.0.lock().unwrap().clone();
        bytes
    }

    #[test]
    fn text_lines_are_dimacs_clauses() {
        assert_eq!(written(ProofFormat::Text), b"1 -70 0\nd -2 0\n0\n");
    }

    #[test]
    fn binary_uses_variable_length_literals() {
        // 1 → 2, -70 → 141 = 0x8d → [0x8d, 0x01], -2 → 5.
        assert_eq!(
            written(ProofFormat::Binary),
            vec![b'a', 2, 0x8d, 0x01, 0, b'd', 5, 0, b'a', 0]
        );
    }
}
