//! The VCT solver and its df-pn driver (see the [module notes](super)).

use std::collections::HashMap;
use std::sync::Arc;

use crate::board::{Board, CELLS, Cell, Color, Point};
use crate::pattern;
use crate::solve::proof::Attack;
use crate::solve::tt::{Listed, MemoryError, MoveCache, PnTable};
use crate::solve::{Limits, Outcome, Solution, progress, vcf};

/// A VCT answer: the outcome, the proof of a win, and positions searched.
#[derive(Clone, Debug)]
pub struct VctSolution {
    /// Win, no win within the bound, or unknown.
    pub outcome: Outcome,
    /// The proof of a win.
    pub proof: Option<Attack>,
    /// Positions searched, the inner VCF searches' included.
    pub nodes: u64,
}

const INF: u32 = 1 << 30;
/// First budget of each VCF run inside the threat search. A run that spends it is repeated
/// with more (see [`INNER_VCF_MAX`]); one that spends that too counts as no VCF, which keeps
/// the search going but can make a disproof wrong, so a no-win answer that may rest on such a
/// run is reported as unknown.
pub(super) const INNER_VCF_NODES: u64 = 20_000;
/// The most an inner VCF run is given: one that spends [`INNER_VCF_NODES`] is asked again with
/// [`INNER_VCF_GROWTH`] times as much, up to this. Such runs are rare (none on the public proof
/// sets; four of the 10.7 M positions of `lfz084/wzcg-xiaotimu-daquan/114` after h14, where the
/// first budget had left the "no win" unclaimed), so completing them costs next to nothing.
const INNER_VCF_MAX: u64 = 5_120_000;
/// How much more each repeat of an inner VCF run is given.
const INNER_VCF_GROWTH: u64 = 16;
/// Initial proof number of an unsearched quiet attacker move (a four's is 1). Tuned on the
/// public VCT set: 2 takes 53M nodes for all 115 cases, 1 took 72M and 3 takes 62M. Rechecked
/// with weak proof numbers on the 99 not tagged heavy: 2 takes 11.8M, 1 16.6M and 3 18.6M (and
/// 3 or 4 for quiet moves that make no open three: 15.3M, 15.8M).
const QUIET_PN: u32 = 2;
/// How the df-pn search weighs and orders nodes. Each style is exact (the same moves, the same
/// verdicts); they differ in which part of the tree they search first, and a solve tries
/// [`Style::Quick`] within [`Limits::quick_nodes`] before [`Style::Deep`] (see the module
/// notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Proof numbers summed at AND nodes, the plain `second + 1` threshold, attacker moves
    /// ordered by their potential (the attacker stones in the open windows through the point)
    /// and an unseen one numbered by its rank in that order (proof number 1 + 3k/2 for the k-th,
    /// from 0), the AND node's unseen replies by their count (disproof number n). Finds short
    /// proofs in narrow trees fast; lost in wide ones full of transpositions.
    Quick,
    /// Weak proof numbers at AND nodes, the 1 + epsilon threshold, fours before quiet moves
    /// (proof number 1 against [`QUIET_PN`]). Slower to a quick win, far faster on long ones.
    Deep,
}

/// The node budget of the [`Style::Quick`] pass by default. On the 99 public VCT cases not
/// tagged heavy it decides 83; the other 16 pay it on top of the deep search.
pub const QUICK_NODES: u64 = 300_000;

/// What a node expands to: decided without search, or its children (attacker moves at an OR
/// node, defender replies at an AND node), best first.
#[derive(Clone)]
pub(super) enum Expansion {
    Proven,
    Disproven,
    Children(Vec<u16>),
}

/// A node's proof and disproof numbers as [`VctSolver::mid`] computes them from its children's,
/// and what it needs to search the best child.
struct NodeNumbers {
    pn: u32,
    dn: u32,
    /// The child to search next: the one with the least selecting number (OR: proof, AND:
    /// disproof).
    best: usize,
    /// The second least selecting number.
    second_v: u32,
    /// The best child's other number.
    best_other: u32,
}

