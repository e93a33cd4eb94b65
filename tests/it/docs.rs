//! `tengen completions SHELL` and `tengen man`: generated from the command line's definition,
//! so every command appears in each script and page.

use crate::run;

/// Every command a user can type after `tengen`, as `tengen --help` lists them (not a list
/// kept by hand, which a new command would silently escape).
fn commands() -> Vec<String> {
    let (code, help, err) = run(&["--help"]);
    assert_eq!(code, 0, "{err}");
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A command's line starts two spaces in; a wrapped description further.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect();
    for known in ["show", "analyze", "solve", "check", "brain", "man"] {
        assert!(
            listed.iter().any(|c| c == known),
            "{known} missing from {listed:?}"
        );
    }
    listed
}

#[test]
fn every_shell_gets_a_script_that_knows_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.len() > 1000, "{shell}: {} bytes", out.len());
        for command in commands() {
            assert!(out.contains(&command), "{shell} does not mention {command}");
        }
        // Options and their values too: convert's --force, the rule names.
        assert!(out.contains("force") && out.contains("renju"), "{shell}");
    }
    let (code, _, err) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'tcsh'"), "{err}");
}

#[test]
fn the_man_page_lists_every_command() {
    let (code, page, err) = run(&["man"]);
    assert_eq!(code, 0, "{err}");
    assert!(page.contains(".TH tengen 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"));
    for command in commands() {
        assert!(
            page.contains(&format!("tengen\\-{command}(1)")),
            "no {command} in:\n{page}"
        );
    }
    assert!(!page.contains("tengen\\-help"), "no page for `help`");
}

