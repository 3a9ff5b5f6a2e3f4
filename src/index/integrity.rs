//! Whether a build's files are the ones it wrote: the build records every file's length and
//! SHA-256 in the manifest ([`record_files`]); opening checks that each recorded file is
//! there with its length ([`verify_lengths`], a `stat` per file); `ontoresolve check`
//! re-reads every byte ([`verify_files`]) and asks tantivy to check its own files
//! ([`verify_fulltext`]).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::header::{
    CONCEPT_FLAGS, FileError, FileKind, FileProblem, HEADER_BYTES, POSTINGS, TABLE_DATA,
    TABLE_INDEX, check_header,
};
use super::manifest::IndexFileRecord;
use super::{BuildLayout, Manifest};

/// The file's name in the build directory, as the manifest records it.
fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The files the manifest must record for this build.
fn expected_files(layout: &BuildLayout, manifest: &Manifest) -> Vec<PathBuf> {
    layout.recorded_files(&manifest.sources, manifest.name_rules.is_some())
}

/// Length and SHA-256 of every file the build wrote itself, sorted by name, so the manifest
/// does not depend on the order files were hashed in.
///
/// A file hard-linked from the installed build (`linked`: its layout and recorded files) is
/// the installed file itself, checked against its recorded checksum when the build took it:
/// its record is taken instead of hashing it again.
pub fn record_files(
    layout: &BuildLayout,
    sources: &[super::manifest::SourceRecord],
    with_name_rules: bool,
    linked: Option<(&BuildLayout, &Manifest)>,
) -> Result<Vec<IndexFileRecord>, FileError> {
    let mut records = layout
        .recorded_files(sources, with_name_rules)
        .par_iter()
        .map(|path| {
            if let Some(record) = linked.and_then(|l| linked_record(path, l)) {
                return Ok(record);
            }
            let (bytes, sha256) = sha256_file(path)?;
            Ok(IndexFileRecord {
                name: name_of(path),
                bytes,
                sha256,
            })
        })
        .collect::<Result<Vec<_>, FileError>>()?;
    records.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(records)
}

/// The installed build's record of `path` when `path` is a hard link to that very file.
fn linked_record(
    path: &Path,
    (layout, manifest): (&BuildLayout, &Manifest),
) -> Option<IndexFileRecord> {
    let name = name_of(path);
    let record = manifest.file(&name)?;
    let installed = layout.dir.join(&name);
    let (here, there) = (
        std::fs::metadata(path).ok()?,
        std::fs::metadata(installed).ok()?,
    );
    (same_inode(&here, &there) && here.len() == record.bytes).then(|| record.clone())
}

#[cfg(unix)]
fn same_inode(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

fn sha256_file(path: &Path) -> Result<(u64, String), FileError> {
    let read = |e: io::Error| FileError::io(path, &e);
    let mut file = File::open(path).map_err(read)?;
    let mut hasher = Sha256::new();
    let bytes = io::copy(&mut file, &mut hasher).map_err(read)?;
    Ok((bytes, hex(&hasher.finalize())))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The manifest's record of an expected file, or why there is none.
fn recorded<'a>(manifest: &'a Manifest, path: &Path) -> Result<&'a IndexFileRecord, FileError> {
    manifest
        .file(&name_of(path))
        .ok_or_else(|| FileError::new(path, FileProblem::NotRecorded))
}

/// The cheap check made at open: every file this build must have is recorded in the manifest
/// and is there with the recorded length. One `stat` per file; headers are checked by the
/// readers as they map their files.
pub fn verify_lengths(layout: &BuildLayout, manifest: &Manifest) -> Result<(), FileError> {
    for path in expected_files(layout, manifest) {
        let record = recorded(manifest, &path)?;
        let found = std::fs::metadata(&path)
            .map_err(|e| FileError::io(&path, &e))?
            .len();
        if found != record.bytes {
            return Err(FileError::new(
                &path,
                FileProblem::Length {
                    found,
                    recorded: record.bytes,
                },
            ));
        }
    }
    Ok(())
}

/// One file as `check` found it.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The name in the build directory.
    pub name: String,
    pub path: PathBuf,
    /// Its length on disk, when it could be read.
    pub bytes: Option<u64>,
    /// What is wrong with it; `None` when it is sound.
    pub problem: Option<FileProblem>,
}

