//! The examples of README.md and of the guide (docs/*.md) run as they are shown, so the
//! docs cannot drift from the tool.
//!
//! A block fenced ```` ```console ```` is run; ```` ```sh ```` and ```` ```text ```` blocks
//! are shown only. In a console block each `$ ` line is a command (a line ending in `\`
//! goes on on the next), run through `sh -c` with the built `sudosat` first on `PATH`, and
//! the lines under it, up to the next `$ `, are its standard output: `...` alone on a line
//! matches any number of lines, `[..]` inside a line any text. A command must exit 0
//! unless its comment says `# exit N`. Standard error is not compared (`2>&1` shows it).
//!
//! The blocks of one document run in order in one fresh temporary directory, as a reader
//! follows them, which holds copies of the repository's files the commands name
//! (`examples/…`, `tests/fixtures/…`, `cnf/…`) under the same paths, so a user can type
//! the commands at the top of a clone. A block that runs an
//! external solver (`minisat`, `cadical`, `picosat`) is skipped with a printed reason when
//! the solver is not on `PATH`, and fails instead when `SUDOSAT_REQUIRE_EXTERNAL=1`.

mod common;

use common::{guide_files, repo_root};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The solver binaries an example may run; anything else it needs ships with the tool.
const EXTERNAL_SOLVERS: [&str; 3] = ["minisat", "cadical", "picosat"];

/// The folders of the repository whose files an example may name as its input.
const SHIPPED_INPUTS: [&str; 3] = ["examples/", "tests/fixtures/", "cnf/"];

/// One `$ ` command of a console block and the output shown under it.
#[derive(Debug, PartialEq)]
struct Step {
    /// 1-based line of the `$ ` in its file.
    line: usize,
    command: String,
    expected: Vec<String>,
    exit_code: i32,
}

/// A console block: its commands share one temporary directory, in order.
#[derive(Debug)]
struct Example {
    file: String,
    line: usize,
    steps: Vec<Step>,
}

/// README.md, then the guide's files in name order.
fn documents() -> Vec<PathBuf> {
    let mut all = vec![repo_root().join("README.md")];
    all.extend(guide_files());
    all
}

/// The exit code a command's comment announces (`# exit 10`), else 0.
fn announced_exit_code(command: &str) -> i32 {
    command
        .rfind("# exit ")
        .and_then(|at| {
            command[at + "# exit ".len()..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|digits| digits.parse().ok())
        })
        .unwrap_or(0)
}

/// The console blocks of one Markdown text.
fn console_blocks(file: &str, text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let console = info.trim() == "console";
        let mut example = Example {
            file: file.to_string(),
            line: index + 1,
            steps: Vec::new(),
        };
        let mut continued = false;
        for (index, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            if !console {
                continue;
            }
            if continued {
                let step = example.steps.last_mut().expect("a command goes on");
                step.command.push('\n');
                step.command.push_str(line);
                continued = line.ends_with('\\');
                step.exit_code = announced_exit_code(&step.command);
            } else if let Some(command) = line.strip_prefix("$ ") {
                continued = command.ends_with('\\');
                example.steps.push(Step {
                    line: index + 1,
                    command: command.to_string(),
                    expected: Vec::new(),
                    exit_code: announced_exit_code(command),
                });
            } else {
                let step = example.steps.last_mut().unwrap_or_else(|| {
                    panic!(
                        "{file}:{}: a console block starts with a `$ ` command",
                        index + 1
                    )
                });
                step.expected.push(line.to_string());
            }
        }
        if console {
            examples.push(example);
        }
    }
    examples
}

/// Does `text` match `pattern`, where `[..]` stands for any text?
fn line_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..];
    if !rest.ends_with(last) {
        return false;
    }
    rest = &rest[..rest.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// Do the output lines match the expected ones, where a line `...` stands for any lines?
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            !actual.is_empty()
                && line_matches(first.trim_end(), actual[0].trim_end())
                && lines_match(rest, &actual[1..])
        }
    }
}

