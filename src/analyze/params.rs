//! Every tunable constant of the analyzer, documented once. A change to one is kept when a
//! match says so (see the README's analyzer notes), and the figures behind each are in its
//! comment.

use std::time::Duration;

use crate::board::Rule;

/// **Phases of a time limit** (fractions of it, from the analysis's start): the iterations run
/// until [`ITERATIONS_END`] and start none after [`NO_ITERATION_AFTER`]; the pass that scores
/// the best `top` exactly runs until [`PASS_END`]; verification of mates has until
/// [`VERIFY_END`]. A node limit is split likewise: [`ITERATIONS_END`] for the iterations, the
/// rest for the pass. On one thread the root VCT may take `Settings::vct_share` (at most
/// [`VCT_SHARE_CAP`]).
pub const ITERATIONS_END: f64 = 0.80;
/// See [`ITERATIONS_END`].
pub const NO_ITERATION_AFTER: f64 = 0.55;
/// In a game (`Settings::game`, the brain) under the rules of [`GAME_LONG_ITERATION_RULES`],
/// the iterations run until [`GAME_ITERATIONS_END`] and start none after
/// [`GAME_NO_ITERATION_AFTER`] instead: a game needs the best move, not the best `top` scored
/// exactly, so the pass gets no share of its own (the checks after each iteration still test
/// the best against the opponent's threat). At 1 s a move against Rapfi the brain used 403 ms
/// a move where Rapfi used 356, but the moves it thought about took 500-800 ms where Rapfi's
/// took 900-980. Self-play at 200 ms a move, against 0.8 and 0.55 (2026-11-28): freestyle
/// 185-13-138, +49 (+13 to +86), SPRT H1 after 336 games; renju 179-6-176 over 361, +3
/// (flat), so renju kept 0.8 and 0.55 then. Standard is not measured and keeps them. Then
/// 0.96 and 0.75 instead of 0.92 and 0.7, with the brain's smaller safety margin and no early
/// stop for a stable move under a turn limit alone (`protocol::clock`), all three together
/// against the three before (2026-11-28, freestyle, 200 ms): 313-15-272 over 600 games, +24
/// (-4 to +52), a move 96 ms against 80 on average, depth 6.6 against 6.2. Renju, 0.96 and
/// 0.75 against its 0.8 and 0.55, the margin and the stable move as above on both sides
/// (2026-11-28, 4bf1182): 219-4-168 over 391 games, +46 (+11 to +81), SPRT H1; a move 88 ms
/// against 73, depth 6.8 against 6.4. Standard is not measured and keeps 0.8 and 0.55.
pub const GAME_ITERATIONS_END: f64 = 0.96;
/// See [`GAME_ITERATIONS_END`].
pub const GAME_LONG_ITERATION_RULES: [Rule; 2] = [Rule::Freestyle, Rule::Renju];
/// See [`GAME_ITERATIONS_END`].
pub const GAME_NO_ITERATION_AFTER: f64 = 0.75;
/// See [`ITERATIONS_END`].
pub const PASS_END: f64 = 0.90;
/// See [`ITERATIONS_END`].
pub const VERIFY_END: f64 = 0.97;
/// See [`ITERATIONS_END`].
pub const VCT_SHARE_CAP: f64 = 0.8;
/// A VCT on a thread of its own may use the search's whole time and a little more (to 94%,
/// its verification to 97%): `vct_black_long` needed about 0.85 s of a one-second analysis,
/// and with the search's 90% it was found in 4 runs of 11 on a busy machine, against 7 of 7
/// with 94% (now, with its solver's larger table and a faster board, it is found and verified
/// 0.59-0.67 s in). The analysis then ends a few tens of milliseconds later when the VCT
/// finds nothing.
pub const PARALLEL_VCT_END: f64 = 0.94;
/// The opponent's threat search (were the side to move to pass) ends by this share of the
/// time at the latest.
pub const THREAT_CHECK_END: f64 = 0.45;
/// Each check of a root move against the opponent's threat ends by this share at the latest.
pub const DEFENCE_END: f64 = 0.9;

