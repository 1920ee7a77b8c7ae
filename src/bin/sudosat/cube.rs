//! `sudosat cube`: split any CNF into cubes by lookahead, for `sudosat sat F --cubes C`,
//! CaDiCaL's `p inccnf` files, or any conquering solver (the work is in
//! [`sudosat::cube`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use sudosat::cube::{lookahead_cubes_until, MAX_LOOKAHEAD_VARS};
use sudosat::dimacs::DimacsWriter;

use crate::common::{read_cnf, write_output, EXIT_OK};

/// Exit code of a formula refuted while cubing (a SAT solver's UNSAT code).
const EXIT_UNSAT: u8 = 20;

/// Arguments of `sudosat cube`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The DIMACS CNF file, plain or compressed (`-` or none: standard input).
    #[arg(
        value_name = "FILE.cnf",
        default_value = "-",
        hide_default_value = true
    )]
    file: PathBuf,
    /// Decisions per cube (at most 2^DEPTH cubes).
    ///
    /// Decisions per cube: at most 2^DEPTH cubes (fewer when lookahead refutes branches).
    #[arg(long, short = 'd', value_name = "DEPTH", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Also end a branch once at most N variables are free.
    ///
    /// Also end a branch as a cube once at most N variables are free after its lookahead
    /// (march_cu's cutoff on free variables): branches that propagate far stop early, the
    /// others go on to `--depth`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    free_vars: usize,
    /// Write an incremental CNF (clauses and cubes).
    ///
    /// Write an incremental CNF (`p inccnf`: the clauses, then the cubes) instead of the
    /// cubes alone, for `sudosat sat FILE` or `cadical FILE`.
    #[arg(long)]
    icnf: bool,
    /// Output file (`-` = standard output, the default); written whole or not at all.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs the subcommand: the cubes as `a LITS 0` lines after `c` lines that say how they
/// were made; exit 20 when the formula is refuted (no cube), at the root or in every branch
/// below it.
pub fn run(args: Args) -> Result<ExitCode> {
    let (cnf, _, name) = read_cnf(&args.file)?;
    let start = Instant::now();
    let split = lookahead_cubes_until(&cnf, args.depth as usize, args.free_vars)
        .with_context(|| format!("{name}: cubing"))?;
    let seconds = start.elapsed().as_secs_f64();
    if split.unsat {
        // At the root, or in every branch below it: the same answer either way.
        let place = if split.refuted == 0 {
            "at the root"
        } else {
            "in every branch"
        };
        eprintln!(
            "sudosat: {name}: unsatisfiable: refuted by unit propagation and failed literals \
             {place}; no cube"
        );
    }
    write_output(args.output.as_deref(), |w| {
        let mut out = DimacsWriter::new(w);
        out.comment(&format!(
            "sudosat cube: {} cubes of depth {}{} from {name} ({} vars, {} clauses); {} \
             branches refuted, {} literals forced at the root; lookahead on up to {} \
             variables a node; {seconds:.3} s",
            split.cubes.len(),
            args.depth,
            if args.free_vars > 0 {
                format!(" or {} free variables", args.free_vars)
            } else {
                String::new()
            },
            cnf.num_vars(),
            cnf.num_clauses(),
            split.refuted,
            split.forced_at_root,
            MAX_LOOKAHEAD_VARS
        ));
        if args.icnf {
            out.header_incremental();
            cnf.stream_into(&mut out);
        }
        for cube in &split.cubes {
            out.cube(cube);
        }
        out.finish()?;
        Ok(())
    })?;
    Ok(ExitCode::from(if split.unsat {
        EXIT_UNSAT
    } else {
        EXIT_OK
    }))
}
