//! What tengen prints: coloured board diagrams for people ([`text`]), JSON for programs
//! ([`json`]), and proof trees in both forms ([`proof`]).

pub mod json;
pub mod proof;
pub mod text;
