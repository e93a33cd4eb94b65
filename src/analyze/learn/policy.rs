//! A learned move order (issue 61): a score for every root candidate from the cell's codes,
//! fitted as a softmax over the candidates to the moves a stronger player chose.
//!
//! **Features** of a candidate cell, for the colour to move: its own class there (what a
//! stone of the mover makes, [`cell_class`]), the opponent's class there (what the move
//! stops), the pair of their threat levels (what it makes against what it stops: twelve
//! levels from nothing to a five, [`level`]), and the pair of how far (Chebyshev, 1 to 4,
//! then farther) it is from the opponent's last stone and from the mover's own. Each is read
//! in the table of the colour to move, so black's and white's shapes are weighed apart
//! (renju's fouls make them differ).
//!
//! **Fit.** The move's probability is the softmax of its summed weights over the root's
//! candidates ([`root::start`]); the fit minimises the mean cross-entropy of the move played,
//! plus `l2·|θ|²`, by full-batch Adam from zero. Positions where the move played is not a
//! candidate are left out (the order cannot place it).

use super::GameRecord;
use super::order::{Hits, TOPS, each_position};
use crate::analyze::Settings;
use crate::analyze::learned::{CLASSES, cell_class, class_codes};
use crate::analyze::root::{self, Start};
use crate::board::{Board, Point, Rule};

/// Distance buckets: 1, 2, 3, 4 and farther (or no such stone).
const DISTANCES: usize = 5;
/// Threat levels of a class ([`level`]).
const LEVELS: usize = 12;
/// Weights for one colour to move: own class, opponent's class, the pair of levels, the pair
/// of distances.
const PER_COLOUR: usize = 2 * CLASSES + LEVELS * LEVELS + DISTANCES * DISTANCES;
/// Every weight: both colours to move.
pub const POLICY_WEIGHTS: usize = 2 * PER_COLOUR;

/// One position: each candidate's feature indexes, and which candidate was played.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Per candidate, in the root's static order: its four feature indexes.
    pub features: Vec<[u16; 4]>,
    /// The candidate played.
    pub played: usize,
}

/// The bucket of the distance from `p` to `q` (none: the farthest).
fn distance_bucket(p: Point, q: Option<Point>) -> usize {
    let Some(q) = q else {
        return DISTANCES - 1;
    };
    let d = p.x().abs_diff(q.x()).max(p.y().abs_diff(q.y())) as usize;
    d.clamp(1, DISTANCES) - 1
}

/// A class's threat level, 0 (nothing) to 11 (a five): what the strongest of its lines and
/// the next make together.
fn level(class: usize) -> usize {
    // Shape codes: 2 open two, 3 closed three, 4 open three, 5 four, 6 straight four, 7 two
    // fours on a line, 8 five (9, an overline that does not win, is nothing).
    let d = class_codes(class).map(|c| if c == 9 { 0 } else { c });
    match (d[0], d[1]) {
        (8, _) => 11,
        (6 | 7, _) | (5, 5) => 10,
        (5, 4) => 9,
        (5, 2 | 3) => 8,
        (5, _) => 7,
        (4, 4) => 6,
        (4, 2 | 3) => 5,
        (4, _) => 4,
        (3, 2 | 3) => 3,
        (3, _) | (2, 2) => 2,
        (2, _) => 1,
        _ => 0,
    }
}

/// The feature indexes of a move by the side to move at `p`.
pub fn features(board: &Board, p: Point) -> [u16; 4] {
    let me = board.to_move();
    let base = me.index() * PER_COLOUR;
    let history = board.history();
    let last = history.last().copied();
    let own_last = history.len().checked_sub(2).map(|k| history[k]);
    let (own, their) = (
        cell_class(board, p.index(), me),
        cell_class(board, p.index(), me.opponent()),
    );
    let levels = level(own) * LEVELS + level(their);
    let distances = distance_bucket(p, last) * DISTANCES + distance_bucket(p, own_last);
    [
        base + own,
        base + CLASSES + their,
        base + 2 * CLASSES + levels,
        base + 2 * CLASSES + LEVELS * LEVELS + distances,
    ]
    .map(|i| i as u16)
}

