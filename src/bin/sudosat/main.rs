//! The `sudosat` command: thin glue over the library. Each subcommand lives in its own file
//! with its clap `Args` and a `run` that returns the exit code.

mod args;
mod check;
mod common;
mod compare;
mod convert;
mod count;
mod cube;
mod cubes;
mod decode;
mod docs;
mod encode;
mod explain;
mod generate;
mod grade;
mod proofs;
mod render;
mod sat;
mod signals;
mod sizes;
mod solve;
mod transform;

use std::ffi::{OsStr, OsString};
use std::io::IsTerminal;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Sudoku of any box size as SAT: parse, encode, solve, decode, check.
#[derive(Parser, Debug)]
#[command(name = "sudosat", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert puzzles between formats (line, block, grid, csv2, pretty).
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat convert puzzles.txt --to grid\n",
        "  sudosat convert big.txt --from grid --to csv2 -o big.csv"
    ))]
    Convert(convert::Args),
    /// Rotate, mirror, transpose or relabel puzzles, or write random isomorphic copies.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat transform puzzles.txt --mirror rows\n",
        "  sudosat transform puzzles.txt --random 10 --seed 3\n",
        "  sudosat transform puzzles.txt --canonical"
    ))]
    Transform(transform::Args),
    /// Draw puzzles as a printable SVG sheet, with solutions or pencil marks.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat render puzzles.txt -o sheet.svg\n",
        "  sudosat render puzzles.txt --answers -o book.html\n",
        "  sudosat render puzzle.txt --candidates -o marks.svg"
    ))]
    Render(render::Args),
    /// Check puzzles (no repeated digit) or solutions (full, valid, keeps the givens).
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat check puzzles.txt --solution solutions.txt\n",
        "  sudosat check puzzles.txt --minimal --diagnose\n",
        "  sudosat check puzzles.txt --duplicates"
    ))]
    Check(check::Args),
    /// Encode puzzles as DIMACS CNF.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat encode examples/inkala.txt -o inkala.cnf\n",
        "  sudosat encode puzzles.txt --reduce --out-dir cnfs\n",
        "  sudosat encode examples/inkala.txt --opb -o inkala.opb\n",
        "  cat puzzle.txt | sudosat encode --encoding minimal"
    ))]
    Encode(encode::Args),
    /// Decode a SAT solver's model back into a checked grid.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat decode --cnf inkala.cnf inkala.model\n",
        "  cadical inkala.cnf | sudosat decode --cnf inkala.cnf"
    ))]
    Decode(decode::Args),
    /// Compare encoding sizes (variables, clauses, literals) per puzzle.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat sizes examples/inkala.txt\n",
        "  sudosat sizes puzzles.txt --all --csv\n",
        "  sudosat sizes puzzles.txt --amo all --encodings extended+reduced"
    ))]
    Sizes(sizes::Args),
    /// Solve puzzles with a SAT backend or a classic solver.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat solve examples/inkala.txt\n",
        "  sudosat solve puzzles.txt --solver dlx --to grid\n",
        "  sudosat solve puzzles.txt --backend external --solver-cmd \"cadical -q\"\n",
        "  sudosat solve hard.txt --timeout 10 --unique --stats"
    ))]
    Solve(solve::Args),
    /// Count solutions up to a limit.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat count puzzles.txt\n",
        "  sudosat count puzzle.txt --limit 0 --solver dlx"
    ))]
    Count(count::Args),
    /// Split a DIMACS formula into cubes by lookahead, for cube and conquer.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat cube formula.cnf --depth 6 -o cubes.txt\n",
        "  sudosat sat formula.cnf --cubes cubes.txt\n",
        "  sudosat cube formula.cnf --icnf -o formula.icnf"
    ))]
    Cube(cube::Args),
    /// Act as a plain SAT solver on a DIMACS file (s/v output, exit 10/20).
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat sat formula.cnf\n",
        "  sudosat sat formula.cnf --proof proof.drat\n",
        "  sudosat sat formula.cnf --backend external --solver-cmd \"kissat -q\"\n",
        "  sudosat sat formula.cnf --assume \"3 -17\" --backbone"
    ))]
    Sat(sat::Args),
    /// Explain a puzzle's solution step by step with human strategies.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat explain examples/inkala.txt\n",
        "  sudosat explain puzzle.txt --hint 1\n",
        "  sudosat explain puzzle.txt --html steps.html"
    ))]
    Explain(explain::Args),
    /// Generate puzzles.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat generate --count 10 --seed 1\n",
        "  sudosat generate --level 10 --to grid\n",
        "  sudosat generate --grade hard --count 5 -o hard.txt"
    ))]
    Generate(generate::Args),
    /// Grade puzzles' difficulty.
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat grade puzzles.txt\n",
        "  sudosat grade puzzles.txt --csv"
    ))]
    Grade(grade::Args),
    /// Compare encodings, backends and solvers on puzzles, or SAT backends on DIMACS (--cnf).
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat compare puzzles.txt\n",
        "  sudosat compare puzzles.txt --solvers cdcl,dlx --encodings all --repeat 3\n",
        "  sudosat compare --cnf formulas/ --timeout 60 --csv runs.csv"
    ))]
    Compare(compare::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat completions bash > ~/.local/share/bash-completion/completions/sudosat"
    ))]
    Completions(docs::CompletionsArgs),
    /// Print the manual page of sudosat or of one subcommand, or write them all (--dir).
    #[command(after_long_help = concat!(
        "Examples:\n",
        "  sudosat man solve | man -l -\n",
        "  sudosat man --dir /usr/local/share/man/man1"
    ))]
    Man(docs::ManArgs),
}

