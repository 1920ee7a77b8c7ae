//! A randomised fuzz driver for sudosat's parsers, on the stable toolchain.
//!
//! Without coverage instrumentation, it searches by mutation with a cheap feedback signal:
//! an input whose *outcome* (the kind of grid or answer parsed, or the error message with
//! its digits blanked out) has not been seen before joins the in-memory corpus, so the
//! search keeps reaching new error paths. Every input runs under `catch_unwind`; a panic,
//! an input slower than the budget (100 ms per MiB, at least 50 ms), an allocation beyond
//! 256 MiB, or a hang (a watchdog after 10 s) is saved under `<out>/<target>/crash-*`,
//! `slow-*`, `memory-*` or `hang-*`, which `tests/fuzz_replay.rs` replays.
//!
//! ```sh
//! cargo build --profile fuzz --example fuzz
//! target/fuzz/examples/fuzz grid --cpu-seconds 1800 --seed 1 --out tests/fuzz
//! target/fuzz/examples/fuzz --large      # time 1 MiB inputs for every target
//! ```
//!
//! Targets: `grid` (auto-detection and every format), `dimacs`, `minisat` (MiniSat result
//! files), `competition` (`s`/`v` lines, and the auto-detecting model reader),
//! `compressed` (gzip, bzip2 and xz streams, damaged or not, through the grid reader and
//! the DIMACS parser).

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudosat::dimacs::{
    parse_cubes, parse_dimacs, read_competition_output, read_minisat_result, read_model_auto,
    ParseOptions, SolverAnswer,
};
use sudosat::grid::{read_puzzles, Format, Source};
use sudosat::Cnf;

/// The largest single allocation a parser may make on fuzz input before it counts as a
/// memory blow-up (the inputs are at most a few MiB).
const ALLOC_LIMIT: usize = 256 << 20;

/// Counts live bytes and flags any single allocation above [`ALLOC_LIMIT`].
struct GuardedAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TOO_BIG: AtomicBool = AtomicBool::new(false);

