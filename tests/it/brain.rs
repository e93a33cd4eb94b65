//! `pbrain-tengen` / `tengen brain`: a scripted protocol session through the real binary, as
//! a GUI or a match runner drives it: every command, each rule, TAKEBACK, SWAP2BOARD, the
//! Yixin-Board extensions and bad input. Coordinates are the protocol's: `x,y` from the top.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use tengen::board::{Board, Color, Point, Rule};

/// How long any answer may take before the test calls the brain hung: far above every time
/// limit the tests set, so it only catches a brain that never answers.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running brain.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The `MESSAGE` and `DEBUG` lines seen before the last answer.
    chatter: Vec<String>,
}

impl Session {
    fn new(args: &[&str]) -> Session {
        Session::with(env!("CARGO_BIN_EXE_pbrain-tengen"), args)
    }

    fn with(program: &str, args: &[&str]) -> Session {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the brain starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            chatter: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(text.as_bytes()).expect("the brain reads");
        stdin.write_all(b"\n").expect("the brain reads");
        stdin.flush().expect("the brain reads");
    }

    /// The next line that is not `MESSAGE` or `DEBUG` (those are kept in `chatter`).
    fn answer(&mut self) -> String {
        self.chatter.clear();
        loop {
            let line = self
                .lines
                .recv_timeout(PATIENCE)
                .expect("the brain answers in time");
            if line.starts_with("MESSAGE") || line.starts_with("DEBUG") {
                self.chatter.push(line);
            } else {
                return line;
            }
        }
    }

    /// Sends `text` and returns the answer.
    fn ask(&mut self, text: &str) -> String {
        self.send(text);
        self.answer()
    }

    /// Sends `lines`, which must bring no answer: the `ABOUT` sent after them is answered
    /// first.
    fn silent(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
        let next = self.ask("ABOUT");
        assert!(
            next.starts_with("name=\"tengen\""),
            "{lines:?} answered {next}"
        );
    }

    /// Closes standard input and returns the exit code.
    fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        self.child
            .wait()
            .expect("the brain exits")
            .code()
            .unwrap_or(-1)
    }
}

/// `x,y` of a protocol move.
fn coord(text: &str) -> (u32, u32) {
    let (x, y) = text
        .split_once(',')
        .unwrap_or_else(|| panic!("{text} is not a move"));
    (x.trim().parse().expect("x"), y.trim().parse().expect("y"))
}

/// The point of protocol `x,y` on a board of `size` (rows from the top).
fn point(size: u8, (x, y): (u32, u32)) -> Point {
    Point::new(x as u8, size - 1 - y as u8).expect("on the board")
}

/// Starts a game of `rule` (protocol number) with a short turn limit.
fn game(rule: u32) -> Session {
    let mut s = Session::new(&[]);
    assert_eq!(s.ask("START 15"), "OK");
    s.silent(&[&format!("INFO rule {rule}"), "INFO timeout_turn 300"]);
    s
}

/// A BOARD-like block: `stones` as (x, y, who).
fn block(s: &mut Session, head: &str, stones: &[(u32, u32, u32)]) {
    s.send(head);
    for &(x, y, w) in stones {
        s.send(&format!("{x},{y},{w}"));
    }
    s.send("DONE");
}

#[test]
fn about_start_and_board_sizes() {
    let mut s = Session::new(&[]);
    let about = s.ask("ABOUT");
    assert!(about.starts_with("name=\"tengen\", version=\""), "{about}");
    assert!(
        about.contains("author=") && about.contains("country="),
        "{about}"
    );
    assert_eq!(s.ask("START 15"), "OK");
    assert_eq!(s.ask("START 5"), "OK");
    assert_eq!(s.ask("START 22"), "OK");
    for bad in ["START 4", "START 23", "START 0", "RECTSTART 15,20"] {
        let a = s.ask(bad);
        assert!(a.starts_with("ERROR"), "{bad}: {a}");
    }
    assert_eq!(s.ask("RECTSTART 20,20"), "OK");
    assert_eq!(s.ask("RESTART"), "OK");
    // The last START stands: 20x20, so 19,19 is on the board.
    let a = s.ask("TURN 19,19");
    let (x, y) = coord(&a);
    assert!(x < 20 && y < 20 && (x, y) != (19, 19), "{a}");
    assert_eq!(s.finish(), 0);
}

