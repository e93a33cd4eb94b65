//! The command line as clap sees it: these types only. [`crate::config`] turns them into one
//! validated configuration; nothing here reads input or decides anything.

use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};

/// Analyse Gomoku and Renju positions and solve their puzzles.
///
/// Coordinates are RIF: column letter from the left, row number from the bottom (h8 is the
/// centre of 15x15); black moves first.
#[derive(Parser, Debug)]
#[command(name = "tengen", version, about)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// What tengen is asked to do: one variant per command.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Show a position as a board diagram (or JSON).
    Show(ShowArgs),
    /// Convert a position to another format.
    Convert(ConvertArgs),
    /// List black's forbidden points under renju (the rule here unless the input or `--rule`
    /// names another).
    Forbidden(ForbiddenArgs),
    /// Rank the moves of the side to move: a score for every candidate, the best lines, and
    /// any forced win or loss (verified). `analyse` is the same command.
    #[command(visible_alias = "analyse")]
    Analyze(AnalyzeArgs),
    /// Find and prove a forced win.
    Solve(SolveArgs),
    /// Review a whole game move by move: each move's verdict by the win chance it gives
    /// away, the best move instead, missed and allowed forced wins (verified), and the
    /// turning point. `review` reads what `analyze` reads, a finished game included.
    Review(ReviewArgs),
    /// Time the solvers on puzzle files and report nodes and time per case.
    Bench(BenchArgs),
    /// Check the answers of puzzle files: exit 0 when all pass, 1 on a failure, 2 on an error.
    Check(CheckArgs),
    /// Serve a board in the browser, with live analysis, solving and review on it: a local
    /// web page and its JSON API, on loopback, until interrupted.
    Serve(ServeArgs),
    /// Play as an engine over the Gomocup (Piskvork) protocol on standard input and output,
    /// for GUIs and match runners; also installed as `pbrain-tengen`.
    Brain(BrainArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell or elvish).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write every page into a directory.
    Man(ManArgs),
}

/// Where the position comes from and what the user says about it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// A file path, a literal move list (`"h8 i9 j10"`, a gomocalc URL), or `-` for standard input.
    pub position: String,
    /// The rule (default: the puzzle's, else freestyle).
    #[arg(long, value_enum, ignore_case = true)]
    pub rule: Option<RuleArg>,
    /// Board size, 5 to 22 (default: what the input says, else 15).
    #[arg(long, value_parser = clap::value_parser!(u8).range(5..=22))]
    pub size: Option<u8>,
    /// The side to move, overriding the input.
    #[arg(long, value_enum, ignore_case = true)]
    pub to_move: Option<ColorArg>,
    /// Pick this puzzle out of a puzzle file, or this game out of an SGF file (its GN name,
    /// else its number from 1; without --id, the first game).
    #[arg(long)]
    pub id: Option<String>,
    /// Read the input as this format instead of detecting it.
    #[arg(long, value_enum, ignore_case = true)]
    pub input_format: Option<FormatArg>,
    /// The position after the first N moves of a game record (a move list, a .psq or SGF
    /// game), for a finished game or any point of it.
    #[arg(long, value_name = "N")]
    pub after: Option<usize>,
}

/// A text format tengen reads and writes.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum FormatArg {
    /// A move list (`h8 i9 j10`) or a Gomoku Calculator URL.
    Moves,
    /// A board diagram.
    Diagram,
    /// A Piskvork `.psq` game file.
    Psq,
    /// A puzzle file (one or more `key: value` blocks).
    Puzzle,
    /// An SGF game record (`GM[4]`); of several games, the first or the one `--id` names.
    Sgf,
}

/// A winning rule.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RuleArg {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five in a row wins.
    Standard,
    /// Black needs exactly five and has forbidden points; white wins with five or more.
    Renju,
}

/// A stone colour.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ColorArg {
    /// Black, who moves first.
    Black,
    /// White, who moves second.
    White,
}

/// How results are printed.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OutputFormat {
    /// Text for people.
    Text,
    /// JSON for programs (JSON Lines from `bench`).
    Json,
}

/// When to colour the text output.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// What a position command prints.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ReportFormat {
    /// Text for people.
    Text,
    /// JSON for programs.
    Json,
    /// An SVG picture of the board (a review: its win-rate graph and the board at each
    /// mistake and blunder).
    Svg,
    /// The same picture as PNG, rendered in-process (binary: give -o FILE or redirect).
    Png,
}

/// How results are printed.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Text for people, JSON for programs, or a picture: svg or png.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: ReportFormat,
    /// Colour the text output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, ignore_case = true, default_value = "auto")]
    pub color: ColorChoice,
    /// Write the output to this file instead of standard output, atomically; an existing
    /// file is replaced only with --force (see `convert --output`).
    #[arg(long = "output", short = 'o', value_name = "PATH")]
    pub out_path: Option<PathBuf>,
    /// Replace the --output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Pictures: number each stone of the game record by its move.
    #[arg(long)]
    pub numbers: bool,
}