unsafe impl GlobalAlloc for GuardedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            note_alloc(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        if new_size > ALLOC_LIMIT {
            TOO_BIG.store(true, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

fn note_alloc(size: usize) {
    if size > ALLOC_LIMIT {
        TOO_BIG.store(true, Ordering::Relaxed);
    }
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

#[global_allocator]
static ALLOC: GuardedAlloc = GuardedAlloc;

const TARGETS: [&str; 5] = ["grid", "dimacs", "minisat", "competition", "compressed"];

/// Runs one target on one input; the returned string is the outcome class.
fn run_target(target: &str, data: &[u8]) -> String {
    match target {
        "grid" => GRID_PARTS
            .iter()
            .map(|part| grid_part(part, data, true))
            .collect::<Vec<_>>()
            .join("|"),
        "dimacs" => {
            let mut cnf = Cnf::new();
            let strict = data.first().is_some_and(|b| b & 1 == 1);
            let formula = match parse_dimacs(data, "<fuzz>", &mut cnf, ParseOptions { strict }) {
                Ok(report) if report.incremental => {
                    format!("inc{}", report.cubes.len().min(3))
                }
                Ok(report) => format!("ok{}", report.warnings.len()),
                Err(e) => class_of(&e.to_string()),
            };
            // The same bytes as a cube file (`sat --cubes`).
            let cubes = match parse_cubes(data, "<fuzz>", 10) {
                Ok(cubes) => format!("cubes{}", cubes.len().min(3)),
                Err(e) => class_of(&e.to_string()),
            };
            format!("{formula}|{cubes}")
        }
        "minisat" => answer_class(read_minisat_result(data, "<fuzz>", 10)),
        "competition" => {
            let a = answer_class(read_competition_output(data, "<fuzz>", 10));
            let b = answer_class(read_model_auto(data, "<fuzz>", 10));
            format!("{a}|{b}")
        }
        "compressed" => compressed_class(data),
        _ => unreachable!("target checked in main"),
    }
}

/// What a decompressed input reads as, as `sudosat` reads files: the grid reader and the
/// DIMACS parser, each behind [`sudosat::compression::decompressed`]. At most
/// [`PLAIN_LIMIT`] decompressed bytes are read: a small input may inflate to gigabytes,
/// which is a large file, not a parser fault.
fn compressed_class(data: &[u8]) -> String {
    let grid = match sudosat::compression::decompressed(data) {
        Err(e) => class_of(&e.to_string()),
        Ok((kind, reader)) => match read_puzzles(reader.take(PLAIN_LIMIT), &Source::Text, None) {
            Ok(grids) => format!("{kind} ok{}", grids.len().min(3)),
            Err(e) => format!("{kind} {}", class_of(&e.message)),
        },
    };
    let dimacs = match sudosat::compression::decompressed(data) {
        Err(e) => class_of(&e.to_string()),
        Ok((_, reader)) => {
            let mut cnf = Cnf::new();
            let options = ParseOptions::default();
            match parse_dimacs(reader.take(PLAIN_LIMIT), "<fuzz>", &mut cnf, options) {
                Ok(_) => "ok".into(),
                Err(e) => class_of(&e.to_string()),
            }
        }
    };
    format!("{grid}|{dimacs}")
}

/// Decompressed bytes the `compressed` target reads at most.
const PLAIN_LIMIT: u64 = 16 << 20;

/// The grid target's parts: auto-detection, each format, and `detect_format` alone.
const GRID_PARTS: [&str; 6] = ["auto", "line", "block", "grid", "csv2", "detect"];

/// One part of the grid target; `check` also runs the rule check on every grid read, as
/// the tool would (left out when timing the parse alone).
fn grid_part(part: &str, data: &[u8], check: bool) -> String {
    let format = match part {
        "auto" => None,
        "line" => Some(Format::Line),
        "block" => Some(Format::Block),
        "grid" => Some(Format::Grid),
        "csv2" => Some(Format::Csv2),
        _ => {
            return match std::str::from_utf8(data) {
                Ok(text) => format!("{:?}", sudosat::grid::detect_format(text)),
                Err(_) => "not utf-8".into(),
            }
        }
    };
    match read_puzzles(data, &Source::Text, format) {
        Ok(grids) => {
            if check {
                for g in &grids {
                    let _ = sudosat::grid::check_grid(g);
                }
            }
            format!("ok{}", grids.first().map_or(0, |g| g.side()))
        }
        Err(e) => class_of(&e.message),
    }
}

fn answer_class<E: std::fmt::Display>(r: Result<SolverAnswer, E>) -> String {
    match r {
        Ok(SolverAnswer::Sat(m)) => format!("sat{}", m.len().min(20)),
        Ok(SolverAnswer::Unsat) => "unsat".into(),
        Ok(SolverAnswer::Unknown) => "unknown".into(),
        Err(e) => class_of(&e.to_string()),
    }
}

/// An error message reduced to its wording: quoted text, numbers, and words shorter than
/// three letters (quoted characters) left out. The outcome class.
fn class_of(message: &str) -> String {
    let unquoted: String = message.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    unquoted
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 3)
        .take_while(|w| *w != "found")
        .take(8)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Tokens worth splicing into the inputs of each format.
const DICTIONARY: &[&[u8]] = &[
    b"p cnf ",
    b"p cnf 3 2\n",
    b"p cnf 18446744073709551615 1\n",
    b"c p show ",
    b"c p show 1 2 0\n",
    b"c p show 4294967295 0\n",
    b" 0\n",
    b"-",
    b"c ",
    b"%\n",
    b"4294967296",
    b"4294967295",
    b"2147483648",
    b"-9223372036854775808",
    b"99999999999999999999999",
    b"SAT\n",
    b"UNSAT\n",
    b"INDET\n",
    b"s SATISFIABLE\n",
    b"s UNSATISFIABLE\n",
    b"s UNKNOWN\n",
    b"v ",
    b"v 1 -2 3 0\n",
    b"\r\n",
    b"\t",
    b"\0",
    b"\xff\xfe",
    b"\xe2\x80\x94",
    b"|",
    b"-+-",
    b"------+-------+------\n",
    b"#",
    b"puzzle\n",
    b"puzzle,solution\n",
    b",",
    b".",
    b"0",
    b"16",
    b"25",
    b"255",
    b"A",
    b"Z",
    b"1 2 3 4\n",
    b"\n\n",
    b"................................................................................\n",
];

fn mutate(rng: &mut ChaCha8Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut data = if corpus.is_empty() || rng.gen_ratio(1, 20) {
        let len = rng.gen_range(0..256);
        (0..len).map(|_| rng.gen()).collect()
    } else {
        corpus[rng.gen_range(0..corpus.len())].clone()
    };
    let rounds = 1 + rng.gen_range(0..8);
    for _ in 0..rounds {
        let len = data.len();
        match rng.gen_range(0..10) {
            0 if len > 0 => {
                let i = rng.gen_range(0..len);
                data[i] ^= 1 << rng.gen_range(0..8);
            }
            1 if len > 0 => {
                let i = rng.gen_range(0..len);
                data[i] = rng.gen();
            }
            2 => {
                let i = rng.gen_range(0..=len);
                data.insert(i, rng.gen());
            }
            3 if len > 0 => {
                let a = rng.gen_range(0..len);
                let b = (a + rng.gen_range(1..=16)).min(len);
                data.drain(a..b);
            }
            4 => {
                let tok = DICTIONARY[rng.gen_range(0..DICTIONARY.len())];
                let i = rng.gen_range(0..=len);
                data.splice(i..i, tok.iter().copied());
            }
            5 if len > 0 => {
                // Duplicate a chunk (repetition finds quadratic paths).
                let a = rng.gen_range(0..len);
                let b = (a + rng.gen_range(1..=64)).min(len);
                let chunk = data[a..b].to_vec();
                let times = rng.gen_range(1..=8);
                for _ in 0..times {
                    data.splice(b..b, chunk.iter().copied());
                }
            }
            6 if !corpus.is_empty() => {
                // Splice in part of another corpus entry.
                let other = &corpus[rng.gen_range(0..corpus.len())];
                if !other.is_empty() {
                    let a = rng.gen_range(0..other.len());
                    let b = (a + rng.gen_range(1..=256)).min(other.len());
                    let i = rng.gen_range(0..=len);
                    data.splice(i..i, other[a..b].iter().copied());
                }
            }
            7 if len > 0 => {
                // Replace a run of digits with an extreme number.
                let i = rng.gen_range(0..len);
                if data[i].is_ascii_digit() {
                    let mut j = i;
                    while j < data.len() && data[j].is_ascii_digit() {
                        j += 1;
                    }
                    let n: u64 = match rng.gen_range(0..4) {
                        0 => rng.gen(),
                        1 => rng.gen_range(0..100),
                        2 => (1u64 << rng.gen_range(0..64)).wrapping_sub(rng.gen_range(0..2)),
                        _ => rng.gen_range(0..100_000),
                    };
                    data.splice(i..j, n.to_string().bytes());
                }
            }
            8 if len > 1 => {
                // Truncate.
                data.truncate(rng.gen_range(0..len));
            }
            _ => {
                let i = rng.gen_range(0..=len);
                let c = b" \n0123456789.-|+#%,\r\tcpvsA"[rng.gen_range(0..26)];
                data.insert(i, c);
            }
        }
    }
    if data.len() > 1 << 20 {
        data.truncate(1 << 20);
    }
    data
}

/// Input repeated up to 1 MiB, to look for quadratic behaviour.
fn inflate(seed: &[u8]) -> Vec<u8> {
    let mut data = Vec::with_capacity(1 << 20);
    if seed.is_empty() {
        return data;
    }
    while data.len() + seed.len() <= 1 << 20 {
        data.extend_from_slice(seed);
    }
    data
}

fn time_budget(len: usize) -> Duration {
    Duration::from_millis(50).max(Duration::from_micros((len as u64 * 100_000) >> 20))
}

fn load_dir(dir: &Path, into: &mut Vec<Vec<u8>>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            load_dir(&p, into);
        } else if let Ok(bytes) = fs::read(&p) {
            if bytes.len() <= 1 << 20 {
                into.push(bytes);
            }
        }
    }
}

fn hash(data: &[u8]) -> u64 {
    // FNV-1a: stable file names across runs.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn save(out: &Path, target: &str, kind: &str, data: &[u8]) -> PathBuf {
    let dir = out.join(target);
    fs::create_dir_all(&dir).expect("create the output directory");
    let path = dir.join(format!("{kind}-{:016x}", hash(data)));
    fs::write(&path, data).expect("write a finding");
    path
}

struct Options {
    targets: Vec<String>,
    /// Wall-clock seconds for all targets together (split evenly), if given.
    seconds: Option<u64>,
    /// CPU seconds for each target, if given.
    cpu_seconds: Option<f64>,
    seed: u64,
    out: PathBuf,
    seeds: Vec<PathBuf>,
    large: bool,
}

fn parse_args() -> Options {
    let mut o = Options {
        targets: Vec::new(),
        seconds: None,
        cpu_seconds: None,
        seed: 1,
        out: PathBuf::from("tests/fuzz"),
        seeds: Vec::new(),
        large: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| panic!("{name} needs a value"))
        };
        match a.as_str() {
            "--seconds" => o.seconds = Some(value("--seconds").parse().expect("--seconds N")),
            "--cpu-seconds" => {
                o.cpu_seconds = Some(value("--cpu-seconds").parse().expect("--cpu-seconds N"))
            }
            "--seed" => o.seed = value("--seed").parse().expect("--seed N"),
            "--out" => o.out = value("--out").into(),
            "--seeds" => o.seeds.push(value("--seeds").into()),
            "--large" => o.large = true,
            t if TARGETS.contains(&t) => o.targets.push(t.to_string()),
            other => {
                eprintln!(
                    "usage: fuzz [{}]... [--seconds N] [--cpu-seconds N] [--seed N] [--out DIR] [--seeds DIR]... [--large]\nunknown argument `{other}`",
                    TARGETS.join("|")
                );
                std::process::exit(2);
            }
        }
    }
    if o.targets.is_empty() {
        o.targets = TARGETS.iter().map(|s| s.to_string()).collect();
    }
    if o.seconds.is_none() && o.cpu_seconds.is_none() {
        o.seconds = Some(60);
    }
    o
}

