//! Backbones and minimal unsatisfiable cores, asked of any [`SatBackend`] that solves under
//! assumptions.
//!
//! - [`possible_literals`]: which of some candidate literals hold in at least one model. The
//!   iterative algorithm with model filtering of Janota, Lynce & Marques-Silva (2015,
//!   "Algorithms for computing backbones of propositional formulae", AI Communications
//!   28(2), Algorithm 3 with its filtering): every model found marks all the candidates it
//!   makes true, and only a candidate no model has marked yet costs a solve, under that
//!   literal. With both literals of every variable as candidates, the variables with one
//!   possible literal are the formula's *backbone* ([`backbone`]); on a Sudoku, the
//!   (cell, digit) literals give the digits each cell takes over all solutions.
//! - [`minimal_core`]: shrinks assumptions that the formula refutes to a minimal set, every
//!   member necessary, by deletion with clause-set refinement: each UNSAT answer's failed
//!   assumptions replace the set (Belov & Marques-Silva 2012, "MUSer2: an efficient MUS
//!   extractor", JSAT 8). With one selector literal per clause, and recursive model
//!   rotation, it finds a minimal unsatisfiable subformula
//!   ([`minimal_unsatisfiable_subformula`], a MUS); on a Sudoku, a minimal set of givens
//!   with no solution.
//!
//! Both share one time limit ([`Deadline`]) over all their solves.

use crate::backend::{BackendError, SatBackend, SatOutcome};
use crate::formula::{Cnf, Lit, Model, Var};
use crate::run::Deadline;

/// One solve under `assumptions` within what is left of `deadline`; a time-out reports the
/// deadline's whole limit, not the slice this solve had.
pub fn solve_within(
    backend: &mut dyn SatBackend,
    assumptions: &[Lit],
    deadline: &Deadline,
) -> Result<SatOutcome, BackendError> {
    let timeout = |backend: &dyn SatBackend| BackendError::Timeout {
        solver: backend.name(),
        timeout: deadline.limit().unwrap_or_default(),
    };
    if deadline.expired() {
        return Err(timeout(backend));
    }
    backend.set_time_limit(deadline.remaining());
    match backend.solve_under(assumptions) {
        Err(BackendError::Timeout { .. }) => Err(timeout(backend)),
        other => other,
    }
}

/// Whether each of `candidates` is true in some model of the formula under `assumptions`
/// (`None`: the formula has no model under them). Models already known (`known`, each
/// satisfying the formula and the assumptions) mark their literals without a solve.
///
/// The candidates no model has marked yet are asked in chunks (Janota, Lynce &
/// Marques-Silva 2015, Algorithm 5): one solve under a fresh selector that switches on the
/// clause "one of these holds". UNSAT settles the whole chunk as impossible, so the chunk
/// doubles; a model marks at least one of them, and the chunk halves. A formula whose
/// variables are nearly all backbone (a puzzle with one solution) then costs a few dozen
/// solves, not one per variable. Without assumptions, each candidate found impossible
/// has its negation added to the formula as a unit clause (it holds in every model), which
/// the later solves use; each selector is switched off for good after its solve.
///
/// # Errors
/// The backend's, e.g. [`BackendError::Timeout`] once `deadline` passes, or
/// [`BackendError::Unsupported`] for a backend without assumptions.
pub fn possible_literals(
    backend: &mut dyn SatBackend,
    assumptions: &[Lit],
    candidates: &[Lit],
    known: &[Model],
    deadline: &Deadline,
) -> Result<Option<Vec<bool>>, BackendError> {
    let mut possible = vec![false; candidates.len()];
    let satisfiable = mark_possible_literals(
        backend,
        assumptions,
        candidates,
        known,
        deadline,
        &mut possible,
    )?;
    Ok(satisfiable.then_some(possible))
}

