//! NLM's MeSH RDF (`meshv:` vocabulary): joins descriptors, supplementary concept records and
//! qualifiers with their concepts, terms and tree numbers into [`Concept`]s.
//!
//! One MeSH record is spread over several nodes: the record points at concepts, concepts at
//! terms, terms carry the labels, and tree numbers carry the hierarchy. Triples come in any
//! order, so [`MeshRdf::observe`] sorts each fact the join needs under the node it is about,
//! and [`MeshRdf::finish`] routes them to their records in passes over sorted runs
//! (`route.rs`) before joining one record at a time (`join.rs`). With a spill directory no
//! pass holds more than a run's worth of facts, whatever the size of the source.
//! Year-versioned IRIs (`http://id.nlm.nih.gov/mesh/2020/D000001`) are read as their
//! unversioned form.

mod join;
mod route;

use std::cmp::Ordering;
use std::io;
use std::path::Path;

use oxrdf::{NamedNode, NamedOrBlankNode, Term, Triple};
use serde::{Deserialize, Serialize};

use super::vocab::{OWL_DEPRECATED, RDF_TYPE, RDFS_LABEL};
use crate::model::{Concept, ConceptKind, Prefixes, SourceIdx};
use route::{ConceptFact, RecordFact, Stages, TermFact};

/// The MeSH id space; every node key is relative to it.
const MESH: &str = "http://id.nlm.nih.gov/mesh/";
/// The MeSH RDF vocabulary (`meshv:`).
const MESHV: &str = "http://id.nlm.nih.gov/mesh/vocab#";
/// Digits of the year segment in year-versioned IRIs (`…/mesh/2020/…`).
const YEAR_DIGITS: usize = 4;
/// Values the join reads per node and relation; real records have at most a few dozen, so
/// this only bounds the join's work on hostile input.
const MAX_VALUES_PER_NODE: usize = 512;
/// Marks a node key holding a whole IRI outside [`MESH`]; `<` cannot occur in an IRI.
const FOREIGN: char = '<';

/// The node-to-node relations the join follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
enum Rel {
    PrefConcept,
    Concept,
    PrefTerm,
    Term,
    TreeNumber,
    ParentTree,
    Broader,
    PreferredMappedTo,
    MappedTo,
    /// meshv:relatedConcept: a concept of the descriptor that is related to, not narrower
    /// than, the preferred one.
    RelatedConcept,
}

/// The literals the join reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
enum Lit {
    /// rdfs:label: a record's fallback name (and its translations).
    Name,
    /// meshv:prefLabel of a term.
    PrefLabel,
    /// meshv:altLabel of a term.
    AltLabel,
}

/// A node: its local part in the MeSH id space without a year segment (short, and the same
/// across years), else the whole IRI marked [`FOREIGN`]. Ordered as the IRIs they stand
/// for, so that records come out in IRI order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
struct NodeKey(Box<str>);

impl NodeKey {
    fn of(iri: &str) -> NodeKey {
        NodeKey(match iri.strip_prefix(MESH) {
            Some(local) => split_year(local).1.into(),
            None => format!("{FOREIGN}{iri}").into(),
        })
    }

    fn as_str(&self) -> &str {
        &self.0
    }

    fn foreign(&self) -> Option<&str> {
        self.0.strip_prefix(FOREIGN)
    }

    /// The (unversioned) IRI the key stands for.
    fn iri(&self) -> String {
        match self.foreign() {
            Some(iri) => iri.to_string(),
            None => format!("{MESH}{}", self.0),
        }
    }
}

impl Ord for NodeKey {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.foreign(), other.foreign()) {
            (None, None) => self.0.cmp(&other.0),
            (Some(a), Some(b)) => a.cmp(b),
            (Some(a), None) => a.bytes().cmp(MESH.bytes().chain(other.0.bytes())),
            (None, Some(b)) => MESH.bytes().chain(self.0.bytes()).cmp(b.bytes()),
        }
    }
}

impl PartialOrd for NodeKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// What an `rdf:type` makes of a node.
enum Role {
    Record(ConceptKind),
    /// A concept, term, tree number or descriptor/qualifier pair: never a concept itself.
    Part,
}

/// Sorts what a MeSH RDF stream says under the nodes it is about, and joins it at the end.
pub struct MeshRdf {
    source: SourceIdx,
    year: Option<String>,
    /// Arrival order of the facts, which the join keeps where order matters.
    seq: u64,
    stages: Stages,
    /// Key of the last subject typed as a part: its rdfs:label (which sorts after rdf:type)
    /// is not needed, and parts outnumber records.
    last_part: Option<NodeKey>,
    /// The first error writing a spilled run, reported by `finish`.
    failed: Option<io::Error>,
}

