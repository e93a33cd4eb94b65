//! Proof trees of forced wins: at each attacker move, every defender reply the search
//! considered and the attacker's answer to each. Printed as an indented text tree or nested
//! JSON, and checked by [`verify`] against **every** legal defence. A position that several
//! move orders reach has one shared subtree, written once and referred back to, and verified
//! once: a proof written out as a plain tree can be a hundred times larger (a 14-move VCT of
//! 50,000 shared nodes was 57 million as a tree).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Ending, Outcome, vcf, vct};
use crate::board::{Board, Color, Point, Rule};
use crate::pattern::reference::Grid;

/// An attacker move and what follows it.
///
/// A proof is a tree in form but a DAG in memory: a position reached by several move orders has
/// one subtree, shared by every [`Defence`] that leads to it. Counting, printing and verifying
/// visit each shared subtree once; JSON and text write it in full at its first occurrence and
/// refer back to it afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    pub mv: Point,
    /// Set when this move ends the fight: it makes five, opens two fives, or leaves black only
    /// a forbidden block.
    pub ending: Option<Ending>,
    /// The defender's replies and the attacker's answer to each.
    pub defences: Vec<Defence>,
}

/// A defender reply and the attacker's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    pub mv: Point,
    pub then: Rc<Attack>,
}

/// Identity of a node in the DAG.
fn id(node: &Attack) -> *const Attack {
    node as *const Attack
}

impl Attack {
    /// Attacker moves on the longest branch, counted as [`super::Solution::attacker_moves`].
    pub fn attacker_moves(&self) -> usize {
        self.moves_memo(&mut HashMap::new())
    }

    fn moves_memo(&self, memo: &mut HashMap<*const Attack, usize>) -> usize {
        if let Some(&n) = memo.get(&id(self)) {
            return n;
        }
        let n = match self.ending {
            Some(_) => 1,
            None => {
                1 + self
                    .defences
                    .iter()
                    .map(|d| d.then.moves_memo(memo))
                    .max()
                    .unwrap_or(0)
            }
        };
        memo.insert(id(self), n);
        n
    }

    /// Nodes in the proof: distinct attacker nodes and the defender replies below them.
    pub fn size(&self) -> usize {
        let mut seen = HashSet::new();
        let mut stack = vec![self];
        let mut n = 0;
        while let Some(node) = stack.pop() {
            if !seen.insert(id(node)) {
                continue;
            }
            n += 1 + node.defences.len();
            stack.extend(node.defences.iter().map(|d| &*d.then));
        }
        n
    }

    /// Nodes the proof would have written out as a tree (saturating).
    fn tree_size(&self, memo: &mut HashMap<*const Attack, u64>) -> u64 {
        if let Some(&n) = memo.get(&id(self)) {
            return n;
        }
        let n = self.defences.iter().fold(1u64, |acc, d| {
            acc.saturating_add(1).saturating_add(d.then.tree_size(memo))
        });
        memo.insert(id(self), n);
        n
    }

    /// The main line: at each defender node the most stubborn reply (the longest branch, then
    /// the bushiest), on to the five (after a double threat, one block and the five).
    pub fn main_line(&self) -> Vec<Point> {
        let (mut moves, mut sizes) = (HashMap::new(), HashMap::new());
        let mut line = Vec::new();
        let mut node = self;
        loop {
            line.push(node.mv);
            let longest = node
                .defences
                .iter()
                .max_by_key(|d| (d.then.moves_memo(&mut moves), d.then.tree_size(&mut sizes)));
            let Some(d) = longest else { break };
            line.push(d.mv);
            node = &d.then;
        }
        line
    }

