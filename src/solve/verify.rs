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

use std::collections::{BTreeSet, HashSet};

use super::proof::Attack;
use super::{Ending, Limits, Outcome, vct};
use crate::board::{Board, Color, Point, Rule};
use crate::pattern::reference::Grid;

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
/// and taken.
pub struct Fives {
    /// Per colour (black, white): the points, in row order.
    sets: [BTreeSet<(i32, i32)>; 2],
}

impl Fives {
    /// The five points of both colours on `grid`.
    pub fn of(grid: &Grid) -> Fives {
        let set = |c: Color| {
            grid.win_points(c)
                .into_iter()
                .map(|(x, y)| (y, x))
                .collect()
        };
        Fives {
            sets: [set(Color::Black), set(Color::White)],
        }
    }

    /// Puts a `c` stone at (x, y) on `grid` (or empties the point for `None`) and updates
    /// the points. Only points on the four lines through (x, y) within five steps can change:
    /// a five through a point spans five cells, so a stone further away is not in it, except
    /// that where only an exact five wins, a stone five steps away can turn a five into six
    /// (or back). A point q on line `dir` changes only by what happens on that line, the only
    /// one of its four lines that holds (x, y): it is a five point now when it makes five on
    /// `dir`, or when it was one before and still makes five on some line.
    pub fn set(&mut self, grid: &mut Grid, x: i32, y: i32, c: Option<Color>) {
        grid.set(x, y, c);
        for color in [Color::Black, Color::White] {
            let set = &mut self.sets[color.index()];
            let here = c.is_none() && grid.wins(x, y, color, None);
            if here {
                set.insert((y, x));
            } else {
                set.remove(&(y, x));
            }
            for (dir, (dx, dy)) in [(1, 0), (0, 1), (1, 1), (1, -1)].into_iter().enumerate() {
                for k in (-5..=5).filter(|&k| k != 0) {
                    let (a, b) = (x + k * dx, y + k * dy);
                    if grid.get(a, b) != Some(None) {
                        continue;
                    }
                    let was = set.contains(&(b, a));
                    let now =
                        grid.wins(a, b, color, Some(dir)) || (was && grid.wins(a, b, color, None));
                    if now && !was {
                        set.insert((b, a));
                    } else if was && !now {
                        set.remove(&(b, a));
                    }
                }
            }
        }
    }

    /// `c`'s five points, in row order.
    pub fn points(&self, c: Color) -> Vec<Point> {
        self.sets[c.index()]
            .iter()
            .filter_map(|&(y, x)| Point::new(x as u8, y as u8))
            .collect()
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
    let mut played = 0;
    let result = replay_from(grid, fives, rule, attacker, line, &mut played);
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
) -> Result<(), VerifyError> {
    let defender = attacker.opponent();
    let fail = |k: usize, p: Point, problem: &str| {
        Err(VerifyError {
            number: k + 1,
            point: p.to_string(),
            problem: problem.to_string(),
        })
    };
    let mut threats: Vec<Point> = Vec::new();
    for (k, &p) in line.iter().enumerate() {
        let (x, y) = (p.x() as i32, p.y() as i32);
        let side = if k % 2 == 0 { attacker } else { defender };
        if grid.get(x, y) != Some(None) {
            return fail(k, p, "the point is not empty");
        }
        if side == Color::Black && rule == Rule::Renju && grid.foul(x, y).is_some() {
            return fail(k, p, "black plays a forbidden point");
        }
        if side == defender {
            if !threats.contains(&p) {
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
                Ok(())
            } else {
                fail(k, p, "the line goes on after a five")
            };
        }
        let against = fives.points(defender);
        if !against.is_empty() && against != [p] {
            return fail(
                k,
                p,
                "the defender has a five to make and this move does not stop it",
            );
        }
        fives.set(grid, x, y, Some(attacker));
        *played += 1;
        threats = fives.points(attacker);
        if threats.is_empty() {
            return fail(k, p, "the attacker's move is not a four");
        }
        if k + 1 == line.len() {
            // Black cannot block when every five point is forbidden for it.
            let forced_foul = defender == Color::Black
                && rule == Rule::Renju
                && threats
                    .iter()
                    .all(|t| grid.foul(t.x() as i32, t.y() as i32).is_some());
            return if forced_foul {
                Ok(())
            } else {
                fail(k, p, "the line ends before a five")
            };
        }
        if threats.len() == 1 && !fives.points(defender).is_empty() {
            return fail(k, p, "the defender can make five instead of blocking");
        }
    }
    Err(VerifyError {
        number: line.len(),
        point: "-".into(),
        problem: "the line is empty".into(),
    })
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
    /// Other legal defender replies, each shown to lose by a separate search.
    pub outside: usize,
}

struct Verifier<'a> {
    solver: &'a mut vct::Solver,
    grid: Grid,
    /// The five points of both colours on `grid`, kept with it.
    fives: Fives,
    board: Board,
    attacker: Color,
    bounds: Limits,
    path: Vec<String>,
    checked: Checked,
    /// Positions (attacker to move) with the moves left, already shown won: a subtree shared by
    /// several move orders is checked once.
    won: HashSet<(u64, u32)>,
    /// The last VCF found for a reply outside the tree: most replies there leave it intact, so
    /// it is replayed (and so checked in full) before any search.
    last_vcf: Vec<Point>,
}

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
    let mut solver = vct::Solver::new(16 << 20).map_err(|e| ProofError {
        path: Vec::new(),
        problem: e.to_string(),
        position: Box::new(board.clone()),
    })?;
    proof_with(&mut solver, board, attacker, tree, limits)
}