/// The command line as clap reads it: every option that takes a value takes a negative
/// number too (`--timeout -1` reaches the tool's own check of the value, not clap's
/// "unexpected argument" tip), and `short_help` (`-h`) leaves the lists of possible values
/// to `--help`, so that each option stays on one line.
fn command(short_help: bool) -> clap::Command {
    adjust(Cli::command(), short_help).long_version(long_version())
}

/// `--version`: the version, then the SAT solver libraries built in (with their versions,
/// as each names itself) and the backends this build left out, with their features.
fn long_version() -> String {
    use sudosat::backend::BackendKind;
    let mut text = format!(
        "{}\nembedded SAT solvers: {}",
        env!("CARGO_PKG_VERSION"),
        sudosat::backend::embedded_libraries().join(", ")
    );
    let left_out: Vec<String> = BackendKind::ALL
        .into_iter()
        .filter(|kind| !kind.is_built())
        .filter_map(|kind| {
            let feature = kind.entry().feature?;
            Some(format!("{kind} (cargo feature `{}`)", feature.name))
        })
        .collect();
    if !left_out.is_empty() {
        text.push_str(&format!("\nnot built in: {}", left_out.join(", ")));
    }
    text
}

/// [`command`]'s changes to `cmd` and its subcommands.
fn adjust(cmd: clap::Command, short_help: bool) -> clap::Command {
    let cmd = cmd.mut_args(|arg| {
        if !arg.get_action().takes_values() {
            return arg;
        }
        let arg = arg.hide_possible_values(short_help);
        if arg.is_positional() {
            arg
        } else {
            arg.allow_negative_numbers(true)
        }
    });
    cmd.mut_subcommands(|sub| adjust(sub, short_help))
}

/// Whether the command line asks for the short help (`-h`, not `--help`).
fn asks_short_help(argv: &[OsString]) -> bool {
    let flags: Vec<&OsString> = argv.iter().skip(1).take_while(|a| *a != "--").collect();
    flags.iter().any(|a| *a == "-h") && !flags.iter().any(|a| *a == "--help")
}

/// Whether errors on standard error are coloured: on a terminal (`terminal`), unless
/// `NO_COLOR` is set to anything but the empty text (no-color.org) or `TERM` is `dumb`.
fn colours_errors(terminal: bool, no_color: Option<&OsStr>, term: Option<&OsStr>) -> bool {
    terminal && no_color.map_or(true, OsStr::is_empty) && term.map_or(true, |t| t != "dumb")
}

/// [`colours_errors`] for this process's standard error and environment.
fn stderr_colours() -> bool {
    colours_errors(
        std::io::stderr().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("TERM").as_deref(),
    )
}

/// Parses the command line; a mistake in it is reported as every other error is, on a
/// line that starts `sudosat: error:` (clap's tip and usage lines follow it, in clap's
/// colours on a terminal: [`stderr_colours`]), exit 2.
fn parse(argv: &[OsString]) -> Result<Cli, ExitCode> {
    let lean = argv
        .get(1)
        .and_then(|name| name.to_str())
        .and_then(lean_command)
        .and_then(|cmd| cmd.try_get_matches_from(argv).ok())
        .and_then(|matches| Cli::from_arg_matches(&matches).ok());
    if let Some(cli) = lean {
        return Ok(cli);
    }
    let parsed = command(asks_short_help(argv))
        .try_get_matches_from(argv)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let err = match parsed {
        Ok(cli) => return Ok(cli),
        Err(err) => err,
    };
    let code = u8::try_from(err.exit_code()).unwrap_or(common::EXIT_ERROR);
    if !err.use_stderr() || err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // Help and version, asked for or shown for a bare `sudosat`.
        let _ = err.print();
        return Err(ExitCode::from(code));
    }
    if let Some(message) = retired_flag(&err) {
        eprintln!("sudosat: error: {message}");
        return Err(ExitCode::from(common::EXIT_ERROR));
    }
    // clap's rendering starts with its `error:`, styled or not.
    let rendered = err.render();
    let text = if stderr_colours() {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    };
    eprint!("sudosat: {text}");
    Err(ExitCode::from(code))
}

