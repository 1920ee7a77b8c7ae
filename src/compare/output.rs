//! CSV and JSON outputs of a comparison: one row per run with stable snake_case columns
//! ([`CSV_COLUMNS`]). In CSV an absent value is an empty field and the counters are one
//! `name=value;name=value` field; in JSON an absent value is `null` and the counters are an
//! object. The JSON document also holds how the runs were made and the [`Analysis`].
//!
//! A CSV holds rows only; how they were made (limit, entry order, machine, command line)
//! goes in a JSON sidecar, [`Meta`], written beside it as `NAME.meta.json`
//! ([`sidecar_path`]). [`read_csv`] and the sidecar give the [`Comparison`] back, so a
//! report can be redrawn from saved rows. The sidecar's [`Provenance::study`] names the
//! study and shard the rows are, so that the CSVs of shards can be merged
//! ([`super::shard`]).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use super::shard::{Merged, Study};
use super::summary::Analysis;
use super::{CompareError, Comparison, Outcome, Run, ThreadedEntry};
use crate::run::Counters;

/// The CSV header, in order; the JSON run objects use the same keys.
pub const CSV_COLUMNS: [&str; 23] = [
    "file",
    "line",
    "puzzle_index",
    "size",
    "givens",
    "solver",
    "backend",
    "encoding",
    "repeat",
    "outcome",
    "checked",
    "vars",
    "clauses",
    "literals",
    "puzzle_vars",
    "puzzle_clauses",
    "puzzle_literals",
    "encode_us",
    "solve_us",
    "decode_us",
    "total_us",
    "counters",
    "error",
];

/// Serialises counters as a JSON object `{"decisions": 12, …}` in their stable order.
///
/// # Errors
/// The serializer's.
pub fn counters_as_map<S: Serializer>(counters: &Counters, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(counters.0.len()))?;
    for (name, value) in &counters.0 {
        map.serialize_entry(name, value)?;
    }
    map.end()
}

/// Counters as one CSV field: `decisions=12;conflicts=3`.
pub fn counters_field(counters: &Counters) -> String {
    let parts: Vec<String> = counters.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.join(";")
}

/// A run as one CSV record: the fields of [`Run`] in [`CSV_COLUMNS`] order, times with
/// three decimals, counters as one field.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct CsvRun {
    file: String,
    line: usize,
    puzzle_index: usize,
    size: usize,
    givens: usize,
    solver: String,
    backend: Option<String>,
    encoding: Option<String>,
    repeat: usize,
    /// An [`Outcome`] name (parsed by hand, so a bad one is reported with its column).
    outcome: String,
    checked: bool,
    vars: Option<usize>,
    clauses: Option<usize>,
    literals: Option<usize>,
    // Absent from the CSVs of earlier versions (see `read_csv`).
    #[serde(default)]
    puzzle_vars: Option<usize>,
    #[serde(default)]
    puzzle_clauses: Option<usize>,
    #[serde(default)]
    puzzle_literals: Option<usize>,
    #[serde(serialize_with = "opt_us")]
    encode_us: Option<f64>,
    #[serde(serialize_with = "us")]
    solve_us: f64,
    #[serde(serialize_with = "opt_us")]
    decode_us: Option<f64>,
    #[serde(serialize_with = "us")]
    total_us: f64,
    counters: String,
    error: Option<String>,
}

fn us<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{value:.3}"))
}

fn opt_us<S: Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => us(v, s),
        None => s.serialize_none(),
    }
}

impl From<&Run> for CsvRun {
    fn from(run: &Run) -> CsvRun {
        CsvRun {
            file: run.file.clone(),
            line: run.line,
            puzzle_index: run.puzzle_index,
            size: run.size,
            givens: run.givens,
            solver: run.solver.clone(),
            backend: run.backend.clone(),
            encoding: run.encoding.clone(),
            repeat: run.repeat,
            outcome: run.outcome.name().to_string(),
            checked: run.checked,
            vars: run.vars,
            clauses: run.clauses,
            literals: run.literals,
            puzzle_vars: run.puzzle_vars,
            puzzle_clauses: run.puzzle_clauses,
            puzzle_literals: run.puzzle_literals,
            encode_us: run.encode_us,
            solve_us: run.solve_us,
            decode_us: run.decode_us,
            total_us: run.total_us,
            counters: counters_field(&run.counters),
            error: run.error.clone(),
        }
    }
}

