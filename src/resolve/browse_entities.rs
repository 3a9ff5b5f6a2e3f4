//! The properties and named individuals a release declares, read from its graph in the RDF
//! store (the concept tables hold classes only): each with its labels, definitions, and its
//! super-properties or types. A release declares few, so the whole set is read per question,
//! bounded by [`MAX_ENTITIES`] rows.

use std::collections::{BTreeMap, BTreeSet};

use super::ResolveError;
use super::browse::SourceBrowse;
use super::sparql;

/// Rows read at most for one release's properties or individuals.
pub const MAX_ENTITIES: usize = 100_000;

/// Properties or named individuals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntityKind {
    Property,
    Individual,
}

/// One declared property or individual.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entity {
    pub iri: String,
    /// `(text, language tag)`.
    pub labels: Vec<(String, Option<String>)>,
    pub definitions: Vec<(String, Option<String>)>,
    /// Super-properties that are properties of the release, or an individual's classes.
    pub parents: BTreeSet<String>,
    /// Sub-properties of the release (none for individuals).
    pub children: BTreeSet<String>,
}

const OWL: &str = "http://www.w3.org/2002/07/owl#";

/// An N-Triples term as the store prints it: an IRI, or a literal with its tag.
fn read_term(term: &str) -> Option<(String, Option<String>)> {
    if let Some(iri) = term.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        return Some((iri.to_string(), None));
    }
    let rest = term.strip_prefix('"')?;
    let end = rest.rfind('"')?;
    let text = rest[..end]
        .replace("\\\"", "\"")
        .replace("\\n", "\n")
        .replace("\\\\", "\\");
    let lang = rest[end + 1..].strip_prefix('@').map(str::to_string);
    Some((text, lang))
}

impl SourceBrowse<'_> {
    /// Every property (object, data, annotation) or named individual the release declares,
    /// by IRI.
    pub fn entities(&self, kind: EntityKind) -> Result<Vec<Entity>, ResolveError> {
        let types = match kind {
            EntityKind::Property => {
                format!("<{OWL}ObjectProperty> <{OWL}DatatypeProperty> <{OWL}AnnotationProperty>")
            }
            EntityKind::Individual => format!("<{OWL}NamedIndividual>"),
        };
        let graph = format!("<{}>", sparql::iri(&self.record.graph));
        let parent = match kind {
            EntityKind::Property => "<http://www.w3.org/2000/01/rdf-schema#subPropertyOf>",
            EntityKind::Individual => "a",
        };
        let query = format!(
            "SELECT ?e ?what ?o WHERE {{ GRAPH {graph} {{ VALUES ?type {{ {types} }} ?e a ?type . FILTER(isIRI(?e)) \
             OPTIONAL {{ \
               {{ ?e <http://www.w3.org/2000/01/rdf-schema#label> ?o BIND(\"label\" AS ?what) }} UNION \
               {{ VALUES ?described {{ <http://purl.obolibrary.org/obo/IAO_0000115> <http://purl.org/dc/elements/1.1/description> <http://purl.org/dc/terms/description> <http://www.w3.org/2000/01/rdf-schema#comment> }} \
                  ?e ?described ?o BIND(\"definition\" AS ?what) }} UNION \
               {{ ?e {parent} ?o FILTER(isIRI(?o)) BIND(\"parent\" AS ?what) }} }} }} }} LIMIT {MAX_ENTITIES}"
        );
        let rows = self.store()?.select(&query)?;
        let mut found: BTreeMap<String, Entity> = BTreeMap::new();
        for row in rows {
            let value = |name: &str| row.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
            let Some((iri, _)) = value("e").and_then(read_term) else {
                continue;
            };
            let entity = found.entry(iri.clone()).or_insert_with(|| Entity {
                iri,
                ..Entity::default()
            });
            let (Some(what), Some(object)) = (value("what"), value("o").and_then(read_term)) else {
                continue;
            };
            match what.trim_matches('"') {
                "label" => entity.labels.push(object),
                "definition" => entity.definitions.push(object),
                _ => {
                    entity.parents.insert(object.0);
                }
            }
        }
        if kind == EntityKind::Property {
            let declared: BTreeSet<String> = found.keys().cloned().collect();
            let mut children: Vec<(String, String)> = Vec::new();
            for entity in found.values_mut() {
                entity
                    .parents
                    .retain(|p| declared.contains(p) && p != &entity.iri);
                children.extend(
                    entity
                        .parents
                        .iter()
                        .map(|p| (p.clone(), entity.iri.clone())),
                );
            }
            for (parent, child) in children {
                if let Some(entity) = found.get_mut(&parent) {
                    entity.children.insert(child);
                }
            }
        } else {
            for entity in found.values_mut() {
                entity.parents.retain(|t| !t.starts_with(OWL));
            }
        }
        for entity in found.values_mut() {
            entity.labels.dedup();
            entity.definitions.dedup();
        }
        Ok(found.into_values().collect())
    }

    fn store(&self) -> Result<&crate::store::StoreReader, ResolveError> {
        self.resolver().store()
    }
}
