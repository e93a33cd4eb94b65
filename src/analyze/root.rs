//! The root: its candidates, the iterative deepening over them (one exact score an iteration,
//! null-window tests of the others, aspiration windows, reductions of late quiet moves), the
//! pass that scores the best `top` exactly, and the order the report reads.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use super::budget::Budget;
use super::eval::{MATE, MATE_BOUND};
use super::params::*;
use super::profile::threshold;
use super::search::{Searcher, Stop};
use super::tt::Bound;
use super::{Analysis, Candidate, Event, Progress, Settings, moves};
use crate::board::{Board, Point};

/// What the root offers.
pub(super) enum Start {
    /// The side to move makes five: that move.
    Won(Point),
    /// Nothing can be played (renju: black has only forbidden points left, or none at all).
    Nothing,
    /// The candidates with their ordering values (what each makes and stops), best first.
    Moves(Vec<(i32, u16)>),
}

/// The root's candidates for the side to move.
pub(super) fn start(board: &Board, settings: &Settings) -> Start {
    let me = board.to_move();
    let mut scratch = board.clone();
    let mut roots = Vec::new();
    let area = moves::area(board, settings.window);
    let node = moves::generate(
        &mut scratch,
        &area,
        &mut roots,
        settings.root_threat_moves(board.rule()),
    );
    match node {
        moves::Node::Win => {
            let five = board.five_points(me).first().unwrap_or(0);
            return Start::Won(Point::from_index(five));
        }
        // Every legal move loses: the search scores the near points at the loss.
        moves::Node::Lost => moves::push_legal(&mut scratch, &area, me, &mut roots, true),
        moves::Node::Moves { .. } => {}
    }
    // Under renju every point near the stones can be forbidden for black: then any legal
    // point; when there is none at all, nothing to search or score.
    if roots.is_empty() {
        let everywhere = *board.empty_bits();
        moves::push_legal(&mut scratch, &everywhere, me, &mut roots, true);
    }
    roots.sort_unstable_by(|a, b| b.cmp(a));
    if roots.is_empty() {
        Start::Nothing
    } else {
        Start::Moves(roots)
    }
}

/// `--depth 1`: the classic weight map, every candidate at its static value.
pub(super) fn weight_map(roots: &[(i32, u16)]) -> Vec<Candidate> {
    roots
        .iter()
        .map(|&(v, m)| {
            let mv = Point::from_index(m as usize);
            Candidate {
                mv,
                score: v / POINT_SCALE,
                bound: Bound::Exact,
                mate_in: None,
                mate_minimal: false,
                pv: vec![mv],
                depth: 1,
            }
        })
        .collect()
}

/// The candidates before the search: each at its ordering value, an upper bound.
pub(super) fn unsearched(roots: &[(i32, u16)]) -> Vec<Candidate> {
    roots
        .iter()
        .map(|&(v, m)| Candidate {
            mv: Point::from_index(m as usize),
            score: v.min(MATE_BOUND - 1) / 100,
            bound: Bound::Upper,
            mate_in: None,
            mate_minimal: false,
            pv: vec![Point::from_index(m as usize)],
            depth: 0,
        })
        .collect()
}

/// The main thread's search of the root.
pub(super) struct Root<'r, 't> {
    /// The main thread's searcher.
    pub searcher: Searcher<'t>,
    /// The root moves, best first by the last completed iteration.
    pub scored: Vec<Candidate>,
    /// The root's candidates with their ordering values.
    roots: &'r [(i32, u16)],
    settings: &'r Settings,
    /// The helper threads' nodes, added as each ends.
    helper_nodes: &'r AtomicU64,
}

impl<'r, 't> Root<'r, 't> {
    pub fn new(
        searcher: Searcher<'t>,
        roots: &'r [(i32, u16)],
        settings: &'r Settings,
        helper_nodes: &'r AtomicU64,
    ) -> Root<'r, 't> {
        Root {
            searcher,
            scored: unsearched(roots),
            roots,
            settings,
            helper_nodes,
        }
    }

