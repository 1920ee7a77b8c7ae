//! Propositional formulas in CNF: variables, literals, clauses and models.
//!
//! As in varisat, [`Var`] and [`Lit`] are 0-based inside and 1-based only at the DIMACS edge
//! ([`Var::from_dimacs`], [`Lit::to_dimacs`]); both print in DIMACS form.

use std::fmt;

/// A variable, 0-based (DIMACS variable `index + 1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    /// The variable with 0-based index `index`.
    #[inline]
    pub const fn from_index(index: usize) -> Var {
        Var(index as u32)
    }

    /// The variable with 1-based DIMACS number `number` (must be ≥ 1).
    #[inline]
    pub const fn from_dimacs(number: usize) -> Var {
        Var(number as u32 - 1)
    }

    /// 0-based index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 1-based DIMACS number.
    #[inline]
    pub const fn to_dimacs(self) -> usize {
        self.0 as usize + 1
    }

    /// The positive literal of this variable.
    #[inline]
    pub const fn positive(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The negative literal of this variable.
    #[inline]
    pub const fn negative(self) -> Lit {
        Lit(self.0 << 1 | 1)
    }

    /// The literal of this variable with the given polarity (`true` = positive).
    #[inline]
    pub const fn lit(self, polarity: bool) -> Lit {
        Lit(self.0 << 1 | !polarity as u32)
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// A literal: a variable or its negation, packed as `index·2 + negated`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The literal from a non-zero DIMACS integer.
    #[inline]
    pub fn from_dimacs(number: i64) -> Lit {
        debug_assert!(number != 0);
        Var::from_dimacs(number.unsigned_abs() as usize).lit(number > 0)
    }

    /// The DIMACS integer of this literal.
    #[inline]
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().to_dimacs() as i64;
        if self.is_negative() {
            -v
        } else {
            v
        }
    }

    /// The packed code `index·2 + negated` (dense, for watch lists).
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// The literal with packed code `code`.
    #[inline]
    pub const fn from_code(code: usize) -> Lit {
        Lit(code as u32)
    }

    /// The variable.
    #[inline]
    pub const fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// Whether this is the positive literal of its variable.
    #[inline]
    pub const fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }

    /// Whether this is the negative literal of its variable.
    #[inline]
    pub const fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// Anything that takes clauses one at a time: an in-memory [`Cnf`], a DIMACS writer, a
/// counter, or a SAT backend. Encoders stream into a sink so that huge formulas need not be
/// held in memory.
pub trait ClauseSink {
    /// Adds one clause (the slice is only borrowed).
    fn add_clause(&mut self, clause: &[Lit]);

    /// Tells the sink how many variables the formula uses (called before any clause when
    /// known; sinks may ignore it).
    fn reserve_vars(&mut self, _num_vars: usize) {}

    /// Adds clauses given flat: clause `i` is `lits[ends[i - 1]..ends[i]]` (from 0 for
    /// the first), the same clauses in the same order as that many
    /// [`ClauseSink::add_clause`] calls (the default makes them). A sink may take them in
    /// bulk: an encoder that writes a few thousand short clauses a puzzle hands them over
    /// at once instead of paying a call per clause.
    fn add_clauses(&mut self, lits: &[Lit], ends: &[usize]) {
        let mut start = 0;
        for &end in ends {
            self.add_clause(&lits[start..end]);
            start = end;
        }
    }
}

/// Size figures of a formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct FormulaSize {
    /// Number of variables (the `V` of `p cnf V C`).
    pub vars: usize,
    /// Number of clauses.
    pub clauses: usize,
    /// Total number of literal occurrences.
    pub literals: usize,
}

/// A sink that only counts: the counting pass for DIMACS headers and size reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingSink {
    /// The figures so far (`vars` is the highest variable seen or reserved).
    pub size: FormulaSize,
}

impl ClauseSink for CountingSink {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.size.clauses += 1;
        self.size.literals += clause.len();
        for lit in clause {
            self.size.vars = self.size.vars.max(lit.var().to_dimacs());
        }
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.size.vars = self.size.vars.max(num_vars);
    }
}

/// A sink that checks each clause against a model as it streams by, holding none of them:
/// how a model is checked against a DIMACS file of any size (`sudosat decode`).
#[derive(Clone, Debug)]
pub struct ModelCheck<'a> {
    model: &'a Model,
    /// The clauses seen.
    pub clauses: usize,
    /// The first clause the model falsifies: its 1-based number and its literals.
    pub falsified: Option<(usize, Vec<Lit>)>,
}

