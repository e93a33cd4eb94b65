//! English for counts in messages, so that none says "1 moves".

use std::fmt::Display;

/// `n` with the noun that fits it: `plural(1, "move", "moves")` is `1 move`, and 0, 2 and
/// every other count take `many` (`0 moves`, `2 moves`).
///
/// ```
/// use tengen::words::plural;
/// assert_eq!(plural(1_usize, "position", "positions"), "1 position");
/// assert_eq!(plural(0_u64, "node", "nodes"), "0 nodes");
/// ```
pub fn plural<N>(n: N, one: &str, many: &str) -> String
where
    N: Copy + Display + PartialEq + From<u8>,
{
    format!("{n} {}", if n == N::from(1) { one } else { many })
}
