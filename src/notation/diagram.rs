//! Board diagrams: one text line per row, `.` (or `+`, `·`) for an empty point, `x` `X` `●` `B` for
//! black and `o` `O` `○` `W` for white; cells may be separated by spaces. Coordinate labels are
//! optional on any side: row numbers left and/or right of a row, column letters above and/or below.
//! Without row labels the first line is the highest row. A line `black to move` (or
//! `white to play`, …) states the side to move; `#` starts a comment line.
//!
//! Labels also let a diagram show part of a bigger board: the board is then as large as the
//! highest label (or `--size`).

use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{char, digit1, satisfy, space0};
use nom::combinator::{eof, not, opt, peek, recognize};
use nom::error::context;
use nom::multi::many_m_n;
use nom::sequence::terminated;
use nom_locate::position;

use super::span::{self, Cursor, Loc, Located, PResult, RawPoint, Span, Spanned, Syntax, syntax};
use crate::board::{Board, Color, MAX_SIZE, Point};
use crate::setup::{Setup, StatedSize, Stones};

/// Why a diagram was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// A line that is not a board row, column labels, a side-to-move line or a comment.
    #[error("{0}")]
    Syntax(Syntax),
    /// A row whose number of cells differs from the first row's.
    #[error("this row has {} but the first row has {expected}", crate::words::plural(*.found, "cell", "cells"))]
    RaggedRow {
        /// Where the row starts.
        loc: Loc,
        /// Cells in this row.
        found: usize,
        /// Cells in the first row.
        expected: usize,
    },
    /// A line of column labels that does not fit the rows, or differs from an earlier one.
    #[error("{} for rows of {}", crate::words::plural(*.found, "column label", "column labels"), crate::words::plural(*.expected, "cell", "cells"))]
    LabelCount {
        /// Where the labels start.
        loc: Loc,
        /// Labels on the line.
        found: usize,
        /// Labels wanted: the cells in a row, or the labels on the earlier line.
        expected: usize,
    },
    /// A row with different numbers on its left and right.
    #[error("the row labels {left} and {right} of one row disagree")]
    LabelMismatch {
        /// Where the right label is.
        loc: Loc,
        /// The row number on the left.
        left: u32,
        /// The row number on the right.
        right: u32,
    },
    /// Some rows have row numbers and some have none.
    #[error("some rows have labels and some do not: label every row or none")]
    PartialLabels {
        /// Where the first row labelled unlike the first row starts.
        loc: Loc,
    },
    /// Two rows with the same row number.
    #[error("row {row} appears twice")]
    DuplicateRow {
        /// Where the second of them starts.
        loc: Loc,
        /// The row number.
        row: u32,
    },
    /// A diagram without row numbers whose width and height differ.
    #[error("an unlabelled diagram must be square: {} but {}", crate::words::plural(*.width, "column", "columns"), crate::words::plural(*.height, "row", "rows"))]
    NotSquare {
        /// Where the first row starts.
        loc: Loc,
        /// Cells in a row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A row with more cells than the largest board has.
    #[error(
        "a row of more than {} cells: boards are at most {}x{}",
        MAX_SIZE,
        MAX_SIZE,
        MAX_SIZE
    )]
    TooWide {
        /// Where the first cell too many is.
        loc: Loc,
    },
    /// A text with no board row.
    #[error("no board rows found")]
    Empty {
        /// Where the text starts.
        loc: Loc,
    },
}

impl Located for DiagramError {
    fn loc(&self) -> Loc {
        match self {
            DiagramError::Syntax(s) => s.loc,
            DiagramError::RaggedRow { loc, .. }
            | DiagramError::LabelCount { loc, .. }
            | DiagramError::LabelMismatch { loc, .. }
            | DiagramError::PartialLabels { loc }
            | DiagramError::DuplicateRow { loc, .. }
            | DiagramError::NotSquare { loc, .. }
            | DiagramError::TooWide { loc }
            | DiagramError::Empty { loc } => *loc,
        }
    }
}

const EMPTY_CELLS: &str = ".+·";
const BLACK_CELLS: &str = "xX●B";
const WHITE_CELLS: &str = "oO○W";

