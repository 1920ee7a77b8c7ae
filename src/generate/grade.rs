//! Difficulty grading from the human-strategy solver's deduction log.

use std::fmt;
use std::str::FromStr;

/// A difficulty grade: the hardest kind of step a human solver needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// Naked singles only.
    Simple,
    /// Hidden singles needed.
    Easy,
    /// Pairs, pointing or box-line reduction needed.
    Intermediate,
    /// X-Wing or unique rectangles needed.
    Hard,
    /// Guesses needed.
    Expert,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 5] = [
        Grade::Simple,
        Grade::Easy,
        Grade::Intermediate,
        Grade::Hard,
        Grade::Expert,
    ];

    /// The `--grade` name.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Simple => "simple",
            Grade::Easy => "easy",
            Grade::Intermediate => "intermediate",
            Grade::Hard => "hard",
            Grade::Expert => "expert",
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Grade {
    type Err = String;

    fn from_str(s: &str) -> Result<Grade, String> {
        Grade::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown grade {s:?}; expected simple, easy, intermediate, hard or expert")
            })
    }
}
