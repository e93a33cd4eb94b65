//! Pictures: boards, heat-maps and a review's win-rate graph as SVG, and as PNG rendered
//! in-process by resvg (no external program).
//!
//! Every label (coordinates, move numbers, ranks, the graph's axes) is drawn as strokes of a
//! small built-in font ([`glyph`]), not as SVG text: the picture then needs no fonts, looks
//! the same in every viewer, and renders to PNG on a machine that has none installed.
//!
//! Geometry of a board: points [`CELL`] pixels apart, a [`MARGIN`] around the grid for the
//! coordinates; letters from the left along the top and bottom, numbers from the **bottom**
//! along both sides, as the text diagrams have them (RIF).

use std::fmt::Write as _;

use crate::board::{Board, Color, Point};

/// Pixels between two neighbouring points.
pub const CELL: f64 = 36.0;
/// Pixels from the picture's edge to the outermost grid line.
pub const MARGIN: f64 = 48.0;
/// The wood of the board.
const WOOD: &str = "#dcb35c";
/// Rank labels of the best moves, and a solve line's numbers on empty points.
pub const LABEL: &str = "#1e4fd8";
/// Forbidden points, the last move's mark, and mistakes on the graph.
pub const MARK: &str = "#d01c1c";

/// What a board picture shows besides the stones.
#[derive(Clone, Debug, Default)]
pub struct BoardPicture {
    /// Number each stone of the game record by its move (setup stones stay plain).
    pub move_numbers: bool,
    /// Points to label (rank of a best move), drawn in [`LABEL`]; only on empty points, so a
    /// label never covers a stone or its number.
    pub labels: Vec<(Point, String)>,
    /// Moves drawn as numbered stones on empty points (a solve's line): the point, the
    /// number, the colour.
    pub line: Vec<(Point, usize, Color)>,
    /// The heat-map: the scored points coloured by their win chance, with its scale drawn
    /// under the board.
    pub heat: Option<HeatMap>,
    /// Black's forbidden points, crossed in [`MARK`]; a point under a stone (of the board or
    /// of the line) is never crossed.
    pub forbidden: Vec<Point>,
    /// A line of words under the board (the built-in font's characters), also the SVG's
    /// `<title>`; wrapped when it is wider than the board.
    pub caption: Option<String>,
    /// Sentences for the SVG's `<desc>` after the ones the picture writes itself (rule, side
    /// to move, what the marks are): what the caller knows, e.g. when the crosses hold.
    pub notes: Vec<String>,
}

/// A heat-map: every scored point coloured by the side to move's win chance after it, in
/// [`BANDS`] equal bands from blue (0%) to red (100%), so the colour reads off the scale the
/// picture draws. A bound that places its move below the table's rows (as the text's digits
/// have it) is coloured as its ceiling and striped: "at most"; a bound that says nothing is
/// hatched grey.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    /// Whose win chance the colours are (the side to move).
    pub side: Color,
    /// Points with an exact score (or a proved result) and the win chance, 0 to 1.
    pub scored: Vec<(Point, f64)>,
    /// Points with an upper bound that places them (below the table's rows), and the win
    /// chance of that bound: at most this.
    pub capped: Vec<(Point, f64)>,
    /// Points whose bound says nothing of where they stand.
    pub bounded: Vec<Point>,
}

/// How many colour bands a heat-map's scale has (each 100 / BANDS percent wide).
pub const BANDS: usize = 10;

impl HeatMap {
    /// The heat-map of an analysis's candidates (`top`: the table's rows): a proved win is
    /// 100%, a proved loss 0% (as JSON's `win_prob` has them), an exact score its win chance;
    /// a bound striped or hatched as [`super::text::places`] reads it.
    pub fn of(candidates: &[crate::analyze::Candidate], side: Color, top: usize) -> HeatMap {
        let mut heat = HeatMap {
            side,
            scored: Vec::new(),
            capped: Vec::new(),
            bounded: Vec::new(),
        };
        let places = super::text::places(candidates, top);
        for c in candidates {
            let win = crate::analyze::eval::win_probability(c.score);
            match c.mate_in {
                Some(n) => heat.scored.push((c.mv, f64::from(u8::from(n > 0)))),
                None if c.bound == crate::analyze::tt::Bound::Exact => {
                    heat.scored.push((c.mv, win))
                }
                None if places(c) => heat.capped.push((c.mv, win)),
                None => heat.bounded.push(c.mv),
            }
        }
        heat
    }

    /// The band of a win chance: 0 for [0%, 10%), ..., the last one for [90%, 100%].
    pub fn band(win: f64) -> usize {
        ((win.clamp(0.0, 1.0) * BANDS as f64) as usize).min(BANDS - 1)
    }
}

/// The centre of point `p` on a board of `size`.
pub fn centre(size: u8, p: Point) -> (f64, f64) {
    let x = MARGIN + p.x() as f64 * CELL;
    let y = MARGIN + (size as f64 - 1.0 - p.y() as f64) * CELL;
    (x, y)
}

