//! `tengen review`: a whole game analysed move by move.
//!
//! A review runs in phases (see [`review`]): the game is replayed once into its positions;
//! every position of the reviewed part is analysed once; each move is graded; the tally and
//! the turning point sum the grades up. The position before move `k` gives the mover's best
//! move and its win chance before the move, the position after it gives the opponent's, and so
//! the mover's chance after the move. The drop between the two is the move's loss, and the
//! loss gives the move's [`Grade`]. Forced wins come from the analyses' mates, which the
//! analyzer prints only once verified, and a claimed missed win is checked again with the
//! verifier before it is reported.
//!
//! Consecutive analyses know different things (a win proved one ply later was not seen one
//! ply earlier), so before any move is graded the proofs are reconciled along the game
//! ([`Proofs`]): only what is logically implied is carried from one position to the next, and
//! a position that two proofs disagree on is graded by its scores alone and labelled (a
//! record's `note`). A move's two scores (the best move's before it, the move played's after
//! it) are then made to agree: the move played, when it is the analyzer's best or scores
//! higher, is the best move, with its score from the deeper search after it.
//!
//! The types here are the schema of `tengen review --format json` (field names are stable;
//! points are RIF text, win chances are percentages for the side named).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::analyze::eval::win_probability;
use crate::analyze::{self, Analysis, Settings, Tables};
use crate::board::{Board, Color, Point, Rule};
use crate::solve::tt::MemoryError;

/// A move that loses less than this many points of win chance (percent) is good.
pub const GOOD_BELOW: f64 = 5.0;
/// Less than this (and at least [`GOOD_BELOW`]) is an inaccuracy.
pub const INACCURACY_BELOW: f64 = 10.0;
/// Less than this (and at least [`INACCURACY_BELOW`]) is a mistake; from it on, a blunder.
pub const MISTAKE_BELOW: f64 = 20.0;
/// The longest forced win (the winner's moves to its five) the verifier tries when it checks
/// whether a move other than the best one still wins.
pub const KEEPS_WIN_MOVES: u32 = 40;
/// The turning point is the move from which on the side that won stayed at or above this win
/// chance (percent) after every move.
pub const DECIDED_FROM: f64 = 80.0;

/// What a move is worth, by the win chance it gives away (JSON: a record's `verdict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Grade {
    /// The analyzer's best move, or a move that keeps a forced win.
    Best,
    /// Loses less than [`GOOD_BELOW`] points of win chance.
    Good,
    /// Loses [`GOOD_BELOW`] to [`INACCURACY_BELOW`] points.
    Inaccuracy,
    /// Loses [`INACCURACY_BELOW`] to [`MISTAKE_BELOW`] points.
    Mistake,
    /// Loses [`MISTAKE_BELOW`] points or more, or misses or allows a forced win.
    Blunder,
}

impl Grade {
    /// The grade's word.
    pub fn word(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }

    /// The grade of a move that is not the best one and loses `loss` points.
    pub fn of_loss(loss: f64) -> Grade {
        if loss < GOOD_BELOW {
            Grade::Good
        } else if loss < INACCURACY_BELOW {
            Grade::Inaccuracy
        } else if loss < MISTAKE_BELOW {
            Grade::Mistake
        } else {
            Grade::Blunder
        }
    }
}

/// A verified forced win: the winner, its line from the position, and its moves to the five
/// (or to the forced foul).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForcedWin {
    /// The side that wins.
    pub winner: Color,
    /// The winning line, the winner's move first.
    pub line: Vec<Point>,
    /// The winner's moves up to its five, the first counted.
    pub moves: i32,
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveReview {
    /// The move's number in the game record, from 1.
    pub number: usize,
    /// The side that played it.
    pub side: Color,
    /// The move played.
    pub played: Point,
    /// The analyzer's best move in the position before it (none when no move was legal).
    pub best: Option<Point>,
    /// The best move's line.
    pub best_line: Vec<Point>,
    /// The best move's score, for the mover (the analyzer's scale: 400 is about 73%).
    pub best_score: i32,
    /// The move played's score, for the mover: the opponent's best score after it, negated.
    pub played_score: i32,
    /// The mover's win chance before the move, in percent.
    pub win_before: f64,
    /// The mover's win chance after the move, in percent.
    pub win_after: f64,
    /// Points of win chance the move gave away (`win_before - win_after`, at least 0).
    pub loss: f64,
    /// What the move is worth (JSON: `verdict`).
    #[serde(rename = "verdict")]
    pub grade: Grade,
    /// The mover had this forced win before the move and the move played is not one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub missed_win: Option<ForcedWin>,
    /// After the move the opponent has this forced win, and the position before the move was
    /// not proved lost for the mover.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub allowed_win: Option<ForcedWin>,
    /// The move lies in the decided tail of the game ([`Review::decided`]): from the position
    /// before it on, one side's win was proved and played out.
    #[serde(default)]
    pub decided: bool,
    /// What the analyses could not reconcile about this move, when they disagree (it starts
    /// "search disagrees:"); its grade then follows from the scores alone.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
    /// Depth the analysis before the move completed.
    pub depth: u32,
    /// Positions it searched.
    pub nodes: u64,
}

