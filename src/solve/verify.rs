//! Replays a winning line with the slow reference judge ([`crate::pattern::reference`]), which
//! shares no code with the tables the solvers read: every move lands on an empty point; black
//! never plays a forbidden point under renju; before each attacker move that does not win, the
//! defender has no five to make, or the move blocks its only one; every defender reply is forced
//! (the attacker threatens exactly one five and the reply takes it; with two threats the
//! defender may take either); and the line ends in the attacker's five or, under renju, with
//! black's only block forbidden.

use crate::board::{Board, Color, Point, Rule};
use crate::pattern::reference::Grid;

/// Why a line is not a proven VCF.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({point}): {problem}")]
pub struct VerifyError {
    pub number: usize,
    pub point: String,
    pub problem: String,
}

fn wins_at(grid: &Grid, c: Color) -> Vec<Point> {
    grid.win_points(c)
        .into_iter()
        .filter_map(|(x, y)| Point::new(x as u8, y as u8))
        .collect()
}

/// Checks that `line` (attacker first) is a forced VCF win for `attacker` on `board`.
pub fn vcf_line(board: &Board, attacker: Color, line: &[Point]) -> Result<(), VerifyError> {
    let mut grid = Grid::of(board);
    let defender = attacker.opponent();
    let fail = |k: usize, p: Point, problem: &str| {
        Err(VerifyError {
            number: k + 1,
            point: p.to_string(),
            problem: problem.to_string(),
        })
    };
    let mut threats: Vec<Point> = Vec::new();
    for (k, &p) in line.iter().enumerate() {
        let (x, y) = (p.x() as i32, p.y() as i32);
        let side = if k % 2 == 0 { attacker } else { defender };
        if grid.get(x, y) != Some(None) {
            return fail(k, p, "the point is not empty");
        }
        if side == Color::Black && board.rule() == Rule::Renju && grid.foul(x, y).is_some() {
            return fail(k, p, "black plays a forbidden point");
        }
        if side == defender {
            if !threats.contains(&p) {
                return fail(
                    k,
                    p,
                    "the defender's reply does not stop the attacker's five",
                );
            }
            grid.set(x, y, Some(side));
            continue;
        }
        if grid.wins(x, y, attacker, None) {
            return if k + 1 == line.len() {
                Ok(())
            } else {
                fail(k, p, "the line goes on after a five")
            };
        }
        let against = wins_at(&grid, defender);
        if !against.is_empty() && against != [p] {
            return fail(
                k,
                p,
                "the defender has a five to make and this move does not stop it",
            );
        }
        grid.set(x, y, Some(attacker));
        threats = wins_at(&grid, attacker);
        if threats.is_empty() {
            return fail(k, p, "the attacker's move is not a four");
        }
        if k + 1 == line.len() {
            // Black cannot block when every five point is forbidden for it.
            let forced_foul = defender == Color::Black
                && board.rule() == Rule::Renju
                && threats
                    .iter()
                    .all(|t| grid.foul(t.x() as i32, t.y() as i32).is_some());
            return if forced_foul {
                Ok(())
            } else {
                fail(k, p, "the line ends before a five")
            };
        }
        if threats.len() == 1 && !wins_at(&grid, defender).is_empty() {
            return fail(k, p, "the defender can make five instead of blocking");
        }
    }
    Err(VerifyError {
        number: line.len(),
        point: "-".into(),
        problem: "the line is empty".into(),
    })
}
