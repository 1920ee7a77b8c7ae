//! `Solver`, `solve`, `count` and `solve_many`: the grid-level solvers of the library, each
//! answer checked against the rules and the givens as the command line checks it. A solver
//! is described by the library's own text forms (`SolverSpec`, `BackendSpec::from_label`
//! and the option names), so every backend, encoding and option the library knows is
//! reachable here without a list of names of its own.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use sudosat::backend::{
    BackendKind, BackendSpec, LoadMode, Lookahead, ProofFormat, ProofTarget, Propagate, RootMode,
};
use sudosat::grid::{check_solution, Grid};
use sudosat::run::Counters;
use sudosat::solve::batch::Batch;
use sudosat::solve::{EntryOptions, SolveOutcome, Solver, SolverSpec};

use crate::args;
use crate::cnf::encoding_arg;
use crate::errors::{label_error, library_error, runtime_error, value_error};
use crate::files::{persist, temp_beside, write_file};
use crate::grid::{grid_arg, PyGrid};
use crate::memory::{budget, ensure_encodable_within};
use crate::wait::{run_interruptible, Ended, Progress};

/// The most threads of one solve, and the most puzzles solved at once.
const MAX_THREADS: usize = 256;

/// The answer of a solve that reached its time limit: a value, not an exception. False in
/// a test, as None is.
///
/// >>> t = Timeout(2.0, "solver `sat` timed out after 2s")
/// >>> bool(t), t.limit
/// (False, 2.0)
#[pyclass(name = "Timeout", module = "sudosat", frozen)]
pub struct PyTimeout {
    /// The limit in seconds.
    #[pyo3(get)]
    limit: Option<f64>,
    /// The library's message.
    #[pyo3(get)]
    message: String,
}

impl PyTimeout {
    /// A time-out of `limit` seconds, with the library's message.
    pub fn made(limit: Option<f64>, message: String) -> PyTimeout {
        PyTimeout { limit, message }
    }
}

#[pymethods]
impl PyTimeout {
    #[new]
    #[pyo3(signature = (limit, message = String::new()))]
    fn new(limit: Option<f64>, message: String) -> Self {
        PyTimeout { limit, message }
    }

    fn __bool__(&self) -> bool {
        false
    }

    fn __repr__(&self) -> String {
        match self.limit {
            Some(limit) => format!("Timeout(limit={limit})"),
            None => "Timeout()".to_string(),
        }
    }

    /// Pickling (`multiprocessing` hands answers back this way).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (Option<f64>, String)) {
        let this = slf.get();
        (slf.get_type(), (this.limit, this.message.clone()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTimeout>()
            .is_ok_and(|o| o.get().limit == self.limit && o.get().message == self.message)
    }
}

/// The answer of an incomplete solver that stopped without one (hill climbing's or
/// best-first's work cap): a value, not an exception. False in a test.
#[pyclass(name = "Stopped", module = "sudosat", frozen)]
pub struct PyStopped {
    /// Why it stopped.
    #[pyo3(get)]
    reason: String,
}

#[pymethods]
impl PyStopped {
    #[new]
    fn new(reason: String) -> Self {
        PyStopped { reason }
    }

    fn __bool__(&self) -> bool {
        false
    }

    fn __repr__(&self) -> String {
        format!("Stopped({:?})", self.reason)
    }

    /// Pickling (`multiprocessing` hands answers back this way).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, pyo3::types::PyType>, (String,)) {
        (slf.get_type(), (slf.get().reason.clone(),))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyStopped>()
            .is_ok_and(|o| o.get().reason == self.reason)
    }
}

/// One puzzle's answer, made without the interpreter.
pub enum Answer {
    Solved(Grid),
    NoSolution,
    Stopped(String),
    Timeout(Option<Duration>, String),
}

impl Answer {
    fn into_py(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match self {
            Answer::Solved(grid) => Py::new(py, PyGrid::made(grid))?.into_any(),
            Answer::NoSolution => py.None(),
            Answer::Stopped(reason) => Py::new(py, PyStopped { reason })?.into_any(),
            Answer::Timeout(limit, message) => Py::new(
                py,
                PyTimeout {
                    limit: limit.map(|l| l.as_secs_f64()),
                    message,
                },
            )?
            .into_any(),
        })
    }
}

