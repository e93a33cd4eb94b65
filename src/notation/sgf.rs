//! SGF game records of gomoku and renju (`GM[4]`), as c-gomoku-cli, Piskvork's exports and game
//! sites write them: `(;FF[4]GM[4]SZ[15]RU[4]PB[..]PW[..];B[hh];W[ii]C[123ms]…)`.
//!
//! - **Several games.** A file is one or more game trees `( … )`; c-gomoku-cli appends one a
//!   game. One is read ([`Pick`]): the first, or the one `--id` names: the game whose `GN[]`
//!   (game name) is the id, else, for a number `N`, the `N`-th game tree of the file, from 1.
//!   The whole file must parse: an error in any game refuses it, as in a puzzle file.
//! - **The main line.** A tree's nodes, then its first variation, and so on; the other
//!   variations are checked for syntax and skipped.
//! - **Properties read.** `GM` must be 4 (gomoku; a file without `GM` is read as gomoku), `SZ`
//!   is the board size (`15`, or `15:15`; square, 5 to 22; without it `--size`, else 15), `RU`
//!   the rule ([`rule_of`]; ignored when `--rule` is given), `PL` the side to move of a position
//!   without moves, `AB`/`AW` set-up stones (points or `aa:cc` rectangles), `B`/`W` the moves
//!   (one a node, alternating; without set-up stones black moves first), `GN` the game's name.
//!   `AE` (removing stones) and empty moves (passes) are refused. Comments `C[]`, players,
//!   times, results and every other property are skipped, `\]` and `\\` inside values included.
//! - **Set-up before moves.** `GM`, `SZ`, `RU`, `PL`, `AB` and `AW` belong in the nodes up to
//!   the first move's; after it they are an error, never a silent change of the game.
//! - **Points** are two lowercase letters, the column from the left, then the row from the
//!   **top** (`aa` is a15 on 15x15, `hh` is h8); they are turned into RIF rows (from the bottom)
//!   here, at the text boundary.
//!
//! [`write`] writes a position back: a game record as `B`/`W` moves, set-up stones as `AB`/`AW`
//! with `PL`, and the rule as its Gomocup number (`RU[0]`, `RU[1]`, `RU[4]`, what c-gomoku-cli
//! writes).

use nom::branch::alt;
use nom::bytes::complete::{is_not, take_while1};
use nom::character::complete::{anychar, char};
use nom::combinator::recognize;
use nom::multi::many0_count;
use nom::sequence::pair;
use nom::{Input, Parser};

use super::order::OrderError;
use super::span::{self, Cursor, Loc, Located, PResult, RawPoint, Span, Spanned, Syntax};
use crate::board::{Board, Color, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Point, Rule};
use crate::setup::{Setup, StatedSize, Stones};

/// Why an SGF file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// Text that is not SGF: a missing bracket, a stray character, an unclosed game tree.
    #[error("{0}")]
    Syntax(Syntax),
    /// A game tree of another game than gomoku (`GM[1]` is go).
    #[error(
        "GM[{value}] is not a gomoku game record: tengen reads GM[4] (gomoku and renju; GM[1] is go)"
    )]
    NotGomoku {
        /// Where the value is.
        loc: Loc,
        /// The value as written.
        value: String,
    },
    /// A property value tengen cannot take: a size, rule, side or point.
    #[error("{message}")]
    BadValue {
        /// Where the value is.
        loc: Loc,
        /// What is wrong with it.
        message: String,
    },
    /// A set-up property (`SZ`, `AB`, …) in a node after the first move.
    #[error(
        "{property} after the first move: the board size, rule, side to move and set-up stones come before the moves"
    )]
    SetupAfterMove {
        /// Where the property is.
        loc: Loc,
        /// The property.
        property: String,
    },
    /// A move of the wrong colour: two moves of one side in a row, or white first.
    #[error("move {number} is {found}'s, but {expected} is to move")]
    WrongColor {
        /// Where the move is.
        loc: Loc,
        /// The move's number in the game, from 1.
        number: usize,
        /// The colour the node gives.
        found: Color,
        /// The colour that had to move.
        expected: Color,
    },
    /// A node with two moves (`B` and `W`, or two values).
    #[error("a node holds one move, but this one has a second")]
    TwoMoves {
        /// Where the second move is.
        loc: Loc,
    },
}

impl Located for SgfError {
    fn loc(&self) -> Loc {
        match self {
            SgfError::Syntax(s) => s.loc,
            SgfError::NotGomoku { loc, .. }
            | SgfError::BadValue { loc, .. }
            | SgfError::SetupAfterMove { loc, .. }
            | SgfError::WrongColor { loc, .. }
            | SgfError::TwoMoves { loc } => *loc,
        }
    }
}

