//! Formulas for the tests of the built-in solvers: random k-SAT, pigeonhole, and their models
//! by brute force.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::formula::{ClauseSink, Cnf, Lit, Model, Var};

/// The models of a formula of few variables, by enumerating every assignment.
pub(crate) fn brute_force_models(cnf: &Cnf) -> usize {
    let n = cnf.num_vars();
    (0u32..1 << n)
        .filter(|bits| {
            let model = Model::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
            cnf.first_falsified(&model).is_none()
        })
        .count()
}

pub(crate) fn brute_force_sat(cnf: &Cnf) -> bool {
    brute_force_models(cnf) > 0
}

/// `clauses` clauses of 1 to `max_len` literals over `vars` variables (repeats and
/// tautologies included).
pub(crate) fn random_cnf(rng: &mut ChaCha8Rng, vars: usize, clauses: usize, max_len: usize) -> Cnf {
    let mut cnf = Cnf::with_vars(vars);
    for _ in 0..clauses {
        let len = rng.gen_range(1..=max_len);
        add_random_clause(rng, &mut cnf, len);
    }
    cnf
}

/// Uniform random k-SAT: `clauses` clauses of `k` literals (variables may repeat).
pub(crate) fn random_ksat(rng: &mut ChaCha8Rng, vars: usize, clauses: usize, k: usize) -> Cnf {
    let mut cnf = Cnf::with_vars(vars);
    for _ in 0..clauses {
        add_random_clause(rng, &mut cnf, k);
    }
    cnf
}

fn add_random_clause(rng: &mut ChaCha8Rng, cnf: &mut Cnf, len: usize) {
    let vars = cnf.num_vars();
    let clause: Vec<Lit> = (0..len)
        .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
        .collect();
    cnf.add_clause(&clause);
}

/// Random 3-SAT: `clauses` clauses of three distinct variables.
pub(crate) fn random_3sat(rng: &mut ChaCha8Rng, vars: usize, clauses: usize) -> Cnf {
    let mut cnf = Cnf::with_vars(vars);
    for _ in 0..clauses {
        let mut picked = [0; 3];
        while picked[0] == picked[1] || picked[1] == picked[2] || picked[0] == picked[2] {
            picked = [0, 1, 2].map(|_| rng.gen_range(0..vars));
        }
        cnf.add_clause(&picked.map(|v| Var::from_index(v).lit(rng.gen())));
    }
    cnf
}

/// Pigeonhole: `holes + 1` pigeons into `holes` holes is UNSAT and needs real search.
pub(crate) fn pigeonhole(holes: usize) -> Cnf {
    let pigeons = holes + 1;
    let var = |p: usize, h: usize| Var::from_index(p * holes + h);
    let mut cnf = Cnf::with_vars(pigeons * holes);
    for p in 0..pigeons {
        let clause: Vec<Lit> = (0..holes).map(|h| var(p, h).positive()).collect();
        cnf.add_clause(&clause);
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                cnf.add_clause(&[var(p, h).negative(), var(q, h).negative()]);
            }
        }
    }
    cnf
}
