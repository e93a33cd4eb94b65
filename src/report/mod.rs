//! What tengen prints: coloured board diagrams for people ([`text`]) and JSON for programs
//! ([`json`]).

pub mod json;
pub mod text;