impl<'a> ModelCheck<'a> {
    /// A check of `model` (variables it leaves out count as false).
    pub fn new(model: &'a Model) -> ModelCheck<'a> {
        ModelCheck {
            model,
            clauses: 0,
            falsified: None,
        }
    }
}

impl ClauseSink for ModelCheck<'_> {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        if self.falsified.is_none() && !clause.iter().any(|&l| self.model.satisfies(l)) {
            self.falsified = Some((self.clauses, clause.to_vec()));
        }
    }
}

/// A buffer could not be reserved: running out of memory as a value, not an abort.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("out of memory: cannot reserve {} MiB for {what}", bytes.div_ceil(1 << 20))]
pub struct ReserveError {
    /// The buffer (e.g. "the clause arena").
    pub what: &'static str,
    /// The bytes asked for.
    pub bytes: u64,
}

impl ReserveError {
    /// The error of `additional` more elements of `T` for `what`.
    fn of<T>(additional: usize, what: &'static str) -> ReserveError {
        ReserveError {
            what,
            bytes: (additional as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        }
    }
}

/// Reserves room for `additional` more elements in `buf` with [`Vec::try_reserve`], for the
/// big buffers (clause arenas, watch and occurrence lists) whose size the input decides.
///
/// # Errors
/// A [`ReserveError`] naming the buffer when the allocation fails or overflows.
pub fn try_reserve<T>(
    buf: &mut Vec<T>,
    additional: usize,
    what: &'static str,
) -> Result<(), ReserveError> {
    buf.try_reserve(additional)
        .map_err(|_| ReserveError::of::<T>(additional, what))
}

/// [`try_reserve`] with [`Vec::try_reserve_exact`]: room for `additional` more elements
/// and no more, for many small buffers whose final size is known.
///
/// # Errors
/// A [`ReserveError`] naming the buffer when the allocation fails or overflows.
pub fn try_reserve_exact<T>(
    buf: &mut Vec<T>,
    additional: usize,
    what: &'static str,
) -> Result<(), ReserveError> {
    buf.try_reserve_exact(additional)
        .map_err(|_| ReserveError::of::<T>(additional, what))
}

/// A CNF formula held in memory: clauses stored flat (one literal vector plus offsets).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    num_vars: usize,
    lits: Vec<Lit>,
    /// `ends[i]` is one past the last literal of clause i.
    ends: Vec<usize>,
}

impl Cnf {
    /// An empty formula (no clauses, no variables): satisfiable.
    pub fn new() -> Cnf {
        Cnf::default()
    }

    /// Bytes of the formula's buffers (their capacities).
    pub fn memory_bytes(&self) -> u64 {
        (self.lits.capacity() * std::mem::size_of::<Lit>()
            + self.ends.capacity() * std::mem::size_of::<usize>()) as u64
    }

    /// An empty formula over `num_vars` variables.
    pub fn with_vars(num_vars: usize) -> Cnf {
        Cnf {
            num_vars,
            ..Cnf::default()
        }
    }

    /// Reserves room for `clauses` more clauses of `literals` literals in all, fallibly
    /// (see [`try_reserve`]).
    ///
    /// # Errors
    /// A [`ReserveError`] when the memory is not there.
    pub fn try_reserve(&mut self, clauses: usize, literals: usize) -> Result<(), ReserveError> {
        try_reserve(&mut self.lits, literals, "the formula's literals")?;
        try_reserve(&mut self.ends, clauses, "the formula's clause index")
    }

    /// Removes every clause and variable, keeping the allocated buffers for reuse.
    pub fn clear(&mut self) {
        self.num_vars = 0;
        self.lits.clear();
        self.ends.clear();
    }

    /// Keeps the first `clauses` clauses (all when there are fewer) and drops the rest;
    /// the variable count stays.
    pub fn truncate(&mut self, clauses: usize) {
        if clauses < self.ends.len() {
            self.lits.truncate(self.literals_before(clauses));
            self.ends.truncate(clauses);
        }
    }

    /// Number of variables: the declared count or the highest variable used, if larger.
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// Raises the variable count (never lowers it).
    pub fn set_num_vars(&mut self, num_vars: usize) {
        self.num_vars = self.num_vars.max(num_vars);
    }

    /// Number of clauses.
    #[inline]
    pub fn num_clauses(&self) -> usize {
        self.ends.len()
    }

    /// Number of literal occurrences.
    #[inline]
    pub fn num_literals(&self) -> usize {
        self.lits.len()
    }

    /// Variables, clauses and literals.
    pub fn size(&self) -> FormulaSize {
        FormulaSize {
            vars: self.num_vars,
            clauses: self.num_clauses(),
            literals: self.num_literals(),
        }
    }

    /// Clause `i`.
    #[inline]
    pub fn clause(&self, i: usize) -> &[Lit] {
        &self.lits[self.literals_before(i)..self.ends[i]]
    }

