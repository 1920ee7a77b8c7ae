//! The built-in conflict-driven clause-learning (CDCL) solver.
//!
//! The procedure of GRASP (Marques-Silva & Sakallah 1999, "GRASP: A search algorithm for
//! propositional satisfiability", IEEE Trans. Computers 48(5)) with the engineering of Chaff
//! (Moskewicz et al. 2001, DAC: two watched literals, VSIDS branching) and MiniSat (Eén &
//! Sörensson 2003, "An extensible SAT-solver", SAT: first-UIP learning, recursive learnt-clause
//! minimisation, assumptions and `analyzeFinal`):
//!
//! - **propagation**: binary clauses in per-literal implication lists; longer clauses with two
//!   watched literals, each watch carrying a *blocker* literal that skips satisfied clauses
//!   without touching the clause arena; a clause of more than 10 literals keeps where its
//!   last search for a replacement watch stopped and resumes there (Gent 2013, "Optimal
//!   implementation of watched literals and more general techniques", JAIR 48): 11 % less
//!   CPU over 132 gecode 25×25 draws, 21 % over ten of `sudoku-64-1`;
//! - **conflict analysis**: the first unique implication point, the learnt clause minimised by
//!   removing literals implied by the others (Sörensson & Biere 2009, "Minimizing learned
//!   clauses", SAT), then by resolution with the asserting literal's binary clauses
//!   (glucose; Audemard & Simon 2009), non-chronological backjumping to the second-highest
//!   level. On formulas of the extended and augmented Sudoku encodings, and in the odd
//!   members of a portfolio on any formula, the clause is also *shrunk* (Feng & Bacchus
//!   2020, "Clause size reduction with all-UIP learning", SAT; CaDiCaL's `shrink`): a
//!   level's literals replaced by their UIP. On one thread that took 25–32 % less CPU on gecode 25×25
//!   draws but up to 240× more conflicts on sparse 16×16 puzzles in the minimal encoding,
//!   where it stays off (BENCHMARKS.md, sixteenth session);
//! - **branching**: VSIDS (a binary heap of variable activities, bumped for every variable seen
//!   in analysis, decayed by 0.95 per conflict) with phase saving (Pipatsrisawat & Darwiche
//!   2007, "A lightweight component caching scheme for satisfiability solvers", SAT);
//! - **two search modes** in runs of 1,000 · 2^k conflicts, as in CaDiCaL (Biere & Fleury
//!   2020, "Chasing target phases", Pragmatics of SAT; Oh 2015, "Between SAT and UNSAT: the
//!   fundamental difference in CDCL SAT", SAT). *Focused* mode restarts when the learnt
//!   clauses get worse: the LBD average of the last ~32 conflicts exceeds 1.4 × that of the
//!   last ~4,096 (Audemard & Simon 2012, "Refining restarts strategies for SAT and UNSAT",
//!   CP, whose margin is 1.25; measured against Luby × 100: 19 % less time on
//!   hardest-375). *Stable* mode restarts after 1,024 × Luby(k) conflicts (Luby, Sinclair &
//!   Zuckerman 1993) and decides each variable's *target phase*, its value in the longest
//!   conflict-free trail since the last rephasing. Each mode keeps its own LBD averages. Every
//!   1,000 · k conflicts the saved phases are reset to the *best* phases (the longest conflict-free
//!   trail since the last such reset). Focused mode alone never finished `sudoku-64-1` (300 CPU s);
//!   with the stable runs it takes 3–23 s on four isomorphic copies (CaDiCaL 27–136 s), and the
//!   gecode 25×25 set with copies 2.3× less time;
//! - **learnt-clause database**: clauses rated by their literal block distance (LBD, the
//!   number of decision levels among their literals; Audemard & Simon 2009, "Predicting
//!   learnt clauses quality in modern SAT solvers", IJCAI); "glue" clauses (LBD ≤ 2) are kept
//!   for good, half of the others are dropped every 2,000 + 300·k conflicts unless used since
//!   the last reduction;
//! - **root simplification**: at restarts, once new root units exist, satisfied clauses are
//!   removed and false literals struck out; the arena is compacted and watches rebuilt;
//! - **failed-literal probing** at the root before the search (Freeman 1995; the DPLL's
//!   [`Lookahead::Full`]), where it pays: formulas of more than
//!   [`crate::backend::dpll::AUTO_FULL_ABOVE`] variables under [`Lookahead::Auto`]. On the
//!   large Sudoku grids it settles most of the puzzle before any decision;
//! - a **lookahead search** ([`crate::backend::lookahead`], after satz, kcnfs and march)
//!   takes over the first solve of a formula of at most [`LOOKAHEAD_SEARCH_MAX_VARS`]
//!   variables whose clauses all have k literals, 3 ≤ k ≤ 6, without assumptions or
//!   proof, unless [`Lookahead::None`], once CDCL has spent one conflict per five
//!   variables without an answer: on random 3-SAT at the threshold it takes under a third
//!   of CDCL's time (200 formulas of 150 variables: 0.47 against 1.60 s; varisat
//!   1.29–1.32 s). On more than one thread it races CDCL instead, which goes on beside it
//!   (below the threshold CDCL is the faster).
//!
//! The solver is incremental: clauses added after a `solve` keep everything learnt (learnt
//! clauses are implied by the formula, so they stay valid), and [`crate::backend::SolveUnderAssumptions::solve_under`]
//! solves under assumptions, answering the failed ones. With [`crate::backend::WriteProofs::set_proof`] it logs
//! a DRAT proof ([`crate::backend::proof`]): every learnt clause, every strengthened clause and
//! deletion, and the empty clause.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::backend::dpll::Lookahead;
use crate::backend::lookahead::{LookaheadCounters, LookaheadOutcome, LookaheadSolver};
use crate::backend::{
    check_model_from, BackendError, ConnectPropagator, DratWriter, Explanations, Interrupt,
    LimitTime, ProofTarget, Propagator, PropagatorFactory, SatBackend, SatOutcome,
    SolveUnderAssumptions, WriteProofs,
};
use crate::formula::{try_reserve, ClauseSink, Cnf, Lit, Model, ReserveError, Var};
use crate::run::{Counters, Deadline};

mod portfolio;

/// Most variables of a formula [`Cdcl`] hands to the lookahead search. On uniform random
/// 3-SAT from ratio 3.5 up the lookahead wins at every size measured (at 5,000 variables
/// and ratio 3.5: 0.65 s for four formulas, CDCL alone 118 s); at ratio 3.3 it still wins
/// at 5,000 variables (0.69 against 0.84 s) but loses at 10,000 (3.4 against 1.9 s).
/// Below that, CDCL's budget ([`VARS_PER_CONFLICT_BEFORE_LOOKAHEAD`]) settles most
/// formulas before any handover.
pub const LOOKAHEAD_SEARCH_MAX_VARS: usize = 10_000;

/// Most variables of a formula on which [`Cdcl`] on several threads races the lookahead
/// search against CDCL. A race keeps CDCL going, so it may take larger formulas than a
/// handover: at ratio 3.5 two formulas of 20,000 variables took 8.2 s racing, where the
/// portfolio alone had not answered in 150 s, and at ratio 3.3 the race lost 17 % (8.4
/// against 7.2 s). At 100,000 variables and ratio 3.2 it lost 2.8× (19.9 against 7.0 s):
/// the lookahead takes the place of the portfolio's second member.
pub const LOOKAHEAD_RACE_MAX_VARS: usize = 20_000;

/// The clause lengths k of the uniform random k-SAT formulas [`Cdcl`] hands to the
/// lookahead search. Near each threshold (formulas, CDCL alone against lookahead): 4-SAT
/// with 100 variables 17.0 against 3.1 s; 5-SAT with 60, 17.4 against 6.2 s; 6-SAT with
/// 45, 6.9 against 4.6 s; but 7-SAT with 35, 2.1 against 5.7 s.
pub const LOOKAHEAD_SEARCH_CLAUSE_LENGTHS: std::ops::RangeInclusive<usize> = 3..=6;

/// Before the lookahead search, CDCL runs for one conflict per this many variables:
/// under-constrained formulas, which a few conflicts settle, stay with CDCL (at ratio 3
/// and 5,000 variables the lookahead alone took 15× CDCL's time, with the budget 1.07×),
/// and near the threshold the budget costs little (150 variables: 30 conflicts).
pub const VARS_PER_CONFLICT_BEFORE_LOOKAHEAD: usize = 5;

const TRUE: i8 = 1;
const FALSE: i8 = -1;
const UNSET: i8 = 0;

/// `reason[v]` of a decision, an assumption or a root unit without clause.
const NO_REASON: u32 = u32::MAX;
/// `reason[v] = BINARY_REASON | code`: implied by the binary clause (v's literal ∨ `code`).
const BINARY_REASON: u32 = 1 << 31;

/// Arena words before a clause's literals: its length, its flags and LBD, then where the
/// last search for a replacement watch stopped.
const HEADER: usize = 3;
/// The header word that holds that position.
const SEARCH_POS: usize = 2;
/// A clause's first literal that is not watched: where a search for a replacement starts.
const FIRST_UNWATCHED: usize = 2;
/// Clauses up to this long are searched from their third literal: the saved position
/// would save little and cost a write.
const SHORT_CLAUSE: usize = 10;
const LEARNT: u32 = 1;
const DELETED: u32 = 2;
/// Seen in a conflict analysis since the last database reduction.
const USED: u32 = 4;
const LBD_SHIFT: u32 = 3;
/// Marks of `seen` in clause minimisation: in the learnt clause or implied by it, and
/// shown not implied by it.
const REMOVABLE: u8 = 1;
const POISONED: u8 = 3;

/// Conflicts before the first learnt-clause reduction, and the growth of the interval.
const FIRST_REDUCE: u64 = 2_000;
const REDUCE_INCREMENT: u64 = 300;
/// Focused mode restarts when the recent LBD average exceeds the long-run one by this
/// factor, after at least this many conflicts since the last restart. Glucose's margin is
/// 1.25; 1.4 restarts less often and took 26 % less CPU over 48 gecode 25×25 draws (157.5
/// against 213.7 s, no time-out against one), 16 % less on the generated 49×49 and 64×64
/// grids, with the same conflicts on hardest-375 and random 3-SAT (BENCHMARKS.md,
/// thirteenth session); CaDiCaL's 1.1 with a 2-conflict minimum took 75 % more.
const RESTART_MARGIN: f64 = 1.4;
const RESTART_MIN_CONFLICTS: u64 = 50;
const VAR_DECAY: f64 = 0.95;
/// Learnt clauses up to this length are minimised by binary resolution (glucose's bound).
const BINARY_MINIMIZE_MAX: usize = 30;

/// Conflicts of the first focused-mode run; each run of either mode doubles the last.
const FIRST_MODE_RUN: u64 = 1_000;
/// Stable-mode restarts come after this many conflicts times the Luby sequence.
const STABLE_RESTART_UNIT: u64 = 1_024;
/// Conflicts before the first rephasing; the k-th interval is k times as long. 3,000 took
/// 7 % less CPU on one thread over 132 gecode 25×25 draws but 8 % more wall time on the
/// default two-thread path over 72 of them (BENCHMARKS.md, fifteenth session).
const REPHASE_INTERVAL: u64 = 1_000;

/// Root probing gives up after this many probes in a row without a failed literal, when
/// they are more than all the probes before them: on the Sudoku grids probing settles, one
/// probe in 20–120 fails (`sudoku-81-1`: 1,605 of 32,833), while on a random 3-SAT formula
/// of a million variables at ratio 3 none of 1.95 million failed, which took 9 of its
/// 17 s (BENCHMARKS.md, twenty-sixth session).
const PROBE_STALL: u64 = 10_000;

/// Conflicts or decisions between two looks at the clock.
const CLOCK_INTERVAL: u64 = 256;

/// Conflicts or decisions between two looks at the flag of a portfolio or race, which
/// costs a load rather than a clock read: at every [`CLOCK_INTERVAL`], a search that lost
/// a race on 150 variables went on for half a millisecond on average.
const STOP_INTERVAL: u64 = 16;

/// A long-clause watch: the clause's arena index, and a literal of the clause that, when
/// true, means the clause needs no visit.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// The clauses to visit when a literal becomes false, side by side so that the two list
/// headers share a cache line: propagating a literal reads both (one miss instead of two;
/// with the 9×9 batch's 1,458 literals the headers alone overflow the L1 cache).
#[derive(Clone, Default)]
struct Occurrences {
    /// The literals that must be true when this one becomes false (binary clauses).
    binaries: Vec<Lit>,
    /// Long clauses watching this literal.
    watches: Vec<Watch>,
}

/// The search-mode state (see the module docs): which mode runs, when it ends, when the
/// next stable restart and the next rephasing are due, and the target and best phases.
#[derive(Clone, Default)]
struct Modes {
    /// Stable mode (rare restarts, target phases) rather than focused mode.
    stable: bool,
    /// Conflicts at which the current mode ends (0: not scheduled yet).
    next_switch: u64,
    /// Conflicts of the current mode's run; doubles at each switch.
    run_length: u64,
    /// Restarts of the current stable run, the index into the Luby sequence.
    luby_index: u64,
    next_stable_restart: u64,
    /// Per variable: the phase in the longest conflict-free trail since the last
    /// rephasing (`target_assigned` literals long) …
    target_phase: Vec<bool>,
    target_assigned: usize,
    /// … and since the last rephasing to the best phases.
    best_phase: Vec<bool>,
    best_assigned: usize,
    next_rephase: u64,
    rephases: u64,
    switches: u64,
    /// The other mode's LBD averages, swapped in at a switch: stable mode learns clauses
    /// of much higher LBD, which would stall focused restarts.
    other_averages: LbdAverages,
}

/// Exponential moving averages of learnt-clause LBDs over one mode's conflicts (fast: the
/// last ~32, slow: the last ~4,096), for focused mode's glucose-style restarts.
#[derive(Clone, Default)]
struct LbdAverages {
    fast: f64,
    slow: f64,
    /// Conflicts seen, for the warm-up of the slow average.
    conflicts: u64,
}

