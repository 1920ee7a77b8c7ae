//! The self-describing DIMACS file of a puzzle: [`write_cnf`] writes the [`CnfDescription`]
//! (tool and version, encoding, box size, the puzzle) in the leading comments, so that a
//! model can be decoded from the CNF file alone; [`read_description`] reads it back.

use std::io::{self, Read, Write};

use crate::dimacs::{read_preamble_numbered, DimacsError, DimacsWriter};
use crate::encode::free_vars::FreeVars;
use crate::encode::split::CellSplit;
use crate::encode::{Encoding, SudokuEncoding, VarMap, VarRef};
use crate::formula::{ClauseSink, FormulaSize, Lit};
use crate::grid::{Cell, Digit, Grid};

/// Writes the self-describing DIMACS file of `puzzle` under `encoding`: the
/// [`CnfDescription`] comments, the header (from [`Encoding::size`], no extra pass for the
/// base encodings), then the clauses, streamed. Returns the formula's size.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_cnf<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
) -> io::Result<FormulaSize> {
    write_cnf_with_progress(out, encoding, puzzle, |_, _| {})
}

/// Clauses between two calls of [`write_cnf_with_progress`]'s `progress`.
pub const PROGRESS_EVERY: usize = 1 << 20;

/// [`write_cnf`], calling `progress(written, total)` with the clauses written so far every
/// [`PROGRESS_EVERY`] clauses and once at the end: for a progress bar on the largest
/// grids, whose unreduced files take minutes to write.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_cnf_with_progress<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    write_any_cnf(out, encoding, puzzle, None, progress)
}

/// [`write_cnf_with_progress`] as an incremental CNF (`p inccnf`, as CaDiCaL reads it):
/// the same comments and clauses, a `c cubes:` line saying what they split, then the
/// cubes of `split` as `a LITS 0` lines. `sudosat sat` and `cadical` solve the formula
/// under each cube in turn.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_icnf_with_progress<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    split: &CellSplit,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    write_any_cnf(out, encoding, puzzle, Some(split), progress)
}

fn write_any_cnf<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    split: Option<&CellSplit>,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    let size = encoding.size(puzzle);
    let mut w = DimacsWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    w.comment(&CnfDescription::new(*encoding, puzzle).to_comment_text());
    match split {
        None => w.header(size.vars, size.clauses),
        Some(split) => {
            w.comment(&format!("cubes: {}", split.describe(puzzle)));
            w.header_incremental();
        }
    }
    let mut observed = Observed {
        inner: &mut w,
        written: 0,
        total: size.clauses,
        progress,
    };
    encoding.encode(puzzle, &mut observed);
    (observed.progress)(observed.written, size.clauses);
    // Checked once the writer reports no error: after a failed write (a closed pipe) it
    // stops counting, and the error is the answer.
    let written = w.clauses_written();
    if let Some(split) = split {
        split.for_each_cube(|cube| w.cube(cube));
    }
    w.finish()?;
    debug_assert_eq!(written, size.clauses);
    Ok(size)
}

/// A sink that counts the clauses it passes on and reports every [`PROGRESS_EVERY`].
struct Observed<'a, S: ClauseSink, F: FnMut(usize, usize)> {
    inner: &'a mut S,
    written: usize,
    total: usize,
    progress: F,
}

impl<S: ClauseSink, F: FnMut(usize, usize)> ClauseSink for Observed<'_, S, F> {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.inner.add_clause(clause);
        self.written += 1;
        if self.written % PROGRESS_EVERY == 0 {
            (self.progress)(self.written, self.total);
        }
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.inner.reserve_vars(num_vars);
    }
}

/// A puzzle after reasoning on the grid before the encoding (`--root`), as the CNF
/// writer takes it: the puzzle with the cells that reasoning fixed given, and the
/// candidates it removed from the cells it left open beyond what the givens' own
/// reduction removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pruned {
    /// The puzzle with every fixed cell given.
    pub puzzle: Grid,
    /// Per open cell, the digits removed (ascending), cells in row-major order.
    pub removed: Vec<(Cell, Vec<Digit>)>,
    /// The puzzle was refuted: its formula gets the empty clause.
    pub refuted: bool,
    /// What reasoning was done, for the CNF's comments (e.g. `hall, 12 cells fixed`).
    pub note: String,
}

