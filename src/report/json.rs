//! JSON documents tengen prints. Each type here is the schema of one command's output; field
//! names are stable. Points are RIF text (`h8`: column from the left, row from the bottom).

use serde::{Deserialize, Serialize};

use crate::analyze::eval::{move_words, win_probability};
use crate::analyze::{self, Bound};
use crate::board::{Board, Color, Point, Rule};
use crate::pattern::Foul;
use crate::solve::proof::Attack;
use crate::solve::task::{Mode, StoppedBy, Verdict};
use crate::solve::{Ending, Outcome};

/// `tengen show --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Board size (5 to 22).
    pub size: u8,
    /// `"freestyle"`, `"standard"` or `"renju"`.
    pub rule: Rule,
    /// `"black"` or `"white"`.
    pub to_move: Color,
    /// Black's stones, in point order.
    pub black: Vec<Point>,
    /// White's stones, in point order.
    pub white: Vec<Point>,
    /// The game record, when the input gave one.
    pub moves: Option<Vec<Point>>,
    /// The last move of the record, when known.
    pub last_move: Option<Point>,
    /// Always `"rif"`: column letter from the left, row number from the bottom.
    pub coordinates: String,
    /// The puzzle id, when the position came from a puzzle file.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<String>,
    /// The renju opening the game record's first three moves form (`"4D Kagetsu"`), when they
    /// form one of the 26 (see [`crate::board::openings`]); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub opening: Option<String>,
}

impl Solve {
    /// The document for a verdict on a position of `rule`; the proof is included when asked.
    pub fn of(verdict: &Verdict, id: Option<&str>, rule: Rule, with_proof: bool) -> Solve {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        let task = &verdict.task;
        Solve {
            id: id.map(str::to_string),
            mode: task.mode,
            rule,
            attacker: task.attacker,
            result: verdict.outcome,
            stopped_by: verdict.stopped_by(),
            line: verdict.line.clone(),
            attacker_moves: verdict.attacker_moves,
            moves_to_five: verdict.moves_to_five,
            ending: verdict.ending,
            limit: task.has_limit().then_some(task.limits.depth),
            nodes: verdict.nodes,
            elapsed_ms: ms(verdict.elapsed),
            verify_ms: verdict.verify_time.map(ms),
            verified: verdict.verified(),
            threat_limit: (task.mode != Mode::Vcf).then_some(task.limits.threat_limit),
            proof_nodes: verdict.proof_nodes(),
            proof: verdict.proof.clone().filter(|_| with_proof),
        }
    }
}

impl Position {
    /// The document for a board (and the puzzle id it came with).
    pub fn of(board: &Board, id: Option<&str>) -> Position {
        Position {
            size: board.size(),
            rule: board.rule(),
            to_move: board.to_move(),
            black: board.stones(Color::Black).collect(),
            white: board.stones(Color::White).collect(),
            moves: board.record().map(<[Point]>::to_vec),
            last_move: board.last_move(),
            coordinates: "rif".into(),
            id: id.map(str::to_string),
            opening: crate::board::openings::of_board(board).map(|o| o.to_string()),
        }
    }
}

/// `tengen forbidden --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forbidden {
    /// The position's rule.
    pub rule: Rule,
    /// Black's forbidden points, in point order (empty unless the rule is renju).
    pub points: Vec<ForbiddenPoint>,
}

/// One forbidden point and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenPoint {
    /// The point.
    pub point: Point,
    /// `"overline"`, `"double-four"` or `"double-three"`.
    pub foul: Foul,
}

/// `tengen solve --format json`, and one line of `tengen bench --format json` (with `id`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solve {
    /// The puzzle id, when the position came from a puzzle file.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<String>,
    /// `"vcf"`, `"vct"` or `"win-in"`.
    pub mode: Mode,
    /// The position's rule.
    pub rule: Rule,
    /// The side that attacks.
    pub attacker: Color,
    /// `"win"`, `"no-win"` (within `limit` attacker moves) or `"unknown"` (budget spent).
    pub result: Outcome,
    /// With `"unknown"`: what stopped the search, `"nodes"` (the node budget), `"time"`
    /// (`--time`) or `"inner"` (an inner search inside the VCT ran out of its own budget).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stopped_by: Option<StoppedBy>,
    /// The winning line, attacker first, alternating; empty unless a win.
    pub line: Vec<Point>,
    /// Attacker moves up to the one after which the win cannot be stopped (a five, a double
    /// threat, a four whose only block is forbidden), as puzzle sources count them: the unit
    /// of `--limit` and a puzzle's `limit:`; 0 unless a win.
    pub attacker_moves: usize,
    /// The attacker's moves up to the five, the five included (on the longest branch of a
    /// proof): what "wins in N moves" says in text, and `analyze`'s `mate_in`; 0 unless a win.
    #[serde(default)]
    pub moves_to_five: usize,
    /// How the line ends: `"five"`, or `"forced-foul"` (black's only block is forbidden).
    pub ending: Option<Ending>,
    /// The bound searched: most attacker moves; `null` when there was none.
    pub limit: Option<u32>,
    /// Positions searched.
    pub nodes: u64,
    /// The solver's own time in milliseconds (parsing, start-up and verification excluded).
    pub elapsed_ms: f64,
    /// The verification's time in milliseconds, when the win was verified.
    #[serde(default)]
    pub verify_ms: Option<f64>,
    /// Whether the win was checked independently: a VCF line replayed on a plain grid; a VCT
    /// proof tried against every legal defence (false when `--no-verify` skipped it).
    pub verified: bool,
    /// VCT: the threat limit searched with.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub threat_limit: Option<u32>,
    /// VCT: nodes (attacker and defender moves) in the proof tree.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub proof_nodes: Option<usize>,
    /// VCT with `--proof`: the proof tree.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub proof: Option<Attack>,
}

