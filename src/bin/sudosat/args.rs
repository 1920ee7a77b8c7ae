//! The argument structs the subcommands share, in one place: puzzle inputs and the output
//! format, the encoding, the SAT backend, and the grid-level solver with the classic
//! solvers' options. Raw flags become library values here ([`SudokuEncoding`],
//! [`BackendSpec`], [`SolverSpec`]) and nowhere else; each subcommand's own `Args` (beside
//! its `run`) flattens what it takes. Every flag whose values are a library name table
//! reads them through [`named`], so a new backend, encoding or format needs no edit here.

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::builder::{PossibleValue, TypedValueParser};
use sudosat::backend::{BackendKind, BackendSpec, LoadMode, Lookahead, Propagate, RootMode};
use sudosat::encode::{AmoFamily, BaseEncoding, SudokuEncoding};
use sudosat::grid::{Format, Grid};
use sudosat::names::{NameTable, UnknownName};
use sudosat::solve::sat::DEFAULT_ENCODING;
use sudosat::solve::spec::MAX_THREADS;
use sudosat::solve::{
    BacktrackOrder, ClassicKind, HillObjective, Solver, SolverOptions, SolverSpec,
};

use crate::common::{inputs_or_stdin, read_located_inputs, time_limit, InputGrid};

/// The `--max-memory` budget lives in `common`, beside `--timeout`'s, so that `common`
/// needs nothing of this module; `compare` still reads it here.
use crate::common::memory_budget;

/// The value parser of a flag taking one name of a library table (`named_enum!`): the
/// table's names in `--help` and completions, and the library's one-line error, e.g.
/// "unknown order `zigzag` (expected one of: row, column, random, box, mrv)".
pub fn named<T>() -> Named<T> {
    Named(PhantomData)
}

/// See [`named`].
#[derive(Clone, Copy, Debug)]
pub struct Named<T>(PhantomData<T>);

impl<T> TypedValueParser for Named<T>
where
    T: NameTable + std::str::FromStr<Err = UnknownName> + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let parse = |s: &str| s.parse::<T>();
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        possible_names::<T>()
    }
}

/// A name table's names, for `--help` and the completions.
fn possible_names<T: NameTable>() -> Option<Box<dyn Iterator<Item = PossibleValue>>> {
    Some(Box::new(
        T::names().iter().map(|&name| PossibleValue::new(name)),
    ))
}

/// The value parser of `--backend`: a backend's name, or `external:COMMAND` /
/// `minisat:COMMAND` with the solver's command line, as the labels in `--stats`, compare's
/// tables and its `--solvers` write them ([`BackendSpec::from_label`]). `--help` and the
/// completions list the names.
#[derive(Clone, Copy, Debug)]
pub struct BackendLabel;

impl TypedValueParser for BackendLabel {
    type Value = BackendSpec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<BackendSpec, clap::Error> {
        let parse = |s: &str| BackendSpec::from_label(s);
        parse.parse_ref(cmd, arg, value)
    }

    /// Each backend with its registry row's help line: what it is, what it can do beyond
    /// solving, and the cargo feature that brings it, if one does.
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(BackendKind::ALL.into_iter().map(|kind| {
            PossibleValue::new(kind.name()).help(kind.entry().help_line())
        })))
    }
}

/// The puzzle inputs of every command that reads puzzles: files (`-` or none = standard
/// input) and the format to read them in.
#[derive(clap::Args, Debug)]
pub struct PuzzleInputs {
    /// Puzzle files; `-` or none reads standard input.
    #[arg(value_name = "PUZZLE")]
    pub files: Vec<PathBuf>,
    /// Input format; detected from each file's content when not given.
    #[arg(long, value_name = "FORMAT", value_parser = named::<Format>())]
    pub from: Option<Format>,
}

/// The output format of the commands that write puzzles or solutions (`--to`).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct OutputFormat {
    /// Output format.
    #[arg(
        long = "to",
        value_name = "FORMAT",
        default_value_t = Format::Line,
        value_parser = named::<Format>()
    )]
    pub to: Format,
}

impl From<OutputFormat> for Format {
    fn from(f: OutputFormat) -> Format {
        f.to
    }
}

impl PuzzleInputs {
    /// The input paths, `-` when none was given.
    pub fn paths(&self) -> Vec<PathBuf> {
        inputs_or_stdin(&self.files)
    }

