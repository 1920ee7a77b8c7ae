//! Encoding time per puzzle: each of the four encodings streamed into a counting sink and
//! written as DIMACS into memory, for a 9×9 puzzle (Inkala's) and a 25×25 one.

#[path = "common/fixture.rs"]
mod fixture;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fixture::fixture;
use sudosat::encode::write_cnf;
use sudosat::encode::{Encoding, SudokuEncoding};
use sudosat::formula::CountingSink;

fn bench_encodings(c: &mut Criterion) {
    for (label, puzzle) in [
        ("9x9-inkala", fixture("inkala-line.txt")),
        ("25x25", fixture("sudoku-25-1.txt")),
    ] {
        let mut group = c.benchmark_group(format!("encode/{label}"));
        for encoding in SudokuEncoding::ALL {
            group.bench_with_input(
                BenchmarkId::new("count", encoding.name()),
                &puzzle,
                |b, p| {
                    b.iter(|| {
                        let mut sink = CountingSink::default();
                        encoding.encode(p, &mut sink);
                        sink.size
                    })
                },
            );
            let bytes = write_cnf(Vec::new(), &encoding, &puzzle).map(|s| s.literals * 8);
            let capacity = bytes.unwrap_or(0);
            group.bench_with_input(
                BenchmarkId::new("dimacs", encoding.name()),
                &puzzle,
                |b, p| {
                    b.iter(|| {
                        let mut out = Vec::with_capacity(capacity);
                        write_cnf(&mut out, &encoding, p).expect("in-memory write");
                        out.len()
                    })
                },
            );
        }
        group.finish();
    }
}

criterion_group!(benches, bench_encodings);
criterion_main!(benches);