/// As [`possible_literals`], marking `possible` (one flag per candidate) as models are
/// found, so that a caller still has what was found when an error (a time-out) ends it:
/// every candidate marked is possible, the others unknown until it returns `Ok(true)`.
/// `Ok(false)`: the formula has no model under the assumptions.
///
/// # Errors
/// As [`possible_literals`].
///
/// # Panics
/// When `possible` and `candidates` differ in length (a caller's mistake, not input).
pub fn mark_possible_literals(
    backend: &mut dyn SatBackend,
    assumptions: &[Lit],
    candidates: &[Lit],
    known: &[Model],
    deadline: &Deadline,
    possible: &mut [bool],
) -> Result<bool, BackendError> {
    assert_eq!(possible.len(), candidates.len(), "one flag per candidate");
    let mark = |possible: &mut [bool], model: &Model| {
        for (seen, &lit) in possible.iter_mut().zip(candidates) {
            *seen |= model.satisfies(lit);
        }
    };
    if known.is_empty() {
        match solve_within(backend, assumptions, deadline)? {
            SatOutcome::Unsat => return Ok(false),
            SatOutcome::Sat(model) => mark(possible, &model),
        }
    }
    for model in known {
        mark(possible, model);
    }
    // Unknown candidates, in order; a chunk is taken from the front.
    let mut unknown: std::collections::VecDeque<usize> =
        (0..candidates.len()).filter(|&i| !possible[i]).collect();
    let mut chunk_size = 1;
    let mut trial = assumptions.to_vec();
    let mut one_of = Vec::new();
    while !unknown.is_empty() {
        let chunk: Vec<usize> = unknown.iter().take(chunk_size).copied().collect();
        let outcome = if let [only] = chunk[..] {
            trial.push(candidates[only]);
            let outcome = solve_within(backend, &trial, deadline);
            trial.pop();
            outcome?
        } else {
            let selector = Var::from_index(backend.num_vars()).positive();
            backend.reserve_vars(selector.var().index() + 1);
            one_of.clear();
            one_of.push(!selector);
            one_of.extend(chunk.iter().map(|&i| candidates[i]));
            backend.add_clause(&one_of);
            trial.push(selector);
            let outcome = solve_within(backend, &trial, deadline);
            trial.pop();
            backend.add_clause(&[!selector]);
            outcome?
        };
        match outcome {
            SatOutcome::Sat(model) => {
                mark(possible, &model);
                unknown.retain(|&i| !possible[i]);
                chunk_size = (chunk_size / 2).max(1);
            }
            SatOutcome::Unsat => {
                unknown.drain(..chunk.len());
                if assumptions.is_empty() {
                    for &i in &chunk {
                        backend.add_clause(&[!candidates[i]]);
                    }
                }
                chunk_size *= 2;
            }
        }
    }
    Ok(true)
}

/// The backbone of the formula over its first `num_vars` variables under `assumptions`:
/// each variable that takes one value in every model that keeps them, as the literal true
/// in all of them, in variable order (`None`: no such model). `known` models are used as in
/// [`possible_literals`].
///
/// # Errors
/// As [`possible_literals`].
pub fn backbone(
    backend: &mut dyn SatBackend,
    num_vars: usize,
    assumptions: &[Lit],
    known: &[Model],
    deadline: &Deadline,
) -> Result<Option<Vec<Lit>>, BackendError> {
    let candidates: Vec<Lit> = (0..num_vars)
        .flat_map(|i| {
            let var = Var::from_index(i);
            [var.positive(), var.negative()]
        })
        .collect();
    let Some(possible) = possible_literals(backend, assumptions, &candidates, known, deadline)?
    else {
        return Ok(None);
    };
    Ok(Some(
        candidates
            .chunks(2)
            .zip(possible.chunks(2))
            .filter_map(|(lits, can)| match can {
                [true, false] => Some(lits[0]),
                [false, true] => Some(lits[1]),
                _ => None,
            })
            .collect(),
    ))
}

