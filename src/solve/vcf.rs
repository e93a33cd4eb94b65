//! VCF: victory by continuous fours.
//!
//! The attacker plays only moves that make a four (or five); the defender's reply is forced: the
//! one point that stops the five. A defender block that makes a four of its own must be
//! answered: the attacker wins at once if it has a five, else it must block with a move that is
//! itself a four. Under renju black never plays a forbidden point, and white also wins when
//! black's only block is one. A transposition table remembers positions proven to fail within a
//! depth; `shortest` deepens the bound one attacker move at a time, so the first win found is
//! of minimum length. Without it, a search from [`VcfSolver::solve`] first probes each of the
//! root's fours within a small node budget, so one four's large failing subtree does not hold
//! up a quick win by another; the searches inside the VCT and the analyzer run depth-first
//! alone.

use super::progress;
use super::tt::{FailTable, MemoryError};
use super::{Ending, Limits, Outcome, Solution, order_score};
use crate::board::{Board, Cell, Color, DIRS, Point};
use crate::pattern::{self, Class, Shape};

enum Step {
    Win(Ending),
    Fail,
    Abort,
}

/// A reusable VCF solver: it owns its failure table and its buffers, so a search after the
/// first allocates nothing (the table may still grow, up to its cap, when a search needs
/// more). Failures are facts about positions, so the table may be kept between searches of
/// any position; [`VcfSolver::clear`] forgets them without allocating, and [`VcfSolver::reset`]
/// also shrinks the table back, for node counts that do not depend on what ran before.
pub struct VcfSolver {
    table: FailTable,
    line: Vec<Point>,
    /// Candidate moves of every node on the current path, as a stack.
    moves: Vec<(i32, usize)>,
    scratch: Option<Board>,
}

/// What [`VcfSolver::search`] found; a win's line is [`VcfSolver::line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Win, no win within the depth, or unknown (the node budget ran out).
    pub outcome: Outcome,
    /// How a win ends.
    pub ending: Option<Ending>,
    /// Positions searched.
    pub nodes: u64,
    /// Whether the depth bound cut some line short (or a failure stored at some depth was
    /// reused). A no-win without it holds at every depth.
    pub bounded: bool,
}

/// Separates failures searched with "win in N" counting from the others in one table (the
/// side to move is in the position's hash already).
const COUNT_FIVE_SALT: u64 = 0x5DEE_CE66_D1CE_4E5B;

struct Search<'a> {
    board: &'a mut Board,
    attacker: Color,
    count_five: bool,
    salt: u64,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<std::time::Instant>,
    /// Raised by another thread: stop as at the deadline.
    cancel: Option<super::Cancel>,
    table: &'a mut FailTable,
    line: &'a mut Vec<Point>,
    moves: &'a mut Vec<(i32, usize)>,
    /// The depth bound cut a line short somewhere.
    bounded: bool,
    /// The deadline passed (an abort for the whole search, not a root move's budget).
    late: bool,
}

/// Solves VCF for `attacker` (who moves first, whatever the board's side to move) with a
/// solver of its own (64 MB of failure table at most).
pub fn solve(board: &Board, attacker: Color, limits: Limits, shortest: bool) -> Solution {
    match VcfSolver::new(64 << 20) {
        Ok(mut solver) => solver.solve(board, attacker, limits, shortest),
        Err(_) => Solution::unknown(0),
    }
}

impl VcfSolver {
    /// A solver whose failure table grows to at most `bytes`.
    pub fn new(bytes: usize) -> Result<VcfSolver, MemoryError> {
        Ok(VcfSolver {
            table: FailTable::new(bytes)?,
            line: Vec::with_capacity(64),
            moves: Vec::with_capacity(256),
            scratch: None,
        })
    }

    /// Forgets the failures found so far and shrinks the table back to its starting size, so
    /// the next search's node count does not depend on what ran before.
    pub fn reset(&mut self) {
        self.table.reset();
    }

    /// Forgets the failures found so far, keeping the table's size: no allocation.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The line of the last search that won: attacker first, alternating, on to the five.
    pub fn line(&self) -> &[Point] {
        &self.line
    }

