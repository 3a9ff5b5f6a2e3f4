//! `remove`: a source or one of its releases leaves the catalogue and the index.

use std::path::{Path, PathBuf};

use super::AcquireError;
use super::staging::{build_with, read_catalogue, write_catalogue};
use crate::build::{BuildObserver, BuildSummary};
use crate::catalog::edit::with_source_removed;
use crate::catalog::{Catalog, SourceSpec};

/// What `remove` did.
#[derive(Debug)]
pub struct Removed {
    pub entries: usize,
    pub files: Vec<PathBuf>,
    pub summary: BuildSummary,
}

/// Drops a source (`doid`, or one release: `doid@2024-01-31`) from the catalogue and the
/// index. Its files go too when the catalogue says they are not bundled and no other entry
/// names them.
pub fn remove(
    catalogue: &Path,
    index: &Path,
    which: &str,
    observer: &dyn BuildObserver,
) -> Result<Removed, AcquireError> {
    let (id, release) = match which.split_once('@') {
        Some((id, release)) => (id, Some(release)),
        None => (which, None),
    };
    let catalog = Catalog::load(catalogue)?;
    let original = read_catalogue(catalogue)?;
    let (text, entries) = with_source_removed(&original, id, release)?;
    if entries == 0 {
        return Err(AcquireError::NotCatalogued(which.to_string()));
    }
    let gone: Vec<&SourceSpec> = catalog
        .sources
        .iter()
        .filter(|s| s.id == id && release.is_none_or(|r| s.release.as_deref() == Some(r)))
        .collect();
    let summary = build_with(catalogue, index, observer, |_| Ok(text.clone()))?;
    write_catalogue(catalogue, &text)?;
    let mut files = Vec::new();
    for spec in gone.iter().filter(|s| !s.bundled) {
        let still_named = catalog
            .sources
            .iter()
            .filter(|s| !gone.iter().any(|g| std::ptr::eq(*g, *s)))
            .any(|s| s.path == spec.path);
        let path = catalog.file(spec);
        if !still_named && std::fs::remove_file(&path).is_ok() {
            files.push(path);
        }
    }
    Ok(Removed {
        entries,
        files,
        summary,
    })
}
