//! What every parser shares: located input spans, source locations, and the syntax error that
//! says where the text went wrong, what was expected there and what was found. The location
//! types themselves ([`Loc`], [`Spanned`], [`Located`], [`RawPoint`]) belong to
//! [`crate::setup`], which is below the parsers; they are re-exported here for them.

pub use crate::setup::{Loc, Located, RawPoint, Spanned};
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::{IResult, Input};
use nom_locate::LocatedSpan;

/// Input text that remembers its line and column.
pub type Span<'a> = LocatedSpan<&'a str>;

// `Loc` lives in `setup`, below the parsers; reading one off a span is the parsers' business.
impl Loc {
    /// Where `span` starts.
    pub fn of(span: &Span) -> Loc {
        Loc {
            line: span.location_line(),
            column: span.get_utf8_column() as u32,
        }
    }
}

/// Finds the locations of spans met one after another in linear time.
///
/// [`Loc::of`] counts the characters from the start of the line, so calling it for every token of
/// one long line is quadratic. A cursor remembers the last span it located and counts only the
/// characters since then. Spans met out of order fall back to [`Loc::of`].
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    span: Span<'a>,
    loc: Loc,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `span`.
    pub fn new(span: Span<'a>) -> Cursor<'a> {
        Cursor {
            span,
            loc: Loc::of(&span),
        }
    }

    /// Where `at` starts; `at` should lie at or after the previous span located.
    pub fn loc(&mut self, at: &Span<'a>) -> Loc {
        let from = self.span.location_offset();
        let to = at.location_offset();
        let text = self.span.fragment();
        let loc = match to.checked_sub(from).and_then(|d| text.get(..d)) {
            Some(between) => match between.rfind('\n') {
                Some(nl) => Loc::new(
                    at.location_line(),
                    between[nl + 1..].chars().count() as u32 + 1,
                ),
                None => Loc::new(
                    self.loc.line,
                    self.loc.column + between.chars().count() as u32,
                ),
            },
            None => Loc::of(at),
        };
        self.span = *at;
        self.loc = loc;
        loc
    }
}

/// A syntax error: where, what was expected, and what was there instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found {found}")]
pub struct Syntax {
    /// Where the text went wrong.
    pub loc: Loc,
    /// What was expected there, such as `a move like h8`.
    pub expected: String,
    /// What was there instead, as [`describe`] names it.
    pub found: String,
}

impl Syntax {
    /// A syntax error at the start of `span`, describing the token found there.
    pub fn at(span: &Span, expected: impl Into<String>) -> Syntax {
        Syntax {
            loc: Loc::of(span),
            expected: expected.into(),
            found: describe(span.fragment()),
        }
    }
}

impl Located for Syntax {
    fn loc(&self) -> Loc {
        self.loc
    }
}

/// How a syntax error names the text it stopped at: the token there, or the end of the line.
pub fn describe(rest: &str) -> String {
    let token: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ',' && *c != ';')
        .take(16)
        .collect();
    if !token.is_empty() {
        format!("'{token}'")
    } else if rest.is_empty() {
        "the end of the input".to_string()
    } else if rest.starts_with(['\n', '\r']) {
        "the end of the line".to_string()
    } else {
        format!("'{}'", rest.chars().next().unwrap_or(' '))
    }
}

/// The nom error type of our parsers: the span where parsing stopped and, from the innermost
/// `context`, what was expected there.
#[derive(Debug, PartialEq)]
pub struct PErr<'a> {
    /// The input from where parsing stopped.
    pub span: Span<'a>,
    /// What was expected there; `None` when no `context` said.
    pub expected: Option<&'static str>,
}

impl<'a> ParseError<Span<'a>> for PErr<'a> {
    fn from_error_kind(span: Span<'a>, _kind: ErrorKind) -> Self {
        PErr {
            span,
            expected: None,
        }
    }

    fn append(_span: Span<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<Span<'a>> for PErr<'a> {
    fn add_context(_span: Span<'a>, ctx: &'static str, mut other: Self) -> Self {
        other.expected.get_or_insert(ctx);
        other
    }
}

/// What our nom parsers return: the rest of the input and the value, or a [`PErr`].
pub type PResult<'a, T> = IResult<Span<'a>, T, PErr<'a>>;

/// Turns a nom failure into a [`Syntax`] error; `fallback` names what was expected when no
/// context said.
pub fn syntax(err: nom::Err<PErr>, fallback: &str) -> Syntax {
    match err {
        nom::Err::Error(e) | nom::Err::Failure(e) => {
            Syntax::at(&e.span, e.expected.unwrap_or(fallback))
        }
        nom::Err::Incomplete(_) => Syntax {
            loc: Loc::default(),
            expected: fallback.to_string(),
            found: "incomplete input".into(),
        },
    }
}

/// Splits `input` into its lines (without line endings), each span keeping its location.
pub fn lines(input: Span) -> Lines {
    Lines { rest: Some(input) }
}

/// The lines of a span, one at a time: see [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: Option<Span<'a>>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Span<'a>;

    fn next(&mut self) -> Option<Span<'a>> {
        let rest = self.rest?;
        let text = rest.fragment();
        let end = text.find('\n').unwrap_or(text.len());
        let line_len = if end > 0 && text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        self.rest = (end < text.len()).then(|| rest.take_from(end + 1));
        Some(rest.take(line_len))
    }
}

/// The span with leading and trailing white space removed (locations kept).
pub fn trim(span: Span) -> Span {
    let text = span.fragment();
    let start = text.len() - text.trim_start().len();
    let rest = span.take_from(start);
    rest.take(rest.fragment().trim_end().len())
}

/// A sub-span of `whole` from byte offset `start` to `end` (offsets relative to `whole`).
pub fn slice<'a>(whole: Span<'a>, start: usize, end: usize) -> Span<'a> {
    whole.take_from(start).take(end - start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_locations() {
        let text = "ab\r\n\ncd e\n";
        let ls: Vec<Span> = lines(Span::new(text)).collect();
        let frags: Vec<_> = ls.iter().map(|s| *s.fragment()).collect();
        assert_eq!(frags, ["ab", "", "cd e", ""]);
        assert_eq!(Loc::of(&ls[2]), Loc::new(3, 1));
        assert_eq!(Loc::of(&trim(Span::new("  h8 "))), Loc::new(1, 3));
    }

    #[test]
    fn cursor_agrees_with_loc_of() {
        let text = "h8 é9\r\n  ab\n\ncd é é\n";
        let whole = Span::new(text);
        let mut cursor = Cursor::new(whole);
        for (offset, _) in text.char_indices() {
            let at = whole.take_from(offset);
            assert_eq!(cursor.loc(&at), Loc::of(&at), "offset {offset}");
        }
        // Out of order: back to the start.
        assert_eq!(cursor.loc(&whole), Loc::new(1, 1));
    }

    #[test]
    fn describe_names_tokens() {
        assert_eq!(describe("z99 h8"), "'z99'");
        assert_eq!(describe(""), "the end of the input");
        assert_eq!(describe("\nx"), "the end of the line");
    }
}
