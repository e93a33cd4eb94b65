//! `tengen check` as CI runs it: verdicts, exit codes, the four output formats, shards,
//! strict mode and `--update`.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::{public_file, run};

/// A freestyle position where black's d8-f8 is an open three: c8 and g8 each make an open four
/// (a VCF in one move), and nothing else wins.
const THREE: &str = "rule: freestyle\nsize: 15\nblack: d8 e8 f8\nwhite: a1 a3 o1\nto-move: black\n";

/// A freestyle position where white's d8-g8 four has one five point, h8, and black has
/// nothing: the block is the only move that holds.
const MUST_BLOCK: &str =
    "rule: freestyle\nsize: 15\nblack: c8 a1 a15 o15\nwhite: d8 e8 f8 g8\nto-move: black\n";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// JSON Lines output: the puzzle records' `data`, and the summary's.
fn json_lines(out: &str) -> (Vec<Value>, Value) {
    let mut puzzles = Vec::new();
    let mut summary = Value::Null;
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        match v["type"].as_str() {
            Some("puzzle") => puzzles.push(v["data"].clone()),
            Some("summary") => summary = v["data"].clone(),
            other => panic!("unexpected record type {other:?}"),
        }
    }
    (puzzles, summary)
}

fn verdicts(puzzles: &[Value]) -> Vec<(String, String)> {
    puzzles
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_shipped_puzzles_all_pass() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
    // Strict: no second solution but the duals each puzzle states (`also:`).
    let (code, out, err) = run(&["check", dir, "--strict", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let (puzzles, summary) = json_lines(&out);
    assert!(puzzles.len() >= 40, "{} puzzles", puzzles.len());
    assert!(puzzles.iter().all(|p| p["verdict"] == "pass"));
    assert_eq!(summary["pass"], puzzles.len());
    // Every kind and rule is covered, and a board size other than 15.
    let kinds: BTreeSet<&str> = puzzles
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    for k in ["vcf", "vct", "no-win", "best-move"] {
        assert!(kinds.contains(k), "no {k} puzzle in puzzles/");
    }
}

#[test]
fn right_and_wrong_answers_get_their_verdicts_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "id: right\n{THREE}answer: g8\nkind: vcf\nlimit: 1\n\n\
         id: wrong-move\n{THREE}answer: a15\nkind: vct\n\n\
         id: not-a-vcf\n{THREE}answer: b8 c8 g8\nkind: vcf\n\n\
         id: claims-no-win\n{THREE}answer: none\nkind: no-win\n\n\
         id: unanswered\n{THREE}kind: win\n"
    );
    let file = write(dir.path(), "p.txt", &text);
    let (code, out, err) = run(&["check", &file, "--format", "json", "--jobs", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    let (puzzles, summary) = json_lines(&out);
    assert_eq!(
        verdicts(&puzzles),
        [
            ("right", "pass"),
            ("wrong-move", "fail"),
            ("not-a-vcf", "fail"),
            ("claims-no-win", "fail"),
            ("unanswered", "pass"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert_eq!(summary["fail"], 3);
    // Each record names its file and the line of its stated answer, what was expected and
    // what was found.
    assert_eq!(puzzles[1]["line"], 17);
    assert_eq!(puzzles[1]["file"], file.as_str());
    assert_eq!(puzzles[1]["expected"], "a15");
    assert!(puzzles[3]["found"].as_str().unwrap().contains("wins"));
    let line = puzzles[3]["line_found"].as_array().unwrap();
    assert!(["c8", "g8"].contains(&line[0].as_str().unwrap()));
    // Text mode shows a failure with its diagram.
    let (code, out, _) = run(&["check", &file, "--color", "never"]);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL"), "{out}");
    assert!(out.contains("expected: a15"), "{out}");
    assert!(out.contains("8 . 3 1 x x x 2"), "{out}"); // the diagram, with the line numbered
    assert!(out.contains("5 puzzles: 2 passed, 3 failed"), "{out}");
}

#[test]
fn a_broken_puzzle_is_an_error_in_its_place_and_the_others_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "id: fine\n{THREE}answer: c8\nkind: vcf\n\n\
         id: broken\nrule: freestyle\nmoves: h8 h8\nkind: vcf\n\n\
         id: garbled\nthis is not a key\n\n\
         id: fine-too\n{THREE}answer: g8\nkind: vcf\n"
    );
    let file = write(dir.path(), "p.txt", &text);
    let (code, out, _) = run(&["check", &file, "--format", "json"]);
    assert_eq!(code, 2, "{out}");
    let (puzzles, summary) = json_lines(&out);
    assert_eq!(
        verdicts(&puzzles),
        [
            ("fine", "pass"),
            ("broken", "error"),
            ("garbled", "error"),
            ("fine-too", "pass")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    // The error's line is the offending line itself.
    assert_eq!(puzzles[1]["line"], 12);
    assert_eq!(puzzles[2]["line"], 16);
    assert_eq!(summary["error"], 2);
    assert_eq!(summary["exit_code"], 2);
}

#[test]
fn strict_mode_names_a_second_solution() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "p.txt",
        &format!("id: two-fours\n{THREE}answer: g8\nkind: vcf\n"),
    );
    assert_eq!(run(&["check", &file]).0, 0);
    let (code, out, _) = run(&["check", &file, "--strict", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let (puzzles, _) = json_lines(&out);
    assert_eq!(puzzles[0]["verdict"], "fail");
    assert!(
        puzzles[0]["message"]
            .as_str()
            .unwrap()
            .contains("second solution: c8"),
        "{out}"
    );
}

#[test]
fn a_defence_holds_only_where_the_opponent_has_no_win() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "id: block\n{MUST_BLOCK}answer: any of h8\nkind: best-move\n\n\
         id: block-and-more\n{MUST_BLOCK}answer: any of h8 a2\nkind: best-move\n\n\
         id: wrong-block\n{MUST_BLOCK}answer: a2\nkind: best-move\n\n\
         id: find-it\n{MUST_BLOCK}kind: best-move\n"
    );
    let file = write(dir.path(), "p.txt", &text);
    let (code, out, _) = run(&["check", &file, "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let (puzzles, _) = json_lines(&out);
    assert_eq!(
        verdicts(&puzzles),
        [
            ("block", "pass"),
            ("block-and-more", "fail"),
            ("wrong-block", "fail"),
            ("find-it", "pass")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert!(puzzles[1]["message"].as_str().unwrap().contains("a2"));
    assert_eq!(puzzles[3]["found"], "any of h8");
}

#[test]
fn shards_split_the_set_and_together_cover_it() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
    let ids = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["check", dir, "--format", "json"];
        a.extend_from_slice(args);
        let (code, out, err) = run(&a);
        assert_eq!(code, 0, "{err}");
        let (puzzles, _) = json_lines(&out);
        puzzles
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    };
    let all = ids(&[]);
    let mut parts: Vec<String> = Vec::new();
    for k in 1..=3 {
        let shard = ids(&["--shard", &format!("{k}/3")]);
        assert!(!shard.is_empty());
        assert_eq!(shard, ids(&["--shard", &format!("{k}/3"), "--jobs", "1"]));
        parts.extend(shard);
    }
    assert_eq!(parts.len(), all.len(), "the shards overlap or miss puzzles");
    let (a, b): (BTreeSet<_>, BTreeSet<_>) =
        (all.into_iter().collect(), parts.into_iter().collect());
    assert_eq!(a, b);
    let (code, _, err) = run(&["check", dir, "--shard", "4/3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--shard"), "{err}");
}

#[test]
fn junit_and_github_formats_carry_the_failures() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "id: right\n{THREE}answer: g8\nkind: vcf\n\n\
         id: wrong\n{THREE}answer: a15\nkind: vct\n"
    );
    let file = write(dir.path(), "p&q.txt", &text);
    let (code, out, _) = run(&["check", &file, "--format", "junit"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("<?xml"), "{out}");
    assert!(out.contains("p&amp;q.txt"), "{out}");
    // What a JUnit reader sees: one suite for the file, a case a puzzle, the wrong one failed
    // with the reason, on the line of its answer.
    let report = quick_junit::Report::deserialize_from_str(&out).unwrap();
    assert_eq!((report.tests, report.failures, report.errors), (2, 1, 0));
    let [suite] = &report.test_suites[..] else {
        panic!("not one suite: {out}");
    };
    assert_eq!(suite.name.as_str(), file.as_str());
    assert_eq!((suite.tests, suite.failures), (2, 1));
    let names: Vec<&str> = suite.test_cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["right", "wrong"]);
    let wrong = &suite.test_cases[1];
    assert_eq!(
        wrong.extra.get("file").map(|f| f.as_str()),
        Some(file.as_str())
    );
    assert_eq!(wrong.extra.get("line").map(|l| l.as_str()), Some("16"));
    match &wrong.status {
        quick_junit::TestCaseStatus::NonSuccess {
            kind: quick_junit::NonSuccessKind::Failure,
            message,
            description,
            ..
        } => {
            assert!(
                message.as_deref().unwrap_or_default().contains("a15"),
                "{out}"
            );
            let body = description.as_deref().unwrap_or_default();
            assert!(body.contains("expected: a15\n"), "{out}");
        }
        other => panic!("not a failure: {other:?}"),
    }
    let (code, out, _) = run(&["check", &file, "--format", "github"]);
    assert_eq!(code, 1);
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(
        errors[0].contains(",line=16,col=9,") && errors[0].contains("a15"),
        "{out}"
    );
}

#[test]
fn update_fills_missing_answers_atomically_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "# my collection\n\nid: fill-me\n# a comment inside\n{THREE}kind: vcf\ntags: x\n\n\
         id: keep-me\n{THREE}answer: g8 (the stated one)\nkind: vcf\n\n\
         id: no-win-to-fill\nrule: freestyle\nblack: h8\nwhite: a1\nto-move: black\nkind: no-win\n\n\
         id: wrong\n{THREE}answer: a15\nkind: vct\n"
    );
    let file = write(dir.path(), "p.txt", &text);
    let (code, out, _) = run(&["check", &file, "--update"]);
    assert_eq!(code, 1, "{out}"); // `wrong` still fails, and is not touched
    let new = std::fs::read_to_string(&file).unwrap();
    // Only lines were added: every original line is still there, in order.
    let mut original = text.lines().peekable();
    for l in new.lines() {
        if original.peek() == Some(&l) {
            original.next();
        }
    }
    assert!(original.next().is_none(), "a line was lost:\n{new}");
    assert!(new.contains("answer: g8 (the stated one)\n"));
    assert!(new.contains("answer: a15\n"));
    let added: Vec<&str> = new
        .lines()
        .filter(|l| !text.lines().any(|o| o == *l))
        .collect();
    assert_eq!(added.len(), 4, "{added:?}"); // two answers, two limits
    assert!(
        added
            .iter()
            .any(|l| l.starts_with("answer: c8") || l.starts_with("answer: g8")),
        "{added:?}"
    );
    assert!(
        added.iter().any(|l| l.starts_with("answer: none")),
        "{added:?}"
    );
    assert_eq!(
        added.iter().filter(|l| **l == "limit: 1").count(),
        2,
        "{added:?}"
    );
    // The answer goes before `kind:`, the limit after it.
    let fill = new.find("id: fill-me").unwrap();
    let block = &new[fill..new[fill..].find("\n\n").unwrap() + fill];
    let (a, k, l) = (
        block.find("answer:").unwrap(),
        block.find("kind:").unwrap(),
        block.find("limit:").unwrap(),
    );
    assert!(a < k && k < l, "{block}");
    // The filled file passes (but for `wrong`), and a second run writes nothing.
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (code, out, _) = run(&["check", &file, "--update", "--format", "json"]);
    assert_eq!(code, 1);
    let (_, summary) = json_lines(&out);
    assert_eq!(summary["updated_files"], 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), new);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    // No temporary file is left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[cfg(unix)]
#[test]
fn update_through_a_link_rewrites_the_file_it_points_to() {
    let dir = tempfile::tempdir().unwrap();
    let target = write(
        dir.path(),
        "real.txt",
        &format!("id: fill-me\n{THREE}kind: vcf\n"),
    );
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (code, out, _) = run(&["check", link.to_str().unwrap(), "--update"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("answer: ")
    );
}

#[test]
fn folders_are_searched_by_glob() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    write(
        &dir.path().join("sub"),
        "a.txt",
        &format!("id: a\n{THREE}answer: g8\nkind: vcf\n"),
    );
    write(
        dir.path(),
        "b.pzl",
        &format!("id: b\n{THREE}answer: g8\nkind: vcf\n"),
    );
    let d = dir.path().to_str().unwrap();
    let (code, out, _) = run(&["check", d, "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(
        verdicts(&json_lines(&out).0),
        [("a".to_string(), "pass".to_string())]
    );
    let (code, out, _) = run(&["check", d, "--glob", "*.pzl", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(
        verdicts(&json_lines(&out).0),
        [("b".to_string(), "pass".to_string())]
    );
    let (code, _, err) = run(&["check", &format!("{d}/missing.txt")]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.txt"), "{err}");
}

#[test]
fn the_public_vcf_set_checks() {
    let Some(file) = public_file("mintaka-renju.txt") else {
        return;
    };
    let (code, out, err) = run(&["check", &file, "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let (puzzles, summary) = json_lines(&out);
    assert_eq!(puzzles.len(), 14);
    assert_eq!(summary["pass"], 14);
}

/// A copy of a shipped puzzle file, in a fresh folder.
fn shipped_copy(name: &str) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let path = write(dir.path(), name, &text);
    (dir, path, text)
}

#[test]
fn a_changed_answer_fails_by_id_and_line_and_a_syntax_error_by_line_and_column() {
    let (_dir, path, text) = shipped_copy("vcf.txt");
    // The first puzzle's answer, on its own line, changed to a move that is not a four.
    let answer_line = text
        .lines()
        .position(|l| l.starts_with("answer: "))
        .unwrap()
        + 1;
    let first_id = text.lines().find_map(|l| l.strip_prefix("id: ")).unwrap();
    let id_line = text.lines().position(|l| l.starts_with("id: ")).unwrap() + 1;
    let changed: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == answer_line {
                "answer: a1".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&path, changed.join("\n") + "\n").unwrap();
    let (code, out, _) = run(&["check", &path, "--color", "never"]);
    assert_eq!(code, 1, "{out}");
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(fails.len(), 1, "{out}");
    // The failure points at the answer that is wrong, not at the block's `id:`.
    assert!(
        fails[0].contains(&format!("{path}:{answer_line} ")),
        "{out}"
    );
    assert!(answer_line > id_line);
    assert!(fails[0].contains(first_id), "{out}");
    // A syntax error: the error names line and column (the second `z`, where a row number
    // should follow the column letter `z`).
    std::fs::write(&path, text.replacen("moves: h8 ", "moves: h8 zz ", 1)).unwrap();
    let (code, out, _) = run(&["check", &path, "--color", "never"]);
    assert_eq!(code, 2, "{out}");
    let moves_line = text.lines().position(|l| l.starts_with("moves: ")).unwrap() + 1;
    assert!(
        out.contains(&format!("ERROR   {path}:{moves_line}:12 ")),
        "{out}"
    );
}

/// `--update` cut off in the middle of writing a file: the file is still the whole original,
/// never a part of the update, and nothing is left beside it; given room for the whole
/// update, it is the whole update. The write is cut by the file size limit (`RLIMIT_FSIZE`),
/// which makes every write past `limit` bytes of any file fail, so it is the rewrite itself
/// that is interrupted, at every size from nothing to one byte short.
#[cfg(target_os = "linux")]
#[test]
fn update_cut_off_while_writing_leaves_the_file_whole() {
    use std::os::unix::process::CommandExt;

    let dir = tempfile::tempdir().unwrap();
    let block = |i: usize| format!("id: p{i}\n{THREE}kind: vcf\n");
    let text: String = (0..3).map(block).collect::<Vec<_>>().join("\n");
    let full = write(dir.path(), "full.txt", &text);
    assert_eq!(run(&["check", &full, "--update"]).0, 0);
    let updated = std::fs::read_to_string(&full).unwrap();
    std::fs::remove_file(&full).unwrap();
    assert!(updated.len() > text.len());
    let sizes = [
        0,
        1,
        text.len() / 2,
        text.len(),
        updated.len() - 1,
        updated.len(),
    ];
    for limit in sizes {
        let path = write(dir.path(), "p.txt", &text);
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"));
        cmd.args(["check", &path, "--update"]);
        // SAFETY: between fork and exec, only async-signal-safe calls: setrlimit, signal.
        unsafe {
            cmd.pre_exec(move || {
                let cap = libc::rlimit {
                    rlim_cur: limit as libc::rlim_t,
                    rlim_max: limit as libc::rlim_t,
                };
                // Past the limit a write fails (EFBIG) instead of killing the process.
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = cmd.output().unwrap();
        let now = std::fs::read_to_string(&path).unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if limit < updated.len() {
            assert_eq!(now, text, "a partial file with room for {limit} bytes");
            assert_eq!(out.status.code(), Some(2), "{stderr}");
        } else {
            assert_eq!(now, updated, "with room for {limit} bytes");
            assert_eq!(out.status.code(), Some(0), "{stderr}");
        }
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "a temporary file is left beside it");
    }
}

/// An unknown says what ran out, before what, and what may decide it (issue 36): the node
/// budget with a larger `--max-nodes` to try, or the time with `--time`.
#[test]
fn an_unknown_says_what_ran_out_and_what_may_decide_it() {
    let dir = tempfile::tempdir().unwrap();
    // Black to move must stop white's VCF; l10 alone does (puzzles/defence.txt).
    let file = write(
        dir.path(),
        "d.txt",
        "id: defence\nrule: freestyle\nsize: 15\n\
         moves: h8 h6 f8 j7 k6 i7 g5 i6 i9 g7 f7 k7 h7 l7 m7 l9 m10 l8\n\
         answer: any of l10\nkind: best-move\ntags: vcf defence\n",
    );
    assert_eq!(run(&["check", &file]).0, 0);
    let unknown_line = |args: &[&str]| {
        let mut all = vec!["check", file.as_str(), "--color", "never"];
        all.extend_from_slice(args);
        let (code, out, err) = run(&all);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        out.lines()
            .find(|l| l.starts_with("UNKNOWN"))
            .unwrap_or_else(|| panic!("{args:?}: no UNKNOWN line: {out}"))
            .to_string()
    };
    let line = unknown_line(&["--max-nodes", "50"]);
    assert!(
        line.contains("the node budget (50 positions) ran out before")
            && line.contains("a larger --max-nodes (say 500) may decide it"),
        "{line}"
    );
    let line = unknown_line(&["--time", "1ms"]);
    assert!(
        line.contains("the time (--time) ran out before") && line.contains("a longer --time"),
        "{line}"
    );
}

#[test]
fn o_writes_the_whole_report_also_when_a_puzzle_fails() {
    // `tengen check mine.txt --format junit -o j.xml` (issue 59): the report goes to the
    // file, whole, and the exit code still says a puzzle failed.
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "id: right\n{THREE}answer: g8\nkind: vcf\nlimit: 1\n\n\
         id: wrong-move\n{THREE}answer: a15\nkind: vct\n"
    );
    let file = write(dir.path(), "mine.txt", &text);
    let xml = dir.path().join("j.xml");
    let j = xml.to_str().unwrap();
    let (code, out, err) = run(&["check", &file, "--format", "junit", "-o", j]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    let report = std::fs::read_to_string(&xml).unwrap();
    assert!(report.starts_with("<?xml"), "{report}");
    assert!(
        report.contains("tests=\"2\"") && report.contains("failures=\"1\""),
        "{report}"
    );
    assert!(report.contains("wrong-move") && report.trim_end().ends_with("</testsuites>"));
    // JSON Lines to a file: the same records as on standard output.
    let lines = dir.path().join("v.jsonl");
    let l = lines.to_str().unwrap();
    let (code, _, err) = run(&["check", &file, "--format", "json", "-o", l]);
    assert_eq!(code, 1, "{err}");
    let (puzzles, summary) = json_lines(&std::fs::read_to_string(&lines).unwrap());
    assert_eq!(
        verdicts(&puzzles),
        [("right", "pass"), ("wrong-move", "fail")].map(|(a, b)| (a.into(), b.into()))
    );
    assert_eq!(summary["exit_code"], 1);
    // Text to a file is not coloured under --color auto, even when asked on a terminal.
    let txt = dir.path().join("v.txt");
    let (code, _, _) = run(&["check", &file, "-o", txt.to_str().unwrap()]);
    assert_eq!(code, 1);
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(text.contains("FAIL") && !text.contains('\x1b'), "{text}");
    // An error before any puzzle is checked writes nothing.
    let none = dir.path().join("none.xml");
    let (code, _, err) = run(&["check", "nosuch/", "-o", none.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(!none.exists());
}
