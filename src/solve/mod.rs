//! Threat solvers: [`vcf`] (victory by continuous fours) and the proof replay in [`verify`].
//!
//! Every result is three-valued: a **win** with its line, **no win** within the bound asked
//! for, or **unknown** when the node budget ran out first — a search cut short never says
//! "no win".

pub mod proof;
pub mod tt;
pub mod vcf;
pub mod vct;
pub mod verify;

use serde::{Deserialize, Serialize};

use crate::board::Point;

/// What a solver found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A forced win, with the line that proves it.
    Win,
    /// No forced win within the bound.
    NoWin,
    /// The node budget ran out before the search could tell.
    Unknown,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::NoWin => "no-win",
            Outcome::Unknown => "unknown",
        })
    }
}

/// How a winning line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The attacker makes five at once (it already had a five to make).
    Five,
    /// The attacker's last threat opens two five points (a straight four or a double four):
    /// the line shows one block and the five.
    DoubleThreat,
    /// Every point where black could stop white's five is forbidden for black (renju): the
    /// line ends with white's threat.
    ForcedFoul,
}

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub outcome: Outcome,
    /// The winning line, attacker first, alternating (empty unless a win).
    pub line: Vec<Point>,
    pub ending: Option<Ending>,
    /// Positions searched.
    pub nodes: u64,
}

impl Solution {
    /// Attacker moves up to and including the one after which the win cannot be stopped: a
    /// five, a threat of two fives, or a four whose only block is forbidden. This is how puzzle
    /// sources (and quintet's `limit`) count; the five that follows a double threat is in the
    /// line but not in this count.
    pub fn attacker_moves(&self) -> usize {
        let moves = self.line.len().div_ceil(2);
        match self.ending {
            Some(Ending::DoubleThreat) => moves - 1,
            _ => moves,
        }
    }
}

/// Bounds on a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most attacker moves, counted as [`Solution::attacker_moves`] counts them.
    pub depth: u32,
    /// Count the five after a double threat as a move too ("win in N": five on or before the
    /// N-th move).
    pub count_five: bool,
    /// Most positions to search before answering unknown.
    pub nodes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: 255,
            count_five: false,
            nodes: 10_000_000,
        }
    }
}