/// Whether `c` is a cell character of some colour or an empty point.
pub fn is_cell_char(c: char) -> bool {
    EMPTY_CELLS.contains(c) || BLACK_CELLS.contains(c) || WHITE_CELLS.contains(c)
}

struct Row<'a> {
    loc: Loc,
    label: Option<u32>,
    cells: Vec<Spanned<char>>,
    _line: Span<'a>,
}

fn number(i: Span) -> PResult<Spanned<u32>> {
    let (i, start) = position(i)?;
    let (i, d) = digit1(i)?;
    Ok((
        i,
        Spanned::new(d.fragment().parse().unwrap_or(u32::MAX), Loc::of(&start)),
    ))
}

/// A cell character and where it starts.
fn cell(i: Span) -> PResult<(char, Span)> {
    let start = i;
    let (i, c) = satisfy(is_cell_char).parse(i)?;
    Ok((i, (c, start)))
}

/// A mark that tengen's own diagrams put on an empty point: `#` (forbidden for black) or a
/// number (a ranked move, a heat-map digit) with more of the row after it, so that a number
/// at the end of a row is still its label. Read back as an empty point.
fn mark(i: Span) -> PResult<(char, Span)> {
    let start = i;
    let (i, _) = alt((
        recognize(char('#')),
        terminated(digit1, peek((space0, not(eof)))),
    ))
    .parse(i)?;
    Ok((i, ('.', start)))
}

/// A row: its left label, its cells, its right label.
type RowParts<'a> = (
    Option<Spanned<u32>>,
    Vec<(char, Span<'a>)>,
    Option<Spanned<u32>>,
);

/// A row line. Reading stops after one cell more than the largest board has, so that a huge
/// line is refused at its first cell too many (see [`DiagramError::TooWide`]).
fn row_line(i: Span) -> PResult<RowParts> {
    let (i, left) = opt(terminated(number, space0)).parse(i)?;
    let widest = MAX_SIZE as usize + 1;
    let (i, cells) = context(
        "a board cell ('.', 'x' or 'o')",
        many_m_n(1, widest, terminated(alt((cell, mark)), space0)),
    )
    .parse(i)?;
    if cells.len() == widest {
        return Ok((i, (left, cells, None)));
    }
    let (i, right) = opt(number).parse(i)?;
    let (i, _) = context(
        "a board cell ('.', 'x' or 'o') or a row number",
        (space0, eof),
    )
    .parse(i)?;
    Ok((i, (left, cells, right)))
}

/// Column letters (`a b c …`, either case, spaced or not), when the line is nothing else.
fn column_labels(line: &str) -> Option<Vec<u32>> {
    let mut cols: Vec<u32> = Vec::new();
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        if !c.is_ascii_alphabetic() || cols.len() > MAX_SIZE as usize {
            return None;
        }
        let col = (c.to_ascii_lowercase() as u8 - b'a') as u32;
        if cols.last().is_some_and(|&last| col != last + 1) {
            return None;
        }
        cols.push(col);
    }
    (cols.len() >= 2).then_some(cols)
}

/// `black to move`, `White to play`, …
pub fn side_line(line: &str) -> Option<Color> {
    let mut words = line.split_whitespace();
    let (color, to, verb) = (words.next()?, words.next()?, words.next()?);
    if words.next().is_some()
        || !to.eq_ignore_ascii_case("to")
        || !(verb.eq_ignore_ascii_case("move") || verb.eq_ignore_ascii_case("play"))
    {
        return None;
    }
    color.to_ascii_lowercase().parse().ok()
}

/// A diagram's lines read: its rows, its column labels (the letters, and where the first line
/// of them is) and the side to move it states.
struct LinesRead<'a> {
    rows: Vec<Row<'a>>,
    labels: Option<(Vec<u32>, Loc)>,
    to_move: Option<Spanned<Color>>,
}

