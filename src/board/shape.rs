//! Line-shape tables, built once per (exact-five or not, colour).
//!
//! A **line key** describes the ten cells around a point on one line, five each side, two bits
//! a cell (0 empty, 1 black, 2 white, 3 wall). Slot `s` holds the cell at offset `j` from the
//! point, `s = j + 5` for `j` in -5..=-1 and `s = j + 4` for `j` in 1..=5; the point itself is
//! not in its key. The table maps a key to the [`Shape`] a stone of the table's colour at the
//! point would make on that line, counting only fives and fours **through the point**.
//!
//! Shapes are defined by what one more stone does, which is exactly how the table is built:
//! a key's shape is computed from the shapes of the keys with one more own stone (memoised), so
//! the whole table costs a few milliseconds and only keys whose walls sit at the ends are built.

use std::sync::OnceLock;

use super::point::{Color, Rule};

/// The shape a stone makes on one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shape {
    /// Nothing: one more stone can make no three, four or five on this line.
    None = 0,
    /// A closed two: one more stone can make a closed three, but not an open one.
    ClosedTwo = 1,
    /// An open two: one more stone can make an open three.
    Two = 2,
    /// A closed three: one more stone can make a four, but not a straight four.
    ClosedThree = 3,
    /// An open three: one more stone can make a straight four.
    Three = 4,
    /// A four: exactly one point completes a five.
    Four = 5,
    /// A straight four: four in a row with both ends completing a five.
    StraightFour = 6,
    /// Two fours on one line (`x.xxx.x` filled in the middle): two separate five points.
    FourFour = 7,
    /// A five: the stone completes a winning line (longer than five only where the rule lets
    /// that win).
    Five = 8,
    /// Six or more in a row where only an exact five wins.
    Overline = 9,
}

impl Shape {
    /// Every shape, weakest first: `ALL[v]` is the shape whose code is `v`.
    pub const ALL: [Shape; 10] = [
        Shape::None,
        Shape::ClosedTwo,
        Shape::Two,
        Shape::ClosedThree,
        Shape::Three,
        Shape::Four,
        Shape::StraightFour,
        Shape::FourFour,
        Shape::Five,
        Shape::Overline,
    ];

    /// The shape whose code is `v`, as the shape tables store it; `v` must be below 10.
    #[inline]
    pub fn from_u8(v: u8) -> Shape {
        Shape::ALL[v as usize]
    }

    /// How many fours the shape holds (a straight four is one four with two ends).
    #[inline]
    pub fn fours(self) -> u8 {
        match self {
            Shape::Four | Shape::StraightFour => 1,
            Shape::FourFour => 2,
            _ => 0,
        }
    }
}

/// Bit shift of the slot holding offset `j` (-5..=-1, 1..=5).
#[inline]
pub const fn shift(j: i32) -> u32 {
    2 * (if j < 0 { j + 5 } else { j + 4 }) as u32
}

const EMPTY: u32 = 0;
const WALL: u32 = 3;
const OFFSETS: [i32; 10] = [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5];

struct Builder<'a> {
    own: u32,
    exact: bool,
    index: &'a SideIndex,
    /// Shapes by compact index, `u8::MAX` while unknown.
    memo: Vec<u8>,
}

impl Builder<'_> {
    #[inline]
    fn cell(key: u32, j: i32) -> u32 {
        (key >> shift(j)) & 3
    }

    fn run(&self, key: u32) -> usize {
        let mut run = 1;
        for sign in [1, -1] {
            let mut j = sign;
            while (-5..=5).contains(&j) && Builder::cell(key, j) == self.own {
                run += 1;
                j += sign;
            }
        }
        run
    }

    fn shape(&mut self, key: u32) -> u8 {
        let slot = self.index.of(key);
        let known = self.memo[slot];
        if known != u8::MAX {
            return known;
        }
        let run = self.run(key);
        let shape = if run == 5 || (run > 5 && !self.exact) {
            Shape::Five
        } else if run > 5 {
            Shape::Overline
        } else {
            let mut fives = [0i32; 10];
            let mut n_fives = 0;
            let mut next = 0u16; // the set of shapes one more stone can make
            for j in OFFSETS {
                if Builder::cell(key, j) == EMPTY {
                    let s = self.shape(key | self.own << shift(j));
                    if s == Shape::Five as u8 {
                        fives[n_fives] = j;
                        n_fives += 1;
                    } else {
                        next |= 1 << s;
                    }
                }
            }
            let can = |s: Shape| next & (1 << s as u8) != 0;
            match n_fives {
                0 if can(Shape::StraightFour) => Shape::Three,
                0 if can(Shape::Four) || can(Shape::FourFour) => Shape::ClosedThree,
                0 if can(Shape::Three) => Shape::Two,
                0 if can(Shape::ClosedThree) => Shape::ClosedTwo,
                0 => Shape::None,
                1 => Shape::Four,
                2 if fives[1] - fives[0] == 5 => Shape::StraightFour,
                _ => Shape::FourFour,
            }
        };
        self.memo[slot] = shape as u8;
        shape as u8
    }
}

