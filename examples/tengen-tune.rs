//! `tengen-tune`: makes games and fits the learned evaluation's tables to them.
//!
//! An example, not a binary, so that `cargo install` gives players only `tengen` and
//! `pbrain-tengen`; `cargo test` builds it (the tests run it), and so does
//! `cargo build --release --example tengen-tune`, into `target/release/examples/`:
//!
//! ```sh
//! cargo build --release --example tengen-tune
//! target/release/examples/tengen-tune games --rule renju --games 20 --depth 2 --out games.txt
//! target/release/examples/tengen-tune fit --rule renju --out src/analyze/tables/renju.txt \
//!     games.txt more-games.txt
//! ```
//!
//! See the README's evaluation section and [`tengen::analyze::learn`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tengen::analyze::learn::{self, FitOptions, Layout};
use tengen::analyze::learned;
use tengen::board::{Color, Point, Rule};
use tengen::files::output;

#[derive(Parser)]
#[command(
    name = "tengen-tune",
    version,
    about = "Make games and fit tengen's evaluation tables to them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// tengen's own games at a fixed depth from random openings, as a games file.
    Games {
        /// freestyle, standard or renju.
        #[arg(long)]
        rule: Rule,
        /// How many games.
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// The search depth of every move.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// The chance of a random move near the stones instead of the best one.
        #[arg(long, default_value_t = 0.1)]
        noise: f64,
        /// Seed of the openings and the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start the games from these openings in turn (a move list a line, `#` comments, as
        /// examples/openings/RULE-fit.txt) instead of random stones.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// The games file to write (refused if it exists, unless --force), a game a line as
        /// each ends.
        #[arg(long)]
        out: PathBuf,
        /// Replace OUT if it exists.
        #[arg(long)]
        force: bool,
    },
    /// The positions tengen's search judges statically, sampled from its searches of
    /// positions drawn from games files, as `RULE ? MOVES` lines (`?`: no game's result) for a
    /// labeller (`scripts/label-positions.py --whole`) and then `fit`.
    Leaves(LeavesArgs),
    /// Fits a rule's tables to the games of that rule in the games files.
    Fit(FitArgs),
    /// Measures tables on games files: the mean cross-entropy against the labels and against
    /// the games' results alone, over every position `fit` would use.
    Loss {
        /// The table file to measure.
        #[arg(long)]
        table: PathBuf,
        /// As for `fit`.
        #[arg(long, default_value_t = 1.0)]
        score_weight: f64,
        /// As for `fit` (default: the scale that fits these files' scores best).
        #[arg(long)]
        score_scale: Option<f64>,
        /// Games files, as for `fit`.
        #[arg(required = true)]
        games: Vec<PathBuf>,
    },
    /// How often the move played is among the first 1, 3 and 5 of the root's order before
    /// any search (what each move makes and stops), over the positions of games files: the
    /// figure a learned move order must beat; and of the candidates ranked by the static
    /// value each leaves (what the search's last ply compares).
    Order {
        /// freestyle, standard or renju.
        #[arg(long)]
        rule: Rule,
        /// Count from this ply on (0: the first move): the moves before are the opening's.
        #[arg(long, default_value_t = 6)]
        from_ply: usize,
        /// The table whose static values rank the candidates too (default: the shipped one).
        #[arg(long)]
        table: Option<PathBuf>,
        /// Games files, as for `fit`.
        #[arg(required = true)]
        games: Vec<PathBuf>,
    },
    /// Fits a learned move order (a softmax over the root's candidates, from the cells' codes
    /// and their distances to the last stones) to the moves played in games files, and
    /// reports its hit rates beside the static order's on games held out of the fit.
    Policy(PolicyArgs),
}

