//! `tengen analyze`: every candidate of the side to move scored, the best lines, verified
//! mates; live progress on a terminal.

use std::io::Write;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{deliver, report, to_json};
use crate::analyze::{self, Event};
use crate::config::Analyze;
use crate::error::Error;
use crate::report::picture;
use crate::report::{json, text};

pub fn run(mut config: Analyze, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = config.input.load()?;
    let board = &loaded.board;
    // A puzzle's `threat-limit:` is where the root VCT starts, as in `solve`.
    if config.settings.threat_limit.is_none() {
        config.settings.threat_limit = loaded.meta.as_ref().and_then(|m| m.threat_limit);
    }
    // Live progress on a terminal after half a second: the elapsed time ticks on its own; the
    // nodes and nodes/s are brought up to date after every root move searched, the score and
    // line after every completed iteration.
    let mut bar: Option<ProgressBar> = None;
    let mut done: Option<(u32, i32, String)> = None;
    let start = std::time::Instant::now();
    let mut show = |depth: u32, nodes: u64, moves: usize, done: &Option<(u32, i32, String)>| {
        let elapsed = start.elapsed();
        if !config.progress || elapsed < Duration::from_millis(500) {
            return;
        }
        let bar = bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                .with_elapsed(elapsed);
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} · {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(Duration::from_millis(120));
            b
        });
        let secs = elapsed.as_secs_f64().max(1e-9);
        let finished = match done {
            Some((d, score, line)) => format!("depth {d} done: score {score} {line} · "),
            None => String::new(),
        };
        bar.set_message(format!(
            "{finished}depth {depth}: {} searched · {} · {:.0} nodes/s",
            crate::words::plural(moves, "move", "moves"),
            crate::words::plural(nodes, "node", "nodes"),
            nodes as f64 / secs,
        ));
    };
    let mut tables = analyze::Tables::for_settings(&config.settings)?;
    let mut moves = 0;
    let analysis =
        analyze::analyze_with(board, &config.settings, &mut tables, |event| match event {
            Event::Iteration(p) => {
                let line: Vec<String> = p.pv.iter().take(8).map(|q| q.to_string()).collect();
                done = Some((p.depth, p.score, line.join(" ")));
                moves = 0;
                show(p.depth + 1, p.nodes, 0, &done);
            }
            Event::Searched { depth, nodes, .. } => {
                moves += 1;
                show(depth, nodes, moves, &done);
            }
            Event::Searching { .. } => {}
        })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let id = loaded.meta.as_ref().map(|m| m.id.as_str());
    let text = || {
        if config.output.json {
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
        }
    };
    let svg = || {
        let cands = &analysis.candidates;
        // The best moves labelled by rank; with --heatmap, every scored point shaded too.
        let labels = cands
            .iter()
            .take(config.settings.top)
            .enumerate()
            .map(|(k, c)| (c.mv, (k + 1).to_string()))
            .collect();
        let heat = config
            .heatmap
            .then(|| picture::HeatMap::of(cands, analysis.to_move, config.settings.top));
        // The text's own headline, so that the picture says what the text says.
        let caption =
            (!cands.is_empty()).then(|| text::analysis_headline(&analysis).trim_end().to_string());
        picture::board_svg(
            board,
            &picture::BoardPicture {
                move_numbers: config.output.numbers,
                labels,
                heat,
                forbidden: analysis.forbidden.iter().map(|&(p, _)| p).collect(),
                caption,
                ..Default::default()
            },
        )
    };
    let bytes = report(&config.output, text, svg)?;
    deliver(out, &config.output, &bytes)?;
    Ok(0)
}
