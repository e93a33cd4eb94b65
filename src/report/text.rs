//! Board diagrams for a terminal: coordinates on all four sides, `x` black and `o` white, the
//! last move in capitals (and reversed when coloured), optional marks on points (numbers of a
//! line, forbidden points). Without colour the diagram parses back as a diagram.

use colored::Color as Ink;

use crate::board::{Board, Color, Point};
use crate::solve::task::{Mode, Verdict};
use crate::solve::{Ending, Outcome};

/// How to draw: decided once by the caller (from `--color`, `NO_COLOR` and the terminal) and
/// passed down; nothing here looks at the environment or sets anything for the process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Colour with ANSI escapes.
    pub color: bool,
}

/// Text effects, by their ANSI select-graphic-rendition codes.
#[derive(Clone, Copy)]
enum Effect {
    Bold = 1,
    Dim = 2,
    Underline = 4,
    Reverse = 7,
}

/// `text` in `ink` with `effects` when the style colours, else as it is.
fn paint(text: &str, ink: Option<Ink>, effects: &[Effect], style: Style) -> String {
    if !style.color {
        return text.to_string();
    }
    let mut codes: Vec<String> = effects.iter().map(|&e| (e as u8).to_string()).collect();
    codes.extend(ink.map(|c| c.to_fg_str().into_owned()));
    format!("\x1b[{}m{text}\x1b[0m", codes.join(";"))
}

/// What a point shows instead of its stone or emptiness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A numbered move of a line, drawn in the colour of the side that plays it.
    Numbered(usize, Color),
    /// A forbidden point for black.
    Forbidden,
}

impl Mark {
    fn text(&self) -> String {
        match self {
            Mark::Numbered(n, _) => n.to_string(),
            Mark::Forbidden => "#".into(),
        }
    }
}

/// Draws the board. `marks` overlay points; cells widen to fit the longest mark.
pub fn board(board: &Board, marks: &[(Point, Mark)], style: Style) -> String {
    let size = board.size();
    let width = marks
        .iter()
        .map(|(_, m)| m.text().len())
        .max()
        .unwrap_or(1)
        .max(1)
        + 1;
    let last = board.last_move();
    let dim = |s: String| paint(&s, None, &[Effect::Dim], style);
    let letters: String = (0..size)
        .map(|x| format!("{:>width$}", Point::column_letter(x)))
        .collect();
    let header = format!("  {}\n", dim(letters));
    let mut out = header.clone();
    for y in (0..size).rev() {
        out.push_str(&dim(format!("{:>2}", y + 1)));
        for x in 0..size {
            let Some(p) = Point::new(x, y) else { continue };
            let cell = match marks.iter().find(|(q, _)| *q == p) {
                Some((_, mark)) => paint_mark(mark, width, style),
                None => paint_stone(board.get(p), Some(p) == last, width, style),
            };
            out.push_str(&cell);
        }
        out.push_str(&format!(" {}\n", dim((y + 1).to_string())));
    }
    out.push_str(&header);
    out
}

fn paint_stone(stone: Option<Color>, last: bool, width: usize, style: Style) -> String {
    let c = match (stone, last) {
        (Some(Color::Black), false) => "x",
        (Some(Color::Black), true) => "X",
        (Some(Color::White), false) => "o",
        (Some(Color::White), true) => "O",
        (None, _) => ".",
    };
    let pad = " ".repeat(width - 1);
    let (ink, mut effects) = match stone {
        Some(Color::Black) => (Some(Ink::BrightRed), vec![Effect::Bold]),
        Some(Color::White) => (Some(Ink::BrightCyan), vec![Effect::Bold]),
        None => (None, vec![Effect::Dim]),
    };
    if last {
        effects.push(Effect::Reverse);
    }
    format!("{pad}{}", paint(c, ink, &effects, style))
}

