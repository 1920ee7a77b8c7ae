//! Run-time vocabulary shared by every solver layer: work [`Counters`] and the cooperative
//! [`Deadline`], which also ends when the stop flag of its thread is set
//! ([`stop_thread_on`]: how a caller stops solvers that take no interrupt flag of their
//! own, the classic ones among them).
//!
//! Also the machine's limits a run checks against: cores, memory and disk space; and the
//! live progress a solver reports to a watcher on its own thread ([`watch_progress`]).
//!
//! A leaf module: it imports nothing from the crate, so the solvers above it and the
//! grid-level solvers of the root crate use it without importing each other.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The clock every deadline and timing reads: std's `Instant` on native targets, the
/// browser's `performance.now()` on `wasm32-unknown-unknown`, where std's panics
/// (`web-time`). Time-keeping code names this one, not `std::time::Instant`.
pub use web_time::Instant;

thread_local! {
    /// The stop flag of the work this thread does ([`stop_thread_on`]).
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Makes every [`Deadline`] asked on the calling thread expire once `flag` is set (`None`:
/// no flag): the work stops at its next check as at a time limit. For a caller that runs
/// a solve on a thread of its own and must be able to stop it (Ctrl-C), whatever the
/// solver. A thread pool hands it on to its threads with [`thread_stop_flag`].
pub fn stop_thread_on(flag: Option<Arc<AtomicBool>>) {
    STOP.with(|stop| *stop.borrow_mut() = flag);
}

/// The stop flag of the calling thread ([`stop_thread_on`]).
pub fn thread_stop_flag() -> Option<Arc<AtomicBool>> {
    STOP.with(|stop| stop.borrow().clone())
}

/// Whether the calling thread's stop flag is set.
fn stop_asked() -> bool {
    STOP.with(|stop| {
        stop.borrow()
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    })
}

/// A solver's counters (decisions, propagations, conflicts, nodes…), in a stable order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counters(pub Vec<(&'static str, u64)>);

impl Counters {
    /// The value of a named counter.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.iter().find(|(k, _)| *k == name).map(|&(_, v)| v)
    }

    /// Adds `more` counter by counter (a name not yet here joins at the end, in `more`'s
    /// order): the sums over many solves.
    pub fn add(&mut self, more: &Counters) {
        for &(name, value) in &more.0 {
            match self.0.iter_mut().find(|(n, _)| *n == name) {
                Some((_, total)) => *total += value,
                None => self.0.push((name, value)),
            }
        }
    }
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&parts.join(" "))
    }
}

/// What [`watch_progress`] calls with a solver's counters.
type Watcher = Box<dyn FnMut(&Counters)>;

