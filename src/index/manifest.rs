//! The manifest: what a build holds, from which inputs, in which format version.

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use super::counts::MappingIndexCounts;
use super::counts::{LexiconCounts, RegistryCounts};
pub use crate::model::SourceCounts;
use crate::model::{PrefixFootprint, PrefixRule};

pub use super::header::FORMAT_VERSION;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format_version: u32,
    /// A digest of the format version, the catalogue entries and every input's checksum: the
    /// same inputs give the same id.
    pub build_id: String,
    pub sources: Vec<SourceRecord>,
    /// Sources in the catalogue that this build does not hold, and why.
    pub skipped: Vec<SkippedSource>,
    /// The prefixes the catalogue's sources declare.
    pub prefixes: Vec<PrefixRule>,
    /// The prefix registry: where it came from and what it holds.
    pub registry: RegistryRecord,
    pub counts: Counts,
    /// The mapping sets loaded, one per file, in catalogue order; evidence names them by
    /// position.
    #[serde(default)]
    pub mapping_sets: Vec<MappingSetRecord>,
    /// The name variant rules this build's variant lexicon was written with, if any.
    #[serde(default)]
    pub name_rules: Option<NameRulesRecord>,
    /// The confidence model the build was given, if any: copied into the build as
    /// `confidence-model.toml`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence_model: Option<ModelRecord>,
    /// Every file of the build this program writes itself (`BuildLayout::recorded_files`),
    /// by name, with its length and checksum. Empty only in manifests of older versions.
    #[serde(default)]
    pub files: Vec<IndexFileRecord>,
    /// A digest of what the mapping sets' segment of the mapping index is made of (format,
    /// registry files, every mapping set's entry and files): a later build with the same
    /// digest, whose new prefixes touch no set's footprint, takes that segment as it stands.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mapping_set_inputs: String,
    /// The mapping index's segments (`index::mapping_segments` orders them), with what each
    /// holds.
    #[serde(default)]
    pub mapping_segments: Vec<MappingSegmentRecord>,
    /// When and how long; the only fields that differ between builds of the same inputs.
    pub built: BuildTime,
}

/// One file of a build as it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexFileRecord {
    /// Its name in the build directory.
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

/// The name variant rules a build used: copied into the build as `name-rules.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameRulesRecord {
    /// The catalogue's rules file, relative to the catalogue.
    pub file: String,
    pub version: String,
    pub sha256: String,
}

/// The confidence model a build was given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelRecord {
    /// The catalogue's model file, relative to the catalogue.
    pub file: String,
    pub version: String,
    pub sha256: String,
    /// The corpora it learned from, each with what to cite.
    pub trained_on: Vec<TrainedOn>,
    /// The mention threshold, and how many names it learned from those corpora.
    pub mention_threshold: f64,
    pub learned_names: u64,
}

/// A corpus a confidence model learned from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainedOn {
    pub id: String,
    pub citation: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistryRecord {
    /// The registry release loaded, when the catalogue names one.
    pub source: Option<RegistrySource>,
    pub counts: RegistryCounts,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrySource {
    pub id: String,
    pub title: String,
    pub release: String,
    pub files: Vec<InputFile>,
    pub license: String,
    pub attribution: String,
    pub homepage: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
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
    /// Name variant keys (empty without name rules).
    #[serde(default)]
    pub variant_lexicon: LexiconCounts,
    #[serde(default)]
    pub mappings: MappingIndexCounts,
}

/// One segment of the mapping index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MappingSegmentRecord {
    /// Its name (`index::mapping_segments`).
    pub name: String,
    pub counts: MappingIndexCounts,
    /// For a release's cross-references: what their reading could not take from the
    /// Bioregistry alone (a later build re-reads them when a new prefix touches it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix_use: Option<PrefixFootprint>,
}

/// One mapping set (one file) as the build read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MappingSetRecord {
    /// The catalogue entry the file belongs to.
    pub source: String,
    pub file: String,
    /// The set's own id (`mapping_set_id`), or the catalogue's when the file states none.
    pub mapping_set_id: String,
    pub mapping_set_version: Option<String>,
    pub title: Option<String>,
    pub license: String,
    /// Where the license came from.
    pub license_origin: MetadataOrigin,
    /// Who made it and how to cite it, from the catalogue.
    pub attribution: String,
    /// The catalogue's release of the set.
    pub release: String,
    /// Predictions or undecided rows, left out of answers unless asked for.
    pub predicted: bool,
    /// The named graph holding its mappings in the RDF store.
    pub graph: String,
    pub sha256: String,
    /// A hash of the catalogue entry, as for a source: a later build keeps this set's graph
    /// when the entry and the file are unchanged.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub entry: String,
    pub counts: MappingSetCounts,
    /// Other set-level slots of the header, for display.
    #[serde(default)]
    pub header: std::collections::BTreeMap<String, String>,
    /// What reading its rows could not take from the Bioregistry alone, as for a source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix_use: Option<PrefixFootprint>,
}

