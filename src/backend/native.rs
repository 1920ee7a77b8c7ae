//! What the backends over C and C++ solver libraries share (CaDiCaL, Kissat): the stop
//! signals (a time limit, an interrupt flag) and CaDiCaL's terminate callback that reads
//! them, and the report of a solver that aborts the process.
//!
//! A C solver that fails inside its own code (out of memory, a broken invariant) calls
//! `abort()`: no Rust code runs after it, so the process cannot go on. What it can do is
//! say which solver it was. [`report_aborts`] installs a SIGABRT handler that prints one
//! line naming every C solver running at that moment; the process then ends with SIGABRT
//! (exit status 134 in a shell). `compare --isolate` runs embedded entries in child
//! processes, where such an abort fails one run instead of the study.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::backend::BackendError;
use crate::formula::Lit;
use crate::run::Instant;

/// The C solvers, by index into [`RUNNING`] and [`ABORT_LINES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
pub(crate) enum NativeSolver {
    /// CaDiCaL (`cadical` crate).
    #[cfg_attr(not(feature = "cadical"), allow(dead_code))]
    Cadical = 0,
    /// Kissat (`rustsat-kissat` crate).
    #[cfg_attr(not(feature = "kissat"), allow(dead_code))]
    Kissat = 1,
}

/// How many threads are inside each C solver's code now.
static RUNNING: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

/// The line [`report_aborts`] prints for each solver running when the process aborts.
#[cfg_attr(not(unix), allow(dead_code))]
const ABORT_LINES: [&str; 2] = [
    "sudosat: error: the cadical backend (CaDiCaL, in this process) aborted; the process \
     ends with it (compare --isolate runs embedded entries in child processes)\n",
    "sudosat: error: the kissat backend (Kissat, in this process) aborted; the process \
     ends with it (compare --isolate runs embedded entries in child processes)\n",
];

/// A thread inside a C solver's code, from [`NativeSolver::enter`] until dropped.
#[must_use]
pub(crate) struct Inside(NativeSolver);

#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
impl NativeSolver {
    /// Marks the calling thread as inside this solver's code until the guard drops.
    pub(crate) fn enter(self) -> Inside {
        RUNNING[self as usize].fetch_add(1, Ordering::SeqCst);
        Inside(self)
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        RUNNING[self.0 as usize].fetch_sub(1, Ordering::SeqCst);
    }
}

/// Installs the SIGABRT handler that names the C solver whose abort ends the process (see
/// the module docs). The handler writes its lines and returns, and `abort()` then ends the
/// process as it would have: nothing is caught. A library user that handles SIGABRT itself
/// leaves this uncalled. Calling it again does nothing more.
pub fn report_aborts() {
    #[cfg(unix)]
    {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            // SAFETY: `on_abort` only reads atomics and calls write(2), both
            // async-signal-safe; the action struct is fully initialised.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_abort as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGABRT, &action, std::ptr::null_mut());
            }
        });
    }
}

#[cfg(unix)]
extern "C" fn on_abort(_: libc::c_int) {
    for (running, line) in RUNNING.iter().zip(ABORT_LINES) {
        if running.load(Ordering::SeqCst) > 0 {
            // SAFETY: write(2) of a static buffer.
            unsafe {
                libc::write(2, line.as_ptr().cast(), line.len());
            }
        }
    }
}

/// What ends a C solver's solve from outside: the solve's deadline and the interrupt flag,
/// read by its terminate callback ([`terminate`]). Kept in a box so that its address,
/// which the solver holds, stays put.
#[derive(Default)]
#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
pub(crate) struct Stop {
    /// The time limit of each solve.
    pub(crate) limit: Option<Duration>,
    /// The flag another thread sets ([`crate::backend::Interrupt`]).
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
    /// The running solve's deadline.
    deadline: Option<Instant>,
    /// Whether the callback asked the solver to stop.
    pub(crate) fired: bool,
}

#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
impl Stop {
    /// Whether a solve needs the callback at all.
    pub(crate) fn armed(&self) -> bool {
        self.limit.is_some() || self.interrupt.is_some()
    }

    /// Starts a solve: its deadline from now.
    pub(crate) fn start(&mut self) {
        self.deadline = self.limit.map(|limit| Instant::now() + limit);
        self.fired = false;
    }

    /// Whether the solve should stop now.
    pub(crate) fn stopped(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The terminate callback of CaDiCaL's C API (`ccadical_set_terminate`): non-zero stops
/// the solve. `state` is a `*mut Stop`. (Kissat 4 keeps such a callback but never calls
/// it: its backend watches from a thread instead.)
#[cfg_attr(not(feature = "cadical"), allow(dead_code))]
pub(crate) extern "C" fn terminate(state: *mut std::ffi::c_void) -> std::ffi::c_int {
    // SAFETY: the backends pass the address of their boxed `Stop`, which outlives the
    // solve, and the solver calls back on the thread that solves.
    let stop = unsafe { &mut *state.cast::<Stop>() };
    if stop.fired || stop.stopped() {
        stop.fired = true;
        1
    } else {
        0
    }
}

/// A literal as CaDiCaL and Kissat take it (DIMACS, 32 bits).
#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
pub(crate) fn to_c(lit: Lit) -> std::ffi::c_int {
    lit.to_dimacs() as std::ffi::c_int
}

/// The most variables the C solvers take (their literals are 32-bit `int`s).
#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
pub(crate) const MAX_VARS: usize = i32::MAX as usize - 1;

/// The error for a formula whose variables do not fit a C solver's 32-bit literals.
#[cfg_attr(not(any(feature = "cadical", feature = "kissat")), allow(dead_code))]
pub(crate) fn too_many_variables(solver: &str, num_vars: usize) -> BackendError {
    BackendError::GaveUp {
        solver: solver.to_string(),
        reason: format!("{num_vars} variables, more than its 32-bit literals hold ({MAX_VARS})"),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Pigeonhole formulas for the tests of the C solvers' backends: `pigeons` pigeons in
    /// `holes` holes, UNSAT when there are more pigeons.
    pub(crate) fn pigeonhole(pigeons: usize, holes: usize) -> crate::formula::Cnf {
        use crate::formula::{ClauseSink, Var};
        let mut cnf = crate::formula::Cnf::new();
        let var = |p: usize, h: usize| Var::from_index(p * holes + h);
        for p in 0..pigeons {
            let clause: Vec<_> = (0..holes).map(|h| var(p, h).lit(true)).collect();
            cnf.add_clause(&clause);
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    cnf.add_clause(&[var(p, h).lit(false), var(q, h).lit(false)]);
                }
            }
        }
        cnf
    }

    #[test]
    fn the_callback_stops_at_the_flag_or_the_deadline_and_not_before() {
        let mut stop = Box::new(Stop::default());
        let state = std::ptr::from_mut(stop.as_mut()).cast();
        assert!(!stop.armed());
        stop.start();
        assert_eq!(terminate(state), 0);
        let flag = Arc::new(AtomicBool::new(false));
        stop.interrupt = Some(Arc::clone(&flag));
        stop.start();
        assert_eq!(terminate(state), 0);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(terminate(state), 1);
        assert!(stop.fired);
        // A new solve with the flag down and a limit already passed.
        flag.store(false, Ordering::Relaxed);
        stop.limit = Some(Duration::ZERO);
        stop.start();
        assert!(!stop.fired);
        assert_eq!(terminate(state), 1);
        stop.limit = Some(Duration::from_secs(3600));
        stop.start();
        assert_eq!(terminate(state), 0);
    }
}