/// Arguments of `show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The position to show.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How to print it.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Mark black's forbidden points (renju).
    #[arg(long)]
    pub forbidden: bool,
}

/// Arguments of `forbidden`.
#[derive(Args, Debug)]
pub struct ForbiddenArgs {
    /// The position to judge.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How to print the points.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Search bounds and memory, shared by `solve` and `bench`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Stop after this many positions and answer `unknown` (default: 75,000,000, about a minute).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// VCF: find a line of minimum length (deepens one attacker move at a time).
    #[arg(long)]
    pub shortest: bool,
    /// Memory for the search tables in megabytes, verification included (1 to 65536).
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash_mb: u64,
}

/// Arguments of `solve`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("mode").required(true).args(["vcf", "vct", "win_in"])))]
pub struct SolveArgs {
    /// The position to solve.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How to print the answer.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Search bounds and memory.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Victory by continuous fours: the attacker plays only fours. (`--proof` and
    /// `--threat-limit` are refused with it: every four has one answer, so the line is the
    /// proof, and there are no quiet threats to limit.)
    #[arg(long, conflicts_with_all = ["proof", "threat_limit"])]
    pub vcf: bool,
    /// Victory by continuous threats: fours, threes and other moves that threaten a VCF.
    /// (`--shortest` is refused with it: ask for a bound with `--win-in N` or `--limit`.)
    #[arg(long, conflicts_with = "shortest")]
    pub vct: bool,
    /// A win in N: the attacker makes five (or forces a foul) on or before its N-th move,
    /// counting the first; the full threat search.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "shortest",
        value_parser = clap::value_parser!(u32).range(1..=255)
    )]
    pub win_in: Option<u32>,
    /// Most attacker moves up to the one that makes the win unstoppable (default: the
    /// puzzle's `limit:`, else no bound).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=255))]
    pub limit: Option<u32>,
    /// VCT: attacker moves in the VCF that makes a quiet move a threat (1: threes; 2: also
    /// moves that set up a four-three). Default: the puzzle's `threat-limit:`, else 2.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=255))]
    pub threat_limit: Option<u32>,
    /// Stop the search after this long and answer `unknown`: `500ms`, `10s`, `2m`, or seconds
    /// (`3`, `0.5`), from 1ms to 7 days. A win found in time is still verified in full.
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// VCT: print the whole proof tree (every defence considered and the answer to each).
    #[arg(long)]
    pub proof: bool,
    /// Check the proof against every legal defence (the default for VCT).
    #[arg(long, overrides_with = "no_verify")]
    pub verify: bool,
    /// VCT: skip checking the proof against every legal defence.
    #[arg(long, overrides_with = "verify")]
    pub no_verify: bool,
    /// The side that attacks (default: the side to move; the other side attacks as if its
    /// opponent had passed).
    #[arg(long, value_enum, ignore_case = true)]
    pub attacker: Option<ColorArg>,
}

/// `tengen analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The position to analyse.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How to print the analysis.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Search this many plies deep (default: as deep as the time allows). 1 is the classic
    /// weight map: every candidate at its static point value, no search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Stop after this many search nodes (alpha-beta positions and the horizon's VCF positions).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Stop after this long: `500ms`, `10s`, `2m`, or seconds (`3`, `0.5`), from 1ms to 7 days
    /// (default: 1s when no limit is given).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Away from threats, consider the points within this many steps of a stone (1 to 4).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub window: u8,
    /// How many moves get exact scores and lines.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=400))]
    pub top: u64,
    /// Score every candidate exactly (slower).
    #[arg(long)]
    pub all: bool,
    /// Draw every scored point on the board, shaded by its score.
    #[arg(long)]
    pub heatmap: bool,
    /// Search threads (1 to 512). With two or more, the root VCT runs beside the search and
    /// the other threads search in parallel over the shared table (Lazy SMP). Default: the
    /// machine's cores when only time limits the search, else 1 (one thread is deterministic).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub threads: Option<u64>,
    /// Memory for the search tables in megabytes (1 to 65536).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash_mb: u64,
    /// The threat limit the root VCT searches at first (see `solve --threat-limit`), widening
    /// to 3 as time allows. Default: the puzzle's `threat-limit:`, else 2.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=255))]
    pub threat_limit: Option<u32>,
}

