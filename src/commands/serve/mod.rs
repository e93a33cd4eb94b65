//! `tengen serve`: a board in the browser. A small HTTP server on loopback serves one page
//! (from the binary itself) and a JSON API over the same commands the CLI runs, so that a
//! request answers with exactly what `--format json` prints.
//!
//! The pieces: [`guard`] refuses requests that are not the server's own (Host, Origin);
//! [`jobs`] bounds the searches (a permit a thread, a queue, one search a page, cancellation);
//! [`api`] turns a JSON object into the command's arguments and runs it; [`stream`] sends an
//! analysis as it deepens, as server-sent events; [`page`] is the page.

mod api;
mod guard;
mod jobs;
mod page;
mod stream;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use crate::config::Serve;
use crate::error::Error;
use crate::files::input::MAX_INPUT;

/// What every handler shares.
pub(crate) struct State {
    /// The names the server answers to.
    pub allowed: guard::Allowed,
    /// The searches, running and waiting.
    pub jobs: Arc<jobs::Jobs>,
}

/// How long the server waits, once interrupted, for cancelled searches and open
/// connections to end before it stops anyway.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// Runs the server until Ctrl-C (or SIGTERM): prints its address on `out`, then serves.
pub fn run(config: Serve, out: &mut dyn Write) -> Result<u8, Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Searches and commands run on the blocking pool: the permits bound the searches,
        // this bounds the quick commands beside them.
        .max_blocking_threads(config.searches + 16)
        .enable_all()
        .build()
        .map_err(|e| Error::usage(format!("cannot start the server: {e}")))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind((config.host, config.port)))
        .map_err(|e| {
            Error::usage(format!(
                "cannot listen on {}: {e}",
                SocketAddr::from((config.host, config.port))
            ))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::usage(format!("cannot listen: {e}")))?;
    if !config.host.is_loopback() {
        eprintln!(
            "warning: listening on {addr}, not loopback: other machines on the network can use this server and its searches"
        );
    }
    let url = format!("http://{}/", page_address(addr));
    super::emit(out, &format!("tengen serve: {url} (Ctrl-C stops it)\n"))?;
    if config.open
        && let Err(e) = open::that_detached(&url)
    {
        eprintln!("warning: could not open a browser: {e}");
    }
    let state = Arc::new(State {
        allowed: guard::Allowed::new(addr),
        jobs: Arc::new(jobs::Jobs::new(config.searches)),
    });
    let served = runtime.block_on(serve(listener, state));
    runtime.shutdown_timeout(STOP_GRACE);
    served.map_err(|e| Error::usage(format!("the server stopped: {e}")))?;
    super::emit(out, "tengen serve: stopped\n")?;
    Ok(0)
}

/// The address as the page's URL shows it: a wildcard address is reached through loopback.
fn page_address(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::from(([127, 0, 0, 1], addr.port()))
        }
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, addr.port()))
        }
        _ => addr,
    }
}

/// Serves until interrupted; then cancels every search and gives the connections
/// [`STOP_GRACE`] to close.
async fn serve(listener: tokio::net::TcpListener, state: Arc<State>) -> std::io::Result<()> {
    let jobs = state.jobs.clone();
    let stopped = Arc::new(tokio::sync::Notify::new());
    let notify = stopped.clone();
    let app = router(state);
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        interrupted().await;
        jobs.stop();
        notify.notify_one();
    });
    tokio::select! {
        served = server => served,
        () = async { stopped.notified().await; tokio::time::sleep(STOP_GRACE).await } => Ok(()),
    }
}

/// Ctrl-C, or SIGTERM where there is one.
async fn interrupted() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! { () = ctrl_c => {}, () = term => {} }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}

/// The page, its assets and the API, every route behind the guard.
fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/analyze/stream", get(stream::analyze))
        .route("/api/status", get(api::status))
        .route("/api/{command}", post(api::command))
        .fallback(api::not_found)
        // The position may be as large as tengen reads, with room for the JSON around it.
        .layer(DefaultBodyLimit::max(MAX_INPUT as usize + 64 * 1024))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
        .with_state(state)
}
