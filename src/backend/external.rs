//! External SAT solvers run as processes: MiniSat 2.2 (Eén & Sörensson 2003, "An extensible
//! SAT-solver"), which writes its answer to a result file, and any solver that prints the
//! SAT-competition `s`/`v` lines on stdout (CaDiCaL, PicoSAT, Kissat…).
//!
//! The formula goes to the solver through a DIMACS file in a fresh temporary directory; stdout
//! and stderr go to files there too (no pipe can fill up and stall). The directory is removed
//! when the solve ends, on errors as well; one left by a run killed outright (SIGKILL, the
//! OOM killer) is removed by the next run's first solve, its owner's pid being in its name. A time-out kills the solver's whole process group.
//! A missing binary, a crash, an unexpected exit status, output that is not an answer and a
//! time-out are each a [`BackendError`] naming the command.
//!
//! DRAT proofs ([`crate::backend::WriteProofs::set_proof`]): CaDiCaL and Kissat take the proof file as a
//! second argument after the input; any other solver command marks where its proof file goes
//! with `{proof}` (and may mark the input with `{cnf}`, else it comes last). MiniSat 2.2
//! cannot write proofs.
//!
//! `{seed}` in a command becomes the seed of the solve ([`ExternalSolver::with_seed`]:
//! `--seed`, and per repeat with `compare --vary-seed`), e.g. `cadical -q --seed={seed}`,
//! so that an external solver's repeats are draws of its search as cdcl's are.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use wait_timeout::ChildExt;

use crate::backend::proof::{ProofFormat, ProofTarget};
use crate::backend::{
    check_model, BackendError, Capability, Interrupt, LimitTime, OutputStyle, SatBackend,
    SatOutcome, WriteProofs,
};
use crate::dimacs;
use crate::encode::dimacs_bytes_estimate;
use crate::formula::{ClauseSink, Cnf, FormulaSize, Lit};
use crate::run::{Counters, Instant};

/// A solver run as an external process.
pub struct ExternalSolver {
    command: String,
    program: String,
    args: Vec<String>,
    style: OutputStyle,
    timeout: Option<Duration>,
    /// Where the per-solve temporary directories go (the system's when `None`).
    temp_root: Option<PathBuf>,
    /// The formula so far (written out for each solve, and used to check models).
    cnf: Cnf,
    solves: u64,
    millis: u64,
    /// The proof asked for ([`crate::backend::WriteProofs::set_proof`]).
    proof: Option<ProofTarget>,
    /// What `{seed}` in the command becomes.
    seed: u64,
    /// Set by another thread to stop the running solver ([`crate::backend::Interrupt::set_interrupt`]).
    interrupt: Option<Arc<AtomicBool>>,
}

/// How often a solver process that may be interrupted is looked at.
const INTERRUPT_SLICE: Duration = Duration::from_millis(20);

/// The placeholder for the proof file in a solver command.
pub const PROOF_PLACEHOLDER: &str = "{proof}";
/// The placeholder for the input file in a solver command (else the input comes last).
pub const CNF_PLACEHOLDER: &str = "{cnf}";
/// The placeholder for the seed in a solver command (`--seed`).
pub const SEED_PLACEHOLDER: &str = "{seed}";

impl ExternalSolver {
    /// A solver from a command line (split on whitespace: program then arguments).
    ///
    /// # Errors
    /// [`BackendError::Spawn`] for an empty command.
    pub fn new(command: &str, style: OutputStyle) -> Result<ExternalSolver, BackendError> {
        let mut words = command.split_whitespace().map(str::to_string);
        let program = words.next().ok_or_else(|| BackendError::Spawn {
            command: command.to_string(),
            reason: "the solver command is empty".to_string(),
        })?;
        Ok(ExternalSolver {
            command: command.trim().to_string(),
            program: resolve_program(&program),
            args: words.collect(),
            style,
            timeout: None,
            temp_root: None,
            cnf: Cnf::new(),
            solves: 0,
            millis: 0,
            proof: None,
            seed: 0,
            interrupt: None,
        })
    }

