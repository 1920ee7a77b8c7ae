//! Studies past one machine: a comparison split into shards that run apart (the tasks of a
//! Slurm job array, GNU parallel's jobs) and merged back into one report.
//!
//! - A study's runs (instance × entry × repeat) stand in one fixed order, entry-major, then
//!   instance, then repeat ([`position`]); shard K of N ([`Shard`]) runs the positions p with
//!   p mod N = K − 1, dealt round-robin. Shards differ by at most one run overall and, each
//!   entry's runs being one block of the order, per entry too.
//! - A shard's sidecar carries its [`Study`]: the study id ([`super::merge::study_id`], an FNV-1a 64-bit
//!   hash of what decides the runs), the shard, the host and CPU that measured, and one
//!   content hash per instance. A row is keyed by its instance index and that hash, not by
//!   the path the shard read it from (shards may see the inputs under other paths).
//! - [`super::merge::merge`] takes the shards back: same study, each shard once, none missing (a shard
//!   stopped before all its runs were made counts as missing) unless the caller allows it,
//!   and says in [`Merged`] which shards came from which host and which are missing.
//!
//! FNV-1a (Fowler, Noll and Vo; 64-bit offset basis 0xcbf29ce484222325, prime
//! 0x100000001b3) is written down here rather than taken from the standard library, whose
//! hasher may change between Rust releases: a study id must read the same on every machine
//! and with every build.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::error::CompareError;

use crate::formula::Cnf;
use crate::grid::Grid;

/// The most shards a study splits into (`--shard K/N`).
pub const MAX_SHARDS: usize = 100_000;