#[test]
fn a_game_with_takeback_plays_legal_moves_in_every_rule() {
    for rule in [0, 1, 4, 2] {
        let mut s = game(rule);
        let engine_rule = if rule == 0 {
            Rule::Freestyle
        } else if rule == 1 {
            Rule::Standard
        } else {
            Rule::Renju
        };
        let mut board = Board::new(15, engine_rule).unwrap();
        // The brain is black: BEGIN opens at the centre.
        let first = s.ask("BEGIN");
        assert_eq!(first, "7,7", "rule {rule}");
        board.play(point(15, coord(&first)));
        // White answers on the first free point of a fixed list near the centre. The
        // brain's replies depend on the clock, so the list is long enough for any of them.
        let theirs: Vec<(u32, u32)> = [(7, 6), (6, 6), (8, 8), (5, 9), (9, 5)]
            .into_iter()
            .chain((4..11).flat_map(|x| (4..11).map(move |y| (x, y))))
            .collect();
        for _ in 0..4 {
            let (x, y) = theirs
                .iter()
                .copied()
                .find(|&c| board.is_empty(point(15, c)))
                .expect("a free point");
            board.play(point(15, (x, y)));
            let a = s.ask(&format!("TURN {x},{y}"));
            let p = point(15, coord(&a));
            assert!(board.is_empty(p), "rule {rule}: {a} is taken");
            if engine_rule == Rule::Renju {
                assert!(
                    tengen::pattern::foul(&board, p).is_none(),
                    "rule {rule}: black played the foul {a}"
                );
            }
            board.play(p);
            if board.winner().is_some() {
                break;
            }
        }
        // Take back the brain's last move and white's, then play on from there.
        let mine = board.undo().unwrap();
        let (mx, my) = (mine.x() as u32, 14 - mine.y() as u32);
        assert_eq!(s.ask(&format!("TAKEBACK {mx},{my}")), "OK");
        let white = board.undo().unwrap();
        let (wx, wy) = (white.x() as u32, 14 - white.y() as u32);
        assert_eq!(s.ask(&format!("TAKEBACK {wx},{wy}")), "OK");
        let a = s.ask(&format!("TAKEBACK {wx},{wy}"));
        assert!(
            a.starts_with("ERROR"),
            "a second takeback of {wx},{wy}: {a}"
        );
        board.play(white);
        let a = s.ask(&format!("TURN {wx},{wy}"));
        assert!(board.is_empty(point(15, coord(&a))), "rule {rule}: {a}");
        assert_eq!(s.finish(), 0);
    }
}

#[test]
fn a_five_to_block_or_to_make_is_played_at_once() {
    for rule in [0, 1, 4] {
        // The opponent (2) has four in a row on row 7 with one end blocked by the brain;
        // the brain (1) must block at 7,7.
        let mut s = game(rule);
        s.send("INFO timeout_turn 30000");
        block(
            &mut s,
            "BOARD",
            &[
                (2, 7, 1),
                (3, 7, 2),
                (3, 3, 1),
                (4, 7, 2),
                (12, 3, 1),
                (5, 7, 2),
                (12, 12, 1),
                (6, 7, 2),
            ],
        );
        assert_eq!(s.answer(), "7,7", "rule {rule}");
        // The brain's own four (column 3, rows 3.. down) makes five at once.
        let mut s = game(rule);
        block(
            &mut s,
            "BOARD",
            &[
                (3, 3, 1),
                (10, 10, 2),
                (3, 4, 1),
                (10, 12, 2),
                (3, 5, 1),
                (12, 10, 2),
                (3, 6, 1),
                (12, 12, 2),
            ],
        );
        let a = s.answer();
        assert!(a == "3,7" || a == "3,2", "rule {rule}: {a}");
    }
}

