//! `sudosat compare`: encoding sizes and solve times across encodings, backends and solvers,
//! as a summary table, CSV, JSON, an SVG plot and an HTML report (the work is in
//! [`sudosat::compare`]); `--from-csv` redraws all of them from saved rows.

mod inputs;
mod measure;
mod memory;
mod outputs;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sudosat::backend::{BackendKind, BackendSpec, RootMode};
use sudosat::compare::formulas::run_formulas_watched;
use sudosat::compare::merge::StudyInputs;
use sudosat::compare::output::Provenance;
use sudosat::compare::shard::{self, Shard, Study};
use sudosat::compare::summary::TableStyle;
use sudosat::compare::{self, CompareConfig, GroupBy};
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::{SolverOptions, SolverSpec};

use crate::args::named;
use crate::common::time_limit;

use inputs::{formula_files, is_cnf_input, load_saved, read_formulas, read_puzzles, CompareInputs};
use measure::measure;
use memory::{check_formula_memory, check_memory};
use outputs::{check_pairs, parse_pairs, Outputs};

/// Arguments of `sudosat compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: CompareInputs,
    /// Comma-separated solvers, each optionally NAME[OPTION=VALUE,…].
    ///
    /// Comma-separated solvers: SAT backends cdcl, dpll, lookahead, varisat, splr, cadical
    /// and kissat (CaDiCaL 3.0.1 and Kissat 4.0.4 in process, where the build has their
    /// features: cadical by default, kissat with --features kissat), minisat (or
    /// minisat:CMD), external:CMD (any solver printing s/v lines, e.g. "external:cadical
    /// -q"), each crossed with every --encodings value; classic solvers dlx, backtrack,
    /// backtrack-row|column|random|box|mrv, human, hill, best-first, fifo; groups
    /// embedded (the in-process SAT backends this build has), classic, all. Default:
    /// cdcl,dpll,varisat,splr,dlx on puzzles, cdcl,dpll,varisat,splr on formulas (--cnf).
    ///
    /// An entry's own options go in a bracket after its name, before any command:
    /// "cdcl[propagate=grid,root=none]", "external[seed=3]:cadical -q --seed={seed}",
    /// "hill[seed=7]". Options: propagate, root, lookahead, seed, threads (as the flags of
    /// `sudosat solve`), encoding (one encoding instead of each --encodings value) and amo
    /// (the family of every encoding the entry is crossed with). They override --root,
    /// --seed and --encodings for that entry and show in its label
    /// (cdcl[propagate=grid]/extended+reduced). A classic solver takes only seed; on DIMACS
    /// formulas only lookahead, seed and threads. An entry with threads above 1 runs one
    /// solve at a time, whatever --jobs says.
    #[arg(long, value_name = "LIST")]
    solvers: Option<String>,
    /// Comma-separated encodings of the SAT backends.
    ///
    /// Comma-separated encodings of the SAT backends: minimal, extended, augmented, each
    /// optionally +reduced and /FAMILY (e.g. extended+reduced/sequential), or all.
    /// Default: extended+reduced.
    #[arg(long, value_name = "LIST")]
    encodings: Option<String>,
    /// Comma-separated at-most-one families.
    ///
    /// Comma-separated at-most-one families crossed with every --encodings value:
    /// pairwise, sequential, commander, product, bimander, binary, or all (default: each
    /// encoding's own, pairwise unless named).
    #[arg(long, value_name = "LIST")]
    amo: Option<String>,
    /// Runs of each puzzle × solver.
    ///
    /// Runs of each puzzle × solver; each is a row, summaries use the median of a
    /// puzzle's solved repeats.
    #[arg(long, value_name = "R", default_value_t = 1)]
    repeat: usize,
    /// Run repeat r with seed S + r − 1.
    ///
    /// Run repeat r with seed S + r − 1 (S = `--seed`) on a solver built for it: cdcl's
    /// repeats (and the randomised classic solvers') are then draws of the search, and the
    /// summaries' medians are medians over seeds, instead of timings of one path.
    #[arg(long)]
    vary_seed: bool,
    /// Run repeat r > 1 on a random isomorph.
    ///
    /// Run repeat r > 1 on a random isomorph of the puzzle (digits relabelled, rows, columns,
    /// bands and stacks permuted; see `sudosat transform --random`), the same copy for every
    /// solver, drawn from `--seed`: repeats are then draws of every solver's search,
    /// MiniSat's and CaDiCaL's included, which take no seed of ours. Repeat 1 is the puzzle.
    #[arg(long)]
    isomorphs: bool,
    /// Time limit in seconds of each solve.
    ///
    /// Time limit in seconds of each solve; a run past it is reported as `timeout` and the
    /// comparison goes on (varisat, which has no interrupt, then writes proof steps to be
    /// stopped by: about 5 % of its time).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Puzzles solved at once.
    ///
    /// Puzzles solved at once, each solve on one thread (1 = sequential, the default).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Also summarise by givens or grid size.
    ///
    /// Also summarise (and plot) by number of givens or by grid size; the plot's default is
    /// size when the inputs mix sizes, else clues.
    #[arg(long, value_name = "GROUP", value_parser = named::<GroupBy>())]
    by: Option<GroupBy>,
    /// Only the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Write one CSV row per run to FILE (`-` = standard output).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write runs and summaries as JSON to FILE.
    ///
    /// Write the runs, settings and summaries as JSON to FILE (`-` = standard output).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw an SVG plot to FILE.
    ///
    /// Draw an SVG plot to FILE: median time by clues or size per solver (log scale), the
    /// encodings' sizes (a panel per grid size, from zero) and the cactus plot.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Write an HTML report to DIR/index.html.
    ///
    /// Write a self-contained HTML report to DIR/index.html (inline SVG: cactus, scatter,
    /// time and size plots; summary tables with PAR-2 and the virtual best solver; each
    /// puzzle's or formula's time per entry, up to 100; the slowest puzzles), with
    /// runs.csv, runs.meta.json, report.json and summary.csv beside it. DIR is replaced
    /// whole (it must be absent, empty or an earlier report).
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// A pair of entries to draw as a scatter plot.
    ///
    /// A pair of entries to draw as a scatter plot in the report, `A,B` by their labels
    /// (e.g. `dpll/extended+reduced,dlx`); repeatable. Default: the default entry against
    /// each other backend.
    #[arg(long, value_name = "A,B")]
    scatter: Vec<String>,
    /// Measure nothing: read the runs of an earlier --csv.
    ///
    /// Measure nothing: read the runs of an earlier `--csv` (and its sidecar
    /// NAME.meta.json, for the time limit, entry order and machine) and write the table,
    /// plot, JSON and report from them. `--timeout` then sets the PAR-2 limit. Several
    /// CSVs, or a directory of them (its *.csv files), are the shards of one study
    /// (`--shard`), merged into one comparison: shards of different studies, a shard given
    /// twice and missing shards are refused (a shard stopped before all its runs, e.g. by
    /// a scheduler's time limit, counts as missing), and a merge of several hosts' shards
    /// says so, per host.
    #[arg(long, value_name = "FILE.csv", num_args = 1.., conflicts_with_all = ["limit", "repeat", "jobs", "vary_seed", "isomorphs", "shard"])]
    from_csv: Vec<PathBuf>,
    /// With --from-csv: merge the shards there are, naming missing ones.
    ///
    /// With --from-csv: merge the shards that are there when some are missing or stopped;
    /// the summary, JSON and report name the missing ones.
    #[arg(long, requires = "from_csv")]
    allow_missing: bool,
    /// Make only shard K of N (K from 1) of the study's runs.
    ///
    /// Make only shard K of N (K from 1) of the study's runs: its instance × entry × repeat
    /// runs, in one fixed order (entry, instance, repeat), dealt round-robin, so shards
    /// differ by at most one run overall and per entry. Each shard writes its own --csv;
    /// its sidecar names the study (an id hashed from the inputs' contents, the entries
    /// with each external solver's `--version`, the encodings, --timeout, --repeat, --seed,
    /// --isomorphs, --vary-seed, --limit, --cnf and the sudosat version; not --jobs), the
    /// shard, the host and its CPU. `--from-csv` merges the shards' CSVs into one report.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Seed of the random solvers and of cdcl.
    ///
    /// Seed of the randomised classic solvers (backtrack-random, hill) and of cdcl's
    /// search (see `sudosat solve --seed`).
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Reasoning before the encoding (SAT entries).
    #[arg(long, value_name = "MODE", default_value_t = RootMode::default(),
          value_parser = named::<RootMode>(), long_help = compare_root_help())]
    root: RootMode,
    /// Memory budget of the SAT entries, e.g. 512M.
    ///
    /// Memory budget of the SAT entries, e.g. 512M or 8G (default half the memory
    /// available), shared by the --jobs solves at once: an entry whose formula on some
    /// puzzle is estimated above its share is refused before anything runs.
    #[arg(long, value_name = "BYTES", value_parser = crate::args::parse_bytes)]
    max_memory: Option<u64>,
    /// Work cap of the classic solvers (as in `solve --max-iterations`).
    #[arg(long, value_name = "N")]
    max_iterations: Option<u64>,
    /// Print the summary as Markdown tables.
    ///
    /// Print the summary as Markdown tables (as in BENCHMARKS.md) instead of aligned text.
    #[arg(long)]
    markdown: bool,
    /// Exit 1 also when a run failed.
    ///
    /// Exit 1 also when a run failed (a solver that crashed, or printed what is not an
    /// answer), naming the first failure: for scripts and CI, where a misbehaving solver
    /// must not pass as a result. An entry that cannot run at all (binary missing, flags
    /// refused, a tiny formula not answered) is refused before the first run, exit 2,
    /// with or without --strict.
    #[arg(long)]
    strict: bool,
    /// Run each embedded SAT entry in a child process.
    ///
    /// Run each embedded SAT entry as `sudosat sat --backend NAME` in a child process (this
    /// binary, through the external backend: the CNF written to a file, the answer parsed),
    /// so that a solver that aborts inside its C code (cadical, kissat) fails its run
    /// instead of ending the study. Each such entry is then labelled by that command, and
    /// its time is the process's. The child takes the seed (`--seed`, `--vary-seed`) and
    /// one thread; other backend options keep their defaults.
    #[arg(long)]
    isolate: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// The inputs are DIMACS formulas, not puzzles.
    ///
    /// The inputs are DIMACS formulas, one per file (plain or compressed), not puzzles:
    /// each is solved by every SAT backend of --solvers as it stands (no encoding), every
    /// model checked against its clauses, and the backends must agree on SAT and UNSAT.
    /// Files named *.cnf or *.dimacs (optionally .gz, .bz2, .xz) are read so without it,
    /// and a directory stands for the DIMACS files in it, in name order.
    #[arg(long)]
    cnf: bool,
}