/// Which game of a file to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pick<'a> {
    /// The first game tree.
    #[default]
    First,
    /// The game whose `GN[]` is this text, else (for a number `N`) the `N`-th game, from 1.
    Id(&'a str),
}

/// How to read an SGF file: what the command line says besides the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SgfOptions<'a> {
    /// The game to read.
    pub pick: Pick<'a>,
    /// The board size of a game without `SZ` (`--size`, else 15).
    pub size: u8,
    /// Whether `--rule` names the rule: `RU` is then not read (nor refused).
    pub rule_given: bool,
}

impl Default for SgfOptions<'_> {
    fn default() -> Self {
        SgfOptions {
            pick: Pick::First,
            size: DEFAULT_SIZE,
            rule_given: false,
        }
    }
}

/// One game of a file, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its position: size, rule, stones and moves.
    pub setup: Setup,
    /// Its number in the file, from 1.
    pub number: usize,
    /// Its `GN[]`, when it has one.
    pub name: Option<String>,
}

/// What a file holds: the game asked for, and what the others are called, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collection {
    /// The game picked; `None` when no game fits the id.
    pub game: Option<Game>,
    /// How many game trees the file holds.
    pub games: usize,
    /// The names of the first few games: `GN[]`, or their number.
    pub first_names: Vec<String>,
}

/// How many game names a [`Collection`] keeps for messages.
const NAMES_KEPT: usize = 5;

/// The rule an `RU[]` value names: a rule name (`renju`, any case), or a Gomocup rule number as
/// c-gomoku-cli writes it and `tengen brain` reads it: `0` freestyle, `1` standard (exactly
/// five; also `3`), `4` renju (also `5`, and `2` as Yixin-Board sends it). Anything else, caro
/// (`8`) among it, is an error.
pub fn rule_of(value: &str) -> Result<Rule, String> {
    let value = value.trim();
    if let Ok(n) = value.parse::<u64>() {
        return match n {
            0 => Ok(Rule::Freestyle),
            1 | 3 => Ok(Rule::Standard),
            2 | 4 | 5 => Ok(Rule::Renju),
            _ => Err(format!(
                "RU[{n}] is not a rule tengen plays: Gomocup numbers 0 (freestyle), 1 (standard) and 4 (renju){}; or say the rule with --rule",
                if n & 8 != 0 { ", not caro (8)" } else { "" }
            )),
        };
    }
    value
        .parse::<Rule>()
        .map_err(|e| format!("RU[{value}]: {e}; or say the rule with --rule"))
}

/// The Gomocup number of a rule, as [`write`] writes `RU`.
fn rule_number(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// A property value: where it starts (a span running on to the end of the input, which is what
/// [`Cursor::loc`] needs to stay linear on a long line) and its text (escapes kept).
#[derive(Clone, Copy, Debug)]
struct Value<'a> {
    at: Span<'a>,
    text: Span<'a>,
}

/// A point as written: column and row letters (`a` = 0, row from the top), and where.
#[derive(Clone, Copy, Debug)]
struct Letters {
    col: u8,
    row: u8,
    loc: Loc,
}

/// What a game tree's main line has said so far.
#[derive(Debug, Default)]
struct Builder {
    number: usize,
    loc: Loc,
    name: Option<String>,
    size: Option<StatedSize>,
    rule: Option<Spanned<Rule>>,
    to_move: Option<Spanned<Color>>,
    placed: [Vec<Letters>; 2],
    moves: Vec<Letters>,
    first: Option<Color>,
    /// Whether a node before the current one held a move.
    moved: bool,
    /// Whether the current node holds a move.
    node_move: bool,
}

/// Where in the tree structure the parser is. Variations are tracked without a stack (a
/// deeply nested file must not overflow it): the main line is a chain of first children, so
/// it is enough to know how deep it reaches and whether its deepest tree has a child yet.
#[derive(Debug, Default)]
struct Trees {
    /// Open game trees.
    depth: usize,
    /// The open trees on the main line (those deeper are variations).
    main_depth: usize,
    /// Whether the deepest main-line tree has had a child.
    main_has_child: bool,
    /// Whether the current tree has had a child (its nodes are then over).
    after_child: bool,
}

impl Trees {
    fn on_main_line(&self) -> bool {
        self.depth == self.main_depth
    }
}

/// The span after any white space at its start.
fn space(i: Span) -> Span {
    let text = i.fragment();
    i.take_from(text.len() - text.trim_start().len())
}

/// A property name: letters; as FF[3] allows, lower-case letters in it are ignored (`AddBlack`
/// is `AB`).
fn ident(i: Span) -> PResult<Span> {
    take_while1(|c: char| c.is_ascii_alphabetic()).parse(i)
}

