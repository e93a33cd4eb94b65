//! The threat checks around the search: the root VCT (a forced win of the side to move), the
//! checks of root moves against the opponent's forced win ([`ThreatChecks`]), and the verification
//! of every mate the search reports ([`verify_mates`]). Each win they claim is verified by the
//! solvers' checks before it is believed.

use std::time::{Duration, Instant};

use super::budget::Budget;
use super::eval::{MATE, MATE_BOUND};
use super::params::*;
use super::tt::Bound;
use super::{Candidate, Settings, root};
use crate::board::{Board, Color, Point};
use crate::solve::proof::Attack;
use crate::solve::task::{self, Mode, Task};
use crate::solve::{Cancel, DEFAULT_THREAT_LIMIT, DefenceOrder, Limits, Outcome, verify};

/// The checks of the best moves against the opponent's threats beyond the search's horizon.
/// When the opponent has a forced win were the side to move to pass, the best root move is
/// checked after each iteration and after the pass: if the VCT solver finds a forced win for
/// the opponent after it and the verifier confirms it, the move is proved lost (a verified mate against the side
/// to move, never searched again) and the next best is checked, until one holds.
#[derive(Default)]
pub(super) struct ThreatChecks {
    /// The opponent has a forced win were the side to move to pass.
    pub threatened: bool,
    /// Root moves already checked.
    checked: Vec<Point>,
    /// Time the checks took so far.
    pub spent: Duration,
}

impl ThreatChecks {
    /// Checks the first `count` candidates (in their order, the ones proved lost moving to
    /// the end), at most [`MAX_REFUTATION_CHECKS`] moves in all; true when one was refuted.
    /// Each check ends as the budget says ([`Budget::defence_check`]); without a time limit,
    /// each gets a quarter of the root VCT's node budget.
    pub fn check(
        &mut self,
        board: &Board,
        scored: &mut [Candidate],
        settings: &Settings,
        solver: &mut task::Solver,
        budget: &Budget,
        count: usize,
    ) -> bool {
        let mut refuted = false;
        if !self.threatened {
            return refuted;
        }
        let mut k = 0;
        while k < count.min(scored.len()) && self.checked.len() < MAX_REFUTATION_CHECKS {
            let cand = &mut scored[k];
            if cand.mate_in.is_some() || self.checked.contains(&cand.mv) {
                k += 1;
                continue;
            }
            self.checked.push(cand.mv);
            let now = Instant::now();
            let deadline = budget.defence_check(now, self.spent);
            if deadline.is_some_and(|d| now >= d) {
                break;
            }
            let nodes = settings.threat_nodes(settings.root_vct_nodes / 4);
            let refuted_by = refutation(
                board,
                cand.mv,
                settings,
                solver,
                nodes,
                deadline,
                budget.verify,
            );
            self.spent += now.elapsed();
            match refuted_by {
                // It holds, or the solver could not tell.
                None => k += 1,
                Some((line, moves)) => {
                    let pv = std::iter::once(cand.mv).chain(line).collect();
                    cand.set_exact(-(MATE - 2 * moves), pv);
                    cand.mate_in = Some(-moves);
                    refuted = true;
                    // The next candidate takes this one's place.
                    root::rank_exact_first(scored);
                }
            }
        }
        refuted
    }
}

/// A verified forced win of the side to move at the root: its line and its moves to the
/// five.
pub(super) type RootWin = (Vec<Point>, i32);

/// The VCT solver's forced win for the side to move, verified: its main line and the
/// winner's moves to the five. The search stops at `deadline` or after `nodes` positions
/// ([`Settings::threat_nodes`]), the check at `verify_by` or after `verify_nodes`.
pub(super) fn vct_verified(
    board: &Board,
    settings: &Settings,
    nodes: u64,
    solver: &mut task::Solver,
    deadline: Option<Instant>,
    verify_by: Option<Instant>,
    threat_limits: ThreatLimits,
) -> Option<RootWin> {
    let (proof, depth, threat_limit) = find_vct(
        board,
        board.to_move(),
        nodes,
        solver,
        (deadline, settings.cancel),
        threat_limits,
    )?;
    let limits = Limits {
        depth,
        nodes: settings.verify_nodes,
        deadline: verify_by,
        threat_limit,
        cancel: settings.cancel,
        ..Limits::default()
    };
    verify::proof_with(solver.vct(), board, board.to_move(), &proof, limits).ok()?;
    Some((proof.main_line(), proof.moves_to_five() as i32))
}

