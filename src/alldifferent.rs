//! All-different filtering on bit masks: Régin's algorithm with a matching kept across
//! calls, for the grid theory's views (one `u64` a vertex) and for the root reasoning of
//! grids of any side (several words a vertex).
//!
//! A view is a bipartite graph whose left vertex `i` has the right vertices `adj[i]`.
//! Régin (1994, "A filtering algorithm for constraints of difference in CSPs", AAAI) keeps
//! an edge when some complete matching uses it: with a perfect matching in hand, an
//! unmatched edge (i, j) lies on an alternating cycle exactly when the left vertex matched
//! to j reaches i, following each left vertex's edges to the left vertices matched at their
//! ends. The matching is kept between calls (Gent, Miguel & Nightingale 2008,
//! "Generalised arc consistency for the AllDifferent constraint: an empirical survey", AIJ
//! 172): what a call removed or closed is dropped from it and only the vertices left free
//! are matched again, by augmenting paths (Kuhn).
//!
//! Two ways to find the edges on no alternating cycle: [`components`] labels the strongly
//! connected components of the graph (Tarjan 1972, "Depth-first search and linear graph
//! algorithms", SIAM J. Comput. 1), as Régin does, in time linear in the edges: an edge
//! stays exactly when its two ends share a component. [`closure`] computes who reaches
//! whom (Warshall), m² row operations for m open vertices, which names the Hall set behind
//! each removal: the grid theory needs that set for its reason clauses, the root fixpoint
//! does not.