/// The options every solving call takes, as the library's parsers read them.
#[derive(Clone, Debug)]
pub struct SolverChoice {
    pub spec: SolverSpec,
    pub limit: Option<Duration>,
}

/// The solver `solver` names, with the options given (None: as the spec says).
#[allow(clippy::too_many_arguments)]
pub fn solver_choice(
    solver: &str,
    backend: Option<&str>,
    encoding: Option<&str>,
    timeout: Option<f64>,
    threads: Option<usize>,
    seed: Option<u64>,
    propagate: Option<&str>,
    root: Option<&str>,
    lookahead: Option<&str>,
    load: Option<&str>,
    max_iterations: Option<u64>,
) -> PyResult<SolverChoice> {
    let mut spec: SolverSpec = solver.parse().map_err(value_error)?;
    let limit = sudosat::run::time_limit("timeout", timeout).map_err(value_error)?;
    if let Some(threads) = threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
        return Err(value_error(format!(
            "threads must be between 1 and {MAX_THREADS}, not {threads}"
        )));
    }
    if let (Some(label), SolverSpec::Sat { .. }) = (backend, &spec) {
        // The backend as compare's entries name it, options in a bracket included:
        // `cdcl[propagate=grid,root=none]`, `external[seed=3]:cadical -q`.
        let (name, options) = EntryOptions::split(label).map_err(value_error)?;
        let named = BackendSpec::from_label(&name).map_err(label_error)?;
        if let SolverSpec::Sat { backend, .. } = &mut spec {
            backend.kind = named.kind;
            backend.command = named.command;
        }
        spec = spec.with_options(&options).map_err(value_error)?;
    }
    match &mut spec {
        SolverSpec::Sat {
            encoding: chosen,
            backend: spec,
            ..
        } => {
            if spec.kind == BackendKind::External && spec.command.is_none() {
                return Err(value_error(
                    "the external backend needs the solver command: backend=\"external:cadical -q\"",
                ));
            }
            if let Some(name) = encoding {
                *chosen = encoding_arg(name, None, None)?;
            }
            spec.timeout = limit;
            if let Some(threads) = threads {
                spec.threads = threads;
            }
            if let Some(seed) = seed {
                spec.seed = seed;
            }
            if let Some(name) = propagate {
                spec.propagate = name.parse::<Propagate>().map_err(value_error)?;
            }
            if let Some(name) = root {
                spec.root = name.parse::<RootMode>().map_err(value_error)?;
            }
            if let Some(name) = lookahead {
                spec.lookahead = name.parse::<Lookahead>().map_err(value_error)?;
            }
            if let Some(name) = load {
                spec.load = name.parse::<LoadMode>().map_err(value_error)?;
            }
            if max_iterations.is_some() {
                return Err(value_error(
                    "max_iterations is the work cap of the classic solvers, not of `sat`",
                ));
            }
        }
        SolverSpec::Classic { kind, options, .. } => {
            let sat_only = [
                ("backend", backend.is_some()),
                ("encoding", encoding.is_some()),
                ("threads", threads.is_some()),
                ("propagate", propagate.is_some()),
                ("root", root.is_some()),
                ("lookahead", lookahead.is_some()),
                ("load", load.is_some()),
            ];
            if let Some((name, _)) = sat_only.iter().find(|(_, given)| *given) {
                return Err(value_error(format!(
                    "{name} is an option of the SAT path (solver=\"sat\"), not of the classic \
                     solver `{kind}`"
                )));
            }
            if let Some(seed) = seed {
                options.seed = seed;
            }
            if max_iterations.is_some() {
                options.max_iterations = max_iterations;
            }
        }
    }
    Ok(SolverChoice { spec, limit })
}

impl SolverChoice {
    fn build(&self) -> Box<dyn Solver> {
        self.spec.build(self.limit)
    }

