//! `sudosat solve`: solve puzzles with the SAT path (encoding + backend) or a classic solver.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use sudosat::backend::{BackendKind, BackendSpec, LoadMode, Lookahead};
use sudosat::encode::{AmoFamily, BaseEncoding, Encoding, SudokuEncoding};
use sudosat::grid::{check_solution, write_grid, Format, Grid};
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::{
    BacktrackOrder, ClassicKind, HillObjective, SolveOutcome, Solver, SolverOptions, SolverSpec,
};

use crate::common::{
    base_encoding_parser, write_output, InputGrid, OutputFormat, PuzzleInputs, EXIT_NEGATIVE,
    EXIT_OK,
};
use crate::proofs::{ProofArgs, Proved, Prover};

/// Parses an `--amo` value.
pub fn parse_amo(s: &str) -> Result<AmoFamily, String> {
    AmoFamily::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = AmoFamily::ALL.iter().map(|f| f.name()).collect();
        format!(
            "unknown at-most-one family `{s}` (expected {})",
            names.join(", ")
        )
    })
}

/// Which SAT backend: the options `solve`, `count` and `sat` share.
#[derive(clap::Args, Debug, Clone)]
pub struct BackendArgs {
    /// With `--backend external` (or `minisat`): the solver command line, e.g.
    /// "cadical -q". Otherwise (`solve`, `count`) the grid-level solver: `sat`, the
    /// default (encoding + SAT backend), or a classic solver (dlx, backtrack, human, …).
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// The command line of an external SAT solver (`--backend external` or `minisat`), e.g.
    /// "cadical -q" (`--solver "cadical -q"` is still read as before).
    #[arg(long, value_name = "COMMAND")]
    pub solver_cmd: Option<String>,
    /// SAT backend: cdcl (the built-in clause-learning solver, the default: it finishes the
    /// grids that need search), dpll (the built-in plain DPLL of the literature), varisat,
    /// splr, minisat, external.
    #[arg(long, value_name = "BACKEND", default_value = BackendKind::DEFAULT.name())]
    pub backend: BackendKind,
    /// Time limit in seconds of each solve: an external solver process is killed, the
    /// built-in solvers stop (varisat cannot be interrupted and ignores it).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Lookahead of the dpll backend: none (unit propagation only), clause (probe the
    /// branching clause's literals before each decision), full (also failed-literal
    /// probing at the root) or auto (none up to 1,000 variables, full above). For cdcl:
    /// root probing before the search (none: never; clause/full: always; auto: above
    /// 1,000 variables).
    #[arg(long, value_name = "LOOKAHEAD", default_value = Lookahead::default().name(), value_parser = parse_lookahead)]
    pub lookahead: Lookahead,
    /// How the SAT path loads each puzzle: `reencode` (the default: encode it anew, with
    /// the reduction) or `assumptions` (keep the empty grid's encoding loaded in one
    /// backend and solve each puzzle under its givens, keeping what was learnt; for
    /// backends that take assumptions: cdcl, others re-encode). Measured slower on 9×9.
    #[arg(long, value_name = "MODE", default_value = "reencode", value_parser = parse_load)]
    pub load: LoadMode,
}

fn parse_load(s: &str) -> Result<LoadMode, String> {
    LoadMode::ALL
        .into_iter()
        .find(|m| m.name() == s)
        .ok_or_else(|| format!("unknown load mode `{s}` (expected reencode, assumptions)"))
}

impl BackendArgs {
    /// The backend the flags select.
    ///
    /// # Errors
    /// A bad time-out or an external backend without a command.
    pub fn backend_spec(&self) -> Result<BackendSpec> {
        let timeout = self.time_limit()?;
        let given =
            || (self.solver_cmd.clone()).or_else(|| self.solver.clone().filter(|s| s != "sat"));
        let command = match self.backend {
            BackendKind::External => Some(given().with_context(|| {
                "--backend external needs the solver command: --solver-cmd \"cadical -q\""
            })?),
            BackendKind::Minisat => given(),
            _ => None,
        };
        Ok(BackendSpec {
            command,
            timeout,
            lookahead: self.lookahead,
            load: self.load,
            ..BackendSpec::new(self.backend)
        })
    }

    /// The `--timeout` as a duration.
    ///
    /// # Errors
    /// A time-out that is not a positive number.
    pub fn time_limit(&self) -> Result<Option<Duration>> {
        crate::common::time_limit(self.timeout)
    }
}