/// Parses a diagram filling the whole of `input`.
pub fn parse(input: Span) -> Result<Setup, DiagramError> {
    let LinesRead {
        rows,
        labels,
        to_move,
    } = read_lines(input)?;
    let first = rows.first().ok_or(DiagramError::Empty {
        loc: Loc::of(&input),
    })?;
    let width = first.cells.len();
    let labelled = first.label.is_some();
    check_shape(&rows, &labels, width, labelled)?;
    let row_numbers = row_numbers(&rows, labelled)?;
    let columns: Vec<i64> = match &labels {
        Some((cols, _)) => cols.iter().map(|&c| c as i64).collect(),
        None => (0..width as i64).collect(),
    };
    let size = stated_size(
        first,
        &row_numbers,
        &columns,
        labelled || labels.is_some(),
        rows.len(),
    )?;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (row, &y) in rows.iter().zip(&row_numbers) {
        for (cell, &x) in row.cells.iter().zip(&columns) {
            let point = Spanned::new(RawPoint { col: x, row: y }, cell.loc);
            if BLACK_CELLS.contains(cell.value) {
                black.push(point);
            } else if WHITE_CELLS.contains(cell.value) {
                white.push(point);
            }
        }
    }
    Ok(Setup {
        size: Some(size),
        rule: None,
        to_move,
        stones: Stones::Placed { black, white },
        loc: first.loc,
    })
}

/// Reads the diagram's lines, each a board row, column labels, a side-to-move line or a comment.
fn read_lines(input: Span) -> Result<LinesRead, DiagramError> {
    let mut rows: Vec<Row> = Vec::new();
    let mut labels: Option<(Vec<u32>, Loc)> = None;
    let mut to_move = None;
    for line in span::lines(input) {
        let t = span::trim(line);
        let text = *t.fragment();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if let Some(color) = side_line(text) {
            to_move = Some(Spanned::new(color, Loc::of(&t)));
            continue;
        }
        if let Some(cols) = column_labels(text) {
            match &labels {
                Some((first, _)) if *first != cols => {
                    return Err(DiagramError::LabelCount {
                        loc: Loc::of(&t),
                        found: cols.len(),
                        expected: first.len(),
                    });
                }
                _ => labels = Some((cols, Loc::of(&t))),
            }
            continue;
        }
        rows.push(row(t)?);
    }
    Ok(LinesRead {
        rows,
        labels,
        to_move,
    })
}

/// A board row line (trimmed): its cells and its row number, if labelled.
fn row(t: Span) -> Result<Row, DiagramError> {
    let (_, (left, cells, right)) =
        row_line(t).map_err(|e| DiagramError::Syntax(syntax(e, "a board row")))?;
    if let (Some(l), Some(r)) = (left, right)
        && l.value != r.value
    {
        return Err(DiagramError::LabelMismatch {
            loc: r.loc,
            left: l.value,
            right: r.value,
        });
    }
    let mut cursor = Cursor::new(t);
    let cells: Vec<Spanned<char>> = cells
        .into_iter()
        .map(|(c, at)| Spanned::new(c, cursor.loc(&at)))
        .collect();
    if let Some(extra) = cells.get(MAX_SIZE as usize) {
        return Err(DiagramError::TooWide { loc: extra.loc });
    }
    Ok(Row {
        loc: Loc::of(&t),
        label: left.or(right).map(|l| l.value),
        cells,
        _line: t,
    })
}

/// Refuses rows of another width than the first's, rows labelled unlike the first, and column
/// labels that do not fit the rows.
fn check_shape(
    rows: &[Row],
    labels: &Option<(Vec<u32>, Loc)>,
    width: usize,
    labelled: bool,
) -> Result<(), DiagramError> {
    for row in rows {
        if row.cells.len() != width {
            return Err(DiagramError::RaggedRow {
                loc: row.loc,
                found: row.cells.len(),
                expected: width,
            });
        }
        if row.label.is_some() != labelled {
            return Err(DiagramError::PartialLabels { loc: row.loc });
        }
    }
    if let Some((cols, loc)) = labels
        && cols.len() != width
    {
        return Err(DiagramError::LabelCount {
            loc: *loc,
            found: cols.len(),
            expected: width,
        });
    }
    Ok(())
}

/// Each row's number, 0-based from the bottom: its label, or (unlabelled) its place from the
/// top. A label given twice is refused.
fn row_numbers(rows: &[Row], labelled: bool) -> Result<Vec<i64>, DiagramError> {
    if !labelled {
        return Ok((0..rows.len()).rev().map(|r| r as i64).collect());
    }
    let mut seen_rows = std::collections::HashSet::new();
    let mut out = Vec::new();
    for row in rows {
        let n = row.label.unwrap_or(0);
        if !seen_rows.insert(n) {
            return Err(DiagramError::DuplicateRow {
                loc: row.loc,
                row: n,
            });
        }
        out.push(n as i64 - 1);
    }
    Ok(out)
}