/// The picture's width and height for a board of `size` (and a caption line).
pub fn board_extent(size: u8, caption: bool) -> (f64, f64) {
    let side = 2.0 * MARGIN + (size as f64 - 1.0) * CELL;
    (side, side + if caption { CAPTION_LINE + 16.0 } else { 0.0 })
}

/// Pixels between two lines of a caption, and a caption's letter height.
const CAPTION_LINE: f64 = 20.0;
const CAPTION_HEIGHT: f64 = 13.0;
/// The height of a heat-map's scale under the board.
const SCALE_HEIGHT: f64 = 52.0;

/// `caption` broken at spaces into lines that fit `width` pixels.
fn wrap(caption: &str, width: f64) -> Vec<String> {
    let per_char = 5.6 * CAPTION_HEIGHT / 6.0;
    let fits = ((width - 24.0) / per_char).max(8.0) as usize;
    let mut lines: Vec<String> = Vec::new();
    for word in caption.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= fits => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The `<title>` and `<desc>` a document opens with, for screen readers and tests.
fn title_and_desc(out: &mut String, title: &str, desc: &str) {
    let _ = writeln!(
        out,
        "<title>{}</title>\n<desc>{}</desc>",
        escape(title),
        escape(desc)
    );
}

/// The outline of `0`, `O` and `Q`.
const RING: &[(f32, f32)] = &[
    (1., 0.),
    (3., 0.),
    (4., 1.),
    (4., 5.),
    (3., 6.),
    (1., 6.),
    (0., 5.),
    (0., 1.),
    (1., 0.),
];
/// The bowl of `P` and `R`.
const BOWL: &[(f32, f32)] = &[
    (0., 6.),
    (0., 0.),
    (3., 0.),
    (4., 1.),
    (4., 2.),
    (3., 3.),
    (0., 3.),
];

/// Strokes of a glyph on a 4-wide, 6-high grid (y down); `None` for a character the font
/// lacks (it is drawn as a space).
#[rustfmt::skip]
fn glyph(c: char) -> Option<&'static [&'static [(f32, f32)]]> {
    Some(match c.to_ascii_uppercase() {
        '0' => &[RING, &[(3.5, 0.8), (0.5, 5.2)]],
        '1' => &[&[(1., 1.), (2., 0.), (2., 6.)], &[(1., 6.), (3., 6.)]],
        '2' => &[&[(0., 1.), (1., 0.), (3., 0.), (4., 1.), (4., 2.), (0., 6.), (4., 6.)]],
        '3' => &[&[(0., 0.), (4., 0.), (2., 2.5), (3., 2.5), (4., 3.5), (4., 5.), (3., 6.), (1., 6.), (0., 5.)]],
        '4' => &[&[(3., 6.), (3., 0.), (0., 4.), (4., 4.)]],
        '5' => &[&[(4., 0.), (0., 0.), (0., 2.5), (3., 2.5), (4., 3.5), (4., 5.), (3., 6.), (0., 6.)]],
        '6' => &[&[(4., 0.), (1., 0.), (0., 1.5), (0., 5.), (1., 6.), (3., 6.), (4., 5.), (4., 3.5), (3., 2.5), (0., 2.5)]],
        '7' => &[&[(0., 0.), (4., 0.), (1.5, 6.)]],
        '8' => &[&[(1., 0.), (3., 0.), (4., 1.), (4., 2.), (3., 3.), (1., 3.), (0., 4.), (0., 5.), (1., 6.), (3., 6.), (4., 5.), (4., 4.), (3., 3.)], &[(1., 3.), (0., 2.), (0., 1.), (1., 0.)]],
        '9' => &[&[(4., 3.5), (1., 3.5), (0., 2.5), (0., 1.), (1., 0.), (3., 0.), (4., 1.), (4., 4.5), (2.5, 6.), (1., 6.)]],
        'A' => &[&[(0., 6.), (2., 0.), (4., 6.)], &[(0.7, 4.), (3.3, 4.)]],
        'B' => &[&[(0., 0.), (0., 6.), (3., 6.), (4., 5.), (4., 4.), (3., 3.), (0., 3.)], &[(0., 0.), (3., 0.), (4., 1.), (4., 2.), (3., 3.)]],
        'C' => &[&[(4., 1.), (3., 0.), (1., 0.), (0., 1.), (0., 5.), (1., 6.), (3., 6.), (4., 5.)]],
        'D' => &[&[(0., 0.), (0., 6.), (2.5, 6.), (4., 4.5), (4., 1.5), (2.5, 0.), (0., 0.)]],
        'E' => &[&[(4., 0.), (0., 0.), (0., 6.), (4., 6.)], &[(0., 3.), (3., 3.)]],
        'F' => &[&[(4., 0.), (0., 0.), (0., 6.)], &[(0., 3.), (3., 3.)]],
        'G' => &[&[(4., 1.), (3., 0.), (1., 0.), (0., 1.), (0., 5.), (1., 6.), (3., 6.), (4., 5.), (4., 3.5), (2.5, 3.5)]],
        'H' => &[&[(0., 0.), (0., 6.)], &[(4., 0.), (4., 6.)], &[(0., 3.), (4., 3.)]],
        'I' => &[&[(1., 0.), (3., 0.)], &[(2., 0.), (2., 6.)], &[(1., 6.), (3., 6.)]],
        'J' => &[&[(4., 0.), (4., 5.), (3., 6.), (1., 6.), (0., 5.)]],
        'K' => &[&[(0., 0.), (0., 6.)], &[(4., 0.), (0., 3.5)], &[(1.3, 2.7), (4., 6.)]],
        'L' => &[&[(0., 0.), (0., 6.), (4., 6.)]],
        'M' => &[&[(0., 6.), (0., 0.), (2., 3.), (4., 0.), (4., 6.)]],
        'N' => &[&[(0., 6.), (0., 0.), (4., 6.), (4., 0.)]],
        'O' => &[RING],
        'P' => &[BOWL],
        'Q' => &[RING, &[(2.5, 4.5), (4., 6.)]],
        'R' => &[BOWL, &[(2., 3.), (4., 6.)]],
        'S' => &[&[(4., 1.), (3., 0.), (1., 0.), (0., 1.), (0., 2.), (1., 3.), (3., 3.), (4., 4.), (4., 5.), (3., 6.), (1., 6.), (0., 5.)]],
        'T' => &[&[(0., 0.), (4., 0.)], &[(2., 0.), (2., 6.)]],
        'U' => &[&[(0., 0.), (0., 5.), (1., 6.), (3., 6.), (4., 5.), (4., 0.)]],
        'V' => &[&[(0., 0.), (2., 6.), (4., 0.)]],
        'W' => &[&[(0., 0.), (1., 6.), (2., 3.), (3., 6.), (4., 0.)]],
        'X' => &[&[(0., 0.), (4., 6.)], &[(4., 0.), (0., 6.)]],
        'Y' => &[&[(0., 0.), (2., 3.), (4., 0.)], &[(2., 3.), (2., 6.)]],
        'Z' => &[&[(0., 0.), (4., 0.), (0., 6.), (4., 6.)]],
        '%' => &[&[(0., 6.), (4., 0.)], &[(0., 0.), (1., 0.), (1., 1.), (0., 1.), (0., 0.)], &[(3., 5.), (4., 5.), (4., 6.), (3., 6.), (3., 5.)]],
        '-' => &[&[(0.5, 3.), (3.5, 3.)]],
        '+' => &[&[(0.5, 3.), (3.5, 3.)], &[(2., 1.5), (2., 4.5)]],
        '.' => &[&[(1.8, 5.6), (2.2, 5.6), (2.2, 6.), (1.8, 6.), (1.8, 5.6)]],
        ':' => &[&[(2., 1.5), (2., 2.)], &[(2., 4.5), (2., 5.)]],
        '/' => &[&[(0.5, 6.), (3.5, 0.)]],
        '\'' => &[&[(2.2, 0.), (1.8, 1.6)]],
        ',' => &[&[(2.2, 5.), (1.6, 7.)]],
        '(' => &[&[(2.8, -0.5), (1.5, 1.), (1.2, 3.), (1.5, 5.), (2.8, 6.5)]],
        ')' => &[&[(1.2, -0.5), (2.5, 1.), (2.8, 3.), (2.5, 5.), (1.2, 6.5)]],
        '=' => &[&[(0.5, 2.), (3.5, 2.)], &[(0.5, 4.), (3.5, 4.)]],
        '<' => &[&[(3.5, 1.), (0.5, 3.), (3.5, 5.)]],
        '>' => &[&[(0.5, 1.), (3.5, 3.), (0.5, 5.)]],
        _ => return None,
    })
}

