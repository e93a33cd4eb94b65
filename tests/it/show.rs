//! `tengen show`: diagrams, colour, JSON.

use tengen::report::json;

use crate::{run, run_stdin, tengen};

#[test]
fn shows_a_move_list_as_a_diagram() {
    let (code, out, err) = run(&["show", "h8 i9 j10"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0].trim(), "a b c d e f g h i j k l m n o");
    assert_eq!(lines[6], "10 . . . . . . . . . X . . . . . 10");
    assert_eq!(lines[7], " 9 . . . . . . . . o . . . . . . 9");
    assert_eq!(lines[8], " 8 . . . . . . . x . . . . . . . 8");
    assert!(out.contains("white to move"));
    assert!(!out.contains('\x1b'), "piped output is not coloured");
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let (_, out, _) = run(&["show", "h8", "--color", "always"]);
    assert!(out.contains('\x1b'), "--color always colours");
    let (_, out, _) = run(&["show", "h8", "--color", "never"]);
    assert!(!out.contains('\x1b'));
    let out = tengen()
        .args(["show", "h8"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
    let (_, out, _) = run(&["show", "h8", "--format", "json", "--color", "always"]);
    assert!(!out.contains('\x1b'), "JSON is never coloured");
}

#[test]
fn json_has_the_documented_fields() {
    let (code, out, _) = run(&["show", "H8,I9,J10", "--rule", "renju", "--format", "json"]);
    assert_eq!(code, 0);
    let doc: json::Position = serde_json::from_str(&out).expect("JSON matches the documented type");
    assert_eq!(doc.size, 15);
    assert_eq!(doc.rule, tengen::Rule::Renju);
    assert_eq!(doc.to_move, tengen::Color::White);
    let texts = |ps: &[tengen::Point]| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    assert_eq!(texts(&doc.black), ["h8", "j10"]);
    assert_eq!(texts(&doc.white), ["i9"]);
    assert_eq!(texts(doc.moves.as_deref().unwrap()), ["h8", "i9", "j10"]);
    assert_eq!(doc.last_move.unwrap().to_string(), "j10");
}

#[test]
fn show_output_reads_back_as_the_same_position() {
    let (_, text, _) = run(&["show", "h8 i9 j10 k11 a1", "--size", "17"]);
    let (code, again, err) = run_stdin(&["show", "-", "--format", "json"], &text);
    assert_eq!(code, 0, "{err}");
    let doc: json::Position = serde_json::from_str(&again).unwrap();
    assert_eq!(doc.size, 17);
    assert_eq!(doc.black.len(), 3);
    assert_eq!(doc.to_move, tengen::Color::White);
}

#[test]
fn reads_standard_input_and_gomocalc_urls() {
    let (code, out, _) = run_stdin(&["show", "-", "--format", "json"], "h8 h7 i9\n");
    assert_eq!(code, 0);
    let doc: json::Position = serde_json::from_str(&out).unwrap();
    assert_eq!(doc.white[0].to_string(), "h7");
    let (code, out, _) = run(&["show", "https://gomocalc.com/#/h8h7i9", "--format", "json"]);
    assert_eq!(code, 0);
    let url: json::Position = serde_json::from_str(&out).unwrap();
    assert_eq!(url, doc);
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["show", "h8", "--size", "22"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(status.code() == Some(0), "{status:?} {err}");
}
