//! What `compare` reads: the puzzles of its files, the DIMACS formulas of its files or
//! directories, and the rows saved by an earlier `--csv` (`--from-csv`), merged when they
//! are the shards of one study.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use sudosat::compare::formulas::FormulaInput;
use sudosat::compare::merge::{self, ShardFile};
use sudosat::compare::output::{Meta, Provenance};
use sudosat::compare::shard::Shard;
use sudosat::compare::{output, Comparison, Puzzle};
use sudosat::encode::CnfDescription;
use sudosat::grid::Format;

use crate::args::named;
use crate::common::{
    display_path, inputs_or_stdin, read_cnf, read_located_inputs, stdin_at_most_once, time_limit,
};

/// The inputs of `compare`: puzzle files, or DIMACS formulas ([`super::Args::cnf`]).
#[derive(clap::Args, Debug)]
pub(super) struct CompareInputs {
    /// Puzzle files (`-` or none: standard input), or DIMACS files.
    ///
    /// Puzzle files; `-` or none reads standard input. With --cnf (or names ending .cnf or
    /// .dimacs): DIMACS files, one formula each, or directories of them.
    #[arg(value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// Input format of the puzzles (detected when not given).
    ///
    /// Input format of the puzzles; detected from each file's content when not given.
    #[arg(long, value_name = "FORMAT", value_parser = named::<Format>())]
    pub(super) from: Option<Format>,
}

impl CompareInputs {
    /// The files as given, or standard input when none is.
    pub(super) fn paths(&self) -> Vec<PathBuf> {
        inputs_or_stdin(&self.files)
    }
}

/// Whether the inputs are DIMACS files by their names: every one ends in `.cnf` or
/// `.dimacs` (before any compression suffix) or is a directory (of formulas: puzzles are
/// read from files). A mix with puzzle files is left to the puzzle reader, which names the
/// file it cannot read.
pub(super) fn is_cnf_input(files: &[PathBuf]) -> bool {
    !files.is_empty() && files.iter().all(|path| path.is_dir() || is_cnf_name(path))
}