    /// Positions visited so far by every search thread.
    pub fn nodes(&self) -> u64 {
        self.searcher.nodes + self.searcher.vcf_nodes + self.helper_nodes.load(Relaxed)
    }

    /// What root move `m` makes and stops (its ordering value before history).
    fn shape_of(&self, m: usize) -> i32 {
        self.roots
            .iter()
            .find(|&&(_, r)| r as usize == m)
            .map_or(0, |&(v, _)| v)
    }

    /// Iterative deepening up to `max_depth`, within the budget: after each completed
    /// iteration the moves are ranked, `check` tests the best against the opponent's threat,
    /// and `events` hears of it. The deepest completed iteration and what cut the last one
    /// short go into `analysis`.
    pub fn iterate(
        &mut self,
        max_depth: u32,
        budget: &Budget,
        analysis: &mut Analysis,
        events: &mut impl FnMut(Event<'_>),
        check: &mut impl FnMut(&mut [Candidate], usize) -> bool,
    ) {
        for depth in 1..=max_depth {
            self.searcher.new_iteration();
            let mut next = self.scored.clone();
            if !self.iteration(depth, &mut next, events) {
                analysis.stopped = self.searcher.stopped;
                // In a game the moves the cut iteration finished keep their deeper results
                // (the best of the deepest exact scores then leads; see `rank_exact_first`).
                // An analysis's table scores its best `top` at one depth, so there only the
                // mates it found are kept: a mate is a proof whatever the depth.
                let game = self.settings.game;
                for (old, new) in self.scored.iter_mut().zip(&next) {
                    if new.depth == depth && (game || is_mate(new)) {
                        *old = new.clone();
                    }
                }
                break;
            }
            rank(&mut next);
            self.scored = next;
            check(&mut self.scored, 1);
            analysis.depth = depth;
            let best = &self.scored[0];
            events(Event::Iteration(&Progress {
                depth,
                nodes: self.nodes(),
                elapsed: budget.start.elapsed(),
                score: best.score,
                pv: best.pv.clone(),
                seldepth: self.searcher.seldepth as u32,
            }));
            let decided =
                best.score.abs() > MATE_BOUND && (MATE - best.score.abs()) as u32 <= depth;
            let all_lost = self.scored.iter().all(|c| c.mate_in.is_some_and(|n| n < 0));
            if decided || all_lost || !budget.may_iterate() {
                break;
            }
        }
    }

    /// One iteration at `depth` over `next` (the last iteration's order): false when the
    /// limits cut it short.
    fn iteration(
        &mut self,
        depth: u32,
        next: &mut [Candidate],
        events: &mut impl FnMut(Event<'_>),
    ) -> bool {
        let exact_all = self.settings.all || depth == 1;
        let exact_per_iteration = if self.settings.game {
            1
        } else {
            self.settings.top.max(1)
        };
        let mut exact: Vec<i32> = Vec::new();
        let mut rank_now = 0;
        for cand in next.iter_mut() {
            // A move proved lost keeps its score.
            if cand.mate_in.is_some() {
                continue;
            }
            let m = cand.mv.index();
            events(Event::Searching { mv: cand.mv, depth });
            // In a game one exact score an iteration (the best move), every other move a
            // null-window test against it (the pass scores the rest of the best `top` once the
            // iterations are done). An analysis scores its best `top` exactly in every
            // iteration (multi-PV), each other move tested against the `top`-th exact score
            // so far, so a completed iteration's table is exact at one depth. `--all`: every
            // move exact.
            let kth = if exact_all || exact.len() < exact_per_iteration {
                None
            } else {
                exact.select_nth_unstable_by(exact_per_iteration - 1, |a, b| b.cmp(a));
                Some(exact[exact_per_iteration - 1])
            };
            // A late quiet root move is first tested at a reduced depth; one that beats the
            // best there is tested again at the full depth.
            let reduction = match kth {
                Some(_) => root_reduction(&self.searcher, depth as i32, rank_now, self.shape_of(m)),
                None => 0,
            };
            rank_now += 1;
            let searcher = &mut self.searcher;
            let mut searched_depth = depth;
            let mut score = match kth {
                Some(k) if reduction > 0 => {
                    let s = searcher.search_root_move(m, depth as i32 - reduction, k, k + 1);
                    if s > k && searcher.stopped.is_none() {
                        searcher.search_root_move(m, depth as i32, k, k + 1)
                    } else {
                        searched_depth = depth - reduction as u32;
                        s
                    }
                }
                Some(k) => searcher.search_root_move(m, depth as i32, k, k + 1),
                // An aspiration window around the last iteration's exact score (see
                // `aspiration`).
                None if cand.bound == Bound::Exact && cand.score.abs() < MATE_BOUND => {
                    aspiration(searcher, m, depth as i32, cand.score)
                }
                None => searcher.search_root_move(m, depth as i32, -MATE - 1, MATE + 1),
            };
            let mut bound = Bound::Exact;
            if let Some(k) = kth {
                if score > k && searcher.stopped.is_none() {
                    searched_depth = depth;
                    score = searcher.search_root_move(m, depth as i32, -MATE - 1, MATE + 1);
                } else {
                    bound = Bound::Upper;
                }
            }
            if searcher.stopped.is_some() {
                return false;
            }
            cand.score = score;
            cand.bound = bound;
            cand.depth = searched_depth;
            cand.mate_in = None;
            events(Event::Searched {
                mv: cand.mv,
                depth,
                score,
                best: bound == Bound::Exact && exact.iter().all(|&e| score > e),
                nodes: self.nodes(),
            });
            if bound == Bound::Exact {
                exact.push(score);
                cand.pv = self.searcher.line_from(cand.mv);
            } else {
                cand.pv = vec![cand.mv];
            }
        }
        true
    }

    /// After the iterations, to the pass's end: the best `top` get exact scores and lines at
    /// the last completed `depth` (see [`exact_pass`]). Under the opponent's threat, the best
    /// moves are checked for refutations first, and again after each pass while it brings a
    /// move that loses to the top.
    pub fn finish(
        &mut self,
        depth: u32,
        budget: &Budget,
        check: &mut impl FnMut(&mut [Candidate], usize) -> bool,
    ) {
        self.searcher.set_limits(budget.pass, budget.nodes);
        let top = self.settings.top.max(1);
        let game = self.settings.game;
        // A game plays the best of the deepest search (the pass its self-play matches
        // measured); an analysis's table reads top to bottom (see `top_pass`).
        let (settings, depth) = (self.settings, depth as i32);
        let limits = (budget.pass, budget.nodes);
        let pass = |searcher: &mut Searcher<'_>, scored: &mut [Candidate]| {
            if game {
                exact_pass(searcher, scored, settings, depth);
            } else {
                top_pass(searcher, scored, settings, depth, limits);
            }
        };
        rank_for(game, &mut self.scored);
        check(&mut self.scored, top);
        if !self.settings.all && depth >= 2 {
            pass(&mut self.searcher, &mut self.scored);
            while check(&mut self.scored, top) {
                pass(&mut self.searcher, &mut self.scored);
            }
        }
        rank_for(game, &mut self.scored);
    }
}

/// Whether a candidate's score is a mate (proved, or found by the search and not yet
/// verified): a proof whatever the depth, never re-searched at another.
fn is_mate(c: &Candidate) -> bool {
    c.mate_in.is_some() || (c.score.abs() > MATE_BOUND && (c.bound == Bound::Exact || c.score < 0))
}

/// An analysis's pass: the best `top` that are not mates are scored exactly at one depth,
/// the deepest up to the last completed `depth` that all of them reach within the pass's
/// limits (see [`common_level`]); then every other move whose bound is above the lowest of
/// them is tested against it at that depth with a null window, failing low (an upper bound
/// below the best `top`, which says where it stands) or scoring exactly and joining them.
/// Where the limits (`limits`: the pass's end and node limit) cut the tests short, the rest
/// keep the bounds they had.
pub(super) fn top_pass(
    searcher: &mut Searcher<'_>,
    scored: &mut [Candidate],
    settings: &Settings,
    depth: i32,
    limits: (Option<Instant>, Option<u64>),
) {
    rank(scored);
    // The winning mates take rows of the table: the others fill the rest.
    let wins = scored
        .iter()
        .take(settings.top)
        .filter(|c| is_mate(c) && c.score > 0)
        .count();
    let members: Vec<usize> = (0..scored.len())
        .filter(|&i| !is_mate(&scored[i]))
        .take(settings.top.saturating_sub(wins).max(1))
        .collect();
    if members.is_empty() {
        return;
    }
    let Some(level) = common_level(searcher, scored, &members, depth, limits) else {
        return;
    };
    let at_level =
        |c: &Candidate| c.bound == Bound::Exact && c.depth == level as u32 && !is_mate(c);
    rank_report(scored);
    let mut k = 0;
    while searcher.stopped.is_none() && k < scored.len() {
        // The lowest score of the best `top`, all at `level`.
        let kth = scored
            .iter()
            .filter(|c| at_level(c))
            .map(|c| c.score)
            .nth(members.len() - 1);
        let cand = &mut scored[k];
        k += 1;
        let Some(kth) = kth else { break };
        if at_level(cand) || is_mate(cand) || (cand.bound == Bound::Upper && cand.score <= kth) {
            continue;
        }
        match test_against(searcher, cand.mv, level, kth) {
            None => break,
            Some(Tested::Below(score)) => {
                (cand.score, cand.bound, cand.depth) = (score, Bound::Upper, level as u32);
                cand.pv = vec![cand.mv];
                continue;
            }
            Some(Tested::Exact(score, line)) => cand.set_exact(score, line),
        }
        cand.depth = level as u32;
        rank_report(scored);
        k = 0;
    }
    settle_other_depths(searcher, scored, members.len(), level, limits);
}

/// A move left exact at a deeper iteration's depth when the pass's limits stopped it (a
/// threat check moved the table down to `level`), or left with an upper bound of another depth
/// above the level's last member, is tested at `level` with the limits lifted: its score is
/// not comparable with the table's, and ranked among them it would read out of order. Few moves, each a null-window test at a level the table already reached.
fn settle_other_depths(
    searcher: &mut Searcher<'_>,
    scored: &mut [Candidate],
    members: usize,
    level: i32,
    limits: (Option<Instant>, Option<u64>),
) {
    let kth_of = |scored: &[Candidate]| {
        scored
            .iter()
            .filter(|c| c.bound == Bound::Exact && c.depth == level as u32 && !is_mate(c))
            .map(|c| c.score)
            .nth(members - 1)
    };
    // An exact score of another depth, or an upper bound of another depth that does not
    // prove the move below the level's last member: neither may stand beside the level's rows.
    let stale = |c: &Candidate, kth: Option<i32>| {
        c.depth != level as u32
            && !is_mate(c)
            && (c.bound == Bound::Exact
                || (c.bound == Bound::Upper && kth.is_some_and(|k| c.score > k)))
    };
    let first = kth_of(scored);
    if !scored.iter().any(|c| stale(c, first)) || searcher.stopped == Some(Stop::Halted) {
        return;
    }
    let stopped = searcher.stopped;
    searcher.set_limits(None, None);
    for i in 0..scored.len() {
        let kth = kth_of(scored);
        if !stale(&scored[i], kth) {
            continue;
        }
        let Some(kth) = kth else { break };
        let mv = scored[i].mv;
        let cand = &mut scored[i];
        match test_against(searcher, mv, level, kth) {
            None => break,
            Some(Tested::Below(score)) => {
                (cand.score, cand.bound) = (score, Bound::Upper);
                cand.pv = vec![mv];
            }
            Some(Tested::Exact(score, line)) => cand.set_exact(score, line),
        }
        cand.depth = level as u32;
    }
    let halted = searcher.stopped;
    searcher.set_limits(limits.0, limits.1);
    // What stopped the pass still stands (the passes after it do nothing more).
    searcher.stopped = halted.or(stopped);
    rank_report(scored);
}

/// A root move's exact score and line.
type Scored = (i32, Vec<Point>);

/// What [`test_against`] found of a root move.
enum Tested {
    /// No better than the score tested against: this upper bound.
    Below(i32),
    /// Better: its exact score and line.
    Exact(i32, Vec<Point>),
}

/// Tests root move `mv` at `depth` with a null window at `kth`, and scores it exactly when it
/// beats `kth`; `None` when the search was halted.
fn test_against(searcher: &mut Searcher<'_>, mv: Point, depth: i32, kth: i32) -> Option<Tested> {
    let m = mv.index();
    let score = searcher.search_root_move(m, depth, kth, kth + 1);
    if searcher.stopped.is_some() {
        return None;
    }
    if score <= kth {
        return Some(Tested::Below(score));
    }
    let score = searcher.search_root_move(m, depth, -MATE - 1, MATE + 1);
    if searcher.stopped.is_some() {
        return None;
    }
    Some(Tested::Exact(score, searcher.line_from(mv)))
}

/// Scores the `members` exactly at one depth. The iterations leave them so (each scores the
/// best `top` exactly), unless a threat check replaced one: then level by level from one ply
/// up to `depth` (the shallow levels cost next to nothing over the table), a level kept only
/// once every member has its exact score there (at `depth` a member already exact keeps its
/// score), so the members share the deepest level the limits let them all reach. Should the
/// limits cut even the first level short, the members are scored at one ply with the limits
/// lifted (a few positions each), then `limits` restored. Returns the level; `None` when the
/// search was halted.
fn common_level(
    searcher: &mut Searcher<'_>,
    scored: &mut [Candidate],
    members: &[usize],
    depth: i32,
    limits: (Option<Instant>, Option<u64>),
) -> Option<i32> {
    let done = |c: &Candidate| c.bound == Bound::Exact && c.depth == depth as u32;
    if members.iter().all(|&i| done(&scored[i])) {
        return Some(depth);
    }
    let mut kept: Option<(i32, Vec<Scored>)> = None;
    'levels: for d in 1..=depth {
        let mut results = Vec::with_capacity(members.len());
        for &i in members {
            let cand = &scored[i];
            let m = cand.mv.index();
            let last = kept.as_ref().map(|(_, r)| r[results.len()].0);
            let score = if d == depth && done(cand) {
                results.push((cand.score, cand.pv.clone()));
                continue;
            } else if d == depth && cand.bound == Bound::Upper && cand.depth == depth as u32 {
                upper_at(searcher, m, d, cand.score)
            } else {
                match last {
                    Some(s) if s.abs() < MATE_BOUND => aspiration(searcher, m, d, s),
                    _ => searcher.search_root_move(m, d, -MATE - 1, MATE + 1),
                }
            };
            if searcher.stopped.is_some() {
                break 'levels;
            }
            results.push((score, searcher.line_from(cand.mv)));
        }
        kept = Some((d, results));
    }
    let (level, results) = match kept {
        Some(kept) => kept,
        None => {
            searcher.set_limits(None, None);
            let one_ply: Vec<_> = members
                .iter()
                .map(|&i| {
                    let mv = scored[i].mv;
                    let s = searcher.search_root_move(mv.index(), 1, -MATE - 1, MATE + 1);
                    (s, searcher.line_from(mv))
                })
                .collect();
            // A halted search (cancelled) stays halted: nothing to keep.
            let halted = searcher.stopped.is_some();
            searcher.set_limits(limits.0, limits.1);
            if halted {
                return None;
            }
            (1, one_ply)
        }
    };
    for (&i, (score, pv)) in members.iter().zip(results) {
        scored[i].set_exact(score, pv);
        scored[i].depth = level as u32;
    }
    Some(level)
}

