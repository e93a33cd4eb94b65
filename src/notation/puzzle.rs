//! Puzzle files: many puzzles per file, each a block of `key: value` lines, blocks separated by
//! blank lines, `#` comment lines anywhere. The format is the one of `shared/puzzles-public`
//! (its README defines the keys) plus a multi-line `board:` key whose following lines hold a
//! diagram. Keys, in the order the writer uses:
//!
//! | key | value |
//! | --- | --- |
//! | `id` | unique id (required) |
//! | `rule` | `freestyle`, `standard` or `renju` |
//! | `size` | board edge, 5-22 (15 when absent) |
//! | `moves` / `black` + `white` / `board` | the position: a game record, stone lists, or a diagram |
//! | `to-move` | `black` or `white` |
//! | `answer` | a line of moves, `any of <moves>`, `none` or `win`, each with an optional `(comment)` |
//! | `kind` | `vcf`, `vct`, `win`, `no-win` or `best-move` |
//! | `limit`, `threat-limit` | attacker-move bounds |
//! | `tags` | space-separated words |
//! | `task`, `source`, `note` | free text |
//!
//! An unknown key, a repeated key or a repeated id is an error naming its line.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;

use super::span::{self, Loc, Located, RawPoint, Span, Spanned, Syntax};
use super::{DiagramError, MovesError, diagram, moves};
use crate::board::{Board, Color, Point, Rule};
use crate::setup::{Setup, StatedSize, Stones};

/// Why a puzzle file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// A line that is not `key: value` (nor a diagram line under `board:`).
    #[error("{0}")]
    Syntax(Syntax),
    /// A key the format does not have.
    #[error("unknown key '{key}' (known keys: {})", KEYS.join(", "))]
    UnknownKey {
        /// Where the key is.
        loc: Loc,
        /// The key.
        key: String,
    },
    /// A key given twice in one puzzle.
    #[error("key '{key}' appears twice in one puzzle (first at line {})", first.line)]
    DuplicateKey {
        /// Where the second is.
        loc: Loc,
        /// The key.
        key: String,
        /// Where the first is.
        first: Loc,
    },
    /// A puzzle without a key it needs.
    #[error("this puzzle has no '{key}:' key")]
    MissingKey {
        /// Where the puzzle's block starts.
        loc: Loc,
        /// The missing key.
        key: &'static str,
    },
    /// A puzzle with none of `moves:`, `black:` / `white:` and `board:`.
    #[error("puzzle '{id}' has no position: give 'moves:', 'black:'/'white:' or 'board:'")]
    MissingPosition {
        /// Where the puzzle's block starts.
        loc: Loc,
        /// The puzzle's id.
        id: String,
    },
    /// A puzzle giving its position in two forms (`black:` with `white:` is one form).
    #[error("'{key}:' and '{other}:' both give the position: keep one")]
    ConflictingPosition {
        /// Where `key` is.
        loc: Loc,
        /// The second of `moves`, `board`, `black`, `white` the puzzle has.
        key: String,
        /// The first of them.
        other: String,
    },
    /// An id two puzzles of the file share.
    #[error("id '{id}' is used twice (first at line {})", first.line)]
    DuplicateId {
        /// Where the second puzzle's block starts.
        loc: Loc,
        /// The id.
        id: String,
        /// Where the first puzzle's block starts.
        first: Loc,
    },
    /// A value its key does not take.
    #[error("bad value for '{key}': expected {expected}, found '{found}'")]
    BadValue {
        /// Where the value is.
        loc: Loc,
        /// The key.
        key: &'static str,
        /// What the key takes.
        expected: &'static str,
        /// The value as written.
        found: String,
    },
    /// A list of moves or points (`moves:`, `black:`, `white:`, `answer:`) that does not parse.
    #[error("{0}")]
    Moves(MovesError),
    /// A `board:` diagram that is refused.
    #[error("{0}")]
    Diagram(DiagramError),
    /// A text with no puzzle.
    #[error("no puzzles found")]
    Empty {
        /// Where the text starts.
        loc: Loc,
    },
}

