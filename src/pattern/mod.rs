//! Shapes a stone makes, and Renju forbidden points.

use std::fmt;

use serde::Serialize;

use crate::board::{Board, Point};

/// Why a point is forbidden for black under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Foul {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double four",
            Foul::DoubleThree => "double three",
        })
    }
}

/// Whether a black stone at the empty point `p` would be a foul under the board's rule
/// (always `None` outside renju). The seam where the forbidden-point judge plugs in.
pub fn foul(_board: &Board, _p: Point) -> Option<Foul> {
    None
}
