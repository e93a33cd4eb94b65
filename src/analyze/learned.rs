//! The learned evaluation: a value for every empty cell, read from a table by the cell's
//! **code**, summed over the board, and followed through play and undo.
//!
//! **Code.** For each colour, a cell's code is the four shapes
//! ([`crate::board::shape::Shape`]) a stone of that colour would make there, one per line,
//! as a multiset: the order of the lines does not matter, so there are 715 classes (four
//! codes of ten, sorted). A cell where black would make an open three and a closed two is one
//! class; one where it would make two open threes
//! (a double three: a winning threat in freestyle, a foul for black under renju) is another.
//! The combinations a side holds (a four and a three, two threes, a four with a two...) are
//! classes of their own, so the table weighs them, not only the single lines.
//!
//! **Tables.** One set a rule: freestyle, standard, and renju black and renju white (black's
//! fouls change what its shapes are worth). Each class has two values: for the side to move
//! ("mover": its shapes are threats it can play now) and for the other side ("waiter": its
//! shapes must be answered, or lost a tempo to). A position's value for the side to move is
//! the mover values of its cells, plus the waiter values of the opponent's cells, plus a tempo
//! term for the colour to move. Values are in the scale of the fit: a value `v` is a logit of
//! `v / scale`, so the win probability of a score is `1 / (1 + e^(-score/scale))`.
//!
//! **Counts.** Beside the mask of which threats each side can make, a count term: how many
//! cells of each side make a four (0, 1, 2, 3 or more) and how many make an open three
//! (halved, the same steps), one fitted value for each of the 256 combinations a colour to
//! move ([`count_index`]). The VCF's and the VCT's material, which the mask only sees as there
//! or not.
//!
//! **Late values.** A table may give each class a second pair of values, added to its own from
//! `late-from` stones on the board on ([`RuleTables::late_from`]): a shape's worth changes as
//! the board fills. The evaluator keeps their sum beside the other and adds it at a leaf with
//! that many stones. The freestyle table has them from 14 stones; the others have none.
//!
//! The tables are data, fitted to game results (`tengen-tune fit`, see docs/strength.md's
//! evaluation section), and read from `src/analyze/tables/RULE.txt`, which records where they
//! came from.
//!
//! **Incremental.** [`Evaluator`] keeps each cell's code and the running sums. After a stone
//! is placed it reads the board's journal of the shapes that placement changed
//! ([`Board::last_changes`]); before the stone is taken back it reads the same journal the
//! other way. A leaf then costs two loads and an add.

use std::sync::OnceLock;

use crate::board::{Board, CELLS, Cell, Color, Rule};

/// Classes of a cell code: multisets of four shape codes out of ten.
pub const CLASSES: usize = 715;
/// Ordered codes (four shape codes, base 10, line 0 lowest).
const CODES: usize = 10_000;
/// The colours by index.
const COLORS: [Color; 2] = [Color::Black, Color::White];
/// Base-10 place value of each line in an ordered code.
const PLACE: [i32; 4] = [1, 10, 100, 1000];

/// Per ordered code: its class.
fn canon() -> &'static [u16; CODES] {
    static T: OnceLock<Box<[u16; CODES]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([0u16; CODES]);
        for (code, class) in t.iter_mut().enumerate() {
            *class = class_of_sorted(sorted_digits(code)) as u16;
        }
        t
    })
}

/// The four shape codes of an ordered code, largest first.
fn sorted_digits(code: usize) -> [u8; 4] {
    let mut d = [0u8; 4];
    for (k, x) in d.iter_mut().enumerate() {
        *x = (code / PLACE[k] as usize % 10) as u8;
    }
    d.sort_unstable_by(|a, b| b.cmp(a));
    d
}

/// The class number of four codes sorted largest first: their rank among all such.
fn class_of_sorted(d: [u8; 4]) -> usize {
    // Rank in the enumeration a >= b >= c >= d over 0..=9, in increasing lexicographic order
    // of (a, b, c, d).
    let mut rank = 0;
    let count = |hi: u8, left: usize| -> usize {
        // Multisets of `left` codes each at most `hi`: C(hi + left, left).
        let (n, k) = (hi as usize + left, left);
        (0..k).fold(1usize, |acc, i| acc * (n - i) / (i + 1))
    };
    for (pos, &x) in d.iter().enumerate() {
        for smaller in 0..x {
            rank += count(smaller, 3 - pos);
        }
    }
    rank
}