    /// Refuses a SAT solve whose formula would not fit in the memory budget
    /// (`sudosat.set_memory_budget`), as the command line does before anything is built.
    /// `budget`: [`budget`] read once for the call's puzzles.
    fn check_memory(&self, grid: &Grid, at: &str, budget: Option<u64>) -> PyResult<()> {
        match self.spec.encoding() {
            Some(encoding) => ensure_encodable_within(encoding, grid, at, budget),
            None => Ok(()),
        }
    }

    /// Solves `grid` with `solver` and checks the answer; `at` names the puzzle in errors.
    fn solve_one(
        &self,
        solver: &mut dyn Solver,
        grid: &Grid,
        at: &str,
        budget: Option<u64>,
    ) -> PyResult<Answer> {
        self.solve_counted(solver, grid, at, budget).0
    }

    /// [`SolverChoice::solve_one`], with the solver's counters.
    fn solve_counted(
        &self,
        solver: &mut dyn Solver,
        grid: &Grid,
        at: &str,
        budget: Option<u64>,
    ) -> (PyResult<Answer>, Counters) {
        if let Err(e) = self.check_memory(grid, at, budget) {
            return (Err(e), Counters::default());
        }
        match solver.solve(grid) {
            Ok(report) => (
                self.checked(solver, grid, report.outcome, at),
                report.counters,
            ),
            Err(error) => (self.failure(error, at), Counters::default()),
        }
    }

    fn checked(
        &self,
        solver: &dyn Solver,
        grid: &Grid,
        outcome: SolveOutcome,
        at: &str,
    ) -> PyResult<Answer> {
        Ok(match outcome {
            SolveOutcome::Solved(solution) => {
                if !check_solution(grid, &solution).is_valid() {
                    return Err(runtime_error(format!(
                        "{at}: solver `{}` returned a grid that is not a solution",
                        solver.name()
                    )));
                }
                Answer::Solved(solution)
            }
            SolveOutcome::NoSolution => Answer::NoSolution,
            SolveOutcome::Stopped(why) => Answer::Stopped(why),
        })
    }

    fn failure(&self, error: sudosat::Error, at: &str) -> PyResult<Answer> {
        if error.is_timeout() {
            return Ok(Answer::Timeout(self.limit, error.to_string()));
        }
        Err(library_error(&error, at))
    }
}

/// Where a proof goes: the DRAT file (written through a temporary file beside it) and the
/// refuted formula beside it (`.cnf`).
struct ProofPlan {
    path: PathBuf,
    formula: PathBuf,
    temp: tempfile::NamedTempFile,
    format: ProofFormat,
}

impl ProofPlan {
    fn new(path: PathBuf, binary: bool, spec: &SolverSpec) -> PyResult<ProofPlan> {
        if !matches!(spec, SolverSpec::Sat { .. }) {
            return Err(value_error(
                "proof= needs the SAT path (solver=\"sat\"): classic solvers write no proofs",
            ));
        }
        let formula = path.with_extension("cnf");
        if formula == path {
            return Err(value_error(format!(
                "proof={}: names the proof (e.g. `p.drat`); the formula it refutes goes \
                 beside it as `p.cnf`",
                path.display()
            )));
        }
        Ok(ProofPlan {
            temp: temp_beside(&path)?,
            formula,
            path,
            format: if binary {
                ProofFormat::Binary
            } else {
                ProofFormat::Text
            },
        })
    }

    fn ask(&self, solver: &mut dyn Solver) {
        solver.prove_next(Some(ProofTarget {
            path: self.temp.path().to_path_buf(),
            format: self.format,
        }));
    }

    /// After the call: when it ended in UNSAT, the formula and the proof are put in place.
    fn collect(self, solver: &mut dyn Solver, puzzle: &Grid, verdict: &str) -> PyResult<()> {
        let Some(proven) = solver.take_proof() else {
            return Ok(());
        };
        write_file(&self.formula, |w| {
            proven.write_dimacs(w, puzzle, &self.path, verdict)
        })?;
        persist(self.temp, &self.path)
    }
}