impl NodeNumbers {
    /// The thresholds (proof, disproof) the best child is searched to, from the node's
    /// (deep style: 1 + epsilon against thrashing).
    #[inline(always)]
    fn child_thresholds(&self, or: bool, quick: bool, th_pn: u32, th_dn: u32) -> (u32, u32) {
        let (th_sel, th_other) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
        let node_other = if or { self.dn } else { self.pn };
        let second_v = self.second_v;
        let eps = if quick {
            second_v.saturating_add(1).min(INF)
        } else {
            second_v.saturating_add(second_v / 4 + 1).min(INF)
        };
        let child_sel = th_sel.min(eps);
        let child_other = th_other
            .saturating_sub(node_other)
            .saturating_add(self.best_other)
            .min(INF);
        if or {
            (child_sel, child_other)
        } else {
            (child_other, child_sel)
        }
    }
}

/// A reusable VCT solver. It owns its tables (proof numbers, move lists, the two VCF solvers'
/// failure tables), sized once from a memory budget: a solve after the first forgets them
/// without allocating them again. Of the budget, the proof-number table takes a half, the
/// move-list cache a quarter, and each VCF solver's failure table an eighth.
pub struct VctSolver {
    pub(super) board: Board,
    pub(super) style: Style,
    pub(super) attacker: Color,
    pub(super) limits: Limits,
    pub(super) nodes: u64,
    pub(super) table: PnTable,
    cache: MoveCache,
    /// The children of every node on the search path, as a stack (see [`VctSolver::mid`]).
    stack: Vec<u16>,
    /// Their proof and disproof numbers, likewise.
    values: Vec<(u32, u32)>,
    /// The attacker's VCF searches.
    pub(super) vcf: vcf::VcfSolver,
    /// The defender's own VCF searches (a separate table: the attacker's holds only its own
    /// failures).
    pub(super) defender_vcf: vcf::VcfSolver,
    pub(super) aborted: bool,
    /// Proofs built so far, by node key (`None`: the node could not be proven).
    pub(super) proofs: HashMap<u64, Option<Arc<Attack>>>,
    /// An inner VCF ran out of its budget and was taken as "no VCF": a disproof may rest on
    /// it, so a no-win answer is not proven.
    inexact: bool,
    /// `nodes / 4096` when the clock was last read.
    clock_checked: u64,
    /// How often each point has refuted a threat in this solve: the defender's reply that
    /// disproved an AND node. A defence that held against one threat often holds against its
    /// siblings, so after the attacker's line points the defender's replies are tried most
    /// refuting first (see `VctSolver::refutations`).
    pub(super) refuted: Box<[u32; CELLS]>,
    /// The OR nodes with quiet candidates where the defender had no counter-VCF, by position
    /// hash salted with [`VctSolver::counter_salt`], direct-mapped (see
    /// `VctSolver::defender_wins_first`).
    pub(super) no_counter_vcf: Box<[u64; COUNTER_SLOTS]>,
    /// A value of this solve's own, mixed into [`VctSolver::no_counter_vcf`]'s entries.
    pub(super) counter_salt: u64,
}

/// Slots of [`VctSolver::no_counter_vcf`] (128 KiB).
pub(super) const COUNTER_SLOTS: usize = 1 << 14;

