//! Which solver task a puzzle is a case for, read from its `kind`, `answer` and `tags`, with
//! the bounds the puzzle states. `bench` runs these cases, and so will `check`.

use crate::files::input::Loaded;
use crate::notation::puzzle::{AnswerForm, Kind, Meta};
use crate::solve::Outcome;
use crate::solve::task::{self, Mode};

/// Which solver a puzzle is a case for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// The VCF solver.
    Vcf,
    /// The VCT solver.
    Vct,
}

/// Whether a puzzle is a solver case, which solver, and the outcome its answer expects.
pub fn case(loaded: &Loaded) -> Option<(Case, Outcome)> {
    let meta = loaded.meta.as_ref()?;
    let tagged = |t: &str| meta.tags.iter().any(|x| x == t);
    let comment = meta
        .answer
        .as_ref()
        .and_then(|a| a.comment.as_deref())
        .unwrap_or("");
    let none = matches!(
        meta.answer.as_ref().map(|a| &a.form),
        Some(AnswerForm::None)
    );
    match meta.kind? {
        Kind::Vcf => Some((Case::Vcf, Outcome::Win)),
        Kind::Vct => Some((Case::Vct, Outcome::Win)),
        Kind::NoWin if none && (tagged("vcf") || comment.contains("VCF")) => {
            Some((Case::Vcf, Outcome::NoWin))
        }
        Kind::NoWin if none && (tagged("vct") || comment.contains("VCT")) => {
            Some((Case::Vct, Outcome::NoWin))
        }
        _ => None,
    }
}

impl Case {
    /// The solver mode of the case.
    pub fn mode(self) -> Mode {
        match self {
            Case::Vcf => Mode::Vcf,
            Case::Vct => Mode::Vct,
        }
    }
}

/// The bounds a puzzle states (its `limit:` and `threat-limit:`).
pub fn stated(meta: Option<&Meta>) -> task::Bounds {
    task::Bounds {
        limit: meta.and_then(|m| m.limit),
        threat_limit: meta.and_then(|m| m.threat_limit),
        max_nodes: None,
    }
}
