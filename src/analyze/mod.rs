//! The analyzer: which move is best, how good is each, and is there a forced win or loss.
//!
//! - [`learned`]: the static evaluation, tables of cell codes fitted to game results, followed
//!   through play and undo.
//! - [`eval`]: the hand-weighted evaluation from the board's running shape tally and
//!   combination counts (the baseline the fits are measured against), point values for move
//!   ordering and the weight map of `--depth 1`, and the win probability of a score.
//! - [`profile`]: the search's pieces and constants, one profile a rule.
//! - [`params`]: the analysis's time plan and the constants every rule shares.
//! - `settings`: what a caller chooses ([`Settings`]).
//! - [`moves`]: threat-aware candidates (a five to block, a winning threat to meet, else the
//!   points near the stones).
//! - [`search`]: negamax with PVS, a transposition table, killers, history, late-move
//!   reductions, and a VCF at the horizon.
//! - [`tt`]: the search's table.
//! - `budget`: the memory ([`Tables`]) and when each stage of an analysis must end.
//! - `root`: the root's candidates, the iterations over them, the exact pass, the report's
//!   order.
//! - `threats`: the root VCT, the checks against the opponent's threats, mate verification.
//! - `helpers`: the parallel search's helper threads.
//! - `picker`: the search's move picker (table move, killers, threats and good quiets, the
//!   rest).
//!
//! [`analyze`] runs iterative deepening over the root moves: the best `top` get exact scores
//! and principal variations, every other candidate at least an upper bound from the same
//! iteration. The VCT solver looks for a forced win of the side to move within a budget:
//! before the search on one thread, beside it on more, where the other threads search the
//! root in parallel over the shared table (Lazy SMP). Whether the opponent has a forced win
//! were the side to move to pass is asked before the search (beside the VCT on more threads);
//! when it has, the best moves are checked against it (see `ThreatChecks`): a move
//! after which the opponent's VCT is found and verified is a proved loss. **Every mate that is
//! reported has been verified** by the solvers' checks (a win's proof against every defence; a
//! loss as the opponent's verified win after the move); one that cannot be is reported as an
//! ordinary score.
//!
//! ```
//! use tengen::analyze::{self, Settings};
//!
//! // Black has three in a row with both ends open, white has scattered stones.
//! let request = tengen::files::input::Request {
//!     source: "h8 a1 h9 a3 h10 o15".into(),
//!     ..Default::default()
//! };
//! let board = request.load()?.board;
//! // A fixed depth on one thread: the same answer every run.
//! let settings = Settings { depth: Some(3), top: 3, ..Settings::default() };
//! let analysis = analyze::analyze(&board, &settings, |_| {})?;
//! let best = &analysis.candidates[0];
//! // An open four at either end wins, and the mate is verified before it is reported.
//! assert!(["h7", "h11"].contains(&best.mv.to_string().as_str()));
//! assert!(best.mate_in.is_some_and(|n| n > 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod budget;
pub mod eval;
mod helpers;
pub mod learn;
pub mod learned;
pub(crate) mod moves;
pub mod params;
mod picker;
pub mod profile;
pub mod review;
mod root;
pub(crate) mod search;
mod settings;
mod threats;
pub(crate) mod tt;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

pub use budget::Tables;
use budget::{Budget, effective};
use eval::MATE;
pub use moves::Threats;
use params::*;
pub use profile::Profile;
use root::{Root, Start};
use search::Searcher;
pub use search::Stop;
pub use settings::Settings;
use threats::{ThreatChecks, ThreatLimits};
pub use tt::Bound;

use crate::board::{Board, Color, Point};
use crate::pattern::{self, Foul};
use crate::solve::task::{self, Mode, Task};
use crate::solve::tt::MemoryError;
use crate::solve::{DEFAULT_THREAT_LIMIT, Outcome};

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
    /// move wins; only set once verified: the shortest win tengen has proved.
    pub mate_in: Option<i32>,
    /// With `mate_in`: a search for a win one move shorter found none (see
    /// [`shorten_mates`]), so `mate_in` is the shortest within the threat search's reach;
    /// when false the winner wins in at most `mate_in` moves.
    pub mate_minimal: bool,
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
    /// The positions sampled from the main search's static values, as moves from the empty
    /// board (see [`Settings::sample_leaves`]).
    pub leaves: Vec<Vec<Point>>,
}

