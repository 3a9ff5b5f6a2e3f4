//! The manifest: what a build holds, from which inputs, in which format version.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::lexicon::LexiconCounts;
use crate::model::PrefixRule;

/// Bumped whenever a file layout under a build directory changes.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    /// A digest of the format version, the catalogue entries and every input's checksum: the
    /// same inputs give the same id.
    pub build_id: String,
    pub sources: Vec<SourceRecord>,
    /// Sources in the catalogue that this build does not hold, and why.
    pub skipped: Vec<SkippedSource>,
    pub prefixes: Vec<PrefixRule>,
    pub counts: Counts,
    /// When and how long; the only fields that differ between builds of the same inputs.
    pub built: BuildTime,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildTime {
    pub finished_unix: u64,
    pub seconds: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub concepts: u64,
    pub triples: u64,
    pub id_lexicon: LexiconCounts,
    pub label_lexicon: LexiconCounts,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseOrigin {
    /// Stated in the file; `property` names the statement.
    File { property: String },
    /// Taken from the catalogue because the file states none.
    Catalogue,
    /// Neither the file nor the catalogue gives one.
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRecord {
    pub id: String,
    pub title: String,
    pub kind: String,
    pub format: String,
    pub release: String,
    pub release_origin: ReleaseOrigin,
    /// The named graph holding this release's triples.
    pub graph: String,
    pub file: InputFile,
    pub license: String,
    pub attribution: String,
    pub homepage: String,
    pub scope: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Concepts of this source have ids `first_concept .. first_concept + counts.concepts`.
    pub first_concept: u32,
    pub counts: SourceCounts,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFile {
    /// As written in the catalogue.
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceCounts {
    pub triples: u64,
    pub concepts: u64,
    pub obsolete: u64,
    pub labels: u64,
    pub definitions: u64,
    pub parent_links: u64,
    pub xrefs: u64,
    pub replacements: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedSource {
    pub id: String,
    pub reason: String,
}

impl Manifest {
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let mut text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        text.push('\n');
        std::fs::write(path, text)?;
        std::fs::File::open(path)?.sync_all()
    }

    pub fn read(path: &Path) -> std::io::Result<Manifest> {
        let text = std::fs::read(path)?;
        serde_json::from_slice(&text)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    pub fn source(&self, id: &str) -> Option<&SourceRecord> {
        self.sources.iter().find(|s| s.id == id)
    }
}
