//! The read API over a built index: identifier lookup, exact and fuzzy label lookup, full-text
//! search and concept details. Synchronous, no writes, and no lookup scans the data set: every
//! path goes through an FST, the full-text index or the concept table's offsets.

pub mod browse;
pub mod browse_entities;
pub mod confidence;
pub mod deadline;
pub mod diff;
mod identifier;
mod lexicon;
mod lineage;
pub mod live;
pub mod mapping;
pub mod passage;
pub mod query;
mod questions;
mod readers;
mod releases;
mod search;
pub mod sparql;
mod wire;

pub use crate::index::names::NameStep;
pub use browse::Browsing;
pub use identifier::{
    BareReading, Chain, ChainEnd, ChainStep, MAX_CHAINS, MAX_IDENTIFIER_BYTES, MalformedReason,
    Normalized, Outcome, ResolveStep,
};
pub use lexicon::Lexicon;
pub use releases::{HeldAs, PinError, ReleaseHolding, Releases, View, pin_argument, split_pin};
pub use search::{
    FULL_TEXT_DEPTH, Learned, MatchKind, NameCandidate, NameQuery, NameSearch, SkipReason, Stage,
    TextReach, ViaMapping, penalties,
};

use std::path::Path;
use std::sync::OnceLock;

pub use crate::index::Manifest;
use crate::index::lease::{Lease, LeaseError};
pub use crate::index::manifest::{MappingSetRecord, ReleaseOrigin, SourceRecord};
use crate::index::normalize::label_key;
pub use crate::index::schema::GraphShapes;
use crate::index::{FileError, IndexFiles, OpenError};
use crate::model::{Concept, Label, LinkKind};
use crate::registry::Registry;
pub use crate::registry::{PatternCheck, RecordId, percent_decode};
pub use crate::store::GraphShape;
use crate::store::{StoreError, StoreReader};

/// A name as the label lexicon keys it: case, spacing and punctuation folded.
pub fn name_key(text: &str) -> String {
    label_key(text)
}

/// Dense id of a concept in one build: its row in the concept table. A distinct type, so that
/// a record, source or offset number is never taken for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConceptId(pub u32);

