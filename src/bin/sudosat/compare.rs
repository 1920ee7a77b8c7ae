//! `sudosat compare`: encoding sizes and solve times across encodings, backends and solvers,
//! as a summary table, CSV, JSON, an SVG plot and an HTML report (the work is in
//! [`sudosat::compare`]); `--from-csv` redraws all of them from saved rows.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};

use anyhow::{bail, Context, Result};
use sudosat::backend::{BackendKind, BackendSpec, RootMode};
use sudosat::compare::formulas::{run_formulas_watched, FormulaInput};
use sudosat::compare::merge::{self, ShardFile, StudyInputs};
use sudosat::compare::output::{Meta, Provenance};
use sudosat::compare::report::{self, ReportOptions};
use sudosat::compare::shard::{self, Shard, Study};
use sudosat::compare::summary::{self, Analysis, TableStyle};
use sudosat::compare::{
    self, output, plot, CompareConfig, CompareError, Comparison, GroupBy, Outcome, Puzzle, Run,
    Watch,
};
use sudosat::encode::{check_memory_budget, memory_estimate, CnfDescription};
use sudosat::grid::Format;
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::{SolverOptions, SolverSpec};

use crate::args::named;
use crate::common::{
    display_path, inputs_or_stdin, progress_bar, read_cnf, read_located_inputs, report_error,
    stdin_at_most_once, time_limit, write_output, EXIT_NEGATIVE, EXIT_OK,
};

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

/// The inputs of `compare`: puzzle files, or DIMACS formulas ([`Args::cnf`]).
#[derive(clap::Args, Debug)]
struct CompareInputs {
    /// Puzzle files (`-` or none: standard input), or DIMACS files.
    ///
    /// Puzzle files; `-` or none reads standard input. With --cnf (or names ending .cnf or
    /// .dimacs): DIMACS files, one formula each, or directories of them.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Input format of the puzzles (detected when not given).
    ///
    /// Input format of the puzzles; detected from each file's content when not given.
    #[arg(long, value_name = "FORMAT", value_parser = named::<Format>())]
    from: Option<Format>,
}

impl CompareInputs {
    /// The files as given, or standard input when none is.
    fn paths(&self) -> Vec<PathBuf> {
        inputs_or_stdin(&self.files)
    }
}

/// Runs the subcommand: exit 0 when every run was made (time-outs, failures and stops are
/// results), 1 when some solver gave a wrong answer (or, with `--strict`, some run
/// failed), 128 + the signal when stopped by one (130 SIGINT, 143 SIGTERM, 129 SIGHUP;
/// the outputs still hold what was measured), 2 for bad arguments or input, an entry
/// that cannot run among them ([`compare::preflight`]).
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
    outputs.provenance.study = Some(study(&config, instances, args.seed, args.limit));
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

/// The study `config` makes on the instances of these content hashes. An embedded solver
/// library's version (`cadical-3.0.1`) counts; a sharded run also asks each external solver
/// for its version (`PROGRAM --version`), so that shards measured with different solver
/// builds are not merged as one study.
fn study(config: &CompareConfig, instances: Vec<u64>, seed: u64, limit: Option<usize>) -> Study {
    let versions = config
        .entries
        .iter()
        .map(|entry| match entry {
            SolverSpec::Sat { backend, .. } if backend.kind.is_embedded() => {
                (backend.kind.entry().library)()
            }
            SolverSpec::Sat { backend, .. } if config.shard != Shard::WHOLE => {
                match (backend.kind, backend.command.as_deref()) {
                    (BackendKind::Minisat, None) => shard::solver_version("minisat"),
                    (BackendKind::Minisat | BackendKind::External, Some(command)) => {
                        shard::solver_version(command)
                    }
                    _ => None,
                }
            }
            _ => None,
        })
        .collect();
    let inputs = StudyInputs {
        instances,
        versions,
        seed,
        limit,
    };
    Study::here(config, &inputs)
}