/// Width of `text` in font units (a glyph is 4 wide, with 1.6 between glyphs).
fn text_units(text: &str) -> f64 {
    let n = text.chars().count() as f64;
    if n == 0.0 { 0.0 } else { n * 5.6 - 1.6 }
}

/// An SVG path drawing `text` centred on (`cx`, `cy`), `height` pixels tall, in `color`.
pub fn text(out: &mut String, text: &str, cx: f64, cy: f64, height: f64, color: &str) {
    stroke_text(out, text, (cx, cy), height, color, (height / 7.0).max(1.2));
}

/// [`text`] with strokes `width` pixels wide (a wide light one under the ink is a halo).
fn stroke_text(
    out: &mut String,
    text: &str,
    (cx, cy): (f64, f64),
    height: f64,
    color: &str,
    width: f64,
) {
    let scale = height / 6.0;
    let left = cx - text_units(text) * scale / 2.0;
    let top = cy - height / 2.0;
    let mut d = String::new();
    for (i, c) in text.chars().enumerate() {
        let Some(strokes) = glyph(c) else { continue };
        let x0 = left + i as f64 * 5.6 * scale;
        for stroke in strokes {
            for (k, &(x, y)) in stroke.iter().enumerate() {
                let cmd = if k == 0 { 'M' } else { 'L' };
                let _ = write!(
                    d,
                    "{cmd}{:.1} {:.1}",
                    x0 + x as f64 * scale,
                    top + y as f64 * scale
                );
            }
        }
    }
    if d.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="{width:.2}" stroke-linecap="round" stroke-linejoin="round"/>"#
    );
}

