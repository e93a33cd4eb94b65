//! `tengen serve` as a client sees it: the real binary on a free port, driven through a real
//! HTTP client (every endpoint, its errors, the stream, cancellation, load, Ctrl-C).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `tengen serve`, stopped when dropped.
pub struct Server {
    child: Child,
    stdout: BufReader<std::process::ChildStdout>,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The `Host` it answers to.
    pub host: String,
    agent: ureq::Agent,
}

impl Server {
    /// Starts the server with `args` after `serve --port 0` and reads its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tengen serve starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let base = url.trim_end_matches('/').to_string();
        let host = base.trim_start_matches("http://").to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Server {
            child,
            stdout,
            base,
            host,
            agent,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `POST /api/{command}` with `body`: the status, the content type and the body.
    pub fn post_raw(&self, command: &str, body: &str, headers: &[(&str, &str)]) -> (u16, String) {
        let mut req = self
            .agent
            .post(format!("{}/api/{command}", self.base))
            .header("Content-Type", "application/json");
        for &(k, v) in headers {
            req = req.header(k, v);
        }
        let mut resp = req.send(body).expect("the server answers");
        let status = resp.status().as_u16();
        let text = resp.body_mut().read_to_string().unwrap_or_default();
        (status, text)
    }

    /// `POST /api/{command}` with a JSON body: the status and the JSON answer.
    pub fn post(&self, command: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.post_raw(command, &body.to_string(), &[]);
        let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, doc)
    }

    /// `GET path`: the status and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut resp = self
            .agent
            .get(format!("{}{path}", self.base))
            .call()
            .expect("the server answers");
        let status = resp.status().as_u16();
        (status, resp.body_mut().read_to_string().unwrap_or_default())
    }

    /// Opens `GET /api/analyze/stream?query`: the status and the body to read events from.
    pub fn stream(&self, query: &str) -> (u16, Box<dyn BufRead + Send>) {
        let resp = self
            .agent
            .get(format!("{}/api/analyze/stream?{query}", self.base))
            .call()
            .expect("the server answers");
        let status = resp.status().as_u16();
        let reader = resp.into_body().into_reader();
        (status, Box::new(BufReader::new(reader)))
    }

    /// The searches not ended, as `/api/status` counts them.
    pub fn searches(&self) -> u64 {
        let (_, text) = self.get("/api/status");
        let doc: Value = serde_json::from_str(&text).unwrap();
        doc["searches"].as_u64().unwrap()
    }

    /// Waits up to `limit` for no search to be left; how long it took.
    pub fn settle(&self, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.searches() == 0 {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// The server's peak resident memory in KiB (Linux).
    pub fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One server-sent event: its name and its data.
pub fn next_event(reader: &mut dyn BufRead) -> Option<(String, String)> {
    let (mut name, mut data) = (String::from("message"), Vec::new());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if !data.is_empty() {
                return Some((name, data.join("\n")));
            }
            continue;
        }
        if let Some(n) = line.strip_prefix("event:") {
            name = n.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data:") {
            data.push(d.strip_prefix(' ').unwrap_or(d).to_string());
        }
    }
}

