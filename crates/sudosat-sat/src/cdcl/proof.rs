//! The proof-logging calls: the DRAT writer ([`crate::proof`]) when a proof is
//! set, nothing otherwise. Every learnt clause, every strengthened clause and deletion,
//! and the empty clause go through here.

use crate::formula::Lit;
use crate::DratWriter;

/// The proof being written, if any.
#[derive(Default)]
pub(super) struct ProofLog {
    pub(super) writer: Option<DratWriter>,
}

impl ProofLog {
    /// Whether a proof is being written.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        self.writer.is_some()
    }

    /// Logs the addition of `clause`.
    #[inline]
    pub(super) fn add(&mut self, clause: &[Lit]) {
        if let Some(proof) = &mut self.writer {
            proof.add(clause);
        }
    }

    /// Logs the deletion of `clause`.
    #[inline]
    pub(super) fn delete(&mut self, clause: &[Lit]) {
        if let Some(proof) = &mut self.writer {
            proof.delete(clause);
        }
    }
}
