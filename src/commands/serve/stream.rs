//! `GET /api/analyze/stream?position=…&rule=…`: an analysis as it deepens, as server-sent
//! events. The query takes `analyze`'s options by their CLI names, as the POST API does.
//!
//! Each `iteration` event is the whole `--format json` object of an analysis to one more
//! depth than the last (the same tables kept from one to the next, so each depth costs about
//! what the iteration costs inside one analysis); the `done` event repeats the last one when
//! the search ends: its time is up (`time`, default [`STREAM_TIME`]), it reached `depth`, the
//! best move's result is proved, or nothing deeper is left. Every object is a finished
//! analysis, its mates verified, so what the page shows is what `analyze --depth N` prints.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;

use super::api::{self, Call, Failure};
use crate::analyze::{self, Settings, Tables};
use crate::board::Board;
use crate::config::Config;
use crate::report::json;

/// How long a stream analyses when the query gives no `time`.
pub(crate) const STREAM_TIME: Duration = Duration::from_secs(10);

/// The deepest a stream goes.
const MAX_DEPTH: u32 = 60;

/// The handler.
pub(crate) async fn analyze(
    State(state): State<Arc<super::State>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    match start(&state, query).await {
        Ok(r) => r,
        Err(f) => f.into_response(),
    }
}

/// A query's values as the POST API's: `true` and `false` are flags, the rest strings.
fn options(query: HashMap<String, String>) -> Map<String, Value> {
    query
        .into_iter()
        .map(|(k, v)| {
            let v = match v.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => Value::String(v),
            };
            (k, v)
        })
        .collect()
}

/// What a stream searches.
struct Plan {
    board: Board,
    settings: Settings,
    deepest: u32,
    deadline: Instant,
}

async fn start(state: &super::State, query: HashMap<String, String>) -> Result<Response, Failure> {
    let call = Call::of("analyze", options(query))?;
    let mut config = call.config()?;
    let threads = api::bound(&mut config, call.threads, state.jobs.total());
    let Config::Analyze(c) = config else {
        unreachable!("the stream's command is analyze")
    };
    // The position is read before the stream starts, so that a bad one is a 400 with its
    // line and column, as from the POST API.
    let loaded = c.input.load().map_err(|e| Failure::of_error(&e))?;
    let mut settings = c.settings;
    if settings.threat_limit.is_none() {
        settings.threat_limit = loaded.meta.as_ref().and_then(|m| m.threat_limit);
    }
    let time = settings.time.unwrap_or(STREAM_TIME).min(api::MAX_TIME);
    let plan = Plan {
        board: loaded.board,
        deepest: settings.depth.unwrap_or(MAX_DEPTH),
        deadline: Instant::now() + time,
        settings,
    };
    let ticket = state
        .jobs
        .admit(call.page.as_deref(), threads)
        .await
        .map_err(Failure::refused)?;
    let cancel = ticket.cancel();
    let watch = ticket.watch();
    let (tx, rx) = mpsc::channel::<Event>(4);
    tokio::task::spawn_blocking(move || {
        deepen(plan, cancel, &tx);
        drop(ticket);
    });
    // The stream keeps the watch: when the page closes it, the search is cancelled.
    let events = ReceiverStream::new(rx).map(move |e| {
        let _ = &watch;
        Ok::<_, std::convert::Infallible>(e)
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
        .into_response())
}

/// Analyses to one more depth at a time until the plan ends, sending each analysis.
fn deepen(plan: Plan, cancel: crate::solve::Cancel, tx: &mpsc::Sender<Event>) {
    let mut settings = Settings {
        cancel: Some(cancel),
        ..plan.settings
    };
    settings.depth = Some(1);
    let mut tables = match Tables::for_settings(&settings) {
        Ok(t) => t,
        Err(e) => return send_error(tx, &e.to_string()),
    };
    let mut last: Option<String> = None;
    for depth in 1..=plan.deepest {
        let left = plan.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        settings.depth = Some(depth);
        settings.time = Some(left);
        let analysis = match analyze::analyze_with(&plan.board, &settings, &mut tables, |_| {}) {
            Ok(a) => a,
            Err(e) => return send_error(tx, &e.to_string()),
        };
        if cancel.is_set() {
            return;
        }
        let doc = json::Analyze::of(&plan.board, &analysis);
        let text = serde_json::to_string(&doc).expect("plain data serializes");
        // Short of the depth asked: the time ran out, or nothing deeper was left to search.
        let ended =
            analysis.depth < depth || doc.candidates.first().is_none_or(|c| c.mate_in.is_some());
        // A search cut short keeps the deeper one before it as the result.
        if analysis.depth >= depth {
            if tx
                .blocking_send(Event::default().event("iteration").data(&text))
                .is_err()
            {
                return;
            }
            last = Some(text);
        }
        if ended {
            break;
        }
    }
    if let Some(text) = last {
        let _ = tx.blocking_send(Event::default().event("done").data(text));
    }
}

fn send_error(tx: &mpsc::Sender<Event>, message: &str) {
    let body = serde_json::json!({ "error": message }).to_string();
    let _ = tx.blocking_send(Event::default().event("error").data(body));
}
