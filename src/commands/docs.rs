//! `tengen completions` and `tengen man`: the shell completion scripts and the manual pages,
//! both generated from the command line's own definition ([`crate::cli::Cli`]), so they can
//! never disagree with `--help`. Each page also gets an EXAMPLES section from [`EXAMPLES`]
//! (the README's examples), whose command lines the tests parse with that same definition.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use super::emit;
use crate::cli::Cli;
use crate::error::Error;
use crate::files::output;

/// The command line as clap builds it, without the `help` subcommand (each command has
/// `--help`; a page or completion for `help` would only repeat them).
fn cli() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell, out: &mut dyn Write) -> Result<u8, Error> {
    let mut cmd = cli();
    let name = cmd.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut script);
    emit(out, &String::from_utf8_lossy(&script))?;
    Ok(0)
}

/// One manual page: `tengen(1)`, or `tengen-NAME(1)` for a command.
struct Page {
    file: String,
    roff: String,
}

/// Every page: `tengen.1` first, then one a command in `--help` order.
fn pages() -> Vec<Page> {
    let top = cli();
    let subs: Vec<clap::Command> = top.get_subcommands().cloned().collect();
    let see_also: Vec<String> = subs
        .iter()
        .map(|s| format!("\\fBtengen\\-{}\\fR(1)", s.get_name()))
        .collect();
    let mut out = vec![page(top, "tengen", &see_also.join(",\n"))];
    for sub in subs {
        let name = sub.get_name().to_string();
        out.push(page(sub, &name, "\\fBtengen\\fR(1)"));
    }
    out
}

