//! VCF: victory by continuous fours.
//!
//! The attacker plays only moves that make a four (or five); the defender's reply is forced: the
//! one point that stops the five. A defender block that makes a four of its own must be
//! answered: the attacker wins at once if it has a five, else it must block with a move that is
//! itself a four. Under renju black never plays a forbidden point, and white also wins when
//! black's only block is one. A transposition table remembers positions proven to fail within a
//! depth; `shortest` deepens the bound one attacker move at a time, so the first win found is
//! of minimum length.

use super::tt::FailTable;
use super::{Ending, Limits, Outcome, Solution};
use crate::board::{Board, Cell, Color, DIRS, Point};
use crate::pattern::{self, Class, Shape};

enum Step {
    Win(Ending),
    Fail,
    Abort,
}

struct Search<'a> {
    board: &'a mut Board,
    attacker: Color,
    count_five: bool,
    nodes: u64,
    max_nodes: u64,
    table: &'a mut FailTable,
    line: Vec<Point>,
}

/// Solves VCF for `attacker` (who moves first, whatever the board's side to move).
pub fn solve(board: &Board, attacker: Color, limits: Limits, shortest: bool) -> Solution {
    let mut scratch = board.clone();
    scratch.set_to_move(attacker);
    let mut table = FailTable::with_megabytes(64);
    let depths: Vec<u32> = if shortest {
        (1..=limits.depth).collect()
    } else {
        vec![limits.depth]
    };
    let mut nodes = 0;
    for depth in depths {
        let budget = Limits {
            depth,
            nodes: limits.nodes.saturating_sub(nodes),
            ..limits
        };
        let s = search_in_place(&mut scratch, attacker, budget, &mut table);
        nodes += s.nodes;
        if s.outcome != Outcome::NoWin {
            return Solution { nodes, ..s };
        }
    }
    Solution {
        outcome: Outcome::NoWin,
        line: Vec::new(),
        ending: None,
        nodes,
    }
}

/// What [`search_in_place`] returns.
pub type VcfRun = Solution;

/// Solves VCF on `board` as it stands, with `attacker` to move (the board's side to move must
/// be the attacker's), leaving the board as it found it. `table` may be shared between calls
/// for the same attacker and `count_five`: it only holds proven failures.
pub fn search_in_place(
    board: &mut Board,
    attacker: Color,
    limits: Limits,
    table: &mut FailTable,
) -> VcfRun {
    debug_assert_eq!(board.to_move(), attacker);
    let mut s = Search {
        board,
        attacker,
        count_five: limits.count_five,
        nodes: 0,
        max_nodes: limits.nodes,
        table,
        line: Vec::new(),
    };
    let (outcome, ending) = match s.search(limits.depth) {
        Step::Win(e) => (Outcome::Win, Some(e)),
        Step::Abort => (Outcome::Unknown, None),
        Step::Fail => (Outcome::NoWin, None),
    };
    let line = if outcome == Outcome::Win {
        std::mem::take(&mut s.line)
    } else {
        Vec::new()
    };
    Solution {
        outcome,
        line,
        ending,
        nodes: s.nodes,
    }
}

