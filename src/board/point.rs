//! Points, colours and rules: the small `Copy` vocabulary every other module speaks.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Smallest board edge tengen accepts.
pub const MIN_SIZE: u8 = 5;
/// Largest board edge tengen accepts (columns `a`..`v`).
pub const MAX_SIZE: u8 = 22;
/// Board edge used when nothing says otherwise.
pub const DEFAULT_SIZE: u8 = 15;

/// Wall cells around the playing area, so that walking up to five steps along a line from any
/// on-board point never leaves the cell array.
pub const PAD: usize = 5;
/// Row stride of the padded cell array: `MAX_SIZE + 2 * PAD` rounded to a power of two.
pub const STRIDE: usize = 32;
/// Cells in the padded array.
pub const CELLS: usize = STRIDE * STRIDE;
/// Index offsets of the four line directions: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A point on the board. `x` is the column from the left, `y` the row from the **bottom**, both
/// 0-based; the text form is RIF's: `h8` is `x = 7, y = 7`, the centre of a 15x15 board.
///
/// ```
/// use tengen::Point;
/// let p: Point = "h8".parse().unwrap();
/// assert_eq!((p.x(), p.y()), (7, 7));
/// assert_eq!(p.to_string(), "h8");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Point {
    x: u8,
    y: u8,
}

impl Point {
    /// A point from its 0-based column and row; `None` when either is past the largest board.
    pub fn new(x: u8, y: u8) -> Option<Point> {
        (x < MAX_SIZE && y < MAX_SIZE).then_some(Point { x, y })
    }

    /// The 0-based column, from the left: 0 is column `a`.
    pub fn x(self) -> u8 {
        self.x
    }

    /// The 0-based row, from the bottom: 0 is row 1.
    pub fn y(self) -> u8 {
        self.y
    }

    /// Whether the point lies on a board of edge `size`.
    pub fn on_board(self, size: u8) -> bool {
        self.x < size && self.y < size
    }

    /// Index of the point in the padded cell array.
    #[inline]
    pub fn index(self) -> usize {
        (self.y as usize + PAD) * STRIDE + self.x as usize + PAD
    }

    /// The point at a padded-array index (the caller knows the index is on the board).
    #[inline]
    pub fn from_index(index: usize) -> Point {
        Point {
            x: (index % STRIDE - PAD) as u8,
            y: (index / STRIDE - PAD) as u8,
        }
    }

    /// The column letter, `a` for column 0.
    pub fn column_letter(x: u8) -> char {
        (b'a' + x) as char
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Point::column_letter(self.x), self.y as u32 + 1)
    }
}

/// Why a point's text form was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a point: expected a column letter a-v and a row number 1-22, like h8")]
pub struct PointParseError(pub String);

impl FromStr for Point {
    type Err = PointParseError;

    fn from_str(s: &str) -> Result<Point, PointParseError> {
        let err = || PointParseError(s.to_string());
        let mut chars = s.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(err)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let row: u8 = digits.parse().map_err(|_| err())?;
        let x = letter.to_ascii_lowercase() as u8 - b'a';
        row.checked_sub(1)
            .and_then(|y| Point::new(x, y))
            .ok_or_else(err)
    }
}

impl Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A stone colour; black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Black, who moves first.
    Black,
    /// White, who moves second.
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour's name in lower case, `black` or `white`, as the text formats write it.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = String;

    fn from_str(s: &str) -> Result<Color, String> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(format!("'{s}' is not a colour: expected black or white")),
        }
    }
}

/// The winning rule.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Five or more in a row wins, for both colours.
    #[default]
    Freestyle,
    /// Exactly five wins, for both colours; an overline wins for nobody.
    Standard,
    /// Black wins with exactly five, white with five or more; black's double-three, double-four
    /// and overline are forbidden.
    Renju,
}

impl Rule {
    /// Every rule: freestyle, standard, renju.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// The rule's name in lower case, as `--rule` and the `rule:` puzzle key spell it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Whether `color` wins with an unbroken run of `run` stones.
    #[inline]
    pub fn wins(self, color: Color, run: usize) -> bool {
        if self.exact_five(color) {
            run == 5
        } else {
            run >= 5
        }
    }

    /// Whether only an exact five wins for `color` (so a six or longer is no win for it).
    #[inline]
    pub fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => color == Color::Black,
        }
    }

    /// Whether `color` has forbidden points under this rule.
    #[inline]
    pub fn has_fouls(self, color: Color) -> bool {
        self == Rule::Renju && color == Color::Black
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;

    fn from_str(s: &str) -> Result<Rule, String> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" => Ok(Rule::Freestyle),
            "standard" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            "gomoku" => Err(
                "'gomoku' names either rule: say freestyle (five or more wins) or standard \
                 (exactly five wins)"
                    .to_string(),
            ),
            _ => Err(format!(
                "'{s}' is not a rule: expected freestyle, standard or renju"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_text_round_trips_and_rejects_junk() {
        for s in ["a1", "h8", "o15", "v22"] {
            assert_eq!(s.parse::<Point>().unwrap().to_string(), s);
        }
        assert_eq!("H8".parse::<Point>().unwrap().to_string(), "h8");
        for s in ["", "h", "8", "h0", "w1", "a23", "h8x", "h123"] {
            assert!(s.parse::<Point>().is_err(), "{s}");
        }
    }

    #[test]
    fn index_round_trips() {
        for x in 0..MAX_SIZE {
            for y in 0..MAX_SIZE {
                let p = Point::new(x, y).unwrap();
                assert_eq!(Point::from_index(p.index()), p);
            }
        }
    }

    #[test]
    fn rule_win_lengths() {
        assert!(Rule::Freestyle.wins(Color::Black, 6));
        assert!(!Rule::Standard.wins(Color::White, 6));
        assert!(!Rule::Renju.wins(Color::Black, 6));
        assert!(Rule::Renju.wins(Color::White, 6));
        assert!(!Rule::Freestyle.wins(Color::Black, 4));
    }
}