/// The threat limits a root VCT searches at: `first`, then each wider one up to `widest`.
#[derive(Clone, Copy, Debug)]
pub(super) struct ThreatLimits {
    first: u32,
    widest: u32,
    /// The unbounded searches start with the solver's quick pass too, on part of the budget
    /// (see [`DEFENCE_QUICK_SHARE`]).
    quick_unbounded: bool,
}

impl ThreatLimits {
    /// The root VCT's: from the given first limit, else the default, up to
    /// [`ROOT_THREAT_LIMIT`] (or the first limit if wider).
    pub fn root(first: Option<u32>) -> ThreatLimits {
        match first {
            Some(first) => ThreatLimits {
                first,
                widest: first.max(ROOT_THREAT_LIMIT),
                quick_unbounded: false,
            },
            None => ThreatLimits::up_to(ROOT_THREAT_LIMIT),
        }
    }

    /// The default limit first (or `widest` if narrower), then wider ones up to `widest`.
    pub fn up_to(widest: u32) -> ThreatLimits {
        ThreatLimits {
            first: DEFAULT_THREAT_LIMIT.min(widest),
            widest,
            quick_unbounded: false,
        }
    }

    /// The checks against the opponent's threats: as [`ThreatLimits::up_to`], with the quick
    /// pass before every unbounded search.
    pub fn defence(widest: u32) -> ThreatLimits {
        ThreatLimits {
            quick_unbounded: true,
            ..ThreatLimits::up_to(widest)
        }
    }
}

/// A forced win of `attacker` (who moves first, whatever the board's side to move) by the VCT
/// solver, short wins first, not yet verified: its proof, the bound on attacker moves and the
/// threat limit it was found within. It stops at `deadline` or after `nodes` positions (0: no
/// search; see [`Settings::threat_nodes`]).
pub(super) fn find_vct(
    board: &Board,
    attacker: Color,
    nodes: u64,
    solver: &mut task::Solver,
    (deadline, cancel): (Option<Instant>, Option<Cancel>),
    threat_limits: ThreatLimits,
) -> Option<(Attack, u32, u32)> {
    let ThreatLimits {
        first,
        widest,
        quick_unbounded,
    } = threat_limits;
    if nodes == 0 {
        return None;
    }
    let mut t = Task::new(Mode::Vct, attacker);
    t.limits.cancel = cancel;
    // The caller's budget ([`Settings::threat_nodes`]); the clock bounds it too.
    t.limits.nodes = nodes;
    t.verify = false;
    // Short wins first: a tight bound finds a quick win far sooner than no bound, and its
    // no-win is cheap; past that, no bound (see `ROOT_VCT_DEPTHS`), all at the first threat
    // limit. Then, once no win is proved there, each wider limit up to the widest without a
    // bound.
    let stages = ROOT_VCT_DEPTHS
        .into_iter()
        .map(|depth| (depth, first))
        .chain((first + 1..=widest).map(|tl| (crate::solve::NO_LIMIT, tl)));
    for (depth, tl) in stages {
        t.limits.depth = depth;
        t.limits.threat_limit = tl;
        // The quick-style pass only under a bound: the unbounded searches are the long ones,
        // which the deep style alone finds sooner (see `vct::search::Style`).
        let quick = crate::solve::vct::search::QUICK_NODES;
        t.limits.quick_nodes = if depth != crate::solve::NO_LIMIT {
            quick
        } else if quick_unbounded {
            quick.min((t.limits.nodes as f64 * DEFENCE_QUICK_SHARE) as u64)
        } else {
            0
        };
        // The unbounded search in the deep style alone tries the defences in board order
        // (see `DefenceOrder::Board`).
        t.limits.defence_order = if depth == crate::solve::NO_LIMIT && t.limits.quick_nodes == 0 {
            DefenceOrder::Board
        } else {
            DefenceOrder::LineThenRefuting
        };
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|left| left.is_zero()) {
            return None;
        }
        // Under a long time limit the unbounded search at the first threat limit leaves the
        // wider limits a share: it may take `FIRST_LIMIT_FLOOR`, or half the time left if
        // that is more.
        let capped = widest > first && tl == first && depth == crate::solve::NO_LIMIT;
        t.time = left.map(|left| {
            if capped {
                left.min(FIRST_LIMIT_FLOOR.max(left / 2))
            } else {
                left
            }
        });
        let verdict = solver.run(board, &t).ok()?;
        t.limits.nodes = t.limits.nodes.saturating_sub(verdict.nodes);
        match verdict.outcome {
            Outcome::Win => return verdict.proof.map(|p| (p, depth, tl)),
            // Its share spent, not the whole time: on to the wider limit.
            Outcome::Unknown if capped && deadline.is_some_and(|d| Instant::now() < d) => {}
            Outcome::Unknown => return None,
            Outcome::NoWin => {}
        }
    }
    None
}

