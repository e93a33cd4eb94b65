//! Independent checks of what the solvers claim, on the slow reference judge
//! ([`crate::pattern::reference`]), which shares no code with the tables the solvers read.
//!
//! [`vcf_line`] replays a winning line: every move lands on an empty point; black never plays a forbidden point under renju; before each attacker move that does not win, the
//! defender has no five to make, or the move blocks its only one; every defender reply is forced
//! (the attacker threatens exactly one five and the reply takes it; with two threats the
//! defender may take either); and the line ends in the attacker's five or, under renju, with
//! black's only block forbidden.
//!
//! [`proof`] checks a VCT proof tree against every legal defence: each tree reply is followed,
//! and each reply outside the tree is shown to lose by a fresh search, itself verified.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::proof::Attack;
use super::{Ending, Limits, Outcome, vct};
use crate::board::{Board, Color, Point, Rule};
use crate::pattern::Foul;
use crate::pattern::reference::{Grid, Reads};

/// Why a line is not a proven VCF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({point}): {problem}")]
pub struct VerifyError {
    /// The move's number in the line, from 1.
    pub number: usize,
    /// The move.
    pub point: String,
    /// What is wrong with it.
    pub problem: String,
}

/// The five points of both colours on a reference grid, found by one full scan and then kept
/// up to date move by move ([`Fives::set`] says why a move changes them only on its own lines
/// within five steps). A property test checks them against full scans after every stone put
/// and taken. Beside them, the stones of each colour, and the reference judge's foul verdicts
/// with the cells each one read ([`Fives::foul`]).
pub struct Fives {
    /// Per colour (black, white): a bit per point, `y * size + x`, so in row order.
    sets: [[u64; WORDS]; 2],
    /// The stones, likewise.
    stones: [[u64; WORDS]; 2],
    size: i32,
    /// Per point, the latest verdicts of the judge there (at most [`JUDGED`]), and how many
    /// are kept in all (at most [`JUDGED_IN_ALL`]).
    judged: Vec<Vec<Judged>>,
    judged_in_all: usize,
}

/// A verdict of the reference foul judge at a point, with the cells it read and the stones
/// they held then.
struct Judged {
    reads: Reads,
    stones: [[u64; WORDS]; 2],
    foul: Option<Foul>,
}

/// Verdicts kept per point: `vct_game_black_l10_1` verifies in 28 ms keeping 8, 26 ms
/// keeping 32 and 24 ms keeping 64 (36 ms judging every time).
const JUDGED: usize = 64;
/// Verdicts kept in all, about 200 bytes each (3 MB); past it, all are forgotten.
const JUDGED_IN_ALL: usize = 1 << 14;

/// Words of a point set on the largest board.
const WORDS: usize =
    (crate::board::MAX_SIZE as usize * crate::board::MAX_SIZE as usize).div_ceil(64);

/// Cells looked at on each side of a changed point: five within reach of a five through it,
/// and past them the run of stones that says whether a five there would be six.
const REACH: usize = 5;
const SPAN: usize = 2 * (REACH + REACH + 1) + 1;

impl Fives {
    /// The five points of both colours on `grid`.
    pub fn of(grid: &Grid) -> Fives {
        let size = grid.size();
        let mut fives = Fives {
            sets: [[0; WORDS]; 2],
            stones: [[0; WORDS]; 2],
            size,
            judged: (0..size * size).map(|_| Vec::new()).collect(),
            judged_in_all: 0,
        };
        for c in [Color::Black, Color::White] {
            for (x, y) in grid.win_points(c) {
                fives.flip(c, x, y);
            }
        }
        for y in 0..size {
            for x in 0..size {
                if let Some(Some(c)) = grid.peek(x, y) {
                    let i = (y * size + x) as usize;
                    fives.stones[c.index()][i / 64] |= 1 << (i % 64);
                }
            }
        }
        fives
    }

    fn has(&self, c: Color, x: i32, y: i32) -> bool {
        let i = (y * self.size + x) as usize;
        self.sets[c.index()][i / 64] >> (i % 64) & 1 == 1
    }

    fn flip(&mut self, c: Color, x: i32, y: i32) {
        let i = (y * self.size + x) as usize;
        self.sets[c.index()][i / 64] ^= 1 << (i % 64);
    }

