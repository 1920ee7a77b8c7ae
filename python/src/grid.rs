//! `Grid`: a puzzle or a solution, read from text or a file in every format the command line
//! reads (detected from the content), written in any of them, checked against the rules.
//! Rows, columns and digits are numbered from 1, as in the CNF's comments.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use sudosat::grid::{
    check_grid, check_solution, read_located, read_located_from_path, write_grid, Cell, Digit,
    Format, Grid, LocatedGrid, ParseError, Source,
};

use crate::args;
use crate::errors::value_error;
use crate::files::open_read;

/// A Sudoku grid of any box size (4×4, 9×9, 16×16 … 400×400): a puzzle (0 or `.` for a
/// blank) or a solution. Rows, columns and digits are numbered from 1.
///
/// >>> g = Grid("1.3...1..4..2.4.")
/// >>> g.side, g.box_size, g.num_givens
/// (4, 2, 6)
/// >>> g.givens[:2]
/// [(1, 1, 1), (1, 3, 3)]
/// >>> print(g.format("grid"), end="")
/// 1 0 3 0
/// 0 0 1 0
/// 0 4 0 0
/// 2 0 4 0
#[pyclass(name = "Grid", module = "sudosat", frozen)]
pub struct PyGrid {
    pub grid: Grid,
    /// The file the grid was read from (`<text>` for text), if it was read.
    pub file: Option<Arc<str>>,
    /// The 1-based line where it starts in its file (0: not read).
    pub line: usize,
}

impl PyGrid {
    /// A grid that was not read from anywhere (a solution, an empty grid).
    pub fn made(grid: Grid) -> PyGrid {
        PyGrid {
            grid,
            file: None,
            line: 0,
        }
    }

    /// `file:line` when the grid was read, else `fallback`.
    pub fn location(&self, fallback: impl FnOnce() -> String) -> String {
        match &self.file {
            Some(file) => format!("{file}:{}", self.line),
            None => fallback(),
        }
    }

    fn located(grids: Vec<LocatedGrid>, file: &str) -> Vec<PyGrid> {
        let file: Arc<str> = Arc::from(file);
        grids
            .into_iter()
            .map(|g| PyGrid {
                grid: g.grid,
                file: Some(Arc::clone(&file)),
                line: g.line,
            })
            .collect()
    }

    /// Every puzzle of `text`.
    pub fn parse_text(text: &str, format: Option<&str>) -> PyResult<Vec<PyGrid>> {
        let format = format_arg(format)?;
        let grids = read_located(text.as_bytes(), &Source::Text, format).map_err(value_error)?;
        Ok(PyGrid::located(grids, &Source::Text.to_string()))
    }

    /// Every puzzle of the file at `path` (plain or compressed).
    pub fn read_path(path: &std::path::Path, format: Option<&str>) -> PyResult<Vec<PyGrid>> {
        let format = format_arg(format)?;
        let grids = if path == std::path::Path::new("-") {
            read_located_from_path(path, format).map_err(value_error)?
        } else {
            // Opened here: a missing file is a FileNotFoundError, not a parse error.
            let source = Source::Path(path.to_path_buf());
            read_located(open_read(path)?, &source, format).map_err(value_error)?
        };
        let file = if path == std::path::Path::new("-") {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        Ok(PyGrid::located(grids, &file))
    }

    /// The one puzzle of `text`.
    pub fn parse_one(text: &str, format: Option<&str>) -> PyResult<PyGrid> {
        let mut grids = PyGrid::parse_text(text, format)?;
        if grids.len() != 1 {
            return Err(value_error(ParseError::at(
                &Source::Text,
                1,
                1,
                format!(
                    "expected exactly one puzzle, found {} (Grid.parse reads many)",
                    grids.len()
                ),
            )));
        }
        Ok(grids.remove(0))
    }

    fn cell(&self, r: usize, c: usize) -> PyResult<Cell> {
        let n = self.grid.side();
        if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
            return Err(value_error(format!(
                "row {r}, column {c}: rows and columns go from 1 to {n}"
            )));
        }
        Ok(Cell(((r - 1) * n + (c - 1)) as u32))
    }
}

/// A format name as `--from`/`--to` read it.
pub fn format_arg(format: Option<&str>) -> PyResult<Option<Format>> {
    format
        .map(|name| name.parse::<Format>().map_err(value_error))
        .transpose()
}