    /// Subtrees reached by more than one reply, which the writers label and refer back to.
    fn shared(&self) -> HashSet<*const Attack> {
        let mut seen = HashSet::new();
        let mut shared = HashSet::new();
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            for d in &node.defences {
                if seen.insert(id(&d.then)) {
                    stack.push(&d.then);
                } else {
                    shared.insert(id(&d.then));
                }
            }
        }
        shared
    }

    /// The tree as indented text: attacker moves numbered, defender replies beneath. A subtree
    /// reached again by another order of moves is written once, labelled `[#k]`, and referred
    /// to afterwards.
    pub fn to_text(&self) -> String {
        let mut w = Writer {
            shared: self.shared(),
            labels: HashMap::new(),
        };
        let mut out = String::new();
        w.text(self, &mut out, 0, 1);
        out
    }

    fn to_wire(&self) -> WireAttack {
        let mut w = Writer {
            shared: self.shared(),
            labels: HashMap::new(),
        };
        w.wire(self)
    }

    fn from_wire(wire: WireAttack) -> Result<Attack, String> {
        let mut labels = HashMap::new();
        match Attack::resolve(wire, &mut labels)? {
            Node::Full(a) => Ok(a),
            Node::Shared(a) => Ok((*a).clone()),
        }
    }

    fn resolve(wire: WireAttack, labels: &mut HashMap<usize, Rc<Attack>>) -> Result<Node, String> {
        if let Some(k) = wire.same_as {
            return labels
                .get(&k)
                .cloned()
                .map(Node::Shared)
                .ok_or_else(|| format!("`same_as: {k}` before the node labelled {k}"));
        }
        let mv = wire.mv.ok_or("a proof node without a move")?;
        let mut defences = Vec::new();
        for d in wire.defences {
            let then = match Attack::resolve(d.then, labels)? {
                Node::Full(a) => Rc::new(a),
                Node::Shared(a) => a,
            };
            defences.push(Defence { mv: d.mv, then });
        }
        let node = Attack {
            mv,
            ending: wire.ending,
            defences,
        };
        match wire.id {
            Some(k) => {
                let rc = Rc::new(node);
                labels.insert(k, rc.clone());
                Ok(Node::Shared(rc))
            }
            None => Ok(Node::Full(node)),
        }
    }
}

enum Node {
    Full(Attack),
    Shared(Rc<Attack>),
}

/// Labels for shared subtrees while writing, in order of first appearance.
struct Writer {
    shared: HashSet<*const Attack>,
    labels: HashMap<*const Attack, usize>,
}

impl Writer {
    /// The label of a shared node: `(k, true)` when it was written already.
    fn label(&mut self, node: &Attack) -> Option<(usize, bool)> {
        if !self.shared.contains(&id(node)) {
            return None;
        }
        let next = self.labels.len() + 1;
        match self.labels.get(&id(node)) {
            Some(&k) => Some((k, true)),
            None => {
                self.labels.insert(id(node), next);
                Some((next, false))
            }
        }
    }

    fn text(&mut self, node: &Attack, out: &mut String, indent: usize, number: usize) {
        let ending = match node.ending {
            Some(Ending::Five) => "  (five)",
            Some(Ending::DoubleThreat) => "  (two fives)",
            Some(Ending::ForcedFoul) => "  (black's only block is forbidden)",
            None => "",
        };
        let pad = "  ".repeat(indent);
        match self.label(node) {
            Some((k, true)) => {
                out.push_str(&format!(
                    "{pad}{number}. {}  (as at [#{k}] above)\n",
                    node.mv
                ));
                return;
            }
            Some((k, false)) => {
                out.push_str(&format!("{pad}{number}. {}{ending}  [#{k}]\n", node.mv));
            }
            None => out.push_str(&format!("{pad}{number}. {}{ending}\n", node.mv)),
        }
        for d in &node.defences {
            out.push_str(&format!("{pad}  {}\n", d.mv));
            self.text(&d.then, out, indent + 2, number + 1);
        }
    }

    fn wire(&mut self, node: &Attack) -> WireAttack {
        match self.label(node) {
            Some((k, true)) => WireAttack {
                same_as: Some(k),
                ..WireAttack::default()
            },
            label => WireAttack {
                mv: Some(node.mv),
                ending: node.ending,
                defences: node
                    .defences
                    .iter()
                    .map(|d| WireDefence {
                        mv: d.mv,
                        then: self.wire(&d.then),
                    })
                    .collect(),
                id: label.map(|(k, _)| k),
                same_as: None,
            },
        }
    }
}

/// The JSON form of a proof node: nested objects; a subtree reached again is written once with
/// an `id` and afterwards as `{"same_as": id}`.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireAttack {
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    mv: Option<Point>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ending: Option<Ending>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    defences: Vec<WireDefence>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    same_as: Option<usize>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireDefence {
    #[serde(rename = "move")]
    mv: Point,
    then: WireAttack,
}

impl Serialize for Attack {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_wire().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Attack {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Attack, D::Error> {
        let wire = WireAttack::deserialize(d)?;
        Attack::from_wire(wire).map_err(serde::de::Error::custom)
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
    /// Positions (attacker to move) with the moves left, already shown won: a subtree shared by
    /// several move orders is checked once.
    won: HashSet<(u64, u32)>,
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
        won: HashSet::new(),
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