/// A value's text between `[` and `]` (escapes kept), after the `[`.
fn value_text(i: Span) -> PResult<Span> {
    recognize(many0_count(alt((
        is_not("\\]"),
        recognize(pair(char('\\'), anychar)),
    ))))
    .parse(i)
}

/// A value's text with its escapes undone (`\]` is `]`), soft line breaks removed.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push(next),
            },
            _ => out.push(c),
        }
    }
    out
}

fn syntax_at(span: &Span, expected: &str) -> SgfError {
    SgfError::Syntax(Syntax::at(span, expected))
}

/// Parses an SGF file filling the whole of `input` and returns the game `options` picks.
pub fn parse(input: Span, options: SgfOptions) -> Result<Collection, SgfError> {
    let mut parser = Reader {
        cursor: Cursor::new(input),
        options,
        trees: Trees::default(),
        game: Builder::default(),
        games: 0,
        first_names: Vec::new(),
        first: None,
        by_name: None,
        by_number: None,
    };
    parser.run(input)?;
    let game = match options.pick {
        Pick::First => parser.first,
        Pick::Id(_) => parser.by_name.or(parser.by_number),
    };
    Ok(Collection {
        game,
        games: parser.games,
        first_names: parser.first_names,
    })
}

struct Reader<'a, 'o> {
    cursor: Cursor<'a>,
    options: SgfOptions<'o>,
    trees: Trees,
    game: Builder,
    games: usize,
    first_names: Vec<String>,
    first: Option<Game>,
    by_name: Option<Game>,
    by_number: Option<Game>,
}

