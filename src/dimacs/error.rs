//! The one error of the DIMACS and model readers, with its position.

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
