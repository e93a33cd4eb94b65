//! The user's files: a position read from a command-line argument, standard input or a file
//! in any format tengen reads ([`input`]), and reports written where the user asked, never
//! overwriting what they did not ask to, a rewrite atomic ([`output`]).

pub mod input;
pub mod output;
