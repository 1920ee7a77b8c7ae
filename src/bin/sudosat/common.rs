//! Helpers shared by the subcommands: reading puzzles, writing outputs atomically, errors.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use sudosat::backend::{BackendKind, BackendSpec, ProofFormat};
use sudosat::compression::{self, Compression};
use sudosat::dimacs::{parse_dimacs_until, DimacsReport, ParseOptions};
use sudosat::generate::{diagnose, Diagnosis};
use sudosat::grid::{check_grid, read_located_from_path, read_puzzles_from_path, Format, Grid};
use sudosat::names::plural;
use sudosat::run::Deadline;
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::SolverSpec;
use sudosat::Cnf;

/// Reads a DIMACS formula from `path` (`-` = standard input; gzip, bzip2 and xz are read
/// as they are, as MiniSat, CaDiCaL and Kissat read competition benchmarks), with the
/// header's variable count, and prints the parser's warnings. Returns the formula, the
/// parse report (header, preamble comments, cubes) and the name errors use.
///
/// # Errors
/// A file that cannot be opened or read, or a positioned parse error.
pub fn read_cnf(path: &Path) -> Result<(Cnf, DimacsReport, String)> {
    read_cnf_until(path, &|| false)
}

/// [`read_cnf`] that ends early, with what it read, when `stop` says so (the report says
/// `stopped`).
pub fn read_cnf_until(path: &Path, stop: &dyn Fn() -> bool) -> Result<(Cnf, DimacsReport, String)> {
    let name = display_path(path);
    let mut cnf = Cnf::new();
    let input = sudosat::compression::open(path).with_context(|| format!("{name}: cannot open"))?;
    let report = parse_dimacs_until(input, &name, &mut cnf, ParseOptions::default(), stop)?;
    cnf.set_num_vars(report.declared.0);
    for warning in &report.warnings {
        eprintln!("sudosat: warning: {warning}");
    }
    Ok((cnf, report, name))
}

/// Exit code for "every answer valid / solved".
pub const EXIT_OK: u8 = 0;

/// The most threads `--jobs` of `solve` and `count` starts (each holds a solver): the
/// limit of `compare --jobs`, one limit for every subcommand.
pub const MAX_JOBS: usize = sudosat::compare::MAX_JOBS;
/// Exit code for "some answer is invalid / unsolvable".
pub const EXIT_NEGATIVE: u8 = 1;
/// Exit code for errors (bad input, failing solver).
pub const EXIT_ERROR: u8 = 2;

/// A `--timeout SECS` flag as a duration.
///
/// # Errors
/// A time-out that is not a positive number.
pub fn time_limit(secs: Option<f64>) -> Result<Option<Duration>> {
    time_limit_of("--timeout", secs)
}

/// The DRAT form a `--binary-proof` flag asks for (`sat --proof`, `--proof-dir`).
pub fn proof_format(binary: bool) -> ProofFormat {
    if binary {
        ProofFormat::Binary
    } else {
        ProofFormat::Text
    }
}

/// [`time_limit`] for the option `flag`, which the messages name.
///
/// # Errors
/// A time that is not a positive number of seconds, or too long.
pub fn time_limit_of(flag: &str, secs: Option<f64>) -> Result<Option<Duration>> {
    Ok(sudosat::run::time_limit(flag, secs)?)
}

/// The `--max-memory` budget: the flag's value, else half the available memory.
pub fn memory_budget(flag: Option<u64>) -> Option<u64> {
    flag.or_else(default_memory_budget)
}

/// Half the memory the kernel reports available (`MemAvailable`), if it says.
fn default_memory_budget() -> Option<u64> {
    sudosat::run::available_memory().map(|bytes| bytes / 2)
}

/// Reads every puzzle of every input (`-` = stdin).
pub fn read_inputs(paths: &[PathBuf], format: Option<Format>) -> Result<Vec<Grid>> {
    stdin_at_most_once(paths.iter().map(PathBuf::as_path))?;
    let mut all = Vec::new();
    for path in paths {
        all.extend(read_puzzles_from_path(path, format)?);
    }
    Ok(all)
}

/// A puzzle read from an input, with where it starts.
#[derive(Clone, Debug)]
pub struct InputGrid {
    /// The input file as named on the command line (`-` = stdin), shared by the file's
    /// puzzles (a file of 50,000 puzzles held 50,000 copies of its name).
    pub path: Arc<Path>,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle.
    pub grid: Grid,
}

