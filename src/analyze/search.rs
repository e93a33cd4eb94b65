//! The alpha-beta search: negamax with principal-variation search, a transposition table,
//! killer and history move ordering, and the pruning and reduction steps of the rule's
//! [`Profile`], down to a horizon that asks the VCF solver whether the side to move wins by
//! fours.
//!
//! A node runs its steps in this order ([`Searcher::negamax`]): the limits and mate-distance
//! bounds; a five to make or to block; the horizon; the table's cut; the candidates (narrowed
//! by the opponent's threats, and by its VCF were the side to move to pass; where nothing
//! forces the side to move, generated only after reverse futility); reverse futility; then
//! each move, unless move-count or shape pruning skips it, searched at the depth its reduction
//! leaves, with a null window after the first and a full re-search when it beats alpha.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use super::Settings;
use super::eval::{MATE, MATE_BOUND, point_value};
use super::learned::Evaluator;
use super::moves::{self, Node, Threats};
use super::picker::Picker;
use super::profile::Profile;
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
    /// The rule's pieces and constants.
    profile: Profile,
    tt: &'a Table,
    /// Set by the main thread when a helper thread is to stop.
    halt: Option<&'a AtomicBool>,
    vcf: vcf::VcfSolver,
    /// The evaluation, following the board.
    eval: Evaluator,
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
    /// Per ply: whether the opponent of the side to move there was proved to have no VCF
    /// within the horizon's limits were the side to pass ([`Searcher::must_stop_vcf`]); the
    /// horizon one ply down may then skip its own (see `Horizon::trust_parent_no_vcf`).
    no_vcf_below: Vec<bool>,
    /// From which move (counting from 0) a node at each depth skips its late moves.
    move_counts: [usize; 16],
    /// The late-move reduction by depth and move number.
    lmr: Box<[[i8; 64]; 64]>,
    /// Per ply: whether the node is an expected cut node.
    cut_node: Vec<bool>,
    history: Box<[[i32; CELLS]; 2]>,
    areas: Vec<Bits>,
    moves: Vec<Vec<(i32, u16)>>,
    pv: Vec<Vec<u16>>,
    /// Every `Settings::sample_leaves`-th position whose static value the search takes, as
    /// its moves from the empty board (a fitting tool's data; empty when not sampling).
    leaves: LeafSample,
}

/// The positions a search judges statically, one in `every` (0: none), for fitting the
/// evaluation where the search uses it rather than on the games' own positions.
#[derive(Default)]
struct LeafSample {
    every: u32,
    seen: std::cell::Cell<u32>,
    kept: std::cell::RefCell<Vec<Vec<Point>>>,
}

impl LeafSample {
    fn look(&self, board: &Board) {
        let n = self.seen.get() + 1;
        if n < self.every {
            self.seen.set(n);
            return;
        }
        self.seen.set(0);
        self.kept.borrow_mut().push(board.history().to_vec());
    }
}

/// What a node knows before its moves are searched, for the steps that prune and reduce them.
#[derive(Clone, Copy)]
struct NodeInfo {
    depth: i32,
    ply: usize,
    /// The side to move must answer a winning threat.
    forced: bool,
    /// One candidate: it uses no depth.
    single: bool,
    /// An expected cut node.
    cut_node: bool,
    /// The table's best move.
    tt_move: Option<u16>,
}

