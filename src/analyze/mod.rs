//! The analyzer: which move is best, how good is each, and is there a forced win or loss.
//!
//! - [`learned`]: the static evaluation, tables of cell codes fitted to game results, followed
//!   through play and undo (the default, [`Settings::learned`]).
//! - [`eval`]: the hand-weighted evaluation from the board's running shape tally and
//!   combination counts, point values for move ordering and the weight map of `--depth 1`, and
//!   the win probability of a score.
//! - [`params`]: every tunable constant.
//! - [`moves`]: threat-aware candidates (a five to block, a winning threat to meet, else the
//!   points near the stones).
//! - [`search`]: negamax with PVS, a transposition table, killers, history, late-move
//!   reductions, and a VCF at the horizon.
//! - [`tt`]: the search's table.
//!
//! [`analyze`] runs iterative deepening over the root moves: the best `top` get exact scores
//! and principal variations, every other candidate at least an upper bound from the same
//! iteration. The VCT solver looks for a forced win of the side to move within a budget:
//! before the search on one thread, beside it on more, where the other threads search the
//! root in parallel over the shared table (Lazy SMP). Whether the opponent has a forced win
//! were the side to move to pass is asked before the search (beside the VCT on more threads);
//! when it has, the best moves are checked against it (see `Defence`): a move
//! after which the opponent's VCT is found and verified is a proved loss. **Every mate that is
//! reported has been verified** by the solvers' checks (a win's proof against every defence; a
//! loss as the opponent's verified win after the move); one that cannot be is reported as an
//! ordinary score.

pub mod eval;
pub mod learned;
pub mod moves;
pub mod params;
pub mod search;
pub mod tt;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

use eval::{MATE, MATE_BOUND, Weights};
use params::*;
use search::{Searcher, Stop};
pub use tt::Bound;
use tt::Table;

use crate::board::{Board, Color, Point};
use crate::pattern::{self, Foul};
use crate::solve::proof::Attack;
use crate::solve::task::{self, Mode, Task};
use crate::solve::tt::MemoryError;
use crate::solve::{Cancel, DEFAULT_THREAT_LIMIT, Limits, Outcome, verify};

/// How to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Most search nodes (alpha-beta and horizon VCF positions together).
    pub nodes: Option<u64>,
    /// Most time, checked during the search (verification of mates comes after it and has
    /// its own budget within this time).
    pub time: Option<Duration>,
    /// Candidates away from threats: points within this many steps of a stone (1 to 4).
    pub window: u8,
    /// How many moves get exact scores and principal variations.
    pub top: usize,
    /// Score every candidate exactly.
    pub all: bool,
    /// Memory for the search's tables, in megabytes (the root VCT and the verifier reuse it).
    pub hash_mb: usize,
    /// Evaluation weights (of the hand-weighted evaluation).
    pub weights: Weights,
    /// Evaluate with the tables fitted to games ([`learned`]) instead of `weights`.
    pub learned: bool,
    /// Ask the VCF solver at the horizon.
    pub leaf_vcf: bool,
    /// The VCT solver's node budget at the root when no time limit bounds it (0: no VCT).
    pub root_vct_nodes: u64,
    /// Node budget of each mate verification.
    pub verify_nodes: u64,
    /// Under a time limit, the share of it the root VCT may take.
    pub vct_share: f64,
    /// Narrow the candidates to the answers when the opponent has a winning threat.
    pub threats: bool,
    /// With `threats`, narrow them to the points that defuse every winning threat at once
    /// (see [`moves::Threats::Tight`]) instead of every point near one.
    pub tight_defence: bool,
    /// Late-move reductions.
    pub reductions: bool,
    /// Shape pruning near the horizon (see [`params::SHAPE_PRUNING_DEPTH`]).
    pub shape_pruning: bool,
    /// Late-move reductions from a table over depth and move number, adjusted by the move's
    /// shape and the principal line (see [`params::LMR_BASE`]), instead of one or two plies.
    pub lmr_table: bool,
    /// Late-move reductions at the root: a late root move with no shape worth keeping is
    /// first tested against the best at a reduced depth (see [`params::ROOT_LMR_FROM`]).
    pub root_reductions: bool,
    /// Futility pruning near the horizon (see [`params::FUTILITY_DEPTH`]).
    pub futility: bool,
    /// Null-move pruning (see [`params::NULL_MOVE_DEPTH`]).
    pub null_move: bool,
    /// The widest threat limit (see `solve --threat-limit`) of the checks against the
    /// opponent's threats: whether it has a forced win were the side to move to pass, and
    /// whether it has one after a candidate move. 2; at 4 the checks catch wins that need
    /// more, but cost more than they save (self-play, freestyle, 200 ms: 43.5% over 146
    /// games against 2).
    pub defence_threat_limit: u32,
    /// Check the best moves against the opponent's forced win were the side to move to pass
    /// (see `Defence`).
    pub threat_checks: bool,
    /// At `--depth 1`, score every candidate by its static point value, the classic weight
    /// map (what the move makes plus most of what it stops, [`eval::point_value`]), with no
    /// search. Without it, depth 1 is a one-ply search: the evaluation after each move, and
    /// the opponent's VCF at the horizon.
    pub weight_map: bool,
    /// Keep what an iteration cut short by the limits finished: its moves scored at its depth
    /// (the best move's exact score, a move that beat it, the bounds of the others tested).
    pub partial: bool,
    /// Search threads. With more than one, the root VCT runs on a thread of its own beside
    /// the search (and joins the search when done), and the others search the root in
    /// parallel over the shared table (Lazy SMP). One thread is deterministic.
    pub threads: usize,
    /// The root VCT's threat limit (`--threat-limit`, else a puzzle's `threat-limit:`): its
    /// searches start at this limit, then widen to 3 as time allows. None: 2, then 3.
    pub threat_limit: Option<u32>,
    /// Playing a game (the protocol front end): a move that is forced (the only candidate) or
    /// a forced win the root VCT has verified is answered at once, without the search.
    pub game: bool,
    /// Raised by another thread to stop the whole analysis at once (the protocol's `STOP`,
    /// or its clock): every search and solver stops at its next look at the clock, and the
    /// analysis reports what it has.
    pub cancel: Option<Cancel>,
}

