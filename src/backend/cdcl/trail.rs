//! The assignment: values, decision levels and reasons per variable, the trail of assigned
//! literals and where each decision level starts on it (GRASP's implication graph, Marques-
//! Silva & Sakallah 1999, "GRASP: A search algorithm for propositional satisfiability",
//! IEEE Trans. Computers 48(5); MiniSat's trail, Eén & Sörensson 2003).

use crate::backend::sudoku::SudokuPropagator;
use crate::formula::{try_reserve, Lit, ReserveError};

/// Value of a true literal in [`Trail::values`].
pub(super) const TRUE: i8 = 1;
/// Value of a false literal.
pub(super) const FALSE: i8 = -1;
/// Value of an unassigned literal.
pub(super) const UNSET: i8 = 0;

/// `reason[v]` of a decision, an assumption or a root unit without clause.
pub(super) const NO_REASON: u32 = u32::MAX;
/// `reason[v] = BINARY_REASON | code`: implied by the binary clause (v's literal ∨ `code`).
pub(super) const BINARY_REASON: u32 = 1 << 31;

/// The current assignment and how it came about.
#[derive(Default)]
pub(super) struct Trail {
    pub(super) num_vars: usize,
    /// Value per literal code.
    pub(super) values: Vec<i8>,
    /// Decision level per variable (one slot more: propagation's branch-free writes).
    pub(super) level: Vec<u32>,
    /// Reason per variable: [`NO_REASON`], a clause's arena index, or [`BINARY_REASON`].
    pub(super) reason: Vec<u32>,
    /// The assigned literals in order.
    pub(super) lits: Vec<Lit>,
    /// Trail length at the start of each decision level above 0.
    pub(super) trail_lim: Vec<u32>,
    /// Trail index of the next literal to propagate.
    pub(super) queue_head: usize,
    /// The native Sudoku propagator, when the formula comes from a puzzle: it follows the
    /// trail, so every backtrack tells it.
    pub(super) sudoku: Option<Box<SudokuPropagator>>,
}

impl Trail {
    /// Makes room for `num_vars` variables (never shrinks).
    pub(super) fn grow(&mut self, num_vars: usize) {
        self.num_vars = num_vars;
        self.values.resize(2 * num_vars, UNSET);
        // One slot more: propagation's branch-free writes for literals already true.
        self.level.resize(num_vars + 1, 0);
        self.reason.resize(num_vars + 1, NO_REASON);
    }

    /// Propagation's branch-free writes need the slot past the last variable, also when
    /// no clause has named a variable yet (`grow` makes it otherwise).
    pub(super) fn ensure_scratch_slot(&mut self) {
        if self.level.len() <= self.num_vars {
            self.level.resize(self.num_vars + 1, 0);
            self.reason.resize(self.num_vars + 1, NO_REASON);
        }
    }

    /// Reserves, fallibly, room for `vars` more variables.
    pub(super) fn reserve(&mut self, vars: usize) -> Result<(), ReserveError> {
        try_reserve(&mut self.values, 2 * vars, "the assignment")?;
        for (buffer, what) in [
            (&mut self.level, "the decision levels"),
            (&mut self.reason, "the reasons"),
        ] {
            try_reserve(buffer, vars, what)?;
        }
        Ok(())
    }

    #[inline]
    pub(super) fn value(&self, lit: Lit) -> i8 {
        self.values[lit.code()]
    }

    #[inline]
    pub(super) fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline]
    pub(super) fn assign(&mut self, lit: Lit, reason: u32) {
        let v = lit.var().index();
        self.values[lit.code()] = TRUE;
        self.values[(!lit).code()] = FALSE;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.lits.push(lit);
    }

    #[inline]
    pub(super) fn new_decision_level(&mut self) {
        self.trail_lim.push(self.lits.len() as u32);
    }

    /// Undoes every assignment above `level`, handing each undone literal (last first) to
    /// `unassigned`, which saves what the branching heuristic keeps of it.
    #[inline]
    pub(super) fn backtrack(&mut self, level: u32, mut unassigned: impl FnMut(Lit)) {
        if self.decision_level() <= level {
            return;
        }
        let len = self.trail_lim[level as usize] as usize;
        if let Some(sudoku) = &mut self.sudoku {
            sudoku.backtrack(&self.lits, len);
        }
        let values = &mut self.values;
        for &lit in self.lits[len..].iter().rev() {
            values[lit.code()] = UNSET;
            values[(!lit).code()] = UNSET;
            unassigned(lit);
        }
        self.lits.truncate(len);
        self.trail_lim.truncate(level as usize);
        self.queue_head = self.queue_head.min(len);
    }

    /// Forgets every variable and assignment (the native propagator included).
    pub(super) fn clear(&mut self) {
        self.num_vars = 0;
        for buffer in [&mut self.level, &mut self.reason, &mut self.trail_lim] {
            buffer.clear();
        }
        self.values.clear();
        self.lits.clear();
        self.queue_head = 0;
        self.sudoku = None;
    }

    /// The model of a complete assignment.
    pub(super) fn model_values(&self) -> Vec<bool> {
        (0..self.num_vars)
            .map(|v| self.values[2 * v] == TRUE)
            .collect()
    }
}
