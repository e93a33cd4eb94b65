//! Candidate moves, threat-aware: what the side to move may play at a node.
//!
//! - It has a five: that move (the caller wins at once).
//! - The opponent has two five points: none helps (lost). One: the block, and only if it is
//!   legal (a black block that is forbidden under renju loses).
//! - The opponent has a winning threat on the board — a point where it would make an open
//!   four, two fours, or a four and an open three: the side to move's own fours (a four must
//!   be answered) and every empty point within four steps of a threat point on its four lines
//!   (any other stone leaves that point's lines, and so the threat, as they are).
//! - Otherwise: the empty points within `window` steps (Chebyshev) of a stone.
//!
//! Black's forbidden points under renju are never candidates.

use super::eval::{is_winning_threat, point_value};
use crate::board::shape::Shape;
use crate::board::{Bits, Board, CELLS, Cell, Color, DIRS, Rule, STRIDE};
use crate::pattern;

/// What the side to move faces at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// It makes five at once.
    Win,
    /// The opponent has two fives, or its one five can only be blocked on a forbidden point.
    Lost,
    /// Candidates were generated (forced: the only legal answer is among a few points).
    Moves {
        /// Whether the side to move must answer a five or a winning threat.
        forced: bool,
    },
}

/// Masks of the points within `r` (Chebyshev) of each cell, for r = 1..=4.
struct Windows {
    masks: Vec<Bits>,
}

/// The points within `r` (1 to 4) of cell `i`.
#[inline]
pub fn near(r: u8, i: usize) -> &'static Bits {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<Windows>; 4] = [const { OnceLock::new() }; 4];
    let r = r.clamp(1, 4);
    let table = TABLES[r as usize - 1].get_or_init(|| {
        let mut masks = vec![Bits::default(); CELLS];
        for (i, mask) in masks.iter_mut().enumerate() {
            let (x, y) = ((i % STRIDE) as isize, (i / STRIDE) as isize);
            for dy in -(r as isize)..=r as isize {
                for dx in -(r as isize)..=r as isize {
                    let (qx, qy) = (x + dx, y + dy);
                    if (0..STRIDE as isize).contains(&qx) && (0..STRIDE as isize).contains(&qy) {
                        mask.set((qy as usize) * STRIDE + qx as usize, true);
                    }
                }
            }
        }
        Windows { masks }
    });
    &table.masks[i]
}

/// The points within `r` of any stone; on an empty board, the centre.
pub fn area(board: &Board, r: u8) -> Bits {
    let mut a = Bits::default();
    for c in [Color::Black, Color::White] {
        for p in board.stones(c) {
            a.union_with(near(r, p.index()));
        }
    }
    if board.total_stones() == 0 {
        let c = board.size() / 2;
        if let Some(centre) = crate::board::Point::new(c, c) {
            a.set(centre.index(), true);
        }
    }
    a
}

/// How a node's candidates answer the opponent's winning threats (see [`generate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threats {
    /// Threats do not narrow the list (the textbook engine: a five still must be blocked).
    Off,
    /// The side to move's fours and the points that defuse every threat point at once (for
    /// each, the point itself and the empty points within four steps on the lines where it
    /// makes a three or better: no stone elsewhere changes what it makes; the intersection
    /// over the threat points); when no legal point defuses every threat, the wide points:
    /// every empty point within four steps of a threat point on any of its lines.
    Tight,
    /// [`Threats::Tight`] and the tempo defences among the wide points: those where the side
    /// makes a three of its own, closed or open, so that its block of the opponent's four can
    /// make a four. The root's candidates, so that an analysis lists every defence; inside the
    /// search they cost more than they found (docs/strength.md).
    TightWithTempo,
}

