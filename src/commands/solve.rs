use std::io::Write;
use std::time::Instant;

use super::{emit, to_json};
use crate::board::{Board, Color};
use crate::cli::{OutputFormat, SolveArgs};
use crate::error::Error;
use crate::report::{json, text};
use crate::solve::{Limits, Outcome, Solution, vcf, verify};

/// The bound used when neither `--limit` nor the puzzle gives one: more attacker moves than a
/// board has points.
pub const NO_LIMIT: u32 = 255;

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
            Error::usage(format!(
                "internal error: the solver's line {} failed verification at {e}; please report this position",
                line.join(" ")
            ))
        })?;
    }
    Ok((solution, elapsed_ms))
}

pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = args.position.load()?;
    let board = &loaded.board;
    let meta = loaded.meta.as_ref();
    let attacker = args.attacker.map(Color::from).unwrap_or(board.to_move());
    let limit = args
        .limit
        .or(meta.and_then(|m| m.limit))
        .unwrap_or(NO_LIMIT);
    let limits = Limits {
        depth: limit,
        count_five: false,
        nodes: args.search.max_nodes,
    };
    let (solution, elapsed_ms) = solve_vcf(board, attacker, limits, args.search.shortest)?;
    let doc = json::Solve {
        id: meta.map(|m| m.id.clone()),
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
    };
    let report = match args.output.format {
        OutputFormat::Json => to_json(&doc),
        OutputFormat::Text => text_report(board, &doc, args.output.style()),
    };
    emit(out, &report)?;
    Ok(0)
}

fn text_report(board: &Board, doc: &json::Solve, style: text::Style) -> String {
    let mut s = doc
        .id
        .as_ref()
        .map(|id| format!("# {id}\n"))
        .unwrap_or_default();
    let bound = if doc.limit >= NO_LIMIT {
        String::new()
    } else {
        format!(" within {} attacker moves", doc.limit)
    };
    let headline = match doc.result {
        Outcome::Win => {
            let how = match doc.ending {
                Some(crate::solve::Ending::ForcedFoul) => ", black's only block is forbidden",
                _ => "",
            };
            let plural = if doc.attacker_moves == 1 { "" } else { "s" };
            format!(
                "{} wins by VCF in {} move{plural}{how} (line verified)",
                doc.attacker, doc.attacker_moves
            )
        }
        Outcome::NoWin => format!("no VCF for {}{bound}", doc.attacker),
        Outcome::Unknown => format!(
            "unknown: the search stopped after {} positions without an answer",
            doc.nodes
        ),
    };
    s.push_str(&headline);
    s.push('\n');
    if !doc.line.is_empty() {
        let line: Vec<String> = doc.line.iter().map(|p| p.to_string()).collect();
        s.push_str(&format!("line: {}\n", line.join(" ")));
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
    s.push_str(&format!("nodes {} · {:.3} ms\n", doc.nodes, doc.elapsed_ms));
    s
}
