//! A lookahead cuber for any CNF: the "cube" half of cube and conquer (Heule, Kullmann,
//! Wieringa & Biere 2011, "Cube and Conquer: Guiding CDCL SAT Solvers by Lookaheads"),
//! after march_cu's scheme at a small scale. At each node of a binary tree of decisions,
//! every free variable is looked ahead on both sides (assign, unit propagate, count the
//! implied literals, undo): a side that fails is a failed literal, whose opposite is forced
//! at that node (to a fixpoint); a variable whose two sides both fail refutes the node. The
//! node branches on the variable with the largest product of its two sides' implications
//! (the march heuristic, `(l⁺ + 1)·(l⁻ + 1)`), down to a depth; each leaf's decisions are a
//! cube. Refuted branches leave no cube, so the cubes cover every model, not every
//! assignment, which `sudosat sat` checks outside the cubes.

use crate::formula::{Cnf, Lit, ReserveError, Var};
use crate::propagation::{UnitPropagator, Value};

/// The cubes of a formula and how the tree came out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cubes {
    /// Each leaf's decisions, in depth-first order (positive side first).
    pub cubes: Vec<Vec<Lit>>,
    /// Branches refuted by propagation or lookahead (no cube for them).
    pub refuted: usize,
    /// Literals forced at the root by unit propagation and failed literals.
    pub forced_at_root: usize,
    /// Whether the formula itself was refuted, at the root or in every branch below it
    /// (then there is no cube).
    pub unsat: bool,
}

/// The most free variables looked ahead at a node: the ones in the most clauses (large
/// formulas would otherwise cost a propagation per variable per node twice over).
pub const MAX_LOOKAHEAD_VARS: usize = 400;

/// Splits `cnf` into cubes by lookahead, `depth` decisions deep (at most 2^depth cubes).
///
/// # Errors
/// A [`ReserveError`] naming the buffer when the memory for the formula's propagation is
/// not there.
pub fn lookahead_cubes(cnf: &Cnf, depth: usize) -> Result<Cubes, ReserveError> {
    lookahead_cubes_until(cnf, depth, 0)
}

/// [`lookahead_cubes`], a branch also ending as a cube once at most `free_vars` of the
/// formula's variables are free after its lookahead (march_cu's static cutoff on free
/// variables, Heule et al. 2011): branches that propagate far stop early, the others go
/// on to `depth`, so the cubes come out of more even difficulty than at one depth.
///
/// # Errors
/// As [`lookahead_cubes`].
pub fn lookahead_cubes_until(
    cnf: &Cnf,
    depth: usize,
    free_vars: usize,
) -> Result<Cubes, ReserveError> {
    let mut prop = Propagator::new(cnf)?;
    let mut result = Cubes::default();
    if !prop.root_ok {
        result.unsat = true;
        return Ok(result);
    }
    let mut path = Vec::with_capacity(depth);
    let cutoff = Cutoff { depth, free_vars };
    split(&mut prop, cutoff, &mut path, &mut result);
    // Every branch refuted below the root: no cube, and the formula refuted as surely as
    // at the root (a cube file without cubes would cover no assignment).
    result.unsat |= result.cubes.is_empty();
    Ok(result)
}

/// When a branch ends as a cube: decisions left, and the free variables below which it
/// stops early.
#[derive(Clone, Copy)]
struct Cutoff {
    depth: usize,
    free_vars: usize,
}

/// One node: force failed literals to a fixpoint, then branch (or emit the cube). The
/// root is the node with an empty path.
fn split(prop: &mut Propagator, cutoff: Cutoff, path: &mut Vec<Lit>, out: &mut Cubes) {
    let root = path.is_empty();
    let mark = prop.trail_len();
    let outcome = prop.look_ahead();
    if root {
        out.forced_at_root = prop.trail_len();
    }
    let free = prop.num_vars() - prop.trail_len();
    match outcome {
        LookAhead::Refuted if root => out.unsat = true,
        LookAhead::Refuted => out.refuted += 1,
        LookAhead::Branch(first) if cutoff.depth > 0 && free > cutoff.free_vars => {
            for lit in [first, !first] {
                let at = prop.trail_len();
                if prop.assign_and_propagate(lit) {
                    path.push(lit);
                    let deeper = Cutoff {
                        depth: cutoff.depth - 1,
                        ..cutoff
                    };
                    split(prop, deeper, path, out);
                    path.pop();
                } else {
                    out.refuted += 1;
                }
                prop.backtrack(at);
            }
        }
        // Depth or free-variable cutoff reached, or every variable assigned (a model):
        // the path is a cube.
        LookAhead::Branch(_) | LookAhead::Assigned => out.cubes.push(path.clone()),
    }
    prop.backtrack(mark);
}