impl Located for PuzzleError {
    fn loc(&self) -> Loc {
        match self {
            PuzzleError::Syntax(s) => s.loc,
            PuzzleError::Moves(e) => e.loc(),
            PuzzleError::Diagram(e) => e.loc(),
            PuzzleError::UnknownKey { loc, .. }
            | PuzzleError::DuplicateKey { loc, .. }
            | PuzzleError::MissingKey { loc, .. }
            | PuzzleError::MissingPosition { loc, .. }
            | PuzzleError::ConflictingPosition { loc, .. }
            | PuzzleError::DuplicateId { loc, .. }
            | PuzzleError::BadValue { loc, .. }
            | PuzzleError::Empty { loc } => *loc,
        }
    }
}

const KEYS: [&str; 17] = [
    "id",
    "rule",
    "size",
    "moves",
    "black",
    "white",
    "board",
    "to-move",
    "answer",
    "also",
    "kind",
    "limit",
    "threat-limit",
    "tags",
    "task",
    "source",
    "note",
];

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Find a victory by continuous fours.
    Vcf,
    /// Find a victory by continuous threats.
    Vct,
    /// Find a forced win.
    Win,
    /// Confirm there is no win within the stated bounds.
    NoWin,
    /// Find the best move (in the public files: every correct defence).
    BestMove,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Vcf => "vcf",
            Kind::Vct => "vct",
            Kind::Win => "win",
            Kind::NoWin => "no-win",
            Kind::BestMove => "best-move",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The stated answer, without its comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerForm {
    /// A winning line, attacker first.
    Line(Vec<Spanned<RawPoint>>),
    /// A set of moves, any one of which is correct.
    AnyOf(Vec<Spanned<RawPoint>>),
    /// No win (within the stated bound).
    None,
    /// A win exists but no line is given.
    Win,
}

/// An `answer:` value: its form and the comment in parentheses after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What the answer states.
    pub form: AnswerForm,
    /// The comment in parentheses after it, if any.
    pub comment: Option<String>,
    /// Where the value starts.
    pub loc: Loc,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |ps: &Vec<Spanned<RawPoint>>| {
            ps.iter()
                .map(|p| p.value.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match &self.form {
            AnswerForm::Line(ps) => write!(f, "{}", list(ps))?,
            AnswerForm::AnyOf(ps) => write!(f, "any of {}", list(ps))?,
            AnswerForm::None => write!(f, "none")?,
            AnswerForm::Win => write!(f, "win")?,
        }
        match &self.comment {
            Some(c) => write!(f, " ({c})"),
            None => Ok(()),
        }
    }
}

/// Everything a puzzle says besides its position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Meta {
    /// The puzzle's unique id (`id:`).
    pub id: String,
    /// The stated answer (`answer:`).
    pub answer: Option<Answer>,
    /// What the puzzle asks (`kind:`).
    pub kind: Option<Kind>,
    /// The most attacker moves up to the one that makes the win unstoppable (`limit:`).
    pub limit: Option<u32>,
    /// For a VCT: attacker moves in the VCF that makes a quiet move a threat (`threat-limit:`).
    pub threat_limit: Option<u32>,
    /// Other first moves known to win too (`also:`): duals the composer accepts, which
    /// `check --strict` does not count as second solutions (each must still win).
    pub also: Vec<Spanned<RawPoint>>,
    /// Words to pick puzzles by, such as `heavy` (`tags:`).
    pub tags: Vec<String>,
    /// What the puzzle asks, in words (`task:`).
    pub task: Option<String>,
    /// Where the puzzle comes from (`source:`).
    pub source: Option<String>,
    /// Remarks, such as the source's comments (`note:`).
    pub note: Option<String>,
    /// Where the puzzle's block starts.
    pub loc: Loc,
    /// The position was written as a `board:` diagram (a rewrite keeps it one).
    pub board_form: bool,
}

/// One puzzle: its position as parsed, and the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Everything the puzzle says besides its position.
    pub meta: Meta,
    /// The position, as parsed.
    pub setup: Setup,
}

struct Entry<'a> {
    key: Spanned<&'a str>,
    value: Span<'a>,
}

/// `key: value` at the start of a line; the key is lower case letters, digits and dashes.
fn key_value(line: Span<'_>) -> Option<(Spanned<&str>, Span<'_>)> {
    let text = *line.fragment();
    let colon = text.find(':')?;
    let key = &text[..colon];
    let mut chars = key.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok {
        return None;
    }
    let value = span::trim(span::slice(line, colon + 1, text.len()));
    Some((Spanned::new(key, Loc::of(&line)), value))
}