    /// Puts a `c` stone at (x, y) on `grid` (or empties the point for `None`) and updates
    /// the points. Only points on the four lines through (x, y) within five steps can change:
    /// a five through a point spans five cells, so a stone further away is not in it, except
    /// that where only an exact five wins, a stone five steps away can turn a five into six
    /// (or back). A point q on line `dir` changes only by what happens on that line, the only
    /// one of its four lines that holds (x, y): it is a five point now when it makes five on
    /// `dir`, or when it was one before and still makes five on some line.
    ///
    /// Each line is read once into a strip: the cells within five steps, and beyond them the
    /// stones that continue a run (a run through a point five steps away can reach five
    /// further); the runs through each empty cell of the strip are counted on it.
    pub fn set(&mut self, grid: &mut Grid, x: i32, y: i32, c: Option<Color>) {
        let old = grid.get(x, y).flatten();
        grid.set(x, y, c);
        let i = (y * self.size + x) as usize;
        for color in [Color::Black, Color::White] {
            let bit = u64::from(c == Some(color)) << (i % 64);
            self.stones[color.index()][i / 64] =
                self.stones[color.index()][i / 64] & !(1 << (i % 64)) | bit;
        }
        let rule = grid.rule();
        for color in [Color::Black, Color::White] {
            let here = c.is_none() && grid.wins(x, y, color, None);
            if here != self.has(color, x, y) {
                self.flip(color, x, y);
            }
        }
        const CENTRE: usize = REACH + REACH + 1;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            // The strip: `None` off the board; and how many stones of each colour it holds.
            let mut strip = [None; SPAN];
            let mut count = [0usize; 2];
            // The cells are read by index between the steps where the line leaves the board,
            // and marked read, as `Grid::get` would, while the grid records its reads.
            let recording = grid.is_recording();
            let size = self.size;
            let steps = |p: i32, d: i32, s: i32| match d * s {
                1 => size - 1 - p,
                -1 => p,
                _ => i32::MAX,
            };
            let cells = grid.cells();
            let (step, centre) = (dy * size + dx, y * size + x);
            let mut read = |k: i32| {
                if recording {
                    grid.mark(x + k * dx, y + k * dy);
                }
                let v = cells[(centre + k * step) as usize];
                if let Some(stone) = v {
                    count[stone.index()] += 1;
                }
                v
            };
            strip[CENTRE] = Some(read(0));
            for s in [1, -1] {
                let room = steps(x, dx, s).min(steps(y, dy, s));
                for k in 1..=(REACH as i32).min(room) {
                    strip[(CENTRE as i32 + s * k) as usize] = Some(read(s * k));
                }
                // Past them, only the stones that continue a run.
                for k in REACH as i32 + 1..=(2 * REACH as i32 + 1).min(room) {
                    match read(s * k) {
                        Some(stone) => strip[(CENTRE as i32 + s * k) as usize] = Some(Some(stone)),
                        None => break,
                    }
                }
            }
            for color in [Color::Black, Color::White] {
                // A five through a point of the strip on this line, before or after, needs four
                // stones of the colour on the strip (the one taken counted): with fewer, no
                // point changes on this line, and none changes through another.
                let stones = count[color.index()] + usize::from(old == Some(color));
                if stones < 4 {
                    continue;
                }
                let exact = rule.exact_five(color);
                let mine = |i: usize| strip[i] == Some(Some(color));
                for k in (CENTRE - REACH..=CENTRE + REACH).filter(|&k| k != CENTRE) {
                    if strip[k] != Some(None) {
                        continue;
                    }
                    let mut run = 1;
                    let mut i = k;
                    while i > 0 && mine(i - 1) {
                        run += 1;
                        i -= 1;
                    }
                    let mut i = k;
                    while i + 1 < SPAN && mine(i + 1) {
                        run += 1;
                        i += 1;
                    }
                    let on_line = run == 5 || (run > 5 && !exact);
                    let off = k as i32 - CENTRE as i32;
                    let (a, b) = (x + off * dx, y + off * dy);
                    let was = self.has(color, a, b);
                    let now = on_line || (was && grid.wins(a, b, color, None));
                    if now != was {
                        self.flip(color, a, b);
                    }
                }
            }
        }
    }

    /// The reference judge's verdict on a black stone at empty (x, y) of `grid` (whose stones
    /// this set follows); with `record`, the cells it read are marked on the grid. The judge
    /// reads the grid only through [`Grid::get`], so its verdict is a function of the cells it
    /// read: a verdict given before, when those cells held what they hold now, is the verdict
    /// now, and is used again (with the same cells marked) instead of judging afresh. A
    /// replay after each of a defender node's replies judges the same black moves over and
    /// over, mostly with the reply outside what the judge reads.
    pub fn foul(&mut self, grid: &mut Grid, x: i32, y: i32, record: bool) -> Option<Foul> {
        let i = (y * self.size + x) as usize;
        let agrees = |j: &Judged| {
            (0..WORDS).all(|w| {
                let r = j.reads.words()[w];
                self.stones[0][w] & r == j.stones[0][w] && self.stones[1][w] & r == j.stones[1][w]
            })
        };
        if let Some(j) = self.judged[i].iter().find(|j| agrees(j)) {
            if record {
                grid.add_reads(&j.reads);
            }
            return j.foul;
        }
        // Judge afresh, with the cells it reads recorded on their own.
        let before = grid.reads();
        grid.clear_reads();
        grid.recording(true);
        let foul = grid.foul(x, y);
        grid.recording(false);
        let mut reads = grid.reads();
        reads.insert(self.size, x, y);
        grid.set_reads(&before);
        if record {
            grid.add_reads(&reads);
        }
        let stones =
            std::array::from_fn(|c| std::array::from_fn(|w| self.stones[c][w] & reads.words()[w]));
        if self.judged_in_all == JUDGED_IN_ALL {
            self.judged.iter_mut().for_each(Vec::clear);
            self.judged_in_all = 0;
        }
        let kept = &mut self.judged[i];
        if kept.len() == JUDGED {
            kept.remove(0);
        } else {
            self.judged_in_all += 1;
        }
        kept.push(Judged {
            reads,
            stones,
            foul,
        });
        foul
    }

    /// How many five points `c` has.
    pub fn count(&self, c: Color) -> u32 {
        self.sets[c.index()].iter().map(|w| w.count_ones()).sum()
    }

    /// Whether `p` is one of `c`'s five points.
    pub fn contains(&self, c: Color, p: Point) -> bool {
        self.has(c, p.x() as i32, p.y() as i32)
    }

    /// `c`'s five points, in row order.
    pub fn points(&self, c: Color) -> Vec<Point> {
        let mut out = Vec::new();
        for (k, &w) in self.sets[c.index()].iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let i = k as i32 * 64 + w.trailing_zeros() as i32;
                w &= w - 1;
                out.extend(Point::new((i % self.size) as u8, (i / self.size) as u8));
            }
        }
        out
    }
}

