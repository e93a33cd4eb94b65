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
        other => Error::usage(format!("{}: {other}", config.input.source)),
    })?;
    let text = || {
        if config.output.json {
            to_json(&review)
        } else {
            review_text::text(board, &review, options, config.output.style)
        }
    };
    let svg = || pictures(&review);
    let bytes = report(&config.output, text, svg)?;
    deliver(out, &config.output, &bytes)?;
    Ok(0)
}

/// The review as a picture: the win-rate graph, then the board after each mistake and
/// blunder.
fn pictures(review: &review::Review) -> String {
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
    for r in review.records.iter().filter(|r| r.grade >= Grade::Mistake) {
        let Some(after) = review_text::board_after(review, r.number) else {
            continue;
        };
        let labels = r
            .best
            .filter(|&b| b != r.played)
            .map(|b| (b, "1".to_string()))
            .into_iter()
            .collect();
        parts.push(picture::board_svg(
            &after,
            &picture::BoardPicture {
                move_numbers: true,
                labels,
                caption: Some(format!(
                    "move {} {} {} {}",
                    r.number,
                    r.side,
                    r.played,
                    r.grade.word()
                )),
                ..Default::default()
            },
        ));
    }
    picture::stack(&parts)
}
