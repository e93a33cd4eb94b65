//! Only the server's own page may drive it: a request whose `Host` is not one of the server's
//! names (DNS rebinding) or whose `Origin` or `Sec-Fetch-Site` says another site sent it
//! (a cross-site request) is refused with 403 before any handler runs.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// The names the server answers to.
pub(crate) struct Allowed {
    port: u16,
    /// Bound to loopback: only loopback names; else any IP literal too (a rebinding attack
    /// needs a domain name, and the machine's own addresses cannot all be known).
    loopback: bool,
}

impl Allowed {
    /// The names of a server listening on `addr`.
    pub fn new(addr: SocketAddr) -> Allowed {
        Allowed {
            port: addr.port(),
            loopback: addr.ip().is_loopback(),
        }
    }

    /// Whether `host` (a `Host` header: `name:port`) names this server.
    fn admits_host(&self, host: &str) -> bool {
        let Some((name, port)) = host.rsplit_once(':') else {
            return false;
        };
        if port.parse::<u16>() != Ok(self.port) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let literal = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        match literal.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || !self.loopback,
            Err(_) => false,
        }
    }

    /// Why the request is refused, if it is.
    pub fn refusal(&self, headers: &HeaderMap) -> Option<&'static str> {
        let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
        let Some(host) = text(header::HOST) else {
            return Some("a request needs a Host header");
        };
        if !self.admits_host(host) {
            return Some(
                "this server answers only to its own address (the Host header names another)",
            );
        }
        if let Some(origin) = text(header::ORIGIN)
            && !origin
                .strip_prefix("http://")
                .is_some_and(|o| o.eq_ignore_ascii_case(host))
        {
            return Some("requests from another site's page are refused (Origin)");
        }
        if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site"))
            && matches!(site, "cross-site" | "same-site")
        {
            return Some("requests from another site's page are refused (Sec-Fetch-Site)");
        }
        None
    }
}

/// The middleware: 403 with a JSON error, or on to the handler.
pub(crate) async fn check(
    State(state): State<Arc<super::State>>,
    request: Request,
    next: Next,
) -> Response {
    match state.allowed.refusal(request.headers()) {
        Some(why) => super::api::error_response(StatusCode::FORBIDDEN, why),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for &(k, v) in pairs {
            h.insert(k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_the_servers_own_names_and_origins_pass() {
        let a = Allowed::new("127.0.0.1:8080".parse().unwrap());
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "LOCALHOST:8080",
        ] {
            assert_eq!(a.refusal(&headers(&[("host", host)])), None, "{host}");
        }
        for host in [
            "evil.example:8080",
            "127.0.0.1:80",
            "10.0.0.2:8080",
            "127.0.0.1",
        ] {
            assert!(a.refusal(&headers(&[("host", host)])).is_some(), "{host}");
        }
        let own = [
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080"),
        ];
        assert_eq!(a.refusal(&headers(&own)), None);
        for origin in ["http://evil.example", "null", "http://localhost:8080"] {
            let h = headers(&[("host", "127.0.0.1:8080"), ("origin", origin)]);
            assert!(a.refusal(&h).is_some(), "{origin}");
        }
        let cross = [("host", "127.0.0.1:8080"), ("sec-fetch-site", "cross-site")];
        assert!(a.refusal(&headers(&cross)).is_some());
        // Listening on every address: the machine's IP literals pass, names still do not.
        let wide = Allowed::new("0.0.0.0:8080".parse().unwrap());
        assert_eq!(wide.refusal(&headers(&[("host", "10.0.0.2:8080")])), None);
        assert!(
            wide.refusal(&headers(&[("host", "evil.example:8080")]))
                .is_some()
        );
    }
}
