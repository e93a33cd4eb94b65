//! The search's move picker: a node's candidates (from [`moves::generate`](super::moves),
//! each with its point value: what it makes and stops) come out in stages, best first:
//!
//! 1. the table move (the best move stored for the position);
//! 2. the killers (moves that cut at this ply elsewhere in the tree);
//! 3. the threats and the good quiet moves, by point value plus history (how often the move
//!    cut anywhere, weighted by depth);
//! 4. the rest, in the same order.
//!
//! Each stage lifts its moves above the next by a bonus no value of a later stage reaches. The
//! first [`LAZY_PICKS`] moves are picked one at a time, since most cuts come from the first
//! moves and a node that cuts early never pays for a sort; the rest are sorted once.

use super::params::LAZY_PICKS;
use crate::board::CELLS;

/// The table move's bonus: above every other move.
const TABLE_MOVE: i32 = 1 << 28;
/// A killer's bonus: above every threat and quiet move.
const KILLER: i32 = 1 << 20;
/// The most history can add to a move: below a killer.
const HISTORY_CAP: i32 = 1 << 19;

/// Yields the moves of `list` best first (see the module's stages).
pub(super) struct Picker<'l> {
    list: &'l mut [(i32, u16)],
    next: usize,
}

impl<'l> Picker<'l> {
    /// Orders `list` for a node whose table move is `tt_move`, with this ply's `killers` and the
    /// side to move's `history`.
    pub fn new(
        list: &'l mut [(i32, u16)],
        tt_move: Option<u16>,
        killers: &[u16; 2],
        history: &[i32; CELLS],
    ) -> Picker<'l> {
        for (v, m) in list.iter_mut() {
            if Some(*m) == tt_move {
                *v += TABLE_MOVE;
            } else if killers.contains(m) {
                *v += KILLER;
            }
            *v += history[*m as usize].min(HISTORY_CAP);
        }
        Picker { list, next: 0 }
    }
}

impl Iterator for Picker<'_> {
    /// The move's rank (from 0), its ordering value, and the move.
    type Item = (usize, i32, u16);

    fn next(&mut self) -> Option<(usize, i32, u16)> {
        let k = self.next;
        let list = &mut *self.list;
        if k >= list.len() {
            return None;
        }
        if k < LAZY_PICKS {
            let best = (k..list.len()).max_by_key(|&j| list[j]).unwrap_or(k);
            list.swap(k, best);
        } else if k == LAZY_PICKS {
            list[k..].sort_unstable_by(|a, b| b.cmp(a));
        }
        self.next += 1;
        let (value, m) = list[k];
        Some((k, value, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_move_then_killers_then_by_value_and_history() {
        let mut history = [0; CELLS];
        history[7] = 50;
        history[9] = 1 << 25; // capped below a killer
        let mut list: Vec<(i32, u16)> = [(10, 1), (300, 2), (5, 3), (40, 7), (60, 8), (0, 9)]
            .into_iter()
            .collect();
        let order: Vec<u16> = Picker::new(&mut list, Some(3), &[8, 99], &history)
            .map(|(_, _, m)| m)
            .collect();
        // 3: table move; 8: killer; 9: history capped at 2^19; then by value plus history.
        assert_eq!(order, vec![3, 8, 9, 2, 7, 1]);
        let ranks: Vec<usize> = Picker::new(&mut list, None, &[0, 0], &history)
            .map(|(k, _, _)| k)
            .collect();
        assert_eq!(ranks, (0..6).collect::<Vec<_>>());
    }
}
