//! Every tuning constant of the CDCL solver, in one place (as CaDiCaL's `options.hpp`):
//! each with its meaning, the range it makes sense in, and the section of docs/history.md
//! (by heading) whose measurements set it. Representation constants (value codes, arena
//! header words, reason tags) stay beside the data they describe.

use std::ops::RangeInclusive;

/// Most variables of a formula [`Cdcl`](super::Cdcl) hands to the lookahead search. On
/// uniform random 3-SAT from ratio 3.5 up the lookahead wins at every size measured (at
/// 5,000 variables and ratio 3.5: 0.65 s for four formulas, CDCL alone 118 s); at ratio
/// 3.3 it still wins at 5,000 variables (0.69 against 0.84 s) but loses at 10,000 (3.4
/// against 1.9 s). Below that, CDCL's budget ([`VARS_PER_CONFLICT_BEFORE_LOOKAHEAD`])
/// settles most formulas before any handover.
///
/// Range: 0 (never hand over) up to about 10,000. Set by docs/history.md, "Random k-SAT".
pub const LOOKAHEAD_SEARCH_MAX_VARS: usize = 10_000;

/// Most variables of a formula on which [`Cdcl`](super::Cdcl) on several threads races the
/// lookahead search against CDCL. A race keeps CDCL going, so it may take larger formulas
/// than a handover: at ratio 3.5 two formulas of 20,000 variables took 8.2 s racing, where
/// the portfolio alone had not answered in 150 s, and at ratio 3.3 the race lost 17 % (8.4
/// against 7.2 s). At 100,000 variables and ratio 3.2 it lost 2.8× (19.9 against 7.0 s):
/// the lookahead takes the place of the portfolio's second member.
///
/// Range: at least [`LOOKAHEAD_SEARCH_MAX_VARS`], up to about 20,000. Set by
/// docs/history.md, "Random k-SAT".
pub const LOOKAHEAD_RACE_MAX_VARS: usize = 20_000;

/// The clause lengths k of the uniform random k-SAT formulas [`Cdcl`](super::Cdcl) hands to
/// the lookahead search. Near each threshold (formulas, CDCL alone against lookahead):
/// 4-SAT with 100 variables 17.0 against 3.1 s; 5-SAT with 60, 17.4 against 6.2 s; 6-SAT
/// with 45, 6.9 against 4.6 s; but 7-SAT with 35, 2.1 against 5.7 s.
///
/// Range: a sub-range of 3..=6. Set by docs/history.md, "Random k-SAT".
pub const LOOKAHEAD_SEARCH_CLAUSE_LENGTHS: RangeInclusive<usize> = 3..=6;

/// Before the lookahead search, CDCL runs for one conflict per this many variables:
/// under-constrained formulas, which a few conflicts settle, stay with CDCL (at ratio 3
/// and 5,000 variables the lookahead alone took 15× CDCL's time, with the budget 1.07×),
/// and near the threshold the budget costs little (150 variables: 30 conflicts).
///
/// Range: 1 (a long budget) to about 20 (nearly none). Set by docs/history.md, "Random k-SAT".
pub const VARS_PER_CONFLICT_BEFORE_LOOKAHEAD: usize = 5;

/// Conflicts of one solve before it forks into a portfolio: 9×9 puzzles and most larger
/// ones are settled sooner and never pay for threads.
///
/// Range: a few hundred to tens of thousands. Set by docs/history.md, "Parallelism".
pub(super) const PORTFOLIO_AFTER: u64 = 2_000;

/// The fork waits for a restart the search makes anyway, up to this many times
/// [`PORTFOLIO_AFTER`] conflicts, when it forces one (a forced restart moves member 0 off
/// the one-thread path).
///
/// Range: 1 (always forced) to about 4. Set by docs/history.md, "Parallelism".
pub(super) const FORK_WAIT_FACTOR: u64 = 2;

/// Clauses up to this long are searched for a replacement watch from their third literal:
/// the saved position would save little and cost a write. Longer ones resume where their
/// last search stopped (11 % less CPU over 132 gecode 25×25 draws, 21 % over ten of
/// `sudoku-64-1`).
///
/// Range: 3 (every long clause keeps a position) to `usize::MAX` (none does). Set by
/// docs/history.md, "The CDCL search".
pub(super) const SHORT_CLAUSE: usize = 10;

