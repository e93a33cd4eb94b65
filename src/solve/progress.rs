//! Live counters the solvers publish for a progress display: the positions searched so far
//! (added in steps of 4096 as the searches run, verification included) and the phase. They
//! are process-wide relaxed atomics, touched once every 4096 nodes, so publishing costs nothing
//! measurable; a display thread reads them (see `commands::spinner`). With several solvers
//! running at once (`check --jobs`) the counts add up, which is what a display of the whole
//! run wants.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What the solver is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Looking for the win.
    Search,
    /// Checking the win found against every defence.
    Verify,
}

static NODES: AtomicU64 = AtomicU64::new(0);
static PHASE: AtomicU8 = AtomicU8::new(0);

/// The step in which searches publish their node counts.
pub const STEP: u64 = 4096;

/// Adds one step of [`STEP`] nodes.
#[inline]
pub fn step() {
    NODES.fetch_add(STEP, Ordering::Relaxed);
}

/// Positions searched since the process started, to within a step per search.
pub fn nodes() -> u64 {
    NODES.load(Ordering::Relaxed)
}

/// Says what the solver does now.
pub fn set_phase(phase: Phase) {
    PHASE.store(phase as u8, Ordering::Relaxed);
}

/// What the solver does now.
pub fn phase() -> Phase {
    match PHASE.load(Ordering::Relaxed) {
        0 => Phase::Search,
        _ => Phase::Verify,
    }
}