    /// Number of literal occurrences in clauses `0..i`.
    #[inline]
    pub fn literals_before(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            self.ends[i - 1]
        }
    }

    /// All clauses in order.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        (0..self.ends.len()).map(move |i| self.clause(i))
    }

    /// The clauses from the `first`-th on, in order, each sliced from the one before's
    /// end (no lookup per clause: the loop that loads a formula into a solver).
    pub fn clauses_from(&self, first: usize) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = self.literals_before(first.min(self.ends.len()));
        self.ends[first.min(self.ends.len())..]
            .iter()
            .map(move |&end| {
                let clause = &self.lits[start..end];
                start = end;
                clause
            })
    }

    /// Appends every clause of `other` (one copy of its flat arrays).
    pub fn append(&mut self, other: &Cnf) {
        let offset = self.lits.len();
        self.lits.extend_from_slice(&other.lits);
        self.ends.extend(other.ends.iter().map(|&end| end + offset));
        self.set_num_vars(other.num_vars);
    }

    /// Moves every clause of `other` into this formula and leaves `other` empty: a swap of
    /// buffers when this one is empty (a backend taking an encoder's formula whole, no
    /// copy), an append otherwise.
    pub fn absorb(&mut self, other: &mut Cnf) {
        if self.num_clauses() == 0 && self.num_vars == 0 {
            std::mem::swap(self, other);
        } else {
            self.append(other);
        }
        other.clear();
    }

    /// Adds every clause of this formula to a sink.
    pub fn stream_into(&self, sink: &mut dyn ClauseSink) {
        sink.reserve_vars(self.num_vars);
        for clause in self.clauses() {
            sink.add_clause(clause);
        }
    }

    /// The index of the first clause the assignment falsifies, or `None` when it satisfies
    /// every clause. Variables beyond the model count as false.
    pub fn first_falsified(&self, model: &Model) -> Option<usize> {
        self.first_falsified_from(0, model)
    }

    /// [`Cnf::first_falsified`] among the clauses from index `first` on.
    pub fn first_falsified_from(&self, first: usize, model: &Model) -> Option<usize> {
        let mut start = self.literals_before(first.min(self.num_clauses()));
        for (i, &end) in self.ends.iter().enumerate().skip(first) {
            if !self.lits[start..end]
                .iter()
                .any(|&lit| model.satisfies(lit))
            {
                return Some(i);
            }
            start = end;
        }
        None
    }
}

impl ClauseSink for Cnf {
    // Inlined into the encoders' loops, where it is most of the encoding's time; left to
    // itself, the compiler inlined it or not as the crate's code moved around (a 17-clue
    // batch took 7.8 % more instructions when it did not).
    #[inline]
    fn add_clause(&mut self, clause: &[Lit]) {
        // Most Sudoku clauses have two literals: push them without a memcpy call.
        if let [a, b] = *clause {
            self.num_vars = self.num_vars.max(a.var().index().max(b.var().index()) + 1);
            self.lits.push(a);
            self.lits.push(b);
        } else {
            if let Some(top) = clause.iter().map(|l| l.var().index() + 1).max() {
                self.num_vars = self.num_vars.max(top);
            }
            self.lits.extend_from_slice(clause);
        }
        self.ends.push(self.lits.len());
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.set_num_vars(num_vars);
    }

    /// Two copies of flat arrays and one pass for the variable count.
    fn add_clauses(&mut self, lits: &[Lit], ends: &[usize]) {
        if let Some(top) = lits.iter().map(|l| l.0 >> 1).max() {
            self.num_vars = self.num_vars.max(top as usize + 1);
        }
        let offset = self.lits.len();
        self.lits.extend_from_slice(lits);
        self.ends.extend(ends.iter().map(|&end| end + offset));
    }
}

impl fmt::Debug for Cnf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "p cnf {} {}", self.num_vars, self.num_clauses())?;
        for clause in self.clauses() {
            for lit in clause {
                write!(f, "{lit} ")?;
            }
            writeln!(f, "0")?;
        }
        Ok(())
    }
}

/// A total assignment: the value of every variable `0..len`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Model {
    values: Vec<bool>,
}

impl Model {
    /// A model from per-variable values (index = 0-based variable).
    pub fn from_values(values: Vec<bool>) -> Model {
        Model { values }
    }

    /// The value of every variable, in order.
    pub fn values(&self) -> &[bool] {
        &self.values
    }

    /// The per-variable values, the buffer handed back for the next model
    /// ([`crate::SatBackend::recycle_model`]).
    pub fn into_values(self) -> Vec<bool> {
        self.values
    }