impl LbdAverages {
    fn add(&mut self, lbd: u32) {
        let lbd = lbd as f64;
        self.conflicts += 1;
        self.fast += (lbd - self.fast) / 32.0;
        self.slow += (lbd - self.slow) / 4096.0_f64.min(self.conflicts as f64);
    }

    /// The recent clauses are worse than the long-run ones by the restart margin.
    fn getting_worse(&self) -> bool {
        self.fast > RESTART_MARGIN * self.slow
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, … at `i` (from 1).
fn luby(mut i: u64) -> u64 {
    debug_assert!(i >= 1);
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A clause found false.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    Clause(u32),
    Binary(Lit, Lit),
}

/// How one search episode (between restarts) ended.
enum Search {
    Sat,
    Unsat,
    /// UNSAT under the assumptions; the failed ones are in `failed`.
    UnsatUnderAssumptions,
    Restart,
    TimedOut,
}

/// A binary max-heap of variables ordered by activity, with positions for updates.
#[derive(Clone, Default)]
struct VarHeap {
    heap: Vec<u32>,
    /// Position of each variable in `heap`, or -1.
    position: Vec<i32>,
}

impl VarHeap {
    fn grow(&mut self, num_vars: usize) {
        self.position.resize(num_vars, -1);
    }

    fn contains(&self, v: usize) -> bool {
        self.position[v] >= 0
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.position.clear();
    }

    fn insert(&mut self, v: usize, activity: &[f64]) {
        if self.contains(v) {
            return;
        }
        self.position[v] = self.heap.len() as i32;
        self.heap.push(v as u32);
        self.sift_up(self.heap.len() - 1, activity);
    }

    fn pop(&mut self, activity: &[f64]) -> Option<usize> {
        let top = *self.heap.first()? as usize;
        let last = self.heap.pop().expect("non-empty");
        self.position[top] = -1;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.position[last as usize] = 0;
            self.sift_down(0, activity);
        }
        Some(top)
    }

    /// Restores the order after `v`'s activity grew.
    fn increased(&mut self, v: usize, activity: &[f64]) {
        if self.contains(v) {
            self.sift_up(self.position[v] as usize, activity);
        }
    }

    fn sift_up(&mut self, mut i: usize, activity: &[f64]) {
        // Every bump of conflict analysis lands here (5 % of a hard 9×9 solve): unchecked
        // reads in the loop, whose indices are in range by the heap's construction.
        let (heap, position) = (&mut self.heap[..], &mut self.position[..]);
        debug_assert!(position.len() == activity.len() && heap.len() <= activity.len());
        let v = heap[i];
        let key = activity[v as usize];
        while i > 0 {
            let parent = (i - 1) / 2;
            // SAFETY: `parent < i < heap.len()`, and the heap holds variables, which index
            // `activity` and `position` (the same length, asserted above).
            unsafe {
                let p = *heap.get_unchecked(parent);
                if *activity.get_unchecked(p as usize) >= key {
                    break;
                }
                *heap.get_unchecked_mut(i) = p;
                *position.get_unchecked_mut(p as usize) = i as i32;
            }
            i = parent;
        }
        heap[i] = v;
        position[v as usize] = i as i32;
    }

    fn sift_down(&mut self, mut i: usize, activity: &[f64]) {
        let v = self.heap[i];
        let len = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len
                && activity[self.heap[right] as usize] > activity[self.heap[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if activity[c as usize] <= activity[v as usize] {
                break;
            }
            self.heap[i] = c;
            self.position[c as usize] = i as i32;
            i = child;
        }
        self.heap[i] = v;
        self.position[v as usize] = i as i32;
    }
}

/// The built-in CDCL solver (see the module docs).
#[derive(Default)]
pub struct Cdcl {
    num_vars: usize,
    /// Value per literal code.
    values: Vec<i8>,
    /// Decision level per variable.
    level: Vec<u32>,
    /// Reason per variable: [`NO_REASON`], a clause's arena index, or [`BINARY_REASON`].
    reason: Vec<u32>,
    trail: Vec<Lit>,
    /// Trail length at the start of each decision level above 0.
    trail_lim: Vec<u32>,
    /// Trail index of the next literal to propagate.
    queue_head: usize,
    /// Clauses of three or more literals, flat: `[len, flags, lit, lit, …]`.
    arena: Vec<u32>,
    /// Arena words of deleted clauses, reclaimed by the next compaction.
    garbage: usize,
    /// Live original (long) clauses, by arena index.
    originals: Vec<u32>,
    /// Live learnt (long) clauses, by arena index.
    learnts: Vec<u32>,
    /// Per literal code, the clauses visited when that literal becomes false.
    lists: Vec<Occurrences>,
    activity: Vec<f64>,
    var_inc: f64,
    heap: VarHeap,
    /// Saved phase per variable (`true`: positive).
    phase: Vec<bool>,
    /// Per variable: marks of conflict analysis.
    seen: Vec<u8>,
    /// Per decision level: stamp for counting LBDs.
    level_stamp: Vec<u64>,
    stamp: u64,
    learnt: Vec<Lit>,
    /// Learnt-clause shrinking's marks and counters ([`Cdcl::shrink`]).
    shrinking: Shrinking,
    to_clear: Vec<Lit>,
    antecedent: Vec<Lit>,
    stack: Vec<Lit>,
    /// Minimisation's depth-first path: (variable, index of its next antecedent literal).
    path: Vec<(u32, u32)>,
    /// Copy of every clause as given, to check models and find probe candidates.
    original: Cnf,
    /// Clauses of `original` already loaded.
    loaded: usize,
    /// Leading clauses of `original` whose models the caller checks
    /// ([`SatBackend::trust_clauses`]).
    trusted: usize,
    /// An empty clause was added or derived at the root.
    inconsistent: bool,
    /// Root trail length at the last simplification.
    simplified_root: usize,
    /// Propagations before the next root simplification may run: a pass costs about the
    /// arena's size, so it waits for as many propagations (MiniSat's `simpDB_props`).
    next_simplify: u64,
    /// Failed assumptions of the last `solve_under`.
    failed: Vec<Lit>,
    lookahead: Lookahead,
    /// Whether root probing already ran on the formula as loaded (rerun after additions).
    probed_clauses: usize,
    proof: Option<DratWriter>,
    time_limit: Option<Duration>,
    next_reduce: u64,
    reduce_interval: u64,
    /// The current mode's LBD averages.
    averages: LbdAverages,
    solves: u64,
    decisions: u64,
    propagations: u64,
    conflicts: u64,
    learnt_count: u64,
    restarts: u64,
    deleted: u64,
    probes: u64,
    failed_literals: u64,
    /// Explanation clauses added by the native propagation.
    native_clauses: u64,
    /// The propagator of this solve ([`ConnectPropagator`]), made by `factory`.
    propagator: Option<Box<dyn Propagator>>,
    /// Makes the propagator (kept to rebuild it when a proof is set later).
    factory: Option<Arc<dyn PropagatorFactory>>,
    explanations: Explanations,
    modes: Modes,
    /// Threads of one solve: above 1, a search still open after 2,000 conflicts goes on
    /// as a portfolio (module `portfolio`).
    threads: usize,
    /// Seed of the initial variable order and of the portfolio's noise (0: the variables'
    /// own order, as without a seed).
    seed: u64,
    /// Conflicts from which this solve forks into the portfolio at its next restart
    /// (`u64::MAX`: never) …
    fork_at: u64,
    /// … and at which it forces that restart if none came (`u64::MAX`: never).
    fork_by: u64,
    /// Conflicts of a solve before the fork (`None`: the default, 2,000; tests fork sooner).
    fork_after: Option<u64>,
    /// Bytes the portfolio's copies may fill (`None`: what `memory_budget` leaves; tests
    /// leave none).
    fork_room: Option<u64>,
    /// Bytes one solve may fill, copies included (`None`: half the memory the system
    /// reports available, for the copies alone).
    memory_budget: Option<u64>,
    /// While this solver is a member of a portfolio: set when another member has answered.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Set by another thread to end this solver's solves ([`crate::backend::Interrupt::set_interrupt`]).
    interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Portfolios run, and the conflicts of all their members, the losers' included.
    portfolios: u64,
    portfolio_conflicts: u64,
    /// Solves handed to the lookahead search ([`Cdcl::takes_lookahead_search`]).
    lookahead_searches: u64,
}

/// Learnt-clause shrinking's state ([`Cdcl::shrink`]).
#[derive(Clone, Default)]
struct Shrinking {
    /// Whether learnt clauses are shrunk: on the extended and augmented Sudoku encodings
    /// ([`crate::backend::SatBackend::set_shrinking`]) and in odd portfolio members; not on the
    /// minimal encoding nor, on one thread, on a formula of unknown origin.
    enabled: bool,
    /// Per variable: the round (one per level tried) that marked it.
    mark: Vec<u32>,
    round: u32,
    antecedents: Vec<Lit>,
    /// Levels tried, levels replaced by their UIP, and literals removed.
    tries: u64,
    wins: u64,
    removed: u64,
}

impl Shrinking {
    /// Whether to shrink the clause of conflict number `conflicts`: always while at least
    /// one level in 16 shrinks (Sudoku: about one in five), otherwise every 16th conflict
    /// (random 3-SAT: one in twenty-odd, where the walks would cost about 5 % of the time).
    fn worth_trying(&self, conflicts: u64) -> bool {
        self.enabled && (self.wins * 16 >= self.tries || conflicts % 16 == 0)
    }

    /// A fresh mark for one level's walk.
    fn next_round(&mut self) -> u32 {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.mark.fill(0);
            self.round = 1;
        }
        self.round
    }
}

/// How the search of one solve ended.
enum Ended {
    Sat,
    Unsat,
    /// UNSAT under the assumptions; the failed ones are in `failed`.
    UnsatUnderAssumptions,
    /// Out of time, or stopped because another portfolio member answered.
    TimedOut,
    /// Due to go on as a portfolio.
    Fork,
}

impl Ended {
    fn is_answer(&self) -> bool {
        matches!(
            self,
            Ended::Sat | Ended::Unsat | Ended::UnsatUnderAssumptions
        )
    }
}

/// What one call of the native propagator did.
enum Native {
    /// Nothing new.
    Fixpoint,
    /// Literals assigned: unit propagation runs again.
    Progress,
    /// An explanation clause is false.
    Conflict(Conflict),
    /// The empty clause.
    Refuted,
}

/// A number in [0, 1) that depends only on `seed` and `key` (SplitMix64's finaliser).
fn unit_noise(seed: u64, key: u64) -> f64 {
    let mut z = seed ^ key.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

impl Cdcl {
    /// An empty solver with root probing under [`Lookahead::Auto`].
    pub fn new() -> Cdcl {
        Cdcl::with_lookahead(Lookahead::Auto)
    }

    /// An empty solver with the given root probing: [`Lookahead::None`] never probes,
    /// [`Lookahead::Full`] and [`Lookahead::BranchClause`] always do, [`Lookahead::Auto`]
    /// above [`crate::backend::dpll::AUTO_FULL_ABOVE`] variables.
    pub fn with_lookahead(lookahead: Lookahead) -> Cdcl {
        Cdcl {
            lookahead,
            var_inc: 1.0,
            next_reduce: FIRST_REDUCE,
            reduce_interval: FIRST_REDUCE,
            ..Cdcl::default()
        }
    }

    /// The same solver on up to `threads` threads per solve: a search still open after
    /// 2,000 conflicts goes on as a portfolio of diversified copies of the solver, and the
    /// first answer wins (Hamadi, Jabbour & Saïs 2009, ManySAT). Which
    /// solution a formula with several gets may then differ from run to run. 0 and 1 mean
    /// one thread, deterministic. A solve with a proof or native propagation stays on one.
    pub fn with_threads(mut self, threads: usize) -> Cdcl {
        self.threads = threads;
        self
    }

    /// The same solver with another draw of its search: a `seed` other than 0 gives each
    /// variable a random initial activity below 10⁻⁵ (MiniSat's `rnd_init_act`), so the
    /// first decisions, which VSIDS cannot rank yet, come in a seeded random order instead
    /// of the variables' order, and the portfolio's copies get other noise. The answer is
    /// the same; the path to it, and on a hard formula its length, differ. One run of a
    /// chaotic search is one sample: seeds sample it (`--seed`). 0, the default, keeps the
    /// variables' order.
    pub fn with_seed(mut self, seed: u64) -> Cdcl {
        self.seed = seed;
        self
    }

    /// The same solver within a memory budget (`--max-memory`): the portfolio takes only
    /// as many copies as fit in what the solver itself leaves of `budget`. `None`: the
    /// copies fit in half the memory the system reports available.
    pub fn with_memory_budget(mut self, budget: Option<u64>) -> Cdcl {
        self.memory_budget = budget;
        self
    }

    fn grow(&mut self, num_vars: usize) {
        if num_vars <= self.num_vars {
            return;
        }
        let old = self.num_vars;
        self.num_vars = num_vars;
        self.values.resize(2 * num_vars, UNSET);
        // One slot more: propagation's branch-free writes for literals already true.
        self.level.resize(num_vars + 1, 0);
        self.reason.resize(num_vars + 1, NO_REASON);
        self.activity.resize(num_vars, 0.0);
        if self.seed != 0 {
            // Per variable, not from a stream: variables added in several steps get what
            // they would get added at once.
            for v in old..num_vars {
                self.activity[v] = 1e-5 * unit_noise(self.seed, v as u64);
            }
        }
        // Positive first: on Sudoku a decision then places a digit (and propagation clears its
        // cell and units) instead of striking one candidate; 2× fewer conflicts on the 25×25
        // gecode puzzles than MiniSat's negative default.
        self.phase.resize(num_vars, true);
        self.modes.target_phase.resize(num_vars, true);
        self.modes.best_phase.resize(num_vars, true);
        self.seen.resize(num_vars, 0);
        self.shrinking.mark.resize(num_vars, 0);
        if self.lists.len() < 2 * num_vars {
            self.lists.resize_with(2 * num_vars, Occurrences::default);
        }
        self.heap.grow(num_vars);
        for v in old..num_vars {
            self.heap.insert(v, &self.activity);
        }
    }

    #[inline]
    fn value(&self, lit: Lit) -> i8 {
        self.values[lit.code()]
    }

    #[inline]
    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline]
    fn assign(&mut self, lit: Lit, reason: u32) {
        let v = lit.var().index();
        self.values[lit.code()] = TRUE;
        self.values[(!lit).code()] = FALSE;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail.push(lit);
    }

    fn new_decision_level(&mut self) {
        self.trail_lim.push(self.trail.len() as u32);
    }

    /// Undoes every assignment above `level`, saving phases.
    fn cancel_until(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let len = self.trail_lim[level as usize] as usize;
        if let Some(sudoku) = &mut self.propagator {
            sudoku.backtrack(&self.trail, len);
        }
        let Cdcl {
            trail,
            values,
            phase,
            heap,
            activity,
            ..
        } = self;
        for &lit in trail[len..].iter().rev() {
            let v = lit.var().index();
            values[lit.code()] = UNSET;
            values[(!lit).code()] = UNSET;
            phase[v] = lit.is_positive();
            heap.insert(v, activity);
        }
        self.trail.truncate(len);
        self.trail_lim.truncate(level as usize);
        self.queue_head = self.queue_head.min(len);
    }

    fn clause_len(&self, c: u32) -> usize {
        self.arena[c as usize] as usize
    }

    fn clause_lits(&self, c: u32) -> &[u32] {
        let c = c as usize;
        &self.arena[c + HEADER..c + HEADER + self.arena[c] as usize]
    }

    fn lits_of(&self, c: u32, out: &mut Vec<Lit>) {
        out.clear();
        out.extend(
            self.clause_lits(c)
                .iter()
                .map(|&code| Lit::from_code(code as usize)),
        );
    }

    /// Unit propagation from `queue_head`; the conflicting clause, if any.
    ///
    /// The solver's hot loop (70–85 % of the time on Sudoku and random 3-SAT). The fields
    /// are borrowed apart so that they stay in registers, and the arena and the value table
    /// are read without bounds checks: every code in a watch or implication list is a literal
    /// below `2 · num_vars` (`grow` sized `values` for it) and every watched clause index is
    /// the header of a clause in the arena (compaction rebuilds the watches). Debug builds
    /// check both.
    fn propagate(&mut self) -> Option<Conflict> {
        let Cdcl {
            values,
            level,
            reason,
            trail,
            trail_lim,
            queue_head,
            arena,
            lists,
            propagations,
            num_vars,
            ..
        } = self;
        let current = trail_lim.len() as u32;
        // Slices, so that the compiler keeps their addresses in registers across the trail
        // writes below; the slot past the last variable takes the branch-free writes.
        let (values, level, reason) = (&mut values[..], &mut level[..], &mut reason[..]);
        let scratch = *num_vars;
        debug_assert!(level.len() > scratch && reason.len() > scratch);
        let value = |values: &[i8], code: usize| -> i8 {
            debug_assert!(code < values.len());
            // SAFETY: literal codes in clauses and lists are below `values.len()` (above).
            unsafe { *values.get_unchecked(code) }
        };
        let mut conflict = None;
        while *queue_head < trail.len() {
            let p = trail[*queue_head];
            *queue_head += 1;
            *propagations += 1;
            let false_lit = !p;
            let code = false_lit.code();

            // Read in place: assigning touches no implication list. Without a branch on
            // whether `other` is already true (on Sudoku, true and unset come about equally
            // often, so the branch was mispredicted): the value writes are the same either
            // way, the level and reason go to a scratch slot unless the literal is new, and
            // the trail slot is written always and kept only for a new assignment.
            let implied = &lists[code].binaries;
            trail.reserve(implied.len());
            let mut length = trail.len();
            let slots = trail.spare_capacity_mut().as_mut_ptr();
            let why = BINARY_REASON | code as u32;
            for &other in implied {
                let was = value(values, other.code());
                if was == FALSE {
                    conflict = Some(Conflict::Binary(false_lit, other));
                    break;
                }
                let fresh = was == UNSET;
                let v = other.var().index();
                values[other.code()] = TRUE;
                values[(!other).code()] = FALSE;
                let new = usize::from(fresh).wrapping_neg(); // all ones if fresh
                let slot = v & new | scratch & !new;
                level[slot] = current;
                reason[slot] = why;
                // SAFETY: at most `implied.len()` slots are written past the old length,
                // and that many were reserved above.
                unsafe { (*slots.add(length - trail.len())).write(other) };
                length += usize::from(fresh);
            }
            // SAFETY: the slots up to `length` were written above.
            unsafe { trail.set_len(length) };
            if conflict.is_some() {
                break;
            }

            let mut list = std::mem::take(&mut lists[code].watches);
            let (mut i, mut j) = (0, 0);
            let end = list.len();
            'watches: while i < end {
                let w = list[i];
                i += 1;
                if value(values, w.blocker.code()) == TRUE {
                    list[j] = w;
                    j += 1;
                    continue;
                }
                let c = w.clause as usize;
                debug_assert!(c + HEADER + 2 <= arena.len());
                // SAFETY: `c` is a clause header in the arena (above); its length word
                // counts the literals that follow it.
                let clause = unsafe {
                    if *arena.get_unchecked(c + 1) & DELETED != 0 {
                        continue;
                    }
                    let len = *arena.get_unchecked(c) as usize;
                    debug_assert!(c + HEADER + len <= arena.len());
                    std::slice::from_raw_parts_mut(arena.as_mut_ptr().add(c + HEADER), len)
                };
                if clause[0] == code as u32 {
                    clause.swap(0, 1);
                }
                let first = Lit::from_code(clause[0] as usize);
                let kept = Watch {
                    clause: w.clause,
                    blocker: first,
                };
                if first != w.blocker && value(values, first.code()) == TRUE {
                    list[j] = kept;
                    j += 1;
                    continue;
                }
                let not_false = |clause: &[u32], from: usize, to: usize| {
                    (from..to).find(|&k| value(values, clause[k] as usize) != FALSE)
                };
                // A long clause resumes where its last search stopped and goes round to it
                // (Gent 2013, "Optimal implementation of watched literals and more general
                // techniques", JAIR 48) instead of rescanning from its start each time.
                let found = if clause.len() <= SHORT_CLAUSE {
                    not_false(clause, FIRST_UNWATCHED, clause.len())
                } else {
                    // SAFETY: the position word is a header word (`SEARCH_POS < HEADER`),
                    // outside `clause`. It holds an index in `FIRST_UNWATCHED..len` (set by
                    // `attach_new`, reset when the clause shrinks); were it not, `clause[k]`
                    // would panic.
                    let pos = unsafe { &mut *arena.as_mut_ptr().add(c + SEARCH_POS) };
                    let start = *pos as usize;
                    let found = not_false(clause, start, clause.len())
                        .or_else(|| not_false(clause, FIRST_UNWATCHED, start));
                    if let Some(k) = found {
                        *pos = k as u32;
                    }
                    found
                };
                if let Some(k) = found {
                    let other = clause[k] as usize;
                    clause.swap(1, k);
                    lists[other].watches.push(kept);
                    continue 'watches;
                }
                list[j] = kept;
                j += 1;
                if value(values, first.code()) == UNSET {
                    let v = first.var().index();
                    values[first.code()] = TRUE;
                    values[(!first).code()] = FALSE;
                    level[v] = current;
                    reason[v] = w.clause;
                    trail.push(first);
                } else {
                    conflict = Some(Conflict::Clause(w.clause));
                    while i < end {
                        list[j] = list[i];
                        j += 1;
                        i += 1;
                    }
                }
            }
            list.truncate(j);
            lists[code].watches = list;
            if conflict.is_some() {
                break;
            }
        }
        conflict
    }

