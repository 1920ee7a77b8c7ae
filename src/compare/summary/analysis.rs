//! [`Analysis`]: everything the outputs show of a comparison, computed once, and what an
//! entry's time measures.

use serde::Serialize;

use super::best::{puzzle_times, ratios, virtual_best, PuzzleTimes, Ratio, VIRTUAL_BEST};
use super::instances::{per_instance, InstanceRow};
use super::sizes::{encoding_sizes, solved_sizes, EncodingSize, SolvedSize};
use super::stats::{seconds, summarize, Summary};
use crate::compare::{Comparison, GroupBy};

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
        self.instance == crate::compare::FORMULA
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