/// One of N shares of a study's runs, K counted from 1 (`K/N`; the whole study is `1/1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl Shard {
    /// The whole study: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether the run at `position` of the study's order ([`position`]) is this shard's.
    pub fn deals(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// How many of the first `total` positions are this shard's.
    pub fn share(self, total: usize) -> usize {
        if total < self.index {
            0
        } else {
            (total - self.index) / self.count + 1
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = CompareError;

    /// Parses `K/N`, 1 ≤ K ≤ N ≤ [`MAX_SHARDS`].
    fn from_str(s: &str) -> Result<Shard, CompareError> {
        let bad = || {
            CompareError::Invalid(format!(
                "--shard `{s}`: expected K/N, shard K of N counted from 1 (e.g. 2/3), \
                 N at most {MAX_SHARDS}"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl TryFrom<String> for Shard {
    type Error = CompareError;

    fn try_from(s: String) -> Result<Shard, CompareError> {
        s.parse()
    }
}

/// The position of a run in the study's fixed order: entry-major, then instance, then
/// repeat; `instance` is 0-based, `repeat` 1-based, of `instances` × `repeats`.
pub fn position(
    entry: usize,
    instance: usize,
    repeat: usize,
    instances: usize,
    repeats: usize,
) -> usize {
    (entry * instances + instance) * repeats + (repeat - 1)
}

/// FNV-1a, 64 bits, fed field by field.
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Fnv64 {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    /// Feeds raw bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Fnv64 {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    /// Feeds a number as 8 little-endian bytes.
    pub fn number(&mut self, n: u64) -> &mut Fnv64 {
        self.bytes(&n.to_le_bytes())
    }

    /// Feeds a named text field, length-prefixed, so that no two field lists run together
    /// into the same bytes.
    pub fn field(&mut self, name: &str, value: &str) -> &mut Fnv64 {
        for part in [name, value] {
            self.number(part.len() as u64).bytes(part.as_bytes());
        }
        self
    }

    /// The hash.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// The FNV-1a 64-bit hash of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    Fnv64::default().bytes(bytes).finish()
}

/// A hash as the sidecars write it: 16 lower-case hex digits.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// The content hash of a puzzle: its side and its cells, row-major (the format it was read
/// in, its file and line do not count).
pub fn puzzle_hash(grid: &Grid) -> u64 {
    let mut h = Fnv64::default();
    h.number(grid.side() as u64);
    for &v in grid.values() {
        h.bytes(&v.to_le_bytes());
    }
    h.finish()
}

/// The content hash of a formula: its variable count and its clauses, literal by literal
/// (comments, layout and compression do not count).
pub fn formula_hash(cnf: &Cnf) -> u64 {
    let mut h = Fnv64::default();
    h.number(cnf.num_vars() as u64);
    for clause in cnf.clauses() {
        h.number(clause.len() as u64);
        for lit in clause {
            h.number(lit.to_dimacs() as u64);
        }
    }
    h.finish()
}

/// The version an external solver command prints: the first line of `PROGRAM --version`
/// when it exits with success within two seconds and the line looks like a version (it
/// holds a digit and is no `s`/`v`/`c` line of an answer). `None` otherwise, and always in
/// a build without processes (feature `process`).
#[cfg(feature = "process")]
pub fn solver_version(command: &str) -> Option<String> {
    use std::process::{Command, Stdio};
    use wait_timeout::ChildExt;

    let program = command.split_whitespace().next()?;
    // Registered, so that a signal ends it with the program.
    let mut tracked = crate::backend::external::spawn_tracked(
        Command::new(program)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    )
    .ok()?;
    let child = &mut tracked.child;
    let status = match child.wait_timeout(std::time::Duration::from_secs(2)) {
        Ok(Some(status)) => status,
        _ => {
            tracked.kill();
            return None;
        }
    };
    let mut text = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take()?, &mut text).ok()?;
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let answer = ["s ", "v ", "c "].iter().any(|p| line.starts_with(p));
    (status.success() && !answer && line.chars().any(|c| c.is_ascii_digit()) && line.len() < 200)
        .then(|| line.to_string())
}

/// See the version above: a build without processes runs no solver command.
#[cfg(not(feature = "process"))]
pub fn solver_version(_command: &str) -> Option<String> {
    None
}

/// The host name: the kernel's, else `$HOSTNAME`, else `unknown`.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()))
        .unwrap_or_else(|| "unknown".to_string())
}

/// Which study a CSV of runs belongs to and which part of it it holds: written in its
/// sidecar ([`Provenance::study`](super::output::Provenance::study)) by every measuring `compare`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The study id ([`study_id`](super::merge::study_id), 16 hex digits).
    pub id: String,
    /// The shard these runs are (`1/1`: the whole study).
    pub shard: Shard,
    /// The runs the shard has to make.
    pub runs: usize,
    /// The host that measured.
    pub host: String,
    /// Its CPU model, when `/proc/cpuinfo` says.
    pub cpu: Option<String>,
    /// The content hash of each instance (16 hex digits), by instance index: a row's
    /// `puzzle_index` names its instance here.
    pub instances: Vec<String>,
}

/// One merged shard: where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedShard {
    /// Its K.
    pub shard: usize,
    /// Its CSV, as named.
    pub file: String,
    /// The host that measured it.
    pub host: String,
    /// Its CPU model.
    pub cpu: Option<String>,
    /// Its runs.
    pub runs: usize,
}

/// A shard left out of a merge, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MissingShard {
    /// Its K.
    pub shard: usize,
    /// `no file`, or the file that holds it stopped, and how far it got.
    pub reason: String,
}

/// How a merged comparison was put together ([`Provenance::merged`](super::output::Provenance::merged)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Merged {
    /// The study id.
    pub study: String,
    /// N, the shards of the study.
    pub count: usize,
    /// The shards merged, by K.
    pub shards: Vec<MergedShard>,
    /// The shards missing (`--allow-missing`), by K.
    pub missing: Vec<MissingShard>,
}

/// The shards one host measured.
#[derive(Clone, Debug, PartialEq)]
pub struct HostShare {
    /// The host.
    pub host: String,
    /// Its CPU model.
    pub cpu: Option<String>,
    /// Its shards' K.
    pub shards: Vec<usize>,
    /// Their runs.
    pub runs: usize,
}

impl Merged {
    /// The merged shards grouped by host and CPU, in order of first shard.
    pub fn hosts(&self) -> Vec<HostShare> {
        let mut hosts: Vec<HostShare> = Vec::new();
        for s in &self.shards {
            match hosts
                .iter_mut()
                .find(|h| h.host == s.host && h.cpu == s.cpu)
            {
                Some(h) => {
                    h.shards.push(s.shard);
                    h.runs += s.runs;
                }
                None => hosts.push(HostShare {
                    host: s.host.clone(),
                    cpu: s.cpu.clone(),
                    shards: vec![s.shard],
                    runs: s.runs,
                }),
            }
        }
        hosts
    }

    /// Whether more than one host (or CPU) measured.
    pub fn mixes_hosts(&self) -> bool {
        self.hosts().len() > 1
    }

    /// What the summary and the report say of the merge, one line each: the shards merged,
    /// the missing ones, and the hosts when they are several.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "merged: {} of {} shards of study {}",
            self.shards.len(),
            self.count,
            self.study
        )];
        if !self.missing.is_empty() {
            let missing: Vec<String> = self
                .missing
                .iter()
                .map(|m| format!("{}/{} ({})", m.shard, self.count, m.reason))
                .collect();
            notes.push(format!(
                "missing shards (--allow-missing): {}; the figures cover the other shards' \
                 runs only",
                missing.join(", ")
            ));
        }
        if self.mixes_hosts() {
            let hosts: Vec<String> = self
                .hosts()
                .iter()
                .map(|h| {
                    format!(
                        "{} ({}): {} {} ({} runs)",
                        h.host,
                        h.cpu.as_deref().unwrap_or("unknown CPU"),
                        if h.shards.len() == 1 {
                            "shard"
                        } else {
                            "shards"
                        },
                        h.shards
                            .iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                        h.runs
                    )
                })
                .collect();
            notes.push(format!(
                "mixed hosts, times measured on different machines: {}",
                hosts.join("; ")
            ));
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_print() {
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "", "1/100001"] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.starts_with(&format!("--shard `{bad}`")), "{err}");
        }
        let json = serde_json::to_string(&Shard { index: 1, count: 4 }).unwrap();
        assert_eq!(json, "\"1/4\"");
        assert!(serde_json::from_str::<Shard>("\"5/4\"").is_err());
    }

    #[test]
    fn fnv1a_matches_the_published_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(hex(0xaf63_dc4c_8601_ec8c), "af63dc4c8601ec8c");
    }

    /// Deals a study of `entries` × `instances` × `repeats` into `count` shards: each
    /// shard's positions, by entry.
    fn deal(
        entries: usize,
        instances: usize,
        repeats: usize,
        count: usize,
    ) -> Vec<Vec<Vec<usize>>> {
        (1..=count)
            .map(|index| {
                let shard = Shard { index, count };
                (0..entries)
                    .map(|e| {
                        let mut mine = Vec::new();
                        for i in 0..instances {
                            for r in 1..=repeats {
                                let p = position(e, i, r, instances, repeats);
                                if shard.deals(p) {
                                    mine.push(p);
                                }
                            }
                        }
                        mine
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn shards_differ_by_at_most_one_run_overall_and_per_entry() {
        for (entries, instances, repeats, count) in [
            (2, 5, 1, 3),
            (3, 4, 2, 5),
            (1, 1, 1, 4),
            (5, 7, 3, 4),
            (2, 3, 3, 18),
        ] {
            let dealt = deal(entries, instances, repeats, count);
            let total = entries * instances * repeats;
            let sizes: Vec<usize> = dealt.iter().map(|s| s.iter().map(Vec::len).sum()).collect();
            let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(max - min <= 1, "{sizes:?}");
            for (k, size) in sizes.iter().enumerate() {
                let shard = Shard {
                    index: k + 1,
                    count,
                };
                assert_eq!(shard.share(total), *size, "share of {shard}");
            }
            for e in 0..entries {
                let per_entry: Vec<usize> = dealt.iter().map(|s| s[e].len()).collect();
                let (min, max) = (
                    per_entry.iter().min().unwrap(),
                    per_entry.iter().max().unwrap(),
                );
                assert!(max - min <= 1, "entry {e}: {per_entry:?}");
            }
            // The union is the whole study, no run twice.
            let mut all: Vec<usize> = dealt.into_iter().flatten().flatten().collect();
            all.sort_unstable();
            assert_eq!(all, (0..total).collect::<Vec<_>>());
        }
        assert_eq!(Shard::WHOLE.share(7), 7);
        assert_eq!(Shard { index: 3, count: 4 }.share(2), 0);
    }

    #[test]
    fn content_hashes_ignore_where_a_puzzle_was_read() {
        let a: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let b: Grid = "1.3...1..4..2.4.".parse().unwrap();
        let c: Grid = "1.3...1..4..2.3.".parse().unwrap();
        assert_eq!(puzzle_hash(&a), puzzle_hash(&b));
        assert_ne!(puzzle_hash(&a), puzzle_hash(&c));
    }
}
