//! AFL target: the CSV reader of `compare --from-csv` and the redraw behind it (see
//! `saved_runs.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        sudosat_afl::saved_runs::check(data);
    });
}
