//! VCT: victory by continuous threats, by depth-first proof-number search (df-pn, Nagai 2002)
//! over threat space.
//!
//! **Attacker moves** (OR nodes): a five ends it; with the defender threatening a five, only
//! the block; otherwise every four, and every quiet move after which the attacker, were the
//! defender to pass, has a VCF within `threat_limit` attacker moves (so with 1: open threes and
//! moves that open a double four; with 2 also moves that set up a four-three). The quiet
//! candidates are the points that could start such a VCF (`quiet_candidates` gives the
//! argument, for every threat limit). Whether a candidate really threatens is checked lazily,
//! when the search first visits the defender's node after it (no VCF: that node is disproven),
//! so candidates the proof never needs cost nothing. When the defender has a VCF of its own (were
//! the attacker to pass), a quiet move must stop it: those outside that VCF's zone (below, sides
//! swapped) are dropped, and so are those after which it still replays. Black never plays a
//! forbidden point under renju.
//!
//! **Defender moves** (AND nodes): after a four, the block (and if that block is forbidden for
//! black, the attacker has won). After a quiet threat, the search first finds the attacker's
//! VCF `V` as if the defender passed; a reply refutes the threat only if after it the attacker
//! has no VCF within the bound. Only replies in a zone can change `V`, and those are tested
//! exactly (`V` replayed, else a fresh VCF). The zone: `V`'s own points and the five points it
//! ends on (a reply there blocks it); every point where the defender would make a four or a
//! five in any position along `V` (a reply elsewhere cannot give the defender a five before
//! `V` ends, since a five through the reply would make the reply a four point there); and under
//! renju the points within five steps of a black move of `V` that has two or more threes
//! (white stones never add threes, so no other black move can turn into a double three) and of
//! a final five point that is forbidden for black (a forced foul that another black stone
//! could undo). Outside the zone the attacker's fours keep their five points, the
//! defender gains no five and no foul changes, so `V` still wins. [`super::proof::verify`]
//! tries every legal reply outside the tree, so a gap in this argument would show up as a
//! counter-example rather than a false claim.
//!
//! **Search**: proof and disproof numbers per (position, remaining depth) in a bounded table
//! (`hash_mb`), the 1 + ε threshold trick against thrashing, a VCF check at every OR node, move
//! lists cached per node, quiet attacker moves starting at proof number 2 (a four at 1). A node
//! budget makes the answer `unknown` instead of `no-win`, and so does an inner VCF cut short by
//! its own budget if a disproof may rest on it. The proof of a win is then built as a DAG: one
//! subtree per (position, depth), shared by every move order that reaches it.

use std::collections::HashMap;
use std::rc::Rc;

use super::proof::{Attack, Defence};
use super::tt::FailTable;
use super::{Ending, Limits, Outcome, vcf};
use crate::board::{Bits, Board, CELLS, Cell, Color, DIRS, Point, Rule};
use crate::pattern::{self, Class, Shape};

/// What to search for.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub limits: Limits,
    /// Attacker moves in the VCF that makes a quiet move a threat.
    pub threat_limit: u32,
    /// Size of the proof-number table in megabytes.
    pub hash_mb: usize,
}

/// A VCT answer: the outcome, the proof tree of a win, and positions searched.
///
/// Memory: the proof-number table takes `hash_mb`, the move-list cache about as much again, and
/// the VCF failure tables 64 MB each at most.
#[derive(Clone, Debug)]
pub struct VctSolution {
    pub outcome: Outcome,
    pub proof: Option<Attack>,
    pub nodes: u64,
}

const INF: u32 = 1 << 30;
/// Budget of each VCF run inside the threat search. A run that spends it counts as no VCF,
/// which keeps the search going but can make a disproof wrong, so a no-win answer that may
/// rest on such a run is reported as unknown.
const INNER_VCF_NODES: u64 = 20_000;
/// Bound on the defender's own VCF when it prunes the attacker's quiet moves: any length wins
/// for the defender, this only keeps the search finite.
const DEFENDER_VCF_DEPTH: u32 = 40;
/// Initial proof number of an unsearched quiet attacker move (a four's is 1). Tuned on the
/// public VCT set: 2 takes 53M nodes for all 115 cases, 1 took 72M and 3 takes 62M.
const QUIET_PN: u32 = 2;
/// Bytes a cached move list takes, roughly, for sizing the cache from `hash_mb`.
const CACHE_ENTRY_BYTES: usize = 96;

