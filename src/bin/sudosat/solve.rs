//! `sudosat solve`: solve puzzles with the SAT path (encoding + backend) or a classic solver.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use sudosat::backend::{BackendKind, BackendSpec, Lookahead};
use sudosat::encode::{BaseEncoding, Encoding, SudokuEncoding};
use sudosat::grid::{check_solution, write_grid, Format, Grid};
use sudosat::solve::sat::{SatSolver, DEFAULT_ENCODING};
use sudosat::solve::{
    classic_solver, BacktrackOrder, HillObjective, SolveOutcome, Solver, SolverOptions,
    CLASSIC_SOLVERS,
};

use crate::common::{write_output, FormatArg, PuzzleInputs, EXIT_NEGATIVE, EXIT_OK};

/// `--encoding` values (the base clause set; `--reduce` chooses the reduction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    /// Cell ≥ 1 value; row/column/box ≤ 1 of each value.
    Minimal,
    /// Minimal plus cell ≤ 1 value and row/column/box ≥ 1 of each value.
    Extended,
}

/// Which SAT backend: the options `solve`, `count` and `sat` share.
#[derive(clap::Args, Debug, Clone)]
pub struct BackendArgs {
    /// With `--backend external` (or `minisat`): the solver command line, e.g.
    /// "cadical -q". Otherwise (`solve`, `count`) the grid-level solver: `sat`, the
    /// default (encoding + SAT backend), or a classic solver (dlx, backtrack, human, …).
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// SAT backend: dpll, varisat, splr, minisat, external.
    #[arg(long, value_name = "BACKEND", default_value = BackendKind::DEFAULT.name())]
    pub backend: BackendKind,
    /// Time limit in seconds of each solve: an external solver process is killed, the
    /// built-in solvers stop (varisat cannot be interrupted and ignores it).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Lookahead of the dpll backend: none (unit propagation only), clause (probe the
    /// branching clause's literals before each decision), full (also failed-literal
    /// probing at the root) or auto (none up to 1,000 variables, full above).
    #[arg(long, value_name = "LOOKAHEAD", default_value = Lookahead::default().name(), value_parser = parse_lookahead)]
    pub lookahead: Lookahead,
}