    /// With `seed` for the command's `{seed}` placeholders (0 when not set).
    pub fn with_seed(mut self, seed: u64) -> ExternalSolver {
        self.seed = seed;
        self
    }

    /// How this solver writes proofs: `Some(true)` with a `{proof}` placeholder,
    /// `Some(false)` as a second file argument (CaDiCaL, Kissat), `None` when it cannot.
    fn proof_style(&self) -> Option<bool> {
        if self.args.iter().any(|a| a.contains(PROOF_PLACEHOLDER)) {
            return Some(true);
        }
        let base = Path::new(&self.program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let second_argument = self.style == OutputStyle::Competition
            && (base.starts_with("cadical") || base.starts_with("kissat"));
        second_argument.then_some(false)
    }

    /// The arguments after the program for input `input`: placeholders filled in, the
    /// input last unless placed, then the proof file of CaDiCaL or Kissat.
    fn arguments(&self, input: &Path, dir: &Path) -> Vec<std::ffi::OsString> {
        let proof_path = match &self.proof {
            Some(target) => target.path.clone(),
            None => dir.join("proof.drat"),
        };
        let fill = |arg: &str| -> std::ffi::OsString {
            let arg = arg.replace(CNF_PLACEHOLDER, &input.to_string_lossy());
            let arg = arg.replace(SEED_PLACEHOLDER, &self.seed.to_string());
            arg.replace(PROOF_PLACEHOLDER, &proof_path.to_string_lossy())
                .into()
        };
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        if self.proof.as_ref().map(|t| t.format) == Some(ProofFormat::Text)
            && self.proof_style() == Some(false)
        {
            args.push("--no-binary".into());
        }
        args.extend(self.args.iter().map(|a| fill(a)));
        if !self.args.iter().any(|a| a.contains(CNF_PLACEHOLDER)) {
            args.push(input.as_os_str().to_owned());
        }
        if self.proof.is_some() && self.proof_style() == Some(false) {
            args.push(proof_path.into_os_string());
        }
        args
    }

    /// With a time limit (the process is killed when it runs longer).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> ExternalSolver {
        self.timeout = timeout;
        self
    }

