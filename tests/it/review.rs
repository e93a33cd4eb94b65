//! `tengen review` through the binary: planted blunders (a move that lets a forced win in, one
//! that throws a win away) graded so at exactly that move and each win proved again by
//! `solve`, the turning point and the grades as the review defines them, the JSON document, a
//! shipped game, and the errors.

use serde_json::Value;
use tengen::analyze::review::{DECIDED_FROM, GOOD_BELOW, INACCURACY_BELOW, MISTAKE_BELOW};
use tengen::board::{Board, Color, Point, Rule};

use crate::run;

/// A freestyle game of tengen's best moves at depth 4 (from the 1D-like start h8 i9 h9) with
/// three planted errors, found by trying every move near the stones (`scripts/plant-game.py`
/// makes it again): black's d10 (move 17)
/// lets white make a VCF (f5); white's b10 (move 18) misses it; black's a10 (move 23) lets
/// white make another (g7), which white starts. Move 15 is a mistake by the analysis but not
/// a forced loss.
const GAME: &str =
    "h8 i9 h9 h10 j8 g8 g10 f11 h7 j7 h6 h5 k8 g5 i7 i5 d10 b10 j5 f5 e5 g6 a10 g7 i4";

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

fn records(doc: &Value) -> &Vec<Value> {
    doc["records"].as_array().unwrap()
}

fn record(doc: &Value, number: u64) -> &Value {
    records(doc)
        .iter()
        .find(|r| r["number"] == number)
        .unwrap_or_else(|| panic!("no record of move {number}"))
}

/// `side`'s win chance after the move of `r`, in percent.
fn chance_after(r: &Value, side: &str) -> f64 {
    let mover = r["win_after"].as_f64().unwrap();
    if r["side"] == side {
        mover
    } else {
        100.0 - mover
    }
}

/// The turning point is the review's definition of it, checked against its records: the side
/// that won (in an unfinished game, the side at [`DECIDED_FROM`] or more after the last move
/// reviewed) is at [`DECIDED_FROM`] or more after the turning point and after every later move,
/// and was not after the move before it. A drawn or undecided game has none.
fn turning_point_is_where_the_win_was_decided(doc: &Value) {
    let all = records(doc);
    let last = all.last().unwrap();
    let winner = match doc["result"].as_str().unwrap() {
        "black-wins" => Some("black"),
        "white-wins" => Some("white"),
        "draw" => None,
        _ => ["black", "white"]
            .into_iter()
            .find(|&side| chance_after(last, side) >= DECIDED_FROM),
    };
    let Some(winner) = winner else {
        assert!(doc["turning_point"].is_null(), "{}", doc["turning_point"]);
        return;
    };
    let turn = doc["turning_point"]
        .as_u64()
        .expect("a decided game has a turning point");
    for r in all {
        let (number, chance) = (r["number"].as_u64().unwrap(), chance_after(r, winner));
        if number >= turn {
            assert!(
                chance >= DECIDED_FROM,
                "{winner} {chance}% after move {number}"
            );
        } else if number + 1 == turn {
            assert!(
                chance < DECIDED_FROM,
                "{winner} {chance}% already after move {number}"
            );
        }
    }
}

/// Every grade follows from its record: a missed or allowed forced win is a blunder, the best
/// move is best, and any other move is graded by the win chance it gave away (or is best when
/// it kept a forced win, its mover then at a sure win before it).
fn grades_follow_the_losses(doc: &Value) {
    for r in records(doc) {
        let (before, after) = (
            r["win_before"].as_f64().unwrap(),
            r["win_after"].as_f64().unwrap(),
        );
        let loss = r["loss"].as_f64().unwrap();
        assert!((loss - (before - after).max(0.0)).abs() < 1e-9, "{r}");
        let by_loss = if loss < GOOD_BELOW {
            "good"
        } else if loss < INACCURACY_BELOW {
            "inaccuracy"
        } else if loss < MISTAKE_BELOW {
            "mistake"
        } else {
            "blunder"
        };
        let grade = r["verdict"].as_str().unwrap();
        if r.get("missed_win").is_some() || r.get("allowed_win").is_some() {
            assert_eq!(grade, "blunder", "{r}");
        } else if r["played"] == r["best"] {
            assert_eq!(grade, "best", "{r}");
        } else if grade == "best" {
            assert!(
                before > 99.0,
                "a best move other than the best one keeps a win: {r}"
            );
        } else {
            assert_eq!(grade, by_loss, "{r}");
        }
    }
}

