//! AFL target: the streaming DIMACS parser, lenient and strict (the first byte's low bit),
//! `p inccnf` files included, and the same bytes as a cube file (`sat --cubes`).
use sudosat::dimacs::{parse_cubes, parse_dimacs, ParseOptions};
use sudosat::Cnf;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let mut cnf = Cnf::new();
        let strict = data.first().is_some_and(|b| b & 1 == 1);
        let _ = parse_dimacs(data, "<afl>", &mut cnf, ParseOptions { strict });
        let _ = parse_cubes(data, "<afl>", 10);
    });
}
