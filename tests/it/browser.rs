//! The page of `tengen serve` in a real browser: headless Chromium driven over WebDriver, as a
//! player uses it (click to play, watch the analysis deepen, hover a line, walk the record
//! with the keys, see renju's forbidden points, paste a game, solve, review and jump to a move).
//!
//! Ignored in a plain `cargo test`: it needs `chromium` and `chromedriver` (Debian's
//! `chromium-driver`). CI runs it with `cargo test --release --test it browser -- --ignored`.
//! `$CHROMEDRIVER` and `$CHROME_BIN` name other ones; the screenshots go to
//! `$TENGEN_SCREENS`, else `target/serve-screens`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

use crate::serve::Server;

/// The key W3C WebDriver names an element's reference by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process and one browser session in it, both ended when dropped.
struct Browser {
    driver: Child,
    session: String,
    base: String,
    agent: ureq::Agent,
    screens: PathBuf,
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

impl Browser {
    fn start() -> Browser {
        let port = free_port();
        let exe = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let driver = Command::new(&exe)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("{exe}: {e} (install chromium-driver, or set CHROMEDRIVER)")
            });
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let base = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        while agent.get(format!("{base}/status")).call().is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver never listened"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut options = json!({
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"]
        });
        let chrome = std::env::var("CHROME_BIN").unwrap_or_else(|_| "/usr/bin/chromium".into());
        if std::path::Path::new(&chrome).exists() {
            options["binary"] = json!(chrome);
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options
        }}});
        let screens = std::env::var_os("TENGEN_SCREENS")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/serve-screens")
            });
        std::fs::create_dir_all(&screens).unwrap();
        let mut b = Browser {
            driver,
            session: String::new(),
            base,
            agent,
            screens,
        };
        let answer = b.call("POST", "/session", caps);
        b.session = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        b
    }

    /// One WebDriver command: its `value`, or the WebDriver error's `value`.
    fn call_raw(&self, method: &str, path: &str, body: Value) -> Result<Value, Value> {
        let url = format!("{}{path}", self.base);
        let resp = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.to_string()),
        };
        let text = resp.unwrap().body_mut().read_to_string().unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        if doc["value"]["error"].is_string() {
            Err(doc["value"].clone())
        } else {
            Ok(doc["value"].clone())
        }
    }

    /// One WebDriver command: its `value`, failing the test on a WebDriver error (but for a
    /// find, whose "no such element" is an answer).
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        match self.call_raw(method, path, body) {
            Ok(v) => v,
            Err(e) if path == format!("/session/{}/element", self.session) => e,
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }

    /// A command on the element `css` selects (`action`: the path after its id).
    fn on_element(&self, css: &str, method: &str, action: &str, body: Value) -> Value {
        self.with_fresh(css, action, |id| {
            let path = format!("/session/{}/element/{id}/{action}", self.session);
            (method, path, body.clone())
        })
    }

    /// The command `command` makes of the id of the element `css` selects, waiting up to
    /// 30 s for one; when the page redraws the element between the find and the command (a
    /// stale element, as the deepening analysis table does), it is found again.
    fn with_fresh<'m>(
        &self,
        css: &str,
        what: &str,
        command: impl Fn(&str) -> (&'m str, String, Value),
    ) -> Value {
        self.wait_for(&format!("{css} to {what}"), || {
            let (method, path, body) = command(&self.find(css)?);
            match self.call_raw(method, &path, body) {
                Ok(v) => Some(v),
                Err(e) if e["error"] == "stale element reference" => None,
                Err(e) => panic!("{method} {path}: {e}"),
            }
        })
    }

    /// The attribute `name` of the element `css` selects.
    fn attribute(&self, css: &str, name: &str) -> Option<String> {
        let v = self.on_element(css, "GET", &format!("attribute/{name}"), json!({}));
        v.as_str().map(str::to_string)
    }

    fn session_call(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn open(&self, url: &str) {
        self.session_call("POST", "/url", json!({ "url": url }));
    }

    /// The first element `css` selects now, if any.
    fn find(&self, css: &str) -> Option<String> {
        let v = self.session_call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        v[ELEMENT].as_str().map(str::to_string)
    }

    fn count(&self, css: &str) -> usize {
        let v = self.session_call(
            "POST",
            "/elements",
            json!({"using": "css selector", "value": css}),
        );
        v.as_array().map_or(0, Vec::len)
    }

    /// Waits up to 30 s for `css` to select something.
    fn wait(&self, css: &str) -> String {
        self.wait_for(css, || self.find(css))
    }

    /// Waits up to 30 s for `what` to give something, naming `about` when it never does.
    fn wait_for<T>(&self, about: &str, what: impl Fn() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(t) = what() {
                return t;
            }
            if start.elapsed() > Duration::from_secs(30) {
                self.screenshot("timed-out");
                panic!("waited 30 s for {about}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, css: &str) {
        self.on_element(css, "POST", "click", json!({}));
    }

    fn text(&self, css: &str) -> String {
        let v = self.on_element(css, "GET", "text", json!({}));
        v.as_str().unwrap_or_default().to_string()
    }

    /// Waits for the text of `css` to be `want`.
    fn wait_text(&self, css: &str, want: &str) {
        self.wait_for(&format!("{css} to read {want:?}"), || {
            (self.text(css) == want).then_some(())
        });
    }

    fn type_into(&self, css: &str, text: &str) {
        self.on_element(css, "POST", "clear", json!({}));
        self.on_element(css, "POST", "value", json!({ "text": text }));
    }

    /// Picks the option of the `select` whose value is `value`, as a click on it would.
    fn choose(&self, select: &str, value: &str) {
        self.click(&format!("{select} option[value=\"{value}\"]"));
    }

    /// Moves the pointer onto the middle of `css`.
    fn hover(&self, css: &str) {
        let path = format!("/session/{}/actions", self.session);
        self.with_fresh(css, "hover", |id| {
            let body = json!({"actions": [{"type": "pointer", "id": "mouse", "actions": [
                {"type": "pointerMove", "duration": 100, "origin": { ELEMENT: id }, "x": 0, "y": 0}
            ]}]});
            ("POST", path.clone(), body)
        });
    }

    /// The value a script run in the page returns (the page does not redraw while it runs).
    fn script(&self, js: &str) -> Value {
        self.session_call("POST", "/execute/sync", json!({ "script": js, "args": [] }))
    }

    /// Presses and releases `key` (a WebDriver key code such as "\u{E012}", the left arrow).
    fn press(&self, key: &str) {
        self.session_call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
            ]}]}),
        );
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let v = self.session_call("GET", "/screenshot", json!({}));
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap_or_default())
            .unwrap();
        let path = self.screens.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self
                .agent
                .delete(format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The depth `#progress` shows, once an analysis has come.
fn shown_depth(b: &Browser) -> Option<u64> {
    let t = b.text("#progress");
    t.strip_prefix("depth ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[test]
#[ignore = "needs chromium and chromedriver; CI runs it with --ignored"]
fn a_player_uses_the_board_in_a_browser() {
    let s = Server::start(&["--searches", "2"]);
    let b = Browser::start();
    b.open(&format!("{}/", s.base));
    b.wait("#board rect.hit[data-p=\"h8\"]");
    assert_eq!(b.text("#move-number"), "0 / 0");
    b.screenshot("1-loaded");

    // Two clicks play two stones; the analysis of the position after them deepens live.
    b.click("rect.hit[data-p=\"h8\"]");
    b.wait("g.stone.black[data-p=\"h8\"]");
    b.click("rect.hit[data-p=\"i9\"]");
    b.wait("g.stone.white[data-p=\"i9\"]");
    b.wait_text("#move-number", "2 / 2");
    assert!(
        b.text("#status").starts_with("black to move"),
        "{}",
        b.text("#status")
    );
    b.wait("#analysis tbody tr");
    let first = b.wait_for("a depth", || shown_depth(&b));
    let deeper = b.wait_for("a deeper analysis", || {
        shown_depth(&b).filter(|d| *d > first)
    });
    assert!(deeper > first);
    assert!(
        b.count("g.rank[data-rank]") >= 3,
        "the best moves are ranked on the board"
    );
    // Read in one script, so that both come from the same redraw of the deepening analysis.
    let shown = b.script(
        "return [document.querySelector('#analysis tbody tr:first-child td:nth-child(2)')\
         .textContent, document.querySelector('#headline').textContent];",
    );
    let (best, headline) = (shown[0].as_str().unwrap(), shown[1].as_str().unwrap());
    assert!(headline.starts_with(&format!("best {best}")), "{headline}");

    // Hovering a row shows its line on the board as numbered stones.
    b.hover("#analysis tbody tr:first-child");
    b.wait("g.pv");
    b.screenshot("2-analysis-hover");

    // The arrow keys walk the record.
    b.hover("#status");
    b.press("\u{E012}");
    b.wait_text("#move-number", "1 / 2");
    assert_eq!(b.count("g.stone"), 1);
    b.screenshot("3-walked-back");
    b.press("\u{E014}");
    b.wait_text("#move-number", "2 / 2");

    // Renju: black's forbidden points are marked, and a click on one is refused.
    b.choose("#paste-rule", "renju");
    b.type_into("#paste", "h8 a1 i9 a3 j8 a5 i7 a7");
    b.click("#load-button");
    b.wait_text("#move-number", "8 / 8");
    b.wait("g.forbidden");
    let forbidden = b.wait_for("a forbidden point", || b.attribute("g.forbidden", "data-p"));
    b.screenshot("4-renju-forbidden");
    b.click(&format!("rect.hit[data-p=\"{forbidden}\"]"));
    assert!(
        b.text("#message").contains("forbidden"),
        "{}",
        b.text("#message")
    );
    assert_eq!(b.text("#move-number"), "8 / 8");

    // A VCF is solved, and its line drawn on the board.
    b.choose("#paste-rule", "freestyle");
    b.type_into("#paste", "h8 a1 h9 a2 h10 a3");
    b.click("#load-button");
    b.wait_text("#move-number", "6 / 6");
    b.click("button.tab[data-tab=\"solve\"]");
    b.choose("#solve-mode", "vcf");
    b.click("#solve-button");
    b.wait_for("the solve's verdict", || {
        let t = b.text("#solve-result");
        t.contains("black wins").then_some(t)
    });
    assert!(
        b.text("#solve-result").contains("verified"),
        "{}",
        b.text("#solve-result")
    );
    b.wait("g.proof");
    b.screenshot("5-solve");

    // The second game of a pasted SGF file, then its review; a point of the graph is a move.
    let sgf = "(;GM[4]SZ[15]GN[one];B[hh];W[ii])\n\
               (;GM[4]SZ[15]GN[two];B[hh];W[hi];B[ih];W[gg];B[jg];W[ff];B[ki])";
    b.type_into("#paste-id", "2");
    b.type_into("#paste", sgf);
    b.click("#load-button");
    b.wait_text("#move-number", "7 / 7");
    b.screenshot("6-sgf-loaded");
    b.click("button.tab[data-tab=\"review\"]");
    b.choose("#review-time", "200ms");
    b.click("#review-button");
    b.wait("#graph circle.point[data-n=\"7\"]");
    assert_eq!(b.count("#graph circle.point"), 7);
    b.click("#graph circle.point[data-n=\"3\"]");
    b.wait_text("#move-number", "3 / 7");
    assert!(
        b.text("#review-status").contains("7 moves reviewed"),
        "{}",
        b.text("#review-status")
    );
    b.screenshot("7-review-graph-clicked");
    let shots = std::fs::read_dir(&b.screens).unwrap().count();
    eprintln!("screenshots: {} in {}", shots, b.screens.display());
}