/// The document without what differs from run to run (times, speeds).
fn steady(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in ["elapsed_ms", "nps", "verify_ms"] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// What the CLI prints with `--format json` for `args`.
fn cli_json(args: &[&str]) -> Value {
    let (code, out, err) = crate::run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn every_endpoint_answers_with_the_clis_json() {
    let s = Server::start(&[]);
    let game = "h8 i9 j10 h9 h10 i10 i11 g9 j9";
    let cases: [(&str, Value, Vec<&str>); 6] = [
        ("show", json!({"position": game}), vec!["show", game]),
        (
            "forbidden",
            json!({"position": "h8 a1 i9 a3 j8 a5 i7 a7", "rule": "renju"}),
            vec!["forbidden", "h8 a1 i9 a3 j8 a5 i7 a7", "--rule", "renju"],
        ),
        (
            "analyze",
            json!({"position": game, "depth": 4, "top": 3}),
            vec!["analyze", game, "--depth", "4", "--top", "3"],
        ),
        (
            "solve",
            json!({"position": "h8 a1 h9 a2 h10 a3", "vcf": true}),
            vec!["solve", "h8 a1 h9 a2 h10 a3", "--vcf"],
        ),
        (
            "solve",
            json!({"position": game, "win_in": 3, "rule": "renju"}),
            vec!["solve", game, "--win-in", "3", "--rule", "renju"],
        ),
        (
            "review",
            json!({"position": game, "depth": 2}),
            vec!["review", game, "--depth", "2"],
        ),
    ];
    for (command, body, args) in cases {
        let (status, doc) = s.post(command, &body);
        assert_eq!(status, 200, "{command}: {doc}");
        let mut args = args.clone();
        args.extend(["--format", "json"]);
        assert_eq!(steady(doc), steady(cli_json(&args)), "{command} {body}");
    }
    // convert answers with the text the CLI writes.
    let (status, text) = s.post_raw("convert", r#"{"position": "h8 i9", "to": "url"}"#, &[]);
    assert_eq!((status, text.trim()), (200, "https://gomocalc.com/#/h8i9"));
    // A picture comes as one: SVG text, PNG bytes.
    let (status, svg) = s.post_raw("show", r#"{"position": "h8", "format": "svg"}"#, &[]);
    assert!(
        status == 200 && svg.starts_with("<svg"),
        "{status} {svg:.80}"
    );
    let resp = ureq::post(format!("{}/api/show", s.base))
        .send(r#"{"position": "h8", "format": "png"}"#)
        .unwrap();
    assert_eq!(resp.headers()["content-type"], "image/png");
    let mut png = Vec::new();
    resp.into_body()
        .into_reader()
        .read_to_end(&mut png)
        .unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
}

#[test]
fn bad_requests_are_json_errors_with_line_and_column() {
    let s = Server::start(&[]);
    // A bad position: 400 with the CLI's location, message and the line with a caret.
    let (status, e) = s.post("analyze", &json!({"position": "h8 i9\nj10 zz"}));
    assert_eq!(status, 400, "{e}");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(2), Some(6))
    );
    let (_, _, err) = crate::run(&["analyze", "h8 i9\nj10 zz"]);
    assert!(err.contains(":2:6:"), "the CLI gives the same place: {err}");
    assert!(e["snippet"].as_str().unwrap().contains("j10 zz"), "{e}");
    let (status, e) = s.post("show", &json!({"position": "h8 h8"}));
    assert_eq!((status, e["column"].as_u64()), (400, Some(4)), "{e}");
    // Options are the CLI's, by their names, with its checks.
    let (status, e) = s.post("analyze", &json!({"position": "h8", "depth": 99}));
    assert!(
        status == 400 && e["error"].as_str().unwrap().contains("99"),
        "{e}"
    );
    let (status, e) = s.post("analyze", &json!({"position": "h8", "bogus": 1}));
    assert!(
        status == 400 && e["error"].as_str().unwrap().contains("--bogus"),
        "{e}"
    );
    let (status, e) = s.post("analyze", &json!({"position": "h8", "output": "/tmp/x"}));
    assert!(
        status == 400 && e["error"].as_str().unwrap().contains("output"),
        "{e}"
    );
    let (status, e) = s.post("solve", &json!({"position": "h8"}));
    assert!(
        status == 400 && e["error"].as_str().unwrap().contains("--vcf"),
        "{e}"
    );
    let (status, e) = s.post("analyze", &json!({"rule": "renju"}));
    assert!(
        status == 400 && e["error"].as_str().unwrap().contains("position"),
        "{e}"
    );
    // A position is never a path on the server's side.
    let (status, e) = s.post("show", &json!({"position": "/etc/passwd"}));
    assert_eq!(status, 400, "{e}");
    assert!(!e.to_string().contains("root:"), "{e}");
    let (status, text) = s.post_raw("analyze", "{not json", &[]);
    assert!(
        status == 400 && text.contains("not a JSON object"),
        "{text}"
    );
    let (status, _) = s.post_raw("rm", r#"{"position": "h8"}"#, &[]);
    assert_eq!(status, 404);
    let (status, _) = s.get("/nothing/here");
    assert_eq!(status, 404);
}

#[test]
fn a_body_over_the_input_limit_is_413() {
    let s = Server::start(&[]);
    let big = format!(r#"{{"position": "{}"}}"#, "h8 ".repeat((65 << 20) / 3));
    let result = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent()
        .post(format!("{}/api/show", s.base))
        .send(&big);
    let mut resp = result.expect("the server answers before reading it all");
    assert_eq!(resp.status().as_u16(), 413);
    let e: Value = serde_json::from_str(&resp.body_mut().read_to_string().unwrap()).unwrap();
    assert!(e["error"].as_str().unwrap().contains("64 MiB"), "{e}");
}

#[test]
fn a_foreign_host_or_origin_is_refused() {
    let s = Server::start(&[]);
    let body = r#"{"position": "h8"}"#;
    let port = s.host.rsplit(':').next().unwrap().to_string();
    let evil_host = format!("rebound.example:{port}");
    let own_origin = format!("http://{}", s.host);
    let refused: [&[(&str, &str)]; 4] = [
        &[("Host", &evil_host)],
        &[("Origin", "http://evil.example")],
        &[("Origin", "null")],
        &[("Sec-Fetch-Site", "cross-site")],
    ];
    for headers in refused {
        let (status, text) = s.post_raw("show", body, headers);
        assert_eq!(status, 403, "{headers:?}: {text}");
        assert!(
            text.contains("refused") || text.contains("own address"),
            "{text}"
        );
    }
    let localhost = format!("localhost:{port}");
    let (status, _) = s.post_raw("show", body, &[("Origin", &own_origin)]);
    assert_eq!(status, 200);
    let (status, _) = s.post_raw("show", body, &[("Host", &localhost)]);
    assert_eq!(status, 200);
    // The page and the stream are behind the same guard.
    let resp = ureq::get(format!("{}/", s.base))
        .header("Host", &evil_host)
        .config()
        .http_status_as_error(false)
        .build()
        .call()
        .unwrap();
    assert_eq!(resp.status().as_u16(), 403);
}

#[test]
fn the_page_is_served_from_the_binary() {
    let s = Server::start(&[]);
    let (status, html) = s.get("/");
    assert_eq!(status, 200);
    assert!(html.contains("<svg id=\"board\""), "{html:.200}");
    // Nothing comes from elsewhere: every src and href is the server's own.
    for attr in ["src=\"", "href=\""] {
        for part in html.split(attr).skip(1) {
            assert!(part.starts_with('/'), "{attr}{part:.40}");
        }
    }
    let (status, js) = s.get("/app.js");
    assert!(status == 200 && js.contains("/api/analyze/stream"));
    // The SVG namespace is a name, not an address the page loads.
    let js = js.replace("'http://www.w3.org/2000/svg'", "");
    assert!(
        !js.contains("http://") && !js.contains("https://"),
        "no outside address"
    );
    assert_eq!(s.get("/style.css").0, 200);
}

#[test]
fn the_stream_sends_each_depth_then_done() {
    let s = Server::start(&[]);
    let (status, mut events) = s.stream("position=h8%20i9%20j10&time=2s&top=3");
    assert_eq!(status, 200);
    let mut depths = Vec::new();
    let mut last = None;
    while let Some((name, data)) = next_event(&mut *events) {
        let doc: Value = serde_json::from_str(&data).unwrap();
        match name.as_str() {
            "iteration" => depths.push(doc["depth"].as_u64().unwrap()),
            "done" => {
                last = Some(doc);
                break;
            }
            other => panic!("unexpected event {other}: {data}"),
        }
    }
    assert!(depths.len() >= 4, "{depths:?}");
    assert!(depths.windows(2).all(|w| w[1] == w[0] + 1), "{depths:?}");
    let last = last.expect("a done event ends the stream");
    assert!(last["depth"].as_u64().unwrap() >= *depths.last().unwrap());
    // Each event is the CLI's object: the same keys as `analyze --format json`.
    let cli = cli_json(&["analyze", "h8 i9 j10", "--depth", "2", "--format", "json"]);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&last), keys(&cli));
    assert!(last["candidates"].as_array().unwrap().len() >= 3);
    // A proved result ends the stream early, the mate in the object.
    let start = Instant::now();
    let (_, mut events) = s.stream("position=h8%20a1%20h9%20a2%20h10%20a3&time=30s");
    let mut done = None;
    while let Some((name, data)) = next_event(&mut *events) {
        if name == "done" {
            done = Some(serde_json::from_str::<Value>(&data).unwrap());
        }
    }
    let done = done.expect("done");
    assert_eq!(done["candidates"][0]["mate_in"], json!(2), "{done}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // A bad position is a 400 before any event.
    let (status, mut body) = s.stream("position=h8%20h8");
    let mut text = String::new();
    body.read_to_string(&mut text).unwrap();
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("\"line\":1"), "{text}");
}

#[test]
fn a_pages_new_search_cancels_its_old_one_and_a_closed_stream_ends_its_search() {
    let s = Server::start(&["--searches", "2"]);
    let query = "position=h8%20i9%20j10%20h9&time=60s&page=tab1";
    let (_, mut first) = s.stream(query);
    assert_eq!(next_event(&mut *first).unwrap().0, "iteration");
    let (_, mut second) = s.stream(&query.replace("h9", "k11"));
    assert_eq!(next_event(&mut *second).unwrap().0, "iteration");
    // The first stream ends without its done: its search was cancelled at once.
    let start = Instant::now();
    let mut rest = Vec::new();
    while let Some((name, _)) = next_event(&mut *first) {
        rest.push(name);
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(!rest.contains(&"done".to_string()), "{rest:?}");
    // A POST from the same page cancels the stream too.
    let (status, _) = s.post("show", &json!({"position": "h8", "page": "tab2"}));
    assert_eq!(status, 200);
    assert_eq!(s.searches(), 1, "the second stream still runs");
    // The page closes: the stream's search ends.
    drop(second);
    let took = s.settle(Duration::from_secs(10));
    assert!(took.is_some(), "the search outlived its page");
    eprintln!("closed stream: its search ended after {took:?}");
}

#[test]
fn twenty_pages_at_once_are_answered_or_told_to_wait_and_memory_stays_bounded() {
    let s = std::sync::Arc::new(Server::start(&["--searches", "2"]));
    let start = Instant::now();
    // Twenty pages ask for an analysis each at once.
    let posts: Vec<_> = (0..20)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || {
                let body = json!({"position": "h8 i9 j10", "time": "1s", "page": format!("p{i}")});
                s.post_raw("analyze", &body.to_string(), &[])
            })
        })
        .collect();
    let mut answered = 0;
    for p in posts {
        let (status, text) = p.join().unwrap();
        match status {
            200 => {
                let doc: Value = serde_json::from_str(&text).unwrap();
                assert!(doc["depth"].as_u64().unwrap() > 0);
                answered += 1;
            }
            503 => assert!(text.contains("busy"), "{text}"),
            other => panic!("{other}: {text}"),
        }
    }
    let posts_took = start.elapsed();
    // Two slots, up to a second each (a search may stop early once its move is settled): the
    // queue holds twenty, so all are answered, two at a time.
    assert_eq!(answered, 20);
    assert!(posts_took >= Duration::from_secs(5), "{posts_took:?}");
    // Twenty pages open a stream each at once, then every page goes: every search ends.
    let streams: Vec<_> = (0..20)
        .map(|i| raw_stream(&s, &format!("position=h8%20i9&time=60s&page=s{i}")))
        .collect();
    let wait = Instant::now();
    while s.searches() < 20 && wait.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(s.searches(), 20, "two run and eighteen wait, none lost");
    std::thread::sleep(Duration::from_secs(2));
    let peak_open = s.peak_kib();
    drop(streams);
    let took = s.settle(Duration::from_secs(30));
    assert!(
        took.is_some(),
        "searches outlived their pages: {}",
        s.searches()
    );
    let peak = s.peak_kib().unwrap_or(0);
    eprintln!(
        "load: 20 analyses of 1 s on 2 slots answered in {posts_took:?}; 20 streams open: peak RSS {peak_open:?} KiB; every search ended {took:?} after the pages went; peak RSS {peak} KiB"
    );
    assert!(peak < 1 << 20, "peak resident memory {peak} KiB");
}

/// Opens a stream on a raw connection, as a page does: closing it is dropping it.
fn raw_stream(s: &Server, query: &str) -> std::net::TcpStream {
    use std::io::Write;
    let mut c = std::net::TcpStream::connect(&s.host).unwrap();
    write!(
        c,
        "GET /api/analyze/stream?{query} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        s.host
    )
    .unwrap();
    c
}

#[test]
fn a_full_queue_is_503_with_retry_after() {
    // One slot and sixteen places in its queue: the eighteenth search is refused.
    let s = Server::start(&["--searches", "1"]);
    let open: Vec<_> = (0..17)
        .map(|i| raw_stream(&s, &format!("position=h8&time=20s&page=q{i}")))
        .collect();
    let wait = Instant::now();
    while s.searches() < 17 && wait.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(s.searches(), 17);
    let resp = ureq::post(format!("{}/api/analyze", s.base))
        .config()
        .http_status_as_error(false)
        .build()
        .send(r#"{"position": "h8"}"#)
        .unwrap();
    assert_eq!(resp.status().as_u16(), 503);
    assert_eq!(resp.headers()["retry-after"], "2");
    drop(open);
    assert!(s.settle(Duration::from_secs(30)).is_some());
}

#[cfg(unix)]
#[test]
fn ctrl_c_cancels_the_searches_and_stops_the_server() {
    let mut s = Server::start(&[]);
    let (_, mut stream) = s.stream("position=h8%20i9&time=120s");
    assert_eq!(next_event(&mut *stream).unwrap().0, "iteration");
    let start = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &s.pid().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let mut out = String::new();
    s.stdout.read_to_string(&mut out).unwrap();
    assert!(out.contains("stopped"), "{out}");
    eprintln!("stopped after {:?}", start.elapsed());
}

#[test]
fn another_host_than_loopback_warns() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--port", "0", "--host", "0.0.0.0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.contains("warning") && line.contains("not loopback"),
        "{line}"
    );
}