/// Counter names read back from a CSV, each leaked once: [`Counters`] holds `&'static str`.
static COUNTER_NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

fn counter_name(name: &str) -> &'static str {
    let mut names = COUNTER_NAMES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&known) = names.iter().find(|&&n| n == name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(leaked);
    leaked
}

/// Parses a counters field, `decisions=12;conflicts=3`.
fn parse_counters(field: &str) -> Result<Counters, String> {
    let mut counters = Vec::new();
    for part in field.split(';').filter(|p| !p.is_empty()) {
        let (name, value) = part
            .split_once('=')
            .ok_or_else(|| format!("counter `{part}` is not name=value"))?;
        let value = value
            .parse()
            .map_err(|_| format!("counter `{part}` has no whole number"))?;
        counters.push((counter_name(name), value));
    }
    Ok(Counters(counters))
}

/// A field of [`CsvRun`] that does not parse: its 0-based column and why.
type FieldError = (u64, String);

fn column(name: &str) -> u64 {
    CSV_COLUMNS.iter().position(|c| *c == name).unwrap_or(0) as u64
}

impl CsvRun {
    fn into_run(self) -> Result<Run, FieldError> {
        let outcome: Outcome = self
            .outcome
            .parse()
            .map_err(|e| (column("outcome"), format!("outcome: {e}")))?;
        let counters =
            parse_counters(&self.counters).map_err(|reason| (column("counters"), reason))?;
        Ok(Run {
            counters,
            outcome,
            file: self.file,
            line: self.line,
            puzzle_index: self.puzzle_index,
            size: self.size,
            givens: self.givens,
            solver: self.solver,
            backend: self.backend,
            encoding: self.encoding,
            repeat: self.repeat,
            checked: self.checked,
            vars: self.vars,
            clauses: self.clauses,
            literals: self.literals,
            puzzle_vars: self.puzzle_vars,
            puzzle_clauses: self.puzzle_clauses,
            puzzle_literals: self.puzzle_literals,
            encode_us: self.encode_us,
            solve_us: self.solve_us,
            decode_us: self.decode_us,
            total_us: self.total_us,
            error: self.error,
        })
    }
}

/// Writes the header and one record per run.
///
/// # Errors
/// [`CompareError::Output`] on a write error.
pub fn write_csv(w: &mut dyn Write, runs: &[Run]) -> Result<(), CompareError> {
    let mut out = csv::Writer::from_writer(w);
    if runs.is_empty() {
        out.write_record(CSV_COLUMNS).map_err(csv_error)?;
    }
    for run in runs {
        out.serialize(CsvRun::from(run)).map_err(csv_error)?;
    }
    out.flush().map_err(|e| csv_error(e.into()))
}

/// Reads the runs of a CSV [`write_csv`] wrote; `source` names it in errors.
///
/// # Errors
/// [`CompareError::BadCsv`] naming the line of the first bad record (or the header).
pub fn read_csv(r: impl Read, source: &str) -> Result<Vec<Run>, CompareError> {
    let bad = |line: u64, field: Option<u64>, reason: String| CompareError::BadCsv {
        source_name: source.to_string(),
        line,
        column: field.map(|f| f + 1),
        reason,
    };
    let mut reader = csv::Reader::from_reader(r);
    let headers = reader
        .headers()
        .map_err(|e| bad(1, None, e.to_string()))?
        .clone();
    // The CSVs of earlier versions lack the puzzle's own sizes: read them all the same.
    let earlier = CSV_COLUMNS
        .iter()
        .filter(|c| !c.starts_with("puzzle_") || **c == "puzzle_index");
    if headers.iter().ne(CSV_COLUMNS) && headers.iter().ne(earlier.copied()) {
        return Err(bad(
            1,
            None,
            format!(
                "not a sudosat compare CSV: the header must be {}",
                CSV_COLUMNS.join(",")
            ),
        ));
    }
    let mut runs = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            bad(line, None, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let row: CsvRun = record
            .deserialize(Some(&headers))
            .map_err(|e| match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    let name = err
                        .field()
                        .and_then(|i| headers.get(i as usize))
                        .unwrap_or("?");
                    bad(line, err.field(), format!("{name}: {}", err.kind()))
                }
                _ => bad(line, None, e.to_string()),
            })?;
        runs.push(
            row.into_run()
                .map_err(|(field, reason)| bad(line, Some(field), reason))?,
        );
    }
    Ok(runs)
}

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
    /// How the runs were merged from shards ([`super::merge::merge`]), if they were.
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

