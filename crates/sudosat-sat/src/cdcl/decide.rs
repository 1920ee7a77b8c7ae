//! Branching: VSIDS (Moskewicz et al. 2001, "Chaff: engineering an efficient SAT solver",
//! DAC), a binary heap of variable activities, bumped for every variable seen in analysis
//! and decayed per conflict, with phase saving (Pipatsrisawat & Darwiche 2007, "A
//! lightweight component caching scheme for satisfiability solvers", SAT) and, with a
//! seed, a random initial order below one bump (MiniSat's `rnd_init_act`).

use super::options::{ACTIVITY_LIMIT, ACTIVITY_RESCALE, SEED_ACTIVITY, VAR_DECAY};
use super::trail::{Trail, UNSET};
use crate::formula::{try_reserve, Lit, ReserveError, Var};

/// A binary max-heap of variables ordered by activity, with positions for updates.
#[derive(Clone, Default)]
pub(super) struct VarHeap {
    pub(super) heap: Vec<u32>,
    /// Position of each variable in `heap`, or -1.
    pub(super) position: Vec<i32>,
}

impl VarHeap {
    pub(super) fn grow(&mut self, num_vars: usize) {
        self.position.resize(num_vars, -1);
    }

    #[inline]
    pub(super) fn contains(&self, v: usize) -> bool {
        self.position[v] >= 0
    }

    pub(super) fn clear(&mut self) {
        self.heap.clear();
        self.position.clear();
    }

    #[inline]
    pub(super) fn insert(&mut self, v: usize, activity: &[f64]) {
        if self.contains(v) {
            return;
        }
        self.position[v] = self.heap.len() as i32;
        self.heap.push(v as u32);
        self.sift_up(self.heap.len() - 1, activity);
    }

