//! The search's transposition table: one 16-byte entry a slot, two slots a bucket, sized once
//! from its share of `--hash-mb`. An entry keeps the position's key, its score (mate scores
//! stored relative to the node, so they read back right from any ply), the depth searched,
//! the bound and the best move; a bucket replaces the shallower or older entry.

use crate::solve::tt::{MemoryError, zeroed};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least this (a fail high).
    Lower,
    /// The value is at most this (a fail low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score, relative to the node.
    pub score: i32,
    /// Depth searched below the node.
    pub depth: i32,
    /// What the score is.
    pub bound: Bound,
    /// The best move found (a cell index), if any.
    pub best: Option<u16>,
}

/// The table: slot `j` is words `2j` (the key, with its low bit set) and `2j + 1` (score as
/// i32 | depth as i8 << 32 | bound << 40 | move + 1 << 42 | age << 58).
pub struct Table {
    words: Vec<u64>,
    mask: usize,
    age: u64,
}

impl Table {
    /// A table of at most `bytes`.
    pub fn new(bytes: usize) -> Result<Table, MemoryError> {
        let want = (bytes / 16).max(2);
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Ok(Table {
            words: zeroed(2 * n, "analysis table")?,
            mask: (n - 1) & !1,
            age: 0,
        })
    }

    /// Starts a new search: older entries become the first to go.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3F;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let i = key as usize & self.mask;
        let key = key | 1;
        [i, i + 1]
            .into_iter()
            .find_map(|j| (self.words[2 * j] == key).then(|| decode(self.words[2 * j + 1])))
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn put(&mut self, key: u64, e: Entry) {
        let i = key as usize & self.mask;
        let key = key | 1;
        let w = &self.words;
        let age = |j: usize| (w[2 * j + 1] >> 58) & 0x3F;
        let depth = |j: usize| (w[2 * j + 1] >> 32) as i8 as i32;
        let j = if w[2 * i] == key || w[2 * i] == 0 {
            i
        } else if w[2 * i + 2] == key || w[2 * i + 2] == 0 {
            i + 1
        } else {
            // Replace an entry of an older search first, else the shallower one.
            match (age(i) != self.age, age(i + 1) != self.age) {
                (true, false) => i,
                (false, true) => i + 1,
                _ if depth(i) <= depth(i + 1) => i,
                _ => i + 1,
            }
        };
        // Keep a deeper entry of the same position unless the new one is exact.
        if self.words[2 * j] == key {
            let old = decode(self.words[2 * j + 1]);
            if old.depth > e.depth && e.bound != Bound::Exact {
                if e.best.is_some() && old.best.is_none() {
                    let kept = Entry {
                        best: e.best,
                        ..old
                    };
                    self.words[2 * j + 1] = encode(kept, self.age);
                }
                return;
            }
        }
        self.words[2 * j] = key;
        self.words[2 * j + 1] = encode(e, self.age);
    }
}

fn encode(e: Entry, age: u64) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let mv = e.best.map_or(0, |m| m as u64 + 1);
    (e.score as u32 as u64)
        | ((e.depth.clamp(-128, 127) as i8 as u8 as u64) << 32)
        | bound << 40
        | mv << 42
        | age << 58
}

fn decode(d: u64) -> Entry {
    Entry {
        score: d as u32 as i32,
        depth: (d >> 32) as u8 as i8 as i32,
        bound: match (d >> 40) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        best: match (d >> 42) & 0xFFFF {
            0 => None,
            m => Some((m - 1) as u16),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back() {
        let mut t = Table::new(1 << 12).unwrap();
        let e = Entry {
            score: -29_990,
            depth: 7,
            bound: Bound::Upper,
            best: Some(1023),
        };
        t.put(0xDEAD_BEEF_0000_1234, e);
        assert_eq!(t.get(0xDEAD_BEEF_0000_1234), Some(e));
        assert_eq!(t.get(0xDEAD_BEEF_0000_1236), None);
    }
}