/// Times every target on 1 MiB inputs built from its corpus (the ≤ 100 ms check): the
/// slowest input of each parser, the grid target one line per format (parse alone).
fn large(o: &Options) {
    for target in &o.targets {
        let mut seeds = Vec::new();
        load_dir(&o.out.join(target).join("corpus"), &mut seeds);
        for dir in &o.seeds {
            load_dir(dir, &mut seeds);
        }
        // Saved findings too: the `slow-*` ones are the inputs worth timing again.
        if let Ok(entries) = fs::read_dir(o.out.join(target)) {
            for e in entries.flatten() {
                if e.path().is_file() {
                    if let Ok(bytes) = fs::read(e.path()) {
                        seeds.push(bytes);
                    }
                }
            }
        }
        let parts: Vec<String> = if target == "grid" {
            GRID_PARTS.iter().map(|p| format!("grid/{p}")).collect()
        } else {
            vec![target.clone()]
        };
        for part in &parts {
            // The slowest input by CPU time (what the parser costs; wall time beside it
            // also counts the other work on a shared machine).
            let mut worst = (0.0, Duration::ZERO, String::new());
            for seed in seeds.iter().filter(|s| !s.is_empty()) {
                let data = inflate(seed);
                let (cpu0, start) = (thread_cpu_time(), Instant::now());
                let _ = panic::catch_unwind(|| match part.strip_prefix("grid/") {
                    Some(p) => grid_part(p, &data, false),
                    None => run_target(target, &data),
                });
                let (cpu, took) = (thread_cpu_time() - cpu0, start.elapsed());
                if cpu > worst.0 {
                    worst = (
                        cpu,
                        took,
                        String::from_utf8_lossy(&seed[..seed.len().min(40)]).into(),
                    );
                }
            }
            println!(
                "{part}: {} inputs of 1 MiB, slowest {:.1} ms CPU ({:.1} ms wall, from {:?})",
                seeds.len(),
                worst.0 * 1e3,
                worst.1.as_secs_f64() * 1e3,
                worst.2
            );
        }
    }
}