/// Makes the `count` instances' runs with `run` under a progress bar and the signals'
/// watch, then writes the outputs. A signal ([`crate::signals`]) stops the runs in flight
/// (their rows `stopped`) and no run starts after it; the outputs then hold what was
/// measured, written here, or by the signal's thread from the rows measured and in flight
/// when the runs do not stop within [`crate::signals::GRACE`] or a second signal comes.
fn measure(
    config: &CompareConfig,
    count: usize,
    quiet: bool,
    outputs: &Outputs,
    run: impl FnOnce(&Watch) -> Result<Comparison, CompareError>,
) -> Result<ExitCode> {
    let progress: Arc<Mutex<Progress>> = Arc::default();
    let written = Arc::new(Mutex::new(false));
    {
        let (progress, written) = (Arc::clone(&progress), Arc::clone(&written));
        let (outputs, config) = (outputs.clone(), config.clone());
        crate::signals::on_stop(move || {
            let mut written = lock(&written);
            if *written {
                return;
            }
            let runs = lock(&progress).rows_so_far();
            let mut comparison = compare::assemble(&config, count, runs);
            comparison.interrupted = true;
            if let Err(err) = outputs.write(&comparison) {
                report_error(&err);
            }
            *written = true;
        });
    }
    let bar = progress_bar(config.total_runs(count), "runs", quiet);
    let watch = Watch {
        stop: crate::signals::stop_flag(),
        on_start: &|run| lock(&progress).started(run),
        on_run: &|run| {
            lock(&progress).finished(run);
            bar.set_message(run.solver.clone());
            bar.inc(1);
        },
    };
    let comparison = run(&watch)?;
    bar.finish_and_clear();
    // Held while writing: a signal's thread waits, then finds the outputs written.
    let mut done = lock(&written);
    if *done {
        // The signal's thread wrote them and is ending the process.
        drop(done);
        crate::signals::settle();
        return Ok(crate::signals::exit_code().map_or(ExitCode::FAILURE, ExitCode::from));
    }
    *done = true;
    outputs.write(&comparison)
}

/// The runs measured and those in flight, for outputs written when a signal stops a
/// comparison that does not stop in time.
#[derive(Default)]
struct Progress {
    finished: Vec<Run>,
    /// Rows of the runs started and not finished, as they were when they started.
    in_flight: Vec<Run>,
}

impl Progress {
    fn started(&mut self, run: &Run) {
        self.in_flight.push(run.clone());
    }

    fn finished(&mut self, run: &Run) {
        self.in_flight.retain(|r| !same_run(r, run));
        self.finished.push(run.clone());
    }

    /// The finished rows and the runs in flight as `stopped`.
    fn rows_so_far(&self) -> Vec<Run> {
        let stopped = self.in_flight.iter().map(|run| Run {
            outcome: Outcome::Stopped,
            error: Some(compare::STOPPED_BY_INTERRUPT.to_string()),
            ..run.clone()
        });
        self.finished.iter().cloned().chain(stopped).collect()
    }
}

/// Whether two rows are of the same run (instance, entry, repeat).
fn same_run(a: &Run, b: &Run) -> bool {
    a.puzzle_index == b.puzzle_index && a.solver == b.solver && a.repeat == b.repeat
}

/// `--encodings` when not given.
const DEFAULT_ENCODINGS: &str = "extended+reduced";

/// Whether the inputs are DIMACS files by their names: every one ends in `.cnf` or
/// `.dimacs` (before any compression suffix) or is a directory (of formulas: puzzles are
/// read from files). A mix with puzzle files is left to the puzzle reader, which names the
/// file it cannot read.
fn is_cnf_input(files: &[PathBuf]) -> bool {
    !files.is_empty() && files.iter().all(|path| path.is_dir() || is_cnf_name(path))
}

/// Whether a file name says DIMACS: `*.cnf` or `*.dimacs`, plain or `.gz`, `.bz2`, `.xz`.
fn is_cnf_name(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let name = [".gz", ".bz2", ".xz"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .unwrap_or(&name);
    name.ends_with(".cnf") || name.ends_with(".dimacs")
}

/// The formula files of `paths`: a file as given, a directory as the DIMACS files
/// ([`is_cnf_name`]) directly in it, sorted by name, as benchmark sets are laid out.
fn formula_files(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path);
            continue;
        }
        let shown = display_path(&path);
        let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
            .with_context(|| format!("{shown}: cannot read the directory"))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("{shown}: cannot read the directory"))?;
        found.retain(|p| p.is_file() && is_cnf_name(p));
        if found.is_empty() {
            bail!("{shown}: no DIMACS files in it (*.cnf or *.dimacs, plain or compressed)");
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

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
    outputs.provenance.study = Some(study(&config, instances, args.seed, None));
    measure(&config, formulas.len(), args.quiet, &outputs, |watch| {
        run_formulas_watched(&formulas, &config, watch)
    })
}