    /// The literals of `reason` other than the one it implied, into `out`.
    fn reason_lits(&mut self, reason: u32, out: &mut Vec<Lit>) {
        out.clear();
        if reason & BINARY_REASON != 0 {
            out.push(Lit::from_code((reason & !BINARY_REASON) as usize));
        } else {
            let c = reason as usize;
            if self.arena[c + 1] & LEARNT != 0 {
                self.arena[c + 1] |= USED;
            }
            let len = self.arena[c] as usize;
            out.extend(
                self.arena[c + HEADER + 1..c + HEADER + len]
                    .iter()
                    .map(|&code| Lit::from_code(code as usize)),
            );
        }
    }

    fn bump(&mut self, v: usize) {
        self.activity[v] += self.var_inc;
        if self.activity[v] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// First-UIP analysis of `conflict` into `self.learnt` (asserting literal first, a
    /// literal of the backjump level second); returns the backjump level and the LBD.
    fn analyze(&mut self, conflict: Conflict) -> (u32, u32) {
        let mut antecedent = std::mem::take(&mut self.antecedent);
        antecedent.clear();
        match conflict {
            Conflict::Binary(a, b) => antecedent.extend([a, b]),
            Conflict::Clause(c) => {
                if self.arena[c as usize + 1] & LEARNT != 0 {
                    self.arena[c as usize + 1] |= USED;
                }
                self.lits_of(c, &mut antecedent);
            }
        }
        self.learnt.clear();
        self.learnt.push(Lit::from_code(0));
        let current = self.decision_level();
        let mut path = 0usize;
        let mut index = self.trail.len();
        let asserting = loop {
            for &q in &antecedent {
                let v = q.var().index();
                if self.seen[v] == 0 && self.level[v] > 0 {
                    self.bump(v);
                    self.seen[v] = 1;
                    if self.level[v] >= current {
                        path += 1;
                    } else {
                        self.learnt.push(q);
                    }
                }
            }
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[p.var().index()] != 0 {
                    break p;
                }
            };
            let v = p.var().index();
            self.seen[v] = 0;
            path -= 1;
            if path == 0 {
                break p;
            }
            let reason = self.reason[v];
            self.reason_lits(reason, &mut antecedent);
        };
        self.learnt[0] = !asserting;
        self.antecedent = antecedent;

        // Minimise: drop literals implied by the others (recursively, within the levels of
        // the clause, filtered by an abstraction of those levels).
        self.to_clear.clear();
        self.to_clear.extend_from_slice(&self.learnt);
        let abstract_levels = self.learnt[1..]
            .iter()
            .fold(0u32, |acc, l| acc | self.abstract_level(l.var().index()));
        let mut kept = 1;
        for i in 1..self.learnt.len() {
            let lit = self.learnt[i];
            if self.reason[lit.var().index()] == NO_REASON || !self.redundant(lit, abstract_levels)
            {
                self.learnt[kept] = lit;
                kept += 1;
            }
        }
        self.learnt.truncate(kept);
        if self.learnt.len() > 2 && self.shrinking.worth_trying(self.conflicts) {
            self.shrink(abstract_levels);
        }
        for i in 0..self.to_clear.len() {
            let v = self.to_clear[i].var().index();
            self.seen[v] = 0;
        }
        if self.learnt.len() > 2 && self.learnt.len() <= BINARY_MINIMIZE_MAX {
            self.minimize_by_binaries();
        }

        // Backjump level: the highest level among the other literals, put second.
        let mut backjump = 0;
        if self.learnt.len() > 1 {
            let mut max_i = 1;
            for i in 2..self.learnt.len() {
                if self.level[self.learnt[i].var().index()]
                    > self.level[self.learnt[max_i].var().index()]
                {
                    max_i = i;
                }
            }
            self.learnt.swap(1, max_i);
            backjump = self.level[self.learnt[1].var().index()];
        }
        let lbd = self.lbd_of_learnt();
        (backjump, lbd)
    }

    /// Shrinks the minimised learnt clause (Feng & Bacchus 2020, "Clause size reduction
    /// with all-UIP learning", SAT; CaDiCaL's `shrink`): the literals of one decision level
    /// are replaced by that level's unique implication point with respect to them, when
    /// the walk back along their reasons meets, below that level, only literals of the
    /// clause or literals the clause implies. The LBD stays; the clause gets shorter. The
    /// result is RUP: the UIP gives back the level's literals by unit propagation.
    fn shrink(&mut self, abstract_levels: u32) {
        let mut lits = std::mem::take(&mut self.learnt);
        let level = &self.level;
        lits[1..].sort_unstable_by_key(|l| std::cmp::Reverse(level[l.var().index()]));
        let mut out = 1;
        let mut i = 1;
        while i < lits.len() {
            let block_level = self.level[lits[i].var().index()];
            let mut j = i + 1;
            while j < lits.len() && self.level[lits[j].var().index()] == block_level {
                j += 1;
            }
            let uip = if j - i >= 2 {
                self.shrinking.tries += 1;
                self.block_uip(&lits[i..j], block_level, abstract_levels)
            } else {
                None
            };
            if let Some(uip) = uip {
                self.shrinking.wins += 1;
                self.shrinking.removed += (j - i - 1) as u64;
                lits[out] = !uip;
                out += 1;
            } else {
                lits.copy_within(i..j, out);
                out += j - i;
            }
            i = j;
        }
        lits.truncate(out);
        self.learnt = lits;
    }