/// The four shape codes (largest first) of a class: the inverse of the rank.
pub fn class_codes(class: usize) -> [u8; 4] {
    static T: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![[0u8; 4]; CLASSES];
        for code in 0..CODES {
            let d = sorted_digits(code);
            t[class_of_sorted(d)] = d;
        }
        t
    })[class]
}

/// A class written as four digits, largest first (`4320`: an open three, a closed three, an
/// open two and nothing).
pub fn class_name(class: usize) -> String {
    class_codes(class)
        .iter()
        .map(|d| char::from(b'0' + d))
        .collect()
}

/// The class of a name written by [`class_name`] (digits in any order).
pub fn class_by_name(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut d = [b[0] - b'0', b[1] - b'0', b[2] - b'0', b[3] - b'0'];
    d.sort_unstable_by(|a, b| b.cmp(a));
    Some(class_of_sorted(d))
}

/// Threat categories of a cell for one colour, strongest first: what a stone there makes.
/// [`THREATS`] of them; `None` for a cell that makes none of them (or, for black under renju,
/// makes a foul: two fours, two threes, an overline).
pub const THREATS: usize = 5;
/// Bits of the threat mask: the side to move's categories, then the other side's.
pub const THREAT_MASKS: usize = 1 << (2 * THREATS);
/// Indexes of the count term ([`count_index`]): how many cells of each side make a four and
/// how many make an open three, each in four steps.
pub const COUNT_INDEXES: usize = 256;

/// The threat category of a class of `color` under `rule`: 0 a straight four, 1 a four with
/// another four or an open three, 2 a four, 3 two open threes, 4 an open three.
pub fn threat_category(rule: Rule, color: Color, class: usize) -> Option<usize> {
    let d = class_codes(class);
    let (straight, four, fourfour, three) = (6, 5, 7, 4);
    let foul_rules = rule == Rule::Renju && color == Color::Black;
    if d[0] >= 8 {
        return None; // a five or an overline: the position is decided, never a mask's
    }
    if d[0] == straight {
        return Some(0);
    }
    if d[0] == fourfour || (d[0] == four && d[1] == four) {
        return if foul_rules { None } else { Some(1) };
    }
    if d[0] == four {
        return Some(if d[1] == three { 1 } else { 2 });
    }
    if d[0] == three && d[1] == three {
        return if foul_rules { None } else { Some(3) };
    }
    (d[0] == three).then_some(4)
}

/// A colour's ordered code at a cell, from its shape bytes.
#[inline]
fn code_of(bytes: [u8; 4], color: Color) -> usize {
    let s = 4 * color.index() as u32;
    let mut c = 0;
    for (k, b) in bytes.iter().enumerate() {
        c += ((b >> s) & 15) as usize * PLACE[k] as usize;
    }
    c
}

/// The class of a colour's shapes at a cell.
#[inline]
pub fn cell_class(board: &Board, index: usize, color: Color) -> usize {
    canon()[code_of(board.shape_bytes(index), color)] as usize
}

/// One rule's fitted values, as read from its table file.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleTables {
    /// The rule the values are for.
    pub rule: Rule,
    /// A value `v` is the logit `v / scale`.
    pub scale: i32,
    /// Added for the side to move, by its colour.
    pub tempo: [i32; 2],
    /// Per colour (both the same outside renju), per class: the value when that colour is
    /// to move.
    pub mover: [Vec<i32>; 2],
    /// The same when the other colour is to move.
    pub waiter: [Vec<i32>; 2],
    /// Per colour to move, per threat mask ([`threat_mask`]): added to the value.
    pub threat: [Vec<i32>; 2],
    /// Per colour to move, per count index ([`count_index`]): added to the value.
    pub count: [Vec<i32>; 2],
    /// From this many stones on the board on (0: never), the late values are added to the
    /// class values: a shape is not worth the same in a crowded middle game as early on.
    pub late_from: u32,
    /// Per colour, per class: added to [`RuleTables::mover`] from `late_from` stones on.
    pub late_mover: [Vec<i32>; 2],
    /// The same for [`RuleTables::waiter`].
    pub late_waiter: [Vec<i32>; 2],
}

