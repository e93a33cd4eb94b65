//! tengen's integration tests: one binary, modules by area. Most run the real `tengen` binary
//! the way a user does and check exit codes, stdout, stderr and JSON.

mod analyze;
mod brain;
mod browser;
mod check;
mod docs;
mod errors;
mod fixtures;
mod formats;
mod fuzz_corpus;
mod newuser;
mod openings;
#[cfg(unix)]
mod output;
mod picture;
mod props;
mod public;
mod review;
mod robust;
mod rules;
mod serve;
mod sgf;
mod show;
mod solve;
mod tune;
mod vct;
mod words;

use std::path::PathBuf;

use assert_cmd::Command;
use tengen::board::{Board, Color, Point, Rule};

/// The puzzle file of composed examples shipped in `puzzles/`.
pub const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/examples.txt");

/// The `tengen` binary built for these tests.
pub fn tengen() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tengen"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs tengen with `args`; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_stdin(args, "")
}

/// Runs tengen with `args` and `stdin`; returns (exit code, stdout, stderr).
pub fn run_stdin(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = tengen()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("tengen runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Where the shared public puzzle set lives, relative to the repository.
pub const SHARED_PUZZLES: &str = "../shared/puzzles-public";

/// Set to `1` (CI does) to make a missing public puzzle set fail the tests that need it; any
/// value but empty or `0` counts, so a typo cannot turn the check off.
pub const REQUIRE_SHARED: &str = "TENGEN_REQUIRE_SHARED";

/// What a test that needs the public puzzle set does when `what` (the folder or a file in it)
/// is not there: with `TENGEN_REQUIRE_SHARED=1` it fails; otherwise it says on standard error
/// that it skipped (shown with `cargo test -- --nocapture`) and the caller returns.
fn shared_missing<T>(what: &str) -> Option<T> {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if std::env::var(REQUIRE_SHARED).is_ok_and(|v| !v.is_empty() && v != "0") {
        panic!("{test}: {what} not found, and {REQUIRE_SHARED}=1 requires it");
    }
    eprintln!("skipped: {what} not found ({test})");
    None
}

/// The shared public puzzle files (`*.txt` in `../shared/puzzles-public`, sorted, never empty),
/// or `None` after [`shared_missing`] when there are none. Every test that uses the public set
/// gets it through this function or [`public_file`].
pub fn public_files() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SHARED_PUZZLES);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    if files.is_empty() {
        return if dir.is_dir() {
            shared_missing(&format!("{SHARED_PUZZLES}/*.txt"))
        } else {
            shared_missing(SHARED_PUZZLES)
        };
    }
    Some(files)
}

/// One file of the public set, by name (`quintet-renju.txt`), as a path string; `None` after
/// [`shared_missing`] when it is not there.
pub fn public_file(name: &str) -> Option<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SHARED_PUZZLES);
    if !dir.is_dir() {
        return shared_missing(SHARED_PUZZLES);
    }
    let path = dir.join(name);
    if !path.is_file() {
        return shared_missing(&format!("{SHARED_PUZZLES}/{name}"));
    }
    Some(path.to_string_lossy().into_owned())
}

/// The ids of the puzzles in a puzzle file.
pub fn ids(file: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("id: ").map(str::to_string))
        .collect()
}

/// A game on a 15x15 board: the points played in turn, skipping taken points, fives and fouls.
pub fn random_game(rule: Rule, points: &[(u8, u8)]) -> Board {
    random_game_on(15, rule, points)
}

/// The same on a `size` board (coordinates taken modulo `size`).
pub fn random_game_on(size: u8, rule: Rule, points: &[(u8, u8)]) -> Board {
    let mut board = Board::new(size, rule).unwrap();
    for &(x, y) in points {
        let p = Point::new(x % size, y % size).unwrap();
        let side = board.to_move();
        if board.is_empty(p)
            && !board.makes_five(p, side)
            && !(rule.has_fouls(side) && tengen::pattern::foul(&board, p).is_some())
        {
            board.play(p);
        }
    }
    board
}

/// The board under symmetry `t` of the square (bit 4: transpose, 1: mirror x, 2: mirror y),
/// same side to move.
pub fn mirrored(board: &Board, t: u8) -> Board {
    let m = board.size() - 1;
    let map = |p: Point| {
        let (x, y) = if t & 4 != 0 {
            (p.y(), p.x())
        } else {
            (p.x(), p.y())
        };
        let x = if t & 1 != 0 { m - x } else { x };
        let y = if t & 2 != 0 { m - y } else { y };
        Point::new(x, y).unwrap()
    };
    let mut out = Board::new(board.size(), board.rule()).unwrap();
    for c in [Color::Black, Color::White] {
        for p in board.stones(c) {
            out.put(map(p), c);
        }
    }
    out.set_to_move(board.to_move());
    out
}