impl Analysis {
    /// The analysis of `board` before anything is searched: nothing found yet, black's
    /// forbidden points listed when black is to move.
    pub fn empty(board: &Board) -> Analysis {
        let to_move = board.to_move();
        Analysis {
            to_move,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            vcf_nodes: 0,
            elapsed: Duration::ZERO,
            search_time: Duration::ZERO,
            candidates: Vec::new(),
            forbidden: if to_move == Color::Black {
                pattern::fouls(board)
            } else {
                Vec::new()
            },
            stopped: None,
            leaves: Vec::new(),
        }
    }
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

/// Whether `mv` starts a forced win for the side to move that the verifier proves (threat
/// limit 3, the winner's moves to its five at most `max_moves`, `settings.verify_nodes`
/// positions): the same verifier that checks every mate an analysis prints. `false` when the
/// move does not win or the proof was not found within the budget.
pub fn proves_win(
    board: &Board,
    mv: Point,
    max_moves: u32,
    settings: &Settings,
    tables: &mut Tables,
) -> bool {
    threats::verify_mate(
        board,
        mv,
        max_moves.max(1) as i32,
        settings,
        &mut tables.solver,
        None,
    )
}

/// Analyses the position for the side to move. `progress` hears of every completed iteration.
/// See the [module's example](crate::analyze).
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
///
/// Its phases: the answers that need no search; the root VCT (before the search on one
/// thread, beside it on more); the check of the opponent's threat; the iterations and the
/// pass, with helper threads on more than one; then the verification of the mates found and
/// the report's order.
pub fn analyze_with(
    board: &Board,
    settings: &Settings,
    tables: &mut Tables,
    events: impl FnMut(Event<'_>),
) -> Result<Analysis, MemoryError> {
    let start = Instant::now();
    let settings = &effective(settings);
    let mut analysis = Analysis::empty(board);
    let Some(roots) = without_search(root::start(board, settings), settings, &mut analysis) else {
        analysis.elapsed = start.elapsed();
        // The weight map's points count as its nodes, its time as their search's.
        if analysis.nodes > 0 {
            analysis.search_time = analysis.elapsed;
        }
        return Ok(analysis);
    };
    // The root VCT runs on a thread of its own when the tables have a solver for it.
    let parallel_vct = settings.parallel_vct() && tables.vct_solver.is_some();
    let budget = Budget::new(settings, board.rule(), start, parallel_vct);
    let Tables {
        tt,
        vcf_bytes,
        solver,
        vct_solver,
        ..
    } = tables;
    let run = Run {
        board,
        settings,
        budget: &budget,
        tt,
        vcf_bytes: *vcf_bytes / settings.threads.max(1),
        halt: AtomicBool::new(false),
        vct_won: AtomicBool::new(false),
        helper_nodes: AtomicU64::new(0),
    };
    let vct_solver = vct_solver.as_mut().filter(|_| parallel_vct);
    let (mut scored, vct_win) = run.search(&roots, solver, vct_solver, &mut analysis, events)?;
    threats::verify_mates(board, &mut scored, settings, solver, &budget);
    if let Some(win) = vct_win {
        threats::join_root_win(&mut scored, win, analysis.depth);
    }
    root::rank_for(settings.game, &mut scored);
    if !settings.game {
        shorten_mates(board, &mut scored, settings, solver, &budget);
        root::rank_report(&mut scored);
    }
    analysis.candidates = scored;
    analysis.elapsed = start.elapsed();
    Ok(analysis)
}

/// One analysis's search, shared by its threads.
struct Run<'a> {
    board: &'a Board,
    settings: &'a Settings,
    budget: &'a Budget,
    tt: &'a tt::Table,
    /// Each thread's horizon VCF memory.
    vcf_bytes: usize,
    /// Set when the helper threads are to stop (with the main one, or by a win in a game).
    halt: AtomicBool,
    /// Set by the VCT thread once it has a verified win: the side to move wins whatever the
    /// opponent threatens, so the main thread checks no more moves against that threat (as on
    /// one thread, where a win found first skips the threat check).
    vct_won: AtomicBool,
    /// The helper threads' nodes, added as each ends.
    helper_nodes: AtomicU64,
}

impl Run<'_> {
    /// The root VCT, the threat check and the iterations over `roots`, into `analysis`: the
    /// scored candidates and the root VCT's verified win.
    fn search(
        &self,
        roots: &[(i32, u16)],
        solver: &mut task::Solver,
        vct_solver: Option<&mut task::Solver>,
        analysis: &mut Analysis,
        mut events: impl FnMut(Event<'_>),
    ) -> Result<(Vec<Candidate>, Option<threats::RootWin>), MemoryError> {
        let (board, settings, budget) = (self.board, self.settings, self.budget);
        let searcher = Searcher::new(
            board,
            settings,
            budget.iterations,
            self.tt,
            self.vcf_bytes,
            Some(&self.halt),
        )?;
        let mut root = Root::new(searcher, roots, settings, &self.helper_nodes);
        root.searcher
            .set_limits(budget.iterations, budget.iteration_nodes());
        // `--depth 1` is a one-ply search: no threat search at the root.
        let one_ply = settings.depth == Some(1);
        let mut vct_win = if one_ply || vct_solver.is_some() {
            None
        } else {
            self.root_vct(solver)
        };
        // The opponent's threat: a forced win of its were the side to move to pass. Then the
        // search's best moves are checked, best first, until one leaves the opponent no forced
        // win that the solver finds (see `ThreatChecks`).
        let mut defence = ThreatChecks::default();
        let check_threat = !one_ply && vct_win.is_none();
        let mut search_start = Instant::now();
        std::thread::scope(|scope| {
            let vct_thread =
                vct_solver.map(|vct_solver| scope.spawn(|| self.vct_thread(vct_solver)));
            // Beside the VCT thread (started first, so that it has the whole time), or before
            // the search on one thread; the other search threads start after it.
            if check_threat {
                defence.threatened = self.opponent_threatens(solver);
                search_start = Instant::now();
            }
            for id in 1 + usize::from(vct_thread.is_some())..settings.threads.max(1) {
                scope.spawn(move || self.helper(id));
            }
            let mut check = |scored: &mut [Candidate], count: usize| {
                !self.vct_won.load(Relaxed)
                    && defence.check(board, scored, settings, solver, budget, count)
            };
            // In a game a verified win found before the search is played without one.
            let max_depth = if settings.game && vct_win.is_some() {
                0
            } else {
                settings.depth.unwrap_or(MAX_ITERATION).max(1)
            };
            root.iterate(max_depth, budget, analysis, &mut events, &mut check);
            root.finish(analysis.depth, budget, &mut check);
            // Helper threads stop with the main one.
            self.halt.store(true, Relaxed);
            if let Some(handle) = vct_thread {
                vct_win = handle.join().unwrap_or(None);
            }
        });
        analysis.nodes = root.nodes();
        // The checks against the opponent's threat ran the VCT solver in between; their
        // positions are not counted in `nodes`, so neither is their time.
        analysis.search_time = search_start.elapsed().saturating_sub(defence.spent);
        analysis.vcf_nodes = root.searcher.vcf_nodes;
        analysis.seldepth = root.searcher.seldepth as u32;
        analysis.leaves = root.searcher.take_leaves();
        Ok((root.scored, vct_win))
    }

    /// The root VCT's verified win of the side to move, on `solver` (its solver and the
    /// verifier's share their memory).
    fn root_vct(&self, solver: &mut task::Solver) -> Option<threats::RootWin> {
        threats::vct_verified(
            self.board,
            self.settings,
            self.settings.threat_nodes(self.settings.root_vct_nodes),
            solver,
            self.budget.vct,
            self.budget.verify,
            ThreatLimits::root(self.settings.threat_limit),
        )
    }

    /// The VCT thread: the root VCT, then a helper's search once it is done. A win stops the
    /// search in a game, where it is played at once.
    fn vct_thread(&self, solver: &mut task::Solver) -> Option<threats::RootWin> {
        let win = self.root_vct(solver);
        if win.is_some() {
            self.vct_won.store(true, Relaxed);
            if self.settings.game {
                self.halt.store(true, Relaxed);
            }
        }
        self.helper(1);
        win
    }

    /// Whether the opponent has a forced win were the side to move to pass.
    fn opponent_threatens(&self, solver: &mut task::Solver) -> bool {
        threats::find_vct(
            self.board,
            self.board.to_move().opponent(),
            self.settings.threat_nodes(self.settings.root_vct_nodes),
            solver,
            (self.budget.threat_check(), self.settings.cancel),
            ThreatLimits::defence(DEFENCE_THREAT_LIMIT),
        )
        .is_some()
    }

    /// Helper search thread `id`: it fills the shared table for the main thread.
    fn helper(&self, id: usize) {
        helpers::helper(
            self.board,
            self.settings,
            self.budget.pass,
            self.tt,
            self.vcf_bytes,
            &self.halt,
            id,
            &self.helper_nodes,
        );
    }
}

/// The answers that need no search, into `analysis`: a five to make, nothing to play, the
/// weight map of `--depth 1`, a forced move in a game. Else the root's candidates to search.
fn without_search(
    start: Start,
    settings: &Settings,
    analysis: &mut Analysis,
) -> Option<Vec<(i32, u16)>> {
    let roots = match start {
        Start::Won(five) => {
            analysis.depth = 1;
            analysis.candidates.push(Candidate {
                mv: five,
                score: MATE - 1,
                bound: Bound::Exact,
                mate_in: Some(1),
                mate_minimal: true,
                pv: vec![five],
                depth: 1,
            });
            return None;
        }
        Start::Nothing => return None,
        Start::Moves(roots) => roots,
    };
    if settings.depth == Some(1) {
        analysis.depth = 1;
        analysis.seldepth = 1;
        analysis.nodes = roots.len() as u64;
        analysis.candidates = root::weight_map(&roots);
        return None;
    }
    // A forced move in a game is played at once.
    if settings.game && roots.len() == 1 {
        let mv = Point::from_index(roots[0].1 as usize);
        analysis.candidates.push(Candidate {
            mv,
            score: 0,
            bound: Bound::Upper,
            mate_in: None,
            mate_minimal: false,
            pv: vec![mv],
            depth: 0,
        });
        return None;
    }
    Some(roots)
}

/// The mates among the best `top`, each made the shortest the threat search proves: a win
/// in N is asked for one in N - 1 (`tengen solve --win-in`'s search, at the analysis's threat
/// limit, verified against every defence) until there is none (the mate is then minimal,
/// `mate_minimal`) or the budget ends (it stays "at most N"). The root VCT's proof counts
/// the longest branch of whatever proof it found first, which can be twice the shortest.
fn shorten_mates(
    board: &Board,
    scored: &mut [Candidate],
    settings: &Settings,
    solver: &mut task::Solver,
    budget: &Budget,
) {
    for cand in scored.iter_mut().take(settings.top.max(1)) {
        if cand.mate_in.is_some() && !cand.mate_minimal {
            shorten(board, cand, settings, solver, budget);
        }
    }
}

/// [`shorten_mates`] for one candidate: a win is searched from the root with the move fixed
/// as the first (it counts), a loss as the opponent's win after the move.
fn shorten(
    board: &Board,
    cand: &mut Candidate,
    settings: &Settings,
    solver: &mut task::Solver,
    budget: &Budget,
) {
    let Some(mate_in) = cand.mate_in else { return };
    let wins = mate_in > 0;
    let mut position = board.clone();
    let attacker = if wins {
        board.to_move()
    } else {
        position.play(cand.mv);
        board.to_move().opponent()
    };
    let mut n = mate_in.unsigned_abs();
    while n > 1 {
        if !budget.may_verify() {
            return;
        }
        let mut t = Task::new(Mode::WinIn, attacker);
        t.limits.depth = n - 1;
        t.limits.nodes = settings.verify_nodes;
        t.limits.threat_limit = settings.threat_limit.unwrap_or(DEFAULT_THREAT_LIMIT);
        t.limits.cancel = settings.cancel;
        t.time = budget
            .verify
            .map(|d| d.saturating_duration_since(Instant::now()));
        t.first = wins.then_some(cand.mv);
        let Ok(v) = solver.run(&position, &t) else {
            return;
        };
        match v.outcome {
            Outcome::NoWin => break,
            Outcome::Win if v.verified() && (1..n as usize).contains(&v.moves_to_five) => {
                n = v.moves_to_five as u32;
                let moves = n as i32;
                if wins {
                    cand.set_exact(MATE - (2 * moves - 1), v.line);
                    cand.mate_in = Some(moves);
                } else {
                    let pv = std::iter::once(cand.mv).chain(v.line).collect();
                    cand.set_exact(-(MATE - 2 * moves), pv);
                    cand.mate_in = Some(-moves);
                }
            }
            _ => return,
        }
    }
    cand.mate_minimal = true;
}
