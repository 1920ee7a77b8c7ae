//! Names of the things a user chooses (solvers, backends, encodings, formats, …), each list
//! in one table: `named_enum!` declares an enum with its names, and [`UnknownName`] is the
//! one error of every lookup. A leaf module, below everything else.
//!
//! The table and its error live in the SAT crate ([`sudosat_sat::names`]), below the
//! solvers that name their options with it; this module adds the wording of messages.

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

pub(crate) use sudosat_sat::named_enum;
pub use sudosat_sat::names::{NameTable, UnknownName};

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