// `policy`'s arguments (a plain comment, as for `FitArgs`).
#[derive(clap::Args)]
struct PolicyArgs {
    /// freestyle, standard or renju.
    #[arg(long)]
    rule: Rule,
    /// Count from this ply on (0: the first move): the moves before are the opening's.
    #[arg(long, default_value_t = 6)]
    from_ply: usize,
    /// The share of games held out of the fit, to measure on.
    #[arg(long, default_value_t = 0.2)]
    holdout: f64,
    /// The seed of the held-out draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 400)]
    steps: usize,
    /// Adam's rate.
    #[arg(long, default_value_t = 0.05)]
    rate: f64,
    /// The weight of the L2 penalty.
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
    /// Write the weights here (one `index value` a line, after a header that says how they
    /// were made).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Overwrite `--out` if it exists.
    #[arg(long)]
    force: bool,
    /// Games files, as for `fit`.
    #[arg(required = true)]
    games: Vec<PathBuf>,
}

// `leaves`'s arguments (a plain comment, as for `FitArgs`).
#[derive(clap::Args)]
struct LeavesArgs {
    /// freestyle, standard or renju.
    #[arg(long)]
    rule: Rule,
    /// Positions drawn from each game.
    #[arg(long, default_value_t = 2)]
    per_game: usize,
    /// Draw from this ply on (0: the empty board): the moves before are the opening's.
    #[arg(long, default_value_t = 6)]
    from_ply: usize,
    /// The analysis's time on each drawn position, in milliseconds (`tengen analyze --time`,
    /// one thread).
    #[arg(long, default_value_t = 300)]
    time_ms: u64,
    /// Keep one position in this many of those the search judges statically.
    #[arg(long, default_value_t = 2500)]
    every: u32,
    /// Seed of the draw.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// The file to write (refused if it exists, unless --force).
    #[arg(long)]
    out: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    force: bool,
    /// Games files, as for `fit`.
    #[arg(required = true)]
    games: Vec<PathBuf>,
}

// `fit`'s arguments, a struct of their own so that the fit's phases can take them whole (a
// plain comment: a doc comment here would replace the subcommand's help).
#[derive(clap::Args)]
struct FitArgs {
    /// freestyle, standard or renju.
    #[arg(long)]
    rule: Rule,
    /// The share of games held out of the fit to measure it.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Seed of the held-out draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = FitOptions::default().epochs)]
    epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = FitOptions::default().rate)]
    rate: f64,
    /// Weight of the squared values.
    #[arg(long, default_value_t = FitOptions::default().l2)]
    l2: f64,
    /// Measure the squared values from the --from table's instead of from zero, so that a
    /// refit on a few new games stays near what that table learned (with a stronger
    /// --l2, such as 0.001, and a smaller --rate, such as 0.005).
    #[arg(long, requires = "from")]
    l2_to_start: bool,
    /// A scored position's label: this share of its score's win probability, the rest
    /// its game's result.
    #[arg(long, default_value_t = 1.0)]
    score_weight: f64,
    /// The scores' units a logit (default: the scale at which the scores predict the
    /// results best).
    #[arg(long)]
    score_scale: Option<f64>,
    /// Start from this table's values instead of zeros (its header is kept in the new
    /// table's provenance).
    #[arg(long)]
    from: Option<PathBuf>,
    /// Fit only the count term; every other value keeps its start (with --from: that
    /// table's).
    #[arg(long, conflicts_with = "keep_base")]
    only_count: bool,
    /// Give the classes late values, added to theirs from this many stones on the board
    /// (default: the --from table's, else none).
    #[arg(long)]
    late_from: Option<u32>,
    /// Keep the class, tempo and threat values of the start (with --from: that table's)
    /// and fit the count term and the late values only.
    #[arg(long)]
    keep_base: bool,
    /// The table file to write (refused if it exists, unless --force).
    #[arg(long)]
    out: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    force: bool,
    /// Games files (`RULE RESULT MOVES...` a line, or `RULE RESULT MOVES... = SCORE`
    /// for a scored position; `#` lines describe where they came from and go into the
    /// table's provenance).
    #[arg(required = true)]
    games: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// An error when `path` exists and `force` was not given, checked before the work (the
/// write, [`write_file`], checks again).
fn refuse_existing(path: &Path, force: bool) -> Result<(), String> {
    if path.exists() && !force {
        return Err(format!(
            "{} exists: pass --force to replace it",
            path.display()
        ));
    }
    Ok(())
}