/// Move lists by node key, in two generations: when the young one fills, the old one is
/// dropped and the young one ages, so recently used lists survive and memory stays bounded.
struct MoveCache {
    young: HashMap<u64, Expansion>,
    old: HashMap<u64, Expansion>,
    capacity: usize,
}

impl MoveCache {
    fn new(mb: usize) -> MoveCache {
        let capacity = ((mb.max(1) << 20) / CACHE_ENTRY_BYTES / 2).max(1024);
        MoveCache {
            young: HashMap::new(),
            old: HashMap::new(),
            capacity,
        }
    }

    fn get(&mut self, key: u64) -> Option<Expansion> {
        if let Some(e) = self.young.get(&key) {
            return Some(e.clone());
        }
        let e = self.old.remove(&key)?;
        self.insert(key, e.clone());
        Some(e)
    }

    fn insert(&mut self, key: u64, e: Expansion) {
        if self.young.len() >= self.capacity {
            self.old = std::mem::take(&mut self.young);
        }
        self.young.insert(key, e);
    }
}

/// Proof and disproof numbers per node key, two slots a bucket.
struct PnTable {
    slots: Vec<u64>,
    mask: usize,
}

impl PnTable {
    fn new(mb: usize) -> PnTable {
        let wanted = ((mb.max(1) << 20) / 16).max(1024);
        let n = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        PnTable {
            slots: vec![0; 2 * n],
            mask: n - 1,
        }
    }

    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let i = (key >> 16) as usize & self.mask;
        [i, i ^ 1]
            .into_iter()
            .find(|&j| self.slots[2 * j] == key)
            .map(|j| {
                let v = self.slots[2 * j + 1];
                ((v >> 32) as u32, v as u32)
            })
    }

    fn put(&mut self, key: u64, pn: u32, dn: u32) {
        let i = (key >> 16) as usize & self.mask;
        let terminal = |v: u64| (v >> 32) as u32 == 0 || v as u32 == 0;
        // The same key or an empty slot first; else keep a decided entry over an undecided one.
        let free = |j: usize| self.slots[2 * j] == key || self.slots[2 * j] == 0;
        let j = if free(i) {
            i
        } else if free(i ^ 1)
            || (terminal(self.slots[2 * i + 1]) && !terminal(self.slots[2 * (i ^ 1) + 1]))
        {
            i ^ 1
        } else {
            i
        };
        self.slots[2 * j] = key;
        self.slots[2 * j + 1] = (pn as u64) << 32 | dn as u64;
    }
}

#[derive(Clone)]
enum Expansion {
    Proven,
    Disproven,
    Children(Rc<[u16]>),
}

struct Dfpn {
    board: Board,
    attacker: Color,
    limits: Limits,
    threat_limit: u32,
    nodes: u64,
    table: PnTable,
    cache: MoveCache,
    vcf_table: FailTable,
    /// Failures of the defender's own VCF (a separate table: the attacker's holds only its
    /// own failures).
    defender_vcf_table: FailTable,
    aborted: bool,
    /// Proofs built so far, by node key (`None`: the node could not be proven).
    proofs: HashMap<u64, Option<Rc<Attack>>>,
    /// An inner VCF ran out of its budget and was taken as "no VCF": a disproof may rest on
    /// it, so a no-win answer is not proven.
    inexact: bool,
}

