//! tengen: analyse Gomoku and Renju positions and solve their puzzles.
//!
//! Data flows one way: text → [`setup::Setup`] → validated [`Board`] → search → report.
//!
//! - [`board`]: points, colours, rules, the board with place / undo, its incremental line
//!   keys and shapes ([`board::shape`]), and win detection.
//! - [`pattern`]: what the shapes add up to at a point ([`pattern::Class`]); Renju forbidden
//!   points; a slow reference judge.
//! - [`notation`]: one nom parser and one writer per text format (move lists, diagrams,
//!   `.psq`, puzzle files, SGF), and format detection.
//! - [`setup`]: a parsed position and its validation into a board.
//! - [`input`]: from a command-line argument to a board.
//! - [`solve`]: the threat solvers (VCF, VCT, win in N), their proofs and verifiers, and the
//!   library's entry point to them, [`solve::task`].
//! - [`analyze`]: the analyzer — alpha-beta over threat-aware candidates with VCF at the
//!   horizon, every candidate scored, mates verified.
//! - [`protocol`]: the Gomocup protocol front end (`tengen brain`, `pbrain-tengen`).
//! - [`cases`]: which solver task a puzzle is a case for.
//! - [`openings`]: the names of the 26 canonical renju openings (`4D Kagetsu`).
//! - [`review`]: a whole game analysed move by move (`tengen review`).
//! - [`report`]: coloured diagrams, proof trees and JSON.
//! - [`cli`]: the clap types; [`config`]: one validated configuration per command;
//!   [`commands`]: each command as library calls; [`output`]: safe file writing; [`error`]:
//!   errors and how they are shown; [`words`]: counts in English (`1 move`, `2 moves`).
#![warn(missing_docs)]

pub mod analyze;
pub mod board;
pub mod cases;
pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod input;
pub mod learn;
pub mod notation;
pub mod openings;
pub mod output;
pub mod pattern;
pub mod protocol;
pub mod report;
pub mod review;
pub mod rng;
pub mod setup;
pub mod solve;
pub mod words;

pub use board::{Board, Color, Point, Rule};