    /// Solves VCF for `attacker` (who moves first, whatever the board's side to move) on a copy
    /// of `board`. With `shortest` the bound deepens one attacker move at a time, so the first
    /// win found is of minimum length.
    pub fn solve(
        &mut self,
        board: &Board,
        attacker: Color,
        limits: Limits,
        shortest: bool,
    ) -> Solution {
        let mut scratch = match self.scratch.take() {
            Some(mut scratch) => {
                scratch.clone_from(board);
                scratch
            }
            None => board.clone(),
        };
        let result = self.solve_on(&mut scratch, attacker, limits, shortest);
        self.scratch = Some(scratch);
        result
    }

    /// [`VcfSolver::solve`] on `board` itself, with no copy: the board is left as it was found,
    /// its side to move included. For callers that run many short searches on a board of
    /// their own (the verifier).
    pub fn solve_on(
        &mut self,
        board: &mut Board,
        attacker: Color,
        limits: Limits,
        shortest: bool,
    ) -> Solution {
        let to_move = board.to_move();
        board.set_to_move(attacker);
        let first = if shortest { 1 } else { limits.depth };
        let mut nodes = 0;
        let mut result = Solution::unknown(0);
        for depth in first..=limits.depth {
            let budget = Limits {
                depth,
                nodes: limits.nodes.saturating_sub(nodes),
                ..limits
            };
            let run = self.search_from(board, attacker, budget, !shortest);
            nodes += run.nodes;
            result = Solution {
                outcome: run.outcome,
                line: if run.outcome == Outcome::Win {
                    self.line.clone()
                } else {
                    Vec::new()
                },
                ending: run.ending,
                nodes,
            };
            // A no-win that no bound cut short holds at every depth.
            if run.outcome != Outcome::NoWin || !run.bounded {
                break;
            }
        }
        if limits.depth == 0 {
            result.outcome = Outcome::NoWin;
        }
        board.set_to_move(to_move);
        result
    }

    /// Solves VCF on `board` as it stands, with `attacker` to move (the board's side to move
    /// must be the attacker's), leaving the board as it found it. Allocates nothing once the
    /// solver's buffers have grown to the depth searched.
    pub fn search(&mut self, board: &mut Board, attacker: Color, limits: Limits) -> Run {
        self.search_from(board, attacker, limits, false)
    }

    /// [`VcfSolver::search`]; with `probe`, the root's fours are probed within a small node
    /// budget first (see [`Search::probe_first`]).
    fn search_from(
        &mut self,
        board: &mut Board,
        attacker: Color,
        limits: Limits,
        probe: bool,
    ) -> Run {
        debug_assert_eq!(board.to_move(), attacker);
        self.line.clear();
        let mut s = Search {
            board,
            attacker,
            count_five: limits.count_five,
            salt: if limits.count_five {
                COUNT_FIVE_SALT
            } else {
                0
            },
            nodes: 0,
            max_nodes: limits.nodes,
            deadline: limits.deadline,
            cancel: limits.cancel,
            table: &mut self.table,
            line: &mut self.line,
            moves: &mut self.moves,
            bounded: false,
            late: false,
        };
        let root = if probe {
            s.probe_first(limits.depth)
        } else {
            s.search(limits.depth)
        };
        let (outcome, ending) = match root {
            Step::Win(e) => (Outcome::Win, Some(e)),
            Step::Abort => (Outcome::Unknown, None),
            Step::Fail => (Outcome::NoWin, None),
        };
        let nodes = s.nodes;
        let bounded = s.bounded;
        if outcome != Outcome::Win {
            self.line.clear();
        }
        Run {
            outcome,
            ending,
            nodes,
            bounded,
        }
    }
}

/// The node budget of each root four in the first round of [`Search::probe_first`]. Over 2,766
/// positions of the public set (each along its answer line, either side attacking, depth 20),
/// 32 searched 15% fewer nodes than the plain search where there is a win and 3% more in all
/// (149.2K nodes against 154.2K), and the 22 public VCF cases 0.4% more. Further rounds
/// growing eightfold cost far more: 26.7K nodes against 9.2K on `mintaka/deep_vcf_2`, whose
/// losing fours are as large as its winning one.
const PROBE_NODES: u64 = 32;

