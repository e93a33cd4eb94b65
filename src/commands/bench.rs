//! `tengen bench`: runs the VCF solver over the VCF cases of puzzle files and reports, per case,
//! the result against the puzzle's answer, attacker moves, nodes and time. Fast cases are
//! repeated until they have run for a while, and the mean time is reported.

use std::io::Write;
use std::time::{Duration, Instant};

use super::emit;
use super::solve::{NO_LIMIT, solve_vcf};
use crate::cli::{BenchArgs, OutputFormat};
use crate::error::Error;
use crate::input::{self, Loaded, Source};
use crate::notation::puzzle::{AnswerForm, Kind};
use crate::report::json;
use crate::setup::Given;
use crate::solve::{Limits, Outcome};

/// Whether a puzzle is a VCF case, and the outcome its answer expects.
pub fn vcf_case(loaded: &Loaded) -> Option<Outcome> {
    let meta = loaded.meta.as_ref()?;
    let about_vcf = meta.tags.iter().any(|t| t == "vcf")
        || meta
            .answer
            .as_ref()
            .and_then(|a| a.comment.as_deref())
            .is_some_and(|c| c.contains("VCF"));
    match (meta.kind?, meta.answer.as_ref().map(|a| &a.form)) {
        (Kind::Vcf, _) => Some(Outcome::Win),
        (Kind::NoWin, Some(AnswerForm::None)) if about_vcf => Some(Outcome::NoWin),
        _ => None,
    }
}

pub fn run(args: BenchArgs, out: &mut dyn Write) -> Result<u8, Error> {
    let mut failures = 0;
    let (mut total_ms, mut total_nodes, mut cases) = (0.0, 0u64, 0);
    if args.format == OutputFormat::Text {
        emit(
            out,
            &format!(
                "{:<46} {:>8} {:>8} {:>5} {:>10} {:>12}\n",
                "case", "expected", "result", "moves", "nodes", "time"
            ),
        )?;
    }
    for file in &args.files {
        let source = Source::from_arg(&file.to_string_lossy())?;
        for loaded in input::load_all(&source, Given::default())? {
            let Some(expected) = vcf_case(&loaded) else {
                continue;
            };
            let meta = loaded.meta.as_ref().expect("puzzles have metadata");
            if args
                .filter
                .as_ref()
                .is_some_and(|f| !meta.id.contains(f.as_str()))
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
            let (solution, first_ms) =
                solve_vcf(board, board.to_move(), limits, args.search.shortest)?;
            // Repeat fast cases for a steadier mean.
            let (mut runs, mut spent) = (1u32, Duration::from_secs_f64(first_ms / 1000.0));
            let start = Instant::now();
            while spent < Duration::from_millis(200) && runs < 10_000 {
                crate::solve::vcf::solve(board, board.to_move(), limits, args.search.shortest);
                runs += 1;
                spent = Duration::from_secs_f64(first_ms / 1000.0) + start.elapsed();
            }
            let ms = spent.as_secs_f64() * 1000.0 / runs as f64;
            let ok = solution.outcome == expected && solution.attacker_moves() as u32 <= limit;
            failures += usize::from(!ok);
            total_ms += ms;
            total_nodes += solution.nodes;
            cases += 1;
            let report = match args.format {
                OutputFormat::Json => {
                    let doc = json::Solve {
                        id: Some(meta.id.clone()),
                        mode: "vcf".into(),
                        rule: board.rule(),
                        attacker: board.to_move(),
                        result: solution.outcome,
                        line: solution.line.clone(),
                        attacker_moves: solution.attacker_moves(),
                        ending: solution.ending,
                        limit,
                        nodes: solution.nodes,
                        elapsed_ms: ms,
                        verified: solution.outcome == Outcome::Win,
                        threat_limit: None,
                        proof_nodes: None,
                        proof: None,
                    };
                    serde_json::to_string(&doc).expect("plain data serializes") + "\n"
                }
                OutputFormat::Text => format!(
                    "{:<46} {:>8} {:>8} {:>5} {:>10} {:>9.3} ms{}\n",
                    meta.id,
                    expected.to_string(),
                    solution.outcome.to_string(),
                    solution.attacker_moves(),
                    solution.nodes,
                    ms,
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