/// Generates the candidates of the side to move into `out` (cell indexes with their ordering
/// values, unsorted); `area` is the window around the stones. `threats` says how the
/// opponent's winning threats narrow the list.
pub fn generate(
    board: &mut Board,
    area: &Bits,
    out: &mut Vec<(i32, u16)>,
    threats: Threats,
) -> Node {
    out.clear();
    let me = board.to_move();
    let opp = me.opponent();
    if !board.five_points(me).is_empty() {
        return Node::Win;
    }
    let fives = *board.five_points(opp);
    match fives.count() {
        0 => {}
        1 => {
            let q = fives.first().unwrap_or(0);
            if pattern::forbidden(board, me, q) {
                return Node::Lost;
            }
            out.push((0, q as u16));
            return Node::Moves { forced: true };
        }
        _ => return Node::Lost,
    }
    if threats == Threats::Off {
        push_legal(board, area, me, out, false);
        return Node::Moves { forced: false };
    }
    // The opponent's winning threats: every point within four steps of one on any of its
    // lines (wide), and the points that touch every one on its lines of a three or better
    // (common).
    let mut wide = Bits::default();
    let mut common: Option<Bits> = None;
    let opp_fours = *board.four_points(opp);
    for t in opp_fours.iter() {
        let Some(shapes) = winning_threat(board, opp, t) else {
            continue;
        };
        let mut zone = Bits::default();
        zone.set(t, true);
        for (line, step) in DIRS.into_iter().enumerate() {
            let relevant = shapes[line] >= Shape::Three;
            for k in -4..=4isize {
                let j = (t as isize + k * step) as usize;
                if board.cell(j) == Cell::Empty {
                    wide.set(j, true);
                    if relevant {
                        zone.set(j, true);
                    }
                }
            }
        }
        match common.as_mut() {
            Some(c) => c.intersect_with(&zone),
            None => common = Some(zone),
        }
    }
    let Some(common) = common else {
        push_legal(board, area, me, out, false);
        return Node::Moves { forced: false };
    };
    let fours = *board.four_points(me);
    // Each point is judged legal once: the direct defences first, then the rest.
    push_legal(board, &common, me, out, false);
    if !out.is_empty() {
        let mut rest = fours;
        // The tempo defences near the threats: a move that makes a three of the side's
        // own, so that blocking the opponent's four can make its four.
        if threats == Threats::TightWithTempo {
            for p in wide.iter() {
                if board.shapes(p, me).iter().any(|&s| s >= Shape::ClosedThree) {
                    rest.set(p, true);
                }
            }
        }
        for &(_, m) in out.iter() {
            rest.set(m as usize, false);
        }
        push_legal(board, &rest, me, out, false);
        return Node::Moves { forced: true };
    }
    wide.union_with(&fours);
    push_legal(board, &wide, me, out, true);
    Node::Moves { forced: true }
}

/// The shapes at four point `t` of `opp` when it is a winning threat there (an open four,
/// two fours, or a four and an open three, not a foul).
fn winning_threat(board: &mut Board, opp: Color, t: usize) -> Option<[Shape; 4]> {
    let shapes = board.shapes(t, opp);
    (is_winning_threat(&shapes) && !pattern::forbidden(board, opp, t)).then_some(shapes)
}

/// Whether [`generate`] would give the side to move every legal point of its area (what
/// [`push_legal`] puts in), not forced, and at least two of them: the opponent has no five to
/// block and no winning threat to answer, and the side is not down to one candidate. The
/// search may then decide the node before it generates the list.
pub fn open_node(board: &mut Board, area: &Bits, threats: Threats) -> bool {
    let opp = board.to_move().opponent();
    if !board.five_points(opp).is_empty() {
        return false;
    }
    let fours = *board.four_points(opp);
    if threats != Threats::Off
        && fours
            .iter()
            .any(|t| winning_threat(board, opp, t).is_some())
    {
        return false;
    }
    let mut empty = *area;
    empty.intersect_with(board.empty_bits());
    let me = board.to_move();
    if board.rule() != Rule::Renju || me == Color::White {
        return empty.count() >= 2;
    }
    empty
        .iter()
        .filter(|&i| !pattern::forbidden(board, me, i))
        .take(2)
        .count()
        >= 2
}

/// Puts the legal empty points of `set` into `out` with their values (replacing what `out`
/// held when `replace`).
pub fn push_legal(
    board: &mut Board,
    set: &Bits,
    me: Color,
    out: &mut Vec<(i32, u16)>,
    replace: bool,
) {
    if replace {
        out.clear();
    }
    for i in set.iter() {
        if board.cell(i) == Cell::Empty && !pattern::forbidden(board, me, i) {
            out.push((point_value(board, i, me), i as u16));
        }
    }
}
