//! Output files: `-o` writes what the user names without replacing it by something else. A
//! symbolic link's target gets the output, a pipe is written into (not renamed over), an
//! existing file keeps its mode, a read-only file and a missing directory are refused. A
//! closed stdout (`| head`) is a clean exit.

#![cfg(unix)]

mod common;

use std::os::unix::fs::{FileTypeExt, PermissionsExt};

use common::{assert_exit, path, run, stderr, temp_dir};

/// The solution of `thesis-4x4.txt` as `solve` prints it.
fn solved() -> String {
    let out = run(&["solve", &path("thesis-4x4.txt")]);
    assert_exit(&out, 0);
    String::from_utf8(out.stdout).unwrap()
}

fn solve_to(output: &std::path::Path) -> std::process::Output {
    run(&[
        "solve",
        &path("thesis-4x4.txt"),
        "-o",
        output.to_str().unwrap(),
    ])
}

#[test]
fn a_symbolic_link_keeps_pointing_at_its_target_which_gets_the_output() {
    let dir = temp_dir();
    let target = dir.path().join("real.txt");
    std::fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    assert_exit(&solve_to(&link), 0);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), solved());
    // A dangling link creates its target.
    let dangling = dir.path().join("dangling.txt");
    std::os::unix::fs::symlink("new.txt", &dangling).unwrap();
    assert_exit(&solve_to(&dangling), 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("new.txt")).unwrap(),
        solved()
    );
}

#[test]
fn a_named_pipe_is_written_into_not_replaced() {
    let dir = temp_dir();
    let fifo = dir.path().join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    assert_exit(&solve_to(&fifo), 0);
    // Checked before joining: had the pipe been renamed over, the reader would wait forever.
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), solved());
}

#[test]
fn an_existing_file_keeps_its_mode_and_a_read_only_one_is_refused() {
    let dir = temp_dir();
    let private = dir.path().join("private.txt");
    std::fs::write(&private, "old\n").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_exit(&solve_to(&private), 0);
    assert_eq!(std::fs::read_to_string(&private).unwrap(), solved());
    let mode = std::fs::metadata(&private).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);

    let read_only = dir.path().join("read-only.txt");
    std::fs::write(&read_only, "keep\n").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = solve_to(&read_only);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("read-only"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "keep\n");
}

#[test]
fn a_missing_directory_is_named() {
    let dir = temp_dir();
    let out = solve_to(&dir.path().join("no-such-dir/out.txt"));
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("no-such-dir") && err.contains("does not exist") && !err.contains(".sudosat-"),
        "{err}"
    );
}

/// Runs `sudosat ARGS` with its stdout a pipe whose reader is gone before anything is
/// written (as in `sudosat … | head` after head exits), and returns the exit status and
/// stderr.
fn run_into_closed_pipe(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = common::sudosat()
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sudosat starts");
    // Solving the fixture takes milliseconds; the reader is closed long before the output.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("sudosat runs");
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_is_a_clean_exit_for_every_output() {
    let hardest = path("expert-20.txt");
    for args in [
        vec!["solve", hardest.as_str()],
        vec!["compare", hardest.as_str(), "--csv", "-"],
        vec!["compare", hardest.as_str(), "--json", "-"],
    ] {
        let (status, err) = run_into_closed_pipe(&args);
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
    }
}