#[test]
fn a_forced_move_and_a_verified_win_are_played_without_a_search() {
    // The block of a four is the only move: no iteration runs.
    let mut s = Session::new(&["--debug"]);
    assert_eq!(s.ask("START 15"), "OK");
    s.send("INFO timeout_turn 5000");
    // White (2) has four from 7,3 to 7,6; the brain's stone at 7,2 leaves 7,7 the only block.
    block(
        &mut s,
        "BOARD",
        &[
            (7, 2, 1),
            (7, 3, 2),
            (12, 2, 1),
            (7, 4, 2),
            (2, 12, 1),
            (7, 5, 2),
            (7, 6, 2),
        ],
    );
    assert_eq!(s.answer(), "7,7");
    assert!(
        s.chatter.iter().any(|l| l.contains("depth 0,")),
        "no search for a forced move: {:?}",
        s.chatter
    );
    // An open three of the brain's (row 7, x 5..7, both sides open) wins by the open four:
    // the root VCT proves it and the move comes without the search.
    block(
        &mut s,
        "BOARD",
        &[
            (5, 7, 1),
            (0, 0, 2),
            (6, 7, 1),
            (14, 0, 2),
            (7, 7, 1),
            (0, 14, 2),
        ],
    );
    let a = s.answer();
    assert!(
        ["3,7", "4,7", "8,7", "9,7"].contains(&a.as_str()),
        "{a} does not make a four of the three"
    );
    assert!(
        s.chatter.iter().any(|l| l.contains("depth 0,")),
        "a verified win is played without the search: {:?}",
        s.chatter
    );
}

#[test]
fn board_marks_yxboard_and_play() {
    let mut s = game(0);
    // A mark (3) is not a stone: 8,8 stays free.
    block(&mut s, "BOARD", &[(7, 7, 2), (8, 8, 3)]);
    let a = s.answer();
    assert!(coord(&a) != (7, 7), "{a}");
    // YXBOARD sets the position and says nothing.
    s.silent(&["YXBOARD", "7,7,2", "8,7,1", "DONE"]);
    // PLAY puts the brain's stone and echoes it.
    assert_eq!(s.ask("PLAY 9,9"), "9,9");
    let a = s.ask("PLAY 9,9");
    assert!(a.starts_with("ERROR"), "{a}");
    // The opponent moves; the brain answers on a free point.
    let a = s.ask("TURN 6,6");
    assert!(
        ![(7, 7), (8, 7), (9, 9), (6, 6)].contains(&coord(&a)),
        "{a}"
    );
}

#[test]
fn info_keys_are_read_quietly_and_bad_values_are_errors() {
    let mut s = game(4);
    s.silent(&[
        "INFO timeout_turn 500",
        "INFO timeout_match 60000",
        "INFO time_left 59000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO thread_num 2",
        "INFO folder /tmp/tengen",
        "INFO max_depth 6",
        "INFO max_node 200000",
        "INFO hash_size 16384",
        "INFO some_future_key 7",
        "INFO caution_factor 2",
    ]);
    for bad in [
        "INFO timeout_turn soon",
        "INFO time_left -5",
        "INFO max_memory 99999999999999999999999",
        "INFO thread_num",
        "INFO rule 8",
        "INFO rule 9",
    ] {
        let a = s.ask(bad);
        assert!(a.starts_with("ERROR"), "{bad}: {a}");
    }
    let a = s.ask("INFO rule 8");
    assert!(a.contains("caro") && a.contains("renju"), "{a}");
    // The rule stays renju after the refused change, and the game still plays (two threads,
    // a depth and node limit).
    let a = s.ask("BEGIN");
    assert_eq!(a, "7,7");
    let a = s.ask("TURN 8,8");
    assert!(coord(&a) != (8, 8), "{a}");
}

