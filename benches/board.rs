//! Make and unmake: the cost of putting a stone on the board and taking it off, which the
//! alpha-beta search, the VCF and VCT solvers and the verifier all spend most of their time
//! in. `cargo bench --bench board`.

use tengen::board::{Board, Point, Rule};

fn main() {
    divan::main();
}

/// A middle-game position of `puzzles/midgame.txt` under `rule`.
fn midgame(rule: Rule) -> Board {
    let mut b = Board::new(15, rule).unwrap();
    for m in "h8 g7 i9 h9 j10 k11 i8 j8 i7 i10 j11 i5 j12 j13 j5 j6".split_whitespace() {
        b.play(m.parse::<Point>().unwrap());
    }
    b
}

/// The empty points within two steps of a stone.
fn near(b: &Board) -> Vec<Point> {
    b.empty_points()
        .filter(|p| {
            b.points().any(|q| {
                b.get(q).is_some()
                    && (p.x() as i32 - q.x() as i32).abs() <= 2
                    && (p.y() as i32 - q.y() as i32).abs() <= 2
            })
        })
        .collect()
}

/// One play and one undo at every empty point near the stones.
#[divan::bench(args = [Rule::Freestyle, Rule::Renju])]
fn play_undo_each_point(bencher: divan::Bencher, rule: Rule) {
    let mut b = midgame(rule);
    let points = near(&b);
    bencher
        .counter(divan::counter::ItemsCount::new(points.len()))
        .bench_local(|| {
            for &p in &points {
                b.play(p);
                b.undo();
            }
            divan::black_box(b.hash())
        });
}

/// Eight nested plays, then eight undos, along a line of the points near the stones.
#[divan::bench(args = [Rule::Freestyle, Rule::Renju])]
fn nested_eight(bencher: divan::Bencher, rule: Rule) {
    let mut b = midgame(rule);
    let points = near(&b);
    bencher
        .counter(divan::counter::ItemsCount::new(points.len() / 8 * 8))
        .bench_local(|| {
            for chunk in points.chunks_exact(8) {
                for &p in chunk {
                    b.play(p);
                }
                for _ in chunk {
                    b.undo();
                }
            }
            divan::black_box(b.hash())
        });
}
