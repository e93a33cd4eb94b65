//! The solvers' tables, each allocated once and reused from one search to the next.
//!
//! - [`FailTable`]: positions proven to fail within a depth (VCF).
//! - [`PnTable`]: proof and disproof numbers per node (VCT's df-pn).
//! - [`MoveCache`]: move lists per node, in two generations.
//!
//! A table is forgotten by [`FailTable::reset`] / [`PnTable::reset`] without being rewritten:
//! each entry carries the generation it was written in, and an entry of an older generation
//! reads as empty. Tables are allocated zeroed (the pages arrive as the search touches them)
//! and fallibly: a table that cannot be had is a [`MemoryError`], never an abort.

use std::alloc::{Layout, alloc_zeroed};
use std::sync::atomic::AtomicU64;

/// A table could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {} MB for the {what}", bytes.div_ceil(1 << 20))]
pub struct MemoryError {
    /// The size asked for.
    pub bytes: usize,
    /// Which table.
    pub what: &'static str,
}

/// `n` zeroed words, from the allocator's zeroed pages (untouched pages cost nothing), or a
/// [`MemoryError`] naming `what`.
pub fn zeroed(n: usize, what: &'static str) -> Result<Vec<u64>, MemoryError> {
    // SAFETY: an all-zero `u64` is a valid value.
    unsafe { zeroed_vec(n, what) }
}

/// `n` zeroed atomic words (a table that search threads share), allocated as [`zeroed`].
pub fn zeroed_atomic(n: usize, what: &'static str) -> Result<Vec<AtomicU64>, MemoryError> {
    // SAFETY: an all-zero `AtomicU64` is a valid value (it has the size and bit validity of
    // `u64`).
    unsafe { zeroed_vec(n, what) }
}

/// `n` zeroed values of `T`, large tables advised onto huge pages.
///
/// # Safety
/// All-zero bytes must be a valid `T`.
unsafe fn zeroed_vec<T>(n: usize, what: &'static str) -> Result<Vec<T>, MemoryError> {
    let error = MemoryError {
        bytes: n.saturating_mul(size_of::<T>()),
        what,
    };
    let layout = Layout::array::<T>(n).map_err(|_| error.clone())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; a non-null pointer from `alloc_zeroed` with the
    // layout of `[T; n]` is an allocation of `n` `T`s from the global allocator, initialised
    // because the caller vouches that zero bytes are a `T`; `Vec::from_raw_parts` takes it
    // over with that same layout.
    unsafe {
        let ptr = alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            return Err(error);
        }
        advise_huge_pages(ptr as *mut u8, layout.size());
        Ok(Vec::from_raw_parts(ptr, n, n))
    }
}

/// Asks Linux to back the 2 MB-aligned part of a large table with transparent huge pages: one
/// page fault (and one TLB entry) per 2 MB instead of per 4 KB as the search first touches
/// it. Measured on `bench --mode analyze`: the page faults of a fresh table were a fifth of
/// the profile. Elsewhere, or when the kernel says no, nothing changes.
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + size) / HUGE * HUGE;
        if end > start {
            // SAFETY: `start..end` lies inside the allocation that `ptr` and `size` describe;
            // MADV_HUGEPAGE only changes how the kernel backs those pages, not their contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, size);
}

/// The largest power of two of `u64` slots that fits in `bytes` (at least `min`).
fn slots_within(bytes: usize, min: usize) -> usize {
    let cap = (bytes / 8).max(min);
    if cap.is_power_of_two() {
        cap
    } else {
        cap.next_power_of_two() / 2
    }
}

/// A transposition table of proven failures: "from this position (and side to move), no win
/// within `depth` attacker moves". A failure at some depth holds for every smaller one. A slot
/// packs the generation (top byte), the hash's middle bits and the depth (low byte); entries
/// are replaced by deeper ones, or by any entry for another position. The table starts small
/// (a short search touches few cache lines and no fresh pages) and doubles as it fills, up to
/// its cap; memory never grows past the cap.
pub struct FailTable {
    slots: Vec<u64>,
    mask: usize,
    filled: usize,
    max_slots: usize,
    generation: u64,
}

