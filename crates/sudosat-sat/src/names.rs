//! Names of the things a user chooses (solvers, backends, lookaheads, …), each list in one
//! table: [`named_enum!`](crate::named_enum) declares an enum with its names, and
//! [`UnknownName`] is the one error of every lookup. A leaf module, below everything else.
//!
//! Why a macro and not clap's `ValueEnum` derive: the library needs the names without a
//! command-line parser (a solver spec parses `sat:minimal:dpll`, a comparison reads its CSV
//! back, DIMACS comments name the encoding), and this crate depends on no CLI crate. The
//! macro is the one table; [`NameTable`] hands it to a CLI's value parser, so the CLI lists
//! and checks the same names with no second list.

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

/// The table of names behind an enum of [`named_enum!`](crate::named_enum): what a
/// command-line parser lists in its help and completions.
pub trait NameTable: Copy + 'static {
    /// Every name, in the order the CLI lists them.
    fn names() -> &'static [&'static str];
}

/// Declares a fieldless enum with its names in one table: `ALL`, `NAMES`, `name`,
/// `from_name` (ASCII case ignored), `Display`, `FromStr` (errors are [`UnknownName`]
/// saying what was named: `unknown order `zigzag` (expected one of: row, …)`) and
/// [`NameTable`]. Attributes on the enum (more derives, serde) and on the variants
/// (`#[default]`, docs) pass through.
#[macro_export]
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

        impl $crate::names::NameTable for $name {
            fn names() -> &'static [&'static str] {
                Self::NAMES
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::named_enum! {
        /// A test table.
        enum Shade ("shade") {
            /// Light.
            Light = "light",
            /// Dark.
            Dark = "dark",
        }
    }

    #[test]
    fn names_read_back_and_unknown_ones_list_the_table() {
        assert_eq!("DARK".parse::<Shade>(), Ok(Shade::Dark));
        assert_eq!(Shade::Light.to_string(), "light");
        assert_eq!(
            "grey".parse::<Shade>().unwrap_err().to_string(),
            "unknown shade `grey` (expected one of: light, dark)"
        );
        assert_eq!(<Shade as super::NameTable>::names(), ["light", "dark"]);
    }
}