/// Checks that `line` (attacker first) is a forced VCF win for `attacker` on `board`.
pub fn vcf_line(board: &Board, attacker: Color, line: &[Point]) -> Result<(), VerifyError> {
    let mut grid = Grid::of(board);
    let mut fives = Fives::of(&grid);
    replay(&mut grid, &mut fives, board.rule(), attacker, line)
}

/// [`vcf_line`] on a grid and its five points as they stand, which are the same afterwards:
/// the moves played are taken back.
fn replay(
    grid: &mut Grid,
    fives: &mut Fives,
    rule: Rule,
    attacker: Color,
    line: &[Point],
) -> Result<(), VerifyError> {
    replay_taken_back(grid, fives, rule, attacker, line, false)
}

/// [`replay`], the moves taken back whatever the outcome; with `record`, the points the
/// replay depends on are marked on the grid (see [`vcf_line_reach`]).
fn replay_taken_back(
    grid: &mut Grid,
    fives: &mut Fives,
    rule: Rule,
    attacker: Color,
    line: &[Point],
    record: bool,
) -> Result<(), VerifyError> {
    let mut played = 0;
    let result = replay_from(grid, fives, rule, attacker, line, &mut played, record);
    for &p in line[..played].iter().rev() {
        fives.set(grid, p.x() as i32, p.y() as i32, None);
    }
    result
}