    /// The last literal of `block_level` on the trail through which every path from the
    /// level's decision to the `block` literals goes, when their reasons lean below that
    /// level only on literals of the clause or implied by it (marked in `seen`).
    fn block_uip(&mut self, block: &[Lit], block_level: u32, abstract_levels: u32) -> Option<Lit> {
        let round = self.shrinking.next_round();
        for &lit in block {
            self.shrinking.mark[lit.var().index()] = round;
        }
        let mut open = block.len();
        let start = self.trail_lim[block_level as usize - 1] as usize;
        let mut index = self.trail_lim[block_level as usize] as usize;
        let mut antecedents = std::mem::take(&mut self.shrinking.antecedents);
        let mut uip = None;
        'walk: while index > start {
            index -= 1;
            let t = self.trail[index];
            let v = t.var().index();
            if self.shrinking.mark[v] != round {
                continue;
            }
            open -= 1;
            if open == 0 {
                uip = Some(t);
                break;
            }
            let reason = self.reason[v];
            if reason == NO_REASON {
                break;
            }
            self.reason_lits(reason, &mut antecedents);
            for &l in &antecedents {
                let u = l.var().index();
                let lu = self.level[u];
                if lu == block_level {
                    if self.shrinking.mark[u] != round {
                        self.shrinking.mark[u] = round;
                        open += 1;
                    }
                } else if lu > 0 {
                    match self.seen[u] {
                        POISONED => break 'walk,
                        0 => {
                            let implied = self.reason[u] != NO_REASON
                                && self.abstract_level(u) & abstract_levels != 0
                                && self.redundant(l, abstract_levels);
                            if !implied {
                                self.poison(u);
                                break 'walk;
                            }
                            self.seen[u] = REMOVABLE;
                            self.to_clear.push(l);
                        }
                        _ => {}
                    }
                }
            }
        }
        self.shrinking.antecedents = antecedents;
        uip
    }

    /// Strikes from the learnt clause every literal `¬m` with a binary clause `(a ∨ m)`, `a`
    /// the asserting literal: resolving on `m` leaves the clause without it (Audemard &
    /// Simon's glucose, "binary resolution minimisation"). On Sudoku most clauses are
    /// binary, so the learnt clause often holds such a literal.
    fn minimize_by_binaries(&mut self) {
        let asserting = self.learnt[0];
        for &lit in &self.learnt[1..] {
            self.seen[lit.var().index()] = 1;
        }
        for &m in &self.lists[asserting.code()].binaries {
            let v = m.var().index();
            if self.seen[v] == 1 && self.values[m.code()] == TRUE {
                self.seen[v] = 2;
            }
        }
        // Keep the unstruck literals and clear every mark in the same pass.
        let mut kept = 1;
        for i in 1..self.learnt.len() {
            let lit = self.learnt[i];
            let v = lit.var().index();
            if self.seen[v] != 2 {
                self.learnt[kept] = lit;
                kept += 1;
            }
            self.seen[v] = 0;
        }
        self.learnt.truncate(kept);
    }

    fn abstract_level(&self, v: usize) -> u32 {
        1 << (self.level[v] & 31)
    }

    /// Whether `lit` (false, in the learnt clause) is implied by the clause's other literals.
    ///
    /// Depth first along one path of antecedents; a variable shown implied is marked
    /// `REMOVABLE`, and when a path fails, every variable on it is marked `POISONED`, so
    /// that later queries of the same clause stop there instead of exploring it again
    /// (Van Gelder 2009, "Improved conflict-clause minimization leads to improved
    /// propositional proof traces"; MiniSat's later `litRedundant` and CaDiCaL do the
    /// same). On 64×64 grids the implication chains are long, and the repeated failing
    /// explorations were most of conflict analysis.
    fn redundant(&mut self, lit: Lit, abstract_levels: u32) -> bool {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut v = lit.var().index();
        let mut next = 0usize;
        let result = loop {
            let reason = self.reason[v];
            let Some(l) = self.antecedent_lit(reason, next) else {
                // Every antecedent of `v` is implied: so is `v`.
                if v != lit.var().index() {
                    self.seen[v] = REMOVABLE;
                    self.to_clear.push(Lit::from_code(2 * v));
                }
                match path.pop() {
                    Some((parent, index)) => {
                        v = parent as usize;
                        next = index as usize;
                        continue;
                    }
                    None => break true,
                }
            };
            next += 1;
            let u = l.var().index();
            let mark = self.seen[u];
            if mark == REMOVABLE || self.level[u] == 0 {
                continue;
            }
            if mark == POISONED
                || self.reason[u] == NO_REASON
                || self.abstract_level(u) & abstract_levels == 0
            {
                // `v` and every variable on the path to it depend on `u`, which is not
                // implied by the clause.
                for &(w, _) in path.iter().skip(1) {
                    self.poison(w as usize);
                }
                if v != lit.var().index() {
                    self.poison(v);
                }
                break false;
            }
            path.push((v as u32, next as u32));
            v = u;
            next = 0;
        };
        self.path = path;
        result
    }

    fn poison(&mut self, v: usize) {
        self.seen[v] = POISONED;
        self.to_clear.push(Lit::from_code(2 * v));
    }

    /// The `index`-th literal of `reason` other than the one it implied, if any. Reading a
    /// reason here does not mark it used: minimisation is no use of a clause that keeps it
    /// in the database (as in MiniSat and CaDiCaL; 48 gecode draws measured the same
    /// either way, BENCHMARKS.md).
    fn antecedent_lit(&self, reason: u32, index: usize) -> Option<Lit> {
        if reason & BINARY_REASON != 0 {
            return (index == 0).then(|| Lit::from_code((reason & !BINARY_REASON) as usize));
        }
        let c = reason as usize;
        let len = self.arena[c] as usize;
        (index + 1 < len).then(|| Lit::from_code(self.arena[c + HEADER + 1 + index] as usize))
    }

    fn lbd_of_learnt(&mut self) -> u32 {
        let learnt = std::mem::take(&mut self.learnt);
        let lbd = self.lbd_of(&learnt);
        self.learnt = learnt;
        lbd
    }

    /// The number of distinct decision levels among `lits`.
    fn lbd_of(&mut self, lits: &[Lit]) -> u32 {
        self.stamp += 1;
        let levels = self.decision_level() as usize + 1;
        if self.level_stamp.len() < levels {
            self.level_stamp.resize(levels, 0);
        }
        let mut lbd = 0;
        for &lit in lits {
            let l = self.level[lit.var().index()] as usize;
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                lbd += 1;
            }
        }
        lbd
    }

    /// Unit propagation, then the native Sudoku propagation (when set), until neither
    /// finds anything new.
    fn propagate_all(&mut self) -> Native {
        loop {
            if let Some(conflict) = self.propagate() {
                return Native::Conflict(conflict);
            }
            if self.propagator.is_none() {
                return Native::Fixpoint;
            }
            match self.propagate_native() {
                Native::Progress => continue,
                other => return other,
            }
        }
    }

    /// One round of the native propagator: each explanation clause is added as a learnt
    /// clause (logged in the proof) and becomes the reason of the literal it implies, or
    /// the conflict.
    fn propagate_native(&mut self) -> Native {
        let mut sudoku = self.propagator.take().expect("called with a propagator");
        let mut explanations = std::mem::take(&mut self.explanations);
        sudoku.propagate(&self.trail, &self.values, &mut explanations);
        self.propagator = Some(sudoku);
        let mut clause = std::mem::take(&mut self.stack);
        let mut result = Native::Fixpoint;
        for i in 0..explanations.len() {
            clause.clear();
            clause.extend_from_slice(explanations.clause(i));
            debug_assert!(clause
                .iter()
                .skip(1)
                .all(|&l| self.values[l.code()] == FALSE));
            let step = match clause.first().map(|&l| self.value(l)) {
                Some(TRUE) => continue,
                Some(UNSET) => self.explained_propagation(&mut clause),
                _ => self.explained_conflict(&mut clause),
            };
            match step {
                // Assigned without leaving the level: the rest of the batch still holds.
                Native::Fixpoint => result = Native::Progress,
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.stack = clause;
        self.explanations = explanations;
        result
    }

    /// Asserts `clause[0]` with `clause` (the rest false) as its reason; `Fixpoint` when
    /// it stayed on this level, `Progress` when a unit sent the search to the root.
    fn explained_propagation(&mut self, clause: &mut [Lit]) -> Native {
        self.native_clauses += 1;
        if let Some(proof) = &mut self.proof {
            proof.add(clause);
        }
        if clause.len() == 1 {
            self.cancel_until(0);
            self.assign(clause[0], NO_REASON);
            return Native::Progress;
        }
        let top = (1..clause.len())
            .max_by_key(|&k| self.level[clause[k].var().index()])
            .expect("two literals or more");
        clause.swap(1, top);
        if clause.len() == 2 {
            self.add_binary(clause[0], clause[1]);
            self.assign(clause[0], BINARY_REASON | clause[1].code() as u32);
        } else {
            // Rated no better than LBD 3: explanations are re-derived on demand, so they
            // need not be kept for good.
            // The implied literal counts on this level (it is not assigned yet).
            let lbd = (self.lbd_of(&clause[1..]) + 1).max(3);
            let c = self.attach_new(clause, true, lbd);
            self.assign(clause[0], c);
        }
        Native::Fixpoint
    }

    /// `clause` is false: backjumps to the level where it became false and hands it to
    /// conflict analysis.
    fn explained_conflict(&mut self, clause: &mut [Lit]) -> Native {
        self.native_clauses += 1;
        if let Some(proof) = &mut self.proof {
            proof.add(clause);
        }
        if clause.is_empty() {
            return Native::Refuted;
        }
        clause.sort_unstable_by_key(|l| std::cmp::Reverse(self.level[l.var().index()]));
        let top = self.level[clause[0].var().index()];
        if top == 0 {
            return Native::Refuted;
        }
        if clause.len() == 1 {
            self.cancel_until(0);
            self.assign(clause[0], NO_REASON);
            return Native::Progress;
        }
        self.cancel_until(top);
        if clause.len() == 2 {
            self.add_binary(clause[0], clause[1]);
            Native::Conflict(Conflict::Binary(clause[0], clause[1]))
        } else {
            let lbd = self.lbd_of(clause).max(3);
            Native::Conflict(Conflict::Clause(self.attach_new(clause, true, lbd)))
        }
    }

    /// Adds a long clause to the arena and watches its first two literals.
    fn attach_new(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        let c = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena
            .push(if learnt { LEARNT } else { 0 } | lbd.min(1 << 20) << LBD_SHIFT);
        self.arena.push(FIRST_UNWATCHED as u32);
        self.arena.extend(lits.iter().map(|l| l.code() as u32));
        self.watch(c);
        if learnt {
            self.learnts.push(c);
        } else {
            self.originals.push(c);
        }
        c
    }

    fn watch(&mut self, c: u32) {
        let lits = self.clause_lits(c);
        let (a, b) = (
            Lit::from_code(lits[0] as usize),
            Lit::from_code(lits[1] as usize),
        );
        self.lists[a.code()].watches.push(Watch {
            clause: c,
            blocker: b,
        });
        self.lists[b.code()].watches.push(Watch {
            clause: c,
            blocker: a,
        });
    }

    fn add_binary(&mut self, a: Lit, b: Lit) {
        self.lists[a.code()].binaries.push(b);
        self.lists[b.code()].binaries.push(a);
    }

    /// Learns `self.learnt` after backjumping: logs it and asserts its first literal.
    fn learn(&mut self, lbd: u32) {
        self.learnt_count += 1;
        if let Some(proof) = &mut self.proof {
            proof.add(&self.learnt);
        }
        let learnt = std::mem::take(&mut self.learnt);
        match learnt.len() {
            1 => self.assign(learnt[0], NO_REASON),
            2 => {
                self.add_binary(learnt[0], learnt[1]);
                self.assign(learnt[0], BINARY_REASON | learnt[1].code() as u32);
            }
            _ => {
                let c = self.attach_new(&learnt, true, lbd);
                self.assign(learnt[0], c);
            }
        }
        self.learnt = learnt;
    }

    fn is_locked(&self, c: u32) -> bool {
        let first = self.arena[c as usize + HEADER] as usize;
        self.values[first] == TRUE && self.reason[first >> 1] == c
    }

    fn delete_clause(&mut self, c: u32) {
        let ci = c as usize;
        self.arena[ci + 1] |= DELETED;
        self.garbage += HEADER + self.arena[ci] as usize;
        if self.proof.is_some() {
            let mut lits = std::mem::take(&mut self.antecedent);
            self.lits_of(c, &mut lits);
            if let Some(proof) = &mut self.proof {
                proof.delete(&lits);
            }
            self.antecedent = lits;
        }
    }

    /// Drops the less useful half of the learnt clauses rated above "glue".
    fn reduce_db(&mut self) {
        let mut candidates: Vec<(u32, u32, u32)> = Vec::new(); // (lbd, len, clause)
        let mut learnts = std::mem::take(&mut self.learnts);
        for &c in &learnts {
            let meta = self.arena[c as usize + 1];
            let lbd = meta >> LBD_SHIFT;
            if lbd > 2 && !self.is_locked(c) {
                candidates.push((lbd, self.clause_len(c) as u32, c));
            }
        }
        candidates.sort_unstable_by_key(|&(lbd, len, _)| std::cmp::Reverse((lbd, len)));
        let mut removed = 0;
        for &(_, _, c) in &candidates[..candidates.len() / 2] {
            let meta = &mut self.arena[c as usize + 1];
            if *meta & USED != 0 {
                *meta &= !USED;
                continue;
            }
            self.delete_clause(c);
            self.deleted += 1;
            removed += 1;
        }
        for &(_, _, c) in &candidates[candidates.len() / 2..] {
            self.arena[c as usize + 1] &= !USED;
        }
        if removed > 0 {
            learnts.retain(|&c| self.arena[c as usize + 1] & DELETED == 0);
        }
        self.learnts = learnts;
    }

    /// At the root after propagation: removes satisfied clauses, strikes false literals,
    /// compacts the arena and rebuilds the watches.
    fn simplify_root(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let mut lits = Vec::new();
        let mut kept = Vec::new();
        for list in [
            std::mem::take(&mut self.originals),
            std::mem::take(&mut self.learnts),
        ] {
            for c in list {
                let ci = c as usize;
                if self.arena[ci + 1] & DELETED != 0 {
                    continue;
                }
                self.lits_of(c, &mut lits);
                if lits.iter().any(|&l| self.value(l) == TRUE) {
                    // A root reason needs no clause any more: its variable is fixed.
                    if !self.is_locked(c) {
                        if let Some(proof) = &mut self.proof {
                            proof.delete(&lits);
                        }
                    }
                    self.arena[ci + 1] |= DELETED;
                    continue;
                }
                let before = lits.len();
                lits.retain(|&l| self.value(l) == UNSET);
                if lits.len() < before {
                    if let Some(proof) = &mut self.proof {
                        proof.add(&lits);
                        let mut old = Vec::new();
                        old.extend(
                            self.arena[ci + HEADER..ci + HEADER + before]
                                .iter()
                                .map(|&code| Lit::from_code(code as usize)),
                        );
                        proof.delete(&old);
                    }
                    if lits.len() == 2 {
                        self.arena[ci + 1] |= DELETED;
                        self.add_binary(lits[0], lits[1]);
                        continue;
                    }
                    self.arena[ci] = lits.len() as u32;
                    self.arena[ci + SEARCH_POS] = FIRST_UNWATCHED as u32;
                    for (k, l) in lits.iter().enumerate() {
                        self.arena[ci + HEADER + k] = l.code() as u32;
                    }
                }
                kept.push(c);
            }
            kept.push(u32::MAX); // separates originals from learnts
        }
        // Root variables need no reasons: their clauses may move or go.
        for &lit in &self.trail {
            self.reason[lit.var().index()] = NO_REASON;
        }
        // Compact the arena.
        let mut arena = Vec::with_capacity(self.arena.len() - self.garbage.min(self.arena.len()));
        let mut originals = Vec::new();
        let mut learnts = Vec::new();
        let mut into_learnts = false;
        for c in kept {
            if c == u32::MAX {
                into_learnts = true;
                continue;
            }
            let ci = c as usize;
            let len = self.arena[ci] as usize;
            let new = arena.len() as u32;
            arena.extend_from_slice(&self.arena[ci..ci + HEADER + len]);
            if into_learnts {
                learnts.push(new);
            } else {
                originals.push(new);
            }
        }
        self.arena = arena;
        self.garbage = 0;
        self.originals = originals;
        self.learnts = learnts;
        for list in &mut self.lists {
            list.watches.clear();
        }
        for i in 0..self.originals.len() {
            self.watch(self.originals[i]);
        }
        for i in 0..self.learnts.len() {
            self.watch(self.learnts[i]);
        }
        // Binary clauses with an assigned literal are satisfied at the root.
        for code in 0..2 * self.num_vars {
            if self.values[code] != UNSET {
                self.lists[code].binaries.clear();
            } else {
                let values = &self.values;
                self.lists[code]
                    .binaries
                    .retain(|l| values[l.code()] == UNSET);
            }
        }
        self.simplified_root = self.trail.len();
        self.next_simplify = self.propagations + self.arena.len() as u64;
    }

    /// Root conflict: logs the empty clause.
    fn refuted(&mut self) {
        self.inconsistent = true;
        if let Some(proof) = &mut self.proof {
            proof.add(&[]);
        }
    }

    fn pick_branch(&mut self) -> Option<Lit> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.values[2 * v] == UNSET {
                let positive = if self.modes.stable {
                    self.modes.target_phase[v]
                } else {
                    self.phase[v]
                };
                return Some(Var::from_index(v).lit(positive));
            }
        }
        None
    }

    /// Records the first `safe` trail literals (conflict-free) as target and best phases
    /// when they are the longest such assignment so far.
    fn update_target_and_best(&mut self, safe: usize) {
        let modes = &mut self.modes;
        let prefix = &self.trail[..safe];
        for (phases, assigned) in [
            (&mut modes.target_phase, &mut modes.target_assigned),
            (&mut modes.best_phase, &mut modes.best_assigned),
        ] {
            if safe > *assigned {
                *assigned = safe;
                for &lit in prefix {
                    phases[lit.var().index()] = lit.is_positive();
                }
            }
        }
    }

    /// At a restart (and before the first search): switches mode when the run is over,
    /// schedules the next stable restart, and rephases when due.
    fn between_restarts(&mut self) {
        let modes = &mut self.modes;
        if modes.next_switch == 0 {
            modes.run_length = FIRST_MODE_RUN;
            modes.next_switch = self.conflicts + FIRST_MODE_RUN;
            modes.next_rephase = self.conflicts + REPHASE_INTERVAL;
        } else if self.conflicts >= modes.next_switch {
            modes.stable = !modes.stable;
            modes.switches += 1;
            modes.run_length *= 2;
            modes.next_switch = self.conflicts + modes.run_length;
            modes.luby_index = 0;
            std::mem::swap(&mut self.averages, &mut modes.other_averages);
        }
        if modes.stable {
            modes.luby_index += 1;
            modes.next_stable_restart =
                self.conflicts + STABLE_RESTART_UNIT * luby(modes.luby_index);
        }
        if self.conflicts >= modes.next_rephase {
            // Back to the best assignment seen, as a fresh start for the target phases.
            modes.rephases += 1;
            modes.next_rephase = self.conflicts + REPHASE_INTERVAL * (modes.rephases + 1);
            self.phase.copy_from_slice(&modes.best_phase);
            modes.best_assigned = 0;
            modes.target_assigned = 0;
        }
    }

    /// After the assumption `p` is found false: the assumptions that imply `¬p`, into
    /// `self.failed` (`p` included).
    fn analyze_final(&mut self, p: Lit) {
        self.failed.clear();
        self.failed.push(p);
        if self.decision_level() == 0 {
            return;
        }
        self.seen[p.var().index()] = 1;
        let start = self.trail_lim[0] as usize;
        let mut reason_buf = Vec::new();
        for i in (start..self.trail.len()).rev() {
            let lit = self.trail[i];
            let v = lit.var().index();
            if self.seen[v] == 0 {
                continue;
            }
            if self.reason[v] == NO_REASON {
                // A decision here is an assumption, `¬p` included when both were assumed
                // (leaving it out named a set the formula does not refute).
                self.failed.push(lit);
            } else {
                self.reason_lits(self.reason[v], &mut reason_buf);
                for &l in &reason_buf {
                    if self.level[l.var().index()] > 0 {
                        self.seen[l.var().index()] = 1;
                    }
                }
            }
            self.seen[v] = 0;
        }
        self.seen[p.var().index()] = 0;
    }

    /// Failed-literal probing at the root over the literals of the clauses with a positive
    /// literal (on Sudoku: the "at least one" clauses), round after round until a round finds
    /// none. Each failure is analysed like a conflict, so the unit learnt is the first UIP
    /// (at least as strong as the probed literal's negation). Probing gives up when a run
    /// of [`PROBE_STALL`] probes or more without a failure is longer than every probe
    /// before it. `false` on a root conflict.
    fn probe_root(&mut self, deadline: &Deadline) -> bool {
        if self.propagate().is_some() {
            return false;
        }
        let mut candidates: Vec<Lit> = Vec::new();
        let mut marked = vec![false; 2 * self.num_vars];
        for clause in self.original.clauses() {
            if clause.len() < 2 || !clause.iter().any(|l| l.is_positive()) {
                continue;
            }
            if clause.iter().any(|&l| self.values[l.code()] == TRUE) {
                continue;
            }
            for &l in clause {
                if self.values[l.code()] == UNSET && !marked[l.code()] {
                    marked[l.code()] = true;
                    candidates.push(l);
                }
            }
        }
        let mut round = 0;
        let (mut probes, mut last_failure) = (0u64, 0u64);
        loop {
            round += 1;
            let mark = self.trail.len();
            for (i, &lit) in candidates.iter().enumerate() {
                if i % 1024 == 1023 && deadline.expired() {
                    return true;
                }
                if self.value(lit) != UNSET {
                    continue;
                }
                let streak = probes - last_failure;
                if streak >= PROBE_STALL && streak > last_failure {
                    return true;
                }
                probes += 1;
                self.probes += 1;
                self.new_decision_level();
                self.assign(lit, NO_REASON);
                match self.propagate() {
                    None => self.cancel_until(0),
                    Some(conflict) => {
                        last_failure = probes;
                        self.failed_literals += 1;
                        self.conflicts += 1;
                        let (_, lbd) = self.analyze(conflict);
                        self.cancel_until(0);
                        self.learn(lbd);
                        if self.propagate().is_some() {
                            return false;
                        }
                    }
                }
            }
            if self.trail.len() == mark || round >= 64 {
                return true;
            }
            // Probe again only the literals of clauses that lost a literal this round.
            candidates.retain(|&l| self.values[l.code()] == UNSET);
        }
    }

    fn search(&mut self, assumptions: &[Lit], deadline: &Deadline) -> Search {
        let mut conflicts_here = 0u64;
        let mut until_clock = CLOCK_INTERVAL;
        loop {
            let conflict = match self.propagate_all() {
                Native::Conflict(conflict) => Some(conflict),
                Native::Refuted => return Search::Unsat,
                _ => None,
            };
            if let Some(conflict) = conflict {
                self.conflicts += 1;
                conflicts_here += 1;
                if self.decision_level() == 0 {
                    return Search::Unsat;
                }
                let (backjump, lbd) = self.analyze(conflict);
                let safe = self.trail_lim[self.decision_level() as usize - 1] as usize;
                self.update_target_and_best(safe);
                self.cancel_until(backjump);
                self.learn(lbd);
                self.var_inc /= VAR_DECAY;
                self.averages.add(lbd);
            } else {
                let restart = if self.modes.stable {
                    self.conflicts >= self.modes.next_stable_restart
                } else {
                    conflicts_here >= RESTART_MIN_CONFLICTS && self.averages.getting_worse()
                } || self.conflicts >= self.modes.next_switch.min(self.fork_by);
                if restart {
                    self.update_target_and_best(self.trail.len());
                    self.cancel_until(0);
                    self.between_restarts();
                    return Search::Restart;
                }
                if self.conflicts >= self.next_reduce {
                    self.reduce_interval += REDUCE_INCREMENT;
                    self.next_reduce = self.conflicts + self.reduce_interval;
                    self.reduce_db();
                }
                let mut next = None;
                while (self.decision_level() as usize) < assumptions.len() {
                    let p = assumptions[self.decision_level() as usize];
                    match self.value(p) {
                        TRUE => self.new_decision_level(),
                        FALSE => {
                            self.analyze_final(p);
                            return Search::UnsatUnderAssumptions;
                        }
                        _ => {
                            next = Some(p);
                            break;
                        }
                    }
                }
                let lit = match next {
                    Some(lit) => lit,
                    // Everything assigned without a conflict: a model. Checked before the
                    // heap, which would otherwise be drained one pop per assigned variable
                    // (most of a 9×9 solve that propagation settles).
                    None if self.trail.len() == self.num_vars => return Search::Sat,
                    None => match self.pick_branch() {
                        Some(lit) => {
                            self.decisions += 1;
                            lit
                        }
                        None => return Search::Sat,
                    },
                };
                self.new_decision_level();
                self.assign(lit, NO_REASON);
            }
            until_clock -= 1;
            if until_clock == 0 {
                until_clock = CLOCK_INTERVAL;
                if deadline.expired() || self.stopped() {
                    return Search::TimedOut;
                }
            } else if until_clock % STOP_INTERVAL == 0
                && self
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                // Another member answered: a race on small formulas waits for this.
                return Search::TimedOut;
            }
        }
    }

    /// Reserves, fallibly, the big buffers the pending clauses and variables need, so that
    /// a formula too large for the memory is an error rather than an abort.
    fn reserve_pending(&mut self) -> Result<(), ReserveError> {
        let clauses = self.original.num_clauses() - self.loaded;
        let literals = self.original.num_literals() - self.original.literals_before(self.loaded);
        let vars = self.original.num_vars().saturating_sub(self.num_vars);
        try_reserve(
            &mut self.arena,
            literals + HEADER * clauses,
            "the clause arena",
        )?;
        try_reserve(&mut self.lists, 2 * vars, "the watch and implication lists")?;
        try_reserve(&mut self.values, 2 * vars, "the assignment")?;
        for (buffer, what) in [
            (&mut self.level, "the decision levels"),
            (&mut self.reason, "the reasons"),
        ] {
            try_reserve(buffer, vars, what)?;
        }
        try_reserve(&mut self.activity, vars, "the activities")
    }

    /// Loads the clauses added since the last solve (simplified against the root).
    fn load_pending(&mut self) {
        self.cancel_until(0);
        self.grow(self.original.num_vars());
        let mut lits = Vec::new();
        for index in self.loaded..self.original.num_clauses() {
            if self.inconsistent {
                break;
            }
            let clause = self.original.clause(index);
            // Fast path for the bulk of Sudoku formulas: an open binary clause.
            if let [a, b] = *clause {
                if a.var() != b.var()
                    && self.values[a.code()] == UNSET
                    && self.values[b.code()] == UNSET
                {
                    self.add_binary(a, b);
                    continue;
                }
            }
            lits.clear();
            let mut satisfied = false;
            let mut shortened = false;
            for &lit in clause {
                match self.values[lit.code()] {
                    TRUE => {
                        satisfied = true;
                        break;
                    }
                    FALSE => shortened = true,
                    _ => {
                        if lits.contains(&!lit) {
                            satisfied = true;
                            break;
                        }
                        if lits.contains(&lit) {
                            shortened = true;
                        } else {
                            lits.push(lit);
                        }
                    }
                }
            }
            if satisfied {
                continue;
            }
            if shortened && lits.len() > 1 {
                if let Some(proof) = &mut self.proof {
                    proof.add(&lits);
                }
            }
            match lits.len() {
                0 => self.refuted(),
                1 => {
                    self.assign(lits[0], NO_REASON);
                    if self.propagate().is_some() {
                        self.refuted();
                    }
                }
                2 => self.add_binary(lits[0], lits[1]),
                _ => {
                    self.attach_new(&lits, false, 0);
                }
            }
        }
        self.loaded = self.original.num_clauses();
    }

    fn proof_error(&mut self, error: std::io::Error) -> BackendError {
        BackendError::Io {
            solver: "cdcl".to_string(),
            source: error,
        }
    }

    /// Searches until an answer, the deadline, another portfolio member's answer or the
    /// fork.
    fn run(&mut self, assumptions: &[Lit], deadline: &Deadline) -> Ended {
        loop {
            match self.search(assumptions, deadline) {
                Search::Restart => {
                    self.restarts += 1;
                    // Simplify only between search episodes: a puzzle settled without a
                    // restart never pays for the pass over every clause.
                    if self.trail.len() > self.simplified_root
                        && self.propagations >= self.next_simplify
                        || self.garbage > self.arena.len() / 2
                    {
                        self.simplify_root();
                    }
                    if self.conflicts >= self.fork_at {
                        return Ended::Fork;
                    }
                }
                Search::Sat => return Ended::Sat,
                Search::Unsat => {
                    self.refuted();
                    return Ended::Unsat;
                }
                Search::UnsatUnderAssumptions => {
                    self.cancel_until(0);
                    return Ended::UnsatUnderAssumptions;
                }
                Search::TimedOut => {
                    self.cancel_until(0);
                    return Ended::TimedOut;
                }
            }
            if deadline.expired() || self.stopped() {
                return Ended::TimedOut;
            }
        }
    }

    /// Whether this solve may go to the lookahead search ([`crate::backend::lookahead`])
    /// once CDCL has spent its budget of conflicts ([`VARS_PER_CONFLICT_BEFORE_LOOKAHEAD`]):
    /// the first solve of a formula of at most [`LOOKAHEAD_SEARCH_MAX_VARS`] variables
    /// ([`LOOKAHEAD_RACE_MAX_VARS`] when it races CDCL on several threads) whose
    /// clauses all have the same length k in [`LOOKAHEAD_SEARCH_CLAUSE_LENGTHS`] (the shape
    /// of uniform random k-SAT), without assumptions, proof or Sudoku structure, unless
    /// [`Lookahead::None`] asks for CDCL alone. Later solves (after blocking clauses) are
    /// CDCL's.
    fn takes_lookahead_search(&self, assumptions: &[Lit]) -> bool {
        let uniform_length = |k: usize| {
            LOOKAHEAD_SEARCH_CLAUSE_LENGTHS.contains(&k)
                && self.original.clauses().all(|clause| clause.len() == k)
        };
        self.lookahead != Lookahead::None
            && assumptions.is_empty()
            && self.loaded == 0
            && self.proof.is_none()
            && self.factory.is_none()
            && self.original.num_vars()
                <= if self.races_lookahead() {
                    LOOKAHEAD_RACE_MAX_VARS
                } else {
                    LOOKAHEAD_SEARCH_MAX_VARS
                }
            && self.original.num_clauses() > 0
            && uniform_length(self.original.clause(0).len())
    }

    /// Whether a handover to the lookahead search is a race against CDCL: on several
    /// threads, outside a portfolio.
    fn races_lookahead(&self) -> bool {
        self.threads > 1 && self.stop.is_none()
    }

    /// Solves by lookahead.
    fn lookahead_search(&mut self, deadline: &Deadline) -> Result<SatOutcome, BackendError> {
        let mut search = LookaheadSolver::new(&self.original);
        let outcome = search.solve(deadline, self.interrupt.as_deref());
        self.lookahead_answer(outcome, search.counters())
    }

    /// Adds a lookahead search's counters to this solver's.
    fn count_lookahead(&mut self, counters: LookaheadCounters) {
        self.lookahead_searches += 1;
        self.decisions += counters.decisions;
        self.propagations += counters.propagations;
        self.probes += counters.probes;
        self.failed_literals += counters.failed_literals;
    }

    /// The answer of a lookahead search, its counters added to this solver's.
    fn lookahead_answer(
        &mut self,
        outcome: LookaheadOutcome,
        counters: LookaheadCounters,
    ) -> Result<SatOutcome, BackendError> {
        self.count_lookahead(counters);
        outcome.into_answer("cdcl", &self.original, self.trusted, self.time_limit)
    }

    fn solve_inner(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        // From the start: loading a large formula is part of the time a solve takes.
        let deadline = Deadline::after(self.time_limit);
        self.solves += 1;
        self.failed.clear();
        let handover = self.takes_lookahead_search(assumptions);
        self.reserve_pending()
            .map_err(|source| BackendError::OutOfMemory {
                solver: "cdcl".to_string(),
                source,
            })?;
        self.load_pending();
        // Propagation's branch-free writes need the slot past the last variable, also when
        // no clause has named a variable yet (grow makes it otherwise).
        if self.level.len() <= self.num_vars {
            self.level.resize(self.num_vars + 1, 0);
            self.reason.resize(self.num_vars + 1, NO_REASON);
        }
        if self.inconsistent {
            return Ok(SatOutcome::Unsat);
        }
        if self.propagate().is_some() {
            self.refuted();
            return Ok(SatOutcome::Unsat);
        }
        if self.propagator.is_none() {
            if let Some(factory) = &self.factory {
                // With a proof, only inferences a checker can verify by unit propagation.
                self.propagator = factory.create(self.num_vars, self.proof.is_some());
            }
        }
        let probe = self.lookahead.resolve(self.num_vars) != Lookahead::None;
        if probe && self.probed_clauses != self.loaded {
            self.probed_clauses = self.loaded;
            if !self.probe_root(&deadline) {
                self.refuted();
                return Ok(SatOutcome::Unsat);
            }
            // Strip what probing fixed before searching (on the gecode 25×25 set this halves
            // the search time); formulas left unprobed (9×9) do not pay for the pass.
            self.simplify_root();
        }
        for &lit in assumptions {
            self.grow(lit.var().index() + 1);
        }
        if self.modes.next_switch == 0 {
            self.between_restarts();
        }

        // The fork waits for a restart the search makes anyway, so that member 0 goes on
        // exactly as one thread would (a forced restart moved it off that path: a gecode
        // puzzle of 3.9 s on one thread took 15 s); the second interval bounds the wait.
        (self.fork_at, self.fork_by) = if handover {
            let budget = (self.num_vars / VARS_PER_CONFLICT_BEFORE_LOOKAHEAD) as u64;
            (self.conflicts + budget, self.conflicts + budget)
        } else if self.may_fork() {
            let after = self.fork_after.unwrap_or(portfolio::PORTFOLIO_AFTER);
            (self.conflicts + after, self.conflicts + 2 * after)
        } else {
            (u64::MAX, u64::MAX)
        };
        let mut ended = self.run(assumptions, &deadline);
        if let (Ended::Fork, true) = (&ended, handover) {
            if !self.races_lookahead() {
                return self.lookahead_search(&deadline);
            }
            match self.race_lookahead(&deadline) {
                portfolio::RaceEnd::Lookahead(answer) => return answer,
                portfolio::RaceEnd::Cdcl(end) => ended = end,
            }
        }
        if let Ended::Fork = ended {
            ended = self.portfolio(assumptions, &deadline);
        }
        match ended {
            Ended::Sat => {}
            Ended::Unsat | Ended::UnsatUnderAssumptions => return Ok(SatOutcome::Unsat),
            Ended::TimedOut | Ended::Fork => {
                return Err(BackendError::Timeout {
                    solver: "cdcl".to_string(),
                    timeout: self.time_limit.unwrap_or_default(),
                })
            }
        }
        let values = (0..self.num_vars)
            .map(|v| self.values[2 * v] == TRUE)
            .collect();
        let model = Model::from_values(values);
        // The satisfying trail stays until the next solve's load backtracks (or a reset
        // drops it): a batch that resets after each puzzle never pays for undoing it.
        check_model_from("cdcl", &self.original, self.trusted, model)
    }
}

