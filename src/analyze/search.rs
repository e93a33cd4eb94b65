//! The alpha-beta search: negamax with principal-variation search, a transposition table,
//! killer and history move ordering, late-move reductions, and a quiescence step that asks
//! the VCF solver whether the side to move wins by fours.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use super::Settings;
use super::eval::{MATE, MATE_BOUND, evaluate, point_value};
use super::learned::Evaluator;
use super::moves::{self, Node};
use super::params::*;
use super::picker::Picker;
use super::tt::{Bound, Entry, Table};
use crate::board::{Bits, Board, CELLS, Point};
use crate::solve::tt::MemoryError;
use crate::solve::{Cancel, Ending, Limits, Outcome, vcf};

/// Deepest ply the search reaches (forced replies extend lines past the nominal depth).
pub const MAX_PLY: usize = 96;
const INF: i32 = MATE + 1;

/// Why the search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time ran out.
    Time,
    /// The node budget ran out.
    Nodes,
    /// The main thread told a helper thread to stop, the analysis was cancelled, or (in a
    /// game) a verified win made the search moot.
    Halted,
}

/// The search's state, reused from one iteration to the next.
pub struct Searcher<'a> {
    pub(super) board: Board,
    settings: &'a Settings,
    tt: &'a Table,
    /// Set by the main thread when a helper thread is to stop.
    halt: Option<&'a AtomicBool>,
    vcf: vcf::Solver,
    /// The learned evaluation, following the board (with [`Settings::learned`]).
    learned: Option<Evaluator>,
    /// Positions visited by the alpha-beta search (horizon nodes included; the horizon's VCF
    /// positions are counted in `vcf_nodes`).
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Nodes of the horizon's VCF searches.
    pub vcf_nodes: u64,
    hard_deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Work (search and horizon VCF nodes) at the last look at the clock.
    clock_at: u64,
    /// Set when a limit ran out: every score after it is meaningless and is discarded.
    pub stopped: Option<Stop>,
    killers: Vec<[u16; 2]>,
    /// Per ply: whether the side to move passed there (a null move being searched).
    passed: Vec<bool>,
    /// Per ply: whether the opponent of the side to move there was proved to have no VCF
    /// within the horizon's limits were the side to pass ([`Searcher::must_stop_vcf`]). Under
    /// a rule where a stone never helps the other side's VCF ([`stone_never_helps_vcf`]), or
    /// one of [`VCF_FROM_PARENT_INEXACT_RULES`], the horizon one ply down then skips its own
    /// VCF: the same side attacks there with one defending stone more.
    no_vcf_below: Vec<bool>,
    /// Forced nodes reduce and prune late moves too (see [`FORCED_REDUCTION_RULES`]).
    forced_reductions: bool,
    /// The horizon plays the side's fours (see [`QUIESCENCE_FOURS`]).
    four_quiescence: bool,
    /// The horizon trusts the node above's proof that its side has no VCF
    /// ([`Settings::vcf_from_parent`], under a rule where that proof carries over or where
    /// trusting it gains all the same: [`VCF_FROM_PARENT_INEXACT_RULES`]).
    vcf_from_parent: bool,
    /// Move-count pruning by depth: from which move (counting from 0) a node at that depth
    /// skips its late moves (`usize::MAX`: none), see [`MOVE_COUNT_DEPTH`] and
    /// [`DEEP_MOVE_COUNT_RULES`].
    move_counts: [usize; 16],
    /// The point value from which a move is never pruned by count.
    count_keep_from: i32,
    /// The rule's deep move-count pruning ([`DEEP_MOVE_COUNT_RULES`]): only once a move that
    /// does not lose is in hand.
    deep_counts: bool,
    /// Cut-node reductions ([`CUT_NODE_REDUCTION_RULES`]).
    cut_reductions: bool,
    /// Per ply: whether the node is an expected cut node (see [`CUT_NODE_REDUCTION_RULES`]).
    cut_node: Vec<bool>,
    /// The table's value for reverse futility ([`TABLE_VALUE_FUTILITY_RULES`]).
    table_value_futility: bool,
    /// Stand pat before the horizon's VCF ([`STAND_PAT_FIRST_RULES`]).
    stand_pat_first: bool,
    history: Box<[[i32; CELLS]; 2]>,
    /// History with gravity and a penalty (see [`HISTORY_MAX`]).
    history_gravity: bool,
    areas: Vec<Bits>,
    moves: Vec<Vec<(i32, u16)>>,
    pv: Vec<Vec<u16>>,
}

