//! AFL target: cdcl, dpll and varisat on small formulas and 4×4 partial grids decoded from
//! the bytes must agree with each other and with enumeration (see `differential.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        sudosat_afl::differential::check(data);
    });
}
