//! `tengen bench`: runs the solvers over the VCF and VCT cases of puzzle files and reports, per
//! case, the result against the puzzle's answer, attacker moves, nodes and time. Fast VCF cases
//! are repeated until they have run for a while, and the mean time is reported.

use std::io::Write;
use std::time::{Duration, Instant};

use super::emit;
use super::spinner::Spinner;
use crate::analyze;
use crate::check::cases::{self, Case, case};
use crate::config::Bench;
use crate::error::Error;
use crate::files::input::{self, Source};
use crate::report::json;
use crate::setup::Given;
use crate::solve::task::{Solver, Task};

pub fn run(args: Bench, out: &mut dyn Write) -> Result<u8, Error> {
    if let Some(depth) = args.cases.analyze {
        return analyze(&args, depth, out);
    }
    let mut failures = 0;
    let (mut total_ms, mut total_nodes, mut cases) = (0.0, 0u64, 0);
    if !args.json {
        emit(
            out,
            &format!(
                "{:<46} {:>4} {:>8} {:>8} {:>5} {:>10} {:>12}\n",
                "case", "mode", "expected", "result", "moves", "nodes", "time"
            ),
        )?;
    }
    // One solver for every case: its tables are allocated once and forgotten between cases.
    let mut solver = Solver::new(args.search.hash_mb)?;
    let spinner = Spinner::start(args.progress);
    for file in &args.files {
        let source = Source::from_arg(&file.to_string_lossy())?;
        for loaded in input::load_all(&source, Given::default()) {
            let loaded = loaded?;
            let Some((kind, expected)) = case(&loaded) else {
                continue;
            };
            let meta = loaded.meta.as_ref().expect("puzzles have metadata");
            let wanted = match kind {
                Case::Vcf => args.cases.vcf,
                Case::Vct => args.cases.vct,
            };
            if !wanted
                || args
                    .filter
                    .as_ref()
                    .is_some_and(|f| !meta.id.contains(f.as_str()))
                || meta.tags.iter().any(|t| args.skip_tags.contains(t))
            {
                continue;
            }
            spinner.label(&meta.id);
            let board = &loaded.board;
            let mut task = Task::resolve(
                kind.mode(),
                board.to_move(),
                args.search.given,
                cases::stated(Some(meta)),
            );
            task.shortest = args.search.shortest;
            task.verify = args.verify;
            let verdict = solver.run(board, &task)?;
            let mut doc = json::Solve::of(&verdict, Some(&meta.id), board.rule(), false);
            if kind == Case::Vcf {
                // Repeat fast cases for a steadier mean: up to 100 runs within 20 ms, so that
                // a file of many trivial cases still runs thousands of cases a second. The mean
                // is of the searches alone, as the first run's time is: a win's check is timed
                // apart (`verify_ms`).
                let (mut runs, mut spent) = (1u32, verdict.elapsed);
                let start = Instant::now();
                while verdict.elapsed + start.elapsed() < Duration::from_millis(20) && runs < 100 {
                    spent += solver.run(board, &Task { ..task })?.elapsed;
                    runs += 1;
                }
                doc.elapsed_ms = spent.as_secs_f64() * 1000.0 / runs as f64;
            }
            let ok = doc.result == expected && doc.attacker_moves as u32 <= task.limits.depth;
            failures += usize::from(!ok);
            total_ms += doc.elapsed_ms;
            total_nodes += doc.nodes;
            cases += 1;
            let report = if args.json {
                serde_json::to_string(&doc).expect("plain data serializes") + "\n"
            } else {
                format!(
                    "{:<46} {:>4} {:>8} {:>8} {:>5} {:>10} {:>9.3} ms{}\n",
                    meta.id,
                    doc.mode.to_string(),
                    expected.to_string(),
                    doc.result.to_string(),
                    doc.attacker_moves,
                    doc.nodes,
                    doc.elapsed_ms,
                    if ok { "" } else { "  MISMATCH" }
                )
            };
            spinner.suspend(|| emit(out, &report))?;
        }
    }
    spinner.finish();
    if !args.json {
        emit(
            out,
            &format!(
                "{}, {}, {}, {total_ms:.3} ms in all\n",
                crate::words::plural(cases, "case", "cases"),
                crate::words::plural(failures, "mismatch", "mismatches"),
                crate::words::plural(total_nodes, "node", "nodes"),
            ),
        )?;
    }
    Ok(if failures > 0 { 1 } else { 0 })
}

/// The analyzer on every position of the files, to `depth`: nodes, time, nodes per second,
/// and the time each iteration completed at.
fn analyze(args: &Bench, depth: u32, out: &mut dyn Write) -> Result<u8, Error> {
    let settings = analyze::Settings {
        depth: Some(depth),
        hash_mb: args.search.hash_mb,
        ..analyze::Settings::default()
    };
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    if !args.json {
        emit(
            out,
            &format!(
                "{:<32} {:>5} {:>10} {:>9} {:>10}  ms to depth 1..{depth}\n",
                "position", "depth", "nodes", "ms", "nodes/s"
            ),
        )?;
    }
    for file in &args.files {
        let source = Source::from_arg(&file.to_string_lossy())?;
        for loaded in input::load_all(&source, Given::default()) {
            let loaded = loaded?;
            let id = loaded.meta.as_ref().map_or("-", |m| m.id.as_str());
            if args
                .filter
                .as_ref()
                .is_some_and(|f| !id.contains(f.as_str()))
            {
                continue;
            }
            let mut times = Vec::new();
            let a = analyze::analyze(&loaded.board, &settings, |p| {
                times.push(p.elapsed.as_secs_f64() * 1000.0)
            })?;
            let s = a.search_time.as_secs_f64();
            nodes += a.nodes;
            secs += s;
            let nps = a.nodes as f64 / s.max(1e-9);
            let line = if args.json {
                serde_json::json!({
                    "id": id, "depth": a.depth, "nodes": a.nodes, "vcf_nodes": a.vcf_nodes,
                    "search_ms": s * 1000.0, "nps": nps as u64, "ms_to_depth": times,
                })
                .to_string()
                    + "\n"
            } else {
                let t: Vec<String> = times.iter().map(|t| format!("{t:.0}")).collect();
                format!(
                    "{id:<32} {:>5} {:>10} {:>9.0} {:>10.0}  {}\n",
                    a.depth,
                    a.nodes,
                    s * 1000.0,
                    nps,
                    t.join(" ")
                )
            };
            emit(out, &line)?;
        }
    }
    if !args.json {
        emit(
            out,
            &format!(
                "{} in {:.0} ms of search: {:.0} nodes/s\n",
                crate::words::plural(nodes, "node", "nodes"),
                secs * 1000.0,
                nodes as f64 / secs.max(1e-9)
            ),
        )?;
    }
    Ok(0)
}