impl ClauseSink for Cdcl {
    /// Buffers the clause; it is loaded at the next [`SatBackend::solve`].
    fn add_clause(&mut self, clause: &[Lit]) {
        self.original.add_clause(clause);
    }

    fn reserve_vars(&mut self, num_vars: usize) {
        self.original.reserve_vars(num_vars);
    }
}

impl SatBackend for Cdcl {
    fn num_vars(&self) -> usize {
        self.original.num_vars()
    }

    fn name(&self) -> String {
        "cdcl".to_string()
    }

    fn add_formula(&mut self, cnf: &mut Cnf) {
        self.original.absorb(cnf);
    }

    fn solve(&mut self) -> Result<SatOutcome, BackendError> {
        self.solve_inner(&[])
    }

    /// Drops the learnt clauses above "glue": in a batch of 9×9 puzzles under assumptions
    /// those learnt on one puzzle rarely serve the next but slow its propagation
    /// (17-clue-2k: 99 → 62 µs a puzzle; over 10,000 puzzles the time per puzzle no longer
    /// doubles as they pile up).
    /// The arena is compacted once half of it is garbage.
    fn forget_learnt(&mut self) {
        self.cancel_until(0);
        let mut learnts = std::mem::take(&mut self.learnts);
        // (The list holds no deleted clause: reductions and compactions prune it.)
        learnts.retain(|&c| {
            if self.arena[c as usize + 1] >> LBD_SHIFT <= 2 || self.is_locked(c) {
                return true;
            }
            self.delete_clause(c);
            self.deleted += 1;
            false
        });
        self.learnts = learnts;
        if self.garbage > self.arena.len() / 2 {
            self.simplify_root();
        }
    }

