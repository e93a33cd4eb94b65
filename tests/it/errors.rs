//! Bad input: every class exits 2 with a message naming the place (line and column) and what
//! was wrong — and nothing panics.

use crate::{run, run_stdin};

/// Runs `show` on `input` (from standard input when it has a newline) and checks exit code 2,
/// the `line:column` and a phrase in the message.
fn fails(args: &[&str], input: &str, loc: &str, phrase: &str) {
    fails_in("show", args, input, loc, phrase);
}

/// [`fails`] with another command.
fn fails_in(command: &str, args: &[&str], input: &str, loc: &str, phrase: &str) {
    let mut all = vec![command];
    let (code, _, err) = if input.contains('\n') {
        all.push("-");
        all.extend_from_slice(args);
        run_stdin(&all, input)
    } else {
        all.push(input);
        all.extend_from_slice(args);
        run(&all)
    };
    assert_eq!(code, 2, "{input:?}: {err}");
    assert!(
        err.contains(&format!(":{loc}: ")),
        "{input:?} should fail at {loc}: {err}"
    );
    assert!(
        err.contains(phrase),
        "{input:?} should say {phrase:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn off_board_points_point_at_their_column() {
    fails(&[], "h8 z99", "1:4", "off the 15x15 board");
    fails(&["--size", "9"], "h8 j9", "1:4", "off the 9x9 board");
    fails(&[], "h8\nh16\n", "2:1", "off the 15x15 board");
}

#[test]
fn a_point_played_twice_is_taken() {
    fails(&[], "h8 h8", "1:4", "already taken");
    fails(&[], "h8 i9 H8", "1:7", "already taken");
}

#[test]
fn a_game_already_won_is_refused() {
    fails(&[], "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5", "1:28", "already over");
    // The caret is at the five: the move that completed it, or a board's first stone of it. A
    // record that ends in it is a finished game, which `show` draws; `analyze` needs a side to
    // move and refuses it.
    fails_in(
        "analyze",
        &[],
        "a1 b1 a2 b2 a3 b3 a4 b4 a5",
        "1:25",
        "already won",
    );
    let diagram = ".....\n.....\n.....\n.....\nxxxxx\nwhite to move\n";
    fails(&[], diagram, "5:1", "already won");
}

#[test]
fn a_side_to_move_the_stones_cannot_tell() {
    let diagram = "x....\nx....\nx....\n.....\n.....\n";
    fails(&[], diagram, "1:1", "cannot tell whose move");
    let (code, _, err) = run_stdin(&["show", "-", "--to-move", "white"], diagram);
    assert_eq!(code, 0, "a stated side accepts any counts: {err}");
}

#[test]
fn syntax_errors_say_what_was_expected() {
    fails(&[], "h8 i", "1:5", "expected a row number");
    fails(&[], "h8 !!", "1:4", "expected a move like h8");
    fails(
        &[],
        ".....\n..q..\n.....\n.....\n.....\n",
        "2:3",
        "expected a board cell",
    );
    fails(&[], ".....\n....\n.....\n.....\n.....\n", "2:1", "4 cells");
    fails(
        &[],
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9 7\n",
        "3:3",
        "expected ','",
    );
    fails(
        &[],
        "Piskvorky 15x15, 11:11, 0\n8,16,0\n",
        "2:1",
        "off the 15x15 board",
    );
    fails(
        &[],
        "id: a\nmoves: h8\ncolour: red\n",
        "3:1",
        "unknown key 'colour'",
    );
    fails(
        &[],
        "id: a\nmoves: h8\n\nid: a\nmoves: h9\n",
        "4:1",
        "used twice",
    );
    fails(
        &[],
        "id: a\nrule: gomoku-ish\nmoves: h8\n",
        "2:7",
        "bad value for 'rule'",
    );
    fails(&[], "id: a\nsize: 30\nmoves: h8\n", "2:7", "out of range");
    fails(
        &["--input-format", "moves"],
        "h8 i9\nj10 k\n",
        "2:6",
        "row number",
    );
}

#[test]
fn usage_errors_exit_2() {
    let (code, _, err) = run(&["show", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such file: no/such/file.txt"), "{err}");
    let (code, _, err) = run(&["show", "h8", "--id", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("--id"), "{err}");
    let (code, _, _) = run(&["show", "h8", "--size", "4"]);
    assert_eq!(code, 2, "clap rejects sizes out of range");
    let (code, _, err) = run_stdin(
        &["show", "-", "--size", "15"],
        "Piskvorky 20x20, 0\n1,1,0\n",
    );
    assert_eq!(code, 2);
    assert!(err.contains("--size 15"), "{err}");
    let (code, _, err) = run_stdin(&["show", "-"], "id: a\nmoves: h8\n\nid: b\nmoves: h9\n");
    assert_eq!(code, 2);
    assert!(err.contains("pick one with --id"), "{err}");
}

/// Issue 8: one ranged `--hash-mb` for `solve` and `bench`; a value out of range is a clear
/// error with exit 2, and a value in range that cannot be had is an error too, never an abort.
#[test]
fn hash_mb_out_of_range_is_an_error_not_an_abort() {
    for command in ["solve", "bench"] {
        for value in ["0", "99999999999", "65537"] {
            let mut args = vec![command];
            if command == "solve" {
                args.extend(["--vcf", "h8"]);
            } else {
                args.push(crate::EXAMPLES);
            }
            args.extend(["--hash-mb", value]);
            let (code, _, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains("--hash-mb"), "{args:?}: {err}");
        }
    }
    // The largest value in range: the tables are either had (their pages arrive only when
    // touched) or refused with a message; the process is never killed by an abort.
    let (code, out, err) = run(&["solve", "--vct", "h8", "--hash-mb", "65536"]);
    assert!(code == 0 || code == 2, "{code}: {err}");
    if code == 2 {
        assert!(
            err.contains("cannot allocate") && err.contains("--hash-mb"),
            "{err}"
        );
    } else {
        assert!(out.contains("no VCT win"), "{out}");
    }
}

#[test]
fn a_word_that_is_no_file_and_no_move_list_is_a_missing_file() {
    for word in ["nosuch", "game1", "Mygame", "x"] {
        let (code, out, err) = run(&["analyze", word, "--depth", "1"]);
        assert_eq!(code, 2, "{word}: {out}");
        assert_eq!(
            err.lines().next().unwrap_or(""),
            format!(
                "error: no such file: {word}, nor is it a move list (moves are a column letter \
                 and a row, like h8 i9)"
            ),
            "{word}"
        );
    }
    for name in ["nosuch.txt", "games/nosuch"] {
        let (code, _, err) = run(&["show", name]);
        assert_eq!(code, 2);
        assert_eq!(err.trim_end(), format!("error: no such file: {name}"));
    }
    // Move lists, one word or several, and links are still moves; a typo after the first
    // move is a move list's error, pointing at it.
    for moves in [
        "h8 i9 j10",
        "h8i9j10",
        "H8,I9",
        "h8",
        "https://gomocalc.com/#/h8i9",
    ] {
        let (code, _, err) = run(&["show", moves]);
        assert_eq!(code, 0, "{moves}: {err}");
    }
    let (code, _, err) = run(&["show", "h8i9z"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("<argument>:1:6") && err.contains("row number"),
        "{err}"
    );
    // A file of that name is read, whatever it looks like.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nosuch"), "h8 i9\n").unwrap();
    let out = crate::tengen()
        .current_dir(dir.path())
        .args(["show", "nosuch", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"i9\""));
}

#[test]
fn every_duration_takes_seconds_and_refuses_what_is_out_of_range() {
    let vcf = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vcf.txt");
    let commands: [&[&str]; 4] = [
        &["analyze", "h8", "--depth", "1"],
        &["solve", "--vcf", vcf, "--id", "tengen/vcf-freestyle-1"],
        &["review", "h8 i9 j10", "--depth", "1"],
        &["check", vcf],
    ];
    for command in commands {
        for (time, why) in [
            (
                "100000000000000s",
                "out of range: a duration is from 1ms to 7days",
            ),
            ("8days", "out of range: a duration is from 1ms to 7days"),
            ("0", "out of range: a duration is from 1ms to 7days"),
            (
                "soon",
                "expected a duration such as 500ms, 10s, 2m or a number of seconds",
            ),
        ] {
            let (code, out, err) = run(&[command, &["--time", time]].concat());
            assert_eq!(code, 2, "{command:?} --time {time}: {out}");
            assert!(
                err.contains(&format!(
                    "invalid value '{time}' for '--time <TIME>': {why}"
                )),
                "{command:?} --time {time}: {err}"
            );
        }
        for time in ["3", "2.5", "1.5s", "3s"] {
            let (code, _, err) = run(&[command, &["--time", time]].concat());
            assert_eq!(code, 0, "{command:?} --time {time}: {err}");
        }
    }
    // The limit a bare number sets is the one the report states.
    let (code, out, err) = run(&["analyze", "h8 i9", "--time", "0.3", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("time limit 300ms"), "{out}");
}