/// One side's tally.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSummary {
    /// Moves of this side reviewed.
    pub moves: usize,
    /// Moves of each grade.
    pub best: usize,
    /// See `best`.
    pub good: usize,
    /// See `best`.
    pub inaccuracy: usize,
    /// See `best`.
    pub mistake: usize,
    /// See `best`.
    pub blunder: usize,
    /// Forced wins this side missed.
    pub missed_wins: usize,
    /// Forced wins this side allowed the opponent.
    pub allowed_wins: usize,
    /// Mean win chance lost a move, in percentage points.
    pub mean_loss: f64,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// Black made five.
    BlackWins,
    /// White made five, or black's last move was a foul (renju).
    WhiteWins,
    /// The board is full.
    Draw,
    /// The record stops before the end.
    Unfinished,
}

/// `tengen review --format json`: the whole review of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// The rule.
    pub rule: Rule,
    /// The board size.
    pub size: u8,
    /// Stones on the board before the record's first move (a game that starts from a setup).
    pub setup: SetupStones,
    /// The side that played the record's first move.
    pub first: Color,
    /// The whole game record.
    pub moves: Vec<Point>,
    /// The renju opening its first three moves form, when they form one of the 26.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub opening: Option<String>,
    /// How the record ends.
    pub result: GameResult,
    /// The first and last move reviewed (numbers from 1).
    pub from: usize,
    /// See `from`.
    pub to: usize,
    /// A move a record, in order.
    pub records: Vec<MoveReview>,
    /// The move after which the result was decided: from it on, the side that won (or, in an
    /// unfinished game, the side at [`DECIDED_FROM`] or more after the last move reviewed)
    /// stayed at [`DECIDED_FROM`] (80%) or more after every move. None when the game is drawn
    /// or undecided.
    pub turning_point: Option<usize>,
    /// The game's decided tail: from its first move on, `winner` had a proved win before each
    /// of its moves and played a proved winning move, and the other side moved from proved
    /// lost positions, to the last move reviewed. None when there is no such tail of two
    /// moves or more.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub decided: Option<DecidedTail>,
    /// Black's tally.
    pub black: SideSummary,
    /// White's tally.
    pub white: SideSummary,
    /// Positions analysed.
    pub positions: usize,
    /// Time of the whole review, in milliseconds.
    pub elapsed_ms: f64,
}

/// The moves after which the game was a proved win played out (the text prints them as one
/// line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecidedTail {
    /// The side whose win it was.
    pub winner: Color,
    /// The first move of the tail (from 1).
    pub from: usize,
    /// Its last (the last move reviewed).
    pub to: usize,
}

/// Stones placed before the game record's first move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupStones {
    /// Black's.
    pub black: Vec<Point>,
    /// White's.
    pub white: Vec<Point>,
}

/// What to review and how.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// Each position's analysis (a time, depth or node limit a position).
    pub settings: Settings,
    /// The first move to review, from 1.
    pub from: usize,
    /// The last move to review (default: the last of the record).
    pub to: Option<usize>,
    /// Positions analysed at once, each job with tables of its own.
    pub jobs: usize,
}

/// Why a game cannot be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The input has no moves to review.
    #[error(
        "there is no move to review: the input has no game record (a move list, a .psq or SGF game)"
    )]
    NoMoves,
    /// `--from`/`--to` outside the record.
    #[error("moves {from} to {to} are not in the game: it has {moves} moves")]
    Range {
        /// First move asked for.
        from: usize,
        /// Last move asked for.
        to: usize,
        /// Moves in the record.
        moves: usize,
    },
    /// The tables could not be allocated.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// The jobs' threads could not be started.
    #[error("cannot start the review's jobs: {0}")]
    Jobs(#[from] rayon::ThreadPoolBuildError),
}

