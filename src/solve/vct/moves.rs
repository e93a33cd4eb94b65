//! Threat-space move generation: the attacker's threats (fours and quiet moves that threaten a
//! VCF), the defender's refutations of a threat, and the zones that bound both (see the
//! [module notes](super)).

use super::search::{COUNTER_SLOTS, INNER_VCF_NODES};
use super::search::{Expansion, Style, VctSolver};
use crate::board::{Bits, Board, CELLS, Cell, Color, DIRS, Point, Rule};
use crate::pattern::{Class, Shape};
use crate::solve::{DefenceOrder, Limits, Outcome, order_score};

/// Bound on the defender's own VCF when it prunes the attacker's quiet moves. Any length wins
/// for the defender, but the pruning is only a shortcut: a longer counter-VCF is met in the
/// search itself, whose defender replies include the defender's fours. Short ones are cheap
/// to find and prune most. On the 99 public VCT cases not tagged heavy, 3 searches 14.8M
/// nodes in 40 s where 40 searched 24.2M in 63 s (and solves `vct_small_but_long`, which 40
/// left unknown at 10M nodes); 2 searches more than 3. The same bound serves the check after a
/// quiet threat (`VctSolver::defender_wins_first`).
const DEFENDER_VCF_DEPTH: u32 = 3;
/// How many of the threat lines found after earlier replies [`VctSolver::refutations`] keeps
/// to replay before it searches (see there).
const ALTERNATE_LINES: usize = 4;

impl VctSolver {
    pub(super) fn expand_or(&mut self, depth: u32) -> Expansion {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if !self.board.five_points(a).is_empty() {
            return Expansion::Proven;
        }
        if depth == 0 {
            return Expansion::Disproven;
        }
        if self.board.five_count(d) >= 2 {
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
        let children = self.or_children(depth);
        if children.is_empty() {
            return Expansion::Disproven;
        }
        Expansion::Children(children)
    }

    /// The attacker's moves at an OR node, best first: the block of the defender's five, else
    /// every four and every quiet candidate that survives the defender's counter-VCF (black's
    /// forbidden points left out). `depth`: the attacker moves left, this one included.
    pub(super) fn or_children(&mut self, depth: u32) -> Vec<u16> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        if self.board.five_count(d) >= 2 {
            return Vec::new();
        }
        let mut children: Vec<(i32, u16)> = Vec::new();
        if let Some(q) = self.board.five_points(d).first() {
            if self.legal(a, q) {
                children.push((0, q as u16));
            }
        } else {
            // Deep style: fours first, then by shape; quick style: by potential alone.
            let quick = self.style == Style::Quick;
            let score = |board: &Board, i: usize, four: bool| {
                if quick {
                    potential(board, i, a)
                } else {
                    i32::from(four) * 1000 + order_score(&Class::of(&board.shapes(i, a)))
                }
            };
            let fours: Vec<usize> = self.board.four_points(a).iter().collect();
            for i in fours {
                if self.legal(a, i) {
                    children.push((score(&self.board, i, true), i as u16));
                }
            }
            // Quiet candidates are checked lazily: a move that threatens no VCF is disproven
            // when the search first visits the defender's node after it. Threat limit 0: fours
            // only. The defender's node tests a VCF within the threat limit and the moves left
            // after this one (see `VctSolver::threat`), so the candidates need no wider limit:
            // with one move left after this one, only the moves that threaten a one-move win.
            let k = self.limits.threat_limit.min(depth.saturating_sub(1));
            let quiet = if self.limits.threat_limit == 0 || k == 0 {
                Vec::new()
            } else {
                self.quiet_candidates(k)
            };
            for i in self.beat_defender_vcf(quiet) {
                if self.legal(a, i) {
                    children.push((score(&self.board, i, false), i as u16));
                }
            }
        }
        children.sort_by_key(|&(s, i)| (-s, i));
        children.into_iter().map(|(_, i)| i).collect()
    }

