//! At-most-one encodings: the clause families that say "at most one of these literals is
//! true", used for every such group of a Sudoku encoding (the values of a cell; each digit in
//! a row, column or box; the segments of the augmented encoding).
//!
//! | family | source | clauses for k literals | auxiliary variables |
//! |---|---|---|---|
//! | `pairwise` | folklore | k(k−1)/2 | 0 |
//! | `sequential` | Sinz 2005, "Towards an Optimal CNF Encoding of Boolean Cardinality Constraints" | 3k − 4 | k − 1 |
//! | `commander` | Klieber & Kwon 2007, "Efficient CNF Encoding for Selecting 1 from N Objects" | ≈ 3k (groups of 3, recursive) | ≈ k/2 |
//! | `product` | Chen 2010, "A New SAT Encoding of the At-Most-One Constraint" | 2k + 4√k + O(k^¼) | ≈ 2√k |
//! | `bimander` | Nguyen & Mai 2015, "A Bimander Encoding for the At-Most-One Constraint" | k/2 + k·⌈log₂⌈k/2⌉⌉ | ⌈log₂⌈k/2⌉⌉ |
//! | `binary` | Frisch et al. 2005 ("bitwise") | k·⌈log₂ k⌉ | ⌈log₂ k⌉ |
//!
//! Every clause of every family is binary, so `literals = 2 · clauses`. Groups of 0 or 1 literal need no clause in any family. The
//! recursive families (commander, product) fall back to pairwise on small groups, where
//! pairwise is smaller; the thresholds are part of each family's definition and of its
//! [`AmoFamily::size`], which the tests check against the clause stream for every k up to
//! 100. The auxiliary variables are not functionally defined by the group in general (an
//! auxiliary may be true when no literal of its group is). In a Sudoku model, though,
//! every group holds exactly one true literal (each cell one digit, each digit once per
//! unit and per segment), and that fixes every family's auxiliaries: models and solutions
//! correspond one to one, so a model counter needs no projection on these CNFs
//! (`tests/encodings.rs` counts the empty 4×4 grid's 288 over every variable of every
//! encoding and family). [`crate::solve::sat::SatSolver`]'s blocking clauses are over the
//! cell variables all the same, the smaller clause.

use crate::formula::{ClauseSink, Lit, Var};

crate::names::named_enum! {
    /// A family of at-most-one encodings (`--amo`).
    #[derive(Default, PartialOrd, Ord)]
    pub enum AmoFamily ("at-most-one family") {
        /// Every pair of literals excluded: k(k−1)/2 clauses, no auxiliary variable.
        #[default]
        Pairwise = "pairwise",
        /// Sinz's sequential counter (ladder): auxiliaries s₁…s_{k−1}, sᵢ = "one of x₁…xᵢ".
        Sequential = "sequential",
        /// Klieber & Kwon's commander encoding: groups of 3 with one commander each,
        /// pairwise inside a group, at-most-one over the commanders recursively.
        Commander = "commander",
        /// Chen's product encoding: the literals on a p×q grid, each implying its row and
        /// its column variable, at-most-one over rows and over columns recursively.
        Product = "product",
        /// Nguyen & Mai's bimander encoding: groups of 2, pairwise inside a group, each
        /// group number written in binary on shared bit variables.
        Bimander = "bimander",
        /// The binary (bitwise) encoding: each literal forces its index in binary on
        /// ⌈log₂ k⌉ bit variables.
        Binary = "binary",
    }
}

/// Size of the at-most-one encoding of one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AmoSize {
    /// Clauses (all binary).
    pub clauses: usize,
    /// Auxiliary variables.
    pub aux: usize,
}

impl AmoSize {
    /// Literals: every clause is binary.
    pub fn literals(&self) -> usize {
        2 * self.clauses
    }

    fn plus(self, other: AmoSize) -> AmoSize {
        AmoSize {
            clauses: self.clauses + other.clauses,
            aux: self.aux + other.aux,
        }
    }
}

/// Allocates auxiliary variables, numbered consecutively after the cell variables.
#[derive(Clone, Debug)]
pub struct AuxVars {
    next: usize,
}

