//! The library's way to ask for a proven win: a [`Task`] (what to search for, within which
//! limits), run by a reusable [`Solver`] into a [`Verdict`] (the outcome, the line, the proof,
//! nodes and times). Every win in a verdict has been checked: a VCF line replayed on a plain
//! grid, a VCT proof tried against every legal defence (unless the task says not to). A check
//! that fails is a solver bug, returned as a [`SolverBug`] with the position, never printed as
//! a win.
//!
//! Defaults are resolved here and only here ([`Task::resolve`]): a value the user gave wins
//! over the puzzle's, and the puzzle's over the default.
//!
//! ```
//! use tengen::solve::Outcome;
//! use tengen::solve::task::{Mode, Solver, Task};
//!
//! let request = tengen::files::input::Request {
//!     source: "h8 a1 h9 a2 h10 a3".into(),
//!     ..Default::default()
//! };
//! let board = request.load()?.board;
//! let mut solver = Solver::new(64)?; // 64 MB of tables, reused by every run
//! let verdict = solver.run(&board, &Task::new(Mode::Vcf, board.to_move()))?;
//! assert_eq!(verdict.outcome, Outcome::Win);
//! assert_eq!(verdict.attacker_moves, 1); // h11 or h7 opens two fives
//! assert!(verdict.verified());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::progress::{self, Phase};
use super::proof::Attack;
use super::tt::MemoryError;
use super::{
    DEFAULT_MAX_NODES, DEFAULT_THREAT_LIMIT, Ending, Limits, NO_LIMIT, Outcome, Solution, vct,
    verify,
};
use crate::board::{Board, Cell, Color, Point};
use crate::pattern;

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Victory by continuous fours: the attacker plays only fours.
    Vcf,
    /// Victory by continuous threats: fours, threes and other moves that threaten a VCF.
    Vct,
    /// A win in N: the full threat search, with the five counted as a move.
    WinIn,
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mode::Vcf => "vcf",
            Mode::Vct => "vct",
            Mode::WinIn => "win-in",
        })
    }
}

/// Bounds given for a task, each optional: by the user, or by a puzzle file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// Most attacker moves (for win-in, the N).
    pub limit: Option<u32>,
    /// VCT: the threat limit.
    pub threat_limit: Option<u32>,
    /// Most positions to search.
    pub max_nodes: Option<u64>,
}

/// A search to run: the mode, the attacker, the limits and what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// VCF, VCT or win in N.
    pub mode: Mode,
    /// The side that attacks (it moves first, whatever the board says).
    pub attacker: Color,
    /// Depth, node budget, threat limit; `count_five` follows the mode.
    pub limits: Limits,
    /// VCF: deepen one attacker move at a time, so the line found is of minimum length.
    pub shortest: bool,
    /// VCT and win-in: check the proof against every legal defence (VCF lines are always
    /// replayed: that costs next to nothing).
    pub verify: bool,
    /// Most time for the search: when it runs out the answer is unknown, as when the node
    /// budget does. The check of a win found in time is not cut short (it has the node
    /// budget).
    pub time: Option<Duration>,
    /// The attacker's first move, when fixed: the task asks whether this move wins (the
    /// move counts toward the limit). `check` tests a puzzle's stated first move this way.
    pub first: Option<Point>,
}

impl Task {
    /// A task with every limit at its default: no bound on attacker moves, 75M nodes, threat
    /// limit 2, verified.
    pub fn new(mode: Mode, attacker: Color) -> Task {
        Task::resolve(mode, attacker, Bounds::default(), Bounds::default())
    }

    /// A task whose limits come from what the user gave, else from the puzzle, else the
    /// defaults.
    pub fn resolve(mode: Mode, attacker: Color, user: Bounds, puzzle: Bounds) -> Task {
        Task {
            mode,
            attacker,
            limits: Limits {
                depth: user.limit.or(puzzle.limit).unwrap_or(NO_LIMIT),
                count_five: mode == Mode::WinIn,
                nodes: user
                    .max_nodes
                    .or(puzzle.max_nodes)
                    .unwrap_or(DEFAULT_MAX_NODES),
                threat_limit: user
                    .threat_limit
                    .or(puzzle.threat_limit)
                    .unwrap_or(DEFAULT_THREAT_LIMIT),
                ..Limits::default()
            },
            shortest: false,
            verify: true,
            time: None,
            first: None,
        }
    }

    /// Whether the task bounds the attacker's moves.
    pub fn has_limit(&self) -> bool {
        self.limits.depth < NO_LIMIT
    }
}