/// `tengen review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game to review (a move list, a gomocalc URL, a .psq or SGF game; `--id` picks a
    /// game of an SGF file).
    #[command(flatten)]
    pub position: PositionArgs,
    /// How to print the review.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Analyse each position this long: `500ms`, `1s`, `2m`, or seconds (`3`, `0.5`), from
    /// 1ms to 7 days (default: 1s when no limit is given).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Analyse each position this many plies deep instead.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Analyse each position this many search nodes instead.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// The first move to review, counting from 1 (default: the first).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub from: Option<u64>,
    /// The last move to review (default: the game's last).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub to: Option<u64>,
    /// Positions analysed at once (1 to 512), each with tables of its own (default 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub jobs: Option<u64>,
    /// Search threads a position (default: the machine's cores shared among the jobs when
    /// only time limits the search, else 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub threads: Option<u64>,
    /// Memory for each job's search tables in megabytes (1 to 65536).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash_mb: u64,
}

/// Which cases `bench` runs.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum BenchMode {
    /// VCF cases (kind `vcf`, or `no-win` about VCF), by the VCF solver.
    Vcf,
    /// VCT cases (kind `vct`, or `no-win` tagged `vct`), by the VCT solver.
    Vct,
    /// Both.
    All,
    /// The analyzer on every position of the files (e.g. `puzzles/midgame.txt`): nodes per
    /// second and the time to each depth, to `--depth` (default 8).
    Analyze,
}

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Puzzle files to take the cases from.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Search bounds and memory.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Which cases to run.
    #[arg(long, value_enum, ignore_case = true, default_value = "all")]
    pub mode: BenchMode,
    /// Run only the cases whose id contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// Skip the cases with this tag (repeatable), e.g. `--skip-tag heavy`.
    #[arg(long)]
    pub skip_tag: Vec<String>,
    /// VCT: also check each proof against every defence (its time is not counted).
    #[arg(long)]
    pub verify: bool,
    /// Analyze: the depth to search each position to.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Text for people, JSON Lines for programs.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: OutputFormat,
    /// Where the report goes.
    #[command(flatten)]
    pub file: ReportFileArgs,
}

/// How `check` prints its verdicts.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum CheckFormat {
    /// A line a puzzle (a diagram under each failure), then a summary.
    Text,
    /// JSON Lines: one `{"type": "puzzle", ...}` a puzzle, then one `{"type": "summary", ...}`.
    Json,
    /// JUnit XML: a testsuite a file, a testcase a puzzle.
    Junit,
    /// GitHub Actions workflow commands: an `::error` on the line of each failing puzzle.
    Github,
}

/// Arguments of `check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Puzzle files, and folders to search for them (recursively; see --glob).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Which files of a folder are puzzle files (matched against the file name).
    #[arg(long, default_value = "*.txt")]
    pub glob: String,
    /// Composer mode: a second solution (another winning first move, another holding defence)
    /// is a failure too.
    #[arg(long)]
    pub strict: bool,
    /// A puzzle whose budget runs out passes with `unknown` instead of failing.
    #[arg(long)]
    pub allow_unknown: bool,
    /// Fill in missing `answer:` (and `limit:`) lines from the solver, rewriting each file
    /// atomically; an existing answer is never changed.
    #[arg(long)]
    pub update: bool,
    /// How to print the verdicts.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: CheckFormat,
    /// Colour the text output: auto (a terminal, and NO_COLOR unset), always or never.
    #[arg(long, value_enum, ignore_case = true, default_value = "auto")]
    pub color: ColorChoice,
    /// Puzzles checked at once (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub jobs: Option<u64>,
    /// Most positions a puzzle may search, over all its searches (default: 75,000,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Most time a puzzle may take: `500ms`, `10s`, `2m`, or seconds (`3`, `0.5`), from 1ms to
    /// 7 days (default: no limit).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Check only every N-th puzzle from the K-th (`--shard 2/4`), to split a collection
    /// across CI jobs; the shards together are the whole set.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Skip the puzzles with this tag (repeatable), e.g. `--skip-tag heavy`.
    #[arg(long)]
    pub skip_tag: Vec<String>,
    /// Memory for each job's search tables in megabytes (1 to 65536).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash_mb: u64,
    /// Where the verdicts go.
    #[command(flatten)]
    pub file: ReportFileArgs,
}

/// `-o` and `--force` of the commands whose report is no picture (`check`, `bench`).
#[derive(Args, Debug, Clone)]
pub struct ReportFileArgs {
    /// Write the report to this file instead of standard output, atomically and whole once
    /// the run ends (an exit of 1 still writes it); an existing file is replaced only with
    /// --force (see `convert --output`).
    #[arg(long = "output", short = 'o', value_name = "PATH")]
    pub out_path: Option<PathBuf>,
    /// Replace the --output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// What `convert` writes: a format tengen reads, or a link.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ConvertFormat {
    /// A move list (`h8 i9 j10`).
    Moves,
    /// A board diagram.
    Diagram,
    /// A Piskvork `.psq` game file.
    Psq,
    /// A puzzle file (one or more `key: value` blocks).
    Puzzle,
    /// An SGF game record (`GM[4]`).
    Sgf,
    /// A Gomoku Calculator link (`https://gomocalc.com/#/h8i9j10`): the moves only, on
    /// 15x15; the rule is not in it (read it back with `--rule`).
    Url,
}