    fn trust_clauses(&mut self, count: usize) {
        self.trusted = count;
    }

    fn set_shrinking(&mut self, shrink: bool) {
        self.shrinking.enabled = shrink;
    }

    fn counters(&self) -> Counters {
        let mut counters = Counters(vec![
            ("solves", self.solves),
            ("decisions", self.decisions),
            ("propagations", self.propagations),
            ("conflicts", self.conflicts),
            ("learnt", self.learnt_count),
            ("restarts", self.restarts),
            ("mode_switches", self.modes.switches),
            ("rephases", self.modes.rephases),
            ("deleted", self.deleted),
            ("shrink_tries", self.shrinking.tries),
            ("shrunk_levels", self.shrinking.wins),
            ("shrunk_literals", self.shrinking.removed),
            ("probes", self.probes),
            ("failed_literals", self.failed_literals),
            ("explanations", self.native_clauses),
            ("portfolios", self.portfolios),
            ("portfolio_conflicts", self.portfolio_conflicts),
            ("lookahead_searches", self.lookahead_searches),
        ]);
        if let Some(propagator) = &self.propagator {
            counters.add(&propagator.counters());
        } else if let Some(factory) = &self.factory {
            counters
                .0
                .extend(factory.counter_names().iter().map(|&name| (name, 0)));
        }
        counters
    }

    fn reset(&mut self) {
        let codes = 2 * self.num_vars;
        for list in &mut self.lists[..codes] {
            list.watches.clear();
            list.binaries.clear();
        }
        self.num_vars = 0;
        for buffer in [&mut self.level, &mut self.reason, &mut self.trail_lim] {
            buffer.clear();
        }
        self.values.clear();
        self.trail.clear();
        self.queue_head = 0;
        self.arena.clear();
        self.garbage = 0;
        self.originals.clear();
        self.learnts.clear();
        self.activity.clear();
        self.var_inc = 1.0;
        self.heap.clear();
        self.phase.clear();
        self.seen.clear();
        self.original.clear();
        self.loaded = 0;
        self.trusted = 0;
        self.inconsistent = false;
        self.simplified_root = 0;
        self.next_simplify = 0;
        self.failed.clear();
        self.probed_clauses = 0;
        self.proof = None;
        self.propagator = None;
        self.factory = None;
        self.shrinking.enabled = false;
        self.next_reduce = FIRST_REDUCE;
        self.reduce_interval = FIRST_REDUCE;
        self.averages = LbdAverages::default();
        self.modes = Modes::default();
        for counter in [
            &mut self.solves,
            &mut self.decisions,
            &mut self.propagations,
            &mut self.conflicts,
            &mut self.learnt_count,
            &mut self.restarts,
            &mut self.deleted,
            &mut self.probes,
            &mut self.failed_literals,
            &mut self.shrinking.tries,
            &mut self.shrinking.wins,
            &mut self.shrinking.removed,
            &mut self.native_clauses,
            &mut self.portfolios,
            &mut self.portfolio_conflicts,
            &mut self.lookahead_searches,
        ] {
            *counter = 0;
        }
    }

    fn as_time_limited(&mut self) -> Option<&mut dyn LimitTime> {
        Some(self)
    }

    fn as_interruptible(&mut self) -> Option<&mut dyn Interrupt> {
        Some(self)
    }

    fn as_prover(&mut self) -> Option<&mut dyn WriteProofs> {
        Some(self)
    }

    fn as_assumptions(&mut self) -> Option<&mut dyn SolveUnderAssumptions> {
        Some(self)
    }

    fn as_propagating(&mut self) -> Option<&mut dyn ConnectPropagator> {
        Some(self)
    }
}

impl ConnectPropagator for Cdcl {
    fn connect_propagator(&mut self, factory: Option<Arc<dyn PropagatorFactory>>) {
        self.factory = factory;
        self.propagator = None;
    }
}

impl LimitTime for Cdcl {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Interrupt for Cdcl {
    fn set_interrupt(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.interrupt = flag;
    }
}

impl WriteProofs for Cdcl {
    fn set_proof(&mut self, target: Option<ProofTarget>) -> Result<(), BackendError> {
        // Rebuilt at the next solve, restricted (or not) to checkable inferences.
        self.propagator = None;
        self.proof = match target {
            None => None,
            Some(target) => Some(DratWriter::for_target(&target).map_err(|e| self.proof_error(e))?),
        };
        Ok(())
    }
    fn finish_proof(&mut self) -> Result<(), BackendError> {
        match self.proof.as_mut().map(DratWriter::finish) {
            Some(Err(error)) => Err(self.proof_error(error)),
            _ => Ok(()),
        }
    }
}

impl SolveUnderAssumptions for Cdcl {
    fn solve_under(&mut self, assumptions: &[Lit]) -> Result<SatOutcome, BackendError> {
        self.solve_inner(assumptions)
    }
    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::SolveUnderAssumptions;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The models of a formula of few variables, by enumerating every assignment.
    pub(crate) fn brute_force_models(cnf: &Cnf) -> usize {
        let n = cnf.num_vars();
        (0u32..1 << n)
            .filter(|bits| {
                let model = Model::from_values((0..n).map(|i| bits >> i & 1 == 1).collect());
                cnf.first_falsified(&model).is_none()
            })
            .count()
    }

    pub(crate) fn brute_force_sat(cnf: &Cnf) -> bool {
        brute_force_models(cnf) > 0
    }