/// Shrinks `core`, assumptions under which the formula has no model, to a minimal such set:
/// without any one of its members the formula has a model under the rest. The order of
/// `core` is kept; an empty result means the formula alone has no model. `None`: the
/// formula has a model under `core` after all.
///
/// # Errors
/// As [`possible_literals`].
pub fn minimal_core(
    backend: &mut dyn SatBackend,
    core: &[Lit],
    deadline: &Deadline,
) -> Result<Option<Vec<Lit>>, BackendError> {
    let mut rest = match solve_within(backend, core, deadline)? {
        SatOutcome::Sat(_) => return Ok(None),
        SatOutcome::Unsat => refine(core, &backend.failed_assumptions()),
    };
    // Members found necessary (each one's removal gave a model); `rest` is still unknown.
    // Necessity survives refinement: a subset of a satisfiable set is satisfiable.
    let mut necessary: Vec<Lit> = Vec::new();
    while let Some(lit) = rest.pop() {
        let trial: Vec<Lit> = necessary.iter().chain(&rest).copied().collect();
        match solve_within(backend, &trial, deadline)? {
            SatOutcome::Sat(_) => necessary.push(lit),
            SatOutcome::Unsat => {
                // Every necessary member is among the failed ones (without it there is a
                // model), so only the unknown part shrinks.
                rest = refine(&rest, &backend.failed_assumptions());
            }
        }
    }
    Ok(Some(
        core.iter()
            .copied()
            .filter(|lit| necessary.contains(lit))
            .collect(),
    ))
}

/// A minimal unsatisfiable subformula (MUS) of `cnf`: the indices (0-based, ascending) of
/// clauses that are unsatisfiable together, each of them needed; `None` when `cnf` has a
/// model. `backend` must be fresh: it gets `cnf` with one selector variable per clause
/// (clause *i* is switched on by variable `cnf.num_vars() + i`).
///
/// Deletion with clause-set refinement, as [`minimal_core`], plus recursive model
/// rotation (Belov & Marques-Silva 2011, "Accelerating MUS extraction with recursive model
/// rotation", FMCAD): a model of the set without clause *c* falsifies only *c*; flipping
/// one of *c*'s variables, a model that then falsifies exactly one other clause of the set
/// shows that clause needed too, without a solve, and rotation goes on from there. On a
/// 25×25 puzzle with a typo (752,754 clauses, a MUS of 721, every one of them a satisfiable
/// solve without it) the MUS took 69.4 s without rotation and takes 0.74 s with it.
///
/// # Errors
/// As [`possible_literals`].
pub fn minimal_unsatisfiable_subformula(
    backend: &mut dyn SatBackend,
    cnf: &Cnf,
    deadline: &Deadline,
) -> Result<Option<Vec<usize>>, BackendError> {
    let first_selector = cnf.num_vars();
    let selector = |i: usize| Var::from_index(first_selector + i).positive();
    let index = |lit: &Lit| lit.var().index() - first_selector;
    backend.reserve_vars(first_selector + cnf.num_clauses());
    let mut switched = Vec::new();
    for (i, clause) in cnf.clauses().enumerate() {
        switched.clear();
        switched.extend_from_slice(clause);
        switched.push(!selector(i));
        backend.add_clause(&switched);
    }
    let all: Vec<Lit> = (0..cnf.num_clauses()).map(selector).collect();
    let mut rest: Vec<usize> = match solve_within(backend, &all, deadline)? {
        SatOutcome::Sat(_) => return Ok(None),
        SatOutcome::Unsat => refine(&all, &backend.failed_assumptions())
            .iter()
            .map(index)
            .collect(),
    };
    let mut needed = vec![false; cnf.num_clauses()];
    let mut necessary: Vec<usize> = Vec::new();
    while let Some(clause) = rest.pop() {
        if needed[clause] {
            continue;
        }
        let trial: Vec<Lit> = necessary
            .iter()
            .chain(rest.iter().filter(|&&c| !needed[c]))
            .map(|&c| selector(c))
            .collect();
        match solve_within(backend, &trial, deadline)? {
            SatOutcome::Sat(model) => {
                // The set the model speaks of: every clause still in play, this one too.
                let mut set: Vec<usize> = necessary.clone();
                set.extend(rest.iter().filter(|&&c| !needed[c]));
                set.push(clause);
                needed[clause] = true;
                necessary.push(clause);
                for found in rotate(cnf, &set, clause, model, &mut needed) {
                    necessary.push(found);
                }
            }
            SatOutcome::Unsat => {
                // Every necessary clause is among the failed ones; only `rest` shrinks.
                let failed: std::collections::HashSet<usize> =
                    backend.failed_assumptions().iter().map(index).collect();
                rest.retain(|c| failed.contains(c));
            }
        }
    }
    necessary.sort_unstable();
    Ok(Some(necessary))
}

