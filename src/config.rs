//! From raw flags to one validated configuration per command: what to read, what to run, how
//! to print. Decisions that depend on the environment (colour: `--color`, `NO_COLOR`, whether
//! standard output is a terminal) are taken here, once, and passed down.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::analyze;
use crate::board::{Color, Rule};
use crate::cli::{
    AnalyzeArgs, BenchArgs, BenchMode, CheckArgs, CheckFormat, ColorArg, ColorChoice, Command,
    ConvertArgs, ConvertFormat, ForbiddenArgs, FormatArg, OutputArgs, OutputFormat, PositionArgs,
    ReportFileArgs, ReportFormat, ReviewArgs, RuleArg, SearchArgs, ShowArgs, SolveArgs,
};
use crate::files::input::Request;
use crate::notation::Format;
use crate::report::text::Style;
use crate::setup::Given;
use crate::solve::task::{self, Mode};

/// A picture format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    /// SVG text.
    Svg,
    /// PNG bytes.
    Png,
}

/// How a command prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// Text for people or JSON for programs.
    pub json: bool,
    /// A picture instead (`--format svg|png`).
    pub picture: Option<Picture>,
    /// Colour and the like, for text.
    pub style: Style,
    /// Write to this file instead of standard output (`-o`).
    pub path: Option<PathBuf>,
    /// Replace an existing `path`.
    pub force: bool,
    /// Pictures: number the stones by their move.
    pub numbers: bool,
}

/// A report written to a file (`-o`) instead of standard output, by the commands that
/// stream theirs (`check`, `bench`): it is gathered and written whole at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportFile {
    /// The file.
    pub path: PathBuf,
    /// Replace it if it exists.
    pub force: bool,
}

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTo {
    /// A text format tengen reads.
    Format(Format),
    /// A Gomoku Calculator link (a move list in a URL).
    Url,
}

impl std::fmt::Display for ConvertTo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvertTo::Format(format) => format.fmt(f),
            ConvertTo::Url => f.write_str("a Gomoku Calculator URL"),
        }
    }
}

/// Search settings shared by `solve` and `bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// What the user gave for the task's limits (the puzzle and the defaults fill the rest).
    pub given: task::Bounds,
    /// VCF: a line of minimum length.
    pub shortest: bool,
    /// Memory for all of a command's search tables, in megabytes.
    pub hash_mb: usize,
}

/// `tengen show`.
#[derive(Clone, Debug)]
pub struct Show {
    /// The position.
    pub input: Request,
    /// How to print.
    pub output: Output,
    /// Mark black's forbidden points.
    pub forbidden: bool,
}

/// `tengen convert`.
#[derive(Clone, Debug)]
pub struct Convert {
    /// The position (or every puzzle of a file).
    pub input: Request,
    /// The format to write.
    pub to: ConvertTo,
    /// Write to this file instead of standard output (see [`crate::files::output`]).
    pub path: Option<PathBuf>,
    /// Replace the file if it exists.
    pub force: bool,
}

/// `tengen forbidden`.
#[derive(Clone, Debug)]
pub struct Forbidden {
    /// The position.
    pub input: Request,
    /// How to print.
    pub output: Output,
}

/// `tengen solve`.
#[derive(Clone, Debug)]
pub struct Solve {
    /// The position.
    pub input: Request,
    /// How to print.
    pub output: Output,
    /// VCF, VCT or win in N.
    pub mode: Mode,
    /// The attacker, when not the side to move.
    pub attacker: Option<Color>,
    /// Limits and memory.
    pub search: Search,
    /// Check VCT proofs against every defence.
    pub verify: bool,
    /// Print the whole proof.
    pub proof: bool,
    /// Most time for the search.
    pub time: Option<std::time::Duration>,
    /// Show a spinner on standard error (it is a terminal).
    pub progress: bool,
    /// A flag another thread may raise to stop the search (the server's, when its page goes).
    pub cancel: Option<crate::solve::Cancel>,
}

/// `tengen serve`.
#[derive(Clone, Debug)]
pub struct Serve {
    /// The address to listen on: loopback unless the user names another.
    pub host: std::net::IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Open the page in the browser once listening.
    pub open: bool,
    /// Most searches at once (their threads counted).
    pub searches: usize,
}