/// Writes `text` to `path` as tengen writes every file the user names ([`output::write`]):
/// atomically, never over an existing file without `force`.
fn write_file(path: &Path, text: &str, force: bool) -> Result<(), String> {
    output::write(path, text, force).map_err(|e| e.to_string())
}

/// The commit the tuner was run from, when it runs inside a git checkout.
fn commit() -> String {
    let out = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR")])
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => "unknown (built outside a git checkout)".into(),
    }
}

/// The games of `rule` in the games files, and the lines that say where they came from: each
/// file's count, then its `#` lines (once each).
fn read_games(
    paths: &[PathBuf],
    rule: Rule,
) -> Result<(Vec<learn::GameRecord>, Vec<String>), String> {
    let mut all = Vec::new();
    let mut sources = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let parsed = learn::parse_games(&text)
            .map_err(|e| format!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message))?;
        let of_rule = parsed.iter().filter(|g| g.rule == rule).count();
        if of_rule == 0 {
            continue;
        }
        let scored_here = parsed
            .iter()
            .filter(|g| g.rule == rule && g.score.is_some())
            .count();
        sources.push(if scored_here == 0 {
            format!("{}: {of_rule} {rule} games", path.display())
        } else {
            format!(
                "{}: {} {rule} games, {scored_here} scored positions",
                path.display(),
                of_rule - scored_here
            )
        });
        for line in text.lines().filter(|l| l.starts_with('#')) {
            if !sources.iter().any(|s| s == line) {
                sources.push(line.to_string());
            }
        }
        all.extend(parsed.into_iter().filter(|g| g.rule == rule));
    }
    Ok((all, sources))
}

/// Checks the labelling options.
fn check_labels(score_weight: f64, score_scale: Option<f64>) -> Result<(), String> {
    if !(0.0..=1.0).contains(&score_weight) {
        return Err("--score-weight is a share, from 0 to 1".into());
    }
    if score_scale.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
        return Err("--score-scale is a positive number".into());
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Games {
            rule,
            games,
            depth,
            noise,
            seed,
            openings,
            out,
            force,
        } => {
            let openings = match &openings {
                Some(path) => read_openings(path, rule)?,
                None => Vec::new(),
            };
            let plan = SelfPlay {
                rule,
                games,
                depth,
                noise,
                seed,
            };
            make_games(&plan, &openings, &out, force)
        }
        Command::Leaves(args) => sample_leaves(&args),
        Command::Fit(args) => fit(&args),
        Command::Loss {
            table,
            score_weight,
            score_scale,
            games,
        } => measure(&table, score_weight, score_scale, &games),
        Command::Order {
            rule,
            from_ply,
            table,
            games,
        } => order(rule, from_ply, table.as_deref(), &games),
        Command::Policy(args) => policy(&args),
    }
}

/// `leaves`: the sampled positions of the searches of positions drawn from the games, into
/// `out` with a header that says where they came from.
fn sample_leaves(a: &LeavesArgs) -> Result<(), String> {
    refuse_existing(&a.out, a.force)?;
    if a.every == 0 || a.per_game == 0 || a.time_ms == 0 {
        return Err("--every, --per-game and --time-ms are at least 1".into());
    }
    let (games, sources) = read_games(&a.games, a.rule)?;
    let games: Vec<learn::GameRecord> = games.into_iter().filter(|g| g.score.is_none()).collect();
    if games.is_empty() {
        return Err(format!("no whole {} games in the files given", a.rule));
    }
    let plan = learn::LeafPlan {
        per_game: a.per_game,
        from_ply: a.from_ply,
        time: std::time::Duration::from_millis(a.time_ms),
        every: a.every,
        seed: a.seed,
    };
    let mut body = String::new();
    let mut kept = 0;
    let searched = learn::leaves(&games, plan, |line| {
        body += line;
        body.push('\n');
        kept += 1;
    });
    let mut text = format!(
        "# leaves: {kept} {} positions whose static value tengen's search took, one in {} of them, from its analyses of {searched} positions ({} a game from ply {}, seed {}) at {} ms each, one thread; tengen {} ({})\n",
        a.rule,
        a.every,
        a.per_game,
        a.from_ply,
        a.seed,
        a.time_ms,
        env!("CARGO_PKG_VERSION"),
        commit()
    );
    for s in sources {
        let s = s.trim_start_matches("# ");
        text += &format!("# from {s}\n");
    }
    text += &body;
    write_file(&a.out, &text, a.force)?;
    eprintln!("{kept} positions in {}", a.out.display());
    Ok(())
}