/// What one position's analysis found, for its side to move.
#[derive(Clone, Debug)]
struct Eval {
    best: Option<Point>,
    line: Vec<Point>,
    score: i32,
    mate_in: Option<i32>,
    depth: u32,
    nodes: u64,
    /// Moves that are verified wins here, with their scores.
    winning: Vec<(Point, i32)>,
}

impl Eval {
    fn of(a: &Analysis) -> Eval {
        let best = a.candidates.first();
        Eval {
            best: best.map(|c| c.mv),
            line: best.map(|c| c.pv.clone()).unwrap_or_default(),
            score: best.map_or(0, |c| c.score),
            mate_in: best.and_then(|c| c.mate_in),
            depth: a.depth,
            nodes: a.nodes,
            winning: a
                .candidates
                .iter()
                .filter(|c| c.mate_in.is_some_and(|n| n > 0))
                .map(|c| (c.mv, c.score))
                .collect(),
        }
    }

    /// Whether the score is a verified mate (the analyzer keeps mate scores only once
    /// verified).
    fn mated(&self) -> Option<bool> {
        self.mate_in.filter(|&n| n != 0).map(|n| n > 0)
    }
}

/// The score of a win that the reconciliation proved but whose length no search measured:
/// the smallest score that reads as a win.
const PROVED_WIN: i32 = analyze::eval::MATE_BOUND + 1;

/// A score's win chance, in percent, for the side it is for.
fn chance(score: i32) -> f64 {
    100.0 * win_probability(score)
}

/// A position after some moves of the game: analysed, or the game's end.
#[derive(Clone, Debug)]
enum After {
    Analysed(Eval),
    /// The last move made five.
    Won,
    /// The last move was black's foul under renju: black lost.
    Foul,
    /// The board is full.
    Full,
}

/// The game replayed once from its start: the start position (setup stones), its moves, the
/// position after each and which moves were black's fouls.
struct Replay {
    start: Board,
    moves: Vec<Point>,
    /// `positions[i]`: the board after the first `i` moves (`positions[0]` is `start`).
    positions: Vec<Board>,
    /// `fouls[i]`: move `i + 1` was black's foul under renju.
    fouls: Vec<bool>,
}

impl Replay {
    fn of(board: &Board) -> Replay {
        let mut start = board.clone();
        let mut moves = Vec::with_capacity(board.history().len());
        while let Some(p) = start.undo() {
            moves.push(p);
        }
        moves.reverse();
        // Undo hands the move back; the side to move is the first mover's.
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut fouls = Vec::with_capacity(moves.len());
        let mut b = start.clone();
        for &p in &moves {
            fouls.push(is_foul(&b, p));
            positions.push(b.clone());
            b.play(p);
        }
        positions.push(b);
        Replay {
            start,
            moves,
            positions,
            fouls,
        }
    }

    /// How the game ended after its first `i` moves, when it ended there.
    fn end_after(&self, i: usize) -> Option<After> {
        if i > 0 && self.fouls[i - 1] {
            return Some(After::Foul);
        }
        let b = &self.positions[i];
        if i > 0 && b.last_move().and_then(|l| b.five_through(l)).is_some() {
            Some(After::Won)
        } else if b.empty_points().next().is_none() {
            Some(After::Full)
        } else {
            None
        }
    }
}

/// Reviews the game `board` holds (its record: the moves played on it, in order), telling
/// `tick` after each position analysed (the count so far). `cancel`-free: each analysis has
/// its own limit.
///
/// The phases: the game is replayed once; the positions before the first move reviewed to
/// after the last are analysed ([`analyse_positions`]); each move is graded from the analyses
/// before and after it ([`grade_moves`]); the result, the turning point and each side's tally
/// sum the grades up.
pub fn review(
    board: &Board,
    options: &ReviewOptions,
    tick: &(dyn Fn(usize) + Sync),
) -> Result<Review, ReviewError> {
    let start_time = Instant::now();
    let replay = Replay::of(board);
    let n = replay.moves.len();
    if n == 0 {
        return Err(ReviewError::NoMoves);
    }
    let from = options.from.max(1);
    let to = options.to.unwrap_or(n);
    if from > to || to > n {
        return Err(ReviewError::Range { from, to, moves: n });
    }
    // Positions from-1 (before the first move reviewed) to `to` (after the last).
    let indexes: Vec<usize> = (from - 1..=to).collect();
    let analysed = analyse_positions(&replay, &indexes, options, tick)?;
    let mut verifier = Verifier {
        settings: &options.settings,
        tables: None,
    };
    let proofs = Proofs::of(&replay, &analysed, from, &mut verifier)?;
    let decided = proofs.decided_tail(&replay, from);
    let mut records = grade_moves(&replay, &analysed, &proofs, from);
    if let Some(tail) = decided {
        for r in records.iter_mut().filter(|r| r.number >= tail.from) {
            r.decided = true;
        }
    }
    let result = game_result(board, &replay);
    Ok(Review {
        rule: board.rule(),
        size: board.size(),
        setup: SetupStones {
            black: replay.start.stones(Color::Black).collect(),
            white: replay.start.stones(Color::White).collect(),
        },
        first: replay.start.to_move(),
        moves: replay.moves.clone(),
        opening: crate::board::openings::of_board(board).map(|o| o.to_string()),
        result,
        from,
        to,
        black: SideSummary::of(&records, Color::Black),
        white: SideSummary::of(&records, Color::White),
        turning_point: turning_point(&records, result),
        decided,
        records,
        positions: indexes.len(),
        elapsed_ms: duration_ms(start_time.elapsed()),
    })
}

