use std::io::Write;

use super::{deliver, report, to_json};
use crate::config::Show;
use crate::error::Error;
use crate::pattern;
use crate::report::picture;
use crate::report::{json, text};

pub fn run(args: Show, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = args.input.load()?;
    let board = &loaded.board;
    let id = loaded.meta.as_ref().map(|m| m.id.as_str());
    let text = || match args.output.json {
        true => to_json(&json::Position::of(board, id)),
        false => {
            let style = args.output.style;
            let marks: Vec<_> = if args.forbidden {
                pattern::fouls(board)
                    .into_iter()
                    .map(|(p, _)| (p, text::Mark::Forbidden))
                    .collect()
            } else {
                Vec::new()
            };
            let mut s = id.map(|id| format!("# {id}\n")).unwrap_or_default();
            s.push_str(&text::board(board, &marks, style));
            let keys: &[text::Key] = if args.forbidden {
                &[text::Key::Forbidden]
            } else {
                &[]
            };
            s.push_str(&text::footer(board, keys, style));
            s.push_str(&text::opening(board));
            s
        }
    };
    let svg = || {
        picture::board_svg(
            board,
            &picture::BoardPicture {
                move_numbers: args.output.numbers,
                forbidden: super::forbidden_marks(board),
                // A finished game's picture says how it ended, not whose move it would be.
                caption: Some(board.winner().map_or_else(
                    || format!("{} to move", board.to_move()),
                    |five| text::five_words(&five),
                )),
                ..Default::default()
            },
        )
    };
    let bytes = report(&args.output, text, svg)?;
    deliver(out, &args.output, &bytes)?;
    Ok(0)
}
