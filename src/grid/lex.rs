//! The lexical grammar of the puzzle formats, as small named nom parsers: cell symbols,
//! whitespace-separated tokens, integer tokens, comment and rule lines, the csv2 header and
//! its two-digit cells.
//!
//! Each parser reads one unit of one line; [`super::parse`] composes them line by line, picks
//! the format and words the errors (it knows the grid's side and the cell, which a
//! combinator does not). Positions are byte offsets into the line, taken from the input a
//! parser stopped at.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1, take_while, take_while1};
use nom::character::complete::{anychar, char, digit1, satisfy};
use nom::combinator::{all_consuming, eof, map_opt, map_res, recognize, value, verify};
use nom::multi::separated_list1;
use nom::sequence::{delimited, pair, preceded, tuple};
use nom::IResult;

use super::Digit;

/// The result of one lexical parser over a line (or a token) of text.
pub(super) type Lexed<'a, T> = IResult<&'a str, T>;

/// Value of a one-character cell symbol: blanks `.` `0` `_`, `1`–`9`, letters for 10…35.
#[inline]
pub(super) fn symbol_value(ch: char) -> Option<u16> {
    match ch {
        '.' | '0' | '_' => Some(0),
        _ => Digit::from_symbol(ch).map(|d| d.0),
    }
}

/// One cell symbol.
#[inline]
pub(super) fn symbol(input: &str) -> Lexed<'_, u16> {
    map_opt(anychar, symbol_value)(input)
}

/// A run of cell symbols, appended to `values`; stops at the first other character (the
/// rest is returned, so its offset is the error column). A plain loop with
/// [`symbol_value`], not `fold_many0(symbol)`: this is the hot loop of the `line` format
/// (one step per cell), and the combinator ran it at half the speed. Every symbol is
/// ASCII, so the loop reads bytes through a table and stops at the first byte it does
/// not know (a non-ASCII character included, whose offset is then its first byte's).
pub(super) fn symbols<'a>(input: &'a str, values: &mut Vec<u16>) -> &'a str {
    let bytes = input.as_bytes();
    let known = bytes
        .iter()
        .position(|&byte| SYMBOL_VALUES[byte as usize] == NOT_A_SYMBOL)
        .unwrap_or(bytes.len());
    // Of a known length: one reservation, no test of the room per cell.
    values.extend(
        bytes[..known]
            .iter()
            .map(|&byte| SYMBOL_VALUES[byte as usize]),
    );
    &input[known..]
}

/// Marks a byte that is no cell symbol in [`SYMBOL_VALUES`].
const NOT_A_SYMBOL: u16 = u16::MAX;

/// [`symbol_value`] of every byte read as a character (none above 127 is a symbol).
static SYMBOL_VALUES: [u16; 256] = {
    let mut table = [NOT_A_SYMBOL; 256];
    table[b'.' as usize] = 0;
    table[b'0' as usize] = 0;
    table[b'_' as usize] = 0;
    let mut b = b'1';
    while b <= b'9' {
        table[b as usize] = (b - b'0') as u16;
        b += 1;
    }
    let mut b = 0;
    while b < 26 {
        table[(b'A' + b) as usize] = 10 + b as u16;
        table[(b'a' + b) as usize] = 10 + b as u16;
        b += 1;
    }
    table
};

/// Whitespace (Unicode, as [`str::trim`] sees it).
fn space(input: &str) -> Lexed<'_, &str> {
    take_while(char::is_whitespace)(input)
}

/// A blank line, a `#`/`%` comment line, or a `Grid 01` title line (Project Euler's
/// `sudoku.txt`). Every line of a file goes through this test, so the first character
/// picks the parser: only a line that is empty or starts with `#`, `%` or `G` can match,
/// and a puzzle row (a digit, `.`, a rule) is turned away without running one.
pub(super) fn blank_or_comment(line: &str) -> bool {
    if !matches!(
        line.trim_start().as_bytes().first(),
        None | Some(b'#' | b'%' | b'G')
    ) {
        return false;
    }
    let title = tuple((tag("Grid "), digit1, space, eof));
    let comment = alt((
        value((), eof),
        value((), char('#')),
        value((), char('%')),
        value((), title),
    ));
    preceded(space, comment)(line).is_ok()
}

/// The leading cells of a `line`-format line: up to whitespace, `#`, `,` or `;`. ASCII
/// bytes are tested as they are; the first other byte hands the rest to the characters'
/// parser.
pub(super) fn line_body(t: &str) -> &str {
    let bytes = t.as_bytes();
    match bytes.iter().position(|&byte| BODY_ENDS[byte as usize]) {
        None => t,
        Some(at) if bytes[at].is_ascii() => &t[..at],
        Some(at) => &t[..at + line_body_chars(&t[at..]).len()],
    }
}

/// The bytes [`line_body`] stops at: ASCII whitespace (as [`char::is_whitespace`] has it),
/// `#`, `,`, `;`, and every non-ASCII byte (whose character decides).
static BODY_ENDS: [bool; 256] = {
    let mut table = [false; 256];
    let ends = b"\t\n\x0b\x0c\r #,;";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    let mut b = 128;
    while b < 256 {
        table[b] = true;
        b += 1;
    }
    table
};

