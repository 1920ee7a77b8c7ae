//! Runs reduced to per-solver statistics (as the literature reports them: solved / failed /
//! timed out, mean, median, variance, maximum, PAR-2 and the ten slowest puzzles),
//! optionally per clue count or size, a virtual best solver, and the aligned text tables
//! `sudosat compare` prints.
//!
//! A puzzle's time is the median `total_us` of its answered repeats (a checked solution,
//! or "no solution" that no entry contradicted: an unsolvable puzzle or an UNSAT formula
//! is an answer); puzzles with no answered repeat have no time (they show in the outcome
//! counts). The variance is the sample variance (n − 1) of the puzzle times. PAR-2
//! (penalised average runtime, the score of the SAT competitions) is the mean over puzzles
//! of the puzzle time, an unanswered puzzle counting twice the run's time limit; without a
//! limit it is not defined.
//!
//! A `stopped` run ([`Outcome::Stopped`]: an incomplete method that gave up, or a run in
//! flight when the comparison was stopped by a signal) is neither solved nor a time-out:
//! it has its own count, and a puzzle whose runs of an entry were all stopped is left out
//! of that entry's PAR-2 (it was not measured to an end), as a puzzle the entry never ran
//! is (shown `-`, not `stopped`, in the per-puzzle tables). The *virtual best solver* takes, for each puzzle, the fastest
//! entry that answered it. The ratios set each entry's total time against the first
//! entry's on the puzzles both answered.
//!
//! [`Analysis`] holds all of it, computed once per comparison; the table, the CSV/JSON
//! writers, the plots and the HTML report read it.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::{Comparison, GroupBy, Outcome, Run};
use crate::names::plural;

/// How many of the slowest puzzles a summary lists.
pub const SLOWEST: usize = 10;

/// The label of the virtual best solver's rows.
pub const VIRTUAL_BEST: &str = "virtual-best";

/// A slow puzzle of a summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlowPuzzle {
    /// 1-based index among all inputs.
    pub puzzle_index: usize,
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// Side n.
    pub size: usize,
    /// Givens.
    pub givens: usize,
    /// Median time of its answered repeats, µs.
    pub time_us: f64,
}

/// Statistics of one solver entry over all puzzles, or over one group of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The entry's label.
    pub solver: String,
    /// The clue count or size of the group (`None`: all puzzles).
    pub group: Option<usize>,
    /// Runs made.
    pub runs: usize,
    /// Runs with a checked solution.
    pub solved: usize,
    /// Runs that proved no solution.
    pub no_solution: usize,
    /// Runs of an incomplete method that stopped.
    pub stopped: usize,
    /// Runs that reached the time limit.
    pub timeout: usize,
    /// Runs that failed.
    pub failed: usize,
    /// Runs with a wrong answer.
    pub wrong: usize,
    /// Puzzles with a time (at least one solved repeat).
    pub timed_puzzles: usize,
    /// Mean puzzle time, µs.
    pub mean_us: Option<f64>,
    /// Median puzzle time, µs.
    pub median_us: Option<f64>,
    /// Sample variance of the puzzle times, µs².
    pub variance_us2: Option<f64>,
    /// Largest puzzle time, µs.
    pub max_us: Option<f64>,
    /// PAR-2 over the puzzles, µs: the mean puzzle time, an unanswered puzzle counting twice
    /// the time limit, a puzzle whose runs were all stopped left out (`None` without a
    /// limit, or when every puzzle was stopped).
    pub par2_us: Option<f64>,
    /// The [`SLOWEST`] slowest puzzles, slowest first.
    pub slowest: Vec<SlowPuzzle>,
}

impl Summary {
    /// The count of runs with this outcome.
    pub fn count(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Solved => self.solved,
            Outcome::NoSolution => self.no_solution,
            Outcome::Stopped => self.stopped,
            Outcome::Timeout => self.timeout,
            Outcome::Failed => self.failed,
            Outcome::Wrong => self.wrong,
        }
    }
}

/// The median of `values` (sorted in place); `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// Summarises the runs of one solver (and group); `limit_us` is the time limit PAR-2 uses.
fn summarize_runs(
    solver: &str,
    group: Option<usize>,
    runs: &[&Run],
    limit_us: Option<f64>,
) -> Summary {
    let count = |o: Outcome| runs.iter().filter(|r| r.outcome == o).count();
    let mut per_puzzle: BTreeMap<usize, (&Run, Vec<f64>)> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.outcome.is_answer()) {
        per_puzzle
            .entry(run.puzzle_index)
            .or_insert_with(|| (run, Vec::new()))
            .1
            .push(run.total_us);
    }
    let mut slow: Vec<SlowPuzzle> = per_puzzle
        .into_values()
        .filter_map(|(run, mut times)| {
            Some(SlowPuzzle {
                puzzle_index: run.puzzle_index,
                file: run.file.clone(),
                line: run.line,
                size: run.size,
                givens: run.givens,
                time_us: median(&mut times)?,
            })
        })
        .collect();
    let mut times: Vec<f64> = slow.iter().map(|p| p.time_us).collect();
    let n = times.len();
    // Stopped runs do not count: a puzzle with no other run is not in PAR-2.
    let mut puzzles: Vec<usize> = runs
        .iter()
        .filter(|r| r.outcome != Outcome::Stopped)
        .map(|r| r.puzzle_index)
        .collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    let par2 = limit_us.filter(|_| !puzzles.is_empty()).map(|limit| {
        let unsolved = puzzles.len() - n;
        (times.iter().sum::<f64>() + unsolved as f64 * 2.0 * limit) / puzzles.len() as f64
    });
    let mean = (n > 0).then(|| times.iter().sum::<f64>() / n as f64);
    let variance = mean.map(|m| {
        if n < 2 {
            0.0
        } else {
            times.iter().map(|t| (t - m) * (t - m)).sum::<f64>() / (n - 1) as f64
        }
    });
    slow.sort_by(|a, b| {
        b.time_us
            .total_cmp(&a.time_us)
            .then(a.puzzle_index.cmp(&b.puzzle_index))
    });
    slow.truncate(SLOWEST);
    Summary {
        solver: solver.to_string(),
        group,
        runs: runs.len(),
        solved: count(Outcome::Solved),
        no_solution: count(Outcome::NoSolution),
        stopped: count(Outcome::Stopped),
        timeout: count(Outcome::Timeout),
        failed: count(Outcome::Failed),
        wrong: count(Outcome::Wrong),
        timed_puzzles: n,
        mean_us: mean,
        median_us: median(&mut times),
        variance_us2: variance,
        max_us: slow.first().map(|p| p.time_us),
        par2_us: par2,
        slowest: slow,
    }
}

