//! `tengen bench`: runs the solvers over the VCF and VCT cases of puzzle files and reports, per
//! case, the result against the puzzle's answer, attacker moves, nodes and time. Fast VCF cases
//! are repeated until they have run for a while, and the mean time is reported.

use std::io::Write;
use std::time::{Duration, Instant};

use super::emit;
use super::solve::{DEFAULT_THREAT_LIMIT, NO_LIMIT, solve_vcf, solve_vct};
use crate::cli::{BenchArgs, BenchMode, OutputFormat};
use crate::error::Error;
use crate::input::{self, Loaded, Source};
use crate::notation::puzzle::{AnswerForm, Kind};
use crate::report::json;
use crate::setup::Given;
use crate::solve::proof::Attack;
use crate::solve::{Limits, Outcome, vcf, vct};

/// Which solver a puzzle is a case for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Vcf,
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

/// Whether a puzzle is a VCF case, and the outcome its answer expects.
pub fn vcf_case(loaded: &Loaded) -> Option<Outcome> {
    case(loaded)
        .filter(|(c, _)| *c == Case::Vcf)
        .map(|(_, o)| o)
}

pub fn run(args: BenchArgs, out: &mut dyn Write) -> Result<u8, Error> {
    let mut failures = 0;
    let (mut total_ms, mut total_nodes, mut cases) = (0.0, 0u64, 0);
    if args.format == OutputFormat::Text {
        emit(
            out,
            &format!(
                "{:<46} {:>4} {:>8} {:>8} {:>5} {:>10} {:>12}\n",
                "case", "mode", "expected", "result", "moves", "nodes", "time"
            ),
        )?;
    }
    for file in &args.files {
        let source = Source::from_arg(&file.to_string_lossy())?;
        for loaded in input::load_all(&source, Given::default())? {
            let Some((kind, expected)) = case(&loaded) else {
                continue;
            };
            let meta = loaded.meta.as_ref().expect("puzzles have metadata");
            let wanted = match args.mode {
                BenchMode::All => true,
                BenchMode::Vcf => kind == Case::Vcf,
                BenchMode::Vct => kind == Case::Vct,
            };
            if !wanted
                || args
                    .filter
                    .as_ref()
                    .is_some_and(|f| !meta.id.contains(f.as_str()))
                || meta.tags.iter().any(|t| args.skip_tag.contains(t))
            {
                continue;
            }
            let limit = meta.limit.unwrap_or(NO_LIMIT);
            let limits = Limits {
                depth: limit,
                count_five: false,
                nodes: args.search.max_nodes,
            };
            let board = &loaded.board;
            let attacker = board.to_move();
            let mut doc = json::Solve {
                id: Some(meta.id.clone()),
                mode: if kind == Case::Vcf { "vcf" } else { "vct" }.into(),
                rule: board.rule(),
                attacker,
                result: Outcome::Unknown,
                line: Vec::new(),
                attacker_moves: 0,
                ending: None,
                limit,
                nodes: 0,
                elapsed_ms: 0.0,
                verified: false,
                threat_limit: None,
                proof_nodes: None,
                proof: None,
            };
            match kind {
                Case::Vcf => {
                    let (solution, first_ms) =
                        solve_vcf(board, attacker, limits, args.search.shortest)?;
                    // Repeat fast cases for a steadier mean.
                    let (mut runs, mut spent) = (1u32, Duration::from_secs_f64(first_ms / 1000.0));
                    let start = Instant::now();
                    while spent < Duration::from_millis(200) && runs < 10_000 {
                        vcf::solve(board, attacker, limits, args.search.shortest);
                        runs += 1;
                        spent = Duration::from_secs_f64(first_ms / 1000.0) + start.elapsed();
                    }
                    doc.elapsed_ms = spent.as_secs_f64() * 1000.0 / runs as f64;
                    doc.result = solution.outcome;
                    doc.attacker_moves = solution.attacker_moves();
                    doc.ending = solution.ending;
                    doc.nodes = solution.nodes;
                    doc.verified = solution.outcome == Outcome::Win;
                    doc.line = solution.line;
                }
                Case::Vct => {
                    let threat_limit = meta.threat_limit.unwrap_or(DEFAULT_THREAT_LIMIT);
                    let options = vct::Options {
                        limits,
                        threat_limit,
                        hash_mb: args.hash_mb,
                    };
                    let answer = solve_vct(board, attacker, options, args.verify)?;
                    let tree = answer.solution.proof.as_ref();
                    doc.elapsed_ms = answer.elapsed_ms;
                    doc.result = answer.solution.outcome;
                    doc.attacker_moves = tree.map_or(0, Attack::attacker_moves);
                    doc.nodes = answer.solution.nodes;
                    doc.verified = answer.verified;
                    doc.threat_limit = Some(threat_limit);
                    doc.proof_nodes = tree.map(Attack::size);
                    doc.line = tree.map(Attack::main_line).unwrap_or_default();
                }
            }
            let ok = doc.result == expected && doc.attacker_moves as u32 <= limit;
            failures += usize::from(!ok);
            total_ms += doc.elapsed_ms;
            total_nodes += doc.nodes;
            cases += 1;
            let report = match args.format {
                OutputFormat::Json => {
                    serde_json::to_string(&doc).expect("plain data serializes") + "\n"
                }
                OutputFormat::Text => format!(
                    "{:<46} {:>4} {:>8} {:>8} {:>5} {:>10} {:>9.3} ms{}\n",
                    meta.id,
                    doc.mode,
                    expected.to_string(),
                    doc.result.to_string(),
                    doc.attacker_moves,
                    doc.nodes,
                    doc.elapsed_ms,
                    if ok { "" } else { "  MISMATCH" }
                ),
            };
            emit(out, &report)?;
        }
    }
    if args.format == OutputFormat::Text {
        emit(
            out,
            &format!(
                "{cases} cases, {failures} mismatches, {total_nodes} nodes, {total_ms:.3} ms in all\n"
            ),
        )?;
    }
    Ok(if failures > 0 { 1 } else { 0 })
}
