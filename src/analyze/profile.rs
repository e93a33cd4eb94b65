//! The search's pieces and their constants, one [`Profile`] a rule. Every per-rule choice of
//! the analyzer is made here and nowhere else: the search, the root, the time plan and the
//! protocol front end read the profile of the board's rule ([`Profile::of`]).
//!
//! A piece is in a profile because a self-play match admitted it under that rule; the record
//! of each (and of the pieces that lost and left the code) is in
//! [docs/strength.md](../../docs/strength.md#selective-search-issue-33).

use super::moves::Threats;
use crate::board::Rule;

/// Point values ([`super::eval::point_value`]: what a move makes plus most of what it stops)
/// of the shapes the pruning steps keep or drop by.
pub mod threshold {
    /// An open two made or stopped: below it a move has no shape worth searching late.
    pub const OPEN_TWO: i32 = 90;
    /// An open three made or stopped: a threat the search keeps whole.
    pub const OPEN_THREE: i32 = 500;
    /// A four made or stopped.
    pub const FOUR: i32 = 600;
}

/// How the search prunes, reduces and ends its lines under one rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// How the opponent's winning threats narrow the candidates.
    pub threats: Threats,
    /// What the horizon does before it takes the static value.
    pub horizon: Horizon,
    /// Off the principal line, a static value far above beta is the node's value.
    pub reverse_futility: Option<ReverseFutility>,
    /// Near the horizon, off the principal line, the late moves without a threat are skipped.
    pub move_count: Option<MoveCount>,
    /// Near the horizon, off the principal line, a late move with no shape is skipped.
    pub shape_pruning: Option<ShapePruning>,
    /// Late-move reductions from a table over depth and move number.
    pub reductions: Option<Reductions>,
    /// A node that must answer a winning threat reduces and prunes its late moves as any
    /// other node does (the tight defence leaves it few).
    pub reduce_forced: bool,
    /// A late quiet root move is first tested against the best at a reduced depth.
    pub root_reductions: Option<RootReductions>,
    /// How many times a failed aspiration window widens in steps before the full window.
    pub aspiration_widenings: u32,
    /// How a game (the protocol front end) spends a move's time.
    pub game: GamePlan,
}

/// The horizon: a VCF of the side to move is a mate; else the static value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Horizon {
    /// The VCF asked at the horizon, and in the check of the opponent's VCF were the side to
    /// move to pass; `None`: neither.
    pub vcf: Option<VcfBudget>,
    /// A static value at beta or above is returned before the VCF is asked: the node fails
    /// high either way, and the VCF was most of the search's work.
    pub stand_pat_first: bool,
    /// The VCF is skipped where the node above proved, checking the opponent's VCF were it
    /// to pass, that this side has none. Exact under freestyle and standard; under renju a
    /// stone can change a foul, so a horizon win may be missed (never one made up).
    pub trust_parent_no_vcf: bool,
}

/// The size of each VCF the horizon asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcfBudget {
    /// Positions.
    pub nodes: u64,
    /// Attacker moves.
    pub depth: u32,
}

/// Reverse futility pruning: at `depth` or less, off the principal line, not forced, a
/// static value at least beta plus `margin` a ply is returned without a move searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReverseFutility {
    /// Deepest node pruned.
    pub depth: i32,
    /// Margin a ply of depth.
    pub margin: i32,
    /// Where the table's bound makes its score the better estimate (exact; a lower bound
    /// above the static value; an upper bound below it), that score is compared instead.
    pub table_value: bool,
}

/// Move-count pruning: at `depth` or less, off the principal line, the moves from the
/// `base + depth^exponent`-th on (counting from 0) that are neither the table move nor a
/// killer and whose point value is below `keep_from` are not searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveCount {
    /// Deepest node pruned.
    pub depth: i32,
    /// Moves always searched, at any depth.
    pub base: usize,
    /// How the count grows with depth.
    pub exponent: f64,
    /// The point value from which a move is never pruned by count.
    pub keep_from: i32,
    /// Only once a move that does not lose is in hand.
    pub once_safe: bool,
}

