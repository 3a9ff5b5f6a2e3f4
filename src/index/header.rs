//! The fixed header that starts every binary index file we write ourselves (record tables,
//! postings, concept flags), and the typed error that names a damaged index file.
//!
//! Header layout, 16 bytes: an 8-byte magic naming the file kind, the format version
//! (little-endian u32, [`FORMAT_VERSION`]) and a little-endian u32 that must be zero (it keeps
//! the body 8-byte aligned and makes a stray file less likely to pass). The body follows, and
//! every offset stored in or into a body counts from the body's first byte.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

/// Bumped whenever a file layout under a build directory changes. 7: binary files start with
/// a header and the manifest records every file's length and checksum. 9: a mapping hub's
/// edges span several records. 11: the concept lexicons are a segment per source release.
/// 12: the mapping index is a segment per current release and one for the mapping sets.
/// 13: the concept table is a segment per source release. 14: `schema.json` states its format
/// version, and `name-rules.toml` its own (`format::RULES_FORMAT`). 16: concept records
/// carry restriction relations (part_of) and sources their ontology IRI and OLS settings.
/// 17: the full-text index indexes each document's release.
/// 18: concept flags carry a facet (bits 22-23): protein, drug class, sign or condition.
/// 19: the drug-class facet is a use or form: dosage forms (MeSH D26) as well.
pub const FORMAT_VERSION: u32 = 19;
use super::mmap::map_file;

pub const HEADER_BYTES: usize = 16;

/// What a file holds, as its magic says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    pub magic: [u8; 8],
    /// For messages: "record table data", ...
    pub name: &'static str,
}

pub const TABLE_DATA: FileKind = FileKind {
    magic: *b"ORTBLDAT",
    name: "record table data",
};
pub const TABLE_INDEX: FileKind = FileKind {
    magic: *b"ORTBLIDX",
    name: "record table offsets",
};
pub const POSTINGS: FileKind = FileKind {
    magic: *b"ORPOSTNG",
    name: "lexicon postings",
};
pub const CONCEPT_FLAGS: FileKind = FileKind {
    magic: *b"ORCFLAGS",
    name: "concept flags",
};

/// What is wrong with one index file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    #[error("missing")]
    Missing,
    #[error("cannot be read: {0}")]
    Unreadable(String),
    #[error("the manifest does not record it")]
    NotRecorded,
    #[error("truncated: {bytes} bytes, shorter than its {HEADER_BYTES}-byte header")]
    ShorterThanHeader { bytes: u64 },
    #[error("not a {expected} file (its magic is {found})")]
    WrongMagic {
        expected: &'static str,
        found: String,
    },
    #[error("{0}")]
    Version(super::format::VersionMismatch),
    #[error("its header's reserved field is not zero")]
    ReservedNotZero,
    #[error("{found} bytes, the manifest records {recorded}")]
    Length { found: u64, recorded: u64 },
    #[error("checksum mismatch: sha256 {found}, the manifest records {recorded}")]
    Checksum { found: String, recorded: String },
    /// The file's parts do not fit together (offsets past the end, a count that differs).
    #[error("{0}")]
    Inconsistent(String),
    #[error("record {id} {what}")]
    Record { id: u32, what: &'static str },
}

/// A damaged index file: which one, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct FileError {
    pub path: PathBuf,
    pub problem: FileProblem,
}

impl FileError {
    pub fn new(path: &Path, problem: FileProblem) -> FileError {
        FileError {
            path: path.to_path_buf(),
            problem,
        }
    }

    /// An error opening or reading the file.
    pub fn io(path: &Path, error: &io::Error) -> FileError {
        let problem = match error.kind() {
            io::ErrorKind::NotFound => FileProblem::Missing,
            _ => FileProblem::Unreadable(error.to_string()),
        };
        FileError::new(path, problem)
    }
}

impl From<FileError> for io::Error {
    fn from(error: FileError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, error)
    }
}

/// Writes the header of a `kind` file.
pub fn write_header(out: &mut impl Write, kind: FileKind) -> io::Result<()> {
    out.write_all(&header(kind))
}

fn header(kind: FileKind) -> [u8; HEADER_BYTES] {
    let mut bytes = [0u8; HEADER_BYTES];
    bytes[..8].copy_from_slice(&kind.magic);
    bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes
}