/// Marks a root four decided (it failed, or is forbidden) in [`Search::probe_first`].
const DECIDED: i32 = i32::MAX;

impl Search<'_> {
    /// The root searched in two rounds: each four in order within [`PROBE_NODES`], then the
    /// undecided ones in order without a budget. A wrong first four with a large subtree then
    /// holds up a quick win by another by no more than the probe; what the probe proves fails
    /// stays in the table for the second round.
    fn probe_first(&mut self, depth: u32) -> Step {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if depth < 3 || self.board.five_count(d) != 0 || !self.board.five_points(a).is_empty() {
            return self.search(depth);
        }
        if !self.enter() {
            return Step::Abort;
        }
        let hash = self.board.hash() ^ self.salt;
        if self.table.fails(hash, depth) {
            self.bounded = true;
            return Step::Fail;
        }
        let base = self.moves.len();
        self.push_ordered_fours();
        let end = self.moves.len();
        let limit = self.max_nodes;
        let mut step = Step::Fail;
        'rounds: for probe in [true, false] {
            let mut open = false;
            for k in base..end {
                let (key, p) = self.moves[k];
                if key == DECIDED {
                    continue;
                }
                if probe && pattern::forbidden(self.board, a, p) {
                    self.moves[k].0 = DECIDED;
                    continue;
                }
                self.max_nodes = if probe {
                    self.nodes.saturating_add(PROBE_NODES).min(limit)
                } else {
                    limit
                };
                match self.try_four(p, depth) {
                    Step::Fail => self.moves[k].0 = DECIDED,
                    Step::Abort if probe && !self.late && self.nodes < limit => open = true,
                    other => {
                        step = other;
                        break 'rounds;
                    }
                }
            }
            if !open {
                self.table.store(hash, depth);
                break;
            }
        }
        self.max_nodes = if self.late { self.nodes } else { limit };
        self.moves.truncate(base);
        step
    }

    /// Counts a node; false when the node budget or the deadline is spent.
    #[inline]
    fn enter(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        if self.nodes & (progress::STEP - 1) == 0 {
            progress::step();
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
                || self.cancel.is_some_and(super::Cancel::is_set)
            {
                self.max_nodes = self.nodes;
                self.late = true;
                return false;
            }
        }
        true
    }

    /// The attacker is to move with at most `depth` moves left.
    fn search(&mut self, depth: u32) -> Step {
        if !self.enter() {
            return Step::Abort;
        }
        let (a, d) = (self.attacker, self.attacker.opponent());
        if depth == 0 {
            self.bounded = true;
            return Step::Fail;
        }
        if let Some(i) = self.board.five_points(a).first() {
            self.line.push(Point::from_index(i));
            return Step::Win(Ending::Five);
        }
        let foul_blocks = self.board.rule().has_fouls(d);
        if depth == 1 {
            self.bounded = true;
            return self.last_move(foul_blocks);
        }
        let hash = self.board.hash() ^ self.salt;
        if self.table.fails(hash, depth) {
            self.bounded = true;
            return Step::Fail;
        }
        let base = self.moves.len();
        match self.board.five_count(d) {
            0 => self.push_ordered_fours(),
            1 => {
                let q = self.board.five_points(d).first().unwrap_or(0);
                if self.board.four_points(a).contains(q) {
                    self.moves.push((0, q));
                }
            }
            _ => {}
        }
        // Two moves left and no point opening two fives now: a four fails unless one appears
        // on its lines, which the shapes tell without playing it.
        let read_ahead = depth == 2 && !foul_blocks && !self.two_fives_now();
        for k in base..self.moves.len() {
            let p = self.moves[k].1;
            if pattern::forbidden(self.board, a, p) {
                continue;
            }
            if read_ahead && self.fails_at_two(p) {
                self.bounded = true;
                continue;
            }
            let step = self.try_four(p, depth);
            if !matches!(step, Step::Fail) {
                self.moves.truncate(base);
                return step;
            }
        }
        self.moves.truncate(base);
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
        if self.board.five_count(d) >= 2 {
            return Step::Fail;
        }
        let threats = *self.board.five_points(d);
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
            if pattern::forbidden(self.board, a, p) {
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
        if self.board.rule().has_fouls(self.attacker.opponent()) {
            return true;
        }
        !self.count_five && self.two_fives_now()
    }

    /// Whether some four point of the attacker opens two fives (a straight four or two fours).
    fn two_fives_now(&self) -> bool {
        let a = self.attacker;
        self.board
            .four_points(a)
            .iter()
            .any(|p| opens_two_fives(&self.board.shapes(p, a)))
    }

    /// With two attacker moves left, no foul to force and no point opening two fives
    /// ([`Search::two_fives_now`]): whether the four `p` fails as [`Search::try_four`] would
    /// find by playing it. It opens one five, and after it no point opens two fives
    /// ([`Search::last_move_can_win`]); only the cells on its lines change, and one of them
    /// can gain a four only from a closed three (see [`Shape`]).
    fn fails_at_two(&self, p: usize) -> bool {
        let a = self.attacker;
        let own = Class::of(&self.board.shapes(p, a));
        if own.fours != 1 || own.straight {
            return false;
        }
        self.count_five
            || !self
                .board
                .any_near_after(p, a, Shape::ClosedThree, opens_two_fives)
    }

    /// Plays the four `p`, the forced block, and searches on.
    fn try_four(&mut self, p: usize, depth: u32) -> Step {
        let (a, d) = (self.attacker, self.attacker.opponent());
        self.board.play(Point::from_index(p));
        self.line.push(Point::from_index(p));
        let step = match self.board.five_count(a) {
            0 => Step::Fail,
            1 => {
                let q = self.board.five_points(a).first().unwrap_or(0);
                if pattern::forbidden(self.board, d, q) {
                    Step::Win(Ending::ForcedFoul)
                } else if depth < 2 || (depth == 2 && !self.last_move_can_win()) {
                    self.bounded = true;
                    Step::Fail
                } else {
                    // The next node looks up its position first: start the load now, while
                    // the block is being placed.
                    let next = self.board.hash_after(q) ^ self.salt;
                    self.table.prefetch(next);
                    self.board.play(Point::from_index(q));
                    debug_assert_eq!(self.board.hash() ^ self.salt, next);
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
                let fives = *self.board.five_points(a);
                match fives
                    .iter()
                    .find(|&q| !pattern::forbidden(self.board, d, q))
                {
                    Some(block) => {
                        let win = fives.iter().find(|&q| q != block).unwrap_or(block);
                        self.line.push(Point::from_index(block));
                        self.line.push(Point::from_index(win));
                        Step::Win(Ending::DoubleThreat)
                    }
                    None => Step::Win(Ending::ForcedFoul),
                }
            }
            _ => {
                self.bounded = true;
                Step::Fail
            }
        };
        self.board.undo();
        if !matches!(step, Step::Win(_)) {
            self.line.pop();
        }
        step
    }

    /// Pushes the attacker's fours onto the move stack, best first: by [`order_score`] (those
    /// that win outright first, then the threes they also make), then closest to the
    /// attacker's previous move (weights tuned on the public VCF cases: half the nodes of
    /// ordering by threes alone). Closed twos are left out here: counting them saves 15% of
    /// the nodes on the public VCF cases but costs the VCT 22% more (its inner VCFs find other
    /// lines), and leaving them out of the VCT's quiet moves costs it 12%.
    fn push_ordered_fours(&mut self) {
        let a = self.attacker;
        let previous = self.board.history().iter().rev().nth(1).map(|p| p.index());
        let base = self.moves.len();
        for i in self.board.four_points(a).iter() {
            let c = Class::of(&self.board.shapes(i, a));
            let score = order_score(&c)
                - 2 * c.closed_twos as i32
                - 10 * previous.map_or(0, |j| distance(i, j)) as i32;
            self.moves.push((-score, i));
        }
        self.moves[base..].sort_unstable();
    }
}

/// Whether a stone with these shapes opens two fives: a straight four, or two fours.
fn opens_two_fives(shapes: &[Shape; 4]) -> bool {
    let c = Class::of(shapes);
    c.straight || c.fours >= 2
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
