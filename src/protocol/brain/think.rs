//! An analysis of the position for the brain's colour, with its live `MESSAGE` lines, and
//! the move it gives.

use std::io::{self, Write};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::Brain;
use super::game::{GameInPlay, coord_on};
use crate::analyze::{self, Analysis, Bound, Candidate, Event, Settings, eval};
use crate::board::{Board, Point};
use crate::pattern;
use crate::protocol::clock::{self, Trend, TurnTime};
use crate::solve::Cancel;
use crate::solve::tt::MemoryError;

impl<W: Write> Brain<W> {
    /// Analyses the position for the brain's colour within the clock; `top` moves get exact
    /// scores. Live `MESSAGE` lines go out after each iteration.
    pub(super) fn analyse(
        &mut self,
        top: usize,
        all: bool,
    ) -> io::Result<Option<(Board, Analysis)>> {
        let Some((board, stones)) = self.position_to_analyse()? else {
            return Ok(None);
        };
        // The move's clock started when its command was read.
        let start = self.received.min(Instant::now());
        let turn_time = self.info.clock.turn_time(stones);
        let Some(settings) = self.move_settings(top, all, turn_time)? else {
            return Ok(None);
        };
        // Time already gone (the command waited, or the tables were made just now) is the
        // analysis's no longer.
        let waited = start.elapsed();
        let settings = Settings {
            time: settings
                .time
                .map(|t| t.saturating_sub(waited).max(clock::FLOOR)),
            ..settings
        };
        // A stop read before the search began still counts.
        self.cancel.set(self.stops.load(Relaxed) > 0);
        let mut live = Live {
            size: self.game.as_ref().expect("analysed").size,
            realtime: self.realtime,
            adaptive: self.options.fixed.is_none(),
            turn_time,
            waited,
            trend: Trend::default(),
            cancel: self.cancel,
        };
        let mut lines: Vec<String> = Vec::new();
        let mut failed = None;
        let out = &mut self.out;
        let tables = self.tables.as_mut().expect("made by move_settings");
        let analysis = analyze::analyze_with(&board, &settings, tables, |event| {
            live.lines(event, &mut lines);
            for l in lines.drain(..) {
                if let Err(e) = writeln!(out, "{l}").and_then(|_| out.flush()) {
                    failed.get_or_insert(e);
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        // The soft limit's stop is spent; a pending STOP stays raised.
        self.cancel.set(self.stops.load(Relaxed) > 0);
        let used = start.elapsed();
        self.info.clock.spend(used);
        self.analysed(board, analysis, used).map(Some)
    }

    /// The board for the brain's colour to move, and how many stones it has; `None` (after
    /// an `ERROR` line) when there is no game or nothing to think about.
    fn position_to_analyse(&mut self) -> io::Result<Option<(Board, usize)>> {
        let Some(game) = self.game.as_ref() else {
            return Ok(None);
        };
        let me = game.own.unwrap_or_else(|| game.next_by_count());
        let board = game.board(self.rule, me);
        if let Some(five) = board.winner() {
            let at = game.coord(five.stones[0]);
            self.say(&format!(
                "ERROR the game is over: {} has five (from {at})",
                five.color
            ))?;
            return Ok(None);
        }
        if board.empty_points().next().is_none() {
            self.say("ERROR the board is full")?;
            return Ok(None);
        }
        let stones = game.stones.len();
        Ok(Some((board, stones)))
    }

    /// The settings of this move (with its tables made); `None` (after an `ERROR` line) when
    /// their memory cannot be had.
    fn move_settings(
        &mut self,
        top: usize,
        all: bool,
        turn_time: TurnTime,
    ) -> io::Result<Option<Settings>> {
        // A forced move or a proved win is played at once in a game; a request for several
        // moves' scores (YXNBEST, swap2's choices) gets the full analysis.
        let settings = Settings {
            all,
            game: top == 1 && !all,
            ..self.settings(top, turn_time)
        };
        self.debug(&format!(
            "budget soft {} ms, hard {} ms, tables {} MB, {} thread(s)",
            turn_time.soft.as_millis(),
            turn_time.hard.as_millis(),
            settings.hash_mb,
            settings.threads
        ))?;
        Ok(self.make_tables(&settings)?.then_some(settings))
    }

    /// What an analysis gives: its result with a `DEBUG` line, or after a failure (its
    /// memory) a `MESSAGE` and an analysis with no candidates, so that a legal move is played.
    fn analysed(
        &mut self,
        board: Board,
        analysis: Result<Analysis, MemoryError>,
        used: Duration,
    ) -> io::Result<(Board, Analysis)> {
        match analysis {
            Ok(a) => {
                self.debug(&format!(
                    "used {} ms: depth {}, {} nodes, stopped {:?}",
                    used.as_millis(),
                    a.depth,
                    a.nodes,
                    a.stopped
                ))?;
                Ok((board, a))
            }
            Err(e) => {
                self.say(&format!("MESSAGE {e}; playing a legal move"))?;
                let a = Analysis {
                    elapsed: used,
                    search_time: used,
                    ..Analysis::empty(&board)
                };
                Ok((board, a))
            }
        }
    }

    /// Thinks, plays the best move and answers it; with `top` above 1 (`YXNBEST`) the best
    /// `top` moves are listed first.
    pub(super) fn play_best(&mut self, top: usize) -> io::Result<()> {
        let Some((mut board, analysis)) = self.analyse(top, false)? else {
            return Ok(());
        };
        if top > 1 {
            let game = self.game.as_ref().expect("analysed");
            let lines: Vec<String> = analysis
                .candidates
                .iter()
                .take(top)
                .enumerate()
                .map(|(k, c)| nbest_line(game, k + 1, c))
                .collect();
            for l in lines {
                self.say(&l)?;
            }
        }
        let Some((mv, foul)) = choose(&mut board, &analysis.candidates) else {
            return self.say("ERROR no empty point is left");
        };
        if foul {
            self.say("MESSAGE every empty point is forbidden for black: playing the foul nearest the centre")?;
        }
        let game = self.game.as_mut().expect("analysed");
        let me = board.to_move();
        game.stones.push((mv, me));
        game.own = Some(me);
        let c = game.coord(mv);
        self.say(&c.to_string())
    }
}

/// A `MESSAGE` line of `YXNBEST`: rank, move, score, win chance, depth and line.
pub(super) fn nbest_line(game: &GameInPlay, rank: usize, c: &Candidate) -> String {
    let bound = if c.bound == Bound::Exact { "" } else { "<=" };
    let pv: Vec<String> = c.pv.iter().map(|p| p.to_string()).collect();
    format!(
        "MESSAGE NBEST {rank} {} score {bound}{} winrate {:.1}% depth {} pv (RIF) {}",
        game.coord(c.mv),
        c.score,
        100.0 * eval::win_probability(c.score),
        c.depth,
        pv.join(" ")
    )
}

/// The best candidate that can be played (empty, and not a foul for black under renju); when
/// the analysis has none, the legal point nearest the centre. When every empty point is a foul
/// for black, the foul nearest the centre (`true`): the game is lost either way, and a move the
/// manager judges a foul ends it as what it is, where no answer ends it as a loss on time.
pub(super) fn choose(board: &mut Board, candidates: &[Candidate]) -> Option<(Point, bool)> {
    let me = board.to_move();
    let legal = |b: &mut Board, p: Point| b.is_empty(p) && !pattern::forbidden(b, me, p.index());
    if let Some(c) = candidates.iter().find(|c| legal(board, c.mv)) {
        return Some((c.mv, false));
    }
    let centre = i32::from(board.size() / 2);
    let from_centre =
        |p: &Point| (i32::from(p.x()) - centre).abs() + (i32::from(p.y()) - centre).abs();
    let points: Vec<Point> = board.empty_points().collect();
    let nearest_legal = points
        .iter()
        .copied()
        .filter(|&p| legal(board, p))
        .min_by_key(from_centre);
    match nearest_legal {
        Some(p) => Some((p, false)),
        None => points
            .into_iter()
            .min_by_key(from_centre)
            .map(|p| (p, true)),
    }
}

/// The live lines of a running analysis, and the soft time limit's stop.
struct Live {
    /// The board's size, for the protocol's coordinates.
    size: u8,
    /// Yixin-Board's board marks (`MESSAGE REALTIME`).
    realtime: bool,
    /// Whether the soft limit may stop the analysis (not under fixed settings).
    adaptive: bool,
    turn_time: TurnTime,
    /// Time gone before the analysis began.
    waited: Duration,
    trend: Trend,
    cancel: Cancel,
}

impl Live {
    /// The lines `event` brings (pushed to `lines`); after an iteration, raises the cancel
    /// flag when the soft limit, scaled by how the search goes, is spent.
    fn lines(&mut self, event: Event<'_>, lines: &mut Vec<String>) {
        let coord = |p: Point| coord_on(self.size, p);
        match event {
            Event::Iteration(p) => {
                let secs = p.elapsed.as_secs_f64().max(1e-6);
                let pv: Vec<String> = p.pv.iter().map(|q| q.to_string()).collect();
                lines.push(format!(
                    "MESSAGE depth {}-{} score {} winrate {:.1}% nodes {} nps {:.0} time {} ms \
                     pv (RIF) {}",
                    p.depth,
                    p.seldepth,
                    p.score,
                    100.0 * eval::win_probability(p.score),
                    p.nodes,
                    p.nodes as f64 / secs,
                    p.elapsed.as_millis(),
                    pv.join(" ")
                ));
                if self.realtime
                    && let Some(&best) = p.pv.first()
                {
                    lines.push("MESSAGE REALTIME REFRESH".into());
                    lines.push(format!("MESSAGE REALTIME BEST {}", coord(best)));
                }
                if self.adaptive
                    && let Some(&best) = p.pv.first()
                    && self
                        .turn_time
                        .stop_after(self.waited + p.elapsed, self.trend.update(best, p.score))
                {
                    self.cancel.set(true);
                }
            }
            Event::Searching { mv, depth } if self.realtime && depth >= 4 => {
                lines.push(format!("MESSAGE REALTIME POS {}", coord(mv)));
            }
            Event::Searched {
                mv,
                depth,
                score,
                best,
                ..
            } if self.realtime && depth >= 4 => {
                lines.push(format!("MESSAGE REALTIME DONE {}", coord(mv)));
                if score <= -eval::MATE_BOUND {
                    lines.push(format!("MESSAGE REALTIME LOST {}", coord(mv)));
                } else if best {
                    lines.push(format!("MESSAGE REALTIME BEST {}", coord(mv)));
                }
            }
            _ => {}
        }
    }
}
