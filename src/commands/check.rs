//! `tengen check`: checks the answers of puzzle files (see [`crate::check`] for what each kind
//! must satisfy), in parallel, printing verdicts in file order (the formats are
//! [`crate::report::check`]'s); `--update` fills in missing answers and rewrites each file
//! atomically.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::emit;
use crate::check::{self, CheckOptions, Fill, Report, Status};
use crate::config::Check;
use crate::error::{Error, InputError};
use crate::files::input::Source;
use crate::files::output;
use crate::notation::puzzle::{self, Kind, Meta};
use crate::notation::span::{Loc, Located, Span};
use crate::report::check::{CheckedPuzzle, Printer, Summary};
use crate::setup::{Given, Setup};
use crate::solve::task::Solver;
use crate::solve::tt::MemoryError;
use crate::words::plural;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

/// One puzzle to check, or one that could not be read.
struct Item {
    /// Index of its file in `files`.
    file: usize,
    /// Line of the puzzle's first key (or of the error).
    line: u32,
    /// Column of an error (1 otherwise).
    column: u32,
    id: String,
    kind: Option<Kind>,
    /// The position (made into a board by the worker that checks it) and what the puzzle
    /// says, or why the block could not be read.
    work: Result<(Setup, Meta), String>,
}

/// A puzzle file: its path as shown, and its text (`None` when it could not be read).
struct File {
    path: PathBuf,
    shown: String,
    text: Option<String>,
}

/// The files to check: each path given, and the files under each folder that match `glob`, in
/// name order.
fn files(paths: &[PathBuf], glob: &str) -> Result<Vec<PathBuf>, Error> {
    let matcher = globset::Glob::new(glob)
        .map_err(|e| Error::usage(format!("bad --glob '{glob}': {e}")))?
        .compile_matcher();
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let walk = walkdir::WalkDir::new(path)
                .follow_links(true)
                .sort_by_file_name();
            for entry in walk {
                let entry = entry.map_err(|e| Error::Read {
                    path: e.path().unwrap_or(path).to_path_buf(),
                    source: e
                        .into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("a loop of links")),
                })?;
                if entry.file_type().is_file() && matcher.is_match(entry.file_name()) {
                    out.push(entry.into_path());
                }
            }
        } else if path.exists() {
            out.push(path.clone());
        } else {
            return Err(Error::Read {
                path: path.clone(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
            });
        }
    }
    Ok(out)
}

