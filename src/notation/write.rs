//! A position written in any format tengen reads.

use super::order::{self, OrderError};
use super::puzzle::{self, Meta};
use super::{Format, diagram, moves, psq, sgf};
use crate::board::{Board, DEFAULT_SIZE};

/// Writes `board` in `format`; `meta` is kept when writing a puzzle. A move list and a `.psq`
/// file need a game order: a position no game reaches (or whose record the stones do not tell)
/// cannot be written in them. SGF writes a game record as moves and other stones as set-up
/// stones (see [`sgf::write`]).
pub fn write(board: &Board, meta: Option<&Meta>, format: Format) -> Result<String, OrderError> {
    Ok(match format {
        Format::Moves if board.total_stones() == 0 => return Err(OrderError::Empty),
        Format::Moves => moves::write(&order::game_order(board)?) + "\n",
        Format::Psq => psq::write(board.size(), &order::game_order(board)?),
        Format::Diagram => diagram::write(board),
        Format::Sgf => sgf::write(board)?,
        Format::Puzzle => {
            let default = Meta {
                id: "position".into(),
                ..Meta::default()
            };
            puzzle::write(meta.unwrap_or(&default), board)
        }
    })
}

/// Why a position cannot be a Gomoku Calculator link.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// The link carries no size: it opens on 15x15, another board than this one.
    #[error(
        "the link carries no board size and opens on {DEFAULT_SIZE}x{DEFAULT_SIZE}, but this board is {0}x{0}: write it --to moves or --to sgf"
    )]
    Size(u8),
    /// No game order (see [`write`]'s move lists).
    #[error(transparent)]
    Order(#[from] OrderError),
}

/// Writes `board` as a Gomoku Calculator link (`https://gomocalc.com/#/h8i9j10`), which
/// [`moves::parse`] reads back: its moves in game order, so a position needs one as a move
/// list does; the side to move is the one after them. The rule is not in the link.
pub fn url(board: &Board) -> Result<String, UrlError> {
    if board.size() != DEFAULT_SIZE {
        return Err(UrlError::Size(board.size()));
    }
    if board.total_stones() == 0 {
        return Err(OrderError::Empty.into());
    }
    Ok(moves::write_url(&order::game_order(board)?) + "\n")
}
