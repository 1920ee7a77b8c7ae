//! The compare harness: encoding sizes and solve times across encodings, backends and solvers.
