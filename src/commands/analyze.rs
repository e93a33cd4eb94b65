//! `tengen analyze`: every candidate of the side to move scored, the best lines, verified
//! mates; live progress on a terminal.

use std::io::Write;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{emit, to_json};
use crate::analyze::{self, Progress};
use crate::config::Analyze;
use crate::error::Error;
use crate::report::{json, text};

pub fn run(mut config: Analyze, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = config.input.load()?;
    let board = &loaded.board;
    // A puzzle's `threat-limit:` is where the root VCT starts, as in `solve`.
    if config.settings.threat_limit.is_none() {
        config.settings.threat_limit = loaded.meta.as_ref().and_then(|m| m.threat_limit);
    }
    let mut bar: Option<ProgressBar> = None;
    let show = |p: &Progress| {
        if !config.progress || p.elapsed < Duration::from_millis(500) {
            return;
        }
        let bar = bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(Duration::from_millis(120));
            b
        });
        let secs = p.elapsed.as_secs_f64().max(1e-9);
        let line: Vec<String> = p.pv.iter().take(8).map(|q| q.to_string()).collect();
        bar.set_message(format!(
            "depth {} · score {} · {} · {:.0} nodes/s · {}",
            p.depth,
            p.score,
            crate::words::plural(p.nodes, "node", "nodes"),
            p.nodes as f64 / secs,
            line.join(" ")
        ));
    };
    let analysis = analyze::analyze(board, &config.settings, show)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let id = loaded.meta.as_ref().map(|m| m.id.as_str());
    let report = if config.output.json {
        to_json(&json::Analyze::of(board, &analysis))
    } else {
        text::analysis(
            board,
            &analysis,
            id,
            &config.settings,
            config.heatmap,
            config.output.style,
        )
    };
    emit(out, &report)?;
    Ok(0)
}
