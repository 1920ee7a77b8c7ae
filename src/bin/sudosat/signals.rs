//! SIGINT, SIGTERM and SIGHUP: a clean exit at any point of any command, with 128 + the
//! signal (130, 143, 129). The handler only writes the signal's number to a pipe
//! (async-signal-safe); a thread reading the pipe does the rest.
//!
//! Every command: the signal sets [`stop_flag`], every child process (solvers, checkers,
//! each in a process group of its own) gets SIGTERM and, 200 ms later, SIGKILL, the solvers'
//! temporary directories and any output temp file not yet renamed into place are removed,
//! and the process exits.
//!
//! A command that measures ([`on_stop`], `compare`) gets its partial outputs written: the
//! stop flag interrupts the runs in flight (the SAT backends that can be interrupted, the
//! processes), the command writes what it measured and exits on its own; when it has not
//! within [`GRACE`] (a solver that cannot be interrupted, splr), or at a second signal, this
//! thread writes the partial outputs itself and exits; a third signal exits at once.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// How long a command that writes partial outputs has to stop its runs and write them
/// itself after the first signal.
pub const GRACE: Duration = Duration::from_secs(1);

/// Output temp files written now (removed on a signal, never renamed).
static OUTPUTS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The first signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// What writes a measuring command's partial outputs ([`on_stop`]).
type PartialWriter = Box<dyn Fn() + Send + Sync>;
static PARTIAL: Mutex<Option<PartialWriter>> = Mutex::new(None);

fn outputs() -> MutexGuard<'static, Vec<PathBuf>> {
    OUTPUTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn partial() -> MutexGuard<'static, Option<PartialWriter>> {
    PARTIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Records an output temp file (or staging directory) until the returned guard drops.
pub fn track_output(path: &Path) -> OutputGuard {
    outputs().push(path.to_path_buf());
    OutputGuard(path.to_path_buf())
}

/// See [`track_output`].
pub struct OutputGuard(PathBuf);

impl OutputGuard {
    /// Runs `finish` (the rename into place) unless a signal has already claimed the file:
    /// holding the lock, so a signal cannot remove the file half-way.
    pub fn finish<T>(self, finish: impl FnOnce() -> T) -> T {
        let mut outputs = outputs();
        let result = finish();
        outputs.retain(|p| *p != self.0);
        result
    }
}

impl Drop for OutputGuard {
    fn drop(&mut self) {
        outputs().retain(|p| *p != self.0);
    }
}

/// Waits, while a signal is being handled, until the handler has exited the process; at
/// once otherwise. Called before an error is reported: an error caused by the handler
/// killing the solvers is not the command's answer, the signal's exit code is.
pub fn settle() {
    drop(outputs());
    if RECEIVED.load(Ordering::SeqCst) != 0 {
        // The signal's thread writes what there is to write and exits the process.
        loop {
            std::thread::park();
        }
    }
}

/// The flag every signal sets: a command hands it to its solvers
/// ([`sudosat::backend::Interrupt`]) and run loops to stop them.
pub fn stop_flag() -> Arc<AtomicBool> {
    static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(STOP.get_or_init(Arc::default))
}

/// The exit code of a process stopped by a signal (128 + the first signal), once one came.
pub fn exit_code() -> Option<u8> {
    let signal = RECEIVED.load(Ordering::SeqCst);
    (signal != 0).then(|| (128 + signal) as u8)
}

/// The signal's name, for messages.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        #[cfg(unix)]
        libc::SIGTERM => "SIGTERM",
        #[cfg(unix)]
        libc::SIGHUP => "SIGHUP",
        _ => "SIGINT",
    }
}

/// Asks for partial outputs on a signal: `write` writes them from what was measured. The
/// command itself writes them when its runs stop within [`GRACE`] (it sees
/// [`stop_flag`]); `write` runs on the signal's thread otherwise, or at a second signal,
/// and must then do nothing if the command has written them already.
pub fn on_stop(write: impl Fn() + Send + Sync + 'static) {
    *partial() = Some(Box::new(write));
}

/// Installs the handlers (once, at start-up). Failure to install is not fatal: the
/// program then keeps the default behaviour.
pub fn install() {
    #[cfg(unix)]
    unix::install();
}

/// Exits after a signal: every child killed, temporary directories and unfinished output
/// files removed.
fn clean_exit(signal: i32) -> ! {
    // The lock first: a solve failing because its solver was killed here must not report
    // that as an error and exit before this thread does (see `settle`).
    let outputs = outputs();
    sudosat::backend::external::kill_running_solvers();
    for path in outputs.iter() {
        // A temp file, or the staging directory of `encode --out-dir`.
        if std::fs::remove_file(path).is_err() {
            let _ = std::fs::remove_dir_all(path);
        }
    }
    eprintln!("sudosat: interrupted ({})", signal_name(signal));
    // Exits holding the lock: no output is renamed into place any more.
    std::process::exit(128 + signal);
}

#[cfg(unix)]
mod unix {
    use std::sync::atomic::{AtomicI32, Ordering};

    use super::{clean_exit, partial, signal_name, GRACE, RECEIVED};

    static WRITE_FD: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(signal: libc::c_int) {
        let fd = WRITE_FD.load(Ordering::Relaxed);
        let byte = signal as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is a local byte.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }

    /// The next signal from the pipe; `None` when the pipe closed or, with a `timeout`,
    /// when none came within it.
    fn next_signal(fd: libc::c_int, timeout: Option<std::time::Duration>) -> Option<i32> {
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        loop {
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                if left.is_zero() {
                    return None;
                }
                let mut poll = libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                let millis = libc::c_int::try_from(left.as_millis().max(1)).unwrap_or(1000);
                // SAFETY: poll(2) on one pollfd we own.
                if unsafe { libc::poll(&mut poll, 1, millis) } <= 0 {
                    continue;
                }
            }
            let mut byte = 0u8;
            // SAFETY: read(2) into a local byte from the pipe this thread owns.
            let n = unsafe { libc::read(fd, (&mut byte as *mut u8).cast(), 1) };
            match n {
                1 => return Some(i32::from(byte)),
                0 => return None,
                _ => continue, // EINTR
            }
        }
    }

    pub fn install() {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two-element array we own.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return;
        }
        WRITE_FD.store(fds[1], Ordering::Relaxed);
        let read_fd = fds[0];
        std::thread::spawn(move || {
            let Some(signal) = next_signal(read_fd, None) else {
                return;
            };
            RECEIVED.store(signal, Ordering::SeqCst);
            super::stop_flag().store(true, Ordering::SeqCst);
            let writer = partial().take();
            let Some(write) = writer else {
                clean_exit(signal);
            };
            eprintln!(
                "\nsudosat: {}: stopping the runs in flight and writing what was measured \
                 (again to stop at once)",
                signal_name(signal)
            );
            sudosat::backend::external::kill_running_solvers();
            // The command writes its outputs and exits on its own when its runs stop in
            // time; otherwise, or at a second signal, they are written from here.
            let _ = next_signal(read_fd, Some(GRACE));
            // A write that blocks (a full pipe on stdout) gives way to one more signal.
            std::thread::spawn(move || {
                if next_signal(read_fd, None).is_some() {
                    clean_exit(signal);
                }
            });
            write();
            clean_exit(signal);
        });
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: a plain handler that only calls write(2); the struct is zeroed first.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}
