use std::io::Write;

use super::emit;
use crate::board::Board;
use crate::config::Convert;
use crate::error::Error;
use crate::files::output;
use crate::notation::puzzle::Meta;
use crate::notation::{self, Format};

/// Writes `board` in `format`; a position without a game order cannot be a move list.
fn write_format(board: &Board, meta: Option<&Meta>, format: Format) -> Result<String, Error> {
    notation::write::write(board, meta, format)
        .map_err(|e| Error::usage(format!("cannot write {format}: {e}")))
}

pub fn run(args: Convert, out: &mut dyn Write) -> Result<u8, Error> {
    let all = args.input.load_many()?;
    let text = match &all[..] {
        [one] => write_format(&one.board, one.meta.as_ref(), args.to)?,
        _ if args.to == Format::Puzzle => {
            let blocks: Vec<String> = all
                .iter()
                .map(|l| write_format(&l.board, l.meta.as_ref(), Format::Puzzle))
                .collect::<Result<_, _>>()?;
            blocks.join("\n")
        }
        _ => {
            return Err(Error::usage(format!(
                "{} holds {}: pick one with --id to convert it to {}",
                args.input.source,
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
