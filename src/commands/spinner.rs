//! A spinner on standard error for the solvers' long runs (`solve`, `bench`): after half a
//! second it shows what is running, the phase (search or verify), the positions searched,
//! nodes per second and the time, from the counters of [`crate::solve::progress`]. It draws
//! only when asked (standard error is a terminal), so piped output stays clean.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::solve::progress::{self, Phase};

/// How long a run goes before the spinner shows.
const QUIET: Duration = Duration::from_millis(500);

/// A running spinner; [`Spinner::finish`] (or dropping it) clears it.
pub struct Spinner {
    label: Arc<Mutex<String>>,
    bar: Arc<Mutex<Option<ProgressBar>>>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts a spinner that draws when `enabled`; otherwise it does nothing.
    pub fn start(enabled: bool) -> Spinner {
        let label = Arc::new(Mutex::new(String::new()));
        let bar = Arc::new(Mutex::new(None));
        if !enabled {
            return Spinner {
                label,
                bar,
                stop: None,
                thread: None,
            };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let (shown, drawn) = (Arc::clone(&label), Arc::clone(&bar));
        let thread = std::thread::spawn(move || run(&rx, &shown, &drawn));
        Spinner {
            label,
            bar,
            stop: Some(tx),
            thread: Some(thread),
        }
    }

    /// Runs `f` (which prints) with the spinner hidden.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        let bar = self.bar.lock().ok().and_then(|b| b.clone());
        match bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Says what runs now (a puzzle id, say).
    pub fn label(&self, text: &str) {
        if self.thread.is_some()
            && let Ok(mut label) = self.label.lock()
        {
            text.clone_into(&mut label);
        }
    }

    /// Stops and clears the spinner.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// The display thread: waits out the quiet time, then redraws ten times a second until told
/// to stop (or the spinner is dropped).
fn run(stop: &mpsc::Receiver<()>, label: &Mutex<String>, shared: &Mutex<Option<ProgressBar>>) {
    let start = Instant::now();
    let first = progress::nodes();
    let mut bar: Option<ProgressBar> = None;
    let (mut last_nodes, mut last_time, mut rate) = (first, start, 0.0);
    loop {
        let wait = if bar.is_some() {
            Duration::from_millis(100)
        } else {
            QUIET
        };
        match stop.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
        }
        let bar = bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            if let Ok(mut shared) = shared.lock() {
                *shared = Some(b.clone());
            }
            b
        });
        let now = Instant::now();
        let nodes = progress::nodes();
        let dt = now.duration_since(last_time).as_secs_f64();
        if dt >= 0.5 {
            rate = (nodes - last_nodes) as f64 / dt;
            (last_nodes, last_time) = (nodes, now);
        }
        let label = label.lock().map(|l| l.clone()).unwrap_or_default();
        let sep = if label.is_empty() { "" } else { " · " };
        let work = match progress::phase() {
            Phase::Search => format!(
                "search · {} nodes · {}/s",
                count(nodes - first),
                count(rate as u64)
            ),
            // The verifier replays the proof against every defence; its own replays are not
            // counted as nodes.
            Phase::Verify => format!("verify · {} nodes searched", count(nodes - first)),
        };
        bar.set_message(format!(
            "{label}{sep}{work} · {:.1} s",
            start.elapsed().as_secs_f64()
        ));
        bar.tick();
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// A count in a few characters: 950, 12.3k, 4.56M.
fn count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}
