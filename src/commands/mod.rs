//! The commands: each turns its validated arguments into library calls and writes a report.

mod bench;
mod convert;
mod forbidden;
mod show;
mod solve;

use std::io::Write;

pub use bench::{Case, case, vcf_case};
pub use convert::{write_atomic, write_format};

use crate::cli::{Cli, Command};
use crate::error::Error;

/// Runs a command, writing its output to `out`; returns the exit code.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<u8, Error> {
    match cli.command {
        Command::Show(args) => show::run(args, out),
        Command::Convert(args) => convert::run(args, out),
        Command::Forbidden(args) => forbidden::run(args, out),
        Command::Solve(args) => solve::run(args, out),
        Command::Bench(args) => bench::run(args, out),
    }
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

/// Pretty JSON with a final newline.
fn to_json<T: serde::Serialize>(doc: &T) -> String {
    serde_json::to_string_pretty(doc).expect("plain data serializes") + "\n"
}