    /// Every puzzle of every input, with where it starts.
    pub fn read(&self) -> Result<Vec<InputGrid>> {
        read_located_inputs(&self.paths(), self.from)
    }
}

/// The encoding flags of every command that encodes (`encode`, `decode`, `solve`,
/// `count`): one base encoding, the reduction, the at-most-one family.
#[derive(clap::Args, Debug, Clone)]
pub struct EncodingArgs {
    /// Base encoding [default: extended].
    ///
    /// Base encoding: minimal or extended (Lynce & Ouaknine 2006), or augmented (extended
    /// plus tdoku's row/column segments of each box) [default: extended].
    #[arg(long, value_name = "ENCODING", value_parser = named::<BaseEncoding>())]
    pub encoding: Option<BaseEncoding>,
    /// Apply the V⁺/V⁻ reduction (Kwon & Jain 2006).
    ///
    /// Apply the V⁺/V⁻ reduction of Kwon & Jain (2006). The default of `solve` and `count`
    /// (faster: docs/benchmarks/encoding.md, "Encoding sizes") but not of `encode` and
    /// `decode`: an exported file keeps the plain (r,c,v) numbering that a reader can decode
    /// by hand.
    #[arg(long, overrides_with = "no_reduce")]
    pub reduce: bool,
    /// Encode without the reduction.
    #[arg(long = "no-reduce", overrides_with = "reduce")]
    pub no_reduce: bool,
    /// At-most-one family.
    #[arg(long, value_name = "FAMILY", default_value_t = AmoFamily::Pairwise, value_parser = named::<AmoFamily>())]
    pub amo: AmoFamily,
}

impl EncodingArgs {
    /// The encoding the flags select, `default` where they are silent (the command's own:
    /// extended for `encode`, [`DEFAULT_ENCODING`] for `solve`).
    pub fn encoding(&self, default: SudokuEncoding) -> SudokuEncoding {
        let reduced = match (self.reduce, self.no_reduce) {
            (_, true) => false,
            (true, _) => true,
            _ => default.reduced,
        };
        SudokuEncoding::new(self.encoding.unwrap_or(default.base), reduced).with_amo(self.amo)
    }
}