impl<'a> Searcher<'a> {
    /// A searcher on a copy of `board` with the (possibly shared) table `tt` and a horizon
    /// VCF solver of `vcf_bytes`. A helper thread's searcher also stops when `halt` is set.
    pub fn new(
        board: &Board,
        settings: &'a Settings,
        deadline: Option<Instant>,
        tt: &'a Table,
        vcf_bytes: usize,
        halt: Option<&'a AtomicBool>,
    ) -> Result<Self, MemoryError> {
        let mut areas = vec![Bits::default(); MAX_PLY + 2];
        areas[0] = moves::area(board, settings.window);
        // The hand-weighted evaluation reads the board's combination counts; the learned one
        // keeps its own.
        let mut board = board.clone();
        let learned = settings.learned.then(|| Evaluator::new(&board));
        let forced_reductions =
            settings.forced_reductions && FORCED_REDUCTION_RULES.contains(&board.rule());
        let four_quiescence =
            settings.four_quiescence && QUIESCENCE_FOUR_RULES.contains(&board.rule());
        let vcf_from_parent = settings.vcf_from_parent
            && (stone_never_helps_vcf(board.rule())
                || VCF_FROM_PARENT_INEXACT_RULES.contains(&board.rule()));
        let history_gravity =
            settings.history_gravity && HISTORY_GRAVITY_RULES.contains(&board.rule());
        let deep_counts = DEEP_MOVE_COUNT_RULES.contains(&board.rule());
        let mut move_counts = [usize::MAX; 16];
        for (d, c) in move_counts.iter_mut().enumerate() {
            if deep_counts && d as i32 <= DEEP_MOVE_COUNT_DEPTH {
                *c = MOVE_COUNT_BASE + (d as f64).powf(DEEP_MOVE_COUNT_EXPONENT) as usize;
            } else if !deep_counts && d as i32 <= MOVE_COUNT_DEPTH {
                *c = MOVE_COUNT_BASE + d * d;
            }
        }
        let rule = board.rule();
        board.track_counts(!settings.learned);
        Ok(Searcher {
            board,
            settings,
            tt,
            halt,
            vcf: vcf::Solver::new(vcf_bytes.max(1 << 16))?,
            learned,
            nodes: 0,
            seldepth: 0,
            vcf_nodes: 0,
            hard_deadline: deadline,
            node_limit: settings.nodes,
            clock_at: 0,
            stopped: None,
            killers: vec![[u16::MAX; 2]; MAX_PLY + 2],
            passed: vec![false; MAX_PLY + 2],
            no_vcf_below: vec![false; MAX_PLY + 2],
            forced_reductions,
            four_quiescence,
            vcf_from_parent,
            move_counts,
            count_keep_from: if deep_counts {
                DEEP_MOVE_COUNT_KEEP_FROM
            } else {
                LMR_KEEP_FROM
            },
            deep_counts,
            cut_reductions: CUT_NODE_REDUCTION_RULES.contains(&rule),
            cut_node: vec![false; MAX_PLY + 2],
            table_value_futility: TABLE_VALUE_FUTILITY_RULES.contains(&rule),
            stand_pat_first: settings.stand_pat_first && STAND_PAT_FIRST_RULES.contains(&rule),
            history: Box::new([[0; CELLS]; 2]),
            history_gravity,
            areas,
            moves: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
        })
    }

    /// New limits for what follows (a phase of the analysis with its own share of the time or
    /// of the nodes): a stop for the old ones is lifted.
    pub fn set_limits(&mut self, deadline: Option<Instant>, nodes: Option<u64>) {
        self.hard_deadline = deadline;
        self.node_limit = nodes;
        if self.stopped != Some(Stop::Halted) {
            self.stopped = None;
        }
    }

    /// Starts an iteration: the table's older entries age.
    pub fn new_iteration(&mut self) {
        self.tt.new_search();
    }

    /// Searches the whole root to `depth` (a helper thread's iteration: it fills the shared
    /// table for the main thread) and returns the score, meaningless once stopped.
    pub fn search_root(&mut self, depth: i32) -> i32 {
        self.negamax(depth, -INF, INF, 0)
    }

    /// The principal variation of root move `mv`, just searched: the move, then the line
    /// found below it.
    pub fn line_from(&self, mv: Point) -> Vec<Point> {
        std::iter::once(mv)
            .chain(self.pv[1].iter().map(|&m| Point::from_index(m as usize)))
            .collect()
    }

    /// Searches root move `m` to `depth` in the window (`alpha`, `beta`) and returns its score
    /// for the side to move at the root.
    pub fn search_root_move(&mut self, m: usize, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.play(m, 0);
        // A null window at the root asks whether the move beats the best: the reply is
        // expected to refute it.
        self.cut_node[1] = beta - alpha == 1;
        let score = -self.negamax(depth - 1, -beta, -alpha, 1);
        self.unplay(m);
        score
    }

    fn play(&mut self, m: usize, ply: usize) {
        self.board.play(Point::from_index(m));
        if let Some(e) = self.learned.as_mut() {
            e.play(&self.board, m);
        }
        let (lower, upper) = self.areas.split_at_mut(ply + 1);
        upper[0] = lower[ply];
        upper[0].union_with(moves::near(self.settings.window, m));
    }

    /// Takes back move `m`, the last one played.
    fn unplay(&mut self, m: usize) {
        if let Some(e) = self.learned.as_mut() {
            e.undo(&self.board, m);
        }
        self.board.undo();
    }

