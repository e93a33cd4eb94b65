//! What a new user tripped on (issue 34), through the binary: empty input, a mistyped file
//! name, a check that finds nothing, rule names in any case, the British spelling, and
//! `forbidden`'s rule.

use crate::{run, run_stdin};

/// Exit 2 and `phrase` in the message, no panic.
fn refused(args: &[&str], stdin: &str, phrase: &str) {
    let (code, out, err) = run_stdin(args, stdin);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(
        err.contains(phrase),
        "{args:?} should say {phrase:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn empty_input_is_an_error_one_way_for_all() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let blank = dir.path().join("blank.psq");
    std::fs::write(&blank, "\n  \n").unwrap();
    let empty = empty.to_str().unwrap();
    let blank = blank.to_str().unwrap();
    for cmd in [
        &["show"][..],
        &["analyze"],
        &["forbidden"],
        &["solve", "--vcf"],
    ] {
        for input in [empty, blank, "", "   ", "-"] {
            for stdin in ["", "\n\n"] {
                refused(&[cmd, &[input]].concat(), stdin, "the input is empty");
            }
        }
    }
    refused(&["show", "https://gomocalc.com/#/"], "", "has none");
    // The empty board has no move list to write; a diagram of it reads.
    let dots = ".........\n".repeat(9);
    let (code, out, err) = run_stdin(&["convert", "-", "--to", "moves"], &dots);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("the empty board has no move list"), "{err}");
    let (code, out, err) = run_stdin(&["analyze", "-", "--depth", "1"], &dots);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("e5"), "{out}");
}

