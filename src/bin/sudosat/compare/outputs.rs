//! Where `compare`'s results go: the CSV with its sidecar, the JSON, the SVG plot, the
//! HTML report and the summary table, and the exit code they call for; the `--scatter`
//! pairs read and checked against the entries.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use sudosat::compare::output::{Meta, Provenance};
use sudosat::compare::report::{self, ReportOptions};
use sudosat::compare::shard::Shard;
use sudosat::compare::summary::{self, Analysis, TableStyle};
use sudosat::compare::{self, output, plot, CompareError, Comparison, GroupBy, Outcome, Run};

use crate::common::{write_output, EXIT_NEGATIVE, EXIT_OK};

/// Where the results go and how the summary looks.
#[derive(Clone, Debug)]
pub(super) struct Outputs {
    pub(super) csv: Option<PathBuf>,
    pub(super) json: Option<PathBuf>,
    pub(super) plot: Option<PathBuf>,
    pub(super) report: Option<PathBuf>,
    /// Scatter pairs of the report (none: the default pairs).
    pub(super) scatter: Vec<(String, String)>,
    pub(super) by: Option<GroupBy>,
    pub(super) style: TableStyle,
    /// The summary goes to stderr when a file output takes stdout (`-`).
    pub(super) table_to_stderr: bool,
    /// A failed run makes the exit code 1 (`--strict`).
    pub(super) strict: bool,
    /// The command line, machine and version of the measurement.
    pub(super) provenance: Provenance,
}

impl Outputs {
    /// Writes every output of `comparison` (files whole or not at all, then the summary)
    /// and returns the exit code it calls for.
    pub(super) fn write(&self, comparison: &Comparison) -> Result<ExitCode> {
        let analysis = Analysis::new(comparison, self.by);
        let plot_by = self.by.unwrap_or_else(|| GroupBy::auto(&comparison.runs));
        if let Some(path) = &self.csv {
            write_output(Some(path), |w| Ok(output::write_csv(w, &comparison.runs)?))?;
            if path != Path::new("-") {
                let meta = Meta::of(comparison, self.provenance.clone());
                write_output(Some(&output::sidecar_path(path)), |w| {
                    Ok(output::write_meta(w, &meta)?)
                })?;
            }
        }
        if let Some(path) = &self.json {
            write_output(Some(path), |w| {
                Ok(output::write_json(
                    w,
                    comparison,
                    &analysis,
                    Some(&self.provenance),
                )?)
            })?;
        }
        if let Some(path) = &self.plot {
            let svg = plot::render_svg(comparison, &analysis, plot_by)?;
            write_output(Some(path), |w| Ok(w.write_all(svg.as_bytes())?))?;
        }
        if let Some(dir) = &self.report {
            let scatter = if self.scatter.is_empty() {
                plot::default_pairs(comparison, &comparison.default_entry_label())
            } else {
                self.scatter.clone()
            };
            let options = ReportOptions {
                provenance: self.provenance.clone(),
                scatter,
                times_by: plot_by,
            };
            report::write_report(dir, comparison, &analysis, &options)?;
        }
        let mut table = Vec::new();
        for note in self.notes(comparison) {
            writeln!(table, "{note}")?;
        }
        summary::write_table(&mut table, comparison, &analysis, self.style)?;
        if self.table_to_stderr {
            eprint!("{}", String::from_utf8_lossy(&table));
        } else {
            write_output(None, |w| Ok(w.write_all(&table)?))?;
        }
        if let Some(code) = crate::signals::exit_code() {
            let planned = self.provenance.study.as_ref().map_or(
                comparison.puzzles * comparison.solvers.len() * comparison.repeat,
                |study| study.runs,
            );
            let stopped = comparison
                .runs
                .iter()
                .filter(|r| r.error.as_deref() == Some(compare::STOPPED_BY_INTERRUPT))
                .count();
            eprintln!(
                "sudosat: interrupted: {} of {planned} runs made ({stopped} of them stopped \
                 in flight); the outputs hold those",
                comparison.runs.len(),
            );
            return Ok(ExitCode::from(code));
        }
        if self.strict {
            let failed: Vec<&Run> = comparison
                .runs
                .iter()
                .filter(|r| r.outcome == Outcome::Failed)
                .collect();
            if let Some(first) = failed.first() {
                eprintln!(
                    "sudosat: {} of {} runs failed (--strict); the first: {} on {}:{}: {}",
                    failed.len(),
                    comparison.runs.len(),
                    first.solver,
                    first.file,
                    first.line,
                    first.error.as_deref().unwrap_or("no message")
                );
                return Ok(ExitCode::from(EXIT_NEGATIVE));
            }
        }
        Ok(ExitCode::from(if comparison.has_wrong_answer() {
            EXIT_NEGATIVE
        } else {
            EXIT_OK
        }))
    }
}

impl Outputs {
    /// The lines above the summary: which shard of which study a sharded run made, or how
    /// a merged comparison was put together.
    fn notes(&self, comparison: &Comparison) -> Vec<String> {
        let p = &self.provenance;
        if let Some(merged) = &p.merged {
            return merged.notes();
        }
        match &p.study {
            Some(study) if study.shard != Shard::WHOLE => vec![format!(
                "shard {} of study {} on {}: {} of the {} runs",
                study.shard,
                study.id,
                study.host,
                study.runs,
                comparison.puzzles * comparison.solvers.len() * comparison.repeat
            )],
            _ => Vec::new(),
        }
    }
}

/// `--scatter A,B` values as pairs, split at the one comma outside an entry's bracket of
/// options (`cdcl[propagate=grid,root=none]/extended+reduced,dlx`).
pub(super) fn parse_pairs(values: &[String]) -> Result<Vec<(String, String)>> {
    values
        .iter()
        .map(|v| {
            let mut depth = 0usize;
            let commas: Vec<usize> = v
                .char_indices()
                .filter_map(|(i, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' => depth = depth.saturating_sub(1),
                        ',' if depth == 0 => return Some(i),
                        _ => {}
                    }
                    None
                })
                .collect();
            match commas[..] {
                [i] if !v[..i].trim().is_empty() && !v[i + 1..].trim().is_empty() => {
                    Ok((v[..i].trim().to_string(), v[i + 1..].trim().to_string()))
                }
                _ => bail!("--scatter `{v}`: expected two entry labels, `A,B`"),
            }
        })
        .collect()
}

/// Every entry a scatter pair names must be one of `labels`.
pub(super) fn check_pairs(pairs: &[(String, String)], labels: &[String]) -> Result<()> {
    for (a, b) in pairs {
        for name in [a, b] {
            if !labels.contains(name) {
                return Err(CompareError::UnknownEntry(name.clone(), labels.join(", ")).into());
            }
        }
    }
    Ok(())
}