/// [`proof`], with the searches for replies outside the tree run on `solver` (whose tables are
/// then forgotten): verification takes no memory beyond the solver's.
pub fn proof_with(
    solver: &mut vct::Solver,
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
        won: HashSet::new(),
        last_vcf: Vec::new(),
    };
    v.attack(tree, bounds.depth)?;
    Ok(v.checked)
}

impl Verifier<'_> {
    fn fail<T>(&self, problem: impl Into<String>) -> Result<T, ProofError> {
        Err(self.error(problem))
    }

    fn error(&self, problem: impl Into<String>) -> ProofError {
        ProofError {
            path: self.path.clone(),
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
                && self.grid.foul(x, y).is_some())
    }

    fn put(&mut self, p: Point, c: Color) {
        self.fives
            .set(&mut self.grid, p.x() as i32, p.y() as i32, Some(c));
        self.board.play(p);
        self.path.push(p.to_string());
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
                    threats
                        .iter()
                        .all(|t| v.grid.foul(t.x() as i32, t.y() as i32).is_some())
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
        let replies: Vec<Point> = self.board.empty_points().collect();
        for m in replies {
            if !self.legal(m, d) {
                continue;
            }
            match node.defences.iter().find(|x| x.mv == m) {
                Some(def) => {
                    self.checked.in_tree += 1;
                    self.put(m, d);
                    let r = self.attack(&def.then, self.left_after(node, depth));
                    self.take(m);
                    r?;
                }
                // After a four, a reply that leaves one of its five points empty loses to that
                // five: the defender had no five of its own (checked before the attack), and a
                // stone elsewhere neither breaks the attacker's run nor lengthens it.
                None if threats.iter().any(|&t| t != m) && self.left_after(node, depth) > 0 => {
                    self.checked.outside += 1;
                }
                None => {
                    self.checked.outside += 1;
                    self.put(m, d);
                    let r = self.loses(self.left_after(node, depth));
                    self.take(m);
                    r?;
                }
            }
        }
        Ok(())
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
        let found = self.solver.vcf_solver().solve(&self.board, a, limits, true);
        if found.outcome == Outcome::Win {
            replay(&mut self.grid, &mut self.fives, rule, a, &found.line).map_err(|e| {
                self.error(format!(
                    "a VCF found for a reply outside the tree fails: {e}"
                ))
            })?;
            self.last_vcf = found.line;
            return Ok(());
        }
        let found = self.solver.solve(&self.board, a, limits);
        match (found.outcome, found.proof) {
            (Outcome::Win, Some(tree)) => {
                let sub = proof_with(&mut *self.solver, &self.board, a, &tree, limits)
                    .map_err(|mut e| {
                        let mut path = self.path.clone();
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
