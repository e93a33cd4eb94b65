//! Proof trees of forced wins: at each attacker move, every defender reply the search
//! considered and the attacker's answer to each. A position that several move orders reach has
//! one shared subtree: a proof written out as a plain tree can be a hundred times larger (a
//! 14-move VCT of 50,000 shared nodes was 57 million as a tree). This module holds the type and
//! what can be read off it; [`crate::report::proof`] writes it as text and JSON, and
//! [`super::verify::proof`] checks it against every legal defence.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::Ending;
use crate::board::Point;

/// An attacker move and what follows it.
///
/// A proof is a tree in form but a DAG in memory: a position reached by several move orders has
/// one subtree, shared by every [`Defence`] that leads to it. Counting, printing and verifying
/// visit each shared subtree once; JSON and text write it in full at its first occurrence and
/// refer back to it afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    /// The attacker's move.
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
    /// The defender's reply.
    pub mv: Point,
    /// The attacker's answer to it.
    pub then: Arc<Attack>,
}

/// Branch lengths and tree sizes of the nodes seen so far, shared by a walk down the main line.
#[derive(Default)]
struct Memos {
    moves: HashMap<*const Attack, usize>,
    sizes: HashMap<*const Attack, u64>,
}

/// Identity of a node in the DAG.
pub fn id(node: &Attack) -> *const Attack {
    node as *const Attack
}

impl Attack {
    /// Attacker moves on the longest branch, counted as [`super::Solution::attacker_moves`].
    pub fn attacker_moves(&self) -> usize {
        self.moves_memo(&mut HashMap::new(), false)
    }

    /// Attacker moves on the longest branch up to the five, the five included, counted as
    /// [`super::Solution::moves_to_five`]: what "wins in N moves" says everywhere.
    pub fn moves_to_five(&self) -> usize {
        self.moves_memo(&mut HashMap::new(), true)
    }

    /// The longest branch's attacker moves; with `five`, the five after a double threat too.
    fn moves_memo(&self, memo: &mut HashMap<*const Attack, usize>, five: bool) -> usize {
        if let Some(&n) = memo.get(&id(self)) {
            return n;
        }
        let n = match self.ending {
            Some(Ending::DoubleThreat) if five => 2,
            Some(_) => 1,
            None => {
                1 + self
                    .defences
                    .iter()
                    .map(|d| d.then.moves_memo(memo, five))
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
    pub fn tree_size(&self, memo: &mut HashMap<*const Attack, u64>) -> u64 {
        if let Some(&n) = memo.get(&id(self)) {
            return n;
        }
        let n = self.defences.iter().fold(1u64, |acc, d| {
            acc.saturating_add(1).saturating_add(d.then.tree_size(memo))
        });
        memo.insert(id(self), n);
        n
    }

    /// The main line: at each defender node the most stubborn reply (see
    /// [`Attack::stubborn`]), on to the five (after a double threat, one block and the five).
    pub fn main_line(&self) -> Vec<Point> {
        let mut memos = Memos::default();
        let mut line = Vec::new();
        let mut node = self;
        loop {
            line.push(node.mv);
            let Some(d) = node.stubborn(&mut memos) else {
                break;
            };
            line.push(d.mv);
            node = &d.then;
        }
        line
    }

    /// How the main line ends: down its most stubborn replies (as [`Attack::main_line`]) to
    /// the attacker move that ends the fight.
    pub fn main_ending(&self) -> Ending {
        let mut memos = Memos::default();
        let mut node = self;
        loop {
            match (&node.ending, node.stubborn(&mut memos)) {
                (Some(e), _) if *e != Ending::Five || node.defences.is_empty() => return *e,
                (_, Some(d)) => node = &d.then,
                _ => return Ending::Five,
            }
        }
    }

    /// The defender's most stubborn reply: the longest branch, then the bushiest as a tree.
    fn stubborn(&self, memos: &mut Memos) -> Option<&Defence> {
        self.defences.iter().max_by_key(|d| {
            (
                d.then.moves_memo(&mut memos.moves, false),
                d.then.tree_size(&mut memos.sizes),
            )
        })
    }

    /// Subtrees reached by more than one reply, which the writers label and refer back to.
    pub fn shared(&self) -> HashSet<*const Attack> {
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
}
