//! The human strategies by name, in order of difficulty.

/// A logical strategy. [`Strategy::ALL`] lists them easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// A cell with one candidate.
    NakedSingle,
    /// A digit with one place in a unit.
    HiddenSingle,
    /// Two cells of a unit holding only the same two digits.
    NakedPair,
    /// Three cells of a unit holding only three digits.
    NakedTriple,
    /// Four cells of a unit holding only four digits.
    NakedQuad,
    /// Two digits with only the same two places in a unit.
    HiddenPair,
    /// Three digits with only three places in a unit.
    HiddenTriple,
    /// Four digits with only four places in a unit.
    HiddenQuad,
    /// A digit's places in a box on one line (locked candidates, pointing).
    PointingPair,
    /// A digit's places on a line in one box (locked candidates, claiming).
    BoxLineReduction,
    /// A digit on two lines in the same two cross lines.
    XWing,
    /// Unique rectangle, type 1.
    UniqueRectangle,
}

impl Strategy {
    /// Every strategy, easiest first: the order the solver tries them in.
    pub const ALL: [Strategy; 12] = [
        Strategy::NakedSingle,
        Strategy::HiddenSingle,
        Strategy::NakedPair,
        Strategy::NakedTriple,
        Strategy::NakedQuad,
        Strategy::HiddenPair,
        Strategy::HiddenTriple,
        Strategy::HiddenQuad,
        Strategy::PointingPair,
        Strategy::BoxLineReduction,
        Strategy::XWing,
        Strategy::UniqueRectangle,
    ];

    /// The strategy's name in words.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::NakedSingle => "naked single",
            Strategy::HiddenSingle => "hidden single",
            Strategy::NakedPair => "naked pair",
            Strategy::NakedTriple => "naked triple",
            Strategy::NakedQuad => "naked quad",
            Strategy::HiddenPair => "hidden pair",
            Strategy::HiddenTriple => "hidden triple",
            Strategy::HiddenQuad => "hidden quad",
            Strategy::PointingPair => "pointing pair",
            Strategy::BoxLineReduction => "box-line reduction",
            Strategy::XWing => "X-Wing",
            Strategy::UniqueRectangle => "unique rectangle type 1",
        }
    }

    /// Difficulty rank: the position in [`Strategy::ALL`] (0 = easiest).
    pub fn rank(self) -> usize {
        Strategy::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}