/// **Late-move reductions**: a move is reduced a ply at depth [`REDUCE_FROM_DEPTH`] or more
/// from the [`REDUCE_FROM_MOVE`]th move on (counting from 0), two plies from the
/// [`REDUCE_MORE_FROM_MOVE`]th, when the node is not forced and the move is quiet (its
/// ordering value below [`QUIET_BELOW`]: not the table move, not a killer, no three or better
/// made or stopped). Reductions growing as `ln depth · ln move` scored 54.3% (freestyle) and
/// 50.5% (renju) against these over 480 games a rule, and were left out.
pub const REDUCE_FROM_DEPTH: i32 = 3;
/// See [`REDUCE_FROM_DEPTH`].
pub const REDUCE_FROM_MOVE: usize = 3;
/// See [`REDUCE_FROM_DEPTH`].
pub const REDUCE_MORE_FROM_MOVE: usize = 10;
/// See [`REDUCE_FROM_DEPTH`].
pub const QUIET_BELOW: i32 = 5_000;

/// The share of a time limit the opponent's threat search may take, and each check of a move
/// against it.
pub const THREAT_SHARE: f64 = 0.1;

/// The share of a time limit all the checks of moves against the threat may take together
/// (short iterations each bring a check, and a check the solver cannot decide takes its whole
/// share).
pub const DEFENCE_SHARE: f64 = 0.25;

/// Most root moves checked for a refutation in one analysis.
pub const MAX_REFUTATION_CHECKS: usize = 12;

/// Half-width of the aspiration window of a root move searched exactly.
pub const ASPIRATION: i32 = 40;
/// How many times a root move's failed aspiration window is widened (its failed side moved
/// past the score by 80, 160, then 320) before the full window. Against going to the full
/// window at the first fail, self-play at 200 ms a move (2026-11-29, freestyle, against ae9e858's
/// search in the same env-switched build, openings seed 5406): 310-26-264 over 600 games,
/// +27 (-0 to +54), no SPRT(0, 30) decision (LLR +1.8); depth 7.4 against 7.4, 173-15-112 as
/// black and 137-11-152 as white. Kept on that (as the renju table of f167dc5 was, at +27,
/// -1 to +55). Renju, the same build (seed 5408): 95-2-120 over 217, -40 (-88 to +6), SPRT
/// H0, so renju keeps the full window at once ([`ASPIRATION_WIDENING_RULES`]); standard is not
/// measured and keeps it too.
pub const ASPIRATION_WIDENINGS: u32 = 3;
/// The rules whose failed aspiration windows widen in steps (see [`ASPIRATION_WIDENINGS`]).
pub const ASPIRATION_WIDENING_RULES: [Rule; 1] = [Rule::Freestyle];

/// The least time the root VCT's unbounded search at its first threat limit gets before a
/// wider limit (see `find_vct`): at the default second it has all the time. Past about two
/// seconds the wider limit gets half: `vct_small_but_long` needs threat limit 3 (1.3M nodes
/// there against 7.1M at 2), and at 8 s the analysis used to spend all its time at 2.
pub const FIRST_LIMIT_FLOOR: Duration = Duration::from_secs(1);

/// The root VCT's bounds on attacker moves, tried in turn: the quick short wins, then no
/// bound. Over the 61 public VCT cases not tagged heavy, this order found every win in 25.4 s
/// in all, against 36.6 s for 3, 5, 8, 12 and no bound (the middle bounds were often dearer
/// than no bound; a bound's no-win is no cheaper than the win without one).
pub const ROOT_VCT_DEPTHS: [u32; 3] = [3, 5, crate::solve::NO_LIMIT];

/// The root VCT's widest threat limit: by default 2 first, then 3 once 2 has no win.
pub const ROOT_THREAT_LIMIT: u32 = 3;

/// Positions a search thread visits a second, rounded up, for sizing the tables to a time
/// limit.
pub const SIZING_NPS: f64 = 2.0e6;

/// Nodes and depth of each VCF the quiescence step runs.
pub const LEAF_VCF_NODES: u64 = 300;
/// See [`LEAF_VCF_NODES`].
pub const LEAF_VCF_DEPTH: u32 = 10;