    #[inline]
    pub(super) fn pop(&mut self, activity: &[f64]) -> Option<usize> {
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

    /// Takes `v` out of the heap, if it is in.
    pub(super) fn remove(&mut self, v: usize, activity: &[f64]) {
        if !self.contains(v) {
            return;
        }
        let i = self.position[v] as usize;
        self.position[v] = -1;
        let last = self.heap.pop().expect("v is in the heap");
        if i < self.heap.len() {
            self.heap[i] = last;
            self.position[last as usize] = i as i32;
            self.sift_down(i, activity);
            self.sift_up(self.position[last as usize] as usize, activity);
        }
    }

    /// Restores the order after `v`'s activity grew.
    #[inline]
    pub(super) fn increased(&mut self, v: usize, activity: &[f64]) {
        if self.contains(v) {
            self.sift_up(self.position[v] as usize, activity);
        }
    }

    #[inline]
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

/// The activity of a variable out of the search ([`Vsids::retire`]).
const RETIRED: f64 = f64::NEG_INFINITY;

/// A number in [0, 1) that depends only on `seed` and `key` (SplitMix64's finaliser).
pub(super) fn unit_noise(seed: u64, key: u64) -> f64 {
    let mut z = seed ^ key.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The branching heuristic's state: activities, their heap, saved phases.
#[derive(Clone, Default)]
pub(super) struct Vsids {
    pub(super) activity: Vec<f64>,
    /// The current bump; grows by 1 / [`VAR_DECAY`] per conflict.
    pub(super) var_inc: f64,
    pub(super) heap: VarHeap,
    /// Saved phase per variable (`true`: positive).
    pub(super) phase: Vec<bool>,
    /// Seed of the initial variable order (0: the variables' own order).
    pub(super) seed: u64,
}

impl Vsids {
    /// Gives the variables `old..num_vars` their initial activity and phase (the heap takes
    /// them in [`Vsids::insert_new`], once every part has grown).
    pub(super) fn grow(&mut self, old: usize, num_vars: usize) {
        self.activity.resize(num_vars, 0.0);
        if self.seed != 0 {
            // Per variable, not from a stream: variables added in several steps get what
            // they would get added at once.
            for v in old..num_vars {
                self.activity[v] = SEED_ACTIVITY * unit_noise(self.seed, v as u64);
            }
        }
        // Positive first: on Sudoku a decision then places a digit (and propagation clears its
        // cell and units) instead of striking one candidate; 2× fewer conflicts on the 25×25
        // gecode puzzles than MiniSat's negative default.
        self.phase.resize(num_vars, true);
    }

    /// Puts the variables `old..num_vars` in the heap (after every part has grown).
    pub(super) fn insert_new(&mut self, old: usize, num_vars: usize) {
        self.heap.grow(num_vars);
        if self.heap.heap.is_empty() && old == 0 && self.seed == 0 {
            // Equal activities into an empty heap stay in their order, as inserting them
            // one by one leaves them: the heap of every fresh solve of a batch, made
            // without a comparison.
            debug_assert!(self.activity[..num_vars].iter().all(|&a| a == 0.0));
            self.heap.heap.extend(0..num_vars as u32);
            for (v, position) in self.heap.position[..num_vars].iter_mut().enumerate() {
                *position = v as i32;
            }
            return;
        }
        for v in old..num_vars {
            self.heap.insert(v, &self.activity);
        }
    }

    /// Reserves, fallibly, room for `vars` more variables.
    pub(super) fn reserve(&mut self, vars: usize) -> Result<(), ReserveError> {
        try_reserve(&mut self.activity, vars, "the activities")
    }

    /// Forgets every variable (the seed stays).
    pub(super) fn clear(&mut self) {
        self.activity.clear();
        self.var_inc = 1.0;
        self.heap.clear();
        self.phase.clear();
    }

    #[inline]
    pub(super) fn bump(&mut self, v: usize) {
        self.activity[v] += self.var_inc;
        if self.activity[v] > ACTIVITY_LIMIT {
            for a in &mut self.activity {
                *a *= ACTIVITY_RESCALE;
            }
            self.var_inc *= ACTIVITY_RESCALE;
        }
        self.heap.increased(v, &self.activity);
    }

    /// After a conflict: later bumps weigh more.
    #[inline]
    pub(super) fn decay(&mut self) {
        self.var_inc /= VAR_DECAY;
    }

    /// Saves the phase of an undone literal and puts its variable back in the heap.
    #[inline]
    pub(super) fn unassigned(&mut self, lit: Lit) {
        let v = lit.var().index();
        self.phase[v] = lit.is_positive();
        self.heap.insert(v, &self.activity);
    }

    /// The unassigned variable of highest activity, in its saved phase, or in its target
    /// phase when `target_phase` is given (stable mode).
    #[inline]
    pub(super) fn pick_branch(
        &mut self,
        values: &[i8],
        target_phase: Option<&[bool]>,
    ) -> Option<Lit> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if values[2 * v] == UNSET {
                let positive = match target_phase {
                    Some(target) => target[v],
                    None => self.phase[v],
                };
                return Some(Var::from_index(v).lit(positive));
            }
        }
        None
    }

    /// Rebuilds the heap from every variable still in the search (after the activities
    /// changed wholesale).
    pub(super) fn rebuild_heap(&mut self, num_vars: usize) {
        self.heap.clear();
        self.heap.grow(num_vars);
        for v in 0..num_vars {
            if self.activity[v] != RETIRED {
                self.heap.insert(v, &self.activity);
            }
        }
    }

    /// Takes variable `v` out of the search for good (it occurs in no clause any more):
    /// out of the heap, with an activity no bump, rescale or noise changes. Were it ever
    /// assigned and undone, it would come back last.
    pub(super) fn retire(&mut self, v: usize) {
        self.heap.remove(v, &self.activity);
        self.activity[v] = RETIRED;
    }
}

/// Undoes every assignment above `level`, saving phases: the backtrack of the search,
/// where the assignment and the heuristic meet.
#[inline]
pub(super) fn cancel_until(trail: &mut Trail, vsids: &mut Vsids, level: u32) {
    trail.backtrack(level, |lit| vsids.unassigned(lit));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A heuristic with `seed`, grown to each number of variables in `steps` in turn.
    fn grown(seed: u64, steps: &[usize]) -> Vsids {
        let mut vsids = Vsids {
            seed,
            ..Vsids::default()
        };
        let mut old = 0;
        for &num_vars in steps {
            vsids.grow(old, num_vars);
            vsids.insert_new(old, num_vars);
            old = num_vars;
        }
        vsids
    }

    #[test]
    fn seeded_activities_do_not_depend_on_how_variables_were_added() {
        let in_steps = grown(7, &[10, 25]);
        let at_once = grown(7, &[25]);
        assert_eq!(in_steps.activity, at_once.activity);
        assert!(at_once.activity.iter().all(|a| (0.0..1e-5).contains(a)));
        let mut distinct = at_once.activity.clone();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        assert_eq!(distinct.len(), 25);
        assert_ne!(grown(8, &[25]).activity, at_once.activity);
        assert!(grown(0, &[25]).activity.iter().all(|&a| a == 0.0));
    }
}
