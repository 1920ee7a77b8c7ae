//! Names of the things a user chooses (solvers, backends, encodings, formats, …), each list
//! in one table: `named_enum!` declares an enum with its names, and [`UnknownName`] is the
//! one error of every lookup. A leaf module, below everything else.
//!
//! Why a macro and not clap's `ValueEnum` derive: the library needs the names without the
//! `cli` feature too (`SolverSpec` parses `sat:minimal:dpll`, compare reads its CSV back,
//! DIMACS comments name the encoding), and a derive behind `cfg_attr(feature = "cli")` would
//! leave it without them. The macro is the one table; with `cli` it also implements
//! `clap::ValueEnum` from that table, so the CLI lists and checks the same names with no
//! second list and no new dependency (strum would add one for what twenty lines do).

/// A count with its noun, singular for one: `plural(1, "cell")` is "1 cell",
/// `plural(2, "cell")` "2 cells", `plural(3, "guess")` "3 guesses", `plural(2, "entry")`
/// "2 entries" (for messages; the nouns used take "s", "es" after an "s", or "ies" for a
/// "y" after a consonant).
pub fn plural<T: std::fmt::Display + PartialEq + From<u8>>(count: T, noun: &str) -> String {
    let consonant_y = noun
        .strip_suffix('y')
        .filter(|stem| stem.ends_with(|c: char| c.is_ascii_alphabetic() && !"aeiou".contains(c)));
    if count == T::from(1) {
        format!("1 {noun}")
    } else if let Some(stem) = consonant_y {
        format!("{count} {stem}ies")
    } else if noun.ends_with('s') {
        format!("{count} {noun}es")
    } else {
        format!("{count} {noun}s")
    }
}

/// A name that is not one of a list, with the list (for one-line CLI errors).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{name}` (expected one of: {expected})")]
pub struct UnknownName {
    /// What was being named, e.g. "solver".
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names accepted, comma-separated.
    pub expected: String,
}

impl UnknownName {
    /// The error for `name`, not one of `names`.
    pub fn new(what: &'static str, name: &str, names: &[&str]) -> UnknownName {
        UnknownName {
            what,
            name: name.to_string(),
            expected: names.join(", "),
        }
    }
}

/// Declares a fieldless enum with its names in one table: `ALL`, `NAMES`, `name`,
/// `from_name` (ASCII case ignored), `Display`, `FromStr` (errors are [`UnknownName`]
/// saying what was named: `unknown order `zigzag` (expected one of: row, …)`), and with the
/// `cli` feature `clap::ValueEnum`. Attributes on the enum (more derives, serde) and on the
/// variants (`#[default]`, docs) pass through.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, in the order the CLI lists them.
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];
            /// Every name, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The name as the CLI spells it.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value called `name` (ASCII case ignored); `None` for an unknown name.
            pub fn from_name(name: &str) -> Option<$name> {
                Self::ALL
                    .into_iter()
                    .find(|v| v.name().eq_ignore_ascii_case(name))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, $crate::names::UnknownName> {
                Self::from_name(s)
                    .ok_or_else(|| $crate::names::UnknownName::new($what, s, Self::NAMES))
            }
        }

        #[cfg(feature = "cli")]
        impl clap::ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                &Self::ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.name()))
            }
        }
    };
}
pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn plural_is_singular_for_one_only() {
        assert_eq!(plural(1usize, "cell"), "1 cell");
        assert_eq!(plural(0usize, "cell"), "0 cells");
        assert_eq!(plural(2u64, "guess"), "2 guesses");
        assert_eq!(plural(1u32, "guess"), "1 guess");
        assert_eq!(plural(2usize, "entry"), "2 entries");
        assert_eq!(plural(1usize, "entry"), "1 entry");
        assert_eq!(plural(2usize, "key"), "2 keys");
    }
}