/// How [`write_pruned_cnf`] writes the removals of a [`Pruned`] puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrunedForm {
    /// The formula of the puzzle with its fixed cells given, each removed candidate a
    /// unit clause: the variables are numbered as for that puzzle.
    Units,
    /// The removed candidates gone from the formula and the variables renumbered over
    /// the candidates left (a reduced encoding), the removals listed in the `c` lines so
    /// that `decode` numbers them again.
    Simplified,
}

/// Whether the formula of `pruned` under `encoding` in `form` numbers only the candidates
/// left (else the removals are unit clauses).
fn simplifies(encoding: &SudokuEncoding, pruned: &Pruned, form: PrunedForm) -> bool {
    form == PrunedForm::Simplified && encoding.reduced && !pruned.refuted
}

/// The description in the comments of a [`Pruned`] puzzle's formula.
fn pruned_description(
    encoding: &SudokuEncoding,
    pruned: &Pruned,
    form: PrunedForm,
) -> CnfDescription {
    let mut description = CnfDescription::new(*encoding, &pruned.puzzle);
    description.root = Some(pruned.note.clone());
    if simplifies(encoding, pruned, form) {
        description.removed = pruned.removed.clone();
    }
    description
}

/// The clauses of a [`Pruned`] puzzle's formula in `form`, into `sink`.
fn emit_pruned(
    encoding: &SudokuEncoding,
    pruned: &Pruned,
    form: PrunedForm,
    sink: &mut dyn ClauseSink,
) {
    let puzzle = &pruned.puzzle;
    if simplifies(encoding, pruned, form) {
        let free = FreeVars::of(puzzle).without(&pruned.removed);
        encoding.encode_free_into(puzzle, free, sink);
    } else {
        let map = encoding.encode_into(puzzle, sink);
        for (cell, digits) in &pruned.removed {
            for &digit in digits {
                // A candidate the encoding's own reduction already fixed has no variable.
                if let VarRef::Var(var) = map.var(*cell, digit) {
                    sink.add_clause(&[var.lit(false)]);
                }
            }
        }
    }
    if pruned.refuted {
        sink.add_clause(&[]);
    }
}

/// The size of the formula [`write_pruned_cnf`] writes, by walks over the encoding's
/// groups as [`Encoding::size`] makes them (no clause generated).
pub fn pruned_size(encoding: &SudokuEncoding, pruned: &Pruned, form: PrunedForm) -> FormulaSize {
    let puzzle = &pruned.puzzle;
    let mut size = if simplifies(encoding, pruned, form) {
        encoding.size_free(puzzle, FreeVars::of(puzzle).without(&pruned.removed))
    } else {
        let map = encoding.var_map(puzzle);
        let mut size = encoding.size(puzzle);
        for (cell, digits) in &pruned.removed {
            let units = digits
                .iter()
                .filter(|&&digit| matches!(map.var(*cell, digit), VarRef::Var(_)))
                .count();
            size.clauses += units;
            size.literals += units;
        }
        size
    };
    if pruned.refuted {
        size.clauses += 1;
    }
    size
}

/// Writes the self-describing CNF of a [`Pruned`] puzzle in `form` (a
/// [`PrunedForm::Simplified`] formula needs a reduced `encoding`; with another it is
/// written as [`PrunedForm::Units`]), calling `progress` as [`write_cnf_with_progress`]
/// does. Returns the formula's size.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_pruned_cnf<W: Write>(
    out: W,
    encoding: &SudokuEncoding,
    pruned: &Pruned,
    form: PrunedForm,
    progress: impl FnMut(usize, usize),
) -> io::Result<FormulaSize> {
    // Two passes, as the other writers of a reduced encoding: the header needs the size.
    let size = pruned_size(encoding, pruned, form);
    let description = pruned_description(encoding, pruned, form);
    let mut w = DimacsWriter::new(io::BufWriter::with_capacity(1 << 16, out));
    w.comment(&description.to_comment_text());
    w.header(size.vars, size.clauses);
    let mut observed = Observed {
        inner: &mut w,
        written: 0,
        total: size.clauses,
        progress,
    };
    emit_pruned(encoding, pruned, form, &mut observed);
    (observed.progress)(observed.written, size.clauses);
    // Checked once the writer reports no error, as `write_any_cnf` does.
    let written = w.clauses_written();
    w.finish()?;
    debug_assert_eq!(written, size.clauses);
    Ok(size)
}

