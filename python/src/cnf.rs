//! `Cnf` and `encode`: a puzzle's formula held in the library's flat clause store (no Python
//! object per literal until `clauses` is asked for), its variable map both ways, DIMACS out,
//! models decoded into checked grids, and PySAT's `CNF` in and out.

use std::path::PathBuf;

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use sudosat::dimacs::{parse_dimacs, DimacsWriter, ParseOptions};
use sudosat::encode::{AmoFamily, CnfDescription, Encoding, SudokuEncoding, VarMap, VarRef};
use sudosat::formula::{ClauseSink, Cnf, Lit, Model, ModelCheck, Var};
use sudosat::grid::{Cell, Digit};

use crate::args;
use crate::errors::value_error;
use crate::files::{open_read, write_file};
use crate::grid::{grid_arg, PyGrid};
use crate::memory::{dimacs_text_estimate, ensure, ensure_encodable, python_clauses_estimate};

/// The most variables of a formula: DIMACS literals are stored in 32 bits with a sign.
const MAX_VARS: usize = (u32::MAX >> 2) as usize;

/// What `Cnf.__reduce__` hands pickle: the constructor and its arguments (clauses,
/// variable count, comments).
type Reduced<'py> = (Bound<'py, PyAny>, (Bound<'py, PyList>, usize, Vec<String>));

/// What a formula of a puzzle knows besides its clauses.
pub struct Described {
    pub encoding: SudokuEncoding,
    pub map: VarMap,
}

/// A CNF formula in DIMACS numbering. One that `encode` made (or that a sudosat DIMACS
/// file or PySAT formula describes in its comments) knows its puzzle, its encoding and
/// which variable is which `(row, column, digit)`, and decodes models into checked grids.
///
/// >>> cnf = encode(Grid("1.3...1..4..2.4."))
/// >>> cnf.nv, len(cnf), cnf.encoding
/// (64, 454, 'extended')
/// >>> cnf.var(1, 2, 4), cnf.cell(8)
/// (8, (1, 2, 4))
#[pyclass(name = "Cnf", module = "sudosat", frozen)]
pub struct PyCnf {
    pub cnf: Cnf,
    pub described: Option<Described>,
}

/// The encoding `encoding`, `reduce` and `amo` name: a full name as compare's
/// `--encodings` reads it (`extended+reduced/sequential`), `reduce` and `amo` overriding
/// its parts when given.
pub fn encoding_arg(
    encoding: &str,
    reduce: Option<bool>,
    amo: Option<&str>,
) -> PyResult<SudokuEncoding> {
    let mut chosen: SudokuEncoding = encoding.parse().map_err(value_error)?;
    if let Some(reduce) = reduce {
        chosen.reduced = reduce;
    }
    if let Some(amo) = amo {
        chosen.amo = amo.parse::<AmoFamily>().map_err(value_error)?;
    }
    Ok(chosen)
}

impl PyCnf {
    /// The formula of a DIMACS file, described when its comments name a puzzle.
    pub fn read_path(py: Python<'_>, path: PathBuf) -> PyResult<PyCnf> {
        py.detach(move || {
            let name = path.display().to_string();
            let input = open_read(&path)?;
            let mut cnf = Cnf::new();
            let report = parse_dimacs(input, &name, &mut cnf, ParseOptions::default())
                .map_err(value_error)?;
            cnf.set_num_vars(report.declared.0);
            let described =
                CnfDescription::from_comments(report.preamble.iter().map(String::as_str))
                    .ok()
                    .map(|d| Described {
                        map: d.encoding.var_map(&d.puzzle),
                        encoding: d.encoding,
                    });
            Ok(PyCnf { cnf, described })
        })
    }

    /// A formula from a PySAT `CNF` (its `clauses`, `nv` and `comments`) or a list of
    /// clauses.
    pub fn from_pysat_like(formula: &Bound<'_, PyAny>) -> PyResult<PyCnf> {
        if !formula.hasattr("clauses")? {
            return PyCnf::from_lists(formula, None, None);
        }
        let clauses = formula.getattr("clauses")?;
        let nv = match formula.getattr("nv") {
            Ok(nv) if !nv.is_none() => args::nv(&nv)?,
            _ => None,
        };
        let comments = match formula.getattr("comments") {
            Ok(c) if !c.is_none() => Some(c.extract::<Vec<String>>()?),
            _ => None,
        };
        PyCnf::from_lists(&clauses, nv, comments)
    }

    /// Refuses Python objects of the whole formula (`what`, with `estimate` bytes for its
    /// size) over the memory budget.
    fn ensure_fits(
        &self,
        what: &str,
        estimate: fn(sudosat::formula::FormulaSize) -> u64,
    ) -> PyResult<()> {
        ensure(estimate(self.cnf.size()), || {
            format!(
                "{what} of {} clauses and {} literals",
                self.cnf.num_clauses(),
                self.cnf.num_literals()
            )
        })
    }

    fn map(&self) -> PyResult<&Described> {
        self.described.as_ref().ok_or_else(|| {
            value_error(
                "this formula describes no puzzle (it was not made by encode, and its \
                 comments do not name a puzzle and an encoding)",
            )
        })
    }

    fn cell_digit(&self, r: usize, c: usize, v: usize) -> PyResult<(Cell, Digit, &Described)> {
        let described = self.map()?;
        let n = described.map.puzzle().side();
        for (what, x) in [("row", r), ("column", c), ("digit", v)] {
            if !(1..=n).contains(&x) {
                return Err(value_error(format!("{what} {x}: expected 1 to {n}")));
            }
        }
        Ok((
            Cell(((r - 1) * n + (c - 1)) as u32),
            Digit(v as u16),
            described,
        ))
    }

    /// The comment lines that describe the puzzle (without `c `).
    fn description_lines(&self) -> Vec<String> {
        match &self.described {
            Some(d) => CnfDescription::new(d.encoding, d.map.puzzle())
                .to_comment_text()
                .lines()
                .map(str::to_string)
                .collect(),
            None => Vec::new(),
        }
    }

    fn write_dimacs(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = DimacsWriter::new(w);
        if let Some(d) = &self.described {
            out.comment(&CnfDescription::new(d.encoding, d.map.puzzle()).to_comment_text());
        }
        out.header(self.cnf.num_vars(), self.cnf.num_clauses());
        for clause in self.cnf.clauses() {
            out.add_clause(clause);
        }
        out.finish()?;
        Ok(())
    }

    /// A formula from clauses of DIMACS literals, described by `comments` when they name a
    /// puzzle and an encoding.
    pub fn from_lists(
        clauses: &Bound<'_, PyAny>,
        nv: Option<usize>,
        comments: Option<Vec<String>>,
    ) -> PyResult<PyCnf> {
        let mut cnf = Cnf::new();
        let mut lits = Vec::new();
        let not_clauses = |what: &Bound<'_, PyAny>| {
            let name = what
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            pyo3::exceptions::PyTypeError::new_err(format!(
                "clauses must be an iterable of clauses, each a list of non-zero ints, not {name}"
            ))
        };
        for (k, clause) in clauses
            .try_iter()
            .map_err(|_| not_clauses(clauses))?
            .enumerate()
        {
            lits.clear();
            let clause = clause?;
            for lit in clause.try_iter().map_err(|_| not_clauses(&clause))? {
                let lit = lit?;
                let lit: i64 = lit.extract().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(format!(
                        "clause {}: `{lit}` is not a literal (a non-zero integer)",
                        k + 1
                    ))
                })?;
                if lit == 0 || lit.unsigned_abs() > MAX_VARS as u64 {
                    return Err(value_error(format!(
                        "clause {}: `{lit}` is not a literal (a non-zero integer within the \
                         variables' range)",
                        k + 1
                    )));
                }
                lits.push(Lit::from_dimacs(lit));
            }
            cnf.add_clause(&lits);
        }
        let described = comments.and_then(|lines| {
            let text: Vec<&str> = lines
                .iter()
                .map(|l| {
                    let l = l.trim_start();
                    l.strip_prefix('c').map_or(l, str::trim_start)
                })
                .collect();
            CnfDescription::from_comments(text).ok()
        });
        let described = described.map(|d| Described {
            map: d.encoding.var_map(&d.puzzle),
            encoding: d.encoding,
        });
        if let Some(nv) = nv {
            if nv < cnf.num_vars() {
                return Err(value_error(format!(
                    "nv={nv}, but the clauses use variable {}: nv counts every variable",
                    cnf.num_vars()
                )));
            }
            if nv > MAX_VARS {
                return Err(value_error(format!(
                    "nv={nv}: a formula holds at most {MAX_VARS} variables"
                )));
            }
        }
        if let Some(d) = &described {
            cnf.set_num_vars(d.map.num_vars());
        }
        cnf.set_num_vars(nv.unwrap_or(0));
        Ok(PyCnf { cnf, described })
    }
}