/// `policy`: the learned order's fit and its hit rates against the static order's.
fn policy(a: &PolicyArgs) -> Result<(), String> {
    if let Some(out) = &a.out {
        refuse_existing(out, a.force)?;
    }
    let (games, sources) = read_games(&a.games, a.rule)?;
    let (fit_games, held_games) = learn::split(&games, a.holdout, a.seed);
    let fit_set = learn::samples(&fit_games, a.rule, a.from_ply);
    let held = learn::samples(&held_games, a.rule, a.from_ply);
    if fit_set.is_empty() || held.is_empty() {
        return Err(format!("too few {} positions to fit and hold out", a.rule));
    }
    let theta = learn::fit_policy(&fit_set, a.steps, a.rate, a.l2, |step, loss| {
        eprintln!("step {step}: fit loss {loss:.4}");
    });
    let line = |what: &str, h: learn::Hits| {
        format!(
            "{what}: first {:.1}%, first 3 {:.1}%, first 5 {:.1}%, mean rank {:.2}",
            100.0 * h.rate(0),
            100.0 * h.rate(1),
            100.0 * h.rate(2),
            h.rank_sum as f64 / h.positions.max(1) as f64
        )
    };
    let report = vec![
        format!(
            "{}: {} fit positions ({} games), {} held-out positions ({} games), from ply {}",
            a.rule,
            fit_set.len(),
            fit_games.len(),
            held.len(),
            held_games.len(),
            a.from_ply
        ),
        format!(
            "loss (nats a move): fit {:.4}, held out {:.4}, uniform held out {:.4}",
            learn::policy_loss(&theta, &fit_set),
            learn::policy_loss(&theta, &held),
            learn::policy_loss(&vec![0.0; learn::POLICY_WEIGHTS], &held)
        ),
        line("held out, static order", learn::policy_hits(None, &held)),
        line(
            "held out, learned order",
            learn::policy_hits(Some(&theta), &held),
        ),
        line(
            "fit, learned order",
            learn::policy_hits(Some(&theta), &fit_set),
        ),
        gaps_line(&learn::policy_gaps(&theta, &held)),
    ];
    for line in &report {
        println!("{line}");
    }
    if let Some(out) = &a.out {
        let mut text = format!(
            "# tengen learned move order (tengen-tune policy, commit {})\n",
            commit()
        );
        text += &format!(
            "# command: tengen-tune policy --rule {} --from-ply {} --holdout {} --seed {} \
             --steps {} --rate {} --l2 {} GAMES\n",
            a.rule, a.from_ply, a.holdout, a.seed, a.steps, a.rate, a.l2
        );
        for s in &sources {
            text += &format!("# games: {}\n", s.trim_start_matches("# "));
        }
        report.iter().for_each(|l| text += &format!("# {l}\n"));
        for (i, v) in theta.iter().enumerate().filter(|(_, v)| **v != 0.0) {
            text += &format!("{i} {}\n", (v * 1000.0).round() as i64);
        }
        write_file(out, &text, a.force)?;
    }
    Ok(())
}

/// The held-out gaps (nats behind the best candidate) of the moves played and of all
/// candidates, by bin.
fn gaps_line((played, all): &([f64; 6], [f64; 6])) -> String {
    let e = learn::GAP_EDGES;
    let names = [
        format!("<{}", e[0]),
        format!("{}-{}", e[0], e[1]),
        format!("{}-{}", e[1], e[2]),
        format!("{}-{}", e[2], e[3]),
        format!("{}-{}", e[3], e[4]),
        format!(">={}", e[4]),
    ];
    let bins: Vec<String> = (0..6)
        .map(|k| {
            format!(
                "{} {:.1}% / {:.1}%",
                names[k],
                100.0 * played[k],
                100.0 * all[k]
            )
        })
        .collect();
    format!(
        "held out, nats behind the best (played / all candidates): {}",
        bins.join(", ")
    )
}