/// Every key whose walls lie at the ends of the line (the only keys a board produces).
fn valid_sides() -> Vec<u32> {
    // One side: `n` non-wall cells nearest the point, then walls; bits for offsets 1..=5.
    let mut sides = Vec::new();
    for n in 0..=5u32 {
        for mut v in 0..3u32.pow(n) {
            let mut bits = 0;
            for k in 0..5 {
                let code = if k < n {
                    let c = v % 3;
                    v /= 3;
                    c
                } else {
                    WALL
                };
                bits |= code << (2 * k);
            }
            sides.push(bits);
        }
    }
    sides
}

/// Maps each half of a line key to its index among the [`SIDES`] valid layouts.
struct SideIndex {
    left: Box<[u16; 1024]>,
    right: Box<[u16; 1024]>,
    /// Key bits of each left layout (slots 0-4) and right layout (slots 5-9).
    left_bits: Vec<u32>,
    right_bits: Vec<u32>,
}

impl SideIndex {
    fn new() -> SideIndex {
        let sides = valid_sides();
        debug_assert_eq!(sides.len(), SIDES);
        let (mut left, mut right) = (Box::new([0u16; 1024]), Box::new([0u16; 1024]));
        let (mut left_bits, mut right_bits) = (Vec::new(), Vec::new());
        for (n, &side) in sides.iter().enumerate() {
            // `side` lists offsets 1..=5 outwards; the right half uses that order, the left
            // half (slots 4, 3, …) the mirror.
            let mut l = 0;
            for k in 0..5i32 {
                l |= ((side >> (2 * k)) & 3) << shift(-k - 1);
            }
            left[l as usize] = n as u16;
            right[side as usize] = n as u16;
            left_bits.push(l);
            right_bits.push(side << 10);
        }
        SideIndex {
            left,
            right,
            left_bits,
            right_bits,
        }
    }

    /// The compact index of a key.
    #[inline]
    fn of(&self, key: u32) -> usize {
        self.left[(key & 1023) as usize] as usize * SIDES
            + self.right[(key >> 10) as usize] as usize
    }
}

/// The shape table of one rule in compact form: a key's two five-cell halves each have one of
/// only [`SIDES`] valid layouts (walls only at the far end), so `shapes` has `SIDES²` entries
/// (about 130 KB, which stays in cache), indexed through two 1024-entry maps from half-keys.
/// Each entry holds both colours' shapes: black in the low four bits, white in the high.
pub struct Compact {
    index: SideIndex,
    shapes: Box<[u8]>,
}

/// Valid layouts of one five-cell half of a line key.
pub const SIDES: usize = 364;

impl Compact {
    /// The combined shape byte of a line key.
    #[inline]
    pub fn get(&self, key: u32) -> u8 {
        self.shapes[self.index.of(key)]
    }

    /// The shape a `color` stone makes on a line with this key.
    #[inline]
    pub fn shape(&self, key: u32, color: Color) -> Shape {
        Shape::from_u8((self.get(key) >> (4 * color.index())) & 15)
    }

    fn build(rule: Rule) -> Compact {
        let index = SideIndex::new();
        let mut shapes = vec![0u8; SIDES * SIDES].into_boxed_slice();
        for color in [Color::Black, Color::White] {
            let own = match color {
                Color::Black => 1,
                Color::White => 2,
            };
            let mut b = Builder {
                own,
                exact: rule.exact_five(color),
                index: &index,
                memo: vec![u8::MAX; SIDES * SIDES],
            };
            for &l in &index.left_bits {
                for &r in &index.right_bits {
                    b.shape(l | r);
                }
            }
            for (entry, shape) in shapes.iter_mut().zip(&b.memo) {
                *entry |= shape << (4 * color.index());
            }
        }
        Compact { index, shapes }
    }
}

static COMPACT: [OnceLock<Compact>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The shape table of `rule`, built on first use (a few milliseconds).
pub fn compact(rule: Rule) -> &'static Compact {
    COMPACT[rule as usize].get_or_init(|| Compact::build(rule))
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

#[cfg(test)]
mod tests {
    use super::*;

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
