//! What the manager sets with `INFO`: the clocks, the memory (and so the tables), the
//! threads and the limits.

use std::io::{self, Write};
use std::time::Duration;

use super::Brain;
use crate::analyze::{Settings, Tables};
use crate::board::Rule;
use crate::protocol::clock::Clock;
use crate::protocol::command::wide_number;
use crate::solve::tt::MemoryError;

/// Memory kept back from `max_memory` for what is not in the tables: the program, thread
/// stacks, the solvers' move lists and proofs. Wide on purpose: the rest took a few MB where
/// measured (docs/brain.md).
pub const RESERVED_MB: usize = 48;

/// The tables' share of `max_memory` beyond [`RESERVED_MB`]: the solvers' caches grow with
/// the work they do, beside their tables.
const TABLE_SHARE: f64 = 0.7;
/// `max_memory` when the manager sets none (Gomocup's usual 350 MB).
const DEFAULT_MEMORY: u64 = 350 << 20;
/// `time_left` that means "no game clock".
const UNLIMITED: u64 = 2_147_483_647;

/// What the manager told the brain with `INFO`.
#[derive(Clone, Debug)]
pub(super) struct Info {
    pub(super) clock: Clock,
    /// Bytes for the whole process (0: no limit, the default is then used).
    pub(super) max_memory: u64,
    /// Yixin-Board's `hash_size`, in KiB: the tables' size when set.
    pub(super) hash_kib: Option<u64>,
    pub(super) threads: usize,
    pub(super) max_depth: Option<u32>,
    pub(super) max_node: Option<u64>,
}

impl Default for Info {
    fn default() -> Info {
        Info {
            clock: Clock::default(),
            max_memory: DEFAULT_MEMORY,
            hash_kib: None,
            threads: 1,
            max_depth: None,
            max_node: None,
        }
    }
}

impl<W: Write> Brain<W> {
    pub(super) fn info(&mut self, key: &str, value: &str) -> io::Result<()> {
        let number = match key {
            // tengen writes no files: the folder is accepted and not used.
            "folder" => return Ok(()),
            "timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "game_type"
            | "rule" | "thread_num" | "max_depth" | "max_node" | "hash_size" => {
                match wide_number(value) {
                    Ok(n) => n,
                    Err(e) => return self.error(&format!("INFO {key}: {e}")),
                }
            }
            // Unknown keys are ignored, as the protocol says.
            _ => return Ok(()),
        };
        let ms = Duration::from_millis(number);
        match key {
            "timeout_turn" => self.info.clock.turn = Some(ms),
            "timeout_match" => self.info.clock.game = (number > 0).then_some(ms),
            "time_left" => self.info.clock.left = (number < UNLIMITED).then_some(ms),
            "max_memory" => self.info.max_memory = number,
            "hash_size" => self.info.hash_kib = (number > 0).then_some(number),
            // Checked as a number; the kind of opponent changes nothing in how tengen plays.
            "game_type" => {}
            "thread_num" => self.info.threads = number.clamp(1, 256) as usize,
            "max_depth" => {
                self.info.max_depth =
                    (number > 0 && number < u64::from(u32::MAX)).then_some(number.min(255) as u32)
            }
            "max_node" => self.info.max_node = (number > 0 && number < u64::MAX).then_some(number),
            "rule" => match rule_of(number) {
                Ok(rule) => {
                    if rule != self.rule
                        && let Some(t) = self.tables.as_mut()
                        && t.clear().is_err()
                    {
                        self.tables = None;
                    }
                    self.rule = rule;
                }
                Err(e) => return self.error(&e),
            },
            _ => unreachable!("listed above"),
        }
        Ok(())
    }

    /// The memory for the tables, in megabytes: Yixin-Board's `hash_size` when set, else a
    /// share of `max_memory` past what the rest of the process needs.
    pub(super) fn hash_mb(&self) -> usize {
        if let Some(kib) = self.info.hash_kib {
            return ((kib >> 10) as usize).max(1);
        }
        let total_mb = match self.info.max_memory {
            0 => DEFAULT_MEMORY >> 20,
            n => n >> 20,
        } as usize;
        ((total_mb.saturating_sub(RESERVED_MB)) as f64 * TABLE_SHARE).max(1.0) as usize
    }

    /// Makes the tables for `settings` unless the ones kept fit them: the whole memory from the
    /// first move (they stay for the game), with a solver for the root VCT's own thread when it
    /// has one. False (after an `ERROR` line) when the memory cannot be had.
    pub(super) fn make_tables(&mut self, settings: &Settings) -> io::Result<bool> {
        match self.fit_tables(settings) {
            Ok(_) => Ok(true),
            Err(e) => {
                self.say(&format!("ERROR {e}"))?;
                Ok(false)
            }
        }
    }

    /// Makes the tables for `settings` unless the ones kept fit them; true when it made new
    /// ones. The old tables go first, so the two never take the memory together.
    pub(super) fn fit_tables(&mut self, settings: &Settings) -> Result<bool, MemoryError> {
        let plan = (settings.hash_mb, settings.parallel_vct());
        if self.tables.as_ref().is_some_and(|t| t.plan() == plan) {
            return Ok(false);
        }
        self.tables = None;
        self.tables = Some(Tables::new(plan.0, plan.1)?);
        Ok(true)
    }
}

/// The protocol's rule number as a rule: Gomocup's bits (1 exactly five, 2 continuous game,
/// 4 renju, 8 caro), with Yixin-Board's 2 for renju.
pub(super) fn rule_of(n: u64) -> Result<Rule, String> {
    match n {
        0 => Ok(Rule::Freestyle),
        1 | 3 => Ok(Rule::Standard),
        2 | 4 | 5 => Ok(Rule::Renju),
        _ => Err(format!(
            "rule {n} is not supported: tengen plays freestyle (0), standard (1) and renju \
             (4, or 2 as Yixin-Board sends it){}",
            if n & 8 != 0 {
                "; caro (8) is not one of them"
            } else {
                ""
            }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_by_number() {
        assert_eq!(rule_of(0), Ok(Rule::Freestyle));
        assert_eq!(rule_of(1), Ok(Rule::Standard));
        assert_eq!(rule_of(2), Ok(Rule::Renju));
        assert_eq!(rule_of(4), Ok(Rule::Renju));
        assert!(rule_of(8).unwrap_err().contains("caro"));
        assert!(rule_of(9).is_err());
    }
}
