//! The options of the classic solvers, and the choices among their variants: what `--order`,
//! `--objective`, `--beta`, `--max-iterations` and `--threshold` set.

crate::names::named_enum! {
    /// The order in which backtracking fills blank cells (`--order`, `backtrack-NAME`).
    pub enum BacktrackOrder ("order") {
        /// Row-major.
        Row = "row",
        /// Column-major.
        Column = "column",
        /// A shuffle of the blank cells, seeded.
        Random = "random",
        /// Boxes with fewest blanks first (ties by box number), reading order inside a box.
        Box = "box",
        /// At each step the blank cell with fewest candidates (first in reading order on
        /// ties).
        Mrv = "mrv",
    }
}

/// Default probability of the β operator, per non-given cell and iteration.
pub const DEFAULT_BETA: f64 = 0.01;

crate::names::named_enum! {
    /// What hill climbing minimises (`--objective`).
    pub enum HillObjective ("objective") {
        /// The literature's objective: Σ over units of |sum − n(n+1)/2|.
        Sum = "sum",
        /// Σ over units of the number of digits missing from the unit.
        Duplicates = "duplicates",
    }
}

/// Options of the classic solvers; each solver reads the fields that concern it.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverOptions {
    /// Seed of every random choice (random backtracking order, hill climbing).
    pub seed: u64,
    /// Work cap: assignments (backtracking), iterations (hill climbing), expansions
    /// (best-first). Reaching it yields [`SolveOutcome::Stopped`](super::SolveOutcome::Stopped). `None`: no cap, except
    /// for hill climbing, which then uses [`DEFAULT_ITERATIONS`](super::hill_climb::DEFAULT_ITERATIONS).
    pub max_iterations: Option<u64>,
    /// Cell order of plain `backtrack`.
    pub backtrack_order: BacktrackOrder,
    /// Objective of hill climbing.
    pub hill_objective: HillObjective,
    /// Probability β of the β operator (hill climbing), in `0.0..=1.0`.
    pub beta: f64,
    /// Best-first pruning threshold: states whose evaluation (open candidates) exceeds it
    /// are dropped. `None`: no pruning.
    pub threshold: Option<u64>,
    /// Record a trace (hill climbing: objective after each improvement).
    pub trace: bool,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            seed: 0,
            max_iterations: None,
            backtrack_order: BacktrackOrder::Mrv,
            hill_objective: HillObjective::Duplicates,
            beta: DEFAULT_BETA,
            threshold: None,
            trace: false,
        }
    }
}