    /// A model from the true/false literals a solver printed; variables not mentioned are
    /// false. `num_vars` sets the length (raised to cover every literal).
    pub fn from_lits(num_vars: usize, lits: impl IntoIterator<Item = Lit>) -> Model {
        let mut values = vec![false; num_vars];
        for lit in lits {
            let i = lit.var().index();
            if i >= values.len() {
                values.resize(i + 1, false);
            }
            values[i] = lit.is_positive();
        }
        Model { values }
    }

    /// The value of a variable (false beyond the end).
    #[inline]
    pub fn value(&self, var: Var) -> bool {
        self.values.get(var.index()).copied().unwrap_or(false)
    }

    /// Sets a variable's value (the model grows to cover it).
    pub fn set(&mut self, var: Var, value: bool) {
        if var.index() >= self.values.len() {
            self.values.resize(var.index() + 1, false);
        }
        self.values[var.index()] = value;
    }

    /// Whether the literal is true under this model.
    #[inline]
    pub fn satisfies(&self, lit: Lit) -> bool {
        self.value(lit.var()) == lit.is_positive()
    }

    /// Number of variables covered.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the model covers no variable.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The model as literals, one per variable, ascending.
    pub fn lits(&self) -> impl Iterator<Item = Lit> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(i, &v)| Var::from_index(i).lit(v))
    }

    /// The clause that excludes exactly this model on the given variables (for counting
    /// solutions with blocking clauses).
    pub fn blocking_clause(&self, vars: impl IntoIterator<Item = Var>) -> Vec<Lit> {
        vars.into_iter().map(|v| v.lit(!self.value(v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_falsified_from_skips_the_leading_clauses() {
        let mut cnf = Cnf::new();
        for clause in [&[1, 2][..], &[-1], &[3, -2], &[-3]] {
            let lits: Vec<Lit> = clause.iter().map(|&d| Lit::from_dimacs(d)).collect();
            cnf.add_clause(&lits);
        }
        // x1, ¬x2, x3: clauses 0 and 2 hold, 1 and 3 are false.
        let model = Model::from_values(vec![true, false, true]);
        assert_eq!(cnf.first_falsified(&model), Some(1));
        assert_eq!(cnf.first_falsified_from(1, &model), Some(1));
        // Indices stay those of the whole formula.
        assert_eq!(cnf.first_falsified_from(2, &model), Some(3));
        assert_eq!(cnf.first_falsified_from(4, &model), None);
        assert_eq!(cnf.first_falsified_from(9, &model), None);
    }

    #[test]
    fn dimacs_edge_is_one_based() {
        let lit = Lit::from_dimacs(-3);
        assert_eq!(lit.var().index(), 2);
        assert!(lit.is_negative());
        assert_eq!(lit.to_dimacs(), -3);
        assert_eq!((!lit).to_dimacs(), 3);
        assert_eq!(format!("{lit}"), "-3");
        assert_eq!(Var::from_dimacs(1).positive().code(), 0);
    }

    #[test]
    fn cnf_stores_clauses_flat() {
        let mut cnf = Cnf::new();
        cnf.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(-2)]);
        cnf.add_clause(&[Lit::from_dimacs(3)]);
        assert_eq!(cnf.num_vars(), 3);
        assert_eq!(cnf.num_clauses(), 2);
        assert_eq!(cnf.num_literals(), 3);
        assert_eq!(cnf.clause(1), &[Lit::from_dimacs(3)]);
        let model = Model::from_lits(3, [1, 2, 3].map(Lit::from_dimacs));
        assert_eq!(cnf.first_falsified(&model), None);
        let model = Model::from_lits(3, [-1, 2, 3].map(Lit::from_dimacs));
        assert_eq!(cnf.first_falsified(&model), Some(0));
    }

    #[test]
    fn counting_sink_counts() {
        let mut sink = CountingSink::default();
        sink.add_clause(&[Lit::from_dimacs(5), Lit::from_dimacs(-2)]);
        assert_eq!(
            sink.size,
            FormulaSize {
                vars: 5,
                clauses: 1,
                literals: 2
            }
        );
    }

    #[test]
    fn impossible_reservations_are_errors() {
        let mut buf: Vec<u64> = Vec::new();
        let e = try_reserve(&mut buf, usize::MAX / 4, "a test buffer").unwrap_err();
        assert_eq!(e.what, "a test buffer");
        assert!(
            e.to_string().starts_with("out of memory: cannot reserve"),
            "{e}"
        );
        try_reserve(&mut buf, 1000, "a test buffer").unwrap();
        assert!(buf.capacity() >= 1000);
        let mut cnf = Cnf::new();
        assert!(cnf.try_reserve(usize::MAX / 2, 0).is_err());
        cnf.try_reserve(10, 30).unwrap();
    }
}