#[test]
fn a_mistyped_file_name_is_a_missing_file_not_a_move_list() {
    for name in ["game.ps", "mygame.txt", "games/one", "C:\\games\\one.psq"] {
        let (code, _, err) = run(&["show", name]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(&format!("no such file: {name}")),
            "{name}: {err}"
        );
        assert!(!err.contains("row number"), "{name}: {err}");
    }
    // Moves and URLs are still moves.
    let (code, _, err) = run(&["show", "h8 i9"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["show", "https://gomocalc.com/#/h8i9"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_check_that_finds_no_puzzle_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    refused(&["check", path], "", "no file matches --glob '*.txt'");
    refused(
        &["check", "puzzles", "--glob", "*.nope"],
        "",
        "no puzzle to check in puzzles",
    );
    // A file of positions without answers holds no puzzle either.
    let positions = dir.path().join("positions.txt");
    std::fs::write(&positions, "id: a\nmoves: h8 i9\n").unwrap();
    refused(
        &["check", positions.to_str().unwrap()],
        "",
        "without `kind:` or `answer:`",
    );
}

#[test]
fn rule_names_and_other_choices_are_read_in_any_case() {
    let (code, out, err) = run(&["show", "h8 i9", "--rule", "RENJU", "--format", "JSON"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"rule\": \"renju\""), "{out}");
    let (code, out, err) = run(&["show", "h8 i9", "--rule", "Standard", "--to-move", "White"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rule standard"), "{out}");
}

#[test]
fn analyse_is_analyze() {
    let a = run(&["analyse", "h8 h9 i9", "--depth", "3", "--format", "json"]);
    let b = run(&["analyze", "h8 h9 i9", "--depth", "3", "--format", "json"]);
    assert_eq!(a.0, 0, "{}", a.2);
    let strip = |s: &str| -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        for k in ["elapsed_ms", "nps"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v["candidates"].clone()
    };
    assert_eq!(strip(&a.1), strip(&b.1));
}

#[test]
fn forbidden_judges_under_renju_unless_told_otherwise() {
    // g8 is a double three for black under renju.
    let moves = "h8 a1 f8 a15 g9 o1 g10 o15";
    let (code, out, err) = run(&["forbidden", moves]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rule renju"), "{out}");
    assert!(out.contains("g8 double three"), "{out}");
    let (code, out, _) = run(&["forbidden", moves, "--rule", "freestyle"]);
    assert_eq!(code, 0);
    assert!(out.contains("only renju forbids moves"), "{out}");
    // A puzzle file's rule still counts.
    let (code, out, err) = run_stdin(
        &["forbidden", "-"],
        &format!("id: p\nrule: standard\nmoves: {moves}\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rule standard"), "{out}");
}

/// Runs tengen with `args`, checks exit 0, and returns its output.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn an_unknown_says_which_limit_stopped_it() {
    let vct = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vct.txt");
    let mid = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/midgame.txt");
    let by_nodes = [
        "solve",
        "--vct",
        vct,
        "--id",
        "tengen/vct-freestyle-5",
        "--max-nodes",
        "20",
    ];
    let out = ok(&by_nodes);
    assert!(
        out.contains("unknown: the node budget (--max-nodes 20) ran out"),
        "{out}"
    );
    let hard = [
        "solve",
        "--vct",
        mid,
        "--id",
        "tengen/midgame-renju-4",
        "--threat-limit",
        "3",
    ];
    let out = ok(&[&hard[..], &["--time", "20ms"]].concat());
    assert!(
        out.contains("unknown: the time limit (--time 20ms) ran out after"),
        "{out}"
    );
    assert!(!out.contains("node budget"), "{out}");
    let out = ok(&[&by_nodes[..], &["--format", "json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["stopped_by"], "nodes");
}

#[test]
fn flags_that_would_do_nothing_are_refused() {
    let pos = "h8 a1 i8 a2 j8 a3";
    for (args, phrase) in [
        (
            &["--vct", "--shortest"][..],
            "'--vct' cannot be used with '--shortest'",
        ),
        (
            &["--win-in", "2", "--shortest"],
            "cannot be used with '--shortest'",
        ),
        (
            &["--vcf", "--proof"],
            "'--vcf' cannot be used with '--proof'",
        ),
        (
            &["--vcf", "--threat-limit", "1"],
            "'--vcf' cannot be used with '--threat-limit",
        ),
    ] {
        refused(&[&["solve", pos][..], args].concat(), "", phrase);
    }
    // What does work still does.
    let (code, out, err) = run(&["solve", pos, "--vcf", "--shortest"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("black wins by VCF"), "{out}");
}

/// The candidates of a JSON analysis.
fn candidates(args: &[&str]) -> Vec<serde_json::Value> {
    let (code, out, err) = run(&[&["analyze", "--format", "json"][..], args].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["candidates"].as_array().unwrap().clone()
}

#[test]
fn all_shows_every_candidate_in_text() {
    let args = ["h8 h9 i9", "--depth", "3", "--all", "--threads", "1"];
    let n = candidates(&args).len();
    assert!(n > 20, "{n} candidates");
    let (code, out, err) = run(&[&["analyze", "--color", "never"][..], &args].concat());
    assert_eq!(code, 0, "{err}");
    let rows = out
        .lines()
        .filter(|l| {
            let mut w = l.split_whitespace();
            w.next().is_some_and(|r| r.parse::<usize>().is_ok())
                && w.next().is_some_and(|m| m.parse::<tengen::Point>().is_ok())
        })
        .count();
    assert_eq!(rows, n, "{out}");
    assert!(!out.contains("more candidates scored"), "{out}");
    // Without --all, five rows and a note of the rest.
    let (_, out, _) = run(&["analyze", "h8 h9 i9", "--depth", "3", "--color", "never"]);
    assert!(
        out.contains(&format!("({} more candidates scored", n - 5)),
        "{out}"
    );
}

#[test]
fn ranks_read_top_to_bottom() {
    // A time limit leaves moves at different depths (a cut iteration, reduced late moves,
    // the pass); the order must still read top to bottom (issue 59): winning mates, exact
    // scores best first, then bounds highest first, then proved losses.
    for args in [
        &[
            "https://gomocalc.com/#/h8h7i9",
            "--time",
            "300ms",
            "--threads",
            "1",
        ][..],
        &["h8 h9 i9 j10 i8", "--time", "300ms", "--threads", "1"],
        &[
            "h8 h9 i9 j10 i8",
            "--time",
            "300ms",
            "--all",
            "--threads",
            "1",
        ],
        &["h8 h9 i9 j10 i8 i10 g8", "--depth", "5", "--top", "8"],
    ] {
        let c = candidates(args);
        let group = |x: &serde_json::Value| {
            let mate = x["mate_in"].as_i64();
            match (x["bound"].as_str().unwrap(), mate) {
                (_, Some(n)) if n < 0 => 3,
                (_, Some(_)) => 0,
                ("exact", None) => 1,
                _ => 2,
            }
        };
        for (k, pair) in c.windows(2).enumerate() {
            let (a, b) = (&pair[0], &pair[1]);
            let (ga, gb) = (group(a), group(b));
            assert!(
                ga <= gb,
                "{args:?}: rank {} before rank {}: {a} {b}",
                k + 1,
                k + 2
            );
            if ga == gb && (ga == 1 || ga == 2) {
                assert!(
                    a["score"].as_i64() >= b["score"].as_i64(),
                    "{args:?}: rank {}: {a}\nrank {}: {b}",
                    k + 1,
                    k + 2
                );
            }
        }
    }
}

#[test]
fn the_footer_says_whether_a_run_repeats() {
    let (_, out, _) = run(&["analyze", "h8 h9", "--depth", "3", "--threads", "1"]);
    assert!(
        out.contains("1 thread, depth limit 3: the same every run"),
        "{out}"
    );
    let (_, out, _) = run(&["analyze", "h8 h9", "--time", "100ms", "--threads", "2"]);
    assert!(
        out.contains("2 threads, time limit 100ms: may differ from run to run (--threads 1 with --depth or --nodes repeats)"),
        "{out}"
    );
    let (_, out, _) = run(&["analyze", "h8 h9", "--time", "100ms", "--threads", "1"]);
    assert!(
        out.contains("1 thread, time limit 100ms: may differ"),
        "{out}"
    );
}

#[test]
fn update_writes_the_shortest_vct_it_can_prove() {
    // vct-freestyle-2 without its answer and limit: the first win the VCT search finds is
    // longer than the shortest; --update must write the shortest.
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vct.txt")).unwrap();
    let id = "tengen/vct-freestyle-2";
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("id: ") {
            inside = line == format!("id: {id}");
        }
        if inside && (line.starts_with("answer:") || line.starts_with("limit:")) {
            continue;
        }
        out.push(line);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vct.txt");
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
    let file = path.to_str().unwrap();
    let (code, _, err) = run(&["check", file, "--update"]);
    assert_eq!(code, 0, "{err}");
    let updated = std::fs::read_to_string(&path).unwrap();
    let block: Vec<&str> = updated
        .split("\n\n")
        .find(|b| b.contains(&format!("id: {id}")))
        .unwrap()
        .lines()
        .collect();
    let limit: u32 = block
        .iter()
        .find_map(|l| l.strip_prefix("limit: "))
        .expect("a limit was written")
        .parse()
        .unwrap();
    assert!(block.iter().any(|l| l.starts_with("answer: ")), "{block:?}");
    // A win within the limit written, none within one move less.
    let within = |n: u32| {
        let (code, out, err) = run(&[
            "solve",
            "--vct",
            file,
            "--id",
            id,
            "--limit",
            &n.to_string(),
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    assert!(within(limit).contains("wins by VCT"), "limit {limit}");
    assert!(
        limit == 1 || within(limit - 1).contains("no VCT win"),
        "limit {limit}"
    );
    assert!(
        limit < 4,
        "the stated answer takes 4 attacker moves; a shorter win exists"
    );
}

#[test]
fn convert_to_puzzle_keeps_a_board_a_board() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/examples.txt");
    let (code, out, err) = run(&["convert", examples, "--to", "puzzle"]);
    assert_eq!(code, 0, "{err}");
    let original = std::fs::read_to_string(examples).unwrap();
    // As many board: blocks as the file has, and no black:/white: lists made of them.
    let boards = |t: &str| t.lines().filter(|l| *l == "board:").count();
    let lists = |t: &str| t.lines().filter(|l| l.starts_with("black:")).count();
    assert!(boards(&original) >= 2);
    assert_eq!(boards(&out), boards(&original), "{out}");
    assert_eq!(lists(&out), lists(&original), "{out}");
    // Every position reads back the same.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("again.txt");
    std::fs::write(&path, &out).unwrap();
    for id in ["tengen/small-board", "tengen/foul-trap"] {
        let a = run(&["show", examples, "--id", id, "--format", "json"]);
        let b = run(&[
            "show",
            path.to_str().unwrap(),
            "--id",
            id,
            "--format",
            "json",
        ]);
        assert_eq!(a.0, 0, "{}", a.2);
        assert_eq!(a.1, b.1.replace(path.to_str().unwrap(), examples));
    }
}

#[test]
fn strict_counts_a_new_set_of_moves_not_a_transposition_and_accepts_stated_duals() {
    // Black's open three d8-f8 on an empty row: g8 and c8 both make an open four, a real
    // second solution (a different set of moves), unless the puzzle states it with `also:`.
    let base = "rule: freestyle\nsize: 15\nblack: d8 e8 f8\nwhite: a1 a3 o1\nto-move: black\nkind: vcf\nlimit: 1\n";
    let dir = tempfile::tempdir().unwrap();
    let check = |text: &str| {
        let path = dir.path().join("p.txt");
        std::fs::write(&path, text).unwrap();
        run(&[
            "check",
            path.to_str().unwrap(),
            "--strict",
            "--color",
            "never",
        ])
    };
    let (code, out, _) = check(&format!("id: cooked\n{base}answer: g8\n"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("second solution: c8 also wins"), "{out}");
    let (code, out, _) = check(&format!("id: dual\n{base}answer: g8\nalso: c8\n"));
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = check(&format!("id: wrong-dual\n{base}answer: g8\nalso: c8 a15\n"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("also: a15 does not win"), "{out}");
    // A rewrite keeps the key.
    let path = dir.path().join("q.txt");
    std::fs::write(&path, format!("id: dual\n{base}answer: g8\nalso: c8\n")).unwrap();
    let (code, out, err) = run(&["convert", path.to_str().unwrap(), "--to", "puzzle"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nalso: c8\n"), "{out}");
}

#[test]
fn solve_analyze_and_json_count_moves_one_way() {
    // The attacker's moves, the five included, everywhere.
    let vcf = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vcf.txt");
    let id = "tengen/vcf-freestyle-1";
    let (_, out, _) = run(&["solve", "--vcf", vcf, "--id", id, "--format", "json"]);
    let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
    let n = solved["moves_to_five"].as_u64().unwrap();
    assert!(n >= 2, "{solved}");
    // The line goes on to the five: its attacker moves are the count.
    let line = solved["line"].as_array().unwrap().len() as u64;
    assert_eq!(n, line.div_ceil(2), "{solved}");
    let (_, out, _) = run(&["solve", "--vcf", vcf, "--id", id]);
    assert!(
        out.contains(&format!("black wins by VCF in {n} moves")),
        "{out}"
    );
    let (_, out, _) = run(&["analyze", vcf, "--id", id, "--depth", "6"]);
    assert!(
        out.contains(&format!("black wins in {n} moves (verified)")),
        "{out}"
    );
    let c = candidates(&[vcf, "--id", id, "--depth", "6"]);
    assert_eq!(c[0]["mate_in"].as_u64(), Some(n), "{}", c[0]);
    // --win-in N finds it with N, not with N - 1.
    let win_in = |k: u64| run(&["solve", "--win-in", &k.to_string(), vcf, "--id", id]).1;
    assert!(
        win_in(n).contains(&format!("in {n} moves")),
        "{}",
        win_in(n)
    );
    assert!(
        win_in(n - 1).contains("no threat sequence wins"),
        "{}",
        win_in(n - 1)
    );
}
