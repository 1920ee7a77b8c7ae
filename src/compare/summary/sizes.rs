//! The encodings' sizes: the mean formula of each encoding per grid size, and the mean
//! formula each entry solved beside the puzzles' own.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::compare::Run;

/// The mean size of one encoding over the puzzles of one grid size it encoded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EncodingSize {
    /// The encoding's name.
    pub encoding: String,
    /// Side n of the grids.
    pub size: usize,
    /// Puzzles it encoded.
    pub puzzles: usize,
    /// Mean variables.
    pub vars: f64,
    /// Mean clauses.
    pub clauses: f64,
    /// Mean literal occurrences.
    pub literals: f64,
}

/// The mean size of the formula one entry solved over the puzzles of one grid size, beside
/// that of the puzzles' own formulas under its encoding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolvedSize {
    /// The entry's label.
    pub solver: String,
    /// Side n of the grids.
    pub size: usize,
    /// Puzzles it solved a formula of.
    pub puzzles: usize,
    /// Mean clauses of the formulas it solved.
    pub clauses: f64,
    /// Mean literal occurrences of the formulas it solved.
    pub literals: f64,
    /// Mean clauses of the puzzles' own formulas.
    pub puzzle_clauses: f64,
    /// Mean literal occurrences of the puzzles' own formulas.
    pub puzzle_literals: f64,
}

/// Mean sizes of the formulas each of `solvers` solved and of the puzzles' own, per grid
/// size, each puzzle once: only for the entries whose reasoning on the grid (`--root`)
/// changed some formula.
pub fn solved_sizes(runs: &[Run], solvers: &[String]) -> Vec<SolvedSize> {
    let mut out = Vec::new();
    for solver in solvers {
        let mut seen: BTreeMap<(usize, usize), [usize; 4]> = BTreeMap::new();
        for run in runs.iter().filter(|r| &r.solver == solver) {
            let sizes = (
                run.clauses,
                run.literals,
                run.puzzle_clauses,
                run.puzzle_literals,
            );
            if let (Some(c), Some(l), Some(pc), Some(pl)) = sizes {
                seen.entry((run.size, run.puzzle_index))
                    .or_insert([c, l, pc, pl]);
            }
        }
        if seen.values().all(|s| s[0] == s[2] && s[1] == s[3]) {
            continue;
        }
        let mut sizes: Vec<usize> = seen.keys().map(|k| k.0).collect();
        sizes.dedup();
        for size in sizes {
            let picked: Vec<[usize; 4]> = seen
                .iter()
                .filter(|((n, _), _)| *n == size)
                .map(|(_, s)| *s)
                .collect();
            let mean =
                |i: usize| picked.iter().map(|s| s[i] as f64).sum::<f64>() / picked.len() as f64;
            out.push(SolvedSize {
                solver: solver.clone(),
                size,
                puzzles: picked.len(),
                clauses: mean(0),
                literals: mean(1),
                puzzle_clauses: mean(2),
                puzzle_literals: mean(3),
            });
        }
    }
    out
}

/// Mean variables, clauses and literals of each encoding for each grid size in the runs,
/// each puzzle counted once per encoding (whatever the backend and repeat): sizes
/// ascending, encodings in order of first appearance. The sizes are those of the puzzles'
/// own formulas, before reasoning on the grid.
pub fn encoding_sizes(runs: &[Run]) -> Vec<EncodingSize> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: BTreeMap<(usize, String, usize), [usize; 3]> = BTreeMap::new();
    for run in runs {
        let sizes = (
            &run.encoding,
            run.puzzle_vars.or(run.vars),
            run.puzzle_clauses.or(run.clauses),
            run.puzzle_literals.or(run.literals),
        );
        let (Some(encoding), Some(vars), Some(clauses), Some(literals)) = sizes else {
            continue;
        };
        if !order.contains(encoding) {
            order.push(encoding.clone());
        }
        seen.entry((run.size, encoding.clone(), run.puzzle_index))
            .or_insert([vars, clauses, literals]);
    }
    let mut sizes: Vec<usize> = seen.keys().map(|k| k.0).collect();
    sizes.dedup();
    let mut out = Vec::new();
    for size in sizes {
        for encoding in &order {
            let picked: Vec<[usize; 3]> = seen
                .iter()
                .filter(|((n, e, _), _)| *n == size && e == encoding)
                .map(|(_, s)| *s)
                .collect();
            if picked.is_empty() {
                continue;
            }
            let mean =
                |i: usize| picked.iter().map(|s| s[i] as f64).sum::<f64>() / picked.len() as f64;
            out.push(EncodingSize {
                encoding: encoding.clone(),
                size,
                puzzles: picked.len(),
                vars: mean(0),
                clauses: mean(1),
                literals: mean(2),
            });
        }
    }
    out
}