/// Encodes a puzzle as CNF, as `sudosat encode` does: `encoding` is `minimal`,
/// `extended` (the default) or `augmented`, or a full name such as
/// `extended+reduced/sequential`; `reduce` applies Kwon & Jain's V⁺/V⁻ reduction, `amo`
/// names the at-most-one family (`pairwise`, `sequential`, `commander`, `product`,
/// `bimander`, `binary`).
///
/// The clauses stay in the library until `clauses` (or iteration) asks for them, so a
/// 100×100 puzzle's 198 million clauses cost no Python objects.
///
/// >>> cnf = encode("1.3...1..4..2.4.", reduce=True)
/// >>> cnf.nv, len(cnf), cnf.encoding
/// (18, 74, 'extended+reduced')
#[pyfunction]
#[pyo3(signature = (grid, encoding = "extended", reduce = None, amo = None))]
pub fn encode(
    py: Python<'_>,
    grid: &Bound<'_, PyAny>,
    encoding: &str,
    reduce: Option<bool>,
    amo: Option<&str>,
) -> PyResult<PyCnf> {
    let grid = grid_arg(grid)?;
    let encoding = encoding_arg(encoding, reduce, amo)?;
    let at = grid.get().location(|| "the puzzle".to_string());
    let puzzle = grid.get().grid.clone();
    ensure_encodable(encoding, &puzzle, &at)?;
    let (cnf, map) = py.detach(move || encoding.encode_to_cnf(&puzzle));
    Ok(PyCnf {
        cnf,
        described: Some(Described { encoding, map }),
    })
}

