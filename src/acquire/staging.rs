//! The catalogue file as `add`, `update` and `remove` change it: read, written atomically, and
//! built from a staged copy before the real one is switched.

use std::path::{Path, PathBuf};

use super::AcquireError;
use crate::build::{BuildObserver, BuildOptions, BuildSummary};
use crate::catalog::Catalog;

pub(super) fn read_catalogue(path: &Path) -> Result<String, AcquireError> {
    std::fs::read_to_string(path)
        .map_err(|e| AcquireError::io(format!("reading {}", path.display()), e))
}

/// Writes the catalogue atomically: a sibling file renamed over it.
pub(super) fn write_catalogue(path: &Path, text: &str) -> Result<(), AcquireError> {
    let next = sibling(path, "next");
    std::fs::write(&next, text)
        .and_then(|()| std::fs::rename(&next, path))
        .map_err(|e| AcquireError::io(format!("writing {}", path.display()), e))
}

pub(super) fn sibling(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{what}-{}", std::process::id()))
}

/// Builds the index from the catalogue as `edit` changes it, written beside the catalogue (so
/// its paths read the same) and removed afterwards; the catalogue itself is not touched.
pub(super) fn build_with(
    catalogue: &Path,
    index: &Path,
    observer: &dyn BuildObserver,
    edit: impl FnOnce(&str) -> Result<String, AcquireError>,
) -> Result<BuildSummary, AcquireError> {
    let text = edit(&read_catalogue(catalogue)?)?;
    let staged = RemoveOnDrop(Some(sibling(catalogue, "staged")));
    let path = staged.0.clone().unwrap_or_default();
    std::fs::write(&path, text)
        .map_err(|e| AcquireError::io(format!("writing {}", path.display()), e))?;
    Catalog::load(&path)?;
    let options = BuildOptions {
        catalog: path,
        index_dir: index.to_path_buf(),
        keep_going: false,
    };
    Ok(crate::build::build(&options, observer)?)
}

/// Removes a file when dropped, unless kept.
pub(super) struct RemoveOnDrop(pub(super) Option<PathBuf>);

impl RemoveOnDrop {
    pub(super) fn keep(mut self) {
        self.0 = None;
    }
}

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}
