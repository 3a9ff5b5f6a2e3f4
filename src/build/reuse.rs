//! Taking sources from the installed build instead of reading them again, so that adding or
//! removing one source costs that source.
//!
//! A source release is reused when its catalogue entry (`entry_fingerprint`) and the SHA-256
//! of every input file are those the installed build recorded, it is current in both or in
//! neither, and nothing that shapes its records changed: the format version, the registry's
//! input files, the name rules, and any prefix the catalogue declares anew or no longer
//! declares, unless the registry already spelled and expanded it that way. A prefix no
//! registry knew (a new ontology's own) only stops the reuse of sources whose recorded
//! footprint (`footprint`) shows they asked about it. Paths play no part, so a copied
//! catalogue and index still reuse.
//!
//! A reused source's concepts come from the installed concept table and its triples from a
//! copy of the installed store (`store::StoreWriter::from_installed`); its lexicon and mapping
//! segments are taken as stored (`mapping_reuse`), and so is its concept table segment when it
//! keeps its source number and first id (a carried release). Anything else is written as for a
//! source that was read, so the result is the build a full rebuild would give.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use super::registry::input_file;
use super::{BuildError, hex};
use crate::catalog::{Catalog, SourceSpec};
use crate::index::concepts::ConceptTable;
use crate::index::manifest::{NameRulesRecord, RegistryRecord, SourceRecord};
use crate::index::schema::GraphShapes;
use crate::index::{BuildLayout, FORMAT_VERSION, FileError, Manifest, active_build, lease};
use crate::ingest::SourceConcepts;
use crate::model::{Concept, ConceptIdentity, PrefixFootprint, PrefixRule, SourceIdx};
use crate::registry::{Registry, fold_scheme_and_host, other_scheme};

/// The installed build, opened for reuse (leased, so no other build removes it meanwhile).
pub(super) struct Previous {
    pub(super) layout: BuildLayout,
    pub(super) manifest: Manifest,
    table: std::sync::Arc<ConceptTable>,
    pub(super) shapes: GraphShapes,
    /// Prefixes declared anew or no longer declared that no registry knew otherwise (scheme
    /// and host of the URI prefix in lower case): each touches only some sources.
    new_prefixes: Vec<PrefixRule>,
    _lease: lease::Lease,
}

/// Why no source can be reused, for the build's report.
pub(super) type NoReuse = String;

/// A hash of what an entry says, except its `release`: that is only a fallback for a file that
/// states none, and the record's release is compared on its own.
pub(super) fn entry_fingerprint(spec: &SourceSpec) -> String {
    let mut spec = spec.clone();
    spec.release = None;
    hex(&Sha256::digest(
        serde_json::to_vec(&spec).unwrap_or_default(),
    ))
}

