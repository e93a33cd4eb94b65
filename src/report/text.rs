//! Board diagrams for a terminal: coordinates on all four sides, `x` black and `o` white, the
//! last move in capitals (and reversed when coloured), optional marks on points (numbers of a
//! line, forbidden points). Without colour the diagram parses back as a diagram.

use colored::{Color as Ink, ColoredString, Styles as Effect};

use crate::analyze::eval::MATE_BOUND;
use crate::analyze::eval::{move_words, win_probability};
use crate::analyze::params::UNPROVEN_DECISIVE;
use crate::analyze::{self, Analysis, Bound, Candidate};
use crate::board::{Board, Color, Point};
use crate::solve::task::{Mode, StoppedBy, Verdict};
use crate::solve::{Ending, Outcome};
use crate::words::plural;

/// How to draw: decided once by the caller (from `--color`, `NO_COLOR` and the terminal) and
/// passed down; nothing here looks at the environment (see [`paint`] for the one switch set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Colour with ANSI escapes.
    pub color: bool,
}

/// Black's stones and moves.
const BLACK_INK: Ink = Ink::BrightRed;
/// White's stones and moves.
const WHITE_INK: Ink = Ink::BrightCyan;
/// Black's forbidden points.
const FORBIDDEN_INK: Ink = Ink::Yellow;
/// Each candidate's heat, 0 (worst) to 9 (best), in a table of the best `top`. A proved win
/// is 9 and a proved loss 0; the other scores spread linearly over the digits between (1 to 8
/// when there are both, so a mate does not squeeze every other move onto one digit). A decisive score the verifier could not confirm takes the
/// warm (or cold) end of that spread. An upper bound that says where its move stands (at or
/// below the lowest of the best `top`, see [`table_floor`]) is shaded as its value: the move
/// is no better than that. A bound that says nothing (tested only against a higher score, a
/// mate say) is `None`, drawn `?`, and left out of the spread.
pub(crate) fn heat(candidates: &[Candidate], top: usize) -> Vec<Option<u8>> {
    let mated = |sign: i32| {
        candidates
            .iter()
            .any(|c| c.mate_in.is_some_and(|n| n.signum() == sign))
    };
    let (floor, ceiling) = (u8::from(mated(-1)), 9 - u8::from(mated(1)));
    let table = table_floor(candidates, top);
    let scored = |c: &&Candidate| c.mate_in.is_none() && !decisive(c) && informative(c, table);
    let (lo, hi) = candidates
        .iter()
        .filter(scored)
        .fold((i32::MAX, i32::MIN), |(lo, hi), c| {
            (lo.min(c.score), hi.max(c.score))
        });
    candidates
        .iter()
        .map(|c| match c.mate_in {
            Some(n) if n > 0 => Some(9),
            Some(_) => Some(0),
            None if decisive(c) => Some(if c.score > 0 { ceiling } else { floor }),
            None if !informative(c, table) => None,
            None if hi > lo => {
                let span = i64::from(ceiling - floor);
                let score = c.score.clamp(lo, hi);
                Some(floor + ((score - lo) as i64 * span / (hi - lo) as i64) as u8)
            }
            None => Some(ceiling),
        })
        .collect()
}

/// The heat map's ramp, coldest first: the digits each ink shows.
const HEAT: [(u8, u8, Ink); 5] = [
    (0, 1, Ink::Blue),
    (2, 3, Ink::Cyan),
    (4, 5, Ink::Green),
    (6, 7, Ink::Yellow),
    (8, 9, Ink::BrightRed),
];

/// The ink of a side's stones and numbered moves.
fn ink(side: Color) -> Ink {
    match side {
        Color::Black => BLACK_INK,
        Color::White => WHITE_INK,
    }
}