/// Key of a node: the position (with its side to move) and the attacker moves left.
pub(super) fn node_key(hash: u64, depth: u32) -> u64 {
    (hash ^ (depth as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
}

/// Solves VCT for `attacker` (who moves first, whatever the board's side to move) with a solver
/// of its own within `hash_mb` megabytes.
pub fn solve(
    board: &Board,
    attacker: Color,
    limits: Limits,
    hash_mb: usize,
) -> Result<VctSolution, MemoryError> {
    Ok(VctSolver::new(hash_mb << 20)?.solve(board, attacker, limits))
}

impl VctSolver {
    /// A solver whose tables take at most `bytes` together.
    pub fn new(bytes: usize) -> Result<VctSolver, MemoryError> {
        let board = Board::new(crate::board::DEFAULT_SIZE, crate::board::Rule::Freestyle)
            .expect("the default size is valid");
        Ok(VctSolver {
            board,
            style: Style::Deep,
            attacker: Color::Black,
            limits: Limits::default(),
            nodes: 0,
            table: PnTable::new(bytes / 2)?,
            cache: MoveCache::new(bytes / 4),
            stack: Vec::new(),
            values: Vec::new(),
            vcf: vcf::VcfSolver::new(bytes / 8)?,
            defender_vcf: vcf::VcfSolver::new(bytes / 8)?,
            aborted: false,
            proofs: HashMap::new(),
            inexact: false,
            clock_checked: 0,
            refuted: Box::new([0; CELLS]),
            no_counter_vcf: Box::new([0; COUNTER_SLOTS]),
            counter_salt: 0x9E37_79B9_7F4A_7C15,
        })
    }

    /// The attacker's VCF solver, for callers that run VCFs between solves (the verifier).
    pub fn vcf_solver(&mut self) -> &mut vcf::VcfSolver {
        &mut self.vcf
    }

    /// Solves VCT for `attacker` (who moves first, whatever the board's side to move) within
    /// `limits`. The tables of the previous solve are forgotten first, so the answer and its
    /// node count do not depend on what ran before.
    pub fn solve(&mut self, board: &Board, attacker: Color, limits: Limits) -> VctSolution {
        self.in_styles(board, attacker, limits, |s| {
            let depth = s.limits.depth;
            let (pn, dn) = s.run(true, depth);
            s.finish(pn, dn, |s| s.prove_or(depth))
        })
    }

    /// Solves VCT for `attacker` with its first move fixed: whether `first` wins within
    /// `limits` (the move counts toward the depth). A move that is not empty, is forbidden for
    /// black, ignores the defender's five, or threatens nothing within the threat limit does
    /// not win. The proof, when there is one, starts with `first`. `check` uses it to test a
    /// puzzle's stated first move, and each other first move in composer mode.
    pub fn solve_after(
        &mut self,
        board: &Board,
        attacker: Color,
        limits: Limits,
        first: Point,
    ) -> VctSolution {
        self.in_styles(board, attacker, limits, |s| {
            let depth = s.limits.depth;
            let (a, d) = (attacker, attacker.opponent());
            let i = first.index();
            let no_win = VctSolution {
                outcome: Outcome::NoWin,
                proof: None,
                nodes: 0,
            };
            if depth == 0 || s.board.cell(i) != Cell::Empty || !s.legal(a, i) {
                return no_win;
            }
            if s.board.five_points(a).contains(i) {
                return VctSolution {
                    outcome: Outcome::Win,
                    proof: Some(Attack {
                        mv: first,
                        ending: Some(crate::solve::Ending::Five),
                        defences: Vec::new(),
                    }),
                    nodes: 1,
                };
            }
            let threats = *s.board.five_points(d);
            if !threats.is_empty() && (threats.count() > 1 || !threats.contains(i)) {
                return no_win;
            }
            s.board.play(first);
            let (pn, dn) = s.run(false, depth - 1);
            let solution = s.finish(pn, dn, |s| s.prove_and_root(first, depth - 1));
            s.board.undo();
            solution
        })
    }

    /// Runs `search` (set up by [`VctSolver::begin`]) in the [`Style::Quick`] style within
    /// `limits.quick_nodes`, and when that leaves the answer unknown, afresh in the [`Style::Deep`]
    /// style with the rest of the budget. The nodes of both count.
    fn in_styles(
        &mut self,
        board: &Board,
        attacker: Color,
        limits: Limits,
        mut search: impl FnMut(&mut Self) -> VctSolution,
    ) -> VctSolution {
        let mut spent = 0;
        if limits.quick_nodes > 0 {
            let quick = Limits {
                nodes: limits.nodes.min(limits.quick_nodes),
                ..limits
            };
            self.style = Style::Quick;
            self.begin(board, attacker, quick);
            let first = search(self);
            let timed_out = limits.expired();
            if first.outcome != Outcome::Unknown || quick.nodes >= limits.nodes || timed_out {
                return first;
            }
            spent = first.nodes;
        }
        let deep = Limits {
            nodes: limits.nodes.saturating_sub(spent),
            ..limits
        };
        self.style = Style::Deep;
        self.begin(board, attacker, deep);
        let mut second = search(self);
        second.nodes += spent;
        second
    }

    /// Every first move that could start a win: the moves the root of a search would try (the
    /// block of the defender's five, else the fours and the quiet threats that survive the
    /// defender's counter-VCF), even when a VCF would decide the root at once. Composer mode
    /// tries each with [`VctSolver::solve_after`].
    pub fn first_moves(&mut self, board: &Board, attacker: Color, limits: Limits) -> Vec<Point> {
        self.style = Style::Deep;
        self.begin(board, attacker, limits);
        let mut out: Vec<Point> = self
            .board
            .five_points(attacker)
            .iter()
            .map(Point::from_index)
            .collect();
        out.extend(
            self.or_children(limits.depth)
                .into_iter()
                .map(|i| Point::from_index(i as usize)),
        );
        out.sort_by_key(|p| p.index());
        out.dedup();
        out
    }

    /// Forgets the previous solve and sets up for a new one.
    fn begin(&mut self, board: &Board, attacker: Color, limits: Limits) {
        self.board.clone_from(board);
        self.board.set_to_move(attacker);
        self.attacker = attacker;
        self.limits = limits;
        self.nodes = 0;
        self.table.reset();
        self.cache.clear();
        self.vcf.reset();
        self.defender_vcf.reset();
        self.aborted = false;
        self.proofs.clear();
        self.inexact = false;
        self.clock_checked = 0;
        self.refuted.fill(0);
        self.counter_salt = self.counter_salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
    }

    /// Searches the root (an OR node, or the AND node after a fixed first move) until it is
    /// decided or the budget runs out.
    fn run(&mut self, or: bool, depth: u32) -> (u32, u32) {
        loop {
            let (pn, dn) = self.mid(or, depth, INF, INF);
            if pn == 0 || dn == 0 || self.aborted {
                break (pn, dn);
            }
        }
    }

    /// The answer from the root's proof and disproof numbers; `prove` builds the proof of a
    /// win.
    fn finish(
        &mut self,
        pn: u32,
        dn: u32,
        prove: impl FnOnce(&mut Self) -> Option<Arc<Attack>>,
    ) -> VctSolution {
        let nodes = self.nodes;
        if self.aborted || (pn != 0 && dn != 0) {
            return VctSolution {
                outcome: Outcome::Unknown,
                proof: None,
                nodes,
            };
        }
        if dn == 0 {
            return VctSolution {
                outcome: if self.inexact {
                    Outcome::Unknown
                } else {
                    Outcome::NoWin
                },
                proof: None,
                nodes,
            };
        }
        let proof = prove(self).map(|rc| Arc::try_unwrap(rc).unwrap_or_else(|rc| (*rc).clone()));
        self.proofs.clear();
        let outcome = if proof.is_some() {
            Outcome::Win
        } else {
            Outcome::Unknown
        };
        VctSolution {
            outcome,
            proof,
            nodes: self.nodes,
        }
    }

    pub(super) fn over_budget(&mut self) -> bool {
        if self.nodes > self.limits.nodes {
            self.aborted = true;
        }
        // Every 4096 nodes or so: publish the count, read the clock.
        if self.nodes >> 12 != self.clock_checked {
            self.clock_checked = self.nodes >> 12;
            progress::step();
            if self.limits.expired() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    pub(super) fn legal(&mut self, c: Color, i: usize) -> bool {
        !pattern::forbidden(&mut self.board, c, i)
    }

    /// A VCF for the attacker, who must be to move, within `depth` (counted as the search
    /// counts).
    pub(super) fn vcf(&mut self, depth: u32) -> Solution {
        self.vcf_counted(depth, self.limits.count_five)
    }

    /// A VCF that makes the last move a threat: at most `threat_limit` attacker moves up to
    /// the unstoppable one, and within the `depth` left. With "win in N" counting the five after
    /// a double threat counts toward `depth` but not toward the threat limit, so both are
    /// checked exactly: a VCF within `threat_limit` and `depth - 1`, else (near the end of the
    /// bound) one whose five itself falls within `depth`.
    pub(super) fn threat(&mut self, depth: u32) -> Solution {
        let k = match self.limits.threat_limit {
            0 => depth,
            k => k,
        };
        if !self.limits.count_five {
            return self.vcf_counted(k.min(depth), false);
        }
        let run = self.vcf_counted(k.min(depth.saturating_sub(1)), false);
        if run.outcome == Outcome::Win || depth > k {
            return run;
        }
        self.vcf_counted(depth, true)
    }

    fn vcf_counted(&mut self, depth: u32, count_five: bool) -> Solution {
        let limits = Limits {
            depth,
            nodes: INNER_VCF_NODES,
            count_five,
            ..self.limits
        };
        // A run cut short by its budget is asked again with more (see `INNER_VCF_MAX`), within
        // what is left of the whole search's.
        let mut run = self.vcf.search(&mut self.board, self.attacker, limits);
        let mut budget = INNER_VCF_NODES;
        while run.outcome == Outcome::Unknown && budget < INNER_VCF_MAX {
            self.nodes += run.nodes;
            let left = self.limits.nodes.saturating_sub(self.nodes);
            if left == 0 || self.limits.expired() {
                break;
            }
            budget = (budget * INNER_VCF_GROWTH).min(left);
            let limits = Limits {
                nodes: budget,
                ..limits
            };
            run = self.vcf.search(&mut self.board, self.attacker, limits);
        }
        if run.outcome == Outcome::Unknown {
            self.inexact = true;
        }
        self.nodes += run.nodes;
        Solution::of_run(run, self.vcf.line())
    }

    /// The children of a node, or its value when it is decided without search.
    pub(super) fn expand(&mut self, or: bool, depth: u32) -> Expansion {
        let mut out = Vec::new();
        match self.expand_onto(or, depth, &mut out) {
            Listed::Proven => Expansion::Proven,
            Listed::Disproven => Expansion::Disproven,
            Listed::Children(_) => Expansion::Children(out),
        }
    }

    /// [`VctSolver::expand`] with the children appended to `out`, from the cache when the node
    /// was expanded before.
    fn expand_onto(&mut self, or: bool, depth: u32, out: &mut Vec<u16>) -> Listed {
        let key = node_key(self.board.hash(), depth);
        if let Some(listed) = self.cache.get(key, out) {
            return listed;
        }
        let e = if or {
            self.expand_or(depth)
        } else {
            self.expand_and(depth)
        };
        let (listed, moves) = match e {
            Expansion::Proven => (Listed::Proven, Vec::new()),
            Expansion::Disproven => (Listed::Disproven, Vec::new()),
            Expansion::Children(c) => (Listed::Children(c.len()), c),
        };
        if !self.aborted {
            self.cache.insert(key, listed, &moves);
        }
        out.extend_from_slice(&moves);
        listed
    }

    /// Nagai's MID: searches the node until its proof or disproof number reaches a threshold.
    fn mid(&mut self, or: bool, depth: u32, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        let key = node_key(self.board.hash(), depth);
        if self.over_budget() {
            return self.table.get(key).unwrap_or((1, 1));
        }
        // The children go on the solver's stack (and their numbers on its value stack) above
        // those of the nodes further up the path, and come off when this node returns.
        let base = self.stack.len();
        let mut stack = std::mem::take(&mut self.stack);
        let listed = self.expand_onto(or, depth, &mut stack);
        self.stack = stack;
        let n = match listed {
            Listed::Proven => {
                self.table.put(key, 0, INF);
                return (0, INF);
            }
            Listed::Disproven => {
                self.table.put(key, INF, 0);
                return (INF, 0);
            }
            Listed::Children(n) => n,
        };
        let child_depth = if or { depth - 1 } else { depth };
        let quick = self.style == Style::Quick;
        let vbase = self.values.len();
        self.load_children(or, quick, base, n, child_depth);
        let (mut pn, mut dn);
        loop {
            let node = self.numbers(or, quick, vbase, n);
            (pn, dn) = (node.pn, node.dn);
            if pn >= th_pn || dn >= th_dn || self.aborted {
                break;
            }
            let (cpn, cdn) = node.child_thresholds(or, quick, th_pn, th_dn);
            let c = Point::from_index(self.stack[base + node.best] as usize);
            self.board.play(c);
            self.values[vbase + node.best] = self.mid(!or, child_depth, cpn, cdn);
            self.board.undo();
        }
        // A disproven AND node: the reply that refuted the threat is tried early elsewhere.
        if !or && dn == 0 && !self.aborted {
            let held = self.values[vbase..vbase + n].iter().position(|v| v.1 == 0);
            if let Some(k) = held {
                self.refuted[self.stack[base + k] as usize] += 1;
            }
        }
        self.stack.truncate(base);
        self.values.truncate(vbase);
        if !self.aborted {
            self.table.put(key, pn, dn);
        }
        (pn, dn)
    }

    /// Pushes the values of the node's `n` children (on the stack from `base`) onto the value
    /// stack, read from the table once: a child's entry changes only when [`VctSolver::mid`]
    /// searches it, and then its new value comes back from that call.
    ///
    /// An unseen child counts (1, 1) in the deep style, except a quiet attacker move:
    /// ([`QUIET_PN`], 1), since the defender usually has several refutations to try against a
    /// three and one block against a four. In the quick style it counts (1 + 3k/2, 1) at an OR
    /// node, k its rank in the order from 0, so the search widens to a weaker move only as the
    /// stronger ones prove hard (of the slopes tried, the one that searched fewest nodes on the
    /// public VCT set: see docs/architecture.md),
    /// and (1, n) at an AND node.
    #[inline]
    fn load_children(&mut self, or: bool, quick: bool, base: usize, n: usize, child_depth: u32) {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let forcing = |b: &Board, c: usize| {
            b.four_points(a).contains(c)
                || b.five_points(a).contains(c)
                || b.five_points(d).contains(c)
        };
        let children = base..base + n;
        let vbase = self.values.len();
        // The children's entries lie far apart in a large table: ask for them all before
        // reading any, so the loads overlap. Each key is computed once and held in its child's
        // value slot (high and low halves) until its entry is read.
        for k in children.clone() {
            let c = self.stack[k];
            let ck = node_key(self.board.hash_after(c as usize), child_depth);
            self.table.prefetch(ck);
            self.values.push(((ck >> 32) as u32, ck as u32));
        }
        for (k, rank) in children.zip(0u32..) {
            let v = self.values[vbase + k - base];
            let ck = u64::from(v.0) << 32 | u64::from(v.1);
            let c = self.stack[k];
            self.values[vbase + k - base] =
                self.table.get(ck).unwrap_or_else(|| match (quick, or) {
                    (true, true) => (1 + 3 * rank / 2, 1),
                    (true, false) => (1, n as u32),
                    (false, true) if !forcing(&self.board, c as usize) => (QUIET_PN, 1),
                    (false, _) => (1, 1),
                });
        }
    }

    /// The node's proof and disproof numbers from its `n` children's values (on the value
    /// stack from `vbase`), and which child to search next.
    #[inline(always)]
    fn numbers(&self, or: bool, quick: bool, vbase: usize, n: usize) -> NodeNumbers {
        let mut best = 0;
        let (mut best_v, mut second_v) = (INF + 1, INF + 1);
        let (mut sum, mut min) = (0u32, INF);
        // The largest open (nonzero) "other" number and how many there are, for the weak
        // proof number of an AND node.
        let (mut most, mut open) = (0u32, 0u32);
        let mut best_other = 0;
        for (k, &(cpn, cdn)) in self.values[vbase..vbase + n].iter().enumerate() {
            // OR: choose by proof number, sum disproof numbers; AND: the other way round.
            let (sel, other) = if or { (cpn, cdn) } else { (cdn, cpn) };
            sum = sum.saturating_add(other).min(INF);
            most = most.max(other);
            open += u32::from(other > 0);
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
        let (pn, dn) = if or {
            (min, sum)
        } else {
            // Deep style: the weak proof number (Ueda et al. 2008), the largest child's plus
            // one for each other open child, not their sum. Threat sequences transpose so
            // much that a sum counts the same subtree many times over (see the module
            // notes). Quick style: the sum.
            let and_pn = if sum < INF && !quick {
                most + open.saturating_sub(1)
            } else {
                sum
            };
            (and_pn, min)
        };
        NodeNumbers {
            pn,
            dn,
            best,
            second_v,
            best_other,
        }
    }

    /// Searches a node until it is decided (or the budget runs out); true when proven.
    pub(super) fn decide(&mut self, or: bool, depth: u32) -> bool {
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
}