impl MeshRdf {
    /// A join that holds every fact in memory: for small inputs.
    pub fn new(source: SourceIdx) -> MeshRdf {
        MeshRdf {
            source,
            year: None,
            seq: 0,
            stages: Stages::new(None, route::RUN_FACTS),
            last_part: None,
            failed: None,
        }
    }

    /// From now on spills facts as sorted runs under `dir` (a build's temporary directory),
    /// so that memory does not grow with the source; only before the first fact.
    pub fn spill_to(&mut self, dir: &Path) {
        self.spill_every(dir, route::RUN_FACTS);
    }

    /// As [`MeshRdf::spill_to`], a run every `facts` facts.
    pub(crate) fn spill_every(&mut self, dir: &Path, facts: usize) {
        if self.seq == 0 {
            self.stages = Stages::new(Some(dir), facts);
        }
    }

    /// The MeSH year named by year-versioned IRIs (`http://id.nlm.nih.gov/mesh/2020/…`), if any
    /// were seen.
    pub fn year(&self) -> Option<String> {
        self.year.clone()
    }

    pub fn observe(&mut self, triple: &Triple) {
        if self.failed.is_some() {
            return;
        }
        if let Err(error) = self.sort_fact(triple) {
            self.failed = Some(error);
        }
    }

    fn sort_fact(&mut self, triple: &Triple) -> io::Result<()> {
        let NamedOrBlankNode::NamedNode(subject) = &triple.subject else {
            return Ok(());
        };
        let subject = subject.as_str();
        self.note_year(subject);
        self.seq += 1;
        let seq = self.seq;
        match triple.predicate.as_str() {
            RDF_TYPE => match &triple.object {
                Term::NamedNode(class) => {
                    match class.as_str().strip_prefix(MESHV).and_then(role_of) {
                        Some(Role::Record(kind)) => {
                            self.stages.record_type(NodeKey::of(subject), seq, kind)
                        }
                        Some(Role::Part) => {
                            self.last_part = Some(NodeKey::of(subject));
                            Ok(())
                        }
                        None => Ok(()),
                    }
                }
                _ => Ok(()),
            },
            RDFS_LABEL => {
                let key = NodeKey::of(subject);
                if self.last_part.as_ref() == Some(&key) {
                    return Ok(());
                }
                match text_of(&triple.object) {
                    Some((text, lang)) => self.stages.record(
                        key,
                        seq,
                        RecordFact::Lit {
                            from: None,
                            lit: Lit::Name,
                            text,
                            lang,
                        },
                    ),
                    None => Ok(()),
                }
            }
            OWL_DEPRECATED => match &triple.object {
                Term::Literal(lit) if matches!(lit.value().trim(), "true" | "1") => self
                    .stages
                    .record(NodeKey::of(subject), seq, RecordFact::Deprecated),
                _ => Ok(()),
            },
            predicate => {
                let Some(local) = predicate.strip_prefix(MESHV) else {
                    return Ok(());
                };
                if let Some(lit) = literal_of(local) {
                    return match text_of(&triple.object) {
                        Some((text, lang)) => self.stages.term(
                            NodeKey::of(subject),
                            seq,
                            TermFact::Lit(lit, text, lang),
                        ),
                        None => Ok(()),
                    };
                }
                let (Some(rel), Term::NamedNode(object)) = (relation_of(local), &triple.object)
                else {
                    return Ok(());
                };
                self.note_year(object.as_str());
                self.sort_edge(NodeKey::of(subject), seq, rel, NodeKey::of(object.as_str()))
            }
        }
    }

    /// Files an edge under the node the pass that reads it groups by.
    fn sort_edge(&mut self, from: NodeKey, seq: u64, rel: Rel, to: NodeKey) -> io::Result<()> {
        let own = match rel {
            Rel::PrefConcept | Rel::Concept => {
                let owner = ConceptFact::Owner(from.clone());
                self.stages.concept(to.clone(), seq, owner)?;
                RecordFact::Edge {
                    from: None,
                    rel,
                    to,
                }
            }
            Rel::PrefTerm | Rel::Term | Rel::TreeNumber | Rel::RelatedConcept => {
                return self.stages.concept(from, seq, ConceptFact::Edge(rel, to));
            }
            Rel::ParentTree => return self.stages.term(from, seq, TermFact::ParentTree(to)),
            Rel::Broader | Rel::PreferredMappedTo | Rel::MappedTo => RecordFact::Edge {
                from: None,
                rel,
                to,
            },
        };
        self.stages.record(from, seq, own)
    }

    fn note_year(&mut self, iri: &str) {
        if self.year.is_none()
            && let Some(year) = iri.strip_prefix(MESH).and_then(|l| split_year(l).0)
        {
            self.year = Some(year.to_string());
        }
    }

