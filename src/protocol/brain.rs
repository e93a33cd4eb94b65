//! The brain's state machine: one protocol line in, its answer out.
//!
//! The position is a list of stones in the order they came, turned into a [`Board`] when the
//! brain thinks. Coordinates change from the protocol's (`x,y` from the top) to points (rows
//! from the bottom) here and nowhere else. The analyzer's tables live as long as the brain, so
//! each move starts from what the last one stored.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::clock::{self, Budget, Clock, Trend};
use super::command::{BadLine, BoardKind, Coord, Line, wide_number};
use crate::analyze::{self, Analysis, Bound, Candidate, Event, Settings, Tables, eval};
use crate::board::{Board, Color, MAX_SIZE, MIN_SIZE, Point, Rule};
use crate::pattern;
use crate::solve::Cancel;
use crate::solve::task::{Mode, Task};
use crate::solve::tt::MemoryError;
use crate::solve::{Outcome, verify};

/// What the brain does after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `END` (or the end of input): stop.
    Exit,
}

/// How the brain is started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Print `DEBUG` lines (the budget of each move, why it stopped).
    pub debug: bool,
    /// Settings that override what the protocol sets, for tests and fuzzing (`None`: the
    /// protocol's own).
    pub fixed: Option<Settings>,
}

/// Memory kept back from `max_memory` for what is not in the tables: the program, thread
/// stacks, the solvers' move lists and proofs. Measured on this project's machine (a game of
/// 26-36 plies against itself, renju, 1 s a move): told 64 MB (11 MB of tables) a brain peaked
/// at 11-13 MB resident with one thread or two, so the rest takes 1-2 MB; told 350 MB (211 MB of
/// tables) at 3 s a move, it peaked at 171-174 MB. The margin is wide on purpose.
pub const RESERVED_MB: usize = 48;
/// The tables' share of `max_memory` beyond [`RESERVED_MB`]: the solvers' caches grow with
/// the work they do, beside their tables.
const TABLE_SHARE: f64 = 0.7;
/// `max_memory` when the manager sets none (Gomocup's usual 350 MB).
const DEFAULT_MEMORY: u64 = 350 << 20;
/// `time_left` that means "no game clock".
const UNLIMITED: u64 = 2_147_483_647;

/// What the manager told the brain with `INFO`.
#[derive(Clone, Debug)]
struct Info {
    clock: Clock,
    /// Bytes for the whole process (0: no limit, the default is then used).
    max_memory: u64,
    /// Yixin-Board's `hash_size`, in KiB: the tables' size when set.
    hash_kib: Option<u64>,
    threads: usize,
    max_depth: Option<u32>,
    max_node: Option<u64>,
}

impl Default for Info {
    fn default() -> Info {
        Info {
            clock: Clock::default(),
            max_memory: DEFAULT_MEMORY,
            hash_kib: None,
            threads: 1,
            max_depth: None,
            max_node: None,
        }
    }
}

/// A game in progress: the board's size and the stones in the order they came.
#[derive(Clone, Debug)]
struct Game {
    size: u8,
    stones: Vec<(Point, Color)>,
    /// The brain's colour, once known.
    own: Option<Color>,
}

impl Game {
    fn new(size: u8) -> Game {
        Game {
            size,
            stones: Vec::new(),
            own: None,
        }
    }

    /// A game of `points` played in turn, black first.
    fn alternating(size: u8, points: impl IntoIterator<Item = Point>) -> Game {
        let mut g = Game::new(size);
        let mut c = Color::Black;
        for p in points {
            g.stones.push((p, c));
            c = c.opponent();
        }
        g
    }