/// `--root`'s long help: as `solve --root`, for every SAT entry.
fn compare_root_help() -> String {
    format!(
        "Reasoning before the encoding (SAT entries).\n\n\
         Reasoning on the grid before encoding it, for every SAT entry (as in `sudosat solve \
         --root`): `none` compares the searches alone on the puzzle's own formula, `hall` \
         hands every entry what the fixpoint of every rule leaves, and `auto` (the default) \
         what it leaves {}.",
        RootMode::auto_summary()
    )
}

/// Runs the subcommand: exit 0 when every run was made (time-outs, failures and stops are
/// results), 1 when some solver gave a wrong answer (or, with `--strict`, some run
/// failed), 128 + the signal when stopped by one (130 SIGINT, 143 SIGTERM, 129 SIGHUP;
/// the outputs still hold what was measured), 2 for bad arguments or input, an entry
/// that cannot run among them ([`compare::preflight`]).
pub fn run(args: Args) -> Result<ExitCode> {
    let command_line: Vec<String> = std::env::args().collect();
    let to_stdout = [&args.csv, &args.json, &args.plot]
        .iter()
        .filter(|o| o.as_deref() == Some(Path::new("-")))
        .count();
    if to_stdout > 1 {
        bail!("only one of --csv, --json and --plot can go to standard output (`-`)");
    }
    let scatter = parse_pairs(&args.scatter)?;
    let mut outputs = Outputs {
        csv: args.csv.clone(),
        json: args.json.clone(),
        plot: args.plot.clone(),
        report: args.report.clone(),
        scatter,
        by: args.by,
        style: if args.markdown {
            TableStyle::Markdown
        } else {
            TableStyle::Text
        },
        table_to_stderr: to_stdout > 0,
        strict: args.strict,
        provenance: Provenance::here(command_line.clone()),
    };
    if !args.from_csv.is_empty() {
        if !args.input.files.is_empty() {
            bail!("--from-csv reads saved runs: give no puzzle files");
        }
        let (comparison, provenance) = load_saved(
            &args.from_csv,
            args.allow_missing,
            args.timeout,
            command_line,
        )?;
        check_pairs(&outputs.scatter, &comparison.solvers)?;
        outputs.provenance = provenance;
        return outputs.write(&comparison);
    }

    let kept = args.csv.as_deref().is_some_and(|p| p != Path::new("-")) || args.report.is_some();
    if let Some(shard) = args.shard.filter(|_| !kept) {
        bail!(
            "--shard {shard}: its runs are for a later merge; write them with --csv FILE \
             (its sidecar names the study) or --report DIR"
        );
    }
    if args.cnf || is_cnf_input(&args.input.files) {
        return run_on_formulas(args, outputs);
    }
    let solvers =
        compare::parse_solvers(args.solvers.as_deref().unwrap_or(compare::DEFAULT_SOLVERS))?;
    let mut encodings =
        compare::parse_encodings(args.encodings.as_deref().unwrap_or(DEFAULT_ENCODINGS))?;
    if let Some(list) = &args.amo {
        encodings = compare::cross_amo(&encodings, &compare::parse_amo_families(list)?);
    }
    let classic_options = SolverOptions {
        seed: args.seed,
        max_iterations: args.max_iterations,
        ..SolverOptions::default()
    };
    let mut entries = compare::entries_with(&solvers, &encodings, &classic_options, args.root)?;
    if args.isolate {
        isolate(&mut entries)?;
    }
    let config = CompareConfig {
        entries,
        repeat: args.repeat,
        timeout: time_limit(args.timeout)?,
        jobs: args.jobs,
        vary_seed: args.vary_seed,
        isomorphs: args.isomorphs.then_some(args.seed),
        formulas: false,
        shard: args.shard.unwrap_or(Shard::WHOLE),
    };
    config.validate()?;
    let labels: Vec<String> = config.entries.iter().map(|e| config.label(e)).collect();
    check_pairs(&outputs.scatter, &labels)?;
    let puzzles = read_puzzles(&args.input, args.limit)?;
    check_memory(&config, &puzzles, args.max_memory)?;
    compare::preflight(&config)?;
    let instances = puzzles
        .iter()
        .map(|p| shard::puzzle_hash(&p.grid))
        .collect();
    outputs.provenance.study = Some(Study::here(
        &config,
        &StudyInputs::measured(&config, instances, args.seed, args.limit),
    ));
    measure(&config, puzzles.len(), args.quiet, &outputs, |watch| {
        compare::run_watched(&puzzles, &config, watch)
    })
}

