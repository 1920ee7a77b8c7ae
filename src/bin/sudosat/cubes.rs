//! Cube and conquer for `sudosat sat` (Heule, Kullmann, Wieringa & Biere 2011): the
//! formula solved under each cube of a `p inccnf` file or a `--cubes` file on several
//! workers, the check that the cubes cover every assignment the formula allows, and the
//! DRAT proof of an UNSAT answer.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use sudosat::backend::proof::DratWriter;
use sudosat::backend::{BackendError, BackendKind, BackendSpec, ProofTarget, SatOutcome};
use sudosat::encode::{memory_estimate, SudokuEncoding};
use sudosat::formula::FormulaSize;
use sudosat::run::{Counters, Deadline};
use sudosat::{ClauseSink, Cnf, Lit};

/// What a cube-and-conquer run found.
pub struct CubeRun {
    /// SAT with the model of the first satisfiable cube, UNSAT when every cube is, or the
    /// error (a time-out included) that stopped the run.
    pub outcome: Result<SatOutcome, BackendError>,
    /// The comment line that says which cube answered, or how far the run got.
    pub line: String,
    /// The backend's counters, summed over the cubes when each had its own backend.
    pub counters: Counters,
    /// Each cube solved, in cube order: its index, how it ended (`sat`, `unsat`,
    /// `stopped`), the worker that took it and its wall seconds, for `--stats`, which
    /// shows the balance of a split (a cube that holds a worker for long).
    pub per_cube: Vec<CubeTime>,
}

/// One cube's solve, for `--stats`.
#[derive(Clone, Debug)]
pub struct CubeTime {
    /// The cube's index (0-based).
    pub cube: usize,
    /// `sat`, `unsat` or `stopped`.
    pub ended: &'static str,
    /// The worker that solved it (0-based).
    pub worker: usize,
    /// Wall seconds.
    pub seconds: f64,
}

/// One cube solved by a backend that takes no assumptions: a fresh one from `spec`, given
/// `base` with the cube's literals as unit clauses and `interrupt` to stop it; its
/// counters are added to `summed`.
/// The outer error is a backend that cannot be made, the inner one the solve's.
pub fn solve_afresh(
    spec: &BackendSpec,
    base: &Cnf,
    query: &[Lit],
    limit: Option<std::time::Duration>,
    interrupt: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
    summed: &mut Counters,
    proof: Option<&Path>,
) -> Result<Result<SatOutcome, BackendError>> {
    let mut fresh = spec.create()?;
    if let Some(path) = proof {
        fresh.set_proof(Some(ProofTarget::text(path)))?;
    }
    fresh.set_time_limit(limit);
    fresh.set_interrupt(interrupt.cloned());
    let mut formula = base.clone();
    for &lit in query {
        formula.add_clause(&[lit]);
    }
    fresh.add_formula(&mut formula);
    let outcome = fresh.solve();
    summed.add(&fresh.counters());
    if proof.is_some() {
        fresh.finish_proof()?;
    }
    Ok(outcome)
}

/// What the workers of [`solve_cubes`] found.
#[derive(Default)]
struct Conquest {
    /// The first satisfiable cube found (its index) with the model.
    sat: Option<(usize, SatOutcome)>,
    /// The first error (a time-out included) and the cube it stopped at.
    error: Option<(usize, BackendError)>,
    refuted: usize,
    /// With proofs: the failed literals of each refuted cube.
    refutations: Vec<Vec<Lit>>,
    per_cube: Vec<CubeTime>,
    counters: Counters,
}