const DEPTH_BITS: u64 = 0xFF;
const GEN_SHIFT: u32 = 56;
const TAG_BITS: u64 = 0xFF << GEN_SHIFT | DEPTH_BITS;
/// Slots of a fresh or reset [`FailTable`]: one 4 KB page. A quick VCF (a few dozen nodes)
/// then faults in one fresh page instead of eight; with 4096 slots the public VCF cases took
/// about 5% longer.
const START_SLOTS: usize = 1 << 9;

impl FailTable {
    /// A table that grows to at most `bytes` (and at least its starting size).
    pub fn new(bytes: usize) -> Result<FailTable, MemoryError> {
        Ok(FailTable {
            slots: zeroed(START_SLOTS, "VCF failure table")?,
            mask: START_SLOTS - 1,
            filled: 0,
            max_slots: slots_within(bytes, START_SLOTS),
            generation: 1,
        })
    }

    /// Forgets every entry and goes back to the starting size: the next search runs as on a
    /// new table (node counts do not depend on what ran before). Gives back what it grew by.
    pub fn reset(&mut self) {
        if self.slots.len() > START_SLOTS {
            self.slots.truncate(START_SLOTS);
            self.slots.shrink_to_fit();
            self.mask = START_SLOTS - 1;
        }
        self.clear();
    }

    /// Forgets every entry, keeping the size the table has grown to: no allocation, for
    /// searches that run many times (a leaf solver).
    pub fn clear(&mut self) {
        self.filled = 0;
        self.generation += 1;
        if self.generation > 0xFF {
            self.slots.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    fn tag(&self, hash: u64) -> u64 {
        (hash & !TAG_BITS) | self.generation << GEN_SHIFT
    }

    #[inline]
    fn live(&self, s: u64) -> bool {
        s != 0 && s >> GEN_SHIFT == self.generation
    }

    /// Whether the position is known to fail within `depth`.
    #[inline]
    pub fn fails(&self, hash: u64, depth: u32) -> bool {
        let tag = self.tag(hash);
        let i = (hash >> 8) as usize & self.mask;
        [i, i ^ 1].iter().any(|&j| {
            let s = self.slots[j];
            s & !DEPTH_BITS == tag && (s & DEPTH_BITS) as u32 >= depth
        })
    }

    /// Asks the processor to bring the slots of `hash` into its cache, so that a
    /// [`FailTable::fails`] a little later does not wait on memory.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        let i = (hash >> 8) as usize & self.mask;
        prefetch(&self.slots[i]);
    }

    /// Records that the position fails within `depth`.
    #[inline]
    pub fn store(&mut self, hash: u64, depth: u32) {
        if self.filled * 4 > self.slots.len() && self.slots.len() < self.max_slots {
            self.grow();
        }
        self.put(hash, self.tag(hash), depth.min(DEPTH_BITS as u32) as u64);
    }

    fn put(&mut self, hash: u64, tag: u64, depth: u64) {
        let i = (hash >> 8) as usize & self.mask;
        // The bucket is slots i and i^1: the same position's slot, else an empty one, else the
        // shallower of the two.
        let same = |s: u64| s & !DEPTH_BITS == tag;
        let free = |s: u64| same(s) || !self.live(s);
        let j = if free(self.slots[i]) {
            i
        } else if free(self.slots[i ^ 1]) {
            i ^ 1
        } else if self.slots[i] & DEPTH_BITS <= self.slots[i ^ 1] & DEPTH_BITS {
            i
        } else {
            i ^ 1
        };
        let s = self.slots[j];
        if !self.live(s) {
            self.filled += 1;
        }
        if !same(s) || s & DEPTH_BITS < depth {
            self.slots[j] = tag | depth;
        }
    }

    fn grow(&mut self) {
        // Growing is the one allocation after the first; at the cap (or when memory is short)
        // the table simply stops growing and replaces entries.
        let Ok(doubled) = zeroed(self.slots.len() * 2, "VCF failure table") else {
            self.max_slots = self.slots.len();
            return;
        };
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() - 1;
        self.filled = 0;
        let generation = self.generation;
        for s in old
            .into_iter()
            .filter(|&s| s != 0 && s >> GEN_SHIFT == generation)
        {
            // The slot keeps the hash bits the index reads (8 and up, below the top byte).
            self.put(s & !TAG_BITS, s & !DEPTH_BITS, s & DEPTH_BITS);
        }
    }
}

/// Proof and disproof numbers per node key, two slots a bucket; a slot is the key (its low
/// byte replaced by the generation) and the two numbers. Like [`FailTable`], the table starts
/// small and doubles as it fills, up to its cap: a quick solve touches a few pages, not a
/// table's worth (fresh pages cost a fault and zeroing each, and on a 512 MB table that
/// was most of a quick win's time).
pub struct PnTable {
    slots: Vec<u64>,
    mask: usize,
    filled: usize,
    max_buckets: usize,
    generation: u64,
}

/// Buckets of a fresh or reset [`PnTable`] (64 KB).
const PN_START_BUCKETS: usize = 1 << 12;

impl PnTable {
    /// A table that grows to at most `bytes` (and at least its starting size).
    pub fn new(bytes: usize) -> Result<PnTable, MemoryError> {
        Ok(PnTable {
            slots: zeroed(2 * PN_START_BUCKETS, "proof-number table")?,
            mask: PN_START_BUCKETS - 1,
            filled: 0,
            max_buckets: slots_within(bytes / 2, PN_START_BUCKETS),
            generation: 1,
        })
    }