    /// The records as concepts, sorted by IRI, with CURIEs, deduplicated items and children.
    pub fn finish(self, prefixes: &dyn Prefixes) -> io::Result<Vec<Concept>> {
        let mut concepts = Vec::new();
        self.finish_each(prefixes, |concept| {
            concepts.push(concept);
            Ok(())
        })?;
        crate::ingest::fill_children(&mut concepts);
        Ok(concepts)
    }

    /// As [`MeshRdf::finish`], but each concept goes to `emit` in IRI order as it is joined,
    /// without its children, so that they are never all held at once.
    pub fn finish_each(
        self,
        prefixes: &dyn Prefixes,
        mut emit: impl FnMut(Concept) -> io::Result<()>,
    ) -> io::Result<()> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        let source = self.source;
        for bundle in self.stages.route()? {
            if let Some(concept) = join::concept(&bundle?, source, prefixes) {
                emit(concept)?;
            }
        }
        Ok(())
    }
}

/// A literal's trimmed text and language; `None` for an empty one or a non-literal.
fn text_of(object: &Term) -> Option<(Box<str>, Option<Box<str>>)> {
    let Term::Literal(literal) = object else {
        return None;
    };
    let text = literal.value().trim();
    (!text.is_empty()).then(|| (text.into(), literal.language().map(Into::into)))
}

fn role_of(class: &str) -> Option<Role> {
    Some(match class {
        "Qualifier" => Role::Record(ConceptKind::Qualifier),
        "SupplementaryConceptRecord" => Role::Record(ConceptKind::SupplementaryRecord),
        c if c.starts_with("SCR_") => Role::Record(ConceptKind::SupplementaryRecord),
        "PublicationType" | "CheckTag" => Role::Record(ConceptKind::Descriptor),
        c if c.ends_with("Descriptor") => Role::Record(ConceptKind::Descriptor),
        "Concept" | "Term" | "TreeNumber" => Role::Part,
        c if c.ends_with("Pair") => Role::Part,
        _ => return None,
    })
}

fn relation_of(local: &str) -> Option<Rel> {
    Some(match local {
        "preferredConcept" => Rel::PrefConcept,
        "concept" => Rel::Concept,
        "preferredTerm" => Rel::PrefTerm,
        "term" => Rel::Term,
        "treeNumber" => Rel::TreeNumber,
        "parentTreeNumber" => Rel::ParentTree,
        "broaderDescriptor" => Rel::Broader,
        "preferredMappedTo" => Rel::PreferredMappedTo,
        "mappedTo" => Rel::MappedTo,
        "relatedConcept" => Rel::RelatedConcept,
        _ => return None,
    })
}

fn literal_of(local: &str) -> Option<Lit> {
    match local {
        "prefLabel" => Some(Lit::PrefLabel),
        "altLabel" => Some(Lit::AltLabel),
        _ => None,
    }
}

fn push_unique<T: PartialEq>(values: &mut Vec<T>, value: T) {
    if values.len() < MAX_VALUES_PER_NODE && !values.contains(&value) {
        values.push(value);
    }
}

/// A tree number's text: the last path segment of its key (`D03.633.100`).
fn tree_text(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

/// A MeSH IRI without its year segment (`…/mesh/2020/D000001` → `…/mesh/D000001`), when it
/// has one.
pub fn unversioned(iri: &str) -> Option<String> {
    let local = iri.strip_prefix(MESH)?;
    match split_year(local) {
        (Some(_), rest) => Some(format!("{MESH}{rest}")),
        (None, _) => None,
    }
}

/// The triple with year-versioned MeSH IRIs unversioned, so that the store names each node
/// as the index does and every answer's SPARQL re-runs.
pub fn unversioned_triple(triple: Triple) -> Triple {
    let subject = match &triple.subject {
        NamedOrBlankNode::NamedNode(n) => unversioned(n.as_str())
            .map(|iri| NamedOrBlankNode::NamedNode(NamedNode::new_unchecked(iri))),
        _ => None,
    };
    let object = match &triple.object {
        Term::NamedNode(n) => {
            unversioned(n.as_str()).map(|iri| Term::NamedNode(NamedNode::new_unchecked(iri)))
        }
        _ => None,
    };
    if subject.is_none() && object.is_none() {
        return triple;
    }
    Triple::new(
        subject.unwrap_or(triple.subject),
        triple.predicate,
        object.unwrap_or(triple.object),
    )
}

/// A local part's year segment (`2020/D000001` → `2020`), and the part without it.
fn split_year(local: &str) -> (Option<&str>, &str) {
    let year = local.get(..YEAR_DIGITS);
    let rest = local.get(YEAR_DIGITS..).and_then(|r| r.strip_prefix('/'));
    match (year, rest) {
        (Some(year), Some(rest)) if year.bytes().all(|b| b.is_ascii_digit()) => (Some(year), rest),
        _ => (None, local),
    }
}

#[cfg(test)]
mod tests;