/// What a legend calls an ink (a bright one by its hue).
fn ink_name(ink: Ink) -> &'static str {
    match ink {
        Ink::Red | Ink::BrightRed => "red",
        Ink::Green | Ink::BrightGreen => "green",
        Ink::Yellow | Ink::BrightYellow => "yellow",
        Ink::Blue | Ink::BrightBlue => "blue",
        Ink::Magenta | Ink::BrightMagenta => "magenta",
        Ink::Cyan | Ink::BrightCyan => "cyan",
        Ink::White | Ink::BrightWhite => "white",
        Ink::Black | Ink::BrightBlack => "grey",
        _ => "colour",
    }
}

/// `text` in `ink` with `effects` when the style colours, else as it is.
pub(crate) fn paint(text: &str, ink: Option<Ink>, effects: &[Effect], style: Style) -> String {
    if !style.color {
        return text.to_string();
    }
    let mut painted = ColoredString::from(text);
    painted.fgcolor = ink;
    for &effect in effects {
        painted.style.add(effect);
    }
    std::sync::LazyLock::force(&COLORED_OBEYS_STYLE);
    painted.to_string()
}

/// `colored` would decide for itself whether to colour, from the environment and whether
/// standard output is a terminal; the caller has decided already (the [`Style`]), so its own
/// switch is turned on before the first painted text. Plain text never goes through it.
static COLORED_OBEYS_STYLE: std::sync::LazyLock<()> =
    std::sync::LazyLock::new(|| colored::control::set_override(true));

/// What a point shows instead of its stone or emptiness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A numbered move of a line, drawn in the colour of the side that plays it.
    Numbered(usize, Color),
    /// A forbidden point for black.
    Forbidden,
    /// A scored point on a heat map: 0 (worst) to 9 (best).
    Heat(u8),
    /// A point on a heat map known only to be no better than some value above every exact
    /// score (tested against a mate, say): nothing to shade it by.
    Unranked,
}

impl Mark {
    fn text(&self) -> String {
        match self {
            Mark::Numbered(n, _) => n.to_string(),
            Mark::Forbidden => "#".into(),
            Mark::Heat(d) => d.to_string(),
            Mark::Unranked => "?".into(),
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
    let dim = |s: String| paint(&s, None, &[Effect::Dimmed], style);
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
        Some(side) => (Some(self::ink(side)), vec![Effect::Bold]),
        None => (None, vec![Effect::Dimmed]),
    };
    if last {
        effects.push(Effect::Reversed);
    }
    format!("{pad}{}", paint(c, ink, &effects, style))
}

fn paint_mark(mark: &Mark, width: usize, style: Style) -> String {
    let text = format!("{:>width$}", mark.text());
    match mark {
        Mark::Numbered(_, side) => paint(&text, Some(ink(*side)), &[Effect::Underline], style),
        Mark::Forbidden => paint(&text, Some(FORBIDDEN_INK), &[Effect::Bold], style),
        Mark::Heat(d) => {
            let ink = HEAT
                .iter()
                .find(|&&(_, hi, _)| *d <= hi)
                .map_or(Ink::BrightRed, |&(_, _, ink)| ink);
            paint(&text, Some(ink), &[], style)
        }
        Mark::Unranked => paint(&text, None, &[Effect::Dimmed], style),
    }
}

/// What a diagram's legend explains besides the stones and the last move: one key a kind of
/// mark on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `#`: black's forbidden points.
    Forbidden,
    /// Numbers: the best moves of this side, 1 first.
    Best(Color),
    /// Numbers: a line played from the position, this side first.
    Line(Color),
    /// Digits: every scored move, 9 best to 0 worst.
    Heat,
    /// `?`: moves with only an upper bound above every exact score.
    Unranked,
}