    /// Forgets every entry and goes back to the starting size, so the next search runs as on
    /// a new table.
    pub fn reset(&mut self) {
        if self.slots.len() > 2 * PN_START_BUCKETS {
            self.slots.truncate(2 * PN_START_BUCKETS);
            self.slots.shrink_to_fit();
            self.mask = PN_START_BUCKETS - 1;
        }
        self.filled = 0;
        self.generation += 1;
        if self.generation > 0xFF {
            self.slots.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    fn tag(&self, key: u64) -> u64 {
        (key & !0xFF) | self.generation
    }

    /// Asks the processor to bring the bucket of `key` into its cache (see
    /// [`FailTable::prefetch`]).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let i = (key >> 16) as usize & self.mask;
        prefetch(&self.slots[2 * (i & !1)]);
    }

    /// The numbers stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        let tag = self.tag(key);
        let i = (key >> 16) as usize & self.mask;
        [i, i ^ 1]
            .into_iter()
            .find(|&j| self.slots[2 * j] == tag)
            .map(|j| {
                let v = self.slots[2 * j + 1];
                ((v >> 32) as u32, v as u32)
            })
    }

    /// Stores the numbers for `key`.
    pub fn put(&mut self, key: u64, pn: u32, dn: u32) {
        if self.filled * 2 > self.slots.len() / 2 && self.slots.len() / 2 < self.max_buckets {
            self.grow();
        }
        self.put_tagged(self.tag(key), (pn as u64) << 32 | dn as u64);
    }

    fn put_tagged(&mut self, tag: u64, value: u64) {
        let i = (tag >> 16) as usize & self.mask;
        let terminal = |v: u64| (v >> 32) as u32 == 0 || v as u32 == 0;
        let generation = self.generation;
        let live = |slots: &[u64], j: usize| slots[2 * j] & 0xFF == generation;
        // The same key or an empty slot first; else keep a decided entry over an undecided one.
        let free = |slots: &[u64], j: usize| slots[2 * j] == tag || !live(slots, j);
        let j = if free(&self.slots, i) {
            i
        } else if free(&self.slots, i ^ 1)
            || (terminal(self.slots[2 * i + 1]) && !terminal(self.slots[2 * (i ^ 1) + 1]))
        {
            i ^ 1
        } else {
            i
        };
        if !live(&self.slots, j) {
            self.filled += 1;
        }
        self.slots[2 * j] = tag;
        self.slots[2 * j + 1] = value;
    }