impl AuxVars {
    /// Auxiliaries starting at the 0-based variable index `first`.
    pub fn starting_at(first: usize) -> AuxVars {
        AuxVars { next: first }
    }

    /// A fresh variable.
    pub fn fresh(&mut self) -> Var {
        let v = Var::from_index(self.next);
        self.next += 1;
        v
    }

    /// The number of variables in use: the next index to allocate.
    pub fn end(&self) -> usize {
        self.next
    }
}

/// Group size of the commander encoding (Klieber & Kwon's recommendation).
const COMMANDER_GROUP: usize = 3;
/// Below this many literals the commander encoding is pairwise.
const COMMANDER_MIN: usize = 6;
/// Below this many literals the product encoding is pairwise (pairwise is smaller there).
const PRODUCT_MIN: usize = 7;
/// Group size of the bimander encoding.
const BIMANDER_GROUP: usize = 2;

/// ⌈log₂ k⌉ for k ≥ 1.
fn ceil_log2(k: usize) -> usize {
    if k <= 1 {
        0
    } else {
        (usize::BITS - (k - 1).leading_zeros()) as usize
    }
}

impl AmoFamily {
    /// The paper the family comes from, for the DIMACS comments.
    pub fn citation(self) -> &'static str {
        match self {
            AmoFamily::Pairwise => "pairwise",
            AmoFamily::Sequential => "sequential counter, Sinz 2005",
            AmoFamily::Commander => "commander, Klieber & Kwon 2007, groups of 3",
            AmoFamily::Product => "product, Chen 2010",
            AmoFamily::Bimander => "bimander, Nguyen & Mai 2015, groups of 2",
            AmoFamily::Binary => "binary (bitwise), Frisch et al. 2005",
        }
    }

    /// Clauses and auxiliary variables for a group of `k` literals, in closed form (the
    /// recursive families recurse on O(log k) or O(log log k) levels).
    pub fn size(self, k: usize) -> AmoSize {
        if k <= 1 {
            return AmoSize::default();
        }
        match self {
            AmoFamily::Pairwise => pairwise_size(k),
            AmoFamily::Sequential => AmoSize {
                clauses: 3 * k - 4,
                aux: k - 1,
            },
            AmoFamily::Commander => commander_size(k),
            AmoFamily::Product => product_size(k),
            AmoFamily::Bimander => {
                let groups = k.div_ceil(BIMANDER_GROUP);
                let bits = ceil_log2(groups);
                AmoSize {
                    clauses: k / BIMANDER_GROUP * pairwise_size(BIMANDER_GROUP).clauses + k * bits,
                    aux: bits,
                }
            }
            AmoFamily::Binary => {
                let bits = ceil_log2(k);
                AmoSize {
                    clauses: k * bits,
                    aux: bits,
                }
            }
        }
    }

    /// Streams "at most one of `lits`" into `sink`, taking auxiliaries from `aux`.
    pub fn encode<S: ClauseSink + ?Sized>(self, lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
        if lits.len() <= 1 {
            return;
        }
        match self {
            AmoFamily::Pairwise => pairwise(lits, sink),
            AmoFamily::Sequential => sequential(lits, aux, sink),
            AmoFamily::Commander => commander(lits, aux, sink),
            AmoFamily::Product => product(lits, aux, sink),
            AmoFamily::Bimander => bimander(lits, aux, sink),
            AmoFamily::Binary => binary(lits, aux, sink),
        }
    }
}

fn pairwise_size(k: usize) -> AmoSize {
    AmoSize {
        clauses: k * k.saturating_sub(1) / 2,
        aux: 0,
    }
}

fn pairwise<S: ClauseSink + ?Sized>(lits: &[Lit], sink: &mut S) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

/// xᵢ → sᵢ, sᵢ₋₁ → sᵢ, sᵢ₋₁ → ¬xᵢ: 3k − 4 clauses on k − 1 auxiliaries.
fn sequential<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let k = lits.len();
    let mut prev = aux.fresh().positive();
    sink.add_clause(&[!lits[0], prev]);
    for &x in &lits[1..k - 1] {
        let s = aux.fresh().positive();
        sink.add_clause(&[!x, s]);
        sink.add_clause(&[!prev, s]);
        sink.add_clause(&[!x, !prev]);
        prev = s;
    }
    sink.add_clause(&[!lits[k - 1], !prev]);
}

