//! What `compare --from-csv` does with a saved CSV, on arbitrary bytes: read the runs,
//! guess the settings (no sidecar), analyse and write every output but the plots. The CSV
//! written from runs read back must read back itself and write out byte for byte the same
//! (times are written to the nanosecond, so the first write may round). Shared
//! by the AFL target and `tests/fuzz_replay.rs` (included there by path).

use sudosat::compare::output::{read_csv, write_csv, write_json, write_summary_csv, Meta};
use sudosat::compare::summary::{write_table, Analysis, TableStyle};
use sudosat::compare::GroupBy;

/// Reads `data` as a saved CSV and redraws it; panics when a step that must not fail does,
/// or when the runs written once do not survive a read and a write. Returns whether the
/// CSV was read.
pub fn check(data: &[u8]) -> bool {
    let Ok(runs) = read_csv(data, "<afl>") else {
        return false;
    };
    let mut written = Vec::new();
    write_csv(&mut written, &runs).expect("writing to memory");
    let again = read_csv(written.as_slice(), "<afl rewritten>")
        .unwrap_or_else(|e| panic!("runs {runs:?} wrote a CSV that does not read back: {e}"));
    assert_eq!(again.len(), runs.len(), "runs lost in a CSV round trip");
    let mut rewritten = Vec::new();
    write_csv(&mut rewritten, &again).expect("writing to memory");
    assert_eq!(rewritten, written, "a second round trip");

    let by = GroupBy::auto(&runs);
    let comparison = Meta::guess(&runs).comparison(runs);
    for group in [None, Some(by)] {
        let analysis = Analysis::new(&comparison, group);
        let mut out = Vec::new();
        for style in [TableStyle::Text, TableStyle::Markdown] {
            write_table(&mut out, &comparison, &analysis, style).expect("writing to memory");
        }
        write_summary_csv(&mut out, &analysis).expect("writing to memory");
        write_json(&mut out, &comparison, &analysis, None).expect("writing to memory");
    }
    true
}
