//! The mapping part of a build: cross-references inside the loaded sources and the rows of
//! every mapping set go, normalized through the registry, into the mapping index (a segment
//! per current release, one for the sets: `mapping_segments`); each set's rows also go into
//! the RDF store as SSSOM-style axioms, one named graph per set.

use std::path::Path;

use oxrdf::{Literal, NamedNode, Triple};

use super::mapping_segments::MappingSegments;
use super::registry::input_file;
use super::{BuildError, BuildObserver};
use crate::catalog::SourceSpec;
use crate::index::BuildLayout;
use crate::index::manifest::{
    MappingIndexCounts, MappingSegmentRecord, MappingSetCounts, MappingSetRecord, MetadataOrigin,
};
use crate::index::mappings::Statement;
use crate::ingest::MappingFormat;
use crate::ingest::sssom::{self, MappingRow, RowId, SetHeader};
use crate::model::{
    Concept, Evidence, EvidenceOrigin, FootprintRecorder, MappingPredicate, NO_TERM_FOUND, XrefKind,
};
use crate::registry::Registry;
use crate::store::{LoadError, StoreWriter, graph_iri};

/// Row problems reported in full per set; the rest are counted.
const MAX_REPORTED_PROBLEMS: usize = 20;
/// The justification given to a source's own cross-references: the source states them, not
/// how they were made.
pub const SOURCE_XREF_JUSTIFICATION: &str = "semapv:UnspecifiedMatching";

const OWL: &str = "http://www.w3.org/2002/07/owl#";
const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const XSD_DOUBLE: &str = "http://www.w3.org/2001/XMLSchema#double";
pub const SSSOM: &str = "https://w3id.org/sssom/";
pub const SEMAPV: &str = "https://w3id.org/semapv/vocab/";

/// Statements for the mapping index, collected over the whole build.
pub(super) struct MappingBuilder<'a> {
    pub(super) segments: MappingSegments,
    registry: &'a Registry,
    pub(super) sets: Vec<MappingSetRecord>,
    /// The footprint of the release's cross-references or the mapping set being read.
    footprint: std::sync::Mutex<Option<FootprintRecorder>>,
}

/// An identifier of a mapping as the index and the store know it.
struct MappedId {
    curie: String,
    iri: Option<String>,
    registered: bool,
}

