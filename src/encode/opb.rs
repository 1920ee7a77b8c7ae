//! The pseudo-Boolean form of an encoding (OPB, the PB competition's format, as
//! RoundingSat, Sat4j and Exact read it): each group of the encoding as one cardinality
//! constraint over the same variables as the CNF, "exactly one" where the encoding has
//! both halves (`= 1`), "at least one" (`>= 1`) or "at most one" (`-1 x… >= -1`) where it
//! has one. A PB solver then reasons on the groups as counts instead of on the pairwise
//! clauses; the at-most-one family of the CNF does not apply (no auxiliary variables).

use std::io::{self, Write};

use crate::encode::groups::cardinalities;
use crate::encode::{CnfDescription, SudokuEncoding};
use crate::formula::Lit;
use crate::grid::Grid;

/// Variables and constraints of a written OPB file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpbSize {
    /// Variables (`#variable=`).
    pub vars: usize,
    /// Constraints (`#constraint=`).
    pub constraints: usize,
}

/// Writes `puzzle` under `encoding` (its base and reduction; the family is ignored) as an
/// OPB file: the `* #variable= V #constraint= C` header, the CNF's description as `*`
/// comments (so the variable numbering is the CNF's), then one constraint per group.
///
/// # Errors
/// Any I/O error of `out`.
pub fn write_opb<W: Write>(
    mut out: W,
    encoding: &SudokuEncoding,
    puzzle: &Grid,
) -> io::Result<OpbSize> {
    let (groups, map) = cardinalities(puzzle, encoding);
    let contradictory = groups.iter().any(|g| g.lits.is_empty());
    // A contradiction is written over variable 1 (`x1 >= 2`), which must then exist.
    let vars = if contradictory {
        map.num_vars().max(1)
    } else {
        map.num_vars()
    };
    let constraints =
        groups.iter().filter(|g| !g.lits.is_empty()).count() + usize::from(contradictory);
    writeln!(out, "* #variable= {vars} #constraint= {constraints}")?;
    for line in CnfDescription::new(*encoding, puzzle)
        .to_comment_text()
        .lines()
    {
        writeln!(out, "* {line}")?;
    }
    writeln!(
        out,
        "* opb: one cardinality constraint per group, no at-most-one auxiliaries"
    )?;
    let mut text = String::new();
    for group in &groups {
        if group.lits.is_empty() {
            continue;
        }
        text.clear();
        if group.at_most && !group.at_least {
            linear_constraint(&mut text, -1, &group.lits, ">=", -1);
        } else {
            let relation = if group.at_most { "=" } else { ">=" };
            linear_constraint(&mut text, 1, &group.lits, relation, 1);
        }
        out.write_all(text.as_bytes())?;
    }
    if contradictory {
        writeln!(out, "+1 x1 >= 2 ;")?;
    }
    out.flush()?;
    Ok(OpbSize { vars, constraints })
}