/// Where a piece of set metadata came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetadataOrigin {
    File,
    Catalogue,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MappingSetCounts {
    /// Data rows read, problem rows included.
    pub rows: u64,
    pub mappings: u64,
    /// `predicate_modifier: Not` rows.
    pub negative: u64,
    /// `sssom:NoTermFound` rows.
    pub no_term_found: u64,
    /// Rows not loaded (undeclared prefix, missing cell, ...), each reported with its line.
    pub skipped_rows: u64,
    /// Identifiers whose prefix the registry does not know, kept as the file writes them.
    pub unregistered_ids: u64,
    /// Triples of its SSSOM axioms in the store.
    #[serde(default)]
    pub triples: u64,
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
    /// Whether this is the source's current release (its newest loaded one), which answers
    /// by default; older releases answer when pinned.
    pub current: bool,
    /// The named graph holding this release's triples.
    pub graph: String,
    /// The files read, in order (one for most sources; MeSH's tables are two).
    pub files: Vec<InputFile>,
    /// A hash of the catalogue entry (`build::reuse::entry_fingerprint`): with the files'
    /// checksums, it tells a later build whether this release can be reused unread.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub entry: String,
    pub license: String,
    pub attribution: String,
    pub homepage: String,
    pub scope: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The catalogue's preferred prefix, base URIs and hierarchical properties (see
    /// `catalog::SourceSpec`), and the ontology IRI the file states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_uris: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hierarchical_properties: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ontology_iri: Option<String>,
    /// The catalogue's semantic group for concepts whose own structure gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<crate::model::SemanticGroup>,
    /// Concepts of this source have ids `first_concept .. first_concept + counts.concepts`.
    pub first_concept: u32,
    pub counts: SourceCounts,
    /// The source's entry points: SKOS top concepts, or live concepts without parents; at most
    /// [`MAX_TOP_CONCEPTS`], by IRI.
    #[serde(default)]
    pub top_concepts: Vec<String>,
    /// The shape of the local ids this source uses, per prefix.
    #[serde(default)]
    pub id_shapes: Vec<IdShape>,
    /// What its reading could not take from the Bioregistry alone; `None` from a build that
    /// did not record it, and then any prefix declared anew means reading the source again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix_use: Option<PrefixFootprint>,
}

impl SourceRecord {
    /// The group of its concepts whose own structure gives none: the catalogue's, a gene
    /// table's genes, else `other`.
    pub fn default_group(&self) -> crate::model::SemanticGroup {
        use crate::model::SemanticGroup;
        self.group.unwrap_or(if self.kind == "gene" {
            SemanticGroup::Gene
        } else {
            SemanticGroup::Other
        })
    }

    /// How filters and the full-text index name this release: the id for the current
    /// release, `id@release` for an older one.
    pub fn key(&self) -> String {
        if self.current {
            self.id.clone()
        } else {
            format!("{}@{}", self.id, self.release)
        }
    }

