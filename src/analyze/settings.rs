//! What a caller of the analysis chooses: its limits, threads, memory, how many moves to score
//! exactly, and whether it plays a game. How the search prunes is not a caller's choice but
//! the rule's ([`Profile`]).

use std::time::Duration;

use super::moves::Threats;
use super::params::VCT_SHARE;
use super::profile::Profile;
use crate::board::Rule;
use crate::solve::Cancel;

/// How to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Most search nodes (alpha-beta and horizon VCF positions together).
    pub nodes: Option<u64>,
    /// Most time, checked during the search (verification of mates comes after it and has
    /// its own budget within this time).
    pub time: Option<Duration>,
    /// Candidates away from threats: points within this many steps of a stone (1 to 4).
    pub window: u8,
    /// How many moves get exact scores and principal variations.
    pub top: usize,
    /// Score every candidate exactly.
    pub all: bool,
    /// Memory for the search's tables, in megabytes (the root VCT and the verifier reuse it).
    pub hash_mb: usize,
    /// The root VCT's node budget when no time limit bounds it (0: no VCT).
    pub root_vct_nodes: u64,
    /// Node budget of each mate verification.
    pub verify_nodes: u64,
    /// Under a time limit, the share of it the root VCT may take before the search on one
    /// thread.
    pub vct_share: f64,
    /// Search threads. With more than one, the root VCT runs on a thread of its own beside
    /// the search (and joins the search when done), and the others search the root in
    /// parallel over the shared table (Lazy SMP). One thread is deterministic.
    pub threads: usize,
    /// The root VCT's threat limit (`--threat-limit`, else a puzzle's `threat-limit:`): its
    /// searches start at this limit, then widen to 3 as time allows. None: 2, then 3.
    pub threat_limit: Option<u32>,
    /// Playing a game (the protocol front end): a move that is forced (the only candidate) or
    /// a forced win the root VCT has verified is answered at once, without the search, and
    /// the iterations follow the profile's game plan.
    pub game: bool,
    /// Raised by another thread to stop the whole analysis at once (the protocol's `STOP`,
    /// or its clock): every search and solver stops at its next look at the clock, and the
    /// analysis reports what it has.
    pub cancel: Option<Cancel>,
    /// The search's profile; `None`: the rule's own ([`Profile::of`]). Tests pass another.
    pub profile: Option<Profile>,
    /// Keep every this-many-th position the main search judges statically, in
    /// [`Analysis::leaves`](super::Analysis::leaves) (0: none): data for fitting the
    /// evaluation on the positions it is asked about (`tengen-tune leaves`).
    pub sample_leaves: u32,
}

impl Settings {
    /// The profile the search runs with under `rule`.
    pub fn profile_for(&self, rule: Rule) -> Profile {
        self.profile.unwrap_or(Profile::of(rule))
    }

    /// How winning threats narrow the root's candidates under `rule`: as in the search, with
    /// tight defence's tempo defences too (see [`Threats::TightWithTempo`]), so that an
    /// analysis lists every defence.
    pub fn root_threat_moves(&self, rule: Rule) -> Threats {
        match self.profile_for(rule).threats {
            Threats::Tight => Threats::TightWithTempo,
            other => other,
        }
    }

    /// A threat search's node budget from `base`: none under a time limit alone, where the
    /// clock bounds it; else `base`, so that an analysis at a fixed depth or node count is
    /// the same every run, whatever time limit comes with it (a GUI's depth setting beside a
    /// long turn spent minutes in the threat checks).
    pub fn threat_nodes(&self, base: u64) -> u64 {
        let clock_alone = self.time.is_some() && self.depth.is_none() && self.nodes.is_none();
        if clock_alone && base > 0 {
            u64::MAX
        } else {
            base
        }
    }

    /// Whether the root VCT runs on a thread of its own: with two threads or more, unless
    /// there is no VCT to run. [`Tables`](super::Tables) for such an analysis hold a solver
    /// for it.
    pub fn parallel_vct(&self) -> bool {
        self.threads >= 2 && self.depth != Some(1) && self.root_vct_nodes > 0
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            depth: None,
            nodes: None,
            time: None,
            window: 2,
            top: 5,
            all: false,
            hash_mb: 64,
            root_vct_nodes: 200_000,
            verify_nodes: 2_000_000,
            vct_share: VCT_SHARE,
            threads: 1,
            threat_limit: None,
            game: false,
            cancel: None,
            profile: None,
            sample_leaves: 0,
        }
    }
}
