//! The comparison report of `sudosat compare --report DIR`: one self-contained
//! `DIR/index.html` (inline SVG plots, inline CSS, no script and nothing fetched from the
//! network) with how the runs were made (command line, machine, versions, limits), the
//! summary tables with PAR-2 and the virtual best solver, every plot and the slowest
//! puzzles, and beside it the data it was drawn from:
//!
//! - `runs.csv` and its sidecar `runs.meta.json` (what `compare --from-csv` reads back),
//! - `report.json` (settings, provenance and the [`Analysis`](super::summary::Analysis);
//!   the runs are in the CSV),
//! - `summary.csv` (the summary tables).
//!
//! The page is well-formed XML as well as HTML, so tests parse it with an XML parser.
//! [`write_report`] builds the directory under a temporary name beside `DIR` and renames
//! it into place: a reader sees the old report or the new one, never half of one.
//!
//! The files: `page.rs` (the page, [`render_html`], its figures and the report's options),
//! its sections `provenance.rs` (how it was measured) and `sections.rs` (the tables of
//! results), `html.rs` (escaping) shared by them, and `dir.rs` (the directory,
//! [`write_report`]).

mod dir;
mod html;
mod page;
mod provenance;
mod sections;

pub use dir::write_report;
pub use html::escape;
pub use page::{render_html, ReportOptions, REPORT_JSON, RUNS_CSV, SUMMARY_CSV};