/// How to solve: the options `solve` and `count` share.
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    #[command(flatten)]
    pub sat: BackendArgs,
    /// Base encoding of the `sat` solver [default: extended].
    #[arg(long, value_name = "ENCODING", value_parser = base_encoding_parser())]
    pub encoding: Option<BaseEncoding>,
    /// Apply the Kwon–Jain V⁺/V⁻ reduction (the default).
    #[arg(long, overrides_with = "no_reduce")]
    pub reduce: bool,
    /// Encode without the reduction.
    #[arg(long = "no-reduce", overrides_with = "reduce")]
    pub no_reduce: bool,
    /// At-most-one family: pairwise, sequential, commander, product, bimander, binary.
    #[arg(long, value_name = "FAMILY", default_value = "pairwise", value_parser = parse_amo)]
    pub amo: AmoFamily,
    /// Memory budget of the `sat` solver, e.g. 512M or 8G (K, M, G, T: powers of 1024;
    /// default half the memory available): a formula estimated above it is refused before
    /// it is built.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Seed of the randomised classic solvers (backtrack-random, hill).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Work cap of the classic solvers: assignments (backtrack), iterations (hill, default
    /// 2,000,000), expansions (best-first, fifo); reaching it answers "stopped".
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<u64>,
    /// Cell order of `--solver backtrack`: row, column, random, box, mrv.
    #[arg(long, value_name = "ORDER", default_value = "mrv", value_parser = parse_order)]
    pub order: BacktrackOrder,
    /// Objective of `--solver hill`: sum (the literature's) or duplicates.
    #[arg(long, value_name = "OBJECTIVE", default_value = "duplicates", value_parser = parse_objective)]
    pub objective: HillObjective,
    /// Probability of the β operator of `--solver hill`, in 0…1.
    #[arg(long, value_name = "P", default_value_t = sudosat::solve::hill_climb::DEFAULT_BETA)]
    pub beta: f64,
    /// Pruning threshold of `--solver best-first`/`fifo`: states with more open candidates
    /// are dropped.
    #[arg(long, value_name = "N")]
    pub threshold: Option<u64>,
}

fn parse_lookahead(s: &str) -> Result<Lookahead, String> {
    Lookahead::ALL
        .into_iter()
        .find(|l| l.name() == s)
        .ok_or_else(|| format!("unknown lookahead `{s}` (expected none, clause, full, auto)"))
}

fn parse_order(s: &str) -> Result<BacktrackOrder, String> {
    BacktrackOrder::from_name(s)
        .ok_or_else(|| format!("unknown order `{s}` (expected row, column, random, box, mrv)"))
}

fn parse_objective(s: &str) -> Result<HillObjective, String> {
    HillObjective::from_name(s)
        .ok_or_else(|| format!("unknown objective `{s}` (expected sum, duplicates)"))
}

pub(crate) fn parse_bytes(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, shift) = match s.char_indices().last() {
        Some((i, 'K' | 'k')) => (&s[..i], 10),
        Some((i, 'M' | 'm')) => (&s[..i], 20),
        Some((i, 'G' | 'g')) => (&s[..i], 30),
        Some((i, 'T' | 't')) => (&s[..i], 40),
        _ => (s, 0),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("expected bytes such as 512M or 8G, not `{s}`"))
}

/// The `--max-memory` budget: the flag's value, else half the available memory.
pub(crate) fn memory_budget(flag: Option<u64>) -> Option<u64> {
    flag.or_else(default_memory_budget)
}

/// Half the memory the kernel reports available (`MemAvailable`), if it says.
fn default_memory_budget() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024 / 2)
}

impl SolverArgs {
    /// Refuses, before anything is built, a `sat` solve whose formula would not fit in the
    /// memory budget (`--max-memory`, default half the available memory).
    ///
    /// # Errors
    /// The formula's size and the ways out, when over budget.
    pub fn check_memory(&self, puzzle: &Grid) -> Result<()> {
        if self.solver_name() != "sat" {
            return Ok(());
        }
        if let Some(budget) = memory_budget(self.max_memory) {
            sudosat::encode::check_memory_budget(self.encoding(), puzzle, budget)?;
        }
        Ok(())
    }

    /// The encoding the flags select.
    pub fn encoding(&self) -> SudokuEncoding {
        let base = self.encoding.unwrap_or(DEFAULT_ENCODING.base);
        let reduced = if self.no_reduce {
            false
        } else if self.reduce {
            true
        } else {
            DEFAULT_ENCODING.reduced
        };
        SudokuEncoding::new(base, reduced).with_amo(self.amo)
    }