impl Previous {
    /// The installed build of `index_dir` when its sources may be reused by a build with this
    /// registry, name rules and catalogue; otherwise why not.
    pub(super) fn open(
        index_dir: &Path,
        catalog: &Catalog,
        registry: (&RegistryRecord, &Registry),
        rules: Option<&NameRulesRecord>,
    ) -> Result<Previous, NoReuse> {
        let layout = active_build(index_dir).map_err(|_| "no installed build".to_string())?;
        let lease = lease::Lease::take(&layout.dir)
            .map_err(|e| format!("the installed build cannot be leased: {e}"))?;
        let manifest = Manifest::read(&layout.manifest())
            .map_err(|e| format!("the installed manifest cannot be read: {e}"))?;
        if manifest.format_version != FORMAT_VERSION {
            return Err(format!(
                "the installed build has format version {}",
                manifest.format_version
            ));
        }
        let registry_files = |r: &RegistryRecord| {
            r.source
                .as_ref()
                .map(|s| s.files.iter().map(|f| f.sha256.clone()).collect::<Vec<_>>())
        };
        if registry_files(&manifest.registry) != registry_files(registry.0) {
            return Err("the prefix registry's files changed".into());
        }
        if manifest.name_rules.as_ref().map(|r| &r.sha256) != rules.map(|r| &r.sha256) {
            return Err("the name rules changed".into());
        }
        let old_registry = Registry::open(&layout)
            .map_err(|e| format!("the installed prefix registry cannot be read: {e}"))?;
        let new_rules = super::declared_prefixes(catalog);
        let mut new_prefixes = Vec::new();
        for (rule, other) in changed_rules(&manifest.prefixes, &new_rules) {
            // An added rule must say what the old registry said; a dropped one, the new.
            let judge = if other { &old_registry } else { registry.1 };
            if registry_agrees(judge, rule) {
                continue;
            }
            if !unknown_to(judge, rule) {
                return Err(format!(
                    "the catalogue's prefix {} → {} changes how identifiers read",
                    rule.prefix, rule.uri_prefix
                ));
            }
            // A prefix of its own: it changes only sources whose footprint it touches.
            new_prefixes.push(PrefixRule {
                prefix: rule.prefix.clone(),
                uri_prefix: fold_scheme_and_host(&rule.uri_prefix).into_owned(),
            });
        }
        verify_taken_files(&layout, &manifest)?;
        let table = ConceptTable::open(&layout, &manifest.sources)
            .map_err(|e| format!("the installed concept table cannot be read: {e}"))?;
        let shapes = GraphShapes::read(&layout.schema())
            .map_err(|e| format!("the installed graph shapes cannot be read: {e}"))?;
        Ok(Previous {
            layout,
            manifest,
            table: std::sync::Arc::new(table),
            shapes,
            new_prefixes,
            _lease: lease,
        })
    }

    /// The installed record of this entry's release when it can be reused as it stands.
    pub(super) fn reusable(
        &self,
        spec: &SourceSpec,
        files: &[PathBuf],
        current: bool,
    ) -> Result<Option<&SourceRecord>, BuildError> {
        let fingerprint = entry_fingerprint(spec);
        let Some(record) = self
            .manifest
            .sources
            .iter()
            .find(|r| r.id == spec.id && r.entry == fingerprint && r.current == current)
        else {
            return Ok(None);
        };
        if record.files.len() != files.len() {
            return Ok(None);
        }
        for (file, recorded) in files.iter().zip(&record.files) {
            let now = input_file(Path::new(&recorded.path), file)?;
            if now.sha256 != recorded.sha256 {
                return Ok(None);
            }
        }
        Ok(Some(record))
    }

    /// A prefix declared anew or no longer declared that may change how this installed
    /// release reads: every such prefix when its build recorded no footprint.
    pub(super) fn new_prefix_touching(&self, record: &SourceRecord) -> Option<&PrefixRule> {
        self.touched(record.prefix_use.as_ref())
    }

    /// The first prefix declared anew or dropped that touches `footprint` (any, without one).
    pub(super) fn touched(&self, footprint: Option<&PrefixFootprint>) -> Option<&PrefixRule> {
        self.new_prefixes.iter().find(|rule| {
            footprint.is_none_or(|footprint| {
                footprint.touches(&rule.prefix, &rule.uri_prefix)
                    || other_scheme(&rule.uri_prefix)
                        .is_some_and(|twin| footprint.touches(&rule.prefix, &twin))
            })
        })
    }

    /// The graphs of mapping-set files whose entry, release and file are unchanged: the store keeps
    /// them, and the build reads their rows for the mapping index only; not a set whose rows
    /// a prefix declared anew or dropped may read differently.
    pub(super) fn unchanged_set_graphs(
        &self,
        catalog: &Catalog,
    ) -> Result<BTreeSet<String>, BuildError> {
        let mut graphs = BTreeSet::new();
        for spec in catalog.sources.iter().filter(|s| super::is_mapping_set(s)) {
            let fingerprint = entry_fingerprint(spec);
            // The fingerprint leaves the release out; a set's release names its graph.
            let release = super::mappings::set_release(spec);
            let written = std::iter::once(&spec.path).chain(&spec.more_paths);
            for (file, written) in catalog.files(spec).iter().zip(written) {
                let stem = super::mappings::file_stem(file);
                let Some(set) = self.manifest.mapping_sets.iter().find(|s| {
                    s.source == spec.id
                        && s.file == stem
                        && s.entry == fingerprint
                        && s.release == release
                }) else {
                    continue;
                };
                if self.touched(set.prefix_use.as_ref()).is_some() {
                    continue;
                }
                if file.is_file() && input_file(written, file)?.sha256 == set.sha256 {
                    graphs.insert(set.graph.clone());
                }
            }
        }
        Ok(graphs)
    }

