//! `tengen-tune`: a small data set made and fitted from a fresh checkout, as the README's
//! evaluation section says, and its errors.

use assert_cmd::Command;
use tengen::analyze::learned::RuleTables;
use tengen::board::Rule;

/// `tengen-tune`, an example (players do not install it): `cargo test` builds it beside the
/// test binary's folder, in `target/PROFILE/examples/`.
fn tune() -> Command {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary is in target/PROFILE/deps");
    let tune = profile
        .join("examples/tengen-tune")
        .with_extension(std::env::consts::EXE_EXTENSION);
    assert!(
        tune.is_file(),
        "{} is not built: `cargo test` builds the examples, but `cargo test --test it` alone \
         does not; run `cargo build --release --example tengen-tune` first",
        tune.display()
    );
    Command::new(tune)
}

/// `games --openings`: game k starts from the file's k-th opening (in turn), and a bad point
/// in the file is an error with its line and column, exit 2, no games file left behind.
#[test]
fn games_start_from_the_openings_given() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "# two openings\nh8 g9 f10\n\nh8 i9 j10 i8\n").unwrap();
    let games = dir.path().join("games.txt");
    tune()
        .args(["games", "--rule", "renju", "--games", "3", "--depth", "1"])
        .args(["--noise", "0"])
        .arg("--openings")
        .arg(&openings)
        .arg("--out")
        .arg(&games)
        .assert()
        .success();
    let text = std::fs::read_to_string(&games).unwrap();
    assert!(text.contains("2 openings in turn"), "{text}");
    let parsed = tengen::analyze::learn::parse_games(&text).expect("the games read back");
    let expected = ["h8 g9 f10", "h8 i9 j10 i8", "h8 g9 f10"];
    assert_eq!(parsed.len(), expected.len(), "{text}");
    for (game, opening) in parsed.iter().zip(expected) {
        let moves: Vec<String> = game.moves.iter().map(|p| p.to_string()).collect();
        let n = opening.split(' ').count();
        assert!(moves.len() > n, "{text}");
        assert_eq!(moves[..n].join(" "), opening, "{text}");
    }

    std::fs::write(&openings, "h8 g9\nh8 zz\n").unwrap();
    let bad = dir.path().join("bad.txt");
    let run = tune()
        .args(["games", "--rule", "freestyle", "--games", "1"])
        .arg("--openings")
        .arg(&openings)
        .arg("--out")
        .arg(&bad)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(
        stderr.contains("openings.txt:2:4: `zz` is not a point"),
        "{stderr}"
    );
    assert!(!bad.exists());
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
        let parsed = tengen::analyze::learn::parse_games(&text).expect("the games read back");
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
            "bad.txt:1:7: `X` is not B, W, D or ?",
        ));
    assert!(!dir.path().join("t.txt").exists());
}

