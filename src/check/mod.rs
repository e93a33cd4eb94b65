//! Checking a puzzle's stated answer against the solvers: the library side of `tengen check`.
//!
//! Each puzzle gets a [`Status`] by its `kind`:
//!
//! * **`vcf`**: a stated line replays as a legal VCF (every attacker move a four, every reply
//!   forced, a five or a forced foul at the end; an open four or double four at the end is
//!   completed by the block and the five) within `limit`. `any of <moves>`: each move starts a
//!   VCF within `limit`. `win` (or no answer): the VCF solver finds one.
//! * **`vct`** and **`win`** (the full threat search): the stated first move wins within
//!   `limit` and `threat-limit`, and the rest of a stated line replays legally. `any of`: each
//!   move wins. `win` (or no answer): the solver finds a win.
//! * **`no-win`**: the solver proves that there is no win within the bounds: VCF when the
//!   puzzle is about VCF (tag `vcf`, or "VCF" in the answer's comment), else VCT.
//! * **`best-move`**: the side to move defends. A move *holds* when, after it, the opponent has
//!   no win within the puzzle's bounds (VCF when tagged `vcf`, else VCT). Every stated move must
//!   hold; with `any of`, no other legal move may hold; `none` means that no move holds.
//!
//! **Strict** (composer) mode also fails a second solution: another winning first move for
//! `vcf`/`vct`/`win` (unless the answer is `any of`), another holding move for `best-move`.
//!
//! A budget spent before the answer is known makes the status [`Status::Unknown`], never a
//! failure of the answer; every win behind a status is verified by the solvers' own checks.
//!
//! ```
//! use tengen::check::{self, CheckOptions, Status};
//! use tengen::files::input::Request;
//! use tengen::solve::task::Solver;
//!
//! // A puzzle file of one puzzle: black's four h8-h11 makes five at h12 (or h7).
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("mine.txt");
//! let puzzle = "id: mine\nrule: freestyle\nmoves: h8 a1 h9 a3 h10 a5 h11 a7\n";
//! std::fs::write(&path, format!("{puzzle}answer: h12\nkind: vcf\n"))?;
//! let request = Request { source: path.display().to_string(), ..Default::default() };
//! let loaded = request.load()?;
//! let meta = loaded.meta.expect("a puzzle file states an answer");
//! let options = CheckOptions { strict: false, max_nodes: None, time: None };
//! let mut solver = Solver::new(64)?;
//! let report = check::check(&loaded.board, &meta, &mut solver, &options);
//! assert_eq!(report.status, Status::Pass);
//! // In composer mode the second five (h7) is a second solution: the puzzle fails.
//! let strict = CheckOptions { strict: true, ..options };
//! let report = check::check(&loaded.board, &meta, &mut solver, &strict);
//! assert_eq!(report.status, Status::Fail);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod cases;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::board::{Board, Cell, Color, Point};
use crate::notation::puzzle::{AnswerForm, Kind, Meta};
use crate::notation::span::{RawPoint, Spanned};
use crate::pattern;
use crate::setup;
use crate::solve::task::{self, Mode, Solver, StoppedBy, Task, Verdict};
use crate::solve::{DEFAULT_MAX_NODES, Outcome, verify};
use crate::words::plural;

/// A puzzle's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The answer is right (and, in strict mode, the only one).
    Pass,
    /// The budget ran out before the answer could be confirmed or refuted.
    Unknown,
    /// The answer is wrong, or (strict) not the only one.
    Fail,
    /// The puzzle does not parse or is not a legal position.
    Error,
}

impl Status {
    /// The word for it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Unknown => "unknown",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// How to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// Composer mode: a second solution fails.
    pub strict: bool,
    /// Most positions a puzzle may search, over all its solver runs (default 75M).
    pub max_nodes: Option<u64>,
    /// Most time a puzzle may take.
    pub time: Option<Duration>,
}

/// What `--update` would write into a puzzle that lacks it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    /// An `answer:` value.
    pub answer: Option<String>,
    /// A `limit:` value.
    pub limit: Option<u32>,
}