impl Key {
    /// The key's words; with colour, they name the colours (the uncoloured diagram tells the
    /// same things by letters, `#` and numbers alone).
    fn text(self, style: Style) -> String {
        let color = style.color;
        match self {
            Key::Forbidden => {
                let mark = paint("#", Some(FORBIDDEN_INK), &[Effect::Bold], style);
                let ink = if color {
                    format!(" ({})", ink_name(FORBIDDEN_INK))
                } else {
                    String::new()
                };
                format!("{mark} forbidden for black{ink}")
            }
            Key::Best(side) => {
                let ink = if color {
                    format!(" (underlined in {}'s {})", side, ink_name(ink(side)))
                } else {
                    String::new()
                };
                format!("numbers: the best moves for {side}, 1 first{ink}")
            }
            Key::Line(first) => {
                let second = first.opponent();
                if color {
                    format!(
                        "numbers: the line in order, underlined: {first}'s moves {}, {second}'s {}",
                        ink_name(ink(first)),
                        ink_name(ink(second))
                    )
                } else {
                    format!("numbers: the line in order, {first}'s moves odd, {second}'s even")
                }
            }
            Key::Heat => {
                let ramp = if color {
                    let inks: Vec<String> = HEAT
                        .iter()
                        .rev()
                        .map(|&(lo, hi, ink)| format!("{hi}-{lo} {}", ink_name(ink)))
                        .collect();
                    format!(" ({})", inks.join(", "))
                } else {
                    String::new()
                };
                format!("digits: every scored move, 9 best to 0 worst{ramp}")
            }
            Key::Unranked => {
                let mark = paint("?", None, &[Effect::Dimmed], style);
                format!("{mark} known only to be no better than a bound above every exact score")
            }
        }
    }
}

/// The `#` legend line under a diagram: the rule and size, what the letters (and, with colour,
/// the colours) mean, the last move, each of `keys`, and how rows count.
pub fn legend(board: &Board, keys: &[Key], style: Style) -> String {
    let stone = |c: &str, side: Color| {
        let glyph = paint(c, Some(ink(side)), &[Effect::Bold], style);
        if style.color {
            format!("{glyph} {side} ({})", ink_name(ink(side)))
        } else {
            format!("{glyph} {side}")
        }
    };
    let mut legend = format!(
        "# rule {}, {}x{}; {}, {}",
        board.rule(),
        board.size(),
        board.size(),
        stone("x", Color::Black),
        stone("o", Color::White)
    );
    if let Some(p) = board.last_move() {
        legend.push_str(&format!(", last move {p} in capitals"));
        if style.color {
            legend.push_str(" and reversed");
        }
    }
    for key in keys {
        legend.push_str("; ");
        legend.push_str(&key.text(style));
    }
    legend.push_str("; rows count from the bottom (RIF)\n");
    legend
}

/// The `# opening: 4D Kagetsu` line of a game whose first three moves form one of the 26
/// renju openings ([`crate::board::openings`]); empty otherwise. A `#` line, so that a diagram with it
/// still reads back.
pub fn opening(board: &Board) -> String {
    crate::board::openings::of_board(board)
        .map(|o| format!("# opening: {o}\n"))
        .unwrap_or_default()
}

/// The lines under a diagram: the side to move, then the [`legend`]; for a finished game, a
/// `#` line saying who made five where (a comment, so the diagram still reads back).
pub fn footer(board: &Board, keys: &[Key], style: Style) -> String {
    let won = board
        .winner()
        .map(|five| format!("# {}\n", five_words(&five)))
        .unwrap_or_default();
    format!(
        "{} to move\n{}{won}",
        board.to_move(),
        legend(board, keys, style)
    )
}

