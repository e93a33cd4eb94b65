//! What the fit sees of a position: its counts over the parameters ([`Layout`], [`Data`]) and
//! its label ([`Labels`]).

use super::GameRecord;
use super::fit::{cross_entropy, sigmoid};
use crate::analyze::eval::{Weights, evaluate};
use crate::analyze::learned::{
    CLASSES, COUNT_INDEXES, THREAT_MASKS, cell_class, count_index, threat_category, threat_mask,
};
use crate::board::{Board, Color, Rule};

/// Positions as sparse counts over the parameters (see [`Layout`]).
#[derive(Default)]
pub struct Data {
    /// Per position: where its features start in `index`/`count` (one more at the end).
    pub(super) start: Vec<u32>,
    pub(super) index: Vec<u32>,
    pub(super) count: Vec<f32>,
    pub(super) label: Vec<f32>,
    /// The hand-weighted evaluation of each position, for comparison.
    pub(super) hand: Vec<f32>,
}

impl Data {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.label.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    pub(super) fn features(&self, k: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
        self.index[a..b]
            .iter()
            .zip(&self.count[a..b])
            .map(|(&i, &c)| (i as usize, c))
    }
}

/// Where each value sits in the parameter vector: per colour (one block for both outside
/// renju) and side (mover, waiter), the classes; then the two tempo terms; the threat masks
/// and the count term; then, with late values, the classes again (added from
/// `late_from` stones on).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Whether black and white have tables of their own (renju).
    pub split: bool,
    /// Whether the threat masks and the count term have values.
    pub threats: bool,
    /// Whether the classes have late values.
    pub late: bool,
}

impl Layout {
    /// For a rule.
    pub fn of(rule: Rule) -> Layout {
        Layout {
            split: rule == Rule::Renju,
            threats: true,
            late: false,
        }
    }

    /// For a rule, with late values from `late_from` stones on (0: none).
    pub fn with_late(rule: Rule, late_from: u32) -> Layout {
        Layout {
            late: late_from > 0,
            ..Layout::of(rule)
        }
    }

    /// The parameters in all.
    pub fn params(self) -> usize {
        self.late_start()
            + if self.late {
                self.blocks() * CLASSES
            } else {
                0
            }
    }

    /// Where the late values start (after every other value).
    fn late_start(self) -> usize {
        self.blocks() * CLASSES
            + 2
            + if self.threats {
                2 * (THREAT_MASKS + COUNT_INDEXES)
            } else {
                0
            }
    }

    /// The late value of `class` of `color`'s cells (see [`Layout::slot`]).
    pub fn late_slot(self, color: Color, mover: bool, class: usize) -> usize {
        self.late_start() + self.slot(color, mover, class)
    }

    /// The parameter of the threat mask `mask` when `color` is to move.
    pub fn threat(self, color: Color, mask: usize) -> usize {
        let c = if self.split { color.index() } else { 0 };
        self.blocks() * CLASSES + 2 + c * THREAT_MASKS + mask
    }

    /// The parameter of the count index `index` when `color` is to move.
    pub fn count(self, color: Color, index: usize) -> usize {
        let c = if self.split { color.index() } else { 0 };
        self.blocks() * CLASSES + 2 + 2 * THREAT_MASKS + c * COUNT_INDEXES + index
    }

    fn blocks(self) -> usize {
        if self.split { 4 } else { 2 }
    }

    /// The parameter of `class` of `color`'s cells when `mover` says whether it is to move.
    pub fn slot(self, color: Color, mover: bool, class: usize) -> usize {
        let c = if self.split { color.index() } else { 0 };
        (2 * c + usize::from(!mover)) * CLASSES + class
    }

    /// The tempo term of the colour to move.
    pub fn tempo(self, color: Color) -> usize {
        self.blocks() * CLASSES + color.index()
    }
}

/// How a scored position is labelled: `weight·σ(score / scale) + (1 − weight)·result`.
#[derive(Clone, Copy, Debug)]
pub struct Labels {
    /// The engine's units a logit.
    pub scale: f64,
    /// The score's share of the label, from 0 to 1.
    pub weight: f64,
}

impl Labels {
    /// The label of a position for the side to move, from its score and its game's result
    /// (each for that side): a position of no game is labelled by its score alone, and has no
    /// label when the labels are the results alone.
    fn of(self, score: Option<f64>, result: Option<f32>) -> Option<f32> {
        let p = |score: f64| {
            if score == f64::INFINITY {
                1.0
            } else if score == f64::NEG_INFINITY {
                0.0
            } else {
                sigmoid(score / self.scale)
            }
        };
        match (score, result) {
            (Some(s), Some(r)) => {
                Some((self.weight * p(s) + (1.0 - self.weight) * f64::from(r)) as f32)
            }
            (Some(s), None) => (self.weight > 0.0).then(|| p(s) as f32),
            (None, r) => r,
        }
    }
}