fn commander_size(k: usize) -> AmoSize {
    if k < COMMANDER_MIN {
        return pairwise_size(k);
    }
    let full = k / COMMANDER_GROUP;
    let rest = k % COMMANDER_GROUP;
    // A full group: pairwise inside, each literal implies its commander.
    let mut size = AmoSize {
        clauses: full * (pairwise_size(COMMANDER_GROUP).clauses + COMMANDER_GROUP),
        aux: full,
    };
    // A last group of 2 gets a commander too; a last group of 1 is its own commander.
    if rest >= 2 {
        size = size.plus(AmoSize {
            clauses: pairwise_size(rest).clauses + rest,
            aux: 1,
        });
    }
    size.plus(commander_size(k.div_ceil(COMMANDER_GROUP)))
}

/// Groups of 3: pairwise inside, x → c for the group's commander c, at-most-one over the
/// commanders recursively. A last group of one literal is its own commander. Klieber &
/// Kwon's c → (x₁ ∨ x₂ ∨ x₃) clauses serve their exactly-one form and are left out here.
fn commander<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    if lits.len() < COMMANDER_MIN {
        return pairwise(lits, sink);
    }
    let mut commanders = Vec::with_capacity(lits.len().div_ceil(COMMANDER_GROUP));
    for group in lits.chunks(COMMANDER_GROUP) {
        if let [only] = group {
            commanders.push(*only);
            continue;
        }
        let c = aux.fresh().positive();
        pairwise(group, sink);
        for &x in group {
            sink.add_clause(&[!x, c]);
        }
        commanders.push(c);
    }
    commander(&commanders, aux, sink);
}

/// The grid of the product encoding for k literals: p = ⌈√k⌉, q = ⌈k/p⌉ columns and the
/// ⌈k/q⌉ rows actually used.
fn product_shape(k: usize) -> (usize, usize) {
    let mut p = (k as f64).sqrt() as usize;
    while p * p < k {
        p += 1;
    }
    let q = k.div_ceil(p);
    let rows = k.div_ceil(q);
    (rows, q)
}

fn product_size(k: usize) -> AmoSize {
    if k < PRODUCT_MIN {
        return pairwise_size(k);
    }
    let (rows, cols) = product_shape(k);
    AmoSize {
        clauses: 2 * k,
        aux: rows + cols,
    }
    .plus(product_size(rows))
    .plus(product_size(cols))
}

/// Literal i sits at row i / q, column i mod q and implies both; at-most-one over the row
/// variables and over the column variables, recursively.
fn product<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let k = lits.len();
    if k < PRODUCT_MIN {
        return pairwise(lits, sink);
    }
    let (rows, cols) = product_shape(k);
    let u: Vec<Lit> = (0..rows).map(|_| aux.fresh().positive()).collect();
    let v: Vec<Lit> = (0..cols).map(|_| aux.fresh().positive()).collect();
    for (i, &x) in lits.iter().enumerate() {
        sink.add_clause(&[!x, u[i / cols]]);
        sink.add_clause(&[!x, v[i % cols]]);
    }
    product(&u, aux, sink);
    product(&v, aux, sink);
}

/// Each literal forces the binary digits of `index` on `bits`.
fn force_index<S: ClauseSink + ?Sized>(x: Lit, index: usize, bits: &[Var], sink: &mut S) {
    for (j, &b) in bits.iter().enumerate() {
        sink.add_clause(&[!x, b.lit(index >> j & 1 == 1)]);
    }
}

/// Groups of 2, pairwise inside; each literal forces its group's number in binary.
fn bimander<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let groups = lits.len().div_ceil(BIMANDER_GROUP);
    let bits: Vec<Var> = (0..ceil_log2(groups)).map(|_| aux.fresh()).collect();
    for (g, group) in lits.chunks(BIMANDER_GROUP).enumerate() {
        pairwise(group, sink);
        for &x in group {
            force_index(x, g, &bits, sink);
        }
    }
}

