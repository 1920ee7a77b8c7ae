//! `sudosat encode`: puzzles to DIMACS CNF, one self-describing file per puzzle.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
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
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let puzzles = read_inputs(&args.puzzles, args.format)?;
    let encoding = args.encoding.encoding(EXPORT_ENCODING);
    match (&args.out_dir, puzzles.as_slice()) {
        (_, []) => bail!("no puzzle in the input"),
        (None, [puzzle]) => write_output(args.output.as_deref(), |w| {
            write_cnf(w, &encoding, puzzle).context("cannot write the CNF")?;
            Ok(())
        })?,
        (None, many) => bail!(
            "{} puzzles in the input: use --out-dir DIR to write one CNF per puzzle",
            many.len()
        ),
        (Some(dir), all) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
            let width = all.len().to_string().len().max(4);
            for (i, puzzle) in all.iter().enumerate() {
                let path = dir.join(format!("puzzle-{:0width$}.cnf", i + 1));
                write_output(Some(Path::new(&path)), |w| {
                    write_cnf(w, &encoding, puzzle)
                        .with_context(|| format!("{}: cannot write", path.display()))?;
                    Ok(())
                })?;
            }
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
