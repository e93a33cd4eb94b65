//! The analysis's time plan and the constants every rule shares. What differs by rule is in
//! [`super::profile`]. Each value's record (the match or the measurement that set it) is in
//! [docs/strength.md](../../docs/strength.md#the-constants-records).

use std::time::Duration;

/// **Phases of a time limit** (fractions of it, from the analysis's start): the iterations run
/// until [`ITERATIONS_END`] and start none after [`NO_ITERATION_AFTER`]; the pass that scores
/// the best `top` exactly runs until [`PASS_END`]; verification of mates has until
/// [`VERIFY_END`]. A node limit is split likewise: [`ITERATIONS_END`] for the iterations, the
/// rest for the pass. A game follows its profile's plan instead ([`super::profile::GamePlan`]).
pub const ITERATIONS_END: f64 = 0.80;
/// See [`ITERATIONS_END`]. A later last iteration (0.7) was flat.
pub const NO_ITERATION_AFTER: f64 = 0.55;
/// See [`ITERATIONS_END`].
pub const PASS_END: f64 = 0.90;
/// See [`ITERATIONS_END`].
pub const VERIFY_END: f64 = 0.97;
/// On one thread, the share of the time the root VCT may take before the search
/// (`Settings::vct_share`): the long public wins need it in an analysis.
pub const VCT_SHARE: f64 = 0.3;
/// The most a caller's `vct_share` may be.
pub const VCT_SHARE_CAP: f64 = 0.8;
/// A VCT on a thread of its own may use the search's whole time and a little more: the
/// longest public win needs about 0.85 s of a one-second analysis on a busy machine.
pub const PARALLEL_VCT_END: f64 = 0.94;
/// The opponent's threat search (were the side to move to pass) ends by this share of the
/// time at the latest.
pub const THREAT_CHECK_END: f64 = 0.45;
/// Each check of a root move against the opponent's threat ends by this share at the latest.
pub const DEFENCE_END: f64 = 0.9;
/// The share of a time limit the opponent's threat search may take, and each check of a move
/// against it.
pub const THREAT_SHARE: f64 = 0.1;
/// The share of a time limit all the checks of moves against the threat may take together
/// (short iterations each bring a check, and a check the solver cannot decide takes its whole
/// share).
pub const DEFENCE_SHARE: f64 = 0.25;

/// Most root moves checked for a refutation in one analysis.
pub const MAX_REFUTATION_CHECKS: usize = 12;

/// The widest threat limit (see `solve --threat-limit`) of the checks against the opponent's
/// threats: 4 catches wins that need more but costs more than it saves.
pub const DEFENCE_THREAT_LIMIT: u32 = 2;

/// In the checks against the opponent's threats, an unbounded VCT search first runs the
/// solver's quick pass on this share of its budget (at most the solver's own quick budget),
/// then the deep style on the rest: the quick style finds the wins right after a move that
/// the deep one alone misses.
pub const DEFENCE_QUICK_SHARE: f64 = 0.5;

/// Half-width of the aspiration window of a root move searched exactly.
pub const ASPIRATION: i32 = 40;

/// The least time the root VCT's unbounded search at its first threat limit gets before a
/// wider limit (see `find_vct`): at the default second it has all the time; past about two
/// seconds the wider limit gets half, which the wins that need threat limit 3 want.
pub const FIRST_LIMIT_FLOOR: Duration = Duration::from_secs(1);

/// The root VCT's bounds on attacker moves, tried in turn: the quick short wins, then no
/// bound (middle bounds cost more than no bound, and a bound's no-win is no cheaper).
pub const ROOT_VCT_DEPTHS: [u32; 3] = [3, 5, crate::solve::NO_LIMIT];

/// The root VCT's widest threat limit: by default 2 first, then 3 once 2 has no win.
pub const ROOT_THREAT_LIMIT: u32 = 3;

/// Positions a search thread visits a second, rounded up, for sizing the tables to a time
/// limit.
pub const SIZING_NPS: f64 = 2.0e6;

/// How many moves of a node are picked by a linear scan before the rest are sorted: most cuts
/// come from the first moves.
pub const LAZY_PICKS: usize = 3;

/// Deepest iteration without a depth limit.
pub const MAX_ITERATION: u32 = 60;
/// A mate the search found but the verifier could not confirm: decisive, but not a mate.
pub const UNPROVEN_DECISIVE: i32 = 9_000;
/// Point values ([`super::eval::point_value`]) per evaluation point at `--depth 1`: an open
/// three's 500 is 100, the initiative it is worth on the evaluation's scale.
pub const POINT_SCALE: i32 = 5;
