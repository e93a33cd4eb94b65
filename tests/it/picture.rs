//! Pictures through the binary: `--format png` decoded and its pixels checked where the stones
//! and the labels must be, `--format svg` parsed, and `-o` written through the safe writer.

use tengen::board::Point;
use tengen::report::picture::{CELL, MARGIN, centre};

use crate::{run, tengen};

/// A position with a clear best move for black (an open three to make four of).
const POSITION: &str = "h8 h9 i8 i9 j8 j9";

fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn pixel(img: &(u32, u32, Vec<u8>), x: f64, y: f64) -> [u8; 3] {
    let (w, _, data) = img;
    let i = ((y.round() as u32 * w + x.round() as u32) * 4) as usize;
    [data[i], data[i + 1], data[i + 2]]
}

/// Pixels in the cell around `p` close to the labels' blue.
fn label_pixels(img: &(u32, u32, Vec<u8>), p: Point) -> usize {
    let (cx, cy) = centre(15, p);
    let half = CELL / 2.0 - 2.0;
    let mut n = 0;
    let mut y = cy - half;
    while y < cy + half {
        let mut x = cx - half;
        while x < cx + half {
            let [r, g, b] = pixel(img, x, y);
            if r < 90 && g < 130 && b > 170 {
                n += 1;
            }
            x += 1.0;
        }
        y += 1.0;
    }
    n
}

fn png_of(args: &[&str]) -> (u32, u32, Vec<u8>) {
    let out = tengen().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    decode(&out.stdout)
}

#[test]
fn a_png_board_has_its_stones_and_the_top_moves_label_where_they_are() {
    // The analysis's best move, from its JSON, and the same analysis as a picture.
    let analyze = |format: &str| {
        let mut args = vec![
            "analyze",
            POSITION,
            "--depth",
            "3",
            "--threads",
            "1",
            "--top",
            "1",
        ];
        args.extend(["--format", format]);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let args = analyze("json");
    let (code, out, err) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let best: Point = doc["candidates"][0]["move"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let args = analyze("png");
    let img = png_of(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let side = 2.0 * MARGIN + 14.0 * CELL;
    assert_eq!(img.0, side as u32);
    // A black stone's centre is dark; a white stone's (not the last move, which carries a
    // red dot) is light; an empty point off the stones shows the wood.
    let (bx, by) = centre(15, "h8".parse().unwrap());
    assert!(
        pixel(&img, bx, by).iter().all(|&c| c < 60),
        "{:?}",
        pixel(&img, bx, by)
    );
    let (wx, wy) = centre(15, "h9".parse().unwrap());
    assert!(
        pixel(&img, wx, wy).iter().all(|&c| c > 200),
        "{:?}",
        pixel(&img, wx, wy)
    );
    let (ex, ey) = centre(15, "b14".parse().unwrap());
    let [r, g, b] = pixel(&img, ex + 9.0, ey + 9.0);
    assert!(r > 180 && g > 140 && b < 130, "{:?}", [r, g, b]);
    // The rank label "1" is drawn on the best move, and on no other point near the stones.
    assert!(label_pixels(&img, best) > 10, "no label at {best}");
    for other in ["e5", "m12", "f10", "k11"] {
        let p: Point = other.parse().unwrap();
        if p != best {
            assert_eq!(label_pixels(&img, p), 0, "a label at {other}");
        }
    }
}

#[test]
fn svg_pictures_parse_for_every_command() {
    for args in [
        vec!["show", POSITION, "--numbers"],
        vec!["forbidden", "h8 a1 i8 a2 h9 a3 i9 a4", "--rule", "renju"],
        vec![
            "analyze",
            POSITION,
            "--depth",
            "2",
            "--threads",
            "1",
            "--heatmap",
        ],
        vec!["solve", "--vcf", "h8 a1 i8 o1 j8 a15 k9 o15 k10 c1"],
        vec!["review", "h8 h9 i8 i9 j8 j9 k8", "--depth", "2"],
    ] {
        let mut all = args.clone();
        all.extend(["--format", "svg"]);
        let (code, out, err) = run(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.starts_with("<svg"), "{args:?}");
        let tree = resvg::usvg::Tree::from_str(&out, &resvg::usvg::Options::default())
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert!(tree.size().width() >= 500.0, "{args:?}");
    }
}

#[test]
fn a_review_picture_has_the_graph_and_a_board_for_each_blunder() {
    let (code, out, err) = run(&[
        "review",
        "h8 h9 i8 i9 j8 a1 k8",
        "--depth",
        "2",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0, "{err}");
    // White's a1 lets black's open four through: one blunder, so the graph and one board.
    assert_eq!(out.matches("<g transform").count(), 2, "{out}");
    assert!(out.contains("stroke-dasharray"), "the graph's 50% line");
}

#[test]
fn o_writes_the_picture_safely_and_refuses_to_replace_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.png");
    let p = path.to_str().unwrap();
    let (code, _, err) = run(&["show", POSITION, "--format", "png", "-o", p]);
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read(&path).unwrap();
    assert_eq!(&first[1..4], b"PNG");
    let (code, _, err) = run(&["show", "h8", "--format", "png", "-o", p]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), first, "the file was changed");
    let (code, _, err) = run(&["show", "h8", "--format", "png", "-o", p, "--force"]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(std::fs::read(&path).unwrap(), first);
}
