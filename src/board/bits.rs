//! A set of cells of the padded array, one bit a cell.

use super::point::CELLS;

const WORDS: usize = CELLS / 64;

/// A set of cells of the padded cell array, named by their [`Point::index`](super::Point::index),
/// one bit a cell.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Bits([u64; WORDS]);

impl Bits {
    /// Adds every cell of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
    }

    /// Keeps only the cells also in `other`.
    #[inline]
    pub fn intersect_with(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
    }

    /// Adds cell `i` to the set when `on`, takes it out otherwise.
    #[inline]
    pub fn set(&mut self, i: usize, on: bool) {
        let (w, b) = (i / 64, i % 64);
        self.0[w] = (self.0[w] & !(1 << b)) | ((on as u64) << b);
    }

    /// Whether cell `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Whether the set holds no cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// How many cells the set holds.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The first cell in the set.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
    }

    /// The set moved `k` cells down the array: cell `i` of the result is cell `i + k` of
    /// this one (cells past the end read as absent).
    #[inline]
    pub fn down(&self, k: usize) -> Bits {
        let (w, b) = (k / 64, k % 64);
        let mut out = [0u64; WORDS];
        for (i, o) in out.iter_mut().enumerate() {
            let lo = self.0.get(i + w).copied().unwrap_or(0);
            let hi = self.0.get(i + w + 1).copied().unwrap_or(0);
            *o = if b == 0 { lo } else { lo >> b | hi << (64 - b) };
        }
        Bits(out)
    }

    /// The set moved `k` cells up the array: cell `i + k` of the result is cell `i` of this
    /// one (cells past the end are dropped).
    #[inline]
    pub fn up(&self, k: usize) -> Bits {
        let (w, b) = (k / 64, k % 64);
        let mut out = [0u64; WORDS];
        for (i, o) in out.iter_mut().enumerate().skip(w) {
            let lo = self.0[i - w];
            let below = if i > w { self.0[i - w - 1] } else { 0 };
            *o = if b == 0 {
                lo
            } else {
                lo << b | below >> (64 - b)
            };
        }
        Bits(out)
    }

    /// The cells in the set, in index order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + b
                })
            })
        })
    }
}

impl std::ops::BitAnd for Bits {
    type Output = Bits;
    #[inline]
    fn bitand(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl std::ops::BitOr for Bits {
    type Output = Bits;
    #[inline]
    fn bitor(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl std::ops::BitOrAssign for Bits {
    #[inline]
    fn bitor_assign(&mut self, o: Bits) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
    }
}

impl std::ops::Not for Bits {
    type Output = Bits;
    #[inline]
    fn not(self) -> Bits {
        Bits(self.0.map(|w| !w))
    }
}