/// The exact score at `depth` of root move `m` whose upper bound there is `bound`: in a
/// window just under the bound first, then below it.
fn upper_at(searcher: &mut Searcher<'_>, m: usize, depth: i32, bound: i32) -> i32 {
    if bound >= MATE_BOUND {
        return searcher.search_root_move(m, depth, -MATE - 1, MATE + 1);
    }
    let (lo, hi) = (bound - 2 * ASPIRATION, bound + 1);
    let score = searcher.search_root_move(m, depth, lo, hi);
    if score <= lo && searcher.stopped.is_none() {
        searcher.search_root_move(m, depth, -MATE - 1, hi)
    } else {
        score
    }
}

/// The pass at the last completed `depth`: the best `top` by their bounds get exact scores
/// and lines, then any bound above the `top`-th exact score is tested against it with a null
/// window: it fails low (a lower upper bound) or scores exactly and joins the best. Where the
/// limits cut it short, the rest keep their bounds. Moves proved lost keep their scores.
///
/// The last iteration can leave the pass little time, and a full search at its depth may not
/// end in it: the best `top` are deepened together from two plies above it (from one ply for a
/// move tested against a winning mate, known only to be "no better than a win"), each keeping
/// its deepest exact score with its own depth, and the null-window tests run at the depth they
/// all reached. At the last depth a bound from that depth's iteration gets an aspiration window
/// under it first.
pub(super) fn exact_pass(
    searcher: &mut Searcher<'_>,
    scored: &mut [Candidate],
    settings: &Settings,
    mut depth: i32,
) {
    rank(scored);
    let open: Vec<usize> = (0..scored.len().min(settings.top))
        .filter(|&i| scored[i].bound != Bound::Exact && scored[i].mate_in.is_none())
        .collect();
    if !open.is_empty() {
        let at_mate = open.iter().any(|&i| scored[i].score > MATE_BOUND);
        let start = if at_mate { 1 } else { (depth - 2).max(1) };
        let mut reached = 0;
        'deepen: for d in start..=depth {
            for &i in &open {
                let (m, bound) = (scored[i].mv.index(), scored[i].score);
                let score = if d == depth && bound < MATE_BOUND && scored[i].bound == Bound::Upper {
                    let (lo, hi) = (bound - 2 * ASPIRATION, bound + 1);
                    let score = searcher.search_root_move(m, d, lo, hi);
                    if score <= lo && searcher.stopped.is_none() {
                        searcher.search_root_move(m, d, -MATE - 1, hi)
                    } else {
                        score
                    }
                } else {
                    searcher.search_root_move(m, d, -MATE - 1, MATE + 1)
                };
                if searcher.stopped.is_some() {
                    break 'deepen;
                }
                let cand = &mut scored[i];
                cand.set_exact(score, searcher.line_from(cand.mv));
                cand.depth = d as u32;
            }
            reached = d;
        }
        if reached == 0 {
            return;
        }
        depth = reached;
    }
    // A bound above the `top`-th exact score is tested against it with a null window:
    // it fails low (a lower upper bound) or scores exactly and joins the best.
    rank_exact_first(scored);
    let mut k = 0;
    while searcher.stopped.is_none() && k < scored.len() {
        let kth = scored
            .iter()
            .filter(|c| c.bound == Bound::Exact && c.mate_in.is_none())
            .map(|c| c.score)
            .nth(settings.top.saturating_sub(1));
        let cand = &mut scored[k];
        k += 1;
        let Some(kth) = kth else { break };
        if cand.bound == Bound::Exact || cand.score <= kth {
            continue;
        }
        match test_against(searcher, cand.mv, depth, kth) {
            None => break,
            Some(Tested::Below(score)) => {
                cand.score = score;
                continue;
            }
            Some(Tested::Exact(score, line)) => cand.set_exact(score, line),
        }
        rank_exact_first(scored);
        k = 0;
    }
}

