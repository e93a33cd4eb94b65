//! Fitting the learned evaluation ([`crate::analyze::learned`]) to game results: the data
//! set, the logistic fit (Texel tuning), and tengen's own self-play games for a data set that
//! needs no other engine. `tengen-tune` (src/bin/tengen-tune.rs) is the command line.
//!
//! **Games** are text, one a line: `RULE RESULT MOVES...` (RULE `freestyle`, `standard` or
//! `renju`; RESULT `B`, `W` or `D`; MOVES in RIF coordinates, black first, on 15x15).
//! `scripts/gen-games.py` writes them from engine matches; [`self_play`] from tengen's own.
//!
//! **Positions.** Every position of a game after its second stone, except where either side
//! has a five to make (the next move decides, and a search never asks the evaluation there).
//! Its label is the game's result for the side to move: 1, ½ or 0.
//!
//! **Model.** The evaluation is linear in counts: for each colour, how many empty cells show
//! each class, counted under the side to move's value ("mover") or the other side's
//! ("waiter"), plus a tempo term for the colour to move. The fit minimises the mean
//! cross-entropy of `σ(θ·x)` against the labels, plus `l2·|θ|²`, by full-batch Adam from zero.
//! Values are written as `round(400·θ)`, so the scale is 400 (`p = σ(score/400)`).
//!
//! **Held out.** Every `holdout`-th game (by its position in the input, from a seeded
//! shuffle) is left out of the fit; its loss is reported beside the fit's, the constant
//! predictor's, and the hand-weighted evaluation's (with its best single scale), so a table's
//! provenance says how much it learned.

use std::fmt::Write as _;

use crate::analyze::eval::{Weights, evaluate};
use crate::analyze::learned::{CLASSES, RuleTables, cell_class};
use crate::analyze::{self, Settings};
use crate::board::{Board, Color, Point, Rule};

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
        let mut board = Board::new(15, rule).expect("15 is a board size");
        let mut moves = Vec::new();
        for &(c, w) in &words[2..] {
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
/// renju) and side (mover, waiter), the classes; then the two tempo terms.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Whether black and white have tables of their own (renju).
    pub split: bool,
}

impl Layout {
    /// For a rule.
    pub fn of(rule: Rule) -> Layout {
        Layout {
            split: rule == Rule::Renju,
        }
    }

    /// The parameters in all.
    pub fn params(self) -> usize {
        self.blocks() * CLASSES + 2
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

/// The positions of `games` of `rule` (other rules' games are skipped).
pub fn positions(games: &[&Game], rule: Rule) -> Data {
    let layout = Layout::of(rule);
    let mut d = Data::default();
    d.start.push(0);
    let mut counts = vec![0u16; layout.params()];
    let mut touched: Vec<usize> = Vec::new();
    let weights = Weights::default();
    for g in games.iter().filter(|g| g.rule == rule) {
        let mut board = Board::new(15, rule).expect("15 is a board size");
        board.track_counts(true);
        for (k, &m) in g.moves.iter().enumerate() {
            board.play(m);
            if k < 1 || board.winner().is_some() {
                continue;
            }
            let me = board.to_move();
            if !board.five_points(me).is_empty() || !board.five_points(me.opponent()).is_empty() {
                continue;
            }
            for p in board.empty_points() {
                for c in [Color::Black, Color::White] {
                    let class = cell_class(&board, p.index(), c);
                    if class != 0 {
                        let s = layout.slot(c, c == me, class);
                        if counts[s] == 0 {
                            touched.push(s);
                        }
                        counts[s] += 1;
                    }
                }
            }
            let t = layout.tempo(me);
            touched.push(t);
            counts[t] = 1;
            touched.sort_unstable();
            for &s in &touched {
                d.index.push(s as u32);
                d.count.push(f32::from(counts[s]));
                counts[s] = 0;
            }
            touched.clear();
            d.start.push(d.index.len() as u32);
            let score = if me == Color::Black {
                g.black_score
            } else {
                1.0 - g.black_score
            };
            d.label.push(score);
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
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 400,
            rate: 0.02,
            l2: 1e-6,
        }
    }
}

/// Fits the values (logit units) to `data`; `report` gets (epoch, training loss) now and then.
pub fn fit(
    data: &Data,
    params: usize,
    o: FitOptions,
    mut report: impl FnMut(usize, f64),
) -> Vec<f64> {
    let mut theta = vec![0.0f64; params];
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
            let g = grad[i] + 2.0 * o.l2 * theta[i];
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

/// The fitted values as a rule's tables (`round(SCALE·θ)`).
pub fn tables(rule: Rule, theta: &[f64]) -> RuleTables {
    let layout = Layout::of(rule);
    let mut t = RuleTables::zero(rule);
    t.scale = SCALE as i32;
    let v = |i: usize| (theta[i] * SCALE).round() as i32;
    for c in [Color::Black, Color::White] {
        for class in 1..CLASSES {
            t.mover[c.index()][class] = v(layout.slot(c, true, class));
            t.waiter[c.index()][class] = v(layout.slot(c, false, class));
        }
        t.tempo[c.index()] = v(layout.tempo(c));
    }
    t
}

/// A seeded generator (SplitMix64): the same seed, the same games.
pub struct Rng(u64);

impl Rng {
    /// Seeded.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Splits games into (fit, held out): every game whose seeded draw falls below `share`
/// is held out.
pub fn split(games: &[Game], share: f64, seed: u64) -> (Vec<&Game>, Vec<&Game>) {
    let mut rng = Rng::new(seed);
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for g in games {
        if (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= share {
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
