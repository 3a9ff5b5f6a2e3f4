//! The concept sources of one build: each read from its files (or reused from the installed
//! build), written into the index a chunk at a time, and recorded for the manifest.

use std::time::Instant;

use super::footprint::PrefixUse;
use super::{
    BuildError, BuildObserver, BuildOptions, Sinks, SourcePlan, io_err, read, registry, reuse,
    tables, write,
};
use crate::catalog::{Catalog, SourceSpec};
use crate::index::manifest::{
    IdShape, InputFile, MAX_TOP_CONCEPTS, ReleaseOrigin, SkippedSource, SourceCounts, SourceRecord,
};
use crate::ingest::{Format, SourceConcepts};
use crate::model::{Concept, Prefixes, SourceIdx};

/// Reads (or reuses) every loadable concept source in catalogue order and returns their
/// records; a source that fails with `keep_going` joins `skipped`.
pub(super) fn read_concept_sources(
    catalog: &Catalog,
    options: &BuildOptions,
    observer: &dyn BuildObserver,
    sinks: &mut Sinks<'_, '_>,
    plan: &SourcePlan<'_>,
    skipped: &mut Vec<SkippedSource>,
) -> Result<Vec<SourceRecord>, BuildError> {
    let mut records: Vec<SourceRecord> = Vec::new();
    for (at, spec) in catalog.sources.iter().enumerate() {
        if !plan.loadable[at] {
            continue;
        }
        let Ok(idx) = SourceIdx::try_from(records.len()) else {
            return Err(BuildError::TooLarge("more than 65,535 sources"));
        };
        if usize::from(idx.0) < plan.carried
            && let (Some(record), Some(previous)) = (&plan.reuse[at], plan.previous)
        {
            observer.source_reused(&spec.id, record);
            records.push(carry_concept_source(record, previous, sinks, observer)?);
            continue;
        }
        let started = Instant::now();
        let prefix_use = PrefixUse::new(sinks.registry, spec);
        let read = match (&plan.reuse[at], plan.previous) {
            (Some(record), Some(previous)) => previous
                .concepts(record, idx)
                .map(|concepts| (record.clone(), concepts)),
            _ => read_source(catalog, spec, idx, (sinks, &prefix_use), observer).map(
                |(mut record, concepts)| {
                    record.current = catalog.is_current(at, |i| plan.loadable[i]);
                    record.entry = reuse::entry_fingerprint(spec);
                    (record, concepts)
                },
            ),
        };
        match read {
            Ok((record, concepts)) => {
                if let Some(earlier) = records.iter().find(|r| r.graph == record.graph) {
                    return Err(BuildError::ReleaseClash {
                        id: spec.id.clone(),
                        release: earlier.release.clone(),
                    });
                }
                if plan.reuse[at].is_some() {
                    observer.source_reused(&spec.id, &record);
                } else {
                    observer.source_finished(&spec.id, &record, started.elapsed().as_secs_f64());
                }
                // A reused source keeps the footprint it was read with.
                let fresh = plan.reuse[at].is_none();
                let prefixes: &dyn Prefixes = if fresh { &prefix_use } else { sinks.registry };
                let installed = (!fresh).then_some(plan.previous).flatten();
                let xrefs = begin_xrefs(&record, installed, sinks, observer);
                let installed = installed.map(|p| &p.layout);
                let mut record =
                    write_concept_source((xrefs, installed), record, concepts, sinks, prefixes)?;
                if xrefs {
                    sinks.mappings.end_release();
                }
                if fresh {
                    record.prefix_use = Some(prefix_use.footprint());
                }
                records.push(record);
            }
            Err(error) if options.keep_going => {
                observer.source_skipped(&spec.id, &error.to_string());
                skipped.push(SkippedSource {
                    id: spec.id.clone(),
                    reason: error.to_string(),
                });
            }
            Err(error) => return Err(error),
        }
    }
    if records.is_empty() {
        return Err(BuildError::Empty);
    }
    Ok(records)
}

