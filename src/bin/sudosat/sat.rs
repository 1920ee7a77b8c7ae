//! `sudosat sat`: a plain SAT solver on any DIMACS file, answering like a SAT-competition
//! solver (`s`/`v` lines; exit 10 SAT, 20 UNSAT, 0 unknown), with a DRAT proof of an UNSAT
//! answer on request (`--proof`). A file that `encode` wrote names its encoding in its
//! comments, and the backend is told it, so that cdcl learns as it would in `solve`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use sudosat::backbone::{backbone, minimal_unsatisfiable_subformula};
use sudosat::backend::sudoku::Propagate;
use sudosat::backend::{BackendError, BackendKind, LoadMode, ProofTarget, SatOutcome};
use sudosat::compression::Compression;
use sudosat::dimacs::parse_cubes;
use sudosat::dimacs::DimacsWriter;
use sudosat::encode::{memory_estimate, CnfDescription};
use sudosat::formula::FormulaSize;
use sudosat::models::{count_models, Blocking, CountEnd, ModelCount};
use sudosat::run::Deadline;
use sudosat::{ClauseSink, Cnf, Lit, Var};

use crate::args::BackendArgs;
use crate::common::{
    display_path, read_cnf_until, stdin_at_most_once, temp_file_beside, write_output,
    write_packed_copy, EXIT_ERROR,
};
use crate::cubes::{cube_workers, solve_cubes};

/// Arguments of `sudosat sat`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The DIMACS CNF file (`-` or none: standard input).
    ///
    /// Plain or compressed with gzip, bzip2 or xz (told by its first bytes).
    #[arg(
        value_name = "FILE.cnf",
        default_value = "-",
        hide_default_value = true
    )]
    file: PathBuf,
    #[command(flatten)]
    how: BackendArgs,
    /// Write a DRAT proof here when the answer is UNSAT.
    ///
    /// Write a DRAT proof here when the answer is UNSAT (for `drat-trim FILE.cnf P.drat`);
    /// nothing is written for another answer. A name ending .gz, .bz2 or .xz is written
    /// compressed (drat-trim reads plain files: unpack it first). A backend that cannot
    /// write proofs is an error.
    #[arg(long, value_name = "P.drat")]
    proof: Option<PathBuf>,
    /// With `--proof`: write binary DRAT instead of text.
    #[arg(long, requires = "proof")]
    binary_proof: bool,
    /// Memory budget of an in-process backend.
    ///
    /// Memory budget of an in-process backend, e.g. 512M or 8G (default half the memory
    /// available): a formula whose solver state is estimated above it is refused before
    /// the solver is built, and cdcl's portfolio (`--threads`) copies the solver only into
    /// what the solver leaves of it.
    #[arg(long, value_name = "BYTES", value_parser = crate::args::parse_bytes)]
    max_memory: Option<u64>,
    /// Solve under these assumptions (DIMACS literals).
    ///
    /// Solve under these assumptions: DIMACS literals taken as true for this solve only,
    /// separated by spaces or commas (`--assume "3 -17"`; repeatable). UNSAT then means
    /// UNSAT under them, and a `c failed assumptions:` line names those the formula refutes
    /// (cdcl). Other backends take them as unit clauses: the same answer, none named.
    #[arg(
        long,
        value_name = "LITS",
        allow_hyphen_values = true,
        conflicts_with = "proof"
    )]
    assume: Vec<String>,
    /// Cube and conquer: solve under each cube of FILE.
    ///
    /// Cube and conquer: solve the formula under each cube of this file in turn (`a LITS
    /// 0` lines, e.g. march_cu's output), as the cubes of a `p inccnf` file are solved.
    /// The first satisfiable cube gives the answer and a `c cube K of N` line names it;
    /// UNSAT when every cube is and the cubes cover every assignment the formula allows
    /// (else the formula is solved outside them too). cdcl keeps what it learnt from one
    /// cube to the next; other backends solve each cube afresh, its literals as unit
    /// clauses. `--timeout` covers all the cubes. With `--proof` (cdcl), the DRAT proof
    /// refutes the formula through the cubes.
    #[arg(long, value_name = "FILE")]
    cubes: Option<PathBuf>,
    /// Print no `v` lines, only `s SATISFIABLE`.
    ///
    /// Print no `v` lines for a satisfiable formula, only `s SATISFIABLE` (CaDiCaL's and
    /// Kissat's `-n`): the model of a large formula runs to megabytes that a script
    /// asking SAT or UNSAT never reads. The model is still checked against every clause.
    #[arg(short = 'n', long)]
    no_model: bool,
    /// Also print the backbone of a satisfiable formula.
    ///
    /// For a satisfiable formula, also print its backbone: the literals true in every
    /// model (under `--assume`, every model that keeps the assumptions), as `b` lines after
    /// the model (`b 1 -7 … 0`, laid out like `v` lines) and a `c backbone: K of V
    /// variables` line. One solve per variable that no model found so far has shown both
    /// ways (Janota, Lynce & Marques-Silva 2015, with model filtering); `--timeout` covers
    /// them too. Needs a backend that solves under assumptions (cdcl).
    #[arg(long, conflicts_with_all = ["cubes", "mus"])]
    backbone: bool,
    /// Also write a minimal unsatisfiable subformula here.
    ///
    /// For an unsatisfiable formula, also write a minimal unsatisfiable subformula (MUS)
    /// here, as DIMACS: clauses of the formula, in their order, unsatisfiable together and
    /// each of them needed, with a `c` line naming their clause numbers in the input. Found
    /// by deletion with clause-set refinement over one selector per clause (as MUSer2);
    /// `--timeout` covers it too. Needs a backend that solves under assumptions (cdcl).
    #[arg(long, value_name = "MUS.cnf", conflicts_with_all = ["cubes", "assume"])]
    mus: Option<PathBuf>,
    /// Also count the models, up to LIMIT (0: all).
    ///
    /// For a satisfiable formula, also count its models, up to LIMIT (0: all of them), by
    /// blocking each model found and solving again: a `c models: K` line (`at least K` when
    /// the limit or `--timeout` ended the count) and, for an exact count, the model
    /// counting competitions' `c s type mc` (or `pmc`) and `c s exact arb int K` lines.
    /// Projected onto the variables of the formula's `c p show VARS 0` lines when it has
    /// them (models that agree there count once), onto the grid's cell variables in a CNF
    /// that `encode` wrote (a count of grids, as `sudosat count` gives), else onto every
    /// variable. One solve a model: for formulas with few.
    #[arg(long, value_name = "LIMIT", conflicts_with_all = ["proof", "cubes", "backbone", "mus"])]
    count: Option<u64>,
    /// Print statistics as `c` lines after the answer.
    ///
    /// Print statistics as `c` comment lines after the answer: the parse and solve times
    /// and the backend's counters (decisions, propagations, conflicts, …), one per line.
    #[arg(long)]
    stats: bool,
}

