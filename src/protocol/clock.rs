//! Time management: how long a move may take under the protocol's clocks, and when to stop
//! early.
//!
//! The manager gives a limit a move (`timeout_turn`), a limit a game (`timeout_match`) and,
//! before each move, what is left of it (`time_left`). A move gets a **hard** limit, the
//! analysis's time (it never runs past it), and a **soft** one: after each completed iteration
//! the brain stops once the soft limit, scaled by how the search is going, is spent.
//!
//! - Hard: the turn limit less a safety margin; with a game clock, also at most a quarter of
//!   the time left and three times its even share (the time left over the moves still to
//!   come, estimated from the stones on the board), less the margin.
//! - Soft: the hard limit with a turn limit alone (time saved on one move is worth nothing to
//!   the next, so the analysis's own phases decide when to stop); with a game clock, the even
//!   share.
//! - Scaling: a best move that has not changed for three iterations takes 0.6 of it; one that
//!   changed in the last iteration 1.3; a score that fell by 30 points or more since the last
//!   iteration 1.5, by 100 or more 2 (never past the hard limit, and the analysis starts no
//!   iteration after 55% of it, 75% in a freestyle or renju game: see
//!   `analyze::profile::GamePlan`). With a turn limit alone the scale is never below
//!   1: the time a stable move would save is worth nothing to the next move.

use std::time::Duration;

/// Safety margin taken off every limit: the time from the last look at the clock to the move
/// on the manager's side (the analysis's last phases, joining its threads, the pipe). Sized
/// from the longest moves measured through c-gomoku-cli on a loaded machine: see
/// docs/brain.md.
pub const MARGIN: Duration = Duration::from_millis(30);
/// A share of the turn limit also kept back: a loaded machine stretches the end of an
/// analysis (joining the threads, the last verification) in proportion to its length.
pub const MARGIN_SHARE: f64 = 0.02;
/// The least time a move gets: a move must come, however little is left.
pub const FLOOR: Duration = Duration::from_millis(10);
/// The turn limit when the manager sets none (the protocol's default is up to it).
pub const DEFAULT_TURN: Duration = Duration::from_secs(5);
/// `timeout_turn 0` means "play as fast as possible".
pub const FASTEST: Duration = Duration::from_millis(50);
/// The plies a game is expected to last, for sharing a game clock among the moves.
const EXPECTED_PLIES: usize = 90;
/// The fewest own moves still to come that a game clock is shared among.
const MIN_MOVES_LEFT: usize = 12;

/// The clocks the manager has set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Limit a move (`timeout_turn`); `Some(ZERO)` is "as fast as possible".
    pub turn: Option<Duration>,
    /// Limit a game (`timeout_match`); `None` for no game clock.
    pub game: Option<Duration>,
    /// What is left of the game's time (`time_left`); `None` when unlimited or not told.
    pub left: Option<Duration>,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            turn: Some(DEFAULT_TURN),
            game: None,
            left: None,
        }
    }
}

/// The time a move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnTime {
    /// The analysis's time: it never runs past it.
    pub hard: Duration,
    /// Stop after an iteration once this much (scaled, see [`TurnTime::stop_after`]) is spent.
    pub soft: Duration,
    /// Whether time a move saves is left for the moves to come (a game clock). With a turn
    /// limit alone it is not, and a stable best move does not end the move early.
    pub banked: bool,
}

impl Clock {
    /// The time a move with `stones` on the board may take.
    pub fn turn_time(&self, stones: usize) -> TurnTime {
        let turn = match self.turn {
            Some(Duration::ZERO) => FASTEST,
            Some(t) => t,
            None => DEFAULT_TURN,
        };
        let less_margin = |t: Duration| t.saturating_sub(MARGIN + t.mul_f64(MARGIN_SHARE));
        let mut hard = less_margin(turn);
        let mut soft = hard;
        let banked = self.game.is_some() && self.left.is_some();
        if let (Some(_), Some(left)) = (self.game, self.left) {
            let moves_left = (EXPECTED_PLIES.saturating_sub(stones) / 2).max(MIN_MOVES_LEFT);
            let share = left / moves_left as u32;
            hard = hard.min(less_margin((left / 4).min(share * 3)));
            soft = soft.min(share);
        }
        let hard = hard.max(FLOOR);
        TurnTime {
            hard,
            soft: soft.clamp(FLOOR.min(hard), hard),
            banked,
        }
    }

    /// Takes a move's time off the game's clock (the manager's next `time_left` corrects it).
    pub fn spend(&mut self, used: Duration) {
        if let Some(left) = self.left.as_mut() {
            *left = left.saturating_sub(used);
        }
    }
}

/// How the search is going, iteration by iteration: what the soft limit is scaled by.
#[derive(Clone, Debug, Default)]
pub struct Trend {
    best: Option<(crate::Point, i32)>,
    /// Iterations the best move has stayed the same.
    stable: u32,
}