/// Whether root move `mv` loses to a forced win of the opponent that the VCT solver finds
/// (within `deadline` and `nodes`) and the verifier confirms by `verify_by`: then the
/// opponent's line after the move and its moves to the five.
pub(super) fn refutation(
    board: &Board,
    mv: Point,
    settings: &Settings,
    solver: &mut task::Solver,
    nodes: u64,
    deadline: Option<Instant>,
    verify_by: Option<Instant>,
) -> Option<(Vec<Point>, i32)> {
    let mut after = board.clone();
    after.play(mv);
    let limits = ThreatLimits::defence(DEFENCE_THREAT_LIMIT);
    vct_verified(&after, settings, nodes, solver, deadline, verify_by, limits)
}

/// Whether the search's mate for root move `mv` holds: a win (`mate_in > 0`) is checked as a
/// one-move proof, every legal reply shown to lose by a verified search; a loss as the
/// opponent's verified win after the move.
pub(super) fn verify_mate(
    board: &Board,
    mv: Point,
    mate_in: i32,
    settings: &Settings,
    solver: &mut task::Solver,
    deadline: Option<Instant>,
) -> bool {
    let me = board.to_move();
    if mate_in > 0 {
        let mut after = board.clone();
        if after.five_points(me).contains(mv.index()) {
            return true;
        }
        let limits = Limits {
            depth: mate_in as u32,
            count_five: true,
            nodes: settings.verify_nodes,
            threat_limit: 3,
            deadline,
            cancel: settings.cancel,
            ..Limits::default()
        };
        let tree = Attack {
            mv,
            ending: None,
            defences: Vec::new(),
        };
        after.set_to_move(me);
        verify::proof_with(solver.vct(), &after, me, &tree, limits).is_ok()
    } else {
        let mut after = board.clone();
        after.play(mv);
        let mut t = Task::new(Mode::WinIn, me.opponent());
        t.limits.depth = (-mate_in) as u32;
        t.limits.nodes = settings.verify_nodes;
        t.limits.threat_limit = 3;
        t.limits.cancel = settings.cancel;
        t.time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        t.verify = false;
        let Ok(v) = solver.run(&after, &t) else {
            return false;
        };
        let limits = Limits {
            deadline,
            ..t.limits
        };
        v.outcome == Outcome::Win
            && v.proof.as_ref().is_some_and(|p| {
                verify::proof_with(solver.vct(), &after, me.opponent(), p, limits).is_ok()
            })
    }
}

/// The search's mates, verified: a verified one gets its `mate_in`, one that cannot be (or is
/// left no time) is reported as an ordinary decisive score. An upper bound at a winning mate
/// says nothing of a win (the move is no better than the mate it was tested against), so it
/// is not verified; one at a losing mate says the move loses, and is.
pub(super) fn verify_mates(
    board: &Board,
    scored: &mut [Candidate],
    settings: &Settings,
    solver: &mut task::Solver,
    budget: &Budget,
) {
    for cand in scored.iter_mut() {
        if cand.score.abs() > MATE_BOUND && cand.mate_in.is_none() {
            let plies = MATE - cand.score.abs();
            let moves = (plies + 1) / 2;
            let signed = if cand.score > 0 { moves } else { -moves };
            let claims = cand.bound == Bound::Exact || signed < 0;
            if budget.may_verify()
                && claims
                && verify_mate(board, cand.mv, signed, settings, solver, budget.verify)
            {
                cand.mate_in = Some(signed);
            } else {
                cand.score = cand.score.signum() * UNPROVEN_DECISIVE;
            }
        }
    }
}

