//! JSON documents tengen prints. Each type here is the schema of one command's output; field
//! names are stable. Points are RIF text (`h8`: column from the left, row from the bottom).

use serde::{Deserialize, Serialize};

use crate::board::{Board, Color, Point, Rule};

/// `tengen show --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub size: u8,
    pub rule: Rule,
    pub to_move: Color,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    /// The game record, when the input gave one.
    pub moves: Option<Vec<Point>>,
    pub last_move: Option<Point>,
    /// Always `"rif"`: column letter from the left, row number from the bottom.
    pub coordinates: String,
    /// The puzzle id, when the position came from a puzzle file.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<String>,
}

impl Position {
    pub fn of(board: &Board, id: Option<&str>) -> Position {
        Position {
            size: board.size(),
            rule: board.rule(),
            to_move: board.to_move(),
            black: board.stones(Color::Black).collect(),
            white: board.stones(Color::White).collect(),
            moves: board.record().map(<[Point]>::to_vec),
            last_move: board.last_move(),
            coordinates: "rif".into(),
            id: id.map(str::to_string),
        }
    }
}