/// Ends a block: its entries, or the error that broke it.
fn close<'a>(
    block: &mut Vec<Entry<'a>>,
    broken: &mut Option<PuzzleError>,
) -> Option<Result<Vec<Entry<'a>>, Failed>> {
    if let Some(error) = broken.take() {
        let id = block.iter().find(|e| e.key.value == "id").and_then(text);
        block.clear();
        return Some(Err(Failed { id, error }));
    }
    (!block.is_empty()).then(|| Ok(std::mem::take(block)))
}

/// Splits the text into blocks of entries, one block at a time. A `board:` key with no value on
/// its line takes the following lines, up to a blank line or the next key, as a diagram. A line
/// that is neither makes its block an error (the rest of the block is skipped); the other blocks
/// still come.
struct Blocks<'a> {
    input: Span<'a>,
    lines: span::Lines<'a>,
    block: Vec<Entry<'a>>,
    broken: Option<PuzzleError>,
    /// Index in `block` of an open `board:` entry.
    open_board: Option<usize>,
}

fn blocks(input: Span) -> Blocks {
    Blocks {
        input,
        lines: span::lines(input),
        block: Vec::new(),
        broken: None,
        open_board: None,
    }
}

impl<'a> Iterator for Blocks<'a> {
    type Item = Result<Vec<Entry<'a>>, Failed>;

    fn next(&mut self) -> Option<Self::Item> {
        let base = self.input.location_offset();
        for line in self.lines.by_ref() {
            let trimmed = line.fragment().trim();
            if trimmed.is_empty() {
                self.open_board = None;
                match close(&mut self.block, &mut self.broken) {
                    Some(done) => return Some(done),
                    None => continue,
                }
            }
            if trimmed.starts_with('#') || self.broken.is_some() {
                continue;
            }
            if let Some((key, value)) = key_value(line) {
                self.open_board = (key.value == "board" && value.fragment().is_empty())
                    .then_some(self.block.len());
                self.block.push(Entry { key, value });
                continue;
            }
            match self.open_board {
                Some(i) => {
                    let entry = &mut self.block[i];
                    let start = if entry.value.fragment().is_empty() {
                        line.location_offset() - base
                    } else {
                        entry.value.location_offset() - base
                    };
                    let end = line.location_offset() - base + line.fragment().len();
                    entry.value = span::slice(self.input, start, end);
                }
                None => {
                    self.broken = Some(PuzzleError::Syntax(Syntax::at(
                        &span::trim(line),
                        "'key: value' (a puzzle key such as 'id:' or 'moves:')",
                    )));
                }
            }
        }
        close(&mut self.block, &mut self.broken)
    }
}

fn bad(entry: &Entry, key: &'static str, expected: &'static str) -> PuzzleError {
    PuzzleError::BadValue {
        loc: Loc::of(&entry.value),
        key,
        expected,
        found: shorten(entry.value.fragment()),
    }
}

/// A value as an error quotes it: at most 40 characters, with `…` when cut.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

fn number(entry: &Entry, key: &'static str) -> Result<u32, PuzzleError> {
    entry
        .value
        .fragment()
        .parse()
        .map_err(|_| bad(entry, key, "a whole number"))
}

fn text(entry: &Entry) -> Option<String> {
    let t = entry.value.fragment();
    (!t.is_empty()).then(|| t.to_string())
}

fn points(value: Span) -> Result<Vec<Spanned<RawPoint>>, PuzzleError> {
    moves::parse(value).map_err(PuzzleError::Moves)
}

fn answer(entry: &Entry) -> Result<Answer, PuzzleError> {
    let value = entry.value;
    let text = *value.fragment();
    let (head, comment) = match text.find('(') {
        Some(open) => {
            if !text.ends_with(')') {
                return Err(bad(
                    entry,
                    "answer",
                    "a comment closed by ')' at the end of the line",
                ));
            }
            (
                span::trim(span::slice(value, 0, open)),
                Some(text[open + 1..text.len() - 1].to_string()),
            )
        }
        None => (value, None),
    };
    let h = *head.fragment();
    let missing = || {
        bad(
            entry,
            "answer",
            "a line of moves, 'any of <moves>', 'none' or 'win'",
        )
    };
    // A list that holds no move (all of it a `#` comment, say) is no answer: it would be
    // written back as an empty value.
    let some = |ps: Vec<Spanned<RawPoint>>| match ps.is_empty() {
        true => Err(missing()),
        false => Ok(ps),
    };
    let form = if h == "none" {
        AnswerForm::None
    } else if h == "win" {
        AnswerForm::Win
    } else if let Some(rest) = h.strip_prefix("any of") {
        AnswerForm::AnyOf(some(points(span::slice(
            head,
            h.len() - rest.len(),
            h.len(),
        ))?)?)
    } else {
        AnswerForm::Line(some(points(head)?)?)
    };
    Ok(Answer {
        form,
        comment,
        loc: Loc::of(&value),
    })
}

