//! The memory checks before anything runs: a SAT entry whose formula is estimated above
//! its share of `--max-memory` (over the `--jobs` solves at once) is refused with the sizes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::{bail, Context, Result};
use sudosat::backend::{BackendKind, BackendSpec, RootMode};
use sudosat::compare::formulas::{run_formulas_watched, FormulaInput};
use sudosat::compare::merge::{self, ShardFile, StudyInputs};
use sudosat::compare::output::{Meta, Provenance};
use sudosat::compare::report::{self, ReportOptions};
use sudosat::compare::shard::{self, Shard, Study};
use sudosat::compare::summary::{self, Analysis, TableStyle};
use sudosat::compare::{
    self, output, plot, CompareConfig, CompareError, Comparison, GroupBy, Outcome, Puzzle, Run,
    Watch,
};
use sudosat::encode::{check_memory_budget, memory_estimate, CnfDescription};
use sudosat::grid::Format;
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::{SolverOptions, SolverSpec};

use crate::args::named;
use crate::common::{
    display_path, inputs_or_stdin, progress_bar, read_cnf, read_located_inputs, report_error,
    stdin_at_most_once, time_limit, write_output, EXIT_NEGATIVE, EXIT_OK,
};


/// Refuses, before anything runs, an in-process entry on a formula whose solver state is
/// estimated above its share of the memory budget (as [`check_memory`] for puzzles).
pub(super) fn check_formula_memory(
    config: &CompareConfig,
    formulas: &[FormulaInput],
    flag: Option<u64>,
) -> Result<()> {
    let Some(budget) = crate::common::memory_budget(flag) else {
        return Ok(());
    };
    let jobs = config.jobs.max(1);
    let share = budget / jobs as u64;
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
pub(super) fn check_memory(config: &CompareConfig, puzzles: &[Puzzle], flag: Option<u64>) -> Result<()> {
    let Some(budget) = crate::common::memory_budget(flag) else {
        return Ok(());
    };
    let jobs = config.jobs.max(1);
    let share = budget / jobs as u64;
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
