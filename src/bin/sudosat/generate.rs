//! `sudosat generate`: random puzzles, unique (down to a clue count or minimal) or not,
//! with a symmetric pattern, a level or a grade; in parallel, reproducible with `--seed`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sudosat::encode::{check_memory_budget, Encoding};
use sudosat::generate::grade::{grade, Grade};
use sudosat::generate::Diagnosis;
use sudosat::generate::{
    clues_for_level, generate_batch, Acceptance, CounterKind, GenerateError, GenerateOptions,
    SolutionCounter, Symmetry, DEFAULT_MAX_FILLS,
};
use sudosat::grid::format::write_puzzles;
use sudosat::grid::{Cell, Digit, Format, Grid};
use sudosat::names::plural;
use sudosat::solve::sat::DEFAULT_ENCODING;

use crate::args::{named, OutputFormat};
use crate::common::{
    diagnose_all, progress_bar, read_located_inputs, write_output, EXIT_NEGATIVE, EXIT_OK,
};

/// The most puzzles one run generates: they are all held in memory until written.
const MAX_COUNT: usize = 10_000_000;

/// Default cap on puzzles generated per wanted one with `--grade`.
const DEFAULT_MAX_ATTEMPTS: u32 = 500;

/// Arguments of `sudosat generate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Box size b: the grid is b²×b².
    ///
    /// Box size b: the grid is b²×b² (2 = 4×4, 3 = 9×9, 4 = 16×16, 5 = 25×25, …).
    #[arg(long, value_name = "B", default_value_t = 3)]
    size: usize,
    /// Number of puzzles.
    #[arg(long, value_name = "K", default_value_t = 1)]
    count: usize,
    /// Clues to keep (default: minimal puzzles).
    ///
    /// Clues to keep; without it (and without --level) puzzles are minimal: no clue can go
    /// without losing uniqueness (with --symmetry, no orbit of clues can go).
    #[arg(long, value_name = "N", conflicts_with = "level")]
    clues: Option<usize>,
    /// Difficulty level 1…20 (1: most clues).
    ///
    /// Difficulty level 1…20 of the study (level 1 = most clues: 40 on 9×9, 117 on 16×16;
    /// level 20 = fewest: 20 on 9×9, 60 on 16×16; other sizes scaled by n²), or 21…40 read
    /// as a 9×9 clue count scaled by n²/81.
    #[arg(long, value_name = "LEVEL")]
    level: Option<u32>,
    /// Symmetry of the pattern of givens.
    #[arg(long, value_name = "SYMMETRY", default_value_t = Symmetry::None, value_parser = named::<Symmetry>())]
    symmetry: Symmetry,
    /// Keep the solution unique (the default).
    #[arg(long, overrides_with = "no_unique")]
    unique: bool,
    /// Remove clues without checking uniqueness.
    ///
    /// Remove the requested number of clues at random without checking uniqueness.
    #[arg(long)]
    no_unique: bool,
    /// Master seed (default: random, printed).
    ///
    /// Master seed: the same seed gives the same puzzles (in the same order, on any number
    /// of cores). Default: a random seed, printed on stderr.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    #[command(flatten)]
    format: OutputFormat,
    /// Output file (default: standard output).
    ///
    /// Output file (written whole or not at all); standard output when not given.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Fresh fills tried per puzzle.
    ///
    /// Fresh fills tried per puzzle before a clue target is given up.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FILLS)]
    max_fills: u32,
    /// Solution counter of the uniqueness check.
    ///
    /// Solution counter of the uniqueness check (limit 2): Dancing Links, the SAT path
    /// (default encoding and backend), or the built-in bitmask backtracking with a node
    /// budget per count; `auto` = dlx up to 16×16, bitmask above.
    #[arg(long, value_name = "COUNTER", default_value = "auto",
          value_parser = clap::builder::PossibleValuesParser::new(
              ["auto"].iter().chain(CounterKind::NAMES)))]
    counter: String,
    /// Keep only puzzles of this grade.
    ///
    /// Keep only puzzles of this grade (see `sudosat grade`): generate until one appears.
    #[arg(long, value_name = "GRADE", value_parser = named::<Grade>())]
    grade: Option<Grade>,
    /// With --grade: puzzles generated per wanted one.
    ///
    /// With --grade: puzzles generated per wanted one before giving up.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ATTEMPTS)]
    max_attempts: u32,
    /// Memory budget of --counter sat, e.g. 512M.
    ///
    /// Memory budget of `--counter sat`, e.g. 512M or 8G (default half the memory
    /// available), shared by the threads: a grid size whose formula is estimated above a
    /// thread's share is refused before anything is generated.
    #[arg(long, value_name = "BYTES", value_parser = crate::args::parse_bytes)]
    max_memory: Option<u64>,
    /// No progress bar, no seed note.
    #[arg(short, long)]
    quiet: bool,
    /// Complete the drafts in this file into proper puzzles.
    ///
    /// Instead of generating, complete the draft puzzles in this file (`-` = standard
    /// input) into proper ones: each draft with several solutions gets the givens `check
    /// --diagnose` proposes (from one of its solutions, each needed), a proper draft is
    /// written as it is, and a draft without a solution is left out with the givens at
    /// fault named on stderr (exit 1). Written in order, in the `--to` format.
    #[arg(long, value_name = "DRAFTS", conflicts_with_all = [
        "clues", "level", "symmetry", "no_unique", "seed", "count", "grade", "counter",
        "max_fills", "max_attempts", "max_memory",
    ])]
    complete: Option<PathBuf>,
}