/// A table file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    /// The line (from 1; 0 for the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl RuleTables {
    /// All zero: the evaluation of a rule with no fitted tables.
    pub fn zero(rule: Rule) -> RuleTables {
        RuleTables {
            rule,
            scale: 400,
            tempo: [0; 2],
            mover: [vec![0; CLASSES], vec![0; CLASSES]],
            waiter: [vec![0; CLASSES], vec![0; CLASSES]],
            threat: [vec![0; THREAT_MASKS], vec![0; THREAT_MASKS]],
            count: [vec![0; COUNT_INDEXES], vec![0; COUNT_INDEXES]],
            late_from: 0,
            late_mover: [vec![0; CLASSES], vec![0; CLASSES]],
            late_waiter: [vec![0; CLASSES], vec![0; CLASSES]],
        }
    }

    /// Reads a table file: `#` comments, then `tengen-eval 1`, `rule RULE`, `scale N`,
    /// `tempo black N`, `tempo white N`, lines `COLOUR CLASS MOVER WAITER` (COLOUR
    /// `black`, `white` or `any`; CLASS four shape digits), `threat COLOUR MASK VALUE` and
    /// `count COLOUR INDEX VALUE` (COLOUR the colour to move), `late-from N` and lines
    /// `late COLOUR CLASS MOVER WAITER` (added to the class's values from N stones on).
    /// Values not listed are 0.
    pub fn parse(text: &str) -> Result<RuleTables, TableError> {
        let mut reader = TableReader::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |m: &str| TableError {
                line: n + 1,
                message: m.to_string(),
            };
            reader.line(line, &err)?;
        }
        reader.finish()
    }

    /// The table file's text (after a `#` header the caller writes): every nonzero class.
    pub fn to_text(&self) -> String {
        let mut s = String::from("tengen-eval 1\n");
        s += &format!("rule {}\nscale {}\n", self.rule, self.scale);
        s += &format!(
            "tempo black {}\ntempo white {}\n",
            self.tempo[0], self.tempo[1]
        );
        let classes =
            |s: &mut String, prefix: &str, mover: &[Vec<i32>; 2], waiter: &[Vec<i32>; 2]| {
                let shared = mover[0] == mover[1] && waiter[0] == waiter[1];
                let colours: &[(usize, &str)] = if shared {
                    &[(0, "any")]
                } else {
                    &[(0, "black"), (1, "white")]
                };
                for &(c, word) in colours {
                    for class in 1..CLASSES {
                        let (m, w) = (mover[c][class], waiter[c][class]);
                        if m != 0 || w != 0 {
                            *s += &format!("{prefix}{word} {} {m} {w}\n", class_name(class));
                        }
                    }
                }
            };
        classes(&mut s, "", &self.mover, &self.waiter);
        if self.late_from > 0 {
            s += &format!("late-from {}\n", self.late_from);
            classes(&mut s, "late ", &self.late_mover, &self.late_waiter);
        }
        for (name, values) in [("threat", &self.threat), ("count", &self.count)] {
            let colours: &[(usize, &str)] = if values[0] == values[1] {
                &[(0, "any")]
            } else {
                &[(0, "black"), (1, "white")]
            };
            for &(c, word) in colours {
                for (index, &v) in values[c].iter().enumerate() {
                    if v != 0 {
                        s += &format!("{name} {word} {index} {v}\n");
                    }
                }
            }
        }
        s
    }
}

/// The shipped tables of a rule (`src/analyze/tables/`).
pub fn shipped(rule: Rule) -> &'static RuleTables {
    static T: [OnceLock<RuleTables>; 3] = [const { OnceLock::new() }; 3];
    T[rule as usize].get_or_init(|| {
        let text = match rule {
            Rule::Freestyle => include_str!("tables/freestyle.txt"),
            Rule::Standard => include_str!("tables/standard.txt"),
            Rule::Renju => include_str!("tables/renju.txt"),
        };
        RuleTables::parse(text).unwrap_or_else(|e| panic!("shipped {rule} table, {e}"))
    })
}

/// A rule's tables spread over ordered codes, both values of a code packed in one `i64` (the
/// side to move's in the low half), so a cell's change is one load each way.
struct Packed {
    code: [Box<[i64; CODES]>; 2],
    /// Per colour, per ordered code: one in the byte of its threat category (none: 0), so
    /// that a sum over cells counts each category in its byte.
    category: [Box<[u64; CODES]>; 2],
    threat: [Vec<i32>; 2],
    count: [Vec<i32>; 2],
    tempo: [i32; 2],
    /// The late values as `code` packs the class values, and from how many stones on they
    /// count (`usize::MAX`: never, and the evaluator keeps no late sums).
    late: [Box<[i64; CODES]>; 2],
    late_from: usize,
}

