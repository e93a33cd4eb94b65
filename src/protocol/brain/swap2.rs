//! The swap2 opening (`SWAP2BOARD`): its three stages, decided from the analyzer's scores.

use std::io::{self, Write};

use super::Brain;
use super::game::GameInPlay;
use super::think::choose;
use crate::analyze::{Analysis, Bound};
use crate::board::{Board, Color, Point};

impl<W: Write> Brain<W> {
    /// A swap2 stage, decided from the analyzer's scores.
    ///
    /// - Empty board: the brain places three stones (black, white, black), the 3-stone
    ///   opening of [`OPENINGS`] the analyzer scores closest to even.
    /// - Three stones: with white to move, white's score `s`. Below −[`SWAP_MARGIN`] the
    ///   brain swaps (takes black); above +[`SWAP_MARGIN`] it plays white's best move;
    ///   between, it places two more stones (white's best move, then the black reply whose
    ///   score is closest to even) and leaves the choice to the opponent.
    /// - Five stones: below 0 the brain swaps, else it plays white's best move.
    pub(super) fn swap2(&mut self) -> io::Result<()> {
        let game = self.game.as_ref().expect("set");
        // Stones in order alternate black, white: re-colour them so.
        let mut g = GameInPlay::alternating(game.size, game.stones.iter().map(|s| s.0));
        match g.stones.len() {
            0 => {
                let centre = game.size / 2;
                let mut best: Option<(i32, Vec<Point>)> = None;
                for opening in OPENINGS {
                    let stones: Option<Vec<Point>> = opening
                        .iter()
                        .map(|&(dx, dy)| {
                            let x = i32::from(centre) + dx;
                            let y = i32::from(centre) + dy;
                            (x >= 0 && y >= 0 && x < i32::from(g.size) && y < i32::from(g.size))
                                .then(|| Point::new(x as u8, y as u8))
                                .flatten()
                        })
                        .collect();
                    let Some(stones) = stones else { continue };
                    let mut trial = GameInPlay::alternating(g.size, stones.iter().copied());
                    trial.own = Some(Color::White);
                    self.game = Some(trial);
                    let score = self.quick_score()?;
                    if best.as_ref().is_none_or(|(s, _)| score.abs() < s.abs()) {
                        best = Some((score, stones));
                    }
                }
                let (score, stones) = best.expect("the first opening fits every board");
                self.debug(&format!("swap2 opening scored {score} for white"))?;
                let placed = GameInPlay::alternating(g.size, stones.iter().copied());
                let text: Vec<String> = stones
                    .iter()
                    .map(|&p| placed.coord(p).to_string())
                    .collect();
                self.game = Some(placed);
                self.say(&text.join(" "))
            }
            3 | 5 => {
                let five = g.stones.len() == 5;
                g.own = Some(Color::White);
                self.game = Some(g);
                let Some((mut board, analysis)) = self.analyse(1, false)? else {
                    return Ok(());
                };
                let Some(best) = analysis.candidates.first().cloned() else {
                    return self.say("ERROR no legal move is left");
                };
                let s = best.score;
                self.debug(&format!("swap2: white scores {s}"))?;
                if s < if five { 0 } else { -SWAP_MARGIN } {
                    if let Some(g) = self.game.as_mut() {
                        g.own = Some(Color::Black);
                    }
                    return self.say("SWAP");
                }
                let Some((mv, _)) = choose(&mut board, &analysis.candidates) else {
                    return self.say("ERROR no legal move is left");
                };
                if five || s > SWAP_MARGIN {
                    let game = self.game.as_mut().expect("set");
                    game.stones.push((mv, Color::White));
                    game.own = Some(Color::White);
                    let c = game.coord(mv);
                    return self.say(&c.to_string());
                }
                // Balanced: white's move, then the black reply closest to even.
                let game = self.game.as_mut().expect("set");
                game.stones.push((mv, Color::White));
                game.own = Some(Color::Black);
                let Some((_, reply)) = self.analyse_all()? else {
                    return Ok(());
                };
                let game = self.game.as_mut().expect("set");
                let pick = reply
                    .candidates
                    .iter()
                    .filter(|c| c.bound == Bound::Exact && c.mate_in.is_none())
                    .min_by_key(|c| c.score.abs())
                    .or(reply.candidates.first());
                let Some(pick) = pick else {
                    return self.say("ERROR no legal move is left");
                };
                game.stones.push((pick.mv, Color::Black));
                game.own = None;
                let text = format!("{} {}", game.coord(mv), game.coord(pick.mv));
                self.say(&text)
            }
            n => self.say(&format!("ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {n}")),
        }
    }

    /// A short search's score of the position for the side to move (a tenth of the move's
    /// time), for choosing among swap2 openings.
    pub(super) fn quick_score(&mut self) -> io::Result<i32> {
        let clock = self.info.clock;
        let turn_time = clock.turn_time(0);
        self.info.clock.turn = Some(turn_time.hard / (OPENINGS.len() as u32 * 2).max(1));
        self.info.clock.game = None;
        let scored = self.analyse(1, false);
        self.info.clock = clock;
        Ok(scored?
            .and_then(|(_, a)| a.candidates.first().map(|c| c.score))
            .unwrap_or(0))
    }

    /// Every candidate scored exactly, within the move's time.
    pub(super) fn analyse_all(&mut self) -> io::Result<Option<(Board, Analysis)>> {
        self.analyse(1, true)
    }
}

/// Below this score (white's, in evaluation points) the brain swaps at swap2's second stage,
/// above it plays white; between, it places two more stones.
pub(super) const SWAP_MARGIN: i32 = 60;

/// Three-stone openings (black, white, black) as offsets from the centre, `x` right and `y`
/// up: a few direct and indirect shapes that the analyzer then scores for swap2.
pub(super) const OPENINGS: [[(i32, i32); 3]; 6] = [
    [(0, 0), (1, 0), (2, 2)],
    [(0, 0), (1, 0), (0, 3)],
    [(0, 0), (1, 1), (3, 0)],
    [(0, 0), (1, 1), (-1, 3)],
    [(0, 0), (2, 0), (0, 2)],
    [(0, 0), (1, 2), (3, 1)],
];
