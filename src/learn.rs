//! Fitting the learned evaluation ([`crate::analyze::learned`]) to game results: the data
//! set, the logistic fit (Texel tuning), and tengen's own self-play games for a data set that
//! needs no other engine. `tengen-tune` (src/bin/tengen-tune.rs) is the command line.
//!
//! **Games** are text, one a line: `RULE RESULT MOVES...` (RULE `freestyle`, `standard` or
//! `renju`; RESULT `B`, `W` or `D`; MOVES in RIF coordinates, black first, on 15x15).
//! `scripts/gen-games.py` writes them from engine matches; [`self_play`] from tengen's own.
//!
//! **Scored positions.** A line `RULE RESULT MOVES... = SCORE` is one position, the one after
//! MOVES, of a game that ended in RESULT, with an engine's score for the side to move there
//! (an integer in the engine's units, `+M` when it mates, `-M` when it is mated), as
//! `scripts/label-positions.py` writes them.
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

use std::fmt::Write as _;

use crate::analyze::eval::{Weights, evaluate};
use crate::analyze::learned::{
    CLASSES, COUNT_INDEXES, RuleTables, THREAT_MASKS, cell_class, count_index, threat_category,
    threat_mask,
};
use crate::analyze::{self, Settings};
use crate::board::{Board, Color, Point, Rule};
/// The seeded generator of the held-out draw and self-play (the crate's one, re-exported for
/// the code that has named it here).
pub use crate::rng::Rng;

/// Values are the logit times this: the scale of the win probability
/// ([`crate::analyze::eval::WIN_SCALE`]).
pub const SCALE: f64 = crate::analyze::eval::WIN_SCALE;

/// One game of a games file.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Its rule.
    pub rule: Rule,
    /// 1 black won, 0 white won, ½ a draw.
    pub black_score: f32,
    /// Every move, black first.
    pub moves: Vec<Point>,
    /// For a scored position (the one after `moves`): the engine's score for the side to
    /// move, in its units; infinite for a mate.
    pub score: Option<f64>,
}

impl Game {
    /// Whether `self` is a later scored position of the same game as `prev` (the labeller
    /// writes a game's positions one after another, each a longer prefix of it).
    fn continues(&self, prev: &Game) -> bool {
        self.score.is_some()
            && prev.score.is_some()
            && self.rule == prev.rule
            && self.black_score == prev.black_score
            && self.moves.starts_with(&prev.moves)
    }
}

/// A line of a games file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// From 1.
    pub line: usize,
    /// From 1: where the bad word starts.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a games file's text; replays every game to check its moves.
pub fn parse_games(text: &str) -> Result<Vec<Game>, GameError> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut col = 0;
        let mut words = Vec::new();
        for w in line.split(' ') {
            if !w.is_empty() {
                words.push((col + 1, w));
            }
            col += w.len() + 1;
        }
        let err = |column: usize, m: String| GameError {
            line: n + 1,
            column,
            message: m,
        };
        let (c0, rule) = words[0];
        let rule: Rule = rule
            .parse()
            .map_err(|_| err(c0, format!("`{rule}` is not a rule")))?;
        let Some(&(c1, result)) = words.get(1) else {
            return Err(err(col, "no result (B, W or D)".into()));
        };
        let black_score = match result {
            "B" => 1.0,
            "W" => 0.0,
            "D" => 0.5,
            _ => return Err(err(c1, format!("`{result}` is not B, W or D"))),
        };
        let mut moves_end = words.len();
        let mut score = None;
        if let Some(eq) = words.iter().position(|&(_, w)| w == "=") {
            let Some(&(c, w)) = words.get(eq + 1) else {
                return Err(err(col, "no score after `=`".into()));
            };
            if let Some(&(c, _)) = words.get(eq + 2) {
                return Err(err(c, "nothing may follow the score".into()));
            }
            score = Some(match w {
                "+M" => f64::INFINITY,
                "-M" => f64::NEG_INFINITY,
                _ => match w.parse::<i32>() {
                    Ok(v) => f64::from(v),
                    Err(_) => {
                        return Err(err(
                            c,
                            format!("`{w}` is not a score (an integer, +M or -M)"),
                        ));
                    }
                },
            });
            moves_end = eq;
        }
        let mut board = Board::new(15, rule).expect("15 is a board size");
        let mut moves = Vec::new();
        for &(c, w) in &words[2..moves_end] {
            let p: Point = w
                .parse()
                .map_err(|_| err(c, format!("`{w}` is not a point")))?;
            if p.x() >= 15 || p.y() >= 15 || !board.is_empty(p) {
                return Err(err(c, format!("{w} is off the board or taken")));
            }
            board.play(p);
            moves.push(p);
        }
        if moves.is_empty() {
            return Err(err(col, "a game without moves".into()));
        }
        games.push(Game {
            rule,
            black_score,
            moves,
            score,
        });
    }
    Ok(games)
}