/// The examples of each page, by command (`tengen` for `tengen(1)`): a command line as a user
/// types it into a shell, and what it does. They are the README's examples; files that are not
/// in the repository (`game.psq`, `collection.txt`) stand for the user's own.
const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "tengen",
        &[
            (
                "tengen analyze game.psq --rule renju",
                "Rank the moves of a game saved by Piskvork, under renju: a score, a win chance and a line for each of the best moves, and any forced win or loss, verified.",
            ),
            (
                "tengen analyze \"https://gomocalc.com/#/h8i9g9i7i8g7h7j8j9g6\" --rule renju",
                "The same for a game copied from Gomoku Calculator (the URL never carries the rule).",
            ),
            (
                "tengen solve --vcf puzzles/vcf.txt --id tengen/vcf-renju-3",
                "Solve one puzzle of a puzzle file shipped with tengen: a win by fours, verified.",
            ),
            (
                "tengen check puzzles/",
                "Check the stated answer of every puzzle in the *.txt files below puzzles/: exit 0 when all pass, 1 on a failure, 2 on an error.",
            ),
            (
                "tengen show \"h8 i9 j10\"",
                "Print a position as a board diagram.",
            ),
            (
                "tengen man --dir ~/.local/share/man/man1",
                "Install these pages for one user (then man tengen, man tengen-solve).",
            ),
        ],
    ),
    (
        "show",
        &[
            (
                "tengen show \"h8 i9 j10\"",
                "A move list; H8,I9,J10 and h8i9j10 read the same.",
            ),
            (
                "tengen show \"https://gomocalc.com/#/h8h7i9\"",
                "A Gomoku Calculator URL (the rule never comes with it).",
            ),
            (
                "tengen show game.psq --rule renju --forbidden",
                "A Piskvork game under renju, black's forbidden points marked #.",
            ),
            (
                "tengen show puzzles/examples.txt --id tengen/small-board",
                "One puzzle of a puzzle file.",
            ),
            (
                "tengen show games.sgf --id 7",
                "Game 7 of an SGF file (c-gomoku-cli's games.sgf): its GN, else the 7th game.",
            ),
            (
                "tengen show \"h8 i9\" --format json",
                "The position as one JSON object.",
            ),
        ],
    ),
    (
        "convert",
        &[
            (
                "tengen convert \"h8 i9 j10\" --to diagram",
                "A move list as a board diagram.",
            ),
            (
                "tengen convert game.psq --to moves",
                "A Piskvork game as a move list in RIF coordinates.",
            ),
            (
                "tengen convert \"h8 h9 i9 g7\" --to sgf --rule renju",
                "A move list as an SGF game record (GM[4], RU[4]).",
            ),
            (
                "tengen convert puzzles/examples.txt --id tengen/small-board --to psq -o small.psq",
                "One puzzle as a .psq file (an existing small.psq is replaced only with --force).",
            ),
            (
                "tengen convert puzzles/examples.txt --to puzzle",
                "Rewrite a whole puzzle file, to standard output.",
            ),
        ],
    ),
    (
        "forbidden",
        &[
            (
                "tengen forbidden \"e7 a1 f7 a3 g5 a5 g6\"",
                "Black's forbidden points: g7 is a double three. The rule is renju unless the input or --rule names another.",
            ),
            (
                "tengen forbidden game.psq --format json",
                "The same as JSON: {\"rule\": \"renju\", \"points\": [{\"point\": ..., \"foul\": ...}]}.",
            ),
            (
                "tengen show game.psq --rule renju --forbidden",
                "Mark them on the diagram instead.",
            ),
        ],
    ),
    (
        "analyze",
        &[
            (
                "tengen analyze puzzles/midgame.txt --id tengen/midgame-renju-1",
                "A position shipped with tengen, analysed for about a second (black has a forced win there).",
            ),
            (
                "tengen analyze game.psq --rule renju",
                "Rank the moves of your own game, saved by Piskvork.",
            ),
            (
                "tengen analyse \"https://gomocalc.com/#/h8i9g9i7i8g7h7j8j9g6\" --rule renju",
                "A game copied from Gomoku Calculator; analyse is the same command.",
            ),
            (
                "tengen analyze \"h8 i9 g9 i7 i8 g7\" --rule renju --depth 8 --top 3 --threads 1",
                "Search 8 plies and give exact scores and lines to the best 3; one thread at a fixed depth gives the same answer every run.",
            ),
            (
                "tengen analyze game.psq --rule renju --time 10s --heatmap",
                "Ten seconds, and every scored point drawn with a digit, 9 best.",
            ),
            (
                "tengen analyze \"h8 h9 i9\" --format json --all",
                "Every candidate scored exactly, as JSON.",
            ),
        ],
    ),
    (
        "review",
        &[
            (
                "tengen review games/renju-2.sgf",
                "Review a game shipped with tengen (tengen against Rapfi, renju, from the SGF's RU): a verdict a move, the best move instead, forced wins missed and allowed, the turning point.",
            ),
            (
                "tengen review game.psq --rule renju --time 3s --jobs 2",
                "Your own Piskvork game, 3 seconds a position, two positions at once.",
            ),
            (
                "tengen review games.sgf --id 7 --from 20 --to 40 --format json",
                "Moves 20 to 40 of game 7 of a match, as JSON (one object a game, a record a move).",
            ),
        ],
    ),
    (
        "solve",
        &[
            (
                "tengen solve --vcf puzzles/vcf.txt --id tengen/vcf-renju-3",
                "A win by continuous fours, its line verified.",
            ),
            (
                "tengen solve --vcf \"h8 a1 i8 a2 j8 a3\" --shortest --format json",
                "A VCF of minimum length, as JSON.",
            ),
            (
                "tengen solve --vcf game.psq --rule renju --attacker white --limit 6 --max-nodes 1000000",
                "Does white have a VCF within 6 moves, were black to pass? Answers unknown if a million positions are not enough.",
            ),
            (
                "tengen solve --vct puzzles/vct.txt --id tengen/vct-renju-5 --proof",
                "A win by continuous threats, with the whole proof tree, verified against every defence.",
            ),
            (
                "tengen solve --win-in 3 puzzles/vct.txt --id tengen/vct-renju-5",
                "A win in 3 moves? No: that puzzle needs 5.",
            ),
            (
                "tengen solve --vct puzzles/examples.txt --id tengen/double-three --format json --proof",
                "The proof as JSON.",
            ),
        ],
    ),
    (
        "bench",
        &[
            (
                "tengen bench puzzles/vcf.txt --mode vcf",
                "Time the VCF solver on the VCF cases of a file.",
            ),
            (
                "tengen bench puzzles/vct.txt --mode vct --skip-tag heavy --verify",
                "The VCT cases not tagged heavy, each proof verified (not timed).",
            ),
            (
                "tengen bench puzzles/midgame.txt --mode analyze --depth 8",
                "The analyzer: nodes per second and the time to each depth.",
            ),
            (
                "tengen bench puzzles/examples.txt --format json",
                "JSON Lines, one object a case.",
            ),
        ],
    ),
    (
        "check",
        &[
            (
                "tengen check puzzles/",
                "Every *.txt below puzzles/: exit 0 when every puzzle passes, 1 on a failure, 2 on an error.",
            ),
            (
                "tengen check collection.txt --strict",
                "Composer mode: a second solution fails too.",
            ),
            (
                "tengen check puzzles/ --format junit > report.xml",
                "A JUnit report for a CI server.",
            ),
            (
                "tengen check puzzles/ --shard 2/4 --format github --jobs 2",
                "The second quarter of the puzzles, each failure as a GitHub Actions annotation on the answer's line.",
            ),
            (
                "tengen check new-puzzles.txt --update",
                "Fill in missing answers and limits.",
            ),
        ],
    ),
    (
        "brain",
        &[
            (
                "pbrain-tengen",
                "The same engine under the name GUIs and match runners look for; give its path to Piskvork, qpiskvork, Yixin-Board or c-gomoku-cli.",
            ),
            (
                "printf 'START 15\\nBEGIN\\nEND\\n' | tengen brain",
                "A game by hand: OK, then the brain's first move as black, 7,7 (h8).",
            ),
            (
                "tengen brain --debug",
                "Also print DEBUG lines: each move's time budget and why its search stopped.",
            ),
        ],
    ),
    (
        "serve",
        &[
            (
                "tengen serve --open",
                "The board in your browser, on a free port of 127.0.0.1: click to play, watch the analysis deepen, review a game.",
            ),
            (
                "tengen serve --port 8080",
                "A fixed port, to bookmark http://127.0.0.1:8080/ (without --port, the first line printed says which).",
            ),
            (
                "tengen serve --searches 1",
                "One search at a time, whatever the machine has; further requests wait in the queue.",
            ),
        ],
    ),
    (
        "completions",
        &[
            (
                "tengen completions bash > ~/.local/share/bash-completion/completions/tengen",
                "bash (bash-completion loads it on first use; create the folder first).",
            ),
            (
                "tengen completions zsh > ~/.zfunc/_tengen",
                "zsh: any folder on $fpath, e.g. fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc.",
            ),
            (
                "tengen completions fish > ~/.config/fish/completions/tengen.fish",
                "fish.",
            ),
        ],
    ),
    (
        "man",
        &[
            (
                "tengen man --dir ~/.local/share/man/man1",
                "Write every page for one user; then man tengen, man tengen-solve.",
            ),
            (
                "tengen man | man -l -",
                "Read tengen(1) without installing it.",
            ),
            (
                "tengen man convert > tengen-convert.1",
                "A single command's page.",
            ),
        ],
    ),
];