/// The board size the diagram states: with labels, at least what its highest labels reach;
/// without, exactly its width, which must be its height too.
fn stated_size(
    first: &Row,
    row_numbers: &[i64],
    columns: &[i64],
    any_labels: bool,
    height: usize,
) -> Result<StatedSize, DiagramError> {
    let width = first.cells.len();
    let labelled = first.label.is_some();
    if any_labels {
        let highest_row = row_numbers.iter().max().copied().unwrap_or(0) + 1;
        let highest_col = columns.last().copied().unwrap_or(0) + 1;
        // A labelled diagram may show part of a board; one side alone can't say how big.
        let rows_extent = if labelled { highest_row } else { height as i64 };
        return Ok(StatedSize {
            value: highest_col.max(rows_extent) as u32,
            loc: first.loc,
            exact: false,
        });
    }
    if width != height {
        return Err(DiagramError::NotSquare {
            loc: first.loc,
            width,
            height,
        });
    }
    Ok(StatedSize {
        value: width as u32,
        loc: first.loc,
        exact: true,
    })
}

/// Writes the whole board with coordinates on all four sides, `x` black, `o` white, `.` empty,
/// row 1 at the bottom, and a last line stating the side to move. Parsing it back gives the
/// same stones, size and side to move.
pub fn write(board: &Board) -> String {
    let size = board.size();
    let letters: Vec<String> = (0..size)
        .map(|x| Point::column_letter(x).to_string())
        .collect();
    let header = format!("   {}\n", letters.join(" "));
    let mut out = header.clone();
    for y in (0..size).rev() {
        out.push_str(&format!("{:>2}", y + 1));
        for x in 0..size {
            let c = match Point::new(x, y).and_then(|p| board.get(p)) {
                Some(Color::Black) => 'x',
                Some(Color::White) => 'o',
                None => '.',
            };
            out.push(' ');
            out.push(c);
        }
        out.push_str(&format!(" {}\n", y + 1));
    }
    out.push_str(&header);
    out.push_str(&format!("{} to move\n", board.to_move()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(setup: &Setup) -> (Vec<String>, Vec<String>) {
        match &setup.stones {
            Stones::Placed { black, white } => (
                black.iter().map(|p| p.value.to_string()).collect(),
                white.iter().map(|p| p.value.to_string()).collect(),
            ),
            _ => panic!("a diagram gives placed stones"),
        }
    }

    #[test]
    fn unlabelled_first_line_is_the_top_row() {
        let s = parse(Span::new("x....\n.....\n..o..\n.....\n....x\n")).unwrap();
        assert_eq!(
            placed(&s),
            (
                vec!["a5".to_string(), "e1".to_string()],
                vec!["c3".to_string()]
            )
        );
        assert_eq!(s.size.unwrap().value, 5);
    }

    #[test]
    fn labels_on_any_side_and_partial_boards() {
        let text = "   A B C D E F G H I J K L M N O\n10 . . . . . . . . ● . . . . . .\n 9 . . . . . . . ○ . . . . . . . 9\n";
        let s = parse(Span::new(text)).unwrap();
        assert_eq!(
            placed(&s),
            (vec!["i10".to_string()], vec!["h9".to_string()])
        );
        assert_eq!(s.size.unwrap().value, 15);
        let text =
            "1 x o . . .\n2 . . . . .\n3 . . . . .\n4 . . . . .\n5 . . . . .\nwhite to move\n";
        let s = parse(Span::new(text)).unwrap();
        assert_eq!(placed(&s), (vec!["a1".to_string()], vec!["b1".to_string()]));
        assert_eq!(s.to_move.unwrap().value, Color::White);
    }

    #[test]
    fn bad_rows_are_located() {
        let e = parse(Span::new(".....\n..q..\n")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(2, 3));
        let e = parse(Span::new(".....\n....\n")).unwrap_err();
        assert!(matches!(e, DiagramError::RaggedRow { .. }));
        let e = parse(Span::new("....\n....\n")).unwrap_err();
        assert!(matches!(e, DiagramError::NotSquare { .. }));
    }
}