/// A grid argument: a `Grid`, or the text of one puzzle.
pub fn grid_arg(obj: &Bound<'_, PyAny>) -> PyResult<Py<PyGrid>> {
    if let Ok(grid) = obj.cast::<PyGrid>() {
        return Ok(grid.clone().unbind());
    }
    if obj.is_instance_of::<PyString>() {
        let text: String = obj.extract()?;
        return Py::new(obj.py(), PyGrid::parse_one(&text, None)?);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected a Grid or a puzzle's text, not {}",
        obj.get_type().name()?
    )))
}

#[pymethods]
impl PyGrid {
    /// Reads the one puzzle of `text`, in any format (detected unless `format` names one:
    /// `line`, `block`, `grid`, `csv2`).
    ///
    /// Raises `ValueError` with the line and column of the first problem, as the command
    /// line says it.
    #[new]
    #[pyo3(signature = (text, format = None))]
    fn new(text: &str, format: Option<&str>) -> PyResult<PyGrid> {
        PyGrid::parse_one(text, format)
    }

    /// Every puzzle of `text` (many per string, in any format).
    ///
    /// >>> [g.num_givens for g in Grid.parse("1.3...1..4..2.4.\n.2.4............\n")]
    /// [5, 2]
    #[staticmethod]
    #[pyo3(signature = (text, format = None))]
    fn parse(text: &str, format: Option<&str>) -> PyResult<Vec<PyGrid>> {
        PyGrid::parse_text(text, format)
    }

    /// Every puzzle of a file (plain, gzip, bzip2 or xz), each knowing its `file` and
    /// `line`.
    ///
    /// >>> puzzles = Grid.read("tests/fixtures/minimal-40.txt")
    /// >>> len(puzzles), puzzles[0].num_givens, puzzles[2].line
    /// (40, 22, 3)
    #[staticmethod]
    #[pyo3(signature = (path, format = None))]
    fn read(path: PathBuf, format: Option<&str>) -> PyResult<Vec<PyGrid>> {
        PyGrid::read_path(&path, format)
    }

    /// The empty grid of box size `box_size` (side `box_size`²).
    #[staticmethod]
    fn empty(#[pyo3(from_py_with = args::box_size)] box_size: usize) -> PyResult<PyGrid> {
        Grid::empty(box_size).map(PyGrid::made).ok_or_else(|| {
            value_error(format!(
                "box size {box_size}: expected {} to {}",
                sudosat::grid::MIN_BOX_SIZE,
                sudosat::grid::MAX_BOX_SIZE
            ))
        })
    }

    /// A grid from its n² values in row-major order, 0 for a blank.
    ///
    /// >>> Grid.from_values([1, 0, 0, 0] * 4).num_givens
    /// 4
    #[staticmethod]
    fn from_values(#[pyo3(from_py_with = args::values)] values: Vec<u16>) -> PyResult<PyGrid> {
        let len = values.len();
        Grid::from_values(values).map(PyGrid::made).ok_or_else(|| {
            value_error(format!(
                "{len} values: expected n² values of 0…n for a side n = b² (16, 81, 256, …)"
            ))
        })
    }

    /// Side n of the grid.
    #[getter]
    fn side(&self) -> usize {
        self.grid.side()
    }

    /// Box size b (n = b²).
    #[getter]
    fn box_size(&self) -> usize {
        self.grid.box_size()
    }

    /// Number of given (filled) cells.
    #[getter]
    fn num_givens(&self) -> usize {
        self.grid.num_givens()
    }

    /// The givens as `(row, column, digit)`, row-major, numbered from 1.
    #[getter]
    fn givens(&self) -> Vec<(usize, usize, u16)> {
        let n = self.grid.side();
        self.grid
            .givens()
            .map(|(cell, digit)| (cell.index() / n + 1, cell.index() % n + 1, digit.0))
            .collect()
    }

    /// The n² values in row-major order, 0 for a blank.
    #[getter]
    fn values(&self) -> Vec<u16> {
        self.grid.values().to_vec()
    }

    /// The rows, each a list of n values (0 for a blank).
    #[getter]
    fn rows(&self) -> Vec<Vec<u16>> {
        self.grid
            .values()
            .chunks(self.grid.side())
            .map(<[u16]>::to_vec)
            .collect()
    }

    /// Whether every cell is filled.
    #[getter]
    fn is_full(&self) -> bool {
        self.grid.is_full()
    }

    /// The file the grid was read from (`<text>` for a string), or None.
    #[getter]
    fn file(&self) -> Option<String> {
        self.file.as_deref().map(str::to_string)
    }

    /// The line where it starts in its file, or None.
    #[getter]
    fn line(&self) -> Option<usize> {
        self.file.as_ref().map(|_| self.line)
    }

