//! The game in progress: its stones in the order they came, and the protocol's coordinates.

use crate::board::{Board, Color, Point, Rule};
use crate::protocol::command::{BoardKind, Coord};

/// A game in progress: the board's size and the stones in the order they came.
#[derive(Clone, Debug)]
pub(super) struct GameInPlay {
    pub(super) size: u8,
    pub(super) stones: Vec<(Point, Color)>,
    /// The brain's colour, once known.
    pub(super) own: Option<Color>,
}

impl GameInPlay {
    pub(super) fn new(size: u8) -> GameInPlay {
        GameInPlay {
            size,
            stones: Vec::new(),
            own: None,
        }
    }

    /// A game of `points` played in turn, black first.
    pub(super) fn alternating(size: u8, points: impl IntoIterator<Item = Point>) -> GameInPlay {
        let mut g = GameInPlay::new(size);
        let mut c = Color::Black;
        for p in points {
            g.stones.push((p, c));
            c = c.opponent();
        }
        g
    }

    /// The colour that moves next by the stone counts (black when they are equal).
    pub(super) fn next_by_count(&self) -> Color {
        let black = self.stones.iter().filter(|s| s.1 == Color::Black).count();
        if black > self.stones.len() - black {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The board with `to_move` to move.
    pub(super) fn board(&self, rule: Rule, to_move: Color) -> Board {
        let mut board = Board::new(self.size, rule).expect("the size was checked at START");
        for &(p, c) in &self.stones {
            board.put(p, c);
        }
        board.set_to_move(to_move);
        board
    }

    pub(super) fn point(&self, c: Coord) -> Result<Point, String> {
        let n = u32::from(self.size);
        if c.x >= n || c.y >= n {
            return Err(format!(
                "{c} is off the {n}x{n} board (x and y run from 0 to {})",
                n - 1
            ));
        }
        Ok(Point::new(c.x as u8, (n - 1 - c.y) as u8).expect("on the board"))
    }

    pub(super) fn coord(&self, p: Point) -> Coord {
        coord_on(self.size, p)
    }

    pub(super) fn taken(&self, p: Point) -> bool {
        self.stones.iter().any(|s| s.0 == p)
    }
}

/// An open `BOARD` block.
pub(super) struct Block {
    pub(super) kind: BoardKind,
    pub(super) stones: Vec<(Coord, u32)>,
    /// The first bad line in it, reported at `DONE`.
    pub(super) error: Option<String>,
}

/// The protocol's coordinate of `p` on a board of `size` (rows counted from the top).
pub(super) fn coord_on(size: u8, p: Point) -> Coord {
    Coord {
        x: u32::from(p.x()),
        y: u32::from(size - 1 - p.y()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_count_rows_from_the_top() {
        let g = GameInPlay::new(15);
        let p = g.point(Coord { x: 0, y: 0 }).unwrap();
        assert_eq!(p.to_string(), "a15");
        let p = g.point(Coord { x: 7, y: 7 }).unwrap();
        assert_eq!(p.to_string(), "h8");
        assert_eq!(g.coord("a1".parse().unwrap()), Coord { x: 0, y: 14 });
        assert!(g.point(Coord { x: 15, y: 0 }).is_err());
    }
}