/// The words of a command, split at whitespace and shell punctuation, comments left out.
fn words(command: &str) -> Vec<&str> {
    let code = command.split(" #").next().unwrap_or(command);
    code.split(|c: char| c.is_whitespace() || "|<>;&()'\"=,:".contains(c))
        .filter(|word| !word.is_empty())
        .collect()
}

/// The external solvers a block runs that are not on `PATH`.
fn missing_solvers(example: &Example) -> Vec<&'static str> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    EXTERNAL_SOLVERS
        .into_iter()
        .filter(|solver| {
            example
                .steps
                .iter()
                .any(|step| words(&step.command).contains(solver))
        })
        .filter(|solver| !std::env::split_paths(&path).any(|dir| dir.join(solver).is_file()))
        .collect()
}

fn copy_into(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).expect("a folder in the temp dir");
        for entry in fs::read_dir(from).expect("a shipped folder") {
            let entry = entry.expect("a shipped entry");
            copy_into(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        fs::create_dir_all(to.parent().expect("a parent")).expect("a folder in the temp dir");
        fs::copy(from, to).expect("a copy of a shipped file");
    }
}

/// Copies the shipped files the block names into `dir`, under the same relative paths; a
/// name with a `*` brings the files of its folder.
fn copy_inputs(example: &Example, dir: &Path) {
    let root = repo_root();
    for step in &example.steps {
        for word in words(&step.command) {
            if !SHIPPED_INPUTS.iter().any(|prefix| word.starts_with(prefix)) || word.contains("..")
            {
                continue;
            }
            let name = if word.contains('*') {
                word.rsplit_once('/').map_or(word, |(folder, _)| folder)
            } else {
                word
            };
            let from = root.join(name);
            if from.exists() && !dir.join(name).exists() {
                copy_into(&from, &dir.join(name));
            }
        }
    }
}

/// Runs a block in `dir`; the failures, each said in full.
fn run_example(example: &Example, dir: &Path, bin_dir: &Path) -> Vec<String> {
    copy_inputs(example, dir);
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let mut failures = Vec::new();
    for step in &example.steps {
        let out = Command::new("sh")
            .arg("-c")
            .arg(&step.command)
            .current_dir(dir)
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let mut actual: Vec<&str> = stdout.lines().collect();
        while actual.last().is_some_and(|line| line.trim().is_empty()) {
            actual.pop();
        }
        let mut expected = step.expected.clone();
        while expected.last().is_some_and(|line| line.trim().is_empty()) {
            expected.pop();
        }
        let code = out.status.code().unwrap_or(-1);
        let output_matches = lines_match(&expected, &actual);
        if !output_matches || code != step.exit_code {
            failures.push(format!(
                "{}:{}: $ {}\nexit code: expected {}, got {code}\n--- expected stdout\n{}\n--- got stdout\n{}\n--- stderr\n{}",
                example.file,
                step.line,
                step.command,
                step.exit_code,
                expected.join("\n"),
                actual.join("\n"),
                String::from_utf8_lossy(&out.stderr).trim_end(),
            ));
        }
    }
    failures
}