fn open(width: f64, height: f64) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">
"#
    )
}

/// The colours of a heat-map's bands, lowest win chance first: ColorBrewer's diverging
/// RdYlBu ramp (readable with the common colour-vision deficiencies), blue to red, light at
/// 50%.
const RAMP: [&str; BANDS] = [
    "#313695", "#4575b4", "#74add1", "#abd9e9", "#e0f3f8", "#fee090", "#fdae61", "#f46d43",
    "#d73027", "#a50026",
];

/// The colour of a heat-map band.
fn band_color(band: usize) -> &'static str {
    RAMP[band.min(BANDS - 1)]
}

/// A stone of `color` at (`x`, `y`), with `number` on it when given.
fn stone(out: &mut String, color: Color, x: f64, y: f64, number: Option<usize>) {
    let (fill, ink) = match color {
        Color::Black => ("#111111", "#ffffff"),
        Color::White => ("#f6f6f2", "#111111"),
    };
    let r = CELL * 0.46;
    let _ = writeln!(
        out,
        r##"<circle class="stone {color}" cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="#000000" stroke-width="1.2"/>"##
    );
    if let Some(n) = number {
        let s = n.to_string();
        let h = if s.len() >= 3 {
            CELL * 0.3
        } else {
            CELL * 0.38
        };
        // Classed, so a reader of the SVG can tell a stone's number from the other strokes.
        let mut path = String::new();
        text(&mut path, &s, x, y, h, ink);
        out.push_str(&path.replacen("<path ", r#"<path class="number" "#, 1));
    }
}

/// The board as an SVG document: its `<title>` (the caption) and `<desc>`, the grid, its
/// coordinates, the heat, the stones, then the marks over them, the heat-map's scale and
/// the caption. Crosses, labels and heat go only on points no stone covers.
pub fn board_svg(board: &Board, what: &BoardPicture) -> String {
    let size = board.size();
    let side = board_extent(size, false).0;
    let (width, board_height) = (side, side);
    let caption = what
        .caption
        .as_deref()
        .map(|c| wrap(c, width))
        .unwrap_or_default();
    let scale = if what.heat.is_some() {
        SCALE_HEIGHT
    } else {
        0.0
    };
    let below = if caption.is_empty() {
        0.0
    } else {
        caption.len() as f64 * CAPTION_LINE + 16.0
    };
    let height = board_height + scale + below;
    let mut out = open(width, height);
    let title = what
        .caption
        .clone()
        .unwrap_or_else(|| format!("{} to move", board.to_move()));
    let covered = |p: Point| !board.is_empty(p) || what.line.iter().any(|&(q, _, _)| q == p);
    title_and_desc(&mut out, &title, &describe(board, what, &covered));
    if what
        .heat
        .as_ref()
        .is_some_and(|h| !h.bounded.is_empty() || !h.capped.is_empty())
    {
        out.push_str(HATCH);
    }
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="{WOOD}"/>"#
    );
    draw_grid(&mut out, size);
    draw_coordinates(&mut out, size);
    if let Some(heat) = &what.heat {
        draw_heat(&mut out, size, heat, &covered);
    }
    draw_stones(&mut out, board, what.move_numbers);
    for &(p, n, c) in &what.line {
        let (cx, cy) = centre(size, p);
        stone(&mut out, c, cx, cy, Some(n));
    }
    for &p in what.forbidden.iter().filter(|&&p| !covered(p)) {
        draw_cross(&mut out, centre(size, p));
    }
    for (p, label) in what.labels.iter().filter(|(p, _)| !covered(*p)) {
        let (cx, cy) = centre(size, *p);
        // A white halo under the ink: readable on every tile, and the tile's colour shows.
        let h = CELL * 0.42;
        let mut halo = String::new();
        stroke_text(&mut halo, label, (cx, cy), h, "#ffffff", h / 3.0);
        out.push_str(&halo.replacen("<path ", r#"<path class="label" "#, 1));
        text(&mut out, label, cx, cy, h, LABEL);
    }
    if let Some(heat) = &what.heat {
        draw_scale(&mut out, heat, width, board_height);
    }
    for (k, line) in caption.iter().enumerate() {
        let y = board_height + scale + (k as f64 + 0.5) * CAPTION_LINE + 2.0;
        text(&mut out, line, width / 2.0, y, CAPTION_HEIGHT, "#222222");
    }
    out.push_str("</svg>\n");
    out
}

/// The `<desc>` of a board picture: the rule and size, whose move, the conventions, and what
/// each kind of mark means, then the caller's notes.
fn describe(board: &Board, what: &BoardPicture, covered: &dyn Fn(Point) -> bool) -> String {
    let size = board.size();
    let turn = match board.winner() {
        Some(five) => format!("{} has five", five.color),
        None => format!("{} to move", board.to_move()),
    };
    let mut parts = vec![format!(
        "rule {}, {size}x{size}, {turn}; {}; columns lettered from the left, rows numbered from the bottom (RIF)",
        board.rule(),
        crate::words::plural(board.total_stones(), "stone", "stones"),
    )];
    if what.move_numbers {
        parts.push("the game's stones numbered by their move".into());
    }
    if let (Some(&(_, first, _)), Some(&(_, last, _))) = (what.line.first(), what.line.last()) {
        parts.push(if first == last {
            format!("the line drawn as a stone numbered {first}")
        } else {
            format!("the line drawn as stones numbered {first} to {last} in order")
        });
    }
    if let Some(heat) = &what.heat {
        parts.push(format!(
            "colour: {}'s win chance after the move, in bands of {}% from blue (0%) to red (100%); {} coloured, {} striped (at most that chance: a bound below the ranked moves), {} hatched grey (a bound that does not place the move)",
            heat.side,
            100 / BANDS,
            crate::words::plural(
                heat.scored.iter().filter(|(p, _)| !covered(*p)).count(),
                "point",
                "points"
            ),
            heat.capped.iter().filter(|(p, _)| !covered(*p)).count(),
            heat.bounded.iter().filter(|&&p| !covered(p)).count(),
        ));
    }
    if what.labels.iter().any(|(p, _)| !covered(*p)) {
        parts.push("blue numbers on empty points: the best moves by rank".into());
    }
    if what.forbidden.iter().any(|&p| !covered(p)) {
        parts.push("red crosses: black's forbidden points".into());
    }
    if board.last_move().is_some() {
        parts.push("the last move marked in red".into());
    }
    parts.extend(what.notes.iter().cloned());
    parts.join("; ")
}

/// The heat-map's tiles: a colour by band for a scored point, grey hatching for a bound.
fn draw_heat(out: &mut String, size: u8, heat: &HeatMap, covered: &dyn Fn(Point) -> bool) {
    let half = CELL * 0.42;
    // A coloured tile is outlined dark, so its colour shows even where it is near the wood's.
    let tile = |out: &mut String, p: Point, class: &str, fill: &str, edge: &str| {
        let (cx, cy) = centre(size, p);
        let _ = writeln!(
            out,
            r##"<rect class="{class}" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4" fill="{fill}" {edge}/>"##,
            cx - half,
            cy - half,
            2.0 * half,
            2.0 * half,
        );
    };
    for &(p, win) in heat.scored.iter().filter(|(p, _)| !covered(*p)) {
        let fill = band_color(HeatMap::band(win));
        tile(
            out,
            p,
            "heat",
            fill,
            r##"stroke="#3a2a10" stroke-width="1.5""##,
        );
    }
    // A ceiling: its band's colour under the stripes, outlined as a scored tile is.
    for &(p, win) in heat.capped.iter().filter(|(p, _)| !covered(*p)) {
        let edge = r##"stroke="#3a2a10" stroke-width="1.5""##;
        tile(out, p, "capped", band_color(HeatMap::band(win)), edge);
        tile(out, p, "stripes", "url(#capped)", r#"stroke="none""#);
    }
    for &p in heat.bounded.iter().filter(|&&p| !covered(p)) {
        tile(out, p, "bound", "url(#bound)", r#"stroke="none""#);
    }
}

/// The grey hatching of a point whose bound says nothing, and the stripes over a ceiling's
/// colour.
const HATCH: &str = r##"<defs><pattern id="bound" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#d2c6a4"/><line x1="1.5" y1="0" x2="1.5" y2="6" stroke="#998f78" stroke-width="1.4"/></pattern><pattern id="capped" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="1.5" y1="0" x2="1.5" y2="6" stroke="#ffffff" stroke-opacity="0.75" stroke-width="1.6"/></pattern></defs>
"##;

/// The heat-map's scale under the board (`top` its upper edge): what the colours are, the
/// bands from 0% to 100%, and what the stripes and the hatching mean when they are drawn.
/// Drawn at its natural size, shrunk to fit a small board.
fn draw_scale(out: &mut String, heat: &HeatMap, width: f64, top: f64) {
    let (swatch, gap, h, letters) = (24.0, 28.0, 14.0, 10.0);
    let bar = swatch * BANDS as f64;
    // The notes after the bar: a striped mid-scale swatch, a hatched grey one.
    let mut notes: Vec<(&str, &str, String)> = Vec::new();
    if !heat.capped.is_empty() {
        notes.push(("scale-capped", "at most", band_color(BANDS / 2).to_string()));
    }
    if !heat.bounded.is_empty() {
        notes.push(("scale-bound", "bound only", "url(#bound)".to_string()));
    }
    let heading = format!("colour: {}'s win chance after the move", heat.side);
    let wide = |s: &str| text_units(s) * letters / 6.0;
    let row = bar
        + notes
            .iter()
            .map(|(_, note, _)| gap + h + 6.0 + wide(note))
            .sum::<f64>();
    let natural = row.max(wide(&heading)) + 24.0;
    let fit = ((width - 16.0) / natural).min(1.0);
    // The row of swatches centred under the heading.
    let x0 = (natural - row) / 2.0;
    let mut g = String::new();
    text(&mut g, &heading, natural / 2.0, 6.0, letters, "#222222");
    for k in 0..BANDS {
        let _ = writeln!(
            g,
            r##"<rect class="scale" data-from="{}" data-to="{}" x="{:.1}" y="16" width="{swatch:.1}" height="{h:.1}" fill="{}" stroke="#3a2a10" stroke-width="0.8"/>"##,
            k * 100 / BANDS,
            (k + 1) * 100 / BANDS,
            x0 + k as f64 * swatch,
            band_color(k),
        );
    }
    for (at, label) in [(0.0, "0%"), (bar / 2.0, "50%"), (bar, "100%")] {
        text(&mut g, label, x0 + at, 40.0, letters, "#222222");
    }
    let mut x = x0 + bar + gap;
    for (class, note, fill) in &notes {
        let _ = writeln!(
            g,
            r##"<rect class="{class}" x="{x:.1}" y="16" width="{h:.1}" height="{h:.1}" fill="{fill}" stroke="#7a7263" stroke-width="0.6"/>"##
        );
        if *class == "scale-capped" {
            let _ = writeln!(
                g,
                r##"<rect x="{x:.1}" y="16" width="{h:.1}" height="{h:.1}" fill="url(#capped)"/>"##
            );
        }
        text(
            &mut g,
            note,
            x + h + 6.0 + wide(note) / 2.0,
            23.0,
            letters,
            "#222222",
        );
        x += h + 6.0 + wide(note) + gap;
    }
    let left = (width - natural * fit) / 2.0;
    let _ = writeln!(
        out,
        r#"<g class="legend" transform="translate({left:.1} {:.1}) scale({fit:.3})">"#,
        top - 6.0
    );
    out.push_str(&g);
    out.push_str("</g>\n");
}

/// The grid lines and the star points: the centre, and the points four in from each corner
/// on 13x13 and larger.
fn draw_grid(out: &mut String, size: u8) {
    let last = MARGIN + (size as f64 - 1.0) * CELL;
    for i in 0..size {
        let at = MARGIN + i as f64 * CELL;
        let _ = writeln!(
            out,
            r##"<line x1="{MARGIN:.1}" y1="{at:.1}" x2="{last:.1}" y2="{at:.1}" stroke="#3a2a10" stroke-width="1"/>"##
        );
        let _ = writeln!(
            out,
            r##"<line x1="{at:.1}" y1="{MARGIN:.1}" x2="{at:.1}" y2="{last:.1}" stroke="#3a2a10" stroke-width="1"/>"##
        );
    }
    let mut stars = vec![(size / 2, size / 2)];
    if size >= 13 {
        let (a, b) = (3, size - 4);
        stars.extend([(a, a), (a, b), (b, a), (b, b)]);
    }
    for (x, y) in stars {
        if let Some(p) = Point::new(x, y) {
            let (cx, cy) = centre(size, p);
            let _ = writeln!(
                out,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="3.5" fill="#3a2a10"/>"##
            );
        }
    }
}

/// Coordinates: letters along the top and bottom, numbers from the bottom on both sides.
fn draw_coordinates(out: &mut String, size: u8) {
    let last = MARGIN + (size as f64 - 1.0) * CELL;
    let coord = "#3a2a10";
    for i in 0..size {
        let at = MARGIN + i as f64 * CELL;
        let letter = Point::column_letter(i).to_string();
        text(out, &letter, at, MARGIN / 2.0 - 2.0, 12.0, coord);
        text(out, &letter, at, last + MARGIN / 2.0 + 2.0, 12.0, coord);
        let number = (size - i).to_string();
        text(out, &number, MARGIN / 2.0 - 2.0, at, 12.0, coord);
        text(out, &number, last + MARGIN / 2.0 + 2.0, at, 12.0, coord);
    }
}

/// The stones on the board (numbered by their move of the record when `move_numbers`), and
/// the last move's mark: a ring round a numbered stone, else a dot.
fn draw_stones(out: &mut String, board: &Board, move_numbers: bool) {
    let size = board.size();
    let record = board.history();
    let first = board.total_stones() - record.len();
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        let (cx, cy) = centre(size, p);
        let number = move_numbers
            .then(|| record.iter().position(|&q| q == p).map(|k| first + k + 1))
            .flatten();
        stone(out, c, cx, cy, number);
    }
    if let Some(p) = board.last_move() {
        let (cx, cy) = centre(size, p);
        if move_numbers {
            let _ = writeln!(
                out,
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{MARK}" stroke-width="2.5"/>"#,
                CELL * 0.46
            );
        } else {
            let _ = writeln!(
                out,
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{MARK}"/>"#,
                CELL * 0.13
            );
        }
    }
}

/// A forbidden point's cross, centred on `(cx, cy)`.
fn draw_cross(out: &mut String, (cx, cy): (f64, f64)) {
    let r = CELL * 0.22;
    let _ = writeln!(
        out,
        r#"<path class="cross" d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="{MARK}" stroke-width="3" stroke-linecap="round"/>"#,
        cx - r,
        cy - r,
        cx + r,
        cy + r,
        cx + r,
        cy - r,
        cx - r,
        cy + r
    );
}

/// One point of a win-rate graph: the move's number, black's win chance after it (0 to 100),
/// and whether to mark it (a mistake or blunder).
#[derive(Clone, Copy, Debug)]
pub struct GraphPoint {
    /// The move's number.
    pub number: usize,
    /// Black's win chance after the move, in percent.
    pub black_win: f64,
    /// Marked (a mistake or a blunder).
    pub marked: bool,
}

/// Extent of the win-rate graph.
pub const GRAPH: (f64, f64) = (720.0, 316.0);
/// The graph's title: whose chance it draws.
pub const GRAPH_TITLE: &str = "black's win chance after each move";
const GRAPH_LEFT: f64 = 56.0;
/// Room above the 100% line for the graph's title.
const GRAPH_TOP: f64 = 40.0;
const GRAPH_BOTTOM: f64 = 48.0;

/// Where a graph point is drawn: x by its place among `count` points, y by its chance.
pub fn graph_xy(index: usize, count: usize, black_win: f64) -> (f64, f64) {
    let (w, h) = GRAPH;
    let span = w - GRAPH_LEFT - 24.0;
    let x = GRAPH_LEFT + span * (index as f64 + 0.5) / count.max(1) as f64;
    let y = GRAPH_TOP + (h - GRAPH_TOP - GRAPH_BOTTOM) * (1.0 - black_win / 100.0);
    (x, y)
}

/// The win-rate graph of a review, titled [`GRAPH_TITLE`]: black's win chance after each
/// move, 50% dashed, mistakes and blunders marked in [`MARK`].
pub fn graph_svg(points: &[GraphPoint]) -> String {
    let (w, h) = GRAPH;
    let mut out = open(w, h);
    let marked = points.iter().filter(|p| p.marked).count();
    let span = match (points.first(), points.last()) {
        (Some(a), Some(b)) => format!("moves {} to {}", a.number, b.number),
        _ => "no moves".to_string(),
    };
    let desc = format!(
        "black's win chance in percent (0% at the bottom, 100% at the top, 50% dashed) after each move, {span}; the shaded area is black's; red dots: {} (mistakes and blunders)",
        crate::words::plural(marked, "marked move", "marked moves")
    );
    title_and_desc(&mut out, GRAPH_TITLE, &desc);
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>"##
    );
    text(&mut out, GRAPH_TITLE, w / 2.0, 16.0, 12.0, "#111111");
    let right = w - 24.0;
    for pct in [0.0, 50.0, 100.0] {
        let (_, y) = graph_xy(0, 1, pct);
        let dash = if pct == 50.0 {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r##"<line x1="{GRAPH_LEFT:.1}" y1="{y:.1}" x2="{right:.1}" y2="{y:.1}" stroke="#999999" stroke-width="1"{dash}/>"##
        );
        text(
            &mut out,
            &format!("{pct:.0}%"),
            GRAPH_LEFT / 2.0,
            y,
            11.0,
            "#444444",
        );
    }
    // Black's area: filled dark below the line.
    if !points.is_empty() {
        let n = points.len();
        let (_, base) = graph_xy(0, 1, 0.0);
        let mut d = String::new();
        for (i, p) in points.iter().enumerate() {
            let (x, y) = graph_xy(i, n, p.black_win);
            let _ = write!(d, "{}{x:.1} {y:.1}", if i == 0 { 'M' } else { 'L' });
        }
        let (x0, _) = graph_xy(0, n, 0.0);
        let (x1, _) = graph_xy(n - 1, n, 0.0);
        let _ = writeln!(
            out,
            r##"<path d="{d}L{x1:.1} {base:.1}L{x0:.1} {base:.1}Z" fill="#222222" fill-opacity="0.18" stroke="none"/>"##
        );
        let _ = writeln!(
            out,
            r##"<path d="{d}" fill="none" stroke="#111111" stroke-width="2"/>"##
        );
        let every = n.div_ceil(12).max(1);
        for (i, p) in points.iter().enumerate() {
            let (x, y) = graph_xy(i, n, p.black_win);
            if p.marked {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{MARK}"/>"#
                );
            }
            // The last move is always labelled; a tick too close to it gives way.
            let tick = i % every == 0 && n - 1 - i >= every.div_ceil(2);
            if tick || i == n - 1 {
                text(
                    &mut out,
                    &p.number.to_string(),
                    x,
                    h - GRAPH_BOTTOM / 2.0,
                    11.0,
                    "#444444",
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Several SVG documents one above the other, as one (a review: the graph, then the board at
/// each blunder).
pub fn stack(parts: &[String]) -> String {
    let mut width: f64 = 0.0;
    let mut height: f64 = 0.0;
    let mut sizes = Vec::new();
    for part in parts {
        let (w, h) = extent(part);
        sizes.push((w, h));
        width = width.max(w);
        height += h;
    }
    let mut out = open(width, height);
    // The document's title is the first part's; its desc lists every part's title in order.
    let titles: Vec<&str> = parts.iter().filter_map(|p| title_of(p)).collect();
    let title = titles.first().copied().unwrap_or("");
    let _ = writeln!(
        out,
        "<title>{title}</title>\n<desc>{}</desc>",
        titles.join("; then ")
    );
    let mut y = 0.0;
    for (part, (_, h)) in parts.iter().zip(sizes) {
        let inner = part
            .split_once('\n')
            .map_or("", |(_, rest)| rest)
            .trim_end()
            .trim_end_matches("</svg>");
        let _ = writeln!(out, r#"<g transform="translate(0 {y:.0})">"#);
        out.push_str(inner);
        out.push_str("</g>\n");
        y += h;
    }
    out.push_str("</svg>\n");
    out
}

/// The (escaped) `<title>` of an SVG document of this module.
fn title_of(svg: &str) -> Option<&str> {
    svg.split_once("<title>")
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .map(|(title, _)| title)
}

/// The width and height an SVG document of this module declares.
fn extent(svg: &str) -> (f64, f64) {
    let num = |key: &str| {
        svg.split_once(key)
            .and_then(|(_, rest)| rest.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    (num("width=\""), num("height=\""))
}

/// Renders an SVG document of this module to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "the picture has no area".to_string())?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_coordinate_letter_and_digit_has_a_glyph() {
        for c in "abcdefghijklmnopqrstuv0123456789%+-./:".chars() {
            assert!(glyph(c).is_some(), "{c}");
        }
    }

    #[test]
    fn a_win_chance_falls_in_its_tenth() {
        let bands: Vec<usize> = [0.0, 0.0999, 0.1, 0.5, 0.95, 1.0]
            .into_iter()
            .map(HeatMap::band)
            .collect();
        assert_eq!(bands, [0, 0, 1, 5, 9, 9]);
    }

    #[test]
    fn marks_go_only_on_empty_points() {
        let mut board = Board::new(15, crate::board::Rule::Renju).unwrap();
        board.play("h8".parse().unwrap());
        let (h8, a1, b2): (Point, Point, Point) = (
            "h8".parse().unwrap(),
            "a1".parse().unwrap(),
            "b2".parse().unwrap(),
        );
        let svg = board_svg(
            &board,
            &BoardPicture {
                line: vec![(a1, 1, Color::White)],
                forbidden: vec![h8, a1, b2],
                labels: vec![(h8, "1".into()), (a1, "2".into())],
                heat: Some(HeatMap {
                    side: Color::White,
                    scored: vec![(h8, 0.5), (a1, 0.5)],
                    capped: vec![],
                    bounded: vec![b2],
                }),
                ..Default::default()
            },
        );
        // Only b2 is empty: one cross, one hatched tile, no label and no coloured tile.
        assert_eq!(svg.matches(r#"class="cross""#).count(), 1);
        assert_eq!(svg.matches(r#"class="bound""#).count(), 1);
        assert_eq!(svg.matches(r#"class="label""#).count(), 0);
        assert_eq!(svg.matches(r#"class="heat""#).count(), 0);
        assert!(svg.contains("<title>white to move</title>"), "{svg}");
        assert!(svg.contains("0 points coloured, 0 striped"), "{svg}");
        assert!(svg.contains("1 hatched grey"), "{svg}");
    }

    #[test]
    fn a_long_caption_wraps_within_the_board() {
        let lines = wrap(&"word ".repeat(40), 384.0);
        assert!(lines.len() > 1);
        let per_char = 5.6 * CAPTION_HEIGHT / 6.0;
        assert!(
            lines
                .iter()
                .all(|l| l.len() as f64 * per_char <= 384.0 - 24.0)
        );
    }

    #[test]
    fn a_board_picture_parses_and_renders() {
        let mut board = Board::new(15, crate::board::Rule::Renju).unwrap();
        for p in ["h8", "i9", "g9"] {
            board.play(p.parse().unwrap());
        }
        let svg = board_svg(&board, &BoardPicture::default());
        let bytes = png(&svg).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }
}
