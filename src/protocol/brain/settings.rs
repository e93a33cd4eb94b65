//! The analysis's settings for a move: the protocol's limits, or the fixed ones of tests.

use std::io::Write;

use super::Brain;
use crate::analyze::{self, Settings};
use crate::protocol::clock::TurnTime;

impl<W: Write> Brain<W> {
    /// The analysis's settings for a move with `turn_time`.
    pub(super) fn settings(&self, top: usize, turn_time: TurnTime) -> Settings {
        if let Some(fixed) = &self.options.fixed {
            return Settings {
                top,
                game: true,
                cancel: Some(self.cancel),
                ..fixed.clone()
            };
        }
        let defaults = Settings::default();
        Settings {
            time: Some(turn_time.hard),
            depth: self.info.max_depth,
            nodes: self.info.max_node,
            top,
            hash_mb: self.hash_mb(),
            threads: self.info.threads,
            game: true,
            cancel: Some(self.cancel),
            // The rule's game plan, also for the analyses a game asks of several moves.
            vct_share: analyze::Profile::of(self.rule).game.vct_share,
            ..defaults
        }
    }
}