/// What the lookahead at a node found.
enum LookAhead {
    /// A variable fails both ways (or a forced literal clashes): no model below.
    Refuted,
    /// Every variable is assigned without conflict: the node is a model.
    Assigned,
    /// Branch on this literal's variable, this side first (it implies more).
    Branch(Lit),
}

/// Unit propagation (the shared core), and lookahead on it.
struct Propagator {
    core: UnitPropagator,
    /// Variables by clause occurrences, most first (the lookahead's candidates).
    by_occurrence: Vec<usize>,
    /// Whether the root's unit clauses propagate without conflict.
    root_ok: bool,
}

impl Propagator {
    /// The variables it knows (the formula's, or more if a clause names more).
    fn num_vars(&self) -> usize {
        self.core.num_vars()
    }

    /// The literals assigned.
    fn trail_len(&self) -> usize {
        self.core.trail().len()
    }

    fn new(cnf: &Cnf) -> Result<Propagator, ReserveError> {
        // Every literal's variable, whatever the formula's declared count says.
        let vars = cnf
            .clauses()
            .flatten()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0)
            .max(cnf.num_vars());
        let mut occurrences = vec![0usize; vars];
        for clause in cnf.clauses() {
            let mut c: Vec<Lit> = clause.to_vec();
            c.sort();
            c.dedup();
            if c.windows(2).any(|w| w[0] == !w[1]) {
                continue; // a tautology constrains nothing
            }
            for l in &c {
                occurrences[l.var().index()] += 1;
            }
        }
        let mut order: Vec<usize> = (0..vars).filter(|&v| occurrences[v] > 0).collect();
        order.sort_by_key(|&v| (std::cmp::Reverse(occurrences[v]), v));
        let mut core = UnitPropagator::new();
        core.grow(vars);
        let loaded = core.load(cnf)?;
        let root_ok = loaded && core.propagate();
        Ok(Propagator {
            core,
            by_occurrence: order,
            root_ok,
        })
    }

    fn value(&self, lit: Lit) -> Value {
        self.core.value(lit)
    }

    /// Assigns `lit` and propagates; false on a conflict (the assignments stay on the
    /// trail for [`Propagator::backtrack`]).
    fn assign_and_propagate(&mut self, lit: Lit) -> bool {
        match self.value(lit) {
            Value::True => return true,
            Value::False => return false,
            Value::Unset => {}
        }
        self.core.assign(lit);
        self.core.propagate()
    }

    fn backtrack(&mut self, len: usize) {
        self.core.undo_to(len);
    }

    /// Literals implied by `lit` (itself included), or `None` when it fails; undone after.
    fn probe(&mut self, lit: Lit) -> Option<usize> {
        let mark = self.trail_len();
        let ok = self.assign_and_propagate(lit);
        let implied = self.trail_len() - mark;
        self.backtrack(mark);
        ok.then_some(implied)
    }

    /// Failed literals to a fixpoint (forced on the trail, for the caller to undo), then
    /// the branching literal: the side of the chosen variable that implies more.
    fn look_ahead(&mut self) -> LookAhead {
        loop {
            let mut best: Option<(u128, Lit)> = None;
            let mut forced = false;
            let candidates: Vec<usize> = self
                .by_occurrence
                .iter()
                .copied()
                .filter(|&v| self.value(Var::from_index(v).positive()) == Value::Unset)
                .take(MAX_LOOKAHEAD_VARS)
                .collect();
            for v in candidates {
                let positive = Var::from_index(v).positive();
                if self.value(positive) != Value::Unset {
                    continue; // forced by an earlier failed literal of this pass
                }
                match (self.probe(positive), self.probe(!positive)) {
                    (None, None) => return LookAhead::Refuted,
                    (None, Some(_)) => {
                        if !self.assign_and_propagate(!positive) {
                            return LookAhead::Refuted;
                        }
                        forced = true;
                    }
                    (Some(_), None) => {
                        if !self.assign_and_propagate(positive) {
                            return LookAhead::Refuted;
                        }
                        forced = true;
                    }
                    (Some(a), Some(b)) => {
                        let score = (a as u128 + 1) * (b as u128 + 1);
                        let first = if a >= b { positive } else { !positive };
                        // The first of equal scores stays.
                        if best.map_or(true, |(s, _)| s < score) {
                            best = Some((score, first));
                        }
                    }
                }
            }
            if !forced {
                return best.map_or(LookAhead::Assigned, |(_, lit)| LookAhead::Branch(lit));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::ClauseSink;

    fn cnf(vars: usize, clauses: &[&[i64]]) -> Cnf {
        let mut cnf = Cnf::with_vars(vars);
        for c in clauses {
            let lits: Vec<Lit> = c.iter().map(|&d| Lit::from_dimacs(d)).collect();
            cnf.add_clause(&lits);
        }
        cnf
    }

    /// Every model of `cnf` (brute force over its variables).
    fn models(cnf: &Cnf) -> Vec<Vec<bool>> {
        let n = cnf.num_vars();
        (0..1u32 << n)
            .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<bool>>())
            .filter(|values| {
                cnf.clauses()
                    .all(|c| c.iter().any(|l| values[l.var().index()] == l.is_positive()))
            })
            .collect()
    }

    fn holds(cube: &[Lit], values: &[bool]) -> bool {
        cube.iter()
            .all(|l| values[l.var().index()] == l.is_positive())
    }

    #[test]
    fn cubes_cover_every_model_once_and_respect_the_depth() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..200 {
            let vars = 10;
            let mut formula = Cnf::with_vars(vars);
            for _ in 0..rng.gen_range(20..50) {
                let lits: Vec<Lit> = (0..3)
                    .map(|_| {
                        let v = rng.gen_range(1..=vars as i64);
                        Lit::from_dimacs(if rng.gen_bool(0.5) { v } else { -v })
                    })
                    .collect();
                formula.add_clause(&lits);
            }
            let depth = rng.gen_range(0..5);
            // Half the rounds also stop branches with at most 5 of the 10 variables free.
            let free_vars = if round % 2 == 0 { 0 } else { 5 };
            let split = lookahead_cubes_until(&formula, depth, free_vars).unwrap();
            let all = models(&formula);
            assert!(split.cubes.len() <= 1 << depth, "round {round}");
            assert!(split.cubes.iter().all(|c| c.len() <= depth));
            for model in &all {
                let covering = split.cubes.iter().filter(|c| holds(c, model)).count();
                assert_eq!(covering, 1, "round {round}: a model in {covering} cubes");
            }
            if all.is_empty() {
                // An unsatisfiable formula may still leave cubes (propagation is not
                // complete), but never when it is refuted at the root.
                assert!(!split.unsat || split.cubes.is_empty());
            } else {
                assert!(!split.unsat, "round {round}");
            }
        }
    }

    #[test]
    fn the_free_variable_cutoff_ends_branches_that_propagate_far() {
        // x1 implies x2…x5, leaving x6, x7, x8 free (6 ∨ 7 ∨ 8, ¬6 ∨ ¬7); ¬x1 implies
        // nothing. With a cutoff of 3 free variables the x1 side is a cube at once; without
        // it, it branches on.
        let f = cnf(
            8,
            &[
                &[-1, 2],
                &[-1, 3],
                &[-1, 4],
                &[-1, 5],
                &[6, 7, 8],
                &[-6, -7],
                &[2, 3, 6],
            ],
        );
        let deep = lookahead_cubes(&f, 3).unwrap();
        let cut = lookahead_cubes_until(&f, 3, 3).unwrap();
        let x1 = vec![Lit::from_dimacs(1)];
        assert!(cut.cubes.contains(&x1), "{cut:?}");
        assert!(!deep.cubes.contains(&x1), "{deep:?}");
        assert!(
            cut.cubes.len() < deep.cubes.len(),
            "{cut:?} against {deep:?}"
        );
        // Every model still in exactly one cube.
        for model in &models(&f) {
            assert_eq!(cut.cubes.iter().filter(|c| holds(c, model)).count(), 1);
        }
    }

    #[test]
    fn failed_literals_are_forced_and_refuted_formulas_have_no_cube() {
        // x1 fails (x1 → x2, x1 → ¬x2), so ¬x1 is forced at the root.
        let f = cnf(3, &[&[-1, 2], &[-1, -2], &[2, 3]]);
        let split = lookahead_cubes(&f, 1).unwrap();
        assert!(split.forced_at_root >= 1);
        assert!(split
            .cubes
            .iter()
            .all(|c| !c.contains(&Lit::from_dimacs(1))));
        // Both sides of x1 fail: refuted at the root.
        let g = cnf(2, &[&[1, 2], &[1, -2], &[-1, 2], &[-1, -2]]);
        let split = lookahead_cubes(&g, 2).unwrap();
        assert!(split.unsat && split.cubes.is_empty());
        // The empty clause.
        let mut h = Cnf::with_vars(1);
        h.add_clause(&[]);
        assert!(lookahead_cubes(&h, 2).unwrap().unsat);
    }
}
