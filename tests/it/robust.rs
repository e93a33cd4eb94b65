//! Hostile and unusual input read as a user gives it: a huge line, an input over the size limit,
//! a junk line in a `.psq`, a diagram without empty points, tengen's own marked diagrams read
//! back, and rule names. Every failure exits 2 with a short, located message.

use std::io::Write;

use serde_json::Value;

use crate::{run, run_stdin};

/// Writes `text` to a temporary file named `name`.
fn file(name: &str, text: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text)
        .unwrap();
    (dir, path.to_string_lossy().into_owned())
}

/// Stones and side to move of a position as `show --format json` gives them.
fn stones(args: &[&str], stdin: &str) -> (Value, Value, Value) {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    all.extend(["--format", "json"]);
    let (code, out, err) = run_stdin(&all, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    (v["black"].clone(), v["white"].clone(), v["to_move"].clone())
}

/// A 10 MB move list on one line with a bad token at column 76: the error names the column at
/// once and prints a short snippet of the line, not the line.
#[test]
fn a_huge_line_fails_at_its_first_bad_token_with_a_short_snippet() {
    let mut text =
        String::from("h8 h9 i9 j10 i8 g9 j7 g7 g8 f8 f6 e5 j8 k9 i10 i11 g10 f11 e11 d10 ");
    text.push_str(&" ".repeat(74 - text.len()));
    text.push_str("h!");
    while text.len() < 10_000_000 {
        text.push_str(" a1 b2 c3 d4 e5 f6 g7");
    }
    let (_dir, path) = file("long.txt", text.as_bytes());
    let (code, _, err) = run(&["show", &path]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("long.txt:1:76: "),
        "{}",
        &err[..err.len().min(300)]
    );
    assert!(err.contains("row number"), "{err}");
    assert!(err.len() < 1024, "the error output is {} bytes", err.len());
    assert!(err.contains('…'), "a cut line is marked: {err}");
}

/// A long line whose error is in the position, not the syntax (a move after the game is won):
/// the whole line is read, and the snippet is still short and points at the move.
#[test]
fn a_position_error_in_a_long_line_is_short() {
    let cols = "abcdefghijklmno";
    let mut moves = Vec::new();
    for c in cols.chars() {
        for r in 1..=15 {
            moves.push(format!("{c}{r}"));
        }
    }
    let text = moves.join(" ").repeat(2000);
    let (_dir, path) = file("game.txt", text.as_bytes());
    let (code, _, err) = run(&["show", &path]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("game.txt:1:208: "), "{err}");
    assert!(err.contains("already over"), "{err}");
    assert!(err.len() < 1024, "the error output is {} bytes", err.len());
    // The caret sits under the move the message names (e2).
    let lines: Vec<&str> = err.lines().collect();
    let caret = lines[3].chars().position(|c| c == '^').unwrap();
    let shown: String = lines[2].chars().skip(caret).take(2).collect();
    assert_eq!(shown, "e2", "{err}");
}

/// Over the 64 MiB input limit: refused with a clear message before it is read.
#[test]
fn an_input_over_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len((64 << 20) + 1).unwrap();
    let (code, _, err) = run(&["show", &path.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than 64 MiB"), "{err}");
    // Exactly at the limit it is read (and then refused for what it holds, not its size).
    f.set_len(64 << 20).unwrap();
    let (code, _, err) = run(&["show", &path.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("larger than"), "{err}");
}

/// A junk line among a `.psq` file's moves is an error at its line, not the silent start of the
/// trailer; the trailer after the last move is still skipped.
#[test]
fn a_junk_line_among_psq_moves_is_an_error() {
    let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\noops\n9,8,0\n-1\npbrain-x.exe\n";
    let (_dir, path) = file("game.psq", text.as_bytes());
    let (code, _, err) = run(&["show", &path]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("game.psq:4:1: "), "{err}");
    assert!(err.contains("move line"), "{err}");
    // Without the junk line, all three moves are read and the trailer skipped.
    let text = text.replace("oops\n", "");
    let (_dir, path) = file("game.psq", text.as_bytes());
    let (black, white, to_move) = stones(&[&path], "");
    assert_eq!(black, serde_json::json!(["h8", "i8"]));
    assert_eq!(white, serde_json::json!(["i7"]));
    assert_eq!(to_move, "white");
}

/// A full 5x5 board, with and without labels, has no empty point and is still a diagram.
#[test]
fn a_diagram_without_empty_points_is_a_diagram() {
    let rows = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"];
    let (black, white, to_move) = stones(&["-"], &(rows.join("\n") + "\n"));
    assert_eq!(black.as_array().unwrap().len(), 13);
    assert_eq!(white.as_array().unwrap().len(), 12);
    assert_eq!(to_move, "white");
    let labelled: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let n = 5 - k;
            let cells: Vec<String> = r.chars().map(String::from).collect();
            format!("{n} {} {n}", cells.join(" "))
        })
        .collect();
    let again = stones(&["-"], &(labelled.join("\n") + "\n"));
    assert_eq!(again, (black, white, to_move));
    // Cell letters with row numbers are still a move list.
    let (black, white, _) = stones(&["o1 o2 o3 o4"], "");
    assert_eq!(black, serde_json::json!(["o1", "o3"]));
    assert_eq!(white, serde_json::json!(["o2", "o4"]));
}

/// The diagram lines of `analyze --heatmap` (numbers on empty points) and of `forbidden` (`#`
/// marks) read back as the position they show.
#[test]
fn marked_diagrams_read_back() {
    let game = "h8 h9 i9 j10 i8 g9 j7 g7 g8 f8 f6 e5";
    let want = stones(&[game], "");
    for args in [
        vec![
            "analyze",
            game,
            "--depth",
            "2",
            "--heatmap",
            "--color",
            "never",
        ],
        vec!["analyze", game, "--depth", "2", "--color", "never"],
        vec!["forbidden", game, "--rule", "renju", "--color", "never"],
        vec![
            "show",
            game,
            "--rule",
            "renju",
            "--forbidden",
            "--color",
            "never",
        ],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        // The diagram is the part up to the side-to-move line.
        let end = out.find(" to move\n").unwrap() + " to move\n".len();
        let diagram = &out[..end];
        assert!(
            diagram.contains(['#', '1']),
            "{args:?}: the diagram is marked:\n{diagram}"
        );
        assert_eq!(stones(&["-"], diagram), want, "{args:?}:\n{diagram}");
    }
}

/// Rule names: the three names (in any case in a puzzle file); `gomoku` is refused as
/// ambiguous, on the command line and in a puzzle file (with its line and column).
#[test]
fn rule_names_are_the_documented_ones() {
    for name in ["freestyle", "standard", "renju"] {
        let (code, _, err) = run(&["show", "h8", "--rule", name]);
        assert_eq!(code, 0, "{name}: {err}");
    }
    for (name, rule) in [("Standard", "standard"), ("RENJU", "renju")] {
        let text = format!("id: p\nrule: {name}\nmoves: h8\n");
        let (code, out, err) = run_stdin(&["show", "-", "--format", "json"], &text);
        assert_eq!(code, 0, "{name}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["rule"], rule);
    }
    let (code, _, err) = run(&["show", "h8", "--rule", "gomoku"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("freestyle") && err.contains("standard"),
        "{err}"
    );
    let (code, _, err) = run_stdin(&["show", "-"], "id: p\nrule: gomoku\nmoves: h8\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("<stdin>:2:7: "), "{err}");
    assert!(
        err.contains("expected freestyle, standard or renju, found 'gomoku'"),
        "{err}"
    );
}

/// `count` trivial puzzles: black has an open four on row `r` and wins at its right end.
fn trivial_puzzles(count: usize) -> String {
    let cols = b"abcdefghijklmno";
    let mut out = String::new();
    for i in 0..count {
        let (c, r) = (i % 10, 3 + i % 11);
        let at = |k: usize, row: usize| format!("{}{row}", cols[c + k] as char);
        let moves: Vec<String> = (0..4)
            .flat_map(|k| [at(k, r), if k < 3 { at(k, r + 2) } else { "a1".into() }])
            .collect();
        out.push_str(&format!(
            "id: t{i}\nrule: freestyle\nmoves: {}\nanswer: {}\nkind: vcf\n\n",
            moves.join(" "),
            at(4, r)
        ));
    }
    out
}

/// A file of many small puzzles streams through `bench`, `check` and `show --id`: every case
/// runs and passes, and the last puzzle is found.
#[test]
fn many_small_puzzles_run_through() {
    let n = 3000;
    let (_dir, path) = file("many.txt", trivial_puzzles(n).as_bytes());
    let (code, out, err) = run(&["bench", &path, "--mode", "vcf"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("{n} cases, 0 mismatches")), "{out}");
    let (code, out, err) = run(&["check", &path, "--jobs", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("{n} puzzles: {n} passed")), "{out}");
    let last = format!("t{}", n - 1);
    let (code, out, err) = run(&["show", &path, "--id", &last, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("\"id\": \"{last}\"")), "{out}");
}

/// `bench` reads puzzles one at a time: a bad puzzle late in the file stops it there with the
/// error's line and exit 2, after the cases before it ran.
#[test]
fn bench_stops_at_a_bad_puzzle_in_place() {
    let mut text = trivial_puzzles(5);
    text.push_str("id: bad\nmoves: h8 h8\nkind: vcf\n");
    let (_dir, path) = file("bad.txt", text.as_bytes());
    let (code, out, err) = run(&["bench", &path]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("t4 "), "the cases before it ran: {out}");
    assert!(err.contains("bad.txt:32:11: "), "{err}");
}

/// Verification time is reported on its own, in text and JSON, and output piped away from a
/// terminal carries no progress display: standard error stays empty.
#[test]
fn verification_time_is_reported_and_piped_output_is_clean() {
    let vct = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vct.txt");
    let (code, out, err) = run(&[
        "solve",
        "--vct",
        vct,
        "--id",
        "tengen/vct-renju-1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "stderr: {err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"], "win", "{out}");
    assert!(v["verify_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{out}");
    assert!(v["elapsed_ms"].as_f64().is_some(), "{out}");
    let (code, out, err) = run(&["solve", "--vct", vct, "--id", "tengen/vct-renju-1"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "stderr: {err}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("nodes ") && last.contains(" · search ") && last.contains(" · verify "),
        "{last}"
    );
    // Without verification there is no verify time.
    let (code, out, _) = run(&[
        "solve",
        "--vct",
        vct,
        "--id",
        "tengen/vct-renju-1",
        "--no-verify",
    ]);
    assert_eq!(code, 0);
    assert!(!out.lines().last().unwrap().contains("verify"), "{out}");
    let (code, _, err) = run(&["bench", vct]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "stderr: {err}");
}

/// Runs tengen with its address space limited to `gib` GiB; returns (exit code or -1 when a
/// signal killed it, stdout, stderr).
#[cfg(target_os = "linux")]
fn run_limited(gib: u64, args: &[&str]) -> (i32, String, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"));
    cmd.args(args);
    let bytes = gib << 30;
    // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let out = cmd.output().expect("tengen runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A `--hash-mb` larger than the memory to be had never aborts: under a 2 GiB address-space
/// limit, the analyzer (which takes its table at once) exits 2 naming the size and the flag,
/// and the solvers, whose tables grow as they fill, run small searches within it (exit 0).
#[cfg(target_os = "linux")]
#[test]
fn a_huge_hash_mb_is_an_error_not_an_abort() {
    let (code, _, err) = run_limited(
        2,
        &["analyze", "h8 h9", "--depth", "2", "--hash-mb", "8192"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot allocate 4096 MB") && err.contains("--hash-mb"),
        "{err}"
    );
    for args in [
        vec!["solve", "--vct", "h8 h9 i8", "--hash-mb", "8192"],
        vec!["bench", crate::EXAMPLES, "--hash-mb", "8192"],
        vec!["check", crate::EXAMPLES, "--hash-mb", "8192", "--jobs", "2"],
    ] {
        // Their tables grow as they fill, and these searches are small: they run.
        let (code, out, err) = run_limited(2, &args);
        assert_eq!(code, 0, "{args:?}: exit {code}: {err}");
        assert!(!out.is_empty(), "{args:?}");
        assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    }
}
