#![no_main]

// The body is `tengen::fuzzing::sgf`, which `tests/it/fuzz_corpus.rs` replays on stable.
libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen::fuzzing::sgf(data));