#[test]
fn a_match_clock_and_the_fastest_setting_bound_the_budget() {
    let mut s = Session::new(&["--debug"]);
    assert_eq!(s.ask("START 15"), "OK");
    s.silent(&[
        "INFO timeout_turn 5000",
        "INFO timeout_match 60000",
        "INFO time_left 300",
    ]);
    let hard = |s: &Session| -> u64 {
        let line = s
            .chatter
            .iter()
            .find(|l| l.starts_with("DEBUG budget"))
            .expect("a budget line");
        let after = line.split("hard ").nth(1).expect("hard");
        after.split(' ').next().unwrap().parse().unwrap()
    };
    s.ask("BEGIN");
    // 300 ms left: at most a quarter of it, less the margin.
    assert!(hard(&s) <= 75, "{:?}", s.chatter);
    s.silent(&[
        "INFO time_left 2147483647",
        "INFO timeout_match 0",
        "INFO timeout_turn 0",
    ]);
    s.ask("TURN 8,8");
    assert!(hard(&s) <= 50, "{:?}", s.chatter);
}

#[test]
fn yixin_board_extensions() {
    let mut s = game(4);
    s.send("INFO timeout_turn 1000");
    // YXSHOWINFO turns the live board marks on.
    s.send("YXSHOWINFO");
    // A renju position with black's double three at 7,7 (black at 5,7 6,7 and 7,5 7,6):
    // YXSHOWFORBID lists it, as `tengen forbidden` does.
    s.silent(&[
        "YXBOARD", "5,7,1", "0,0,2", "6,7,1", "14,0,2", "7,5,1", "0,14,2", "7,6,1", "14,14,2",
        "DONE",
    ]);
    assert!(
        s.chatter.iter().any(|l| l.contains("MAX_THREAD_NUM")),
        "{:?}",
        s.chatter
    );
    let forbid = s.ask("YXSHOWFORBID");
    assert!(
        forbid.starts_with("FORBID ") && forbid.ends_with('.'),
        "{forbid}"
    );
    let digits = &forbid["FORBID ".len()..forbid.len() - 1];
    let listed: Vec<&str> = (0..digits.len() / 4)
        .map(|k| &digits[4 * k..4 * k + 4])
        .collect();
    assert!(listed.contains(&"0707"), "{forbid}");
    let mut board = Board::new(15, Rule::Renju).unwrap();
    for (x, y, c) in [
        (5, 7, Color::Black),
        (6, 7, Color::Black),
        (7, 5, Color::Black),
    ] {
        board.put(point(15, (x, y)), c);
    }
    board.put(point(15, (7, 6)), Color::Black);
    for (x, y) in [(0, 0), (14, 0), (0, 14), (14, 14)] {
        board.put(point(15, (x, y)), Color::White);
    }
    let fouls: Vec<String> = tengen::pattern::fouls(&board)
        .into_iter()
        .map(|(p, _)| format!("{:02}{:02}", p.x(), 14 - p.y()))
        .collect();
    assert_eq!(listed, fouls);
    // YXNBEST 3: three ranked lines, then the first one's move, which is legal for black.
    let a = s.ask("YXNBEST 3");
    let nbest: Vec<&String> = s
        .chatter
        .iter()
        .filter(|l| l.starts_with("MESSAGE NBEST"))
        .collect();
    assert_eq!(nbest.len(), 3, "{:?}", s.chatter);
    assert!(
        nbest[0].starts_with(&format!("MESSAGE NBEST 1 {a} ")),
        "{nbest:?} / {a}"
    );
    assert!(!listed.contains(&format!("{:02}{:02}", coord(&a).0, coord(&a).1).as_str()));
    assert!(
        s.chatter
            .iter()
            .any(|l| l.starts_with("MESSAGE REALTIME BEST ")),
        "{:?}",
        s.chatter
    );
    assert!(
        s.chatter.iter().any(|l| l.starts_with("MESSAGE depth ")),
        "{:?}",
        s.chatter
    );
    s.send("YXHASHCLEAR");
    assert_eq!(s.ask("START 15"), "OK");
    assert!(
        s.chatter.iter().any(|l| l.contains("cleared")),
        "{:?}",
        s.chatter
    );
}

