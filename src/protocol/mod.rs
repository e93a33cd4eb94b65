//! The Gomocup (Piskvork) protocol front end: `tengen brain`, installed also as
//! `pbrain-tengen`, plays in the GUIs (Piskvork, qpiskvork, Yixin-Board) and match runners
//! (c-gomoku-cli) that speak it.
//!
//! One command a line on standard input, answers on standard output. Protocol coordinates are
//! `x,y`, 0-based, `x` from the left and `y` from the **top**; they become points only in
//! [`brain`]. Layers: [`read_line`] (bytes to a bounded line of text), [`command::parse`] (text
//! to a [`command::Line`]), [`brain::Brain`] (the state machine and the analyzer), [`clock`]
//! (how long a move may take).
//!
//! [`run`] reads on a thread of its own, so a `STOP` (or `YXSTOP`, `END`, the end of input)
//! reaches a search while it runs: the reader raises the brain's cancel flag at once, and the
//! brain answers with the best move so far.

pub mod brain;
pub mod clock;
pub mod command;

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Instant;

pub use brain::{Brain, BrainOptions, Flow};
use command::{BadLine, Line};

use crate::solve::Cancel;

/// The longest line read whole; a longer one is skipped and answered with an error.
pub const MAX_LINE: usize = 4096;

/// Reads one line of at most [`MAX_LINE`] bytes (the rest of a longer line is consumed and
/// dropped). `None` at the end of input (or a read error, which ends input too).
pub fn read_line(input: &mut impl BufRead) -> Option<Result<String, BadLine>> {
    let mut line = Vec::new();
    let mut long = false;
    let mut seen = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buf.is_empty() {
            break;
        }
        seen = true;
        let (chunk, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        if chunk.len() > room {
            long = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = ends.unwrap_or(buf.len());
        input.consume(used);
        if ends.is_some() {
            break;
        }
    }
    if !seen {
        return None;
    }
    if long {
        return Some(Err(BadLine(format!(
            "a line longer than {MAX_LINE} bytes was ignored"
        ))));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(match String::from_utf8(line) {
        Ok(s) if s.contains('\0') => Err(BadLine("a line with a NUL byte was ignored".into())),
        Ok(s) => Ok(s),
        Err(_) => Err(BadLine("a line that is not UTF-8 text was ignored".into())),
    })
}

/// A line read, parsed.
fn parse(read: Result<String, BadLine>) -> Result<Line, BadLine> {
    read.and_then(|s| command::parse(&s))
}

/// Whether a line asks a running search to stop (and so is counted as a pending stop).
fn stops(line: &Option<Result<Line, BadLine>>) -> bool {
    matches!(line, None | Some(Ok(Line::Stop | Line::End)))
}

/// Runs the protocol over `input` and `out` until `END` or the end of input: a reader thread
/// parses lines and raises the cancel flag for a stop; this thread runs the brain.
pub fn run(
    input: impl BufRead + Send + 'static,
    out: impl Write,
    options: BrainOptions,
) -> io::Result<()> {
    let cancel = Cancel::new();
    let pending = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(Instant, Option<Result<Line, BadLine>>)>();
    {
        let pending = Arc::clone(&pending);
        let mut input = input;
        // The reader is not joined: at `END` it may be blocked reading, and the process ends.
        std::thread::spawn(move || {
            loop {
                let line = read_line(&mut input).map(parse);
                let end = line.is_none();
                if stops(&line) {
                    pending.fetch_add(1, Relaxed);
                    cancel.set(true);
                }
                if tx.send((Instant::now(), line)).is_err() || end {
                    break;
                }
            }
        });
    }
    let mut brain = Brain::new(out, options, cancel, Arc::clone(&pending));
    loop {
        // A quiet moment (no line waiting) goes to the brain's preparations.
        let (at, line) = match rx.try_recv() {
            Ok(got) => got,
            Err(mpsc::TryRecvError::Empty) => {
                brain.idle();
                match rx.recv() {
                    Ok(got) => got,
                    Err(_) => break,
                }
            }
            Err(mpsc::TryRecvError::Disconnected) => break,
        };
        brain.received(at);
        let was_stop = stops(&line);
        let flow = match line {
            None => Flow::Exit,
            Some(line) => brain.handle(line)?,
        };
        if was_stop {
            pending.fetch_sub(1, Relaxed);
        }
        if flow == Flow::Exit {
            break;
        }
    }
    Ok(())
}

/// Runs the protocol over `input` on this thread alone (a stop is then handled in turn, not
/// during a search): for tests and the fuzzer. Returns what the brain wrote.
pub fn run_script(input: &[u8], options: BrainOptions) -> Vec<u8> {
    // One flag a thread, made once: a script (a fuzz input) runs thousands of times a second,
    // and `Cancel::new` leaks its flag.
    thread_local! {
        static CANCEL: Cancel = Cancel::new();
    }
    let cancel = CANCEL.with(|c| *c);
    cancel.set(false);
    let mut reader = input;
    let mut brain = Brain::new(Vec::new(), options, cancel, Arc::new(AtomicUsize::new(0)));
    while let Some(read) = read_line(&mut reader) {
        // Each line's move clock starts as it is handled (see `Brain::received`).
        brain.received(Instant::now());
        match brain.handle(parse(read)) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Exit) | Err(_) => break,
        }
    }
    brain.output().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<String, BadLine>> {
        let mut r = input;
        std::iter::from_fn(|| read_line(&mut r)).collect()
    }

    #[test]
    fn lines_are_bounded_and_text() {
        let got = lines(b"START 15\r\nTURN 7,7\nlast");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].as_deref(), Ok("START 15"));
        assert_eq!(got[2].as_deref(), Ok("last"));
        let mut long = vec![b'A'; 3 * MAX_LINE];
        long.extend_from_slice(b"\nEND\n");
        let got = lines(&long);
        assert!(got[0].as_ref().unwrap_err().0.contains("longer than"));
        assert_eq!(got[1].as_deref(), Ok("END"));
        let got = lines(b"\xff\xfe\nOK\n");
        assert!(got[0].as_ref().unwrap_err().0.contains("UTF-8"));
        assert!(lines(b"").is_empty());
    }
}