#[pymethods]
impl PyCnf {
    /// A formula from a list of clauses, each a list of DIMACS literals (non-zero ints).
    /// `nv` raises the variable count; `comments` (lines, `c ` optional) that describe a
    /// puzzle, as `to_dimacs` writes them, give the formula its puzzle and encoding back.
    ///
    /// >>> Cnf.from_clauses([[1, -2], [2]]).nv
    /// 2
    #[staticmethod]
    #[pyo3(signature = (clauses, nv = None, comments = None))]
    fn from_clauses(
        clauses: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::nv)] nv: Option<usize>,
        comments: Option<Vec<String>>,
    ) -> PyResult<PyCnf> {
        PyCnf::from_lists(clauses, nv, comments)
    }

    /// A formula from a PySAT `CNF` (or anything with `clauses`, and optionally `nv` and
    /// `comments`), or from a list of clauses as PySAT takes them. A formula that
    /// `to_pysat` made keeps its puzzle through the comments, so its models decode here.
    ///
    /// >>> Cnf.from_pysat([[1, 2], [-1]]).nv
    /// 2
    #[staticmethod]
    fn from_pysat(formula: &Bound<'_, PyAny>) -> PyResult<PyCnf> {
        PyCnf::from_pysat_like(formula)
    }

    /// Reads a DIMACS file (plain or compressed). A file that `sudosat encode` (or
    /// `Cnf.write`) wrote names its puzzle and encoding in its comments: its models
    /// decode.
    #[staticmethod]
    fn read(py: Python<'_>, path: PathBuf) -> PyResult<PyCnf> {
        PyCnf::read_path(py, path)
    }

    /// Number of variables.
    #[getter]
    fn nv(&self) -> usize {
        self.cnf.num_vars()
    }

    /// Number of clauses.
    #[getter]
    fn num_clauses(&self) -> usize {
        self.cnf.num_clauses()
    }

    /// Number of literal occurrences.
    #[getter]
    fn num_literals(&self) -> usize {
        self.cnf.num_literals()
    }

    fn __len__(&self) -> usize {
        self.cnf.num_clauses()
    }

    /// Every clause as a list of DIMACS literals: a new list at each access, built from the
    /// library's store.
    #[getter]
    fn clauses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.ensure_fits("the clauses as lists", python_clauses_estimate)?;
        let list = PyList::empty(py);
        for clause in self.cnf.clauses() {
            list.append(PyList::new(py, clause.iter().map(|l| l.to_dimacs()))?)?;
        }
        Ok(list)
    }

    /// Clause `i` (from 0; negative counts from the end).
    fn clause(&self, i: isize) -> PyResult<Vec<i64>> {
        let n = self.cnf.num_clauses() as isize;
        let k = if i < 0 { i + n } else { i };
        if !(0..n).contains(&k) {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "clause {i}: the formula has {n}"
            )));
        }
        Ok(self
            .cnf
            .clause(k as usize)
            .iter()
            .map(|l| l.to_dimacs())
            .collect())
    }

    fn __iter__(slf: Bound<'_, Self>) -> ClauseIter {
        ClauseIter {
            cnf: slf.unbind(),
            next: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// The encoding's name (`extended+reduced`, …), or None for a plain formula.
    #[getter]
    fn encoding(&self) -> Option<String> {
        self.described.as_ref().map(|d| d.encoding.name())
    }

    /// The puzzle, or None for a plain formula.
    #[getter]
    fn puzzle(&self) -> Option<PyGrid> {
        self.described
            .as_ref()
            .map(|d| PyGrid::made(d.map.puzzle().clone()))
    }

    /// The variable of "`(row, column)` holds `digit`" (all from 1), or None when the
    /// reduction fixed it (`fixed` says which way).
    fn var(
        &self,
        #[pyo3(from_py_with = args::row)] row: usize,
        #[pyo3(from_py_with = args::column)] column: usize,
        #[pyo3(from_py_with = args::cnf_digit)] digit: usize,
    ) -> PyResult<Option<i64>> {
        let (cell, digit, d) = self.cell_digit(row, column, digit)?;
        Ok(match d.map.var(cell, digit) {
            VarRef::Var(var) => Some(var.positive().to_dimacs()),
            _ => None,
        })
    }

    /// True or False when the reduction fixed "`(row, column)` holds `digit`" (a given, or
    /// a digit a given rules out), None when it is a variable.
    fn fixed(
        &self,
        #[pyo3(from_py_with = args::row)] row: usize,
        #[pyo3(from_py_with = args::column)] column: usize,
        #[pyo3(from_py_with = args::cnf_digit)] digit: usize,
    ) -> PyResult<Option<bool>> {
        let (cell, digit, d) = self.cell_digit(row, column, digit)?;
        Ok(match d.map.var(cell, digit) {
            VarRef::Var(_) => None,
            VarRef::True => Some(true),
            VarRef::False => Some(false),
        })
    }

    /// The `(row, column, digit)` a variable stands for, or None for an auxiliary variable.
    fn cell(&self, var: i64) -> PyResult<Option<(usize, usize, u16)>> {
        let d = self.map()?;
        if var <= 0 || var as usize > d.map.num_vars() {
            return Err(value_error(format!(
                "variable {var}: expected 1 to {}",
                d.map.num_vars()
            )));
        }
        let n = d.map.puzzle().side();
        Ok(d.map
            .cell_digit(Var::from_index(var as usize - 1))
            .map(|(cell, digit)| (cell.index() / n + 1, cell.index() % n + 1, digit.0)))
    }

    /// The grid of a model (a list of signed DIMACS literals, as PySAT's `get_model()`
    /// gives it; literals above `nv` are ignored, variables left out count as false),
    /// checked: every cell one digit, every rule and given kept, every clause satisfied.
    /// None for None (PySAT's answer to an unsatisfiable formula).
    ///
    /// Raises `ValueError` naming the cell, rule or clause a wrong model breaks.
    #[pyo3(signature = (model))]
    fn decode(&self, model: Option<Vec<i64>>) -> PyResult<Option<PyGrid>> {
        let Some(model) = model else {
            return Ok(None);
        };
        let d = self.map()?;
        let nv = self.cnf.num_vars();
        ensure(nv as u64, || format!("a model of {nv} variables"))?;
        let mut values = vec![false; nv];
        for lit in model {
            if lit == 0 {
                return Err(value_error("the model holds 0, which is not a literal"));
            }
            let var = lit.unsigned_abs() as usize;
            if var <= nv {
                values[var - 1] = lit > 0;
            }
        }
        let model = Model::from_values(values);
        let grid = d
            .map
            .decode(&model)
            .map_err(|e| value_error(format!("not a solution of the puzzle: {e}")))?;
        let mut check = ModelCheck::new(&model);
        for clause in self.cnf.clauses() {
            check.add_clause(clause);
        }
        if let Some((k, clause)) = &check.falsified {
            let lits: Vec<String> = clause.iter().map(|l| l.to_dimacs().to_string()).collect();
            return Err(value_error(format!(
                "a wrong model: it falsifies clause {k} of {} (`{} 0`)",
                check.clauses,
                lits.join(" ")
            )));
        }
        Ok(Some(PyGrid::made(grid)))
    }

    /// The formula as DIMACS text: what `sudosat encode` writes for the same puzzle and
    /// encoding (the comments describe the puzzle, so `sudosat decode --cnf` reads it).
    fn to_dimacs(&self, py: Python<'_>) -> PyResult<String> {
        self.ensure_fits("the DIMACS text", dimacs_text_estimate)?;
        let mut out = Vec::new();
        py.detach(|| self.write_dimacs(&mut out))
            .map_err(value_error)?;
        String::from_utf8(out).map_err(value_error)
    }

    /// Writes the DIMACS text to `path`, whole or not at all (compressed when the name
    /// ends `.gz`, `.bz2` or `.xz`).
    fn write(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| write_file(&path, |w| self.write_dimacs(w)))
    }

    /// The comment lines that describe the puzzle (without `c `), as `to_dimacs` writes
    /// them; empty for a plain formula.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.description_lines()
    }

    /// The formula as a PySAT `pysat.formula.CNF` (PySAT must be installed), its comments
    /// describing the puzzle, so that `Cnf.from_pysat` gets it back whole.
    fn to_pysat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let module = py.import("pysat.formula").map_err(|e| {
            PyImportError::new_err(format!(
                "to_pysat() needs PySAT (pip install python-sat): {e}"
            ))
        })?;
        // The clauses as lists, and PySAT's copy of them.
        self.ensure_fits("the PySAT formula", |size| {
            python_clauses_estimate(size).saturating_mul(2)
        })?;
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("from_clauses", self.clauses(py)?)?;
        let formula = module.getattr("CNF")?.call((), Some(&kwargs))?;
        formula.setattr("nv", self.cnf.num_vars())?;
        let comments: Vec<String> = self
            .description_lines()
            .into_iter()
            .map(|l| format!("c {l}"))
            .collect();
        formula.setattr("comments", comments)?;
        Ok(formula)
    }

    /// Pickling (`multiprocessing` hands formulas over this way): the clauses, the
    /// variable count and the comments that describe the puzzle, rebuilt by
    /// `Cnf.from_clauses`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let this = slf.get();
        let from_clauses = slf.get_type().getattr("from_clauses")?;
        Ok((
            from_clauses,
            (
                this.clauses(py)?,
                this.cnf.num_vars(),
                this.description_lines(),
            ),
        ))
    }

    fn __repr__(&self) -> String {
        let what = match &self.described {
            Some(d) => format!(
                " ({} of a {n}×{n} puzzle)",
                d.encoding.name(),
                n = d.map.puzzle().side()
            ),
            None => String::new(),
        };
        format!(
            "<Cnf: {} variables, {} clauses{what}>",
            self.cnf.num_vars(),
            self.cnf.num_clauses()
        )
    }
}

/// Iterates over a formula's clauses, one list at a time.
#[pyclass(module = "sudosat", frozen)]
pub struct ClauseIter {
    cnf: Py<PyCnf>,
    next: std::sync::atomic::AtomicUsize,
}

#[pymethods]
impl ClauseIter {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(&self) -> Option<Vec<i64>> {
        let cnf = &self.cnf.get().cnf;
        let i = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (i < cnf.num_clauses()).then(|| cnf.clause(i).iter().map(|l| l.to_dimacs()).collect())
    }
}