/// Analyses the positions after `indexes` moves (a game's end is told, not analysed), in
/// order. The positions are cut into `--jobs` runs of consecutive ones, each run analysed in
/// order on a rayon pool with tables of its own: consecutive positions share most of their
/// tree, and a run's results depend only on the run, not on the thread it lands on.
fn analyse_positions(
    replay: &Replay,
    indexes: &[usize],
    options: &ReviewOptions,
    tick: &(dyn Fn(usize) + Sync),
) -> Result<Vec<After>, ReviewError> {
    let jobs = options.jobs.clamp(1, indexes.len());
    let run = indexes.len().div_ceil(jobs);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let done = AtomicUsize::new(0);
    let runs: Vec<Result<Vec<After>, MemoryError>> = pool.install(|| {
        indexes
            .par_chunks(run)
            .map(|part| analyse_run(replay, part, &options.settings, &done, tick))
            .collect()
    });
    let mut analysed = Vec::with_capacity(indexes.len());
    for r in runs {
        analysed.extend(r?);
    }
    Ok(analysed)
}

/// Analyses the positions after `part` moves one after another with one set of tables.
fn analyse_run(
    replay: &Replay,
    part: &[usize],
    settings: &Settings,
    done: &AtomicUsize,
    tick: &(dyn Fn(usize) + Sync),
) -> Result<Vec<After>, MemoryError> {
    let mut tables = Tables::for_settings(settings)?;
    let mut out = Vec::with_capacity(part.len());
    for &i in part {
        let after = match replay.end_after(i) {
            Some(end) => end,
            None => {
                let a = analyze::analyze_with(&replay.positions[i], settings, &mut tables, |_| {})?;
                After::Analysed(Eval::of(&a))
            }
        };
        out.push(after);
        tick(done.fetch_add(1, Ordering::Relaxed) + 1);
    }
    Ok(out)
}

/// The verifier, for the moves that may have let a win go: its tables are allocated for the
/// first such move and kept for the later ones.
struct Verifier<'a> {
    settings: &'a Settings,
    tables: Option<Tables>,
}

impl Verifier<'_> {
    /// Whether `mv`, played on `board`, still wins by force within [`KEEPS_WIN_MOVES`].
    fn proves_win(&mut self, board: &Board, mv: Point) -> Result<bool, MemoryError> {
        let tables = match self.tables.as_mut() {
            Some(t) => t,
            None => self.tables.insert(Tables::for_settings(self.settings)?),
        };
        Ok(analyze::proves_win(
            board,
            mv,
            KEEPS_WIN_MOVES,
            self.settings,
            tables,
        ))
    }
}

/// What the reconciled proofs say of a position, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    /// Nothing proved.
    Open,
    /// A forced win.
    Win,
    /// Every move loses by force.
    Loss,
    /// Proved both won and lost: the searches contradict each other.
    Disputed,
    /// A win implied by the position before (its side to move was lost) that no search found
    /// here, so no winning move can be named.
    Unnamed,
}

/// The proofs along the reviewed part of the game, reconciled; position `j` is the one after
/// `from - 1 + j` moves. The facts are the analyses' verified mates, a five or a foul, the
/// moves each analysis verified as wins, and the verifier's. Three rules carry them along,
/// each logically implied:
/// - a position lost for its side to move means the move into it won: the position before it
///   was a win for the side that played it (it could play that move);
/// - a position lost for its side to move means every move from it leaves the opponent a win;
/// - a move proved winning leaves the opponent lost.
///
/// Nothing is carried from a win after a move to the mover's alternatives: a move into the
/// opponent's proved win allowed it, unless the position before was proved lost as well.
/// Claims only grow, so the closure does not depend on the order they are found in, and a
/// position claimed both won and lost is [`Proof::Disputed`], not taken as either.
struct Proofs {
    win: Vec<bool>,
    lose: Vec<bool>,
    /// A forced win of the side to move at `j`: its line and the winner's moves to the five.
    witness: Vec<Option<(Vec<Point>, i32)>>,
    /// `winning[m]`: move `from + m` is proved winning.
    winning: Vec<bool>,
}