/// The block's entry for `key`, if it has one.
fn find<'e, 'a>(entries: &'e [Entry<'a>], key: &str) -> Option<&'e Entry<'a>> {
    entries.iter().find(|e| e.key.value == key)
}

/// A block read into its puzzle. Its errors come in the order of its parts: the keys, the id,
/// the rule, size and side stated, the position, then the rest of what it says.
fn puzzle(entries: &[Entry]) -> Result<Puzzle, PuzzleError> {
    let block_loc = entries[0].key.loc;
    check_keys(entries)?;
    let id = find(entries, "id")
        .and_then(text)
        .ok_or(PuzzleError::MissingKey {
            loc: block_loc,
            key: "id",
        })?;
    let (rule, size, to_move) = stated(entries)?;
    let mut setup = position(entries, block_loc, &id)?;
    setup.size = size.or(setup.size);
    setup.rule = rule;
    setup.to_move = to_move.or(setup.to_move);
    let meta = meta(entries, id, block_loc)?;
    Ok(Puzzle { meta, setup })
}

/// Refuses a key the format does not know and a key given twice.
fn check_keys(entries: &[Entry]) -> Result<(), PuzzleError> {
    let mut seen: HashMap<&str, Loc> = HashMap::new();
    for e in entries {
        if !KEYS.contains(&e.key.value) {
            return Err(PuzzleError::UnknownKey {
                loc: e.key.loc,
                key: e.key.value.to_string(),
            });
        }
        if let Some(first) = seen.insert(e.key.value, e.key.loc) {
            return Err(PuzzleError::DuplicateKey {
                loc: e.key.loc,
                key: e.key.value.to_string(),
                first,
            });
        }
    }
    Ok(())
}

/// The rule, board size and side to move the block states.
type Stated = (
    Option<Spanned<Rule>>,
    Option<StatedSize>,
    Option<Spanned<Color>>,
);

/// The `rule:`, `size:` and `to-move:` the block states, each where it is written.
fn stated(entries: &[Entry]) -> Result<Stated, PuzzleError> {
    let rule = match find(entries, "rule") {
        Some(e) => Some(Spanned::new(
            e.value
                .fragment()
                .parse::<Rule>()
                .map_err(|_| bad(e, "rule", "freestyle, standard or renju"))?,
            Loc::of(&e.value),
        )),
        None => None,
    };
    let size = match find(entries, "size") {
        Some(e) => Some(StatedSize {
            value: number(e, "size")?,
            loc: Loc::of(&e.value),
            exact: true,
        }),
        None => None,
    };
    let to_move = match find(entries, "to-move") {
        Some(e) => Some(Spanned::new(
            e.value
                .fragment()
                .parse::<Color>()
                .map_err(|_| bad(e, "to-move", "black or white"))?,
            Loc::of(&e.value),
        )),
        None => None,
    };
    Ok((rule, size, to_move))
}

/// The keys that give the position, in the order one is preferred to another.
const POSITION_KEYS: [&str; 4] = ["moves", "board", "black", "white"];