/// `tengen analyze`.
#[derive(Clone, Debug)]
pub struct Analyze {
    /// The position.
    pub input: Request,
    /// How to print.
    pub output: Output,
    /// Limits and search settings.
    pub settings: analyze::Settings,
    /// Draw every scored point, shaded.
    pub heatmap: bool,
    /// Show live progress on standard error (it is a terminal).
    pub progress: bool,
}

/// `tengen review`.
#[derive(Clone, Debug)]
pub struct Review {
    /// The game.
    pub input: Request,
    /// How to print.
    pub output: Output,
    /// What to review and how.
    pub options: crate::analyze::review::ReviewOptions,
    /// Show a progress bar on standard error (it is a terminal).
    pub progress: bool,
    /// `--after` was given: an error (review reads the whole game).
    pub after: Option<usize>,
}

/// Which cases `tengen bench` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchCases {
    /// VCF cases.
    pub vcf: bool,
    /// VCT cases.
    pub vct: bool,
    /// Every position, by the analyzer, to this depth (then no solver cases).
    pub analyze: Option<u32>,
}

/// `tengen bench`.
#[derive(Clone, Debug)]
pub struct Bench {
    /// Puzzle files.
    pub files: Vec<PathBuf>,
    /// Which kinds of case.
    pub cases: BenchCases,
    /// Only ids containing this.
    pub filter: Option<String>,
    /// Skip cases with these tags.
    pub skip_tags: Vec<String>,
    /// Check VCT proofs too.
    pub verify: bool,
    /// Limits and memory.
    pub search: Search,
    /// JSON Lines instead of a table.
    pub json: bool,
    /// Show a spinner on standard error (it is a terminal).
    pub progress: bool,
    /// Write the report here instead of standard output.
    pub file: Option<ReportFile>,
}

/// `tengen check`.
#[derive(Clone, Debug)]
pub struct Check {
    /// Files and folders.
    pub paths: Vec<PathBuf>,
    /// File-name pattern for folders.
    pub glob: String,
    /// Composer mode, budgets.
    pub options: crate::check::CheckOptions,
    /// Unknown is not a failure.
    pub allow_unknown: bool,
    /// Fill in missing answers.
    pub update: bool,
    /// How to print.
    pub format: CheckFormat,
    /// Colour for text.
    pub style: Style,
    /// Puzzles at once.
    pub jobs: usize,
    /// `(k, n)`: every n-th puzzle from the k-th (1-based), as the user wrote it.
    pub shard: Option<String>,
    /// Skip puzzles with these tags.
    pub skip_tags: Vec<String>,
    /// Memory per job, in megabytes.
    pub hash_mb: usize,
    /// Show a progress bar on standard error (it is a terminal).
    pub progress: bool,
    /// Write the verdicts here instead of standard output.
    pub file: Option<ReportFile>,
}

/// One command, validated.
#[derive(Clone, Debug)]
pub enum Config {
    /// `tengen show`.
    Show(Show),
    /// `tengen convert`.
    Convert(Convert),
    /// `tengen forbidden`.
    Forbidden(Forbidden),
    /// `tengen analyze`.
    Analyze(Analyze),
    /// `tengen solve`.
    Solve(Solve),
    /// `tengen review`.
    Review(Review),
    /// `tengen bench`.
    Bench(Bench),
    /// `tengen check`.
    Check(Check),
    /// `tengen serve`.
    Serve(Serve),
    /// `tengen brain`: print `DEBUG` lines.
    Brain {
        /// Print `DEBUG` lines.
        debug: bool,
    },
    /// `tengen completions`: the shell to print a completion script for.
    Completions(clap_complete::Shell),
    /// `tengen man`.
    Man(Man),
}

/// `tengen man`.
#[derive(Clone, Debug)]
pub struct Man {
    /// The command whose page to print (`None`: `tengen(1)`).
    pub command: Option<String>,
    /// Write every page into this directory instead.
    pub dir: Option<PathBuf>,
}

impl Config {
    /// The file the command writes its report to (`-o`), and whether it may replace it.
    pub fn report_file(&self) -> Option<(&Path, bool)> {
        let (path, force) = match self {
            Config::Show(Show { output, .. })
            | Config::Forbidden(Forbidden { output, .. })
            | Config::Analyze(Analyze { output, .. })
            | Config::Solve(Solve { output, .. })
            | Config::Review(Review { output, .. }) => (output.path.as_ref()?, output.force),
            Config::Convert(c) => (c.path.as_ref()?, c.force),
            Config::Check(Check { file, .. }) | Config::Bench(Bench { file, .. }) => {
                let file = file.as_ref()?;
                (&file.path, file.force)
            }
            Config::Brain { .. } | Config::Serve(_) | Config::Completions(_) | Config::Man(_) => {
                return None;
            }
        };
        Some((path.as_path(), force))
    }