thread_local! {
    /// The watcher of [`watch_progress`] on this thread, if any.
    static WATCHER: RefCell<Option<Watcher>> = const { RefCell::new(None) };
    /// Whether [`WATCHER`] is set: one load where a solver reports, and nothing more when
    /// nobody watches (every run but the browser's).
    static WATCHED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` with `watcher` told of the progress of the solves it makes on this thread:
/// the counters a solver reports each time it looks at the clock ([`report_progress`]).
/// For a caller that cannot watch from another thread: a browser's worker has only the
/// one that solves. The watcher decides how often to show anything; it is dropped when
/// `work` returns or panics.
pub fn watch_progress<R>(watcher: impl FnMut(&Counters) + 'static, work: impl FnOnce() -> R) -> R {
    struct Unwatch;
    impl Drop for Unwatch {
        fn drop(&mut self) {
            WATCHED.with(|w| w.set(false));
            WATCHER.with(|w| w.borrow_mut().take());
        }
    }
    WATCHER.with(|w| *w.borrow_mut() = Some(Box::new(watcher)));
    WATCHED.with(|w| w.set(true));
    let _unwatch = Unwatch;
    work()
}

/// Tells the watcher of [`watch_progress`], if there is one on this thread, the counters
/// `counters` makes; costs one thread-local load when there is none. Solvers call it where
/// they look at the clock.
#[inline]
pub fn report_progress(counters: impl FnOnce() -> Counters) {
    if WATCHED.with(Cell::get) {
        WATCHER.with(|w| {
            // A watcher that solves again reports to nobody: no second borrow.
            if let Ok(mut watcher) = w.try_borrow_mut() {
                if let Some(watcher) = watcher.as_mut() {
                    watcher(&counters());
                }
            }
        });
    }
}

/// The cores this process may use (1 when the system cannot tell): the default of
/// `--jobs` and of cdcl's `--threads`.
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The memory this process may still take, if the system says: the kernel's
/// `MemAvailable` (`/proc/meminfo`), lowered to what the process's control group leaves
/// under its limit when it has one (in a container `MemAvailable` is the host's). The base
/// of `--max-memory`'s default and of the portfolio's room for copies. The environment
/// variable `SUDOSAT_ASSUME_AVAILABLE_MEMORY` (bytes) overrides it: for tests, and for
/// systems that misreport; a value that is not a number counts as "the system does not
/// say".
pub fn available_memory() -> Option<u64> {
    if let Some(bytes) = std::env::var_os("SUDOSAT_ASSUME_AVAILABLE_MEMORY") {
        return bytes.to_str()?.parse().ok();
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let available = kib.checked_mul(1024)?;
    Some(cgroup_room().map_or(available, |room| room.min(available)))
}

/// What the control group's memory limit leaves (limit − usage), cgroup v2 then v1;
/// None without a limit.
fn cgroup_room() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    [
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ]
    .iter()
    .find_map(|&(limit, usage)| room_under_limit(&read(limit)?, &read(usage)?))
}

/// Bytes left under a control group's limit, from the text of its limit and usage files:
/// None when the limit is `max` (v2) or so large it means none (v1 writes 2^63 rounded
/// down to a page), or the text is not a number.
fn room_under_limit(limit: &str, usage: &str) -> Option<u64> {
    let limit: u64 = limit.trim().parse().ok()?;
    let usage: u64 = usage.trim().parse().ok()?;
    (limit < 1 << 62).then(|| limit.saturating_sub(usage))
}

/// A byte count for messages: `93.1 GB`, `4.2 MB`, `812 bytes` (decimal units, as `df -H`).
pub fn approx_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b => format!("{b} bytes"),
    }
}

/// The bytes an unprivileged process may still write on the file system holding `dir`
/// (`statvfs`: available blocks × fragment size), if the system says. The environment
/// variable `SUDOSAT_ASSUME_FREE_BYTES` overrides it: for tests, and for file systems
/// that misreport (some network mounts report 0). A value that is not a number counts as
/// "the system does not say", so the check is skipped rather than the write refused.
pub fn available_disk(dir: &std::path::Path) -> Option<u64> {
    if let Some(bytes) = std::env::var_os("SUDOSAT_ASSUME_FREE_BYTES") {
        return bytes.to_str()?.parse().ok();
    }
    statvfs_available(dir)
}

#[cfg(unix)]
fn statvfs_available(dir: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is NUL-terminated and `stat` is written by the call before it is read.
    let stat = unsafe {
        if libc::statvfs(path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    (stat.f_bavail as u64).checked_mul(stat.f_frsize as u64)
}

#[cfg(not(unix))]
fn statvfs_available(_dir: &std::path::Path) -> Option<u64> {
    None
}

/// A cooperative time limit: a solver's hot loop asks [`Deadline::expired`] every so many
/// steps (reading the clock costs about 20 ns, so not on every step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadline {
    start: Option<Instant>,
    limit: Option<Duration>,
}

impl Deadline {
    /// No limit: never expires.
    pub const NONE: Deadline = Deadline {
        start: None,
        limit: None,
    };

    /// A deadline `limit` from now (`None`: never).
    pub fn after(limit: Option<Duration>) -> Deadline {
        Deadline {
            start: limit.map(|_| Instant::now()),
            limit,
        }
    }

    /// Whether the limit has passed, or the thread's stop flag is set ([`stop_thread_on`]).
    #[inline]
    pub fn expired(&self) -> bool {
        match (self.start, self.limit) {
            (Some(start), Some(limit)) if start.elapsed() >= limit => true,
            _ => stop_asked(),
        }
    }

    /// Steps between two clock reads of [`Deadline::expired_at`].
    pub const CHECK_PERIOD: u64 = 1024;

    /// [`Deadline::expired`], asking the clock only when `step` is a multiple of
    /// [`Deadline::CHECK_PERIOD`]: for hot loops whose steps cost nanoseconds.
    #[inline]
    pub fn expired_at(&self, step: u64) -> bool {
        step % Self::CHECK_PERIOD == 0 && self.expired()
    }

    /// The limit this deadline was made with.
    pub fn limit(&self) -> Option<Duration> {
        self.limit
    }

    /// The time left (zero once passed; `None`: no limit), for a later step that shares
    /// the deadline under its own time limit.
    pub fn remaining(&self) -> Option<Duration> {
        match (self.start, self.limit) {
            (Some(start), Some(limit)) => Some(limit.saturating_sub(start.elapsed())),
            _ => None,
        }
    }

    /// The time-out a solver reports when the deadline has passed (the root crate's error
    /// takes it in).
    pub fn timed_out(&self, solver: &str) -> TimedOut {
        TimedOut {
            solver: solver.to_string(),
            limit: self.limit.unwrap_or_default(),
        }
    }
}

/// A grid-level solver reached its [`Deadline`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedOut {
    /// The solver's name.
    pub solver: String,
    /// The limit.
    pub limit: Duration,
}

/// The longest time limit taken, in seconds: deadlines are `Instant`s, which overflow (a
/// panic) far below what an `f64` can say.
pub const MAX_TIME_LIMIT_SECS: f64 = 1e9;

/// A time limit given in seconds (the CLI's `--timeout`, a Python `timeout=`) as a
/// duration; `None` is no limit. `what` names the option in the message.
///
/// # Errors
/// [`BadTimeLimit`] for a time that is not a positive number of seconds, or is longer than
/// [`MAX_TIME_LIMIT_SECS`].
pub fn time_limit(what: &str, secs: Option<f64>) -> Result<Option<Duration>, BadTimeLimit> {
    match secs {
        None => Ok(None),
        Some(secs) if secs > MAX_TIME_LIMIT_SECS => Err(BadTimeLimit::TooLarge {
            what: what.to_string(),
            secs,
        }),
        Some(secs) if secs.is_finite() && secs > 0.0 => Ok(Some(Duration::from_secs_f64(secs))),
        Some(secs) => Err(BadTimeLimit::NotPositive {
            what: what.to_string(),
            secs,
        }),
    }
}

/// Why a number of seconds is not a time limit ([`time_limit`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadTimeLimit {
    /// Longer than [`MAX_TIME_LIMIT_SECS`].
    #[error(
        "{what} {secs:e} is too large: at most {max:e} seconds (about 31 years); leave it out \
         for no limit",
        max = MAX_TIME_LIMIT_SECS
    )]
    TooLarge {
        /// The option.
        what: String,
        /// The value given.
        secs: f64,
    },
    /// Zero, negative or not a number.
    #[error("{what} must be a positive number of seconds, not {secs}")]
    NotPositive {
        /// The option.
        what: String,
        /// The value given.
        secs: f64,
    },
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_watcher_sees_the_reports_made_while_it_watches_and_no_others() {
        use super::{report_progress, watch_progress, Counters};
        use std::sync::{Arc, Mutex};
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        report_progress(|| Counters(vec![("conflicts", 1)]));
        let answer = watch_progress(
            move |c: &Counters| sink.lock().unwrap().push(c.get("conflicts")),
            || {
                report_progress(|| Counters(vec![("conflicts", 2)]));
                report_progress(|| Counters(vec![("conflicts", 3)]));
                42
            },
        );
        report_progress(|| Counters(vec![("conflicts", 4)]));
        assert_eq!(answer, 42);
        assert_eq!(*seen.lock().unwrap(), [Some(2), Some(3)]);
    }

    #[test]
    fn a_control_groups_room_is_its_limit_less_its_usage() {
        use super::room_under_limit;
        assert_eq!(
            room_under_limit("4294967296\n", "1073741824\n"),
            Some(3 << 30)
        );
        // Over the limit (page cache counts in the usage): no room, not an underflow.
        assert_eq!(room_under_limit("1000", "2000"), Some(0));
        // No limit: v2 writes `max`, v1 2^63 rounded down to a page.
        assert_eq!(room_under_limit("max\n", "1000"), None);
        assert_eq!(room_under_limit("9223372036854771712", "5188661248"), None);
        assert_eq!(room_under_limit("", "1"), None);
    }

    #[test]
    fn a_deadline_expires_when_its_threads_stop_flag_is_set() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let flag = Arc::new(AtomicBool::new(false));
        let deadline = super::Deadline::NONE;
        super::stop_thread_on(Some(Arc::clone(&flag)));
        assert!(!deadline.expired() && !deadline.expired_at(0));
        flag.store(true, Ordering::Relaxed);
        assert!(deadline.expired() && deadline.expired_at(0));
        // Between two checks it is not asked.
        assert!(!deadline.expired_at(1));
        // Another thread has no flag.
        assert!(!std::thread::spawn(move || deadline.expired())
            .join()
            .unwrap());
        assert!(super::thread_stop_flag().is_some());
        super::stop_thread_on(None);
        assert!(!deadline.expired());
    }

    #[test]
    fn counters_add_by_name_and_keep_new_names_in_order() {
        let mut sum = super::Counters(vec![("a", 1), ("b", 2)]);
        sum.add(&super::Counters(vec![("b", 5), ("c", 7), ("a", 1)]));
        assert_eq!(sum, super::Counters(vec![("a", 2), ("b", 7), ("c", 7)]));
    }

    use super::*;

    #[test]
    fn a_time_limit_is_a_positive_number_of_seconds_within_bounds() {
        assert_eq!(time_limit("--timeout", None), Ok(None));
        assert_eq!(
            time_limit("--timeout", Some(1.5)),
            Ok(Some(Duration::from_millis(1500)))
        );
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(time_limit("--timeout", Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(
            time_limit("timeout", Some(-2.0)).unwrap_err().to_string(),
            "timeout must be a positive number of seconds, not -2"
        );
        assert_eq!(
            time_limit("--timeout", Some(1e12)).unwrap_err().to_string(),
            "--timeout 1e12 is too large: at most 1e9 seconds (about 31 years); leave it out \
             for no limit"
        );
    }

    #[test]
    fn remaining_counts_down_to_zero() {
        assert_eq!(Deadline::NONE.remaining(), None);
        let long = Deadline::after(Some(Duration::from_secs(3600)));
        let left = long.remaining().unwrap();
        assert!(left <= Duration::from_secs(3600) && left > Duration::from_secs(3500));
        let passed = Deadline::after(Some(Duration::ZERO));
        assert_eq!(passed.remaining(), Some(Duration::ZERO));
    }

    #[cfg(unix)]
    #[test]
    fn statvfs_reports_space_for_a_directory_and_none_for_a_missing_one() {
        assert!(statvfs_available(std::path::Path::new(".")).is_some_and(|b| b > 0));
        assert_eq!(
            statvfs_available(std::path::Path::new("/no/such/dir")),
            None
        );
    }
}
