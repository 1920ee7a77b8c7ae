//! The embedded CaDiCaL 3 (Armin Biere, Tobias Faller, Katalin Fazekas, Mathias Fleury,
//! Nils Froleyks, Florian Pollitt; "CaDiCaL 2.0", CAV 2024), the SAT Race 2019 winner and
//! the base of the competition's winners since. Incremental: clauses added after a solve go
//! into the same solver, learnt clauses are kept, and it solves under assumptions.
//!
//! The `sudosat-cadical` crate (feature `cadical`, on by default) builds CaDiCaL's C++
//! sources, as the `cadical-sys` crate ships them, with the system's C++ compiler and links
//! them; no other tool is needed. This backend speaks to the library through CaDiCaL's own
//! C API (`ccadical.h`), declared below, with the calls a plain IPASIR binding lacks (proof
//! tracing, options such as the seed).
//!
//! Proofs are CaDiCaL's DRAT trace (`ccadical_trace_proof`), text or binary. The trace
//! starts before the first clause, so a proof asked for, or clauses added after a solve
//! while one is traced, rebuild the solver from every clause kept, with a fresh trace: the
//! proof of an UNSAT answer then refutes the whole formula, blocking clauses included (as
//! for varisat). Time limits and interrupts go through the terminate callback.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::NonNull;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::backend::native::{self, to_c, too_many_variables, NativeSolver, Stop, MAX_VARS};
use crate::backend::proof::{ProofFormat, ProofTarget};
use crate::backend::{
    check_model_from, BackendError, Interrupt, LimitTime, SatBackend, SatOutcome,
    SolveUnderAssumptions, WriteProofs,
};
use crate::formula::{ClauseSink, Cnf, Lit, Model};
use crate::run::Counters;

// The crate is linked for its compiled library.
extern crate sudosat_cadical as _;

/// CaDiCaL's C handle (`CCaDiCaL` of `ccadical.h`).
#[repr(C)]
struct CCaDiCaL {
    _private: [u8; 0],
}