#[test]
fn yxstop_answers_at_once() {
    let mut s = game(0);
    s.silent(&["INFO timeout_turn 600000"]);
    s.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(300));
    s.send("YXSTOP");
    // Ten minutes were allowed; the move comes when asked for.
    let a = s.answer();
    assert!(coord(&a) != (7, 7), "{a}");
    // A STOP while nothing is thinking is ignored.
    s.silent(&["STOP"]);
}

#[test]
fn search_defend_lists_the_moves_that_hold() {
    // Freestyle: white (the opponent, 2) has an open three at 6,7 7,7 8,7 with both sides
    // free; black (the brain) defends. Blocking next to it holds; a far corner loses.
    let mut s = game(0);
    s.send("INFO timeout_turn 10000");
    s.silent(&[
        "YXBOARD", "7,10,1", "6,7,2", "10,10,1", "7,7,2", "12,3,1", "8,7,2", "DONE",
    ]);
    let a = s.ask("YXSEARCHDEFEND");
    let holds: Vec<(u32, u32)> = if a == "NONE" {
        Vec::new()
    } else {
        a.split(' ').map(coord).collect()
    };
    assert!(holds.contains(&(5, 7)) && holds.contains(&(9, 7)), "{a}");
    // Every holding move is on row 7 next to the three, or a far end of it.
    for h in &holds {
        assert!(h.1 == 7 && [4, 5, 9, 10].contains(&h.0), "{h:?} in {a}");
    }
    let lost = s
        .chatter
        .iter()
        .find(|l| l.starts_with("MESSAGE DEFEND loses"))
        .expect("a loses line");
    assert!(lost.contains(" 0,0") || lost.ends_with("0,0"), "{lost}");
}

/// Checks that the brain's stones are now `colour`'s: it PLAYs its own stones on the empty
/// points of a line of five through `anchor`, a stone known to be `colour`'s, then gets a
/// TURN. Only if the brain's stones are `colour`'s do they make five with the anchor, and the
/// brain answers that the game is over; with the other colour there is no five and it moves.
fn assert_brain_plays(s: &mut Session, colour: &str, anchor: (u32, u32), taken: &[(u32, u32)]) {
    let free = |p: &(i32, i32)| {
        (0..15).contains(&p.0)
            && (0..15).contains(&p.1)
            && !taken.contains(&(p.0 as u32, p.1 as u32))
    };
    let (ax, ay) = (anchor.0 as i32, anchor.1 as i32);
    let line = [(1, 0), (0, 1), (1, 1), (1, -1)]
        .into_iter()
        .flat_map(|(dx, dy)| (0..5).map(move |k| (dx, dy, k)))
        .map(|(dx, dy, k)| {
            (0..5)
                .filter(|&i| i != k)
                .map(|i| (ax + (i - k) * dx, ay + (i - k) * dy))
                .collect::<Vec<_>>()
        })
        .find(|points| points.iter().all(free))
        .expect("a free line of five through the anchor");
    for &(x, y) in &line {
        assert_eq!(s.ask(&format!("PLAY {x},{y}")), format!("{x},{y}"));
    }
    let far = [(0, 0), (14, 0), (0, 14), (14, 14)]
        .into_iter()
        .find(|p| free(p) && !line.contains(p))
        .expect("a free corner");
    let a = s.ask(&format!("TURN {},{}", far.0, far.1));
    assert!(
        a.starts_with(&format!("ERROR the game is over: {colour} has five")),
        "the brain's stones through {anchor:?} should be {colour}'s: {a}"
    );
}

