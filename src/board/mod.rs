//! The board: a padded cell array with place / undo, a Zobrist hash, the side to move and the
//! move order when it is known, and win detection for each rule.
//!
//! Cells live in a 1-D array of [`CELLS`] with a border of wall cells [`PAD`] wide, so walking a
//! line from any on-board point never checks bounds; the four directions are the fixed offsets in
//! [`DIRS`]. Renju forbidden points are judged by [`crate::pattern`], which reads this board.

mod bits;
pub mod openings;
mod point;
pub mod shape;
// The builder runs in build.rs; the crate uses its types, and its tests rerun it.
#[cfg_attr(not(test), allow(dead_code))]
mod shape_build;
mod zobrist;

pub use bits::Bits;
pub use point::*;

use shape::Shape;

/// What a cell of the padded array holds. The values are two-bit codes so that line keys can be
/// built from them by shifts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Off the board: the border, and the rows and columns a smaller board leaves unused.
    Wall = 3,
}

impl Cell {
    /// The cell holding a stone of `color`.
    #[inline]
    pub fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of the stone in the cell; `None` for an empty or wall cell.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Journal entries one placement may write: at most 40 (ten cells on each of four lines).
const STEP_ENTRIES: usize = 40;

/// A board of a given size and rule, with the stones on it and the side to move.
///
/// Stones arrive two ways: [`Board::put`] places a set-up stone (a composed position has no move
/// order), [`Board::play`] plays the side to move and records the move so [`Board::undo`] can take
/// it back. When every stone was played, [`Board::record`] is the game record.
///
/// Besides the stones, the board keeps every row, column and diagonal of the padded array as
/// one 64-bit **line** of two-bit cell codes, so a stone costs four line writes, and the **line
/// key** of a cell ([`shape`]: the ten cells around it) is two shifts of its line. For every
/// empty cell it keeps the [`Shape`] a stone of each colour would make on each line, read from
/// the rule's tables. Placing or removing a stone touches only the 40 cells within five steps
/// on its four lines. Two bit sets per colour say where that colour would make a five and where
/// a four. When asked ([`Board::track_counts`]), running counts say how many empty cells show
/// each shape (the tally) and each combination over the four lines (two threes, a four and a
/// three, ...), for the evaluation.
pub struct Board {
    size: u8,
    rule: Rule,
    cells: [Cell; CELLS],
    /// Per direction, its lines of the padded array (see [`line_of`]), two bits a cell; a
    /// position off the array reads as a wall.
    lines: [[u64; LINES]; 4],
    /// Per cell and line: black's shape in the low four bits, white's in the high.
    shapes: [[u8; 4]; CELLS],
    fives: [Bits; 2],
    /// How many cells each colour's `fives` holds, kept with it (asked at every solver node).
    five_count: [u32; 2],
    fours: [Bits; 2],
    /// Per colour, the cells its stones hold; and the empty cells of the board.
    stone_bits: [Bits; 2],
    empty_bits: Bits,
    /// Per cell: the five and four flags of both colours behind the bit sets (see
    /// [`shape::BYTE_FLAGS`]), so a shape change that keeps them costs no bit-set writes.
    flags: [u8; CELLS],
    /// Shapes overwritten by each placement, `(cell, line, old shape)` packed, so taking the
    /// stone off restores them instead of re-reading the table; `marks` holds where each
    /// placement's entries start. Placements and removals nest (play/undo, drop/lift). A
    /// placement first makes sure the journal has [`STEP_ENTRIES`] entries past its live ones,
    /// so it never grows mid-placement: its first `journal_len` entries are live. A copy of
    /// the board takes only the live entries.
    journal: Vec<u32>,
    journal_len: usize,
    marks: Vec<u32>,
    table: &'static shape::Compact,
    /// Per colour and shape code: how many (empty cell, line) pairs show that shape, kept up
    /// to date on every move while `tracking` (an evaluation's running sum reads it).
    tally: [[i32; 16]; 2],
    /// Per empty cell: its four lines' [`COMBO_COUNTS`] summed, kept up to date on every
    /// shape change while `tracking` (a stone's cell is summed afresh when it is taken off).
    csum: [u32; CELLS],
    /// Per cell: the combination class ([`combo_class`]) a stone of each colour would make
    /// there over its four lines, black's in the low four bits; 0 on a stone.
    combo: [u8; CELLS],
    /// Per colour and combination class: how many empty cells show it.
    combos: [[i32; COMBOS]; 2],
    /// Whether `tally`, `csum`, `combo` and `combos` are kept (see [`Board::track_counts`]).
    tracking: bool,
    to_move: Color,
    hash: u64,
    history: Vec<Point>,
    setup_stones: u16,
    counts: [u16; 2],
}

/// Combination classes a cell can show for a colour ([`combo_class`]).
pub const COMBOS: usize = 5;

/// Per shape code, counted into bit fields: twos (bits 0-2), threes (3-5), fours (6-9, two
/// for a line with two fours) and straight fours (10-12); per packed shape byte, black's in
/// the low 16 bits and white's in the next 16. Four lines never overflow a field.
static COMBO_COUNTS: [u32; 256] = {
    const ONE: [u32; 16] = {
        let mut t = [0u32; 16];
        t[2] = 1; // two
        t[4] = 1 << 3; // three
        t[5] = 1 << 6; // four
        t[6] = 1 << 6 | 1 << 10; // straight four
        t[7] = 2 << 6; // two fours on one line
        t
    };
    let mut t = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = ONE[b & 15] | ONE[b >> 4] << 16;
        b += 1;
    }
    t
};

/// Bits of one colour's summed [`COMBO_COUNTS`].
const COMBO_BITS: usize = 13;