#[test]
fn each_command_has_its_own_page() {
    let (code, page, err) = run(&["man", "convert"]);
    assert_eq!(code, 0, "{err}");
    assert!(page.contains(".TH tengen-convert 1"), "{page}");
    assert!(page.contains(r"\fBtengen convert\fR"), "the synopsis");
    assert!(
        page.contains(r"\-\-force") && page.contains("FIFO"),
        "{page}"
    );
    assert!(page.contains(&format!("tengen {}", env!("CARGO_PKG_VERSION"))));
    let (code, _, err) = run(&["man", "nonsense"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no command 'nonsense'") && err.contains("convert"),
        "{err}"
    );
}

#[test]
fn man_dir_writes_one_page_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("share/man/man1");
    let (code, out, err) = run(&["man", "--dir", man1.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mut expected = vec!["tengen.1".to_string()];
    expected.extend(commands().iter().map(|c| format!("tengen-{c}.1")));
    let mut written: Vec<String> = std::fs::read_dir(&man1)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(written, sorted);
    // The paths written, one a line, `tengen.1` first.
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(listed.len(), expected.len());
    assert!(listed[0].ends_with("/tengen.1"), "{out}");
    for name in &expected {
        let page = std::fs::read_to_string(man1.join(name)).unwrap();
        let title = format!(".TH {} 1", name.trim_end_matches(".1"));
        assert!(page.contains(&title), "{name}");
    }
    // A second run replaces the pages (a packager's rebuild).
    assert_eq!(run(&["man", "--dir", man1.to_str().unwrap()]).0, 0);
    // A page for one command and --dir do not go together.
    let (code, _, err) = run(&["man", "show", "--dir", man1.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}

/// The command lines of a page's EXAMPLES section, as a user would type them (the roff
/// escapes undone), in order.
fn examples(page: &str) -> Vec<String> {
    let section = page
        .split_once(".SH EXAMPLES\n")
        .map(|(_, rest)| rest.split("\n.SH ").next().unwrap_or(rest))
        .unwrap_or_else(|| panic!("no EXAMPLES section in:\n{page}"));
    section
        .lines()
        .filter_map(|l| l.strip_prefix(r"\fB")?.strip_suffix(r"\fR"))
        .map(|l| {
            l.replace(r"\*(Aq", "'")
                .replace(r"\-", "-")
                .replace(r"\\", r"\")
        })
        .collect()
}

#[test]
fn the_main_page_has_examples_of_real_command_lines() {
    let (code, page, err) = run(&["man"]);
    assert_eq!(code, 0, "{err}");
    let lines = examples(&page);
    // From a game to ranked moves, a puzzle, a collection: the README's first tasks.
    for wanted in [
        "tengen analyze game.psq --rule renju",
        "tengen solve --vcf puzzles/vcf.txt --id tengen/vcf-renju-3",
        "tengen check puzzles/",
    ] {
        assert!(lines.iter().any(|l| l == wanted), "{wanted} in {lines:?}");
    }
    let at = |s: &str| page.find(s).unwrap_or_else(|| panic!("no {s}"));
    assert!(at(".SH SUBCOMMANDS") < at(".SH EXAMPLES"));
    assert!(at(".SH EXAMPLES") < at(".SH VERSION"));
    assert!(at(".SH VERSION") < at(".SH \"SEE ALSO\""));
}

#[test]
fn every_command_page_has_examples_of_its_command() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(run(&["man", "--dir", dir.path().to_str().unwrap()]).0, 0);
    for command in commands() {
        let page = std::fs::read_to_string(dir.path().join(format!("tengen-{command}.1"))).unwrap();
        let lines = examples(&page);
        let own = format!("tengen {command}");
        assert!(
            lines.iter().any(|l| l.starts_with(&own)),
            "tengen-{command}(1) has no example of {own}: {lines:?}"
        );
        assert!(page.find(".SH EXAMPLES") < page.find(".SH \"SEE ALSO\""));
    }
}

/// The analyze page's first example, a position shipped in `puzzles/`, run as the page gives
/// it (through a shell, from the repository's folder, `tengen` on the PATH): it ranks moves.
#[cfg(unix)]
#[test]
fn the_analyze_page_example_runs_as_written() {
    let (code, page, err) = run(&["man", "analyze"]);
    assert_eq!(code, 0, "{err}");
    let lines = examples(&page);
    let example = "tengen analyze puzzles/midgame.txt --id tengen/midgame-renju-1";
    assert_eq!(
        lines.first().map(String::as_str),
        Some(example),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("tengen analyse ")),
        "the alias"
    );
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_tengen"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(example)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("# tengen/midgame-renju-1"), "{stdout}");
    assert!(stdout.contains("rank  move"), "{stdout}");
}

/// The README, as shipped beside the tests.
fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The README is for players (issue 59): short, and no prose line that a reader must scroll.
#[test]
fn the_readme_is_short_and_its_prose_lines_readable() {
    let text = readme();
    let lines = text.lines().count();
    assert!(lines <= 350, "README.md has {lines} lines");
    let mut in_code = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && !line.starts_with('|') {
            let width = line.chars().count();
            assert!(
                width <= 300,
                "README.md:{}: a prose line of {width} characters",
                n + 1
            );
        }
    }
    assert!(!in_code, "README.md: a code block is never closed");
}

/// A shell line's words, as `sh` would split them: quotes kept together, a comment, a
/// redirection or a pipe ending the command.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quote, mut started) = (vec![], String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => (quote, started) = (Some(c), true),
            (None, '>' | '|' | ';') => break,
            (None, '#') if !started => break,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Every `tengen` command line the README shows (in its shell blocks, or after a `$ ` prompt)
/// is one the command line's definition accepts: a renamed or removed option fails here.
#[test]
fn every_command_line_in_the_readme_parses() {
    use clap::Parser;
    let text = readme();
    let mut checked = 0;
    let mut in_sh = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        let command = match line.trim_start().strip_prefix("$ ") {
            Some(prompted) => prompted,
            None if in_sh => line.trim_start(),
            None => continue,
        };
        let command = command.replace("cargo run --release --", "tengen");
        let words = shell_words(&command);
        if words.first().map(String::as_str) != Some("tengen") {
            continue;
        }
        if let Err(e) = tengen::cli::Cli::try_parse_from(&words) {
            panic!("README.md:{}: `{command}` does not parse:\n{e}", n + 1);
        }
        checked += 1;
    }
    assert!(
        checked >= 15,
        "only {checked} command lines found in the README"
    );
}

#[test]
fn shell_words_split_as_sh_does() {
    assert_eq!(
        shell_words(r#"tengen analyze "h8 i9" --rule renju   # a comment"#),
        ["tengen", "analyze", "h8 i9", "--rule", "renju"]
    );
    assert_eq!(
        shell_words("tengen man convert > x.1"),
        ["tengen", "man", "convert"]
    );
    assert_eq!(
        shell_words("tengen check mine.txt; echo $?"),
        ["tengen", "check", "mine.txt"]
    );
}