/// Checks that `bytes` start with the header of a `kind` file of this format version.
pub fn check_header(bytes: &[u8], kind: FileKind) -> Result<(), FileProblem> {
    let Some(head) = bytes.get(..HEADER_BYTES) else {
        return Err(FileProblem::ShorterThanHeader {
            bytes: bytes.len() as u64,
        });
    };
    let (magic, rest) = head.split_at(8);
    if magic != kind.magic {
        return Err(FileProblem::WrongMagic {
            expected: kind.name,
            found: magic.escape_ascii().to_string(),
        });
    }
    let (version, reserved) = rest.split_at(4);
    let version = u32::from_le_bytes([version[0], version[1], version[2], version[3]]);
    super::format::compare(version, FORMAT_VERSION).map_err(FileProblem::Version)?;
    if reserved.iter().any(|&b| b != 0) {
        return Err(FileProblem::ReservedNotZero);
    }
    Ok(())
}

/// A memory-mapped file whose header was checked when it was opened.
pub struct HeadedFile {
    map: Mmap,
}

impl HeadedFile {
    pub fn open(path: &Path, kind: FileKind) -> Result<HeadedFile, FileError> {
        let map = map_file(path).map_err(|e| FileError::io(path, &e))?;
        check_header(&map, kind).map_err(|problem| FileError::new(path, problem))?;
        Ok(HeadedFile { map })
    }

    /// Everything after the header.
    pub fn body(&self) -> &[u8] {
        self.map.get(HEADER_BYTES..).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> Vec<u8> {
        let mut bytes = header(POSTINGS).to_vec();
        bytes.extend_from_slice(b"body");
        bytes
    }

    #[test]
    fn a_written_header_is_accepted_and_the_body_follows_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.postings");
        std::fs::write(&path, valid()).expect("write");
        let file = HeadedFile::open(&path, POSTINGS).expect("open");
        assert_eq!(file.body(), b"body");
    }

    #[test]
    fn a_file_shorter_than_its_header_is_truncated() {
        let bytes = valid();
        for len in [0, 1, 8, 12, HEADER_BYTES - 1] {
            assert_eq!(
                check_header(&bytes[..len], POSTINGS),
                Err(FileProblem::ShorterThanHeader { bytes: len as u64 }),
                "{len} bytes"
            );
        }
        assert_eq!(check_header(&bytes[..HEADER_BYTES], POSTINGS), Ok(()));
    }

    #[test]
    fn another_kind_of_file_has_the_wrong_magic() {
        let problem = check_header(&valid(), TABLE_DATA).expect_err("postings are no table");
        assert_eq!(
            problem,
            FileProblem::WrongMagic {
                expected: "record table data",
                found: "ORPOSTNG".into()
            }
        );
        let mut garbage = valid();
        garbage[..8].copy_from_slice(b"\x00\xffPK\x03\x04ab");
        assert!(
            matches!(check_header(&garbage, POSTINGS), Err(FileProblem::WrongMagic { found, .. }) if found == "\\x00\\xffPK\\x03\\x04ab")
        );
    }

    #[test]
    fn another_format_version_is_named() {
        let mut bytes = valid();
        bytes[8..12].copy_from_slice(&6u32.to_le_bytes());
        assert_eq!(
            check_header(&bytes, POSTINGS),
            Err(FileProblem::Version(
                super::super::format::VersionMismatch::Older {
                    found: 6,
                    supported: FORMAT_VERSION
                }
            ))
        );
        bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        assert!(matches!(
            check_header(&bytes, POSTINGS),
            Err(FileProblem::Version(
                super::super::format::VersionMismatch::Newer { .. }
            ))
        ));
        let mut reserved = valid();
        reserved[15] = 1;
        assert_eq!(
            check_header(&reserved, POSTINGS),
            Err(FileProblem::ReservedNotZero)
        );
    }

    #[test]
    fn a_zero_length_or_missing_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let empty = dir.path().join("empty.dat");
        std::fs::write(&empty, b"").expect("write");
        let error = HeadedFile::open(&empty, TABLE_DATA)
            .err()
            .expect("an empty file is damaged");
        assert_eq!(error.path, empty);
        assert_eq!(error.problem, FileProblem::ShorterThanHeader { bytes: 0 });
        assert!(error.to_string().contains("empty.dat"), "{error}");
        let missing = dir.path().join("missing.dat");
        let error = HeadedFile::open(&missing, TABLE_DATA)
            .err()
            .expect("a missing file is an error");
        assert_eq!(error.problem, FileProblem::Missing);
    }
}
