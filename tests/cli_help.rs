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

/// `n` with a comma between thousands, as the help writes numbers: `10,000`.
fn thousands(n: impl ToString) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A small count in words, as the help writes one in a sentence.
fn in_words(n: usize) -> &'static str {
    [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ][n]
}

/// The long help of `sudosat ARGS --help` with every run of white space one space, so
/// that a phrase is found wherever clap wrapped it.
fn long_help(args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.push("--help");
    let out = run(&all);
    assert_exit(&out, 0);
    stdout(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every threshold, budget or default that the help states and a constant defines says
/// the constant's value: a change to one without the other fails here.
#[test]
fn help_states_the_values_of_the_constants_that_define_them() {
    use sudosat_sat::cdcl::{
        LOOKAHEAD_RACE_MAX_VARS, LOOKAHEAD_SEARCH_CLAUSE_LENGTHS, LOOKAHEAD_SEARCH_MAX_VARS,
        VARS_PER_CONFLICT_BEFORE_LOOKAHEAD,
    };
    use sudosat_sat::dpll::AUTO_FULL_ABOVE;

    let lengths = LOOKAHEAD_SEARCH_CLAUSE_LENGTHS;
    let solver_help = [
        // --lookahead: dpll's and cdcl's auto thresholds, cdcl's lookahead search and race.
        format!(
            "none up to {} variables, full above",
            thousands(AUTO_FULL_ABOVE)
        ),
        format!("auto: above {} variables", thousands(AUTO_FULL_ABOVE)),
        format!(
            "a formula of up to {} variables",
            thousands(LOOKAHEAD_SEARCH_MAX_VARS)
        ),
        format!("{} ≤ k ≤ {}", lengths.start(), lengths.end()),
        format!(
            "one conflict per {} variables",
            in_words(VARS_PER_CONFLICT_BEFORE_LOOKAHEAD)
        ),
        format!(
            "on formulas of up to {} variables",
            thousands(LOOKAHEAD_RACE_MAX_VARS)
        ),
        // --load auto, --propagate's widest grid, --max-iterations of hill.
        format!(
            "`root-units` up to {0}×{0}",
            sudosat::solve::sat::ROOT_UNITS_MAX_SIDE
        ),
        format!(
            "Grids wider than {} always use clauses only",
            sudosat::backend::MAX_NATIVE_SIDE
        ),
        format!(
            "iterations (hill, default {})",
            thousands(sudosat::solve::hill_climb::DEFAULT_ITERATIONS)
        ),
    ];
    let pencil_marks = format!(
        "Grids up to {0}×{0}",
        sudosat::grid::svg::MAX_CANDIDATE_SIDE
    );
    let expected: Vec<(&[&str], Vec<String>)> = vec![
        (&["solve"][..], solver_help.to_vec()),
        (
            &["compare"],
            vec![format!(
                "each puzzle's or formula's time per entry, up to {}",
                sudosat::compare::summary::PER_INSTANCE_SHOWN
            )],
        ),
        (
            &["check"],
            vec![format!(
                "wider than {0}×{0}, the set they find is kept",
                sudosat::generate::EXACT_CORE_MAX_SIDE
            )],
        ),
        (&["render"], vec![pencil_marks.clone()]),
        (&["explain"], vec![pencil_marks]),
    ];
    for (args, phrases) in expected {
        let help = long_help(args);
        for phrase in phrases {
            assert!(
                help.contains(&phrase),
                "`sudosat {} --help` does not say `{phrase}`",
                args.join(" ")
            );
        }
    }
}
