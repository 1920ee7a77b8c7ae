//! `sudosat decode`: a SAT solver's model back into a checked grid.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sudosat::compression::open;
use sudosat::dimacs::{parse_dimacs, read_model_auto, ParseOptions, SolverAnswer};
use sudosat::encode::{read_description, Encoding};
use sudosat::formula::{Model, ModelCheck};
use sudosat::grid::{write_grid, Format};

use crate::args::{named, EncodingArgs};
use crate::common::{display_path, read_inputs, stdin_at_most_once, EXIT_NEGATIVE, EXIT_OK};
use crate::encode::EXPORT_ENCODING;

/// Arguments of `sudosat decode`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The solver's output (MiniSat's or `s`/`v` lines); `-` or none reads standard input.
    #[arg(value_name = "MODEL")]
    model: Option<PathBuf>,
    /// The CNF `sudosat encode` wrote (names puzzle, encoding).
    ///
    /// The CNF written by `sudosat encode`: puzzle and encoding are read from its comments.
    #[arg(long, conflicts_with = "puzzle")]
    cnf: Option<PathBuf>,
    /// The puzzle file (one puzzle), instead of --cnf.
    #[arg(long)]
    puzzle: Option<PathBuf>,
    /// Format of --puzzle (detected when omitted).
    #[arg(long = "from", value_name = "FORMAT", value_parser = named::<Format>())]
    format: Option<Format>,
    /// With --puzzle: the encoding of the CNF, as `encode` was given it.
    #[command(flatten)]
    encoding: EncodingArgs,
    /// Output format of the solved grid.
    #[arg(long, value_name = "FORMAT", default_value_t = Format::Line, value_parser = named::<Format>())]
    to: Format,
}

/// Runs the subcommand: exit 0 with the grid, 1 when the solver found no solution, 2 when
/// the model is not a solution of the puzzle or the solver gave up (UNKNOWN).
pub fn run(args: Args) -> Result<ExitCode> {
    let model_path = args.model.clone().unwrap_or_else(|| PathBuf::from("-"));
    stdin_at_most_once(
        [&model_path]
            .into_iter()
            .chain(&args.cnf)
            .chain(&args.puzzle)
            .map(PathBuf::as_path),
    )?;
    let (puzzle, encoding, map) = match (&args.cnf, &args.puzzle) {
        (Some(cnf), _) if cnf.as_os_str() == "-" => {
            // The file is read twice: its comments, then every clause.
            bail!("--cnf -: the CNF is read twice, so it must be a file, not standard input")
        }
        (Some(cnf), _) => {
            let name = cnf.display().to_string();
            let file = open(cnf).with_context(|| format!("{name}: cannot open"))?;
            let d = read_description(file, &name)?;
            // The formula's own numbering: after `encode --root --simplify`, over the
            // candidates its `removed` lines leave.
            let map = d.var_map();
            (d.puzzle, d.encoding, map)
        }
        (None, Some(path)) => {
            let mut puzzles = read_inputs(std::slice::from_ref(path), args.format)?;
            if puzzles.len() != 1 {
                bail!(
                    "{}: expected one puzzle, found {}",
                    path.display(),
                    puzzles.len()
                );
            }
            let puzzle = puzzles.remove(0);
            let encoding = args.encoding.encoding(EXPORT_ENCODING);
            let map = encoding.var_map(&puzzle);
            (puzzle, encoding, map)
        }
        (None, None) => bail!("give --cnf FILE or --puzzle FILE"),
    };
    let model_name = display_path(&model_path);
    let answer = if model_path.as_os_str() == "-" {
        read_model_auto(
            open(&model_path).context("<stdin>")?,
            "<stdin>",
            map.num_vars(),
        )?
    } else {
        let file = open(&model_path).with_context(|| format!("{model_name}: cannot open"))?;
        read_model_auto(file, &model_name, map.num_vars())?
    };
    // Every clause is read, streamed (the CNF may be gigabytes): a damaged CNF is reported
    // rather than trusted, and a model is checked against each clause, so a solver's wrong
    // model is named even where the decoded grid would pass (a clause over auxiliary
    // variables).
    let no_model = Model::default();
    let model = match &answer {
        SolverAnswer::Sat(model) => model,
        _ => &no_model,
    };
    let mut check = ModelCheck::new(model);
    if let Some(cnf) = &args.cnf {
        let name = cnf.display().to_string();
        let file = open(cnf).with_context(|| format!("{name}: cannot open"))?;
        let report = parse_dimacs(file, &name, &mut check, ParseOptions::default())?;
        for warning in &report.warnings {
            eprintln!("sudosat: warning: {warning}");
        }
        if report.declared.0 != map.num_vars() {
            bail!(
                "{name}: the header declares {} variables but the {} encoding of the \
                 puzzle in its comments has {}",
                report.declared.0,
                encoding.name(),
                map.num_vars()
            );
        }
    } else if matches!(answer, SolverAnswer::Sat(_)) {
        encoding.encode(&puzzle, &mut check);
    }
    match &answer {
        SolverAnswer::Sat(_) => {}
        SolverAnswer::Unsat => {
            println!("no solution: the solver answered UNSAT");
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
        // Not "no solution": a script reading exit 1 as UNSAT must not take a time-out for it.
        SolverAnswer::Unknown => {
            bail!("{model_name}: the solver gave up (UNKNOWN, e.g. a time-out): no model to decode")
        }
    }
    if model.len() > map.num_vars() {
        bail!(
            "{model_name}: the model assigns {} variables but the {} encoding of this puzzle \
             has {}: a model of another formula",
            model.len(),
            encoding.name(),
            map.num_vars()
        );
    }
    // The grid first: "r1c1 is 4 but the puzzle gives 1" says more than a clause number.
    let grid = map
        .decode(model)
        .with_context(|| format!("{model_name}: not a solution of the puzzle"))?;
    if let Some((k, clause)) = &check.falsified {
        let lits: Vec<String> = clause.iter().map(|l| l.to_dimacs().to_string()).collect();
        bail!(
            "{model_name}: a wrong model: it falsifies clause {k} of {} (`{} 0`)",
            check.clauses,
            lits.join(" ")
        );
    }
    let mut out = std::io::stdout().lock();
    write_grid(&mut out, &grid, args.to)?;
    Ok(ExitCode::from(EXIT_OK))
}
