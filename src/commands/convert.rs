use std::io::Write;
use std::path::Path;

use super::emit;
use crate::board::Board;
use crate::config::Convert;
use crate::error::Error;
use crate::notation::puzzle::Meta;
use crate::notation::{Format, diagram, moves, order, psq, puzzle};

/// Writes `board` in `format`; `meta` is kept when writing a puzzle.
pub fn write_format(board: &Board, meta: Option<&Meta>, format: Format) -> Result<String, Error> {
    let order = || {
        order::game_order(board).map_err(|e| Error::usage(format!("cannot write {format}: {e}")))
    };
    Ok(match format {
        Format::Moves => moves::write(&order()?) + "\n",
        Format::Psq => psq::write(board.size(), &order()?),
        Format::Diagram => diagram::write(board),
        Format::Puzzle => {
            let default = Meta {
                id: "position".into(),
                ..Meta::default()
            };
            puzzle::write(meta.unwrap_or(&default), board)
        }
    })
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
                "{} holds {} puzzles: pick one with --id to convert it to {}",
                args.input.source,
                all.len(),
                args.to
            )));
        }
    };
    match &args.path {
        None => emit(out, &text)?,
        Some(path) => write_atomic(path, &text, args.force)?,
    }
    Ok(0)
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so the
/// file is either the old one or the whole new one; refuses to replace a file unless `force`.
pub fn write_atomic(path: &Path, text: &str, force: bool) -> Result<(), Error> {
    if path.exists() && !force {
        return Err(Error::usage(format!(
            "{} exists: pass --force to replace it",
            path.display()
        )));
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tengen-{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(source) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::Write {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(())
}
