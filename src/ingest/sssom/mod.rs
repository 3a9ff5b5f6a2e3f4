//! Streaming readers for mapping sets: SSSOM TSV (with its embedded YAML header or an external
//! `.sssom.yml`) and gilda's six-column MeSH mappings.
//!
//! Rows stream one at a time; memory is bounded by the header limits and one line. A bad row is
//! a [`RowProblem`] and reading goes on; only an unreadable header, missing required columns
//! and I/O errors (a truncated gzip included) are [`SssomError`]s.
//!
//! Both iterators yield `Result<Result<MappingRow, RowProblem>, SssomError>`: the outer error
//! is fatal and ends the iteration (so a truncated file never looks like a clean end), the
//! inner one skips a row. `for row in rows { match row? { .. } }` reads naturally.

mod gilda;
mod header;
#[cfg(test)]
mod header_tests;
mod lines;
#[cfg(test)]
mod real_data;
mod row;
#[cfg(test)]
mod tests;
mod tsv;
mod yaml;

pub use crate::ingest::error::MAX_EXCERPT_CHARS;
use crate::ingest::error::excerpt;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

pub use gilda::GildaRows;
pub use header::{BUILT_IN_PREFIXES, PROPAGATABLE_SLOTS};
pub use row::REQUIRED_COLUMNS;
pub use tsv::SssomRows;

use super::input::open_reader;
use crate::model::MappingPredicate;

/// Longer lines are reported and skipped, not buffered.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// A YAML header (embedded or external) longer than this is refused.
pub const MAX_HEADER_LINES: usize = 10_000;
/// A YAML header (embedded or external) larger than this is refused.
pub const MAX_HEADER_BYTES: usize = 1 << 20;
/// More columns than this in the TSV header line is not an SSSOM file.
pub const MAX_COLUMNS: usize = 1_000;
/// A problem message is cut to this many characters.
pub const MAX_MESSAGE_CHARS: usize = 200;

/// Set-level metadata from the YAML header (embedded `#` lines) and/or an external
/// `.sssom.yml`; the embedded header wins slot by slot (and prefix by prefix in `curie_map`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetHeader {
    pub mapping_set_id: Option<String>,
    pub mapping_set_version: Option<String>,
    pub mapping_set_title: Option<String>,
    pub mapping_set_description: Option<String>,
    pub license: Option<String>,
    /// Prefix -> IRI prefix, as declared (built-in prefixes are not added here).
    pub curie_map: BTreeMap<String, String>,
    /// Propagatable slots set at set level (see [`PROPAGATABLE_SLOTS`]); `mapping_tool`
    /// and `mapping_date` are applied to rows lacking their own.
    pub propagated: BTreeMap<String, String>,
    /// Every other scalar slot, kept for display (creator_id, publication_date, ...); lists
    /// joined with `|`.
    pub other: BTreeMap<String, String>,
    /// Header content that was ignored, and why (nested structures other than `curie_map`,
    /// repeated keys).
    pub notes: Vec<String>,
}

/// An identifier cell of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowId {
    /// A CURIE as written and its expansion through the file's curie_map or the built-in
    /// prefixes.
    Expanded { curie: String, iri: String },
    /// A CURIE from a file that declares no prefix map (gilda): goes to the registry as written.
    Curie(String),
    /// `sssom:NoTermFound`.
    NoTermFound,
}

/// One mapping row, with set-level `mapping_tool` and `mapping_date` propagated into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappingRow {
    /// 1-based line in the (decompressed) file.
    pub line: u64,
    pub subject: RowId,
    pub predicate: MappingPredicate,
    /// The expanded IRI of predicate_id, when it expands.
    pub predicate_iri: Option<String>,
    pub object: RowId,
    /// `predicate_modifier` is `Not`.
    pub negated: bool,
    /// A CURIE as written; a full semapv IRI is compressed to `semapv:`.
    pub justification: String,
    pub confidence_milli: Option<u16>,
    pub author_id: Vec<String>,
    pub reviewer_id: Vec<String>,
    pub mapping_tool: Option<String>,
    pub mapping_date: Option<String>,
    pub comment: Option<String>,
    pub subject_label: Option<String>,
    pub object_label: Option<String>,
}

/// A row that was skipped; the rest of the set still reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowProblem {
    pub line: u64,
    /// At most [`MAX_MESSAGE_CHARS`] characters; quotes at most [`MAX_EXCERPT_CHARS`] of a cell.
    pub message: String,
}

impl RowProblem {
    fn new(line: u64, message: impl Into<String>) -> Self {
        RowProblem {
            line,
            message: cut_chars(message.into(), MAX_MESSAGE_CHARS),
        }
    }
}

/// Why a set cannot be read (or stopped being readable).
#[derive(Debug, thiserror::Error)]
pub enum SssomError {
    #[error("{}: cannot open: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A read failed mid-file (a truncated or corrupt gzip among others).
    #[error("{}: read failed after line {line}: {source}", path.display())]
    Read {
        path: PathBuf,
        line: u64,
        #[source]
        source: std::io::Error,
    },
    /// The YAML header (embedded or external, as `path` says) is not readable.
    #[error("{}:{line}: unreadable YAML header: {message}", path.display())]
    Header {
        path: PathBuf,
        line: u64,
        message: String,
    },
    /// The file ends before a column header line.
    #[error("{}: no column header line", path.display())]
    NoColumnHeader { path: PathBuf },
    /// The column header line is unusable (too long, not UTF-8, too many columns).
    #[error("{}:{line}: bad column header: {message}", path.display())]
    BadColumnHeader {
        path: PathBuf,
        line: u64,
        message: String,
    },
    #[error("missing required columns: {}", .0.join(", "))]
    MissingColumns(Vec<String>),
}

/// Opens an SSSOM TSV file (gzipped or not). `external` is an optional `.sssom.yml` whose
/// slots the embedded header overrides (the file itself is the more specific statement);
/// the two `curie_map`s are merged, the embedded one winning per prefix.
pub fn open_sssom_tsv(path: &Path, external: Option<&Path>) -> Result<SssomRows, SssomError> {
    let mut header = SetHeader::default();
    if let Some(yml) = external {
        header::read_external(yml, &mut header)?;
    }
    let reader = open_path(path)?;
    SssomRows::start(reader, path, header)
}

/// Opens gilda's MeSH mappings (six columns, no header:
/// `MESH  C000002  bevonium  CHEBI  CHEBI:135495  bevonium`). Rows are skos:exactMatch with
/// justification semapv:UnspecifiedMatching and [`RowId::Curie`] ids; provenance (the tool)
/// is the caller's to set.
pub fn open_gilda_tsv(path: &Path) -> Result<GildaRows, SssomError> {
    Ok(GildaRows::new(open_path(path)?, path))
}

fn open_path(path: &Path) -> Result<Box<dyn std::io::BufRead + Send>, SssomError> {
    let open_error = |source| SssomError::Open {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(open_error)?;
    open_reader(file).map_err(open_error)
}

fn cut_chars(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}