impl MoveCount {
    /// From which move (counting from 0) a node at each depth skips its late moves
    /// (`usize::MAX`: none).
    pub fn counts(&self) -> [usize; 16] {
        let mut counts = [usize::MAX; 16];
        for (d, c) in counts.iter_mut().enumerate() {
            if d as i32 <= self.depth {
                *c = self.base + (d as f64).powf(self.exponent) as usize;
            }
        }
        counts
    }
}

/// Shape pruning: at `depth` or less, off the principal line, not forced, from the
/// `from_move`-th move on (counting from 0), a move that is neither the table move nor a
/// killer and whose point value is below `below` is not searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapePruning {
    /// Deepest node pruned.
    pub depth: i32,
    /// The first move (counting from 0) that may be pruned.
    pub from_move: usize,
    /// The point value below which a move has no shape.
    pub below: i32,
}

/// Late-move reductions: the `k`-th move (from 0) at `depth` is reduced by
/// `base + ln depth · ln k / divisor` plies (rounded down), one less on the principal line,
/// one more with no shape, from the `from_move`-th move on at depth 2 or more; never the
/// table move, a killer, or a move whose point value reaches `keep_from`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reductions {
    /// The reduction's constant part.
    pub base: f64,
    /// Divides `ln depth · ln k`.
    pub divisor: f64,
    /// The first move (counting from 0) that may be reduced.
    pub from_move: usize,
    /// The point value from which a move is never reduced.
    pub keep_from: i32,
    /// A ply more at an expected cut node (a null-window node below a null-window search,
    /// told apart as Stockfish's and Rapfi's searches do).
    pub cut_nodes: bool,
}

impl Reductions {
    /// The table's reduction of the `k`-th move (from 0) at `depth`, for depths and moves
    /// below 64.
    pub fn table(&self) -> Box<[[i8; 64]; 64]> {
        let mut t = Box::new([[0i8; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let x = self.base + (d as f64).ln() * (m as f64).ln() / self.divisor;
                *r = x.max(0.0) as i8;
            }
        }
        t
    }
}

/// Root reductions: in an iteration of `depth` or more, a root move of rank `from_rank` or
/// later (by the last iteration, from 0) below an open three is first tested against the
/// best move's score at a depth reduced by the table's reduction; one that beats it there is
/// tested again at the full depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootReductions {
    /// The first iteration reduced.
    pub depth: i32,
    /// The first rank reduced.
    pub from_rank: usize,
}

/// How a game spends its move's time (fractions of it): a game needs the best move, not the
/// best `top` scored exactly, so the iterations may take the pass's share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GamePlan {
    /// The iterations end here.
    pub iterations_end: f64,
    /// No iteration starts after this.
    pub no_iteration_after: f64,
    /// The root VCT's share before the search on one thread.
    pub vct_share: f64,
}

/// The horizon VCF's size in every rule: 100 positions lost in renju self-play, and the
/// proofs of "no VCF" at 300 are worth their cost.
const HORIZON_VCF: VcfBudget = VcfBudget {
    nodes: 300,
    depth: 10,
};

const REVERSE_FUTILITY: ReverseFutility = ReverseFutility {
    depth: 8,
    margin: 120,
    table_value: true,
};

/// Move-count pruning deep in the tree with counts growing as Rapfi's (4, 5, 7, 9, 11, … from
/// depth 1), open-three moves pruned by count too.
const DEEP_MOVE_COUNT: MoveCount = MoveCount {
    depth: 10,
    base: 3,
    exponent: 1.32,
    keep_from: threshold::FOUR,
    once_safe: true,
};

const SHAPE_PRUNING: ShapePruning = ShapePruning {
    depth: 3,
    from_move: 4,
    below: threshold::OPEN_TWO,
};

const REDUCTIONS: Reductions = Reductions {
    base: 0.3,
    divisor: 2.0,
    from_move: 2,
    keep_from: threshold::OPEN_THREE,
    cut_nodes: true,
};

const ROOT_REDUCTIONS: RootReductions = RootReductions {
    depth: 4,
    from_rank: 3,
};

/// The analysis's own time plan (see `params::ITERATIONS_END`), which standard's games keep:
/// the longer game plan was measured under freestyle and renju only.
const ANALYSIS_PLAN: GamePlan = GamePlan {
    iterations_end: super::params::ITERATIONS_END,
    no_iteration_after: super::params::NO_ITERATION_AFTER,
    vct_share: super::params::VCT_SHARE,
};

