//! `tengen solve`: one position, one task, a verified answer.

use std::io::Write;

use super::spinner::Spinner;
use super::{deliver, report, to_json};
use crate::board::{Board, Color, Point};
use crate::check::cases;
use crate::config::Solve;
use crate::error::Error;
use crate::report::picture;
use crate::report::{json, text};
use crate::solve::Ending;
use crate::solve::task::{Solver, Task, Verdict};

pub fn run(config: Solve, out: &mut dyn Write) -> Result<u8, Error> {
    let loaded = config.input.load()?;
    let board = &loaded.board;
    let meta = loaded.meta.as_ref();
    let attacker = config.attacker.unwrap_or(board.to_move());
    let mut task = Task::resolve(
        config.mode,
        attacker,
        config.search.given,
        cases::stated(meta),
    );
    task.shortest = config.search.shortest;
    task.verify = config.verify;
    task.time = config.time;
    task.limits.cancel = config.cancel;
    let id = meta.map(|m| m.id.as_str());
    let spinner = Spinner::start(config.progress);
    spinner.label(id.unwrap_or(""));
    let verdict = Solver::new(config.search.hash_mb)?.run(board, &task);
    spinner.finish();
    let verdict = verdict?;
    let text = || {
        if config.output.json {
            to_json(&json::Solve::of(&verdict, id, board.rule(), config.proof))
        } else {
            text::solve(board, &verdict, id, config.output.style, config.proof)
        }
    };
    let svg = || picture(board, &verdict, attacker, config.output.numbers);
    let bytes = report(&config.output, text, svg)?;
    deliver(out, &config.output, &bytes)?;
    Ok(0)
}

/// The solve as a picture: the winning line numbered on the board, the attacker's moves first
/// (after the record's numbers with `--numbers`, from 1 without), captioned with the text's
/// own headline so the two never disagree.
fn picture(board: &Board, verdict: &Verdict, attacker: Color, numbers: bool) -> String {
    let first = if numbers { board.total_stones() } else { 0 };
    let mut side = attacker;
    let line = verdict
        .line
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let c = side;
            side = side.opponent();
            (p, first + k + 1, c)
        })
        .collect();
    let plain = text::Style { color: false };
    let report = text::solve(board, verdict, None, plain, false);
    let headline = report.lines().next().unwrap_or_default().to_string();
    let (forbidden, when) = crosses(board, verdict, attacker);
    let mut notes = vec![format!(
        "{attacker} attacks; the line numbered in the order it is played, {attacker}'s moves {}",
        if first % 2 == 0 { "odd" } else { "even" }
    )];
    if !forbidden.is_empty() {
        notes.push(format!("the crosses are black's forbidden points {when}"));
    }
    picture::board_svg(
        board,
        &picture::BoardPicture {
            move_numbers: numbers,
            line,
            forbidden,
            caption: Some(headline),
            notes,
            ..Default::default()
        },
    )
}

/// Black's forbidden points to cross, and when they hold: where white's line ends with black
/// to block on forbidden points, there; otherwise before the line (the picture leaves out
/// any the line covers).
fn crosses(board: &Board, verdict: &Verdict, attacker: Color) -> (Vec<Point>, &'static str) {
    if verdict.ending == Some(Ending::ForcedFoul) && attacker == Color::White {
        let mut end = board.clone();
        let mut side = attacker;
        for &p in &verdict.line {
            end.set_to_move(side);
            end.play(p);
            side = side.opponent();
        }
        let points = crate::pattern::fouls(&end).into_iter().map(|(p, _)| p);
        return (points.collect(), "after the line");
    }
    (super::forbidden_marks(board), "before the line")
}