    /// A reused source's concepts, read from the installed table a chunk at a time and
    /// numbered as source `idx`.
    pub(super) fn concepts(
        &self,
        record: &SourceRecord,
        idx: SourceIdx,
    ) -> Result<SourceConcepts, BuildError> {
        let ids = concept_ids(record)?;
        let count = ids.len();
        let chunks = self.read_chunks::<Concept>(ids).map(move |chunk| {
            let mut concepts = chunk.map_err(|e| std::io::Error::other(e.to_string()))?;
            concepts.iter_mut().for_each(|c| c.renumber_source(idx));
            Ok(concepts)
        });
        Ok(SourceConcepts::from_chunks(count, Box::new(chunks)))
    }

    /// The installed records `ids`, a chunk at a time (both cores decoding), each read as
    /// `P`: a whole `Concept`, or a part of it whose other fields are parsed past.
    pub(super) fn read_chunks<P: DeserializeOwned + Send + 'static>(
        &self,
        ids: Range<u32>,
    ) -> impl Iterator<Item = Result<Vec<P>, FileError>> + Send + 'static {
        let table = self.table.clone();
        let chunk = super::write::KEY_CHUNK as u32;
        let end = ids.end;
        ids.step_by(chunk as usize).map(move |start| {
            (start..end.min(start.saturating_add(chunk)))
                .into_par_iter()
                .map(|id| table.get_part(id))
                .collect()
        })
    }

    /// How many leading sources of this build, and how many concepts, can be carried from
    /// the installed build as stored: a run of reused sources from the first, each with the
    /// source number and first concept id it had there, so no id or record changes.
    /// `reused` holds each loaded source's reused record in load order.
    pub(super) fn carried_prefix(&self, reused: &[Option<&SourceRecord>]) -> (usize, u32) {
        let mut concepts: u32 = 0;
        let mut sources = 0;
        for (idx, record) in reused.iter().enumerate() {
            let Some(record) = record else { break };
            let installed = self.manifest.sources.get(idx);
            if installed.is_none_or(|r| r.graph != record.graph) || record.first_concept != concepts
            {
                break;
            }
            let Ok(end) = concept_ids(record).map(|ids| ids.end) else {
                break;
            };
            concepts = end;
            sources += 1;
        }
        (sources, concepts)
    }

    /// The number of concepts in the installed build.
    pub(super) fn concept_count(&self) -> u32 {
        self.table.len()
    }

    /// Whether every installed source release is among `reused`.
    pub(super) fn all_reused<'r>(&self, reused: impl Iterator<Item = &'r SourceRecord>) -> bool {
        let reused: BTreeSet<&str> = reused.map(|r| r.graph.as_str()).collect();
        self.manifest
            .sources
            .iter()
            .all(|s| reused.contains(s.graph.as_str()))
    }

    /// A carried source's identifiers and cross-references, a chunk at a time, for the
    /// mapping index: the rest of each record is parsed past.
    pub(super) fn identities(
        &self,
        record: &SourceRecord,
    ) -> Result<impl Iterator<Item = Result<Vec<ConceptIdentity>, BuildError>>, BuildError> {
        Ok(self
            .read_chunks(concept_ids(record)?)
            .map(|chunk| chunk.map_err(installed_table_error)))
    }

    /// The installed store directory.
    pub(super) fn store(&self) -> PathBuf {
        self.layout.store()
    }

    /// The graph shapes of the reused graphs, as the installed build counted them.
    pub(super) fn shapes_of(&self, graphs: &BTreeSet<String>) -> GraphShapes {
        GraphShapes {
            graphs: self
                .shapes
                .graphs
                .iter()
                .filter(|(g, _)| graphs.contains(*g))
                .map(|(g, s)| (g.clone(), s.clone()))
                .collect(),
        }
    }
}

