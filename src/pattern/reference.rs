//! A slow judge of shapes and fouls written straight from the definitions, sharing nothing with
//! the tables but [`Board::get`]: stones are tried on a scratch grid and runs are counted. It
//! exists to check the fast judge (property tests) and to replay proofs independently.

use std::cell::Cell;

use super::Foul;
use crate::board::{Board, Color, MAX_SIZE, Point, Rule};

/// Cells of the largest board.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// A plain grid of stones.
#[derive(Clone)]
pub struct Grid {
    size: i32,
    rule: Rule,
    cells: Vec<Option<Color>>,
    /// While on, every cell read through [`Grid::get`] is marked in `read`.
    tracking: Cell<bool>,
    read: [Cell<u64>; MAX_CELLS.div_ceil(64)],
}

/// The cells a computation on a [`Grid`] read (see [`Grid::recording`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reads([u64; MAX_CELLS.div_ceil(64)]);

impl Reads {
    /// Whether the point at column `x`, row `y` of a board of `size` was read.
    pub fn contains(&self, size: i32, x: i32, y: i32) -> bool {
        let i = (y * size + x) as usize;
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds the point at column `x`, row `y` of a board of `size`.
    pub fn insert(&mut self, size: i32, x: i32, y: i32) {
        let i = (y * size + x) as usize;
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// The points, a bit each (`y * size + x`), in words.
    pub fn words(&self) -> &[u64; MAX_CELLS.div_ceil(64)] {
        &self.0
    }
}

const LINES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Grid {
    /// A copy of the board's stones and rule.
    pub fn of(board: &Board) -> Grid {
        let size = board.size() as i32;
        let mut cells = vec![None; (size * size) as usize];
        for p in board.points() {
            cells[(p.y() as i32 * size + p.x() as i32) as usize] = board.get(p);
        }
        Grid {
            size,
            rule: board.rule(),
            cells,
            tracking: Cell::new(false),
            read: Default::default(),
        }
    }

    /// Clears the record of cells read (see [`Grid::recording`]).
    pub fn clear_reads(&self) {
        for w in &self.read {
            w.set(0);
        }
    }

    /// Turns the record on or off: while on, every cell read through [`Grid::get`] is marked,
    /// so what is computed meanwhile depends on the stones only through the marked cells.
    pub fn recording(&self, on: bool) {
        self.tracking.set(on);
    }

    /// Whether the record of cells read is on (see [`Grid::recording`]).
    pub fn is_recording(&self) -> bool {
        self.tracking.get()
    }

    /// The cells, row by row from the bottom (`y * size + x`), read without marking them.
    pub fn cells(&self) -> &[Option<Color>] {
        &self.cells
    }

    /// Marks (x, y) as read.
    pub fn mark(&self, x: i32, y: i32) {
        let i = (y * self.size + x) as usize;
        let w = &self.read[i / 64];
        w.set(w.get() | 1 << (i % 64));
    }

    /// The cells marked since [`Grid::clear_reads`].
    pub fn reads(&self) -> Reads {
        Reads(std::array::from_fn(|k| self.read[k].get()))
    }

    /// Makes the record of cells read `reads`, as if exactly those had been marked.
    pub fn set_reads(&self, reads: &Reads) {
        for (w, &r) in self.read.iter().zip(&reads.0) {
            w.set(r);
        }
    }

    /// Marks every cell of `reads`.
    pub fn add_reads(&self, reads: &Reads) {
        for (w, &r) in self.read.iter().zip(&reads.0) {
            w.set(w.get() | r);
        }
    }

    /// The board size.
    pub fn size(&self) -> i32 {
        self.size
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The cell at column `x`, row `y` (0-based, row 0 at the bottom): `None` off the board,
    /// `Some(None)` when empty, else `Some` of the stone's colour.
    pub fn get(&self, x: i32, y: i32) -> Option<Option<Color>> {
        let cell = self.peek(x, y)?;
        if self.tracking.get() {
            self.mark(x, y);
        }
        Some(cell)
    }

    /// [`Grid::get`] without marking the cell read: for code that computes the marks itself.
    pub fn peek(&self, x: i32, y: i32) -> Option<Option<Color>> {
        (0..self.size).contains(&x).then_some(())?;
        (0..self.size).contains(&y).then_some(())?;
        Some(self.cells[(y * self.size + x) as usize])
    }

    /// Puts a `c` stone at (x, y), or empties it for `None`; (x, y) must be on the board.
    pub fn set(&mut self, x: i32, y: i32, c: Option<Color>) {
        self.cells[(y * self.size + x) as usize] = c;
    }

    fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32), c: Color) -> usize {
        let mut run = 1;
        for s in [1, -1] {
            let (mut a, mut b) = (x + s * dx, y + s * dy);
            while self.get(a, b) == Some(Some(c)) {
                run += 1;
                a += s * dx;
                b += s * dy;
            }
        }
        run
    }

    /// Whether a `c` stone at empty (x, y) wins on line `dir` (or on any line for `None`).
    pub fn wins(&self, x: i32, y: i32, c: Color, dir: Option<usize>) -> bool {
        let exact = self.rule.exact_five(c);
        for (d, &l) in LINES.iter().enumerate() {
            if dir.is_some_and(|want| want != d) {
                continue;
            }
            let run = self.run(x, y, l, c);
            if run == 5 || (run > 5 && !exact) {
                return true;
            }
        }
        false
    }

    /// Every empty point where a `c` stone would win, in row order. A five through a point
    /// holds a stone next to it, so only the empty neighbours of `c` stones are tried (each
    /// once: a bit set on the stack marks those tried).
    pub fn win_points(&self, c: Color) -> Vec<(i32, i32)> {
        let mut tried = [0u64; MAX_CELLS.div_ceil(64)];
        let mut out = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                if self.get(x, y) != Some(Some(c)) {
                    continue;
                }
                for (dx, dy) in [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ] {
                    let (a, b) = (x + dx, y + dy);
                    if self.get(a, b) != Some(None) {
                        continue;
                    }
                    let i = (b * self.size + a) as usize;
                    let (word, bit) = (i / 64, 1u64 << (i % 64));
                    if tried[word] & bit == 0 {
                        tried[word] |= bit;
                        if self.wins(a, b, c, None) {
                            out.push((a, b));
                        }
                    }
                }
            }
        }
        out.sort_by_key(|&(a, b)| (b, a));
        out
    }

    /// Empty points on line `dir` through (x, y), within `reach` steps.
    fn line_points(&self, x: i32, y: i32, dir: usize, reach: i32) -> Vec<(i32, i32)> {
        let (dx, dy) = LINES[dir];
        (-reach..=reach)
            .filter(|&k| k != 0)
            .map(|k| (x + k * dx, y + k * dy))
            .filter(|&(a, b)| self.get(a, b) == Some(None))
            .collect()
    }

    /// The five points on line `dir` a `c` stone at (x, y) would have, where each five
    /// passes through (x, y). The stone is put for the look and taken back.
    fn five_points(&mut self, x: i32, y: i32, dir: usize, c: Color) -> Vec<(i32, i32)> {
        self.set(x, y, Some(c));
        let (dx, dy) = LINES[dir];
        let points = self
            .line_points(x, y, dir, 5)
            .into_iter()
            .filter(|&(a, b)| {
                self.set(a, b, Some(c));
                let run = self.run(x, y, (dx, dy), c);
                self.set(a, b, None);
                if self.rule.exact_five(c) {
                    run == 5
                } else {
                    run >= 5
                }
            })
            .collect();
        self.set(x, y, None);
        points
    }

    /// The number of fours a `c` stone at (x, y) makes on line `dir`: a straight four (two five
    /// points five apart with four stones between) is one.
    pub fn fours(&mut self, x: i32, y: i32, dir: usize, c: Color) -> usize {
        let fives = self.five_points(x, y, dir, c);
        match fives[..] {
            [(a, b), (e, f)] if (a - e).abs().max((b - f).abs()) == 5 => 1,
            _ => fives.len(),
        }
    }

    /// Whether a `c` stone at (x, y) makes a straight four on line `dir`.
    pub fn straight_four(&mut self, x: i32, y: i32, dir: usize, c: Color) -> bool {
        let fives = self.five_points(x, y, dir, c);
        matches!(fives[..], [(a, b), (e, f)] if (a - e).abs().max((b - f).abs()) == 5)
    }

    /// Black stones on line `dir` through (x, y), within four steps.
    fn black_near(&self, x: i32, y: i32, dir: usize) -> usize {
        let (dx, dy) = LINES[dir];
        (-4..=4)
            .filter(|&k| k != 0 && self.get(x + k * dx, y + k * dy) == Some(Some(Color::Black)))
            .count()
    }

    /// Whether a black stone at empty (x, y) is forbidden under renju.
    pub fn foul(&mut self, x: i32, y: i32) -> Option<Foul> {
        if self.rule != Rule::Renju {
            return None;
        }
        // What each foul needs of the other black stones on a line within four steps: a three
        // two (a straight four is four in a row, one of them added), a four three, two fours
        // on one line (`x.xxx.x`) four, an overline four (six in a row: the five others are
        // within five steps, four of them within four). Lines with fewer cannot take part.
        let near: [usize; 4] = std::array::from_fn(|d| self.black_near(x, y, d));
        let lines_with = |n: usize| near.iter().filter(|&&k| k >= n).count();
        if (lines_with(2) < 2 && lines_with(4) == 0) || self.wins(x, y, Color::Black, None) {
            return None;
        }
        if (0..4).any(|d| near[d] >= 4 && self.run(x, y, LINES[d], Color::Black) > 5) {
            return Some(Foul::Overline);
        }
        let fours: [usize; 4] = std::array::from_fn(|d| {
            if near[d] >= 3 {
                self.fours(x, y, d, Color::Black)
            } else {
                0
            }
        });
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Foul::DoubleFour);
        }
        let mut real = 0;
        for d in (0..4).filter(|&d| fours[d] == 0 && near[d] >= 2) {
            // A three: some empty point on the line makes a straight four through (x, y), and
            // that point is itself legal with (x, y) played.
            self.set(x, y, Some(Color::Black));
            let candidates = self.line_points(x, y, d, 4);
            let mut is_three = false;
            for (a, b) in candidates {
                self.set(a, b, Some(Color::Black));
                self.set(x, y, None);
                let straight = self.straight_four(x, y, d, Color::Black);
                self.set(x, y, Some(Color::Black));
                self.set(a, b, None);
                if straight && self.foul(a, b).is_none() {
                    is_three = true;
                    break;
                }
            }
            self.set(x, y, None);
            real += usize::from(is_three);
        }
        (real >= 2).then_some(Foul::DoubleThree)
    }
}

/// Every forbidden point of the board, judged by the reference.
pub fn fouls(board: &Board) -> Vec<(Point, Foul)> {
    let mut grid = Grid::of(board);
    board
        .empty_points()
        .filter_map(|p| grid.foul(p.x() as i32, p.y() as i32).map(|f| (p, f)))
        .collect()
}
