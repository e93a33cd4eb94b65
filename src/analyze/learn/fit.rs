//! The logistic fit (full-batch Adam on the mean cross-entropy) and the losses that measure it.

use super::Data;

pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of predictions against labels.
pub(super) fn cross_entropy(p: f64, y: f64) -> f64 {
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
    /// Whether the squared term measures each value from its start instead of from zero:
    /// a refit on a few new games then stays near what the start learned from many (the
    /// measurement is in docs/strength.md).
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

#[cfg(test)]
mod tests {
    use super::super::{GameRecord, Labels, Layout, parse_games, positions};
    use super::*;
    use crate::board::Rule;
    #[test]
    fn the_l2_toward_the_start_keeps_a_strong_start_where_l2_toward_zero_shrinks_it() {
        let text =
            "renju B h8 i9 j10 h9 h10 g11 i11 j12 k12\nrenju W h8 h9 i8 j8 g8 i9 j7 k7 f9 g9 e10\n";
        let games = parse_games(text).unwrap();
        let refs: Vec<&GameRecord> = games.iter().collect();
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
}
