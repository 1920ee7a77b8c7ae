//! SIGINT and SIGTERM: a clean exit at any point of any command. The handler only writes
//! the signal's number to a pipe (async-signal-safe); a thread reading the pipe kills the
//! external solvers' process groups, removes their temporary directories and any output
//! temp file not yet renamed into place, then exits with 128 + the signal (130 for SIGINT,
//! 143 for SIGTERM). `compare` installs its own Ctrl-C handler over this one (it stops
//! after the current measurement and writes what it has).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Output temp files written now (removed on a signal, never renamed).
static OUTPUTS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn outputs() -> MutexGuard<'static, Vec<PathBuf>> {
    OUTPUTS
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
}

/// Installs the handlers (once, at start-up). Failure to install is not fatal: the
/// program then keeps the default behaviour.
pub fn install() {
    #[cfg(unix)]
    unix::install();
}

#[cfg(unix)]
mod unix {
    use std::sync::atomic::{AtomicI32, Ordering};

    static WRITE_FD: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(signal: libc::c_int) {
        let fd = WRITE_FD.load(Ordering::Relaxed);
        let byte = signal as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is a local byte.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
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
            let mut byte = 0u8;
            loop {
                // SAFETY: read(2) into a local byte from the pipe this thread owns.
                let n = unsafe { libc::read(read_fd, (&mut byte as *mut u8).cast(), 1) };
                if n == 1 {
                    break;
                }
                if n == 0 {
                    return;
                }
            }
            let signal = i32::from(byte);
            // The lock first: a solve failing because its solver was killed here must not
            // report that as an error and exit before this thread does (see `settle`).
            let outputs = super::outputs();
            sudosat::backend::external::kill_running_solvers();
            for path in outputs.iter() {
                // A temp file, or the staging directory of `encode --out-dir`.
                if std::fs::remove_file(path).is_err() {
                    let _ = std::fs::remove_dir_all(path);
                }
            }
            let name = if signal == libc::SIGINT {
                "SIGINT"
            } else {
                "SIGTERM"
            };
            eprintln!("sudosat: interrupted ({name})");
            // Exits holding the lock: no output is renamed into place any more.
            std::process::exit(128 + signal);
        });
        for signal in [libc::SIGINT, libc::SIGTERM] {
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