/// The report's order, which reads top to bottom: winning mates; then the exact scores,
/// deepest first and best first within a depth (a score from a shallower search is not
/// compared with a deeper one as if equal, so the first is the best of the deepest, the move
/// recommended); then the bounds, highest first (a move known only to be at most some value is
/// never ranked above an exact score); then the proved losses.
pub(super) fn rank_exact_first(c: &mut [Candidate]) {
    let group = |c: &Candidate| match c.bound {
        _ if c.mate_in.is_some_and(|n| n < 0) => 4,
        Bound::Exact if c.score > MATE_BOUND => 0,
        Bound::Exact if c.score >= -MATE_BOUND => 1,
        Bound::Exact => 2,
        _ => 3,
    };
    c.sort_by(|a, b| {
        group(a)
            .cmp(&group(b))
            .then(if group(a) == 1 {
                b.depth.cmp(&a.depth)
            } else {
                std::cmp::Ordering::Equal
            })
            .then(b.score.cmp(&a.score))
    });
}

/// The exact score of root move `m` at `depth`, searched in an aspiration window of
/// [`ASPIRATION`] either side of `guess` (the last iteration's score). A score outside the
/// window is only a bound: the window's failed side moves out past it by twice the last
/// half-width, as many times as the profile's `aspiration_widenings`, and then (or at once
/// for a mate) the window is the full one. Stopped by the limits, the last score is returned
/// as it is.
fn aspiration(searcher: &mut Searcher<'_>, m: usize, depth: i32, guess: i32) -> i32 {
    let most = searcher.profile().aspiration_widenings;
    let mut delta = ASPIRATION;
    let (mut lo, mut hi) = (guess - delta, guess + delta);
    for widenings in 0..=most {
        let s = searcher.search_root_move(m, depth, lo, hi);
        if (lo < s && s < hi) || searcher.stopped.is_some() {
            return s;
        }
        if s.abs() >= MATE_BOUND || widenings == most {
            break;
        }
        delta *= 2;
        if s <= lo {
            lo = s - delta;
        } else {
            hi = s + delta;
        }
    }
    searcher.search_root_move(m, depth, -MATE - 1, MATE + 1)
}

