//! The parallel search's helper threads (Lazy SMP): each searches the root on its own,
//! sharing the main thread's table, so the main thread finds more of its work done.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::Settings;
use super::params::MAX_ITERATION;
use super::search::Searcher;
use super::tt::Table;
use crate::board::Board;

/// A helper thread of the parallel search: it searches the root to ever greater depths, odd
/// helpers one ply deeper than even ones, filling the shared table, until `halt`; then adds
/// its nodes to `nodes`.
#[allow(clippy::too_many_arguments)]
pub(super) fn helper(
    board: &Board,
    settings: &Settings,
    deadline: Option<Instant>,
    tt: &Table,
    vcf_bytes: usize,
    halt: &AtomicBool,
    id: usize,
    nodes: &AtomicU64,
) {
    let Ok(mut searcher) = Searcher::new(board, settings, deadline, tt, vcf_bytes, Some(halt))
    else {
        return;
    };
    let max_depth = settings.depth.unwrap_or(MAX_ITERATION).max(1) as i32;
    let mut depth = 1 + (id % 2) as i32;
    while searcher.stopped.is_none() && !halt.load(Relaxed) && depth <= max_depth + 1 {
        searcher.search_root(depth);
        depth += 1;
    }
    nodes.fetch_add(searcher.nodes + searcher.vcf_nodes, Relaxed);
}
