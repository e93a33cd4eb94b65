//! Rules: the incremental shapes and the fast foul judge agree with the slow reference on random
//! positions of every rule and several sizes; hand-checked forbidden-point fixtures.

use proptest::prelude::*;
use tengen::board::{Board, Color, Point, Rule};
use tengen::pattern::reference::{self, Grid};
use tengen::pattern::{self, Foul};

/// A random position: stones put by colour, skipping taken points and fives; then some played
/// and undone, so the incremental updates run both ways.
fn position(rules: Vec<Rule>) -> impl Strategy<Value = Board> {
    (
        prop::sample::select(vec![7u8, 9, 15, 19]),
        prop::sample::select(rules),
        prop::collection::vec((0u8..19, 0u8..19, any::<bool>()), 0..70),
        prop::collection::vec((0u8..19, 0u8..19), 0..8),
    )
        .prop_map(|(size, rule, stones, churn)| {
            let mut board = Board::new(size, rule).unwrap();
            for (x, y, black) in stones {
                let p = Point::new(x % size, y % size).unwrap();
                let c = if black { Color::Black } else { Color::White };
                if board.is_empty(p) && !board.makes_five(p, c) {
                    board.put(p, c);
                }
            }
            let mut played = 0;
            for (x, y) in churn {
                let p = Point::new(x % size, y % size).unwrap();
                if board.is_empty(p) {
                    board.play(p);
                    played += 1;
                }
            }
            for _ in 0..played / 2 {
                board.undo();
            }
            board
        })
}

