//! The batch path: one solver kept for many puzzles gives each the answer it gets alone
//! (also on puzzles with several solutions, where a solver's leftover state would show),
//! every answer checked, and, once its buffers have grown, allocates nothing per puzzle.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudosat::backend::{BackendKind, BackendSpec, LoadMode};
use sudosat::grid::{check_solution, Cell};
use sudosat::solve::sat::{SatSolver, DEFAULT_ENCODING};
use sudosat::solve::{SolveOutcome, Solver};
use sudosat::Grid;

use common::{read_fixture, run};

/// Counts this thread's allocations (the test harness's other threads do their own).
struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: StdCell<u64> = const { StdCell::new(0) };
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations() -> u64 {
    ALLOCATIONS.with(|n| n.get())
}

/// The default SAT path on one thread (deterministic), in `mode`.
fn solver(mode: LoadMode) -> SatSolver {
    let spec = BackendSpec::new(BackendKind::Cdcl)
        .with_threads(1)
        .with_load(mode);
    SatSolver::new(DEFAULT_ENCODING, spec)
}

/// Puzzles of 4×4, 9×9 and 16×16 that need search, and 9×9 ones with several solutions
/// (solution grids with most cells blanked at random): on those, which solution a solver
/// finds depends on its state when it starts.
fn puzzles() -> Vec<Grid> {
    let mut all = read_fixture("expert-20.txt");
    all.extend(read_fixture("minimal-40.txt").into_iter().take(10));
    all.extend(read_fixture("rank4-2.csv"));
    all.extend(read_fixture("thesis-4x4.txt"));
    let mut rng = ChaCha8Rng::seed_from_u64(63);
    for solution in read_fixture("solutions/expert-20.txt").into_iter().take(12) {
        for keep in [14, 18, 22] {
            let mut loose = solution.clone();
            let mut cells: Vec<Cell> = loose.geometry().cells().collect();
            cells.shuffle(&mut rng);
            for &cell in &cells[keep..] {
                loose.set(cell, None);
            }
            all.push(loose);
        }
    }
    all
}

fn solve(solver: &mut SatSolver, puzzle: &Grid) -> Grid {
    match solver.solve(puzzle).unwrap().outcome {
        SolveOutcome::Solved(grid) => {
            assert!(check_solution(puzzle, &grid).is_valid());
            grid
        }
        other => panic!("{other:?}"),
    }
}

/// Each puzzle's solution alone (a fresh solver), against the same puzzle solved in a
/// batch of the others, in several orders, by one solver, in each load mode.
#[test]
fn a_puzzle_gets_the_same_solution_alone_or_anywhere_in_a_batch() {
    let puzzles = puzzles();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for mode in [LoadMode::Auto, LoadMode::RootUnits, LoadMode::Reencode] {
        let alone: Vec<Grid> = puzzles
            .iter()
            .map(|p| solve(&mut solver(mode), p))
            .collect();
        let mut counter = solver(LoadMode::Reencode);
        let several = puzzles
            .iter()
            .filter(|p| counter.count_solutions(p, 2).unwrap() == Some(2))
            .count();
        assert!(
            several >= 30,
            "{mode}: only {several} puzzles with several solutions"
        );
        let mut order: Vec<usize> = (0..puzzles.len()).collect();
        for round in 0..4 {
            let mut batch = solver(mode);
            let mut into = Grid::empty(2).unwrap();
            for &i in &order {
                // Every other round through the batch call, which decodes into one grid.
                let solution = if round % 2 == 0 {
                    solve(&mut batch, &puzzles[i])
                } else {
                    let outcome = batch.solve_into(&puzzles[i], &mut into).unwrap();
                    assert_eq!(outcome, SolveOutcome::Solved(()));
                    into.clone()
                };
                assert_eq!(solution, alone[i], "{mode}, round {round}, puzzle {i}");
                // Counting between solves leaves nothing behind either.
                if i % 7 == 0 {
                    batch.count_solutions(&puzzles[i], 2).unwrap();
                }
            }
            order.shuffle(&mut rng);
        }
    }
}

/// Once a solver has solved a batch, solving it again allocates nothing: the formula, the
/// map, the backend's clause database and the answer's grid are all refilled in place.
#[test]
fn a_batch_allocates_nothing_per_puzzle_once_its_buffers_have_grown() {
    let puzzles: Vec<Grid> = read_fixture("minimal-40.txt")
        .into_iter()
        .chain(read_fixture("expert-20.txt"))
        .collect();
    for mode in [LoadMode::Auto, LoadMode::Reencode] {
        let mut batch = solver(mode);
        let mut into = Grid::empty(3).unwrap();
        let mut pass = || {
            for puzzle in &puzzles {
                let outcome = batch.solve_into(puzzle, &mut into).unwrap();
                assert_eq!(outcome, SolveOutcome::Solved(()));
                assert!(check_solution(puzzle, &into).is_valid());
            }
        };
        pass();
        let before = allocations();
        pass();
        let made = allocations() - before;
        assert_eq!(
            made,
            0,
            "{mode}: {made} allocations over {} puzzles",
            puzzles.len()
        );
    }
}

/// `sudosat solve` on a file gives each puzzle the line it gets alone.
#[test]
fn the_command_line_batch_answers_each_puzzle_as_alone() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles: Vec<Grid> = puzzles().into_iter().filter(|p| p.side() == 9).collect();
    let lines: Vec<String> = puzzles.iter().map(|p| p.to_string()).collect();
    let file = dir.path().join("batch.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let batch = run(&[
        "solve",
        file.to_str().unwrap(),
        "--jobs",
        "1",
        "--threads",
        "1",
    ]);
    assert!(batch.status.success(), "{batch:?}");
    let answers: Vec<String> = String::from_utf8(batch.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answers.len(), lines.len());
    for (i, line) in lines.iter().enumerate().step_by(5) {
        let one = dir.path().join("one.txt");
        std::fs::write(&one, format!("{line}\n")).unwrap();
        let alone = run(&["solve", one.to_str().unwrap(), "--threads", "1"]);
        assert!(alone.status.success(), "{alone:?}");
        assert_eq!(
            String::from_utf8(alone.stdout).unwrap().trim(),
            answers[i],
            "puzzle {i}"
        );
    }
}