#[test]
fn scored_positions_are_fitted_with_the_scale_their_results_give() {
    let dir = tempfile::tempdir().unwrap();
    let scored = dir.path().join("scored.txt");
    // Black's stones shaping up on row 8 score higher for the side to move when black is to
    // move, and black wins those games; a few results go the other way.
    let mut text = String::from("# scored by hand for the test\n");
    let lines = [
        ("B", "h8 a1 i8 a2", "120"),
        ("B", "h8 a1 i8 a2 j8 a3", "+M"),
        ("W", "h8 a1 i8 a2 j8 a3 a15", "-M"),
        ("W", "h8 h9 a1 i9", "-90"),
        ("B", "h8 h9 a1 i9 o15", "40"),
        ("W", "g7 h9 a1 i9 b1 j9", "-300"),
    ];
    for k in 0..30 {
        let (r, moves, s) = lines[k % lines.len()];
        // A corner stone a game keeps the games apart.
        let corner = ["o1", "o2", "o3", "o4", "o5", "o6"][k / lines.len() % 6];
        text += &format!("renju {r} {corner} {moves} = {s}\n");
    }
    std::fs::write(&scored, &text).unwrap();
    let out = dir.path().join("renju.txt");
    tune()
        .args([
            "fit",
            "--rule",
            "renju",
            "--holdout",
            "0.2",
            "--epochs",
            "40",
            "--score-weight",
            "0.8",
        ])
        .arg("--out")
        .arg(&out)
        .arg(&scored)
        .assert()
        .success();
    let table = std::fs::read_to_string(&out).unwrap();
    RuleTables::parse(&table).expect("the fitted tables read back");
    for needle in [
        "--score-weight 0.8 --out",
        "# scored positions: 30, labelled 0.800 x sigmoid(score / ",
        " + 0.200 x result",
        "#   scored by hand for the test",
        "scored.txt: 0 renju games, 30 scored positions",
        "# held-out loss against the games' results alone: ",
    ] {
        assert!(table.contains(needle), "no `{needle}` in\n{table}");
    }
    // The table measured on the same file: one line, both losses, finite.
    let run = tune()
        .args(["loss", "--score-weight", "0.8", "--table"])
        .arg(&out)
        .arg(&scored)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(said.starts_with("renju: 30 positions; loss "), "{said}");
    let losses: Vec<f64> = said
        .split("loss ")
        .nth(1)
        .into_iter()
        .chain(said.split("), ").nth(1))
        .filter_map(|s| s.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(losses.len(), 2, "{said}");
    assert!(losses.iter().all(|l| l.is_finite() && *l > 0.0), "{said}");
    // A bad score says where.
    std::fs::write(&scored, "renju B h8 i9 = 12\nrenju B h8 i9 = twelve\n").unwrap();
    tune()
        .args(["fit", "--rule", "renju", "--force", "--out"])
        .arg(&out)
        .arg(&scored)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "scored.txt:2:17: `twelve` is not a score",
        ));
    tune()
        .args([
            "fit",
            "--rule",
            "renju",
            "--score-weight",
            "1.5",
            "--force",
            "--out",
        ])
        .arg(&out)
        .arg(&scored)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--score-weight is a share"));
}

/// `--from TABLE --only-count`: the count term is fitted on top of a table whose other values
/// stay as they were, and the new table names where it started.
#[test]
fn only_the_count_term_is_fitted_on_top_of_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let (games, base) = fit_on_top(dir.path(), "5", &["--only-count"]);
    let out = dir.path().join("fitted.txt");
    let text = std::fs::read_to_string(&out).unwrap();
    let t = RuleTables::parse(&text).expect("the fitted tables read back");
    assert_ne!(t.count, base.count, "the count term was fitted");
    for needle in ["--only-count", "# started from ", "#   | the shipped table"] {
        assert!(text.contains(needle), "no `{needle}` in\n{text}");
    }
    // A table of another rule is refused.
    let renju = dir.path().join("renju.txt");
    std::fs::write(
        &renju,
        tengen::analyze::learned::shipped(Rule::Renju).to_text(),
    )
    .unwrap();
    refused_fit(
        &["--only-count"],
        &renju,
        dir.path(),
        &games,
        "a renju table, not freestyle",
    );
}

/// `--from TABLE --late-from N --keep-base`: the late values (and the count term) are fitted
/// on top of a table whose class, tempo and threat values stay as they were; the table says
/// from how many stones its late values count, a later fit from it keeps that, and the
/// engine reads it.
#[test]
fn late_values_are_fitted_on_top_of_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let (games, _) = fit_on_top(dir.path(), "7", &["--late-from", "12", "--keep-base"]);
    let out = dir.path().join("fitted.txt");
    let text = std::fs::read_to_string(&out).unwrap();
    let t = RuleTables::parse(&text).expect("the fitted tables read back");
    assert_eq!(t.late_from, 12);
    assert!(
        t.late_mover[0].iter().any(|&v| v != 0),
        "late values were fitted"
    );
    for needle in [
        "--late-from 12",
        "--keep-base",
        "\nlate-from 12\n",
        "\nlate any ",
    ] {
        assert!(text.contains(needle), "no `{needle}` in\n{text}");
    }
    // A fit from that table keeps its start; another start is refused.
    refused_fit(
        &["--epochs", "2", "--keep-base", "--late-from", "20"],
        &out,
        dir.path(),
        &games,
        "late values start at 12 stones, not 20",
    );
    // `--keep-base` and `--only-count` say different things: refused together.
    tune()
        .args(["fit", "--rule", "freestyle", "--keep-base", "--only-count"])
        .arg("--out")
        .arg(dir.path().join("y.txt"))
        .arg(&games)
        .assert()
        .code(2);
    // The engine's evaluation with these tables, run and from scratch, agree on a game.
    let mut board = tengen::board::Board::new(15, Rule::Freestyle).unwrap();
    for m in "h8 i9 i8 g8 j7 h9 j9 j8 g10 k6 f11 h10 h7 g6".split(' ') {
        board.play(m.parse().unwrap());
    }
    let late = tengen::analyze::learned::evaluate_fresh(&board, &t);
    let mut early = t.clone();
    early.late_from = 0;
    assert_ne!(
        late,
        tengen::analyze::learned::evaluate_fresh(&board, &early),
        "14 stones: the late values count"
    );
}

