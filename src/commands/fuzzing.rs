//! The bodies of the `cargo fuzz` targets in `fuzz/fuzz_targets/`, one function per target.
//!
//! They live in the library, not in the fuzz crate, so that the same code runs on the stable
//! toolchain: `tests/it/fuzz_corpus.rs` replays the committed seed corpus and every minimised
//! crash in `fuzz/artifacts/` through them on each `cargo test`, while the fuzz targets (which
//! need nightly and libFuzzer) are one-line wrappers. Not part of the library's API.
//!
//! Every function takes the raw bytes libFuzzer generates and must never panic, whatever the
//! bytes, except [`roundtrip`], whose assertion is the property it checks. Bytes that are not
//! UTF-8 are skipped: tengen refuses them before any parser runs (`Source` reads a file or
//! standard input with `String::from_utf8` and reports the bad byte), so no parser ever sees
//! them, and a lossy conversion would only feed the parsers U+FFFD characters that the fuzzer
//! reaches anyway through valid UTF-8.

use crate::board::{Board, Color, Point, Rule};
use crate::error::{Error, InputError, SourceError};
use crate::files::input::{self, LoadOptions, Loaded, Source};
use crate::notation::puzzle::{self, Answer, AnswerForm, Meta};
use crate::notation::span::{Located, Span};
use crate::notation::{Format, diagram, moves, psq, sgf, write};
use crate::setup::{Given, Setup};

/// Every format, in the order the targets try them.
const FORMATS: [Format; 5] = [
    Format::Moves,
    Format::Diagram,
    Format::Psq,
    Format::Puzzle,
    Format::Sgf,
];

/// The text of an input as tengen reads a file: valid UTF-8 with a leading byte-order mark
/// dropped (what `Source::from_arg` does to a file or standard input), or `None`.
fn text(data: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(data).ok()?;
    Some(text.strip_prefix('\u{feff}').unwrap_or(text))
}

fn fuzz_source(text: &str) -> Source {
    Source {
        name: "<fuzz>".into(),
        text: text.to_string(),
    }
}

/// Renders an input error the way the binary prints it (message, then the line with a caret),
/// so the location arithmetic of the snippet is fuzzed with every error a parser returns.
fn show_input_error(text: &str, error: impl Into<InputError>) {
    let error = SourceError {
        name: "<fuzz>".into(),
        text: text.to_string(),
        error: error.into(),
    };
    let _ = error.error.loc();
    std::hint::black_box((error.to_string(), error.snippet()));
}

/// Renders any error the way `main` does.
fn show_error(error: &Error) {
    let mut out = error.to_string();
    if let Error::Input(source) = error
        && let Some(snippet) = source.snippet()
    {
        out.push_str(&snippet);
    }
    std::hint::black_box(out);
}

/// Validates a parsed position under each rule, as `--rule` would, and writes what validates in
/// every format (a writer may refuse a position: that is an answer, not a failure).
fn validate(text: &str, setup: &Setup) {
    validate_as(text, setup, &FORMATS);
}

/// [`validate`], writing only in `formats`.
fn validate_as(text: &str, setup: &Setup, formats: &[Format]) {
    for rule in [None, Some(Rule::Standard), Some(Rule::Renju)] {
        let given = Given {
            rule,
            ..Given::default()
        };
        match setup.into_board(given) {
            Ok(board) => {
                for &format in formats {
                    let _ = std::hint::black_box(write::write(&board, None, format));
                }
            }
            Err(e) => show_input_error(text, e),
        }
    }
}

/// Move lists and Gomoku Calculator URLs: [`moves::parse`], each point's text form, and the
/// game the list records (validated as `show "h8 i9"` would).
pub fn moves(data: &[u8]) {
    let Some(text) = text(data) else { return };
    match moves::parse(Span::new(text)) {
        Ok(ms) => {
            for m in &ms {
                std::hint::black_box(m.value.to_string());
            }
            let setup = Setup {
                size: None,
                rule: None,
                to_move: None,
                stones: crate::setup::Stones::Moves(ms),
                loc: crate::notation::span::Loc::new(1, 1),
            };
            validate(text, &setup);
        }
        Err(e) => show_input_error(text, e),
    }
}

/// Board diagrams: [`diagram::parse`], then validation of what it parsed, written back as a
/// diagram and a puzzle. Not as moves or `.psq`: for a composed position those writers search
/// for a move order (up to 200,000 placements, 0.1 s in release on a hopeless renju position
/// and over 10 s under the fuzzer's instrumentation), which held this target to 700 runs a
/// second. The `roundtrip` target writes every format, the order search included.
pub fn diagram(data: &[u8]) {
    let Some(text) = text(data) else { return };
    match diagram::parse(Span::new(text)) {
        Ok(setup) => validate_as(text, &setup, &[Format::Diagram, Format::Puzzle]),
        Err(e) => show_input_error(text, e),
    }
}

