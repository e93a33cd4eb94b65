use tengen::board::{Color, Point};
use tengen::input::{LoadOptions, Source, load};
use tengen::pattern;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let source = Source::from_arg(&args[1]).unwrap();
    let mut b = load(
        &source,
        &LoadOptions {
            id: Some(args[2].clone()),
            ..Default::default()
        },
    )
    .unwrap()
    .board;
    let attacker = b.to_move();
    for (k, m) in args[3].split_whitespace().enumerate() {
        let p: Point = m.parse().unwrap();
        let side = b.to_move();
        let f = if side == Color::Black {
            pattern::foul(&b, p)
        } else {
            None
        };
        let class = pattern::class(&b, p, side);
        b.play(p);
        let a5: Vec<String> = b
            .five_points(attacker)
            .iter()
            .map(|i| Point::from_index(i).to_string())
            .collect();
        let d5: Vec<String> = b
            .five_points(attacker.opponent())
            .iter()
            .map(|i| Point::from_index(i).to_string())
            .collect();
        println!(
            "{:>2} {side} {p}: foul {f:?} class {class:?} -> attacker fives {a5:?} defender fives {d5:?}",
            k + 1
        );
    }
}