/// **Quiescence over fours** (`Settings::four_quiescence`), in the rules of
/// [`QUIESCENCE_FOUR_RULES`]: at the horizon, after the VCF finds no win, the side to move
/// may play up to this many fours in a row, each answered by its forced block, and keep the
/// best static value on the way (Rapfi's classical search does the like at its depth 0). The
/// nodes it plays count as search nodes; it never yields a mate. Self-play at 200 ms a move
/// against the search without it (2026-11-28, 56f24d0's search, the same build with it off):
/// freestyle 315-18-267 over 600 games, +28 Elo (+1 to +56), depth a move 6.5 against 6.5;
/// renju flat (see [`QUIESCENCE_FOUR_RULES`]).
pub const QUIESCENCE_FOURS: u32 = 2;
/// See [`QUIESCENCE_FOURS`]. Renju, the same test: 310-11-279 over 600 games, +18 (-10 to
/// +46), depth 6.4 against 6.3: flat, so renju keeps the plain horizon, as its match against
/// Rapfi measured it. Standard is not measured and keeps it too.
pub const QUIESCENCE_FOUR_RULES: [Rule; 1] = [Rule::Freestyle];

/// How many moves of a node are picked by a linear scan before the rest are sorted.
pub const LAZY_PICKS: usize = 3;

/// In the checks against the opponent's threats, an unbounded VCT search first runs the
/// solver's quick pass on this share of its budget (at most the solver's own quick budget),
/// then the deep style on the rest. Of 18 positions where Rapfi's eval jumped to a mate right
/// after a tengen move (freestyle, 1 s a move), the VCT after the move was found by the quick
/// style in 2,550 nodes where the deep one alone had not found it in 44,600.
pub const DEFENCE_QUICK_SHARE: f64 = 0.5;

/// **Shape pruning** (`Settings::shape_pruning`): at depth [`SHAPE_PRUNING_DEPTH`] or less,
/// off the principal line (a null window), when the node is not forced, from the
/// [`SHAPE_PRUNING_FROM_MOVE`]th move on (counting from 0), a move that is neither the table
/// move nor a killer and whose point value (what it makes plus four fifths of what it stops,
/// `eval::point_value`) is below [`NO_SHAPE_BELOW`] (an open two's 90) is not searched.
pub const SHAPE_PRUNING_DEPTH: i32 = 3;
/// See [`SHAPE_PRUNING_DEPTH`].
pub const SHAPE_PRUNING_FROM_MOVE: usize = 4;
/// See [`SHAPE_PRUNING_DEPTH`].
pub const NO_SHAPE_BELOW: i32 = 90;

/// **Move-count pruning** (`Settings::move_count_pruning`): at depth [`MOVE_COUNT_DEPTH`] or
/// less, off the principal line (a null window), when the node is not forced (in renju, forced
/// nodes too: [`FORCED_REDUCTION_RULES`]), the moves from the `MOVE_COUNT_BASE + depth²`th on
/// (counting from 0: the 4th at depth 1, the 7th at 2, the 12th at 3) that are neither the table move nor a killer and make or stop less than an
/// open three (point value below [`LMR_KEEP_FROM`]) are not searched. Self-play at 200 ms a
/// move against the search without it (2026-11-27, sequential tests `--sprt=0,30` that
/// stopped early with H1): renju 83-5-46, +98 Elo (+41 to +162) over 134 games, depth 7.3
/// against 6.8; freestyle 83-1-46, +102 (+42 to +168) over 130 games, depth 6.4 against 5.6.
pub const MOVE_COUNT_DEPTH: i32 = 3;
/// See [`MOVE_COUNT_DEPTH`].
pub const MOVE_COUNT_BASE: usize = 3;