impl Proofs {
    /// The analyses' proofs, reconciled, with the verifier run once on each move from a
    /// proved win into a position nothing proves.
    fn of(
        replay: &Replay,
        analysed: &[After],
        from: usize,
        verifier: &mut Verifier,
    ) -> Result<Proofs, MemoryError> {
        let n = analysed.len();
        let mut p = Proofs {
            win: vec![false; n],
            lose: vec![false; n],
            witness: vec![None; n],
            winning: vec![false; n - 1],
        };
        for (j, after) in analysed.iter().enumerate() {
            match after {
                After::Analysed(e) => match e.mated() {
                    Some(true) => {
                        p.win[j] = true;
                        p.witness[j] = Some((e.line.clone(), e.mate_in.unwrap_or(0)));
                    }
                    Some(false) => p.lose[j] = true,
                    None => {}
                },
                After::Won => p.lose[j] = true,
                After::Foul => p.win[j] = true,
                After::Full => {}
            }
        }
        for (m, won) in p.winning.iter_mut().enumerate() {
            let played = replay.moves[from - 1 + m];
            if let After::Analysed(e) = &analysed[m] {
                *won = e.winning.iter().any(|&(mv, _)| mv == played);
            }
        }
        let mut tried = vec![false; n - 1];
        loop {
            p.close(replay, analysed, from);
            let next = (0..n - 1).find(|&m| {
                !tried[m]
                    && p.proof(m) == Proof::Win
                    && p.proof(m + 1) == Proof::Open
                    && matches!(analysed[m + 1], After::Analysed(_))
            });
            let Some(m) = next else { break };
            tried[m] = true;
            let k = from + m;
            p.winning[m] = verifier.proves_win(&replay.positions[k - 1], replay.moves[k - 1])?;
        }
        Ok(p)
    }

    /// Applies the three rules until nothing more follows.
    fn close(&mut self, replay: &Replay, analysed: &[After], from: usize) {
        let mut changed = true;
        while changed {
            changed = false;
            for m in 0..self.winning.len() {
                let (b, a) = (m, m + 1);
                if self.winning[m] && !self.lose[a] {
                    self.lose[a] = true;
                    changed = true;
                }
                if self.lose[a] && !self.win[b] {
                    self.win[b] = true;
                    changed = true;
                    // The move played is the win's first move; the rest is the loser's line.
                    let played = replay.moves[from - 1 + m];
                    self.witness[b] = match &analysed[a] {
                        After::Won => Some((vec![played], 1)),
                        After::Analysed(e) if e.mated() == Some(false) => Some((
                            std::iter::once(played)
                                .chain(e.line.iter().copied())
                                .collect(),
                            1 - e.mate_in.unwrap_or(0),
                        )),
                        _ => None,
                    };
                }
                if self.lose[b] && !self.win[a] {
                    self.win[a] = true;
                    changed = true;
                }
            }
        }
    }

    /// Position `j`'s proof.
    fn proof(&self, j: usize) -> Proof {
        match (self.win[j], self.lose[j]) {
            (true, true) => Proof::Disputed,
            (true, false) => Proof::Win,
            (false, true) => Proof::Loss,
            (false, false) => Proof::Open,
        }
    }

    /// Position `j`'s proof for grading the move played from it: a win is one only with a
    /// winning move to name (a line, or the move played proved winning).
    fn before(&self, j: usize) -> Proof {
        match self.proof(j) {
            Proof::Win if self.witness[j].is_none() && !self.lose[j + 1] => Proof::Unnamed,
            p => p,
        }
    }

    /// The decided tail: the last moves reviewed, at least two, each either the winner's
    /// proved winning move from its proved win or the loser's from its proved loss.
    fn decided_tail(&self, replay: &Replay, from: usize) -> Option<DecidedTail> {
        let moves = self.winning.len();
        let mut tail: Option<(Color, usize)> = None;
        for m in (0..moves).rev() {
            let mover = replay.positions[from - 1 + m].to_move();
            let winner = match (self.before(m), self.proof(m + 1)) {
                (Proof::Win, Proof::Loss) => mover,
                (Proof::Loss, Proof::Win) => mover.opponent(),
                _ => break,
            };
            if tail.is_some_and(|(w, _)| w != winner) {
                break;
            }
            tail = Some((winner, m));
        }
        let (winner, start) = tail?;
        (moves - start >= 2).then_some(DecidedTail {
            winner,
            from: from + start,
            to: from + moves - 1,
        })
    }
}

