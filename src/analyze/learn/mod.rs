//! Fitting the learned evaluation ([`crate::analyze::learned`]) to game results: the data
//! set, the logistic fit (Texel tuning), and tengen's own self-play games for a data set that
//! needs no other engine. `tengen-tune` (examples/tengen-tune.rs) is the command line.
//!
//! **Games** are text, one a line: `RULE RESULT MOVES...` (RULE `freestyle`, `standard` or
//! `renju`; RESULT `B`, `W` or `D`; MOVES in RIF coordinates, black first, on 15x15).
//! `scripts/gen-games.py` writes them from engine matches; [`self_play`] from tengen's own.
//!
//! **Scored positions.** A line `RULE RESULT MOVES... = SCORE` is one position, the one after
//! MOVES, of a game that ended in RESULT, with an engine's score for the side to move there
//! (an integer in the engine's units, `+M` when it mates, `-M` when it is mated), as
//! `scripts/label-positions.py` writes them. RESULT `?` marks a position of no game, such as
//! one the search judged ([`leaves`]): it is labelled by its score alone, and is left out of
//! a loss against the results alone.
//!
//! **Positions.** Every position of a game after its second stone, except where either side
//! has a five to make (the next move decides, and a search never asks the evaluation there).
//! Its label is the game's result for the side to move: 1, ½ or 0. A scored position's label
//! mixes its score's win probability, `σ(score / scale)` (1 or 0 for a mate), with its game's
//! result: `w·σ(score / scale) + (1 − w)·result` ([`Labels`]). The scale is the one that
//! predicts the results from the scores best ([`score_scale`]) unless one is given.
//!
//! **Model.** The evaluation is linear in counts: for each colour, how many empty cells show
//! each class, counted under the side to move's value ("mover") or the other side's
//! ("waiter"), plus a tempo term for the colour to move. The fit minimises the mean
//! cross-entropy of `σ(θ·x)` against the labels, plus `l2·|θ|²`, by full-batch Adam from zero
//! (or from a table's values; then, with [`FitOptions::l2_to_start`], plus `l2·|θ − θ₀|²`: a
//! refit on a few new games stays near what the start learned from many).
//! Values are written as `round(400·θ)`, so the scale is 400 (`p = σ(score/400)`).
//!
//! **Held out.** Every `holdout`-th game (by its position in the input, from a seeded
//! shuffle) is left out of the fit; its loss is reported beside the fit's, the constant
//! predictor's, and the hand-weighted evaluation's (with its best single scale), so a table's
//! provenance says how much it learned.

mod features;
mod fit;
mod games;
mod leaves;
mod order;
mod policy;
mod self_play;
mod table;

pub use features::{Data, Labels, Layout, positions, score_scale};
pub use fit::{FitOptions, constant_loss, fit, fit_from, hand_loss, loss};
pub use games::{GameError, GameRecord, parse_games, split};
pub use leaves::{LeafPlan, leaves};
pub use order::{Hits, TOPS, order_hits, value_hits};
pub use policy::{
    GAP_EDGES, POLICY_WEIGHTS, Sample, fit_policy, policy_gaps, policy_hits, policy_loss, samples,
};
pub use self_play::self_play;
pub use table::{tables, theta_of};

/// The seeded generator of the held-out draw and self-play (the crate's one, re-exported for
/// the code that has named it here).
pub use crate::rng::Rng;

/// Values are the logit times this: the scale of the win probability
/// ([`crate::analyze::eval::WIN_SCALE`]).
pub const SCALE: f64 = crate::analyze::eval::WIN_SCALE;
