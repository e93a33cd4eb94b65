//! A position written in any format tengen reads.

use super::order::{self, OrderError};
use super::puzzle::{self, Meta};
use super::{Format, diagram, moves, psq, sgf};
use crate::board::Board;

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