impl Settings {
    /// How winning threats narrow the candidates (see [`Settings::threats`]).
    pub fn threat_moves(&self) -> moves::Threats {
        match (self.threats, self.tight_defence) {
            (false, _) => moves::Threats::Off,
            (true, false) => moves::Threats::Wide,
            (true, true) => moves::Threats::Tight,
        }
    }

    /// How winning threats narrow the root's candidates: as in the search, with tight
    /// defence's tempo defences too (see [`moves::Threats::TightWithTempo`]).
    pub fn root_threat_moves(&self) -> moves::Threats {
        match self.threat_moves() {
            moves::Threats::Tight => moves::Threats::TightWithTempo,
            other => other,
        }
    }

    /// Whether the root VCT runs on a thread of its own: with two threads or more, unless
    /// there is no VCT to run. [`Tables`] for such an analysis hold a solver for it.
    pub fn parallel_vct(&self) -> bool {
        self.threads >= 2 && self.depth != Some(1) && self.root_vct_nodes > 0
    }

    /// The textbook engine: a plain depth-`depth` alpha-beta over the 7x7 window, no threat
    /// solvers, no reductions, no narrowing but the block of a five. For strength tests.
    pub fn textbook(depth: u32) -> Settings {
        Settings {
            depth: Some(depth),
            window: 3,
            leaf_vcf: false,
            root_vct_nodes: 0,
            threats: false,
            reductions: false,
            shape_pruning: false,
            lmr_table: false,
            root_reductions: false,
            futility: false,
            null_move: false,
            ..Settings::default()
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            depth: None,
            nodes: None,
            time: None,
            window: 2,
            top: 5,
            all: false,
            hash_mb: 64,
            weights: Weights::default(),
            learned: true,
            leaf_vcf: true,
            root_vct_nodes: 200_000,
            verify_nodes: 2_000_000,
            vct_share: 0.3,
            threats: true,
            tight_defence: true,
            reductions: true,
            shape_pruning: true,
            lmr_table: true,
            root_reductions: true,
            futility: false,
            null_move: false,
            defence_threat_limit: 2,
            threat_checks: true,
            weight_map: true,
            partial: true,
            threads: 1,
            threat_limit: None,
            game: false,
            cancel: None,
        }
    }
}

/// Point values ([`eval::point_value`]) per evaluation point: an open three's 500 is 100,
/// the initiative it is worth on the evaluation's scale.
const POINT_SCALE: i32 = 5;

/// The time used when no limit is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// One scored move of the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Point,
    /// Its score for the side to move (see [`eval`] for the scale); with `mate_in`, a mate.
    pub score: i32,
    /// What the score is: exact, or an upper bound (the move is no better).
    pub bound: Bound,
    /// Moves of the winner up to its five (or the forced foul), positive when the side to
    /// move wins; only set once verified.
    pub mate_in: Option<i32>,
    /// The principal variation, starting with the move.
    pub pv: Vec<Point>,
    /// The iteration the score comes from.
    pub depth: u32,
}

impl Candidate {
    /// Records an exact score and its line.
    fn set_exact(&mut self, score: i32, pv: Vec<Point>) {
        self.score = score;
        self.bound = Bound::Exact;
        self.pv = pv;
    }
}

/// What the analysis found.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The side to move.
    pub to_move: Color,
    /// The deepest iteration completed.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Positions the search visited: the alpha-beta nodes plus the positions of the VCF
    /// searches at the horizon (as Rapfi counts its VCF quiescence nodes). `--nodes` limits
    /// this count.
    pub nodes: u64,
    /// How many of `nodes` were the horizon's VCF positions.
    pub vcf_nodes: u64,
    /// Time spent, verification included.
    pub elapsed: Duration,
    /// Time spent in the alpha-beta search alone (what nodes per second is measured over).
    pub search_time: Duration,
    /// Every candidate, best first.
    pub candidates: Vec<Candidate>,
    /// Black's forbidden points (renju, black to move): never candidates.
    pub forbidden: Vec<(Point, Foul)>,
    /// What stopped the search before its depth, if anything.
    pub stopped: Option<Stop>,
}

/// Progress of a running analysis, after each completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The iteration just completed.
    pub depth: u32,
    /// Search nodes so far (horizon VCF positions included, as in [`Analysis::nodes`]).
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The best move's score.
    pub score: i32,
    /// The best line.
    pub pv: Vec<Point>,
    /// The deepest ply reached so far.
    pub seldepth: u32,
}

/// What a running analysis tells its caller ([`analyze_with`]).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// An iteration completed.
    Iteration(&'a Progress),
    /// An iteration starts on a root move (the best move is searched first).
    Searching {
        /// The move.
        mv: Point,
        /// The iteration.
        depth: u32,
    },
    /// An iteration finished a root move.
    Searched {
        /// The move.
        mv: Point,
        /// The iteration.
        depth: u32,
        /// Its score (for a bound, the bound).
        score: i32,
        /// Whether it is now the iteration's best move.
        best: bool,
        /// Positions visited so far by every search thread (the live count).
        nodes: u64,
    },
}

/// The analysis's memory: the search's table and the threat solvers' tables, sized once from a
/// budget. One analysis makes its own ([`analyze`]); an engine keeps one from move to move
/// ([`analyze_with`]), so the search's table still holds the last move's work.
pub struct Tables {
    tt: Table,
    /// The horizon VCF solvers' share, split among the search threads.
    vcf_bytes: usize,
    /// The threat solvers (root VCT on one thread, the opponent's threats, verification).
    solver: task::Solver,
    /// The root VCT's own solver when it runs on a thread of its own.
    vct_solver: Option<task::Solver>,
    /// The budget, in megabytes, and whether the root VCT has its own solver.
    plan: (usize, bool),
}

