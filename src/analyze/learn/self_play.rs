//! tengen's own games, for a data set that needs no other engine.

use crate::analyze::{self, Settings};
use crate::board::{Board, Color, Point, Rule};
use crate::rng::Rng;

/// tengen's own games at a fixed search depth, each line of a games file. Game `k` starts from
/// `openings[k % len]` when there are openings (so a set's fit openings alone feed a fit),
/// otherwise from 2 to 6 random stones in the 7x7 block around the centre; then a random
/// legal move instead of the best with chance `noise`, for variety. `each` gets every game's
/// line as it ends, so that a long run keeps what it made.
pub fn self_play(
    rule: Rule,
    games: usize,
    depth: u32,
    noise: f64,
    seed: u64,
    openings: &[Vec<Point>],
    mut each: impl FnMut(&str),
) {
    let mut rng = Rng::new(seed);
    let settings = Settings {
        depth: Some(depth),
        hash_mb: 8,
        root_vct_nodes: 2_000,
        verify_nodes: 20_000,
        top: 1,
        game: true,
        ..Settings::default()
    };
    for k in 0..games {
        let mut board = Board::new(15, rule).expect("15 is a board size");
        if let Some(opening) = (!openings.is_empty()).then(|| &openings[k % openings.len()]) {
            for &p in opening {
                board.play(p);
            }
        }
        let opening = if openings.is_empty() {
            2 + rng.below(5)
        } else {
            0
        };
        while board.total_stones() < opening {
            let p =
                Point::new(4 + rng.below(7) as u8, 4 + rng.below(7) as u8).expect("on the board");
            if board.is_empty(p) {
                board.play(p);
            }
        }
        let mut result = "D";
        while board.total_stones() < 225 {
            if let Some(five) = board.winner() {
                result = if five.color == Color::Black { "B" } else { "W" };
                break;
            }
            let random = (rng.next_u64() % 1000) as f64 / 1000.0 < noise;
            let mv = if random {
                let me = board.to_move();
                let mut probe = board.clone();
                let near: Vec<Point> = analyze::moves::area(&board, 2)
                    .iter()
                    .filter(|&i| {
                        board.cell(i) == crate::board::Cell::Empty
                            && !crate::pattern::forbidden(&mut probe, me, i)
                    })
                    .map(Point::from_index)
                    .collect();
                if near.is_empty() {
                    break;
                }
                near[rng.below(near.len())]
            } else {
                match analyze::analyze(&board, &settings, |_| {}) {
                    Ok(a) => match a.candidates.first() {
                        Some(c) => c.mv,
                        None => break,
                    },
                    Err(_) => break,
                }
            };
            board.play(mv);
        }
        let moves: Vec<String> = board.history().iter().map(|p| p.to_string()).collect();
        each(&format!("{rule} {result} {}", moves.join(" ")));
    }
}