impl Trend {
    /// Records an iteration's best move and score; returns the soft limit's new scale.
    pub fn update(&mut self, best: crate::Point, score: i32) -> f64 {
        let mut scale = 1.0;
        match self.best {
            Some((mv, _)) if mv == best => {
                self.stable += 1;
                if self.stable >= 3 {
                    scale = 0.6;
                }
            }
            Some(_) => {
                self.stable = 0;
                scale = 1.3;
            }
            None => {}
        }
        if let Some((_, last)) = self.best {
            let drop = last - score;
            if drop >= 100 {
                scale *= 2.0;
            } else if drop >= 30 {
                scale *= 1.5;
            }
        }
        self.best = Some((best, score));
        scale
    }
}

impl TurnTime {
    /// Whether to stop after an iteration ended at `elapsed`, the soft limit scaled by `scale`.
    /// Without a game clock the scale never shortens the move: the time a stable best move
    /// would save is lost, not kept for later.
    pub fn stop_after(&self, elapsed: Duration, scale: f64) -> bool {
        let scale = if self.banked { scale } else { scale.max(1.0) };
        elapsed >= self.soft.mul_f64(scale).min(self.hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_turn_limit_alone() {
        let clock = Clock {
            turn: Some(ms(1000)),
            game: None,
            left: None,
        };
        let b = clock.turn_time(10);
        assert_eq!(b.hard, ms(1000 - 30 - 20));
        assert_eq!(b.soft, b.hard);
        // Fastest and tiny limits still leave the floor.
        let fast = Clock {
            turn: Some(Duration::ZERO),
            ..clock
        };
        assert_eq!(fast.turn_time(0).hard, ms(50 - 30 - 1));
        let tiny = Clock {
            turn: Some(ms(5)),
            ..clock
        };
        assert_eq!(tiny.turn_time(0).hard, FLOOR);
    }

    #[test]
    fn a_game_clock_is_shared_among_the_moves_to_come() {
        let clock = Clock {
            turn: Some(ms(5000)),
            game: Some(ms(60_000)),
            left: Some(ms(60_000)),
        };
        // 10 stones: (90 - 10) / 2 = 40 moves to come, 1.5 s each.
        let b = clock.turn_time(10);
        assert_eq!(b.soft, ms(1500));
        assert_eq!(b.hard, ms(4500) - MARGIN - ms(90));
        // Late in a game with little left: never more than a quarter of it.
        let late = Clock {
            left: Some(ms(2000)),
            ..clock
        };
        let b = late.turn_time(150);
        assert!(b.hard <= ms(500), "{b:?}");
        assert!(b.soft <= b.hard);
        // Nothing left: the floor.
        let out = Clock {
            left: Some(Duration::ZERO),
            ..clock
        };
        assert_eq!(out.turn_time(50).hard, FLOOR);
    }

    #[test]
    fn stability_and_a_falling_score_scale_the_soft_limit() {
        let p = |s: &str| s.parse::<crate::Point>().unwrap();
        let mut t = Trend::default();
        assert_eq!(t.update(p("h8"), 10), 1.0);
        assert_eq!(t.update(p("h8"), 12), 1.0);
        assert_eq!(t.update(p("h8"), 12), 1.0);
        assert_eq!(t.update(p("h8"), 12), 0.6);
        assert_eq!(t.update(p("i9"), 12), 1.3);
        assert_eq!(t.update(p("i9"), -40), 1.5);
        assert_eq!(t.update(p("j9"), -200), 2.6);
        let b = TurnTime {
            hard: ms(900),
            soft: ms(400),
            banked: true,
        };
        assert!(!b.stop_after(ms(300), 1.0));
        assert!(b.stop_after(ms(300), 0.6));
        assert!(!b.stop_after(ms(800), 2.6));
        assert!(b.stop_after(ms(900), 2.6));
    }

    #[test]
    fn with_a_turn_limit_alone_a_stable_move_takes_its_whole_time() {
        let p = |s: &str| s.parse::<crate::Point>().unwrap();
        let turn_only = Clock {
            turn: Some(ms(1000)),
            game: None,
            left: None,
        }
        .turn_time(10);
        assert!(!turn_only.banked);
        let mut t = Trend::default();
        let mut scale = 1.0;
        for _ in 0..4 {
            scale = t.update(p("h8"), 12);
        }
        assert_eq!(scale, 0.6);
        // The stable scale would stop at 0.6 of the limit; the move goes on to the limit.
        assert!(!turn_only.stop_after(ms(600), scale));
        assert!(turn_only.stop_after(turn_only.hard, scale));
        // Under a game clock the time saved is kept, and the stable move stops early.
        let clocked = Clock {
            turn: Some(ms(5000)),
            game: Some(ms(60_000)),
            left: Some(ms(60_000)),
        }
        .turn_time(10);
        assert!(clocked.banked);
        assert!(clocked.stop_after(clocked.soft.mul_f64(0.7), scale));
    }
}
