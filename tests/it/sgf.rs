//! SGF game records through the binary: c-gomoku-cli's files read, several games picked by
//! `--id`, errors located, `convert --to sgf` written and read back.

use proptest::prelude::*;
use tengen::board::{Board, Color, Point, Rule};
use tengen::files::input::{LoadOptions, Source, load};
use tengen::notation::Format;
use tengen::notation::write::write as write_format;
use tengen::report::json;
use tengen::setup::Given;

use crate::{run, run_stdin};

/// Two games as c-gomoku-cli appends them (a match's `games.sgf`): a root node with the match's
/// properties, then one move a node with its time as a comment. The first ends without a five
/// (white ran out of time), so its last position is a position tengen takes.
const CGC: &str = "(;FF[4]GM[4]GN[1]EV[tengen x rapfi]DT[2026.11.27 06:57:54]RO[1.1]RU[4]SZ[15]PB[tengen]PW[rapfi]RE[B+1]TE[Black win by time forfeit]
;B[hh]C[opening move];W[hg]C[opening move];B[ig]C[opening move]
;W[gi]C[512ms];B[jf]C[972ms];W[gg]C[604ms]
)

(;FF[4]GM[4]GN[2]EV[rapfi x tengen]DT[2026.11.27 06:58:05]RO[1.2]RU[0]SZ[15]PB[rapfi]PW[tengen]RE[0]TE[Draw by adjudication]
;B[hh]C[opening move];W[ii]C[opening move];B[ij]C[opening move]
;W[gg]C[120ms]
)
";