/// Refuses the shared backend flags that only mean something for a puzzle, which `sat`
/// would otherwise ignore silently.
fn reject_puzzle_flags(how: &BackendArgs) -> Result<()> {
    if let Some(solver) = how.solver.as_deref().filter(|s| *s != "sat") {
        bail!(
            "--solver {solver}: `sat` solves a DIMACS formula with a SAT backend \
             (--backend); classic solvers need a puzzle (`sudosat solve --solver {solver}`), \
             and an external solver's command line goes in --solver-cmd"
        );
    }
    if how.load != LoadMode::default() {
        bail!("--load chooses how puzzles are loaded (solve, count); `sat` reads one formula");
    }
    if how.propagate != Propagate::default() {
        bail!(
            "--propagate needs a puzzle's rows, columns and boxes (solve, count); \
             `sat` solves a DIMACS formula with clauses only"
        );
    }
    Ok(())
}

/// The literals of `--assume`, each checked against the formula's variables.
fn parse_assumptions(items: &[String], num_vars: usize) -> Result<Vec<Lit>> {
    let mut lits = Vec::new();
    for token in items.iter().flat_map(|item| item.split([' ', ',', '\t'])) {
        if token.is_empty() {
            continue;
        }
        let number: i64 = token
            .parse()
            .ok()
            .filter(|&n: &i64| n != 0)
            .with_context(|| {
                format!("--assume: `{token}` is not a literal (a non-zero integer)")
            })?;
        if number.unsigned_abs() > num_vars as u64 {
            bail!("--assume: literal {number} is above the formula's {num_vars} variables");
        }
        lits.push(Lit::from_dimacs(number));
    }
    Ok(lits)
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    stdin_at_most_once(std::iter::once(args.file.as_path()).chain(args.cubes.as_deref()))?;
    // The flags first: a mistake in them is reported before a large formula is read.
    reject_puzzle_flags(&args.how)?;
    let mut spec = args.how.backend_spec()?.with_memory(args.max_memory);
    // `--timeout` counts from here: reading a large formula is part of the time it takes.
    let deadline = Deadline::after(spec.timeout);
    let parse_start = Instant::now();
    let (mut cnf, report, name) = read_cnf_until(&args.file, &|| deadline.expired())?;
    let parse_time = parse_start.elapsed();
    if report.stopped {
        write_output(None, |w| {
            writeln!(
                w,
                "c sudosat sat: the time limit passed while reading {name} ({} clauses read)",
                report.size.clauses
            )?;
            writeln!(w, "s UNKNOWN")?;
            Ok(())
        })?;
        return Ok(ExitCode::from(0));
    }
    // What follows (the solve, the cubes, the questions after the answer) gets what the
    // reading left; a time-out still names the whole limit.
    let limit = spec.timeout;
    spec.timeout = deadline.remaining();
    let assumptions = parse_assumptions(&args.assume, cnf.num_vars())?;
    let mut cubes = report.cubes;
    if let Some(path) = &args.cubes {
        if !cubes.is_empty() {
            bail!(
                "--cubes {}: {name} has cubes of its own (`p inccnf`); give one or the other",
                path.display()
            );
        }
        let shown = display_path(path);
        let input = sudosat::compression::open(path).with_context(|| shown.clone())?;
        cubes = parse_cubes(input, &shown, cnf.num_vars())?;
        if cubes.is_empty() {
            bail!("--cubes {shown}: no cubes in it (`a LITS 0` lines)");
        }
    }
    let proving_cubes = !cubes.is_empty() && args.proof.is_some();
    if proving_cubes && spec.kind != BackendKind::Cdcl {
        bail!(
            "--proof with cubes: the proof of cube and conquer joins the proofs of the cubes \
             solved under assumptions, which only --backend cdcl writes"
        );
    }
    if spec.kind.is_embedded() {
        check_memory(&name, cnf.size(), args.max_memory)?;
    }
    let mut backend = spec.create()?;
    // The proof goes to a temporary file beside its path, renamed into place only for an
    // UNSAT answer: a time-out, a SAT answer or a signal leaves no partial proof behind.
    let proof_temp = match &args.proof {
        Some(path) if path == std::path::Path::new("-") => {
            bail!("--proof needs a file name (a proof is not written to standard output)")
        }
        Some(path) => Some(temp_file_beside(path)?),
        None => None,
    };
    let _proof_guard = proof_temp
        .as_ref()
        .map(|tmp| crate::signals::track_output(tmp.path()));
    let proof_format = crate::common::proof_format(args.binary_proof);
    if let (Some(path), Some(tmp), false) = (&args.proof, &proof_temp, proving_cubes) {
        let format = proof_format;
        backend
            .set_proof(Some(ProofTarget {
                path: tmp.path().to_path_buf(),
                format,
            }))
            .with_context(|| format!("--proof {}", path.display()))?;
    }
    // A CNF that `encode` wrote names its encoding in its comments: the backend then solves
    // it as `solve` would (cdcl learns differently on the minimal encoding). A file that
    // does not describe a puzzle is a plain formula, not an error.
    let description =
        CnfDescription::from_comments(report.preamble.iter().map(String::as_str)).ok();
    let encoding_hint = description.as_ref().map(|d| d.encoding);
    if let Some(encoding) = encoding_hint {
        backend.set_shrinking(sudosat::solve::sat::shrinks_learnt_clauses(encoding));
    }
    let (num_vars, num_clauses) = (cnf.num_vars(), cnf.num_clauses());
    let under_assumptions = backend.takes_assumptions();
    let query = match (args.backbone, &args.mus) {
        (false, None) => None,
        (backbone, mus) => {
            let flag = if backbone { "--backbone" } else { "--mus" };
            if !under_assumptions {
                bail!(
                    "{flag}: asks many questions of one solver under assumptions, which \
                     --backend {} cannot answer; use --backend cdcl",
                    backend.name()
                );
            }
            if let Some(path) = mus.as_deref().filter(|p| *p == std::path::Path::new("-")) {
                bail!(
                    "--mus {}: needs a file name (standard output has the answer)",
                    path.display()
                );
            }
            Some(cnf.clone())
        }
    };
    let mut counters = None;
    let mut cube_line = None;
    let mut per_cube = Vec::new();
    let solve_start = Instant::now();
    let outcome = if cubes.is_empty() {
        None
    } else {
        let target = proof_temp.as_ref().map(|tmp| ProofTarget {
            path: tmp.path().to_path_buf(),
            format: proof_format,
        });
        let workers = cube_workers(spec.threads, cubes.len(), cnf.size(), args.max_memory);
        let run = solve_cubes(
            &spec,
            encoding_hint,
            &cnf,
            &assumptions,
            &cubes,
            workers,
            target.as_ref(),
        )?;
        counters = Some(run.counters);
        cube_line = Some(run.line);
        per_cube = run.per_cube;
        Some(run.outcome)
    };
    if outcome.is_none() && !under_assumptions {
        // The same answer from unit clauses; only the failed ones cannot be named.
        for &lit in &assumptions {
            cnf.add_clause(&[lit]);
        }
    }
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => {
            backend.add_formula(&mut cnf);
            if under_assumptions {
                backend.solve_under(&assumptions)
            } else {
                backend.solve()
            }
        }
    };
    let solve_time = solve_start.elapsed();
    let outcome = outcome.map_err(|e| match e {
        BackendError::Timeout { solver, .. } => BackendError::Timeout {
            solver,
            timeout: limit.unwrap_or_default(),
        },
        e => e,
    });
    let failed = match &outcome {
        Ok(SatOutcome::Unsat)
            if cubes.is_empty() && !assumptions.is_empty() && under_assumptions =>
        {
            Some(backend.failed_assumptions())
        }
        _ => None,
    };
    // A question that fails (a time-out) still leaves the answer, and a proof, in place.
    let queried = match (query, &outcome) {
        (Some(formula), Ok(answer)) => query_answer(
            &args,
            &spec,
            formula,
            answer,
            &assumptions,
            &deadline,
            &name,
        ),
        (None, Ok(answer)) if args.count.is_some() => {
            let projection = match (report.projection, &description) {
                (Some(shown), _) => Projection::Shown(shown),
                (None, Some(d)) => Projection::Cells(d.var_map().num_cell_vars()),
                (None, None) => Projection::Every(num_vars),
            };
            let assumptions = if under_assumptions {
                &assumptions[..]
            } else {
                &[]
            };
            let limit = args.count.filter(|&limit| limit > 0);
            count_answer(
                backend.as_mut(),
                answer,
                &projection,
                assumptions,
                limit,
                &deadline,
            )
        }
        _ => Ok(Vec::new()),
    };
    if let (Some(path), Some(tmp)) = (&args.proof, proof_temp) {
        backend
            .finish_proof()
            .with_context(|| format!("--proof {}", path.display()))?;
        if matches!(outcome, Ok(SatOutcome::Unsat)) {
            if Compression::for_path(path) == Compression::None {
                tmp.persist(path)
                    .with_context(|| format!("--proof {}: cannot write", path.display()))?;
            } else {
                // The solver writes plain DRAT as it goes; packed afterwards, as every output
                // named so is, through another temp file renamed into place.
                write_packed_copy(tmp.path(), path, &format!("--proof {}", path.display()))?;
            }
        }
    }
    // A time-out or a solver that gave up is the competition's `s UNKNOWN`, exit 0; a
    // solver that is missing, crashed, printed garbage or a wrong model is an error (exit 2,
    // on stderr too), with the same `s UNKNOWN` on stdout for scripts reading `s` lines.
    let failure = match &outcome {
        Err(BackendError::Timeout { .. } | BackendError::GaveUp { .. }) | Ok(_) => None,
        Err(e) => Some(e.to_string()),
    };
    let failure = failure.or_else(|| queried.as_ref().err().map(|e| format!("{e:#}")));
    if failure.is_some() {
        // A solver killed by the signal's handler is not the answer: the signal's exit is.
        crate::signals::settle();
    }
    let code = match &outcome {
        _ if queried.is_err() => EXIT_ERROR,
        Ok(SatOutcome::Sat(_)) => 10,
        Ok(SatOutcome::Unsat) => 20,
        Err(_) if failure.is_some() => EXIT_ERROR,
        Err(_) => 0,
    };
    write_output(None, |w| {
        writeln!(
            w,
            "c sudosat sat: {} ({} vars, {} clauses)",
            backend.name(),
            num_vars,
            num_clauses
        )?;
        if let Some(line) = &cube_line {
            writeln!(w, "c {line}")?;
        }
        match outcome {
            Ok(SatOutcome::Sat(_)) if args.no_model => writeln!(w, "s SATISFIABLE")?,
            Ok(SatOutcome::Sat(model)) => {
                writeln!(w, "s SATISFIABLE")?;
                let lits: Vec<Lit> = model.lits().take(num_vars).collect();
                write_literal_lines(w, 'v', &lits)?;
            }
            Ok(SatOutcome::Unsat) => {
                writeln!(w, "s UNSATISFIABLE")?;
                match &failed {
                    Some(lits) if lits.is_empty() => {
                        writeln!(w, "c failed assumptions: none (UNSAT without them)")?
                    }
                    Some(lits) => {
                        let words: Vec<String> =
                            lits.iter().map(|l| l.to_dimacs().to_string()).collect();
                        writeln!(w, "c failed assumptions: {} 0", words.join(" "))?;
                    }
                    None if !assumptions.is_empty() => writeln!(
                        w,
                        "c failed assumptions: not named ({} takes them as unit clauses)",
                        backend.name()
                    )?,
                    None => {}
                }
            }
            Err(e) => {
                writeln!(w, "c error: {e}")?;
                writeln!(w, "s UNKNOWN")?;
            }
        }
        match &queried {
            Ok(lines) => {
                for line in lines {
                    writeln!(w, "{line}")?;
                }
            }
            Err(e) => writeln!(w, "c error: {e:#}")?,
        }
        if args.stats {
            writeln!(w, "c parse time: {:.6} s", parse_time.as_secs_f64())?;
            writeln!(w, "c solve time: {:.6} s", solve_time.as_secs_f64())?;
            for (counter, value) in counters.unwrap_or_else(|| backend.counters()).0 {
                writeln!(w, "c {counter}: {value}")?;
            }
            // The balance of a split: which cube held a worker, and for how long.
            for t in &per_cube {
                writeln!(
                    w,
                    "c cube {} of {}: {} in {:.6} s (worker {})",
                    t.cube + 1,
                    cubes.len(),
                    t.ended,
                    t.seconds,
                    t.worker + 1
                )?;
            }
        }
        Ok(())
    })?;
    if let Some(message) = failure {
        eprintln!("sudosat: error: {name}: {message}");
    }
    Ok(ExitCode::from(code))
}