fn replay_from(
    grid: &mut Grid,
    fives: &mut Fives,
    rule: Rule,
    attacker: Color,
    line: &[Point],
    played: &mut usize,
    record: bool,
) -> Result<(), VerifyError> {
    let defender = attacker.opponent();
    // The foul judge's reads; the line's points and the attacker's five points by hand.
    let foul = |grid: &mut Grid, fives: &mut Fives, x: i32, y: i32| fives.foul(grid, x, y, record);
    let fail = |k: usize, p: Point, problem: &str| {
        Err(VerifyError {
            number: k + 1,
            point: p.to_string(),
            problem: problem.to_string(),
        })
    };
    for (k, &p) in line.iter().enumerate() {
        let (x, y) = (p.x() as i32, p.y() as i32);
        let side = if k % 2 == 0 { attacker } else { defender };
        if record {
            grid.mark(x, y);
        }
        if grid.get(x, y) != Some(None) {
            return fail(k, p, "the point is not empty");
        }
        // Recorded, a defender's block is not judged: were it forbidden, black could not
        // block and the attacker would make five at once, so the win holds either way.
        let judged = !(record && side == defender);
        if side == Color::Black
            && rule == Rule::Renju
            && judged
            && foul(grid, fives, x, y).is_some()
        {
            return fail(k, p, "black plays a forbidden point");
        }
        if side == defender {
            // The attacker's five points are as its last move (step k - 1) left them.
            if !fives.contains(attacker, p) {
                return fail(
                    k,
                    p,
                    "the defender's reply does not stop the attacker's five",
                );
            }
            fives.set(grid, x, y, Some(side));
            *played += 1;
            continue;
        }
        if grid.wins(x, y, attacker, None) {
            return if k + 1 == line.len() {
                if record {
                    mark_crowded(grid, defender, line);
                }
                Ok(())
            } else {
                fail(k, p, "the line goes on after a five")
            };
        }
        let against = fives.count(defender);
        if against > 0 && !(against == 1 && fives.contains(defender, p)) {
            return fail(
                k,
                p,
                "the defender has a five to make and this move does not stop it",
            );
        }
        fives.set(grid, x, y, Some(attacker));
        *played += 1;
        let threats = fives.count(attacker);
        if record {
            for t in fives.points(attacker) {
                grid.mark(t.x() as i32, t.y() as i32);
            }
        }
        if threats == 0 {
            return fail(k, p, "the attacker's move is not a four");
        }
        if k + 1 == line.len() {
            // Black cannot block when every five point is forbidden for it.
            let forced_foul = defender == Color::Black
                && rule == Rule::Renju
                && fives
                    .points(attacker)
                    .iter()
                    .all(|t| foul(grid, fives, t.x() as i32, t.y() as i32).is_some());
            return if forced_foul {
                if record {
                    mark_crowded(grid, defender, line);
                }
                Ok(())
            } else {
                fail(k, p, "the line ends before a five")
            };
        }
        if threats == 1 && fives.count(defender) > 0 {
            return fail(k, p, "the defender can make five instead of blocking");
        }
    }
    Err(VerifyError {
        number: line.len(),
        point: "-".into(),
        problem: "the line is empty".into(),
    })
}

/// [`vcf_line`], and the points through which a stone of the defender could change the
/// replay: a defender stone on any other empty point leaves `line` a forced win. Such a
/// stone cannot lengthen or shorten the attacker's runs (it is not the attacker's colour and
/// lands on an empty point), so it changes the replay only by landing on a point of the line
/// or on one of the attacker's five points along it, by changing what the foul judge reads
/// of black's moves when black attacks, or by giving the defender a five point, which needs
/// three more defender stones in a five-cell window free of attacker stones at some step (see
/// `mark_crowded`). Black's blocks when white attacks are not judged: a forbidden
/// block means black cannot block, and white makes five at once, so the line still wins
/// (it may then fail [`vcf_line`] with black's forbidden block). A property test checks the
/// claim stone by stone.
pub fn vcf_line_reach(
    board: &Board,
    attacker: Color,
    line: &[Point],
) -> Result<Reads, VerifyError> {
    let mut grid = Grid::of(board);
    let mut fives = Fives::of(&grid);
    replay_recorded(&mut grid, &mut fives, board.rule(), attacker, line)
}

fn replay_recorded(
    grid: &mut Grid,
    fives: &mut Fives,
    rule: Rule,
    attacker: Color,
    line: &[Point],
) -> Result<Reads, VerifyError> {
    grid.clear_reads();
    replay_taken_back(grid, fives, rule, attacker, line, true).map(|()| grid.reads())
}