/// The scale (engine units a logit) at which the scores of the scored positions of `rule`
/// predict their games' results best (least cross-entropy, searched from 25 to 3200 by 2%
/// steps; mates left out), or `None` when there are none.
pub fn score_scale(games: &[&GameRecord], rule: Rule) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = games
        .iter()
        .filter(|g| g.rule == rule)
        .filter_map(|g| {
            let s = g.score.filter(|s| s.is_finite())?;
            let black = g.moves.len() % 2 == 0;
            let b = g.black_score?;
            let r = f64::from(if black { b } else { 1.0 - b });
            Some((s, r))
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let mut best = (f64::INFINITY, 400.0);
    let mut s = 25.0;
    while s <= 3200.0 {
        let l: f64 = pairs
            .iter()
            .map(|&(v, r)| cross_entropy(sigmoid(v / s), r))
            .sum();
        if l < best.0 {
            best = (l, s);
        }
        s *= 1.02;
    }
    Some(best.1)
}

/// The positions of `games` of `rule` (other rules' games are skipped): every position of a
/// whole game, the last position of a scored one, labelled by `labels`; with late values from
/// `late_from` stones on (0: none).
pub fn positions(games: &[&GameRecord], rule: Rule, labels: Labels, late_from: u32) -> Data {
    let layout = Layout::with_late(rule, late_from);
    let late = late_from > 0;
    let mut d = Data::default();
    d.start.push(0);
    let mut counts = vec![0u16; layout.params()];
    let mut touched: Vec<usize> = Vec::new();
    let weights = Weights::default();
    for g in games.iter().filter(|g| g.rule == rule) {
        // A scored position of no game has no label against the results alone.
        if labels.of(g.score, g.black_score).is_none() {
            continue;
        }
        let mut board = Board::new(15, rule).expect("15 is a board size");
        board.track_counts(true);
        let last = g.moves.len() - 1;
        for (k, &m) in g.moves.iter().enumerate() {
            board.play(m);
            if k < 1 || board.winner().is_some() || (g.score.is_some() && k != last) {
                continue;
            }
            let me = board.to_move();
            if !board.five_points(me).is_empty() || !board.five_points(me.opponent()).is_empty() {
                continue;
            }
            let mut threats = [0u64; 2];
            let late_position = late && board.total_stones() >= late_from as usize;
            for p in board.empty_points() {
                for c in [Color::Black, Color::White] {
                    let class = cell_class(&board, p.index(), c);
                    if let Some(t) = threat_category(rule, c, class) {
                        threats[usize::from(c != me)] += 1 << (8 * t);
                    }
                    if class != 0 {
                        let s = layout.slot(c, c == me, class);
                        if counts[s] == 0 {
                            touched.push(s);
                        }
                        counts[s] += 1;
                        if late_position {
                            let s = layout.late_slot(c, c == me, class);
                            if counts[s] == 0 {
                                touched.push(s);
                            }
                            counts[s] += 1;
                        }
                    }
                }
            }
            let t = layout.tempo(me);
            touched.push(t);
            counts[t] = 1;
            if layout.threats {
                for t in [
                    layout.threat(me, threat_mask(threats[0], threats[1])),
                    layout.count(me, count_index(threats[0], threats[1])),
                ] {
                    touched.push(t);
                    counts[t] = 1;
                }
            }
            touched.sort_unstable();
            for &s in &touched {
                d.index.push(s as u32);
                d.count.push(f32::from(counts[s]));
                counts[s] = 0;
            }
            touched.clear();
            d.start.push(d.index.len() as u32);
            let result = g
                .black_score
                .map(|b| if me == Color::Black { b } else { 1.0 - b });
            d.label
                .push(labels.of(g.score, result).expect("labelled: checked above"));
            d.hand.push(evaluate(&board, &weights) as f32);
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::super::{SCALE, parse_games, theta_of};
    use super::*;
    use std::fmt::Write as _;
    #[test]
    fn a_scored_position_is_one_position_labelled_by_its_score_and_result() {
        let text = "renju B h8 i9 j10 h9 = 200\nrenju W h8 i9 j10 = -M\nrenju B h8 i9 j10 h9\n";
        let games = parse_games(text).unwrap();
        let refs: Vec<&GameRecord> = games.iter().collect();
        let labels = Labels {
            scale: 100.0,
            weight: 0.75,
        };
        let d = positions(&refs[..1], Rule::Renju, labels, 0);
        assert_eq!(d.len(), 1);
        // Black to move after four stones; black won: 0.75·σ(2) + 0.25·1.
        let want = 0.75 * sigmoid(2.0) + 0.25;
        assert!(
            (f64::from(d.label[0]) - want).abs() < 1e-6,
            "{}",
            d.label[0]
        );
        // White to move, mated, white won: 0.75·0 + 0.25·1.
        let d = positions(&refs[1..2], Rule::Renju, labels, 0);
        assert_eq!(d.len(), 1);
        assert!((d.label[0] - 0.25).abs() < 1e-6);
        // The whole game gives a position after every stone from the second.
        assert_eq!(positions(&refs[2..], Rule::Renju, labels, 0).len(), 3);
    }

    /// What the fit sees of a position (its features times a table's values) is what the
    /// engine's evaluation of that table gives, the threat and count terms and the late values
    /// (before and after they start) included: the
    /// fitted tables mean in play what they meant in the fit.
    #[test]
    fn the_fits_features_weigh_a_position_as_the_evaluation_does() {
        let moves = "h8 i9 i8 g8 j7 h9 j9 j8 g10 k6 f11 h10 h7 g6 i6 k8";
        for rule in [Rule::Freestyle, Rule::Renju] {
            use crate::analyze::learned::tests::{busy_tables, colour_shared};
            let mut t = busy_tables(rule);
            t.scale = SCALE as i32;
            // Outside renju both colours share their values, as the fit's do.
            if rule != Rule::Renju {
                t = colour_shared(t);
            }
            let theta = theta_of(&t);
            let text = format!("{rule} B {moves}");
            let games = parse_games(&text).unwrap();
            let refs: Vec<&GameRecord> = games.iter().collect();
            let data = positions(
                &refs,
                rule,
                Labels {
                    scale: SCALE,
                    weight: 1.0,
                },
                t.late_from,
            );
            let mut board = Board::new(15, rule).unwrap();
            let mut k = 0;
            let mut checked = 0;
            for (n, m) in games[0].moves.iter().enumerate() {
                board.play(*m);
                let me = board.to_move();
                if n < 1
                    || !board.five_points(me).is_empty()
                    || !board.five_points(me.opponent()).is_empty()
                {
                    continue;
                }
                let z: f64 = data.features(k).map(|(i, c)| theta[i] * f64::from(c)).sum();
                let v = crate::analyze::learned::evaluate_fresh(&board, &t);
                assert!(
                    (z * SCALE - f64::from(v)).abs() < 1e-6,
                    "{rule} move {n}: {z} {v}"
                );
                k += 1;
                checked += 1;
            }
            assert_eq!(
                k,
                data.len(),
                "{rule}: every position of the data was checked"
            );
            assert!(checked >= 10, "{rule}: {checked}");
        }
    }

    #[test]
    fn the_fitted_score_scale_is_the_one_the_results_follow() {
        // Scores whose results follow σ(score / 150): the share of wins at each score.
        let mut text = String::new();
        for v in [-300i32, -150, -50, 50, 150, 300] {
            let p = sigmoid(f64::from(v) / 150.0);
            let wins = (p * 1000.0).round() as usize;
            for k in 0..1000 {
                let r = if k < wins { "B" } else { "W" };
                let _ = writeln!(text, "freestyle {r} h8 i9 = {v}");
            }
        }
        let games = parse_games(&text).unwrap();
        let refs: Vec<&GameRecord> = games.iter().collect();
        let s = score_scale(&refs, Rule::Freestyle).unwrap();
        assert!((140.0..160.0).contains(&s), "{s}");
        assert_eq!(score_scale(&refs, Rule::Renju), None);
    }

    /// A position of no game (`?`) is labelled by its score alone, whatever the score's share,
    /// and has no label against the results alone; it takes no part in fitting the scale.
    #[test]
    fn a_position_of_no_game_is_labelled_by_its_score_alone() {
        let games =
            parse_games("freestyle ? h8 i9 j10 = 150\nfreestyle W h8 i9 j10 = 150\n").unwrap();
        let refs: Vec<&GameRecord> = games.iter().collect();
        let labels = |weight| Labels {
            scale: 150.0,
            weight,
        };
        let half = positions(&refs, Rule::Freestyle, labels(0.5), 0);
        // White to move after three stones: black's result is white's loss.
        let own = sigmoid(1.0) as f32;
        assert_eq!(half.label, vec![own, (0.5 * sigmoid(1.0) + 0.5) as f32]);
        let results = positions(&refs, Rule::Freestyle, labels(0.0), 0);
        assert_eq!(results.label, vec![1.0]);
        assert_eq!(score_scale(&refs[..1], Rule::Freestyle), None);
    }
}