/// Which SAT backend: the options `solve`, `count` and `sat` share.
#[derive(clap::Args, Debug, Clone)]
pub struct BackendArgs {
    /// Grid-level solver: sat (the default), dlx, backtrack, human, ….
    ///
    /// `sat` encodes the puzzle and solves it with the SAT backend (`--backend`); the
    /// classic solvers work on the grid itself. An external SAT solver's command line is
    /// not a solver name: it goes in `--solver-cmd` or `--backend "external:COMMAND"`.
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,
    /// Command line of an external SAT solver, e.g. "cadical -q".
    ///
    /// For `--backend external` (or `minisat`): the same as `--backend "external:cadical
    /// -q"`. Not `--solver`, which names a grid-level solver.
    #[arg(long, value_name = "COMMAND")]
    pub solver_cmd: Option<String>,
    /// SAT backend, or external:COMMAND.
    ///
    /// SAT backend. The default, cdcl, is the built-in clause-learning solver: it finishes
    /// the grids that need search; dpll is the built-in plain DPLL of the literature;
    /// lookahead the built-in lookahead search (satz, kcnfs, march), best on random k-SAT.
    /// cadical (CaDiCaL 3.0.1) and kissat (Kissat 4.0.4) are the competition's solvers
    /// inside this process, each behind a cargo feature (cadical is built in by default;
    /// kissat needs `--features kissat`, whose build needs libclang): a build without one
    /// names the feature. An external solver's command may follow a colon, as compare
    /// writes it: `external:cadical -q`, `minisat:/opt/minisat` (the same as
    /// --solver-cmd).
    #[arg(long, value_name = "BACKEND", default_value = BackendKind::DEFAULT.name(), value_parser = BackendLabel)]
    pub backend: BackendSpec,
    /// Time limit in seconds of each puzzle or formula.
    ///
    /// Time limit in seconds of each puzzle (or formula), counted from the start of its
    /// encoding; the solves of one `count` or `--unique` check share it. An external
    /// solver process is killed, the built-in solvers and splr stop, and so does varisat,
    /// which then writes proof steps to be stopped by (about 5 % of its time).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Lookahead of dpll; root probing of cdcl.
    ///
    /// Lookahead of the dpll backend: none (unit propagation only), clause (probe the
    /// branching clause's literals before each decision), full (also failed-literal
    /// probing at the root) or auto (none up to 1,000 variables, full above). For cdcl:
    /// root probing before the search (none: never; clause/full: always; auto: above
    /// 1,000 variables); unless none, the first solve of a formula of up to 10,000
    /// variables whose clauses all have k literals, 3 ≤ k ≤ 6 (random k-SAT), goes to a
    /// lookahead search, faster there than CDCL, when one conflict per five variables has
    /// not settled it (with --threads above 1 it races CDCL instead, the first answer
    /// winning, on formulas of up to 20,000 variables).
    #[arg(long, value_name = "LOOKAHEAD", default_value_t = Lookahead::default(), value_parser = named::<Lookahead>())]
    pub lookahead: Lookahead,
    /// How the SAT path loads each puzzle.
    ///
    /// How the SAT path loads each puzzle: `auto` (the default: `root-units` up to 9×9 in
    /// the reduced encodings with cdcl, `reencode` otherwise), `root-units` (keep the empty
    /// grid's encoding loaded once and fix each puzzle's givens at the root, undone before
    /// the next puzzle, so each gets the answer it gets alone; cdcl, others re-encode),
    /// `reencode` (encode each puzzle anew, with the reduction) or `assumptions` (keep the
    /// empty grid's encoding loaded and solve each puzzle under its givens, keeping cdcl's
    /// glue clauses; for backends that take assumptions, others re-encode).
    #[arg(long, value_name = "MODE", default_value_t = LoadMode::default(), value_parser = named::<LoadMode>())]
    pub load: LoadMode,
    /// Native Sudoku propagation of cdcl.
    ///
    /// Native propagation of the cdcl backend when the formula comes from a puzzle:
    /// `grid` (the grid as a theory on bit masks kept in step with the search: locked
    /// candidates, and hidden singles on the minimal encodings, beside the clauses),
    /// `grid-only` (the same theory holding all of the grid's rules, so no formula is built:
    /// the solver keeps only learnt clauses), `grid-hall` and `grid-only-hall` (either with
    /// Hall sets of every unit and fish, on matchings kept across calls, at the root),
    /// `sudoku` (all-different with Hall sets rebuilt at every call, and
    /// locked candidates), `hall` or `locked` (one of the two), `none` (clauses only) or
    /// `auto` (the default: the measured best, which is clauses only on every grid size:
    /// on hard 25×25 draws every mode ends within the draws' spread, `grid` is slower on
    /// 64×64, and on 9×9 `grid-only` gains on easy puzzles what it loses on hard ones; see
    /// docs/benchmarks/hard.md, "The grid as a theory"). Grids wider than 64 always use
    /// clauses only; with a proof the theory keeps the clauses and makes only inferences a
    /// checker verifies by unit propagation; `sat` (a DIMACS file, no grid) takes only
    /// `auto`, which is clauses only there.
    #[arg(long, value_name = "MODE", default_value_t = Propagate::default(), value_parser = named::<Propagate>())]
    pub propagate: Propagate,
    /// Reasoning before the encoding: auto, none or hall.
    #[arg(long, value_name = "MODE", default_value_t = RootMode::default(),
          value_parser = named::<RootMode>(), long_help = root_help())]
    pub root: RootMode,
    /// Threads of one cdcl solve (default: every core).
    ///
    /// Threads of one cdcl solve (default: every core). A search still open after 2,000
    /// conflicts goes on as a portfolio of diversified copies of the solver; the first to
    /// answer wins (on uniform random k-SAT the second thread runs the lookahead search
    /// instead, see --lookahead). With more than one thread a puzzle or formula
    /// with several solutions may get a different one from run to run; 1 is
    /// deterministic. `solve` and `count` with several puzzles on several `--jobs` give
    /// each one thread, and a puzzle solved alone the cores `--jobs` gives (`--jobs 1`:
    /// one); `compare` always uses one.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Seed of cdcl's search and the random solvers.
    ///
    /// Seed of cdcl's search (and, in `solve` and `count`, of the randomised classic
    /// solvers: backtrack-random, hill): with a seed other than 0, cdcl takes its first decisions in a seeded random
    /// order instead of the variables' order, another draw of the same search (the answer
    /// is the same; on a hard grid the time is not). An external solver's command gets it
    /// where it says `{seed}` (`--solver-cmd "cadical -q --seed={seed}"`).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}