/// The reduction of the root move of rank `rank` (from 0, by the last iteration) at `depth`,
/// whose point value is `shape`, by the profile's root reductions: the table's, a ply more
/// with no shape, leaving at least 2 plies.
fn root_reduction(searcher: &Searcher<'_>, depth: i32, rank: usize, shape: i32) -> i32 {
    let Some((root, reductions)) = searcher
        .profile()
        .root_reductions
        .zip(searcher.profile().reductions)
    else {
        return 0;
    };
    if depth < root.depth || rank < root.from_rank || shape >= reductions.keep_from {
        return 0;
    }
    let r = searcher.lmr(depth, rank) + i32::from(shape < threshold::OPEN_TWO);
    r.clamp(0, depth - 2)
}

/// An analysis's order, which reads top to bottom: the winning mates (shortest first); the
/// exact scores, best first (the best `top` share one depth, see [`top_pass`]); the bounds,
/// highest first (each at most its value); a decisive score the verifier could not confirm
/// against the side to move; then the proved losses (longest first).
pub(crate) fn rank_report(c: &mut [Candidate]) {
    let group = |c: &Candidate| match c.mate_in {
        Some(n) if n > 0 => 0,
        Some(_) => 4,
        None if c.bound == Bound::Exact && c.score > MATE_BOUND => 0,
        None if c.score < -MATE_BOUND => 4,
        None if c.bound == Bound::Exact && c.score <= -UNPROVEN_DECISIVE => 3,
        None if c.bound == Bound::Exact => 1,
        None => 2,
    };
    let mate = |c: &Candidate| c.mate_in.map_or(0, |n| n.abs());
    c.sort_by(|a, b| {
        group(a).cmp(&group(b)).then(match group(a) {
            0 if a.mate_in.is_some() && b.mate_in.is_some() => mate(a).cmp(&mate(b)),
            4 if a.mate_in.is_some() && b.mate_in.is_some() => mate(b).cmp(&mate(a)),
            _ => b.score.cmp(&a.score),
        })
    });
}

