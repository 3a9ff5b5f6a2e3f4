//! Installing a finished build: the build lock, the temporary directory, the atomic switch of
//! `CURRENT`, and cleaning up after killed builds.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::{BuildError, io_err};
use crate::index::{CURRENT, Manifest, lease};

/// Removes the temporary directory unless the build completed.
pub(super) struct TempDir {
    pub(super) path: PathBuf,
    pub(super) keep: bool,
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// Takes the index directory's build lock (held until the returned file is dropped), clears the
/// leftovers of killed builds and creates this build's temporary directory.
pub(super) fn begin(index_dir: &Path) -> Result<(fs::File, TempDir), BuildError> {
    fs::create_dir_all(index_dir).map_err(io_err(format!("creating {}", index_dir.display())))?;
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(index_dir.join(".build.lock"))
        .map_err(io_err("opening the build lock"))?;
    if lock.try_lock().is_err() {
        return Err(BuildError::Busy(index_dir.to_path_buf()));
    }
    remove_stale_temp_dirs(index_dir);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let temp = TempDir {
        path: index_dir.join(format!(".tmp-build-{}-{nanos}", std::process::id())),
        keep: false,
    };
    fs::create_dir(&temp.path).map_err(io_err(format!("creating {}", temp.path.display())))?;
    Ok((lock, temp))
}

/// Renames the finished build into place, points `CURRENT` at it atomically, and removes
/// builds older than the previous one that no process has leased (`index::lease`).
pub(super) fn install(
    index_dir: &Path,
    temp: &Path,
    manifest: &Manifest,
) -> Result<PathBuf, BuildError> {
    let previous = fs::read_to_string(index_dir.join(CURRENT))
        .ok()
        .map(|s| s.trim().to_string());
    let mut name = format!(
        "build-{}-{}",
        manifest.build_id, manifest.built.finished_unix
    );
    let mut n = 1;
    while index_dir.join(&name).exists() {
        name = format!(
            "build-{}-{}-{n}",
            manifest.build_id, manifest.built.finished_unix
        );
        n += 1;
    }
    let dir = index_dir.join(&name);
    lease::create(temp).map_err(io_err("creating the build's lease file"))?;
    sync_dir(temp).map_err(io_err("syncing the build"))?;
    fs::rename(temp, &dir).map_err(io_err("moving the build into place"))?;
    let pointer = index_dir.join(format!(".{CURRENT}.{}", std::process::id()));
    fs::write(&pointer, format!("{name}\n")).map_err(io_err("writing CURRENT"))?;
    fs::File::open(&pointer)
        .and_then(|f| f.sync_all())
        .map_err(io_err("writing CURRENT"))?;
    fs::rename(&pointer, index_dir.join(CURRENT)).map_err(io_err("replacing CURRENT"))?;
    sync_dir(index_dir).map_err(io_err("syncing the index directory"))?;
    if let Ok(entries) = fs::read_dir(index_dir) {
        for entry in entries.flatten() {
            let entry_name = entry.file_name().to_string_lossy().into_owned();
            let keep = entry_name == name || Some(&entry_name) == previous.as_ref();
            if entry_name.starts_with("build-") && !keep {
                // A build a running server still reads stays until a later build finds it
                // unleased.
                if let Some(_claim) = lease::claim_unused(&entry.path()) {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
        }
    }
    Ok(dir)
}

/// Temporary directories of builds that were killed or crashed. Called with the build lock
/// held, so no other build is writing any of them.
fn remove_stale_temp_dirs(index_dir: &Path) {
    let Ok(entries) = fs::read_dir(index_dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(".tmp-build-")
        {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Makes renames and new files in a directory durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}
