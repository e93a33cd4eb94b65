//! `tengen-tune`: a small data set made and fitted from a fresh checkout, as the README's
//! evaluation section says, and its errors.

use assert_cmd::Command;
use tengen::analyze::learned::RuleTables;
use tengen::board::Rule;

fn tune() -> Command {
    Command::cargo_bin("tengen-tune").expect("the tengen-tune binary")
}

#[test]
fn a_small_data_set_is_made_and_fitted() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    for rule in ["renju", "freestyle"] {
        let games = dir.path().join(format!("{rule}-games.txt"));
        tune()
            .args([
                "games", "--rule", rule, "--games", "12", "--depth", "1", "--seed", "3",
            ])
            .arg("--out")
            .arg(&games)
            .assert()
            .success();
        let text = std::fs::read_to_string(&games).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 12, "{text}");
        assert!(text.starts_with("# tengen self-play: 12 "), "{text}");
        let parsed = tengen::learn::parse_games(&text).expect("the games read back");
        assert!(parsed.iter().all(|g| g.rule.to_string() == rule));
        // Every game is decided by a five or fills the board: it replays to its end.
        assert!(parsed.iter().all(|g| g.moves.len() >= 5), "{text}");
    }
    std::fs::copy(dir.path().join("renju-games.txt"), &games).unwrap();
    let out = dir.path().join("renju.txt");
    let run = tune()
        .args([
            "fit",
            "--rule",
            "renju",
            "--holdout",
            "0.25",
            "--epochs",
            "60",
        ])
        .arg("--out")
        .arg(&out)
        .arg(&games)
        .arg(dir.path().join("freestyle-games.txt"))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(stdout.starts_with("renju: held-out loss "), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let tables = RuleTables::parse(&text).expect("the fitted tables read back");
    assert_eq!(tables.rule, Rule::Renju);
    assert!(
        tables.mover[0]
            .iter()
            .chain(&tables.waiter[1])
            .any(|&v| v != 0),
        "the fit moved some value"
    );
    for needle in [
        "# fitted by tengen-tune",
        "# command: tengen-tune fit --rule renju",
        "12 renju games",
        "# loss (mean cross-entropy): fit ",
    ] {
        assert!(text.contains(needle), "no `{needle}` in\n{text}");
    }
    // The freestyle file gave no renju games, so it is not listed as a source.
    assert!(!text.contains("freestyle-games.txt: 0"), "{text}");
    // The training loss fell below the constant predictor's (ln 2 for even results).
    let fit: f64 = text
        .split("# loss (mean cross-entropy): fit ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.trim().parse().ok())
        .expect("a fit loss");
    assert!(fit < 0.69, "fit loss {fit}");
    // An existing file is not replaced without --force.
    tune()
        .args(["fit", "--rule", "renju", "--out"])
        .arg(&out)
        .arg(&games)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "exists: pass --force to replace it",
        ));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

#[test]
fn a_bad_games_file_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("bad.txt");
    std::fs::write(&games, "# two games\nrenju B h8 i9\nrenju W h8 h8\n").unwrap();
    tune()
        .args(["fit", "--rule", "renju", "--out"])
        .arg(dir.path().join("t.txt"))
        .arg(&games)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "bad.txt:3:12: h8 is off the board or taken",
        ));
    std::fs::write(&games, "renju X h8\n").unwrap();
    tune()
        .args(["fit", "--rule", "renju", "--out"])
        .arg(dir.path().join("t.txt"))
        .arg(&games)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "bad.txt:1:7: `X` is not B, W or D",
        ));
    assert!(!dir.path().join("t.txt").exists());
}
