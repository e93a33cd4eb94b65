//! tengen: analyse Gomoku and Renju positions and solve their puzzles.
//!
//! Data flows one way: text → [`setup::Setup`] → validated [`Board`] → search → report.
//!
//! The layers, from the ground up (each imports only those below it):
//!
//! - [`board`]: points, colours, rules, the board with place / undo, its incremental line
//!   keys and shapes ([`board::shape`]), win detection, and the names of the 26 canonical
//!   renju openings ([`board::openings`]). [`rng`]: the one seeded generator.
//! - [`pattern`]: what the shapes add up to at a point ([`pattern::Class`]); Renju forbidden
//!   points; a slow reference judge.
//! - [`setup`]: a parsed position and its validation into a board.
//! - [`solve`]: the threat solvers (VCF, VCT, win in N), their proofs and verifiers, and the
//!   library's entry point to them, [`solve::task`].
//! - [`notation`]: one nom parser and one writer per text format (move lists, diagrams,
//!   `.psq`, puzzle files, SGF), and format detection.
//! - [`analyze`]: the analyzer — alpha-beta over threat-aware candidates with VCF at the
//!   horizon, every candidate scored, mates verified; a whole game's review
//!   ([`analyze::review`]) and the fit of the evaluation ([`analyze::learn`]).
//! - [`error`]: errors and how they are shown; [`files`]: the user's files, read
//!   ([`files::input`]: from a command-line argument to a board) and written safely
//!   ([`files::output`]).
//! - [`check`]: a puzzle's stated answer against the solvers (`tengen check`), and which
//!   solver task a puzzle is a case for ([`check::cases`]).
//! - [`protocol`]: the Gomocup protocol front end (`tengen brain`, `pbrain-tengen`).
//! - [`report`]: coloured diagrams, proof trees, JSON, pictures and `check`'s printers.
//! - [`cli`]: the clap types; [`config`]: one validated configuration per command;
//!   [`commands`]: each command as library calls. [`words`]: counts in English (`1 move`,
//!   `2 moves`).
#![warn(missing_docs)]

pub mod analyze;
pub mod board;
pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod error;
pub mod files;
pub mod notation;
pub mod pattern;
pub mod protocol;
pub mod report;
pub mod rng;
pub mod setup;
pub mod solve;
pub mod words;

pub use board::{Board, Color, Point, Rule};