/// Recursive model rotation from `model`, which satisfies every clause of `set` but
/// `start`: the clauses it shows needed besides `start`, each marked in `needed`.
fn rotate(cnf: &Cnf, set: &[usize], start: usize, model: Model, needed: &mut [bool]) -> Vec<usize> {
    let mut occurrences: std::collections::HashMap<Var, Vec<usize>> =
        std::collections::HashMap::new();
    for &c in set {
        for lit in cnf.clause(c) {
            occurrences.entry(lit.var()).or_default().push(c);
        }
    }
    let falsified = |values: &Model, c: usize| cnf.clause(c).iter().all(|&l| !values.satisfies(l));
    let mut found = Vec::new();
    let mut queue = vec![(start, model)];
    while let Some((clause, model)) = queue.pop() {
        for &lit in cnf.clause(clause) {
            // Flip the variable so that `lit` holds: `clause` is then satisfied.
            let mut flipped = model.clone();
            flipped.set(lit.var(), lit.is_positive());
            let mut broken = occurrences
                .get(&lit.var())
                .into_iter()
                .flatten()
                .copied()
                .filter(|&c| falsified(&flipped, c));
            if let (Some(only), None) = (broken.next(), broken.next()) {
                if !needed[only] {
                    needed[only] = true;
                    found.push(only);
                    queue.push((only, flipped));
                }
            }
        }
    }
    found
}

