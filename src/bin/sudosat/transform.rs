//! `sudosat transform`: the same puzzles under the grid's symmetries — rotated, mirrored,
//! transposed, relabelled, or as random isomorphic copies (`grid::symmetry`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudosat::grid::{canonical, write_puzzles, Digit, Format, Grid, Isomorphism, Mirror};

use crate::args::{named, OutputFormat, PuzzleInputs};
use crate::common::{write_output, EXIT_OK};

/// Arguments of `sudosat transform`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    /// Relabel the digits by a permutation of 1…n.
    ///
    /// Relabel the digits: digit d becomes the d-th entry of this permutation of 1…n,
    /// written as symbols (`987654321`, `1-9` then `A`… up to 35×35) or as numbers
    /// separated by commas or spaces (`2,1,4,3`).
    #[arg(long, value_name = "PERMUTATION")]
    relabel: Option<String>,
    /// Mirror each puzzle: columns (left to right) or rows.
    ///
    /// Mirror each puzzle: `columns` flips it left to right, `rows` top to bottom.
    #[arg(long, value_name = "AXIS", value_parser = named::<Mirror>())]
    mirror: Option<Mirror>,
    /// Rotate each puzzle clockwise by this many degrees.
    #[arg(long, value_name = "DEGREES", value_parser = ["90", "180", "270"])]
    rotate: Option<String>,
    /// Transpose each puzzle (rows become columns).
    #[arg(long)]
    transpose: bool,
    /// Write N random isomorphic copies of each puzzle.
    ///
    /// Write this many random isomorphic copies of each puzzle (digits relabelled, bands,
    /// stacks, rows within bands and columns within stacks permuted, transposed half the
    /// time): as hard as the puzzle for a solver that reasons, another draw for a CDCL
    /// search. Applied after the other transformations.
    #[arg(long, value_name = "N")]
    random: Option<usize>,
    /// Write each puzzle's canonical (minlex) form instead.
    ///
    /// Write each puzzle's canonical form instead (its "minlex" form: the smallest of its
    /// isomorphs, read row by row with blanks as 0): isomorphic puzzles get the same
    /// line, so `sort -u` of the output counts puzzles up to symmetry. 4×4 and 9×9 only.
    #[arg(long, conflicts_with = "random")]
    canonical: bool,
    /// With `--random`: write each puzzle itself before its copies.
    #[arg(long, requires = "random")]
    keep_original: bool,
    /// Seed of `--random`: the same seed, the same copies.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "random")]
    seed: u64,
    #[command(flatten)]
    to: OutputFormat,
    /// Output file (`-` = standard output, the default).
    ///
    /// Output file (`-` = standard output, the default); written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The digits of `--relabel`: numbers when separated, else one symbol a digit.
fn parse_relabel(text: &str) -> Result<Vec<u16>> {
    let separated = text.contains([',', ' ']);
    let digits: Option<Vec<u16>> = if separated {
        text.split([',', ' '])
            .filter(|w| !w.is_empty())
            .map(|w| w.parse::<u16>().ok())
            .collect()
    } else {
        text.chars()
            .map(|ch| Digit::from_symbol(ch).map(|d| d.0))
            .collect()
    };
    digits.with_context(|| {
        format!(
            "--relabel {text}: expected digits (`987654321`) or numbers separated by commas \
             (`2,1,4,3`)"
        )
    })
}

/// The fixed transformations asked for, in the order they apply, for box size `b`.
fn fixed_transformations(
    args: &Args,
    b: usize,
    relabel: &Option<Vec<u16>>,
) -> Result<Vec<Isomorphism>> {
    let mut steps = Vec::new();
    if let Some(digits) = relabel {
        let n = b * b;
        let Some(step) = Isomorphism::relabel(b, digits.clone()) else {
            bail!(
                "--relabel: {} is not a permutation of 1…{n} (each digit once)",
                args.relabel.as_deref().unwrap_or_default()
            );
        };
        steps.push(step);
    }
    if let Some(axis) = args.mirror {
        steps.push(Isomorphism::mirror(b, axis));
    }
    if let Some(degrees) = &args.rotate {
        let turns = degrees.parse::<u32>().expect("clap allows 90, 180, 270") / 90;
        steps.push(Isomorphism::rotate(b, turns));
    }
    if args.transpose {
        steps.push(Isomorphism::transpose(b));
    }
    Ok(steps)
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.relabel.is_none()
        && args.mirror.is_none()
        && args.rotate.is_none()
        && !args.transpose
        && args.random.is_none()
        && !args.canonical
    {
        bail!(
            "nothing to do: give --rotate, --mirror, --transpose, --relabel, --random N or \
             --canonical"
        );
    }
    let relabel = args.relabel.as_deref().map(parse_relabel).transpose()?;
    let inputs = args.input.read()?;
    let format = Format::from(args.to);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut grids: Vec<Grid> = Vec::new();
    for input in inputs {
        let b = input.grid.box_size();
        let steps = fixed_transformations(&args, b, &relabel).with_context(|| input.location())?;
        let mut grid = steps
            .iter()
            .fold(input.grid.clone(), |g, step| step.apply(&g));
        if args.canonical {
            let Some(form) = canonical(&grid) else {
                let n = grid.side();
                bail!(
                    "{}: --canonical takes 4×4 and 9×9 grids: the symmetry group of a {n}×{n} \
                     grid is too large to search",
                    input.location()
                );
            };
            grid = form;
        }
        if !format.can_hold(grid.side()) {
            let (n, max) = (grid.side(), format.max_side());
            bail!(
                "{}: this {n}×{n} puzzle does not fit the {format} format, which holds grids up \
                 to {max}×{max}; use --to grid or --to block",
                input.location()
            );
        }
        match args.random {
            None => grids.push(grid),
            Some(copies) => {
                if args.keep_original {
                    grids.push(grid.clone());
                }
                for _ in 0..copies {
                    grids.push(Isomorphism::random(b, &mut rng).apply(&grid));
                }
            }
        }
    }
    write_output(args.output.as_deref(), |w| {
        write_puzzles(w, &grids, format)?;
        Ok(())
    })?;
    Ok(ExitCode::from(EXIT_OK))
}