/// The outcome of checking one puzzle.
#[derive(Clone, Debug)]
pub struct Report {
    /// The verdict.
    pub status: Status,
    /// What the puzzle states, in words (its answer as written, or what the kind claims).
    pub expected: String,
    /// What the solvers found, in words.
    pub found: String,
    /// A line that shows it: the win found, or the one that refutes the answer.
    pub line: Vec<Point>,
    /// Why, in one sentence (empty for a plain pass).
    pub message: String,
    /// Positions searched, over all solver runs.
    pub nodes: u64,
    /// Wall time, verification included.
    pub elapsed: Duration,
    /// What `--update` may write (only for a passing puzzle that lacks an answer or a limit).
    pub fill: Fill,
}

/// One solver run's answer, reduced to what checking needs.
struct Run {
    outcome: Outcome,
    line: Vec<Point>,
    attacker_moves: usize,
}

/// The state of one puzzle's check: the solver, the bounds and the budget left.
struct Checker<'a> {
    solver: &'a mut Solver,
    board: &'a Board,
    meta: &'a Meta,
    strict: bool,
    /// VCT searches play fours only (threat limit 0): a VCF against a defender with tempo.
    fours_only: bool,
    /// Wins found for an answer to fill in are shortest (`--update` writes them): a VCF's
    /// search deepens one attacker move at a time, a VCT's is asked again within fewer
    /// attacker moves until it has no win there (see [`Checker::shortest`]).
    shortest: bool,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    /// What stopped the last search that ended without an answer.
    stopped: Option<StoppedBy>,
}

/// Why a check stopped early: the budget, or a solver bug (reported as an error).
enum Halt {
    Budget,
    Bug(String),
}

impl Checker<'_> {
    /// Which of the whole check's budgets is spent: the time, else the nodes.
    fn spent(&self) -> StoppedBy {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            StoppedBy::Time
        } else {
            StoppedBy::Nodes
        }
    }

    /// An unknown: what ran out before `what`, and what may decide it.
    fn unknown(&self, what: &str) -> Found {
        let message = match self.stopped.unwrap_or_else(|| self.spent()) {
            StoppedBy::Nodes => format!(
                "the node budget ({} positions) ran out before {what}; a larger --max-nodes \
                 (say {}) may decide it",
                self.max_nodes,
                self.max_nodes.saturating_mul(10)
            ),
            StoppedBy::Time => {
                format!("the time (--time) ran out before {what}; a longer --time may decide it")
            }
            StoppedBy::Inner => format!(
                "an inner VCF ran out of its own budget before {what}, and the search could not \
                 go on without it; a larger --max-nodes or --time does not change that"
            ),
        };
        Found::of(Status::Unknown, "unknown", Vec::new(), message)
    }

    fn task(&self, mode: Mode, attacker: Color, first: Option<Point>) -> Result<Task, Halt> {
        let left = self.max_nodes.saturating_sub(self.nodes);
        let time = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if left == 0 || time.is_some_and(|t| t.is_zero()) {
            return Err(Halt::Budget);
        }
        let mut t = Task::resolve(
            mode,
            attacker,
            task::Bounds {
                max_nodes: Some(left),
                ..task::Bounds::default()
            },
            task::Bounds {
                limit: self.meta.limit,
                threat_limit: self.meta.threat_limit,
                max_nodes: None,
            },
        );
        if self.fours_only {
            t.limits.threat_limit = 0;
        }
        t.shortest = mode == Mode::Vcf && self.shortest;
        t.time = time;
        t.first = first;
        Ok(t)
    }

    /// The shortest win the solver can prove from `found` (a win of the threat search): a
    /// VCT's first win need not be its shortest, so each bound from one attacker move up is
    /// tried until one has a win. A bound the budget cannot decide keeps what was found.
    fn shortest(
        &mut self,
        board: &Board,
        mode: Mode,
        attacker: Color,
        found: Run,
    ) -> Result<Run, Halt> {
        if mode == Mode::Vcf || found.outcome != Outcome::Win {
            return Ok(found);
        }
        for depth in 1..found.attacker_moves as u32 {
            let run = self.solve_within(board, mode, attacker, None, Some(depth))?;
            match run.outcome {
                Outcome::Win => return Ok(run),
                Outcome::NoWin => {}
                Outcome::Unknown => break,
            }
        }
        Ok(found)
    }

    /// Runs a solver task on `board`; a budget spent is `Outcome::Unknown`.
    fn solve(
        &mut self,
        board: &Board,
        mode: Mode,
        attacker: Color,
        first: Option<Point>,
    ) -> Result<Run, Halt> {
        self.solve_within(board, mode, attacker, first, None)
    }

    /// [`Checker::solve`] within `depth` attacker moves instead of the puzzle's bound.
    fn solve_within(
        &mut self,
        board: &Board,
        mode: Mode,
        attacker: Color,
        first: Option<Point>,
        depth: Option<u32>,
    ) -> Result<Run, Halt> {
        let mut task = match self.task(mode, attacker, first) {
            Ok(t) => t,
            Err(Halt::Budget) => {
                self.stopped = Some(self.spent());
                return Ok(Run {
                    outcome: Outcome::Unknown,
                    line: Vec::new(),
                    attacker_moves: 0,
                });
            }
            Err(e) => return Err(e),
        };
        if let Some(d) = depth {
            task.limits.depth = d;
        }
        let v: Verdict = self
            .solver
            .run(board, &task)
            .map_err(|bug| Halt::Bug(bug.to_string()))?;
        self.nodes += v.nodes;
        if let Some(why) = v.stopped_by() {
            self.stopped = Some(why);
        }
        Ok(Run {
            outcome: v.outcome,
            attacker_moves: v.attacker_moves,
            line: v.line,
        })
    }
}