    /// `clauses` clauses of 1 to `max_len` literals over `vars` variables (repeats and
    /// tautologies included).
    pub(crate) fn random_cnf(
        rng: &mut ChaCha8Rng,
        vars: usize,
        clauses: usize,
        max_len: usize,
    ) -> Cnf {
        let mut cnf = Cnf::with_vars(vars);
        for _ in 0..clauses {
            let len = rng.gen_range(1..=max_len);
            add_random_clause(rng, &mut cnf, len);
        }
        cnf
    }

    /// Uniform random k-SAT: `clauses` clauses of `k` literals (variables may repeat).
    pub(crate) fn random_ksat(rng: &mut ChaCha8Rng, vars: usize, clauses: usize, k: usize) -> Cnf {
        let mut cnf = Cnf::with_vars(vars);
        for _ in 0..clauses {
            add_random_clause(rng, &mut cnf, k);
        }
        cnf
    }

    fn add_random_clause(rng: &mut ChaCha8Rng, cnf: &mut Cnf, len: usize) {
        let vars = cnf.num_vars();
        let clause: Vec<Lit> = (0..len)
            .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen()))
            .collect();
        cnf.add_clause(&clause);
    }

    #[test]
    fn agrees_with_brute_force_on_small_random_formulas() {
        let mut rng = ChaCha8Rng::seed_from_u64(1999);
        for round in 0..400 {
            let vars = rng.gen_range(3..=12);
            let clauses = rng.gen_range(1..=6 * vars);
            let cnf = random_cnf(&mut rng, vars, clauses, 4);
            let expected = brute_force_sat(&cnf);
            for lookahead in [Lookahead::None, Lookahead::Full] {
                let mut cdcl = Cdcl::with_lookahead(lookahead);
                cnf.stream_into(&mut cdcl);
                let outcome = cdcl.solve().expect("cdcl answers");
                assert_eq!(
                    matches!(outcome, SatOutcome::Sat(_)),
                    expected,
                    "round {round}, {lookahead:?}: {cnf:?}"
                );
            }
        }
    }

    /// Random 3-SAT: `clauses` clauses of three distinct variables.
    pub(crate) fn random_3sat(rng: &mut ChaCha8Rng, vars: usize, clauses: usize) -> Cnf {
        let mut cnf = Cnf::with_vars(vars);
        for _ in 0..clauses {
            let mut picked = [0; 3];
            while picked[0] == picked[1] || picked[1] == picked[2] || picked[0] == picked[2] {
                picked = [0, 1, 2].map(|_| rng.gen_range(0..vars));
            }
            cnf.add_clause(&picked.map(|v| Var::from_index(v).lit(rng.gen())));
        }
        cnf
    }

    /// Pigeonhole: `holes + 1` pigeons into `holes` holes is UNSAT and needs real search.
    pub(crate) fn pigeonhole(holes: usize) -> Cnf {
        let pigeons = holes + 1;
        let var = |p: usize, h: usize| Var::from_index(p * holes + h);
        let mut cnf = Cnf::with_vars(pigeons * holes);
        for p in 0..pigeons {
            let clause: Vec<Lit> = (0..holes).map(|h| var(p, h).positive()).collect();
            cnf.add_clause(&clause);
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    cnf.add_clause(&[var(p, h).negative(), var(q, h).negative()]);
                }
            }
        }
        cnf
    }

    #[test]
    fn solves_before_any_variable_is_named() {
        // Propagation writes past the last variable; with none, that slot must still exist.
        for mut cdcl in [Cdcl::new(), Cdcl::default()] {
            assert_eq!(
                cdcl.solve().unwrap(),
                SatOutcome::Sat(Model::from_values(vec![]))
            );
            let x = Var::from_index(0);
            cdcl.add_clause(&[x.positive()]);
            assert_eq!(
                cdcl.solve().unwrap(),
                SatOutcome::Sat(Model::from_values(vec![true]))
            );
            cdcl.add_clause(&[x.negative()]);
            assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat);
        }
    }

    #[test]
    fn refutes_pigeonhole_formulas() {
        for holes in 2..=7 {
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            pigeonhole(holes).stream_into(&mut cdcl);
            assert_eq!(cdcl.solve().unwrap(), SatOutcome::Unsat, "{holes} holes");
            assert!(holes < 4 || cdcl.counters().get("conflicts").unwrap() > 10);
        }
    }

    #[test]
    fn counts_solutions_with_blocking_clauses() {
        // Exactly one of four variables: four models.
        let mut cdcl = Cdcl::new();
        let v: Vec<Lit> = (0..4).map(|i| Var::from_index(i).positive()).collect();
        cdcl.add_clause(&v);
        for i in 0..4 {
            for j in i + 1..4 {
                cdcl.add_clause(&[!v[i], !v[j]]);
            }
        }
        let mut models = 0;
        while let SatOutcome::Sat(model) = cdcl.solve().unwrap() {
            models += 1;
            let blocking: Vec<Lit> = v
                .iter()
                .filter(|&&l| model.satisfies(l))
                .map(|&l| !l)
                .collect();
            cdcl.add_clause(&blocking);
        }
        assert_eq!(models, 4);
    }

    /// Uniform 3-SAT that CDCL does not settle within its budget of conflicts goes to the
    /// lookahead search, on the first solve only; `Lookahead::None` and assumptions keep
    /// CDCL, and so does a formula that a few conflicts settle.
    #[test]
    fn uniform_3sat_goes_to_the_lookahead_search_when_cdcl_does_not_settle_it() {
        let searches = |cdcl: &Cdcl| cdcl.counters().get("lookahead_searches").unwrap();
        let is_sat = |outcome: SatOutcome| matches!(outcome, SatOutcome::Sat(_));
        let mut rng = ChaCha8Rng::seed_from_u64(2004);
        let (mut handed_over, mut sat, mut unsat) = (0, 0, 0);
        for round in 0..20 {
            let cnf = random_3sat(&mut rng, 120, 511);
            let mut cdcl = Cdcl::new();
            cnf.stream_into(&mut cdcl);
            let answer = is_sat(cdcl.solve().unwrap());
            handed_over += searches(&cdcl);
            // (The budget ends at the next point without a conflict.)
            let budget = 120 / VARS_PER_CONFLICT_BEFORE_LOOKAHEAD as u64;
            assert!(cdcl.conflicts < 2 * budget, "{} conflicts", cdcl.conflicts);
            let mut plain = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut plain);
            assert_eq!(is_sat(plain.solve().unwrap()), answer, "round {round}");
            let mut assuming = Cdcl::new();
            cnf.stream_into(&mut assuming);
            assuming
                .solve_under(&[Var::from_index(0).positive()])
                .unwrap();
            assert_eq!(searches(&plain) + searches(&assuming), 0, "round {round}");
            if answer {
                sat += 1;
            } else {
                unsat += 1;
            }
        }
        assert!(
            handed_over >= 15,
            "only {handed_over} of 20 went to the lookahead"
        );
        assert!(sat > 2 && unsat > 2, "{sat} SAT, {unsat} UNSAT");
        // Uniform 5-SAT goes over too; 7-SAT, and clauses of mixed lengths, do not.
        for (k, ratio, expected) in [(5, 21.1, 1), (7, 87.8, 0)] {
            let cnf = random_ksat(&mut rng, 40, (40.0 * ratio) as usize, k);
            let mut cdcl = Cdcl::new();
            cnf.stream_into(&mut cdcl);
            cdcl.solve().unwrap();
            assert_eq!(searches(&cdcl), expected, "{k}-SAT");
        }
        let mut mixed = random_3sat(&mut rng, 120, 511);
        mixed.add_clause(&[0, 1, 2, 3].map(|v| Var::from_index(v).positive()));
        let mut cdcl = Cdcl::new();
        mixed.stream_into(&mut cdcl);
        cdcl.solve().unwrap();
        assert_eq!(searches(&cdcl), 0);
        // Far below the threshold CDCL settles the formula within its budget.
        let mut easy = Cdcl::new();
        random_3sat(&mut rng, 1_000, 2_000).stream_into(&mut easy);
        assert!(is_sat(easy.solve().unwrap()));
        assert_eq!(searches(&easy), 0);
    }

    /// Counts the models of 100 small random 3-SAT formulas by blocking clauses on cdcl
    /// with `threads` threads, each count checked against brute force; answers how many
    /// first solves went to the lookahead search (handed over or raced).
    pub(crate) fn counts_after_lookahead_match_brute_force(
        rng: &mut ChaCha8Rng,
        threads: usize,
    ) -> u64 {
        let mut searches = 0;
        for round in 0..100 {
            let vars = rng.gen_range(4..=10);
            let clauses = rng.gen_range(vars..=5 * vars);
            let cnf = random_3sat(rng, vars, clauses);
            let mut cdcl = Cdcl::new().with_threads(threads);
            cnf.stream_into(&mut cdcl);
            let mut models = 0;
            while let SatOutcome::Sat(model) = cdcl.solve().unwrap() {
                models += 1;
                cdcl.add_clause(&model.blocking_clause((0..vars).map(Var::from_index)));
            }
            assert_eq!(models, brute_force_models(&cnf), "round {round}: {cnf:?}");
            searches += cdcl.counters().get("lookahead_searches").unwrap();
        }
        searches
    }

    /// Counting models by blocking clauses after a first solve by lookahead (or by CDCL,
    /// on formulas small enough for no conflict budget) finds every model.
    #[test]
    fn counting_after_the_lookahead_search_finds_every_model() {
        let mut rng = ChaCha8Rng::seed_from_u64(2005);
        let handed_over = counts_after_lookahead_match_brute_force(&mut rng, 1);
        assert!(handed_over > 20, "only {handed_over} went to the lookahead");
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut cdcl = Cdcl::new();
        random_3sat(&mut rng, 300, 1278).stream_into(&mut cdcl);
        cdcl.set_time_limit(Some(Duration::ZERO));
        assert!(matches!(cdcl.solve(), Err(BackendError::Timeout { .. })));
    }

    #[test]
    fn assumptions_give_failed_subsets_and_leave_the_formula_alone() {
        // a → b, b → c; assuming a and ¬c fails on {a, ¬c}, d is irrelevant.
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| Var::from_index(i).positive());
        let mut cdcl = Cdcl::new();
        cdcl.add_clause(&[!a, b]);
        cdcl.add_clause(&[!b, c]);
        cdcl.add_clause(&[a, b, c, d]);
        assert_eq!(cdcl.solve_under(&[d, a, !c]).unwrap(), SatOutcome::Unsat);
        let mut failed = cdcl.failed_assumptions();
        failed.sort();
        let mut expected = vec![a, !c];
        expected.sort();
        assert_eq!(failed, expected);
        // Without the assumptions the formula is satisfiable, and a model under a
        // satisfiable assumption honours it.
        assert!(matches!(cdcl.solve().unwrap(), SatOutcome::Sat(_)));
        match cdcl.solve_under(&[a]).unwrap() {
            SatOutcome::Sat(model) => assert!(model.satisfies(c)),
            SatOutcome::Unsat => panic!("a is consistent"),
        }
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn binary_resolution_strikes_literals_implied_through_the_asserting_literal() {
        let mut solver = Cdcl::new();
        solver.grow(4);
        let [a, m, x, y] = [0, 1, 2, 3].map(|i| Var::from_index(i).positive());
        // (a ∨ m) is a clause; m and y are true, x is true: the learnt clause
        // (a ∨ ¬m ∨ ¬x) resolves with it on m to (a ∨ ¬x); ¬y has no such clause.
        solver.add_binary(a, m);
        for lit in [m, x, y] {
            solver.assign(lit, NO_REASON);
        }
        solver.learnt = vec![a, !m, !x, !y];
        solver.minimize_by_binaries();
        assert_eq!(solver.learnt, vec![a, !x, !y]);
        assert!(
            solver.seen.iter().all(|&mark| mark == 0),
            "marks left behind"
        );
    }

    /// Shrinks `learnt` as conflict analysis would: its literals marked, then cleared.
    fn shrunk(solver: &mut Cdcl, learnt: &[Lit]) -> Vec<Lit> {
        solver.learnt = learnt.to_vec();
        solver.to_clear = learnt.to_vec();
        for lit in learnt {
            solver.seen[lit.var().index()] = REMOVABLE;
        }
        let levels = learnt[1..]
            .iter()
            .fold(0, |acc, l| acc | solver.abstract_level(l.var().index()));
        solver.shrink(levels);
        for lit in std::mem::take(&mut solver.to_clear) {
            solver.seen[lit.var().index()] = 0;
        }
        std::mem::take(&mut solver.learnt)
    }

    #[test]
    fn shrinking_replaces_a_levels_literals_by_their_uip_when_nothing_else_is_needed() {
        let [c, d, p, q, e] = [0, 1, 2, 3, 4].map(|i| Var::from_index(i).positive());
        let mut solver = Cdcl::new();
        solver.grow(5);
        // Level 1: c. Level 2: d, then p by (¬d ∨ p) and q by (q ∨ ¬d ∨ ¬c). Level 3: e.
        solver.new_decision_level();
        solver.assign(c, NO_REASON);
        solver.new_decision_level();
        solver.assign(d, NO_REASON);
        solver.assign(p, BINARY_REASON | (!d).code() as u32);
        let reason = solver.attach_new(&[q, !d, !c], false, 0);
        solver.assign(q, reason);
        solver.new_decision_level();
        solver.assign(e, NO_REASON);
        // With ¬c in the clause, d is the UIP of {¬p, ¬q}: (¬e ∨ ¬d ∨ ¬c), RUP because d
        // gives back p and q.
        assert_eq!(shrunk(&mut solver, &[!e, !p, !q, !c]), vec![!e, !d, !c]);
        assert_eq!(solver.shrinking.removed, 1);
        // Without it, q leans on c, which nothing in the clause implies: no change.
        assert_eq!(shrunk(&mut solver, &[!e, !q, !p]), vec![!e, !q, !p]);
        assert_eq!(solver.shrinking.removed, 1);
        assert!(
            solver.seen.iter().all(|&mark| mark == 0),
            "marks left behind"
        );
    }

    #[test]
    fn shrunk_learnt_clauses_keep_the_answers_and_make_checkable_proofs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        let mut rng = ChaCha8Rng::seed_from_u64(2020);
        let (mut refuted, mut shrunk_levels) = (0, 0);
        for round in 0..40 {
            let vars = rng.gen_range(30..=45);
            let cnf = random_3sat(&mut rng, vars, vars * 5);
            let expected = {
                let mut plain = Cdcl::with_lookahead(Lookahead::None);
                cnf.stream_into(&mut plain);
                plain.solve().unwrap()
            };
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            cdcl.shrinking.enabled = true;
            cdcl.set_proof(Some(ProofTarget::text(&path))).unwrap();
            cnf.stream_into(&mut cdcl);
            let outcome = cdcl.solve().unwrap();
            cdcl.finish_proof().unwrap();
            shrunk_levels += cdcl.counters().get("shrunk_levels").unwrap();
            match outcome {
                SatOutcome::Sat(model) => {
                    assert!(matches!(expected, SatOutcome::Sat(_)), "round {round}");
                    assert!(cnf.clauses().all(|c| c.iter().any(|&l| model.satisfies(l))));
                }
                SatOutcome::Unsat => {
                    assert_eq!(expected, SatOutcome::Unsat, "round {round}");
                    refuted += 1;
                    let proof = std::fs::read_to_string(&path).unwrap();
                    if let Err(e) = crate::backend::dpll::tests::check_proof(&cnf, &proof) {
                        panic!("round {round}: {e}");
                    }
                }
            }
        }
        assert!(refuted >= 30, "only {refuted} UNSAT answers");
        assert!(shrunk_levels > 0, "nothing was shrunk");
    }

    #[test]
    fn a_long_clause_resumes_its_watch_search_and_wraps_around() {
        let x: Vec<Lit> = (0..14).map(|i| Var::from_index(i).positive()).collect();
        let mut solver = Cdcl::new();
        solver.grow(14);
        let c = solver.attach_new(&x, false, 0);
        // Falsify all but x0 and one other literal in the given order, one level each;
        // then the last other one: x0 must be implied by the clause.
        for (order, last) in [
            ((1..13).collect::<Vec<usize>>(), 13),
            ((2..14).rev().collect(), 1),
            ((1..14).filter(|&i| i != 7).collect(), 7),
        ] {
            for &i in &order {
                solver.new_decision_level();
                solver.assign(!x[i], NO_REASON);
                assert!(solver.propagate().is_none());
                assert_eq!(solver.value(x[0]), UNSET, "x0 implied early");
                let pos = solver.arena[c as usize + SEARCH_POS] as usize;
                assert!(
                    (FIRST_UNWATCHED..14).contains(&pos),
                    "position {pos} out of the clause"
                );
            }
            solver.new_decision_level();
            solver.assign(!x[last], NO_REASON);
            assert!(solver.propagate().is_none());
            assert_eq!(solver.value(x[0]), TRUE);
            assert_eq!(solver.reason[0], c);
            solver.cancel_until(0);
        }
    }

    #[test]
    fn agrees_with_brute_force_on_formulas_with_long_clauses() {
        // Clauses of 11-13 literals take the saved-position search; short ones make the
        // formulas UNSAT often enough to matter.
        let mut rng = ChaCha8Rng::seed_from_u64(2013);
        let mut unsat = 0;
        for round in 0..60 {
            let vars = rng.gen_range(11..=13);
            let short = rng.gen_range(vars..=2 * vars);
            let mut cnf = random_cnf(&mut rng, vars, short, 3);
            for _ in 0..rng.gen_range(5..=20) {
                let mut picked: Vec<usize> = (0..vars).collect();
                picked.shuffle(&mut rng);
                picked.truncate(rng.gen_range(11..=vars));
                let clause: Vec<Lit> = picked
                    .iter()
                    .map(|&v| Var::from_index(v).lit(rng.gen()))
                    .collect();
                cnf.add_clause(&clause);
            }
            let expected = brute_force_sat(&cnf);
            unsat += usize::from(!expected);
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut cdcl);
            let outcome = cdcl.solve().expect("cdcl answers");
            if let SatOutcome::Sat(model) = &outcome {
                assert_eq!(cnf.first_falsified(model), None, "round {round}");
            }
            assert_eq!(
                matches!(outcome, SatOutcome::Sat(_)),
                expected,
                "round {round}"
            );
        }
        assert!(
            (10..50).contains(&unsat),
            "{unsat} of 60 UNSAT: the mix needs retuning"
        );
    }

    #[test]
    fn a_seed_changes_the_search_not_the_answers() {
        let mut rng = ChaCha8Rng::seed_from_u64(426);
        let mut other_paths = 0;
        let mut unsat = 0;
        for round in 0..20 {
            let cnf = random_3sat(&mut rng, 60, 256);
            let run = |seed: Option<u64>| {
                let mut cdcl = Cdcl::with_lookahead(Lookahead::None);
                if let Some(seed) = seed {
                    cdcl = cdcl.with_seed(seed);
                }
                cnf.stream_into(&mut cdcl);
                let outcome = cdcl.solve().expect("cdcl answers");
                if let SatOutcome::Sat(model) = &outcome {
                    assert_eq!(cnf.first_falsified(model), None, "round {round}, {seed:?}");
                }
                (
                    matches!(outcome, SatOutcome::Sat(_)),
                    cdcl.decisions,
                    cdcl.conflicts,
                )
            };
            let plain = run(None);
            unsat += usize::from(!plain.0);
            assert_eq!(run(Some(0)), plain, "round {round}: seed 0 is no seed");
            for seed in 1..=3 {
                let seeded = run(Some(seed));
                assert_eq!(seeded.0, plain.0, "round {round}, seed {seed}: the answer");
                assert_eq!(
                    run(Some(seed)),
                    seeded,
                    "round {round}, seed {seed}: reproducible"
                );
                other_paths += usize::from(seeded.1 != plain.1 || seeded.2 != plain.2);
            }
        }
        assert!(
            (3..17).contains(&unsat),
            "{unsat} of 20 UNSAT: retune the formulas"
        );
        assert!(
            other_paths >= 45,
            "only {other_paths} of 60 seeded searches differ"
        );
    }

    #[test]
    fn seeded_activities_do_not_depend_on_how_variables_were_added() {
        let mut in_steps = Cdcl::new().with_seed(7);
        in_steps.grow(10);
        in_steps.grow(25);
        let mut at_once = Cdcl::new().with_seed(7);
        at_once.grow(25);
        assert_eq!(in_steps.activity, at_once.activity);
        assert!(at_once.activity.iter().all(|a| (0.0..1e-5).contains(a)));
        let mut distinct = at_once.activity.clone();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        assert_eq!(distinct.len(), 25);
        let mut other_seed = Cdcl::new().with_seed(8);
        other_seed.grow(25);
        assert_ne!(other_seed.activity, at_once.activity);
        let mut unseeded = Cdcl::new();
        unseeded.grow(25);
        assert!(unseeded.activity.iter().all(|&a| a == 0.0));
    }

    #[test]
    fn forgetting_between_queries_keeps_only_glue_and_the_answers() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        // Random 3-SAT just below the threshold: satisfiable, with conflicts to learn from.
        let cnf = random_3sat(&mut rng, 120, 480);
        let mut batch = Cdcl::with_lookahead(Lookahead::None);
        cnf.stream_into(&mut batch);
        let mut forgot = 0;
        for _ in 0..40 {
            let assumptions: Vec<Lit> = (0..3)
                .map(|_| Var::from_index(rng.gen_range(0..120)).lit(rng.gen()))
                .collect();
            let above_glue = |solver: &Cdcl| {
                solver
                    .learnts
                    .iter()
                    .filter(|&&c| solver.arena[c as usize + 1] >> LBD_SHIFT > 2)
                    .count()
            };
            let before = above_glue(&batch);
            batch.forget_learnt();
            assert_eq!(above_glue(&batch), 0);
            forgot += before;
            let mut fresh = Cdcl::with_lookahead(Lookahead::None);
            let mut with_units = cnf.clone();
            for &lit in &assumptions {
                with_units.add_clause(&[lit]);
            }
            with_units.stream_into(&mut fresh);
            let answer = batch.solve_under(&assumptions).unwrap();
            if let SatOutcome::Sat(model) = &answer {
                assert!(assumptions
                    .iter()
                    .all(|&l| model.value(l.var()) == l.is_positive()));
            }
            assert_eq!(
                matches!(answer, SatOutcome::Sat(_)),
                matches!(fresh.solve().unwrap(), SatOutcome::Sat(_))
            );
        }
        // The queries learnt clauses above glue, so there was something to forget.
        assert!(forgot > 0);
    }

    #[test]
    fn learnt_clauses_survive_added_clauses_and_resets_forget() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // A satisfiable random 3-SAT formula below the threshold, then units that make it
        // UNSAT or keep it SAT: the answer must match a fresh solver's.
        for _ in 0..30 {
            let cnf = random_cnf(&mut rng, 40, 150, 3);
            let mut incremental = Cdcl::with_lookahead(Lookahead::None);
            cnf.stream_into(&mut incremental);
            let first = incremental.solve().unwrap();
            let mut extended = cnf.clone();
            for _ in 0..5 {
                let unit = [Var::from_index(rng.gen_range(0..40)).lit(rng.gen())];
                extended.add_clause(&unit);
                incremental.add_clause(&unit);
            }
            let mut fresh = Cdcl::with_lookahead(Lookahead::None);
            extended.stream_into(&mut fresh);
            assert_eq!(
                matches!(incremental.solve().unwrap(), SatOutcome::Sat(_)),
                matches!(fresh.solve().unwrap(), SatOutcome::Sat(_))
            );
            incremental.reset();
            cnf.stream_into(&mut incremental);
            assert_eq!(
                matches!(incremental.solve().unwrap(), SatOutcome::Sat(_)),
                matches!(first, SatOutcome::Sat(_))
            );
        }
    }

    #[test]
    fn a_formula_too_large_for_memory_is_an_error_not_an_abort() {
        let mut cnf = Cnf::with_vars(1 << 58);
        cnf.add_clause(&[Var::from_index(0).positive()]);
        let mut cdcl = Cdcl::new();
        cdcl.add_formula(&mut cnf);
        match cdcl.solve() {
            Err(BackendError::OutOfMemory { solver, .. }) => assert_eq!(solver, "cdcl"),
            other => panic!("expected OutOfMemory, got {other:?}"),
        }
    }

    #[test]
    fn an_interrupt_ends_the_solve_as_a_time_out_and_can_be_lifted() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let flag = Arc::new(AtomicBool::new(true));
        for threads in [1, 2] {
            let mut cdcl = Cdcl::with_lookahead(Lookahead::None).with_threads(threads);
            cdcl.add_formula(&mut pigeonhole(9));
            cdcl.set_interrupt(Some(Arc::clone(&flag)));
            flag.store(true, Ordering::Relaxed);
            assert!(
                matches!(cdcl.solve(), Err(BackendError::Timeout { .. })),
                "{threads} threads"
            );
            // Lifted, the same solver goes on to the answer.
            flag.store(false, Ordering::Relaxed);
            assert!(
                matches!(cdcl.solve(), Ok(SatOutcome::Unsat)),
                "{threads} threads"
            );
        }
    }

    /// Root probing gives up on a formula where a long run of probes finds no failed
    /// literal, and goes on where failures keep coming.
    #[test]
    fn root_probing_gives_up_after_a_long_run_without_a_failure() {
        let probes = |cdcl: &Cdcl| cdcl.counters().get("probes").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        // 30,000 variables at ratio 2: about 50,000 literals to probe, none failing.
        let cnf = random_3sat(&mut rng, 30_000, 60_000);
        let mut cdcl = Cdcl::new();
        cnf.stream_into(&mut cdcl);
        let SatOutcome::Sat(model) = cdcl.solve().unwrap() else {
            panic!("ratio 2 is satisfiable")
        };
        assert_eq!(cnf.first_falsified(&model), None);
        assert_eq!(cdcl.counters().get("failed_literals"), Some(0));
        assert_eq!(probes(&cdcl), PROBE_STALL);
        // Where every other probe fails (pairs x → y, x → ¬y, so ¬x is forced) probing
        // runs to the end.
        let pairs = 3 * PROBE_STALL as usize;
        let mut cnf = Cnf::with_vars(2 * pairs);
        for i in 0..pairs {
            let (x, y) = (Var::from_index(2 * i), Var::from_index(2 * i + 1));
            cnf.add_clause(&[x.negative(), y.positive()]);
            cnf.add_clause(&[x.negative(), y.negative()]);
            cnf.add_clause(&[
                x.positive(),
                y.positive(),
                Var::from_index((2 * i + 3) % (2 * pairs)).positive(),
            ]);
        }
        let mut cdcl = Cdcl::new();
        cnf.stream_into(&mut cdcl);
        let SatOutcome::Sat(model) = cdcl.solve().unwrap() else {
            panic!("satisfiable: every x false, every y true")
        };
        assert_eq!(cnf.first_falsified(&model), None);
        assert_eq!(cdcl.counters().get("failed_literals"), Some(pairs as u64));
    }

    /// A formula between the two caps goes to the lookahead search only where it races
    /// CDCL (several threads); above both, to neither.
    #[test]
    fn a_race_takes_larger_formulas_than_a_handover() {
        let mut rng = ChaCha8Rng::seed_from_u64(2028);
        for (vars, one, two) in [
            (LOOKAHEAD_SEARCH_MAX_VARS, true, true),
            (LOOKAHEAD_SEARCH_MAX_VARS + 1, false, true),
            (LOOKAHEAD_RACE_MAX_VARS, false, true),
            (LOOKAHEAD_RACE_MAX_VARS + 1, false, false),
        ] {
            let cnf = random_3sat(&mut rng, vars, vars * 35 / 10);
            for (threads, expected) in [(1, one), (2, two)] {
                let mut cdcl = Cdcl::new().with_threads(threads);
                cnf.stream_into(&mut cdcl);
                // (`original` holds the clauses before the first solve loads them.)
                assert_eq!(
                    cdcl.takes_lookahead_search(&[]),
                    expected,
                    "{vars} variables on {threads} threads"
                );
            }
        }
    }
}
