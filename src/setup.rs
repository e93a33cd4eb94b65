//! A position as the text gave it (a [`Setup`]: unchecked, with source locations) and its
//! validation into a [`Board`]. Validation refuses off-board points, points played twice, games
//! that were already won, black moves on forbidden points under renju, and a side to move that
//! the stones cannot tell.

use std::fmt;

use serde::Serialize;

use crate::board::{Board, Color, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Point, Rule};
use crate::pattern::{self, Foul};

// The location types: where in its text a position's parts were written. They are here,
// below the parsers, because a setup and its errors carry them.

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Default)]
pub struct Loc {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in characters.
    pub column: u32,
}

impl Loc {
    /// A location from its 1-based line and column.
    pub fn new(line: u32, column: u32) -> Loc {
        Loc { line, column }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A value and where its text starts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Spanned<T> {
    /// The parsed value.
    pub value: T,
    /// Where its text starts.
    pub loc: Loc,
}

impl<T> Spanned<T> {
    /// A value and where its text starts.
    pub fn new(value: T, loc: Loc) -> Spanned<T> {
        Spanned { value, loc }
    }
}

/// Errors that know where in the text they happened.
pub trait Located {
    /// Where in the text the error is.
    fn loc(&self) -> Loc;
}

/// A point as the text wrote it, 0-based, not yet checked against a board size: `col` from the
/// left, `row` from the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RawPoint {
    /// The column, 0-based, from the left.
    pub col: i64,
    /// The row, 0-based, from the bottom.
    pub row: i64,
}

impl fmt::Display for RawPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if (0..26).contains(&self.col) && self.row >= -1 {
            write!(f, "{}{}", (b'a' + self.col as u8) as char, self.row + 1)
        } else {
            write!(f, "column {} row {}", self.col + 1, self.row + 1)
        }
    }
}

/// A board size a text stated: a `.psq` header, a `size:` key, or a diagram's extent. A labelled
/// diagram may show part of a board, so its extent is only a lower bound (`exact: false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatedSize {
    /// The stated edge length.
    pub value: u32,
    /// Where the text states it.
    pub loc: Loc,
    /// Whether the board is exactly this size; `false`: at least this size.
    pub exact: bool,
}

/// The stones of a setup: a game record in order, or stones placed with no order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stones {
    /// A game record: the moves in order, black first.
    Moves(Vec<Spanned<RawPoint>>),
    /// Stones placed with no order.
    Placed {
        /// The black stones.
        black: Vec<Spanned<RawPoint>>,
        /// The white stones.
        white: Vec<Spanned<RawPoint>>,
    },
    /// Stones placed with no order, then a game record played from them (an SGF file's
    /// `AB`/`AW` set-up stones, then its moves).
    PlacedThenMoves {
        /// The black stones placed.
        black: Vec<Spanned<RawPoint>>,
        /// The white stones placed.
        white: Vec<Spanned<RawPoint>>,
        /// The side that plays the first move.
        first: Color,
        /// The moves in order, from `first`, alternating.
        moves: Vec<Spanned<RawPoint>>,
    },
}

/// A position as parsed, before any check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board size the text states, if any.
    pub size: Option<StatedSize>,
    /// The rule the text states, if any.
    pub rule: Option<Spanned<Rule>>,
    /// The side to move the text states, if any.
    pub to_move: Option<Spanned<Color>>,
    /// The stones: a game record, or stones placed with no order.
    pub stones: Stones,
    /// Where the position starts in the text, for errors about it as a whole.
    pub loc: Loc,
}

/// What the user said on the command line, which takes precedence over the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Given {
    /// The `--rule` option.
    pub rule: Option<Rule>,
    /// The `--size` option.
    pub size: Option<u8>,
    /// The `--to-move` option.
    pub to_move: Option<Color>,
    /// The rule when neither `--rule` nor the input names one (None: freestyle); `tengen
    /// forbidden` asks for renju, the one rule with forbidden points.
    pub default_rule: Option<Rule>,
    /// The `--after N` option: only the first N moves of a game record are played.
    pub after: Option<usize>,
    /// A game read whole (`tengen review`): a five made by the record's last move, or a
    /// last move on a point forbidden to black, is the game's end, not an error.
    pub finished: bool,
}