/// Whether a file name says DIMACS: `*.cnf` or `*.dimacs`, plain or `.gz`, `.bz2`, `.xz`.
pub(super) fn is_cnf_name(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let name = [".gz", ".bz2", ".xz"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .unwrap_or(&name);
    name.ends_with(".cnf") || name.ends_with(".dimacs")
}

/// The formula files of `paths`: a file as given, a directory as the DIMACS files
/// ([`is_cnf_name`]) directly in it, sorted by name, as benchmark sets are laid out.
pub(super) fn formula_files(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path);
            continue;
        }
        let shown = display_path(&path);
        let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
            .with_context(|| format!("{shown}: cannot read the directory"))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("{shown}: cannot read the directory"))?;
        found.retain(|p| p.is_file() && is_cnf_name(p));
        if found.is_empty() {
            bail!("{shown}: no DIMACS files in it (*.cnf or *.dimacs, plain or compressed)");
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// Every formula of `paths`, one per file, with the encoding its comments name. A file of
/// cubes (`p inccnf`) is refused: `sat --cubes` solves those.
pub(super) fn read_formulas(paths: &[PathBuf]) -> Result<Vec<FormulaInput>> {
    stdin_at_most_once(paths.iter().map(PathBuf::as_path))?;
    paths
        .iter()
        .map(|path| {
            let (cnf, report, name) = read_cnf(path)?;
            if !report.cubes.is_empty() {
                bail!(
                    "{name}: holds {} cubes (`p inccnf`); compare solves plain formulas, \
                     `sudosat sat {name}` solves it cube by cube",
                    report.cubes.len()
                );
            }
            let encoding =
                CnfDescription::from_comments(report.preamble.iter().map(String::as_str))
                    .ok()
                    .map(|description| description.encoding);
            Ok(FormulaInput {
                file: name,
                cnf,
                encoding,
            })
        })
        .collect()
}

/// Every puzzle of every input (at most `limit` per file), with where it starts.
pub(super) fn read_puzzles(input: &CompareInputs, limit: Option<usize>) -> Result<Vec<Puzzle>> {
    let paths = input.paths();
    stdin_at_most_once(paths.iter().map(PathBuf::as_path))?;
    let mut puzzles = Vec::new();
    for path in paths {
        let mut inputs = read_located_inputs(std::slice::from_ref(&path), input.from)?;
        if let Some(limit) = limit {
            inputs.truncate(limit);
        }
        puzzles.extend(inputs.into_iter().map(|input| Puzzle {
            file: display_path(&input.path),
            line: input.line,
            grid: input.grid,
        }));
    }
    Ok(puzzles)
}

/// The comparison saved in the CSVs of `paths` (a directory stands for its `*.csv` files,
/// in name order) and where it came from (marked as redrawn by this command): one CSV as
/// it was saved, several (or one shard of several) merged as the shards of one study
/// ([`shard::merge`]). Without a sidecar the entry order is that of the rows and there is
/// no limit unless `timeout` gives one.
pub(super) fn load_saved(
    paths: &[PathBuf],
    allow_missing: bool,
    timeout: Option<f64>,
    command_line: Vec<String>,
) -> Result<(Comparison, Provenance)> {
    let mut files = Vec::new();
    for path in csv_files(paths)? {
        files.push(read_saved(&path)?);
    }
    let alone = match files.as_slice() {
        [only] => {
            let study = only.meta.as_ref().and_then(|m| m.provenance.study.as_ref());
            study.map_or(true, |s| s.shard == Shard::WHOLE)
        }
        _ => false,
    };
    let (mut comparison, mut provenance) = if alone {
        let file = files.remove(0);
        let meta = match file.meta {
            Some(meta) => meta,
            None => {
                eprintln!(
                    "sudosat: no {} beside {}: entries in row order, {}",
                    display_path(&output::sidecar_path(Path::new(&file.name))),
                    file.name,
                    if timeout.is_some() {
                        "the --timeout given as the limit"
                    } else {
                        "no time limit known (PAR-2 needs --timeout)"
                    }
                );
                Meta::guess(&file.runs)
            }
        };
        let provenance = meta.provenance.clone();
        (meta.comparison(file.runs), provenance)
    } else {
        merge::merge(files, allow_missing)?
    };
    if let Some(limit) = time_limit(timeout)? {
        comparison.timeout_s = Some(limit.as_secs_f64());
    }
    provenance.redrawn_by = Some(command_line);
    Ok((comparison, provenance))
}

/// The CSV files of `paths`: a file as given, a directory as the `*.csv` files (plain or
/// compressed) directly in it, sorted by name.
pub(super) fn csv_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let shown = display_path(path);
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{shown}: cannot read the directory"))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("{shown}: cannot read the directory"))?;
        found.retain(|p| {
            let name = p.to_string_lossy().to_ascii_lowercase();
            p.is_file()
                && ["", ".gz", ".bz2", ".xz"]
                    .iter()
                    .any(|z| name.ends_with(&format!(".csv{z}")))
        });
        if found.is_empty() {
            bail!("{shown}: no CSV files in it (*.csv, plain or compressed)");
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// The rows of one saved CSV and its sidecar, when it has one.
pub(super) fn read_saved(csv: &Path) -> Result<ShardFile> {
    let name = display_path(csv);
    // `--csv runs.csv.gz` wrote it compressed; read it back the same way.
    let file = sudosat::compression::open(csv).with_context(|| format!("{name}: cannot open"))?;
    let runs = output::read_csv(std::io::BufReader::new(file), &name)?;
    let sidecar = output::sidecar_path(csv);
    let meta = if sidecar.is_file() {
        let side_name = display_path(&sidecar);
        let file = sudosat::compression::open(&sidecar)
            .with_context(|| format!("{side_name}: cannot open"))?;
        Some(output::read_meta(
            std::io::BufReader::new(file),
            &side_name,
        )?)
    } else {
        None
    };
    Ok(ShardFile { name, runs, meta })
}