/// [`line_body`] character by character.
fn line_body_chars(t: &str) -> &str {
    let body: Lexed<'_, &str> =
        take_till(|c: char| c.is_whitespace() || matches!(c, '#' | ',' | ';'))(t);
    body.map_or("", |(_, body)| body)
}

/// A column rule: `|` or a vertical box-drawing line.
pub(super) fn is_column_rule(ch: char) -> bool {
    matches!(ch, '|' | '│' | '┃' | '║')
}

/// A rule character of the block format: ASCII rules or any box-drawing character.
pub(super) fn is_rule_char(ch: char) -> bool {
    matches!(ch, '-' | '+' | '=' | '*' | '|') || ('\u{2500}'..='\u{257F}').contains(&ch)
}

/// A line made of rule characters and spaces only (not just `|`). Run on every row of a
/// block, so a row whose first character is no rule character (a cell) is turned away
/// before the parser.
pub(super) fn rule_line(t: &str) -> bool {
    if !t.trim_start().chars().next().is_some_and(is_rule_char) {
        return false;
    }
    let rules = take_while1(|c: char| c.is_whitespace() || is_rule_char(c));
    let line: Lexed<'_, &str> = all_consuming(verify(rules, |s: &str| {
        s.chars().any(|c| !c.is_whitespace() && !is_column_rule(c))
    }))(t);
    line.is_ok()
}

/// The names a CSV header may give the puzzle column: ours (`puzzle`) and those of the
/// public Kaggle sets (`quizzes,solutions`; `id,puzzle,solution,clues,difficulty`).
const PUZZLE_COLUMNS: [&str; 4] = ["puzzle", "puzzles", "quizzes", "quiz"];

/// One field of a CSV header line: a name (a letter, then letters, digits, `_` or `-`),
/// optionally in double quotes, with spaces around. Names start with a letter so that a
/// puzzle line with a comment (`1.3.…,puzzle`) is not taken for a header.
fn header_field(t: &str) -> Lexed<'_, &str> {
    let name = || {
        recognize(pair(
            satisfy(|c| c.is_ascii_alphabetic()),
            take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        ))
    };
    let quoted = delimited(char('"'), name(), char('"'));
    delimited(space, alt((quoted, name())), space)(t)
}

/// The 0-based puzzle column of a CSV header line (`puzzle`, `puzzles`, `quizzes` or
/// `quiz`, any case, quoted or not), or `None` when `t` is no such header.
pub(super) fn csv_header_column(t: &str) -> Option<usize> {
    let fields: Lexed<'_, Vec<&str>> =
        all_consuming(separated_list1(tag(","), header_field))(t.trim_end());
    let (_, fields) = fields.ok()?;
    fields.iter().position(|f| {
        PUZZLE_COLUMNS
            .iter()
            .any(|name| f.eq_ignore_ascii_case(name))
    })
}

/// A CSV header with a puzzle column ([`csv_header_column`]).
pub(super) fn csv_header(t: &str) -> bool {
    csv_header_column(t).is_some()
}

/// The next token after separators (whitespace, and column rules when `rules_separate`),
/// with its byte offset in `line`.
pub(super) fn tokens(line: &str, rules_separate: bool) -> impl Iterator<Item = (usize, &str)> + '_ {
    let is_sep = move |c: char| c.is_whitespace() || (rules_separate && is_column_rule(c));
    let mut rest = line;
    std::iter::from_fn(move || {
        let token: Lexed<'_, &str> = preceded(take_while(is_sep), take_till1(is_sep))(rest);
        let (after, tok) = token.ok()?;
        rest = after;
        Some((line.len() - after.len() - tok.len(), tok))
    })
}

/// The largest value an integer token may have (the side of a 400×400 grid).
const MAX_VALUE: u16 = 400;

/// A whitespace-separated cell of the block format: one symbol, or an integer ≤ 400
/// without leading zeros (for grids above 35×35). A one-byte token, the common case up to
/// 35×35, is one symbol and needs no parser.
pub(super) fn cell_token(tok: &str) -> Option<u16> {
    if let [byte] = tok.as_bytes() {
        return symbol_value(char::from(*byte));
    }
    let integer = verify(
        map_res(
            verify(digit1, |d: &str| !d.starts_with('0') && d.len() <= 3),
            str::parse::<u16>,
        ),
        |&v| v <= MAX_VALUE,
    );
    let cell: Lexed<'_, u16> = alt((all_consuming(symbol), all_consuming(integer)))(tok);
    cell.ok().map(|(_, v)| v)
}