/// Conflicts before the first learnt-clause reduction (also the first interval).
///
/// Range: about 1,000 to 20,000. Set by docs/history.md, "The CDCL search".
pub(super) const FIRST_REDUCE: u64 = 2_000;

/// Growth of the interval between two learnt-clause reductions, in conflicts.
///
/// Range: 0 (a fixed interval) to a few thousand. Set by docs/history.md, "The CDCL search".
pub(super) const REDUCE_INCREMENT: u64 = 300;

/// Conflicts before the first equivalent-literal substitution at a restart (formulas that
/// root probing takes have one pass before the search), and the interval after it.
///
/// Range: about 1,000 to 50,000. Set by docs/history.md, "The CDCL search".
pub(super) const SUBSTITUTE_FIRST: u64 = 2_000;

/// Growth of the interval between two substitutions, in conflicts: the passes thin out
/// as the search goes on (after n passes, about 2,000 · n²/2 conflicts).
///
/// Range: 0 (a fixed interval) to tens of thousands. Set by docs/history.md, "The CDCL
/// search".
pub(super) const SUBSTITUTE_INCREMENT: u64 = 2_000;

/// A reduction drops the worse 1 / this share of the learnt clauses above glue (those not
/// used since the last reduction).
///
/// Range: 2 (half, glucose and MiniSat) to about 4. Set by docs/history.md, "The CDCL search".
pub(super) const REDUCE_SHARE: usize = 2;

/// The arena is compacted (at the next restart, or after forgetting) once more than
/// 1 / this share of its words are garbage.
///
/// Range: 2 to about 8. Set by docs/history.md, "Batch mode (`--load assumptions`)".
pub(super) const GARBAGE_SHARE: usize = 2;

/// Learnt clauses of at most this LBD ("glue") are never dropped by a reduction nor
/// forgotten between queries (Audemard & Simon 2009).
///
/// Range: 2 (glucose) to about 6. Set by docs/history.md, "The CDCL search".
pub(super) const GLUE_LBD: u32 = 2;

/// Focused mode restarts when the recent LBD average exceeds the long-run one by this
/// factor. Glucose's margin is 1.25; 1.4 restarts less often and took 26 % less CPU over
/// 48 gecode 25×25 draws (157.5 against 213.7 s, no time-out against one), 16 % less on
/// the generated 49×49 and 64×64 grids, with the same conflicts on hardest-375 and random
/// 3-SAT; CaDiCaL's 1.1 with a 2-conflict minimum took 75 % more.
///
/// Range: 1.0 to about 2.0. Set by docs/history.md, "The CDCL search".
pub(super) const RESTART_MARGIN: f64 = 1.4;

/// Focused mode restarts at least this many conflicts after the last restart.
///
/// Range: 2 (CaDiCaL) to a few hundred. Set by docs/history.md, "The CDCL search".
pub(super) const RESTART_MIN_CONFLICTS: u64 = 50;

/// Conflicts in the fast moving average of learnt-clause LBDs (glucose's recent window).
///
/// Range: about 20 to 100. Set by docs/history.md, "The CDCL search".
pub(super) const LBD_FAST_WINDOW: f64 = 32.0;

/// Conflicts in the slow moving average of learnt-clause LBDs (the long-run window).
///
/// Range: about 1,000 to 10,000. Set by docs/history.md, "The CDCL search".
pub(super) const LBD_SLOW_WINDOW: f64 = 4096.0;

/// VSIDS decay per conflict: the bump grows by 1 / this factor.
///
/// Range: 0.75 to 0.999 (MiniSat: 0.95). Set by docs/history.md, "The CDCL search".
pub(super) const VAR_DECAY: f64 = 0.95;

/// An activity above this rescales every activity (and the bump) by
/// [`ACTIVITY_RESCALE`], before floating point overflows.
///
/// Range: far below `f64::MAX` (MiniSat: 1e100). Set by docs/history.md, "The CDCL search".
pub(super) const ACTIVITY_LIMIT: f64 = 1e100;

/// The factor of a rescale at [`ACTIVITY_LIMIT`].
///
/// Range: its inverse (1e-100). Set by docs/history.md, "The CDCL search".
pub(super) const ACTIVITY_RESCALE: f64 = 1e-100;