    fn check_limits(&mut self) {
        if let Some(limit) = self.node_limit
            && self.nodes + self.vcf_nodes >= limit
        {
            self.stopped = Some(Stop::Nodes);
        }
        // The clock every 1024 positions of work, horizon VCF positions counted: a VCF at the
        // horizon can take hundreds, so counting search nodes alone let a deadline slip by
        // a tenth of a second.
        let work = self.nodes + self.vcf_nodes;
        if work - self.clock_at >= 1024 {
            self.clock_at = work;
            if self.hard_deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = Some(Stop::Time);
            }
            if self.halt.is_some_and(|h| h.load(Relaxed))
                || self.settings.cancel.is_some_and(Cancel::is_set)
            {
                self.stopped = Some(Stop::Halted);
            }
        }
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped.is_some() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        // Mate-distance bounds: nothing from here can beat a five on the next ply.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // At the horizon only a five decides before the quiescence step: no move list.
        let me = self.board.to_move();
        if !self.board.five_points(me).is_empty() {
            return MATE - ply as i32 - 1;
        }
        if (depth <= 0 || ply >= MAX_PLY) && self.board.five_points(me.opponent()).is_empty() {
            return self.quiesce(ply, alpha, beta);
        }
        // The table before the move list: a cut here costs no generation. Not in a principal
        // variation node (a window wider than null): a cut there would leave the line shown to
        // the user ending at this node.
        let key = self.board.hash();
        let mut tt_move = None;
        let mut tt_value = None;
        if let Some(e) = self.tt.get(key) {
            tt_move = e.best;
            let score = from_tt(e.score, ply);
            tt_value = Some((score, e.bound));
            if e.depth >= depth && beta - alpha == 1 {
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let depth = if self.settings.iir && depth >= IIR_DEPTH && tt_move.is_none() {
            depth - 1
        } else {
            depth
        };
        let mut list = std::mem::take(&mut self.moves[ply]);
        let node = moves::generate(
            &mut self.board,
            &self.areas[ply],
            &mut list,
            self.settings.threat_moves(),
        );
        let forced = match node {
            Node::Win => {
                self.moves[ply] = list;
                return MATE - ply as i32 - 1;
            }
            Node::Lost => {
                self.moves[ply] = list;
                return -(MATE - ply as i32 - 2);
            }
            Node::Moves { forced } => forced,
        };
        // The opponent's VCF, were the side to move to pass: then only its line's points and
        // the side to move's own fours can stop it.
        self.no_vcf_below[ply] = false;
        let forced = forced || (depth >= 1 && self.must_stop_vcf(&mut list, ply));
        if list.is_empty() {
            self.moves[ply] = list;
            return 0;
        }
        let single = list.len() == 1;
        if ply >= MAX_PLY || (depth <= 0 && !single) {
            self.moves[ply] = list;
            return self.quiesce(ply, alpha, beta);
        }
        let cut_node = beta - alpha == 1 && self.cut_node[ply];
        // Reverse futility: off the principal line, not forced, a static value this far
        // above beta is taken as the node's value.
        if self.settings.reverse_futility
            && beta - alpha == 1
            && !forced
            && !single
            && ply > 0
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
        {
            let mut v = self.static_value();
            // The table's score where its bound says it is the better estimate.
            if self.table_value_futility
                && let Some((score, bound)) = tt_value
                && score.abs() < MATE_BOUND
                && match bound {
                    Bound::Exact => true,
                    Bound::Lower => score > v,
                    Bound::Upper => score < v,
                }
            {
                v = score;
            }
            if v - RFP_MARGIN * depth >= beta {
                self.moves[ply] = list;
                return v;
            }
        }
        // Null move: off the principal line, not forced (the opponent has no VCF were the
        // side to move to pass, see `must_stop_vcf`), not right after another pass, with a
        // static value at beta or above: when passing still holds beta in a shallower search,
        // a move will too.
        self.passed[ply] = false;
        if self.settings.null_move
            && beta - alpha == 1
            && !forced
            && !single
            && depth >= NULL_MOVE_DEPTH
            && ply > 0
            && !self.passed[ply - 1]
            && beta.abs() < MATE_BOUND
            && self.static_value() >= beta
        {
            let me = self.board.to_move();
            self.board.set_to_move(me.opponent());
            let (lower, upper) = self.areas.split_at_mut(ply + 1);
            upper[0] = lower[ply];
            self.passed[ply] = true;
            self.cut_node[ply + 1] = !cut_node;
            let score = -self.negamax(depth - 1 - NULL_MOVE_REDUCTION, -beta, -beta + 1, ply + 1);
            self.passed[ply] = false;
            self.board.set_to_move(me);
            if self.stopped.is_some() {
                self.moves[ply] = list;
                return 0;
            }
            if score >= beta && score < MATE_BOUND {
                self.moves[ply] = list;
                return score;
            }
        }
        let side = self.board.to_move().index();
        let killers = self.killers[ply];
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Futility: near the horizon, off the principal line, a static value this far below
        // alpha leaves quiet moves no hope of raising it.
        let futile = (self.settings.futility
            && beta - alpha == 1
            && !forced
            && depth <= FUTILITY_DEPTH
            && alpha.abs() < MATE_BOUND)
            .then(|| self.static_value() + FUTILITY_MARGIN * depth)
            .filter(|&v| v <= alpha);
        let mut cut = None;
        let picker = Picker::new(&mut list, tt_move, &killers, &self.history[side]);
        for (k, value, m) in picker {
            let special = Some(m) == tt_move || killers.contains(&m);
            // What the move makes and stops, for pruning and reductions.
            let shape =
                if self.settings.shape_pruning || self.settings.lmr_table || self.settings.futility
                {
                    point_value(&self.board, m as usize, self.board.to_move())
                } else {
                    0
                };
            if let Some(v) = futile
                && k >= 1
                && !special
                && shape < LMR_KEEP_FROM
            {
                best = best.max(v);
                continue;
            }
            // Move-count pruning: near the horizon, off the principal line, the late moves
            // that make and stop less than an open three (a four, with `deep_counts`) are
            // not searched.
            if self.settings.move_count_pruning
                && beta - alpha == 1
                && (!forced || self.forced_reductions)
                && k >= self.move_counts[depth.clamp(0, 15) as usize]
                && !special
                && shape < self.count_keep_from
                && (!self.deep_counts || best > -MATE_BOUND)
            {
                continue;
            }
            // Shape pruning: near the horizon, off the principal line, a late move that
            // makes and stops no shape worth an open two is not searched.
            if self.settings.shape_pruning
                && beta - alpha == 1
                && !forced
                && depth <= SHAPE_PRUNING_DEPTH
                && k >= SHAPE_PRUNING_FROM_MOVE
                && !special
                && shape < NO_SHAPE_BELOW
            {
                continue;
            }
            let m = m as usize;
            self.play(m, ply);
            // A single forced reply does not use up depth.
            let next = if single { depth } else { depth - 1 };
            // Not the table move, not a killer, and no three or better made or stopped.
            let quiet = value < QUIET_BELOW;
            let reduction = if !self.settings.reductions || (forced && !self.forced_reductions) {
                0
            } else if self.settings.lmr_table {
                if depth >= 2 && k >= LMR_FROM_MOVE && !special && shape < LMR_KEEP_FROM {
                    let mut r = lmr(depth, k);
                    r -= i32::from(beta - alpha > 1);
                    r += i32::from(shape < NO_SHAPE_BELOW);
                    r += i32::from(self.cut_reductions && cut_node);
                    r.clamp(0, depth - 1)
                } else {
                    0
                }
            } else if depth >= REDUCE_FROM_DEPTH && k >= REDUCE_FROM_MOVE && quiet {
                1 + i32::from(k >= REDUCE_MORE_FROM_MOVE)
            } else {
                0
            };
            let mut score;
            // Which children are expected cut nodes: below a reduced search, and otherwise
            // the opposite of this node (a principal-line child is none).
            if k == 0 {
                self.cut_node[ply + 1] = beta - alpha == 1 && !cut_node;
                score = -self.negamax(next, -beta, -alpha, ply + 1);
            } else {
                self.cut_node[ply + 1] = reduction > 0 || !cut_node;
                score = -self.negamax(next - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && reduction > 0 {
                    self.cut_node[ply + 1] = !cut_node;
                    score = -self.negamax(next, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    self.cut_node[ply + 1] = false;
                    score = -self.negamax(next, -beta, -alpha, ply + 1);
                }
            }
            self.unplay(m);
            if self.stopped.is_some() {
                self.moves[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m as u16);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m as u16);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if !self.killers[ply].contains(&(m as u16)) {
                            self.killers[ply] = [m as u16, self.killers[ply][0]];
                        }
                        cut = Some(k);
                        if !self.history_gravity {
                            self.history[side][m] += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        if let Some(k) = cut
            && self.history_gravity
        {
            update_history(&mut self.history[side], &list[..=k], depth);
        }
        self.moves[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.put(
            key,
            Entry {
                score: to_tt(best, ply),
                depth,
                bound,
                best: best_move,
            },
        );
        best
    }

    /// Whether the opponent has a VCF were the side to move to pass; if so, narrows `list` to
    /// the points of that VCF's line and the side to move's fours (a stone elsewhere neither
    /// takes a point the line needs nor gains a tempo).
    fn must_stop_vcf(&mut self, list: &mut Vec<(i32, u16)>, ply: usize) -> bool {
        if !self.settings.threats || !self.settings.leaf_vcf {
            return false;
        }
        let me = self.board.to_move();
        let opp = me.opponent();
        if self.board.four_points(opp).is_empty() {
            self.no_vcf_below[ply] = true;
            return false;
        }
        let limits = Limits {
            depth: LEAF_VCF_DEPTH,
            nodes: LEAF_VCF_NODES,
            ..Limits::default()
        };
        self.board.set_to_move(opp);
        let vcf = &mut self.vcf;
        let run = self
            .board
            .without_counts(|board| vcf.search(board, opp, limits));
        self.board.set_to_move(me);
        self.vcf_nodes += run.nodes;
        if run.outcome != Outcome::Win {
            self.no_vcf_below[ply] = run.outcome == Outcome::NoWin;
            return false;
        }
        let mut zone = *self.board.four_points(me);
        for p in self.vcf.line() {
            zone.set(p.index(), true);
        }
        moves::push_legal(&mut self.board, &zone, me, list, true);
        true
    }

    /// The horizon: a VCF for the side to move is a mate; otherwise the static value, or
    /// what the side's fours make of it (see [`Searcher::four_search`]).
    fn quiesce(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        let me = self.board.to_move();
        // Without a four to play there is no VCF (a five was looked for already).
        if self.board.four_points(me).is_empty() {
            return self.static_value();
        }
        let known_none = self.vcf_from_parent && ply > 0 && self.no_vcf_below[ply - 1];
        // Stand pat before the VCF: a static value at beta or above already fails high, and
        // a VCF's mate could only fail higher (see `Settings::stand_pat_first`).
        let stand = self.static_value();
        if self.stand_pat_first && stand >= beta {
            return stand;
        }
        if self.settings.leaf_vcf && !known_none {
            let limits = Limits {
                depth: LEAF_VCF_DEPTH,
                nodes: LEAF_VCF_NODES,
                ..Limits::default()
            };
            let vcf = &mut self.vcf;
            let run = self
                .board
                .without_counts(|board| vcf.search(board, me, limits));
            self.vcf_nodes += run.nodes;
            if run.outcome == Outcome::Win {
                let mut len = self.vcf.line().len();
                if run.ending == Some(Ending::ForcedFoul) {
                    len += 2;
                }
                return MATE - (ply + len) as i32;
            }
        }
        if self.four_quiescence {
            return self.four_search(ply, alpha, beta, QUIESCENCE_FOURS, stand);
        }
        stand
    }

    /// The side to move's fours at the horizon, as a quiescence search: it may stand on
    /// `stand` (its static value) or play a four, which the opponent must block, and go on
    /// from there, up to `left` fours deep; the best static value reached is the node's
    /// (alpha-beta in the window). A four is skipped when it is a foul, when it makes more
    /// than one five point (the VCF's business), when the block is a foul (a win the VCF
    /// finds), or when the block makes a four of the opponent's (the side would then have to
    /// answer it, and standing there would be wrong). Only static values come out of it,
    /// never a mate.
    fn four_search(&mut self, ply: usize, mut alpha: i32, beta: i32, left: u32, stand: i32) -> i32 {
        let mut best = stand;
        if best >= beta || left == 0 || ply + 3 >= MAX_PLY {
            return best;
        }
        alpha = alpha.max(best);
        let me = self.board.to_move();
        let opp = me.opponent();
        let fours = *self.board.four_points(me);
        for p in fours.iter() {
            if crate::pattern::forbidden(&mut self.board, me, p) {
                continue;
            }
            self.play(p, ply);
            self.nodes += 1;
            let fives = *self.board.five_points(me);
            let block = fives.first().unwrap_or(0);
            if fives.count() != 1 || crate::pattern::forbidden(&mut self.board, opp, block) {
                self.unplay(p);
                continue;
            }
            self.play(block, ply + 1);
            self.nodes += 1;
            let score = self.board.five_points(opp).is_empty().then(|| {
                let s = self.static_value();
                self.four_search(ply + 2, alpha, beta, left - 1, s)
            });
            self.unplay(block);
            self.unplay(p);
            if let Some(s) = score
                && s > best
            {
                best = s;
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The static evaluation of the position for the side to move.
    fn static_value(&self) -> i32 {
        match &self.learned {
            Some(e) => e.evaluate(&self.board),
            None => evaluate(&self.board, &self.settings.weights),
        }
    }
}

/// Whether under `rule` a stone of the defender's never makes a VCF of the attacker's that
/// was not there without it: it only takes a point and may add the defender's own fours. Not
/// under renju, where a black stone can make a point forbidden that white's VCF then forces
/// black onto, and a white stone can break up a black foul that barred black's four.
fn stone_never_helps_vcf(rule: crate::board::Rule) -> bool {
    rule != crate::board::Rule::Renju
}

/// The history after a cut at `depth` by the last move of `tried` (the moves searched at the
/// node, in order, with their ordering values): a bonus for it, a penalty for each quiet move
/// before it, each damped toward ±[`HISTORY_MAX`].
fn update_history(history: &mut [i32; CELLS], tried: &[(i32, u16)], depth: i32) {
    let bonus = (16 * depth * depth).min(HISTORY_BONUS_CAP);
    let last = tried.len() - 1;
    for (j, &(value, m)) in tried.iter().enumerate() {
        let b = if j == last {
            bonus
        } else if value < QUIET_BELOW {
            -bonus
        } else {
            continue;
        };
        let h = &mut history[m as usize];
        *h += b - *h * b.abs() / HISTORY_MAX;
    }
}

/// The late-move reduction of the `k`th move (from 0) at `depth` (see [`LMR_DIVISOR`]).
pub(super) fn lmr(depth: i32, k: usize) -> i32 {
    use std::sync::OnceLock;
    static T: OnceLock<Vec<[i8; 64]>> = OnceLock::new();
    let t = T.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0i8; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let x = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
                        *r = x.max(0.0) as i8;
                    }
                }
                row
            })
            .collect()
    });
    i32::from(t[depth.clamp(0, 63) as usize][k.min(63)])
}

/// A score as stored: mates relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score + ply as i32
    } else if score < -(MATE - 1000) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score - ply as i32
    } else if score < -(MATE - 1000) {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
pub(super) mod tests {
    //! The search against a plain full-width minimax at a fixed depth, on small boards.

    use super::*;
    use crate::analyze::eval::MATE_BOUND;
    use crate::analyze::learned::{evaluate_fresh, shipped};
    use crate::board::Rule;
    use crate::learn::Rng;

    /// Negamax over every candidate, with no table, no pruning and no ordering: a five for
    /// the side to move wins on the next ply; at the horizon the evaluation from scratch
    /// (unless a five must be blocked); one forced reply uses no depth, as in the search.
    fn minimax(board: &mut Board, depth: i32, ply: usize, window: u8) -> i32 {
        let me = board.to_move();
        if !board.five_points(me).is_empty() {
            return MATE - ply as i32 - 1;
        }
        if depth <= 0 && board.five_points(me.opponent()).is_empty() {
            return evaluate_fresh(board, shipped(board.rule()));
        }
        let area = moves::area(board, window);
        let mut list = Vec::new();
        match moves::generate(board, &area, &mut list, moves::Threats::Off) {
            Node::Win => return MATE - ply as i32 - 1,
            Node::Lost => return -(MATE - ply as i32 - 2),
            Node::Moves { .. } => {}
        }
        if list.is_empty() {
            return 0;
        }
        let single = list.len() == 1;
        if depth <= 0 && !single {
            return evaluate_fresh(board, shipped(board.rule()));
        }
        let next = if single { depth } else { depth - 1 };
        let mut best = -INF;
        for &(_, m) in &list {
            board.play(Point::from_index(m as usize));
            best = best.max(-minimax(board, next, ply + 1, window));
            board.undo();
        }
        best
    }

    /// A random position of `stones` stones on a `size` board with no five on it and none
    /// to make for the side to move (a quiet start), or None.
    fn position(rng: &mut Rng, size: u8, rule: Rule, stones: usize) -> Option<Board> {
        let mut b = Board::new(size, rule)?;
        let c = size / 2;
        let r = (size / 2).min(3);
        let mut tries = 0;
        while b.total_stones() < stones {
            tries += 1;
            if tries > 200 {
                return None;
            }
            let x = c - r + rng.below(2 * r as usize + 1) as u8;
            let y = c - r + rng.below(2 * r as usize + 1) as u8;
            let p = Point::new(x, y)?;
            let me = b.to_move();
            if !b.is_empty(p) || crate::pattern::forbidden(&mut b, me, p.index()) {
                continue;
            }
            b.play(p);
            if b.winner().is_some() {
                return None;
            }
        }
        b.five_points(b.to_move()).is_empty().then_some(b)
    }

    fn search(board: &Board, settings: &Settings, depth: i32) -> i32 {
        let tt = Table::new(1 << 20).unwrap();
        let mut s = Searcher::new(board, settings, None, &tt, 1 << 16, None).unwrap();
        s.new_iteration();
        let score = s.search_root(depth);
        assert!(s.stopped.is_none());
        score
    }

    /// The search with every pruning, reduction and threat narrowing off and no horizon VCF,
    /// over the points next to a stone: exact, whatever its window, table and move order.
    pub(in crate::analyze) fn unpruned() -> Settings {
        Settings {
            reductions: false,
            shape_pruning: false,
            move_count_pruning: false,
            futility: false,
            null_move: false,
            reverse_futility: false,
            forced_reductions: false,
            threats: false,
            leaf_vcf: false,
            four_quiescence: false,
            window: 1,
            ..Settings::default()
        }
    }

    /// With the pruning off (no reductions, no shape pruning, no threat narrowing, no horizon
    /// VCF), the search
    /// is exact: its root value is the minimax value, table, aspiration and ordering
    /// notwithstanding.
    #[test]
    fn without_pruning_the_search_is_minimax() {
        let settings = unpruned();
        let mut rng = Rng::new(7);
        let mut compared = 0;
        for rule in Rule::ALL {
            for (size, stones, depth) in [(7, 6, 3), (8, 9, 3), (9, 12, 2), (7, 10, 4)] {
                for _ in 0..3 {
                    let Some(mut b) = position(&mut rng, size, rule, stones) else {
                        continue;
                    };
                    let reference = minimax(&mut b, depth, 0, settings.window);
                    let got = search(&b, &settings, depth);
                    assert_eq!(
                        got,
                        reference,
                        "{rule} {size}x{size} depth {depth}: {:?}",
                        b.history()
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared >= 24, "only {compared} positions compared");
    }

    /// The horizon's fours by definition: the static value, or after a legal four with one
    /// five point, blocked legally by a move that makes no four of the opponent's, the same
    /// again with one four less.
    fn fours_reference(board: &mut Board, left: u32) -> i32 {
        let mut best = evaluate_fresh(board, shipped(board.rule()));
        if left == 0 {
            return best;
        }
        let me = board.to_move();
        let opp = me.opponent();
        let fours: Vec<usize> = board.four_points(me).iter().collect();
        for p in fours {
            if crate::pattern::forbidden(board, me, p) {
                continue;
            }
            board.play(Point::from_index(p));
            let fives: Vec<usize> = board.five_points(me).iter().collect();
            if let [block] = fives[..]
                && !crate::pattern::forbidden(board, opp, block)
            {
                board.play(Point::from_index(block));
                if board.five_points(opp).is_empty() {
                    best = best.max(fours_reference(board, left - 1));
                }
                board.undo();
            }
            board.undo();
        }
        best
    }

    /// At depth 0 with the horizon VCF off, the search's value is the fours' quiescence by
    /// its definition in the rules that have it, and at least the static value (on some
    /// positions a four raises it); in the other rules the static value.
    #[test]
    fn the_horizon_plays_fours_and_keeps_the_best_static_value() {
        let settings = Settings {
            leaf_vcf: false,
            window: 1,
            ..Settings::default()
        };
        assert!(settings.four_quiescence);
        let stand_only = Settings {
            four_quiescence: false,
            ..settings.clone()
        };
        let mut rng = Rng::new(5);
        let (mut compared, mut raised) = (0, 0);
        for rule in Rule::ALL {
            for _ in 0..400 {
                let Some(mut b) = position(&mut rng, 9, rule, 16) else {
                    continue;
                };
                // A five to block is no horizon; a four to play is what is tested.
                let me = b.to_move();
                if b.four_points(me).is_empty() || !b.five_points(me.opponent()).is_empty() {
                    continue;
                }
                let stand = search(&b, &stand_only, 0);
                assert_eq!(stand, evaluate_fresh(&b, shipped(rule)));
                let got = search(&b, &settings, 0);
                if !QUIESCENCE_FOUR_RULES.contains(&rule) {
                    assert_eq!(got, stand, "{rule}: {:?}", b.history());
                    continue;
                }
                let reference = fours_reference(&mut b, QUIESCENCE_FOURS);
                assert_eq!(got, reference, "{rule}: {:?}", b.history());
                assert!(reference >= stand);
                compared += 1;
                raised += usize::from(reference > stand);
            }
        }
        assert!(
            compared >= 30,
            "only {compared} positions with a four to test"
        );
        assert!(
            raised >= 5,
            "a four raised the value in only {raised} of {compared}"
        );
    }

    /// The horizon stands pat before its VCF (`Settings::stand_pat_first`): with beta at or
    /// below the static value it returns that value and asks the VCF nothing; with beta above
    /// it, the VCF's mate comes back as it does without the setting.
    #[test]
    fn the_horizon_stands_pat_before_its_vcf_and_finds_the_mate_above_the_static_value() {
        let first = Settings::default();
        assert!(first.stand_pat_first && first.leaf_vcf);
        let after = Settings {
            stand_pat_first: false,
            ..first.clone()
        };
        let tt = Table::new(1 << 20).unwrap();
        let mut rng = Rng::new(11);
        let mut mates = 0;
        for rule in STAND_PAT_FIRST_RULES {
            for _ in 0..600 {
                let Some(b) = position(&mut rng, 9, rule, 18) else {
                    continue;
                };
                let me = b.to_move();
                if b.four_points(me).is_empty() || !b.five_points(me.opponent()).is_empty() {
                    continue;
                }
                let mut with = Searcher::new(&b, &first, None, &tt, 1 << 16, None).unwrap();
                let mut without = Searcher::new(&b, &after, None, &tt, 1 << 16, None).unwrap();
                let stand = with.static_value();
                // Beta at the static value: a fail high either way, the VCF not asked.
                let low = with.quiesce(0, stand - 1, stand);
                assert_eq!(low, stand, "{rule}: {:?}", b.history());
                assert_eq!(with.vcf_nodes, 0);
                let full = without.quiesce(0, stand - 1, stand);
                assert!(full >= stand, "{rule}: {:?}", b.history());
                // Beta above it: the same value as without the setting, a mate included.
                let high = with.quiesce(0, stand, stand + 1);
                assert_eq!(high, without.quiesce(0, stand, stand + 1));
                if high > MATE_BOUND {
                    mates += 1;
                    assert!(full > MATE_BOUND, "{rule}: {:?}", b.history());
                }
            }
        }
        assert!(
            mates >= 10,
            "only {mates} positions with a VCF at the horizon"
        );
    }

    /// A cut raises the cutting move's history and lowers the quiet moves searched before it
    /// (not a threat), and however many cuts come, a value stays within ±`HISTORY_MAX`.
    #[test]
    fn history_gains_for_the_cut_loses_for_quiet_moves_before_and_stays_bounded() {
        let mut h = [0; CELLS];
        let tried = [(QUIET_BELOW + 10, 1), (300, 2), (90, 3)];
        update_history(&mut h, &tried, 3);
        assert_eq!((h[1], h[2], h[3]), (0, -144, 144));
        for depth in 1..=40 {
            update_history(&mut h, &tried, depth);
        }
        assert!(h[3] > 0 && h[3] <= HISTORY_MAX, "{}", h[3]);
        assert!(h[2] < 0 && h[2] >= -HISTORY_MAX, "{}", h[2]);
        assert!(h[3] > HISTORY_MAX / 2, "{}", h[3]);
        assert_eq!(h[1], 0);
    }

    /// The root values with and without the horizon's trust in the node above's "no VCF"
    /// (`Settings::vcf_from_parent`) on random positions of `rule`, checked to save VCF
    /// positions: how many were compared and how many differ.
    fn compare_vcf_from_parent(rule: Rule, seed: u64) -> (usize, usize) {
        let on = Settings {
            window: 1,
            ..Settings::default()
        };
        assert!(on.vcf_from_parent);
        let off = Settings {
            vcf_from_parent: false,
            ..on.clone()
        };
        let run = |board: &Board, settings: &Settings, depth: i32| {
            let tt = Table::new(1 << 20).unwrap();
            let mut s = Searcher::new(board, settings, None, &tt, 1 << 16, None).unwrap();
            s.new_iteration();
            let score = s.search_root(depth);
            assert!(s.stopped.is_none());
            (score, s.vcf_nodes)
        };
        let mut rng = Rng::new(seed);
        let (mut compared, mut differ, mut nodes) = (0, 0, [0u64; 2]);
        for (size, stones, depth) in [(9, 12, 3), (9, 16, 3), (11, 18, 4)] {
            for _ in 0..8 {
                let Some(b) = position(&mut rng, size, rule, stones) else {
                    continue;
                };
                let (with, with_nodes) = run(&b, &on, depth);
                let (without, without_nodes) = run(&b, &off, depth);
                if with != without {
                    eprintln!(
                        "{rule} depth {depth}: {with} against {without}: {:?}",
                        b.history()
                    );
                    differ += 1;
                }
                nodes[0] += with_nodes;
                nodes[1] += without_nodes;
                compared += 1;
            }
        }
        assert!(compared >= 15, "{rule}: only {compared} positions compared");
        assert!(
            nodes[0] < nodes[1],
            "{rule}: VCF positions {} with it against {} without",
            nodes[0],
            nodes[1]
        );
        (compared, differ)
    }

    /// Under freestyle and standard the trust is exact: the same values, fewer VCF positions.
    #[test]
    fn the_horizon_trusting_the_parents_no_vcf_gives_the_same_values() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let (compared, differ) = compare_vcf_from_parent(rule, 23);
            assert_eq!(differ, 0, "{rule}: {differ} values of {compared} differ");
        }
    }

    /// Under renju the trust is not exact (a stone can change a foul), but a value that it
    /// changes is rare, and it saves VCF positions.
    #[test]
    fn under_renju_trusting_the_parents_no_vcf_rarely_changes_a_value() {
        let (compared, differ) = compare_vcf_from_parent(Rule::Renju, 23);
        assert!(
            differ * 10 <= compared,
            "{differ} values of {compared} differ"
        );
    }

    /// With the pruning on (the defaults: reductions, shape, move-count and reverse futility
    /// pruning, reductions in renju's forced nodes, threat narrowing, the horizon VCF), a
    /// forced win the full-width minimax finds within the depth is still found.
    #[test]
    fn with_pruning_no_forced_win_of_the_reference_is_missed() {
        let shipped = Settings {
            window: 1,
            ..Settings::default()
        };
        // Every pruning this search has, on at once.
        let all = Settings {
            shape_pruning: true,
            move_count_pruning: true,
            lmr_table: true,
            futility: true,
            null_move: true,
            reverse_futility: true,
            forced_reductions: true,
            iir: true,
            ..shipped.clone()
        };
        let mut rng = Rng::new(11);
        let mut wins = 0;
        let mut compared = 0;
        for rule in Rule::ALL {
            for (size, stones, depth) in [(7, 8, 3), (8, 10, 3), (7, 10, 4), (9, 14, 3)] {
                for _ in 0..6 {
                    let Some(mut b) = position(&mut rng, size, rule, stones) else {
                        continue;
                    };
                    let reference = minimax(&mut b, depth, 0, shipped.window);
                    compared += 1;
                    if reference > MATE_BOUND {
                        wins += 1;
                        for pruned in [&shipped, &all] {
                            let got = search(&b, pruned, depth);
                            assert!(
                                got > MATE_BOUND,
                                "{rule}: minimax {reference}, search {got}: {:?}",
                                b.history()
                            );
                        }
                    }
                }
            }
        }
        assert!(compared >= 48, "only {compared} positions compared");
        assert!(
            wins >= 3,
            "only {wins} forced wins among {compared} positions: the test checks too little"
        );
    }
}
