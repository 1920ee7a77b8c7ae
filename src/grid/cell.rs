//! Cells, digits and digit sets: the grid's index types, below everything else of the
//! grid model.

use std::fmt;

/// A cell, as a row-major index `row·n + col` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u32);

impl Cell {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A digit 1…n (never 0; a blank is `Option<Digit>::None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit(pub u16);

impl Digit {
    /// The digit's value, 1-based.
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }

    /// The one-character symbol of this digit for grids up to 35×35: `1`–`9`, then `A`….
    pub fn symbol(self) -> Option<char> {
        match self.0 {
            1..=9 => Some((b'0' + self.0 as u8) as char),
            10..=35 => Some((b'A' + (self.0 - 10) as u8) as char),
            _ => None,
        }
    }

    /// The digit a one-character symbol stands for (`1`–`9`, `A`/`a`… for 10…).
    pub fn from_symbol(ch: char) -> Option<Digit> {
        match ch {
            '1'..='9' => Some(Digit(ch as u16 - '0' as u16)),
            'A'..='Z' => Some(Digit(ch as u16 - 'A' as u16 + 10)),
            'a'..='z' => Some(Digit(ch as u16 - 'a' as u16 + 10)),
            _ => None,
        }
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of digits 1…n, n ≤ 400, as a fixed bitset (`Copy`, no heap).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet {
    words: [u64; 7],
}

impl DigitSet {
    /// The empty set.
    pub const EMPTY: DigitSet = DigitSet { words: [0; 7] };

    /// All digits 1…n.
    pub fn full(n: usize) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        for d in 1..=n as u16 {
            s.insert(Digit(d));
        }
        s
    }

    /// Adds a digit; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, d: Digit) -> bool {
        let (w, b) = (d.0 as usize / 64, d.0 as usize % 64);
        let was = self.words[w] >> b & 1 == 1;
        self.words[w] |= 1 << b;
        !was
    }

    /// Removes a digit; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, d: Digit) -> bool {
        let (w, b) = (d.0 as usize / 64, d.0 as usize % 64);
        let was = self.words[w] >> b & 1 == 1;
        self.words[w] &= !(1 << b);
        was
    }

    /// Whether the digit is in the set.
    #[inline]
    pub fn contains(&self, d: Digit) -> bool {
        let (w, b) = (d.0 as usize / 64, d.0 as usize % 64);
        w < 7 && self.words[w] >> b & 1 == 1
    }

    /// Number of digits in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The digits in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Digit> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(Digit((i * 64 + b as usize) as u16))
            })
        })
    }

    /// Set union.
    pub fn union(&self, other: &DigitSet) -> DigitSet {
        let mut s = *self;
        for (a, b) in s.words.iter_mut().zip(other.words) {
            *a |= b;
        }
        s
    }

    /// Set intersection.
    pub fn intersection(&self, other: &DigitSet) -> DigitSet {
        let mut s = *self;
        for (a, b) in s.words.iter_mut().zip(other.words) {
            *a &= b;
        }
        s
    }

    /// Set difference `self \ other`.
    pub fn difference(&self, other: &DigitSet) -> DigitSet {
        let mut s = *self;
        for (a, b) in s.words.iter_mut().zip(other.words) {
            *a &= !b;
        }
        s
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|d| d.0)).finish()
    }
}

impl FromIterator<Digit> for DigitSet {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Self {
        let mut s = DigitSet::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}
