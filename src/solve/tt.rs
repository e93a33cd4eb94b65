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
use std::collections::HashMap;
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

/// Values by key, in two generations: when the young one is full, the old one is dropped and
/// the young one ages, so recently used entries survive and memory stays bounded. Of each
/// generation's share of the budget, half is its map (a fixed most entries, so the map never
/// grows past a known size) and half what the entries hold on the heap, which the caller
/// weighs when it caches one. Clearing keeps the maps' memory for the next search.
pub struct MoveCache<V> {
    young: HashMap<u64, (V, u32)>,
    old: HashMap<u64, (V, u32)>,
    /// Heap bytes the young generation's entries hold.
    young_heap: usize,
    /// Most entries a generation holds.
    max_entries: usize,
    /// Most heap bytes a generation's entries hold.
    heap_budget: usize,
}

impl<V: Clone> MoveCache<V> {
    /// A cache whose two generations take at most about `bytes` together.
    pub fn new(bytes: usize) -> MoveCache<V> {
        let generation = bytes / 2;
        // A map slot: the entry and its control byte. The map keeps at most 7 entries in 8
        // slots and a power of two of slots.
        let slot = std::mem::size_of::<(u64, (V, u32))>() + 1;
        let slots = (generation / 2 / slot).max(1024);
        let slots = if slots.is_power_of_two() {
            slots
        } else {
            slots.next_power_of_two() / 2
        };
        MoveCache {
            young: HashMap::new(),
            old: HashMap::new(),
            young_heap: 0,
            max_entries: slots / 8 * 7,
            heap_budget: generation / 2,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.young.clear();
        self.old.clear();
        self.young_heap = 0;
    }

    /// The value for `key`, if cached.
    pub fn get(&mut self, key: u64) -> Option<V> {
        if let Some((e, _)) = self.young.get(&key) {
            return Some(e.clone());
        }
        let (e, heap) = self.old.remove(&key)?;
        self.insert(key, e.clone(), heap as usize);
        Some(e)
    }

    /// Caches `e` under `key`; it holds `heap` bytes on the heap besides its map slot.
    pub fn insert(&mut self, key: u64, e: V, heap: usize) {
        if self.young.len() >= self.max_entries || self.young_heap + heap > self.heap_budget {
            std::mem::swap(&mut self.old, &mut self.young);
            self.young.clear();
            self.young_heap = 0;
        }
        let heap = heap.min(u32::MAX as usize);
        self.young_heap += heap;
        if let Some((_, was)) = self.young.insert(key, (e, heap as u32)) {
            self.young_heap -= was as usize;
        }
    }

    /// Entries cached, both generations.
    pub fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the two maps have allocated for their slots.
    pub fn map_bytes(&self) -> usize {
        let slot = std::mem::size_of::<(u64, (V, u32))>() + 1;
        (self.young.capacity() + self.old.capacity()) * slot
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
        let mut c: MoveCache<std::sync::Arc<[u16]>> = MoveCache::new(budget);
        let list: std::sync::Arc<[u16]> = std::sync::Arc::from(vec![7u16; 100]);
        for key in 0..200_000u64 {
            c.insert(key, list.clone(), 232);
            // The maps and what their entries hold, both generations.
            assert!(
                c.map_bytes() <= budget / 2 + 4096,
                "maps take {}",
                c.map_bytes()
            );
            assert!(c.young_heap <= c.heap_budget);
        }
        // The latest entries survive, the first are gone.
        assert!(c.get(199_999).is_some());
        assert!(c.get(0).is_none());
        c.clear();
        assert!(c.is_empty());
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