    /// Empty points, not fours or fives, where a quiet attacker move could threaten a VCF
    /// within `k` attacker moves (the threat limit, or fewer near the depth limit). The OR node
    /// has already found no VCF, so the VCF after a quiet move `q` must use `q`: either `q`
    /// lies in a five-cell window that is a four at some step (with no defender stone in it),
    /// or `q` takes the five point of a four the defender would make by blocking (a
    /// counter-four the attacker could not answer).
    ///
    /// * A four made at step `k` holds `q`, the move of step `k` and two more stones, existing
    ///   ones or earlier VCF moves. With no attacker four on the board, the first VCF four must
    ///   run through `q`, so `q` makes a three (open or closed) with two existing stones: that
    ///   is the whole set when the attacker has no four to play, whatever K is.
    /// * With fours on the board and K = 2, the window of the second move's four holds `q`
    ///   and either two existing stones (a three again) or one existing stone and the first
    ///   move, which then was already a four point: `q` shares a defender-free window with an
    ///   existing four point and an attacker stone. With K >= 4 every empty point is taken.
    /// * K = 3, attacker fours on the board: each `q` with a defender-free window that holds,
    ///   besides `q`, at least two attacker stones or "hot" points. The window of a four at
    ///   step 2 or 3 holds `q`, that step's move and two of: existing stones, the first move (a
    ///   four point already, as its own four cannot need `q`, else `q` makes a three) and the
    ///   second (whose own four, without `q`, holds three of the existing stones and the first
    ///   move, so it makes at least a closed three now). Hot points are the four points and
    ///   the points where the attacker makes a three or closed three.
    /// * A defender block that makes a four needs three defender stones (K = 2) or two (K = 3)
    ///   in an attacker-free window with `q`, the five point `q` takes away.
    ///
    /// Renju foul interplay (a quiet stone that changes whether a later point is forbidden
    /// through the recursive three rule) is not covered by this argument.
    ///
    /// The windows are read a whole direction at a time, on bit sets of the padded array (a
    /// test checks this against the cell-by-cell reading it replaced). On
    /// `vct_small_but_long` (threat limit 3) the candidates took 14% of the solve's time cell
    /// by cell, and take 6% this way.
    fn quiet_candidates(&self, k: u32) -> Vec<usize> {
        let (a, d) = (self.attacker, self.attacker.opponent());
        let b = &self.board;
        let (fives, fours) = (b.five_points(a), b.four_points(a));
        let empty = *b.empty_bits();
        let mut threes = Bits::default();
        for i in empty.iter() {
            if b.makes_three(i, a) {
                threes.set(i, true);
            }
        }
        let mut extra = threes;
        if !fours.is_empty() && k >= 2 {
            if k >= 4 {
                extra = empty;
            } else {
                let (own, theirs) = (*b.stone_bits(a), *b.stone_bits(d));
                let walls = !(own | theirs | empty);
                let hot_or_own = own | threes | *fours;
                for step in DIRS {
                    let s = step as usize;
                    let open = window_open(walls | theirs, s);
                    if k == 2 {
                        // A window open for the attacker that holds a four point and one of
                        // its stones.
                        let [with_four, _, _] = window_counts(fours, s);
                        let [with_stone, _, _] = window_counts(&own, s);
                        extra |= window_cells(open & with_four & with_stone, s);
                    } else {
                        // A window open for the attacker where, besides the point marked, two
                        // cells are its stones or hot points (see above).
                        let [_, two, three] = window_counts(&hot_or_own, s);
                        for j in 0..5 {
                            let others = three | (two & !hot_or_own.down(j * s));
                            extra |= (open & others).up(j * s);
                        }
                        // A window open for the defender with two of its stones.
                        let open = window_open(walls | own, s);
                        let [_, two, _] = window_counts(&theirs, s);
                        extra |= window_cells(open & two, s);
                    }
                }
                extra |= *b.four_points(d);
            }
        }
        (extra & empty & !(*fives | *fours)).iter().collect()
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
        let key = self.board.hash();
        self.board.set_to_move(d);
        let outcome = self.counter_vcf();
        self.board.set_to_move(a);
        self.note_counter_vcf(key, outcome);
        if outcome != Outcome::Win {
            return quiet;
        }
        let line = self.defender_vcf.line().to_vec();
        let zone = self.zone(&line, d);
        quiet
            .into_iter()
            .filter(|&q| {
                if !zone.contains(q) {
                    return false;
                }
                self.board.play(Point::from_index(q));
                let lost = self.replays(&line, d);
                self.board.undo();
                !lost
            })
            .collect()
    }

