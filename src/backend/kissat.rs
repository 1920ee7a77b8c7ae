//! The embedded Kissat 4.0.4 (Armin Biere, Tobias Faller, Katalin Fazekas, Mathias Fleury,
//! Nils Froleyks, Florian Pollitt; "CaDiCaL, Gimsatul, IsaSAT and Kissat entering the SAT
//! Competition 2024"), winner of the competition's main track.
//!
//! The `rustsat-kissat` crate (feature `kissat`, off by default) builds Kissat's C sources
//! and links them; its build generates its bindings with bindgen, which needs libclang
//! (Debian's `libclang-dev`). This backend speaks to the library through Kissat's own C API
//! (`kissat.h`), declared below, as the CaDiCaL backend does.
//!
//! Kissat solves once per solver: this backend keeps the clauses and makes a fresh solver
//! for each solve (as splr's backend does), so counts, `--unique` checks and cubes work,
//! each solve from scratch. It takes no assumptions and writes no proofs here (Kissat
//! traces proofs only in its application). Kissat 4 never calls its terminate callback, so
//! time limits and interrupts go through a watcher thread that calls `kissat_terminate`;
//! `--seed` is Kissat's `seed` option.

use std::ffi::{c_char, c_int, CStr};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::backend::native::{to_c, too_many_variables, NativeSolver, Stop, MAX_VARS};
use crate::backend::{
    check_model_from, BackendError, Interrupt, LimitTime, SatBackend, SatOutcome,
};
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::run::Counters;

// The crate is linked for its compiled library; its Rust API is not used.
extern crate rustsat_kissat as _;

/// Kissat's handle (`kissat` of `kissat.h`).
#[repr(C)]
struct KissatSolver {
    _private: [u8; 0],
}

extern "C" {
    fn kissat_signature() -> *const c_char;
    fn kissat_init() -> *mut KissatSolver;
    fn kissat_release(solver: *mut KissatSolver);
    fn kissat_add(solver: *mut KissatSolver, lit: c_int);
    fn kissat_solve(solver: *mut KissatSolver) -> c_int;
    fn kissat_value(solver: *mut KissatSolver, lit: c_int) -> c_int;
    fn kissat_terminate(solver: *mut KissatSolver);
    fn kissat_reserve(solver: *mut KissatSolver, max_var: c_int);
    fn kissat_set_option(solver: *mut KissatSolver, name: *const c_char, value: c_int) -> c_int;
    #[cfg(test)]
    fn kissat_get_option(solver: *mut KissatSolver, name: *const c_char) -> c_int;
}

/// The linked Kissat's name and version, e.g. `kissat-4.0.4`.
pub fn version() -> String {
    // SAFETY: a static NUL-terminated string of the library.
    unsafe { CStr::from_ptr(kissat_signature()) }
        .to_string_lossy()
        .into_owned()
}

/// One Kissat solver, released when dropped.
struct Handle(NonNull<KissatSolver>);

impl Handle {
    fn new() -> Handle {
        // SAFETY: `kissat_init` returns a new solver (it aborts when out of memory).
        Handle(NonNull::new(unsafe { kissat_init() }).expect("kissat_init"))
    }

    fn set_option(&self, name: &CStr, value: c_int) {
        // SAFETY: a live solver before its first clause, a NUL-terminated name.
        unsafe { kissat_set_option(self.0.as_ptr(), name.as_ptr(), value) };
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: released once.
        unsafe { kissat_release(self.0.as_ptr()) };
    }
}

/// A solver pointer that may cross to the watcher thread: `kissat_terminate` is the one
/// call Kissat takes from another thread while it solves (it sets a flag the search
/// polls).
struct Terminator(*mut KissatSolver);

// SAFETY: see `Terminator`; the solver outlives the watcher (joined before the release).
unsafe impl Send for Terminator {}

