//! A transposition table of proven failures: "from this position (and side to move), no win
//! within `depth` attacker moves". A failure at some depth holds for every smaller one. A slot
//! packs the hash's high bits with the depth in its low byte; entries are replaced by deeper
//! ones, or by any entry for another position. The table starts small (a short search touches
//! few cache lines and no fresh pages) and doubles as it fills, up to its cap in megabytes;
//! memory never grows past the cap.

pub struct FailTable {
    slots: Vec<u64>,
    mask: usize,
    filled: usize,
    max_slots: usize,
}

const DEPTH_BITS: u64 = 0xFF;
const START_SLOTS: usize = 1 << 12;

impl FailTable {
    /// A table that grows to at most `mb` megabytes (and at least its starting size).
    pub fn with_megabytes(mb: usize) -> FailTable {
        let cap = ((mb << 20) / 8).max(START_SLOTS);
        let max_slots = if cap.is_power_of_two() {
            cap
        } else {
            cap.next_power_of_two() / 2
        };
        FailTable {
            slots: vec![0; START_SLOTS],
            mask: START_SLOTS - 1,
            filled: 0,
            max_slots,
        }
    }

    /// Whether the position is known to fail within `depth`.
    #[inline]
    pub fn fails(&self, hash: u64, depth: u32) -> bool {
        let i = (hash >> 8) as usize & self.mask;
        [i, i ^ 1].iter().any(|&j| {
            let s = self.slots[j];
            s & !DEPTH_BITS == hash & !DEPTH_BITS && (s & DEPTH_BITS) as u32 >= depth
        })
    }

    #[inline]
    pub fn store(&mut self, hash: u64, depth: u32) {
        if self.filled * 4 > self.slots.len() && self.slots.len() < self.max_slots {
            self.grow();
        }
        let depth = depth.min(DEPTH_BITS as u32) as u64;
        let entry = (hash & !DEPTH_BITS) | depth;
        let i = (hash >> 8) as usize & self.mask;
        // The bucket is slots i and i^1: the same position's slot, else an empty one, else the
        // shallower of the two.
        let same = |s: u64| s & !DEPTH_BITS == hash & !DEPTH_BITS;
        let j = if same(self.slots[i]) || self.slots[i] == 0 {
            i
        } else if same(self.slots[i ^ 1]) || self.slots[i ^ 1] == 0 {
            i ^ 1
        } else if self.slots[i] & DEPTH_BITS <= self.slots[i ^ 1] & DEPTH_BITS {
            i
        } else {
            i ^ 1
        };
        let s = &mut self.slots[j];
        if *s == 0 {
            self.filled += 1;
        }
        if !same(*s) || *s & DEPTH_BITS < depth {
            *s = entry;
        }
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() - 1;
        self.filled = 0;
        for s in old.into_iter().filter(|&s| s != 0) {
            self.store(s & !DEPTH_BITS, (s & DEPTH_BITS) as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_failures_by_depth_and_grows_within_its_cap() {
        let mut t = FailTable::with_megabytes(1);
        t.store(0xABCD_0000_0000_0100, 5);
        assert!(t.fails(0xABCD_0000_0000_0100, 5));
        assert!(t.fails(0xABCD_0000_0000_0100, 3));
        assert!(!t.fails(0xABCD_0000_0000_0100, 6));
        for k in 1..100_000u64 {
            t.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 2);
        }
        assert!(t.slots.len() <= (1 << 20) / 8);
        assert!(t.fails(99_999u64.wrapping_mul(0x9E37_79B9_7F4A_7C15), 2));
    }
}