impl BackendArgs {
    /// The backend the flags select.
    ///
    /// # Errors
    /// A bad time-out, a thread count out of range, or an external backend without a
    /// command.
    pub fn backend_spec(&self) -> Result<BackendSpec> {
        let timeout = self.time_limit()?;
        if let Some(threads) = self.threads.filter(|t| !(1..=MAX_THREADS).contains(t)) {
            bail!("--threads must be between 1 and {MAX_THREADS}, not {threads}");
        }
        if let (Some(command), Some(other)) = (&self.backend.command, &self.solver_cmd) {
            if command != other {
                bail!(
                    "--backend {} and --solver-cmd \"{other}\" name two solver commands",
                    self.backend.label()
                );
            }
        }
        let given = || (self.backend.command.clone()).or_else(|| self.solver_cmd.clone());
        let command = match self.backend.kind {
            BackendKind::External => Some(given().with_context(|| {
                "--backend external needs the solver command: --backend \"external:cadical -q\" \
                 or --solver-cmd \"cadical -q\""
            })?),
            BackendKind::Minisat => given(),
            _ => None,
        };
        Ok(BackendSpec {
            command,
            timeout,
            lookahead: self.lookahead,
            load: self.load,
            propagate: self.propagate,
            root: self.root,
            threads: self.threads.unwrap_or_else(sudosat::run::available_cores),
            seed: self.seed,
            ..BackendSpec::new(self.backend.kind)
        })
    }

    /// The `--timeout` as a duration.
    ///
    /// # Errors
    /// A time-out that is not a positive number.
    pub fn time_limit(&self) -> Result<Option<Duration>> {
        time_limit(self.timeout)
    }
}

/// `--root`'s long help: what each mode does, `auto`'s rule built from its constants.
pub fn root_help() -> String {
    format!(
        "Reasoning before the encoding: auto, none or hall.\n\n\
         Reason on the grid before encoding it (every backend), and encode what is left, the \
         removed candidates as unit clauses; a grid it settles needs no search, and a \
         contradiction is the answer \"no solution\". `hall` runs naked and hidden singles, \
         locked candidates, every Hall set of every row, column and box and every digit's \
         rows against its columns (fish of any size) to their fixpoint on every grid. \
         `auto` (the default) runs them {}. `none` encodes the puzzle as it is. Not with a \
         proof (the checker needs the puzzle's own formula) nor `--load assumptions`. \
         `--stats` says how it ended: root=settled, probed (a probe's solution), fixpoint, \
         unpaid (the Hall rounds stopped), stopped or refuted.",
        RootMode::auto_summary()
    )
}

/// How to solve: the options `solve` and `count` share.
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    #[command(flatten)]
    pub sat: BackendArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Memory budget of the sat solver, e.g. 512M or 8G.
    ///
    /// Memory budget of the `sat` solver, e.g. 512M or 8G (K, M, G, T: powers of 1024;
    /// default half the memory available): a formula estimated above it is refused before
    /// it is built, and cdcl's portfolio (`--threads`) copies the solver only into what
    /// the solver leaves of it.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Work cap of the classic solvers.
    ///
    /// Work cap of the classic solvers: assignments (backtrack), iterations (hill, default
    /// 2,000,000), expansions (best-first, fifo); reaching it answers "stopped".
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<u64>,
    /// Cell order of --solver backtrack.
    ///
    /// Cell order of `--solver backtrack`: row, column, random, box, mrv.
    #[arg(long, value_name = "ORDER", default_value_t = BacktrackOrder::Mrv, value_parser = named::<BacktrackOrder>())]
    pub order: BacktrackOrder,
    /// Objective of --solver hill.
    ///
    /// Objective of `--solver hill`: sum (the literature's) or duplicates.
    #[arg(long, value_name = "OBJECTIVE", default_value_t = HillObjective::Duplicates, value_parser = named::<HillObjective>())]
    pub objective: HillObjective,
    /// Probability of hill's β operator, in 0…1.
    ///
    /// Probability of the β operator of `--solver hill`, in 0…1.
    #[arg(long, value_name = "P", default_value_t = sudosat::solve::hill_climb::DEFAULT_BETA)]
    pub beta: f64,
    /// Pruning threshold of best-first and fifo.
    ///
    /// Pruning threshold of `--solver best-first`/`fifo`: states with more open candidates
    /// are dropped.
    #[arg(long, value_name = "N")]
    pub threshold: Option<u64>,
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

