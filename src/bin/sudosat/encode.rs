//! `sudosat encode`: puzzles to DIMACS CNF, one self-describing file per puzzle.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sudosat::backend::RootMode;
use sudosat::compression::Compression;
use sudosat::encode::{
    dimacs_bytes_estimate, write_cnf_with_progress, write_icnf_with_progress, write_opb,
    write_pruned_cnf, CellSplit, Encoding, PrunedForm, MAX_CUBES,
};
use sudosat::encode::{BaseEncoding, SudokuEncoding};
use sudosat::formula::FormulaSize;
use sudosat::grid::Grid;

use crate::args::named;
use crate::args::{EncodingArgs, PuzzleInputs};
use crate::common::{progress_bar, read_inputs, write_files_in, write_output, EXIT_OK};

/// The encoding `encode` and `decode` use where the flags are silent: extended, not reduced
/// (see `--reduce`).
pub const EXPORT_ENCODING: SudokuEncoding = SudokuEncoding::new(BaseEncoding::Extended, false);

/// Arguments of `sudosat encode`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    #[command(flatten)]
    encoding: EncodingArgs,
    /// Output file for a single puzzle (`-` = stdout, the default).
    #[arg(short, long, conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Directory for one CNF per puzzle.
    ///
    /// Directory for one CNF per puzzle, named `puzzle-0001.cnf`, … (`.icnf` with
    /// `--cubes`; created if missing).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// With --out-dir: write each CNF compressed.
    ///
    /// With `--out-dir`: write each CNF compressed, named `puzzle-0001.cnf.gz` (or
    /// `.bz2`, `.xz`). A single `-o` output is compressed by its name instead.
    #[arg(long, value_name = "FORMAT", requires = "out_dir", value_parser = ["gz", "bz2", "xz"])]
    compress: Option<String>,
    /// Write an incremental CNF with cubes on K cells.
    ///
    /// Write an incremental CNF (`p inccnf`) for cube and conquer: the clauses, then one
    /// cube (`a LITS 0`) per combination of the candidates of the K open cells with the
    /// fewest, for `sudosat sat FILE` or `cadical FILE`, which solve under each cube in
    /// turn. At most 2^20 cubes.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=64))]
    cubes: Option<u32>,
    /// How --cubes picks its cells: fewest or lookahead.
    ///
    /// How `--cubes` picks its cells: `fewest` (the open cells with the fewest candidates)
    /// or `lookahead` (every candidate of cells with up to 4 is tried by propagating
    /// singles; those that fail are dropped, and the cells left with the fewest branches
    /// are picked, the weakest branch propagating most, as march_cu picks by lookahead).
    #[arg(long, value_name = "HOW", requires = "cubes", default_value = "fewest", value_parser = ["fewest", "lookahead"])]
    split: String,
    /// Write the pseudo-Boolean form (OPB) instead of CNF.
    ///
    /// Write the pseudo-Boolean form instead of CNF (OPB, as RoundingSat, Sat4j and Exact
    /// read it; `.opb` files with `--out-dir`): each group of the encoding as one
    /// cardinality constraint over the CNF's variables (`= 1` for exactly one, `>= 1`,
    /// `-1 x… >= -1` for at most one), no at-most-one auxiliaries (`--amo` does not apply).
    #[arg(long, conflicts_with_all = ["cubes", "amo"])]
    opb: bool,
    /// Reason on the grid before encoding: none, hall or auto.
    ///
    /// Reason on the grid before the encoding, as `solve --root` does: `none` (the
    /// default: the puzzle's own formula), `hall` (the fixpoint of Hall sets and locked
    /// candidates on every grid) or `auto` (what `solve` does by default: the fixpoint
    /// within its budget from 64×64 up). The formula is that of the puzzle with the cells
    /// the reasoning fixed given, and each candidate it removed from the other open cells
    /// a unit clause; a refuted puzzle gets the empty clause. A `c root:` line says what
    /// was done. Not with `--cubes` or `--opb`.
    #[arg(long, value_name = "MODE", default_value_t = RootMode::None, value_parser = named::<RootMode>(), conflicts_with_all = ["cubes", "opb"])]
    root: RootMode,
    /// With --root: drop the removals and renumber (implies --reduce).
    ///
    /// With `--root`: the removed candidates leave the formula instead of becoming unit
    /// clauses, and the variables are numbered over the candidates left (a reduced
    /// encoding, so `--reduce` is implied). The `c removed rRcC: D …` lines list them, so
    /// that `decode --cnf` maps a model back.
    #[arg(long)]
    simplify: bool,
}