/// The concept ids a source's record says it holds.
fn concept_ids(record: &SourceRecord) -> Result<Range<u32>, BuildError> {
    u32::try_from(record.counts.concepts)
        .ok()
        .and_then(|n| record.first_concept.checked_add(n))
        .map(|end| record.first_concept..end)
        .ok_or(BuildError::TooLarge("more than 4,294,967,295 concepts"))
}

/// A record of the installed table that cannot be read.
pub(super) fn installed_table_error(e: FileError) -> BuildError {
    BuildError::Io {
        context: "reading the installed concept table".into(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
    }
}

/// Checks every installed file whose contents a build may take (the concept table and flags,
/// the lexicon segments, the full text) against the checksums its build recorded, so that damage is
/// never carried into a new build: a damaged file means every source is read again.
fn verify_taken_files(layout: &BuildLayout, manifest: &Manifest) -> Result<(), NoReuse> {
    let origins = crate::index::release_origins(&manifest.sources);
    let mut files = vec![layout.concept_flags()];
    files.extend(layout.concept_files(&origins));
    files.extend(layout.lexicon_files(&origins, manifest.name_rules.is_some()));
    crate::index::integrity::verify_these(&files, manifest)
        .map_err(|e| format!("the installed build is damaged: {e}"))?;
    match crate::index::integrity::verify_fulltext(&layout.fulltext()) {
        Ok(damaged) if damaged.is_empty() => Ok(()),
        Ok(damaged) => Err(format!(
            "the installed build is damaged: its full-text file {} fails its checksum",
            damaged[0].display()
        )),
        Err(e) => Err(format!(
            "the installed build's full text cannot be read: {e}"
        )),
    }
}

/// Rules in one list and not the other: `(rule, true)` when only `new` has it.
fn changed_rules<'a>(old: &'a [PrefixRule], new: &'a [PrefixRule]) -> Vec<(&'a PrefixRule, bool)> {
    let same =
        |a: &PrefixRule, b: &PrefixRule| a.prefix == b.prefix && a.uri_prefix == b.uri_prefix;
    let added = new
        .iter()
        .filter(|r| !old.iter().any(|o| same(o, r)))
        .map(|r| (r, true));
    let dropped = old
        .iter()
        .filter(|r| !new.iter().any(|n| same(n, r)))
        .map(|r| (r, false));
    added.chain(dropped).collect()
}

/// Whether `registry` knows nothing that `rule` would change: not its prefix in any spelling,
/// and no URI prefix that `rule.uri_prefix` lies under, except the bare OBO PURL space when
/// the rule names one ontology in it (`…/obo/SYNTAX_`), which reads as an unknown prefix.
fn unknown_to(registry: &Registry, rule: &PrefixRule) -> bool {
    if registry.spelling(&rule.prefix).is_some() {
        return false;
    }
    let folded = fold_scheme_and_host(&rule.uri_prefix).into_owned();
    let twin = other_scheme(&folded);
    std::iter::once(folded.as_str())
        .chain(twin.as_deref())
        .all(|uri| match registry.uri_prefix_of(uri) {
            None => true,
            Some(m) => {
                let (base, rest) = uri.split_at(m.len);
                base.ends_with("purl.obolibrary.org/obo/")
                    && rest.strip_suffix('_').is_some_and(|p| {
                        !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric())
                    })
            }
        })
}

/// Whether a registry already spells `rule.prefix` as the rule does and expands and
/// abbreviates it with the rule's URI prefix, so that declaring the rule or not changes no
/// identifier.
fn registry_agrees(registry: &Registry, rule: &PrefixRule) -> bool {
    let Some(hit) = registry.spelling(&rule.prefix) else {
        return false;
    };
    let Some(record) = registry.record(hit.record) else {
        return false;
    };
    let expands = record
        .index_uri_prefix
        .as_ref()
        .or(record.uri_prefix.as_ref())
        .is_some_and(|u| *u == rule.uri_prefix);
    let abbreviates = registry
        .uri_prefix_of(&rule.uri_prefix)
        .is_some_and(|m| m.record == hit.record && m.len == rule.uri_prefix.len());
    record.preferred == rule.prefix && expands && abbreviates
}
