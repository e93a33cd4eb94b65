//! `POST /api/{command}`: a JSON object `{"position": "...", options…}` run as the command
//! with those options (by their CLI names), answered with what `--format json` prints.
//!
//! The object becomes the command's arguments and goes through the CLI's own parser and
//! configuration, so the API takes exactly the options, values and errors the CLI does; then
//! the server's bounds are laid over it: the position is the text itself (never a path),
//! searches have a time cap, at most the server's threads and a hash cap, and a stop flag.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use clap::Parser;
use serde_json::{Map, Value, json};

use super::jobs::Refusal;
use crate::cli::Cli;
use crate::config::Config;
use crate::error::Error;
use crate::notation::span::Located;

/// The longest a request may run: a longer `time` is cut to it, and a search still running
/// at it is stopped.
pub(crate) const MAX_TIME: Duration = Duration::from_secs(600);

/// The most memory a request's search tables may take, in megabytes.
pub(crate) const MAX_HASH_MB: usize = 1024;

/// The commands the API runs.
const COMMANDS: [&str; 6] = ["show", "convert", "forbidden", "analyze", "solve", "review"];

/// Options the API never takes: the server writes no file and colours nothing.
const REFUSED: [&str; 8] = ["output", "o", "force", "color", "help", "h", "version", "V"];

/// A request made into the command's arguments.
pub(crate) struct Call {
    /// The command line, `tengen COMMAND -` and the options.
    pub argv: Vec<String>,
    /// The position's text.
    pub position: String,
    /// The page that asks (its earlier search is cancelled).
    pub page: Option<String>,
    /// The request named `threads` (else a search gets one).
    pub threads: bool,
    /// The answer is a PNG: the command makes the SVG, the server renders it.
    pub png: bool,
    /// What the answer is, for its content type.
    pub kind: Kind,
}

/// What an answer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// JSON.
    Json,
    /// Plain text (`convert`, `"format": "text"`).
    Text,
    /// An SVG picture.
    Svg,
    /// A PNG picture.
    Png,
}

impl Kind {
    fn content_type(self) -> &'static str {
        match self {
            Kind::Json => "application/json",
            Kind::Text => "text/plain; charset=utf-8",
            Kind::Svg => "image/svg+xml",
            Kind::Png => "image/png",
        }
    }
}

/// A JSON error answer: `{"error": message}`.
pub(crate) fn error_response(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// Any path the server does not serve.
pub(crate) async fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, "no such page or API")
}

/// A refused or failed request: its status and JSON body.
pub(crate) struct Failure(pub StatusCode, pub Value);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let mut response = (self.0, axum::Json(self.1)).into_response();
        if self.0 == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("2"));
        }
        response
    }
}

impl Failure {
    pub fn of(status: StatusCode, message: impl Into<String>) -> Failure {
        Failure(status, json!({ "error": message.into() }))
    }

