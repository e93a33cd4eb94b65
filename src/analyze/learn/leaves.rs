//! The positions the search asks the evaluation about, for a fit where the table is used: the
//! leaves and pruned nodes of game searches lie off the games' own lines (after a blunder, a
//! half-answered threat, a quiet move near a four), and a table fitted on game positions
//! alone has seen few of them.

use std::time::Duration;

use super::games::GameRecord;
use crate::analyze::{self, Settings};
use crate::board::Board;
use crate::rng::Rng;

/// What [`leaves`] samples, and from where.
#[derive(Clone, Copy, Debug)]
pub struct LeafPlan {
    /// Positions drawn from each game (its plies from `from_ply` on, before its last move).
    pub per_game: usize,
    /// The first ply drawn (0: the empty board).
    pub from_ply: usize,
    /// The analysis's time on each drawn position.
    pub time: Duration,
    /// Keep one static value's position in this many.
    pub every: u32,
    /// Seed of the draw.
    pub seed: u64,
}

/// Analyses positions drawn from `games` as `tengen analyze --time` does on one thread and
/// hands `each` a games-file line, `RULE ? MOVES`, for every sampled position whose static
/// value the search took (`?`: no game's result; a labeller scores it). Returns how many
/// positions were analysed.
pub fn leaves(games: &[GameRecord], plan: LeafPlan, mut each: impl FnMut(&str)) -> usize {
    let mut rng = Rng::new(plan.seed);
    let settings = Settings {
        time: Some(plan.time),
        sample_leaves: plan.every.max(1),
        ..Settings::default()
    };
    let mut searched = 0;
    for g in games {
        let mut plies: Vec<usize> = (plan.from_ply..g.moves.len()).collect();
        for i in (1..plies.len()).rev() {
            plies.swap(i, rng.below(i + 1));
        }
        plies.truncate(plan.per_game);
        plies.sort_unstable();
        for k in plies {
            let mut board = Board::new(15, g.rule).expect("15 is a board size");
            for &m in &g.moves[..k] {
                board.play(m);
            }
            if board.winner().is_some() {
                continue;
            }
            let Ok(analysis) = analyze::analyze(&board, &settings, |_| {}) else {
                continue;
            };
            searched += 1;
            for leaf in analysis.leaves {
                let moves: Vec<String> = leaf.iter().map(|p| p.to_string()).collect();
                each(&format!("{} ? {}", g.rule, moves.join(" ")));
            }
        }
    }
    searched
}
