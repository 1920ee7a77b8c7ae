//! CSV and JSON outputs of a comparison: one row per run with stable snake_case columns
//! ([`CSV_COLUMNS`]). In CSV an absent value is an empty field and the counters are one
//! `name=value;name=value` field; in JSON an absent value is `null` and the counters are an
//! object. The JSON document also holds how the runs were made and the
//! [`Analysis`](super::summary::Analysis).
//!
//! A CSV holds rows only; how they were made (limit, entry order, machine, command line)
//! goes in a JSON sidecar, [`Meta`], written beside it as `NAME.meta.json`
//! ([`sidecar_path`]). [`read_csv`] and the sidecar give the
//! [`Comparison`](super::Comparison) back, so a report can be redrawn from saved rows. The
//! sidecar's [`Provenance::study`] names the study and shard the rows are, so that the CSVs
//! of shards can be merged ([`super::shard`]).
//!
//! The files: `csv.rs` (the rows of runs, written and read back, and the summary CSV),
//! `meta.rs` (the sidecar and the provenance it holds), `json.rs` (the JSON document).

mod csv;
mod json;
mod meta;

pub use self::csv::{counters_field, read_csv, write_csv, write_summary_csv, CSV_COLUMNS};
pub use json::{counters_as_map, write_json};
pub use meta::{read_meta, sidecar_path, write_meta, Machine, Meta, Provenance};