/// Grades the moves from `from` on, in order: `analysed[0]` is the position before move
/// `from`, and each later one the position after the next move.
fn grade_moves(
    replay: &Replay,
    analysed: &[After],
    proofs: &Proofs,
    from: usize,
) -> Vec<MoveReview> {
    (0..proofs.winning.len())
        .map(|m| grade_move(replay, analysed, proofs, from, m))
        .collect()
}

/// The best move's score before a move, for the mover: a proved win or loss that the
/// analysis scored otherwise reads as one.
fn best_score(before: &Eval, proof: Proof) -> i32 {
    match (proof, before.mated()) {
        (Proof::Win, Some(true)) | (Proof::Loss, Some(false)) => before.score,
        (Proof::Win, _) => PROVED_WIN,
        (Proof::Loss, _) => -PROVED_WIN,
        _ => before.score,
    }
}

/// The move played's score, for its mover: the opponent's after it negated, a proved result
/// read as one (a verified mate's length kept, the longer of two).
fn played_score(before: &Eval, after: &After, proof: Proof, played: Point) -> i32 {
    let mate = analyze::eval::MATE;
    let After::Analysed(e) = after else {
        return match after {
            After::Won => mate - 1,
            After::Foul => -(mate - 1),
            _ => 0,
        };
    };
    match (proof, e.mated()) {
        (Proof::Loss, mated) => {
            let here = if mated == Some(false) {
                -e.score
            } else {
                PROVED_WIN
            };
            let there = before.winning.iter().find(|w| w.0 == played);
            here.max(there.map_or(PROVED_WIN, |w| w.1))
        }
        (Proof::Win, Some(true)) => -e.score,
        (Proof::Win, _) => -PROVED_WIN,
        _ => -e.score,
    }
}

/// Grades move `from + m` from the reconciled proofs and the analyses before and after it.
fn grade_move(
    replay: &Replay,
    analysed: &[After],
    proofs: &Proofs,
    from: usize,
    m: usize,
) -> MoveReview {
    let After::Analysed(before) = &analysed[m] else {
        unreachable!("a position before a move of the record is neither won nor full")
    };
    let after = &analysed[m + 1];
    let k = from + m;
    let played = replay.moves[k - 1];
    let side = replay.positions[k - 1].to_move();
    let (pb, pa) = (proofs.before(m), proofs.proof(m + 1));
    let mut notes = proof_notes(side, pb, pa);
    let played_score = played_score(before, after, pa, played);
    let (mut best, mut best_line, mut best_score) =
        (before.best, before.line.clone(), best_score(before, pb));
    // The move played is the best move when it is the analyzer's (its score from the deeper
    // search after it), when it scores higher, or when it is the proved win the analysis
    // before did not see.
    if before.best == Some(played)
        || played_score > best_score
        || (pb == Proof::Win && before.mated() != Some(true))
    {
        best = Some(played);
        best_score = played_score;
        best_line = std::iter::once(played)
            .chain(match after {
                After::Analysed(e) => e.line.clone(),
                _ => Vec::new(),
            })
            .collect();
    }
    let (win_before, win_after) = (chance(best_score), chance(played_score));
    let loss = (win_before - win_after).max(0.0);
    let keeps_win = matches!(after, After::Won) || pa == Proof::Loss;
    let mut missed_win = proofs.witness[m]
        .as_ref()
        .filter(|_| pb == Proof::Win && !keeps_win && pa != Proof::Disputed)
        .map(|(line, moves)| ForcedWin {
            winner: side,
            line: line.clone(),
            moves: *moves,
        });
    let allows = matches!(after, After::Analysed(_))
        && pa == Proof::Win
        && matches!(pb, Proof::Open | Proof::Win | Proof::Unnamed);
    let mut allowed_win = proofs.witness[m + 1]
        .as_ref()
        .filter(|_| allows)
        .map(|(line, moves)| ForcedWin {
            winner: side.opponent(),
            line: line.clone(),
            moves: *moves,
        });
    if allows && allowed_win.is_none() {
        notes.push(format!(
            "search disagrees: {} wins after this move, but no search named the win",
            side.opponent()
        ));
    }
    // The best move cannot have let a win go: where a proof says so, the searches disagree.
    if best == Some(played) && (missed_win.is_some() || allowed_win.is_some()) {
        missed_win = None;
        allowed_win = None;
        notes.push(format!(
            "search disagrees: the analyzer's best move, yet {} has a forced win after it that the analysis before it did not see",
            side.opponent()
        ));
    }
    let grade = if missed_win.is_some() || allowed_win.is_some() {
        Grade::Blunder
    } else if best == Some(played) || (pb == Proof::Win && keeps_win) {
        Grade::Best
    } else {
        Grade::of_loss(loss)
    };
    MoveReview {
        number: k,
        side,
        played,
        best,
        best_line,
        best_score,
        played_score,
        win_before,
        win_after,
        loss,
        grade,
        missed_win,
        allowed_win,
        decided: false,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        depth: before.depth,
        nodes: before.nodes,
    }
}

