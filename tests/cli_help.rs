//! CLI tests of the help: `-h` is a list a user can scan (one line per option, at most 100
//! characters), `--help` adds the detail and examples. They run the real binary and walk
//! the subcommands it lists itself.

mod common;

use common::{assert_exit, run, stdout};

/// The widest line `-h` may print.
const MAX_WIDTH: usize = 100;

/// The subcommands `sudosat help` lists (all but `help` itself).
fn subcommands() -> Vec<String> {
    let out = run(&["help"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let (_, list) = text.split_once("Commands:").expect("a list of commands");
    list.lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The lines of `text` wider than [`MAX_WIDTH`] characters.
fn too_wide(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().count() > MAX_WIDTH)
        .map(str::to_string)
        .collect()
}

#[test]
fn short_help_fits_100_columns_and_long_help_adds_the_detail() {
    let subcommands = subcommands();
    for expected in [
        "solve", "encode", "sizes", "decode", "count", "sat", "cube", "compare",
    ] {
        assert!(subcommands.iter().any(|s| s == expected), "{subcommands:?}");
    }
    let top = run(&["-h"]);
    assert_exit(&top, 0);
    assert_eq!(too_wide(&stdout(&top)), Vec::<String>::new(), "sudosat -h");
    for sub in &subcommands {
        let short = run(&[sub, "-h"]);
        assert_exit(&short, 0);
        let short = stdout(&short);
        assert!(short.contains("Usage: sudosat "), "{sub} -h:\n{short}");
        assert_eq!(too_wide(&short), Vec::<String>::new(), "sudosat {sub} -h");
        // One line per option: each line that starts an option names one.
        let options = short
            .lines()
            .filter(|l| l.trim_start().starts_with('-'))
            .count();
        assert!(options >= 1, "{sub} -h:\n{short}");
        let long = run(&[sub, "--help"]);
        assert_exit(&long, 0);
        let long = stdout(&long);
        assert!(
            long.len() > short.len(),
            "sudosat {sub} --help ({} bytes) is not longer than -h ({} bytes)",
            long.len(),
            short.len()
        );
        assert!(
            long.contains("Examples:\n  sudosat "),
            "{sub} --help has no examples:\n{long}"
        );
    }
}

/// The lists of possible values stay in `--help`, where they are one line each or wrapped
/// with the option's detail; `-h` keeps the default.
#[test]
fn possible_values_are_in_the_long_help() {
    let short = stdout(&run(&["solve", "-h"]));
    assert!(!short.contains("[possible values:"), "{short}");
    assert!(short.contains("[default: cdcl]"), "{short}");
    let long = stdout(&run(&["solve", "--help"]));
    assert!(long.contains("[possible values: "), "{long}");
    assert!(long.contains("lookahead"), "{long}");
}
