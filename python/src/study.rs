//! `compare` and `Study`: the comparison of `sudosat compare` run from Python, its rows as
//! dicts with the CSV's columns, a pandas DataFrame, and the same report, CSV and JSON as
//! the command line writes.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use sudosat::compare::merge::StudyInputs;
use sudosat::compare::output::{self, Meta, Provenance, CSV_COLUMNS};
use sudosat::compare::report::{self, ReportOptions};
use sudosat::compare::shard::{self, Shard, Study};
use sudosat::compare::summary::{self, Analysis, TableStyle};
use sudosat::compare::{self, CompareConfig, Comparison, GroupBy, Puzzle, Run, SolverItem, Watch};
use sudosat::encode::SudokuEncoding;
use sudosat::solve::SolverOptions;

use crate::args;
use crate::errors::value_error;
use crate::files::write_file;
use crate::solve::puzzles_arg;
use crate::wait::{run_interruptible, Ended, Progress};

/// A list argument: a comma-separated string, or a list of items, each read by `parse`
/// (which may expand one item into several), repeats kept once.
fn list_arg<T: PartialEq>(
    arg: Option<&Bound<'_, PyAny>>,
    parse: impl Fn(&str) -> Result<Vec<T>, compare::CompareError>,
) -> PyResult<Option<Vec<T>>> {
    let Some(arg) = arg.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    let items: Vec<String> = if arg.is_instance_of::<PyString>() {
        vec![arg.extract()?]
    } else {
        arg.extract()?
    };
    let mut values = Vec::new();
    for item in &items {
        for value in parse(item).map_err(value_error)? {
            if !values.contains(&value) {
                values.push(value);
            }
        }
    }
    Ok(Some(values))
}

/// Compares solvers on puzzles as `sudosat compare` does: every puzzle solved by every
/// entry, `repeat` times, every answer checked, with the encoding's size, the time split
/// and the solver's counters of each run. Returns a `Study`.
///
/// - `puzzles`: a file (a `str` or `os.PathLike`), or an iterable of `Grid`s, puzzle texts
///   and files; `limit` keeps the first puzzles of each file;
/// - `solvers`: a comma-separated string or a list, as `--solvers` reads it (SAT backends,
///   each crossed with every encoding; classic solvers; the groups `embedded`, `classic`,
///   `all`); default `cdcl,dpll,varisat,splr,dlx`;
/// - `encodings`, `amo`: as `--encodings` and `--amo` (default `extended+reduced`);
/// - `timeout` (seconds, each solve), `repeat`, `jobs` (puzzles at once, default 1),
///   `seed`, `vary_seed`, `isomorphs`, `root`, `max_iterations`: as the flags of the same
///   names;
/// - `progress`: True counts the runs on standard error, a callable gets `(done, total)`.
///
/// Ctrl-C stops the runs in flight and raises `KeyboardInterrupt`; its `study` attribute
/// holds the runs made (marked interrupted), or None when a run could not be stopped.
///
/// >>> study = compare("tests/fixtures/minimal-40.txt", solvers="cdcl,dlx", limit=5)
/// >>> study.solvers, len(study.rows)
/// (['cdcl/extended+reduced', 'dlx'], 10)
/// >>> sorted({row["outcome"] for row in study.rows})
/// ['solved']
#[pyfunction(name = "compare")]
#[pyo3(signature = (puzzles, solvers = None, *, encodings = None, amo = None, timeout = None,
    repeat = 1, jobs = 1, seed = 0, vary_seed = false, isomorphs = false, root = None,
    max_iterations = None, limit = None, progress = None, command = None))]