/// Solves while a watcher thread stops the solve at the deadline or the interrupt flag of
/// `stop`. Kissat 4 keeps a terminate callback (`kissat_set_terminate`) but never calls it,
/// so the stop comes from outside, through `kissat_terminate`; the watcher looks every
/// millisecond.
fn solve_watched(handle: &Handle, stop: &mut Stop) -> c_int {
    let done = AtomicBool::new(false);
    let terminator = Terminator(handle.0.as_ptr());
    let stop_view: &Stop = stop;
    let fired = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let terminator = terminator;
            while !done.load(Ordering::Acquire) {
                if stop_view.stopped() {
                    // SAFETY: a live solver (the solve below has not returned, or has
                    // and the flag is then harmless), from the one call Kissat allows.
                    unsafe { kissat_terminate(terminator.0) };
                    return true;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            false
        });
        // SAFETY: a live, loaded solver.
        let answer = unsafe { kissat_solve(handle.0.as_ptr()) };
        done.store(true, Ordering::Release);
        let fired = watcher.join().unwrap_or(false);
        (answer, fired)
    });
    stop.fired = fired.1;
    fired.0
}

/// The Kissat backend.
#[derive(Default)]
pub struct KissatBackend {
    /// Every clause as given: each solve loads them into a fresh solver.
    original: Cnf,
    /// Clauses the caller checks models against itself ([`SatBackend::trust_clauses`]).
    trusted: usize,
    solves: u64,
    /// Kissat's `seed` option of every solver made (0: its default).
    seed: u64,
    /// The deadline and interrupt the terminate callback reads.
    stop: Box<Stop>,
}

impl KissatBackend {
    /// An empty solver.
    pub fn new() -> KissatBackend {
        KissatBackend::default()
    }

    /// An empty solver whose searches take `seed` (Kissat's `--seed`; 0 is its default).
    pub fn with_seed(seed: u64) -> KissatBackend {
        KissatBackend {
            seed,
            ..KissatBackend::default()
        }
    }
}

impl KissatBackend {
    /// A new Kissat, quiet, with the seed set.
    fn fresh_solver(&self) -> Handle {
        let handle = Handle::new();
        handle.set_option(c"quiet", 1);
        if self.seed != 0 {
            // Kissat's seed takes 0 to 2³¹ − 1.
            handle.set_option(c"seed", (self.seed % (i32::MAX as u64 + 1)) as c_int);
        }
        handle
    }
}

impl ClauseSink for KissatBackend {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for KissatBackend {
    fn name(&self) -> String {
        "kissat".to_string()
    }

    fn num_vars(&self) -> usize {
        self.original.num_vars()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        let num_vars = self.original.num_vars();
        if num_vars > MAX_VARS {
            return Err(too_many_variables("kissat", num_vars));
        }
        self.solves += 1;
        let handle = self.fresh_solver();
        let ptr = handle.0.as_ptr();
        // The deadline counts the loading, which a fresh solver per solve costs.
        self.stop.start();
        let _inside = NativeSolver::Kissat.enter();
        // SAFETY: a live solver; literals in range (checked above).
        unsafe {
            kissat_reserve(ptr, num_vars as c_int);
            for clause in self.original.clauses() {
                for &lit in clause {
                    kissat_add(ptr, to_c(lit));
                }
                kissat_add(ptr, 0);
            }
        }
        let answer = if self.stop.armed() {
            solve_watched(&handle, &mut self.stop)
        } else {
            // SAFETY: a live, loaded solver.
            unsafe { kissat_solve(ptr) }
        };
        match answer {
            10 => {
                let values = (1..=num_vars)
                    // SAFETY: a satisfied solver and a reserved variable (0 is "either").
                    .map(|v| unsafe { kissat_value(ptr, v as c_int) } > 0)
                    .collect();
                check_model_from(
                    "kissat",
                    &self.original,
                    self.trusted,
                    Model::from_values(values),
                )
            }
            20 => Ok(SatOutcome::Unsat),
            _ if self.stop.fired => Err(BackendError::Timeout {
                solver: self.name(),
                timeout: self.stop.limit.unwrap_or_default(),
            }),
            other => Err(BackendError::GaveUp {
                solver: self.name(),
                reason: format!("it answered {other}, neither SAT nor UNSAT"),
            }),
        }
    }

    fn counters(&self) -> Counters {
        Counters(vec![("solves", self.solves)])
    }