    /// Puts the per-solve temporary directories under `root` instead of the system's
    /// temporary directory.
    pub fn with_temp_root(mut self, root: impl Into<PathBuf>) -> ExternalSolver {
        self.temp_root = Some(root.into());
        self
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    fn io_error(&self, source: std::io::Error) -> BackendError {
        BackendError::Io {
            solver: self.command.clone(),
            source,
        }
    }

    fn failed(&self, reason: String) -> BackendError {
        BackendError::Failed {
            command: self.command.clone(),
            reason,
        }
    }

    fn bad_output(&self, reason: String) -> BackendError {
        BackendError::BadOutput {
            solver: self.command.clone(),
            reason,
        }
    }

    /// Runs the solver on the formula in `dir` and returns its exit status.
    /// Refuses, before the input is written, a formula whose DIMACS (and the model the
    /// solver prints back) cannot fit beside it: writing would fill the disk for every
    /// other process and fail anyway.
    fn check_disk_space(&self, dir: &Path) -> Result<(), BackendError> {
        let Some(free) = crate::run::available_disk(dir) else {
            return Ok(()); // the system does not say: write and see
        };
        let vars = self.cnf.num_vars();
        let model = FormulaSize {
            vars,
            clauses: 0,
            literals: vars,
        };
        let needed =
            dimacs_bytes_estimate(self.cnf.size()).saturating_add(dimacs_bytes_estimate(model));
        if needed <= free {
            return Ok(());
        }
        Err(BackendError::NoDiskSpace {
            solver: self.name(),
            needed,
            free,
            dir: dir.parent().unwrap_or(dir).display().to_string(),
        })
    }

    fn run(&self, dir: &Path) -> Result<ExitStatus, BackendError> {
        self.check_disk_space(dir)?;
        let input = dir.join("in.cnf");
        {
            let file = File::create(&input).map_err(|e| self.io_error(e))?;
            dimacs::write_formula(file, &self.cnf).map_err(|e| self.io_error(e))?;
        }
        let stdout = File::create(dir.join("stdout")).map_err(|e| self.io_error(e))?;
        let stderr = File::create(dir.join("stderr")).map_err(|e| self.io_error(e))?;
        let mut cmd = Command::new(&self.program);
        cmd.args(self.arguments(&input, dir))
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr);
        if self.style == OutputStyle::MinisatFile {
            cmd.arg(dir.join("result"));
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = running::spawn(&mut cmd).map_err(|e| BackendError::Spawn {
            command: self.command.clone(),
            reason: e.to_string(),
        })?;
        let _registered = running::Registered(child.id());
        let status = match (self.timeout, &self.interrupt) {
            (None, None) => child.wait().map_err(|e| self.io_error(e))?,
            (limit, interrupt) => {
                // Waits in slices when an interrupt may come, so that it ends the solver
                // within one slice (parallel cube conquer).
                let start = Instant::now();
                loop {
                    let left = limit.map(|l| l.saturating_sub(start.elapsed()));
                    let slice = match (left, interrupt) {
                        (Some(left), None) => left,
                        (Some(left), Some(_)) => left.min(INTERRUPT_SLICE),
                        (None, _) => INTERRUPT_SLICE,
                    };
                    if let Some(status) = child.wait_timeout(slice).map_err(|e| self.io_error(e))? {
                        break status;
                    }
                    let interrupted = interrupt
                        .as_ref()
                        .is_some_and(|flag| flag.load(Ordering::Relaxed));
                    if interrupted || left.is_some_and(|left| left <= slice) {
                        kill_group(&mut child);
                        let _ = child.wait();
                        return Err(BackendError::Timeout {
                            solver: self.command.clone(),
                            timeout: limit.unwrap_or_else(|| start.elapsed()),
                        });
                    }
                }
            }
        };
        // Anything the solver left running in its group goes too.
        #[cfg(unix)]
        kill_group_of(child.id());
        Ok(status)
    }

    fn stderr_tail(dir: &Path) -> String {
        let text = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
        let text = text.trim();
        if text.is_empty() {
            String::new()
        } else {
            let tail: String = text.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
            format!(" (stderr: {tail})")
        }
    }
}

/// The solver's program as its process will find it. The solver runs inside its temporary
/// directory, so a relative path with a directory part (`./cadical`, `build/kissat`), which
/// the user means from where sudosat was started, is made absolute here; a bare name is left
/// to the `PATH` search.
fn resolve_program(program: &str) -> String {
    let path = Path::new(program);
    if path.is_absolute() || !program.contains(std::path::MAIN_SEPARATOR) {
        return program.to_string();
    }
    std::path::absolute(path)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| program.to_string())
}

/// Kills every child process started through this module (solvers, and the other tools
/// [`spawn_tracked`] runs), each with its whole process group, removes the solvers'
/// temporary directories and refuses to start new children: for a program about to exit on
/// a signal (the children run in process groups of their own, so the terminal's signal
/// never reaches them, and the directories' destructors will not run). Each group gets
/// SIGTERM, then SIGKILL after [`KILL_GRACE`] if it is still there.
pub fn kill_running_solvers() {
    running::kill_all();
}

/// How long a child's process group has between SIGTERM and SIGKILL when the program
/// stops ([`kill_running_solvers`]).
pub const KILL_GRACE: Duration = Duration::from_millis(200);

/// Spawns `cmd` in a process group of its own, registered so that
/// [`kill_running_solvers`] ends it (and anything it started) when the program stops on a
/// signal. The registration ends when the returned child drops.
///
/// # Errors
/// The spawn's own error, or [`std::io::ErrorKind::Interrupted`] once the program is
/// stopping.
pub fn spawn_tracked(cmd: &mut Command) -> std::io::Result<TrackedChild> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let child = running::spawn(cmd)?;
    let registered = running::Registered(child.id());
    Ok(TrackedChild {
        child,
        _registered: registered,
    })
}

