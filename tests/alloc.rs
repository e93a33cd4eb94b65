//! A leaf-style loop of VCF calls on one reused solver allocates nothing after the first
//! pass: counted by a global allocator of this test binary (its own binary, one test, so no
//! other test's allocations are counted).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tengen::board::{Board, Color, Point, Rule};
use tengen::files::input::{Source, load_all};
use tengen::pattern;
use tengen::setup::Given;
use tengen::solve::{Limits, Outcome, vcf};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to the system allocator; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const CALLS: usize = 100_000;

#[test]
fn a_reused_vcf_solver_allocates_nothing_after_the_first_call() {
    // The composed puzzles (all three rules, sizes 9 and 15, renju fouls), each searched for
    // both sides: wins, no-wins and budget cut-offs.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/examples.txt");
    let source = Source::from_arg(file).unwrap();
    let mut boards: Vec<(Board, Color)> = Vec::new();
    for loaded in load_all(&source, Given::default()) {
        let loaded = loaded.unwrap();
        for attacker in [Color::Black, Color::White] {
            let mut b = loaded.board.clone();
            b.set_to_move(attacker);
            boards.push((b, attacker));
        }
    }
    // And middle-game positions of random games under each rule, near the centre.
    let mut rng = tengen::rng::Rng::new(0x2545_F491_4F6C_DD1D);
    for g in 0..600 {
        let rule = Rule::ALL[g % 3];
        let mut b = Board::new(15, rule).unwrap();
        for _ in 0..(12 + g % 20) {
            let r = rng.next_u64();
            let p = Point::new(3 + (r % 9) as u8, 3 + (r / 9 % 9) as u8).unwrap();
            let side = b.to_move();
            if b.is_empty(p)
                && !b.makes_five(p, side)
                && b.five_points(side.opponent()).is_empty()
                && !(rule.has_fouls(side) && pattern::foul(&b, p).is_some())
            {
                b.play(p);
            }
        }
        let attacker = b.to_move();
        boards.push((b, attacker));
    }
    let limits = |k: usize| Limits {
        depth: 3 + (k % 5) as u32,
        nodes: if k.is_multiple_of(7) { 20 } else { 5_000 },
        ..Limits::default()
    };
    // A leaf-sized table (64 KB): it reaches its cap during the first pass and then only
    // replaces entries, as an analyzer's leaf solver would.
    let mut solver = vcf::VcfSolver::new(64 << 10).unwrap();
    let mut outcomes = [0usize; 3];
    // The first pass grows the solver's buffers and table to what these searches need.
    for k in 0..boards.len() * 35 {
        let n = boards.len();
        let (board, attacker) = &mut boards[k % n];
        solver.clear();
        solver.search(board, *attacker, limits(k));
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let start = Instant::now();
    let mut nodes = 0;
    for k in 0..CALLS {
        let n = boards.len();
        let (board, attacker) = &mut boards[k % n];
        // Forgetting the failures makes every call a real search, as on new positions.
        solver.clear();
        let run = solver.search(board, *attacker, limits(k));
        nodes += run.nodes;
        outcomes[match run.outcome {
            Outcome::Win => 0,
            Outcome::NoWin => 1,
            Outcome::Unknown => 2,
        }] += 1;
        if run.outcome == Outcome::Win {
            assert!(!solver.line().is_empty());
        }
    }
    let elapsed = start.elapsed();
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    eprintln!(
        "{CALLS} VCF calls: {:.0} calls/s, {nodes} nodes, outcomes win/no-win/unknown {outcomes:?}",
        CALLS as f64 / elapsed.as_secs_f64()
    );
    assert_eq!(
        allocations, 0,
        "allocations during {CALLS} reused-solver calls"
    );
    // The loop exercised every outcome, so no path was left out of the count.
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}