    fn reset(&mut self) {
        let stop = std::mem::take(&mut self.stop);
        *self = KissatBackend::with_seed(self.seed);
        self.stop = stop;
    }

    fn trust_clauses(&mut self, count: usize) {
        self.trusted = count;
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }
}

impl LimitTime for KissatBackend {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.stop.limit = limit;
    }
}

impl Interrupt for KissatBackend {
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop.interrupt = flag;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::native;

    #[test]
    fn the_version_is_the_one_the_crate_carries() {
        assert_eq!(version(), "kissat-4.0.4");
    }

    /// Kissat aborts on a solve in the middle of a clause (an API misuse): the abort
    /// report ([`native::report_aborts`]) names the backend before the process ends. The
    /// abort runs in a child process, this test binary running only
    /// `aborting_child`.
    #[cfg(unix)]
    #[test]
    fn an_abort_inside_kissat_names_the_backend() {
        use std::os::unix::process::ExitStatusExt;
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "backend::kissat::tests::aborting_child",
                "--ignored",
            ])
            .args(["--nocapture", "--test-threads", "1"])
            .env("SUDOSAT_TEST_ABORT_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(libc::SIGABRT), "{stderr}");
        assert!(
            stderr.contains("sudosat: error: the kissat backend (Kissat, in this process) aborted"),
            "{stderr}"
        );
        assert!(stderr.contains("terminating zero not added"), "{stderr}");
    }

    /// The child of [`an_abort_inside_kissat_names_the_backend`].
    #[test]
    #[ignore = "aborts the process: run by an_abort_inside_kissat_names_the_backend"]
    fn aborting_child() {
        if std::env::var_os("SUDOSAT_TEST_ABORT_CHILD").is_none() {
            return;
        }
        native::report_aborts();
        let handle = Handle::new();
        let _inside = NativeSolver::Kissat.enter();
        // SAFETY: a live solver; a solve before the clause's terminating zero is the
        // misuse Kissat aborts on.
        unsafe {
            kissat_add(handle.0.as_ptr(), 1);
            kissat_solve(handle.0.as_ptr());
        }
    }

    #[test]
    fn the_seed_is_kissats_own_seed_option() {
        for (seed, option) in [(0, 0), (7, 7), (1 << 31 | 5, 5)] {
            let handle = KissatBackend::with_seed(seed).fresh_solver();
            // SAFETY: a live solver and a NUL-terminated option name.
            let set = unsafe { kissat_get_option(handle.0.as_ptr(), c"seed".as_ptr()) };
            assert_eq!(set, option, "seed {seed}");
        }
    }

    #[test]
    fn every_solve_is_a_fresh_solver_so_models_can_be_counted() {
        let mut backend = KissatBackend::with_seed(7);
        let lit = Lit::from_dimacs;
        backend.add_clause(&[lit(1), lit(2), lit(3)]);
        let mut count = 0;
        while let SatOutcome::Sat(model) = backend.solve().unwrap() {
            count += 1;
            let blocking: Vec<Lit> = model.lits().take(3).map(|l| !l).collect();
            backend.add_clause(&blocking);
            assert!(count <= 7, "runaway count");
        }
        assert_eq!(count, 7);
        assert_eq!(backend.counters().0, vec![("solves", 8)]);
    }

    #[test]
    fn a_passed_time_limit_is_a_time_out_and_the_solver_answers_after_it() {
        let mut backend = KissatBackend::new();
        backend.add_formula(&mut native::tests::pigeonhole(12, 11));
        backend.set_time_limit(Some(Duration::ZERO));
        match backend.solve() {
            Err(BackendError::Timeout { solver, timeout }) => {
                assert_eq!((solver.as_str(), timeout), ("kissat", Duration::ZERO))
            }
            other => panic!("expected a time-out, got {other:?}"),
        }
        backend.set_time_limit(None);
        backend.reset();
        backend.add_formula(&mut native::tests::pigeonhole(3, 3));
        assert!(matches!(backend.solve().unwrap(), SatOutcome::Sat(_)));
    }
}
