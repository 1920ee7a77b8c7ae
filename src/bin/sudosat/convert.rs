//! `sudosat convert`: any puzzle format to any other, many puzzles at a time.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use sudosat::grid::{write_puzzles, Format, Grid};

use crate::args::{named, PuzzleInputs};
use crate::common::{write_output, EXIT_OK};

/// Arguments of `sudosat convert`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value_t = Format::Line, value_parser = named::<Format>())]
    to: Format,
    /// Output file (`-` = standard output, the default); written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = args.input.read()?;
    let format = args.to;
    if let Some(too_big) = inputs.iter().find(|p| !format.can_hold(p.grid.side())) {
        let n = too_big.grid.side();
        let max = format.max_side();
        bail!(
            "{}: this {n}×{n} puzzle does not fit the {format} format, which holds grids up to \
             {max}×{max}; use --to grid or --to block",
            too_big.location()
        );
    }
    let grids: Vec<Grid> = inputs.into_iter().map(|p| p.grid).collect();
    write_output(args.output.as_deref(), |w| {
        write_puzzles(w, &grids, format)?;
        Ok(())
    })?;
    Ok(ExitCode::from(EXIT_OK))
}