/// One summary per solver of `solvers` (in that order) over all its runs; with `by`, one
/// per solver and group instead, groups ascending. `limit_s` is the time limit of PAR-2.
pub fn summarize(
    runs: &[Run],
    solvers: &[String],
    by: Option<GroupBy>,
    limit_s: Option<f64>,
) -> Vec<Summary> {
    let limit_us = limit_s.map(|s| s * 1e6);
    let mut out = Vec::new();
    for solver in solvers {
        let mine: Vec<&Run> = runs.iter().filter(|r| &r.solver == solver).collect();
        match by {
            None => out.push(summarize_runs(solver, None, &mine, limit_us)),
            Some(by) => {
                let mut groups: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
                for run in mine {
                    groups.entry(by.key(run)).or_default().push(run);
                }
                out.extend(
                    groups
                        .into_iter()
                        .map(|(g, runs)| summarize_runs(solver, Some(g), &runs, limit_us)),
                );
            }
        }
    }
    out
}

/// The median time of each puzzle an entry solved, µs, by puzzle index.
pub type PuzzleTimes = BTreeMap<usize, f64>;

/// The puzzle times of `solver`: the median `total_us` of each puzzle's answered repeats.
pub fn puzzle_times(runs: &[Run], solver: &str) -> PuzzleTimes {
    let mut all: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for run in runs
        .iter()
        .filter(|r| r.solver == solver && r.outcome.is_answer())
    {
        all.entry(run.puzzle_index).or_default().push(run.total_us);
    }
    all.into_iter()
        .filter_map(|(i, mut times)| Some((i, median(&mut times)?)))
        .collect()
}

/// The rows of the virtual best solver, one per puzzle: the fastest solved time of any
/// entry (its puzzle time, the median of its repeats), or, when no entry solved the
/// puzzle, the outcome that says most (a time-out before a stop, a failure or a wrong
/// answer). Also returns, per puzzle solved, the label of the entry that was fastest.
/// `times` are the [`puzzle_times`] of `solvers`, in the same order.
pub fn virtual_best(
    runs: &[Run],
    solvers: &[String],
    times: &[PuzzleTimes],
) -> (Vec<Run>, BTreeMap<usize, String>) {
    let times: Vec<(&String, &PuzzleTimes)> = solvers.iter().zip(times).collect();
    let mut first: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
    for run in runs {
        first.entry(run.puzzle_index).or_default().push(run);
    }
    let mut best_by = BTreeMap::new();
    let rows = first
        .into_iter()
        .map(|(index, puzzle_runs)| {
            let mut row = puzzle_runs[0].clone();
            row.solver = VIRTUAL_BEST.to_string();
            (row.backend, row.encoding, row.repeat) = (None, None, 1);
            (row.vars, row.clauses, row.literals) = (None, None, None);
            (row.encode_us, row.decode_us) = (None, None);
            row.counters = Default::default();
            row.error = None;
            let best = times
                .iter()
                .filter_map(|(s, t)| Some((*s, *t.get(&index)?)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match best {
                Some((solver, us)) => {
                    best_by.insert(index, solver.clone());
                    row.outcome = puzzle_runs
                        .iter()
                        .find(|r| &r.solver == solver && r.outcome.is_answer())
                        .map_or(Outcome::Solved, |r| r.outcome);
                    row.checked = row.outcome == Outcome::Solved;
                    (row.solve_us, row.total_us) = (us, us);
                }
                None => {
                    let pick = [
                        Outcome::NoSolution,
                        Outcome::Timeout,
                        Outcome::Stopped,
                        Outcome::Failed,
                        Outcome::Wrong,
                    ];
                    row.outcome = pick
                        .into_iter()
                        .find(|o| puzzle_runs.iter().any(|r| r.outcome == *o))
                        .unwrap_or(Outcome::Failed);
                    row.checked = false;
                    let spent = puzzle_runs
                        .iter()
                        .map(|r| r.total_us)
                        .fold(f64::NAN, f64::min);
                    (row.solve_us, row.total_us) = (spent, spent);
                }
            }
            row
        })
        .collect();
    (rows, best_by)
}

/// Everything the outputs show of a comparison, computed once: the summaries of every
/// entry and of the virtual best solver (overall and per group), how often each entry was
/// the fastest, and the encoding sizes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The time limit PAR-2 uses, seconds (the run's `--timeout`; `None`: no PAR-2).
    pub par2_limit_s: Option<f64>,
    /// The grouping of the per-group summaries.
    pub group_by: Option<GroupBy>,
    /// One summary per entry, in report order.
    pub summary: Vec<Summary>,
    /// The virtual best solver over all puzzles.
    pub virtual_best: Summary,
    /// Per entry and group (empty without `group_by`).
    pub summary_by_group: Vec<Summary>,
    /// The virtual best solver per group (empty without `group_by`).
    pub virtual_best_by_group: Vec<Summary>,
    /// For each entry, the puzzles on which it was the fastest (the virtual best's pick).
    pub fastest_on: Vec<(String, usize)>,
    /// Mean sizes per encoding and grid size, of the puzzles' own formulas.
    pub encoding_sizes: Vec<EncodingSize>,
    /// Mean sizes of the formulas each entry solved, where reasoning on the grid changed
    /// them.
    pub solved_sizes: Vec<SolvedSize>,
    /// The puzzle times of each entry, in entry order (for the cactus and scatter plots).
    #[serde(skip)]
    pub puzzle_times: Vec<PuzzleTimes>,
    /// The puzzle times of the virtual best solver.
    #[serde(skip)]
    pub virtual_best_times: PuzzleTimes,
    /// What one instance is ([`Comparison::instance`]): `puzzle` or `formula`.
    pub instance: &'static str,
    /// Each other entry's time against the first entry's, on the instances both answered.
    pub ratios: Vec<Ratio>,
    /// One row per instance: where it is, its size and each entry's result, the instance
    /// table of a solver paper.
    pub per_instance: Vec<InstanceRow>,
    /// What each entry's time measures, in entry order.
    pub measured: Vec<Measured>,
}

/// What an entry's time measures: the work inside this process, or a solver process with
/// its file traffic. An embedded backend and an external one are timed on the same clock,
/// from the puzzle to the checked answer, but not on the same work.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measured {
    /// The entry's label.
    pub solver: String,
    /// What its time covers.
    pub measured: &'static str,
}

/// What a run's time covers, told by its backend label (none: a classic solver).
pub fn measured(backend: Option<&str>, on_formulas: bool) -> &'static str {
    let process = backend.is_some_and(|label| {
        let name = label.split(':').next().unwrap_or(label).trim();
        crate::backend::BackendKind::from_name(name).is_some_and(|kind| !kind.is_embedded())
    });
    match (backend, process, on_formulas) {
        (None, _, _) => "in process: the whole solve on the grid",
        (Some(_), false, false) => {
            "in process: encoding, loading into the solver, solving, decoding and checking"
        }
        (Some(_), false, true) => "in process: loading into the solver, solving, checking",
        (Some(_), true, false) => {
            "encoding, then a solver process: its CNF file written, the process run, its \
             answer parsed; decoding and checking"
        }
        (Some(_), true, true) => {
            "a solver process: its CNF file written, the process run, its answer parsed; \
             checking"
        }
    }
}

/// The most instances whose rows the text summary and the report list one by one; beyond,
/// the CSV and JSON have them.
pub const PER_INSTANCE_SHOWN: usize = 100;

