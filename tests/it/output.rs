//! `convert -o PATH` onto every kind of path (issue 11): a regular file is replaced atomically
//! and only with `--force`, keeping its permissions; a link writes the file it points to and
//! stays a link; a device, FIFO or descriptor is written straight into and never replaced; a
//! directory is an error that writes nothing.

use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
use std::path::Path;

use crate::{run, tengen};

/// What `convert "h8 i9" --to psq` prints: the text every `-o` below should write.
fn expected() -> String {
    let (code, out, err) = run(&["convert", "h8 i9", "--to", "psq"]);
    assert_eq!(code, 0, "{err}");
    out
}

/// `convert "h8 i9" --to psq -o path` plus `extra`; returns (exit code, stderr).
fn convert_to(path: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "convert",
        "h8 i9",
        "--to",
        "psq",
        "-o",
        path.to_str().unwrap(),
    ];
    args.extend(extra);
    let (code, out, err) = run(&args);
    assert_eq!(out, "", "nothing goes to standard output");
    (code, err)
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_regular_file_keeps_its_permissions_when_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.psq");
    std::fs::write(&path, "old\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let (code, err) = convert_to(&path, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("exists: pass --force"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
    let (code, err) = convert_to(&path, &["--force"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o7777, 0o640);
    assert_eq!(names(dir.path()), ["game.psq"], "no temporary file is left");
}

#[test]
fn a_new_file_is_not_left_private_to_its_writer() {
    // A temporary file is created 0600; the file it becomes gets the usual 0666 less the
    // umask (at most 077), so its owner can always read and write it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.psq");
    assert_eq!(convert_to(&path, &[]).0, 0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    let umask = {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .and_then(|m| u32::from_str_radix(m.trim(), 8).ok())
    };
    if let Some(umask) = umask {
        assert_eq!(mode, 0o666 & !umask, "mode {mode:o}, umask {umask:o}");
    }
}

#[test]
fn a_link_writes_the_file_it_points_to_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/game.psq");
    std::fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.psq");
    symlink("real/game.psq", &link).unwrap();
    let (code, err) = convert_to(&link, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a link to") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
    let (code, err) = convert_to(&link, &["--force"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), expected());
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is still a link");
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("real/game.psq")
    );
    assert_eq!(names(&dir.path().join("real")), ["game.psq"]);
    assert_eq!(names(dir.path()), ["link.psq", "real"]);
}

#[test]
fn a_dangling_link_creates_its_target_when_the_folder_exists() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("link.psq");
    symlink("target.psq", &link).unwrap();
    let (code, err) = convert_to(&link, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("target.psq")).unwrap(),
        expected()
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    let broken = dir.path().join("broken.psq");
    symlink("nowhere/target.psq", &broken).unwrap();
    let (code, err) = convert_to(&broken, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("broken.psq")
            && err.contains("a link to")
            && err.contains("nowhere")
            && err.contains("does not exist"),
        "{err}"
    );
    assert!(!dir.path().join("nowhere").exists());
}

