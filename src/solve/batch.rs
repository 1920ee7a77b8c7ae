//! Batches: many puzzles, one solver per thread kept for the whole batch, the answers in
//! input order.
//!
//! The lean path of a batch is [`Solver::solve_into`](super::Solver::solve_into) on a
//! solver that lives as long as the batch: on the SAT path it reuses its formula, its map,
//! its backend's clause database and the answer's grid from one puzzle to the next, so a
//! puzzle allocates nothing there (docs/benchmarks/nine.md, "Where a 9×9 batch spends its
//! time").
//! This module deals the puzzles to the threads: [`Batch::run`] keeps one state per thread
//! of its pool (built on the thread's first puzzle), runs each puzzle's work on whichever
//! thread is free, and hands the results back on the caller's thread in input order, a
//! chunk at a time while the pool solves the next one, so that a large file's answers go
//! out as they come without all of them held in memory, and writing them does not idle
//! the pool. `sudosat solve` and `sudosat count` run their puzzles through it;
//! so can any caller with a list of puzzles (the Python module's `solve_many`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, TryLockError};

use rayon::prelude::*;

use crate::Error;

/// Puzzles between two hand-overs of results on several threads: large enough that one
/// slow puzzle rarely idles the other threads, small enough that answers go out steadily.
pub const DEFAULT_CHUNK: usize = 4096;

/// A batch's threads: one (the caller's) or a pool.
pub struct Batch {
    pool: Option<rayon::ThreadPool>,
    jobs: usize,
    chunk: usize,
}

