//! The read API over a built index: identifier lookup, exact and fuzzy label lookup, full-text
//! search and concept details. Synchronous, no writes, and no lookup scans the data set: every
//! path goes through an FST, the full-text index or the concept table's offsets.

pub mod browse;
pub mod browse_entities;
pub mod confidence;
pub mod deadline;
pub mod diff;
mod groups;
mod identifier;
mod lineage;
pub mod live;
pub mod mapping;
pub mod passage;
pub mod query;
mod releases;
mod search;
pub mod sparql;

pub use crate::index::names::NameStep;
pub use identifier::{
    BareReading, Chain, ChainEnd, ChainStep, MAX_CHAINS, MAX_IDENTIFIER_BYTES, MalformedReason,
    Normalized, Outcome, ResolveStep,
};
pub use releases::{HeldAs, PinError, ReleaseHolding, View, pin_argument, split_pin};
pub use search::{
    FULL_TEXT_DEPTH, Learned, MatchKind, NameCandidate, NameQuery, NameSearch, SkipReason, Stage,
    TextReach, ViaMapping, penalties,
};

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

pub use crate::index::Manifest;
pub use crate::index::damage;
use crate::index::lease::{Lease, LeaseError};
pub use crate::index::manifest::{MappingSetRecord, ReleaseOrigin, SourceRecord};
use crate::index::normalize::{id_key, label_key};
pub use crate::index::schema::GraphShapes;
use crate::index::{FileError, IndexFiles, OpenError};
use crate::model::{Concept, Label, LinkKind, Prefixes, SourceIdx};
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
    #[error("the RDF store cannot be opened: {0}")]
    StoreUnavailable(String),
    #[error("the mapping index could not be read: {0}")]
    MappingIndex(String),
    /// A query the core wrote itself failed in the RDF store (never a user's SPARQL).
    #[error("a query of the RDF store failed: {0}")]
    StoreQuery(#[from] crate::store::SparqlError),
    #[error("full-text search failed: {0}")]
    FullText(#[from] crate::index::fulltext::FullTextError),
    /// A record the index points at cannot be read: damage, never "not found".
    #[error("damaged index file {0}")]
    Damaged(FileError),
    /// A read that could not carry the error reported damage ([`damage`]); the log names the
    /// file.
    #[error(
        "part of the index could not be read while answering (the log names the file); run `ontoresolve check`"
    )]
    DamagedRead,
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
    store: OnceLock<Result<StoreReader, String>>,
    /// The confidence model the build was given, laid out by the feature registry.
    confidence: Option<confidence::ConfidenceModel>,
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

    /// Identifiers with mappings that start with `prefix` (its prefix part in any spelling),
    /// for completion.
    pub fn complete_mapped(&self, prefix: &str, limit: usize) -> Vec<String> {
        let canonical = match prefix.split_once(':') {
            Some((p, local)) => match self.canonical_prefix(p) {
                Some(p) => format!("{p}:{local}"),
                None => prefix.to_string(),
            },
            None => prefix.to_string(),
        };
        self.files.mappings.complete(&canonical, limit)
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

    /// The RDF store, opened read-only on first use.
    pub fn store(&self) -> Result<&StoreReader, ResolveError> {
        let store = self.store.get_or_init(|| {
            StoreReader::open(&self.files.layout.store()).map_err(|e| e.to_string())
        });
        store
            .as_ref()
            .map_err(|e| ResolveError::StoreUnavailable(e.clone()))
    }

    /// The concept with this id, or `None`; a record that cannot be read is reported as damage
    /// ([`damage`]), which fails the request that read it. Paths that can carry the error use
    /// [`Resolver::concept_checked`].
    pub fn concept(&self, id: ConceptId) -> Option<Concept> {
        self.files.table.get(id.0)
    }

    /// The concept with this id, for ids the index itself gave: a record that cannot be read
    /// is an error naming the concept table, never "not found".
    pub fn concept_checked(&self, id: ConceptId) -> Result<Concept, ResolveError> {
        Ok(self.files.table.get_checked(id.0)?)
    }

    /// What a listing shows of a concept, or `None`; damage is reported as for
    /// [`Resolver::concept`].
    pub fn head(&self, id: ConceptId) -> Option<crate::model::ConceptHead> {
        self.files
            .table
            .get_part(id.0)
            .inspect_err(|e| damage::report(e))
            .ok()
    }

    /// A concept's identifiers and cross-references alone (cheaper than the whole record), for
    /// ids the index itself gave; damage is an error, as for [`Resolver::concept_checked`].
    pub fn identity_checked(
        &self,
        id: ConceptId,
    ) -> Result<crate::model::ConceptIdentity, ResolveError> {
        Ok(self.files.table.get_part(id.0)?)
    }

    /// The source a concept belongs to.
    pub fn source_of(&self, concept: &Concept) -> Option<&SourceRecord> {
        self.files.manifest.sources.get(concept.source.slot())
    }

    /// Concepts with this identifier in any indexed spelling: IRI, CURIE, `PREFIX_local`, bare
    /// local id or alternative id, matched without regard to case.
    pub fn lookup_id(&self, text: &str) -> Vec<IdMatch> {
        self.lookup_id_in(text, View::Current)
    }

    /// [`Resolver::lookup_id`] in the releases `view` selects.
    pub fn lookup_id_in(&self, text: &str, view: View<'_>) -> Vec<IdMatch> {
        let flags = &self.files.flags;
        let mut matches: Vec<IdMatch> = self
            .files
            .ids
            .get(&id_key(text))
            .into_iter()
            .filter(|p| {
                flags
                    .get(p.concept)
                    .is_some_and(|f| self.visible(f.source, view))
            })
            .filter_map(|p| match Spelling::from_detail(p.detail) {
                Some(spelling) => Some(IdMatch {
                    concept: ConceptId(p.concept),
                    spelling,
                }),
                None => {
                    damage::report(&format_args!(
                        "the identifier lexicon: concept {} has spelling detail {}, which no build writes",
                        p.concept, p.detail
                    ));
                    None
                }
            })
            .collect();
        matches.dedup_by_key(|m| m.concept);
        matches
    }

    /// The labels the postings point at. A concept record that cannot be read is an error;
    /// a posting past its concept's labels (which the build never writes) is skipped.
    fn label_matches(
        &self,
        postings: &[crate::index::Posting],
        distance: u8,
    ) -> Result<Vec<LabelMatch>, FileError> {
        let mut out = Vec::with_capacity(postings.len());
        for p in postings {
            let concept: crate::model::ConceptLabels = self.files.table.get_part(p.concept)?;
            if let Some(label) = concept.labels.get(usize::from(p.detail)) {
                out.push(LabelMatch {
                    concept: ConceptId(p.concept),
                    label: label.clone(),
                    distance,
                });
            }
        }
        Ok(out)
    }

    /// Concepts with a label or synonym equal to `text` after normalization (case, spacing and
    /// punctuation folded). Primary labels come before synonyms. A damaged concept record is
    /// logged and left out; the name search uses [`Resolver::lookup_label_checked`].
    pub fn lookup_label(&self, text: &str) -> Vec<LabelMatch> {
        self.lookup_label_checked(text).unwrap_or_else(|e| {
            crate::index::damage::report(&e);
            Vec::new()
        })
    }

    /// [`Resolver::lookup_label`], with a damaged concept record as an error.
    pub fn lookup_label_checked(&self, text: &str) -> Result<Vec<LabelMatch>, ResolveError> {
        let key = label_key(text);
        let mut matches = self.label_matches(&self.files.labels.get(&key), 0)?;
        matches.sort_by_key(|m| (!m.label.kind.is_primary(), m.label.kind, m.concept));
        Ok(matches)
    }

    /// Labels within `max_distance` edits (1 or 2) of `text`, closest first, from at most
    /// `limit` distinct label keys. A damaged concept record is logged and left out; the name
    /// search uses [`Resolver::fuzzy_checked`].
    pub fn fuzzy(&self, text: &str, max_distance: u8, limit: usize) -> Vec<LabelMatch> {
        self.fuzzy_checked(text, max_distance, limit)
            .unwrap_or_else(|e| {
                crate::index::damage::report(&e);
                Vec::new()
            })
    }

    /// [`Resolver::fuzzy`], with a damaged concept record as an error.
    pub fn fuzzy_checked(
        &self,
        text: &str,
        max_distance: u8,
        limit: usize,
    ) -> Result<Vec<LabelMatch>, ResolveError> {
        let key = label_key(text);
        if key.is_empty() {
            return Ok(Vec::new());
        }
        let limit = limit.min(crate::index::fulltext::MAX_HITS);
        let mut out = Vec::new();
        for hit in self.files.labels.fuzzy(&key, max_distance, limit) {
            out.extend(self.label_matches(&hit.postings, hit.distance)?);
        }
        Ok(out)
    }

    /// Full-text search over labels, synonyms and definitions, in the given release keys (all
    /// when `None`): the best `limit` concepts, and whether more match.
    pub fn search(
        &self,
        text: &str,
        sources: Option<&[String]>,
        limit: usize,
    ) -> Result<(Vec<TextMatch>, bool), ResolveError> {
        let (hits, more) = match sources {
            None => self.files.fulltext.search(text, None, limit)?,
            Some(keys) => {
                let selected = || {
                    self.manifest()
                        .sources
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| keys.contains(&s.key()))
                };
                let wanted: HashSet<SourceIdx> = selected()
                    .filter_map(|(slot, _)| SourceIdx::try_from(slot).ok())
                    .collect();
                let origins: Vec<u64> = selected()
                    .map(|(_, s)| crate::index::fulltext::origin_of(&s.graph))
                    .collect();
                let in_wanted = |concept: u32| {
                    self.files
                        .flags
                        .get(concept)
                        .is_some_and(|f| wanted.contains(&f.source))
                };
                // A clause on the releases pays when they are a small part of the index (a
                // common word of other releases is never scored); over most of it, the
                // filter inside the ranking costs less.
                let share: u64 = selected().map(|(_, s)| s.counts.concepts).sum();
                if share.saturating_mul(2) < u64::from(self.concept_count()) {
                    self.files
                        .fulltext
                        .search_in(text, &origins, &in_wanted, limit)?
                } else {
                    self.files.fulltext.search(text, Some(&in_wanted), limit)?
                }
            }
        };
        let found = hits
            .into_iter()
            .map(|h| TextMatch {
                concept: ConceptId(h.concept),
                score: h.score,
            })
            .collect();
        Ok((found, more))
    }

    /// Concepts whose IRI is exactly `iri` in the sources `keep` accepts: judged by the flags,
    /// so the records of other sources and releases are never decoded.
    fn with_iri_where<'a>(
        &'a self,
        iri: &'a str,
        keep: impl Fn(SourceIdx) -> bool + 'a,
    ) -> impl Iterator<Item = (ConceptId, Concept)> + 'a {
        self.files
            .ids
            .get(&id_key(iri))
            .into_iter()
            .filter(|p| p.detail == Spelling::Iri.detail())
            .filter(move |p| {
                self.files
                    .flags
                    .get(p.concept)
                    .is_none_or(|f| keep(f.source))
            })
            .filter_map(|p| Some((ConceptId(p.concept), self.files.table.get(p.concept)?)))
            .filter(move |(_, c)| c.iri == iri)
    }

    /// The concept with `iri` in the given source, if indexed.
    fn by_iri(&self, iri: &str, source: SourceIdx) -> Option<(ConceptId, Concept)> {
        self.with_iri_where(iri, |s| s == source)
            .find(|(_, c)| c.source == source)
    }

    /// The concept with `iri`, preferring the given source, else from a current release.
    pub fn by_iri_any(&self, iri: &str, source: SourceIdx) -> Option<(ConceptId, Concept)> {
        self.by_iri(iri, source).or_else(|| {
            self.with_iri_where(iri, |s| self.visible(s, View::Current))
                .find(|(_, c)| self.visible(c.source, View::Current))
        })
    }

    fn related(&self, iri: &str, kind: LinkKind, source: SourceIdx) -> Related {
        let found = self.by_iri(iri, source).map(|(_, c)| c);
        Related {
            iri: iri.to_string(),
            curie: found
                .as_ref()
                .and_then(|c| c.curie.clone())
                .or_else(|| self.registry.compress(iri)),
            label: found
                .as_ref()
                .and_then(|c| c.preferred_label().map(|l| l.text.clone())),
            kind,
        }
    }

    /// Everything about one concept, with its parents' and children's labels.
    pub fn details(&self, id: ConceptId) -> Option<ConceptDetails> {
        let concept = self.files.table.get(id.0)?;
        let source = self.source_of(&concept)?;
        let parents = concept
            .parents
            .iter()
            .map(|l| self.related(&l.iri, l.kind, concept.source))
            .collect();
        let children = concept
            .children
            .iter()
            .map(|l| self.related(&l.iri, l.kind, concept.source))
            .collect();
        Some(ConceptDetails {
            id,
            source_id: source.id.clone(),
            release: source.release.clone(),
            concept,
            parents,
            children,
        })
    }

    /// CURIEs starting with `prefix` (any case), then CURIEs of concepts whose names start with
    /// it; at most `limit`, for completion.
    pub fn complete_identifier(&self, prefix: &str, limit: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut push = |curie: Option<String>| {
            if let Some(c) = curie
                && out.len() < limit
                && !out.contains(&c)
            {
                out.push(c);
            }
        };
        let current = |concept: ConceptId| {
            self.files
                .flags
                .get(concept.0)
                .is_some_and(|f| self.visible(f.source, View::Current))
        };
        let key = id_key(prefix);
        if !key.is_empty() {
            for (_, postings) in self.files.ids.prefixed(&key, limit * 2) {
                for p in postings.iter().filter(|p| {
                    p.detail == Spelling::Curie.detail() && current(ConceptId(p.concept))
                }) {
                    push(self.files.table.get(p.concept).and_then(|c| c.curie));
                }
            }
        }
        let label = label_key(prefix);
        if !label.is_empty() {
            for (_, postings) in self.files.labels.prefixed(&label, limit) {
                for p in postings.iter().filter(|p| current(ConceptId(p.concept))) {
                    push(self.files.table.get(p.concept).and_then(|c| c.curie));
                }
            }
        }
        out
    }

    /// Follows replaced_by links from an obsolete concept to its first live replacement.
    /// Callers that must not pick one of several use [`Resolver::replacement_chains`].
    pub fn replacement_of(&self, concept: &Concept) -> Option<(ConceptId, Concept)> {
        let id = self
            .replacement_chains(concept)
            .iter()
            .find_map(|c| c.live_end())?;
        Some((id, self.concept(id)?))
    }

    /// The live concepts an obsolete concept's replacement chains end at, each once.
    pub fn live_replacements(&self, concept: &Concept) -> Vec<(ConceptId, Concept)> {
        let mut out: Vec<(ConceptId, Concept)> = Vec::new();
        for id in self
            .replacement_chains(concept)
            .iter()
            .filter_map(|c| c.live_end())
        {
            if !out.iter().any(|(x, _)| *x == id)
                && let Some(c) = self.concept(id)
            {
                out.push((id, c));
            }
        }
        out
    }
}
