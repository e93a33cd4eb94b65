#![no_main]

// The body is `tengen::commands::fuzzing::sgf`, which `tests/it/fuzz_corpus.rs` replays on stable.
libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen::commands::fuzzing::sgf(data));
