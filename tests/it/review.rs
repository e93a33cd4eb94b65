//! `tengen review` through the binary: a game's forced wins named at the right moves and
//! each one proved again by `solve`, the JSON document, a shipped game, and the errors.

use serde_json::Value;
use tengen::board::{Board, Color, Point, Rule};

use crate::run;

/// A freestyle game: white answers black's open three on row 4 (c4) but then plays away from
/// black's cluster (j13, move 8), which leaves black a forced win; black's c9 and white's g4
/// (moves 11, 12) change nothing, and black's d9 (move 13) lets the win go and leaves white's
/// l-column a forced win, which white plays out. (The wins are VCTs, not VCFs.)
const GAME: &str = "d4 l12 e4 n10 f4 c4 g5 j13 g6 l11 c9 g4 d9 l13 b2 l10 l9 l14";

fn review(args: &[&str]) -> Value {
    let mut all = vec!["review"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json", "--threads", "1"]);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn prefix(n: usize) -> String {
    GAME.split(' ').take(n).collect::<Vec<_>>().join(" ")
}

fn numbers(doc: &Value, key: &str) -> Vec<u64> {
    doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get(key).is_some())
        .map(|r| r["number"].as_u64().unwrap())
        .collect()
}

/// `solve --win-in N` on the position after the first `moves` moves of [`GAME`]: the side to
/// move wins, and the proof is verified.
fn solve_proves_a_win(moves: usize, winner: &str, within: u64) {
    let within = within.to_string();
    let (code, out, err) = run(&[
        "solve",
        "--win-in",
        &within,
        &prefix(moves),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["result"], "win", "after {moves} moves: {out}");
    assert_eq!(doc["attacker"], winner);
    assert_eq!(doc["verified"], true);
}

/// The line is legal from the position: every point empty when played.
fn replays(moves: usize, line: &Value) {
    let mut board = Board::new(15, Rule::Freestyle).unwrap();
    for p in prefix(moves).split(' ') {
        board.play(p.parse().unwrap());
    }
    for p in line.as_array().unwrap() {
        let p: Point = p.as_str().unwrap().parse().unwrap();
        assert!(board.is_empty(p), "{p} is taken in {line}");
        board.play(p);
    }
}

#[test]
fn a_review_names_the_forced_wins_missed_and_allowed_and_each_is_proved_again() {
    let doc = review(&[GAME, "--depth", "6"]);
    assert_eq!(doc["records"].as_array().unwrap().len(), 18);
    assert_eq!(doc["result"], "white-wins");
    assert_eq!(doc["positions"], 19);
    // White's j13 lets black's win in; black's d9 lets it go and lets white's in.
    assert_eq!(numbers(&doc, "allowed_win"), [8, 13]);
    assert_eq!(numbers(&doc, "missed_win"), [13]);
    for r in doc["records"].as_array().unwrap() {
        let k = r["number"].as_u64().unwrap() as usize;
        if let Some(w) = r.get("missed_win") {
            // The mover had the win before its move.
            assert_eq!(w["winner"], r["side"]);
            replays(k - 1, &w["line"]);
            solve_proves_a_win(
                k - 1,
                r["side"].as_str().unwrap(),
                w["moves"].as_u64().unwrap(),
            );
        }
        if let Some(w) = r.get("allowed_win") {
            assert_ne!(w["winner"], r["side"]);
            replays(k, &w["line"]);
            solve_proves_a_win(
                k,
                w["winner"].as_str().unwrap(),
                w["moves"].as_u64().unwrap(),
            );
        }
        if r.get("missed_win").is_some() || r.get("allowed_win").is_some() {
            assert_eq!(r["verdict"], "blunder", "move {k}");
            assert!(r["win_after"].as_f64().unwrap() < r["win_before"].as_f64().unwrap());
        }
    }
    // Black still won after c9 (white's g4 did not hold), so neither is claimed; from white's
    // l13 on, white's forced win is played out.
    let tp = doc["turning_point"].as_u64().unwrap();
    assert_eq!(tp, 13, "white's win was decided by black's d9");
    // The tallies add up.
    for side in ["black", "white"] {
        let s = &doc[side];
        let sum: u64 = ["best", "good", "inaccuracy", "mistake", "blunder"]
            .iter()
            .map(|k| s[*k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, s["moves"].as_u64().unwrap(), "{side}");
    }
    assert_eq!(doc["black"]["missed_wins"], 1);
    assert_eq!(doc["white"]["allowed_wins"], 1);
}

#[test]
fn from_and_to_review_a_part_and_the_text_marks_the_blunders() {
    let doc = review(&[GAME, "--depth", "3", "--from", "12", "--to", "14"]);
    let numbers: Vec<u64> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [12, 13, 14]);
    assert_eq!(doc["positions"], 4);
    let (code, out, err) = run(&["review", GAME, "--depth", "3", "--from", "13", "--to", "13"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  13  black  d9 "), "{out}");
    assert!(out.contains("move 13, black d9: blunder"), "{out}");
    // The board after the blunder, the played move in capitals.
    assert!(out.contains(" X "), "{out}");
    assert!(out.contains("turning point"), "{out}");
}

#[test]
fn a_shipped_game_is_reviewed_whole_from_its_sgf() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/renju-2.sgf");
    let doc = review(&[path, "--depth", "2"]);
    assert_eq!(doc["rule"], "renju");
    assert_eq!(doc["result"], "black-wins");
    let moves = doc["moves"].as_array().unwrap().len();
    assert_eq!(doc["records"].as_array().unwrap().len(), moves);
    // The last move made five: after it there is nothing to analyse.
    let last = doc["records"].as_array().unwrap().last().unwrap();
    assert_eq!(last["win_after"], 100.0);
    assert_eq!(last["side"], Color::Black.to_string());
}

#[test]
fn review_errors_say_what_is_wrong_and_exit_2() {
    let (code, _, err) = run(&["review", GAME, "--after", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--from N and --to N"), "{err}");
    let (code, _, err) = run(&["review", GAME, "--from", "30", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("it has 18 moves"), "{err}");
    let (code, _, err) = run(&["review", GAME, "--from", "9", "--to", "4", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("moves 9 to 4"), "{err}");
    let diagram = ". . . . .\n. . x . .\n. . . . .\n. . . o .\n. . . . .\n";
    let (code, _, err) = crate::run_stdin(&["review", "-", "--depth", "1"], diagram);
    assert_eq!(code, 2);
    assert!(err.contains("no game record"), "{err}");
}