    /// The colour that moves next by the stone counts (black when they are equal).
    fn next_by_count(&self) -> Color {
        let black = self.stones.iter().filter(|s| s.1 == Color::Black).count();
        if black > self.stones.len() - black {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The board with `to_move` to move.
    fn board(&self, rule: Rule, to_move: Color) -> Board {
        let mut board = Board::new(self.size, rule).expect("the size was checked at START");
        for &(p, c) in &self.stones {
            board.put(p, c);
        }
        board.set_to_move(to_move);
        board
    }

    fn point(&self, c: Coord) -> Result<Point, String> {
        let n = u32::from(self.size);
        if c.x >= n || c.y >= n {
            return Err(format!(
                "{c} is off the {n}x{n} board (x and y run from 0 to {})",
                n - 1
            ));
        }
        Ok(Point::new(c.x as u8, (n - 1 - c.y) as u8).expect("on the board"))
    }

    fn coord(&self, p: Point) -> Coord {
        coord_on(self.size, p)
    }

    fn taken(&self, p: Point) -> bool {
        self.stones.iter().any(|s| s.0 == p)
    }
}

/// An open `BOARD` block.
struct Block {
    kind: BoardKind,
    stones: Vec<(Coord, u32)>,
    /// The first bad line in it, reported at `DONE`.
    error: Option<String>,
}

/// The brain.
pub struct Brain<W: Write> {
    out: W,
    options: Options,
    game: Option<Game>,
    rule: Rule,
    info: Info,
    block: Option<Block>,
    tables: Option<Tables>,
    /// Raised to stop a search: by a `STOP` the reader has seen, or by the soft time limit.
    cancel: Cancel,
    /// `STOP`s (and `END`, end of input) read but not yet handled: while one is pending, a
    /// search stops at once.
    stops: Arc<AtomicUsize>,
    /// Yixin-Board's live board marks (`MESSAGE REALTIME`), after `YXSHOWINFO`.
    realtime: bool,
    /// When the line being handled was read: a move's clock starts there, so time it waited
    /// (behind the tables' first touch, say) counts against the move.
    received: Instant,
}

impl<W: Write> Brain<W> {
    /// A brain that writes its answers to `out`. `stops` counts the stop requests the
    /// reader has seen and this brain has not handled yet; `cancel` is raised with them.
    pub fn new(out: W, options: Options, cancel: Cancel, stops: Arc<AtomicUsize>) -> Brain<W> {
        Brain {
            out,
            options,
            game: None,
            rule: Rule::Freestyle,
            info: Info::default(),
            block: None,
            tables: None,
            cancel,
            stops,
            realtime: false,
            received: Instant::now(),
        }
    }

    /// Tells the brain when the next line it handles was read (else: when it is handled).
    pub fn received(&mut self, at: Instant) {
        self.received = at;
    }

    /// Work for a quiet moment (no line waiting): once a game has started, the tables for its
    /// next move are made and every page of them touched, so that the kernel's page faults
    /// fall here and not in a move's time. A failure says nothing here; the move reports it.
    pub fn idle(&mut self) {
        let Some(game) = self.game.as_ref() else {
            return;
        };
        let budget = self.info.clock.budget(game.stones.len());
        let settings = self.settings(1, budget);
        if let (Ok(true), Some(t)) = (self.fit_tables(&settings), self.tables.as_ref()) {
            t.prefault();
        }
    }

    /// The output, for tests.
    pub fn output(&self) -> &W {
        &self.out
    }

    /// Handles one line (or the reason it could not be read).
    pub fn handle(&mut self, line: Result<Line, BadLine>) -> io::Result<Flow> {
        let line = match line {
            Ok(line) => line,
            Err(bad) => {
                if let Some(block) = self.block.as_mut() {
                    block.error.get_or_insert(bad.0);
                    return Ok(Flow::Continue);
                }
                self.say(&format!("ERROR {bad}"))?;
                return Ok(Flow::Continue);
            }
        };
        // Inside a board block only stones and DONE belong; anything else ends it unfinished.
        if self.block.is_some() {
            match line {
                Line::Stone(c, who) => {
                    if let Some(b) = self.block.as_mut() {
                        b.stones.push((c, who));
                    }
                    return Ok(Flow::Continue);
                }
                Line::Done => {
                    let block = self.block.take().expect("open");
                    self.board_done(block)?;
                    return Ok(Flow::Continue);
                }
                Line::Blank => return Ok(Flow::Continue),
                Line::Stop => return Ok(Flow::Continue),
                _ => {
                    self.block = None;
                    self.say("ERROR the BOARD block ended without DONE; it was ignored")?;
                }
            }
        }
        match line {
            Line::Blank | Line::Stop => {}
            Line::End => return Ok(Flow::Exit),
            Line::About => self.say(&format!(
                "name=\"tengen\", version=\"{}\", author=\"the tengen developers\", \
                 country=\"unknown\"",
                env!("CARGO_PKG_VERSION")
            ))?,
            Line::Start(n) => self.start(n)?,
            Line::RectStart(w, h) => {
                if w == h {
                    self.start(w)?;
                } else {
                    self.say(&format!(
                        "ERROR rectangular boards ({w}x{h}) are not supported: tengen plays \
                         square boards of {MIN_SIZE} to {MAX_SIZE}"
                    ))?;
                }
            }
            Line::Restart => match self.game.as_mut() {
                Some(g) => {
                    *g = Game::new(g.size);
                    self.say("OK")?;
                }
                None => self.say("ERROR no game to restart: START first")?,
            },
            Line::Info(key, value) => {
                self.info(&key, &value)?;
            }
            Line::Board(kind) => {
                if self.game.is_none() {
                    // Read the block anyway, so its lines do not each bring an error.
                    self.block = Some(Block {
                        kind,
                        stones: Vec::new(),
                        error: Some("no game: START first".into()),
                    });
                } else {
                    self.block = Some(Block {
                        kind,
                        stones: Vec::new(),
                        error: None,
                    });
                }
            }
            Line::Stone(c, _) => {
                self.say(&format!("ERROR {c} outside a BOARD block"))?;
            }
            Line::Done => self.say("ERROR DONE without a BOARD block")?,
            Line::Begin => {
                let Some(game) = self.game.as_mut() else {
                    return self.no_game("BEGIN");
                };
                if !game.stones.is_empty() {
                    return self.error("BEGIN on a board with stones: use BOARD");
                }
                game.own = Some(Color::Black);
                self.play_best(1)?;
            }
            Line::Turn(c) => {
                let Some(game) = self.game.as_mut() else {
                    return self.no_game("TURN");
                };
                let p = match game.point(c) {
                    Ok(p) if game.taken(p) => {
                        return self.error(&format!("{c} is already taken"));
                    }
                    Ok(p) => p,
                    Err(e) => return self.error(&e),
                };
                let color = game
                    .own
                    .map_or_else(|| game.next_by_count(), Color::opponent);
                game.stones.push((p, color));
                game.own = Some(color.opponent());
                self.play_best(1)?;
            }
            Line::Play(c) => {
                let Some(game) = self.game.as_mut() else {
                    return self.no_game("PLAY");
                };
                match game.point(c) {
                    Ok(p) if game.taken(p) => {
                        return self.error(&format!("{c} is already taken"));
                    }
                    Ok(p) => {
                        let color = game.own.unwrap_or_else(|| game.next_by_count());
                        game.stones.push((p, color));
                        game.own = Some(color);
                        self.say(&c.to_string())?;
                    }
                    Err(e) => return self.error(&e),
                }
            }
            Line::Takeback(c) => {
                let Some(game) = self.game.as_mut() else {
                    return self.no_game("TAKEBACK");
                };
                let p = match game.point(c) {
                    Ok(p) => p,
                    Err(e) => return self.error(&e),
                };
                match game.stones.iter().rposition(|s| s.0 == p) {
                    Some(i) => {
                        game.stones.remove(i);
                        self.say("OK")?;
                    }
                    None => return self.error(&format!("no stone at {c} to take back")),
                }
            }
            Line::NBest(n) => {
                if self.game.is_none() {
                    return self.no_game("YXNBEST");
                }
                self.play_best(n.clamp(1, 64) as usize)?;
            }
            Line::ShowForbid => {
                let Some(game) = self.game.as_ref() else {
                    return self.no_game("YXSHOWFORBID");
                };
                let board = game.board(self.rule, Color::Black);
                let mut text = String::from("FORBID ");
                for (p, _) in pattern::fouls(&board) {
                    let c = game.coord(p);
                    text.push_str(&format!("{:02}{:02}", c.x, c.y));
                }
                text.push('.');
                self.say(&text)?;
            }
            Line::HashClear => {
                if let Some(t) = self.tables.as_mut()
                    && t.clear().is_err()
                {
                    self.tables = None;
                }
                self.say("MESSAGE the search's tables are cleared")?;
            }
            Line::ShowInfo => {
                self.realtime = true;
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.say(&format!("MESSAGE tengen {}", env!("CARGO_PKG_VERSION")))?;
                self.say(&format!("MESSAGE INFO MAX_THREAD_NUM {}", cores.max(1)))?;
            }
            Line::SearchDefend => {
                if self.game.is_none() {
                    return self.no_game("YXSEARCHDEFEND");
                }
                self.search_defend()?;
            }
            Line::Unknown(word) => self.say(&format!("UNKNOWN command {word}"))?,
        }
        Ok(Flow::Continue)
    }

    fn no_game(&mut self, what: &str) -> io::Result<Flow> {
        self.error(&format!("{what} before START: no game has begun"))
    }

    fn error(&mut self, text: &str) -> io::Result<Flow> {
        self.say(&format!("ERROR {text}"))?;
        Ok(Flow::Continue)
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn debug(&mut self, line: &str) -> io::Result<()> {
        if self.options.debug {
            self.say(&format!("DEBUG {line}"))?;
        }
        Ok(())
    }

    fn start(&mut self, n: u32) -> io::Result<()> {
        if !(u32::from(MIN_SIZE)..=u32::from(MAX_SIZE)).contains(&n) {
            return self.say(&format!(
                "ERROR board size {n} is not supported: tengen plays {MIN_SIZE} to {MAX_SIZE}"
            ));
        }
        self.game = Some(Game::new(n as u8));
        self.block = None;
        self.say("OK")
    }

    fn info(&mut self, key: &str, value: &str) -> io::Result<Flow> {
        let number = match key {
            // tengen writes no files: the folder is accepted and not used.
            "folder" => return Ok(Flow::Continue),
            "timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "game_type"
            | "rule" | "thread_num" | "max_depth" | "max_node" | "hash_size" => {
                match wide_number(value) {
                    Ok(n) => n,
                    Err(e) => return self.error(&format!("INFO {key}: {e}")),
                }
            }
            // Unknown keys are ignored, as the protocol says.
            _ => return Ok(Flow::Continue),
        };
        let ms = Duration::from_millis(number);
        match key {
            "timeout_turn" => self.info.clock.turn = Some(ms),
            "timeout_match" => self.info.clock.game = (number > 0).then_some(ms),
            "time_left" => self.info.clock.left = (number < UNLIMITED).then_some(ms),
            "max_memory" => self.info.max_memory = number,
            "hash_size" => self.info.hash_kib = (number > 0).then_some(number),
            // Checked as a number; the kind of opponent changes nothing in how tengen plays.
            "game_type" => {}
            "thread_num" => self.info.threads = number.clamp(1, 256) as usize,
            "max_depth" => {
                self.info.max_depth =
                    (number > 0 && number < u64::from(u32::MAX)).then_some(number.min(255) as u32)
            }
            "max_node" => self.info.max_node = (number > 0 && number < u64::MAX).then_some(number),
            "rule" => match rule_of(number) {
                Ok(rule) => {
                    if rule != self.rule
                        && let Some(t) = self.tables.as_mut()
                        && t.clear().is_err()
                    {
                        self.tables = None;
                    }
                    self.rule = rule;
                }
                Err(e) => return self.error(&e),
            },
            _ => unreachable!("listed above"),
        }
        Ok(Flow::Continue)
    }

    /// The memory for the tables, in megabytes: Yixin-Board's `hash_size` when set, else a
    /// share of `max_memory` past what the rest of the process needs.
    fn hash_mb(&self) -> usize {
        if let Some(kib) = self.info.hash_kib {
            return ((kib >> 10) as usize).max(1);
        }
        let total_mb = match self.info.max_memory {
            0 => DEFAULT_MEMORY >> 20,
            n => n >> 20,
        } as usize;
        ((total_mb.saturating_sub(RESERVED_MB)) as f64 * TABLE_SHARE).max(1.0) as usize
    }

    /// The analysis's settings for a move with `budget`.
    fn settings(&self, top: usize, budget: Budget) -> Settings {
        if let Some(fixed) = &self.options.fixed {
            return Settings {
                top,
                game: true,
                cancel: Some(self.cancel),
                ..fixed.clone()
            };
        }
        let defaults = Settings::default();
        Settings {
            time: Some(budget.hard),
            depth: self.info.max_depth,
            nodes: self.info.max_node,
            top,
            hash_mb: self.hash_mb(),
            threads: self.info.threads,
            game: true,
            cancel: Some(self.cancel),
            vct_share: analyze::Profile::of(self.rule).game.vct_share,
            ..defaults
        }
    }

    /// Analyses the position for the brain's colour within the clock; `top` moves get exact
    /// scores. Live `MESSAGE` lines go out after each iteration.
    fn analyse(&mut self, top: usize, all: bool) -> io::Result<Option<(Board, Analysis)>> {
        let Some(game) = self.game.as_ref() else {
            return Ok(None);
        };
        let me = game.own.unwrap_or_else(|| game.next_by_count());
        let board = game.board(self.rule, me);
        if let Some(five) = board.winner() {
            let at = game.coord(five.stones[0]);
            self.say(&format!(
                "ERROR the game is over: {} has five (from {at})",
                five.color
            ))?;
            return Ok(None);
        }
        if board.empty_points().next().is_none() {
            self.say("ERROR the board is full")?;
            return Ok(None);
        }
        // The move's clock started when its command was read.
        let start = self.received.min(Instant::now());
        let budget = self.info.clock.budget(game.stones.len());
        let size = game.size;
        // A forced move or a proved win is played at once in a game; a request for several
        // moves' scores (YXNBEST, swap2's choices) gets the full analysis.
        let settings = Settings {
            all,
            game: top == 1 && !all,
            ..self.settings(top, budget)
        };
        self.debug(&format!(
            "budget soft {} ms, hard {} ms, tables {} MB, {} thread(s)",
            budget.soft.as_millis(),
            budget.hard.as_millis(),
            settings.hash_mb,
            settings.threads
        ))?;
        if !self.make_tables(&settings)? {
            return Ok(None);
        }
        // Time already gone (the command waited, or the tables were made just now) is the
        // analysis's no longer.
        let waited = start.elapsed();
        let settings = Settings {
            time: settings
                .time
                .map(|t| t.saturating_sub(waited).max(clock::FLOOR)),
            ..settings
        };
        // A stop read before the search began still counts.
        self.cancel.set(self.stops.load(Relaxed) > 0);
        let coord = |p: Point| coord_on(size, p);
        let realtime = self.realtime;
        let cancel = self.cancel;
        let adaptive = self.options.fixed.is_none();
        let mut trend = Trend::default();
        let mut lines: Vec<String> = Vec::new();
        let mut failed = None;
        let out = &mut self.out;
        let mut emit = |lines: &mut Vec<String>| {
            for l in lines.drain(..) {
                if let Err(e) = writeln!(out, "{l}").and_then(|_| out.flush()) {
                    failed.get_or_insert(e);
                }
            }
        };
        let tables = self.tables.as_mut().expect("made above");
        let analysis = analyze::analyze_with(&board, &settings, tables, |event| {
            match event {
                Event::Iteration(p) => {
                    let secs = p.elapsed.as_secs_f64().max(1e-6);
                    let pv: Vec<String> = p.pv.iter().map(|q| q.to_string()).collect();
                    lines.push(format!(
                        "MESSAGE depth {}-{} score {} winrate {:.1}% nodes {} nps {:.0} time {} ms \
                         pv (RIF) {}",
                        p.depth,
                        p.seldepth,
                        p.score,
                        100.0 * eval::win_probability(p.score),
                        p.nodes,
                        p.nodes as f64 / secs,
                        p.elapsed.as_millis(),
                        pv.join(" ")
                    ));
                    if realtime && let Some(&best) = p.pv.first() {
                        lines.push("MESSAGE REALTIME REFRESH".into());
                        lines.push(format!("MESSAGE REALTIME BEST {}", coord(best)));
                    }
                    if adaptive
                        && let Some(&best) = p.pv.first()
                        && budget.stop_after(waited + p.elapsed, trend.update(best, p.score))
                    {
                        cancel.set(true);
                    }
                }
                Event::Searching { mv, depth } if realtime && depth >= 4 => {
                    lines.push(format!("MESSAGE REALTIME POS {}", coord(mv)));
                }
                Event::Searched {
                    mv,
                    depth,
                    score,
                    best,
                    ..
                } if realtime && depth >= 4 => {
                    lines.push(format!("MESSAGE REALTIME DONE {}", coord(mv)));
                    if score <= -eval::MATE_BOUND {
                        lines.push(format!("MESSAGE REALTIME LOST {}", coord(mv)));
                    } else if best {
                        lines.push(format!("MESSAGE REALTIME BEST {}", coord(mv)));
                    }
                }
                _ => {}
            }
            emit(&mut lines);
        });
        if let Some(e) = failed {
            return Err(e);
        }
        // The soft limit's stop is spent; a pending STOP stays raised.
        self.cancel.set(self.stops.load(Relaxed) > 0);
        let used = start.elapsed();
        self.info.clock.spend(used);
        match analysis {
            Ok(a) => {
                self.debug(&format!(
                    "used {} ms: depth {}, {} nodes, stopped {:?}",
                    used.as_millis(),
                    a.depth,
                    a.nodes,
                    a.stopped
                ))?;
                Ok(Some((board, a)))
            }
            Err(e) => {
                self.say(&format!("MESSAGE {e}; playing a legal move"))?;
                let a = Analysis {
                    to_move: me,
                    depth: 0,
                    seldepth: 0,
                    nodes: 0,
                    vcf_nodes: 0,
                    elapsed: used,
                    search_time: used,
                    candidates: Vec::new(),
                    forbidden: Vec::new(),
                    stopped: None,
                };
                Ok(Some((board, a)))
            }
        }
    }

    /// Makes the tables for `settings` unless the ones kept fit them: the whole budget from the
    /// first move (they stay for the game), with a solver for the root VCT's own thread when it
    /// has one. False (after an `ERROR` line) when the memory cannot be had.
    fn make_tables(&mut self, settings: &Settings) -> io::Result<bool> {
        match self.fit_tables(settings) {
            Ok(_) => Ok(true),
            Err(e) => {
                self.say(&format!("ERROR {e}"))?;
                Ok(false)
            }
        }
    }

    /// Makes the tables for `settings` unless the ones kept fit them; true when it made new
    /// ones. The old tables go first, so the two never take the memory together.
    fn fit_tables(&mut self, settings: &Settings) -> Result<bool, MemoryError> {
        let plan = (settings.hash_mb, settings.parallel_vct());
        if self.tables.as_ref().is_some_and(|t| t.plan() == plan) {
            return Ok(false);
        }
        self.tables = None;
        self.tables = Some(Tables::new(plan.0, plan.1)?);
        Ok(true)
    }

    /// Thinks, plays the best move and answers it; with `top` above 1 (`YXNBEST`) the best
    /// `top` moves are listed first.
    fn play_best(&mut self, top: usize) -> io::Result<()> {
        let Some((mut board, analysis)) = self.analyse(top, false)? else {
            return Ok(());
        };
        if top > 1 {
            let game = self.game.as_ref().expect("analysed");
            let lines: Vec<String> = analysis
                .candidates
                .iter()
                .take(top)
                .enumerate()
                .map(|(k, c)| nbest_line(game, k + 1, c))
                .collect();
            for l in lines {
                self.say(&l)?;
            }
        }
        let Some((mv, foul)) = choose(&mut board, &analysis.candidates) else {
            return self.say("ERROR no empty point is left");
        };
        if foul {
            self.say("MESSAGE every empty point is forbidden for black: playing the foul nearest the centre")?;
        }
        let game = self.game.as_mut().expect("analysed");
        let me = board.to_move();
        game.stones.push((mv, me));
        game.own = Some(me);
        let c = game.coord(mv);
        self.say(&c.to_string())
    }

    /// At `DONE`: the position becomes the block's, then the brain moves (`BOARD`), says
    /// nothing (`YXBOARD`) or decides a swap2 stage (`SWAP2BOARD`).
    fn board_done(&mut self, block: Block) -> io::Result<()> {
        if let Some(e) = block.error {
            return self.say(&format!("ERROR {e}; the BOARD block was ignored"));
        }
        let Some(game) = self.game.as_ref() else {
            return self.say("ERROR no game: START first");
        };
        let mut next = Game::new(game.size);
        // The brain's colour: black when its stone comes first (a game starts with black).
        let own = match block.stones.iter().find(|s| s.1 == 1 || s.1 == 2) {
            Some(&(_, 1)) | None => Color::Black,
            Some(_) => Color::White,
        };
        for &(c, who) in &block.stones {
            let p = match next.point(c) {
                Ok(p) => p,
                Err(e) => return self.say(&format!("ERROR {e}; the BOARD block was ignored")),
            };
            if next.taken(p) {
                return self.say(&format!(
                    "ERROR {c} is given twice; the BOARD block was ignored"
                ));
            }
            match who {
                1 => next.stones.push((p, own)),
                2 => next.stones.push((p, own.opponent())),
                // A winning-line or forbidden mark of a continuous game: not a stone.
                3 => {}
                _ => {
                    return self.say(&format!(
                        "ERROR {c},{who}: the third number must be 1 (own), 2 (opponent) or \
                         3 (mark); the BOARD block was ignored"
                    ));
                }
            }
        }
        match block.kind {
            BoardKind::Swap2 => {
                next.own = None;
                self.game = Some(next);
                self.swap2()
            }
            kind => {
                // The brain is to move: its colour by the order of the stones, else by count.
                next.own = Some(own);
                self.game = Some(next);
                if kind == BoardKind::Play {
                    self.play_best(1)?;
                }
                Ok(())
            }
        }
    }

    /// A swap2 stage, decided from the analyzer's scores.
    ///
    /// - Empty board: the brain places three stones (black, white, black), the 3-stone
    ///   opening of [`OPENINGS`] the analyzer scores closest to even.
    /// - Three stones: with white to move, white's score `s`. Below −[`SWAP_MARGIN`] the
    ///   brain swaps (takes black); above +[`SWAP_MARGIN`] it plays white's best move;
    ///   between, it places two more stones (white's best move, then the black reply whose
    ///   score is closest to even) and leaves the choice to the opponent.
    /// - Five stones: below 0 the brain swaps, else it plays white's best move.
    fn swap2(&mut self) -> io::Result<()> {
        let game = self.game.as_ref().expect("set");
        // Stones in order alternate black, white: re-colour them so.
        let mut g = Game::alternating(game.size, game.stones.iter().map(|s| s.0));
        match g.stones.len() {
            0 => {
                let centre = game.size / 2;
                let mut best: Option<(i32, Vec<Point>)> = None;
                for opening in OPENINGS {
                    let stones: Option<Vec<Point>> = opening
                        .iter()
                        .map(|&(dx, dy)| {
                            let x = i32::from(centre) + dx;
                            let y = i32::from(centre) + dy;
                            (x >= 0 && y >= 0 && x < i32::from(g.size) && y < i32::from(g.size))
                                .then(|| Point::new(x as u8, y as u8))
                                .flatten()
                        })
                        .collect();
                    let Some(stones) = stones else { continue };
                    let mut trial = Game::alternating(g.size, stones.iter().copied());
                    trial.own = Some(Color::White);
                    self.game = Some(trial);
                    let score = self.quick_score()?;
                    if best.as_ref().is_none_or(|(s, _)| score.abs() < s.abs()) {
                        best = Some((score, stones));
                    }
                }
                let (score, stones) = best.expect("the first opening fits every board");
                self.debug(&format!("swap2 opening scored {score} for white"))?;
                let placed = Game::alternating(g.size, stones.iter().copied());
                let text: Vec<String> = stones
                    .iter()
                    .map(|&p| placed.coord(p).to_string())
                    .collect();
                self.game = Some(placed);
                self.say(&text.join(" "))
            }
            3 | 5 => {
                let five = g.stones.len() == 5;
                g.own = Some(Color::White);
                self.game = Some(g);
                let Some((mut board, analysis)) = self.analyse(1, false)? else {
                    return Ok(());
                };
                let Some(best) = analysis.candidates.first().cloned() else {
                    return self.say("ERROR no legal move is left");
                };
                let s = best.score;
                self.debug(&format!("swap2: white scores {s}"))?;
                if s < if five { 0 } else { -SWAP_MARGIN } {
                    if let Some(g) = self.game.as_mut() {
                        g.own = Some(Color::Black);
                    }
                    return self.say("SWAP");
                }
                let Some((mv, _)) = choose(&mut board, &analysis.candidates) else {
                    return self.say("ERROR no legal move is left");
                };
                if five || s > SWAP_MARGIN {
                    let game = self.game.as_mut().expect("set");
                    game.stones.push((mv, Color::White));
                    game.own = Some(Color::White);
                    let c = game.coord(mv);
                    return self.say(&c.to_string());
                }
                // Balanced: white's move, then the black reply closest to even.
                let game = self.game.as_mut().expect("set");
                game.stones.push((mv, Color::White));
                game.own = Some(Color::Black);
                let Some((_, reply)) = self.analyse_all()? else {
                    return Ok(());
                };
                let game = self.game.as_mut().expect("set");
                let pick = reply
                    .candidates
                    .iter()
                    .filter(|c| c.bound == Bound::Exact && c.mate_in.is_none())
                    .min_by_key(|c| c.score.abs())
                    .or(reply.candidates.first());
                let Some(pick) = pick else {
                    return self.say("ERROR no legal move is left");
                };
                game.stones.push((pick.mv, Color::Black));
                game.own = None;
                let text = format!("{} {}", game.coord(mv), game.coord(pick.mv));
                self.say(&text)
            }
            n => self.say(&format!("ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {n}")),
        }
    }

    /// A short search's score of the position for the side to move (a tenth of the move's
    /// budget), for choosing among swap2 openings.
    fn quick_score(&mut self) -> io::Result<i32> {
        let clock = self.info.clock;
        let budget = clock.budget(0);
        self.info.clock.turn = Some(budget.hard / (OPENINGS.len() as u32 * 2).max(1));
        self.info.clock.game = None;
        let scored = self.analyse(1, false);
        self.info.clock = clock;
        Ok(scored?
            .and_then(|(_, a)| a.candidates.first().map(|c| c.score))
            .unwrap_or(0))
    }

    /// Every candidate scored exactly, within the move's budget.
    fn analyse_all(&mut self) -> io::Result<Option<(Board, Analysis)>> {
        self.analyse(1, true)
    }

    /// `YXSEARCHDEFEND`: every legal move of the side to move, tested against the opponent's
    /// forced win (its VCT, threat limit 2) after it, within the move's budget. A move whose
    /// refutation is found and verified loses (`MESSAGE REALTIME LOST x,y`); one after which
    /// the solver proves no win holds; the rest are unknown. Answers `MESSAGE DEFEND` lines
    /// and then the holding moves on one line (`x,y x,y …`), or `NONE`.
    fn search_defend(&mut self) -> io::Result<()> {
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        let me = game.own.unwrap_or_else(|| game.next_by_count());
        let board = game.board(self.rule, me);
        let stones: Vec<Point> = game.stones.iter().map(|s| s.0).collect();
        if board.winner().is_some() {
            return self.say("ERROR the game is over");
        }
        let budget = self.info.clock.budget(game.stones.len());
        let deadline = match self.options.fixed {
            Some(_) => Instant::now() + Duration::from_secs(3600),
            None => Instant::now() + budget.hard,
        };
        self.cancel.set(self.stops.load(Relaxed) > 0);
        // The threat solver of the kept tables: no memory beyond `max_memory`.
        let settings = self.settings(1, budget);
        if !self.make_tables(&settings)? {
            return Ok(());
        }
        let solver = self.tables.as_mut().expect("made above").solver();
        let mut scratch = board.clone();
        let mut moves: Vec<Point> = board
            .empty_points()
            .filter(|p| !pattern::forbidden(&mut scratch, me, p.index()))
            .collect();
        // Nearest the stones first, so that a cut-off leaves the far ones unknown.
        let centre = |p: &Point| {
            stones
                .iter()
                .map(|q| {
                    (i32::from(p.x()) - i32::from(q.x()))
                        .abs()
                        .max((i32::from(p.y()) - i32::from(q.y())).abs())
                })
                .min()
                .unwrap_or(0)
        };
        moves.sort_by_cached_key(centre);
        let (mut holds, mut lost, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
        let n = moves.len().max(1) as u32;
        // Fixed settings (tests, fuzzing): the root VCT's node budget shared among the moves,
        // at least `FIXED_DEFEND_NODES` each, nearest first; no clock.
        let mut nodes_left = self.options.fixed.as_ref().map(|f| f.root_vct_nodes);
        for (k, &m) in moves.iter().enumerate() {
            let now = Instant::now();
            if now >= deadline || self.cancel.is_set() || nodes_left == Some(0) {
                unknown.extend_from_slice(&moves[k..]);
                break;
            }
            let mut after = board.clone();
            if after.five_points(me).contains(m.index()) {
                holds.push(m);
                continue;
            }
            after.play(m);
            let mut t = Task::new(Mode::Vct, me.opponent());
            t.limits.cancel = Some(self.cancel);
            t.verify = false;
            match nodes_left.as_mut() {
                Some(left) => {
                    let each = (*left / u64::from(n - k as u32)).max(FIXED_DEFEND_NODES);
                    t.limits.nodes = each.min(*left);
                    *left -= t.limits.nodes;
                }
                None => {
                    t.limits.nodes = u64::MAX;
                    let share = (deadline - now) / (n - k as u32).max(1);
                    t.time = Some(share.max(Duration::from_millis(5)));
                }
            }
            let verdict = solver.run(&after, &t);
            match verdict {
                Ok(v) if v.outcome == Outcome::NoWin => holds.push(m),
                Ok(v) if v.outcome == Outcome::Win => {
                    let checked = v.proof.as_ref().is_some_and(|proof| {
                        verify::proof_with(solver.vct(), &after, me.opponent(), proof, t.limits)
                            .is_ok()
                    });
                    if checked {
                        lost.push(m);
                    } else {
                        unknown.push(m);
                    }
                }
                _ => unknown.push(m),
            }
        }
        self.cancel.set(self.stops.load(Relaxed) > 0);
        let game = self.game.as_ref().expect("checked");
        let list = |v: &[Point]| -> String {
            v.iter()
                .map(|&p| game.coord(p).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (h, l, u) = (list(&holds), list(&lost), list(&unknown));
        let mut lines = Vec::new();
        if self.realtime {
            for &p in &lost {
                lines.push(format!("MESSAGE REALTIME LOST {}", game.coord(p)));
            }
        }
        lines.push(format!("MESSAGE DEFEND holds {} move(s): {h}", holds.len()));
        lines.push(format!("MESSAGE DEFEND loses {} move(s): {l}", lost.len()));
        lines.push(format!(
            "MESSAGE DEFEND unknown {} move(s): {u}",
            unknown.len()
        ));
        lines.push(if holds.is_empty() { "NONE".into() } else { h });
        for l in lines {
            self.say(&l)?;
        }
        Ok(())
    }
}

/// The fewest nodes `YXSEARCHDEFEND` gives a move under fixed settings.
const FIXED_DEFEND_NODES: u64 = 20;

/// A `MESSAGE` line of `YXNBEST`: rank, move, score, win chance, depth and line.
fn nbest_line(game: &Game, rank: usize, c: &Candidate) -> String {
    let bound = if c.bound == Bound::Exact { "" } else { "<=" };
    let pv: Vec<String> = c.pv.iter().map(|p| p.to_string()).collect();
    format!(
        "MESSAGE NBEST {rank} {} score {bound}{} winrate {:.1}% depth {} pv (RIF) {}",
        game.coord(c.mv),
        c.score,
        100.0 * eval::win_probability(c.score),
        c.depth,
        pv.join(" ")
    )
}

/// The protocol's coordinate of `p` on a board of `size` (rows counted from the top).
fn coord_on(size: u8, p: Point) -> Coord {
    Coord {
        x: u32::from(p.x()),
        y: u32::from(size - 1 - p.y()),
    }
}

/// The best candidate that can be played (empty, and not a foul for black under renju); when
/// the analysis has none, the legal point nearest the centre. When every empty point is a foul
/// for black, the foul nearest the centre (`true`): the game is lost either way, and a move the
/// manager judges a foul ends it as what it is, where no answer ends it as a loss on time.
fn choose(board: &mut Board, candidates: &[Candidate]) -> Option<(Point, bool)> {
    let me = board.to_move();
    let legal = |b: &mut Board, p: Point| b.is_empty(p) && !pattern::forbidden(b, me, p.index());
    if let Some(c) = candidates.iter().find(|c| legal(board, c.mv)) {
        return Some((c.mv, false));
    }
    let centre = i32::from(board.size() / 2);
    let from_centre =
        |p: &Point| (i32::from(p.x()) - centre).abs() + (i32::from(p.y()) - centre).abs();
    let points: Vec<Point> = board.empty_points().collect();
    let nearest_legal = points
        .iter()
        .copied()
        .filter(|&p| legal(board, p))
        .min_by_key(from_centre);
    match nearest_legal {
        Some(p) => Some((p, false)),
        None => points
            .into_iter()
            .min_by_key(from_centre)
            .map(|p| (p, true)),
    }
}

/// The protocol's rule number as a rule: Gomocup's bits (1 exactly five, 2 continuous game,
/// 4 renju, 8 caro), with Yixin-Board's 2 for renju.
fn rule_of(n: u64) -> Result<Rule, String> {
    match n {
        0 => Ok(Rule::Freestyle),
        1 | 3 => Ok(Rule::Standard),
        2 | 4 | 5 => Ok(Rule::Renju),
        _ => Err(format!(
            "rule {n} is not supported: tengen plays freestyle (0), standard (1) and renju \
             (4, or 2 as Yixin-Board sends it){}",
            if n & 8 != 0 {
                "; caro (8) is not one of them"
            } else {
                ""
            }
        )),
    }
}

/// Below this score (white's, in evaluation points) the brain swaps at swap2's second stage,
/// above it plays white; between, it places two more stones.
const SWAP_MARGIN: i32 = 60;

/// Three-stone openings (black, white, black) as offsets from the centre, `x` right and `y`
/// up: a few direct and indirect shapes that the analyzer then scores for swap2.
const OPENINGS: [[(i32, i32); 3]; 6] = [
    [(0, 0), (1, 0), (2, 2)],
    [(0, 0), (1, 0), (0, 3)],
    [(0, 0), (1, 1), (3, 0)],
    [(0, 0), (1, 1), (-1, 3)],
    [(0, 0), (2, 0), (0, 2)],
    [(0, 0), (1, 2), (3, 1)],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_by_number() {
        assert_eq!(rule_of(0), Ok(Rule::Freestyle));
        assert_eq!(rule_of(1), Ok(Rule::Standard));
        assert_eq!(rule_of(2), Ok(Rule::Renju));
        assert_eq!(rule_of(4), Ok(Rule::Renju));
        assert!(rule_of(8).unwrap_err().contains("caro"));
        assert!(rule_of(9).is_err());
    }

    #[test]
    fn coordinates_count_rows_from_the_top() {
        let g = Game::new(15);
        let p = g.point(Coord { x: 0, y: 0 }).unwrap();
        assert_eq!(p.to_string(), "a15");
        let p = g.point(Coord { x: 7, y: 7 }).unwrap();
        assert_eq!(p.to_string(), "h8");
        assert_eq!(g.coord("a1".parse().unwrap()), Coord { x: 0, y: 14 });
        assert!(g.point(Coord { x: 15, y: 0 }).is_err());
    }
}
