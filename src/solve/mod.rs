//! Threat solvers and the checks of what they claim.
//!
//! - [`task`]: the library's entry point — a [`task::Task`] (VCF, VCT or win in N, with its
//!   limits) run by a reusable [`task::Solver`] into a [`task::Verdict`], every win verified.
//! - [`vcf`]: victory by continuous fours, depth-first with a failure table.
//! - [`vct`]: victory by continuous threats, df-pn over threat space, with proofs.
//! - [`proof`]: the proof tree (a DAG) of a VCT win.
//! - [`verify`]: independent checks: a VCF line replayed on a plain grid, a proof tried
//!   against every legal defence.
//! - [`tt`]: the tables the solvers own and reuse.
//! - [`progress`]: node counts and the phase, for a live display.
//!
//! Every result is three-valued: a **win** with its line, **no win** within the bound asked
//! for, or **unknown** when the node budget ran out first — a search cut short never says
//! "no win".

pub mod progress;
pub mod proof;
pub mod task;
pub(crate) mod tt;
pub use tt::MemoryError;
pub mod vcf;
pub mod vct;
pub mod verify;

use serde::{Deserialize, Serialize};

use crate::board::Point;
use crate::pattern::Class;

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
    /// Win, no win within the bound, or unknown.
    pub outcome: Outcome,
    /// The winning line, attacker first, alternating (empty unless a win).
    pub line: Vec<Point>,
    /// How a win ends.
    pub ending: Option<Ending>,
    /// Positions searched.
    pub nodes: u64,
}

impl Solution {
    /// An unknown outcome after `nodes` positions.
    pub fn unknown(nodes: u64) -> Solution {
        Solution {
            outcome: Outcome::Unknown,
            line: Vec::new(),
            ending: None,
            nodes,
        }
    }

    /// A VCF run and the solver's line (copied only for a win).
    pub fn of_run(run: vcf::Run, line: &[Point]) -> Solution {
        Solution {
            outcome: run.outcome,
            line: if run.outcome == Outcome::Win {
                line.to_vec()
            } else {
                Vec::new()
            },
            ending: run.ending,
            nodes: run.nodes,
        }
    }

    /// Attacker moves up to and including the one after which the win cannot be stopped: a
    /// five, a threat of two fives, or a four whose only block is forbidden. This is how puzzle
    /// sources (and quintet's `limit`) count; the five that follows a double threat is in the
    /// line but not in this count.
    pub fn attacker_moves(&self) -> usize {
        let moves = self.moves_to_five();
        match self.ending {
            Some(Ending::DoubleThreat) => moves - 1,
            _ => moves,
        }
    }

    /// Attacker moves up to the five, the five included (to the four whose only block is
    /// forbidden, when the line ends in a forced foul): what "wins in N moves" says in every
    /// command, as `analyze`'s `mate_in` counts.
    pub fn moves_to_five(&self) -> usize {
        self.line.len().div_ceil(2)
    }
}

/// Bounds on a threat search: the solvers', the verifier's and a task's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most attacker moves, counted as [`Solution::attacker_moves`] counts them.
    pub depth: u32,
    /// Count the five after a double threat as a move too ("win in N": five on or before the
    /// N-th move).
    pub count_five: bool,
    /// Most positions to search before answering unknown.
    pub nodes: u64,
    /// VCT: attacker moves in the VCF that makes a quiet move a threat (1: threes and moves
    /// that open a double four; 2: also moves that set up a four-three). VCF ignores it. 0
    /// makes the VCT solver a VCF solver against a defender with tempo: the attacker plays
    /// only fours (and blocks of the defender's fours, after which its VCF must still stand),
    /// while the defender may answer with counter-fours and then defend again.
    pub threat_limit: u32,
    /// A moment after which the search stops and answers unknown, like a spent budget.
    pub deadline: Option<std::time::Instant>,
    /// VCT: the nodes of the quick-style pass that runs before the deep one (0: the deep one
    /// alone); see [`vct::search::QUICK_NODES`].
    pub quick_nodes: u64,
    /// A flag another thread may raise to stop the search at once, read when the deadline is
    /// (an engine's `STOP`): the search then answers unknown, as when the deadline passes.
    pub cancel: Option<Cancel>,
    /// VCT: the order the defender's replies are tried in (see [`DefenceOrder`]).
    pub defence_order: DefenceOrder,
}

/// The order the VCT solver tries a defender's replies in: which one df-pn tries first decides
/// how soon a proof or a disproof is found, and neither order wins everywhere (the figures are
/// at `vct::moves`'s `VctSolver::refutations`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DefenceOrder {
    /// The points of the attacker's VCF line first, then the replies that refuted most threats
    /// so far in the solve, then the board order.
    #[default]
    LineThenRefuting,
    /// The board order of the zone: the analysis's root VCT, whose unbounded search runs
    /// in the deep style alone and finds the long wins sooner so.
    Board,
}

impl Limits {
    /// Whether the deadline has passed or the search was cancelled.
    #[inline]
    pub fn expired(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
            || self.cancel.is_some_and(Cancel::is_set)
    }
}

/// A stop flag shared with another thread: raised, every search that holds it stops at its
/// next look at the clock. It lives as long as the process (an engine makes one and keeps it),
/// so that [`Limits`] stays a plain copyable value.
#[derive(Clone, Copy)]
pub struct Cancel(&'static std::sync::atomic::AtomicBool);

impl Cancel {
    /// A new flag, lowered. Each call leaks one byte: make one per engine, not per search.
    pub fn new() -> Cancel {
        Cancel(Box::leak(Box::new(std::sync::atomic::AtomicBool::new(
            false,
        ))))
    }

    /// Whether it is raised.
    #[inline]
    pub fn is_set(self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Raises it (`true`) or lowers it.
    pub fn set(self, raised: bool) {
        self.0.store(raised, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for Cancel {
    fn default() -> Cancel {
        Cancel::new()
    }
}

impl PartialEq for Cancel {
    /// The same flag.
    fn eq(&self, other: &Cancel) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Cancel {}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cancel({})", self.is_set())
    }
}

/// The bound when none is given: more attacker moves than a board has points.
pub const NO_LIMIT: u32 = 255;
/// The node budget when none is given: enough for the hardest public case not tagged heavy
/// in the set and for `quintet/vct_unstable` (threat limit 3, 57.5M nodes, 44 s on this
/// project's machine), so a published puzzle is decided rather than left unknown; a search
/// that cannot be decided gives up after about a minute. A count, not a time, so that the
/// answer is the same on every machine; `--time` adds a clock.
pub const DEFAULT_MAX_NODES: u64 = 75_000_000;
/// The threat limit when none is given.
pub const DEFAULT_THREAT_LIMIT: u32 = 2;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: NO_LIMIT,
            count_five: false,
            nodes: DEFAULT_MAX_NODES,
            threat_limit: DEFAULT_THREAT_LIMIT,
            deadline: None,
            quick_nodes: vct::search::QUICK_NODES,
            cancel: None,
            defence_order: DefenceOrder::LineThenRefuting,
        }
    }
}

/// Move-ordering score of a move, from the shapes it makes: one that opens two fives (a
/// straight four or a double four) first, then by the threes and twos it also makes. Both
/// solvers order by it.
#[inline]
pub fn order_score(c: &Class) -> i32 {
    let mut s = 20 * c.threes as i32
        + 10 * c.closed_threes as i32
        + 5 * c.twos as i32
        + 2 * c.closed_twos as i32;
    if c.straight || c.fours >= 2 {
        s += 1000;
    }
    s
}
