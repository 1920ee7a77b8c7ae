//! `sudosat completions SHELL` and `sudosat man`: shell completion scripts (clap_complete)
//! and roff manual pages (clap_mangen), both made from the same clap definitions as
//! `--help`, so they cannot drift from the options the binary takes.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Command;
use clap_complete::Shell;

use crate::common::{write_output, EXIT_OK};

/// Arguments of `sudosat completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for.
    ///
    /// The shell to write a completion script for. Bash: `sudosat completions bash >
    /// ~/.local/share/bash-completion/completions/sudosat`; zsh: into a directory of
    /// `$fpath` as `_sudosat`; fish: `~/.config/fish/completions/sudosat.fish`.
    #[arg(value_enum)]
    shell: Shell,
}

/// Arguments of `sudosat man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The subcommand whose page to print.
    ///
    /// The subcommand whose page to print (`sudosat man solve | man -l -`); without it,
    /// the page of `sudosat` itself.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
    /// Write every page into DIR instead.
    ///
    /// Write every page instead, `sudosat.1` and one `sudosat-COMMAND.1` per subcommand,
    /// into DIR (created when absent), e.g. `/usr/local/share/man/man1`.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    dir: Option<PathBuf>,
}

/// Writes the completion script of `args.shell` for `cli` to standard output.
pub fn completions(args: CompletionsArgs, mut cli: Command) -> Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "sudosat", &mut script);
    write_output(None, |w| Ok(w.write_all(&script)?))?;
    Ok(ExitCode::from(EXIT_OK))
}

/// Prints one manual page or writes them all into a directory.
pub fn man(args: ManArgs, cli: Command) -> Result<ExitCode> {
    let cli = cli.disable_help_subcommand(true);
    match (&args.dir, &args.command) {
        (Some(dir), _) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
            for (name, page) in pages(&cli)? {
                write_output(Some(&dir.join(format!("{name}.1"))), |w| {
                    Ok(w.write_all(&page)?)
                })?;
            }
        }
        (None, command) => {
            let wanted = match command {
                Some(c) => format!("sudosat-{c}"),
                None => "sudosat".to_string(),
            };
            let Some((_, page)) = pages(&cli)?.into_iter().find(|(n, _)| *n == wanted) else {
                let names: Vec<String> = subcommands(&cli)
                    .map(|c| c.get_name().to_string())
                    .collect();
                bail!(
                    "no subcommand `{}` (expected one of: {})",
                    command.as_deref().unwrap_or_default(),
                    names.join(", ")
                );
            };
            write_output(None, |w| Ok(w.write_all(&page)?))?;
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}

fn subcommands(cli: &Command) -> impl Iterator<Item = &Command> {
    cli.get_subcommands().filter(|c| !c.is_hide_set())
}

/// Every page as (name, roff text): `sudosat` first, then `sudosat-COMMAND` per
/// subcommand, each titled and synopsised as it is typed (`sudosat solve`).
fn pages(cli: &Command) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    let mut page = Vec::new();
    clap_mangen::Man::new(cli.clone()).render(&mut page)?;
    out.push(("sudosat".to_string(), page));
    for sub in subcommands(cli) {
        let name = format!("sudosat-{}", sub.get_name());
        let command = sub
            .clone()
            .name(name.clone())
            .bin_name(format!("sudosat {}", sub.get_name()))
            .version(env!("CARGO_PKG_VERSION"));
        let mut page = Vec::new();
        clap_mangen::Man::new(command).render(&mut page)?;
        out.push((name, page));
    }
    Ok(out)
}