/// The order of a game's candidates ([`rank_exact_first`]) or an analysis's
/// ([`rank_report`]).
pub(super) fn rank_for(game: bool, c: &mut [Candidate]) {
    if game {
        rank_exact_first(c);
    } else {
        rank_report(c);
    }
}

/// Best first: exact scores above bounds at the same value, then by score.
pub(super) fn rank(c: &mut [Candidate]) {
    c.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then((a.bound != Bound::Exact).cmp(&(b.bound != Bound::Exact)))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::tt::Table;
    use crate::board::Rule;

    /// A stepped aspiration search ends on the move's exact score whatever the guess: with
    /// the pruning off the search's value does not depend on its window, so each guess, far
    /// below, far above or near, must give the full window's score.
    #[test]
    fn a_widened_aspiration_window_ends_on_the_full_windows_score() {
        let settings = crate::analyze::search::tests::unpruned();
        let mut board = Board::new(9, Rule::Freestyle).unwrap();
        for (x, y) in [(4, 4), (5, 5), (3, 4), (4, 5), (5, 3), (3, 3)] {
            board.play(Point::new(x, y).unwrap());
        }
        let mut widened = 0;
        for (x, y) in [(2, 5), (6, 4), (5, 4), (2, 2)] {
            let m = Point::new(x, y).unwrap().index();
            let tt = Table::new(1 << 20).unwrap();
            let mut full = Searcher::new(&board, &settings, None, &tt, 1 << 16, None).unwrap();
            full.new_iteration();
            let exact = full.search_root_move(m, 3, -MATE - 1, MATE + 1);
            for guess in [exact - 700, exact - 90, exact, exact + 90, exact + 700] {
                let tt = Table::new(1 << 20).unwrap();
                let mut s = Searcher::new(&board, &settings, None, &tt, 1 << 16, None).unwrap();
                s.new_iteration();
                assert_eq!(
                    aspiration(&mut s, m, 3, guess),
                    exact,
                    "move {x},{y} guess {guess}"
                );
                widened += usize::from((guess - exact).abs() > ASPIRATION);
            }
        }
        assert_eq!(widened, 16);
    }

    /// A move still exact at a deeper iteration's depth when the pass stopped is tested at the
    /// table's level: afterwards every exact row shares the level (its score there is the full
    /// window's, or it is a bound below the table), and the stop still stands.
    #[test]
    fn a_row_left_at_a_deeper_depth_is_tested_at_the_tables_level() {
        let settings = crate::analyze::search::tests::unpruned();
        let mut board = Board::new(9, Rule::Freestyle).unwrap();
        for (x, y) in [(4, 4), (5, 5), (3, 4), (4, 5), (5, 3), (3, 3)] {
            board.play(Point::new(x, y).unwrap());
        }
        let tt = Table::new(1 << 20).unwrap();
        let mut s = Searcher::new(&board, &settings, None, &tt, 1 << 16, None).unwrap();
        s.new_iteration();
        let moves = [(2, 5), (6, 4), (5, 4), (2, 2)].map(|(x, y)| Point::new(x, y).unwrap());
        let level = 2;
        let mut scored: Vec<Candidate> = moves
            .iter()
            .map(|&mv| {
                let score = s.search_root_move(mv.index(), level, -MATE - 1, MATE + 1);
                Candidate {
                    mv,
                    score,
                    bound: Bound::Exact,
                    mate_in: None,
                    mate_minimal: false,
                    pv: vec![mv],
                    depth: level as u32,
                }
            })
            .collect();
        let truth: Vec<i32> = scored.iter().map(|c| c.score).collect();
        // The last move as a deeper iteration left it: exact at depth 4, far above the rest.
        let last = scored.len() - 1;
        (scored[last].score, scored[last].depth) = (truth.iter().max().unwrap() + 500, 4);
        s.stopped = Some(Stop::Time);
        settle_other_depths(&mut s, &mut scored, 3, level, (None, None));
        assert_eq!(s.stopped, Some(Stop::Time));
        let third = {
            let mut t = truth[..last].to_vec();
            t.sort_by(|a, b| b.cmp(a));
            t[2]
        };
        let row = scored.iter().find(|c| c.mv == moves[last]).unwrap();
        assert_eq!(row.depth, level as u32, "{row:?}");
        match row.bound {
            Bound::Exact => assert_eq!(row.score, truth[last], "{row:?}"),
            _ => assert!(
                truth[last] <= third && row.score <= third,
                "{row:?} {third}"
            ),
        }
        for pair in scored.windows(2) {
            assert!(
                pair[0].bound != Bound::Exact
                    || pair[1].bound != Bound::Exact
                    || pair[0].score >= pair[1].score
            );
        }
    }
}
