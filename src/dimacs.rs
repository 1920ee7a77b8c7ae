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