#[test]
fn a_directory_is_an_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("out");
    std::fs::create_dir(&sub).unwrap();
    let with_slash = format!("{}/", sub.display());
    for path in [sub.to_str().unwrap(), &with_slash] {
        for force in [&[][..], &["--force"][..]] {
            let (code, err) = convert_to(Path::new(path), force);
            assert_eq!(code, 2, "{path}");
            assert!(
                err.contains(&format!("cannot write {path}: is a directory")),
                "{err}"
            );
        }
    }
    let link = dir.path().join("link");
    symlink("out", &link).unwrap();
    let (code, err) = convert_to(&link, &["--force"]);
    assert_eq!(code, 2);
    assert!(err.contains("is a link to directory"), "{err}");
    assert!(names(&sub).is_empty(), "nothing written inside");
    assert_eq!(names(dir.path()), ["link", "out"]);

    // A path ending in `/` names a directory even when there is none.
    let missing = format!("{}/new/", dir.path().display());
    let (code, err) = convert_to(Path::new(&missing), &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&missing) && err.contains("names a directory"),
        "{err}"
    );
    assert_eq!(names(dir.path()), ["link", "out"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_fifo_is_written_into_not_replaced() {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // No --force: writing into a FIFO replaces nothing. With it: the same.
    for extra in [&[][..], &["--force"][..]] {
        // The read end, opened first without blocking, so tengen's open for writing finds a
        // reader and nothing here can hang; the text fits the pipe's buffer.
        let mut reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        let (code, err) = convert_to(&fifo, extra);
        assert_eq!(code, 0, "{err}");
        let mut read = String::new();
        reader.read_to_string(&mut read).unwrap();
        assert_eq!(read, expected());
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "still a FIFO");
        assert_eq!(names(dir.path()), ["pipe"], "no temporary file beside it");
    }
}

#[test]
fn dev_null_is_written_into_and_stays_a_device() {
    // Run as root, a rename over /dev/null would replace the device with a regular file:
    // tengen must open it and write, as `>` does.
    for extra in [&[][..], &["--force"][..]] {
        let (code, err) = convert_to(Path::new("/dev/null"), extra);
        assert_eq!(code, 0, "{err}");
        let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(kind.is_char_device(), "/dev/null is still a device");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_is_standard_output_whatever_it_is() {
    // A pipe (what the test harness reads).
    let out = tengen()
        .args(["convert", "h8 i9", "--to", "psq", "-o", "/dev/stdout"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected());

    // A file opened for appending (`>> log`): added to, not replaced, no --force needed.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    std::fs::write(&log, "before\n").unwrap();
    let file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["convert", "h8 i9", "--to", "psq", "-o", "/dev/stdout"])
        .stdout(file)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("before\n{}", expected())
    );
    assert_eq!(names(dir.path()), ["log"]);
}

/// What a report file must look like to be the whole report in its format.
fn is_whole(format: &str, bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    match format {
        "json" => {
            // One document, or JSON Lines (check, bench): every line parses.
            serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
                || (!text.is_empty()
                    && text
                        .lines()
                        .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()))
        }
        "svg" => text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
        "png" => bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.ends_with(b"IEND\xaeB`\x82"),
        "junit" => text.starts_with("<?xml") && text.trim_end().ends_with("</testsuites>"),
        _ => !text.trim().is_empty(),
    }
}

#[test]
fn every_report_is_written_by_o_and_an_existing_file_only_with_force() {
    let root = env!("CARGO_MANIFEST_DIR");
    let vcf = format!("{root}/puzzles/vcf.txt");
    let pictures = ["text", "json", "svg", "png"];
    let mut runs: Vec<(Vec<String>, &str)> = Vec::new();
    let commands: [&[&str]; 5] = [
        &["show", "h8 i9 j10"],
        &["forbidden", "h8 i9 j10 h9"],
        &["analyze", "h8 i9 j10", "--depth", "2", "--threads", "1"],
        &["solve", "--vcf", &vcf, "--id", "tengen/vcf-freestyle-1"],
        &["review", "h8 i9 j10 h9", "--depth", "1"],
    ];
    for command in commands {
        for format in pictures {
            let mut args: Vec<String> = command.iter().map(|s| s.to_string()).collect();
            args.extend(["--format".into(), format.into()]);
            runs.push((args, format));
        }
    }
    for to in ["moves", "diagram", "psq", "puzzle", "sgf", "url"] {
        runs.push((
            vec![
                "convert".into(),
                "h8 i9 j10".into(),
                "--to".into(),
                to.into(),
            ],
            to,
        ));
    }
    for format in ["text", "json", "junit", "github"] {
        let args = ["check", &vcf, "--format", format, "--jobs", "1"];
        runs.push((args.iter().map(|s| s.to_string()).collect(), format));
    }
    for format in ["text", "json"] {
        let args = [
            "bench",
            &vcf,
            "--mode",
            "vcf",
            "--filter",
            "freestyle-1",
            "--format",
            format,
        ];
        runs.push((args.iter().map(|s| s.to_string()).collect(), format));
    }
    let dir = tempfile::tempdir().unwrap();
    for (i, (args, format)) in runs.iter().enumerate() {
        let path = dir.path().join(format!("report-{i}.{format}"));
        let file = path.to_str().unwrap();
        let mut with_o: Vec<&str> = args.iter().map(String::as_str).collect();
        with_o.extend(["-o", file]);
        let (code, out, err) = run(&with_o);
        assert_eq!(code, 0, "{with_o:?}: {err}");
        assert_eq!(out, "", "{with_o:?}: nothing goes to standard output");
        let written = std::fs::read(&path).unwrap();
        assert!(is_whole(format, &written), "{with_o:?}: {written:?}");
        // The same bytes as standard output, where the report has no clock in it.
        let timed = ["analyze", "solve", "review", "check", "bench"].contains(&with_o[0]);
        if !timed && *format != "png" {
            let to_stdout: Vec<&str> = args.iter().map(String::as_str).collect();
            let (_, out, _) = run(&to_stdout);
            assert_eq!(String::from_utf8_lossy(&written), out, "{with_o:?}");
        }
        // An existing file is refused before any work, and left as it was.
        std::fs::write(&path, "mine\n").unwrap();
        let (code, out, err) = run(&with_o);
        assert_eq!(code, 2, "{with_o:?}: {out}");
        assert_eq!(
            err.trim_end(),
            format!("error: {file} exists: pass --force to replace it")
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine\n");
        with_o.push("--force");
        let (code, _, err) = run(&with_o);
        assert_eq!(code, 0, "{with_o:?}: {err}");
        assert!(
            is_whole(format, &std::fs::read(&path).unwrap()),
            "{with_o:?}"
        );
    }
    let mut left = names(dir.path());
    left.retain(|n| !n.starts_with("report-"));
    assert!(left.is_empty(), "no temporary file is left: {left:?}");
}