impl InputGrid {
    /// `file:line`, with `<stdin>` for `-`.
    pub fn location(&self) -> String {
        format!("{}:{}", display_path(&self.path), self.line)
    }
}

/// A path as messages show it: `<stdin>` for `-`.
pub fn display_path(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// The inputs named on the command line, or `-` (stdin) when there are none.
pub fn inputs_or_stdin(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        paths.to_vec()
    }
}

/// Refuses a command line that names standard input (`-`) twice, e.g. as the puzzles and
/// as their solutions: the second reader would see it empty and report "empty input".
pub fn stdin_at_most_once<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<()> {
    let named = paths.into_iter().filter(|p| *p == Path::new("-")).count();
    if named > 1 {
        bail!("standard input (`-`) is named {named} times; it can be read only once");
    }
    Ok(())
}

/// Reads every puzzle of every input (`-` = stdin), keeping where each one starts.
pub fn read_located_inputs(paths: &[PathBuf], format: Option<Format>) -> Result<Vec<InputGrid>> {
    stdin_at_most_once(paths.iter().map(PathBuf::as_path))?;
    let mut all = Vec::new();
    for path in paths {
        let grids = read_located_from_path(path, format)?;
        let shared: Arc<Path> = Arc::from(path.as_path());
        all.extend(grids.into_iter().map(|g| InputGrid {
            path: Arc::clone(&shared),
            line: g.line,
            grid: g.grid,
        }));
    }
    Ok(all)
}

/// Writes a copy of the plain file `plain` to `target`, compressed as `target`'s name
/// says (through [`write_output`]: a temp file renamed into place). Files written plain
/// as they grow (a solver's proof) are packed this way once complete. `what` names the
/// output in messages.
///
/// # Errors
/// `plain` cannot be read or `target` written.
pub fn write_packed_copy(plain: &Path, target: &Path, what: &str) -> Result<()> {
    let mut input =
        std::fs::File::open(plain).with_context(|| format!("{what}: cannot read back"))?;
    write_output(Some(target), |w| {
        std::io::copy(&mut input, w).with_context(|| format!("{what}: cannot write"))?;
        Ok(())
    })
}

/// Writes `contents` produced by `fill` to `path` (or stdout for `-`/`None`) through a temp
/// file in the same directory, renamed into place only on success: never a half-written file.
///
/// What the user names is written, not replaced: a symbolic link's target gets the output
/// (the link stays), a device or pipe (`/dev/null`, a FIFO) is written straight into, since
/// nothing can be renamed over it, an existing file keeps its permissions, and a read-only
/// file is refused as a shell redirection refuses it. A file named `*.gz`, `*.bz2` or `*.xz`
/// is written compressed.
pub fn write_output(
    path: Option<&Path>,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    match path {
        None => write_stdout(fill),
        Some(p) if p == Path::new("-") => write_stdout(fill),
        Some(p) => {
            let target = output_target(p)?;
            let existing = std::fs::metadata(&target).ok();
            if let Some(meta) = &existing {
                if !meta.is_file() && !meta.is_dir() {
                    return write_special(p, fill);
                }
                if meta.permissions().readonly() {
                    bail!("{}: the file is read-only; not replaced", p.display());
                }
            }
            let mut tmp = temp_file_beside(&target)?;
            if let Some(meta) = existing.filter(|m| m.is_file()) {
                // Best effort: the rename below gives the output the temp file's mode.
                let _ = tmp.as_file().set_permissions(meta.permissions());
            }
            let guard = crate::signals::track_output(tmp.path());
            {
                // `out.cnf.xz`, `out.txt.gz`: compressed as the name says.
                let kind = Compression::for_path(p);
                let mut w = compression::Writer::new(kind, io::BufWriter::new(tmp.as_file_mut()))
                    .with_context(|| format!("{}: cannot write", p.display()))?;
                fill(&mut w)?;
                w.finish()
                    .with_context(|| format!("{}: cannot write", p.display()))?;
            }
            guard
                .finish(|| tmp.persist(&target))
                .with_context(|| format!("{}: cannot write", p.display()))?;
            Ok(())
        }
    }
}