/// Each literal forces its own index in binary on ⌈log₂ k⌉ bits.
fn binary<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let bits: Vec<Var> = (0..ceil_log2(lits.len())).map(|_| aux.fresh()).collect();
    for (i, &x) in lits.iter().enumerate() {
        force_index(x, i, &bits, sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{Cnf, CountingSink};

    fn lits(k: usize) -> Vec<Lit> {
        (0..k).map(|i| Var::from_index(i).positive()).collect()
    }

    /// Whether `cnf` (over k group variables and auxiliaries) is satisfiable with the group
    /// variables fixed to `assignment`, by brute force over the auxiliaries.
    fn extendable(cnf: &Cnf, k: usize, assignment: u32) -> bool {
        let aux = cnf.num_vars() - k;
        (0u64..1 << aux).any(|a| {
            let value = |v: Var| {
                let i = v.index();
                if i < k {
                    assignment >> i & 1 == 1
                } else {
                    a >> (i - k) & 1 == 1
                }
            };
            cnf.clauses()
                .all(|c| c.iter().any(|l| value(l.var()) == l.is_positive()))
        })
    }

    #[test]
    fn every_family_means_at_most_one() {
        for family in AmoFamily::ALL {
            for k in 0..=9 {
                let mut cnf = Cnf::new();
                let mut aux = AuxVars::starting_at(k);
                family.encode(&lits(k), &mut aux, &mut cnf);
                cnf.set_num_vars(aux.end());
                if cnf.num_vars() - k > 12 {
                    continue;
                }
                for assignment in 0u32..1 << k {
                    assert_eq!(
                        extendable(&cnf, k, assignment),
                        assignment.count_ones() <= 1,
                        "{family:?} k = {k} assignment {assignment:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn closed_forms_match_the_stream() {
        for family in AmoFamily::ALL {
            for k in 0..=100 {
                let mut counter = CountingSink::default();
                let mut aux = AuxVars::starting_at(k);
                family.encode(&lits(k), &mut aux, &mut counter);
                let size = family.size(k);
                assert_eq!(counter.size.clauses, size.clauses, "{family:?} k = {k}");
                assert_eq!(counter.size.literals, size.literals(), "{family:?} k = {k}");
                assert_eq!(aux.end() - k, size.aux, "{family:?} k = {k}");
            }
        }
    }

    #[test]
    fn published_counts() {
        // Sinz: 3k − 4 clauses, k − 1 auxiliaries.
        assert_eq!(
            AmoFamily::Sequential.size(9),
            AmoSize {
                clauses: 23,
                aux: 8
            }
        );
        assert_eq!(AmoFamily::Pairwise.size(9).clauses, 36);
        // Binary: k·⌈log₂ k⌉.
        assert_eq!(
            AmoFamily::Binary.size(9),
            AmoSize {
                clauses: 36,
                aux: 4
            }
        );
        assert_eq!(
            AmoFamily::Binary.size(16),
            AmoSize {
                clauses: 64,
                aux: 4
            }
        );
        // Product at 9: a 3×3 grid, 18 implications and pairwise over 3 + 3.
        assert_eq!(
            AmoFamily::Product.size(9),
            AmoSize {
                clauses: 24,
                aux: 6
            }
        );
        // Commander at 9: three groups of 3 (3 + 3 clauses each), pairwise over 3.
        assert_eq!(
            AmoFamily::Commander.size(9),
            AmoSize {
                clauses: 21,
                aux: 3
            }
        );
        // Bimander at 9: groups {2,2,2,2,1}, 4 pairwise clauses, 3 bits for 5 groups.
        assert_eq!(
            AmoFamily::Bimander.size(9),
            AmoSize {
                clauses: 31,
                aux: 3
            }
        );
        for family in AmoFamily::ALL {
            assert_eq!(family.size(1), AmoSize::default());
            assert_eq!(AmoFamily::from_name(family.name()), Some(family));
        }
    }
}