    fn grow(&mut self) {
        // At the cap, or when memory is short, the table stops growing and replaces entries.
        let Ok(doubled) = zeroed(self.slots.len() * 2, "proof-number table") else {
            self.max_buckets = self.slots.len() / 2;
            return;
        };
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() / 2 - 1;
        self.filled = 0;
        let generation = self.generation;
        for pair in old.chunks_exact(2) {
            if pair[0] & 0xFF == generation {
                self.put_tagged(pair[0], pair[1]);
            }
        }
    }
}

/// What a node expands to, as [`MoveCache`] keeps it: decided without search, or a list of
/// moves (children), given by their count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// Decided: a win.
    Proven,
    /// Decided: no win.
    Disproven,
    /// Its children, this many.
    Children(usize),
}

/// Move lists by node key, in two generations: when the young one is full, the old one is
/// forgotten and the young one ages, so recently used lists survive and memory stays bounded.
/// A generation is an open-addressing map of slots (key, where its list starts in the
/// generation's arena, its length, a stamp) and the arena, one vector of moves for all its
/// lists. Forgetting a generation only bumps its stamp and empties its arena: no list is freed
/// one by one, and no allocation is made again (the slots double, up to their cap, as a search
/// needs them). Of the budget, each generation takes half: half of that for its slots, half
/// for its arena.
pub struct MoveCache {
    young: Generation,
    old: Generation,
    /// Most slots of a generation (a power of two).
    max_slots: usize,
    /// Most moves in a generation's arena.
    max_moves: usize,
}

/// One generation of a [`MoveCache`].
struct Generation {
    slots: Vec<CacheSlot>,
    moves: Vec<u16>,
    /// Live slots.
    len: usize,
    /// The stamp of live slots; 0 is never live.
    stamp: u16,
}

#[derive(Clone, Copy, Default)]
struct CacheSlot {
    key: u64,
    start: u32,
    /// The list's length, or [`PROVEN`] / [`DISPROVEN`].
    len: u16,
    stamp: u16,
}

const PROVEN: u16 = u16::MAX;
const DISPROVEN: u16 = u16::MAX - 1;
/// Slots of a fresh generation.
const CACHE_START_SLOTS: usize = 1 << 10;

impl Generation {
    fn new() -> Generation {
        Generation {
            slots: vec![CacheSlot::default(); CACHE_START_SLOTS],
            moves: Vec::new(),
            len: 0,
            stamp: 1,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.moves.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(CacheSlot::default());
            self.stamp = 1;
        }
    }

    /// The slot of `key`, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key >> 20) as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp || s.key == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    fn get(&self, key: u64) -> Option<CacheSlot> {
        let s = self.slots[self.find(key)];
        (s.stamp == self.stamp).then_some(s)
    }

    /// Doubles the slots, keeping the live ones.
    fn grow(&mut self) {
        let doubled = vec![CacheSlot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for s in old.into_iter().filter(|s| s.stamp == self.stamp) {
            let i = self.find(s.key);
            self.slots[i] = s;
        }
    }
}

impl MoveCache {
    /// A cache whose two generations take at most about `bytes` together.
    pub fn new(bytes: usize) -> MoveCache {
        let generation = bytes / 2;
        let slots = (generation / 2 / size_of::<CacheSlot>()).max(CACHE_START_SLOTS);
        let max_slots = if slots.is_power_of_two() {
            slots
        } else {
            slots.next_power_of_two() / 2
        };
        MoveCache {
            young: Generation::new(),
            old: Generation::new(),
            max_slots,
            max_moves: (generation / 2 / size_of::<u16>()).max(1024),
        }
    }