/// What the proofs before and after a move of `side` leave unreconciled, in words.
fn proof_notes(side: Color, before: Proof, after: Proof) -> Vec<String> {
    let mut notes = Vec::new();
    if before == Proof::Disputed {
        notes.push(format!(
            "search disagrees: the analyses prove both a win and a loss for {side} before this move"
        ));
    }
    if before == Proof::Unnamed {
        notes.push(format!(
            "search disagrees: {side} wins here ({} was proved lost before), but no search found the winning move",
            side.opponent()
        ));
    }
    if after == Proof::Disputed {
        notes.push(format!(
            "search disagrees: the analyses prove both a win and a loss for {} after this move",
            side.opponent()
        ));
    }
    notes
}

/// How the record ends: a five or black's foul on its last move, a full board, or neither.
fn game_result(board: &Board, replay: &Replay) -> GameResult {
    let fouled = replay.fouls.last() == Some(&true);
    let won_by = if fouled {
        Some(Color::White)
    } else {
        board
            .last_move()
            .filter(|&l| board.five_through(l).is_some())
            .and_then(|l| board.get(l))
    };
    match won_by {
        Some(Color::Black) => GameResult::BlackWins,
        Some(Color::White) => GameResult::WhiteWins,
        None if board.empty_points().next().is_none() => GameResult::Draw,
        None => GameResult::Unfinished,
    }
}

impl SideSummary {
    /// The tally of `side`'s moves among `records`.
    fn of(records: &[MoveReview], side: Color) -> SideSummary {
        let mine: Vec<&MoveReview> = records.iter().filter(|r| r.side == side).collect();
        let count = |g: Grade| mine.iter().filter(|r| r.grade == g).count();
        SideSummary {
            moves: mine.len(),
            best: count(Grade::Best),
            good: count(Grade::Good),
            inaccuracy: count(Grade::Inaccuracy),
            mistake: count(Grade::Mistake),
            blunder: count(Grade::Blunder),
            missed_wins: mine.iter().filter(|r| r.missed_win.is_some()).count(),
            allowed_wins: mine.iter().filter(|r| r.allowed_win.is_some()).count(),
            mean_loss: if mine.is_empty() {
                0.0
            } else {
                mine.iter().map(|r| r.loss).sum::<f64>() / mine.len() as f64
            },
        }
    }
}

/// Whether black, to move on `board`, plays a foul at `p` (renju).
fn is_foul(board: &Board, p: Point) -> bool {
    board.to_move() == Color::Black
        && board.rule().has_fouls(Color::Black)
        && crate::pattern::foul(board, p).is_some()
}

