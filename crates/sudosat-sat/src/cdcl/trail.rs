//! The assignment: values, decision levels and reasons per variable, the trail of assigned
//! literals and where each decision level starts on it (GRASP's implication graph, Marques-
//! Silva & Sakallah 1999, "GRASP: A search algorithm for propositional satisfiability",
//! IEEE Trans. Computers 48(5); MiniSat's trail, Eén & Sörensson 2003).

use crate::formula::{try_reserve, Lit, ReserveError};
use crate::Propagator;

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
    /// The theory joined to the search (see `theory.rs`), told of every decision level
    /// and backtrack here.
    pub(super) theory: Option<Box<dyn Propagator>>,
    /// Trail literals up to here were notified to the theory (the observed ones).
    pub(super) notified: usize,
    /// Per variable: whether the theory observes it.
    pub(super) observed: Vec<bool>,
    /// The observed literals of one notification.
    pub(super) notice: Vec<Lit>,
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
        if self.theory.is_some() {
            self.notify_theory();
            if let Some(theory) = &mut self.theory {
                theory.notify_new_decision_level();
            }
        }
        self.trail_lim.push(self.lits.len() as u32);
    }

    /// Joins `theory` to the search: it observes the variables it names, and hears of the
    /// literals on the trail at the next [`Trail::notify_theory`].
    pub(super) fn connect(&mut self, theory: Box<dyn Propagator>) {
        self.observed.clear();
        self.observed.resize(self.num_vars, false);
        for var in theory.observed_vars() {
            if let Some(slot) = self.observed.get_mut(var.index()) {
                *slot = true;
            }
        }
        self.notified = 0;
        self.theory = Some(theory);
    }

    /// Tells the theory of the observed literals assigned since the last notification.
    pub(super) fn notify_theory(&mut self) {
        let Some(theory) = &mut self.theory else {
            return;
        };
        self.notice.clear();
        for &lit in &self.lits[self.notified..] {
            if self.observed.get(lit.var().index()) == Some(&true) {
                self.notice.push(lit);
            }
        }
        self.notified = self.lits.len();
        if !self.notice.is_empty() {
            theory.notify_assignment(&self.notice);
        }
    }

    /// Undoes every assignment above `level`, handing each undone literal (last first) to
    /// `unassigned`, which saves what the branching heuristic keeps of it.
    #[inline]
    pub(super) fn backtrack(&mut self, level: u32, mut unassigned: impl FnMut(Lit)) {
        if self.decision_level() <= level {
            return;
        }
        let len = self.trail_lim[level as usize] as usize;
        if let Some(theory) = &mut self.theory {
            theory.notify_backtrack(level as usize);
            self.notified = self.notified.min(len);
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
        self.theory = None;
        self.notified = 0;
        self.observed.clear();
    }

    /// The model of a complete assignment, into `values` (its buffer reused).
    pub(super) fn model_values_into(&self, values: &mut Vec<bool>) {
        values.clear();
        values.extend((0..self.num_vars).map(|v| self.values[2 * v] == TRUE));
    }

    /// The model of a complete assignment.
    pub(super) fn model_values(&self) -> Vec<bool> {
        (0..self.num_vars)
            .map(|v| self.values[2 * v] == TRUE)
            .collect()
    }
}