    /// A search that was not run.
    pub fn refused(why: Refusal) -> Failure {
        match why {
            Refusal::Busy => Failure::of(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy: every search slot is taken and the queue is full; try again",
            ),
            Refusal::Cancelled => Failure::of(
                StatusCode::CONFLICT,
                "cancelled: the page asked for another search",
            ),
            Refusal::Stopping => {
                Failure::of(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
            }
        }
    }

    /// A command's error: 400 for what the request got wrong (a bad position with its line,
    /// column and the line itself), 413 for a position too large, 5xx for the server's own.
    pub fn of_error(e: &Error) -> Failure {
        let status = match e {
            Error::Input(_) | Error::Usage(_) | Error::NoSuchFile { .. } | Error::Read { .. } => {
                StatusCode::BAD_REQUEST
            }
            Error::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Memory(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Write { .. } | Error::Internal { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let mut body = json!({ "error": e.to_string() });
        if let Error::Input(source) = e {
            let loc = source.error.loc();
            body["line"] = json!(loc.line);
            body["column"] = json!(loc.column);
            body["message"] = json!(source.error.to_string());
            if let Some(snippet) = source.snippet() {
                body["snippet"] = json!(snippet);
            }
        }
        Failure(status, body)
    }
}

impl Call {
    /// The call `options` (a request's keys and values) ask of `command`.
    pub fn of(command: &str, options: Map<String, Value>) -> Result<Call, Failure> {
        let bad = |m: String| Failure::of(StatusCode::BAD_REQUEST, m);
        let mut argv: Vec<String> = vec!["tengen".into(), command.into(), "-".into()];
        let mut call = Call {
            argv: Vec::new(),
            position: String::new(),
            page: None,
            threads: false,
            png: false,
            kind: if command == "convert" {
                Kind::Text
            } else {
                Kind::Json
            },
        };
        let mut position = None;
        for (key, value) in options {
            let key = key.replace('_', "-");
            match (key.as_str(), value) {
                ("position", Value::String(p)) => position = Some(p),
                ("position", _) => return Err(bad("\"position\" must be a string".into())),
                ("page", Value::String(p)) => call.page = Some(p),
                ("page", _) => return Err(bad("\"page\" must be a string".into())),
                ("format", Value::String(f)) if command != "convert" => {
                    call.kind = match f.to_ascii_lowercase().as_str() {
                        "svg" => Kind::Svg,
                        "png" => Kind::Png,
                        "text" => Kind::Text,
                        _ => Kind::Json,
                    };
                    call.png = call.kind == Kind::Png;
                    let f = if call.png { "svg".into() } else { f };
                    argv.push(format!("--format={f}"));
                }
                (key, value) => {
                    if key == "threads" {
                        call.threads = true;
                    }
                    push_option(&mut argv, key, value).map_err(bad)?;
                }
            }
        }
        call.position = position.ok_or_else(|| {
            bad("the request needs \"position\": the text of a position (a move list, a Gomoku Calculator URL, a diagram, .psq, SGF or a puzzle file)".into())
        })?;
        if command != "convert" {
            if call.kind == Kind::Json && !argv.iter().any(|a| a.starts_with("--format=")) {
                argv.push("--format=json".into());
            }
            argv.push("--color=never".into());
        }
        call.argv = argv;
        Ok(call)
    }

    /// The command's configuration, as the CLI's parser makes it, reading the position from
    /// the request alone.
    pub fn config(&self) -> Result<Config, Failure> {
        let cli = Cli::try_parse_from(&self.argv).map_err(|e| {
            let text = e.to_string();
            let first = text.split("\n\n").next().unwrap_or(&text).trim();
            Failure::of(
                StatusCode::BAD_REQUEST,
                first.strip_prefix("error: ").unwrap_or(first),
            )
        })?;
        let mut config = Config::from_cli(cli.command);
        if let Some(input) = input_of(&mut config) {
            input.source = self.position.clone();
            input.literal = true;
        }
        Ok(config)
    }
}

/// One option on the command line: `--key` for true, nothing for false or null, `--key=value`
/// for a number or a string (so a value is never read as an option), repeated for a list.
fn push_option(argv: &mut Vec<String>, key: &str, value: Value) -> Result<(), String> {
    let plain = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !plain {
        return Err(format!("\"{key}\" is not an option"));
    }
    if REFUSED.contains(&key) {
        return Err(format!(
            "\"{key}\" is not taken here: the server writes no file and answers in JSON"
        ));
    }
    match value {
        Value::Bool(true) => argv.push(format!("--{key}")),
        Value::Bool(false) | Value::Null => {}
        Value::Number(n) => argv.push(format!("--{key}={n}")),
        Value::String(s) => argv.push(format!("--{key}={s}")),
        Value::Array(items) => {
            for item in items {
                push_option(argv, key, item)?;
            }
        }
        Value::Object(_) => return Err(format!("\"{key}\" takes a string, number or boolean")),
    }
    Ok(())
}

/// The position request of a command that reads one.
fn input_of(config: &mut Config) -> Option<&mut crate::files::input::Request> {
    match config {
        Config::Show(c) => Some(&mut c.input),
        Config::Convert(c) => Some(&mut c.input),
        Config::Forbidden(c) => Some(&mut c.input),
        Config::Analyze(c) => Some(&mut c.input),
        Config::Solve(c) => Some(&mut c.input),
        Config::Review(c) => Some(&mut c.input),
        _ => None,
    }
}

/// Lays the server's bounds over a configuration: no progress bars, a time cap, at most
/// `total` threads (one unless the request named them) and [`MAX_HASH_MB`]. Returns the
/// search threads it takes (0 for a quick command).
pub(crate) fn bound(config: &mut Config, named_threads: bool, total: usize) -> usize {
    let threads = |t: usize| if named_threads { t.clamp(1, total) } else { 1 };
    // A time asked for is cut to the cap; a search bounded otherwise, or not at all, is
    // cancelled at the cap instead (see `Ticket::deadline`), so that it runs as the CLI's.
    let capped = |t: Option<Duration>| t.map(|t| t.min(MAX_TIME));
    match config {
        Config::Analyze(c) => {
            c.progress = false;
            let s = &mut c.settings;
            s.threads = threads(s.threads);
            s.hash_mb = s.hash_mb.min(MAX_HASH_MB);
            s.time = capped(s.time);
            s.threads
        }
        Config::Solve(c) => {
            c.progress = false;
            c.time = capped(c.time);
            c.search.hash_mb = c.search.hash_mb.min(MAX_HASH_MB);
            1
        }
        Config::Review(c) => {
            c.progress = false;
            let o = &mut c.options;
            o.settings.threads = threads(o.settings.threads);
            o.settings.hash_mb = o.settings.hash_mb.min(MAX_HASH_MB);
            o.settings.time = capped(o.settings.time);
            o.jobs = o.jobs.clamp(1, (total / o.settings.threads).max(1));
            o.jobs * o.settings.threads
        }
        _ => 0,
    }
}

/// Gives a search its stop flag.
pub(crate) fn arm(config: &mut Config, cancel: crate::solve::Cancel) {
    match config {
        Config::Analyze(c) => c.settings.cancel = Some(cancel),
        Config::Solve(c) => c.cancel = Some(cancel),
        Config::Review(c) => c.options.settings.cancel = Some(cancel),
        _ => {}
    }
}

/// `GET /api/status`: the searches not ended (running or waiting) and the slots.
pub(crate) async fn status(State(state): State<Arc<super::State>>) -> Response {
    axum::Json(json!({
        "searches": state.jobs.live(),
        "slots": state.jobs.total(),
        "version": env!("CARGO_PKG_VERSION"),
    }))
    .into_response()
}

/// The handler of `POST /api/{command}`.
pub(crate) async fn command(
    State(state): State<Arc<super::State>>,
    Path(command): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match answer(&state, &command, body).await {
        Ok(r) => r,
        Err(f) => f.into_response(),
    }
}

async fn answer(
    state: &super::State,
    command: &str,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Failure> {
    if !COMMANDS.contains(&command) {
        return Err(Failure::of(
            StatusCode::NOT_FOUND,
            format!(
                "no such command: {command} (the API runs {})",
                COMMANDS.join(", ")
            ),
        ));
    }
    let body = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => Failure::of(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request is larger than {} MiB, the most tengen reads",
                crate::files::input::MAX_INPUT >> 20
            ),
        ),
        status => Failure::of(status, e.body_text()),
    })?;
    let options: Map<String, Value> = serde_json::from_slice(&body).map_err(|e| {
        Failure(
            StatusCode::BAD_REQUEST,
            json!({
                "error": format!("the request is not a JSON object: {e}"),
                "line": e.line(),
                "column": e.column(),
            }),
        )
    })?;
    let call = Call::of(command, options)?;
    let mut config = call.config()?;
    let threads = bound(&mut config, call.threads, state.jobs.total());
    let ticket = state
        .jobs
        .admit(call.page.as_deref(), threads)
        .await
        .map_err(Failure::refused)?;
    arm(&mut config, ticket.cancel());
    let expired = ticket.deadline(MAX_TIME);
    let _watch = ticket.watch();
    let ran = tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        let code = crate::commands::run(config, &mut out);
        drop(ticket);
        code.map(|_| out)
    })
    .await
    .map_err(|e| Failure::of(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let bytes = ran.map_err(|e| Failure::of_error(&e))?;
    if expired.load(std::sync::atomic::Ordering::Relaxed) {
        // What a cancelled search printed is not what was asked for.
        return Err(Failure::of(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the search ran past the server's {} minutes and was stopped: give a time limit",
                MAX_TIME.as_secs() / 60
            ),
        ));
    }
    let bytes = if call.png {
        let svg = String::from_utf8_lossy(&bytes);
        crate::report::picture::png(&svg)
            .map_err(|e| Failure::of(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    } else {
        bytes
    };
    Ok(([(header::CONTENT_TYPE, call.kind.content_type())], bytes).into_response())
}
