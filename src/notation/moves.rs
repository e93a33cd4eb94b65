//! Move lists: `h8 i9 j10`, `H8,I9,J10`, `h8i9j10`, and Gomoku Calculator URLs
//! (`https://gomocalc.com/#/h8h7i9`). Black moves first; letters may be either case; moves may be
//! separated by white space, commas or semicolons, or not at all; `#` starts a comment.

use nom::Parser;
use nom::bytes::complete::{tag, tag_no_case, take_until};
use nom::character::complete::{char, digit1, multispace1, not_line_ending, one_of, satisfy};
use nom::combinator::{cut, opt, value};
use nom::error::context;
use nom::multi::many0_count;
use nom::sequence::preceded;

use super::span::{Cursor, Loc, Located, PResult, RawPoint, Span, Spanned, Syntax, syntax};
use crate::board::Point;

/// Why a move list was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// Text that is not a move list.
    #[error("{0}")]
    Syntax(Syntax),
    /// A Gomoku Calculator URL with nothing after its `#/`.
    #[error("a Gomoku Calculator URL carries its moves after '#/', and this one has none")]
    UrlWithoutMoves {
        /// Where the moves should start.
        loc: Loc,
    },
}

impl Located for MovesError {
    fn loc(&self) -> Loc {
        match self {
            MovesError::Syntax(s) => s.loc,
            MovesError::UrlWithoutMoves { loc } => *loc,
        }
    }
}

fn comment(i: Span) -> PResult<()> {
    value((), preceded(char('#'), not_line_ending)).parse(i)
}

/// Separators between moves: white space, commas, semicolons and comments.
fn separators(i: Span) -> PResult<()> {
    value(
        (),
        many0_count(nom::branch::alt((
            value((), multispace1),
            value((), one_of(",;")),
            comment,
        ))),
    )
    .parse(i)
}

/// One move: a column letter and a row number (which must follow the letter), and the span it
/// starts at.
fn point(i: Span) -> PResult<(RawPoint, Span)> {
    let start = i;
    let (i, letter) = context("a move like h8", satisfy(|c| c.is_ascii_alphabetic())).parse(i)?;
    let (i, digits) = cut(context("a row number after the column letter", digit1)).parse(i)?;
    let row: i64 = digits.fragment().parse().unwrap_or(i64::MAX);
    let col = (letter.to_ascii_lowercase() as u8 - b'a') as i64;
    Ok((i, (RawPoint { col, row: row - 1 }, start)))
}

/// A list of moves up to the end of `i`, located by one cursor so that a long line stays
/// linear.
fn list(mut i: Span) -> PResult<Vec<Spanned<RawPoint>>> {
    let mut out = Vec::new();
    let mut cursor = Cursor::new(i);
    loop {
        (i, _) = separators(i)?;
        if i.fragment().is_empty() {
            return Ok((i, out));
        }
        let (rest, (p, start)) = cut(point).parse(i)?;
        out.push(Spanned::new(p, cursor.loc(&start)));
        i = rest;
    }
}

/// The `https://host/path#/` prefix of a Gomoku Calculator URL, if the text starts with one.
fn url_prefix(i: Span) -> PResult<Option<Span>> {
    opt(preceded(
        (tag_no_case("http"), opt(tag_no_case("s")), tag("://")),
        cut(context(
            "'#/' followed by the moves",
            (take_until("#/"), tag("#/")),
        )),
    ))
    .map(|found| found.map(|(_, hash)| hash))
    .parse(i)
}

/// Parses a move list (or a Gomoku Calculator URL) filling the whole of `input`.
pub fn parse(input: Span) -> Result<Vec<Spanned<RawPoint>>, MovesError> {
    let fail = |e| MovesError::Syntax(syntax(e, "a move like h8"));
    let (i, _) = separators(input).map_err(fail)?;
    let (i, url) = url_prefix(i).map_err(fail)?;
    let (_, moves) = list(i).map_err(fail)?;
    if let Some(hash) = url
        && moves.is_empty()
    {
        return Err(MovesError::UrlWithoutMoves {
            loc: Loc::of(&hash),
        });
    }
    Ok(moves)
}

/// Writes moves as a space-separated list: `h8 i9 j10`.
pub fn write(moves: &[Point]) -> String {
    let texts: Vec<String> = moves.iter().map(Point::to_string).collect();
    texts.join(" ")
}

/// Gomoku Calculator's address, before the moves of a link to a position.
pub const GOMOCALC: &str = "https://gomocalc.com/#/";

/// Writes moves as a Gomoku Calculator link, the URL [`parse`] reads:
/// `https://gomocalc.com/#/h8i9j10` (no separators, as gomocalc writes them; a row number
/// ends where the next column letter starts).
pub fn write_url(moves: &[Point]) -> String {
    let mut url = String::from(GOMOCALC);
    for p in moves {
        url.push_str(&p.to_string());
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        parse(Span::new(s))
            .unwrap()
            .iter()
            .map(|p| p.value.to_string())
            .collect()
    }

    #[test]
    fn all_spellings_agree() {
        let want = ["h8", "i9", "j10"];
        for s in [
            "h8 i9 j10",
            "H8,I9,J10",
            "h8i9j10",
            " h8; i9\n j10 ",
            "https://gomocalc.com/#/h8i9j10",
            "# a comment\nh8 i9 j10 # trailing",
        ] {
            assert_eq!(texts(s), want, "{s}");
        }
        assert!(texts("").is_empty());
    }

    #[test]
    fn errors_point_at_the_bad_token() {
        let e = parse(Span::new("h8 !x")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(1, 4));
        let e = parse(Span::new("h8 i")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(1, 5));
        assert!(e.to_string().contains("row number"), "{e}");
        let e = parse(Span::new("https://gomocalc.com/h8")).unwrap_err();
        assert!(e.to_string().contains("'#/'"), "{e}");
        let e = parse(Span::new("https://gomocalc.com/#/")).unwrap_err();
        assert!(matches!(e, MovesError::UrlWithoutMoves { .. }));
    }

    #[test]
    fn a_link_reads_back_to_its_moves() {
        let ms: Vec<Point> = ["h8", "i9", "j10", "a1", "o15", "h7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let url = write_url(&ms);
        assert_eq!(url, "https://gomocalc.com/#/h8i9j10a1o15h7");
        assert_eq!(texts(&url), ["h8", "i9", "j10", "a1", "o15", "h7"]);
    }

    #[test]
    fn positions_are_recorded() {
        let ms = parse(Span::new("h8\n  z99")).unwrap();
        assert_eq!(ms[1].loc, Loc::new(2, 3));
        assert_eq!(ms[1].value, RawPoint { col: 25, row: 98 });
    }
}