/// A child started by [`spawn_tracked`]: the child itself (`child`), registered until it
/// drops.
pub struct TrackedChild {
    /// The process.
    pub child: std::process::Child,
    _registered: running::Registered,
}

impl TrackedChild {
    /// Kills the child's whole process group (and the child), then reaps it.
    pub fn kill(&mut self) {
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// The children running now and the solvers' temporary directories, for
/// [`kill_running_solvers`].
mod running {
    use std::io;
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command};
    use std::sync::{Mutex, MutexGuard};

    use crate::run::Instant;

    struct Live {
        interrupted: bool,
        children: Vec<u32>,
        dirs: Vec<PathBuf>,
    }

    static LIVE: Mutex<Live> = Mutex::new(Live {
        interrupted: false,
        children: Vec::new(),
        dirs: Vec::new(),
    });

    fn live() -> MutexGuard<'static, Live> {
        LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn stopping() -> io::Error {
        io::Error::new(
            io::ErrorKind::Interrupted,
            "interrupted: the program is stopping",
        )
    }

    /// Records a solve's temporary directory from its creation, before any child runs in
    /// it, so that a signal removes it wherever the solve is; the returned guard removes
    /// the directory, then the record, when it drops.
    pub(super) fn track_dir(dir: tempfile::TempDir) -> io::Result<TrackedDir> {
        let mut live = live();
        if live.interrupted {
            return Err(stopping());
        }
        live.dirs.push(dir.path().to_path_buf());
        Ok(TrackedDir {
            path: dir.path().to_path_buf(),
            dir: Some(dir),
        })
    }

    /// See [`track_dir`].
    pub(super) struct TrackedDir {
        path: PathBuf,
        dir: Option<tempfile::TempDir>,
    }

    impl TrackedDir {
        pub(super) fn path(&self) -> &Path {
            &self.path
        }
    }

    impl Drop for TrackedDir {
        fn drop(&mut self) {
            drop(self.dir.take());
            live().dirs.retain(|d| *d != self.path);
        }
    }

    /// Spawns and registers under one lock, so that [`kill_all`] misses no child.
    pub(super) fn spawn(cmd: &mut Command) -> io::Result<Child> {
        let mut live = live();
        if live.interrupted {
            return Err(stopping());
        }
        let child = cmd.spawn()?;
        live.children.push(child.id());
        Ok(child)
    }

    /// Unregisters a child when it ends (on every path).
    pub(super) struct Registered(pub(super) u32);

    impl Drop for Registered {
        fn drop(&mut self) {
            live().children.retain(|pid| *pid != self.0);
        }
    }

    pub(super) fn kill_all() {
        let mut live = live();
        live.interrupted = true;
        let groups: Vec<u32> = live.children.drain(..).collect();
        #[cfg(unix)]
        {
            for &pid in &groups {
                super::signal_group(pid, libc::SIGTERM);
            }
            let start = Instant::now();
            while start.elapsed() < super::KILL_GRACE
                && groups.iter().any(|&pid| super::group_runs(pid))
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            for &pid in &groups {
                super::signal_group(pid, libc::SIGKILL);
            }
        }
        #[cfg(not(unix))]
        let _ = (groups, Instant::now());
        for dir in live.dirs.drain(..) {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Kills the child's process group (the child leads it), falling back to the child alone.
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    kill_group_of(child.id());
    let _ = child.kill();
}

#[cfg(unix)]
fn kill_group_of(pid: u32) {
    signal_group(pid, libc::SIGKILL);
}

/// Sends `signal` to the process group that `pid` leads.
#[cfg(unix)]
fn signal_group(pid: u32, signal: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
        unsafe {
            libc::kill(-pid, signal);
        }
    }
}

/// Whether some process of the group that `pid` led is still there, not yet a zombie
/// (a zombie leader waits for the thread that started it to reap it).
#[cfg(unix)]
fn group_runs(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill(2) with signal 0 only checks that the group exists.
    if unsafe { libc::kill(-pid, 0) } != 0 {
        return false;
    }
    // Only the leader, a zombie, may be left: /proc says so on Linux; elsewhere wait.
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    let state = stat.rsplit(')').next().unwrap_or("").trim_start();
    !state.starts_with('Z')
}

/// The start of every solve directory's name, followed by the owner's process id: a
/// directory whose owner no longer runs was left by a run killed outright (SIGKILL, the
/// kernel's OOM killer), which no handler sees, and holds a CNF that may be gigabytes.
const TEMP_PREFIX: &str = "sudosat-";

/// Removes, once per process and temporary root, the solve directories of runs that no
/// longer run ([`TEMP_PREFIX`]). A directory whose owner's pid is alive (or has been reused
/// by another process) is left alone; so is anything not named by this crate.
fn sweep_once(root: &Path) {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(root.to_path_buf())
        {
            return;
        }
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TEMP_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = entry.file_type().is_ok_and(|t| t.is_dir());
        if ours && owner != std::process::id() && !process_runs(owner) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a process with this id exists (signal 0 checks without signalling; a process
/// of another user still answers, with EPERM).
#[cfg(unix)]
fn process_runs(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true; // not a pid this system has: keep the directory
    };
    // SAFETY: kill(2) with signal 0 only checks that the process exists.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Elsewhere nothing is known of other processes: every directory is kept.
#[cfg(not(unix))]
fn process_runs(_pid: u32) -> bool {
    true
}

/// A readable description of an exit status (code or signal).
fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}{}", signal_name(signal));
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "no exit status".to_string(),
    }
}

#[cfg(unix)]
fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        _ => "",
    }
}