    /// Whether a source filter entry (`mondo`, or `mondo@2025-02-04`) selects this release.
    pub fn selected_by(&self, entry: &str) -> bool {
        match entry.split_once('@') {
            Some((id, release)) => id == self.id && release == self.release,
            None => self.current && entry == self.id,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFile {
    /// As written in the catalogue.
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

pub const MAX_TOP_CONCEPTS: usize = 100;

/// What the local ids under one prefix look like in the loaded data, e.g. HP: 7 digits. Used to
/// tell a well-formed but absent identifier from a malformed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdShape {
    pub prefix: String,
    /// `digits`, `alphanumeric` (ASCII letters and digits) or `any`.
    pub charset: String,
    pub min_len: usize,
    pub max_len: usize,
    /// One real local id, for messages.
    pub example: String,
}

impl IdShape {
    /// Learns the shape from local ids.
    pub fn observe<'a>(prefix: &str, locals: impl IntoIterator<Item = &'a str>) -> Option<IdShape> {
        let mut locals = locals.into_iter();
        let first = locals.next()?;
        let mut shape = IdShape {
            prefix: prefix.to_string(),
            charset: charset_of(first).to_string(),
            min_len: first.chars().count(),
            max_len: first.chars().count(),
            example: first.to_string(),
        };
        locals.for_each(|local| shape.widen(local));
        Some(shape)
    }

    /// Widens the shape to fit one more local id.
    pub fn widen(&mut self, local: &str) {
        let charset = charset_of(local);
        let len = local.chars().count();
        self.min_len = self.min_len.min(len);
        self.max_len = self.max_len.max(len);
        if self.charset != charset {
            self.charset = widen(&self.charset, charset).to_string();
        }
    }

    /// Whether a local id fits this shape.
    pub fn fits(&self, local: &str) -> bool {
        let len = local.chars().count();
        let charset_ok = match self.charset.as_str() {
            "digits" => charset_of(local) == "digits",
            "alphanumeric" => matches!(charset_of(local), "digits" | "alphanumeric"),
            _ => !local.is_empty() && !local.chars().any(char::is_whitespace),
        };
        charset_ok && (self.min_len..=self.max_len).contains(&len)
    }

    /// A human description, e.g. "7 digits".
    pub fn describe(&self) -> String {
        let len = if self.min_len == self.max_len {
            self.min_len.to_string()
        } else {
            format!("{} to {}", self.min_len, self.max_len)
        };
        match self.charset.as_str() {
            "digits" => format!("{len} digits"),
            "alphanumeric" => format!("{len} ASCII letters or digits"),
            _ => format!("{len} characters without spaces"),
        }
    }
}

fn charset_of(local: &str) -> &'static str {
    if !local.is_empty() && local.bytes().all(|b| b.is_ascii_digit()) {
        "digits"
    } else if !local.is_empty() && local.bytes().all(|b| b.is_ascii_alphanumeric()) {
        "alphanumeric"
    } else {
        "any"
    }
}

fn widen(a: &str, b: &str) -> &'static str {
    match (a, b) {
        ("any", _) | (_, "any") => "any",
        ("digits", "digits") => "digits",
        _ => "alphanumeric",
    }
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

    /// Reads a manifest of this binary's format version; another version is an
    /// `InvalidData` error saying which (`format::VersionMismatch`).
    pub fn read(path: &Path) -> std::io::Result<Manifest> {
        let text = std::fs::read(path)?;
        super::format::check_json(&text, FORMAT_VERSION)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        Self::parse(&text).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    /// Parses a manifest whose format version was checked.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// The position in `sources` of the source whose cross-references evidence number `set`
    /// names: the `set`-th current source (older releases state no mappings), so that adding
    /// an older release renumbers no evidence.
    pub fn xref_source_index(&self, set: u16) -> Option<usize> {
        self.sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.current)
            .nth(usize::from(set))
            .map(|(i, _)| i)
    }

    /// The source whose cross-references evidence number `set` names.
    pub fn xref_source(&self, set: u16) -> Option<&SourceRecord> {
        self.xref_source_index(set)
            .and_then(|i| self.sources.get(i))
    }

    /// The mapping sets of one catalogue entry.
    pub fn mapping_sets_of<'a>(
        &'a self,
        source: &'a str,
    ) -> impl Iterator<Item = &'a MappingSetRecord> + 'a {
        self.mapping_sets.iter().filter(move |s| s.source == source)
    }

    /// The current release of the source with this id.
    pub fn source(&self, id: &str) -> Option<&SourceRecord> {
        self.sources.iter().find(|s| s.id == id && s.current)
    }

    /// Every loaded release of the source with this id, in catalogue order.
    pub fn releases<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a SourceRecord> + 'a {
        self.sources.iter().filter(move |s| s.id == id)
    }

    /// The loaded release `release` of source `id`.
    pub fn release(&self, id: &str, release: &str) -> Option<&SourceRecord> {
        self.sources
            .iter()
            .find(|s| s.id == id && s.release == release)
    }

    /// The ids of the loaded sources, each once, in catalogue order.
    pub fn source_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for s in &self.sources {
            if !ids.contains(&s.id) {
                ids.push(s.id.clone());
            }
        }
        ids
    }

    /// What the manifest records of the build file with this name.
    pub fn file(&self, name: &str) -> Option<&IndexFileRecord> {
        self.files.iter().find(|f| f.name == name)
    }
}