impl Batch {
    /// A batch on `jobs` threads (1: the caller's own, no pool).
    ///
    /// # Errors
    /// [`Error::Threads`] when the threads cannot be started.
    pub fn new(jobs: usize) -> Result<Batch, Error> {
        let jobs = jobs.max(1);
        let pool = if jobs > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(jobs)
                    .build()
                    .map_err(|e| Error::Threads {
                        jobs,
                        reason: e.to_string(),
                    })?,
            )
        } else {
            None
        };
        Ok(Batch {
            pool,
            jobs,
            chunk: DEFAULT_CHUNK,
        })
    }

    /// The same batch handing results back every `chunk` puzzles (at least 1).
    pub fn with_chunk(mut self, chunk: usize) -> Batch {
        self.chunk = chunk.max(1);
        self
    }

    /// The threads.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// Runs `work` on every item with the state of the thread it runs on (made by `make`
    /// on that thread's first item and kept for the batch), and calls `emit` on the
    /// caller's thread with each result in input order. On one thread each result is
    /// emitted as soon as it is made; on several, a chunk's results are emitted once the
    /// chunk is done, while the pool solves the next chunk.
    ///
    /// The first error in input order ends the batch, as on one thread: items after a
    /// failed one are not started once the failure is known, those before it still run,
    /// and their results are emitted before the error is returned.
    ///
    /// # Errors
    /// The first error of `make`, `work` or `emit` in input order.
    pub fn run<I, S, T, E>(
        &self,
        items: &[I],
        make: impl Fn() -> Result<S, E> + Sync,
        work: impl Fn(&mut S, usize, &I) -> Result<T, E> + Sync,
        mut emit: impl FnMut(usize, T) -> Result<(), E>,
    ) -> Result<(), E>
    where
        I: Sync,
        S: Send,
        T: Send,
        E: Send,
    {
        let pool = match &self.pool {
            Some(pool) if items.len() > 1 => pool,
            _ => {
                if items.is_empty() {
                    return Ok(());
                }
                let mut state = make()?;
                for (i, item) in items.iter().enumerate() {
                    let result = work(&mut state, i, item)?;
                    emit(i, result)?;
                }
                return Ok(());
            }
        };
        // One state per thread of the pool, found by the thread's index (uncontended).
        let states: Vec<Mutex<Option<S>>> = (0..self.jobs).map(|_| Mutex::new(None)).collect();
        let failed_at = AtomicUsize::new(usize::MAX);
        let run_one = |i: usize, item: &I| -> Option<Result<T, E>> {
            if i > failed_at.load(Ordering::Relaxed) {
                return None;
            }
            let slot = rayon::current_thread_index().unwrap_or(0) % states.len();
            let result = match states[slot].try_lock() {
                Ok(mut state) => match state.as_mut() {
                    Some(state) => work(state, i, item),
                    None => make().and_then(|mut made| {
                        let result = work(&mut made, i, item);
                        *state = Some(made);
                        result
                    }),
                },
                Err(TryLockError::Poisoned(poisoned)) => {
                    let mut state = poisoned.into_inner();
                    match state.as_mut() {
                        Some(state) => work(state, i, item),
                        None => make().and_then(|mut made| work(&mut made, i, item)),
                    }
                }
                // The thread's state is busy further down its own stack (a work that
                // waits on the pool ran this one meanwhile): a state of its own.
                Err(TryLockError::WouldBlock) => {
                    make().and_then(|mut made| work(&mut made, i, item))
                }
            };
            if result.is_err() {
                failed_at.fetch_min(i, Ordering::Relaxed);
            }
            Some(result)
        };
        // The pool solves chunk c + 1 while this thread emits chunk c: emitting (writing the
        // answers) is then no longer a pause of every thread between two chunks.
        let chunks: Vec<&[I]> = items.chunks(self.chunk).collect();
        let solve_chunk = |c: usize| -> Vec<Option<Result<T, E>>> {
            let first = c * self.chunk;
            chunks[c]
                .par_iter()
                .enumerate()
                .map(|(k, item)| run_one(first + k, item))
                .collect()
        };
        let mut done = pool.install(|| solve_chunk(0));
        for c in 0..chunks.len() {
            let first = c * self.chunk;
            let mut next = None;
            let emitted = pool.in_place_scope(|scope| {
                if c + 1 < chunks.len() {
                    let next = &mut next;
                    let solve_chunk = &solve_chunk;
                    scope.spawn(move |_| *next = Some(solve_chunk(c + 1)));
                }
                for (k, result) in std::mem::take(&mut done).into_iter().enumerate() {
                    let emitted = match result {
                        Some(result) => result.and_then(|result| emit(first + k, result)),
                        // Skipped after an earlier failure, whose error came first.
                        None => unreachable!("a skipped item follows a failed one"),
                    };
                    if emitted.is_err() {
                        // The next chunk's items not begun yet are skipped.
                        failed_at.fetch_min(first + k, Ordering::Relaxed);
                        return emitted;
                    }
                }
                Ok(())
            });
            emitted?;
            done = next.unwrap_or_default();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results come back in input order on any number of threads, each thread's state is
    /// made once and kept, and the first error in input order ends the batch with the
    /// results before it emitted.
    #[test]
    fn results_in_order_states_per_thread_first_error_wins() {
        let items: Vec<u64> = (0..10_000).collect();
        for jobs in [1, 2, 3] {
            let batch = Batch::new(jobs).unwrap().with_chunk(777);
            let made = AtomicUsize::new(0);
            let mut seen = Vec::new();
            let result: Result<(), String> = batch.run(
                &items,
                || {
                    made.fetch_add(1, Ordering::Relaxed);
                    Ok(0u64)
                },
                |state, i, &item| {
                    *state += 1;
                    Ok((i, item * item, *state))
                },
                |i, (j, square, _)| {
                    assert_eq!(i, j);
                    seen.push(square);
                    Ok(())
                },
            );
            result.unwrap();
            assert_eq!(seen, items.iter().map(|x| x * x).collect::<Vec<_>>());
            let made = made.load(Ordering::Relaxed);
            assert!((1..=jobs).contains(&made), "{jobs} jobs made {made} states");

            let mut emitted = Vec::new();
            let result = batch.run(
                &items,
                || Ok::<_, String>(()),
                |_, i, _| {
                    if i == 4_321 || i == 9_000 {
                        Err(format!("item {i}"))
                    } else {
                        Ok(i)
                    }
                },
                |i, _| {
                    emitted.push(i);
                    Ok(())
                },
            );
            assert_eq!(result, Err("item 4321".to_string()), "{jobs} jobs");
            assert_eq!(emitted, (0..4_321).collect::<Vec<_>>(), "{jobs} jobs");
        }
    }

    /// An error of `emit` (a write that fails) ends the batch at once: nothing after it is
    /// emitted, and of the chunks after its own only the one solved meanwhile is worked on.
    #[test]
    fn an_emit_error_stops_the_batch() {
        let items: Vec<u64> = (0..10_000).collect();
        for jobs in [1, 2, 3] {
            let batch = Batch::new(jobs).unwrap().with_chunk(777);
            let worked = AtomicUsize::new(0);
            let mut emitted = Vec::new();
            let result = batch.run(
                &items,
                || Ok::<_, String>(()),
                |_, i, _| {
                    worked.fetch_add(1, Ordering::Relaxed);
                    Ok(i)
                },
                |i, _| {
                    if i == 2_000 {
                        return Err(format!("write {i}"));
                    }
                    emitted.push(i);
                    Ok(())
                },
            );
            assert_eq!(result, Err("write 2000".to_string()), "{jobs} jobs");
            assert_eq!(emitted, (0..2_000).collect::<Vec<_>>(), "{jobs} jobs");
            // 2,000 is in the third chunk of 777; the fourth may have been solved meanwhile.
            let worked = worked.load(Ordering::Relaxed);
            assert!(
                (2_001..=4 * 777).contains(&worked),
                "{jobs} jobs worked on {worked}"
            );
        }
    }
}
