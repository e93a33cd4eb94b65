//! Proof trees of forced wins: at each attacker move, every defender reply the search
//! considered and the attacker's answer to each. Printed as an indented text tree or nested
//! JSON, and checked by [`verify`] against **every** legal defence.

use serde::{Deserialize, Serialize};

use super::{Ending, Outcome, vcf, vct};
use crate::board::{Board, Color, Point, Rule};
use crate::pattern::reference::Grid;

/// An attacker move and what follows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    #[serde(rename = "move")]
    pub mv: Point,
    /// Set when this move ends the fight: it makes five, opens two fives, or leaves black only
    /// a forbidden block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// The defender's replies and the attacker's answer to each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defences: Vec<Defence>,
}

/// A defender reply and the attacker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defence {
    #[serde(rename = "move")]
    pub mv: Point,
    pub then: Attack,
}

impl Attack {
    /// Attacker moves on the longest branch, counted as [`super::Solution::attacker_moves`].
    pub fn attacker_moves(&self) -> usize {
        match self.ending {
            Some(Ending::DoubleThreat) | Some(Ending::Five) | Some(Ending::ForcedFoul) => 1,
            None => {
                1 + self
                    .defences
                    .iter()
                    .map(|d| d.then.attacker_moves())
                    .max()
                    .unwrap_or(0)
            }
        }
    }

    /// Attacker and defender nodes in the tree.
    pub fn size(&self) -> usize {
        1 + self
            .defences
            .iter()
            .map(|d| 1 + d.then.size())
            .sum::<usize>()
    }

    /// The main line: at each defender node the most stubborn reply (the longest branch), on
    /// to the five (after a double threat, one block and the five).
    pub fn main_line(&self) -> Vec<Point> {
        let mut line = vec![self.mv];
        let longest = self
            .defences
            .iter()
            .max_by_key(|d| (d.then.attacker_moves(), d.then.size()));
        if let Some(d) = longest {
            line.push(d.mv);
            line.extend(d.then.main_line());
        }
        line
    }

    /// The tree as indented text: attacker moves numbered, defender replies beneath.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_text(&mut out, 0, 1);
        out
    }

    fn write_text(&self, out: &mut String, indent: usize, number: usize) {
        let ending = match self.ending {
            Some(Ending::Five) => "  (five)",
            Some(Ending::DoubleThreat) => "  (two fives)",
            Some(Ending::ForcedFoul) => "  (black's only block is forbidden)",
            None => "",
        };
        out.push_str(&format!(
            "{}{number}. {}{ending}\n",
            "  ".repeat(indent),
            self.mv
        ));
        for d in &self.defences {
            out.push_str(&format!("{}{}\n", "  ".repeat(indent + 1), d.mv));
            d.then.write_text(out, indent + 2, number + 1);
        }
    }
}

/// Why a proof tree is not a proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("after {}: {problem}\nthe position there:\n{position}", if path.is_empty() { "the start".to_string() } else { path.join(" ") })]
pub struct ProofError {
    /// The moves from the root to the problem.
    pub path: Vec<String>,
    pub problem: String,
    /// The position where the problem is, as a diagram.
    pub position: String,
}

/// What [`verify`] checks against.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Most attacker moves.
    pub depth: u32,
    pub count_five: bool,
    pub threat_limit: u32,
    /// Search budget for each defence that is not in the tree.
    pub nodes: u64,
}

/// Counts from a successful verification.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Defender replies in the tree.
    pub in_tree: usize,
    /// Other legal defender replies, each shown to lose by a separate search.
    pub outside: usize,
}

struct Verifier {
    grid: Grid,
    board: Board,
    attacker: Color,
    bounds: Bounds,
    path: Vec<String>,
    checked: Checked,
}

/// Checks that `tree` wins for `attacker` on `board` against every legal defence: each attacker
/// move is legal (no black foul under renju) and answers any five the defender threatens; each
/// ending holds on a plain grid (a five, two five points, or black's only block forbidden); at
/// each defender node every legal reply in the tree is followed, and every legal reply **not**
/// in the tree is shown to lose within the remaining bound by a fresh search whose result is
/// itself verified.
pub fn verify(
    board: &Board,
    attacker: Color,
    tree: &Attack,
    bounds: Bounds,
) -> Result<Checked, ProofError> {
    let mut b = board.clone();
    b.set_to_move(attacker);
    let mut v = Verifier {
        grid: Grid::of(board),
        board: b,
        attacker,
        bounds,
        path: Vec::new(),
        checked: Checked::default(),
    };
    v.attack(tree, bounds.depth)?;
    Ok(v.checked)
}

impl Verifier {
    fn fail<T>(&self, problem: impl Into<String>) -> Result<T, ProofError> {
        Err(self.error(problem))
    }

    fn error(&self, problem: impl Into<String>) -> ProofError {
        ProofError {
            path: self.path.clone(),
            problem: problem.into(),
            position: crate::notation::diagram::write(&self.board),
        }
    }

    fn wins(&self, c: Color) -> Vec<Point> {
        self.grid
            .win_points(c)
            .into_iter()
            .filter_map(|(x, y)| Point::new(x as u8, y as u8))
            .collect()
    }

    fn legal(&mut self, p: Point, c: Color) -> bool {
        let (x, y) = (p.x() as i32, p.y() as i32);
        self.grid.get(x, y) == Some(None)
            && !(c == Color::Black
                && self.board.rule() == Rule::Renju
                && self.grid.foul(x, y).is_some())
    }

    fn put(&mut self, p: Point, c: Color) {
        self.grid.set(p.x() as i32, p.y() as i32, Some(c));
        self.board.play(p);
        self.path.push(p.to_string());
    }

    fn take(&mut self, p: Point) {
        self.grid.set(p.x() as i32, p.y() as i32, None);
        self.board.undo();
        self.path.pop();
    }

    fn attack(&mut self, node: &Attack, depth: u32) -> Result<(), ProofError> {
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
        let a = self.attacker;
        if depth > 0 && !self.wins(a).is_empty() {
            // The attacker makes five now (the defender had none to make).
            return Ok(());
        }
        let limits = super::Limits {
            depth,
            count_five: self.bounds.count_five,
            nodes: self.bounds.nodes,
        };
        // Shortest first: the win the search relied on is usually a short VCF.
        let found = vcf::solve(&self.board, a, limits, true);
        if found.outcome == Outcome::Win {
            return super::verify::vcf_line(&self.board, a, &found.line).map_err(|e| {
                self.error(format!(
                    "a VCF found for a reply outside the tree fails: {e}"
                ))
            });
        }
        let options = vct::Options {
            limits,
            threat_limit: self.bounds.threat_limit,
            hash_mb: 16,
        };
        let found = vct::solve(&self.board, a, options);
        match (found.outcome, found.proof) {
            (Outcome::Win, Some(tree)) => {
                let sub = verify(&self.board, a, &tree, Bounds { depth, ..self.bounds })
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
