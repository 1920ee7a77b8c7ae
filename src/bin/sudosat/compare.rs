//! `sudosat compare`.

use std::process::ExitCode;

use anyhow::Result;

/// Arguments of `sudosat compare`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> Result<ExitCode> {
    anyhow::bail!("`sudosat compare` is not available in this build yet")
}