/// `--l2-to-start`: the squared term pulls each value toward the `--from` table's, so a
/// heavy weight keeps the table as it was where the same weight toward zero shrinks it; the
/// header records the option, and without `--from` it is refused.
#[test]
fn a_refit_held_to_its_start_stays_near_it() {
    let dir = tempfile::tempdir().unwrap();
    let games = depth_one_games(dir.path(), "12", "9");
    let start = dir.path().join("start.txt");
    let shipped = tengen::analyze::learned::shipped(Rule::Freestyle);
    std::fs::write(&start, shipped.to_text()).unwrap();
    let fit = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        tune()
            .args([
                "fit",
                "--rule",
                "freestyle",
                "--epochs",
                "300",
                "--l2",
                "50",
            ])
            .args(extra)
            .arg("--from")
            .arg(&start)
            .arg("--out")
            .arg(&out)
            .arg(&games)
            .assert()
            .success();
        let text = std::fs::read_to_string(&out).unwrap();
        (
            RuleTables::parse(&text).expect("the fitted tables read back"),
            text,
        )
    };
    let (held, text) = fit("held.txt", &["--l2-to-start"]);
    assert!(text.contains(" --l2-to-start "), "{text}");
    let (shrunk, _) = fit("shrunk.txt", &[]);
    // The largest class value of the start, and what each fit made of it.
    let (class, &big) = shipped.mover[0]
        .iter()
        .enumerate()
        .max_by_key(|(_, v)| v.abs())
        .unwrap();
    let moved = |t: &RuleTables| (t.mover[0][class] - big).abs();
    assert!(
        moved(&held) * 4 < big.abs(),
        "held: {big} -> {}",
        held.mover[0][class]
    );
    assert!(
        moved(&shrunk) * 2 > big.abs(),
        "shrunk: {big} -> {}",
        shrunk.mover[0][class]
    );
    tune()
        .args(["fit", "--rule", "freestyle", "--l2-to-start", "--out"])
        .arg(dir.path().join("x.txt"))
        .arg(&games)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--from"));
}

/// Runs `tengen-tune fit --rule freestyle ARGS --from FROM` on `games` (into `dir`) and checks
/// that it is refused with `message`.
fn refused_fit(
    args: &[&str],
    from: &std::path::Path,
    dir: &std::path::Path,
    games: &std::path::Path,
    message: &str,
) {
    tune()
        .args(["fit", "--rule", "freestyle"])
        .args(args)
        .arg("--from")
        .arg(from)
        .arg("--out")
        .arg(dir.join("x.txt"))
        .arg(games)
        .assert()
        .failure()
        .stderr(predicates::str::contains(message));
}

/// Writes `count` freestyle depth-1 self-play games (seeded) into `dir`; their path.
fn depth_one_games(dir: &std::path::Path, count: &str, seed: &str) -> std::path::PathBuf {
    let games = dir.join("games.txt");
    tune()
        .args([
            "games",
            "--rule",
            "freestyle",
            "--games",
            count,
            "--depth",
            "1",
        ])
        .args(["--seed", seed, "--out"])
        .arg(&games)
        .assert()
        .success();
    games
}