    /// The grid-level solver name (`sat` unless `--solver` names another and the backend is
    /// not external).
    pub fn solver_name(&self) -> &str {
        match self.sat.backend {
            BackendKind::External | BackendKind::Minisat if self.sat.solver_cmd.is_none() => "sat",
            _ => self.sat.solver.as_deref().unwrap_or("sat"),
        }
    }

    /// What the flags describe, parsed once: the SAT path or a classic solver.
    ///
    /// # Errors
    /// An unknown solver name or inconsistent flags.
    pub fn spec(&self, trace: bool) -> Result<SolverSpec> {
        let name = self.solver_name();
        if trace && name != "hill" {
            bail!("--trace needs --solver hill (the only solver that keeps a trace), not `{name}`");
        }
        if name == "sat" {
            return Ok(SolverSpec::Sat {
                encoding: self.encoding(),
                backend: self.sat.backend_spec()?,
            });
        }
        if !(0.0..=1.0).contains(&self.beta) {
            bail!("--beta must be between 0 and 1, not {}", self.beta);
        }
        match ClassicKind::from_name(name) {
            Some(kind) => Ok(SolverSpec::Classic {
                kind,
                options: self.solver_options(trace),
            }),
            None => bail!(
                "unknown solver `{name}` (expected sat, {}); for an external SAT solver use \
                 --backend external --solver-cmd \"{name}\"",
                ClassicKind::NAMES.join(", ")
            ),
        }
    }

    /// The solver the flags select, with the `--timeout`.
    ///
    /// # Errors
    /// As [`SolverArgs::spec`], and a bad time-out.
    pub fn build(&self, trace: bool) -> Result<(SolverSpec, Box<dyn Solver>)> {
        let spec = self.spec(trace)?;
        let solver = spec.build(self.sat.time_limit()?);
        Ok((spec, solver))
    }

    /// The classic solvers' options the flags select.
    pub fn solver_options(&self, trace: bool) -> SolverOptions {
        SolverOptions {
            seed: self.seed,
            max_iterations: self.max_iterations,
            backtrack_order: self.order,
            hill_objective: self.objective,
            beta: self.beta,
            threshold: self.threshold,
            trace,
        }
    }
}

/// Arguments of `sudosat solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    input: PuzzleInputs,
    #[command(flatten)]
    format: OutputFormat,
    #[command(flatten)]
    how: SolverArgs,
    /// Also check that each solution is unique (prints `unique` or `multiple (≥2)` after it;
    /// a puzzle with several solutions makes the exit code 1).
    #[arg(long)]
    unique: bool,
    /// Print statistics to standard error: encoding size, backend counters and times.
    #[arg(long)]
    stats: bool,
    /// With `--solver hill`: print the objective at each new best (and the iteration) to
    /// standard error.
    #[arg(long)]
    trace: bool,
    /// Output file (`-` = standard output, the default); written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    proofs: ProofArgs,
    /// Solve puzzles on N threads, one solver each (default: every core). The output, the
    /// statistics and the exit code are those of `--jobs 1`, in input order. `--proof-dir`
    /// and `--trace` run on one thread.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// One puzzle's answer.
