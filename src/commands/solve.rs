//! `tengen solve`: one position, one task, a verified answer.

use std::io::Write;

use super::spinner::Spinner;
use super::{deliver, report, to_json};
use crate::check::cases;
use crate::config::Solve;
use crate::error::Error;
use crate::report::picture;
use crate::report::{json, text};
use crate::solve::task::{Solver, Task};

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
    let svg = || {
        // The winning line numbered on the board, the attacker's moves first.
        let mut side = attacker;
        let line = verdict
            .line
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let c = side;
                side = side.opponent();
                (p, k + 1, c)
            })
            .collect();
        let caption = match verdict.outcome {
            crate::solve::Outcome::Win => format!(
                "{attacker} wins: {}",
                crate::words::plural(verdict.line.len(), "move", "moves")
            ),
            crate::solve::Outcome::NoWin => format!("no win for {attacker}"),
            _ => "unknown".to_string(),
        };
        picture::board_svg(
            board,
            &picture::BoardPicture {
                move_numbers: config.output.numbers,
                line,
                forbidden: super::forbidden_marks(board),
                caption: Some(caption),
                ..Default::default()
            },
        )
    };
    let bytes = report(&config.output, text, svg)?;
    deliver(out, &config.output, &bytes)?;
    Ok(0)
}