/// The cube split of each puzzle for `--cubes` (none without it).
fn splits(
    cells: Option<u32>,
    lookahead: bool,
    encoding: &SudokuEncoding,
    puzzles: &[Grid],
) -> Result<Vec<Option<CellSplit>>> {
    let Some(cells) = cells else {
        return Ok(vec![None; puzzles.len()]);
    };
    puzzles
        .iter()
        .enumerate()
        .map(|(i, puzzle)| {
            let split = if lookahead {
                CellSplit::lookahead(encoding, puzzle, cells as usize)
            } else {
                CellSplit::fewest_candidates(encoding, puzzle, cells as usize)
            };
            split.map(Some).with_context(|| {
                format!(
                    "--cubes {cells}: puzzle {} would split into more than {MAX_CUBES} \
                         cubes; split on fewer cells",
                    i + 1
                )
            })
        })
        .collect()
}

/// What is written of each puzzle besides its encoding.
struct Form<'a> {
    split: Option<&'a CellSplit>,
    opb: bool,
    root: RootMode,
    pruned: PrunedForm,
}

/// Writes one puzzle's CNF, its formula after root reasoning, or its incremental CNF with
/// the cubes of `split`.
fn write_one<W: std::io::Write>(
    out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
    form: Form<'_>,
    progress: impl FnMut(usize, usize),
) -> std::io::Result<()> {
    let stop = crate::signals::stop_flag();
    let root = sudosat::solve::root::reason_at_root(puzzle, form.root, || {
        stop.load(std::sync::atomic::Ordering::Relaxed)
    });
    if let Some(outcome) = root {
        let pruned = outcome.pruned(puzzle, form.root);
        return write_pruned_cnf(out, encoding, &pruned, form.pruned, progress).map(|_| ());
    }
    match form.split {
        _ if form.opb => write_opb(out, encoding, puzzle).map(|_| ()),
        None => write_cnf_with_progress(out, encoding, puzzle, progress).map(|_| ()),
        Some(split) => write_icnf_with_progress(out, encoding, puzzle, split, progress).map(|_| ()),
    }
}

/// The progress bar of one large CNF: clauses written, in thousands separated for reading
/// (a 100×100 grid writes 198,046,585), and the time left.
fn clause_bar(total: usize) -> indicatif::ProgressBar {
    let bar = progress_bar(total, "clauses", false);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} clauses  eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Refuses, before anything is written, plain CNF output that cannot fit in the free space
/// of `dir`: an unreduced 225×225 grid is ~100 GB of DIMACS, and writing stopped only when
/// the disk was full, 150 s later, with the disk full for every other process meanwhile.
/// The estimate ([`dimacs_bytes_estimate`]) falls short of the file, so what it refuses
/// would not have fitted; what it lets through may still fail, as before, with nothing
/// left behind.
fn check_disk_space(
    shown: &Path,
    dir: &Path,
    encoding: &SudokuEncoding,
    puzzles: &[Grid],
) -> Result<()> {
    let Some(free) = sudosat::run::available_disk(dir) else {
        return Ok(()); // the system does not say: write and see
    };
    let mut total = FormulaSize::default();
    let mut needed: u64 = 0;
    for puzzle in puzzles {
        // The closed-form unreduced size bounds the reduced one: the counting pass of a
        // reduced encoding runs only when that bound does not fit.
        let bound = sudosat::encode::base_size(encoding, puzzle.box_size(), puzzle.num_givens());
        let size = if encoding.reduced && dimacs_bytes_estimate(bound) > free {
            encoding.size(puzzle)
        } else {
            bound
        };
        total.clauses += size.clauses;
        total.literals += size.literals;
        needed = needed.saturating_add(dimacs_bytes_estimate(size));
    }
    if needed <= free {
        return Ok(());
    }
    let approx = sudosat::run::approx_bytes;
    let what = if puzzles.len() == 1 {
        "the CNF would take".to_string()
    } else {
        format!("the {} CNFs would take", puzzles.len())
    };
    let reduce = if encoding.reduced {
        ""
    } else {
        ", or reduce it (--reduce)"
    };
    bail!(
        "{}: {what} about {} ({} clauses, {} literals) and {} has {} free; nothing was \
         written. Write it compressed (a name ending .xz or .gz, or --compress with \
         --out-dir){reduce}, or elsewhere",
        shown.display(),
        approx(needed),
        total.clauses,
        total.literals,
        dir.display(),
        approx(free)
    )
}