/// The combination class of a point for one colour, from its summed counts over the four
/// lines: 4 a winning threat (a straight four, two fours, or a four and a three), 3 two
/// threes, 2 a four with a two, 1 a three with a two, 0 anything else. A renju black double
/// (two threes or two fours) is a foul, not a threat: class 0.
const fn combo_class(counts: usize, renju_black: bool) -> u8 {
    let (twos, threes, fours, straight) = (
        counts & 7,
        counts >> 3 & 7,
        counts >> 6 & 15,
        counts >> 10 & 7,
    );
    if renju_black && (threes >= 2 || fours >= 2) {
        0
    } else if straight > 0 || fours >= 2 || (fours >= 1 && threes >= 1) {
        4
    } else if threes >= 2 {
        3
    } else if fours >= 1 && twos >= 1 {
        2
    } else if threes >= 1 && twos >= 1 {
        1
    } else {
        0
    }
}

/// [`combo_class`] of every count: `[plain, renju black]`.
static COMBO_CLASS: [[u8; 1 << COMBO_BITS]; 2] = {
    let mut t = [[0u8; 1 << COMBO_BITS]; 2];
    let mut c = 0;
    while c < 1 << COMBO_BITS {
        t[0][c] = combo_class(c, false);
        t[1][c] = combo_class(c, true);
        c += 1;
    }
    t
};

/// Shape codes the tally keeps: 1 (closed two) to 8 (five).
const TALLIED: usize = 8;
/// Where each field of a [`Delta`] starts, so that it never borrows from the next.
const DELTA_BIAS: u64 = 0x80;

/// Changes to both colours' tallies summed in registers over one placement or removal: per
/// colour a byte per tallied shape code, each starting at [`DELTA_BIAS`]. A placement changes
/// at most 44 (cell, line) pairs, so no byte leaves 0x54..=0xAC.
#[derive(Clone, Copy)]
struct Delta([u64; 2]);

impl Delta {
    const UNIT: [u64; 16] = {
        let mut t = [0u64; 16];
        let mut code = 1;
        while code <= TALLIED {
            t[code] = 1 << (8 * (code - 1));
            code += 1;
        }
        t
    };

    #[inline]
    fn new() -> Delta {
        Delta([DELTA_BIAS * 0x0101_0101_0101_0101; 2])
    }

    /// One more pair of each colour's shape in packed shape byte `b`.
    #[inline]
    fn add(&mut self, b: u8) {
        self.0[0] += Self::UNIT[(b & 15) as usize];
        self.0[1] += Self::UNIT[(b >> 4) as usize];
    }

    /// One pair fewer.
    #[inline]
    fn sub(&mut self, b: u8) {
        self.0[0] -= Self::UNIT[(b & 15) as usize];
        self.0[1] -= Self::UNIT[(b >> 4) as usize];
    }
}

/// Lines of each direction in the padded array: rows and columns are [`STRIDE`], diagonals
/// `2 * STRIDE - 1`.
const LINES: usize = 2 * STRIDE;

/// The line of direction `d` that cell `i` lies on, and the cell's position along it (its
/// column for rows, its row otherwise), so that the cell `k` steps along `d` is at position
/// `pos + k`.
#[inline]
fn line_of(i: usize, d: usize) -> (usize, u32) {
    let (x, y) = (i % STRIDE, i / STRIDE);
    match d {
        0 => (y, x as u32),
        1 => (x, y as u32),
        2 => (x + STRIDE - 1 - y, y as u32),
        _ => (x + y, y as u32),
    }
}

/// The line key ([`shape`]) of the cell at position `pos` of line `l`: the five cells before
/// it in the low ten bits, the five after it in the next ten. Meaningful for a cell on the
/// board (its five neighbours each way lie on the padded array).
#[inline]
fn line_key(l: u64, pos: u32) -> u32 {
    let before = l.wrapping_shr((2 * pos).wrapping_sub(10)) & 0x3FF;
    let after = l.wrapping_shr(2 * pos + 2) & 0x3FF;
    (before | after << 10) as u32
}

/// A five (or, where the rule lets it win, a longer run) on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Five {
    /// The colour that made the line.
    pub color: Color,
    /// The stones of the run, in line order.
    pub stones: Vec<Point>,
}

