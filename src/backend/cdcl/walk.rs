//! Local search for saved phases at rephasing: a *walk* (Kissat's and CaDiCaL's `walk`).
//!
//! At some rephasings the solver leaves the CDCL search for a moment and runs ProbSAT
//! (Balint & Schöning 2012, "Choosing probability distributions for stochastic local search
//! and the role of make versus break", SAT) on the irredundant clauses left at the root,
//! starting from the best phases. ProbSAT repeatedly picks a random falsified clause and
//! flips one of its variables, chosen with probability proportional to `cb^-break`, where
//! `break` counts the clauses that the flip would falsify. The assignment with the fewest
//! falsified clauses becomes the saved (and target) phases, so the next decisions head for
//! a nearly consistent assignment. On satisfiable formulas that shortens the long draws;
//! on a Sudoku the minimum is a grid with few clashes.
//!
//! The walk has its own copy of the clauses (flat, with occurrence lists), built at each
//! walk, and a budget of occurrence visits proportional to the search's propagations since
//! the last walk, so it takes a small share of the time.

use super::{Cdcl, FALSE, TRUE, UNSET};

/// Work of one walk, in occurrence visits, per search propagation since the last walk.
const WALK_EFFORT: f64 = 0.5;
/// Bounds of one walk's work, in occurrence visits.
const WALK_MIN_TICKS: u64 = 100_000;
const WALK_MAX_TICKS: u64 = 50_000_000;

/// The walk's buffers, kept between walks to save allocations.
#[derive(Clone, Default)]
pub(super) struct Walker {
    /// Clause `i`'s literal codes are `lits[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    lits: Vec<u32>,
    /// The clauses of literal code `l` are `occurrences[occ_starts[l]..occ_starts[l + 1]]`.
    occ_starts: Vec<u32>,
    occurrences: Vec<u32>,
    /// Current value per variable (`true`: positive).
    value: Vec<bool>,
    /// True literals per clause.
    true_count: Vec<u32>,
    /// The falsified clauses, and each clause's position among them (`u32::MAX`: none).
    broken: Vec<u32>,
    broken_at: Vec<u32>,
    /// Variables flipped since the assignment with the fewest falsified clauses.
    since_minimum: Vec<u32>,
    /// `cb^-i` for break count `i`.
    scores: Vec<f64>,
    candidates: Vec<f64>,
    rng: u64,
    /// Walks run, flips made, and walks that ended on a model.
    pub(super) walks: u64,
    pub(super) flips: u64,
    pub(super) models: u64,
    /// Search propagations at the end of the last walk.
    pub(super) last_propagations: u64,
}

impl Walker {
    fn next_random(&mut self) -> u64 {
        // splitmix64: deterministic on one thread, good enough for picking clauses.
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        ((self.next_random() >> 32) * bound as u64 >> 32) as usize
    }

