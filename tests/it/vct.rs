//! `tengen solve --vct` / `--win-in`: public VCT cases that run fast, our composed puzzles,
//! proofs as JSON and text, budgets, and the proof verifier catching a false proof.

use tengen::board::{Color, Rule};
use tengen::files::input::{LoadOptions, Source, load};
use tengen::report::json;
use tengen::solve::proof::Attack;
use tengen::solve::task::Mode;
use tengen::solve::{Ending, Limits, Outcome, verify};

use crate::{public_file, run, run_stdin};

fn solve(args: &[&str]) -> json::Solve {
    let mut all = vec!["solve", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The public quintet file (see [`public_file`]: `None` means the test skips).
fn quintet() -> Option<String> {
    public_file("quintet-renju.txt")
}

/// Public VCT cases that tengen decides in well under a second each (the whole set, heavy
/// cases included, is in `tengen bench`).
const FAST_CASES: &[&str] = &[
    "vct_black",
    "vct_black_short",
    "vct_counter",
    "vct_dual_forbiddens",
    "vct_forbidden_breaker",
    "vct_white",
    "vct_white_short",
    "vct_game_black_l03_1",
    "vct_game_black_l03_1_short",
    "vct_game_black_l03_2",
    "vct_game_black_l03_2_short",
    "vct_game_black_l03_3",
    "vct_game_black_l04_1",
    "vct_game_black_l04_1_short",
    "vct_game_black_l04_2",
    "vct_game_black_l04_2_short",
    "vct_game_black_l05_1",
    "vct_game_black_l05_1_short",
    "vct_game_black_l06_1",
    "vct_game_black_l06_1_short",
    "vct_game_black_l07_1",
    "vct_game_black_l07_1_short",
    "vct_game_black_l07_2",
    "vct_game_white_l03_1",
    "vct_game_white_l03_1_short",
    "vct_game_white_l03_2",
    "vct_game_white_l03_2_short",
    "vct_game_white_l04_1",
    "vct_game_white_l04_2",
    "vct_game_white_l04_2_short",
    "vct_game_white_l05_1",
    "vct_game_white_l06_2",
    "vct_game_white_l06_3",
    "vct_game_white_l07_1",
    "vct_game_white_l07_1_short",
    "vct_game_black_l08_1",
];

#[test]
fn fast_public_vct_cases_are_decided_and_wins_verified() {
    let Some(file) = quintet() else { return };
    for name in FAST_CASES {
        let id = format!("quintet/{name}");
        let doc = solve(&["--vct", &file, "--id", &id]);
        let expected = if name.ends_with("_short") {
            Outcome::NoWin
        } else {
            Outcome::Win
        };
        assert_eq!(doc.result, expected, "{id}");
        let limit = doc.limit.expect("the public cases state their limit");
        assert!(
            doc.attacker_moves as u32 <= limit,
            "{id}: {} > {limit}",
            doc.attacker_moves,
        );
        assert_eq!(
            doc.verified,
            expected == Outcome::Win,
            "{id}: wins are checked against every defence"
        );
        assert!(doc.threat_limit.is_some());
    }
}

#[test]
fn win_in_counts_the_five() {
    let Some(file) = quintet() else { return };
    // Okabe's "5 moves to end" No. 02: black's fifth move makes five.
    let doc = solve(&["--win-in", "5", &file, "--id", "quintet/vct_black"]);
    assert_eq!((doc.result, doc.mode), (Outcome::Win, Mode::WinIn));
    assert!(doc.verified);
    let doc = solve(&["--win-in", "4", &file, "--id", "quintet/vct_black"]);
    assert_eq!(doc.result, Outcome::NoWin);
}

#[test]
fn composed_double_three_under_each_rule() {
    let file = crate::EXAMPLES;
    for id in ["tengen/double-three", "tengen/double-three-standard"] {
        let doc = solve(&["--vct", file, "--id", id, "--proof"]);
        assert_eq!(
            (doc.result, doc.attacker_moves, doc.verified),
            (Outcome::Win, 2, true),
            "{id}"
        );
        assert_eq!(doc.line[0].to_string(), "h8", "{id}");
        let tree = doc.proof.expect("--proof adds the tree");
        assert_eq!(tree.mv.to_string(), "h8");
        assert_eq!(tree.main_line(), doc.line);
        assert_eq!(
            doc.ending,
            Some(Ending::DoubleThreat),
            "h9 opens two fives; the line shows a block and the five"
        );
    }
    // Under renju h8 is a double three, forbidden for black, and it is the only move that makes
    // two threes; a single three is blocked before it becomes a straight four, so within the
    // puzzle's bounds (2 attacker moves, threat limit 1) black has no win at all.
    let (code, out, err) = run(&[
        "forbidden",
        file,
        "--id",
        "tengen/double-three",
        "--rule",
        "renju",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let forbidden: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        forbidden["points"],
        serde_json::json!([{"point": "h8", "foul": "double-three"}])
    );
    let renju = [
        "--vct",
        file,
        "--id",
        "tengen/double-three",
        "--rule",
        "renju",
    ];
    let doc = solve(&renju);
    assert_eq!(
        (doc.result, doc.attacker_moves, doc.limit, doc.threat_limit),
        (Outcome::NoWin, 0, Some(2), Some(1))
    );
    assert!(doc.line.is_empty() && !doc.verified && doc.ending.is_none());
    // Black does have a VCT, a longer one: tengen proves a win in 5 (and verifies it against
    // every defence, so its black moves are legal) and finds none within 4 (with threat limits
    // 1, 2 and 3 alike), so 5 is the shortest it knows.
    let doc = solve(&[&renju[..], &["--limit", "5"]].concat());
    assert_eq!(
        (doc.result, doc.attacker_moves, doc.verified),
        (Outcome::Win, 5, true)
    );
    assert_ne!(doc.line[0].to_string(), "h8");
    let doc = solve(&[&renju[..], &["--limit", "4"]].concat());
    assert_eq!(doc.result, Outcome::NoWin);
    // Without the threes there is nothing: no VCF, no VCT.
    let doc = solve(&["--vct", "h8 a1 h9 o1", "--threat-limit", "2"]);
    assert_eq!(doc.result, Outcome::NoWin);
}

#[test]
fn proof_text_lists_the_replies() {
    let file = crate::EXAMPLES;
    let (code, out, err) = run(&[
        "solve",
        "--vct",
        file,
        "--id",
        "tengen/double-three",
        "--proof",
        "--verify",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("black wins by VCT in at most 3 moves (proof of"),
        "{out}"
    );
    assert!(out.contains("verified against every defence"), "{out}");
    assert!(out.contains("1. h8\n"), "{out}");
    assert!(out.contains("(two fives)"), "{out}");
}

/// A disproof that an inner VCF's first budget left unclaimed (issue 36): four of the inner
/// VCF runs of this search spend their 20,000 positions. Before, the search ended by itself
/// after 10.7 M positions with `unknown` ("an inner search ran out of its own budget"); now
/// those runs are asked again with more, and the "no win" is proven (quintet agrees, in about
/// 20 s). The position: `lfz084/wzcg-xiaotimu-daquan/114` with h14 added to its record.
#[test]
fn a_disproof_resting_on_a_long_inner_vcf_finishes() {
    let doc = solve(&[
        "--vct",
        "e15 f15 e14 g15 g13 h15 e12 f14 f12 g12 h14",
        "--rule",
        "renju",
        "--to-move",
        "black",
        "--threat-limit",
        "2",
        "--limit",
        "30",
        "--max-nodes",
        "20000000",
    ]);
    assert_eq!(doc.result, Outcome::NoWin, "after {} positions", doc.nodes);
    assert!(doc.nodes < 12_000_000, "{}", doc.nodes);
}

#[test]
fn a_spent_budget_is_unknown() {
    let Some(file) = quintet() else { return };
    let doc = solve(&[
        "--vct",
        &file,
        "--id",
        "quintet/vct_game_black_l10_1",
        "--max-nodes",
        "2000",
    ]);
    assert_eq!(doc.result, Outcome::Unknown);
    assert!(doc.line.is_empty() && doc.proof.is_none());
    // A spent time is unknown too (vct_unstable needs about 58M nodes): never no-win.
    let doc = solve(&[
        "--vct",
        &file,
        "--id",
        "quintet/vct_unstable",
        "--time",
        "200ms",
    ]);
    assert_eq!(doc.result, Outcome::Unknown);
    assert!(doc.nodes > 0 && doc.nodes < 10_000_000, "{}", doc.nodes);
}

#[test]
fn the_verifier_finds_a_counter_example_in_a_false_proof() {
    // Black h8 h9 with white far away: h10 makes an open three, but white can simply block
    // it. A "proof" that lists no defence is not one.
    let source = Source {
        name: "t".into(),
        text: "h8 a1 h9 o1".into(),
    };
    let board = load(&source, &LoadOptions::default()).unwrap().board;
    let tree = Attack {
        mv: "h10".parse().unwrap(),
        ending: None,
        defences: Vec::new(),
    };
    let bounds = Limits {
        depth: 3,
        count_five: false,
        threat_limit: 1,
        nodes: 100_000,
        ..Limits::default()
    };
    let err = verify::proof(&board, Color::Black, &tree, bounds).unwrap_err();
    assert!(err.problem.contains("counter-example"), "{err}");
    // A true proof of the composed double three passes.
    let file = crate::EXAMPLES;
    let (_, out, _) = run(&[
        "solve",
        "--vct",
        file,
        "--id",
        "tengen/double-three",
        "--proof",
        "--format",
        "json",
    ]);
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    let source = Source::from_arg(file).unwrap();
    let opts = LoadOptions {
        id: Some("tengen/double-three".into()),
        ..LoadOptions::default()
    };
    let board = load(&source, &opts).unwrap().board;
    let bounds = Limits {
        depth: 2,
        count_five: false,
        threat_limit: 1,
        nodes: 100_000,
        ..Limits::default()
    };
    let checked = verify::proof(&board, Color::Black, doc.proof.as_ref().unwrap(), bounds).unwrap();
    assert!(
        checked.outside > 100,
        "every reply outside the tree was tried: {checked:?}"
    );
    assert_eq!(board.rule(), Rule::Freestyle);
}

#[test]
fn vct_reads_standard_input() {
    let (code, out, err) = run_stdin(
        &["solve", "--vct", "-", "--format", "json"],
        "h8 a1 i8 o1 j8 a15\n",
    );
    assert_eq!(code, 0, "{err}");
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (doc.result, doc.attacker_moves),
        (Outcome::Win, 1),
        "h8-j8 with k8 or g8 is an open four"
    );
}

mod symmetry {
    use proptest::prelude::*;
    use tengen::board::Rule;
    use tengen::solve::{Limits, Outcome, vct, verify};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Random positions under every rule: a VCT decided on a board (quick style: its
        /// pass has the whole budget) is decided the same way on its mirror image (deep style),
        /// and every win passes the proof verifier.
        #[test]
        fn symmetries_preserve_vct(
            rule in prop::sample::select(Rule::ALL.to_vec()),
            stones in prop::collection::vec((4u8..11, 4u8..11), 8..24),
            t in 1u8..8,
        ) {
            let board = crate::random_game(rule, &stones);
            prop_assume!(board.winner().is_none());
            let mirrored = crate::mirrored(&board, t);
            let limits = Limits { depth: 4, count_five: false, nodes: 60_000, threat_limit: 2, ..Limits::default() };
            let deep = Limits { quick_nodes: 0, ..limits };
            let a = vct::solve(&board, board.to_move(), limits, 8).unwrap();
            let b = vct::solve(&mirrored, board.to_move(), deep, 8).unwrap();
            // An undecided case tests nothing: it is rejected, and proptest fails the test when
            // too many are, so the property cannot pass on unknowns alone.
            prop_assume!(a.outcome != Outcome::Unknown && b.outcome != Outcome::Unknown);
            prop_assert_eq!(a.outcome, b.outcome, "{:?}", board);
            let bounds = Limits { depth: 4, count_five: false, threat_limit: 2, nodes: 200_000, ..Limits::default() };
            for (solution, on) in [(&a, &board), (&b, &mirrored)] {
                if let Some(tree) = &solution.proof {
                    let checked = verify::proof(on, board.to_move(), tree, bounds);
                    prop_assert!(checked.is_ok(), "{:?}\n{:?}", checked, on);
                }
            }
        }
    }
}

mod reach {
    use proptest::prelude::*;
    use tengen::board::Rule;
    use tengen::solve::{Limits, Outcome, vcf, verify};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// The verifier skips a defence that lies off the points through which a defender
        /// stone could change the attacker's VCF (`verify::vcf_line_reach`): on random
        /// positions under every rule, a defender stone on any such point leaves the VCF a
        /// forced win, replayed in full (or black, defending, must block on a forbidden
        /// point).
        #[test]
        fn a_defender_stone_off_the_reach_leaves_the_vcf_winning(
            rule in prop::sample::select(Rule::ALL.to_vec()),
            stones in prop::collection::vec((3u8..12, 3u8..12), 10..40),
        ) {
            let board = crate::random_game(rule, &stones);
            prop_assume!(board.winner().is_none());
            let attacker = board.to_move();
            let limits = Limits { depth: 8, count_five: false, nodes: 200_000, threat_limit: 2, ..Limits::default() };
            let found = vcf::solve(&board, attacker, limits, true);
            prop_assume!(found.outcome == Outcome::Win);
            let reach = verify::vcf_line_reach(&board, attacker, &found.line).unwrap();
            let size = board.size() as i32;
            let mut skipped = 0;
            for p in board.empty_points() {
                if reach.contains(size, p.x() as i32, p.y() as i32) {
                    continue;
                }
                skipped += 1;
                let mut after = board.clone();
                after.set_to_move(attacker.opponent());
                after.play(p);
                // Or black, defending, is forced onto a forbidden block: white makes five.
                let replay = verify::vcf_line(&after, attacker, &found.line);
                let forced_foul = replay.as_ref().is_err_and(|e| {
                    e.number % 2 == 0 && e.problem == "black plays a forbidden point"
                });
                prop_assert!(replay.is_ok() || forced_foul, "defender at {p}: {replay:?}\n{board:?}\n{:?}", found.line);
            }
            prop_assert!(skipped > 0);
        }
    }
}

mod deepening {
    use proptest::prelude::*;
    use tengen::board::Rule;
    use tengen::solve::{Limits, Outcome, vcf};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// The shortest VCF deepens one attacker move at a time and stops at a no-win that no
        /// bound cut short: on random positions under every rule it finds a win exactly when
        /// a search at the full bound does, never a longer one.
        #[test]
        fn shortest_and_full_bound_agree(
            rule in prop::sample::select(Rule::ALL.to_vec()),
            stones in prop::collection::vec((3u8..12, 3u8..12), 10..40),
        ) {
            let board = crate::random_game(rule, &stones);
            prop_assume!(board.winner().is_none());
            let attacker = board.to_move();
            let limits = Limits { depth: 12, count_five: false, nodes: 400_000, threat_limit: 2, ..Limits::default() };
            let full = vcf::solve(&board, attacker, limits, false);
            let short = vcf::solve(&board, attacker, limits, true);
            prop_assume!(full.outcome != Outcome::Unknown && short.outcome != Outcome::Unknown);
            prop_assert_eq!(full.outcome, short.outcome, "{:?}", board);
            prop_assert!(short.line.len() <= full.line.len(), "{:?}", board);
        }
    }
}

#[test]
fn a_tiny_table_still_solves() {
    let Some(file) = quintet() else { return };
    let doc = solve(&[
        "--vct",
        &file,
        "--id",
        "quintet/vct_game_black_l05_2",
        "--hash-mb",
        "1",
    ]);
    assert_eq!((doc.result, doc.verified), (Outcome::Win, true));
}

/// A reference VCT written from the definition, full width, to check the solver's move sets
/// (quiet candidates, refutation zones, the defender-VCF filter) on small boards: the attacker
/// may play any legal move that makes a five point or, were the defender to pass, a VCF within
/// the threat limit; the defender may play any legal move at all.
mod reference {
    use std::collections::HashMap;

    use proptest::prelude::*;
    use tengen::board::{Board, Color, Point, Rule};
    use tengen::pattern::{self, Class};
    use tengen::solve::{DefenceOrder, Limits, Outcome, vcf, vct};

    struct Reference {
        attacker: Color,
        threat_limit: u32,
        memo: HashMap<(u64, u32, bool), bool>,
        /// Nodes left before the case is given up (dense small boards can take minutes).
        budget: u64,
    }

    impl Reference {
        fn legal(&self, b: &Board, c: Color, p: Point) -> bool {
            !(c == Color::Black && b.rule().has_fouls(c) && pattern::foul(b, p).is_some())
        }

        fn empties(b: &Board) -> Vec<Point> {
            b.empty_points().collect()
        }

        /// Attacker to move with `n` moves left (counted up to the unstoppable threat).
        fn or(&mut self, b: &mut Board, n: u32) -> bool {
            let (a, d) = (self.attacker, self.attacker.opponent());
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if !b.five_points(a).is_empty() {
                return true;
            }
            if n == 0 {
                return false;
            }
            if let Some(&r) = self.memo.get(&(b.hash(), n, true)) {
                return r;
            }
            let threats: Vec<usize> = b.five_points(d).iter().collect();
            let moves: Vec<Point> = match threats[..] {
                [] => Self::empties(b),
                [q] => vec![Point::from_index(q)],
                _ => vec![],
            };
            let mut win = false;
            for m in moves {
                if !self.legal(b, a, m) {
                    continue;
                }
                if n == 1 && b.four_points(a).contains(m.index()) && !b.rule().has_fouls(d) {
                    // One move left: only two five points can win, read from the shapes.
                    let c = Class::of(&b.shapes(m.index(), a));
                    if !(c.straight || c.fours >= 2) {
                        continue;
                    }
                } else if n == 1 && !b.four_points(a).contains(m.index()) {
                    continue;
                }
                b.play(m);
                win = self.and(b, n - 1);
                b.undo();
                if win {
                    break;
                }
            }
            self.memo.insert((b.hash(), n, true), win);
            win
        }

        /// Defender to move after the attacker's move, `n` attacker moves left.
        fn and(&mut self, b: &mut Board, n: u32) -> bool {
            let (a, d) = (self.attacker, self.attacker.opponent());
            let fives: Vec<usize> = b.five_points(a).iter().collect();
            let foul = |b: &Board, q: usize| !self.legal(b, d, Point::from_index(q));
            match fives[..] {
                [_, _, ..] => return true,
                [q] if foul(b, q) => return true,
                [q] => {
                    if !b.five_points(d).is_empty() {
                        return false;
                    }
                    b.play(Point::from_index(q));
                    let win = self.or(b, n);
                    b.undo();
                    return win;
                }
                [] => {}
            }
            if n == 0 || !b.five_points(d).is_empty() {
                return false;
            }
            // A quiet move must threaten a VCF within the threat limit.
            b.set_to_move(a);
            let limits = Limits {
                depth: self.threat_limit.min(n),
                count_five: false,
                nodes: u64::MAX,
                ..Limits::default()
            };
            let threat = vcf::solve(b, a, limits, false).outcome == Outcome::Win;
            b.set_to_move(d);
            if !threat {
                return false;
            }
            if let Some(&r) = self.memo.get(&(b.hash(), n, false)) {
                return r;
            }
            let mut win = true;
            for r in Self::empties(b) {
                if !self.legal(b, d, r) {
                    continue;
                }
                b.play(r);
                win = self.or(b, n);
                b.undo();
                if !win {
                    break;
                }
            }
            self.memo.insert((b.hash(), n, false), win);
            win
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Threat limit 3 (its own candidate set) needs four attacker moves to matter: 7x7.
        #[test]
        fn vct_with_threat_limit_3_agrees_with_the_reference(
            rule in prop::sample::select(Rule::ALL.to_vec()),
            stones in prop::collection::vec((0u8..7, 0u8..7), 10..24),
        ) {
            agree(crate::random_game_on(7, rule, &stones), 4, 3)?;
        }
    }

    fn agree(board: Board, depth: u32, threat_limit: u32) -> Result<(), TestCaseError> {
        prop_assume!(board.winner().is_none());
        let attacker = board.to_move();
        // Each style alone, the deep one (no quick pass) and the quick one (its pass has the
        // whole budget), each with either order of the defender's replies.
        let styles = [
            (0, DefenceOrder::Board),
            (0, DefenceOrder::LineThenRefuting),
            (u64::MAX, DefenceOrder::Board),
            (u64::MAX, DefenceOrder::LineThenRefuting),
        ]
        .map(|(quick_nodes, defence_order)| {
            let limits = Limits {
                depth,
                count_five: false,
                nodes: 5_000_000,
                threat_limit,
                deadline: None,
                quick_nodes,
                cancel: None,
                defence_order,
            };
            vct::solve(&board, attacker, limits, 8).unwrap().outcome
        });
        prop_assume!(styles.iter().all(|&got| got != Outcome::Unknown));
        let mut r = Reference {
            attacker,
            threat_limit,
            memo: HashMap::new(),
            budget: 200_000,
        };
        let mut b = board.clone();
        let want = if r.or(&mut b, depth) {
            Outcome::Win
        } else {
            Outcome::NoWin
        };
        prop_assume!(r.budget > 0);
        prop_assert_eq!(styles, [want; 4], "{:?}", board);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// Wins within 2 or 3 attacker moves, threat limit 1 or 2, all rules, on 7x7 to 9x9
        /// boards: the solver's answer is the reference's.
        #[test]
        fn vct_agrees_with_a_full_width_reference(
            rule in prop::sample::select(Rule::ALL.to_vec()),
            size in 7u8..10,
            stones in prop::collection::vec((0u8..9, 0u8..9), 10..26),
            depth in 2u32..4,
            threat_limit in 1u32..3,
        ) {
            agree(crate::random_game_on(size, rule, &stones), depth, threat_limit)?;
        }
    }
}

/// A proof that reaches one position by two move orders writes that subtree once, with an `id`,
/// and refers back to it with `same_as`; the JSON reads back into a proof that still verifies,
/// and the text form labels the shared subtree.
#[test]
fn shared_subtrees_are_written_once_and_read_back() {
    let Some(file) = quintet() else { return };
    let id = "quintet/vct_game_black_l05_2";
    let (code, out, err) = run(&[
        "solve", "--vct", &file, "--id", id, "--proof", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"same_as\""), "{out}");
    let doc: json::Solve = serde_json::from_str(&out).unwrap();
    let tree = doc.proof.as_ref().unwrap();
    assert_eq!(Some(tree.size()), doc.proof_nodes);
    assert_eq!(tree.main_line(), doc.line);
    let source = Source::from_arg(&file).unwrap();
    let opts = LoadOptions {
        id: Some(id.into()),
        ..LoadOptions::default()
    };
    let board = load(&source, &opts).unwrap().board;
    let bounds = Limits {
        depth: 5,
        count_five: false,
        threat_limit: 2,
        nodes: 1_000_000,
        ..Limits::default()
    };
    verify::proof(&board, Color::Black, tree, bounds).unwrap();
    // Written back, the JSON is the same text.
    let again = serde_json::to_value(tree).unwrap();
    let first: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(again, first["proof"]);
    let (_, text, _) = run(&["solve", "--vct", &file, "--id", id, "--proof"]);
    assert!(
        text.contains("[#1]") && text.contains("(as at [#1] above)"),
        "{text}"
    );
}