/// Marks every empty point of a five-cell window that holds three or more `c` stones and
/// none of the other colour's stones that stood before the replay (its moves along `line`, the
/// attacker's, are left out): elsewhere a `c` stone cannot give `c` a five point at any step
/// of the replay. Such a five needs the stone, the five point and three more `c` stones in one
/// window free of the other colour at that step; the final position has every `c` stone any
/// step has, and every step has the other colour's stones from before the replay.
fn mark_crowded(grid: &Grid, c: Color, line: &[Point]) {
    const ROWS: usize = crate::board::MAX_SIZE as usize;
    let size = grid.size();
    let n = size as usize;
    // The other colour's stones placed by the replay: its moves, at even steps.
    let mut placed = [0u64; ROWS];
    for p in line.iter().step_by(2) {
        placed[p.y() as usize] |= 1 << p.x();
    }
    // Per row, a bit per column: `c` stones, walls (the other colour's stones from before the
    // replay) and empty points.
    let (mut own, mut wall, mut empty) = ([0u64; ROWS], [0u64; ROWS], [0u64; ROWS]);
    for y in 0..n {
        for x in 0..n {
            match grid.peek(x as i32, y as i32) {
                Some(None) => empty[y] |= 1 << x,
                Some(Some(s)) if s == c => own[y] |= 1 << x,
                Some(Some(_)) => wall[y] |= 1 << x & !placed[y],
                None => {}
            }
        }
    }
    // The windows a direction's five cells start at, bit x of row y: the five rows a window
    // spans and the shift of each (its cells are (x + k dx, y + k dy)). Three or more of five
    // bits, by carry-save adding: two full adders leave a sum bit and two carries of weight 2.
    let at_least_three = |b: [u64; 5]| {
        let (s1, c1) = (b[0] ^ b[1] ^ b[2], (b[0] & b[1]) | (b[2] & (b[0] ^ b[1])));
        let (s2, c2) = (b[3] ^ b[4] ^ s1, (b[3] & b[4]) | (s1 & (b[3] ^ b[4])));
        (c1 & c2) | ((c1 | c2) & s2)
    };
    let starts = (1u64 << (n - 4)) - 1;
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for y in 0..n as i32 {
            let last = y + 4 * dy;
            if !(0..size).contains(&last) {
                continue;
            }
            let row = |k: i32| (y + k * dy) as usize;
            let shifted = |v: &[u64; ROWS], k: i32| v[row(k)] >> (k * dx);
            let three = at_least_three(std::array::from_fn(|k| shifted(&own, k as i32)));
            let walled = (0..5).fold(0, |w, k| w | shifted(&wall, k));
            let mask = if dx == 0 { (1u64 << n) - 1 } else { starts };
            let m = three & !walled & mask;
            if m == 0 {
                continue;
            }
            for k in 0..5 {
                let mut cells = (m << (k * dx)) & empty[row(k)];
                while cells != 0 {
                    let x = cells.trailing_zeros() as i32;
                    cells &= cells - 1;
                    grid.mark(x, y + k * dy);
                }
            }
        }
    }
}

/// Why a proof tree is not a proof.
#[derive(Clone, Debug, thiserror::Error)]
#[error("after {}: {problem}", if path.is_empty() { "the start".to_string() } else { path.join(" ") })]
pub struct ProofError {
    /// The moves from the root to the problem.
    pub path: Vec<String>,
    /// What is wrong there.
    pub problem: String,
    /// The position where the problem is.
    pub position: Box<Board>,
}

/// Counts from a successful verification.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Defender replies in the tree.
    pub in_tree: usize,
    /// Other defender replies, each illegal or shown to lose: to the attacker's five, to a
    /// VCF replayed in full, or by a separate search.
    pub outside: usize,
}

/// The hasher of the positions shown won: their keys are Zobrist hashes, uniform already, so
/// a multiply and fold is enough (SipHash took 3% of a verification).
#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
}

struct Verifier<'a> {
    solver: &'a mut vct::VctSolver,
    grid: Grid,
    /// The five points of both colours on `grid`, kept with it.
    fives: Fives,
    board: Board,
    attacker: Color,
    bounds: Limits,
    /// The moves from the start to here, written out only in an error.
    path: Vec<Point>,
    checked: Checked,
    /// Positions (attacker to move) with the moves left, already shown won: a subtree shared by
    /// several move orders is checked once.
    won: HashSet<(u64, u32), BuildHasherDefault<FoldHasher>>,
    /// The last VCF found for a reply outside the tree: most replies there leave it intact, so
    /// it is replayed (and so checked in full) before any search.
    last_vcf: Vec<Point>,
    /// How many VCFs [`Verifier::loses`] has found by search (the last is `last_vcf`).
    vcfs_found: u64,
}

/// Most VCFs (with their reads) kept at one defender node to pass over replies.
const MAX_PASSED: usize = 8;

