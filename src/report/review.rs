//! The text report of `tengen review`: a line a move up to the decided tail (a proved win
//! played out, one line), the board at each mistake and blunder (the move played in capitals,
//! the best move numbered 1), the forced wins missed and allowed with their lines, what the
//! searches could not reconcile, the turning point and each side's tally.

use super::text::{self, Key, Mark, Style};
use crate::analyze::review::{
    DECIDED_FROM, DecidedTail, GOOD_BELOW, GameResult, Grade, INACCURACY_BELOW, MISTAKE_BELOW,
    MoveReview, Review, ReviewOptions, SideSummary,
};
use crate::board::{Board, Color, Point};
use crate::words::plural;

fn line(points: &[Point]) -> String {
    points
        .iter()
        .map(Point::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn limit(options: &ReviewOptions) -> String {
    let s = &options.settings;
    match (s.depth, s.nodes, s.time) {
        (Some(d), _, _) => format!("depth {d}"),
        (None, Some(n), _) => plural(n, "node", "nodes"),
        (None, None, Some(t)) => humantime::format_duration(t).to_string(),
        (None, None, None) => "1s".into(),
    }
}

fn result_words(result: GameResult) -> &'static str {
    match result {
        GameResult::BlackWins => "black wins",
        GameResult::WhiteWins => "white wins",
        GameResult::Draw => "a draw (the board is full)",
        GameResult::Unfinished => "unfinished",
    }
}

fn tally(side: Color, s: &SideSummary) -> String {
    let mut parts = vec![format!("{} best", s.best), format!("{} good", s.good)];
    parts.push(plural(s.inaccuracy, "inaccuracy", "inaccuracies"));
    parts.push(plural(s.mistake, "mistake", "mistakes"));
    parts.push(plural(s.blunder, "blunder", "blunders"));
    let mut text = format!(
        "{side}: {} · {} · mean loss {:.1}%",
        plural(s.moves, "move", "moves"),
        parts.join(", "),
        s.mean_loss
    );
    if s.missed_wins > 0 {
        text.push_str(&format!(
            " · {}",
            plural(s.missed_wins, "missed win", "missed wins")
        ));
    }
    if s.allowed_wins > 0 {
        text.push_str(&format!(
            " · {}",
            plural(s.allowed_wins, "allowed win", "allowed wins")
        ));
    }
    text
}

/// The review as text.
pub fn text(board: &Board, review: &Review, options: &ReviewOptions, style: Style) -> String {
    let mut out = String::new();
    let opening = review
        .opening
        .as_deref()
        .map(|o| format!(", opening {o}"))
        .unwrap_or_default();
    out.push_str(&format!(
        "# review of moves {} to {} of {} ({} {}x{}{opening}): {}\n",
        review.from,
        review.to,
        review.moves.len(),
        board.rule(),
        review.size,
        review.size,
        result_words(review.result)
    ));
    out.push_str(&format!(
        "# {} a position; {} in {:.1}s; verdicts by the win chance a move gives away: good below {GOOD_BELOW}, inaccuracy below {INACCURACY_BELOW}, mistake below {MISTAKE_BELOW} points, blunder from {MISTAKE_BELOW} or a missed or allowed forced win\n",
        limit(options),
        plural(review.positions, "position", "positions"),
        review.elapsed_ms / 1000.0
    ));
    out.push_str(
        "move  side   played  best    score (played / best)  win% before → after   loss  verdict\n",
    );
    for r in shown(review) {
        let best = r.best.map_or("-".to_string(), |p| p.to_string());
        let mut flags = String::new();
        if r.missed_win.is_some() {
            flags.push_str(" (missed win)");
        }
        if r.allowed_win.is_some() {
            flags.push_str(" (allowed win)");
        }
        out.push_str(&format!(
            "{:>4}  {:<5}  {:<6}  {:<6}  {:>9} / {:<9}  {:>6.1} → {:>5.1}  {:>6.1}  {}{flags}\n",
            r.number,
            r.side.to_string(),
            r.played.to_string(),
            best,
            score(r.played_score),
            score(r.best_score),
            r.win_before,
            r.win_after,
            r.loss,
            r.grade.word()
        ));
        if let Some(note) = &r.note {
            out.push_str(&format!("      {note}\n"));
        }
    }
    if let Some(tail) = review.decided {
        out.push_str(&format!("{}\n", tail_line(&tail)));
    }
    for r in shown(review).filter(|r| r.grade >= Grade::Mistake) {
        out.push('\n');
        out.push_str(&detail(review, r, style));
    }
    out.push('\n');
    match review.turning_point {
        Some(k) => {
            let r = &review.records[k - review.from];
            out.push_str(&format!(
                "turning point: move {k}, {} {}: from it on, the side that won stayed at {DECIDED_FROM}% or more\n",
                r.side, r.played
            ));
        }
        None => out.push_str("turning point: none (no side's win was decided)\n"),
    }
    out.push_str(&tally(Color::Black, &review.black));
    out.push('\n');
    out.push_str(&tally(Color::White, &review.white));
    out.push('\n');
    out
}

/// The decided tail in one line: `moves 13–35: black's proved win`.
pub fn tail_line(tail: &DecidedTail) -> String {
    format!(
        "moves {}–{}: {}'s proved win",
        tail.from, tail.to, tail.winner
    )
}

/// The records shown one by one: those before the decided tail.
pub fn shown(review: &Review) -> impl Iterator<Item = &MoveReview> {
    review.records.iter().filter(|r| !r.decided)
}

fn score(s: i32) -> String {
    let mate = crate::analyze::eval::MATE_BOUND;
    if s > mate {
        "win".into()
    } else if s < -mate {
        "loss".into()
    } else {
        format!("{s:+}")
    }
}

/// A mistake or blunder: what was lost, the forced wins, and the board after the move with
/// the best move numbered 1.
fn detail(review: &Review, r: &MoveReview, style: Style) -> String {
    let mut out = format!(
        "move {}, {} {}: {} ({:.1}% → {:.1}%)",
        r.number,
        r.side,
        r.played,
        r.grade.word(),
        r.win_before,
        r.win_after
    );
    if let Some(best) = r.best {
        out.push_str(&format!("; best {best} ({})", line(&r.best_line)));
    }
    out.push('\n');
    let wins = [
        ("missed win:", "had a forced win in", &r.missed_win),
        ("allowed win: after it", "wins in", &r.allowed_win),
    ];
    for (what, verb, win) in wins {
        if let Some(w) = win {
            out.push_str(&format!(
                "  {what} {} {verb} {} (verified): {}\n",
                w.winner,
                plural(w.moves, "move", "moves"),
                line(&w.line)
            ));
        }
    }
    let Some(board) = board_after(review, r.number) else {
        return out;
    };
    let marks: Vec<(Point, Mark)> = r
        .best
        .filter(|&b| b != r.played)
        .map(|b| (b, Mark::Numbered(1, r.side)))
        .into_iter()
        .collect();
    out.push_str(&text::board(&board, &marks, style));
    out.push_str(&text::legend(&board, &[Key::Best(r.side)], style));
    out
}

/// The position after move `number` of the reviewed game.
pub fn board_after(review: &Review, number: usize) -> Option<Board> {
    let mut b = Board::new(review.size, review.rule)?;
    for &p in &review.setup.black {
        b.put(p, Color::Black);
    }
    for &p in &review.setup.white {
        b.put(p, Color::White);
    }
    b.set_to_move(review.first);
    for &p in review.moves.get(..number)? {
        b.play(p);
    }
    Some(b)
}
