//! `tengen check`: checks the answers of puzzle files (see [`crate::check`] for what each kind
//! must satisfy), in parallel, printing verdicts in file order; `--update` fills in missing
//! answers and rewrites each file atomically.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::emit;
use crate::board::{Board, Point};
use crate::check::{self, Fill, Report, Status};
use crate::cli::CheckFormat;
use crate::config::Check;
use crate::error::{Error, InputError};
use crate::input::Source;
use crate::notation::puzzle::{self, Kind, Meta};
use crate::notation::span::{Loc, Located, Span};
use crate::output;
use crate::report::text::{self, Mark, Style};
use crate::setup::{Given, Setup};
use crate::solve::task::Solver;
use crate::words::plural;

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

/// One puzzle's line of JSON (`data` of a `{"type": "puzzle"}` record).
#[derive(Serialize)]
struct PuzzleDoc<'a> {
    file: &'a str,
    line: u32,
    /// The column of an error (1 otherwise).
    column: u32,
    id: &'a str,
    kind: Option<Kind>,
    verdict: &'static str,
    expected: &'a str,
    found: &'a str,
    line_found: Vec<String>,
    message: &'a str,
    nodes: u64,
    elapsed_ms: f64,
}

/// The summary's JSON (`data` of the `{"type": "summary"}` record).
#[derive(Serialize, Default)]
struct SummaryDoc {
    puzzles: usize,
    pass: usize,
    fail: usize,
    unknown: usize,
    error: usize,
    files: usize,
    /// Blocks without `kind:` or `answer:`: positions, not puzzles.
    positions_skipped: usize,
    updated_files: usize,
    nodes: u64,
    elapsed_ms: f64,
    exit_code: u8,
}

/// Whether a verdict fails the run.
fn failing(status: Status, allow_unknown: bool) -> bool {
    match status {
        Status::Pass => false,
        Status::Unknown => !allow_unknown,
        Status::Fail | Status::Error => true,
    }
}

/// Escapes text for XML attributes and content; characters XML cannot hold become `?`.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a GitHub workflow command's message (`%`, CR, LF) or property (also `:` and `,`).
fn gh(text: &str, property: bool) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// The diagram of a failure: the position with the refuting line numbered.
fn diagram(board: &Board, line: &[Point], style: Style) -> String {
    let first = board.to_move();
    let marks: Vec<(Point, Mark)> = line
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let c = if k % 2 == 0 { first } else { first.opponent() };
            (p, Mark::Numbered(k + 1, c))
        })
        .collect();
    text::board(board, &marks, style)
}

struct Printer<'a> {
    format: CheckFormat,
    style: Style,
    allow_unknown: bool,
    files: &'a [File],
    /// JUnit: every testcase, by file, written at the end.
    junit: Vec<Vec<String>>,
    junit_counts: Vec<(usize, usize, usize, usize, f64)>,
}