/// Every formula of `paths`, one per file, with the encoding its comments name. A file of
/// cubes (`p inccnf`) is refused: `sat --cubes` solves those.
fn read_formulas(paths: &[PathBuf]) -> Result<Vec<FormulaInput>> {
    stdin_at_most_once(paths.iter().map(PathBuf::as_path))?;
    paths
        .iter()
        .map(|path| {
            let (cnf, report, name) = read_cnf(path)?;
            if !report.cubes.is_empty() {
                bail!(
                    "{name}: holds {} cubes (`p inccnf`); compare solves plain formulas, \
                     `sudosat sat {name}` solves it cube by cube",
                    report.cubes.len()
                );
            }
            let encoding =
                CnfDescription::from_comments(report.preamble.iter().map(String::as_str))
                    .ok()
                    .map(|description| description.encoding);
            Ok(FormulaInput {
                file: name,
                cnf,
                encoding,
            })
        })
        .collect()
}

/// Refuses, before anything runs, an in-process entry on a formula whose solver state is
/// estimated above its share of the memory budget (as [`check_memory`] for puzzles).
fn check_formula_memory(
    config: &CompareConfig,
    formulas: &[FormulaInput],
    flag: Option<u64>,
) -> Result<()> {
    let Some(budget) = crate::common::memory_budget(flag) else {
        return Ok(());
    };
    let jobs = config.jobs.max(1);
    let share = budget / jobs as u64;
    let embedded = config.entries.iter().find(
        |entry| matches!(entry, SolverSpec::Sat { backend, .. } if backend.kind.is_embedded()),
    );
    let Some(entry) = embedded else {
        return Ok(());
    };
    for formula in formulas {
        let size = formula.cnf.size();
        let needed = memory_estimate(size);
        if needed > share {
            bail!(
                "{}: entry {}: {} variables, {} clauses and {} literals, about {} MiB to \
                 solve, over the memory budget of {} MiB a job (--jobs {jobs}); leave the \
                 in-process entries out, or raise --max-memory",
                formula.file,
                config.label(entry),
                size.vars,
                size.clauses,
                size.literals,
                needed.div_ceil(1 << 20),
                share >> 20
            );
        }
    }
    Ok(())
}