/// The bytes of the DIMACS clauses of a formula of this size, estimated for a check before
/// writing: each literal as a variable number of the mean decimal width of `1..=vars`
/// plus a separator, each clause's `0` and newline. Minus signs and the comments are left
/// out, so on the encodings here (mostly negative literals) it falls short of the clauses
/// written by 3–19 % (tested): a file refused on this estimate would not have fitted.
pub fn dimacs_bytes_estimate(size: FormulaSize) -> u64 {
    let vars = size.vars as u64;
    // Σ over 1..=vars of the decimal width: each width k covers [10^(k−1), 10^k).
    let mut width_sum: u64 = 0;
    let (mut low, mut width) = (1u64, 1u64);
    while low <= vars {
        let high = low.saturating_mul(10).min(vars + 1);
        width_sum += (high - low) * width;
        low = high;
        width += 1;
    }
    let mean_width = if vars == 0 {
        1.0
    } else {
        width_sum as f64 / vars as f64
    };
    let literal_bytes = size.literals as f64 * (mean_width + 1.0);
    (literal_bytes as u64).saturating_add((size.clauses as u64).saturating_mul(2))
}

/// What a CNF file written by [`write_cnf`] says about itself in its leading comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfDescription {
    /// Tool and version that wrote it, e.g. `sudosat 0.1.0`.
    pub tool: String,
    /// The encoding.
    pub encoding: SudokuEncoding,
    /// The puzzle (its box size follows).
    pub puzzle: Grid,
    /// Reasoning on the grid done before the encoding (`root:`), if any.
    pub root: Option<String>,
    /// Candidates that reasoning removed from open cells of the puzzle beyond the givens'
    /// own reduction, with the variables numbering only the candidates left (`removed`
    /// lines); empty for the encoding's own numbering.
    pub removed: Vec<(Cell, Vec<Digit>)>,
}

impl CnfDescription {
    /// The description of `puzzle` under `encoding`, by this version of the tool.
    pub fn new(encoding: SudokuEncoding, puzzle: &Grid) -> Self {
        CnfDescription {
            tool: format!("sudosat {}", env!("CARGO_PKG_VERSION")),
            encoding,
            puzzle: puzzle.clone(),
            root: None,
            removed: Vec::new(),
        }
    }

    /// The map of the formula: the encoding's own numbering for the puzzle, or over the
    /// candidates left when some were removed.
    pub fn var_map(&self) -> VarMap {
        if self.removed.is_empty() || !self.encoding.reduced {
            return self.encoding.var_map(&self.puzzle);
        }
        let free = FreeVars::of(&self.puzzle).without(&self.removed);
        self.encoding.var_map_free(&self.puzzle, free)
    }

    /// The comment text (without the `c ` prefixes), one item per line.
    pub fn to_comment_text(&self) -> String {
        let n = self.puzzle.side();
        let mut s = format!(
            "{} - Sudoku as SAT\nencoding: {}\nbox-size: {}\n",
            self.tool,
            self.encoding.name(),
            self.puzzle.box_size()
        );
        match self.puzzle.to_line() {
            Some(line) => s.push_str(&format!("puzzle: {line}\n")),
            None => {
                s.push_str("puzzle-grid: (one row per line, 0 = blank)\n");
                for row in self.puzzle.values().chunks(n) {
                    let row: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                    s.push_str(&format!("| {}\n", row.join(" ")));
                }
            }
        }
        if let Some(root) = &self.root {
            s.push_str(&format!(
                "root: {root}; the puzzle above has the cells it fixed given\n"
            ));
        }
        if self.encoding.reduced && !self.removed.is_empty() {
            s.push_str(&format!(
                "variables: the free (r,c,v) of the Kwon-Jain reduction less the candidates \
                 of the `removed` lines, numbered 1.. in row-major cell order, ascending v \
                 (n = {n})\n"
            ));
            for (cell, digits) in &self.removed {
                let digits: Vec<String> = digits.iter().map(|d| d.get().to_string()).collect();
                s.push_str(&format!(
                    "removed r{}c{}: {}\n",
                    cell.index() / n + 1,
                    cell.index() % n + 1,
                    digits.join(" ")
                ));
            }
        } else if self.encoding.reduced {
            s.push_str(&format!(
                "variables: the free (r,c,v) of the Kwon-Jain reduction, numbered 1.. in \
                 row-major cell order, ascending v; (r,c,v) is fixed true when (r,c) is a \
                 given v, fixed false when a given shares the cell, or v and a row, column \
                 or box with (r,c) (n = {n})\n"
            ));
        } else {
            s.push_str(&format!(
                "variables: (r,c,v) is (r-1)*{} + (c-1)*{n} + v, r,c,v in 1..{n}\n",
                n * n
            ));
        }
        let map = self.var_map();
        if map.num_vars() > map.num_cell_vars() {
            s.push_str(&format!(
                "auxiliary: variables {}..{} are not cell values ({}{}); decode ignores them\n",
                map.num_cell_vars() + 1,
                map.num_vars(),
                if self.encoding.base == crate::encode::BaseEncoding::Augmented {
                    "row- then column-segment variables, then "
                } else {
                    ""
                },
                format_args!("at-most-one: {}", self.encoding.amo.citation()),
            ));
        }
        s
    }