impl Board {
    /// An empty board; `None` when `size` is outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub fn new(size: u8, rule: Rule) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let mut cells = [Cell::Wall; CELLS];
        for y in 0..size {
            for x in 0..size {
                cells[Point::new(x, y)?.index()] = Cell::Empty;
            }
        }
        let mut board = Board {
            size,
            rule,
            cells,
            lines: [[u64::MAX; LINES]; 4],
            shapes: [[0; 4]; CELLS],
            fives: [Bits::default(); 2],
            five_count: [0; 2],
            fours: [Bits::default(); 2],
            stone_bits: [Bits::default(); 2],
            empty_bits: Bits::default(),
            flags: [0; CELLS],
            journal: Vec::new(),
            journal_len: 0,
            marks: Vec::new(),
            table: shape::compact(rule),
            tally: [[0; 16]; 2],
            csum: [0; CELLS],
            combo: [0; CELLS],
            combos: [[0; COMBOS]; 2],
            tracking: false,
            to_move: Color::Black,
            hash: zobrist::side(Color::Black),
            history: Vec::new(),
            setup_stones: 0,
            counts: [0, 0],
        };
        board.refresh_all();
        Some(board)
    }

    /// Recomputes every line and shape from the cells.
    fn refresh_all(&mut self) {
        self.lines = [[u64::MAX; LINES]; 4];
        for i in 0..CELLS {
            for d in 0..4 {
                let (line, pos) = line_of(i, d);
                let l = &mut self.lines[d][line];
                *l = *l & !(3 << (2 * pos)) | (self.cells[i] as u64) << (2 * pos);
            }
        }
        self.fives = [Bits::default(); 2];
        self.five_count = [0; 2];
        self.fours = [Bits::default(); 2];
        self.stone_bits = [Bits::default(); 2];
        self.empty_bits = Bits::default();
        for (i, cell) in self.cells.iter().enumerate() {
            match cell.color() {
                Some(c) => self.stone_bits[c.index()].set(i, true),
                None => self.empty_bits.set(i, *cell == Cell::Empty),
            }
        }
        self.flags = [0; CELLS];
        // Stones placed before this point are taken off by re-reading their neighbours.
        self.journal_len = 0;
        self.marks.clear();
        for i in 0..CELLS {
            if self.cells[i] == Cell::Empty {
                for d in 0..4 {
                    self.reshape(i, d);
                }
                self.reflag(i);
            }
        }
        if self.tracking {
            self.recount_all();
        }
    }

    /// Recomputes the shape tally and every cell's combination counts and classes.
    fn recount_all(&mut self) {
        self.tally = [[0; 16]; 2];
        self.csum = [0; CELLS];
        self.combo = [0; CELLS];
        self.combos = [[0; COMBOS]; 2];
        for i in 0..CELLS {
            if self.cells[i] == Cell::Empty {
                for d in 0..4 {
                    let shapes = self.shapes[i][d];
                    for (tally, code) in self.tally.iter_mut().zip([shapes & 15, shapes >> 4]) {
                        if (1..=TALLIED).contains(&(code as usize)) {
                            tally[code as usize] += 1;
                        }
                    }
                }
                self.recombo(i);
            }
        }
    }

    /// Starts or stops keeping the evaluation's counts: the shape tally
    /// ([`Board::shape_tally`]) and the combination counts ([`Board::combo_counts`]). Only the
    /// analyzer's evaluation reads them, and the combinations alone cost a sixth of the speed
    /// of every move, so a board keeps them only when asked (the threat solvers' boards do
    /// not). Starting counts them afresh.
    pub fn track_counts(&mut self, on: bool) {
        if on && !self.tracking {
            self.tracking = true;
            self.recount_all();
        }
        self.tracking = on;
    }

    /// Runs `f` with the evaluation's counts not kept (see [`Board::track_counts`]), for a
    /// look-ahead that takes back every stone it puts (a VCF at a search's horizon): the
    /// counts stay right, since the board ends as it began, and `f`'s moves cost what they cost
    /// a solver's board. No recount, unlike turning them off and on.
    pub fn without_counts<R>(&mut self, f: impl FnOnce(&mut Board) -> R) -> R {
        let (tracking, hash, stones) = (self.tracking, self.hash, self.history.len());
        self.tracking = false;
        let r = f(self);
        debug_assert!(self.hash == hash && self.history.len() == stones);
        self.tracking = tracking;
        r
    }

    /// Re-reads empty cell `i`'s combination counts from its four shapes, and its classes.
    #[inline]
    fn recombo(&mut self, i: usize) {
        let [a, b, c, d] = self.shapes[i];
        self.csum[i] = COMBO_COUNTS[a as usize]
            + COMBO_COUNTS[b as usize]
            + COMBO_COUNTS[c as usize]
            + COMBO_COUNTS[d as usize];
        self.reclass(i);
    }

    /// Empty cell `i`'s shape on one line went from `old` to `new`: its combination counts
    /// and, when they change, its classes follow.
    #[inline]
    fn recount(&mut self, i: usize, old: u8, new: u8) {
        let (o, n) = (COMBO_COUNTS[old as usize], COMBO_COUNTS[new as usize]);
        if o != n {
            // Adding first keeps every field from borrowing (the sum holds `o`).
            self.csum[i] = self.csum[i] + n - o;
            self.reclass(i);
        }
    }

    /// Cell `i`'s classes from its combination counts.
    #[inline]
    fn reclass(&mut self, i: usize) {
        let sum = self.csum[i] as usize;
        let mask = (1 << COMBO_BITS) - 1;
        let black = &COMBO_CLASS[usize::from(self.rule == Rule::Renju)];
        let new = black[sum & mask] | COMBO_CLASS[0][sum >> 16 & mask] << 4;
        self.set_combo(i, new);
    }

    /// Sets cell `i`'s combination byte, updating the counts when it changes.
    #[inline]
    fn set_combo(&mut self, i: usize, new: u8) {
        let old = self.combo[i];
        if old == new {
            return;
        }
        self.combo[i] = new;
        self.combos[0][(old & 15) as usize] -= 1;
        self.combos[1][(old >> 4) as usize] -= 1;
        self.combos[0][(new & 15) as usize] += 1;
        self.combos[1][(new >> 4) as usize] += 1;
    }

    /// How many empty cells show each combination class for `color` ([`combo_class`]; class 0,
    /// none, is not kept meaningfully). Kept only while [`Board::track_counts`] is on; all
    /// zero otherwise.
    #[inline]
    pub fn combo_counts(&self, color: Color) -> &[i32; COMBOS] {
        if self.tracking {
            &self.combos[color.index()]
        } else {
            &[0; COMBOS]
        }
    }

    /// Adds the changes summed in `delta` to the tally (kept only while tracking).
    #[inline]
    fn apply(&mut self, delta: Delta) {
        if !self.tracking {
            return;
        }
        for (tally, packed) in self.tally.iter_mut().zip(delta.0) {
            for (code, n) in tally.iter_mut().enumerate().take(TALLIED + 1).skip(1) {
                *n += (packed >> (8 * (code - 1)) & 0xFF) as i32 - DELTA_BIAS as i32;
            }
        }
    }

    /// How many (empty cell, line) pairs show each shape for `color`, indexed by the shape's
    /// code ([`Shape::ALL`]): a stone of `color` there would make that shape on that line.
    /// Kept for the shapes from a closed two to a five (codes 1 to 8, what an evaluation
    /// weighs); the others read 0.
    /// Kept only while [`Board::track_counts`] is on; all zero otherwise.
    #[inline]
    pub fn shape_tally(&self, color: Color) -> &[i32; 16] {
        if self.tracking {
            &self.tally[color.index()]
        } else {
            &[0; 16]
        }
    }

    /// Re-reads the shapes of empty cell `i` on line `d` from its key.
    #[inline]
    fn reshape(&mut self, i: usize, d: usize) {
        self.shapes[i][d] = self.table.get(self.key(i, d));
    }

    /// Updates the five and four bit sets for empty cell `i`.
    #[inline]
    fn reflag(&mut self, i: usize) {
        let [a, b, c, d] = self.shapes[i];
        let f = shape::BYTE_FLAGS[a as usize]
            | shape::BYTE_FLAGS[b as usize]
            | shape::BYTE_FLAGS[c as usize]
            | shape::BYTE_FLAGS[d as usize];
        self.set_flags(i, f);
    }

    /// Sets cell `i`'s flags and, when they change, its bits.
    #[inline]
    fn set_flags(&mut self, i: usize, f: u8) {
        let old = self.flags[i];
        if old == f {
            return;
        }
        self.flags[i] = f;
        self.five_count[0] = self.five_count[0] + u32::from(f & 1) - u32::from(old & 1);
        self.five_count[1] = self.five_count[1] + u32::from(f >> 2 & 1) - u32::from(old >> 2 & 1);
        // A five outranks fours: the four bit is set only without the five bit.
        self.fives[0].set(i, f & 1 != 0);
        self.fours[0].set(i, f & 3 == 2);
        self.fives[1].set(i, f & 4 != 0);
        self.fours[1].set(i, f & 12 == 8);
    }

    /// The edge length: the board has `size` columns and `size` rows.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The winning rule the board is played under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The same stones under another rule (the caller re-validates if the rule matters).
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
        self.table = shape::compact(rule);
        self.refresh_all();
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Makes `color` the side to move, updating the hash; no stone is placed or recorded.
    pub fn set_to_move(&mut self, color: Color) {
        self.hash ^= zobrist::side(self.to_move) ^ zobrist::side(color);
        self.to_move = color;
    }

    /// Zobrist hash of the stones and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash the board would have after the side to move plays at cell `index`.
    #[inline]
    pub fn hash_after(&self, index: usize) -> u64 {
        self.hash
            ^ zobrist::stone(self.to_move, index)
            ^ zobrist::side(self.to_move)
            ^ zobrist::side(self.to_move.opponent())
    }

    /// What cell `index` of the padded array holds (see [`Point::index`]).
    #[inline]
    pub fn cell(&self, index: usize) -> Cell {
        self.cells[index]
    }

    /// The raw padded cell array.
    #[inline]
    pub fn cells(&self) -> &[Cell; CELLS] {
        &self.cells
    }

    /// The stone at `p`, if any (`None` also for a point off this board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.on_board(self.size) {
            self.cells[p.index()].color()
        } else {
            None
        }
    }

    /// Whether `p` is on this board and empty.
    pub fn is_empty(&self, p: Point) -> bool {
        p.on_board(self.size) && self.cells[p.index()] == Cell::Empty
    }

    /// How many stones of `color` are on the board.
    pub fn stone_count(&self, color: Color) -> usize {
        self.counts[color.index()] as usize
    }

    /// How many stones are on the board, both colours together.
    pub fn total_stones(&self) -> usize {
        (self.counts[0] + self.counts[1]) as usize
    }

    /// Every point of the board, row by row from a1.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let size = self.size;
        (0..size).flat_map(move |y| (0..size).filter_map(move |x| Point::new(x, y)))
    }

    /// The empty points of the board.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.points()
            .filter(|&p| self.cells[p.index()] == Cell::Empty)
    }

    /// The stones of one colour, row by row from a1.
    pub fn stones(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.points().filter(move |&p| self.get(p) == Some(color))
    }

    /// Moves played with [`Board::play`], oldest first.
    pub fn history(&self) -> &[Point] {
        &self.history
    }

    /// The whole game record when every stone on the board was played in order.
    pub fn record(&self) -> Option<&[Point]> {
        (self.setup_stones == 0).then_some(&self.history[..])
    }

    /// The last move played with [`Board::play`], if any.
    pub fn last_move(&self) -> Option<Point> {
        self.history.last().copied()
    }

    /// The shapes a `color` stone at empty cell `index` would make on the four lines.
    #[inline]
    pub fn shapes(&self, index: usize, color: Color) -> [Shape; 4] {
        let shift = 4 * color.index();
        self.shapes[index].map(|b| Shape::from_u8((b >> shift) & 15))
    }

    /// Whether some empty cell within five steps of empty cell `p` on one of its lines, whose
    /// shape for `color` on that line is `floor` or stronger now, would satisfy `test` were a
    /// `color` stone put at `p`: `test` gets the four shapes the cell would then show (only
    /// the shared line's differs from [`Board::shapes`]). Nothing is placed: the line's key
    /// is read with the stone in it. Lets a search ask what a move opens before playing it.
    pub fn any_near_after(
        &self,
        p: usize,
        color: Color,
        floor: Shape,
        test: impl Fn(&[Shape; 4]) -> bool,
    ) -> bool {
        let code = Cell::of(color) as u64;
        let shift = 4 * color.index();
        for (d, &step) in DIRS.iter().enumerate() {
            let (line, pos) = line_of(p, d);
            let l = self.lines[d][line] | code << (2 * pos);
            // The empty cells within five steps, read off the line as in `place_lines`.
            let window = (l >> (2 * (pos - PAD as u32))) & 0x3F_FFFF;
            let mut empty = !(window | window >> 1) & 0x15_5155;
            let first = (p as isize - 5 * step) as usize;
            while empty != 0 {
                let b = empty.trailing_zeros();
                empty &= empty - 1;
                // In the padded array, so `% CELLS` changes nothing and spares the bounds check.
                let r = first.wrapping_add_signed((b / 2) as isize * step) % CELLS;
                if (self.shapes[r][d] >> shift) & 15 < floor as u8 {
                    continue;
                }
                let mut bytes = self.shapes[r];
                bytes[d] = self.table.get(line_key(l, pos + b / 2 - PAD as u32));
                if test(&bytes.map(|b| Shape::from_u8((b >> shift) & 15))) {
                    return true;
                }
            }
        }
        false
    }

    /// The four lines' shapes at cell `index` for both colours, packed a byte a line: black's
    /// shape code in the low four bits, white's in the high four (codes as [`Shape::ALL`]).
    #[inline]
    pub fn shape_bytes(&self, index: usize) -> [u8; 4] {
        self.shapes[index]
    }

    /// What the last placement still on the board ([`Board::play`], [`Board::put`] or
    /// [`Board::drop_stone`]) changed: each (empty cell, line, shape byte before) whose shape
    /// byte it changed, once each; the byte now is [`Board::shape_bytes`]. An evaluator that
    /// follows play and undo reads it right after a placement and right before the stone is
    /// taken back. Empty when no placement is journalled (none yet, or after a rule change).
    #[inline]
    pub fn last_changes(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        let start = self.marks.last().map_or(self.journal_len, |&m| m as usize);
        self.journal[start..self.journal_len]
            .iter()
            .map(|&e| ((e >> 10) as usize % CELLS, (e >> 8 & 3) as usize, e as u8))
    }

    /// Whether a `color` stone at empty cell `index` would make a three or a closed three on
    /// some line: four table reads, where [`crate::pattern::Class::of`] counts every shape.
    #[inline]
    pub fn makes_three(&self, index: usize, color: Color) -> bool {
        let [a, b, c, d] = self.shapes[index];
        let t = &shape::BYTE_THREES;
        (t[a as usize] | t[b as usize] | t[c as usize] | t[d as usize]) >> color.index() & 1 != 0
    }

    /// The line key of cell `index` on line `dir`.
    #[inline]
    pub fn key(&self, index: usize, dir: usize) -> u32 {
        let (line, pos) = line_of(index, dir);
        line_key(self.lines[dir][line], pos)
    }

    /// The shape a `color` stone makes on a line with line key `key`, under this board's rule.
    #[inline]
    pub fn key_shape(&self, key: u32, color: Color) -> Shape {
        self.table.shape(key, color)
    }

    /// The cells `color`'s stones hold.
    #[inline]
    pub fn stone_bits(&self, color: Color) -> &Bits {
        &self.stone_bits[color.index()]
    }

    /// The empty cells of the board.
    #[inline]
    pub fn empty_bits(&self) -> &Bits {
        &self.empty_bits
    }

    /// The hash the board had before its last played move (the stone gone, its player to
    /// move), or `None` when no move was played.
    #[inline]
    pub fn hash_before_last(&self) -> Option<u64> {
        let p = self.history.last()?;
        let color = self.cells[p.index()].color()?;
        Some(
            self.hash
                ^ zobrist::stone(color, p.index())
                ^ zobrist::side(self.to_move)
                ^ zobrist::side(color),
        )
    }

    /// How many points [`Board::five_points`] holds for `color` (kept up to date, not counted).
    #[inline]
    pub fn five_count(&self, color: Color) -> u32 {
        self.five_count[color.index()]
    }

    /// Empty cells where `color` would complete a five (for black under renju, an exact five).
    #[inline]
    pub fn five_points(&self, color: Color) -> &Bits {
        &self.fives[color.index()]
    }

    /// Empty cells where `color` would make a four (or more fours) and no five. Under renju,
    /// black's include forbidden points: check [`crate::pattern::foul`] before playing one.
    #[inline]
    pub fn four_points(&self, color: Color) -> &Bits {
        &self.fours[color.index()]
    }

    /// Puts a stone on empty cell `i` and updates the lines and shapes around it.
    fn place(&mut self, i: usize, color: Color) {
        debug_assert_eq!(self.cells[i], Cell::Empty);
        let code = Cell::of(color) as u32;
        self.cells[i] = Cell::of(color);
        self.stone_bits[color.index()].set(i, true);
        self.empty_bits.set(i, false);
        self.counts[color.index()] += 1;
        self.hash ^= zobrist::stone(color, i);
        self.set_flags(i, 0);
        if self.tracking {
            self.set_combo(i, 0);
        }
        let mut delta = Delta::new();
        for d in 0..4 {
            delta.sub(self.shapes[i][d]);
        }
        self.marks.push(self.journal_len as u32);
        let base = self.journal_len;
        if self.journal.len() < base + STEP_ENTRIES {
            // Grows by doubling, so a search's placements reach a steady size at once.
            self.journal
                .resize((base + STEP_ENTRIES).max(2 * self.journal.len()), 0);
        }
        self.journal_len = if self.tracking {
            self.place_lines::<true>(i, code as u64, base, &mut delta)
        } else {
            self.place_lines::<false>(i, code as u64, base, &mut delta)
        };
        self.apply(delta);
    }

    /// Writes stone code `code` at cell `i` into its four lines and re-reads the shapes of the
    /// empty cells within five steps on them, journalling the changed ones from entry `n` on;
    /// returns the journal's new length. A stone's or a wall's cell keeps its shape, so only
    /// the empty ones are visited, taken from the line's own codes (reading the table for all
    /// ten and keeping the old shape for the taken ones cost 13% more on a VCT). `TRACK`: also
    /// keep the evaluation's counts.
    #[inline(always)]
    fn place_lines<const TRACK: bool>(
        &mut self,
        i: usize,
        code: u64,
        mut n: usize,
        delta: &mut Delta,
    ) -> usize {
        let table = self.table;
        // Cells whose five or four flags may have changed, re-read once every line is done
        // (a cell listed twice is re-read twice, to the same result): no branch in the loop.
        let mut touched = [0u16; 64];
        let mut t = 0;
        for (d, &step) in DIRS.iter().enumerate() {
            let (line, pos) = line_of(i, d);
            let l = self.lines[d][line] | code << (2 * pos);
            self.lines[d][line] = l;
            // The empty cells within five steps, one bit each (bit 2j for offset j - 5), read
            // off the line: a board cell has five cells of the padded array on each side.
            let window = (l >> (2 * (pos - PAD as u32))) & 0x3F_FFFF;
            let mut empty = !(window | window >> 1) & 0x15_5155;
            // The cell at bit `b` of the window sits at line position `pos + b / 2 - 5`, and
            // its key's halves start `2 * (pos + b / 2 - 5) - 10` and 12 bits further up the
            // line (see `line_key`); both are in range for a cell on the board.
            let first = (i as isize - 5 * step) as usize;
            let shift = (2 * pos).wrapping_sub(20);
            while empty != 0 {
                let b = empty.trailing_zeros();
                empty &= empty - 1;
                // In the padded array (a wall five cells wide), so `% CELLS` changes nothing
                // and spares the bounds checks.
                let q = first.wrapping_add_signed((b / 2) as isize * step) % CELLS;
                let s = shift.wrapping_add(b);
                let before = l.wrapping_shr(s) as u32;
                let after = l.wrapping_shr(s + 12) as u32;
                let old = self.shapes[q][d];
                let new = table.get_halves(before, after);
                self.shapes[q][d] = new;
                if TRACK {
                    delta.sub(old);
                    delta.add(new);
                }
                self.journal[n] = (q as u32) << 10 | (d as u32) << 8 | old as u32;
                n += usize::from(new != old);
                // The cell's five and four flags change only if this line's do.
                touched[t & 63] = q as u16;
                t +=
                    usize::from(shape::BYTE_FLAGS[new as usize] != shape::BYTE_FLAGS[old as usize]);
                if TRACK {
                    self.recount(q, old, new);
                }
            }
        }
        for &q in &touched[..t.min(64)] {
            self.reflag(q as usize);
        }
        n
    }

    /// Puts back the shapes journalled from entry `start` on, newest first. `TRACK`: also
    /// the evaluation's counts (as [`Board::place_lines`]).
    #[inline(always)]
    fn unjournal<const TRACK: bool>(&mut self, start: usize, delta: &mut Delta) {
        // As in `place_lines`, the flags are re-read once the shapes are back. A placement
        // journals each (cell, line) once, so the order of restoring does not matter.
        let mut touched = [0u16; 64];
        let mut t = 0;
        for k in start..self.journal_len {
            let e = self.journal[k];
            let (q, d) = ((e >> 10) as usize % CELLS, (e >> 8 & 3) as usize);
            let now = self.shapes[q][d];
            if TRACK {
                delta.sub(now);
                delta.add(e as u8);
            }
            self.shapes[q][d] = e as u8;
            touched[t & 63] = q as u16;
            t +=
                usize::from(shape::BYTE_FLAGS[e as u8 as usize] != shape::BYTE_FLAGS[now as usize]);
            if TRACK {
                self.recount(q, now, e as u8);
            }
        }
        self.journal_len = start;
        for &q in &touched[..t.min(64)] {
            self.reflag(q as usize);
        }
    }

    /// Takes the stone off cell `i` and updates the lines and shapes around it.
    fn remove(&mut self, i: usize) {
        let Some(color) = self.cells[i].color() else {
            return;
        };
        self.cells[i] = Cell::Empty;
        self.stone_bits[color.index()].set(i, false);
        self.empty_bits.set(i, true);
        self.counts[color.index()] -= 1;
        self.hash ^= zobrist::stone(color, i);
        for d in 0..4 {
            let (line, pos) = line_of(i, d);
            self.lines[d][line] &= !(3 << (2 * pos));
        }
        // The tally's changes (one removal changes at most 44 pairs of each colour, like a
        // placement).
        let mut delta = Delta::new();
        match self.marks.pop() {
            // The last placement was this one: put back the shapes it changed. The cell's own
            // shapes were left alone while it was taken, so they are still right.
            Some(start) => {
                if self.tracking {
                    self.unjournal::<true>(start as usize, &mut delta);
                } else {
                    self.unjournal::<false>(start as usize, &mut delta);
                }
            }
            // Placed before the tables were last rebuilt: re-read everything around it.
            None => {
                for (d, &step) in DIRS.iter().enumerate() {
                    for k in [-5i32, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                        let q = (i as isize + k as isize * step) as usize;
                        if self.cells[q] == Cell::Empty {
                            delta.sub(self.shapes[q][d]);
                            self.reshape(q, d);
                            delta.add(self.shapes[q][d]);
                            self.reflag(q);
                            if self.tracking {
                                self.recombo(q);
                            }
                        }
                    }
                    self.reshape(i, d);
                }
            }
        }
        for d in 0..4 {
            delta.add(self.shapes[i][d]);
        }
        self.apply(delta);
        self.reflag(i);
        if self.tracking {
            self.recombo(i);
        }
    }

    /// Puts a stone without recording a move (for look-ahead); undo with [`Board::lift`].
    #[inline]
    pub fn drop_stone(&mut self, index: usize, color: Color) {
        self.place(index, color);
    }

    /// Takes back a stone put with [`Board::drop_stone`].
    #[inline]
    pub fn lift(&mut self, index: usize) {
        self.remove(index);
    }

    fn set(&mut self, p: Point, color: Color) {
        debug_assert_eq!(self.cells[p.index()], Cell::Empty, "{p} is taken");
        self.place(p.index(), color);
    }

    /// Places a set-up stone of `color` (no move order). The caller checks `p` is empty.
    pub fn put(&mut self, p: Point, color: Color) {
        self.set(p, color);
        self.setup_stones += 1;
    }

    /// Plays the side to move at `p` (which must be empty) and passes the move to the opponent.
    pub fn play(&mut self, p: Point) {
        self.set(p, self.to_move);
        self.history.push(p);
        self.set_to_move(self.to_move.opponent());
    }

    /// Takes back the last played move; `None` when there is none.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.history.pop()?;
        let color = self.cells[p.index()].color()?;
        self.remove(p.index());
        self.set_to_move(color);
        Some(p)
    }

    /// Length of the unbroken run of `color` through `p` along direction `dir`, counting `p`
    /// itself as `color` whatever it holds.
    #[inline]
    pub fn run_through(&self, p: Point, dir: usize, color: Color) -> usize {
        let cell = Cell::of(color);
        let step = DIRS[dir];
        let i = p.index() as isize;
        let mut run = 1;
        for sign in [1, -1] {
            let mut j = i + sign * step;
            while self.cells[j as usize] == cell {
                run += 1;
                j += sign * step;
            }
        }
        run
    }

    /// Whether a stone of `color` at `p` makes a winning line under this board's rule.
    #[inline]
    pub fn makes_five(&self, p: Point, color: Color) -> bool {
        (0..4).any(|d| self.rule.wins(color, self.run_through(p, d, color)))
    }

    /// The winning line through the stone at `p`, if that stone completes one.
    pub fn five_through(&self, p: Point) -> Option<Five> {
        let color = self.get(p)?;
        let dir = (0..4).find(|&d| self.rule.wins(color, self.run_through(p, d, color)))?;
        let step = DIRS[dir];
        let cell = Cell::of(color);
        let mut start = p.index() as isize;
        while self.cells[(start - step) as usize] == cell {
            start -= step;
        }
        let mut stones = Vec::new();
        let mut j = start;
        while self.cells[j as usize] == cell {
            stones.push(Point::from_index(j as usize));
            j += step;
        }
        Some(Five { color, stones })
    }

    /// A winning line anywhere on the board, if there is one.
    pub fn winner(&self) -> Option<Five> {
        self.points().find_map(|p| self.five_through(p))
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            journal: self.journal[..self.journal_len].to_vec(),
            marks: self.marks.clone(),
            history: self.history.clone(),
            ..*self
        }
    }

    /// Copies `source` into this board, reusing its move lists' memory: a solver that keeps a
    /// scratch board copies positions into it without allocating.
    fn clone_from(&mut self, source: &Board) {
        self.size = source.size;
        self.rule = source.rule;
        self.cells = source.cells;
        self.lines = source.lines;
        self.shapes = source.shapes;
        self.fives = source.fives;
        self.five_count = source.five_count;
        self.fours = source.fours;
        self.stone_bits = source.stone_bits;
        self.empty_bits = source.empty_bits;
        self.flags = source.flags;
        let n = source.journal_len;
        self.journal.clear();
        self.journal.extend_from_slice(&source.journal[..n]);
        self.journal_len = n;
        self.marks.clone_from(&source.marks);
        self.table = source.table;
        self.tally = source.tally;
        self.csum = source.csum;
        self.combo = source.combo;
        self.combos = source.combos;
        self.tracking = source.tracking;
        self.to_move = source.to_move;
        self.hash = source.hash;
        self.history.clone_from(&source.history);
        self.setup_stones = source.setup_stones;
        self.counts = source.counts;
    }
}

