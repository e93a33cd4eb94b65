//! From a command-line argument to a validated board: read the file, standard input or the
//! literal text; detect (or take) the format; parse; pick a puzzle by id; validate.

use std::io::Read;
use std::path::Path;

use crate::board::Board;
use crate::error::{Error, InputError, SourceError};
use crate::notation::puzzle::{Meta, Puzzle};
use crate::notation::span::{Loc, Located, Span};
use crate::notation::{Format, diagram, moves, psq, puzzle, sgf};
use crate::setup::{Given, Setup, Stones};

/// Input text and the name errors give it (a path, `<stdin>` or `<argument>`).
#[derive(Clone, Debug)]
pub struct Source {
    /// The name errors give it.
    pub name: String,
    /// The text.
    pub text: String,
}

fn looks_like_path(arg: &str) -> bool {
    if arg.contains("://") {
        return false;
    }
    // A move list or a gomocalc URL has no '.' but in its `://` address: a word with a short
    // extension (`game.ps`, a typo of `game.psq`) is a file name.
    let ext = Path::new(arg)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let extension = (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric());
    arg.contains(['/', '\\']) || (extension && !arg.contains(char::is_whitespace))
}

/// Whether an argument that names no file, and has no path's look, is still meant as one: a
/// single word (`nosuch`, `game1`) that is no other format and whose very first move does not
/// read (a move is a letter and then a row number). A move list with a typo further on
/// (`h8i9z`) is a move list, and its parser says where.
fn looks_like_a_file_name(arg: &str) -> bool {
    if arg.trim().is_empty() || arg.contains(char::is_whitespace) || arg.contains([',', ';', '#']) {
        return false;
    }
    if Format::detect(arg) != Format::Moves {
        return false;
    }
    match moves::parse(Span::new(arg)) {
        Ok(_) => false,
        Err(e) => {
            let at = e.loc();
            at.line == 1 && at.column <= 2
        }
    }
}

/// The largest input tengen reads: 64 MiB. Real game and puzzle files are far smaller; a larger
/// input is refused before it is read rather than filling memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// Reads all of `reader`, refusing more than [`MAX_INPUT`] bytes.
fn read_limited(reader: impl Read, name: &Path) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Read {
            path: name.into(),
            source,
        })?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(Error::TooLarge {
            path: name.into(),
            limit: MAX_INPUT,
        });
    }
    Ok(bytes)
}

impl Source {
    /// `-` reads standard input; an existing path reads that file; anything else that does not
    /// look like a path is the position text itself (a move list or URL).
    pub fn from_arg(arg: &str) -> Result<Source, Error> {
        if arg == "-" {
            let bytes = read_limited(std::io::stdin().lock(), Path::new("<stdin>"))?;
            return Source::from_bytes("<stdin>", bytes);
        }
        let path = Path::new(arg);
        if path.exists() || looks_like_path(arg) {
            let file = std::fs::File::open(path).map_err(|source| match source.kind() {
                std::io::ErrorKind::NotFound => Error::NoSuchFile {
                    path: path.into(),
                    what: "file",
                    note: String::new(),
                },
                _ => Error::Read {
                    path: path.into(),
                    source,
                },
            })?;
            return Source::from_bytes(arg, read_limited(file, path)?);
        }
        if looks_like_a_file_name(arg) {
            return Err(Error::NoSuchFile {
                path: path.into(),
                what: "file",
                note: ", nor is it a move list (moves are a column letter and a row, like h8 i9)"
                    .into(),
            });
        }
        Ok(Source {
            name: "<argument>".into(),
            text: arg.to_string(),
        })
    }

    fn from_bytes(name: &str, bytes: Vec<u8>) -> Result<Source, Error> {
        let text = String::from_utf8(bytes).map_err(|e| Error::Read {
            path: name.into(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "not UTF-8 text (bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            ),
        })?;
        let text = text
            .strip_prefix('\u{feff}')
            .map(str::to_string)
            .unwrap_or(text);
        Ok(Source {
            name: name.to_string(),
            text,
        })
    }

    /// Wraps an input error with this source's name and text.
    pub fn error(&self, error: impl Into<InputError>) -> Error {
        Error::from(SourceError {
            name: self.name.clone(),
            text: self.text.clone(),
            error: error.into(),
        })
    }
}

/// How to read a position: the forced format, the puzzle id, and what the user said.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The format, when not detected.
    pub format: Option<Format>,
    /// The puzzle to pick out of a puzzle file.
    pub id: Option<String>,
    /// What the user says about the position.
    pub given: Given,
}

