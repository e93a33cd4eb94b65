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