fn pack(t: &RuleTables) -> Packed {
    let canon = canon();
    let one = |mover: &[Vec<i32>; 2], waiter: &[Vec<i32>; 2], c: usize| {
        let mut p = Box::new([0i64; CODES]);
        for (code, v) in p.iter_mut().enumerate() {
            let k = canon[code] as usize;
            *v = i64::from(mover[c][k]) + (i64::from(waiter[c][k]) << 32);
        }
        p
    };
    let categories = |c: usize| {
        let color = if c == 0 { Color::Black } else { Color::White };
        let mut p = Box::new([0u64; CODES]);
        for (code, v) in p.iter_mut().enumerate() {
            if let Some(k) = threat_category(t.rule, color, canon[code] as usize) {
                *v = 1 << (8 * k);
            }
        }
        p
    };
    Packed {
        code: [one(&t.mover, &t.waiter, 0), one(&t.mover, &t.waiter, 1)],
        category: [categories(0), categories(1)],
        threat: t.threat.clone(),
        count: t.count.clone(),
        tempo: t.tempo,
        late: [
            one(&t.late_mover, &t.late_waiter, 0),
            one(&t.late_mover, &t.late_waiter, 1),
        ],
        late_from: if t.late_from == 0 {
            usize::MAX
        } else {
            t.late_from as usize
        },
    }
}

fn packed(rule: Rule) -> &'static Packed {
    static T: [OnceLock<Packed>; 3] = [const { OnceLock::new() }; 3];
    T[rule as usize].get_or_init(|| pack(shipped(rule)))
}

/// The low half of a packed sum (the side to move's), and the high half.
#[inline]
fn unpack(s: i64) -> (i32, i32) {
    let low = s as i32;
    (low, ((s - i64::from(low)) >> 32) as i32)
}

/// The running evaluation of one board: follows it through [`Evaluator::play`] and
/// [`Evaluator::undo`].
pub struct Evaluator {
    tables: &'static Packed,
    /// The sums of the board as it stands.
    sums: Sums,
    /// The sums before each placement followed and not yet undone: an undo restores them
    /// instead of walking the placement's changes back (a search undoes every move it plays).
    before: Vec<Sums>,
}

/// An evaluation's running sums over the empty cells.
#[derive(Clone, Copy)]
struct Sums {
    /// Per colour: the packed values of its empty cells, summed.
    value: [i64; 2],
    /// Per colour: its empty cells' threat categories, counted a byte each.
    threats: [u64; 2],
    /// Per colour: the packed late values of its empty cells, summed (kept only when the
    /// tables have late values).
    late: [i64; 2],
}

impl Evaluator {
    /// The evaluation of `board` under its rule's shipped tables.
    pub fn new(board: &Board) -> Evaluator {
        Evaluator::with_tables(board, packed(board.rule()))
    }

    /// The evaluation of `board` under `tables` instead of the shipped ones (for measures of a
    /// table; the packed values are made once and kept for the process's life).
    pub fn with_rule_tables(board: &Board, tables: &RuleTables) -> Evaluator {
        Evaluator::with_tables(board, Box::leak(Box::new(pack(tables))))
    }

    /// Counts `board` afresh under the same tables.
    pub fn reset(&mut self, board: &Board) {
        *self = Evaluator::with_tables(board, self.tables);
    }

    fn with_tables(board: &Board, tables: &'static Packed) -> Evaluator {
        let mut e = Evaluator {
            tables,
            sums: Sums {
                value: [0; 2],
                threats: [0; 2],
                late: [0; 2],
            },
            before: Vec::new(),
        };
        for i in 0..CELLS {
            if board.cell(i) == Cell::Empty {
                let bytes = board.shape_bytes(i);
                for (c, &color) in COLORS.iter().enumerate() {
                    e.count(c, code_of(bytes, color), true);
                }
            }
        }
        e
    }

    /// Whether the tables have late values, whose sums are then kept.
    #[inline(always)]
    fn keeps_late(&self) -> bool {
        self.tables.late_from != usize::MAX
    }

    /// Adds colour `c`'s values of an empty cell with ordered code `code` to the sums, or
    /// takes them off (`add` false).
    #[inline(always)]
    fn count(&mut self, c: usize, code: usize, add: bool) {
        let code = code % CODES;
        let (value, threats) = (self.tables.code[c][code], self.tables.category[c][code]);
        // Read only where kept: a placement counts its stone's cell out on every search move.
        let late = if self.keeps_late() {
            self.tables.late[c][code]
        } else {
            0
        };
        let sums = &mut self.sums;
        if add {
            sums.value[c] += value;
            sums.threats[c] += threats;
            sums.late[c] += late;
        } else {
            sums.value[c] -= value;
            sums.threats[c] -= threats;
            sums.late[c] -= late;
        }
    }