/// The members of `set` that are among `failed`, in `set`'s order.
fn refine(set: &[Lit], failed: &[Lit]) -> Vec<Lit> {
    let failed: std::collections::HashSet<Lit> = failed.iter().copied().collect();
    set.iter().copied().filter(|l| failed.contains(l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BackendKind, BackendSpec, SolveUnderAssumptions};
    use crate::formula::{ClauseSink, Cnf};

    fn lit(d: i64) -> Lit {
        Lit::from_dimacs(d)
    }

    fn backend_with(clauses: &[&[i64]]) -> Box<dyn SatBackend> {
        let mut backend = BackendSpec::new(BackendKind::Cdcl).create().unwrap();
        let mut cnf = Cnf::new();
        for clause in clauses {
            let lits: Vec<Lit> = clause.iter().map(|&d| lit(d)).collect();
            cnf.add_clause(&lits);
        }
        backend.add_formula(&mut cnf);
        backend
    }

    /// Every model of a small formula, by brute force.
    fn models(clauses: &[&[i64]], vars: usize) -> Vec<Vec<bool>> {
        (0..1u32 << vars)
            .map(|bits| (0..vars).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
            .filter(|values| {
                clauses.iter().all(|clause| {
                    clause
                        .iter()
                        .any(|&d| values[d.unsigned_abs() as usize - 1] == (d > 0))
                })
            })
            .collect()
    }

    #[test]
    fn the_backbone_is_what_every_model_shares() {
        // x1 forced; x2 → x3; x4 free; x5 = ¬x1.
        let clauses: &[&[i64]] = &[&[1], &[-2, 3], &[-1, -5], &[1, 5], &[2, 4, -4]];
        let all = models(clauses, 5);
        let mut expected = Vec::new();
        for v in 0..5 {
            let values: Vec<bool> = all.iter().map(|m| m[v]).collect();
            if values.iter().all(|&b| b == values[0]) {
                let l = Var::from_index(v).positive();
                expected.push(if values[0] { l } else { !l });
            }
        }
        assert_eq!(expected, vec![lit(1), lit(-5)]);
        let mut backend = backend_with(clauses);
        assert_eq!(
            backbone(backend.as_mut(), 5, &[], &[], &Deadline::NONE).unwrap(),
            Some(expected)
        );
        let mut unsat = backend_with(&[&[1], &[-1]]);
        assert_eq!(
            backbone(unsat.as_mut(), 1, &[], &[], &Deadline::NONE).unwrap(),
            None
        );
    }

    #[test]
    fn possible_literals_match_brute_force_on_random_formulas() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..150 {
            let vars = 8;
            let clauses: Vec<Vec<i64>> = (0..rng.gen_range(10..30))
                .map(|_| {
                    (0..3)
                        .map(|_| {
                            let v = rng.gen_range(1..=vars) as i64;
                            if rng.gen_bool(0.5) {
                                v
                            } else {
                                -v
                            }
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[i64]> = clauses.iter().map(Vec::as_slice).collect();
            let assumption = rng.gen_range(1..=vars as i64);
            let mut with_assumption = refs.clone();
            let unit = [assumption];
            with_assumption.push(&unit);
            let all = models(&with_assumption, vars);
            let candidates: Vec<Lit> = (1..=vars as i64).flat_map(|v| [lit(v), lit(-v)]).collect();
            let mut backend = backend_with(&refs);
            let found = possible_literals(
                backend.as_mut(),
                &[lit(assumption)],
                &candidates,
                &[],
                &Deadline::NONE,
            )
            .unwrap();
            if all.is_empty() {
                assert_eq!(found, None);
                continue;
            }
            let expected: Vec<bool> = candidates
                .iter()
                .map(|l| {
                    let v = l.var().index();
                    all.iter().any(|m| m[v] == l.is_positive())
                })
                .collect();
            assert_eq!(found, Some(expected));
        }
    }

    #[test]
    fn minimal_cores_are_unsatisfiable_and_every_member_is_needed() {
        // Pigeonhole-free toy: selectors s1…s6 switch on clauses; {s1, s2} and {s3, s4, s5}
        // are the two minimal cores, s6 is never needed.
        let clauses: &[&[i64]] = &[
            &[-11, 1],
            &[-12, -1],
            &[-13, 2],
            &[-14, -2, 3],
            &[-15, -3],
            &[-16, 4],
        ];
        let selectors: Vec<Lit> = (11..=16).map(lit).collect();
        let mut backend = backend_with(clauses);
        let core = minimal_core(backend.as_mut(), &selectors, &Deadline::NONE)
            .unwrap()
            .unwrap();
        assert!(
            core == vec![lit(11), lit(12)] || core == vec![lit(13), lit(14), lit(15)],
            "{core:?}"
        );
        // Without the first core, the second is what is left.
        let core = minimal_core(backend.as_mut(), &selectors[2..], &Deadline::NONE)
            .unwrap()
            .unwrap();
        assert_eq!(core, vec![lit(13), lit(14), lit(15)]);
        // A satisfiable set of assumptions has no core.
        assert_eq!(
            minimal_core(backend.as_mut(), &selectors[1..4], &Deadline::NONE).unwrap(),
            None
        );
    }

    #[test]
    fn minimal_unsatisfiable_subformulas_of_random_formulas_are_minimal() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let mut found = 0;
        for _ in 0..120 {
            let vars = 6;
            let clauses: Vec<Vec<i64>> = (0..rng.gen_range(15..40))
                .map(|_| {
                    (0..rng.gen_range(1..=3))
                        .map(|_| {
                            rng.gen_range(1..=vars as i64) * if rng.gen_bool(0.5) { 1 } else { -1 }
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&[i64]> = clauses.iter().map(Vec::as_slice).collect();
            let mut cnf = Cnf::new();
            for clause in &refs {
                let lits: Vec<Lit> = clause.iter().map(|&d| lit(d)).collect();
                cnf.add_clause(&lits);
            }
            cnf.set_num_vars(vars);
            let mut backend = BackendSpec::new(BackendKind::Cdcl).create().unwrap();
            let mus =
                minimal_unsatisfiable_subformula(backend.as_mut(), &cnf, &Deadline::NONE).unwrap();
            let satisfiable = |subset: &[&[i64]]| !models(subset, vars).is_empty();
            let Some(mus) = mus else {
                assert!(satisfiable(&refs));
                continue;
            };
            found += 1;
            assert!(mus.windows(2).all(|w| w[0] < w[1]));
            let subset: Vec<&[i64]> = mus.iter().map(|&i| refs[i]).collect();
            assert!(!satisfiable(&subset));
            for (skip, clause) in mus.iter().enumerate() {
                let mut rest = subset.clone();
                rest.remove(skip);
                assert!(satisfiable(&rest), "clause {clause} is not needed");
            }
        }
        assert!(found > 20, "{found} unsatisfiable formulas");
    }

    /// A backend that counts the solves asked of it.
    struct Counting {
        inner: Box<dyn SatBackend>,
        solves: usize,
        failed: Vec<Lit>,
    }

    impl ClauseSink for Counting {
        fn add_clause(&mut self, clause: &[Lit]) {
            self.inner.add_clause(clause);
        }
        fn reserve_vars(&mut self, num_vars: usize) {
            self.inner.reserve_vars(num_vars);
        }
    }

    impl SatBackend for Counting {
        fn name(&self) -> String {
            self.inner.name()
        }
        fn num_vars(&self) -> usize {
            self.inner.num_vars()
        }
        fn solve(&mut self) -> Result<SatOutcome, BackendError> {
            self.solve_under(&[])
        }
        fn reset(&mut self) {
            self.inner.reset();
        }
        fn as_assumptions(&mut self) -> Option<&mut dyn SolveUnderAssumptions> {
            Some(self)
        }
    }

    impl SolveUnderAssumptions for Counting {
        fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
            self.solves += 1;
            let answer = self.inner.solve_under(assumptions);
            self.failed = self.inner.failed_assumptions();
            answer
        }
        fn failed_assumptions(&self) -> Vec<Lit> {
            self.failed.clone()
        }
    }

    #[test]
    fn a_backbone_of_many_variables_is_asked_in_chunks() {
        // x1…x60 forced in a chain (x1, x1 → x2, …); x61 and x62 free.
        let mut clauses: Vec<Vec<i64>> = vec![vec![1]];
        clauses.extend((1..60).map(|v| vec![-v, v + 1]));
        clauses.push(vec![61, 62, -61]);
        let refs: Vec<&[i64]> = clauses.iter().map(Vec::as_slice).collect();
        let mut backend = Counting {
            inner: backend_with(&refs),
            solves: 0,
            failed: Vec::new(),
        };
        let found = backbone(&mut backend, 62, &[], &[], &Deadline::NONE).unwrap();
        assert_eq!(found, Some((1..=60).map(lit).collect()));
        // One first model, then chunks of 1, 2, 4, … of the 60 negations (all UNSAT) and
        // the free variables' other values: one solve per variable would be 62.
        assert!(backend.solves <= 12, "{} solves", backend.solves);
    }

    #[test]
    fn marks_found_before_a_time_out_are_kept() {
        // x1 ∨ x2: the known model (x1, ¬x2) marks two candidates; the passed deadline
        // stops the questions about the other two, which stay unmarked.
        let mut backend = backend_with(&[&[1, 2]]);
        let known = Model::from_values(vec![true, false]);
        let candidates = [lit(1), lit(-1), lit(2), lit(-2)];
        let mut possible = [false; 4];
        let passed = Deadline::after(Some(std::time::Duration::ZERO));
        let outcome = mark_possible_literals(
            backend.as_mut(),
            &[],
            &candidates,
            &[known],
            &passed,
            &mut possible,
        );
        assert!(matches!(outcome, Err(BackendError::Timeout { .. })));
        assert_eq!(possible, [true, false, false, true]);
    }

    #[test]
    fn a_passed_deadline_is_a_time_out() {
        let mut backend = backend_with(&[&[1, 2]]);
        let deadline = Deadline::after(Some(std::time::Duration::ZERO));
        assert!(matches!(
            backbone(backend.as_mut(), 2, &[], &[], &deadline),
            Err(BackendError::Timeout { .. })
        ));
    }
}