/// The examples of `name`'s page (`tengen` or a command).
fn examples(name: &str) -> &'static [(&'static str, &'static str)] {
    EXAMPLES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |(_, e)| e)
}

/// The EXAMPLES section of `name`'s page: each command line in bold, what it does beneath.
fn examples_section(name: &str) -> String {
    use clap_mangen::roff::{Roff, bold, roman};
    let mut roff = Roff::new();
    roff.control("SH", ["EXAMPLES"]);
    for (line, what) in examples(name) {
        roff.control("TP", []);
        roff.text([bold(*line)]);
        roff.text([roman(*what)]);
    }
    // `render` escapes apostrophes with the string the page's own preamble defines; keep
    // what follows that preamble.
    let rendered = roff.render();
    let start = rendered
        .find(".SH EXAMPLES")
        .expect("the section starts with its heading");
    rendered[start..].to_string()
}

fn page(cmd: clap::Command, name: &str, see_also: &str) -> Page {
    // Every page names the program and its version (a command's page would otherwise have
    // the command's name and no version).
    let source = format!("tengen {}", env!("CARGO_PKG_VERSION"));
    let man = clap_mangen::Man::new(cmd).source(source);
    let file = man.get_filename();
    let mut roff = Vec::new();
    man.render(&mut roff)
        .expect("rendering into memory cannot fail");
    let mut roff = String::from_utf8_lossy(&roff).into_owned();
    // EXAMPLES after the options and commands, before VERSION where the page has one.
    let examples = examples_section(name);
    match roff.find("\n.SH VERSION\n") {
        Some(at) => roff.insert_str(at + 1, &examples),
        None => roff.push_str(&examples),
    }
    roff.push_str(&format!(".SH \"SEE ALSO\"\n{see_also}\n"));
    Page { file, roff }
}

