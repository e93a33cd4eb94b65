//! `tengen review`: a whole game analysed move by move, with a progress bar over the
//! positions on a terminal.

use std::io::Write;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{deliver, report, to_json};
use crate::analyze::review::{self, Grade, ReviewError};
use crate::config::Review;
use crate::error::Error;
use crate::report::picture;
use crate::report::review as review_text;

pub fn run(config: Review, out: &mut dyn Write) -> Result<u8, Error> {
    if config.after.is_some() {
        return Err(Error::usage(
            "review reads the whole game: pick a part of it with --from N and --to N instead of --after",
        ));
    }
    let loaded = config.input.load()?;
    let board = &loaded.board;
    let options = &config.options;
    let moves = board.history().len();
    let positions = options
        .to
        .unwrap_or(moves)
        .min(moves)
        .saturating_sub(options.from.max(1))
        + 2;
    let bar = config.progress.then(|| {
        let b = ProgressBar::with_draw_target(Some(positions as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} {elapsed_precise} [{bar:30}] {pos}/{len} positions · about {eta} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    });
    let tick = |n: usize| {
        if let Some(b) = &bar {
            b.set_position(n as u64);
        }
    };
    let result = review::review(board, options, &tick);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let review = result.map_err(|e| match e {
        ReviewError::Memory(m) => Error::from(m),
        other => Error::usage(format!("{}: {other}", config.input.name())),
    })?;
    let text = || {
        if config.output.json {
            to_json(&review)
        } else {
            review_text::text(board, &review, options, config.output.style)
        }
    };
    let svg = || pictures(&review, config.output.numbers);
    let bytes = report(&config.output, text, svg)?;
    deliver(out, &config.output, &bytes)?;
    Ok(0)
}

/// The review as a picture: the win-rate graph, the board after each mistake and blunder
/// before the decided tail, and the tail as one line. Stones are numbered only with
/// `--numbers`, and then the best move is labelled `A`, so its label never reads as a move
/// number; a label only ever sits on an empty point.
fn pictures(review: &review::Review, numbers: bool) -> String {
    let points: Vec<picture::GraphPoint> = review
        .records
        .iter()
        .map(|r| picture::GraphPoint {
            number: r.number,
            black_win: if r.side == crate::board::Color::Black {
                r.win_after
            } else {
                100.0 - r.win_after
            },
            marked: r.grade >= Grade::Mistake,
        })
        .collect();
    let mut parts = vec![picture::graph_svg(&points)];
    let label = if numbers { "A" } else { "1" };
    for r in review_text::shown(review).filter(|r| r.grade >= Grade::Mistake) {
        let Some(after) = review_text::board_after(review, r.number) else {
            continue;
        };
        let best = r.best.filter(|&b| b != r.played && after.is_empty(b));
        let labels = best.map(|b| (b, label.to_string())).into_iter().collect();
        let instead = best.map(|b| format!(": best {b}")).unwrap_or_default();
        parts.push(picture::board_svg(
            &after,
            &picture::BoardPicture {
                move_numbers: numbers,
                labels,
                caption: Some(format!(
                    "move {} {} {} {}{instead}",
                    r.number,
                    r.side,
                    r.played,
                    r.grade.word()
                )),
                ..Default::default()
            },
        ));
    }
    if let Some(tail) = &review.decided {
        parts.push(tail_strip(tail));
    }
    picture::stack(&parts)
}

/// The decided tail as a strip of one line, as wide as the graph (the picture font has no
/// apostrophe or dash, so the words differ from the text's only in those).
fn tail_strip(tail: &review::DecidedTail) -> String {
    let (width, height) = (picture::GRAPH.0, 44.0);
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">
<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>
"##
    );
    let words = format!(
        "moves {}-{}: proved win for {}",
        tail.from, tail.to, tail.winner
    );
    picture::text(&mut out, &words, width / 2.0, height / 2.0, 14.0, "#222222");
    out.push_str("</svg>\n");
    out
}
