//! Long calls run on a thread of their own while the calling thread, detached from the
//! interpreter (other Python threads run meanwhile), waits for them and looks every
//! [`POLL`] for a signal. Ctrl-C (`KeyboardInterrupt`, or any exception a signal handler
//! raises) sets the call's stop flag, which the library's interruptible solvers read (cdcl,
//! dpll, lookahead, varisat, CaDiCaL and Kissat, and solver processes, whose process group
//! is killed and whose temporary directory is removed). The flag is also the working
//! thread's own stop flag (`sudosat::run::stop_thread_on`, handed on to the threads of its
//! pools), which ends every deadline the classic solvers check: no thread of the call is
//! left running. The exception is raised once the work has stopped, or after [`GRACE`]
//! when it has not (splr, whose search reads no flag: the package runs its calls in a
//! child process, `sudosat/_isolate.py`, but a kept `Solver` runs it here), its answer
//! then dropped when it comes.
//!
//! Progress, when asked for, is reported from the calling thread between two waits.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::runtime_error;

/// How often the waiting thread looks for signals and progress.
pub const POLL: Duration = Duration::from_millis(50);

/// How long interrupted work has to stop before the exception is raised without it.
pub const GRACE: Duration = Duration::from_millis(900);

/// The stack of the working thread: the main thread's size, for deep searches.
const STACK: usize = 8 << 20;

/// How a call ended.
pub enum Ended<T> {
    /// The work's result.
    Done(T),
    /// A signal's exception, and the work's result when it stopped within [`GRACE`].
    Interrupted(PyErr, Option<T>),
}

/// Where progress goes: nowhere (the default of every call), standard error, or a Python
/// callable taking `(done, total)`.
enum Sink {
    Off,
    Stderr,
    Call(Py<PyAny>),
}

/// Progress of a call over `total` items (`what`: "puzzles", "runs"), counted by the work
/// through [`Progress::counter`].
pub struct Progress {
    done: Arc<AtomicUsize>,
    total: usize,
    what: &'static str,
    sink: Sink,
    shown: Option<usize>,
}

impl Progress {
    /// The progress `arg` asks for: `None` or `False` none, `True` a line on standard
    /// error, a callable `f(done, total)` called as items finish.
    pub fn new(arg: Option<&Bound<'_, PyAny>>, total: usize, what: &'static str) -> PyResult<Self> {
        let sink = match arg {
            None => Sink::Off,
            Some(arg) if arg.is_none() => Sink::Off,
            Some(arg) if arg.is_instance_of::<PyBool>() => {
                if arg.extract::<bool>()? {
                    Sink::Stderr
                } else {
                    Sink::Off
                }
            }
            Some(arg) if arg.is_callable() => Sink::Call(arg.clone().unbind()),
            Some(_) => {
                return Err(PyTypeError::new_err(
                    "progress must be True, False, None or a callable f(done, total)",
                ))
            }
        };
        Ok(Progress {
            done: Arc::default(),
            total,
            what,
            sink,
            shown: None,
        })
    }

    /// The count the work advances.
    pub fn counter(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.done)
    }

    fn show(&mut self, py: Python<'_>) -> PyResult<()> {
        let done = self.done.load(Ordering::Relaxed);
        if self.shown == Some(done) {
            return Ok(());
        }
        self.shown = Some(done);
        match &self.sink {
            Sink::Off => Ok(()),
            Sink::Call(f) => f.call1(py, (done, self.total)).map(|_| ()),
            Sink::Stderr => {
                let stderr = py.import("sys")?.getattr("stderr")?;
                stderr.call_method1(
                    "write",
                    (format!("\rsudosat: {done}/{} {}", self.total, self.what),),
                )?;
                stderr.call_method0("flush").map(|_| ())
            }
        }
    }

    fn finish(&mut self, py: Python<'_>) -> PyResult<()> {
        self.show(py)?;
        if let Sink::Stderr = self.sink {
            py.import("sys")?
                .getattr("stderr")?
                .call_method1("write", ("\n",))?;
        }
        Ok(())
    }
}

/// Runs `work` on a thread of its own, handing it a stop flag, and waits for it without
/// holding the interpreter, looking for signals and showing `progress` every [`POLL`].
///
/// # Errors
/// A panic of the work (a `RuntimeError`), a thread that cannot start, or an exception of
/// the progress callable.
pub fn run_interruptible<T, F>(
    py: Python<'_>,
    mut progress: Option<&mut Progress>,
    work: F,
) -> PyResult<Ended<T>>
where
    T: Send + 'static,
    F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    let (send, receive) = mpsc::sync_channel(1);
    let flag = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("sudosat".to_string())
        .stack_size(STACK)
        .spawn(move || {
            sudosat::run::stop_thread_on(Some(Arc::clone(&flag)));
            let result = catch_unwind(AssertUnwindSafe(|| work(flag)));
            // The caller may have gone (an interrupt past the grace): nothing to tell.
            let _ = send.send(result);
        })
        .map_err(|e| runtime_error(format!("cannot start a thread: {e}")))?;
    let unwrap = |result: std::thread::Result<T>| {
        result.map_err(|panic| {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            runtime_error(format!("internal error: {what}"))
        })
    };
    // Waited on from the detached thread, which needs it shared.
    let receive = Mutex::new(receive);
    let wait = |time: Duration| {
        receive
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .recv_timeout(time)
    };
    loop {
        match py.detach(|| wait(POLL)) {
            Ok(result) => {
                if let Some(progress) = progress.as_deref_mut() {
                    progress.finish(py)?;
                }
                return unwrap(result).map(Ended::Done);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(runtime_error("internal error: the working thread ended"))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let shown = match progress.as_deref_mut() {
            Some(progress) => progress.show(py),
            None => Ok(()),
        };
        if let Err(signal) = py.check_signals().and(shown) {
            stop.store(true, Ordering::SeqCst);
            let late = py.detach(|| wait(GRACE)).ok();
            let late = late.and_then(|result| unwrap(result).ok());
            return Ok(Ended::Interrupted(signal, late));
        }
    }
}
