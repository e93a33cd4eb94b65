//! Shapes a stone makes, and Renju forbidden points.
//!
//! [`shape`] (in the board) maps a cell's line key to the [`Shape`] a stone there would make on that line; the
//! board keeps those shapes up to date on every move. [`Class`] sums up the four lines of a
//! cell. [`foul`] judges black's forbidden points under renju (RIF 9.2 / 9.3): overline, double
//! four (also two fours on one line) and double three, where a three counts only when one of
//! its straight-four points is itself a legal move, judged recursively; a move that makes five
//! is never forbidden. [`reference`](mod@reference) is a slow judge written from the definitions alone, kept
//! to check the fast one and to verify proofs.

pub mod reference;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::board::shape::{self, Shape};
use crate::board::{Board, Color, DIRS, Point};

/// Why a point is forbidden for black under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Foul {
    /// Six or more black stones in a row.
    Overline,
    /// Two or more fours at once, two on one line included.
    DoubleFour,
    /// Two or more real open threes at once.
    DoubleThree,
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double four",
            Foul::DoubleThree => "double three",
        })
    }
}

/// What a stone of one colour would make at a cell, summed over its four lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Class {
    /// The stone completes a winning line.
    pub five: bool,
    /// The stone makes six or more in a row where only an exact five wins.
    pub overline: bool,
    /// Fours, counting two on a line with two separate five points.
    pub fours: u8,
    /// Whether one of the fours is a straight four.
    pub straight: bool,
    /// Open threes (for black under renju, before the false-three check).
    pub threes: u8,
    /// Closed threes: one more stone makes a four, but not a straight four.
    pub closed_threes: u8,
    /// Open twos: one more stone makes an open three.
    pub twos: u8,
    /// Closed twos: one more stone makes a closed three, but not an open one.
    pub closed_twos: u8,
}

impl Class {
    /// Sums up the shapes a stone makes on its four lines, as [`Board::shapes`] gives them:
    /// four table reads summed in byte fields ([`CLASS_UNITS`]), no branch per line.
    #[inline]
    pub fn of(shapes: &[Shape; 4]) -> Class {
        let sum: u64 = shapes.iter().map(|&s| CLASS_UNITS[s as usize]).sum();
        let field = |k: u32| (sum >> (8 * k)) as u8;
        Class {
            five: field(0) != 0,
            overline: field(1) != 0,
            fours: field(2),
            straight: field(3) != 0,
            threes: field(4),
            closed_threes: field(5),
            twos: field(6),
            closed_twos: field(7),
        }
    }
}

/// Per shape code, its contribution to a [`Class`], a byte a field in declaration order:
/// five, overline, fours (two for a line with two fours), straight, threes, closed threes,
/// twos, closed twos. Four lines never carry a byte into the next.
const CLASS_UNITS: [u64; 16] = {
    let mut t = [0u64; 16];
    t[Shape::Five as usize] = 1;
    t[Shape::Overline as usize] = 1 << 8;
    t[Shape::Four as usize] = 1 << 16;
    t[Shape::FourFour as usize] = 2 << 16;
    t[Shape::StraightFour as usize] = 1 << 16 | 1 << 24;
    t[Shape::Three as usize] = 1 << 32;
    t[Shape::ClosedThree as usize] = 1 << 40;
    t[Shape::Two as usize] = 1 << 48;
    t[Shape::ClosedTwo as usize] = 1 << 56;
    t
};

/// The class of a `color` stone at the empty point `p`.
pub fn class(board: &Board, p: Point, color: Color) -> Class {
    Class::of(&board.shapes(p.index(), color))
}

/// Whether a black stone at the empty point `p` would be forbidden (always `None` unless the
/// board's rule is renju). Takes a copy of the board only when a double three must be judged.
pub fn foul(board: &Board, p: Point) -> Option<Foul> {
    if !board.rule().has_fouls(Color::Black) || !board.is_empty(p) {
        return None;
    }
    match quick_foul(board, p.index()) {
        Quick::Decided(f) => f,
        Quick::DoubleThree => double_three(&mut board.clone(), p.index()),
    }
}

