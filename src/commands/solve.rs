use std::io::Write;
use std::time::Instant;

use super::{emit, to_json};
use crate::board::{Board, Color};
use crate::cli::{OutputFormat, SolveArgs};
use crate::error::Error;
use crate::report::{json, text};
use crate::solve::proof::{self, Attack, Bounds};
use crate::solve::{Ending, Limits, Outcome, Solution, vcf, vct, verify};

/// The bound used when neither `--limit` nor the puzzle gives one: more attacker moves than a
/// board has points.
pub const NO_LIMIT: u32 = 255;

/// The threat limit when neither the flag nor the puzzle gives one.
pub const DEFAULT_THREAT_LIMIT: u32 = 2;

fn internal(what: &str, detail: impl std::fmt::Display) -> Error {
    Error::usage(format!(
        "internal error: the solver's {what} failed verification: {detail}; please report this position"
    ))
}

/// Runs the VCF solver and checks a win with the independent verifier; a line that fails the
/// check is a solver bug and comes back as an error.
pub fn solve_vcf(
    board: &Board,
    attacker: Color,
    limits: Limits,
    shortest: bool,
) -> Result<(Solution, f64), Error> {
    let start = Instant::now();
    let solution = vcf::solve(board, attacker, limits, shortest);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    if solution.outcome == Outcome::Win {
        verify::vcf_line(board, attacker, &solution.line).map_err(|e| {
            let line: Vec<String> = solution.line.iter().map(|p| p.to_string()).collect();
            internal(&format!("line {}", line.join(" ")), e)
        })?;
    }
    Ok((solution, elapsed_ms))
}

/// A VCT answer with its proof, checked against every defence unless `verify` is false.
pub struct VctAnswer {
    pub solution: vct::VctSolution,
    pub elapsed_ms: f64,
    pub verified: bool,
}

/// Runs the VCT solver and, when asked, the proof verifier (a failure is a solver bug).
pub fn solve_vct(
    board: &Board,
    attacker: Color,
    options: vct::Options,
    check: bool,
) -> Result<VctAnswer, Error> {
    let start = Instant::now();
    let solution = vct::solve(board, attacker, options);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let mut verified = false;
    if let (Outcome::Win, Some(tree), true) = (solution.outcome, &solution.proof, check) {
        let bounds = Bounds {
            depth: options.limits.depth,
            count_five: options.limits.count_five,
            threat_limit: options.threat_limit,
            nodes: options.limits.nodes,
        };
        proof::verify(board, attacker, tree, bounds).map_err(|e| internal("proof", e))?;
        verified = true;
    }
    Ok(VctAnswer {
        solution,
        elapsed_ms,
        verified,
    })
}

pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = args.position.load()?;
    let board = &loaded.board;
    let meta = loaded.meta.as_ref();
    let attacker = args.attacker.map(Color::from).unwrap_or(board.to_move());
    let limit = args
        .win_in
        .or(args.limit)
        .or(meta.and_then(|m| m.limit))
        .unwrap_or(NO_LIMIT);
    let limits = Limits {
        depth: limit,
        count_five: args.win_in.is_some(),
        nodes: args.search.max_nodes,
    };
    let id = meta.map(|m| m.id.clone());
    let doc = if args.vcf {
        let (solution, elapsed_ms) = solve_vcf(board, attacker, limits, args.search.shortest)?;
        json::Solve {
            id,
            mode: "vcf".into(),
            rule: board.rule(),
            attacker,
            result: solution.outcome,
            line: solution.line.clone(),
            attacker_moves: solution.attacker_moves(),
            ending: solution.ending,
            limit,
            nodes: solution.nodes,
            elapsed_ms,
            verified: solution.outcome == Outcome::Win,
            threat_limit: None,
            proof_nodes: None,
            proof: None,
        }
    } else {
        let threat_limit = args
            .threat_limit
            .or(meta.and_then(|m| m.threat_limit))
            .unwrap_or(DEFAULT_THREAT_LIMIT);
        let options = vct::Options {
            limits,
            threat_limit,
            hash_mb: args.hash_mb as usize,
        };
        let answer = solve_vct(board, attacker, options, !args.no_verify)?;
        let tree = answer.solution.proof.as_ref();
        json::Solve {
            id,
            mode: if args.win_in.is_some() {
                "win-in"
            } else {
                "vct"
            }
            .into(),
            rule: board.rule(),
            attacker,
            result: answer.solution.outcome,
            line: tree.map(Attack::main_line).unwrap_or_default(),
            attacker_moves: tree.map_or(0, Attack::attacker_moves),
            ending: tree.map(last_ending),
            limit,
            nodes: answer.solution.nodes,
            elapsed_ms: answer.elapsed_ms,
            verified: answer.verified,
            threat_limit: Some(threat_limit),
            proof_nodes: tree.map(Attack::size),
            proof: if args.proof {
                answer.solution.proof.clone()
            } else {
                None
            },
        }
    };
    let report = match args.output.format {
        OutputFormat::Json => to_json(&doc),
        OutputFormat::Text => text_report(board, &doc, args.output.style(), args.proof),
    };
    emit(out, &report)?;
    Ok(0)
}

