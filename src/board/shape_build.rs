//! The line-shape table builder, shared with `build.rs`, which runs it at compile time so that
//! start-up costs nothing (see [`super::shape`]). This file may use nothing from the crate: the
//! build script includes it on its own.

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

/// Valid layouts of one five-cell half of a line key.
pub const SIDES: usize = 364;

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
pub struct SideIndex {
    left: Box<[u16; 1024]>,
    right: Box<[u16; 1024]>,
    /// Key bits of each left layout (slots 0-4) and right layout (slots 5-9).
    left_bits: Vec<u32>,
    right_bits: Vec<u32>,
}

impl SideIndex {
    /// The maps of both halves.
    pub fn new() -> SideIndex {
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

    /// The maps from the left and the right half of a key to its layout's number.
    #[allow(dead_code)] // `build.rs` includes this file and does not use it.
    pub fn maps(&self) -> (&[u16; 1024], &[u16; 1024]) {
        (&self.left, &self.right)
    }

    /// The compact index of a key.
    #[inline]
    pub fn of(&self, key: u32) -> usize {
        self.left[(key & 1023) as usize] as usize * SIDES
            + self.right[(key >> 10) as usize & 1023] as usize
    }
}

/// The combined shape bytes of one rule, indexed like [`SideIndex::of`]: a stone of black in
/// the low four bits, of white in the high four; `exact[c]` says whether only an exact five
/// wins for colour `c` (black 0, white 1).
pub fn build_shapes(exact: [bool; 2]) -> Vec<u8> {
    let index = SideIndex::new();
    let mut shapes = vec![0u8; SIDES * SIDES];
    for (c, &exact) in exact.iter().enumerate() {
        let mut b = Builder {
            own: c as u32 + 1,
            exact,
            index: &index,
            memo: vec![u8::MAX; SIDES * SIDES],
        };
        for &l in &index.left_bits {
            for &r in &index.right_bits {
                b.shape(l | r);
            }
        }
        for (entry, shape) in shapes.iter_mut().zip(&b.memo) {
            *entry |= shape << (4 * c);
        }
    }
    shapes
}