/// [`foul`] on a board the caller lets it borrow mutably (it puts stones and takes them back):
/// no copy, for the searches.
pub fn foul_mut(board: &mut Board, index: usize) -> Option<Foul> {
    if !board.rule().has_fouls(Color::Black) {
        return None;
    }
    match quick_foul(board, index) {
        Quick::Decided(f) => f,
        Quick::DoubleThree => double_three(board, index),
    }
}

/// Whether `color` may not play the empty cell `index`: a black foul under renju (the one
/// legality test the solvers use; it borrows the board to judge double threes in place).
#[inline]
pub fn forbidden(board: &mut Board, color: Color, index: usize) -> bool {
    color == Color::Black && foul_mut(board, index).is_some()
}

enum Quick {
    Decided(Option<Foul>),
    /// Two or more threes: whether they are real needs the recursive check.
    DoubleThree,
}

fn quick_foul(board: &Board, i: usize) -> Quick {
    let c = Class::of(&board.shapes(i, Color::Black));
    if c.five {
        Quick::Decided(None)
    } else if c.overline {
        Quick::Decided(Some(Foul::Overline))
    } else if c.fours >= 2 {
        Quick::Decided(Some(Foul::DoubleFour))
    } else if c.threes >= 2 {
        Quick::DoubleThree
    } else {
        Quick::Decided(None)
    }
}

/// Counts the real threes of a black stone at `i` (known to have at least two open threes and
/// no five, overline or double four); two or more make it a double-three foul.
fn double_three(board: &mut Board, i: usize) -> Option<Foul> {
    let shapes = board.shapes(i, Color::Black);
    board.drop_stone(i, Color::Black);
    let mut real = 0;
    for d in (0..4).filter(|&d| shapes[d] == Shape::Three) {
        let key = board.key(i, d);
        let is_real = (-4i32..=4).filter(|&k| k != 0).any(|k| {
            let q = (i as isize + k as isize * DIRS[d]) as usize;
            // q completes a straight four through i on this line, and is itself legal.
            board.cell(q) == crate::board::Cell::Empty
                && board.key_shape(key | 1 << shape::shift(k), Color::Black) == Shape::StraightFour
                && foul_mut(board, q).is_none()
        });
        if is_real {
            real += 1;
            if real == 2 {
                break;
            }
        }
    }
    board.lift(i);
    (real >= 2).then_some(Foul::DoubleThree)
}

/// Every forbidden point of the board for black, in point order (empty unless renju).
pub fn fouls(board: &Board) -> Vec<(Point, Foul)> {
    if !board.rule().has_fouls(Color::Black) {
        return Vec::new();
    }
    let mut scratch = board.clone();
    board
        .empty_points()
        .filter_map(|p| foul_mut(&mut scratch, p.index()).map(|f| (p, f)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table sum gives the class the shapes spell out, for every four shapes.
    #[test]
    fn class_of_matches_the_shapes_for_every_combination() {
        let all: Vec<Shape> = (0..10).map(Shape::from_u8).collect();
        for &a in &all {
            for &b in &all {
                for &c in &all {
                    for &d in &all {
                        let shapes = [a, b, c, d];
                        let mut want = Class::default();
                        for s in shapes {
                            match s {
                                Shape::Five => want.five = true,
                                Shape::Overline => want.overline = true,
                                Shape::Four | Shape::FourFour => want.fours += s.fours(),
                                Shape::StraightFour => {
                                    want.fours += 1;
                                    want.straight = true;
                                }
                                Shape::Three => want.threes += 1,
                                Shape::ClosedThree => want.closed_threes += 1,
                                Shape::Two => want.twos += 1,
                                Shape::ClosedTwo => want.closed_twos += 1,
                                Shape::None => {}
                            }
                        }
                        assert_eq!(Class::of(&shapes), want, "{shapes:?}");
                    }
                }
            }
        }
    }
}
