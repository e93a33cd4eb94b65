//! The commands: each turns its validated configuration into library calls and writes a
//! report.

mod analyze;
mod bench;
mod check;
mod convert;
mod docs;
mod forbidden;
#[doc(hidden)]
pub mod fuzzing;
mod review;
mod serve;
mod show;
mod solve;
mod spinner;

use std::io::Write;

use std::io::IsTerminal;

use crate::config::{Config, Output, Picture, ReportFile};
use crate::error::Error;

/// Runs a command, writing its output to `out` (or its `-o` file); returns the exit code.
pub fn run(config: Config, out: &mut dyn Write) -> Result<u8, Error> {
    // A report file that cannot be written (it exists without --force, its folder is missing)
    // is refused before the work, not after a long analysis.
    if let Some((path, force)) = config.report_file() {
        crate::files::output::check(path, force)?;
    }
    match config {
        Config::Show(c) => show::run(c, out),
        Config::Convert(c) => convert::run(c, out),
        Config::Forbidden(c) => forbidden::run(c, out),
        Config::Analyze(c) => analyze::run(c, out),
        Config::Solve(c) => solve::run(c, out),
        Config::Review(c) => review::run(c, out),
        Config::Bench(c) => to_file(c.file.clone(), out, |out| bench::run(c, out)),
        Config::Check(c) => to_file(c.file.clone(), out, |out| check::run(c, out)),
        Config::Serve(c) => serve::run(c, out),
        Config::Brain { debug } => brain(debug, out),
        Config::Completions(shell) => docs::completions(shell, out),
        Config::Man(c) => docs::man(c.command.as_deref(), c.dir.as_deref(), out),
    }
}

/// `tengen brain`: the protocol on standard input and `out` until `END` or the end of input.
/// A closed output ends it quietly, as a closed pipe does elsewhere.
fn brain(debug: bool, out: &mut dyn Write) -> Result<u8, Error> {
    let input = std::io::BufReader::new(std::io::stdin());
    let options = crate::protocol::BrainOptions {
        debug,
        ..Default::default()
    };
    crate::protocol::run(input, out, options).map_err(|source| Error::Write {
        path: "<stdout>".into(),
        source,
    })?;
    Ok(0)
}

/// Runs a command that streams its report into `out`; with a `-o` file, into memory instead,
/// written to the file whole once the command has run (whatever its exit code), never a
/// partial file.
fn to_file(
    file: Option<ReportFile>,
    out: &mut dyn Write,
    command: impl FnOnce(&mut dyn Write) -> Result<u8, Error>,
) -> Result<u8, Error> {
    let Some(file) = file else {
        return command(out);
    };
    let mut report = Vec::new();
    let code = command(&mut report)?;
    crate::files::output::write(&file.path, &report, file.force)?;
    Ok(code)
}

/// Writes `text` to the output (a closed pipe comes back as a write error main ignores).
fn emit(out: &mut dyn Write, text: &str) -> Result<(), Error> {
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|source| Error::Write {
            path: "<stdout>".into(),
            source,
        })
}

/// Writes a command's report where `output` says: the `-o` file (through the safe writer) or
/// `out`. A PNG is not written to a terminal.
fn deliver(out: &mut dyn Write, output: &Output, bytes: &[u8]) -> Result<(), Error> {
    if let Some(path) = &output.path {
        return crate::files::output::write(path, bytes, output.force);
    }
    if output.picture == Some(Picture::Png) && std::io::stdout().is_terminal() {
        return Err(Error::usage(
            "a PNG is binary: write it to a file with -o FILE (or redirect standard output)",
        ));
    }
    out.write_all(bytes)
        .and_then(|_| out.flush())
        .map_err(|source| Error::Write {
            path: "<stdout>".into(),
            source,
        })
}

/// The report's bytes: the picture `svg` makes when one is asked for (`svg` is only called
/// then), else `text`.
fn report(
    output: &Output,
    text: impl FnOnce() -> String,
    svg: impl FnOnce() -> String,
) -> Result<Vec<u8>, Error> {
    match output.picture {
        None => Ok(text().into_bytes()),
        Some(Picture::Svg) => Ok(svg().into_bytes()),
        Some(Picture::Png) => crate::report::picture::png(&svg()).map_err(|e| Error::Write {
            path: "<png>".into(),
            source: std::io::Error::other(format!("the PNG could not be rendered: {e}")),
        }),
    }
}

/// Black's forbidden points to cross on a picture: under renju with black to move.
fn forbidden_marks(board: &crate::board::Board) -> Vec<crate::board::Point> {
    if board.rule() == crate::board::Rule::Renju && board.to_move() == crate::board::Color::Black {
        crate::pattern::fouls(board)
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    } else {
        Vec::new()
    }
}

/// Pretty JSON with a final newline.
fn to_json<T: serde::Serialize>(doc: &T) -> String {
    serde_json::to_string_pretty(doc).expect("plain data serializes") + "\n"
}