/// Refuses, before anything runs, a SAT entry whose formula on some puzzle is estimated
/// above its share of the memory budget (`--max-memory` over the `--jobs` solves at once).
fn check_memory(config: &CompareConfig, puzzles: &[Puzzle], flag: Option<u64>) -> Result<()> {
    let Some(budget) = crate::common::memory_budget(flag) else {
        return Ok(());
    };
    let jobs = config.jobs.max(1);
    let share = budget / jobs as u64;
    for entry in &config.entries {
        let Some(encoding) = entry.encoding() else {
            continue;
        };
        for p in puzzles {
            match check_memory_budget(encoding, &p.grid, share) {
                Ok(()) => {}
                Err(sudosat::Error::OverBudget { size, needed, .. }) => bail!(
                    "{}:{}: entry {}: {} variables, {} clauses and {} literals, about {} MiB to \
                     solve, over the memory budget of {} MiB a job (--jobs {jobs}); leave the \
                     entry out, use a +reduced encoding, or raise --max-memory",
                    p.file,
                    p.line,
                    entry.label(),
                    size.vars,
                    size.clauses,
                    size.literals,
                    needed.div_ceil(1 << 20),
                    share >> 20
                ),
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// `--scatter A,B` values as pairs, split at the one comma outside an entry's bracket of
/// options (`cdcl[propagate=grid,root=none]/extended+reduced,dlx`).
fn parse_pairs(values: &[String]) -> Result<Vec<(String, String)>> {
    values
        .iter()
        .map(|v| {
            let mut depth = 0usize;
            let commas: Vec<usize> = v
                .char_indices()
                .filter_map(|(i, c)| {
                    match c {
                        '[' => depth += 1,
                        ']' => depth = depth.saturating_sub(1),
                        ',' if depth == 0 => return Some(i),
                        _ => {}
                    }
                    None
                })
                .collect();
            match commas[..] {
                [i] if !v[..i].trim().is_empty() && !v[i + 1..].trim().is_empty() => {
                    Ok((v[..i].trim().to_string(), v[i + 1..].trim().to_string()))
                }
                _ => bail!("--scatter `{v}`: expected two entry labels, `A,B`"),
            }
        })
        .collect()
}

/// Every entry a scatter pair names must be one of `labels`.
fn check_pairs(pairs: &[(String, String)], labels: &[String]) -> Result<()> {
    for (a, b) in pairs {
        for name in [a, b] {
            if !labels.contains(name) {
                return Err(CompareError::UnknownEntry(name.clone(), labels.join(", ")).into());
            }
        }
    }
    Ok(())
}

/// The comparison saved in the CSVs of `paths` (a directory stands for its `*.csv` files,
/// in name order) and where it came from (marked as redrawn by this command): one CSV as
/// it was saved, several (or one shard of several) merged as the shards of one study
/// ([`shard::merge`]). Without a sidecar the entry order is that of the rows and there is
/// no limit unless `timeout` gives one.
fn load_saved(
    paths: &[PathBuf],
    allow_missing: bool,
    timeout: Option<f64>,
    command_line: Vec<String>,
) -> Result<(Comparison, Provenance)> {
    let mut files = Vec::new();
    for path in csv_files(paths)? {
        files.push(read_saved(&path)?);
    }
    let alone = match files.as_slice() {
        [only] => {
            let study = only.meta.as_ref().and_then(|m| m.provenance.study.as_ref());
            study.map_or(true, |s| s.shard == Shard::WHOLE)
        }
        _ => false,
    };
    let (mut comparison, mut provenance) = if alone {
        let file = files.remove(0);
        let meta = match file.meta {
            Some(meta) => meta,
            None => {
                eprintln!(
                    "sudosat: no {} beside {}: entries in row order, {}",
                    display_path(&output::sidecar_path(Path::new(&file.name))),
                    file.name,
                    if timeout.is_some() {
                        "the --timeout given as the limit"
                    } else {
                        "no time limit known (PAR-2 needs --timeout)"
                    }
                );
                Meta::guess(&file.runs)
            }
        };
        let provenance = meta.provenance.clone();
        (meta.comparison(file.runs), provenance)
    } else {
        merge::merge(files, allow_missing)?
    };
    if let Some(limit) = time_limit(timeout)? {
        comparison.timeout_s = Some(limit.as_secs_f64());
    }
    provenance.redrawn_by = Some(command_line);
    Ok((comparison, provenance))
}

/// The CSV files of `paths`: a file as given, a directory as the `*.csv` files (plain or
/// compressed) directly in it, sorted by name.
fn csv_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let shown = display_path(path);
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{shown}: cannot read the directory"))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .with_context(|| format!("{shown}: cannot read the directory"))?;
        found.retain(|p| {
            let name = p.to_string_lossy().to_ascii_lowercase();
            p.is_file()
                && ["", ".gz", ".bz2", ".xz"]
                    .iter()
                    .any(|z| name.ends_with(&format!(".csv{z}")))
        });
        if found.is_empty() {
            bail!("{shown}: no CSV files in it (*.csv, plain or compressed)");
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// The rows of one saved CSV and its sidecar, when it has one.
fn read_saved(csv: &Path) -> Result<ShardFile> {
    let name = display_path(csv);
    // `--csv runs.csv.gz` wrote it compressed; read it back the same way.
    let file = sudosat::compression::open(csv).with_context(|| format!("{name}: cannot open"))?;
    let runs = output::read_csv(std::io::BufReader::new(file), &name)?;
    let sidecar = output::sidecar_path(csv);
    let meta = if sidecar.is_file() {
        let side_name = display_path(&sidecar);
        let file = sudosat::compression::open(&sidecar)
            .with_context(|| format!("{side_name}: cannot open"))?;
        Some(output::read_meta(
            std::io::BufReader::new(file),
            &side_name,
        )?)
    } else {
        None
    };
    Ok(ShardFile { name, runs, meta })
}

/// Where the results go and how the summary looks.
#[derive(Clone, Debug)]
struct Outputs {
    csv: Option<PathBuf>,
    json: Option<PathBuf>,
    plot: Option<PathBuf>,
    report: Option<PathBuf>,
    /// Scatter pairs of the report (none: the default pairs).
    scatter: Vec<(String, String)>,
    by: Option<GroupBy>,
    style: TableStyle,
    /// The summary goes to stderr when a file output takes stdout (`-`).
    table_to_stderr: bool,
    /// A failed run makes the exit code 1 (`--strict`).
    strict: bool,
    /// The command line, machine and version of the measurement.
    provenance: Provenance,
}

impl Outputs {
    /// Writes every output of `comparison` (files whole or not at all, then the summary)
    /// and returns the exit code it calls for.
    fn write(&self, comparison: &Comparison) -> Result<ExitCode> {
        let analysis = Analysis::new(comparison, self.by);
        let plot_by = self.by.unwrap_or_else(|| GroupBy::auto(&comparison.runs));
        if let Some(path) = &self.csv {
            write_output(Some(path), |w| Ok(output::write_csv(w, &comparison.runs)?))?;
            if path != Path::new("-") {
                let meta = Meta::of(comparison, self.provenance.clone());
                write_output(Some(&output::sidecar_path(path)), |w| {
                    Ok(output::write_meta(w, &meta)?)
                })?;
            }
        }
        if let Some(path) = &self.json {
            write_output(Some(path), |w| {
                Ok(output::write_json(
                    w,
                    comparison,
                    &analysis,
                    Some(&self.provenance),
                )?)
            })?;
        }
        if let Some(path) = &self.plot {
            let svg = plot::render_svg(comparison, &analysis, plot_by)?;
            write_output(Some(path), |w| Ok(w.write_all(svg.as_bytes())?))?;
        }
        if let Some(dir) = &self.report {
            let scatter = if self.scatter.is_empty() {
                plot::default_pairs(comparison, &comparison.default_entry_label())
            } else {
                self.scatter.clone()
            };
            let options = ReportOptions {
                provenance: self.provenance.clone(),
                scatter,
                times_by: plot_by,
            };
            report::write_report(dir, comparison, &analysis, &options)?;
        }
        let mut table = Vec::new();
        for note in self.notes(comparison) {
            writeln!(table, "{note}")?;
        }
        summary::write_table(&mut table, comparison, &analysis, self.style)?;
        if self.table_to_stderr {
            eprint!("{}", String::from_utf8_lossy(&table));
        } else {
            write_output(None, |w| Ok(w.write_all(&table)?))?;
        }
        if let Some(code) = crate::signals::exit_code() {
            let planned = self.provenance.study.as_ref().map_or(
                comparison.puzzles * comparison.solvers.len() * comparison.repeat,
                |study| study.runs,
            );
            let stopped = comparison
                .runs
                .iter()
                .filter(|r| r.error.as_deref() == Some(compare::STOPPED_BY_INTERRUPT))
                .count();
            eprintln!(
                "sudosat: interrupted: {} of {planned} runs made ({stopped} of them stopped \
                 in flight); the outputs hold those",
                comparison.runs.len(),
            );
            return Ok(ExitCode::from(code));
        }
        if self.strict {
            let failed: Vec<&Run> = comparison
                .runs
                .iter()
                .filter(|r| r.outcome == Outcome::Failed)
                .collect();
            if let Some(first) = failed.first() {
                eprintln!(
                    "sudosat: {} of {} runs failed (--strict); the first: {} on {}:{}: {}",
                    failed.len(),
                    comparison.runs.len(),
                    first.solver,
                    first.file,
                    first.line,
                    first.error.as_deref().unwrap_or("no message")
                );
                return Ok(ExitCode::from(EXIT_NEGATIVE));
            }
        }
        Ok(ExitCode::from(if comparison.has_wrong_answer() {
            EXIT_NEGATIVE
        } else {
            EXIT_OK
        }))
    }
}

impl Outputs {
    /// The lines above the summary: which shard of which study a sharded run made, or how
    /// a merged comparison was put together.
    fn notes(&self, comparison: &Comparison) -> Vec<String> {
        let p = &self.provenance;
        if let Some(merged) = &p.merged {
            return merged.notes();
        }
        match &p.study {
            Some(study) if study.shard != Shard::WHOLE => vec![format!(
                "shard {} of study {} on {}: {} of the {} runs",
                study.shard,
                study.id,
                study.host,
                study.runs,
                comparison.puzzles * comparison.solvers.len() * comparison.repeat
            )],
            _ => Vec::new(),
        }
    }
}

/// What a mutex holds, even if a worker panicked while holding it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every puzzle of every input (at most `limit` per file), with where it starts.
fn read_puzzles(input: &CompareInputs, limit: Option<usize>) -> Result<Vec<Puzzle>> {
    let paths = input.paths();
    stdin_at_most_once(paths.iter().map(PathBuf::as_path))?;
    let mut puzzles = Vec::new();
    for path in paths {
        let mut inputs = read_located_inputs(std::slice::from_ref(&path), input.from)?;
        if let Some(limit) = limit {
            inputs.truncate(limit);
        }
        puzzles.extend(inputs.into_iter().map(|input| Puzzle {
            file: display_path(&input.path),
            line: input.line,
            grid: input.grid,
        }));
    }
    Ok(puzzles)
}
