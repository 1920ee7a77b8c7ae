//! The CSV files of a comparison: one row per run with stable snake_case columns
//! ([`CSV_COLUMNS`]), an absent value an empty field and the counters one
//! `name=value;name=value` field, which [`read_csv`] reads back; and the summaries, one
//! record per entry ([`write_summary_csv`]).

use std::io::{Read, Write};
use std::sync::Mutex;

use serde::{Deserialize, Serialize, Serializer};

use crate::compare::summary::Analysis;
use crate::compare::{CompareError, Outcome, Run};
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::compare::Comparison;

    /// A solved run with every field set, for the tests of the files of `output`.
    pub(crate) fn sample() -> Run {
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
