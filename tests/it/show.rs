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

/// Runs `tengen show` (a 22x22 diagram, about 1.5 kB) with `stdout` as its standard output;
/// returns the exit code and standard error.
fn show_into(stdout: std::process::Stdio) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["show", "h8", "--size", "22"])
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `tengen show … | head`: the reader has gone. The pipe's read end is closed before tengen
/// starts, so its write fails with a broken pipe every time (not only when it loses a race),
/// and that is not an error: exit 0, nothing on standard error. (Killed by SIGPIPE, it would
/// have no exit code.)
#[test]
fn a_closed_pipe_is_not_an_error() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let (code, err) = show_into(writer.into());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(err, "");
}

/// Any other write error is one: a full disk (`/dev/full`, ENOSPC) exits 2 and says so. This
/// is what the test above would see if tengen treated a broken pipe like other write errors.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full (Linux)");
    let (code, err) = show_into(full.into());
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: cannot write <stdout>: ") && err.contains("(os error 28)"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The `#` line under a diagram, without its ANSI escapes.
fn legend(out: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.starts_with("# rule"))
        .unwrap_or_else(|| panic!("no legend in:\n{out}"));
    let mut plain = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Issue 11: the legend named the letters but not the colours.
#[test]
fn the_plain_legend_says_what_every_mark_means() {
    let (_, out, _) = run(&["show", "h8 i9", "--color", "never"]);
    assert_eq!(
        legend(&out),
        "# rule freestyle, 15x15; x black, o white, last move i9 in capitals; rows count from the bottom (RIF)"
    );
    let renju = "e7 a1 f7 a3 g5 a5 g6 a7";
    let (_, out, _) = run(&[
        "show",
        renju,
        "--rule",
        "renju",
        "--forbidden",
        "--color",
        "never",
    ]);
    assert!(
        legend(&out)
            .ends_with("in capitals; # forbidden for black; rows count from the bottom (RIF)"),
        "{out}"
    );
    let (_, out, _) = run(&["forbidden", renju, "--rule", "renju", "--color", "never"]);
    assert!(legend(&out).contains("; # forbidden for black;"), "{out}");
    let args = [
        "analyze", renju, "--rule", "renju", "--depth", "1", "--color", "never",
    ];
    let (_, out, _) = run(&args);
    assert!(
        legend(&out)
            .contains("; numbers: the best moves for black, 1 first; # forbidden for black;"),
        "{out}"
    );
    let (_, out, _) = run(&[&args[..], &["--heatmap"]].concat());
    assert!(
        legend(&out).contains("; digits: every scored move, 9 best to 0 worst;"),
        "{out}"
    );
    // The solver's line: which numbers are whose, without colour.
    let (_, out, _) = run(&["solve", "--vcf", "h8 a1 h9 a2 h10 a3", "--color", "never"]);
    assert!(
        legend(&out).contains("; numbers: the line in order, black's moves odd, white's even;"),
        "{out}"
    );
}

#[test]
fn the_coloured_legend_names_each_colour() {
    let (_, out, _) = run(&["show", "h8 i9", "--color", "always"]);
    assert_eq!(
        legend(&out),
        "# rule freestyle, 15x15; x black (red), o white (cyan), last move i9 in capitals and reversed; rows count from the bottom (RIF)"
    );
    let renju = "e7 a1 f7 a3 g5 a5 g6 a7";
    let (_, out, _) = run(&["forbidden", renju, "--rule", "renju", "--color", "always"]);
    assert!(
        legend(&out).contains("; # forbidden for black (yellow);"),
        "{out}"
    );
    let args = [
        "analyze", renju, "--rule", "renju", "--depth", "1", "--color", "always",
    ];
    let (_, out, _) = run(&args);
    assert!(
        legend(&out)
            .contains("numbers: the best moves for black, 1 first (underlined in black's red)"),
        "{out}"
    );
    let (_, out, _) = run(&[&args[..], &["--heatmap"]].concat());
    assert!(
        legend(&out).contains(
            "digits: every scored move, 9 best to 0 worst (9-8 red, 7-6 yellow, 5-4 green, 3-2 cyan, 1-0 blue)"
        ),
        "{out}"
    );
    let args = ["solve", "--vcf", "h8 a1 h9 a2 h10 a3", "--color", "always"];
    let (_, out, _) = run(&args);
    assert!(
        legend(&out)
            .contains("numbers: the line in order, underlined: black's moves red, white's cyan"),
        "{out}"
    );
}

/// Issue 59: drawing or converting a finished game is the first thing a player does with it.
/// Every shipped game shows, pictures and converts without `--after`, and the diagram says who
/// made five where; `analyze`, which needs a side to move, still refuses the won position.
#[test]
fn every_shipped_game_shows_and_converts_to_its_end() {
    let mut games: Vec<String> = std::fs::read_dir("games")
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".sgf") || p.ends_with(".psq"))
        .collect();
    games.sort();
    assert!(games.len() >= 7, "{games:?}");
    let mut finished = 0;
    for g in &games {
        // A .psq file carries no rule.
        let renju = g.contains("renju") && g.ends_with(".psq");
        let go = |args: &[&str]| {
            let mut all = args.to_vec();
            if renju {
                all.extend(["--rule", "renju"]);
            }
            run(&all)
        };
        let (code, out, err) = go(&["show", g]);
        assert_eq!(code, 0, "show {g}: {err}");
        for to in ["moves", "sgf", "psq", "diagram"] {
            let (code, _, err) = go(&["convert", g, "--to", to]);
            assert_eq!(code, 0, "convert {g} --to {to}: {err}");
        }
        let (code, svg, err) = go(&["show", g, "--numbers", "--format", "svg"]);
        assert_eq!(code, 0, "picture of {g}: {err}");
        assert!(svg.contains("<svg"), "{g}");
        if out.contains("has five (") {
            finished += 1;
            let (code, _, err) = go(&["analyze", g, "--depth", "1"]);
            assert_eq!(code, 2, "analyze {g} of a won game: {err}");
            assert!(
                err.contains("already won") && err.contains("--after"),
                "{err}"
            );
        }
    }
    assert!(
        finished >= 3,
        "only {finished} of the shipped games end in a five"
    );
}
