//! What tengen prints: coloured board diagrams for people ([`text`]), JSON for programs
//! ([`json`]), proof trees in both forms ([`proof`]), and game reviews ([`review`]; its JSON
//! schema is [`crate::review::Review`]).

pub mod json;
pub mod picture;
pub mod proof;
pub mod review;
pub mod text;