/// CPU seconds used by the calling thread so far.
fn thread_cpu_time() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the struct we own.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn main() {
    let o = parse_args();
    panic::set_hook(Box::new(|_| {}));
    if o.large {
        large(&o);
        return;
    }
    // The watchdog: the input in flight and when it started.
    let current: Arc<Mutex<(String, Vec<u8>)>> = Arc::default();
    let started = Arc::new(AtomicU64::new(u64::MAX));
    let epoch = Instant::now();
    {
        let current = Arc::clone(&current);
        let started = Arc::clone(&started);
        let out = o.out.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(1));
            let s = started.load(Ordering::Relaxed);
            if s != u64::MAX && epoch.elapsed().as_millis() as u64 > s + 10_000 {
                let (target, data) = current.lock().unwrap().clone();
                let path = save(&out, &target, "hang", &data);
                eprintln!("HANG on {target}: saved {}", path.display());
                std::process::exit(3);
            }
        });
    }
    // Either limit ends a target: wall time (split evenly) or CPU time (each).
    let per_target = o.seconds.map_or(Duration::MAX, |s| {
        Duration::from_secs(s) / o.targets.len() as u32
    });
    let cpu_limit = o.cpu_seconds.unwrap_or(f64::INFINITY);
    let mut findings = 0;
    // One saved input per target, kind and panic message class is enough.
    let mut reported = HashSet::new();
    for target in &o.targets {
        let mut rng = ChaCha8Rng::seed_from_u64(o.seed ^ hash(target.as_bytes()));
        let mut corpus = Vec::new();
        load_dir(&o.out.join(target).join("corpus"), &mut corpus);
        for dir in &o.seeds {
            load_dir(dir, &mut corpus);
        }
        let seeds = corpus.len();
        let mut seen = HashSet::new();
        let cpu_start = cpu_time();
        let start = Instant::now();
        let mut runs: u64 = 0;
        let mut max_len = 0;
        let mut last_report = Instant::now();
        loop {
            // getrusage costs a system call: look at the clocks every 256 runs.
            if runs % 256 == 0 {
                let cpu = cpu_time() - cpu_start;
                if start.elapsed() >= per_target || cpu >= cpu_limit {
                    break;
                }
                if last_report.elapsed() >= Duration::from_secs(300) {
                    last_report = Instant::now();
                    eprintln!(
                        "{target}: {runs} runs, {:.0} s wall, {cpu:.0} s CPU, corpus {}",
                        start.elapsed().as_secs_f64(),
                        corpus.len()
                    );
                }
            }
            let data = if runs % 5_000 == 4_999 && !corpus.is_empty() {
                inflate(&mutate(&mut rng, &corpus))
            } else {
                mutate(&mut rng, &corpus)
            };
            max_len = max_len.max(data.len());
            *current.lock().unwrap() = (target.clone(), data.clone());
            TOO_BIG.store(false, Ordering::Relaxed);
            let t0 = Instant::now();
            started.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
            let result = panic::catch_unwind(AssertUnwindSafe(|| run_target(target, &data)));
            started.store(u64::MAX, Ordering::Relaxed);
            let took = t0.elapsed();
            runs += 1;
            let kind = match &result {
                Err(_) => Some("crash"),
                Ok(_) if TOO_BIG.load(Ordering::Relaxed) => Some("memory"),
                Ok(_) if took > time_budget(data.len()) * 5 => Some("slow"),
                Ok(_) => None,
            };
            if let Some(kind) = kind {
                // A slow input may be the machine being busy: time it again before saving.
                let confirmed = kind != "slow" || {
                    let t1 = Instant::now();
                    let _ = panic::catch_unwind(AssertUnwindSafe(|| run_target(target, &data)));
                    t1.elapsed() > time_budget(data.len()) * 5
                };
                let msg = match &result {
                    Err(p) => p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                    Ok(_) => format!("{:.0} ms, {} bytes", took.as_secs_f64() * 1e3, data.len()),
                };
                if confirmed && reported.insert((target.clone(), kind, class_of(&msg))) {
                    findings += 1;
                    let path = save(&o.out, target, kind, &data);
                    eprintln!(
                        "{} on {target}: {msg}; saved {}",
                        kind.to_uppercase(),
                        path.display()
                    );
                }
            } else if let Ok(class) = result {
                // Bounded memory on long runs: forget the classes now and then.
                if seen.len() >= 1 << 20 {
                    seen.clear();
                }
                if std::env::var_os("FUZZ_SHOW").is_some() && !seen.contains(&class) {
                    eprintln!("{class}");
                }
                if data.len() <= 4096 && seen.insert(class) {
                    if corpus.len() < 20_000 {
                        corpus.push(data);
                    } else {
                        let i = rng.gen_range(0..corpus.len());
                        corpus[i] = data;
                    }
                }
            }
        }
        println!(
            "{target}: {runs} runs in {:.0} s wall, {:.0} s CPU; {seeds} seeds, {} outcome classes, corpus {}, longest input {max_len} bytes",
            start.elapsed().as_secs_f64(),
            cpu_time() - cpu_start,
            seen.len(),
            corpus.len(),
        );
    }
    println!("findings: {findings}");
    if findings > 0 {
        std::process::exit(1);
    }
}

/// CPU seconds used by this process so far.
fn cpu_time() -> f64 {
    // SAFETY: getrusage writes into the struct we own.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage.ru_utime.tv_sec as f64
            + usage.ru_utime.tv_usec as f64 * 1e-6
            + usage.ru_stime.tv_sec as f64
            + usage.ru_stime.tv_usec as f64 * 1e-6
    }
}
