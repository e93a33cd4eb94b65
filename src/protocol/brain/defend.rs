//! `YXSEARCHDEFEND`: which moves hold against the opponent's forced win.

use std::io::{self, Write};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::Brain;
use crate::board::Point;
use crate::pattern;
use crate::solve::task::{Mode, Task};
use crate::solve::{Outcome, verify};

impl<W: Write> Brain<W> {
    /// `YXSEARCHDEFEND`: every legal move of the side to move, tested against the opponent's
    /// forced win (its VCT, threat limit 2) after it, within the move's time. A move whose
    /// refutation is found and verified loses (`MESSAGE REALTIME LOST x,y`); one after which
    /// the solver proves no win holds; the rest are unknown. Answers `MESSAGE DEFEND` lines
    /// and then the holding moves on one line (`x,y x,y …`), or `NONE`.
    pub(super) fn search_defend(&mut self) -> io::Result<()> {
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        let me = game.own.unwrap_or_else(|| game.next_by_count());
        let board = game.board(self.rule, me);
        let stones: Vec<Point> = game.stones.iter().map(|s| s.0).collect();
        if board.winner().is_some() {
            return self.say("ERROR the game is over");
        }
        let turn_time = self.info.clock.turn_time(game.stones.len());
        let deadline = match self.options.fixed {
            Some(_) => Instant::now() + Duration::from_secs(3600),
            None => Instant::now() + turn_time.hard,
        };
        self.cancel.set(self.stops.load(Relaxed) > 0);
        // The threat solver of the kept tables: no memory beyond `max_memory`.
        let settings = self.settings(1, turn_time);
        if !self.make_tables(&settings)? {
            return Ok(());
        }
        let solver = self.tables.as_mut().expect("made above").solver();
        let mut scratch = board.clone();
        let mut moves: Vec<Point> = board
            .empty_points()
            .filter(|p| !pattern::forbidden(&mut scratch, me, p.index()))
            .collect();
        // Nearest the stones first, so that a cut-off leaves the far ones unknown.
        let centre = |p: &Point| {
            stones
                .iter()
                .map(|q| {
                    (i32::from(p.x()) - i32::from(q.x()))
                        .abs()
                        .max((i32::from(p.y()) - i32::from(q.y())).abs())
                })
                .min()
                .unwrap_or(0)
        };
        moves.sort_by_cached_key(centre);
        let (mut holds, mut lost, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
        let n = moves.len().max(1) as u32;
        // Fixed settings (tests, fuzzing): the root VCT's node budget shared among the moves,
        // at least `FIXED_DEFEND_NODES` each, nearest first; no clock.
        let mut nodes_left = self.options.fixed.as_ref().map(|f| f.root_vct_nodes);
        for (k, &m) in moves.iter().enumerate() {
            let now = Instant::now();
            if now >= deadline || self.cancel.is_set() || nodes_left == Some(0) {
                unknown.extend_from_slice(&moves[k..]);
                break;
            }
            let mut after = board.clone();
            if after.five_points(me).contains(m.index()) {
                holds.push(m);
                continue;
            }
            after.play(m);
            let mut t = Task::new(Mode::Vct, me.opponent());
            t.limits.cancel = Some(self.cancel);
            t.verify = false;
            match nodes_left.as_mut() {
                Some(left) => {
                    let each = (*left / u64::from(n - k as u32)).max(FIXED_DEFEND_NODES);
                    t.limits.nodes = each.min(*left);
                    *left -= t.limits.nodes;
                }
                None => {
                    t.limits.nodes = u64::MAX;
                    let share = (deadline - now) / (n - k as u32).max(1);
                    t.time = Some(share.max(Duration::from_millis(5)));
                }
            }
            let verdict = solver.run(&after, &t);
            match verdict {
                Ok(v) if v.outcome == Outcome::NoWin => holds.push(m),
                Ok(v) if v.outcome == Outcome::Win => {
                    let checked = v.proof.as_ref().is_some_and(|proof| {
                        verify::proof_with(solver.vct(), &after, me.opponent(), proof, t.limits)
                            .is_ok()
                    });
                    if checked {
                        lost.push(m);
                    } else {
                        unknown.push(m);
                    }
                }
                _ => unknown.push(m),
            }
        }
        self.cancel.set(self.stops.load(Relaxed) > 0);
        let game = self.game.as_ref().expect("checked");
        let list = |v: &[Point]| -> String {
            v.iter()
                .map(|&p| game.coord(p).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (h, l, u) = (list(&holds), list(&lost), list(&unknown));
        let mut lines = Vec::new();
        if self.realtime {
            for &p in &lost {
                lines.push(format!("MESSAGE REALTIME LOST {}", game.coord(p)));
            }
        }
        lines.push(format!("MESSAGE DEFEND holds {} move(s): {h}", holds.len()));
        lines.push(format!("MESSAGE DEFEND loses {} move(s): {l}", lost.len()));
        lines.push(format!(
            "MESSAGE DEFEND unknown {} move(s): {u}",
            unknown.len()
        ));
        lines.push(if holds.is_empty() { "NONE".into() } else { h });
        for l in lines {
            self.say(&l)?;
        }
        Ok(())
    }
}

/// The fewest nodes `YXSEARCHDEFEND` gives a move under fixed settings.
pub(super) const FIXED_DEFEND_NODES: u64 = 20;