/// What a task found.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The task this answers.
    pub task: Task,
    /// Win, no win within the limits, or unknown (the budget ran out).
    pub outcome: Outcome,
    /// The winning line (the main line of a proof), attacker first; empty unless a win.
    pub line: Vec<Point>,
    /// Attacker moves up to the one that makes the win unstoppable (the longest branch of a
    /// proof), as puzzle sources count them; 0 unless a win.
    pub attacker_moves: usize,
    /// Attacker moves up to the five, the five included, on the longest branch of a proof:
    /// the count every "wins in N moves" gives; 0 unless a win.
    pub moves_to_five: usize,
    /// How the line ends.
    pub ending: Option<Ending>,
    /// VCT and win-in: the proof of a win.
    pub proof: Option<Attack>,
    /// Positions searched.
    pub nodes: u64,
    /// The search's own time.
    pub elapsed: Duration,
    /// The check's time, when the win was checked.
    pub verify_time: Option<Duration>,
}

impl Verdict {
    /// Whether the win was checked independently.
    pub fn verified(&self) -> bool {
        self.verify_time.is_some()
    }

    /// Distinct nodes in the proof.
    pub fn proof_nodes(&self) -> Option<usize> {
        self.proof.as_ref().map(Attack::size)
    }

    /// Which limit stopped a search that ended without an answer; None when it answered.
    pub fn stopped_by(&self) -> Option<StoppedBy> {
        (self.outcome == Outcome::Unknown).then(|| {
            if self.nodes >= self.task.limits.nodes {
                StoppedBy::Nodes
            } else if self.task.time.is_some_and(|t| self.elapsed >= t) {
                StoppedBy::Time
            } else {
                StoppedBy::Inner
            }
        })
    }
}

/// What stopped a search that ended `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoppedBy {
    /// Its node budget (`--max-nodes`, a puzzle's or the default).
    Nodes,
    /// Its time limit (`--time`).
    Time,
    /// Neither: an inner search (a VCF asked inside the VCT) ran out of its own fixed budget,
    /// so a "no win" could not be claimed.
    Inner,
}

/// A solver's claim that failed its independent check: a bug, reported with the position.
#[derive(Clone, Debug, thiserror::Error)]
#[error("the solver's {what} failed verification: {detail}")]
pub struct SolverBug {
    /// What failed (the line, the proof).
    pub what: String,
    /// Why.
    pub detail: String,
    /// Where: the position the problem is in.
    pub position: Box<Board>,
}

/// Runs tasks, reusing one set of tables: the VCT solver's (which holds the VCF solver that
/// VCF tasks use), sized once from a memory budget. The verifier's searches run on the same
/// tables, so `hash_mb` bounds all the memory a task's search and check take. See
/// [`vct::VctSolver`] for how the budget is split.
pub struct Solver {
    vct: vct::VctSolver,
}

impl Solver {
    /// A solver whose tables take at most `hash_mb` megabytes together.
    pub fn new(hash_mb: usize) -> Result<Solver, MemoryError> {
        Ok(Solver {
            vct: vct::VctSolver::new(hash_mb.saturating_mul(1 << 20))?,
        })
    }

    /// The VCT solver and its tables, for a verification run outside a task (see
    /// [`verify::proof_with`]).
    pub fn vct(&mut self) -> &mut vct::VctSolver {
        &mut self.vct
    }

    /// Runs `task` on `board` and checks a win (see the module notes).
    pub fn run(&mut self, board: &Board, task: &Task) -> Result<Verdict, SolverBug> {
        let start = Instant::now();
        let mut limits = task.limits;
        limits.deadline = task.time.map(|t| start + t);
        let mut verdict = match task.mode {
            Mode::Vcf => {
                let s = match task.first {
                    Some(first) => self.vcf_after(board, task.attacker, limits, first, task),
                    None => {
                        let vcf = self.vct.vcf_solver();
                        vcf.reset();
                        vcf.solve(board, task.attacker, limits, task.shortest)
                    }
                };
                Verdict {
                    task: *task,
                    outcome: s.outcome,
                    attacker_moves: s.attacker_moves(),
                    moves_to_five: s.moves_to_five(),
                    line: s.line,
                    ending: s.ending,
                    proof: None,
                    nodes: s.nodes,
                    elapsed: Duration::ZERO,
                    verify_time: None,
                }
            }
            Mode::Vct | Mode::WinIn => {
                let s = match task.first {
                    Some(first) => self.vct.solve_after(board, task.attacker, limits, first),
                    None => self.vct.solve(board, task.attacker, limits),
                };
                let proof = s.proof.filter(|_| s.outcome == Outcome::Win);
                Verdict {
                    task: *task,
                    outcome: s.outcome,
                    line: proof.as_ref().map(Attack::main_line).unwrap_or_default(),
                    attacker_moves: proof.as_ref().map_or(0, Attack::attacker_moves),
                    moves_to_five: proof.as_ref().map_or(0, Attack::moves_to_five),
                    ending: proof.as_ref().map(Attack::main_ending),
                    proof,
                    nodes: s.nodes,
                    elapsed: Duration::ZERO,
                    verify_time: None,
                }
            }
        };
        verdict.elapsed = start.elapsed();
        if verdict.outcome == Outcome::Win {
            progress::set_phase(Phase::Verify);
            let checked = self.check(board, &mut verdict);
            progress::set_phase(Phase::Search);
            checked?;
        }
        Ok(verdict)
    }