/// `order`: the root order's hit rates over the games files.
fn order(
    rule: Rule,
    from_ply: usize,
    table: Option<&Path>,
    paths: &[PathBuf],
) -> Result<(), String> {
    let (games, sources) = read_games(paths, rule)?;
    if games.is_empty() {
        return Err(format!("no {rule} games in the files"));
    }
    let refs: Vec<&learn::GameRecord> = games.iter().collect();
    let hits = learn::order_hits(&refs, rule, from_ply);
    for line in &sources {
        println!("# {}", line.trim_start_matches("# "));
    }
    println!(
        "{rule}: {} positions from ply {from_ply}; the move played first in the order {:.1}%, \
         in the first 3 {:.1}%, in the first 5 {:.1}%, not a candidate {:.1}%; mean rank {:.2} \
         where a candidate",
        hits.positions,
        100.0 * hits.rate(0),
        100.0 * hits.rate(1),
        100.0 * hits.rate(2),
        100.0 * hits.absent as f64 / hits.positions.max(1) as f64,
        hits.rank_sum as f64 / (hits.positions - hits.absent).max(1) as f64,
    );
    let tables = match table {
        Some(path) => read_table(path, rule)?.0,
        None => learned::shipped(rule).clone(),
    };
    let by_value = learn::value_hits(&refs, rule, from_ply, &tables);
    println!(
        "{rule}: by the static value each candidate leaves: first {:.1}%, first 3 {:.1}%, \
         first 5 {:.1}%; mean rank {:.2}",
        100.0 * by_value.rate(0),
        100.0 * by_value.rate(1),
        100.0 * by_value.rate(2),
        by_value.rank_sum as f64 / (by_value.positions - by_value.absent).max(1) as f64,
    );
    Ok(())
}

/// What `games` plays.
struct SelfPlay {
    rule: Rule,
    games: usize,
    depth: u32,
    noise: f64,
    seed: u64,
}

/// The openings of a move-list file (a line each, `#` comments), each replayed under `rule`.
fn read_openings(path: &Path, rule: Rule) -> Result<Vec<Vec<Point>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut openings = Vec::new();
    let prefix = format!("{rule} D ");
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim().starts_with('#') {
            continue;
        }
        // Read as a games file's line, whose columns are then the file's less the prefix.
        let games = learn::parse_games(&format!("{prefix}{line}")).map_err(|e| {
            let column = e.column.saturating_sub(prefix.len()).max(1);
            format!("{}:{}:{column}: {}", path.display(), n + 1, e.message)
        })?;
        openings.extend(games.into_iter().map(|g| g.moves));
    }
    if openings.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(openings)
}

/// `games`: self-play games, with a header line that says how to make them again, appended
/// to `out` a game at a time (a stopped run keeps its whole games; `--force` starts it anew).
fn make_games(
    plan: &SelfPlay,
    openings: &[Vec<Point>],
    out: &Path,
    force: bool,
) -> Result<(), String> {
    use std::io::Write as _;
    refuse_existing(out, force)?;
    let SelfPlay {
        rule,
        games,
        depth,
        noise,
        seed,
    } = *plan;
    if !(0.0..=1.0).contains(&noise) {
        return Err("--noise is a chance, from 0 to 1".into());
    }
    let from = if openings.is_empty() {
        "random openings".to_string()
    } else {
        format!("{} openings in turn", openings.len())
    };
    let header = format!(
        "# tengen self-play: {games} {rule} games, depth {depth}, noise {noise}, seed {seed}, {from}, tengen {} ({})\n",
        env!("CARGO_PKG_VERSION"),
        commit()
    );
    let io = |e: std::io::Error| format!("{}: {e}", out.display());
    let mut file = std::fs::File::create(out).map_err(io)?;
    file.write_all(header.as_bytes()).map_err(io)?;
    let mut failed = None;
    learn::self_play(rule, games, depth, noise, seed, openings, |line| {
        if failed.is_none()
            && let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush())
        {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(io(e));
    }
    eprintln!("tengen-tune: {games} games in {}", out.display());
    Ok(())
}

/// Where a fit starts: the `--from` table's values (logit units), the lines of its header
/// (for the new table's provenance) and where its late values start (0: none, or no table).
struct Start {
    theta: Vec<f64>,
    header: String,
    late_from: u32,
}

/// The table file at `path`, which must be of `rule`, and its text.
fn read_table(path: &Path, rule: Rule) -> Result<(learned::RuleTables, String), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let t = learned::RuleTables::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if t.rule != rule {
        return Err(format!(
            "{}: a {} table, not {rule}",
            path.display(),
            t.rule
        ));
    }
    Ok((t, text))
}

