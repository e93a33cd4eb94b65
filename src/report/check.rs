//! What `tengen check` prints, in the four formats of `--format`: a line a verdict (and a
//! diagram under each failure) for people, JSON Lines for programs, JUnit XML for test
//! dashboards, and GitHub workflow commands that annotate the puzzle's line.
//!
//! Verdicts come in file order, one at a time: text, JSON and GitHub print each at once;
//! JUnit nests the cases in a suite a file, so it keeps them and writes the whole document
//! with the summary.

use std::time::Duration;

use colored::{Color as Ink, Styles};
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde::Serialize;

use crate::board::{Board, Point};
use crate::check::{self, Report, Status};
use crate::cli::CheckFormat;
use crate::notation::puzzle::Kind;
use crate::report::text::{self, Mark, Style};
use crate::words::plural;

/// One checked puzzle, as the printers see it.
pub struct CheckedPuzzle<'a> {
    /// Index of its file, in the order the files were given to [`Printer::new`].
    pub file: usize,
    /// Its file's path as shown.
    pub path: &'a str,
    /// The line a verdict points at: the stated answer's, the block's, or an error's.
    pub line: u32,
    /// The column of an error (1 otherwise).
    pub column: u32,
    /// Its `id:`, empty when it has none.
    pub id: &'a str,
    /// Its `kind:`, when it has a readable one.
    pub kind: Option<Kind>,
    /// The verdict and what it rests on.
    pub report: &'a Report,
    /// The position, for a failure's diagram (`None` for other verdicts).
    pub board: Option<Board>,
}

impl CheckedPuzzle<'_> {
    /// The id, or `-` for a puzzle without one.
    fn shown_id(&self) -> &str {
        if self.id.is_empty() { "-" } else { self.id }
    }
}

/// The counts of a whole run (`data` of the `{"type": "summary"}` record).
#[derive(Serialize, Default)]
pub struct Summary {
    /// Puzzles checked (after `--skip-tag` and `--shard`).
    pub puzzles: usize,
    /// Verdicts `pass`.
    pub pass: usize,
    /// Verdicts `fail`.
    pub fail: usize,
    /// Verdicts `unknown`.
    pub unknown: usize,
    /// Verdicts `error`.
    pub error: usize,
    /// Files read.
    pub files: usize,
    /// Blocks without `kind:` or `answer:`: positions, not puzzles.
    pub positions_skipped: usize,
    /// Files `--update` rewrote.
    pub updated_files: usize,
    /// Positions searched, over all puzzles.
    pub nodes: u64,
    /// Wall time of the whole run.
    pub elapsed_ms: f64,
    /// What the run exits with.
    pub exit_code: u8,
}

