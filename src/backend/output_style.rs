//! How a solver process reports its answer: a registry row of every build names it, so it
//! lives apart from the process backend (`external.rs`, feature `process`) that reads it.

/// How an external solver reports its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputStyle {
    /// MiniSat: `solver in.cnf out.txt`, exit 10/20, `out.txt` holds `SAT` + literals or
    /// `UNSAT`.
    MinisatFile,
    /// SAT competition: `solver in.cnf`, stdout has `s SATISFIABLE` and `v … 0` lines.
    Competition,
}
