//! The names of the 26 canonical renju openings, for the first three moves of a game.
//!
//! An opening is black's first stone on the centre, white's second next to it and black's third
//! within the central 5x5 square. White's stone either touches the centre along a line
//! (**direct** openings, 1D to 13D) or on a diagonal (**indirect**, 1I to 13I); up to the
//! board's eight symmetries (rotations and reflections about the centre), black's third stone
//! then has 13 places in each case. The first stone must be the centre: a shape moved off it
//! is no opening.
//!
//! **Board sizes.** The names belong to renju's 15x15 board, where the centre is h8. They
//! describe a shape around the centre, so tengen gives them on any board with a centre point:
//! every odd size (j10 on 19x19). An even board has no centre point and no opening names. The
//! rule does not matter (gomoku players use the same names).
//!
//! **Only games.** The name comes from a game record's first three moves; a composed position
//! (a diagram, set-up stones) has no move order and gets no name.
//!
//! **Sources.** The numbers, names and the placement of the third stone follow the enumerated
//! diagrams of Wikipedia's "Renju opening pattern" (<https://en.wikipedia.org/wiki/Renju_opening_pattern>,
//! read through its mirrors wikimili.com/en/Renju_opening_pattern and jablog.org, which list 1I
//! Chosei … 13I Suisei with their kanji). The same 26 placements, in the same order, are
//! AbstractPlay's list of canonical renju openings (`canonicalOpenings` in
//! `src/games/renju.ts` of github.com/AbstractPlay/gameslib: `h8,h9,h10` … `h8,i9,f6`). Each
//! name's third stone was cross-checked against two more public programs that name every
//! opening by its stones (a Python renju interface's table of the 26 openings by kanji and cell,
//! and a Japanese renju app's 珠型 table, `opening.ts`): all three agree on all 26. (A crate on
//! crates.io, `gomoku`, assigns the names to other cells and says itself that it may not match
//! the printed diagrams; it was not used.)
//!
//! In RIF coordinates on 15x15, with white's stone above the centre (h9) for the direct
//! openings and above right (i9) for the indirect ones, black's third stone is:
//!
//! | | direct (h8 h9 …) | | indirect (h8 i9 …) |
//! | --- | --- | --- | --- |
//! | 1D Kansei 寒星 | h10 | 1I Chosei 長星 | j10 |
//! | 2D Keigetsu 渓月 | i10 | 2I Kyogetsu 峡月 | j9 |
//! | 3D Sosei 疎星 | j10 | 3I Kosei 恒星 | j8 |
//! | 4D Kagetsu 花月 | i9 | 4I Suigetsu 水月 | j7 |
//! | 5D Zangetsu 残月 | j9 | 5I Ryusei 流星 | j6 |
//! | 6D Ugetsu 雨月 | i8 | 6I Ungetsu 雲月 | i8 |
//! | 7D Kinsei 金星 | j8 | 7I Hogetsu 浦月 | i7 |
//! | 8D Shogetsu 松月 | h7 | 8I Rangetsu 嵐月 | i6 |
//! | 9D Kyugetsu 丘月 | i7 | 9I Gingetsu 銀月 | h7 |
//! | 10D Shingetsu 新月 | j7 | 10I Myojo 明星 | h6 |
//! | 11D Zuisei 瑞星 | h6 | 11I Shagetsu 斜月 | g7 |
//! | 12D Sangetsu 山月 | i6 | 12I Meigetsu 名月 | g6 |
//! | 13D Yusei 遊星 | j6 | 13I Suisei 彗星 | f6 |

use std::fmt;

use crate::board::{Board, Point};

/// Whether white's first stone touches the centre along a line or on a diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// White next to the centre along a row or column: openings 1D to 13D.
    Direct,
    /// White diagonally next to the centre: openings 1I to 13I.
    Indirect,
}

/// One of the 26 canonical openings: `4D Kagetsu` as [`Display`](fmt::Display) writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// Direct or indirect.
    pub kind: Kind,
    /// Its number, 1 to 13.
    pub number: u8,
    /// Its name, in the Latin letters renju players use (`Kagetsu`).
    pub name: &'static str,
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match self.kind {
            Kind::Direct => 'D',
            Kind::Indirect => 'I',
        };
        write!(f, "{}{letter} {}", self.number, self.name)
    }
}

/// The direct openings in order (1D first) and black's third stone, as `(x, y)` from the centre
/// (`y` up) with white's stone at `(0, 1)`.
const DIRECT: [(&str, (i8, i8)); 13] = [
    ("Kansei", (0, 2)),
    ("Keigetsu", (1, 2)),
    ("Sosei", (2, 2)),
    ("Kagetsu", (1, 1)),
    ("Zangetsu", (2, 1)),
    ("Ugetsu", (1, 0)),
    ("Kinsei", (2, 0)),
    ("Shogetsu", (0, -1)),
    ("Kyugetsu", (1, -1)),
    ("Shingetsu", (2, -1)),
    ("Zuisei", (0, -2)),
    ("Sangetsu", (1, -2)),
    ("Yusei", (2, -2)),
];

