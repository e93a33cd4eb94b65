use std::io::Write;

use super::{deliver, report, to_json};
use crate::board::Rule;
use crate::config::Forbidden;
use crate::error::Error;
use crate::pattern;
use crate::report::picture;
use crate::report::{json, text};

pub fn run(args: Forbidden, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = args.input.load()?;
    let board = &loaded.board;
    let fouls = pattern::fouls(board);
    let text = || match args.output.json {
        true => to_json(&json::Forbidden {
            rule: board.rule(),
            points: fouls
                .iter()
                .map(|&(point, foul)| json::ForbiddenPoint { point, foul })
                .collect(),
        }),
        false => {
            let style = args.output.style;
            let marks: Vec<_> = fouls
                .iter()
                .map(|&(p, _)| (p, text::Mark::Forbidden))
                .collect();
            let mut s = text::board(board, &marks, style);
            s.push_str(&text::footer(board, &[text::Key::Forbidden], style));
            if board.rule() != Rule::Renju {
                s.push_str(&format!(
                    "no forbidden points: only renju forbids moves (rule {})\n",
                    board.rule()
                ));
            } else if fouls.is_empty() {
                s.push_str("no forbidden points\n");
            }
            for (p, f) in &fouls {
                s.push_str(&format!("{p} {f}\n"));
            }
            s
        }
    };
    let svg = || {
        picture::board_svg(
            board,
            &picture::BoardPicture {
                move_numbers: args.output.numbers,
                forbidden: fouls.iter().map(|&(p, _)| p).collect(),
                // As the text says it.
                caption: Some(if board.rule() != Rule::Renju {
                    "no forbidden points: only renju forbids moves".to_string()
                } else if fouls.is_empty() {
                    "no forbidden points".to_string()
                } else {
                    crate::words::plural(fouls.len(), "forbidden point", "forbidden points")
                }),
                ..Default::default()
            },
        )
    };
    let bytes = report(&args.output, text, svg)?;
    deliver(out, &args.output, &bytes)?;
    Ok(0)
}
