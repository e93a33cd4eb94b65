//! The balanced openings shipped in `examples/openings/` for self-play and matches, and the
//! names of the 26 canonical renju openings in `show`.

/// The match openings (`examples/openings/*.cgc`, c-gomoku-cli's offset format: x and y from
/// the centre, y down) are the RIF openings beside them, line for line, so a match and the
/// self-play harness start from the same positions.
#[test]
fn match_openings_are_the_rif_openings_in_offset_form() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/openings");
    for rule in ["freestyle", "renju"] {
        let rif = std::fs::read_to_string(dir.join(format!("{rule}.txt"))).unwrap();
        let cgc = std::fs::read_to_string(dir.join(format!("{rule}.cgc"))).unwrap();
        let converted: Vec<String> = rif
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| {
                l.split_whitespace()
                    .map(|m| {
                        let p: tengen::Point = m.parse().unwrap();
                        format!("{},{}", p.x() as i32 - 7, 7 - p.y() as i32)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        let lines: Vec<&str> = cgc.lines().collect();
        assert_eq!(converted.len(), 120, "{rule}");
        assert_eq!(lines, converted, "{rule}");
    }
}

/// The openings of a RIF file: a move list a line, `#` lines left out.
fn read_rif(path: &std::path::Path) -> Vec<Vec<tengen::Point>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(|m| m.parse().unwrap()).collect())
        .collect()
}

/// An opening up to the board's 8 symmetries: the least image of its black and white stones.
fn canonical(moves: &[tengen::Point]) -> Vec<Vec<(i32, i32)>> {
    (0..8)
        .map(|t| {
            let image = |p: &tengen::Point| {
                let (mut a, mut b) = (p.x() as i32 - 7, p.y() as i32 - 7);
                if t & 4 != 0 {
                    (a, b) = (b, a);
                }
                if t & 1 != 0 {
                    a = -a;
                }
                if t & 2 != 0 {
                    b = -b;
                }
                (a, b)
            };
            let side = |k: usize| {
                let mut v: Vec<_> = moves.iter().skip(k).step_by(2).map(image).collect();
                v.sort();
                v
            };
            vec![side(0), side(1)]
        })
        .min()
        .unwrap()
}

/// The player-like sets (`scripts/player-openings.py`): each `.cgc` is its `.txt` in offset
/// form, 100 a set; no opening is in both sets or among the older shipped openings (earlier
/// fits read those), up to symmetry; each starts on the centre, and a renju one with one of
/// the 26 canonical openings.
#[test]
fn fit_and_measure_openings_are_apart() {
    use std::collections::HashSet;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/openings");
    for rule in ["freestyle", "renju"] {
        let old: HashSet<_> = read_rif(&dir.join(format!("{rule}.txt")))
            .iter()
            .map(|m| canonical(m))
            .collect();
        let mut sets = Vec::new();
        for set in ["fit", "measure"] {
            let openings = read_rif(&dir.join(format!("{rule}-{set}.txt")));
            assert_eq!(openings.len(), 100, "{rule}-{set}");
            let cgc = std::fs::read_to_string(dir.join(format!("{rule}-{set}.cgc"))).unwrap();
            for (moves, line) in openings.iter().zip(cgc.lines()) {
                let offsets: Vec<String> = moves
                    .iter()
                    .map(|p| format!("{},{}", p.x() as i32 - 7, 7 - p.y() as i32))
                    .collect();
                assert_eq!(offsets.join(", "), line, "{rule}-{set}");
                assert_eq!(moves[0].to_string(), "h8", "{rule}-{set}: {line}");
                if rule == "renju" {
                    let named = tengen::board::openings::of_moves(15, &moves[..3]);
                    assert!(named.is_some(), "{rule}-{set}: {moves:?} is none of the 26");
                }
            }
            let forms: HashSet<_> = openings.iter().map(|m| canonical(m)).collect();
            assert_eq!(forms.len(), 100, "{rule}-{set}: distinct up to symmetry");
            assert!(
                forms.is_disjoint(&old),
                "{rule}-{set} repeats a shipped opening"
            );
            sets.push(forms);
        }
        assert!(
            sets[0].is_disjoint(&sets[1]),
            "{rule}: an opening in both sets"
        );
    }
}

/// `show` names a canonical renju opening in its text (a `#` line, so the diagram still reads
/// back) and in its JSON (`opening`); a start that is none of the 26 gets neither.
#[test]
fn show_names_the_opening_in_text_and_json() {
    use crate::{run, run_stdin};
    // White below-left of the centre, black above it: 7I Hogetsu turned and mirrored.
    let (code, out, err) = run(&["show", "h8 g7 g9 a1", "--rule", "renju"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("# opening: 7I Hogetsu\n"), "{out}");
    let (code, back, err) = run_stdin(&["show", "-", "--format", "json"], &out);
    assert_eq!(code, 0, "the text reads back: {err}");
    let back: tengen::report::json::Position = serde_json::from_str(&back).unwrap();
    assert_eq!(back.opening, None, "a diagram has no move order");
    let (code, out, err) = run(&["show", "h8 h9 i9", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let p: tengen::report::json::Position = serde_json::from_str(&out).unwrap();
    assert_eq!(p.opening.as_deref(), Some("4D Kagetsu"));
    assert!(out.contains("\"opening\": \"4D Kagetsu\""), "{out}");
    // Not one of the 26: black's third stone outside the 5x5 square; the shape off the centre.
    for moves in ["h8 h9 k8", "i8 i9 j9"] {
        let (code, out, err) = run(&["show", moves]);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("opening"), "{moves}: {out}");
        let (_, out, _) = run(&["show", moves, "--format", "json"]);
        assert!(!out.contains("opening"), "{moves}: {out}");
    }
}