/// Solves `cnf` under each cube (after the `--assume` literals) within the `--timeout` of
/// the whole run, on `workers` threads: each worker loads the formula into a backend of its
/// own and takes the next unsolved cube until they run out. A backend that takes
/// assumptions keeps what it learnt from its earlier cubes (the point of incremental
/// solving in cube and conquer); any other solves each cube afresh, its literals as unit
/// clauses. The first satisfiable cube found stops the others
/// ([`sudosat::backend::Interrupt::set_interrupt`]), so with several workers the cube that answers is the
/// first found, not always the lowest-numbered; one worker takes them in order, with the
/// backend's own `--threads` (cdcl's portfolio) inside each cube.
///
/// With `proof` (cdcl, no assumptions), an UNSAT answer comes with a DRAT proof there:
/// each worker writes the proof of its own search into a part of its own; each refuted
/// cube adds the lemma that its failed literals cannot all hold (implied by unit
/// propagation over the clauses its worker had then); the cover check or the solve outside
/// the cubes ([`settle_uncovered`]) refutes what is left from those lemmas, which are
/// stronger than the cubes' negations it was given. The parts are joined without their
/// deletions, so every clause a later lemma rests on stays in place whichever worker
/// derived it (drat-trim checks the whole; the deletions only made it faster).
pub fn solve_cubes(
    spec: &BackendSpec,
    encoding_hint: Option<SudokuEncoding>,
    cnf: &Cnf,
    assumptions: &[Lit],
    cubes: &[Vec<Lit>],
    workers: usize,
    proof: Option<&ProofTarget>,
) -> Result<CubeRun> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    let deadline = Deadline::after(spec.timeout);
    let one_thread = if workers > 1 {
        spec.clone().with_threads(1)
    } else {
        spec.clone()
    };
    let next = AtomicUsize::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let found = Mutex::new(Conquest::default());
    let total = cubes.len();
    let parts = match proof {
        Some(target) => Some(proof_parts_dir(target)?),
        None => None,
    };
    let part = |name: String| parts.as_ref().map(|dir| dir.path().join(name));
    let _guard = parts
        .as_ref()
        .map(|dir| crate::signals::track_output(dir.path()));
    let worker_ids = AtomicUsize::new(0);
    let work = || -> Result<()> {
        let mut backend = one_thread.create()?;
        let id = worker_ids.fetch_add(1, Ordering::Relaxed);
        if let Some(path) = part(format!("worker-{id}.drat")) {
            backend.set_proof(Some(ProofTarget::text(path)))?;
        }
        backend.set_interrupt(Some(Arc::clone(&stop)));
        if let Some(encoding) = encoding_hint {
            backend.set_shrinking(sudosat::solve::sat::shrinks_learnt_clauses(encoding));
        }
        let incremental = backend.takes_assumptions();
        if incremental {
            backend.add_formula(&mut cnf.clone());
        }
        let mut refuted = 0;
        let mut summed = Counters::default();
        while !stop.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= total {
                break;
            }
            let query: Vec<Lit> = assumptions.iter().chain(&cubes[k]).copied().collect();
            let started = std::time::Instant::now();
            let outcome = if deadline.remaining().is_some_and(|left| left.is_zero()) {
                Err(BackendError::Timeout {
                    solver: backend.name(),
                    timeout: deadline.limit().unwrap_or_default(),
                })
            } else if incremental {
                backend.set_time_limit(deadline.remaining());
                backend.solve_under(&query)
            } else {
                let limit = deadline.remaining();
                solve_afresh(
                    &one_thread,
                    cnf,
                    &query,
                    limit,
                    Some(&stop),
                    &mut summed,
                    None,
                )?
            };
            let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
            let ended = match &outcome {
                Ok(SatOutcome::Unsat) => "unsat",
                Ok(_) => "sat",
                Err(_) => "stopped",
            };
            found.per_cube.push(CubeTime {
                cube: k,
                ended,
                worker: id,
                seconds: started.elapsed().as_secs_f64(),
            });
            match outcome {
                Ok(SatOutcome::Unsat) => {
                    refuted += 1;
                    if parts.is_some() {
                        found.refutations.push(backend.failed_assumptions());
                    }
                }
                // Stopped because another worker answered: not a result of this cube.
                Err(BackendError::Timeout { .. }) if found.sat.is_some() => break,
                Ok(sat) => {
                    found.sat.get_or_insert((k, sat));
                    stop.store(true, Ordering::Relaxed);
                }
                Err(e) => {
                    found.error.get_or_insert((k, e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if parts.is_some() {
            backend.finish_proof()?;
        }
        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
        found.refuted += refuted;
        let counters = if incremental {
            backend.counters()
        } else {
            summed
        };
        found.counters.add(&counters);
        Ok(())
    };
    let results: Vec<Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    for result in results {
        result?;
    }
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.per_cube.sort_by_key(|t| t.cube);
    let per_cube = std::mem::take(&mut found.per_cube);
    let (outcome, line) = match (found.sat, found.error) {
        (Some((k, sat)), _) => (
            Ok(sat),
            format!(
                "cube {} of {total} satisfiable: {}",
                k + 1,
                cube_text(&cubes[k])
            ),
        ),
        (None, Some((k, error))) => (
            Err(error),
            format!(
                "stopped at cube {} of {total}, {} refuted",
                k + 1,
                found.refuted
            ),
        ),
        (None, None) => {
            let mut counters = found.counters;
            let dir = parts.as_ref().map(|dir| dir.path());
            let settled =
                settle_uncovered(spec, cnf, assumptions, cubes, deadline, &mut counters, dir)?;
            if let (Some(target), Ok(SatOutcome::Unsat), Some(last)) =
                (proof, &settled.outcome, &settled.proof)
            {
                let workers: Vec<PathBuf> = (0..workers)
                    .filter_map(|id| part(format!("worker-{id}.drat")))
                    .collect();
                join_proof(target, &workers, &found.refutations, last)?;
            }
            let run = CubeRun {
                outcome: settled.outcome,
                line: format!("all {total} cubes unsatisfiable; {}", settled.said),
                counters,
                per_cube,
            };
            return Ok(run);
        }
    };
    Ok(CubeRun {
        outcome,
        line,
        counters: found.counters,
        per_cube,
    })
}

/// The answer once every cube is refuted. The cubes cover every assignment the formula
/// allows (under the assumptions) when their negations, with the assumptions as unit
/// clauses and the formula's clauses over the cubes' variables alone, are unsatisfiable:
/// a small formula, refuted here by cdcl on one thread. Then the formula is UNSAT. A cube
/// file can leave assignments out, though: march_cu leaves out the regions its lookahead
/// refuted, and a file cut short leaves out more. The formula is then solved once more with every cube excluded (the
/// cubes' negations added as clauses), by the chosen backend, so that "every cube is
/// unsatisfiable" never stands for UNSAT unchecked: UNSAT there too is UNSAT, and a model
/// there is the answer. Returns the outcome and what the `c` line says about it.
pub fn settle_uncovered(
    spec: &BackendSpec,
    cnf: &Cnf,
    assumptions: &[Lit],
    cubes: &[Vec<Lit>],
    deadline: Deadline,
    counters: &mut Counters,
    proofs: Option<&Path>,
) -> Result<Settled> {
    let mut outside = Cnf::with_vars(cnf.num_vars());
    for cube in cubes {
        let negation: Vec<Lit> = cube.iter().map(|&l| !l).collect();
        outside.add_clause(&negation);
    }
    // The formula's clauses over the cubes' variables alone join the check: a split of a
    // cell's candidates covers the cell's "at least one" clause, not every assignment.
    let mut on_cubes = vec![false; cnf.num_vars() + 1];
    for lit in cubes.iter().flatten() {
        on_cubes[lit.var().index()] = true;
    }
    let mut cover = outside.clone();
    for clause in cnf.clauses() {
        if clause.iter().all(|l| on_cubes[l.var().index()]) {
            cover.add_clause(clause);
        }
    }
    for &lit in assumptions {
        cover.add_clause(&[lit]);
    }
    let checker = BackendSpec::new(BackendKind::Cdcl).with_threads(1);
    let mut check = checker.create()?;
    let cover_proof = proofs.map(|dir| dir.join("cover.drat"));
    if let Some(path) = &cover_proof {
        check.set_proof(Some(ProofTarget::text(path)))?;
    }
    check.set_time_limit(deadline.remaining());
    check.add_formula(&mut cover);
    let covered = check.solve();
    check.finish_proof()?;
    match covered {
        Ok(SatOutcome::Unsat) => {
            return Ok(Settled {
                outcome: Ok(SatOutcome::Unsat),
                said: "they cover every assignment the formula allows",
                proof: cover_proof,
            });
        }
        Ok(_) => {}
        Err(e) => {
            return Ok(Settled {
                outcome: Err(e),
                said: "stopped checking that they cover every assignment",
                proof: None,
            })
        }
    }
    let mut rest = cnf.clone();
    rest.append(&outside);
    let rest_proof = proofs.map(|dir| dir.join("rest.drat"));
    let outcome = solve_afresh(
        spec,
        &rest,
        assumptions,
        deadline.remaining(),
        None,
        counters,
        rest_proof.as_deref(),
    )?;
    let said = match &outcome {
        Ok(SatOutcome::Unsat) => {
            "they leave assignments out, and the formula is unsatisfiable there too"
        }
        Ok(_) => "they leave assignments out, and the formula is satisfiable there",
        Err(_) => "they leave assignments out, and solving there stopped",
    };
    Ok(Settled {
        outcome,
        said,
        proof: rest_proof,
    })
}

/// What [`settle_uncovered`] found.
pub struct Settled {
    /// The answer.
    pub outcome: Result<SatOutcome, BackendError>,
    /// What the `c` line says about the cover.
    pub said: &'static str,
    /// The part of the proof that ends the refutation (with proofs asked for).
    proof: Option<PathBuf>,
}

/// How many threads conquer the cubes: `--threads` (default every core), no more than
/// the cubes, and no more solver copies than the memory budget holds.
pub fn cube_workers(threads: usize, cubes: usize, size: FormulaSize, flag: Option<u64>) -> usize {
    let fit = match crate::common::memory_budget(flag) {
        Some(budget) => (budget / memory_estimate(size).max(1)) as usize,
        None => threads,
    };
    threads.min(cubes).min(fit).max(1)
}

/// A temporary directory for the parts of a proof, beside the proof (on the same disk).
fn proof_parts_dir(target: &ProofTarget) -> Result<tempfile::TempDir> {
    let dir = target.path.parent().filter(|d| !d.as_os_str().is_empty());
    tempfile::Builder::new()
        .prefix(".sudosat-proof-")
        .tempdir_in(dir.unwrap_or(Path::new(".")))
        .context("cannot create a directory for the proof's parts")
}

/// Writes the proof of cube and conquer: the workers' lemmas, the refuted cubes' lemmas,
/// then the part that ends the refutation; no deletions.
fn join_proof(
    target: &ProofTarget,
    workers: &[PathBuf],
    refutations: &[Vec<Lit>],
    last: &Path,
) -> Result<()> {
    let cannot = || format!("{}: cannot write", target.path.display());
    let mut out = DratWriter::for_target(target).with_context(cannot)?;
    for part in workers {
        copy_lemmas(part, &mut out)?;
    }
    for failed in refutations {
        let lemma: Vec<Lit> = failed.iter().map(|&l| !l).collect();
        out.add(&lemma);
    }
    copy_lemmas(last, &mut out)?;
    out.finish().with_context(cannot)
}

/// A cube as its `a … 0` line (`a 0` for the empty cube, as `DimacsWriter::cube` writes it).
fn cube_text(cube: &[Lit]) -> String {
    let mut text = String::from("a ");
    for lit in cube {
        text.push_str(&lit.to_dimacs().to_string());
        text.push(' ');
    }
    text.push('0');
    text
}

/// Copies the lemmas of a text DRAT file (not its deletions) into `out`.
fn copy_lemmas(part: &Path, out: &mut DratWriter) -> Result<()> {
    let file = std::fs::File::open(part)
        .with_context(|| format!("{}: cannot read a part of the proof", part.display()))?;
    let mut lemma = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.with_context(|| format!("{}: cannot read", part.display()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('d') || line.starts_with('c') {
            continue;
        }
        lemma.clear();
        for word in line.split_ascii_whitespace() {
            let number: i64 = word
                .parse()
                .with_context(|| format!("{}: `{word}` in a lemma", part.display()))?;
            if number == 0 {
                break;
            }
            lemma.push(Lit::from_dimacs(number));
        }
        out.add(&lemma);
    }
    Ok(())
}