fn rebuilt(board: &Board) -> Board {
    let mut fresh = Board::new(board.size(), board.rule()).unwrap();
    for c in [Color::Black, Color::White] {
        for p in board.stones(c) {
            fresh.put(p, c);
        }
    }
    fresh
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn incremental_shapes_match_the_reference(board in position(Rule::ALL.to_vec())) {
        let fresh = rebuilt(&board);
        let mut grid = Grid::of(&board);
        // The bit sets of stones and empty cells, kept move by move, match the cells.
        for p in board.points() {
            let i = p.index();
            prop_assert_eq!(board.empty_bits().contains(i), board.get(p).is_none(), "empty {}", p);
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(board.stone_bits(c).contains(i), board.get(p) == Some(c), "stone {}", p);
            }
        }
        prop_assert_eq!(board.empty_bits().count() as usize, board.empty_points().count());
        for p in board.empty_points() {
            let (x, y) = (p.x() as i32, p.y() as i32);
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(board.shapes(p.index(), c), fresh.shapes(p.index(), c), "{} {:?}", p, c);
                let five = grid.wins(x, y, c, None);
                prop_assert_eq!(board.five_points(c).contains(p.index()), five, "five {} {:?}\n{:?}", p, c, board);
                let fours: usize = (0..4).map(|d| grid.fours(x, y, d, c)).sum();
                let class = pattern::class(&board, p, c);
                // Fours only mean something where the stone does not already win or overline.
                if !five && !class.overline {
                    prop_assert_eq!(class.fours as usize, fours, "fours {} {:?}\n{:?}", p, c, board);
                }
                prop_assert_eq!(board.four_points(c).contains(p.index()), !five && class.fours > 0);
            }
        }
    }

    /// Moves played before the rule changes are undone by re-reading their neighbours (the
    /// undo journal only covers moves since the tables were rebuilt).
    #[test]
    fn undo_across_a_rule_change_matches_a_rebuilt_board(
        board in position(Rule::ALL.to_vec()),
        rule in prop::sample::select(Rule::ALL.to_vec()),
        more in prop::collection::vec((0u8..19, 0u8..19), 1..6),
    ) {
        let mut board = board;
        let size = board.size();
        let before = board.history().len();
        for (x, y) in more {
            let p = Point::new(x % size, y % size).unwrap();
            if board.is_empty(p) {
                board.play(p);
            }
        }
        board.set_rule(rule);
        while board.history().len() > before {
            board.undo();
        }
        let fresh = rebuilt(&board);
        for p in board.empty_points() {
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(board.shapes(p.index(), c), fresh.shapes(p.index(), c));
                prop_assert_eq!(board.five_points(c).contains(p.index()), fresh.five_points(c).contains(p.index()));
                prop_assert_eq!(board.four_points(c).contains(p.index()), fresh.four_points(c).contains(p.index()));
            }
        }
    }

    /// The verifier's five points, kept move by move, equal a full scan of the reference grid
    /// after every stone put and every stone taken, for both colours under every rule.
    #[test]
    fn kept_five_points_match_full_scans(
        board in position(Rule::ALL.to_vec()),
        moves in prop::collection::vec((0u8..19, 0u8..19, any::<bool>()), 1..40),
    ) {
        use tengen::solve::verify::Fives;
        let mut grid = Grid::of(&board);
        let mut fives = Fives::of(&grid);
        let size = board.size();
        let mut placed = Vec::new();
        let same = |grid: &Grid, fives: &Fives| {
            [Color::Black, Color::White].into_iter().all(|c| {
                let full: Vec<Point> = grid
                    .win_points(c)
                    .into_iter()
                    .filter_map(|(x, y)| Point::new(x as u8, y as u8))
                    .collect();
                fives.points(c) == full
            })
        };
        for (x, y, black) in moves {
            let (x, y) = ((x % size) as i32, (y % size) as i32);
            let c = if black { Color::Black } else { Color::White };
            if grid.get(x, y) == Some(None) {
                fives.set(&mut grid, x, y, Some(c));
                placed.push((x, y));
                prop_assert!(same(&grid, &fives), "after {c:?} at ({x}, {y})\n{board:?}");
            }
        }
        while let Some((x, y)) = placed.pop() {
            fives.set(&mut grid, x, y, None);
            prop_assert!(same(&grid, &fives), "after taking ({x}, {y})\n{board:?}");
        }
    }

    /// The verifier's remembered foul verdicts ([`Fives::foul`]) equal the reference judge's
    /// own, cells read included, as stones come and go: the points near each move are judged
    /// again and again, so remembered verdicts are used as well as fresh ones.
    #[test]
    fn remembered_fouls_match_the_judge(
        board in position(vec![Rule::Renju]),
        moves in prop::collection::vec((0u8..19, 0u8..19, any::<bool>()), 1..30),
    ) {
        use tengen::solve::verify::Fives;
        let mut grid = Grid::of(&board);
        let mut fives = Fives::of(&grid);
        let size = board.size() as i32;
        let mut placed = Vec::new();
        let check = |grid: &mut Grid, fives: &mut Fives, cx: i32, cy: i32| {
            for (x, y) in (cx - 2..=cx + 2).flat_map(|x| (cy - 2..=cy + 2).map(move |y| (x, y))) {
                if grid.get(x, y) != Some(None) {
                    continue;
                }
                let mut fresh = grid.clone();
                fresh.clear_reads();
                fresh.recording(true);
                let want = fresh.foul(x, y);
                fresh.recording(false);
                let mut read = fresh.reads();
                read.insert(size, x, y);
                grid.clear_reads();
                let got = fives.foul(grid, x, y, true);
                if got != want || grid.reads() != read {
                    return Err(format!("({x}, {y}): {got:?} against {want:?}"));
                }
            }
            Ok(())
        };
        for (x, y, black) in moves {
            let (x, y) = (x as i32 % size, y as i32 % size);
            let c = if black { Color::Black } else { Color::White };
            if grid.get(x, y) == Some(None) {
                fives.set(&mut grid, x, y, Some(c));
                placed.push((x, y));
                let r = check(&mut grid, &mut fives, x, y);
                prop_assert!(r.is_ok(), "{:?}\n{:?}", r, board);
            }
        }
        while let Some((x, y)) = placed.pop() {
            fives.set(&mut grid, x, y, None);
            let r = check(&mut grid, &mut fives, x, y);
            prop_assert!(r.is_ok(), "{:?}\n{:?}", r, board);
        }
    }

    #[test]
    fn fast_fouls_match_the_reference(board in position(vec![Rule::Renju])) {
        prop_assert_eq!(pattern::fouls(&board), reference::fouls(&board), "\n{:?}", board);
    }
}

/// The forbidden points of a diagram (black to move, renju).
fn fouls_of(diagram: &str) -> Vec<(String, Foul)> {
    use tengen::files::input::{LoadOptions, Source, load};
    let source = Source {
        name: "<fixture>".into(),
        text: diagram.to_string(),
    };
    let opts = LoadOptions {
        given: tengen::setup::Given {
            rule: Some(Rule::Renju),
            to_move: Some(Color::Black),
            ..Default::default()
        },
        ..LoadOptions::default()
    };
    let board = load(&source, &opts).unwrap().board;
    let fast = pattern::fouls(&board);
    assert_eq!(
        fast,
        reference::fouls(&board),
        "fast and reference judges disagree"
    );
    fast.into_iter().map(|(p, f)| (p.to_string(), f)).collect()
}