fn show_json(args: &[&str], stdin: &str) -> json::Position {
    let mut all = vec!["show", "-", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run_stdin(&all, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn texts(ps: &[Point]) -> Vec<String> {
    ps.iter().map(Point::to_string).collect()
}

#[test]
fn a_c_gomoku_cli_game_with_move_times_is_read() {
    let p = show_json(&[], CGC);
    // SGF rows count from the top: hh is h8, hg h9, ig i9.
    assert_eq!(
        texts(p.moves.as_deref().unwrap()),
        ["h8", "h9", "i9", "g7", "j10", "g9"]
    );
    assert_eq!((p.size, p.rule, p.to_move), (15, Rule::Renju, Color::Black));
    assert_eq!(p.opening.as_deref(), Some("4D Kagetsu"));
    // The same from a file, detected by its content, and forced.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sgf");
    std::fs::write(&path, CGC).unwrap();
    let path = path.to_str().unwrap();
    for extra in [&[][..], &["--input-format", "sgf"]] {
        let mut args = vec!["show", path, "--format", "json"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let q: json::Position = serde_json::from_str(&out).unwrap();
        assert_eq!(q, p);
    }
    // analyze reads it too.
    let (code, out, err) = run(&["analyze", path, "--depth", "1", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("# opening: 4D Kagetsu"), "{out}");
    assert!(out.contains("# rule renju, 15x15"), "{out}");
}

#[test]
fn several_games_the_first_by_default_else_by_id() {
    assert_eq!(show_json(&[], CGC).black.len(), 3);
    // --id N: game N of the file (here also its GN).
    let second = show_json(&["--id", "2"], CGC);
    assert_eq!(
        texts(second.moves.as_deref().unwrap()),
        ["h8", "i7", "i6", "g9"]
    );
    assert_eq!(second.rule, Rule::Freestyle);
    // A game name (GN) wins over the position in the file.
    let named = "(;GM[4]GN[final];B[hh];W[hi])\n(;GM[4]GN[1];B[aa])\n";
    assert_eq!(
        texts(&show_json(&["--id", "1"], named).black),
        ["a15"],
        "GN[1] is the second tree"
    );
    assert_eq!(texts(&show_json(&["--id", "final"], named).black), ["h8"]);
    // --rule wins over RU.
    assert_eq!(
        show_json(&["--id", "2", "--rule", "renju"], CGC).rule,
        Rule::Renju
    );
    // No such game: exit 2, naming what the file holds.
    let (code, _, err) = run_stdin(&["show", "-", "--id", "7"], CGC);
    assert_eq!(code, 2);
    assert!(
        err.contains("<stdin> has no game '7': it holds 2 games (by name or number: 1, 2)"),
        "{err}"
    );
    // --id on a move list is still refused.
    let (code, _, err) = run(&["show", "h8 h9", "--id", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--id picks a puzzle"), "{err}");
}

#[test]
fn errors_name_the_line_and_column_and_exit_2() {
    let cases = [
        // A value never closed.
        (
            "(;GM[4];B[hh];W[hg\n",
            "1:16",
            "expected ']' closing this value of W",
        ),
        // A file cut short in its second game: the game is named by where it starts.
        (
            "(;GM[4];B[hh])\n(;GM[4];B[hh];W[ii]\n",
            "2:1",
            "')' closing this game tree",
        ),
        (
            "(;GM[1]SZ[19];B[pd])\n",
            "1:6",
            "GM[1] is not a gomoku game record",
        ),
        (
            "(;GM[4]SZ[15]\n;B[hh];W[pp])\n",
            "2:10",
            "'pp' is off the 15x15 board",
        ),
        (
            "(;GM[4];B[hh];B[ii])\n",
            "1:17",
            "move 2 is black's, but white is to move",
        ),
        ("(;GM[4]RU[8];B[hh])\n", "1:11", "not caro"),
        ("(;GM[4];B[hh];SZ[19])\n", "1:15", "SZ after the first move"),
        ("(;GM[4];B[hh];W[hh])\n", "1:17", "already taken"),
        ("(;GM[4]SZ[30];B[hh])\n", "1:11", "out of range"),
        (
            "(;GM[4];B[hh] !)\n",
            "1:15",
            "expected a property like B[hh]",
        ),
        ("(;GM[4];b[hh])\n", "1:9", "a property name in capitals"),
    ];
    for (text, loc, phrase) in cases {
        let (code, _, err) = run_stdin(&["show", "-"], text);
        assert_eq!(code, 2, "{text:?}: {err}");
        assert!(
            err.contains(&format!("<stdin>:{loc}: ")),
            "{text:?} should fail at {loc}: {err}"
        );
        assert!(err.contains(phrase), "{text:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // The offending line is shown with a caret.
    let (_, _, err) = run_stdin(&["show", "-"], "(;GM[4]SZ[15]\n;B[hh];W[pp])\n");
    assert!(err.contains("2 | ;B[hh];W[pp])\n  |          ^"), "{err}");
}

#[test]
fn convert_writes_sgf_that_reads_back() {
    let (code, sgf, err) = run(&["convert", "h8 h9 i9 g7", "--to", "sgf", "--rule", "renju"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(sgf, "(;FF[4]GM[4]SZ[15]RU[4]\n;B[hh];W[hg];B[ig];W[gi])\n");
    let p = show_json(&[], &sgf);
    assert_eq!(texts(p.moves.as_deref().unwrap()), ["h8", "h9", "i9", "g7"]);
    assert_eq!(p.rule, Rule::Renju, "RU carries the rule");
    // A composed position becomes set-up stones and the side to move.
    let diagram = "  a b c d e\n5 x . . . . 5\n4 . o . . . 4\n3 . . x . . 3\n2 . . . . . 2\n1 . . . . . 1\n  a b c d e\nblack to move\n";
    let (code, sgf, err) = run_stdin(&["convert", "-", "--to", "sgf"], diagram);
    assert_eq!(code, 0, "{err}");
    assert_eq!(sgf, "(;FF[4]GM[4]SZ[5]RU[0]AB[aa][cc]AW[bb]PL[B])\n");
    let p = show_json(&[], &sgf);
    assert_eq!(
        (texts(&p.black), texts(&p.white), p.to_move),
        (
            vec!["c3".to_string(), "a5".into()],
            vec!["b4".into()],
            Color::Black
        )
    );
    // And SGF converts to the other formats.
    let (code, moves, err) = run_stdin(&["convert", "-", "--to", "moves", "--id", "2"], CGC);
    assert_eq!(code, 0, "{err}");
    assert_eq!(moves, "h8 i7 i6 g9\n");
}

/// A collection of about 10 MB on one line (as a writer that never breaks lines leaves it)
/// with a bad point in its last game: the whole line is read (every location found by one
/// cursor, so in linear time) and the error names its column.
#[test]
fn a_huge_one_line_collection_is_read_to_its_last_game() {
    let game = "(;GM[4]SZ[15]RU[4]GN[g];B[hh]C[1ms];W[hg]C[2ms];B[ig]C[a \\] here])";
    let mut text = game.repeat(160_000);
    let column = text.chars().count() + "(;GM[4];B[hh];W[".len() + 1;
    text.push_str("(;GM[4];B[hh];W[zz])");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.sgf");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    let (code, _, err) = run(&["show", path, "--id", "160001"]);
    assert_eq!(code, 2, "{}", &err[..err.len().min(300)]);
    assert!(
        err.contains(&format!("long.sgf:1:{column}: 'zz' is off the 15x15 board")),
        "{}",
        &err[..err.len().min(300)]
    );
    assert!(err.len() < 1024, "the error output is {} bytes", err.len());
    // The games before it read, the last of them by its number.
    text.truncate(text.len() - "(;GM[4];B[hh];W[zz])".len());
    std::fs::write(path, &text).unwrap();
    let (code, out, err) = run(&["show", path, "--id", "160000", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"opening\": \"4D Kagetsu\""), "{out}");
}

/// A legal game: random points played in turn, skipping taken points, fives and fouls.
fn game() -> impl Strategy<Value = Board> {
    (
        5u8..=22,
        prop::sample::select(Rule::ALL.to_vec()),
        prop::collection::vec((0u8..22, 0u8..22), 0..80),
    )
        .prop_map(|(size, rule, points)| crate::random_game_on(size, rule, &points))
}

fn reread(text: &str, format: Option<Format>) -> Board {
    let source = Source {
        name: "<test>".into(),
        text: text.to_string(),
    };
    let options = LoadOptions {
        format,
        id: None,
        given: Given::default(),
    };
    match load(&source, &options) {
        Ok(loaded) => loaded.board,
        Err(e) => panic!("the SGF does not read back: {e}\n{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Written as SGF and read back (detected, and forced), a random legal game keeps every
    /// move in order, its size, its rule and its side to move; a composed position (the same
    /// stones placed) keeps its stones and side to move, either side.
    #[test]
    fn every_game_round_trips(board in game(), white in any::<bool>()) {
        let text = write_format(&board, None, Format::Sgf).unwrap();
        for format in [None, Some(Format::Sgf)] {
            let back = reread(&text, format);
            prop_assert_eq!(back.record(), board.record(), "{}", text);
            prop_assert_eq!(&back, &board, "{}", text);
            prop_assert_eq!(back.rule(), board.rule());
        }
        let mut composed = Board::new(board.size(), board.rule()).unwrap();
        for color in [Color::Black, Color::White] {
            for p in board.stones(color) {
                composed.put(p, color);
            }
        }
        composed.set_to_move(if white { Color::White } else { Color::Black });
        let text = write_format(&composed, None, Format::Sgf).unwrap();
        let back = reread(&text, None);
        prop_assert_eq!(&back, &composed, "{}", text);
        prop_assert_eq!(back.to_move(), composed.to_move());
    }

    /// Random edits of SGF text never make the parser panic.
    #[test]
    fn near_valid_sgf_never_panics(edits in prop::collection::vec((0usize..400, 0u8..3, prop::sample::select("()[];\\\\BWABWPLSZRUGM:hi aé\n4".chars().collect::<Vec<_>>())), 1..6)) {
        let mut chars: Vec<char> = CGC.chars().collect();
        for &(at, op, c) in &edits {
            let i = at % (chars.len() + 1);
            match op {
                0 => chars.insert(i, c),
                1 if i < chars.len() => { chars.remove(i); }
                _ if i < chars.len() => chars[i] = c,
                _ => chars.push(c),
            }
        }
        let text: String = chars.into_iter().collect();
        tengen::commands::fuzzing::sgf(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// The same through the binary, as a user converts: moves to SGF, SGF back to moves.
    #[test]
    fn convert_round_trips_through_the_binary(board in game()) {
        prop_assume!(board.total_stones() > 0);
        let size = board.size().to_string();
        let rule = board.rule().to_string();
        let moves = write_format(&board, None, Format::Moves).unwrap();
        let (code, sgf, err) = run_stdin(&["convert", "-", "--to", "sgf", "--size", &size, "--rule", &rule], &moves);
        prop_assert_eq!(code, 0, "{}", err);
        let (code, back, err) = run_stdin(&["convert", "-", "--to", "moves"], &sgf);
        prop_assert_eq!(code, 0, "{}", err);
        prop_assert_eq!(back, moves);
    }
}

/// A finished game (it ends in a five, as most of a match's games do) is studied with
/// `--after N`: the position after its first N moves. Without it, `analyze`'s error says so
/// (`show` draws the end); past the
/// game's end, or without a game record, `--after` is an error (exit 2).
#[test]
fn a_finished_game_is_read_up_to_a_move_with_after() {
    // Black makes five on h8-l8 with the record's 9th move.
    let won = "(;GM[4]SZ[15]RU[0];B[hh];W[hi];B[ih];W[ii];B[jh];W[ji];B[kh];W[ki];B[lh])";
    // `show` draws the finished game; `analyze`, which needs a side to move, refuses it.
    let (code, _, err) = run_stdin(&["show", "-"], won);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_stdin(&["analyze", "-", "--depth", "1"], won);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("already won") && err.contains("--after 8 gives the position before"),
        "{err}"
    );
    let p = show_json(&["--after", "8"], won);
    assert_eq!(p.moves.as_ref().map(Vec::len), Some(8));
    assert_eq!(p.to_move, Color::Black);
    let p = show_json(&["--after", "0"], won);
    assert!(p.black.is_empty() && p.white.is_empty());
    let (code, _, err) = run_stdin(&["show", "-", "--after", "10"], won);
    assert_eq!(code, 2);
    assert!(
        err.contains("--after 10 is past the end of the game: it has 9 moves"),
        "{err}"
    );
    // A move list too; stones are not a record.
    let (code, out, _) = run(&["show", "h8 i9 j10", "--after", "2", "--format", "json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"i9\"") && !out.contains("\"j10\""), "{out}");
    let (code, _, err) = run_stdin(
        &["show", "-", "--after", "1"],
        "id: x\nblack: h8\nwhite: i9\n",
    );
    assert_eq!(code, 2);
    assert!(err.contains("--after needs a game record"), "{err}");
}