/// Whether the window is a null one: the node is off the principal line (a principal-line
/// node whose alpha rose to one below beta is searched as one from then on).
fn null_window(alpha: i32, beta: i32) -> bool {
    beta - alpha == 1
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
        let mut board = board.clone();
        let profile = settings.profile_for(board.rule());
        // The evaluation keeps its own cell codes: the board's combination counts go unused.
        let eval = Evaluator::new(&board);
        board.track_counts(false);
        Ok(Searcher {
            board,
            settings,
            profile,
            tt,
            halt,
            vcf: vcf::VcfSolver::new(vcf_bytes.max(1 << 16))?,
            eval,
            nodes: 0,
            seldepth: 0,
            vcf_nodes: 0,
            hard_deadline: deadline,
            node_limit: settings.nodes,
            clock_at: 0,
            stopped: None,
            killers: vec![[u16::MAX; 2]; MAX_PLY + 2],
            no_vcf_below: vec![false; MAX_PLY + 2],
            move_counts: profile.move_count.map_or([usize::MAX; 16], |c| c.counts()),
            lmr: profile
                .reductions
                .map_or_else(|| Box::new([[0; 64]; 64]), |r| r.table()),
            cut_node: vec![false; MAX_PLY + 2],
            history: Box::new([[0; CELLS]; 2]),
            areas,
            moves: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            leaves: LeafSample {
                every: settings.sample_leaves,
                ..LeafSample::default()
            },
        })
    }

    /// The positions sampled so far (see `Settings::sample_leaves`), taken out.
    pub fn take_leaves(&mut self) -> Vec<Vec<Point>> {
        self.leaves.kept.take()
    }

    /// The profile the search runs with.
    pub fn profile(&self) -> &Profile {
        &self.profile
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
        self.cut_node[1] = null_window(alpha, beta);
        let score = -self.negamax(depth - 1, -beta, -alpha, 1);
        self.unplay();
        score
    }

    /// The late-move reduction of the `k`-th move (from 0) at `depth` by the profile's table.
    pub fn lmr(&self, depth: i32, k: usize) -> i32 {
        i32::from(self.lmr[depth.clamp(0, 63) as usize][k.min(63)])
    }

    fn play(&mut self, m: usize, ply: usize) {
        self.board.play(Point::from_index(m));
        self.eval.play(&self.board, m);
        let (lower, upper) = self.areas.split_at_mut(ply + 1);
        upper[0] = lower[ply];
        upper[0].union_with(moves::near(self.settings.window, m));
    }

    /// Takes back the last move played.
    fn unplay(&mut self) {
        self.eval.undo();
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

    /// The value of the position for the side to move, searched `depth` plies deep in the
    /// window (`alpha`, `beta`); meaningless once stopped.
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
            return self.quiesce(ply, beta);
        }
        // The table before the move list: a cut here costs no generation.
        let key = self.board.hash();
        let entry = self.tt.get(key);
        if let Some(score) = entry.and_then(|e| table_cut(&e, depth, alpha, beta, ply)) {
            return score;
        }
        let mut list = std::mem::take(&mut self.moves[ply]);
        let value = self.search_node(&mut list, entry, key, depth, alpha, beta, ply);
        self.moves[ply] = list;
        value
    }

    /// A node past its table probe: its candidates into `list`, the steps that end it early,
    /// then its moves; the result goes into the table unless a step ended the node first.
    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        list: &mut Vec<(i32, u16)>,
        entry: Option<Entry>,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let (forced, pending) = match self.candidates(list, depth, ply) {
            Ok(node) => node,
            Err(value) => return value,
        };
        if !pending && list.is_empty() {
            return 0;
        }
        let single = !pending && list.len() == 1;
        if ply >= MAX_PLY || (depth <= 0 && !single) {
            return self.quiesce(ply, beta);
        }
        let node = NodeInfo {
            depth,
            ply,
            forced,
            single,
            cut_node: null_window(alpha, beta) && self.cut_node[ply],
            tt_move: entry.and_then(|e| e.best),
        };
        let tt_value = entry.map(|e| (from_tt(e.score, ply), e.bound));
        if let Some(value) = self.reverse_futility(&node, alpha, beta, tt_value) {
            return value;
        }
        if pending {
            // What the generator gives an open node, without its scan of the threats again.
            let me = self.board.to_move();
            moves::push_legal(&mut self.board, &self.areas[ply], me, list, true);
        }
        let Some((best, best_move)) = self.search_moves(list, &node, alpha, beta) else {
            return 0;
        };
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
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

    /// The node's candidates into `list`, whether they are forced (the side to move must
    /// answer a winning threat, or the opponent's VCF were it to pass), and whether the list is
    /// still to be generated; `Err` with the node's value when the position is decided. An open
    /// node (nothing on the board forces the side to move, two candidates or more) leaves its
    /// list to after reverse futility unless the opponent's VCF forces it: the candidates'
    /// point values were an eighth of the search's time, and reverse futility ends many nodes.
    fn candidates(
        &mut self,
        list: &mut Vec<(i32, u16)>,
        depth: i32,
        ply: usize,
    ) -> Result<(bool, bool), i32> {
        self.no_vcf_below[ply] = false;
        let threats = self.profile.threats;
        if depth >= 1 && moves::open_node(&mut self.board, &self.areas[ply], threats) {
            list.clear();
            let forced = self.must_stop_vcf(list, ply);
            return Ok((forced, !forced));
        }
        let forced = match moves::generate(&mut self.board, &self.areas[ply], list, threats) {
            Node::Win => return Err(MATE - ply as i32 - 1),
            Node::Lost => return Err(-(MATE - ply as i32 - 2)),
            Node::Moves { forced } => forced,
        };
        Ok((
            forced || (depth >= 1 && self.must_stop_vcf(list, ply)),
            false,
        ))
    }

    /// Reverse futility: off the principal line, not forced, a static value (or the table's
    /// better estimate) this far above beta is taken as the node's value.
    fn reverse_futility(
        &self,
        node: &NodeInfo,
        alpha: i32,
        beta: i32,
        tt_value: Option<(i32, Bound)>,
    ) -> Option<i32> {
        let rfp = self.profile.reverse_futility?;
        if !null_window(alpha, beta)
            || node.forced
            || node.single
            || node.ply == 0
            || node.depth > rfp.depth
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let mut v = self.static_value();
        if rfp.table_value
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
        (v - rfp.margin * node.depth >= beta).then_some(v)
    }

    /// The node's moves, best first by the picker, each searched unless pruned: the best
    /// value and move, or `None` once the limits stopped the search.
    fn search_moves(
        &mut self,
        list: &mut [(i32, u16)],
        node: &NodeInfo,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Option<u16>)> {
        let ply = node.ply;
        let side = self.board.to_move().index();
        let killers = self.killers[ply];
        let mut best = -INF;
        let mut best_move = None;
        let picker = Picker::new(list, node.tt_move, &killers, &self.history[side]);
        for (k, _, m) in picker {
            let special = Some(m) == node.tt_move || killers.contains(&m);
            // What the move makes and stops, for pruning and reductions.
            let shape = if self.profile.reads_shapes() {
                point_value(&self.board, m as usize, self.board.to_move())
            } else {
                0
            };
            let null = null_window(alpha, beta);
            if !special && null && self.prunes(node, k, shape, best) {
                continue;
            }
            let reduction = if special {
                0
            } else {
                self.reduction(node, k, shape, null)
            };
            let score = self.search_move(node, m as usize, k, reduction, alpha, beta);
            if self.stopped.is_some() {
                return None;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        self.reward_cut(ply, side, m, node.depth);
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// Whether the `k`-th move (from 0), neither the table move nor a killer and searched in
    /// a null window, is skipped: by move-count pruning (a late move below the profile's
    /// shape, once a safe move is in hand where it asks) or by shape pruning (a late move
    /// with no shape near the horizon).
    fn prunes(&self, node: &NodeInfo, k: usize, shape: i32, best: i32) -> bool {
        let by_count = self.profile.move_count.is_some_and(|c| {
            (!node.forced || self.profile.reduce_forced)
                && k >= self.move_counts[node.depth.clamp(0, 15) as usize]
                && shape < c.keep_from
                && (!c.once_safe || best > -MATE_BOUND)
        });
        let by_shape = self.profile.shape_pruning.is_some_and(|p| {
            !node.forced && node.depth <= p.depth && k >= p.from_move && shape < p.below
        });
        by_count || by_shape
    }

    /// The late-move reduction of the `k`-th move (from 0), neither the table move nor a
    /// killer: the table's, a ply less on the principal line, a ply more with no shape or at
    /// an expected cut node; none in a forced node unless the profile reduces those.
    fn reduction(&self, node: &NodeInfo, k: usize, shape: i32, null: bool) -> i32 {
        let Some(r) = self.profile.reductions else {
            return 0;
        };
        if (node.forced && !self.profile.reduce_forced)
            || node.depth < 2
            || k < r.from_move
            || shape >= r.keep_from
        {
            return 0;
        }
        let mut x = self.lmr(node.depth, k);
        x -= i32::from(!null);
        x += i32::from(shape < super::profile::threshold::OPEN_TWO);
        x += i32::from(r.cut_nodes && node.cut_node);
        x.clamp(0, node.depth - 1)
    }

    /// Move `m`, the `k`-th, played and searched: the first in the full window, the others in
    /// a null window at the reduced depth, again at the full depth when it beats alpha, and in
    /// the full window when it lands inside it. Which children are expected cut nodes: below
    /// a reduced search, and otherwise the opposite of this node (a principal-line child is
    /// none).
    fn search_move(
        &mut self,
        node: &NodeInfo,
        m: usize,
        k: usize,
        reduction: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let ply = node.ply;
        self.play(m, ply);
        // A single forced reply does not use up depth.
        let next = if node.single {
            node.depth
        } else {
            node.depth - 1
        };
        let mut score;
        if k == 0 {
            self.cut_node[ply + 1] = null_window(alpha, beta) && !node.cut_node;
            score = -self.negamax(next, -beta, -alpha, ply + 1);
        } else {
            self.cut_node[ply + 1] = reduction > 0 || !node.cut_node;
            score = -self.negamax(next - reduction, -alpha - 1, -alpha, ply + 1);
            if score > alpha && reduction > 0 {
                self.cut_node[ply + 1] = !node.cut_node;
                score = -self.negamax(next, -alpha - 1, -alpha, ply + 1);
            }
            if score > alpha && score < beta {
                self.cut_node[ply + 1] = false;
                score = -self.negamax(next, -beta, -alpha, ply + 1);
            }
        }
        self.unplay();
        score
    }

    /// A cut by move `m` at `ply`: it becomes the ply's first killer and gains history.
    fn reward_cut(&mut self, ply: usize, side: usize, m: u16, depth: i32) {
        if !self.killers[ply].contains(&m) {
            self.killers[ply] = [m, self.killers[ply][0]];
        }
        self.history[side][m as usize] += depth * depth;
    }

    /// The horizon VCF's limits.
    fn horizon_limits(&self) -> Option<Limits> {
        self.profile.horizon.vcf.map(|v| Limits {
            depth: v.depth,
            nodes: v.nodes,
            ..Limits::default()
        })
    }

    /// Whether the opponent has a VCF were the side to move to pass; if so, narrows `list` to
    /// the points of that VCF's line and the side to move's fours (a stone elsewhere neither
    /// takes a point the line needs nor gains a tempo).
    fn must_stop_vcf(&mut self, list: &mut Vec<(i32, u16)>, ply: usize) -> bool {
        if self.profile.threats == Threats::Off {
            return false;
        }
        let Some(limits) = self.horizon_limits() else {
            return false;
        };
        let me = self.board.to_move();
        let opp = me.opponent();
        if self.board.four_points(opp).is_empty() {
            self.no_vcf_below[ply] = true;
            return false;
        }
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

    /// The horizon: a VCF for the side to move is a mate; otherwise the static value.
    fn quiesce(&mut self, ply: usize, beta: i32) -> i32 {
        let me = self.board.to_move();
        // Without a four to play there is no VCF (a five was looked for already).
        if self.board.four_points(me).is_empty() {
            return self.static_value();
        }
        let horizon = self.profile.horizon;
        let known_none = horizon.trust_parent_no_vcf && ply > 0 && self.no_vcf_below[ply - 1];
        // Stand pat before the VCF: a static value at beta or above already fails high, and
        // a VCF's mate could only fail higher.
        let stand = self.static_value();
        if horizon.stand_pat_first && stand >= beta {
            return stand;
        }
        if let Some(limits) = self.horizon_limits()
            && !known_none
        {
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
        stand
    }

    /// The static evaluation of the position for the side to move.
    fn static_value(&self) -> i32 {
        if self.leaves.every > 0 {
            self.leaves.look(&self.board);
        }
        self.eval.evaluate(&self.board)
    }
}

/// The table's cut of a node off the principal line: its stored score where the entry is
/// deep enough and its bound decides the window. Not on the principal line: a cut there would
/// leave the line shown to the user ending at this node.
fn table_cut(e: &Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if e.depth < depth || !null_window(alpha, beta) {
        return None;
    }
    let score = from_tt(e.score, ply);
    match e.bound {
        Bound::Exact => Some(score),
        Bound::Lower if score >= beta => Some(score),
        Bound::Upper if score <= alpha => Some(score),
        _ => None,
    }
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
    use crate::rng::Rng;

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
            profile: Some(Profile::UNPRUNED),
            window: 1,
            ..Settings::default()
        }
    }

    /// The settings of `rule`'s profile changed by `change`, over the points next to a stone.
    fn with_profile(rule: Rule, change: impl FnOnce(&mut Profile)) -> Settings {
        let mut profile = Profile::of(rule);
        change(&mut profile);
        Settings {
            profile: Some(profile),
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

    /// An open node, whose list the search generates only after reverse futility, is exactly
    /// one where the list would be every legal point of the area, not forced, two or more:
    /// over random positions of every rule, on boards small enough to fill up, and full ones.
    #[test]
    fn an_open_node_is_one_the_generator_gives_unforced_with_two_candidates_or_more() {
        let mut rng = Rng::new(11);
        let (mut open, mut closed, mut few) = (0, 0, 0);
        for rule in Rule::ALL {
            for (size, stones, tries) in [(15, 14, 150), (9, 30, 150), (5, 23, 3000), (5, 24, 3000)]
            {
                for _ in 0..tries {
                    let Some(mut b) = position(&mut rng, size, rule, stones) else {
                        continue;
                    };
                    let area = moves::area(&b, 2);
                    let mut list = Vec::new();
                    let node = moves::generate(&mut b, &area, &mut list, Threats::Tight);
                    let unforced = node == Node::Moves { forced: false };
                    few += usize::from(unforced && list.len() < 2);
                    let expected = unforced && list.len() >= 2;
                    let got = moves::open_node(&mut b, &area, Threats::Tight);
                    assert_eq!(got, expected, "{rule} {size}: {:?}", b.history());
                    // The search then takes every legal point of the area as the list.
                    let mut legal = Vec::new();
                    let me = b.to_move();
                    moves::push_legal(&mut b, &area, me, &mut legal, true);
                    assert!(!got || legal == list, "{rule} {size}: {:?}", b.history());
                    if got {
                        open += 1;
                    } else {
                        closed += 1;
                    }
                }
            }
        }
        assert!(
            open >= 100 && closed >= 100 && few >= 5,
            "open {open}, closed {closed}, unforced with fewer than two {few}"
        );
    }

    /// At depth 0 with the horizon VCF off, the search's value is the static value in every
    /// rule, with a four to play or not (fours at the horizon are the VCF's business).
    #[test]
    fn without_its_vcf_the_horizon_is_the_static_value() {
        let mut rng = Rng::new(5);
        let mut with_four = 0;
        for rule in Rule::ALL {
            let settings = with_profile(rule, |p| p.horizon.vcf = None);
            for _ in 0..200 {
                let Some(b) = position(&mut rng, 9, rule, 16) else {
                    continue;
                };
                // A five to block is no horizon.
                let me = b.to_move();
                if !b.five_points(me.opponent()).is_empty() {
                    continue;
                }
                let got = search(&b, &settings, 0);
                assert_eq!(
                    got,
                    evaluate_fresh(&b, shipped(rule)),
                    "{rule}: {:?}",
                    b.history()
                );
                with_four += usize::from(!b.four_points(me).is_empty());
            }
        }
        assert!(
            with_four >= 30,
            "only {with_four} positions with a four to play"
        );
    }

    /// The horizon stands pat before its VCF (`Horizon::stand_pat_first`): with beta at or
    /// below the static value it returns that value and asks the VCF nothing; with beta above
    /// it, the VCF's mate comes back as it does without the setting.
    #[test]
    fn the_horizon_stands_pat_before_its_vcf_and_finds_the_mate_above_the_static_value() {
        let first = Settings::default();
        let tt = Table::new(1 << 20).unwrap();
        let mut rng = Rng::new(11);
        let mut mates = 0;
        let standing = Rule::ALL.into_iter().filter(|&r| {
            let h = Profile::of(r).horizon;
            h.stand_pat_first && h.vcf.is_some()
        });
        assert_eq!(standing.clone().count(), 2);
        for rule in standing {
            let after = Settings {
                window: first.window,
                ..with_profile(rule, |p| p.horizon.stand_pat_first = false)
            };
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
                let low = with.quiesce(0, stand);
                assert_eq!(low, stand, "{rule}: {:?}", b.history());
                assert_eq!(with.vcf_nodes, 0);
                let full = without.quiesce(0, stand);
                assert!(full >= stand, "{rule}: {:?}", b.history());
                // Beta above it: the same value as without the setting, a mate included.
                let high = with.quiesce(0, stand + 1);
                assert_eq!(high, without.quiesce(0, stand + 1));
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

    /// The root values with and without the horizon's trust in the node above's "no VCF"
    /// (`Horizon::trust_parent_no_vcf`) on random positions of `rule`, checked to save VCF
    /// positions: how many were compared and how many differ.
    fn compare_vcf_from_parent(rule: Rule, seed: u64) -> (usize, usize) {
        let on = with_profile(rule, |_| {});
        assert!(Profile::of(rule).horizon.trust_parent_no_vcf);
        let off = with_profile(rule, |p| p.horizon.trust_parent_no_vcf = false);
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

    /// With the pruning on (each rule's profile: reductions, shape, move-count and reverse
    /// futility pruning, reductions in renju's forced nodes, threat narrowing, the horizon
    /// VCF; and every piece at once in every rule), a forced win the full-width minimax finds
    /// within the depth is still found.
    #[test]
    fn with_pruning_no_forced_win_of_the_reference_is_missed() {
        let shipped = Settings {
            window: 1,
            ..Settings::default()
        };
        // Every piece this search has, on at once.
        let all = Settings {
            profile: Some(Profile {
                reduce_forced: true,
                ..Profile::FREESTYLE
            }),
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