/// Figures of the last solve.
#[derive(Clone, Debug, Default)]
struct Stats {
    figures: Vec<(&'static str, f64)>,
    counters: Counters,
}

impl Stats {
    fn of(solver: &dyn Solver, counters: Counters, total: Duration) -> Stats {
        let micros = |d: Duration| d.as_secs_f64() * 1e6;
        let mut figures = Vec::new();
        let counters = match solver.sat_stats() {
            Some(s) => {
                figures.extend([
                    ("vars", s.size.vars as f64),
                    ("clauses", s.size.clauses as f64),
                    ("literals", s.size.literals as f64),
                    ("encode_us", micros(s.encode_time)),
                    ("solve_us", micros(s.solve_time)),
                    ("decode_us", micros(s.decode_time)),
                ]);
                s.backend.clone()
            }
            None => counters,
        };
        figures.push(("total_us", micros(total)));
        Stats { figures, counters }
    }
}

/// A grid-level solver, built once and kept across calls (an incremental backend keeps its
/// buffers): the SAT path (`"sat"`, `"sat:ENCODING"`, `"sat:ENCODING:BACKEND"`) or a classic
/// solver (`"dlx"`, `"backtrack"`, `"human"`, …), in the text form compare's entries and
/// `--solver` use. The keyword options override what the text says:
///
/// - `backend`: `cdcl` (the default), `dpll`, `lookahead`, `varisat`, `splr`, `minisat`,
///   `external:COMMAND` (any solver printing SAT-competition `s`/`v` lines), as `--backend`
///   reads it;
/// - `encoding`: `extended+reduced` (the default), any name `encode` takes;
/// - `timeout` (seconds, each puzzle), `threads` (of one cdcl solve; default 1), `seed`;
/// - `propagate`, `root`, `lookahead`, `load`: the values of `sudosat solve`'s flags;
/// - `max_iterations`: the work cap of the classic solvers.
///
/// >>> s = Solver(backend="dpll", encoding="minimal+reduced")
/// >>> s.spec
/// 'sat:minimal+reduced:dpll'
/// >>> print(s.solve("1.3...1..4..2.4."))
/// 1234431234212143
/// >>> s.stats["clauses"] > 0
/// True
#[pyclass(name = "Solver", module = "sudosat", frozen)]
pub struct PySolver {
    choice: SolverChoice,
    solver: Mutex<Option<Box<dyn Solver>>>,
    stats: Mutex<Option<Stats>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a solve on the working thread hands back.
type Worked<T> = (Box<dyn Solver>, PyResult<T>, Option<Stats>);

impl PySolver {
    pub fn of(choice: SolverChoice) -> PySolver {
        PySolver {
            choice,
            solver: Mutex::new(None),
            stats: Mutex::new(None),
        }
    }

    /// Runs `call` on the kept solver (or a new one) on a thread of its own; the solver
    /// comes back with the answer, unless an interrupt left it running.
    fn run<T: Send + 'static>(
        &self,
        py: Python<'_>,
        call: impl FnOnce(&SolverChoice, &mut dyn Solver) -> (PyResult<T>, Counters) + Send + 'static,
    ) -> PyResult<T> {
        let mut solver = lock(&self.solver)
            .take()
            .unwrap_or_else(|| self.choice.build());
        let choice = self.choice.clone();
        let ended = run_interruptible(py, None, move |stop| -> Worked<T> {
            solver.set_interrupt(Some(stop));
            let start = Instant::now();
            let (result, counters) = call(&choice, solver.as_mut());
            let stats = Stats::of(solver.as_ref(), counters, start.elapsed());
            solver.set_interrupt(None);
            (solver, result, Some(stats))
        })?;
        let (worked, interrupt) = match ended {
            Ended::Done(worked) => (Some(worked), None),
            Ended::Interrupted(err, worked) => (worked, Some(err)),
        };
        let result = worked.map(|(solver, result, stats)| {
            *lock(&self.solver) = Some(solver);
            *lock(&self.stats) = stats;
            result
        });
        match (interrupt, result) {
            (Some(err), _) => Err(err),
            (None, Some(result)) => result,
            (None, None) => Err(runtime_error("internal error: no answer")),
        }
    }
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (solver = "sat", *, backend = None, encoding = None, timeout = None,
        threads = None, seed = None, propagate = None, root = None, lookahead = None,
        load = None, max_iterations = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        solver: &str,
        backend: Option<&str>,
        encoding: Option<&str>,
        timeout: Option<f64>,
        #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
        #[pyo3(from_py_with = args::seed)] seed: Option<u64>,
        propagate: Option<&str>,
        root: Option<&str>,
        lookahead: Option<&str>,
        load: Option<&str>,
        #[pyo3(from_py_with = args::max_iterations)] max_iterations: Option<u64>,
    ) -> PyResult<PySolver> {
        Ok(PySolver::of(solver_choice(
            solver,
            backend,
            encoding,
            timeout,
            threads,
            seed,
            propagate,
            root,
            lookahead,
            load,
            max_iterations,
        )?))
    }