/// `K/N` with 1 <= K <= N.
fn shard(text: &str) -> Result<(usize, usize), Error> {
    let bad = || {
        Error::usage(format!(
            "bad --shard '{text}': expected K/N with 1 <= K <= N, e.g. 2/4"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Reads every file and splits it into puzzles; a file or puzzle that cannot be read becomes
/// an item in error. A block with neither `kind:` nor `answer:` is a position (for `analyze`),
/// not a puzzle: it is left out and counted (the last value).
fn items(paths: Vec<PathBuf>) -> (Vec<File>, Vec<Item>, usize) {
    let mut files = Vec::new();
    let mut items = Vec::new();
    let mut positions = 0;
    for (f, path) in paths.into_iter().enumerate() {
        let shown = path.to_string_lossy().into_owned();
        let whole_file = |message: String| Item {
            file: f,
            line: 1,
            column: 1,
            id: String::new(),
            kind: None,
            work: Err(message),
        };
        let source = match Source::from_arg(&shown) {
            Ok(s) => s,
            Err(e) => {
                items.push(whole_file(e.to_string()));
                files.push(File {
                    path,
                    shown,
                    text: None,
                });
                continue;
            }
        };
        let before = items.len() + positions;
        for p in puzzle::parse_each(Span::new(&source.text)) {
            let item = match p {
                Ok(p) if p.meta.kind.is_none() && p.meta.answer.is_none() => {
                    positions += 1;
                    continue;
                }
                // A verdict points at the stated answer (else at the block).
                Ok(p) => Item {
                    file: f,
                    line: p
                        .meta
                        .answer
                        .as_ref()
                        .map_or(p.meta.loc.line, |a| a.loc.line),
                    column: p.meta.answer.as_ref().map_or(1, |a| a.loc.column),
                    id: p.meta.id.clone(),
                    kind: p.meta.kind,
                    work: Ok((p.setup, p.meta)),
                },
                Err(failed) => {
                    let at = failed.error.loc();
                    Item {
                        file: f,
                        line: at.line,
                        column: at.column,
                        id: failed.id.unwrap_or_default(),
                        kind: None,
                        work: Err(failed.error.to_string()),
                    }
                }
            };
            items.push(item);
        }
        if items.len() + positions == before {
            items.push(whole_file("no puzzles found".into()));
        }
        files.push(File {
            path,
            shown,
            text: Some(source.text),
        });
    }
    (files, items, positions)
}

/// The verdict of an item in error.
fn error_report(message: &str) -> Report {
    Report {
        status: Status::Error,
        expected: String::new(),
        found: String::new(),
        line: Vec::new(),
        message: message.to_string(),
        nodes: 0,
        elapsed: Duration::ZERO,
        fill: Fill::default(),
    }
}

/// Whether a verdict fails the run.
fn failing(status: Status, allow_unknown: bool) -> bool {
    match status {
        Status::Pass => false,
        Status::Unknown => !allow_unknown,
        Status::Fail | Status::Error => true,
    }
}

/// What the run exits with: 2 after an error, 1 after a failing verdict, else 0.
fn exit_code(summary: &Summary, reports: &[Option<Report>], allow_unknown: bool) -> u8 {
    let failed = reports
        .iter()
        .flatten()
        .any(|r| failing(r.status, allow_unknown));
    if summary.error > 0 {
        2
    } else if failed {
        1
    } else {
        0
    }
}

/// Runs `tengen check`: finds the puzzles, checks them, prints the verdicts and the summary,
/// and with `--update` fills the files in; returns the exit code.
pub fn run(args: Check, out: &mut dyn Write) -> Result<u8, Error> {
    let start = Instant::now();
    let shard = args.shard.as_deref().map(shard).transpose()?;
    let (files, items, positions) = items(files(&args.paths, &args.glob)?);
    // Nothing to check is a mistake (a typo in a path or a glob), not a pass.
    if items.is_empty() {
        return Err(nothing_to_check(&args, &files, positions));
    }
    let items = select(items, &args.skip_tags, shard);
    let paths: Vec<&str> = files.iter().map(|f| f.shown.as_str()).collect();
    let mut printer = Printer::new(args.format, args.style, args.allow_unknown, &paths);
    let mut summary = Summary {
        files: files.len(),
        positions_skipped: positions,
        ..Summary::default()
    };
    let reports = check_in_order(&args, &files, &items, &mut printer, &mut summary, out)?;
    summary.puzzles = items.len();
    if args.update {
        summary.updated_files = update(&files, &items, &reports)?;
    }
    summary.exit_code = exit_code(&summary, &reports, args.allow_unknown);
    summary.elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    emit(out, &printer.summary(&summary))?;
    Ok(summary.exit_code)
}

/// The usage error of a run that found no puzzle, saying what it found instead.
fn nothing_to_check(args: &Check, files: &[File], positions: usize) -> Error {
    let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
    let found = if files.is_empty() {
        format!("no file matches --glob '{}'", args.glob)
    } else if positions > 0 {
        format!(
            "{} without `kind:` or `answer:` (positions, not puzzles)",
            plural(positions, "block", "blocks")
        )
    } else {
        "no puzzle".to_string()
    };
    Error::usage(format!(
        "no puzzle to check in {}: {found}",
        paths.join(", ")
    ))
}

/// The items this run checks: those without a skipped tag (an item in error is always
/// kept), then every N-th of them from the K-th when sharded.
fn select(mut items: Vec<Item>, skip_tags: &[String], shard: Option<(usize, usize)>) -> Vec<Item> {
    items.retain(|it| match &it.work {
        Ok((_, meta)) => !meta.tags.iter().any(|t| skip_tags.contains(t)),
        Err(_) => true,
    });
    if let Some((k, n)) = shard {
        items = items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, it)| it)
            .collect();
    }
    items
}

/// A progress bar on standard error over `len` puzzles, or a hidden one.
fn progress_bar(shown: bool, len: usize) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Checks the items on `args.jobs` threads and prints each verdict as soon as it and every
/// one before it are in, so the output is in file order however the threads finish. Returns
/// the reports in item order.
fn check_in_order(
    args: &Check,
    files: &[File],
    items: &[Item],
    printer: &mut Printer,
    summary: &mut Summary,
    out: &mut dyn Write,
) -> Result<Vec<Option<Report>>, Error> {
    let bar = progress_bar(args.progress, items.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.max(1))
        .build()
        .map_err(|e| {
            let jobs = plural(args.jobs, "job", "jobs");
            Error::usage(format!("cannot start {jobs}: {e}"))
        })?;
    let (options, hash_mb) = (args.options, args.hash_mb);
    let (tx, rx) = mpsc::channel::<(usize, Report, Option<Loc>)>();
    let mut reports: Vec<Option<Report>> = Vec::new();
    reports.resize_with(items.len(), || None);
    let written: Result<(), Error> = std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                items.par_iter().enumerate().for_each_init(
                    || Solver::new(hash_mb),
                    |solver, (i, item)| {
                        let (report, at) = check_item(item, solver, &options);
                        // The receiver only stops listening when the output failed.
                        let _ = tx.send((i, report, at));
                    },
                );
            });
            drop(tx);
        });
        let mut next = 0;
        let mut pending: BTreeMap<usize, (Report, Option<Loc>)> = BTreeMap::new();
        for (i, report, at) in rx {
            pending.insert(i, (report, at));
            bar.inc(1);
            while let Some((r, at)) = pending.remove(&next) {
                let item = &items[next];
                if !item.id.is_empty() {
                    bar.set_message(item.id.clone());
                }
                let text = printer.verdict(&checked(files, item, &r, at));
                if !text.is_empty() {
                    bar.suspend(|| emit(out, &text))?;
                }
                summary.add(&r);
                reports[next] = Some(r);
                next += 1;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    written?;
    Ok(reports)
}

/// One item's verdict, and where its position error is when the board could not be set up.
fn check_item(
    item: &Item,
    solver: &mut Result<Solver, MemoryError>,
    options: &CheckOptions,
) -> (Report, Option<Loc>) {
    match (&item.work, solver) {
        (Err(m), _) => (error_report(m), None),
        (Ok(_), Err(e)) => (error_report(&format!("{e}: try a smaller --hash-mb")), None),
        (Ok((setup, meta)), Ok(solver)) => match setup.clone().into_board(Given::default()) {
            Ok(board) => (check::check(&board, meta, solver, options), None),
            Err(e) => {
                let at = e.loc();
                (error_report(&InputError::from(e).to_string()), Some(at))
            }
        },
    }
}

/// An item and its verdict as the printers take them: pointing at the position error when
/// there is one, with the board of a failure for its diagram.
fn checked<'a>(
    files: &'a [File],
    item: &'a Item,
    report: &'a Report,
    at: Option<Loc>,
) -> CheckedPuzzle<'a> {
    let (line, column) = at.map_or((item.line, item.column), |l| (l.line, l.column));
    let board = match (&item.work, report.status) {
        (Ok((setup, _)), Status::Fail) => setup.clone().into_board(Given::default()).ok(),
        _ => None,
    };
    CheckedPuzzle {
        file: item.file,
        path: &files[item.file].shown,
        line,
        column,
        id: &item.id,
        kind: item.kind,
        report,
        board,
    }
}

