//! The encodings by name: the base encoding, the reduction and the at-most-one family
//! that together make a [`SudokuEncoding`].

use super::amo::AmoFamily;

crate::names::named_enum! {
    /// The base clause sets (`--encoding`).
    #[derive(PartialOrd, Ord)]
    pub enum BaseEncoding ("encoding") {
        /// Each cell ≥ 1 value; each row/column/box ≤ 1 of each value (pairwise).
        Minimal = "minimal",
        /// Minimal plus each cell ≤ 1 value and each row/column/box ≥ 1 of each value.
        Extended = "extended",
        /// Extended plus tdoku's segment (triad) variables: exactly one segment of each
        /// row, column and box holds each value ([`augmented`]).
        Augmented = "augmented",
    }
}

/// A base encoding, optionally reduced with V⁺/V⁻, with an at-most-one family: the
/// encodings this crate ships. Named `base[+reduced][/family]`, the family left out when
/// pairwise: `extended+reduced`, `augmented/sequential`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SudokuEncoding {
    /// Which clause set.
    pub base: BaseEncoding,
    /// Whether the Kwon–Jain V⁺/V⁻ reduction is applied.
    pub reduced: bool,
    /// How each "at most one" group is written.
    pub amo: AmoFamily,
}

impl SudokuEncoding {
    /// The six shipped encodings with pairwise at-most-one: minimal, extended, augmented,
    /// and each reduced.
    pub const ALL: [SudokuEncoding; 6] = [
        SudokuEncoding::new(BaseEncoding::Minimal, false),
        SudokuEncoding::new(BaseEncoding::Extended, false),
        SudokuEncoding::new(BaseEncoding::Augmented, false),
        SudokuEncoding::new(BaseEncoding::Minimal, true),
        SudokuEncoding::new(BaseEncoding::Extended, true),
        SudokuEncoding::new(BaseEncoding::Augmented, true),
    ];

    /// An encoding with pairwise at-most-one.
    pub const fn new(base: BaseEncoding, reduced: bool) -> Self {
        SudokuEncoding {
            base,
            reduced,
            amo: AmoFamily::Pairwise,
        }
    }

    /// The same encoding with another at-most-one family.
    pub const fn with_amo(self, amo: AmoFamily) -> Self {
        SudokuEncoding { amo, ..self }
    }

    /// Every encoding of [`SudokuEncoding::ALL`] crossed with every [`AmoFamily`].
    pub fn all_families() -> Vec<SudokuEncoding> {
        SudokuEncoding::ALL
            .into_iter()
            .flat_map(|e| AmoFamily::ALL.map(|f| e.with_amo(f)))
            .collect()
    }

    /// Whether this encoding is written by the original pairwise code (minimal and
    /// extended) rather than by the group walk.
    pub(crate) fn is_classic(&self) -> bool {
        self.amo == AmoFamily::Pairwise && self.base != BaseEncoding::Augmented
    }

    /// The encoding's name, `BASE[+reduced][/FAMILY]` (the family only when not pairwise),
    /// as `Encoding::name` gives it.
    pub(crate) fn spelled(&self) -> String {
        let mut name = self.base.name().to_string();
        if self.reduced {
            name.push_str("+reduced");
        }
        if self.amo != AmoFamily::Pairwise {
            name.push('/');
            name.push_str(self.amo.name());
        }
        name
    }

    /// Parses `BASE[+reduced][/FAMILY]`: `minimal`, `extended+reduced`,
    /// `augmented/sequential`, `extended+reduced/pairwise` (the same as `extended+reduced`).
    pub fn from_name(name: &str) -> Option<SudokuEncoding> {
        let (encoding, family) = match name.split_once('/') {
            Some((e, f)) => (e, AmoFamily::from_name(f)?),
            None => (name, AmoFamily::Pairwise),
        };
        SudokuEncoding::ALL
            .into_iter()
            .find(|e| e.spelled() == encoding)
            .map(|e| e.with_amo(family))
    }
}

/// Parses what [`SudokuEncoding::from_name`] reads.
impl std::str::FromStr for SudokuEncoding {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SudokuEncoding::from_name(s).ok_or_else(|| crate::names::UnknownName {
            what: "encoding",
            name: s.to_string(),
            expected: SudokuEncoding::ALL.map(|e| e.spelled()).join(", ")
                + " (each optionally /FAMILY)",
        })
    }
}