    /// The solver in the text form `Solver()` reads (`sat:extended+reduced:cdcl`, `dlx`).
    #[getter]
    fn spec(&self) -> String {
        self.choice.spec.to_string()
    }

    /// The label of its rows in a comparison (`cdcl/extended+reduced`, `dlx`).
    #[getter]
    fn label(&self) -> String {
        self.choice.spec.label()
    }

    /// Solves one puzzle (a `Grid` or its text): the solution, checked against the rules
    /// and the givens; None when it has no solution; `Timeout` at the time limit;
    /// `Stopped` when an incomplete solver gave up.
    ///
    /// With `proof="p.drat"` (SAT path), a "no solution" answer comes with a DRAT proof at
    /// that path and the formula it refutes at `p.cnf` (`drat-trim p.cnf p.drat` checks
    /// them); nothing is written for another answer.
    #[pyo3(signature = (grid, *, proof = None, binary_proof = false))]
    fn solve(
        &self,
        py: Python<'_>,
        grid: &Bound<'_, PyAny>,
        proof: Option<PathBuf>,
        binary_proof: bool,
    ) -> PyResult<Py<PyAny>> {
        let grid = grid_arg(grid)?;
        let at = grid.get().location(|| "the puzzle".to_string());
        let puzzle = grid.get().grid.clone();
        let plan = proof
            .map(|p| ProofPlan::new(p, binary_proof, &self.choice.spec))
            .transpose()?;
        let answer = self.run(py, move |choice, solver| {
            if let Some(plan) = &plan {
                plan.ask(solver);
            }
            let (answer, counters) = choice.solve_counted(solver, &puzzle, &at, budget());
            let answer = match (answer, plan) {
                (Ok(Answer::NoSolution), Some(plan)) => plan
                    .collect(solver, &puzzle, "no solution")
                    .map(|_| Answer::NoSolution),
                (answer, Some(_)) => {
                    solver.take_proof();
                    answer
                }
                (answer, None) => answer,
            };
            (answer, counters)
        })?;
        answer.into_py(py)
    }

