use std::io::Write;

use super::emit;
use crate::board::Board;
use crate::config::{Convert, ConvertTo};
use crate::error::Error;
use crate::files::output;
use crate::notation::puzzle::Meta;
use crate::notation::{self, Format};

/// Writes `board` as `to` asks; a position without a game order cannot be a move list or a
/// link, and a link is only of a 15x15 board.
fn write_format(board: &Board, meta: Option<&Meta>, to: ConvertTo) -> Result<String, Error> {
    let written = match to {
        ConvertTo::Format(format) => {
            notation::write::write(board, meta, format).map_err(|e| e.to_string())
        }
        ConvertTo::Url => notation::write::url(board).map_err(|e| e.to_string()),
    };
    written.map_err(|e| Error::usage(format!("cannot write {to}: {e}")))
}

pub fn run(args: Convert, out: &mut dyn Write) -> Result<u8, Error> {
    let all = args.input.load_many()?;
    let text = match &all[..] {
        [one] => write_format(&one.board, one.meta.as_ref(), args.to)?,
        _ if args.to == ConvertTo::Format(Format::Puzzle) => {
            let blocks: Vec<String> = all
                .iter()
                .map(|l| write_format(&l.board, l.meta.as_ref(), args.to))
                .collect::<Result<_, _>>()?;
            blocks.join("\n")
        }
        _ => {
            return Err(Error::usage(format!(
                "{} holds {}: pick one with --id to convert it to {}",
                args.input.name(),
                crate::words::plural(all.len(), "puzzle", "puzzles"),
                args.to
            )));
        }
    };
    match &args.path {
        None => emit(out, &text)?,
        Some(path) => output::write(path, &text, args.force)?,
    }
    Ok(0)
}