/// One instance's row of the per-instance table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceRow {
    /// The file of the puzzle or formula.
    pub file: String,
    /// The puzzle's line in it (1 for a formula).
    pub line: usize,
    /// The puzzle's side (0 for a formula).
    pub size: usize,
    /// The puzzle's givens (0 for a formula).
    pub givens: usize,
    /// A formula's variables (`None` for a puzzle: each encoding has its own).
    pub vars: Option<usize>,
    /// A formula's clauses.
    pub clauses: Option<usize>,
    /// A formula's literals.
    pub literals: Option<usize>,
    /// Each entry's result, in entry order.
    pub results: Vec<InstanceResult>,
}

impl InstanceRow {
    /// The names of the columns before the entries': where the instance is and its size.
    pub fn head(formulas: bool) -> [&'static str; 3] {
        if formulas {
            ["formula", "vars", "clauses"]
        } else {
            ["puzzle", "size", "givens"]
        }
    }

    /// The cells under [`head`](Self::head), the file named by `file`.
    pub fn place(&self, formulas: bool, file: &str) -> [String; 3] {
        let count = |n: Option<usize>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        if formulas {
            [file.to_string(), count(self.vars), count(self.clauses)]
        } else {
            [
                format!("{file}:{}", self.line),
                self.size.to_string(),
                self.givens.to_string(),
            ]
        }
    }
}

/// One entry's result on one instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceResult {
    /// The entry.
    pub solver: String,
    /// `solved` or `no_solution` when a repeat answered, else the most telling way its
    /// runs ended (wrong before failed before a time-out before a stop); `None` when the
    /// entry never ran on it (a comparison stopped by Ctrl-C).
    pub outcome: Option<Outcome>,
    /// The median time of its answered repeats, µs (`None`: none answered).
    pub time_us: Option<f64>,
}

impl InstanceResult {
    /// The table cell: the time in ms, or the outcome (`-`: not run).
    pub fn cell(&self) -> String {
        match (self.time_us, self.outcome) {
            (Some(us), _) => format!("{:.3}", us / 1e3),
            (None, Some(outcome)) => outcome.to_string(),
            (None, None) => "-".to_string(),
        }
    }
}

/// The rows of the per-instance table; `times` are the [`puzzle_times`] of `solvers`.
fn per_instance(runs: &[Run], solvers: &[String], times: &[PuzzleTimes]) -> Vec<InstanceRow> {
    let mut by_instance: BTreeMap<usize, Vec<&Run>> = BTreeMap::new();
    for run in runs {
        by_instance.entry(run.puzzle_index).or_default().push(run);
    }
    by_instance
        .into_iter()
        .map(|(index, instance_runs)| {
            let first = instance_runs[0];
            // A formula's size is the formula's; a puzzle's differs from encoding to encoding.
            let sized = instance_runs
                .iter()
                .find(|r| r.size == 0 && r.vars.is_some());
            let results = solvers
                .iter()
                .zip(times)
                .map(|(solver, times)| {
                    let own = || instance_runs.iter().filter(|r| &r.solver == solver);
                    let time_us = times.get(&index).copied();
                    let telling = [
                        Outcome::Solved,
                        Outcome::NoSolution,
                        Outcome::Wrong,
                        Outcome::Failed,
                        Outcome::Timeout,
                        Outcome::Stopped,
                    ];
                    let outcome = telling
                        .into_iter()
                        .filter(|o| time_us.is_some() == o.is_answer())
                        .find(|o| own().any(|r| r.outcome == *o));
                    InstanceResult {
                        solver: solver.clone(),
                        outcome,
                        time_us,
                    }
                })
                .collect();
            InstanceRow {
                file: first.file.clone(),
                line: first.line,
                size: first.size,
                givens: first.givens,
                vars: sized.and_then(|r| r.vars),
                clauses: sized.and_then(|r| r.clauses),
                literals: sized.and_then(|r| r.literals),
                results,
            }
        })
        .collect()
}

/// One entry's time against a reference entry's, over the instances both answered (each
/// instance's time the median of its answered repeats): the ratio of a benchmark table,
/// measured in one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// The entry.
    pub solver: String,
    /// The reference entry (the first one).
    pub reference: String,
    /// Instances both answered.
    pub common: usize,
    /// The entry's total time over them, µs.
    pub total_us: f64,
    /// The reference's total time over them, µs.
    pub reference_us: f64,
}

impl Ratio {
    /// The entry's time over the reference's: below 1 the entry was faster. `None` when
    /// the reference took no measurable time (or nothing was solved by both).
    pub fn ratio(&self) -> Option<f64> {
        (self.reference_us > 0.0).then(|| self.total_us / self.reference_us)
    }
}

/// [`Ratio`]s of every entry after the first against the first, from their puzzle times.
fn ratios(solvers: &[String], times: &[PuzzleTimes]) -> Vec<Ratio> {
    let (Some(reference), Some(reference_times)) = (solvers.first(), times.first()) else {
        return Vec::new();
    };
    solvers
        .iter()
        .zip(times)
        .skip(1)
        .map(|(solver, entry_times)| {
            let (mut total_us, mut reference_us, mut common) = (0.0, 0.0, 0);
            for (index, time) in entry_times {
                if let Some(reference_time) = reference_times.get(index) {
                    total_us += time;
                    reference_us += reference_time;
                    common += 1;
                }
            }
            Ratio {
                solver: solver.clone(),
                reference: reference.clone(),
                common,
                total_us,
                reference_us,
            }
        })
        .collect()
}

impl Analysis {
    /// Analyses `comparison`, with per-group summaries when `by` is set.
    pub fn new(comparison: &Comparison, by: Option<GroupBy>) -> Analysis {
        let limit = comparison.timeout_s;
        let runs = &comparison.runs;
        let solvers = &comparison.solvers;
        let times: Vec<PuzzleTimes> = solvers.iter().map(|s| puzzle_times(runs, s)).collect();
        let (vbs_runs, best_by) = virtual_best(runs, solvers, &times);
        let vbs = [VIRTUAL_BEST.to_string()];
        let fastest_on = solvers
            .iter()
            .map(|s| (s.clone(), best_by.values().filter(|b| *b == s).count()))
            .collect();
        Analysis {
            par2_limit_s: limit,
            group_by: by,
            summary: summarize(runs, solvers, None, limit),
            virtual_best: summarize(&vbs_runs, &vbs, None, limit).remove(0),
            summary_by_group: by
                .map_or_else(Vec::new, |by| summarize(runs, solvers, Some(by), limit)),
            virtual_best_by_group: by
                .map_or_else(Vec::new, |by| summarize(&vbs_runs, &vbs, Some(by), limit)),
            fastest_on,
            encoding_sizes: encoding_sizes(runs),
            solved_sizes: solved_sizes(runs, solvers),
            ratios: ratios(solvers, &times),
            per_instance: per_instance(runs, solvers, &times),
            puzzle_times: times,
            virtual_best_times: puzzle_times(&vbs_runs, VIRTUAL_BEST),
            instance: comparison.instance(),
            measured: solvers
                .iter()
                .map(|solver| Measured {
                    solver: solver.clone(),
                    measured: measured(
                        runs.iter()
                            .find(|r| &r.solver == solver)
                            .and_then(|r| r.backend.as_deref()),
                        comparison.on_formulas(),
                    ),
                })
                .collect(),
        }
    }