/// Appends the constraint `Σ coefficient·lit  relation  degree` to `text` in linear form,
/// as every PB solver of the competitions reads it: a negated literal `c·¬x` is written
/// `c − c·x`, that is `-c x` with the degree lowered by `c` (`+1 ~x1 +1 x2 >= 1` becomes
/// `-1 x1 +1 x2 >= 0`); OPB's `~x` is read by some solvers only (minisat+ refuses it).
fn linear_constraint(
    text: &mut String,
    coefficient: i64,
    lits: &[Lit],
    relation: &str,
    degree: i64,
) {
    use std::fmt::Write as _;
    let mut degree = degree;
    for lit in lits {
        let c = if lit.is_negative() {
            degree -= coefficient;
            -coefficient
        } else {
            coefficient
        };
        let _ = write!(text, "{c:+} x{} ", lit.var().to_dimacs());
    }
    let _ = writeln!(text, "{relation} {degree} ;");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{BaseEncoding, Encoding};

    /// A parsed constraint: terms (coefficient, negated, var), relation, degree.
    type Constraint = (Vec<(i64, bool, usize)>, String, i64);

    /// The constraints of an OPB text.
    fn parse(text: &str) -> Vec<Constraint> {
        text.lines()
            .filter(|l| !l.starts_with('*'))
            .map(|l| {
                let words: Vec<&str> = l.trim_end_matches(';').split_whitespace().collect();
                let n = words.len();
                let terms = words[..n - 2]
                    .chunks(2)
                    .map(|t| {
                        let negated = t[1].starts_with('~');
                        let var = t[1].trim_start_matches('~').trim_start_matches('x');
                        (t[0].parse().unwrap(), negated, var.parse().unwrap())
                    })
                    .collect();
                (
                    terms,
                    words[n - 2].to_string(),
                    words[n - 1].parse().unwrap(),
                )
            })
            .collect()
    }

    fn satisfied(constraints: &[Constraint], value: impl Fn(usize) -> bool) -> bool {
        constraints.iter().all(|(terms, relation, degree)| {
            let sum: i64 = terms
                .iter()
                .map(|&(c, negated, v)| if value(v) != negated { c } else { 0 })
                .sum();
            match relation.as_str() {
                "=" => sum == *degree,
                ">=" => sum >= *degree,
                _ => panic!("relation {relation}"),
            }
        })
    }

    #[test]
    fn the_empty_grid_is_4n_squared_exactly_one_constraints_and_solutions_satisfy_them() {
        let solution: Grid = "1234341221434321".parse().unwrap();
        let empty = Grid::empty(2).unwrap();
        let extended = SudokuEncoding::new(BaseEncoding::Extended, false);
        let mut out = Vec::new();
        let size = write_opb(&mut out, &extended, &empty).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            size,
            OpbSize {
                vars: 64,
                constraints: 64
            }
        );
        assert!(text.starts_with("* #variable= 64 #constraint= 64\n"));
        let constraints = parse(&text);
        assert_eq!(constraints.len(), 64);
        assert!(constraints
            .iter()
            .all(|(t, r, d)| t.len() == 4 && r == "=" && *d == 1));
        // (r,c,v) is (r−1)·16 + (c−1)·4 + v, true when the solution has v at (r,c).
        let value = |var: usize| solution.values()[(var - 1) / 4] as usize == (var - 1) % 4 + 1;
        assert!(satisfied(&constraints, value));
        // Swapping two digits of a row breaks it.
        let mut wrong = solution.clone();
        wrong.set(crate::grid::Cell(0), Some(crate::grid::Digit(2)));
        wrong.set(crate::grid::Cell(1), Some(crate::grid::Digit(1)));
        let broken = |var: usize| wrong.values()[(var - 1) / 4] as usize == (var - 1) % 4 + 1;
        assert!(!satisfied(&constraints, broken));
        // The minimal encoding: cells at least one, units at most one.
        let minimal = SudokuEncoding::new(BaseEncoding::Minimal, false);
        let mut out = Vec::new();
        write_opb(&mut out, &minimal, &empty).unwrap();
        let constraints = parse(&String::from_utf8(out).unwrap());
        let at_least = constraints
            .iter()
            .filter(|(_, r, d)| r == ">=" && *d == 1)
            .count();
        let at_most = constraints
            .iter()
            .filter(|(_, r, d)| r == ">=" && *d == -1)
            .count();
        assert_eq!((at_least, at_most), (16, 48));
        assert!(satisfied(&constraints, value));
    }

    #[test]
    fn negated_literals_are_written_in_linear_form() {
        let (x1, x2) = (Lit::from_dimacs(1), Lit::from_dimacs(2));
        let mut text = String::new();
        linear_constraint(&mut text, 1, &[!x1, x2], ">=", 1);
        assert_eq!(text, "-1 x1 +1 x2 >= 0 ;\n");
        text.clear();
        linear_constraint(&mut text, -1, &[!x1, !x2], ">=", -1);
        assert_eq!(text, "+1 x1 +1 x2 >= 1 ;\n");
        text.clear();
        linear_constraint(&mut text, 1, &[x1, !x2], "=", 1);
        assert_eq!(text, "+1 x1 -1 x2 = 0 ;\n");
    }

    #[test]
    fn reduced_and_augmented_puzzles_keep_their_solution_and_a_clash_is_infeasible() {
        let puzzle: Grid = "1.3...1..4..2.4.".parse().unwrap();
        for base in [
            BaseEncoding::Minimal,
            BaseEncoding::Extended,
            BaseEncoding::Augmented,
        ] {
            let encoding = SudokuEncoding::new(base, true);
            let mut out = Vec::new();
            write_opb(&mut out, &encoding, &puzzle).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.contains(&format!("* encoding: {}", encoding.name())));
            assert!(!text.contains('~'), "{text}");
            let constraints = parse(&text);
            // The CNF's model (the same numbering, segment variables included) satisfies
            // every constraint, and it is the solution.
            let (mut cnf, map) = encoding.encode_to_cnf(&puzzle);
            let mut backend = crate::backend::BackendSpec::new(crate::backend::BackendKind::Cdcl)
                .create()
                .unwrap();
            backend.add_formula(&mut cnf);
            let Ok(crate::backend::SatOutcome::Sat(model)) = backend.solve() else {
                panic!("satisfiable")
            };
            let solved = map.decode_for(&model, &puzzle).unwrap();
            assert!(crate::grid::check_solution(&puzzle, &solved).is_valid());
            let value = |v: usize| model.value(crate::formula::Var::from_dimacs(v));
            assert!(satisfied(&constraints, value), "{}", encoding.name());
        }
        let clash: Grid = "11..............".parse().unwrap();
        let reduced = SudokuEncoding::new(BaseEncoding::Extended, true);
        let mut out = Vec::new();
        write_opb(&mut out, &reduced, &clash).unwrap();
        assert!(String::from_utf8(out).unwrap().ends_with("+1 x1 >= 2 ;\n"));
    }
}