/// The command line of subcommand `name` alone, for [`parse`]'s first try. clap builds a
/// command's whole tree before reading a word of it, and the tree of every subcommand costs
/// about 0.9M instructions, half of a `sudosat solve` of one puzzle; this one holds only
/// the options of `name`, as [`command`] gives them. It has no help, version or usage of
/// its own: whatever it does not accept (those included) is read again by [`command`],
/// which answers as before.
fn lean_command(name: &str) -> Option<clap::Command> {
    use clap::Args as _;
    let sub = clap::Command::new(name.to_string());
    let sub = match name {
        "convert" => convert::Args::augment_args(sub),
        "transform" => transform::Args::augment_args(sub),
        "render" => render::Args::augment_args(sub),
        "check" => check::Args::augment_args(sub),
        "encode" => encode::Args::augment_args(sub),
        "decode" => decode::Args::augment_args(sub),
        "sizes" => sizes::Args::augment_args(sub),
        "solve" => solve::Args::augment_args(sub),
        "count" => count::Args::augment_args(sub),
        "cube" => cube::Args::augment_args(sub),
        "sat" => sat::Args::augment_args(sub),
        "explain" => explain::Args::augment_args(sub),
        "generate" => generate::Args::augment_args(sub),
        "grade" => grade::Args::augment_args(sub),
        "compare" => compare::Args::augment_args(sub),
        "completions" => docs::CompletionsArgs::augment_args(sub),
        "man" => docs::ManArgs::augment_args(sub),
        _ => return None,
    };
    let cmd = clap::Command::new("sudosat")
        .subcommand_required(true)
        .disable_help_flag(true)
        .disable_help_subcommand(true)
        .subcommand(sub.disable_help_flag(true));
    Some(adjust(cmd, false))
}

/// The message for a flag that no longer exists, when `err` is about one.
fn retired_flag(err: &clap::Error) -> Option<String> {
    if err.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    (arg == "--format" || arg.starts_with("--format=")).then(|| {
        "--format is not a flag any more: the input format is --from FORMAT, the output \
         format --to FORMAT"
            .to_string()
    })
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match parse(&argv) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    signals::install();
    sudosat::backend::native::report_aborts();
    let result = match cli.command {
        Command::Convert(args) => convert::run(args),
        Command::Transform(args) => transform::run(args),
        Command::Render(args) => render::run(args),
        Command::Check(args) => check::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Sizes(args) => sizes::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Count(args) => count::run(args),
        Command::Sat(args) => sat::run(args),
        Command::Cube(args) => cube::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Completions(args) => docs::completions(args, command(false)),
        Command::Man(args) => docs::man(args, command(false)),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            signals::settle();
            common::report_error(&err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::colours_errors;
    use std::ffi::OsStr;

    /// Each subcommand's lean command line has the options the full one has, alike.
    #[test]
    fn lean_commands_take_what_the_full_command_takes() {
        let full = super::command(false);
        let described = |arg: &clap::Arg| {
            format!(
                "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                arg.get_id(),
                arg.get_long(),
                arg.get_short(),
                arg.get_num_args(),
                arg.get_action(),
                arg.get_default_values(),
                arg.is_allow_negative_numbers_set(),
                arg.get_value_parser().type_id(),
            )
        };
        let mut names = 0;
        for sub in full.get_subcommands().filter(|s| s.get_name() != "help") {
            let lean = super::lean_command(sub.get_name())
                .unwrap_or_else(|| panic!("no lean command for {}", sub.get_name()));
            let lean_sub = lean
                .find_subcommand(sub.get_name())
                .expect("its subcommand");
            let args = |cmd: &clap::Command| -> Vec<String> {
                cmd.get_arguments()
                    .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
                    .map(described)
                    .collect()
            };
            assert_eq!(args(lean_sub), args(sub), "{}", sub.get_name());
            assert!(!args(sub).is_empty(), "{} has options", sub.get_name());
            names += 1;
        }
        assert_eq!(names, 17);
        assert!(super::lean_command("help").is_none());
        assert!(super::lean_command("--version").is_none());
    }

    #[test]
    fn errors_are_coloured_on_a_terminal_unless_no_color_says_otherwise() {
        let no = |s: &'static str| Some(OsStr::new(s));
        assert!(colours_errors(true, None, None));
        assert!(colours_errors(true, None, no("xterm-256color")));
        // NO_COLOR set to anything but the empty text turns colours off.
        assert!(!colours_errors(true, no("1"), None));
        assert!(colours_errors(true, no(""), None));
        assert!(!colours_errors(true, None, no("dumb")));
        // Not a terminal: plain, whatever the environment.
        assert!(!colours_errors(false, None, no("xterm")));
    }
}
