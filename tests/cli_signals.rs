//! SIGINT (once and twice), SIGTERM and SIGHUP sent to the real binary while a child runs:
//! an external solver (a script whose child sleeps) or a proof checker. The exit code is
//! 128 + the signal (130, 143, 129), no child process and no temporary directory is left
//! behind, and `compare` writes its partial outputs, the run in flight marked `stopped`.
//! Each run gets a private TMPDIR to look in.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod common;

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

/// A run of the binary in a fresh directory with a private TMPDIR, and the file where the
/// stand-in children write their pids.
struct Setup {
    work: tempfile::TempDir,
    tmp: PathBuf,
    pids: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let work = tempfile::tempdir().unwrap();
        let tmp = work.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        let pids = work.path().join("pids");
        Setup { work, tmp, pids }
    }

    fn dir(&self) -> &Path {
        self.work.path()
    }

    /// A solver that records its pid and its child's, then waits forever; it answers the
    /// formula `compare` checks every entry on first (without recording anything).
    fn sleeping_solver(&self) -> PathBuf {
        common::stand_in_solver(
            self.dir(),
            "sleeping-solver.sh",
            &format!(
                "echo $$ >> '{0}'\nsleep 600 &\necho $! >> '{0}'\nwait",
                self.pids.display()
            ),
        )
    }

    fn spawn(&self, args: &[String]) -> Child {
        Command::new(env!("CARGO_BIN_EXE_sudosat"))
            .args(args)
            .current_dir(self.dir())
            .env("TMPDIR", &self.tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn recorded_pids(&self) -> Vec<i32> {
        std::fs::read_to_string(&self.pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Waits until the stand-in and its child are up, and returns their pids.
    fn wait_for_children(&self) -> Vec<i32> {
        self.wait_for_pids(2)
    }

    /// Waits until `count` pids are recorded (stand-ins and their children), and returns
    /// them.
    fn wait_for_pids(&self, count: usize) -> Vec<i32> {
        wait_for("the children and their own children", || {
            self.recorded_pids().len() >= count
        });
        let pids = self.recorded_pids();
        assert!(pids.iter().all(|&p| alive(p)), "child not running");
        pids
    }

    /// Checks that nothing is left: no child process, nothing in TMPDIR, no output temp
    /// file.
    fn assert_clean(&self, children: &[i32]) {
        for &pid in children {
            wait_for("the child processes to go", || !alive(pid));
        }
        let left: Vec<_> = std::fs::read_dir(&self.tmp)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "left in TMPDIR: {left:?}");
        let hidden: Vec<_> = std::fs::read_dir(self.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".sudosat-"))
            .collect();
        assert!(hidden.is_empty(), "partial outputs left: {hidden:?}");
    }
}

/// Sends each signal of `signals` to `child`, then waits for it to end.
fn signal_and_wait(child: &mut Child, signals: &[i32]) -> (ExitStatus, String) {
    for &signal in signals {
        // SAFETY: signalling the child we spawned (not yet reaped: its pid is still ours).
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
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
    (status, stderr)
}

/// Runs `sudosat solve` with the sleeping solver, sends `signals` once the solver and its
/// child are up, and checks the exit code and that nothing is left.
fn interrupt_solve(signals: &[i32], expected_code: i32, extra: &[&str]) {
    let setup = Setup::new();
    let solver = setup.sleeping_solver();
    let mut args = vec![
        "solve".to_string(),
        fixture("inkala-line.txt"),
        "--backend".into(),
        "external".into(),
        "--solver-cmd".into(),
        solver.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut child = setup.spawn(&args);
    let children = setup.wait_for_children();
    let (status, stderr) = signal_and_wait(&mut child, signals);
    assert_eq!(status.code(), Some(expected_code), "stderr: {stderr}");
    setup.assert_clean(&children);
    assert!(
        !setup.dir().join("out.txt").exists(),
        "a partial output was renamed into place"
    );
}

#[test]
fn sigint_kills_the_solver_group_and_exits_130() {
    interrupt_solve(&[libc::SIGINT], 130, &[]);
}

#[test]
fn two_sigints_kill_the_solver_group_and_exit_130() {
    interrupt_solve(&[libc::SIGINT, libc::SIGINT], 130, &[]);
}

#[test]
fn sigterm_kills_the_solver_group_and_exits_143() {
    interrupt_solve(&[libc::SIGTERM], 143, &[]);
}

#[test]
fn sighup_kills_the_solver_group_and_exits_129() {
    interrupt_solve(&[libc::SIGHUP], 129, &[]);
}

#[test]
fn sigterm_with_an_output_file_leaves_neither_output_nor_temp_file() {
    interrupt_solve(&[libc::SIGTERM], 143, &["--output", "out.txt"]);
}

/// The rows of a CSV written by `compare --csv`, as (solver, outcome, error) triples.
fn csv_rows(path: &Path) -> Vec<(String, String, String)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (solver, outcome, error) = (column("solver"), column("outcome"), column("error"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[solver].to_string(),
                r[outcome].to_string(),
                r[error].to_string(),
            )
        })
        .collect()
}

/// Runs `sudosat compare` of dlx and the sleeping solver on one 4×4 puzzle, sends
/// `signals` once the solver's run is in flight, and checks the exit code, that nothing is
/// left, and the partial outputs: dlx's row solved, the solver's `stopped`, the
/// comparison marked interrupted, the report written.
fn interrupt_compare(signals: &[i32], expected_code: i32) {
    let setup = Setup::new();
    let solver = setup.sleeping_solver();
    let args: Vec<String> = [
        "compare",
        "-q",
        &fixture("thesis-4x4.txt"),
        "--solvers",
        &format!("dlx,external:{}", solver.display()),
        "--csv",
        "runs.csv",
        "--report",
        "report",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut child = setup.spawn(&args);
    let children = setup.wait_for_children();
    let (status, stderr) = signal_and_wait(&mut child, signals);
    assert_eq!(status.code(), Some(expected_code), "stderr: {stderr}");
    setup.assert_clean(&children);
    let label = format!("external:{}/extended+reduced", solver.display());
    let rows = csv_rows(&setup.dir().join("runs.csv"));
    assert_eq!(
        rows,
        [
            ("dlx".to_string(), "solved".to_string(), String::new()),
            (
                label.clone(),
                "stopped".to_string(),
                "interrupted: the comparison was stopped".to_string()
            ),
        ],
        "stderr: {stderr}"
    );
    let meta = std::fs::read_to_string(setup.dir().join("runs.meta.json")).unwrap();
    assert!(meta.contains("\"interrupted\": true"), "{meta}");
    let report = std::fs::read_to_string(setup.dir().join("report/index.html")).unwrap();
    assert!(report.contains("stopped"));
    let saved = std::fs::read_to_string(setup.dir().join("report/runs.csv")).unwrap();
    assert_eq!(saved.lines().count(), 3, "{saved}");
    assert_redrawn_counts_stopped_apart(setup.dir(), &label);
}

/// `--from-csv` reads the stopped row back as `stopped`: not solved, not a time-out, not
/// in PAR-2 (the entry has no other puzzle, so no PAR-2), and the redraw exits 0.
fn assert_redrawn_counts_stopped_apart(dir: &Path, label: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_sudosat"))
        .args(["compare", "--from-csv", "runs.csv", "--timeout", "600"])
        .args(["--json", "redrawn.json"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(dir.join("redrawn.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["interrupted"], true);
    let summary = json["summary"].as_array().unwrap();
    let of = |solver: &str| {
        summary
            .iter()
            .find(|s| s["solver"] == solver)
            .unwrap_or_else(|| panic!("no summary of {solver}: {summary:?}"))
    };
    let stopped = of(label);
    assert_eq!(
        (
            &stopped["stopped"],
            &stopped["solved"],
            &stopped["timeout"],
            &stopped["par2_us"]
        ),
        (
            &serde_json::json!(1),
            &serde_json::json!(0),
            &serde_json::json!(0),
            &serde_json::Value::Null
        ),
        "{stopped}"
    );
    let dlx = of("dlx");
    assert_eq!(dlx["solved"], 1);
    assert!(dlx["par2_us"].as_f64().is_some_and(|t| t > 0.0), "{dlx}");
}

#[test]
fn compare_sigint_stops_the_run_in_flight_writes_it_as_stopped_and_exits_130() {
    interrupt_compare(&[libc::SIGINT], 130);
}

#[test]
fn compare_two_sigints_write_the_partial_outputs_once_and_exit_130() {
    interrupt_compare(&[libc::SIGINT, libc::SIGINT], 130);
}

#[test]
fn compare_sigterm_writes_the_partial_outputs_and_exits_143() {
    interrupt_compare(&[libc::SIGTERM], 143);
}

#[test]
fn compare_sighup_writes_the_partial_outputs_and_exits_129() {
    interrupt_compare(&[libc::SIGHUP], 129);
}

/// CPU time a process has used, in clock ticks (Linux): utime + stime, fields 14 and 15
/// of `/proc/PID/stat`, the 12th and 13th after the name.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after_name: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let field = |i: usize| after_name.get(i).and_then(|f| f.parse::<u64>().ok());
    field(11).unwrap_or(0) + field(12).unwrap_or(0)
}

/// A run that cannot be interrupted (a classic solver: hill climbing on a 25×25 puzzle,
/// with an iteration cap it will not reach): the signal's thread writes the partial
/// outputs, the run in flight as `stopped`, without waiting for it.
#[test]
fn compare_writes_a_run_that_cannot_be_interrupted_as_stopped() {
    if !Path::new("/proc/self/stat").exists() {
        eprintln!("skipped: no /proc to see the solve running");
        return;
    }
    let setup = Setup::new();
    let args: Vec<String> = [
        "compare",
        "-q",
        &fixture("sudoku-25-1.txt"),
        "--solvers",
        "hill",
        "--max-iterations",
        "100000000000",
        "--csv",
        "runs.csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut child = setup.spawn(&args);
    let pid = child.id();
    // Reading the puzzle and starting take a few ms of CPU; 0.2 s means the climb runs.
    wait_for("the solve to run", || cpu_ticks(pid) >= 20);
    let (status, stderr) = signal_and_wait(&mut child, &[libc::SIGINT]);
    assert_eq!(status.code(), Some(130), "stderr: {stderr}");
    setup.assert_clean(&[]);
    let rows = csv_rows(&setup.dir().join("runs.csv"));
    assert_eq!(
        rows,
        [(
            "hill".to_string(),
            "stopped".to_string(),
            "interrupted: the comparison was stopped".to_string()
        )]
    );
}

/// The cube workers of `sat --cubes`, each running an external solver: a signal ends all
/// of them.
#[test]
fn sigterm_during_cube_workers_kills_every_solver_and_exits_143() {
    let setup = Setup::new();
    let dir = setup.dir();
    std::fs::write(dir.join("empty.txt"), format!("{}\n", ".".repeat(81))).unwrap();
    let prepare = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_sudosat"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    prepare(&["encode", "empty.txt", "-o", "empty.cnf"]);
    prepare(&["cube", "empty.cnf", "--depth", "2", "-o", "cubes.icnf"]);
    let solver = setup.sleeping_solver();
    let args: Vec<String> = [
        "sat",
        "empty.cnf",
        "--cubes",
        "cubes.icnf",
        "--backend",
        "external",
        "--solver-cmd",
        &solver.display().to_string(),
        "--threads",
        "3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut child = setup.spawn(&args);
    // Three workers, each a solver and its child.
    let children = setup.wait_for_pids(6);
    let (status, stderr) = signal_and_wait(&mut child, &[libc::SIGTERM]);
    assert_eq!(status.code(), Some(143), "stderr: {stderr}");
    setup.assert_clean(&children);
}

/// The proof checker of `--certify` runs in its own process group too: a signal ends it.
#[test]
fn sigterm_during_certify_kills_the_checker_and_exits_143() {
    let setup = Setup::new();
    std::fs::write(setup.dir().join("in.txt"), "11..............\n").unwrap();
    let checker = common::write_script(
        setup.dir(),
        "checker.sh",
        &format!(
            "#!/bin/sh\necho $$ >> '{0}'\nsleep 600 &\necho $! >> '{0}'\nwait\n",
            setup.pids.display()
        ),
    );
    let args: Vec<String> = [
        "solve",
        "in.txt",
        "--proof-dir",
        "proofs",
        "--certify",
        &format!("{} {{cnf}} {{proof}}", checker.display()),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut child = setup.spawn(&args);
    let children = setup.wait_for_children();
    let (status, stderr) = signal_and_wait(&mut child, &[libc::SIGTERM]);
    assert_eq!(status.code(), Some(143), "stderr: {stderr}");
    setup.assert_clean(&children);
}

/// Pigeonhole 12 → 11 as DIMACS: no solver here refutes it in minutes.
fn hard_formula(dir: &Path) -> PathBuf {
    let (pigeons, holes) = (12, 11);
    let var = |p: usize, h: usize| p * holes + h + 1;
    let mut clauses: Vec<String> = (0..pigeons)
        .map(|p| {
            let lits: Vec<String> = (0..holes).map(|h| var(p, h).to_string()).collect();
            format!("{} 0", lits.join(" "))
        })
        .collect();
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                clauses.push(format!("-{} -{} 0", var(p, h), var(q, h)));
            }
        }
    }
    let path = dir.join("php-12-11.cnf");
    let text = format!(
        "p cnf {} {}\n{}\n",
        pigeons * holes,
        clauses.len(),
        clauses.join("\n")
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// The C solvers inside the process (cadical and kissat, where the build has them): a
/// signal during their search stops it through their terminate callback. `sat` exits
/// 128 + the signal and leaves no proof, no temporary file and no temporary directory;
/// compare writes the run in flight as `stopped` and its partial outputs.
#[test]
fn a_signal_stops_the_embedded_c_solvers_and_leaves_nothing_behind() {
    use sudosat::backend::BackendKind;
    if !Path::new("/proc/self/stat").exists() {
        eprintln!("skipped: no /proc to see the solve running");
        return;
    }
    let native = [BackendKind::Cadical, BackendKind::Kissat];
    for kind in native.into_iter().filter(|k| k.is_built()) {
        let setup = Setup::new();
        let cnf = hard_formula(setup.dir()).display().to_string();
        let mut sat = vec!["sat", &cnf, "--backend", kind.name()];
        if kind
            .entry()
            .capabilities()
            .contains(&sudosat::backend::Capability::Proofs)
        {
            sat.extend(["--proof", "proof.drat"]);
        }
        for (args, code, signal) in [
            (sat, 130, libc::SIGINT),
            (
                vec![
                    "compare",
                    "-q",
                    &cnf,
                    "--solvers",
                    kind.name(),
                    "--csv",
                    "runs.csv",
                ],
                143,
                libc::SIGTERM,
            ),
        ] {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            let mut child = setup.spawn(&args);
            let pid = child.id();
            // Reading the formula takes a few ms; 0.3 s of CPU means the search runs.
            wait_for("the solve to run", || cpu_ticks(pid) >= 30);
            let (status, stderr) = signal_and_wait(&mut child, &[signal]);
            assert_eq!(status.code(), Some(code), "{kind} {args:?}: {stderr}");
            setup.assert_clean(&[]);
        }
        assert!(!setup.dir().join("proof.drat").exists(), "{kind}");
        let rows = csv_rows(&setup.dir().join("runs.csv"));
        assert_eq!(
            rows,
            [(
                kind.name().to_string(),
                "stopped".to_string(),
                "interrupted: the comparison was stopped".to_string()
            )],
            "{kind}"
        );
    }
}
