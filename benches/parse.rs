//! Parse throughput (bytes per second) of every text format: the four grid formats, on
//! 1,000 copies of a 9×9 puzzle and 40 of a 25×25 one written by the crate's own writers,
//! and both model-file formats on a 225×225 model (11.4 M variables, 50,625 true).
//! Inputs are built in memory from `tests/fixtures`, so the bench needs no shared data.

#[path = "common/fixture.rs"]
mod fixture;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fixture::fixture;
use sudosat::dimacs::{read_competition_output, read_minisat_result};
use sudosat::grid::{read_puzzles, write_puzzles, Format, Source};

fn grids(c: &mut Criterion) {
    for (label, puzzle, copies) in [
        ("9x9", fixture("inkala-line.txt"), 1000),
        ("25x25", fixture("sudoku-25-1.txt"), 40),
    ] {
        let mut group = c.benchmark_group(format!("parse/{label}"));
        let puzzles = vec![puzzle; copies];
        for format in [Format::Line, Format::Block, Format::Grid, Format::Csv2] {
            let mut text = Vec::new();
            write_puzzles(&mut text, &puzzles, format).expect("in memory");
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(format.name(), |b| {
                b.iter(|| {
                    let got =
                        read_puzzles(text.as_slice(), &Source::Text, Some(format)).expect("parses");
                    assert_eq!(got.len(), copies);
                })
            });
        }
        group.finish();
    }
}

fn models(c: &mut Criterion) {
    let n: i64 = 225;
    let vars = n * n * n;
    let lits: Vec<String> = (1..=n * n)
        .map(|cell| ((cell - 1) * n + 1 + cell % n).to_string())
        .collect();
    let minisat = format!("SAT\n{} 0\n", lits.join(" "));
    let mut competition = String::from("c a solver\ns SATISFIABLE\n");
    for chunk in lits.chunks(20) {
        competition.push_str("v ");
        competition.push_str(&chunk.join(" "));
        competition.push('\n');
    }
    competition.push_str("v 0\n");
    let mut group = c.benchmark_group("parse/model-225x225");
    group.throughput(Throughput::Bytes(minisat.len() as u64));
    group.bench_function("minisat", |b| {
        b.iter(|| read_minisat_result(minisat.as_bytes(), "bench", vars as usize).expect("model"))
    });
    group.throughput(Throughput::Bytes(competition.len() as u64));
    group.bench_function("competition", |b| {
        b.iter(|| {
            read_competition_output(competition.as_bytes(), "bench", vars as usize).expect("model")
        })
    });
    group.finish();
}

criterion_group!(benches, grids, models);
criterion_main!(benches);