/// Writes 16 depth-1 self-play games (seeded) and the shipped freestyle table without its
/// late values (with a header) into `dir`, fits `fitted.txt` from that table with `args` (40
/// steps), and checks that the class, tempo and threat values came through unchanged.
/// Returns the games' path and the start table.
fn fit_on_top(
    dir: &std::path::Path,
    seed: &str,
    args: &[&str],
) -> (std::path::PathBuf, RuleTables) {
    let games = depth_one_games(dir, "16", seed);
    let shipped = dir.join("shipped.txt");
    let mut base = tengen::analyze::learned::shipped(Rule::Freestyle).clone();
    base.late_from = 0;
    for values in [&mut base.late_mover, &mut base.late_waiter] {
        for v in values.iter_mut() {
            v.fill(0);
        }
    }
    std::fs::write(&shipped, format!("# the shipped table\n{}", base.to_text())).unwrap();
    tune()
        .args(["fit", "--rule", "freestyle", "--epochs", "40"])
        .args(args)
        .arg("--from")
        .arg(&shipped)
        .arg("--out")
        .arg(dir.join("fitted.txt"))
        .arg(&games)
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.join("fitted.txt")).unwrap();
    let t = RuleTables::parse(&text).expect("the fitted tables read back");
    assert_eq!(t.mover, base.mover);
    assert_eq!(t.waiter, base.waiter);
    assert_eq!(t.threat, base.threat);
    assert_eq!(t.tempo, base.tempo);
    (games, base)
}

/// `policy` fits a move order on self-play games, reports it against the static order on the
/// held-out games, writes its weights with how they were made, and refuses to overwrite them.
#[test]
fn a_move_order_is_fitted_and_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let games = depth_one_games(dir.path(), "16", "5");
    let out = dir.path().join("policy.txt");
    let run = tune()
        .args([
            "policy",
            "--rule",
            "freestyle",
            "--steps",
            "100",
            "--holdout",
            "0.25",
        ])
        .arg("--out")
        .arg(&out)
        .arg(&games)
        .assert()
        .success();
    let report = String::from_utf8_lossy(&run.get_output().stdout).to_string();
    assert!(
        report.contains("held out, static order: first "),
        "{report}"
    );
    assert!(
        report.contains("held out, learned order: first "),
        "{report}"
    );
    // How far behind the best the moves played and all candidates are: six shares each,
    // summing to 100%.
    let gaps = report
        .lines()
        .find(|l| l.starts_with("held out, nats behind the best"))
        .unwrap_or_else(|| panic!("{report}"));
    for side in [0, 1] {
        let shares: Vec<f64> = gaps
            .split(": ")
            .nth(1)
            .unwrap()
            .split(", ")
            .map(|bin| bin.split(" / ").nth(side).unwrap())
            .map(|w| w.rsplit(' ').next().unwrap().trim_end_matches('%'))
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(shares.len(), 6, "{gaps}");
        assert!((shares.iter().sum::<f64>() - 100.0).abs() < 0.5, "{gaps}");
    }
    // The fit learns something: below the uniform order's loss on the games it saw.
    let loss: Vec<f64> = report
        .lines()
        .find(|l| l.starts_with("loss"))
        .unwrap()
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(loss.len(), 3, "{report}");
    assert!(loss[0] < loss[2], "{report}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# tengen learned move order"), "{text}");
    assert!(
        text.contains("# command: tengen-tune policy --rule freestyle"),
        "{text}"
    );
    let weights = text.lines().filter(|l| !l.starts_with('#')).count();
    assert!(weights > 10, "{text}");
    // A second run without --force leaves the file as it was and exits 2.
    tune()
        .args(["policy", "--rule", "freestyle", "--steps", "10"])
        .arg("--out")
        .arg(&out)
        .arg(&games)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