impl Printer<'_> {
    fn word(&self, status: Status) -> String {
        let w = status.name().to_uppercase();
        let w = format!("{w:<7}");
        if !self.style.color {
            return w;
        }
        let code = match status {
            Status::Pass => "32",
            Status::Unknown => "33",
            Status::Fail => "31",
            Status::Error => "1;31",
        };
        format!("\x1b[{code}m{w}\x1b[0m")
    }

    /// One verdict; `at` is where a position error is, when the worker found one.
    fn puzzle(&mut self, item: &Item, r: &Report, at: Option<Loc>) -> String {
        let (line, column) = at.map_or((item.line, item.column), |l| (l.line, l.column));
        let board = match (&item.work, r.status) {
            (Ok((setup, _)), Status::Fail) => setup.clone().into_board(Given::default()).ok(),
            _ => None,
        };
        let file = &self.files[item.file].shown;
        let id = if item.id.is_empty() { "-" } else { &item.id };
        let ms = r.elapsed.as_secs_f64() * 1000.0;
        match self.format {
            CheckFormat::Text => {
                let kind = item.kind.map_or("-".to_string(), |k| k.to_string());
                let at = match r.status {
                    Status::Error => format!("{line}:{column}"),
                    _ => line.to_string(),
                };
                let mut s = format!(
                    "{} {file}:{at}  {id}  {kind}  {}",
                    self.word(r.status),
                    match r.status {
                        Status::Pass => r.found.clone(),
                        _ => r.message.clone(),
                    }
                );
                if r.status != Status::Error {
                    s.push_str(&format!(
                        "  ({}, {ms:.0} ms)",
                        plural(r.nodes, "node", "nodes")
                    ));
                }
                s.push('\n');
                if r.status == Status::Fail {
                    s.push_str(&format!(
                        "    expected: {}\n    found:    {}\n",
                        r.expected, r.found
                    ));
                    if let Some(board) = &board {
                        if !r.line.is_empty() {
                            s.push_str(&format!("    line:     {}\n", check::moves(&r.line)));
                        }
                        for l in diagram(board, &r.line, self.style).lines() {
                            s.push_str("    ");
                            s.push_str(l);
                            s.push('\n');
                        }
                    }
                }
                s
            }
            CheckFormat::Json => {
                let doc = PuzzleDoc {
                    file,
                    line,
                    column,
                    id: &item.id,
                    kind: item.kind,
                    verdict: r.status.name(),
                    expected: &r.expected,
                    found: &r.found,
                    line_found: r.line.iter().map(|p| p.to_string()).collect(),
                    message: &r.message,
                    nodes: r.nodes,
                    elapsed_ms: ms,
                };
                serde_json::json!({"type": "puzzle", "data": doc}).to_string() + "\n"
            }
            CheckFormat::Github => {
                let level = match r.status {
                    Status::Pass => return String::new(),
                    Status::Unknown if self.allow_unknown => "warning",
                    _ => "error",
                };
                let title = format!("{} {id}", r.status.name());
                let mut msg = r.message.clone();
                if r.status == Status::Fail {
                    msg.push_str(&format!("\nexpected: {}\nfound: {}", r.expected, r.found));
                    if !r.line.is_empty() {
                        msg.push_str(&format!("\nline: {}", check::moves(&r.line)));
                    }
                }
                format!(
                    "::{level} file={},line={},col={},title={}::{}\n",
                    gh(file, true),
                    line,
                    column,
                    gh(&title, true),
                    gh(&msg, false)
                )
            }
            CheckFormat::Junit => {
                let secs = r.elapsed.as_secs_f64();
                let counts = &mut self.junit_counts[item.file];
                counts.0 += 1;
                counts.4 += secs;
                let mut case = format!(
                    "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\" time=\"{secs:.3}\"",
                    xml(id),
                    xml(file),
                    xml(file),
                    line
                );
                let body = |r: &Report| {
                    let mut b = format!("{file}:{line}: {}\n", r.message);
                    if r.status == Status::Fail {
                        b.push_str(&format!("expected: {}\nfound: {}\n", r.expected, r.found));
                        if let Some(board) = &board {
                            if !r.line.is_empty() {
                                b.push_str(&format!("line: {}\n", check::moves(&r.line)));
                            }
                            b.push_str(&diagram(board, &r.line, Style::default()));
                        }
                    }
                    b
                };
                match r.status {
                    Status::Pass => case.push_str("/>\n"),
                    Status::Unknown if self.allow_unknown => {
                        counts.3 += 1;
                        case.push_str(&format!(
                            ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                            xml(&r.message)
                        ));
                    }
                    Status::Error => {
                        counts.2 += 1;
                        case.push_str(&format!(
                            ">\n      <error message=\"{}\">{}</error>\n    </testcase>\n",
                            xml(&r.message),
                            xml(&body(r))
                        ));
                    }
                    _ => {
                        counts.1 += 1;
                        case.push_str(&format!(
                            ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                            xml(&r.message),
                            xml(&body(r))
                        ));
                    }
                }
                self.junit[item.file].push(case);
                String::new()
            }
        }
    }

    fn summary(&self, s: &SummaryDoc) -> String {
        match self.format {
            CheckFormat::Json => {
                serde_json::json!({"type": "summary", "data": s}).to_string() + "\n"
            }
            CheckFormat::Junit => {
                let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
                out.push_str(&format!(
                    "<testsuites name=\"tengen check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">\n",
                    s.puzzles,
                    s.fail + if self.allow_unknown { 0 } else { s.unknown },
                    s.error,
                    if self.allow_unknown { s.unknown } else { 0 },
                    s.elapsed_ms / 1000.0
                ));
                for (f, cases) in self.junit.iter().enumerate() {
                    let (tests, failures, errors, skipped, time) = self.junit_counts[f];
                    out.push_str(&format!(
                        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time:.3}\">\n",
                        xml(&self.files[f].shown)
                    ));
                    for c in cases {
                        out.push_str(c);
                    }
                    out.push_str("  </testsuite>\n");
                }
                out.push_str("</testsuites>\n");
                out
            }
            CheckFormat::Text | CheckFormat::Github => {
                let mut line = format!(
                    "{}: {} passed, {} failed, {} unknown, {}",
                    plural(s.puzzles, "puzzle", "puzzles"),
                    s.pass,
                    s.fail,
                    s.unknown,
                    plural(s.error, "error", "errors"),
                );
                if s.positions_skipped > 0 {
                    line.push_str(&format!(
                        "; {} without kind or answer skipped",
                        plural(s.positions_skipped, "position", "positions")
                    ));
                }
                if s.updated_files > 0 {
                    line.push_str(&format!(
                        "; {} updated",
                        plural(s.updated_files, "file", "files")
                    ));
                }
                line.push_str(&format!(
                    " ({}, {:.1} s)\n",
                    plural(s.nodes, "node", "nodes"),
                    s.elapsed_ms / 1000.0
                ));
                line
            }
        }
    }
}