fn foul_at(fouls: &[(String, Foul)], point: &str) -> Option<Foul> {
    fouls.iter().find(|(p, _)| p == point).map(|(_, f)| *f)
}

const EMPTY_ROWS: &str = " 9 . . . . . . . . . . . . . . . 9\n 8 . . . . . . . . . . . . . . . 8\n";

fn board(rows: &str) -> String {
    format!(
        "   a b c d e f g h i j k l m n o\n15 . . . . . . . . . . . . . . . 15\n{rows}{EMPTY_ROWS}"
    )
}

#[test]
fn overline_is_forbidden_and_exact_five_is_not() {
    let f = fouls_of(&board("14 . . x x x . x x . . . . . . . 14\n"));
    assert_eq!(
        foul_at(&f, "f14"),
        Some(Foul::Overline),
        "c14-h14 would be six"
    );
    let f = fouls_of(&board("14 . . x x x . x . . . . . . . . 14\n"));
    assert_eq!(foul_at(&f, "f14"), None, "c14-g14 is an exact five");
}

#[test]
fn double_fours_across_and_on_one_line() {
    let f = fouls_of(&board(
        "14 . . . . x x x . . . . . . . . 14\n13 . . . . . . . x . . . . . . . 13\n12 . . . . . . . x . . . . . . . 12\n11 . . . . . . . x . . . . . . . 11\n",
    ));
    assert_eq!(
        foul_at(&f, "h14"),
        Some(Foul::DoubleFour),
        "row e14-h14 and column h11-h14"
    );
    let f = fouls_of(&board("14 . . x . x . x . x . . . . . . 14\n"));
    assert_eq!(
        foul_at(&f, "f14"),
        Some(Foul::DoubleFour),
        "x.xxx.x filled in the middle"
    );
}

/// Three on row 7 (e7 f7 g7 once g7 is played) and three on column g (g5 g6 g7).
const DOUBLE_THREE: &str = "   a b c d e f g h i j k l m n o\n 9 . . . . . . . . . . . . . . . 9\n 8 . . . . . . . . . . . . . . . 8\n 7 . . . . x x . . . . . . . . . 7\n 6 . . . . . . x . . . . . . . . 6\n 5 . . . . . . x . . . . . . . . 5\n 4 . . . . . . . . . . . . . . . 4\n 3 . . . . . . . . . . . . . . . 3\n";

fn with(extra: &[(&str, char)]) -> String {
    let mut rows: Vec<String> = DOUBLE_THREE.lines().map(String::from).collect();
    for (point, c) in extra {
        let p: Point = point.parse().unwrap();
        let row = rows
            .iter_mut()
            .find(|r| r.trim_start().starts_with(&format!("{} ", p.y() + 1)))
            .unwrap();
        let col = 3 + 2 * p.x() as usize;
        row.replace_range(col..col + 1, &c.to_string());
    }
    rows.join("\n") + "\n"
}

#[test]
fn double_three_and_false_double_threes() {
    let f = fouls_of(&with(&[]));
    assert_eq!(foul_at(&f, "g7"), Some(Foul::DoubleThree));
    // White c7 leaves h7 as the row three's only straight-four point; black h4 h5 h6 make h7 a
    // double four, so the row three is false and g7 is legal.
    let f = fouls_of(&with(&[("c7", 'o'), ("h4", 'x'), ("h5", 'x'), ("h6", 'x')]));
    assert_eq!(foul_at(&f, "h7"), None, "h7 is a 4-3 before g7 is played");
    assert_eq!(
        foul_at(&f, "g7"),
        None,
        "false double three: its four point is a double four"
    );
    // The same with h7 an overline point (h4 h5 h6 . h8 h9): false again.
    let f = fouls_of(&with(&[
        ("c7", 'o'),
        ("h4", 'x'),
        ("h5", 'x'),
        ("h6", 'x'),
        ("h8", 'x'),
        ("h9", 'x'),
    ]));
    assert_eq!(foul_at(&f, "h7"), Some(Foul::Overline));
    assert_eq!(
        foul_at(&f, "g7"),
        None,
        "false double three: its four point is an overline"
    );
    // Without white c7 the row three has a second, legal four point d7: a real double three.
    let f = fouls_of(&with(&[("h4", 'x'), ("h5", 'x'), ("h6", 'x')]));
    assert_eq!(foul_at(&f, "g7"), Some(Foul::DoubleThree));
    // h7 completing a five (h3-h6 below it) is never forbidden, so the three is real. This pins
    // the reading the README's forbidden section states: a three whose only straight-four
    // point is also a five point in another line is a three (Rapfi reads it as none), so g7 is
    // a double three. It arises only when black can already make five.
    let f = fouls_of(&with(&[
        ("c7", 'o'),
        ("h3", 'x'),
        ("h4", 'x'),
        ("h5", 'x'),
        ("h6", 'x'),
    ]));
    assert_eq!(foul_at(&f, "h7"), None);
    assert_eq!(
        foul_at(&f, "g7"),
        Some(Foul::DoubleThree),
        "the three's four point makes five: real"
    );
}