impl Start {
    /// From the table at `from` (which must be of `rule`), or zeros without one.
    fn read(from: Option<&Path>, rule: Rule) -> Result<Start, String> {
        let Some(path) = from else {
            return Ok(Start {
                theta: Vec::new(),
                header: String::new(),
                late_from: 0,
            });
        };
        let (t, text) = read_table(path, rule)?;
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("#   | {}\n", l.trim_start_matches('#').trim()))
            .collect();
        Ok(Start {
            theta: learn::theta_of(&t),
            header,
            late_from: t.late_from,
        })
    }
}

/// The games split into the fit's and the held-out ones, with their positions labelled.
struct DataSets<'g> {
    fit_games: Vec<&'g learn::GameRecord>,
    held_games: Vec<&'g learn::GameRecord>,
    /// How many of all the lines are scored positions.
    scored: usize,
    /// The scale the fit's scored positions predict their results best at, if any.
    fitted_scale: Option<f64>,
    labels: learn::Labels,
    train: learn::Data,
    test: learn::Data,
}

impl DataSets<'_> {
    fn new<'g>(
        all: &'g [learn::GameRecord],
        a: &FitArgs,
        late_from: u32,
    ) -> Result<DataSets<'g>, String> {
        let (fit_games, held_games) = learn::split(all, a.holdout, a.seed);
        let scored = all.iter().filter(|g| g.score.is_some()).count();
        let fitted_scale = learn::score_scale(&fit_games, a.rule);
        let labels = learn::Labels {
            scale: label_scale(a.score_scale, fitted_scale, all)?,
            weight: a.score_weight,
        };
        let train = learn::positions(&fit_games, a.rule, labels, late_from);
        let test = learn::positions(&held_games, a.rule, labels, late_from);
        if train.is_empty() {
            return Err("no positions to fit (every game too short?)".into());
        }
        eprintln!(
            "tengen-tune: {} games ({} positions) to fit, {} ({} positions) held out",
            fit_games.len(),
            train.len(),
            held_games.len(),
            test.len()
        );
        Ok(DataSets {
            fit_games,
            held_games,
            scored,
            fitted_scale,
            labels,
            train,
            test,
        })
    }
}

/// The values a fit may move: all (`None`), or with `--only-count` the count term alone, with
/// `--keep-base` the count term and the late values.
fn trainable(layout: Layout, only_count: bool, keep_base: bool) -> Option<Vec<bool>> {
    (only_count || keep_base).then(|| {
        let mut t = vec![false; layout.params()];
        for c in [Color::Black, Color::White] {
            for index in 0..learned::COUNT_INDEXES {
                t[layout.count(c, index)] = true;
            }
            if keep_base && layout.late {
                for class in 1..learned::CLASSES {
                    for mover in [true, false] {
                        t[layout.late_slot(c, mover, class)] = true;
                    }
                }
            }
        }
        t
    })
}

/// A fit's losses: on its own positions, on the held-out ones, and the held-out losses of
/// the constant predictor and of the hand weights (at their best scale).
struct Losses {
    fit: f64,
    held: f64,
    constant: f64,
    hand: f64,
    hand_scale: f64,
}

impl Losses {
    fn of(theta: &[f64], sets: &DataSets) -> Losses {
        let (hand, hand_scale) = learn::hand_loss(&sets.train, &sets.test);
        Losses {
            fit: learn::loss(theta, &sets.train),
            held: learn::loss(theta, &sets.test),
            constant: learn::constant_loss(&sets.train, &sets.test),
            hand,
            hand_scale,
        }
    }
}

