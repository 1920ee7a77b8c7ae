//! The sidecar of a CSV of runs, [`Meta`]: how the runs were made (limit, entry order,
//! and the [`Provenance`]: version, command line, time, machine), written beside the CSV as
//! `NAME.meta.json` ([`sidecar_path`]). With [`read_csv`](super::read_csv) it gives the
//! [`Comparison`] back, so a report can be redrawn from saved rows. The sidecar's
//! [`Provenance::study`] names the study and shard the rows are, so that the CSVs of shards
//! can be merged ([`crate::compare::shard`]).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::compare::shard::{Merged, Study};
use crate::compare::{CompareError, Comparison, Run, ThreadedEntry};

/// The machine a comparison ran on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Operating system and kernel release (`linux 6.1.0`).
    pub os: String,
    /// CPU architecture.
    pub arch: String,
    /// CPU model, when the system says (`/proc/cpuinfo`).
    pub cpu: Option<String>,
    /// Logical CPUs available to the process.
    pub cpus: usize,
}

impl Machine {
    /// The machine this process runs on.
    pub fn detect() -> Machine {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok();
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, model)| model.trim().to_string())
            });
        Machine {
            os: match release {
                Some(r) => format!("{} {}", std::env::consts::OS, r.trim()),
                None => std::env::consts::OS.to_string(),
            },
            arch: std::env::consts::ARCH.to_string(),
            cpu,
            cpus: crate::run::available_cores(),
        }
    }
}

/// Where a comparison's figures come from: version, command line, time and machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The sudosat version that measured.
    pub sudosat_version: String,
    /// The command line that measured, as typed (arguments in order).
    pub command_line: Vec<String>,
    /// When the measurement started, UTC (`2026-11-23 09:40:00 UTC`).
    pub started_utc: String,
    /// The machine.
    pub machine: Machine,
    /// The SAT solver libraries built into the sudosat that measured, as each names itself
    /// (`cadical-3.0.1`, `kissat-4.0.4`, `varisat-0.2`, …).
    #[serde(default)]
    pub embedded_solvers: Vec<String>,
    /// The command line that redrew the report from saved rows, if it was redrawn.
    #[serde(default)]
    pub redrawn_by: Option<Vec<String>>,
    /// The study these runs belong to and the shard they are, with the host that measured
    /// ([`Study`]); written by every measuring `compare`, read back to merge shards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study: Option<Study>,
    /// How the runs were merged from shards ([`crate::compare::merge::merge`]), if they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<Merged>,
}

impl Provenance {
    /// This process: its version, `command_line`, the time now and this machine.
    pub fn here(command_line: Vec<String>) -> Provenance {
        Provenance {
            sudosat_version: env!("CARGO_PKG_VERSION").to_string(),
            command_line,
            started_utc: utc_now(),
            machine: Machine::detect(),
            embedded_solvers: crate::backend::embedded_libraries(),
            redrawn_by: None,
            study: None,
            merged: None,
        }
    }
}

/// The time now, UTC, as `YYYY-MM-DD HH:MM:SS UTC`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// What a CSV of runs does not hold: how they were made. Written beside the CSV as its
/// sidecar ([`sidecar_path`]) and read back by `compare --from-csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// Version, command line, time, machine.
    pub provenance: Provenance,
    /// Puzzles read.
    pub puzzles: usize,
    /// Entry labels, in report order.
    pub solvers: Vec<String>,
    /// Runs of each puzzle × entry.
    pub repeat: usize,
    /// The time limit of each solve, seconds (PAR-2 uses it).
    pub timeout_s: Option<f64>,
    /// Threads puzzles ran on.
    pub jobs: usize,
    /// Whether puzzles ran in parallel.
    pub parallel: bool,
    /// Whether the run was stopped before every run was made.
    pub interrupted: bool,
    /// The entries whose solves took more than one thread, one solve at a time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub threaded: Vec<ThreadedEntry>,
}

impl Meta {
    /// The settings of `comparison`, made as `provenance` says.
    pub fn of(comparison: &Comparison, provenance: Provenance) -> Meta {
        Meta {
            provenance,
            puzzles: comparison.puzzles,
            solvers: comparison.solvers.clone(),
            repeat: comparison.repeat,
            timeout_s: comparison.timeout_s,
            jobs: comparison.jobs,
            parallel: comparison.parallel,
            interrupted: comparison.interrupted,
            threaded: comparison.threaded.clone(),
        }
    }