impl ClauseSink for ExternalSolver {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.cnf.reserve_vars(num_vars);
    }
}

impl SatBackend for ExternalSolver {
    fn num_vars(&self) -> usize {
        self.cnf.num_vars()
    }

    fn name(&self) -> String {
        match self.style {
            OutputStyle::MinisatFile => "minisat".to_string(),
            OutputStyle::Competition => format!("external:{}", self.command),
        }
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solves += 1;
        let start = Instant::now();
        let root = self.temp_root.clone().unwrap_or_else(std::env::temp_dir);
        sweep_once(&root);
        let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
        let dir = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(&root)
            .map_err(|e| self.io_error(e))?;
        let dir = running::track_dir(dir).map_err(|e| self.io_error(e))?;
        let status = self.run(dir.path());
        self.millis += start.elapsed().as_millis() as u64;
        let status = status?;
        let answer = match self.style {
            OutputStyle::MinisatFile => {
                match status.code() {
                    Some(10) | Some(20) => {}
                    _ => {
                        return Err(self.failed(format!(
                            "{}{}",
                            describe_status(status),
                            Self::stderr_tail(dir.path())
                        )))
                    }
                }
                let path = dir.path().join("result");
                let file = File::open(&path).map_err(|e| {
                    self.bad_output(format!(
                        "no result file ({e}) although it exited with {}",
                        describe_status(status)
                    ))
                })?;
                dimacs::read_minisat_result(file, &self.command, self.cnf.num_vars())
                    .map_err(|e| self.bad_output(e.to_string()))?
            }
            OutputStyle::Competition => {
                match status.code() {
                    Some(0) | Some(10) | Some(20) => {}
                    _ => {
                        return Err(self.failed(format!(
                            "{}{}",
                            describe_status(status),
                            Self::stderr_tail(dir.path())
                        )))
                    }
                }
                let stdout = dir.path().join("stdout");
                if std::fs::metadata(&stdout).is_ok_and(|m| m.len() == 0) {
                    return Err(self.bad_output(format!(
                        "it printed nothing ({}){}",
                        describe_status(status),
                        Self::stderr_tail(dir.path())
                    )));
                }
                let file = File::open(&stdout).map_err(|e| self.io_error(e))?;
                dimacs::read_competition_output(file, &self.command, self.cnf.num_vars())
                    .map_err(|e| self.bad_output(e.to_string()))?
            }
        };
        drop(dir);
        match answer {
            dimacs::SolverAnswer::Sat(model) => check_model(&self.name(), &self.cnf, model),
            dimacs::SolverAnswer::Unsat => Ok(SatOutcome::Unsat),
            dimacs::SolverAnswer::Unknown => Err(BackendError::GaveUp {
                solver: self.command.clone(),
                reason: "it answered UNKNOWN".to_string(),
            }),
        }
    }