    /// The digit at `(row, column)`, numbered from 1; 0 for a blank.
    fn value(
        &self,
        #[pyo3(from_py_with = args::row)] row: usize,
        #[pyo3(from_py_with = args::column)] column: usize,
    ) -> PyResult<u16> {
        let cell = self.cell(row, column)?;
        Ok(self.grid.get(cell).map_or(0, |d| d.0))
    }

    /// The digits a blank cell may still take (none clash in its row, column or box).
    fn candidates(
        &self,
        #[pyo3(from_py_with = args::row)] row: usize,
        #[pyo3(from_py_with = args::column)] column: usize,
    ) -> PyResult<Vec<u16>> {
        let cell = self.cell(row, column)?;
        if self.grid.get(cell).is_some() {
            return Ok(Vec::new());
        }
        Ok(self.grid.candidates(cell).iter().map(|d| d.0).collect())
    }

    /// The grid with `digit` (0: a blank) at `(row, column)`.
    fn with_value(
        &self,
        #[pyo3(from_py_with = args::row)] row: usize,
        #[pyo3(from_py_with = args::column)] column: usize,
        #[pyo3(from_py_with = args::digit)] digit: u16,
    ) -> PyResult<PyGrid> {
        let cell = self.cell(row, column)?;
        let n = self.grid.side();
        if usize::from(digit) > n {
            return Err(value_error(format!("digit {digit}: expected 0 to {n}")));
        }
        let mut grid = self.grid.clone();
        grid.set(cell, (digit > 0).then_some(Digit(digit)));
        Ok(PyGrid::made(grid))
    }

    /// The grid as text in `format`: `line` (the default), `block`, `grid`, `csv2` (one
    /// line, no header) or `pretty`.
    ///
    /// >>> print(Grid("1.3...1..4..2.4.").format("block"), end="")
    ///  1 . | 3 .
    ///  . . | 1 .
    /// -----+-----
    ///  . 4 | . .
    ///  2 . | 4 .
    #[pyo3(signature = (format = "line"))]
    fn format(&self, format: &str) -> PyResult<String> {
        let format: Format = format.parse().map_err(value_error)?;
        if !format.can_hold(self.grid.side()) {
            return Err(value_error(format!(
                "the {format} format holds grids up to {n}×{n}; this one is {s}×{s}",
                n = format.max_side(),
                s = self.grid.side()
            )));
        }
        let mut out = Vec::new();
        write_grid(&mut out, &self.grid, format).map_err(value_error)?;
        String::from_utf8(out).map_err(value_error)
    }

    /// The rules this grid breaks (a digit twice in a unit), one message each; with a
    /// `solution`, what keeps it from solving this puzzle (a blank, a broken rule, a given
    /// changed). An empty list: nothing wrong.
    ///
    /// >>> Grid("11..............").check()
    /// ['row 1 repeats 1 at r1c1, r1c2', 'box 1 repeats 1 at r1c1, r1c2']
    #[pyo3(signature = (solution = None))]
    fn check(&self, solution: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
        let report = match solution {
            None => check_grid(&self.grid),
            Some(solution) => {
                let solution = grid_arg(solution)?;
                check_solution(&self.grid, &solution.get().grid)
            }
        };
        let geometry = self.grid.geometry();
        Ok(report
            .violations
            .iter()
            .map(|v| v.display(geometry).to_string())
            .collect())
    }

    /// Whether `check(solution)` finds nothing wrong.
    #[pyo3(signature = (solution = None))]
    fn is_valid(&self, solution: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        Ok(self.check(solution)?.is_empty())
    }

    /// The grid as `format()` writes it in its natural format (`line` when every digit
    /// has a character of its own, `grid` beyond), without the final newline, which
    /// `print` adds.
    fn __str__(&self) -> String {
        self.grid.to_string().trim_end_matches('\n').to_string()
    }

    fn __repr__(&self) -> String {
        match self.grid.to_line() {
            Some(line) => format!("Grid('{line}')"),
            None => format!(
                "<Grid {n}×{n}, {} givens>",
                self.grid.num_givens(),
                n = self.grid.side()
            ),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGrid>()
            .is_ok_and(|other| other.get().grid == self.grid)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.grid.values().hash(&mut hasher);
        hasher.finish()
    }

    /// Pickling: the values, rebuilt with `Grid.from_values`.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyList>,))> {
        let py = slf.py();
        let from_values = slf.get_type().getattr("from_values")?;
        let values = PyList::new(py, slf.get().grid.values())?;
        Ok((from_values, (values,)))
    }
}
