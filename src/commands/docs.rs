//! `tengen completions` and `tengen man`: the shell completion scripts and the manual pages,
//! both generated from the command line's own definition ([`crate::cli::Cli`]), so they can
//! never disagree with `--help`.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use super::emit;
use crate::cli::Cli;
use crate::error::Error;
use crate::output;

/// The command line as clap builds it, without the `help` subcommand (each command has
/// `--help`; a page or completion for `help` would only repeat them).
fn cli() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell, out: &mut dyn Write) -> Result<u8, Error> {
    let mut cmd = cli();
    let name = cmd.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut script);
    emit(out, &String::from_utf8_lossy(&script))?;
    Ok(0)
}

/// One manual page: `tengen(1)`, or `tengen-NAME(1)` for a command.
struct Page {
    file: String,
    roff: String,
}

/// Every page: `tengen.1` first, then one a command in `--help` order.
fn pages() -> Vec<Page> {
    let top = cli();
    let subs: Vec<clap::Command> = top.get_subcommands().cloned().collect();
    let see_also: Vec<String> = subs
        .iter()
        .map(|s| format!("\\fBtengen\\-{}\\fR(1)", s.get_name()))
        .collect();
    let mut out = vec![page(top, &see_also.join(",\n"))];
    for sub in subs {
        out.push(page(sub, "\\fBtengen\\fR(1)"));
    }
    out
}

fn page(cmd: clap::Command, see_also: &str) -> Page {
    // Every page names the program and its version (a command's page would otherwise have
    // the command's name and no version).
    let source = format!("tengen {}", env!("CARGO_PKG_VERSION"));
    let man = clap_mangen::Man::new(cmd).source(source);
    let file = man.get_filename();
    let mut roff = Vec::new();
    man.render(&mut roff)
        .expect("rendering into memory cannot fail");
    let mut roff = String::from_utf8_lossy(&roff).into_owned();
    roff.push_str(&format!(".SH \"SEE ALSO\"\n{see_also}\n"));
    Page { file, roff }
}

/// `tengen man`: prints `tengen(1)`, or the page of `command`; with `dir`, writes every page
/// into it instead (creating it) and prints their paths.
pub fn man(command: Option<&str>, dir: Option<&Path>, out: &mut dyn Write) -> Result<u8, Error> {
    let pages = pages();
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut written = String::new();
        for p in &pages {
            let path = dir.join(&p.file);
            output::write(&path, &p.roff, true)?;
            written.push_str(&format!("{}\n", path.display()));
        }
        emit(out, &written)?;
        return Ok(0);
    }
    let wanted = match command {
        None => "tengen.1".to_string(),
        Some(c) => format!("tengen-{c}.1"),
    };
    match pages.iter().find(|p| p.file == wanted) {
        Some(p) => emit(out, &p.roff)?,
        None => {
            let names: Vec<String> = cli()
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            return Err(Error::usage(format!(
                "no command '{}': the pages are for {}",
                command.unwrap_or_default(),
                names.join(", ")
            )));
        }
    }
    Ok(0)
}