/// **Deep move-count pruning**, in the rules of [`DEEP_MOVE_COUNT_RULES`] instead of the
/// above (Rapfi's counts): at depth [`DEEP_MOVE_COUNT_DEPTH`] or less, off the principal line,
/// when the node is not forced (in renju, forced nodes too: [`FORCED_REDUCTION_RULES`]) and a
/// move that does not lose is already in hand, the moves from the
/// `MOVE_COUNT_BASE + depth^DEEP_MOVE_COUNT_EXPONENT`th on (counting from 0: the 4th, 5th, 7th,
/// 9th, 11th, 13th, 16th, 18th, 21st and 23rd at depths 1 to 10) that are neither the table
/// move nor a killer and make or stop less than a four (point value below
/// [`DEEP_MOVE_COUNT_KEEP_FROM`]; open-three moves are pruned by count too) are not searched.
/// Measured as one piece with [`CUT_NODE_REDUCTION_RULES`] and [`TABLE_VALUE_FUTILITY_RULES`]:
/// see [`CUT_NODE_REDUCTION_RULES`].
pub const DEEP_MOVE_COUNT_RULES: [Rule; 2] = [Rule::Freestyle, Rule::Renju];
/// See [`DEEP_MOVE_COUNT_RULES`].
pub const DEEP_MOVE_COUNT_DEPTH: i32 = 10;
/// See [`DEEP_MOVE_COUNT_RULES`].
pub const DEEP_MOVE_COUNT_EXPONENT: f64 = 1.32;
/// See [`DEEP_MOVE_COUNT_RULES`].
pub const DEEP_MOVE_COUNT_KEEP_FROM: i32 = 600;

/// **Cut-node reductions**, in these rules: a late move at an expected cut node (a null-window
/// node below a null-window search, told apart as Stockfish's and Rapfi's searches do: the
/// child of a reduced search is one, the child of a full-depth null-window search is the
/// opposite of its parent) is reduced a ply more. With [`DEEP_MOVE_COUNT_RULES`] and
/// [`TABLE_VALUE_FUTILITY_RULES`], one piece, self-play at 200 ms a move against the search
/// without the three (2026-11-29, 58e52f2's search, `--sprt=0,30`, an env-switched build):
/// freestyle 313-20-267 over 600 games, +27 Elo (−1 to +54), no decision (LLR +1.8); 176-7-117
/// as black, 137-13-150 as white; depth 7.5 against 7.2, about half the positions to depth 9 on
/// the freestyle midgame positions; renju (seed 5504) 319-12-269 over 600, +29 (+2 to +57), no
/// decision (LLR +2.1); 155-5-140 as black, 164-7-129 as white; depth 7.6 against 7.0. Standard
/// is not measured and keeps the old search. Halving the counts when the static value is not
/// above the one two plies up (Rapfi's "improving"), on top, freestyle: 131-10-122 over 263
/// (+12), stopped. Each alone had leaned positive and not decided: deep move-count pruning
/// (without the halving) +10 over 865 freestyle games and +22 over 600 renju games, cut-node
/// reductions +9 over 600 freestyle games, the table's value +13 over 601.
pub const CUT_NODE_REDUCTION_RULES: [Rule; 2] = [Rule::Freestyle, Rule::Renju];

/// **The table's value for reverse futility**, in these rules: when the node's table entry
/// says its score is a better estimate than the static value (an exact score; a lower bound
/// above the static value; an upper bound below it), reverse futility
/// ([`RFP_DEPTH`]) compares that score with beta instead (Rapfi's). See
/// [`CUT_NODE_REDUCTION_RULES`] for its match.
pub const TABLE_VALUE_FUTILITY_RULES: [Rule; 2] = [Rule::Freestyle, Rule::Renju];

/// **Late-move reductions from a table** (`Settings::lmr_table`, instead of the fixed one or
/// two plies above): the `k`th move (from 0) at `depth` is reduced by
/// `LMR_BASE + ln depth · ln k / LMR_DIVISOR` plies (rounded down), one less on the principal
/// line, one more for a move with no shape (below [`NO_SHAPE_BELOW`]), from the
/// [`LMR_FROM_MOVE`]th move on at depth 2 or more, never for the table move, a killer, a
/// forced node (but in the rules of [`FORCED_REDUCTION_RULES`]) or a move whose point value
/// reaches [`LMR_KEEP_FROM`] (an open three made or stopped), and never below depth 1.
pub const LMR_BASE: f64 = 0.3;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.0;
/// See [`LMR_BASE`].
pub const LMR_FROM_MOVE: usize = 2;
/// See [`LMR_BASE`].
pub const LMR_KEEP_FROM: i32 = 500;

