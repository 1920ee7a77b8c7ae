//! SIGINT and SIGTERM sent to the real binary while an external solver (a script that
//! sleeps in a child process) runs: the exit code is 130 or 143, and no solver process and
//! no temporary directory is left behind. Each run gets a private TMPDIR to look in.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whether a process exists and is not a zombie.
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        // SAFETY: kill(2) with signal 0 only checks that the process exists.
        Err(_) => unsafe { libc::kill(pid, 0) == 0 },
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `sudosat ARGS` with the sleeping solver, sends `signal` once the solver and its
/// child are up, and checks the exit code and that nothing is left.
fn interrupt(signal: i32, expected_code: i32, extra: &[&str]) {
    let work = tempfile::tempdir().unwrap();
    let tmp = work.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let pids = work.path().join("pids");
    let script = work.path().join("slow-solver.sh");
    // The solver records its pid and its child's, then waits forever.
    std::fs::write(
        &script,
        "#!/bin/sh\necho $$ >> \"$1\"\nsleep 600 &\necho $! >> \"$1\"\nwait\n",
    )
    .unwrap();
    let solver = format!("sh {} {}", script.display(), pids.display());
    let mut args = vec![
        "solve".to_string(),
        fixture("inkala-line.txt"),
        "--backend".into(),
        "external".into(),
        "--solver-cmd".into(),
        solver,
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudosat"))
        .args(&args)
        .current_dir(work.path())
        .env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let read_pids = || -> Vec<i32> {
        std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    };
    wait_for("the solver and its child", || read_pids().len() >= 2);
    let solver_pids = read_pids();
    assert!(solver_pids.iter().all(|&p| alive(p)), "solver not running");
    // SAFETY: signalling the child we spawned.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "sudosat did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(expected_code), "stderr: {stderr}");
    for pid in solver_pids {
        wait_for("the solver processes to go", || !alive(pid));
    }
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    let hidden: Vec<_> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".sudosat-"))
        .collect();
    assert!(hidden.is_empty(), "partial outputs left: {hidden:?}");
    assert!(
        !Path::new(&work.path().join("out.txt")).exists(),
        "a partial output was renamed into place"
    );
}

#[test]
fn sigint_kills_the_solver_group_and_exits_130() {
    interrupt(libc::SIGINT, 130, &[]);
}

#[test]
fn sigterm_kills_the_solver_group_and_exits_143() {
    interrupt(libc::SIGTERM, 143, &[]);
}

#[test]
fn sigterm_with_an_output_file_leaves_neither_output_nor_temp_file() {
    interrupt(libc::SIGTERM, 143, &["--output", "out.txt"]);
}
