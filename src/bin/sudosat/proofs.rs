//! `--proof-dir` and `--certify` of `solve` and `count`: a DRAT proof for each "no solution"
//! and "unique" verdict of the SAT path, the formula it refutes, an index, and an optional
//! independent check of each proof (e.g. `drat-trim {cnf} {proof}`).

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use sudosat::backend::external::spawn_tracked;
use sudosat::backend::{ProofFormat, ProofTarget};
use sudosat::solve::{Solver, SolverSpec};

use crate::common::{display_path, time_limit_of, write_output, write_packed_copy, InputGrid};
use wait_timeout::ChildExt;

/// The proof options `solve` and `count` share.
#[derive(clap::Args, Debug, Clone)]
pub struct ProofArgs {
    /// Write a DRAT proof of each UNSAT answer into DIR.
    ///
    /// Write, for each "no solution" and "unique" verdict, the formula refuted
    /// (DIR/puzzle-K.cnf, blocking clauses included) and its DRAT proof (DIR/puzzle-K.drat),
    /// plus DIR/index.csv; needs the SAT path and a backend that writes proofs.
    #[arg(long, value_name = "DIR")]
    pub proof_dir: Option<PathBuf>,
    /// Check each proof with this command, e.g. "drat-trim {cnf} {proof}".
    ///
    /// Check each proof with this command, `{cnf}` and `{proof}` standing for the files,
    /// e.g. "drat-trim {cnf} {proof}": a status line `s VERIFIED` on its output is
    /// `verified`, another `s …` line `rejected`; without one, exit status 0 is `verified`.
    /// A rejected proof is an error (exit 2).
    #[arg(long, value_name = "CMD", requires = "proof_dir")]
    pub certify: Option<String>,
    /// Time limit in seconds of each proof check.
    ///
    /// A time limit for each --certify run, in seconds: a checker still running then is
    /// stopped and the command fails (default: none; drat-trim also has its own `-t`).
    #[arg(long, value_name = "SECS", requires = "certify")]
    pub certify_timeout: Option<f64>,
    /// Write the proofs compressed.
    ///
    /// Write the formulas and proofs of --proof-dir compressed: `puzzle-K.cnf.xz` and
    /// `puzzle-K.drat.xz` (or .gz, .bz2), packed after any --certify run has checked the
    /// plain files (drat-trim reads plain files only: unpack them to check again).
    #[arg(long, value_name = "FORMAT", requires = "proof_dir", value_parser = ["gz", "bz2", "xz"])]
    pub proof_compress: Option<String>,
    /// Write binary DRAT instead of text.
    ///
    /// Write the proofs of --proof-dir as binary DRAT, about half the text's size (48 % on
    /// the test fixtures' uniqueness proofs; drat-trim tells the two apart by itself).
    #[arg(long, requires = "proof_dir")]
    pub binary_proof: bool,
}

/// One row of `index.csv`.
#[derive(serde::Serialize)]
struct IndexRow {
    puzzle: usize,
    file: String,
    line: usize,
    verdict: String,
    cnf: String,
    proof: String,
}

/// Proof files being written for one run.
pub struct Prover {
    dir: PathBuf,
    certify: Option<String>,
    certify_timeout: Option<Duration>,
    /// The extension of `--proof-compress` (`xz`, …).
    compress: Option<String>,
    /// Text or binary DRAT (`--binary-proof`).
    format: ProofFormat,
    rows: Vec<IndexRow>,
}

/// What a proved verdict line adds, e.g. ` (proof: DIR/puzzle-3.drat, verified)`.
pub struct Proved {
    suffix: String,
}

impl Proved {
    /// The text to append to the verdict.
    pub fn suffix(proved: &Option<Proved>) -> &str {
        proved.as_ref().map_or("", |p| p.suffix.as_str())
    }
}