/// Writes `count` files into `dir`, file `i` named `name(i)` and filled by `fill(i, w)`
/// (compressed as `kind` says), all or none: they are written into a temporary directory
/// inside `dir` and moved into place only when every one is complete, so an error or a
/// signal leaves no part of the set. `dir` is created if missing. A progress bar counts the
/// files on a terminal when there are several.
pub fn write_files_in(
    dir: &Path,
    count: usize,
    name: impl Fn(usize) -> String,
    kind: Compression,
    mut fill: impl FnMut(usize, &mut dyn Write) -> Result<()>,
) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".sudosat-")
        .tempdir_in(dir)
        .with_context(|| format!("{}: cannot create a temporary directory", dir.display()))?;
    let _guard = crate::signals::track_output(staging.path());
    let bar = progress_bar(count, "files", count < 2);
    for i in 0..count {
        let path = dir.join(name(i));
        let cannot_write = || format!("{}: cannot write", path.display());
        let file =
            std::fs::File::create(staging.path().join(name(i))).with_context(cannot_write)?;
        let mut w =
            compression::Writer::new(kind, io::BufWriter::new(file)).with_context(cannot_write)?;
        fill(i, &mut w).with_context(cannot_write)?;
        w.finish().with_context(cannot_write)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    // A rename fails on a directory of the same name: found before any file moves.
    if let Some(taken) = (0..count).map(|i| dir.join(name(i))).find(|p| p.is_dir()) {
        bail!("{}: cannot write: it is a directory", taken.display());
    }
    for i in 0..count {
        let path = dir.join(name(i));
        std::fs::rename(staging.path().join(name(i)), &path)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    // The name after the last, when the set does not hold it, is an earlier run's.
    let next = name(count);
    if !(0..count).any(|i| name(i) == next) && std::fs::metadata(dir.join(&next)).is_ok() {
        eprintln!(
            "sudosat: note: {} also holds {} and maybe more from an earlier, longer run",
            dir.display(),
            next
        );
    }
    Ok(())
}

/// The file an output path names: a symbolic link (or a chain of them) is followed to the
/// path it points at, which may not exist yet.
fn output_target(path: &Path) -> Result<PathBuf> {
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&target)
                    .with_context(|| format!("{}: cannot read the link", path.display()))?;
                target = match target.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(target),
        }
    }
    bail!("{}: too many levels of symbolic links", path.display())
}

/// Writes into a device or pipe directly: it cannot be half-written in the sense a file
/// can, and renaming a file over it would replace the node itself.
fn write_special(path: &Path, fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    let mut w = io::BufWriter::new(file);
    fill(&mut w)?;
    w.flush()
        .with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(())
}

/// A temporary file in `path`'s directory, to be renamed over `path` when complete. Its
/// name is absolute (an external solver writing it runs in a directory of its own), and it
/// has the permissions a plain new file gets (0666 less the umask), not the owner-only ones
/// of temporary files, since it becomes the output itself.
///
/// # Errors
/// A missing directory, named, or a temporary file that cannot be created.
pub fn temp_file_beside(path: &Path) -> Result<tempfile::NamedTempFile> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        bail!(
            "{}: cannot write: the directory {} does not exist",
            path.display(),
            dir.display()
        );
    }
    let dir = std::path::absolute(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".sudosat-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
        .tempfile_in(&dir)
        .with_context(|| format!("{}: cannot create a temporary file", dir.display()))
}

fn write_stdout(fill: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let stdout = io::stdout();
    let mut w = io::BufWriter::new(stdout.lock());
    fill(&mut w)?;
    w.flush()?;
    Ok(())
}

/// Prints an error on one line to stderr and returns the error exit code; a closed stdout
/// (broken pipe, e.g. `| head`) is a clean exit.
pub fn report_error(err: &anyhow::Error) -> ExitCode {
    // The closed pipe may sit under a library error (a CSV writer's, compare's output).
    let closed_pipe = err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    });
    if closed_pipe {
        return ExitCode::from(EXIT_OK);
    }
    let chain: Vec<String> = err.chain().map(|e| e.to_string()).collect();
    let mut line = String::new();
    for part in chain {
        if !line.contains(&part) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&part);
        }
    }
    eprintln!("sudosat: error: {line}");
    ExitCode::from(EXIT_ERROR)
}

