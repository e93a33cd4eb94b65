//! Every input format parses through the binary, and `convert` writes each one.

use tengen::report::json;

use crate::{run, run_stdin};

fn position(args: &[&str], stdin: &str) -> json::Position {
    let mut all = vec!["show", "-", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run_stdin(&all, stdin);
    assert_eq!(code, 0, "{stdin:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn texts(ps: &[tengen::Point]) -> Vec<String> {
    ps.iter().map(|p| p.to_string()).collect()
}

#[test]
fn diagrams_with_and_without_labels() {
    let plain = position(&[], "x....\n.o...\n.....\n.....\n.....\n");
    assert_eq!(
        (plain.size, texts(&plain.black), texts(&plain.white)),
        (5, vec!["a5".into()], vec!["b4".into()])
    );
    assert_eq!(
        plain.to_move,
        tengen::Color::Black,
        "equal counts: black to move"
    );
    let unicode = position(
        &[],
        "  A B C D E\n5 ● · · · · 5\n4 · ○ · · · 4\n3 · · · · · 3\n2 · · · · · 2\n1 · · · · · 1\n  A B C D E\n",
    );
    assert_eq!(
        (unicode.black, unicode.white),
        (plain.black.clone(), plain.white.clone())
    );
    let partial = position(
        &["--size", "15"],
        "   a b c d e f g h i j k l m n o\n 9 . . . . . . . o . . . . . . .\n 8 . . . . . . . x . . . . . . .\nblack to move\n",
    );
    assert_eq!(
        (partial.size, texts(&partial.black), texts(&partial.white)),
        (15, vec!["h8".into()], vec!["h9".into()])
    );
    assert_eq!(partial.to_move, tengen::Color::Black);
}

#[test]
fn psq_rows_count_from_the_top() {
    let p = position(
        &[],
        "Piskvorky 15x15, 11:11, 0\n8,8,1000\n9,7,500\n1,1,0\n-1\npbrain-engine.exe\n",
    );
    assert_eq!(texts(p.moves.as_deref().unwrap()), ["h8", "i9", "a15"]);
    let big = position(&[], "Piskvorky 20x20, 11:11, 0\n1,20,0\n");
    assert_eq!((big.size, texts(&big.black)), (20, vec!["a1".to_string()]));
}

#[test]
fn puzzle_files_with_boards_and_ids() {
    let file = "# composed\nid: one\nrule: standard\nsize: 7\nboard:\n  a b c d e f g\n7 . . . . . . . 7\n6 . . . . . . . 6\n5 . . . . . . . 5\n4 . . . x . . . 4\n3 . . . . o . . 3\n2 . . . . . . . 2\n1 . . . . . . . 1\nto-move: black\n\nid: two\nrule: renju\nmoves: h8 i9\n";
    let one = position(&["--id", "one"], file);
    assert_eq!(
        (one.size, one.rule, texts(&one.black)),
        (7, tengen::Rule::Standard, vec!["d4".into()])
    );
    assert_eq!(one.to_move, tengen::Color::Black);
    assert_eq!(one.id.as_deref(), Some("one"));
    let two = position(&["--id", "two", "--rule", "freestyle"], file);
    assert_eq!(
        two.rule,
        tengen::Rule::Freestyle,
        "--rule overrides the file"
    );
    assert_eq!(two.to_move, tengen::Color::Black);
}

#[test]
fn convert_writes_every_format() {
    let (code, out, _) = run(&["convert", "h8 i9 j10", "--to", "moves"]);
    assert_eq!((code, out.as_str()), (0, "h8 i9 j10\n"));
    let (_, out, _) = run(&["convert", "h8 i9 j10", "--to", "psq"]);
    assert_eq!(out, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n10,6,0\n");
    let (_, out, _) = run(&["convert", "h8 i9 j10", "--to", "puzzle", "--rule", "renju"]);
    assert_eq!(
        out,
        "id: position\nrule: renju\nsize: 15\nmoves: h8 i9 j10\nto-move: white\n"
    );
    let (_, out, _) = run(&["convert", "a1 b2", "--to", "diagram", "--size", "5"]);
    assert_eq!(
        out,
        "   a b c d e\n 5 . . . . . 5\n 4 . . . . . 4\n 3 . . . . . 3\n 2 . o . . . 2\n 1 x . . . . 1\n   a b c d e\nblack to move\n"
    );
}

#[test]
fn convert_to_a_file_is_atomic_and_never_overwrites_unasked() {
    let dir = std::env::temp_dir().join(format!("tengen-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.psq");
    let p = path.to_str().unwrap();
    let (code, _, err) = run(&["convert", "h8 i9", "--to", "psq", "-o", p]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&path).unwrap().contains("9,7,0"));
    let (code, _, err) = run(&["convert", "h8", "--to", "psq", "-o", p]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    assert!(
        std::fs::read_to_string(&path).unwrap().contains("9,7,0"),
        "the file is untouched"
    );
    let (code, _, _) = run(&["convert", "h8", "--to", "psq", "-o", p, "--force"]);
    assert_eq!(code, 0);
    assert!(!std::fs::read_to_string(&path).unwrap().contains("9,7,0"));
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file is left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_without_a_game_order_are_refused_as_moves() {
    let diagram = "x....\nx....\nx....\n.....\n.....\nwhite to move\n";
    let (code, _, err) = run_stdin(&["convert", "-", "--to", "moves"], diagram);
    assert_eq!(code, 2);
    assert!(err.contains("cannot come from a game"), "{err}");
    let (code, out, _) = run_stdin(&["convert", "-", "--to", "puzzle"], diagram);
    assert_eq!(code, 0);
    assert!(
        out.contains("black: a5 a4 a3\nwhite:\nto-move: white\n"),
        "{out}"
    );
}

/// What `show ARGS --format json` says the position is: size, rule, side to move, stones,
/// and the game record.
fn what_position(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    all.extend(["--format", "json"]);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys = ["size", "rule", "to_move", "black", "white", "moves"];
    keys.iter().map(|k| (k.to_string(), v[k].clone())).collect()
}

#[test]
fn a_gomocalc_link_reads_back_to_the_same_position() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut cases: Vec<Vec<String>> = Vec::new();
    for game in std::fs::read_dir(format!("{root}/games")).unwrap() {
        let path = game.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            continue;
        }
        // The rule is in no link (and in no .psq): the game's name says it.
        let rule = name.split('-').next().unwrap().to_string();
        cases.push(vec![
            path.to_string_lossy().into_owned(),
            "--rule".into(),
            rule,
        ]);
    }
    for file in ["midgame.txt", "vcf.txt", "examples.txt", "small-boards.txt"] {
        let path = format!("{root}/puzzles/{file}");
        for id in crate::ids(std::path::Path::new(&path)) {
            cases.push(vec![path.clone(), "--id".into(), id]);
        }
    }
    let (mut read_back, mut composed, mut refused) = (0, 0, 0);
    for case in &cases {
        let args: Vec<&str> = case.iter().map(String::as_str).collect();
        let original = what_position(&args);
        let mut convert = vec!["convert"];
        convert.extend_from_slice(&args);
        let (code, url, err) = run(&[&convert[..], &["--to", "url"]].concat());
        if original["size"] != 15 {
            assert_eq!(code, 2, "{case:?}");
            assert!(
                err.contains("carries no board size and opens on 15x15"),
                "{err}"
            );
            refused += 1;
            continue;
        }
        let (moves_code, _, _) = run(&[&convert[..], &["--to", "moves"]].concat());
        if moves_code != 0 {
            // No game reaches these stones: no move list, so no link either.
            assert_eq!(code, 2, "{case:?}: {url}");
            assert!(
                err.contains("cannot write a Gomoku Calculator URL"),
                "{err}"
            );
            continue;
        }
        assert_eq!(code, 0, "{case:?}: {err}");
        let url = url.trim_end_matches('\n');
        assert!(
            url.starts_with("https://gomocalc.com/#/") && !url.contains(char::is_whitespace),
            "{url}"
        );
        let rule = original["rule"].as_str().unwrap();
        let back = what_position(&[url, "--rule", rule]);
        for key in ["size", "rule", "to_move", "black", "white"] {
            assert_eq!(back[key], original[key], "{case:?}: {key} of {url}");
        }
        if original["moves"].is_null() {
            composed += 1;
        } else {
            assert_eq!(back["moves"], original["moves"], "{case:?}: {url}");
        }
        read_back += 1;
    }
    assert!(
        read_back >= 20 && composed >= 3 && refused >= 3,
        "{read_back} {composed} {refused}"
    );
}

#[test]
fn a_link_needs_stones_and_a_game_order() {
    let empty = format!("{}\n", ".".repeat(15)).repeat(15);
    let (code, _, err) = run_stdin(&["convert", "-", "--to", "url"], &empty);
    assert_eq!(code, 2);
    assert!(err.contains("the empty board has no move list"), "{err}");
    // Three black stones and none of white's: no game, so no move list to link.
    let three = format!("x{}\n", ".".repeat(14)).repeat(3) + &empty[..16 * 12] + "white to move\n";
    let (code, _, err) = run_stdin(&["convert", "-", "--to", "url"], &three);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot write a Gomoku Calculator URL") && err.contains("game"),
        "{err}"
    );
    let (code, out, err) = run(&["convert", "H8, I9, J10", "--to", "url"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "https://gomocalc.com/#/h8i9j10\n"),
        "{err}"
    );
}