/// Checks that `tree` wins for `attacker` on `board` against every legal defence: each attacker
/// move is legal (no black foul under renju) and answers any five the defender threatens; each
/// ending holds on a plain grid (a five, two five points, or black's only block forbidden); at
/// each defender node every legal reply in the tree is followed, and every legal reply **not**
/// in the tree is shown to lose within the remaining bound by a fresh search whose result is
/// itself verified. The searches run on a solver of their own (16 MB); see [`proof_with`].
pub fn proof(
    board: &Board,
    attacker: Color,
    tree: &Attack,
    limits: Limits,
) -> Result<Checked, ProofError> {
    let mut solver = vct::VctSolver::new(16 << 20).map_err(|e| ProofError {
        path: Vec::new(),
        problem: e.to_string(),
        position: Box::new(board.clone()),
    })?;
    proof_with(&mut solver, board, attacker, tree, limits)
}

/// [`proof`], with the searches for replies outside the tree run on `solver` (whose tables are
/// then forgotten): verification takes no memory beyond the solver's.
pub fn proof_with(
    solver: &mut vct::VctSolver,
    board: &Board,
    attacker: Color,
    tree: &Attack,
    bounds: Limits,
) -> Result<Checked, ProofError> {
    let mut b = board.clone();
    b.set_to_move(attacker);
    let grid = Grid::of(board);
    let mut v = Verifier {
        solver,
        fives: Fives::of(&grid),
        grid,
        board: b,
        attacker,
        bounds,
        path: Vec::new(),
        checked: Checked::default(),
        won: HashSet::default(),
        last_vcf: Vec::new(),
        vcfs_found: 0,
    };
    v.attack(tree, bounds.depth)?;
    Ok(v.checked)
}