    /// Reads a description back from the comment lines (without their leading `c`).
    ///
    /// # Errors
    /// A message naming the missing or malformed item.
    pub fn from_comments<'a>(
        lines: impl IntoIterator<Item = &'a str>,
    ) -> Result<CnfDescription, String> {
        Self::from_numbered_comments(lines.into_iter().enumerate().map(|(i, l)| (i + 1, l)))
            .map_err(|(_, message)| message)
    }

    /// [`from_comments`](Self::from_comments) on `(line number, text)` pairs; an error
    /// carries the line of the comment at fault (for a missing item, the line after the
    /// last comment).
    ///
    /// # Errors
    /// The line and a message naming the missing or malformed item.
    pub fn from_numbered_comments<'a>(
        lines: impl IntoIterator<Item = (usize, &'a str)>,
    ) -> Result<CnfDescription, (usize, String)> {
        let mut tool = None;
        let mut encoding = None;
        let mut box_size = None;
        let mut line_form = None;
        let mut rows: Option<(usize, Vec<u16>)> = None;
        let mut root = None;
        let mut removed: Vec<RemovedLine> = Vec::new();
        let mut end = 1;
        for (no, raw) in lines {
            end = no + 1;
            let line = raw.trim();
            if let Some(rest) = line.strip_prefix("encoding:") {
                let name = rest.trim();
                encoding =
                    Some(SudokuEncoding::from_name(name).ok_or_else(|| {
                        (no, format!("unknown encoding `{name}` in the comments"))
                    })?);
            } else if let Some(rest) = line.strip_prefix("box-size:") {
                let size = rest.trim().parse::<usize>().map_err(|_| {
                    (
                        no,
                        format!("bad box size `{}` in the comments", rest.trim()),
                    )
                })?;
                box_size = Some((no, size));
            } else if let Some(rest) = line.strip_prefix("puzzle:") {
                line_form = Some((no, rest.trim().to_string()));
            } else if let Some(rest) = line.strip_prefix("root:") {
                let rest = rest.trim();
                let note = rest.split("; the puzzle above").next().unwrap_or(rest);
                root = Some(note.to_string());
            } else if let Some(rest) = line.strip_prefix("removed r") {
                removed.push(removed_line(no, rest)?);
            } else if line.starts_with("puzzle-grid:") {
                rows = Some((no, Vec::new()));
            } else if let (Some(rest), Some((_, values))) = (line.strip_prefix('|'), rows.as_mut())
            {
                for token in rest.split_whitespace() {
                    values.push(
                        token
                            .parse()
                            .map_err(|_| (no, format!("bad value `{token}` in the puzzle-grid")))?,
                    );
                }
            } else if tool.is_none() && line.starts_with("sudosat ") {
                tool = line.split(" - ").next().map(str::to_string);
            }
        }
        let encoding = encoding.ok_or_else(|| {
            (
                end,
                "no `encoding:` comment: not a CNF written by sudosat".to_string(),
            )
        })?;
        let (size_line, box_size) =
            box_size.ok_or_else(|| (end, "no `box-size:` comment".to_string()))?;
        let (puzzle_line, puzzle) = match (line_form, rows) {
            (Some((no, line)), _) => (
                no,
                line.parse::<Grid>()
                    .map_err(|e| (no, format!("bad puzzle in the comments: {}", e.message)))?,
            ),
            (None, Some((no, values))) => (
                no,
                Grid::from_values(values).ok_or_else(|| {
                    (no, "the puzzle-grid comment is not a full grid".to_string())
                })?,
            ),
            (None, None) => return Err((end, "no `puzzle:` comment".into())),
        };
        if puzzle.box_size() != box_size {
            return Err((
                size_line,
                format!(
                    "the puzzle (line {puzzle_line}) has box size {} but this comment says \
                     {box_size}",
                    puzzle.box_size()
                ),
            ));
        }
        let n = puzzle.side();
        let mut cells = Vec::with_capacity(removed.len());
        for (no, r, c, digits) in removed {
            if r == 0 || c == 0 || r > n || c > n {
                return Err((
                    no,
                    format!("removed r{r}c{c}: no such cell of a {n}×{n} grid"),
                ));
            }
            if !encoding.reduced {
                return Err((no, "`removed` lines need a reduced encoding".to_string()));
            }
            let cell = Cell(((r - 1) * n + c - 1) as u32);
            let mut kept = Vec::with_capacity(digits.len());
            for d in digits {
                if d == 0 || usize::from(d) > n {
                    return Err((
                        no,
                        format!("removed r{r}c{c}: no digit {d} on a {n}×{n} grid"),
                    ));
                }
                kept.push(Digit(d));
            }
            cells.push((cell, kept));
        }
        Ok(CnfDescription {
            tool: tool.unwrap_or_else(|| "unknown".into()),
            encoding,
            puzzle,
            root,
            removed: cells,
        })
    }
}