/// The root VCT's verified win (its line and the winner's moves to the five) joins the
/// candidates: its first move can be a quiet threat that the search's candidates left out
/// (facing a three, they are the defences and the fours).
pub(super) fn join_root_win(scored: &mut Vec<Candidate>, (line, mate_in): RootWin, depth: u32) {
    let mv = line[0];
    let won = Candidate {
        mv,
        score: MATE - (2 * mate_in - 1),
        bound: Bound::Exact,
        mate_in: Some(mate_in),
        mate_minimal: false,
        pv: line,
        depth,
    };
    match scored.iter_mut().find(|c| c.mv == mv) {
        Some(c) if c.mate_in.is_none_or(|n| n > mate_in) => *c = won,
        Some(_) => {}
        None => scored.push(won),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    #[test]
    fn the_root_vct_starts_at_its_first_threat_limit_and_widens() {
        // Black's double three at h8 (freestyle): a win at threat limit 1 (and others at 2),
        // found by the first stage that bounds it (3 attacker moves) at whichever limit
        // comes first.
        let mut board = Board::new(15, Rule::Freestyle).unwrap();
        for (points, color) in [
            ("f8 g8 h7 h6", Color::Black),
            ("a15 o15 a1 o1", Color::White),
        ] {
            for p in points.split(' ') {
                board.put(p.parse().unwrap(), color);
            }
        }
        board.set_to_move(Color::Black);
        let mut solver = task::Solver::new(4).unwrap();
        // The threat limit each search found its win within.
        let mut found = |first, widest| {
            let limits = ThreatLimits {
                first,
                widest,
                quick_unbounded: false,
            };
            find_vct(
                &board,
                Color::Black,
                200_000,
                &mut solver,
                (None, None),
                limits,
            )
            .map(|(_, _, tl)| tl)
        };
        assert_eq!(found(2, 3), Some(2));
        assert_eq!(found(1, 3), Some(1));
        // Fours alone (threat limit 0) do not win; the wider limits that follow do.
        assert_eq!(found(0, 0), None);
        assert_eq!(found(0, 3), Some(1));
        let up_to = ThreatLimits::up_to(3);
        assert_eq!((up_to.first, up_to.widest), (2, 3));
        let narrow = ThreatLimits::up_to(1);
        assert_eq!((narrow.first, narrow.widest), (1, 1));
        for (given, plan) in [
            (None, (2, 3)),
            (Some(1), (1, 3)),
            (Some(3), (3, 3)),
            (Some(5), (5, 5)),
        ] {
            let root = ThreatLimits::root(given);
            assert_eq!((root.first, root.widest), plan, "{given:?}");
        }
    }

    /// A fixed depth makes an analysis the same every run: its threat searches keep their
    /// node budget when a time limit comes with the depth, so the clock changes nothing.
    #[test]
    fn a_fixed_depth_analysis_is_the_same_with_a_time_limit_or_without() {
        // puzzles/vct.txt, vct-renju-5: black's VCT of 5 attacker moves, no VCF.
        let mut board = Board::new(15, crate::board::Rule::Renju).unwrap();
        let moves = "h8 h7 g6 g7 i9 f8 i7 j6 i10 i8 j10 k10 j9 i5 h6 k7 k11 l12 l8 k6";
        for m in moves.split(' ') {
            board.play(m.parse().unwrap());
        }
        let run = |root_vct_nodes, time| {
            let settings = Settings {
                depth: Some(2),
                root_vct_nodes,
                time,
                ..Settings::default()
            };
            let a = crate::analyze::analyze(&board, &settings, |_| {}).unwrap();
            let c = &a.candidates[0];
            (c.mv.to_string(), c.score, c.mate_in, c.pv.len())
        };
        // The root VCT proves the win with its usual budget, and not within 50 positions.
        let (proved, unproved) = (run(200_000, None), run(50, None));
        assert!(
            proved.2.is_some() && unproved.2.is_none(),
            "{proved:?} {unproved:?}"
        );
        let minute = Some(Duration::from_secs(60));
        assert_eq!(run(50, minute), unproved);
        assert_eq!(run(200_000, minute), proved);
    }
}