/// The indirect openings in order (1I first) and black's third stone, as `(x, y)` from the
/// centre (`y` up) with white's stone at `(1, 1)`.
const INDIRECT: [(&str, (i8, i8)); 13] = [
    ("Chosei", (2, 2)),
    ("Kyogetsu", (2, 1)),
    ("Kosei", (2, 0)),
    ("Suigetsu", (2, -1)),
    ("Ryusei", (2, -2)),
    ("Ungetsu", (1, 0)),
    ("Hogetsu", (1, -1)),
    ("Rangetsu", (1, -2)),
    ("Gingetsu", (0, -1)),
    ("Myojo", (0, -2)),
    ("Shagetsu", (-1, -1)),
    ("Meigetsu", (-1, -2)),
    ("Suisei", (-2, -2)),
];

/// White's stone of the table's direct and indirect openings, from the centre.
const DIRECT_WHITE: (i8, i8) = (0, 1);
const INDIRECT_WHITE: (i8, i8) = (1, 1);

/// Symmetry `t` of the square (bit 4: swap x and y, then 1: mirror x, 2: mirror y) applied to
/// an offset from the centre.
fn symmetry((x, y): (i8, i8), t: u8) -> (i8, i8) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { -x } else { x };
    let y = if t & 2 != 0 { -y } else { y };
    (x, y)
}

/// Every opening, 1D to 13D, then 1I to 13I.
pub fn all() -> impl Iterator<Item = Opening> {
    let named = |kind, table: &'static [(&'static str, (i8, i8)); 13]| {
        table.iter().enumerate().map(move |(k, (name, _))| Opening {
            kind,
            number: k as u8 + 1,
            name,
        })
    };
    named(Kind::Direct, &DIRECT).chain(named(Kind::Indirect, &INDIRECT))
}

/// The opening's three stones in the tables' orientation (black's first on the centre, white's
/// above it or above right), as offsets from the centre.
pub fn stones(opening: Opening) -> [(i8, i8); 3] {
    let (white, table) = match opening.kind {
        Kind::Direct => (DIRECT_WHITE, &DIRECT),
        Kind::Indirect => (INDIRECT_WHITE, &INDIRECT),
    };
    [(0, 0), white, table[opening.number as usize - 1].1]
}

/// The opening that the first three moves of a game on a board of edge `size` form, under any
/// of the board's eight symmetries; `None` for fewer than three moves, an even board, a first
/// move off the centre, or a start that is not one of the 26.
pub fn of_moves(size: u8, moves: &[Point]) -> Option<Opening> {
    let [first, second, third, ..] = moves else {
        return None;
    };
    if size.is_multiple_of(2) {
        return None;
    }
    let centre = (size / 2) as i16;
    let offset = |p: &Point| -> Option<(i8, i8)> {
        let (dx, dy) = (p.x() as i16 - centre, p.y() as i16 - centre);
        (dx.abs() <= 2 && dy.abs() <= 2).then_some((dx as i8, dy as i8))
    };
    if offset(first)? != (0, 0) {
        return None;
    }
    let (white, black) = (offset(second)?, offset(third)?);
    for t in 0..8 {
        let (w, b) = (symmetry(white, t), symmetry(black, t));
        let (kind, table) = match w {
            DIRECT_WHITE => (Kind::Direct, &DIRECT),
            INDIRECT_WHITE => (Kind::Indirect, &INDIRECT),
            _ => continue,
        };
        if let Some(k) = table.iter().position(|&(_, cell)| cell == b) {
            return Some(Opening {
                kind,
                number: k as u8 + 1,
                name: table[k].0,
            });
        }
    }
    None
}

