//! `--root`: whether and how far the SAT path reasons on the grid before it encodes a
//! puzzle.

crate::names::named_enum! {
    /// Whether the SAT path reasons on the grid before it encodes a puzzle.
    #[derive(Default)]
    pub enum RootMode ("root reasoning") {
        /// The cheap rules to their fixpoint, then rounds of Hall sets and fish while each
        /// round pays for its work in literals removed from the formula
        /// ([`RootPolicy::WhilePaying`]), on grids of side [`ROOT_AUTO_MIN_SIDE`] and
        /// more (BENCHMARKS.md, "Root reasoning").
        #[default]
        Auto = "auto",
        /// None: the puzzle is encoded as it is.
        None = "none",
        /// Every rule to the fixpoint, on every grid.
        Hall = "hall",
    }
}

/// The narrowest grid `auto` reasons on; below, the formula is small and cdcl's root
/// probing does the same work.
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
    /// `--root auto`'s policy. One literal of the formula costs the search about as much
    /// as eight steps of the fixpoint: loading and propagating the extended, reduced
    /// formula of `sudoku-400-1` took 20 ns a literal and the fixpoint ran at 2.4 ns a
    /// step (BENCHMARKS.md, "Root reasoning").
    pub const AUTO: RootPolicy = RootPolicy::WhilePaying { price: 8, probe: 1 };
}

impl RootMode {
    /// How far reasoning goes on a grid of side `n`, or `None` when it does not run there.
    pub fn policy(self, n: usize) -> Option<RootPolicy> {
        match self {
            RootMode::Auto => (n >= ROOT_AUTO_MIN_SIDE).then_some(RootPolicy::AUTO),
            RootMode::None => None,
            RootMode::Hall => Some(RootPolicy::Fixpoint),
        }
    }
}
