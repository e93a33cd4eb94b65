//! Zobrist keys, generated at compile time by the crate's generator ([`crate::rng`]) so hashes
//! are the same on every run.

use super::point::{CELLS, Color};
use crate::rng::splitmix64;

const KEYS: [[u64; CELLS]; 2] = {
    let mut keys = [[0; CELLS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            keys[c][i] = splitmix64((c * CELLS + i) as u64 + 1);
            i += 1;
        }
        c += 1;
    }
    keys
};

const WHITE_TO_MOVE: u64 = splitmix64(0xDEAD_BEEF);

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys as they were made before the generator moved to `crate::rng`: a key that
    /// changed would change every stored hash, opening book lookup and recorded result.
    #[test]
    fn the_keys_are_the_ones_they_always_were() {
        assert_eq!(stone(Color::Black, 0), 0x910A_2DEC_8902_5CC1);
        assert_eq!(stone(Color::Black, 1), 0x9758_35DE_1C97_56CE);
        assert_eq!(stone(Color::White, 0), 0x98FD_4A3E_BA57_61F5);
        assert_eq!(stone(Color::White, CELLS - 1), 0x437E_327B_F781_FE3E);
        assert_eq!(side(Color::White), 0x4ADF_B90F_68C9_EB9B);
        assert_eq!(side(Color::Black), 0);
    }
}
