//! `sudosat encode`: puzzles to DIMACS CNF, one self-describing file per puzzle.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sudosat::compression::{self, Compression};
use sudosat::encode::write_cnf;
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::grid::Format;

use crate::args::{named, EncodingArgs};
use crate::common::{read_inputs, write_output, EXIT_OK};

/// The encoding `encode` and `decode` use where the flags are silent: extended, not reduced
/// (see `--reduce`).
pub const EXPORT_ENCODING: SudokuEncoding = SudokuEncoding::new(BaseEncoding::Extended, false);

/// Arguments of `sudosat encode`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Puzzle files (`-` = stdin).
    #[arg(required = true)]
    puzzles: Vec<PathBuf>,
    /// Input format (detected when omitted); `--format` is an old spelling.
    #[arg(long = "from", alias = "format", value_name = "FORMAT", value_parser = named::<Format>())]
    format: Option<Format>,
    #[command(flatten)]
    encoding: EncodingArgs,
    /// Output file for a single puzzle (`-` = stdout, the default).
    #[arg(short, long, conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Directory for one CNF per puzzle, named `puzzle-0001.cnf`, … (created if missing).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// With `--out-dir`: write each CNF compressed, named `puzzle-0001.cnf.gz` (or
    /// `.bz2`, `.xz`). A single `-o` output is compressed by its name instead.
    #[arg(long, value_name = "FORMAT", requires = "out_dir", value_parser = ["gz", "bz2", "xz"])]
    compress: Option<String>,
}

/// Refuses an output file that is one of the puzzle files read: the CNF would replace the
/// puzzle (a mistyped name, not an intent).
fn refuse_overwriting_an_input(output: &Path, inputs: &[PathBuf]) -> Result<()> {
    let Ok(out) = std::fs::canonicalize(output) else {
        return Ok(()); // does not exist yet
    };
    for input in inputs {
        if std::fs::canonicalize(input).is_ok_and(|i| i == out) {
            bail!(
                "-o {}: that is the puzzle file being encoded; choose another name",
                output.display()
            );
        }
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let puzzles = read_inputs(&args.puzzles, args.format)?;
    let encoding = args.encoding.encoding(EXPORT_ENCODING);
    match (&args.out_dir, puzzles.as_slice()) {
        (_, []) => bail!("no puzzle in the input"),
        (None, [puzzle]) => {
            if let Some(output) = &args.output {
                refuse_overwriting_an_input(output, &args.puzzles)?;
            }
            write_output(args.output.as_deref(), |w| {
                write_cnf(w, &encoding, puzzle).context("cannot write the CNF")?;
                Ok(())
            })?
        }
        (None, many) => bail!(
            "{} puzzles in the input: use --out-dir DIR to write one CNF per puzzle",
            many.len()
        ),
        (Some(dir), all) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
            // The whole set is written into a temporary directory inside `dir` and moved
            // into place only when every file is complete: an error leaves no part of it.
            let staging = tempfile::Builder::new()
                .prefix(".sudosat-")
                .tempdir_in(dir)
                .with_context(|| {
                    format!("{}: cannot create a temporary directory", dir.display())
                })?;
            let _guard = crate::signals::track_output(staging.path());
            let width = all.len().to_string().len().max(4);
            let (suffix, kind) = match &args.compress {
                Some(extension) => (
                    format!(".cnf.{extension}"),
                    Compression::from_extension(extension),
                ),
                None => (".cnf".to_string(), Compression::None),
            };
            let name = |i: usize| format!("puzzle-{:0width$}{suffix}", i + 1);
            for (i, puzzle) in all.iter().enumerate() {
                let path = dir.join(name(i));
                let file = std::fs::File::create(staging.path().join(name(i)))
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                let mut w = compression::Writer::new(kind, std::io::BufWriter::new(file))
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                write_cnf(&mut w, &encoding, puzzle)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                w.finish()
                    .with_context(|| format!("{}: cannot write", path.display()))?;
            }
            // A rename fails on a directory of the same name: found before any file moves.
            if let Some(taken) = (0..all.len())
                .map(|i| dir.join(name(i)))
                .find(|path| path.is_dir())
            {
                bail!("{}: cannot write: it is a directory", taken.display());
            }
            for i in 0..all.len() {
                let path = dir.join(name(i));
                std::fs::rename(staging.path().join(name(i)), &path)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
            }
            if std::fs::metadata(dir.join(name(all.len()))).is_ok() {
                eprintln!(
                    "sudosat: note: {} also holds {} and maybe more from an earlier, longer run",
                    dir.display(),
                    name(all.len())
                );
            }
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