    /// Counts the puzzle's solutions up to `limit` (0: all of them): 0, 1 (unique), or
    /// more; `Timeout` at the time limit, which covers the whole count.
    ///
    /// With `proof="p.drat"` (SAT path), a count that ends in UNSAT (0, or 1 below the
    /// limit: the puzzle is unique) comes with a DRAT proof and the refuted formula
    /// (`p.cnf`, the blocking clause of each solution found at its end).
    ///
    /// >>> Solver().count("1.3...1..4..2.4.")
    /// 1
    /// >>> Solver("dlx").count("1...............", limit=0)
    /// 72
    #[pyo3(signature = (grid, limit = 2, *, proof = None, binary_proof = false))]
    fn count(
        &self,
        py: Python<'_>,
        grid: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::limit)] limit: u64,
        proof: Option<PathBuf>,
        binary_proof: bool,
    ) -> PyResult<Py<PyAny>> {
        let grid = grid_arg(grid)?;
        let at = grid.get().location(|| "the puzzle".to_string());
        let puzzle = grid.get().grid.clone();
        let plan = proof
            .map(|p| ProofPlan::new(p, binary_proof, &self.choice.spec))
            .transpose()?;
        let counted = self.run(py, move |choice, solver| {
            if let Some(plan) = &plan {
                plan.ask(solver);
            }
            let counted = choice.check_memory(&puzzle, &at, budget()).and_then(|()| {
                match solver.count_solutions(&puzzle, limit) {
                    Ok(Some(count)) => Ok(Ok(count)),
                    Ok(None) => Err(value_error(format!(
                        "solver `{}` cannot count solutions",
                        solver.name()
                    ))),
                    Err(error) => choice.failure(error, &at).map(Err),
                }
            });
            let counted = match (counted, plan) {
                (Ok(Ok(count)), Some(plan)) => {
                    let verdict = if count == 0 { "none" } else { "unique" };
                    plan.collect(solver, &puzzle, verdict).map(|_| Ok(count))
                }
                (counted, _) => counted,
            };
            (counted, Counters::default())
        })?;
        match counted {
            Ok(count) => Ok(count.into_pyobject(py)?.into_any().unbind()),
            Err(answer) => answer.into_py(py),
        }
    }

    /// Figures of the last solve or count: for the SAT path `vars`, `clauses`,
    /// `literals`, `encode_us`, `solve_us`, `decode_us`, and for every solver `total_us` and
    /// its counters (`decisions`, `conflicts`, `nodes`, …). None before the first.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(stats) = lock(&self.stats).clone() else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        for (name, value) in stats.figures {
            if name.ends_with("_us") {
                dict.set_item(name, value)?;
            } else {
                dict.set_item(name, value as u64)?;
            }
        }
        for (name, value) in stats.counters.0 {
            dict.set_item(name, value)?;
        }
        Ok(Some(dict))
    }

    fn __repr__(&self) -> String {
        format!("Solver({:?})", self.choice.spec.to_string())
    }
}

/// The puzzles of a `puzzles` argument: a file (an `os.PathLike`, or a `str` that names an
/// existing file), puzzle text (a `str` that names no file, as `solve` reads it), or an
/// iterable of `Grid`s, puzzle texts and files; `limit` keeps the first of each file. An
/// item that cannot be read is named in the error (`puzzles[500]: …`).
pub fn puzzles_arg(puzzles: &Bound<'_, PyAny>, limit: Option<usize>) -> PyResult<Vec<Py<PyGrid>>> {
    let py = puzzles.py();
    let of_file = |path: &std::path::Path| -> PyResult<Vec<Py<PyGrid>>> {
        let mut grids = PyGrid::read_path(path, None)?;
        if let Some(limit) = limit {
            grids.truncate(limit);
        }
        grids.into_iter().map(|g| Py::new(py, g)).collect()
    };
    let of_text = |text: &str| -> PyResult<Vec<Py<PyGrid>>> {
        PyGrid::parse_text(text, None)?
            .into_iter()
            .map(|g| Py::new(py, g))
            .collect()
    };
    let as_input = |obj: &Bound<'_, PyAny>| -> PyResult<Option<Vec<Py<PyGrid>>>> {
        if obj.is_instance_of::<PyString>() {
            let text: String = obj.extract()?;
            let path = std::path::Path::new(&text);
            if !text.contains('\n') && (path.is_file() || looks_like_a_path(&text)) {
                return of_file(path).map(Some);
            }
            return of_text(&text).map(Some);
        }
        if obj.hasattr("__fspath__")? {
            let path: PathBuf = obj.extract()?;
            return of_file(&path).map(Some);
        }
        Ok(None)
    };
    if let Some(grids) = as_input(puzzles)? {
        return Ok(grids);
    }
    if let Ok(grid) = puzzles.cast::<PyGrid>() {
        return Ok(vec![grid.clone().unbind()]);
    }
    let items = puzzles.try_iter().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "puzzles must be a file, puzzle text, a Grid or an iterable of them, not {}",
            puzzles
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let mut all = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        let read = match as_input(&item) {
            Ok(Some(grids)) => Ok(grids),
            Ok(None) => grid_arg(&item).map(|g| vec![g]),
            Err(e) => Err(e),
        };
        all.extend(read.map_err(|e| naming_item(py, e, i))?);
    }
    Ok(all)
}