/// With a seed, a variable's initial activity is below this (MiniSat's `rnd_init_act`):
/// less than one bump, so that conflicts rank the variables at once.
///
/// Range: above 0, below 1 (the first bump). MiniSat's value, not measured on its own;
/// the seeded draws it makes are those of docs/history.md, "How changes were measured".
pub(super) const SEED_ACTIVITY: f64 = 1e-5;

/// Learnt clauses up to this length are minimised by binary resolution (glucose's bound).
///
/// Range: 2 (never) to `usize::MAX` (always). Set by docs/history.md, "The CDCL search".
pub(super) const BINARY_MINIMIZE_MAX: usize = 30;

/// Shrinking is tried on every clause while at least one level in this many shrinks,
/// otherwise on every this-many-th conflict (random 3-SAT: one in twenty-odd, where the
/// walks would cost about 5 % of the time).
///
/// Range: 1 (always) to about 64. Set by docs/history.md, "The CDCL search".
pub(super) const SHRINK_SAMPLE: u64 = 16;

/// Conflicts of the first focused-mode run; each run of either mode doubles the last.
///
/// Range: about 500 to 5,000. Set by docs/history.md, "The CDCL search".
pub(super) const FIRST_MODE_RUN: u64 = 1_000;

/// Stable-mode restarts come after this many conflicts times the Luby sequence.
///
/// Range: about 100 to 10,000 (CaDiCaL: 1,024). Set by docs/history.md, "The CDCL search".
pub(super) const STABLE_RESTART_UNIT: u64 = 1_024;

/// Conflicts before the first rephasing; the k-th interval is k times as long. 3,000 took
/// 7 % less CPU on one thread over 132 gecode 25×25 draws but 8 % more wall time on the
/// default two-thread path over 72 of them.
///
/// Range: about 500 to 3,000. Set by docs/history.md, "The CDCL search".
pub(super) const REPHASE_INTERVAL: u64 = 1_000;

/// Root probing gives up after this many probes in a row without a failed literal, when
/// they are more than all the probes before them: on the Sudoku grids probing settles, one
/// probe in 20–120 fails (`sudoku-81-1`: 1,605 of 32,833), while on a random 3-SAT formula
/// of a million variables at ratio 3 none of 1.95 million failed, which took 9 of its
/// 17 s.
///
/// Range: about 1,000 to 100,000. Set by docs/history.md, "The DPLL and root probing".
pub(super) const PROBE_STALL: u64 = 10_000;

/// Rounds of root probing at most (a round probes again the literals of clauses that lost
/// a literal in the last one).
///
/// Range: 1 to a few hundred. A bound, not measured on its own; root probing itself is
/// measured in docs/history.md, "The DPLL and root probing".
pub(super) const PROBE_MAX_ROUNDS: u32 = 64;

/// Probes between two looks at the clock during root probing.
///
/// Range: about 256 to 4,096. Not measured on its own; the time probing takes is measured
/// in docs/history.md, "The DPLL and root probing".
pub(super) const PROBE_CLOCK_INTERVAL: usize = 1024;

/// The least LBD an explanation clause of the native propagation is rated: explanations
/// are re-derived on demand, so they need not be kept for good.
///
/// Range: above [`GLUE_LBD`]. Not measured on its own; the native propagation is measured
/// in docs/history.md, "Native Sudoku propagation".
pub(super) const EXPLANATION_MIN_LBD: u32 = 3;

/// Clauses loaded between two looks at the clock and the interrupt flag: a few
/// milliseconds of loading.
pub(super) const LOAD_CHECK_PERIOD: usize = 1 << 16;

/// Conflicts or decisions between two looks at the clock.
///
/// Range: a power of two, about 64 to 4,096. Set by docs/history.md, "Random k-SAT".
pub(super) const CLOCK_INTERVAL: u64 = 256;

/// Conflicts or decisions between two looks at the flag of a portfolio or race, which
/// costs a load rather than a clock read: at every [`CLOCK_INTERVAL`], a search that lost
/// a race on 150 variables went on for half a millisecond on average.
///
/// Range: a power of two dividing [`CLOCK_INTERVAL`]. Set by docs/history.md, "Random k-SAT".
pub(super) const STOP_INTERVAL: u64 = 16;