#[test]
fn swap2_stages() {
    let mut s = game(0);
    s.send("INFO timeout_turn 2000");
    // Stage 1: the brain opens with three stones.
    s.send("SWAP2BOARD");
    let a = s.ask("DONE");
    let three: Vec<(u32, u32)> = a.split(' ').map(coord).collect();
    assert_eq!(three.len(), 3, "{a}");
    let mut distinct = three.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{a}");
    assert!(three.iter().all(|&(x, y)| x < 15 && y < 15), "{a}");
    // Stage 2: three stones given, black, white, black in their order. SWAP: the brain takes
    // black. One move: it plays white. Two: white's move and black's, and the colour of the
    // next stone goes by the count (white's).
    block(&mut s, "SWAP2BOARD", &[(7, 7, 2), (8, 7, 2), (9, 9, 2)]);
    let a = s.answer();
    let mut taken = vec![(7, 7), (8, 7), (9, 9)];
    if a == "SWAP" {
        assert_brain_plays(&mut s, "black", (7, 7), &taken);
    } else {
        let moves: Vec<(u32, u32)> = a.split(' ').map(coord).collect();
        assert!(moves.len() == 1 || moves.len() == 2, "{a}");
        assert!(moves.iter().all(|m| !taken.contains(m)), "{a}");
        taken.extend(&moves);
        assert_brain_plays(&mut s, "white", moves[0], &taken);
    }
    // Stage 3: five stones (black, white, black, white, black); SWAP (the brain takes black)
    // or white's move.
    block(
        &mut s,
        "SWAP2BOARD",
        &[(7, 7, 1), (8, 7, 1), (9, 9, 1), (6, 6, 2), (10, 10, 2)],
    );
    let a = s.answer();
    let mut taken = vec![(7, 7), (8, 7), (9, 9), (6, 6), (10, 10)];
    if a == "SWAP" {
        assert_brain_plays(&mut s, "black", (9, 9), &taken);
    } else {
        let m = coord(&a);
        assert!(!taken.contains(&m), "{a}");
        taken.push(m);
        assert_brain_plays(&mut s, "white", m, &taken);
    }
    let bad = s.ask("SWAP2BOARD\n7,7,1\nDONE");
    assert!(bad.starts_with("ERROR"), "{bad}");
}

#[test]
fn bad_input_gets_an_error_and_the_brain_keeps_running() {
    let mut s = Session::new(&[]);
    // Before START.
    for cmd in ["TURN 7,7", "BEGIN", "TAKEBACK 7,7", "RESTART", "YXNBEST 2"] {
        let a = s.ask(cmd);
        assert!(a.starts_with("ERROR"), "{cmd}: {a}");
    }
    assert_eq!(s.ask("START 15"), "OK");
    for (cmd, says) in [
        ("FROBNICATE", "UNKNOWN"),
        ("TURN 15,3", "ERROR"),
        ("TURN 3,99", "ERROR"),
        ("TURN 3", "ERROR"),
        ("TURN x,y", "ERROR"),
        ("TURN 1.5,2", "ERROR"),
        ("TURN 99999999999999999999999,1", "ERROR"),
        ("START 9999999999", "ERROR"),
        ("START -3", "ERROR"),
        ("DONE", "ERROR"),
        ("7,7,1", "ERROR"),
    ] {
        let a = s.ask(cmd);
        assert!(a.starts_with(says), "{cmd}: {a}");
    }
    // A move onto a stone.
    let first = s.ask("TURN 7,7");
    let a = s.ask("TURN 7,7");
    assert!(a.starts_with("ERROR") && a.contains("taken"), "{a}");
    let a = s.ask(&format!("TURN {first}"));
    assert!(a.starts_with("ERROR"), "{a}");
    // A BOARD block cut short by another command, and one with a bad line.
    s.send("BOARD");
    s.send("7,7,1");
    let a = s.ask("ABOUT");
    assert!(a.starts_with("ERROR") && a.contains("DONE"), "{a}");
    assert!(s.answer().starts_with("name="));
    let a = s.ask("BOARD\n7,7,1\n7,7,2\nDONE");
    assert!(a.starts_with("ERROR") && a.contains("twice"), "{a}");
    let a = s.ask("BOARD\n7,7,5\nDONE");
    assert!(a.starts_with("ERROR"), "{a}");
    let a = s.ask("BOARD\n70,7,1\nDONE");
    assert!(a.starts_with("ERROR"), "{a}");
    // A line of megabytes, binary junk, a NUL byte.
    let huge = "7".repeat(3 << 20);
    let a = s.ask(&huge);
    assert!(
        a.starts_with("ERROR") && a.contains("longer"),
        "{}",
        &a[..a.len().min(80)]
    );
    let stdin = s.stdin.as_mut().unwrap();
    stdin.write_all(b"\xff\xfe\x00\x81junk\n").unwrap();
    let a = s.answer();
    assert!(a.starts_with("ERROR"), "{a}");
    let a = s.ask("TU\0RN 1,1");
    assert!(a.starts_with("ERROR"), "{a}");
    // Still alive and playing.
    assert_eq!(s.ask("START 15"), "OK");
    assert_eq!(s.ask("BEGIN"), "7,7");
    // End of input mid-game: exit 0.
    assert_eq!(s.finish(), 0);
}

