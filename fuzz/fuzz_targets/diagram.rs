#![no_main]

// The body is `tengen::fuzzing::diagram`, which `tests/it/fuzz_corpus.rs` replays on stable.
libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen::fuzzing::diagram(data));