    /// Forgets every entry, keeping the memory.
    pub fn clear(&mut self) {
        self.young.clear();
        self.old.clear();
    }

    /// The list cached for `key`, if any: its moves are appended to `out`.
    pub fn get(&mut self, key: u64, out: &mut Vec<u16>) -> Option<Listed> {
        let before = out.len();
        let (s, young) = match self.young.get(key) {
            Some(s) => (s, true),
            None => (self.old.get(key)?, false),
        };
        let listed = match s.len {
            PROVEN => Listed::Proven,
            DISPROVEN => Listed::Disproven,
            n => {
                let from = if young { &self.young } else { &self.old };
                let start = s.start as usize;
                out.extend_from_slice(&from.moves[start..start + n as usize]);
                Listed::Children(n as usize)
            }
        };
        if !young {
            // Used again: into the young generation (the old copy stays until it is dropped).
            self.insert(key, listed, &out[before..]);
        }
        Some(listed)
    }

    /// Caches `listed` under `key`, with its moves when it has children.
    pub fn insert(&mut self, key: u64, listed: Listed, moves: &[u16]) {
        let (len, moves) = match listed {
            Listed::Proven => (PROVEN, &[][..]),
            Listed::Disproven => (DISPROVEN, &[][..]),
            // A list holds at most one move per point of the largest board.
            Listed::Children(_) => (moves.len() as u16, moves),
        };
        let full = |g: &Generation, max_slots: usize| {
            g.len * 8 >= g.slots.len() * 7 && g.slots.len() >= max_slots
        };
        if full(&self.young, self.max_slots)
            || self.young.moves.len() + moves.len() > self.max_moves
        {
            std::mem::swap(&mut self.old, &mut self.young);
            self.young.clear();
        }
        let g = &mut self.young;
        if g.len * 8 >= g.slots.len() * 7 {
            g.grow();
        }
        let i = g.find(key);
        if g.slots[i].stamp != g.stamp {
            g.len += 1;
        }
        g.slots[i] = CacheSlot {
            key,
            start: g.moves.len() as u32,
            len,
            stamp: g.stamp,
        };
        let need = g.moves.len() + moves.len();
        if need > g.moves.capacity() {
            // Doubling, but never past the cap.
            let want = (2 * g.moves.capacity()).clamp(need, self.max_moves.max(need));
            g.moves.reserve_exact(want - g.moves.len());
        }
        g.moves.extend_from_slice(moves);
    }

    /// Entries cached, both generations (an entry used again after it aged may count twice).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.young.len + self.old.len
    }

    /// Whether nothing is cached.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the two generations have allocated, slots and arenas.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        [&self.young, &self.old]
            .iter()
            .map(|g| g.slots.capacity() * size_of::<CacheSlot>() + g.moves.capacity() * 2)
            .sum()
    }
}