/// The opening of a board's game record (see [`of_moves`]); `None` for a composed position.
pub fn of_board(board: &Board) -> Option<Opening> {
    of_moves(board.size(), board.record()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of `opening` under symmetry `t` on a board of edge `size`.
    fn moves(opening: Opening, t: u8, size: u8) -> Vec<Point> {
        let c = (size / 2) as i8;
        stones(opening)
            .iter()
            .map(|&o| {
                let (x, y) = symmetry(o, t);
                Point::new((c + x) as u8, (c + y) as u8).unwrap()
            })
            .collect()
    }

    fn texts(ps: &[Point]) -> Vec<String> {
        ps.iter().map(Point::to_string).collect()
    }

    #[test]
    fn every_opening_is_named_under_every_symmetry() {
        let all: Vec<Opening> = all().collect();
        assert_eq!(all.len(), 26);
        for opening in &all {
            for t in 0..8 {
                let ms = moves(*opening, t, 15);
                assert_eq!(
                    of_moves(15, &ms),
                    Some(*opening),
                    "{opening} as {:?}",
                    texts(&ms)
                );
                // More moves after the third change nothing.
                let mut longer = ms.clone();
                longer.push("a1".parse().unwrap());
                assert_eq!(of_moves(15, &longer), Some(*opening));
            }
        }
        // Each name's own orientation, as the table in the module doc gives it.
        let named = |text: &str| {
            let ms: Vec<Point> = text.split(' ').map(|m| m.parse().unwrap()).collect();
            of_moves(15, &ms).map(|o| o.to_string())
        };
        assert_eq!(named("h8 h9 h10").as_deref(), Some("1D Kansei"));
        assert_eq!(named("h8 h9 i9").as_deref(), Some("4D Kagetsu"));
        assert_eq!(named("h8 h9 j6").as_deref(), Some("13D Yusei"));
        assert_eq!(named("h8 i9 j10").as_deref(), Some("1I Chosei"));
        assert_eq!(named("h8 i9 i7").as_deref(), Some("7I Hogetsu"));
        assert_eq!(named("h8 i9 f6").as_deref(), Some("13I Suisei"));
        // Kagetsu turned and mirrored: white below, black left of it; white left, black above it.
        assert_eq!(named("h8 h7 g7").as_deref(), Some("4D Kagetsu"));
        assert_eq!(named("h8 g8 g9").as_deref(), Some("4D Kagetsu"));
    }

    #[test]
    fn every_third_stone_of_the_5x5_has_exactly_one_name() {
        // For each of white's 8 places, black's 23 free points of the 5x5 square are 23
        // openings, each of the 13 of its kind reached once or twice (its mirror image).
        let c = 7i8;
        let at = |x: i8, y: i8| Point::new((c + x) as u8, (c + y) as u8).unwrap();
        for (wx, wy) in [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let mut seen = std::collections::HashMap::new();
            for x in -2..=2 {
                for y in -2..=2 {
                    if (x, y) == (0, 0) || (x, y) == (wx, wy) {
                        continue;
                    }
                    let o = of_moves(15, &[at(0, 0), at(wx, wy), at(x, y)]).unwrap();
                    let direct = wx == 0 || wy == 0;
                    assert_eq!(o.kind == Kind::Direct, direct);
                    *seen.entry(o.number).or_insert(0) += 1;
                }
            }
            assert_eq!(seen.len(), 13, "white at {wx},{wy}");
            assert_eq!(seen.values().sum::<i32>(), 23);
        }
    }

    #[test]
    fn a_start_that_is_no_opening_has_no_name() {
        let named = |size: u8, text: &str| {
            let ms: Vec<Point> = text.split(' ').map(|m| m.parse().unwrap()).collect();
            of_moves(size, &ms)
        };
        assert_eq!(named(15, "h8 h9"), None, "two moves");
        assert_eq!(named(15, "h8 j10 i9"), None, "white not next to the centre");
        assert_eq!(named(15, "h8 h9 k8"), None, "black's third outside the 5x5");
        assert_eq!(
            named(15, "i8 i9 j9"),
            None,
            "Kagetsu's shape moved off the centre"
        );
        assert_eq!(named(15, "a1 h9 i9"), None, "first move elsewhere");
        // Other sizes: the centre of an odd board; an even board has none.
        assert_eq!(
            named(19, "j10 j11 k11").map(|o| o.to_string()).as_deref(),
            Some("4D Kagetsu")
        );
        assert_eq!(named(19, "h8 h9 i9"), None);
        assert_eq!(named(16, "h8 h9 i9"), None);
        assert_eq!(named(7, "d4 d5 e5").map(|o| o.number), Some(4));
    }

    #[test]
    fn only_game_records_have_an_opening() {
        let mut board = Board::new(15, crate::board::Rule::Renju).unwrap();
        for m in ["h8", "h9", "i9", "a1"] {
            board.play(m.parse().unwrap());
        }
        assert_eq!(
            of_board(&board).map(|o| o.to_string()).as_deref(),
            Some("4D Kagetsu")
        );
        let mut composed = Board::new(15, crate::board::Rule::Renju).unwrap();
        composed.put("h8".parse().unwrap(), crate::board::Color::Black);
        composed.put("h9".parse().unwrap(), crate::board::Color::White);
        composed.put("i9".parse().unwrap(), crate::board::Color::Black);
        assert_eq!(of_board(&composed), None);
    }
}
