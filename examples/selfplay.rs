//! Self-play: one analyzer configuration against another, from varied balanced openings, each
//! opening played twice with the colours swapped. Prints wins, draws and losses for A, the
//! score, and an Elo difference with its 95% error bar.
//!
//! ```sh
//! cargo run --release --example selfplay -- --a default --b depth1 --rule freestyle \
//!     --games 100 --time 200ms [--openings FILE] [--threads 2]
//! ```
//!
//! Configurations: `default` (the analyzer as shipped, limited by `--time` a move, on one
//! thread), `cores` (the same on a thread a core, as `tengen analyze --time` runs), `depth1`
//! (the classic weight map: every point at its static value), `depth1vct` (the weight map
//! after the root VCT), `textbook` (a plain depth-3 alpha-beta over the 7x7 window, no threat
//! solvers, no pruning: `Profile::UNPRUNED`), `depthN` (the default search at a fixed depth
//! N), `window3` (the default with a 7x7 window), `top1`, `vct25` and `top1vct25` (one move
//! scored exactly, the root VCT at a quarter of the time). An experiment that needs a switch
//! lives in a scratch build (see docs/strength.md).
//!
//! Openings: by default the 120 a rule in `examples/openings/` (renju's for renju, freestyle's
//! for freestyle and standard), 3 to 5 stones that Rapfi scores as balanced (made by
//! `scripts/make-openings.py`); `--games` beyond twice that many plays the first ones again.
//! `--openings FILE` reads RIF move lists, one a line (black first, `#` starts a comment);
//! `--openings drawn` draws 3 to 5 stones near the centre with a fixed seed and keeps them when
//! a depth-4 analysis scores them within ±60 for the side to move.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tengen::analyze::{self, Profile, Settings};
use tengen::board::{Board, Color, Point, Rule};
use tengen::pattern;

fn config(name: &str, time: Duration) -> Settings {
    let timed = Settings {
        time: Some(time),
        hash_mb: 32,
        ..Settings::default()
    };
    match name {
        "default" => timed,
        // As the command line runs it under a time limit alone: a thread a core.
        "cores" => Settings {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ..timed
        },
        "depth1" => Settings {
            depth: Some(1),
            hash_mb: 8,
            root_vct_nodes: 0,
            ..Settings::default()
        },
        "depth1vct" => Settings {
            depth: Some(1),
            hash_mb: 8,
            ..Settings::default()
        },
        // A plain alpha-beta over the 7x7 window: no threat solvers, no pruning.
        "textbook" => Settings {
            depth: Some(3),
            window: 3,
            hash_mb: 32,
            root_vct_nodes: 0,
            profile: Some(Profile::UNPRUNED),
            ..Settings::default()
        },
        "window3" => Settings { window: 3, ..timed },
        "top1" => Settings { top: 1, ..timed },
        "vct25" => Settings {
            vct_share: 0.25,
            ..timed
        },
        "top1vct25" => Settings {
            top: 1,
            vct_share: 0.25,
            ..timed
        },
        d if d.starts_with("depth") => Settings {
            depth: Some(d[5..].parse().expect("depthN")),
            hash_mb: 32,
            ..Settings::default()
        },
        other => panic!("unknown configuration {other}"),
    }
}

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_string())
}

fn parse_moves(line: &str) -> Option<Vec<Point>> {
    line.split_whitespace().map(|m| m.parse().ok()).collect()
}

/// The shipped openings, each rule's list.
const FREESTYLE_OPENINGS: &str = include_str!("openings/freestyle.txt");
const RENJU_OPENINGS: &str = include_str!("openings/renju.txt");

/// `count` openings: from `--openings FILE`, drawn (`--openings drawn`), else the shipped
/// list for the rule, taken in order and round again when `count` is more.
fn openings(args: &[String], rule: Rule, count: usize) -> Vec<Vec<Point>> {
    let file = arg(args, "--openings", "");
    if file == "drawn" {
        return drawn(rule, count);
    }
    let text = match file.as_str() {
        "" if rule == Rule::Renju => RENJU_OPENINGS.to_string(),
        "" => FREESTYLE_OPENINGS.to_string(),
        _ => std::fs::read_to_string(&file).expect("the openings file reads"),
    };
    let list: Vec<Vec<Point>> = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .filter(|line| !line.trim().is_empty())
        .map(|line| parse_moves(line).expect("each opening is a RIF move list"))
        .collect();
    assert!(!list.is_empty(), "no openings in {file}");
    list.iter().cycle().take(count).cloned().collect()
}

