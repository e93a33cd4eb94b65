//! The public puzzle set in `../shared/puzzles-public` (skipped when it is absent, failed when
//! `TENGEN_REQUIRE_SHARED=1`): every puzzle parses, and converting it to each format and back
//! gives the same position.

use tengen::report::json;

use crate::{ids, public_file, public_files, run, run_stdin};

fn show_json(args: &[&str], stdin: &str) -> json::Position {
    let (code, out, err) = run_stdin(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn same_position(a: &json::Position, b: &json::Position) -> bool {
    (a.size, a.rule, a.to_move, &a.black, &a.white)
        == (b.size, b.rule, b.to_move, &b.black, &b.white)
}

#[test]
fn every_public_puzzle_converts_and_reads_back() {
    let Some(files) = public_files() else { return };
    let (mut total, mut as_moves, mut refused) = (0, 0, 0);
    for file in &files {
        let f = file.to_str().unwrap();
        for id in ids(file) {
            total += 1;
            let original = show_json(&["show", f, "--id", &id, "--format", "json"], "");
            assert_eq!(original.id.as_deref(), Some(id.as_str()));
            for to in ["diagram", "puzzle", "moves"] {
                let (code, text, err) = run(&["convert", f, "--id", &id, "--to", to]);
                if to == "moves" && code == 2 {
                    assert!(
                        err.contains("write it as a diagram or puzzle"),
                        "{id}: {err}"
                    );
                    refused += 1;
                    continue;
                }
                assert_eq!(code, 0, "{id} to {to}: {err}");
                as_moves += usize::from(to == "moves");
                let back = show_json(&["show", "-", "--format", "json", "--rule", "renju"], &text);
                assert!(same_position(&original, &back), "{id} via {to}:\n{text}");
            }
        }
    }
    assert_eq!(total, 167, "the public set has 167 puzzles");
    // 15 composed positions have stone counts no game gives, and 4 state a side to move
    // against the parity of their record: those cannot be written as move lists.
    assert_eq!((as_moves, refused), (148, 19));
}

#[test]
fn public_files_are_rewritten_byte_for_byte() {
    let Some(files) = public_files() else { return };
    assert_eq!(files.len(), 3, "{files:?}");
    for file in files {
        let (code, out, err) = run(&["convert", file.to_str().unwrap(), "--to", "puzzle"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            out,
            std::fs::read_to_string(&file).unwrap(),
            "{}",
            file.display()
        );
    }
}

#[test]
fn shows_the_quintet_vcf_black_position() {
    let Some(file) = public_file("quintet-renju.txt") else {
        return;
    };
    let (code, out, err) = run(&["show", &file, "--id", "quintet/vcf_black"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("14 . . . . . . . . o . . x . . . 14"), "{out}");
    assert!(out.contains("black to move"));
    assert!(out.contains("rule renju"));
}
