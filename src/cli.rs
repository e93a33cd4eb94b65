//! Command-line interface: clap types, and the commands that turn them into library calls.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::board::{Board, Color, Rule};
use crate::error::Error;
use crate::input::{self, LoadOptions, Loaded, Source};
use crate::notation::puzzle::Meta;
use crate::notation::{Format, diagram, moves, order, psq, puzzle};
use crate::report::{json, text};
use crate::setup::Given;

/// Analyse Gomoku and Renju positions and solve their puzzles.
///
/// Coordinates are RIF: column letter from the left, row number from the bottom (h8 is the
/// centre of 15x15); black moves first.
#[derive(Parser, Debug)]
#[command(name = "tengen", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show a position as a board diagram (or JSON).
    Show(ShowArgs),
    /// Convert a position to another format.
    Convert(ConvertArgs),
}

/// Where the position comes from and what the user says about it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// A file path, a literal move list (`"h8 i9 j10"`, a gomocalc URL), or `-` for standard input.
    pub position: String,
    /// The rule (default: the puzzle's, else freestyle).
    #[arg(long, value_enum)]
    pub rule: Option<RuleArg>,
    /// Board size, 5 to 22 (default: what the input says, else 15).
    #[arg(long, value_parser = clap::value_parser!(u8).range(5..=22))]
    pub size: Option<u8>,
    /// The side to move, overriding the input.
    #[arg(long, value_enum)]
    pub to_move: Option<ColorArg>,
    /// Pick this puzzle out of a puzzle file.
    #[arg(long)]
    pub id: Option<String>,
    /// Read the input as this format instead of detecting it.
    #[arg(long, value_enum)]
    pub input_format: Option<Format>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RuleArg {
    Freestyle,
    Standard,
    Renju,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ColorArg {
    Black,
    White,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// How results are printed.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Text for people, JSON for programs.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Colour the text output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: Format,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

impl From<RuleArg> for Rule {
    fn from(r: RuleArg) -> Rule {
        match r {
            RuleArg::Freestyle => Rule::Freestyle,
            RuleArg::Standard => Rule::Standard,
            RuleArg::Renju => Rule::Renju,
        }
    }
}

impl From<ColorArg> for Color {
    fn from(c: ColorArg) -> Color {
        match c {
            ColorArg::Black => Color::Black,
            ColorArg::White => Color::White,
        }
    }
}

impl PositionArgs {
    fn given(&self) -> Given {
        Given {
            rule: self.rule.map(Rule::from),
            size: self.size,
            to_move: self.to_move.map(Color::from),
        }
    }

    fn load(&self) -> Result<Loaded, Error> {
        let source = Source::from_arg(&self.position)?;
        let opts = LoadOptions {
            format: self.input_format,
            id: self.id.clone(),
            given: self.given(),
        };
        input::load(&source, &opts)
    }

    /// Every position of the input: all the puzzles of a puzzle file read without `--id`, else
    /// the one position.
    fn load_many(&self) -> Result<Vec<Loaded>, Error> {
        let source = Source::from_arg(&self.position)?;
        let format = self
            .input_format
            .unwrap_or_else(|| Format::detect(&source.text));
        if format == Format::Puzzle && self.id.is_none() {
            return input::load_all(&source, self.given());
        }
        let opts = LoadOptions {
            format: Some(format),
            id: self.id.clone(),
            given: self.given(),
        };
        Ok(vec![input::load(&source, &opts)?])
    }
}

impl OutputArgs {
    /// The text style, following `--color`, `NO_COLOR` and whether stdout is a terminal.
    pub fn style(&self) -> text::Style {
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
                    && std::env::var("TERM").map_or(true, |t| t != "dumb")
            }
        };
        colored::control::set_override(color);
        text::Style { color }
    }
}

/// Runs a command, writing its output to `out`; returns the exit code.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<u8, Error> {
    match cli.command {
        Command::Show(args) => show(args, out),
        Command::Convert(args) => convert(args, out),
    }
}

fn emit(out: &mut dyn Write, text: &str) -> Result<(), Error> {
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|source| Error::Write {
            path: "<stdout>".into(),
            source,
        })
}

fn show(args: ShowArgs, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = args.position.load()?;
    let id = loaded.meta.as_ref().map(|m| m.id.as_str());
    let text = match args.output.format {
        OutputFormat::Json => {
            let doc = json::Position::of(&loaded.board, id);
            serde_json::to_string_pretty(&doc).expect("plain data serializes") + "\n"
        }
        OutputFormat::Text => {
            let style = args.output.style();
            let mut s = String::new();
            if let Some(id) = id {
                s.push_str(&format!("# {id}\n"));
            }
            s.push_str(&text::board(&loaded.board, &[], style));
            s.push_str(&text::footer(&loaded.board, ""));
            s
        }
    };
    emit(out, &text)?;
    Ok(0)
}

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

fn convert(args: ConvertArgs, out: &mut dyn Write) -> Result<u8, Error> {
    let all = args.position.load_many()?;
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
                args.position.position,
                all.len(),
                args.to
            )));
        }
    };
    match &args.output {
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
    let fail = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}