#[allow(clippy::too_many_arguments)]
pub fn compare_puzzles(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solvers: Option<&Bound<'_, PyAny>>,
    encodings: Option<&Bound<'_, PyAny>>,
    amo: Option<&Bound<'_, PyAny>>,
    timeout: Option<f64>,
    #[pyo3(from_py_with = args::repeat)] repeat: usize,
    #[pyo3(from_py_with = args::study_jobs)] jobs: usize,
    #[pyo3(from_py_with = args::study_seed)] seed: u64,
    vary_seed: bool,
    isomorphs: bool,
    root: Option<&str>,
    #[pyo3(from_py_with = args::max_iterations)] max_iterations: Option<u64>,
    #[pyo3(from_py_with = args::puzzle_limit)] limit: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
    command: Option<Vec<String>>,
) -> PyResult<PyStudy> {
    let solvers: Vec<SolverItem> = match list_arg(solvers, compare::parse_solvers)? {
        Some(solvers) => solvers,
        None => compare::parse_solvers(compare::DEFAULT_SOLVERS).map_err(value_error)?,
    };
    let mut encodings: Vec<SudokuEncoding> =
        list_arg(encodings, compare::parse_encodings)?.unwrap_or_else(compare::default_encodings);
    if let Some(families) = list_arg(amo, compare::parse_amo_families)? {
        encodings = compare::cross_amo(&encodings, &families);
    }
    let options = SolverOptions {
        seed,
        max_iterations,
        ..SolverOptions::default()
    };
    let root = root
        .map(str::parse::<sudosat::backend::RootMode>)
        .transpose()
        .map_err(value_error)?
        .unwrap_or_default();
    // The study-wide root and seed first, each entry's own bracket over them.
    let entries =
        compare::entries_with(&solvers, &encodings, &options, root).map_err(value_error)?;
    let config = CompareConfig {
        entries,
        repeat,
        timeout: sudosat::run::time_limit("timeout", timeout).map_err(value_error)?,
        jobs,
        vary_seed,
        isomorphs: isomorphs.then_some(seed),
        formulas: false,
        shard: Shard::WHOLE,
    };
    config.validate().map_err(value_error)?;
    let puzzles: Vec<Puzzle> = puzzles_arg(puzzles, limit)?
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let g = g.get();
            Puzzle {
                file: g.file.as_deref().unwrap_or("<python>").to_string(),
                line: if g.file.is_some() { g.line } else { i + 1 },
                grid: g.grid.clone(),
            }
        })
        .collect();
    if puzzles.is_empty() {
        return Err(value_error("nothing to compare: no puzzle"));
    }
    let checked = config.clone();
    py.detach(move || compare::preflight(&checked))
        .map_err(value_error)?;
    let mut provenance =
        Provenance::here(command.unwrap_or_else(|| vec!["sudosat.compare".into()]));
    let inputs = StudyInputs {
        instances: puzzles
            .iter()
            .map(|p| shard::puzzle_hash(&p.grid))
            .collect(),
        versions: vec![None; config.entries.len()],
        seed,
        limit,
    };
    provenance.study = Some(Study::here(&config, &inputs));
    let mut progress = Progress::new(progress, config.total_runs(puzzles.len()), "runs")?;
    let done = progress.counter();
    let ended = run_interruptible(py, Some(&mut progress), move |stop| {
        let watch = Watch {
            stop,
            on_start: &|_| {},
            on_run: &|_| {
                done.fetch_add(1, Ordering::Relaxed);
            },
        };
        compare::run_watched(&puzzles, &config, &watch)
    })?;
    let made = |comparison: Comparison| PyStudy {
        comparison,
        provenance: provenance.clone(),
    };
    match ended {
        Ended::Done(comparison) => Ok(made(comparison.map_err(value_error)?)),
        Ended::Interrupted(err, comparison) => {
            let study = match comparison.and_then(Result::ok) {
                Some(comparison) => Py::new(py, made(comparison))?.into_any(),
                None => py.None(),
            };
            let _ = err.value(py).setattr("study", study);
            Err(err)
        }
    }
}

/// The runs of a comparison and how they were made: `rows` (one dict per run, the CSV's
/// columns), `to_pandas()`, `summary()` (the command line's table), and the files of
/// `--report`, `--csv` and `--json`.
#[pyclass(name = "Study", module = "sudosat", frozen)]
pub struct PyStudy {
    comparison: Comparison,
    provenance: Provenance,
}

impl PyStudy {
    fn analysis(&self, by: Option<&str>) -> PyResult<(Analysis, Option<GroupBy>)> {
        let by = by
            .map(|name| name.parse::<GroupBy>().map_err(value_error))
            .transpose()?;
        Ok((Analysis::new(&self.comparison, by), by))
    }
}