/// A validated position and, for a puzzle, what the puzzle says besides.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The position.
    pub board: Board,
    /// A puzzle's id, answer, limits and other keys.
    pub meta: Option<Meta>,
    /// The format it was read in.
    pub format: Format,
}

/// Picks the puzzle `id` (or the only one) out of a puzzle file, reading the file in one pass
/// that keeps only the ids seen and the puzzle picked. Like [`puzzle::parse`], the first error
/// in the file refuses it.
pub fn pick(source: &Source, id: Option<&str>) -> Result<Puzzle, Error> {
    let name = &source.name;
    let mut ids: Vec<String> = Vec::new();
    let mut picked = None;
    for p in puzzle::parse_each(Span::new(&source.text)) {
        let p = p.map_err(|f| source.error(f.error))?;
        let wanted = match id {
            Some(id) => p.meta.id == id,
            None => ids.is_empty(),
        };
        ids.push(p.meta.id.clone());
        if wanted && picked.is_none() {
            picked = Some(p);
        }
    }
    if ids.is_empty() {
        return Err(source.error(puzzle::PuzzleError::Empty {
            loc: Loc::new(1, 1),
        }));
    }
    match (id, picked) {
        (None, Some(p)) if ids.len() == 1 => Ok(p),
        (Some(_), Some(p)) => Ok(p),
        (Some(id), None) => {
            let similar: Vec<&str> = ids
                .iter()
                .map(String::as_str)
                .filter(|other| other.contains(id) || id.contains(*other))
                .take(5)
                .collect();
            let hint = if similar.is_empty() {
                String::new()
            } else {
                format!(" (similar: {})", similar.join(", "))
            };
            Err(Error::usage(format!(
                "{name} has no puzzle with id '{id}'{hint}"
            )))
        }
        (None, _) => {
            let first: Vec<&str> = ids.iter().take(5).map(String::as_str).collect();
            Err(Error::usage(format!(
                "{name} holds {} puzzles: pick one with --id (for example {})",
                ids.len(),
                first.join(", ")
            )))
        }
    }
}

/// Reads the game `--id` names (its `GN`, else its number from 1), or the first, out of an SGF
/// file. Like a puzzle file, the whole file must parse.
pub fn pick_game(source: &Source, opts: &LoadOptions) -> Result<Setup, Error> {
    let options = sgf::SgfOptions {
        pick: opts.id.as_deref().map_or(sgf::Pick::First, sgf::Pick::Id),
        size: opts.given.size.unwrap_or(crate::board::DEFAULT_SIZE),
        rule_given: opts.given.rule.is_some(),
    };
    let collection = sgf::parse(Span::new(&source.text), options).map_err(|e| source.error(e))?;
    match (collection.game, opts.id.as_deref()) {
        (Some(game), _) => Ok(game.setup),
        (None, id) => Err(Error::usage(format!(
            "{} has no game '{}': it holds {} (by name or number: {}{})",
            source.name,
            id.unwrap_or("1"),
            crate::words::plural(collection.games, "game", "games"),
            collection.first_names.join(", "),
            if collection.games > collection.first_names.len() {
                ", …"
            } else {
                ""
            }
        ))),
    }
}

