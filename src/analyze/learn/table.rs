//! Fitted values as a rule's tables, and back.

use super::{Layout, SCALE};
use crate::analyze::learned::{CLASSES, COUNT_INDEXES, RuleTables, THREAT_MASKS};
use crate::board::{Color, Rule};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