/// One run as a dict with the CSV's columns: numbers as numbers, empty fields as None, the
/// counters as a dict.
fn row<'py>(py: Python<'py>, run: &Run) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let counters = PyDict::new(py);
    for (name, value) in &run.counters.0 {
        counters.set_item(*name, *value)?;
    }
    let values: [(&str, Bound<'py, PyAny>); 23] = [
        ("file", run.file.clone().into_pyobject(py)?.into_any()),
        ("line", run.line.into_pyobject(py)?.into_any()),
        (
            "puzzle_index",
            run.puzzle_index.into_pyobject(py)?.into_any(),
        ),
        ("size", run.size.into_pyobject(py)?.into_any()),
        ("givens", run.givens.into_pyobject(py)?.into_any()),
        ("solver", run.solver.clone().into_pyobject(py)?.into_any()),
        ("backend", run.backend.clone().into_pyobject(py)?.into_any()),
        (
            "encoding",
            run.encoding.clone().into_pyobject(py)?.into_any(),
        ),
        ("repeat", run.repeat.into_pyobject(py)?.into_any()),
        ("outcome", run.outcome.name().into_pyobject(py)?.into_any()),
        (
            "checked",
            run.checked.into_pyobject(py)?.to_owned().into_any(),
        ),
        ("vars", run.vars.into_pyobject(py)?.into_any()),
        ("clauses", run.clauses.into_pyobject(py)?.into_any()),
        ("literals", run.literals.into_pyobject(py)?.into_any()),
        ("puzzle_vars", run.puzzle_vars.into_pyobject(py)?.into_any()),
        (
            "puzzle_clauses",
            run.puzzle_clauses.into_pyobject(py)?.into_any(),
        ),
        (
            "puzzle_literals",
            run.puzzle_literals.into_pyobject(py)?.into_any(),
        ),
        ("encode_us", run.encode_us.into_pyobject(py)?.into_any()),
        ("solve_us", run.solve_us.into_pyobject(py)?.into_any()),
        ("decode_us", run.decode_us.into_pyobject(py)?.into_any()),
        ("total_us", run.total_us.into_pyobject(py)?.into_any()),
        ("counters", counters.into_any()),
        ("error", run.error.clone().into_pyobject(py)?.into_any()),
    ];
    for ((name, value), column) in values.into_iter().zip(CSV_COLUMNS) {
        debug_assert_eq!(name, column);
        dict.set_item(column, value)?;
    }
    Ok(dict)
}