impl Verifier<'_> {
    fn path_words(&self) -> Vec<String> {
        self.path.iter().map(Point::to_string).collect()
    }

    fn fail<T>(&self, problem: impl Into<String>) -> Result<T, ProofError> {
        Err(self.error(problem))
    }

    fn error(&self, problem: impl Into<String>) -> ProofError {
        ProofError {
            path: self.path_words(),
            problem: problem.into(),
            position: Box::new(self.board.clone()),
        }
    }

    fn wins(&self, c: Color) -> Vec<Point> {
        self.fives.points(c)
    }

    fn legal(&mut self, p: Point, c: Color) -> bool {
        let (x, y) = (p.x() as i32, p.y() as i32);
        self.grid.get(x, y) == Some(None)
            && !(c == Color::Black
                && self.board.rule() == Rule::Renju
                && self.fives.foul(&mut self.grid, x, y, false).is_some())
    }

    fn put(&mut self, p: Point, c: Color) {
        self.fives
            .set(&mut self.grid, p.x() as i32, p.y() as i32, Some(c));
        self.board.play(p);
        self.path.push(p);
    }

    fn take(&mut self, p: Point) {
        self.fives
            .set(&mut self.grid, p.x() as i32, p.y() as i32, None);
        self.board.undo();
        self.path.pop();
    }

    fn attack(&mut self, node: &Attack, depth: u32) -> Result<(), ProofError> {
        let key = (self.board.hash(), depth);
        if self.won.contains(&key) {
            return Ok(());
        }
        self.attack_once(node, depth)?;
        self.won.insert(key);
        Ok(())
    }

    fn attack_once(&mut self, node: &Attack, depth: u32) -> Result<(), ProofError> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if depth == 0 {
            return self.fail("the attacker has no moves left within the bound");
        }
        if !self.legal(node.mv, a) {
            return self.fail(format!("{} is not a legal move for {a}", node.mv));
        }
        let makes_five = self
            .grid
            .wins(node.mv.x() as i32, node.mv.y() as i32, a, None);
        let against = self.wins(d);
        if !makes_five && !against.is_empty() && against != [node.mv] {
            return self.fail(format!(
                "{d} can make five and {} does not stop it",
                node.mv
            ));
        }
        self.put(node.mv, a);
        let result = self.after_attack(node, depth, makes_five);
        self.take(node.mv);
        result
    }

    fn after_attack(
        &mut self,
        node: &Attack,
        depth: u32,
        makes_five: bool,
    ) -> Result<(), ProofError> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if makes_five {
            return Ok(());
        }
        let threats = self.wins(a);
        let black_fouls = d == Color::Black && self.board.rule() == Rule::Renju;
        match node.ending {
            Some(Ending::Five) => return self.fail("the move does not make five"),
            Some(Ending::DoubleThreat) if threats.len() < 2 => {
                return self.fail("the move does not open two fives");
            }
            Some(Ending::DoubleThreat) if self.bounds.count_five && depth < 2 => {
                return self.fail("the five would come after the bound");
            }
            Some(Ending::ForcedFoul) => {
                // Every five point is forbidden for black: it cannot block.
                let all_fouls = |v: &mut Self| {
                    threats.iter().all(|t| {
                        v.fives
                            .foul(&mut v.grid, t.x() as i32, t.y() as i32, false)
                            .is_some()
                    })
                };
                return if black_fouls && !threats.is_empty() && all_fouls(self) {
                    Ok(())
                } else {
                    self.fail("black is not forced onto a forbidden point")
                };
            }
            _ => {}
        }
        // Every legal reply: in the tree, or shown to lose.
        let left = self.left_after(node, depth);
        // VCFs that win here were the defender to pass, each with the points where a defender
        // stone could change its replay: a reply outside any one of them loses to that VCF.
        // First the solver's own; then each VCF that beat a reply outside the tree, when it
        // also replays here (see `loses`).
        let mut passed: Vec<Reads> = Vec::new();
        if threats.is_empty() {
            passed.extend(self.pass_vcf(left));
        }
        // The VCF last tried here (by its number, see `vcfs_found`).
        let mut tried = None;
        let replies: Vec<Point> = self.board.empty_points().collect();
        for m in replies {
            if self.bounds.expired() {
                return self.fail("out of time");
            }
            // Legality is asked only where the answer matters: a reply that loses whatever it
            // is needs no foul judge.
            // A position already shown won, by the tree or after another reply that
            // transposes, needs no stone put.
            let known = |v: &Self| v.won.contains(&(v.board.hash_after(m.index()), left));
            match node.defences.iter().find(|x| x.mv == m) {
                Some(_) if known(self) => self.checked.in_tree += 1,
                Some(_) if !self.legal(m, d) => {}
                Some(def) => {
                    self.checked.in_tree += 1;
                    self.put(m, d);
                    let r = self.attack(&def.then, left);
                    self.take(m);
                    r?;
                }
                // After a four, a reply that leaves one of its five points empty loses to that
                // five: the defender had no five of its own (checked before the attack), and a
                // stone elsewhere neither breaks the attacker's run nor lengthens it.
                None if threats.iter().any(|&t| t != m) && left > 0 => {
                    self.checked.outside += 1;
                }
                None => {
                    self.checked.outside += 1;
                    let size = self.grid.size();
                    let (x, y) = (m.x() as i32, m.y() as i32);
                    if passed.iter().any(|reads| !reads.contains(size, x, y))
                        || known(self)
                        || !self.legal(m, d)
                    {
                        continue;
                    }
                    self.put(m, d);
                    let r = self.loses(left);
                    self.take(m);
                    r?;
                    // The VCF that beat this reply (found now or before): where it also wins
                    // without the reply (within the moves left), the replies outside its reads
                    // lose to it as well.
                    if threats.is_empty()
                        && tried != Some(self.vcfs_found)
                        && !self.last_vcf.is_empty()
                        && passed.len() < MAX_PASSED
                    {
                        tried = Some(self.vcfs_found);
                        let line = std::mem::take(&mut self.last_vcf);
                        passed.extend(self.pass_reads(&line, left));
                        self.last_vcf = line;
                    }
                }
            }
        }
        Ok(())
    }

    /// After a quiet attacker move: the attacker's VCF within `left` moves were the defender
    /// to pass, replayed here (and so checked in full), with the points through which a
    /// defender stone could change that replay (see [`vcf_line_reach`]): a reply elsewhere
    /// leaves the VCF winning.
    fn pass_vcf(&mut self, left: u32) -> Option<Reads> {
        let a = self.attacker;
        let limits = Limits {
            depth: left,
            ..self.bounds
        };
        let found = self
            .solver
            .vcf_solver()
            .solve_on(&mut self.board, a, limits, true);
        if found.outcome != Outcome::Win {
            return None;
        }
        self.pass_reads(&found.line, left)
    }

    /// The points `line`, an attacker VCF, reads when replayed here as if the defender passed,
    /// when it wins that way within `left` moves (see [`vcf_line_reach`]).
    fn pass_reads(&mut self, line: &[Point], left: u32) -> Option<Reads> {
        if line.len().div_ceil(2) > left as usize {
            return None;
        }
        let rule = self.board.rule();
        replay_recorded(&mut self.grid, &mut self.fives, rule, self.attacker, line).ok()
    }

    /// Attacker moves left after `node`'s move and a reply. The five after a double threat is
    /// not counted unless `count_five`.
    fn left_after(&self, node: &Attack, depth: u32) -> u32 {
        match node.ending {
            Some(Ending::DoubleThreat) if !self.bounds.count_five => depth.max(1),
            _ => depth - 1,
        }
    }

    /// The defender has just replied outside the tree: the attacker must still win within
    /// `depth` moves. A five to make, a VCF, or a VCT found by a fresh search, verified in turn.
    fn loses(&mut self, depth: u32) -> Result<(), ProofError> {
        let key = (self.board.hash(), depth);
        if self.won.contains(&key) {
            return Ok(());
        }
        self.loses_once(depth)?;
        self.won.insert(key);
        Ok(())
    }

    fn loses_once(&mut self, depth: u32) -> Result<(), ProofError> {
        let a = self.attacker;
        if depth > 0 && !self.wins(a).is_empty() {
            // The attacker makes five now (the defender had none to make).
            return Ok(());
        }
        // The VCF that beat the last such reply, if it replays here as a forced win within the
        // bound (counting every attacker move of the line, the five included, which never
        // undercounts).
        let rule = self.board.rule();
        if !self.last_vcf.is_empty()
            && self.last_vcf.len().div_ceil(2) <= depth as usize
            && replay(&mut self.grid, &mut self.fives, rule, a, &self.last_vcf).is_ok()
        {
            return Ok(());
        }
        let limits = Limits {
            depth,
            ..self.bounds
        };
        // Shortest first: the win the search relied on is usually a short VCF.
        let found = self
            .solver
            .vcf_solver()
            .solve_on(&mut self.board, a, limits, true);
        if found.outcome == Outcome::Win {
            replay(&mut self.grid, &mut self.fives, rule, a, &found.line).map_err(|e| {
                self.error(format!(
                    "a VCF found for a reply outside the tree fails: {e}"
                ))
            })?;
            self.last_vcf = found.line;
            self.vcfs_found += 1;
            return Ok(());
        }
        let found = self.solver.solve(&self.board, a, limits);
        match (found.outcome, found.proof) {
            (Outcome::Win, Some(tree)) => {
                let sub = proof_with(&mut *self.solver, &self.board, a, &tree, limits)
                    .map_err(|mut e| {
                        let mut path = self.path_words();
                        path.append(&mut e.path);
                        ProofError { path, ..e }
                    })?;
                self.checked.in_tree += sub.in_tree;
                self.checked.outside += sub.outside;
                Ok(())
            }
            (Outcome::Unknown, _) => self.fail("a reply outside the tree could not be refuted within the search budget"),
            _ => self.fail("counter-example: this defence is not in the tree and the attacker has no win after it"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The five points kept move by move equal those found afresh, on boards of several
    /// sizes under every rule, as stones come and go anywhere (the edges included).
    #[test]
    fn fives_kept_move_by_move_equal_fives_found_afresh() {
        for rule in Rule::ALL {
            for size in [5u8, 9, 15, 22] {
                let board = Board::new(size, rule).unwrap();
                let mut grid = Grid::of(&board);
                let mut fives = Fives::of(&grid);
                let mut rng = crate::rng::Rng::new((size as u64) << 8 ^ rule as u64);
                let mut changed = 0;
                for step in 0..3000 {
                    let r = rng.next_u64();
                    let n = size as u64;
                    let (x, y) = ((r % n) as i32, (r / n % n) as i32);
                    // Mostly stones, a third of them taken off again, so lines fill up.
                    let c = match r / (n * n) % 6 {
                        0 | 1 => None,
                        2 | 3 => Some(Color::Black),
                        _ => Some(Color::White),
                    };
                    let before = fives.sets;
                    fives.set(&mut grid, x, y, c);
                    changed += usize::from(fives.sets != before);
                    let fresh = Fives::of(&grid);
                    assert_eq!(fives.sets, fresh.sets, "{rule} size {size} step {step}");
                    assert_eq!(fives.stones, fresh.stones, "{rule} size {size} step {step}");
                }
                // The sequences do make and unmake fives.
                assert!(changed > 100, "{rule} size {size}: {changed}");
            }
        }
    }
}