impl<'a> MappingBuilder<'a> {
    pub(super) fn new(layout: &BuildLayout, registry: &'a Registry) -> MappingBuilder<'a> {
        MappingBuilder {
            segments: MappingSegments::new(layout),
            registry,
            sets: Vec::new(),
            footprint: std::sync::Mutex::new(None),
        }
    }

    /// Starts a current release's segment (`name`: `index::release_segment_name`), whose
    /// cross-references follow; its footprint is recorded from here.
    pub(super) fn begin_release(&mut self, name: String) {
        self.segments.begin_release(name);
        self.set_footprint(Some(FootprintRecorder::default()));
    }

    /// Ends the release segment begun last.
    pub(super) fn end_release(&mut self) {
        let footprint = self.set_footprint(None).map(|f| f.finish());
        self.segments.end_release(footprint.unwrap_or_default());
    }

    /// Takes a current release's segment from the installed build as it stands.
    pub(super) fn take_release(
        &mut self,
        record: MappingSegmentRecord,
        installed: &crate::index::BuildLayout,
    ) {
        self.segments.take_release(record, installed);
    }

    /// Takes the mapping sets' segment from the installed build: the sets are not read.
    pub(super) fn take_sets(
        &mut self,
        taken: super::mapping_reuse::TakenMappings,
        installed: &crate::index::BuildLayout,
    ) {
        self.sets = taken.sets;
        self.segments.take_sets(taken.segment, installed);
    }

    /// The cross-references of one source's concepts, into the release segment begun last. An
    /// xref that states no predicate stays hasDbXref; MeSH mapped-to is the record's broader
    /// heading.
    pub(super) fn add_source_xrefs(&mut self, concepts: &[Concept]) {
        for concept in concepts {
            if let Some(subject) = &concept.curie {
                self.add_xrefs(subject, &concept.xrefs);
            }
        }
    }

    /// [`Self::add_source_xrefs`] for concepts read as their identities alone.
    pub(super) fn add_identity_xrefs(&mut self, concepts: &[crate::model::ConceptIdentity]) {
        for concept in concepts {
            if let Some(subject) = &concept.curie {
                self.add_xrefs(subject, &concept.xrefs);
            }
        }
    }

    fn add_xrefs(&mut self, subject: &str, xrefs: &[crate::model::Xref]) {
        for xref in xrefs {
            let object = self.normalize(&xref.target);
            let (predicate, source_predicate) = xref_predicate(xref.kind);
            // The segment's place among the current sources numbers it on reading.
            let evidence = Evidence {
                set: 0,
                origin: EvidenceOrigin::SourceXref,
                justification: SOURCE_XREF_JUSTIFICATION.to_string(),
                confidence_milli: None,
                author_id: Vec::new(),
                reviewer_id: Vec::new(),
                mapping_tool: None,
                mapping_date: None,
                source_predicate,
                line: None,
                comment: xref.qualifier.as_ref().map(|q| format!("qualifier {q}")),
            };
            self.segments.add_xref(&Statement {
                subject,
                predicate: &predicate,
                object: &object.curie,
                negated: false,
                evidence: &evidence,
            });
        }
    }

    /// A CURIE or IRI through the registry; one it cannot read stays as written.
    fn normalize(&self, written: &str) -> MappedId {
        if written == NO_TERM_FOUND {
            return MappedId {
                curie: NO_TERM_FOUND.to_string(),
                iri: Some(format!("{SSSOM}NoTermFound")),
                registered: true,
            };
        }
        let normalization = self.registry.normalize(written);
        let (prefix, iri) = super::footprint::noted(self.registry, written, &normalization.reading);
        if (prefix.is_some() || iri.is_some())
            && let Ok(mut footprint) = self.footprint.lock()
            && let Some(footprint) = footprint.as_mut()
        {
            super::footprint::note(footprint, &[], prefix, iri);
        }
        match normalization.identified() {
            Some(id) => MappedId {
                curie: id.curie.clone(),
                iri: id.iri.clone(),
                registered: true,
            },
            None => MappedId {
                curie: written.trim().to_string(),
                iri: None,
                registered: false,
            },
        }
    }

    fn row_id(&self, id: &RowId) -> MappedId {
        match id {
            RowId::NoTermFound => self.normalize(NO_TERM_FOUND),
            RowId::Curie(curie) => self.normalize(curie),
            RowId::Expanded { curie, iri } => {
                let by_iri = self.normalize(iri);
                if by_iri.registered {
                    return by_iri;
                }
                let by_curie = self.normalize(curie);
                MappedId {
                    iri: by_curie.iri.or_else(|| Some(iri.clone())),
                    ..by_curie
                }
            }
        }
    }

    /// Reads one mapping-set file into the index and the store.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_set(
        &mut self,
        spec: &SourceSpec,
        format: MappingFormat,
        file: &Path,
        written: &Path,
        several_files: bool,
        store: &StoreWriter,
        observer: &dyn BuildObserver,
    ) -> Result<(), BuildError> {
        let Ok(set) = u16::try_from(self.sets.len()) else {
            return Err(BuildError::TooLarge("more than 65,535 mapping sets"));
        };
        let checked = input_file(written, file)?;
        let stem = file_stem(file);
        let release = set_release(spec);
        let graph = if several_files {
            graph_iri(&format!("{}.{stem}", spec.id), &release)
        } else {
            graph_iri(&spec.id, &release)
        };
        let source_error = |source: sssom::SssomError| BuildError::MappingSet {
            id: spec.id.clone(),
            source,
        };
        let (header, rows) = open_rows(spec, format, file).map_err(source_error)?;
        let record = set_record(spec, &header, &stem, &release, &graph, checked.sha256);
        let mut counts = MappingSetCounts::default();
        let mut problems = Problems::default();
        let tool = spec.mapping_tool.clone();
        self.set_footprint(Some(FootprintRecorder::default()));
        let triples = self.row_triples(
            set,
            rows,
            tool.as_deref(),
            &graph,
            &mut counts,
            &mut problems,
        );
        store.load_graph(&graph, triples).map_err(|e| match e {
            LoadError::Store(error) => BuildError::SourceStore {
                id: spec.id.clone(),
                error,
            },
            LoadError::Input(e) => source_error(e),
        })?;
        problems.report(&spec.id, written, observer);
        let prefix_use = self.set_footprint(None).map(|f| f.finish());
        self.sets.push(MappingSetRecord {
            counts,
            prefix_use,
            ..record
        });
        Ok(())
    }