/// Positions as sparse counts over the parameters (see [`Layout`]).
#[derive(Default)]
pub struct Data {
    /// Per position: where its features start in `index`/`count` (one more at the end).
    start: Vec<u32>,
    index: Vec<u32>,
    count: Vec<f32>,
    label: Vec<f32>,
    /// The hand-weighted evaluation of each position, for comparison.
    hand: Vec<f32>,
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

    fn features(&self, k: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
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
    fn of(self, score: f64, result: f32) -> f32 {
        let p = if score == f64::INFINITY {
            1.0
        } else if score == f64::NEG_INFINITY {
            0.0
        } else {
            sigmoid(score / self.scale)
        };
        (self.weight * p + (1.0 - self.weight) * f64::from(result)) as f32
    }
}

/// The scale (engine units a logit) at which the scores of the scored positions of `rule`
/// predict their games' results best (least cross-entropy, searched from 25 to 3200 by 2%
/// steps; mates left out), or `None` when there are none.
pub fn score_scale(games: &[&Game], rule: Rule) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = games
        .iter()
        .filter(|g| g.rule == rule)
        .filter_map(|g| {
            let s = g.score.filter(|s| s.is_finite())?;
            let black = g.moves.len() % 2 == 0;
            let r = f64::from(if black {
                g.black_score
            } else {
                1.0 - g.black_score
            });
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
pub fn positions(games: &[&Game], rule: Rule, labels: Labels, late_from: u32) -> Data {
    let layout = Layout::with_late(rule, late_from);
    let late = late_from > 0;
    let mut d = Data::default();
    d.start.push(0);
    let mut counts = vec![0u16; layout.params()];
    let mut touched: Vec<usize> = Vec::new();
    let weights = Weights::default();
    for g in games.iter().filter(|g| g.rule == rule) {
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
            let result = if me == Color::Black {
                g.black_score
            } else {
                1.0 - g.black_score
            };
            d.label.push(match g.score {
                Some(s) => labels.of(s, result),
                None => result,
            });
            d.hand.push(evaluate(&board, &weights) as f32);
        }
    }
    d
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of predictions against labels.
fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The mean loss of `theta` (logit units) on `data`.
pub fn loss(theta: &[f64], data: &Data) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let mut total = 0.0;
    for k in 0..data.len() {
        let z: f64 = data.features(k).map(|(i, c)| theta[i] * f64::from(c)).sum();
        total += cross_entropy(sigmoid(z), f64::from(data.label[k]));
    }
    total / data.len() as f64
}

/// The loss of always predicting the training mean.
pub fn constant_loss(train: &Data, test: &Data) -> f64 {
    let mean = train.label.iter().map(|&y| f64::from(y)).sum::<f64>() / train.len().max(1) as f64;
    test.label
        .iter()
        .map(|&y| cross_entropy(mean, f64::from(y)))
        .sum::<f64>()
        / test.len().max(1) as f64
}

/// The hand-weighted evaluation's loss on `test` with the scale that fits `train` best
/// (searched over 25 to 3200 evaluation points a logit), and that scale.
pub fn hand_loss(train: &Data, test: &Data) -> (f64, f64) {
    let at = |scale: f64, d: &Data| {
        d.hand
            .iter()
            .zip(&d.label)
            .map(|(&h, &y)| cross_entropy(sigmoid(f64::from(h) / scale), f64::from(y)))
            .sum::<f64>()
            / d.len().max(1) as f64
    };
    let mut best = (f64::INFINITY, 400.0);
    let mut s = 25.0;
    while s <= 3200.0 {
        let l = at(s, train);
        if l < best.0 {
            best = (l, s);
        }
        s *= 1.1;
    }
    (at(best.1, test), best.1)
}

/// How the fit runs.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam's step size (logit units).
    pub rate: f64,
    /// Weight of the squared values in the loss.
    pub l2: f64,
    /// Whether the squared term measures each value from its start instead of from zero.
    /// Fitted on the 1,967 renju games of stops 47 and 49 from the shipped renju table
    /// (fitted on 11,008 older games) and measured on stop 50's 800 it never saw, l2 0.001
    /// toward the start gave a loss of 0.51838 and 0.51446 (two draws), toward zero (l2
    /// 0.00001) 0.52229 and 0.51863, the start itself 0.52263 and 0.52014.
    pub l2_to_start: bool,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 400,
            rate: 0.02,
            l2: 1e-6,
            l2_to_start: false,
        }
    }
}

