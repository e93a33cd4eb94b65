//! Writing files the user named (every report's `-o`, `check --update`): never over an existing file
//! unless asked, a regular file atomically (it is either the old one or the whole new one),
//! and never replacing what is not a regular file.
//!
//! What `path` is decides how it is written:
//!
//! - a regular file, or nothing yet: a temporary file beside it, synced, then renamed over it
//!   (an existing file keeps its permissions, and its owner where the system allows); an
//!   existing file is replaced only when forced;
//! - a symbolic link: the file it points to, by the same rules; the link stays a link. A
//!   dangling link creates its target when the target's folder exists;
//! - a device, FIFO or socket, or one of the process's open descriptors (`/dev/stdout`,
//!   `/dev/fd/N`, `/proc/self/fd/N`): written straight into, as a shell's `>` would, with no
//!   temporary file and no rename; nothing is replaced, so no forcing is needed;
//! - a directory, or a path ending in `/`: an error, and nothing is written.

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Links followed before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Where the text goes, once links are followed.
#[derive(Debug, PartialEq, Eq)]
enum Dest {
    /// A regular file, existing or not: replaced by a temporary file and a rename.
    Replace { file: PathBuf, exists: bool },
    /// A device, FIFO, socket or open descriptor: opened and written into.
    Into { file: PathBuf, descriptor: bool },
}

/// Writes `text` to `path` as the module documentation says; refuses to replace an existing
/// regular file (or the one a link points to) unless `force`.
pub fn write(path: &Path, text: impl AsRef<[u8]>, force: bool) -> Result<(), Error> {
    let text = text.as_ref();
    let werr = |source: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    match allowed(path, force)? {
        Dest::Replace { file, .. } => replace(&file, text).map_err(werr),
        Dest::Into { file, descriptor } => {
            // An open descriptor is appended to, as writing to the descriptor itself would:
            // `-o /dev/stdout >> log` adds to the log instead of overwriting its start.
            std::fs::OpenOptions::new()
                .write(true)
                .append(descriptor)
                .open(&file)
                .and_then(|mut f| f.write_all(text).and_then(|_| f.flush()))
                .map_err(werr)
        }
    }
}

/// Whether [`write`] would write to `path` (no directory, an existing folder, an existing
/// file only when `force`), asked before a long command runs so that it fails at once rather
/// than after the work. Nothing is written.
pub fn check(path: &Path, force: bool) -> Result<(), Error> {
    allowed(path, force).map(|_| ())
}

/// Where [`write`] writes `path`, or the error that stops it: what [`destination`] refuses,
/// and an existing regular file without `force`.
fn allowed(path: &Path, force: bool) -> Result<Dest, Error> {
    let dest = destination(path)?;
    if let Dest::Replace { file, exists: true } = &dest
        && !force
    {
        let what = if file == path {
            String::new()
        } else {
            format!(" (a link to {})", file.display())
        };
        return Err(Error::usage(format!(
            "{}{what} exists: pass --force to replace it",
            path.display()
        )));
    }
    Ok(dest)
}

/// What `path` names once its links are followed; an error for a directory, a path ending in
/// `/`, a missing folder, or a loop of links.
fn destination(path: &Path) -> Result<Dest, Error> {
    let fail = |source: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let message = |kind: ErrorKind, text: String| fail(std::io::Error::new(kind, text));
    if path.as_os_str().is_empty() {
        return Err(message(ErrorKind::InvalidInput, "no file name".into()));
    }
    let trailing = path
        .as_os_str()
        .to_string_lossy()
        .chars()
        .next_back()
        .is_some_and(std::path::is_separator);
    if trailing {
        return Err(if path.is_dir() {
            message(ErrorKind::IsADirectory, "is a directory".into())
        } else {
            message(
                ErrorKind::NotFound,
                "a path ending in '/' names a directory, and there is none".into(),
            )
        });
    }
    let mut file = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if is_descriptor(&file) {
            return Ok(Dest::Into {
                file,
                descriptor: true,
            });
        }
        let meta = match std::fs::symlink_metadata(&file) {
            Ok(meta) => meta,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let dir = folder(&file);
                if dir.is_dir() {
                    return Ok(Dest::Replace {
                        file,
                        exists: false,
                    });
                }
                let link = if file == path {
                    String::new()
                } else {
                    format!("it is a link to {}, and ", file.display())
                };
                return Err(message(
                    ErrorKind::NotFound,
                    format!("{link}folder {} does not exist", dir.display()),
                ));
            }
            Err(e) => return Err(fail(e)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let to = std::fs::read_link(&file).map_err(fail)?;
            file = if to.is_absolute() {
                to
            } else {
                file.parent().unwrap_or(Path::new("")).join(to)
            };
        } else if kind.is_dir() {
            let what = if file == path {
                "is a directory".to_string()
            } else {
                format!("is a link to directory {}", file.display())
            };
            return Err(message(ErrorKind::IsADirectory, what));
        } else if kind.is_file() {
            return Ok(Dest::Replace { file, exists: true });
        } else {
            return Ok(Dest::Into {
                file,
                descriptor: false,
            });
        }
    }
    Err(message(
        ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} links in a row (a loop?)"),
    ))
}

/// The folder a file is in (`.` for a bare name).
fn folder(file: &Path) -> &Path {
    file.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Whether `file` is one of a process's open descriptors, `/proc/PID/fd/N` (or a task's):
/// its "link" is no path to follow (`pipe:[1234]`, `/dev/pts/0`, a deleted file) but the open
/// file itself, which opening the path reaches. `/dev/stdout` and `/dev/fd/N` lead here.
fn is_descriptor(file: &Path) -> bool {
    let Ok(dir) = std::fs::canonicalize(folder(file)) else {
        return false;
    };
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    matches!(
        parts[..],
        ["/", "proc", _, "fd"] | ["/", "proc", _, "task", _, "fd"]
    )
}

/// Replaces the regular file `file` (or creates it) with `text`: a temporary file in the same
/// folder, synced, given the old file's permissions (and owner, where allowed), renamed over
/// it, and the folder synced. Killed part-way, the old file stays whole.
fn replace(file: &Path, text: &[u8]) -> std::io::Result<()> {
    let dir = folder(file);
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tengen.tmp");
    #[cfg(unix)]
    {
        // A new file gets the usual 0666 less the umask, not the temporary file's 0600.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(text)?;
    if let Ok(old) = std::fs::metadata(file) {
        #[cfg(unix)]
        {
            // Root rewriting another user's file keeps its owner; others keep the group when
            // they may. Failing that, the file is the writer's, as with any editor. (Before
            // the permissions: a change of owner may clear set-id bits.)
            use std::os::unix::fs::{MetadataExt, fchown};
            if fchown(tmp.as_file(), Some(old.uid()), Some(old.gid())).is_err() {
                let _ = fchown(tmp.as_file(), None, Some(old.gid()));
            }
        }
        tmp.as_file().set_permissions(old.permissions())?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(file).map_err(|e| e.error)?;
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        // The rename itself survives a crash only once the folder is synced.
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn descriptors_are_recognised() {
        assert!(is_descriptor(Path::new("/proc/self/fd/1")));
        assert!(!is_descriptor(Path::new("/proc/self/status")));
        assert!(!is_descriptor(Path::new("out.txt")));
    }

    #[test]
    fn a_missing_file_in_a_missing_folder_is_an_error() {
        let e = destination(Path::new("/no/such/folder/x.txt")).unwrap_err();
        assert!(
            e.to_string()
                .contains("folder /no/such/folder does not exist")
        );
    }
}
