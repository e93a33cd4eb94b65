//! The games file: one game, or one scored position, a line (see [`super`]), and the
//! held-out split that keeps a game's positions together.

use crate::board::{Board, Point, Rule};
use crate::rng::Rng;

/// One line of a games file: a whole game, or one scored position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Its rule.
    pub rule: Rule,
    /// 1 black won, 0 white won, ½ a draw; `None` for a scored position of no game (`?`: a
    /// position a search judged, labelled by its score alone).
    pub black_score: Option<f32>,
    /// Every move, black first.
    pub moves: Vec<Point>,
    /// For a scored position (the one after `moves`): the engine's score for the side to
    /// move, in its units; infinite for a mate.
    pub score: Option<f64>,
}

impl GameRecord {
    /// Whether `self` is a later scored position of the same game as `prev` (the labeller
    /// writes a game's positions one after another, each a longer prefix of it).
    fn continues(&self, prev: &GameRecord) -> bool {
        self.score.is_some()
            && prev.score.is_some()
            && self.rule == prev.rule
            && self.black_score == prev.black_score
            && self.moves.starts_with(&prev.moves)
    }
}

/// A line of a games file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// From 1.
    pub line: usize,
    /// From 1: where the bad word starts.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a games file's text; replays every game to check its moves.
pub fn parse_games(text: &str) -> Result<Vec<GameRecord>, GameError> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut col = 0;
        let mut words = Vec::new();
        for w in line.split(' ') {
            if !w.is_empty() {
                words.push((col + 1, w));
            }
            col += w.len() + 1;
        }
        let err = |column: usize, m: String| GameError {
            line: n + 1,
            column,
            message: m,
        };
        let (c0, rule) = words[0];
        let rule: Rule = rule
            .parse()
            .map_err(|_| err(c0, format!("`{rule}` is not a rule")))?;
        let Some(&(c1, result)) = words.get(1) else {
            return Err(err(col, "no result (B, W, D or ?)".into()));
        };
        let black_score = match result {
            "B" => Some(1.0),
            "W" => Some(0.0),
            "D" => Some(0.5),
            "?" => None,
            _ => return Err(err(c1, format!("`{result}` is not B, W, D or ?"))),
        };
        let mut moves_end = words.len();
        let mut score = None;
        if let Some(eq) = words.iter().position(|&(_, w)| w == "=") {
            let Some(&(c, w)) = words.get(eq + 1) else {
                return Err(err(col, "no score after `=`".into()));
            };
            if let Some(&(c, _)) = words.get(eq + 2) {
                return Err(err(c, "nothing may follow the score".into()));
            }
            score = Some(match w {
                "+M" => f64::INFINITY,
                "-M" => f64::NEG_INFINITY,
                _ => match w.parse::<i32>() {
                    Ok(v) => f64::from(v),
                    Err(_) => {
                        return Err(err(
                            c,
                            format!("`{w}` is not a score (an integer, +M or -M)"),
                        ));
                    }
                },
            });
            moves_end = eq;
        }
        if black_score.is_none() && score.is_none() {
            return Err(err(c1, "`?` (no result) needs a score after `=`".into()));
        }
        let mut board = Board::new(15, rule).expect("15 is a board size");
        let mut moves = Vec::new();
        for &(c, w) in &words[2..moves_end] {
            let p: Point = w
                .parse()
                .map_err(|_| err(c, format!("`{w}` is not a point")))?;
            if p.x() >= 15 || p.y() >= 15 || !board.is_empty(p) {
                return Err(err(c, format!("{w} is off the board or taken")));
            }
            board.play(p);
            moves.push(p);
        }
        if moves.is_empty() {
            return Err(err(col, "a game without moves".into()));
        }
        games.push(GameRecord {
            rule,
            black_score,
            moves,
            score,
        });
    }
    Ok(games)
}

/// Splits games into (fit, held out): every game whose seeded draw falls below `share`
/// is held out. The scored positions of one game ([`GameRecord::continues`]) go together, so no
/// game is on both sides.
pub fn split(games: &[GameRecord], share: f64, seed: u64) -> (Vec<&GameRecord>, Vec<&GameRecord>) {
    let mut rng = Rng::new(seed);
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let mut held_last = false;
    for (k, g) in games.iter().enumerate() {
        if k == 0 || !g.continues(&games[k - 1]) {
            held_last = rng.unit() <= share;
        }
        if held_last {
            held.push(g);
        } else {
            fit.push(g);
        }
    }
    (fit, held)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn a_scored_position_reads_with_its_score_and_errors_say_where() {
        let text = "renju B h8 i9 = 87\nrenju B h8 i9 j10 = -M\nfreestyle D h8 = +M\n";
        let g = parse_games(text).unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].moves.len(), 2);
        assert_eq!(g[0].score, Some(87.0));
        assert_eq!(g[1].score, Some(f64::NEG_INFINITY));
        assert_eq!(g[2].score, Some(f64::INFINITY));
        assert!(g[1].continues(&g[0]) && !g[0].continues(&g[1]));
        let e = parse_games("renju B h8 i9 = 8x\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 17));
        assert!(e.message.contains("`8x` is not a score"), "{e:?}");
        let e = parse_games("renju B h8 i9 = 3 4\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 19));
        assert!(parse_games("renju B h8 =\n").is_err());
    }

    /// `?`: a scored position of no game, which needs its score.
    #[test]
    fn a_position_of_no_game_needs_a_score() {
        let g = parse_games("freestyle ? h8 i9 j10 = -120\n").unwrap();
        assert_eq!((g[0].black_score, g[0].score), (None, Some(-120.0)));
        let e = parse_games("freestyle B h8\nfreestyle ? h8 i9\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 11));
        assert!(e.message.contains("needs a score"), "{e:?}");
        let e = parse_games("freestyle X h8\n").unwrap_err();
        assert!(e.message.contains("is not B, W, D or ?"), "{e:?}");
    }

    #[test]
    fn the_scored_positions_of_one_game_are_held_out_together() {
        let mut text = String::new();
        let game = ["h8", "i9", "j10", "h9", "h10", "g11", "i11", "j12"];
        for g in 0..40 {
            let r = if g % 2 == 0 { "B" } else { "W" };
            // Each game its own first move, so no two games continue each other.
            let first = format!("{}{}", (b'a' + (g % 15) as u8) as char, 1 + g / 15);
            for k in 2..game.len() {
                let _ = writeln!(text, "renju {r} {first} {} = 0", game[..k].join(" "));
            }
        }
        let games = parse_games(&text).unwrap();
        let (fit, held) = split(&games, 0.3, 7);
        assert!(!fit.is_empty() && !held.is_empty());
        for h in &held {
            assert!(
                !fit.iter().any(|f| f.moves[0] == h.moves[0]),
                "a game on both sides"
            );
        }
    }
}