/// Fits the values (logit units) to `data`; `report` gets (epoch, training loss) now and then.
pub fn fit(data: &Data, params: usize, o: FitOptions, report: impl FnMut(usize, f64)) -> Vec<f64> {
    fit_from(data, vec![0.0; params], None, o, report)
}

/// [`fit`] from the values `start`; with `trainable`, only the values it marks move (the rest
/// keep their start).
pub fn fit_from(
    data: &Data,
    start: Vec<f64>,
    trainable: Option<&[bool]>,
    o: FitOptions,
    mut report: impl FnMut(usize, f64),
) -> Vec<f64> {
    let params = start.len();
    let center = if o.l2_to_start {
        start.clone()
    } else {
        vec![0.0; params]
    };
    let mut theta = start;
    let (mut m, mut v) = (vec![0.0f64; params], vec![0.0f64; params]);
    let mut grad = vec![0.0f64; params];
    let n = data.len().max(1) as f64;
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    for epoch in 1..=o.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for k in 0..data.len() {
            let z: f64 = data.features(k).map(|(i, c)| theta[i] * f64::from(c)).sum();
            let p = sigmoid(z);
            let y = f64::from(data.label[k]);
            total += cross_entropy(p, y);
            let e = (p - y) / n;
            for (i, c) in data.features(k) {
                grad[i] += e * f64::from(c);
            }
        }
        for i in 0..params {
            if trainable.is_some_and(|t| !t[i]) {
                continue;
            }
            let g = grad[i] + 2.0 * o.l2 * (theta[i] - center[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            theta[i] -= o.rate * mh / (vh.sqrt() + eps);
        }
        if epoch == 1 || epoch % 50 == 0 || epoch == o.epochs {
            report(epoch, total / n);
        }
    }
    theta
}

/// The fitted values as a rule's tables (`round(SCALE·θ)`), with late values from
/// `late_from` stones on (0: none).
pub fn tables(rule: Rule, theta: &[f64], late_from: u32) -> RuleTables {
    let layout = Layout::with_late(rule, late_from);
    let mut t = RuleTables::zero(rule);
    t.scale = SCALE as i32;
    t.late_from = late_from;
    let v = |i: usize| (theta[i] * SCALE).round() as i32;
    for c in [Color::Black, Color::White] {
        for class in 1..CLASSES {
            t.mover[c.index()][class] = v(layout.slot(c, true, class));
            t.waiter[c.index()][class] = v(layout.slot(c, false, class));
            if layout.late {
                t.late_mover[c.index()][class] = v(layout.late_slot(c, true, class));
                t.late_waiter[c.index()][class] = v(layout.late_slot(c, false, class));
            }
        }
        t.tempo[c.index()] = v(layout.tempo(c));
        for mask in 0..THREAT_MASKS {
            t.threat[c.index()][mask] = v(layout.threat(c, mask));
        }
        for index in 0..COUNT_INDEXES {
            t.count[c.index()][index] = v(layout.count(c, index));
        }
    }
    t
}

/// A rule's tables as fitted values (logit units), the inverse of [`tables`]: for measuring a
/// table on other data.
pub fn theta_of(t: &RuleTables) -> Vec<f64> {
    let layout = Layout::with_late(t.rule, t.late_from);
    let mut theta = vec![0.0; layout.params()];
    let scale = f64::from(t.scale.max(1));
    for c in [Color::Black, Color::White] {
        for class in 1..CLASSES {
            theta[layout.slot(c, true, class)] = f64::from(t.mover[c.index()][class]) / scale;
            theta[layout.slot(c, false, class)] = f64::from(t.waiter[c.index()][class]) / scale;
            if layout.late {
                let (m, w) = (
                    t.late_mover[c.index()][class],
                    t.late_waiter[c.index()][class],
                );
                theta[layout.late_slot(c, true, class)] = f64::from(m) / scale;
                theta[layout.late_slot(c, false, class)] = f64::from(w) / scale;
            }
        }
        theta[layout.tempo(c)] = f64::from(t.tempo[c.index()]) / scale;
        for mask in 0..THREAT_MASKS {
            theta[layout.threat(c, mask)] = f64::from(t.threat[c.index()][mask]) / scale;
        }
        for index in 0..COUNT_INDEXES {
            theta[layout.count(c, index)] = f64::from(t.count[c.index()][index]) / scale;
        }
    }
    theta
}

/// Splits games into (fit, held out): every game whose seeded draw falls below `share`
/// is held out. The scored positions of one game ([`Game::continues`]) go together, so no
/// game is on both sides.
pub fn split(games: &[Game], share: f64, seed: u64) -> (Vec<&Game>, Vec<&Game>) {
    let mut rng = Rng::new(seed);
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let mut held_last = false;
    for (k, g) in games.iter().enumerate() {
        if k == 0 || !g.continues(&games[k - 1]) {
            held_last = rng.unit() <= share;
        }
        if held_last {
            held.push(g);
        } else {
            fit.push(g);
        }
    }
    (fit, held)
}

/// tengen's own games at a fixed search depth from random openings (2 to 6 stones in the 7x7
/// block around the centre; a random legal move instead of the best with chance `noise`, for
/// variety), each line of a games file.
pub fn self_play(rule: Rule, games: usize, depth: u32, noise: f64, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let settings = Settings {
        depth: Some(depth),
        hash_mb: 8,
        root_vct_nodes: 2_000,
        verify_nodes: 20_000,
        top: 1,
        game: true,
        ..Settings::default()
    };
    let mut out = String::new();
    for _ in 0..games {
        let mut board = Board::new(15, rule).expect("15 is a board size");
        let opening = 2 + rng.below(5);
        while board.total_stones() < opening {
            let p =
                Point::new(4 + rng.below(7) as u8, 4 + rng.below(7) as u8).expect("on the board");
            if board.is_empty(p) {
                board.play(p);
            }
        }
        let mut result = "D";
        while board.total_stones() < 225 {
            if let Some(five) = board.winner() {
                result = if five.color == Color::Black { "B" } else { "W" };
                break;
            }
            let random = (rng.next_u64() % 1000) as f64 / 1000.0 < noise;
            let mv = if random {
                let me = board.to_move();
                let mut probe = board.clone();
                let near: Vec<Point> = analyze::moves::area(&board, 2)
                    .iter()
                    .filter(|&i| {
                        board.cell(i) == crate::board::Cell::Empty
                            && !crate::pattern::forbidden(&mut probe, me, i)
                    })
                    .map(Point::from_index)
                    .collect();
                if near.is_empty() {
                    break;
                }
                near[rng.below(near.len())]
            } else {
                match analyze::analyze(&board, &settings, |_| {}) {
                    Ok(a) => match a.candidates.first() {
                        Some(c) => c.mv,
                        None => break,
                    },
                    Err(_) => break,
                }
            };
            board.play(mv);
        }
        let moves: Vec<String> = board.history().iter().map(|p| p.to_string()).collect();
        let _ = writeln!(out, "{rule} {result} {}", moves.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scored_position_reads_with_its_score_and_errors_say_where() {
        let text = "renju B h8 i9 = 87\nrenju B h8 i9 j10 = -M\nfreestyle D h8 = +M\n";
        let g = parse_games(text).unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].moves.len(), 2);
        assert_eq!(g[0].score, Some(87.0));
        assert_eq!(g[1].score, Some(f64::NEG_INFINITY));
        assert_eq!(g[2].score, Some(f64::INFINITY));
        assert!(g[1].continues(&g[0]) && !g[0].continues(&g[1]));
        let e = parse_games("renju B h8 i9 = 8x\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 17));
        assert!(e.message.contains("`8x` is not a score"), "{e:?}");
        let e = parse_games("renju B h8 i9 = 3 4\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 19));
        assert!(parse_games("renju B h8 =\n").is_err());
    }

    #[test]
    fn a_scored_position_is_one_position_labelled_by_its_score_and_result() {
        let text = "renju B h8 i9 j10 h9 = 200\nrenju W h8 i9 j10 = -M\nrenju B h8 i9 j10 h9\n";
        let games = parse_games(text).unwrap();
        let refs: Vec<&Game> = games.iter().collect();
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

    #[test]
    fn the_l2_toward_the_start_keeps_a_strong_start_where_l2_toward_zero_shrinks_it() {
        let text =
            "renju B h8 i9 j10 h9 h10 g11 i11 j12 k12\nrenju W h8 h9 i8 j8 g8 i9 j7 k7 f9 g9 e10\n";
        let games = parse_games(text).unwrap();
        let refs: Vec<&Game> = games.iter().collect();
        let labels = Labels {
            scale: 400.0,
            weight: 1.0,
        };
        let d = positions(&refs, Rule::Renju, labels, 0);
        let params = Layout::with_late(Rule::Renju, 0).params();
        let start: Vec<f64> = (0..params).map(|i| 0.5 + (i % 7) as f64 * 0.25).collect();
        let fit = |to_start: bool| {
            let o = FitOptions {
                epochs: 300,
                rate: 0.02,
                l2: 100.0,
                l2_to_start: to_start,
            };
            fit_from(&d, start.clone(), None, o, |_, _| {})
        };
        let drift = |theta: &[f64]| {
            theta
                .iter()
                .zip(&start)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max)
        };
        // A heavy l2 toward the start holds every value near it; toward zero it pulls them
        // most of the way down.
        let held = fit(true);
        assert!(drift(&held) < 0.05, "moved {}", drift(&held));
        let shrunk = fit(false);
        assert!(drift(&shrunk) > 0.4, "moved {}", drift(&shrunk));
        assert!(shrunk.iter().all(|v| v.abs() < 0.3), "{shrunk:?}");
    }

    #[test]
    fn a_table_read_back_as_values_gives_the_fits_values_to_the_rounding() {
        for (rule, late_from) in [
            (Rule::Renju, 0),
            (Rule::Freestyle, 0),
            (Rule::Freestyle, 14),
        ] {
            let layout = Layout::with_late(rule, late_from);
            let theta: Vec<f64> = (0..layout.params())
                .map(|i| ((i * 37 % 101) as f64 - 50.0) / 97.0)
                .collect();
            let back = theta_of(&tables(rule, &theta, late_from));
            assert_eq!(back.len(), theta.len());
            // Class 0 has no value in a table; every other value comes back to 1/800.
            for c in [Color::Black, Color::White] {
                for class in 1..CLASSES {
                    for mover in [true, false] {
                        let mut slots = vec![layout.slot(c, mover, class)];
                        if late_from > 0 {
                            slots.push(layout.late_slot(c, mover, class));
                        }
                        for i in slots {
                            assert!((back[i] - theta[i]).abs() <= 0.5 / SCALE + 1e-12, "{i}");
                        }
                    }
                }
                let i = layout.tempo(c);
                assert!((back[i] - theta[i]).abs() <= 0.5 / SCALE + 1e-12);
            }
        }
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
            let refs: Vec<&Game> = games.iter().collect();
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
        let refs: Vec<&Game> = games.iter().collect();
        let s = score_scale(&refs, Rule::Freestyle).unwrap();
        assert!((140.0..160.0).contains(&s), "{s}");
        assert_eq!(score_scale(&refs, Rule::Renju), None);
    }

    #[test]
    fn the_scored_positions_of_one_game_are_held_out_together() {
        let mut text = String::new();
        let game = ["h8", "i9", "j10", "h9", "h10", "g11", "i11", "j12"];
        for g in 0..40 {
            let r = if g % 2 == 0 { "B" } else { "W" };
            // Each game its own first move, so no two games continue each other.
            let first = format!("{}{}", (b'a' + (g % 15) as u8) as char, 1 + g / 15);
            for k in 2..game.len() {
                let _ = writeln!(text, "renju {r} {first} {} = 0", game[..k].join(" "));
            }
        }
        let games = parse_games(&text).unwrap();
        let (fit, held) = split(&games, 0.3, 7);
        assert!(!fit.is_empty() && !held.is_empty());
        for h in &held {
            assert!(
                !fit.iter().any(|f| f.moves[0] == h.moves[0]),
                "a game on both sides"
            );
        }
    }
}