/// A summary as one CSV record (its slowest puzzles are in the JSON only).
#[derive(Serialize)]
struct SummaryRecord<'a> {
    solver: &'a str,
    group_by: Option<&'static str>,
    group: Option<usize>,
    runs: usize,
    solved: usize,
    no_solution: usize,
    stopped: usize,
    timeout: usize,
    failed: usize,
    wrong: usize,
    timed_puzzles: usize,
    #[serde(serialize_with = "opt_us")]
    mean_us: Option<f64>,
    #[serde(serialize_with = "opt_us")]
    median_us: Option<f64>,
    #[serde(serialize_with = "opt_us")]
    variance_us2: Option<f64>,
    #[serde(serialize_with = "opt_us")]
    max_us: Option<f64>,
    #[serde(serialize_with = "opt_us")]
    par2_us: Option<f64>,
    par2_limit_s: Option<f64>,
}

/// Writes the summaries as CSV, one record per entry, then the virtual best solver, then
/// the same per group: `solver`, `group_by` and `group` (empty overall), the outcome
/// counts, `timed_puzzles`, the times in µs and PAR-2 with its `par2_limit_s`.
///
/// # Errors
/// [`CompareError::Output`] on a write error.
pub fn write_summary_csv(w: &mut dyn Write, analysis: &Analysis) -> Result<(), CompareError> {
    let mut out = csv::Writer::from_writer(w);
    let overall = analysis.summary.iter().chain([&analysis.virtual_best]);
    let grouped = analysis
        .summary_by_group
        .iter()
        .chain(&analysis.virtual_best_by_group);
    for s in overall.chain(grouped) {
        out.serialize(SummaryRecord {
            solver: &s.solver,
            group_by: s.group.and(analysis.group_by.map(|g| g.name())),
            group: s.group,
            runs: s.runs,
            solved: s.solved,
            no_solution: s.no_solution,
            stopped: s.stopped,
            timeout: s.timeout,
            failed: s.failed,
            wrong: s.wrong,
            timed_puzzles: s.timed_puzzles,
            mean_us: s.mean_us,
            median_us: s.median_us,
            variance_us2: s.variance_us2,
            max_us: s.max_us,
            par2_us: s.par2_us,
            par2_limit_s: analysis.par2_limit_s,
        })
        .map_err(csv_error)?;
    }
    out.flush().map_err(|e| csv_error(e.into()))
}

/// The sidecar of a CSV file: `runs.csv` → `runs.meta.json`.
pub fn sidecar_path(csv: &Path) -> PathBuf {
    csv.with_extension("meta.json")
}

/// The JSON document: the settings and provenance, the runs, and their analysis.
#[derive(Serialize)]
struct Report<'a> {
    sudosat_version: &'static str,
    #[serde(flatten)]
    comparison: &'a Comparison,
    provenance: Option<&'a Provenance>,
    #[serde(flatten)]
    analysis: &'a Analysis,
}

/// A CSV writer's error with its I/O error unwrapped, so its kind (a closed pipe) shows.
fn csv_error(e: csv::Error) -> CompareError {
    let source = if e.is_io_error() {
        match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            _ => unreachable!("is_io_error"),
        }
    } else {
        std::io::Error::other(e)
    };
    CompareError::Output {
        what: "CSV",
        source,
    }
}

