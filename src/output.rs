//! Writing files the user named: never over an existing file unless asked, and atomically,
//! so a file is either the old one or the whole new one.

use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so the
/// file is either the old one or the whole new one; refuses to replace a file unless `force`.
pub fn write_atomic(path: &Path, text: &str, force: bool) -> Result<(), Error> {
    if path.exists() && !force {
        return Err(Error::usage(format!(
            "{} exists: pass --force to replace it",
            path.display()
        )));
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tengen-{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(source) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::Write {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(())
}
