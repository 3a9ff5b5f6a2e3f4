//! Parsers per format, each streaming triples into a [`TripleSink`], and the concept
//! [`extract::Extractor`] that turns a triple stream into concepts.
//!
//! Every input is parsed exactly once: the build's sink hands each triple both to the store and
//! to the extractor.

mod concepts;
pub mod error;
pub mod extract;
mod extract_spill;
pub mod input;
pub mod mesh_rdf;
pub mod obo;
pub mod rdf;
mod restrictions;
mod spill;
pub mod sssom;
pub mod tables;
pub mod vocab;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use oxrdf::Triple;

pub use concepts::SourceConcepts;
pub use error::{IngestError, Location};
pub use extract::{Extractor, FileRelease, Profile};
pub use extract_spill::SPILL_CONCEPTS;

pub use crate::catalog::{Format, MappingFormat, RdfSyntax, TableFormat, strip_compression};
use crate::model::{Concept, Link, Prefixes};

/// A release a file states outside its triples (OBO `data-version`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatedRelease {
    pub value: String,
    pub property: &'static str,
}

/// Receives a source's triples as they are parsed.
pub trait TripleSink {
    fn triple(&mut self, triple: Triple) -> Result<(), IngestError>;
    fn stated_release(&mut self, release: StatedRelease);
}

/// Parses one file of the given format into `sink`.
pub fn parse(
    input: impl BufRead,
    file: &Path,
    format: Format,
    base_iri: Option<&str>,
    prefixes: &dyn Prefixes,
    sink: &mut impl TripleSink,
) -> Result<(), IngestError> {
    match format {
        Format::Obo => obo::parse(input, file, prefixes, sink),
        Format::Rdf(syntax) => rdf::parse(input, file, syntax, base_iri, sink),
        Format::Table(_) => Err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "a table is read by ingest::tables, not as triples".into(),
        }),
        Format::Mappings(_) => Err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "a mapping set is read by ingest::sssom, not as triples".into(),
        }),
    }
}

/// Children from parents, among concepts sorted by IRI.
pub(crate) fn fill_children(concepts: &mut [Concept]) {
    fill_related_from(concepts);
    let mut children: BTreeMap<String, Vec<Link>> = BTreeMap::new();
    for concept in concepts.iter() {
        for parent in &concept.parents {
            children.entry(parent.iri.clone()).or_default().push(Link {
                iri: concept.iri.clone(),
                kind: parent.kind,
                prov: parent.prov,
            });
        }
    }
    for (parent, links) in children {
        if let Ok(at) = concepts.binary_search_by(|c| c.iri.as_str().cmp(&parent))
            && let Some(concept) = concepts.get_mut(at)
        {
            concept.children = links;
        }
    }
}

/// Each class's `related_from`: the classes whose restrictions name it.
fn fill_related_from(concepts: &mut [Concept]) {
    let mut from: BTreeMap<String, Vec<crate::model::RelatedClass>> = BTreeMap::new();
    for concept in concepts.iter() {
        for r in &concept.relations {
            from.entry(r.iri.clone())
                .or_default()
                .push(crate::model::RelatedClass {
                    property: r.property.clone(),
                    property_label: r.property_label.clone(),
                    iri: concept.iri.clone(),
                    prov: r.prov,
                });
        }
    }
    for (target, links) in from {
        if let Ok(at) = concepts.binary_search_by(|c| c.iri.as_str().cmp(&target))
            && let Some(concept) = concepts.get_mut(at)
        {
            concept.related_from = links;
        }
    }
}

/// Keeps the first of each equal item, preserving order.
pub(crate) fn dedup_in_order<T: Eq + std::hash::Hash + Clone>(items: &mut Vec<T>) {
    let mut seen = std::collections::HashSet::new();
    items.retain(|item| seen.insert(item.clone()));
}

/// Sorts and drops repeats.
pub(crate) fn dedup_sorted<T: Ord>(items: &mut Vec<T>) {
    items.sort();
    items.dedup();
}

/// The rdf:type IRIs that mark a concept of this source: the catalogue's `concept_types`, or
/// its kind's (owl:Class for OBO and OWL, skos:Concept for SKOS; none for table sources).
pub fn concept_types(spec: &crate::catalog::SourceSpec) -> Vec<String> {
    use crate::catalog::SourceKind;
    if !spec.concept_types.is_empty() {
        return spec.concept_types.clone();
    }
    match spec.kind {
        SourceKind::Obo | SourceKind::Owl => vec![vocab::OWL_CLASS.into()],
        SourceKind::Skos => vec![vocab::SKOS_CONCEPT.into()],
        SourceKind::Mesh | SourceKind::Gene | SourceKind::Sssom => Vec::new(),
    }
}