impl SolverArgs {
    /// The memory budget of the `sat` solver (`--max-memory`, default half the memory
    /// available now): read once for a batch, whose puzzles [`SolverArgs::check_memory`]
    /// checks against it (reading the system's figures per puzzle took more time than a
    /// 9×9 solve).
    pub fn memory_budget(&self) -> Option<u64> {
        memory_budget(self.max_memory)
    }

    /// Refuses, before anything is built, a `sat` solve whose formula would not fit in
    /// `budget` ([`SolverArgs::memory_budget`]).
    ///
    /// # Errors
    /// The formula's size and the ways out, when over budget.
    pub fn check_memory(&self, puzzle: &Grid, budget: Option<u64>) -> Result<()> {
        if self.solver_name() != "sat" {
            return Ok(());
        }
        if let Some(budget) = budget {
            sudosat::encode::check_memory_budget(self.encoding(), puzzle, budget)?;
        }
        Ok(())
    }

    /// The encoding the flags select, [`DEFAULT_ENCODING`] where they are silent.
    pub fn encoding(&self) -> SudokuEncoding {
        self.encoding.encoding(DEFAULT_ENCODING)
    }

    /// The grid-level solver name (`sat` unless `--solver` names another).
    pub fn solver_name(&self) -> &str {
        self.sat.solver.as_deref().unwrap_or("sat")
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
            return Ok(SolverSpec::sat(
                self.encoding(),
                self.sat.backend_spec()?.with_memory(self.max_memory),
            ));
        }
        if !(0.0..=1.0).contains(&self.beta) {
            bail!("--beta must be between 0 and 1, not {}", self.beta);
        }
        let external = matches!(
            self.sat.backend.kind,
            BackendKind::External | BackendKind::Minisat
        );
        match ClassicKind::from_name(name) {
            Some(kind) => Ok(SolverSpec::classic_with(kind, self.solver_options(trace))),
            None if external => bail!(
                "--solver names a grid-level solver (sat, {}), not a command line: give the \
                 external solver's command with --solver-cmd \"{name}\"",
                ClassicKind::NAMES.join(", ")
            ),
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

    /// The flags one solver of a run over several puzzles gets: the puzzles share the
    /// cores, so each solve has one thread when they run `parallel`, and otherwise the
    /// cores `--jobs` gives (one in all with `--jobs 1`, the cdcl portfolio included);
    /// `--threads` overrides both.
    pub fn sharing(&self, jobs: Option<usize>, parallel: bool) -> SolverArgs {
        let mut how = self.clone();
        let threads = if parallel { Some(1) } else { jobs };
        how.sat.threads = how.sat.threads.or(threads);
        how
    }

    /// The classic solvers' options the flags select.
    pub fn solver_options(&self, trace: bool) -> SolverOptions {
        SolverOptions {
            seed: self.sat.seed,
            max_iterations: self.max_iterations,
            backtrack_order: self.order,
            hill_objective: self.objective,
            beta: self.beta,
            threshold: self.threshold,
            trace,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        how: SolverArgs,
    }

    fn threads(flags: &[&str], jobs: Option<usize>, parallel: bool) -> Option<usize> {
        let flags =
            Flags::try_parse_from(std::iter::once("sudosat").chain(flags.iter().copied())).unwrap();
        flags.how.sharing(jobs, parallel).sat.threads
    }

    /// `--jobs` is the cores of the whole run: one solve alone gets them all (one with
    /// `--jobs 1`, the portfolio included), puzzles solved side by side one each, and
    /// `--threads` says otherwise for both; with neither, one solve takes every core.
    #[test]
    fn jobs_share_the_cores_unless_threads_says_otherwise() {
        assert_eq!(threads(&[], Some(1), false), Some(1));
        assert_eq!(threads(&[], Some(3), false), Some(3));
        assert_eq!(threads(&[], Some(3), true), Some(1));
        assert_eq!(threads(&[], None, false), None);
        assert_eq!(threads(&["--threads", "2"], Some(1), false), Some(2));
        assert_eq!(threads(&["--threads", "2"], Some(4), true), Some(2));
    }
}
