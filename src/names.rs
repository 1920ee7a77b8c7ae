//! Names of the things a user chooses (solvers, backends, …), each list in one table:
//! `named_enum!` declares an enum with its names, and [`UnknownName`] is the one error of
//! every lookup. A leaf module, below everything else.

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

/// Declares a fieldless enum with its names in one table: `ALL`, `NAMES`, `name`,
/// `from_name`, `Display` and `FromStr` (errors are [`UnknownName`]).
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
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every name, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The name as the CLI spells it.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value called `name`; `None` for an unknown name.
            pub fn from_name(name: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
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
                Self::from_name(s).ok_or_else(|| $crate::names::UnknownName {
                    what: $what,
                    name: s.to_string(),
                    expected: Self::NAMES.join(", "),
                })
            }
        }
    };
}
pub(crate) use named_enum;