/// Whether `text`, which names no file, was meant as one: it has a path separator or
/// ends with the extension of a puzzle file (never a puzzle line's ending).
fn looks_like_a_path(text: &str) -> bool {
    const EXTENSIONS: [&str; 9] = [
        "txt", "csv", "sdk", "sdm", "ss", "gz", "bz2", "xz", "sudoku",
    ];
    let extension = std::path::Path::new(text)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    text.contains(std::path::MAIN_SEPARATOR) || text.contains('/') || extension
}

/// `error` with `puzzles[i]: ` before its message, of the same kind (an `OSError` keeps
/// its errno and file name, which already say where).
fn naming_item(py: Python<'_>, error: PyErr, i: usize) -> PyErr {
    use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
    let message = format!("puzzles[{i}]: {}", error.value(py));
    if error.is_instance_of::<PyOSError>(py) {
        error
    } else if error.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(message)
    } else if error.is_instance_of::<PyValueError>(py) {
        PyValueError::new_err(message)
    } else {
        error
    }
}

/// The puzzles to solve, each with where it is from: its file and line, or its place in
/// the list for a puzzle given as text or as a `Grid`.
fn located(grids: &[Py<PyGrid>]) -> Vec<(Grid, String)> {
    let text = sudosat::grid::Source::Text.to_string();
    grids
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let g = g.get();
            let at = match g.file.as_deref() {
                Some(file) if file != text => g.location(String::new),
                _ => format!("puzzles[{i}]"),
            };
            (g.grid.clone(), at)
        })
        .collect()
}

/// The `jobs` asked for, every core when None.
pub fn jobs_arg(jobs: Option<usize>) -> PyResult<usize> {
    let jobs = jobs.unwrap_or_else(|| sudosat::run::available_cores().min(MAX_THREADS));
    if !(1..=MAX_THREADS).contains(&jobs) {
        return Err(value_error(format!(
            "jobs must be between 1 and {MAX_THREADS}, not {jobs}"
        )));
    }
    Ok(jobs)
}

/// Solves one puzzle: `Solver(solver, **options).solve(grid, proof=...)`.
///
/// >>> print(solve("1.3...1..4..2.4."))
/// 1234431234212143
/// >>> print(solve("11.............."))
/// None
#[pyfunction]
#[pyo3(signature = (grid, solver = "sat", *, backend = None, encoding = None, timeout = None,
    threads = None, seed = None, propagate = None, root = None, lookahead = None,
    load = None, max_iterations = None, proof = None, binary_proof = false))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    grid: &Bound<'_, PyAny>,
    solver: &str,
    backend: Option<&str>,
    encoding: Option<&str>,
    timeout: Option<f64>,
    #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::seed)] seed: Option<u64>,
    propagate: Option<&str>,
    root: Option<&str>,
    lookahead: Option<&str>,
    load: Option<&str>,
    #[pyo3(from_py_with = args::max_iterations)] max_iterations: Option<u64>,
    proof: Option<PathBuf>,
    binary_proof: bool,
) -> PyResult<Py<PyAny>> {
    let solver = PySolver::new(
        solver,
        backend,
        encoding,
        timeout,
        threads,
        seed,
        propagate,
        root,
        lookahead,
        load,
        max_iterations,
    )?;
    solver.solve(py, grid, proof, binary_proof)
}

/// Counts one puzzle's solutions up to `limit` (0: all):
/// `Solver(solver, **options).count(grid, limit, proof=...)`.
///
/// >>> count("1.3...1..4..2.4.")
/// 1
/// >>> count("................", limit=0)
/// 288
#[pyfunction]
#[pyo3(signature = (grid, limit = 2, solver = "sat", *, backend = None, encoding = None,
    timeout = None, threads = None, seed = None, propagate = None, root = None,
    lookahead = None, load = None, max_iterations = None, proof = None, binary_proof = false))]
