//! Board diagrams for a terminal: coordinates on all four sides, `x` black and `o` white, the
//! last move in capitals (and reversed when coloured), optional marks on points (numbers of a
//! line, forbidden points). Without colour the diagram parses back as a diagram.

use colored::Colorize;

use crate::board::{Board, Color, Point};

/// Whether to colour, decided once from `--color`, `NO_COLOR` and the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
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
    let dim = |s: String| {
        if style.color {
            s.dimmed().to_string()
        } else {
            s
        }
    };
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
    if !style.color {
        return format!("{pad}{c}");
    }
    let painted = match stone {
        Some(Color::Black) => c.bright_red().bold(),
        Some(Color::White) => c.bright_cyan().bold(),
        None => c.dimmed(),
    };
    let painted = if last { painted.reversed() } else { painted };
    format!("{pad}{painted}")
}

fn paint_mark(mark: &Mark, width: usize, style: Style) -> String {
    let text = format!("{:>width$}", mark.text());
    if !style.color {
        return text;
    }
    match mark {
        Mark::Numbered(_, Color::Black) => text.bright_red().underline().to_string(),
        Mark::Numbered(_, Color::White) => text.bright_cyan().underline().to_string(),
        Mark::Forbidden => text.yellow().bold().to_string(),
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
