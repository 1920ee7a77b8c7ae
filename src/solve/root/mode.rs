//! `--root`: whether and how far the SAT path reasons on the grid before it encodes a
//! puzzle.

crate::names::named_enum! {
    /// Whether the SAT path reasons on the grid before it encodes a puzzle.
    #[derive(Default)]
    pub enum RootMode ("root reasoning") {
        /// The cheap rules to their fixpoint, then rounds of Hall sets and fish while each
        /// round pays for its work in literals removed from the formula
        /// ([`RootPolicy::WhilePaying`]), on grids of side [`ROOT_AUTO_MIN_SIDE`] and
        /// more (docs/benchmarks/large.md, "Root reasoning"); on the grids cdcl holds
        /// loaded for a batch (9×9 and 4×4), singles and failed-literal probing on bit
        /// boards ([`super::WordCandidates`]), a puzzle they settle or refute, or a probe
        /// solves, answered without the search (docs/benchmarks/nine.md, "Root reasoning
        /// on 9×9").
        #[default]
        Auto = "auto",
        /// None: the puzzle is encoded as it is.
        None = "none",
        /// Every rule to the fixpoint, on every grid.
        Hall = "hall",
    }
}

/// The narrowest grid `auto` reasons on; below, the formula is small and cdcl's root
/// probing does the same work: reasoning at 25×25 too took 1.18× the CPU on the hard
/// Gecode draws and was level on fresh ones (docs/benchmarks/large.md, "Root reasoning").
pub const ROOT_AUTO_MIN_SIDE: usize = 64;

/// How far the reasoning goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootPolicy {
    /// Every rule to the fixpoint (`--root hall`).
    Fixpoint,
    /// The cheap rules to their fixpoint; rounds of Hall sets and fish only while their
    /// work stays within what they have paid for: `probe` steps for each literal of the
    /// formula when they began, and `price` steps for each literal removed since, by
    /// them and by the cheap rules they set off (`--root auto`).
    WhilePaying {
        /// Steps of work one literal of the formula is worth to the search.
        price: u64,
        /// Steps for each literal of the formula the rounds may spend before they have
        /// paid for anything: one round over every view costs about one step a literal,
        /// so one means the first round is tried.
        probe: u64,
    },
}

impl RootPolicy {
    /// `--root auto`'s policy. One literal of the formula costs the search about four
    /// steps of the fixpoint: parsing, encoding, loading and propagating the extended,
    /// reduced formulas of `unique-225-1` and `unique-400-1` with `--root none` took 136 and
    /// 154 ns of CPU a literal, and the fixpoint on `sudoku-225-1` 35 ns a step
    /// (docs/benchmarks/large.md, "Root reasoning"). The price is twice that: a search
    /// that meets conflicts pays more a literal, and stopping too early costs more than
    /// going on too long (a grid like `sudoku-225-1` is settled only by the fixpoint).
    pub const AUTO: RootPolicy = RootPolicy::WhilePaying { price: 8, probe: 1 };
}

impl RootMode {
    /// What `auto` does, in words for help texts and guides, built from the constants
    /// that decide it.
    pub fn auto_summary() -> String {
        let RootPolicy::WhilePaying { price, probe } = RootPolicy::AUTO else {
            unreachable!("auto pays its way")
        };
        let side = ROOT_AUTO_MIN_SIDE;
        format!(
            "on grids of side {side} and more ({side}×{side} up): naked and hidden singles \
             and locked candidates to their fixpoint, then rounds of Hall sets and fish on \
             the views that changed, for as long as their work stays within {probe} step \
             for each literal of the formula when they began and {price} steps for each \
             literal they removed since; what is left goes to the search. On the grids cdcl \
             holds loaded for a batch (9×9 and 4×4, `--load auto`): naked and hidden singles \
             to their fixpoint on bit boards, then each cell with two candidates probed (a \
             placement whose singles fail is dropped); a puzzle they settle or refute, or a \
             probe solves (a solve only), is answered without the search, the others \
             encoded alone with what they left"
        )
    }

    /// How far reasoning goes on a grid of side `n`, or `None` when it does not run there.
    pub fn policy(self, n: usize) -> Option<RootPolicy> {
        match self {
            RootMode::Auto => (n >= ROOT_AUTO_MIN_SIDE).then_some(RootPolicy::AUTO),
            RootMode::None => None,
            RootMode::Hall => Some(RootPolicy::Fixpoint),
        }
    }
}