    /// The settings of saved `runs` without a sidecar: entries in order of first
    /// appearance, the largest repeat, no limit, one job.
    pub fn guess(runs: &[Run]) -> Meta {
        let mut solvers: Vec<String> = Vec::new();
        for run in runs {
            if !solvers.contains(&run.solver) {
                solvers.push(run.solver.clone());
            }
        }
        let mut puzzles: Vec<usize> = runs.iter().map(|r| r.puzzle_index).collect();
        puzzles.sort_unstable();
        puzzles.dedup();
        Meta {
            provenance: Provenance::default(),
            puzzles: puzzles.len(),
            solvers,
            repeat: runs.iter().map(|r| r.repeat).max().unwrap_or(1),
            timeout_s: None,
            jobs: 1,
            parallel: false,
            interrupted: false,
            threaded: Vec::new(),
        }
    }

    /// The comparison of `runs` made with these settings. Entries of the rows that the
    /// settings do not list are added after the listed ones.
    pub fn comparison(&self, runs: Vec<Run>) -> Comparison {
        let mut solvers = self.solvers.clone();
        for run in &runs {
            if !solvers.contains(&run.solver) {
                solvers.push(run.solver.clone());
            }
        }
        Comparison {
            puzzles: self.puzzles,
            solvers,
            repeat: self.repeat,
            timeout_s: self.timeout_s,
            jobs: self.jobs,
            parallel: self.parallel,
            interrupted: self.interrupted,
            threaded: self.threaded.clone(),
            runs,
        }
    }
}

/// The sidecar of a CSV file: `runs.csv` → `runs.meta.json`.
pub fn sidecar_path(csv: &Path) -> PathBuf {
    csv.with_extension("meta.json")
}

/// Writes the sidecar of a CSV.
///
/// # Errors
/// [`CompareError::Output`] on a write error.
pub fn write_meta(w: &mut dyn Write, meta: &Meta) -> Result<(), CompareError> {
    serde_json::to_writer_pretty(&mut *w, meta).map_err(json_error)?;
    writeln!(w).map_err(json_error)
}

/// Reads a sidecar; `source` names it in errors.
///
/// # Errors
/// [`CompareError::BadCsv`] with the line of the JSON error.
pub fn read_meta(r: impl Read, source: &str) -> Result<Meta, CompareError> {
    serde_json::from_reader(r).map_err(|e| CompareError::BadCsv {
        source_name: source.to_string(),
        line: e.line() as u64,
        column: Some(e.column() as u64),
        reason: format!("not a compare sidecar: {e}"),
    })
}

/// A JSON error as [`CompareError::Output`], for the sidecar and the JSON document.
pub(super) fn json_error(e: impl Into<std::io::Error>) -> CompareError {
    CompareError::Output {
        what: "JSON",
        source: e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::output::csv::tests::sample;

    #[test]
    fn the_sidecar_restores_the_settings() {
        let comparison = Comparison {
            puzzles: 3,
            solvers: vec!["dlx".to_string(), "dpll/minimal".to_string()],
            repeat: 2,
            timeout_s: Some(2.5),
            jobs: 2,
            parallel: true,
            interrupted: false,
            threaded: Vec::new(),
            runs: vec![sample()],
        };
        let provenance = Provenance::here(vec!["sudosat".to_string(), "compare".to_string()]);
        assert!(provenance.started_utc.ends_with(" UTC"));
        let mut out = Vec::new();
        write_meta(&mut out, &Meta::of(&comparison, provenance.clone())).unwrap();
        let meta = read_meta(out.as_slice(), "runs.meta.json").unwrap();
        assert_eq!(meta.provenance, provenance);
        assert_eq!(meta.comparison(vec![sample()]), comparison);
        let guessed = Meta::guess(&comparison.runs).comparison(comparison.runs.clone());
        assert_eq!(guessed.solvers, ["dpll/minimal"]);
        assert_eq!((guessed.timeout_s, guessed.puzzles), (None, 1));
        let err = read_meta("{\n  \"puzzles\": x".as_bytes(), "m.json").unwrap_err();
        assert!(err.to_string().starts_with("m.json:2:"), "{err}");
        assert_eq!(
            sidecar_path(Path::new("out/runs.csv")),
            Path::new("out/runs.meta.json")
        );
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_415), (2025, 11, 23));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