pub fn run(args: Check, out: &mut dyn Write) -> Result<u8, Error> {
    let start = Instant::now();
    let shard = args.shard.as_deref().map(shard).transpose()?;
    let (files, mut items, positions) = items(files(&args.paths, &args.glob)?);
    // Nothing to check is a mistake (a typo in a path or a glob), not a pass.
    if items.is_empty() {
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
        return Err(Error::usage(format!(
            "no puzzle to check in {}: {found}",
            paths.join(", ")
        )));
    }
    items.retain(|it| match &it.work {
        Ok((_, meta)) => !meta.tags.iter().any(|t| args.skip_tags.contains(t)),
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
    let bar = if args.progress {
        let bar =
            ProgressBar::with_draw_target(Some(items.len() as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut printer = Printer {
        format: args.format,
        style: args.style,
        allow_unknown: args.allow_unknown,
        files: &files,
        junit: vec![Vec::new(); files.len()],
        junit_counts: vec![(0, 0, 0, 0, 0.0); files.len()],
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.max(1))
        .build()
        .map_err(|e| {
            let jobs = plural(args.jobs, "job", "jobs");
            Error::usage(format!("cannot start {jobs}: {e}"))
        })?;
    let options = args.options;
    let hash_mb = args.hash_mb;
    let (tx, rx) = mpsc::channel::<(usize, Report, Option<Loc>)>();
    let mut reports: Vec<Option<Report>> = Vec::new();
    reports.resize_with(items.len(), || None);
    let mut summary = SummaryDoc {
        files: files.len(),
        positions_skipped: positions,
        ..SummaryDoc::default()
    };
    let mut printed = Vec::new();
    let write_result: Result<(), Error> = std::thread::scope(|scope| {
        let items = &items;
        scope.spawn(move || {
            pool.install(|| {
                items.par_iter().enumerate().for_each_init(
                    || Solver::new(hash_mb),
                    |solver, (i, item)| {
                        let (report, at) = match (&item.work, solver) {
                            (Err(m), _) => (error_report(m), None),
                            (Ok(_), Err(e)) => {
                                (error_report(&format!("{e}: try a smaller --hash-mb")), None)
                            }
                            (Ok((setup, meta)), Ok(solver)) => {
                                match setup.clone().into_board(Given::default()) {
                                    Ok(board) => {
                                        (check::check(&board, meta, solver, &options), None)
                                    }
                                    Err(e) => {
                                        let at = e.loc();
                                        (error_report(&InputError::from(e).to_string()), Some(at))
                                    }
                                }
                            }
                        };
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
                let text = printer.puzzle(item, &r, at);
                if !text.is_empty() {
                    bar.suspend(|| emit(out, &text))?;
                }
                match r.status {
                    Status::Pass => summary.pass += 1,
                    Status::Fail => summary.fail += 1,
                    Status::Unknown => summary.unknown += 1,
                    Status::Error => summary.error += 1,
                }
                summary.nodes += r.nodes;
                printed.push(next);
                reports[next] = Some(r);
                next += 1;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    write_result?;
    summary.puzzles = items.len();
    if args.update {
        summary.updated_files = update(&files, &items, &reports)?;
    }
    let failed = reports
        .iter()
        .flatten()
        .any(|r| failing(r.status, args.allow_unknown));
    let code = if summary.error > 0 {
        2
    } else if failed {
        1
    } else {
        0
    };
    summary.exit_code = code;
    summary.elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    emit(out, &printer.summary(&summary))?;
    Ok(code)
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

    #[test]
    fn escapes() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(gh("50%\nx", false), "50%25%0Ax");
        assert_eq!(gh("a:b,c", true), "a%3Ab%2Cc");
    }
}