/// The directory a file output lands in (its temp file goes beside it), through a symlink.
fn directory_of(path: &Path) -> PathBuf {
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match real.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
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
    let puzzles = read_inputs(&args.input.paths(), args.input.from)?;
    let mut encoding = args.encoding.encoding(EXPORT_ENCODING);
    if args.simplify {
        if args.root == RootMode::None {
            bail!("--simplify drops what --root removes: give --root hall or --root auto");
        }
        encoding.reduced = true;
    }
    let pruned = if args.simplify {
        PrunedForm::Simplified
    } else {
        PrunedForm::Units
    };
    let splits = splits(args.cubes, args.split == "lookahead", &encoding, &puzzles)?;
    let form = |i: usize| Form {
        split: splits[i].as_ref(),
        opb: args.opb,
        root: args.root,
        pruned,
    };
    match (&args.out_dir, puzzles.as_slice()) {
        (_, []) => bail!("no puzzle in the input"),
        (None, [puzzle]) => {
            if let Some(output) = &args.output {
                refuse_overwriting_an_input(output, &args.input.files)?;
                let plain = Compression::for_path(output) == Compression::None;
                // Not stdout, a device or a pipe (`-o /dev/null`): only files fill a disk.
                let special = std::fs::metadata(output).is_ok_and(|m| !m.is_file());
                if output != Path::new("-") && plain && !special {
                    let dir = directory_of(output);
                    check_disk_space(output, &dir, &encoding, std::slice::from_ref(puzzle))?;
                }
            }
            write_output(args.output.as_deref(), |w| {
                // A bar only once a million clauses are written (a 64×64 grid and up),
                // and only on a terminal.
                let mut bar = None;
                let progress = |done: usize, total: usize| {
                    bar.get_or_insert_with(|| clause_bar(total))
                        .set_position(done as u64);
                };
                write_one(w, &encoding, puzzle, form(0), progress)
                    .context("cannot write the formula")?;
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                Ok(())
            })?
        }
        (None, many) => bail!(
            "{} puzzles in the input: use --out-dir DIR to write one CNF per puzzle",
            many.len()
        ),
        (Some(dir), all) => {
            if args.compress.is_none() {
                // Before the directory is created: a refusal leaves nothing behind.
                let existing = dir
                    .ancestors()
                    .find(|d| d.is_dir())
                    .unwrap_or(Path::new("."));
                check_disk_space(dir, existing, &encoding, all)?;
            }
            // An incremental CNF is named so (`.icnf`, as the cube-and-conquer tools do).
            let stem = if args.cubes.is_some() {
                ".icnf"
            } else if args.opb {
                ".opb"
            } else {
                ".cnf"
            };
            let (suffix, kind) = match &args.compress {
                Some(extension) => (
                    format!("{stem}.{extension}"),
                    Compression::from_extension(extension),
                ),
                None => (stem.to_string(), Compression::None),
            };
            let width = all.len().to_string().len().max(4);
            let name = |i: usize| format!("puzzle-{:0width$}{suffix}", i + 1);
            write_files_in(dir, all.len(), name, kind, |i, w| {
                write_one(w, &encoding, &all[i], form(i), |_, _| {})?;
                Ok(())
            })?;
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
