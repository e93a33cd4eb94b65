//! The static evaluation, and the value of a single point.
//!
//! **Position.** The board keeps, for each colour, a running tally of the shapes its stones
//! would make at every empty cell on every line ([`Board::shape_tally`]): how many ways it has
//! to make a two, a three, a four, a five. It also keeps, per colour, how many empty cells
//! show each **combination** over their four lines ([`Board::combo_counts`]): a winning threat
//! (a four and a three, two fours, a straight four), two threes, a four with a two, a three
//! with a two. A point where the opponent would make two threes, or the side to move would, is
//! worth far more than its lines counted one by one: the side to move makes its double three
//! with tempo, or must spend its move on the opponent's. The evaluation weighs both, the side
//! to move's against the opponent's, so a leaf costs a few multiplications and nothing is
//! scanned. The scale is **centi-stones**-like points: 100 is roughly an open three's worth of
//! initiative; mate scores lie beyond [`MATE_BOUND`].
//!
//! **Win probability.** `p = 1 / (1 + exp(-score / 400))`: 0 is even, ±400 is about 73/27, and
//! a mate is 1 or 0.
//!
//! **Point.** The value of a move at one point ([`point_value`]) reads the four lines' shapes
//! there for both colours: what the move makes (attack) and what it takes from the opponent
//! (defence), with the combinations the classic weight-table engines rank (five ≫ open four ≫
//! four-three ≈ double three ≫ open three ≫ four ≫ two twos ≫ …). It orders moves and is the
//! one-ply weight map.

use crate::board::shape::Shape;
use crate::board::{Board, COMBOS, Color};
use crate::pattern::Class;

/// A mate: the side to move wins with its five on the ply `MATE - score` (from the root).
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// Weights of one line's shape at an empty cell, per shape code, for the side to move and for
/// the opponent. Tuned by self-play (docs/strength.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The side to move's shapes.
    pub own: [i32; 10],
    /// The opponent's shapes.
    pub their: [i32; 10],
    /// The side to move's points of each combination class (see
    /// [`Board::combo_counts`]): none, three and two, four and two, two threes, winning
    /// threat.
    pub combo_own: [i32; COMBOS],
    /// The opponent's.
    pub combo_their: [i32; COMBOS],
}

impl Default for Weights {
    fn default() -> Weights {
        // None, closed two, two, closed three, three, four, straight four, four-four, five,
        // overline.
        Weights {
            own: [0, 2, 7, 6, 22, 26, 70, 70, 200, 0],
            their: [0, 2, 6, 5, 18, 20, 60, 60, 150, 0],
            // None, three and two, four and two, two threes, winning threat: the combinations
            // a shape count misses (their record is in docs/strength.md).
            combo_own: [0, 10, 10, 80, 60],
            combo_their: [0, 8, 8, 60, 90],
        }
    }
}

/// The static value of the position for the side to move.
#[inline]
pub fn evaluate(board: &Board, w: &Weights) -> i32 {
    let me = board.to_move();
    let (own, their) = (board.shape_tally(me), board.shape_tally(me.opponent()));
    let mut s = 0;
    for k in 1..9 {
        s += w.own[k] * own[k] - w.their[k] * their[k];
    }
    let (own, their) = (board.combo_counts(me), board.combo_counts(me.opponent()));
    let mut c = 0;
    for k in 1..COMBOS {
        c += w.combo_own[k] * own[k] - w.combo_their[k] * their[k];
    }
    s / 2 + c
}

/// Evaluation points a logit: the scale the learned tables are fitted in
/// ([`crate::analyze::learn::SCALE`]; every shipped table file says `scale 400`).
pub const WIN_SCALE: f64 = 400.0;

/// The win probability of a score, for the side it favours: `1 / (1 + e^(-score/400))` (the
/// fitted tables' scale, [`WIN_SCALE`]), and exactly 1 or 0 for a mate.
pub fn win_probability(score: i32) -> f64 {
    if score > MATE_BOUND {
        1.0
    } else if score < -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-score as f64 / WIN_SCALE).exp())
    }
}

/// What one stone of a colour makes at a point, as one number: the classic ranking.
#[inline]
pub fn class_value(c: &Class) -> i32 {
    if c.five {
        return 100_000;
    }
    if c.straight || c.fours >= 2 {
        return 20_000;
    }
    if c.fours >= 1 && c.threes >= 1 {
        return 10_000;
    }
    if c.threes >= 2 {
        return 5_000;
    }
    let mut v = 0;
    if c.fours >= 1 {
        v += 600;
    }
    v += 500 * c.threes as i32
        + 120 * c.closed_threes as i32
        + 90 * c.twos as i32
        + 20 * c.closed_twos as i32;
    if c.twos >= 2 {
        v += 150;
    }
    v
}