    /// Line `d` of an empty cell whose shapes are now `bytes` went from shape byte `old`.
    #[inline(always)]
    fn shift(&mut self, bytes: [u8; 4], d: usize, old: u8) {
        let keeps_late = self.keeps_late();
        for (c, &color) in COLORS.iter().enumerate() {
            let s = 4 * c as u32;
            let (o, n) = (i32::from((old >> s) & 15), i32::from((bytes[d] >> s) & 15));
            if o != n {
                // A cell lies on one line through the stone, so only line `d` changed.
                let after = code_of(bytes, color) as i32;
                let before = after + (o - n) * PLACE[d];
                let (before, after) = (before as usize % CODES, after as usize % CODES);
                let sums = &mut self.sums;
                sums.value[c] += self.tables.code[c][after] - self.tables.code[c][before];
                sums.threats[c] = sums.threats[c] - self.tables.category[c][before]
                    + self.tables.category[c][after];
                if keeps_late {
                    let late = &self.tables.late[c];
                    sums.late[c] += late[after] - late[before];
                }
            }
        }
    }

    /// Follows a stone just placed at cell `i` (by play, put or drop); [`Evaluator::undo`]
    /// takes it back. A stone's cell keeps the shapes it had when it was placed.
    #[inline]
    pub fn play(&mut self, board: &Board, i: usize) {
        self.before.push(self.sums);
        let bytes = board.shape_bytes(i);
        for (c, &color) in COLORS.iter().enumerate() {
            self.count(c, code_of(bytes, color), false);
        }
        for (q, d, old) in board.last_changes() {
            self.shift(board.shape_bytes(q), d, old);
        }
    }

    /// Follows the last stone [`Evaluator::play`] followed, about to be taken back.
    #[inline]
    pub fn undo(&mut self) {
        self.sums = self
            .before
            .pop()
            .expect("an undo follows a play it takes back");
    }

    /// The value of the position for the side to move.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        let me = board.to_move();
        let sums = &self.sums;
        let (mover, _) = unpack(sums.value[me.index()]);
        let (_, waiter) = unpack(sums.value[me.opponent().index()]);
        let (mine, theirs) = (
            sums.threats[me.index()],
            sums.threats[me.opponent().index()],
        );
        let late = if board.total_stones() >= self.tables.late_from {
            let (mover, _) = unpack(sums.late[me.index()]);
            let (_, waiter) = unpack(sums.late[me.opponent().index()]);
            mover + waiter
        } else {
            0
        };
        mover
            + waiter
            + late
            + self.tables.tempo[me.index()]
            + self.tables.threat[me.index()][threat_mask(mine, theirs)]
            + self.tables.count[me.index()][count_index(mine, theirs)]
    }
}

/// The threat mask of per-category counts (a byte each) of the side to move and of the
/// other side: bit `k` when the side to move has a cell of category `k`, bit `THREATS + k`
/// when the other side has.
#[inline]
pub fn threat_mask(mover: u64, waiter: u64) -> usize {
    let mut mask = 0;
    for k in 0..THREATS {
        mask |= usize::from((mover >> (8 * k)) & 255 != 0) << k;
        mask |= usize::from((waiter >> (8 * k)) & 255 != 0) << (THREATS + k);
    }
    mask
}

/// The count index of per-category counts (a byte each) of the side to move and of the
/// other side: for each side, its cells that make a four (not a straight four or a double
/// threat; the VCF's material) as 0, 1, 2 or 3 and more, and its cells that make an open three
/// (the material of threes), halved, as 0, 1, 2 or 3 and more; two bits each, the side to
/// move's four count lowest.
#[inline]
pub fn count_index(mover: u64, waiter: u64) -> usize {
    let (four, three) = (8 * FOUR_CATEGORY, 8 * THREE_CATEGORY);
    let q = |counts: u64, shift: usize, div: u64| (((counts >> shift) & 255) / div).min(3) as usize;
    q(mover, four, 1) | q(mover, three, 2) << 2 | q(waiter, four, 1) << 4 | q(waiter, three, 2) << 6
}

/// The threat category of a plain four ([`threat_category`]).
const FOUR_CATEGORY: usize = 2;
/// The threat category of an open three ([`threat_category`]).
const THREE_CATEGORY: usize = 4;

