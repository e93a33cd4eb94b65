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
