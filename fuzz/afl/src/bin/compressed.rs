//! AFL target: gzip, bzip2 and xz streams through the decompressor into the grid reader
//! and the DIMACS parser, at most 16 MiB of decompressed bytes each.
use std::io::Read;

use sudosat::compression::decompressed;
use sudosat::dimacs::{parse_dimacs, ParseOptions};
use sudosat::grid::{read_puzzles, Source};
use sudosat::Cnf;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok((_, reader)) = decompressed(data) {
            let _ = read_puzzles(reader.take(16 << 20), &Source::Text, None);
        }
        if let Ok((_, reader)) = decompressed(data) {
            let mut cnf = Cnf::new();
            let _ = parse_dimacs(
                reader.take(16 << 20),
                "<afl>",
                &mut cnf,
                ParseOptions::default(),
            );
        }
    });
}