    pub(super) fn expand_and(&mut self, depth: u32) -> Expansion {
        let (a, d) = (self.attacker, self.attacker.opponent());
        match self.board.five_count(a) {
            n if n >= 2 => {
                if self.limits.count_five && depth == 0 {
                    Expansion::Disproven
                } else {
                    Expansion::Proven
                }
            }
            1 => {
                let q = self.board.five_points(a).first().unwrap_or(0);
                if d == Color::Black && self.board.rule() == Rule::Renju && !self.legal(d, q) {
                    Expansion::Proven
                } else if depth == 0 {
                    Expansion::Disproven
                } else {
                    Expansion::Children(vec![q as u16])
                }
            }
            _ => {
                if depth == 0 {
                    return Expansion::Disproven;
                }
                self.board.set_to_move(a);
                let v = self.threat(depth);
                self.board.set_to_move(d);
                if v.outcome != Outcome::Win || self.defender_wins_first() {
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

    /// Whether the defender, to move after the attacker's quiet threat, has a VCF of its own
    /// within [`DEFENDER_VCF_DEPTH`]: the threat then fails whatever it threatens, with no
    /// reply to try. Not asked where the OR node before is known to have had no such VCF: an
    /// attacker stone takes from the defender's lines (under renju a white stone may also free
    /// a black point from a foul; the replies meet that case in the search).
    fn defender_wins_first(&mut self) -> bool {
        let Some(parent) = self.board.hash_before_last() else {
            return false;
        };
        if self.had_no_counter_vcf(parent) {
            return false;
        }
        self.counter_vcf() == Outcome::Win
    }

    /// Notes what the counter-VCF of the OR node `key` found. A slot is the latest decided
    /// node's; its entries carry this solve's salt, so those of earlier solves never match and
    /// the table needs no clearing (a solve of a few nodes would pay more for that than for
    /// its search).
    fn note_counter_vcf(&mut self, key: u64, outcome: Outcome) {
        let slot = &mut self.no_counter_vcf[(key >> 40) as usize % COUNTER_SLOTS];
        match outcome {
            Outcome::NoWin => *slot = key ^ self.counter_salt,
            Outcome::Win => *slot = 0,
            Outcome::Unknown => {}
        }
    }

    /// Whether the OR node `key` is known, in this solve, to have had no counter-VCF.
    fn had_no_counter_vcf(&self, key: u64) -> bool {
        self.no_counter_vcf[(key >> 40) as usize % COUNTER_SLOTS] == key ^ self.counter_salt
    }

    /// The defender's own VCF within [`DEFENDER_VCF_DEPTH`], the defender to move (its line
    /// is `self.defender_vcf.line()`).
    fn counter_vcf(&mut self) -> Outcome {
        let limits = Limits {
            depth: DEFENDER_VCF_DEPTH,
            nodes: INNER_VCF_NODES,
            count_five: false,
            ..Limits::default()
        };
        let d = self.attacker.opponent();
        let run = self.defender_vcf.search(&mut self.board, d, limits);
        self.nodes += run.nodes;
        run.outcome
    }

    /// The defender's replies after which the attacker has no threat VCF within `depth` (see the
    /// module notes for why replies outside the zone need no test), in the limits'
    /// [`DefenceOrder`]: by default the points of the attacker's VCF line first, then the
    /// replies that refuted most threats so far in this solve (`VctSolver::refuted`), then the
    /// zone's board order; or the board order alone. Which reply df-pn tries first decides how
    /// soon a proof or a disproof is found: the default order took the fewest positions over
    /// the public disproofs and VCT cases, the board order the fewest on the long wins a
    /// one-second analysis must find, so the root uses that ([`DefenceOrder::Board`]; the
    /// figures are in docs/disproofs.md).
    fn refutations(&mut self, line: &[Point], depth: u32) -> Vec<usize> {
        let d = self.attacker.opponent();
        let zone = self.zone(line, self.attacker);
        // A reply on one of the line's points stops its replay there: no need to try it.
        let mut on_line = Bits::default();
        for p in line {
            on_line.set(p.index(), true);
        }
        let mut out = Vec::new();
        // The threat lines found after earlier replies: one often still wins after the next
        // reply too, and replaying it costs a few moves where a search costs many.
        let mut found: Vec<Vec<Point>> = Vec::new();
        for m in zone.iter() {
            if self.board.cell(m) != Cell::Empty {
                continue;
            }
            self.board.play(Point::from_index(m));
            let a = self.attacker;
            let still = (!on_line.contains(m) && self.replays(line, a))
                || found.iter().any(|l| self.replays(l, a))
                || {
                    let v = self.threat(depth);
                    let win = v.outcome == Outcome::Win;
                    if win && found.len() < ALTERNATE_LINES {
                        found.push(v.line);
                    }
                    win
                };
            self.board.undo();
            // Legality matters only to a reply that would refute: most do not.
            if !still && self.legal(d, m) {
                out.push(m);
            }
            if self.over_budget() {
                break;
            }
        }
        if self.limits.defence_order == DefenceOrder::LineThenRefuting {
            let refuted = &self.refuted;
            out.sort_by_key(|&m| std::cmp::Reverse((on_line.contains(m), refuted[m])));
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
            if self.board.five_count(a) >= 2 {
                ok = true;
                break;
            }
            let Some(q) = self.board.five_points(a).first() else {
                break;
            };
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
}

/// The window starts (cells `i` whose five-cell window `i, i + s, .., i + 4s` runs along a
/// line of step `s`) with no cell of `block` in the window.
#[inline]
fn window_open(block: Bits, s: usize) -> Bits {
    let mut any = Bits::default();
    for j in 0..5 {
        any |= block.down(j * s);
    }
    !any
}

/// The window starts (see [`window_open`]) whose window holds at least one, two and three
/// cells of `set`.
#[inline]
fn window_counts(set: &Bits, s: usize) -> [Bits; 3] {
    let [mut one, mut two, mut three] = [Bits::default(); 3];
    for j in 0..5 {
        let x = set.down(j * s);
        three |= two & x;
        two |= one & x;
        one |= x;
    }
    [one, two, three]
}

/// Every cell of the windows that start at `starts` (see [`window_open`]).
#[inline]
fn window_cells(starts: Bits, s: usize) -> Bits {
    let mut cells = Bits::default();
    for j in 0..5 {
        cells |= starts.up(j * s);
    }
    cells
}

/// The potential of point `i` for `color`: in each direction, the largest count of `color`
/// stones plus one over the five-cell windows through `i` with no wall and no opponent stone
/// (counting only windows with a stone), times the number of windows that reach it; summed over
/// the four directions. A point in many well-filled open windows scores high, whether or not
/// it makes a four now. The quick style orders attacker moves by it.
fn potential(board: &Board, i: usize, color: Color) -> i32 {
    let mut total = 0;
    for d in 0..4 {
        // The line key holds the five cells on each side, two bits a cell (slot t for offset
        // t - 5 before the point, t - 4 after it): spread it so that offset o sits at slot
        // o + 5 and the point itself, empty, at slot 5.
        let key = board.key(i, d);
        let key = (key & 0x3FF) | (key & 0xF_FC00) << 2;
        let (lo, hi) = (key & 0x15_5555, key >> 1 & 0x15_5555);
        // A wall (3) or an opponent stone blocks a window; the opponent's code shares its bit
        // with the wall's.
        let (own, block) = match color {
            Color::Black => (lo & !hi, hi),
            Color::White => (hi & !lo, lo),
        };
        let (mut best, mut count) = (0, 0);
        for start in 1..=5 {
            let window = 0x155 << (2 * start);
            if block & window != 0 {
                continue;
            }
            match (own & window).count_ones() {
                n if n >= 1 && n + 1 > best => (best, count) = (n + 1, 1),
                n if n >= 1 && n + 1 == best => count += 1,
                _ => {}
            }
        }
        total += (best * count) as i32;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The potential as first written, window by window on the cells.
    fn potential_reference(board: &Board, i: usize, color: Color) -> i32 {
        let mut total = 0;
        for step in DIRS {
            let (mut best, mut count) = (0, 0);
            for start in -4..=0isize {
                let cells: [usize; 5] =
                    std::array::from_fn(|k| (i as isize + (start + k as isize) * step) as usize);
                match open_window(board, &cells, color) {
                    Some(n) if n >= 1 && n + 1 > best => (best, count) = (n + 1, 1),
                    Some(n) if n >= 1 && n + 1 == best => count += 1,
                    _ => {}
                }
            }
            total += (best * count) as i32;
        }
        total
    }

    /// The quiet candidates as first written: cell by cell, window by window. The bit-set
    /// version must give the same set.
    fn reference(board: &Board, a: Color, k: u32) -> Vec<usize> {
        let d = a.opponent();
        let (fives, fours) = (board.five_points(a), board.four_points(a));
        let mut threes = Bits::default();
        for p in board.empty_points() {
            if board.makes_three(p.index(), a) {
                threes.set(p.index(), true);
            }
        }
        let mut extra = threes;
        let mark = |i: usize, color: Color, stones: usize, out: &mut Bits| {
            for step in DIRS {
                for start in -4..=0isize {
                    let cells: [usize; 5] = std::array::from_fn(|j| {
                        (i as isize + (start + j as isize) * step) as usize
                    });
                    if open_window(board, &cells, color).is_some_and(|n| n >= stones) {
                        for &j in cells.iter().filter(|&&j| board.cell(j) == Cell::Empty) {
                            out.set(j, true);
                        }
                    }
                }
            }
        };
        if !fours.is_empty() && k >= 2 {
            if k >= 4 {
                for p in board.empty_points() {
                    extra.set(p.index(), true);
                }
            } else {
                if k == 2 {
                    for f in fours.iter() {
                        mark(f, a, 1, &mut extra);
                    }
                } else {
                    let mut hot = threes;
                    for f in fours.iter() {
                        hot.set(f, true);
                    }
                    for p in board.points() {
                        for step in DIRS {
                            let cells: [usize; 5] = std::array::from_fn(|j| {
                                (p.index() as isize + j as isize * step) as usize
                            });
                            let Some(stones) = open_window(board, &cells, a) else {
                                continue;
                            };
                            let heat = cells.iter().filter(|&&j| hot.contains(j)).count();
                            for &j in &cells {
                                let others = stones + heat - usize::from(hot.contains(j));
                                if board.cell(j) == Cell::Empty && others >= 2 {
                                    extra.set(j, true);
                                }
                            }
                        }
                    }
                    for p in board.stones(d) {
                        mark(p.index(), d, 2, &mut extra);
                    }
                }
                for f in board.four_points(d).iter() {
                    extra.set(f, true);
                }
            }
        }
        extra
            .iter()
            .filter(|&i| !fives.contains(i) && !fours.contains(i))
            .collect()
    }

    /// White's quiet open three (g3) threatens a VCF; black, to move, answers it with its own
    /// open three's VCF when it has one (h8 i8 j8), and then the threat fails at once, with no
    /// reply to try. With that three broken (i8 gone) the replies are searched.
    #[test]
    fn a_quiet_threat_fails_at_once_against_the_defenders_own_vcf() {
        let mut solver = VctSolver::new(1 << 20).unwrap();
        for (black, at_once) in [(["h8", "i8", "j8"], true), (["h8", "j8", "a15"], false)] {
            let mut board = Board::new(15, Rule::Freestyle).unwrap();
            for s in black {
                board.put(s.parse().unwrap(), Color::Black);
            }
            for s in ["e3", "f3"] {
                board.put(s.parse().unwrap(), Color::White);
            }
            board.set_to_move(Color::White);
            board.play("g3".parse().unwrap());
            solver.board.clone_from(&board);
            solver.attacker = Color::White;
            solver.limits = Limits {
                depth: 5,
                threat_limit: 2,
                ..Limits::default()
            };
            solver.counter_salt += 1;
            match solver.expand_and(4) {
                Expansion::Disproven => assert!(at_once, "{black:?}: disproven"),
                Expansion::Children(replies) => {
                    assert!(!at_once, "{black:?}: replies {replies:?}");
                    // The blocks of the three are among them.
                    let d3 = "d3".parse::<Point>().unwrap().index() as u16;
                    assert!(replies.contains(&d3), "{replies:?}");
                }
                Expansion::Proven => panic!("{black:?}: proven"),
            }
        }
    }

    #[test]
    fn bit_set_quiet_candidates_and_potentials_match_the_cell_by_cell_reference() {
        let mut solver = VctSolver::new(1 << 20).unwrap();
        let mut rng = crate::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: u64| rng.next_u64() % n;
        let mut checked = [0usize; 4];
        for game in 0..600 {
            let size = [15u8, 9, 19, 22][game % 4];
            let rule = Rule::ALL[game % Rule::ALL.len()];
            let mut board = Board::new(size, rule).unwrap();
            let stones = 6 + next(40);
            for _ in 0..stones {
                let p = Point::new(next(size as u64) as u8, next(size as u64) as u8).unwrap();
                if board.is_empty(p) && !board.makes_five(p, board.to_move()) {
                    board.play(p);
                }
                for a in [Color::Black, Color::White] {
                    solver.board.clone_from(&board);
                    solver.attacker = a;
                    for p in board.empty_points() {
                        let i = p.index();
                        assert_eq!(potential(&board, i, a), potential_reference(&board, i, a));
                    }
                    for k in 1..=4 {
                        let want = reference(&board, a, k);
                        assert_eq!(solver.quiet_candidates(k), want, "k {k} {a:?}\n{board:?}");
                        checked[k as usize - 1] += usize::from(!want.is_empty());
                    }
                }
            }
        }
        // The positions reach every case: candidates found at every threat limit.
        assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
    }
}