/// Piskvork `.psq` files: [`psq::parse`], then validation of what it parsed.
pub fn psq(data: &[u8]) {
    let Some(text) = text(data) else { return };
    match psq::parse(Span::new(text)) {
        Ok(setup) => validate(text, &setup),
        Err(e) => show_input_error(text, e),
    }
}

/// SGF files: [`sgf::parse`] picking the first game and, by `--id`, the numbers 1 to 3 and
/// each game's name; the first game also with `--rule` given (which skips `RU`) and with
/// `--size 19` (the size of a game without `SZ`). Each game read is validated under each rule
/// and written back (what validates). A game record is written in every format; set-up stones
/// (`AB`/`AW`) not as moves or `.psq`, whose order search is slow under the fuzzer (see
/// [`diagram`]).
pub fn sgf(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let read = |pick, size, rule_given| {
        let options = sgf::SgfOptions {
            pick,
            size,
            rule_given,
        };
        match sgf::parse(Span::new(text), options) {
            Ok(collection) => {
                if let Some(game) = &collection.game {
                    let formats: &[Format] = match game.setup.stones {
                        crate::setup::Stones::Moves(_) => &FORMATS,
                        _ => &[Format::Sgf, Format::Diagram, Format::Puzzle],
                    };
                    validate_as(text, &game.setup, formats);
                }
                Some(collection)
            }
            Err(e) => {
                show_input_error(text, e);
                None
            }
        }
    };
    let Some(first) = read(sgf::Pick::First, 15, false) else {
        return;
    };
    read(sgf::Pick::First, 15, true);
    read(sgf::Pick::First, 19, false);
    let ids: Vec<String> = (1..=3)
        .map(|n| n.to_string())
        .chain(first.first_names.iter().cloned())
        .collect();
    for id in &ids {
        read(sgf::Pick::Id(id), 15, false);
    }
}

/// Puzzle files: [`puzzle::parse_each`] (what `check` reads) and [`puzzle::parse`] (what every
/// other command reads), each puzzle's answer as text, its position validated, and the valid
/// ones written back as puzzle blocks.
pub fn puzzle(data: &[u8]) {
    let Some(text) = text(data) else { return };
    for result in puzzle::parse_each(Span::new(text)) {
        match result {
            Ok(p) => {
                if let Some(answer) = &p.meta.answer {
                    std::hint::black_box(answer.to_string());
                }
                match p.setup.into_board(Given::default()) {
                    Ok(board) => {
                        std::hint::black_box(puzzle::write(&p.meta, &board));
                    }
                    Err(e) => show_input_error(text, e),
                }
            }
            Err(failed) => show_input_error(text, failed.error),
        }
    }
    if let Err(e) = puzzle::parse(Span::new(text)) {
        show_input_error(text, e);
    }
}

/// Format detection and the whole path from a text to validated boards that a command takes,
/// short of the file system: [`Format::detect`], then what `Request::load_many` does (every
/// puzzle of a puzzle file through [`input::load_all`], else [`input::load`]), then
/// [`input::load`] as `show` calls it (detected format, no `--id`), with `--id` set to each
/// puzzle's id, and with each `--input-format`; every error rendered as `main` prints it.
pub fn detect(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let source = fuzz_source(text);
    let format = Format::detect(text);
    if format == Format::Puzzle {
        match input::load_all(&source, Given::default()).collect::<Result<Vec<_>, _>>() {
            Ok(all) => {
                for loaded in &all {
                    let id = loaded.meta.as_ref().map(|m| m.id.clone());
                    let opts = LoadOptions {
                        id,
                        ..LoadOptions::default()
                    };
                    if let Err(e) = input::load(&source, &opts) {
                        show_error(&e);
                    }
                }
            }
            Err(e) => show_error(&e),
        }
    }
    if let Err(e) = input::load(&source, &LoadOptions::default()) {
        show_error(&e);
    }
    for format in FORMATS {
        let opts = LoadOptions {
            format: Some(format),
            ..LoadOptions::default()
        };
        if let Err(e) = input::load(&source, &opts) {
            show_error(&e);
        }
    }
}

