//! The search's transposition table: one 16-byte entry a slot, two slots a bucket, sized once
//! from its share of `--hash-mb`. An entry keeps the position's key, its score (mate scores
//! stored relative to the node, so they read back right from any ply), the depth searched,
//! the bound and the best move; a bucket replaces the shallower or older entry.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use crate::solve::tt::{MemoryError, zeroed_atomic};

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

/// The table: slot `j` is words `2j` (the key, with its low bit set, XORed with the data
/// word) and `2j + 1` (the data: score as i32 | depth as i8 << 32 | bound << 40 |
/// move + 1 << 42 | age << 58).
///
/// Search threads share one table without locks: each word is an atomic read and written
/// with relaxed ordering, and an entry counts only when its two words agree (the first XOR
/// the second is the key), so an entry torn by two threads writing at once reads as absent.
pub struct Table {
    words: Vec<AtomicU64>,
    mask: usize,
    age: AtomicU64,
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
            words: zeroed_atomic(2 * n, "analysis table")?,
            mask: (n - 1) & !1,
            age: AtomicU64::new(0),
        })
    }

    /// Touches every page of the table, so that no search pays the kernel's page faults (and,
    /// on huge pages, its compaction) in the middle of a move. The contents do not change
    /// (each touch adds zero). For an engine between moves: a fresh 131 MB table's faults took
    /// 80-280 ms of a first move (kernel time, measured with `/usr/bin/time`).
    pub fn prefault(&self) {
        // One word in each 4 KB page.
        for w in self.words.iter().step_by(4096 / size_of::<AtomicU64>()) {
            w.fetch_add(0, Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to go.
    pub fn new_search(&self) {
        let age = (self.age.load(Relaxed) + 1) & 0x3F;
        self.age.store(age, Relaxed);
    }

    /// Slot `j`'s key (with its low bit set; 0 for an empty slot) and data word.
    #[inline]
    fn slot(&self, j: usize) -> (u64, u64) {
        let data = self.words[2 * j + 1].load(Relaxed);
        (self.words[2 * j].load(Relaxed) ^ data, data)
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let i = key as usize & self.mask;
        let key = key | 1;
        [i, i + 1].into_iter().find_map(|j| {
            let (k, data) = self.slot(j);
            (k == key).then(|| decode(data))
        })
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn put(&self, key: u64, e: Entry) {
        let i = key as usize & self.mask;
        let key = key | 1;
        let now = self.age.load(Relaxed);
        let ((k0, d0), (k1, d1)) = (self.slot(i), self.slot(i + 1));
        let age = |d: u64| (d >> 58) & 0x3F;
        let depth = |d: u64| (d >> 32) as i8 as i32;
        let (j, k, d) = if k0 == key || k0 == 0 {
            (i, k0, d0)
        } else if k1 == key || k1 == 0 {
            (i + 1, k1, d1)
        } else {
            // Replace an entry of an older search first, else the shallower one.
            match (age(d0) != now, age(d1) != now) {
                (true, false) => (i, k0, d0),
                (false, true) => (i + 1, k1, d1),
                _ if depth(d0) <= depth(d1) => (i, k0, d0),
                _ => (i + 1, k1, d1),
            }
        };
        let mut data = encode(e, now);
        // Keep a deeper entry of the same position unless the new one is exact.
        if k == key {
            let old = decode(d);
            if old.depth > e.depth && e.bound != Bound::Exact {
                if e.best.is_none() || old.best.is_some() {
                    return;
                }
                data = encode(
                    Entry {
                        best: e.best,
                        ..old
                    },
                    now,
                );
            }
        }
        self.words[2 * j].store(key ^ data, Relaxed);
        self.words[2 * j + 1].store(data, Relaxed);
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
        let t = Table::new(1 << 12).unwrap();
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

    /// Threads writing different entries into the same slots at once never read back an
    /// entry that was not stored for the key they ask about: a torn pair reads as absent. The
    /// probes must hit often enough for that to say something: a table that never hits fails.
    #[test]
    fn threads_sharing_the_table_never_read_a_torn_entry() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let t = Table::new(1 << 10).unwrap();
        let entry = |n: u64| Entry {
            score: (n % 1000) as i32,
            depth: (n % 50) as i32,
            bound: Bound::Lower,
            best: Some((n % 1000) as u16),
        };
        let key = |n: u64| n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let hits = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let (t, hits) = (&t, &hits);
                s.spawn(move || {
                    for n in 0..200_000u64 {
                        // Few slots, many keys: writers keep overwriting each other. The key
                        // just written mostly reads back; an older one mostly does not.
                        let own = n * 4 + id;
                        t.put(key(own), entry(own));
                        for probe in [own, (n / 2) * 4 + id] {
                            if let Some(e) = t.get(key(probe)) {
                                assert_eq!(e, entry(probe));
                                hits.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        let hits = hits.into_inner();
        assert!(hits >= 400_000, "only {hits} of 1,600,000 probes hit");
    }
}