fn json_error(e: impl Into<std::io::Error>) -> CompareError {
    CompareError::Output {
        what: "JSON",
        source: e.into(),
    }
}

/// Writes the JSON document: `sudosat_version`, `puzzles`, `solvers`, `repeat`,
/// `timeout_s`, `jobs`, `parallel`, `interrupted`, `runs` (one object per run),
/// `provenance` (or `null`), then the [`Analysis`]: `par2_limit_s`, `group_by`, `summary`
/// (per solver), `virtual_best`, `summary_by_group` and `virtual_best_by_group` (empty
/// without a grouping), `fastest_on`, `encoding_sizes`, `instance` (`puzzle` or `formula`)
/// and `ratios` (each entry after the first against the first).
///
/// # Errors
/// [`CompareError::Output`] on a write error.
pub fn write_json(
    w: &mut dyn Write,
    comparison: &Comparison,
    analysis: &Analysis,
    provenance: Option<&Provenance>,
) -> Result<(), CompareError> {
    let report = Report {
        sudosat_version: env!("CARGO_PKG_VERSION"),
        comparison,
        provenance,
        analysis,
    };
    serde_json::to_writer_pretty(&mut *w, &report).map_err(json_error)?;
    writeln!(w).map_err(json_error)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Outcome;

    fn sample() -> Run {
        Run {
            file: "a,b.txt".to_string(),
            line: 3,
            puzzle_index: 1,
            size: 9,
            givens: 17,
            solver: "dpll/minimal".to_string(),
            backend: Some("dpll".to_string()),
            encoding: Some("minimal".to_string()),
            repeat: 1,
            outcome: Outcome::Solved,
            checked: true,
            vars: Some(729),
            clauses: Some(8846),
            literals: Some(20000),
            puzzle_vars: Some(729),
            puzzle_clauses: Some(8846),
            puzzle_literals: Some(20000),
            encode_us: Some(12.5),
            solve_us: 100.0,
            decode_us: Some(1.0),
            total_us: 114.25,
            counters: Counters(vec![("decisions", 4), ("conflicts", 1)]),
            error: None,
        }
    }

    #[test]
    fn json_run_keys_are_the_csv_columns() {
        let value = serde_json::to_value(sample()).unwrap();
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        let mut columns = CSV_COLUMNS.to_vec();
        keys.sort_unstable();
        columns.sort_unstable();
        assert_eq!(keys, columns);
        assert_eq!(value["counters"]["decisions"], 4);
        assert_eq!(value["outcome"], "solved");
        assert_eq!(value["error"], serde_json::Value::Null);
    }

    #[test]
    fn a_csv_of_an_earlier_version_reads_back_without_the_puzzles_own_sizes() {
        let mut out = Vec::new();
        write_csv(&mut out, &[sample()]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let earlier = text
            .replace(",puzzle_vars,puzzle_clauses,puzzle_literals", "")
            .replace(",729,8846,20000,729,8846,20000,", ",729,8846,20000,");
        let runs = read_csv(earlier.as_bytes(), "old.csv").unwrap();
        let expected = Run {
            puzzle_vars: None,
            puzzle_clauses: None,
            puzzle_literals: None,
            ..sample()
        };
        assert_eq!(runs, [expected]);
    }

    #[test]
    fn csv_quotes_and_flattens() {
        let mut out = Vec::new();
        write_csv(&mut out, &[sample()]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), CSV_COLUMNS.join(","));
        assert_eq!(
            lines.next().unwrap(),
            "\"a,b.txt\",3,1,9,17,dpll/minimal,dpll,minimal,1,solved,true,729,8846,20000,\
             729,8846,20000,12.500,100.000,1.000,114.250,decisions=4;conflicts=1,"
        );
    }

    #[test]
    fn json_document_has_runs_and_summaries() {
        let comparison = Comparison {
            puzzles: 1,
            solvers: vec!["dpll/minimal".to_string()],
            repeat: 1,
            timeout_s: None,
            jobs: 1,
            parallel: false,
            interrupted: false,
            threaded: Vec::new(),
            runs: vec![sample()],
        };
        let mut out = Vec::new();
        let analysis = Analysis::new(&comparison, Some(crate::compare::GroupBy::Size));
        write_json(&mut out, &comparison, &analysis, None).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(doc["runs"].as_array().unwrap().len(), 1);
        assert_eq!(doc["parallel"], false);
        assert_eq!(doc["group_by"], "size");
        assert_eq!(doc["summary"][0]["solved"], 1);
        assert_eq!(doc["summary_by_group"][0]["group"], 9);
        assert_eq!(doc["encoding_sizes"][0]["clauses"], 8846.0);
        assert_eq!(doc["virtual_best"]["solved"], 1);
        assert_eq!(doc["par2_limit_s"], serde_json::Value::Null);
        assert_eq!(doc["provenance"], serde_json::Value::Null);
    }

    #[test]
    fn csv_rows_read_back_as_written() {
        let mut other = sample();
        (other.solver, other.backend, other.encoding) = ("dlx".to_string(), None, None);
        (other.vars, other.clauses, other.literals) = (None, None, None);
        (other.encode_us, other.decode_us) = (None, None);
        other.outcome = Outcome::Timeout;
        other.checked = false;
        other.counters = Counters::default();
        other.error = Some("timed out, \"quoted\"\nnext line".to_string());
        let runs = vec![sample(), other];
        let mut out = Vec::new();
        write_csv(&mut out, &runs).unwrap();
        let back = read_csv(out.as_slice(), "runs.csv").unwrap();
        assert_eq!(back, runs);
        // An empty comparison still has the header, and reads back empty.
        let mut out = Vec::new();
        write_csv(&mut out, &[]).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap().trim(),
            CSV_COLUMNS.join(",")
        );
        assert_eq!(read_csv(out.as_slice(), "e.csv").unwrap(), []);
    }

    #[test]
    fn bad_csv_names_file_line_and_column() {
        let mut out = Vec::new();
        write_csv(&mut out, &[sample(), sample()]).unwrap();
        let text = String::from_utf8(out)
            .unwrap()
            .replacen(",solved,", ",solvd,", 2);
        let text = text.replacen(",solvd,", ",solved,", 1);
        let err = read_csv(text.as_bytes(), "runs.csv")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("runs.csv:3:10: outcome: "), "{err}");
        let err = read_csv("a,b\n1,2\n".as_bytes(), "x.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("x.csv:1: not a sudosat compare CSV"),
            "{err}"
        );
        let text = format!(
            "{}\n{}",
            CSV_COLUMNS.join(","),
            "f,1,1,9,17,a,,,1,solved,true,,,,,,,,1,,1,decisions,"
        );
        let err = read_csv(text.as_bytes(), "c.csv").unwrap_err().to_string();
        assert!(err.starts_with("c.csv:2:22: counter `decisions`"), "{err}");
    }

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

    #[test]
    fn summary_csv_has_entries_then_the_virtual_best() {
        let comparison = Comparison {
            puzzles: 1,
            solvers: vec!["dpll/minimal".to_string()],
            repeat: 1,
            timeout_s: Some(1.0),
            jobs: 1,
            parallel: false,
            interrupted: false,
            threaded: Vec::new(),
            runs: vec![sample()],
        };
        let analysis = Analysis::new(&comparison, Some(crate::compare::GroupBy::Clues));
        let mut out = Vec::new();
        write_summary_csv(&mut out, &analysis).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("solver,group_by,group,runs,solved,"),
            "{text}"
        );
        assert!(lines[1].starts_with("dpll/minimal,,,1,1,"), "{text}");
        assert!(lines[1].ends_with(",114.250,1.0"), "{text}");
        assert!(lines[2].starts_with("virtual-best,,,1,1,"), "{text}");
        assert!(lines[3].starts_with("dpll/minimal,clues,17,1,1,"), "{text}");
        assert_eq!(lines.len(), 5);
    }
}