/// Why a parsed position is not a legal one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A board size outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    #[error(
        "board size {size} is out of range: tengen plays on {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}"
    )]
    BadSize {
        /// Where the size is stated (where the position starts, for `--size`).
        loc: Loc,
        /// The size.
        size: u32,
    },
    /// A board size in the text that `--size` does not fit.
    #[error("the input gives a {stated}x{stated} board but --size {given} was asked for")]
    SizeConflict {
        /// Where the text states its size.
        loc: Loc,
        /// The size the text states.
        stated: u32,
        /// The size `--size` asks for.
        given: u8,
    },
    /// A point off the board.
    #[error("{point} is off the {size}x{size} board (columns a-{last}, rows 1-{size})", last = Point::column_letter(size - 1))]
    OffBoard {
        /// Where the point is written.
        loc: Loc,
        /// The point as written.
        point: RawPoint,
        /// The board size.
        size: u8,
    },
    /// A point given a stone twice.
    #[error("{point} is already taken by a {by} stone (at {first})")]
    Taken {
        /// Where the second stone is written.
        loc: Loc,
        /// The point.
        point: Point,
        /// The colour of the stone already there.
        by: Color,
        /// Where the first stone is written.
        first: Loc,
    },
    /// A move of a game record played after a five.
    #[error(
        "the game was already over: {winner} made five with move {won_at}, so move {number} ({point}) cannot be played"
    )]
    AlreadyWon {
        /// Where the move is written.
        loc: Loc,
        /// The move.
        point: Point,
        /// The move's number in the record, from 1.
        number: usize,
        /// The side that made the five.
        winner: Color,
        /// The number of the move that made the five.
        won_at: usize,
    },
    /// A position that already holds a winning line.
    #[error("the position is already won: {winner} has five ({}){}", line.iter().map(Point::to_string).collect::<Vec<_>>().join(" "), match record { Some(n) if *n > 1 => format!("; --after {} gives the position before the game's last move (--after N: after its first N moves)", n - 1), _ => String::new() })]
    PositionWon {
        /// Where the five is written: a game record's move that completed it, a board's first
        /// stone of it (or where the position starts).
        loc: Loc,
        /// The side that has the line.
        winner: Color,
        /// The stones of the line, in line order.
        line: Vec<Point>,
        /// The moves of the game record played, when the position is one.
        record: Option<usize>,
    },
    /// `--after N` for an input without a game record.
    #[error(
        "--after needs a game record (a move list, a .psq or SGF game); this position is given as stones"
    )]
    AfterWithoutRecord {
        /// Where the position starts.
        loc: Loc,
    },
    /// `--after N` past the end of the game record.
    #[error("--after {after} is past the end of the game: it has {moves} moves")]
    AfterTooFar {
        /// Where the position starts.
        loc: Loc,
        /// The option's value.
        after: usize,
        /// The moves in the record.
        moves: usize,
    },
    /// A black move of a game record on a forbidden point under renju.
    #[error("move {number} ({point}) is a forbidden point for black under renju: {foul}")]
    Forbidden {
        /// Where the move is written.
        loc: Loc,
        /// The move.
        point: Point,
        /// The move's number in the record, from 1.
        number: usize,
        /// Why the point is forbidden.
        foul: Foul,
    },
    /// Placed stones whose counts do not tell the side to move, with no side stated.
    #[error(
        "cannot tell whose move it is from {black} black and {white} white stones: say it with --to-move, a 'to-move:' key or a 'black to move' line"
    )]
    SideUnknown {
        /// Where the position starts.
        loc: Loc,
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
}

impl Located for SetupError {
    fn loc(&self) -> Loc {
        match self {
            SetupError::BadSize { loc, .. }
            | SetupError::SizeConflict { loc, .. }
            | SetupError::OffBoard { loc, .. }
            | SetupError::Taken { loc, .. }
            | SetupError::AlreadyWon { loc, .. }
            | SetupError::PositionWon { loc, .. }
            | SetupError::AfterWithoutRecord { loc }
            | SetupError::AfterTooFar { loc, .. }
            | SetupError::Forbidden { loc, .. }
            | SetupError::SideUnknown { loc, .. } => *loc,
        }
    }
}

impl Setup {
    /// The board size this setup is played on, given what the user asked for.
    fn size(&self, given: Option<u8>) -> Result<u8, SetupError> {
        let size = match (self.size, given) {
            (Some(s), Some(g)) if (s.exact && s.value != g as u32) || s.value > g as u32 => {
                return Err(SetupError::SizeConflict {
                    loc: s.loc,
                    stated: s.value,
                    given: g,
                });
            }
            (_, Some(g)) => return check_size(g as u32, self.loc),
            (Some(s), None) => return check_size(s.value, s.loc),
            (None, None) => DEFAULT_SIZE,
        };
        Ok(size)
    }

