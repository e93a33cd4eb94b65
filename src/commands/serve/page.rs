//! The page, served from the binary: plain HTML, CSS and a script that draws the board as
//! SVG; nothing is fetched from anywhere else.

use axum::http::header;
use axum::response::IntoResponse;

/// Every asset is sent fresh: a page from an older build must not talk to a newer server.
const NO_STORE: (header::HeaderName, &str) = (header::CACHE_CONTROL, "no-store");

pub(crate) async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8"), NO_STORE],
        include_str!("page/index.html"),
    )
}

pub(crate) async fn script() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            NO_STORE,
        ],
        include_str!("page/app.js"),
    )
}

pub(crate) async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8"), NO_STORE],
        include_str!("page/style.css"),
    )
}
