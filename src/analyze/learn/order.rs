//! How well the root's static move order foresees a stronger player's choice: for each
//! position of a set of games, the rank of the move played among the root's candidates as
//! [`crate::analyze`] orders them before any search (what each move makes and stops). The
//! figure a learned move order must beat (issue 61's hit rates).

use super::GameRecord;
use crate::analyze::Settings;
use crate::analyze::learned::{Evaluator, RuleTables};
use crate::analyze::root::{self, Start};
use crate::board::{Board, Point, Rule};

/// The ranks counted: the move played among the first 1, 3 and 5 candidates.
pub const TOPS: [usize; 3] = [1, 3, 5];

/// The counts over a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// Positions counted.
    pub positions: usize,
    /// How many had the move played among the first [`TOPS`] candidates.
    pub within: [usize; 3],
    /// How many had it outside the candidates altogether (too far from the stones, or a
    /// point the threat rules leave out).
    pub absent: usize,
    /// The sum of the move's ranks (from 1) where it was a candidate.
    pub rank_sum: usize,
}

impl Hits {
    /// The share of positions with the move among the first `TOPS[k]`.
    pub fn rate(&self, k: usize) -> f64 {
        self.within[k] as f64 / self.positions.max(1) as f64
    }
}

/// The hits of the root's order on every position of `games` from ply `from_ply` on (the
/// moves before are the opening's, nobody's choice), where the side to move does not make a
/// five at once (no order is asked there). Games of another rule are skipped.
pub fn order_hits(games: &[&GameRecord], rule: Rule, from_ply: usize) -> Hits {
    let settings = Settings::default();
    let mut hits = Hits::default();
    each_position(games, rule, from_ply, |board, mv| {
        count(board, mv, &settings, &mut hits)
    });
    hits
}

/// The hits of the table's one-ply order on the same positions as [`order_hits`]: the root's
/// candidates ranked by the static value of the position each leaves (the evaluation of
/// `tables`, for the side that moved), ties in the root's order. How well the evaluation
/// alone tells a stronger player's move from its siblings: what the search's last ply reads.
pub fn value_hits(games: &[&GameRecord], rule: Rule, from_ply: usize, tables: &RuleTables) -> Hits {
    let settings = Settings::default();
    let mut hits = Hits::default();
    // One packing of the tables, then a fresh count of each position from it.
    let empty = Board::new(15, rule).expect("15 is a board size");
    let mut e = Evaluator::with_rule_tables(&empty, tables);
    each_position(games, rule, from_ply, |board, mv| {
        let Start::Moves(order) = root::start(board, &settings) else {
            return;
        };
        let mut b = board.clone();
        e.reset(&b);
        let mut ranked: Vec<(i32, u16)> = order
            .iter()
            .map(|&(_, m)| {
                b.play(Point::from_index(m as usize));
                e.play(&b, m as usize);
                let v = -e.evaluate(&b);
                e.undo();
                b.undo();
                (v, m)
            })
            .collect();
        // A stable sort: ties keep the root's order.
        ranked.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        count_rank(&ranked, mv, &mut hits);
    });
    hits
}

/// Calls `visit` with every position of the games of `rule` in `games` (whole games, not
/// scored positions) from ply `from_ply` on, and the move played there.
pub(super) fn each_position(
    games: &[&GameRecord],
    rule: Rule,
    from_ply: usize,
    mut visit: impl FnMut(&Board, Point),
) {
    for game in games.iter().filter(|g| g.rule == rule && g.score.is_none()) {
        let Some(mut board) = Board::new(15, rule) else {
            continue;
        };
        for (ply, &mv) in game.moves.iter().enumerate() {
            if ply >= from_ply {
                visit(&board, mv);
            }
            board.play(mv);
        }
    }
}

/// Counts the rank of `played` in the root's order on `board`.
fn count(board: &Board, played: Point, settings: &Settings, hits: &mut Hits) {
    let Start::Moves(order) = root::start(board, settings) else {
        return;
    };
    count_rank(&order, played, hits);
}

/// Counts the rank of `played` in `order` (best first).
fn count_rank(order: &[(i32, u16)], played: Point, hits: &mut Hits) {
    hits.positions += 1;
    match order
        .iter()
        .position(|&(_, m)| m as usize == played.index())
    {
        Some(k) => {
            hits.rank_sum += k + 1;
            for (n, &top) in hits.within.iter_mut().zip(&TOPS) {
                *n += usize::from(k < top);
            }
        }
        None => hits.absent += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::learn::parse_games;

    /// Black's block of white's four is the root's first candidate, a move far from the stones
    /// is none, and the opening's moves are not counted.
    #[test]
    fn ranks_the_move_played_in_the_root_order() {
        // White's d4 e4 f4 g4 is a four: black must take c4 or h4 (h4 taken: c4).
        let games = parse_games(
            "freestyle W h8 d4 h9 e4 h10 f4 a15 g4 h4 b2 c4\n\
             freestyle W h8 d4 h9 e4 h10 f4 a15 g4 c4 h4\n",
        )
        .unwrap();
        let refs: Vec<&GameRecord> = games.iter().collect();
        // The last move of each: black's block (c4, the only one) and white's five-making h4.
        let blocks = order_hits(&refs[..1], Rule::Freestyle, 10);
        assert_eq!(blocks.positions, 1);
        assert_eq!(blocks.within, [1, 1, 1]);
        assert_eq!(blocks.rank_sum, 1);
        // a15 (ply 6) is nowhere near a root candidate of that position.
        let far = order_hits(&refs[..1], Rule::Freestyle, 6);
        // Plies 6, 7, 8 and 10: at ply 9 white has a five to make.
        assert_eq!(far.positions, 4);
        assert_eq!(far.absent, 1, "{far:?}");
        assert!(far.rate(2) < 1.0);
        // White's h4 makes five: the root offers that move alone, not an order, and is skipped.
        let five = order_hits(&refs[1..], Rule::Freestyle, 9);
        assert_eq!(five.positions, 0, "{five:?}");
    }
}
