//! `tengen solve --vcf`: the public VCF cases, our composed puzzles, the three-valued result,
//! shortest lines, and board symmetries.

use proptest::prelude::*;
use tengen::board::{Color, Point, Rule};
use tengen::check::cases::{Case, case};
use tengen::files::input::{Source, load_all};
use tengen::notation::puzzle::{Answer, AnswerForm};
use tengen::report::json;
use tengen::setup::Given;
use tengen::solve::{Ending, Limits, Outcome, vcf, verify};

use crate::{public_file, public_files, run};

fn solve(args: &[&str]) -> json::Solve {
    let mut all = vec!["solve", "--vcf", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn every_public_vcf_case_is_solved_within_its_limit() {
    let Some(files) = public_files() else { return };
    let mut cases = 0;
    for file in files {
        let source = Source::from_arg(file.to_str().unwrap()).unwrap();
        for loaded in load_all(&source, Given::default()) {
            let loaded = loaded.unwrap();
            let Some((Case::Vcf, expected)) = case(&loaded) else {
                continue;
            };
            let meta = loaded.meta.as_ref().unwrap();
            let doc = solve(&[file.to_str().unwrap(), "--id", &meta.id]);
            assert_eq!(doc.result, expected, "{}", meta.id);
            if let Some(limit) = meta.limit {
                assert!(
                    doc.attacker_moves as u32 <= limit,
                    "{}: {} > {limit}",
                    meta.id,
                    doc.attacker_moves
                );
            }
            assert_eq!(doc.verified, expected == Outcome::Win);
            cases += 1;
        }
    }
    assert_eq!(
        cases, 22,
        "6 quintet, 2 quintet-2024 and 14 mintaka VCF cases"
    );
}

#[test]
fn the_short_twin_has_no_vcf_within_eleven() {
    let Some(file) = public_file("quintet-renju.txt") else {
        return;
    };
    let f = file.as_str();
    let doc = solve(&[f, "--id", "quintet/vcf_black_short"]);
    assert_eq!((doc.result, doc.limit), (Outcome::NoWin, Some(11)));
    let doc = solve(&[f, "--id", "quintet/vcf_black_short", "--limit", "12"]);
    assert_eq!((doc.result, doc.attacker_moves), (Outcome::Win, 12));
    let doc = solve(&[f, "--id", "quintet/vcf_white"]);
    assert_eq!(
        doc.ending,
        Some(Ending::ForcedFoul),
        "white's last four can only be blocked on a black foul"
    );
    assert_eq!(doc.line.last().unwrap().to_string(), "h14");
}

#[test]
fn a_spent_budget_is_unknown_never_no_win() {
    let Some(file) = public_file("quintet-renju.txt") else {
        return;
    };
    let doc = solve(&[&file, "--id", "quintet/vcf_long", "--max-nodes", "50"]);
    assert_eq!(doc.result, Outcome::Unknown);
    assert!(doc.line.is_empty());
    let (_, text, _) = run(&[
        "solve",
        "--vcf",
        &file,
        "--id",
        "quintet/vcf_long",
        "--max-nodes",
        "50",
    ]);
    assert!(text.starts_with("# quintet/vcf_long\nunknown"), "{text}");
}

#[test]
fn shortest_lines_are_minimal() {
    let Some(file) = public_file("mintaka-renju.txt") else {
        return;
    };
    let f = file.as_str();
    for id in [
        "mintaka/basic_vcf_2",
        "mintaka/trap_vcf_3",
        "mintaka/basic_vcf_5",
    ] {
        let any = solve(&[f, "--id", id]);
        let short = solve(&[f, "--id", id, "--shortest"]);
        assert_eq!(short.result, Outcome::Win);
        assert!(short.attacker_moves <= any.attacker_moves, "{id}");
        let n = short.attacker_moves.to_string();
        let below = (short.attacker_moves - 1).to_string();
        assert_eq!(
            solve(&[f, "--id", id, "--limit", &n]).result,
            Outcome::Win,
            "{id}"
        );
        assert_eq!(
            solve(&[f, "--id", id, "--limit", &below]).result,
            Outcome::NoWin,
            "{id}: nothing shorter"
        );
    }
}

#[test]
fn composed_puzzles_under_each_rule() {
    let file = crate::EXAMPLES;
    let doc = solve(&[file, "--id", "tengen/double-four"]);
    assert_eq!(
        (doc.result, doc.rule, doc.attacker_moves),
        (Outcome::Win, Rule::Freestyle, 1)
    );
    assert_eq!(doc.line[0].to_string(), "h8");
    let doc = solve(&[file, "--id", "tengen/six-is-no-win"]);
    assert_eq!((doc.result, doc.rule), (Outcome::Win, Rule::Standard));
    assert_eq!(
        doc.line.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["b5"],
        "g5 would be a six"
    );
    let doc = solve(&[file, "--id", "tengen/six-is-no-win", "--rule", "freestyle"]);
    assert_eq!(doc.line.len(), 1, "under freestyle either end wins");
    let doc = solve(&[file, "--id", "tengen/small-board"]);
    assert_eq!((doc.result, doc.attacker_moves), (Outcome::Win, 1));
    let doc = solve(&[file, "--id", "tengen/small-board", "--attacker", "white"]);
    assert_eq!(doc.result, Outcome::NoWin, "white has no four to play");
}

/// Issue 11: with no bound, JSON said `"limit": 255` (the solver's internal "no limit").
#[test]
fn json_limit_is_null_without_a_bound() {
    let limit = |extra: &[&str]| {
        let mut args = vec!["solve", "h8 a1 h9 a2 h10 a3", "--format", "json"];
        args.extend(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(doc.get("limit").is_some(), "the key is always there: {out}");
        doc["limit"].clone()
    };
    for mode in ["--vcf", "--vct"] {
        assert_eq!(limit(&[mode]), serde_json::Value::Null, "{mode}");
        assert_eq!(limit(&[mode, "--limit", "3"]), 3, "{mode}");
    }
    assert_eq!(limit(&["--win-in", "4"]), 4);
    // A puzzle's own `limit:` is the bound when --limit is not given.
    let (_, out, _) = run(&[
        "solve",
        "--vcf",
        crate::EXAMPLES,
        "--id",
        "tengen/double-four",
        "--format",
        "json",
    ]);
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    assert!(doc.limit.is_some(), "{out}");
}

#[test]
fn text_output_numbers_the_line_on_the_board() {
    let file = crate::EXAMPLES;
    let (code, out, _) = run(&["solve", "--vcf", file, "--id", "tengen/double-four"]);
    assert_eq!(code, 0);
    // The double four, then the five: two moves, the five included.
    assert!(out.contains("black wins by VCF in 2 moves ("), "{out}");
    assert!(out.contains("line: h8 "), "{out}");
    assert!(out.contains(" 8 . . . o x x x 1"), "{out}");
}

#[test]
fn the_verifier_rejects_lines_that_are_not_forced_wins() {
    let source = Source {
        name: "t".into(),
        text: "h8 a1 i8 a2 j8 a3".into(),
    };
    let board = tengen::files::input::load(&source, &Default::default())
        .unwrap()
        .board;
    let good: Vec<Point> = ["k8", "g8", "l8"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let not_forced: Vec<Point> = ["k8", "l8", "g8"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let not_a_four: Vec<Point> = ["h9", "g8", "l8"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let short: Vec<Point> = ["k8", "g8"].iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(verify::vcf_line(&board, Color::Black, &good), Ok(()));
    assert!(
        verify::vcf_line(&board, Color::Black, &not_forced).is_ok(),
        "an open four: either block loses"
    );
    assert!(verify::vcf_line(&board, Color::Black, &not_a_four).is_err());
    assert!(
        verify::vcf_line(&board, Color::Black, &short).is_err(),
        "ends before a five"
    );
    // White has a four (a1-a4 after a4): black must answer it.
    let source = Source {
        name: "t".into(),
        text: "h8 a1 i8 a2 j8 a3 b9 a4".into(),
    };
    let board = tengen::files::input::load(&source, &Default::default())
        .unwrap()
        .board;
    assert!(
        verify::vcf_line(&board, Color::Black, &good).is_err(),
        "white would make five first"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Random dense positions: the VCF outcome and the shortest length are the same under all
    /// eight symmetries, and every win verifies.
    #[test]
    fn symmetries_preserve_vcf(
        rule in prop::sample::select(Rule::ALL.to_vec()),
        stones in prop::collection::vec((3u8..12, 3u8..12), 10..40),
        t in 1u8..8,
    ) {
        let board = crate::random_game(rule, &stones);
        if board.winner().is_none() {
            let mirrored = crate::mirrored(&board, t);
            let limits = Limits { depth: 8, count_five: false, nodes: 200_000, ..Limits::default() };
            let a = vcf::solve(&board, board.to_move(), limits, true);
            let b = vcf::solve(&mirrored, board.to_move(), limits, true);
            prop_assert_eq!(a.outcome, b.outcome, "{:?}", board);
            prop_assert_eq!(a.attacker_moves(), b.attacker_moves());
            if a.outcome == Outcome::Win {
                prop_assert_eq!(verify::vcf_line(&board, board.to_move(), &a.line), Ok(()));
                prop_assert_eq!(verify::vcf_line(&mirrored, board.to_move(), &b.line), Ok(()));
            }
        }
    }
}

/// On every public position and along its answer line, for either side as the attacker: the
/// search for any line, whose root probes each of its fours within a small node budget first,
/// decides as the plain depth-first search and as the shortest-first one, and its win verifies
/// within the bound.
#[test]
fn vcf_with_a_probe_round_decides_as_the_plain_search() {
    let Some(files) = public_files() else { return };
    let limits = Limits {
        depth: 20,
        nodes: 1_000_000,
        ..Limits::default()
    };
    let mut plain = vcf::VcfSolver::new(1 << 24).unwrap();
    let (mut positions, mut wide, mut wins) = (0, 0, 0);
    for file in files {
        let source = Source::from_arg(file.to_str().unwrap()).unwrap();
        for loaded in load_all(&source, Given::default()) {
            let loaded = loaded.unwrap();
            let line: Vec<Point> = match loaded.meta.as_ref().and_then(|m| m.answer.as_ref()) {
                Some(Answer {
                    form: AnswerForm::Line(points),
                    ..
                }) => points
                    .iter()
                    .filter_map(|p| Point::new(p.value.col as u8, p.value.row as u8))
                    .collect(),
                _ => Vec::new(),
            };
            let mut board = loaded.board.clone();
            for next in std::iter::once(None).chain(line.into_iter().map(Some)) {
                if let Some(p) = next {
                    if !board.is_empty(p) || board.winner().is_some() {
                        break;
                    }
                    board.play(p);
                }
                if board.winner().is_some() {
                    break;
                }
                for a in [Color::Black, Color::White] {
                    let mut b = board.clone();
                    b.set_to_move(a);
                    plain.reset();
                    let run = plain.search(&mut b, a, limits);
                    if run.outcome == Outcome::Unknown {
                        continue;
                    }
                    let any = vcf::solve(&b, a, limits, false);
                    let shortest = vcf::solve(&b, a, limits, true);
                    let at = format!(
                        "{} after {} moves, {a:?}",
                        loaded.meta.as_ref().unwrap().id,
                        b.history().len()
                    );
                    assert_eq!(any.outcome, run.outcome, "{at}");
                    assert_eq!(any.outcome, shortest.outcome, "{at}");
                    if any.outcome == Outcome::Win {
                        assert_eq!(verify::vcf_line(&b, a, &any.line), Ok(()), "{at}");
                        assert!(any.attacker_moves() <= 20, "{at}");
                        wins += 1;
                    }
                    positions += 1;
                    wide += usize::from(run.nodes > 32);
                }
            }
        }
    }
    // Enough of them to count: 2,766 positions, 1,284 wins, 233 past the probe's budget.
    assert!(
        positions > 2000 && wide > 150 && wins > 1000,
        "{positions} positions, {wide} wide, {wins} wins"
    );
}

/// White's straight four d8-g8 has five points c8 and h8; c8 is a double three for black, so
/// black must block h8 and white fives at c8 (an earlier version printed black blocking c8).
const BLOCK_ON_A_FOUL: &str = "   a b c d e f g h i j\n10 . . x . x . . . . . 10\n 9 . . x x . . . . . . 9\n 8 . x . o o o . . . . 8\n 7 . . . . . . . . . . 7\n 6 . . . . . . . . . . 6\n 5 . . . . . . . . . . 5\n 4 . . . . . . . . . . 4\n 3 . . . . . . . . . . 3\n 2 . . . . . . . . . . 2\n 1 . . . . . . . . . . 1\n   a b c d e f g h i j\nwhite to move\n";

#[test]
fn a_double_threat_is_blocked_on_a_legal_point() {
    let texts = |doc: &json::Solve| doc.line.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    let (code, out, err) = crate::run_stdin(
        &[
            "solve", "--vcf", "-", "--size", "15", "--rule", "renju", "--format", "json",
        ],
        BLOCK_ON_A_FOUL,
    );
    assert_eq!(code, 0, "{err}");
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    assert_eq!(texts(&doc), ["g8", "h8", "c8"]);
    let (_, out, _) = crate::run_stdin(
        &[
            "solve", "--vct", "-", "--size", "15", "--rule", "renju", "--format", "json",
        ],
        BLOCK_ON_A_FOUL,
    );
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    assert!(doc.verified);
    assert_eq!(texts(&doc), ["g8", "h8", "c8"]);
    let (_, out, _) = crate::run_stdin(
        &[
            "solve",
            "--vcf",
            "-",
            "--size",
            "15",
            "--rule",
            "freestyle",
            "--format",
            "json",
        ],
        BLOCK_ON_A_FOUL,
    );
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    assert_eq!(
        texts(&doc),
        ["g8", "c8", "h8"],
        "outside renju black may block c8"
    );
}

#[test]
fn a_forced_foul_wins_only_under_renju() {
    let doc = solve(&[crate::EXAMPLES, "--id", "tengen/foul-trap"]);
    assert_eq!(
        (doc.result, doc.rule, doc.ending),
        (Outcome::Win, Rule::Renju, Some(Ending::ForcedFoul))
    );
    assert_eq!(
        doc.line.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["g8"]
    );
    for rule in ["freestyle", "standard"] {
        let doc = solve(&[crate::EXAMPLES, "--id", "tengen/foul-trap", "--rule", rule]);
        assert_eq!(doc.result, Outcome::NoWin, "{rule}: black simply blocks c8");
    }
}

#[test]
fn every_composed_puzzle_matches_its_answer() {
    let (code, out, err) = run(&["bench", crate::EXAMPLES, "--verify", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let docs: Vec<json::Solve> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 6);
    assert!(docs.iter().all(|d| d.result == Outcome::Win && d.verified));
}