fn duration_ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The move after which the side that won (or that has [`DECIDED_FROM`] or more after the
/// last move reviewed) stayed at [`DECIDED_FROM`] or more after every move to the end of the
/// review.
fn turning_point(records: &[MoveReview], result: GameResult) -> Option<usize> {
    let last = records.last()?;
    let chance = |r: &MoveReview, c: Color| {
        if r.side == c {
            r.win_after
        } else {
            100.0 - r.win_after
        }
    };
    let winner = match result {
        GameResult::BlackWins => Color::Black,
        GameResult::WhiteWins => Color::White,
        GameResult::Draw => return None,
        GameResult::Unfinished => [Color::Black, Color::White]
            .into_iter()
            .find(|&c| chance(last, c) >= DECIDED_FROM)?,
    };
    let mut turn = None;
    for r in records.iter().rev() {
        if chance(r, winner) >= DECIDED_FROM {
            turn = Some(r.number);
        } else {
            break;
        }
    }
    turn
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATE: i32 = analyze::eval::MATE;

    /// An analysis that found `score` (a verified mate with `mate_in`) for `best`.
    fn eval(best: &str, score: i32, mate_in: Option<i32>) -> After {
        let best: Point = best.parse().unwrap();
        After::Analysed(Eval {
            best: Some(best),
            line: vec![best],
            score,
            mate_in,
            depth: 1,
            nodes: 1,
            winning: match mate_in {
                Some(n) if n > 0 => vec![(best, score)],
                _ => Vec::new(),
            },
        })
    }

    /// The proofs of a four-move freestyle game from the analyses of its five positions.
    fn proofs(analysed: &[After]) -> (Replay, Proofs) {
        let mut board = Board::new(15, Rule::Freestyle).unwrap();
        for p in ["h8", "a1", "i8", "a2"] {
            board.play(p.parse().unwrap());
        }
        let replay = Replay::of(&board);
        let settings = Settings::default();
        let mut verifier = Verifier {
            settings: &settings,
            tables: None,
        };
        let p = Proofs::of(&replay, analysed, 1, &mut verifier).unwrap();
        (replay, p)
    }

    #[test]
    fn a_proved_winning_move_leaves_a_loss_and_a_lost_side_leaves_a_win() {
        // Black's i8 (move 3) is a verified win; nothing after it proves anything.
        let open = || eval("h7", 0, None);
        let analysed = [
            open(),
            open(),
            eval("i8", MATE - 3, Some(2)),
            open(),
            open(),
        ];
        let (replay, p) = proofs(&analysed);
        let found: Vec<Proof> = (0..5).map(|j| p.proof(j)).collect();
        use Proof::*;
        assert_eq!(found, [Open, Open, Win, Loss, Win]);
        // Black's win after white's a2 follows from white's lost position: no line names it.
        assert_eq!(p.before(2), Win);
        assert!(p.witness[4].is_none());
        let tail = p.decided_tail(&replay, 1).unwrap();
        assert_eq!((tail.winner, tail.from, tail.to), (Color::Black, 3, 4));
        let records = grade_moves(&replay, &analysed, &p, 1);
        assert_eq!(records[2].grade, Grade::Best);
        assert_eq!(
            (records[2].win_before, records[2].win_after),
            (100.0, 100.0)
        );
        assert!(records[3].allowed_win.is_none(), "white was lost already");
        assert_eq!(records[3].win_before, 0.0);
    }

    #[test]
    fn a_loss_proved_later_is_carried_back_and_a_contradiction_is_disputed() {
        // White, to move after black's i8, is proved lost: i8 won, so black was winning before
        // it, although the analysis there saw +300; white's a1 before it allowed nothing known.
        let analysed = [
            eval("h8", 100, None),
            eval("a1", -200, None),
            eval("j8", 300, None),
            eval("a2", -(MATE - 4), Some(-2)),
            eval("a3", 0, None),
        ];
        let (replay, p) = proofs(&analysed);
        assert_eq!(p.proof(2), Proof::Win);
        assert_eq!(p.witness[2].as_ref().map(|w| w.1), Some(3));
        let records = grade_moves(&replay, &analysed, &p, 1);
        let three = &records[2];
        let played: Point = "i8".parse().unwrap();
        assert_eq!(
            (three.best, three.grade, three.loss),
            (Some(played), Grade::Best, 0.0)
        );
        assert!(three.played_score <= three.best_score);
        // A win claimed where a proved winning move left a loss: neither is taken.
        let analysed = [
            eval("h8", 100, None),
            eval("a1", -200, None),
            eval("i8", MATE - 3, Some(2)),
            eval("a2", MATE - 5, Some(3)),
            eval("a3", 0, None),
        ];
        let (replay, p) = proofs(&analysed);
        assert_eq!(p.proof(3), Proof::Disputed);
        assert!(p.decided_tail(&replay, 1).is_none());
        let records = grade_moves(&replay, &analysed, &p, 1);
        let note = records[2].note.as_deref().unwrap_or_default();
        assert!(note.starts_with("search disagrees: "), "{note}");
    }

    #[test]
    fn grades_follow_the_documented_thresholds() {
        assert_eq!(Grade::of_loss(0.0), Grade::Good);
        assert_eq!(Grade::of_loss(4.99), Grade::Good);
        assert_eq!(Grade::of_loss(5.0), Grade::Inaccuracy);
        assert_eq!(Grade::of_loss(10.0), Grade::Mistake);
        assert_eq!(Grade::of_loss(19.9), Grade::Mistake);
        assert_eq!(Grade::of_loss(20.0), Grade::Blunder);
    }
}