#[allow(clippy::too_many_arguments)]
pub fn count(
    py: Python<'_>,
    grid: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::limit)] limit: u64,
    solver: &str,
    backend: Option<&str>,
    encoding: Option<&str>,
    timeout: Option<f64>,
    #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::seed)] seed: Option<u64>,
    propagate: Option<&str>,
    root: Option<&str>,
    lookahead: Option<&str>,
    load: Option<&str>,
    #[pyo3(from_py_with = args::max_iterations)] max_iterations: Option<u64>,
    proof: Option<PathBuf>,
    binary_proof: bool,
) -> PyResult<Py<PyAny>> {
    let solver = PySolver::new(
        solver,
        backend,
        encoding,
        timeout,
        threads,
        seed,
        propagate,
        root,
        lookahead,
        load,
        max_iterations,
    )?;
    solver.count(py, grid, limit, proof, binary_proof)
}

/// Solves many puzzles, `jobs` at a time (default: every core; each solve on one thread
/// unless `threads` says otherwise): a list of answers in input order, each a checked
/// `Grid`, None, `Timeout` or `Stopped` as `solve` answers. `puzzles` is a file (a `str` or
/// `os.PathLike`), or an iterable of `Grid`s, puzzle texts and files. `progress=True`
/// counts the puzzles on standard error, a callable gets `(done, total)`.
///
/// >>> answers = solve_many("tests/fixtures/minimal-40.txt", jobs=1)
/// >>> len(answers), all(a.is_full for a in answers)
/// (40, True)
#[pyfunction]
#[pyo3(signature = (puzzles, solver = "sat", *, jobs = None, progress = None, backend = None,
    encoding = None, timeout = None, threads = None, seed = None, propagate = None,
    root = None, lookahead = None, load = None, max_iterations = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solver: &str,
    #[pyo3(from_py_with = args::jobs)] jobs: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
    backend: Option<&str>,
    encoding: Option<&str>,
    timeout: Option<f64>,
    #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::seed)] seed: Option<u64>,
    propagate: Option<&str>,
    root: Option<&str>,
    lookahead: Option<&str>,
    load: Option<&str>,
    #[pyo3(from_py_with = args::max_iterations)] max_iterations: Option<u64>,
) -> PyResult<Vec<Py<PyAny>>> {
    let choice = solver_choice(
        solver,
        backend,
        encoding,
        timeout,
        threads,
        seed,
        propagate,
        root,
        lookahead,
        load,
        max_iterations,
    )?;
    let jobs = jobs_arg(jobs)?;
    let inputs = located(&puzzles_arg(puzzles, None)?);
    let mut progress = Progress::new(progress, inputs.len(), "puzzles")?;
    let done = progress.counter();
    let ended = run_interruptible(py, Some(&mut progress), move |stop| {
        solve_all(&choice, &inputs, jobs, &stop, &done)
    })?;
    let answers = match ended {
        Ended::Done(answers) => answers?,
        Ended::Interrupted(err, _) => return Err(err),
    };
    answers.into_iter().map(|a| a.into_py(py)).collect()
}

/// Every puzzle's answer, in order, on `jobs` threads; the first error (in input order)
/// ends the batch.
fn solve_all(
    choice: &SolverChoice,
    inputs: &[(Grid, String)],
    jobs: usize,
    stop: &Arc<AtomicBool>,
    done: &AtomicUsize,
) -> PyResult<Vec<Answer>> {
    let budget = budget();
    let make = || {
        // The classic solvers read no interrupt flag: their deadlines read this one.
        sudosat::run::stop_thread_on(Some(Arc::clone(stop)));
        let mut solver = choice.build();
        solver.set_interrupt(Some(Arc::clone(stop)));
        solver
    };
    let one = |solver: &mut Box<dyn Solver>, (grid, at): &(Grid, String)| {
        if stop.load(Ordering::Relaxed) {
            return Err(runtime_error("interrupted"));
        }
        let answer = choice.solve_one(solver.as_mut(), grid, at, budget);
        done.fetch_add(1, Ordering::Relaxed);
        answer
    };
    // The command line's batch: one solver a thread for the whole call, the answers in
    // input order.
    let batch = Batch::new(jobs)
        .map_err(|e| runtime_error(format!("cannot start the solving threads: {e}")))?;
    let mut answers = Vec::with_capacity(inputs.len());
    batch.run(
        inputs,
        || Ok(make()),
        |solver, _, input| one(solver, input),
        |_, answer| {
            answers.push(answer);
            Ok(())
        },
    )?;
    Ok(answers)
}
