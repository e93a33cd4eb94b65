//! Properties: every writer's output parses back to the same position (all sizes and rules),
//! and no input, random or nearly valid, makes tengen panic.

use proptest::prelude::*;
use tengen::board::{Board, Point, Rule};
use tengen::files::input::{LoadOptions, Source, load};
use tengen::notation::Format;
use tengen::notation::write::write as write_format;
use tengen::setup::Given;

use crate::run_stdin;

/// A legal game: random points played in turn, skipping taken points, fives and fouls.
fn game() -> impl Strategy<Value = Board> {
    (
        5u8..=22,
        prop::sample::select(Rule::ALL.to_vec()),
        prop::collection::vec((0u8..22, 0u8..22), 0..60),
    )
        .prop_map(|(size, rule, points)| {
            let mut board = Board::new(size, rule).unwrap();
            for (x, y) in points {
                let Some(p) = Point::new(x % size, y % size) else {
                    continue;
                };
                let side = board.to_move();
                if !board.is_empty(p)
                    || board.makes_five(p, side)
                    || (rule.has_fouls(side) && tengen::pattern::foul(&board, p).is_some())
                {
                    continue;
                }
                board.play(p);
            }
            board
        })
}

fn reparse(text: &str, format: Format, board: &Board) -> Board {
    let source = Source {
        name: "<test>".into(),
        text: text.to_string(),
    };
    let given = Given {
        rule: Some(board.rule()),
        size: (format == Format::Moves).then_some(board.size()),
        ..Given::default()
    };
    match load(
        &source,
        &LoadOptions {
            format: Some(format),
            id: None,
            given,
        },
    ) {
        Ok(loaded) => loaded.board,
        Err(e) => panic!("{format} output does not parse back: {e}\n{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_format_round_trips(board in game(), flip in any::<bool>()) {
        for format in [Format::Moves, Format::Psq, Format::Diagram, Format::Puzzle] {
            // The empty board has no move list (empty input is an error).
            if format == Format::Moves && board.total_stones() == 0 {
                prop_assert!(write_format(&board, None, format).is_err());
                continue;
            }
            let text = write_format(&board, None, format).unwrap();
            let back = reparse(&text, format, &board);
            prop_assert_eq!(&back, &board, "{} via {}", text, format);
            if format != Format::Diagram {
                prop_assert_eq!(back.record(), board.record());
            }
        }
        // A side to move against the record's parity survives the formats that state it.
        let mut flipped = board.clone();
        flipped.set_to_move(board.to_move().opponent());
        if flip {
            for format in [Format::Diagram, Format::Puzzle] {
                let text = write_format(&flipped, None, format).unwrap();
                prop_assert_eq!(&reparse(&text, format, &flipped), &flipped);
            }
            prop_assert!(write_format(&flipped, None, Format::Moves).is_err());
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let source = Source { name: "<fuzz>".into(), text };
        for format in [None, Some(Format::Moves), Some(Format::Diagram), Some(Format::Psq), Some(Format::Puzzle)] {
            let _ = load(&source, &LoadOptions { format, ..LoadOptions::default() });
        }
    }

    #[test]
    fn near_valid_text_never_panics(base in prop::sample::select(SAMPLES.to_vec()), edits in edits()) {
        let text = mutate(base, &edits);
        let source = Source { name: "<fuzz>".into(), text };
        let _ = load(&source, &LoadOptions::default());
        let _ = load(&source, &LoadOptions { given: Given { rule: Some(Rule::Renju), ..Given::default() }, ..LoadOptions::default() });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The same through the binary: exit 0 or 2, never a panic.
    #[test]
    fn the_binary_never_panics(base in prop::sample::select(SAMPLES.to_vec()), edits in edits()) {
        let text = mutate(base, &edits);
        let (code, _, err) = run_stdin(&["show", "-", "--rule", "renju"], &text);
        prop_assert!(code == 0 || code == 2, "exit {} for {:?}: {}", code, text, err);
        prop_assert!(!err.contains("panicked"), "{}", err);
    }
}

const SAMPLES: [&str; 5] = [
    "h8 i9 j10 k11",
    "https://gomocalc.com/#/h8h7i9",
    "  a b c d e\n5 x . . . . 5\n4 . o . . . 4\n3 . . . . . 3\n2 . . . . . 2\n1 . . . . . 1\n  a b c d e\nblack to move\n",
    "Piskvorky 15x15, 11:11, 0\n8,8,100\n9,7,0\n-1\n",
    "id: a\nrule: renju\nsize: 15\nmoves: h8 i9\nto-move: black\nanswer: j10 k11 (c)\nkind: vcf\nlimit: 3\n\nid: b\nboard:\n x . . . .\n . . . . .\n . . o . .\n . . . . .\n . . . . .\n",
];

/// Random edits: (position, what to do, a character).
fn edits() -> impl Strategy<Value = Vec<(usize, u8, char)>> {
    let chars = prop::sample::select(
        "h8xo.:,;#-\n 0123456789abzAZ●○()\u{feff}é"
            .chars()
            .collect::<Vec<_>>(),
    );
    prop::collection::vec((0usize..400, 0u8..3, chars), 1..6)
}

fn mutate(base: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for &(at, op, c) in edits {
        let i = at % (chars.len() + 1);
        match op {
            0 => chars.insert(i, c),
            1 if i < chars.len() => {
                chars.remove(i);
            }
            _ if i < chars.len() => chars[i] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}
