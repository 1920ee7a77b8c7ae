//! Shared helpers for the integration tests: run the real binary, find fixtures, decide
//! whether tests needing an external solver run or skip.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Path of a file in `tests/fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// The real `sudosat` binary.
pub fn sudosat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudosat"))
}

/// Runs `sudosat ARGS` in `dir` with `stdin` fed in, and returns its output.
pub fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = sudosat()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sudosat binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin)
        .ok();
    child.wait_with_output().expect("sudosat runs")
}

/// Runs `sudosat ARGS` in the crate directory with empty stdin.
pub fn run(args: &[&str]) -> Output {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, b"")
}

/// Stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the exit code, printing both streams when it differs.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "expected exit {code}, got {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

/// Asserts `text` equals `expected`, printing a line diff when not.
pub fn assert_text_eq(got: &str, expected: &str) {
    if got != expected {
        let mut diff = String::new();
        for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
            if g != e {
                diff.push_str(&format!(
                    "line {}:\n  expected: {e}\n  got:      {g}\n",
                    i + 1
                ));
            }
        }
        panic!(
            "output differs ({} vs {} lines)\n{diff}--- got ---\n{got}",
            got.lines().count(),
            expected.lines().count()
        );
    }
}

/// Whether an external solver binary is on PATH. When it is not: panics if
/// `SUDOSAT_REQUIRE_EXTERNAL=1` (CI), else prints why the test is skipped and returns false.
pub fn external_available(binary: &str) -> bool {
    let found = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(binary).is_file()))
        .unwrap_or(false);
    if found {
        return true;
    }
    if std::env::var("SUDOSAT_REQUIRE_EXTERNAL").as_deref() == Ok("1") {
        panic!("`{binary}` is not on PATH but SUDOSAT_REQUIRE_EXTERNAL=1 requires it");
    }
    eprintln!("skipped: `{binary}` is not on PATH (install it, e.g. apt-get install {binary})");
    false
}

/// A fresh temporary directory for one test.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}