/// The position the block gives: by `moves:`, `board:`, or `black:` and `white:` (the one
/// pair of them that goes together).
fn position(entries: &[Entry], block_loc: Loc, id: &str) -> Result<Setup, PuzzleError> {
    let forms: Vec<&Entry> = POSITION_KEYS
        .iter()
        .filter_map(|k| find(entries, k))
        .collect();
    if let [first, second, ..] = forms[..] {
        let pair = (first.key.value, second.key.value);
        if pair != ("black", "white") {
            return Err(PuzzleError::ConflictingPosition {
                loc: second.key.loc,
                key: second.key.value.to_string(),
                other: first.key.value.to_string(),
            });
        }
    }
    let stones = |key| {
        find(entries, key)
            .map(|e| points(e.value))
            .transpose()
            .map(Option::unwrap_or_default)
    };
    Ok(match forms.first() {
        None => {
            return Err(PuzzleError::MissingPosition {
                loc: block_loc,
                id: id.to_string(),
            });
        }
        Some(e) if e.key.value == "moves" => Setup {
            size: None,
            rule: None,
            to_move: None,
            stones: Stones::Moves(points(e.value)?),
            loc: Loc::of(&e.value),
        },
        Some(e) if e.key.value == "board" => {
            diagram::parse(e.value).map_err(PuzzleError::Diagram)?
        }
        Some(e) => Setup {
            size: None,
            rule: None,
            to_move: None,
            stones: Stones::Placed {
                black: stones("black")?,
                white: stones("white")?,
            },
            loc: Loc::of(&e.value),
        },
    })
}

/// What the block says besides its position: the id, the answer, the kind, the limits and the
/// notes.
fn meta(entries: &[Entry], id: String, block_loc: Loc) -> Result<Meta, PuzzleError> {
    let get = |key: &str| find(entries, key);
    let kind = match get("kind") {
        Some(e) => Some(match *e.value.fragment() {
            "vcf" => Kind::Vcf,
            "vct" => Kind::Vct,
            "win" => Kind::Win,
            "no-win" => Kind::NoWin,
            "best-move" => Kind::BestMove,
            _ => return Err(bad(e, "kind", "vcf, vct, win, no-win or best-move")),
        }),
        None => None,
    };
    // The first position key is the one `position` read.
    let board_form = POSITION_KEYS
        .iter()
        .find_map(|k| get(k))
        .is_some_and(|e| e.key.value == "board");
    Ok(Meta {
        id,
        answer: get("answer").map(answer).transpose()?,
        board_form,
        kind,
        limit: get("limit").map(|e| number(e, "limit")).transpose()?,
        threat_limit: get("threat-limit")
            .map(|e| number(e, "threat-limit"))
            .transpose()?,
        also: get("also")
            .map(|e| points(e.value))
            .transpose()?
            .unwrap_or_default(),
        tags: get("tags")
            .map(|e| {
                e.value
                    .fragment()
                    .split_whitespace()
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        task: get("task").and_then(text),
        source: get("source").and_then(text),
        note: get("note").and_then(text),
        loc: block_loc,
    })
}

/// A puzzle of a file that could not be read: its id when the block has one, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    /// The block's `id:`, if it has one.
    pub id: Option<String>,
    /// What is wrong, and where.
    pub error: PuzzleError,
}

/// Parses each puzzle of a file on its own, one at a time: a bad block is an error in its
/// place, and the others still parse (`check` reports each). A repeated id is an error for the
/// second puzzle. Memory: one block and the index of ids seen.
pub fn parse_each(input: Span) -> Each {
    Each {
        blocks: blocks(input),
        ids: HashMap::new(),
    }
}

/// The puzzles of a file, one at a time: see [`parse_each`].
pub struct Each<'a> {
    blocks: Blocks<'a>,
    ids: HashMap<String, Loc>,
}

impl Iterator for Each<'_> {
    type Item = Result<Puzzle, Failed>;

    fn next(&mut self) -> Option<Result<Puzzle, Failed>> {
        let entries = match self.blocks.next()? {
            Ok(entries) => entries,
            Err(failed) => return Some(Err(failed)),
        };
        let id = entries.iter().find(|e| e.key.value == "id").and_then(text);
        let result =
            puzzle(&entries).and_then(|p| match self.ids.insert(p.meta.id.clone(), p.meta.loc) {
                Some(first) => Err(PuzzleError::DuplicateId {
                    loc: p.meta.loc,
                    id: p.meta.id,
                    first,
                }),
                None => Ok(p),
            });
        Some(result.map_err(|error| Failed { id, error }))
    }
}

/// Parses every puzzle of a file; the first error refuses the whole file.
pub fn parse(input: Span) -> Result<Vec<Puzzle>, PuzzleError> {
    let out = parse_each(input)
        .map(|r| r.map_err(|f| f.error))
        .collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err(PuzzleError::Empty {
            loc: Loc::of(&input),
        });
    }
    Ok(out)
}

