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
//! are matched again, by augmenting paths (Kuhn). Reachability is a transitive closure on
//! mask rows (Warshall), m² row operations for m open vertices.

/// A set of vertices as bits.
pub(crate) trait Mask: Copy + PartialEq {
    const EMPTY: Self;
    fn bit(i: usize) -> Self;
    fn has(&self, i: usize) -> bool;
    fn insert(&mut self, i: usize);
    fn union(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn count(&self) -> u32;
    /// The lowest member, or `None` when empty.
    fn first(&self) -> Option<usize>;
    /// Every member, lowest first.
    fn each(self, f: impl FnMut(usize));
}

impl Mask for u64 {
    const EMPTY: u64 = 0;
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
