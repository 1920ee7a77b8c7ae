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

/// `--version` names the solver libraries built in, with their versions, and the backends
/// this build left out with their features; `--help` lists every backend with what it
/// can do and the feature that brings it.
#[test]
fn version_and_help_name_the_embedded_solvers_and_their_features() {
    use sudosat::backend::BackendKind;
    let out = run(&["--version"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("sudosat {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(
        lines[1],
        format!(
            "embedded SAT solvers: {}",
            sudosat::backend::embedded_libraries().join(", ")
        )
    );
    for kind in [BackendKind::Cadical, BackendKind::Kissat] {
        let feature = format!("{kind} (cargo feature `{kind}`)");
        assert_eq!(text.contains(&feature), !kind.is_built(), "{text}");
    }
    let out = run(&["sat", "--help"]);
    assert_exit(&out, 0);
    let help = stdout(&out);
    for kind in BackendKind::ALL {
        let (name, line) = (format!("- {}:", kind.name()), kind.entry().help_line());
        assert!(
            help.lines().any(|l| {
                let l = l.trim();
                l.starts_with(&name) && l[name.len()..].trim_start() == line
            }),
            "{name} {line}\n{help}"
        );
    }
    let cadical = BackendKind::Cadical.entry().help_line();
    if BackendKind::Cadical.is_built() {
        assert!(
            cadical.contains("assumptions, time limits, interrupts, DRAT proofs"),
            "{cadical}"
        );
    }
    assert!(cadical.contains("(feature `cadical`"), "{cadical}");
}