    /// The configuration the command line asks for.
    pub fn from_cli(command: Command) -> Config {
        match command {
            Command::Show(ShowArgs {
                position,
                output,
                forbidden,
            }) => Config::Show(Show {
                input: finished_game(request(&position)),
                output: self::output(&output),
                forbidden,
            }),
            Command::Convert(ConvertArgs {
                position,
                to,
                output,
                force,
            }) => Config::Convert(Convert {
                input: finished_game(request(&position)),
                to: match to {
                    ConvertFormat::Url => ConvertTo::Url,
                    ConvertFormat::Moves => ConvertTo::Format(Format::Moves),
                    ConvertFormat::Diagram => ConvertTo::Format(Format::Diagram),
                    ConvertFormat::Psq => ConvertTo::Format(Format::Psq),
                    ConvertFormat::Puzzle => ConvertTo::Format(Format::Puzzle),
                    ConvertFormat::Sgf => ConvertTo::Format(Format::Sgf),
                },
                path: output,
                force,
            }),
            Command::Forbidden(ForbiddenArgs { position, output }) => {
                let mut input = request(&position);
                input.given.default_rule = Some(Rule::Renju);
                Config::Forbidden(Forbidden {
                    input,
                    output: self::output(&output),
                })
            }
            Command::Analyze(args) => Config::Analyze(analyze(args)),
            Command::Solve(args) => Config::Solve(solve(args)),
            Command::Review(args) => Config::Review(review(args)),
            Command::Bench(args) => Config::Bench(bench(args)),
            Command::Check(args) => Config::Check(check(args)),
            Command::Serve(args) => Config::Serve(Serve {
                host: args.host,
                port: args.port,
                open: args.open,
                searches: args.searches.map_or_else(cores, |n| n as usize),
            }),
            Command::Brain(args) => Config::Brain { debug: args.debug },
            Command::Completions(args) => Config::Completions(args.shell),
            Command::Man(args) => Config::Man(Man {
                command: args.command,
                dir: args.dir,
            }),
        }
    }
}

fn analyze(args: AnalyzeArgs) -> Analyze {
    Analyze {
        input: request(&args.position),
        output: output(&args.output),
        settings: analyze::Settings {
            depth: args.depth,
            nodes: args.nodes,
            time: args.time,
            window: args.window,
            top: args.top as usize,
            all: args.all,
            hash_mb: args.hash_mb as usize,
            threads: args.threads.map_or_else(
                || {
                    if args.depth.is_none() && args.nodes.is_none() {
                        std::thread::available_parallelism().map_or(1, |n| n.get())
                    } else {
                        1
                    }
                },
                |n| n as usize,
            ),
            threat_limit: args.threat_limit,
            ..analyze::Settings::default()
        },
        heatmap: args.heatmap,
        progress: std::io::stderr().is_terminal(),
    }
}

fn review(args: ReviewArgs) -> Review {
    let mut input = request(&args.position);
    input.given.finished = true;
    input.given.after = None;
    let jobs = args.jobs.unwrap_or(1) as usize;
    let only_time = args.depth.is_none() && args.nodes.is_none();
    let threads = args.threads.map_or_else(
        || {
            if only_time {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                (cores / jobs).max(1)
            } else {
                1
            }
        },
        |n| n as usize,
    );
    Review {
        input,
        output: output(&args.output),
        options: crate::analyze::review::ReviewOptions {
            settings: analyze::Settings {
                depth: args.depth,
                nodes: args.nodes,
                time: args.time,
                hash_mb: args.hash_mb as usize,
                threads,
                ..analyze::Settings::default()
            },
            from: args.from.map_or(1, |n| n as usize),
            to: args.to.map(|n| n as usize),
            jobs,
        },
        progress: std::io::stderr().is_terminal(),
        after: args.position.after,
    }
}