impl Summary {
    /// Counts one verdict.
    pub fn add(&mut self, r: &Report) {
        match r.status {
            Status::Pass => self.pass += 1,
            Status::Fail => self.fail += 1,
            Status::Unknown => self.unknown += 1,
            Status::Error => self.error += 1,
        }
        self.nodes += r.nodes;
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

/// Prints the verdicts of a run in one format.
pub struct Printer {
    format: CheckFormat,
    style: Style,
    /// An unknown passes (a warning, a skipped test) instead of failing.
    allow_unknown: bool,
    /// JUnit: a suite a file, filled as the verdicts come.
    suites: Vec<TestSuite>,
}

impl Printer {
    /// A printer for a run over `paths` (the files as shown, in order).
    pub fn new(format: CheckFormat, style: Style, allow_unknown: bool, paths: &[&str]) -> Self {
        let suites = match format {
            CheckFormat::Junit => paths
                .iter()
                .map(|&p| TestSuite::new(junit_text(p)))
                .collect(),
            _ => Vec::new(),
        };
        Printer {
            format,
            style,
            allow_unknown,
            suites,
        }
    }

    /// What to print for one verdict now (empty when nothing is: a pass in GitHub's format,
    /// any verdict in JUnit's).
    pub fn verdict(&mut self, p: &CheckedPuzzle) -> String {
        match self.format {
            CheckFormat::Text => self.text_verdict(p),
            CheckFormat::Json => json_verdict(p),
            CheckFormat::Github => self.github_annotation(p),
            CheckFormat::Junit => {
                let case = self.junit_case(p);
                self.suites[p.file].add_test_case(case);
                String::new()
            }
        }
    }

    /// What to print at the end: the summary (for JUnit, the whole document).
    pub fn summary(self, s: &Summary) -> String {
        match self.format {
            CheckFormat::Json => {
                serde_json::json!({"type": "summary", "data": s}).to_string() + "\n"
            }
            CheckFormat::Junit => junit_document(self.suites, s),
            CheckFormat::Text | CheckFormat::Github => summary_line(s),
        }
    }

    /// `PASS    file:line  id  kind  what was found  (nodes, time)`, and for a failure what
    /// was expected and found, the refuting line, and the position with the line numbered.
    fn text_verdict(&self, p: &CheckedPuzzle) -> String {
        let r = p.report;
        let kind = p.kind.map_or("-".to_string(), |k| k.to_string());
        let at = match r.status {
            Status::Error => format!("{}:{}", p.line, p.column),
            _ => p.line.to_string(),
        };
        let what = match r.status {
            Status::Pass => &r.found,
            _ => &r.message,
        };
        let mut s = format!(
            "{} {}:{at}  {}  {kind}  {what}",
            status_word(r.status, self.style),
            p.path,
            p.shown_id()
        );
        if r.status != Status::Error {
            let ms = r.elapsed.as_secs_f64() * 1000.0;
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
            if let Some(board) = &p.board {
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

    /// A failure (or error, or unknown) as a workflow command on its line: a warning for an
    /// allowed unknown, an error otherwise; nothing for a pass.
    fn github_annotation(&self, p: &CheckedPuzzle) -> String {
        let r = p.report;
        let level = match r.status {
            Status::Pass => return String::new(),
            Status::Unknown if self.allow_unknown => "warning",
            _ => "error",
        };
        let title = format!("{} {}", r.status.name(), p.shown_id());
        let mut message = r.message.clone();
        if r.status == Status::Fail {
            message.push_str(&format!("\nexpected: {}\nfound: {}", r.expected, r.found));
            if !r.line.is_empty() {
                message.push_str(&format!("\nline: {}", check::moves(&r.line)));
            }
        }
        format!(
            "::{level} file={},line={},col={},title={}::{}\n",
            github_escape(p.path, true),
            p.line,
            p.column,
            github_escape(&title, true),
            github_escape(&message, false)
        )
    }

    /// A verdict as a JUnit test case: a pass plain, an allowed unknown skipped, an error an
    /// error, and a failure (or an unknown not allowed) a failure that tells why.
    fn junit_case(&self, p: &CheckedPuzzle) -> TestCase {
        let r = p.report;
        let status = match r.status {
            Status::Pass => TestCaseStatus::success(),
            Status::Unknown if self.allow_unknown => {
                let mut skipped = TestCaseStatus::skipped();
                skipped.set_message(junit_text(&r.message));
                skipped
            }
            Status::Error => failure(NonSuccessKind::Error, p),
            _ => failure(NonSuccessKind::Failure, p),
        };
        let path = junit_text(p.path);
        let mut case = TestCase::new(junit_text(p.shown_id()), status);
        case.set_classname(path.as_str());
        case.set_time(r.elapsed);
        case.extra.insert("file".into(), path.into());
        case.extra.insert("line".into(), p.line.to_string().into());
        case
    }
}

/// A JUnit failure or error: the message, and a body with where, what was expected and
/// found, the refuting line and the diagram (uncoloured).
fn failure(kind: NonSuccessKind, p: &CheckedPuzzle) -> TestCaseStatus {
    let r = p.report;
    let mut body = format!("{}:{}: {}\n", p.path, p.line, r.message);
    if r.status == Status::Fail {
        body.push_str(&format!("expected: {}\nfound: {}\n", r.expected, r.found));
        if let Some(board) = &p.board {
            if !r.line.is_empty() {
                body.push_str(&format!("line: {}\n", check::moves(&r.line)));
            }
            body.push_str(&diagram(board, &r.line, Style::default()));
        }
    }
    let mut status = TestCaseStatus::non_success(kind);
    status.set_message(junit_text(&r.message));
    status.set_description(junit_text(&body));
    status
}

/// Text for the JUnit document. XML cannot hold most control characters, and quick-junit
/// would silently drop them (with whole ANSI sequences): a tab or CR becomes a space (as an
/// XML reader sees them in an attribute), any other a `?`, so that no character vanishes.
fn junit_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\r' => ' ',
            '\n' => c,
            c if c.is_ascii_control() => '?',
            c => c,
        })
        .collect()
}

/// The JUnit document: the run's counts and time over a suite a file (each suite's time the
/// sum of its cases').
fn junit_document(mut suites: Vec<TestSuite>, s: &Summary) -> String {
    for suite in &mut suites {
        let time: Duration = suite.test_cases.iter().filter_map(|c| c.time).sum();
        suite.set_time(time);
    }
    let mut report = quick_junit::Report::new("tengen check");
    report.set_time(Duration::from_secs_f64(s.elapsed_ms / 1000.0));
    report.add_test_suites(suites);
    // Serializing fails only when its writer does, and this one writes into memory.
    report
        .to_string()
        .expect("a JUnit report serializes into memory")
}

/// The closing line of text and GitHub output: the counts, the skipped positions, the files
/// updated, the nodes and the time.
fn summary_line(s: &Summary) -> String {
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

/// One verdict as a `{"type": "puzzle"}` JSON line.
fn json_verdict(p: &CheckedPuzzle) -> String {
    let r = p.report;
    let doc = PuzzleDoc {
        file: p.path,
        line: p.line,
        column: p.column,
        id: p.id,
        kind: p.kind,
        verdict: r.status.name(),
        expected: &r.expected,
        found: &r.found,
        line_found: r.line.iter().map(|p| p.to_string()).collect(),
        message: &r.message,
        nodes: r.nodes,
        elapsed_ms: r.elapsed.as_secs_f64() * 1000.0,
    };
    serde_json::json!({"type": "puzzle", "data": doc}).to_string() + "\n"
}

/// `PASS`, `UNKNOWN`, `FAIL` or `ERROR`, padded to one width, in its colour when the style
/// colours.
fn status_word(status: Status, style: Style) -> String {
    let word = format!("{:<7}", status.name().to_uppercase());
    let (ink, effects): (Ink, &[Styles]) = match status {
        Status::Pass => (Ink::Green, &[]),
        Status::Unknown => (Ink::Yellow, &[]),
        Status::Fail => (Ink::Red, &[]),
        Status::Error => (Ink::Red, &[Styles::Bold]),
    };
    text::paint(&word, Some(ink), effects, style)
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

/// Escapes a GitHub workflow command's message (`%`, CR, LF) or property (also `:` and `,`).
fn github_escape(text: &str, property: bool) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Fill;

    fn report(status: Status, message: &str) -> Report {
        Report {
            status,
            expected: "a15".into(),
            found: "c8 wins".into(),
            line: Vec::new(),
            message: message.into(),
            nodes: 7,
            elapsed: Duration::from_millis(12),
            fill: Fill::default(),
        }
    }

    fn puzzle<'a>(file: usize, id: &'a str, r: &'a Report) -> CheckedPuzzle<'a> {
        CheckedPuzzle {
            file,
            path: "a&b.txt",
            line: 3,
            column: 1,
            id,
            kind: Some(Kind::Vct),
            report: r,
            board: None,
        }
    }

    #[test]
    fn github_commands_escape_their_properties_and_message() {
        assert_eq!(github_escape("50%\nx", false), "50%25%0Ax");
        assert_eq!(github_escape("a:b,c", true), "a%3Ab%2Cc");
    }

    #[test]
    fn junit_text_keeps_a_mark_for_every_character() {
        assert_eq!(junit_text("a\tb\r\nc\x07\x1b[31md"), "a b \nc??[31md");
    }

    #[test]
    fn junit_reads_back_as_the_verdicts_given() {
        let (pass, fail) = (
            report(Status::Pass, ""),
            report(Status::Fail, "a15 <loses>"),
        );
        let unknown = report(Status::Unknown, "ran out");
        let mut printer = Printer::new(CheckFormat::Junit, Style::default(), true, &["a&b.txt"]);
        for (id, r) in [("right", &pass), ("wrong", &fail), ("", &unknown)] {
            assert_eq!(printer.verdict(&puzzle(0, id, r)), "");
        }
        let xml = printer.summary(&Summary::default());
        let back = quick_junit::Report::deserialize_from_str(&xml).unwrap();
        assert_eq!(
            (back.tests, back.failures, back.errors, back.skipped),
            (3, 1, 0, 1)
        );
        let suite = &back.test_suites[0];
        assert_eq!(suite.name.as_str(), "a&b.txt");
        let names: Vec<&str> = suite.test_cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["right", "wrong", "-"]);
        let wrong = &suite.test_cases[1];
        assert_eq!(wrong.extra.get("line").map(|l| l.as_str()), Some("3"));
        match &wrong.status {
            TestCaseStatus::NonSuccess {
                kind: NonSuccessKind::Failure,
                message,
                description,
                ..
            } => {
                assert_eq!(message.as_deref(), Some("a15 <loses>"));
                let body = description.as_deref().unwrap_or_default();
                assert!(
                    body.starts_with("a&b.txt:3: a15 <loses>\nexpected: a15\n"),
                    "{body}"
                );
            }
            other => panic!("not a failure: {other:?}"),
        }
    }
}
