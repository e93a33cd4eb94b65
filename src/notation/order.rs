//! A move order for stones placed with none, so a composed position can be written as a move
//! list or a `.psq` game: black and white alternate from black, no move completes a win before
//! the end, and under renju no black move lands on a forbidden point.

use crate::board::{Board, Color, Point};
use crate::pattern;

/// Why a position cannot be written as a game record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// The empty board: a move list of it would be empty, and empty input is refused.
    #[error("the empty board has no move list; write it as a diagram or puzzle instead")]
    Empty,
    /// Stone counts no game reaches with this side to move.
    #[error(
        "these stones cannot come from a game: {black} black and {white} white with {to_move} to move (a game gives black as many stones as white with black to move, or one more with white to move); write it as a diagram or puzzle instead"
    )]
    Counts {
        /// Black stones on the board.
        black: usize,
        /// White stones on the board.
        white: usize,
        /// The side to move.
        to_move: Color,
    },
    /// A game record whose length says the other side is to move.
    #[error(
        "the game record has {}, so {expected} would be to move, but this position has {to_move} to move; write it as a diagram or puzzle instead",
        crate::words::plural(*.moves, "move", "moves")
    )]
    SideMismatch {
        /// Moves in the record.
        moves: usize,
        /// The side the record leaves to move.
        expected: Color,
        /// The side the position has to move.
        to_move: Color,
    },
    /// No order of the stones replays without a five or a forbidden move on the way (or the
    /// search gave up before finding one).
    #[error(
        "no order of these stones replays legally (every order passes through a five or a forbidden move); write it as a diagram or puzzle instead"
    )]
    NoLegalOrder,
}

/// Steps the order search may take before it gives up.
const BUDGET: usize = 200_000;

/// The game record of the board, or an order of its stones that replays legally to it.
pub fn game_order(board: &Board) -> Result<Vec<Point>, OrderError> {
    let (black, white) = (
        board.stone_count(Color::Black),
        board.stone_count(Color::White),
    );
    if let Some(record) = board.record() {
        let expected = if record.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if expected != board.to_move() {
            return Err(OrderError::SideMismatch {
                moves: record.len(),
                expected,
                to_move: board.to_move(),
            });
        }
        return Ok(record.to_vec());
    }
    let fits = match board.to_move() {
        Color::Black => black == white,
        Color::White => black == white + 1,
    };
    if !fits {
        return Err(OrderError::Counts {
            black,
            white,
            to_move: board.to_move(),
        });
    }
    let mut replay = Board::new(board.size(), board.rule()).ok_or(OrderError::NoLegalOrder)?;
    let mut left = [
        board.stones(Color::Black).collect::<Vec<_>>(),
        board.stones(Color::White).collect(),
    ];
    let mut budget = BUDGET;
    if search(&mut replay, &mut left, &mut budget) {
        Ok(replay.history().to_vec())
    } else {
        Err(OrderError::NoLegalOrder)
    }
}

fn search(replay: &mut Board, left: &mut [Vec<Point>; 2], budget: &mut usize) -> bool {
    let side = replay.to_move();
    if left[side.index()].is_empty() {
        return left[side.opponent().index()].is_empty();
    }
    for i in 0..left[side.index()].len() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let p = left[side.index()][i];
        if replay.rule().has_fouls(side) && pattern::foul(replay, p).is_some() {
            continue;
        }
        replay.play(p);
        if replay.five_through(p).is_none() {
            left[side.index()].swap_remove(i);
            if search(replay, left, budget) {
                return true;
            }
            left[side.index()].push(p);
            let last = left[side.index()].len() - 1;
            left[side.index()].swap(i, last);
        }
        replay.undo();
    }
    false
}