impl Prover {
    /// A prover when `--proof-dir` is given (the directory is created), checking that the
    /// chosen solver is the SAT path.
    ///
    /// # Errors
    /// No SAT path, or a directory that cannot be made.
    pub fn new(args: &ProofArgs, spec: &SolverSpec) -> Result<Option<Prover>> {
        let Some(dir) = &args.proof_dir else {
            return Ok(None);
        };
        if !matches!(spec, SolverSpec::Sat { .. }) {
            bail!("--proof-dir needs the SAT path (--solver sat): classic solvers write no proofs");
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
        Ok(Some(Prover {
            dir: dir.clone(),
            certify: args.certify.clone(),
            certify_timeout: time_limit_of("--certify-timeout", args.certify_timeout)?,
            compress: args.proof_compress.clone(),
            format: crate::common::proof_format(args.binary_proof),
            rows: Vec::new(),
        }))
    }

    fn partial_proof(&self, k: usize) -> PathBuf {
        self.dir.join(format!(".puzzle-{k}.drat.part"))
    }

    /// Asks the SAT solver for a proof of puzzle `k`'s next answer.
    pub fn ask(&self, solver: &mut dyn Solver, k: usize) {
        solver.prove_next(Some(ProofTarget {
            path: self.partial_proof(k),
            format: self.format,
        }));
    }

    /// After a solve or count: when the answer came with a proof, writes puzzle `k`'s files,
    /// certifies them if asked, records the index row and returns the verdict suffix; removes
    /// an unneeded partial proof otherwise.
    ///
    /// # Errors
    /// Files that cannot be written, a certifier that cannot run or rejects the proof.
    pub fn collect(
        &mut self,
        solver: &mut dyn Solver,
        k: usize,
        input: &InputGrid,
        verdict: &str,
    ) -> Result<Option<Proved>> {
        let proven = solver.take_proof();
        let partial = self.partial_proof(k);
        let Some(proven) = proven else {
            let _ = std::fs::remove_file(&partial);
            return Ok(None);
        };
        let cnf = self.dir.join(format!("puzzle-{k}.cnf"));
        let proof = self.dir.join(format!("puzzle-{k}.drat"));
        let packed = |plain: &Path| match &self.compress {
            Some(extension) => PathBuf::from(format!("{}.{extension}", plain.display())),
            None => plain.to_path_buf(),
        };
        let (final_cnf, final_proof) = (packed(&cnf), packed(&proof));
        write_output(Some(&cnf), |w| {
            proven
                .write_dimacs(w, &input.grid, &final_proof, verdict)
                .with_context(|| format!("{}: cannot write", cnf.display()))
        })?;
        std::fs::rename(&partial, &proof)
            .with_context(|| format!("{}: cannot write", proof.display()))?;
        let mut suffix = format!(" (proof: {}", final_proof.display());
        if let Some(command) = &self.certify {
            if certify(command, &cnf, &proof, self.certify_timeout)? {
                suffix.push_str(", verified");
            } else {
                bail!(
                    "{}: the proof {} of `{verdict}` was rejected by `{command}`",
                    input.location(),
                    proof.display()
                );
            }
        }
        suffix.push(')');
        if self.compress.is_some() {
            // Checked plain, kept packed: each through a temp file renamed into place.
            for (plain, packed) in [(&cnf, &final_cnf), (&proof, &final_proof)] {
                write_packed_copy(plain, packed, &packed.display().to_string())?;
                std::fs::remove_file(plain)
                    .with_context(|| format!("{}: cannot remove", plain.display()))?;
            }
        }
        self.rows.push(IndexRow {
            puzzle: k,
            file: display_path(&input.path),
            line: input.line,
            verdict: verdict.to_string(),
            cnf: final_cnf.display().to_string(),
            proof: final_proof.display().to_string(),
        });
        Ok(Some(Proved { suffix }))
    }

    /// Writes `DIR/index.csv`.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn finish(self) -> Result<()> {
        let path = self.dir.join("index.csv");
        write_output(Some(&path), |w| {
            let mut csv = csv::Writer::from_writer(w);
            if self.rows.is_empty() {
                csv.write_record(["puzzle", "file", "line", "verdict", "cnf", "proof"])?;
            }
            for row in &self.rows {
                csv.serialize(row)?;
            }
            csv.flush()?;
            Ok(())
        })
    }
}

/// Runs the certifier on one proof: `true` when it prints `s VERIFIED`, `false` on another
/// `s` line; without one, whether it exits 0. (drat-trim prints its verdict as an `s` line,
/// and exits 1 on a formula holding the empty clause even though it prints `s VERIFIED`.)
fn certify(command: &str, cnf: &Path, proof: &Path, limit: Option<Duration>) -> Result<bool> {
    let mut words = command.split_whitespace().map(|word| {
        word.replace("{cnf}", &cnf.to_string_lossy())
            .replace("{proof}", &proof.to_string_lossy())
    });
    let Some(program) = words.next() else {
        bail!("--certify needs a command, e.g. \"drat-trim {{cnf}} {{proof}}\"");
    };
    // The output goes to a file, not a pipe: a checker filling a pipe nobody reads while
    // we wait for its exit would never finish.
    let mut output = tempfile::tempfile().context("--certify: cannot create a temporary file")?;
    // In a process group of its own, registered: a signal ends it with the program.
    let mut tracked = spawn_tracked(
        Command::new(&program)
            .args(words)
            .stdin(Stdio::null())
            .stdout(
                output
                    .try_clone()
                    .context("--certify: cannot create a temporary file")?,
            )
            .stderr(Stdio::null()),
    )
    .with_context(|| format!("--certify: `{command}` could not be started"))?;
    let child = &mut tracked.child;
    let waited = match limit {
        Some(limit) => child.wait_timeout(limit),
        None => child.wait().map(Some),
    };
    let status = waited.with_context(|| format!("--certify: waiting for `{command}`"))?;
    let Some(status) = status else {
        tracked.kill();
        bail!(
            "--certify: `{command}` was still checking {} after the --certify-timeout of \
             {limit:?}, and was stopped",
            proof.display(),
            limit = limit.unwrap_or_default()
        );
    };
    let mut text = Vec::new();
    output
        .seek(SeekFrom::Start(0))
        .and_then(|_| output.read_to_end(&mut text))
        .with_context(|| format!("--certify: cannot read the output of `{command}`"))?;
    let text = String::from_utf8_lossy(&text);
    let status_line = text
        .split(['\n', '\r'])
        .map(str::trim)
        .find(|line| line.starts_with("s "));
    Ok(match status_line {
        Some(line) => line == "s VERIFIED",
        None => status.success(),
    })
}