/// Key of a node: the position (with its side to move) and the attacker moves left.
fn node_key(hash: u64, depth: u32) -> u64 {
    (hash ^ (depth as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
}

/// Solves VCT for `attacker` (who moves first, whatever the board's side to move).
pub fn solve(board: &Board, attacker: Color, options: Options) -> VctSolution {
    let mut b = board.clone();
    b.set_to_move(attacker);
    let mut s = Dfpn {
        board: b,
        attacker,
        limits: options.limits,
        threat_limit: options.threat_limit.max(1),
        nodes: 0,
        table: PnTable::new(options.hash_mb),
        cache: MoveCache::new(options.hash_mb),
        vcf_table: FailTable::with_megabytes(64),
        defender_vcf_table: FailTable::with_megabytes(64),
        aborted: false,
        proofs: HashMap::new(),
        inexact: false,
    };
    let depth = options.limits.depth;
    let (pn, dn) = loop {
        let (pn, dn) = s.mid(true, depth, INF, INF);
        if pn == 0 || dn == 0 || s.aborted {
            break (pn, dn);
        }
    };
    if s.aborted || (pn != 0 && dn != 0) {
        return VctSolution {
            outcome: Outcome::Unknown,
            proof: None,
            nodes: s.nodes,
        };
    }
    if dn == 0 {
        return VctSolution {
            outcome: if s.inexact {
                Outcome::Unknown
            } else {
                Outcome::NoWin
            },
            proof: None,
            nodes: s.nodes,
        };
    }
    let proof = s
        .prove_or(depth)
        .map(|rc| Rc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone()));
    let outcome = if proof.is_some() {
        Outcome::Win
    } else {
        Outcome::Unknown
    };
    VctSolution {
        outcome,
        proof,
        nodes: s.nodes,
    }
}

impl Dfpn {
    fn over_budget(&mut self) -> bool {
        if self.nodes > self.limits.nodes {
            self.aborted = true;
        }
        self.aborted
    }

    fn legal(&mut self, c: Color, i: usize) -> bool {
        !(c == Color::Black
            && self.board.rule() == Rule::Renju
            && pattern::foul_mut(&mut self.board, i).is_some())
    }

    /// A VCF for the attacker, who must be to move, within `depth` (counted as the search
    /// counts).
    fn vcf(&mut self, depth: u32) -> vcf::VcfRun {
        self.vcf_counted(depth, self.limits.count_five)
    }

    /// A VCF that makes the last move a threat: at most `threat_limit` attacker moves up to
    /// the unstoppable one, and within the `depth` left. With "win in N" counting the five after
    /// a double threat counts toward `depth` but not toward the threat limit, so both are
    /// checked exactly: a VCF within `threat_limit` and `depth - 1`, else (near the end of the
    /// bound) one whose five itself falls within `depth`.
    fn threat(&mut self, depth: u32) -> vcf::VcfRun {
        let k = self.threat_limit;
        if !self.limits.count_five {
            return self.vcf_counted(k.min(depth), false);
        }
        let run = self.vcf_counted(k.min(depth.saturating_sub(1)), false);
        if run.outcome == Outcome::Win || depth > k {
            return run;
        }
        self.vcf_counted(depth, true)
    }

    fn vcf_counted(&mut self, depth: u32, count_five: bool) -> vcf::VcfRun {
        let limits = Limits {
            depth,
            nodes: INNER_VCF_NODES,
            count_five,
        };
        let run = vcf::search_in_place(&mut self.board, self.attacker, limits, &mut self.vcf_table);
        if run.outcome == Outcome::Unknown {
            self.inexact = true;
        }
        self.nodes += run.nodes;
        run
    }

    /// The children of a node, or its value when it is decided without search.
    fn expand(&mut self, or: bool, depth: u32) -> Expansion {
        let key = node_key(self.board.hash(), depth);
        if let Some(e) = self.cache.get(key) {
            return e;
        }
        let e = if or {
            self.expand_or(depth)
        } else {
            self.expand_and(depth)
        };
        if !self.aborted {
            self.cache.insert(key, e.clone());
        }
        e
    }

    fn expand_or(&mut self, depth: u32) -> Expansion {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if !self.board.five_points(a).is_empty() {
            return Expansion::Proven;
        }
        if depth == 0 {
            return Expansion::Disproven;
        }
        let threats = *self.board.five_points(d);
        if threats.count() >= 2 {
            return Expansion::Disproven;
        }
        if self.vcf(depth).outcome == Outcome::Win {
            return Expansion::Proven;
        }
        if depth == 1 {
            // Only a five, two fives or a forced foul wins in one move: the VCF would have
            // found them.
            return Expansion::Disproven;
        }
        let mut children: Vec<(i32, u16)> = Vec::new();
        if let Some(q) = threats.first() {
            if self.legal(a, q) {
                children.push((0, q as u16));
            }
        } else {
            let fours: Vec<usize> = self.board.four_points(a).iter().collect();
            for i in fours {
                if self.legal(a, i) {
                    let c = Class::of(&self.board.shapes(i, a));
                    children.push((1000 + score(&c), i as u16));
                }
            }
            // Quiet candidates are checked lazily: a move that threatens no VCF is disproven
            // when the search first visits the defender's node after it.
            let quiet = self.quiet_candidates();
            for i in self.beat_defender_vcf(quiet) {
                if self.legal(a, i) {
                    let c = Class::of(&self.board.shapes(i, a));
                    children.push((score(&c), i as u16));
                }
            }
        }
        if children.is_empty() {
            return Expansion::Disproven;
        }
        children.sort_by_key(|&(s, i)| (-s, i));
        Expansion::Children(children.into_iter().map(|(_, i)| i).collect())
    }

    /// Empty points, not fours or fives, where a quiet attacker move could threaten a VCF
    /// within `threat_limit` (K) attacker moves. The OR node has already found no VCF, so the
    /// VCF after a quiet move `q` must use `q`: either `q` lies in a five-cell window that is a
    /// four at some step (with no defender stone in it), or `q` takes the five point of a four
    /// the defender would make by blocking (a counter-four the attacker could not answer).
    ///
    /// * A four made at step `k` holds `q`, the move of step `k` and two more stones, existing
    ///   ones or earlier VCF moves. With no attacker four on the board, the first VCF four must
    ///   run through `q`, so `q` makes a three (open or closed) with two existing stones: that
    ///   is the whole set when the attacker has no four to play, whatever K is.
    /// * With fours on the board and K = 2, the window of the second move's four holds `q`
    ///   and either two existing stones (a three again) or one existing stone and the first
    ///   move, which then was already a four point: `q` shares a defender-free window with an
    ///   existing four point and an attacker stone. With K = 3, see [`Dfpn::mark_k3_windows`];
    ///   with K >= 4 every empty point is taken.
    /// * A defender block that makes a four needs three defender stones (K = 2) or two (K = 3)
    ///   in an attacker-free window with `q`, the five point `q` takes away.
    ///
    /// Renju foul interplay (a quiet stone that changes whether a later point is forbidden
    /// through the recursive three rule) is not covered by this argument.
    fn quiet_candidates(&self) -> Vec<usize> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let (fives, fours) = (self.board.five_points(a), self.board.four_points(a));
        let k = self.threat_limit;
        let mut threes = Bits::default();
        for p in self.board.empty_points() {
            let c = Class::of(&self.board.shapes(p.index(), a));
            if c.threes + c.closed_threes > 0 {
                threes.set(p.index(), true);
            }
        }
        let mut extra = threes;
        if !fours.is_empty() && k >= 2 {
            if k >= 4 {
                for p in self.board.empty_points() {
                    extra.set(p.index(), true);
                }
            } else {
                if k == 2 {
                    for f in fours.iter() {
                        mark_windows(&self.board, f, a, 1, &mut extra);
                    }
                } else {
                    self.mark_k3_windows(&threes, &mut extra);
                    for p in self.board.stones(d) {
                        mark_windows(&self.board, p.index(), d, 2, &mut extra);
                    }
                }
                for f in self.board.four_points(d).iter() {
                    extra.set(f, true);
                }
            }
        }
        extra
            .iter()
            .filter(|&i| !fives.contains(i) && !fours.contains(i))
            .collect()
    }

    /// Threat limit 3, attacker fours on the board: marks each `q` with a defender-free window
    /// that holds, besides `q`, at least two attacker stones or "hot" points. The window of a
    /// four at step 2 or 3 holds `q`, that step's move and two of: existing stones, the first
    /// move (a four point already, as its own four cannot need `q`, else `q` makes a three) and
    /// the second (whose own four, without `q`, holds three of the existing stones and the first
    /// move, so it makes at least a closed three now). Hot points are the four points and the
    /// points where the attacker makes a three or closed three.
    fn mark_k3_windows(&self, threes: &Bits, out: &mut Bits) {
        let a = self.attacker;
        let mut hot = *threes;
        for f in self.board.four_points(a).iter() {
            hot.set(f, true);
        }
        for p in self.board.points() {
            for step in DIRS {
                let cells: [usize; 5] =
                    std::array::from_fn(|j| (p.index() as isize + j as isize * step) as usize);
                let Some(stones) = open_window(&self.board, &cells, a) else {
                    continue;
                };
                let heat = cells.iter().filter(|&&j| hot.contains(j)).count();
                for &j in &cells {
                    let others = stones + heat - usize::from(hot.contains(j));
                    if self.board.cell(j) == Cell::Empty && others >= 2 {
                        out.set(j, true);
                    }
                }
            }
        }
    }

    /// Drops the quiet candidates that lose to a VCF of the defender's own. With such a VCF on
    /// the board (were the attacker to pass), a quiet move outside its zone (see the module
    /// notes, with the sides swapped) cannot stop it, and one inside loses when the VCF still
    /// replays after it. A defender VCF not found within its budget only means no pruning.
    fn beat_defender_vcf(&mut self, quiet: Vec<usize>) -> Vec<usize> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if quiet.is_empty() {
            return quiet;
        }
        self.board.set_to_move(d);
        let limits = Limits {
            depth: DEFENDER_VCF_DEPTH,
            nodes: INNER_VCF_NODES,
            count_five: false,
        };
        let run = vcf::search_in_place(&mut self.board, d, limits, &mut self.defender_vcf_table);
        self.nodes += run.nodes;
        self.board.set_to_move(a);
        if run.outcome != Outcome::Win {
            return quiet;
        }
        let zone = self.zone(&run.line, d);
        quiet
            .into_iter()
            .filter(|&q| {
                if !zone.contains(q) {
                    return false;
                }
                self.board.play(Point::from_index(q));
                let lost = self.replays(&run.line, d);
                self.board.undo();
                !lost
            })
            .collect()
    }

    fn expand_and(&mut self, depth: u32) -> Expansion {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let fives = *self.board.five_points(a);
        match fives.count() {
            n if n >= 2 => {
                if self.limits.count_five && depth == 0 {
                    Expansion::Disproven
                } else {
                    Expansion::Proven
                }
            }
            1 => {
                let q = fives.first().unwrap_or(0);
                if d == Color::Black && self.board.rule() == Rule::Renju && !self.legal(d, q) {
                    Expansion::Proven
                } else if depth == 0 {
                    Expansion::Disproven
                } else {
                    Expansion::Children(Rc::from(vec![q as u16]))
                }
            }
            _ => {
                if depth == 0 {
                    return Expansion::Disproven;
                }
                self.board.set_to_move(a);
                let v = self.threat(depth);
                self.board.set_to_move(d);
                if v.outcome != Outcome::Win {
                    return Expansion::Disproven;
                }
                let refutations = self.refutations(&v.line, depth);
                if refutations.is_empty() {
                    Expansion::Proven
                } else {
                    Expansion::Children(refutations.into_iter().map(|i| i as u16).collect())
                }
            }
        }
    }

    /// The defender's replies after which the attacker has no threat VCF within `depth` (see the
    /// module notes for why replies outside the zone need no test).
    fn refutations(&mut self, line: &[Point], depth: u32) -> Vec<usize> {
        let d = self.attacker.opponent();
        let zone = self.zone(line, self.attacker);
        let mut out = Vec::new();
        for m in zone.iter() {
            if self.board.cell(m) != Cell::Empty || !self.legal(d, m) {
                continue;
            }
            self.board.play(Point::from_index(m));
            let still =
                self.replays(line, self.attacker) || self.threat(depth).outcome == Outcome::Win;
            self.board.undo();
            if !still {
                out.push(m);
            }
            if self.over_budget() {
                break;
            }
        }
        out
    }

    /// The replies that could stop `a`'s VCF `line` (`a` to move, as if the other side had
    /// passed); see the module notes.
    fn zone(&mut self, line: &[Point], a: Color) -> Bits {
        let d = a.opponent();
        let renju = self.board.rule() == Rule::Renju;
        let mut zone = Bits::default();
        let mark_lines = |zone: &mut Bits, i: usize, reach: isize| {
            for step in DIRS {
                for k in -reach..=reach {
                    let j = i as isize + k * step;
                    if (0..CELLS as isize).contains(&j) {
                        zone.set(j as usize, true);
                    }
                }
            }
        };
        // Play the line once (the attacker first, as if the defender had passed): its points,
        // the defender's four and five points at every attacker turn, the five points it ends
        // on, and the black stones whose foul status a reply could change.
        let side = self.board.to_move();
        self.board.set_to_move(a);
        let mut played = 0;
        for (k, &p) in line.iter().enumerate() {
            zone.set(p.index(), true);
            if !self.board.is_empty(p) {
                break;
            }
            if k % 2 == 0 {
                for i in self
                    .board
                    .four_points(d)
                    .iter()
                    .chain(self.board.five_points(d).iter())
                {
                    zone.set(i, true);
                }
                if renju && a == Color::Black {
                    let threes = self
                        .board
                        .shapes(p.index(), a)
                        .iter()
                        .filter(|&&s| s == Shape::Three)
                        .count();
                    if threes >= 2 {
                        mark_lines(&mut zone, p.index(), 5);
                    }
                }
            }
            self.board.play(p);
            played += 1;
        }
        // A five point forbidden for black may turn legal (or back) with one more stone near it.
        let ends: Vec<(usize, bool)> = self
            .board
            .five_points(a)
            .iter()
            .collect::<Vec<_>>()
            .into_iter()
            .map(|i| (i, renju && d == Color::Black && !self.legal(d, i)))
            .collect();
        for _ in 0..played {
            self.board.undo();
        }
        self.board.set_to_move(side);
        for (i, foul) in ends {
            zone.set(i, true);
            if foul {
                mark_lines(&mut zone, i, 5);
            }
        }
        zone
    }

    /// Whether `a`'s VCF `line` still wins as played (`a` to move).
    fn replays(&mut self, line: &[Point], a: Color) -> bool {
        let d = a.opponent();
        let mut played = 0;
        let mut ok = false;
        let mut k = 0;
        while k < line.len() {
            let p = line[k];
            if !self.board.is_empty(p) {
                break;
            }
            if self.board.five_points(a).contains(p.index()) {
                ok = true;
                break;
            }
            if !self.board.five_points(d).is_empty() || !self.legal(a, p.index()) {
                break;
            }
            self.board.play(p);
            played += 1;
            let fives = *self.board.five_points(a);
            if fives.count() >= 2 {
                ok = true;
                break;
            }
            let Some(q) = fives.first() else { break };
            if d == Color::Black && self.board.rule() == Rule::Renju && !self.legal(d, q) {
                ok = true;
                break;
            }
            if line.get(k + 1).map(|p| p.index()) != Some(q) {
                break;
            }
            self.board.play(Point::from_index(q));
            played += 1;
            k += 2;
        }
        for _ in 0..played {
            self.board.undo();
        }
        ok
    }

    /// Nagai's MID: searches the node until its proof or disproof number reaches a threshold.
    fn mid(&mut self, or: bool, depth: u32, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        let key = node_key(self.board.hash(), depth);
        if self.over_budget() {
            return self.table.get(key).unwrap_or((1, 1));
        }
        let children = match self.expand(or, depth) {
            Expansion::Proven => {
                self.table.put(key, 0, INF);
                return (0, INF);
            }
            Expansion::Disproven => {
                self.table.put(key, INF, 0);
                return (INF, 0);
            }
            Expansion::Children(c) => c,
        };
        let child_depth = if or { depth - 1 } else { depth };
        // Child values, read from the table once; a child's entry changes only when this loop
        // searches it, and then its new value comes back from `mid`. An unseen child counts
        // (1, 1), except a quiet attacker move: (QUIET_PN, 1), since the defender usually has
        // several refutations to try against a three and one block against a four.
        let (a, d) = (self.attacker, self.attacker.opponent());
        let forcing = |b: &Board, c: usize| {
            b.four_points(a).contains(c)
                || b.five_points(a).contains(c)
                || b.five_points(d).contains(c)
        };
        let mut values: Vec<(u32, u32)> = children
            .iter()
            .map(|&c| {
                let ck = node_key(self.board.hash_after(c as usize), child_depth);
                self.table.get(ck).unwrap_or_else(|| {
                    if or && !forcing(&self.board, c as usize) {
                        (QUIET_PN, 1)
                    } else {
                        (1, 1)
                    }
                })
            })
            .collect();
        let (mut pn, mut dn);
        loop {
            let mut best = 0;
            let (mut best_v, mut second_v) = (INF + 1, INF + 1);
            let (mut sum, mut min) = (0u32, INF);
            let mut best_other = 0;
            for (k, &(cpn, cdn)) in values.iter().enumerate() {
                // OR: choose by proof number, sum disproof numbers; AND: the other way round.
                let (sel, other) = if or { (cpn, cdn) } else { (cdn, cpn) };
                sum = sum.saturating_add(other).min(INF);
                min = min.min(sel);
                if sel < best_v {
                    second_v = best_v;
                    best_v = sel;
                    best = k;
                    best_other = other;
                } else if sel < second_v {
                    second_v = sel;
                }
            }
            if or {
                (pn, dn) = (min, sum);
            } else {
                (pn, dn) = (sum, min);
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                break;
            }
            // Thresholds for the best child (1 + epsilon against thrashing).
            let (th_sel, th_other) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let node_other = if or { dn } else { pn };
            let eps = second_v.saturating_add(second_v / 4 + 1).min(INF);
            let child_sel = th_sel.min(eps);
            let child_other = th_other
                .saturating_sub(node_other)
                .saturating_add(best_other)
                .min(INF);
            let (cpn, cdn) = if or {
                (child_sel, child_other)
            } else {
                (child_other, child_sel)
            };
            let c = Point::from_index(children[best] as usize);
            self.board.play(c);
            values[best] = self.mid(!or, child_depth, cpn, cdn);
            self.board.undo();
        }
        if !self.aborted {
            self.table.put(key, pn, dn);
        }
        (pn, dn)
    }

    /// Searches a node until it is decided (or the budget runs out); true when proven.
    fn decide(&mut self, or: bool, depth: u32) -> bool {
        loop {
            let (pn, dn) = self.mid(or, depth, INF, INF);
            if pn == 0 {
                return true;
            }
            if dn == 0 || self.aborted {
                return false;
            }
        }
    }

    /// The proof of a proven OR node (attacker to move), shared by every path that reaches the
    /// same position with the same moves left.
    fn prove_or(&mut self, depth: u32) -> Option<Rc<Attack>> {
        let key = node_key(self.board.hash(), depth);
        if let Some(known) = self.proofs.get(&key) {
            return known.clone();
        }
        let proof = self.prove_or_once(depth).map(Rc::new);
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
    /// that VCF (the verifier tries all the others).
    fn representative_reply(&mut self, depth: u32) -> Option<Rc<[u16]>> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        self.board.set_to_move(a);
        let v = self.threat(depth);
        self.board.set_to_move(d);
        let reply = v
            .line
            .iter()
            .map(|p| p.index())
            .find(|&i| self.board.cell(i) == Cell::Empty && self.legal(d, i))?;
        Some(Rc::from(vec![reply as u16]))
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
                    then: Rc::new(Attack {
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
                    then: Rc::new(then),
                }],
            })
        } else {
            None
        };
        self.board.undo();
        node
    }
}