/// The evaluation of a board from scratch (what [`Evaluator`] keeps up to date).
pub fn evaluate_fresh(board: &Board, t: &RuleTables) -> i32 {
    let me = board.to_move();
    let mut v = t.tempo[me.index()];
    let mut counts = [0u64; 2];
    let late = t.late_from > 0 && board.total_stones() >= t.late_from as usize;
    for i in board.empty_points().map(|p| p.index()) {
        for c in [me, me.opponent()] {
            let class = cell_class(board, i, c);
            v += if c == me {
                t.mover[c.index()][class]
            } else {
                t.waiter[c.index()][class]
            };
            if late {
                v += if c == me {
                    t.late_mover[c.index()][class]
                } else {
                    t.late_waiter[c.index()][class]
                };
            }
            if let Some(k) = threat_category(board.rule(), c, class) {
                counts[usize::from(c != me)] += 1 << (8 * k);
            }
        }
    }
    v + t.threat[me.index()][threat_mask(counts[0], counts[1])]
        + t.count[me.index()][count_index(counts[0], counts[1])]
}

/// A table file read line by line ([`RuleTables::parse`]).
#[derive(Default)]
struct TableReader {
    tables: Option<RuleTables>,
    scale: Option<i32>,
    tempo: [i32; 2],
    seen_header: bool,
}

/// A table line's number.
fn number(s: &str, err: &dyn Fn(&str) -> TableError) -> Result<i32, TableError> {
    s.parse::<i32>()
        .map_err(|_| err(&format!("`{s}` is not a number")))
}

/// The colours (0 black, 1 white) a table line's COLOUR word names.
fn colours_named(word: &str) -> Option<&'static [usize]> {
    match word {
        "black" => Some(&[0]),
        "white" => Some(&[1]),
        "any" => Some(&[0, 1]),
        _ => None,
    }
}

impl TableReader {
    /// One line, without its comment, not empty; `err` makes an error at it.
    fn line(&mut self, line: &str, err: &dyn Fn(&str) -> TableError) -> Result<(), TableError> {
        let w: Vec<&str> = line.split_whitespace().collect();
        let int = |s: &str| number(s, err);
        match w[0] {
            "tengen-eval" if w.len() == 2 && w[1] == "1" => self.seen_header = true,
            _ if !self.seen_header => return Err(err("the first line must be `tengen-eval 1`")),
            "rule" if w.len() == 2 => {
                let rule: Rule = w[1].parse().map_err(|_| err("unknown rule"))?;
                self.tables = Some(RuleTables::zero(rule));
            }
            "scale" if w.len() == 2 => {
                let s = int(w[1])?;
                if s <= 0 {
                    return Err(err("the scale must be positive"));
                }
                self.scale = Some(s);
            }
            "tempo" if w.len() == 3 => {
                let c = match w[1] {
                    "black" => 0,
                    "white" => 1,
                    _ => return Err(err("tempo is for `black` or `white`")),
                };
                self.tempo[c] = int(w[2])?;
            }
            "threat" | "count" if w.len() == 4 => self.indexed_value(&w, err)?,
            "late-from" if w.len() == 2 => {
                self.tables(err)?.late_from = w[1]
                    .parse()
                    .map_err(|_| err("late-from is a count of stones"))?;
            }
            "black" | "white" | "any" | "late" if w.len() == 4 || w[0] == "late" => {
                self.class_value(&w, err)?
            }
            _ => return Err(err(&format!("unexpected `{line}`"))),
        }
        Ok(())
    }

    /// The tables the values go into: a `rule` line must come first.
    fn tables(&mut self, err: &dyn Fn(&str) -> TableError) -> Result<&mut RuleTables, TableError> {
        self.tables
            .as_mut()
            .ok_or_else(|| err("a value before the `rule` line"))
    }

    /// `threat COLOUR MASK VALUE` or `count COLOUR INDEX VALUE`.
    fn indexed_value(
        &mut self,
        w: &[&str],
        err: &dyn Fn(&str) -> TableError,
    ) -> Result<(), TableError> {
        let t = self.tables(err)?;
        let (values, below) = if w[0] == "threat" {
            (&mut t.threat, THREAT_MASKS)
        } else {
            (&mut t.count, COUNT_INDEXES)
        };
        let index = w[2]
            .parse::<usize>()
            .ok()
            .filter(|&m| m < below)
            .ok_or_else(|| err(&format!("a {} index is a number below {below}", w[0])))?;
        let v = number(w[3], err)?;
        let colours = colours_named(w[1]).ok_or_else(|| {
            err(&format!(
                "a {} value is for `black`, `white` or `any`",
                w[0]
            ))
        })?;
        for &c in colours {
            values[c][index] = v;
        }
        Ok(())
    }

