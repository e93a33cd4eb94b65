//! `tengen review`: a whole game analysed move by move.
//!
//! Every position of the reviewed part is analysed once, in order: the position before move
//! `k` gives the mover's best move and its win chance before the move, the position after it
//! gives the opponent's, and so the mover's chance after the move. The drop between the two
//! is the move's loss, and the loss gives the verdict ([`Verdict`]). Forced wins come from the
//! analyses' mates, which the analyzer prints only once verified, and a claimed missed win is
//! checked again with the verifier before it is reported (see [`review`]).
//!
//! The types here are the schema of `tengen review --format json` (field names are stable;
//! points are RIF text, win chances are percentages for the side named).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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

/// What a move is worth, by the win chance it gives away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
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

impl Verdict {
    /// The verdict's word.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The verdict for a move that is not the best one and loses `loss` points.
    pub fn of_loss(loss: f64) -> Verdict {
        if loss < GOOD_BELOW {
            Verdict::Good
        } else if loss < INACCURACY_BELOW {
            Verdict::Inaccuracy
        } else if loss < MISTAKE_BELOW {
            Verdict::Mistake
        } else {
            Verdict::Blunder
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
    /// What the move is worth.
    pub verdict: Verdict,
    /// The mover had this forced win before the move and the move played is not one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub missed_win: Option<ForcedWin>,
    /// After the move the opponent has this forced win, and the analysis before the move
    /// found none against the mover.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub allowed_win: Option<ForcedWin>,
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
    /// Moves of each verdict.
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
    /// Black's tally.
    pub black: SideSummary,
    /// White's tally.
    pub white: SideSummary,
    /// Positions analysed.
    pub positions: usize,
    /// Time of the whole review, in milliseconds.
    pub elapsed_ms: f64,
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
pub struct Options {
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
    /// Moves that are verified wins here.
    winning: Vec<Point>,
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
                .map(|c| c.mv)
                .collect(),
        }
    }

    /// The side to move's win chance, in percent (no legal move: a draw).
    fn win(&self) -> f64 {
        if self.best.is_none() {
            return 50.0;
        }
        100.0 * win_probability(self.score)
    }
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

/// The game as a start position (setup stones) and its moves.
struct Game {
    start: Board,
    moves: Vec<Point>,
}

impl Game {
    fn of(board: &Board) -> Game {
        let mut start = board.clone();
        let mut moves = Vec::with_capacity(board.history().len());
        while let Some(p) = start.undo() {
            moves.push(p);
        }
        moves.reverse();
        // Undo hands the move back; the side to move is the first mover's.
        Game { start, moves }
    }

    fn position(&self, after: usize) -> Board {
        let mut b = self.start.clone();
        for &p in &self.moves[..after] {
            b.play(p);
        }
        b
    }
}

/// Reviews the game `board` holds (its record: the moves played on it, in order), telling
/// `tick` after each position analysed (the count so far). `cancel`-free: each analysis has
/// its own limit.
pub fn review(
    board: &Board,
    options: &Options,
    tick: &(dyn Fn(usize) + Sync),
) -> Result<Review, ReviewError> {
    let start_time = Instant::now();
    let game = Game::of(board);
    let n = game.moves.len();
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
    let ends = |i: usize| -> Option<After> {
        if i > 0 && fouls(&game.position(i - 1), game.moves[i - 1]) {
            return Some(After::Foul);
        }
        let b = game.position(i);
        if i > 0 && b.last_move().and_then(|l| b.five_through(l)).is_some() {
            Some(After::Won)
        } else if b.empty_points().next().is_none() {
            Some(After::Full)
        } else {
            None
        }
    };
    let jobs = options.jobs.clamp(1, indexes.len());
    let chunk = indexes.len().div_ceil(jobs);
    let done = AtomicUsize::new(0);
    let results: Vec<Result<Vec<(usize, After)>, MemoryError>> = std::thread::scope(|s| {
        let handles: Vec<_> = indexes
            .chunks(chunk)
            .map(|part| {
                let (game, done, ends) = (&game, &done, &ends);
                s.spawn(move || -> Result<Vec<(usize, After)>, MemoryError> {
                    // One set of tables a job: consecutive positions share most of their tree.
                    let mut tables = Tables::for_settings(&options.settings)?;
                    let mut out = Vec::with_capacity(part.len());
                    for &i in part {
                        let after = match ends(i) {
                            Some(end) => end,
                            None => {
                                let b = game.position(i);
                                let a = analyze::analyze_with(
                                    &b,
                                    &options.settings,
                                    &mut tables,
                                    |_| {},
                                )?;
                                After::Analysed(Eval::of(&a))
                            }
                        };
                        out.push((i, after));
                        tick(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a review job does not panic"))
            .collect()
    });
    let mut evals: Vec<Option<After>> = vec![None; n + 1];
    for r in results {
        for (i, a) in r? {
            evals[i] = Some(a);
        }
    }
    // The verifier, for the moves that may have let a win go.
    let mut verifier: Option<Tables> = None;
    let mut records = Vec::with_capacity(to - from + 1);
    for k in from..=to {
        let before = match &evals[k - 1] {
            Some(After::Analysed(e)) => e.clone(),
            _ => unreachable!("a position before a move of the record is neither won nor full"),
        };
        let after = evals[k]
            .clone()
            .expect("every reviewed position is analysed");
        let played = game.moves[k - 1];
        let side = game.position(k - 1).to_move();
        let (played_score, win_after) = match &after {
            After::Won => (analyze::eval::MATE - 1, 100.0),
            After::Foul => (-(analyze::eval::MATE - 1), 0.0),
            After::Full => (0, 50.0),
            After::Analysed(e) => (-e.score, 100.0 - e.win()),
        };
        let win_before = before.win();
        let loss = (win_before - win_after).max(0.0);
        let had_win = before.mate_in.is_some_and(|m| m > 0);
        let keeps_win = matches!(after, After::Won)
            || before.winning.contains(&played)
            || matches!(&after, After::Analysed(e) if e.mate_in.is_some_and(|m| m < 0))
            || (had_win && {
                let tables = match verifier.as_mut() {
                    Some(t) => t,
                    None => verifier.insert(Tables::for_settings(&options.settings)?),
                };
                analyze::proves_win(
                    &game.position(k - 1),
                    played,
                    KEEPS_WIN_MOVES,
                    &options.settings,
                    tables,
                )
            });
        let missed_win = (had_win && !keeps_win).then(|| ForcedWin {
            winner: side,
            line: before.line.clone(),
            moves: before.mate_in.unwrap_or(0),
        });
        let was_lost = before.mate_in.is_some_and(|m| m < 0);
        let allowed_win = match &after {
            After::Analysed(e) if !was_lost && e.mate_in.is_some_and(|m| m > 0) => {
                Some(ForcedWin {
                    winner: side.opponent(),
                    line: e.line.clone(),
                    moves: e.mate_in.unwrap_or(0),
                })
            }
            _ => None,
        };
        let verdict = if missed_win.is_some() || allowed_win.is_some() {
            Verdict::Blunder
        } else if Some(played) == before.best || (had_win && keeps_win) {
            Verdict::Best
        } else {
            Verdict::of_loss(loss)
        };
        records.push(MoveReview {
            number: k,
            side,
            played,
            best: before.best,
            best_line: before.line.clone(),
            best_score: before.score,
            played_score,
            win_before,
            win_after,
            loss,
            verdict,
            missed_win,
            allowed_win,
            depth: before.depth,
            nodes: before.nodes,
        });
    }
    let fouled = n > 0 && fouls(&game.position(n - 1), game.moves[n - 1]);
    let won_by = if fouled {
        Some(Color::White)
    } else {
        board
            .last_move()
            .filter(|&l| board.five_through(l).is_some())
            .and_then(|l| board.get(l))
    };
    let result = match won_by {
        Some(Color::Black) => GameResult::BlackWins,
        Some(Color::White) => GameResult::WhiteWins,
        None if board.empty_points().next().is_none() => GameResult::Draw,
        None => GameResult::Unfinished,
    };
    let turning_point = turning_point(&records, result);
    let summary = |c: Color| {
        let mine: Vec<&MoveReview> = records.iter().filter(|r| r.side == c).collect();
        let count = |v: Verdict| mine.iter().filter(|r| r.verdict == v).count();
        SideSummary {
            moves: mine.len(),
            best: count(Verdict::Best),
            good: count(Verdict::Good),
            inaccuracy: count(Verdict::Inaccuracy),
            mistake: count(Verdict::Mistake),
            blunder: count(Verdict::Blunder),
            missed_wins: mine.iter().filter(|r| r.missed_win.is_some()).count(),
            allowed_wins: mine.iter().filter(|r| r.allowed_win.is_some()).count(),
            mean_loss: if mine.is_empty() {
                0.0
            } else {
                mine.iter().map(|r| r.loss).sum::<f64>() / mine.len() as f64
            },
        }
    };
    Ok(Review {
        rule: board.rule(),
        size: board.size(),
        setup: SetupStones {
            black: game.start.stones(Color::Black).collect(),
            white: game.start.stones(Color::White).collect(),
        },
        first: game.start.to_move(),
        moves: game.moves.clone(),
        opening: crate::openings::of_board(board).map(|o| o.to_string()),
        result,
        from,
        to,
        black: summary(Color::Black),
        white: summary(Color::White),
        records,
        turning_point,
        positions: indexes.len(),
        elapsed_ms: duration_ms(start_time.elapsed()),
    })
}

/// Whether black, to move on `board`, plays a foul at `p` (renju).
fn fouls(board: &Board, p: Point) -> bool {
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

    #[test]
    fn verdicts_follow_the_documented_thresholds() {
        assert_eq!(Verdict::of_loss(0.0), Verdict::Good);
        assert_eq!(Verdict::of_loss(4.99), Verdict::Good);
        assert_eq!(Verdict::of_loss(5.0), Verdict::Inaccuracy);
        assert_eq!(Verdict::of_loss(10.0), Verdict::Mistake);
        assert_eq!(Verdict::of_loss(19.9), Verdict::Mistake);
        assert_eq!(Verdict::of_loss(20.0), Verdict::Blunder);
    }
}