/// `solve --vcf` on the position after the first `moves` moves of [`GAME`]: the side to
/// move (`winner`) wins by fours, and the line is verified.
fn solve_proves_a_vcf(moves: usize, winner: &str) {
    let (code, out, err) = run(&["solve", "--vcf", &prefix(moves), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["result"], "win", "after {moves} moves: {out}");
    assert_eq!(doc["attacker"], winner);
    assert_eq!(doc["verified"], true);
}

/// The line is legal from the position after the first `moves` moves of [`GAME`].
fn replays(moves: usize, line: &Value) {
    replays_moves(&prefix(moves), line);
}

/// The line is legal from the position after `moves`: every point empty when played.
fn replays_moves(moves: &str, line: &Value) {
    let mut board = Board::new(15, Rule::Freestyle).unwrap();
    for p in moves.split(' ') {
        board.play(p.parse().unwrap());
    }
    for p in line.as_array().unwrap() {
        let p: Point = p.as_str().unwrap().parse().unwrap();
        assert!(board.is_empty(p), "{p} is taken in {line}");
        board.play(p);
    }
}

#[test]
fn a_review_names_the_planted_vcfs_missed_and_allowed_and_each_is_proved_again() {
    let doc = review(&[GAME, "--depth", "6"]);
    assert_eq!(doc["records"].as_array().unwrap().len(), 25);
    assert_eq!(doc["result"], "unfinished");
    assert_eq!(doc["positions"], 26);
    assert_eq!(numbers(&doc, "allowed_win"), [17, 23]);
    assert_eq!(numbers(&doc, "missed_win"), [18]);
    let blunders: Vec<u64> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["verdict"] == "blunder")
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    // The planted moves are blunders (each proved below); how the evaluation grades the others
    // is its own business, as long as each grade follows from the move's loss.
    for planted in [17, 18, 23] {
        assert!(blunders.contains(&planted), "{blunders:?}");
    }
    grades_follow_the_losses(&doc);
    for r in doc["records"].as_array().unwrap() {
        let k = r["number"].as_u64().unwrap() as usize;
        if let Some(w) = r.get("missed_win") {
            // The mover had the win before its move, and a VCF at that.
            assert_eq!(w["winner"], r["side"]);
            replays(k - 1, &w["line"]);
            solve_proves_a_vcf(k - 1, r["side"].as_str().unwrap());
        }
        if let Some(w) = r.get("allowed_win") {
            assert_ne!(w["winner"], r["side"]);
            replays(k, &w["line"]);
            solve_proves_a_vcf(k, w["winner"].as_str().unwrap());
        }
    }
    // Black's d10 let the VCF in: black's best move instead leaves white none.
    let seventeen = &doc["records"][16];
    let best = seventeen["best"].as_str().unwrap();
    assert_ne!(best, "d10");
    let instead = format!("{} {best}", prefix(16));
    let (code, out, _) = run(&["solve", "--vcf", &instead, "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["result"],
        "no-win"
    );
    // Black's a10 let in a forced win that white then played: the game was decided by then.
    turning_point_is_where_the_win_was_decided(&doc);
    assert!(
        doc["turning_point"].as_u64().unwrap() <= 23,
        "{}",
        doc["turning_point"]
    );
    for side in ["black", "white"] {
        let s = &doc[side];
        let sum: u64 = ["best", "good", "inaccuracy", "mistake", "blunder"]
            .iter()
            .map(|k| s[*k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, s["moves"].as_u64().unwrap(), "{side}");
    }
    assert_eq!(doc["black"]["allowed_wins"], 2);
    assert_eq!(doc["white"]["missed_wins"], 1);
}

/// Black's open three h8 i8 j8 after five moves, white already behind after its a1: white's k8
/// blocks the three, and white's a2 instead lets black's open four in. The evaluation thought
/// little of white's game by then, so the move is a blunder for the forced win it allows, not
/// for the win chance it gives away.
const BLOCKED: &str = "h8 h7 i8 a1 j8 k8";
const LETS_IN: &str = "h8 h7 i8 a1 j8 a2";
/// Both sides with an open three after six moves, black to move: black's k8 makes an open four.
const BOTH_THREES: &str = "h8 h7 i8 i7 j8 j7";

/// `solve --vcf` on `moves`: whether the side to move wins by fours.
fn vcf_result(moves: &str) -> String {
    let (code, out, err) = run(&["solve", "--vcf", moves, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    doc["result"].as_str().unwrap().to_string()
}

#[test]
fn a_planted_move_that_lets_a_forced_win_in_is_a_blunder_at_that_move() {
    // The plant is real: after white's a2 black wins by fours; after the block it does not.
    assert_eq!(vcf_result(LETS_IN), "win");
    assert_eq!(vcf_result(BLOCKED), "no-win");
    let planted = review(&[LETS_IN, "--depth", "4"]);
    let six = record(&planted, 6);
    assert_eq!(six["verdict"], "blunder", "{six}");
    assert_eq!(six["allowed_win"]["winner"], "black", "{six}");
    replays_moves(LETS_IN, &six["allowed_win"]["line"]);
    let clean = review(&[BLOCKED, "--depth", "4"]);
    let six = record(&clean, 6);
    assert_ne!(six["verdict"], "blunder", "{six}");
    assert!(six.get("allowed_win").is_none(), "{six}");
    for doc in [&planted, &clean] {
        grades_follow_the_losses(doc);
        turning_point_is_where_the_win_was_decided(doc);
    }
}

#[test]
fn a_planted_move_that_throws_a_forced_win_away_is_a_blunder_at_that_move() {
    // Black's a1 instead of the open four lets white's own four in.
    let kept = format!("{BOTH_THREES} k8");
    let thrown = format!("{BOTH_THREES} a1");
    assert_eq!(vcf_result(BOTH_THREES), "win");
    let doc = review(&[&kept, "--depth", "4"]);
    let seven = record(&doc, 7);
    assert_eq!(seven["verdict"], "best", "{seven}");
    assert!(seven.get("missed_win").is_none(), "{seven}");
    let doc = review(&[&thrown, "--depth", "4"]);
    let seven = record(&doc, 7);
    assert_eq!(seven["verdict"], "blunder", "{seven}");
    assert_eq!(seven["missed_win"]["winner"], "black", "{seven}");
    replays_moves(BOTH_THREES, &seven["missed_win"]["line"]);
    grades_follow_the_losses(&doc);
    // Black won by force before its a1 and white after it: the game turned there.
    assert_eq!(vcf_result(&thrown), "win");
    turning_point_is_where_the_win_was_decided(&doc);
    assert_eq!(doc["turning_point"], 7);
}

#[test]
fn from_and_to_review_a_part_and_the_text_marks_the_blunders() {
    let doc = review(&[GAME, "--depth", "3", "--from", "16", "--to", "18"]);
    let numbers: Vec<u64> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [16, 17, 18]);
    assert_eq!(doc["positions"], 4);
    let (code, out, err) = run(&["review", GAME, "--depth", "3", "--from", "17", "--to", "17"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  17  black  d10 "), "{out}");
    assert!(out.contains("move 17, black d10: blunder"), "{out}");
    assert!(out.contains("allowed win: after it white wins"), "{out}");
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
    grades_follow_the_losses(&doc);
    turning_point_is_where_the_win_was_decided(&doc);
}

#[test]
fn review_errors_say_what_is_wrong_and_exit_2() {
    let (code, _, err) = run(&["review", GAME, "--after", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--from N and --to N"), "{err}");
    let (code, _, err) = run(&["review", GAME, "--from", "30", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("it has 25 moves"), "{err}");
    let (code, _, err) = run(&["review", GAME, "--from", "9", "--to", "4", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("moves 9 to 4"), "{err}");
    let diagram = ". . . . .\n. . x . .\n. . . . .\n. . . o .\n. . . . .\n";
    let (code, _, err) = crate::run_stdin(&["review", "-", "--depth", "1"], diagram);
    assert_eq!(code, 2);
    assert!(err.contains("no game record"), "{err}");
}

#[test]
fn a_renju_game_that_ends_in_blacks_foul_is_reviewed_whole() {
    // Black's g8 is a double three: forbidden, so the game ends there and white wins.
    // `analyze` refuses the record (it needs a side to move); `review` reads it to its end.
    let game = "h8 h9 i8 i9 g9 a1 g7 a2 g8";
    let (code, _, err) = run(&["analyze", game, "--rule", "renju", "--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    let doc = review(&[game, "--rule", "renju", "--depth", "2"]);
    assert_eq!(doc["result"], "white-wins");
    let last = doc["records"].as_array().unwrap().last().unwrap();
    assert_eq!(last["played"], "g8");
    assert_eq!(last["win_after"], 0.0);
    assert_eq!(last["verdict"], "blunder");
    // Black had a win (an open four) and lost instead: named as missed, and proved.
    assert_eq!(last["missed_win"]["winner"], "black");
    turning_point_is_where_the_win_was_decided(&doc);
}

/// Every shipped game in `games/`, each reviewed with `args` (JSON, one thread a search),
/// the reviews run at once.
fn review_shipped_games(args: &[&str]) -> Vec<(String, Value)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    let mut paths: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    paths.sort();
    assert!(paths.len() >= 10, "{paths:?}");
    std::thread::scope(|s| {
        let reviews: Vec<_> = paths
            .iter()
            .map(|path| {
                s.spawn(move || {
                    let mut all = vec![path.as_str()];
                    all.extend_from_slice(args);
                    review(&all)
                })
            })
            .collect();
        paths
            .iter()
            .zip(reviews)
            .map(|(path, r)| (path.clone(), r.join().unwrap()))
            .collect()
    })
}

/// A review that adds up (issue 59, item 3): the move played is never graded below best when
/// it is the best move, never scores above it, never "allowed a win" when it was the best
/// move; a move that let a win go is followed by the winner's proved win; the decided tail is
/// the last records, each the winner's proved winning move or the loser's move from a lost
/// position. What the searches could not reconcile says so.
fn adds_up(game: &str, doc: &Value) {
    grades_follow_the_losses(doc);
    turning_point_is_where_the_win_was_decided(doc);
    let all = records(doc);
    let mate = tengen::analyze::eval::MATE_BOUND as i64;
    for (i, r) in all.iter().enumerate() {
        let what = format!("{game}, move {}: {r}", r["number"]);
        let best = r["played"] == r["best"];
        if best {
            assert_eq!(r["verdict"], "best", "{what}");
            assert!(r.get("allowed_win").is_none(), "{what}");
            assert!(r.get("missed_win").is_none(), "{what}");
        }
        let (played, top) = (r["played_score"].as_i64(), r["best_score"].as_i64());
        assert!(played <= top, "{what}");
        let before = r["win_before"].as_f64().unwrap();
        assert!(r["win_after"].as_f64().unwrap() <= before, "{what}");
        if let Some(note) = r.get("note") {
            assert!(
                note.as_str().unwrap().starts_with("search disagrees: "),
                "{what}"
            );
        }
        if r.get("missed_win").is_some() {
            assert_eq!(before, 100.0, "{what}");
        }
        let Some(next) = all.get(i + 1) else { continue };
        if let Some(w) = r.get("allowed_win") {
            assert_eq!(w["winner"], next["side"], "{what}");
            assert_eq!(next["win_before"], 100.0, "{what} then {next}");
        }
        // A move proved winning leaves the opponent lost before its next move.
        let agreed = r.get("note").is_none() && next.get("note").is_none();
        if agreed && played.unwrap() > mate {
            assert_eq!(next["win_before"], 0.0, "{what} then {next}");
        }
    }
    let in_tail: Vec<u64> = all
        .iter()
        .filter(|r| r["decided"] == true)
        .map(|r| r["number"].as_u64().unwrap())
        .collect();
    let Some(tail) = doc.get("decided") else {
        assert!(in_tail.is_empty(), "{game}: {in_tail:?}");
        return;
    };
    let (from, to) = (tail["from"].as_u64().unwrap(), tail["to"].as_u64().unwrap());
    assert_eq!(in_tail, (from..=to).collect::<Vec<_>>(), "{game}");
    assert_eq!(to, all.last().unwrap()["number"], "{game}");
    assert!(to > from, "{game}: a tail of one move is not collapsed");
    for r in all.iter().filter(|r| r["decided"] == true) {
        let what = format!("{game}, move {}: {r}", r["number"]);
        if r["side"] == tail["winner"] {
            assert_eq!(r["verdict"], "best", "{what}");
            assert_eq!(r["win_before"], 100.0, "{what}");
            assert_eq!(r["win_after"], 100.0, "{what}");
        } else {
            assert_eq!(r["win_before"], 0.0, "{what}");
        }
    }
}

#[test]
fn every_shipped_game_adds_up_at_depth_6() {
    // `--jobs 3` splits the longest game; a depth-bound review is deterministic for a given
    // split.
    for (game, doc) in review_shipped_games(&["--depth", "6", "--jobs", "3"]) {
        adds_up(&game, &doc);
        assert_eq!(records(&doc).len(), doc["moves"].as_array().unwrap().len());
    }
}

#[test]
fn every_shipped_game_adds_up_at_the_default_second() {
    // Timing-based searches differ from run to run and under load: the reconciliation makes
    // these hold whatever each search reached.
    for (game, doc) in review_shipped_games(&[]) {
        adds_up(&game, &doc);
    }
}

#[test]
fn a_proved_win_played_out_is_one_line_in_text_and_kept_whole_in_json() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/freestyle-10.sgf");
    let doc = review(&[path, "--depth", "3"]);
    adds_up(path, &doc);
    let tail = &doc["decided"];
    assert_eq!(tail["winner"], "black", "{doc}");
    let (from, to) = (tail["from"].as_u64().unwrap(), tail["to"].as_u64().unwrap());
    assert_eq!(to, 35);
    assert_eq!(records(&doc).len(), 35, "JSON keeps every record");
    let (code, out, err) = run(&[
        "review",
        path,
        "--depth",
        "3",
        "--threads",
        "1",
        "--color",
        "never",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("\nmoves {from}–{to}: black's proved win\n")),
        "{out}"
    );
    // A row for each move before the tail, none after it.
    for k in 1..=to {
        let row = format!("\n{k:>4}  ");
        assert_eq!(out.contains(&row), k < from, "move {k}: {out}");
    }
    // The picture: the graph, a board for each mistake or blunder before the tail, the tail's
    // line; stones numbered only when asked.
    let shown = records(&doc)
        .iter()
        .filter(|r| r["decided"] == false)
        .filter(|r| ["mistake", "blunder"].contains(&r["verdict"].as_str().unwrap()))
        .count();
    let picture = |more: &[&str]| {
        let mut args = vec!["review", path, "--depth", "3", "--threads", "1"];
        args.extend_from_slice(&["--format", "svg"]);
        args.extend_from_slice(more);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let plain = picture(&[]);
    assert_eq!(
        plain.matches("<g transform").count(),
        1 + shown + 1,
        "{plain}"
    );
    // A stone's number is drawn as strokes of class "number".
    let number = r#"class="number""#;
    assert!(!plain.contains(number), "numbers without --numbers");
    assert!(picture(&["--numbers"]).contains(number));
}