impl Profile {
    /// Freestyle: every piece, windows widened in steps; forced nodes kept whole (reducing
    /// them lost).
    pub const FREESTYLE: Profile = Profile {
        threats: Threats::Tight,
        horizon: Horizon {
            vcf: Some(HORIZON_VCF),
            stand_pat_first: true,
            trust_parent_no_vcf: true,
        },
        reverse_futility: Some(REVERSE_FUTILITY),
        move_count: Some(DEEP_MOVE_COUNT),
        shape_pruning: Some(SHAPE_PRUNING),
        reductions: Some(REDUCTIONS),
        reduce_forced: false,
        root_reductions: Some(ROOT_REDUCTIONS),
        aspiration_widenings: 3,
        game: GamePlan {
            iterations_end: 0.96,
            no_iteration_after: 0.75,
            vct_share: super::params::VCT_SHARE,
        },
    };

    /// Renju: freestyle's pieces, forced nodes reduced too, and the full window at once
    /// (steps lost); in a game the root VCT gets less time.
    pub const RENJU: Profile = Profile {
        reduce_forced: true,
        aspiration_widenings: 0,
        game: GamePlan {
            vct_share: 0.12,
            ..Profile::FREESTYLE.game
        },
        ..Profile::FREESTYLE
    };

    /// Standard: the pieces measured before the deep ones, which were never matched under
    /// this rule; the analysis's time plan in games too.
    pub const STANDARD: Profile = Profile {
        horizon: Horizon {
            stand_pat_first: false,
            ..Profile::FREESTYLE.horizon
        },
        reverse_futility: Some(ReverseFutility {
            table_value: false,
            ..REVERSE_FUTILITY
        }),
        move_count: Some(MoveCount {
            depth: 3,
            exponent: 2.0,
            keep_from: threshold::OPEN_THREE,
            once_safe: false,
            ..DEEP_MOVE_COUNT
        }),
        reductions: Some(Reductions {
            cut_nodes: false,
            ..REDUCTIONS
        }),
        aspiration_widenings: 0,
        game: ANALYSIS_PLAN,
        ..Profile::FREESTYLE
    };

    /// The search with every pruning, reduction, threat narrowing and horizon step off:
    /// exact, whatever its window, table and move order (the tests' reference).
    pub const UNPRUNED: Profile = Profile {
        threats: Threats::Off,
        horizon: Horizon {
            vcf: None,
            stand_pat_first: true,
            trust_parent_no_vcf: true,
        },
        reverse_futility: None,
        move_count: None,
        shape_pruning: None,
        reductions: None,
        reduce_forced: false,
        root_reductions: None,
        aspiration_widenings: 3,
        game: ANALYSIS_PLAN,
    };

    /// The profile of `rule`.
    pub const fn of(rule: Rule) -> Profile {
        match rule {
            Rule::Freestyle => Profile::FREESTYLE,
            Rule::Standard => Profile::STANDARD,
            Rule::Renju => Profile::RENJU,
        }
    }

    /// Whether the search needs each move's point value (for pruning or reducing by it).
    pub fn reads_shapes(&self) -> bool {
        self.shape_pruning.is_some() || self.reductions.is_some() || self.move_count.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts the profiles prune from, as designed: Rapfi's growth to depth 10 in
    /// freestyle and renju, `3 + depth²` to depth 3 in standard.
    #[test]
    fn move_counts_grow_as_designed() {
        let deep = Profile::FREESTYLE.move_count.unwrap().counts();
        assert_eq!(&deep[..11], &[3, 4, 5, 7, 9, 11, 13, 16, 18, 21, 23]);
        assert!(deep[11..].iter().all(|&c| c == usize::MAX));
        assert_eq!(Profile::RENJU.move_count.unwrap().counts(), deep);
        let standard = Profile::STANDARD.move_count.unwrap().counts();
        assert_eq!(&standard[..4], &[3, 4, 7, 12]);
        assert!(standard[4..].iter().all(|&c| c == usize::MAX));
    }

    #[test]
    fn the_reduction_table_grows_with_depth_and_move() {
        let t = REDUCTIONS.table();
        assert_eq!((t[0][5], t[5][0], t[1][1]), (0, 0, 0));
        assert!(t[10][20] > t[4][4] && t[63][63] >= t[10][20]);
    }
}