    fn unit_interval(&mut self) -> f64 {
        (self.next_random() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn is_true(&self, code: u32) -> bool {
        self.value[(code >> 1) as usize] == (code & 1 == 0)
    }

    fn clause(&self, c: u32) -> std::ops::Range<usize> {
        self.starts[c as usize] as usize..self.starts[c as usize + 1] as usize
    }

    fn occurrences_of(&self, code: u32) -> std::ops::Range<usize> {
        self.occ_starts[code as usize] as usize..self.occ_starts[code as usize + 1] as usize
    }

    /// The ProbSAT weights for clauses of `average` literals: CaDiCaL's fit of Balint's
    /// `cb` values (2.0 for binary-heavy formulas, 2.5 for 3-SAT, rising with the size).
    fn fill_scores(&mut self, average: f64) {
        const CB: [(f64, f64); 6] = [
            (0.0, 2.0),
            (3.0, 2.5),
            (4.0, 2.85),
            (5.0, 3.7),
            (6.0, 5.1),
            (7.0, 7.4),
        ];
        let i = (0..CB.len() - 2)
            .find(|&i| CB[i + 1].0 >= average)
            .unwrap_or(CB.len() - 2);
        let ((x1, y1), (x2, y2)) = (CB[i], CB[i + 1]);
        let cb = y1 + (y2 - y1) * (average - x1) / (x2 - x1);
        self.scores.clear();
        let mut score = 1.0;
        while score > 1e-300 {
            self.scores.push(score);
            score /= cb;
        }
    }

    fn break_count(&self, code: u32, ticks: &mut u64) -> usize {
        // Flipping makes `code` false: the clauses it alone satisfies break.
        let range = self.occurrences_of(code);
        *ticks += range.len() as u64;
        self.occurrences[range]
            .iter()
            .filter(|&&c| self.true_count[c as usize] == 1)
            .count()
    }

    fn make_broken(&mut self, c: u32) {
        self.broken_at[c as usize] = self.broken.len() as u32;
        self.broken.push(c);
    }

    fn unbreak(&mut self, c: u32) {
        let at = self.broken_at[c as usize] as usize;
        let last = self.broken.pop().expect("a broken clause");
        if last != c {
            self.broken[at] = last;
            self.broken_at[last as usize] = at as u32;
        }
        self.broken_at[c as usize] = u32::MAX;
    }

    /// Flips variable `v`.
    fn flip(&mut self, v: u32, ticks: &mut u64) {
        let now_true = if self.value[v as usize] { 2 * v + 1 } else { 2 * v };
        self.value[v as usize] = !self.value[v as usize];
        let range = self.occurrences_of(now_true ^ 1);
        *ticks += range.len() as u64;
        for k in range {
            let c = self.occurrences[k];
            self.true_count[c as usize] -= 1;
            if self.true_count[c as usize] == 0 {
                self.make_broken(c);
            }
        }
        let range = self.occurrences_of(now_true);
        *ticks += range.len() as u64;
        for k in range {
            let c = self.occurrences[k];
            self.true_count[c as usize] += 1;
            if self.true_count[c as usize] == 1 {
                self.unbreak(c);
            }
        }
    }
}

impl Cdcl {
    /// Runs one walk from the current saved phases (at the root) and saves the phases of
    /// the best assignment it meets (see the module docs).
    pub(super) fn walk(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let mut w = std::mem::take(&mut self.walker);
        let since = self.propagations - w.last_propagations;
        let limit = ((since as f64 * super::tune("WALKEFFORT", WALK_EFFORT)) as u64).clamp(WALK_MIN_TICKS, WALK_MAX_TICKS);
        w.walks += 1;
        w.rng = w.walks.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let mut ticks = self.load_walker(&mut w);
        let n = self.num_vars;
        w.since_minimum.clear();
        let mut minimum = w.broken.len();
        let (start_broken, t0, flips0) = (minimum, std::time::Instant::now(), w.flips);
        while !w.broken.is_empty() && ticks < limit {
            let at = w.below(w.broken.len());
            let c = w.broken[at];
            let range = w.clause(c);
            w.candidates.clear();
            let mut sum = 0.0;
            for k in range.clone() {
                // The literal is false; flipping its variable makes its negation false.
                let breaks = w.break_count(w.lits[k] ^ 1, &mut ticks);
                let score = w.scores.get(breaks).copied().unwrap_or(0.0);
                sum += score;
                w.candidates.push(sum);
            }
            let pick = sum * w.unit_interval();
            let chosen = w.candidates.iter().position(|&s| s > pick);
            let k = range.start + chosen.unwrap_or(range.len() - 1);
            let v = w.lits[k] >> 1;
            w.flip(v, &mut ticks);
            w.flips += 1;
            w.since_minimum.push(v);
            if w.broken.len() < minimum {
                minimum = w.broken.len();
                w.since_minimum.clear();
            }
        }
        // Back to the best assignment met.
        while let Some(v) = w.since_minimum.pop() {
            w.value[v as usize] = !w.value[v as usize];
        }
        if super::tune("WALKDEBUG", 0.0) != 0.0 {
            eprintln!(
                "walk {}: clauses {} broken {} -> {} flips {} ticks {} limit {} in {:?}",
                w.walks,
                w.starts.len() - 1,
                start_broken,
                minimum,
                w.flips - flips0,
                ticks,
                limit,
                t0.elapsed()
            );
        }
        if minimum == 0 {
            w.models += 1;
        }
        for v in 0..n {
            if self.values[2 * v] == UNSET {
                self.phase[v] = w.value[v];
                if super::tune("WALKTARGET", 1.0) != 0.0 {
                    self.modes.target_phase[v] = w.value[v];
                }
            }
        }
        w.last_propagations = self.propagations;
        self.walker = w;
    }

    /// Copies the irredundant clauses not satisfied at the root into the walker, without
    /// their false literals, and sets up the assignment from the saved phases; the work
    /// done, in literals copied.
    fn load_walker(&self, w: &mut Walker) -> u64 {
        let n = self.num_vars;
        w.starts.clear();
        w.lits.clear();
        w.starts.push(0);
        let root_true = |code: u32| self.values[code as usize] == TRUE;
        // Binary clauses, each once (it sits in the lists of both its literals' negations).
        for code in 0..2 * n as u32 {
            if self.values[code as usize] != UNSET {
                continue;
            }
            for &other in &self.lists[code as usize].binaries {
                let other = other.code() as u32;
                if other > code && self.values[other as usize] == UNSET {
                    w.lits.extend([code, other]);
                    w.starts.push(w.lits.len() as u32);
                }
            }
        }
        for &c in &self.originals {
            let c = c as usize;
            if self.arena[c + 1] & super::DELETED != 0 {
                continue;
            }
            let lits = self.clause_lits(c as u32);
            if lits.iter().any(|&code| root_true(code)) {
                continue;
            }
            w.lits.extend(
                lits.iter()
                    .copied()
                    .filter(|&code| self.values[code as usize] != FALSE),
            );
            w.starts.push(w.lits.len() as u32);
        }
        let clauses = w.starts.len() - 1;
        // Occurrence lists, by counting.
        w.occ_starts.clear();
        w.occ_starts.resize(2 * n + 1, 0);
        for &code in &w.lits {
            w.occ_starts[code as usize + 1] += 1;
        }
        for l in 0..2 * n {
            w.occ_starts[l + 1] += w.occ_starts[l];
        }
        w.occurrences.clear();
        w.occurrences.resize(w.lits.len(), 0);
        let mut fill = w.occ_starts.clone();
        for c in 0..clauses {
            for k in w.starts[c] as usize..w.starts[c + 1] as usize {
                let code = w.lits[k] as usize;
                w.occurrences[fill[code] as usize] = c as u32;
                fill[code] += 1;
            }
        }
        w.value.clear();
        w.value.extend((0..n).map(|v| match self.values[2 * v] {
            UNSET => self.phase[v],
            value => value == TRUE,
        }));
        w.true_count.clear();
        w.true_count.resize(clauses, 0);
        w.broken.clear();
        w.broken_at.clear();
        w.broken_at.resize(clauses, u32::MAX);
        for c in 0..clauses as u32 {
            let count = w.clause(c).filter(|&k| w.is_true(w.lits[k])).count();
            w.true_count[c as usize] = count as u32;
            if count == 0 {
                w.make_broken(c);
            }
        }
        let average = w.lits.len() as f64 / clauses.max(1) as f64;
        w.fill_scores(average);
        2 * w.lits.len() as u64
    }
}