/// The full check: every file the build must have is recorded, there, of the recorded
/// length, starts with a valid header (or, for an FST, passes `fst`'s own CRC) and has the
/// recorded SHA-256. Reads every byte; files are checked in parallel and reported in name
/// order. `started` is called with each file's name and length before it is read.
pub fn verify_files(
    layout: &BuildLayout,
    manifest: &Manifest,
    started: &(dyn Fn(&str, u64) + Sync),
) -> Vec<FileReport> {
    let mut reports: Vec<FileReport> = expected_files(layout, manifest)
        .par_iter()
        .map(|path| verify_file(path, manifest, started))
        .collect();
    reports.sort_by(|a, b| a.name.cmp(&b.name));
    reports
}

/// [`verify_files`] for some of a build's files, in parallel: the first problem found, naming
/// its file. For a build that takes these files' bytes as they are.
pub fn verify_these(paths: &[PathBuf], manifest: &Manifest) -> Result<(), FileError> {
    let problem = paths
        .par_iter()
        .map(|path| verify_file(path, manifest, &|_, _| {}))
        .filter_map(|report| Some((report.path, report.problem?)))
        .min_by(|a, b| a.0.cmp(&b.0));
    match problem {
        Some((path, problem)) => Err(FileError::new(&path, problem)),
        None => Ok(()),
    }
}

fn verify_file(
    path: &Path,
    manifest: &Manifest,
    started: &(dyn Fn(&str, u64) + Sync),
) -> FileReport {
    let name = name_of(path);
    let bytes = std::fs::metadata(path).map(|m| m.len());
    let report = |bytes: Option<u64>, problem: Option<FileProblem>| FileReport {
        name: name.clone(),
        path: path.to_path_buf(),
        bytes,
        problem,
    };
    let found = match bytes {
        Ok(found) => found,
        Err(e) => return report(None, Some(FileError::io(path, &e).problem)),
    };
    let Some(record) = manifest.file(&name) else {
        return report(Some(found), Some(FileProblem::NotRecorded));
    };
    started(&name, found);
    // The header names the problem more precisely than a checksum can: check it first.
    if let Err(problem) = check_kind(path, &name) {
        return report(Some(found), Some(problem));
    }
    if found != record.bytes {
        let problem = FileProblem::Length {
            found,
            recorded: record.bytes,
        };
        return report(Some(found), Some(problem));
    }
    match sha256_file(path) {
        Ok((_, sha256)) if sha256 == record.sha256 => report(Some(found), None),
        Ok((_, sha256)) => report(
            Some(found),
            Some(FileProblem::Checksum {
                found: sha256,
                recorded: record.sha256.clone(),
            }),
        ),
        Err(e) => report(Some(found), Some(e.problem)),
    }
}

/// The header a file of this name must start with.
fn kind_of(name: &str) -> Option<FileKind> {
    let extension = name.rsplit_once('.').map(|(_, e)| e)?;
    match extension {
        "dat" => Some(TABLE_DATA),
        "idx" => Some(TABLE_INDEX),
        "postings" => Some(POSTINGS),
        "flags" => Some(CONCEPT_FLAGS),
        _ => None,
    }
}

/// Checks a headed file's header, or an FST's layout and CRC.
fn check_kind(path: &Path, name: &str) -> Result<(), FileProblem> {
    let read = |e: io::Error| FileError::io(path, &e).problem;
    if let Some(kind) = kind_of(name) {
        let mut head = Vec::with_capacity(HEADER_BYTES);
        let file = File::open(path).map_err(read)?;
        io::Read::read_to_end(&mut io::Read::take(file, HEADER_BYTES as u64), &mut head)
            .map_err(read)?;
        return check_header(&head, kind);
    }
    if name.ends_with(".fst") {
        return super::lexicon::verify_fst_file(path);
    }
    Ok(())
}

/// Asks tantivy to check every file of the full-text index against the checksum in its
/// footer. `Ok` with the damaged files (empty when sound); `Err` when the index cannot be
/// opened or a file cannot be read at all (a truncated file has no footer to check).
pub fn verify_fulltext(dir: &Path) -> Result<Vec<PathBuf>, String> {
    super::fulltext::damaged_files(dir)
}
