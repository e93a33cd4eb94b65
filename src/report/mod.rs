//! What tengen prints: coloured board diagrams for people ([`text`]), JSON for programs
//! ([`json`]), proof trees in both forms ([`proof`]), game reviews ([`review`]; its JSON
//! schema is [`crate::analyze::review::Review`]), and the verdicts of `tengen check` in its four
//! formats ([`check`]).

pub mod check;
pub mod json;
pub mod picture;
pub mod proof;
pub mod review;
pub mod text;
