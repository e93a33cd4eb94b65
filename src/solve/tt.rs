//! A fixed-size transposition table of proven failures: "from this position (and side to
//! move), no win within `depth` attacker moves". A failure at some depth holds for every
//! smaller one. A slot packs the hash's high bits with the depth in its low byte; entries are
//! replaced by deeper ones, or by any entry for another position. The table is zeroed lazily
//! by the allocator, so a search that touches few slots pays for few pages.

pub struct FailTable {
    slots: Vec<u64>,
    mask: usize,
}

const DEPTH_BITS: u64 = 0xFF;

impl FailTable {
    /// A table of at most `mb` megabytes (at least 1024 slots; a power of two).
    pub fn with_megabytes(mb: usize) -> FailTable {
        let wanted = ((mb << 20) / 8).max(1024);
        let slots = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        FailTable {
            slots: vec![0; slots],
            mask: slots - 1,
        }
    }

    /// Whether the position is known to fail within `depth`.
    #[inline]
    pub fn fails(&self, hash: u64, depth: u32) -> bool {
        let s = self.slots[hash as usize & self.mask];
        s & !DEPTH_BITS == hash & !DEPTH_BITS && (s & DEPTH_BITS) as u32 >= depth
    }

    #[inline]
    pub fn store(&mut self, hash: u64, depth: u32) {
        let depth = depth.min(DEPTH_BITS as u32) as u64;
        let s = &mut self.slots[hash as usize & self.mask];
        if *s & !DEPTH_BITS != hash & !DEPTH_BITS || *s & DEPTH_BITS < depth {
            *s = (hash & !DEPTH_BITS) | depth;
        }
    }
}
