//! Zobrist keys, generated at compile time by splitmix64 so hashes are the same on every run.

use super::point::{CELLS, Color};

const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const KEYS: [[u64; CELLS]; 2] = {
    let mut keys = [[0; CELLS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            keys[c][i] = splitmix((c * CELLS + i) as u64 + 1);
            i += 1;
        }
        c += 1;
    }
    keys
};

const WHITE_TO_MOVE: u64 = splitmix(0xDEAD_BEEF);

/// The key of a `color` stone at padded index `index`.
#[inline]
pub fn stone(color: Color, index: usize) -> u64 {
    KEYS[color.index()][index]
}

/// The key of the side to move.
#[inline]
pub fn side(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => WHITE_TO_MOVE,
    }
}
