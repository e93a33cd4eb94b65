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