/// A set of vertices as bits.
pub(crate) trait Mask: Copy + PartialEq {
    const EMPTY: Self;
    /// Words of 64 vertices.
    const WORDS: usize;
    /// Word `k`: vertices `64 k .. 64 k + 64`.
    fn word(&self, k: usize) -> u64;
    fn bit(i: usize) -> Self;
    fn has(&self, i: usize) -> bool;
    fn insert(&mut self, i: usize);
    fn remove(&mut self, i: usize);
    fn union(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn count(&self) -> u32;
    /// Whether no vertex is in the set (a loop over the words: comparing arrays calls
    /// `memcmp`, which showed in profiles of the root fixpoint).
    fn is_empty(&self) -> bool;
    /// Whether every vertex of `other` is in the set.
    fn contains(&self, other: Self) -> bool {
        other.minus(*self).is_empty()
    }
    /// The lowest member, or `None` when empty.
    fn first(&self) -> Option<usize>;
    /// Every member, lowest first.
    fn each(self, f: impl FnMut(usize));
}

impl Mask for u64 {
    const EMPTY: u64 = 0;
    const WORDS: usize = 1;
    #[inline]
    fn word(&self, _: usize) -> u64 {
        *self
    }
    #[inline]
    fn bit(i: usize) -> u64 {
        1 << i
    }
    #[inline]
    fn has(&self, i: usize) -> bool {
        self >> i & 1 != 0
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        *self &= !(1 << i);
    }
    #[inline]
    fn union(self, other: u64) -> u64 {
        self | other
    }
    #[inline]
    fn minus(self, other: u64) -> u64 {
        self & !other
    }
    #[inline]
    fn count(&self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn is_empty(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        (*self != 0).then(|| self.trailing_zeros() as usize)
    }
    #[inline]
    fn each(self, mut f: impl FnMut(usize)) {
        let mut rest = self;
        while rest != 0 {
            f(rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
}

/// `W` words: up to 64·W vertices.
impl<const W: usize> Mask for [u64; W] {
    const EMPTY: [u64; W] = [0; W];
    const WORDS: usize = W;
    #[inline]
    fn word(&self, k: usize) -> u64 {
        self[k]
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut mask = [0; W];
        mask[i / 64] = 1 << (i % 64);
        mask
    }
    #[inline]
    fn has(&self, i: usize) -> bool {
        self[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        self[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn union(mut self, other: Self) -> Self {
        for (a, b) in self.iter_mut().zip(other) {
            *a |= b;
        }
        self
    }
    #[inline]
    fn minus(mut self, other: Self) -> Self {
        for (a, b) in self.iter_mut().zip(other) {
            *a &= !b;
        }
        self
    }
    #[inline]
    fn count(&self) -> u32 {
        self.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.iter().all(|&w| w == 0)
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        self.iter()
            .position(|&w| w != 0)
            .map(|k| k * 64 + self[k].trailing_zeros() as usize)
    }
    #[inline]
    fn each(self, mut f: impl FnMut(usize)) {
        for (k, word) in self.into_iter().enumerate() {
            word.each(|i| f(k * 64 + i));
        }
    }
}

/// No mate.
pub(crate) const FREE: u16 = u16::MAX;

/// Matches every left vertex of `open` in `adj`, keeping what of `left`/`right` (mates,
/// [`FREE`] for none) still holds; on failure, the Hall violator: the left vertices the
/// last search visited and the right vertices they reach, one fewer.
pub(crate) fn repair<M: Mask>(
    adj: &[M],
    open: M,
    left: &mut [u16],
    right: &mut [u16],
) -> Result<(), (M, M)> {
    // Drop the pairs whose edge is gone or whose vertex closed.
    for (i, mate) in left.iter_mut().enumerate() {
        if *mate != FREE && !(open.has(i) && adj[i].has(*mate as usize)) {
            right[*mate as usize] = FREE;
            *mate = FREE;
        }
    }
    for (j, mate) in right.iter_mut().enumerate() {
        if *mate != FREE && left[*mate as usize] != j as u16 {
            *mate = FREE;
        }
    }
    let mut free = M::EMPTY;
    open.each(|i| {
        if left[i] != FREE {
            return;
        }
        // A free right vertex at hand first; an augmenting path only when there is none.
        let mut found = None;
        adj[i].each(|j| {
            if found.is_none() && right[j] == FREE {
                found = Some(j);
            }
        });
        match found {
            Some(j) => {
                left[i] = j as u16;
                right[j] = i as u16;
            }
            None => free.insert(i),
        }
    });
    let mut result = Ok(());
    free.each(|i| {
        if result.is_ok() {
            let mut seen = (M::EMPTY, M::EMPTY);
            if !augment(adj, i, left, right, &mut seen) {
                result = Err(seen);
            }
        }
    });
    result
}

/// Kuhn's augmenting path from the free left vertex `i`, depth first; `seen` gathers the
/// left and right vertices visited.
fn augment<M: Mask>(
    adj: &[M],
    i: usize,
    left: &mut [u16],
    right: &mut [u16],
    seen: &mut (M, M),
) -> bool {
    seen.0.insert(i);
    loop {
        let Some(j) = adj[i].minus(seen.1).first() else {
            return false;
        };
        seen.1.insert(j);
        let mate = right[j];
        if mate == FREE || augment(adj, mate as usize, left, right, seen) {
            left[i] = j as u16;
            right[j] = i as u16;
            return true;
        }
    }
}

/// Which left vertex of `open` reaches which (itself included), in the graph where `i`
/// leads to the mate of each of its right vertices; the matching must be perfect on them.
pub(crate) fn closure<M: Mask>(adj: &[M], open: M, right: &[u16], reach: &mut [M]) {
    open.each(|i| {
        let mut to = M::bit(i);
        adj[i].each(|j| to.insert(right[j] as usize));
        reach[i] = to;
    });
    open.each(|k| {
        let through = reach[k];
        open.each(|i| {
            if reach[i].has(k) {
                reach[i] = reach[i].union(through);
            }
        });
    });
}

/// Every edge of `adj` on open left vertices that no perfect matching uses, with the Hall
/// set that excludes it: `(i, j, cells)`, where `cells` (the left vertices the mate of j
/// reaches) hold only their own mates' right vertices and do not hold i.
pub(crate) fn removable<M: Mask>(
    adj: &[M],
    open: M,
    left: &[u16],
    right: &[u16],
    reach: &[M],
    mut found: impl FnMut(usize, usize, M),
) {
    open.each(|i| {
        let own = left[i] as usize;
        adj[i].each(|j| {
            if j != own {
                let through = reach[right[j] as usize];
                if !through.has(i) {
                    found(i, j, through);
                }
            }
        });
    });
}

/// A vertex on the depth-first path: the right vertices it has still to follow are the
/// bits of `bits` (word `word - 1` of its edges) and the words from `word` on.
#[derive(Clone, Copy, Debug)]
struct Frame {
    vertex: u16,
    word: u16,
    bits: u64,
}

/// Scratch space of [`components`], kept between calls.
#[derive(Clone, Debug)]
pub(crate) struct Components<M> {
    /// Per left vertex: its depth-first number (`UNSEEN` before the visit), its low link,
    /// and its component.
    index: Vec<u16>,
    low: Vec<u16>,
    component: Vec<u16>,
    /// Tarjan's stack of visited vertices, and the depth-first path with the right
    /// vertices each of its vertices has still to follow.
    stack: Vec<u16>,
    path: Vec<Frame>,
    /// Per component: the right vertices matched to its left vertices.
    mates: Vec<M>,
}

impl<M> Default for Components<M> {
    fn default() -> Self {
        Components {
            index: Vec::new(),
            low: Vec::new(),
            component: Vec::new(),
            stack: Vec::new(),
            path: Vec::new(),
            mates: Vec::new(),
        }
    }
}

const UNSEEN: u16 = u16::MAX;

/// Removes from `adj` every edge on open left vertices that no perfect matching uses, the
/// matching (`left`, `right`) being perfect on them: Régin's filter by the strongly
/// connected components of the graph where `i` leads to the mate of each of its right
/// vertices (Tarjan's algorithm, iterative). An edge `(i, j)` lies on an alternating cycle
/// exactly when the mate of `j` is in the component of `i`, so `i` keeps the right
/// vertices matched into its own component. Returns the edges followed, a measure of the
/// work done.
pub(crate) fn components<M: Mask>(
    adj: &mut [M],
    open: M,
    left: &[u16],
    right: &[u16],
    scratch: &mut Components<M>,
) -> u64 {
    let size = adj.len();
    scratch.index.clear();
    scratch.index.resize(size, UNSEEN);
    scratch.low.resize(size, 0);
    // Visited and without a component yet: on Tarjan's stack.
    scratch.component.clear();
    scratch.component.resize(size, UNSEEN);
    scratch.stack.clear();
    scratch.mates.clear();
    let mut counter = 0u16;
    let mut followed = 0u64;
    open.each(|root| {
        if scratch.index[root] != UNSEEN {
            return;
        }
        scratch.visit(root, &mut counter);
        while let Some(frame) = scratch.path.last_mut() {
            let v = frame.vertex as usize;
            if frame.bits == 0 && (frame.word as usize) < M::WORDS {
                // The next word of v's edges; its own mate leads back to itself.
                let k = frame.word as usize;
                let own = left[v] as usize;
                frame.bits = adj[v].word(k) & !(u64::from(own / 64 == k) << (own % 64));
                frame.word += 1;
                continue;
            }
            if frame.bits != 0 {
                let j = (frame.word as usize - 1) * 64 + frame.bits.trailing_zeros() as usize;
                frame.bits &= frame.bits - 1;
                followed += 1;
                let w = right[j] as usize;
                if scratch.index[w] == UNSEEN {
                    scratch.visit(w, &mut counter);
                } else if scratch.component[w] == UNSEEN {
                    scratch.low[v] = scratch.low[v].min(scratch.index[w]);
                }
                continue;
            }
            scratch.path.pop();
            if let Some(parent) = scratch.path.last() {
                let parent = parent.vertex as usize;
                scratch.low[parent] = scratch.low[parent].min(scratch.low[v]);
            }
            if scratch.low[v] == scratch.index[v] {
                let id = scratch.mates.len() as u16;
                let mut matched = M::EMPTY;
                while let Some(x) = scratch.stack.pop() {
                    scratch.component[x as usize] = id;
                    matched.insert(left[x as usize] as usize);
                    if x as usize == v {
                        break;
                    }
                }
                scratch.mates.push(matched);
            }
        }
    });
    open.each(|i| {
        let kept = scratch.mates[scratch.component[i] as usize];
        adj[i] = adj[i].minus(adj[i].minus(kept));
    });
    followed
}

impl<M: Mask> Components<M> {
    /// Tarjan's first visit of left vertex `v`: numbered, stacked, and on the path.
    fn visit(&mut self, v: usize, counter: &mut u16) {
        self.index[v] = *counter;
        self.low[v] = *counter;
        *counter += 1;
        self.stack.push(v as u16);
        self.path.push(Frame {
            vertex: v as u16,
            word: 0,
            bits: 0,
        });
    }
}

/// The right vertices matched to `cells`.
pub(crate) fn mates<M: Mask>(cells: M, left: &[u16]) -> M {
    let mut digits = M::EMPTY;
    cells.each(|x| digits.insert(left[x] as usize));
    digits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three cells over digits {0, 1}, {0, 1}, {0, 1, 2}: the pair {0, 1} leaves the third
    /// cell only digit 2, in one word and in two.
    #[test]
    fn a_naked_pair_is_found_and_its_cells_named() {
        fn check<M: Mask + std::fmt::Debug>(adj: [M; 3], open: M) {
            let (mut left, mut right) = ([FREE; 3], [FREE; 3]);
            repair(&adj, open, &mut left, &mut right).unwrap();
            let mut reach = [M::EMPTY; 3];
            closure(&adj, open, &right, &mut reach);
            let mut found = Vec::new();
            removable(&adj, open, &left, &right, &reach, |i, j, cells| {
                found.push((i, j, cells))
            });
            found.sort_by_key(|&(i, j, _)| (i, j));
            let pair = M::bit(0).union(M::bit(1));
            assert_eq!(found, vec![(2, 0, pair), (2, 1, pair)]);
            assert_eq!(mates(pair, &left), pair);
        }
        check([0b011u64, 0b011, 0b111], 0b111);
        let wide = |bits: u64| -> [u64; 2] { [bits, 0] };
        check([wide(0b011), wide(0b011), wide(0b111)], wide(0b111));
    }

    /// The components keep exactly the edges that the closure does not remove, on random
    /// graphs with a perfect matching (a random permutation plus random edges), in one
    /// word and in two, with some vertices closed.
    #[test]
    fn components_keep_exactly_the_edges_the_closure_keeps() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        fn check<M: Mask + std::fmt::Debug>(size: usize, rng: &mut rand_chacha::ChaCha8Rng) {
            let mut adj = vec![M::EMPTY; size];
            let mut open = M::EMPTY;
            let mut perm: Vec<usize> = (0..size).collect();
            perm.shuffle(rng);
            let density = rng.gen_range(0.0..0.3);
            for i in 0..size {
                if rng.gen_bool(0.9) {
                    open.insert(i);
                    adj[i].insert(perm[i]);
                    for j in 0..size {
                        if rng.gen_bool(density) {
                            adj[i].insert(j);
                        }
                    }
                }
            }
            let (mut left, mut right) = (vec![FREE; size], vec![FREE; size]);
            let mut used = M::EMPTY;
            open.each(|i| used.insert(perm[i]));
            // Edges to right vertices of closed left vertices leave the view.
            open.each(|i| adj[i] = adj[i].minus(adj[i].minus(used)));
            repair(&adj, open, &mut left, &mut right).expect("a perfect matching exists");
            let mut reach = vec![M::EMPTY; size];
            closure(&adj, open, &right, &mut reach);
            let mut expected = adj.clone();
            removable(&adj, open, &left, &right, &reach, |i, j, _| {
                expected[i] = expected[i].minus(M::bit(j))
            });
            let mut kept = adj.clone();
            let followed = components(&mut kept, open, &left, &right, &mut Components::default());
            assert_eq!(kept, expected);
            let edges: u32 = (0..size)
                .filter(|&i| open.has(i))
                .map(|i| adj[i].count() - 1)
                .sum();
            assert_eq!(followed, edges as u64);
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let size = rng.gen_range(1..=64);
            check::<u64>(size, &mut rng);
            let size = rng.gen_range(1..=128);
            check::<[u64; 2]>(size, &mut rng);
        }
    }

    /// Two cells with the one digit 0: the matching fails, naming both cells and digit 0.
    #[test]
    fn a_hall_violator_is_reported_with_its_cells_and_digits() {
        let adj = [0b001u64, 0b001, 0b110];
        let (mut left, mut right) = ([FREE; 3], [FREE; 3]);
        assert_eq!(
            repair(&adj, 0b111, &mut left, &mut right),
            Err((0b011, 0b001))
        );
    }

    /// A kept pair whose edge is gone is dropped and the vertex matched again.
    #[test]
    fn a_matching_kept_across_calls_is_repaired_where_an_edge_went() {
        let mut adj = [0b11u64, 0b11];
        let (mut left, mut right) = ([FREE; 2], [FREE; 2]);
        repair(&adj, 0b11, &mut left, &mut right).unwrap();
        let first = left;
        adj[0] &= !(1 << first[0]);
        repair(&adj, 0b11, &mut left, &mut right).unwrap();
        assert_eq!(left, [first[1], first[0]]);
        assert_eq!(right[left[0] as usize], 0);
        assert_eq!(right[left[1] as usize], 1);
    }

    /// Vertices past the first word: 70 cells and digits, each cell i over {i, i + 1}
    /// except the last (only 69): the chain is forced, every other edge removable.
    #[test]
    fn masks_of_several_words_match_past_the_first() {
        const N: usize = 70;
        let mut adj = [[0u64; 2]; N];
        let mut open = [0u64; 2];
        for (i, row) in adj.iter_mut().enumerate() {
            row.insert(i);
            if i + 1 < N {
                row.insert(i + 1);
            }
            open.insert(i);
        }
        adj[N - 1] = <[u64; 2]>::bit(N - 1);
        let (mut left, mut right) = ([FREE; N], [FREE; N]);
        repair(&adj, open, &mut left, &mut right).unwrap();
        let mut reach = [[0u64; 2]; N];
        closure(&adj, open, &right, &mut reach);
        let mut count = 0;
        removable(&adj, open, &left, &right, &reach, |i, j, _| {
            assert_eq!(j, i + 1);
            count += 1;
        });
        assert_eq!(count, N - 1);
        assert!((0..N).all(|i| left[i] == i as u16));
    }
}
