//! The brain's state machine: one protocol line in, its answer out.
//!
//! The position is a list of stones in the order they came, turned into a [`Board`] when the
//! brain thinks. Coordinates change from the protocol's (`x,y` from the top) to points (rows
//! from the bottom) here and nowhere else. The analyzer's tables live as long as the brain, so
//! each move starts from what the last one stored.

//!
//! Files by job: [`game`] (the stones and the coordinates), [`plan`] (what `INFO` sets: the
//! clocks, the memory and the tables), [`settings`] (the analysis's settings for a move),
//! [`think`] (an analysis and the move it gives), [`swap2`] and [`defend`] (`YXSEARCHDEFEND`).

mod defend;
mod game;
mod plan;
mod settings;
mod swap2;
mod think;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

use super::command::{BadLine, BoardKind, Coord, Line};
use crate::analyze::{Settings, Tables};
use crate::board::{Color, MAX_SIZE, MIN_SIZE, Rule};
use crate::pattern;
use crate::solve::Cancel;

use game::{Block, GameInPlay};
use plan::Info;
pub use plan::RESERVED_MB;

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
pub struct BrainOptions {
    /// Print `DEBUG` lines (the time of each move, why it stopped).
    pub debug: bool,
    /// Settings that override what the protocol sets, for tests and fuzzing (`None`: the
    /// protocol's own).
    pub fixed: Option<Settings>,
}

