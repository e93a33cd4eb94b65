//! Builds the line-shape tables at compile time (see `src/board/shape.rs`): the builder is the
//! crate's own `src/board/shape_build.rs`, included here on its own, and each rule's table is
//! written to `OUT_DIR` for `include_bytes!`.

#[allow(dead_code)]
#[path = "src/board/shape_build.rs"]
mod shape_build;

fn main() {
    println!("cargo::rerun-if-changed=src/board/shape_build.rs");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Which colours win only with an exact five: [black, white].
    for (name, exact) in [
        ("freestyle", [false, false]),
        ("standard", [true, true]),
        ("renju", [true, false]),
    ] {
        let shapes = shape_build::build_shapes(exact);
        std::fs::write(out.join(format!("shapes-{name}.bin")), shapes)
            .expect("OUT_DIR is writable");
    }
}
