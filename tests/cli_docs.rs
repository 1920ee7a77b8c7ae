//! `sudosat completions` and `sudosat man` through the real binary: every subcommand and
//! every long option of `--help` reaches the scripts and pages.

mod common;

use std::collections::BTreeSet;

use common::{assert_exit, run, run_in, stderr, stdout, temp_dir};

/// The subcommands `sudosat --help` lists.
fn subcommands() -> Vec<String> {
    let out = run(&["--help"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let list = text
        .split("Commands:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("a Commands section");
    let names: Vec<String> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 14, "{names:?}");
    names
}

/// The long options a `--help` text lists (its lines that start with `-x, --name` or
/// `--name`).
fn long_options(help: &str) -> BTreeSet<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| {
            l.split([' ', ','])
                .find(|w| w.starts_with("--"))
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn each_subcommand_page_lists_every_option_its_help_shows() {
    for name in subcommands() {
        let help = run(&[&name, "--help"]);
        assert_exit(&help, 0);
        let page = run(&["man", &name]);
        assert_exit(&page, 0);
        let roff = stdout(&page);
        assert!(
            roff.contains(&format!(".TH sudosat-{name} 1")),
            "{name}: {}",
            &roff[..roff.len().min(300)]
        );
        // The synopsis shows the command as it is typed.
        assert!(roff.contains(&format!("\\fBsudosat {name}\\fR")), "{name}");
        let options = long_options(&stdout(&help));
        assert!(options.contains("--help"), "{name}: {options:?}");
        for option in options {
            let escaped = option.replace('-', "\\-");
            assert!(
                roff.contains(&escaped),
                "{name}: {option} missing from the page"
            );
        }
    }
}

#[test]
fn the_main_page_names_every_subcommand() {
    let out = run(&["man"]);
    assert_exit(&out, 0);
    let roff = stdout(&out);
    assert!(roff.contains(".TH sudosat 1"), "{roff}");
    for name in subcommands() {
        assert!(roff.contains(&format!("sudosat\\-{name}(1)")), "{name}");
    }
}

#[test]
fn man_dir_writes_one_page_per_command() {
    let dir = temp_dir();
    let out = run_in(dir.path(), &["man", "--dir", "pages"], b"");
    assert_exit(&out, 0);
    let mut written: Vec<String> = std::fs::read_dir(dir.path().join("pages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    let mut expected: Vec<String> = subcommands()
        .iter()
        .map(|n| format!("sudosat-{n}.1"))
        .chain(["sudosat.1".to_string()])
        .collect();
    expected.sort();
    assert_eq!(written, expected);
    for name in &written {
        let page = std::fs::read_to_string(dir.path().join("pages").join(name)).unwrap();
        assert!(page.contains(".SH SYNOPSIS"), "{name}");
    }
}

#[test]
fn an_unknown_page_is_an_error_listing_the_subcommands() {
    let out = run(&["man", "nope"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("no subcommand `nope`"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("solve"), "{}", stderr(&out));
}

#[test]
fn every_shell_gets_a_script_that_names_every_subcommand() {
    let names = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_exit(&out, 0);
        let script = stdout(&out);
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell}: {name}");
        }
    }
    let out = run(&["completions", "tcsh"]);
    assert_exit(&out, 2);
}

/// The bash script completes a subcommand and an option, run by bash itself (skipped,
/// with the reason, where there is no bash).
#[test]
fn the_bash_script_completes_in_bash() {
    if std::process::Command::new("bash")
        .arg("-c")
        .arg("true")
        .status()
        .is_err()
    {
        eprintln!("skipped: no bash on PATH");
        return;
    }
    let dir = temp_dir();
    let script = dir.path().join("sudosat.bash");
    std::fs::write(&script, run(&["completions", "bash"]).stdout).unwrap();
    let complete = |words: &str, cword: usize| {
        let program = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD={cword}; \
             _sudosat sudosat \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; \
             echo \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(program)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(complete("sudosat so", 1), "solve");
    assert_eq!(complete("sudosat solve --back", 2), "--backend");
}