/// `count` openings drawn near the centre and balanced by a quick analysis.
fn drawn(rule: Rule, count: usize) -> Vec<Vec<Point>> {
    let mut rng = tengen::rng::Rng::new(0x243F_6A88_85A3_08D3);
    let mut next = || rng.next_u64();
    let mut out = Vec::new();
    while out.len() < count {
        let stones = 3 + (next() % 3) as usize;
        let mut board = Board::new(15, rule).unwrap();
        let mut moves = Vec::new();
        while moves.len() < stones {
            let r = next();
            let p = Point::new(5 + (r % 5) as u8, 5 + (r / 5 % 5) as u8).unwrap();
            let side = board.to_move();
            if board.is_empty(p)
                && !(rule.has_fouls(side) && pattern::foul(&board, p).is_some())
                && !board.makes_five(p, side)
            {
                board.play(p);
                moves.push(p);
            }
        }
        let quick = Settings {
            depth: Some(4),
            hash_mb: 8,
            ..Settings::default()
        };
        let a = analyze::analyze(&board, &quick, |_| {}).unwrap();
        if a.candidates.first().is_some_and(|c| c.score.abs() <= 60) && !out.contains(&moves) {
            out.push(moves);
        }
    }
    out
}

/// Plays one game; returns 1.0, 0.5 or 0.0 for the side `a` plays, and the game record.
fn play(
    opening: &[Point],
    rule: Rule,
    a: &Settings,
    b: &Settings,
    a_black: bool,
) -> (f64, Vec<Point>) {
    let mut board = Board::new(15, rule).unwrap();
    for &p in opening {
        board.play(p);
    }
    loop {
        let a_to_move = (board.to_move() == Color::Black) == a_black;
        let settings = if a_to_move { a } else { b };
        let analysis = analyze::analyze(&board, settings, |_| {}).expect("memory");
        let Some(best) = analysis.candidates.first() else {
            // No legal move: a full board is a draw; black with only forbidden points loses.
            let r = if board.empty_points().next().is_none() {
                0.5
            } else if a_to_move {
                0.0
            } else {
                1.0
            };
            return (r, board.history().to_vec());
        };
        board.play(best.mv);
        if std::env::var_os("SELFPLAY_VERBOSE").is_some() {
            eprintln!(
                "  {} {} {} {:?}",
                if a_to_move { "A" } else { "B" },
                best.mv,
                best.score,
                best.mate_in
            );
        }
        if let Some(five) = board.winner() {
            let a_won = (five.color == Color::Black) == a_black;
            return (f64::from(u8::from(a_won)), board.history().to_vec());
        }
        if board.empty_points().next().is_none() {
            return (0.5, board.history().to_vec());
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule: Rule = arg(&args, "--rule", "freestyle").parse().expect("a rule");
    let games: usize = arg(&args, "--games", "20")
        .parse()
        .expect("a number of games");
    let time = humantime::parse_duration(&arg(&args, "--time", "200ms")).expect("a time");
    let threads: usize = arg(&args, "--threads", "2").parse().expect("threads");
    let (name_a, name_b) = (arg(&args, "--a", "default"), arg(&args, "--b", "depth1"));
    let (a, b) = (config(&name_a, time), config(&name_b, time));
    let openings = openings(&args, rule, games.div_ceil(2));
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|k| [(k, true), (k, false)])
        .take(games)
        .collect();
    let results = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(k, a_black)) = jobs.get(j) else {
                        break;
                    };
                    let (r, record) = play(&openings[k], rule, &a, &b, a_black);
                    let line: Vec<String> = openings[k].iter().map(|p| p.to_string()).collect();
                    let record: Vec<String> = record.iter().map(|p| p.to_string()).collect();
                    eprintln!(
                        "game {:>3}: opening {:<20} A {} -> {}  {}",
                        j + 1,
                        line.join(" "),
                        if a_black { "black" } else { "white" },
                        r,
                        record.join(" ")
                    );
                    results.lock().unwrap()[j] = Some(r);
                }
            });
        }
    });
    let scores: Vec<f64> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    let n = scores.len() as f64;
    let (w, d, l) = scores.iter().fold((0, 0, 0), |(w, d, l), &x| {
        if x == 1.0 {
            (w + 1, d, l)
        } else if x == 0.5 {
            (w, d + 1, l)
        } else {
            (w, d, l + 1)
        }
    });
    let mean = scores.iter().sum::<f64>() / n;
    let sd = (scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    let se = sd / n.sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "{name_a} vs {name_b}, {rule}, {} games at {}: W {w} D {d} L {l}, score {:.1}% \
         (95%: {:.1}-{:.1}%), Elo {:+.0} ({:+.0} to {:+.0})",
        scores.len(),
        humantime::format_duration(time),
        mean * 100.0,
        (mean - 1.96 * se).max(0.0) * 100.0,
        (mean + 1.96 * se).min(1.0) * 100.0,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se)
    );
}