    /// Starts or ends recording a mapping set's footprint; the one recorded so far.
    fn set_footprint(&self, to: Option<FootprintRecorder>) -> Option<FootprintRecorder> {
        match self.footprint.lock() {
            Ok(mut footprint) => std::mem::replace(&mut footprint, to),
            Err(poisoned) => std::mem::replace(&mut poisoned.into_inner(), to),
        }
    }

    /// The store triples of a set's rows, counting rows and noting skipped ones on the way.
    /// A read failure part-way ends the stream with an error, so that nothing of the set is
    /// committed to the store.
    fn row_triples<'r>(
        &'r mut self,
        set: u16,
        mut rows: Rows,
        tool: Option<&'r str>,
        graph: &'r str,
        counts: &'r mut MappingSetCounts,
        problems: &'r mut Problems,
    ) -> impl Iterator<Item = Result<Triple, sssom::SssomError>> + 'r {
        let batches = std::iter::from_fn(move || {
            loop {
                let row = match rows.next() {
                    Some(Ok(Ok(row))) => row,
                    Some(Ok(Err(problem))) => {
                        counts.rows += 1;
                        counts.skipped_rows += 1;
                        problems.push(|| format!("{}: {}", problem.line, problem.message));
                        continue;
                    }
                    None => return None,
                    Some(Err(e)) => return Some(Err(e)),
                };
                counts.rows += 1;
                match self.add_row(set, &row, tool, graph, counts) {
                    Ok(triples) => {
                        counts.triples += triples.len() as u64;
                        return Some(Ok(triples));
                    }
                    Err(message) => {
                        counts.skipped_rows += 1;
                        problems.push(|| format!("{}: {message}", row.line));
                    }
                }
            }
        });
        batches.flat_map(|batch| match batch {
            Ok(triples) => triples.into_iter().map(Ok).collect::<Vec<_>>(),
            Err(e) => vec![Err(e)],
        })
    }

    /// One row into the index; its axiom's triples for the store, or why it was skipped.
    fn add_row(
        &mut self,
        set: u16,
        row: &MappingRow,
        tool: Option<&str>,
        graph: &str,
        counts: &mut MappingSetCounts,
    ) -> Result<Vec<Triple>, String> {
        let subject = self.row_id(&row.subject);
        let object = self.row_id(&row.object);
        // A standard predicate under another prefix spelling (`oio:hasDbXref`) is known by its
        // IRI.
        let predicate = match (&row.predicate, &row.predicate_iri) {
            (MappingPredicate::Other(_), Some(iri)) => match MappingPredicate::parse(iri) {
                MappingPredicate::Other(_) => row.predicate.clone(),
                known => known,
            },
            (stated, _) => stated.clone(),
        };
        let predicate_iri = predicate
            .iri()
            .map(str::to_string)
            .or_else(|| row.predicate_iri.clone())
            .ok_or_else(|| format!("predicate `{}` has no IRI", row.predicate.curie()))?;
        let evidence = Evidence {
            set,
            origin: EvidenceOrigin::MappingSet,
            justification: row.justification.clone(),
            confidence_milli: row.confidence_milli,
            author_id: row.author_id.clone(),
            reviewer_id: row.reviewer_id.clone(),
            mapping_tool: row
                .mapping_tool
                .clone()
                .or_else(|| tool.map(str::to_string)),
            mapping_date: row.mapping_date.clone(),
            source_predicate: None,
            line: Some(row.line),
            comment: row.comment.clone(),
        };
        let (Some(subject_iri), Some(object_iri)) = (&subject.iri, &object.iri) else {
            return Err("an identifier has no IRI".into());
        };
        // The axiom first: a row the store cannot hold is not indexed either.
        let triples = axiom_triples(
            graph,
            row,
            &evidence,
            [subject_iri, &predicate_iri, object_iri],
        )
        .ok_or_else(|| "an identifier or the justification is not a valid IRI".to_string())?;
        if !self.segments.add_set_statement(&Statement {
            subject: &subject.curie,
            predicate: &predicate,
            object: &object.curie,
            negated: row.negated,
            evidence: &evidence,
        }) {
            return Err(
                "an identifier or the predicate cannot be indexed (empty, too long or control characters)".into(),
            );
        }
        counts.unregistered_ids += u64::from(!subject.registered) + u64::from(!object.registered);
        if subject.curie == NO_TERM_FOUND || object.curie == NO_TERM_FOUND {
            counts.no_term_found += 1;
        } else if row.negated {
            counts.negative += 1;
        } else {
            counts.mappings += 1;
        }
        Ok(triples)
    }

    /// Writes the segments; the index's counts, the mapping sets and each segment's record.
    pub(super) fn finish(
        self,
        layout: &BuildLayout,
        observer: &dyn BuildObserver,
    ) -> Result<MappingsWritten, BuildError> {
        let predicted: Vec<u16> = (0..self.sets.len())
            .filter(|&i| self.sets[i].predicted)
            .filter_map(|i| u16::try_from(i).ok())
            .collect();
        let (counts, segments) = self.segments.finish(layout, &predicted, observer)?;
        Ok(MappingsWritten {
            counts,
            sets: self.sets,
            segments,
        })
    }
}

