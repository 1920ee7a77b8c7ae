//! What the walk over an encoding's groups feeds: the clause stream, a size count, or the
//! shape of a reduced encoding (see `groups`).

use crate::formula::Lit;

/// Receives the groups of an encoding.
pub(crate) trait GroupSink {
    /// A plain clause (at-least-one, definition, given).
    fn clause(&mut self, lits: &[Lit]);
    /// At most one of `lits`.
    fn at_most_one(&mut self, lits: &[Lit]);
}
