//! Piskvork `.psq` game files: a header `Piskvorky 15x15, 11:11, 0`, then one move a line as
//! `x,y,ms` (1-based, `x` from the left, `y` from the **top**; the time is optional), then
//! optional trailer lines (engine names, `-1`, …) that tengen ignores. The trailer starts after
//! the last move line: a bad line among the moves is an error. The rows are turned into
//! RIF rows (from the bottom) here, at the text boundary.

use nom::Parser;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{cut, eof, opt};
use nom::error::context;
use nom::sequence::preceded;
use nom_locate::position;

use super::span::{self, Loc, Located, PResult, RawPoint, Span, Spanned, Syntax, syntax};
use crate::board::Point;
use crate::setup::{Setup, StatedSize, Stones};

/// Why a `.psq` file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PsqError {
    /// A header or move line that does not parse.
    #[error("{0}")]
    Syntax(Syntax),
    /// A header giving a board that is not square.
    #[error("the board must be square, but the header says {width}x{height}")]
    NotSquare {
        /// Where the size is in the header.
        loc: Loc,
        /// The width the header gives.
        width: u32,
        /// The height the header gives.
        height: u32,
    },
}

impl Located for PsqError {
    fn loc(&self) -> Loc {
        match self {
            PsqError::Syntax(s) => s.loc,
            PsqError::NotSquare { loc, .. } => *loc,
        }
    }
}

fn num(i: Span) -> PResult<u32> {
    let (i, d) = digit1(i)?;
    Ok((i, d.fragment().parse().unwrap_or(u32::MAX)))
}

/// `Piskvorky WxH, …` (what follows the size is ignored).
fn header(i: Span) -> PResult<(Loc, u32, u32)> {
    let (i, _) = context(
        "the header 'Piskvorky 15x15, 11:11, 0'",
        tag_no_case("piskvorky"),
    )
    .parse(i)?;
    let (i, _) = cut(context("a board size like 15x15", space1)).parse(i)?;
    let (i, start) = position(i)?;
    let (i, w) = cut(context("a board size like 15x15", num)).parse(i)?;
    let (i, _) = cut(context("'x' between the width and the height", char('x'))).parse(i)?;
    let (i, h) = cut(context("the board height", num)).parse(i)?;
    Ok((i, (Loc::of(&start), w, h)))
}

/// `x,y` or `x,y,ms`.
fn move_line(i: Span) -> PResult<(Spanned<u32>, u32)> {
    let (i, start) = position(i)?;
    let (i, x) = num(i)?;
    let (i, _) = cut(context(
        "',' after the column number",
        (space0, char(','), space0),
    ))
    .parse(i)?;
    let (i, y) = cut(context("the row number", num)).parse(i)?;
    let (i, _) = cut(context(
        "an optional ',time' and the end of the line",
        (
            opt(preceded((space0, char(','), space0), opt(char('-')))),
            opt(digit1),
            space0,
            eof,
        ),
    ))
    .parse(i)?;
    Ok((i, (Spanned::new(x, Loc::of(&start)), y)))
}

/// A line that starts like a move (a number followed by more) and so cannot be taken for a
/// trailer line; a bare number such as `0` can.
fn looks_like_move(line: &str) -> bool {
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < line.len() && !rest.is_empty()
}

/// Parses a `.psq` file filling the whole of `input`.
pub fn parse(input: Span) -> Result<Setup, PsqError> {
    let fail = |e| PsqError::Syntax(syntax(e, "a move line 'x,y,time'"));
    let mut lines = span::lines(input)
        .map(span::trim)
        .filter(|l| !l.fragment().is_empty());
    let first = lines.next().unwrap_or(input);
    let (_, (size_loc, w, h)) = header(first).map_err(fail)?;
    if w != h {
        return Err(PsqError::NotSquare {
            loc: size_loc,
            width: w,
            height: h,
        });
    }
    // The moves run up to the last line that is a move line; only the lines after it may form
    // the trailer (engine names, `-1`, …). A bad line among the moves is an error, not the
    // start of the trailer, and so is a line after them that starts like a move but is not one.
    let lines: Vec<Span> = lines.collect();
    let is_move = |l: &Span| move_line(*l).is_ok();
    let end = lines.iter().rposition(is_move).map_or(0, |last| last + 1);
    let mut moves = Vec::with_capacity(end);
    for line in &lines[..end] {
        let (_, (x, y)) = move_line(*line).map_err(fail)?;
        let raw = RawPoint {
            col: x.value as i64 - 1,
            row: h as i64 - y as i64,
        };
        moves.push(Spanned::new(raw, x.loc));
    }
    if let Some(line) = lines[end..].iter().find(|l| looks_like_move(l.fragment())) {
        move_line(*line).map_err(fail)?;
    }
    Ok(Setup {
        size: Some(StatedSize {
            value: w,
            loc: size_loc,
            exact: true,
        }),
        rule: None,
        to_move: None,
        stones: Stones::Moves(moves),
        loc: Loc::of(&first),
    })
}

/// Writes a game record as a `.psq` file on a board of edge `size`.
pub fn write(size: u8, moves: &[Point]) -> String {
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for p in moves {
        out.push_str(&format!("{},{},0\n", p.x() + 1, size - p.y()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moves_and_skips_the_trailer() {
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,1000\n9,7,0\n-1\npbrain-rapfi.exe\n";
        let s = parse(Span::new(text)).unwrap();
        let Stones::Moves(m) = &s.stones else {
            panic!()
        };
        let texts: Vec<String> = m.iter().map(|p| p.value.to_string()).collect();
        assert_eq!(texts, ["h8", "i9"]);
        assert_eq!(
            write(15, &["h8".parse().unwrap(), "i9".parse().unwrap()]),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n"
        );
    }

    #[test]
    fn errors_are_located() {
        let e = parse(Span::new("Piskvorky 15x15, 11:11, 0\n8,8\n9;7\n")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(3, 2));
        // A junk line among the moves is an error at its line, not the start of the trailer.
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\nnot a move\n9,7,0\n-1\n";
        let e = parse(Span::new(text)).unwrap_err();
        assert_eq!(e.loc(), Loc::new(3, 1));
        let e = parse(Span::new("Piskvorky 15x15, 11:11, 0\n8,8\n9,7,x\n-1\n")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(3, 5));
        let e = parse(Span::new("Piskvork 15x15\n")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(1, 1));
        let e = parse(Span::new("Piskvorky 15x20, 0\n")).unwrap_err();
        assert!(matches!(e, PsqError::NotSquare { .. }));
    }
}