impl Tables {
    /// Tables of `hash_mb` megabytes in all: a quarter for the threat solvers, the rest for
    /// the search. With `parallel_vct` (two threads or more: the root VCT on a thread of its
    /// own), its solver gets that quarter and the other solver an eighth: a df-pn table too
    /// small for the search costs nodes (`vct_black_long` at threat limit 2, unbounded: 1.19M
    /// nodes in 8 MB, 0.92M in 16 MB).
    pub fn new(hash_mb: usize, parallel_vct: bool) -> Result<Tables, MemoryError> {
        let solver_mb = (hash_mb / 4).max(1);
        let main_mb = if parallel_vct {
            (hash_mb / 8).max(1)
        } else {
            solver_mb
        };
        let vct_mb = if parallel_vct { solver_mb } else { 0 };
        let search_bytes = hash_mb.saturating_sub(main_mb + vct_mb).max(1) << 20;
        Ok(Tables {
            tt: Table::new(search_bytes / 8 * 7)?,
            vcf_bytes: search_bytes / 8,
            solver: task::Solver::new(main_mb)?,
            vct_solver: if parallel_vct {
                Some(task::Solver::new(vct_mb)?)
            } else {
                None
            },
            plan: (hash_mb, parallel_vct),
        })
    }

    /// The tables [`analyze`] makes for `settings`: `hash_mb`, or less under a time limit
    /// alone (see `hash_for_time`), with a solver for the root VCT's thread when there is one.
    pub fn for_settings(settings: &Settings) -> Result<Tables, MemoryError> {
        let settings = &effective(settings);
        Tables::new(hash_for_time(settings), settings.parallel_vct())
    }

    /// The budget in megabytes and whether the root VCT has a solver of its own.
    pub fn plan(&self) -> (usize, bool) {
        self.plan
    }

    /// The threat solver (the one that checks the opponent's threats and verifies mates), for
    /// other work between analyses on the same memory.
    pub fn solver(&mut self) -> &mut task::Solver {
        &mut self.solver
    }

    /// Forgets everything stored (new tables of the same size).
    pub fn clear(&mut self) -> Result<(), MemoryError> {
        let (hash_mb, parallel_vct) = self.plan;
        // The old tables go first, so the two never take the memory together.
        *self = Tables {
            tt: Table::new(0)?,
            vcf_bytes: 0,
            solver: task::Solver::new(0)?,
            vct_solver: None,
            plan: self.plan,
        };
        *self = Tables::new(hash_mb, parallel_vct)?;
        Ok(())
    }
}

/// The settings an analysis runs with: a second when nothing limits it, the window in range.
fn effective(settings: &Settings) -> Settings {
    Settings {
        time: settings
            .time
            .or((settings.depth.is_none() && settings.nodes.is_none()).then_some(DEFAULT_TIME)),
        window: settings.window.clamp(1, 4),
        ..settings.clone()
    }
}

/// Analyses the position for the side to move. `progress` hears of every completed iteration.
pub fn analyze(
    board: &Board,
    settings: &Settings,
    mut progress: impl FnMut(&Progress),
) -> Result<Analysis, MemoryError> {
    let tables = &mut Tables::for_settings(settings)?;
    analyze_with(board, settings, tables, |event| {
        if let Event::Iteration(p) = event {
            progress(p);
        }
    })
}