/// Reads one concept source from its files into the store; its record and concepts.
fn read_source(
    catalog: &Catalog,
    spec: &SourceSpec,
    idx: SourceIdx,
    (sinks, prefixes): (&Sinks<'_, '_>, &PrefixUse<'_>),
    observer: &dyn BuildObserver,
) -> Result<(SourceRecord, SourceConcepts), BuildError> {
    let files = catalog.files(spec);
    // Checked before reading, so a changed file never reaches the store.
    if let (Some(expected), Some(file)) = (&spec.sha256, files.first()) {
        let now = registry::input_file(&spec.path, file)?;
        if !expected.eq_ignore_ascii_case(&now.sha256) {
            return Err(BuildError::ChangedFile {
                id: spec.id.clone(),
                path: now.path,
                expected: expected.clone(),
            });
        }
    }
    let store = sinks.store;
    match spec.format() {
        Some(Format::Table(format)) => {
            let sinks = (prefixes as &dyn Prefixes, store, sinks.spill_dir);
            tables::ingest_table_source(idx, spec, format, &files, sinks, observer)
        }
        _ => read::ingest_source(
            idx,
            spec,
            &catalog.file(spec),
            prefixes,
            store,
            sinks.spill_dir,
            observer,
        ),
    }
}

/// Where a release's cross-references go: a current release's segment of the mapping index
/// is taken from the `installed` build when it holds it unchanged, else begun, and then true
/// (its cross-references follow). An older release states no mappings: an older release's
/// xrefs would still read as asserted after the source dropped them.
fn begin_xrefs(
    record: &SourceRecord,
    installed: Option<&reuse::Previous>,
    sinks: &mut Sinks<'_, '_>,
    observer: &dyn BuildObserver,
) -> bool {
    if !record.current {
        return false;
    }
    let taken = installed.and_then(|previous| {
        super::mapping_reuse::takeable_release(previous, record, observer)
            .map(|segment| (segment, previous))
    });
    match taken {
        Some((segment, previous)) => {
            sinks.mappings.take_release(segment, &previous.layout);
            false
        }
        None => {
            let name = crate::index::release_segment_name(&record.graph);
            sinks.mappings.begin_release(name);
            true
        }
    }
}

/// Writes one read source into the index and the mapping builder a chunk of concepts at a
/// time, so that a large source's concepts are never all in memory. A failure here is the
/// build's, never the source's (no keep_going).
/// Its lexicon segments are taken from the `installed` build when it holds the release; its
/// cross-references go to the mapping segment begun when `xrefs`.
fn write_concept_source(
    (xrefs, installed): (bool, Option<&crate::index::BuildLayout>),
    mut record: SourceRecord,
    mut concepts: SourceConcepts,
    sinks: &mut Sinks<'_, '_>,
    prefixes: &dyn Prefixes,
) -> Result<SourceRecord, BuildError> {
    let mut tops = TopConcepts::default();
    let mut shapes = IdShapes::default();
    let source_key = record.key();
    record.first_concept = sinks.writer.next_concept();
    let origin = write::document_origin(&record).origin;
    let taken = installed.map_or(write::TakenFrom::Nothing, write::TakenFrom::Lexicons);
    sinks.writer.begin_release(origin, taken)?;
    while let Some(chunk) = concepts.next_chunk(write::KEY_CHUNK) {
        let chunk = chunk.map_err(io_err(format!(
            "{}: reading its concepts back from the build directory",
            record.id
        )))?;
        tops.observe(&chunk);
        shapes.observe(&chunk);
        let from = write::document_origin(&record);
        sinks.writer.add_concepts(
            (&source_key, from),
            &chunk,
            prefixes,
            record.default_group(),
        )?;
        if xrefs {
            sinks.mappings.add_source_xrefs(&chunk);
        }
    }
    sinks.writer.end_release()?;
    record.top_concepts = tops.finish();
    record.id_shapes = shapes.finish();
    Ok(record)
}

/// A source the index writer carried as stored: its record stands, and its cross-references
/// are read again only when its mapping segment cannot be taken.
fn carry_concept_source(
    record: &SourceRecord,
    previous: &reuse::Previous,
    sinks: &mut Sinks<'_, '_>,
    observer: &dyn BuildObserver,
) -> Result<SourceRecord, BuildError> {
    let origin = write::document_origin(record).origin;
    let taken = write::TakenFrom::Everything(&previous.layout);
    sinks.writer.begin_release(origin, taken)?;
    sinks.writer.end_release()?;
    if begin_xrefs(record, Some(previous), sinks, observer) {
        for chunk in previous.identities(record)? {
            sinks.mappings.add_identity_xrefs(&chunk?);
        }
        sinks.mappings.end_release();
    }
    Ok(record.clone())
}

/// What the manifest says of one source once it is read.
pub(super) fn source_record(
    spec: &SourceSpec,
    format: Format,
    (release, release_origin): (String, ReleaseOrigin),
    graph: String,
    files: Vec<InputFile>,
    stats: SourceCounts,
    skipped_rows: u64,
) -> SourceRecord {
    SourceRecord {
        id: spec.id.clone(),
        title: spec.title.clone(),
        kind: spec.kind.as_str().to_string(),
        format: format.name().to_string(),
        release,
        release_origin,
        current: true,
        graph,
        files,
        entry: String::new(),
        license: spec.license.clone(),
        attribution: spec.attribution.clone(),
        homepage: spec.homepage.clone(),
        scope: spec.scope.clone(),
        url: spec.url.clone(),
        preferred_prefix: spec.preferred_prefix.clone(),
        base_uris: spec.base_uris.clone(),
        hierarchical_properties: spec.hierarchical_properties.clone(),
        ontology_iri: None,
        group: spec.group,
        first_concept: 0,
        top_concepts: Vec::new(),
        id_shapes: Vec::new(),
        prefix_use: None,
        counts: SourceCounts {
            skipped_rows,
            ..stats
        },
    }
}

/// SKOS top concepts if the source marks any, else the roots of its hierarchy: live concepts
/// without parents that have children. A source without a hierarchy (genes) has none.
#[derive(Default)]
struct TopConcepts {
    marked: Vec<String>,
    roots: Vec<String>,
}

impl TopConcepts {
    fn observe(&mut self, concepts: &[Concept]) {
        for c in concepts {
            if c.top_concept && self.marked.len() < MAX_TOP_CONCEPTS {
                self.marked.push(c.iri.clone());
            }
            let root = c.parents.is_empty() && !c.children.is_empty() && !c.obsolete;
            if root && self.roots.len() < MAX_TOP_CONCEPTS {
                self.roots.push(c.iri.clone());
            }
        }
    }

    fn finish(self) -> Vec<String> {
        if self.marked.is_empty() {
            self.roots
        } else {
            self.marked
        }
    }
}

/// The shape of local ids per prefix, learned from the concepts' CURIEs as they pass.
#[derive(Default)]
struct IdShapes {
    by_prefix: std::collections::BTreeMap<String, IdShape>,
}

impl IdShapes {
    fn observe(&mut self, concepts: &[Concept]) {
        for curie in concepts.iter().filter_map(|c| c.curie.as_deref()) {
            let Some((prefix, local)) = curie.split_once(':') else {
                continue;
            };
            match self.by_prefix.get_mut(prefix) {
                Some(shape) => shape.widen(local),
                None => {
                    if let Some(shape) = IdShape::observe(prefix, [local]) {
                        self.by_prefix.insert(prefix.to_string(), shape);
                    }
                }
            }
        }
    }

    fn finish(self) -> Vec<IdShape> {
        self.by_prefix.into_values().collect()
    }
}