    /// Checks the setup and builds the board it describes.
    pub fn into_board(&self, given: Given) -> Result<Board, SetupError> {
        let size = self.size(given.size)?;
        let rule = given
            .rule
            .or(self.rule.map(|r| r.value))
            .or(given.default_rule)
            .unwrap_or_default();
        let Some(mut board) = Board::new(size, rule) else {
            return Err(SetupError::BadSize {
                loc: self.loc,
                size: size as u32,
            });
        };
        let mut written = Written {
            size,
            at: vec![None; crate::board::CELLS],
        };
        let stated_side = given.to_move.or(self.to_move.map(|s| s.value));
        let (black, white, moves, first) = self.stones.parts();
        for (stones, color) in [(black, Color::Black), (white, Color::White)] {
            for raw in stones {
                let p = written.point(&board, raw)?;
                board.put(p, color);
            }
        }
        let moves = match (moves, given.after) {
            (_, None) => moves,
            (None, Some(_)) => return Err(SetupError::AfterWithoutRecord { loc: self.loc }),
            (Some(m), Some(after)) if after > m.len() => {
                return Err(SetupError::AfterTooFar {
                    loc: self.loc,
                    after,
                    moves: m.len(),
                });
            }
            (Some(m), Some(after)) => Some(&m[..after]),
        };
        match moves {
            Some(moves) => {
                board.set_to_move(first);
                play_record(&mut board, moves, given.finished, &mut written)?;
                if let Some(side) = stated_side {
                    board.set_to_move(side);
                }
            }
            None => {
                let (b, w) = (black.len(), white.len());
                let side = match stated_side {
                    Some(side) => side,
                    None if b == w => Color::Black,
                    None if b == w + 1 => Color::White,
                    None => {
                        return Err(SetupError::SideUnknown {
                            loc: self.loc,
                            black: b,
                            white: w,
                        });
                    }
                };
                board.set_to_move(side);
            }
        }
        let ends_game = given.finished
            && moves.is_some()
            && board
                .last_move()
                .is_some_and(|last| board.five_through(last).is_some());
        if let Some(five) = board.winner()
            && !ends_game
        {
            // The caret goes to the five: in a game record, the move that completed it (the
            // last of its stones written); on a board, its first stone.
            let locs = five.stones.iter().filter_map(|p| written.at[p.index()]);
            let loc = match self.stones {
                Stones::Moves(_) | Stones::PlacedThenMoves { .. } => locs.max(),
                Stones::Placed { .. } => locs.min(),
            }
            .unwrap_or(self.loc);
            return Err(SetupError::PositionWon {
                loc,
                winner: five.color,
                line: five.stones,
                record: moves.map(<[_]>::len),
            });
        }
        Ok(board)
    }
}

impl Stones {
    /// The stones placed (black's, white's), the game record if there is one, and the side
    /// that plays its first move.
    fn parts(&self) -> StoneParts<'_> {
        match self {
            Stones::Moves(moves) => (&[][..], &[][..], Some(&moves[..]), Color::Black),
            Stones::Placed { black, white } => (&black[..], &white[..], None, Color::Black),
            Stones::PlacedThenMoves {
                black,
                white,
                first,
                moves,
            } => (&black[..], &white[..], Some(&moves[..]), *first),
        }
    }
}

/// See [`Stones::parts`].
type StoneParts<'a> = (
    &'a [Spanned<RawPoint>],
    &'a [Spanned<RawPoint>],
    Option<&'a [Spanned<RawPoint>]>,
    Color,
);

/// Where each stone on the board was written, to refuse a point given twice and to point at a
/// five.
struct Written {
    size: u8,
    /// By point index.
    at: Vec<Option<Loc>>,
}

impl Written {
    /// The point `raw` names, on the board and not yet taken.
    fn point(&mut self, board: &Board, raw: &Spanned<RawPoint>) -> Result<Point, SetupError> {
        let p = on_board(raw, self.size)?;
        if let (Some(by), Some(first)) = (board.get(p), self.at[p.index()]) {
            return Err(SetupError::Taken {
                loc: raw.loc,
                point: p,
                by,
                first,
            });
        }
        self.at[p.index()] = Some(raw.loc);
        Ok(p)
    }
}

/// Plays a game record's moves on `board`, refusing a move after a five and (under renju) a
/// black move on a forbidden point, except the last move of a game read whole (`finished`),
/// where black's foul ends the game.
fn play_record(
    board: &mut Board,
    moves: &[Spanned<RawPoint>],
    finished: bool,
    written: &mut Written,
) -> Result<(), SetupError> {
    let rule = board.rule();
    for (k, raw) in moves.iter().enumerate() {
        let p = written.point(board, raw)?;
        if let Some(last) = board.last_move()
            && let Some(five) = board.five_through(last)
        {
            return Err(SetupError::AlreadyWon {
                loc: raw.loc,
                point: p,
                number: k + 1,
                winner: five.color,
                won_at: k,
            });
        }
        // A game read whole may end in black's foul (it loses there).
        let last = finished && k + 1 == moves.len();
        if board.to_move() == Color::Black
            && rule.has_fouls(Color::Black)
            && !last
            && let Some(foul) = pattern::foul(board, p)
        {
            return Err(SetupError::Forbidden {
                loc: raw.loc,
                point: p,
                number: k + 1,
                foul,
            });
        }
        board.play(p);
    }
    Ok(())
}

fn check_size(size: u32, loc: Loc) -> Result<u8, SetupError> {
    if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&size) {
        Ok(size as u8)
    } else {
        Err(SetupError::BadSize { loc, size })
    }
}

/// The point `raw` names on a `size` board, or the error that it is off the board.
pub(crate) fn on_board(raw: &Spanned<RawPoint>, size: u8) -> Result<Point, SetupError> {
    let RawPoint { col, row } = raw.value;
    let n = size as i64;
    if (0..n).contains(&col)
        && (0..n).contains(&row)
        && let Some(p) = Point::new(col as u8, row as u8)
    {
        return Ok(p);
    }
    Err(SetupError::OffBoard {
        loc: raw.loc,
        point: raw.value,
        size,
    })
}