/// [`analyze`] on tables kept from earlier analyses (an engine's, from move to move), telling
/// `events` of every completed iteration and of each root move an iteration searches.
pub fn analyze_with(
    board: &Board,
    settings: &Settings,
    tables: &mut Tables,
    mut events: impl FnMut(Event<'_>),
) -> Result<Analysis, MemoryError> {
    let start = Instant::now();
    let settings = &effective(settings);
    let me = board.to_move();
    let mut scratch = board.clone();
    let forbidden: Vec<(Point, Foul)> = if me == Color::Black {
        pattern::fouls(board)
    } else {
        Vec::new()
    };
    let mut analysis = Analysis {
        to_move: me,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        vcf_nodes: 0,
        elapsed: Duration::ZERO,
        search_time: Duration::ZERO,
        candidates: Vec::new(),
        forbidden,
        stopped: None,
    };
    // The root's candidates; on an empty board, the centre.
    let mut roots = Vec::new();
    let area = moves::area(board, settings.window);
    let node = moves::generate(
        &mut scratch,
        &area,
        &mut roots,
        settings.root_threat_moves(),
    );
    match node {
        moves::Node::Win => {
            let five = board.five_points(me).first().unwrap_or(0);
            analysis.depth = 1;
            analysis.candidates.push(Candidate {
                mv: Point::from_index(five),
                score: MATE - 1,
                bound: Bound::Exact,
                mate_in: Some(1),
                pv: vec![Point::from_index(five)],
                depth: 1,
            });
            analysis.elapsed = start.elapsed();
            return Ok(analysis);
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
        analysis.elapsed = start.elapsed();
        return Ok(analysis);
    }
    // `--depth 1`: the classic weight map, every candidate at its static value.
    if settings.depth == Some(1) && settings.weight_map {
        analysis.depth = 1;
        analysis.seldepth = 1;
        analysis.nodes = roots.len() as u64;
        analysis.candidates = roots
            .iter()
            .map(|&(v, m)| {
                let mv = Point::from_index(m as usize);
                Candidate {
                    mv,
                    score: v / POINT_SCALE,
                    bound: Bound::Exact,
                    mate_in: None,
                    pv: vec![mv],
                    depth: 1,
                }
            })
            .collect();
        analysis.elapsed = start.elapsed();
        analysis.search_time = analysis.elapsed;
        return Ok(analysis);
    }
    // A forced move in a game is played at once.
    if settings.game && roots.len() == 1 {
        let mv = Point::from_index(roots[0].1 as usize);
        analysis.candidates.push(Candidate {
            mv,
            score: 0,
            bound: Bound::Upper,
            mate_in: None,
            pv: vec![mv],
            depth: 0,
        });
        analysis.elapsed = start.elapsed();
        return Ok(analysis);
    }
    let threads = settings.threads.max(1);
    // The root VCT runs on a thread of its own when the tables have a solver for it.
    let parallel_vct = settings.parallel_vct() && tables.vct_solver.is_some();
    // The time: the root VCT may take `vct_share` of it, the iterations run until 80% (and
    // start none after 55%), the pass that scores the best `top` exactly until 90%, and
    // verification of mates has the rest. A node limit is split likewise: 80% for the
    // iterations, the rest for the pass.
    let at = |f: f64| settings.time.map(|t| start + t.mul_f64(f));
    let (vct_deadline, iteration_deadline, search_deadline, verify_deadline) = (
        at(settings.vct_share.clamp(0.0, VCT_SHARE_CAP)),
        at(ITERATIONS_END),
        at(PASS_END),
        at(VERIFY_END),
    );
    // A VCT on a thread of its own may use the search's whole time and a little more (to
    // 94%, its verification to 97%): `vct_black_long` needed about 0.85 s of a one-second
    // analysis, and with the search's 90% it was found in 4 runs of 11 on a busy machine,
    // against 7 of 7 with 94% (now, with its solver's larger table and a faster board, it is
    // found and verified 0.59-0.67 s in). The analysis then ends a few tens of milliseconds
    // later when the VCT finds nothing.
    let vct_deadline = if parallel_vct {
        at(PARALLEL_VCT_END)
    } else {
        vct_deadline
    };
    let Tables {
        tt,
        vcf_bytes,
        solver,
        vct_solver,
        ..
    } = tables;
    let (tt, vcf_bytes) = (&*tt, *vcf_bytes / threads);
    let halt = AtomicBool::new(false);
    // Set by the VCT thread once it has a verified win: the side to move wins whatever the
    // opponent threatens, so the main thread checks no more moves against that threat (as on
    // one thread, where a win found first skips the threat check).
    let vct_won = AtomicBool::new(false);
    // The main thread stops, as the helpers do, when the VCT thread has a verified win in a
    // game (see `Settings::game`).
    let mut searcher = Searcher::new(
        board,
        settings,
        iteration_deadline,
        tt,
        vcf_bytes,
        Some(&halt),
    )?;
    searcher.set_limits(
        iteration_deadline,
        settings.nodes.map(|n| (n as f64 * ITERATIONS_END) as u64),
    );
    // Root moves: (move, score, bound, pv, depth).
    let mut scored: Vec<Candidate> = roots
        .iter()
        .map(|&(v, m)| Candidate {
            mv: Point::from_index(m as usize),
            score: v.min(MATE_BOUND - 1) / 100,
            bound: Bound::Upper,
            mate_in: None,
            pv: vec![Point::from_index(m as usize)],
            depth: 0,
        })
        .collect();
    // A forced win found by the threat solver, verified: before the search on one thread, on
    // a thread of its own beside it on more. Its solver and the verifier's share their memory.
    let vct_solver = vct_solver.as_mut().filter(|_| parallel_vct);
    let root_limits = ThreatLimits::root(settings.threat_limit);
    // `--depth 1` is the one-ply weight map: no threat search at the root.
    let mut vct_win = if settings.depth == Some(1) || parallel_vct {
        None
    } else {
        vct_verified(
            board,
            settings,
            settings.root_vct_nodes,
            solver,
            vct_deadline,
            verify_deadline,
            root_limits,
        )
    };
    // The opponent's threat: a forced win of its were the side to move to pass. Then the
    // search's best moves are checked, best first, until one leaves the opponent no forced
    // win that the solver finds (see `Defence`).
    // With the root VCT on a thread of its own, this check runs beside it (the thread starts
    // first), so the VCT has the whole time; on one thread it runs before the search. Either
    // way the other search threads start after it.
    let mut defence = Defence::default();
    let times = (start, verify_deadline);
    let check_threat = settings.threat_checks && settings.depth != Some(1) && vct_win.is_none();
    let helper_nodes = AtomicU64::new(0);
    let mut search_start = Instant::now();
    let halt = &halt;
    std::thread::scope(|scope| {
        let search_helper = |id: usize| {
            helper(
                board,
                settings,
                search_deadline,
                tt,
                vcf_bytes,
                halt,
                id,
                &helper_nodes,
            )
        };
        let vct_won = &vct_won;
        let vct_thread = vct_solver.map(|vct_solver| {
            scope.spawn(move || {
                let nodes = settings.root_vct_nodes;
                let win = vct_verified(
                    board,
                    settings,
                    nodes,
                    vct_solver,
                    vct_deadline,
                    verify_deadline,
                    root_limits,
                );
                if win.is_some() {
                    vct_won.store(true, Relaxed);
                    // In a game the win is played at once: the search stops.
                    if settings.game {
                        halt.store(true, Relaxed);
                    }
                }
                search_helper(1);
                win
            })
        });
        if check_threat {
            let deadline = settings.time.map(|t| {
                (Instant::now() + t.mul_f64(THREAT_SHARE)).min(start + t.mul_f64(THREAT_CHECK_END))
            });
            defence.threatened = find_vct(
                board,
                me.opponent(),
                settings.root_vct_nodes,
                solver,
                (deadline, settings.cancel),
                ThreatLimits::defence(settings.defence_threat_limit),
            )
            .is_some();
            search_start = Instant::now();
        }
        for id in 1 + usize::from(parallel_vct)..threads {
            scope.spawn(move || search_helper(id));
        }
        // Checks of the first `count` moves against the opponent's threat; none once the VCT
        // thread has a verified win. True when one was refuted.
        let mut check = |scored: &mut [Candidate], count: usize| {
            !vct_won.load(Relaxed) && defence.check(board, scored, settings, solver, times, count)
        };
        // In a game a verified win found before the search is played without one.
        let max_depth = if settings.game && vct_win.is_some() {
            0
        } else {
            settings.depth.unwrap_or(MAX_ITERATION).max(1)
        };
        let soft = settings.time.map(|t| t.mul_f64(NO_ITERATION_AFTER));
        // What each root move makes and stops (its ordering value before history).
        let shape_of = |m: usize| {
            roots
                .iter()
                .find(|&&(_, r)| r as usize == m)
                .map_or(0, |&(v, _)| v)
        };
        for depth in 1..=max_depth {
            searcher.new_iteration();
            let mut next = scored.clone();
            let exact_all = settings.all || depth == 1;
            let mut exact: Vec<i32> = Vec::new();
            let mut complete = true;
            let mut rank_now = 0;
            for cand in next.iter_mut() {
                // A move proved lost keeps its score.
                if cand.mate_in.is_some() {
                    continue;
                }
                let m = cand.mv.index();
                events(Event::Searching { mv: cand.mv, depth });
                // One exact score an iteration (the best move; `--all`: every move), every
                // other move a null-window test against it; the pass below scores the rest
                // of the best `top` exactly once the iterations are done.
                let kth = if exact_all {
                    None
                } else {
                    exact.iter().max().copied()
                };
                // A late quiet root move is first tested at a reduced depth; one that beats
                // the best there is tested again at the full depth.
                let reduction = match kth {
                    Some(_) if settings.root_reductions => {
                        root_reduction(depth as i32, rank_now, shape_of(m))
                    }
                    _ => 0,
                };
                rank_now += 1;
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
                    // An aspiration window around the last iteration's exact score, widened to
                    // the full window when the score falls outside it.
                    None if cand.bound == Bound::Exact && cand.score.abs() < MATE_BOUND => {
                        let (lo, hi) = (cand.score - ASPIRATION, cand.score + ASPIRATION);
                        let s = searcher.search_root_move(m, depth as i32, lo, hi);
                        if (s <= lo || s >= hi) && searcher.stopped.is_none() {
                            searcher.search_root_move(m, depth as i32, -MATE - 1, MATE + 1)
                        } else {
                            s
                        }
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
                    complete = false;
                    break;
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
                    nodes: searcher.nodes + searcher.vcf_nodes + helper_nodes.load(Relaxed),
                });
                if bound == Bound::Exact {
                    exact.push(score);
                    cand.pv = searcher.line_from(cand.mv);
                } else {
                    cand.pv = vec![cand.mv];
                }
            }
            if !complete {
                analysis.stopped = searcher.stopped;
                // The moves the cut iteration finished keep their deeper results (the best
                // of the deepest exact scores then leads; see `rank_exact_first`).
                if settings.partial {
                    for (old, new) in scored.iter_mut().zip(&next) {
                        if new.depth == depth {
                            *old = new.clone();
                        }
                    }
                }
                break;
            }
            rank(&mut next);
            scored = next;
            check(&mut scored, 1);
            analysis.depth = depth;
            events(Event::Iteration(&Progress {
                depth,
                nodes: searcher.nodes + searcher.vcf_nodes + helper_nodes.load(Relaxed),
                elapsed: start.elapsed(),
                score: scored[0].score,
                pv: scored[0].pv.clone(),
                seldepth: searcher.seldepth as u32,
            }));
            let decided = scored[0].score.abs() > MATE_BOUND
                && (MATE - scored[0].score.abs()) as u32 <= depth;
            let all_lost = scored.iter().all(|c| c.mate_in.is_some_and(|n| n < 0));
            if decided || all_lost || soft.is_some_and(|s| start.elapsed() >= s) {
                break;
            }
        }
        // The pass: after the best move, the `top - 1` with the highest bounds of the last
        // completed iteration get exact scores and lines at its depth (see `exact_pass`).
        // Under the opponent's threat, the best moves are checked for refutations first, and
        // again after each pass while it brings a move that loses to the top.
        searcher.set_limits(search_deadline, settings.nodes);
        let top = settings.top.max(1);
        rank_exact_first(&mut scored);
        check(&mut scored, top);
        if !settings.all && analysis.depth >= 2 {
            let depth = analysis.depth as i32;
            exact_pass(&mut searcher, &mut scored, settings, depth);
            while check(&mut scored, top) {
                exact_pass(&mut searcher, &mut scored, settings, depth);
            }
        }
        rank_exact_first(&mut scored);
        // Helper threads stop with the main one.
        halt.store(true, Relaxed);
        if let Some(handle) = vct_thread {
            vct_win = handle.join().unwrap_or(None);
        }
    });
    analysis.nodes = searcher.nodes + searcher.vcf_nodes + helper_nodes.load(Relaxed);
    // The checks against the opponent's threat ran the VCT solver in between; their positions
    // are not counted in `nodes`, so neither is their time.
    analysis.search_time = search_start.elapsed().saturating_sub(defence.spent);
    analysis.vcf_nodes = searcher.vcf_nodes;
    analysis.seldepth = searcher.seldepth as u32;
    drop(searcher);
    // Mates: verified, else reported as plain scores. An upper bound at a winning mate says
    // nothing of a win (the move is no better than the mate it was tested against), so it is
    // not verified; one at a losing mate says the move loses, and is.
    for cand in scored.iter_mut() {
        if cand.score.abs() > MATE_BOUND && cand.mate_in.is_none() {
            let plies = MATE - cand.score.abs();
            let moves = (plies + 1) / 2;
            let signed = if cand.score > 0 { moves } else { -moves };
            let in_time = verify_deadline.is_none_or(|d| Instant::now() < d);
            let claims = cand.bound == Bound::Exact || signed < 0;
            if in_time
                && claims
                && verify_mate(board, cand.mv, signed, settings, solver, verify_deadline)
            {
                cand.mate_in = Some(signed);
            } else {
                cand.score = cand.score.signum() * UNPROVEN_DECISIVE;
            }
        }
    }
    // The root VCT's verified win; its first move can be a quiet threat that the search's
    // candidates left out (facing a three, they are the defences and the fours), and then
    // it joins them.
    if let Some((line, mate_in)) = vct_win {
        let mv = line[0];
        let depth = analysis.depth;
        let won = Candidate {
            mv,
            score: MATE - (2 * mate_in - 1),
            bound: Bound::Exact,
            mate_in: Some(mate_in),
            pv: line,
            depth,
        };
        match scored.iter_mut().find(|c| c.mv == mv) {
            Some(c) if c.mate_in.is_none_or(|n| n > mate_in) => *c = won,
            Some(_) => {}
            None => scored.push(won),
        }
    }
    rank_exact_first(&mut scored);
    analysis.candidates = scored;
    analysis.elapsed = start.elapsed();
    Ok(analysis)
}

/// The memory the analysis uses, in megabytes: `hash_mb`, except under a time limit alone,
/// where it is no more than the positions the time allows can fill (32 bytes each, at
/// least 4 MB). A table's pages cost the kernel a fault and a zeroed page each the first
/// time they are touched: a 64 MB table took a fifth of a one-second analysis in faults,
/// and more of a short one, though a 200 ms search fills less than a tenth of it. At a fixed
/// depth or node count the size stays `hash_mb`, so results do not depend on the time.
fn hash_for_time(settings: &Settings) -> usize {
    match settings.time {
        Some(t) if settings.depth.is_none() && settings.nodes.is_none() => {
            let positions = t.as_secs_f64() * SIZING_NPS * settings.threads.max(1) as f64;
            let mb = (positions * 32.0 / (1 << 20) as f64).ceil() as usize;
            settings.hash_mb.min(mb.max(4))
        }
        _ => settings.hash_mb,
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
fn exact_pass(
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
        let m = cand.mv.index();
        let score = searcher.search_root_move(m, depth, kth, kth + 1);
        if searcher.stopped.is_some() {
            break;
        }
        if score <= kth {
            cand.score = score;
            continue;
        }
        let score = searcher.search_root_move(m, depth, -MATE - 1, MATE + 1);
        if searcher.stopped.is_some() {
            break;
        }
        cand.set_exact(score, searcher.line_from(cand.mv));
        rank_exact_first(scored);
        k = 0;
    }
}

/// A helper thread of the parallel search: it searches the root to ever greater depths, odd
/// helpers one ply deeper than even ones, filling the shared table, until `halt`; then adds
/// its nodes to `nodes`.
#[allow(clippy::too_many_arguments)]
fn helper(
    board: &Board,
    settings: &Settings,
    deadline: Option<Instant>,
    tt: &Table,
    vcf_bytes: usize,
    halt: &AtomicBool,
    id: usize,
    nodes: &AtomicU64,
) {
    let Ok(mut searcher) = Searcher::new(board, settings, deadline, tt, vcf_bytes, Some(halt))
    else {
        return;
    };
    let max_depth = settings.depth.unwrap_or(MAX_ITERATION).max(1) as i32;
    let mut depth = 1 + (id % 2) as i32;
    while searcher.stopped.is_none() && !halt.load(Relaxed) && depth <= max_depth + 1 {
        searcher.search_root(depth);
        depth += 1;
    }
    nodes.fetch_add(searcher.nodes + searcher.vcf_nodes, Relaxed);
}

/// The report's order, which reads top to bottom: winning mates; then the exact scores,
/// deepest first and best first within a depth (a score from a shallower search is not
/// compared with a deeper one as if equal, so the first is the best of the deepest, the move
/// recommended); then the bounds, highest first (a move known only to be at most some value is
/// never ranked above an exact score); then the proved losses.
fn rank_exact_first(c: &mut [Candidate]) {
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

/// Defence against the opponent's threats beyond the search's horizon. When the opponent
/// has a forced win were the side to move to pass, the best root move is checked after each
/// iteration and after the pass: if the VCT solver finds a forced win for the opponent after
/// it and the verifier confirms it, the move is proved lost (a verified mate against the side
/// to move, never searched again) and the next best is checked, until one holds.
#[derive(Default)]
struct Defence {
    /// The opponent has a forced win were the side to move to pass.
    threatened: bool,
    /// Root moves already checked.
    checked: Vec<Point>,
    /// Time the checks took so far.
    spent: Duration,
}

impl Defence {
    /// Checks the first `count` candidates (in their order, the ones proved lost moving to
    /// the end), at most [`MAX_REFUTATION_CHECKS`] moves in all; true when one was refuted.
    /// Each check may take `THREAT_SHARE` of a time limit, all of them `DEFENCE_SHARE`, and
    /// each must end by 90% of it (`times`: the analysis's start and the verifier's deadline);
    /// without a time limit, each gets a quarter of the root VCT's node budget.
    fn check(
        &mut self,
        board: &Board,
        scored: &mut [Candidate],
        settings: &Settings,
        solver: &mut task::Solver,
        (start, verify_by): (Instant, Option<Instant>),
        count: usize,
    ) -> bool {
        let mut refuted = false;
        if !self.threatened {
            return refuted;
        }
        let mut k = 0;
        while k < count.min(scored.len()) && self.checked.len() < MAX_REFUTATION_CHECKS {
            let cand = &mut scored[k];
            if cand.mate_in.is_some() || self.checked.contains(&cand.mv) {
                k += 1;
                continue;
            }
            self.checked.push(cand.mv);
            let now = Instant::now();
            let deadline = settings.time.map(|t| {
                let left = t.mul_f64(DEFENCE_SHARE).saturating_sub(self.spent);
                (now + t.mul_f64(THREAT_SHARE).min(left)).min(start + t.mul_f64(DEFENCE_END))
            });
            if deadline.is_some_and(|d| now >= d) {
                break;
            }
            let nodes = settings.root_vct_nodes / 4;
            let refuted_by =
                refutation(board, cand.mv, settings, solver, nodes, deadline, verify_by);
            self.spent += now.elapsed();
            match refuted_by {
                // It holds, or the solver could not tell.
                None => k += 1,
                Some((line, moves)) => {
                    let pv = std::iter::once(cand.mv).chain(line).collect();
                    cand.set_exact(-(MATE - 2 * moves), pv);
                    cand.mate_in = Some(-moves);
                    refuted = true;
                    // The next candidate takes this one's place.
                    rank_exact_first(scored);
                }
            }
        }
        refuted
    }
}

/// The reduction of the root move of rank `rank` (from 0, by the last iteration) at `depth`,
/// whose point value is `shape` (see [`params::ROOT_LMR_FROM`]).
fn root_reduction(depth: i32, rank: usize, shape: i32) -> i32 {
    if depth < ROOT_LMR_DEPTH || rank < ROOT_LMR_FROM || shape >= LMR_KEEP_FROM {
        return 0;
    }
    let r = search::lmr(depth, rank) + i32::from(shape < NO_SHAPE_BELOW);
    r.clamp(0, depth - 2)
}

/// Deepest iteration without a depth limit.
const MAX_ITERATION: u32 = 60;
/// A mate the search found but the verifier could not confirm: decisive, but not a mate.
const UNPROVEN_DECISIVE: i32 = 9_000;

/// Best first: exact scores above bounds at the same value, then by score.
fn rank(c: &mut [Candidate]) {
    c.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then((a.bound != Bound::Exact).cmp(&(b.bound != Bound::Exact)))
    });
}

/// The VCT solver's forced win for the side to move, verified: its main line and the
/// winner's moves to the five. With a time limit the search stops at `deadline` and the check
/// at `verify_by`; without one, `nodes` bounds the search and `verify_nodes` the check.
fn vct_verified(
    board: &Board,
    settings: &Settings,
    nodes: u64,
    solver: &mut task::Solver,
    deadline: Option<Instant>,
    verify_by: Option<Instant>,
    threat_limits: ThreatLimits,
) -> Option<(Vec<Point>, i32)> {
    let (proof, depth, threat_limit) = find_vct(
        board,
        board.to_move(),
        nodes,
        solver,
        (deadline, settings.cancel),
        threat_limits,
    )?;
    let limits = Limits {
        depth,
        nodes: settings.verify_nodes,
        deadline: verify_by,
        threat_limit,
        cancel: settings.cancel,
        ..Limits::default()
    };
    verify::proof_with(solver.vct(), board, board.to_move(), &proof, limits).ok()?;
    Some((proof.main_line(), proof.moves_to_five() as i32))
}

/// The threat limits a root VCT searches at: `first`, then each wider one up to `widest`.
#[derive(Clone, Copy, Debug)]
struct ThreatLimits {
    first: u32,
    widest: u32,
    /// The unbounded searches start with the solver's quick pass too, on part of the budget
    /// (see [`DEFENCE_QUICK_SHARE`]).
    quick_unbounded: bool,
}

impl ThreatLimits {
    /// The root VCT's: from the given first limit, else the default, up to
    /// [`ROOT_THREAT_LIMIT`] (or the first limit if wider).
    fn root(first: Option<u32>) -> ThreatLimits {
        match first {
            Some(first) => ThreatLimits {
                first,
                widest: first.max(ROOT_THREAT_LIMIT),
                quick_unbounded: false,
            },
            None => ThreatLimits::up_to(ROOT_THREAT_LIMIT),
        }
    }

    /// The default limit first (or `widest` if narrower), then wider ones up to `widest`.
    fn up_to(widest: u32) -> ThreatLimits {
        ThreatLimits {
            first: DEFAULT_THREAT_LIMIT.min(widest),
            widest,
            quick_unbounded: false,
        }
    }

    /// The checks against the opponent's threats: as [`ThreatLimits::up_to`], with the quick
    /// pass before every unbounded search.
    fn defence(widest: u32) -> ThreatLimits {
        ThreatLimits {
            quick_unbounded: true,
            ..ThreatLimits::up_to(widest)
        }
    }
}

/// A forced win of `attacker` (who moves first, whatever the board's side to move) by the VCT
/// solver, short wins first, not yet verified: its proof, the bound on attacker moves and the
/// threat limit it was found within. With a time limit the search stops at `deadline`; without
/// one, `nodes` bounds it (0: no search).
fn find_vct(
    board: &Board,
    attacker: Color,
    nodes: u64,
    solver: &mut task::Solver,
    (deadline, cancel): (Option<Instant>, Option<Cancel>),
    threat_limits: ThreatLimits,
) -> Option<(Attack, u32, u32)> {
    let ThreatLimits {
        first,
        widest,
        quick_unbounded,
    } = threat_limits;
    if nodes == 0 {
        return None;
    }
    let mut t = Task::new(Mode::Vct, attacker);
    t.limits.cancel = cancel;
    // Under a time limit the clock bounds it; else the node budget (deterministic).
    t.limits.nodes = if deadline.is_some() { u64::MAX } else { nodes };
    t.verify = false;
    // Short wins first: a tight bound finds a quick win far sooner than no bound, and its
    // no-win is cheap; past that, no bound (see `ROOT_VCT_DEPTHS`), all at the first threat
    // limit. Then, once no win is proved there, each wider limit up to the widest without a
    // bound.
    let stages = ROOT_VCT_DEPTHS
        .into_iter()
        .map(|depth| (depth, first))
        .chain((first + 1..=widest).map(|tl| (crate::solve::NO_LIMIT, tl)));
    for (depth, tl) in stages {
        t.limits.depth = depth;
        t.limits.threat_limit = tl;
        // The quick-style pass only under a bound: the unbounded searches are the long ones,
        // which the deep style alone finds sooner (see `vct::search::Style`).
        let quick = crate::solve::vct::search::QUICK_NODES;
        t.limits.quick_nodes = if depth != crate::solve::NO_LIMIT {
            quick
        } else if quick_unbounded {
            quick.min((t.limits.nodes as f64 * DEFENCE_QUICK_SHARE) as u64)
        } else {
            0
        };
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|left| left.is_zero()) {
            return None;
        }
        // Under a long time limit the unbounded search at the first threat limit leaves the
        // wider limits a share: it may take `FIRST_LIMIT_FLOOR`, or half the time left if
        // that is more.
        let capped = widest > first && tl == first && depth == crate::solve::NO_LIMIT;
        t.time = left.map(|left| {
            if capped {
                left.min(FIRST_LIMIT_FLOOR.max(left / 2))
            } else {
                left
            }
        });
        let verdict = solver.run(board, &t).ok()?;
        t.limits.nodes = t.limits.nodes.saturating_sub(verdict.nodes);
        match verdict.outcome {
            Outcome::Win => return verdict.proof.map(|p| (p, depth, tl)),
            // Its share spent, not the whole time: on to the wider limit.
            Outcome::Unknown if capped && deadline.is_some_and(|d| Instant::now() < d) => {}
            Outcome::Unknown => return None,
            Outcome::NoWin => {}
        }
    }
    None
}