/// The variables a model count tells models apart by.
enum Projection {
    /// The variables of the formula's `c p show` lines.
    Shown(Vec<Var>),
    /// The first K variables: a grid's cell variables, in a CNF that `encode` wrote.
    Cells(usize),
    /// All N variables of the formula.
    Every(usize),
}

impl Projection {
    fn vars(&self) -> Vec<Var> {
        match self {
            Projection::Shown(vars) => vars.clone(),
            Projection::Cells(n) | Projection::Every(n) => (0..*n).map(Var::from_index).collect(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Projection::Shown(vars) => vars.len(),
            Projection::Cells(n) | Projection::Every(n) => *n,
        }
    }

    fn describe(&self, num_vars: usize) -> String {
        let source = match self {
            Projection::Shown(_) => "its `c p show` lines",
            Projection::Cells(_) => "the grid's cell variables",
            Projection::Every(_) => "every variable",
        };
        format!(
            "c projection: {} of {num_vars} variables ({source})",
            self.len()
        )
    }
}

/// `--count`: the lines that report the model count of `answer` (0 for UNSAT), counted on
/// `backend`, which found it, by blocking clauses.
fn count_answer(
    backend: &mut dyn sudosat::backend::SatBackend,
    answer: &SatOutcome,
    projection: &Projection,
    assumptions: &[Lit],
    limit: Option<u64>,
    deadline: &Deadline,
) -> Result<Vec<String>> {
    let num_vars = backend.num_vars();
    let count = match answer {
        SatOutcome::Sat(model) => {
            // A grid's cells hold one digit each: its true cell literals tell it apart.
            let blocking = match projection {
                Projection::Cells(_) => Blocking::TrueLiterals,
                _ => Blocking::Full,
            };
            let vars = projection.vars();
            count_models(
                backend,
                model,
                &vars,
                blocking,
                assumptions,
                limit,
                deadline,
            )
            .context("--count")?
        }
        SatOutcome::Unsat => ModelCount {
            models: 0,
            end: CountEnd::Exhausted,
        },
    };
    let mut lines = vec![projection.describe(num_vars)];
    let models = count.models;
    lines.push(match count.end {
        CountEnd::Exhausted => format!("c models: {models}"),
        CountEnd::Limit => format!("c models: at least {models} (the limit of --count)"),
        CountEnd::TimeLimit => format!("c models: at least {models} (the time limit)"),
    });
    if count.is_exact() {
        let projected = projection.len() < num_vars;
        let kind = if projected { "pmc" } else { "mc" };
        lines.push(format!("c s type {kind}"));
        let log10 = if models == 0 {
            "-inf".to_string()
        } else {
            format!("{:.6}", (models as f64).log10())
        };
        lines.push(format!("c s log10-estimate {log10}"));
        lines.push(format!("c s exact arb int {models}"));
    }
    Ok(lines)
}

/// Literals as DIMACS lines of `kind` (`v`, `b`), 16 a line, ended by `kind 0`.
fn write_literal_lines(w: &mut dyn std::io::Write, kind: char, lits: &[Lit]) -> Result<()> {
    for chunk in lits.chunks(16) {
        let words: Vec<String> = chunk.iter().map(|l| l.to_dimacs().to_string()).collect();
        writeln!(w, "{kind} {}", words.join(" "))?;
    }
    writeln!(w, "{kind} 0")?;
    Ok(())
}

/// `--backbone` of a satisfiable `formula` or `--mus` of an unsatisfiable one, asked of a
/// fresh backend within `deadline`: the lines to print after the answer (the MUS goes to
/// its file). Nothing for the other answer. The backbone's backend takes the formula
/// itself (a 25×25 CNF is 750,000 clauses: no second copy).
fn query_answer(
    args: &Args,
    spec: &sudosat::backend::BackendSpec,
    mut formula: Cnf,
    answer: &SatOutcome,
    assumptions: &[Lit],
    deadline: &Deadline,
    name: &str,
) -> Result<Vec<String>> {
    let mut backend = spec.create()?;
    let mut lines = Vec::new();
    match answer {
        SatOutcome::Sat(model) if args.backbone => {
            let num_vars = formula.num_vars();
            backend.add_formula(&mut formula);
            let backbone = backbone(
                backend.as_mut(),
                num_vars,
                assumptions,
                std::slice::from_ref(model),
                deadline,
            )
            .context("--backbone")?
            .context("--backbone found no model after one was found")?;
            lines.push(format!(
                "c backbone: {} of {num_vars} variables",
                backbone.len()
            ));
            let mut text = Vec::new();
            write_literal_lines(&mut text, 'b', &backbone)?;
            lines.extend(String::from_utf8(text)?.lines().map(str::to_string));
        }
        SatOutcome::Unsat => {
            let Some(path) = &args.mus else {
                return Ok(lines);
            };
            let mus = minimal_unsatisfiable_subformula(backend.as_mut(), &formula, deadline)
                .context("--mus")?
                .context("--mus found a model of an UNSAT formula")?;
            write_output(Some(path), |w| {
                let mut out = DimacsWriter::new(w);
                out.comment(&format!(
                    "minimal unsatisfiable subformula of {name}: {} of {} clauses, each needed",
                    mus.len(),
                    formula.num_clauses()
                ));
                let numbers: Vec<String> = mus.iter().map(|i| (i + 1).to_string()).collect();
                for chunk in numbers.chunks(20) {
                    out.comment(&format!("input clauses: {}", chunk.join(" ")));
                }
                out.header(formula.num_vars(), mus.len());
                for &i in &mus {
                    out.add_clause(formula.clause(i));
                }
                out.finish()?;
                Ok(())
            })?;
            lines.push(format!(
                "c mus: {} of {} clauses, written to {}",
                mus.len(),
                formula.num_clauses(),
                display_path(path)
            ));
        }
        SatOutcome::Sat(_) => {}
    }
    Ok(lines)
}

/// Refuses a formula whose in-process solver state is estimated above the budget
/// (`--max-memory`, default half the available memory): the parsed formula is as large as
/// the file, the solver's copy, watch lists and per-variable arrays are what could not fit.
fn check_memory(name: &str, size: FormulaSize, flag: Option<u64>) -> Result<()> {
    let Some(budget) = crate::common::memory_budget(flag) else {
        return Ok(());
    };
    let needed = memory_estimate(size);
    if needed > budget {
        bail!(
            "{name}: {} variables, {} clauses and {} literals, about {} MiB to solve, over the \
             memory budget of {} MiB; use --backend external (the solver runs in its own \
             process), or raise --max-memory",
            size.vars,
            size.clauses,
            size.literals,
            needed.div_ceil(1 << 20),
            budget >> 20
        );
    }
    Ok(())
}
