//! The error type of the library and how the binary prints it: `file:line:column`, what was
//! expected and what was found, and the offending line with a caret under the column.

use std::fmt;
use std::path::PathBuf;

use crate::notation::diagram;
use crate::notation::span::{Loc, Located};
use crate::notation::{DiagramError, MovesError, PsqError, PuzzleError, SgfError};
use crate::setup::SetupError;
use crate::solve::task::SolverBug;
use crate::solve::tt::MemoryError;

/// An error in some input text, from any parser or from validation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// In a move list.
    #[error(transparent)]
    Moves(#[from] MovesError),
    /// In a board diagram.
    #[error(transparent)]
    Diagram(#[from] DiagramError),
    /// In a `.psq` file.
    #[error(transparent)]
    Psq(#[from] PsqError),
    /// In a puzzle file.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// In an SGF file.
    #[error(transparent)]
    Sgf(#[from] SgfError),
    /// In the position itself (taken points, a game already won, ...).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Nothing to read: an empty file, argument or standard input (only blanks).
    #[error(
        "the input is empty: no moves, board or puzzle (for the empty board, give a board diagram of '.')"
    )]
    Empty,
}

impl Located for InputError {
    fn loc(&self) -> Loc {
        match self {
            InputError::Moves(e) => e.loc(),
            InputError::Diagram(e) => e.loc(),
            InputError::Psq(e) => e.loc(),
            InputError::Puzzle(e) => e.loc(),
            InputError::Sgf(e) => e.loc(),
            InputError::Setup(e) => e.loc(),
            InputError::Empty => Loc::new(1, 1),
        }
    }
}

/// The most characters of a line an error's snippet shows.
pub const SNIPPET_WIDTH: usize = 100;

/// An [`InputError`] with the name and text of the input it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// The input's name: a path, `<stdin>` or `<argument>`.
    pub name: String,
    /// The whole input text.
    pub text: String,
    /// What is wrong, and where.
    pub error: InputError,
}

impl SourceError {
    /// The offending line with a caret under the error's column. A long line is cut to about
    /// [`SNIPPET_WIDTH`] characters around the column, with `…` where it was cut.
    pub fn snippet(&self) -> Option<String> {
        let loc = self.error.loc();
        let line = self.text.lines().nth(loc.line.checked_sub(1)? as usize)?;
        let number = loc.line.to_string();
        let pad = " ".repeat(number.len());
        let column = loc.column.saturating_sub(1) as usize;
        let length = line.chars().count();
        let start = column
            .saturating_sub(SNIPPET_WIDTH / 2)
            .min(length.saturating_sub(SNIPPET_WIDTH));
        let shown: String = line.chars().skip(start).take(SNIPPET_WIDTH).collect();
        let before = if start > 0 { "…" } else { "" };
        let after = if start + SNIPPET_WIDTH < length {
            "…"
        } else {
            ""
        };
        let caret_pad: String = before
            .chars()
            .chain(line.chars().skip(start).take(column - start))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        Some(format!(
            "{pad} |\n{number} | {before}{shown}{after}\n{pad} | {caret_pad}^"
        ))
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.name, self.error.loc(), self.error)
    }
}

impl std::error::Error for SourceError {}

/// Every error tengen reports; all of them exit with code 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An input names no file (or folder) that exists.
    #[error("no such {what}: {}{note}", path.display())]
    NoSuchFile {
        /// The path as given.
        path: PathBuf,
        /// `file`, or `file or folder` where a folder would do.
        what: &'static str,
        /// More to say (`, nor is it a move list ...`), or nothing.
        note: String,
    },
    /// An input is larger than tengen reads.
    #[error(
        "{} is larger than {} MiB, the most tengen reads; positions and puzzle files are far smaller (split a big collection into several files)",
        path.display(),
        limit >> 20
    )]
    TooLarge {
        /// The file (`<stdin>` for standard input).
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// An output could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file (`<stdout>` for standard output).
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An input is not a valid position.
    #[error("{0}")]
    Input(Box<SourceError>),
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// Memory for the search tables could not be had.
    #[error("{0}: try a smaller --hash-mb")]
    Memory(#[from] MemoryError),
    /// A bug in tengen: a solver's claim failed its independent check.
    #[error(
        "internal error: {bug}; please report this position:\n{}",
        diagram::write(&bug.position)
    )]
    Internal {
        /// What failed, with the position.
        bug: Box<SolverBug>,
    },
}

impl From<SolverBug> for Error {
    fn from(bug: SolverBug) -> Error {
        Error::Internal { bug: Box::new(bug) }
    }
}

impl Error {
    /// A usage error with this message.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }
}

impl From<SourceError> for Error {
    fn from(e: SourceError) -> Error {
        Error::Input(Box::new(e))
    }
}