/// Arguments of `convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The position to convert.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The format to write.
    #[arg(long, value_enum, ignore_case = true)]
    pub to: ConvertFormat,
    /// Write to this file instead of standard output.
    ///
    /// A regular file is written atomically (a temporary file beside it, synced, renamed
    /// over it) and keeps its permissions; through a symbolic link, the file it points to
    /// (the link stays). A device, FIFO or descriptor (`/dev/null`, `/dev/stdout`) is
    /// written straight into, never replaced. A directory is an error.
    #[arg(long, short, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists.
    ///
    /// Needed only for an existing regular file (or a link to one); a device, FIFO or
    /// descriptor such as `/dev/null` or `/dev/stdout` is written into without it.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (default: a free one, printed at start).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on. Anything but loopback lets other machines drive your
    /// searches: it prints a warning.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Most searches at once, their threads counted (default: the machine's cores); further
    /// requests wait in a queue, and past it are refused with 503.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub searches: Option<u64>,
}

/// Arguments of `brain`.
#[derive(Args, Debug)]
pub struct BrainArgs {
    /// Also print `DEBUG` lines: each move's time budget and why its search stopped.
    #[arg(long)]
    pub debug: bool,
}

/// Arguments of `completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Print this command's page (`tengen-COMMAND(1)`) instead of `tengen(1)`.
    pub command: Option<String>,
    /// Write every page (`tengen.1`, `tengen-show.1`, ...) into this directory, creating it and
    /// replacing pages already there, and print their paths.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// The shortest duration a `--time` option takes: below it no search gets going.
pub const MIN_DURATION: Duration = Duration::from_millis(1);

/// The longest: a week, past any analysis a user waits for, and well inside what a clock's
/// deadline can hold (a larger value would overflow into no limit at all).
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// Every duration option's parser: `500ms`, `10s`, `2m`, `1h 30m` (humantime's units), a
/// bare number of seconds (`3`, `0.5`), or a decimal with one unit (`1.5s`); refused outside
/// [`MIN_DURATION`] to [`MAX_DURATION`], with that range in the message.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let range = || {
        format!(
            "out of range: a duration is from {} to {}",
            humantime::format_duration(MIN_DURATION),
            humantime::format_duration(MAX_DURATION)
        )
    };
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.'));
    let (number, unit) = t.split_at(split.unwrap_or(t.len()));
    let decimal = !number.is_empty()
        && number.chars().filter(|&c| c == '.').count() <= 1
        && number.chars().any(|c| c.is_ascii_digit());
    let scale = match unit.trim() {
        "" => Some(1.0),
        "ms" => Some(0.001),
        "s" | "sec" => Some(1.0),
        "m" | "min" => Some(60.0),
        "h" => Some(3600.0),
        _ => None,
    };
    let parsed = match (decimal, scale) {
        // Too many seconds for a Duration is out of range like any other large value.
        (true, Some(scale)) => number
            .parse::<f64>()
            .ok()
            .map(|n| Duration::try_from_secs_f64(n * scale).map_err(|_| range())),
        _ => None,
    };
    let duration = match parsed {
        Some(d) => d?,
        None => humantime::parse_duration(t).map_err(|e| match e {
            humantime::DurationError::NumberOverflow => range(),
            _ => format!("expected a duration such as 500ms, 10s, 2m or a number of seconds ({e})"),
        })?,
    };
    if !(MIN_DURATION..=MAX_DURATION).contains(&duration) {
        return Err(range());
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units_or_seconds_within_range() {
        let ms = |n| Ok(Duration::from_millis(n));
        assert_eq!(parse_duration("3"), ms(3000));
        assert_eq!(parse_duration("0.5"), ms(500));
        assert_eq!(parse_duration("1.5s"), ms(1500));
        assert_eq!(parse_duration("500ms"), ms(500));
        assert_eq!(parse_duration("2m"), ms(120_000));
        assert_eq!(parse_duration("1h 30m"), ms(5_400_000));
        assert_eq!(parse_duration("7days"), Ok(MAX_DURATION));
        for bad in [
            "0",
            "0s",
            "0.0001",
            "100000000000000s",
            "8days",
            "99999999999999999999s",
        ] {
            let e = parse_duration(bad).unwrap_err();
            assert!(e.contains("from 1ms to 7days"), "{bad}: {e}");
        }
        for bad in ["soon", "", "-3", "3 parsecs", "1.2.3", "1e9"] {
            let e = parse_duration(bad).unwrap_err();
            assert!(e.contains("expected a duration"), "{bad}: {e}");
        }
    }
}
