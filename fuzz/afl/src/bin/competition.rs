//! AFL target: the SAT-competition `s`/`v` reader and the auto-detecting model reader.
use sudosat::dimacs::{read_competition_output, read_model_auto};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let _ = read_competition_output(data, "<afl>", 10);
        let _ = read_model_auto(data, "<afl>", 10);
    });
}