impl PartialEq for Board {
    /// Two boards are equal when they have the same size, rule, stones and side to move
    /// (the move order is compared separately where a format keeps it).
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.rule == other.rule
            && self.to_move == other.to_move
            && self.cells == other.cells
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Board {}x{} {} ({} to move)",
            self.size, self.size, self.rule, self.to_move
        )?;
        for y in (0..self.size).rev() {
            for x in 0..self.size {
                let c = match Point::new(x, y).and_then(|p| self.get(p)) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// The running tally of shapes equals a count from scratch after any play and undo.
    #[test]
    fn the_shape_tally_follows_play_and_undo() {
        let recount = |b: &Board, c: Color| {
            let mut t = [0i32; 16];
            for i in 0..CELLS {
                if b.cells[i] == Cell::Empty {
                    for d in 0..4 {
                        let code = b.shapes(i, c)[d] as usize;
                        if (1..=TALLIED).contains(&code) {
                            t[code] += 1;
                        }
                    }
                }
            }
            t
        };
        for rule in Rule::ALL {
            let mut b = Board::new(15, rule).unwrap();
            b.track_counts(true);
            let mut rng = crate::rng::Rng::new(rule as u64);
            for step in 0..400 {
                let r = rng.next_u64();
                let q = Point::new((r % 15) as u8, (r / 15 % 15) as u8).unwrap();
                if step % 3 == 2 || !b.is_empty(q) {
                    b.undo();
                } else {
                    b.play(q);
                }
                for c in [Color::Black, Color::White] {
                    assert_eq!(*b.shape_tally(c), recount(&b, c), "{rule} step {step}");
                }
                // The combination counts equal a count from scratch (class 0 is not kept).
                let mut fresh = b.clone();
                fresh.refresh_all();
                for c in [Color::Black, Color::White] {
                    // The five points and their kept count, against a count and a fresh board.
                    assert_eq!(
                        b.five_count(c),
                        b.five_points(c).count(),
                        "{rule} step {step}"
                    );
                    assert_eq!(b.five_points(c), fresh.five_points(c), "{rule} step {step}");
                    assert_eq!(b.five_count(c), fresh.five_count(c), "{rule} step {step}");
                    let mut counted = [0i32; COMBOS];
                    for i in 0..CELLS {
                        if b.cells[i] == Cell::Empty {
                            counted[(b.combo[i] >> (4 * c.index()) & 15) as usize] += 1;
                        }
                    }
                    assert_eq!(b.combo, fresh.combo, "{rule} step {step}");
                    assert_eq!(b.combo_counts(c)[1..], counted[1..], "{rule} step {step}");
                    assert_eq!(b.combo_counts(c)[1..], fresh.combo_counts(c)[1..]);
                }
            }
            let mut copy = Board::new(9, Rule::Renju).unwrap();
            copy.clone_from(&b);
            copy.set_rule(Rule::ALL[(rule as usize + 1) % 3]);
            for c in [Color::Black, Color::White] {
                assert_eq!(copy.five_count(c), copy.five_points(c).count());
            }
            assert_eq!(
                *copy.shape_tally(Color::White),
                recount(&copy, Color::White)
            );
        }
    }

    #[test]
    fn play_undo_restores_hash_and_side() {
        let mut b = Board::new(15, Rule::Freestyle).unwrap();
        let h0 = b.hash();
        b.play(p("h8"));
        b.play(p("i9"));
        assert_eq!(b.get(p("h8")), Some(Color::Black));
        assert_eq!(b.get(p("i9")), Some(Color::White));
        assert_eq!(b.to_move(), Color::Black);
        assert_ne!(b.hash(), h0);
        b.undo();
        b.undo();
        assert_eq!(b.hash(), h0);
        assert_eq!(b.total_stones(), 0);
        assert_eq!(b.undo(), None);
    }

    /// `any_near_after` reads what placing the stone would show: on random positions of each
    /// rule, for every empty point and colour, it agrees with placing the stone and reading
    /// the cells around it; and a cell gains a four on a line only from a closed three there,
    /// the floor the VCF gives it.
    #[test]
    fn any_near_after_reads_the_shapes_a_placement_would_make() {
        let has_four = |s: &[Shape; 4]| s.iter().any(|&s| s.fours() > 0);
        let near = |p: usize| {
            DIRS.iter().enumerate().flat_map(move |(d, &step)| {
                (-5..=5isize)
                    .filter(|&k| k != 0)
                    .map(move |k| (d, (p as isize + k * step) as usize))
            })
        };
        for rule in Rule::ALL {
            let mut b = Board::new(15, rule).unwrap();
            let mut rng = crate::rng::Rng::new(40 + rule as u64);
            let mut found = 0;
            for step in 0..60 {
                let q = Point::new(rng.below(15) as u8, rng.below(15) as u8).unwrap();
                if b.is_empty(q) {
                    b.play(q);
                }
                let empty: Vec<usize> = b.empty_bits().iter().collect();
                for p in empty {
                    for c in [Color::Black, Color::White] {
                        let read = b.any_near_after(p, c, Shape::ClosedThree, has_four);
                        let before: Vec<[Shape; 4]> =
                            near(p).map(|(_, r)| b.shapes(r, c)).collect();
                        b.drop_stone(p, c);
                        let mut placed = false;
                        for ((d, r), was) in near(p).zip(&before) {
                            if b.cells[r] != Cell::Empty {
                                continue;
                            }
                            let now = b.shapes(r, c);
                            if now[d].fours() > 0 {
                                assert!(was[d] >= Shape::ClosedThree, "{rule} {p} {c:?} {r}");
                            }
                            placed |= was[d] >= Shape::ClosedThree && has_four(&now);
                        }
                        b.lift(p);
                        assert_eq!(read, placed, "{rule} step {step} at {p} for {c:?}");
                        found += usize::from(read);
                    }
                }
            }
            assert!(found > 100, "{rule}: a four near only {found} points");
        }
    }

    #[test]
    fn hash_before_last_is_the_hash_before_the_move() {
        let mut b = Board::new(15, Rule::Freestyle).unwrap();
        assert_eq!(b.hash_before_last(), None);
        b.play(p("h8"));
        let before = b.hash();
        b.play(p("i9"));
        assert_eq!(b.hash_before_last(), Some(before));
        // Also after the side to move was changed by hand, as the solvers do.
        b.set_to_move(Color::White);
        assert_eq!(b.hash_before_last(), Some(before));
    }

    #[test]
    fn fives_per_rule() {
        for (rule, six_wins_black, six_wins_white) in [
            (Rule::Freestyle, true, true),
            (Rule::Standard, false, false),
            (Rule::Renju, false, true),
        ] {
            for (color, expect_six) in [
                (Color::Black, six_wins_black),
                (Color::White, six_wins_white),
            ] {
                let mut b = Board::new(15, rule).unwrap();
                for s in ["c3", "d3", "e3", "f3", "h3"] {
                    b.put(p(s), color);
                }
                assert!(b.winner().is_none());
                assert!(
                    b.makes_five(p("g3"), color) == expect_six,
                    "{rule} {color} six"
                );
                assert!(
                    b.makes_five(p("b3"), color),
                    "{rule} {color}: b3-f3 is an exact five"
                );
                b.put(p("g3"), color);
                assert_eq!(b.winner().is_some(), expect_six);
            }
        }
    }

    #[test]
    fn five_on_the_edge_and_diagonals() {
        let mut b = Board::new(5, Rule::Standard).unwrap();
        for s in ["a1", "b2", "c3", "d4", "e5"] {
            b.put(p(s), Color::White);
        }
        let five = b.winner().unwrap();
        assert_eq!(five.stones.len(), 5);
        assert_eq!(five.color, Color::White);
        assert!(Board::new(4, Rule::Renju).is_none());
        assert!(Board::new(23, Rule::Renju).is_none());
    }
}