/// Move-ordering score of a quiet move or four: the threes and twos it also makes.
fn score(c: &Class) -> i32 {
    let mut s = 20 * c.threes as i32
        + 10 * c.closed_threes as i32
        + 5 * c.twos as i32
        + 2 * c.closed_twos as i32;
    if c.straight || c.fours >= 2 {
        s += 500;
    }
    s
}

/// Marks the empty cells of every five-cell window through cell `i` that holds no wall and no
/// stone of `color`'s opponent, and at least `stones` stones of `color`.
fn mark_windows(board: &Board, i: usize, color: Color, stones: usize, out: &mut Bits) {
    for step in DIRS {
        for start in -4..=0isize {
            let cells: [usize; 5] =
                std::array::from_fn(|k| (i as isize + (start + k as isize) * step) as usize);
            if open_window(board, &cells, color).is_some_and(|n| n >= stones) {
                for &j in cells.iter().filter(|&&j| board.cell(j) == Cell::Empty) {
                    out.set(j, true);
                }
            }
        }
    }
}

/// The number of `color` stones in a five-cell window, or `None` when it holds a wall or an
/// opponent stone (no five for `color` can use it).
fn open_window(board: &Board, cells: &[usize; 5], color: Color) -> Option<usize> {
    let own = Cell::of(color);
    let mut count = 0;
    for &j in cells {
        match board.cell(j) {
            Cell::Empty => {}
            c if c == own => count += 1,
            _ => return None,
        }
    }
    Some(count)
}
