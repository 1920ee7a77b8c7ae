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

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Sudoku of any box size as SAT: parse, encode, solve, decode, check.
#[derive(Parser, Debug)]
#[command(name = "sudosat", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert puzzles between formats (line, block, grid, csv2, pretty).
    Convert(convert::Args),
    /// Rotate, mirror, transpose or relabel puzzles, or write random isomorphic copies.
    Transform(transform::Args),
    /// Draw puzzles as a printable SVG sheet, with solutions or pencil marks.
    Render(render::Args),
    /// Check puzzles (no repeated digit) or solutions (full, valid, keeps the givens).
    Check(check::Args),
    /// Encode puzzles as DIMACS CNF.
    Encode(encode::Args),
    /// Decode a SAT solver's model back into a checked grid.
    Decode(decode::Args),
    /// Compare encoding sizes (variables, clauses, literals) per puzzle.
    Sizes(sizes::Args),
    /// Solve puzzles with a SAT backend or a classic solver.
    Solve(solve::Args),
    /// Count solutions up to a limit.
    Count(count::Args),
    /// Split a DIMACS formula into cubes by lookahead, for cube and conquer.
    Cube(cube::Args),
    /// Act as a plain SAT solver on a DIMACS file (s/v output, exit 10/20).
    Sat(sat::Args),
    /// Explain a puzzle's solution step by step with human strategies.
    Explain(explain::Args),
    /// Generate puzzles.
    Generate(generate::Args),
    /// Grade puzzles' difficulty.
    Grade(grade::Args),
    /// Compare encodings, backends and solvers on puzzle files, or SAT backends on DIMACS
    /// files (--cnf).
    Compare(compare::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(docs::CompletionsArgs),
    /// Print the manual page of sudosat or of one subcommand, or write them all (--dir).
    Man(docs::ManArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    signals::install();
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
        Command::Completions(args) => docs::completions(args, Cli::command()),
        Command::Man(args) => docs::man(args, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            signals::settle();
            common::report_error(&err)
        }
    }
}