#[pymethods]
impl PyStudy {
    /// One dict per run, in puzzle, entry, repeat order, with the CSV's columns
    /// (`COLUMNS`): `file`, `line`, `puzzle_index`, `size`, `givens`, `solver`, `backend`,
    /// `encoding`, `repeat`, `outcome` (`solved`, `no_solution`, `stopped`, `timeout`,
    /// `failed`, `wrong`), `checked`, `vars`, `clauses`, `literals` (of the formula the
    /// entry solved), `puzzle_vars`, `puzzle_clauses`, `puzzle_literals` (of the puzzle's
    /// own formula, before reasoning on the grid), `encode_us`, `solve_us`, `decode_us`,
    /// `total_us`, `counters` (a dict) and `error`.
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for run in &self.comparison.runs {
            list.append(row(py, run)?)?;
        }
        Ok(list)
    }

    /// The rows as a pandas DataFrame (pandas must be installed), the columns in the CSV's
    /// order. The sizes, which solvers without a formula leave empty, are pandas'
    /// nullable integers (`Int64`, `<NA>` for none), not floats.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas").map_err(|e| {
            PyImportError::new_err(format!(
                "to_pandas() needs pandas (pip install pandas): {e}"
            ))
        })?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("columns", CSV_COLUMNS.to_vec())?;
        let frame = pandas
            .getattr("DataFrame")?
            .call((self.rows(py)?,), Some(&kwargs))?;
        let types = PyDict::new(py);
        for column in nullable_counts() {
            types.set_item(column, "Int64")?;
        }
        frame.call_method1("astype", (types,))
    }

    /// The entries' labels, in report order.
    #[getter]
    fn solvers(&self) -> Vec<String> {
        self.comparison.solvers.clone()
    }

    /// Puzzles compared.
    #[getter]
    fn puzzles(&self) -> usize {
        self.comparison.puzzles
    }

    /// Whether the comparison was stopped before every run was made.
    #[getter]
    fn interrupted(&self) -> bool {
        self.comparison.interrupted
    }

    /// Whether some answer was wrong.
    #[getter]
    fn has_wrong_answer(&self) -> bool {
        self.comparison.has_wrong_answer()
    }

    fn __len__(&self) -> usize {
        self.comparison.runs.len()
    }

    /// The summary the command line prints: per entry, the runs by outcome, mean, median
    /// and PAR-2 times, the virtual best solver, the ratios; `markdown=True` as Markdown
    /// tables; `by="clues"` or `"size"` adds the tables by group.
    #[pyo3(signature = (*, markdown = false, by = None))]
    fn summary(&self, markdown: bool, by: Option<&str>) -> PyResult<String> {
        let (analysis, _) = self.analysis(by)?;
        let style = if markdown {
            TableStyle::Markdown
        } else {
            TableStyle::Text
        };
        let mut out = Vec::new();
        summary::write_table(&mut out, &self.comparison, &analysis, style).map_err(value_error)?;
        String::from_utf8(out).map_err(value_error)
    }

    /// Writes the report of `--report DIR`: `DIR/index.html` (plots, summary with PAR-2
    /// and the virtual best solver, the instance table) with `runs.csv`,
    /// `runs.meta.json`, `report.json` and `summary.csv` beside it. DIR is replaced whole
    /// (it must be absent, empty or an earlier report). `scatter` lists pairs of entry
    /// labels to draw against each other (default: the default entry against each other
    /// backend); `by` groups the time plot (`clues` or `size`).
    #[pyo3(signature = (dir, *, scatter = None, by = None))]
    fn report(
        &self,
        py: Python<'_>,
        dir: PathBuf,
        scatter: Option<Vec<(String, String)>>,
        by: Option<&str>,
    ) -> PyResult<()> {
        let (analysis, by) = self.analysis(by)?;
        let scatter = match scatter {
            Some(pairs) => {
                for (a, b) in &pairs {
                    for label in [a, b] {
                        if !self.comparison.solvers.contains(label) {
                            return Err(value_error(compare::CompareError::UnknownEntry(
                                label.clone(),
                                self.comparison.solvers.join(", "),
                            )));
                        }
                    }
                }
                pairs
            }
            None => compare::plot::default_pairs(
                &self.comparison,
                &self.comparison.default_entry_label(),
            ),
        };
        let options = ReportOptions {
            provenance: self.provenance.clone(),
            scatter,
            times_by: by.unwrap_or_else(|| GroupBy::auto(&self.comparison.runs)),
        };
        py.detach(|| report::write_report(&dir, &self.comparison, &analysis, &options))
            .map_err(value_error)
    }

    /// Writes the runs as `--csv FILE` does: one row per run, and the sidecar
    /// `FILE.meta.json` (time limit, entry order, machine) that `sudosat compare
    /// --from-csv` reads back.
    fn to_csv(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| {
            write_file(&path, |w| {
                output::write_csv(w, &self.comparison.runs).map_err(std::io::Error::other)
            })?;
            let meta = Meta::of(&self.comparison, self.provenance.clone());
            write_file(&output::sidecar_path(&path), |w| {
                output::write_meta(w, &meta).map_err(std::io::Error::other)
            })
        })
    }

    /// Writes the runs, settings and summaries as `--json FILE` does.
    #[pyo3(signature = (path, *, by = None))]
    fn to_json(&self, py: Python<'_>, path: PathBuf, by: Option<&str>) -> PyResult<()> {
        let (analysis, _) = self.analysis(by)?;
        py.detach(|| {
            write_file(&path, |w| {
                output::write_json(w, &self.comparison, &analysis, Some(&self.provenance))
                    .map_err(std::io::Error::other)
            })
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<Study: {} puzzles × {} entries, {} runs{}>",
            self.comparison.puzzles,
            self.comparison.solvers.len(),
            self.comparison.runs.len(),
            if self.comparison.interrupted {
                ", interrupted"
            } else {
                ""
            }
        )
    }
}

/// The columns of whole numbers that some runs leave empty (a solver without a formula):
/// the sizes, `vars` through `puzzle_literals` in the CSV's order.
fn nullable_counts() -> impl Iterator<Item = &'static str> {
    CSV_COLUMNS
        .iter()
        .copied()
        .skip_while(|column| *column != "vars")
        .take_while(|column| *column != "encode_us")
}

/// The columns of a study's rows and CSV, in order.
pub fn columns() -> Vec<&'static str> {
    CSV_COLUMNS.to_vec()
}
