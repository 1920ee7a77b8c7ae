//! `sudosat count`: count solutions up to a limit (blocking clauses on the SAT path).

use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::args::{PuzzleInputs, SolverArgs};
use crate::common::{write_output, EXIT_NEGATIVE, EXIT_OK};
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

/// Runs the subcommand: one line per puzzle (`unique`, `multiple (≥2)`, `none`), after the
/// puzzle's `FILE:LINE: ` when there are several; exit 0 when every puzzle has exactly one
/// solution, 1 otherwise.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.limit == 1 {
        bail!(
            "--limit 1 stops at the first solution and cannot tell unique from multiple; \
             use 2 (the default) or more, 0 to count them all, or `sudosat solve` for one"
        );
    }
    let inputs = args.input.read()?;
    let (spec, mut solver) = args.how.build(false)?;
    let mut prover = Prover::new(&args.proofs, &spec)?;
    let mut all_unique = true;
    // Each verdict goes out as it is found (standard output, like `solve`'s answers).
    write_output(None, |w| {
        for (i, input) in inputs.iter().enumerate() {
            args.how
                .check_memory(&input.grid)
                .with_context(|| input.location())?;
            if let Some(prover) = &prover {
                prover.ask(solver.as_mut(), i + 1);
            }
            let count = solver
                .count_solutions(&input.grid, args.limit)
                .with_context(|| input.location())?
                .with_context(|| format!("solver `{}` cannot count solutions", solver.name()))?;
            all_unique &= count == 1;
            let verdict = verdict(count, args.limit);
            let proved = match &mut prover {
                // A proof is only kept when the count ended in UNSAT (none, or unique).
                Some(prover) => prover.collect(solver.as_mut(), i + 1, input, &verdict)?,
                None => None,
            };
            if inputs.len() > 1 {
                // Which puzzle each line is for: `FILE:LINE: unique`.
                write!(w, "{}: ", input.location())?;
            }
            writeln!(w, "{verdict}{}", Proved::suffix(&proved))?;
        }
        Ok(())
    })?;
    if let Some(prover) = prover {
        prover.finish()?;
    }
    Ok(ExitCode::from(if all_unique {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
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
