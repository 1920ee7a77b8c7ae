//! CSV and JSON outputs of a comparison: one row per run with stable snake_case columns
//! ([`CSV_COLUMNS`]). In CSV an absent value is an empty field and the counters are one
//! `name=value;name=value` field; in JSON an absent value is `null` and the counters are an
//! object. The JSON document also holds how the runs were made and the summaries.

use std::io::Write;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::summary::{encoding_sizes, summarize, EncodingSize, Summary};
use super::{CompareError, Comparison, GroupBy, Run};
use crate::run::Counters;

/// The CSV header, in order; the JSON run objects use the same keys.
pub const CSV_COLUMNS: [&str; 20] = [
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

fn opt<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or_else(String::new, T::to_string)
}

fn us(value: f64) -> String {
    format!("{value:.3}")
}

/// A run as CSV fields, in [`CSV_COLUMNS`] order.
pub fn csv_record(run: &Run) -> [String; 20] {
    [
        run.file.clone(),
        run.line.to_string(),
        run.puzzle_index.to_string(),
        run.size.to_string(),
        run.givens.to_string(),
        run.solver.clone(),
        opt(&run.backend),
        opt(&run.encoding),
        run.repeat.to_string(),
        run.outcome.name().to_string(),
        run.checked.to_string(),
        opt(&run.vars),
        opt(&run.clauses),
        opt(&run.literals),
        opt(&run.encode_us.map(us)),
        us(run.solve_us),
        opt(&run.decode_us.map(us)),
        us(run.total_us),
        counters_field(&run.counters),
        opt(&run.error),
    ]
}

/// Writes the header and one record per run.
///
/// # Errors
/// [`CompareError::Output`] on a write error.
pub fn write_csv(w: &mut dyn Write, runs: &[Run]) -> Result<(), CompareError> {
    let fail = |e: csv::Error| CompareError::Output {
        what: "CSV",
        reason: e.to_string(),
    };
    let mut out = csv::Writer::from_writer(w);
    out.write_record(CSV_COLUMNS).map_err(fail)?;
    for run in runs {
        out.write_record(csv_record(run)).map_err(fail)?;
    }
    out.flush().map_err(|e| fail(e.into()))
}

/// The JSON document: how the runs were made, the runs, and their summaries.
#[derive(Serialize)]
struct Report<'a> {
    sudosat_version: &'static str,
    #[serde(flatten)]
    comparison: &'a Comparison,
    group_by: Option<GroupBy>,
    summary: Vec<Summary>,
    summary_by_group: Vec<Summary>,
    encoding_sizes: Vec<EncodingSize>,
}

/// Writes the JSON document: `sudosat_version`, `puzzles`, `solvers`, `repeat`,
/// `timeout_s`, `jobs`, `parallel`, `interrupted`, `runs` (one object per run),
/// `group_by`, `summary` (per solver), `summary_by_group` (per solver and group; empty
/// without `by`) and `encoding_sizes`.
///
/// # Errors
/// [`CompareError::Output`] on a write error.
pub fn write_json(
    w: &mut dyn Write,
    comparison: &Comparison,
    by: Option<GroupBy>,
) -> Result<(), CompareError> {
    let report = Report {
        sudosat_version: env!("CARGO_PKG_VERSION"),
        comparison,
        group_by: by,
        summary: summarize(&comparison.runs, &comparison.solvers, None),
        summary_by_group: by.map_or_else(Vec::new, |by| {
            summarize(&comparison.runs, &comparison.solvers, Some(by))
        }),
        encoding_sizes: encoding_sizes(&comparison.runs),
    };
    serde_json::to_writer_pretty(&mut *w, &report).map_err(|e| CompareError::Output {
        what: "JSON",
        reason: e.to_string(),
    })?;
    writeln!(w).map_err(|e| CompareError::Output {
        what: "JSON",
        reason: e.to_string(),
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
    fn csv_quotes_and_flattens() {
        let mut out = Vec::new();
        write_csv(&mut out, &[sample()]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), CSV_COLUMNS.join(","));
        assert_eq!(
            lines.next().unwrap(),
            "\"a,b.txt\",3,1,9,17,dpll/minimal,dpll,minimal,1,solved,true,729,8846,20000,\
             12.500,100.000,1.000,114.250,decisions=4;conflicts=1,"
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
            runs: vec![sample()],
        };
        let mut out = Vec::new();
        write_json(&mut out, &comparison, Some(GroupBy::Size)).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(doc["runs"].as_array().unwrap().len(), 1);
        assert_eq!(doc["parallel"], false);
        assert_eq!(doc["group_by"], "size");
        assert_eq!(doc["summary"][0]["solved"], 1);
        assert_eq!(doc["summary_by_group"][0]["group"], 9);
        assert_eq!(doc["encoding_sizes"][0]["clauses"], 8846.0);
    }
}
