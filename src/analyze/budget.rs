//! The analysis's budget: its memory ([`Tables`], sized once, kept by an engine from move to
//! move) and its time ([`Budget`]: when each stage of one analysis must end).
//!
//! The stages share a time limit so (fractions in [`params`](super::params)): the root VCT
//! may take `vct_share` of it (on a thread of its own, to `PARALLEL_VCT_END`); the iterations
//! run until `ITERATIONS_END` and start none after `NO_ITERATION_AFTER` (in a game, as the
//! rule's profile plans: [`GamePlan`](super::profile::GamePlan)); the pass that scores
//! the best `top` exactly runs until `PASS_END`; the checks against the opponent's threats
//! take `THREAT_SHARE` each, `DEFENCE_SHARE` in all, and end by `DEFENCE_END`; verification
//! of mates has the rest, to `VERIFY_END`. A node limit is split likewise: `ITERATIONS_END`
//! of it for the iterations, the rest for the pass.

use std::time::{Duration, Instant};

use super::params::*;
use super::tt::Table;
use super::{DEFAULT_TIME, Settings};
use crate::board::Rule;
use crate::solve::task;
use crate::solve::tt::MemoryError;

/// The analysis's memory: the search's table and the threat solvers' tables, sized once from a
/// budget. One analysis makes its own ([`analyze`](super::analyze)); an engine keeps one from move to move
/// ([`analyze_with`](super::analyze_with)), so the search's table still holds the last move's work.
pub struct Tables {
    pub(super) tt: Table,
    /// The horizon VCF solvers' share, split among the search threads.
    pub(super) vcf_bytes: usize,
    /// The threat solvers (root VCT on one thread, the opponent's threats, verification).
    pub(super) solver: task::Solver,
    /// The root VCT's own solver when it runs on a thread of its own.
    pub(super) vct_solver: Option<task::Solver>,
    /// The budget, in megabytes, and whether the root VCT has its own solver.
    plan: (usize, bool),
}

impl Tables {
    /// Tables of `hash_mb` megabytes in all: a quarter for the threat solvers, the rest for
    /// the search. With `parallel_vct` (two threads or more: the root VCT on a thread of its
    /// own), its solver gets that quarter and the other solver an eighth: a df-pn table too
    /// small for the search costs nodes (`vct_black_long` at threat limit 2, unbounded: 1.19M
    /// nodes in 8 MB, 0.92M in 16 MB).
    pub fn new(hash_mb: usize, parallel_vct: bool) -> Result<Tables, MemoryError> {
        let solver_mb = (hash_mb / 4).max(1);
        let main_mb = if parallel_vct {
            (hash_mb / 8).max(1)
        } else {
            solver_mb
        };
        let vct_mb = if parallel_vct { solver_mb } else { 0 };
        let search_bytes = hash_mb.saturating_sub(main_mb + vct_mb).max(1) << 20;
        Ok(Tables {
            tt: Table::new(search_bytes / 8 * 7)?,
            vcf_bytes: search_bytes / 8,
            solver: task::Solver::new(main_mb)?,
            vct_solver: if parallel_vct {
                Some(task::Solver::new(vct_mb)?)
            } else {
                None
            },
            plan: (hash_mb, parallel_vct),
        })
    }

    /// The tables [`analyze`](super::analyze) makes for `settings`: `hash_mb`, or less under a time limit
    /// alone (see `hash_for_time`), with a solver for the root VCT's thread when there is one.
    pub fn for_settings(settings: &Settings) -> Result<Tables, MemoryError> {
        let settings = &effective(settings);
        Tables::new(hash_for_time(settings), settings.parallel_vct())
    }

    /// Touches every page of the search's table now (see [`Table::prefault`]), for an
    /// engine that has time between moves.
    pub fn prefault(&self) {
        self.tt.prefault();
    }

    /// The budget in megabytes and whether the root VCT has a solver of its own.
    pub fn plan(&self) -> (usize, bool) {
        self.plan
    }

    /// The threat solver (the one that checks the opponent's threats and verifies mates), for
    /// other work between analyses on the same memory.
    pub fn solver(&mut self) -> &mut task::Solver {
        &mut self.solver
    }

    /// Forgets everything stored (new tables of the same size).
    pub fn clear(&mut self) -> Result<(), MemoryError> {
        let (hash_mb, parallel_vct) = self.plan;
        // The old tables go first, so the two never take the memory together.
        *self = Tables {
            tt: Table::new(0)?,
            vcf_bytes: 0,
            solver: task::Solver::new(0)?,
            vct_solver: None,
            plan: self.plan,
        };
        *self = Tables::new(hash_mb, parallel_vct)?;
        Ok(())
    }
}

/// The settings an analysis runs with: a second when nothing limits it, the window in range.
pub(super) fn effective(settings: &Settings) -> Settings {
    Settings {
        time: settings
            .time
            .or((settings.depth.is_none() && settings.nodes.is_none()).then_some(DEFAULT_TIME)),
        window: settings.window.clamp(1, 4),
        ..settings.clone()
    }
}

/// The memory the analysis uses, in megabytes: `hash_mb`, except under a time limit alone,
/// where it is no more than the positions the time allows can fill (32 bytes each, at
/// least 4 MB). A table's pages cost the kernel a fault and a zeroed page each the first
/// time they are touched: a 64 MB table took a fifth of a one-second analysis in faults,
/// and more of a short one, though a 200 ms search fills less than a tenth of it. At a fixed
/// depth or node count the size stays `hash_mb`, so results do not depend on the time.
fn hash_for_time(settings: &Settings) -> usize {
    match settings.time {
        Some(t) if settings.depth.is_none() && settings.nodes.is_none() => {
            let positions = t.as_secs_f64() * SIZING_NPS * settings.threads.max(1) as f64;
            let mb = (positions * 32.0 / (1 << 20) as f64).ceil() as usize;
            settings.hash_mb.min(mb.max(4))
        }
        _ => settings.hash_mb,
    }
}

