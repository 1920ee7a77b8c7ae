//! `sudosat explain`.

use std::process::ExitCode;

use anyhow::Result;

/// Arguments of `sudosat explain`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> Result<ExitCode> {
    anyhow::bail!("`sudosat explain` is not available in this build yet")
}
