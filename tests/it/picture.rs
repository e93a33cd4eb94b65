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
        // Every picture names itself and says what it shows, for screen readers and tests.
        for tag in ["title", "desc"] {
            assert!(
                !element(&out, tag).trim().is_empty(),
                "{args:?}: no <{tag}>"
            );
        }
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

// ---- Pictures that say what the text says (issue 59, items 5 and 6) ----

const VCF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vcf.txt");
const VCT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/vct.txt");
const MIDGAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/midgame.txt");

/// Runs the tool and returns its standard output, asserting exit 0.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    serde_json::from_str(&ok(&all)).unwrap()
}

fn svg(args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--format", "svg"]);
    ok(&all)
}

/// The text between the document's first `<tag>` and `</tag>`, unescaped.
fn element(svg: &str, tag: &str) -> String {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let (_, rest) = svg
        .split_once(&open)
        .unwrap_or_else(|| panic!("no <{tag}>: {svg}"));
    let (inner, _) = rest.split_once(&close).unwrap();
    inner
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The attributes of every `<name ...>` element whose class list contains `class`.
fn with_class(
    svg: &str,
    name: &str,
    class: &str,
) -> Vec<std::collections::HashMap<String, String>> {
    let start = format!("<{name} ");
    svg.split(&start)
        .skip(1)
        .map(|rest| {
            let body = rest.split('>').next().unwrap();
            let mut attrs = std::collections::HashMap::new();
            for pair in body.split("\" ") {
                if let Some((k, v)) = pair.trim().split_once("=\"") {
                    attrs.insert(k.to_string(), v.trim_end_matches(['"', '/']).to_string());
                }
            }
            attrs
        })
        .filter(|a| {
            a.get("class")
                .is_some_and(|c| c.split(' ').any(|c| c == class))
        })
        .collect()
}

/// The board point nearest to pixel (`x`, `y`) of a 15x15 picture.
fn point_at(x: f64, y: f64) -> Point {
    let col = ((x - MARGIN) / CELL).round() as u8;
    let row = 14 - ((y - MARGIN) / CELL).round() as u8;
    Point::new(col, row).unwrap()
}

fn num(attrs: &std::collections::HashMap<String, String>, key: &str) -> f64 {
    attrs[key].parse().unwrap()
}

/// The points under the picture's stones (of the board and of a drawn line).
fn stones(svg: &str) -> Vec<Point> {
    with_class(svg, "circle", "stone")
        .iter()
        .map(|a| point_at(num(a, "cx"), num(a, "cy")))
        .collect()
}

/// The centre of a path's strokes (the middle of its bounding box).
fn path_centre(d: &str) -> (f64, f64) {
    let nums: Vec<f64> = d
        .split(['M', 'L', ' '])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let (xs, ys): (Vec<f64>, Vec<f64>) = nums.chunks(2).map(|c| (c[0], c[1])).unzip();
    let mid = |v: &[f64]| {
        let lo = v.iter().cloned().fold(f64::MAX, f64::min);
        let hi = v.iter().cloned().fold(f64::MIN, f64::max);
        (lo + hi) / 2.0
    };
    (mid(&xs), mid(&ys))
}

fn crosses(svg: &str) -> Vec<Point> {
    with_class(svg, "path", "cross")
        .iter()
        .map(|a| {
            let (x, y) = path_centre(&a["d"]);
            point_at(x, y)
        })
        .collect()
}

/// The headline of a text solve report: its first line after the `# id` line.
fn headline(args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--color", "never"]);
    let out = ok(&all);
    out.lines()
        .find(|l| !l.starts_with('#'))
        .unwrap()
        .to_string()
}

#[test]
fn issue_59_a_solve_picture_counts_the_winners_moves_as_the_text_does() {
    for args in [
        vec!["solve", VCF, "--id", "tengen/vcf-renju-3", "--vcf"],
        vec!["solve", VCT, "--id", "tengen/vct-renju-5", "--vct"],
        vec![
            "solve",
            VCT,
            "--id",
            "tengen/vct-freestyle-2",
            "--win-in",
            "5",
        ],
        vec![
            "solve",
            crate::EXAMPLES,
            "--id",
            "tengen/foul-trap",
            "--vcf",
        ],
    ] {
        let doc = json(&args);
        let moves = doc["moves_to_five"].as_u64().unwrap() as usize;
        let plies = doc["line"].as_array().unwrap().len();
        assert!(moves > 0, "{args:?}: a win");
        let picture = svg(&args);
        let title = element(&picture, "title");
        assert_eq!(title, headline(&args), "{args:?}");
        let count = if moves == 1 {
            "1 move".to_string()
        } else {
            format!("{moves} moves")
        };
        // A proof's longest line is a bound: "in at most N moves".
        assert!(
            title.contains(&format!("in {count}"))
                || title.contains(&format!("in at most {count}")),
            "{args:?}: {title}"
        );
        // A line of more than one move has more plies than the winner's moves: the
        // caption must not count the plies.
        if plies > 1 {
            assert!(
                !title.contains(&format!("{plies} moves")),
                "{args:?}: {title}"
            );
        }
        let desc = element(&picture, "desc");
        assert!(
            desc.contains("rule ") && desc.contains(" to move"),
            "{desc}"
        );
    }
}

#[test]
fn issue_59_no_cross_is_drawn_on_a_stone() {
    // Black's j8 is forbidden before the line, and white's sixth move takes it.
    let args = ["solve", VCT, "--id", "tengen/vct-renju-5", "--vct"];
    let line: Vec<Point> = json(&args)["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().parse().unwrap())
        .collect();
    let fouls: Vec<Point> = json(&["forbidden", VCT, "--id", "tengen/vct-renju-5"])["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["point"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        fouls.iter().any(|p| line.contains(p)),
        "the case: a forbidden point the line covers"
    );
    let picture = svg(&args);
    let (taken, crossed) = (stones(&picture), crosses(&picture));
    assert!(
        !crossed.is_empty(),
        "the forbidden points the line leaves empty"
    );
    for p in &crossed {
        assert!(!taken.contains(p), "a cross on the stone at {p}");
        assert!(fouls.contains(p), "a cross at {p}, not forbidden");
    }
    // White's four whose only block is forbidden: the cross is where black would block.
    let args = [
        "solve",
        crate::EXAMPLES,
        "--id",
        "tengen/foul-trap",
        "--vcf",
    ];
    let picture = svg(&args);
    let crossed = crosses(&picture);
    assert!(crossed.contains(&"c8".parse().unwrap()), "{crossed:?}");
    let taken = stones(&picture);
    assert!(crossed.iter().all(|p| !taken.contains(p)));
}

#[test]
fn issue_59_stones_are_numbered_only_with_numbers() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/renju-2.sgf");
    let numbers = |svg: &str| with_class(svg, "path", "number").len();
    let plain = svg(&["show", game]);
    assert_eq!(numbers(&plain), 0, "numbers without --numbers");
    let numbered = svg(&["show", game, "--numbers"]);
    assert_eq!(numbers(&numbered), stones(&numbered).len());
    assert!(numbers(&numbered) > 20);
    // A solve numbers its line (as the text does), and the record only with --numbers, the
    // line then going on from the record's last number.
    let args = ["solve", VCF, "--id", "tengen/vcf-renju-3", "--vcf"];
    let plies = json(&args)["line"].as_array().unwrap().len();
    assert_eq!(numbers(&svg(&args)), plies);
    let mut with = args.to_vec();
    with.push("--numbers");
    let picture = svg(&with);
    let record = with_class(&picture, "circle", "stone").len() - plies;
    let desc = element(&picture, "desc");
    assert!(
        desc.contains(&format!("numbered {} to {}", record + 1, record + plies)),
        "{desc}"
    );
    assert!(numbers(&picture) >= plies);
}

#[test]
fn issue_59_the_heat_map_has_a_scale_and_its_colours_follow_the_scores() {
    let args = [
        "analyze",
        MIDGAME,
        "--id",
        "tengen/midgame-renju-3",
        "--depth",
        "4",
        "--threads",
        "1",
        "--heatmap",
    ];
    for all in [false, true] {
        let mut args = args.to_vec();
        if all {
            args.push("--all");
        }
        let doc = json(&args);
        let picture = svg(&args);
        // The scale: ten bands from 0% to 100%, each a distinct colour.
        let scale = with_class(&picture, "rect", "scale");
        assert_eq!(scale.len(), 10, "the scale's bands");
        let band_of = |fill: &str| {
            scale
                .iter()
                .position(|b| b["fill"] == fill)
                .unwrap_or_else(|| panic!("a tile coloured {fill}, not on the scale"))
        };
        assert_eq!(
            (num(&scale[0], "data-from"), num(&scale[9], "data-to")),
            (0.0, 100.0)
        );
        let desc = element(&picture, "desc");
        assert!(desc.contains("black's win chance"), "{desc}");
        let banded = |class: &str| -> std::collections::HashMap<Point, usize> {
            with_class(&picture, "rect", class)
                .iter()
                .map(|t| {
                    let x = num(t, "x") + num(t, "width") / 2.0;
                    let y = num(t, "y") + num(t, "height") / 2.0;
                    (point_at(x, y), band_of(&t["fill"]))
                })
                .collect()
        };
        let tiles = banded("heat");
        // A bound that places its move is coloured as its ceiling, under stripes.
        let capped = banded("capped");
        let in_band = |p: Point, band: usize, win: f64| {
            let (from, to) = (num(&scale[band], "data-from"), num(&scale[band], "data-to"));
            assert!(
                win >= from - 0.05 && win <= to + 0.05,
                "{p}: {win}% in band {from}-{to}"
            );
        };
        let bounds: Vec<Point> = with_class(&picture, "rect", "bound")
            .iter()
            .map(|t| {
                point_at(
                    num(t, "x") + num(t, "width") / 2.0,
                    num(t, "y") + num(t, "height") / 2.0,
                )
            })
            .collect();
        let mut ranked = Vec::new();
        for c in doc["candidates"].as_array().unwrap() {
            let p: Point = c["move"].as_str().unwrap().parse().unwrap();
            let exact = c["bound"] == "exact" || !c["mate_in"].is_null();
            // The tile's band holds the move's win chance (JSON rounds it to 0.1%).
            let win = c["win_prob"].as_f64().unwrap() * 100.0;
            if !exact {
                assert!(!tiles.contains_key(&p));
                match capped.get(&p) {
                    Some(&band) => in_band(p, band, win),
                    None => assert!(bounds.contains(&p), "{p}: a bound striped or hatched"),
                }
                continue;
            }
            in_band(p, tiles[&p], win);
            let band = tiles[&p];
            if c["rank"].as_u64().unwrap() <= 5 {
                ranked.push((p, band));
            }
        }
        assert!(ranked.len() >= 2, "ranked moves coloured");
        // A higher-ranked move never looks colder than a lower one.
        for pair in ranked.windows(2) {
            assert!(pair[0].1 >= pair[1].1, "{pair:?}");
        }
        // The hatching and the stripes are on the scale exactly when they are on the board.
        let note = |class: &str| !with_class(&picture, "rect", class).is_empty();
        assert_eq!(note("scale-bound"), !bounds.is_empty(), "all: {all}");
        assert_eq!(note("scale-capped"), !capped.is_empty(), "all: {all}");
        if all {
            assert!(
                bounds.is_empty() && capped.is_empty(),
                "--all scores every point exactly"
            );
        } else {
            assert!(
                !capped.is_empty(),
                "the bounds below the table are striped, not hatched"
            );
        }
    }
}

#[test]
fn issue_59_the_win_graph_says_whose_chance_it_shows() {
    let picture = svg(&["review", "h8 h9 i8 i9 j8 a1 k8", "--depth", "2"]);
    assert_eq!(
        element(&picture, "title"),
        "black's win chance after each move"
    );
    let desc = element(&picture, "desc");
    // White's a1, the sixth move, lets black's four through: its board follows the graph.
    assert!(
        desc.contains("then move 6 white a1"),
        "the boards after it are listed: {desc}"
    );
}

#[test]
fn issue_59_the_forbidden_caption_agrees_in_number() {
    for (position, count) in [
        ("h8 a1 i8 a3 j10 a5 j11 a7", 1),
        ("h8 a1 i8 a2 h9 a3 i9 a4", 0),
    ] {
        let args = ["forbidden", position, "--rule", "renju"];
        let points = json(&args)["points"].as_array().unwrap().len();
        assert_eq!(points, count, "{position}");
        let title = element(&svg(&args), "title");
        let expected = match points {
            0 => "no forbidden points".to_string(),
            1 => "1 forbidden point".to_string(),
            n => format!("{n} forbidden points"),
        };
        assert_eq!(title, expected);
    }
    let args = ["forbidden", VCT, "--id", "tengen/vct-renju-5"];
    let points = json(&args)["points"].as_array().unwrap().len();
    assert_eq!(
        element(&svg(&args), "title"),
        format!("{points} forbidden points")
    );
    assert_eq!(crosses(&svg(&args)).len(), points);
}