/// `tengen analyze --format json`: the position's candidates, best first.
///
/// Scores are for the side to move, in the evaluation's points (about 100 for an open
/// three's worth of initiative); `win_prob` is `1 / (1 + e^(-score/400))`, 1 or 0 for a mate.
/// A verified mate has `mate_in` (its score is `30000 - plies`, plies to the five); a score of
/// ±9000 with no `mate_in` is a forced win the search found and the verifier could not confirm
/// in time (the text shows `win?`); the best `top` are exact at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Analyze {
    /// The position's rule.
    pub rule: Rule,
    /// The side to move, for whom every score is given.
    pub to_move: Color,
    /// The deepest iteration completed (plies).
    pub depth: u32,
    /// The deepest ply reached (forced replies and the horizon's VCF go past `depth`).
    pub seldepth: u32,
    /// Positions the search visited: alpha-beta nodes plus the horizon's VCF positions (Rapfi
    /// likewise counts its VCF quiescence nodes).
    pub nodes: u64,
    /// How many of `nodes` were the horizon's VCF positions.
    pub vcf_nodes: u64,
    /// Time in milliseconds, mate verification included.
    pub elapsed_ms: f64,
    /// Nodes per second: `nodes` over `elapsed_ms`, the figures beside it.
    pub nps: u64,
    /// Every scored candidate, best first.
    pub candidates: Vec<AnalyzeCandidate>,
    /// Black's forbidden points (renju, black to move): never scored.
    pub forbidden: Vec<ForbiddenPoint>,
    /// The renju opening of the game record (`"4D Kagetsu"`), as in [`Position`]; absent
    /// when there is none.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub opening: Option<String>,
}

/// One scored move in [`Analyze`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeCandidate {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Point,
    /// 1 for the best.
    pub rank: usize,
    /// The score for the side to move.
    pub score: i32,
    /// `"exact"`, or `"upper"`: the move is no better than `score` (it was searched with a
    /// null window against the `top`-th score).
    pub bound: BoundKind,
    /// The side to move's chance of winning after this move, from `score`: a bound like it
    /// when `bound` is not exact (an upper bound of 9000, a move tested against a winning
    /// mate, says only that the move wins no more surely than the mate).
    pub win_prob: f64,
    /// A verified forced result: the winner's moves up to its five, positive when the side to
    /// move wins, negative when it loses.
    pub mate_in: Option<i32>,
    /// With `mate_in`: true when a search for a win one move shorter found none (so
    /// `mate_in` is the shortest the threat search proves), false when the winner wins in at
    /// most that many moves (the search for a shorter win did not end in time); absent
    /// without a mate.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mate_shortest: Option<bool>,
    /// The principal variation, starting with the move.
    pub pv: Vec<Point>,
    /// What the move makes for its side, in words (`five`, `open four`, `four-three`, ...).
    pub makes: Vec<String>,
    /// What the move stops for the other side: what the opponent would have made here.
    pub stops: Vec<String>,
    /// The iteration the score comes from.
    pub depth: u32,
}

/// What a score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoundKind {
    /// The value.
    Exact,
    /// At most this.
    Upper,
    /// At least this.
    Lower,
}

impl Analyze {
    /// The document for an analysis of `board`.
    pub fn of(board: &Board, a: &analyze::Analysis) -> Analyze {
        let me = a.to_move;
        let words = |p: Point| {
            let (makes, stops) = move_words(board, p.index(), me);
            let owned = |w: Vec<&str>| w.into_iter().map(str::to_string).collect::<Vec<_>>();
            (owned(makes), owned(stops))
        };
        let secs = a.elapsed.as_secs_f64();
        Analyze {
            rule: board.rule(),
            to_move: me,
            depth: a.depth,
            seldepth: a.seldepth,
            nodes: a.nodes,
            vcf_nodes: a.vcf_nodes,
            elapsed_ms: secs * 1000.0,
            nps: crate::report::text::nodes_per_second(a.nodes, secs * 1000.0),
            candidates: a
                .candidates
                .iter()
                .enumerate()
                .map(|(k, c)| (k, c, words(c.mv)))
                .map(|(k, c, (makes, stops))| AnalyzeCandidate {
                    mv: c.mv,
                    rank: k + 1,
                    score: c.score,
                    bound: match c.bound {
                        Bound::Exact => BoundKind::Exact,
                        Bound::Upper => BoundKind::Upper,
                        Bound::Lower => BoundKind::Lower,
                    },
                    win_prob: match c.mate_in {
                        Some(n) if n > 0 => 1.0,
                        Some(_) => 0.0,
                        None => (win_probability(c.score) * 1000.0).round() / 1000.0,
                    },
                    mate_in: c.mate_in,
                    mate_shortest: c.mate_in.map(|_| c.mate_minimal),
                    pv: c.pv.clone(),
                    makes,
                    stops,
                    depth: c.depth,
                })
                .collect(),
            forbidden: a
                .forbidden
                .iter()
                .map(|&(point, foul)| ForbiddenPoint { point, foul })
                .collect(),
            opening: crate::board::openings::of_board(board).map(|o| o.to_string()),
        }
    }
}
