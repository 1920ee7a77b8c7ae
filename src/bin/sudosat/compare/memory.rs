//! The memory checks before anything runs: a SAT entry whose formula is estimated above
//! its share of `--max-memory` (over the `--jobs` solves at once) is refused with the sizes.

use anyhow::{bail, Result};
use sudosat::compare::formulas::FormulaInput;
use sudosat::compare::{CompareConfig, Puzzle};
use sudosat::encode::{check_memory_budget, memory_estimate};
use sudosat::solve::SolverSpec;

/// The memory budget's share of each of the `--jobs` solves at once, and the jobs; `None`
/// without a budget.
fn share_per_job(config: &CompareConfig, flag: Option<u64>) -> Option<(u64, usize)> {
    let budget = crate::common::memory_budget(flag)?;
    let jobs = config.jobs.max(1);
    Some((budget / jobs as u64, jobs))
}

/// Refuses, before anything runs, an in-process entry on a formula whose solver state is
/// estimated above its share of the memory budget (as [`check_memory`] for puzzles).
pub(super) fn check_formula_memory(
    config: &CompareConfig,
    formulas: &[FormulaInput],
    flag: Option<u64>,
) -> Result<()> {
    let Some((share, jobs)) = share_per_job(config, flag) else {
        return Ok(());
    };
    let embedded = config.entries.iter().find(
        |entry| matches!(entry, SolverSpec::Sat { backend, .. } if backend.kind.is_embedded()),
    );
    let Some(entry) = embedded else {
        return Ok(());
    };
    for formula in formulas {
        let size = formula.cnf.size();
        let needed = memory_estimate(size);
        if needed > share {
            bail!(
                "{}: entry {}: {} variables, {} clauses and {} literals, about {} MiB to \
                 solve, over the memory budget of {} MiB a job (--jobs {jobs}); leave the \
                 in-process entries out, or raise --max-memory",
                formula.file,
                config.label(entry),
                size.vars,
                size.clauses,
                size.literals,
                needed.div_ceil(1 << 20),
                share >> 20
            );
        }
    }
    Ok(())
}

/// Refuses, before anything runs, a SAT entry whose formula on some puzzle is estimated
/// above its share of the memory budget (`--max-memory` over the `--jobs` solves at once).
pub(super) fn check_memory(
    config: &CompareConfig,
    puzzles: &[Puzzle],
    flag: Option<u64>,
) -> Result<()> {
    let Some((share, jobs)) = share_per_job(config, flag) else {
        return Ok(());
    };
    for entry in &config.entries {
        let Some(encoding) = entry.encoding() else {
            continue;
        };
        for p in puzzles {
            match check_memory_budget(encoding, &p.grid, share) {
                Ok(()) => {}
                Err(sudosat::Error::OverBudget { size, needed, .. }) => bail!(
                    "{}:{}: entry {}: {} variables, {} clauses and {} literals, about {} MiB to \
                     solve, over the memory budget of {} MiB a job (--jobs {jobs}); leave the \
                     entry out, use a +reduced encoding, or raise --max-memory",
                    p.file,
                    p.line,
                    entry.label(),
                    size.vars,
                    size.clauses,
                    size.literals,
                    needed.div_ceil(1 << 20),
                    share >> 20
                ),
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}
