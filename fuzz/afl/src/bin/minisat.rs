//! AFL target: the MiniSat result-file reader.
use sudosat::dimacs::read_minisat_result;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let _ = read_minisat_result(data, "<afl>", 10);
    });
}