    /// Whether the runs were on DIMACS formulas ([`Comparison::on_formulas`]).
    pub fn on_formulas(&self) -> bool {
        self.instance == super::FORMULA
    }

    /// What PAR-2 means here, for titles and captions.
    pub fn par2_note(&self) -> String {
        match self.par2_limit_s {
            Some(limit) => format!(
                "PAR-2: mean time per {0}, an unanswered {0} counting 2 × the {1} s limit \
                 (stopped runs left out)",
                self.instance,
                seconds(limit)
            ),
            None => "PAR-2: not defined, the runs had no time limit (--timeout)".to_string(),
        }
    }
}

/// Seconds without trailing zeros: `10`, `0.5`.
pub fn seconds(s: f64) -> String {
    let text = format!("{s:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The mean size of one encoding over the puzzles of one grid size it encoded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EncodingSize {
    /// The encoding's name.
    pub encoding: String,
    /// Side n of the grids.
    pub size: usize,
    /// Puzzles it encoded.
    pub puzzles: usize,
    /// Mean variables.
    pub vars: f64,
    /// Mean clauses.
    pub clauses: f64,
    /// Mean literal occurrences.
    pub literals: f64,
}

/// The mean size of the formula one entry solved over the puzzles of one grid size, beside
/// that of the puzzles' own formulas under its encoding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolvedSize {
    /// The entry's label.
    pub solver: String,
    /// Side n of the grids.
    pub size: usize,
    /// Puzzles it solved a formula of.
    pub puzzles: usize,
    /// Mean clauses of the formulas it solved.
    pub clauses: f64,
    /// Mean literal occurrences of the formulas it solved.
    pub literals: f64,
    /// Mean clauses of the puzzles' own formulas.
    pub puzzle_clauses: f64,
    /// Mean literal occurrences of the puzzles' own formulas.
    pub puzzle_literals: f64,
}

/// Mean sizes of the formulas each of `solvers` solved and of the puzzles' own, per grid
/// size, each puzzle once: only for the entries whose reasoning on the grid (`--root`)
/// changed some formula.
pub fn solved_sizes(runs: &[Run], solvers: &[String]) -> Vec<SolvedSize> {
    let mut out = Vec::new();
    for solver in solvers {
        let mut seen: BTreeMap<(usize, usize), [usize; 4]> = BTreeMap::new();
        for run in runs.iter().filter(|r| &r.solver == solver) {
            let sizes = (
                run.clauses,
                run.literals,
                run.puzzle_clauses,
                run.puzzle_literals,
            );
            if let (Some(c), Some(l), Some(pc), Some(pl)) = sizes {
                seen.entry((run.size, run.puzzle_index))
                    .or_insert([c, l, pc, pl]);
            }
        }
        if seen.values().all(|s| s[0] == s[2] && s[1] == s[3]) {
            continue;
        }
        let mut sizes: Vec<usize> = seen.keys().map(|k| k.0).collect();
        sizes.dedup();
        for size in sizes {
            let picked: Vec<[usize; 4]> = seen
                .iter()
                .filter(|((n, _), _)| *n == size)
                .map(|(_, s)| *s)
                .collect();
            let mean =
                |i: usize| picked.iter().map(|s| s[i] as f64).sum::<f64>() / picked.len() as f64;
            out.push(SolvedSize {
                solver: solver.clone(),
                size,
                puzzles: picked.len(),
                clauses: mean(0),
                literals: mean(1),
                puzzle_clauses: mean(2),
                puzzle_literals: mean(3),
            });
        }
    }
    out
}

/// Mean variables, clauses and literals of each encoding for each grid size in the runs,
/// each puzzle counted once per encoding (whatever the backend and repeat): sizes
/// ascending, encodings in order of first appearance. The sizes are those of the puzzles'
/// own formulas, before reasoning on the grid.
pub fn encoding_sizes(runs: &[Run]) -> Vec<EncodingSize> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: BTreeMap<(usize, String, usize), [usize; 3]> = BTreeMap::new();
    for run in runs {
        let sizes = (
            &run.encoding,
            run.puzzle_vars.or(run.vars),
            run.puzzle_clauses.or(run.clauses),
            run.puzzle_literals.or(run.literals),
        );
        let (Some(encoding), Some(vars), Some(clauses), Some(literals)) = sizes else {
            continue;
        };
        if !order.contains(encoding) {
            order.push(encoding.clone());
        }
        seen.entry((run.size, encoding.clone(), run.puzzle_index))
            .or_insert([vars, clauses, literals]);
    }
    let mut sizes: Vec<usize> = seen.keys().map(|k| k.0).collect();
    sizes.dedup();
    let mut out = Vec::new();
    for size in sizes {
        for encoding in &order {
            let picked: Vec<[usize; 3]> = seen
                .iter()
                .filter(|((n, e, _), _)| *n == size && e == encoding)
                .map(|(_, s)| *s)
                .collect();
            if picked.is_empty() {
                continue;
            }
            let mean =
                |i: usize| picked.iter().map(|s| s[i] as f64).sum::<f64>() / picked.len() as f64;
            out.push(EncodingSize {
                encoding: encoding.clone(),
                size,
                puzzles: picked.len(),
                vars: mean(0),
                clauses: mean(1),
                literals: mean(2),
            });
        }
    }
    out
}

/// The last component of a path, to keep the slowest-puzzle lists short.
fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

fn ms(us: Option<f64>) -> String {
    us.map_or_else(|| "-".to_string(), |us| format!("{:.3}", us / 1e3))
}

fn ms2(us2: Option<f64>) -> String {
    us2.map_or_else(|| "-".to_string(), |v| format!("{:.3}", v / 1e6))
}

/// How [`write_table`] lays out its tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableStyle {
    /// Aligned plain-text columns.
    #[default]
    Text,
    /// Markdown (GitHub) tables and lists, for BENCHMARKS.md.
    Markdown,
}

impl TableStyle {
    /// A section title, with the blank line a Markdown table needs after it.
    fn title(self, w: &mut dyn Write, title: &str) -> io::Result<()> {
        writeln!(w, "{title}")?;
        if self == TableStyle::Markdown {
            writeln!(w)?;
        }
        Ok(())
    }

    /// The start of a list item.
    fn bullet(self) -> &'static str {
        match self {
            TableStyle::Text => "  ",
            TableStyle::Markdown => "- ",
        }
    }
}

/// Writes a Markdown table: a header row, the alignment row (first column left, the others
/// right), the rows; `|` in a cell is escaped.
fn write_markdown(w: &mut dyn Write, rows: &[Vec<String>]) -> io::Result<()> {
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        writeln!(w, "| {} |", cells.join(" | "))?;
        if i == 0 {
            let align: Vec<&str> = (0..row.len())
                .map(|c| if c == 0 { "---" } else { "---:" })
                .collect();
            writeln!(w, "|{}|", align.join("|"))?;
        }
    }
    Ok(())
}

