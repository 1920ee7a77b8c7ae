//! `sudosat count`: count solutions up to a limit (blocking clauses on the SAT path).

use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use sudosat::solve::batch::Batch;
use sudosat::solve::Solver;

use crate::args::{PuzzleInputs, SolverArgs};
use crate::common::{write_output, InputGrid, EXIT_NEGATIVE, EXIT_OK, MAX_JOBS};
use crate::proofs::{ProofArgs, Proved, Prover};

/// Arguments of `sudosat count`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    /// Stop counting at N solutions (0: count them all).
    ///
    /// Stop counting at this many solutions (0 = count them all; at least 2, which tells
    /// unique from multiple).
    #[arg(long, value_name = "N", default_value_t = 2)]
    limit: u64,
    #[command(flatten)]
    how: SolverArgs,
    #[command(flatten)]
    proofs: ProofArgs,
    /// Count puzzles on N threads (default: every core).
    ///
    /// Count the solutions of puzzles on N threads, one solver each (default: every core).
    /// The lines and the exit code are those of `--jobs 1`, in input order; N is the
    /// cores of the whole run, so one puzzle counted alone gets them for its cdcl
    /// portfolio (`--jobs 1`: one core in all) unless `--threads` says otherwise. `--proof-dir`
    /// runs on one thread.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// The verdict for `count` solutions found with `limit`.
fn verdict(count: u64, limit: u64) -> String {
    match count {
        0 => "none".to_string(),
        1 => "unique".to_string(),
        c if c == limit => format!("multiple (≥{c})"),
        c => format!("multiple ({c})"),
    }
}

/// Puzzles counted between two writes of the verdicts on several jobs: the verdicts go
/// out in input order as they come, and one slow puzzle rarely idles the other threads.
const CHUNK: usize = 1024;

/// The verdict of one puzzle, and its proof when one was kept.
type Counted = (String, Option<Proved>);

/// Runs the subcommand: one line per puzzle (`unique`, `multiple (≥2)`, `none`), after the
/// puzzle's `FILE:LINE: ` when there are several; exit 0 when every puzzle has exactly one
/// solution, 1 otherwise. With several `--jobs` the puzzles are counted on that many
/// threads, one solver each; the lines, their order and the exit code are those of one job.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.limit == 1 {
        bail!(
            "--limit 1 stops at the first solution and cannot tell unique from multiple; \
             use 2 (the default) or more, 0 to count them all, or `sudosat solve` for one"
        );
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| sudosat::run::available_cores().min(MAX_JOBS));
    if !(1..=MAX_JOBS).contains(&jobs) {
        bail!("--jobs must be between 1 and {MAX_JOBS}, not {jobs}");
    }
    let inputs = args.input.read()?;
    let spec = args.how.spec(false)?;
    let prover = Prover::new(&args.proofs, &spec)?;
    let parallel = jobs > 1 && prover.is_none() && inputs.len() > 1;
    let batch = Batch::new(if parallel { jobs } else { 1 })
        .context("cannot start the counting threads")?
        .with_chunk(CHUNK);
    let how = args.how.sharing(args.jobs, parallel);
    let solver = how.build(false)?.1;
    let budget = args.how.memory_budget();
    let first = Mutex::new((!parallel).then_some(solver));
    // Locked for a whole puzzle, so only where there is one (proofs run on one thread):
    // a lock over every solve would make the `--jobs` threads take turns.
    let prover = prover.map(Mutex::new);
    let make = || -> Result<Box<dyn Solver>> {
        match first.lock().map(|mut s| s.take()) {
            Ok(Some(solver)) => Ok(solver),
            _ => Ok(how.build(false)?.1),
        }
    };
    let mut all_unique = true;
    // Each verdict goes out as it is found (standard output, like `solve`'s answers).
    write_output(None, |w| {
        batch.run(
            &inputs,
            make,
            |solver, i, input| {
                let mut prover = prover
                    .as_ref()
                    .map(|p| p.lock().unwrap_or_else(|e| e.into_inner()));
                count_one(
                    &args,
                    budget,
                    solver.as_mut(),
                    prover.as_deref_mut(),
                    i,
                    input,
                )
            },
            |i, (verdict, proved)| {
                all_unique &= verdict == "unique";
                if inputs.len() > 1 {
                    // Which puzzle each line is for: `FILE:LINE: unique`.
                    write!(w, "{}: ", inputs[i].location())?;
                }
                writeln!(w, "{verdict}{}", Proved::suffix(&proved))?;
                Ok(())
            },
        )
    })?;
    if let Some(prover) = prover {
        prover
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish()?;
    }
    Ok(ExitCode::from(if all_unique {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// Counts the solutions of puzzle `i` (0-based) with `solver`: its verdict, and the proof
/// `prover` kept, if any.
fn count_one(
    args: &Args,
    budget: Option<u64>,
    solver: &mut dyn Solver,
    prover: Option<&mut Prover>,
    i: usize,
    input: &InputGrid,
) -> Result<Counted> {
    args.how
        .check_memory(&input.grid, budget)
        .with_context(|| input.location())?;
    if let Some(prover) = &prover {
        prover.ask(solver, i + 1);
    }
    let count = solver
        .count_solutions(&input.grid, args.limit)
        .with_context(|| input.location())?
        .with_context(|| format!("solver `{}` cannot count solutions", solver.name()))?;
    let verdict = verdict(count, args.limit);
    let proved = match prover {
        // A proof is only kept when the count ended in UNSAT (none, or unique).
        Some(prover) => prover.collect(solver, i + 1, input, &verdict)?,
        None => None,
    };
    Ok((verdict, proved))
}

#[cfg(test)]
mod tests {
    use super::verdict;

    #[test]
    fn verdicts() {
        assert_eq!(verdict(0, 2), "none");
        assert_eq!(verdict(1, 2), "unique");
        assert_eq!(verdict(2, 2), "multiple (≥2)");
        assert_eq!(verdict(7, 0), "multiple (7)");
        assert_eq!(verdict(5, 10), "multiple (5)");
    }
}