/// Reads the puzzles of a puzzle file one at a time, validating each position as it comes:
/// memory holds one puzzle and the index of ids, whatever the file's length. The first error
/// ends the file (an error in the file as a whole, such as no puzzles, comes last).
pub fn load_all(source: &Source, given: Given) -> impl Iterator<Item = Result<Loaded, Error>> {
    let mut each = puzzle::parse_each(Span::new(&source.text));
    let (mut any, mut done) = (false, false);
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let Some(next) = each.next() else {
            done = true;
            return (!any).then(|| {
                Err(source.error(puzzle::PuzzleError::Empty {
                    loc: Loc::new(1, 1),
                }))
            });
        };
        any = true;
        let loaded = next.map_err(|f| source.error(f.error)).and_then(|p| {
            let board = p.setup.into_board(given).map_err(|e| source.error(e))?;
            Ok(Loaded {
                board,
                meta: Some(p.meta),
                format: Format::Puzzle,
            })
        });
        done = loaded.is_err();
        Some(loaded)
    })
}

/// Reads one position from `source`.
pub fn load(source: &Source, opts: &LoadOptions) -> Result<Loaded, Error> {
    if source.text.trim().is_empty() {
        return Err(source.error(InputError::Empty));
    }
    let format = opts.format.unwrap_or_else(|| Format::detect(&source.text));
    if opts.id.is_some() && !matches!(format, Format::Puzzle | Format::Sgf) {
        return Err(Error::usage(format!(
            "--id picks a puzzle of a puzzle file or a game of an SGF file, but {} is a {format} input",
            source.name
        )));
    }
    let span = Span::new(&source.text);
    let (setup, meta) = match format {
        Format::Moves => {
            let ms = moves::parse(span).map_err(|e| source.error(e))?;
            let setup = Setup {
                size: None,
                rule: None,
                to_move: None,
                stones: Stones::Moves(ms),
                loc: Loc::new(1, 1),
            };
            (setup, None)
        }
        Format::Diagram => (diagram::parse(span).map_err(|e| source.error(e))?, None),
        Format::Psq => (psq::parse(span).map_err(|e| source.error(e))?, None),
        Format::Puzzle => {
            let p = pick(source, opts.id.as_deref())?;
            (p.setup, Some(p.meta))
        }
        Format::Sgf => (pick_game(source, opts)?, None),
    };
    let board = setup.into_board(opts.given).map_err(|e| source.error(e))?;
    Ok(Loaded {
        board,
        meta,
        format,
    })
}

/// A position to read, as the command line gives it: the argument (a path, `-` or the text
/// itself) and how to read it.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// A file path, `-` for standard input, or a literal move list or URL.
    pub source: String,
    /// The format, when not detected.
    pub format: Option<Format>,
    /// The puzzle to pick out of a puzzle file.
    pub id: Option<String>,
    /// What the user says about the position (rule, size, side to move).
    pub given: Given,
    /// Take `source` as the position's text, never as a path or `-`: a server reads no file
    /// its client names.
    pub literal: bool,
}

impl Request {
    fn options(&self) -> LoadOptions {
        LoadOptions {
            format: self.format,
            id: self.id.clone(),
            given: self.given,
        }
    }

    /// How errors name the input: the argument as given, or `the position` for a literal.
    pub fn name(&self) -> &str {
        if self.literal {
            "the position"
        } else {
            &self.source
        }
    }

    /// The input: the text itself when `literal`, else what the argument names.
    fn read(&self) -> Result<Source, Error> {
        if self.literal {
            if self.source.len() as u64 > MAX_INPUT {
                return Err(Error::TooLarge {
                    path: "<position>".into(),
                    limit: MAX_INPUT,
                });
            }
            return Ok(Source {
                name: "<position>".into(),
                text: self.source.clone(),
            });
        }
        Source::from_arg(&self.source)
    }

    /// Reads the one position asked for.
    pub fn load(&self) -> Result<Loaded, Error> {
        load(&self.read()?, &self.options())
    }

    /// Every position of the input: all the puzzles of a puzzle file read without an id, else
    /// the one position.
    pub fn load_many(&self) -> Result<Vec<Loaded>, Error> {
        let source = self.read()?;
        let format = self.format.unwrap_or_else(|| Format::detect(&source.text));
        if format == Format::Puzzle && self.id.is_none() {
            return load_all(&source, self.given).collect();
        }
        let opts = LoadOptions {
            format: Some(format),
            ..self.options()
        };
        Ok(vec![load(&source, &opts)?])
    }
}