/// An integer token of the grid format, `.` or `_` for a blank; `None` when it is not one.
/// A one-byte token (every cell of a 9×9 grid) is read without the parser.
pub(super) fn integer_token(tok: &str) -> Option<u32> {
    if let [byte] = tok.as_bytes() {
        return match byte {
            b'.' | b'_' => Some(0),
            b'0'..=b'9' => Some(u32::from(byte - b'0')),
            _ => None,
        };
    }
    let blank = value(0, alt((char('.'), char('_'))));
    let integer = map_res(verify(digit1, |d: &str| d.len() <= 9), str::parse::<u32>);
    let token: Lexed<'_, u32> = alt((all_consuming(blank), all_consuming(integer)))(tok);
    token.ok().map(|(_, v)| v)
}

/// The first field of a csv2 puzzle line: its leading digits (the rest, from the first
/// other character, is returned so the caller can point at it).
pub(super) fn csv2_field(t: &str) -> (&str, &str) {
    let field: Lexed<'_, &str> = take_while(|c: char| c.is_ascii_digit())(t);
    field.map_or((t, ""), |(rest, digits)| (rest, digits))
}

/// The cells of a csv2 field of an even number of ASCII digits (as [`csv2_field`] returns),
/// two per cell. A plain loop over byte pairs, not a combinator: the field is already known
/// to be digits, and the loop reads it at twice the speed of `fold_many0(take(2))`.
pub(super) fn csv2_cells(digits: &str, values: &mut Vec<u16>) {
    values.extend(
        digits
            .as_bytes()
            .chunks_exact(2)
            .map(|pair| u16::from(pair[0] - b'0') * 10 + u16::from(pair[1] - b'0')),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_lines_and_titles() {
        for line in ["", "   ", "# x", "  % y", "Grid 01", "Grid 7  "] {
            assert!(blank_or_comment(line), "{line:?}");
        }
        for line in ["1.3", "Grid", "Grid x", "Grid 01 x"] {
            assert!(!blank_or_comment(line), "{line:?}");
        }
    }

    #[test]
    fn tokens_carry_their_offsets() {
        let got: Vec<_> = tokens(" 1 . 3| 4", true).collect();
        assert_eq!(got, [(1, "1"), (3, "."), (5, "3"), (8, "4")]);
        let got: Vec<_> = tokens(" 1 . 3| 4", false).collect();
        assert_eq!(got, [(1, "1"), (3, "."), (5, "3|"), (8, "4")]);
    }

    #[test]
    fn cell_and_integer_tokens() {
        assert_eq!(cell_token("G"), Some(16));
        assert_eq!(cell_token("400"), Some(400));
        assert_eq!(cell_token("401"), None);
        assert_eq!(cell_token("036"), None);
        assert_eq!(integer_token("_"), Some(0));
        assert_eq!(integer_token("36"), Some(36));
        assert_eq!(integer_token("1x"), None);
        assert_eq!(integer_token("1234567890"), None);
    }

    #[test]
    fn the_symbol_table_agrees_with_symbol_value() {
        for byte in 0..=255u8 {
            let expected = if byte.is_ascii() {
                symbol_value(byte as char)
            } else {
                None
            };
            let mut values = Vec::new();
            let text = if byte.is_ascii() {
                (byte as char).to_string()
            } else {
                'é'.to_string()
            };
            let rest = symbols(&text, &mut values);
            assert_eq!(values.first().copied(), expected, "byte {byte}");
            assert_eq!(rest.is_empty(), expected.is_some(), "byte {byte}");
        }
        assert_eq!(line_body("12.é4 #"), "12.é4");
        assert_eq!(line_body("12.\u{2003}4"), "12.");
        assert_eq!(line_body("1.3;x"), "1.3");
        assert_eq!(line_body("1.3"), "1.3");
        // Every ASCII character ends a body as the character test does.
        for byte in 0..128u8 {
            let line = format!("12{}3", byte as char);
            assert_eq!(line_body(&line), line_body_chars(&line), "byte {byte}");
        }
    }

    #[test]
    fn symbols_stop_at_the_first_other_character() {
        let mut values = Vec::new();
        let rest = symbols("1.3!5", &mut values);
        assert_eq!(values, [1, 0, 3]);
        assert_eq!(rest, "!5");
    }

    #[test]
    fn csv2_header_rules_and_cells() {
        assert!(csv_header(" Puzzle ,solution"));
        assert_eq!(csv_header_column("puzzle"), Some(0));
        assert_eq!(csv_header_column("quizzes,solutions"), Some(0));
        assert_eq!(
            csv_header_column("id,puzzle,solution,clues,difficulty"),
            Some(1)
        );
        assert_eq!(csv_header_column("\"id\", \"Quizzes\"\r"), Some(1));
        assert_eq!(csv_header_column("id,solution"), None);
        assert_eq!(csv_header_column("puzzle solver"), None);
        assert_eq!(csv_header_column("1.3.,puzzle"), None);
        assert!(rule_line("------+-------"));
        assert!(!rule_line("| |"));
        let (rest, digits) = csv2_field("0102x");
        assert_eq!((rest, digits), ("x", "0102"));
        let mut values = Vec::new();
        csv2_cells(digits, &mut values);
        assert_eq!(values, [1, 2]);
    }
}