/// Runs the subcommand: exit 0 when every puzzle was generated, 1 when some could not be
/// (clue target or grade not reached within the caps; the others are still written).
pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(drafts) = &args.complete {
        return complete(drafts, Format::from(args.format), args.output.as_deref());
    }
    let clues = match args.level {
        Some(level) => Some(clues_for_level(args.size, level)?),
        None => args.clues,
    };
    let options = GenerateOptions {
        box_size: args.size,
        clues,
        symmetry: args.symmetry,
        unique: !args.no_unique,
        max_fills: args.max_fills,
    };
    let geo = options.validate()?;
    let format = Format::from(args.format);
    if !format.can_hold(geo.side()) {
        bail!(
            "the {} format cannot hold {n}×{n} grids; use --to grid or block",
            format.name(),
            n = geo.side()
        );
    }
    if !(1..=MAX_COUNT).contains(&args.count) {
        bail!(
            "--count must be between 1 and {MAX_COUNT} (the puzzles are held until written); \
             run again with another --seed for more"
        );
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    if args.seed.is_none() && !args.quiet {
        eprintln!("sudosat: seed {seed} (pass --seed {seed} to generate the same puzzles)");
    }
    let counter: CounterKind = match args.counter.as_str() {
        "auto" => CounterKind::auto(args.size),
        name => name.parse().map_err(anyhow::Error::msg)?,
    };
    if counter == CounterKind::Sat {
        check_memory(args.size, args.max_memory)?;
    }
    let make_counter = || -> Box<dyn SolutionCounter> { counter.make() };
    let wanted = args.grade;
    let accept = |puzzle: &Grid| Ok(Some(grade(puzzle).grade) == wanted);
    let acceptance = wanted.map(|grade| Acceptance {
        accept: &accept,
        max_attempts: args.max_attempts,
        grade,
    });
    // Hidden for a single puzzle too.
    let bar = progress_bar(args.count, "puzzles", args.quiet || args.count < 2);
    let results = generate_batch(
        &options,
        args.count,
        seed,
        &make_counter,
        acceptance.as_ref(),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    let mut puzzles: Vec<Grid> = Vec::with_capacity(results.len());
    let mut failures: Vec<(usize, GenerateError)> = Vec::new();
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Ok(generated) => puzzles.push(generated.puzzle),
            Err(err @ (GenerateError::Unreached { .. } | GenerateError::GradeUnreached { .. })) => {
                failures.push((i, err))
            }
            Err(err) => return Err(err.into()),
        }
    }
    write_output(args.output.as_deref(), |w| {
        write_puzzles(w, &puzzles, format)?;
        Ok(())
    })?;
    for (i, err) in &failures {
        eprintln!("sudosat: puzzle {} of {}: {err}", i + 1, args.count);
    }
    Ok(ExitCode::from(if failures.is_empty() {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// Refuses `--counter sat` on a grid size whose formula, on the empty grid (which bounds
/// every formula the uniqueness checks build), is estimated above one thread's share of
/// the memory budget (`--max-memory`, default half the available memory).
/// `--complete`: each draft made proper by the givens its diagnosis proposes.
fn complete(
    drafts: &std::path::Path,
    format: Format,
    output: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let inputs = read_located_inputs(&[drafts.to_path_buf()], None)?;
    if let Some(big) = inputs.iter().find(|p| !format.can_hold(p.grid.side())) {
        let n = big.grid.side();
        bail!(
            "{}: the {} format cannot hold {n}×{n} grids; use --to grid or block",
            big.location(),
            format.name()
        );
    }
    let mut puzzles = Vec::with_capacity(inputs.len());
    let mut left_out = 0;
    for (draft, found) in inputs.iter().zip(diagnose_all(&inputs, None, None)?) {
        let geometry = draft.grid.geometry();
        let givens = |givens: &[(Cell, Digit)]| -> String {
            let labels: Vec<String> = givens
                .iter()
                .map(|&given| geometry.given_label(given))
                .collect();
            labels.join(", ")
        };
        match found {
            Some(Diagnosis::Unique { .. }) => puzzles.push(draft.grid.clone()),
            Some(Diagnosis::Several {
                completion,
                finished: true,
                ..
            }) => {
                let mut puzzle = draft.grid.clone();
                for &(cell, digit) in &completion {
                    puzzle.set(cell, Some(digit));
                }
                puzzles.push(puzzle);
            }
            Some(Diagnosis::NoSolution { core, .. }) => {
                left_out += 1;
                eprintln!(
                    "sudosat: {}: no solution, left out: {} alone admit none ({}); `sudosat \
                     check --diagnose` says more",
                    draft.location(),
                    plural(core.len(), "given"),
                    givens(&core)
                );
            }
            // Not reached: without a time limit every diagnosis finishes.
            Some(Diagnosis::Several {
                finished: false, ..
            }) => bail!("{}: the diagnosis did not finish", draft.location()),
            None => {
                left_out += 1;
                eprintln!(
                    "sudosat: {}: the givens break the rules, left out; `sudosat check` names \
                     them",
                    draft.location()
                );
            }
        }
    }
    write_output(output, |w| {
        write_puzzles(w, &puzzles, format)?;
        Ok(())
    })?;
    Ok(ExitCode::from(if left_out == 0 {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

fn check_memory(box_size: usize, flag: Option<u64>) -> Result<()> {
    let Some(budget) = crate::common::memory_budget(flag) else {
        return Ok(());
    };
    let threads = rayon::current_num_threads().max(1);
    let share = budget / threads as u64;
    let empty = Grid::empty(box_size).context("a box size validated earlier")?;
    match check_memory_budget(DEFAULT_ENCODING, &empty, share) {
        Ok(()) => Ok(()),
        Err(sudosat::Error::OverBudget { size, needed, .. }) => bail!(
            "--counter sat: the {} encoding of an empty {n}×{n} grid has {} variables, {} \
             clauses and {} literals, about {} MiB to solve, over the memory budget of {} MiB \
             a thread ({threads} threads); use --counter bitmask or dlx, or raise --max-memory",
            DEFAULT_ENCODING.name(),
            size.vars,
            size.clauses,
            size.literals,
            needed.div_ceil(1 << 20),
            share >> 20,
            n = empty.side()
        ),
        Err(e) => Err(e.into()),
    }
}