/// **Root reductions** (`Settings::root_reductions`): in an iteration of depth
/// [`ROOT_LMR_DEPTH`] or more, a root move of rank [`ROOT_LMR_FROM`] or later (by the last
/// iteration, from 0) whose point value is below [`LMR_KEEP_FROM`] is first tested against
/// the best move's score at a depth reduced by the table's reduction (one more with no shape,
/// below [`NO_SHAPE_BELOW`]), leaving at least 2 plies; a move that beats the best there is
/// tested again at the full depth. Its bound then reports the depth it was searched to.
pub const ROOT_LMR_DEPTH: i32 = 4;
/// See [`ROOT_LMR_DEPTH`].
pub const ROOT_LMR_FROM: usize = 3;

/// **Futility pruning** (`Settings::futility`): at depth [`FUTILITY_DEPTH`] or less, off the
/// principal line, when the node is not forced and the static value plus
/// `FUTILITY_MARGIN · depth` is at most alpha, every move after the first that is neither the
/// table move nor a killer and makes or stops less than an open three is not searched.
pub const FUTILITY_DEPTH: i32 = 2;
/// See [`FUTILITY_DEPTH`].
pub const FUTILITY_MARGIN: i32 = 200;

/// **Null-move pruning** (`Settings::null_move`): at depth [`NULL_MOVE_DEPTH`] or more, off the
/// principal line, when the node is not forced and its static value reaches beta, the side to
/// move passes and a search [`NULL_MOVE_REDUCTION`] plies shallower (and one for the pass) is
/// asked whether beta still holds; a mate score from it is not trusted.
pub const NULL_MOVE_DEPTH: i32 = 3;
/// See [`NULL_MOVE_DEPTH`].
pub const NULL_MOVE_REDUCTION: i32 = 2;

/// **Reverse futility pruning** (`Settings::reverse_futility`): at depth [`RFP_DEPTH`] or
/// less, off the principal line, when the node is not forced (the opponent has no winning
/// threat and no VCF were the side to move to pass) and its static value is at least beta
/// plus `RFP_MARGIN · depth`, the node returns its static value without a move searched:
/// that far above beta, a move is taken to keep it there. 6x fewer nodes to depth 8 on
/// `puzzles/midgame.txt`. Self-play at 200 ms a move against the search without it
/// (2026-11-27, sequential tests `--sprt=0,30`, both accepted H1): renju 106-3-66, +81 Elo (+30
/// to +136) over 175 games, depth 7.4 against 6.5; freestyle 190-6-142, +50 (+13 to +87) over
/// 338 games, depth 6.9 against 6.2. Against it, each stopped flat: a margin of
/// `RFP_MARGIN · (depth − 1)` (none at depth 1), renju 197-8-185 (+11); 90 a ply, renju
/// 235-3-208 (+21, −11 to +54) and freestyle 114-4-123 (−13); 160, freestyle 71-6-84 (−28).
pub const RFP_DEPTH: i32 = 8;
/// See [`RFP_DEPTH`].
pub const RFP_MARGIN: i32 = 120;

/// **Reductions in forced nodes** (`Settings::forced_reductions`): in these rules, a node
/// where the side to move must answer a winning threat (an open three or better of the
/// opponent, or its VCF were the side to pass) reduces its late moves and prunes them by count
/// as any other node does (the tight defence leaves few moves there: the points that defuse
/// every threat and the side's own fours, which are never reduced). Self-play at 200 ms a move
/// against the search without it (2026-11-27, a531a71's search, `--sprt=0,30`): renju
/// 325-2-273 over 600 games, +30 Elo (+2 to +58), depth 7.1 against 7.0; freestyle 117-5-130
/// over 252 (stopped, LLR -2.1), -18, so freestyle keeps forced nodes whole.
pub const FORCED_REDUCTION_RULES: [Rule; 1] = [Rule::Renju];

/// **The horizon's trust in the node above's "no VCF"** (`Settings::vcf_from_parent`) holds
/// exactly under freestyle and standard (`search::stone_never_helps_vcf`). Under these rules
/// too it is used though it is not exact: in renju the defender's stone between the two nodes
/// can change a foul (a white stone can break up the double three that barred a black four; a
/// black stone can make the forbidden point that white's VCF forces black onto), so the
/// horizon may miss a VCF that the stone made. Only a horizon win can be missed, never one
/// made up, and a mate the search reports is verified before it is printed. Self-play at
/// 200 ms a move against the search that keeps every renju horizon VCF (2026-11-28, ea8182b's
/// search, `--sprt=0,30`): 294-6-237 over 537 games, +37 Elo (+8 to +67), SPRT H1; depth 6.7 against
/// 6.4. Over 20 random renju positions of the tests (depth 3 and 4) no value changed.
pub const VCF_FROM_PARENT_INEXACT_RULES: [Rule; 1] = [Rule::Renju];