/// `--isolate`: each embedded SAT entry becomes an external one running this binary's
/// `sat` with that backend, its seed and one thread.
fn isolate(entries: &mut [SolverSpec]) -> Result<()> {
    let exe = std::env::current_exe().context("--isolate: cannot tell where sudosat is")?;
    let exe = exe.to_string_lossy().into_owned();
    if exe.contains(char::is_whitespace) {
        bail!(
            "--isolate: the path of this sudosat ({exe}) holds a space, which a solver \
             command cannot; run it from a path without one"
        );
    }
    for entry in entries {
        if let SolverSpec::Sat { backend, .. } = entry {
            if backend.kind.is_embedded() {
                let command = format!(
                    "{exe} sat --backend {} --threads 1 --seed {}",
                    backend.kind,
                    sudosat::backend::external::SEED_PLACEHOLDER
                );
                *backend = BackendSpec {
                    kind: BackendKind::External,
                    command: Some(command),
                    ..backend.clone()
                };
            }
        }
    }
    Ok(())
}

/// `--encodings` when not given.
const DEFAULT_ENCODINGS: &str = "extended+reduced";

/// `compare` on DIMACS formulas ([`compare::formulas`]): SAT backends only, no encoding.
fn run_on_formulas(args: Args, mut outputs: Outputs) -> Result<ExitCode> {
    let puzzle_only = [
        (args.encodings.is_some(), "--encodings"),
        (args.amo.is_some(), "--amo"),
        (args.input.from.is_some(), "--from"),
        (args.limit.is_some(), "--limit"),
        (args.isomorphs, "--isomorphs"),
        (args.by.is_some(), "--by"),
        (args.max_iterations.is_some(), "--max-iterations"),
    ];
    if let Some((_, flag)) = puzzle_only.iter().find(|(given, _)| *given) {
        bail!(
            "{flag} is about puzzles; the inputs are DIMACS formulas (--cnf, or names ending \
             .cnf), which are solved as they stand"
        );
    }
    let solvers = compare::parse_solvers(
        args.solvers
            .as_deref()
            .unwrap_or(compare::DEFAULT_FORMULA_SOLVERS),
    )?;
    for item in &solvers {
        if let Some(option) = item
            .options()
            .given()
            .into_iter()
            .find(|o| o.is_about_puzzles())
        {
            bail!(
                "--solvers: `{option}` is about puzzles; the inputs are DIMACS formulas, solved \
                 as they stand (an entry's options on formulas: lookahead, seed, threads)"
            );
        }
    }
    let backend_options = SolverOptions {
        seed: args.seed,
        ..SolverOptions::default()
    };
    let mut entries = compare::entries(&solvers, &[DEFAULT_ENCODING], &backend_options)?;
    if args.isolate {
        isolate(&mut entries)?;
    }
    let config = CompareConfig {
        entries,
        repeat: args.repeat,
        timeout: time_limit(args.timeout)?,
        jobs: args.jobs,
        vary_seed: args.vary_seed,
        isomorphs: None,
        formulas: true,
        shard: args.shard.unwrap_or(Shard::WHOLE),
    };
    config.validate()?;
    if let Some(classic) = config.entries.iter().find(|e| e.backend_label().is_none()) {
        bail!(
            "--solvers {}: a classic solver needs a puzzle; the inputs are DIMACS formulas, \
             compared with SAT backends (cdcl, dpll, lookahead, varisat, splr, minisat, \
             external:CMD)",
            classic.label()
        );
    }
    let labels: Vec<String> = config.entries.iter().map(|e| config.label(e)).collect();
    check_pairs(&outputs.scatter, &labels)?;
    let formulas = read_formulas(&formula_files(args.input.paths())?)?;
    check_formula_memory(&config, &formulas, args.max_memory)?;
    compare::preflight(&config)?;
    let instances = formulas
        .iter()
        .map(|f| shard::formula_hash(&f.cnf))
        .collect();
    outputs.provenance.study = Some(Study::here(
        &config,
        &StudyInputs::measured(&config, instances, args.seed, None),
    ));
    measure(&config, formulas.len(), args.quiet, &outputs, |watch| {
        run_formulas_watched(&formulas, &config, watch)
    })
}