/// What the manifest says of the mapping index once written.
pub(super) struct MappingsWritten {
    pub(super) counts: MappingIndexCounts,
    pub(super) sets: Vec<MappingSetRecord>,
    pub(super) segments: Vec<MappingSegmentRecord>,
}

/// A mapping set's rows as its reader yields them.
type Rows =
    Box<dyn Iterator<Item = Result<Result<MappingRow, sssom::RowProblem>, sssom::SssomError>>>;

/// Opens a mapping set in its format: its header (none for gilda) and its rows.
fn open_rows(
    spec: &SourceSpec,
    format: MappingFormat,
    file: &Path,
) -> Result<(SetHeader, Rows), sssom::SssomError> {
    Ok(match format {
        MappingFormat::SssomTsv => {
            let metadata = spec.metadata.as_ref().map(|m| file.with_file_name(m));
            let rows = sssom::open_sssom_tsv(file, metadata.as_deref())?;
            (rows.header().clone(), Box::new(rows))
        }
        MappingFormat::GildaTsv => (SetHeader::default(), Box::new(sssom::open_gilda_tsv(file)?)),
    })
}

/// Row problems of one set: the first few in full, the rest counted, so that a file of bad
/// rows cannot fill memory.
#[derive(Default)]
struct Problems {
    first: Vec<String>,
    count: usize,
}

impl Problems {
    /// Tells the observer of the first skipped rows, and how many more the manifest counts.
    fn report(&self, source: &str, written: &Path, observer: &dyn BuildObserver) {
        for problem in &self.first {
            observer.row_problem(
                source,
                &format!("row skipped: {}:{problem}", written.display()),
            );
        }
        if self.count > MAX_REPORTED_PROBLEMS {
            observer.row_problem(
                source,
                &format!(
                    "… and {} more skipped rows in {} (the manifest counts them)",
                    self.count - MAX_REPORTED_PROBLEMS,
                    written.display()
                ),
            );
        }
    }

    fn push(&mut self, message: impl FnOnce() -> String) {
        if self.first.len() < MAX_REPORTED_PROBLEMS {
            self.first.push(message());
        }
        self.count += 1;
    }
}

/// The mapping predicate a source's xref kind states, and the source's own predicate when the
/// two differ.
fn xref_predicate(kind: XrefKind) -> (MappingPredicate, Option<String>) {
    match kind {
        XrefKind::DbXref => (MappingPredicate::DbXref, None),
        XrefKind::ExactMatch => (MappingPredicate::ExactMatch, None),
        XrefKind::CloseMatch => (MappingPredicate::CloseMatch, None),
        XrefKind::BroadMatch => (MappingPredicate::BroadMatch, None),
        XrefKind::NarrowMatch => (MappingPredicate::NarrowMatch, None),
        XrefKind::RelatedMatch => (MappingPredicate::RelatedMatch, None),
        XrefKind::HasGeneProduct | XrefKind::Ortholog => {
            (MappingPredicate::Other(kind.curie().to_string()), None)
        }
        XrefKind::PreferredMappedTo | XrefKind::MappedTo => {
            (MappingPredicate::BroadMatch, Some(kind.curie().to_string()))
        }
    }
}