/// The samples of every position of `games` (of `rule`) from ply `from_ply` on where the side
/// to move does not make five at once and the move played is a root candidate.
pub fn samples(games: &[&GameRecord], rule: Rule, from_ply: usize) -> Vec<Sample> {
    let settings = Settings::default();
    let mut out = Vec::new();
    each_position(games, rule, from_ply, |board, mv| {
        if let Start::Moves(order) = root::start(board, &settings)
            && let Some(played) = order.iter().position(|&(_, m)| m as usize == mv.index())
        {
            let features = order
                .iter()
                .map(|&(_, m)| features(board, Point::from_index(m as usize)))
                .collect();
            out.push(Sample { features, played });
        }
    });
    out
}

/// The candidates' probabilities under `theta` into `p`.
fn softmax(theta: &[f64], s: &Sample, p: &mut Vec<f64>) {
    p.clear();
    p.extend(
        s.features
            .iter()
            .map(|f| f.iter().map(|&i| theta[i as usize]).sum::<f64>()),
    );
    let top = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut z = 0.0;
    for v in p.iter_mut() {
        *v = (*v - top).exp();
        z += *v;
    }
    for v in p.iter_mut() {
        *v /= z;
    }
}

/// The mean cross-entropy of the moves played under `theta`.
pub fn policy_loss(theta: &[f64], samples: &[Sample]) -> f64 {
    let mut p = Vec::new();
    let total: f64 = samples
        .iter()
        .map(|s| {
            softmax(theta, s, &mut p);
            -p[s.played].max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits the weights to `samples`: `steps` full-batch Adam steps of rate `rate`, with `l2`;
/// `report` hears the loss every 50 steps.
pub fn fit_policy(
    samples: &[Sample],
    steps: usize,
    rate: f64,
    l2: f64,
    mut report: impl FnMut(usize, f64),
) -> Vec<f64> {
    let mut theta = vec![0.0; POLICY_WEIGHTS];
    let (mut m, mut v) = (vec![0.0; POLICY_WEIGHTS], vec![0.0; POLICY_WEIGHTS]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = samples.len().max(1) as f64;
    let mut p = Vec::new();
    let mut grad = vec![0.0; POLICY_WEIGHTS];
    for step in 1..=steps {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for s in samples {
            softmax(&theta, s, &mut p);
            for (k, f) in s.features.iter().enumerate() {
                let d = (p[k] - f64::from(u8::from(k == s.played))) / n;
                for &i in f {
                    grad[i as usize] += d;
                }
            }
        }
        for i in 0..POLICY_WEIGHTS {
            let g = grad[i] + 2.0 * l2 * theta[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            theta[i] -= rate * mh / (vh.sqrt() + 1e-8);
        }
        if step % 50 == 0 || step == steps {
            report(step, policy_loss(&theta, samples));
        }
    }
    theta
}

/// The hit rates of an order on `samples`: by `theta`'s scores, or (`None`) the root's
/// static order the samples keep.
pub fn policy_hits(theta: Option<&[f64]>, samples: &[Sample]) -> Hits {
    let mut hits = Hits::default();
    let mut p = Vec::new();
    for s in samples {
        let rank = match theta {
            None => s.played,
            Some(theta) => {
                softmax(theta, s, &mut p);
                let mine = p[s.played];
                // Ties go against the move played: an order that cannot tell it apart has
                // not found it.
                p.iter()
                    .enumerate()
                    .filter(|&(k, &q)| k != s.played && q >= mine)
                    .count()
            }
        };
        hits.positions += 1;
        hits.rank_sum += rank + 1;
        for (n, &top) in hits.within.iter_mut().zip(&TOPS) {
            *n += usize::from(rank < top);
        }
    }
    hits
}

/// The edges (nats behind the best candidate's score) of [`policy_gaps`]'s bins.
pub const GAP_EDGES: [f64; 5] = [0.5, 1.0, 2.0, 3.0, 6.0];

/// How far behind the best candidate (by `theta`) the moves played and all the candidates
/// are: the shares in each bin of [`GAP_EDGES`] (the last bin past the last edge), the
/// played moves' first. What a reduction by the gap would reduce, and how often it would
/// reduce the move the stronger player chose.
pub fn policy_gaps(theta: &[f64], samples: &[Sample]) -> ([f64; 6], [f64; 6]) {
    let (mut played, mut all) = ([0.0; 6], [0.0; 6]);
    let mut p = Vec::new();
    let bin = |gap: f64| GAP_EDGES.iter().filter(|&&e| gap >= e).count();
    let mut candidates = 0.0f64;
    for s in samples {
        softmax(theta, s, &mut p);
        let top = p.iter().copied().fold(0.0, f64::max);
        played[bin((top / p[s.played].max(1e-300)).ln())] += 1.0;
        for &q in p.iter() {
            all[bin((top / q.max(1e-300)).ln())] += 1.0;
            candidates += 1.0;
        }
    }
    let n = samples.len().max(1) as f64;
    (played.map(|x| x / n), all.map(|x| x / candidates.max(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::learn::parse_games;

    /// On a few games the fit lowers the loss from the uniform order's and ranks the moves
    /// played higher than the static order does (in sample: the fit's mechanics, not its
    /// worth, which `tengen-tune policy` measures on held-out games).
    #[test]
    fn a_fit_learns_what_the_player_prefers_and_ranks_it_higher() {
        let text = "freestyle D h8 h9 i9 g7 j10 k11 f6 e5 g6 f7 j8 k7 i7 h6\n\
                    freestyle D h8 i7 g9 f10 j9 k9 g7 f6 i10 j11 h6 g5 j7 k6\n\
                    freestyle D h8 g9 i7 j6 h10 h11 g8 f8 i9 j10 g6 f5 i6 j5\n";
        let games = parse_games(text).unwrap();
        let refs: Vec<&GameRecord> = games.iter().collect();
        let data = samples(&refs, Rule::Freestyle, 2);
        assert!(data.len() > 20, "{}", data.len());
        let before = policy_hits(None, &data);
        let theta = fit_policy(&data, 300, 0.05, 1e-4, |_, _| {});
        let after = policy_hits(Some(&theta), &data);
        assert!(policy_loss(&theta, &data) < policy_loss(&vec![0.0; POLICY_WEIGHTS], &data));
        assert!(after.within[0] > before.within[0], "{before:?} {after:?}");
        assert!(after.rank_sum < before.rank_sum, "{before:?} {after:?}");
        // The moves played sit nearer the best candidate than the candidates do.
        let (played, all) = policy_gaps(&theta, &data);
        for shares in [played, all] {
            assert!(
                (shares.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                "{shares:?}"
            );
        }
        assert!(
            played[0] > all[0] && played[5] < all[5],
            "{played:?} {all:?}"
        );
    }

    /// The feature indexes stay in range and tell the colours to move apart.
    #[test]
    fn features_are_in_range_and_per_colour() {
        let mut b = Board::new(15, Rule::Renju).unwrap();
        let p: Point = "h9".parse().unwrap();
        b.play("h8".parse().unwrap());
        let white = features(&b, p);
        b.play("a1".parse().unwrap());
        let black = features(&b, p);
        for f in white.iter().chain(&black) {
            assert!((*f as usize) < POLICY_WEIGHTS);
        }
        let base = |c: crate::board::Color| c.index() * PER_COLOUR;
        let white_base = base(crate::board::Color::White);
        let black_base = base(crate::board::Color::Black);
        assert_ne!(white_base, black_base);
        assert!(
            white
                .iter()
                .all(|&i| (white_base..white_base + PER_COLOUR).contains(&(i as usize)))
        );
        assert!(
            black
                .iter()
                .all(|&i| (black_base..black_base + PER_COLOUR).contains(&(i as usize)))
        );
        // h9 is next to black's h8 (white's opponent's last stone), and white has no stone.
        let distances = white_base + 2 * CLASSES + LEVELS * LEVELS;
        assert_eq!(white[3] as usize, distances + DISTANCES - 1);
        // Black's h9 is next to its own h8 and far from white's a1.
        let distances = black_base + 2 * CLASSES + LEVELS * LEVELS;
        assert_eq!(black[3] as usize, distances + (DISTANCES - 1) * DISTANCES);
    }
}
