//! Line-shape tables, built once per (exact-five or not, colour).
//!
//! A **line key** describes the ten cells around a point on one line, five each side, two bits
//! a cell (0 empty, 1 black, 2 white, 3 wall). Slot `s` holds the cell at offset `j` from the
//! point, `s = j + 5` for `j` in -5..=-1 and `s = j + 4` for `j` in 1..=5; the point itself is
//! not in its key. The table maps a key to the [`Shape`] a stone of the table's colour at the
//! point would make on that line, counting only fives and fours **through the point**.
//!
//! Shapes are defined by what one more stone does, which is exactly how the table is built:
//! a key's shape is computed from the shapes of the keys with one more own stone (memoised), and
//! only keys whose walls sit at the ends are built. The builder ([`super::shape_build`]) runs in
//! `build.rs`, so a process starts with the tables in its binary instead of spending about 8 ms
//! a rule on them.

use std::sync::OnceLock;

use super::point::{Color, Rule};
use super::shape_build::SideIndex;
pub use super::shape_build::{SIDES, Shape, shift};

/// The shape table of one rule in compact form: a key's two five-cell halves each have one of
/// only [`SIDES`] valid layouts (walls only at the far end), so `shapes` has `SIDES²` entries
/// (about 130 KB, which stays in cache), indexed through two 1024-entry maps from half-keys.
/// Each entry holds both colours' shapes: black in the low four bits, white in the high.
pub struct Compact {
    /// The half-key maps ([`SideIndex`]), held here rather than behind pointers: a lookup is
    /// then two loads at fixed offsets from the table and one into `shapes`. The left map's
    /// layout numbers come multiplied by [`SIDES`] already, so the entry's index is a sum.
    left: [u32; 1024],
    right: [u16; 1024],
    shapes: &'static [u8; SIDES * SIDES],
}

impl Compact {
    /// The combined shape byte of a line key.
    #[inline]
    pub fn get(&self, key: u32) -> u8 {
        self.get_halves(key, key >> 10)
    }

    /// The combined shape byte of the line key with these halves: the five cells before the
    /// point (the key's low ten bits) and the five after it (the next ten). Bits above a
    /// half's ten are ignored.
    #[inline]
    pub fn get_halves(&self, before: u32, after: u32) -> u8 {
        let l = self.left[(before & 1023) as usize];
        let r = u32::from(self.right[(after & 1023) as usize]);
        self.shapes[(l + r) as usize]
    }

    /// The shape a `color` stone makes on a line with this key.
    #[inline]
    pub fn shape(&self, key: u32, color: Color) -> Shape {
        Shape::from_u8((self.get(key) >> (4 * color.index())) & 15)
    }
}

/// Each rule's shapes, built by `build.rs` with [`build_shapes`] at compile time.
fn shapes(rule: Rule) -> &'static [u8] {
    match rule {
        Rule::Freestyle => include_bytes!(concat!(env!("OUT_DIR"), "/shapes-freestyle.bin")),
        Rule::Standard => include_bytes!(concat!(env!("OUT_DIR"), "/shapes-standard.bin")),
        Rule::Renju => include_bytes!(concat!(env!("OUT_DIR"), "/shapes-renju.bin")),
    }
}

static COMPACT: [OnceLock<Compact>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The shape table of `rule`: the shapes built at compile time and the half-key maps, made on
/// first use (microseconds).
pub fn compact(rule: Rule) -> &'static Compact {
    COMPACT[rule as usize].get_or_init(|| {
        let index = SideIndex::new();
        let (left, right) = index.maps();
        Compact {
            left: left.map(|l| u32::from(l) * SIDES as u32),
            right: *right,
            shapes: shapes(rule)
                .try_into()
                .expect("build.rs writes SIDES * SIDES shapes"),
        }
    })
}

/// Bit 0: the shape is a five; bit 1: it holds a four.
pub const FLAGS: [u8; 10] = [0, 0, 0, 0, 0, 2, 2, 2, 1, 0];

/// [`FLAGS`] of both halves of a combined shape byte: black's in bits 0-1, white's in 2-3.
pub const BYTE_FLAGS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let (lo, hi) = (b & 15, b >> 4);
        let black = if lo < 10 { FLAGS[lo] } else { 0 };
        let white = if hi < 10 { FLAGS[hi] } else { 0 };
        t[b] = black | white << 2;
        b += 1;
    }
    t
};

/// Per combined shape byte: bit 0 when black's shape is a three or a closed three, bit 1 when
/// white's is.
pub const BYTE_THREES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let (lo, hi) = (b & 15, b >> 4);
        t[b] = (lo == 3 || lo == 4) as u8 | ((hi == 3 || hi == 4) as u8) << 1;
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::super::shape_build::build_shapes;
    use super::*;

    #[test]
    fn compiled_tables_match_the_builder() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let exact = [rule.exact_five(Color::Black), rule.exact_five(Color::White)];
            assert!(shapes(rule) == build_shapes(exact).as_slice(), "{rule:?}");
        }
    }

    /// Builds a key from a picture of the line: 11 characters, the middle one the point.
    fn key(line: &str) -> u32 {
        let cells: Vec<char> = line.chars().collect();
        assert_eq!(cells.len(), 11);
        let mut key = 0;
        for (i, c) in cells.iter().enumerate() {
            let j = i as i32 - 5;
            if j == 0 {
                continue;
            }
            let code = match c {
                'x' => 1,
                'o' => 2,
                '|' => 3,
                _ => 0,
            };
            key |= code << shift(j);
        }
        key
    }

    /// Black's shape where only an exact five wins (`exact`, as in standard) or five or more.
    fn black(exact: bool, line: &str) -> Shape {
        let rule = if exact {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        compact(rule).shape(key(line), Color::Black)
    }

    #[test]
    fn shapes_of_black_stones() {
        assert_eq!(black(true, "...xx+xx..."), Shape::Five);
        assert_eq!(black(true, "..xxx+xx..."), Shape::Overline);
        assert_eq!(black(false, "..xxx+xx..."), Shape::Five);
        assert_eq!(black(true, "...xx+x...."), Shape::StraightFour);
        assert_eq!(black(true, "..oxx+x...."), Shape::Four);
        assert_eq!(black(true, "..x.x+x.x.."), Shape::FourFour);
        assert_eq!(black(true, "....x+x...."), Shape::Three);
        assert_eq!(black(true, "...x.+x...."), Shape::Three);
        assert_eq!(black(true, "...ox+x...."), Shape::ClosedThree);
        assert_eq!(
            black(true, "|||.x+x.|||"),
            Shape::ClosedThree,
            "walls leave room for one five"
        );
        assert_eq!(black(true, "|x..x+x...."), Shape::Three);
        assert_eq!(black(true, ".....+x...."), Shape::Two);
        assert_eq!(black(true, "....o+x...."), Shape::ClosedTwo);
        assert_eq!(black(true, ".....+....."), Shape::None);
        // Exact five: a four whose only five point makes six is no four.
        assert_eq!(black(true, "x.xxx+o...."), Shape::None);
        assert_eq!(black(false, "x.xxx+o...."), Shape::Four);
    }
}
