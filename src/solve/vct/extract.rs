//! The proof of a solved win, read from the solver's table: one subtree per (position, moves
//! left), shared by every move order that reaches it.

use std::sync::Arc;

use super::search::{Expansion, VctSolver, node_key};
use crate::board::{Cell, Color, Point, Rule};
use crate::solve::proof::{Attack, Defence};
use crate::solve::{Ending, Outcome};

impl VctSolver {
    /// The proof of a proven OR node (attacker to move), shared by every path that reaches the
    /// same position with the same moves left.
    pub(super) fn prove_or(&mut self, depth: u32) -> Option<Arc<Attack>> {
        let key = node_key(self.board.hash(), depth);
        if let Some(known) = self.proofs.get(&key) {
            return known.clone();
        }
        let proof = self.prove_or_once(depth).map(Arc::new);
        if proof.is_some() || !self.aborted {
            self.proofs.insert(key, proof.clone());
        }
        proof
    }

    fn prove_or_once(&mut self, depth: u32) -> Option<Attack> {
        let a = self.attacker;
        if let Some(i) = self.board.five_points(a).first() {
            return Some(Attack {
                mv: Point::from_index(i),
                ending: Some(Ending::Five),
                defences: Vec::new(),
            });
        }
        let v = self.vcf(depth);
        if v.outcome == Outcome::Win {
            return self.chain(&v.line);
        }
        let Expansion::Children(children) = self.expand(true, depth) else {
            return None;
        };
        // A child the table knows is proven, else search the children in turn.
        let known = children.iter().copied().find(|&c| {
            let ck = node_key(self.board.hash_after(c as usize), depth - 1);
            self.table.get(ck).is_some_and(|(pn, _)| pn == 0)
        });
        for c in known.into_iter().chain(children.iter().copied()) {
            let p = Point::from_index(c as usize);
            self.board.play(p);
            let proof = if self.decide(false, depth - 1) {
                self.prove_and(p, depth - 1)
            } else {
                None
            };
            self.board.undo();
            if proof.is_some() {
                return proof;
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// [`VctSolver::prove_and`] for a fixed first move, shared like the other proofs.
    pub(super) fn prove_and_root(&mut self, t: Point, depth: u32) -> Option<Arc<Attack>> {
        self.prove_and(t, depth).map(Arc::new)
    }

    /// The proof tree below the attacker's move `t` (just played; defender to move).
    fn prove_and(&mut self, t: Point, depth: u32) -> Option<Attack> {
        if let Some(end) = self.ending_after(t) {
            return Some(end);
        }
        let replies = match self.expand(false, depth) {
            Expansion::Children(replies) => replies,
            Expansion::Proven => self.representative_reply(depth)?,
            Expansion::Disproven => return None,
        };
        let mut defences = Vec::new();
        for &m in replies.iter() {
            let p = Point::from_index(m as usize);
            self.board.play(p);
            let then = if self.decide(true, depth) {
                self.prove_or(depth)
            } else {
                None
            };
            self.board.undo();
            defences.push(Defence { mv: p, then: then? });
        }
        Some(Attack {
            mv: t,
            ending: None,
            defences,
        })
    }

    /// Every reply loses to the attacker's VCF: the tree shows one, the first legal point of
    /// that VCF, else (when black may play none of them) the first legal point of the board
    /// (the verifier tries all the others).
    fn representative_reply(&mut self, depth: u32) -> Option<Vec<u16>> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        self.board.set_to_move(a);
        let v = self.threat(depth);
        self.board.set_to_move(d);
        let on_line = v
            .line
            .iter()
            .map(|p| p.index())
            .find(|&i| self.board.cell(i) == Cell::Empty && self.legal(d, i));
        let reply = match on_line {
            Some(i) => i,
            None => {
                let empty: Vec<usize> = self.board.empty_points().map(|p| p.index()).collect();
                empty.into_iter().find(|&i| self.legal(d, i))?
            }
        };
        Some(vec![reply as u16])
    }

    /// The node of the attacker's move `t` (just played) when it ends the fight: two or more
    /// five points (each legal block and the five after it; none legal is a forced foul), or
    /// one five point black may not take.
    fn ending_after(&mut self, t: Point) -> Option<Attack> {
        let d = self.attacker.opponent();
        let fives: Vec<usize> = self.board.five_points(self.attacker).iter().collect();
        let (ending, defences) = match fives[..] {
            [_, _, ..] => {
                let defences = self.double_threat_defences(&fives);
                let ending = if defences.is_empty() {
                    Ending::ForcedFoul
                } else {
                    Ending::DoubleThreat
                };
                (ending, defences)
            }
            [q] if d == Color::Black && self.board.rule() == Rule::Renju && !self.legal(d, q) => {
                (Ending::ForcedFoul, Vec::new())
            }
            _ => return None,
        };
        Some(Attack {
            mv: t,
            ending: Some(ending),
            defences,
        })
    }

    /// After a move that opens two or more five points: each block, and the five after it.
    fn double_threat_defences(&mut self, fives: &[usize]) -> Vec<Defence> {
        let d = self.attacker.opponent();
        fives
            .iter()
            .filter(|&&q| self.legal(d, q))
            .map(|&q| {
                let other = fives.iter().copied().find(|&x| x != q).unwrap_or(q);
                Defence {
                    mv: Point::from_index(q),
                    then: Arc::new(Attack {
                        mv: Point::from_index(other),
                        ending: Some(Ending::Five),
                        defences: Vec::new(),
                    }),
                }
            })
            .collect()
    }

    /// A VCF line as a proof tree (the board's side to move is the attacker).
    fn chain(&mut self, line: &[Point]) -> Option<Attack> {
        let a = self.attacker;
        let (&t, rest) = line.split_first()?;
        if self.board.five_points(a).contains(t.index()) {
            return Some(Attack {
                mv: t,
                ending: Some(Ending::Five),
                defences: Vec::new(),
            });
        }
        self.board.play(t);
        let node = if let Some(end) = self.ending_after(t) {
            Some(end)
        } else if let (Some(&q), Some((_, next))) = (rest.first(), rest.split_first()) {
            self.board.play(q);
            let then = self.chain(next);
            self.board.undo();
            then.map(|then| Attack {
                mv: t,
                ending: None,
                defences: vec![Defence {
                    mv: q,
                    then: Arc::new(then),
                }],
            })
        } else {
            None
        };
        self.board.undo();
        node
    }
}