    fn counters(&self) -> Counters {
        Counters(vec![("solves", self.solves), ("process_ms", self.millis)])
    }

    fn reset(&mut self) {
        self.proof = None;
        self.cnf.clear();
        self.solves = 0;
        self.millis = 0;
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    /// Only when the command says where its proof goes (or is CaDiCaL or Kissat).
    fn as_prover(&mut self) -> Option<&mut dyn WriteProofs> {
        self.proof_style()?;
        Some(self)
    }

    fn lacks(&self, capability: Capability) -> BackendError {
        let what = match (capability, self.style) {
            (Capability::Proofs, OutputStyle::MinisatFile) => {
                "write DRAT proofs (MiniSat 2.2 has no proof output)"
            }
            (Capability::Proofs, OutputStyle::Competition) => {
                "write DRAT proofs: mark where the solver takes its proof file with \
                 `{proof}` in the command (CaDiCaL and Kissat need no mark)"
            }
            (other, _) => other.what(),
        };
        BackendError::Unsupported {
            solver: self.name(),
            what: what.to_string(),
        }
    }
}

impl LimitTime for ExternalSolver {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.timeout = limit;
    }
}

impl Interrupt for ExternalSolver {
    /// The process is killed within 20 ms of the flag being set.
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }
}

impl WriteProofs for ExternalSolver {
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        if target.is_some() && self.proof_style().is_none() {
            return Err(self.lacks(Capability::Proofs));
        }
        // The solver runs in its temporary directory: the proof path must not be relative.
        self.proof = match target {
            Some(mut target) => {
                target.path = std::path::absolute(&target.path).map_err(|e| self.io_error(e))?;
                Some(target)
            }
            None => None,
        };
        Ok(())
    }

    fn finish_proof(&mut self) -> Result<(), BackendError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_program_path_is_resolved_from_the_start_directory() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            Path::new(&resolve_program("bin/solver")),
            here.join("bin/solver")
        );
        assert!(Path::new(&resolve_program("./solver")).is_absolute());
        assert!(resolve_program("./solver").ends_with("solver"));
        // Bare names go to the PATH search; absolute paths stay.
        assert_eq!(resolve_program("cadical"), "cadical");
        assert_eq!(resolve_program(".hidden"), ".hidden");
        assert_eq!(resolve_program("/usr/bin/cadical"), "/usr/bin/cadical");
    }

    #[test]
    fn placeholders_are_filled_in_and_the_input_placed() {
        let dir = Path::new("runs");
        let input = Path::new("runs/in.cnf");
        let args = |command: &str, seed: u64| -> Vec<String> {
            ExternalSolver::new(command, OutputStyle::Competition)
                .unwrap()
                .with_seed(seed)
                .arguments(input, dir)
                .into_iter()
                .map(|a| a.into_string().unwrap())
                .collect()
        };
        assert_eq!(
            args("cadical -q --seed={seed}", 42),
            ["-q", "--seed=42", "runs/in.cnf"]
        );
        assert_eq!(args("kissat --seed={seed}", 0), ["--seed=0", "runs/in.cnf"]);
        assert_eq!(
            args("solver {cnf} -s {seed}", 7),
            ["runs/in.cnf", "-s", "7"]
        );
        assert_eq!(args("picosat", 7), ["runs/in.cnf"]);
    }
}
