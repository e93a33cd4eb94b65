//! tengen: analyse Gomoku and Renju positions and solve their puzzles.
//!
//! Data flows one way: text → [`setup::Setup`] → validated [`Board`] → search → report.
//!
//! - [`board`]: points, colours, rules, the board with place / undo and win detection.
//! - [`pattern`]: the shapes a stone makes; Renju forbidden points.
//! - [`notation`]: one nom parser and one writer per text format, and format detection.
//! - [`setup`]: a parsed position and its validation into a board.
//! - [`input`]: from a command-line argument to a board.
//! - [`report`]: coloured diagrams and JSON.
//! - [`cli`]: the command-line interface; [`error`]: errors and how they are shown.

pub mod board;
pub mod cases;
pub mod cli;
pub mod commands;
pub mod config;
pub mod error;
pub mod input;
pub mod notation;
pub mod pattern;
pub mod report;
pub mod setup;
pub mod solve;

pub use board::{Board, Color, Point, Rule};
