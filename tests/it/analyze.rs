//! `tengen analyze` through the binary: exit codes, the JSON schema, forced replies, verified
//! wins, determinism at a fixed depth, and black's forbidden points under renju.

use tengen::report::json::{Analyze, BoundKind};

use crate::run;

fn analyze(args: &[&str]) -> Analyze {
    let mut all = vec!["analyze", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn top(a: &Analyze) -> String {
    a.candidates[0].mv.to_string()
}

#[test]
fn json_has_the_documented_fields_and_ranks_in_order() {
    let a = analyze(&["h8 h9 i9 j10 i8", "--depth", "3"]);
    assert_eq!(a.to_move.to_string(), "white");
    assert_eq!(a.depth, 3);
    assert!(a.nodes > 0 && a.seldepth >= 3);
    assert!(a.candidates.len() > 10, "every candidate is listed");
    for (k, c) in a.candidates.iter().enumerate() {
        assert_eq!(c.rank, k + 1);
        assert_eq!(c.pv.first(), Some(&c.mv));
        assert!((0.0..=1.0).contains(&c.win_prob));
    }
    let exact = a
        .candidates
        .iter()
        .filter(|c| c.bound == BoundKind::Exact)
        .count();
    assert!(exact >= 5, "the top five are exact");
    // Upper bounds never claim more than the fifth exact score.
    let fifth = a
        .candidates
        .iter()
        .filter(|c| c.bound == BoundKind::Exact)
        .nth(4)
        .unwrap()
        .score;
    assert!(
        a.candidates
            .iter()
            .filter(|c| c.bound == BoundKind::Upper)
            .all(|c| c.score <= fifth)
    );
    // The raw JSON has every documented key (the type denies unknown ones).
    let (_, out, _) = run(&["analyze", "h8", "--depth", "2", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "rule",
        "to_move",
        "depth",
        "seldepth",
        "nodes",
        "vcf_nodes",
        "elapsed_ms",
        "nps",
        "candidates",
        "forbidden",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    for key in [
        "move", "rank", "score", "bound", "win_prob", "mate_in", "pv", "makes", "stops",
    ] {
        assert!(v["candidates"][0].get(key).is_some(), "{key}");
    }
}

#[test]
fn the_empty_board_suggests_the_centre() {
    // Empty input is refused, so the empty board comes as a diagram.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.txt");
    for (size, centre) in [(15, "h8"), (9, "e5")] {
        std::fs::write(&path, format!("{}\n", ".".repeat(size)).repeat(size)).unwrap();
        let a = analyze(&[path.to_str().unwrap(), "--depth", "2"]);
        assert_eq!(top(&a), centre);
    }
}

#[test]
fn a_four_must_be_blocked() {
    // White has a closed four on row 1 (b1-e1, a1 blocked by black): black must take f1,
    // whatever else it might like.
    let a = analyze(&["h8 b1 h9 c1 j8 d1 a1 e1", "--depth", "4"]);
    assert_eq!(top(&a), "f1");
    assert_eq!(a.candidates.len(), 1, "the block is the only candidate");
}

#[test]
fn an_open_three_must_be_met() {
    // White's open three d4 e4 f4 (black far away): black must play c4 or g4, or a far end
    // (b4, h4), unless it has a four of its own (it has none).
    let a = analyze(&["k10 d4 k12 e4 m13 f4", "--depth", "4"]);
    assert!(
        ["c4", "g4", "b4", "h4"].contains(&top(&a).as_str()),
        "{}",
        top(&a)
    );
    assert!(
        a.candidates[0].stops.iter().any(|s| s.contains("four")),
        "{:?}",
        a.candidates[0]
    );
}

#[test]
fn a_win_is_found_and_verified() {
    // The composed double three: h8 makes two open threes (freestyle).
    let a = analyze(&[
        crate::EXAMPLES,
        "--id",
        "tengen/double-three",
        "--depth",
        "6",
    ]);
    let best = &a.candidates[0];
    assert_eq!(best.mv.to_string(), "h8");
    assert!(best.mate_in.is_some_and(|n| n > 0), "{best:?}");
    assert_eq!(best.win_prob, 1.0);
    // A VCF from the shipped examples: the top move wins, and the text says so.
    let (code, out, err) = run(&[
        "analyze",
        crate::EXAMPLES,
        "--id",
        "tengen/double-four",
        "--depth",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("black wins in"), "{out}");
    assert!(out.contains("(verified)"), "{out}");
    // The root VCT may start at a threat limit given on the command line.
    let a = analyze(&[
        crate::EXAMPLES,
        "--id",
        "tengen/double-three",
        "--depth",
        "2",
        "--threat-limit",
        "1",
    ]);
    assert!(a.candidates[0].mate_in.is_some_and(|n| n > 0), "{a:?}");
}

#[test]
fn black_forbidden_points_are_listed_not_scored() {
    let position = [
        crate::EXAMPLES,
        "--id",
        "tengen/double-three",
        "--rule",
        "renju",
        "--depth",
    ];
    let a = analyze(&[&position[..], &["3"]].concat());
    assert!(
        a.forbidden
            .iter()
            .any(|f| f.point.to_string() == "h8" && f.foul.to_string() == "double three"),
        "{:?}",
        a.forbidden
    );
    assert!(a.candidates.iter().all(|c| c.mv.to_string() != "h8"));
    let (_, out, _) = run(&[&["analyze"], &position[..], &["2"]].concat());
    assert!(out.contains("# forbidden for black"), "{out}");
}

#[test]
fn an_iteration_cut_by_the_node_limit_keeps_the_moves_it_finished() {
    // One thread at a node limit is deterministic, and an iteration the limit cuts short still
    // reports what it finished: some moves one ply deeper than the last full iteration, none
    // deeper, but an analysis's table keeps the best five at the depth they share (a cut
    // iteration's scores are a game's). Several limits, so that some cut falls inside an
    // iteration after its first move.
    let midgame = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/midgame.txt");
    let mut deeper = 0;
    for nodes in ["20000", "40000", "60000", "90000", "120000"] {
        let args = [
            midgame,
            "--id",
            "tengen/midgame-renju-3",
            "--nodes",
            nodes,
            "--threads",
            "1",
        ];
        let a = analyze(&args);
        let b = analyze(&args);
        let moves = |a: &Analyze| {
            a.candidates
                .iter()
                .map(|c| (c.mv.to_string(), c.score, c.depth))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&a), moves(&b), "{nodes} nodes");
        assert_eq!(a.depth, b.depth);
        for c in &a.candidates {
            assert!(c.depth <= a.depth, "{nodes} nodes: {c:?}");
            assert_eq!(c.pv.first(), Some(&c.mv), "{nodes} nodes: {c:?}");
        }
        assert_table_reads_top_to_bottom(&a, &format!("{nodes} nodes"));
        deeper += usize::from(a.candidates[..5].iter().all(|c| c.depth == a.depth));
    }
    assert!(
        deeper > 0,
        "no limit left the best five at the last iteration's depth"
    );
}

#[test]
fn a_fixed_depth_is_deterministic() {
    let args = [
        "analyze",
        "h8 i9 i8 g8 j7 h9",
        "--rule",
        "renju",
        "--depth",
        "5",
        "--format",
        "json",
    ];
    let strip = |out: &str| {
        let mut v: serde_json::Value = serde_json::from_str(out).unwrap();
        v["elapsed_ms"] = 0.into();
        v["nps"] = 0.into();
        v
    };
    let (_, a, _) = run(&args);
    let (_, b, _) = run(&args);
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn depth_one_scores_every_candidate_exactly_and_heatmap_draws_them() {
    let a = analyze(&["h8 h9 i9", "--depth", "1"]);
    assert!(a.candidates.iter().all(|c| c.bound == BoundKind::Exact));
    let (code, out, _) = run(&["analyze", "h8 h9 i9", "--depth", "1", "--heatmap"]);
    assert_eq!(code, 0);
    assert!(out.contains("digits: every scored move"), "{out}");
    // The digit drawn on each point of the board (rows with their label on both sides).
    let drawn = |p: tengen::board::Point| -> Option<String> {
        let row = (p.y() + 1).to_string();
        out.lines().find_map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            (cells.len() == 17 && cells[0] == row && cells[16] == row)
                .then(|| cells[1 + p.x() as usize].to_string())
        })
    };
    // The best move is drawn 9; an exact score below the best is drawn lower; a point that is
    // no candidate stays empty.
    let best = a.candidates[0].mv.to_string().parse().unwrap();
    assert_eq!(drawn(best).as_deref(), Some("9"), "{out}");
    let worse = a
        .candidates
        .iter()
        .find(|c| c.score < a.candidates[0].score)
        .expect("a move scored below the best");
    let digit = drawn(worse.mv.to_string().parse().unwrap()).unwrap();
    assert!(
        digit.as_str() < "9" && digit.len() == 1,
        "{} drawn {digit}: {out}",
        worse.mv
    );
    assert_eq!(drawn("a1".parse().unwrap()).as_deref(), Some("."), "{out}");
}

#[test]
fn depth_one_is_the_weight_map_of_static_point_values() {
    use tengen::analyze::eval::point_value;
    use tengen::board::{Board, Color, Point, Rule};
    let moves = "h8 h9 i9 g7 j10 k11 i8";
    let a = analyze(&[moves, "--depth", "1"]);
    let mut board = Board::new(15, Rule::Freestyle).unwrap();
    for m in moves.split_whitespace() {
        board.play(m.parse::<Point>().unwrap());
    }
    // Every empty point within two of a stone, each at its static value, best first.
    let near = board
        .empty_points()
        .filter(|p| {
            board.history().iter().any(|s| {
                (p.x() as i32 - s.x() as i32).abs() <= 2 && (p.y() as i32 - s.y() as i32).abs() <= 2
            })
        })
        .count();
    assert_eq!(a.candidates.len(), near);
    for c in &a.candidates {
        let value = point_value(&board, c.mv.index(), Color::White);
        assert_eq!(c.score, value / 5, "{}", c.mv);
        assert_eq!(c.pv, vec![c.mv]);
    }
    assert!(a.candidates.windows(2).all(|w| w[0].score >= w[1].score));
    // Black's open three h8 i9 j10 is white's to meet: the weight map is narrowed to the
    // lines through its straight-four points, as the search is, and blocks it at one.
    let a = analyze(&["h8 a1 i9 a2 j10", "--depth", "1"]);
    assert!(["g7", "k11"].contains(&top(&a).as_str()), "{}", top(&a));
    assert!(a.candidates.iter().all(|c| c.mv.to_string() != "h12"));
}

/// The digit drawn at `point` (RIF, e.g. `h11`) on a 15x15 diagram.
fn digit_at(out: &str, point: &str) -> char {
    let (col, row) = point.split_at(1);
    let x = (col.as_bytes()[0] - b'a') as usize;
    let line = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some(row))
        .unwrap_or_else(|| panic!("no row {row}: {out}"));
    line.split_whitespace()
        .nth(1 + x)
        .unwrap()
        .chars()
        .next()
        .unwrap()
}

#[test]
fn a_verified_win_on_the_heatmap_leaves_the_other_moves_spread_out() {
    // Black wins by an open four at h11 or h7. The mates are 9; the plain scores spread over
    // the digits below, so they are not all squeezed onto 0 by the mate's huge score.
    let args = [
        "analyze",
        "h8 a1 h9 a2 h10 a3 i11 a15",
        "--depth",
        "3",
        "--heatmap",
    ];
    // The mates print as mates, with the JSON's mate fields.
    assert!(
        out_has_mates(&args[..4]),
        "a verified win reads +M and \"wins in\""
    );
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    assert!(!out.contains(" ?"), "{out}");
    let a = analyze(&args[1..4]);
    let plain: Vec<_> = a
        .candidates
        .iter()
        .filter(|c| c.mate_in.is_none())
        .collect();
    assert!(plain.len() > 10, "{out}");
    let best_plain = plain
        .iter()
        .filter(|c| c.bound == BoundKind::Exact)
        .max_by_key(|c| c.score)
        .unwrap();
    for c in &a.candidates {
        let d = digit_at(&out, &c.mv.to_string());
        match c.mate_in {
            Some(n) if n > 0 => assert_eq!(d, '9', "{} is a win: {out}", c.mv),
            // Every other move is tested against the best five: a digit, never `?`.
            _ => assert!(
                d.is_ascii_digit() && d < '9',
                "{} is no proved win: {out}",
                c.mv
            ),
        }
    }
    assert_eq!(digit_at(&out, &best_plain.mv.to_string()), '8', "{out}");
}

#[test]
fn bad_limits_are_usage_errors() {
    for args in [
        &["analyze", "h8", "--time", "soon"][..],
        &["analyze", "h8", "--depth", "0"],
        &["analyze", "h8", "--window", "9"],
        &["analyze", "h8", "--hash-mb", "0"],
        &["analyze", "h8", "--threat-limit", "0"],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("error"), "{err}");
    }
}

#[test]
fn parallel_search_finds_the_same_verified_win() {
    // Two threads under a time limit: the root VCT runs beside a Lazy SMP search; three:
    // a second search thread too. The win is the same, and verified. The analysis ends once
    // the win is proven, so a generous limit costs nothing and a loaded machine cannot cut it.
    for threads in ["1", "2", "3"] {
        let a = analyze(&[
            crate::EXAMPLES,
            "--id",
            "tengen/double-three",
            "--time",
            "10s",
            "--threads",
            threads,
        ]);
        let best = &a.candidates[0];
        assert_eq!(best.mv.to_string(), "h8", "threads {threads}");
        assert!(best.mate_in.is_some_and(|n| n > 0), "{best:?}");
        assert!(a.nodes > 0 && a.depth >= 1, "threads {threads}: {a:?}");
    }
    let (code, _, err) = run(&["analyze", "h8", "--threads", "0"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn every_exact_score_shows_a_line_as_deep_as_its_search() {
    // Two threads share the table, so a root move's reply is often already scored there at
    // full depth; the line shown must still go down to the horizon (it used to stop at the
    // move itself).
    let midgame = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/midgame.txt");
    for id in ["tengen/midgame-freestyle-3", "tengen/midgame-renju-3"] {
        let a = analyze(&[midgame, "--id", id, "--depth", "6", "--threads", "2"]);
        let exact: Vec<_> = a
            .candidates
            .iter()
            .filter(|c| c.bound == BoundKind::Exact && c.mate_in.is_none())
            .collect();
        assert!(exact.len() >= 5, "{id}: {exact:?}");
        for c in exact {
            assert!(c.pv.len() >= c.depth as usize, "{id}: {c:?}");
        }
    }
}

#[test]
fn a_move_that_loses_to_the_opponents_threats_is_proved_lost() {
    // A self-play game (freestyle): black to move, and white has a VCT were black to pass.
    // At 200 ms a move the search, blind past its horizon, chose e9, and white won. Now the
    // best moves are checked against white's threats: those that lose are verified losses,
    // ranked last. Which moves the search ranks high enough to be checked depends on the
    // evaluation and the pruning (with the tables fitted to Rapfi's games e9 was one at
    // depth 3; with those fitted to tengen's own games i3 and l7 were; with reverse futility
    // pruning depth 3 checks h5 and k5, whose losses are 17- and 8-move VCTs beyond the
    // check's budget there, and depth 5 proved j3, e9 and i3 lost; with the freestyle tables
    // refitted on 6,135 games depths 3 to 5 and 7 prove none and depth 6 proves h4, e9, j4 and
    // d8 lost; with the quiescence over fours depth 6 proves none, depth 5 l5, e9 and d8; with
    // the freestyle table refitted whole, depth 3 proves e9, depth 6 k7 and depth 7 k8), so the
    // analysis runs at depths 3 to 7, at least one of them must prove a move lost, and every
    // move proved lost is checked again by the solver on its own, and so is e9.
    let position = "h8 i6 j5 j8 f6 g7 k6 i4 i7 g9 g11 f8";
    let mut lost_moves = Vec::new();
    for depth in 3..=7 {
        let a = analyze(&[position, "--depth", &depth.to_string()]);
        let lost: Vec<_> = a
            .candidates
            .iter()
            .filter(|c| c.mate_in.is_some_and(|n| n < 0))
            .collect();
        for c in &lost {
            assert_eq!(c.win_prob, 0.0, "depth {depth}: {c:?}");
            assert!(
                c.pv.len() >= 2,
                "depth {depth}: the line white wins by follows {c:?}"
            );
        }
        // Nothing proved lost ranks above a move that is not.
        if let Some(first_lost) = a
            .candidates
            .iter()
            .position(|c| c.mate_in.is_some_and(|n| n < 0))
        {
            assert!(
                a.candidates[first_lost..]
                    .iter()
                    .all(|c| c.mate_in.is_some_and(|n| n < 0)),
                "depth {depth}: proved losses come last"
            );
        }
        assert!(a.candidates[0].mate_in.is_none(), "depth {depth}");
        lost_moves.extend(lost.iter().map(|c| c.mv.to_string()));
    }
    assert!(
        !lost_moves.is_empty(),
        "no depth from 3 to 7 proved a move lost"
    );
    // The solver agrees on its own: after each move proved lost, and after e9, white wins by
    // VCT.
    lost_moves.sort();
    lost_moves.dedup();
    for m in lost_moves.into_iter().chain(["e9".to_string()]) {
        let after = format!("{position} {m}");
        let (code, out, err) = run(&["solve", "--vct", "--hash-mb", "64", &after]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("white wins by VCT"), "after {m}: {out}");
    }
}

/// A renju game 224 moves long (from a self-play match, where it made the analyzer panic):
/// black is to move and the board's one empty point, g9, is forbidden for black.
pub const ONLY_A_FOUL_LEFT: &str = "k5 f9 f10 e6 k7 h7 e10 g6 k8 k9 i8 h6 f6 h5 h8 h4 h3 j8 i7 i4 k4 k6 f7 f4 j6 l4 g4 g8 g10 h10 f11 h9 d9 j3 k2 i6 j5 c8 i9 g7 i11 i10 g5 j11 k12 f8 c10 d10 e9 e8 d8 i5 j4 g11 k3 k1 h13 g12 e7 c9 c7 b6 d7 b7 i3 l6 d5 d6 g1 h2 e11 g3 e5 c6 a6 f13 c5 f5 b5 a5 h11 e13 f2 j10 d4 e3 j12 d3 e4 c3 f3 j9 j7 d14 f12 l7 l8 l10 k10 d13 h1 g2 m9 n10 b13 c13 g13 a3 b3 d11 d12 l12 m11 l11 l14 l3 l5 k14 k13 m15 h14 i15 h15 h12 i13 j13 l13 m8 n5 m5 b12 m6 c12 e12 k11 g15 b11 b14 e1 n6 o6 f1 m2 n9 o10 c14 f14 b10 n11 m10 a14 m1 n1 k15 l15 l2 o13 o12 o7 o8 b4 a4 n13 m13 a12 l1 a1 b2 o5 a10 m7 o4 b9 j14 n8 f15 j1 e2 c15 n12 a15 a11 a9 d2 c2 o15 e15 d15 i14 g14 n4 n3 d1 c1 n15 j15 b15 o14 n14 m14 e14 a13 m12 i12 o11 c11 o9 l9 b8 a8 n7 a7 m4 c4 o3 m3 o2 n2 j2 i2 a2 o1 i1 b1";

#[test]
fn no_legal_move_is_said_not_a_panic() {
    let args = [
        "analyze",
        ONLY_A_FOUL_LEFT,
        "--rule",
        "renju",
        "--depth",
        "3",
    ];
    let (code, text, err) = run(&[&args[..], &["--color", "never"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("no legal move: every empty point is forbidden for black"),
        "{text}"
    );
    let (code, json, err) = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["candidates"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["forbidden"][0]["point"], "g9", "{v}");
}

const MIDGAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/midgame.txt");

/// Issue 59, item 4: the best five rows are exact, at one depth, and in score order: the
/// winning mates first (shortest first), then the exact scores best first; no bound above
/// them claims a place among them.
fn assert_table_reads_top_to_bottom(a: &Analyze, what: &str) {
    let rows = &a.candidates[..a.candidates.len().min(5)];
    // A decisive score the verifier could not confirm (±9000, `win?` in text) is a mate the
    // search found, at the depth it found it: neither a mate nor a plain score.
    let plain: Vec<_> = rows
        .iter()
        .filter(|c| c.mate_in.is_none() && c.score.abs() < 9000)
        .collect();
    for c in &plain {
        assert_eq!(c.bound, BoundKind::Exact, "{what}: {c:?}");
        assert_eq!(c.depth, plain[0].depth, "{what}: {c:?}");
    }
    // Winning mates, then plain scores, then proved losses.
    let group = |c: &tengen::report::json::AnalyzeCandidate| match c.mate_in {
        Some(n) if n > 0 => 0,
        None if c.score <= -9000 => 2,
        None => 1,
        Some(_) => 3,
    };
    for pair in rows.windows(2) {
        assert!(group(&pair[0]) <= group(&pair[1]), "{what}: {pair:?}");
        assert!(pair[0].score >= pair[1].score, "{what}: {pair:?}");
    }
    let fifth = plain.last().map(|c| c.score);
    for c in &a.candidates[rows.len()..] {
        if c.bound == BoundKind::Upper && c.mate_in.is_none() {
            assert!(fifth.is_none_or(|f| c.score <= f), "{what}: {c:?}");
        }
    }
}

#[test]
fn the_midgame_tables_read_top_to_bottom_at_the_default_second() {
    for id in crate::ids(std::path::Path::new(MIDGAME)) {
        let a = analyze(&[MIDGAME, "--id", &id]);
        assert_table_reads_top_to_bottom(&a, &id);
        // The text shows the same rows with no bound that says nothing.
        let (code, out, _) = run(&["analyze", MIDGAME, "--id", &id]);
        assert_eq!(code, 0);
        assert!(!out.contains("<=+9000"), "{id}: {out}");
        // No raw mate score (30000 less the plies) or ±9000 in a row's score cell.
        for row in out.lines().filter(|l| l.starts_with("   ")) {
            let score = row.split_whitespace().nth(2).unwrap_or("");
            let raw = score.trim_start_matches("<=").parse::<i32>();
            assert!(
                raw.is_err() || raw.is_ok_and(|s| s.abs() < 9000),
                "{id}: {row}"
            );
        }
    }
}

/// Whether the analysis of `args` (text and JSON) shows its verified wins as mates: `+M` and
/// "wins in" in text, `mate_in` and `mate_shortest` in JSON, and no raw mate score.
fn out_has_mates(args: &[&str]) -> bool {
    let (code, out, _) = run(args);
    assert_eq!(code, 0);
    let a = analyze(&args[1..]);
    let best = &a.candidates[0];
    let n = best.mate_in.expect("a mate");
    assert!(best.mate_shortest.is_some(), "{best:?}");
    let label = if best.mate_shortest == Some(true) {
        format!("+M{n} ")
    } else {
        format!("+M<={n} ")
    };
    out.contains(&label) && out.contains("wins in") && !out.contains(&format!("{:+}", best.score))
}

#[test]
fn a_mate_reads_as_a_mate_and_analyze_and_solve_agree_on_its_length() {
    let args = [
        "analyze",
        MIDGAME,
        "--id",
        "tengen/midgame-renju-1",
        "--depth",
        "9",
        "--threads",
        "1",
    ];
    assert!(out_has_mates(&args), "{:?}", run(&args).1);
    let a = analyze(&args[1..]);
    let best = &a.candidates[0];
    let n = best.mate_in.unwrap();
    assert!(n > 0, "{best:?}");
    let (_, text, _) = run(&args);
    let solve = |what: &[&str]| {
        let mut all = vec!["solve"];
        all.extend_from_slice(what);
        all.extend_from_slice(&[MIDGAME, "--id", "tengen/midgame-renju-1"]);
        run(&all).1
    };
    if best.mate_shortest == Some(true) {
        // The shortest: `solve --win-in` finds it in n, not in n - 1.
        assert!(
            text.contains(&format!("black wins in {n} moves (verified)")),
            "{text}"
        );
        let k = n.to_string();
        assert!(solve(&["--win-in", &k]).contains(&format!("in {n} moves")));
        let k = (n - 1).to_string();
        assert!(solve(&["--win-in", &k]).contains("no threat sequence wins"));
    } else {
        assert!(text.contains("wins in at most"), "{text}");
    }
    // `solve --vct` proves a win within its proof's longest line, no shorter than the
    // shortest: it says "at most" when it is longer.
    let vct = solve(&["--vct"]);
    let moves: i32 = vct
        .split("in at most ")
        .nth(1)
        .or_else(|| vct.split("VCT in ").nth(1))
        .and_then(|r| r.split(' ').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("{vct}"));
    assert!(moves >= n || best.mate_shortest != Some(true), "{vct}");
    if moves > n {
        assert!(vct.contains("in at most"), "{vct}");
    }
}

#[test]
fn nps_is_the_nodes_over_the_time_beside_them() {
    let a = analyze(&[
        MIDGAME,
        "--id",
        "tengen/midgame-freestyle-1",
        "--time",
        "300ms",
    ]);
    let nps = a.nodes as f64 / a.elapsed_ms * 1000.0;
    assert!((a.nps as f64 - nps).abs() <= 1.0, "{} against {nps}", a.nps);
    let (_, out, _) = run(&["analyze", MIDGAME, "--id", "tengen/midgame-freestyle-1"]);
    let counts = out.lines().find(|l| l.starts_with("depth ")).unwrap();
    let figure = |unit: &str| -> f64 {
        let field = counts.split(" · ").find(|f| f.ends_with(unit)).unwrap();
        field.split(' ').next().unwrap().parse().unwrap()
    };
    let (nodes, per_second, ms) = (figure(" nodes"), figure(" nodes/s"), figure(" ms"));
    // The time is printed to the millisecond.
    let (low, high) = (nodes / (ms + 0.5) * 1000.0, nodes / (ms - 0.5) * 1000.0);
    assert!((low - 1.0..=high + 1.0).contains(&per_second), "{counts}");
}

#[test]
fn the_heatmap_text_shades_every_scored_point() {
    let args = [
        "analyze",
        MIDGAME,
        "--id",
        "tengen/midgame-renju-1",
        "--depth",
        "7",
        "--threads",
        "1",
        "--heatmap",
    ];
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    let a = analyze(&args[1..8]);
    for c in &a.candidates {
        let d = digit_at(&out, &c.mv.to_string());
        assert!(d.is_ascii_digit(), "{}: {d}: {out}", c.mv);
    }
    assert!(!out.contains("<=+9000") && !out.contains(" ? "), "{out}");
}