fn paint_mark(mark: &Mark, width: usize, style: Style) -> String {
    let text = format!("{:>width$}", mark.text());
    match mark {
        Mark::Numbered(_, Color::Black) => {
            paint(&text, Some(Ink::BrightRed), &[Effect::Underline], style)
        }
        Mark::Numbered(_, Color::White) => {
            paint(&text, Some(Ink::BrightCyan), &[Effect::Underline], style)
        }
        Mark::Forbidden => paint(&text, Some(Ink::Yellow), &[Effect::Bold], style),
    }
}

/// The lines under a diagram: the side to move, then a `#` legend line.
pub fn footer(board: &Board, extra: &str) -> String {
    let mut legend = format!(
        "# rule {}, {}x{}; x black, o white",
        board.rule(),
        board.size(),
        board.size()
    );
    if let Some(p) = board.last_move() {
        legend.push_str(&format!(", last move {p} in capitals"));
    }
    legend.push_str(extra);
    legend.push_str("; rows count from the bottom (RIF)");
    format!("{} to move\n{legend}\n", board.to_move())
}

/// The text report of a solve: the headline, the line numbered on the board, the proof when
/// asked, and the counts.
pub fn solve(
    board: &Board,
    verdict: &Verdict,
    id: Option<&str>,
    style: Style,
    with_proof: bool,
) -> String {
    let task = &verdict.task;
    let mut s = id.map(|id| format!("# {id}\n")).unwrap_or_default();
    let mode = match task.mode {
        Mode::Vcf => "VCF",
        Mode::Vct => "VCT",
        Mode::WinIn => "threats",
    };
    let bound = if !task.has_limit() {
        String::new()
    } else if task.mode == Mode::WinIn {
        format!(" in {} moves", task.limits.depth)
    } else {
        format!(" within {} attacker moves", task.limits.depth)
    };
    let threats = if task.mode == Mode::Vcf {
        String::new()
    } else {
        format!(" (threat limit {})", task.limits.threat_limit)
    };
    let headline = match verdict.outcome {
        Outcome::Win => {
            let how = match verdict.ending {
                Some(Ending::ForcedFoul) => ", black's only block is forbidden",
                _ => "",
            };
            let plural = if verdict.attacker_moves == 1 { "" } else { "s" };
            let check = match (task.mode, verdict.verified(), verdict.proof_nodes()) {
                (Mode::Vcf, _, _) => " (line verified)".to_string(),
                (_, true, Some(n)) => {
                    format!(" (proof of {n} nodes, verified against every defence)")
                }
                (_, false, Some(n)) => format!(" (proof of {n} nodes, not verified)"),
                _ => String::new(),
            };
            format!(
                "{} wins by {mode} in {} move{plural}{how}{check}",
                task.attacker, verdict.attacker_moves
            )
        }
        Outcome::NoWin => format!("no {mode} win for {}{bound}{threats}", task.attacker),
        Outcome::Unknown => format!(
            "unknown: the search stopped after {} positions without an answer",
            verdict.nodes
        ),
    };
    s.push_str(&headline);
    s.push('\n');
    if !verdict.line.is_empty() {
        let line: Vec<String> = verdict.line.iter().map(|p| p.to_string()).collect();
        let label = if task.mode == Mode::Vcf {
            "line"
        } else {
            "main line"
        };
        s.push_str(&format!("{label}: {}\n", line.join(" ")));
        let marks: Vec<_> = verdict
            .line
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let side = if k % 2 == 0 {
                    task.attacker
                } else {
                    task.attacker.opponent()
                };
                (p, Mark::Numbered(k + 1, side))
            })
            .collect();
        s.push_str(&self::board(board, &marks, style));
    }
    if let (true, Some(tree)) = (with_proof, &verdict.proof) {
        s.push_str("proof (attacker moves numbered, defender replies indented beneath):\n");
        s.push_str(&super::proof::text(tree));
    }
    s.push_str(&format!(
        "nodes {} · {:.3} ms\n",
        verdict.nodes,
        verdict.elapsed.as_secs_f64() * 1000.0
    ));
    s
}