    /// `COLOUR CLASS MOVER WAITER`, or `late COLOUR CLASS MOVER WAITER`.
    fn class_value(
        &mut self,
        w: &[&str],
        err: &dyn Fn(&str) -> TableError,
    ) -> Result<(), TableError> {
        let t = self.tables(err)?;
        let late = w[0] == "late";
        let w = if late {
            if w.len() != 5 {
                return Err(err("a late line is `late COLOUR CLASS MOVER WAITER`"));
            }
            &w[1..]
        } else {
            w
        };
        let class = class_by_name(w[1]).ok_or_else(|| err("a class is four digits"))?;
        let int = |s: &str| number(s, err);
        let (m, v) = (int(w[2])?, int(w[3])?);
        let colours = colours_named(w[0])
            .ok_or_else(|| err("a late value is for `black`, `white` or `any`"))?;
        let (mover, waiter) = if late {
            (&mut t.late_mover, &mut t.late_waiter)
        } else {
            (&mut t.mover, &mut t.waiter)
        };
        for &c in colours {
            mover[c][class] = m;
            waiter[c][class] = v;
        }
        Ok(())
    }

    /// The tables read, once every line is: a rule and a scale given, no value for no shape.
    fn finish(self) -> Result<RuleTables, TableError> {
        let mut t = self.tables.ok_or(TableError {
            line: 0,
            message: "no `rule` line".into(),
        })?;
        t.scale = self.scale.ok_or(TableError {
            line: 0,
            message: "no `scale` line".into(),
        })?;
        t.tempo = self.tempo;
        for c in 0..2 {
            let late = t.late_mover[c][0] != 0 || t.late_waiter[c][0] != 0;
            if t.mover[c][0] != 0 || t.waiter[c][0] != 0 || late {
                return Err(TableError {
                    line: 0,
                    message: "class 0000 (no shape) must be 0".into(),
                });
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::Point;

    /// Tables with a value for every class, different per colour and side (as renju's; a
    /// fit outside renju shares them: see [`colour_shared`]).
    pub(crate) fn busy_tables(rule: Rule) -> RuleTables {
        let mut t = RuleTables::zero(rule);
        for c in 0..2 {
            for k in 1..CLASSES {
                t.mover[c][k] = (k as i32 * 37 + c as i32 * 11) % 201 - 100;
                t.waiter[c][k] = (k as i32 * 53 + c as i32 * 7) % 181 - 90;
            }
        }
        t.tempo = [13, -4];
        for c in 0..2 {
            for m in 0..THREAT_MASKS {
                t.threat[c][m] = (m as i32 * 29 + c as i32 * 5) % 301 - 150;
            }
            for m in 0..COUNT_INDEXES {
                t.count[c][m] = (m as i32 * 31 + c as i32 * 3) % 241 - 120;
            }
            for k in 1..CLASSES {
                t.late_mover[c][k] = (k as i32 * 41 + c as i32 * 13) % 161 - 80;
                t.late_waiter[c][k] = (k as i32 * 43 + c as i32 * 17) % 141 - 70;
            }
        }
        // Late values from the tenth stone on: the test games cross it both ways.
        t.late_from = 10;
        t
    }

    /// `t` with white's values made black's, as a table fitted outside renju has them.
    pub(crate) fn colour_shared(mut t: RuleTables) -> RuleTables {
        t.mover[1] = t.mover[0].clone();
        t.waiter[1] = t.waiter[0].clone();
        t.threat[1] = t.threat[0].clone();
        t.count[1] = t.count[0].clone();
        t.late_mover[1] = t.late_mover[0].clone();
        t.late_waiter[1] = t.late_waiter[0].clone();
        t
    }

    #[test]
    fn classes_are_the_multisets_of_four_codes() {
        let mut seen = vec![false; CLASSES];
        for code in 0..CODES {
            let c = canon()[code] as usize;
            seen[c] = true;
            assert_eq!(class_codes(c), sorted_digits(code), "{code}");
        }
        assert!(seen.iter().all(|&s| s), "every class is some code's");
        for class in 0..CLASSES {
            assert_eq!(class_by_name(&class_name(class)), Some(class));
        }
        assert_eq!(class_name(0), "0000");
        assert_eq!(class_name(CLASSES - 1), "9999");
        assert_eq!(class_by_name("0234"), class_by_name("4320"));
        assert_eq!(class_by_name("432"), None);
    }

    /// The evaluator follows play and undo to exactly the value computed from scratch, in
    /// every rule, through a game and back.
    #[test]
    fn the_running_value_matches_a_fresh_count() {
        let game = [
            "h8", "i9", "i8", "g8", "j7", "h9", "j9", "j8", "g10", "k6", "f11", "h10", "h7", "g6",
            "i6", "k8", "e12", "d13", "l8", "a1", "o15",
        ];
        for rule in Rule::ALL {
            let t = busy_tables(rule);
            let packed: &'static Packed = Box::leak(Box::new(pack(&t)));
            let mut b = Board::new(15, rule).unwrap();
            let mut e = Evaluator::with_tables(&b, packed);
            assert_eq!(e.evaluate(&b), evaluate_fresh(&b, &t));
            for m in game {
                let p: Point = m.parse().unwrap();
                b.play(p);
                e.play(&b, p.index());
                assert_eq!(e.evaluate(&b), evaluate_fresh(&b, &t), "{rule} after {m}");
                // A look-ahead stone dropped and lifted leaves it as it was.
                let q = b.empty_points().nth(40);
                if let Some(q) = q {
                    b.drop_stone(q.index(), b.to_move());
                    e.play(&b, q.index());
                    assert_eq!(e.evaluate(&b), evaluate_fresh(&b, &t), "{rule} drop {q}");
                    e.undo();
                    b.lift(q.index());
                }
            }
            for m in game.iter().rev() {
                let p: Point = m.parse().unwrap();
                e.undo();
                assert_eq!(b.undo(), Some(p));
                assert_eq!(e.evaluate(&b), evaluate_fresh(&b, &t), "{rule} undo {m}");
            }
            assert_eq!(
                e.sums.value,
                [0, 0],
                "{rule}: an empty board sums to nothing"
            );
        }
    }

    #[test]
    fn table_text_reads_back() {
        for rule in Rule::ALL {
            let t = busy_tables(rule);
            assert_eq!(RuleTables::parse(&t.to_text()).unwrap(), t);
        }
        let shared = colour_shared(busy_tables(Rule::Freestyle));
        let text = shared.to_text();
        assert!(
            text.contains("\nany ") && !text.contains("\nblack "),
            "{text}"
        );
        assert!(
            text.contains("\nthreat any ") && !text.contains("\nthreat black "),
            "{text}"
        );
        assert!(
            text.contains("\ncount any ") && !text.contains("\ncount black "),
            "{text}"
        );
        assert!(
            text.contains("\nlate-from 10\n")
                && text.contains("\nlate any ")
                && !text.contains("\nlate black "),
            "{text}"
        );
        // Without late values, no late lines (a table of an earlier fit reads the same).
        let mut plain = busy_tables(Rule::Renju);
        plain.late_from = 0;
        plain.late_mover = [vec![0; CLASSES], vec![0; CLASSES]];
        plain.late_waiter = [vec![0; CLASSES], vec![0; CLASSES]];
        assert!(!plain.to_text().contains("late"));
        assert_eq!(RuleTables::parse(&plain.to_text()).unwrap(), plain);
        assert_eq!(RuleTables::parse(&text).unwrap(), shared);
        for (bad, line) in [
            ("rule renju\n", 1),
            ("tengen-eval 1\nrule renju\nscale 400\nblack 43x0 1 2\n", 4),
            ("tengen-eval 1\nrule renju\nscale 0\n", 3),
            ("tengen-eval 1\nscale 400\nany 4000 1 1\n", 3),
            ("tengen-eval 1\nrule renju\nscale 400\nany 0000 1 1\n", 0),
            (
                "tengen-eval 1\nrule renju\nscale 400\nthreat any 1024 5\n",
                4,
            ),
            ("tengen-eval 1\nrule renju\nscale 400\nthreat red 3 5\n", 4),
            ("tengen-eval 1\nrule renju\nscale 400\ncount any 256 5\n", 4),
            ("tengen-eval 1\nrule renju\nscale 400\ncount red 3 5\n", 4),
            ("tengen-eval 1\nrule renju\nscale 400\nlate-from x\n", 4),
            ("tengen-eval 1\nrule renju\nscale 400\nlate any 4320 1\n", 4),
            (
                "tengen-eval 1\nrule renju\nscale 400\nlate red 4320 1 2\n",
                4,
            ),
            (
                "tengen-eval 1\nrule renju\nscale 400\nlate any 43x0 1 2\n",
                4,
            ),
        ] {
            assert_eq!(RuleTables::parse(bad).unwrap_err().line, line, "{bad}");
        }
        // The shipped tables are fitted in the scale the win probability uses.
        for rule in Rule::ALL {
            assert_eq!(shipped(rule).rule, rule);
            assert_eq!(
                f64::from(shipped(rule).scale),
                crate::analyze::eval::WIN_SCALE
            );
        }
    }
}