impl Search<'_> {
    /// The attacker is to move with at most `depth` moves left.
    fn search(&mut self, depth: u32) -> Step {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Step::Abort;
        }
        let (a, d) = (self.attacker, self.attacker.opponent());
        if depth == 0 {
            return Step::Fail;
        }
        if let Some(i) = self.board.five_points(a).first() {
            self.line.push(Point::from_index(i));
            return Step::Win(Ending::Five);
        }
        let foul_blocks = self.board.rule().has_fouls(d);
        if depth == 1 {
            return self.last_move(foul_blocks);
        }
        let hash = self.board.hash();
        if self.table.fails(hash, depth) {
            return Step::Fail;
        }
        let threats = *self.board.five_points(d);
        let candidates: Vec<usize> = match threats.count() {
            0 => self.ordered_fours(),
            1 => {
                let q = threats.first().unwrap_or(0);
                if self.board.four_points(a).contains(q) {
                    vec![q]
                } else {
                    vec![]
                }
            }
            _ => vec![],
        };
        for p in candidates {
            if a == Color::Black && pattern::foul_mut(self.board, p).is_some() {
                continue;
            }
            let step = self.try_four(p, depth);
            if !matches!(step, Step::Fail) {
                return step;
            }
        }
        self.table.store(hash, depth);
        Step::Fail
    }

    /// One attacker move left: only a four that opens two fives wins (a five was looked for
    /// already), and its shapes tell without playing it; against black under renju (white
    /// attacks, `foul_blocks`) so does a four whose block is forbidden for black. A white stone
    /// never adds to black's shapes, so that block can only be forbidden if some point on the
    /// four's line already shows black two threes, two fours or an overline: only such fours
    /// are played out. No table, no ordering: this is the leaf of every short VCF.
    fn last_move(&mut self, foul_blocks: bool) -> Step {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if self.count_five && !foul_blocks {
            return Step::Fail;
        }
        let threats = *self.board.five_points(d);
        if threats.count() >= 2 {
            return Step::Fail;
        }
        let fours = *self.board.four_points(a);
        for p in fours.iter() {
            if !threats.is_empty() && !threats.contains(p) {
                continue;
            }
            let shapes = self.board.shapes(p, a);
            let c = Class::of(&shapes);
            let two_fives = !self.count_five && (c.straight || c.fours >= 2);
            let worth_playing = two_fives || (foul_blocks && self.foul_near_four(p, &shapes));
            if !worth_playing {
                continue;
            }
            if a == Color::Black && pattern::foul_mut(self.board, p).is_some() {
                continue;
            }
            if let Step::Win(e) = self.try_four(p, 1) {
                return Step::Win(e);
            }
        }
        Step::Fail
    }

    /// Whether an empty point within four steps of `p`, on a line where `p` makes a four,
    /// shows black a possible foul (two threes, two fours or an overline, before the
    /// false-three check).
    fn foul_near_four(&self, p: usize, shapes: &[Shape; 4]) -> bool {
        shapes.iter().zip(DIRS).any(|(&s, step)| {
            matches!(s, Shape::Four | Shape::FourFour | Shape::StraightFour)
                && (-4..=4isize).any(|k| {
                    let q = (p as isize + k * step) as usize;
                    k != 0 && self.board.cell(q) == Cell::Empty && {
                        let c = Class::of(&self.board.shapes(q, Color::Black));
                        c.threes >= 2 || c.fours >= 2 || c.overline
                    }
                })
        })
    }

    /// Before the block of the second-to-last four: whether the last move could still win. When
    /// that move is read from shapes ([`Search::last_move`]) it must open two fives, and the
    /// block only takes attacker shapes away (its counter-four, if any, only narrows the
    /// attacker to one point), so a four point that opens two fives must be there already.
    fn last_move_can_win(&self) -> bool {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if self.board.rule().has_fouls(d) {
            return true;
        }
        !self.count_five
            && self.board.four_points(a).iter().any(|p| {
                let c = Class::of(&self.board.shapes(p, a));
                c.straight || c.fours >= 2
            })
    }

    /// Plays the four `p`, the forced block, and searches on.
    fn try_four(&mut self, p: usize, depth: u32) -> Step {
        let (a, d) = (self.attacker, self.attacker.opponent());
        self.board.play(Point::from_index(p));
        self.line.push(Point::from_index(p));
        let fives = *self.board.five_points(a);
        let step = match fives.count() {
            0 => Step::Fail,
            1 => {
                let q = fives.first().unwrap_or(0);
                if d == Color::Black && pattern::foul_mut(self.board, q).is_some() {
                    Step::Win(Ending::ForcedFoul)
                } else if depth < 2 || (depth == 2 && !self.last_move_can_win()) {
                    Step::Fail
                } else {
                    self.board.play(Point::from_index(q));
                    self.line.push(Point::from_index(q));
                    let step = self.search(depth - 1);
                    self.board.undo();
                    if !matches!(step, Step::Win(_)) {
                        self.line.pop();
                    }
                    step
                }
            }
            _ if depth >= 2 || !self.count_five => {
                // Two five points: the defender blocks one it may legally play, the attacker
                // makes another. If black may block none, that is a forced foul.
                let points: Vec<usize> = fives.iter().collect();
                let legal = |s: &mut Self, q: usize| {
                    d != Color::Black || pattern::foul_mut(s.board, q).is_none()
                };
                match points.iter().copied().find(|&q| legal(self, q)) {
                    Some(block) => {
                        let win = points
                            .iter()
                            .copied()
                            .find(|&q| q != block)
                            .unwrap_or(block);
                        self.line.push(Point::from_index(block));
                        self.line.push(Point::from_index(win));
                        Step::Win(Ending::DoubleThreat)
                    }
                    None => Step::Win(Ending::ForcedFoul),
                }
            }
            _ => Step::Fail,
        };
        self.board.undo();
        if !matches!(step, Step::Win(_)) {
            self.line.pop();
        }
        step
    }

    /// The attacker's fours, best first: those that win outright (straight four, or two fours
    /// outside renju's black), then by the threes they also make, then closest to the
    /// attacker's previous move (weights tuned on the public VCF cases: half the nodes of
    /// ordering by threes alone).
    fn ordered_fours(&self) -> Vec<usize> {
        let a = self.attacker;
        let previous = self.board.history().iter().rev().nth(1).map(|p| p.index());
        let mut scored: Vec<(i32, usize)> = self
            .board
            .four_points(a)
            .iter()
            .map(|i| {
                let c = Class::of(&self.board.shapes(i, a));
                let mut score =
                    20 * c.threes as i32 + 10 * c.closed_threes as i32 + 5 * c.twos as i32;
                if c.straight || c.fours >= 2 {
                    score += 1000;
                }
                score -= 10 * previous.map_or(0, |j| distance(i, j)) as i32;
                (-score, i)
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(_, i)| i).collect()
    }
}

/// Chebyshev distance between two cells of the padded array.
fn distance(i: usize, j: usize) -> usize {
    let stride = DIRS[1] as usize;
    let (dx, dy) = (
        (i % stride).abs_diff(j % stride),
        (i / stride).abs_diff(j / stride),
    );
    dx.max(dy)
}