/// `tengen man`: prints `tengen(1)`, or the page of `command`; with `dir`, writes every page
/// into it instead (creating it) and prints their paths.
pub fn man(command: Option<&str>, dir: Option<&Path>, out: &mut dyn Write) -> Result<u8, Error> {
    let pages = pages();
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut written = String::new();
        for p in &pages {
            let path = dir.join(&p.file);
            output::write(&path, &p.roff, true)?;
            written.push_str(&format!("{}\n", path.display()));
        }
        emit(out, &written)?;
        return Ok(0);
    }
    let wanted = match command {
        None => "tengen.1".to_string(),
        Some(c) => format!("tengen-{c}.1"),
    };
    match pages.iter().find(|p| p.file == wanted) {
        Some(p) => emit(out, &p.roff)?,
        None => {
            let names: Vec<String> = cli()
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            return Err(Error::usage(format!(
                "no command '{}': the pages are for {}",
                command.unwrap_or_default(),
                names.join(", ")
            )));
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// A command line split into words as a POSIX shell would for these examples: white space
    /// between words, quotes (single or double) around a word's parts, a backslash inside
    /// double quotes kept as it is.
    fn words(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut word: Option<String> = None;
        let mut quote: Option<char> = None;
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => word.get_or_insert_default().push(c),
                (None, '\'' | '"') => {
                    quote = Some(c);
                    word.get_or_insert_default();
                }
                (None, c) if c.is_whitespace() => out.extend(word.take()),
                (None, c) => word.get_or_insert_default().push(c),
            }
        }
        assert!(quote.is_none(), "an unclosed quote in {line}");
        out.extend(word);
        out
    }

    #[test]
    fn words_split_as_a_shell_would() {
        assert_eq!(
            words(r#"tengen show "h8 i9" --id 'a b'x"#),
            ["tengen", "show", "h8 i9", "--id", "a bx"]
        );
        assert_eq!(words("printf 'a\\n' | x"), ["printf", "a\\n", "|", "x"]);
    }

    #[test]
    fn every_page_has_examples_of_its_own_command() {
        let top = cli();
        let mut names = vec!["tengen".to_string()];
        names.extend(top.get_subcommands().map(|s| s.get_name().to_string()));
        for name in &names {
            let lines: Vec<&str> = examples(name).iter().map(|(l, _)| *l).collect();
            assert!(lines.len() >= 3, "{name}: {lines:?}");
            let own = if name == "tengen" {
                "tengen ".to_string()
            } else {
                format!("tengen {name}")
            };
            assert!(
                lines.iter().any(|l| l.starts_with(&own)),
                "{name}: no example starts with {own:?}"
            );
            assert!(examples(name).iter().all(|(_, what)| !what.is_empty()));
        }
        // And no examples for a page that does not exist.
        for (name, _) in EXAMPLES {
            assert!(names.iter().any(|n| n == name), "{name} is not a page");
        }
    }

    /// Every `tengen ...` in the examples (up to a pipe or a redirection) is a command line
    /// the command line's definition accepts: an option renamed or removed fails here.
    #[test]
    fn every_example_is_a_command_line_tengen_accepts() {
        for (page, list) in EXAMPLES {
            for (line, _) in *list {
                let words = words(line);
                let mut parsed = 0;
                for part in words.split(|w| w == "|") {
                    let end = part
                        .iter()
                        .position(|w| w == ">" || w == "<")
                        .unwrap_or(part.len());
                    let part = &part[..end];
                    match part.first().map(String::as_str) {
                        Some("tengen") => {
                            if let Err(e) = Cli::try_parse_from(part) {
                                panic!("{page}: {line}: {e}");
                            }
                            parsed += 1;
                        }
                        Some("pbrain-tengen") => parsed += 1,
                        _ => {}
                    }
                }
                assert!(parsed > 0, "{page}: {line} runs no tengen");
            }
        }
    }

    #[test]
    fn the_examples_come_before_version_and_see_also() {
        for p in pages() {
            let examples = p.roff.find(".SH EXAMPLES\n").expect(&p.file);
            let see_also = p.roff.find(".SH \"SEE ALSO\"").unwrap();
            assert!(examples < see_also, "{}", p.file);
            if let Some(version) = p.roff.find(".SH VERSION") {
                assert!(examples < version, "{}", p.file);
            }
            assert_eq!(p.roff.matches(".SH EXAMPLES").count(), 1, "{}", p.file);
        }
    }
}