/// A hint to load the cache line holding `x`; nothing on targets without one.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: prefetching is only a hint: it reads nothing the program sees, and the
        // address comes from a live reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_cache_stays_within_its_budget_and_keeps_recent_entries() {
        let budget = 1 << 20;
        let mut c = MoveCache::new(budget);
        let list: Vec<u16> = (0..100).collect();
        for key in 0..200_000u64 {
            let listed = match key % 3 {
                0 => Listed::Proven,
                1 => Listed::Disproven,
                _ => Listed::Children(list.len()),
            };
            c.insert(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), listed, &list);
            assert!(c.bytes() <= budget + 4096, "the cache takes {}", c.bytes());
        }
        // The latest entries survive, with their lists; the first are gone.
        let mut out = vec![7];
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert_eq!(c.get(key(199_999), &mut out), Some(Listed::Disproven));
        assert_eq!(c.get(key(199_997), &mut out), Some(Listed::Children(100)));
        assert_eq!(out[0], 7);
        assert_eq!(&out[1..], &list[..]);
        assert_eq!(c.get(key(0), &mut out), None);
        // An entry of the old generation, used again, moves to the young one intact.
        let mut old = None;
        for k in (0..200_000u64).rev().filter(|k| k % 3 == 2) {
            if c.young.get(key(k)).is_none() {
                old = c.old.get(key(k)).map(|_| k);
                break;
            }
        }
        let k = old.expect("an entry of the old generation");
        let mut out = Vec::new();
        assert_eq!(c.get(key(k), &mut out), Some(Listed::Children(100)));
        assert_eq!(out, list);
        assert!(c.young.get(key(k)).is_some());
        c.clear();
        assert!(c.is_empty());
        assert_eq!(c.get(key(199_999), &mut out), None);
    }

    #[test]
    fn remembers_failures_by_depth_and_grows_within_its_cap() {
        let mut t = FailTable::new(1 << 20).unwrap();
        t.store(0xABCD_0000_0000_0100, 5);
        assert!(t.fails(0xABCD_0000_0000_0100, 5));
        assert!(t.fails(0xABCD_0000_0000_0100, 3));
        assert!(!t.fails(0xABCD_0000_0000_0100, 6));
        for k in 1..100_000u64 {
            t.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 2);
        }
        assert!(t.slots.len() <= (1 << 20) / 8);
        assert!(t.fails(99_999u64.wrapping_mul(0x9E37_79B9_7F4A_7C15), 2));
        let grown = t.slots.len();
        t.clear();
        assert!(!t.fails(99_999u64.wrapping_mul(0x9E37_79B9_7F4A_7C15), 2));
        assert_eq!(t.slots.len(), grown);
        t.store(0xABCD_0000_0000_0100, 5);
        t.reset();
        assert!(!t.fails(0xABCD_0000_0000_0100, 1));
        assert_eq!(t.slots.len(), START_SLOTS);
    }

    #[test]
    fn a_reset_forgets_proof_numbers_without_rewriting() {
        let mut t = PnTable::new(1 << 16).unwrap();
        t.put(0x1234_5678_9ABC_DEF1, 3, 4);
        assert_eq!(t.get(0x1234_5678_9ABC_DEF1), Some((3, 4)));
        for _ in 0..300 {
            t.reset();
            assert_eq!(t.get(0x1234_5678_9ABC_DEF1), None);
        }
        t.put(0x1234_5678_9ABC_DEF1, 0, 7);
        assert_eq!(t.get(0x1234_5678_9ABC_DEF1), Some((0, 7)));
    }

    #[test]
    fn proof_numbers_survive_growth_within_the_cap() {
        // A cap of 1 MB: 65,536 buckets at most.
        let mut t = PnTable::new(1 << 20).unwrap();
        assert_eq!(t.slots.len(), 2 * PN_START_BUCKETS);
        let key = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for k in 0..20_000u64 {
            t.put(key(k), k as u32 + 1, 7);
        }
        assert!(t.slots.len() > 2 * PN_START_BUCKETS);
        assert!(t.slots.len() <= (1 << 20) / 8);
        // Well under half full at every doubling: nothing was replaced.
        for k in 0..20_000u64 {
            assert_eq!(t.get(key(k)), Some((k as u32 + 1, 7)), "key {k}");
        }
        t.reset();
        assert_eq!(t.slots.len(), 2 * PN_START_BUCKETS);
        assert_eq!(t.get(key(5)), None);
    }

    #[test]
    fn an_impossible_cap_only_stops_growth() {
        // Nothing is allocated up front beyond the starting size; growth that memory refuses
        // just stops, and the table replaces entries from then on.
        let mut t = PnTable::new(usize::MAX).unwrap();
        t.put(0x1234_5678_9ABC_DEF1, 3, 4);
        assert_eq!(t.get(0x1234_5678_9ABC_DEF1), Some((3, 4)));
    }
}