/// `fit`: reads the start and the games, fits, and writes the tables under a header that says
/// how they were made and how well they predict the held-out games.
fn fit(a: &FitArgs) -> Result<(), String> {
    refuse_existing(&a.out, a.force)?;
    let start = Start::read(a.from.as_deref(), a.rule)?;
    let late_from = a.late_from.unwrap_or(start.late_from);
    if start.late_from > 0 && late_from != start.late_from {
        return Err(format!(
            "the --from table's late values start at {} stones, not {late_from}",
            start.late_from
        ));
    }
    let layout = Layout::with_late(a.rule, late_from);
    // The late values come last: a start without them gets them as zeros.
    let mut theta = start.theta;
    theta.resize(layout.params(), 0.0);
    if !(0.0..1.0).contains(&a.holdout) {
        return Err("--holdout is a share, from 0 to below 1".into());
    }
    check_labels(a.score_weight, a.score_scale)?;
    let (all, sources) = read_games(&a.games, a.rule)?;
    if all.is_empty() {
        return Err(format!("no {} games in the files given", a.rule));
    }
    let sets = DataSets::new(&all, a, late_from)?;
    let options = FitOptions {
        epochs: a.epochs,
        rate: a.rate,
        l2: a.l2,
        l2_to_start: a.l2_to_start,
    };
    let mask = trainable(layout, a.only_count, a.keep_base);
    let theta = learn::fit_from(&sets.train, theta, mask.as_deref(), options, |e, l| {
        eprintln!("tengen-tune: step {e}: loss {l:.5}");
    });
    let losses = Losses::of(&theta, &sets);
    let mut text = fit_header(a, &start.header, &sources, &sets, &losses, late_from);
    if sets.scored > 0 {
        // Against the games' results alone: comparable between fits that label the scored
        // positions differently.
        let results_only = learn::Labels {
            weight: 0.0,
            ..sets.labels
        };
        let held_results = learn::positions(&sets.held_games, a.rule, results_only, late_from);
        let held_results_loss = results_loss(&theta, &held_results);
        text += &format!("# held-out loss against the games' results alone: {held_results_loss}\n");
    }
    text += &learn::tables(a.rule, &theta, late_from).to_text();
    write_file(&a.out, &text, a.force)?;
    println!(
        "{}: held-out loss {:.5} (fit {:.5}; constant {:.5}; hand weights {:.5}); tables in {}",
        a.rule,
        losses.held,
        losses.fit,
        losses.constant,
        losses.hand,
        a.out.display()
    );
    Ok(())
}