/// Writes rows of cells as columns: the first left-aligned, the others right-aligned.
fn write_columns(w: &mut dyn Write, rows: &[Vec<String>], style: TableStyle) -> io::Result<()> {
    if style == TableStyle::Markdown {
        return write_markdown(w, rows);
    }
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len))
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, (cell, &width)) in row.iter().zip(&widths).enumerate() {
            // Padded by hand: `format!`'s width stops at 65,535, and a label read from a
            // saved CSV can be longer.
            let fill = " ".repeat(width.saturating_sub(cell.chars().count()));
            if c == 0 {
                line.push_str(cell);
                line.push_str(&fill);
            } else {
                line.push_str("  ");
                line.push_str(&fill);
                line.push_str(cell);
            }
        }
        writeln!(w, "{}", line.trim_end())?;
    }
    Ok(())
}

/// `3 puzzles × 2 entries × 1 repeat`: what a full comparison runs, counted.
pub fn runs_planned(comparison: &Comparison) -> String {
    format!(
        "{} × {} × {}",
        plural(comparison.puzzles, comparison.instance()),
        plural(comparison.solvers.len(), "entry"),
        plural(comparison.repeat, "repeat")
    )
}

/// What the header says of the entries whose solves take several threads
/// ([`Comparison::threaded`]): they ran one solve at a time, on their threads, whatever
/// `--jobs` says. `None` when there are none.
pub fn threaded_note(comparison: &Comparison) -> Option<String> {
    if comparison.threaded.is_empty() {
        return None;
    }
    let entries: Vec<String> = comparison
        .threaded
        .iter()
        .map(|t| format!("{} on {} threads", t.entry, t.threads))
        .collect();
    Some(format!(
        "one solve at a time, whatever --jobs, for {}",
        entries.join(", ")
    ))
}

/// The header line of a comparison: what ran, how (sequential or parallel), the limits,
/// and whether it was interrupted.
pub fn header(comparison: &Comparison) -> String {
    let made = comparison.runs.len();
    let planned = comparison.puzzles * comparison.solvers.len() * comparison.repeat;
    let instance = comparison.instance();
    let mut text = format!(
        "sudosat compare: {} = {planned} runs; ",
        runs_planned(comparison)
    );
    if comparison.parallel {
        text.push_str(&format!(
            "parallel: {instance}s on {} threads (--jobs), each solve timed on one thread",
            comparison.jobs
        ));
    } else {
        text.push_str("sequential: one solve at a time on one thread");
    }
    if let Some(note) = threaded_note(comparison) {
        text.push_str("; ");
        text.push_str(&note);
    }
    match comparison.timeout_s {
        Some(t) => text.push_str(&format!("; time limit {t} s per solve")),
        None => text.push_str("; no time limit"),
    }
    if comparison.interrupted {
        let stopped = comparison
            .runs
            .iter()
            .filter(|r| r.error.as_deref() == Some(super::STOPPED_BY_INTERRUPT))
            .count();
        text.push_str(&format!(
            "\ninterrupted: {made} of {planned} runs made ({stopped} stopped in flight); \
             the figures cover those"
        ));
    }
    text
}

/// The column headers of a summary table (`by`: with the group column).
pub fn summary_head(by: Option<GroupBy>) -> Vec<String> {
    let mut head: Vec<String> = vec!["solver".to_string()];
    if let Some(by) = by {
        head.push(by.name().to_string());
    }
    head.push("runs".to_string());
    head.extend(Outcome::ALL.iter().map(|o| o.name().to_string()));
    head.extend(
        ["mean_ms", "median_ms", "var_ms2", "max_ms", "par2_ms"]
            .iter()
            .map(|s| s.to_string()),
    );
    head
}

/// A summary as the cells of a table row under [`summary_head`]; times in ms, `-` for none.
pub fn summary_cells(s: &Summary, by: Option<GroupBy>) -> Vec<String> {
    let mut row = vec![s.solver.clone()];
    if by.is_some() {
        row.push(s.group.map_or_else(String::new, |g| g.to_string()));
    }
    row.push(s.runs.to_string());
    row.extend(Outcome::ALL.iter().map(|&o| s.count(o).to_string()));
    row.extend([
        ms(s.mean_us),
        ms(s.median_us),
        ms2(s.variance_us2),
        ms(s.max_us),
        ms(s.par2_us),
    ]);
    row
}

/// Writes one summary table: a row per summary, with the group column when `by` is set.
fn write_summaries(
    w: &mut dyn Write,
    summaries: &[&Summary],
    by: Option<GroupBy>,
    style: TableStyle,
) -> io::Result<()> {
    let mut rows = vec![summary_head(by)];
    rows.extend(summaries.iter().map(|s| summary_cells(s, by)));
    write_columns(w, &rows, style)
}

/// The per-instance table: where each puzzle or formula is, its size, and each entry's
/// time (or how its runs ended), up to [`PER_INSTANCE_SHOWN`] rows.
fn write_per_instance(w: &mut dyn Write, analysis: &Analysis, style: TableStyle) -> io::Result<()> {
    let rows = &analysis.per_instance;
    let instance = analysis.instance;
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(w)?;
    if rows.len() > PER_INSTANCE_SHOWN {
        return writeln!(
            w,
            "per {instance}: {} {instance}s, more than the {PER_INSTANCE_SHOWN} listed here; \
             the CSV and JSON have each run",
            rows.len()
        );
    }
    style.title(
        w,
        &format!("per {instance} (median ms of the answered repeats; else how the runs ended):"),
    )?;
    let formulas = analysis.on_formulas();
    let mut head: Vec<String> = InstanceRow::head(formulas).map(str::to_string).to_vec();
    head.extend(analysis.summary.iter().map(|s| s.solver.clone()));
    let mut table = vec![head];
    for row in rows {
        let mut cells = row.place(formulas, file_name(&row.file)).to_vec();
        cells.extend(row.results.iter().map(InstanceResult::cell));
        table.push(cells);
    }
    write_columns(w, &table, style)
}