fn solve(args: SolveArgs) -> Solve {
    let mode = if args.vcf {
        Mode::Vcf
    } else if args.win_in.is_some() {
        Mode::WinIn
    } else {
        Mode::Vct
    };
    let mut search = search(&args.search);
    search.given.limit = args.win_in.or(args.limit);
    search.given.threat_limit = args.threat_limit;
    Solve {
        input: request(&args.position),
        output: output(&args.output),
        mode,
        attacker: args.attacker.map(color),
        search,
        verify: !args.no_verify,
        proof: args.proof,
        time: args.time,
        progress: std::io::stderr().is_terminal(),
        cancel: None,
    }
}

fn bench(args: BenchArgs) -> Bench {
    Bench {
        cases: BenchCases {
            vcf: matches!(args.mode, BenchMode::Vcf | BenchMode::All),
            vct: matches!(args.mode, BenchMode::Vct | BenchMode::All),
            analyze: (args.mode == BenchMode::Analyze).then_some(args.depth),
        },
        search: search(&args.search),
        files: args.files,
        filter: args.filter,
        skip_tags: args.skip_tag,
        verify: args.verify,
        json: args.format == OutputFormat::Json,
        progress: std::io::stderr().is_terminal(),
        file: report_file(&args.file),
    }
}

fn check(args: CheckArgs) -> Check {
    Check {
        style: output(&OutputArgs {
            format: ReportFormat::Text,
            color: args.color,
            out_path: args.file.out_path.clone(),
            force: false,
            numbers: false,
        })
        .style,
        paths: args.paths,
        glob: args.glob,
        options: crate::check::CheckOptions {
            strict: args.strict,
            max_nodes: args.max_nodes,
            time: args.time,
        },
        allow_unknown: args.allow_unknown,
        update: args.update,
        format: args.format,
        jobs: args.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
        shard: args.shard,
        skip_tags: args.skip_tag,
        hash_mb: args.hash_mb as usize,
        progress: std::io::stderr().is_terminal(),
        file: report_file(&args.file),
    }
}

/// The machine's cores (1 when unknown).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn report_file(args: &ReportFileArgs) -> Option<ReportFile> {
    args.out_path.clone().map(|path| ReportFile {
        path,
        force: args.force,
    })
}

fn search(args: &SearchArgs) -> Search {
    Search {
        given: task::Bounds {
            max_nodes: args.max_nodes,
            ..task::Bounds::default()
        },
        shortest: args.shortest,
        hash_mb: args.hash_mb as usize,
    }
}

/// A request that reads a game record whole: a five (or a foul) by its last move ends the
/// game instead of refusing it, for the commands that draw or convert a position, which need
/// no side to move.
fn finished_game(mut input: Request) -> Request {
    input.given.finished = true;
    input
}

fn request(args: &PositionArgs) -> Request {
    Request {
        source: args.position.clone(),
        format: args.input_format.map(format),
        id: args.id.clone(),
        given: Given {
            rule: args.rule.map(rule),
            size: args.size,
            to_move: args.to_move.map(color),
            default_rule: None,
            after: args.after,
            finished: false,
        },
        literal: false,
    }
}

fn output(args: &OutputArgs) -> Output {
    Output {
        json: args.format == ReportFormat::Json,
        picture: match args.format {
            ReportFormat::Svg => Some(Picture::Svg),
            ReportFormat::Png => Some(Picture::Png),
            _ => None,
        },
        path: args.out_path.clone(),
        force: args.force,
        numbers: args.numbers,
        style: Style {
            color: match args.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto if args.out_path.is_some() => false,
                ColorChoice::Auto => {
                    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                        && std::io::stdout().is_terminal()
                        && std::env::var("TERM").map_or(true, |t| t != "dumb")
                }
            },
        },
    }
}

fn format(f: FormatArg) -> Format {
    match f {
        FormatArg::Moves => Format::Moves,
        FormatArg::Diagram => Format::Diagram,
        FormatArg::Psq => Format::Psq,
        FormatArg::Puzzle => Format::Puzzle,
        FormatArg::Sgf => Format::Sgf,
    }
}

fn rule(r: RuleArg) -> Rule {
    match r {
        RuleArg::Freestyle => Rule::Freestyle,
        RuleArg::Standard => Rule::Standard,
        RuleArg::Renju => Rule::Renju,
    }
}

fn color(c: ColorArg) -> Color {
    match c {
        ColorArg::Black => Color::Black,
        ColorArg::White => Color::White,
    }
}