extern "C" {
    fn ccadical_signature() -> *const c_char;
    fn ccadical_init() -> *mut CCaDiCaL;
    fn ccadical_release(solver: *mut CCaDiCaL);
    fn ccadical_add(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_assume(solver: *mut CCaDiCaL, lit: c_int);
    fn ccadical_solve(solver: *mut CCaDiCaL) -> c_int;
    fn ccadical_val(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_failed(solver: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_set_terminate(
        solver: *mut CCaDiCaL,
        state: *mut c_void,
        terminate: Option<extern "C" fn(*mut c_void) -> c_int>,
    );
    fn ccadical_set_option(solver: *mut CCaDiCaL, name: *const c_char, value: c_int);
    fn ccadical_vars(solver: *mut CCaDiCaL) -> c_int;
    fn ccadical_declare_more_variables(solver: *mut CCaDiCaL, number_of_vars: c_int) -> c_int;
    #[cfg(unix)]
    fn ccadical_trace_proof(
        solver: *mut CCaDiCaL,
        file: *mut libc::FILE,
        name: *const c_char,
    ) -> c_int;
    #[cfg(unix)]
    fn ccadical_close_proof(solver: *mut CCaDiCaL);
    #[cfg(test)]
    fn ccadical_get_option(solver: *mut CCaDiCaL, name: *const c_char) -> c_int;
}

/// The linked CaDiCaL's name and version, e.g. `cadical-3.0.1`.
pub fn version() -> String {
    // SAFETY: a static NUL-terminated string of the library.
    unsafe { CStr::from_ptr(ccadical_signature()) }
        .to_string_lossy()
        .into_owned()
}

/// One CaDiCaL solver, released when dropped, and the proof file it traces into.
struct Handle {
    solver: NonNull<CCaDiCaL>,
    /// The open proof file (closed after the solver, which may still write to it).
    #[cfg(unix)]
    proof: Option<NonNull<libc::FILE>>,
    /// Whether the trace is still open (`ccadical_close_proof` aborts when called twice).
    tracing: bool,
    /// The variables declared so far (CaDiCaL 3 asks clauses to use declared variables
    /// when its `factor` option is on).
    declared: usize,
}

// SAFETY: CaDiCaL keeps no thread-local state; a solver is used by one thread at a time
// (the backend owns it and every call takes `&mut self`).
unsafe impl Send for Handle {}

impl Handle {
    /// A fresh solver with the seed set.
    fn new(seed: u64) -> Handle {
        // SAFETY: `ccadical_init` returns a new solver (it aborts when out of memory).
        let solver = NonNull::new(unsafe { ccadical_init() }).expect("ccadical_init");
        let handle = Handle {
            solver,
            #[cfg(unix)]
            proof: None,
            tracing: false,
            declared: 0,
        };
        if seed != 0 {
            // CaDiCaL's seed takes 0 to 2·10⁹.
            handle.set_option(c"seed", (seed % 2_000_000_000) as c_int);
        }
        handle
    }

    fn ptr(&self) -> *mut CCaDiCaL {
        self.solver.as_ptr()
    }

    /// Sets an option; only right after `new` (CaDiCaL aborts otherwise).
    fn set_option(&self, name: &CStr, value: c_int) {
        // SAFETY: a live solver in its configuring state and a NUL-terminated name.
        unsafe { ccadical_set_option(self.ptr(), name.as_ptr(), value) }
    }

    /// Starts tracing a DRAT proof into `target`; only right after `new`.
    #[cfg(unix)]
    fn trace(&mut self, target: &ProofTarget) -> Result<(), BackendError> {
        let io_error = |source| BackendError::Io {
            solver: "cadical".to_string(),
            source,
        };
        let path = target.path.to_string_lossy();
        let c_path = CString::new(path.as_bytes()).map_err(|_| {
            io_error(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the proof path holds a NUL byte",
            ))
        })?;
        self.set_option(c"binary", c_int::from(target.format == ProofFormat::Binary));
        // SAFETY: fopen of a NUL-terminated path and mode.
        let file = unsafe { libc::fopen(c_path.as_ptr(), c"wb".as_ptr()) };
        let file = NonNull::new(file).ok_or_else(|| io_error(std::io::Error::last_os_error()))?;
        self.proof = Some(file);
        // SAFETY: a solver in its configuring state and an open file, kept open until after
        // the solver is released.
        unsafe { ccadical_trace_proof(self.ptr(), file.as_ptr(), c_path.as_ptr()) };
        self.tracing = true;
        Ok(())
    }

    #[cfg(not(unix))]
    fn trace(&mut self, _: &ProofTarget) -> Result<(), BackendError> {
        Err(BackendError::Unsupported {
            solver: "cadical".to_string(),
            what: "write DRAT proofs on this system".to_string(),
        })
    }

    /// Flushes and closes the proof trace.
    fn close_proof(&mut self) -> Result<(), BackendError> {
        #[cfg(unix)]
        if self.tracing {
            // SAFETY: a live solver with an open trace.
            unsafe { ccadical_close_proof(self.ptr()) };
            self.tracing = false;
            if let Some(file) = self.proof.take() {
                // SAFETY: the file opened in `trace`, closed once.
                if unsafe { libc::fclose(file.as_ptr()) } != 0 {
                    return Err(BackendError::Io {
                        solver: "cadical".to_string(),
                        source: std::io::Error::last_os_error(),
                    });
                }
            }
        }
        Ok(())
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let max_var = clause.iter().map(|lit| lit.var().index() + 1).max();
        self.declare(max_var.unwrap_or(0));
        for &lit in clause {
            // SAFETY: a live solver; the literal is in range (`to_c` checked the variables).
            unsafe { ccadical_add(self.ptr(), to_c(lit)) };
        }
        // SAFETY: as above; 0 ends the clause.
        unsafe { ccadical_add(self.ptr(), 0) };
    }

    /// Makes sure variables 1..=`num_vars` exist, so that each has a value in a model.
    fn declare(&mut self, num_vars: usize) {
        if num_vars > self.declared {
            // SAFETY: a live solver; `num_vars` fits (checked by the backend).
            let known = unsafe { ccadical_vars(self.ptr()) }.max(0) as usize;
            if num_vars > known {
                // SAFETY: as above.
                unsafe { ccadical_declare_more_variables(self.ptr(), (num_vars - known) as c_int) };
            }
            self.declared = num_vars;
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the solver is released once; its trace file is closed after it.
        unsafe { ccadical_release(self.ptr()) };
        #[cfg(unix)]
        if let Some(file) = self.proof.take() {
            // SAFETY: the file opened in `trace`, not closed yet.
            unsafe { libc::fclose(file.as_ptr()) };
        }
    }
}

/// The CaDiCaL backend.
pub struct CadicalBackend {
    handle: Handle,
    /// Every clause as given, to check models and rebuild the solver.
    original: Cnf,
    /// Clauses the caller checks models against itself ([`SatBackend::trust_clauses`]).
    trusted: usize,
    solves: u64,
    /// The seed of every solver made ([`BackendSpec::seed`](crate::backend::BackendSpec)).
    seed: u64,
    /// The proof asked for ([`WriteProofs::set_proof`]).
    proof: Option<ProofTarget>,
    /// The solver must be rebuilt before the next solve: clauses came after a solve while a
    /// proof is traced.
    stale: bool,
    /// The deadline and interrupt the terminate callback reads.
    stop: Box<Stop>,
    /// The assumptions of the last solve under assumptions that was refuted by them.
    failed: Vec<Lit>,
}

impl Default for CadicalBackend {
    fn default() -> Self {
        CadicalBackend::new()
    }
}

impl CadicalBackend {
    /// An empty solver.
    pub fn new() -> CadicalBackend {
        CadicalBackend::with_seed(0)
    }

    /// An empty solver whose search takes `seed` (CaDiCaL's `--seed`; 0 is its default).
    pub fn with_seed(seed: u64) -> CadicalBackend {
        CadicalBackend {
            handle: Handle::new(seed),
            original: Cnf::new(),
            trusted: 0,
            solves: 0,
            seed,
            proof: None,
            stale: false,
            stop: Box::default(),
            failed: Vec::new(),
        }
    }

    /// A fresh solver tracing the proof asked for, loaded with every clause kept.
    fn rebuild(&mut self) -> Result<(), BackendError> {
        let mut handle = Handle::new(self.seed);
        if let Some(target) = &self.proof {
            handle.trace(target)?;
        }
        for clause in self.original.clauses() {
            handle.add_clause(clause);
        }
        self.handle = handle;
        self.stale = false;
        Ok(())
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        let num_vars = self.original.num_vars();
        if num_vars > MAX_VARS {
            return Err(too_many_variables("cadical", num_vars));
        }
        if self.stale {
            self.rebuild()?;
        }
        self.solves += 1;
        self.failed.clear();
        self.handle.declare(num_vars);
        let ptr = self.handle.ptr();
        let armed = self.stop.armed();
        self.stop.start();
        let state: *mut Stop = std::ptr::from_mut(self.stop.as_mut());
        let answer = {
            let _inside = NativeSolver::Cadical.enter();
            // SAFETY: a live solver; `state` points to the boxed `Stop`, which outlives the
            // solve and is not otherwise touched during it.
            unsafe {
                if armed {
                    ccadical_set_terminate(ptr, state.cast(), Some(native::terminate));
                } else {
                    ccadical_set_terminate(ptr, std::ptr::null_mut(), None);
                }
                for &lit in assumptions {
                    ccadical_assume(ptr, to_c(lit));
                }
                ccadical_solve(ptr)
            }
        };
        match answer {
            10 => {
                let values = (1..=num_vars)
                    // SAFETY: a satisfied solver and a reserved variable.
                    .map(|v| unsafe { ccadical_val(ptr, v as c_int) } > 0)
                    .collect();
                check_model_from(
                    "cadical",
                    &self.original,
                    self.trusted,
                    Model::from_values(values),
                )
            }
            20 => {
                self.failed = assumptions
                    .iter()
                    .copied()
                    // SAFETY: an unsatisfied solver, asked of its own assumptions.
                    .filter(|&lit| unsafe { ccadical_failed(ptr, to_c(lit)) } != 0)
                    .collect();
                Ok(SatOutcome::Unsat)
            }
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
}

impl ClauseSink for CadicalBackend {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
        if self.proof.is_some() && self.solves > 0 {
            // The trace must refute every clause: the next solve rebuilds.
            self.stale = true;
        }
        if !self.stale && self.original.num_vars() <= MAX_VARS {
            self.handle.add_clause(clause);
        }
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for CadicalBackend {
    fn name(&self) -> String {
        "cadical".to_string()
    }

    fn num_vars(&self) -> usize {
        self.original.num_vars()
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solve_with(&[])
    }

    fn counters(&self) -> Counters {
        Counters(vec![("solves", self.solves)])
    }

    fn reset(&mut self) {
        let stop = std::mem::take(&mut self.stop);
        *self = CadicalBackend::with_seed(self.seed);
        self.stop = stop;
    }

    fn trust_clauses(&mut self, count: usize) {
        self.trusted = count;
    }

    fn as_assumptions(&mut self) -> Option<&mut dyn SolveUnderAssumptions> {
        Some(self)
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn as_prover(&mut self) -> Option<&mut dyn WriteProofs> {
        cfg!(unix).then_some(self as &mut dyn WriteProofs)
    }
}

impl SolveUnderAssumptions for CadicalBackend {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        self.solve_with(assumptions)
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }
}

impl LimitTime for CadicalBackend {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.stop.limit = limit;
    }
}

impl Interrupt for CadicalBackend {
    fn set_interrupt(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop.interrupt = flag;
    }
}

impl WriteProofs for CadicalBackend {
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        self.proof = target;
        // The trace starts before any clause: start over with those kept.
        self.rebuild()
    }

    fn finish_proof(&mut self) -> Result<(), BackendError> {
        self.handle.close_proof()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(dimacs: &[i64]) -> Vec<Lit> {
        dimacs.iter().map(|&l| Lit::from_dimacs(l)).collect()
    }

    #[test]
    fn the_version_is_the_one_the_crate_carries() {
        assert_eq!(version(), format!("cadical-{}", sudosat_cadical::VERSION));
        assert_eq!(version(), "cadical-3.0.1");
    }

    #[test]
    fn the_seed_is_cadicals_own_seed_option() {
        for (seed, option) in [(0, 0), (7, 7), (2_000_000_003, 3)] {
            let backend = CadicalBackend::with_seed(seed);
            // SAFETY: a live solver and a NUL-terminated option name.
            let set = unsafe { ccadical_get_option(backend.handle.ptr(), c"seed".as_ptr()) };
            assert_eq!(set, option, "seed {seed}");
        }
        // A reset keeps it.
        let mut backend = CadicalBackend::with_seed(11);
        backend.reset();
        // SAFETY: as above.
        let set = unsafe { ccadical_get_option(backend.handle.ptr(), c"seed".as_ptr()) };
        assert_eq!(set, 11);
    }

    #[test]
    fn assumptions_answer_and_name_the_failed_ones() {
        let mut backend = CadicalBackend::new();
        backend.add_clause(&lits(&[1, 2]));
        backend.add_clause(&lits(&[-1, 2]));
        let under = |b: &mut CadicalBackend, a: &[i64]| b.solve_under(&lits(a)).unwrap();
        assert!(matches!(under(&mut backend, &[-2]), SatOutcome::Unsat));
        assert_eq!(backend.failed_assumptions(), lits(&[-2]));
        match under(&mut backend, &[1, 3]) {
            SatOutcome::Sat(model) => {
                assert!(model.value(Lit::from_dimacs(2).var()));
                assert!(model.value(Lit::from_dimacs(1).var()));
            }
            SatOutcome::Unsat => panic!("satisfiable under 1, 3"),
        }
        // The assumptions held for one solve only.
        assert!(matches!(backend.solve().unwrap(), SatOutcome::Sat(_)));
        assert!(backend.failed_assumptions().is_empty());
    }

    #[test]
    fn a_passed_time_limit_is_a_time_out_and_the_solver_answers_after_it() {
        let mut backend = CadicalBackend::new();
        backend.add_formula(&mut native::tests::pigeonhole(9, 8));
        backend.set_time_limit(Some(Duration::ZERO));
        match backend.solve() {
            Err(BackendError::Timeout { solver, timeout }) => {
                assert_eq!((solver.as_str(), timeout), ("cadical", Duration::ZERO))
            }
            other => panic!("expected a time-out, got {other:?}"),
        }
        backend.set_time_limit(None);
        backend.reset();
        backend.add_formula(&mut native::tests::pigeonhole(3, 3));
        assert!(matches!(backend.solve().unwrap(), SatOutcome::Sat(_)));
    }
}
