//! Text formats: one module per format, each a nom parser into a [`Setup`](crate::setup::Setup)
//! and a writer from a [`crate::board::Board`], plus format detection.

pub mod diagram;
pub mod moves;
pub mod order;
pub mod psq;
pub mod puzzle;
pub mod sgf;
pub mod span;
pub mod write;

pub use diagram::DiagramError;
pub use moves::MovesError;
pub use psq::PsqError;
pub use puzzle::PuzzleError;
pub use sgf::SgfError;

use serde::Serialize;

/// A text format tengen reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A move list (`h8 i9 j10`) or a Gomoku Calculator URL.
    Moves,
    /// A board diagram.
    Diagram,
    /// A Piskvork `.psq` game file.
    Psq,
    /// A puzzle file (one or more `key: value` blocks).
    Puzzle,
    /// An SGF game record (`GM[4]`), one or more games.
    Sgf,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Moves => "moves",
            Format::Diagram => "diagram",
            Format::Psq => "psq",
            Format::Puzzle => "puzzle",
            Format::Sgf => "sgf",
        })
    }
}

impl Format {
    /// Guesses the format of a text: a text starting with `(` is SGF (no other format starts
    /// so); a `Piskvorky` header is `.psq`; a line starting with a puzzle key is a puzzle file;
    /// a line of five or more board cells is a diagram; anything else is read as a move list
    /// (whose parser then says what is wrong with it).
    pub fn detect(text: &str) -> Format {
        if text.trim_start().starts_with('(') {
            return Format::Sgf;
        }
        let lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let mut format = Format::Moves;
        for (i, line) in lines.enumerate() {
            if i == 0
                && line
                    .get(..9)
                    .is_some_and(|h| h.eq_ignore_ascii_case("piskvorky"))
            {
                return Format::Psq;
            }
            let key = line.split(':').next().unwrap_or("");
            if line.contains(':')
                && [
                    "id", "moves", "black", "white", "board", "rule", "size", "to-move",
                ]
                .contains(&key)
            {
                return Format::Puzzle;
            }
            if diagram_row(line) {
                format = Format::Diagram;
            }
        }
        format
    }
}

/// Whether a line reads as a diagram row: five or more cells, nothing but cells, marks (`#`)
/// and numbers, and not a move list. A move list such as `o1 o2 o3 o4 o5` is made of cell
/// letters too, but each of them is followed by a row number; a row without empty points
/// (`x o x o x`) has a cell that is not.
fn diagram_row(line: &str) -> bool {
    let (mut cells, mut move_like) = (0, true);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if diagram::is_cell_char(c) {
            cells += 1;
            let next_is_digit = chars.peek().is_some_and(char::is_ascii_digit);
            move_like &= c.is_ascii_alphabetic() && next_is_digit;
        } else if !(c.is_whitespace() || c.is_ascii_digit() || c == '#') {
            return false;
        }
    }
    cells >= 5 && !move_like
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_format() {
        assert_eq!(Format::detect("h8 i9"), Format::Moves);
        assert_eq!(Format::detect("https://gomocalc.com/#/h8"), Format::Moves);
        assert_eq!(
            Format::detect("Piskvorky 15x15, 11:11, 0\n8,8,0\n"),
            Format::Psq
        );
        assert_eq!(Format::detect("# c\nid: x\nmoves: h8\n"), Format::Puzzle);
        assert_eq!(Format::detect("\n (;GM[4];B[hh])"), Format::Sgf);
        assert_eq!(Format::detect("x....\n.....\n"), Format::Diagram);
        assert_eq!(Format::detect(" 5 x . . . . 5\n"), Format::Diagram);
        // Without empty points, still a diagram; cell letters with row numbers are moves.
        assert_eq!(Format::detect("xoxox\noxoxo\n"), Format::Diagram);
        assert_eq!(Format::detect("5 x o x o x 5\n"), Format::Diagram);
        assert_eq!(Format::detect("o1 o2 o3 o4 o5"), Format::Moves);
        assert_eq!(Format::detect("x1 X2 B3 W4 O5"), Format::Moves);
        // tengen's own marks: a forbidden point and ranked moves.
        assert_eq!(Format::detect(" 8 . # x 1 2 . . . 8\n"), Format::Diagram);
    }
}