/// **Stand pat before the horizon's VCF** (`Settings::stand_pat_first`, in these rules): at
/// the horizon a static value at beta or above is returned before the side to move's VCF is
/// looked for (a mate could only fail higher). In freestyle midgames at 1 s the horizon's
/// VCFs found a win in 40-80% of their calls, in the lines that leave a VCF unanswered, and
/// with the checks of the opponent's VCF they were two to three positions for each one
/// searched; standing pat first halved the horizon's VCF calls. Self-play
/// at 200 ms a move against the search without it (2026-11-29, 3da6970's search,
/// `--sprt=0,30`): freestyle 153-8-109 over 270 games, **+57 Elo (+16 to +100)**, SPRT H1,
/// depth 7.6 against 7.2; renju 290-13-233 over 536, **+37 (+8 to +67)**, SPRT H1, depth 8.0
/// against 7.5. Standard not measured (off).
pub const STAND_PAT_FIRST_RULES: [Rule; 2] = [Rule::Freestyle, Rule::Renju];

/// **History with gravity** (`Settings::history_gravity`, in [`HISTORY_GRAVITY_RULES`]): a
/// move that cuts gains `min(16 · depth², HISTORY_BONUS_CAP)` in the side's history, and each
/// quiet move searched before it at that node (below [`QUIET_BELOW`]) loses as much; each
/// change is damped by how far the value already is from zero (`h += b − h · |b| /
/// HISTORY_MAX`), so a value stays within ±`HISTORY_MAX` and recent cuts weigh most.
/// Without it a move's history only grows (`depth²` a cut), and after a few thousand cuts
/// it outweighs the point values that order the moves. Self-play at 200 ms a move against
/// the search without it (2026-11-28, ea8182b's search, `--sprt=0,30`): freestyle
/// 315-13-272 over 600 games, +25 Elo (−3 to +53), LLR 1.5 (no decision); depth 6.6 against
/// 6.6. Off until more games decide. To depth 9 on `puzzles/midgame.txt` it searched 5-60%
/// fewer positions in freestyle but up to 45% more in renju (where it is not tried yet).
pub const HISTORY_MAX: i32 = 1024;
/// See [`HISTORY_MAX`].
pub const HISTORY_BONUS_CAP: i32 = 1200;
/// See [`HISTORY_MAX`].
pub const HISTORY_GRAVITY_RULES: [Rule; 1] = [Rule::Freestyle];

/// Deepest iteration without a depth limit.
pub const MAX_ITERATION: u32 = 60;
/// A mate the search found but the verifier could not confirm: decisive, but not a mate.
pub const UNPROVEN_DECISIVE: i32 = 9_000;
/// Point values ([`super::eval::point_value`]) per evaluation point at `--depth 1`: an open
/// three's 500 is 100, the initiative it is worth on the evaluation's scale.
pub const POINT_SCALE: i32 = 5;

/// **Internal iterative reduction** (`Settings::iir`): a node at depth [`IIR_DEPTH`] or more
/// with no table move is searched one ply shallower: without a move from an earlier search its
/// ordering is a guess, and the shallower search is what fills the table for the next
/// iteration. Off: self-play at 200 ms, renju, 600 games, +5 Elo (−23 to +32).
pub const IIR_DEPTH: i32 = 4;

/// In a renju game (the brain), the share of a move's time the root VCT may take before the
/// search on one thread, instead of `Settings::vct_share`'s 0.3: the search gets the time
/// back. Self-play at 200 ms a move, 0.12 against 0.3 (2026-11-27): renju 314-3-283 (+18, -10
/// to +46) and 312-11-277 (+20, -7 to +48), together 626-14-560 over 1,200 games, +19 (about
/// -1 to +39); freestyle 298-16-286 (+7, -20 to +34), so freestyle keeps 0.3.
/// An analysis keeps 0.3: its root VCT finds the long wins of the public cases in that time.
pub const GAME_RENJU_VCT_SHARE: f64 = 0.12;
