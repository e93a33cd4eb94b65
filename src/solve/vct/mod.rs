//! VCT: victory by continuous threats, by depth-first proof-number search (df-pn, Nagai 2002)
//! over threat space.
//!
//! **Attacker moves** (OR nodes): a five ends it; with the defender threatening a five, only
//! the block; otherwise every four, and every quiet move after which the attacker, were the
//! defender to pass, has a VCF within `threat_limit` attacker moves (so with 1: open threes and
//! moves that open a double four; with 2 also moves that set up a four-three). The quiet
//! candidates are the points that could start such a VCF (`quiet_candidates` gives the
//! argument, for every threat limit). Whether a candidate really threatens is checked lazily,
//! when the search first visits the defender's node after it (no VCF: that node is disproven),
//! so candidates the proof never needs cost nothing. When the defender has a VCF of its own (were
//! the attacker to pass), a quiet move must stop it: those outside that VCF's zone (below, sides
//! swapped) are dropped, and so are those after which it still replays. Black never plays a
//! forbidden point under renju.
//!
//! **Defender moves** (AND nodes): after a four, the block (and if that block is forbidden for
//! black, the attacker has won). After a quiet threat, the search first finds the attacker's
//! VCF `V` as if the defender passed; then, unless the OR node before is known to have had
//! none, it looks for a VCF of the defender's own, which refutes the threat outright (a quiet
//! move that broke one counter-VCF often leaves another; the OR node's answer is kept in a
//! small table by position). Otherwise a reply refutes the threat only if after it the attacker
//! has no VCF within the bound. Only replies in a zone can change `V`, and those are tested
//! exactly (`V` replayed, else a fresh VCF). The zone: `V`'s own points and the five points it
//! ends on (a reply there blocks it); every point where the defender would make a four or a
//! five in any position along `V` (a reply elsewhere cannot give the defender a five before
//! `V` ends, since a five through the reply would make the reply a four point there); and under
//! renju the points within five steps of a black move of `V` that has two or more threes
//! (white stones never add threes, so no other black move can turn into a double three) and of
//! a final five point that is forbidden for black (a forced foul that another black stone
//! could undo). Outside the zone the attacker's fours keep their five points, the
//! defender gains no five and no foul changes, so `V` still wins. [`crate::solve::verify::proof`]
//! tries every legal reply outside the tree, so a gap in this argument would show up as a
//! counter-example rather than a false claim.
//!
//! **Search** (the deep style; the quick one below): proof and disproof numbers per (position,
//! remaining depth) in a bounded table (`hash_mb`), the 1 + ε threshold trick against
//! thrashing, a VCF check at every OR node, move lists cached per node, quiet attacker moves
//! starting at proof number 2 (a four at 1). An AND node's proof number is the weak one (Ueda,
//! Hashimoto, Hashimoto and Iida, 2008): its largest child's plus one for each other unproven
//! child, instead of their sum, because threat sequences transpose so much that a sum counts
//! one subtree many times over. On the 99 public VCT cases not tagged heavy, summed
//! numbers searched 14.77M nodes in 10.3 s and weak ones 11.78M in 7.5 s; `vct_small_but_long`
//! fell from 4.12M nodes to 1.29M, and `vct_unstable` is solved in 57M nodes instead of 97M. A
//! weak disproof number at OR nodes as well searched more (small_but_long: 3.1M); blends of
//! the largest child's number with part of the rest searched about as much (a quarter: 11.70M)
//! or more (a half: 14.6M to 16.7M, an eighth: 15.4M).
//!
//! **Two styles.** That search (the deep style, [`search::Style::Deep`]) is slow to a quick
//! win in a narrow tree: on `vct_game_white_l12_1` it visits 61.8K df-pn nodes where quintet
//! visits 3.7K, diving into the attacker's fours (proof number 1) and the subtrees weak numbers
//! undercount. A solve therefore first runs the quick style ([`search::Style::Quick`]) within
//! [`crate::solve::Limits::quick_nodes`] (300K nodes by default): proof numbers summed at AND
//! nodes, the plain `second + 1` threshold, unseen children numbered by their siblings' count,
//! attacker moves ordered by potential (the stones in the open windows through the point).
//! Only if that leaves the answer unknown does the deep style start afresh with the rest of the
//! budget. Both explore the same moves, so each verdict is exact. On the 99 public VCT cases
//! not tagged heavy, the cases slower than quintet fell from 8 to 3 (`white_l12_1` 341K nodes
//! to 58K, `black_l10_1` 74K to 13K, `white_l06_1` 12.2K to 0.9K), while the sum of times
//! rose from 7.7 s to 11.1 s: the cases the quick pass leaves unknown pay its 300K nodes. The
//! quick style alone leaves `vct_small_but_long` unknown at 10M nodes; weak numbers without
//! the other changes, or the other changes without weak numbers, helped neither side. The
//! analyzer's root searches use the quick pass only under a depth bound (see
//! `analyze::find_vct`). A node
//! budget makes the answer `unknown` instead of `no-win`, and so does an inner VCF cut short by
//! its own budget if a disproof may rest on it. The proof of a win is then built as a DAG: one
//! subtree per (position, depth), shared by every move order that reaches it.
//!
//! Layout: [`search`] holds the solver and the df-pn driver, `moves` the threat-space move
//! generation (attacker threats, defender refutations, zones), `extract` the proof built from
//! the solved table.

mod extract;
mod moves;
pub mod search;

pub use search::{VctSolution, VctSolver, solve};