/// When each stage of one analysis must end (all `None` without a time limit), and its node
/// limit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// When the analysis started.
    pub start: Instant,
    /// Its time limit.
    pub time: Option<Duration>,
    /// The root VCT's end.
    pub vct: Option<Instant>,
    /// The iterations' end.
    pub iterations: Option<Instant>,
    /// The pass's end (the search's last).
    pub pass: Option<Instant>,
    /// The end of every verification.
    pub verify: Option<Instant>,
    /// The node limit of the whole search.
    pub nodes: Option<u64>,
    /// No iteration starts after this.
    pub no_iteration: Option<Instant>,
}

impl Budget {
    /// The budget of an analysis under `rule` that started at `start`; `parallel_vct`: the
    /// root VCT runs on a thread of its own.
    pub fn new(settings: &Settings, rule: Rule, start: Instant, parallel_vct: bool) -> Budget {
        let at = |f: f64| settings.time.map(|t| start + t.mul_f64(f));
        let vct = if parallel_vct {
            at(PARALLEL_VCT_END)
        } else {
            at(settings.vct_share.clamp(0.0, VCT_SHARE_CAP))
        };
        let (iterations_end, no_iteration_after) = if settings.game {
            let plan = settings.profile_for(rule).game;
            (plan.iterations_end, plan.no_iteration_after)
        } else {
            (ITERATIONS_END, NO_ITERATION_AFTER)
        };
        Budget {
            start,
            time: settings.time,
            vct,
            iterations: at(iterations_end),
            pass: at(PASS_END.max(iterations_end)),
            no_iteration: at(no_iteration_after),
            verify: at(VERIFY_END),
            nodes: settings.nodes,
        }
    }

    /// The iterations' node limit.
    pub fn iteration_nodes(&self) -> Option<u64> {
        self.nodes.map(|n| (n as f64 * ITERATIONS_END) as u64)
    }

    /// Whether another iteration may start.
    pub fn may_iterate(&self) -> bool {
        self.no_iteration.is_none_or(|d| Instant::now() < d)
    }

    /// The end of the check of the opponent's threat before the search, starting now.
    pub fn threat_check(&self) -> Option<Instant> {
        self.time.map(|t| {
            (Instant::now() + t.mul_f64(THREAT_SHARE)).min(self.start + t.mul_f64(THREAT_CHECK_END))
        })
    }

    /// The end of one check of a root move against the opponent's threat, starting at `now`,
    /// when the checks so far took `spent`.
    pub fn defence_check(&self, now: Instant, spent: Duration) -> Option<Instant> {
        self.time.map(|t| {
            let left = t.mul_f64(DEFENCE_SHARE).saturating_sub(spent);
            (now + t.mul_f64(THREAT_SHARE).min(left)).min(self.start + t.mul_f64(DEFENCE_END))
        })
    }

    /// Whether there is time left to verify.
    pub fn may_verify(&self) -> bool {
        self.verify.is_none_or(|d| Instant::now() < d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The share of a one-second limit at which `deadline` falls.
    fn share(budget: &Budget, deadline: Option<Instant>) -> f64 {
        let at = deadline.expect("a time limit sets every deadline") - budget.start;
        (at.as_secs_f64() * 1000.0).round() / 1000.0
    }

    #[test]
    fn freestyle_and_renju_games_iterate_longer_than_an_analysis_or_a_standard_game() {
        let start = Instant::now();
        let analysis = Settings {
            time: Some(Duration::from_secs(1)),
            ..Settings::default()
        };
        let game = Settings {
            game: true,
            ..analysis.clone()
        };
        let cases = [
            (
                &analysis,
                Rule::Freestyle,
                ITERATIONS_END,
                NO_ITERATION_AFTER,
            ),
            (&analysis, Rule::Renju, ITERATIONS_END, NO_ITERATION_AFTER),
            (&game, Rule::Standard, ITERATIONS_END, NO_ITERATION_AFTER),
            (&game, Rule::Renju, 0.96, 0.75),
            (&game, Rule::Freestyle, 0.96, 0.75),
        ];
        for (settings, rule, end, no_new) in cases {
            let b = Budget::new(settings, rule, start, false);
            assert_eq!(
                share(&b, b.iterations),
                end,
                "{rule} game {}",
                settings.game
            );
            assert_eq!(
                share(&b, b.no_iteration),
                no_new,
                "{rule} game {}",
                settings.game
            );
            // The pass never ends before the iterations, and verification after both.
            assert!(share(&b, b.pass) >= end && share(&b, b.verify) > share(&b, b.pass));
        }
        // A game's iterations end later, and start later, than the analysis's.
        for rule in [Rule::Freestyle, Rule::Renju] {
            let long = Budget::new(&game, rule, start, false);
            let short = Budget::new(&analysis, rule, start, false);
            assert!(long.iterations > short.iterations);
            assert!(long.no_iteration > short.no_iteration);
        }
        // Without a time limit no stage has a deadline, and iterations may always start.
        let b = Budget::new(&Settings::default(), Rule::Freestyle, start, false);
        assert!(b.iterations.is_none() && b.pass.is_none() && b.may_iterate());
    }
}