/// The roundtrip property: every position an input loads to (as [`detect`] loads it: each
/// puzzle of a puzzle file; any other input under each of the three rules, as `--rule` gives
/// them) is written in each format by [`write::write`] (what `convert --to` does), and the
/// text reads back, through format detection and with the format forced, to the same position.
/// A writer that refuses a position (a move list or `.psq` file needs a game order the stones
/// may not have) is skipped.
///
/// Compared, and why (see [`check_same`]):
/// - board size, stones of each colour and side to move, always: every format carries them,
///   given the size a move list cannot carry (the re-read is given `--size`, as a user would);
/// - the rule: a puzzle's `rule:` key carries it; the other formats do not, so their re-read is
///   given `--rule` and the comparison is trivially true for them;
/// - the game record (the moves in order) when the position has one, for move lists, `.psq`
///   files and puzzles (which write `moves:` for a game): a diagram has no move order;
/// - everything a puzzle says besides its position (id, answer, kind, limits, tags, texts), for
///   the puzzle format: the README promises that rewriting a puzzle file keeps every key and
///   value. Source locations are not compared: the writer lays the text out its own way.
///
/// # Panics
///
/// When the property fails: a written text that does not read back, or reads back to another
/// position, or is detected as another format.
pub fn roundtrip(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let source = fuzz_source(text);
    let loaded: Vec<Loaded> = if Format::detect(text) == Format::Puzzle {
        input::load_all(&source, Given::default())
            .collect::<Result<_, _>>()
            .unwrap_or_default()
    } else {
        [None, Some(Rule::Standard), Some(Rule::Renju)]
            .into_iter()
            .filter_map(|rule| {
                let opts = LoadOptions {
                    given: Given {
                        rule,
                        ..Given::default()
                    },
                    ..LoadOptions::default()
                };
                input::load(&source, &opts).ok()
            })
            .collect()
    };
    for original in &loaded {
        for format in FORMATS {
            let Ok(written) = write::write(&original.board, original.meta.as_ref(), format) else {
                continue;
            };
            let detected = Format::detect(&written);
            assert_eq!(
                detected, format,
                "the {format} text of a valid position is detected as {detected}:\n{written}"
            );
            let given = Given {
                rule: (format != Format::Puzzle).then_some(original.board.rule()),
                size: (format == Format::Moves).then_some(original.board.size()),
                to_move: None,
                default_rule: None,
                after: None,
                finished: false,
            };
            let opts = LoadOptions {
                format: Some(format),
                id: None,
                given,
            };
            let back = match input::load(&fuzz_source(&written), &opts) {
                Ok(back) => back,
                Err(e) => panic!(
                    "the {format} text of a valid position does not read back: {e}\ninput:\n{text}\nwritten:\n{written}"
                ),
            };
            check_same(original, &back, format, &written);
        }
    }
}

/// The stones of one colour, sorted.
fn stones(board: &Board, color: Color) -> Vec<Point> {
    let mut out: Vec<Point> = board.stones(color).collect();
    out.sort();
    out
}

/// A puzzle's meta without source locations (the writer lays the text out its own way).
fn meta_text(meta: &Meta) -> String {
    let answer = meta.answer.as_ref().map(|a: &Answer| {
        let points = |ps: &Vec<_>| -> Vec<_> {
            ps.iter()
                .map(|p: &crate::notation::span::Spanned<_>| p.value)
                .collect()
        };
        let form = match &a.form {
            AnswerForm::Line(ps) => format!("line {:?}", points(ps)),
            AnswerForm::AnyOf(ps) => format!("any of {:?}", points(ps)),
            AnswerForm::None => "none".into(),
            AnswerForm::Win => "win".into(),
        };
        (form, a.comment.clone())
    });
    format!(
        "{:?}",
        (
            &meta.id,
            answer,
            meta.kind,
            meta.limit,
            meta.threat_limit,
            &meta.tags,
            (&meta.task, &meta.source, &meta.note),
        )
    )
}

/// Asserts that `back`, read from the `format` text `written` of `original`, is the same
/// position: see [`roundtrip`] for what is compared and why.
fn check_same(original: &Loaded, back: &Loaded, format: Format, written: &str) {
    let (a, b) = (&original.board, &back.board);
    let what = |field: &str| format!("{field} changed through the {format} text:\n{written}");
    assert_eq!(a.size(), b.size(), "{}", what("the board size"));
    assert_eq!(a.rule(), b.rule(), "{}", what("the rule"));
    for color in [Color::Black, Color::White] {
        assert_eq!(
            stones(a, color),
            stones(b, color),
            "{}",
            what(&format!("the {color} stones"))
        );
    }
    assert_eq!(a.to_move(), b.to_move(), "{}", what("the side to move"));
    if format != Format::Diagram
        && let Some(record) = a.record()
    {
        assert_eq!(Some(record), b.record(), "{}", what("the game record"));
    }
    if format == Format::Puzzle
        && let Some(meta) = &original.meta
    {
        let back_meta = back.meta.as_ref().map(meta_text);
        assert_eq!(
            Some(meta_text(meta)),
            back_meta,
            "{}",
            what("the puzzle's keys")
        );
    }
}

/// `protocol`: any bytes as the protocol's standard input, through the brain on one thread.
/// The brain moves by the analyzer's depth-1 weight map with small tables (and
/// `YXSEARCHDEFEND` tests the nearest move with a VCT of 20 nodes), so a game of many moves stays
/// fast: the target is the protocol layer (lines, commands, the state machine, coordinates),
/// not the search, which other tests and fuzz targets cover. Whatever the lines, it must
/// answer whole lines without panicking.
pub fn protocol(data: &[u8]) {
    let options = crate::protocol::BrainOptions {
        debug: true,
        fixed: Some(crate::analyze::Settings {
            depth: Some(1),
            hash_mb: 1,
            root_vct_nodes: 20,
            verify_nodes: 1_000,
            ..Default::default()
        }),
    };
    let out = crate::protocol::run_script(data, options);
    // Every answer is a whole line.
    assert!(out.is_empty() || out.ends_with(b"\n"));
}