/// A finished game's end in words: `black has five (g6 f7 e8 d9 c10)`.
pub fn five_words(five: &crate::board::Five) -> String {
    let stones: Vec<String> = five.stones.iter().map(|p| p.to_string()).collect();
    format!("{} has five ({})", five.color, stones.join(" "))
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
    let bound = if !task.has_limit() {
        String::new()
    } else if task.mode == Mode::WinIn {
        format!(" in {}", plural(task.limits.depth, "move", "moves"))
    } else {
        format!(
            " within {}",
            plural(task.limits.depth, "attacker move", "attacker moves")
        )
    };
    let threats = if task.mode == Mode::Vcf {
        String::new()
    } else {
        format!(" (threat limit {})", task.limits.threat_limit)
    };
    let attacker = task.attacker;
    let headline = match verdict.outcome {
        Outcome::Win => {
            let how = match verdict.ending {
                Some(Ending::ForcedFoul) => ", black's only block is forbidden",
                _ => "",
            };
            let check = match (task.mode, verdict.verified(), verdict.proof_nodes()) {
                (Mode::Vcf, _, _) => " (line verified)".to_string(),
                (_, true, Some(n)) => format!(
                    " (proof of {}, verified against every defence)",
                    plural(n, "node", "nodes")
                ),
                (_, false, Some(n)) => {
                    format!(" (proof of {}, not verified)", plural(n, "node", "nodes"))
                }
                _ => String::new(),
            };
            let by = match task.mode {
                Mode::Vcf => "VCF",
                Mode::Vct => "VCT",
                Mode::WinIn => "a threat sequence",
            };
            // A VCT proof's longest line is what it proves: a win within that many moves,
            // not that no shorter one exists (`--win-in N` asks for one).
            let at_most = if task.mode == Mode::Vct && verdict.moves_to_five > 1 {
                "at most "
            } else {
                ""
            };
            let moves = plural(verdict.moves_to_five, "move", "moves");
            format!("{attacker} wins by {by} in {at_most}{moves}{how}{check}")
        }
        Outcome::NoWin => match task.mode {
            Mode::Vcf => format!("no VCF win for {attacker}{bound}"),
            Mode::Vct => format!("no VCT win for {attacker}{bound}{threats}"),
            Mode::WinIn => format!("no threat sequence wins for {attacker}{bound}{threats}"),
        },
        Outcome::Unknown => {
            let searched = plural(verdict.nodes, "position", "positions");
            match verdict.stopped_by() {
                Some(StoppedBy::Time) => format!(
                    "unknown: the time limit (--time {}) ran out after {searched} without an answer",
                    humantime::format_duration(task.time.unwrap_or_default())
                ),
                Some(StoppedBy::Nodes) => format!(
                    "unknown: the node budget (--max-nodes {}) ran out without an answer",
                    task.limits.nodes
                ),
                _ => format!(
                    "unknown: the search ended after {searched}, within its budgets, without an answer: an inner search ran out of its own budget, so no \"no win\" can be claimed"
                ),
            }
        }
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
        s.push_str(&legend(board, &[Key::Line(task.attacker)], style));
    }
    if let (true, Some(tree)) = (with_proof, &verdict.proof) {
        s.push_str("proof (attacker moves numbered, defender replies indented beneath):\n");
        s.push_str(&super::proof::text(tree));
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    s.push_str(&format!(
        "nodes {} · search {:.3} ms",
        verdict.nodes,
        ms(verdict.elapsed)
    ));
    if let Some(verify) = verdict.verify_time {
        s.push_str(&format!(" · verify {:.3} ms", ms(verify)));
    }
    s.push('\n');
    s
}

/// The text report of an analysis under `settings`: the board with the best `top` moves
/// numbered (or, with `heatmap`, every scored point shaded 0-9), then one row a move (the best
/// `top`, or every candidate with `--all` or the heat map): rank, move, score, win chance,
/// mate, depth, what it makes and stops, and the line; then the legend of the rows and a
/// footer with the depth, nodes, time, and the threads and limits that make a run repeatable
/// or not.
pub fn analysis(
    board: &Board,
    a: &Analysis,
    id: Option<&str>,
    settings: &analyze::Settings,
    heatmap: bool,
    style: Style,
) -> String {
    let top = settings.top;
    let mut s = id.map(|id| format!("# {id}\n")).unwrap_or_default();
    let marks = analysis_marks(a, top, heatmap);
    s.push_str(&self::board(board, &marks, style));
    let mut keys = vec![if heatmap {
        Key::Heat
    } else {
        Key::Best(a.to_move)
    }];
    if marks.iter().any(|(_, m)| *m == Mark::Unranked) {
        keys.push(Key::Unranked);
    }
    if !a.forbidden.is_empty() {
        keys.push(Key::Forbidden);
    }
    s.push_str(&footer(board, &keys, style));
    s.push_str(&opening(board));
    s.push_str(&analysis_headline(a));
    s.push_str(&format!(
        "{:>4}  {:<5} {:>7} {:>7} {:>5}  {}\n",
        "rank", "move", "score", "win%", "depth", "why · line"
    ));
    let shown = if settings.all || heatmap {
        a.candidates.len()
    } else {
        top
    };
    let floor = table_floor(&a.candidates, top);
    let rows = &a.candidates[..shown.min(a.candidates.len())];
    for (k, c) in rows.iter().enumerate() {
        s.push_str(&candidate_row(board, k + 1, c, a.to_move, floor));
    }
    if a.candidates.len() > shown {
        s.push_str(&format!(
            "({} scored; --all for exact scores, --format json for every one)\n",
            plural(
                a.candidates.len() - shown,
                "more candidate",
                "more candidates"
            )
        ));
    }
    s.push_str(&row_notes(rows, floor));
    s.push_str(&search_counts(a, top));
    s.push_str(&repeatability(settings));
    s
}

/// The notes under the rows: what each kind of cell the rows show means.
fn row_notes(rows: &[Candidate], floor: Option<i32>) -> String {
    let mut notes = String::new();
    let any = |f: &dyn Fn(&Candidate) -> bool| rows.iter().any(f);
    if any(&|c| c.mate_in.is_some()) {
        notes.push_str(
            "(+M9: a verified win in 9 moves of the side to move, its five included; -M9: the opponent's; +M<=9: in at most 9, a shorter win not ruled out)\n",
        );
    }
    if any(&|c| decisive(c)) {
        notes.push_str(&format!(
            "(win?/loss?: the search found a forced win it could not verify in time: scored {UNPROVEN_DECISIVE:+}/{:+}, not a proved mate)\n",
            -UNPROVEN_DECISIVE
        ));
    }
    if any(&|c| c.mate_in.is_none() && c.bound == Bound::Upper && informative(c, floor)) {
        notes.push_str(
            "(<=S: tested against the best moves at its depth: no better than S, below them)\n",
        );
    }
    if any(&|c| !informative(c, floor)) {
        notes.push_str(
            "(?: tested only against a higher score (a mate): not yet compared with the best moves)\n",
        );
    }
    notes
}

/// The marks of an analysis diagram: the best `top` moves numbered, or with `heatmap` every
/// scored move shaded; black's forbidden points after them.
fn analysis_marks(a: &Analysis, top: usize, heatmap: bool) -> Vec<(Point, Mark)> {
    let marks: Vec<(Point, Mark)> = if heatmap {
        a.candidates
            .iter()
            .zip(heat(&a.candidates, top))
            .map(|(c, d)| (c.mv, d.map_or(Mark::Unranked, Mark::Heat)))
            .collect()
    } else {
        a.candidates
            .iter()
            .take(top)
            .enumerate()
            .map(|(k, c)| (c.mv, Mark::Numbered(k + 1, a.to_move)))
            .collect()
    };
    let forbidden = a.forbidden.iter().map(|&(p, _)| (p, Mark::Forbidden));
    marks.into_iter().chain(forbidden).collect()
}

/// The line over the rows: the mate of the best move, else its score and win chance; or why
/// there is no move.
pub(crate) fn analysis_headline(a: &Analysis) -> String {
    let me = a.to_move;
    if let Some(best) = a.candidates.first() {
        let verdict = match best.mate_in {
            Some(n) => {
                let winner = if n > 0 { me } else { me.opponent() };
                format!("{winner} wins in {} (verified)", mate_moves(best))
            }
            None if decisive(best) => format!(
                "best {}: {} (a forced win the verifier could not confirm in time)",
                best.mv,
                if best.score > 0 { "win?" } else { "loss?" }
            ),
            None => format!(
                "best {}: score {:+} ({:.0}% for {me})",
                best.mv,
                best.score,
                win_probability(best.score) * 100.0
            ),
        };
        format!("{verdict}\n")
    } else if !a.forbidden.is_empty() {
        "no legal move: every empty point is forbidden for black\n".to_string()
    } else {
        "no move to play\n".to_string()
    }
}

/// A verified mate's length in words: `9 moves`, or `at most 19 moves` when no search for
/// a shorter win ended (see [`Candidate::mate_minimal`]).
fn mate_moves(c: &Candidate) -> String {
    let n = c.mate_in.unwrap_or(0).abs();
    let at_most = if c.mate_minimal { "" } else { "at most " };
    format!("{at_most}{}", plural(n, "move", "moves"))
}

/// A score at the mate band or at [`UNPROVEN_DECISIVE`] with no verified mate: a forced win
/// (or loss) the search found and the verifier could not confirm in time.
fn decisive(c: &Candidate) -> bool {
    c.mate_in.is_none() && c.bound == Bound::Exact && c.score.abs() >= UNPROVEN_DECISIVE
}

/// The lowest exact score among the best `top` rows (mates and decisive scores aside; the
/// best plain score when mates fill them): an upper bound at or below it says where its move
/// stands (below them); one above it says nothing (the move was tested against a higher
/// score, a mate say, and never compared with the best `top`).
fn table_floor(candidates: &[Candidate], top: usize) -> Option<i32> {
    let plain = |c: &&Candidate| c.mate_in.is_none() && c.bound == Bound::Exact && !decisive(c);
    // When mates fill the best `top`, a bound at or below the best plain score still ranks
    // its move below that.
    let rows = candidates.iter().take(top.max(1)).filter(plain);
    rows.map(|c| c.score)
        .min()
        .or_else(|| candidates.iter().find(plain).map(|c| c.score))
}

/// Whether each candidate's score places it, as the table and the heat-map read it: exact, a
/// mate, or a bound at or below the table's rows (see [`informative`]).
pub(crate) fn places(candidates: &[Candidate], top: usize) -> impl Fn(&Candidate) -> bool {
    let floor = table_floor(candidates, top);
    move |c| informative(c, floor)
}

/// Whether a candidate's score says something: exact, a mate, or a bound at or below
/// `floor` (see [`table_floor`]).
fn informative(c: &Candidate, floor: Option<i32>) -> bool {
    match c.bound {
        _ if c.mate_in.is_some() => true,
        Bound::Exact => true,
        Bound::Upper => floor.is_some_and(|f| c.score <= f) || c.score < -MATE_BOUND,
        Bound::Lower => c.score < MATE_BOUND,
    }
}

/// A candidate's score and win chance as the table shows them: `+M9` / `-M9` for a verified
/// mate (`+M<=19` when it is at most that), `win?` / `loss?` for a decisive score not
/// verified, `<=S` for an upper bound that says something, `?` for one that says nothing,
/// else the score.
fn score_cells(c: &Candidate, floor: Option<i32>) -> (String, String) {
    let pct = |score: i32| format!("{:.1}", win_probability(score) * 100.0);
    match c.mate_in {
        Some(n) => {
            let at_most = if c.mate_minimal { "" } else { "<=" };
            let sign = if n > 0 { '+' } else { '-' };
            let win = if n > 0 { "100.0" } else { "0.0" };
            return (format!("{sign}M{at_most}{}", n.abs()), win.to_string());
        }
        None if decisive(c) => {
            let word = if c.score > 0 { "win?" } else { "loss?" };
            return (word.to_string(), "?".to_string());
        }
        None => {}
    }
    match c.bound {
        Bound::Exact => (format!("{:+}", c.score), pct(c.score)),
        _ if !informative(c, floor) => ("?".to_string(), "?".to_string()),
        Bound::Upper => (format!("<={:+}", c.score), format!("<={}", pct(c.score))),
        Bound::Lower => (format!(">={:+}", c.score), format!(">={}", pct(c.score))),
    }
}

/// One candidate's row, ranked `rank`: score, win chance, depth, what the move makes and
/// stops for `me`, and its line. `floor` says which bounds say something (see
/// [`table_floor`]). A verified mate is a proof whatever the depth: its depth is not shown.
fn candidate_row(
    board: &Board,
    rank: usize,
    c: &Candidate,
    me: Color,
    floor: Option<i32>,
) -> String {
    let (score, win) = score_cells(c, floor);
    let depth = if c.mate_in.is_some() {
        String::new()
    } else {
        c.depth.to_string()
    };
    let (makes, stops) = move_words(board, c.mv.index(), me);
    let mut why = Vec::new();
    if !makes.is_empty() {
        why.push(format!("makes {}", makes.join(", ")));
    }
    if !stops.is_empty() {
        why.push(format!("stops {}", stops.join(", ")));
    }
    // A bound's line is its move alone: the null-window test that gave it has no line.
    let line: Vec<String> = c.pv.iter().map(|p| p.to_string()).collect();
    format!(
        "{:>4}  {:<5} {:>7} {:>7} {:>5}  {}{}{}\n",
        rank,
        c.mv.to_string(),
        score,
        win,
        depth,
        why.join("; "),
        if why.is_empty() { "" } else { " · " },
        line.join(" ")
    )
}

/// The footer's first line: the depths reached, the nodes, the speed and the time. The speed
/// is the nodes over the whole time shown beside it, as JSON's `nps`.
fn search_counts(a: &Analysis, top: usize) -> String {
    // The deepest iteration completed, and the depth of the best `top` when it differs (a
    // game's move of an iteration the time cut short keeps its deeper score; a pass the
    // limits cut short leaves the best `top` a shallower common depth).
    let table = a
        .candidates
        .iter()
        .take(top.max(1))
        .find(|c| c.mate_in.is_none() && c.bound == Bound::Exact)
        .map(|c| c.depth);
    let depth = match table {
        Some(d) if d != a.depth => format!("depth {} (the best moves {d}, ", a.depth),
        _ => format!("depth {} (", a.depth),
    };
    let ms = a.elapsed.as_secs_f64() * 1000.0;
    format!(
        "{depth}sel {}) · {} · {} nodes/s · {ms:.0} ms\n",
        a.seldepth,
        plural(a.nodes, "node", "nodes"),
        nodes_per_second(a.nodes, ms)
    )
}

/// Nodes per second from the nodes and the milliseconds they took (0 for no time): the one
/// formula of the text's figures and JSON's `nps`.
pub(crate) fn nodes_per_second(nodes: u64, ms: f64) -> u64 {
    if ms > 0.0 {
        (nodes as f64 / ms * 1000.0) as u64
    } else {
        0
    }
}

/// The footer's last line: the threads and the limit, and whether they make the run repeat
/// (one thread and a depth or node limit).
fn repeatability(settings: &analyze::Settings) -> String {
    let threads = plural(settings.threads, "thread", "threads");
    let limit = match (settings.depth, settings.nodes, settings.time) {
        (Some(d), _, _) => format!("depth limit {d}"),
        (None, Some(n), _) => format!("node limit {n}"),
        (None, None, Some(t)) => format!("time limit {}", humantime::format_duration(t)),
        (None, None, None) => format!(
            "time limit {} (the default)",
            humantime::format_duration(analyze::DEFAULT_TIME)
        ),
    };
    let repeats = settings.threads == 1 && (settings.depth.is_some() || settings.nodes.is_some());
    if repeats {
        format!("{threads}, {limit}: the same every run\n")
    } else {
        format!(
            "{threads}, {limit}: may differ from run to run (--threads 1 with --depth or --nodes repeats)\n"
        )
    }
}