impl BackendArgs {
    /// The backend the flags select.
    ///
    /// # Errors
    /// A bad time-out or an external backend without a command.
    pub fn backend_spec(&self) -> Result<BackendSpec> {
        let timeout = self.time_limit()?;
        let command = match self.backend {
            BackendKind::External => Some(self.solver.clone().with_context(|| {
                "--backend external needs the solver command: --solver \"cadical -q\""
            })?),
            BackendKind::Minisat => self.solver.clone().filter(|s| s != "sat"),
            _ => None,
        };
        Ok(BackendSpec {
            command,
            timeout,
            lookahead: self.lookahead,
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
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub encoding: Option<EncodingArg>,
    /// Apply the Kwon–Jain V⁺/V⁻ reduction (the default).
    #[arg(long, overrides_with = "no_reduce")]
    pub reduce: bool,
    /// Encode without the reduction.
    #[arg(long = "no-reduce", overrides_with = "reduce")]
    pub no_reduce: bool,
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

/// The solver the options select.
pub enum Chosen {
    /// The SAT path (kept concrete for its statistics).
    Sat(Box<SatSolver>),
    /// A classic grid-level solver.
    Other(Box<dyn Solver>),
}

impl Chosen {
    /// As the common trait.
    pub fn solver(&mut self) -> &mut dyn Solver {
        match self {
            Chosen::Sat(s) => s.as_mut(),
            Chosen::Other(s) => s.as_mut(),
        }
    }
}

fn parse_bytes(s: &str) -> Result<u64, String> {
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
        if let Some(budget) = self.max_memory.or_else(default_memory_budget) {
            sudosat::encode::check_memory_budget(self.encoding(), puzzle, budget)?;
        }
        Ok(())
    }

    /// The encoding the flags select.
    pub fn encoding(&self) -> SudokuEncoding {
        let base = match self.encoding {
            None => DEFAULT_ENCODING.base,
            Some(EncodingArg::Minimal) => BaseEncoding::Minimal,
            Some(EncodingArg::Extended) => BaseEncoding::Extended,
        };
        let reduced = if self.no_reduce {
            false
        } else if self.reduce {
            true
        } else {
            DEFAULT_ENCODING.reduced
        };
        SudokuEncoding::new(base, reduced)
    }

    /// The grid-level solver name (`sat` unless `--solver` names another and the backend is
    /// not external).
    pub fn solver_name(&self) -> &str {
        match self.sat.backend {
            BackendKind::External | BackendKind::Minisat => "sat",
            _ => self.sat.solver.as_deref().unwrap_or("sat"),
        }
    }

    /// The solver the flags select.
    ///
    /// # Errors
    /// An unknown solver name or inconsistent flags.
    pub fn build(&self) -> Result<Chosen> {
        self.build_traced(false)
    }

    /// [`SolverArgs::build`], asking the solver to keep a trace (only hill climbing has
    /// one; asking another solver for it is an error).
    ///
    /// # Errors
    /// As [`SolverArgs::build`].
    pub fn build_traced(&self, trace: bool) -> Result<Chosen> {
        let name = self.solver_name();
        if trace && name != "hill" {
            bail!("--trace needs --solver hill (the only solver that keeps a trace), not `{name}`");
        }
        if name == "sat" {
            return Ok(Chosen::Sat(Box::new(SatSolver::new(
                self.encoding(),
                self.sat.backend_spec()?,
            ))));
        }
        if !(0.0..=1.0).contains(&self.beta) {
            bail!("--beta must be between 0 and 1, not {}", self.beta);
        }
        match classic_solver(name, &self.solver_options(trace)) {
            Some(mut solver) => {
                solver.set_time_limit(self.sat.time_limit()?);
                Ok(Chosen::Other(solver))
            }
            None => bail!(
                "unknown solver `{name}` (expected sat, {}); for an external SAT solver use \
                 --backend external --solver \"{name}\"",
                CLASSIC_SOLVERS.join(", ")
            ),
        }
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
    /// Output format of the solutions.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "line")]
    format: FormatArg,
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
}

/// One puzzle's answer.
enum Answer {
    Solved(Grid, Option<u64>),
    NoSolution,
    Stopped(String),
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = args.input.read()?;
    let mut chosen = args.how.build_traced(args.trace)?;
    let format = Format::from(args.format);
    let mut answers = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let start = Instant::now();
        args.how
            .check_memory(&input.grid)
            .with_context(|| input.location())?;
        let report = chosen
            .solver()
            .solve(&input.grid)
            .with_context(|| input.location())?;
        let total = start.elapsed();
        if args.stats {
            print_stats(i + 1, &input.location(), &chosen, &report.counters, total);
        }
        for line in chosen.solver().trace_lines() {
            eprintln!("trace: puzzle {} ({}): {line}", i + 1, input.location());
        }
        let answer = match report.outcome {
            SolveOutcome::Solved(grid) => {
                let check = check_solution(&input.grid, &grid);
                if !check.is_valid() {
                    bail!(
                        "{}: solver `{}` returned a grid that is not a solution",
                        input.location(),
                        chosen.solver().name()
                    );
                }
                let count = if args.unique {
                    let count = chosen
                        .solver()
                        .count_solutions(&input.grid, 2)
                        .with_context(|| input.location())?;
                    Some(count.with_context(|| {
                        format!("solver `{}` cannot count solutions", chosen.solver().name())
                    })?)
                } else {
                    None
                };
                Answer::Solved(grid, count)
            }
            SolveOutcome::NoSolution => Answer::NoSolution,
            SolveOutcome::Stopped(why) => Answer::Stopped(why),
        };
        answers.push(answer);
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
                Answer::Solved(grid, count) => {
                    write_grid(w, grid, format)?;
                    match count {
                        None => {}
                        Some(1) => writeln!(w, "unique")?,
                        Some(_) => {
                            all_good = false;
                            writeln!(w, "multiple (≥2)")?;
                        }
                    }
                }
                Answer::NoSolution => {
                    all_good = false;
                    writeln!(w, "no solution")?;
                }
                Answer::Stopped(why) => {
                    all_good = false;
                    writeln!(w, "stopped: {why}")?;
                }
            }
        }
        Ok(())
    })?;
    Ok(ExitCode::from(if all_good {
        EXIT_OK
    } else {
        EXIT_NEGATIVE
    }))
}

fn micros(d: Duration) -> String {
    format!("{:.1}µs", d.as_secs_f64() * 1e6)
}

fn print_stats(
    index: usize,
    location: &str,
    chosen: &Chosen,
    counters: &sudosat::backend::Counters,
    total: Duration,
) {
    match chosen {
        Chosen::Sat(sat) => {
            let s = sat.stats();
            eprintln!(
                "stats: puzzle {index} ({location}): encoding={} backend={} vars={} clauses={} \
                 literals={} {} encode={} solve={} decode={} total={}",
                sat.encoding().name(),
                sat.spec().label(),
                s.size.vars,
                s.size.clauses,
                s.size.literals,
                s.backend,
                micros(s.encode_time),
                micros(s.solve_time),
                micros(s.decode_time),
                micros(total)
            );
        }
        Chosen::Other(solver) => eprintln!(
            "stats: puzzle {index} ({location}): solver={} {counters} total={}",
            solver.name(),
            micros(total)
        ),
    }
}