impl ConceptId {
    /// The row as an index into the build's tables.
    pub fn row(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for ConceptId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// How an identifier matched.
pub use crate::index::spelling::Spelling;

#[derive(Clone, Debug, PartialEq)]
pub struct IdMatch {
    pub concept: ConceptId,
    pub spelling: Spelling,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LabelMatch {
    pub concept: ConceptId,
    /// The label that matched, with its kind and language.
    pub label: Label,
    /// Edit distance between the normalized query and the label (0 for exact lookups).
    pub distance: u8,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TextMatch {
    pub concept: ConceptId,
    pub score: f32,
}

/// A neighbour in the hierarchy, with its label when the index holds it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Related {
    pub iri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curie: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub kind: LinkKind,
}

/// A concept with its source release and its neighbours resolved.
#[derive(Clone, Debug)]
pub struct ConceptDetails {
    pub id: ConceptId,
    pub concept: Concept,
    pub source_id: String,
    pub release: String,
    pub parents: Vec<Related>,
    pub children: Vec<Related>,
}

#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store failed to open on first use; every later use reports the same error.
    #[error("the RDF store cannot be opened: {0}")]
    StoreUnavailable(std::sync::Arc<StoreError>),
    #[error("the mapping index could not be read: {0}")]
    MappingIndex(std::io::Error),
    /// A query the core wrote itself failed in the RDF store (never a user's SPARQL).
    #[error("a query of the RDF store failed: {0}")]
    StoreQuery(#[from] crate::store::SparqlError),
    #[error("full-text search failed: {0}")]
    FullText(#[from] crate::index::fulltext::FullTextError),
    /// A record the index points at cannot be read: damage, never "not found".
    #[error("damaged index file {0}")]
    Damaged(FileError),
}

// By hand rather than `#[from]`, which would also make the file error the source and print it
// twice in an error chain.
impl From<FileError> for ResolveError {
    fn from(error: FileError) -> ResolveError {
        ResolveError::Damaged(error)
    }
}

pub struct Resolver {
    files: IndexFiles,
    registry: Registry,
    /// Registry records of the prefixes loaded sources declare.
    loaded_records: Vec<RecordId>,
    store: OnceLock<Result<StoreReader, std::sync::Arc<StoreError>>>,
    /// The confidence model the build was given, laid out by the feature registry.
    confidence: Option<confidence::ConfidenceModel>,
    /// The changes of the release pairs asked for lately (the last four), computed on first
    /// use, so later pages of a diff read only their own.
    diffs: diff::DiffCache,
    /// Keeps later builds from removing this one while it is read.
    _lease: Option<Lease>,
}

impl Resolver {
    /// Opens the active build under `index_dir`. Only memory maps are set up; the RDF store
    /// opens on first use. Every file the manifest records must be there with its recorded
    /// length and a valid header, or the error names it (`ontoresolve check` reads every
    /// byte; opening does not).
    pub fn open(index_dir: &Path) -> Result<Resolver, OpenError> {
        Self::open_weighing(index_dir, true)
    }

    /// [`Resolver::open`] without the build's confidence model, which need not fit this
    /// binary: for `ontoresolve train`, which brings its own.
    pub fn open_unweighed(index_dir: &Path) -> Result<Resolver, OpenError> {
        Self::open_weighing(index_dir, false)
    }

    fn open_weighing(index_dir: &Path, weighed: bool) -> Result<Resolver, OpenError> {
        // The lease comes first, so the build cannot be removed while its files are opened.
        let layout = crate::index::active_build(index_dir)?;
        let lease = match Lease::take(&layout.dir) {
            Ok(lease) => Some(lease),
            Err(LeaseError::Removing) => {
                return Err(OpenError::Damaged {
                    path: layout.dir,
                    message: "this build is being removed by a newer build; open the index again"
                        .into(),
                });
            }
            Err(LeaseError::Io(e)) => {
                tracing::warn!(dir = %layout.dir.display(), error = %e, "no lease on the build: a later build may remove it while it is read");
                None
            }
        };
        let files = IndexFiles::open(&layout.dir)?;
        let confidence = match files.confidence.as_ref().filter(|_| weighed) {
            None => None,
            Some(file) => Some(confidence::ConfidenceModel::from_file(file).map_err(|e| {
                OpenError::Damaged {
                    path: layout.confidence_model(),
                    message: e.to_string(),
                }
            })?),
        };
        let registry = Registry::open(&files.layout)?;
        let mut loaded_records: Vec<RecordId> = Vec::new();
        for rule in &files.manifest.prefixes {
            if let Some(hit) = registry.spelling(&rule.prefix)
                && !loaded_records.contains(&hit.record)
                && registry
                    .record(hit.record)
                    .is_some_and(|r| r.sources.iter().any(|s| files.manifest.source(s).is_some()))
            {
                loaded_records.push(hit.record);
            }
        }
        Ok(Resolver {
            files,
            registry,
            loaded_records,
            store: OnceLock::new(),
            confidence,
            diffs: diff::DiffCache::default(),
            _lease: lease,
        })
    }

    /// Each named graph's shape as the build counted it.
    pub fn graph_shapes(&self) -> Result<crate::index::schema::GraphShapes, OpenError> {
        use crate::index::{format::VersionReadError, schema::SchemaFileError};
        let path = self.files.layout.schema();
        crate::index::schema::GraphShapes::read(&path).map_err(|e| match e {
            SchemaFileError::Version {
                path,
                source: VersionReadError::Mismatch(mismatch),
            } => OpenError::Format { path, mismatch },
            other => OpenError::Damaged {
                path,
                message: other.to_string(),
            },
        })
    }

    /// The confidence model in use, if the build has one.
    pub fn confidence_model(&self) -> Option<&confidence::ConfidenceModel> {
        self.confidence.as_ref()
    }

    /// Weighs with `model` instead of the build's (or with none): for training and its
    /// evaluation, which ask the same questions as serving with another model.
    pub fn set_confidence_model(&mut self, model: Option<confidence::ConfidenceModel>) {
        self.confidence = model;
    }

    /// The build directory this resolver reads.
    pub fn build_dir(&self) -> &Path {
        &self.files.layout.dir
    }

    pub fn manifest(&self) -> &Manifest {
        &self.files.manifest
    }

    /// The prefix registry of this build.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// A prefix in its canonical spelling (`mesh` and `MSH` give `MESH`), if the registry
    /// knows it.
    pub fn canonical_prefix(&self, written: &str) -> Option<String> {
        let hit = self.registry.spelling(written)?;
        self.registry.preferred(hit.record).map(|p| p.to_string())
    }

    /// Registry records of the prefixes that loaded sources use.
    pub fn loaded_records(&self) -> &[RecordId] {
        &self.loaded_records
    }

    pub fn concept_count(&self) -> u32 {
        self.files.table.len()
    }

    /// Every concept id of the build, in table order.
    pub fn concept_ids(&self) -> impl Iterator<Item = ConceptId> + use<> {
        (0..self.concept_count()).map(ConceptId)
    }

    /// Its identifier and name lexicons and full text ([`Lexicon`]).
    pub fn lexicon(&self) -> Lexicon<'_> {
        Lexicon::new(self)
    }

    /// The loaded releases ([`Releases`]).
    pub fn releases(&self) -> Releases<'_> {
        Releases::new(self)
    }

    /// Browsing the loaded releases ([`Browsing`]).
    pub fn browsing(&self) -> Browsing<'_> {
        Browsing::new(self)
    }

    /// The RDF store, opened read-only on first use.
    pub fn store(&self) -> Result<&StoreReader, ResolveError> {
        let store = self.store.get_or_init(|| {
            StoreReader::open(&self.files.layout.store()).map_err(std::sync::Arc::new)
        });
        store
            .as_ref()
            .map_err(|e| ResolveError::StoreUnavailable(e.clone()))
    }
}
