//! CaDiCaL (Armin Biere, Tobias Faller, Katalin Fazekas, Mathias Fleury, Nils Froleyks,
//! Florian Pollitt; "CaDiCaL 2.0", CAV 2024) as the `cadical-sys` crate compiles it, linked.
//! No Rust API: the solver is used through its C API (`ccadical.h`), which sudosat's
//! CaDiCaL backend declares.
//!
//! CaDiCaL 2 and 3 and Kissat each carry a copy of the small solver `kitten` under the same
//! C names, but the two copies differ: a binary that holds both solvers either fails to
//! link or calls the wrong copy. This crate's build links copies of `cadical-sys`'s
//! libraries in which every symbol of CaDiCaL's C part (kitten: `kitten_…`, `citten_…` and
//! two helpers) takes the prefix `sudosat_cadical_`, so that CaDiCaL and Kissat link side
//! by side.
#![no_std]

/// The CaDiCaL version linked, as its sources' `VERSION` file says (e.g. `3.0.1`).
pub const VERSION: &str = env!("SUDOSAT_CADICAL_VERSION");