/// The command line that makes the table again (the options that differ from the defaults
/// where the default depends on the data).
fn fit_command(a: &FitArgs, scored: usize, late_from: u32) -> String {
    let score_args = if scored > 0 {
        let given = a
            .score_scale
            .map_or(String::new(), |s| format!(" --score-scale {s}"));
        format!(" --score-weight {}{given}", a.score_weight)
    } else {
        String::new()
    };
    let late_from_arg = if late_from > 0 {
        format!(" --late-from {late_from}")
    } else {
        String::new()
    };
    let from_args = a
        .from
        .as_ref()
        .map_or(String::new(), |p| format!(" --from {}", p.display()))
        + if a.only_count { " --only-count" } else { "" }
        + &late_from_arg
        + if a.keep_base { " --keep-base" } else { "" }
        + if a.l2_to_start { " --l2-to-start" } else { "" };
    format!(
        "# command: tengen-tune fit --rule {} --holdout {} --seed {} --epochs {} --rate {} --l2 {}{score_args}{from_args} --out {} {}\n",
        a.rule,
        a.holdout,
        a.seed,
        a.epochs,
        a.rate,
        a.l2,
        a.out.display(),
        a.games
            .iter()
            .map(|g| g.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// A fitted table's provenance: the tuner and commit, the command, the start, the data and
/// how the positions were labelled, and the losses.
fn fit_header(
    a: &FitArgs,
    from_header: &str,
    sources: &[String],
    sets: &DataSets,
    losses: &Losses,
    late_from: u32,
) -> String {
    let mut text = String::from(
        "# tengen evaluation tables: values are 400 x logit (see src/analyze/learn/).\n",
    );
    text += &format!(
        "# fitted by tengen-tune {} at commit {}\n",
        env!("CARGO_PKG_VERSION"),
        commit()
    );
    text += &fit_command(a, sets.scored, late_from);
    if let Some(p) = &a.from {
        text += &format!(
            "# started from {}, whose header was:\n{from_header}",
            p.display()
        );
    }
    text += "# data:\n";
    for s in sources {
        text += &format!("#   {}\n", s.trim_start_matches('#').trim());
    }
    if sets.scored > 0 {
        text += &format!(
            "# scored positions: {}, labelled {:.3} x sigmoid(score / {:.1}) + {:.3} x result; the scale that predicts the results best: {}\n",
            sets.scored,
            a.score_weight,
            sets.labels.scale,
            1.0 - a.score_weight,
            sets.fitted_scale
                .map_or("none".into(), |s| format!("{s:.1}"))
        );
    }
    text += &format!(
        "# positions: {} fitted ({} lines: games and scored positions), {} held out ({} lines)\n",
        sets.train.len(),
        sets.fit_games.len(),
        sets.test.len(),
        sets.held_games.len()
    );
    text += &format!(
        "# loss (mean cross-entropy): fit {:.5}, held out {:.5}; held out, always the mean {:.5}, hand weights at their best scale ({:.0}) {:.5}\n",
        losses.fit, losses.held, losses.constant, losses.hand_scale, losses.hand
    );
    text
}

/// `loss`: a table measured on games files, against the labels and the results alone.
fn measure(
    table: &Path,
    score_weight: f64,
    score_scale: Option<f64>,
    games: &[PathBuf],
) -> Result<(), String> {
    check_labels(score_weight, score_scale)?;
    let text = std::fs::read_to_string(table).map_err(|e| format!("{}: {e}", table.display()))?;
    let tables =
        learned::RuleTables::parse(&text).map_err(|e| format!("{}: {e}", table.display()))?;
    let rule = tables.rule;
    let (all, _) = read_games(games, rule)?;
    if all.is_empty() {
        return Err(format!("no {rule} games in the files given"));
    }
    let refs: Vec<&learn::GameRecord> = all.iter().collect();
    let scale = label_scale(score_scale, learn::score_scale(&refs, rule), &all)?;
    let theta = learn::theta_of(&tables);
    let labels = learn::Labels {
        scale,
        weight: score_weight,
    };
    let data = learn::positions(&refs, rule, labels, tables.late_from);
    let results = learn::positions(
        &refs,
        rule,
        learn::Labels {
            weight: 0.0,
            ..labels
        },
        tables.late_from,
    );
    println!(
        "{rule}: {} positions; loss {:.5} against the labels ({score_weight} x sigmoid(score / {scale:.1}) + {:.3} x result), {} against the results alone",
        data.len(),
        learn::loss(&theta, &data),
        1.0 - score_weight,
        results_loss(&theta, &results),
    );
    Ok(())
}

/// The scores' units a logit: the one given, else the one the results fit; an error when
/// scored positions have no results to fit one to (positions of no game, `?`) and none was
/// given. Without scored positions it goes unused.
fn label_scale(
    given: Option<f64>,
    fitted: Option<f64>,
    games: &[learn::GameRecord],
) -> Result<f64, String> {
    if let Some(s) = given.or(fitted) {
        return Ok(s);
    }
    if games.iter().any(|g| g.score.is_some()) {
        return Err(
            "the scored positions have no games' results to fit their scale to: give --score-scale"
                .into(),
        );
    }
    Ok(400.0)
}

/// The loss against the results alone, or `none` when no position has a game's result.
fn results_loss(theta: &[f64], results: &learn::Data) -> String {
    if results.is_empty() {
        "none (no position of a game)".into()
    } else {
        format!("{:.5}", learn::loss(theta, results))
    }
}