#[test]
fn end_of_input_mid_search_and_debug_only_when_asked() {
    // Without --debug no DEBUG line appears; `tengen brain` is the same engine.
    let mut s = Session::with(env!("CARGO_BIN_EXE_tengen"), &["brain"]);
    assert_eq!(s.ask("START 15"), "OK");
    s.silent(&["INFO timeout_turn 200"]);
    s.ask("BEGIN");
    s.ask("TURN 8,8");
    assert!(
        s.chatter.iter().all(|l| !l.starts_with("DEBUG")),
        "{:?}",
        s.chatter
    );
    assert!(!s.chatter.is_empty(), "live MESSAGE lines");
    // Input closes while the brain thinks (a long turn limit): it answers and exits 0.
    s.silent(&["INFO timeout_turn 600000"]);
    s.send("TURN 9,9");
    assert_eq!(s.finish(), 0);
    // END ends it too.
    let mut s = Session::new(&[]);
    s.send("END");
    assert_eq!(s.finish(), 0);
}

/// Black to move under renju with every empty point forbidden: the brain plays the foul
/// nearest the centre and says why. An `ERROR` line instead leaves a match runner
/// (c-gomoku-cli) waiting for a move until its deadline, and the game is lost on time.
#[test]
fn with_only_fouls_left_the_brain_plays_one_and_says_so() {
    let mut s = game(4);
    let moves: Vec<Point> = crate::analyze::ONLY_A_FOUL_LEFT
        .split(' ')
        .map(|m| m.parse().unwrap())
        .collect();
    // The brain is black, to move: its stones are 1.
    let stones: Vec<(u32, u32, u32)> = moves
        .iter()
        .enumerate()
        .map(|(k, p)| {
            (
                p.x() as u32,
                14 - p.y() as u32,
                if k % 2 == 0 { 1 } else { 2 },
            )
        })
        .collect();
    s.send("BOARD");
    for (x, y, w) in &stones {
        s.send(&format!("{x},{y},{w}"));
    }
    let answer = s.ask("DONE");
    let (x, y) = answer
        .split_once(',')
        .map(|(x, y)| (x.parse::<u8>().unwrap(), y.parse::<u8>().unwrap()))
        .unwrap_or_else(|| panic!("not a move: {answer}"));
    assert!(
        s.chatter
            .iter()
            .any(|l| l.contains("every empty point is forbidden")),
        "{:?}",
        s.chatter
    );
    // It is an empty point, and a foul for black.
    let p = Point::new(x, 14 - y).unwrap();
    let mut board = Board::new(15, Rule::Renju).unwrap();
    for m in &moves {
        board.play(*m);
    }
    assert!(board.is_empty(p), "{answer}");
    assert!(
        tengen::pattern::forbidden(&mut board, Color::Black, p.index()),
        "{answer}"
    );
    assert_eq!(s.finish(), 0);
}
