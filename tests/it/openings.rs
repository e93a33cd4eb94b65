//! The balanced openings shipped in `examples/openings/` for self-play and matches.

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