#[test]
fn the_documented_examples_print_what_the_docs_show() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sudosat"));
    let bin_dir = bin.parent().expect("the binary's folder");
    let require_external = std::env::var("SUDOSAT_REQUIRE_EXTERNAL").is_ok_and(|v| v == "1");
    let root = repo_root();
    let mut examples = Vec::new();
    for document in documents() {
        let text = fs::read_to_string(&document).expect("a readable document");
        let name = document
            .strip_prefix(&root)
            .expect("inside the repository")
            .display()
            .to_string();
        examples.extend(console_blocks(&name, &text));
    }

    // The README shows the three jobs users come for; they stay tested.
    let readme_commands: Vec<&str> = examples
        .iter()
        .filter(|example| example.file == "README.md")
        .flat_map(|example| example.steps.iter().map(|step| step.command.as_str()))
        .collect();
    for job in ["sudosat encode", "sudosat decode", "--report"] {
        assert!(
            readme_commands.iter().any(|command| command.contains(job)),
            "no README example runs `{job}`: {readme_commands:?}"
        );
    }

    let mut failures = Vec::new();
    let mut ran = 0;
    let mut dirs: Vec<(String, tempfile::TempDir)> = Vec::new();
    for example in &examples {
        if dirs.last().map_or(true, |(file, _)| *file != example.file) {
            dirs.push((
                example.file.clone(),
                tempfile::tempdir().expect("a temp dir"),
            ));
        }
        let dir = dirs.last().expect("a dir").1.path();
        assert!(
            !example.steps.is_empty(),
            "{}:{}: an empty console block",
            example.file,
            example.line
        );
        let missing = missing_solvers(example);
        if !missing.is_empty() {
            let reason = format!(
                "{}:{}: needs {} on PATH",
                example.file,
                example.line,
                missing.join(", ")
            );
            if require_external {
                failures.push(format!("{reason} (SUDOSAT_REQUIRE_EXTERNAL=1)"));
            } else {
                eprintln!("skipped {reason}");
            }
            continue;
        }
        failures.extend(run_example(example, dir, bin_dir));
        ran += example.steps.len();
    }
    assert!(ran > 0 || !failures.is_empty(), "no example ran");
    eprintln!("{ran} documented commands ran");
    assert!(
        failures.is_empty(),
        "{} documented example(s) differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_inside_a_line_matches_any_text() {
        assert!(line_matches("solved in [..] ms", "solved in 1.25 ms"));
        assert!(line_matches("[..]", ""));
        assert!(line_matches("a[..]b[..]c", "a-b-b-c"));
        assert!(!line_matches("a[..]b[..]c", "a-c-b"));
        assert!(!line_matches("ab[..]ba", "aba"));
        assert!(!line_matches("exact", "exactly"));
    }

    #[test]
    fn an_ellipsis_line_matches_any_lines() {
        let expected: Vec<String> = ["first", "...", "last"].map(String::from).to_vec();
        assert!(lines_match(&expected, &["first", "last"]));
        assert!(lines_match(&expected, &["first", "x", "y", "last"]));
        assert!(!lines_match(&expected, &["first", "x"]));
        assert!(!lines_match(&expected, &["first", "last", "more"]));
        assert!(lines_match(&["...".to_string()], &[]));
        assert!(!lines_match(&[], &["output nobody showed"]));
    }

    #[test]
    fn console_blocks_are_read_and_other_blocks_shown_only() {
        let text = "\
intro
```sh
sudosat solve not-run.txt
```
```console
$ sudosat solve a.txt
812753649[..]
$ sudosat sat a.cnf \\
  -n   # exit 10: satisfiable
s SATISFIABLE
```
";
        let examples = console_blocks("doc.md", text);
        assert_eq!(examples.len(), 1);
        assert_eq!(examples[0].line, 5);
        let steps = &examples[0].steps;
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0].command, "sudosat solve a.txt");
        assert_eq!(steps[0].expected, vec!["812753649[..]".to_string()]);
        assert_eq!(steps[0].exit_code, 0);
        assert_eq!(steps[1].line, 8);
        assert_eq!(
            steps[1].command,
            "sudosat sat a.cnf \\\n  -n   # exit 10: satisfiable"
        );
        assert_eq!(steps[1].exit_code, 10);
        assert_eq!(steps[1].expected, vec!["s SATISFIABLE".to_string()]);
    }

    #[test]
    fn solver_names_are_found_as_words_only() {
        assert_eq!(
            words("sudosat solve p.txt --backend \"external:cadical -q\" | wc # picosat"),
            vec![
                "sudosat",
                "solve",
                "p.txt",
                "--backend",
                "external",
                "cadical",
                "-q",
                "wc"
            ]
        );
        assert!(!words("sudosat decode cadical.model").contains(&"cadical"));
    }
}