/// Writes the report: header, the summary table (one row per solver and the virtual best
/// solver), with a grouping the same per solver and group, the mean encoding sizes, each
/// solver's slowest puzzles and the first failure or wrong answer of each solver. Times
/// in ms.
///
/// # Errors
/// Any write error.
pub fn write_table(
    w: &mut dyn Write,
    comparison: &Comparison,
    analysis: &Analysis,
    style: TableStyle,
) -> io::Result<()> {
    writeln!(w, "{}", header(comparison))?;
    writeln!(w, "{}", analysis.par2_note())?;
    writeln!(w)?;
    let mut overall: Vec<&Summary> = analysis.summary.iter().collect();
    overall.push(&analysis.virtual_best);
    write_summaries(w, &overall, None, style)?;
    if let Some(by) = analysis.group_by {
        writeln!(w)?;
        style.title(w, &format!("by {}:", by.name()))?;
        let grouped: Vec<&Summary> = analysis
            .summary_by_group
            .iter()
            .chain(&analysis.virtual_best_by_group)
            .collect();
        write_summaries(w, &grouped, Some(by), style)?;
    }

    if !analysis.measured.is_empty() {
        writeln!(w)?;
        style.title(w, "what each entry's time measures:")?;
        let mut rows = vec![["solver", "measured"].map(str::to_string).to_vec()];
        for m in &analysis.measured {
            rows.push(vec![m.solver.clone(), m.measured.to_string()]);
        }
        write_columns(w, &rows, style)?;
    }

    let sizes = &analysis.encoding_sizes;
    if !sizes.is_empty() {
        writeln!(w)?;
        style.title(w, "encoding sizes (mean per puzzle):")?;
        let mut rows = vec![
            ["encoding", "size", "puzzles", "vars", "clauses", "literals"]
                .map(str::to_string)
                .to_vec(),
        ];
        for s in sizes {
            rows.push(vec![
                s.encoding.clone(),
                s.size.to_string(),
                s.puzzles.to_string(),
                format!("{:.0}", s.vars),
                format!("{:.0}", s.clauses),
                format!("{:.0}", s.literals),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    let solved = &analysis.solved_sizes;
    if !solved.is_empty() {
        writeln!(w)?;
        style.title(
            w,
            "formulas solved after reasoning on the grid (mean per puzzle; the puzzle's own beside):",
        )?;
        let mut rows = vec![[
            "solver",
            "size",
            "puzzles",
            "clauses",
            "puzzle's clauses",
            "literals",
            "puzzle's literals",
        ]
        .map(str::to_string)
        .to_vec()];
        for s in solved {
            rows.push(vec![
                s.solver.clone(),
                s.size.to_string(),
                s.puzzles.to_string(),
                format!("{:.0}", s.clauses),
                format!("{:.0}", s.puzzle_clauses),
                format!("{:.0}", s.literals),
                format!("{:.0}", s.puzzle_literals),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    let instance = analysis.instance;
    let ratios: Vec<&Ratio> = analysis.ratios.iter().filter(|r| r.common > 0).collect();
    if let Some(first) = ratios.first() {
        writeln!(w)?;
        style.title(
            w,
            &format!(
                "time against {} on the {instance}s both answered (total of each {instance}'s \
                 median; below 1 = faster):",
                first.reference
            ),
        )?;
        let mut rows = vec![["solver", "common", "total_ms", "reference_ms", "ratio"]
            .map(str::to_string)
            .to_vec()];
        for r in &ratios {
            rows.push(vec![
                r.solver.clone(),
                r.common.to_string(),
                ms(Some(r.total_us)),
                ms(Some(r.reference_us)),
                r.ratio()
                    .map_or_else(|| "-".to_string(), |x| format!("{x:.3}")),
            ]);
        }
        write_columns(w, &rows, style)?;
    }

    write_per_instance(w, analysis, style)?;

    writeln!(w)?;
    style.title(
        w,
        &format!(
            "slowest {instance}s per solver (median of answered repeats, ms; full paths in \
             CSV/JSON):"
        ),
    )?;
    let on_formulas = comparison.on_formulas();
    for s in &overall {
        let list: Vec<String> = s
            .slowest
            .iter()
            .map(|p| match on_formulas {
                // One formula a file: the line says nothing.
                true => format!("{} {}", ms(Some(p.time_us)), file_name(&p.file)),
                false => format!("{} {}:{}", ms(Some(p.time_us)), file_name(&p.file), p.line),
            })
            .collect();
        let list = if list.is_empty() {
            "(none solved)".to_string()
        } else {
            list.join(", ")
        };
        writeln!(w, "{}{}: {list}", style.bullet(), s.solver)?;
    }
    let errors: Vec<&Run> = comparison
        .runs
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Failed | Outcome::Wrong))
        .collect();
    if !errors.is_empty() {
        writeln!(w)?;
        style.title(w, "failures and wrong answers (first of each solver):")?;
        for solver in &comparison.solvers {
            if let Some(r) = errors.iter().find(|r| &r.solver == solver) {
                writeln!(
                    w,
                    "{}{solver}: {} at {}:{}: {}",
                    style.bullet(),
                    r.outcome,
                    r.file,
                    r.line,
                    r.error.as_deref().unwrap_or("")
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Counters;

    fn run(index: usize, solver: &str, givens: usize, outcome: Outcome, us: f64) -> Run {
        Run {
            file: "data/f".to_string(),
            line: index,
            puzzle_index: index,
            size: 9,
            givens,
            solver: solver.to_string(),
            backend: None,
            encoding: None,
            repeat: 1,
            outcome,
            checked: outcome == Outcome::Solved,
            vars: None,
            clauses: None,
            literals: None,
            puzzle_vars: None,
            puzzle_clauses: None,
            puzzle_literals: None,
            encode_us: None,
            solve_us: us,
            decode_us: None,
            total_us: us,
            counters: Counters::default(),
            error: None,
        }
    }

    /// A comparison made one solve at a time, one repeat each, not interrupted.
    fn sequential(
        puzzles: usize,
        solvers: &[&str],
        timeout_s: Option<f64>,
        runs: Vec<Run>,
    ) -> Comparison {
        Comparison {
            puzzles,
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            repeat: 1,
            timeout_s,
            jobs: 1,
            parallel: false,
            interrupted: false,
            threaded: Vec::new(),
            runs,
        }
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        let one = sequential(1, &["a"], None, Vec::new());
        assert_eq!(runs_planned(&one), "1 puzzle × 1 entry × 1 repeat");
        let mut two = sequential(2, &["a", "b"], None, Vec::new());
        two.repeat = 3;
        assert_eq!(runs_planned(&two), "2 puzzles × 2 entries × 3 repeats");
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }

    #[test]
    fn statistics_over_puzzle_times() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(2, "a", 17, Outcome::Solved, 200.0),
            run(3, "a", 20, Outcome::Solved, 600.0),
            run(4, "a", 20, Outcome::Timeout, 9000.0),
            run(5, "a", 20, Outcome::Failed, 0.0),
            run(1, "b", 17, Outcome::Stopped, 50.0),
        ];
        let solvers = ["a".to_string(), "b".to_string()];
        let all = summarize(&runs, &solvers, None, Some(0.01));
        assert_eq!(all.len(), 2);
        let a = &all[0];
        assert_eq!((a.runs, a.solved, a.timeout, a.failed), (5, 3, 1, 1));
        assert_eq!(a.mean_us, Some(300.0));
        assert_eq!(a.median_us, Some(200.0));
        // Sample variance of 100, 200, 600: (200² + 100² + 300²) / 2.
        assert_eq!(a.variance_us2, Some(70_000.0));
        assert_eq!(a.max_us, Some(600.0));
        let order: Vec<usize> = a.slowest.iter().map(|p| p.puzzle_index).collect();
        assert_eq!(order, [3, 2, 1]);
        // PAR-2 with a 10 ms limit: 100 + 200 + 600 + 2 × 20,000 (twice) over 5 puzzles.
        assert_eq!(a.par2_us, Some((900.0 + 4.0 * 10_000.0) / 5.0));
        let b = &all[1];
        assert_eq!((b.stopped, b.timed_puzzles, b.mean_us), (1, 0, None));
        // Its one run was stopped: no puzzle to score.
        assert_eq!(b.par2_us, None);
        assert_eq!(summarize(&runs, &solvers, None, None)[0].par2_us, None);

        let grouped = summarize(&runs, &solvers, Some(GroupBy::Clues), None);
        let keys: Vec<(&str, Option<usize>, usize)> = grouped
            .iter()
            .map(|s| (s.solver.as_str(), s.group, s.runs))
            .collect();
        assert_eq!(
            keys,
            [("a", Some(17), 2), ("a", Some(20), 3), ("b", Some(17), 1)]
        );
        assert_eq!(grouped[1].median_us, Some(600.0));
    }

    #[test]
    fn stopped_runs_are_neither_solved_nor_time_outs_and_stay_out_of_par2() {
        let mut repeat_2 = run(4, "a", 17, Outcome::Solved, 300.0);
        repeat_2.repeat = 2;
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(2, "a", 17, Outcome::Stopped, 5.0),
            run(3, "a", 17, Outcome::Timeout, 10_000.0),
            run(4, "a", 17, Outcome::Stopped, 1.0),
            repeat_2,
        ];
        let a = &summarize(&runs, &["a".to_string()], None, Some(0.01))[0];
        assert_eq!(
            (a.runs, a.solved, a.stopped, a.timeout, a.timed_puzzles),
            (5, 2, 2, 1, 2)
        );
        // Puzzles 1 and 4 answered (100, 300 µs), 3 timed out (2 × 10 ms); 2, all its
        // runs stopped, is left out: three puzzles.
        assert_eq!(a.par2_us, Some((100.0 + 300.0 + 20_000.0) / 3.0));
        assert_eq!(a.median_us, Some(200.0));
    }

    #[test]
    fn the_virtual_best_takes_the_fastest_entry_per_puzzle() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(1, "b", 17, Outcome::Solved, 40.0),
            run(2, "a", 20, Outcome::Solved, 300.0),
            run(2, "b", 20, Outcome::Timeout, 9000.0),
            run(3, "a", 20, Outcome::Timeout, 9000.0),
            run(3, "b", 20, Outcome::Failed, 1.0),
            run(4, "a", 20, Outcome::Wrong, 5.0),
            run(4, "b", 20, Outcome::Solved, 70.0),
        ];
        let comparison = sequential(4, &["a", "b"], Some(0.001), runs);
        let analysis = Analysis::new(&comparison, Some(GroupBy::Clues));
        let vbs = &analysis.virtual_best;
        assert_eq!((vbs.solver.as_str(), vbs.runs), (VIRTUAL_BEST, 4));
        assert_eq!((vbs.solved, vbs.timeout), (3, 1));
        assert_eq!(vbs.mean_us, Some((40.0 + 300.0 + 70.0) / 3.0));
        assert_eq!(vbs.par2_us, Some((40.0 + 300.0 + 70.0 + 2000.0) / 4.0));
        assert_eq!(
            analysis.fastest_on,
            [("a".to_string(), 1), ("b".to_string(), 2)]
        );
        let groups: Vec<(Option<usize>, usize)> = analysis
            .virtual_best_by_group
            .iter()
            .map(|s| (s.group, s.solved))
            .collect();
        assert_eq!(groups, [(Some(17), 1), (Some(20), 2)]);
        assert_eq!(analysis.puzzle_times[1].len(), 2);
        assert_eq!(analysis.virtual_best_times.get(&1), Some(&40.0));
    }

    #[test]
    fn no_solution_is_an_answer_and_ratios_cover_what_both_answered() {
        // Puzzle 2 has no solution and both entries say so; c answers only puzzle 1.
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 100.0),
            run(1, "b", 17, Outcome::Solved, 50.0),
            run(1, "c", 17, Outcome::Solved, 400.0),
            run(2, "a", 17, Outcome::NoSolution, 300.0),
            run(2, "b", 17, Outcome::NoSolution, 900.0),
            run(2, "c", 17, Outcome::Timeout, 5000.0),
        ];
        let comparison = sequential(2, &["a", "b", "c"], Some(0.002), runs);
        let analysis = Analysis::new(&comparison, None);
        let b = &analysis.summary[1];
        assert_eq!((b.solved, b.no_solution, b.timed_puzzles), (1, 1, 2));
        assert_eq!(b.par2_us, Some((50.0 + 900.0) / 2.0));
        let c = &analysis.summary[2];
        assert_eq!(c.par2_us, Some((400.0 + 4000.0) / 2.0));
        let vbs = &analysis.virtual_best;
        assert_eq!((vbs.solved, vbs.no_solution), (1, 1));
        assert_eq!(vbs.mean_us, Some((50.0 + 300.0) / 2.0));
        let ratios: Vec<(&str, usize, f64, f64)> = analysis
            .ratios
            .iter()
            .map(|r| (r.solver.as_str(), r.common, r.total_us, r.reference_us))
            .collect();
        assert_eq!(ratios, [("b", 2, 950.0, 400.0), ("c", 1, 400.0, 100.0)]);
        assert_eq!(analysis.ratios[1].ratio(), Some(4.0));
        assert_eq!(analysis.instance, "puzzle");
        let mut table = Vec::new();
        write_table(&mut table, &comparison, &analysis, TableStyle::Text).unwrap();
        let table = String::from_utf8(table).unwrap();
        assert!(
            table.contains("time against a on the puzzles both answered"),
            "{table}"
        );
        let c_row: Vec<&str> = table
            .lines()
            .skip_while(|l| !l.starts_with("time against"))
            .find(|l| l.starts_with("c "))
            .expect("a ratio row for c")
            .split_whitespace()
            .collect();
        assert_eq!(c_row, ["c", "1", "0.400", "0.100", "4.000"], "{table}");
    }

    #[test]
    fn formulas_get_a_row_each_with_every_entrys_result() {
        // A formula run: one file, no grid (size 0), the formula's own size.
        let formula = |index: usize, solver: &str, outcome: Outcome, us: f64| Run {
            file: format!("dir/f{index}.cnf"),
            line: 1,
            size: 0,
            vars: Some(10 * index),
            clauses: Some(40 * index),
            literals: Some(100 * index),
            puzzle_vars: Some(10 * index),
            puzzle_clauses: Some(40 * index),
            puzzle_literals: Some(100 * index),
            ..run(index, solver, 0, outcome, us)
        };
        let runs = vec![
            formula(1, "a", Outcome::Solved, 100.0),
            formula(1, "a", Outcome::Solved, 300.0),
            formula(1, "b", Outcome::Wrong, 10.0),
            formula(2, "a", Outcome::Timeout, 1e6),
            formula(2, "b", Outcome::NoSolution, 50.0),
            formula(3, "a", Outcome::Stopped, 5.0),
            formula(3, "a", Outcome::Timeout, 1e6),
            formula(3, "b", Outcome::Failed, 5.0),
        ];
        let comparison = sequential(3, &["a", "b"], Some(1.0), runs);
        let analysis = Analysis::new(&comparison, None);
        type Results = Vec<(Outcome, Option<f64>)>;
        let results: Vec<(&str, Option<usize>, Results)> = analysis
            .per_instance
            .iter()
            .map(|row| {
                let results = row
                    .results
                    .iter()
                    .map(|r| (r.outcome.expect("each entry ran"), r.time_us))
                    .collect();
                (row.file.as_str(), row.clauses, results)
            })
            .collect();
        use Outcome::*;
        assert_eq!(
            results,
            [
                (
                    "dir/f1.cnf",
                    Some(40),
                    vec![(Solved, Some(200.0)), (Wrong, None)]
                ),
                (
                    "dir/f2.cnf",
                    Some(80),
                    vec![(Timeout, None), (NoSolution, Some(50.0))]
                ),
                (
                    "dir/f3.cnf",
                    Some(120),
                    vec![(Timeout, None), (Failed, None)]
                ),
            ]
        );
        let mut table = Vec::new();
        write_table(&mut table, &comparison, &analysis, TableStyle::Text).unwrap();
        let table = String::from_utf8(table).unwrap();
        let rows: Vec<Vec<&str>> = table
            .lines()
            .skip_while(|l| !l.starts_with("per formula"))
            .skip(1)
            .take(4)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            rows,
            [
                vec!["formula", "vars", "clauses", "a", "b"],
                vec!["f1.cnf", "10", "40", "0.200", "wrong"],
                vec!["f2.cnf", "20", "80", "timeout", "0.050"],
                vec!["f3.cnf", "30", "120", "timeout", "failed"],
            ],
            "{table}"
        );
        // Puzzles are placed by file and line, with their size and givens.
        let puzzles = sequential(1, &["a"], None, vec![run(1, "a", 17, Solved, 1500.0)]);
        let analysis = Analysis::new(&puzzles, None);
        let row = &analysis.per_instance[0];
        let cells = [&row.place(false, "f")[..], &[row.results[0].cell()]].concat();
        assert_eq!(cells, ["f:1", "9", "17", "1.500"]);
        // An entry stopped (Ctrl-C) before a puzzle has no result there: `-`, not a failure.
        let mut stopped = sequential(1, &["a", "b"], None, vec![run(1, "a", 17, Solved, 1.0)]);
        stopped.interrupted = true;
        let analysis = Analysis::new(&stopped, None);
        let b = &analysis.per_instance[0].results[1];
        assert_eq!((b.outcome, b.cell()), (None, "-".to_string()));
    }

    #[test]
    fn repeats_reduce_to_their_median() {
        let mut runs = Vec::new();
        for us in [10.0, 30.0, 20.0] {
            runs.push(run(1, "a", 17, Outcome::Solved, us));
        }
        let s = &summarize(&runs, &["a".to_string()], None, Some(1.0))[0];
        assert_eq!(s.par2_us, Some(20.0));
        assert_eq!((s.runs, s.timed_puzzles, s.mean_us), (3, 1, Some(20.0)));
    }

    #[test]
    fn encoding_sizes_count_each_puzzle_once() {
        let mut runs = Vec::new();
        for (index, solver, clauses) in [(1, "x", 100), (1, "y", 100), (2, "x", 200)] {
            let mut r = run(index, solver, 17, Outcome::Solved, 1.0);
            r.encoding = Some("minimal".to_string());
            (r.vars, r.clauses, r.literals) = (Some(10), Some(clauses), Some(3 * clauses));
            runs.push(r);
        }
        let mut large = run(3, "x", 100, Outcome::Solved, 1.0);
        large.size = 16;
        large.encoding = Some("minimal".to_string());
        (large.vars, large.clauses, large.literals) = (Some(5), Some(7), Some(9));
        runs.insert(0, large);
        let mut sizes = encoding_sizes(&runs);
        assert_eq!(sizes.len(), 2, "one row per grid size");
        assert_eq!((sizes[1].size, sizes[1].clauses), (16, 7.0));
        sizes.remove(1);
        assert_eq!(sizes[0].size, 9);
        assert_eq!((sizes[0].puzzles, sizes[0].clauses), (2, 150.0));
        assert_eq!(sizes[0].literals, 450.0);
    }

    #[test]
    fn table_lists_every_solver_and_outcome_column() {
        let runs = vec![
            run(1, "a", 17, Outcome::Solved, 1500.0),
            run(1, "b", 17, Outcome::Failed, 0.0),
        ];
        let comparison = sequential(1, &["a", "b"], Some(0.5), runs);
        let mut out = Vec::new();
        let analysis = Analysis::new(&comparison, Some(GroupBy::Clues));
        write_table(&mut out, &comparison, &analysis, TableStyle::Text).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("sequential"), "{text}");
        assert!(text.contains("time limit 0.5 s"), "{text}");
        assert!(text.contains("2 × the 0.5 s limit"), "{text}");
        let head = text.lines().nth(3).unwrap();
        for o in Outcome::ALL {
            assert!(head.contains(o.name()), "{head}");
        }
        let a = text.lines().find(|l| l.starts_with("a ")).unwrap();
        assert!(a.contains("1.500"), "{a}");
        // b failed its only puzzle: PAR-2 = 2 × 500 ms.
        let b = text.lines().find(|l| l.starts_with("b ")).unwrap();
        assert!(b.ends_with(" 1000.000"), "{b}");
        let vbs = text.lines().find(|l| l.starts_with(VIRTUAL_BEST)).unwrap();
        assert!(vbs.ends_with(" 1.500"), "{vbs}");
        assert!(text.contains("  a: 1.500 f:1\n"), "{text}");
        assert!(text.contains("b: failed at data/f:1"), "{text}");
        assert!(text.contains("by clues:\nsolver        clues"), "{text}");
        assert!(text.contains("\nvirtual-best     17"), "{text}");
    }

    #[test]
    fn markdown_tables_have_an_alignment_row() {
        let comparison = sequential(
            1,
            &["a|b"],
            None,
            vec![run(1, "a|b", 17, Outcome::Solved, 1500.0)],
        );
        let mut out = Vec::new();
        let analysis = Analysis::new(&comparison, None);
        write_table(&mut out, &comparison, &analysis, TableStyle::Markdown).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[3].starts_with("| solver | runs | solved |"), "{text}");
        assert_eq!(lines[4], format!("|---|{}", "---:|".repeat(12)));
        assert!(lines[5].starts_with("| a\\|b | 1 | 1 |"), "{text}");
        assert!(text.contains("\n- a|b: 1.500 f:1\n"), "{text}");
    }

    #[test]
    fn text_columns_align_cells_longer_than_a_format_width() {
        // `format!("{:<w$}")` panics above 65,535; a label read from a CSV can be longer.
        let long = "x".repeat(70_000);
        let rows = vec![
            vec!["entry".to_string(), "time".to_string()],
            vec![long.clone(), "1.5".to_string()],
            vec!["é".to_string(), "12.25".to_string()],
        ];
        let mut out = Vec::new();
        write_columns(&mut out, &rows, TableStyle::Text).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("entry{}   time", " ".repeat(70_000 - 5)));
        assert_eq!(lines[1], format!("{long}    1.5"));
        assert_eq!(lines[2], format!("é{}  12.25", " ".repeat(70_000 - 1)));
    }
}