/// A progress bar with an ETA on stderr counting `len` `unit`s (e.g. "puzzles", "runs"),
/// showing the message last set; hidden when `hidden` or when stderr is not a terminal.
pub fn progress_bar(len: usize, unit: &str, hidden: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;

    if hidden || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{per_sec}}  eta {{eta}}  {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// How many solutions a puzzle has, for `grade` and `explain`: a grade means little for a
/// puzzle without exactly one (graders such as HoDoKu refuse those), and the human
/// solver's unique-rectangle steps assume one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// No solution.
    None,
    /// Exactly one.
    One,
    /// Two or more.
    Several,
}

impl Solutions {
    /// The CSV field: `0`, `1` or `2+`.
    pub fn field(self) -> &'static str {
        match self {
            Solutions::None => "0",
            Solutions::One => "1",
            Solutions::Several => "2+",
        }
    }
}

/// Counts `puzzle`'s solutions up to two with the default SAT path on one thread (the
/// puzzles run in parallel), within what is left of `deadline`.
pub fn solutions(puzzle: &Grid, deadline: Deadline) -> Result<Solutions> {
    solutions_up_to(puzzle, deadline, 2, 1)
}

/// The default SAT path (encoding and backend) on `threads` threads: what `solve` uses
/// when no flag says otherwise, for the commands that solve on the side (`render
/// --solve`, the counts of `grade` and `explain`).
pub fn default_sat_path(threads: usize) -> SolverSpec {
    SolverSpec::sat(
        DEFAULT_ENCODING,
        BackendSpec::new(BackendKind::DEFAULT).with_threads(threads),
    )
}

/// Counts `puzzle`'s solutions up to `limit` (1 asks only whether there is one, 2 also
/// whether it is unique) with the default SAT path on `threads` threads; an empty grid is
/// answered without it.
pub fn solutions_up_to(
    puzzle: &Grid,
    deadline: Deadline,
    limit: u64,
    threads: usize,
) -> Result<Solutions> {
    if puzzle.num_givens() == 0 {
        // An empty grid has many solutions (the pattern grid and its relabellings): no
        // SAT check, which on an empty 100×100 grid loaded a 3.5 GB formula first.
        return Ok(if limit == 1 {
            Solutions::One
        } else {
            Solutions::Several
        });
    }
    let count = default_sat_path(threads)
        .build(deadline.remaining())
        .count_solutions(puzzle, limit)?
        .unwrap_or(0);
    Ok(match count {
        0 => Solutions::None,
        1 => Solutions::One,
        _ => Solutions::Several,
    })
}

/// The diagnosis of each puzzle for `check --diagnose` and `render --diagnose` (`None` for
/// a puzzle whose givens clash, which the rule check reports), on every core, each within
/// `limit` and its share of the memory budget (`--max-memory`, default half the memory
/// available).
pub fn diagnose_all(
    puzzles: &[InputGrid],
    limit: Option<Duration>,
    max_memory: Option<u64>,
) -> Result<Vec<Option<Diagnosis>>> {
    use rayon::prelude::*;
    let threads = rayon::current_num_threads().clamp(1, puzzles.len().max(1)) as u64;
    let share = memory_budget(max_memory).map(|budget| budget / threads);
    let spec = BackendSpec::new(BackendKind::Cdcl).with_memory(share);
    puzzles
        .par_iter()
        .map(|p| {
            if !check_grid(&p.grid).is_valid() {
                return Ok(None);
            }
            let found = diagnose(&p.grid, &spec, &Deadline::after(limit));
            Ok(Some(found.with_context(|| p.location())?))
        })
        .collect()
}

/// Where a grid comes from and what it is, as JSON: file, line, size, givens.
pub fn input_json(input: &InputGrid) -> serde_json::Value {
    serde_json::json!({
        "file": input.path.display().to_string(),
        "line": input.line,
        "size": input.grid.side(),
        "givens": input.grid.num_givens(),
    })
}

/// The grids of `path` that go with `puzzles`, one each and in order (solutions, partly
/// filled grids): a count that differs is an error naming both, each grid a `noun`.
pub fn read_one_per_puzzle(
    path: &Path,
    from: Option<Format>,
    puzzles: &[InputGrid],
    noun: &str,
) -> Result<Vec<InputGrid>> {
    let grids = read_located_inputs(&[path.to_path_buf()], from)?;
    if grids.len() != puzzles.len() {
        bail!(
            "{}: {} for {}; expected one {noun} per puzzle, in order",
            display_path(path),
            plural(grids.len(), noun),
            plural(puzzles.len(), "puzzle")
        );
    }
    Ok(grids)
}
