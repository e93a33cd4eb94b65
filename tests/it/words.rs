//! Counts in messages read as English (issue 11): `1 move`, `2 moves`, never `1 moves`; and the
//! solve headline is a sentence in every mode.

use crate::{run, run_stdin};

/// A freestyle position where black (to move) has two in a row: no win within one move.
const OPEN_TWO: &str = "h8 a1 h9 a2";

#[test]
fn one_attacker_move_is_singular_in_every_solve_mode() {
    let (_, out, _) = run(&["solve", "--vcf", OPEN_TWO, "--limit", "1"]);
    assert!(
        out.starts_with("no VCF win for black within 1 attacker move\n"),
        "{out}"
    );
    let (_, out, _) = run(&["solve", "--vct", OPEN_TWO, "--limit", "1"]);
    assert!(
        out.starts_with("no VCT win for black within 1 attacker move (threat limit 2)\n"),
        "{out}"
    );
    // Was "no threats win for black in 1 moves".
    let (_, out, _) = run(&["solve", "--win-in", "1", OPEN_TWO]);
    assert!(
        out.starts_with("no threat sequence wins for black in 1 move (threat limit 2)\n"),
        "{out}"
    );
    let three = ["--id", "tengen/double-three", crate::EXAMPLES];
    let (_, out, _) = run(&[&["solve", "--win-in", "2"], &three[..]].concat());
    assert!(
        out.contains("\nno threat sequence wins for black in 2 moves (threat limit 1)\n"),
        "{out}"
    );
    // "In N moves" counts the attacker's moves with the five, as --win-in N does.
    let (_, out, _) = run(&[&["solve", "--win-in", "3"], &three[..]].concat());
    assert!(
        out.contains("\nblack wins by a threat sequence in 3 moves (proof of "),
        "{out}"
    );
    let (_, out, _) = run(&["solve", "--vcf", "h8 a1 h9 a2 h10 a3"]);
    assert!(out.starts_with("black wins by VCF in 2 moves ("), "{out}");
    let (_, out, _) = run(&["solve", "--vcf", "h8 a1 h9 a2 h10 a3 h11 a4"]);
    assert!(out.starts_with("black wins by VCF in 1 move ("), "{out}");
}

#[test]
fn bench_and_check_summaries_count_one_case() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(
        &file,
        "id: one\nrule: freestyle\nsize: 15\nmoves: h8 a1 h9 a2 h10 a3\nanswer: h11\nkind: vcf\nlimit: 1\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let (code, out, _) = run(&["bench", f, "--mode", "vcf"]);
    assert_eq!(code, 0, "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("1 case, 0 mismatches, "), "{last}");
    let (code, out, _) = run(&["check", f, "--color", "never"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1 puzzle: 1 passed, 0 failed, 0 unknown, 0 errors ("),
        "{out}"
    );
}

#[test]
fn input_errors_count_in_english() {
    let (code, _, err) = run(&["convert", "h8", "--to-move", "black", "--to", "moves"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the game record has 1 move, so white"),
        "{err}"
    );
    let (code, _, err) = run_stdin(
        &["show", "-", "--input-format", "diagram"],
        ". . .\n.\n. . .\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("this row has 1 cell but the first row has 3"),
        "{err}"
    );
    let (code, _, err) = run_stdin(&["show", "-", "--input-format", "diagram"], ". .\n");
    assert_eq!(code, 2);
    assert!(err.contains("square: 2 columns but 1 row\n"), "{err}");
}
