//! The grid's symmetries: canonical (minlex) forms of 9×9 puzzles and solutions, and random
//! isomorphs of a 9×9 and a 25×25 puzzle (`transform --canonical`, `--random`,
//! `compare --isomorphs`). Inputs come from `tests/fixtures`, so the bench needs no shared
//! data.

#[path = "common/fixture.rs"]
mod fixture;

use criterion::{criterion_group, criterion_main, Criterion};
use fixture::fixture;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudosat::grid::{canonical, Isomorphism};

fn canonical_forms(c: &mut Criterion) {
    let mut group = c.benchmark_group("symmetry/canonical-9x9");
    let puzzle = fixture("inkala-line.txt");
    let solution = fixture("solutions/inkala-line.txt");
    group.bench_function("puzzle", |b| b.iter(|| canonical(&puzzle).expect("9×9")));
    group.bench_function("solution", |b| {
        b.iter(|| canonical(&solution).expect("9×9"))
    });
    group.finish();
}

fn isomorphs(c: &mut Criterion) {
    let mut group = c.benchmark_group("symmetry/random-isomorph");
    for (label, puzzle) in [
        ("9x9", fixture("inkala-line.txt")),
        ("25x25", fixture("sudoku-25-1.txt")),
    ] {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(label, |b| {
            b.iter(|| Isomorphism::random(puzzle.box_size(), &mut rng).apply(&puzzle))
        });
    }
    group.finish();
}

criterion_group!(benches, canonical_forms, isomorphs);
criterion_main!(benches);
