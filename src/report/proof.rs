//! Proof trees written out: an indented text tree, and the JSON wire form (nested objects; a
//! subtree reached again is written once with an `id` and afterwards as `{"same_as": id}`),
//! which reads back into the same DAG.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::board::Point;
use crate::solve::Ending;
use crate::solve::proof::{Attack, Defence, id};

/// The tree as indented text: attacker moves numbered, defender replies beneath. A subtree
/// reached again by another order of moves is written once, labelled `[#k]`, and referred to
/// afterwards.
pub fn text(tree: &Attack) -> String {
    let mut w = Writer {
        shared: tree.shared(),
        labels: HashMap::new(),
    };
    let mut out = String::new();
    w.text(tree, &mut out, 0, 1);
    out
}

fn to_wire(tree: &Attack) -> WireAttack {
    let mut w = Writer {
        shared: tree.shared(),
        labels: HashMap::new(),
    };
    w.wire(tree)
}

fn from_wire(wire: WireAttack) -> Result<Attack, String> {
    let mut labels = HashMap::new();
    match resolve(wire, &mut labels)? {
        Node::Full(a) => Ok(a),
        Node::Shared(a) => Ok((*a).clone()),
    }
}

fn resolve(wire: WireAttack, labels: &mut HashMap<usize, Arc<Attack>>) -> Result<Node, String> {
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
        let then = match resolve(d.then, labels)? {
            Node::Full(a) => Arc::new(a),
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
            let rc = Arc::new(node);
            labels.insert(k, rc.clone());
            Ok(Node::Shared(rc))
        }
        None => Ok(Node::Full(node)),
    }
}

enum Node {
    Full(Attack),
    Shared(Arc<Attack>),
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
        to_wire(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Attack {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Attack, D::Error> {
        let wire = WireAttack::deserialize(d)?;
        from_wire(wire).map_err(serde::de::Error::custom)
    }
}