/// Whether root move `mv` loses to a forced win of the opponent that the VCT solver finds
/// (within `deadline`, else `nodes`) and the verifier confirms by `verify_by`: then the
/// opponent's line after the move and its moves to the five.
fn refutation(
    board: &Board,
    mv: Point,
    settings: &Settings,
    solver: &mut task::Solver,
    nodes: u64,
    deadline: Option<Instant>,
    verify_by: Option<Instant>,
) -> Option<(Vec<Point>, i32)> {
    let mut after = board.clone();
    after.play(mv);
    let limits = ThreatLimits::defence(settings.defence_threat_limit);
    vct_verified(&after, settings, nodes, solver, deadline, verify_by, limits)
}

/// Whether the search's mate for root move `mv` holds: a win (`mate_in > 0`) is checked as a
/// one-move proof, every legal reply shown to lose by a verified search; a loss as the
/// opponent's verified win after the move.
fn verify_mate(
    board: &Board,
    mv: Point,
    mate_in: i32,
    settings: &Settings,
    solver: &mut task::Solver,
    deadline: Option<Instant>,
) -> bool {
    let me = board.to_move();
    if mate_in > 0 {
        let mut after = board.clone();
        if after.five_points(me).contains(mv.index()) {
            return true;
        }
        let limits = Limits {
            depth: mate_in as u32,
            count_five: true,
            nodes: settings.verify_nodes,
            threat_limit: 3,
            deadline,
            cancel: settings.cancel,
            ..Limits::default()
        };
        let tree = Attack {
            mv,
            ending: None,
            defences: Vec::new(),
        };
        after.set_to_move(me);
        verify::proof_with(solver.vct(), &after, me, &tree, limits).is_ok()
    } else {
        let mut after = board.clone();
        after.play(mv);
        let mut t = Task::new(Mode::WinIn, me.opponent());
        t.limits.depth = (-mate_in) as u32;
        t.limits.nodes = settings.verify_nodes;
        t.limits.threat_limit = 3;
        t.limits.cancel = settings.cancel;
        t.time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        t.verify = false;
        let Ok(v) = solver.run(&after, &t) else {
            return false;
        };
        let limits = Limits {
            deadline,
            ..t.limits
        };
        v.outcome == Outcome::Win
            && v.proof.as_ref().is_some_and(|p| {
                verify::proof_with(solver.vct(), &after, me.opponent(), p, limits).is_ok()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    #[test]
    fn the_root_vct_starts_at_its_first_threat_limit_and_widens() {
        // Black's double three at h8 (freestyle): a win at threat limit 1 (and others at 2),
        // found by the first stage that bounds it (3 attacker moves) at whichever limit
        // comes first.
        let mut board = Board::new(15, Rule::Freestyle).unwrap();
        for (points, color) in [
            ("f8 g8 h7 h6", Color::Black),
            ("a15 o15 a1 o1", Color::White),
        ] {
            for p in points.split(' ') {
                board.put(p.parse().unwrap(), color);
            }
        }
        board.set_to_move(Color::Black);
        let mut solver = task::Solver::new(4).unwrap();
        // The threat limit each search found its win within.
        let mut found = |first, widest| {
            let limits = ThreatLimits {
                first,
                widest,
                quick_unbounded: false,
            };
            find_vct(
                &board,
                Color::Black,
                200_000,
                &mut solver,
                (None, None),
                limits,
            )
            .map(|(_, _, tl)| tl)
        };
        assert_eq!(found(2, 3), Some(2));
        assert_eq!(found(1, 3), Some(1));
        // Fours alone (threat limit 0) do not win; the wider limits that follow do.
        assert_eq!(found(0, 0), None);
        assert_eq!(found(0, 3), Some(1));
        let up_to = ThreatLimits::up_to(3);
        assert_eq!((up_to.first, up_to.widest), (2, 3));
        let narrow = ThreatLimits::up_to(1);
        assert_eq!((narrow.first, narrow.widest), (1, 1));
        for (given, plan) in [
            (None, (2, 3)),
            (Some(1), (1, 3)),
            (Some(3), (3, 3)),
            (Some(5), (5, 5)),
        ] {
            let root = ThreatLimits::root(given);
            assert_eq!((root.first, root.widest), plan, "{given:?}");
        }
    }
}
