//! Text formats: one module per format, each a nom parser into a [`Setup`](crate::setup::Setup)
//! and a writer from a [`crate::board::Board`], plus format detection.

pub mod diagram;
pub mod moves;
pub mod order;
pub mod psq;
pub mod puzzle;
pub mod span;
pub mod write;

pub use diagram::DiagramError;
pub use moves::MovesError;
pub use psq::PsqError;
pub use puzzle::PuzzleError;

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
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Moves => "moves",
            Format::Diagram => "diagram",
            Format::Psq => "psq",
            Format::Puzzle => "puzzle",
        })
    }
}

impl Format {
    /// Guesses the format of a text: a `Piskvorky` header is `.psq`; a line starting with a
    /// puzzle key is a puzzle file; a line of five or more board cells is a diagram; anything
    /// else is read as a move list (whose parser then says what is wrong with it).
    pub fn detect(text: &str) -> Format {
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
            let cells = line.chars().filter(|&c| diagram::is_cell_char(c)).count();
            let others = line
                .chars()
                .filter(|&c| !c.is_whitespace() && !c.is_ascii_digit() && !diagram::is_cell_char(c))
                .count();
            if cells >= 5 && others == 0 && line.contains(['.', '+', '·']) {
                format = Format::Diagram;
            }
        }
        format
    }
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
        assert_eq!(Format::detect("x....\n.....\n"), Format::Diagram);
        assert_eq!(Format::detect(" 5 x . . . . 5\n"), Format::Diagram);
    }
}