/// Per shape code, the shape counted into packed class counts: a nibble each for closed twos
/// (bits 0-3), twos (4-7), closed threes (8-11), threes (12-15), fours (16-19), straight
/// fours (20-23) and fives (24-27).
const COUNT: [u32; 16] = {
    let mut t = [0u32; 16];
    t[1] = 1; // closed two
    t[2] = 1 << 4; // two
    t[3] = 1 << 8; // closed three
    t[4] = 1 << 12; // three
    t[5] = 1 << 16; // four
    t[6] = 1 << 16 | 1 << 20; // straight four
    t[7] = 2 << 16; // two fours on one line
    t[8] = 1 << 24; // five
    t
};

/// Per packed shape byte (both colours): both colours' counts, black's in the low half.
static BYTE_COUNTS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = COUNT[b & 15] as u64 | (COUNT[b >> 4] as u64) << 32;
        b += 1;
    }
    t
};

/// [`class_value`] read from packed counts.
#[inline]
fn packed_value(p: u32) -> i32 {
    let field = |shift: u32| ((p >> shift) & 15) as i32;
    let (fives, fours, straight, threes) = (field(24), field(16), field(20), field(12));
    if fives > 0 {
        return 100_000;
    }
    if straight > 0 || fours >= 2 {
        return 20_000;
    }
    if fours >= 1 && threes >= 1 {
        return 10_000;
    }
    if threes >= 2 {
        return 5_000;
    }
    let twos = field(4);
    600 * fours
        + 500 * threes
        + 120 * field(8)
        + 90 * twos
        + 20 * field(0)
        + if twos >= 2 { 150 } else { 0 }
}

/// The value of playing `index` for the side `me`: what it makes, plus most of what it takes
/// from the opponent there. Read from the four packed shape bytes, with no branch per line.
#[inline]
pub fn point_value(board: &Board, index: usize, me: Color) -> i32 {
    let b = board.shape_bytes(index);
    let both = BYTE_COUNTS[b[0] as usize]
        + BYTE_COUNTS[b[1] as usize]
        + BYTE_COUNTS[b[2] as usize]
        + BYTE_COUNTS[b[3] as usize];
    let (black, white) = (both as u32, (both >> 32) as u32);
    let (own, their) = if me == Color::Black {
        (black, white)
    } else {
        (white, black)
    };
    packed_value(own) + packed_value(their) * 4 / 5
}

/// Whether a shape at a point lets the colour win by force from there (an open four, two
/// fours, or a four and an open three).
#[inline]
pub fn is_winning_threat(shapes: &[Shape; 4]) -> bool {
    let c = Class::of(shapes);
    c.straight || c.fours >= 2 || (c.fours >= 1 && c.threes >= 1)
}

/// What a move by `me` at `index` makes for `me` and what it stops for the opponent (what the
/// opponent would have made there), in words: see [`shape_words`].
pub fn move_words(
    board: &Board,
    index: usize,
    me: Color,
) -> (Vec<&'static str>, Vec<&'static str>) {
    let words = |c: Color| shape_words(&Class::of(&board.shapes(index, c)));
    (words(me), words(me.opponent()))
}

/// What a stone of one colour makes at a point, in words, strongest first: `five`,
/// `open four`, `double four`, `four-three`, `four`, `double three`, `open three`,
/// `closed three`, `two twos`, `open two`. Empty when it makes none of these.
pub fn shape_words(c: &Class) -> Vec<&'static str> {
    let mut w = Vec::new();
    if c.five {
        w.push("five");
        return w;
    }
    if c.straight {
        w.push("open four");
    } else if c.fours >= 2 {
        w.push("double four");
    } else if c.fours == 1 && c.threes >= 1 {
        w.push("four-three");
    } else if c.fours == 1 {
        w.push("four");
    }
    if c.threes >= 2 {
        w.push("double three");
    } else if c.threes == 1 && c.fours == 0 {
        w.push("open three");
    }
    if c.closed_threes >= 1 && c.fours == 0 && c.threes == 0 {
        w.push("closed three");
    }
    if w.is_empty() {
        if c.twos >= 2 {
            w.push("two twos");
        } else if c.twos == 1 {
            w.push("open two");
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Point, Rule};

    /// The packed reading gives the same value as the class, at every point of a few games.
    #[test]
    fn packed_point_values_match_the_classes() {
        for rule in Rule::ALL {
            let mut b = Board::new(15, rule).unwrap();
            for (k, m) in [
                "h8", "i9", "i8", "g8", "j7", "h9", "j9", "j8", "g10", "k6", "f11",
            ]
            .iter()
            .enumerate()
            {
                b.play(m.parse::<Point>().unwrap());
                for p in b.empty_points().collect::<Vec<_>>() {
                    for c in [Color::Black, Color::White] {
                        let slow = class_value(&Class::of(&b.shapes(p.index(), c)))
                            + class_value(&Class::of(&b.shapes(p.index(), c.opponent()))) * 4 / 5;
                        assert_eq!(point_value(&b, p.index(), c), slow, "{rule} {k} {p}");
                    }
                }
            }
        }
    }
}