enum Answer {
    Solved(Grid, Option<u64>, Option<Proved>),
    NoSolution(Option<Proved>),
    Stopped(String),
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = args.input.read()?;
    let (spec, mut solver) = args.how.build(args.trace)?;
    let format = Format::from(args.format);
    let mut prover = Prover::new(&args.proofs, &spec)?;
    let mut answers = Vec::with_capacity(inputs.len());
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs > 1 && prover.is_none() && !args.trace && inputs.len() > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .context("cannot start the solving threads")?;
        let results: Vec<Result<(Answer, Vec<String>)>> = pool.install(|| {
            inputs
                .par_iter()
                .enumerate()
                .map_init(
                    || args.how.build(false).map(|(_, solver)| solver),
                    |solver, (i, input)| match solver {
                        Ok(solver) => solve_one(&args, &spec, solver.as_mut(), None, i, input),
                        Err(e) => Err(anyhow::anyhow!("{e:#}")),
                    },
                )
                .collect()
        });
        for result in results {
            let (answer, notes) = result?;
            for note in notes {
                eprintln!("{note}");
            }
            answers.push(answer);
        }
    } else {
        for (i, input) in inputs.iter().enumerate() {
            let (answer, notes) =
                solve_one(&args, &spec, solver.as_mut(), prover.as_mut(), i, input)?;
            for note in notes {
                eprintln!("{note}");
            }
            answers.push(answer);
        }
    }
    let mut all_good = true;
    write_output(args.output.as_deref(), |w| {
        if format == Format::Csv2 {
            w.write_all(b"puzzle\n")?;
        }
        for (i, answer) in answers.iter().enumerate() {
            if i > 0 && matches!(format, Format::Block | Format::Grid | Format::Pretty) {
                w.write_all(b"\n")?;
            }
            match answer {
                Answer::Solved(grid, count, proved) => {
                    write_grid(w, grid, format)?;
                    match count {
                        None => {}
                        Some(1) => writeln!(w, "unique{}", Proved::suffix(proved))?,
                        Some(_) => {
                            all_good = false;
                            writeln!(w, "multiple (≥2)")?;
                        }
                    }
                }
                Answer::NoSolution(proved) => {
                    all_good = false;
                    writeln!(w, "no solution{}", Proved::suffix(proved))?;
                }
                Answer::Stopped(why) => {
                    all_good = false;
                    writeln!(w, "stopped: {why}")?;
                }
            }
        }
        Ok(())
    })?;
    if let Some(prover) = prover {
        prover.finish()?;
    }
    Ok(ExitCode::from(if all_good {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

/// Solves puzzle `i` (0-based): its answer, and the lines for standard error (statistics,
/// trace) in order.
fn solve_one(
    args: &Args,
    spec: &SolverSpec,
    solver: &mut dyn Solver,
    mut prover: Option<&mut Prover>,
    i: usize,
    input: &InputGrid,
) -> Result<(Answer, Vec<String>)> {
    if let Some(prover) = prover.as_deref() {
        prover.ask(solver, i + 1);
    }
    let start = Instant::now();
    args.how
        .check_memory(&input.grid)
        .with_context(|| input.location())?;
    let report = solver
        .solve(&input.grid)
        .with_context(|| input.location())?;
    let total = start.elapsed();
    let mut notes = Vec::new();
    if args.stats {
        notes.push(stats_line(
            i + 1,
            &input.location(),
            spec,
            solver,
            &report.counters,
            total,
        ));
    }
    for line in solver.trace_lines() {
        notes.push(format!(
            "trace: puzzle {} ({}): {line}",
            i + 1,
            input.location()
        ));
    }
    let answer = match report.outcome {
        SolveOutcome::Solved(grid) => {
            let check = check_solution(&input.grid, &grid);
            if !check.is_valid() {
                bail!(
                    "{}: solver `{}` returned a grid that is not a solution",
                    input.location(),
                    solver.name()
                );
            }
            let count = if args.unique {
                if let Some(prover) = &prover {
                    prover.ask(solver, i + 1);
                }
                let count = solver
                    .count_solutions(&input.grid, 2)
                    .with_context(|| input.location())?;
                Some(count.with_context(|| {
                    format!("solver `{}` cannot count solutions", solver.name())
                })?)
            } else {
                None
            };
            let proved = match prover.as_deref_mut() {
                Some(prover) if count == Some(1) => {
                    prover.collect(solver, i + 1, input, "unique")?
                }
                _ => None,
            };
            Answer::Solved(grid, count, proved)
        }
        SolveOutcome::NoSolution => {
            let proved = match prover.as_deref_mut() {
                Some(prover) => prover.collect(solver, i + 1, input, "no solution")?,
                None => None,
            };
            Answer::NoSolution(proved)
        }
        SolveOutcome::Stopped(why) => Answer::Stopped(why),
    };
    if let (Some(prover), Answer::Solved(_, count, _)) = (prover, &answer) {
        if *count != Some(1) {
            // No UNSAT answer to prove: drop the partial proof.
            prover.collect(solver, i + 1, input, "")?;
        }
    }
    Ok((answer, notes))
}

fn micros(d: Duration) -> String {
    format!("{:.1}µs", d.as_secs_f64() * 1e6)
}

fn stats_line(
    index: usize,
    location: &str,
    spec: &SolverSpec,
    solver: &dyn Solver,
    counters: &sudosat::backend::Counters,
    total: Duration,
) -> String {
    match (spec, solver.sat_stats()) {
        (SolverSpec::Sat { encoding, backend }, Some(s)) => {
            format!(
                "stats: puzzle {index} ({location}): encoding={} backend={} vars={} clauses={} \
                 literals={} {} encode={} solve={} decode={} total={}",
                encoding.name(),
                backend.label(),
                s.size.vars,
                s.size.clauses,
                s.size.literals,
                s.backend,
                micros(s.encode_time),
                micros(s.solve_time),
                micros(s.decode_time),
                micros(total)
            )
        }
        _ => format!(
            "stats: puzzle {index} ({location}): solver={} {counters} total={}",
            solver.name(),
            micros(total)
        ),
    }
}