/// How the main line of a proof ends.
fn last_ending(tree: &Attack) -> Ending {
    match (
        &tree.ending,
        tree.defences
            .iter()
            .max_by_key(|d| (d.then.attacker_moves(), d.then.size())),
    ) {
        (Some(e), _) if *e != Ending::Five || tree.defences.is_empty() => *e,
        (_, Some(d)) => last_ending(&d.then),
        _ => Ending::Five,
    }
}

fn text_report(board: &Board, doc: &json::Solve, style: text::Style, with_proof: bool) -> String {
    let mut s = doc
        .id
        .as_ref()
        .map(|id| format!("# {id}\n"))
        .unwrap_or_default();
    let mode = match doc.mode.as_str() {
        "vcf" => "VCF",
        "vct" => "VCT",
        _ => "threats",
    };
    let bound = if doc.limit >= NO_LIMIT {
        String::new()
    } else if doc.mode == "win-in" {
        format!(" in {} moves", doc.limit)
    } else {
        format!(" within {} attacker moves", doc.limit)
    };
    let threats = doc
        .threat_limit
        .map(|t| format!(" (threat limit {t})"))
        .unwrap_or_default();
    let headline = match doc.result {
        Outcome::Win => {
            let how = match doc.ending {
                Some(Ending::ForcedFoul) => ", black's only block is forbidden",
                _ => "",
            };
            let plural = if doc.attacker_moves == 1 { "" } else { "s" };
            let check = match (doc.mode.as_str(), doc.verified, doc.proof_nodes) {
                ("vcf", _, _) => " (line verified)".to_string(),
                (_, true, Some(n)) => {
                    format!(" (proof of {n} nodes, verified against every defence)")
                }
                (_, false, Some(n)) => format!(" (proof of {n} nodes, not verified)"),
                _ => String::new(),
            };
            format!(
                "{} wins by {mode} in {} move{plural}{how}{check}",
                doc.attacker, doc.attacker_moves
            )
        }
        Outcome::NoWin => format!("no {mode} win for {}{bound}{threats}", doc.attacker),
        Outcome::Unknown => format!(
            "unknown: the search stopped after {} positions without an answer",
            doc.nodes
        ),
    };
    s.push_str(&headline);
    s.push('\n');
    if !doc.line.is_empty() {
        let line: Vec<String> = doc.line.iter().map(|p| p.to_string()).collect();
        let label = if doc.mode == "vcf" {
            "line"
        } else {
            "main line"
        };
        s.push_str(&format!("{label}: {}\n", line.join(" ")));
        let marks: Vec<_> = doc
            .line
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let side = if k % 2 == 0 {
                    doc.attacker
                } else {
                    doc.attacker.opponent()
                };
                (p, text::Mark::Numbered(k + 1, side))
            })
            .collect();
        s.push_str(&text::board(board, &marks, style));
    }
    if let (true, Some(tree)) = (with_proof, &doc.proof) {
        s.push_str("proof (attacker moves numbered, defender replies indented beneath):\n");
        s.push_str(&tree.to_text());
    }
    s.push_str(&format!("nodes {} · {:.3} ms\n", doc.nodes, doc.elapsed_ms));
    s
}