/// Joins points with spaces.
pub fn moves(line: &[Point]) -> String {
    line.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The answer's points on this board, or the first that is off it.
fn on_board(board: &Board, raw: &[Spanned<RawPoint>]) -> Result<Vec<Point>, String> {
    raw.iter()
        .map(|r| setup::on_board(r, board.size()).map_err(|e| format!("answer: {e}")))
        .collect()
}

/// Replays `line` (attacker first, alternating): every move on an empty point, no black foul
/// under renju, and no move after a five.
fn replay(board: &Board, attacker: Color, line: &[Point]) -> Result<(), String> {
    let mut b = board.clone();
    b.set_to_move(attacker);
    for (k, &p) in line.iter().enumerate() {
        let side = b.to_move();
        if b.cell(p.index()) != Cell::Empty {
            return Err(format!("move {} ({p}): the point is not empty", k + 1));
        }
        if pattern::forbidden(&mut b, side, p.index()) {
            return Err(format!(
                "move {} ({p}): black plays a forbidden point",
                k + 1
            ));
        }
        if b.five_points(side).contains(p.index()) && k + 1 < line.len() {
            return Err(format!(
                "move {} ({p}): the line goes on after a five",
                k + 1
            ));
        }
        b.play(p);
    }
    Ok(())
}

/// A VCF line as puzzle sources write it may stop at the move that opens two fives (an open
/// four or a double four): the block and the five are added, so the line can be replayed to
/// its five. Also returns the attacker moves as sources count them (the five after a double
/// threat not counted).
fn complete_vcf(board: &Board, attacker: Color, line: &[Point]) -> (Vec<Point>, usize) {
    let mut full = line.to_vec();
    let mut moves = line.len().div_ceil(2);
    let mut b = board.clone();
    b.set_to_move(attacker);
    // For each attacker move: whether it made five, and the five points it left.
    let mut attacks: Vec<(bool, u32)> = Vec::new();
    for (k, &p) in line.iter().enumerate() {
        if b.cell(p.index()) != Cell::Empty {
            return (full, moves);
        }
        let five = k % 2 == 0 && b.five_points(attacker).contains(p.index());
        b.play(p);
        if k % 2 == 0 {
            attacks.push((five, b.five_points(attacker).count()));
        }
    }
    let d = attacker.opponent();
    match attacks[..] {
        [.., (_, before), (true, _)] if line.len() % 2 == 1 && before >= 2 => moves -= 1,
        [.., (false, fives)]
            if line.len() % 2 == 1 && fives >= 2 && b.five_points(d).is_empty() =>
        {
            let points: Vec<usize> = b.five_points(attacker).iter().collect();
            let block = points
                .iter()
                .copied()
                .find(|&q| !pattern::forbidden(&mut b, d, q))
                .unwrap_or(points[0]);
            let other = points
                .iter()
                .copied()
                .find(|&q| q != block)
                .unwrap_or(block);
            full.push(Point::from_index(block));
            full.push(Point::from_index(other));
        }
        _ => {}
    }
    (full, moves)
}

/// The legal moves of the side to move: every empty point, black's fouls left out under renju.
fn legal_moves(board: &Board) -> Vec<Point> {
    let mut b = board.clone();
    let side = b.to_move();
    let points: Vec<Point> = b.empty_points().collect();
    points
        .into_iter()
        .filter(|p| !pattern::forbidden(&mut b, side, p.index()))
        .collect()
}

/// Whether the puzzle is about VCF (for `no-win` and `best-move`): tagged `vcf`, or "VCF" in
/// the answer's comment or the `task:`.
fn about_vcf(meta: &Meta) -> bool {
    meta.tags.iter().any(|t| t == "vcf")
        || meta
            .answer
            .as_ref()
            .and_then(|a| a.comment.as_deref())
            .is_some_and(|c| c.contains("VCF"))
        || meta.task.as_deref().is_some_and(|t| t.contains("VCF"))
}

/// Checks `board` against what `meta` states.
pub fn check(board: &Board, meta: &Meta, solver: &mut Solver, opts: &CheckOptions) -> Report {
    let start = Instant::now();
    let mut c = Checker {
        solver,
        board,
        meta,
        strict: opts.strict,
        fours_only: false,
        shortest: meta.answer.is_none(),
        nodes: 0,
        max_nodes: opts.max_nodes.unwrap_or(DEFAULT_MAX_NODES),
        deadline: opts.time.map(|t| start + t),
        stopped: None,
    };
    let expected = match &meta.answer {
        Some(a) => a.to_string(),
        None => "(no answer)".to_string(),
    };
    let checked = match meta.kind {
        None => Ok(Found::of(
            Status::Error,
            "",
            Vec::new(),
            "the puzzle has no 'kind:' (vcf, vct, win, no-win or best-move)",
        )),
        Some(Kind::Vcf) => c.win(Mode::Vcf),
        Some(Kind::Vct | Kind::Win) => c.win(Mode::Vct),
        Some(Kind::NoWin) => c.no_win(),
        Some(Kind::BestMove) => c.best_move(),
    };
    let o = match checked {
        Ok(found) => found,
        Err(Halt::Budget) => c.unknown("the answer was decided"),
        Err(Halt::Bug(m)) => Found::of(
            Status::Error,
            "",
            Vec::new(),
            format!("internal error: {m}"),
        ),
    };
    Report {
        status: o.status,
        expected,
        found: o.found,
        line: o.line,
        message: o.message,
        nodes: c.nodes,
        elapsed: start.elapsed(),
        fill: if o.status == Status::Pass {
            o.fill
        } else {
            Fill::default()
        },
    }
}

/// A check's result before the counters are added.
struct Found {
    status: Status,
    found: String,
    line: Vec<Point>,
    message: String,
    fill: Fill,
}

impl Found {
    fn of(
        status: Status,
        found: impl Into<String>,
        line: Vec<Point>,
        message: impl Into<String>,
    ) -> Found {
        Found {
            status,
            found: found.into(),
            line,
            message: message.into(),
            fill: Fill::default(),
        }
    }
}

/// What replaying a stated line showed: a verdict already, or what the search found for it.
enum Replayed {
    Verdict(Found),
    Searched {
        outcome: Outcome,
        /// The attacker moves of the win.
        moves: usize,
        /// The win's set of attacker moves: another first move's win with the same set is a
        /// transposition, not a second solution.
        known: BTreeSet<Point>,
    },
}

impl Checker<'_> {
    fn attacker(&self) -> Color {
        self.board.to_move()
    }

    fn limit_text(&self) -> String {
        match self.meta.limit {
            Some(l) => format!("within {}", plural(l, "attacker move", "attacker moves")),
            None => "at any length".to_string(),
        }
    }

    /// `vcf`, `vct` and `win`, by the form of the answer.
    fn win(&mut self, mode: Mode) -> Result<Found, Halt> {
        let form = self.meta.answer.as_ref().map(|a| &a.form);
        match form {
            Some(AnswerForm::None) => Ok(Found::of(
                Status::Error,
                "",
                Vec::new(),
                format!(
                    "kind '{}' needs a winning answer; 'none' belongs to kind no-win",
                    self.meta.kind.map_or("?".into(), |k| k.to_string())
                ),
            )),
            Some(AnswerForm::Line(raw)) => self.stated_line_wins(mode, raw),
            Some(AnswerForm::AnyOf(raw)) => self.each_stated_move_wins(mode, raw),
            Some(AnswerForm::Win) => self.solver_finds_a_win(mode, false),
            None => self.solver_finds_a_win(mode, true),
        }
    }

    /// The `limit:` for `--update` to write: the attacker moves of the win, when the puzzle
    /// has no limit of its own.
    fn limit_to_fill(&self, moves: usize) -> Option<u32> {
        self.meta.limit.is_none().then_some(moves as u32)
    }

    /// A stated line: it must win (as a VCF replayed to its five, or as a first move the
    /// threat search proves), and in strict mode be the only solution.
    fn stated_line_wins(&mut self, mode: Mode, raw: &[Spanned<RawPoint>]) -> Result<Found, Halt> {
        let line = match on_board(self.board, raw) {
            Ok(l) if !l.is_empty() => l,
            Ok(_) => {
                return Ok(Found::of(
                    Status::Error,
                    "",
                    Vec::new(),
                    "the answer is empty",
                ));
            }
            Err(m) => return Ok(Found::of(Status::Error, "", Vec::new(), m)),
        };
        let replayed = if mode == Mode::Vcf {
            self.replay_stated_vcf(&line)?
        } else {
            self.replay_stated_threats(mode, &line)?
        };
        let (outcome, moves, known) = match replayed {
            Replayed::Verdict(found) => return Ok(found),
            Replayed::Searched {
                outcome,
                moves,
                known,
            } => (outcome, moves, known),
        };
        match outcome {
            Outcome::Unknown => Ok(self.unknown(&format!("{} was shown to win", line[0]))),
            Outcome::NoWin => {
                let found = self.solve(self.board, mode, self.attacker(), None)?;
                Ok(self.refuted(
                    format!("{} does not win {}", line[0], self.limit_text()),
                    found,
                ))
            }
            Outcome::Win => {
                if self.strict {
                    let second = self.second_solution(mode, &[line[0]], &[known])?;
                    if let Some(c) = second {
                        return Ok(c);
                    }
                }
                let mut o = Found::of(Status::Pass, format!("{} wins", line[0]), line, "");
                o.fill.limit = self.limit_to_fill(moves);
                Ok(o)
            }
        }
    }

    /// A stated VCF line, completed to its five and verified move by move; a line that is no
    /// VCF is refuted by the VCF the solver finds.
    fn replay_stated_vcf(&mut self, line: &[Point]) -> Result<Replayed, Halt> {
        let (board, a) = (self.board, self.attacker());
        let (full, moves) = complete_vcf(board, a, line);
        if let Err(e) = verify::vcf_line(board, a, &full) {
            let found = self.solve(board, Mode::Vcf, a, None)?;
            let message = format!("the stated line is not a VCF: {e}");
            return Ok(Replayed::Verdict(self.refuted(message, found)));
        }
        if let Some(limit) = self.meta.limit
            && moves as u32 > limit
        {
            let length = plural(moves, "attacker move", "attacker moves");
            return Ok(Replayed::Verdict(Found::of(
                Status::Fail,
                format!("a VCF of {length}"),
                full,
                format!("the stated line takes {length}, over the limit of {limit}"),
            )));
        }
        Ok(Replayed::Searched {
            outcome: Outcome::Win,
            moves,
            known: attacker_set(&full, moves),
        })
    }

    /// A stated line of threats: it must replay legally, and the search from its first move
    /// decides whether it wins.
    fn replay_stated_threats(&mut self, mode: Mode, line: &[Point]) -> Result<Replayed, Halt> {
        let (board, a) = (self.board, self.attacker());
        if let Err(e) = replay(board, a, line) {
            return Ok(Replayed::Verdict(Found::of(
                Status::Fail,
                "",
                Vec::new(),
                format!("the stated line does not replay: {e}"),
            )));
        }
        let run = self.solve(board, mode, a, Some(line[0]))?;
        Ok(Replayed::Searched {
            outcome: run.outcome,
            moves: run.attacker_moves,
            known: attacker_set(&run.line, run.attacker_moves),
        })
    }

    /// `any of <moves>`: each stated first move must win.
    fn each_stated_move_wins(
        &mut self,
        mode: Mode,
        raw: &[Spanned<RawPoint>],
    ) -> Result<Found, Halt> {
        let firsts = match on_board(self.board, raw) {
            Ok(l) => l,
            Err(m) => return Ok(Found::of(Status::Error, "", Vec::new(), m)),
        };
        let mut longest = 0;
        for &m in &firsts {
            let run = self.solve(self.board, mode, self.attacker(), Some(m))?;
            match run.outcome {
                Outcome::Win => longest = longest.max(run.attacker_moves),
                Outcome::Unknown => {
                    return Ok(self.unknown(&format!("{m} was shown to win")));
                }
                Outcome::NoWin => {
                    return Ok(Found::of(
                        Status::Fail,
                        format!("{m} does not win"),
                        Vec::new(),
                        format!("{m} does not win {}", self.limit_text()),
                    ));
                }
            }
        }
        let mut o = Found::of(
            Status::Pass,
            match &firsts[..] {
                [one] => format!("{one} wins"),
                _ => format!("each of {} wins", moves(&firsts)),
            },
            Vec::new(),
            "",
        );
        o.fill.limit = self.limit_to_fill(longest);
        Ok(o)
    }

    /// `win`, or no answer at all: the solver must find a win. For an unanswered puzzle the win
    /// found is the answer `--update` writes, so it is made the shortest.
    fn solver_finds_a_win(&mut self, mode: Mode, unanswered: bool) -> Result<Found, Halt> {
        let (board, a) = (self.board, self.attacker());
        let mut run = self.solve(board, mode, a, None)?;
        if self.shortest && unanswered {
            run = self.shortest(board, mode, a, run)?;
        }
        match run.outcome {
            Outcome::Unknown => Ok(self.unknown("a win was found")),
            Outcome::NoWin => Ok(Found::of(
                Status::Fail,
                "no win",
                Vec::new(),
                format!("the solver proves there is no win {}", self.limit_text()),
            )),
            Outcome::Win => {
                if self.strict {
                    let known = [attacker_set(&run.line, run.attacker_moves)];
                    let second = self.second_solution(mode, &[run.line[0]], &known)?;
                    if let Some(c) = second {
                        return Ok(c);
                    }
                }
                let mut o = Found::of(
                    Status::Pass,
                    format!("{} wins", run.line[0]),
                    run.line.clone(),
                    "",
                );
                if unanswered {
                    o.fill.answer = Some(moves(&run.line));
                }
                o.fill.limit = self.limit_to_fill(run.attacker_moves);
                Ok(o)
            }
        }
    }

    /// A failure whose refutation is what a fresh search found.
    fn refuted(&self, message: String, found: Run) -> Found {
        let words = match found.outcome {
            Outcome::Win => format!("{} wins", found.line[0]),
            Outcome::NoWin => format!("no win {}", self.limit_text()),
            Outcome::Unknown => "unknown".to_string(),
        };
        Found::of(Status::Fail, words, found.line, message)
    }

    /// Strict mode: a second solution, as composers count one: another first move than
    /// `known` whose win takes a set of attacker moves (up to the unstoppable threat) other
    /// than each of `sets`, the stated win's. The same stones in another order are a
    /// transposition, not a second solution.
    fn second_solution(
        &mut self,
        mode: Mode,
        known: &[Point],
        sets: &[BTreeSet<Point>],
    ) -> Result<Option<Found>, Halt> {
        let a = self.attacker();
        // The duals the puzzle states (`also:`) are no second solutions, but each must win.
        let also = match on_board(self.board, &self.meta.also) {
            Ok(l) => l,
            Err(m) => return Ok(Some(Found::of(Status::Error, "", Vec::new(), m))),
        };
        for &m in &also {
            let run = self.solve(self.board, mode, a, Some(m))?;
            match run.outcome {
                Outcome::Win => {}
                Outcome::Unknown => {
                    return Ok(Some(self.unknown(&format!("also: {m} was shown to win"))));
                }
                Outcome::NoWin => {
                    return Ok(Some(Found::of(
                        Status::Fail,
                        format!("{m} does not win"),
                        Vec::new(),
                        format!("also: {m} does not win {}", self.limit_text()),
                    )));
                }
            }
        }
        let known: Vec<Point> = known.iter().chain(&also).copied().collect();
        let task = self.task(mode, a, None)?;
        let candidates: Vec<Point> = match mode {
            Mode::Vcf => {
                let mut b = self.board.clone();
                b.set_to_move(a);
                let mut pts: Vec<usize> = b.five_points(a).iter().collect();
                pts.extend(b.four_points(a).iter());
                pts.sort_unstable();
                pts.dedup();
                pts.into_iter().map(Point::from_index).collect()
            }
            _ => self.solver.first_moves(self.board, a, task.limits),
        };
        for m in candidates.into_iter().filter(|m| !known.contains(m)) {
            let run = self.solve(self.board, mode, a, Some(m))?;
            match run.outcome {
                Outcome::Win if sets.contains(&attacker_set(&run.line, run.attacker_moves)) => {}
                Outcome::Win => {
                    return Ok(Some(Found::of(
                        Status::Fail,
                        format!("{m} also wins"),
                        run.line,
                        format!("second solution: {m} also wins {}", self.limit_text()),
                    )));
                }
                Outcome::Unknown => {
                    return Ok(Some(
                        self.unknown(&format!("{m} was shown not to win (strict)")),
                    ));
                }
                Outcome::NoWin => {}
            }
        }
        Ok(None)
    }

    /// `no-win`.
    fn no_win(&mut self) -> Result<Found, Halt> {
        let a = self.attacker();
        let vcf = about_vcf(self.meta);
        let (mode, what) = if vcf {
            (Mode::Vcf, "VCF")
        } else {
            (Mode::Vct, "VCT")
        };
        match self.meta.answer.as_ref().map(|a| &a.form) {
            Some(AnswerForm::None) | None => {}
            Some(_) => {
                return Ok(Found::of(
                    Status::Error,
                    "",
                    Vec::new(),
                    "kind 'no-win' takes the answer 'none'",
                ));
            }
        }
        let run = self.solve(self.board, mode, a, None)?;
        match run.outcome {
            Outcome::Unknown => Ok(self.unknown(&format!("the absence of a {what} was proven"))),
            Outcome::Win => Ok(Found::of(
                Status::Fail,
                format!("{} wins", run.line[0]),
                run.line,
                format!("{a} has a {what} {}", self.limit_text()),
            )),
            Outcome::NoWin => {
                let mut o = Found::of(Status::Pass, format!("no {what}"), Vec::new(), "");
                if self.meta.answer.is_none() {
                    o.fill.answer = Some(format!("none (no {what} for {a} {})", self.limit_text()));
                }
                Ok(o)
            }
        }
    }

    /// Whether the side to move holds with `m`: after it, the opponent has no win. Returns the
    /// opponent's outcome and its winning line.
    fn holds(&mut self, m: Point, mode: Mode) -> Result<Run, Halt> {
        let mut b = self.board.clone();
        let side = b.to_move();
        if b.five_points(side).contains(m.index()) {
            return Ok(Run {
                outcome: Outcome::NoWin,
                line: Vec::new(),
                attacker_moves: 0,
            });
        }
        b.play(m);
        self.solve(&b, mode, side.opponent(), None)
    }

    /// The defences a `best-move` answer states (none for `none` or no answer), or the error
    /// of an answer that cannot be one. A line states its first move; the rest is the
    /// defender's plan, not checked here.
    fn stated_defences(&self) -> Result<Vec<Point>, Found> {
        match self.meta.answer.as_ref().map(|a| &a.form) {
            Some(AnswerForm::Line(raw)) => {
                let line = on_board(self.board, raw)
                    .map_err(|m| Found::of(Status::Error, "", Vec::new(), m))?;
                Ok(line.into_iter().take(1).collect())
            }
            Some(AnswerForm::AnyOf(raw)) => {
                on_board(self.board, raw).map_err(|m| Found::of(Status::Error, "", Vec::new(), m))
            }
            Some(AnswerForm::None) | None => Ok(Vec::new()),
            Some(AnswerForm::Win) => Err(Found::of(
                Status::Error,
                "",
                Vec::new(),
                "kind 'best-move' takes 'any of <moves>', a move or 'none'",
            )),
        }
    }

    /// `best-move`.
    fn best_move(&mut self) -> Result<Found, Halt> {
        // Against a VCF, the defender's counter-fours gain it tempo: after the opponent blocks,
        // the defender moves again. So a move holds when the VCT solver, playing the opponent
        // with fours only, finds no win.
        let vcf = about_vcf(self.meta);
        self.fours_only = vcf;
        let mode = Mode::Vct;
        let what = if vcf { "VCF" } else { "win" };
        let form = self.meta.answer.as_ref().map(|a| &a.form);
        let stated = match self.stated_defences() {
            Ok(stated) => stated,
            Err(error) => return Ok(error),
        };
        let legal = legal_moves(self.board);
        let other_must_lose = matches!(form, Some(AnswerForm::AnyOf(_) | AnswerForm::None))
            || (self.strict && matches!(form, Some(AnswerForm::Line(_))));
        for &m in &stated {
            if !legal.contains(&m) {
                return Ok(Found::of(
                    Status::Fail,
                    format!("{m} cannot be played"),
                    Vec::new(),
                    format!("{m} is not a legal move"),
                ));
            }
            let run = self.holds(m, mode)?;
            match run.outcome {
                Outcome::NoWin => {}
                Outcome::Unknown => return Ok(self.unknown(&format!("{m} was shown to hold"))),
                Outcome::Win => {
                    let mut line = vec![m];
                    line.extend(run.line);
                    return Ok(Found::of(
                        Status::Fail,
                        format!("{m} loses"),
                        line,
                        format!("{m} does not hold: the opponent still has a {what}"),
                    ));
                }
            }
        }
        if !other_must_lose && form.is_some() {
            return Ok(Found::of(
                Status::Pass,
                format!("{} holds", moves(&stated)),
                Vec::new(),
                "",
            ));
        }
        // Every other legal move must lose (or, without an answer, collect those that hold).
        let mut holding = stated.clone();
        let mut unknown_at = None;
        for &m in legal.iter().filter(|m| !stated.contains(m)) {
            let run = self.holds(m, mode)?;
            match run.outcome {
                Outcome::Win => {}
                Outcome::Unknown => {
                    unknown_at.get_or_insert(m);
                }
                Outcome::NoWin => {
                    if form.is_some() {
                        return Ok(Found::of(
                            Status::Fail,
                            format!("{m} also holds"),
                            vec![m],
                            if matches!(form, Some(AnswerForm::Line(_))) {
                                format!("second solution: {m} also holds")
                            } else {
                                format!(
                                    "{m} is not listed, yet the opponent has no {what} after it"
                                )
                            },
                        ));
                    }
                    holding.push(m);
                }
            }
        }
        if let Some(m) = unknown_at {
            return Ok(self.unknown(&format!("{m} was shown to lose")));
        }
        holding.sort_by_key(|p| (p.y(), p.x()));
        if form.is_none() {
            let (found, answer) = match &holding[..] {
                [] => (
                    "every move loses".to_string(),
                    "none (every move loses)".to_string(),
                ),
                _ => {
                    let any = format!("any of {}", moves(&holding));
                    (any.clone(), any)
                }
            };
            let mut o = Found::of(Status::Pass, found, Vec::new(), "");
            o.fill.answer = Some(answer);
            return Ok(o);
        }
        Ok(Found::of(
            Status::Pass,
            if stated.is_empty() {
                "every move loses".to_string()
            } else {
                match &stated[..] {
                    [one] => format!("only {one} holds"),
                    _ => format!("exactly {} hold", moves(&stated)),
                }
            },
            Vec::new(),
            "",
        ))
    }
}

/// The attacker's first `moves` moves of a winning line (attacker first), as a set.
fn attacker_set(line: &[Point], moves: usize) -> BTreeSet<Point> {
    line.iter().step_by(2).take(moves).copied().collect()
}