/// Stones of one colour, listed row by row from the top, left to right (the public files' order).
fn stone_list(board: &Board, color: Color) -> String {
    let size = board.size();
    let mut out = Vec::new();
    for y in (0..size).rev() {
        for x in 0..size {
            if let Some(p) = Point::new(x, y).filter(|&p| board.get(p) == Some(color)) {
                out.push(p.to_string());
            }
        }
    }
    out.join(" ")
}

/// Writes one puzzle block (no trailing blank line). The position is written as `moves:` when
/// the board has a full game record, else as the `board:` diagram it was read as, else as
/// `black:` / `white:` lists.
pub fn write(meta: &Meta, board: &Board) -> String {
    let mut out = String::new();
    // A value on lines of its own (a board) starts with a line break.
    let mut line = |key: &str, value: &str| {
        out.push_str(key);
        out.push(':');
        if !value.is_empty() && !value.starts_with('\n') {
            out.push(' ');
        }
        out.push_str(value);
        out.push('\n');
    };
    line("id", &meta.id);
    line("rule", board.rule().name());
    line("size", &board.size().to_string());
    match board.record() {
        Some(record) => line("moves", &moves::write(record)),
        None if meta.board_form => {
            // The diagram, a row a line under the key, without its "to move" line (`to-move:`
            // follows).
            let rows: Vec<String> = diagram::write(board)
                .lines()
                .filter(|l| !l.ends_with(" to move"))
                .map(str::to_string)
                .collect();
            line("board", &format!("\n{}", rows.join("\n")));
        }
        None => {
            line("black", &stone_list(board, Color::Black));
            line("white", &stone_list(board, Color::White));
        }
    }
    line("to-move", board.to_move().name());
    if let Some(a) = &meta.answer {
        line("answer", &a.to_string());
    }
    if !meta.also.is_empty() {
        let also: Vec<String> = meta.also.iter().map(|p| p.value.to_string()).collect();
        line("also", &also.join(" "));
    }
    if let Some(k) = meta.kind {
        line("kind", k.name());
    }
    if let Some(n) = meta.limit {
        line("limit", &n.to_string());
    }
    if let Some(n) = meta.threat_limit {
        line("threat-limit", &n.to_string());
    }
    if !meta.tags.is_empty() {
        line("tags", &meta.tags.join(" "));
    }
    for (key, value) in [
        ("task", &meta.task),
        ("source", &meta.source),
        ("note", &meta.note),
    ] {
        if let Some(v) = value {
            line(key, v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_blocks_comments_and_boards() {
        let text = "# my puzzles\nid: a\nrule: renju\nmoves: h8 i9\nanswer: none (nothing)\n\nid: b\nsize: 5\nboard:\n x . . . .\n . . . . .\n . . o . .\n . . . . .\n . . . . .\nto-move: black\n";
        let ps = parse(Span::new(text)).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(
            ps[0].meta.answer.as_ref().unwrap().to_string(),
            "none (nothing)"
        );
        assert_eq!(ps[0].setup.rule.unwrap().value, Rule::Renju);
        let Stones::Placed { black, white } = &ps[1].setup.stones else {
            panic!()
        };
        assert_eq!(black[0].value.to_string(), "a5");
        assert_eq!(white[0].value.to_string(), "c3");
        assert_eq!(ps[1].setup.to_move.unwrap().value, Color::Black);
    }

    #[test]
    fn errors_name_their_line() {
        let e = parse(Span::new("id: a\nmoves: h8\ncolour: red\n")).unwrap_err();
        assert!(matches!(e, PuzzleError::UnknownKey { .. }));
        assert_eq!(e.loc(), Loc::new(3, 1));
        let e = parse(Span::new("id: a\nmoves: h8\n\nid: a\nmoves: h9\n")).unwrap_err();
        assert!(matches!(e, PuzzleError::DuplicateId { .. }));
        assert_eq!(e.loc(), Loc::new(4, 1));
        let e = parse(Span::new("id: a\nmoves: h8 i\n")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(2, 12));
        let e = parse(Span::new("id: a\nmoves: h8\nblack: h9\n")).unwrap_err();
        assert!(matches!(e, PuzzleError::ConflictingPosition { .. }));
        let e = parse(Span::new("id: a\nmoves h8\n")).unwrap_err();
        assert_eq!(e.loc(), Loc::new(2, 1));
    }
}
