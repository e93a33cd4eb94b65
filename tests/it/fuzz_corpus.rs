//! Replays the fuzz targets' committed inputs on the stable toolchain: every file of
//! `fuzz/corpus/<target>/` (the seed corpus) and of `fuzz/artifacts/<target>/` (minimised crashes,
//! when there are any) through the target's body in `tengen::commands::fuzzing`, so a fixed crash stays
//! fixed without nightly or libFuzzer. A panic fails the test and names the file.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// The files of `dir`, sorted; empty when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".into())
}

/// Runs every corpus and artifact file of `target` through `body`; fails when the corpus is
/// missing or empty, or when any file panics (listing each).
fn replay(target: &str, body: fn(&[u8])) {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let corpus = files(&fuzz.join("corpus").join(target));
    assert!(
        !corpus.is_empty(),
        "fuzz/corpus/{target}/ is missing or empty: the seed corpus must be committed"
    );
    let artifacts = files(&fuzz.join("artifacts").join(target));
    let mut failures = Vec::new();
    for path in corpus.iter().chain(&artifacts) {
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| body(&data))) {
            failures.push(format!(
                "{}: {}",
                path.strip_prefix(&fuzz).unwrap_or(path).display(),
                message(panic.as_ref())
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs of fuzz target '{target}' panic:\n{}",
        failures.len(),
        corpus.len() + artifacts.len(),
        failures.join("\n")
    );
}

#[test]
fn moves() {
    replay("moves", tengen::commands::fuzzing::moves);
}

#[test]
fn diagram() {
    replay("diagram", tengen::commands::fuzzing::diagram);
}

#[test]
fn psq() {
    replay("psq", tengen::commands::fuzzing::psq);
}

#[test]
fn sgf() {
    replay("sgf", tengen::commands::fuzzing::sgf);
}

#[test]
fn puzzle() {
    replay("puzzle", tengen::commands::fuzzing::puzzle);
}

#[test]
fn detect() {
    replay("detect", tengen::commands::fuzzing::detect);
}

#[test]
fn roundtrip() {
    replay("roundtrip", tengen::commands::fuzzing::roundtrip);
}

#[test]
fn protocol() {
    replay("protocol", tengen::commands::fuzzing::protocol);
}