#[test]
fn forbidden_command_lists_and_marks_fouls() {
    let (code, out, err) = crate::run_stdin(
        &[
            "forbidden",
            "-",
            "--rule",
            "renju",
            "--to-move",
            "black",
            "--format",
            "json",
        ],
        DOUBLE_THREE,
    );
    assert_eq!(code, 0, "{err}");
    let doc: tengen::report::json::Forbidden = serde_json::from_str(&out).unwrap();
    assert_eq!(doc.rule, Rule::Renju);
    let g7 = doc
        .points
        .iter()
        .find(|f| f.point.to_string() == "g7")
        .expect("g7 is listed");
    assert_eq!(g7.foul, Foul::DoubleThree);
    let (_, text, _) = crate::run_stdin(
        &["forbidden", "-", "--rule", "renju", "--to-move", "black"],
        DOUBLE_THREE,
    );
    assert!(text.contains(" 7 . . . . x x # "), "{text}");
    assert!(text.contains("g7 double three"), "{text}");
    let (_, text, _) = crate::run_stdin(
        &[
            "show",
            "-",
            "--rule",
            "renju",
            "--to-move",
            "black",
            "--forbidden",
        ],
        DOUBLE_THREE,
    );
    assert!(text.contains(" 7 . . . . x x # "), "{text}");
    let (_, text, _) = crate::run_stdin(
        &[
            "forbidden",
            "-",
            "--rule",
            "freestyle",
            "--to-move",
            "black",
        ],
        DOUBLE_THREE,
    );
    assert!(text.contains("only renju forbids moves"), "{text}");
}

#[test]
fn a_renju_record_with_a_black_foul_is_refused() {
    let moves = "e7 a1 f7 a3 g5 a5 g6 a7 g7";
    // `show` draws a record to its end, the foul included; `analyze` needs a side to move and
    // refuses it.
    let (code, _, err) = crate::run(&["analyze", moves, "--rule", "renju", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(":1:25:")
            && err.contains("forbidden point for black")
            && err.contains("double three"),
        "{err}"
    );
    let (code, _, _) = crate::run(&["show", moves, "--rule", "freestyle"]);
    assert_eq!(code, 0, "only renju forbids it");
}

#[test]
fn composed_renju_positions_get_an_order_without_fouls() {
    // Black e7 f7 g5 g6 g7: played last, g7 would be a double three, so the order must put it
    // earlier. Five stones each: black to move.
    let diagram = with(&[
        ("g7", 'x'),
        ("c3", 'o'),
        ("e3", 'o'),
        ("l9", 'o'),
        ("n9", 'o'),
        ("l4", 'o'),
    ]);
    let (code, out, err) = crate::run_stdin(
        &["convert", "-", "--rule", "renju", "--to", "moves"],
        &diagram,
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.trim().ends_with("g7"), "{out}");
    let (code, _, err) = crate::run(&["show", out.trim(), "--rule", "renju"]);
    assert_eq!(
        code, 0,
        "the written record replays under renju: {out} {err}"
    );
}

#[test]
fn nested_false_double_three() {
    // White c7 leaves h7 as the only straight-four point of g7's row three. With black h8 h9
    // (column) and i6 j5 (anti-diagonal), h7 is a four plus two threes once g7 is played.
    let base = [
        ("c7", 'o'),
        ("h8", 'x'),
        ("h9", 'x'),
        ("i6", 'x'),
        ("j5", 'x'),
    ];
    let f = fouls_of(&with(&base));
    assert_eq!(
        foul_at(&f, "g7"),
        None,
        "h7 would be a 4-3-3, so the row three is false"
    );
    // White k4 leaves g8 as the anti-diagonal three's only four point, and g8 is a double four
    // (column g5-g8 and the anti-diagonal): that three is false, h7 is a legal 4-3, and g7's
    // row three is real again.
    let mut nested = base.to_vec();
    nested.push(("k4", 'o'));
    let f = fouls_of(&with(&nested));
    assert_eq!(foul_at(&f, "g7"), Some(Foul::DoubleThree));
}