/// A `removed rRcC: D D …` comment: its line, row, column and digits, unchecked.
type RemovedLine = (usize, usize, usize, Vec<u16>);

/// Parses a `removed rRcC: D D …` comment (the text after `removed r`).
fn removed_line(no: usize, rest: &str) -> Result<RemovedLine, (usize, String)> {
    let bad = || {
        (
            no,
            format!("bad `removed r{rest}` comment (expected `removed rRcC: D D …`)"),
        )
    };
    let (cell, digits) = rest.split_once(':').ok_or_else(bad)?;
    let (r, c) = cell.split_once('c').ok_or_else(bad)?;
    let r = r.trim().parse().map_err(|_| bad())?;
    let c = c.trim().parse().map_err(|_| bad())?;
    let digits = digits
        .split_whitespace()
        .map(|d| d.parse::<u16>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    Ok((no, r, c, digits))
}

/// Reads the [`CnfDescription`] from the leading comments of a CNF written by [`write_cnf`].
///
/// # Errors
/// A [`DimacsError`] when the comments do not describe a puzzle.
pub fn read_description<R: Read>(
    reader: R,
    source_name: &str,
) -> Result<CnfDescription, DimacsError> {
    let lines = read_preamble_numbered(reader, source_name)?;
    CnfDescription::from_numbered_comments(lines.iter().map(|(no, text)| (*no, text.as_str())))
        .map_err(|(line, message)| DimacsError::at(source_name, line, 1, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 puzzle pruned by hand: r1c2 fixed to 2, candidates 3 and 4 removed from r2c1.
    fn pruned_4x4() -> Pruned {
        let puzzle: Grid = "12..............".parse().unwrap();
        Pruned {
            puzzle,
            removed: vec![(Cell(4), vec![Digit(3), Digit(4)])],
            refuted: false,
            note: "hall, by hand".into(),
        }
    }

    #[test]
    fn a_simplified_formula_numbers_the_candidates_left_and_reads_its_removals_back() {
        let encoding = SudokuEncoding::new(crate::encode::BaseEncoding::Extended, true);
        let pruned = pruned_4x4();
        let own = encoding.size(&pruned.puzzle);
        let mut text = Vec::new();
        let size = write_pruned_cnf(
            &mut text,
            &encoding,
            &pruned,
            PrunedForm::Simplified,
            |_, _| {},
        )
        .unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("c removed r2c1: 3 4\n"), "{text}");
        // r2c1 keeps 1 of the 3 free candidates it had (1 and 2 given in its box and row).
        assert_eq!(own.vars - size.vars, 2);
        assert_eq!(
            size,
            pruned_size(&encoding, &pruned, PrunedForm::Simplified)
        );
        let d = read_description(text.as_bytes(), "p.cnf").unwrap();
        assert_eq!(d.removed, pruned.removed);
        assert_eq!(d.root.as_deref(), Some("hall, by hand"));
        assert_eq!(d.var_map().num_vars(), size.vars);
        // As units instead: the puzzle's own numbering and one clause a removal.
        let units = pruned_size(&encoding, &pruned, PrunedForm::Units);
        assert_eq!((units.vars, units.clauses), (own.vars, own.clauses + 2));
    }

    /// The walks of [`pruned_size`] count what [`emit_pruned`] writes, for every encoding
    /// and family, both forms, pruned and refuted (`solve/root/fixpoint.rs` checks the same
    /// after the real fixpoint).
    #[test]
    fn the_pruned_size_counts_the_clauses_written() {
        use crate::formula::CountingSink;
        let refuted = Pruned {
            puzzle: "11..............".parse().unwrap(),
            removed: Vec::new(),
            refuted: true,
            note: "hall, refuted".into(),
        };
        for encoding in SudokuEncoding::all_families() {
            for p in [&pruned_4x4(), &refuted] {
                for form in [PrunedForm::Units, PrunedForm::Simplified] {
                    let mut counter = CountingSink::default();
                    emit_pruned(&encoding, p, form, &mut counter);
                    let size = pruned_size(&encoding, p, form);
                    let vars = pruned_description(&encoding, p, form).var_map().num_vars();
                    let what = format!("{} {form:?} {}", encoding.name(), p.note);
                    let written = (counter.size.clauses, counter.size.literals);
                    assert_eq!((size.clauses, size.literals), written, "{what}");
                    assert_eq!(size.vars, vars, "{what}");
                }
            }
        }
    }

    #[test]
    fn a_bad_removed_line_is_named_by_its_line() {
        let mut text = Vec::new();
        let encoding = SudokuEncoding::new(crate::encode::BaseEncoding::Extended, true);
        write_pruned_cnf(
            &mut text,
            &encoding,
            &pruned_4x4(),
            PrunedForm::Simplified,
            |_, _| {},
        )
        .unwrap();
        let text = String::from_utf8(text).unwrap();
        for (bad, message) in [
            ("c removed r2c1: 3 x", "bad `removed r2c1: 3 x` comment"),
            (
                "c removed r9c1: 3",
                "removed r9c1: no such cell of a 4×4 grid",
            ),
            (
                "c removed r2c1: 7",
                "removed r2c1: no digit 7 on a 4×4 grid",
            ),
        ] {
            let changed = text.replace("c removed r2c1: 3 4", bad);
            let line = changed.lines().position(|l| l == bad).unwrap() + 1;
            let err = read_description(changed.as_bytes(), "p.cnf")
                .unwrap_err()
                .to_string();
            assert!(err.contains(&format!("p.cnf:{line}:")), "{err}");
            assert!(err.contains(message), "{err}");
        }
    }

    #[test]
    fn the_byte_estimate_falls_short_of_the_written_clauses_by_at_most_a_third() {
        let puzzles: Vec<Grid> = [
            "................",
            "1.3...1..4..2.4.",
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            ".................................................................................",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .chain([Grid::empty(4).unwrap()])
        .collect();
        for puzzle in &puzzles {
            for enc in SudokuEncoding::all_families() {
                let mut file = Vec::new();
                let size = write_cnf(&mut file, &enc, puzzle).unwrap();
                let estimate = dimacs_bytes_estimate(size) as f64;
                // The clauses: what follows the `p cnf` line.
                let text = String::from_utf8(file).unwrap();
                let header = text.find("p cnf").unwrap();
                let written = text[header..].split_once('\n').unwrap().1.len() as f64;
                let ratio = estimate / written;
                assert!(
                    (0.67..=1.0).contains(&ratio),
                    "{} on {}×{}: estimate {estimate}, written {written}",
                    enc.name(),
                    puzzle.side(),
                    puzzle.side()
                );
            }
        }
    }

    #[test]
    fn progress_counts_every_clause_and_the_file_is_the_same() {
        // An empty 36×36 grid, extended: 3.3 M clauses, three reports before the last.
        let puzzle = Grid::empty(6).unwrap();
        let enc = SudokuEncoding::ALL[1];
        let mut plain = Vec::new();
        write_cnf(&mut plain, &enc, &puzzle).unwrap();
        let mut observed = Vec::new();
        let mut calls = Vec::new();
        let size = write_cnf_with_progress(&mut observed, &enc, &puzzle, |done, total| {
            calls.push((done, total))
        })
        .unwrap();
        assert_eq!(observed, plain);
        let expected: Vec<(usize, usize)> = (1..=size.clauses / PROGRESS_EVERY)
            .map(|k| (k * PROGRESS_EVERY, size.clauses))
            .chain([(size.clauses, size.clauses)])
            .collect();
        assert_eq!(calls, expected);
        assert_eq!(calls.len(), 4);
    }

    #[test]
    fn a_bad_comment_is_named_by_its_line() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let text = CnfDescription::new(SudokuEncoding::ALL[0], &puzzle).to_comment_text();
        // The comments with one edited, as a CNF, and the line of the edited comment.
        let edited = |from: &str, to: &str| {
            let bad = text.replace(from, to);
            let line = bad.lines().position(|l| l.starts_with(to)).unwrap() + 1;
            let cnf: String = bad.lines().map(|l| format!("c {l}\n")).collect();
            (format!("{cnf}p cnf 0 0\n"), line)
        };
        let (cnf, line) = edited("box-size: 2", "box-size: 3");
        let e = read_description(cnf.as_bytes(), "f.cnf").unwrap_err();
        assert_eq!((e.line, e.column), (line, 1));
        assert!(e.message.contains("this comment says 3"), "{e}");
        let (cnf, line) = edited("encoding: ", "encoding: nonsense-");
        let e = read_description(cnf.as_bytes(), "f.cnf").unwrap_err();
        assert_eq!(e.line, line);
    }

    #[test]
    fn description_round_trips() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        for enc in SudokuEncoding::ALL {
            let d = CnfDescription::new(enc, &puzzle);
            let text = d.to_comment_text();
            let back = CnfDescription::from_comments(text.lines()).unwrap();
            assert_eq!(back, d);
        }
        let mut big = Grid::empty(6).unwrap();
        big.set(crate::grid::Cell(5), Some(crate::grid::Digit(36)));
        let d = CnfDescription::new(SudokuEncoding::ALL[0], &big);
        let back = CnfDescription::from_comments(d.to_comment_text().lines()).unwrap();
        assert_eq!(back.puzzle, big);
    }

    #[test]
    fn an_icnf_holds_the_cnfs_clauses_then_the_cubes() {
        let puzzle: Grid = "..12....3.......".parse().unwrap();
        let encoding = SudokuEncoding::new(crate::encode::BaseEncoding::Extended, true);
        let split = CellSplit::fewest_candidates(&encoding, &puzzle, 2).unwrap();
        let mut plain = Vec::new();
        write_cnf(&mut plain, &encoding, &puzzle).unwrap();
        let mut incremental = Vec::new();
        write_icnf_with_progress(&mut incremental, &encoding, &puzzle, &split, |_, _| {}).unwrap();
        let (plain, incremental) = (
            String::from_utf8(plain).unwrap(),
            String::from_utf8(incremental).unwrap(),
        );
        fn body(text: &str) -> Vec<&str> {
            text.lines()
                .filter(|l| !l.starts_with(['c', 'p', 'a']))
                .collect()
        }
        assert_eq!(body(&plain), body(&incremental));
        assert!(incremental.contains("\nc cubes: r1c2 (2) × r2c3 (2) = 4 cubes\np inccnf\n"));
        let cubes: Vec<&str> = incremental
            .lines()
            .filter(|l| l.starts_with("a "))
            .collect();
        assert_eq!(cubes.len(), 4);
        assert!(
            incremental.ends_with(&format!("{}\n", cubes[3])),
            "cubes come last"
        );
        // And it parses back as an incremental CNF with those cubes.
        let (_, report) =
            crate::dimacs::parse_dimacs_str(&incremental, Default::default()).unwrap();
        assert!(report.incremental);
        assert_eq!(report.cubes.len(), 4);
    }
}