pub(super) fn file_stem(file: &Path) -> String {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = crate::ingest::strip_compression(&name);
    let name = name.strip_suffix(".tsv").unwrap_or(name);
    name.strip_suffix(".sssom").unwrap_or(name).to_string()
}

/// The manifest's record of a set: the file's metadata first, the catalogue's where it has
/// none.
fn set_record(
    spec: &SourceSpec,
    header: &SetHeader,
    stem: &str,
    release: &str,
    graph: &str,
    sha256: String,
) -> MappingSetRecord {
    let (license, license_origin) = match &header.license {
        Some(license) => (license.clone(), MetadataOrigin::File),
        None => (spec.license.clone(), MetadataOrigin::Catalogue),
    };
    MappingSetRecord {
        source: spec.id.clone(),
        file: stem.to_string(),
        mapping_set_id: header
            .mapping_set_id
            .clone()
            .or_else(|| spec.mapping_set_id.clone())
            .unwrap_or_else(|| format!("urn:ontoresolve:mapping-set:{}:{stem}", spec.id)),
        mapping_set_version: header.mapping_set_version.clone(),
        title: header
            .mapping_set_title
            .clone()
            .or_else(|| Some(spec.title.clone())),
        license,
        license_origin,
        attribution: spec.attribution.clone(),
        release: release.to_string(),
        predicted: spec.predicted,
        graph: graph.to_string(),
        sha256,
        entry: super::reuse::entry_fingerprint(spec),
        counts: MappingSetCounts::default(),
        header: header.other.clone(),
        prefix_use: None,
    }
}

/// The row as an SSSOM axiom: `owl:Axiom` with annotated source, property and target, and
/// the row's justification, modifier, confidence and people.
fn axiom_triples(
    graph: &str,
    row: &MappingRow,
    evidence: &Evidence,
    [subject, predicate, object]: [&str; 3],
) -> Option<Vec<Triple>> {
    let node = NamedNode::new(format!("{graph}:row:{}", row.line)).ok()?;
    let iri = |text: &str| NamedNode::new(text).ok();
    let sssom = |slot: &str| NamedNode::new_unchecked(format!("{SSSOM}{slot}"));
    let owl = |term: &str| NamedNode::new_unchecked(format!("{OWL}{term}"));
    let justification = match evidence.justification.strip_prefix("semapv:") {
        Some(local) => iri(&format!("{SEMAPV}{local}"))?,
        None => iri(&evidence.justification)?,
    };
    let mut triples = vec![
        Triple::new(
            node.clone(),
            NamedNode::new_unchecked(RDF_TYPE),
            owl("Axiom"),
        ),
        Triple::new(node.clone(), owl("annotatedSource"), iri(subject)?),
        Triple::new(node.clone(), owl("annotatedProperty"), iri(predicate)?),
        Triple::new(node.clone(), owl("annotatedTarget"), iri(object)?),
        Triple::new(node.clone(), sssom("mapping_justification"), justification),
    ];
    if row.negated {
        triples.push(Triple::new(
            node.clone(),
            sssom("predicate_modifier"),
            Literal::new_simple_literal("Not"),
        ));
    }
    if let Some(confidence) = evidence.confidence() {
        let value = Literal::new_typed_literal(
            confidence.to_string(),
            NamedNode::new_unchecked(XSD_DOUBLE),
        );
        triples.push(Triple::new(node.clone(), sssom("confidence"), value));
    }
    let people = [
        ("author_id", &evidence.author_id),
        ("reviewer_id", &evidence.reviewer_id),
    ];
    for (slot, values) in people {
        for value in values {
            triples.push(Triple::new(
                node.clone(),
                sssom(slot),
                Literal::new_simple_literal(value),
            ));
        }
    }
    if let Some(tool) = &evidence.mapping_tool {
        triples.push(Triple::new(
            node.clone(),
            sssom("mapping_tool"),
            Literal::new_simple_literal(tool),
        ));
    }
    Some(triples)
}

/// A mapping set's release: the catalogue's (a set states none the build reads).
pub(super) fn set_release(spec: &SourceSpec) -> String {
    spec.release.clone().unwrap_or_else(|| "unknown".into())
}