impl<'a> Reader<'a, '_> {
    fn run(&mut self, input: Span<'a>) -> Result<(), SgfError> {
        let mut rest = space(input);
        while let Some(c) = rest.fragment().chars().next() {
            match c {
                '(' => {
                    if self.trees.depth == 0 {
                        self.start_game(&rest);
                    }
                    self.open();
                    rest = space(rest.take_from(1));
                    if !rest.fragment().starts_with(';') {
                        return Err(syntax_at(&rest, "';' starting the game tree's first node"));
                    }
                }
                ')' if self.trees.depth > 0 => {
                    self.close();
                    rest = rest.take_from(1);
                    if self.trees.depth == 0 {
                        self.finish_game()?;
                    }
                }
                ';' if self.trees.depth > 0 && !self.trees.after_child => {
                    rest = self.node(rest.take_from(1))?;
                }
                ';' if self.trees.depth > 0 => {
                    return Err(syntax_at(
                        &rest,
                        "'(' or ')': a tree's nodes come before its variations",
                    ));
                }
                _ if self.trees.depth > 0 => {
                    return Err(syntax_at(
                        &rest,
                        "a property like B[hh], or ';', '(' or ')'",
                    ));
                }
                _ => return Err(syntax_at(&rest, "'(' starting a game tree")),
            }
            rest = space(rest);
        }
        if self.trees.depth > 0 {
            // An unclosed tree (a file cut short) is reported where its game starts.
            return Err(SgfError::Syntax(Syntax {
                loc: self.game.loc,
                expected: "a ')' closing this game tree".into(),
                found: "the end of the input".into(),
            }));
        }
        if self.games == 0 {
            return Err(syntax_at(&rest, "'(' starting a game tree"));
        }
        Ok(())
    }

    fn start_game(&mut self, at: &Span<'a>) {
        self.games += 1;
        self.game = Builder {
            number: self.games,
            loc: self.cursor.loc(at),
            ..Builder::default()
        };
        self.trees = Trees::default();
    }

    fn open(&mut self) {
        let t = &mut self.trees;
        if t.depth == 0 {
            t.depth = 1;
            t.main_depth = 1;
            t.main_has_child = false;
        } else if t.on_main_line() && !t.main_has_child {
            // The first variation of the main line continues it.
            t.depth += 1;
            t.main_depth = t.depth;
            t.main_has_child = false;
        } else {
            // A later variation, or one inside a variation: off the main line.
            t.depth += 1;
        }
        t.after_child = false;
    }

    fn close(&mut self) {
        let t = &mut self.trees;
        if t.on_main_line() {
            t.main_depth -= 1;
            t.main_has_child = true;
        }
        t.depth -= 1;
        t.after_child = true;
    }

    /// One node, after its `;`: its properties, up to what follows them.
    fn node(&mut self, mut rest: Span<'a>) -> Result<Span<'a>, SgfError> {
        let main = self.trees.on_main_line();
        if main {
            self.game.moved |= self.game.node_move;
            self.game.node_move = false;
        }
        loop {
            rest = space(rest);
            let name_at = rest;
            let Ok((after, name_span)) = ident(rest) else {
                return Ok(rest);
            };
            let name: String = name_span
                .fragment()
                .chars()
                .filter(char::is_ascii_uppercase)
                .collect();
            if name.is_empty() {
                return Err(syntax_at(
                    &name_span,
                    "a property name in capitals, like B or SZ",
                ));
            }
            rest = space(after);
            let mut values = Vec::new();
            let mut count = 0;
            while rest.fragment().starts_with('[') {
                count += 1;
                let open = rest;
                let inner = rest.take_from(1);
                let (after, text) = value_text(inner)
                    .map_err(|e| SgfError::Syntax(span::syntax(e, "the value's text")))?;
                if !after.fragment().starts_with(']') {
                    return Err(SgfError::Syntax(Syntax {
                        loc: Loc::of(&open),
                        expected: format!("']' closing this value of {name}"),
                        found: "the end of the input".into(),
                    }));
                }
                if main {
                    values.push(Value { at: inner, text });
                }
                rest = space(after.take_from(1));
            }
            if count == 0 {
                return Err(syntax_at(&rest, "'[' starting the property's value"));
            }
            if main {
                self.property(&name, &name_at, &values)?;
            }
        }
    }

    /// Reads one property of the main line.
    fn property(
        &mut self,
        name: &str,
        at: &Span<'a>,
        values: &[Value<'a>],
    ) -> Result<(), SgfError> {
        let setup = matches!(name, "GM" | "SZ" | "RU" | "PL" | "AB" | "AW" | "AE");
        if setup && self.game.moved {
            return Err(SgfError::SetupAfterMove {
                loc: self.cursor.loc(at),
                property: name.to_string(),
            });
        }
        let first = values[0];
        match name {
            "GM" => self.game_kind(&first)?,
            "SZ" => self.board_size(&first)?,
            "RU" if !self.options.rule_given => {
                let loc = self.cursor.loc(&first.at);
                let rule = rule_of(&unescape(first.text.fragment()))
                    .map_err(|message| SgfError::BadValue { loc, message })?;
                self.game.rule = Some(Spanned::new(rule, loc));
            }
            "PL" => self.side_to_play(&first)?,
            "AE" => {
                return Err(SgfError::BadValue {
                    loc: self.cursor.loc(at),
                    message: "AE (taking stones off the board) has no place in gomoku".into(),
                });
            }
            "AB" | "AW" => {
                let color = if name == "AB" { 0 } else { 1 };
                for v in values {
                    for p in self.points(v)? {
                        self.game.placed[color].push(p);
                    }
                }
            }
            "B" | "W" => self.one_move(name, at, values)?,
            "GN" => self.game.name = Some(unescape(first.text.fragment()).trim().to_string()),
            _ => {}
        }
        Ok(())
    }

    /// `GM`: the game must be gomoku (4).
    fn game_kind(&mut self, value: &Value<'a>) -> Result<(), SgfError> {
        let text = unescape(value.text.fragment());
        if text.trim() != "4" {
            return Err(SgfError::NotGomoku {
                loc: self.cursor.loc(&value.at),
                value: text,
            });
        }
        Ok(())
    }

    /// `SZ`: the board size, `15` or a square `15:15`.
    fn board_size(&mut self, value: &Value<'a>) -> Result<(), SgfError> {
        let loc = self.cursor.loc(&value.at);
        let value = unescape(value.text.fragment());
        let bad = |message: String| SgfError::BadValue { loc, message };
        let number = |s: &str| s.trim().parse::<u32>().ok();
        let size = match value.split_once(':') {
            None => number(&value),
            Some((w, h)) => match (number(w), number(h)) {
                (Some(w), Some(h)) if w == h => Some(w),
                (Some(w), Some(h)) => {
                    return Err(bad(format!(
                        "SZ[{value}]: the board must be square, but this one is {w}x{h}"
                    )));
                }
                _ => None,
            },
        };
        let Some(size) = size else {
            return Err(bad(format!(
                "SZ[{value}]: expected a board size like SZ[15]"
            )));
        };
        self.game.size = Some(StatedSize {
            value: size,
            loc,
            exact: true,
        });
        Ok(())
    }

    /// `PL`: the side to move of a position without moves.
    fn side_to_play(&mut self, value: &Value<'a>) -> Result<(), SgfError> {
        let loc = self.cursor.loc(&value.at);
        let color = match unescape(value.text.fragment()).trim() {
            "B" | "b" => Color::Black,
            "W" | "w" => Color::White,
            other => {
                return Err(SgfError::BadValue {
                    loc,
                    message: format!("PL[{other}]: expected PL[B] or PL[W]"),
                });
            }
        };
        self.game.to_move = Some(Spanned::new(color, loc));
        Ok(())
    }

    /// `B` or `W` (`name`): the node's one move, of the side whose turn it is, on a point.
    fn one_move(
        &mut self,
        name: &str,
        at: &Span<'a>,
        values: &[Value<'a>],
    ) -> Result<(), SgfError> {
        let first = values[0];
        let color = if name == "B" {
            Color::Black
        } else {
            Color::White
        };
        if self.game.node_move || values.len() > 1 {
            let second = if self.game.node_move {
                *at
            } else {
                values[1].at
            };
            return Err(SgfError::TwoMoves {
                loc: self.cursor.loc(&second),
            });
        }
        let loc = self.cursor.loc(&first.at);
        let expected =
            match (self.game.moves.len(), self.game.first) {
                (0, _) => self.game.to_move.map(|s| s.value).or_else(|| {
                    (self.game.placed.iter().all(Vec::is_empty)).then_some(Color::Black)
                }),
                (n, Some(first)) if n % 2 == 0 => Some(first),
                (_, first) => first.map(Color::opponent),
            };
        if let Some(expected) = expected
            && expected != color
        {
            return Err(SgfError::WrongColor {
                loc,
                number: self.game.moves.len() + 1,
                found: color,
                expected,
            });
        }
        if first.text.fragment().trim().is_empty() {
            return Err(SgfError::BadValue {
                loc,
                message: format!(
                    "{name}[] is a pass, and gomoku has none: a move is a point like {name}[hh]"
                ),
            });
        }
        let p = point(first.text.fragment(), loc)?;
        self.game.first.get_or_insert(color);
        self.game.moves.push(p);
        self.game.node_move = true;
        Ok(())
    }

    /// A point value: two letters, or an `aa:cc` rectangle of them.
    fn points(&mut self, value: &Value<'a>) -> Result<Vec<Letters>, SgfError> {
        let loc = self.cursor.loc(&value.at);
        let text = value.text.fragment();
        let Some((from, to)) = text.split_once(':') else {
            return Ok(vec![point(text, loc)?]);
        };
        let to_loc = Loc::new(loc.line, loc.column + from.chars().count() as u32 + 1);
        let (a, b) = (point(from, loc)?, point(to, to_loc)?);
        let mut out = Vec::new();
        for col in a.col.min(b.col)..=a.col.max(b.col) {
            for row in a.row.min(b.row)..=a.row.max(b.row) {
                out.push(Letters { col, row, loc });
            }
        }
        Ok(out)
    }

    /// The game tree just closed: converts its points and keeps it if it is the one asked for.
    fn finish_game(&mut self) -> Result<(), SgfError> {
        let game = std::mem::take(&mut self.game);
        if self.first_names.len() < NAMES_KEPT {
            self.first_names.push(
                game.name
                    .clone()
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| game.number.to_string()),
            );
        }
        let wanted_by_name = match self.options.pick {
            Pick::Id(id) => self.by_name.is_none() && game.name.as_deref() == Some(id),
            Pick::First => false,
        };
        let wanted_by_number = match self.options.pick {
            Pick::Id(id) => {
                self.by_number.is_none() && id.trim().parse::<usize>() == Ok(game.number)
            }
            Pick::First => game.number == 1,
        };
        // Every game's points are checked, the picked one's kept.
        let setup = game_setup(&game, self.options.size)?;
        if wanted_by_name || wanted_by_number {
            let picked = Game {
                setup,
                number: game.number,
                name: game.name,
            };
            match self.options.pick {
                Pick::First => self.first = Some(picked),
                Pick::Id(_) if wanted_by_name => self.by_name = Some(picked),
                Pick::Id(_) => self.by_number = Some(picked),
            }
        }
        Ok(())
    }
}

/// One point: two lower-case letters, column then row from the top.
fn point(text: &str, loc: Loc) -> Result<Letters, SgfError> {
    let text = text.trim();
    let bytes = text.as_bytes();
    if bytes.len() == 2 && bytes.iter().all(u8::is_ascii_lowercase) {
        return Ok(Letters {
            col: bytes[0] - b'a',
            row: bytes[1] - b'a',
            loc,
        });
    }
    Err(SgfError::BadValue {
        loc,
        message: format!(
            "{:?} is not a point: expected two lower-case letters, column then row from the top, like hh (h8 on 15x15)",
            text.chars().take(16).collect::<String>()
        ),
    })
}

/// The setup of a game read: its points turned into RIF points on its board.
fn game_setup(game: &Builder, default_size: u8) -> Result<Setup, SgfError> {
    let size = game.size.map_or(default_size as u32, |s| s.value);
    // A size out of range is refused when the board is built (at `SZ`); its points are not
    // judged against it.
    let checked = (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&size);
    let raw = |p: &Letters| -> Result<Spanned<RawPoint>, SgfError> {
        if checked && (p.col as u32 >= size || p.row as u32 >= size) {
            let last = (b'a' + size as u8 - 1) as char;
            return Err(SgfError::BadValue {
                loc: p.loc,
                message: format!(
                    "'{}{}' is off the {size}x{size} board (letters a-{last})",
                    (b'a' + p.col) as char,
                    (b'a' + p.row) as char
                ),
            });
        }
        Ok(Spanned::new(
            RawPoint {
                col: p.col as i64,
                row: size as i64 - 1 - p.row as i64,
            },
            p.loc,
        ))
    };
    let all = |ps: &[Letters]| ps.iter().map(raw).collect::<Result<Vec<_>, _>>();
    let (black, white, moves) = (
        all(&game.placed[0])?,
        all(&game.placed[1])?,
        all(&game.moves)?,
    );
    let placed = !(black.is_empty() && white.is_empty());
    let stones = match (placed, moves.is_empty()) {
        (false, _) => Stones::Moves(moves),
        (true, true) => Stones::Placed { black, white },
        (true, false) => Stones::PlacedThenMoves {
            black,
            white,
            first: game.first.unwrap_or(Color::Black),
            moves,
        },
    };
    Ok(Setup {
        size: game.size,
        rule: game.rule,
        to_move: if game.moves.is_empty() {
            game.to_move
        } else {
            None
        },
        stones,
        loc: game.loc,
    })
}

/// The two letters of a point on a board of edge `size` (row from the top).
fn letters(p: Point, size: u8) -> String {
    format!(
        "{}{}",
        (b'a' + p.x()) as char,
        (b'a' + (size - 1 - p.y())) as char
    )
}

/// Writes `board` as one SGF game tree: `FF[4]GM[4]`, its size and rule (`RU` as the Gomocup
/// number), set-up stones as `AB`/`AW` (with `PL` when no move follows), then the moves as
/// `B`/`W` nodes, ten a line. A board whose side to move is not the one its moves leave to move
/// cannot be written with moves (the same refusal as a move list's).
pub fn write(board: &Board) -> Result<String, OrderError> {
    let size = board.size();
    let history = board.history();
    let mut out = format!("(;FF[4]GM[4]SZ[{size}]RU[{}]", rule_number(board.rule()));
    let mut placed = [Vec::new(), Vec::new()];
    for color in [Color::Black, Color::White] {
        placed[color.index()] = board
            .stones(color)
            .filter(|p| !history.contains(p))
            .collect();
        // In reading order, as SGF counts rows: from the top.
        placed[color.index()].sort_by_key(|p| (size - 1 - p.y(), p.x()));
    }
    for (color, tag) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let stones = &placed[color.index()];
        if !stones.is_empty() {
            out.push_str(tag);
            for &p in stones {
                out.push_str(&format!("[{}]", letters(p, size)));
            }
        }
    }
    match history.last() {
        None => out.push_str(&format!(
            "PL[{}]",
            if board.to_move() == Color::Black {
                "B"
            } else {
                "W"
            }
        )),
        Some(&last) => {
            let last_color = board.get(last).unwrap_or(Color::Black);
            if board.to_move() != last_color.opponent() {
                return Err(OrderError::SideMismatch {
                    moves: history.len(),
                    expected: last_color.opponent(),
                    to_move: board.to_move(),
                });
            }
        }
    }
    for (k, &p) in history.iter().enumerate() {
        if k % 10 == 0 {
            out.push('\n');
        }
        let tag = if board.get(p) == Some(Color::Black) {
            "B"
        } else {
            "W"
        };
        out.push_str(&format!(";{tag}[{}]", letters(p, size)));
    }
    out.push_str(")\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Collection, SgfError> {
        parse(Span::new(text), SgfOptions::default())
    }

    fn game(text: &str) -> Setup {
        read(text).unwrap().game.unwrap().setup
    }

    fn pick(text: &str, id: &str) -> Option<Game> {
        let options = SgfOptions {
            pick: Pick::Id(id),
            ..SgfOptions::default()
        };
        parse(Span::new(text), options).unwrap().game
    }

    /// The points of a list, as RIF text.
    fn rif(points: &[Spanned<RawPoint>]) -> Vec<String> {
        points.iter().map(|p| p.value.to_string()).collect()
    }

    fn moves(setup: &Setup) -> Vec<String> {
        match &setup.stones {
            Stones::Moves(m) | Stones::PlacedThenMoves { moves: m, .. } => rif(m),
            Stones::Placed { .. } => Vec::new(),
        }
    }

    fn error(text: &str) -> (Loc, String) {
        let e = read(text).unwrap_err();
        (e.loc(), e.to_string())
    }

    #[test]
    fn reads_a_c_gomoku_cli_game_with_times() {
        let text = "(;FF[4]GM[4]GN[1]EV[rapfi x tengen]DT[2026.11.27 06:57:54]RO[1.1]RU[4]SZ[15]PB[rapfi]PW[tengen]RE[W+1]TE[White win by five connection]\n;B[ff]C[opening move];W[hg]C[opening move];B[ii]C[opening move]\n;W[gh]C[512ms];B[ig]C[972ms]\n)\n";
        let s = game(text);
        // Rows count from the top in SGF: ff is f10, hg h9, ii i7.
        assert_eq!(moves(&s), ["f10", "h9", "i7", "g8", "i9"]);
        assert_eq!(s.rule.map(|r| r.value), Some(Rule::Renju));
        assert_eq!(s.size.map(|s| s.value), Some(15));
        assert_eq!(s.rule.unwrap().loc, Loc::new(1, 69));
        // The moves' locations are their values'.
        let Stones::Moves(m) = &s.stones else {
            panic!()
        };
        assert_eq!(m[0].loc, Loc::new(2, 4));
        assert_eq!(m[3].loc, Loc::new(3, 4));
    }

    #[test]
    fn several_games_first_by_default_else_by_name_or_number() {
        let text = "(;GM[4]GN[final];B[hh];W[hi])\n(;GM[4]GN[2];B[aa])\n(;GM[4];B[gg])\n";
        let all = read(text).unwrap();
        assert_eq!(all.games, 3);
        assert_eq!(all.first_names, ["final", "2", "3"]);
        assert_eq!(moves(&all.game.unwrap().setup), ["h8", "h7"]);
        assert_eq!(pick(text, "final").unwrap().number, 1);
        // A name wins over a number: game 2 is the one named "2" (also the second).
        assert_eq!(pick(text, "2").unwrap().number, 2);
        assert_eq!(pick(text, "3").map(|g| moves(&g.setup)).unwrap(), ["g9"]);
        assert_eq!(pick(text, "4"), None);
        assert_eq!(pick(text, "semi"), None);
        // c-gomoku-cli numbers games in the order they start; with several at once they end
        // (and are written) out of order, so its GN is looked up first.
        let shuffled = "(;GM[4]GN[2];B[aa])(;GM[4]GN[1];B[bb])";
        assert_eq!(pick(shuffled, "1").unwrap().number, 2);
    }

    #[test]
    fn the_main_line_follows_first_variations() {
        let text = "(;GM[4]SZ[15];B[hh](;W[ii];B[jj](;W[kk])(;W[ll]))(;W[gg];B[ff]))";
        assert_eq!(moves(&game(text)), ["h8", "i7", "j6", "k5"]);
        // A deep nesting needs no stack.
        let deep = format!(
            "(;B[hh]{}{})",
            "(;C[x]".repeat(100_000),
            ")".repeat(100_000)
        );
        assert_eq!(moves(&game(&deep)), ["h8"]);
    }

    #[test]
    fn comments_and_unknown_properties_are_skipped() {
        let text = "(;GM[4]XX[what\\]ever]C[a \\] in a comment \\\\]AP[x:1.0]\n;B[hh]C[multi\nline];W[ii]TR[aa][bb])";
        assert_eq!(moves(&game(text)), ["h8", "i7"]);
        assert_eq!(unescape("a\\]b\\\\c\\\nd"), "a]b\\cd");
    }

    #[test]
    fn set_up_stones_and_side_to_move() {
        let s = game("(;GM[4]SZ[9]AB[cc:dd][ee]AW[ff][gg]PL[W])");
        let Stones::Placed { black, white } = &s.stones else {
            panic!("{:?}", s.stones)
        };
        assert_eq!(rif(black), ["c7", "c6", "d7", "d6", "e5"]);
        assert_eq!(rif(white), ["f4", "g3"]);
        assert_eq!(s.to_move.map(|c| c.value), Some(Color::White));
        // Then moves: white may start when stones are set up.
        let s = game("(;GM[4]AB[hh]AW[hi];W[ii];B[jj])");
        let Stones::PlacedThenMoves { first, moves, .. } = &s.stones else {
            panic!("{:?}", s.stones)
        };
        assert_eq!(
            (*first, rif(moves)),
            (Color::White, vec!["i7".into(), "j6".into()])
        );
    }

    #[test]
    fn sizes_and_rules() {
        assert_eq!(game("(;SZ[19:19];B[aa])").size.unwrap().value, 19);
        assert_eq!(moves(&game("(;SZ[19];B[aa])")), ["a19"]);
        // Without SZ: 15, or the size asked for.
        assert_eq!(moves(&game("(;B[aa])")), ["a15"]);
        let options = SgfOptions {
            size: 19,
            ..SgfOptions::default()
        };
        let c = parse(Span::new("(;B[aa])"), options).unwrap();
        assert_eq!(moves(&c.game.unwrap().setup), ["a19"]);
        for (ru, rule) in [
            ("0", Rule::Freestyle),
            ("1", Rule::Standard),
            ("4", Rule::Renju),
            ("5", Rule::Renju),
            ("Renju", Rule::Renju),
            ("standard", Rule::Standard),
        ] {
            let s = game(&format!("(;RU[{ru}];B[hh])"));
            assert_eq!(s.rule.unwrap().value, rule, "RU[{ru}]");
        }
        assert!(error("(;RU[8];B[hh])").1.contains("not caro"));
        assert!(error("(;RU[gomoku];B[hh])").1.contains("names either rule"));
        // With --rule, RU is not read at all.
        let options = SgfOptions {
            rule_given: true,
            ..SgfOptions::default()
        };
        let c = parse(Span::new("(;RU[Japanese];B[hh])"), options).unwrap();
        assert_eq!(c.game.unwrap().setup.rule, None);
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(error("(;GM[1];B[pd])").0, Loc::new(1, 6));
        assert!(error("(;GM[1];B[pd])").1.contains("GM[1] is not a gomoku"));
        // An unclosed tree points at its start.
        let (loc, msg) = error("(;B[hh])\n(;GM[4];B[hh];W[ii]\n");
        assert_eq!(loc, Loc::new(2, 1));
        assert!(msg.contains("')' closing this game tree"), "{msg}");
        let (loc, msg) = error("(;B[hh];W[ii");
        assert_eq!(loc, Loc::new(1, 10));
        assert!(msg.contains("']' closing this value of W"), "{msg}");
        // A value that runs on to a later ']' is a bad point, shown on one line.
        let (loc, msg) = error("(;B[hh];W[ii\n;B[jj])");
        assert_eq!(loc, Loc::new(1, 11));
        assert!(msg.starts_with("\"ii\\n;B[jj\" is not a point"), "{msg}");
        assert_eq!(
            error("(;B[hh];B[ii])"),
            (
                Loc::new(1, 11),
                "move 2 is black's, but white is to move".into()
            )
        );
        assert_eq!(error("(;W[hh])").0, Loc::new(1, 5));
        assert_eq!(error("(;GM[4]PL[W];B[hh])").0, Loc::new(1, 16));
        assert!(error("(;B[hh];W[])").1.contains("pass"));
        assert_eq!(error("(;B[hh];SZ[19];W[ii])").0, Loc::new(1, 9));
        assert_eq!(error("(;B[hh]W[ii])").0, Loc::new(1, 8));
        assert_eq!(error("(;B[hh][ii])").0, Loc::new(1, 9));
        let (loc, msg) = error("(;SZ[15]\n;B[hh];W[zz])");
        assert_eq!(loc, Loc::new(2, 10));
        assert!(
            msg.contains("'zz' is off the 15x15 board (letters a-o)"),
            "{msg}"
        );
        assert!(error("(;B[h8])").1.contains("not a point"));
        assert!(error("(;SZ[15:19])").1.contains("square"));
        assert!(error("(;SZ[big])").1.contains("expected a board size"));
        assert!(error("(;AE[hh])").1.contains("AE"));
        // Syntax.
        assert_eq!(error("(;B[hh]!)").0, Loc::new(1, 8));
        assert_eq!(error("(B[hh])").0, Loc::new(1, 2));
        assert_eq!(error("x(;B[hh])").0, Loc::new(1, 1));
        assert_eq!(error("(;B[hh](;W[ii]);B[jj])").0, Loc::new(1, 16));
        assert_eq!(error("(;B [hh] C\n)").0, Loc::new(2, 1));
        assert_eq!(error("(;b[hh])").0, Loc::new(1, 3));
        assert_eq!(error("(;B[hh]))").0, Loc::new(1, 9));
    }

    #[test]
    fn writes_games_and_set_ups_that_read_back() {
        let mut board = Board::new(15, Rule::Renju).unwrap();
        for m in ["h8", "h9", "i9"] {
            board.play(m.parse().unwrap());
        }
        let text = write(&board).unwrap();
        assert_eq!(text, "(;FF[4]GM[4]SZ[15]RU[4]\n;B[hh];W[hg];B[ig])\n");
        assert_eq!(moves(&game(&text)), ["h8", "h9", "i9"]);
        let mut composed = Board::new(7, Rule::Freestyle).unwrap();
        composed.put("a1".parse().unwrap(), Color::Black);
        composed.put("b2".parse().unwrap(), Color::White);
        composed.set_to_move(Color::White);
        let text = write(&composed).unwrap();
        assert_eq!(text, "(;FF[4]GM[4]SZ[7]RU[0]AB[ag]AW[bf]PL[W])\n");
        // A record whose side to move is not the one it leaves to move is refused.
        board.set_to_move(Color::Black);
        assert!(matches!(
            write(&board),
            Err(OrderError::SideMismatch { .. })
        ));
    }
}