/// The brain.
pub struct Brain<W: Write> {
    out: W,
    options: BrainOptions,
    game: Option<GameInPlay>,
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
    pub fn new(out: W, options: BrainOptions, cancel: Cancel, stops: Arc<AtomicUsize>) -> Brain<W> {
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
        let turn_time = self.info.clock.turn_time(game.stones.len());
        let settings = self.settings(1, turn_time);
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
                self.bad_line(bad)?;
                return Ok(Flow::Continue);
            }
        };
        let line = match self.block {
            Some(_) => match self.block_line(line)? {
                Some(line) => line,
                None => return Ok(Flow::Continue),
            },
            None => line,
        };
        if line == Line::End {
            return Ok(Flow::Exit);
        }
        self.command(line)?;
        Ok(Flow::Continue)
    }

    /// A line that could not be read: inside a board block it spoils the block (reported at
    /// `DONE`), elsewhere it is answered with an error.
    fn bad_line(&mut self, bad: BadLine) -> io::Result<()> {
        if let Some(block) = self.block.as_mut() {
            block.error.get_or_insert(bad.0);
            return Ok(());
        }
        self.say(&format!("ERROR {bad}"))
    }

    /// A line inside an open board block: only stones and `DONE` belong there; anything else
    /// ends the block unfinished and is returned, to be handled as a command.
    fn block_line(&mut self, line: Line) -> io::Result<Option<Line>> {
        match line {
            Line::Stone(c, who) => {
                if let Some(b) = self.block.as_mut() {
                    b.stones.push((c, who));
                }
                Ok(None)
            }
            Line::Done => {
                let block = self.block.take().expect("open");
                self.board_done(block)?;
                Ok(None)
            }
            Line::Blank | Line::Stop => Ok(None),
            line => {
                self.block = None;
                self.say("ERROR the BOARD block ended without DONE; it was ignored")?;
                Ok(Some(line))
            }
        }
    }

    /// A command outside a board block (`END` is the caller's).
    fn command(&mut self, line: Line) -> io::Result<()> {
        match line {
            Line::Blank | Line::Stop | Line::End => Ok(()),
            Line::About => self.say(&format!(
                "name=\"tengen\", version=\"{}\", author=\"the tengen developers\", \
                 country=\"unknown\"",
                env!("CARGO_PKG_VERSION")
            )),
            Line::Start(n) => self.start(n),
            Line::RectStart(w, h) if w == h => self.start(w),
            Line::RectStart(w, h) => self.say(&format!(
                "ERROR rectangular boards ({w}x{h}) are not supported: tengen plays \
                 square boards of {MIN_SIZE} to {MAX_SIZE}"
            )),
            Line::Restart => self.restart(),
            Line::Info(key, value) => self.info(&key, &value),
            Line::Board(kind) => {
                self.open_block(kind);
                Ok(())
            }
            Line::Stone(c, _) => self.say(&format!("ERROR {c} outside a BOARD block")),
            Line::Done => self.say("ERROR DONE without a BOARD block"),
            Line::Begin => self.begin(),
            Line::Turn(c) => self.turn(c),
            Line::Play(c) => self.play(c),
            Line::Takeback(c) => self.take_back(c),
            Line::NBest(n) if self.game.is_some() => self.play_best(n.clamp(1, 64) as usize),
            Line::NBest(_) => self.no_game("YXNBEST"),
            Line::ShowForbid => self.show_forbidden(),
            Line::HashClear => self.clear_tables(),
            Line::ShowInfo => self.show_info(),
            Line::SearchDefend if self.game.is_some() => self.search_defend(),
            Line::SearchDefend => self.no_game("YXSEARCHDEFEND"),
            Line::Unknown(word) => self.say(&format!("UNKNOWN command {word}")),
        }
    }

    /// `RESTART`: the same board, emptied.
    fn restart(&mut self) -> io::Result<()> {
        match self.game.as_mut() {
            Some(g) => {
                *g = GameInPlay::new(g.size);
                self.say("OK")
            }
            None => self.say("ERROR no game to restart: START first"),
        }
    }

    /// `BOARD`, `YXBOARD`, `SWAP2BOARD`: stone lines follow until `DONE`. Before `START` the
    /// block is read anyway, so that its lines do not each bring an error.
    fn open_block(&mut self, kind: BoardKind) {
        let error = self.game.is_none().then(|| "no game: START first".into());
        self.block = Some(Block {
            kind,
            stones: Vec::new(),
            error,
        });
    }

    /// `BEGIN`: the brain is black and opens.
    fn begin(&mut self) -> io::Result<()> {
        let Some(game) = self.game.as_mut() else {
            return self.no_game("BEGIN");
        };
        if !game.stones.is_empty() {
            return self.error("BEGIN on a board with stones: use BOARD");
        }
        game.own = Some(Color::Black);
        self.play_best(1)
    }

    /// `TURN x,y`: the opponent's stone (the colour the brain is not, or by the count), then
    /// the brain's move.
    fn turn(&mut self, c: Coord) -> io::Result<()> {
        let Some(game) = self.game.as_mut() else {
            return self.no_game("TURN");
        };
        let p = match game.point(c) {
            Ok(p) if game.taken(p) => return self.error(&format!("{c} is already taken")),
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let color = game
            .own
            .map_or_else(|| game.next_by_count(), Color::opponent);
        game.stones.push((p, color));
        game.own = Some(color.opponent());
        self.play_best(1)
    }

    /// `PLAY x,y`: the brain's own stone where the manager says, echoed.
    fn play(&mut self, c: Coord) -> io::Result<()> {
        let Some(game) = self.game.as_mut() else {
            return self.no_game("PLAY");
        };
        match game.point(c) {
            Ok(p) if game.taken(p) => self.error(&format!("{c} is already taken")),
            Ok(p) => {
                let color = game.own.unwrap_or_else(|| game.next_by_count());
                game.stones.push((p, color));
                game.own = Some(color);
                self.say(&c.to_string())
            }
            Err(e) => self.error(&e),
        }
    }

    /// `TAKEBACK x,y`: the stone there comes off.
    fn take_back(&mut self, c: Coord) -> io::Result<()> {
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
                self.say("OK")
            }
            None => self.error(&format!("no stone at {c} to take back")),
        }
    }

    /// `YXSHOWFORBID`: black's forbidden points, `FORBID xxyy…xxyy.`.
    fn show_forbidden(&mut self) -> io::Result<()> {
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
        self.say(&text)
    }

    /// `YXHASHCLEAR`: the tables emptied (dropped if they cannot be).
    fn clear_tables(&mut self) -> io::Result<()> {
        if let Some(t) = self.tables.as_mut()
            && t.clear().is_err()
        {
            self.tables = None;
        }
        self.say("MESSAGE the search's tables are cleared")
    }

    /// `YXSHOWINFO`: the live board marks from now on, and what the GUI asks to know.
    fn show_info(&mut self) -> io::Result<()> {
        self.realtime = true;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.say(&format!("MESSAGE tengen {}", env!("CARGO_PKG_VERSION")))?;
        self.say(&format!("MESSAGE INFO MAX_THREAD_NUM {}", cores.max(1)))
    }

    fn no_game(&mut self, what: &str) -> io::Result<()> {
        self.error(&format!("{what} before START: no game has begun"))
    }

    fn error(&mut self, text: &str) -> io::Result<()> {
        self.say(&format!("ERROR {text}"))
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
        self.game = Some(GameInPlay::new(n as u8));
        self.block = None;
        self.say("OK")
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
        let mut next = GameInPlay::new(game.size);
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
}
