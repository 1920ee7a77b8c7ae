//! The JSON document of a comparison: how the runs were made, one object per run with the
//! keys of the CSV columns (an absent value `null`, the counters an object), and the
//! [`Analysis`].

use std::io::Write;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::meta::{json_error, Provenance};
use crate::compare::summary::Analysis;
use crate::compare::{CompareError, Comparison};
use crate::run::Counters;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::output::csv::tests::sample;
    use crate::compare::output::CSV_COLUMNS;

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
}
