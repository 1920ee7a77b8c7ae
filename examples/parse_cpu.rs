//! Parse throughput of the four grid formats in CPU time (the thread's user + system time,
//! `getrusage`), which a loaded machine disturbs far less than the wall clock criterion
//! reads: the inputs of `benches/parse.rs` (1,000 × a 9×9 puzzle, 40 × a 25×25 one, written
//! by `write_puzzles`), each parsed until 1 s of CPU time has passed, best of `ROUNDS`
//! rounds (default 3). To compare two builds on a shared machine, copy each build's
//! binary aside and run them in turn several times (docs/benchmarks/parsing.md, "Parsing").
//!
//! Run: `cargo run --release --example parse_cpu` (Unix only).

#[path = "../benches/common/fixture.rs"]
mod fixture;

use std::time::Duration;

use fixture::fixture;
use sudosat::grid::{read_puzzles, write_puzzles, Format, Source};

/// CPU time of this thread so far.
#[cfg(unix)]
fn cpu_time() -> Duration {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

#[cfg(not(unix))]
fn cpu_time() -> Duration {
    unimplemented!("parse_cpu reads getrusage")
}

fn main() {
    for (label, puzzle, copies) in [
        ("9x9", fixture("inkala-line.txt"), 1000),
        ("25x25", fixture("sudoku-25-1.txt"), 40),
    ] {
        let rounds: u32 = std::env::var("ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(3);
        let puzzles = vec![puzzle; copies];
        for format in [Format::Line, Format::Block, Format::Grid, Format::Csv2] {
            let mut text = Vec::new();
            write_puzzles(&mut text, &puzzles, format).expect("in memory");
            let mut best = 0.0f64;
            for _ in 0..rounds {
                let (start, mut runs) = (cpu_time(), 0u64);
                while cpu_time() - start < Duration::from_secs(1) {
                    let got =
                        read_puzzles(text.as_slice(), &Source::Text, Some(format)).expect("parses");
                    assert_eq!(got.len(), copies);
                    runs += 1;
                }
                let secs = (cpu_time() - start).as_secs_f64();
                best = best.max(runs as f64 * text.len() as f64 / secs / f64::from(1 << 20));
            }
            println!("{label} {format} {best:.1} MiB/s");
        }
    }
}
