//! Read-only memory maps of index files: the crate's only `unsafe`.

use std::fs::File;
use std::io;
use std::path::Path;

use memmap2::Mmap;

/// Maps a whole file read-only. An empty file maps to an empty slice.
pub fn map_file(path: &Path) -> io::Result<Mmap> {
    let file = File::open(path)?;
    // SAFETY: index files are written once into a build directory and never modified after the
    // directory is renamed into place; builds write new directories instead of editing old ones.
    // A concurrent truncation by another program could still fault, which no safe API can rule
    // out for mapped files.
    unsafe { Mmap::map(&file) }
}
