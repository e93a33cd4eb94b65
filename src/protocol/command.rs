//! One protocol line as the brain reads it: a command with its arguments, a stone of a
//! `BOARD` block, or why the line means nothing. Parsing never panics and never allocates more
//! than the line holds; coordinates stay the protocol's (`x,y`, 0-based, `y` from the top)
//! until the brain turns them into points.

use std::fmt;

/// A protocol coordinate: `x` from the left, `y` from the **top**, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// Column, from the left.
    pub x: u32,
    /// Row, from the top.
    pub y: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Which block a `BOARD`-like command opens: what the brain does at its `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    /// `BOARD`: set the position, then move.
    Play,
    /// `YXBOARD`: set the position and say nothing.
    Set,
    /// `SWAP2BOARD`: an opening stage of swap2 (0, 3 or 5 stones), decided by the brain.
    Swap2,
}

/// A parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// `START size`.
    Start(u32),
    /// `RECTSTART width,height`.
    RectStart(u32, u32),
    /// `RESTART`.
    Restart,
    /// `BEGIN`: the brain moves first.
    Begin,
    /// `TURN x,y`: the opponent's move; the brain answers with its own.
    Turn(Coord),
    /// `BOARD`, `YXBOARD` or `SWAP2BOARD`: stone lines follow, then `DONE`.
    Board(BoardKind),
    /// `x,y,who` inside a board block: 1 the brain's stone, 2 the opponent's, 3 a mark.
    Stone(Coord, u32),
    /// `DONE`: the end of a board block.
    Done,
    /// `TAKEBACK x,y`.
    Takeback(Coord),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `PLAY x,y`: the brain plays this move as its own and echoes it.
    Play(Coord),
    /// `INFO key value`, the key lowercased (the value as given).
    Info(String, String),
    /// `YXNBEST n`.
    NBest(u32),
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `STOP` or `YXSTOP`.
    Stop,
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXSHOWINFO`.
    ShowInfo,
    /// `YXSEARCHDEFEND`.
    SearchDefend,
    /// An empty line (ignored).
    Blank,
    /// A command this brain does not know (answered `UNKNOWN`).
    Unknown(String),
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine(pub String);

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The longest number the protocol needs (a time in milliseconds, a memory size in bytes).
const MAX_DIGITS: usize = 20;

/// Parses one line (without its line ending).
pub fn parse(line: &str) -> Result<Line, BadLine> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Line::Blank);
    }
    // A stone line of a board block starts with a digit.
    if line.starts_with(|c: char| c.is_ascii_digit()) {
        let parts = numbers(line, 3)?;
        return Ok(Line::Stone(
            Coord {
                x: parts[0],
                y: parts[1],
            },
            parts[2],
        ));
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_uppercase();
    let no_args = |l: Line| {
        if rest.is_empty() {
            Ok(l)
        } else {
            Err(BadLine(format!(
                "{word} takes no arguments, got '{}'",
                clip(rest)
            )))
        }
    };
    match word.as_str() {
        "START" => Ok(Line::Start(number(rest, "START needs a board size")?)),
        "RECTSTART" => {
            let n = numbers(rest, 2)?;
            Ok(Line::RectStart(n[0], n[1]))
        }
        "RESTART" => no_args(Line::Restart),
        "BEGIN" => no_args(Line::Begin),
        "TURN" => Ok(Line::Turn(coord(rest)?)),
        "TAKEBACK" => Ok(Line::Takeback(coord(rest)?)),
        "PLAY" => Ok(Line::Play(coord(rest)?)),
        "BOARD" => no_args(Line::Board(BoardKind::Play)),
        "YXBOARD" => no_args(Line::Board(BoardKind::Set)),
        "SWAP2BOARD" => no_args(Line::Board(BoardKind::Swap2)),
        "DONE" => no_args(Line::Done),
        "END" => Ok(Line::End),
        "ABOUT" => Ok(Line::About),
        "INFO" => {
            let (key, value) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                return Err(BadLine("INFO needs a key and a value".into()));
            }
            Ok(Line::Info(key.to_ascii_lowercase(), value.to_string()))
        }
        "YXNBEST" => Ok(Line::NBest(number(rest, "YXNBEST needs a count")?)),
        "YXSHOWFORBID" => Ok(Line::ShowForbid),
        "STOP" | "YXSTOP" => Ok(Line::Stop),
        "YXHASHCLEAR" => Ok(Line::HashClear),
        "YXSHOWINFO" => Ok(Line::ShowInfo),
        "YXSEARCHDEFEND" => Ok(Line::SearchDefend),
        _ => Ok(Line::Unknown(clip(&word))),
    }
}

/// A non-negative decimal number.
pub fn number(text: &str, missing: &str) -> Result<u32, BadLine> {
    let text = text.trim();
    if text.is_empty() {
        return Err(BadLine(missing.to_string()));
    }
    let n = wide_number(text)?;
    u32::try_from(n).map_err(|_| BadLine(format!("{} is too large", clip(text))))
}

/// A non-negative decimal number of up to 64 bits (times, memory sizes).
pub fn wide_number(text: &str) -> Result<u64, BadLine> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BadLine(format!("'{}' is not a number", clip(text))));
    }
    if text.len() > MAX_DIGITS {
        return Err(BadLine(format!("{} is too large", clip(text))));
    }
    text.parse()
        .map_err(|_| BadLine(format!("{} is too large", clip(text))))
}

/// `x,y`.
fn coord(text: &str) -> Result<Coord, BadLine> {
    if text.trim().is_empty() {
        return Err(BadLine("a move needs coordinates x,y".into()));
    }
    let n = numbers(text, 2)?;
    Ok(Coord { x: n[0], y: n[1] })
}

/// Exactly `count` numbers separated by commas (spaces around them allowed).
fn numbers(text: &str, count: usize) -> Result<Vec<u32>, BadLine> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != count {
        let what = if count == 2 { "x,y" } else { "x,y,who" };
        return Err(BadLine(format!(
            "expected {what}, got '{}'",
            clip(text.trim())
        )));
    }
    parts
        .iter()
        .map(|p| number(p, "a number is missing"))
        .collect()
}

/// At most 40 characters of `text`, for an error message.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!(parse("START 15"), Ok(Line::Start(15)));
        assert_eq!(parse("start 20\r"), Ok(Line::Start(20)));
        assert_eq!(parse("TURN 7, 8"), Ok(Line::Turn(Coord { x: 7, y: 8 })));
        assert_eq!(parse("10,11,2"), Ok(Line::Stone(Coord { x: 10, y: 11 }, 2)));
        assert_eq!(
            parse("INFO Timeout_Turn 5000"),
            Ok(Line::Info("timeout_turn".into(), "5000".into()))
        );
        assert_eq!(parse("RECTSTART 15,20"), Ok(Line::RectStart(15, 20)));
        assert_eq!(parse("yxstop"), Ok(Line::Stop));
        assert_eq!(parse(""), Ok(Line::Blank));
        assert_eq!(parse("FROB 1"), Ok(Line::Unknown("FROB".into())));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        for (line, says) in [
            ("TURN", "needs coordinates"),
            ("TURN 7", "expected x,y"),
            ("TURN a,b", "not a number"),
            ("TURN -1,3", "not a number"),
            ("START", "board size"),
            ("START 99999999999999999999999", "too large"),
            ("TURN 4294967296,1", "too large"),
            ("7,8", "expected x,y,who"),
            ("BEGIN now", "takes no arguments"),
            ("INFO", "key and a value"),
        ] {
            let err = parse(line).unwrap_err();
            assert!(err.0.contains(says), "{line}: {err}");
        }
    }
}