/// `--update`: writes the fills of passing puzzles into their files; returns how many files
/// changed.
fn update(files: &[File], items: &[Item], reports: &[Option<Report>]) -> Result<usize, Error> {
    let mut changed = 0;
    for (f, file) in files.iter().enumerate() {
        let Some(text) = &file.text else { continue };
        let mut fills: Vec<(u32, &Meta, &Fill)> = Vec::new();
        for (item, report) in items.iter().zip(reports) {
            if item.file != f {
                continue;
            }
            if let (Ok((_, meta)), Some(r)) = (&item.work, report)
                && r.status == Status::Pass
                && (r.fill.answer.is_some() || r.fill.limit.is_some())
            {
                fills.push((meta.loc.line, meta, &r.fill));
            }
        }
        if fills.is_empty() {
            continue;
        }
        let new = fill_text(text, &fills);
        if new != *text {
            output::write(&file.path, &new, true)?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// Inserts the fills into the text: `answer:` before the block's `kind:` line (else at the
/// block's end), `limit:` after `kind:` (else after the answer). Every other byte is kept.
fn fill_text(text: &str, fills: &[(u32, &Meta, &Fill)]) -> String {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Insertions before line index i (0-based), in order.
    let mut before: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for &(start, meta, fill) in fills {
        let first = start.saturating_sub(1) as usize;
        let mut end = first;
        while end < lines.len() && !lines[end].trim().is_empty() {
            end += 1;
        }
        let kind = (first..end).find(|&i| lines[i].trim_start().starts_with("kind:"));
        let mut at_answer = kind.unwrap_or(end);
        let mut at_limit = kind.map_or(end, |k| k + 1);
        if at_limit < at_answer {
            std::mem::swap(&mut at_answer, &mut at_limit);
        }
        if let Some(a) = &fill.answer
            && meta.answer.is_none()
        {
            before
                .entry(at_answer)
                .or_default()
                .push(format!("answer: {a}"));
        }
        if let Some(l) = fill.limit
            && meta.limit.is_none()
        {
            before
                .entry(at_limit)
                .or_default()
                .push(format!("limit: {l}"));
        }
    }
    let mut out = String::with_capacity(text.len() + 256);
    for i in 0..=lines.len() {
        if let Some(adds) = before.get(&i) {
            if i > 0 && !out.ends_with('\n') {
                out.push_str(newline);
            }
            for a in adds {
                out.push_str(a);
                out.push_str(newline);
            }
        }
        if let Some(l) = lines.get(i) {
            out.push_str(l);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_are_checked() {
        assert_eq!(shard("2/4").unwrap(), (2, 4));
        assert!(shard("0/4").is_err());
        assert!(shard("5/4").is_err());
        assert!(shard("x").is_err());
    }
}