/// `order` ranks the candidates by the static value each leaves too: with a table of zeros
/// every value ties and the ranks are the root order's own; the shipped table's differ, and
/// a table of another rule is refused.
#[test]
fn the_candidates_are_ranked_by_the_values_they_leave() {
    let dir = tempfile::tempdir().unwrap();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/games/rapfi-model-fit-500-freestyle.txt");
    let run = |table: Option<&std::path::Path>| -> Vec<String> {
        let mut cmd = tune();
        cmd.args(["order", "--rule", "freestyle"]);
        if let Some(t) = table {
            cmd.arg("--table").arg(t);
        }
        let out = cmd.arg(&games).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    // "first 32.4%, ...": the three rates of a line, in order.
    let rates = |line: &str| -> Vec<String> {
        line.split('%')
            .filter_map(|part| part.rsplit(' ').next())
            .take(3)
            .map(str::to_string)
            .collect()
    };
    let zero = dir.path().join("zero.txt");
    std::fs::write(&zero, RuleTables::zero(Rule::Freestyle).to_text()).unwrap();
    let flat = run(Some(&zero));
    assert_eq!(flat.len(), 2, "{flat:?}");
    assert!(flat[1].contains("by the static value"), "{flat:?}");
    assert_eq!(rates(&flat[0]), rates(&flat[1]), "{flat:?}");
    let shipped = run(None);
    assert_eq!(shipped[0], flat[0]);
    assert_ne!(rates(&shipped[1]), rates(&flat[1]), "{shipped:?}");
    let renju = dir.path().join("renju.txt");
    std::fs::write(
        &renju,
        tengen::analyze::learned::shipped(Rule::Renju).to_text(),
    )
    .unwrap();
    tune()
        .args(["order", "--rule", "freestyle", "--table"])
        .arg(&renju)
        .arg(&games)
        .assert()
        .failure()
        .stderr(predicates::str::contains("a renju table, not freestyle"));
}

/// `leaves`: the positions the search judged, drawn from searches of the games' positions,
/// each a game's position from the ply drawn on plus the search's moves, marked `?`; scored
/// by hand as a labeller would, they fit with the scale given, and without one the fit says
/// what is missing.
#[test]
fn the_searchs_leaves_are_sampled_scored_and_fitted() {
    let dir = tempfile::tempdir().unwrap();
    let games = depth_one_games(dir.path(), "3", "5");
    let leaves = dir.path().join("leaves.txt");
    tune()
        .args(["leaves", "--rule", "freestyle", "--per-game", "1"])
        .args([
            "--time-ms",
            "100",
            "--every",
            "40",
            "--from-ply",
            "6",
            "--out",
        ])
        .arg(&leaves)
        .arg(&games)
        .assert()
        .success();
    let text = std::fs::read_to_string(&leaves).unwrap();
    assert!(text.starts_with("# leaves: "), "{text}");
    let played =
        tengen::analyze::learn::parse_games(&std::fs::read_to_string(&games).unwrap()).unwrap();
    let mut scored = String::new();
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(&words[..2], ["freestyle", "?"], "{line}");
        let moves = &words[2..];
        // A drawn position (ply 6 or later of a game) with the search's moves after it.
        let from_game = played.iter().any(|g| {
            let g: Vec<String> = g.moves.iter().map(|p| p.to_string()).collect();
            (6..g.len()).any(|k| moves.len() > k && moves[..k] == g[..k])
        });
        assert!(from_game, "not a game's position searched: {line}");
        // A made-up labeller: +100 when black is to move, -100 when white is.
        let score = if moves.len().is_multiple_of(2) {
            100
        } else {
            -100
        };
        scored += &format!("{line} = {score}\n");
        lines += 1;
    }
    assert!(lines >= 4, "{text}");
    let scored_file = dir.path().join("scored.txt");
    std::fs::write(&scored_file, &scored).unwrap();
    let table = dir.path().join("table.txt");
    let run = tune()
        .args(["fit", "--rule", "freestyle", "--epochs", "20", "--out"])
        .arg(&table)
        .arg(&scored_file)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(stderr.contains("give --score-scale"), "{stderr}");
    assert!(!table.exists());
    tune()
        .args([
            "fit",
            "--rule",
            "freestyle",
            "--epochs",
            "20",
            "--holdout",
            "0.3",
        ])
        .args(["--score-scale", "150", "--out"])
        .arg(&table)
        .arg(&scored_file)
        .assert()
        .success();
    let written = std::fs::read_to_string(&table).unwrap();
    RuleTables::parse(&written).expect("the fitted tables read back");
    assert!(
        written.contains("# held-out loss against the games' results alone: none"),
        "{written}"
    );
}