    /// The attacker's first moves that could start a VCT or win in N (see
    /// [`vct::VctSolver::first_moves`]).
    pub fn first_moves(&mut self, board: &Board, attacker: Color, limits: Limits) -> Vec<Point> {
        self.vct.first_moves(board, attacker, limits)
    }

    /// A VCF whose first move is `first`: a five; or a four, the defender's forced block (a
    /// win when black may not take it), then a VCF one move shorter. The whole line is checked
    /// afterwards like any VCF line.
    fn vcf_after(
        &mut self,
        board: &Board,
        attacker: Color,
        limits: Limits,
        first: Point,
        task: &Task,
    ) -> Solution {
        let d = attacker.opponent();
        let i = first.index();
        let no_win = Solution {
            outcome: Outcome::NoWin,
            line: Vec::new(),
            ending: None,
            nodes: 1,
        };
        let mut b = board.clone();
        b.set_to_move(attacker);
        if limits.depth == 0 || b.cell(i) != Cell::Empty || pattern::forbidden(&mut b, attacker, i)
        {
            return no_win;
        }
        if b.five_points(attacker).contains(i) {
            return Solution {
                outcome: Outcome::Win,
                line: vec![first],
                ending: Some(Ending::Five),
                nodes: 1,
            };
        }
        let threats = *b.five_points(d);
        if !threats.is_empty() && (threats.count() > 1 || !threats.contains(i)) {
            return no_win;
        }
        b.play(first);
        let fives: Vec<usize> = b.five_points(attacker).iter().collect();
        let legal: Vec<usize> = fives
            .iter()
            .copied()
            .filter(|&q| !pattern::forbidden(&mut b, d, q))
            .collect();
        let win = |line: Vec<Point>, ending| Solution {
            outcome: Outcome::Win,
            line,
            ending: Some(ending),
            nodes: 1,
        };
        match (&fives[..], &legal[..]) {
            ([], _) => no_win,
            (_, []) => win(vec![first], Ending::ForcedFoul),
            ([_, _, ..], [q, ..]) => {
                let other = fives.iter().copied().find(|x| x != q).unwrap_or(*q);
                win(
                    vec![first, Point::from_index(*q), Point::from_index(other)],
                    Ending::DoubleThreat,
                )
            }
            ([_], [q]) => {
                let q = Point::from_index(*q);
                b.play(q);
                let vcf = self.vct.vcf_solver();
                vcf.reset();
                let rest = Limits {
                    depth: limits.depth - 1,
                    ..limits
                };
                let mut s = vcf.solve(&b, attacker, rest, task.shortest);
                if s.outcome == Outcome::Win {
                    s.line.splice(0..0, [first, q]);
                }
                s.nodes += 1;
                s
            }
            _ => no_win,
        }
    }

    fn check(&mut self, board: &Board, verdict: &mut Verdict) -> Result<(), SolverBug> {
        let task = verdict.task;
        let start = Instant::now();
        match (&verdict.proof, task.mode) {
            (None, Mode::Vcf) => {
                verify::vcf_line(board, task.attacker, &verdict.line).map_err(|e| {
                    let line: Vec<String> = verdict.line.iter().map(|p| p.to_string()).collect();
                    SolverBug {
                        what: format!("line {}", line.join(" ")),
                        detail: e.to_string(),
                        position: Box::new(board.clone()),
                    }
                })?;
            }
            (Some(tree), _) if task.verify => {
                let limits = Limits {
                    deadline: None,
                    ..task.limits
                };
                verify::proof_with(&mut self.vct, board, task.attacker, tree, limits).map_err(
                    |e| SolverBug {
                        what: "proof".into(),
                        detail: e.to_string(),
                        position: e.position,
                    },
                )?;
            }
            _ => return Ok(()),
        }
        verdict.verify_time = Some(start.elapsed());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parallel runner moves solvers and verdicts between threads: this does not compile
    /// if either stops being `Send`.
    #[test]
    fn solvers_and_verdicts_cross_threads() {
        fn send<T: Send + 'static>() {}
        send::<Solver>();
        send::<Verdict>();
        send::<vct::VctSolution>();
        let mut solver = Solver::new(1).unwrap();
        let board = Board::new(15, crate::board::Rule::Freestyle).unwrap();
        let verdict =
            std::thread::spawn(move || solver.run(&board, &Task::new(Mode::Vct, Color::Black)))
                .join()
                .unwrap()
                .unwrap();
        assert_eq!(verdict.outcome, Outcome::NoWin);
    }
}
